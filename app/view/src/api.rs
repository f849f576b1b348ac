//! Serving it yourself beside API list prices: what each API charges per million output
//! tokens of the job's traffic (its prompts, their share found in a cache, its output) against
//! the job's own serving cost, and the utilisation at which serving it yourself breaks even.
//! Drawn in the worker for the Workload page.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use engine::job::{Job, JobReport};
use engine::tco::api;
use engine::units::sig;

use crate::escape;
use crate::tables::table_buttons;

/// The card's body for the job as evaluated (`report`).
#[must_use]
pub fn html(j: &Job, report: &Result<JobReport, String>) -> String {
    let Some(own) = report.as_ref().ok().and_then(|r| r.infer_usd_per_mtok) else {
        return "<p class=\"na\">This job's serving cost cannot be worked out (the model does not fit a replica).</p>".to_string();
    };
    let rows: Vec<Vec<String>> = api::beside(
        &j.model,
        own,
        f64::from(j.prompt),
        f64::from(j.output),
        j.prefix_hit,
    )
    .iter()
    .map(|b| {
        let p = b.price;
        alloc::vec![
            format!(
                "{}{}",
                escape(p.model),
                if p.model_id == Some(j.model.as_str()) {
                    " ✓"
                } else {
                    ""
                }
            ),
            escape(p.provider),
            format!("${}", sig(p.input, 3)),
            p.cached_input
                .map_or_else(|| "—".into(), |c| format!("${}", sig(c, 3))),
            format!("${}", sig(p.output, 3)),
            format!("${}", sig(b.api_usd_per_mtok, 3)),
            b.break_even
                .map_or_else(|| "never".into(), |u| format!("{}%", sig(u * 100.0, 3))),
            format!(
                "<a href=\"{}\" rel=\"noopener\" target=\"_blank\">{}</a>{}",
                escape(p.source.url),
                escape(p.as_of),
                if p.primary { "" } else { " (third party)" }
            ),
        ]
    })
    .collect();
    let head = [
        "model",
        "provider",
        "input $/Mtok",
        "cached input",
        "output $/Mtok",
        "this traffic, $ per Mtok out",
        "break-even utilisation",
        "as of",
    ];
    let mut table = String::from(
        "<div class=\"table-wrap\"><table class=\"grid\" id=\"api-prices\"><thead><tr>",
    );
    for h in head {
        table += &format!("<th scope=\"col\">{h}</th>");
    }
    table += "</tr></thead><tbody>";
    for r in &rows {
        table += "<tr>";
        for (i, c) in r.iter().enumerate() {
            table += &if i == 0 {
                format!("<th scope=\"row\">{c}</th>")
            } else {
                format!("<td>{c}</td>")
            };
        }
        table += "</tr>";
    }
    table += "</tbody></table></div>";
    table += &table_buttons("api-prices");
    format!(
        "<p class=\"small-note\">Serving {} yourself as above costs <b id=\"self-usd-per-mtok\" data-v=\"{own}\">${}</b> per million output tokens with the replicas busy all the time, and that divided by the share of the time they are busy otherwise. Each API's price is for the same traffic: {} prompt tokens ({}% of them cached) for every {} output tokens. Break-even: the utilisation at which serving it yourself costs what the API does; below it, the API is cheaper. ✓ marks the same model.</p>{}",
        escape(&engine::workload::find_model(&j.model).map_or_else(|_| j.model.clone(), |m| m.name)),
        sig(own, 3),
        j.prompt,
        sig(j.prefix_hit * 100.0, 3),
        j.output,
        table
    )
}
