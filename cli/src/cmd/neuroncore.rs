//! `accelscope neuroncore`: one Trainium core's cycle-approximate model from the command
//! line, the same experiment text the Kernels page keeps in its link.

use std::fmt::Write as _;

use engine::neuroncore::matmul::Side;
use engine::neuroncore::spec::{Experiment, Kernel};
use engine::neuroncore::tune::{self, Search};
use engine::neuroncore::{simulate, Core, Run as SimRun, Stall};
use engine::units::sig;
use engine::Dtype;
use serde_json::{json, Value};

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::parse::Check;
use crate::report::{Format, Report};

/// One NeuronCore running a tiled schedule, simulated event by event
///
/// The time, TFLOP/s, each engine's busy share and stalls, DMA bandwidth, SBUF/PSUM high
/// water of one Trainium core running a tiled matmul or attention.
///
/// The experiment is a kernel and its options (matmul or attention), or --spec TEXT as the
/// Kernels page's link holds it. `core` prints the core's parameters, each with its source.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// matmul (mm), attention (attn), or core for the core's parameters [default: matmul]
    #[arg(value_name = "KERNEL")]
    kind: Option<String>,
    /// The chip: trn1, trn2 or trn3
    #[arg(long, value_name = "C", default_value = "trn2")]
    chip: String,
    /// matmul: rows of A and C
    #[arg(long, value_name = "M", allow_hyphen_values = true, value_parser = num())]
    m: Option<u32>,
    /// matmul: columns of B and C
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = num())]
    n: Option<u32>,
    /// matmul: the reduction length
    #[arg(long, value_name = "K", allow_hyphen_values = true, value_parser = num())]
    k: Option<u32>,
    /// The number format: bf16, fp8, fp32 or fp4
    #[arg(long, value_name = "F", default_value = "bf16")]
    dtype: String,
    /// matmul: the blocks of M, N and K one pass holds, e.g. 1024x1024x512
    #[arg(long, value_name = "MxNxK", value_parser = tiles())]
    tile: Option<[u32; 3]>,
    /// Buffers per block (1 to 3: double buffering is 2)
    #[arg(long, value_name = "B", allow_hyphen_values = true, value_parser = num())]
    bufs: Option<u32>,
    /// matmul: the operand the tensor engine holds stationary, a or b
    #[arg(long, value_name = "a|b", value_parser = side())]
    stationary: Option<Side>,
    /// A factor on the core's HBM bandwidth, 0.01 to 100
    #[arg(long, value_name = "F", allow_hyphen_values = true, value_parser = hbm_scale())]
    hbm_scale: Option<f64>,
    /// attention: query rows
    #[arg(long, value_name = "Q", allow_hyphen_values = true, value_parser = num())]
    q: Option<u32>,
    /// attention: keys and values
    #[arg(long, value_name = "KV", allow_hyphen_values = true, value_parser = num())]
    kv: Option<u32>,
    /// attention: the head dimension
    #[arg(long, value_name = "D", allow_hyphen_values = true, value_parser = num())]
    d: Option<u32>,
    /// attention: keys and values per tile
    #[arg(long, value_name = "T", allow_hyphen_values = true, value_parser = num())]
    kv_tile: Option<u32>,
    /// The experiment as the Kernels page's link holds it, e.g.
    /// trn2_mm_512x1024x768_bf16_t256x512x256_b1_sA (in place of the kernel and its options)
    #[arg(long, value_name = "TEXT")]
    spec: Option<String>,
    /// Search a matmul's tiles, buffers and stationary operand for the fastest
    #[arg(long)]
    autotune: bool,
    /// --autotune: how many of the fastest to show, 1 to 50
    #[arg(long, value_name = "N", default_value_t = 5, allow_hyphen_values = true,
          value_parser = num())]
    top: u32,
    #[command(flatten)]
    out: Json,
}

fn num() -> Check<impl Fn(&str, &str) -> Result<u32, String> + Clone> {
    Check(|flag: &str, v: &str| {
        v.parse::<u32>()
            .map_err(|_| format!("--{flag} must be a whole number, got '{v}'"))
    })
}

fn tiles() -> Check<impl Fn(&str, &str) -> Result<[u32; 3], String> + Clone> {
    Check(|_: &str, v: &str| {
        let bad = || format!("--tile is M×N×K blocks like 1024x1024x512, got '{v}'");
        let p: Vec<&str> = v.split('x').collect();
        if p.len() != 3 {
            return Err(bad());
        }
        let mut t = [0u32; 3];
        for (o, x) in t.iter_mut().zip(&p) {
            *o = x.parse().map_err(|_| bad())?;
        }
        Ok(t)
    })
}

fn side() -> Check<impl Fn(&str, &str) -> Result<Side, String> + Clone> {
    Check(|_: &str, v: &str| match v {
        "a" | "A" => Ok(Side::A),
        "b" | "B" => Ok(Side::B),
        o => Err(format!("--stationary is a or b, got '{o}'")),
    })
}

fn hbm_scale() -> Check<impl Fn(&str, &str) -> Result<f64, String> + Clone> {
    Check(|_: &str, h: &str| {
        h.parse::<f64>()
            .ok()
            .filter(|x| (0.01..=100.0).contains(x))
            .ok_or_else(|| format!("--hbm-scale is a factor from 0.01 to 100, got '{h}'"))
    })
}

impl Args {
    /// The experiment the options describe: `--spec TEXT`, or a kernel and its options.
    fn experiment(&self) -> Result<Experiment, Error> {
        if let Some(t) = &self.spec {
            return Ok(Experiment::parse(t)?);
        }
        let (chip, dtype) = (&self.chip, &self.dtype);
        let text = match self.kind.as_deref().unwrap_or("matmul") {
            "matmul" | "mm" => format!(
                "{chip}_mm_{}x{}x{}_{dtype}",
                self.m.unwrap_or(4096),
                self.n.unwrap_or(4096),
                self.k.unwrap_or(4096)
            ),
            "attention" | "attn" => format!(
                "{chip}_attn_{}x{}x{}_{dtype}",
                self.q.unwrap_or(512),
                self.kv.unwrap_or(4096),
                self.d.unwrap_or(128)
            ),
            other => {
                return Err(Error::usage(format!(
                    "no NeuronCore kernel '{other}' (matmul, attention, or core for the parameters)"
                )))
            }
        };
        let mut e = Experiment::parse(&text)?;
        match &mut e.kernel {
            Kernel::Matmul(m) => {
                if let Some(t) = self.tile {
                    [m.tile_m, m.tile_n, m.tile_k] = t;
                }
                if let Some(b) = self.bufs {
                    m.bufs = b;
                }
                if let Some(s) = self.stationary {
                    m.stationary = s;
                }
            }
            Kernel::Attention(at) => {
                if let Some(t) = self.kv_tile {
                    at.kv_tile = t;
                }
                if let Some(b) = self.bufs {
                    at.bufs = b;
                }
            }
        }
        if let Some(h) = self.hbm_scale {
            e.hbm_scale = h;
        }
        Ok(e)
    }
}

/// What `neuroncore` prints.
pub enum NeuronCore {
    /// The core's parameters.
    Params(Core),
    /// One schedule, simulated.
    Simulated {
        e: Experiment,
        core: Core,
        run: SimRun,
        dtype: Dtype,
    },
    /// A matmul's tiles searched.
    Tuned {
        e: Experiment,
        core: Core,
        found: Search,
    },
}

impl Run for Args {
    type Output = NeuronCore;
    fn run(&self) -> Result<NeuronCore, Error> {
        if self.kind.as_deref() == Some("core") {
            return Ok(NeuronCore::Params(Core::of(&self.chip)?));
        }
        let e = self.experiment()?;
        let core = e.core()?;
        if self.autotune {
            let Kernel::Matmul(base) = &e.kernel else {
                return Err(Error::usage("--autotune searches a matmul's tiles"));
            };
            let top = self.top.clamp(1, 50) as usize;
            let found = tune::tune(&core, base, top, |_, _| true);
            return Ok(NeuronCore::Tuned { e, core, found });
        }
        let s = e.schedule()?;
        let run = simulate(&s);
        Ok(NeuronCore::Simulated {
            e,
            core,
            run,
            dtype: s.dtype,
        })
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

impl NeuronCore {
    /// The best of a search, each as one simulated run.
    fn tuned(e: &Experiment, core: &Core, found: &Search) -> Vec<Value> {
        found
            .best
            .iter()
            .map(|t| {
                let x = Experiment {
                    kernel: Kernel::Matmul(t.spec.clone()),
                    ..e.clone()
                };
                run_json(&x, core, &t.run, t.spec.dtype)
            })
            .collect()
    }
}

impl Report for NeuronCore {
    fn json(&self) -> serde_json::Result<Value> {
        Ok(match self {
            NeuronCore::Params(core) => {
                let params: Vec<Value> = core
                    .params()
                    .iter()
                    .map(|p| json!({"name": p.name, "value": p.value, "source": p.source, "estimate": p.estimate, "why": p.why}))
                    .collect();
                json!({"core": core.name(), "params": params})
            }
            NeuronCore::Simulated {
                e,
                core,
                run,
                dtype,
            } => run_json(e, core, run, *dtype),
            NeuronCore::Tuned { e, core, found } => json!({
                "fitting": found.fitting,
                "overflowing": found.overflowing,
                "simulated": found.simulated,
                "best": NeuronCore::tuned(e, core, found),
            }),
        })
    }

    fn text(&self) -> Option<String> {
        Some(match self {
            NeuronCore::Params(core) => {
                let mut s = format!("{}\n", core.name());
                for p in core.params() {
                    let _ = writeln!(
                        s,
                        "{}: {} [{}{}] {}",
                        p.name,
                        p.value,
                        p.source,
                        if p.estimate { ", estimate" } else { "" },
                        p.why
                    );
                }
                s.trim_end().into()
            }
            NeuronCore::Simulated {
                e,
                core,
                run,
                dtype,
            } => table(&run_json(e, core, run, *dtype)),
            NeuronCore::Tuned { e, core, found } => {
                let mut s = format!(
                    "{} candidates fit, {} overflow SBUF/PSUM, {} simulated; fastest first:\n",
                    found.fitting, found.overflowing, found.simulated
                );
                for b in &NeuronCore::tuned(e, core, found) {
                    let _ = writeln!(
                        s,
                        "{}  {} µs  {:.1}% of peak  {} FLOP/B",
                        b["spec"].as_str().unwrap_or(""),
                        sig(b["time_s"].as_f64().unwrap_or(0.0) * 1e6, 4),
                        100.0 * b["of_array_peak"].as_f64().unwrap_or(0.0),
                        sig(b["intensity_flop_per_byte"].as_f64().unwrap_or(0.0), 4)
                    );
                }
                s.trim_end().into()
            }
        })
    }
}

/// One simulated run as JSON.
fn run_json(e: &Experiment, core: &Core, r: &SimRun, dtype: Dtype) -> Value {
    let lanes: Vec<Value> = r
        .units
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let mut stalls = serde_json::Map::new();
            for (k, s) in Stall::ALL.iter().enumerate() {
                stalls.insert(format!("{:?}_s", s).to_lowercase(), json!(u.stalls[k]));
            }
            json!({
                "unit": u.unit.name(),
                "instructions": u.count,
                "busy_s": u.busy,
                "busy_fraction": r.busy(i),
                "stalls": stalls,
            })
        })
        .collect();
    let rows = core.rows(dtype).unwrap_or(core.array);
    json!({
        "spec": e.to_text(),
        "core": core.name(),
        "time_s": r.seconds,
        "tensor_cycles": r.tensor_cycles,
        "flop": r.flops,
        "flop_per_s": r.flops_per_s(),
        "array_peak_flop_per_s": core.array_peak(dtype),
        "catalog_peak_flop_per_s": core.catalog_peak(dtype),
        "of_array_peak": r.flops_per_s() / core.array_peak(dtype),
        "array_rows_used": r.array_use(core, rows),
        "hbm_bytes": r.hbm_bytes,
        "dma_bytes_per_s": r.dma_bw(),
        "dma_ceiling_bytes_per_s": core.dma_ceiling(),
        "intensity_flop_per_byte": r.intensity(),
        "sbuf_peak_bytes_per_partition": r.peak[0],
        "sbuf_reserved_bytes_per_partition": r.reserved[0],
        "sbuf_bytes_per_partition": r.capacity[0],
        "psum_peak_bytes_per_partition": r.peak[1],
        "psum_reserved_bytes_per_partition": r.reserved[1],
        "psum_bytes_per_partition": r.capacity[1],
        "lanes": lanes,
    })
}

/// A simulated run as text, from its JSON.
fn table(v: &Value) -> String {
    let f = |k: &str| v[k].as_f64().unwrap_or(0.0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} on {}",
        v["spec"].as_str().unwrap_or(""),
        v["core"].as_str().unwrap_or("")
    );
    let _ = writeln!(
        s,
        "time {} µs   {} TFLOP/s ({:.1}% of the array's peak)   rows used {:.1}%",
        sig(f("time_s") * 1e6, 4),
        sig(f("flop_per_s") / 1e12, 4),
        100.0 * f("of_array_peak"),
        100.0 * f("array_rows_used")
    );
    let _ = writeln!(
        s,
        "HBM {} MB at {} GB/s (ceiling {})   {} FLOP/B",
        sig(f("hbm_bytes") / 1e6, 4),
        sig(f("dma_bytes_per_s") / 1e9, 4),
        sig(f("dma_ceiling_bytes_per_s") / 1e9, 4),
        sig(f("intensity_flop_per_byte"), 4)
    );
    let _ = writeln!(
        s,
        "SBUF {} / {} reserved / {} KiB per partition; PSUM {} / {} / {} KiB",
        f("sbuf_peak_bytes_per_partition") / 1024.0,
        f("sbuf_reserved_bytes_per_partition") / 1024.0,
        f("sbuf_bytes_per_partition") / 1024.0,
        f("psum_peak_bytes_per_partition") / 1024.0,
        f("psum_reserved_bytes_per_partition") / 1024.0,
        f("psum_bytes_per_partition") / 1024.0
    );
    let _ = writeln!(
        s,
        "{:<10} {:>7} {:>6}  stalls (µs): DMA, engine, buffer, setup",
        "lane", "instrs", "busy"
    );
    for l in v["lanes"].as_array().into_iter().flatten() {
        let st = &l["stalls"];
        let g = |k: &str| st[k].as_f64().unwrap_or(0.0) * 1e6;
        let _ = writeln!(
            s,
            "{:<10} {:>7} {:>5.1}%  {:.1}, {:.1}, {:.1}, {:.1}",
            l["unit"].as_str().unwrap_or(""),
            l["instructions"],
            100.0 * l["busy_fraction"].as_f64().unwrap_or(0.0),
            g("dma_s"),
            g("engine_s"),
            g("buffer_s"),
            g("setup_s")
        );
    }
    s.trim_end().to_string()
}
