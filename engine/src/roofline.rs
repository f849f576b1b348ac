//! The roofline: ridge points, attainable throughput, and the arithmetic intensity of operations.
//!
//! Intensity here is FLOP per byte of HBM traffic, assuming each operand crosses HBM once
//! (perfect on-chip reuse). That is the optimistic bound the roofline is about; a real kernel
//! that re-reads operands sits further left.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::chip::Chip;
use crate::dtype::Dtype;
use crate::units::{Bytes, BytesPerSec, Flop, FlopPerByte, FlopPerSec, Seconds};

/// A two-segment roofline: a bandwidth slope and a compute ceiling.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Roofline {
    /// Compute ceiling.
    pub peak: FlopPerSec,
    /// Memory bandwidth (the slope).
    pub bandwidth: BytesPerSec,
}

/// Which ceiling limits an operation, and by how much.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// Intensity at or above the ridge: limited by compute.
    /// `margin` = intensity / ridge (>= 1): how far right of the ridge.
    Compute {
        /// intensity / ridge.
        margin: f64,
    },
    /// Intensity below the ridge: limited by memory bandwidth.
    /// `shortfall` = ridge / intensity (> 1): how much more intensity would reach peak.
    Memory {
        /// ridge / intensity.
        shortfall: f64,
    },
}

impl Bound {
    /// `compute` or `memory`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Bound::Compute { .. } => "compute",
            Bound::Memory { .. } => "memory",
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Bound::Compute { margin } => write!(
                f,
                "compute-bound, {}x right of the ridge",
                crate::units::sig(margin, 3)
            ),
            Bound::Memory { shortfall } => write!(
                f,
                "memory-bound, needs {}x more FLOP/byte to reach peak",
                crate::units::sig(shortfall, 3)
            ),
        }
    }
}

impl Roofline {
    /// Dense roofline of `chip` in `d` against HBM; `None` if the format is unsupported.
    #[must_use]
    pub fn dense(chip: &Chip, d: Dtype) -> Option<Self> {
        Some(Self {
            peak: chip.dense(d)?,
            bandwidth: chip.hbm_bandwidth.value,
        })
    }

    /// Roofline with the structured-sparsity peak; `None` if no sparse figure is published.
    #[must_use]
    pub fn sparse(chip: &Chip, d: Dtype) -> Option<Self> {
        Some(Self {
            peak: chip.sparse(d)?,
            bandwidth: chip.hbm_bandwidth.value,
        })
    }

    /// Intensity where the slope meets the ceiling: peak / bandwidth.
    #[must_use]
    pub fn ridge(&self) -> FlopPerByte {
        self.peak / self.bandwidth
    }

    /// min(peak, intensity × bandwidth).
    #[must_use]
    pub fn attainable(&self, i: FlopPerByte) -> FlopPerSec {
        let mem = i * self.bandwidth;
        if mem < self.peak {
            mem
        } else {
            self.peak
        }
    }

    /// Which ceiling limits an operation of intensity `i`.
    #[must_use]
    pub fn bound(&self, i: FlopPerByte) -> Bound {
        let r = self.ridge();
        if i >= r {
            Bound::Compute { margin: i / r }
        } else {
            Bound::Memory { shortfall: r / i }
        }
    }

    /// Where an operation lands on this roofline.
    #[must_use]
    pub fn place(&self, cost: OpCost) -> Placement {
        let i = cost.intensity();
        let a = self.attainable(i);
        Placement {
            intensity: i,
            attainable: a,
            fraction_of_peak: a / self.peak,
            bound: self.bound(i),
            time: cost.flop / a,
        }
    }
}

/// An operation placed on a roofline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// FLOP per HBM byte.
    pub intensity: FlopPerByte,
    /// min(peak, intensity × bandwidth).
    pub attainable: FlopPerSec,
    /// attainable / peak, in [0, 1].
    pub fraction_of_peak: f64,
    /// The limiting ceiling.
    pub bound: Bound,
    /// Lower bound on run time: FLOP / attainable.
    pub time: Seconds,
}

/// Work and HBM traffic of one operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpCost {
    /// Operations (a multiply-add counts 2).
    pub flop: Flop,
    /// Bytes read from and written to HBM.
    pub bytes: Bytes,
}

impl OpCost {
    /// flop / bytes.
    #[must_use]
    pub fn intensity(&self) -> FlopPerByte {
        self.flop / self.bytes
    }
}

/// An operation whose intensity the roofline page plots. Sizes are element counts;
/// the format (and so the bytes per element) is given when costing it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "String", try_from = "String"))]
pub enum OpSpec {
    /// C[M×N] = A[M×K] · B[K×N].
    Gemm {
        /// Rows of A and C.
        m: f64,
        /// Columns of B and C.
        n: f64,
        /// Shared (reduction) dimension.
        k: f64,
    },
    /// An elementwise op over `elements` values, reading `reads` tensors and writing `writes`.
    Elementwise {
        /// Elements per tensor.
        elements: f64,
        /// Input tensors read.
        reads: f64,
        /// Output tensors written.
        writes: f64,
        /// Operations per element.
        flop_per_element: f64,
    },
    /// Causal self-attention over a whole prompt (flash-style: Q, K, V, O cross HBM once).
    AttentionPrefill {
        /// Sequences.
        batch: f64,
        /// Prompt length.
        seq: f64,
        /// Query heads.
        heads: f64,
        /// Key/value heads (GQA).
        kv_heads: f64,
        /// Dimension per head.
        head_dim: f64,
    },
    /// Attention of one new token per sequence against a KV cache of `context` tokens.
    AttentionDecode {
        /// Sequences.
        batch: f64,
        /// Tokens in the KV cache.
        context: f64,
        /// Query heads.
        heads: f64,
        /// Key/value heads (GQA).
        kv_heads: f64,
        /// Dimension per head.
        head_dim: f64,
    },
    /// One decode step of a dense LLM: every weight read once, plus each sequence's KV cache.
    DecodeStep {
        /// Parameters.
        params: f64,
        /// Sequences decoded together.
        batch: f64,
        /// Tokens in each KV cache.
        context: f64,
        /// Transformer layers.
        layers: f64,
        /// Query heads.
        heads: f64,
        /// Key/value heads.
        kv_heads: f64,
        /// Dimension per head.
        head_dim: f64,
    },
    /// The up-projection of an MoE layer as one grouped GEMM over `experts` experts.
    MoeGroupedGemm {
        /// Experts with tokens routed to them.
        experts: f64,
        /// Tokens per expert.
        tokens_per_expert: f64,
        /// Model (hidden) dimension.
        d_model: f64,
        /// Expert FFN dimension.
        d_ff: f64,
    },
    /// An operation given by its counts, as a step's breakdown reports one: FLOPs and bytes
    /// as counted (whatever the format), and a name to label it.
    Work {
        /// Operations.
        flop: f64,
        /// Bytes moved to and from HBM.
        bytes: f64,
        /// What it is (at most [`MAX_OP_NAME`] characters; may be empty).
        name: String,
    },
}

/// Longest name a [`OpSpec::Work`] keeps, in characters.
pub const MAX_OP_NAME: usize = 48;

/// Why an operation spec cannot be read.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum OpSpecError {
    /// The kind before `:` is not known.
    UnknownKind(String),
    /// Wrong number of comma-separated values.
    Arity {
        /// The kind.
        kind: &'static str,
        /// How many it takes and in what order.
        expected: &'static str,
        /// The text given.
        got: String,
    },
    /// A value is not a positive finite number.
    BadValue {
        /// The kind.
        kind: &'static str,
        /// The offending text.
        value: String,
    },
}

/// Largest value an operation's figure may take: far above any real model (10^15 elements,
/// parameters or tokens), and low enough that FLOP and bytes stay finite.
pub const MAX_OP_VALUE: f64 = 1e15;

impl fmt::Display for OpSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownKind(k) => write!(
                f,
                "unknown operation '{k}' (valid: {})",
                OpSpec::KINDS
                    .iter()
                    .map(|(k, _)| *k)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Self::Arity {
                kind,
                expected,
                got,
            } => write!(f, "{kind} takes {expected}, got '{got}'"),
            Self::BadValue { kind, value } => {
                let value: alloc::string::String = value.chars().take(40).collect();
                write!(
                    f,
                    "{kind}: '{value}' is not a positive number up to {MAX_OP_VALUE:e}"
                )
            }
        }
    }
}

impl core::error::Error for OpSpecError {}

impl OpSpec {
    /// Spec kinds and their positional parameters, for help and errors.
    pub const KINDS: [(&'static str, &'static str); 7] = [
        ("gemm", "M,N,K"),
        ("elem", "elements,reads,writes,flop_per_element"),
        ("prefill", "batch,seq,heads,kv_heads,head_dim"),
        ("attn-decode", "batch,context,heads,kv_heads,head_dim"),
        (
            "decode",
            "params,batch,context,layers,heads,kv_heads,head_dim",
        ),
        ("moe", "experts,tokens_per_expert,d_model,d_ff"),
        ("work", "flop,bytes[;name]"),
    ];

    /// The operations shown by default: a spread from bandwidth-bound to compute-bound.
    #[must_use]
    pub fn defaults() -> Vec<OpSpec> {
        let l70 = |batch| OpSpec::DecodeStep {
            params: 70.6e9,
            batch,
            context: 4096.0,
            layers: 80.0,
            heads: 64.0,
            kv_heads: 8.0,
            head_dim: 128.0,
        };
        alloc::vec![
            OpSpec::Gemm {
                m: 8192.0,
                n: 8192.0,
                k: 8192.0
            },
            OpSpec::Gemm {
                m: 16.0,
                n: 8192.0,
                k: 8192.0
            },
            l70(1.0),
            l70(64.0),
            OpSpec::AttentionPrefill {
                batch: 1.0,
                seq: 8192.0,
                heads: 64.0,
                kv_heads: 8.0,
                head_dim: 128.0
            },
            OpSpec::MoeGroupedGemm {
                experts: 256.0,
                tokens_per_expert: 32.0,
                d_model: 7168.0,
                d_ff: 2048.0
            },
            OpSpec::Elementwise {
                elements: 1e8,
                reads: 2.0,
                writes: 1.0,
                flop_per_element: 1.0
            },
        ]
    }

    fn kind(&self) -> &'static str {
        match self {
            OpSpec::Gemm { .. } => "gemm",
            OpSpec::Elementwise { .. } => "elem",
            OpSpec::AttentionPrefill { .. } => "prefill",
            OpSpec::AttentionDecode { .. } => "attn-decode",
            OpSpec::DecodeStep { .. } => "decode",
            OpSpec::MoeGroupedGemm { .. } => "moe",
            OpSpec::Work { .. } => "work",
        }
    }

    fn values(&self) -> Vec<f64> {
        match *self {
            OpSpec::Gemm { m, n, k } => alloc::vec![m, n, k],
            OpSpec::Elementwise {
                elements,
                reads,
                writes,
                flop_per_element,
            } => alloc::vec![elements, reads, writes, flop_per_element],
            OpSpec::AttentionPrefill {
                batch,
                seq,
                heads,
                kv_heads,
                head_dim,
            } => alloc::vec![batch, seq, heads, kv_heads, head_dim],
            OpSpec::AttentionDecode {
                batch,
                context,
                heads,
                kv_heads,
                head_dim,
            } => alloc::vec![batch, context, heads, kv_heads, head_dim],
            OpSpec::DecodeStep {
                params,
                batch,
                context,
                layers,
                heads,
                kv_heads,
                head_dim,
            } => alloc::vec![params, batch, context, layers, heads, kv_heads, head_dim],
            OpSpec::MoeGroupedGemm {
                experts,
                tokens_per_expert,
                d_model,
                d_ff,
            } => alloc::vec![experts, tokens_per_expert, d_model, d_ff],
            OpSpec::Work { flop, bytes, .. } => alloc::vec![flop, bytes],
        }
    }

    /// Compact text form for links and the CLI: `gemm:8192,8192,8192`.
    #[must_use]
    pub fn to_spec(&self) -> String {
        let v: Vec<String> = self.values().iter().map(|x| fmt_num(*x)).collect();
        match self {
            OpSpec::Work { name, .. } if !name.is_empty() => {
                format!("{}:{};{name}", self.kind(), v.join(","))
            }
            _ => format!("{}:{}", self.kind(), v.join(",")),
        }
    }

    /// Read the form written by [`OpSpec::to_spec`]. Numbers may use `e` notation.
    ///
    /// # Errors
    /// On an unknown kind, a wrong count of values, or a value that is not positive.
    pub fn parse_spec(s: &str) -> Result<Self, OpSpecError> {
        let (kind, rest) = s.trim().split_once(':').unwrap_or((s.trim(), ""));
        let (kind, expected) = Self::KINDS
            .iter()
            .copied()
            .find(|(k, _)| *k == kind)
            .ok_or_else(|| OpSpecError::UnknownKind(kind.into()))?;
        // Only `work` takes a name, after the numbers: `work:2e12,4e9;MLP`.
        let (rest, name) = match (kind, rest.split_once(';')) {
            ("work", Some((nums, name))) => (nums, work_name(name)),
            _ => (rest, String::new()),
        };
        let mut v = Vec::new();
        for p in rest.split(',').filter(|p| !p.trim().is_empty()) {
            let x: f64 = p.trim().parse().map_err(|_| OpSpecError::BadValue {
                kind,
                value: p.into(),
            })?;
            if !(x.is_finite() && x > 0.0 && x <= MAX_OP_VALUE) {
                return Err(OpSpecError::BadValue {
                    kind,
                    value: p.into(),
                });
            }
            v.push(x);
        }
        let want = expected.split(',').count();
        if v.len() != want {
            return Err(OpSpecError::Arity {
                kind,
                expected,
                got: rest.into(),
            });
        }
        Ok(match kind {
            "gemm" => OpSpec::Gemm {
                m: v[0],
                n: v[1],
                k: v[2],
            },
            "elem" => OpSpec::Elementwise {
                elements: v[0],
                reads: v[1],
                writes: v[2],
                flop_per_element: v[3],
            },
            "prefill" => OpSpec::AttentionPrefill {
                batch: v[0],
                seq: v[1],
                heads: v[2],
                kv_heads: v[3],
                head_dim: v[4],
            },
            "attn-decode" => OpSpec::AttentionDecode {
                batch: v[0],
                context: v[1],
                heads: v[2],
                kv_heads: v[3],
                head_dim: v[4],
            },
            "decode" => OpSpec::DecodeStep {
                params: v[0],
                batch: v[1],
                context: v[2],
                layers: v[3],
                heads: v[4],
                kv_heads: v[5],
                head_dim: v[6],
            },
            "work" => OpSpec::Work {
                flop: v[0],
                bytes: v[1],
                name,
            },
            _ => OpSpec::MoeGroupedGemm {
                experts: v[0],
                tokens_per_expert: v[1],
                d_model: v[2],
                d_ff: v[3],
            },
        })
    }

    /// A short human label: `GEMM 8192×8192×8192`.
    #[must_use]
    pub fn label(&self) -> String {
        let n = |x: f64| fmt_num(x);
        match *self {
            OpSpec::Gemm { m, n: nn, k } => format!("GEMM {}×{}×{}", n(m), n(nn), n(k)),
            OpSpec::Elementwise {
                elements,
                reads,
                writes,
                flop_per_element,
            } => format!(
                "Elementwise {} el, {}R/{}W, {} FLOP/el",
                n(elements),
                n(reads),
                n(writes),
                n(flop_per_element)
            ),
            OpSpec::AttentionPrefill { batch, seq, .. } => {
                format!("Attention prefill b={} s={}", n(batch), n(seq))
            }
            OpSpec::AttentionDecode { batch, context, .. } => {
                format!("Attention decode b={} ctx={}", n(batch), n(context))
            }
            OpSpec::DecodeStep {
                params,
                batch,
                context,
                ..
            } => format!(
                "LLM decode {}B params b={} ctx={}",
                n(params / 1e9),
                n(batch),
                n(context)
            ),
            OpSpec::MoeGroupedGemm {
                experts,
                tokens_per_expert,
                ..
            } => format!(
                "MoE grouped GEMM {} experts × {} tok",
                n(experts),
                n(tokens_per_expert)
            ),
            OpSpec::Work {
                flop,
                bytes,
                ref name,
            } => {
                let what = if name.is_empty() { "Operation" } else { name };
                format!("{what}: {:.3e} FLOP, {:.3e} B", flop, bytes)
            }
        }
    }

    /// FLOP and HBM bytes with elements of format `d` (`b` bytes each).
    #[must_use]
    pub fn cost(&self, d: Dtype) -> OpCost {
        if let OpSpec::Work { flop, bytes, .. } = *self {
            return OpCost {
                flop: Flop::new(flop),
                bytes: Bytes::new(bytes),
            };
        }
        let b = d.bytes();
        let (flop, elems) = match *self {
            OpSpec::Gemm { m, n, k } => (2.0 * m * n * k, m * k + k * n + m * n),
            OpSpec::Elementwise {
                elements,
                reads,
                writes,
                flop_per_element,
            } => (elements * flop_per_element, elements * (reads + writes)),
            OpSpec::AttentionPrefill {
                batch,
                seq,
                heads,
                kv_heads,
                head_dim,
            } => (
                // QKᵀ and PV are 2·S²·d each per head; the causal mask halves both.
                2.0 * batch * heads * seq * seq * head_dim,
                2.0 * batch * seq * heads * head_dim + 2.0 * batch * seq * kv_heads * head_dim,
            ),
            OpSpec::AttentionDecode {
                batch,
                context,
                heads,
                kv_heads,
                head_dim,
            } => (
                4.0 * batch * heads * context * head_dim,
                2.0 * batch * context * kv_heads * head_dim + 2.0 * batch * heads * head_dim,
            ),
            OpSpec::DecodeStep {
                params,
                batch,
                context,
                layers,
                heads,
                kv_heads,
                head_dim,
            } => (
                2.0 * params * batch + 4.0 * batch * layers * heads * context * head_dim,
                params + 2.0 * batch * context * layers * kv_heads * head_dim,
            ),
            OpSpec::MoeGroupedGemm {
                experts,
                tokens_per_expert: t,
                d_model,
                d_ff,
            } => (
                2.0 * experts * t * d_model * d_ff,
                experts * (d_model * d_ff + t * d_model + t * d_ff),
            ),
            OpSpec::Work { .. } => (0.0, 0.0),
        };
        OpCost {
            flop: Flop::new(flop),
            bytes: Bytes::new(elems * b),
        }
    }

    /// The formula behind [`OpSpec::cost`], with symbols as in the spec.
    #[must_use]
    pub fn formula(&self) -> &'static str {
        match self {
            OpSpec::Gemm { .. } => "FLOP = 2·M·N·K; bytes = (M·K + K·N + M·N)·b",
            OpSpec::Elementwise { .. } => "FLOP = n·f; bytes = n·(reads + writes)·b",
            OpSpec::AttentionPrefill { .. } => {
                "FLOP = 2·B·H·S²·d (QKᵀ and PV, causal half); bytes = 2·B·S·(H + Hkv)·d·b"
            }
            OpSpec::AttentionDecode { .. } => "FLOP = 4·B·H·L·d; bytes = (2·B·L·Hkv·d + 2·B·H·d)·b",
            OpSpec::DecodeStep { .. } => {
                "FLOP = 2·P·B + 4·B·layers·H·L·d; bytes = (P + 2·B·L·layers·Hkv·d)·b"
            }
            OpSpec::MoeGroupedGemm { .. } => "FLOP = 2·E·t·d·f; bytes = E·(d·f + t·d + t·f)·b",
            OpSpec::Work { .. } => "FLOP and bytes as counted (a step's breakdown), in any format",
        }
    }
}

impl From<OpSpec> for String {
    fn from(o: OpSpec) -> String {
        o.to_spec()
    }
}

impl TryFrom<String> for OpSpec {
    type Error = OpSpecError;
    fn try_from(s: String) -> Result<Self, OpSpecError> {
        OpSpec::parse_spec(&s)
    }
}

/// A `work` operation's name as a link may give it: printable characters only, at most
/// [`MAX_OP_NAME`] of them (the rest is dropped, never an error).
fn work_name(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_control())
        .take(MAX_OP_NAME)
        .collect::<String>()
        .trim()
        .into()
}

/// Integers print without a fraction; large round numbers in `e` notation (`70.6e9`).
fn fmt_num(x: f64) -> String {
    if x >= 1e7 {
        // Shortest form that reads back as the same number (`7.06e10`): a link never drifts.
        format!("{x:e}")
    } else if x == libm::round(x) {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::find;
    use alloc::string::ToString;

    /// Golden check of a published ridge point (dense FLOP/s ÷ HBM B/s).
    fn check_ridge(id: &str, d: Dtype, want: f64, tol: f64) {
        let chip = find(id).unwrap();
        let r = Roofline::dense(&chip, d).unwrap().ridge().get();
        assert!((r - want).abs() <= tol, "{id} {d}: ridge {r}, want {want}");
    }

    #[test]
    fn golden_ridge_points() {
        // AWS Neuron Trainium2 architecture page: 667 TFLOP/s BF16 dense, 2.9 TB/s HBM -> 230.
        check_ridge("trn2", Dtype::Bf16, 230.0, 0.1);
        // NVIDIA H100 SXM: 989.4 TFLOP/s BF16 dense, 3.35 TB/s -> 295.
        check_ridge("h100-sxm", Dtype::Bf16, 295.3, 0.1);
        // Google Cloud TPU v6e: 918 TFLOP/s BF16, 1,638 GB/s -> 560.
        check_ridge("tpu-v6e", Dtype::Bf16, 560.4, 0.1);
        // AWS Trainium3 page: 671 TFLOP/s BF16, 4.9 TB/s -> 137; MXFP8 2,517 -> 514.
        check_ridge("trn3", Dtype::Bf16, 136.9, 0.1);
        check_ridge("trn3", Dtype::Fp8, 513.7, 0.1);
        // NVIDIA GB200 NVL72: 2.5 PF BF16 dense per GPU at 8 TB/s -> 312.5.
        check_ridge("gb200", Dtype::Bf16, 312.5, 0.1);
    }

    #[test]
    fn semianalysis_ridge_uses_the_superseded_655() {
        // SemiAnalysis's Trainium2 article gives 225.9 FLOP/byte: 655 TFLOP/s (an older Neuron
        // page) over 2.9 TB/s.
        let r = Roofline {
            peak: FlopPerSec::tflops(655.0),
            bandwidth: BytesPerSec::tb_s(2.9),
        };
        assert!((r.ridge().get() - 225.86).abs() < 0.01);
    }

    #[test]
    fn attainable_is_min_of_slope_and_ceiling() {
        let r = Roofline {
            peak: FlopPerSec::tflops(100.0),
            bandwidth: BytesPerSec::tb_s(1.0),
        };
        let a = |i: f64| r.attainable(FlopPerByte::new(i)).get();
        assert_eq!(a(10.0), 10e12);
        assert_eq!(a(100.0), 100e12);
        assert_eq!(a(1000.0), 100e12);
        assert_eq!(
            r.bound(FlopPerByte::new(25.0)),
            Bound::Memory { shortfall: 4.0 }
        );
        assert_eq!(
            r.bound(FlopPerByte::new(200.0)),
            Bound::Compute { margin: 2.0 }
        );
    }

    #[test]
    fn attainable_never_exceeds_peak_and_rises_with_intensity() {
        let chip = find("h100-sxm").unwrap();
        for d in chip.formats().collect::<Vec<_>>() {
            let r = Roofline::dense(&chip, d).unwrap();
            let mut last = 0.0;
            for k in 0..200 {
                let i = libm::pow(10.0, -2.0 + f64::from(k) * 0.03);
                let a = r.attainable(FlopPerByte::new(i)).get();
                assert!(a <= r.peak.get() && a >= last, "{d} at {i}");
                last = a;
            }
        }
    }

    fn check_intensity(spec: &str, d: Dtype, want: f64, tol: f64) {
        let op = OpSpec::parse_spec(spec).unwrap();
        let i = op.cost(d).intensity().get();
        assert!((i - want).abs() <= tol, "{spec} in {d}: {i}, want {want}");
    }

    #[test]
    fn operation_intensities() {
        // Square GEMM: 2n³ / (3n²·b) = 2n/(3b); n = 8192 in bf16 -> 2730.7.
        check_intensity("gemm:8192,8192,8192", Dtype::Bf16, 2730.67, 0.01);
        // Skinny GEMM (decode-like): ≈ 2·M/b = M for bf16 when N, K ≫ M.
        check_intensity("gemm:16,8192,8192", Dtype::Bf16, 15.94, 0.01);
        // c = a + b in fp32: 1 FLOP per 12 bytes.
        check_intensity("elem:1e6,2,1,1", Dtype::Fp32, 1.0 / 12.0, 1e-12);
        // GQA decode attention: 4·H / (2·Hkv·b) = 4·64/(2·8·2) = 8 FLOP/B (plus the small Q/O term).
        check_intensity("attn-decode:1,4096,64,8,128", Dtype::Bf16, 7.984, 0.001);
        // Batch-1 decode of a dense model is ~1 FLOP/B in bf16: 2·P / (P·2).
        check_intensity("decode:70.6e9,1,1,80,64,8,128", Dtype::Bf16, 1.0, 0.01);
        // fp4 weights double the intensity of the same step.
        check_intensity("decode:70.6e9,1,1,80,64,8,128", Dtype::Fp4, 4.0, 0.02);
        // MoE with few tokens per expert: ≈ 2t/b for t ≪ d, f.
        check_intensity("moe:256,32,7168,2048", Dtype::Bf16, 31.4, 0.1);
    }

    #[test]
    fn specs_round_trip() {
        for op in OpSpec::defaults() {
            let s = op.to_spec();
            assert_eq!(OpSpec::parse_spec(&s), Ok(op.clone()), "{s}");
        }
    }

    #[test]
    fn work_keeps_its_counts_and_name() {
        let op = OpSpec::parse_spec("work:2e12,4e9;MLP up, gate; down").unwrap();
        let OpSpec::Work {
            flop,
            bytes,
            ref name,
        } = op
        else {
            panic!("{op:?}")
        };
        assert_eq!(
            (flop, bytes, name.as_str()),
            (2e12, 4e9, "MLP up, gate; down")
        );
        // The format does not scale counted bytes.
        assert_eq!(op.cost(Dtype::Fp8), op.cost(Dtype::Fp32));
        assert_eq!(op.cost(Dtype::Bf16).intensity().get(), 500.0);
        assert_eq!(OpSpec::parse_spec(&op.to_spec()), Ok(op.clone()));
        // A name is cut to its limit and stripped of control characters; none is fine.
        let long = format!("work:1,1;{}\n", "x".repeat(100));
        let OpSpec::Work { name, .. } = OpSpec::parse_spec(&long).unwrap() else {
            panic!()
        };
        assert_eq!(name.chars().count(), MAX_OP_NAME);
        assert!(OpSpec::parse_spec("work:1,1").is_ok());
        assert!(OpSpec::parse_spec("work:1;x").is_err());
    }

    #[test]
    fn bad_specs_say_why() {
        let err = |s: &str| OpSpec::parse_spec(s).unwrap_err().to_string();
        assert!(err("conv:1,2").contains("valid: gemm"));
        assert!(err("gemm:1,2").contains("M,N,K"));
        assert!(err("gemm:1,-2,3").contains("'-2'"));
        assert!(err("gemm:1,x,3").contains("'x'"));
    }

    #[test]
    fn decode_batching_raises_intensity_monotonically() {
        let mut last = 0.0;
        for b in [1.0, 2.0, 8.0, 32.0, 128.0] {
            let op = OpSpec::DecodeStep {
                params: 8e9,
                batch: b,
                context: 2048.0,
                layers: 32.0,
                heads: 32.0,
                kv_heads: 8.0,
                head_dim: 128.0,
            };
            let i = op.cost(Dtype::Bf16).intensity().get();
            assert!(i > last);
            last = i;
        }
    }
}
