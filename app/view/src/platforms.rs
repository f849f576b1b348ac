//! The same job on several platforms, as HTML: each platform's rate, its cost per marketed
//! PFLOP-hour by format, the training cost per token, the cost of the run split by where the
//! step goes, goodput with failures, and the rate at which it matches the job's own platform.
//! Evaluated and drawn in the worker (a platform is a whole evaluation); the Workload page
//! shows it.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use engine::job::{evaluate, price_to_match, Job, JobReport};
use engine::units::sig;
use engine::{system, Chip, Dtype};

use crate::tables::{fig_html_est, table_buttons};
use crate::{escape, thousands};

/// Platforms compared on the same job at about the same chip count.
pub const PLATFORMS: [&str; 7] = [
    "trn2-ultra-64",
    "trn3-ultra-144",
    "hgx-h100-8",
    "hgx-h200-8",
    "hgx-b200-8",
    "gb200-nvl72",
    "gb300-nvl72",
];

/// One platform's row: its name, id, systems, report (or why none), break-even rate and chip.
type Row = (
    &'static str,
    String,
    u32,
    Result<JobReport, String>,
    Option<f64>,
    Chip,
);

/// The job's own platform first when it is not one of [`PLATFORMS`], then each of them, the
/// job moved to it with as many chips ([`Job::on_platform`]); `report` is the job's own.
fn rows(job: &Job, report: &Result<JobReport, String>) -> Vec<Row> {
    let mut ids: Vec<String> = PLATFORMS.iter().map(|x| (*x).to_string()).collect();
    if !ids.contains(&job.system) {
        ids.insert(0, job.system.clone());
    }
    let target = report.as_ref().ok().map(|r| r.train_usd_per_mtok);
    ids.into_iter()
        .filter_map(|id| {
            let sys = system::find(&id).ok()?;
            let (nodes, r) = if id == job.system {
                (job.nodes, report.clone())
            } else {
                let moved = job.on_platform(&id)?;
                (moved.nodes, evaluate(&moved).map_err(|e| e.to_string()))
            };
            let be = match (&r, target) {
                (Ok(r), Some(t)) if id != job.system => price_to_match(r, t),
                _ => None,
            };
            let chip = engine::catalog::find(sys.chip).ok()?;
            Some((sys.name, id, nodes, r, be, chip))
        })
        .collect()
}

/// The table of the job on every platform, with its download button.
#[must_use]
pub fn html(job: &Job, report: &Result<JobReport, String>) -> String {
    let list = rows(job, report);
    let max_cost = list
        .iter()
        .filter_map(|(_, _, _, r, _, _)| r.as_ref().ok().map(|r| r.cost_usd))
        .fold(0.0, f64::max);
    let mut body = String::new();
    for (name, id, nodes, r, be, chip) in &list {
        let r = match r {
            Err(e) => {
                body += &format!(
                    "<tr><th scope=\"row\">{}</th><td colspan=\"7\"><span class=\"na\">{}</span></td></tr>",
                    escape(name),
                    escape(e)
                );
                continue;
            }
            Ok(r) => r,
        };
        let t = &r.train;
        let parts = [
            ("compute", t.compute.get(), "#0072b2"),
            ("bubble", t.bubble.get(), "#56b4e9"),
            ("tensor-parallel", t.tp_comm.get(), "#e69f00"),
            ("expert all-to-all", t.ep_comm.get(), "#cc79a7"),
            ("data-parallel", t.dp_comm.get(), "#d55e00"),
        ];
        let step = t.step.get();
        let mut x = 0.0;
        let mut bars = String::new();
        for (n, v, c) in parts {
            let w = v / step * r.cost_usd / max_cost * 100.0;
            bars += &format!(
                "<rect x=\"{x:.2}%\" y=\"2\" width=\"{w:.2}%\" height=\"16\" fill=\"{c}\"><title>{n}: ${}</title></rect>",
                thousands(v / step * r.cost_usd)
            );
            x += w;
        }
        let per_pf = |d: Dtype| {
            chip.dense(d).map_or("—".to_string(), |p| {
                format!("${}", sig(r.usd_per_chip_hour.value / (p.get() / 1e15), 3))
            })
        };
        let rate = r.usd_per_chip_hour;
        body += &format!(
            "<tr data-system=\"{}\" data-price-kind=\"{}\" data-price-as-of=\"{}\"><th scope=\"row\">{}<div class=\"sub small\">{} × {} = {} chips</div></th><td>{}<div class=\"sub small{}\">{}</div></td><td>{}</td><td>{}</td><td>{}</td><td data-train-mtok=\"{}\">${}</td><td class=\"barcell\"><svg width=\"100%\" height=\"20\" role=\"img\" aria-label=\"cost of the run by where the time goes\">{bars}</svg><span class=\"small\">${} · {} days</span></td><td data-goodput=\"{}\">{}% · {} days<div class=\"sub small\">{} chips per failure, {} spares, +${}</div></td><td>{}</td></tr>",
            escape(id),
            r.price.kind,
            r.price.as_of,
            escape(name),
            nodes,
            escape(id),
            r.chips,
            fig_html_est(&format!("${}", sig(rate.value, 3)), rate.source, rate.estimate, rate.note),
            if r.price.fell_back { " warn" } else { "" },
            escape(&if r.price.fell_back {
                format!("no rate on the basis: {} as of {}", r.price.kind, r.price.as_of)
            } else {
                format!("{} · {}", r.price.kind, r.price.as_of)
            }),
            per_pf(Dtype::Bf16),
            per_pf(Dtype::Fp8),
            per_pf(Dtype::Fp4),
            r.train_usd_per_mtok,
            sig(r.train_usd_per_mtok, 3),
            thousands(r.cost_usd),
            sig(r.time_s / 86400.0, 3),
            r.failures.goodput,
            sig(r.failures.goodput * 100.0, 3),
            sig(r.real_days, 3),
            r.failure_inputs.blast_radius,
            sig(r.failures.spare_chips, 2),
            thousands(r.failure_cost_usd),
            be.map_or("—".to_string(), |p| format!("${}", sig(p, 3)))
        );
    }
    let table = format!(
        "<div class=\"table-wrap\"><table class=\"compare\" id=\"platforms-table\"><thead><tr><th scope=\"col\">Platform</th><th scope=\"col\">$/chip-hour</th><th scope=\"col\">$/PFLOP-h BF16</th><th scope=\"col\">FP8</th><th scope=\"col\">FP4</th><th scope=\"col\">Training $/Mtok</th><th scope=\"col\">Cost of the run</th><th scope=\"col\">With failures: goodput · days</th><th scope=\"col\">Break-even $/chip-h</th></tr></thead><tbody>{body}</tbody></table></div>{}",
        table_buttons("platforms-table")
    );
    table
}
