//! Serving: the chips a replica needs, prefill, the decode step by part, and throughput.

use alloc::format;
use alloc::string::String;

use crate::chip::Chip;
use crate::dtype::Dtype;
use crate::efficiency;
use crate::roofline::Roofline;
use crate::system::Cluster;
use crate::units::{Bytes, Seconds};

use super::ops::{Graph, ServeLayout, Step};
use super::train::{group_collective, tp_allreduce};
use super::{Memory, Model, WorkloadError};
use crate::collective::Op;

/// What serving kernels reach of the format's large-matmul rate, fitted to one measurement:
/// MLPerf Inference v4.1 closed, 8 × H200 SXM (TP1, 806 sequences, FP8), Llama 2 70B Offline,
/// 31,302.7 tokens/s (mlcommons/inference_results_v4.1,
/// closed/NVIDIA/results/H200-SXM-141GBx8_TRT) by `calibration::fit_serving_factor`; the
/// 8 × H100 run checks it (tuned against: it entered with the efficiency this replaced). Below 1 because serving also runs small kernels, sampling and
/// scheduling between the GEMMs.
pub const SERVING_KERNEL_FACTOR: f64 = 0.80;
/// Default fraction of HBM bandwidth a decode step streams at (an assumption: no measured
/// figure is in the calibration set).
pub const SERVING_MEMORY_EFFICIENCY: f64 = 0.85;
/// Neuron's fixed time per decoder layer of a decode step on Trainium: the kernel boundaries
/// and the synchronisation of every logical core at each layer's tensor-parallel all-reduces
/// (AWS documents ~80 µs of jitter across the 64 processes of a trn2.48xlarge), which a
/// roofline of the layer's bytes and FLOPs does not see. Fitted to one measurement: AWS's
/// Llama 3.3 70B tutorial on trn2.48xlarge (TP64 at LNC=2, batch 1, BF16; 19.6 ms per
/// output token, P50; Neuron 2.21) by `calibration::fit_neuron_layer_fixed`; the other Trn2
/// runs check it. Alike, it makes the decode floor of a 24-layer model about 3.3 ms, as
/// the 4.0 ms published for Qwen3.5-2B on 8 logical cores shows.
pub const NEURON_LAYER_FIXED_S: f64 = 138e-6;

/// The shapes a deployment was compiled for. Neuron runs the graphs it compiled ahead of
/// time, whatever the live load: every decode step computes and streams the KV cache of
/// `batch` sequences up to the sequence bucket the context falls in, and each prompt is
/// prefilled one at a time, padded to its bucket (NxD Inference's context-encoding and
/// token-generation buckets; its default is the powers of two from 128 up to the longest
/// sequence).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Compiled {
    /// Sequences the token-generation graph holds.
    pub batch: u32,
    /// The longest sequence, prompt and output (the last bucket).
    pub seq: u32,
    /// The sequence buckets, ascending, when the deployment sets its own (empty: powers of
    /// two from 128, capped at `seq`).
    pub buckets: &'static [u32],
}

impl Compiled {
    /// The bucket `tokens` run at: the first that holds them (the last, `seq`, if none does).
    #[must_use]
    pub fn bucket(&self, tokens: f64) -> f64 {
        if let Some(&b) = self.buckets.iter().find(|&&b| f64::from(b) >= tokens) {
            return f64::from(b);
        }
        if !self.buckets.is_empty() {
            return f64::from(self.seq.max(*self.buckets.last().unwrap_or(&0)));
        }
        let seq = f64::from(self.seq);
        if tokens >= seq {
            return tokens;
        }
        let mut b = 128.0;
        while b < tokens {
            b *= 2.0;
        }
        b.min(seq)
    }
}

/// Inputs of an inference estimate (offline serving: batches of equal requests).
#[derive(Clone, Debug, PartialEq)]
pub struct InferConfig {
    /// The model.
    pub model: Model,
    /// Weight and compute format (KV cache in the same format, at least 1 byte).
    pub dtype: Dtype,
    /// Fixed time per decoder layer of a decode step on Trainium, s
    /// ([`NEURON_LAYER_FIXED_S`]); other chips pay none.
    pub neuron_layer_fixed_s: f64,
    /// Concurrent sequences per model replica.
    pub batch: u32,
    /// Prompt tokens per request.
    pub prompt: u32,
    /// Generated tokens per request.
    pub output: u32,
    /// Chips per replica (tensor parallel); `None` picks the fewest that fit (a power of two
    /// within the scale-up domain).
    pub tp: Option<u32>,
    /// Fraction of the dense BF16 peak large BF16 matmuls reach; `None` takes the chip's
    /// default ([`efficiency::default_bf16`]). Other formats scale by the chip's ratio.
    pub matmul_efficiency: Option<f64>,
    /// What serving kernels reach of the large-matmul rate ([`SERVING_KERNEL_FACTOR`]).
    pub kernel_factor: f64,
    /// Fraction of HBM bandwidth a decode step streams at.
    pub memory_efficiency: f64,
    /// Format the weights are stored in (`None`: the compute format). Narrower weights than
    /// the compute format (W4A8) halve what a decode step streams; the matmuls still run at
    /// the compute format's rate.
    pub weight_dtype: Option<Dtype>,
    /// Format of the KV cache (`None`: the compute format, at least FP8's byte).
    pub kv_dtype: Option<Dtype>,
    /// Speculative decoding: tokens drafted per step by a one-layer multi-token-prediction
    /// head (0: none).
    pub draft_tokens: u32,
    /// Probability that each drafted token is accepted.
    pub acceptance: f64,
    /// Fraction of prompt tokens found in the prefix cache (not prefilled again).
    pub prefix_hit: f64,
    /// Serve a mixture of experts expert-parallel: each decode step streams only the
    /// experts its tokens touch, and its MoE layers exchange tokens by all-to-all instead of
    /// all-reducing the FFN's output (links of version 2 and earlier streamed every expert).
    pub expert_parallel: bool,
    /// A prefill pays, besides its FLOPs, its tensor-parallel all-reduces over the prompt's
    /// tokens and its kernel launches (links of model version 4 and earlier priced FLOPs
    /// alone).
    pub prefill_overheads: bool,
    /// The shapes the deployment was compiled for (`None`: on Trainium, when
    /// `static_shapes` is set, its batch of sequences of the prompt and output, in buckets of
    /// powers of two; elsewhere shapes that follow the load).
    pub compiled: Option<Compiled>,
    /// Trainium runs only shapes compiled ahead of time, so with no `compiled` given it runs
    /// the batch's (links of model version 4 and earlier did not).
    pub static_shapes: bool,
    /// The attention data-parallel degree: the replica's sequences split over this many
    /// groups of chips, each running attention tensor-parallel (`None`: 1).
    pub attn_dp: Option<u32>,
    /// The serving expert-parallel degree: a mixture of experts' experts split over this many
    /// groups of chips (`None`: every chip of the replica when `expert_parallel` is set,
    /// else 1).
    pub ep: Option<u32>,
    /// Time a mixture of experts' steps, and FP4's, as the operations they run, each from the
    /// chip's kernel table where one is published ([`super::ops`]); links of model version 6
    /// and earlier timed them as one GEMM term at one efficiency per format (as dense models
    /// in wider formats still are: see [`InferConfig::graph`]).
    pub op_graph: bool,
    /// Time a mixture of experts' grouped GEMMs from kernels measured on its own experts (or
    /// the nearest measured), the busiest rank holding the hottest expert
    /// ([`super::ops::HOT_EXPERT`]), where links of model version 7 and earlier scaled
    /// DeepSeek's under uniform routing.
    pub own_experts: bool,
}

/// Most tokens a step may draft.
pub use crate::keys::MAX_DRAFT;

/// Expected tokens one verification step yields with `k` drafted tokens each accepted with
/// probability `a` (independently; the first rejection ends the run, and the target model's
/// own token always counts): (1 − a^(k+1)) ÷ (1 − a). Leviathan, Kalman and Matias, "Fast
/// Inference from Transformers via Speculative Decoding", ICML 2023, eq. 1.
#[must_use]
pub fn tokens_per_step(k: u32, a: f64) -> f64 {
    if k == 0 || a <= 0.0 {
        return 1.0;
    }
    if a >= 1.0 {
        return f64::from(k + 1);
    }
    (1.0 - libm::pow(a, f64::from(k + 1))) / (1.0 - a)
}

impl InferConfig {
    /// A configuration with the serving defaults: the fewest chips that fit, the chip's
    /// matmul efficiency less [`SERVING_KERNEL_FACTOR`], and HBM at
    /// [`SERVING_MEMORY_EFFICIENCY`].
    #[must_use]
    pub fn new(model: Model, dtype: Dtype, batch: u32, prompt: u32, output: u32) -> Self {
        Self {
            model,
            dtype,
            batch,
            prompt,
            output,
            tp: None,
            matmul_efficiency: None,
            kernel_factor: SERVING_KERNEL_FACTOR,
            memory_efficiency: SERVING_MEMORY_EFFICIENCY,
            neuron_layer_fixed_s: NEURON_LAYER_FIXED_S,
            weight_dtype: None,
            kv_dtype: None,
            draft_tokens: 0,
            acceptance: 0.0,
            prefix_hit: 0.0,
            expert_parallel: true,
            prefill_overheads: true,
            compiled: None,
            static_shapes: true,
            attn_dp: None,
            ep: None,
            op_graph: true,
            own_experts: true,
        }
    }

    /// Whether a step is timed as its operations: with `op_graph` set, for a mixture of
    /// experts or FP4 compute, where one GEMM term at one efficiency per format departs
    /// furthest from what runs. Dense models in wider formats keep the one-term model its
    /// serving efficiency was fitted in.
    #[must_use]
    pub fn graph(&self) -> bool {
        self.op_graph && (self.model.experts > 0 || self.dtype == Dtype::Fp4)
    }

    /// The layout of a replica of `chips` chips: the degrees set, or their defaults (on
    /// Trainium, `neuron`, experts sliced over every chip, as Neuron's default
    /// `moe_ep_degree` of 1 runs them).
    #[must_use]
    pub fn layout(&self, chips: u32, neuron: bool) -> ServeLayout {
        let wide = self.expert_parallel && self.model.experts > 0 && !neuron;
        ServeLayout {
            chips,
            attn_dp: self.attn_dp.unwrap_or(1),
            ep: self.ep.unwrap_or(if wide { chips } else { 1 }),
        }
    }
}

/// An inference estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct InferReport {
    /// Chips per replica.
    pub chips_needed: u32,
    /// Replicas the cluster holds.
    pub replicas: u32,
    /// One decode step for the whole batch of a replica.
    pub decode_step: Seconds,
    /// Whether the decode step is bound by memory or compute.
    pub decode_bound: &'static str,
    /// Prefill of one batch's prompts.
    pub prefill: Seconds,
    /// Output tokens per second per chip.
    pub tokens_per_s_per_chip: f64,
    /// Output tokens per second over the cluster.
    pub tokens_per_s: f64,
    /// Time between a request's tokens during decode.
    pub latency_per_token: Seconds,
    /// Memory per chip.
    pub memory: Memory,
    /// How it was computed.
    pub formula: String,
    /// The decode step by part (they add up to it).
    pub decode_parts: DecodeParts,
    /// The prefill by part (they add up to it).
    pub prefill_parts: PrefillParts,
    /// What a step of a replica costs, as this report composed it.
    pub step_model: StepModel,
    /// How the replica spreads the model over its chips.
    pub layout: ServeLayout,
    /// One decode step of the replica operation by operation, on one chip (empty when the
    /// step is not timed as a graph: see [`InferConfig::op_graph`]).
    pub decode_ops: Step,
    /// One prefill pass operation by operation, on one chip (empty likewise).
    pub prefill_ops: Step,
}

/// A decode step's time by part.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DecodeParts {
    /// The weight GEMMs: their compute, or streaming the weights once, whichever is slower.
    pub weights: Seconds,
    /// The fixed cost of launching each GEMM.
    pub launches: Seconds,
    /// Attention over each sequence's KV cache.
    pub attention: Seconds,
    /// Tensor-parallel all-reduces.
    pub tp_comm: Seconds,
    /// Drafting tokens for speculative decoding.
    pub draft: Seconds,
    /// FLOPs and bytes on one chip per output token: the weight GEMMs' (the weights they
    /// stream), then attention's (the KV cache it reads).
    pub costs: [(f64, f64); 2],
    /// Whether the weight GEMMs' compute, not their streaming, sets their time.
    pub weights_compute_bound: bool,
}

/// A prefill's time by part: the batch's prompts through the model, their tensor-parallel
/// exchanges and the calls' launches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrefillParts {
    /// The forward passes: their FLOPs, or streaming the weights, whichever is slower.
    pub forward: Seconds,
    /// Tensor-parallel all-reduces (and a mixture of experts' all-to-alls).
    pub tp_comm: Seconds,
    /// The fixed cost of launching each GEMM.
    pub launches: Seconds,
    /// FLOPs and bytes of the forward passes on one chip.
    pub cost: (f64, f64),
    /// The share of the forward FLOPs that is attention over the prompt (the rest are the
    /// weight GEMMs).
    pub attention_share: f64,
    /// Whether the FLOPs, not streaming the weights, set the forward passes' time.
    pub compute_bound: bool,
}

/// The formula's account of the formats, speculative decoding and the prefix cache, where
/// they differ from the defaults.
fn extras(cfg: &InferConfig, kv_bytes: f64, per_step: f64, draft: f64) -> String {
    let mut o = String::new();
    if let Some(w) = cfg.weight_dtype {
        o.push_str(&format!(
            "; weights stored in {w}, matmuls in {}",
            cfg.dtype
        ));
    }
    if let Some(k) = cfg.kv_dtype {
        o.push_str(&format!(
            "; KV cache in {k}: {} per token",
            Bytes::new(kv_bytes).display_memory()
        ));
    }
    if cfg.draft_tokens > 0 {
        o.push_str(&format!(
            "; speculative decoding: each step verifies {} drafted tokens + 1 (compute × {}, weights and KV read once) and yields (1 − a^(k+1)) ÷ (1 − a) = {:.2} tokens at acceptance a = {}; drafting with a one-layer head {} a step; the parts above are per output token",
            cfg.draft_tokens,
            cfg.draft_tokens + 1,
            per_step,
            cfg.acceptance,
            Seconds::new(draft)
        ));
    }
    if cfg.prefix_hit > 0.0 {
        o.push_str(&format!(
            "; prefix cache: {:.0}% of prompt tokens found, only the rest prefilled",
            cfg.prefix_hit * 100.0
        ));
    }
    o
}

/// What one step of a serving replica costs: the parts the analytic model composes into its
/// decode step and prefill, and the request-level simulation ([`crate::servesim`]) into
/// each step it runs. Built by [`infer`] for its configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct StepModel {
    /// The model served.
    pub model: Model,
    /// Where it runs (for the tensor-parallel exchanges).
    pub cluster: Cluster,
    /// Chips per replica.
    pub tp: u32,
    /// A mixture of experts' experts spread over the replica's chips.
    pub expert_parallel: bool,
    /// Bytes of all the weights.
    pub weights: f64,
    /// Bytes of one weight as stored.
    pub weight_bytes: f64,
    /// FLOP/s one chip sustains in the GEMMs and attention.
    pub peak: f64,
    /// Bytes/s one chip streams from HBM.
    pub bw: f64,
    /// A step's launches: a fixed time per GEMM call and, on Trainium, per layer.
    pub calls: f64,
    /// KV-cache bytes per token of context, every layer counted.
    pub kv_bytes: f64,
    /// Bytes the replica keeps for KV caches: 90% of its HBM less the weights.
    pub kv_capacity: f64,
    /// Bytes of one sequence's linear-attention state (0 without such layers), which each
    /// decode step reads and writes back.
    pub state_bytes: f64,
    /// The shapes the deployment runs, when it was compiled for them (Neuron): every decode
    /// step runs the graph's batch at the bucket of its longest context, and each prompt is
    /// prefilled alone, padded to its bucket.
    pub compiled: Option<Compiled>,
    /// The step as the operations it runs, when it is timed so ([`InferConfig::graph`]).
    pub graph: Option<Graph>,
}

impl StepModel {
    /// Bytes a step over `tokens` tokens streams: every weight, or with expert parallelism
    /// the dense part and only the routed experts its tokens touch: of E experts with k
    /// chosen per token, about E·(1 − (1 − k/E)^tokens) per MoE layer.
    #[must_use]
    pub fn streamed(&self, tokens: f64) -> f64 {
        let m = &self.model;
        if !(self.expert_parallel && m.experts > 0) {
            return self.weights;
        }
        let e = f64::from(m.experts);
        let touched = e * (1.0 - libm::pow(1.0 - f64::from(m.active_experts) / e, tokens));
        let routed_all = m.moe_layers() * m.expert_params(m.experts);
        let per_expert = m.moe_layers() * m.expert_params(1);
        (m.params_total() - routed_all + touched * per_expert) * self.weight_bytes
    }

    /// The tensor-parallel exchanges of one pass over `tokens` tokens; for a step timed as
    /// its operations, everything its tokens alone set (every operation but attention), which
    /// a simulation looks up by the step's tokens as it does the exchanges.
    ///
    /// # Errors
    /// A collective that cannot run on the replica's chips.
    pub fn exchanges(&self, tokens: f64) -> Result<f64, WorkloadError> {
        if let Some(g) = &self.graph {
            return g.token_bound(tokens);
        }
        let (m, tp, cluster) = (&self.model, self.tp, &self.cluster);
        let t = f64::from(tp);
        Ok(match (tp > 1, self.expert_parallel && m.experts > 0) {
            (false, _) => 0.0,
            (true, false) => {
                tp_allreduce(cluster, tp, Bytes::new(tokens * m.d() * 2.0))?
                    * 2.0
                    * f64::from(m.layers)
            }
            (true, true) => {
                // Attention's output in every layer and the dense layers' FFN all-reduce;
                // each MoE layer sends its tokens to their experts and back.
                let ar = tp_allreduce(cluster, tp, Bytes::new(tokens * m.d() * 2.0))?;
                let routed = tokens * f64::from(m.active_experts) * m.d() * 2.0 / t;
                let a2a = group_collective(cluster, Op::AllToAll, tp, 1, Bytes::new(routed))?;
                ar * (f64::from(m.layers) + m.dense_ffn_layers()) + a2a * 2.0 * m.moe_layers()
            }
        })
    }

    /// Attention FLOPs of one decoded token that attends to `att` tokens.
    #[must_use]
    pub fn decode_attention_flops(&self, att: f64) -> f64 {
        4.0 * f64::from(self.model.layers) * self.model.d() * att
    }

    /// The weight GEMMs' FLOPs of one decoded token that attends to `att` tokens.
    #[must_use]
    pub fn decode_gemm_flops(&self, att: f64) -> f64 {
        self.model.forward_flops_per_token(att) - self.decode_attention_flops(att)
    }

    /// The linear-attention state of `seqs` decoding sequences, read and written back once a
    /// step (0 without such layers).
    #[must_use]
    pub fn state_io(&self, seqs: f64) -> f64 {
        seqs * 2.0 * self.state_bytes / f64::from(self.tp) / self.bw
    }

    /// Attention of decoded tokens over `att` tokens of context in all (summed over the
    /// sequences), `tokens` new tokens a sequence: its FLOPs or the KV cache it streams,
    /// whichever is slower.
    #[must_use]
    pub fn decode_attention(&self, tokens: f64, att: f64) -> f64 {
        let t = f64::from(self.tp);
        (tokens * self.decode_attention_flops(att) / t / self.peak)
            .max(att * self.kv_bytes / t / self.bw)
    }

    /// The sparse-attention indexer of decoded tokens scoring `ctx` tokens of context in all,
    /// `tokens` new tokens a sequence: its FLOPs or its keys streamed, whichever is slower
    /// (0 without one).
    #[must_use]
    pub fn indexer(&self, tokens: f64, ctx: f64) -> f64 {
        if self.model.sparse_topk == 0 {
            return 0.0;
        }
        let t = f64::from(self.tp);
        (tokens * self.model.indexer_flops(ctx) / t / self.peak)
            .max(ctx * self.model.indexer_bytes_per_token() / t / self.bw)
    }

    /// One step of a replica: `decode` sequences each decoding one token, `att` the context
    /// they attend to in all (and `indexed`, the context a sparse indexer scores), and prefill
    /// chunks of `prefill` tokens in all doing
    /// `prefill_flops` FLOPs (attention over their prompts included). Its GEMMs run their
    /// FLOPs or stream the weights once, whichever is slower; then attention over the KV
    /// caches, the launches and the exchanges of every token.
    ///
    /// # Errors
    /// As [`StepModel::exchanges`].
    pub fn step(
        &self,
        decode: f64,
        (att, indexed): (f64, f64),
        prefill: f64,
        prefill_flops: f64,
    ) -> Result<f64, WorkloadError> {
        let exchanges = self.exchanges(decode + prefill)?;
        Ok(self.step_with(decode, (att, indexed), prefill, prefill_flops, exchanges))
    }

    /// [`StepModel::step`] with the step's exchanges already known (a simulation looks them
    /// up by the step's tokens).
    #[must_use]
    pub fn step_with(
        &self,
        decode: f64,
        (att, indexed): (f64, f64),
        prefill: f64,
        prefill_flops: f64,
        exchanges: f64,
    ) -> f64 {
        let t = f64::from(self.tp);
        let tokens = decode + prefill;
        if tokens <= 0.0 {
            return 0.0;
        }
        if let Some(g) = &self.graph {
            // The token-bound operations, decode attention from the chip's tables, and the
            // prefill chunks' attention (their FLOPs beyond the weights') at the roofline.
            let pre_attn = (prefill_flops - prefill * 2.0 * self.model.params_active()).max(0.0);
            return exchanges
                + g.decode_attention(decode, if decode > 0.0 { att / decode } else { 0.0 })
                + pre_attn / t / self.peak
                + self.state_io(decode)
                + self.indexer(1.0, indexed);
        }
        let flops = decode * self.decode_gemm_flops(if decode > 0.0 { att / decode } else { 0.0 })
            + prefill_flops;
        let gemm = (flops / t / self.peak).max(self.streamed(tokens) / t / self.bw);
        gemm + self.calls
            + self.decode_attention(1.0, att)
            + self.state_io(decode)
            + self.indexer(1.0, indexed)
            + exchanges
    }
}

/// Estimate offline inference: every replica prefills its batch, then decodes `output` steps.
///
/// # Errors
/// When the model does not fit the scale-up domain, or the chip lacks the format.
pub fn infer(
    cluster: &Cluster,
    chip: &Chip,
    cfg: &InferConfig,
) -> Result<InferReport, WorkloadError> {
    infer_with(cluster, chip, cfg, true)
}

/// [`infer`], with the formula written out only when `explain` is set: a serving curve
/// evaluates hundreds of points and shows none of their formulas.
pub(crate) fn infer_with(
    cluster: &Cluster,
    chip: &Chip,
    cfg: &InferConfig,
    explain: bool,
) -> Result<InferReport, WorkloadError> {
    let m = &cfg.model;
    if cfg.batch == 0 || cfg.prompt == 0 || cfg.output == 0 {
        return Err(WorkloadError::BadInput(
            "batch, prompt and output must be at least 1".into(),
        ));
    }
    if cfg.draft_tokens > MAX_DRAFT
        || !(0.0..=0.99).contains(&cfg.acceptance)
        || !(0.0..=0.99).contains(&cfg.prefix_hit)
    {
        return Err(WorkloadError::BadInput(format!(
            "drafted tokens go from 0 to {MAX_DRAFT}, and the acceptance and prefix-cache hit rates from 0 to 0.99"
        )));
    }
    let roof = Roofline::dense(chip, cfg.dtype).ok_or_else(|| {
        WorkloadError::NoFormat(format!("{} has no dense {} figure", chip.id, cfg.dtype))
    })?;
    let hbm = chip.hbm_capacity.value.get();
    // Continuous (in-flight) batching staggers requests, so the live KV cache averages the
    // prompt plus half the output per sequence.
    let mean_ctx = f64::from(cfg.prompt) + f64::from(cfg.output) / 2.0;
    let weights = m.params_total() * cfg.weight_dtype.unwrap_or(cfg.dtype).bytes();
    let kv_bytes = match cfg.kv_dtype {
        Some(d) => m.kv_bytes_per_token(d),
        None => m
            .kv_bytes_per_token(cfg.dtype)
            .max(m.kv_bytes_per_token(Dtype::Fp8)),
    };
    // A windowed layer keeps only its window of a sequence's keys and values.
    // (Linear layers' state in the cache's format; the sparse indexer's FP8 keys.)
    let kv_elem = cfg
        .kv_dtype
        .map_or(cfg.dtype.bytes().max(1.0), |d| d.bytes());
    let kv = f64::from(cfg.batch)
        * (m.attended(mean_ctx) * kv_bytes
            + m.indexer_bytes_per_token() * mean_ctx
            + m.linear_state() * kv_elem);
    // Leave 10% of HBM for activations and the runtime.
    let usable = 0.9 * hbm;
    let domain = cluster.system.chips();
    let tp = match cfg.tp {
        Some(t) if t >= 1 && t <= domain => t,
        Some(t) => {
            return Err(WorkloadError::BadLayout(format!(
                "{t} chips per replica do not fit the {domain}-chip scale-up domain"
            )))
        }
        None => {
            let mut t = 1;
            while (weights + kv) / f64::from(t) > usable && t < domain {
                t = (t * 2).min(domain);
            }
            t
        }
    };
    let layout = cfg.layout(tp, chip.runs_neuron());
    if cfg.graph() {
        layout.check()?;
    }
    // In the graph's layouts, attention and the dense layers are copied into every attention
    // data-parallel group and sliced over its chips, the routed experts sliced over all of
    // them; each group keeps its own sequences' KV caches, a latent cache whole on each chip
    // (it has no heads to slice) and keys and values sliced by KV head.
    let memory = if cfg.graph() {
        let wb = cfg.weight_dtype.unwrap_or(cfg.dtype).bytes();
        let routed = m.moe_layers() * m.expert_params(m.experts) * wb;
        let ta = f64::from(layout.attn_tp());
        let kv_split = if m.mla.is_some() {
            1.0
        } else {
            ta.min(f64::from(m.kv_heads.max(1)))
        };
        Memory {
            weights: (weights - routed) / ta + routed / f64::from(tp),
            gradients: 0.0,
            optimizer: 0.0,
            activations: 0.0,
            kv_cache: kv / f64::from(layout.attn_dp) / kv_split,
        }
    } else {
        Memory {
            weights: weights / f64::from(tp),
            gradients: 0.0,
            optimizer: 0.0,
            activations: 0.0,
            kv_cache: kv / f64::from(tp),
        }
    };
    if memory.total() > usable {
        return Err(WorkloadError::DoesNotFit {
            needed: memory.total(),
            available: usable,
            detail: format!("the weights and a KV cache for {} sequences of {mean_ctx} tokens on average need more than {tp} chips", cfg.batch),
        });
    }
    let t = f64::from(tp);
    let b = f64::from(cfg.batch);
    let eff = efficiency::matmul(chip, cfg.dtype);
    let bf16 = cfg
        .matmul_efficiency
        .unwrap_or_else(|| efficiency::default_bf16(chip).value);
    if !(bf16 > 0.0 && bf16 <= 1.0 && cfg.kernel_factor > 0.0 && cfg.kernel_factor <= 1.0) {
        return Err(WorkloadError::BadInput(
            "the matmul efficiency and the kernel factor must be in (0, 1]".into(),
        ));
    }
    let peak = roof.peak.get() * eff.large(bf16) * cfg.kernel_factor;
    let ffn_mats = if m.gated { 3.0 } else { 2.0 };
    // Launches: a fixed time per GEMM call, and on Trainium Neuron's fixed time per layer.
    let neuron = if chip.runs_neuron() {
        cfg.neuron_layer_fixed_s
    } else {
        0.0
    };
    let calls = f64::from(m.layers) * ((2.0 + ffn_mats) * eff.per_gemm.value.get() + neuron);
    let bw = roof.bandwidth.get() * cfg.memory_efficiency;
    // A decode step runs the weight GEMMs (compute, or streaming the weights once, whichever
    // is slower) and then attention, which streams each sequence's KV cache: separate kernels,
    // so their times add. With speculative decoding the step verifies the k drafted tokens
    // and one more at once: k + 1 tokens of compute for one pass over the weights and caches.
    let k1 = f64::from(cfg.draft_tokens + 1);
    let kv_capacity = (usable * f64::from(tp) - weights).max(0.0);
    // A compiled deployment runs its compiled batch, and attends over the bucket its context
    // falls in, whatever the live load. Neuron compiles every deployment.
    let compiled = cfg.compiled.or_else(|| {
        (cfg.static_shapes && chip.runs_neuron()).then_some(Compiled {
            batch: cfg.batch,
            seq: cfg.prompt + cfg.output,
            buckets: &[],
        })
    });
    let graph = cfg.graph().then(|| {
        Graph::new(
            m.clone(),
            chip.clone(),
            cluster.clone(),
            (cfg.dtype, cfg.weight_dtype.unwrap_or(cfg.dtype), kv_elem),
            layout,
            (peak, bw),
            (eff.per_gemm.value.get(), neuron),
            cfg.own_experts,
        )
    });
    let sm = StepModel {
        model: m.clone(),
        cluster: cluster.clone(),
        tp,
        expert_parallel: cfg.expert_parallel,
        weights,
        weight_bytes: cfg.weight_dtype.unwrap_or(cfg.dtype).bytes(),
        peak,
        bw,
        calls,
        kv_bytes,
        kv_capacity,
        state_bytes: m.linear_state() * kv_elem,
        compiled,
        graph,
    };
    let graph = &sm.graph;
    let streamed = |tokens: f64| sm.streamed(tokens);
    let (b_run, ctx_run) = match compiled {
        Some(c) => (b.max(f64::from(c.batch)), c.bucket(mean_ctx)),
        None => (b, mean_ctx),
    };
    // What a decoded token attends to: the whole context, or a window of it.
    // (Sparse attention reads its top k of them; its indexer scores them all.)
    let indexed = ctx_run;
    let ctx_run_full = ctx_run;
    let ctx_run = m.attended_read(ctx_run);
    let attn_flops = sm.decode_attention_flops(ctx_run);
    let gemm_flops = b_run * sm.decode_gemm_flops(ctx_run) / t;
    let exchanges = |tokens: f64| sm.exchanges(tokens);
    let graph_pass = |n: f64| -> Result<Option<Step>, WorkloadError> {
        graph
            .as_ref()
            .map(|g| g.pass(b_run, n, ctx_run_full, false))
            .transpose()
    };
    // The step's operations, worked out once (the report lists them).
    let decode_ops_for_formula = graph_pass(k1)?;
    let pass = |n: f64| -> Result<[f64; 4], WorkloadError> {
        let tokens = n * b_run;
        let ops = if n == k1 {
            decode_ops_for_formula.clone()
        } else {
            graph_pass(n)?
        };
        if let Some(s) = ops {
            return Ok([
                s.gemm + s.elementwise,
                s.launches,
                s.attention + sm.state_io(b_run) + sm.indexer(n, b_run * indexed),
                s.comm,
            ]);
        }
        Ok([
            (n * gemm_flops / peak).max(streamed(tokens) / t / bw),
            calls,
            sm.decode_attention(n, b_run * ctx_run)
                + sm.state_io(b_run)
                + sm.indexer(n, b_run * indexed),
            exchanges(tokens)?,
        ])
    };
    let step = pass(k1)?;
    let t_compute = k1 * gemm_flops / peak;
    let t_weights = streamed(k1 * b) / t / bw;
    // Each drafted token runs the one-layer head: a layer's share of a plain step.
    let draft = if cfg.draft_tokens > 0 {
        let plain: f64 = pass(1.0)?.iter().sum();
        f64::from(cfg.draft_tokens) * plain / f64::from(m.layers)
    } else {
        0.0
    };
    let per_step = tokens_per_step(cfg.draft_tokens, cfg.acceptance);
    // Time per output token of every sequence, by part.
    let [w_part, l_part, a_part, c_part] = step.map(|x| x / per_step);
    let d_part = draft / per_step;
    let (t_attn, tp_comm) = (step[2], step[3]);
    let decode = w_part + l_part + a_part + c_part + d_part;
    // Prefill skips the prompt tokens found in the prefix cache; the rest attend to the whole
    // prompt before them.
    let fresh = 1.0 - cfg.prefix_hit;
    let prompt = f64::from(cfg.prompt);
    // The mean context a fresh prompt token attends to: the cached prefix and half the fresh
    // tokens, or what windows leave of them.
    let prefill_ctx = |prompt: f64| {
        if m.window_layers == 0 {
            prompt * (cfg.prefix_hit + fresh / 2.0)
        } else {
            m.mean_attended(prompt * cfg.prefix_hit, prompt)
        }
    };
    // A fresh prompt token's FLOPs: the weights, attention over its context, and the sparse
    // indexer's scoring of the whole context before it.
    let prefill_token_flops = |prompt: f64| {
        m.forward_flops_per_token(prefill_ctx(prompt))
            + m.indexer_flops(prompt * (cfg.prefix_hit + fresh / 2.0))
    };
    let prefill_flops = |prompt: f64| fresh * prompt * prefill_token_flops(prompt) / t / peak;
    // A compiled deployment prefills each prompt alone, padded to its bucket; otherwise the
    // batch's prompts run in one pass. A pass runs its FLOPs or streams the weights,
    // whichever is slower (short prompts are bound by the weights, as a decode step is), then
    // the all-reduces of its fresh tokens and every layer's launches.
    let (padded, passes) = match compiled {
        Some(c) => (c.bucket(prompt), b),
        None => (prompt, 1.0),
    };
    // The FLOPs of one pass on one chip, and the share of them attention takes.
    let pass_flop = |prompt: f64, n: f64| {
        let ctx = prefill_ctx(prompt);
        let per_token = prefill_token_flops(prompt);
        (
            n * fresh * prompt * per_token / t,
            2.0 * f64::from(m.layers) * m.d() * ctx / per_token,
        )
    };
    let prefill_graph = match &graph {
        Some(g) => Some(g.pass(b / passes, fresh * padded, fresh * padded, true)?),
        None => None,
    };
    let (pre, pre_cost, pre_share, pre_compute) = if let Some(s) = &prefill_graph {
        let flops: f64 = s.ops.iter().map(|o| o.flops).sum();
        let bytes: f64 = s
            .ops
            .iter()
            .filter(|o| o.kind != super::ops::OpKind::Collective)
            .map(|o| o.bytes)
            .sum();
        let att: f64 = s
            .ops
            .iter()
            .filter(|o| o.kind == super::ops::OpKind::Attention)
            .map(|o| o.flops)
            .sum();
        (
            [s.gemm + s.elementwise + s.attention, s.comm, s.launches],
            (passes * flops, passes * bytes),
            if flops > 0.0 { att / flops } else { 0.0 },
            flops / peak >= bytes / bw,
        )
    } else if cfg.prefill_overheads {
        let tokens = b / passes * fresh * padded;
        let (compute, weights) = (
            b / passes * prefill_flops(padded),
            streamed(tokens) / t / bw,
        );
        let (flop, share) = pass_flop(padded, b / passes);
        (
            [compute.max(weights), exchanges(tokens)?, calls],
            (passes * flop, passes * streamed(tokens) / t),
            share,
            compute >= weights,
        )
    } else {
        let (flop, share) = pass_flop(prompt, b);
        (
            [b * prefill_flops(prompt), 0.0, 0.0],
            (passes * flop, passes * weights / t),
            share,
            true,
        )
    };
    let prefill = passes * pre.iter().sum::<f64>();
    let per_replica = b * f64::from(cfg.output) / (prefill + f64::from(cfg.output) * decode);
    let replicas = cluster.chips() / tp;
    let tokens_per_s = per_replica * f64::from(replicas);
    let costs = [
        (k1 * gemm_flops / per_step, streamed(k1 * b) / t / per_step),
        (
            k1 * b_run * attn_flops / t / per_step,
            (b_run * ctx_run * kv_bytes + b_run * 2.0 * sm.state_bytes) / t / per_step,
        ),
    ];
    let formula = if !explain {
        String::new()
    } else if let (Some(d), Some(p)) = (&decode_ops_for_formula, &prefill_graph) {
        let sum = |s: &Step| {
            format!(
                "{} operations ({} timed from kernel tables): GEMMs {} + attention {} + norms and elementwise {} + collectives {} + launches {} = {}",
                s.ops.len(),
                s.measured(),
                Seconds::new(s.gemm),
                Seconds::new(s.attention),
                Seconds::new(s.elementwise),
                Seconds::new(s.comm),
                Seconds::new(s.launches),
                Seconds::new(s.total())
            )
        };
        format!(
            "attention data-parallel {} × expert-parallel {} over {tp} chips; decode step = its {}; prefill = {}{}; kernels run one after another and collectives are exposed; tokens/s = B·out ÷ (prefill + out·step) × replicas",
            layout.attn_dp,
            layout.ep,
            sum(d),
            if passes > 1.0 {
                format!("B prompts one at a time, each {}", sum(p))
            } else {
                sum(p)
            },
            if passes > 1.0 { ", × B" } else { "" },
        ) + &extras(cfg, kv_bytes, per_step, draft)
    } else {
        format!(
        "decode step = max({} GEMMs B·FLOP/token ÷ (t·peak·e) = {}, weights ÷ (t·BW·e) = {}) + {} GEMM calls × {}{} = {} + attention B·ctx·KV ÷ (t·BW·e) = {} + TP all-reduces {}; e = {:.1}% of the {} peak (BF16 {:.1}% × {} ratio {:.3} × serving kernels {:.2}); prefill {}; tokens/s = B·out ÷ (prefill + out·step) × replicas",
        cfg.dtype,
        Seconds::new(t_compute),
        Seconds::new(t_weights),
        f64::from(m.layers) * (2.0 + ffn_mats),
        eff.per_gemm.value,
        if neuron > 0.0 {
            format!(" + {} layers × Neuron's {} per layer", m.layers, Seconds::new(neuron))
        } else {
            String::new()
        },
        Seconds::new(calls),
        Seconds::new(t_attn),
        Seconds::new(tp_comm),
        peak / roof.peak.get() * 100.0,
        cfg.dtype,
        bf16 * 100.0,
        cfg.dtype,
        eff.ratio.value,
        cfg.kernel_factor,
        if cfg.prefill_overheads {
            format!(
                "{}max(FLOPs{} ÷ (t·peak·e), weights ÷ (t·BW·e)) {} + TP all-reduces {} + launches {}{} = {}",
                if compiled.is_some() {
                    "B prompts one at a time, each "
                } else {
                    "the B prompts in one pass: "
                },
                if padded > prompt {
                    format!(" of the prompt padded to its {padded:.0}-token bucket")
                } else {
                    String::new()
                },
                Seconds::new(pre[0]),
                Seconds::new(pre[1]),
                Seconds::new(pre[2]),
                if compiled.is_some() { ", × B" } else { "" },
                Seconds::new(prefill)
            )
        } else {
            format!("{}", Seconds::new(prefill))
        }
    ) + &extras(cfg, kv_bytes, per_step, draft)
    };
    Ok(InferReport {
        layout,
        decode_ops: decode_ops_for_formula.unwrap_or_default(),
        prefill_ops: prefill_graph.unwrap_or_default(),
        step_model: sm,
        chips_needed: tp,
        replicas,
        decode_step: Seconds::new(decode),
        decode_bound: if t_compute >= t_weights + t_attn {
            "compute"
        } else {
            "memory"
        },
        prefill: Seconds::new(prefill),
        tokens_per_s_per_chip: per_replica / t,
        tokens_per_s,
        latency_per_token: Seconds::new(decode),
        memory,
        decode_parts: DecodeParts {
            weights: Seconds::new(w_part),
            launches: Seconds::new(l_part),
            attention: Seconds::new(a_part),
            tp_comm: Seconds::new(c_part),
            draft: Seconds::new(d_part),
            costs,
            weights_compute_bound: t_compute >= t_weights,
        },
        prefill_parts: PrefillParts {
            forward: Seconds::new(passes * pre[0]),
            tp_comm: Seconds::new(passes * pre[1]),
            launches: Seconds::new(passes * pre[2]),
            cost: pre_cost,
            attention_share: pre_share,
            compute_bound: pre_compute,
        },
        formula,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::find_model;

    use crate::workload::domain_of as on;

    fn base(batch: u32) -> InferConfig {
        InferConfig {
            tp: Some(8),
            ..InferConfig::new(
                find_model("llama3-70b").unwrap(),
                Dtype::Fp8,
                batch,
                4096,
                512,
            )
        }
    }

    #[test]
    fn expected_tokens_per_step_follow_leviathan_et_al() {
        assert_eq!(tokens_per_step(0, 0.9), 1.0);
        // k = 3, a = 0.8: (1 − 0.8⁴) ÷ 0.2 = 2.952.
        assert!((tokens_per_step(3, 0.8) - 2.952).abs() < 1e-12);
        // Never more than k + 1, and more with a higher acceptance.
        assert!(tokens_per_step(4, 0.99) < 5.0);
        assert!(tokens_per_step(4, 0.9) > tokens_per_step(4, 0.6));
    }

    #[test]
    fn a_narrower_kv_cache_shortens_attention_and_holds_more_sequences() {
        let (cl, chip) = on("hgx-h100-8");
        let bf16 = InferConfig {
            kv_dtype: Some(Dtype::Bf16),
            ..base(64)
        };
        let fp4 = InferConfig {
            kv_dtype: Some(Dtype::Fp4),
            ..base(64)
        };
        let (a, b) = (
            infer(&cl, &chip, &bf16).unwrap(),
            infer(&cl, &chip, &fp4).unwrap(),
        );
        // Attention streams the cache: a quarter of the bytes, a quarter of the time.
        let r = b.decode_parts.attention.get() / a.decode_parts.attention.get();
        assert!((r - 0.25).abs() < 1e-9, "{r}");
        assert!((b.memory.kv_cache / a.memory.kv_cache - 0.25).abs() < 1e-12);
        assert!(b.tokens_per_s_per_chip > a.tokens_per_s_per_chip);
        assert!(b.formula.contains("KV cache in FP4"), "{}", b.formula);
    }

    #[test]
    fn four_bit_weights_halve_a_memory_bound_step_but_not_its_compute() {
        let (cl, chip) = on("hgx-h100-8");
        let w4 = InferConfig {
            weight_dtype: Some(Dtype::Fp4),
            ..base(1)
        };
        let (a, b) = (
            infer(&cl, &chip, &base(1)).unwrap(),
            infer(&cl, &chip, &w4).unwrap(),
        );
        let r = b.decode_parts.weights.get() / a.decode_parts.weights.get();
        assert!(
            (r - 0.5).abs() < 1e-9,
            "one sequence streams the weights: {r}"
        );
        assert!((b.memory.weights / a.memory.weights - 0.5).abs() < 1e-12);
        // At 1,024 sequences the GEMMs are compute-bound: FP4 storage changes nothing there.
        let big = |w| InferConfig {
            weight_dtype: w,
            prompt: 256,
            output: 64,
            ..base(1024)
        };
        let (c, d) = (
            infer(&cl, &chip, &big(None)).unwrap(),
            infer(&cl, &chip, &big(Some(Dtype::Fp4))).unwrap(),
        );
        assert_eq!(c.decode_parts.weights, d.decode_parts.weights);
        // H100 has no FP4 matmuls, yet stores FP4 weights (W4A8).
        assert!(chip.dense(Dtype::Fp4).is_none());
    }

    #[test]
    fn speculative_decoding_pays_where_the_step_is_memory_bound() {
        let (cl, chip) = on("hgx-h100-8");
        let spec = |batch| InferConfig {
            draft_tokens: 3,
            acceptance: 0.8,
            ..base(batch)
        };
        // One sequence: the step streams the weights whatever it computes, so verifying 4
        // tokens costs about one step and yields 2.95 of them.
        let (a, b) = (
            infer(&cl, &chip, &base(1)).unwrap(),
            infer(&cl, &chip, &spec(1)).unwrap(),
        );
        let speedup = a.decode_step.get() / b.decode_step.get();
        assert!(speedup > 2.3 && speedup < 2.96, "{speedup}");
        assert!(b.decode_parts.draft.get() > 0.0);
        let sum = b.decode_parts.weights.get()
            + b.decode_parts.launches.get()
            + b.decode_parts.attention.get()
            + b.decode_parts.tp_comm.get()
            + b.decode_parts.draft.get();
        assert!((sum / b.decode_step.get() - 1.0).abs() < 1e-12);
        // 2,048 sequences: compute-bound, so four tokens of compute per step cost nearly four
        // times as much and the gain is gone.
        let big = |c: InferConfig| InferConfig {
            prompt: 128,
            output: 64,
            ..c
        };
        let (c, d) = (
            infer(&cl, &chip, &big(base(2048))).unwrap(),
            infer(&cl, &chip, &big(spec(2048))).unwrap(),
        );
        assert!(d.tokens_per_s_per_chip < c.tokens_per_s_per_chip * 1.1);
    }

    #[test]
    fn a_prefill_pays_its_all_reduces_and_launches_besides_its_flops() {
        let (cl, chip) = on("hgx-h100-8");
        let now = infer(&cl, &chip, &base(4)).unwrap();
        let old = infer(
            &cl,
            &chip,
            &InferConfig {
                prefill_overheads: false,
                ..base(4)
            },
        )
        .unwrap();
        // The 4 prompts in one pass: 2 all-reduces per layer of their 16,384 tokens' hidden
        // states, and every layer's launches.
        let m = find_model("llama3-70b").unwrap();
        let ar = tp_allreduce(&cl, 8, Bytes::new(4.0 * 4096.0 * m.d() * 2.0)).unwrap();
        let comm = ar * 2.0 * f64::from(m.layers);
        let launches =
            f64::from(m.layers) * 5.0 * efficiency::matmul(&chip, Dtype::Fp8).per_gemm.value.get();
        let extra = now.prefill.get() - old.prefill.get();
        assert!(
            ((extra - comm - launches) / extra).abs() < 1e-9,
            "{extra} against {comm} + {launches}"
        );
        // On one chip there is nothing to all-reduce.
        let one = |overheads| {
            infer(
                &cl,
                &chip,
                &InferConfig {
                    tp: Some(1),
                    prefill_overheads: overheads,
                    ..InferConfig::new(find_model("llama3-8b").unwrap(), Dtype::Fp8, 4, 4096, 512)
                },
            )
            .unwrap()
            .prefill
            .get()
        };
        let d = one(true) - one(false);
        assert!(d > 0.0 && d < 1e-3, "{d}");
    }

    #[test]
    fn a_compiled_deployment_runs_its_buckets_and_its_batch() {
        let c = Compiled {
            batch: 32,
            seq: 4096,
            buckets: &[],
        };
        assert_eq!(c.bucket(100.0), 128.0);
        assert_eq!(c.bucket(1500.0), 2048.0);
        assert_eq!(c.bucket(4000.0), 4096.0);
        let capped = Compiled { seq: 6400, ..c };
        assert_eq!(capped.bucket(5000.0), 6400.0);
        let listed = Compiled {
            batch: 1,
            seq: 12_800,
            buckets: &[2048, 4096, 10_240, 12_288, 12_800],
        };
        assert_eq!(listed.bucket(10_000.0), 10_240.0);
        assert_eq!(listed.bucket(12_500.0), 12_800.0);
        // One live sequence on a graph compiled for 32 costs what 32 sequences at the
        // bucket's length cost (1,923 + 250 / 2 = 2,048 tokens on average).
        let (cl, chip) = on("trn2-16");
        let cfg = |batch, prompt, compiled: Option<Compiled>| InferConfig {
            tp: Some(1),
            compiled,
            static_shapes: compiled.is_some(),
            ..InferConfig::new(
                find_model("llama3-8b").unwrap(),
                Dtype::Bf16,
                batch,
                prompt,
                250,
            )
        };
        let one = infer(&cl, &chip, &cfg(1, 1500, Some(c))).unwrap();
        let full = infer(&cl, &chip, &cfg(32, 1923, None)).unwrap();
        let free = infer(&cl, &chip, &cfg(1, 1500, None)).unwrap();
        assert!((one.decode_step.get() / full.decode_step.get() - 1.0).abs() < 1e-9);
        assert!(one.decode_step.get() > 1.2 * free.decode_step.get());
        // Its prompt is prefilled padded to the 2,048-token bucket.
        assert!(one.prefill.get() > 1.3 * free.prefill.get());
        assert!(one.formula.contains("2048-token bucket"), "{}", one.formula);
        // With no shapes given, Trainium runs the batch's own: prompts one at a time in
        // power-of-two buckets; other chips follow the load.
        let own = infer(
            &cl,
            &chip,
            &InferConfig {
                static_shapes: true,
                ..cfg(4, 1500, None)
            },
        )
        .unwrap();
        assert!(
            own.formula.contains("one at a time") && own.formula.contains("1750-token bucket"),
            "{}",
            own.formula
        );
        let (hcl, hchip) = on("hgx-h100-8");
        let gpu = infer(
            &hcl,
            &hchip,
            &InferConfig {
                static_shapes: true,
                ..cfg(4, 1500, None)
            },
        )
        .unwrap();
        assert!(gpu.formula.contains("in one pass"), "{}", gpu.formula);
    }

    #[test]
    fn a_prefix_cache_hit_skips_that_share_of_the_prefill() {
        let (cl, chip) = on("hgx-h100-8");
        let hit = InferConfig {
            prefix_hit: 0.75,
            ..base(16)
        };
        let (a, b) = (
            infer(&cl, &chip, &base(16)).unwrap(),
            infer(&cl, &chip, &hit).unwrap(),
        );
        let r = b.prefill.get() / a.prefill.get();
        // A quarter of the tokens, each attending to more of the prompt: a little over 0.25.
        assert!(r > 0.25 && r < 0.3, "{r}");
        assert_eq!(a.decode_step, b.decode_step);
        let bad = InferConfig {
            prefix_hit: 1.0,
            ..base(16)
        };
        assert!(infer(&cl, &chip, &bad).is_err());
    }

    /// DeepSeek-V3 holds 671 B parameters but a token uses 37 B: one sequence's decode step
    /// streams the dense part and the 8 experts (of 256) its token picks in each MoE layer,
    /// not every expert; at 1,024 sequences every expert is touched.
    #[test]
    fn a_mixture_of_experts_streams_only_the_experts_its_tokens_touch() {
        let (cl, chip) = on("gb200-nvl72");
        // The one-term model's account (links of model version 6 and earlier).
        let cfg = |batch, ep| InferConfig {
            tp: Some(16),
            expert_parallel: ep,
            op_graph: false,
            ..InferConfig::new(
                find_model("deepseek-v3").unwrap(),
                Dtype::Fp8,
                batch,
                1024,
                256,
            )
        };
        let (all, touched) = (
            infer(&cl, &chip, &cfg(1, false)).unwrap(),
            infer(&cl, &chip, &cfg(1, true)).unwrap(),
        );
        let m = find_model("deepseek-v3").unwrap();
        let ratio = touched.decode_parts.weights.get() / all.decode_parts.weights.get();
        let expect = (m.params_active() - f64::from(m.vocab) * m.d() + f64::from(m.vocab) * m.d())
            / m.params_total();
        assert!((ratio - expect).abs() < 0.02, "{ratio} against {expect}");
        // What is left of the step is launches, attention and communication.
        assert!(touched.decode_step.get() < 0.5 * all.decode_step.get());
        assert!(touched.tokens_per_s_per_chip > all.tokens_per_s_per_chip);
        // The same memory: every expert is still held.
        assert_eq!(touched.memory, all.memory);
        // 1,024 tokens a step touch all 256 experts: the stream is the whole model again.
        let (a, b) = (
            infer(&cl, &chip, &cfg(1024, false)).unwrap(),
            infer(&cl, &chip, &cfg(1024, true)).unwrap(),
        );
        let w = |r: &InferReport| r.decode_parts.weights.get();
        assert!((w(&b) / w(&a) - 1.0).abs() < 0.01);
        // Its MoE layers exchange tokens by all-to-all instead of all-reducing the FFN.
        assert_ne!(a.decode_parts.tp_comm, b.decode_parts.tp_comm);
    }
}
