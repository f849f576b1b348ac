//! A training step: the layout, memory per chip, compute by format, pipeline bubble and the
//! exposed tensor-, expert- and data-parallel communication.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::chip::Chip;
use crate::collective::{Algorithm, Op};
use crate::dtype::Dtype;
use crate::efficiency;
use crate::roofline::{OpSpec, Roofline};
use crate::system::Cluster;
use crate::units::{Bytes, FlopPerSec, Seconds};

use super::{Model, WorkloadError};

/// How a training job is split over the chips.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Layout {
    /// Tensor parallel degree (must stay inside one scale-up domain).
    pub tp: u32,
    /// Pipeline stages.
    pub pp: u32,
    /// Data-parallel replicas.
    pub dp: u32,
    /// Expert parallel degree (within the data-parallel group; MoE only).
    pub ep: u32,
    /// Sequences per micro-batch.
    pub micro_batch: u32,
    /// Virtual pipeline stages per chip (interleaved 1F1B): each chip holds this many
    /// non-adjacent chunks of layers, which divides the bubble by as much.
    pub interleave: u32,
    /// What data parallelism shards (ZeRO stage, or FSDP): 0 nothing, 1 the optimizer
    /// states, 2 the gradients too, 3 the weights too (gathered layer by layer as they are
    /// used).
    pub zero: u8,
    /// Recompute every activation in the backward pass (full recomputation) instead of
    /// storing them; otherwise only attention's scores are recomputed (selective
    /// recomputation, as FlashAttention-style kernels do in their backward pass).
    pub recompute: bool,
    /// Context-parallel degree: each sequence split over this many chips, which exchange
    /// keys and values around a ring in every attention layer.
    pub cp: u32,
    /// With recomputation, each layer's input (what recomputation keeps) written to host
    /// memory in the forward pass and read back for the backward pass, two layers' worth
    /// held on the chip at a time: MaxText's `offload` remat policy for decoder-layer inputs.
    #[cfg_attr(feature = "serde", serde(default))]
    pub offload: bool,
    /// Hybrid sharding (HSDP; MaxText's data parallelism across slices): the data- and
    /// context-parallel ranks split into this many replica groups, each sharding the weights,
    /// gradients and optimizer states (FSDP) over its own ranks and all-reducing its shard of
    /// the gradients with the other groups once a step. 1: one group, sharded over every rank.
    #[cfg_attr(feature = "serde", serde(default = "one"))]
    pub replicate: u32,
}

#[cfg(feature = "serde")]
const fn one() -> u32 {
    1
}

impl Layout {
    /// Every degree 1, micro-batches of one sequence, a sharded optimizer and
    /// recomputation: where a layout search starts.
    pub const START: Layout = Layout {
        tp: 1,
        pp: 1,
        dp: 1,
        ep: 1,
        micro_batch: 1,
        interleave: 1,
        zero: 1,
        recompute: true,
        cp: 1,
        offload: false,
        replicate: 1,
    };
}

/// How a mixture of experts' tokens travel to their experts across scale-up domains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dispatch {
    /// A copy for each of a token's experts, each sent directly to its rank (Megatron's
    /// all-to-all dispatcher, NCCL's all-to-all).
    PerExpert,
    /// A copy for each scale-up domain holding one of its experts, fanned out inside the
    /// domain (DeepEP's and HybridEP's dispatch).
    PerDomain,
}

impl Dispatch {
    /// The ids `--ep-dispatch` takes.
    pub const IDS: [&'static str; 2] = ["per-expert", "per-domain"];
    /// Lower-case id.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Dispatch::PerExpert => Self::IDS[0],
            Dispatch::PerDomain => Self::IDS[1],
        }
    }
    /// The dispatch with this id.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Self> {
        [Dispatch::PerExpert, Dispatch::PerDomain]
            .into_iter()
            .find(|d| d.id() == id)
    }
}

/// The share of a token's `k` expert copies that cross the network when `dispatch` sends a
/// copy to each of the N scale-up domains the expert-parallel group spans that holds one of
/// its experts, N·(1 − (1 − 1/N)^k)/k (experts spread evenly, routing uniform); 1 when every
/// copy travels alone or the group sits in one domain.
#[must_use]
pub fn ep_network_share(dispatch: Dispatch, cluster: &Cluster, l: &Layout, k: u32) -> f64 {
    let domains = f64::from((l.tp * l.ep).div_ceil(cluster.system.chips().max(1)));
    let k = f64::from(k.max(1));
    if dispatch == Dispatch::PerDomain && domains > 1.0 {
        domains * (1.0 - libm::pow(1.0 - 1.0 / domains, k)) / k
    } else {
        1.0
    }
}

/// The share of a GPU's streaming multiprocessors an expert all-to-all holds while it runs
/// beside compute: DeepSeek-V3's cross-node dispatch and combine fill InfiniBand and NVLink
/// with 20 of H800's 132 (DeepSeek-V3 Technical Report, arXiv 2412.19437, §3.2.2).
pub const EP_OVERLAP_SM_SHARE: f64 = 20.0 / 132.0;

/// A step's expert all-to-alls (`a2a` seconds in all) run beside another micro-batch's
/// compute (`compute` seconds): in the pipeline's steady state what shows is what the
/// compute does not cover, and the compute they overlap slows by the processors they hold
/// ([`EP_OVERLAP_SM_SHARE`]); in its fill and drain, the `unpaired` share of the
/// micro-batches with no partner, they show whole.
#[must_use]
pub fn ep_overlapped(a2a: f64, compute: f64, unpaired: f64) -> f64 {
    let unpaired = unpaired.clamp(0.0, 1.0);
    let (a, c) = (a2a * (1.0 - unpaired), compute * (1.0 - unpaired));
    let share = EP_OVERLAP_SM_SHARE;
    a2a * unpaired + (a - c).max(0.0) + a.min(c) * share / (1.0 - share)
}

/// Inputs of a training estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// The model.
    pub model: Model,
    /// Compute format.
    pub dtype: Dtype,
    /// Sequences per optimizer step.
    pub global_batch: u32,
    /// The split.
    pub layout: Layout,
    /// Fraction of a chip's dense peak its large matmuls reach (MLE-ACC measured 80.3% on H100 BF16).
    pub matmul_efficiency: f64,
    /// Fraction of data-parallel gradient communication hidden behind the backward pass.
    pub dp_overlap: f64,
    /// Fraction of tensor-parallel communication hidden behind compute.
    pub tp_overlap: f64,
    /// Whether the pipeline's point-to-point sends between stages are costed (links of
    /// version 2 and earlier opened with a model that left them out).
    pub pipeline_sends: bool,
    /// Whether FSDP (ZeRO-3) prefetches: each layer's weight gather and gradient
    /// reduce-scatter run beside another layer's compute (model version 4 and later); without
    /// it they are exposed but for the platform's overlap.
    pub fsdp_prefetch: bool,
    /// Whether data-parallel collectives run as frameworks run them (model version 9 and
    /// later): inside a scale-up domain over the collective library's algorithm on the whole
    /// fabric (a torus's every axis, NVLink's switch) rather than one ring over one link, and
    /// FSDP's prefetched gathers hidden phase by phase (the forward pass's gathers behind the
    /// forward's compute, the backward's gathers and reduce-scatters behind the backward's)
    /// rather than behind the whole micro-batch's compute.
    pub dp_as_run: bool,
    /// Whether a mixture of experts' routed GEMMs are timed from the grouped-expert kernels
    /// measured on the chip where a table exists (model version 9 and later), each pass of a
    /// step (the backward pass's two GEMMs a forward's each) at the tokens per expert a rank
    /// computes; else on the roofline at the large-matmul efficiency.
    pub kernel_experts: bool,
    /// Whether latent attention (MLA) trains as it runs (model version 9 and later): its
    /// down- and up-projections as GEMMs and attention over decompressed heads of its own
    /// dimensions; else as multi-head attention of the model's head dimension.
    pub latent_attention: bool,
    /// How the expert all-to-all crosses scale-up domains.
    pub ep_dispatch: Dispatch,
    /// Whether the expert all-to-alls run beside another micro-batch's compute (Megatron's
    /// `overlap_moe_expert_parallel_comm`, DeepSeek's DualPipe): [`ep_overlapped`]; else
    /// exposed but for the platform's overlap.
    pub ep_overlap: bool,
    /// Tokens the busiest expert-parallel rank's experts receive, over the mean (1: routing
    /// balanced, as Megatron's published MoE benchmarks force it). The routed experts'
    /// GEMMs and the expert all-to-alls wait on that rank.
    pub expert_imbalance: f64,
    /// Whether a mixture of experts' routed GEMMs run as a grouped GEMM, each expert on the
    /// roofline with its own weights (model version 5 and later); before, as one GEMM of all
    /// routed tokens.
    pub grouped_experts: bool,
    /// Whether pipeline stages are laid out as frameworks lay them out (`pipeline_stages`;
    /// model version 10 and later): the output head and any multi-token prediction modules
    /// on the last stage, the layers spread to even the stages out; else the head shared
    /// evenly and the prediction modules left out.
    pub stage_extras: bool,
    /// Whether the micro-batch is chosen (the layout search's, or [`train_best_micro`]'s):
    /// every power of two up to the sequences a data-parallel rank holds a step, the fastest
    /// that fits memory (model version 8 and later); else `layout.micro_batch` as given.
    pub choose_micro_batch: bool,
    /// Whether layer inputs may be offloaded to host memory where nothing else fits
    /// ([`Layout::offload`]; model version 8 and later): tried, with recomputation, on
    /// layouts that do not fit without it.
    pub choose_offload: bool,
}

pub use crate::keys::MAX_EXPERT_IMBALANCE;

/// The micro-batches tried for `layout` when the micro-batch is chosen: powers of two up to
/// the sequences each data-parallel rank holds a step (the global batch over the
/// data-parallel degree), at least 1.
#[must_use]
pub fn micro_batch_options(global_batch: u32, layout: &Layout) -> Vec<u32> {
    let per_rank = (global_batch / layout.dp.max(1)).max(1);
    (0..u32::BITS)
        .map(|i| 1u32 << i)
        .take_while(|&b| b <= per_rank)
        .collect()
}

/// [`train`] at `cfg.layout`, its micro-batch chosen when `cfg.choose_micro_batch` is set
/// (the fastest of [`micro_batch_options`] that fits), and its layer inputs offloaded to
/// host memory where that alone makes it fit and `cfg.choose_offload` allows it.
///
/// # Errors
/// As [`train`], for the last micro-batch tried when none fits.
pub fn train_best_micro(
    cluster: &Cluster,
    chip: &Chip,
    cfg: &TrainConfig,
) -> Result<TrainReport, WorkloadError> {
    if !cfg.choose_micro_batch && !cfg.choose_offload {
        return train(cluster, chip, cfg);
    }
    let mut best: Option<TrainReport> = None;
    let mut last = None;
    let options = if cfg.choose_micro_batch {
        micro_batch_options(cfg.global_batch, &cfg.layout)
    } else {
        alloc::vec![cfg.layout.micro_batch]
    };
    for b in options {
        let mut c = cfg.clone();
        c.layout.micro_batch = b;
        let mut got = train(cluster, chip, &c);
        if matches!(got, Err(WorkloadError::DoesNotFit { .. })) {
            if let Some(off) = cfg.offloaded(&c.layout) {
                c.layout = off;
                got = train(cluster, chip, &c);
            }
        }
        match got {
            Ok(r)
                if best
                    .as_ref()
                    .is_none_or(|x| r.tokens_per_s > x.tokens_per_s) =>
            {
                best = Some(r);
            }
            Ok(_) => {}
            Err(e) => last = Some(e),
        }
    }
    best.ok_or_else(|| last.unwrap_or_else(|| WorkloadError::BadLayout("no micro-batch".into())))
}

impl TrainConfig {
    /// `l` with its layer inputs offloaded to host memory, where the job lets offload be
    /// chosen and `l` recomputes (what offload keeps) and does not offload already: the one
    /// rule the layout search and [`train_best_micro`] try offload by.
    #[must_use]
    pub fn offloaded(&self, l: &Layout) -> Option<Layout> {
        (self.choose_offload && l.recompute && !l.offload).then_some(Layout {
            offload: true,
            ..*l
        })
    }

    /// A configuration with no communication hidden behind compute.
    #[must_use]
    pub fn new(
        model: Model,
        dtype: Dtype,
        global_batch: u32,
        layout: Layout,
        matmul_efficiency: f64,
    ) -> Self {
        Self {
            model,
            dtype,
            global_batch,
            layout,
            matmul_efficiency,
            dp_overlap: 0.0,
            tp_overlap: 0.0,
            pipeline_sends: true,
            fsdp_prefetch: true,
            dp_as_run: true,
            kernel_experts: true,
            latent_attention: true,
            ep_dispatch: Dispatch::PerExpert,
            ep_overlap: false,
            expert_imbalance: 1.0,
            grouped_experts: true,
            stage_extras: true,
            choose_micro_batch: false,
            choose_offload: false,
        }
    }
}

/// A training estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainReport {
    /// The layout evaluated.
    pub layout: Layout,
    /// Step time.
    pub step: Seconds,
    /// Matmul time per step (roofline of each GEMM, at the matmul efficiency).
    pub compute: Seconds,
    /// Pipeline bubble time per step.
    pub bubble: Seconds,
    /// Exposed tensor-parallel communication per step.
    pub tp_comm: Seconds,
    /// Exposed expert-parallel all-to-all per step.
    pub ep_comm: Seconds,
    /// Exposed data-parallel communication per step (with ZeRO-2 and -3, FSDP's gathers and
    /// reduce-scatters).
    pub dp_comm: Seconds,
    /// The same, operation by operation.
    pub dp_parts: DpParts,
    /// Exposed context-parallel ring exchanges of keys and values per step.
    pub cp_comm: Seconds,
    /// Exposed pipeline sends between stages per step.
    pub pp_comm: Seconds,
    /// Exposed transfers of offloaded layer inputs to and from host memory per step.
    pub offload: Seconds,
    /// Tokens per second over the cluster.
    pub tokens_per_s: f64,
    /// Model FLOPs utilisation: 6N+attention FLOPs per second over the cluster's dense peak.
    pub mfu: f64,
    /// Memory per chip.
    pub memory: Memory,
    /// How the step time was composed.
    pub formula: String,
    /// The compute time per step, by the format each part runs in.
    pub parts: StepParts,
}

/// A step's exposed data-parallel collectives by operation; they add up to
/// [`TrainReport::dp_comm`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DpParts {
    /// Gradient all-reduces (no sharding, ZeRO-1), once a step.
    pub all_reduce: Seconds,
    /// Weight all-gathers: FSDP's in the forward pass, or ZeRO-2's of the updated weights
    /// once a step.
    pub gather_forward: Seconds,
    /// FSDP's weight all-gathers in the backward pass.
    pub gather_backward: Seconds,
    /// Gradient reduce-scatters (ZeRO-2 and FSDP), once a micro-batch.
    pub reduce_scatter: Seconds,
}

impl DpParts {
    fn of(all_reduce: f64, gather_forward: f64, gather_backward: f64, reduce_scatter: f64) -> Self {
        Self {
            all_reduce: Seconds::new(all_reduce),
            gather_forward: Seconds::new(gather_forward),
            gather_backward: Seconds::new(gather_backward),
            reduce_scatter: Seconds::new(reduce_scatter),
        }
    }
    /// Their sum.
    #[must_use]
    pub fn total(&self) -> f64 {
        self.all_reduce.get()
            + self.gather_forward.get()
            + self.gather_backward.get()
            + self.reduce_scatter.get()
    }
}

/// A training step's compute time split by what runs in which format.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepParts {
    /// The format of the layers' GEMMs (the job's).
    pub gemm_dtype: Dtype,
    /// The format of attention, the output head and the elementwise work (BF16 when the
    /// GEMMs run narrower).
    pub side_dtype: Dtype,
    /// Fraction of the GEMM format's dense peak its large matmuls reach.
    pub gemm_efficiency: f64,
    /// The chip's dense peak in the GEMM format, FLOP/s.
    pub gemm_peak: f64,
    /// The model's training FLOPs per token (6N plus attention), what MFU counts.
    pub model_flops_per_token: f64,
    /// The layers' GEMMs.
    pub gemm: Seconds,
    /// The same, split: the calls' fixed time, the QKV projections, the attention output
    /// projections and the MLPs (or experts).
    pub gemms: [Seconds; 4],
    /// What a step repeats: micro-batches per step, passes per micro-batch (3, or 4 when
    /// recomputing), layers on the busiest pipeline stage, and tokens per micro-batch on
    /// one chip.
    pub counts: StepCounts,
    /// FLOPs and bytes per step on one chip: the QKV projections, the attention output
    /// projections, the MLPs (or experts), attention, elementwise work, casts, the output
    /// head and the optimizer step.
    pub costs: [(f64, f64); 8],
    /// Attention.
    pub attention: Seconds,
    /// Norms, rotary embeddings, activation function, residual adds.
    pub elementwise: Seconds,
    /// Casts of GEMM operands to the narrow format (zero in BF16).
    pub casts: Seconds,
    /// The output head.
    pub head: Seconds,
    /// The optimizer step.
    pub optimizer: Seconds,
    /// Whether the routed experts' GEMMs were timed from a grouped-expert kernel table
    /// measured on the chip, not the roofline.
    pub experts_measured: bool,
}

/// What a training step repeats, for reading its parts per operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepCounts {
    /// Micro-batches per step.
    pub micro: f64,
    /// Forward-pass equivalents per micro-batch: 3, or 4 when recomputing.
    pub passes: f64,
    /// Layers on the busiest pipeline stage.
    pub layers: f64,
    /// Tokens per micro-batch on one chip (after the context-parallel split).
    pub tokens: f64,
}

/// Bytes per chip by purpose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Memory {
    /// Weights.
    pub weights: f64,
    /// Gradients.
    pub gradients: f64,
    /// Optimizer states (fp32 master weights, Adam m and v).
    pub optimizer: f64,
    /// Activations held for the backward pass.
    pub activations: f64,
    /// KV cache (inference).
    pub kv_cache: f64,
}

impl Memory {
    /// Sum.
    #[must_use]
    pub fn total(&self) -> f64 {
        self.weights + self.gradients + self.optimizer + self.activations + self.kv_cache
    }
}

pub(crate) fn check_layout(
    l: &Layout,
    cluster: &Cluster,
    model: &Model,
) -> Result<(), WorkloadError> {
    let chips = cluster.chips();
    if l.tp == 0 || l.pp == 0 || l.dp == 0 || l.ep == 0 || l.micro_batch == 0 || l.cp == 0 {
        return Err(WorkloadError::BadLayout(
            "every degree must be at least 1".into(),
        ));
    }
    if u64::from(l.tp) * u64::from(l.cp) * u64::from(l.pp) * u64::from(l.dp) != u64::from(chips) {
        return Err(WorkloadError::BadLayout(format!(
            "tp × cp × pp × dp = {} × {} × {} × {} but the cluster has {chips} chips",
            l.tp, l.cp, l.pp, l.dp
        )));
    }
    if l.zero > 3 {
        return Err(WorkloadError::BadLayout(format!(
            "ZeRO has stages 0 to 3, not {}",
            l.zero
        )));
    }
    if l.replicate != 1 && (l.zero < 3 || l.replicate == 0 || (l.dp * l.cp) % l.replicate != 0) {
        return Err(WorkloadError::BadLayout(format!(
            "hybrid sharding's {} replica groups need FSDP (ZeRO-3) and must divide the {} data- and context-parallel ranks",
            l.replicate,
            l.dp * l.cp
        )));
    }
    if l.cp > 1 && model.seq % (2 * l.cp) != 0 {
        return Err(WorkloadError::BadLayout(format!(
            "context parallelism of {} must split the {}-token sequence into 2 × {} equal chunks",
            l.cp, model.seq, l.cp
        )));
    }
    let domain = cluster.system.chips();
    if l.tp > domain || domain % l.tp != 0 {
        return Err(WorkloadError::BadLayout(format!(
            "tensor parallelism of {} must divide and stay inside the {domain}-chip scale-up domain",
            l.tp
        )));
    }
    if l.pp > model.layers {
        return Err(WorkloadError::BadLayout(format!(
            "{} pipeline stages are more than the model's {} layers",
            l.pp, model.layers
        )));
    }
    if l.interleave == 0 || (l.interleave > 1 && l.pp == 1) {
        return Err(WorkloadError::BadLayout(
            "interleaving needs at least 1 virtual stage and more than one pipeline stage".into(),
        ));
    }
    if l.interleave > 1 && l.pp * l.interleave > model.layers {
        return Err(WorkloadError::BadLayout(format!(
            "{} pipeline stages × {} virtual stages are more than the model's {} layers",
            l.pp, l.interleave, model.layers
        )));
    }
    if l.ep > 1 && (model.experts == 0 || model.experts % l.ep != 0 || l.dp % l.ep != 0) {
        return Err(WorkloadError::BadLayout(format!(
            "expert parallelism of {} needs an MoE model whose experts and data-parallel degree it divides",
            l.ep
        )));
    }
    if model.heads % l.tp != 0 {
        return Err(WorkloadError::BadLayout(format!(
            "{} heads do not split over tensor parallelism of {}",
            model.heads, l.tp
        )));
    }
    Ok(())
}

/// Memory per chip of a training layout (mixed precision: bf16 weights and gradients, fp32
/// master weights and Adam moments; activations per Korthikanti et al. with sequence
/// parallelism and attention that never stores its scores, `34·s·b·d/t` bytes per layer, or
/// `2·s·b·d` with recomputation).
#[must_use]
pub fn training_memory(model: &Model, l: &Layout) -> Memory {
    let dense_params =
        model.params_total() - model.moe_layers() * model.expert_params(model.experts);
    let expert_params = model.moe_layers() * model.expert_params(model.experts);
    let per_chip =
        dense_params / f64::from(l.tp * l.pp) + expert_params / f64::from(l.tp * l.pp * l.ep);
    // ZeRO shards over every replica of the same weights, the data- and context-parallel
    // ranks, or over one replica group's share of them (hybrid sharding).
    let shards = f64::from(l.dp * l.cp) / f64::from(l.replicate.max(1));
    let shard = |stage: u8| if l.zero >= stage { shards } else { 1.0 };
    // ZeRO-3 gathers one layer's weights while the next is fetched: two layers held whole.
    let gathered = if l.zero >= 3 && shards > 1.0 {
        2.0 * per_chip / f64::from(model.layers.div_ceil(l.pp).max(1))
    } else {
        0.0
    };
    let weights = per_chip * 2.0 / shard(3) + gathered * 2.0;
    let gradients = per_chip * 2.0 / shard(2);
    let optimizer = per_chip * 12.0 / shard(1);
    let (s, b, d, t) = (
        f64::from(model.seq) / f64::from(l.cp),
        f64::from(l.micro_batch),
        model.d(),
        f64::from(l.tp),
    );
    // The 5·a·s/(d·t) term of the attention scores is left out: FlashAttention-style kernels
    // never store the score matrix.
    let per_layer = if l.recompute {
        2.0 * s * b * d
    } else {
        s * b * d * 34.0 / t
    };
    // 1F1B keeps up to `pp` micro-batches in flight on the first stage; with uneven stages
    // the largest holds ⌈layers/pp⌉ layers. Offloaded, a stage keeps two layers' inputs (one
    // in use, one on its way to or from the host).
    let layers_here = f64::from(model.layers.div_ceil(l.pp));
    let kept = if l.offload && l.recompute {
        layers_here.min(2.0)
    } else {
        layers_here
    };
    let activations = per_layer * kept * f64::from(l.pp);
    Memory {
        weights,
        gradients,
        optimizer,
        activations,
        kv_cache: 0.0,
    }
}

/// The GEMMs of one layer's forward pass for `tokens` tokens, sharded `tp` ways; with latent
/// attention's projections as they run where `latent` is set (model version 9 and later):
/// the query and key/value down-projections (whole on every chip) and their up-projections
/// to every head (split `tp` ways), as one GEMM of the same work on the layer's `d` inputs,
/// and the output projection from the heads' values.
pub(crate) fn layer_gemms(m: &Model, tokens: f64, tp: f64, latent: bool) -> Vec<(f64, f64, f64)> {
    let d = m.d();
    let kv = f64::from(m.kv_heads) * m.head_dim();
    let mut g = match m.mla.filter(|_| latent) {
        Some(a) => {
            let h = f64::from(m.heads);
            let [ql, kl, nope, rope, v] =
                [a.q_lora, a.kv_lora, a.qk_nope, a.qk_rope, a.v_head].map(f64::from);
            let q = if a.q_lora > 0 {
                ql * d + h * (nope + rope) * ql / tp
            } else {
                h * (nope + rope) * d / tp
            };
            let kv = (kl + rope) * d + h * (nope + v) * kl / tp;
            alloc::vec![(tokens, (q + kv) / d, d), (tokens, d, h * v / tp)]
        }
        None => alloc::vec![
            (tokens, (d + 2.0 * kv) / tp, d), // QKV
            (tokens, d, d / tp),              // attention output
        ],
    };
    let ffn_mats = if m.gated { 3.0 } else { 2.0 };
    if m.experts == 0 {
        g.push((tokens, ffn_mats * f64::from(m.ffn) / tp, d));
    } else {
        let routed = tokens * f64::from(m.active_experts + m.shared_experts);
        g.push((routed, ffn_mats * f64::from(m.expert_ffn) / tp, d));
    }
    g
}

/// One micro-batch's forward work on one chip, by the format it runs in: what a training
/// step multiplies by its passes, layers and micro-batches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LayerWork {
    /// One layer's GEMMs in the job's format, each on the roofline at the format's
    /// large-matmul efficiency plus the fixed time per call.
    gemm: f64,
    /// The same split: the fixed time of the calls, then the QKV projection, the attention
    /// output projection and the MLP (a mixture of experts' routed and shared experts).
    gemms: [f64; 4],
    /// FLOPs and bytes of one micro-batch's forward pass on one chip, as the roofline placed
    /// them: the QKV projection, the attention output projection and the MLP of one layer,
    /// its attention and its elementwise work, its casts (forward and backward), and the
    /// output head.
    costs: [(f64, f64); 7],
    /// One layer's attention (in BF16 when the GEMMs run narrower).
    attention: f64,
    /// One layer's norms, rotary embeddings, activation function and residual adds (BF16).
    elementwise: f64,
    /// One layer's casts of GEMM operands to the narrow format (row-wise and transposed),
    /// forward and backward together; zero in BF16.
    casts: f64,
    /// The output head of the whole model (BF16 when the GEMMs run narrower).
    head: f64,
    /// Whether the routed experts were timed from a measured grouped-expert kernel table.
    kernel_experts: bool,
}

impl LayerWork {
    /// One micro-batch through one layer, every pass.
    fn layer(&self, passes: f64) -> f64 {
        passes * (self.gemm + self.attention + self.elementwise) + self.casts * passes / 3.0
    }
    /// One micro-batch through a pipeline stage.
    fn per_micro(&self, passes: f64, stage: Stage) -> f64 {
        self.layer(passes) * stage.layers + passes * self.head * stage.heads
    }
}

/// What the busiest pipeline stage runs of one micro-batch: transformer layers (a
/// multi-token prediction module counts as one) and passes through the output head.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Stage {
    /// Transformer layers.
    pub layers: f64,
    /// Output-head passes (a share of one when spread over the stages).
    pub heads: f64,
}

/// One pipeline stage's share of a step, its exposed communication included.
struct StageRun {
    stage: Stage,
    optimizer: f64,
    compute: f64,
    bubble: f64,
    tp_comm: f64,
    ep_comm: f64,
    dp_parts: DpParts,
    cp_comm: f64,
    pp_comm: f64,
    offload: f64,
    step: f64,
}

/// The ways to lay `pp` pipeline stages over a model of `layers` layers and `mtp` multi-token
/// prediction modules, a layer taking `layer` seconds and a head pass `head`: for each, the
/// last stage and what each of the others holds (`None` when they hold the same).
///
/// As frameworks lay a pipeline out (`extras`): the last stage runs the output head and the
/// prediction modules (each a layer and another head pass), and holds fewer layers than the
/// others where that evens the stages out, as Megatron-Bridge's DeepSeek-V3 layouts give its
/// last stage five layers of 61 over eight stages and one over sixteen. Two splits are
/// offered: the others holding ⌈layers/pp⌉ (the recipes' layouts), and the split whose
/// busiest stage computes least; the caller times each with its communication. Else (model
/// version 9 and earlier) every stage holds ⌈layers/pp⌉ layers and the head's 1/pp share,
/// and no prediction modules.
pub(crate) fn pipeline_stages(
    layers: u32,
    pp: u32,
    mtp: u32,
    layer: f64,
    head: f64,
    extras: bool,
) -> Vec<(Stage, Option<Stage>)> {
    if !extras {
        let each = Stage {
            layers: f64::from(layers.div_ceil(pp)),
            heads: 1.0 / f64::from(pp),
        };
        return alloc::vec![(each, None)];
    }
    let last = |k: u32| Stage {
        layers: f64::from(k + mtp),
        heads: f64::from(1 + mtp),
    };
    if pp <= 1 {
        return alloc::vec![(last(layers), None)];
    }
    let other = |k: u32| Stage {
        layers: f64::from((layers - k).div_ceil(pp - 1)),
        heads: 0.0,
    };
    let time = |s: Stage| s.layers * layer + s.heads * head;
    let busiest = |k: u32| time(last(k)).max(time(other(k)));
    let most = layers.div_ceil(pp).min(layers);
    let even = layers.saturating_sub((pp - 1) * most);
    // The first split at which the busiest stage is least (each split's time worked out once).
    let (least, _) = (1..=most).fold((0, busiest(0)), |(best, t), k| {
        let tk = busiest(k);
        if tk < t {
            (k, tk)
        } else {
            (best, t)
        }
    });
    let mut splits = Vec::with_capacity(2);
    splits.push((last(even), Some(other(even))));
    if least != even {
        splits.push((last(least), Some(other(least))));
    }
    splits
}

/// Of [`pipeline_stages`], the one that computes longest.
#[cfg(test)]
pub(crate) fn busiest_stage(
    layers: u32,
    pp: u32,
    mtp: u32,
    layer: f64,
    head: f64,
    extras: bool,
) -> Stage {
    let time = |s: Stage| s.layers * layer + s.heads * head;
    let stages = pipeline_stages(layers, pp, mtp, layer, head, extras);
    let busiest = |(last, other): (Stage, Option<Stage>)| match other {
        Some(o) if time(o) > time(last) => o,
        _ => last,
    };
    stages
        .into_iter()
        .map(busiest)
        .fold(None, |best: Option<Stage>, s| match best {
            Some(b) if time(b) <= time(s) => Some(b),
            _ => Some(s),
        })
        .unwrap_or(Stage {
            layers: 0.0,
            heads: 0.0,
        })
}

/// The widest format among the work that stays out of narrow formats: attention, the
/// output head and the elementwise work run in BF16 when the GEMMs run in FP8 or FP4.
pub(crate) fn side_dtype(d: Dtype) -> Dtype {
    if d.bytes() < 2.0 {
        Dtype::Bf16
    } else {
        d
    }
}

pub(crate) fn micro_batch_parts(
    chip: &Chip,
    eff: &efficiency::MatmulEfficiency,
    cfg: &TrainConfig,
    roof: &Roofline,
    tokens_mb: f64,
    tp: f64,
    experts_table: Option<&crate::kerneldata::KernelTable>,
) -> LayerWork {
    let m = &cfg.model;
    let gemm_roof = Roofline {
        peak: roof.peak * eff.large(cfg.matmul_efficiency),
        bandwidth: roof.bandwidth,
    };
    let per_call = eff.per_gemm.value.get();
    let ffn_mats = if m.gated { 3.0 } else { 2.0 };
    let mut gemm = per_call * (2.0 + ffn_mats);
    let mut split = [gemm, 0.0, 0.0, 0.0];
    let mut costs = [(0.0, 0.0); 7];
    let mut kernel_experts = false;
    let gemms = layer_gemms(m, tokens_mb, tp, cfg.latent_attention);
    let cost_of = |mm: f64, n: f64, k: f64| OpSpec::Gemm { m: mm, n, k }.cost(cfg.dtype);
    let place = |mm: f64, n: f64, k: f64| gemm_roof.place(cost_of(mm, n, k)).time.get();
    for (i, &(mm, n, k)) in gemms.iter().enumerate() {
        let routed = m.experts > 0 && i + 1 == gemms.len();
        let slot = (i + 1).min(3);
        let c = cost_of(mm, n, k);
        costs[slot - 1] = (c.flop.get(), c.bytes.get());
        let t = if routed && cfg.grouped_experts {
            // A grouped GEMM: each of the chip's experts multiplies the tokens routed to it
            // by its own weights, which it reads whole however few its tokens; the shared
            // experts see every token. The busiest rank sets the pace.
            let ep = f64::from(cfg.layout.ep.max(1));
            let local = (f64::from(m.experts) / ep).max(1.0);
            let pairs = tokens_mb * f64::from(m.active_experts);
            let shared = if m.shared_experts > 0 {
                place(tokens_mb * f64::from(m.shared_experts), n, k)
            } else {
                0.0
            };
            // Each expert reads its own weights: the bytes are the experts' calls'.
            let one = cost_of(pairs / local, n, k);
            let with_shared = if m.shared_experts > 0 {
                cost_of(tokens_mb * f64::from(m.shared_experts), n, k)
                    .bytes
                    .get()
            } else {
                0.0
            };
            costs[slot - 1].1 = local * one.bytes.get() + with_shared;
            // From the kernels measured on the chip where they were (never faster than the
            // chip's dense peak and bandwidth allow), else on the roofline.
            let per_expert = pairs / local;
            let measured = experts_table.and_then(|tb| {
                let s = super::experts::grouped_seconds(tb, local, k, n / ffn_mats, per_expert)?;
                let floor = Roofline::dense(chip, cfg.dtype)?.place(one).time.get();
                Some(local * floor.max(s / local))
            });
            kernel_experts |= measured.is_some();
            measured.unwrap_or_else(|| local * place(pairs / local, n, k))
                * cfg.expert_imbalance.max(1.0)
                + shared
        } else {
            gemm_roof.place(c).time.get()
        };
        gemm += t;
        split[slot] += t;
    }
    let side = side_dtype(cfg.dtype);
    let side_roof = Roofline::dense(chip, side).map_or(gemm_roof, |r| Roofline {
        peak: r.peak * cfg.matmul_efficiency,
        bandwidth: r.bandwidth,
    });
    // Latent attention trains on decompressed keys and values: every head its own, queries
    // and keys of nope + rope dimensions, values of v (the mean of the two sets the work).
    let (kv_heads, head_dim) = match m.mla.filter(|_| cfg.latent_attention) {
        Some(a) => (
            f64::from(m.heads),
            f64::from(a.qk_nope + a.qk_rope + a.v_head) / 2.0,
        ),
        None => (f64::from(m.kv_heads), m.head_dim()),
    };
    let attn = OpSpec::AttentionPrefill {
        batch: tokens_mb / f64::from(m.seq),
        seq: f64::from(m.seq),
        heads: f64::from(m.heads) / tp,
        kv_heads: (kv_heads / tp).max(1.0),
        head_dim,
    };
    // The PaLM convention counts attention non-causally (12·L·d·s): twice the causal FLOPs.
    // Windowed layers do the share of it their windows leave.
    let mut attn_cost = attn.cost(side);
    let share = m.causal_share(f64::from(m.seq));
    if share < 1.0 {
        attn_cost.flop = crate::units::Flop::new(attn_cost.flop.get() * share);
    }
    let attention = 2.0 * side_roof.place(attn_cost).time.get();
    costs[3] = (2.0 * attn_cost.flop.get(), 2.0 * attn_cost.bytes.get());
    // Work outside the matmuls, bound by HBM: norms, rotary embeddings, the activation
    // function, residual adds and format casts touch about 12·d + 3·f BF16 values per token
    // per layer (f: the FFN width a token passes through), split over the tensor ranks.
    let ffn_act = if m.experts == 0 {
        f64::from(m.ffn)
    } else {
        f64::from(m.active_experts + m.shared_experts) * f64::from(m.expert_ffn)
    };
    let bw = roof.bandwidth.get();
    let elementwise_bytes = tokens_mb * (12.0 * m.d() + 3.0 * ffn_act) / tp * 2.0;
    let elementwise = elementwise_bytes / bw;
    costs[4] = (0.0, elementwise_bytes);
    // Narrow formats: every GEMM operand in activation space is read in BF16 and written in
    // the narrow format twice (row-wise, and transposed for the weight gradient): the inputs
    // of the four projections forward (d, d, d, f), their output gradients backward
    // (d + 2·kv, d, (mats − 1)·f, d).
    let casts = if cfg.dtype.bytes() < 2.0 {
        let kv = f64::from(m.kv_heads) * m.head_dim();
        let values =
            3.0 * m.d() + ffn_act + (m.d() + 2.0 * kv) + 2.0 * m.d() + (ffn_mats - 1.0) * ffn_act;
        let bytes = tokens_mb * values / tp * (2.0 + 2.0 * cfg.dtype.bytes());
        costs[5] = (0.0, bytes);
        bytes / bw
    } else {
        0.0
    };
    let head_cost = OpSpec::Gemm {
        m: tokens_mb,
        n: f64::from(m.vocab) / tp,
        k: m.d(),
    }
    .cost(side);
    costs[6] = (head_cost.flop.get(), head_cost.bytes.get());
    let head = side_roof.place(head_cost).time.get() + per_call;
    LayerWork {
        gemm,
        gemms: split,
        costs,
        attention,
        elementwise,
        casts,
        head,
        kernel_experts,
    }
}

/// Estimate one training step: every GEMM of a layer on the chip's roofline at the matmul
/// efficiency, attention (in BF16 when the matmuls run narrower), the HBM traffic of the work
/// outside the matmuls, three passes (four with recomputation) over the largest pipeline
/// stage's layers, the pipeline bubble, and the exposed tensor-, expert- and data-parallel
/// communication.
///
/// # Errors
/// On an invalid layout, a format the chip lacks, or a layout that does not fit.
pub fn train(
    cluster: &Cluster,
    chip: &Chip,
    cfg: &TrainConfig,
) -> Result<TrainReport, WorkloadError> {
    train_in(cluster, chip, cfg, &mut CommMemo::default(), true)
}

/// Collective times a layout search reuses: the tensor-parallel all-reduce depends only on
/// the tensor degree, the expert all-to-all on the tensor and expert degrees.
#[derive(Clone, Debug, Default)]
pub(crate) struct CommMemo {
    /// A tensor-parallel all-reduce's time by (degree, bytes): the bytes follow the
    /// micro-batch and the context-parallel split, so the degree alone does not name it.
    tp: Vec<((u32, u64), f64)>,
    /// An expert all-to-all's time by (tensor degree, expert degree, bytes).
    ep: Vec<((u32, u32, u64), f64)>,
    /// A data-parallel all-reduce's time by (tensor × pipeline degree, replicas, bytes).
    dp: Vec<((u32, u32, u64), f64)>,
    /// The grouped-expert kernel table the search's experts are timed from, looked up once
    /// (the outer `None`: not yet).
    #[allow(clippy::option_option)]
    experts: Option<Option<alloc::sync::Arc<crate::kerneldata::KernelTable>>>,
    /// The chip's matmul efficiency in the search's format, worked out once.
    matmul: Option<efficiency::MatmulEfficiency>,
}

pub(crate) fn train_in(
    cluster: &Cluster,
    chip: &Chip,
    cfg: &TrainConfig,
    memo: &mut CommMemo,
    with_formula: bool,
) -> Result<TrainReport, WorkloadError> {
    let m = &cfg.model;
    let l = &cfg.layout;
    check_layout(l, cluster, m)?;
    if !(cfg.matmul_efficiency > 0.0 && cfg.matmul_efficiency <= 1.0) {
        return Err(WorkloadError::BadInput(
            "matmul efficiency must be in (0, 1]".into(),
        ));
    }
    if cfg.global_batch == 0 {
        return Err(WorkloadError::BadInput(
            "the global batch must be at least 1".into(),
        ));
    }
    // A micro-batch is at most what a data-parallel rank holds a step (so a step's
    // micro-batches times the ranks' sequences stays within the global batch's range).
    let per_rank = (cfg.global_batch / l.dp.max(1)).max(1);
    if l.micro_batch > per_rank {
        return Err(WorkloadError::BadLayout(format!(
            "a micro-batch of {} sequences is more than the {per_rank} each of the {} data-parallel ranks holds a step",
            l.micro_batch, l.dp
        )));
    }
    let roof = Roofline::dense(chip, cfg.dtype).ok_or_else(|| {
        WorkloadError::NoFormat(format!("{} has no dense {} figure", chip.id, cfg.dtype))
    })?;
    if l.offload && !l.recompute {
        return Err(WorkloadError::BadLayout(
            "offloading keeps each layer's input in host memory for recomputation: it needs recomputation on".into(),
        ));
    }
    let mem = training_memory(m, l);
    let hbm = chip.hbm_capacity.value.get();
    if mem.total() > hbm {
        let detail = if mem.activations > mem.optimizer {
            "activations dominate: recompute, offload layer inputs to host memory, or more pipeline stages"
        } else {
            "weights and optimizer states dominate: more tensor or pipeline parallelism, or shard the optimizer"
        };
        return Err(WorkloadError::DoesNotFit {
            needed: mem.total(),
            available: hbm,
            detail: detail.into(),
        });
    }
    // A global batch that does not divide evenly is rounded up to whole micro-batches.
    let micro = f64::from(cfg.global_batch.div_ceil(l.dp * l.micro_batch));
    // Each chip of a context-parallel group holds 1/cp of every sequence.
    let tokens_mb = f64::from(l.micro_batch) * f64::from(m.seq) / f64::from(l.cp);
    let tp = f64::from(l.tp);
    let experts_table = if cfg.kernel_experts && cfg.grouped_experts && m.experts > 0 {
        memo.experts
            .get_or_insert_with(|| super::experts::training_experts_table(m, chip, cfg.dtype))
            .clone()
    } else {
        None
    };
    let eff = *memo
        .matmul
        .get_or_insert_with(|| efficiency::matmul(chip, cfg.dtype));
    let parts = micro_batch_parts(
        chip,
        &eff,
        cfg,
        &roof,
        tokens_mb,
        tp,
        experts_table.as_deref(),
    );
    let passes = if l.recompute { 4.0 } else { 3.0 };
    // Every stage of the layout, timed with what its layers exchange: the slowest sets the
    // pace (as frameworks lay pipelines out, the last runs the output head and any
    // prediction modules, and may hold fewer layers than the others).
    let stage_run = |stage: Stage, memo: &mut CommMemo| -> Result<StageRun, WorkloadError> {
        let layers_here = stage.layers;
        let per_micro = parts.per_micro(passes, stage);
        // The optimizer step: read and write this chip's fp32 states, read its gradients and
        // write its BF16 weights, once per step, at HBM speed.
        let optimizer = (2.0 * mem.optimizer + mem.gradients + mem.weights) / roof.bandwidth.get();
        let compute = per_micro * micro + optimizer;
        let bubble = per_micro * bubble_slots(l.pp, l.interleave);
        // Tensor parallelism: 2 all-reduces forward and 2 backward per layer of the activations.
        let tp_comm = if l.tp > 1 {
            let act = Bytes::new(tokens_mb * m.d() * cfg.dtype.bytes().max(2.0));
            let key = (l.tp, act.get().to_bits());
            let one = match memo.tp.iter().find(|(k, _)| *k == key) {
                Some((_, x)) => *x,
                None => {
                    let x = tp_allreduce(cluster, l.tp, act)?;
                    memo.tp.push((key, x));
                    x
                }
            };
            let per = if l.recompute { 6.0 } else { 4.0 };
            one * per * layers_here * micro * (1.0 - cfg.tp_overlap)
        } else {
            0.0
        };
        // Expert parallelism: tokens go to their experts and come back, an all-to-all each way
        // forward and backward (and again when recomputing) in every MoE layer of the stage.
        let ep_comm = if l.ep > 1 {
            let moe_here = m.moe_layers() / f64::from(m.layers) * layers_here;
            let routed = Bytes::new(
                tokens_mb * f64::from(m.active_experts) * m.d() * cfg.dtype.bytes().max(2.0) / tp
                    * ep_network_share(cfg.ep_dispatch, cluster, l, m.active_experts),
            );
            let key = (l.tp, l.ep, routed.get().to_bits());
            let one = match memo.ep.iter().find(|(k, _)| *k == key) {
                Some((_, x)) => *x,
                None => {
                    let x = ep_alltoall(cluster, l, routed)?;
                    memo.ep.push((key, x));
                    x
                }
            };
            let per = if l.recompute { 6.0 } else { 4.0 };
            // The busiest rank's tokens set the all-to-all's pace.
            let a2a = one * per * moe_here * micro * cfg.expert_imbalance.max(1.0);
            if cfg.ep_overlap {
                ep_overlapped(a2a, per_micro * micro, (f64::from(l.pp) - 1.0) / micro)
            } else {
                a2a * (1.0 - cfg.tp_overlap)
            }
        } else {
            0.0
        };
        // Data parallelism: gradients of this chip's parameters, across the replicas of its
        // weights (data- and context-parallel ranks). ZeRO-0/1 all-reduce them once a step;
        // ZeRO-2 reduce-scatters each micro-batch's and all-gathers the updated weights once;
        // ZeRO-3 (FSDP) also gathers the weights for every micro-batch's forward and backward
        // pass. A reduce-scatter or all-gather moves half an all-reduce.
        // With hybrid sharding the gathers and reduce-scatters run within a replica group, whose
        // ranks are neighbours; its shard of the gradients is then all-reduced across groups.
        let replicas = l.dp * l.cp / l.replicate;
        let across_groups = if l.replicate > 1 {
            replica_allreduce(cluster, l, Bytes::new(mem.gradients))? * (1.0 - cfg.dp_overlap)
        } else {
            0.0
        };
        let dp_parts = if replicas > 1 {
            let group = Layout { dp: replicas, ..*l };
            let full_grads = Bytes::new(
                mem.gradients
                    * if l.zero >= 2 {
                        f64::from(replicas)
                    } else {
                        1.0
                    },
            );
            let ar = if cfg.dp_as_run {
                let key = (l.tp * l.pp, replicas, full_grads.get().to_bits());
                match memo.dp.iter().find(|(k, _)| *k == key) {
                    Some((_, x)) => *x,
                    None => {
                        let x = dp_allreduce_as_run(cluster, &group, full_grads)?;
                        memo.dp.push((key, x));
                        x
                    }
                }
            } else {
                dp_allreduce(cluster, &group, full_grads)
            };
            // One all-gather of the stage's weights, or one reduce-scatter of its gradients.
            let half = ar / 2.0;
            let shown = 1.0 - cfg.dp_overlap;
            match l.zero {
                0 | 1 => DpParts::of(ar * shown, 0.0, 0.0, 0.0),
                2 => DpParts::of(0.0, half * shown, 0.0, half * micro * shown),
                // FSDP gathers the next layer's weights while this one computes and reduce-
                // scatters a layer's gradients while the next computes its backward (PyTorch
                // FSDP's prefetch, XLA's async collectives): the forward pass's gathers stream
                // beside the forward's compute, the backward's gathers and reduce-scatters beside
                // the backward's (recomputation included), and what shows in each phase is what
                // its compute does not cover, plus the first layer's gather and the last layer's
                // reduce-scatter.
                _ if cfg.fsdp_prefetch && cfg.dp_as_run => {
                    let forward = per_micro / passes;
                    let backward = per_micro - forward;
                    let edge = half / layers_here;
                    let behind = (2.0 * half - backward).max(0.0) / 2.0;
                    DpParts::of(
                        0.0,
                        ((half - forward).max(0.0) + edge) * micro,
                        behind * micro,
                        (behind + edge) * micro,
                    )
                }
                // Model versions 4 to 8: the collectives hidden behind the whole micro-batch's
                // compute, shown as three equal parts.
                _ if cfg.fsdp_prefetch => {
                    let comm = 3.0 * half;
                    let third = ((comm - per_micro).max(0.0) + comm / layers_here) * micro / 3.0;
                    DpParts::of(0.0, third, third, third)
                }
                _ => {
                    let each = half * micro * shown;
                    DpParts::of(0.0, each, each, each)
                }
            }
        } else {
            DpParts::of(0.0, 0.0, 0.0, 0.0)
        };
        let dp_parts = DpParts {
            all_reduce: Seconds::new(dp_parts.all_reduce.get() + across_groups),
            ..dp_parts
        };
        let dp_comm = dp_parts.total();
        // Context parallelism: in every layer each chip passes its chunk's keys and values around
        // the ring cp − 1 times forward, and keys, values and their gradients backward; the
        // exchange overlaps the attention it feeds, so only what attention does not cover shows.
        let cp_comm = if l.cp > 1 {
            let kv = tokens_mb * 2.0 * (f64::from(m.kv_heads) / tp).max(1.0) * m.head_dim() * 2.0;
            let inside = l.tp * l.cp <= cluster.system.chips();
            let hop = p2p_time(&cluster.system, kv, inside);
            let per_layer = 3.0 * f64::from(l.cp - 1) * hop;
            let attn = parts.attention * passes;
            (per_layer - attn).max(0.0) * layers_here * micro
        } else {
            0.0
        };
        // Pipeline sends: each micro-batch's activations forward and their gradients backward
        // across every stage boundary (v of them per chip when interleaved), on the critical
        // path through the pipeline's fill and drain and once per micro-batch in between.
        let pp_comm = if l.pp > 1 && cfg.pipeline_sends {
            let act = tokens_mb * m.d() * 2.0 / tp;
            let inside = l.tp * l.cp * l.pp <= cluster.system.chips();
            let send = p2p_time(&cluster.system, act, inside);
            2.0 * f64::from(l.interleave) * (micro + f64::from(l.pp) - 1.0) * send
        } else {
            0.0
        };
        // Offload: each layer's input written to host memory in the forward pass and read back
        // in the backward pass, over the host link beside the compute (DMA): a direction's
        // transfer exposed where it outlasts its phase (the forward pass, a pass in `passes`; the
        // recomputation and backward, the rest).
        let offload = if l.offload {
            let bytes = 2.0 * tokens_mb * m.d() * layers_here * micro;
            let one_way = bytes / crate::hostlink::host_link(chip).value;
            let work = per_micro * micro;
            (one_way - work / passes).max(0.0) + (one_way - work * (passes - 1.0) / passes).max(0.0)
        } else {
            0.0
        };
        let step = compute + bubble + tp_comm + ep_comm + dp_comm + cp_comm + pp_comm + offload;
        Ok(StageRun {
            stage,
            optimizer,
            compute,
            bubble,
            tp_comm,
            ep_comm,
            dp_parts,
            cp_comm,
            pp_comm,
            offload,
            step,
        })
    };
    // Each way to lay the stages out, paced by its slowest stage; the fastest is run.
    let mut best: Option<StageRun> = None;
    for (last, others) in pipeline_stages(
        m.layers,
        l.pp,
        m.mtp,
        parts.layer(passes),
        passes * parts.head,
        cfg.stage_extras,
    ) {
        let mut run = stage_run(last, memo)?;
        if let Some(other) = others {
            let r = stage_run(other, memo)?;
            if r.step > run.step {
                run = r;
            }
        }
        if best.as_ref().is_none_or(|b| run.step < b.step) {
            best = Some(run);
        }
    }
    let Some(run) = best else {
        return Err(WorkloadError::BadLayout("no pipeline stage to run".into()));
    };
    let StageRun {
        stage,
        optimizer,
        compute,
        bubble,
        tp_comm,
        ep_comm,
        dp_parts,
        cp_comm,
        pp_comm,
        offload,
        step,
    } = run;
    let layers_here = stage.layers;
    let dp_comm = dp_parts.total();
    let tokens = micro * f64::from(l.dp * l.micro_batch) * f64::from(m.seq);
    let tokens_per_s = tokens / step;
    let peak_total = roof.peak.get() * f64::from(cluster.chips());
    let mfu = m.train_flops_per_token() * tokens_per_s / peak_total;
    let per_step = |x: f64| Seconds::new(x * micro * passes * layers_here);
    let parts = StepParts {
        gemm_dtype: cfg.dtype,
        side_dtype: side_dtype(cfg.dtype),
        gemm_efficiency: eff.large(cfg.matmul_efficiency),
        gemm_peak: roof.peak.get(),
        model_flops_per_token: m.train_flops_per_token(),
        gemm: per_step(parts.gemm),
        gemms: parts.gemms.map(per_step),
        costs: {
            let n = micro * passes * layers_here;
            let c = &parts.costs;
            let each = |(f, b): (f64, f64), times: f64| (f * times, b * times);
            [
                each(c[0], n),
                each(c[1], n),
                each(c[2], n),
                each(c[3], n),
                each(c[4], n),
                each(c[5], micro * layers_here * passes / 3.0),
                each(c[6], micro * passes * stage.heads),
                (0.0, 2.0 * mem.optimizer + mem.gradients + mem.weights),
            ]
        },
        counts: StepCounts {
            micro,
            passes,
            layers: layers_here,
            tokens: tokens_mb,
        },
        attention: per_step(parts.attention),
        elementwise: per_step(parts.elementwise),
        casts: Seconds::new(parts.casts * micro * layers_here * passes / 3.0),
        head: Seconds::new(parts.head * micro * passes * stage.heads),
        optimizer: Seconds::new(optimizer),
        experts_measured: parts.kernel_experts,
    };
    Ok(TrainReport {
        layout: *l,
        step: Seconds::new(step),
        compute: Seconds::new(compute),
        bubble: Seconds::new(bubble),
        tp_comm: Seconds::new(tp_comm),
        ep_comm: Seconds::new(ep_comm),
        dp_comm: Seconds::new(dp_comm),
        dp_parts,
        cp_comm: Seconds::new(cp_comm),
        pp_comm: Seconds::new(pp_comm),
        offload: Seconds::new(offload),
        tokens_per_s,
        mfu,
        memory: mem,
        formula: if with_formula {
            format!(
                "step = compute {} + bubble (pp−1)/(m·v)·compute {} + exposed TP {} + exposed EP all-to-all {} + exposed DP {} (ZeRO-{}) + exposed CP ring {} + pipeline sends {} + exposed offload {}; compute = {} passes × {} micro-batches: {} GEMMs {} at {:.1}% of {} (BF16 efficiency {:.1}% × {} ratio {:.3}), {} attention {}, {} elementwise {}, casts to {} {}, {} output head {}, optimizer step {}",
                Seconds::new(compute),
                Seconds::new(bubble),
                Seconds::new(tp_comm),
                Seconds::new(ep_comm),
                Seconds::new(dp_comm),
                l.zero,
                Seconds::new(cp_comm),
                Seconds::new(pp_comm),
                Seconds::new(offload),
                passes,
                micro,
                parts.gemm_dtype,
                parts.gemm,
                parts.gemm_efficiency * 100.0,
                FlopPerSec::new(roof.peak.get()),
                cfg.matmul_efficiency * 100.0,
                parts.gemm_dtype,
                eff.ratio.value,
                parts.side_dtype,
                parts.attention,
                parts.side_dtype,
                parts.elementwise,
                parts.gemm_dtype,
                parts.casts,
                parts.side_dtype,
                parts.head,
                parts.optimizer,
            )
        } else {
            String::new()
        },
        parts,
    })
}

/// One collective `op` of `bytes` per rank over a group of `ranks` chips spread across
/// `nodes` scale-up domains. Across domains the whole domains' estimate is taken; inside one
/// domain its figures are scaled from the domain's n ranks to the group's k (the bandwidth
/// term by (k−1)/k ÷ (n−1)/n, the latency term by (k−1)/(n−1)): a sub-group is approximated
/// by the whole domain's per-link rates.
pub(crate) fn group_collective(
    cluster: &Cluster,
    op: Op,
    ranks: u32,
    nodes: u32,
    bytes: Bytes,
) -> Result<f64, WorkloadError> {
    if nodes <= 1 {
        if let Some(t) = crate::collective::subgroup_time(&cluster.system, op, ranks, bytes) {
            return Ok(t);
        }
    }
    let nodes = nodes.max(1);
    let e = crate::collective::estimate_quiet(&cluster.system, nodes, op, bytes, Algorithm::Auto)
        .map_err(|e| WorkloadError::BadInput(format!("{e}")))?;
    if nodes > 1 {
        return Ok(e.time.get());
    }
    let n = f64::from(cluster.system.chips());
    let k = f64::from(ranks);
    let bw = e.bandwidth_term.get() * ((k - 1.0) / k) / ((n - 1.0) / n);
    let lat = e.latency_term.get() * (k - 1.0) / (n - 1.0);
    Ok(lat + bw)
}

/// One point-to-point send of `bytes` from a chip to its neighbour: over one scale-up link
/// when both sit in the same domain, otherwise over the chip's share of the scale-out
/// network; each at its effective rate, plus one hop's latency.
#[must_use]
pub(crate) fn p2p_time(sys: &crate::system::System, bytes: f64, inside: bool) -> f64 {
    if inside {
        let link = sys.links.first().map_or(0.0, |l| l.value.get());
        sys.hop_latency.value.get() + bytes / (link * sys.link_efficiency.value)
    } else {
        sys.scale_out_latency.value.get()
            + bytes / (sys.scale_out.value.get() * sys.scale_out_efficiency.value)
    }
}

/// An all-reduce over `tp` chips of one scale-up domain.
pub(crate) fn tp_allreduce(cluster: &Cluster, tp: u32, bytes: Bytes) -> Result<f64, WorkloadError> {
    group_collective(cluster, Op::AllReduce, tp, 1, bytes)
}

/// One all-to-all of `bytes` per rank across an expert-parallel group. Its `ep` members sit
/// `tp` chips apart: inside one scale-up domain when `tp·ep` fits it, otherwise spread over
/// `⌈tp·ep/domain⌉` domains and crossing the scale-out network.
pub(crate) fn ep_alltoall(
    cluster: &Cluster,
    l: &Layout,
    bytes: Bytes,
) -> Result<f64, WorkloadError> {
    let nodes = (l.tp * l.ep).div_ceil(cluster.system.chips());
    group_collective(cluster, Op::AllToAll, l.ep, nodes, bytes)
}

/// [`dp_allreduce`] with the replicas inside a scale-up domain reduced as the domain's
/// collective library runs it over the whole fabric ([`group_collective`]: every axis of a
/// torus, NCCL's choice on a switch), then across domains as before.
///
/// # Errors
/// The collective does not evaluate.
pub(crate) fn dp_allreduce_as_run(
    cluster: &Cluster,
    l: &Layout,
    bytes: Bytes,
) -> Result<f64, WorkloadError> {
    allreduce_spread(cluster, l.tp * l.pp, l.dp, bytes)
}

/// An all-reduce of `bytes` a rank over `n` ranks `stride` chips apart: inside each scale-up
/// domain as its collective library runs it ([`group_collective`]), then a ring across the
/// domains on each chip's share.
///
/// # Errors
/// The collective does not evaluate.
fn allreduce_spread(
    cluster: &Cluster,
    stride: u32,
    n: u32,
    bytes: Bytes,
) -> Result<f64, WorkloadError> {
    let (per_domain, across) = spread(&cluster.system, stride, n);
    let mut t = 0.0;
    if per_domain > 1.0 {
        // `per_domain` is a whole number of at most the domain's chips.
        t += group_collective(cluster, Op::AllReduce, per_domain as u32, 1, bytes)?;
    }
    if across > 1.0 {
        t += dp_across(&cluster.system, bytes.get() / per_domain, across);
    }
    Ok(t)
}

/// How `l`'s data-parallel replicas spread: how many share a scale-up domain, and over how
/// many domains.
fn dp_spread(sys: &crate::system::System, l: &Layout) -> (f64, f64) {
    spread(sys, l.tp * l.pp, l.dp)
}

/// How `n` ranks `stride` chips apart spread: how many share a scale-up domain, and over how
/// many domains.
fn spread(sys: &crate::system::System, stride: u32, n: u32) -> (f64, f64) {
    let n = f64::from(n);
    let chips = sys.chips().max(1);
    let per_domain = f64::from((chips / stride.clamp(1, chips)).max(1)).min(n);
    (per_domain, (n / per_domain).max(1.0))
}

/// Hybrid sharding's all-reduce of each chip's shard of the gradients (`bytes`) across
/// `l.replicate` replica groups: the groups' matching ranks sit a group's width apart, inside
/// one scale-up domain where the groups are small, else across domains.
///
/// # Errors
/// The collective does not evaluate.
fn replica_allreduce(cluster: &Cluster, l: &Layout, bytes: Bytes) -> Result<f64, WorkloadError> {
    let group = l.dp * l.cp / l.replicate.max(1);
    let stride = l.tp.saturating_mul(l.pp).saturating_mul(group);
    allreduce_spread(cluster, stride, l.replicate, bytes)
}

/// A ring all-reduce of `shard` bytes across `across` domains over the scale-out network.
fn dp_across(sys: &crate::system::System, shard: f64, across: f64) -> f64 {
    let bo = sys.scale_out.value.get() * sys.scale_out_efficiency.value;
    let ao = sys.scale_out_latency.value.get();
    2.0 * (across - 1.0) / across * shard / bo + 2.0 * (across - 1.0) * ao
}

/// The gradient all-reduce of one chip's shard across the `dp` replicas. Replicas of the
/// same shard sit in different scale-up domains when the domains are fewer than dp.
pub(crate) fn dp_allreduce(cluster: &Cluster, l: &Layout, bytes: Bytes) -> f64 {
    let sys = &cluster.system;
    let (per_domain, across) = dp_spread(sys, l);
    let s = bytes.get();
    // Inside a domain (if several replicas share it) a ring over its slowest link, then a
    // ring across domains.
    let mut t = 0.0;
    if per_domain > 1.0 {
        let link = sys
            .links
            .iter()
            .map(|x| x.value.get())
            .fold(f64::INFINITY, f64::min)
            * sys.link_efficiency.value;
        t += 2.0 * (per_domain - 1.0) / per_domain * s / link
            + 2.0 * (per_domain - 1.0) * sys.hop_latency.value.get();
    }
    if across > 1.0 {
        t += dp_across(sys, s / per_domain, across);
    }
    t
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tp {} × ", self.tp)?;
        if self.cp > 1 {
            write!(f, "cp {} × ", self.cp)?;
        }
        write!(f, "pp {} × dp {}", self.pp, self.dp)?;
        if self.zero != 1 {
            write!(f, ", ZeRO-{}", self.zero)?;
        }
        if self.ep > 1 {
            write!(f, " (ep {})", self.ep)?;
        }
        if self.interleave > 1 {
            write!(f, ", {} virtual stages", self.interleave)?;
        }
        if self.recompute {
            f.write_str(", recompute")?;
        }
        if self.offload {
            f.write_str(", layer inputs offloaded to host")?;
        }
        if self.replicate > 1 {
            write!(
                f,
                ", hybrid sharding over {} replica groups",
                self.replicate
            )?;
        }
        Ok(())
    }
}

/// The idle micro-batch slots of a 1F1B pipeline of `pp` stages: pp − 1, each shrunk to a
/// chunk when every chip holds `interleave` chunks of layers, so (pp − 1)/v.
#[must_use]
pub fn bubble_slots(pp: u32, interleave: u32) -> f64 {
    f64::from(pp.saturating_sub(1)) / f64::from(interleave.max(1))
}

/// The bubble's share of a step of `micro` micro-batches (the optimizer step aside):
/// (pp − 1)/v ÷ (m + (pp − 1)/v).
#[must_use]
pub fn bubble_share(pp: u32, micro: u32, interleave: u32) -> f64 {
    let b = bubble_slots(pp, interleave);
    b / (f64::from(micro) + b)
}
