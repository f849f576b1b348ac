//! Serving against targets, as HTML: the throughput-versus-interactivity curve of the job's
//! model on several platforms (per chip or per dollar) with the TTFT and TPOT targets, the
//! cheapest configuration meeting them on each platform, what each serving option saves, and
//! disaggregated prefill and decode. Evaluated and drawn in the worker; the Workload page
//! shows them beside their controls.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use engine::job::Job;
use engine::serving::{disaggregated, effects, serving, Serving};
use engine::units::sig;
use engine::workload::curve::ServePoint;
use libm::{ceil, fabs, floor, log, log10, pow, round};

use crate::tables::{chart_data, derived_html, fig_html_est};
use crate::{escape, thousands};

/// Okabe–Ito colours, told apart with colour-blindness; the job's own platform is first.
const COLOURS: [&str; 8] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#8c6d31",
];

/// 1, 2 and 5 times the powers of ten from `lo` to `hi`; only the powers when that is many.
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let (a, b) = (floor(log10(lo)) as i32, ceil(log10(hi)) as i32);
    let mut t: Vec<f64> = (a..=b)
        .flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * pow(10.0, f64::from(e))))
        .filter(|x| *x >= lo && *x <= hi)
        .collect();
    if t.len() > 8 {
        t.retain(|x| fabs(log10(*x) - round(log10(*x))) < 1e-9);
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

/// Seconds as ms below one, else s.
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
    let px = |x: f64| l + log(x / x0) / log(x1 / x0) * (w - l - r);
    let py = |y: f64| t + (1.0 - log(y / y0) / log(y1 / y0)) * (h - b - t);
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

/// The answer, the chart, the cheapest configuration on each platform and what each serving
/// option saves, for the job (`per_usd`: tokens per dollar up the chart, else per chip);
/// `clock` reads milliseconds, to say how long the curves took.
#[must_use]
pub fn curves_html(j: &Job, clock: fn() -> f64) -> String {
    let t0 = clock();
    let s = serving(j);
    let took = clock() - t0;
    let e = effects(j);
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
    let mut rows = String::new();
    for (i, c) in s.platforms.iter().enumerate() {
        let win = best.is_some_and(|(k, _)| k == i);
        let rate = c.usd_per_chip_hour;
        let cells = match (c.cheapest, &c.error) {
            (Some(p), _) => format!(
                "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\" data-usd-mtok=\"{}\">{}</td>",
                p.tp,
                p.batch,
                ms(p.ttft_s),
                ms(p.tpot_s),
                ms(p.tpot_p99_s),
                sig(p.interactivity(), 3),
                thousands(p.tokens_per_s_per_chip),
                fig_html_est(&format!("${}", sig(rate.value, 3)), rate.source, rate.estimate, rate.note),
                c.usd_per_mtok(&p),
                derived_html(
                    &format!("${}", sig(c.usd_per_mtok(&p), 3)),
                    &format!(
                        "${}/chip-hour ÷ ({} tokens/s per chip × 3600) × 10⁶",
                        sig(rate.value, 4),
                        sig(p.tokens_per_s_per_chip, 4)
                    )
                )
            ),
            (None, Some(e)) => format!("<td colspan=\"9\" class=\"na\">{}</td>", escape(e)),
            (None, None) => format!(
                "<td colspan=\"9\" class=\"na\">none of its {} configurations meets the targets</td>",
                c.points.len()
            ),
        };
        rows += &format!(
            "<tr{} data-system=\"{}\"><th scope=\"row\"><span class=\"swatch\" style=\"background:{}\"></span>{}</th>{cells}</tr>",
            if win { " class=\"best\"" } else { "" },
            escape(&c.system),
            COLOURS[i % COLOURS.len()],
            escape(&c.name)
        );
    }
    let mut data_rows = Vec::new();
    for c in &s.platforms {
        for p in &c.frontier {
            data_rows.push(alloc::vec![
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
        &[
            "platform",
            "chips per replica",
            "sequences",
            "TTFT ms",
            "TPOT ms",
            "TPOT p99 ms",
            "tokens/s per user",
            "tokens/s per chip",
            "tokens per $",
            "$ per Mtok",
        ],
        &data_rows,
    );
    let baseline = e.first().map(|x| x.frontier.clone());
    format!(
        "<p class=\"answer\" id=\"serving-answer\"{}>{}</p><div class=\"chart-wrap\">{}</div><div>{table}</div><div class=\"table-wrap\"><table class=\"grid\" id=\"serving-cheapest\"><caption>The cheapest configuration on each platform that meets both targets</caption><thead><tr><th scope=\"col\">platform</th><th scope=\"col\">chips per replica</th><th scope=\"col\">sequences</th><th scope=\"col\">TTFT</th><th scope=\"col\">TPOT</th><th scope=\"col\">TPOT, 99th percentile</th><th scope=\"col\">tokens/s per user</th><th scope=\"col\">tokens/s per chip</th><th scope=\"col\">$ per chip-hour</th><th scope=\"col\">$ per Mtok</th></tr></thead><tbody>{rows}</tbody></table></div>{}<p class=\"small-note\" id=\"serving-timing\" data-ms=\"{took}\" data-points=\"{}\">{} configurations on {} platforms evaluated in {} ms.</p>",
        best.map_or_else(String::new, |(i, _)| format!(" data-system=\"{}\"", escape(&s.platforms[i].system))),
        escape(&answer),
        chart(&s, j.curve_per_usd, baseline.as_deref()),
        effects_html(&e),
        s.len(),
        s.len(),
        s.platforms.len(),
        sig(took, 2)
    )
}

/// What each serving option does to the cheapest configuration meeting the targets on the
/// job's platform.
fn effects_html(e: &[engine::serving::Effect]) -> String {
    let Some(none) = e.first().map(|x| x.usd_per_mtok) else {
        return "<p class=\"small-note\" id=\"serving-effects-none\">Set a format, speculative decoding or a prefix-cache hit rate above to see what each saves on this job's platform.</p>".into();
    };
    let mut rows = String::new();
    for x in e {
        let change = match (x.usd_per_mtok, none) {
            (Some(a), Some(b)) if x.label != "none of them" => {
                format!("{:+.0}%", (a / b - 1.0) * 100.0)
            }
            _ => String::new(),
        };
        let cells = match x.cheapest {
            Some(p) => format!(
                "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\" data-usd-mtok=\"{}\">${}</td><td class=\"num\">{change}</td>",
                p.tp,
                p.batch,
                ms(p.tpot_p99_s),
                thousands(p.tokens_per_s_per_chip),
                x.usd_per_mtok.unwrap_or(f64::NAN),
                sig(x.usd_per_mtok.unwrap_or(f64::NAN), 3)
            ),
            None => "<td colspan=\"6\" class=\"na\">no configuration meets the targets</td>".into(),
        };
        rows += &format!(
            "<tr><th scope=\"row\">{}</th>{cells}</tr>",
            escape(&x.label)
        );
    }
    format!(
        "<div class=\"table-wrap\"><table class=\"grid\" id=\"serving-effects\"><caption>What each option does to the cheapest configuration meeting the targets on this job's platform (the dashed line is its curve without them)</caption><thead><tr><th scope=\"col\">with</th><th scope=\"col\">chips per replica</th><th scope=\"col\">sequences</th><th scope=\"col\">TPOT, 99th percentile</th><th scope=\"col\">tokens/s per chip</th><th scope=\"col\">$ per Mtok</th><th scope=\"col\">change</th></tr></thead><tbody>{rows}</tbody></table></div>"
    )
}

fn replicas_text(p: u32, d: u32) -> String {
    let n = |k: u32, what: &str| format!("{k} {what} replica{}", if k == 1 { "" } else { "s" });
    format!("{} for every {}", n(p, "prefill"), n(d, "decode"))
}

/// Disaggregated prefill and decode: the cheapest split meeting the targets on the two pools'
/// platforms, the KV cache's trip, and what co-location costs on the decode platform.
#[must_use]
pub fn disagg_html(j: &Job) -> String {
    let d = disaggregated(j);
    let Some(b) = d.best else {
        return format!(
            "<p class=\"na\" id=\"disagg-answer\">{}</p>",
            escape(&d.error.clone().unwrap_or_default())
        );
    };
    let (np, nd) = b.replicas();
    let together = d.colocated_usd_per_mtok();
    let versus = together.map_or_else(
        || format!("No co-located configuration on {} meets the targets.", d.decode.name),
        |c| {
            format!(
                "Co-located on {}: ${} per million tokens, so splitting changes the cost by {:+.0}%.",
                d.decode.name,
                sig(c, 3),
                (b.usd_per_mtok / c - 1.0) * 100.0
            )
        },
    );
    let t = b.transfer;
    let transfer = format!(
        "Each request's KV cache, {}, travels {} at {} in {}; TTFT {} (prefill, transfer, first step), TPOT {} ({} at the 99th percentile). {} keep both pools busy ({} prefill replicas per decode replica). {} splits evaluated.",
        engine::Bytes::new(t.bytes).display_memory(),
        if t.scale_up { "inside the scale-up domain" } else { "over the scale-out network" },
        engine::BytesPerSec::new(t.bytes_per_s).display_si(),
        ms(t.seconds),
        ms(b.ttft_s),
        ms(b.step_s),
        ms(b.step_p99_s),
        replicas_text(np, nd),
        sig(b.prefill_per_decode, 3),
        d.evaluated
    );
    format!(
        "<p class=\"answer\" id=\"disagg-answer\" data-usd-mtok=\"{}\" data-colocated=\"{}\">{}</p><div class=\"table-wrap\"><table class=\"grid\" id=\"disagg-table\"><thead><tr><th scope=\"col\">pool</th><th scope=\"col\">platform</th><th scope=\"col\">chips per replica</th><th scope=\"col\">replicas per unit</th><th scope=\"col\">time</th><th scope=\"col\">share of chips</th></tr></thead><tbody><tr><th scope=\"row\">prefill</th><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{np}</td><td class=\"num\">{}</td><td class=\"num\">{}%</td></tr><tr><th scope=\"row\">decode</th><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{nd}</td><td class=\"num\">{}</td><td class=\"num\">{}%</td></tr></tbody></table></div><p class=\"small-note\" id=\"disagg-transfer\" data-scale-up=\"{}\">{}</p>",
        b.usd_per_mtok,
        together.unwrap_or(f64::NAN),
        escape(&format!(
            "Cheapest split meeting the targets: ${} per million output tokens. {versus}",
            sig(b.usd_per_mtok, 3)
        )),
        escape(&d.prefill.name),
        b.tp_prefill,
        derived_html(
            &format!("{} per prompt", ms(b.prefill_s)),
            "prompt tokens × forward FLOPs per token ÷ (chips × peak × efficiency); compute-bound, so a replica serves 1 ÷ this many requests a second"
        ),
        sig(b.prefill_share * 100.0, 3),
        escape(&d.decode.name),
        b.tp_decode,
        derived_html(
            &format!("{} a step × {} sequences", ms(b.step_s), b.batch),
            &format!("no prompts between its steps; {} at the 99th percentile of occupancy", ms(b.step_p99_s))
        ),
        sig((1.0 - b.prefill_share) * 100.0, 3),
        t.scale_up,
        escape(&transfer)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_fall_inside_the_range() {
        let t = log_ticks(3.0, 900.0);
        assert_eq!(t, alloc::vec![5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0]);
        let wide = log_ticks(0.5, 2e6);
        assert!(wide
            .iter()
            .all(|x| fabs(log10(*x) - round(log10(*x))) < 1e-9));
    }
}
