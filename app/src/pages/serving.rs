//! Serving against targets, on the Workload & TCO page: the throughput-versus-interactivity
//! curve of the job's model on several platforms (per chip or per dollar), the TTFT and TPOT
//! targets, and the cheapest configuration that meets them on each platform.

use engine::job::Job;
use engine::serving::{serving, Serving};
use engine::units::sig;
use engine::workload::curve::ServePoint;
use engine::Dtype;
use leptos::prelude::*;

use crate::state::use_scenario;
use crate::widgets::{chart_data, thousands};

mod api;
mod load;
use crate::widgets::{escape, Derived, Fig};
pub use api::ApiBeside;

/// Okabe–Ito colours, told apart with colour-blindness; the job's own platform is first.
const COLOURS: [&str; 8] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#8c6d31",
];

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// 1, 2 and 5 times the powers of ten from `lo` to `hi`; only the powers when that is many.
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let mut t: Vec<f64> = (a..=b)
        .flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(e)))
        .filter(|x| *x >= lo && *x <= hi)
        .collect();
    if t.len() > 8 {
        t.retain(|x| (x.log10() - x.log10().round()).abs() < 1e-9);
    }
    t
}

/// A count with k, M or G, for a tick.
fn short(x: f64) -> String {
    match x {
        x if x >= 1e9 => format!("{}G", sig(x / 1e9, 2)),
        x if x >= 1e6 => format!("{}M", sig(x / 1e6, 2)),
        x if x >= 1e3 => format!("{}k", sig(x / 1e3, 2)),
        x => sig(x, 2),
    }
}

fn ms(s: f64) -> String {
    if s >= 1.0 {
        format!("{} s", sig(s, 3))
    } else {
        format!("{} ms", sig(s * 1e3, 3))
    }
}

/// The chart: each platform's points, its frontier as a line, its cheapest point meeting the
/// targets ringed; the TPOT target as a vertical line.
fn chart(s: &Serving, per_usd: bool, baseline: Option<&[ServePoint]>) -> String {
    let y_of = |i: usize, p: &ServePoint| {
        if per_usd {
            s.platforms[i].tokens_per_usd(p)
        } else {
            p.tokens_per_s_per_chip
        }
    };
    let all = || {
        s.platforms
            .iter()
            .enumerate()
            .flat_map(|(i, c)| c.points.iter().map(move |p| (i, p)))
    };
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, 0.0f64, f64::MAX, 0.0f64);
    for (i, p) in all() {
        let (x, y) = (p.interactivity(), y_of(i, p));
        if x.is_finite() && y.is_finite() && x > 0.0 && y > 0.0 {
            (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
        }
    }
    if let (Some(base), Some(c)) = (baseline, s.platforms.first()) {
        for p in base {
            let (x, y) = (
                p.interactivity(),
                if per_usd {
                    c.tokens_per_usd(p)
                } else {
                    p.tokens_per_s_per_chip
                },
            );
            if x.is_finite() && y.is_finite() && x > 0.0 && y > 0.0 {
                (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
            }
        }
    }
    let target_x = 1.0 / s.tpot_s;
    if x1 <= 0.0 {
        return String::new();
    }
    let (x0, x1) = (x0.min(target_x) / 1.3, x1.max(target_x) * 1.3);
    let (y0, y1) = (y0 / 1.5, y1 * 1.5);
    let (w, h, l, b, r, t) = (760.0, 380.0, 64.0, 44.0, 16.0, 14.0);
    let px = |x: f64| l + (x / x0).ln() / (x1 / x0).ln() * (w - l - r);
    let py = |y: f64| t + (1.0 - (y / y0).ln() / (y1 / y0).ln()) * (h - b - t);
    let full_h = h + 10.0 + 18.0 * s.platforms.len().div_ceil(2) as f64;
    let mut o = format!(
        r#"<svg class="serving-chart" id="serving-chart" viewBox="0 0 {w} {full_h}" role="img" aria-label="Throughput against interactivity, {} platforms" aria-describedby="serving-answer">"#,
        s.platforms.len()
    );
    for x in log_ticks(x0, x1) {
        o.push_str(&format!(
            r#"<line class="grid" x1="{0:.1}" x2="{0:.1}" y1="{t}" y2="{1:.1}"/><text class="tick" x="{0:.1}" y="{2:.1}" text-anchor="middle">{3}</text>"#,
            px(x), h - b, h - b + 16.0, short(x)
        ));
    }
    for y in log_ticks(y0, y1) {
        o.push_str(&format!(
            r#"<line class="grid" x1="{l}" x2="{0:.1}" y1="{1:.1}" y2="{1:.1}"/><text class="tick" x="{2:.1}" y="{3:.1}" text-anchor="end">{4}</text>"#,
            w - r, py(y), l - 6.0, py(y) + 4.0, short(y)
        ));
    }
    o.push_str(&format!(
        r#"<line class="axis" x1="{l}" x2="{l}" y1="{t}" y2="{0}"/><line class="axis" x1="{l}" x2="{1}" y1="{0}" y2="{0}"/><text class="label" x="{2:.1}" y="{3}" text-anchor="middle">tokens/s each user sees (interactivity)</text><text class="label" transform="translate(14 {4:.1}) rotate(-90)" text-anchor="middle">{5}</text>"#,
        h - b, w - r, (l + w - r) / 2.0, h - 6.0, (t + h - b) / 2.0,
        if per_usd { "output tokens per $" } else { "output tokens/s per chip" }
    ));
    let tx = px(target_x);
    o.push_str(&format!(
        r#"<rect class="meets" x="{tx:.1}" y="{t}" width="{0:.1}" height="{1:.1}"/><line class="target" x1="{tx:.1}" x2="{tx:.1}" y1="{t}" y2="{2}"/><text class="tick" x="{3:.1}" y="{4}" text-anchor="start">TPOT ≤ {5}</text>"#,
        (w - r - tx).max(0.0), h - b - t, h - b, tx + 4.0, t + 12.0, ms(s.tpot_s)
    ));
    let best = s.cheapest();
    // The job's platform without its serving options, dashed, under the rest.
    if let (Some(base), Some(c)) = (baseline, s.platforms.first()) {
        let path: String = base
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let y = if per_usd {
                    c.tokens_per_usd(p)
                } else {
                    p.tokens_per_s_per_chip
                };
                format!(
                    "{}{:.1},{:.1}",
                    if k == 0 { "M" } else { " L" },
                    px(p.interactivity()).clamp(l, w - r),
                    py(y).clamp(t, h - b)
                )
            })
            .collect();
        o.push_str(&format!(
            r#"<path class="frontier baseline" id="serving-baseline" d="{path}" stroke="{}"><title>{} without the serving options</title></path>"#,
            COLOURS[0],
            escape(&c.name)
        ));
    }
    for (i, c) in s.platforms.iter().enumerate() {
        let col = COLOURS[i % COLOURS.len()];
        let path: String = c
            .frontier
            .iter()
            .enumerate()
            .map(|(k, p)| {
                format!(
                    "{}{:.1},{:.1}",
                    if k == 0 { "M" } else { " L" },
                    px(p.interactivity()),
                    py(y_of(i, p))
                )
            })
            .collect();
        o.push_str(&format!(
            r#"<g class="platform" data-system="{}" data-points="{}"><path class="frontier" d="{path}" stroke="{col}"/>"#,
            escape(&c.system),
            c.points.len()
        ));
        for p in &c.points {
            let meets = p.meets(s.ttft_s, s.tpot_s);
            o.push_str(&format!(
                r#"<circle class="pt{}" cx="{:.1}" cy="{:.1}" r="2.6" fill="{col}"><title>{}: {} chips × {} sequences · TTFT {} · TPOT {} ({} at the 99th percentile) · {} tok/s per chip · ${}/Mtok</title></circle>"#,
                if meets { "" } else { " miss" },
                px(p.interactivity()),
                py(y_of(i, p)),
                escape(&c.name),
                p.tp,
                p.batch,
                ms(p.ttft_s),
                ms(p.tpot_s),
                ms(p.tpot_p99_s),
                thousands(p.tokens_per_s_per_chip),
                sig(c.usd_per_mtok(p), 3)
            ));
        }
        if let Some(p) = c.cheapest {
            let (cx, cy) = (px(p.interactivity()), py(y_of(i, &p)));
            let win = best.is_some_and(|(j, _)| j == i);
            o.push_str(&format!(
                r#"<circle class="cheapest{}" cx="{cx:.1}" cy="{cy:.1}" r="{}" stroke="{col}"/>"#,
                if win { " best" } else { "" },
                if win { 9 } else { 6 }
            ));
        }
        o.push_str("</g>");
    }
    // The legend, under the axis label, two platforms a row.
    for (i, c) in s.platforms.iter().enumerate() {
        let x = l + 360.0 * (i % 2) as f64;
        let y = h + 8.0 + 18.0 * (i / 2) as f64;
        o.push_str(&format!(
            r#"<g class="legend"><line x1="{0:.1}" x2="{1:.1}" y1="{2:.1}" y2="{2:.1}" stroke="{3}"/><text x="{4:.1}" y="{5:.1}">{6}{7}</text></g>"#,
            x,
            x + 18.0,
            y,
            COLOURS[i % COLOURS.len()],
            x + 24.0,
            y + 4.0,
            escape(&c.name),
            if c.points.is_empty() { " (does not fit)" } else { "" }
        ));
    }
    o.push_str("</svg>");
    o
}

/// Serving against targets: the curve on several platforms, the targets and the cheapest
/// configuration meeting them.
#[component]
pub fn ServingCurves(
    /// The job as set above.
    job: Memo<Job>,
) -> impl IntoView {
    let sc = use_scenario();
    // Only what the curves depend on: changing the training run leaves them be.
    let inputs = Memo::new(move |_| {
        let d = Job::default();
        job.with(|j| Job {
            tokens: d.tokens,
            global_batch: d.global_batch,
            batch: d.batch,
            compare_with: d.compare_with,
            lever: d.lever,
            curve_per_usd: false,
            sim_rate: d.sim_rate,
            sim_traffic: d.sim_traffic.clone(),
            sim_duration_s: d.sim_duration_s,
            sim_prefix_cache: d.sim_prefix_cache,
            sim_engine: d.sim_engine.clone(),
            sim_vary: d.sim_vary,
            sim_host_kv_gb: d.sim_host_kv_gb,
            sim_host_bw_gbps: d.sim_host_bw_gbps,
            ..j.clone()
        })
    });
    let data = Memo::new(move |_| {
        let j = inputs.get();
        let t0 = now_ms();
        let s = serving(&j);
        (s, now_ms() - t0)
    });
    // What each serving option saves: worked out after the chart paints (see `crate::defer`).
    let effects = crate::defer::deferred(move || inputs.get(), engine::serving::effects);
    let error = RwSignal::new(None::<String>);
    let target = move |label: &'static str,
                       key: &'static str,
                       get: fn(&Job) -> f64,
                       set: fn(&mut Job, f64)| {
        let (lo, hi) = engine::job::range(key).unwrap_or((0.0, 0.0));
        view! {
            <label class="inline">{label}
                <input type="text" inputmode="decimal" name=key size="6"
                    prop:value=move || sig(sc.with(|s| get(&s.job)) * 1e3, 6)
                    on:change=move |ev| {
                        let raw = event_target_value(&ev);
                        match raw.trim().parse::<f64>() {
                            Ok(x) if x.is_finite() && x / 1e3 >= lo && x / 1e3 <= hi => {
                                error.set(None);
                                sc.update(|s| set(&mut s.job, x / 1e3));
                            }
                            _ => error.set(Some(format!(
                                "{label}: '{raw}' is not a number of milliseconds from {} to {}; the previous target is kept.",
                                sig(lo * 1e3, 3), sig(hi * 1e3, 3)
                            ))),
                        }
                    }/>
                " ms"
            </label>
        }
    };
    let format_pick = move |label: &'static str,
                            key: &'static str,
                            get: fn(&Job) -> Option<Dtype>,
                            set: fn(&mut Job, Option<Dtype>)| {
        let opts = [Dtype::Bf16, Dtype::Fp8, Dtype::Fp4]
            .into_iter()
            .map(|d| view! { <option value=d.id() selected=move || sc.with(|s| get(&s.job) == Some(d))>{d.to_string()}</option> })
            .collect_view();
        view! {
            <label class="inline">{label}
                <select name=key on:change=move |ev| {
                    let v = event_target_value(&ev);
                    sc.update(|s| set(&mut s.job, v.parse().ok()));
                }>
                    <option value="" selected=move || sc.with(|s| get(&s.job).is_none())>"as computed"</option>
                    {opts}
                </select>
            </label>
        }
    };
    let number = move |label: &'static str,
                       key: &'static str,
                       get: fn(&Job) -> f64,
                       set: fn(&mut Job, f64),
                       lo: f64,
                       hi: f64| {
        view! {
            <label class="inline">{label}
                <input type="text" inputmode="decimal" name=key size="4"
                    prop:value=move || sig(sc.with(|s| get(&s.job)), 4)
                    on:change=move |ev| {
                        let raw = event_target_value(&ev);
                        match raw.trim().parse::<f64>() {
                            Ok(x) if x.is_finite() && x >= lo && x <= hi => {
                                error.set(None);
                                sc.update(|s| set(&mut s.job, x));
                            }
                            _ => error.set(Some(format!(
                                "{}: '{raw}' is not a number from {lo} to {hi}; the previous value is kept.",
                                label.trim()
                            ))),
                        }
                    }/>
            </label>
        }
    };
    // A serving layout degree: empty for the search's choice.
    let degree = move |label: &'static str,
                       key: &'static str,
                       get: fn(&Job) -> Option<u32>,
                       set: fn(&mut Job, Option<u32>)| {
        let hi = engine::keys::MAX_SERVE_DEGREE;
        view! {
            <label class="inline">{label}
                <input type="text" inputmode="numeric" name=key size="3" placeholder="auto"
                    prop:value=move || sc.with(|s| get(&s.job).map_or(String::new(), |n| n.to_string()))
                    on:change=move |ev| {
                        let raw = event_target_value(&ev);
                        match raw.trim() {
                            "" => {
                                error.set(None);
                                sc.update(|s| set(&mut s.job, None));
                            }
                            t => match t.parse::<u32>() {
                                Ok(n) if (1..=hi).contains(&n) => {
                                    error.set(None);
                                    sc.update(|s| set(&mut s.job, Some(n)));
                                }
                                _ => error.set(Some(format!(
                                    "{}: '{raw}' is not a whole number from 1 to {hi} (or empty, for the search's choice); the previous value is kept.",
                                    label.trim()
                                ))),
                            },
                        }
                    }/>
            </label>
        }
    };
    let effects_view = move || {
        let Some(e) = effects.value.get() else {
            return view! { <p class="small-note" id="serving-effects-pending">"Working out what each option saves…"</p> }.into_any();
        };
        if e.is_empty() {
            return view! {
                <p class="small-note" id="serving-effects-none">"Set a format, speculative decoding or a prefix-cache hit rate above to see what each saves on this job's platform."</p>
            }
            .into_any();
        }
        let none = e[0].usd_per_mtok;
        let rows = e
            .iter()
            .map(|x| {
                let change = match (x.usd_per_mtok, none) {
                    (Some(a), Some(b)) if x.label != "none of them" => format!("{:+.0}%", (a / b - 1.0) * 100.0),
                    _ => String::new(),
                };
                let cells = match x.cheapest {
                    Some(p) => view! {
                        <td class="num">{p.tp}</td><td class="num">{p.batch}</td>
                        <td class="num">{ms(p.tpot_p99_s)}</td>
                        <td class="num">{thousands(p.tokens_per_s_per_chip)}</td>
                        <td class="num" data-usd-mtok=x.usd_per_mtok.unwrap_or(f64::NAN)>{format!("${}", sig(x.usd_per_mtok.unwrap_or(f64::NAN), 3))}</td>
                        <td class="num">{change}</td>
                    }.into_any(),
                    None => view! { <td colspan="6" class="na">"no configuration meets the targets"</td> }.into_any(),
                };
                view! { <tr><th scope="row">{x.label.clone()}</th>{cells}</tr> }
            })
            .collect_view();
        view! {
            <div class="table-wrap">
                <table class="grid" id="serving-effects">
                    <caption>"What each option does to the cheapest configuration meeting the targets on this job's platform (the dashed line is its curve without them)"</caption>
                    <thead><tr><th scope="col">"with"</th><th scope="col">"chips per replica"</th><th scope="col">"sequences"</th>
                        <th scope="col">"TPOT, 99th percentile"</th><th scope="col">"tokens/s per chip"</th><th scope="col">"$ per Mtok"</th><th scope="col">"change"</th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
        .into_any()
    };
    let boxes = engine::system::presets()
        .into_iter()
        .map(|sys| {
            let id = sys.id;
            view! {
                <label class="check">
                    <input type="checkbox" name="wcurve" value=id
                        prop:checked=move || sc.with(|s| s.job.system == id || s.job.curve_systems.iter().any(|x| x == id))
                        prop:disabled=move || sc.with(|s| s.job.system == id)
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            sc.update(|s| {
                                let list = &mut s.job.curve_systems;
                                list.retain(|x| x != id);
                                if on && list.len() < engine::scenario::MAX_CURVES {
                                    list.push(id.to_string());
                                }
                            });
                        }/>
                    {sys.name}
                </label>
            }
        })
        .collect_view();
    let body = move || {
        let per_usd = sc.with(|s| s.job.curve_per_usd);
        data.with(|(s, took)| {
            let best = s.cheapest();
            let answer = match best {
                Some((i, p)) => {
                    let c = &s.platforms[i];
                    format!(
                        "Cheapest meeting TTFT ≤ {} and TPOT ≤ {}: {}, {} chips per replica × {} sequences: ${} per million output tokens (TTFT {}, TPOT {} and {} at the 99th percentile, {} tokens/s per user, {} tokens/s per chip at ${}/chip-hour).",
                        ms(s.ttft_s), ms(s.tpot_s), c.name, p.tp, p.batch, sig(c.usd_per_mtok(&p), 3),
                        ms(p.ttft_s), ms(p.tpot_s), ms(p.tpot_p99_s), sig(p.interactivity(), 3), thousands(p.tokens_per_s_per_chip),
                        sig(c.usd_per_chip_hour.value, 3)
                    )
                }
                None => format!(
                    "No configuration on these platforms meets TTFT ≤ {} and TPOT ≤ {}: loosen a target or add a platform.",
                    ms(s.ttft_s), ms(s.tpot_s)
                ),
            };
            let rows = s
                .platforms
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let win = best.is_some_and(|(j, _)| j == i);
                    let rate = c.usd_per_chip_hour;
                    let cells = match (c.cheapest, &c.error) {
                        (Some(p), _) => view! {
                            <td class="num">{p.tp}</td>
                            <td class="num">{p.batch}</td>
                            <td class="num">{ms(p.ttft_s)}</td>
                            <td class="num">{ms(p.tpot_s)}</td>
                            <td class="num">{ms(p.tpot_p99_s)}</td>
                            <td class="num">{sig(p.interactivity(), 3)}</td>
                            <td class="num">{thousands(p.tokens_per_s_per_chip)}</td>
                            <td class="num"><Fig text=format!("${}", sig(rate.value, 3)) source=rate.source estimate=rate.estimate note=rate.note/></td>
                            <td class="num" data-usd-mtok=c.usd_per_mtok(&p)><Derived text=format!("${}", sig(c.usd_per_mtok(&p), 3))
                                formula=format!("${}/chip-hour ÷ ({} tokens/s per chip × 3600) × 10⁶", sig(rate.value, 4), sig(p.tokens_per_s_per_chip, 4))/></td>
                        }.into_any(),
                        (None, Some(e)) => view! { <td colspan="9" class="na">{e.clone()}</td> }.into_any(),
                        (None, None) => view! { <td colspan="9" class="na">{format!("none of its {} configurations meets the targets", c.points.len())}</td> }.into_any(),
                    };
                    view! {
                        <tr class:best=win data-system=c.system.clone()>
                            <th scope="row"><span class="swatch" style=format!("background:{}", COLOURS[i % COLOURS.len()])></span>{c.name.clone()}</th>
                            {cells}
                        </tr>
                    }
                })
                .collect_view();
            let mut data_rows = Vec::new();
            for c in &s.platforms {
                for p in &c.frontier {
                    data_rows.push(vec![
                        c.name.clone(),
                        p.tp.to_string(),
                        p.batch.to_string(),
                        sig(p.ttft_s * 1e3, 4),
                        sig(p.tpot_s * 1e3, 4),
                        sig(p.tpot_p99_s * 1e3, 4),
                        sig(p.interactivity(), 4),
                        sig(p.tokens_per_s_per_chip, 4),
                        sig(c.tokens_per_usd(p), 4),
                        sig(c.usd_per_mtok(p), 4),
                    ]);
                }
            }
            let table = chart_data(
                "serving-chart",
                "serving-data",
                &["platform", "chips per replica", "sequences", "TTFT ms", "TPOT ms", "TPOT p99 ms", "tokens/s per user", "tokens/s per chip", "tokens per $", "$ per Mtok"],
                &data_rows,
            );
            let timing = format!(
                "{} configurations on {} platforms evaluated in {} ms.",
                s.len(),
                s.platforms.len(),
                sig(*took, 2)
            );
            view! {
                <p class="answer" id="serving-answer" data-system=best.map(|(i, _)| s.platforms[i].system.clone())>{answer}</p>
                <div class="chart-wrap" inner_html=chart(s, per_usd, effects.value.with(|e| e.as_ref().and_then(|e| e.first()).map(|x| x.frontier.clone())).as_deref())></div>
                <div inner_html=table></div>
                <div class="table-wrap">
                    <table class="grid" id="serving-cheapest">
                        <caption>"The cheapest configuration on each platform that meets both targets"</caption>
                        <thead><tr>
                            <th scope="col">"platform"</th><th scope="col">"chips per replica"</th><th scope="col">"sequences"</th>
                            <th scope="col">"TTFT"</th><th scope="col">"TPOT"</th><th scope="col">"TPOT, 99th percentile"</th><th scope="col">"tokens/s per user"</th>
                            <th scope="col">"tokens/s per chip"</th><th scope="col">"$ per chip-hour"</th><th scope="col">"$ per Mtok"</th>
                        </tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                <div class="deferred" class:updating=move || effects.updating.get()>{effects_view}</div>
                <p class="small-note" id="serving-timing" data-ms=*took data-points=s.len()>{timing}</p>
            }
        })
    };
    let disagg = view! { <DisaggCard inputs=inputs/> <load::LoadSimulation job=job/> };
    view! {
        <div class="card serving-card" id="serving-curves">
            <h2>"Serving against targets"</h2>
            <p class="small-note">
                "Each point is one configuration of a replica: its chips (tensor parallel; a mixture of experts spreads its experts over the same chips, expert parallel, exchanging tokens by all-to-all and streaming only the experts a step's tokens touch) and the sequences it serves at once, for the prompt and output lengths above. "
                "A user waits for the first token "<Derived text="TTFT".to_string() formula="prefill of the batch ÷ sequences + one decode step: its own prompt, then the step it joins".to_string()/>
                " and then a token every "<Derived text="TPOT".to_string() formula="prefill of the batch ÷ output tokens + one decode step: continuous batching slips each new prompt in between steps".to_string()/>
                ". The TPOT target is held at the "<Derived text="99th percentile".to_string() formula="requests arrive at random, so the sequences a replica holds vary: an M/G/∞ occupancy is Poisson, and its 99th percentile is about B + 2.326·√B; TPOT is evaluated there, with the extra sequences' KV caches in memory (as MLPerf's Server scenario holds it)".to_string()/>
                ", the TTFT target on average. Lines join the points no other beats on both axes; a ring marks each platform's cheapest point meeting both targets, the larger ring the cheapest of all. Queueing is not modelled: the points hold below saturation."
            </p>
            <div class="controls">
                {target("TTFT ≤ ", "wttft", |j| j.ttft_s, |j, x| j.ttft_s = x)}
                {target(" TPOT ≤ ", "wtpot", |j| j.tpot_s, |j, x| j.tpot_s = x)}
                <label class="inline">" Plot "
                    <select name="wcy" on:change=move |ev| { let v = event_target_value(&ev); sc.update(|s| s.job.curve_per_usd = v == "usd"); }>
                        <option value="chip" selected=move || sc.with(|s| !s.job.curve_per_usd)>"per chip"</option>
                        <option value="usd" selected=move || sc.with(|s| s.job.curve_per_usd)>"per dollar"</option>
                    </select>
                </label>
            </div>
            <div class="controls" id="serving-options">
                {format_pick("Weights ", "wwt", |j| j.weight_dtype, |j, d| j.weight_dtype = d)}
                {format_pick(" KV cache ", "wkv", |j| j.kv_dtype, |j, d| j.kv_dtype = d)}
                {number(" Drafted tokens ", "wdraft", |j| f64::from(j.draft_tokens), |j, x| j.draft_tokens = x.round() as u32, 0.0, f64::from(engine::workload::MAX_DRAFT))}
                {number(" each accepted with probability ", "wacc", |j| j.acceptance, |j, x| j.acceptance = x, 0.0, 0.99)}
                {number(" Prefix-cache hits ", "wprefix", |j| j.prefix_hit, |j, x| j.prefix_hit = x, 0.0, 0.99)}
                {degree(" Attention data-parallel ", "wadp", |j| j.attn_dp, |j, x| j.attn_dp = x)}
                {degree(" × expert-parallel ", "wep", |j| j.ep, |j, x| j.ep = x)}
            </div>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <details class="platform-picks">
                <summary>{move || format!("Platforms drawn ({})", data.with(|(s, _)| s.platforms.len()))}</summary>
                <div class="checks">{boxes}</div>
            </details>
            {body}
        </div>
        {disagg}
    }
}

fn replicas_text(p: u32, d: u32) -> String {
    let n = |k: u32, what: &str| format!("{k} {what} replica{}", if k == 1 { "" } else { "s" });
    format!("{} for every {}", n(p, "prefill"), n(d, "decode"))
}

/// Disaggregated prefill and decode: the two pools' platforms, the cheapest split meeting
/// the targets, the KV cache's trip, and what co-location costs on the decode platform.
#[component]
fn DisaggCard(inputs: Memo<Job>) -> impl IntoView {
    let sc = use_scenario();
    // A search over splits: worked out after the serving chart paints (see `crate::defer`).
    let data = crate::defer::deferred(move || inputs.get(), engine::serving::disaggregated);
    let pick = move |label: &'static str,
                     key: &'static str,
                     get: fn(&Job) -> String,
                     set: fn(&mut Job, String)| {
        let opts = engine::system::presets()
            .into_iter()
            .map(|sys| {
                let id = sys.id;
                view! { <option value=id selected=move || sc.with(|s| get(&s.job) == id)>{sys.name}</option> }
            })
            .collect_view();
        view! {
            <label class="inline">{label}
                <select name=key on:change=move |ev| { let v = event_target_value(&ev); sc.update(|s| set(&mut s.job, v)); }>
                    <option value="" selected=move || sc.with(|s| get(&s.job).is_empty())>"the job's own"</option>
                    {opts}
                </select>
            </label>
        }
    };
    let body = move || {
        data.value.with(|d| {
            let Some(d) = d else {
                return view! { <p class="na" id="disagg-pending">"Working out the cheapest split…"</p> }.into_any();
            };
            let Some(b) = d.best else {
                return view! { <p class="na" id="disagg-answer">{d.error.clone().unwrap_or_default()}</p> }.into_any();
            };
            let (np, nd) = b.replicas();
            let together = d.colocated_usd_per_mtok();
            let versus = together.map_or_else(
                || format!("No co-located configuration on {} meets the targets.", d.decode.name),
                |c| format!("Co-located on {}: ${} per million tokens, so splitting changes the cost by {:+.0}%.", d.decode.name, sig(c, 3), (b.usd_per_mtok / c - 1.0) * 100.0),
            );
            let t = b.transfer;
            view! {
                <p class="answer" id="disagg-answer" data-usd-mtok=b.usd_per_mtok data-colocated=together.unwrap_or(f64::NAN)>
                    {format!("Cheapest split meeting the targets: ${} per million output tokens. {versus}", sig(b.usd_per_mtok, 3))}
                </p>
                <div class="table-wrap">
                    <table class="grid" id="disagg-table">
                        <thead><tr><th scope="col">"pool"</th><th scope="col">"platform"</th><th scope="col">"chips per replica"</th><th scope="col">"replicas per unit"</th><th scope="col">"time"</th><th scope="col">"share of chips"</th></tr></thead>
                        <tbody>
                            <tr><th scope="row">"prefill"</th><td>{d.prefill.name.clone()}</td><td class="num">{b.tp_prefill}</td><td class="num">{np}</td>
                                <td class="num"><Derived text=format!("{} per prompt", ms(b.prefill_s)) formula="prompt tokens × forward FLOPs per token ÷ (chips × peak × efficiency); compute-bound, so a replica serves 1 ÷ this many requests a second".to_string()/></td>
                                <td class="num">{format!("{}%", sig(b.prefill_share * 100.0, 3))}</td></tr>
                            <tr><th scope="row">"decode"</th><td>{d.decode.name.clone()}</td><td class="num">{b.tp_decode}</td><td class="num">{nd}</td>
                                <td class="num"><Derived text=format!("{} a step × {} sequences", ms(b.step_s), b.batch) formula=format!("no prompts between its steps; {} at the 99th percentile of occupancy", ms(b.step_p99_s))/></td>
                                <td class="num">{format!("{}%", sig((1.0 - b.prefill_share) * 100.0, 3))}</td></tr>
                        </tbody>
                    </table>
                </div>
                <p class="small-note" id="disagg-transfer" data-scale-up=t.scale_up.to_string()>
                    {format!("Each request's KV cache, {}, travels {} at {} in {}; TTFT {} (prefill, transfer, first step), TPOT {} ({} at the 99th percentile). {} keep both pools busy ({} prefill replicas per decode replica). {} splits evaluated.",
                        engine::Bytes::new(t.bytes).display_memory(),
                        if t.scale_up { "inside the scale-up domain" } else { "over the scale-out network" },
                        engine::BytesPerSec::new(t.bytes_per_s).display_si(), ms(t.seconds), ms(b.ttft_s), ms(b.step_s), ms(b.step_p99_s),
                        replicas_text(np, nd), sig(b.prefill_per_decode, 3), d.evaluated)}
                </p>
            }
            .into_any()
        })
    };
    view! {
        <div class="card disagg-card" id="disagg">
            <h2>"Disaggregated prefill and decode"</h2>
            <p class="small-note">
                "Prompts prefill on one pool; their KV caches move to another that only decodes, so no prompt slows a decode step. Each pool takes its own chips per replica, batch and platform; the cheapest split meeting the targets above is shown, with the ratio of the pools that keeps both busy. The transfer is counted whole, not overlapped with the prefill."
            </p>
            <div class="controls">
                {pick("Prefill on ", "wpsys", |j| j.prefill_system.clone(), |j, v| j.prefill_system = v)}
                {pick(" decode on ", "wdsys", |j| j.decode_system.clone(), |j, v| j.decode_system = v)}
            </div>
            <div class="deferred" class:updating=move || data.updating.get()>{body}</div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_fall_inside_the_range() {
        let t = log_ticks(3.0, 900.0);
        assert_eq!(t, vec![5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0]);
        let wide = log_ticks(0.5, 2e6);
        assert!(wide
            .iter()
            .all(|x| (x.log10() - x.log10().round()).abs() < 1e-9));
    }
}
