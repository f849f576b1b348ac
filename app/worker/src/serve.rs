//! The Workload page's serving simulation: one run at the asked load, then TTFT against
//! offered load on the job's platform and the one compared with, drawn here as SVG so the
//! page's own code stays small.

use std::fmt::Write as _;

use engine::servesim::{self, LoadPoint, Percentiles, SimConfig, SimReport, Traffic};
use engine::units::sig;
use engine::Scenario;
use view::protocol::{Reply, ServeRun};

use crate::render::esc;
use crate::{now_ms, post, stage};

/// Rates a load curve simulates before it refines the highest that holds.
const CURVE_POINTS: usize = 8;
/// Halvings of the bracket around the highest load that holds.
const CURVE_REFINE: usize = 5;
/// Seconds of arrivals at each load of a curve.
const CURVE_SECONDS: f64 = 120.0;

fn ms(x: f64) -> String {
    format!("{} ms", sig(x * 1e3, 3))
}

/// Runs `r` and posts the result twice: the run alone, then with the load curves.
pub fn serve(r: &ServeRun) {
    if let Err(e) = serve_inner(r) {
        post(&Reply::Error(e));
    }
    stage("done");
}

fn serve_inner(r: &ServeRun) -> Result<(), String> {
    let (sc, _) = Scenario::from_query(&r.query);
    let job = sc.job;
    let traffic = if r.trace.trim().is_empty() {
        Traffic::named(&r.traffic).ok_or_else(|| format!("no traffic '{}'", r.traffic))?
    } else {
        Traffic::parse_trace(&r.trace)?
    };
    let (sm, analytic, tp) =
        engine::job::serve_step(&job, &job.system).map_err(|e| e.to_string())?;
    let mut cfg = SimConfig::new(traffic, r.rate, job.prompt, job.output);
    cfg.duration_s = r.duration_s;
    cfg.seed = r.seed;
    cfg.prefix_cache = r.prefix_cache;
    cfg.vary_lengths = job.sim_vary;
    if job.sim_host_kv_gb > 0.0 {
        cfg.host_kv_bytes = job.sim_host_kv_gb * 1e9;
        cfg.host_bw = job.sim_host_bw_gbps * 1e9;
    }
    if let Some(e) = servesim::engines::find(&job.sim_engine) {
        e.apply(&mut cfg);
    }
    cfg.max_seqs = job.batch.max(1);
    cfg.ttft_target_s = job.ttft_s;
    cfg.tpot_target_s = job.tpot_s;
    stage(format!(
        "simulating {} s of {} traffic…",
        sig(r.duration_s, 3),
        cfg.traffic.id()
    ));
    let t0 = now_ms();
    let rep = servesim::simulate(&sm, &cfg).map_err(|e| e.to_string())?;
    let took = now_ms() - t0;
    let name =
        |id: &str| engine::system::find(id).map_or_else(|_| id.to_string(), |s| s.name.to_string());
    let head = summary(&rep, &cfg, analytic, tp, &name(&job.system), took);
    post(&Reply::Result(head.clone()));
    // TTFT against offered load, on the job's platform and the one compared with.
    let mut curves = Vec::new();
    let systems: Vec<String> = if job.compare_with == job.system {
        vec![job.system.clone()]
    } else {
        vec![job.system.clone(), job.compare_with.clone()]
    };
    for (k, id) in systems.iter().enumerate() {
        let Ok((sm, _, tp)) = engine::job::serve_step(&job, id) else {
            continue;
        };
        // The most requests a second the replica's arithmetic allows, prompt and output
        // together; the curve spans 1/100 of it to 1.2 times it.
        let per_request = f64::from(job.prompt + job.output)
            * sm.model.forward_flops_per_token(f64::from(job.prompt))
            / (f64::from(sm.tp) * sm.peak);
        let hi = 1.2 / per_request;
        let curve_cfg = SimConfig {
            duration_s: CURVE_SECONDS,
            ..cfg.clone()
        };
        let who = name(id);
        let (pts, max) = servesim::load_curve(
            &sm,
            &curve_cfg,
            (hi / 100.0, hi),
            CURVE_POINTS,
            CURVE_REFINE,
            &mut |i, n| {
                stage(format!(
                    "load curve {} of {}, {who}: {i} of {n} loads",
                    k + 1,
                    systems.len()
                ))
            },
        )
        .map_err(|e| e.to_string())?;
        curves.push((who, tp, pts, max));
    }
    let with_curves = head + &load_chart(&curves, &cfg);
    post(&Reply::Result(with_curves.clone()));
    stage("checking the simulator against published runs…");
    post(&Reply::Result(with_curves + &published()));
    Ok(())
}

/// The simulator against the published runs under load it is checked on, each simulated as
/// it was run (`engine::servesim::measured`).
fn published() -> String {
    use engine::servesim::measured;
    let Ok(checks) = measured::checks() else {
        return String::new();
    };
    let mut rows = String::new();
    for (i, c) in checks.iter().enumerate() {
        // A run's name once, over the rows of its latencies.
        let head = if i > 0 && checks[i - 1].label == c.label {
            String::new()
        } else {
            let n = checks[i..]
                .iter()
                .take_while(|x| x.label == c.label)
                .count();
            format!(
                r#"<th scope="rowgroup" rowspan="{n}">{}<div class="small-note">{}</div></th>"#,
                esc(c.label),
                esc(c.note)
            )
        };
        let _ = write!(
            rows,
            r#"<tr data-role="{}">{head}<td>{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{:+.0}%</td><td>{}</td></tr>"#,
            c.role.id(),
            c.latency.id().trim_end_matches("_s").replace('_', " "),
            ms(c.measured),
            ms(c.simulated),
            c.error() * 100.0,
            c.role.id()
        );
    }
    let sources: Vec<String> = measured::RUNS
        .iter()
        .map(|r| {
            format!(
                r#"<a href="{}" rel="noopener" target="_blank">{}</a>"#,
                esc(r.source.url),
                esc(r.source.title)
            )
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let count = |role: &str| checks.iter().filter(|c| c.role.id() == role).count();
    format!(
        r#"<details class="sim-published" id="sim-published"><summary>How the simulator compares with published runs under load ({} of {} latencies within their bounds: {} held out, {} tuned against, {} fitted; {} depart, each for the reason under its run)</summary><p class="small-note">Each run simulated as it was run: its rate a replica, lengths spread about the dataset's means, sequence cap, token budget and engine. One parameter is fitted: the Python-scheduled engines' time a step on the host, to SGLang's median TPOT at 4 requests/s. The first runs were in view while that and the prefill policy were built (tuned against, within ±{:.0}%); the runs entered after them are the evidence (held out, the same bound, fixed when they entered). Under each run, how it was run and, where it departs, what the simulator lacks. Sources: {}.</p><div class="table-wrap"><table class="grid" id="sim-published-table"><thead><tr><th scope="col">run</th><th scope="col">latency</th><th scope="col">measured</th><th scope="col">simulated</th><th scope="col">error</th><th scope="col">role</th></tr></thead><tbody>{rows}</tbody></table></div></details>"#,
        checks.iter().filter(|c| c.within).count(),
        checks.len(),
        count("held-out"),
        count("tuned-against"),
        count("fitted"),
        count("departs"),
        engine::calibration::tolerance(
            engine::calibration::Role::TunedAgainst,
            engine::calibration::Family::ServingLoad
        ) * 100.0,
        sources.join("; ")
    )
}

fn row(name: &str, p: &Percentiles) -> String {
    format!(
        r#"<tr><th scope="row">{name}</th><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td></tr>"#,
        ms(p.p50),
        ms(p.p90),
        ms(p.p99)
    )
}

fn summary(
    r: &SimReport,
    c: &SimConfig,
    analytic: f64,
    tp: u32,
    system: &str,
    took_ms: f64,
) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<div id="sim-result" data-ttft-p99="{}" data-tpot-p50="{}" data-completed="{}" data-analytic-tpot="{analytic}">"#,
        r.ttft_s.p99, r.tpot_s.p50, r.completed
    );
    let _ = write!(
        s,
        r#"<p class="small-note">{} requests of {} traffic at {} a second over {} s on one replica ({tp} chip{} of {}), {} answered; simulated in {} ms.</p>"#,
        r.requests,
        esc(c.traffic.id()),
        sig(c.rate, 3),
        sig(c.duration_s, 3),
        if tp == 1 { "" } else { "s" },
        esc(system),
        r.completed,
        sig(took_ms, 3)
    );
    let _ = write!(
        s,
        r#"<div class="table-wrap"><table class="grid" id="sim-table"><thead><tr><th scope="col"></th><th scope="col">p50</th><th scope="col">p90</th><th scope="col">p99</th></tr></thead><tbody>{}{}{}{}</tbody></table></div>"#,
        row("time to first token", &r.ttft_s),
        row("time per output token", &r.tpot_s),
        row("inter-token latency", &r.itl_s),
        row("end to end", &r.e2e_s)
    );
    let _ = write!(
        s,
        r#"<p class="small-note">{}. The analytic model's time per token for a request alone: {}.</p>"#,
        esc(&servesim::summary(r, c)),
        ms(analytic)
    );
    s += &cdf(&r.ttfts, &r.tpots);
    s += &timeline(r, c);
    s += "</div>";
    s
}

/// The replica over time: the share of each bin it was busy, the KV cache in use, and the
/// sequences running against the cap.
fn timeline(r: &SimReport, c: &SimConfig) -> String {
    let (w, h, l, b) = (640.0, 150.0, 50.0, 28.0);
    let n = r.timeline.len().max(1) as f64;
    let px = |i: usize| l + (i as f64 + 0.5) / n * (w - l - 10.0);
    let py = |q: f64| 8.0 + (1.0 - q.clamp(0.0, 1.0)) * (h - b - 8.0);
    let line = |f: &dyn Fn(&servesim::Bin) -> f64| -> String {
        let mut d = String::new();
        for (i, bin) in r.timeline.iter().enumerate() {
            let _ = write!(
                d,
                "{}{:.1},{:.1}",
                if i == 0 { "M" } else { " L" },
                px(i),
                py(f(bin))
            );
        }
        d
    };
    let cap = f64::from(c.max_seqs.max(1));
    let mut s = format!(
        r#"<svg class="sim-cdf" id="sim-timeline" viewBox="0 0 {w} {h}" role="img" aria-label="The replica over time: busy, KV cache in use, sequences running">"#
    );
    for (d, color) in [
        (line(&|x| x.busy), "#0b6bcb"),
        (line(&|x| x.kv_used), "#7c3aed"),
        (line(&|x| x.running / cap), "#15803d"),
    ] {
        let _ = write!(
            s,
            r#"<path d="{d}" fill="none" stroke="{color}" stroke-width="1.8"/>"#
        );
    }
    let _ = write!(
        s,
        r#"<line x1="{l}" x2="{l}" y1="8" y2="{}" class="axis"/><line x1="{l}" x2="{}" y1="{}" y2="{}" class="axis"/><text x="{}" y="12" class="tick" text-anchor="end">100%</text><text x="{}" y="{}" class="tick" text-anchor="end">0</text><text x="{l}" y="{}" class="tick">0 s</text><text x="{}" y="{}" class="tick" text-anchor="end">{} s</text></svg>"#,
        h - b,
        w - 10.0,
        h - b,
        h - b,
        l - 4.0,
        l - 4.0,
        h - b,
        h - b + 14.0,
        w - 10.0,
        h - b + 14.0,
        sig(c.duration_s, 3)
    );
    let _ = write!(
        s,
        r#"<p class="small-note"><span class="swatch" style="background:#0b6bcb"></span>busy <span class="swatch" style="background:#7c3aed"></span>KV cache in use (of {} blocks) <span class="swatch" style="background:#15803d"></span>sequences running (of {})</p>"#,
        r.kv_blocks, c.max_seqs
    );
    s
}

/// The distributions of TTFT and TPOT, as cumulative shares of requests.
fn cdf(ttfts: &[f64], tpots: &[f64]) -> String {
    let (w, h, l, b) = (640.0, 200.0, 50.0, 30.0);
    let mut s = format!(
        r#"<svg class="sim-cdf" id="sim-cdf" viewBox="0 0 {w} {h}" role="img" aria-label="Latency distributions: the share of requests within each latency">"#
    );
    let pane = |xs: &[f64], x0: f64, width: f64, name: &str, color: &str| -> String {
        let mut v: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
        v.sort_by(f64::total_cmp);
        let mut o = String::new();
        if v.is_empty() {
            return o;
        }
        let hi = v[(v.len() * 99 / 100).min(v.len() - 1)].max(1e-6) * 1.25;
        let px = |x: f64| x0 + (x / hi).min(1.0) * (width - 10.0);
        let py = |q: f64| 8.0 + (1.0 - q) * (h - b - 8.0);
        let mut d = String::new();
        let step = (v.len() / 200).max(1);
        for (i, x) in v.iter().enumerate().step_by(step) {
            let q = (i + 1) as f64 / v.len() as f64;
            let _ = write!(
                d,
                "{}{:.1},{:.1}",
                if i == 0 { "M" } else { " L" },
                px(*x),
                py(q)
            );
        }
        let _ = write!(
            o,
            r#"<path d="{d}" fill="none" stroke="{color}" stroke-width="2"/><line x1="{x0}" x2="{x0}" y1="8" y2="{}" class="axis"/><line x1="{x0}" x2="{}" y1="{}" y2="{}" class="axis"/><text x="{}" y="{}" class="tick" text-anchor="middle">{name}</text><text x="{x0}" y="{}" class="tick" text-anchor="middle">0</text><text x="{}" y="{}" class="tick" text-anchor="end">{}</text><text x="{}" y="12" class="tick" text-anchor="end">100%</text><text x="{}" y="{}" class="tick" text-anchor="end">50%</text>"#,
            h - b,
            x0 + width - 10.0,
            h - b,
            h - b,
            x0 + width / 2.0,
            h - 4.0,
            h - b + 14.0,
            x0 + width - 10.0,
            h - b + 14.0,
            ms(hi),
            x0 - 4.0,
            x0 - 4.0,
            py(0.5) + 4.0
        );
        o
    };
    let half = (w - l) / 2.0;
    s += &pane(ttfts, l, half - 20.0, "time to first token", "#0b6bcb");
    s += &pane(
        tpots,
        l + half + 10.0,
        half - 20.0,
        "time per output token",
        "#d97706",
    );
    s += "</svg>";
    s
}

/// TTFT p99 against offered load for each platform, the TTFT target as a line and the
/// highest load that holds both targets marked.
fn load_chart(curves: &[(String, u32, Vec<LoadPoint>, Option<f64>)], c: &SimConfig) -> String {
    let colors = ["#0b6bcb", "#c2410c"];
    let pts = curves.iter().flat_map(|x| x.2.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, 0.0_f64, f64::MAX, 0.0_f64);
    for p in pts.clone() {
        x0 = x0.min(p.rate);
        x1 = x1.max(p.rate);
        y0 = y0.min(p.ttft_p99_s.max(1e-4));
        y1 = y1.max(p.ttft_p99_s);
    }
    if x1 <= 0.0 {
        return String::new();
    }
    y0 = y0.min(c.ttft_target_s) / 1.5;
    y1 = y1.max(c.ttft_target_s) * 1.5;
    let (w, h, l, b) = (640.0, 260.0, 74.0, 36.0);
    let lx = |x: f64| x.log10();
    let px = |x: f64| l + (lx(x) - lx(x0)) / (lx(x1) - lx(x0)).max(1e-9) * (w - l - 14.0);
    let py = |y: f64| 10.0 + (1.0 - (lx(y.max(y0)) - lx(y0)) / (lx(y1) - lx(y0))) * (h - b - 10.0);
    let maxes: Vec<String> = curves
        .iter()
        .map(|(who, _, _, m)| format!("{}:{}", esc(who), m.unwrap_or(0.0)))
        .collect();
    let mut s = format!(
        r#"<h3>TTFT against offered load</h3><svg class="sim-load" id="sim-load" viewBox="0 0 {w} {h}" role="img" aria-label="99th-percentile TTFT against requests per second, for each platform" data-max-load="{}">"#,
        maxes.join("|")
    );
    let _ = write!(
        s,
        r#"<line x1="{l}" x2="{}" y1="{t}" y2="{t}" class="ref-line"/><text x="{}" y="{}" class="tick" text-anchor="end">TTFT target {}</text>"#,
        w - 14.0,
        w - 16.0,
        py(c.ttft_target_s) - 5.0,
        ms(c.ttft_target_s),
        t = py(c.ttft_target_s)
    );
    let mut legend = String::new();
    for (k, (who, tp, pts, max)) in curves.iter().enumerate() {
        let color = colors[k % colors.len()];
        let mut d = String::new();
        for (i, p) in pts.iter().enumerate() {
            let _ = write!(
                d,
                "{}{:.1},{:.1}",
                if i == 0 { "M" } else { " L" },
                px(p.rate),
                py(p.ttft_p99_s)
            );
        }
        let _ = write!(
            s,
            r#"<path d="{d}" fill="none" stroke="{color}" stroke-width="2"/>"#
        );
        for p in pts {
            let _ = write!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{}" stroke="{color}" stroke-width="1.5"><title>{} requests/s: TTFT p99 {}, TPOT p99 {}{}</title></circle>"#,
                px(p.rate),
                py(p.ttft_p99_s),
                if p.holds { color } else { "#fff" },
                sig(p.rate, 3),
                ms(p.ttft_p99_s),
                ms(p.tpot_p99_s),
                if p.holds { "" } else { " (misses a target)" }
            );
        }
        if let Some(m) = max {
            let _ = write!(
                s,
                r#"<line x1="{x}" x2="{x}" y1="10" y2="{}" stroke="{color}" stroke-dasharray="4 3"/>"#,
                h - b,
                x = px(*m)
            );
        }
        let _ = write!(
            legend,
            r#"<span class="swatch" style="background:{color}"></span>{} (TP{tp}): {} "#,
            esc(who),
            max.map_or_else(
                || "no load tried holds both targets".to_string(),
                |m| format!("holds up to {} requests/s a replica", sig(m, 3))
            )
        );
    }
    // Axes and ticks.
    let _ = write!(
        s,
        r#"<line x1="{l}" x2="{l}" y1="10" y2="{}" class="axis"/><line x1="{l}" x2="{}" y1="{}" y2="{}" class="axis"/>"#,
        h - b,
        w - 14.0,
        h - b,
        h - b
    );
    for k in 0..=4 {
        let x = x0 * (x1 / x0).powf(f64::from(k) / 4.0);
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{}" class="tick" text-anchor="middle">{}</text>"#,
            px(x),
            h - b + 14.0,
            sig(x, 2)
        );
        let y = y0 * (y1 / y0).powf(f64::from(k) / 4.0);
        let _ = write!(
            s,
            r#"<text x="{}" y="{:.1}" class="tick" text-anchor="end">{}</text>"#,
            l - 4.0,
            py(y) + 4.0,
            ms(y)
        );
    }
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" class="tick" text-anchor="middle">requests per second at one replica</text></svg><p class="small-note">{legend}Hollow points miss a target (TTFT or TPOT at the 99th percentile, MLPerf's Server rule); each load is {} s of arrivals.</p>"#,
        l + (w - l) / 2.0,
        h - 4.0,
        sig(CURVE_SECONDS, 3)
    );
    s
}
