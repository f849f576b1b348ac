//! Transformer workloads: model shapes, FLOPs and bytes per token, memory per chip, and the
//! time of a training step or an inference batch on a cluster.
//!
//! FLOPs follow the PaLM convention used for MFU: 6·N per token for the parameter matmuls
//! (N = active non-embedding parameters plus the output head) and 12·L·d·s for attention.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::chip::Chip;
use crate::collective::{estimate, Algorithm, Op};
use crate::dtype::Dtype;
use crate::efficiency;
use crate::roofline::{OpSpec, Roofline};
use crate::system::Cluster;
use crate::units::{Bytes, FlopPerSec, Seconds};

pub mod calibration;

/// A transformer's shape. MoE models set `experts` > 0.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Model {
    /// Stable id: `llama3-70b`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Transformer layers.
    pub layers: u32,
    /// Model (hidden) dimension d.
    pub hidden: u32,
    /// Query heads.
    pub heads: u32,
    /// Key/value heads (GQA; equal to `heads` for MHA).
    pub kv_heads: u32,
    /// FFN inner dimension of dense layers.
    pub ffn: u32,
    /// Gated FFN (SwiGLU: three matrices) or not (GELU: two).
    pub gated: bool,
    /// Vocabulary size.
    pub vocab: u32,
    /// Training sequence length.
    pub seq: u32,
    /// Routed experts per MoE layer (0 for a dense model).
    pub experts: u32,
    /// Experts each token is routed to.
    pub active_experts: u32,
    /// Always-on shared experts per MoE layer.
    pub shared_experts: u32,
    /// FFN inner dimension of one expert.
    pub expert_ffn: u32,
    /// Leading layers that stay dense in an MoE model.
    pub dense_layers: u32,
}

impl Model {
    fn d(&self) -> f64 {
        f64::from(self.hidden)
    }
    /// Dimension per head.
    #[must_use]
    pub fn head_dim(&self) -> f64 {
        self.d() / f64::from(self.heads)
    }
    fn attn_params(&self) -> f64 {
        let d = self.d();
        2.0 * d * d + 2.0 * d * f64::from(self.kv_heads) * self.head_dim()
    }
    fn ffn_params(&self, inner: u32) -> f64 {
        (if self.gated { 3.0 } else { 2.0 }) * self.d() * f64::from(inner)
    }
    fn moe_layers(&self) -> f64 {
        if self.experts == 0 {
            0.0
        } else {
            f64::from(self.layers - self.dense_layers)
        }
    }
    fn dense_ffn_layers(&self) -> f64 {
        f64::from(self.layers) - self.moe_layers()
    }
    /// Parameters of all experts of one MoE layer.
    fn expert_params(&self, n: u32) -> f64 {
        f64::from(n) * self.ffn_params(self.expert_ffn)
    }
    /// Every parameter, embeddings and output head included.
    #[must_use]
    pub fn params_total(&self) -> f64 {
        let l = f64::from(self.layers);
        l * self.attn_params()
            + self.dense_ffn_layers() * self.ffn_params(self.ffn)
            + self.moe_layers() * self.expert_params(self.experts + self.shared_experts)
            + 2.0 * f64::from(self.vocab) * self.d()
    }
    /// Parameters one token's matmuls touch (the output head counts, the embedding lookup not).
    #[must_use]
    pub fn params_active(&self) -> f64 {
        let l = f64::from(self.layers);
        l * self.attn_params()
            + self.dense_ffn_layers() * self.ffn_params(self.ffn)
            + self.moe_layers() * self.expert_params(self.active_experts + self.shared_experts)
            + f64::from(self.vocab) * self.d()
    }
    /// Forward FLOPs per token at context length `ctx` (2·N + attention 4·L·d·ctx/2, causal).
    #[must_use]
    pub fn forward_flops_per_token(&self, ctx: f64) -> f64 {
        2.0 * self.params_active() + 2.0 * f64::from(self.layers) * self.d() * ctx
    }
    /// Training FLOPs per token, PaLM convention: 6·N + 12·L·d·s.
    #[must_use]
    pub fn train_flops_per_token(&self) -> f64 {
        6.0 * self.params_active() + 12.0 * f64::from(self.layers) * self.d() * f64::from(self.seq)
    }
    /// KV-cache bytes per token of context in format `d`.
    #[must_use]
    pub fn kv_bytes_per_token(&self, d: Dtype) -> f64 {
        2.0 * f64::from(self.layers) * f64::from(self.kv_heads) * self.head_dim() * d.bytes()
    }
}

/// The presets: Llama 3 8B/70B/405B, Llama 2 70B (the MLPerf Inference model), GPT-3 175B, Mixtral 8x7B, DeepSeek-V3 (MLA approximated
/// as GQA with the same KV size per token is not attempted: its attention is counted as MHA
/// over 128 heads, which slightly overstates attention parameters).
#[must_use]
pub fn models() -> Vec<Model> {
    let m = |id: &str, name: &str, layers, hidden, heads, kv_heads, ffn, gated, vocab, seq| Model {
        id: id.into(),
        name: name.into(),
        layers,
        hidden,
        heads,
        kv_heads,
        ffn,
        gated,
        vocab,
        seq,
        experts: 0,
        active_experts: 0,
        shared_experts: 0,
        expert_ffn: 0,
        dense_layers: 0,
    };
    let mut mixtral = m(
        "mixtral-8x7b",
        "Mixtral 8x7B",
        32,
        4096,
        32,
        8,
        14336,
        true,
        32000,
        4096,
    );
    mixtral.experts = 8;
    mixtral.active_experts = 2;
    mixtral.expert_ffn = 14336;
    let mut dsv3 = m(
        "deepseek-v3",
        "DeepSeek-V3",
        61,
        7168,
        128,
        128,
        18432,
        true,
        129_280,
        4096,
    );
    dsv3.experts = 256;
    dsv3.active_experts = 8;
    dsv3.shared_experts = 1;
    dsv3.expert_ffn = 2048;
    dsv3.dense_layers = 3;
    alloc::vec![
        m(
            "llama3-8b",
            "Llama 3 8B",
            32,
            4096,
            32,
            8,
            14336,
            true,
            128_256,
            8192
        ),
        m(
            "llama3-70b",
            "Llama 3 70B",
            80,
            8192,
            64,
            8,
            28672,
            true,
            128_256,
            8192
        ),
        m(
            "llama2-70b",
            "Llama 2 70B",
            80,
            8192,
            64,
            8,
            28672,
            true,
            32_000,
            4096
        ),
        m(
            "llama3-405b",
            "Llama 3.1 405B",
            126,
            16384,
            128,
            8,
            53248,
            true,
            128_256,
            8192
        ),
        m(
            "gpt3-175b",
            "GPT-3 175B",
            96,
            12288,
            96,
            96,
            49152,
            false,
            50257,
            2048
        ),
        mixtral,
        dsv3,
    ]
}

/// The model with this id.
///
/// # Errors
/// [`WorkloadError::UnknownModel`] listing the valid ids.
pub fn find_model(id: &str) -> Result<Model, WorkloadError> {
    models()
        .into_iter()
        .find(|m| m.id == id)
        .ok_or_else(|| WorkloadError::UnknownModel(id.into()))
}

/// Why a workload cannot be evaluated.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum WorkloadError {
    /// Not a model id.
    UnknownModel(String),
    /// The layout's degrees do not multiply to the chip count, or one is zero.
    BadLayout(String),
    /// The layout does not fit in memory: needed and available bytes per chip.
    DoesNotFit {
        /// Bytes needed per chip.
        needed: f64,
        /// HBM per chip.
        available: f64,
        /// What dominates.
        detail: String,
    },
    /// The chip has no figure for this format.
    NoFormat(String),
    /// Some input is out of range.
    BadInput(String),
}

impl fmt::Display for WorkloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownModel(s) => write!(
                f,
                "unknown model '{s}' (valid: {})",
                models()
                    .iter()
                    .map(|m| m.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Self::BadLayout(s) => write!(f, "invalid parallel layout: {s}"),
            Self::DoesNotFit {
                needed,
                available,
                detail,
            } => write!(
                f,
                "does not fit: needs {} per chip, has {} ({detail})",
                Bytes::new(*needed).display_si(),
                Bytes::new(*available).display_si()
            ),
            Self::NoFormat(s) | Self::BadInput(s) => f.write_str(s),
        }
    }
}

impl core::error::Error for WorkloadError {}

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
    /// Optimizer states sharded over data parallelism (ZeRO-1).
    pub shard_optimizer: bool,
    /// Recompute activations in the backward pass instead of storing them.
    pub recompute: bool,
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
        shard_optimizer: true,
        recompute: true,
    };
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
}

impl TrainConfig {
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
    /// Exposed data-parallel communication per step.
    pub dp_comm: Seconds,
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

fn check_layout(l: &Layout, cluster: &Cluster, model: &Model) -> Result<(), WorkloadError> {
    let chips = cluster.chips();
    if l.tp == 0 || l.pp == 0 || l.dp == 0 || l.ep == 0 || l.micro_batch == 0 {
        return Err(WorkloadError::BadLayout(
            "every degree must be at least 1".into(),
        ));
    }
    if l.tp * l.pp * l.dp != chips {
        return Err(WorkloadError::BadLayout(format!(
            "tp × pp × dp = {} × {} × {} = {} but the cluster has {chips} chips",
            l.tp,
            l.pp,
            l.dp,
            l.tp * l.pp * l.dp
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
    let weights = per_chip * 2.0;
    let gradients = per_chip * 2.0;
    let optimizer = per_chip * 12.0
        / if l.shard_optimizer {
            f64::from(l.dp)
        } else {
            1.0
        };
    let (s, b, d, t) = (
        f64::from(model.seq),
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
    // the largest holds ⌈layers/pp⌉ layers.
    let layers_here = f64::from(model.layers.div_ceil(l.pp));
    let activations = per_layer * layers_here * f64::from(l.pp);
    Memory {
        weights,
        gradients,
        optimizer,
        activations,
        kv_cache: 0.0,
    }
}

/// The GEMMs of one layer's forward pass for `tokens` tokens, sharded `tp` ways.
fn layer_gemms(m: &Model, tokens: f64, tp: f64) -> Vec<(f64, f64, f64)> {
    let d = m.d();
    let kv = f64::from(m.kv_heads) * m.head_dim();
    let mut g = alloc::vec![
        (tokens, (d + 2.0 * kv) / tp, d), // QKV
        (tokens, d, d / tp),              // attention output
    ];
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
struct LayerWork {
    /// One layer's GEMMs in the job's format, each on the roofline at the format's
    /// large-matmul efficiency plus the fixed time per call.
    gemm: f64,
    /// One layer's attention (in BF16 when the GEMMs run narrower).
    attention: f64,
    /// One layer's norms, rotary embeddings, activation function and residual adds (BF16).
    elementwise: f64,
    /// One layer's casts of GEMM operands to the narrow format (row-wise and transposed),
    /// forward and backward together; zero in BF16.
    casts: f64,
    /// The output head of the whole model (BF16 when the GEMMs run narrower).
    head: f64,
}

impl LayerWork {
    /// One micro-batch through one pipeline stage of `layers` layers (of `pp` stages).
    fn per_micro(&self, passes: f64, layers: f64, pp: f64) -> f64 {
        passes * ((self.gemm + self.attention + self.elementwise) * layers + self.head / pp)
            + self.casts * layers * passes / 3.0
    }
}

/// The widest format among the work that stays out of narrow formats: attention, the
/// output head and the elementwise work run in BF16 when the GEMMs run in FP8 or FP4.
fn side_dtype(d: Dtype) -> Dtype {
    if d.bytes() < 2.0 {
        Dtype::Bf16
    } else {
        d
    }
}

fn micro_batch_parts(
    chip: &Chip,
    cfg: &TrainConfig,
    roof: &Roofline,
    tokens_mb: f64,
    tp: f64,
) -> LayerWork {
    let m = &cfg.model;
    let eff = efficiency::matmul(chip, cfg.dtype);
    let gemm_roof = Roofline {
        peak: roof.peak * eff.large(cfg.matmul_efficiency),
        bandwidth: roof.bandwidth,
    };
    let per_call = eff.per_gemm.value.get();
    let ffn_mats = if m.gated { 3.0 } else { 2.0 };
    let mut gemm = per_call * (2.0 + ffn_mats);
    for (mm, n, k) in layer_gemms(m, tokens_mb, tp) {
        let cost = OpSpec::Gemm { m: mm, n, k }.cost(cfg.dtype);
        gemm += gemm_roof.place(cost).time.get();
    }
    let side = side_dtype(cfg.dtype);
    let side_roof = Roofline::dense(chip, side).map_or(gemm_roof, |r| Roofline {
        peak: r.peak * cfg.matmul_efficiency,
        bandwidth: r.bandwidth,
    });
    let attn = OpSpec::AttentionPrefill {
        batch: tokens_mb / f64::from(m.seq),
        seq: f64::from(m.seq),
        heads: f64::from(m.heads) / tp,
        kv_heads: (f64::from(m.kv_heads) / tp).max(1.0),
        head_dim: m.head_dim(),
    };
    // The PaLM convention counts attention non-causally (12·L·d·s): twice the causal FLOPs.
    let attention = 2.0 * side_roof.place(attn.cost(side)).time.get();
    // Work outside the matmuls, bound by HBM: norms, rotary embeddings, the activation
    // function, residual adds and format casts touch about 12·d + 3·f BF16 values per token
    // per layer (f: the FFN width a token passes through), split over the tensor ranks.
    let ffn_act = if m.experts == 0 {
        f64::from(m.ffn)
    } else {
        f64::from(m.active_experts + m.shared_experts) * f64::from(m.expert_ffn)
    };
    let bw = roof.bandwidth.get();
    let elementwise = tokens_mb * (12.0 * m.d() + 3.0 * ffn_act) / tp * 2.0 / bw;
    // Narrow formats: every GEMM operand in activation space is read in BF16 and written in
    // the narrow format twice (row-wise, and transposed for the weight gradient): the inputs
    // of the four projections forward (d, d, d, f), their output gradients backward
    // (d + 2·kv, d, (mats − 1)·f, d).
    let casts = if cfg.dtype.bytes() < 2.0 {
        let kv = f64::from(m.kv_heads) * m.head_dim();
        let values =
            3.0 * m.d() + ffn_act + (m.d() + 2.0 * kv) + 2.0 * m.d() + (ffn_mats - 1.0) * ffn_act;
        tokens_mb * values / tp * (2.0 + 2.0 * cfg.dtype.bytes()) / bw
    } else {
        0.0
    };
    let head = side_roof
        .place(
            OpSpec::Gemm {
                m: tokens_mb,
                n: f64::from(m.vocab) / tp,
                k: m.d(),
            }
            .cost(side),
        )
        .time
        .get()
        + per_call;
    LayerWork {
        gemm,
        attention,
        elementwise,
        casts,
        head,
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
    tp: Vec<(u32, f64)>,
    ep: Vec<((u32, u32), f64)>,
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
    let roof = Roofline::dense(chip, cfg.dtype).ok_or_else(|| {
        WorkloadError::NoFormat(format!("{} has no dense {} figure", chip.id, cfg.dtype))
    })?;
    let mem = training_memory(m, l);
    let hbm = chip.hbm_capacity.value.get();
    if mem.total() > hbm {
        let detail = if mem.activations > mem.optimizer {
            "activations dominate: recompute or more pipeline stages"
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
    let tokens_mb = f64::from(l.micro_batch) * f64::from(m.seq);
    let tp = f64::from(l.tp);
    let parts = micro_batch_parts(chip, cfg, &roof, tokens_mb, tp);
    let passes = if l.recompute { 4.0 } else { 3.0 };
    // The slowest (largest) stage sets the pace: ⌈layers/pp⌉ layers when they do not divide.
    let layers_here = f64::from(m.layers.div_ceil(l.pp));
    let per_micro = parts.per_micro(passes, layers_here, f64::from(l.pp));
    // The optimizer step: read and write this chip's fp32 states, read its gradients and
    // write its BF16 weights, once per step, at HBM speed.
    let optimizer = (2.0 * mem.optimizer + mem.gradients + mem.weights) / roof.bandwidth.get();
    let compute = per_micro * micro + optimizer;
    // 1F1B leaves pp−1 micro-batch slots idle; interleaving v chunks per chip shrinks each
    // slot to a chunk, dividing the bubble by v.
    let bubble = per_micro * f64::from(l.pp - 1) / f64::from(l.interleave);
    // Tensor parallelism: 2 all-reduces forward and 2 backward per layer of the activations.
    let tp_comm = if l.tp > 1 {
        let act = Bytes::new(tokens_mb * m.d() * cfg.dtype.bytes().max(2.0));
        let one = match memo.tp.iter().find(|(t, _)| *t == l.tp) {
            Some((_, x)) => *x,
            None => {
                let x = tp_allreduce(cluster, l.tp, act)?;
                memo.tp.push((l.tp, x));
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
            tokens_mb * f64::from(m.active_experts) * m.d() * cfg.dtype.bytes().max(2.0) / tp,
        );
        let one = match memo.ep.iter().find(|(k, _)| *k == (l.tp, l.ep)) {
            Some((_, x)) => *x,
            None => {
                let x = ep_alltoall(cluster, l, routed)?;
                memo.ep.push(((l.tp, l.ep), x));
                x
            }
        };
        let per = if l.recompute { 6.0 } else { 4.0 };
        one * per * moe_here * micro * (1.0 - cfg.tp_overlap)
    } else {
        0.0
    };
    // Data parallelism: gradients of this chip's parameters, across replicas.
    let dp_comm = if l.dp > 1 {
        dp_allreduce(cluster, l, Bytes::new(mem.gradients)) * (1.0 - cfg.dp_overlap)
    } else {
        0.0
    };
    let step = compute + bubble + tp_comm + ep_comm + dp_comm;
    let tokens = micro * f64::from(l.dp * l.micro_batch) * f64::from(m.seq);
    let tokens_per_s = tokens / step;
    let peak_total = roof.peak.get() * f64::from(cluster.chips());
    let mfu = m.train_flops_per_token() * tokens_per_s / peak_total;
    let per_step = |x: f64| Seconds::new(x * micro * passes * layers_here);
    let eff = efficiency::matmul(chip, cfg.dtype);
    let parts = StepParts {
        gemm_dtype: cfg.dtype,
        side_dtype: side_dtype(cfg.dtype),
        gemm_efficiency: eff.large(cfg.matmul_efficiency),
        gemm_peak: roof.peak.get(),
        model_flops_per_token: m.train_flops_per_token(),
        gemm: per_step(parts.gemm),
        attention: per_step(parts.attention),
        elementwise: per_step(parts.elementwise),
        casts: Seconds::new(parts.casts * micro * layers_here * passes / 3.0),
        head: Seconds::new(parts.head * micro * passes / f64::from(l.pp)),
        optimizer: Seconds::new(optimizer),
    };
    Ok(TrainReport {
        layout: *l,
        step: Seconds::new(step),
        compute: Seconds::new(compute),
        bubble: Seconds::new(bubble),
        tp_comm: Seconds::new(tp_comm),
        ep_comm: Seconds::new(ep_comm),
        dp_comm: Seconds::new(dp_comm),
        tokens_per_s,
        mfu,
        memory: mem,
        formula: if with_formula {
            format!(
                "step = compute {} + bubble (pp−1)/(m·v)·compute {} + exposed TP {} + exposed EP all-to-all {} + exposed DP {}; compute = {} passes × {} micro-batches: {} GEMMs {} at {:.1}% of {} (BF16 efficiency {:.1}% × {} ratio {:.3}), {} attention {}, {} elementwise {}, casts to {} {}, {} output head {}, optimizer step {}",
                Seconds::new(compute),
                Seconds::new(bubble),
                Seconds::new(tp_comm),
                Seconds::new(ep_comm),
                Seconds::new(dp_comm),
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
fn group_collective(
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
    let group = Cluster {
        system: cluster.system.clone(),
        nodes: nodes.max(1),
    };
    let e = estimate(&group, op, bytes, Algorithm::Auto)
        .map_err(|e| WorkloadError::BadInput(format!("{e}")))?;
    if group.nodes > 1 {
        return Ok(e.time.get());
    }
    let n = f64::from(group.system.chips());
    let k = f64::from(ranks);
    let bw = e.bandwidth_term.get() * ((k - 1.0) / k) / ((n - 1.0) / n);
    let lat = e.latency_term.get() * (k - 1.0) / (n - 1.0);
    Ok(lat + bw)
}

/// An all-reduce over `tp` chips of one scale-up domain.
fn tp_allreduce(cluster: &Cluster, tp: u32, bytes: Bytes) -> Result<f64, WorkloadError> {
    group_collective(cluster, Op::AllReduce, tp, 1, bytes)
}

/// One all-to-all of `bytes` per rank across an expert-parallel group. Its `ep` members sit
/// `tp` chips apart: inside one scale-up domain when `tp·ep` fits it, otherwise spread over
/// `⌈tp·ep/domain⌉` domains and crossing the scale-out network.
fn ep_alltoall(cluster: &Cluster, l: &Layout, bytes: Bytes) -> Result<f64, WorkloadError> {
    let nodes = (l.tp * l.ep).div_ceil(cluster.system.chips());
    group_collective(cluster, Op::AllToAll, l.ep, nodes, bytes)
}

/// The gradient all-reduce of one chip's shard across the `dp` replicas. Replicas of the
/// same shard sit in different scale-up domains when the domains are fewer than dp.
fn dp_allreduce(cluster: &Cluster, l: &Layout, bytes: Bytes) -> f64 {
    let sys = &cluster.system;
    let dp = f64::from(l.dp);
    let per_domain = f64::from((sys.chips() / (l.tp * l.pp).min(sys.chips())).max(1)).min(dp);
    let across = (dp / per_domain).max(1.0);
    let bo = sys.scale_out.value.get() * sys.scale_out_efficiency.value;
    let ao = sys.scale_out_latency.value.get();
    let s = bytes.get();
    // Inside a domain (if several replicas share it) over scale-up, then a ring across domains.
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
        t += 2.0 * (across - 1.0) / across * (s / per_domain) / bo + 2.0 * (across - 1.0) * ao;
    }
    t
}

/// What serving kernels reach of the format's large-matmul rate, fitted to one measurement:
/// MLPerf Inference v4.1 closed, 8 × H200 SXM (TP1, 806 sequences, FP8), Llama 2 70B Offline,
/// 31,302.7 tokens/s (mlcommons/inference_results_v4.1,
/// closed/NVIDIA/results/H200-SXM-141GBx8_TRT) by `calibration::fit_serving_factor`; the
/// 8 × H100 run is held out. Below 1 because serving also runs small kernels, sampling and
/// scheduling between the GEMMs.
pub const SERVING_KERNEL_FACTOR: f64 = 0.80;
/// Default fraction of HBM bandwidth a decode step streams at (an assumption: no measured
/// figure is in the calibration set).
pub const SERVING_MEMORY_EFFICIENCY: f64 = 0.85;

/// Inputs of an inference estimate (offline serving: batches of equal requests).
#[derive(Clone, Debug, PartialEq)]
pub struct InferConfig {
    /// The model.
    pub model: Model,
    /// Weight and compute format (KV cache in the same format, at least 1 byte).
    pub dtype: Dtype,
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
    let m = &cfg.model;
    if cfg.batch == 0 || cfg.prompt == 0 || cfg.output == 0 {
        return Err(WorkloadError::BadInput(
            "batch, prompt and output must be at least 1".into(),
        ));
    }
    let roof = Roofline::dense(chip, cfg.dtype).ok_or_else(|| {
        WorkloadError::NoFormat(format!("{} has no dense {} figure", chip.id, cfg.dtype))
    })?;
    let hbm = chip.hbm_capacity.value.get();
    // Continuous (in-flight) batching staggers requests, so the live KV cache averages the
    // prompt plus half the output per sequence.
    let mean_ctx = f64::from(cfg.prompt) + f64::from(cfg.output) / 2.0;
    let weights = m.params_total() * cfg.dtype.bytes();
    let kv_bytes = m
        .kv_bytes_per_token(cfg.dtype)
        .max(m.kv_bytes_per_token(Dtype::Fp8));
    let kv = f64::from(cfg.batch) * mean_ctx * kv_bytes;
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
    let memory = Memory {
        weights: weights / f64::from(tp),
        gradients: 0.0,
        optimizer: 0.0,
        activations: 0.0,
        kv_cache: kv / f64::from(tp),
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
    let calls = f64::from(m.layers) * (2.0 + ffn_mats) * eff.per_gemm.value.get();
    let bw = roof.bandwidth.get() * cfg.memory_efficiency;
    // A decode step runs the weight GEMMs (compute, or streaming the weights once, whichever
    // is slower) and then attention, which streams each sequence's KV cache: separate kernels,
    // so their times add.
    let attn_flops = 4.0 * f64::from(m.layers) * m.d() * mean_ctx;
    let gemm_flops = b * (m.forward_flops_per_token(mean_ctx) - attn_flops) / t;
    let (t_compute, t_weights) = (gemm_flops / peak, weights / t / bw);
    let t_attn = (b * attn_flops / t / peak).max(b * mean_ctx * kv_bytes / t / bw);
    let tp_comm = if tp > 1 {
        tp_allreduce(cluster, tp, Bytes::new(b * m.d() * 2.0))? * 2.0 * f64::from(m.layers)
    } else {
        0.0
    };
    let decode = t_compute.max(t_weights) + calls + t_attn + tp_comm;
    let prefill =
        b * f64::from(cfg.prompt) * m.forward_flops_per_token(f64::from(cfg.prompt) / 2.0)
            / t
            / peak;
    let per_replica = b * f64::from(cfg.output) / (prefill + f64::from(cfg.output) * decode);
    let replicas = cluster.chips() / tp;
    let tokens_per_s = per_replica * f64::from(replicas);
    Ok(InferReport {
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
            weights: Seconds::new(t_compute.max(t_weights)),
            launches: Seconds::new(calls),
            attention: Seconds::new(t_attn),
            tp_comm: Seconds::new(tp_comm),
        },
        formula: format!(
            "decode step = max({} GEMMs B·FLOP/token ÷ (t·peak·e) = {}, weights ÷ (t·BW·e) = {}) + {} GEMM calls × {} = {} + attention B·ctx·KV ÷ (t·BW·e) = {} + TP all-reduces {}; e = {:.1}% of the {} peak (BF16 {:.1}% × {} ratio {:.3} × serving kernels {:.2}); prefill {}; tokens/s = B·out ÷ (prefill + out·step) × replicas",
            cfg.dtype,
            Seconds::new(t_compute),
            Seconds::new(t_weights),
            f64::from(m.layers) * (2.0 + ffn_mats),
            eff.per_gemm.value,
            Seconds::new(calls),
            Seconds::new(t_attn),
            Seconds::new(tp_comm),
            peak / roof.peak.get() * 100.0,
            cfg.dtype,
            bf16 * 100.0,
            cfg.dtype,
            eff.ratio.value,
            cfg.kernel_factor,
            Seconds::new(prefill)
        ),
    })
}

/// A search over training layouts that can run in slices (so a page can show progress and
/// stay responsive): tensor degrees that are powers of two dividing the scale-up domain,
/// pipeline depths up to the layer count (uneven stages allowed), expert-parallel degrees
/// for MoE models, and recomputation on or off. `base.layout` supplies the micro-batch and
/// sharding.
#[derive(Clone, Debug)]
pub struct LayoutSearch {
    cluster: Cluster,
    chip: Chip,
    base: TrainConfig,
    candidates: Vec<Layout>,
    next: usize,
    fits: Vec<TrainReport>,
    rejected: Vec<(Layout, WorkloadError)>,
    memo: CommMemo,
}

impl LayoutSearch {
    /// Enumerate the candidate layouts of `cluster`.
    #[must_use]
    pub fn new(cluster: &Cluster, chip: &Chip, base: &TrainConfig) -> Self {
        let chips = cluster.chips();
        let domain = cluster.system.chips();
        let m = &base.model;
        let mut candidates = Vec::new();
        let mut tp = 1;
        while tp <= domain {
            if domain % tp == 0 && chips % tp == 0 {
                for pp in (1..=m.layers.min(64)).filter(|p| chips % (tp * p) == 0) {
                    let dp = chips / (tp * pp);
                    let mut ep = 1;
                    while ep <= dp && (ep == 1 || (m.experts > 0 && m.experts % ep == 0)) {
                        if dp % ep == 0 {
                            for interleave in [1, 2, 4] {
                                if interleave > 1 && (pp == 1 || pp * interleave > m.layers) {
                                    continue;
                                }
                                for recompute in [false, true] {
                                    candidates.push(Layout {
                                        tp,
                                        pp,
                                        dp,
                                        ep,
                                        interleave,
                                        recompute,
                                        ..base.layout
                                    });
                                }
                            }
                        }
                        if m.experts == 0 {
                            break;
                        }
                        ep *= 2;
                    }
                }
            }
            tp *= 2;
        }
        Self {
            cluster: cluster.clone(),
            chip: chip.clone(),
            base: base.clone(),
            candidates,
            next: 0,
            fits: Vec::new(),
            rejected: Vec::new(),
            memo: CommMemo::default(),
        }
    }

    /// Candidate layouts in all.
    #[must_use]
    pub fn total(&self) -> usize {
        self.candidates.len()
    }

    /// Candidates evaluated so far.
    #[must_use]
    pub fn tried(&self) -> usize {
        self.next
    }

    /// Whether every candidate has been evaluated.
    #[must_use]
    pub fn done(&self) -> bool {
        self.next >= self.candidates.len()
    }

    /// Evaluate up to `n` more candidates; returns whether the search is done.
    pub fn step(&mut self, n: usize) -> bool {
        let end = (self.next + n).min(self.candidates.len());
        for i in self.next..end {
            let l = self.candidates[i];
            let mut cfg = self.base.clone();
            cfg.layout = l;
            match train_in(&self.cluster, &self.chip, &cfg, &mut self.memo, false) {
                Ok(r) => self.fits.push(r),
                Err(e) => self.rejected.push((l, e)),
            }
        }
        self.next = end;
        self.done()
    }

    /// The layouts that fit so far, fastest first, at most `k`.
    #[must_use]
    pub fn ranked(&self, k: usize) -> Vec<&TrainReport> {
        let mut v: Vec<&TrainReport> = self.fits.iter().collect();
        v.sort_by(|a, b| b.tokens_per_s.total_cmp(&a.tokens_per_s));
        v.truncate(k);
        v
    }

    /// The layouts that did not work and why.
    #[must_use]
    pub fn rejected(&self) -> &[(Layout, WorkloadError)] {
        &self.rejected
    }

    /// Run to the end and return the fastest layout, its formula prefixed with the layout.
    ///
    /// # Errors
    /// The last reason a layout failed when none fits.
    pub fn finish(mut self) -> Result<TrainReport, WorkloadError> {
        self.step(usize::MAX);
        let chips = self.cluster.chips();
        let best = self.fits.into_iter().reduce(|a, b| {
            if b.tokens_per_s > a.tokens_per_s {
                b
            } else {
                a
            }
        });
        match best {
            Some(r) => {
                // Only the winner's formula is written out.
                let mut cfg = self.base.clone();
                cfg.layout = r.layout;
                let r = train(&self.cluster, &self.chip, &cfg)?;
                Ok(TrainReport {
                    formula: format!("{}: {}", r.layout, r.formula),
                    ..r
                })
            }
            None => Err(match self.rejected.pop() {
                Some((_, WorkloadError::BadLayout(why))) => WorkloadError::BadLayout(format!(
                    "no layout of {chips} chips fits; the last one tried failed because {why} (try another node count or global batch)"
                )),
                Some((_, other)) => other,
                None => WorkloadError::BadLayout(format!("no layout divides {chips} chips")),
            }),
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tp {} × pp {} × dp {}", self.tp, self.pp, self.dp)?;
        if self.ep > 1 {
            write!(f, " (ep {})", self.ep)?;
        }
        if self.interleave > 1 {
            write!(f, ", {} virtual stages", self.interleave)?;
        }
        if self.recompute {
            f.write_str(", recompute")?;
        }
        Ok(())
    }
}

/// The fastest layout that fits (a [`LayoutSearch`] run to the end).
///
/// # Errors
/// The last reason a layout failed when none fits.
pub fn best_layout(
    cluster: &Cluster,
    chip: &Chip,
    base: &TrainConfig,
) -> Result<TrainReport, WorkloadError> {
    LayoutSearch::new(cluster, chip, base).finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::system::find;
    use alloc::string::ToString;

    fn check_params(id: &str, total: f64, active: f64) {
        let m = find_model(id).unwrap();
        assert!(
            (m.params_total() / total - 1.0).abs() < 0.02,
            "{id}: {:.4e}",
            m.params_total()
        );
        assert!(
            (m.params_active() / active - 1.0).abs() < 0.04,
            "{id}: {:.4e}",
            m.params_active()
        );
    }

    #[test]
    fn parameter_counts_match_the_published_sizes() {
        // Meta Llama 3 model cards: 8.03B and 70.6B; Llama 3.1: 405B.
        check_params("llama3-8b", 8.03e9, 7.5e9);
        check_params("llama3-70b", 70.6e9, 69.5e9);
        check_params("llama3-405b", 405.9e9, 403.8e9);
        // Brown et al. 2020: GPT-3 175B.
        check_params("gpt3-175b", 175e9, 175e9);
        // Mistral AI: Mixtral 8x7B has 46.7B parameters, 12.9B active.
        check_params("mixtral-8x7b", 46.7e9, 12.9e9);
        // DeepSeek-V3 technical report: 671B total, 37B active.
        check_params("deepseek-v3", 671e9, 37e9);
    }

    fn trn1_gpt3(eff: f64) -> Result<TrainReport, WorkloadError> {
        let cl = Cluster {
            system: find("trn1-16").unwrap(),
            nodes: 32,
        };
        let layout = Layout {
            tp: 16,
            pp: 8,
            dp: 4,
            ..Layout::START
        };
        let mut cfg = TrainConfig::new(
            find_model("gpt3-175b").unwrap(),
            Dtype::Bf16,
            1024,
            layout,
            eff,
        );
        cfg.tp_overlap = cl.system.overlap.value;
        cfg.dp_overlap = cl.system.overlap.value;
        train(&cl, &catalog::find("trn1").unwrap(), &cfg)
    }

    #[test]
    fn trn1_gpt3_mfu_within_20_percent_of_the_published_run() {
        // AWS Neuron Trn1 training performance (Neuron 2.13): GPT-3 175B pretraining on 512
        // Trainium chips, BF16, TP32 PP8 DP4 over NeuronCores (TP16 over chips), global batch
        // 1024, MFU 33.14%. Defaults: matmuls at 80% of peak (the measured H100 BF16 figure,
        // MLE-ACC; none is published for Trainium), full recomputation, and the platform's
        // communication overlap (10% for Trainium).
        let r = trn1_gpt3(0.8).unwrap();
        assert!((r.mfu / 0.3314 - 1.0).abs() < 0.20, "MFU {:.3}", r.mfu);
        assert!(r.memory.total() < 32.0 * 1_073_741_824.0);
    }

    #[test]
    fn interleaving_shrinks_the_bubble_and_needs_pipeline_stages() {
        let cl = Cluster {
            system: find("hgx-h100-8").unwrap(),
            nodes: 16,
        };
        let chip = catalog::find("h100-sxm").unwrap();
        let mut cfg = TrainConfig::new(
            find_model("llama3-70b").unwrap(),
            Dtype::Bf16,
            64,
            Layout {
                tp: 8,
                pp: 8,
                dp: 2,
                ..Layout::START
            },
            0.8,
        );
        let one = train(&cl, &chip, &cfg).unwrap().bubble.get();
        cfg.layout.interleave = 2;
        let two = train(&cl, &chip, &cfg).unwrap().bubble.get();
        assert!((one / two - 2.0).abs() < 1e-9);
        cfg.layout = Layout {
            tp: 8,
            pp: 1,
            dp: 16,
            interleave: 2,
            ..Layout::START
        };
        assert!(train(&cl, &chip, &cfg)
            .unwrap_err()
            .to_string()
            .contains("more than one pipeline stage"));
    }

    #[test]
    fn faster_matmuls_never_slow_training() {
        let mut last = 0.0;
        for e in [0.3, 0.5, 0.7, 0.9, 1.0] {
            let t = trn1_gpt3(e).unwrap().tokens_per_s;
            assert!(t > last);
            last = t;
        }
    }

    #[test]
    fn fp4_halves_the_chips_a_model_needs_and_doubles_tokens_per_chip() {
        // The brief: a model that needs 16 chips in FP8 and 8 in FP4 halves the cost per token.
        let cl = Cluster {
            system: find("gb300-nvl72").unwrap(),
            nodes: 1,
        };
        let chip = catalog::find("gb300").unwrap();
        let run = |d| {
            let model = find_model("deepseek-v3").unwrap();
            infer(&cl, &chip, &InferConfig::new(model, d, 32, 2048, 512)).unwrap()
        };
        let (f8, f4) = (run(Dtype::Fp8), run(Dtype::Fp4));
        assert_eq!(
            f8.chips_needed,
            2 * f4.chips_needed,
            "{} vs {}",
            f8.chips_needed,
            f4.chips_needed
        );
        assert!(f4.tokens_per_s_per_chip > 1.8 * f8.tokens_per_s_per_chip);
    }

    #[test]
    fn more_chips_never_lower_the_hardware_cost_of_a_fixed_run() {
        // A fixed run: train Llama 3 8B on 1e11 tokens. More nodes finish sooner but never
        // for fewer chip-hours (communication and bubbles only grow with scale).
        let chip = catalog::find("trn2").unwrap();
        let mut last = 0.0;
        for nodes in [1, 2, 4, 8, 16] {
            let cl = Cluster {
                system: find("trn2-16").unwrap(),
                nodes,
            };
            let model = find_model("llama3-8b").unwrap();
            let cfg = TrainConfig::new(model, Dtype::Bf16, 256, Layout::START, 0.8);
            let r = best_layout(&cl, &chip, &cfg).unwrap();
            let chip_hours = 1e11 / r.tokens_per_s / 3600.0 * f64::from(cl.chips());
            assert!(
                chip_hours >= last * (1.0 - 1e-9),
                "{nodes} nodes: {chip_hours} < {last}"
            );
            last = chip_hours;
        }
    }

    fn deepseek_on_trn2_ultra() -> (Cluster, Chip, TrainConfig) {
        let cl = Cluster {
            system: find("trn2-ultra-64").unwrap(),
            nodes: 16,
        };
        let model = find_model("deepseek-v3").unwrap();
        let cfg = TrainConfig::new(model, Dtype::Bf16, 1024, Layout::START, 0.8);
        (cl, catalog::find("trn2").unwrap(), cfg)
    }

    #[test]
    fn expert_parallelism_and_uneven_stages_open_up_faster_layouts_for_moe() {
        // DeepSeek-V3's 61 layers divide only by 1 and 61: without uneven stages and expert
        // parallelism the search is left with deep tensor parallelism.
        let (cl, chip, cfg) = deepseek_on_trn2_ultra();
        let best = best_layout(&cl, &chip, &cfg).unwrap();
        let mut search = LayoutSearch::new(&cl, &chip, &cfg);
        search.step(usize::MAX);
        let even_dense = search
            .ranked(usize::MAX)
            .into_iter()
            .filter(|r| r.layout.ep == 1 && cfg.model.layers % r.layout.pp == 0)
            .map(|r| r.tokens_per_s)
            .fold(0.0, f64::max);
        assert!(
            best.tokens_per_s > 1.5 * even_dense,
            "{} vs {even_dense}",
            best.tokens_per_s
        );
    }

    #[test]
    fn expert_parallelism_trades_memory_for_all_to_all() {
        let (cl, chip, mut cfg) = deepseek_on_trn2_ultra();
        cfg.layout = Layout {
            tp: 4,
            pp: 4,
            dp: 64,
            ..Layout::START
        };
        let no_ep = train(&cl, &chip, &cfg);
        cfg.layout.ep = 32;
        let ep = train(&cl, &chip, &cfg).unwrap();
        assert!(ep.ep_comm.get() > 0.0);
        // Without expert parallelism every replica holds all 256 experts: it does not fit.
        assert!(no_ep.unwrap_err().to_string().contains("does not fit"));
    }

    #[test]
    fn uneven_stages_are_paced_by_the_largest() {
        // 61 layers over 4 stages: the largest holds 16, so the step is as slow as 64 over 4.
        let (cl, chip, mut cfg) = deepseek_on_trn2_ultra();
        // The optimizer step scales with the parameters; the passes over the layers do not.
        let step = |cfg: &TrainConfig| {
            let r = train(&cl, &chip, cfg).unwrap();
            r.compute.get() - r.parts.optimizer.get()
        };
        cfg.layout = Layout {
            tp: 16,
            pp: 4,
            dp: 16,
            ep: 8,
            ..Layout::START
        };
        let a = step(&cfg);
        cfg.model.layers = 64;
        cfg.model.dense_layers = 3 + 3;
        assert!((step(&cfg) / a - 1.0).abs() < 1e-9);
        cfg.model.layers = 3;
        cfg.model.dense_layers = 0;
        assert!(train(&cl, &chip, &cfg)
            .unwrap_err()
            .to_string()
            .contains("4 pipeline stages are more than the model's 3 layers"));
    }

    #[test]
    fn a_search_in_slices_ends_where_one_run_does() {
        let (cl, chip, cfg) = deepseek_on_trn2_ultra();
        let mut s = LayoutSearch::new(&cl, &chip, &cfg);
        let total = s.total();
        assert!(total > 100, "{total} candidates");
        let mut slices = 0;
        while !s.step(7) {
            slices += 1;
            assert_eq!(s.tried(), 7 * slices);
        }
        assert_eq!(s.tried(), total);
        assert_eq!(s.ranked(usize::MAX).len() + s.rejected().len(), total);
        let best = s.ranked(1)[0].tokens_per_s;
        assert!((best_layout(&cl, &chip, &cfg).unwrap().tokens_per_s - best).abs() < 1e-9);
    }

    #[test]
    fn layouts_that_cannot_work_say_why() {
        let cl = Cluster {
            system: find("trn2-16").unwrap(),
            nodes: 2,
        };
        let chip = catalog::find("trn2").unwrap();
        let mut cfg = TrainConfig {
            model: find_model("llama3-70b").unwrap(),
            dtype: Dtype::Bf16,
            global_batch: 64,
            layout: Layout {
                tp: 32,
                pp: 1,
                dp: 1,
                ep: 1,
                micro_batch: 1,
                interleave: 1,
                shard_optimizer: true,
                recompute: true,
            },
            matmul_efficiency: 0.8,
            dp_overlap: 0.5,
            tp_overlap: 0.0,
        };
        assert!(train(&cl, &chip, &cfg)
            .unwrap_err()
            .to_string()
            .contains("inside the 16-chip scale-up domain"));
        cfg.layout = Layout {
            tp: 4,
            pp: 4,
            dp: 1,
            ..cfg.layout
        };
        assert!(train(&cl, &chip, &cfg)
            .unwrap_err()
            .to_string()
            .contains("cluster has 32 chips"));
        cfg.layout = Layout {
            tp: 1,
            pp: 1,
            dp: 32,
            shard_optimizer: false,
            ..cfg.layout
        };
        let e = train(&cl, &chip, &cfg).unwrap_err().to_string();
        assert!(e.contains("does not fit"), "{e}");
        assert!(find_model("gpt-5")
            .unwrap_err()
            .to_string()
            .contains("valid: llama3-8b"));
    }
}
