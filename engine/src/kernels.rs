//! Small kernels that really run, in any number format, against an f64 reference: what BF16,
//! FP8, MX and NVFP4 do to a GEMM, a softmax, a norm or an attention tile.
//!
//! A run has three phases so callers can time the kernel alone: [`prepare`] draws the seeded
//! inputs, rounds them to their formats and computes the reference; [`execute`] is the kernel
//! (the part a speed figure times); [`finish`] rounds the output and measures the error.

pub mod device;
pub mod gemm;
pub mod ops;
pub mod rng;
pub mod stats;
pub mod stream;

pub use gemm::Accumulator;
pub use rng::{Distribution, Rng};
pub use stats::ErrorStats;

use crate::formats::Format;
use crate::formats::{quantize, QuantStats, ScaleFormat, Scaling};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

/// Which kernel runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// `C (M x N) = A (M x K) B (K x N)`.
    Gemm,
    /// Row-wise softmax of M rows of N.
    Softmax,
    /// Layer norm of M rows of N, with weights gamma and beta.
    LayerNorm,
    /// RMS norm of M rows of N, with weight gamma.
    RmsNorm,
    /// `softmax(Q K^T / sqrt(K)) V` for M queries, N keys, head dimension K.
    Attention,
}

impl Kernel {
    /// Every kernel.
    pub const ALL: [Kernel; 5] = [
        Kernel::Gemm,
        Kernel::Softmax,
        Kernel::LayerNorm,
        Kernel::RmsNorm,
        Kernel::Attention,
    ];

    /// Stable id used in links and the CLI.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Kernel::Gemm => "gemm",
            Kernel::Softmax => "softmax",
            Kernel::LayerNorm => "layernorm",
            Kernel::RmsNorm => "rmsnorm",
            Kernel::Attention => "attention",
        }
    }

    /// Display label.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Kernel::Gemm => "GEMM",
            Kernel::Softmax => "Softmax",
            Kernel::LayerNorm => "LayerNorm",
            Kernel::RmsNorm => "RMSNorm",
            Kernel::Attention => "Attention tile",
        }
    }

    /// What M, N and K mean for this kernel.
    #[must_use]
    pub const fn dims(self) -> [&'static str; 3] {
        match self {
            Kernel::Gemm => ["M", "N", "K"],
            Kernel::Softmax | Kernel::LayerNorm | Kernel::RmsNorm => ["rows", "columns", "-"],
            Kernel::Attention => ["queries", "keys", "head dim"],
        }
    }

    /// From an id.
    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|k| k.id() == s.trim())
    }
}

/// A tensor's element format and how it is scaled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Operand {
    /// Element format.
    pub format: Format,
    /// Scaling.
    pub scaling: Scaling,
}

impl Operand {
    /// A format with its usual scaling: none for 16 bits and wider, one FP32 scale for the
    /// tensor below (the per-tensor FP8 and INT8 recipes).
    #[must_use]
    pub fn new(format: Format) -> Self {
        let scaling = if format.bits() > 8 {
            Scaling::None
        } else {
            Scaling::Tensor
        };
        Self { format, scaling }
    }

    /// Parses `fp8e4m3`, or a named recipe: `mxfp8`, `mxfp6`, `mxfp4`, `nvfp4`.
    ///
    /// # Errors
    /// The message names what is valid.
    pub fn parse(s: &str) -> Result<Self, String> {
        let named = |format, scaling| Ok(Self { format, scaling });
        match s.trim().to_ascii_lowercase().as_str() {
            "mxfp8" => named(Format::E4m3, Scaling::MX),
            "mxfp6" => named(Format::E2m3, Scaling::MX),
            "mxfp4" => named(Format::E2m1, Scaling::MX),
            "nvfp4" => named(Format::E2m1, Scaling::NV),
            other => other
                .parse::<Format>()
                .map(Self::new)
                .map_err(|e| format!("{e}, or a recipe: mxfp8, mxfp6, mxfp4, nvfp4")),
        }
    }

    /// `FP4 E2M1, block of 16, E4M3 scale`.
    #[must_use]
    pub fn label(self) -> String {
        format!("{}, {}", self.format.label(), self.scaling.label())
    }
}

/// Parses a scaling id: `none`, `tensor`, `mx`, `nv`, or `b<size><scale>` (`b64e8m0`).
#[must_use]
pub fn parse_scaling(s: &str) -> Option<Scaling> {
    match s.trim() {
        "none" => Some(Scaling::None),
        "tensor" => Some(Scaling::Tensor),
        "mx" => Some(Scaling::MX),
        "nv" => Some(Scaling::NV),
        other => {
            let rest = other.strip_prefix('b')?;
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let size: u32 = rest[..digits].parse().ok()?;
            let scale = ScaleFormat::parse(&rest[digits..])?;
            (1..=Scaling::MAX_BLOCK)
                .contains(&size)
                .then_some(Scaling::Block { size, scale })
        }
    }
}

/// The id [`parse_scaling`] reads back.
#[must_use]
pub fn scaling_id(s: Scaling) -> String {
    match s {
        Scaling::None => "none".into(),
        Scaling::Tensor => "tensor".into(),
        s if s == Scaling::MX => "mx".into(),
        s if s == Scaling::NV => "nv".into(),
        Scaling::Block { size, scale } => format!("b{size}{}", scale.id()),
    }
}

/// Everything that decides a run; a link carries it and reproduces the run exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernelSpec {
    /// The kernel.
    pub kernel: Kernel,
    /// First dimension (see [`Kernel::dims`]).
    pub m: u32,
    /// Second dimension.
    pub n: u32,
    /// Third dimension.
    pub k: u32,
    /// Activations (A, Q, or the normalised rows).
    pub input: Operand,
    /// Weights (B, the norms' gamma and beta, or the attention tile's K and V: its KV cache).
    pub weight: Operand,
    /// What sums are kept in.
    pub acc: Accumulator,
    /// What the result is rounded to (8 bits and narrower with one FP32 tensor scale).
    pub output: Format,
    /// How inputs are drawn.
    pub dist: Distribution,
    /// Seed of the inputs and of stochastic rounding.
    pub seed: u64,
    /// Stochastic rounding instead of round-to-nearest-even.
    pub stochastic: bool,
    /// Clamp overflow to the largest value (otherwise infinity or NaN, OCP's other mode).
    pub saturate: bool,
}

impl Default for KernelSpec {
    fn default() -> Self {
        Self {
            kernel: Kernel::Gemm,
            m: 512,
            n: 512,
            k: 512,
            input: Operand::new(Format::Bf16),
            weight: Operand::new(Format::Bf16),
            acc: Accumulator::Fp32,
            output: Format::Fp32,
            dist: Distribution::Normal,
            seed: 1,
            stochastic: false,
            saturate: true,
        }
    }
}

/// Largest dimension accepted.
pub use crate::keys::MAX_KERNEL_DIM as MAX_DIM;
/// Largest tensor accepted, in elements (64 MiB of f32).
pub const MAX_ELEMENTS: u64 = 1 << 24;
/// Most multiply-adds one run may do (the reference doubles it).
pub const MAX_MACS: u64 = 1 << 33;

/// Nominal single-core rates for the time estimate shown before a run, deliberately modest
/// (a 2020 laptop core): the page uses them to warn before a long run, not to report speed.
const EST_FAST_MACS: f64 = 4e9;
const EST_SLOW_ADDS: f64 = 1.5e8;
const EST_REF_MACS: f64 = 1e9;
const EST_QUANT: f64 = 3e7;

impl KernelSpec {
    fn dims(&self) -> (usize, usize, usize) {
        (self.m as usize, self.n as usize, self.k as usize)
    }

    /// Multiply-adds of the kernel (and of its reference).
    #[must_use]
    pub fn macs(&self) -> u64 {
        let (m, n, k) = (u64::from(self.m), u64::from(self.n), u64::from(self.k));
        match self.kernel {
            Kernel::Gemm => m * n * k,
            Kernel::Attention => 2 * m * n * k,
            _ => m * n,
        }
    }

    /// Floating-point operations the kernel does, counting a multiply-add as two.
    #[must_use]
    pub fn flops(&self) -> f64 {
        let (m, n) = (f64::from(self.m), f64::from(self.n));
        match self.kernel {
            Kernel::Gemm | Kernel::Attention => {
                2.0 * self.macs() as f64
                    + if self.kernel == Kernel::Attention {
                        5.0 * m * n
                    } else {
                        0.0
                    }
            }
            Kernel::Softmax => 5.0 * m * n,
            Kernel::LayerNorm => 8.0 * m * n,
            Kernel::RmsNorm => 6.0 * m * n,
        }
    }

    /// The largest tensor the run holds, in elements.
    #[must_use]
    pub fn largest_tensor(&self) -> u64 {
        let (m, n, k) = (u64::from(self.m), u64::from(self.n), u64::from(self.k));
        match self.kernel {
            Kernel::Gemm => (m * k).max(n * k).max(m * n),
            Kernel::Attention => (m * n).max(n * k).max(m * k),
            _ => m * n,
        }
    }

    /// Refuses shapes that would run for minutes or allocate without bound.
    ///
    /// # Errors
    /// Names the dimension or size that is out of range.
    pub fn check(&self) -> Result<(), String> {
        let names = self.kernel.dims();
        let used = if matches!(self.kernel, Kernel::Gemm | Kernel::Attention) {
            3
        } else {
            2
        };
        for (v, name) in [self.m, self.n, self.k].iter().zip(names).take(used) {
            if !(1..=MAX_DIM).contains(v) {
                return Err(format!("{name} = {v} is outside 1 to {MAX_DIM}"));
            }
        }
        if self.largest_tensor() > MAX_ELEMENTS {
            return Err(format!(
                "a tensor of {} elements is over the {} limit (64 MiB of f32)",
                self.largest_tensor(),
                MAX_ELEMENTS
            ));
        }
        if self.macs() > MAX_MACS {
            return Err(format!(
                "{:.2e} multiply-adds is over the {:.1e} limit of one run",
                self.macs() as f64,
                MAX_MACS as f64
            ));
        }
        Ok(())
    }

    /// A rough time for the whole run (inputs, reference, kernel, compare) on one modest core,
    /// so the page can say a run will be long before it starts.
    #[must_use]
    pub fn estimate_seconds(&self) -> f64 {
        let macs = self.macs() as f64;
        let elements = 3.0 * self.largest_tensor() as f64;
        let kernel = match (self.kernel, self.acc) {
            (Kernel::Gemm | Kernel::Attention, Accumulator::Fp32) => macs / EST_FAST_MACS,
            (Kernel::Gemm | Kernel::Attention, _) => macs / EST_SLOW_ADDS,
            _ => elements / EST_QUANT,
        };
        kernel + macs / EST_REF_MACS + elements / EST_QUANT
    }

    /// The link's keys for what differs from the default, in a fixed order.
    #[must_use]
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let d = Self::default();
        let mut out = Vec::new();
        let mut put = |key, differs: bool, v: String| {
            if differs {
                out.push((key, v));
            }
        };
        put("kern", self.kernel != d.kernel, self.kernel.id().into());
        put("km", self.m != d.m, self.m.to_string());
        put("kn", self.n != d.n, self.n.to_string());
        put("kk", self.k != d.k, self.k.to_string());
        put(
            "kin",
            self.input.format != d.input.format,
            self.input.format.id().into(),
        );
        put(
            "kins",
            self.input.scaling != Operand::new(self.input.format).scaling,
            scaling_id(self.input.scaling),
        );
        put(
            "kw",
            self.weight.format != d.weight.format,
            self.weight.format.id().into(),
        );
        put(
            "kws",
            self.weight.scaling != Operand::new(self.weight.format).scaling,
            scaling_id(self.weight.scaling),
        );
        put("kacc", self.acc != d.acc, self.acc.id().into());
        put("kout", self.output != d.output, self.output.id().into());
        put("kdist", self.dist != d.dist, self.dist.id().into());
        put("kseed", self.seed != d.seed, self.seed.to_string());
        put(
            "ksr",
            self.stochastic != d.stochastic,
            u8::from(self.stochastic).to_string(),
        );
        put(
            "ksat",
            self.saturate != d.saturate,
            u8::from(self.saturate).to_string(),
        );
        out
    }

    /// Reads the link's kernel keys; anything unreadable keeps its default and adds a notice.
    /// Keys that are not the kernel's are ignored.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> (Self, Vec<String>) {
        let mut s = Self::default();
        let mut notes = Vec::new();
        let mut more = 0usize;
        let (mut ins, mut ws) = (None, None);
        for (key, v) in pairs {
            // A hostile link may repeat a bad key a million times: keep a few notes, count
            // the rest.
            let mut bad = |what: &str| {
                if notes.len() < crate::keys::MAX_NOTICES {
                    notes.push(format!("{key}={}: {what}", clip(v)));
                } else {
                    more += 1;
                }
            };
            let dim = |v: &str| v.parse::<u32>().ok().filter(|d| (1..=MAX_DIM).contains(d));
            match key {
                "kern" => match Kernel::parse(v) {
                    Some(k) => s.kernel = k,
                    None => bad("not a kernel (gemm, softmax, layernorm, rmsnorm, attention)"),
                },
                "km" | "kn" | "kk" => match dim(v) {
                    Some(d) if key == "km" => s.m = d,
                    Some(d) if key == "kn" => s.n = d,
                    Some(d) => s.k = d,
                    None => bad("not a whole number from 1 to 16384"),
                },
                "kin" | "kw" => match Operand::parse(v) {
                    Ok(o) if key == "kin" => s.input = o,
                    Ok(o) => s.weight = o,
                    Err(e) => bad(&e),
                },
                "kins" | "kws" => match parse_scaling(v) {
                    Some(sc) if key == "kins" => ins = Some(sc),
                    Some(sc) => ws = Some(sc),
                    None => bad("not a scaling (none, tensor, mx, nv, or b<size><e8m0|e4m3|fp32>)"),
                },
                "kacc" => match Accumulator::parse(v) {
                    Some(a) => s.acc = a,
                    None => bad("not an accumulator (fp32, bf16, fp16)"),
                },
                "kout" => match v.parse::<Format>() {
                    Ok(f) => s.output = f,
                    Err(e) => bad(&e.to_string()),
                },
                "kdist" => match Distribution::parse(v) {
                    Some(d) => s.dist = d,
                    None => bad("not a distribution (normal, uniform, outliers, llm)"),
                },
                "kseed" => match v.parse::<u64>() {
                    Ok(x) => s.seed = x,
                    Err(_) => bad("not a whole number"),
                },
                "ksr" | "ksat" => match v {
                    "0" | "1" if key == "ksr" => s.stochastic = v == "1",
                    "0" | "1" => s.saturate = v == "1",
                    _ => bad("not 0 or 1"),
                },
                _ => {}
            }
        }
        // A scaling applies to the operand's format, whichever key came first.
        if let Some(sc) = ins {
            s.input.scaling = sc;
        }
        if let Some(sc) = ws {
            s.weight.scaling = sc;
        }
        if let Err(e) = s.check() {
            notes.push(format!("{e}; the kernel's shape is back to its default"));
            (s.m, s.n, s.k) = (512, 512, 512);
        }
        if more > 0 {
            notes.push(format!(
                "kernel: {more} more settings could not be read either"
            ));
        }
        (s, notes)
    }

    /// What the run computes, in words, with every format named.
    #[must_use]
    pub fn formula(&self) -> String {
        let (m, n, k) = self.dims();
        let inp = self.input.label();
        let w = self.weight.label();
        let acc = self.acc.id().to_uppercase();
        let out = self.output.label();
        let round = if self.stochastic {
            "stochastic rounding"
        } else {
            "round-to-nearest-even"
        };
        let body = match self.kernel {
            Kernel::Gemm => format!(
                "C ({m}x{n}) = A ({m}x{k}, {inp}) x B ({k}x{n}, {w}); products summed in {acc} in K order"
            ),
            Kernel::Softmax => format!(
                "softmax over {n} columns of {m} rows ({inp}); exp in FP32, the row sum kept in {acc}"
            ),
            Kernel::LayerNorm => format!(
                "layer norm of {m} rows of {n} ({inp}), gamma and beta in {w}; mean and variance summed in {acc}"
            ),
            Kernel::RmsNorm => format!(
                "RMS norm of {m} rows of {n} ({inp}), gamma in {w}; the mean square summed in {acc}"
            ),
            Kernel::Attention => format!(
                "O = softmax(Q K^T / sqrt({k})) V for {m} queries ({inp}) and {n} keys; K and V (the KV cache) in {w}; P rounded to the input format; sums in {acc}"
            ),
        };
        format!(
            "{body}; output rounded to {out}; {round}; inputs {} (seed {}); error against f64 from the unrounded inputs",
            self.dist.label(),
            self.seed
        )
    }
}

/// At most 40 characters of an untrusted value, for a notice.
fn clip(v: &str) -> String {
    v.chars().take(40).collect()
}

/// Inputs drawn and rounded, and the reference result.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The spec this was prepared from.
    pub spec: KernelSpec,
    a: Vec<f32>,
    b: Vec<f32>,
    c: Vec<f32>,
    reference: Vec<f64>,
    /// What rounding did to each input tensor.
    pub quant: Vec<(&'static str, QuantStats)>,
}

/// The outcome of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelRun {
    /// Error of the output against the reference.
    pub error: ErrorStats,
    /// What rounding did to each input tensor, and to the output last.
    pub quant: Vec<(&'static str, QuantStats)>,
    /// Floating-point operations of the kernel.
    pub flops: f64,
    /// What was computed, in words.
    pub formula: String,
}

/// Draws the inputs, rounds them and computes the reference.
///
/// # Errors
/// The spec is out of range ([`KernelSpec::check`]).
#[inline]
pub fn prepare(spec: &KernelSpec) -> Result<Prepared, String> {
    spec.check()?;
    let (m, n, k) = spec.dims();
    let mut rng = Rng::new(spec.seed);
    let sr = |salt: u64| spec.stochastic.then_some(spec.seed ^ salt);
    let q = |x: &[f32], cols: usize, o: Operand, salt: u64| {
        quantize(x, cols, o.format, o.scaling, sr(salt), spec.saturate)
    };
    let weights = if spec.dist == Distribution::LlmActivation {
        Distribution::Normal
    } else {
        spec.dist
    };
    let p = match spec.kernel {
        Kernel::Gemm => {
            let a = spec.dist.sample(&mut rng, m, k);
            let bt = weights.sample(&mut rng, n, k);
            let reference = gemm::gemm_f64(&a, &bt, m, n, k);
            let (aq, sa) = q(&a, k, spec.input, 1);
            let (bq, sb) = q(&bt, k, spec.weight, 2);
            (
                aq,
                bq,
                Vec::new(),
                reference,
                alloc::vec![("A", sa), ("B", sb)],
            )
        }
        Kernel::Softmax => {
            let x = spec.dist.sample(&mut rng, m, n);
            let x64: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
            let reference = ops::softmax_f64(&x64, n);
            let (xq, sx) = q(&x, n, spec.input, 1);
            (
                xq,
                Vec::new(),
                Vec::new(),
                reference,
                alloc::vec![("x", sx)],
            )
        }
        Kernel::LayerNorm | Kernel::RmsNorm => {
            let rms = spec.kernel == Kernel::RmsNorm;
            let x = spec.dist.sample(&mut rng, m, n);
            let gamma: Vec<f32> = (0..n).map(|_| (1.0 + 0.1 * rng.normal()) as f32).collect();
            let beta: Vec<f32> = (0..n).map(|_| (0.1 * rng.normal()) as f32).collect();
            let wide = |v: &[f32]| v.iter().map(|&x| f64::from(x)).collect::<Vec<f64>>();
            let reference = ops::norm_f64(&wide(&x), n, &wide(&gamma), &wide(&beta), rms);
            let (xq, sx) = q(&x, n, spec.input, 1);
            let (gq, sg) = q(&gamma, n, spec.weight, 2);
            let (bq, sb) = q(&beta, n, spec.weight, 3);
            let mut quant = alloc::vec![("x", sx), ("gamma", sg)];
            if !rms {
                quant.push(("beta", sb));
            }
            (xq, gq, bq, reference, quant)
        }
        Kernel::Attention => {
            let qx = spec.dist.sample(&mut rng, m, k);
            let kx = spec.dist.sample(&mut rng, n, k);
            let vt = spec.dist.sample(&mut rng, k, n);
            let reference = ops::attention_f64(&qx, &kx, &vt, m, n, k);
            let (qq, sq) = q(&qx, k, spec.input, 1);
            let (kq, sk) = q(&kx, k, spec.weight, 2);
            let (vq, sv) = q(&vt, n, spec.weight, 3);
            (
                qq,
                kq,
                vq,
                reference,
                alloc::vec![("Q", sq), ("K", sk), ("V", sv)],
            )
        }
    };
    Ok(Prepared {
        spec: *spec,
        a: p.0,
        b: p.1,
        c: p.2,
        reference: p.3,
        quant: p.4,
    })
}

/// The kernel itself, on the rounded inputs: the part a speed figure times.
#[must_use]
#[inline]
pub fn execute(p: &Prepared) -> Vec<f32> {
    let s = &p.spec;
    let (m, n, k) = s.dims();
    match s.kernel {
        Kernel::Gemm => gemm::gemm_acc(&p.a, &p.b, m, n, k, s.acc),
        Kernel::Softmax => ops::softmax(&p.a, n, s.acc),
        Kernel::LayerNorm => ops::norm(&p.a, n, &p.b, &p.c, false, s.acc),
        Kernel::RmsNorm => ops::norm(&p.a, n, &p.b, &p.c, true, s.acc),
        Kernel::Attention => {
            let input = s.input;
            let round_p = |x: &[f32]| {
                let sr = s.stochastic.then_some(s.seed ^ 4);
                quantize(x, n, input.format, input.scaling, sr, s.saturate).0
            };
            ops::attention(&p.a, &p.b, &p.c, m, n, k, s.acc, &round_p)
        }
    }
}

/// Rounds the kernel's output to the output format and measures its error.
#[must_use]
#[inline]
pub fn finish(p: &Prepared, raw: &[f32]) -> KernelRun {
    let s = &p.spec;
    let cols = match s.kernel {
        Kernel::Attention => s.k as usize,
        _ => s.n as usize,
    };
    let scaling = Operand::new(s.output).scaling;
    let sr = s.stochastic.then_some(s.seed ^ 5);
    let (y, sy) = quantize(raw, cols, s.output, scaling, sr, s.saturate);
    let mut quant = p.quant.clone();
    quant.push(("output", sy));
    KernelRun {
        error: ErrorStats::compare(&y, &p.reference),
        quant,
        flops: s.flops(),
        formula: s.formula(),
    }
}

/// All three phases at once.
///
/// # Errors
/// The spec is out of range.
pub fn run(spec: &KernelSpec) -> Result<KernelRun, String> {
    let p = prepare(spec)?;
    let raw = execute(&p);
    Ok(finish(&p, &raw))
}

/// A scenario file holds the spec as its link form (`kern=softmax&km=64`), so the JSON stays
/// readable and one parser checks both.
#[cfg(feature = "serde")]
impl serde::Serialize for KernelSpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let q: Vec<String> = self
            .to_pairs()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        s.serialize_str(&q.join("&"))
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for KernelSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let q = String::deserialize(d)?;
        let (spec, notes) = Self::from_pairs(
            q.split('&')
                .filter(|p| !p.is_empty())
                .map(|p| p.split_once('=').unwrap_or((p, ""))),
        );
        match notes.first() {
            None => Ok(spec),
            Some(n) => Err(serde::de::Error::custom(n)),
        }
    }
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

#[cfg(test)]
mod tests;
