//! `accelscope kernel`: the Kernels page's runs, natively, with their speed.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Instant;

use engine::kernels::{self, stream::Stream, Distribution, KernelRun, KernelSpec, Rng};
use serde_json::{json, Value};

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::parse::Check;
use crate::report::{finite, Format, Report};

/// Run a kernel in a number format: error against f64 and native speed
///
/// Runs a kernel with its inputs rounded to a number format: its error against f64 and its
/// native speed (one thread). `kernel bench` instead times this machine's f32 GEMM (GFLOP/s)
/// and STREAM (GB/s), one thread.
///
/// The shape, formats, scales, distribution and seed are the Kernels page's link keys
/// (km, kn, kk, kin, kw, kins, kws, kacc, kout, kdist, kseed), checked as a link's are.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// gemm, softmax, layernorm, rmsnorm, attention, or bench
    #[arg(value_name = "KERNEL")]
    name: String,
    /// Rows (M)
    #[arg(long, value_name = "M", allow_hyphen_values = true)]
    m: Option<String>,
    /// Columns (N)
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    n: Option<String>,
    /// Reduction length (K)
    #[arg(long, value_name = "K", allow_hyphen_values = true)]
    k: Option<String>,
    /// The input's format: fp32, tf32, bf16, fp16, fp8e4m3, fp8e5m2, fp6e3m2, fp6e2m3,
    /// fp4e2m1, int8, or a recipe: mxfp8, mxfp6, mxfp4, nvfp4
    #[arg(long = "in", value_name = "F")]
    input: Option<String>,
    /// The weights' format, as --in (default: --in's)
    #[arg(long, value_name = "F")]
    w: Option<String>,
    /// The input's scaling: none, tensor, mx, nv, or b<size><e8m0|e4m3|fp32> (a block size and
    /// the scale's format)
    #[arg(long, value_name = "S")]
    in_scale: Option<String>,
    /// The weights' scaling, as --in-scale
    #[arg(long, value_name = "S")]
    w_scale: Option<String>,
    /// The accumulator: fp32, bf16 or fp16
    #[arg(long, value_name = "F")]
    acc: Option<String>,
    /// The output's format
    #[arg(long, value_name = "F")]
    out: Option<String>,
    /// The inputs' distribution: normal, uniform, outliers, llm
    #[arg(long, value_name = "D")]
    dist: Option<String>,
    /// The random seed
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    seed: Option<String>,
    /// Stochastic rounding
    #[arg(long)]
    stochastic: bool,
    /// Overflow to infinity rather than saturating at the largest finite value
    #[arg(long)]
    no_saturate: bool,
    /// Runs to time, the best one kept, 1 to 100
    #[arg(long, value_name = "R", default_value_t = 1, allow_hyphen_values = true,
          value_parser = whole(1, 100, "--repeat is a whole number from 1 to 100"))]
    repeat: usize,
    /// bench: the GEMM's M = N = K, 16 to 4096
    #[arg(long, value_name = "N", default_value_t = 512, allow_hyphen_values = true,
          value_parser = whole(16, 4096, "--size is the GEMM's M = N = K, a whole number from 16 to 4096"))]
    size: usize,
    #[command(flatten)]
    json: Json,
}

/// A whole number from `lo` to `hi`, or `why`.
fn whole(
    lo: usize,
    hi: usize,
    why: &'static str,
) -> Check<impl Fn(&str, &str) -> Result<usize, String> + Clone> {
    Check(move |_: &str, x: &str| {
        x.parse::<usize>()
            .ok()
            .filter(|n| (lo..=hi).contains(n))
            .ok_or_else(|| why.to_string())
    })
}

/// The best time of `reps` runs of `f`, s.
fn best_of(reps: usize, f: &mut dyn FnMut() -> f32) -> f64 {
    let mut best = f64::INFINITY;
    let mut sink = 0.0f32;
    for _ in 0..reps.max(1) {
        let t = Instant::now();
        sink += f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    std::hint::black_box(sink);
    best
}

/// What `kernel` prints: this machine's speed, or one kernel's run.
pub enum KernelReport {
    Bench(Bench),
    Run(Timed),
}

/// This machine's f32 GEMM and STREAM speeds, one thread.
pub struct Bench {
    size: usize,
    gflops: f64,
    /// `<kernel>_gb_per_s`: GB/s.
    streams: BTreeMap<String, f64>,
}

/// A kernel's run and its best time.
pub struct Timed {
    spec: KernelSpec,
    r: KernelRun,
    secs: f64,
}

impl Run for Args {
    type Output = KernelReport;
    fn run(&self) -> Result<KernelReport, Error> {
        if self.name == "bench" {
            return Ok(KernelReport::Bench(bench(self.size)));
        }
        let mut pairs: Vec<(&str, &str)> = vec![("kern", &self.name)];
        for (value, key) in [
            (&self.m, "km"),
            (&self.n, "kn"),
            (&self.k, "kk"),
            (&self.input, "kin"),
            (&self.w, "kw"),
            (&self.in_scale, "kins"),
            (&self.w_scale, "kws"),
            (&self.acc, "kacc"),
            (&self.out, "kout"),
            (&self.dist, "kdist"),
            (&self.seed, "kseed"),
        ] {
            if let Some(v) = value {
                pairs.push((key, v));
            }
        }
        // Weights default to the input's format unless given.
        if let (None, Some(v)) = (&self.w, &self.input) {
            pairs.push(("kw", v));
        }
        if self.stochastic {
            pairs.push(("ksr", "1"));
        }
        if self.no_saturate {
            pairs.push(("ksat", "0"));
        }
        let (spec, notes) = KernelSpec::from_pairs(pairs);
        if !notes.is_empty() {
            return Err(Error::usage(notes.join("; ")));
        }
        let prepared = kernels::prepare(&spec).map_err(Error::usage)?;
        let mut raw = Vec::new();
        let secs = best_of(self.repeat, &mut || {
            raw = kernels::execute(&prepared);
            raw.first().copied().unwrap_or(0.0)
        });
        let r = kernels::finish(&prepared, &raw);
        Ok(KernelReport::Run(Timed { spec, r, secs }))
    }
    fn format(&self) -> Format {
        self.json.format()
    }
}

/// Times an f32 GEMM of `size`³ and the STREAM kernels.
fn bench(size: usize) -> Bench {
    let mut rng = Rng::new(1);
    let x = Distribution::Normal.sample(&mut rng, size, size);
    let y = Distribution::Normal.sample(&mut rng, size, size);
    let t = best_of(3, &mut || {
        kernels::gemm::gemm_f32(&x, &y, size, size, size)[0]
    });
    let gflops = 2.0 * (size as f64).powi(3) / t / 1e9;
    // 32 MiB per array: well past any core's caches.
    let len = 8 << 20;
    let (mut p, q, r) = (vec![1.0f32; len], vec![2.0f32; len], vec![3.0f32; len]);
    let mut streams = BTreeMap::new();
    for k in Stream::ALL {
        let t = best_of(5, &mut || k.run(&mut p, &q, &r, 0.5));
        streams.insert(
            format!("{}_gb_per_s", k.id()),
            (k.bytes_per_element() * len) as f64 / t / 1e9,
        );
    }
    Bench {
        size,
        gflops,
        streams,
    }
}

impl Report for KernelReport {
    fn json(&self) -> serde_json::Result<Value> {
        match self {
            KernelReport::Bench(b) => Ok(json!({
                "gemm_size": b.size, "gemm_f32_gflop_per_s": b.gflops, "stream": b.streams, "threads": 1
            })),
            KernelReport::Run(t) => Ok(t.json()),
        }
    }

    fn text(&self) -> Option<String> {
        match self {
            KernelReport::Bench(b) => {
                let mut s = format!(
                    "f32 GEMM {}^3: {:.1} GFLOP/s (one thread)\n",
                    b.size, b.gflops
                );
                for (k, v) in &b.streams {
                    let _ = writeln!(s, "{:<18} {:.1}", k.replace("_gb_per_s", " GB/s"), v);
                }
                Some(s.trim_end().into())
            }
            KernelReport::Run(t) => {
                let (r, e, secs) = (&t.r, &t.r.error, t.secs);
                Some(format!(
                    "{}\nSNR {:.2} dB; |error| max {:.3e}, mean {:.3e}; relative max {:.3e}, mean {:.3e} (rms of the reference {:.3e})\n{} exact, {} not finite of {}; kernel {:.3} ms, {:.2} GFLOP/s (one thread)",
                    r.formula, e.snr_db, e.max_abs, e.mean_abs, e.max_rel, e.mean_rel, e.rms_ref,
                    e.exact, e.non_finite, e.count, secs * 1e3, r.flops / secs / 1e9
                ))
            }
        }
    }
}

impl Timed {
    fn json(&self) -> Value {
        let (spec, r, secs) = (&self.spec, &self.r, self.secs);
        let e = &r.error;
        let quant: serde_json::Map<String, Value> = r
            .quant
            .iter()
            .map(|(t, q)| {
                (
                    t.to_string(),
                    json!({ "clipped": q.clipped, "flushed": q.flushed, "nan": q.nan }),
                )
            })
            .collect();
        json!({
            "kernel": spec.kernel.id(),
            "m": spec.m, "n": spec.n, "k": spec.k,
            "input": spec.input.label(),
            "weight": spec.weight.label(),
            "accumulator": spec.acc.id(),
            "output": spec.output.id(),
            "distribution": spec.dist.id(),
            "seed": spec.seed,
            "error": {
                "max_abs": e.max_abs, "mean_abs": e.mean_abs, "max_rel": e.max_rel,
                "mean_rel": e.mean_rel, "snr_db": finite(e.snr_db), "rms_ref": e.rms_ref,
                "exact": e.exact, "non_finite": e.non_finite, "count": e.count,
                "histogram_log10_lo": kernels::stats::HIST_LO, "histogram_log10_hi": kernels::stats::HIST_HI,
                "histogram": e.histogram,
            },
            "rounding": quant,
            "kernel_s": secs,
            "gflop_per_s": r.flops / secs / 1e9,
            "threads": 1,
            "formula": r.formula,
        })
    }
}
