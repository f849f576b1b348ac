//! `accelscope`: the engine from the command line, for scripts, spreadsheets and tests.
//!
//! Output is JSON (`--json`) with snake_case keys ending in their SI unit, or a plain table.
//! Bad input prints a message naming the valid choices and exits with code 2.

mod neuroncore;

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

use engine::catalog;
use engine::collective::{self, sim, standalone, Algorithm, Op};
use engine::system::{self, Cluster};
use engine::units::sig;
use engine::{tco, workload};
use engine::{Bytes, Chip, Dtype, FlopPerByte, OpSpec, Roofline, Scenario};
use serde_json::{json, Value};

const USAGE: &str = "\
usage: accelscope <command> [options]

commands:
  chips [--json]                         the chip catalog
  chip ID [--json]                       one chip, every figure with its source
  roofline --chip ID --dtype FMT         ridge point and attainable FLOP/s
           [--intensity X] [--op SPEC] [--json]
  systems [--json]                       the system presets (scale-up and scale-out)
  topology --system ID [--json]          fabric figures: hops, bisection, blast radius
  collective --system ID --op OP --bytes SIZE [--nodes N] [--algo A] [--sim] [--json]
                                         time, algbw and busbw of one collective
  calibration [--json]                   the model against published measurements
  keys [--json]                          every link key: its kind, range, default, the link
                                         version it appeared in and what it sets
  claims [--json]                        vendors' claims beside the model's figure
  prices [--chip ID] [--json]            every published rental rate with its kind, date,
                                         region and source; the price bases and the default
  train --system ID --model M --dtype F [--nodes N] [--tokens T] [--batch GBS]
        [--tp T --pp P --dp D [--cp C] [--zero 0-3] [--ep E] [--interleave V]
        [--recompute on|off]]
        [--overlap F] [--expert-imbalance X]
        [--usd-per-chip-hour X | --price-basis KIND@DATE] [--json]
                                         step time, tokens/s, MFU, time and cost to train
  infer --system ID --model M --dtype F --batch B [--nodes N] [--prompt P] [--output O]
        [--tp T] [--matmul-efficiency F] [--memory-efficiency F]
        [--usd-per-chip-hour X | --price-basis KIND@DATE] [--weight-dtype F] [--kv-dtype F]
        [--draft K --acceptance A]
        [--prefix-hit H] [--json]        tokens/s, chips needed, cost per million tokens; the
                                         weights and KV cache in their own formats, K drafted
                                         tokens accepted with probability A, a prefix-cache
                                         hit rate (serve-curve takes the same)
  serve-curve --system ID --model M --dtype F [--prompt P] [--output O] [--all]
              [--slo-ttft 2s --slo-tpot 50ms] [--usd-per-chip-hour X] [--json]
  serve-curve --link URL [--json]        the Workload page's serving view of a link: each
                                         platform's cheapest configuration meeting its targets
                                         throughput per chip and $/Mtok against tokens/s per
                                         user over chips per replica and batch (the frontier,
                                         or --all points), TTFT and TPOT of each, and the
                                         cheapest point meeting the targets; infer takes the
                                         same --slo-ttft/--slo-tpot and answers with that point
  model --model ID|--model-config config.json [--json]
                                         a model's parameters (beside the published count
                                         of a known shape), KV cache per token and its spec;
                                         train and infer also take --model-config
  eval SCENARIO.json|-|--link URL [--csv]
                                         the report of a scenario (the app's state as JSON,
                                         or a link the app wrote)
  compare A B [--json]                   why B costs what it does against A: headline figures
                                         and the training and serving waterfalls (A, B:
                                         scenario files, - or links the app wrote)
  sweep SCENARIO.json|- --set PATH=FROM..TO:STEPS
                                         CSV of the report as one input varies, e.g.
                                         --set job.efficiency=0.3..0.9:7
  scenario [--query Q]                   print a scenario as JSON (default, or from a link's query)
  kernel gemm|softmax|layernorm|rmsnorm|attention [--m M --n N --k K] [--in F] [--w F]
         [--in-scale S] [--w-scale S] [--acc fp32|bf16|fp16] [--out F] [--dist D]
         [--seed N] [--stochastic] [--no-saturate] [--repeat R] [--json]
                                         run a kernel in a number format: error against
                                         f64 and the native speed (F: fp32 tf32 bf16 fp16
                                         fp8e4m3 fp8e5m2 fp6e3m2 fp6e2m3 fp4e2m1 int8, or
                                         mxfp8 mxfp6 mxfp4 nvfp4; S: none tensor mx nv
                                         b<size><e8m0|e4m3|fp32>; D: normal uniform
                                         outliers llm)
  kernel bench [--size N] [--json]       this machine's f32 GEMM GFLOP/s and STREAM GB/s,
                                         one thread
  neuroncore matmul [--chip trn1|trn2|trn3] [--m M --n N --k K] [--dtype bf16|fp8|fp32|fp4]
             [--tile MxNxK] [--bufs 1-3] [--stationary a|b] [--hbm-scale F]
             [--autotune [--top N]] [--json]
  neuroncore attention [--chip C] [--q Q --kv KV --d D] [--kv-tile T] [--bufs B] [--json]
  neuroncore --spec TEXT [--json]        one NeuronCore running a tiled schedule, simulated
                                         event by event: time, TFLOP/s, each engine's busy
                                         share and stalls, DMA bandwidth, SBUF/PSUM high water
                                         (TEXT as the Kernels page's link holds it)
  neuroncore core [--chip C] [--json]    the core's parameters, each with its source

operation specs (--op): gemm:M,N,K  elem:elements,reads,writes,flop_per_element
  prefill:batch,seq,heads,kv_heads,head_dim  attn-decode:batch,context,heads,kv_heads,head_dim
  decode:params,batch,context,layers,heads,kv_heads,head_dim  moe:experts,tokens_per_expert,d_model,d_ff";

/// A user error: message for stderr, exit code 2.
struct Usage(String);

impl<E: std::fmt::Display> From<E> for Usage {
    fn from(e: E) -> Self {
        Usage(e.to_string())
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(out) => {
            // A closed pipe (`| head`) is not an error worth a panic.
            let _ = writeln!(std::io::stdout(), "{out}");
            ExitCode::SUCCESS
        }
        Err(Usage(msg)) => {
            eprintln!("accelscope: {msg}");
            ExitCode::from(2)
        }
    }
}

/// Parsed flags: `--name value` pairs, bare `--flag`s and positionals.
struct Args<'a> {
    positional: Vec<&'a str>,
    options: Vec<(&'a str, Option<&'a str>)>,
}

impl<'a> Args<'a> {
    fn parse(args: &'a [String], with_value: &[&str], flags: &[&str]) -> Result<Self, Usage> {
        let mut a = Args {
            positional: Vec::new(),
            options: Vec::new(),
        };
        let mut it = args.iter();
        while let Some(x) = it.next() {
            if let Some(name) = x.strip_prefix("--") {
                let (name, inline) = match name.split_once('=') {
                    Some((n, v)) => (n, Some(v)),
                    None => (name, None),
                };
                if with_value.contains(&name) {
                    let v = inline
                        .or_else(|| it.next().map(String::as_str))
                        .ok_or_else(|| Usage(format!("--{name} needs a value")))?;
                    a.options.push((name, Some(v)));
                } else if flags.contains(&name) {
                    a.options.push((name, None));
                } else {
                    return Err(Usage(format!("unknown option --{name}\n\n{USAGE}")));
                }
            } else {
                a.positional.push(x);
            }
        }
        Ok(a)
    }
    fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| *n == name)
    }
    fn value(&self, name: &str) -> Option<&'a str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| *v)
    }
    fn required(&self, name: &str) -> Result<&'a str, Usage> {
        self.value(name)
            .ok_or_else(|| Usage(format!("--{name} is required\n\n{USAGE}")))
    }
}

fn run(args: &[String]) -> Result<String, Usage> {
    let Some((cmd, rest)) = args.split_first() else {
        return Err(Usage(USAGE.into()));
    };
    match cmd.as_str() {
        "chips" => {
            let a = Args::parse(rest, &[], &["json"])?;
            no_positionals(&a)?;
            let chips = catalog::presets();
            if a.flag("json") {
                Ok(pretty(&json!({
                    "chips": chips,
                    "citations": catalog::citations(),
                })))
            } else {
                Ok(chips_table(&chips))
            }
        }
        "chip" => {
            let a = Args::parse(rest, &[], &["json"])?;
            let [id] = a.positional[..] else {
                return Err(Usage(format!(
                    "chip takes one id (valid: {})",
                    catalog::ids().join(", ")
                )));
            };
            let chip = catalog::find(id)?;
            if a.flag("json") {
                Ok(pretty(&serde_json::to_value(&chip)?))
            } else {
                Ok(chip_text(&chip))
            }
        }
        "roofline" => {
            let a = Args::parse(rest, &["chip", "dtype", "intensity", "op"], &["json"])?;
            no_positionals(&a)?;
            let chip = catalog::find(a.required("chip")?)?;
            let d: Dtype = a.required("dtype")?.parse()?;
            let roof = Roofline::dense(&chip, d).ok_or_else(|| {
                let have: Vec<&str> = chip.formats().map(Dtype::id).collect();
                Usage(format!(
                    "{} has no dense {} figure (it has: {})",
                    chip.id,
                    d.label(),
                    have.join(", ")
                ))
            })?;
            let op = a.value("op").map(OpSpec::parse_spec).transpose()?;
            let intensity = match (a.value("intensity"), &op) {
                (Some(_), Some(_)) => {
                    return Err(Usage("give --intensity or --op, not both".into()));
                }
                (Some(x), None) => Some(parse_intensity(x)?),
                (None, Some(o)) => Some(o.cost(d).intensity()),
                (None, None) => None,
            };
            Ok(roofline_out(
                &chip,
                d,
                roof,
                intensity,
                op.as_ref(),
                a.flag("json"),
            ))
        }
        "systems" => {
            let a = Args::parse(rest, &[], &["json"])?;
            no_positionals(&a)?;
            let all = system::presets();
            if a.flag("json") {
                return Ok(pretty(
                    &json!({ "systems": all, "citations": system::citations() }),
                ));
            }
            let mut s = String::new();
            for x in &all {
                let _ = writeln!(
                    s,
                    "{:<16} {:<40} {:<8} {}",
                    x.id,
                    x.name,
                    x.chip,
                    x.fabric().describe()
                );
            }
            Ok(s.trim_end().into())
        }
        "topology" => {
            let a = Args::parse(rest, &["system"], &["json"])?;
            no_positionals(&a)?;
            let sys = system::find(a.required("system")?)?;
            let m = sys.metrics()?;
            let v = json!({
                "system": sys.id,
                "fabric": sys.fabric().describe(),
                "chips": m.chips,
                "links": m.links,
                "degree": m.degree,
                "diameter_hops": m.diameter,
                "mean_hops": m.mean_hops,
                "bisection_bytes_per_s": m.bisection.get(),
                "injection_bytes_per_s": m.injection.get(),
                "blast_radius_chips": m.blast_radius,
                "scale_out_bytes_per_s": sys.scale_out.value.get(),
                "scale_out_latency_s": sys.scale_out_latency.value.get(),
                "hop_latency_s": sys.hop_latency.value.get(),
            });
            if a.flag("json") {
                Ok(pretty(&v))
            } else {
                Ok(format!(
                    "{} — {}: {} chips, {} links, degree {}, diameter {} hops, mean {:.3} hops, bisection {} per direction, injection {} per chip, blast radius {} chips",
                    sys.name, sys.fabric().describe(), m.chips, m.links, m.degree, m.diameter, m.mean_hops, m.bisection, m.injection, m.blast_radius
                ))
            }
        }
        "collective" => {
            let a = Args::parse(
                rest,
                &["system", "nodes", "op", "bytes", "algo"],
                &["json", "sim"],
            )?;
            no_positionals(&a)?;
            let sys = system::find(a.required("system")?)?;
            let nodes = keyed(a.value("nodes"), "nodes", "nodes", 1)?;
            let op: Op = a.required("op")?.parse()?;
            let bytes: Bytes = a.required("bytes")?.parse()?;
            let (lo, hi) = engine::scenario::keys::range("size").unwrap_or((1.0, 1e15));
            if !(lo..=hi).contains(&bytes.get()) {
                return Err(Usage(format!(
                    "--bytes must be from {} to {} (as the link key size), got {:e}",
                    Bytes::new(lo).display_si(),
                    Bytes::new(hi).display_si(),
                    bytes.get()
                )));
            }
            let algo: Algorithm = a.value("algo").unwrap_or("auto").parse()?;
            let cluster = Cluster { system: sys, nodes };
            let e = standalone(&cluster, op, bytes, algo)?;
            let mut v = json!({
                "system": cluster.system.id,
                "nodes": nodes,
                "ranks": e.ranks,
                "op": op.id(),
                "bytes": bytes.get(),
                "algorithm": e.algorithm.id(),
                "time_s": e.time.get(),
                "latency_term_s": e.latency_term.get(),
                "bandwidth_term_s": e.bandwidth_term.get(),
                "algbw_bytes_per_s": e.algbw.get(),
                "busbw_bytes_per_s": e.busbw.get(),
                "formula": e.formula,
            });
            if a.flag("sim") {
                if nodes > 1 {
                    return Err(Usage(
                        "--sim simulates one scale-up domain; use --nodes 1".into(),
                    ));
                }
                let sim_algo = if op == Op::AllToAll {
                    Algorithm::Direct
                } else {
                    e.algorithm
                };
                let r = sim::simulate(
                    &cluster.system.fabric(),
                    op,
                    bytes,
                    sim_algo,
                    cluster.system.hop_latency.value,
                    cluster.system.link_efficiency.value,
                )?;
                v["simulated"] = json!({
                    "algorithm": sim_algo.id(),
                    "time_s": r.time.get(),
                    "steps": r.steps,
                    "max_link_sharing": r.max_link_sharing,
                    "simulated_over_analytic": r.time.get() / e.time.get(),
                });
            }
            if a.flag("json") {
                Ok(pretty(&v))
            } else {
                Ok(collective::describe(&e) + "\n" + &e.formula)
            }
        }
        "claims" => {
            let a = Args::parse(rest, &[], &["json"])?;
            no_positionals(&a)?;
            let mut rows = Vec::new();
            for c in engine::claims::checks() {
                let m = c
                    .model
                    .as_ref()
                    .map_err(|e| Usage(format!("{}: {e}", c.claim)))?;
                rows.push(json!({
                    "vendor": c.vendor,
                    "claim": c.claim,
                    "claimed_ratio": [c.claimed.0, c.claimed.1],
                    "model_ratio": m,
                    "setup": c.setup,
                    "note": c.note,
                    "source": c.source,
                }));
            }
            if a.flag("json") {
                return Ok(pretty(&json!({ "claims": rows })));
            }
            let mut s = String::new();
            for r in &rows {
                let _ = writeln!(
                    s,
                    "{:<7} {:<78} claimed {:.2}-{:.2}x  model {:.2}x\n        {}",
                    r["vendor"].as_str().unwrap_or(""),
                    r["claim"].as_str().unwrap_or(""),
                    r["claimed_ratio"][0].as_f64().unwrap_or(0.0),
                    r["claimed_ratio"][1].as_f64().unwrap_or(0.0),
                    r["model_ratio"].as_f64().unwrap_or(0.0),
                    r["setup"].as_str().unwrap_or("")
                );
            }
            Ok(s.trim_end().into())
        }
        "prices" => {
            use tco::rates;
            let a = Args::parse(rest, &["chip"], &["json"])?;
            no_positionals(&a)?;
            let chip = a.value("chip");
            if let Some(c) = chip {
                catalog::find(c)?;
            }
            let default = rates::default_basis();
            let rows: Vec<Value> = rates::rates()
                .iter()
                .filter(|r| chip.is_none_or(|c| r.chip == c))
                .map(|r| {
                    json!({
                        "chip": r.chip,
                        "instance": r.instance,
                        "chips_per_instance": r.chips,
                        "usd_per_instance_hour": r.usd_per_instance_hour,
                        "usd_per_chip_hour": r.usd_per_chip_hour(),
                        "kind": r.kind.id(),
                        "region": r.region,
                        "as_of": r.as_of,
                        "basis": r.basis().id(),
                        "estimate": r.estimate,
                        "source": r.source,
                        "note": r.note,
                    })
                })
                .collect();
            if a.flag("json") {
                return Ok(pretty(&json!({
                    "default_basis": default.id(),
                    "headline_chips": rates::HEADLINE_CHIPS,
                    "bases": rates::bases().iter().map(|b| b.id()).collect::<Vec<_>>(),
                    "rates": rows,
                })));
            }
            let mut s = format!(
                "Default price basis: {default} ({}), the latest on which {} both have a rate of one kind\n",
                default.id(),
                rates::HEADLINE_CHIPS.join(" and ")
            );
            for r in rates::rates()
                .iter()
                .filter(|r| chip.is_none_or(|c| r.chip == c))
            {
                let _ = writeln!(
                    s,
                    "  {:<9} ${:>8.4}/chip-h  {:<14} {:<10} {:<22} {}{}",
                    r.chip,
                    r.usd_per_chip_hour(),
                    r.kind.id(),
                    r.as_of,
                    r.region,
                    r.instance,
                    if r.estimate { " (estimate)" } else { "" }
                );
            }
            Ok(s.trim_end().into())
        }
        "calibration" => {
            let a = Args::parse(rest, &[], &["json"])?;
            no_positionals(&a)?;
            let mut rows = Vec::new();
            for p in engine::calibration::calibration() {
                let predicted = p
                    .model
                    .as_ref()
                    .map_err(|e| Usage(format!("{}: {e}", p.label)))?;
                rows.push(json!({
                    "family": p.family.id(),
                    "role": p.role.id(),
                    "held_out_since": p.role.held_out_since(),
                    "system": p.system,
                    "label": p.label,
                    "setup": p.setup,
                    "unit": p.measured.key(),
                    "measured": p.measured.value(),
                    "predicted": predicted,
                    "error": predicted / p.measured.value() - 1.0,
                    "tolerance": p.tolerance(),
                    "within": p.within(),
                    "note": p.note,
                    "source": p.source,
                }));
            }
            if a.flag("json") {
                return Ok(pretty(&json!({ "points": rows })));
            }
            let mut s = String::new();
            for role in engine::calibration::Role::IDS {
                let _ = writeln!(
                    s,
                    "{} ({}):",
                    role,
                    engine::calibration::Role::meaning(role)
                );
                for r in rows.iter().filter(|r| r["role"] == role) {
                    let _ = writeln!(
                        s,
                        "  {:<12} {:<66} measured {:>10.4e} model {:>10.4e} ({:+.1}%, ±{:.0}%{})",
                        r["family"].as_str().unwrap_or(""),
                        r["label"].as_str().unwrap_or(""),
                        r["measured"].as_f64().unwrap_or(0.0),
                        r["predicted"].as_f64().unwrap_or(0.0),
                        r["error"].as_f64().unwrap_or(0.0) * 100.0,
                        r["tolerance"].as_f64().unwrap_or(0.0) * 100.0,
                        if r["within"] == true { "" } else { ", OUTSIDE" }
                    );
                }
            }
            Ok(s.trim_end().into())
        }
        "train" => {
            let a = Args::parse(
                rest,
                &[
                    "system",
                    "nodes",
                    "model",
                    "model-config",
                    "dtype",
                    "tokens",
                    "batch",
                    "tp",
                    "pp",
                    "dp",
                    "ep",
                    "interleave",
                    "recompute",
                    "cp",
                    "zero",
                    "overlap",
                    "expert-imbalance",
                    "usd-per-chip-hour",
                    "price-basis",
                ],
                &["json"],
            )?;
            no_positionals(&a)?;
            let (cluster, chip) = cluster_of(&a)?;
            let nodes = cluster.nodes;
            let model = model_of(&a)?;
            let dtype: Dtype = a.required("dtype")?.parse()?;
            let tokens = positive(a.value("tokens"), "tokens", 1e12)?;
            let batch = keyed(a.value("batch"), "batch", "wgbs", 1024)?;
            let mut cfg = workload::TrainConfig::new(
                model,
                dtype,
                batch,
                workload::Layout::START,
                engine::efficiency::default_bf16(&chip).value,
            );
            let ov = match a.value("overlap") {
                Some(x) => match x.trim().parse::<f64>() {
                    Ok(o) if (0.0..=1.0).contains(&o) => o,
                    _ => return Err(Usage(format!("--overlap must be in [0, 1], got '{x}'"))),
                },
                None => cluster.system.overlap.value,
            };
            cfg.tp_overlap = ov;
            cfg.dp_overlap = ov;
            if let Some(x) = a.value("expert-imbalance") {
                // The link key's range, so a flag and its key accept the same values.
                let (lo, hi) = engine::job::range("wimb").unwrap_or((1.0, 1.0));
                cfg.expert_imbalance = match x.trim().parse::<f64>() {
                    Ok(v) if (lo..=hi).contains(&v) => v,
                    _ => {
                        return Err(Usage(format!(
                            "--expert-imbalance must be a number from {lo} to {hi} (the busiest expert-parallel rank's tokens over the mean), got '{x}'"
                        )))
                    }
                };
            }
            let r = match (a.value("tp"), a.value("pp"), a.value("dp"), a.value("cp")) {
                (None, None, None, None) if a.value("zero").is_none() => {
                    workload::best_layout(&cluster, &chip, &cfg)?
                }
                (tp, pp, dp, cp) => {
                    cfg.layout.tp = count(tp, "tp", 1)?;
                    cfg.layout.pp = count(pp, "pp", 1)?;
                    cfg.layout.cp = count(cp, "cp", 1)?;
                    cfg.layout.zero = match a.value("zero") {
                        None => 1,
                        Some(z) => match z.parse::<u8>() {
                            Ok(z) if z <= 3 => z,
                            _ => {
                                return Err(Usage(format!(
                                    "--zero must be a ZeRO stage from 0 to 3, got '{z}'"
                                )))
                            }
                        },
                    };
                    let used = u64::from(cfg.layout.tp)
                        * u64::from(cfg.layout.pp)
                        * u64::from(cfg.layout.cp);
                    if used > u64::from(cluster.chips()) {
                        return Err(Usage(format!(
                            "--tp {} x --cp {} x --pp {} is more chips than the cluster has: the cluster has {} chips ({} node(s))",
                            cfg.layout.tp,
                            cfg.layout.cp,
                            cfg.layout.pp,
                            cluster.chips(),
                            cluster.nodes
                        )));
                    }
                    cfg.layout.dp = count(dp, "dp", (cluster.chips() / used.max(1) as u32).max(1))?;
                    cfg.layout.ep = count(a.value("ep"), "ep", 1)?;
                    cfg.layout.interleave = count(a.value("interleave"), "interleave", 1)?;
                    cfg.layout.recompute = match a.value("recompute") {
                        None | Some("on") => true,
                        Some("off") => false,
                        Some(x) => {
                            return Err(Usage(format!("--recompute must be on or off, got '{x}'")))
                        }
                    };
                    workload::train(&cluster, &chip, &cfg)?
                }
            };
            let price = pricing(&a, sys_chip(&cluster))?;
            let time = tokens / r.tokens_per_s;
            let (g, fi) = engine::job::failure_model(&cluster, &cfg.model, time);
            let v = json!({
                "system": cluster.system.id,
                "nodes": nodes,
                "chips": cluster.chips(),
                "model": cfg.model.id,
                "dtype": dtype.id(),
                "tokens": tokens,
                "tokens_per_s": r.tokens_per_s,
                "mfu": r.mfu,
                "layout": r.layout.to_string(),
                "step_s": r.step.get(),
                "time_s": time,
                "chip_hours": time / 3600.0 * f64::from(cluster.chips()),
                "usd_per_chip_hour": price.usd,
                "price_source": price.label,
                "price_kind": price.origin.kind,
                "price_as_of": price.origin.as_of,
                "price_region": price.origin.region,
                "price_basis": price.origin.basis.map(|b| b.id()),
                "price_fell_back": price.origin.fell_back,
                "cost_usd": tco::cost_of(&price.pricing, cluster.chips(), time),
                "memory_per_chip_bytes": r.memory.total(),
                "formula": r.formula,
                "failures": {
                    "interruptions_per_chip_hour": fi.rate.value,
                    "mtbf_h": g.mtbf_h,
                    "interruptions": g.interruptions,
                    "blast_radius_chips": fi.blast_radius,
                    "repair_h": fi.repair_h.value,
                    "restart_h": fi.restart_h.value,
                    "checkpoint_bytes": fi.checkpoint_bytes,
                    "checkpoint_s": g.checkpoint_h * 3600.0,
                    "checkpoint_interval_s": g.interval_h * 3600.0,
                    "goodput": g.goodput,
                    "real_time_s": time / g.goodput,
                    "spare_chips": g.spare_chips,
                },
            });
            if a.flag("json") {
                Ok(pretty(&v))
            } else {
                Ok(format!(
                    "{} on {} × {}: {:.0} tokens/s, MFU {:.1}%, {} tokens in {:.1} days, ${:.0} at ${:.2}/chip-hour\nwith failures: {:.1}% goodput, {:.1} days, {:.0} interruptions (one every {:.2} h), {} chips per failure, {:.0} spares\n{}",
                    cfg.model.name, nodes, cluster.system.name, r.tokens_per_s, r.mfu * 100.0, tokens, time / 86400.0,
                    v["cost_usd"].as_f64().unwrap_or(0.0), price.usd, g.goodput * 100.0, time / g.goodput / 86400.0,
                    g.interruptions, g.mtbf_h, fi.blast_radius, g.spare_chips, r.formula
                ))
            }
        }
        "infer" => {
            let a = Args::parse(
                rest,
                &[
                    "system",
                    "nodes",
                    "model",
                    "model-config",
                    "dtype",
                    "batch",
                    "prompt",
                    "output",
                    "usd-per-chip-hour",
                    "price-basis",
                    "tp",
                    "matmul-efficiency",
                    "memory-efficiency",
                    "slo-ttft",
                    "slo-tpot",
                    "weight-dtype",
                    "kv-dtype",
                    "draft",
                    "acceptance",
                    "prefix-hit",
                ],
                &["json"],
            )?;
            no_positionals(&a)?;
            if a.value("slo-ttft").is_some() || a.value("slo-tpot").is_some() {
                return serve_curve(&a, true);
            }
            let (cluster, chip) = cluster_of(&a)?;
            let batch = keyed(
                a.value("batch").or(Some("")).filter(|x| !x.is_empty()),
                "batch",
                "wbatch",
                0,
            )
            .and_then(|b| {
                if b == 0 {
                    Err(Usage("--batch is required".into()))
                } else {
                    Ok(b)
                }
            })?;
            // The defaults of a serving configuration, and what the command line sets.
            let cfg = workload::InferConfig {
                tp: a.value("tp").map(|t| count(Some(t), "tp", 1)).transpose()?,
                matmul_efficiency: a
                    .value("matmul-efficiency")
                    .map(|x| fraction(Some(x), "matmul-efficiency", 1.0))
                    .transpose()?,
                memory_efficiency: fraction(
                    a.value("memory-efficiency"),
                    "memory-efficiency",
                    workload::SERVING_MEMORY_EFFICIENCY,
                )?,
                ..workload::InferConfig::new(
                    model_of(&a)?,
                    a.required("dtype")?.parse()?,
                    batch,
                    keyed(a.value("prompt"), "prompt", "wpr", 1024)?,
                    keyed(a.value("output"), "output", "wout", 256)?,
                )
            };
            let cfg = knobs(&a, cfg)?;
            let r = workload::infer(&cluster, &chip, &cfg)?;
            let price = pricing(&a, sys_chip(&cluster))?;
            let v = json!({
                "system": cluster.system.id,
                "model": cfg.model.id,
                "dtype": cfg.dtype.id(),
                "batch": cfg.batch,
                "chips_needed": r.chips_needed,
                "replicas": r.replicas,
                "tokens_per_s": r.tokens_per_s,
                "tokens_per_s_per_chip": r.tokens_per_s_per_chip,
                "latency_per_token_s": r.latency_per_token.get(),
                "decode_bound": r.decode_bound,
                "usd_per_chip_hour": price.usd,
                "price_source": price.label,
                "price_kind": price.origin.kind,
                "price_as_of": price.origin.as_of,
                "price_region": price.origin.region,
                "price_basis": price.origin.basis.map(|b| b.id()),
                "price_fell_back": price.origin.fell_back,
                "cost_per_mtok_usd": tco::cost_per_mtok(&price.pricing, r.replicas * r.chips_needed, r.tokens_per_s),
                "formula": r.formula,
            });
            if a.flag("json") {
                Ok(pretty(&v))
            } else {
                Ok(format!(
                    "{} in {}: {} chip{} per replica, {:.0} tokens/s per chip, ${:.3} per million tokens\n{}",
                    cfg.model.name, cfg.dtype, r.chips_needed, if r.chips_needed == 1 { "" } else { "s" }, r.tokens_per_s_per_chip,
                    v["cost_per_mtok_usd"].as_f64().unwrap_or(0.0), r.formula
                ))
            }
        }
        "keys" => {
            let a = Args::parse(rest, &[], &["json"])?;
            no_positionals(&a)?;
            let defaults = engine::scenario::key_defaults();
            let rows: Vec<(&engine::scenario::keys::Key, String)> = engine::scenario::keys::KEYS
                .iter()
                .map(|k| {
                    let d = defaults
                        .iter()
                        .find(|(x, _)| *x == k.key)
                        .map(|(_, v)| v.clone())
                        .unwrap_or_default();
                    (k, d)
                })
                .collect();
            if a.flag("json") {
                let keys: Vec<Value> = rows
                    .iter()
                    .map(|(k, d)| {
                        let bounded = k.kind.bounded();
                        json!({
                            "key": k.key,
                            "kind": k.kind.id(),
                            "min": if bounded { json!(k.min) } else { Value::Null },
                            "max": if bounded { json!(k.max) } else { Value::Null },
                            "default": d,
                            "since": k.since,
                            "what": k.what,
                        })
                    })
                    .collect();
                Ok(pretty(
                    &json!({ "version": engine::scenario::VERSION, "keys": keys }),
                ))
            } else {
                let mut out = format!(
                    "{} link keys (link version {}): key, kind, range, default, since, what\n",
                    rows.len(),
                    engine::scenario::VERSION
                );
                for (k, d) in &rows {
                    let range = if k.kind.bounded() {
                        format!("{}..{}", k.min, k.max)
                    } else {
                        "-".into()
                    };
                    let _ = writeln!(
                        out,
                        "{:<8} {:<7} {:<22} {:<24} v{}  {}",
                        k.key,
                        k.kind.id(),
                        range,
                        if d.is_empty() { "-" } else { d.as_str() },
                        k.since,
                        k.what
                    );
                }
                Ok(out)
            }
        }
        "scenario" => {
            let a = Args::parse(rest, &["query"], &[])?;
            no_positionals(&a)?;
            let (sc, notes) = Scenario::from_query(a.value("query").unwrap_or(""));
            for n in notes {
                eprintln!("accelscope: note: {n}");
            }
            Ok(pretty(&serde_json::to_value(&sc)?))
        }
        "eval" => {
            let a = Args::parse(rest, &["link"], &["csv", "json"])?;
            let sc = match (a.value("link"), &a.positional[..]) {
                (Some(link), []) => scenario_of_link(link)?,
                (None, [file]) => read_scenario(file)?,
                _ => {
                    return Err(Usage(format!(
                    "eval takes one scenario file, - for standard input, or --link URL\n\n{USAGE}"
                )))
                }
            };
            let row = job_row(&sc)?;
            if a.flag("csv") {
                Ok(to_csv(&[row]))
            } else {
                Ok(pretty(&row))
            }
        }
        "serve-curve" => {
            let a = Args::parse(
                rest,
                &[
                    "system",
                    "nodes",
                    "model",
                    "model-config",
                    "dtype",
                    "prompt",
                    "output",
                    "usd-per-chip-hour",
                    "price-basis",
                    "slo-ttft",
                    "slo-tpot",
                    "link",
                    "weight-dtype",
                    "kv-dtype",
                    "draft",
                    "acceptance",
                    "prefix-hit",
                ],
                &["json", "all"],
            )?;
            no_positionals(&a)?;
            match a.value("link") {
                Some(link) => serving_of_link(link, a.flag("json")),
                None => serve_curve(&a, false),
            }
        }
        "model" => {
            let a = Args::parse(rest, &["model", "model-config"], &["json"])?;
            no_positionals(&a)?;
            let m = model_of(&a)?;
            let p = workload::custom::published(&m);
            let kv = m.kv_bytes_per_token(Dtype::Bf16);
            let v = json!({
                "name": m.name, "spec": m.to_spec(), "params_total": m.params_total(),
                "params_active": m.params_active(), "kv_bytes_per_token_bf16": kv,
                "train_flops_per_token": m.train_flops_per_token(),
                "published": p.map(|p| json!({"name": p.name, "total": p.total, "active": p.active,
                    "source": {"title": p.source.title, "url": p.source.url, "date": p.source.date}})),
            });
            if a.flag("json") {
                Ok(pretty(&v))
            } else {
                let vs = |x: f64| format!("{} B", sig(x / 1e9, 4));
                Ok(format!(
                    "{}: {} parameters, {} active per token; KV cache {} KiB per token in BF16{}\nspec: {}",
                    m.name,
                    vs(m.params_total()),
                    vs(m.params_active()),
                    sig(kv / 1024.0, 4),
                    p.map_or(String::new(), |p| format!(
                        "\npublished ({}): {}{} — {}",
                        p.name,
                        vs(p.total),
                        p.active.map_or(String::new(), |a| format!(", {} active", vs(a))),
                        p.source.url
                    )),
                    m.to_spec()
                ))
            }
        }
        "compare" => {
            let a = Args::parse(rest, &[], &["json"])?;
            let [x, y] = a.positional[..] else {
                return Err(Usage(format!(
                    "compare takes two scenarios: files, - for standard input, or links\n\n{USAGE}"
                )));
            };
            // A link has a query; a file name has none.
            let load = |s: &str| {
                if s.contains('=') {
                    scenario_of_link(s)
                } else {
                    read_scenario(s)
                }
            };
            let (sa, sb) = (load(x)?, load(y)?);
            compare(&sa, &sb, a.flag("json"))
        }
        "sweep" => {
            let a = Args::parse(rest, &["set"], &[])?;
            let [file] = a.positional[..] else {
                return Err(Usage(format!(
                    "sweep takes one scenario file, or - for standard input\n\n{USAGE}"
                )));
            };
            let sc = read_scenario(file)?;
            let spec = a.required("set")?;
            let (path, range) = spec
                .split_once('=')
                .ok_or_else(|| Usage(format!("--set wants PATH=FROM..TO:STEPS, got '{spec}'")))?;
            let (span, steps) = range.split_once(':').unwrap_or((range, "11"));
            let (from, to) = span
                .split_once("..")
                .ok_or_else(|| Usage(format!("--set wants FROM..TO, got '{span}'")))?;
            let from = positive_or_zero(from, "FROM")?;
            let to = positive_or_zero(to, "TO")?;
            let steps: u32 = match steps.trim().parse() {
                Ok(n) if (2..=10_000).contains(&n) => n,
                _ => {
                    return Err(Usage(format!(
                        "STEPS must be a whole number from 2 to 10000, got '{steps}'"
                    )))
                }
            };
            let base = serde_json::to_value(&sc)?;
            let pointer = format!("/{}", path.replace('.', "/"));
            if base
                .pointer(&pointer)
                .is_none_or(|v| !v.is_number() && !v.is_null())
            {
                return Err(Usage(format!(
                    "'{path}' is not a numeric setting of the scenario (try job.efficiency, job.nodes, job.usd_per_chip_hour, job.discount, job.tokens, job.pue)"
                )));
            }
            let mut rows = Vec::new();
            // A long sweep says how far it has got on stderr, a tenth at a time.
            let tenth = (steps >= 100).then_some(steps / 10);
            for k in 0..steps {
                if let Some(t) = tenth.filter(|t| k > 0 && k % t == 0) {
                    eprintln!("sweep: {}% ({k} of {steps} steps)", k / t * 10);
                }
                let x = from + (to - from) * f64::from(k) / f64::from(steps - 1);
                let mut v = base.clone();
                if let Some(slot) = v.pointer_mut(&pointer) {
                    *slot = if slot.is_u64() {
                        json!(x.round() as u64)
                    } else {
                        json!(x)
                    };
                }
                let sc: Scenario = serde_json::from_value(v)?;
                let mut row = job_row(&sc).unwrap_or_else(|e| json!({ "error": e.0 }));
                row[path] = json!(x);
                rows.push(row);
            }
            Ok(to_csv(&rows))
        }
        "kernel" => kernel_cmd(rest),
        "neuroncore" => neuroncore::cmd(rest),
        "help" | "--help" | "-h" => Ok(USAGE.into()),
        other => Err(Usage(format!("unknown command '{other}'\n\n{USAGE}"))),
    }
}

fn positive_or_zero(x: &str, name: &str) -> Result<f64, Usage> {
    match x.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(Usage(format!(
            "{name} must be a number of at least 0, got '{x}'"
        ))),
    }
}

/// The scenario of a link (a whole URL or its query); refused if any part cannot be read.
fn scenario_of_link(link: &str) -> Result<Scenario, Usage> {
    let query = link.split_once('?').map_or(link, |(_, q)| q);
    let query = query.split_once('#').map_or(query, |(q, _)| q);
    let (sc, notes) = Scenario::from_query(query);
    refuse_notices(sc, &notes, "the link has parts that cannot be read")
}

/// The scenario, or an error listing what could not be used.
fn refuse_notices(sc: Scenario, notes: &[engine::Notice], what: &str) -> Result<Scenario, Usage> {
    if notes.is_empty() {
        return Ok(sc);
    }
    let list: Vec<String> = notes
        .iter()
        .map(|n| format!("{}: {}", n.key, n.message))
        .collect();
    Err(Usage(format!("{what}: {}", list.join("; "))))
}

fn read_scenario(file: &str) -> Result<Scenario, Usage> {
    let text = if file == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| Usage(format!("cannot read standard input: {e}")))?;
        s
    } else {
        std::fs::read_to_string(file).map_err(|e| Usage(format!("cannot read '{file}': {e}")))?
    };
    let sc: Scenario = serde_json::from_str(&text)
        .map_err(|e| Usage(format!("'{file}' is not a scenario: {e}")))?;
    let bad = sc.check();
    refuse_notices(
        sc,
        &bad,
        &format!("'{file}' holds values a link would refuse (named by their link keys)"),
    )
}

/// The job report of a scenario as one flat JSON object (one CSV row).
fn job_row(sc: &Scenario) -> Result<Value, Usage> {
    let r = engine::job::evaluate(&sc.job)?;
    let l = r.train.layout;
    Ok(json!({
        "system": sc.job.system,
        "nodes": sc.job.nodes,
        "chips": r.chips,
        "model": sc.job.model,
        "dtype": sc.job.dtype.id(),
        "tokens": sc.job.tokens,
        "tp": l.tp,
        "pp": l.pp,
        "dp": l.dp,
        "ep": l.ep,
        "cp": l.cp,
        "zero": l.zero,
        "recompute": l.recompute,
        "overlap": r.overlap.value,
        "tokens_per_s": r.train.tokens_per_s,
        "mfu": r.train.mfu,
        "step_s": r.train.step.get(),
        "time_s": r.time_s,
        "chip_hours": r.chip_hours,
        "usd_per_chip_hour": r.usd_per_chip_hour.value,
        "price_kind": r.price.kind,
        "price_as_of": r.price.as_of,
        "price_region": r.price.region,
        "price_basis": r.price.basis.map(|b| b.id()),
        "price_fell_back": r.price.fell_back,
        "cost_usd": r.cost_usd,
        "train_cost_per_mtok_usd": r.train_usd_per_mtok,
        "infer_cost_per_mtok_usd": r.infer_usd_per_mtok,
        "chips_needed": r.infer.as_ref().map(|i| i.chips_needed),
        "infer_tokens_per_s": r.infer.as_ref().map(|i| i.tokens_per_s),
        "usd_per_pflop_hour_marketed": r.usd_per_pflop_hour_marketed,
        "usd_per_pflop_hour_achieved": r.usd_per_pflop_hour_achieved,
        "memory_per_chip_bytes": r.train.memory.total(),
        "racks": r.racks,
        "rack_kw": r.rack_w / 1e3,
        "facility_kw": r.facility_w / 1e3,
        "joules_per_token": r.joules_per_token,
        "interruptions": r.failures.interruptions,
        "goodput": r.failures.goodput,
        "real_time_s": r.real_days * 86_400.0,
        "failure_cost_usd": r.failure_cost_usd,
    }))
}

/// Rows of flat objects as CSV, columns in the first row's order.
fn to_csv(rows: &[Value]) -> String {
    let Some(Value::Object(first)) = rows.first() else {
        return String::new();
    };
    let mut cols: Vec<String> = first.keys().cloned().collect();
    for r in rows {
        if let Value::Object(m) = r {
            for k in m.keys() {
                if !cols.contains(k) {
                    cols.push(k.clone());
                }
            }
        }
    }
    let cell = |v: &Value| match v {
        Value::Null => String::new(),
        Value::String(s) => format!("\"{}\"", s.replace('"', "\"\"")),
        other => other.to_string(),
    };
    let mut out = cols.join(",");
    for r in rows {
        out.push('\n');
        let line: Vec<String> = cols
            .iter()
            .map(|c| cell(r.get(c).unwrap_or(&Value::Null)))
            .collect();
        out.push_str(&line.join(","));
    }
    out
}

/// `--system` and `--nodes` as a cluster, with the system's chip.
fn cluster_of(a: &Args<'_>) -> Result<(Cluster, engine::Chip), Usage> {
    let system = system::find(a.required("system")?)?;
    let chip = catalog::find(system.chip)?;
    let nodes = keyed(a.value("nodes"), "nodes", "wnodes", 1)?;
    Ok((Cluster { system, nodes }, chip))
}

fn sys_chip(c: &Cluster) -> &'static str {
    c.system.chip
}

/// A whole number of at least 1, or `default` when absent.
/// Largest count a flag takes (nodes, parallel degrees): as a link allows, and small enough
/// that their products stay inside the engine's integers.
const MAX_COUNT: u32 = engine::scenario::MAX_NODES;

fn count(v: Option<&str>, name: &str, default: u32) -> Result<u32, Usage> {
    match v {
        None => Ok(default),
        Some(x) => match x.trim().parse::<u32>() {
            Ok(n) if (1..=MAX_COUNT).contains(&n) => Ok(n),
            _ => Err(Usage(format!(
                "--{name} must be a whole number from 1 to {MAX_COUNT}, got '{}'",
                x.chars().take(40).collect::<String>()
            ))),
        },
    }
}

/// A whole number within the range of the link key `key` (the link-key table's), or
/// `default` when absent: a flag and its link key accept exactly the same values.
fn keyed(v: Option<&str>, name: &str, key: &str, default: u32) -> Result<u32, Usage> {
    let (lo, hi) = engine::scenario::keys::range(key).unwrap_or((1.0, f64::from(MAX_COUNT)));
    match v {
        None => Ok(default),
        Some(x) => match x.trim().parse::<u32>() {
            Ok(n) if (lo..=hi).contains(&f64::from(n)) => Ok(n),
            _ => Err(Usage(format!(
                "--{name} must be a whole number from {lo} to {hi} (as the link key {key}), got '{}'",
                x.chars().take(40).collect::<String>()
            ))),
        },
    }
}

/// A positive number (e notation allowed), or `default` when absent.
fn positive(v: Option<&str>, name: &str, default: f64) -> Result<f64, Usage> {
    match v {
        None => Ok(default),
        Some(x) => match x.trim().parse::<f64>() {
            Ok(n) if n.is_finite() && n > 0.0 => Ok(n),
            _ => Err(Usage(format!(
                "--{name} must be a positive number, got '{x}'"
            ))),
        },
    }
}

/// A fraction in (0, 1], or `default` when absent.
fn fraction(v: Option<&str>, name: &str, default: f64) -> Result<f64, Usage> {
    let x = positive(v, name, default)?;
    if x > 1.0 {
        return Err(Usage(format!("--{name} must be in (0, 1], got '{x}'")));
    }
    Ok(x)
}

/// The serving options that change the bill: weight and KV-cache formats, speculative
/// decoding and the prefix cache (the rest of the configuration left at its defaults).
fn knobs(a: &Args<'_>, cfg: workload::InferConfig) -> Result<workload::InferConfig, Usage> {
    let dtype = |k: &str| a.value(k).map(str::parse::<Dtype>).transpose();
    let rate = |k: &str, default: f64| -> Result<f64, Usage> {
        match a.value(k) {
            None => Ok(default),
            Some(v) => match v.parse::<f64>() {
                Ok(x) if (0.0..=0.99).contains(&x) => Ok(x),
                _ => Err(Usage(format!("--{k} must be from 0 to 0.99, got '{v}'"))),
            },
        }
    };
    let draft = match a.value("draft") {
        None => 0,
        Some(v) => match v.parse::<u32>() {
            Ok(n) if n <= workload::MAX_DRAFT => n,
            _ => {
                return Err(Usage(format!(
                    "--draft must be a whole number of tokens from 0 to {}, got '{v}'",
                    workload::MAX_DRAFT
                )))
            }
        },
    };
    Ok(workload::InferConfig {
        weight_dtype: dtype("weight-dtype")?,
        kv_dtype: dtype("kv-dtype")?,
        draft_tokens: draft,
        acceptance: rate("acceptance", 0.7)?,
        prefix_hit: rate("prefix-hit", 0.0)?,
        ..cfg
    })
}

/// The price a command uses and what it stands on.
struct Price {
    /// $ per chip-hour.
    usd: f64,
    /// The rate's label and source.
    label: String,
    pricing: tco::Pricing,
    origin: tco::rates::PriceOrigin,
}

/// The price used: `--usd-per-chip-hour`, or the chip's published rate on `--price-basis`
/// (the default basis when not given), as the app prices a job.
fn pricing(a: &Args<'_>, chip: &str) -> Result<Price, Usage> {
    use tco::rates::{self, Basis, PriceOrigin};
    let (label, s, origin) = match a.value("usd-per-chip-hour") {
        Some(x) => (
            "given on the command line".to_string(),
            engine::Sourced::user(positive(Some(x), "usd-per-chip-hour", 0.0)?),
            PriceOrigin::of_own("user"),
        ),
        None => {
            let basis = match a.value("price-basis") {
                None => rates::default_basis(),
                Some(b) => Basis::parse(b).ok_or_else(|| {
                    Usage(format!(
                        "no price basis '{b}' (valid: {})",
                        rates::basis_ids()
                    ))
                })?,
            };
            let (r, fell_back) = rates::rate_on(chip, basis);
            (
                format!("{}: {}", r.label(), r.sourced().source),
                r.sourced(),
                PriceOrigin::of_rate(&r, basis, fell_back),
            )
        }
    };
    let p = tco::Pricing::Rental {
        usd_per_chip_hour: s,
        discount: 0.0,
    };
    Ok(Price {
        usd: p.usd_per_chip_hour(),
        label,
        pricing: p,
        origin,
    })
}

fn no_positionals(a: &Args<'_>) -> Result<(), Usage> {
    match a.positional.first() {
        Some(p) => Err(Usage(format!("unexpected argument '{p}'\n\n{USAGE}"))),
        None => Ok(()),
    }
}

fn parse_intensity(x: &str) -> Result<FlopPerByte, Usage> {
    match x.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(FlopPerByte::new(v)),
        _ => Err(Usage(format!(
            "--intensity must be a positive number of FLOP per byte, got '{x}'"
        ))),
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

fn roofline_out(
    chip: &Chip,
    d: Dtype,
    roof: Roofline,
    intensity: Option<FlopPerByte>,
    op: Option<&OpSpec>,
    as_json: bool,
) -> String {
    let ridge = roof.ridge();
    let mut v = json!({
        "chip": chip.id,
        "dtype": d.id(),
        "peak_flop_per_s": roof.peak.get(),
        "hbm_bandwidth_bytes_per_s": roof.bandwidth.get(),
        "ridge_flop_per_byte": ridge.get(),
        "formula": "ridge = peak / bandwidth; attainable = min(peak, intensity × bandwidth)",
    });
    if let Some(op) = op {
        let c = op.cost(d);
        v["operation"] = json!({
            "spec": op.to_spec(),
            "label": op.label(),
            "flop": c.flop.get(),
            "hbm_bytes": c.bytes.get(),
            "formula": op.formula(),
        });
    }
    if let Some(i) = intensity {
        let b = roof.bound(i);
        v["intensity_flop_per_byte"] = json!(i.get());
        v["attainable_flop_per_s"] = json!(roof.attainable(i).get());
        v["fraction_of_peak"] = json!(roof.attainable(i) / roof.peak);
        v["bound"] = json!(b.kind());
        v["bound_detail"] = json!(b.to_string());
    }
    if as_json {
        return pretty(&v);
    }
    let mut s = format!(
        "{} {}: peak {}, HBM {}, ridge {}",
        chip.name,
        d.label(),
        roof.peak,
        roof.bandwidth,
        ridge
    );
    if let Some(i) = intensity {
        let _ = write!(
            s,
            "\nat {}: attainable {} ({})",
            i,
            roof.attainable(i),
            roof.bound(i)
        );
    }
    s
}

fn chips_table(chips: &[Chip]) -> String {
    let mut s = format!(
        "{:<10} {:<28} {:>14} {:>14} {:>10} {:>12} {:>8}\n",
        "id", "name", "BF16 dense", "FP8 dense", "HBM", "HBM BW", "power"
    );
    for c in chips {
        let dense = |d| c.dense(d).map_or("—".to_string(), |f| f.display_si());
        let _ = writeln!(
            s,
            "{:<10} {:<28} {:>14} {:>14} {:>10} {:>12} {:>8}",
            c.id,
            c.name,
            dense(Dtype::Bf16),
            dense(Dtype::Fp8),
            c.hbm_capacity.value.display_memory(),
            c.hbm_bandwidth.value.display_si(),
            c.power.map_or("—".into(), |p| p.value.display_si())
        );
    }
    s.trim_end().into()
}

fn chip_text(c: &Chip) -> String {
    let mut s = format!("{} ({}, {})\n", c.name, c.id, c.vendor);
    let mut line = |what: &str, value: String, src: &engine::Source, est: bool, note: &str| {
        let _ = write!(
            s,
            "  {what:<22} {value:>16}{}  [{src}]",
            if est { " (estimate)" } else { "" }
        );
        if !note.is_empty() {
            let _ = write!(s, " — {note}");
        }
        s.push('\n');
    };
    for d in Dtype::ALL {
        let p = c.peak(d);
        if let Some(x) = p.dense {
            line(
                &format!("{} dense", d.label()),
                x.value.display_si(),
                &x.source,
                x.estimate,
                x.note,
            );
        }
        if let Some(x) = p.sparse {
            line(
                &format!("{} sparse ({})", d.label(), c.sparsity),
                x.value.display_si(),
                &x.source,
                x.estimate,
                x.note,
            );
        }
    }
    let h = c.hbm_capacity;
    line(
        "HBM capacity",
        h.value.display_memory(),
        &h.source,
        h.estimate,
        h.note,
    );
    let b = c.hbm_bandwidth;
    line(
        "HBM bandwidth",
        b.value.display_si(),
        &b.source,
        b.estimate,
        b.note,
    );
    for m in &c.sram {
        let x = m.capacity;
        line(
            m.name,
            x.value.display_memory(),
            &x.source,
            x.estimate,
            x.note,
        );
    }
    line(
        &format!("cores ({})", c.core_kind),
        c.cores.value.to_string(),
        &c.cores.source,
        c.cores.estimate,
        c.cores.note,
    );
    for k in &c.clocks {
        let x = k.frequency;
        line(
            k.engine,
            x.value.display_si(),
            &x.source,
            x.estimate,
            x.note,
        );
    }
    match c.power {
        Some(p) => line("power", p.value.display_si(), &p.source, p.estimate, p.note),
        None => s.push_str("  power                  not published\n"),
    }
    s.trim_end().into()
}

/// `accelscope kernel ...`: the kernels page's runs, natively, with their speed.
fn kernel_cmd(rest: &[String]) -> Result<String, Usage> {
    use engine::kernels::{self, stream::Stream, Distribution, Rng};
    use std::time::Instant;
    let a = Args::parse(
        rest,
        &[
            "m", "n", "k", "in", "w", "in-scale", "w-scale", "acc", "out", "dist", "seed",
            "repeat", "size",
        ],
        &["json", "stochastic", "no-saturate"],
    )?;
    let Some(&name) = a.positional.first() else {
        return Err(Usage(format!(
            "kernel needs a kernel name or bench\n\n{USAGE}"
        )));
    };
    if a.positional.len() > 1 {
        return Err(Usage(format!("unexpected argument '{}'", a.positional[1])));
    }
    let best_of = |reps: usize, f: &mut dyn FnMut() -> f32| {
        let mut best = f64::INFINITY;
        let mut sink = 0.0f32;
        for _ in 0..reps.max(1) {
            let t = Instant::now();
            sink += f();
            best = best.min(t.elapsed().as_secs_f64());
        }
        std::hint::black_box(sink);
        best
    };
    if name == "bench" {
        let size = a
            .value("size")
            .unwrap_or("512")
            .parse::<usize>()
            .ok()
            .filter(|s| (16..=4096).contains(s))
            .ok_or_else(|| {
                Usage("--size is the GEMM's M = N = K, a whole number from 16 to 4096".into())
            })?;
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
        let mut streams = serde_json::Map::new();
        for k in Stream::ALL {
            let t = best_of(5, &mut || k.run(&mut p, &q, &r, 0.5));
            streams.insert(
                format!("{}_gb_per_s", k.id()),
                json!((k.bytes_per_element() * len) as f64 / t / 1e9),
            );
        }
        let v = json!({ "gemm_size": size, "gemm_f32_gflop_per_s": gflops, "stream": streams, "threads": 1 });
        if a.flag("json") {
            return Ok(pretty(&v));
        }
        let mut s = format!("f32 GEMM {size}^3: {gflops:.1} GFLOP/s (one thread)\n");
        for (k, v) in &streams {
            let _ = writeln!(
                s,
                "{:<18} {:.1}",
                k.replace("_gb_per_s", " GB/s"),
                v.as_f64().unwrap_or(0.0)
            );
        }
        return Ok(s.trim_end().into());
    }
    let mut pairs: Vec<(&str, &str)> = vec![("kern", name)];
    for (flag, key) in [
        ("m", "km"),
        ("n", "kn"),
        ("k", "kk"),
        ("in", "kin"),
        ("w", "kw"),
        ("in-scale", "kins"),
        ("w-scale", "kws"),
        ("acc", "kacc"),
        ("out", "kout"),
        ("dist", "kdist"),
        ("seed", "kseed"),
    ] {
        if let Some(v) = a.value(flag) {
            pairs.push((key, v));
        }
    }
    // Weights default to the input's format unless given.
    if a.value("w").is_none() {
        if let Some(v) = a.value("in") {
            pairs.push(("kw", v));
        }
    }
    if a.flag("stochastic") {
        pairs.push(("ksr", "1"));
    }
    if a.flag("no-saturate") {
        pairs.push(("ksat", "0"));
    }
    let (spec, notes) = kernels::KernelSpec::from_pairs(pairs);
    if !notes.is_empty() {
        return Err(Usage(notes.join("; ")));
    }
    let reps = a
        .value("repeat")
        .unwrap_or("1")
        .parse::<usize>()
        .ok()
        .filter(|r| (1..=100).contains(r))
        .ok_or_else(|| Usage("--repeat is a whole number from 1 to 100".into()))?;
    let prepared = kernels::prepare(&spec).map_err(Usage)?;
    let mut raw = Vec::new();
    let secs = best_of(reps, &mut || {
        raw = kernels::execute(&prepared);
        raw.first().copied().unwrap_or(0.0)
    });
    let r = kernels::finish(&prepared, &raw);
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
    let v = json!({
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
            "mean_rel": e.mean_rel, "snr_db": finite_or_null(e.snr_db), "rms_ref": e.rms_ref,
            "exact": e.exact, "non_finite": e.non_finite, "count": e.count,
            "histogram_log10_lo": kernels::stats::HIST_LO, "histogram_log10_hi": kernels::stats::HIST_HI,
            "histogram": e.histogram,
        },
        "rounding": quant,
        "kernel_s": secs,
        "gflop_per_s": r.flops / secs / 1e9,
        "threads": 1,
        "formula": r.formula,
    });
    if a.flag("json") {
        return Ok(pretty(&v));
    }
    Ok(format!(
        "{}\nSNR {:.2} dB; |error| max {:.3e}, mean {:.3e}; relative max {:.3e}, mean {:.3e} (rms of the reference {:.3e})\n{} exact, {} not finite of {}; kernel {:.3} ms, {:.2} GFLOP/s (one thread)",
        r.formula, e.snr_db, e.max_abs, e.mean_abs, e.max_rel, e.mean_rel, e.rms_ref,
        e.exact, e.non_finite, e.count, secs * 1e3, r.flops / secs / 1e9
    ))
}

/// JSON has no infinity: an exact result's SNR is null.
fn finite_or_null(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

/// Headline figures of two scenarios and the waterfalls between them, as JSON or text.
fn compare(a: &Scenario, b: &Scenario, json: bool) -> Result<String, Usage> {
    use engine::compare::{headline, waterfall};
    let (ha, hb) = (headline(&a.job)?, headline(&b.job)?);
    let ws = waterfall(&a.job, &b.job)?;
    if json {
        let figures: Vec<Value> = ha
            .iter()
            .zip(&hb)
            .map(|(x, y)| json!({"figure": x.label, "a": finite(x.value), "b": finite(y.value)}))
            .collect();
        let falls: Vec<Value> = ws
            .iter()
            .map(|w| {
                let mut prev = w.start;
                let steps: Vec<Value> = w
                    .steps
                    .iter()
                    .map(|s| {
                        let v = json!({"factor": s.label, "unit": s.unit, "a": finite(s.a), "b": finite(s.b),
                            "change_usd_per_mtok": finite(s.usd_per_mtok - prev), "after_usd_per_mtok": finite(s.usd_per_mtok)});
                        prev = s.usd_per_mtok;
                        v
                    })
                    .collect();
                json!({"cost": w.what, "formula": w.formula, "a_usd_per_mtok": finite(w.start), "steps": steps})
            })
            .collect();
        return Ok(pretty(&json!({"figures": figures, "waterfalls": falls})));
    }
    let mut out = String::new();
    for (x, y) in ha.iter().zip(&hb) {
        let _ = writeln!(
            out,
            "{:<34} {:>14} {:>14}",
            x.label,
            sig(x.value, 4),
            sig(y.value, 4)
        );
    }
    for w in &ws {
        let _ = writeln!(
            out,
            "\n{}: {}\n  A {:>45}",
            w.what,
            w.formula,
            sig(w.start, 4)
        );
        let mut prev = w.start;
        for s in &w.steps {
            let _ = writeln!(out, "  {:<74} {:>+10.4}", s.label, s.usd_per_mtok - prev);
            prev = s.usd_per_mtok;
        }
        let _ = writeln!(out, "  B {:>45}", sig(prev, 4));
    }
    Ok(out.trim_end().to_string())
}

/// A number for JSON, or null where it is not finite (a figure that does not apply).
fn finite(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

/// The model of `--model-config FILE` (a Hugging Face config.json; what it assumed goes to
/// stderr) or of `--model ID` (a preset or an `m:` spec).
fn model_of(a: &Args) -> Result<workload::Model, Usage> {
    if let Some(file) = a.value("model-config") {
        let meta = std::fs::metadata(file).map_err(|e| Usage(format!("{file}: {e}")))?;
        if meta.len() > engine::json::MAX_BYTES as u64 {
            return Err(Usage(format!(
                "{file}: {} bytes is too large for a config.json",
                meta.len()
            )));
        }
        let text = std::fs::read_to_string(file).map_err(|e| Usage(format!("{file}: {e}")))?;
        let (m, notes) =
            workload::custom::from_hf_config(&text).map_err(|e| Usage(format!("{file}: {e}")))?;
        for n in notes {
            eprintln!("accelscope: note: {n}");
        }
        return Ok(m);
    }
    Ok(workload::find_model(a.required("model")?)?)
}

/// A duration: seconds, or a number with `s`, `ms` or `us`.
fn duration(v: Option<&str>, name: &str) -> Result<f64, Usage> {
    let Some(v) = v else {
        return Ok(f64::INFINITY);
    };
    let t = v.trim();
    let (num, scale) = if let Some(x) = t.strip_suffix("ms") {
        (x, 1e-3)
    } else if let Some(x) = t.strip_suffix("us") {
        (x, 1e-6)
    } else if let Some(x) = t.strip_suffix('s') {
        (x, 1.0)
    } else {
        (t, 1.0)
    };
    match num.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x * scale <= 3600.0 => Ok(x * scale),
        _ => Err(Usage(format!(
            "--{name} wants a duration such as 2s, 50ms or 0.2 (up to an hour), got '{v}'"
        ))),
    }
}

/// The Workload page's serving view of a link: each platform's cheapest configuration
/// meeting the link's targets, at the platform's own price, and the cheapest of all.
fn serving_of_link(link: &str, as_json: bool) -> Result<String, Usage> {
    let sc = scenario_of_link(link)?;
    let s = engine::serving::serving(&sc.job);
    let best = s.cheapest();
    let rows: Vec<Value> = s
        .platforms
        .iter()
        .map(|c| {
            json!({"system": c.system, "usd_per_chip_hour": c.usd_per_chip_hour.value,
                "configurations": c.points.len(), "error": c.error,
                "cheapest": c.cheapest.map(|p| json!({"chips_per_replica": p.tp, "batch": p.batch,
                    "ttft_s": p.ttft_s, "tpot_s": p.tpot_s, "tokens_per_s_per_user": p.interactivity(),
                    "tokens_per_s_per_chip": p.tokens_per_s_per_chip, "usd_per_mtok": c.usd_per_mtok(&p)}))})
        })
        .collect();
    let d = engine::serving::disaggregated(&sc.job);
    let split = json!({
        "prefill_system": d.prefill.system, "decode_system": d.decode.system, "error": d.error,
        "colocated_usd_per_mtok": d.colocated_usd_per_mtok(),
        "cheapest": d.best.map(|b| json!({
            "prefill_chips_per_replica": b.tp_prefill, "decode_chips_per_replica": b.tp_decode,
            "decode_batch": b.batch, "prefill_s": b.prefill_s, "step_s": b.step_s,
            "step_p99_s": b.step_p99_s, "ttft_s": b.ttft_s, "kv_bytes": b.transfer.bytes,
            "kv_transfer_s": b.transfer.seconds, "kv_over_scale_up": b.transfer.scale_up,
            "prefill_replicas_per_decode_replica": b.prefill_per_decode,
            "prefill_share_of_chips": b.prefill_share, "usd_per_mtok": b.usd_per_mtok})),
    });
    if as_json {
        return Ok(pretty(&json!({
            "model": sc.job.model, "dtype": sc.job.dtype.id(), "prompt": sc.job.prompt,
            "output": sc.job.output, "targets": {"ttft_s": s.ttft_s, "tpot_s": s.tpot_s},
            "platforms": rows, "cheapest": best.map(|(i, _)| s.platforms[i].system.clone()),
            "disaggregated": split,
        })));
    }
    let mut out = format!(
        "{} in {}, {} prompt and {} output tokens; targets TTFT ≤ {} ms, TPOT ≤ {} ms\n",
        sc.job.model,
        sc.job.dtype,
        sc.job.prompt,
        sc.job.output,
        sig(s.ttft_s * 1e3, 4),
        sig(s.tpot_s * 1e3, 4)
    );
    for (i, c) in s.platforms.iter().enumerate() {
        let mark = if best.is_some_and(|(j, _)| j == i) {
            "*"
        } else {
            " "
        };
        let _ = match (c.cheapest, &c.error) {
            (Some(p), _) => writeln!(
                out,
                "{mark} {:<16} {:>4} chips × {:>5}: TTFT {:>7.1} ms, TPOT {:>6.2} ms, {:>8.0} tok/s per chip at ${:.3}/chip-h: ${:.3}/Mtok",
                c.system, p.tp, p.batch, p.ttft_s * 1e3, p.tpot_s * 1e3, p.tokens_per_s_per_chip,
                c.usd_per_chip_hour.value, c.usd_per_mtok(&p)
            ),
            (None, Some(e)) => writeln!(out, "  {:<16} {e}", c.system),
            (None, None) => writeln!(out, "  {:<16} no configuration meets the targets", c.system),
        };
    }
    let _ = match (d.best, &d.error) {
        (Some(b), _) => write!(
            out,
            "disaggregated, prefill on {} and decode on {}: {} chips per prefill replica, {} per decode replica × {} sequences, {:.0}% of the chips prefilling; KV cache {:.0} MiB moved {} in {:.1} ms; TTFT {:.0} ms, TPOT {:.1} ms; ${:.3}/Mtok",
            d.prefill.system, d.decode.system, b.tp_prefill, b.tp_decode, b.batch,
            b.prefill_share * 100.0, b.transfer.bytes / 1048576.0,
            if b.transfer.scale_up { "inside the scale-up domain" } else { "over the network" },
            b.transfer.seconds * 1e3, b.ttft_s * 1e3, b.step_s * 1e3, b.usd_per_mtok
        ),
        (None, e) => write!(out, "disaggregated: {}", e.clone().unwrap_or_default()),
    };
    Ok(out.trim_end().to_string())
}

/// The serving curve of a model on a system, and the cheapest point meeting the targets.
fn serve_curve(a: &Args, slo_only: bool) -> Result<String, Usage> {
    use engine::workload::curve::{cheapest, curve, frontier, ServePoint};
    let (cluster, chip) = cluster_of(a)?;
    let model = model_of(a)?;
    let dtype: Dtype = a.required("dtype")?.parse()?;
    let base = knobs(
        a,
        workload::InferConfig::new(
            model,
            dtype,
            1,
            keyed(a.value("prompt"), "prompt", "wpr", 1024)?,
            keyed(a.value("output"), "output", "wout", 256)?,
        ),
    )?;
    let (ttft, tpot) = (
        duration(a.value("slo-ttft"), "slo-ttft")?,
        duration(a.value("slo-tpot"), "slo-tpot")?,
    );
    let price = pricing(a, sys_chip(&cluster))?;
    let pts = curve(&cluster, &chip, &base);
    if pts.is_empty() {
        return Err(Usage(format!(
            "{} does not fit one {}-chip domain of {} in {} at any batch",
            base.model.name,
            cluster.system.chips(),
            cluster.system.name,
            dtype
        )));
    }
    let best = cheapest(&pts, ttft, tpot);
    let row = |p: &ServePoint| {
        json!({"chips_per_replica": p.tp, "batch": p.batch, "ttft_s": p.ttft_s, "tpot_s": p.tpot_s,
            "tokens_per_s_per_user": p.interactivity(), "tokens_per_s_per_chip": p.tokens_per_s_per_chip,
            "usd_per_mtok": p.usd_per_mtok(price.usd)})
    };
    let shown = if a.flag("all") {
        pts.clone()
    } else {
        frontier(&pts)
    };
    let v = json!({
        "system": cluster.system.id, "model": base.model.id, "dtype": dtype.id(),
        "prompt": base.prompt, "output": base.output, "usd_per_chip_hour": price.usd,
        "targets": {"ttft_s": if ttft.is_finite() { json!(ttft) } else { Value::Null },
                    "tpot_s": if tpot.is_finite() { json!(tpot) } else { Value::Null }},
        "cheapest": best.as_ref().map(row),
        "points": if slo_only { Value::Null } else { Value::Array(shown.iter().map(row).collect()) },
    });
    if a.flag("json") {
        return Ok(pretty(&v));
    }
    let mut out = String::new();
    if !slo_only {
        let _ = writeln!(
            out,
            "{:>6} {:>6} {:>10} {:>10} {:>12} {:>14} {:>10}",
            "chips", "batch", "TTFT ms", "TPOT ms", "tok/s/user", "tok/s/chip", "$/Mtok"
        );
        for p in &shown {
            let _ = writeln!(
                out,
                "{:>6} {:>6} {:>10.1} {:>10.2} {:>12.1} {:>14.0} {:>10.3}",
                p.tp,
                p.batch,
                p.ttft_s * 1e3,
                p.tpot_s * 1e3,
                p.interactivity(),
                p.tokens_per_s_per_chip,
                p.usd_per_mtok(price.usd)
            );
        }
    }
    match best {
        Some(p) => {
            let _ = write!(out, "cheapest meeting TTFT ≤ {} and TPOT ≤ {}: {} chips per replica, batch {}: TTFT {:.0} ms, TPOT {:.1} ms ({:.1} tok/s per user), {:.0} tok/s per chip, ${:.3} per million tokens",
                if ttft.is_finite() { format!("{} ms", sig(ttft * 1e3, 4)) } else { "any".into() },
                if tpot.is_finite() { format!("{} ms", sig(tpot * 1e3, 4)) } else { "any".into() },
                p.tp, p.batch, p.ttft_s * 1e3, p.tpot_s * 1e3, p.interactivity(), p.tokens_per_s_per_chip, p.usd_per_mtok(price.usd));
        }
        None => {
            let _ = write!(out, "no configuration meets the targets");
        }
    }
    Ok(out.trim_end().to_string())
}
