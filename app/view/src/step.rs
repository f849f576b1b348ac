//! The job's training step operation by operation, as HTML: a bar and a table (each operation
//! one click from the Roofline page), and beside it the same step on the platform compared
//! with, on one time scale. Evaluated and drawn in the worker; the Workload page shows it.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use engine::breakdown::{train_step_of, Bound, Part};
use engine::job::{evaluate, JobReport};
use engine::units::sig;
use engine::{system, Scenario};

use crate::tables::{chart_data, table_buttons};
use crate::{escape, thousands};

/// The colour of what bounds an operation.
fn bound_color(b: Bound) -> &'static str {
    match b {
        Bound::Compute => "#0072b2",
        Bound::Memory => "#e69f00",
        Bound::Communication => "#d55e00",
        Bound::Latency => "#56b4e9",
        Bound::Overhead => "#999999",
    }
}

/// The bar of a step by operation, on a scale where `scale` seconds fill it.
fn bar(part: &Part, scale: f64) -> String {
    let mut x = 0.0;
    let mut bars = String::new();
    for (i, o) in part.ops.iter().enumerate() {
        let w = o.time_s / scale * 100.0;
        bars += &format!(
            "<rect x=\"{x:.3}%\" y=\"0\" width=\"{w:.3}%\" height=\"28\" fill=\"{}\" stroke=\"#fff\" stroke-width=\"0.5\" data-op=\"{i}\"><title>{}: {} s, {}% of the step ({}-bound)</title></rect>",
            bound_color(o.bound),
            escape(&o.name),
            sig(o.time_s, 3),
            sig(o.time_s / part.total_s * 100.0, 3),
            o.bound.id()
        );
        x += w;
    }
    bars
}

/// The step of the scenario's job (evaluated as `report`), beside the same job on the platform
/// it is compared with (as many chips) where that evaluates; empty when the job does not
/// evaluate.
#[must_use]
pub fn html(s: &Scenario, report: &Result<JobReport, String>) -> String {
    let j = &s.job;
    let Some(part) = report.as_ref().ok().and_then(|r| train_step_of(j, r).ok()) else {
        return String::new();
    };
    let other = (j.compare_with != j.system)
        .then(|| {
            let moved = j.on_platform(&j.compare_with)?;
            let r = evaluate(&moved).ok()?;
            let sys = system::find(&j.compare_with).ok()?;
            let part = train_step_of(&moved, &r).ok()?;
            Some((sys.name, moved.nodes * sys.chips(), part))
        })
        .flatten();
    let total = part.total_s;
    let scale = other
        .as_ref()
        .map_or(total, |(_, _, o)| o.total_s.max(total));
    let bars = bar(&part, scale);
    let legend: String = [
        Bound::Compute,
        Bound::Memory,
        Bound::Communication,
        Bound::Latency,
        Bound::Overhead,
    ]
    .iter()
    .filter(|b| {
        part.ops
            .iter()
            .chain(other.iter().flat_map(|(_, _, o)| o.ops.iter()))
            .any(|o| o.bound == **b)
    })
    .map(|b| {
        format!(
            "<span class=\"swatch\" style=\"background:{}\"></span>{}-bound ",
            bound_color(*b),
            b.id()
        )
    })
    .collect();
    let mut rows = String::new();
    for o in &part.ops {
        let place = s.placing(o).map_or_else(
            || "—".to_string(),
            |p| {
                format!(
                    "<a class=\"place\" href=\"?{}\" title=\"One call of it on the Roofline page, beside the chip's roofs\">place ↗</a>",
                    escape(&p.to_query())
                )
            },
        );
        rows += &format!(
            "<tr data-bound=\"{}\"><th scope=\"row\"><span class=\"swatch\" style=\"background:{}\"></span>{}</th><td class=\"num\">{}</td><td class=\"num\" data-time-s=\"{}\">{}</td><td class=\"num\">{}%</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}%</td><td>{}</td><td>{place}</td></tr>",
            o.bound.id(),
            bound_color(o.bound),
            escape(&o.name),
            if o.count > 0.0 { thousands(o.count) } else { "—".into() },
            o.time_s,
            sig(o.time_s, 3),
            sig(o.time_s / total * 100.0, 3),
            if o.flop > 0.0 { format!("{:.3e}", o.flop) } else { "—".into() },
            if o.bytes > 0.0 { engine::Bytes::new(o.bytes).display_si() } else { "—".into() },
            if o.bytes > 0.0 && o.flop > 0.0 { sig(o.intensity(), 3) } else { "—".into() },
            o.bound.id(),
            sig(o.of_peak * 100.0, 3),
            o.source.id()
        );
    }
    let me = system::find(&j.system).map_or("this job", |s| s.name);
    let chips = system::find(&j.system).map_or(0, |s| s.chips() * j.nodes);
    let mut h = format!(
        "<div class=\"card\" id=\"step-breakdown\"><h2>Where the training step goes</h2><p class=\"small-note\">One step of {} s on each chip, operation by operation; the rows add up to it. Of peak: the operation's FLOP/s against the chip's dense peak in its format. Source: where its efficiency comes from (measured on this chip, fitted to published runs, or the roofline and collective model).</p>",
        sig(total, 4)
    );
    let step_bar = |h: &mut String, bars: &str| {
        h.push_str(&format!("<svg class=\"stack\" id=\"step-breakdown-bar\" width=\"100%\" height=\"28\" role=\"img\" aria-label=\"The training step by operation\">{bars}</svg>"));
    };
    match other {
        None => step_bar(&mut h, &bars),
        // Beside it: the other platform's bar on the same time scale, and each operation's
        // time on both (an operation one platform lacks counts 0 there).
        Some((name, other_chips, o)) => {
            h.push_str(&format!(
                "<p class=\"small-note bar-label\">{}</p>",
                escape(&format!("{me}, {chips} chips"))
            ));
            step_bar(&mut h, &bars);
            h.push_str(&format!(
                "<p class=\"small-note bar-label\">{}</p><svg class=\"stack\" id=\"step-beside-bar\" width=\"100%\" height=\"28\" role=\"img\" aria-label=\"The same step on the platform compared with\" data-total-s=\"{}\">{}</svg>",
                escape(&format!("{name}, {other_chips} chips")),
                o.total_s,
                bar(&o, scale)
            ));
            let mut names: Vec<&str> = part.ops.iter().map(|x| x.name.as_str()).collect();
            for x in &o.ops {
                if !names.contains(&x.name.as_str()) {
                    names.push(&x.name);
                }
            }
            let time = |p: &Part, n: &str| {
                p.ops
                    .iter()
                    .filter(|x| x.name == n)
                    .map(|x| x.time_s)
                    .sum::<f64>()
            };
            let rows: Vec<Vec<String>> = names
                .iter()
                .map(|n| {
                    let (a, b) = (time(&part, n), time(&o, n));
                    alloc::vec![
                        (*n).to_string(),
                        sig(a, 3),
                        sig(b, 3),
                        format!("{:+}", sig(b - a, 3))
                    ]
                })
                .chain([alloc::vec![
                    "step".into(),
                    sig(total, 4),
                    sig(o.total_s, 4),
                    format!("{:+}", sig(o.total_s - total, 3)),
                ]])
                .collect();
            h.push_str(&format!(
                "<p class=\"small-note\" id=\"step-beside-text\">{}</p><div>{}</div>",
                escape(&format!(
                    "The same job on {other_chips} chips of {name} (the platform compared with, set under Break-even): a step of {} s against {} s here. Both bars share one time scale.",
                    sig(o.total_s, 4),
                    sig(total, 4)
                )),
                chart_data(
                    "step-beside",
                    "step-beside-table",
                    &["operation", &format!("{me}, s"), &format!("{name}, s"), "difference, s"],
                    &rows
                )
            ));
        }
    }
    h.push_str(&format!(
        "<p class=\"small-note\">{legend}</p><div><div class=\"table-wrap\"><table class=\"grid\" id=\"step-breakdown-table\" data-total-s=\"{total}\"><thead><tr><th scope=\"col\">operation</th><th scope=\"col\">per step</th><th scope=\"col\">time, s</th><th scope=\"col\">share</th><th scope=\"col\">FLOP per chip</th><th scope=\"col\">bytes per chip</th><th scope=\"col\">FLOP/B</th><th scope=\"col\">bound</th><th scope=\"col\">of peak</th><th scope=\"col\">source</th><th scope=\"col\">roofline</th></tr></thead><tbody>{rows}</tbody></table></div>{}</div></div>",
        table_buttons("step-breakdown-table")
    ));
    h
}
