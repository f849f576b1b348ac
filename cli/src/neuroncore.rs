//! `accelscope neuroncore`: one Trainium core's cycle-approximate model from the command
//! line, the same experiment text the Kernels page keeps in its link.

use super::{pretty, Args, Usage, USAGE};
use engine::neuroncore::matmul::Side;
use engine::neuroncore::spec::{Experiment, Kernel};
use engine::neuroncore::{simulate, tune, Core, Run, Stall};
use engine::units::sig;
use engine::Dtype;
use serde_json::{json, Value};
use std::fmt::Write as _;

fn num(a: &Args, name: &str) -> Result<Option<u32>, Usage> {
    a.value(name)
        .map(|v| {
            v.parse::<u32>()
                .map_err(|_| Usage(format!("--{name} must be a whole number, got '{v}'")))
        })
        .transpose()
}

fn tiles(v: &str) -> Result<[u32; 3], Usage> {
    let p: Vec<&str> = v.split('x').collect();
    let bad = || {
        Usage(format!(
            "--tile is M×N×K blocks like 1024x1024x512, got '{v}'"
        ))
    };
    if p.len() != 3 {
        return Err(bad());
    }
    let mut t = [0u32; 3];
    for (o, x) in t.iter_mut().zip(&p) {
        *o = x.parse().map_err(|_| bad())?;
    }
    Ok(t)
}

/// The experiment the options describe: `--spec TEXT`, or a kernel and its options.
fn experiment(a: &Args) -> Result<Experiment, Usage> {
    if let Some(t) = a.value("spec") {
        return Ok(Experiment::parse(t)?);
    }
    let kind = a.positional.first().copied().unwrap_or("matmul");
    let chip = a.value("chip").unwrap_or("trn2");
    let dtype = a.value("dtype").unwrap_or("bf16");
    let text = match kind {
        "matmul" | "mm" => format!(
            "{chip}_mm_{}x{}x{}_{dtype}",
            num(a, "m")?.unwrap_or(4096),
            num(a, "n")?.unwrap_or(4096),
            num(a, "k")?.unwrap_or(4096)
        ),
        "attention" | "attn" => format!(
            "{chip}_attn_{}x{}x{}_{dtype}",
            num(a, "q")?.unwrap_or(512),
            num(a, "kv")?.unwrap_or(4096),
            num(a, "d")?.unwrap_or(128)
        ),
        other => {
            return Err(Usage(format!(
                "no NeuronCore kernel '{other}' (matmul, attention, or core for the parameters)"
            )))
        }
    };
    let mut e = Experiment::parse(&text)?;
    match &mut e.kernel {
        Kernel::Matmul(m) => {
            if let Some(t) = a.value("tile") {
                [m.tile_m, m.tile_n, m.tile_k] = tiles(t)?;
            }
            if let Some(b) = num(a, "bufs")? {
                m.bufs = b;
            }
            match a.value("stationary") {
                None => {}
                Some("a" | "A") => m.stationary = Side::A,
                Some("b" | "B") => m.stationary = Side::B,
                Some(o) => return Err(Usage(format!("--stationary is a or b, got '{o}'"))),
            }
        }
        Kernel::Attention(at) => {
            if let Some(t) = num(a, "kv-tile")? {
                at.kv_tile = t;
            }
            if let Some(b) = num(a, "bufs")? {
                at.bufs = b;
            }
        }
    }
    if let Some(h) = a.value("hbm-scale") {
        e.hbm_scale = h
            .parse::<f64>()
            .ok()
            .filter(|x| (0.01..=100.0).contains(x))
            .ok_or_else(|| {
                Usage(format!(
                    "--hbm-scale is a factor from 0.01 to 100, got '{h}'"
                ))
            })?;
    }
    Ok(e)
}

fn run_json(e: &Experiment, core: &Core, r: &Run, dtype: Dtype) -> Value {
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

pub(crate) fn cmd(rest: &[String]) -> Result<String, Usage> {
    let a = Args::parse(
        rest,
        &[
            "chip",
            "m",
            "n",
            "k",
            "dtype",
            "tile",
            "bufs",
            "stationary",
            "hbm-scale",
            "q",
            "kv",
            "d",
            "kv-tile",
            "spec",
            "top",
        ],
        &["json", "autotune"],
    )?;
    if a.positional.len() > 1 {
        return Err(Usage(format!(
            "unexpected argument '{}'\n\n{USAGE}",
            a.positional[1]
        )));
    }
    if a.positional.first() == Some(&"core") {
        let core = Core::of(a.value("chip").unwrap_or("trn2"))?;
        let params: Vec<Value> = core
            .params()
            .iter()
            .map(|p| json!({"name": p.name, "value": p.value, "source": p.source, "estimate": p.estimate, "why": p.why}))
            .collect();
        if a.flag("json") {
            return Ok(pretty(&json!({"core": core.name(), "params": params})));
        }
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
        return Ok(s.trim_end().into());
    }
    let e = experiment(&a)?;
    let core = e.core()?;
    if a.flag("autotune") {
        let Kernel::Matmul(base) = &e.kernel else {
            return Err(Usage("--autotune searches a matmul's tiles".into()));
        };
        let top = num(&a, "top")?.unwrap_or(5).clamp(1, 50) as usize;
        let found = tune::tune(&core, base, top, |_, _| true);
        let best: Vec<Value> = found
            .best
            .iter()
            .map(|t| {
                let x = Experiment {
                    kernel: Kernel::Matmul(t.spec.clone()),
                    ..e.clone()
                };
                run_json(&x, &core, &t.run, t.spec.dtype)
            })
            .collect();
        let v = json!({
            "fitting": found.fitting,
            "overflowing": found.overflowing,
            "simulated": found.simulated,
            "best": best,
        });
        if a.flag("json") {
            return Ok(pretty(&v));
        }
        let mut s = format!(
            "{} candidates fit, {} overflow SBUF/PSUM, {} simulated; fastest first:\n",
            found.fitting, found.overflowing, found.simulated
        );
        for b in &best {
            let _ = writeln!(
                s,
                "{}  {} µs  {:.1}% of peak  {} FLOP/B",
                b["spec"].as_str().unwrap_or(""),
                sig(b["time_s"].as_f64().unwrap_or(0.0) * 1e6, 4),
                100.0 * b["of_array_peak"].as_f64().unwrap_or(0.0),
                sig(b["intensity_flop_per_byte"].as_f64().unwrap_or(0.0), 4)
            );
        }
        return Ok(s.trim_end().into());
    }
    let s = e.schedule()?;
    let r = simulate(&s);
    let v = run_json(&e, &core, &r, s.dtype);
    Ok(if a.flag("json") {
        pretty(&v)
    } else {
        table(&v)
    })
}
