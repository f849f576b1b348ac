//! What one chip-hour of the job's platform is made of (owned: capital, power, facility and
//! maintenance; rented: the rate), as a stacked bar, a legend and its data table. Drawn in the
//! worker for the Workload page.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use engine::job::JobReport;
use engine::units::sig;

use crate::tables::chart_data;

/// The card for the job as evaluated; empty when it does not evaluate.
#[must_use]
pub fn html(report: &Result<JobReport, String>) -> String {
    let Ok(report) = report else {
        return String::new();
    };
    let parts: Vec<(&str, f64, &str)> = match report.owned_breakdown {
        Some((c, p, o)) => alloc::vec![
            ("capital", c, "#0072b2"),
            ("power", p, "#e69f00"),
            ("facility & maintenance", o, "#009e73"),
        ],
        None => alloc::vec![("rental", report.usd_per_chip_hour.value, "#0072b2")],
    };
    let total: f64 = parts.iter().map(|p| p.1).sum();
    let (mut x, mut bars, mut legend) = (0.0, String::new(), String::new());
    for (name, v, color) in &parts {
        let w = v / total * 100.0;
        bars += &format!(
            "<rect x=\"{x:.2}%\" y=\"0\" width=\"{w:.2}%\" height=\"28\" fill=\"{color}\"><title>{name}: ${}/chip-hour</title></rect>",
            sig(*v, 3)
        );
        x += w;
        legend += &format!(
            "<li><span class=\"swatch\" style=\"background:{color}\"></span>{name}: ${} ({}%)</li>",
            sig(*v, 3),
            sig(v / total * 100.0, 3)
        );
    }
    let data = chart_data(
        "cost-breakdown",
        "cost-breakdown-data",
        &["component", "$ per chip-hour", "share"],
        &parts
            .iter()
            .map(|(n, v, _)| {
                alloc::vec![
                    (*n).to_string(),
                    sig(*v, 4),
                    format!("{}%", sig(v / total * 100.0, 3))
                ]
            })
            .collect::<Vec<_>>(),
    );
    format!(
        "<div class=\"card\"><h2>One chip-hour</h2><svg class=\"stack\" id=\"cost-breakdown\" width=\"100%\" height=\"28\" role=\"img\" aria-label=\"Cost of one chip-hour by component\">{bars}</svg><ul class=\"legend-list\">{legend}</ul><p class=\"small-note\">${} per chip-hour × {} chips</p><div>{data}</div></div>",
        sig(total, 4),
        report.chips
    )
}
