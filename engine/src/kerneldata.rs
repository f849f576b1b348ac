//! Kernel tables: kernel timings measured on each chip and published (NVIDIA's aiconfigurator
//! for TensorRT-LLM on H100 to GB300, AMD's AITER tuning results on MI300X- and MI355X-class
//! GPUs), distilled into small tables kept as text in `engine/data/kernels/`, each with its
//! source, commit, license and what was measured. A table is a few shapes of one kernel in
//! one format on one chip; between its shapes a time is interpolated, and never past the
//! chip's roofline. Every figure is as published; none is fitted to an end-to-end run.

use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::chip::Chip;
use crate::dtype::Dtype;

/// Every table by its file's name (`chip_op_format`) and text, as committed.
macro_rules! tables {
    ($($name:literal),* $(,)?) => {
        [$(($name, include_str!(concat!("../data/kernels/", $name, ".csv")))),*]
    };
}
const TEXTS: [(&str, &str); FILES] = tables!(
    "b200_attention-decode_bf16",
    "b200_attention-decode_fp8kv",
    "b200_attention-prefill_bf16",
    "b200_gemm_bf16",
    "b200_gemm_fp8",
    "b200_gemm_nvfp4",
    "b200_grouped-gemm_fp8-block",
    "b200_grouped-gemm_fp8-block_2048x768e128k8",
    "b200_grouped-gemm_fp8-block_4096x14336e8k2",
    "b200_grouped-gemm_fp8-block_4096x1536e128k8",
    "b200_grouped-gemm_fp8-block_5120x8192e128k1",
    "b200_grouped-gemm_fp8-block_5120x8192e16k1",
    "b200_grouped-gemm_fp8-block_7168x2048e384k8",
    "b200_grouped-gemm_mxfp4-w4a16",
    "b200_grouped-gemm_mxfp4-w4a16_2880x2880e32k4",
    "b200_grouped-gemm_nvfp4",
    "b200_grouped-gemm_nvfp4_2048x768e128k8",
    "b200_grouped-gemm_nvfp4_4096x14336e8k2",
    "b200_grouped-gemm_nvfp4_4096x1536e128k8",
    "b200_grouped-gemm_nvfp4_5120x8192e128k1",
    "b200_grouped-gemm_nvfp4_5120x8192e16k1",
    "b200_grouped-gemm_nvfp4_7168x2048e384k8",
    "b200_mla-decode_bf16",
    "b200_mla-decode_fp8kv",
    "b200_mla-prefill_bf16",
    "b300_attention-decode_bf16",
    "b300_attention-decode_fp8kv",
    "b300_attention-prefill_bf16",
    "b300_gemm_bf16",
    "b300_gemm_fp8",
    "b300_gemm_nvfp4",
    "b300_grouped-gemm_fp8-block",
    "b300_grouped-gemm_fp8-block_2048x768e128k8",
    "b300_grouped-gemm_fp8-block_4096x14336e8k2",
    "b300_grouped-gemm_fp8-block_4096x1536e128k8",
    "b300_grouped-gemm_fp8-block_5120x8192e128k1",
    "b300_grouped-gemm_fp8-block_5120x8192e16k1",
    "b300_grouped-gemm_fp8-block_7168x2048e384k8",
    "b300_grouped-gemm_mxfp4-w4a16",
    "b300_grouped-gemm_mxfp4-w4a16_2880x2880e32k4",
    "b300_grouped-gemm_nvfp4",
    "b300_grouped-gemm_nvfp4_2048x768e128k8",
    "b300_grouped-gemm_nvfp4_4096x14336e8k2",
    "b300_grouped-gemm_nvfp4_4096x1536e128k8",
    "b300_grouped-gemm_nvfp4_5120x8192e128k1",
    "b300_grouped-gemm_nvfp4_5120x8192e16k1",
    "b300_grouped-gemm_nvfp4_7168x2048e384k8",
    "b300_mla-decode_bf16",
    "b300_mla-decode_fp8kv",
    "b300_mla-prefill_bf16",
    "gb200_attention-decode_bf16",
    "gb200_attention-decode_fp8kv",
    "gb200_attention-prefill_bf16",
    "gb200_gemm_bf16",
    "gb200_gemm_fp8",
    "gb200_gemm_nvfp4",
    "gb200_grouped-gemm_fp8-block",
    "gb200_grouped-gemm_fp8-block_2048x768e128k8",
    "gb200_grouped-gemm_fp8-block_4096x14336e8k2",
    "gb200_grouped-gemm_fp8-block_4096x1536e128k8",
    "gb200_grouped-gemm_fp8-block_5120x8192e128k1",
    "gb200_grouped-gemm_fp8-block_5120x8192e16k1",
    "gb200_grouped-gemm_fp8-block_7168x2048e384k8",
    "gb200_grouped-gemm_mxfp4-w4a16",
    "gb200_grouped-gemm_mxfp4-w4a16_2880x2880e32k4",
    "gb200_grouped-gemm_nvfp4",
    "gb200_grouped-gemm_nvfp4_2048x768e128k8",
    "gb200_grouped-gemm_nvfp4_4096x14336e8k2",
    "gb200_grouped-gemm_nvfp4_4096x1536e128k8",
    "gb200_grouped-gemm_nvfp4_5120x8192e128k1",
    "gb200_grouped-gemm_nvfp4_5120x8192e16k1",
    "gb200_grouped-gemm_nvfp4_7168x2048e384k8",
    "gb200_mla-decode_bf16",
    "gb200_mla-decode_fp8kv",
    "gb200_mla-prefill_bf16",
    "gb300_attention-decode_bf16",
    "gb300_attention-decode_fp8kv",
    "gb300_attention-prefill_bf16",
    "gb300_gemm_bf16",
    "gb300_gemm_fp8",
    "gb300_gemm_nvfp4",
    "gb300_grouped-gemm_fp8-block",
    "gb300_grouped-gemm_fp8-block_2048x768e128k8",
    "gb300_grouped-gemm_fp8-block_4096x14336e8k2",
    "gb300_grouped-gemm_fp8-block_4096x1536e128k8",
    "gb300_grouped-gemm_fp8-block_5120x8192e128k1",
    "gb300_grouped-gemm_fp8-block_5120x8192e16k1",
    "gb300_grouped-gemm_fp8-block_7168x2048e384k8",
    "gb300_grouped-gemm_mxfp4-w4a16",
    "gb300_grouped-gemm_mxfp4-w4a16_2880x2880e32k4",
    "gb300_grouped-gemm_nvfp4",
    "gb300_grouped-gemm_nvfp4_2048x768e128k8",
    "gb300_grouped-gemm_nvfp4_4096x14336e8k2",
    "gb300_grouped-gemm_nvfp4_4096x1536e128k8",
    "gb300_grouped-gemm_nvfp4_5120x8192e128k1",
    "gb300_grouped-gemm_nvfp4_5120x8192e16k1",
    "gb300_grouped-gemm_nvfp4_7168x2048e384k8",
    "gb300_mla-decode_bf16",
    "gb300_mla-decode_fp8kv",
    "gb300_mla-prefill_bf16",
    "h100-sxm_attention-decode_bf16",
    "h100-sxm_attention-decode_fp8kv",
    "h100-sxm_attention-prefill_bf16",
    "h100-sxm_gemm_bf16",
    "h100-sxm_gemm_fp8",
    "h100-sxm_grouped-gemm_fp8-block",
    "h100-sxm_grouped-gemm_fp8-block_2048x768e128k8",
    "h100-sxm_grouped-gemm_fp8-block_4096x14336e8k2",
    "h100-sxm_grouped-gemm_fp8-block_4096x1536e128k8",
    "h100-sxm_grouped-gemm_fp8-block_5120x8192e128k1",
    "h100-sxm_grouped-gemm_fp8-block_5120x8192e16k1",
    "h100-sxm_grouped-gemm_fp8-block_7168x2048e384k8",
    "h100-sxm_grouped-gemm_mxfp4-w4a16",
    "h100-sxm_grouped-gemm_mxfp4-w4a16_2880x2880e32k4",
    "h100-sxm_mla-decode_bf16",
    "h100-sxm_mla-decode_fp8kv",
    "h100-sxm_mla-prefill_bf16",
    "h200_attention-decode_bf16",
    "h200_attention-decode_fp8kv",
    "h200_attention-prefill_bf16",
    "h200_gemm_bf16",
    "h200_gemm_fp8",
    "h200_grouped-gemm_fp8-block",
    "h200_grouped-gemm_fp8-block_2048x768e128k8",
    "h200_grouped-gemm_fp8-block_4096x14336e8k2",
    "h200_grouped-gemm_fp8-block_4096x1536e128k8",
    "h200_grouped-gemm_fp8-block_5120x8192e128k1",
    "h200_grouped-gemm_fp8-block_5120x8192e16k1",
    "h200_grouped-gemm_fp8-block_7168x2048e384k8",
    "h200_grouped-gemm_mxfp4-w4a16",
    "h200_grouped-gemm_mxfp4-w4a16_2880x2880e32k4",
    "h200_mla-decode_bf16",
    "h200_mla-decode_fp8kv",
    "h200_mla-prefill_bf16",
    "mi300x_gemm_fp8-block",
    "mi300x_grouped-gemm_fp8-block",
    "mi355x_gemm_bf16",
    "mi355x_gemm_fp8-block",
    "mi355x_gemm_mxfp4",
    "mi355x_grouped-gemm_fp8-block",
    "mi355x_grouped-gemm_mxfp4-w4a16",
    "tpu-v7_gemm_bf16",
    "trn2_gemm_bf16",
);
const FILES: usize = 143;

/// What a table times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelOp {
    /// A dense GEMM: `m` tokens × `k` → `n`.
    Gemm,
    /// A mixture-of-experts layer's grouped GEMMs on one rank: `tokens` into experts of
    /// `hidden` → `inter` and back.
    GroupedGemm,
    /// Attention over a prompt (prefill) of `seq` tokens, `batch` prompts, `heads` heads.
    AttentionPrefill,
    /// One decode step's attention over a context of `seq` tokens for `batch` sequences.
    AttentionDecode,
    /// Latent attention (DeepSeek's MLA) over a prompt.
    MlaPrefill,
    /// Latent attention for one decode step.
    MlaDecode,
}

impl KernelOp {
    /// Every op, in the order tables list them.
    pub const ALL: [KernelOp; 6] = [
        KernelOp::Gemm,
        KernelOp::GroupedGemm,
        KernelOp::AttentionPrefill,
        KernelOp::AttentionDecode,
        KernelOp::MlaPrefill,
        KernelOp::MlaDecode,
    ];
    /// Id as the tables and the CLI write it.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            KernelOp::Gemm => "gemm",
            KernelOp::GroupedGemm => "grouped-gemm",
            KernelOp::AttentionPrefill => "attention-prefill",
            KernelOp::AttentionDecode => "attention-decode",
            KernelOp::MlaPrefill => "mla-prefill",
            KernelOp::MlaDecode => "mla-decode",
        }
    }
    /// The op named `id`.
    #[must_use]
    pub fn parse(id: &str) -> Option<KernelOp> {
        KernelOp::ALL.into_iter().find(|o| o.id() == id)
    }
}

/// One table: measured times of one kernel in one format on one chip.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelTable {
    /// Catalog chip id (an AMD table stands for its architecture's pair: MI300X and MI325X,
    /// MI355X and MI350X).
    pub chip: String,
    /// What it times.
    pub op: KernelOp,
    /// The number format as its source names it (`bf16`, `fp8`, `nvfp4`, `fp8-block`,
    /// `mxfp4`, `mxfp4-w4a16`).
    pub format: String,
    /// The shape held fixed (heads, experts, routing) in words.
    pub shape: String,
    /// What the three size columns are (`m,n,k`; `tokens,hidden,inter`; `batch,seq,heads`).
    pub dims: [String; 3],
    /// Where it is published, in words.
    pub source: String,
    /// The file it is read from, at its commit.
    pub url: String,
    /// Its license.
    pub license: String,
    /// Whether its times were measured on the chip (`measured`) or worked out by a model of
    /// it (`modelled`: Trainium's, by the NeuronCore simulator, where nothing measured is
    /// published).
    pub kind: String,
    /// When it was committed or measured.
    pub date: String,
    /// The shape held fixed, as numbers by name (`experts`, `topk`, `local` for grouped
    /// experts; `q_heads`, `kv_heads`, `head_dim`, `kv_bytes` for attention; `heads`,
    /// `latent`, `kv_bytes` for latent attention); empty for a GEMM.
    pub fixed: Vec<(String, f64)>,
    /// The measured points: three sizes and seconds.
    pub points: Vec<[f64; 4]>,
}

/// A table that does not read, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError(pub String);

impl core::fmt::Display for TableError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl core::error::Error for TableError {}

/// Reads one table's text: `# key: value` lines, then a header and rows of three sizes and
/// seconds.
///
/// # Errors
/// A missing key, an unknown op, or a row that is not four positive numbers.
pub fn parse(text: &str) -> Result<KernelTable, TableError> {
    let bad = |why: String| TableError(why);
    let key = |k: &str| -> Result<String, TableError> {
        text.lines()
            .find_map(|l| l.strip_prefix("# ")?.strip_prefix(k)?.strip_prefix(": "))
            .map(|v| v.trim().to_string())
            .ok_or_else(|| bad(alloc::format!("no '# {k}:' line")))
    };
    let op = key("kernel")?;
    let op = KernelOp::parse(&op).ok_or_else(|| bad(alloc::format!("unknown kernel '{op}'")))?;
    let dims_line = key("dims")?;
    let dims: Vec<String> = dims_line.split(',').map(|d| d.trim().to_string()).collect();
    let [a, b, c] = <[String; 3]>::try_from(dims)
        .map_err(|_| bad(alloc::format!("dims '{dims_line}' are not three")))?;
    let mut points = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let v: Vec<f64> = line
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| bad(alloc::format!("row '{line}' is not numbers")))?;
        match <[f64; 4]>::try_from(v) {
            Ok(p) if p.iter().all(|x| x.is_finite() && *x > 0.0) => points.push(p),
            _ => {
                return Err(bad(alloc::format!(
                    "row '{line}' is not four positive numbers"
                )))
            }
        }
    }
    if points.is_empty() {
        return Err(bad("no rows".into()));
    }
    let mut fixed = Vec::new();
    if let Ok(line) = key("fixed") {
        for kv in line.split(',') {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| bad(alloc::format!("fixed '{kv}' is not name=value")))?;
            let v: f64 = v
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite() && *v > 0.0)
                .ok_or_else(|| bad(alloc::format!("fixed '{kv}' is not a positive number")))?;
            fixed.push((k.trim().to_string(), v));
        }
    }
    let kind = key("kind").unwrap_or_else(|_| "measured".to_string());
    if !matches!(kind.as_str(), "measured" | "modelled") {
        return Err(bad(alloc::format!(
            "kind '{kind}' is neither measured nor modelled"
        )));
    }
    Ok(KernelTable {
        kind,
        fixed,
        chip: key("chip")?,
        op,
        format: key("format")?,
        shape: key("shape")?,
        dims: [a, b, c],
        source: key("source")?,
        url: key("url")?,
        license: key("license")?,
        date: key("date")?,
        points,
    })
}

/// Every table, in file order.
#[must_use]
pub fn tables() -> Vec<KernelTable> {
    TEXTS.iter().filter_map(|t| parse(t.1).ok()).collect()
}

/// The chip whose tables stand for `chip`: AMD's tables are measured on one chip of each
/// architecture's pair (MI300X for MI325X, MI355X for MI350X).
#[must_use]
pub fn table_chip(chip: &str) -> &str {
    match chip {
        "mi325x" => "mi300x",
        "mi350x" => "mi355x",
        c => c,
    }
}

/// Table `i` of [`TEXTS`], read. With `std` each is read once, when first asked for (the
/// tables are constants, so reading one again would give the same): a job on one chip reads
/// that chip's few tables, not all of them.
fn table(i: usize) -> Option<Arc<KernelTable>> {
    #[cfg(feature = "std")]
    {
        static TABLES: [std::sync::OnceLock<Option<Arc<KernelTable>>>; FILES] =
            [const { std::sync::OnceLock::new() }; FILES];
        TABLES[i]
            .get_or_init(|| parse(TEXTS[i].1).ok().map(Arc::new))
            .clone()
    }
    #[cfg(not(feature = "std"))]
    parse(TEXTS[i].1).ok().map(Arc::new)
}

/// The table of `op` in `format` for `chip` (or the chip it stands for).
#[must_use]
pub fn find(chip: &str, op: KernelOp, format: &str) -> Option<Arc<KernelTable>> {
    let chip = table_chip(chip);
    let name = alloc::format!("{chip}_{}_{format}", op.id());
    table(TEXTS.iter().position(|(n, _)| *n == name)?)
}

/// Every table of `op` in `format` for `chip` (or the chip it stands for): the one named
/// `chip_op_format` and those named `chip_op_format_shape`, measured at other shapes (a
/// grouped-expert kernel at each model's own experts).
#[must_use]
pub fn find_all(chip: &str, op: KernelOp, format: &str) -> Vec<Arc<KernelTable>> {
    let chip = table_chip(chip);
    let name = alloc::format!("{chip}_{}_{format}", op.id());
    TEXTS
        .iter()
        .enumerate()
        .filter(|(_, (n, _))| {
            n.strip_prefix(name.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('_'))
        })
        .filter_map(|(i, _)| table(i))
        .collect()
}

/// The catalog format a table's format is timed against: NVFP4 and MXFP4 as FP4, FP8 with
/// block scales as FP8; MXFP4 weights with BF16 activations compute in BF16.
#[must_use]
pub fn compute_dtype(format: &str) -> Option<Dtype> {
    match format {
        "bf16" | "mxfp4-w4a16" | "fp8kv" => Some(Dtype::Bf16),
        "fp8" | "fp8-block" => Some(Dtype::Fp8),
        "nvfp4" | "mxfp4" => Some(Dtype::Fp4),
        _ => None,
    }
}

/// Linear interpolation of `y` at `x` in log-log space between sorted `(x, y)` points; below
/// the first point its `y`, above the last `y` scaled by `x` (the last point's rate held).
fn loglog(points: &[(f64, f64)], x: f64) -> f64 {
    let (first, last) = (points[0], points[points.len() - 1]);
    if x <= first.0 {
        return first.1;
    }
    if x >= last.0 {
        return last.1 * x / last.0;
    }
    let i = points
        .iter()
        .position(|p| p.0 >= x)
        .unwrap_or(points.len() - 1);
    let (a, b) = (points[i - 1], points[i]);
    let t = (libm::log(x) - libm::log(a.0)) / (libm::log(b.0) - libm::log(a.0));
    libm::exp(libm::log(a.1) + t * (libm::log(b.1) - libm::log(a.1)))
}

impl KernelTable {
    /// The fixed number named `name`, if the table gives it.
    #[must_use]
    pub fn fixed(&self, name: &str) -> Option<f64> {
        self.fixed.iter().find(|f| f.0 == name).map(|f| f.1)
    }

    /// A time along two of the table's sizes (the first, `a`, and the second, `b`; the
    /// third held as measured): along `b` on each measured `a` (log-log, past the last its
    /// rate held), then along `a` between those (log-log, past the last its rate held).
    #[must_use]
    pub fn seconds_2d(&self, a: f64, b: f64) -> Option<f64> {
        if !(a > 0.0 && b > 0.0) {
            return None;
        }
        let mut firsts: Vec<f64> = self.points.iter().map(|p| p[0]).collect();
        firsts.sort_by(f64::total_cmp);
        firsts.dedup();
        let along: Vec<(f64, f64)> = firsts
            .iter()
            .filter_map(|&x| {
                let mut on: Vec<(f64, f64)> = self
                    .points
                    .iter()
                    .filter(|p| p[0] == x)
                    .map(|p| (p[1], p[3]))
                    .collect();
                on.sort_by(|p, q| p.0.total_cmp(&q.0));
                (on.len() >= 2 || firsts.len() == 1).then(|| (x, loglog(&on, b)))
            })
            .collect();
        (!along.is_empty()).then(|| loglog(&along, a))
    }

    /// A time along the first size alone (tokens for grouped experts), log-log between the
    /// measured points and past the last its rate held.
    #[must_use]
    pub fn seconds_1d(&self, a: f64) -> Option<f64> {
        let mut on: Vec<(f64, f64)> = self.points.iter().map(|p| (p[0], p[3])).collect();
        on.sort_by(|p, q| p.0.total_cmp(&q.0));
        on.dedup_by(|p, q| p.0 == q.0);
        (a > 0.0).then(|| loglog(&on, a))
    }

    /// A GEMM's time from the table (a GEMM table only): along `m` on a measured (N, K) shape
    /// (log-log; past the last M its rate held), and for another shape between the measured
    /// ones by their weights' size `n × k` (the time per weight element, log-log), holding
    /// the nearest shape's beyond them. At a measured point, its measured time. `None` below
    /// the fewest rows any shape was measured at.
    #[must_use]
    pub fn gemm_seconds(&self, m: f64, n: f64, k: f64) -> Option<f64> {
        if self.op != KernelOp::Gemm || !(m >= 1.0 && n >= 1.0 && k >= 1.0) {
            return None;
        }
        // The shapes measured at `m` rows or fewer: below a shape's fewest rows nothing
        // says how its time falls, so it is not used there (and with no shape left, neither
        // is the table).
        let mut shapes: Vec<(f64, f64)> = Vec::new();
        for p in &self.points {
            if p[0] <= m && !shapes.iter().any(|s| s.0 == p[1] && s.1 == p[2]) {
                shapes.push((p[1], p[2]));
            }
        }
        if shapes.is_empty() {
            return None;
        }
        // A shape's time at `m`, along its measured M.
        let on = |sn: f64, sk: f64| {
            let mut along: Vec<(f64, f64)> = self
                .points
                .iter()
                .filter(|p| p[1] == sn && p[2] == sk)
                .map(|p| (p[0], p[3]))
                .collect();
            along.sort_by(|a, b| a.0.total_cmp(&b.0));
            loglog(&along, m)
        };
        if shapes.contains(&(n, k)) {
            return Some(on(n, k));
        }
        // Else the time per weight element at `m` on each shape, by the shape's weight size.
        let mut per: Vec<(f64, f64)> = shapes
            .iter()
            .map(|&(sn, sk)| (sn * sk, on(sn, sk) / (sn * sk)))
            .collect();
        per.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Shapes of one weight size (8,192 × 16,384 both ways) average.
        let mut merged: Vec<(f64, f64, f64)> = Vec::new();
        for (w, u) in per {
            match merged.last_mut() {
                Some(last) if last.0 == w => {
                    last.1 += u;
                    last.2 += 1.0;
                }
                _ => merged.push((w, u, 1.0)),
            }
        }
        let along: Vec<(f64, f64)> = merged.iter().map(|m| (m.0, m.1 / m.2)).collect();
        let w = n * k;
        let (first, last) = (along[0], along[along.len() - 1]);
        let u = if w <= first.0 {
            first.1
        } else if w >= last.0 {
            last.1
        } else {
            loglog(&along, w)
        };
        Some(u * w)
    }
}

/// The roofline's floor for a GEMM on `chip` in `dtype`: its FLOPs at the dense peak, or its
/// operands read and result written at the memory bandwidth, whichever is longer (operands
/// of the format's width, the result in BF16).
#[must_use]
pub fn gemm_floor(chip: &Chip, dtype: Dtype, m: f64, n: f64, k: f64) -> Option<f64> {
    let peak = chip.dense(dtype)?.get();
    let width = f64::from(dtype.bits()) / 8.0;
    let bytes = (m * k + k * n) * width + m * n * 2.0;
    Some((2.0 * m * n * k / peak).max(bytes / chip.hbm_bandwidth.value.get()))
}

/// The time of a GEMM on `chip` from its table in `format`, never below the roofline's floor
/// ([`gemm_floor`]); `None` where the chip has no such table.
#[must_use]
pub fn gemm_time(
    chip: &Chip,
    format: &str,
    m: f64,
    n: f64,
    k: f64,
) -> Option<(f64, Arc<KernelTable>)> {
    let table = find(&chip.id, KernelOp::Gemm, format)?;
    let t = table.gemm_seconds(m, n, k)?;
    let floor = compute_dtype(format).and_then(|d| gemm_floor(chip, d, m, n, k));
    Some((floor.map_or(t, |f| t.max(f)), table))
}

#[cfg(test)]
mod tests;
