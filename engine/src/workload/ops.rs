//! A serving step as the operations it runs: each layer's projections, attention and
//! feed-forward (dense, or a mixture of experts' router, dispatch, grouped expert GEMMs,
//! shared expert and combine), its norms, the output head, and every collective. Each
//! operation is timed from the chip's kernel table where one is published
//! ([`crate::kerneldata`], `source: measured`), else from the roofline at the serving
//! efficiency (`source: roofline`); the step is their sum, kernels running one after
//! another and collectives exposed (decode steps and prefills in the engines these tables
//! come from do not overlap them).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::chip::Chip;
use crate::collective::Op;
use crate::dtype::Dtype;
use crate::kerneldata::{self, KernelOp, KernelTable};
use crate::system::Cluster;
use crate::units::Bytes;

use super::experts::{expert_formats, experts_table, grouped_seconds};
use super::train::group_collective;
use super::{Model, WorkloadError};

/// How a serving replica spreads a model over its chips.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServeLayout {
    /// Chips in the replica.
    pub chips: u32,
    /// Attention data-parallel degree: the replica's sequences split over this many groups,
    /// each running attention (and the dense layers) tensor-parallel over `chips ÷ attn_dp`
    /// chips.
    pub attn_dp: u32,
    /// Serving expert-parallel degree: a mixture of experts' experts split over this many
    /// groups, each expert tensor-parallel over `chips ÷ ep` chips (1: every chip holds a
    /// slice of every expert).
    pub ep: u32,
}

impl ServeLayout {
    /// Chips each attention group runs tensor-parallel over.
    #[must_use]
    pub fn attn_tp(&self) -> u32 {
        self.chips / self.attn_dp.max(1)
    }
    /// Chips each expert is tensor-parallel over.
    #[must_use]
    pub fn expert_tp(&self) -> u32 {
        self.chips / self.ep.max(1)
    }
    /// Whether the degrees divide the replica's chips.
    ///
    /// # Errors
    /// A degree of 0, or one that does not divide the chips.
    pub fn check(&self) -> Result<(), WorkloadError> {
        for (what, d) in [
            ("attention data-parallel degree", self.attn_dp),
            ("serving expert-parallel degree", self.ep),
        ] {
            if d == 0 || self.chips % d != 0 {
                return Err(WorkloadError::BadLayout(format!(
                    "the {what} {d} does not divide the replica's {} chips",
                    self.chips
                )));
            }
        }
        Ok(())
    }
}

/// What an operation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpKind {
    /// A weight GEMM.
    Gemm,
    /// A mixture of experts' grouped expert GEMMs.
    Experts,
    /// Attention over the KV cache or the prompt.
    Attention,
    /// Norms, residual adds, embeddings and sampling: memory-bound elementwise work.
    Elementwise,
    /// A collective over the fabric.
    Collective,
}

impl OpKind {
    /// Id as the CLI and JSON write it.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            OpKind::Gemm => "gemm",
            OpKind::Experts => "grouped-gemm",
            OpKind::Attention => "attention",
            OpKind::Elementwise => "elementwise",
            OpKind::Collective => "collective",
        }
    }
}

/// One call's shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// A GEMM: M tokens × K → N.
    Gemm([f64; 3]),
    /// Bytes read and written.
    Bytes(f64),
    /// Bytes a rank sends, over a group of chips.
    Collective(f64, u32),
    /// Sequences × tokens of context (or of prompt).
    Attention(f64, f64),
    /// Tokens into the layer, experts on the chip, and each expert's hidden × intermediate
    /// size there.
    Experts([f64; 4]),
}

impl Shape {
    /// The shape in words (`128 × 7168 × 2048`, `512 tokens, 32 experts of 7168 × 2048 on
    /// the chip`…).
    #[must_use]
    pub fn describe(&self) -> String {
        match *self {
            Shape::Gemm([m, n, k]) => format!("{m:.0} × {n:.0} × {k:.0}"),
            Shape::Bytes(b) => Bytes::new(b).display_memory().to_string(),
            Shape::Collective(b, ranks) => {
                format!("{} over {ranks} chips", Bytes::new(b).display_memory())
            }
            Shape::Attention(seqs, ctx) => format!("{seqs:.0} sequences × {ctx:.0} tokens"),
            Shape::Experts([tokens, local, h, i]) => {
                format!("{tokens:.0} tokens, {local:.0} experts of {h:.0} × {i:.0} on the chip")
            }
        }
    }
}

/// Where an operation's time comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum OpSource {
    /// A kernel table of the chip: measured and published, or (Trainium's) modelled by the
    /// NeuronCore simulator, with its source, file and format.
    Table(Arc<KernelTable>),
    /// The roofline: FLOPs at the serving rate, or bytes at the serving bandwidth.
    Roofline,
    /// The collective model over the fabric the group crosses.
    Fabric,
}

impl OpSource {
    /// Id as the CLI and JSON write it.
    #[must_use]
    pub fn id(&self) -> &'static str {
        match self {
            OpSource::Table(t) if t.kind == "modelled" => "modelled",
            OpSource::Table(_) => "measured",
            OpSource::Roofline => "roofline",
            OpSource::Fabric => "fabric",
        }
    }
}

/// One operation of a step: every call of it in the step, on one chip.
#[derive(Clone, Debug, PartialEq)]
pub struct StepOp {
    /// What it is, in words.
    pub name: &'static str,
    /// Its kind.
    pub kind: OpKind,
    /// Calls a step (layers it runs in).
    pub calls: f64,
    /// One call's shape ([`Shape::describe`] puts it in words).
    pub shape: Shape,
    /// Seconds of all its calls on one chip.
    pub seconds: f64,
    /// FLOPs of all its calls on one chip.
    pub flops: f64,
    /// Bytes all its calls move on one chip (HBM, or the fabric for a collective).
    pub bytes: f64,
    /// Where its time comes from.
    pub source: OpSource,
}

/// A step's operations and their sums by part.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Step {
    /// Every operation, in the order a layer runs them.
    pub ops: Vec<StepOp>,
    /// The weight GEMMs and expert GEMMs.
    pub gemm: f64,
    /// Attention.
    pub attention: f64,
    /// Elementwise work (norms, residuals, embeddings, sampling).
    pub elementwise: f64,
    /// Collectives.
    pub comm: f64,
    /// The fixed time of launching each GEMM and attention call (and Neuron's per layer).
    pub launches: f64,
}

impl Step {
    /// The step's time: its operations one after another, and their launches.
    #[must_use]
    pub fn total(&self) -> f64 {
        self.gemm + self.attention + self.elementwise + self.comm + self.launches
    }
    /// Operations timed from a measured kernel table.
    #[must_use]
    pub fn measured(&self) -> usize {
        self.ops
            .iter()
            .filter(|o| o.source.id() == "measured")
            .count()
    }
}

/// Everything an operation's time depends on besides its shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Graph {
    /// The model.
    pub model: Model,
    /// The chip.
    pub chip: Chip,
    /// The cluster (for collectives).
    pub cluster: Cluster,
    /// Compute format of the GEMMs.
    pub dtype: Dtype,
    /// Format the weights are stored in.
    pub weight_dtype: Dtype,
    /// Bytes of one KV-cache element.
    pub kv_elem: f64,
    /// The layout.
    pub layout: ServeLayout,
    /// FLOP/s the roofline grants a GEMM without a table (the serving rate).
    pub peak: f64,
    /// Bytes/s the roofline grants streaming (the serving bandwidth).
    pub bw: f64,
    /// Fixed time of one kernel call.
    pub per_call: f64,
    /// Fixed time per decoder layer on Trainium (0 elsewhere).
    pub per_layer: f64,
    /// Expert load imbalance: the busiest expert-parallel rank's tokens over the mean, at
    /// one token a rank (it falls as the square root of the tokens a rank receives).
    pub imbalance: f64,
    /// The hottest expert's tokens over the mean expert's ([`HOT_EXPERT`]; 1 where routing
    /// is taken as uniform, as links of model version 7 and earlier take it).
    pub hot_expert: f64,
    decode: Tables,
    prefill: Tables,
}

/// The table format a GEMM in `dtype` (weights in `weights`) runs on `chip`.
fn gemm_formats(chip: &Chip, dtype: Dtype, weights: Dtype) -> &'static [&'static str] {
    let amd = chip.vendor == "AMD";
    match (dtype, weights) {
        (Dtype::Fp4, _) if amd => &["mxfp4"],
        (Dtype::Fp4, _) => &["nvfp4"],
        (Dtype::Fp8, _) => &["fp8", "fp8-block"],
        (Dtype::Bf16 | Dtype::Fp16, Dtype::Fp4) => &["mxfp4-w4a16", "bf16"],
        (Dtype::Bf16 | Dtype::Fp16, _) => &["bf16"],
        _ => &[],
    }
}

/// The first table of `op` for `chip` in one of `formats`.
fn table(chip: &Chip, op: KernelOp, formats: &[&str]) -> Option<Arc<KernelTable>> {
    formats
        .iter()
        .find_map(|f| kerneldata::find(&chip.id, op, f))
}

fn measured(t: &Arc<KernelTable>) -> OpSource {
    OpSource::Table(t.clone())
}

/// The tables a graph uses, looked up once.
#[derive(Clone, Debug, Default, PartialEq)]
struct Tables {
    gemm: Option<Arc<KernelTable>>,
    experts: Option<Arc<KernelTable>>,
    attention: Option<Arc<KernelTable>>,
    mla: Option<Arc<KernelTable>>,
}

/// The tables of `chip` a pass of `model` uses, decode's or prefill's; a decode step
/// reading a cache of a byte an element or less is timed from the kernels measured with an
/// FP8 cache where there are some.
fn tables(
    model: &Model,
    chip: &Chip,
    (dtype, weights, kv_elem): (Dtype, Dtype, f64),
    prefill: bool,
    own_experts: bool,
) -> Tables {
    let (att, mla) = if prefill {
        (KernelOp::AttentionPrefill, KernelOp::MlaPrefill)
    } else {
        (KernelOp::AttentionDecode, KernelOp::MlaDecode)
    };
    let kv: &[&str] = if !prefill && kv_elem <= 1.0 {
        &["fp8kv", "bf16"]
    } else {
        &["bf16"]
    };
    let gemm = table(chip, KernelOp::Gemm, gemm_formats(chip, dtype, weights));
    Tables {
        experts: if model.experts > 0 {
            experts_table(
                model,
                chip,
                expert_formats(chip, dtype, weights),
                own_experts,
            )
        } else {
            None
        },
        attention: if model.mla.is_some() {
            None
        } else {
            table(chip, att, kv)
        },
        mla: if model.mla.is_some() {
            table(chip, mla, kv)
        } else {
            None
        },
        gemm,
    }
}

impl Graph {
    /// A graph of `model` on `chip` in `layout`, its tables looked up once.
    #[allow(clippy::too_many_arguments)]
    #[must_use]
    pub fn new(
        model: Model,
        chip: Chip,
        cluster: Cluster,
        (dtype, weight_dtype, kv_elem): (Dtype, Dtype, f64),
        layout: ServeLayout,
        (peak, bw): (f64, f64),
        (per_call, per_layer): (f64, f64),
        own_experts: bool,
    ) -> Self {
        let formats = (dtype, weight_dtype, kv_elem);
        let decode = tables(&model, &chip, formats, false, own_experts);
        let prefill = tables(&model, &chip, formats, true, own_experts);
        Graph {
            model,
            chip,
            cluster,
            dtype,
            weight_dtype,
            kv_elem,
            layout,
            peak,
            bw,
            per_call,
            per_layer,
            imbalance: IMBALANCE,
            hot_expert: if own_experts { HOT_EXPERT } else { 1.0 },
            decode,
            prefill,
        }
    }

    /// The roofline's time for `flops` and `bytes` on one chip at the serving rates.
    fn roof(&self, flops: f64, bytes: f64) -> f64 {
        (flops / self.peak).max(bytes / self.bw)
    }

    /// The physical floor: the chip's dense peak in `dtype` and its full bandwidth.
    fn floor(&self, dtype: Dtype, flops: f64, bytes: f64) -> f64 {
        let peak = self.chip.dense(dtype).map_or(f64::INFINITY, |p| p.get());
        (flops / peak).max(bytes / self.chip.hbm_bandwidth.value.get())
    }

    /// A GEMM of `m` tokens × `k` → `n`, `calls` times a step, weights in the stored format.
    fn gemm(&self, t: &Tables, name: &'static str, calls: f64, [m, n, k]: [f64; 3]) -> StepOp {
        let wb = self.weight_dtype.bytes();
        let flops = 2.0 * m * n * k;
        let bytes = n * k * wb + (m * k + m * n) * 2.0;
        let (one, source) = match t.gemm.as_ref().and_then(|tb| {
            let s = tb.gemm_seconds(m, n, k)?;
            Some((s, measured(tb)))
        }) {
            Some((s, src)) => (s.max(self.floor(self.dtype, flops, bytes)), src),
            None => (self.roof(flops, bytes), OpSource::Roofline),
        };
        StepOp {
            name,
            kind: OpKind::Gemm,
            calls,
            shape: Shape::Gemm([m, n, k]),
            seconds: one * calls,
            flops: flops * calls,
            bytes: bytes * calls,
            source,
        }
    }

    /// Memory-bound elementwise work of `bytes` a call.
    fn elementwise(name: &'static str, calls: f64, bytes: f64, bw: f64) -> StepOp {
        StepOp {
            name,
            kind: OpKind::Elementwise,
            calls,
            shape: Shape::Bytes(bytes),
            seconds: calls * bytes / bw,
            flops: 0.0,
            bytes: calls * bytes,
            source: OpSource::Roofline,
        }
    }

    /// A collective of `bytes` a rank over `ranks` chips of the replica.
    fn collective(
        &self,
        name: &'static str,
        op: Op,
        calls: f64,
        ranks: u32,
        bytes: f64,
    ) -> Result<Option<StepOp>, WorkloadError> {
        if ranks <= 1 || calls <= 0.0 || bytes <= 0.0 {
            return Ok(None);
        }
        let nodes = self
            .layout
            .chips
            .div_ceil(self.cluster.system.chips())
            .max(1);
        let one = group_collective(&self.cluster, op, ranks, nodes, Bytes::new(bytes))?;
        Ok(Some(StepOp {
            name,
            kind: OpKind::Collective,
            calls,
            shape: Shape::Collective(bytes, ranks),
            seconds: one * calls,
            flops: 0.0,
            bytes: bytes * calls,
            source: OpSource::Fabric,
        }))
    }

    /// Attention of `seqs` sequences on one attention group's chip: decode (one query token a
    /// sequence, `ctx` tokens of context) or prefill (`ctx` tokens each, causal).
    fn attention(&self, t: &Tables, seqs: f64, ctx: f64, queries: f64, prefill: bool) -> StepOp {
        let m = &self.model;
        let ta = f64::from(self.layout.attn_tp());
        let l = f64::from(m.layers);
        let kv_per_token = m.kv_bytes_per_token(Dtype::Bf16) / 2.0 * self.kv_elem / l;
        let (flops, bytes, got) = if let Some(a) = m.mla {
            // Latent attention run absorbed: every head scores the shared latent (and rotary
            // key) and sums it, so each head works on kv_lora + rope per token.
            let h = f64::from(m.heads) / ta;
            let lat = f64::from(a.kv_lora + a.qk_rope);
            let per = 2.0 * h * (lat + f64::from(a.kv_lora));
            let (flops, bytes) = if prefill {
                // Prefill runs unabsorbed, per head over nope + rope keys and v values.
                let (nope, rope, v) = (
                    f64::from(a.qk_nope),
                    f64::from(a.qk_rope),
                    f64::from(a.v_head),
                );
                (
                    seqs * ctx * ctx / 2.0 * 2.0 * h * (nope + rope + v),
                    seqs * ctx * lat * self.kv_elem,
                )
            } else {
                (
                    seqs * queries * ctx * per,
                    seqs * ctx * kv_per_token.max(lat * self.kv_elem / ta.max(1.0)),
                )
            };
            let got = t.mla.as_ref().and_then(|tb| {
                let heads = tb.fixed("heads")?;
                let lat_ref = tb.fixed("latent")?;
                let kvb = tb.fixed("kv_bytes")?;
                let s = tb.seconds_2d(seqs, ctx)?;
                let scale = if prefill {
                    h / heads
                } else {
                    (h * queries / heads).max(lat * self.kv_elem / (lat_ref * kvb))
                };
                Some((s * scale, measured(tb)))
            });
            (flops, bytes, got)
        } else {
            let hd = m.head_dim();
            let q = f64::from(m.heads) / ta;
            let kvh = (f64::from(m.kv_heads) / ta).max(1.0);
            let att = if prefill {
                m.mean_attended(0.0, ctx)
            } else {
                m.attended_read(ctx)
            };
            let flops = if prefill {
                seqs * ctx * att * 4.0 * q * hd
            } else {
                seqs * queries * att * 4.0 * q * hd
            };
            let bytes = seqs * att * 2.0 * kvh * hd * self.kv_elem;
            let got = t.attention.as_ref().and_then(|tb| {
                let (q_ref, kv_ref, hd_ref, kvb) = (
                    tb.fixed("q_heads")?,
                    tb.fixed("kv_heads")?,
                    tb.fixed("head_dim")?,
                    tb.fixed("kv_bytes")?,
                );
                // A prefill table is timed at its whole prompt; a window shortens what each
                // token attends to, so the time scales by the share of causal work it leaves.
                let s = tb.seconds_2d(seqs, if prefill { ctx } else { att })?;
                let flop_ratio = q * hd / (q_ref * hd_ref);
                let scale = if prefill {
                    flop_ratio * m.causal_share(ctx)
                } else {
                    (flop_ratio * queries).max(kvh * hd * self.kv_elem / (kv_ref * hd_ref * kvb))
                };
                Some((s * scale, measured(tb)))
            });
            (flops, bytes, got)
        };
        let (one, source) = match got {
            Some((s, src)) => (s.max(self.floor(Dtype::Bf16, flops, bytes)), src),
            None => (self.roof(flops, bytes), OpSource::Roofline),
        };
        StepOp {
            name: if prefill {
                "attention (prefill)"
            } else {
                "attention (decode)"
            },
            kind: OpKind::Attention,
            calls: l,
            shape: Shape::Attention(seqs, ctx),
            seconds: one * l,
            flops: flops * l,
            bytes: bytes * l,
            source,
        }
    }

    /// The grouped expert GEMMs of one MoE layer on one expert-parallel rank, `tokens`
    /// tokens entering the layer across the replica. From a table measured on another
    /// model's experts, at the same tokens per expert (which sets the kernels' efficiency)
    /// and scaled by the expert weights a rank holds.
    fn experts(&self, t: &Tables, tokens: f64, prefill: bool) -> StepOp {
        let m = &self.model;
        let (e, k) = (f64::from(m.experts), f64::from(m.active_experts));
        let ep = f64::from(self.layout.ep);
        let te = f64::from(self.layout.expert_tp());
        let local = e / ep;
        let (h, i) = (m.d(), f64::from(m.expert_ffn) / te);
        let mats = if m.gated { 3.0 } else { 2.0 };
        // Tokens a rank computes: its share, and the busiest rank's excess over it: the
        // larger of the sampling noise of a step's routing and the rank that holds the hottest
        // expert (its excess shared over the rank's experts).
        let routed = tokens * k / ep;
        let skew = if ep > 1.0 {
            (1.0 + self.imbalance / libm::sqrt(routed.max(1.0)))
                .max(1.0 + (self.hot_expert - 1.0) / local.max(1.0))
        } else {
            1.0
        };
        let work = routed * skew;
        let flops = 2.0 * mats * work * h * i;
        // Experts a rank's tokens touch, each read once.
        let touched = local * (1.0 - libm::pow(1.0 - k / e, tokens));
        let bytes = touched * mats * h * i * self.weight_dtype.bytes() + work * h * 4.0;
        let calls = m.moe_layers();
        let got = t.experts.as_ref().and_then(|tb| {
            let s = grouped_seconds(tb, local, h, i, tokens * k / e * skew)?;
            Some((s, measured(tb)))
        });
        let (one, source, flops, bytes) = match got {
            Some((s, src)) => (
                s.max(self.floor(self.dtype, flops, bytes)),
                src,
                flops,
                bytes,
            ),
            None if self.chip.runs_neuron() => {
                let (f, b) = self.neuron_experts(tokens, prefill);
                (self.roof(f, b), OpSource::Roofline, f, b)
            }
            None => (self.roof(flops, bytes), OpSource::Roofline, flops, bytes),
        };
        StepOp {
            name: "experts (grouped GEMMs)",
            kind: OpKind::Experts,
            calls,
            shape: Shape::Experts([tokens, local, h, i]),
            seconds: one * calls,
            flops: flops * calls,
            bytes: bytes * calls,
            source,
        }
    }

    /// FLOPs and bytes of one MoE layer's experts on one chip as Neuron's kernels run them
    /// (neuronx-distributed's `ExpertMLPs`): a prefill in blocks of [`NEURON_EXPERT_BLOCK`]
    /// tokens, each expert's share padded to whole blocks and every block the kernel
    /// provisions computed, ⌈(T·k − (E − 1)) ÷ block⌉ + E − 1 of them, each reading its
    /// expert's weights; a decode step loading only the chosen experts' weights, token by
    /// token and a copy for each (selective loading), until the batch's T·k choices reach
    /// the E experts ([`NEURON_SELECTIVE_LOADING_THRESHOLD`]), past which every token runs
    /// through every expert.
    fn neuron_experts(&self, tokens: f64, prefill: bool) -> (f64, f64) {
        let m = &self.model;
        let (e, k) = (f64::from(m.experts), f64::from(m.active_experts));
        let ep = f64::from(self.layout.ep);
        let te = f64::from(self.layout.expert_tp());
        let (h, i) = (m.d(), f64::from(m.expert_ffn) / te);
        let mats = if m.gated { 3.0 } else { 2.0 };
        let expert = mats * h * i * self.weight_dtype.bytes();
        let act = tokens * h * 4.0 / ep;
        if prefill {
            let blocks =
                (libm::ceil((tokens * k - (e - 1.0)) / NEURON_EXPERT_BLOCK)).max(0.0) + e - 1.0;
            let here = blocks / ep;
            (
                2.0 * mats * here * NEURON_EXPERT_BLOCK * h * i,
                here * expert + act,
            )
        } else if tokens * k / e >= NEURON_SELECTIVE_LOADING_THRESHOLD {
            (
                2.0 * mats * tokens * (e / ep) * h * i,
                e / ep * expert + act,
            )
        } else {
            let copies = tokens * k / ep;
            (2.0 * mats * copies * h * i, copies * expert + act)
        }
    }

    /// The part of a step of `tokens` new tokens (decoded and prefilled) that its tokens
    /// alone set: every operation but attention (GEMMs, experts, collectives, elementwise
    /// work and launches), on one chip.
    ///
    /// # Errors
    /// As [`Graph::pass`].
    pub fn token_bound(&self, tokens: f64) -> Result<f64, WorkloadError> {
        if tokens <= 0.0 {
            return Ok(0.0);
        }
        let s = self.pass(tokens, 1.0, 1.0, false)?;
        Ok(s.total() - s.attention)
    }

    /// Decode attention of `seqs` sequences over `ctx` tokens of context each, on one chip of
    /// the attention group holding them (every layer).
    #[must_use]
    pub fn decode_attention(&self, seqs: f64, ctx: f64) -> f64 {
        if seqs <= 0.0 {
            return 0.0;
        }
        let dp = f64::from(self.layout.attn_dp);
        self.attention(&self.decode, seqs / dp, ctx, 1.0, false)
            .seconds
    }

    /// One forward pass of a replica: `seqs` sequences, `tokens` new tokens each, attending
    /// to `ctx` tokens (decode), or prompts of `tokens` tokens (prefill).
    ///
    /// # Errors
    /// A layout whose degrees do not divide the chips, or a collective that cannot run.
    pub fn pass(
        &self,
        seqs: f64,
        tokens: f64,
        ctx: f64,
        prefill: bool,
    ) -> Result<Step, WorkloadError> {
        self.layout.check()?;
        let m = &self.model;
        let t = if prefill { &self.prefill } else { &self.decode };
        let (dp, ta) = (
            f64::from(self.layout.attn_dp),
            f64::from(self.layout.attn_tp()),
        );
        let l = f64::from(m.layers);
        let d = m.d();
        // Tokens on one attention group, and in the whole replica.
        let b = seqs * tokens / dp;
        let all = seqs * tokens;
        let mut ops: Vec<StepOp> = Vec::new();
        ops.push(Self::elementwise("embedding", 1.0, b * d * 2.0, self.bw));
        // Attention's projections.
        if let Some(a) = m.mla {
            let h = f64::from(m.heads) / ta;
            let (ql, kl) = (f64::from(a.q_lora), f64::from(a.kv_lora));
            let (nope, rope, v) = (
                f64::from(a.qk_nope),
                f64::from(a.qk_rope),
                f64::from(a.v_head),
            );
            if a.q_lora > 0 {
                ops.push(self.gemm(t, "query down-projection", l, [b, ql, d]));
                ops.push(self.gemm(t, "query up-projection", l, [b, h * (nope + rope), ql]));
            } else {
                ops.push(self.gemm(t, "query projection", l, [b, h * (nope + rope), d]));
            }
            ops.push(self.gemm(t, "latent down-projection", l, [b, kl + rope, d]));
            if prefill {
                ops.push(self.gemm(t, "key and value up-projection", l, [b, h * (nope + v), kl]));
            } else {
                ops.push(self.gemm(t, "query into the latent (absorbed)", l, [b, h * kl, nope]));
            }
            ops.push(self.attention(
                t,
                seqs / dp,
                if prefill { tokens } else { ctx },
                tokens,
                prefill,
            ));
            if !prefill {
                ops.push(self.gemm(t, "latent out of attention (absorbed)", l, [b, h * v, kl]));
            }
            ops.push(self.gemm(t, "output projection", l, [b, d, h * v]));
        } else {
            let hd = m.head_dim();
            let (q, kv) = (
                f64::from(m.heads) / ta,
                (f64::from(m.kv_heads) / ta).max(1.0),
            );
            ops.push(self.gemm(
                t,
                "query, key and value projection",
                l,
                [b, (q + 2.0 * kv) * hd, d],
            ));
            ops.push(self.attention(
                t,
                seqs / dp,
                if prefill { tokens } else { ctx },
                tokens,
                prefill,
            ));
            ops.push(self.gemm(t, "output projection", l, [b, d, q * hd]));
        }
        let ar = |calls: f64| {
            self.collective(
                "tensor-parallel all-reduce",
                Op::AllReduce,
                calls,
                self.layout.attn_tp(),
                b * d * 2.0,
            )
        };
        let mats = if m.gated { 2.0 } else { 1.0 };
        let dense = m.dense_ffn_layers();
        let moe = m.moe_layers();
        // Attention's all-reduce in every layer, the dense FFN's in the dense layers.
        ops.extend(ar(l + dense)?);
        if dense > 0.0 {
            let f = f64::from(m.ffn) / ta;
            ops.push(self.gemm(t, "feed-forward up (and gate)", dense, [b, mats * f, d]));
            ops.push(self.gemm(t, "feed-forward down", dense, [b, d, f]));
        }
        if moe > 0.0 {
            let k = f64::from(m.active_experts);
            let (ep, te) = (self.layout.ep, self.layout.expert_tp());
            if m.router {
                ops.push(self.gemm(t, "router", moe, [b, f64::from(m.experts), d]));
            }
            // Each chip sends its tokens' copies to their experts' ranks and takes the
            // results back: the dispatch in the compute format (FP4 and FP8 with their
            // scales), the combine in BF16.
            // A token goes once to each rank holding one of its experts (its copies for
            // several experts there share the trip, and their results are summed there
            // before the trip back): of `ep` ranks, about ep·(1 − (1 − 1/ep)^k) of them.
            let own = b / ta;
            let e_ranks = f64::from(ep);
            let copies = (e_ranks * (1.0 - libm::pow(1.0 - 1.0 / e_ranks, k))).min(k);
            let act = (self.dtype.bytes() * 1.0625).min(2.0);
            ops.extend(self.collective(
                "expert dispatch (all-to-all)",
                Op::AllToAll,
                moe,
                ep,
                own * copies * d * act,
            )?);
            ops.push(self.experts(t, all, prefill));
            ops.extend(self.collective(
                "expert combine (all-to-all)",
                Op::AllToAll,
                moe,
                ep,
                own * copies * d * 2.0,
            )?);
            if te > 1 {
                // Experts sliced over chips sum their partial outputs.
                ops.extend(self.collective(
                    "expert tensor-parallel all-reduce",
                    Op::AllReduce,
                    moe,
                    te,
                    if ep > 1 {
                        own * k * d * 2.0
                    } else {
                        b * d * 2.0
                    },
                )?);
            }
            if m.shared_experts > 0 {
                let f = f64::from(m.shared_experts * m.expert_ffn) / ta;
                ops.push(self.gemm(t, "shared expert up (and gate)", moe, [b, mats * f, d]));
                ops.push(self.gemm(t, "shared expert down", moe, [b, d, f]));
            }
        }
        // Two norms and two residual adds a layer read and write the activations.
        ops.push(Self::elementwise(
            "norms and residuals",
            l,
            b * d * 2.0 * 8.0,
            self.bw,
        ));
        // The output head runs for the new tokens (a prefill's last token alone), in BF16.
        let heads = if prefill { seqs / dp } else { b };
        let v = f64::from(m.vocab) / ta;
        ops.push(StepOp {
            source: OpSource::Roofline,
            ..self.gemm(&Tables::default(), "output head", 1.0, [heads, v, d])
        });
        ops.push(Self::elementwise("sampling", 1.0, heads * v * 4.0, self.bw));
        let mut s = Step::default();
        let mut kernels = 0.0;
        for o in &ops {
            match o.kind {
                OpKind::Gemm | OpKind::Experts => s.gemm += o.seconds,
                OpKind::Attention => s.attention += o.seconds,
                OpKind::Elementwise => s.elementwise += o.seconds,
                OpKind::Collective => s.comm += o.seconds,
            }
            if matches!(o.kind, OpKind::Gemm | OpKind::Experts | OpKind::Attention) {
                kernels += o.calls;
            }
        }
        s.launches = kernels * self.per_call + l * self.per_layer;
        s.ops = ops;
        Ok(s)
    }
}

/// Tokens Neuron's blockwise expert kernels pad each expert's share to in a prefill:
/// neuronx-distributed's `DEFAULT_BLOCK_SIZE` (modules/moe, Neuron SDK 2.24 to 2.28), which
/// optimum-neuron's mixtures of experts keep (a deployment may set its own).
pub const NEURON_EXPERT_BLOCK: f64 = 512.0;

/// Where Neuron's decode switches from loading only the experts chosen to running every
/// expert: when a step's tokens × experts a token ÷ experts reaches it
/// (neuronx-distributed's `DEFAULT_SELECTIVE_LOADING_THRESHOLD`).
pub const NEURON_SELECTIVE_LOADING_THRESHOLD: f64 = 1.0;

/// How many times the mean expert's tokens the hottest expert of a layer receives in a
/// decode step, averaged over layers and steps: 11.948 (an imbalance ratio of 10.948) for
/// DeepSeek-R1 at expert-parallel 32 on GB200 without expert load balancing, on a
/// machine-translation dataset (TensorRT-LLM, "Scaling Expert Parallelism in TensorRT-LLM,
/// Part 1", docs/source/blogs/tech_blog/blog4_Scaling_Expert_Parallelism_in_TensorRT-LLM.md
/// at commit 1d263f15, 2025: 128 tokens the mean expert, with a standard deviation of
/// 164.1). The busiest rank then carries its excess over the rank's experts: 1 + 10.948 ÷ 8 = 2.37 at 8 experts a rank, beside the 2.56 the same
/// run measured a GPU. Measured on DeepSeek's router alone; taken for every router (an
/// assumption), and not where every rank holds every expert.
pub const HOT_EXPERT: f64 = 11.948;

/// Expert load imbalance at one routed token a rank: the busiest of the ranks receives
/// `1 + IMBALANCE ÷ √(tokens a rank)` times the mean. With routing as random as a balanced
/// router makes it, the largest of `ep` multinomial shares exceeds the mean by about
/// √(2 ln ep ÷ tokens); 2 is that for the 8 to 64 ranks of today's deployments (an
/// assumption: real routers skew more on some prompts).
pub const IMBALANCE: f64 = 2.0;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::{domain_of, find_model, infer, InferConfig};

    #[test]
    fn experts_are_timed_from_kernels_measured_on_their_own_shape() {
        // aiconfigurator measured Qwen3-30B-A3B's experts (128 of 2,048 × 768, eight a
        // token) on B200; DeepSeek's (256 of 7,168 × 2,048) are the nearest for a model
        // measured on neither.
        let chip = crate::catalog::find("b200").unwrap();
        let shape = |model: &str| {
            let t = experts_table(&find_model(model).unwrap(), &chip, &["nvfp4"], true).unwrap();
            (t.points[0][1], t.points[0][2], t.fixed("experts").unwrap())
        };
        assert_eq!(shape("qwen3-30b-a3b"), (2048.0, 768.0, 128.0));
        assert_eq!(shape("deepseek-v3"), (7168.0, 2048.0, 256.0));
        assert_eq!(shape("llama4-scout"), (5120.0, 8192.0, 16.0));
    }

    fn on_gb200(model: &str, attn_dp: u32, ep: u32) -> crate::workload::InferReport {
        let (cl, chip) = domain_of("gb200-nvl72");
        let cfg = InferConfig {
            tp: Some(8),
            attn_dp: Some(attn_dp),
            ep: Some(ep),
            ..InferConfig::new(find_model(model).unwrap(), Dtype::Fp4, 512, 1024, 1024)
        };
        infer(&cl, &chip, &cfg).unwrap()
    }

    #[test]
    fn the_busiest_rank_holds_the_hottest_expert_where_ranks_hold_few() {
        // DeepSeek-V3 on GB200 at 512 sequences: with 256 experts over 32 ranks (8 a rank)
        // the rank holding the hottest expert carries 1 + 10.948 ÷ 8 times the mean; over 8
        // ranks (32 a rank) it is diluted; on one rank holding all, nothing waits.
        let (cl, chip) = domain_of("gb200-nvl72");
        let experts = |ep: u32, own: bool| {
            let cfg = InferConfig {
                tp: Some(32),
                attn_dp: Some(32),
                ep: Some(ep),
                own_experts: own,
                ..InferConfig::new(
                    find_model("deepseek-v3").unwrap(),
                    Dtype::Fp4,
                    512,
                    1024,
                    1024,
                )
            };
            let r = infer(&cl, &chip, &cfg).unwrap();
            r.decode_ops
                .ops
                .iter()
                .find(|o| o.kind == OpKind::Experts)
                .unwrap()
                .flops
        };
        // Over routing's sampling noise alone, at 512 × 8 ÷ 32 tokens a rank.
        let wide = experts(32, true) / experts(32, false);
        let noise = 1.0 + IMBALANCE / libm::sqrt(512.0 * 8.0 / 32.0);
        assert!(
            (wide - (1.0 + (HOT_EXPERT - 1.0) / 8.0) / noise).abs() < 0.01,
            "{wide}"
        );
        let narrow = experts(8, true) / experts(8, false);
        assert!(narrow > 1.2 && narrow < wide, "{narrow}");
    }

    #[test]
    fn a_deepseek_decode_step_is_its_operations_timed_from_kernel_tables() {
        // DeepSeek-V3 in FP4 on GB200, attention data-parallel 8 × expert-parallel 8.
        let r = on_gb200("deepseek-v3", 8, 8);
        let s = &r.decode_ops;
        assert!(s.measured() >= 2, "{:?}", s.ops);
        for name in [
            "expert dispatch (all-to-all)",
            "expert combine (all-to-all)",
        ] {
            let o = s.ops.iter().find(|o| o.name == name).expect(name);
            assert_eq!(o.kind, OpKind::Collective);
            assert!(o.seconds > 0.0);
        }
        // The experts come from GB200's NVFP4 table, cited.
        let e = s.ops.iter().find(|o| o.kind == OpKind::Experts).unwrap();
        match &e.source {
            OpSource::Table(t) => {
                let (url, format) = (&t.url, &t.format);
                assert!(url.contains("gb200") && format == "nvfp4", "{url} {format}");
            }
            other => panic!("{other:?}"),
        }
        // The step is the sum of its operations and launches: the decode step reported.
        let sum: f64 = s.ops.iter().map(|o| o.seconds).sum::<f64>() + s.launches;
        assert!((sum - s.total()).abs() < 1e-12);
        assert!((r.decode_step.get() - s.total()).abs() < 1e-9 * s.total());
        // No operation is faster than the chip's roofline allows.
        let (_, chip) = domain_of("gb200-nvl72");
        let peak = chip.dense(Dtype::Fp4).unwrap().get();
        for o in s.ops.iter().filter(|o| o.kind != OpKind::Collective) {
            let floor = (o.flops / peak).max(o.bytes / chip.hbm_bandwidth.value.get());
            assert!(
                o.seconds >= floor * 0.999,
                "{}: {} < {floor}",
                o.name,
                o.seconds
            );
        }
    }

    #[test]
    fn attention_data_parallelism_splits_the_sequences_and_their_caches() {
        // DeepSeek-R1: DeepSeek-V3's shape with its latent attention.
        let (tp, dp) = (on_gb200("deepseek-r1", 1, 8), on_gb200("deepseek-r1", 8, 8));
        // Each group holds an eighth of the sequences' caches; the latent cache is whole on
        // every chip of a tensor-parallel group.
        assert!((dp.memory.kv_cache / tp.memory.kv_cache - 1.0 / 8.0).abs() < 1e-9);
        // Attention's weights are copied into each group: more weight bytes a chip.
        assert!(dp.memory.weights > tp.memory.weights);
        // Without tensor parallelism in attention there is no all-reduce.
        assert!(!dp
            .decode_ops
            .ops
            .iter()
            .any(|o| o.name == "tensor-parallel all-reduce"));
        assert!(tp
            .decode_ops
            .ops
            .iter()
            .any(|o| o.name == "tensor-parallel all-reduce"));
    }

    #[test]
    fn a_layout_that_does_not_divide_the_chips_is_named() {
        let (cl, chip) = domain_of("gb200-nvl72");
        let cfg = InferConfig {
            tp: Some(8),
            attn_dp: Some(3),
            ..InferConfig::new(
                find_model("deepseek-v3").unwrap(),
                Dtype::Fp4,
                64,
                1024,
                1024,
            )
        };
        let e = infer(&cl, &chip, &cfg).unwrap_err().to_string();
        assert!(e.contains("attention data-parallel degree 3"), "{e}");
    }
}
