//! The model against published measurements, as HTML: the points a parameter was fitted to,
//! then the held-out ones that check it, those tuned against and those it departs from,
//! family by family. Drawn in the worker that evaluates the runs (the page's thread never
//! evaluates them); the Workload page shows it when its fold is opened.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use engine::calibration::{Metric, Role, RunPoint, TOLERANCE};
use engine::units::sig;

use crate::tables::{table_html, HtmlRow, RowCells};
use crate::{escape, thousands};

/// A point's figure in its metric's unit.
fn fmt(p: &RunPoint, x: f64) -> String {
    match p.measured {
        Metric::TokensPerS(_) => format!("{} tok/s", thousands(x)),
        Metric::Mfu(_) => format!("{}% MFU", sig(x * 100.0, 3)),
        Metric::Busbw(_) => format!("{} GB/s busbw", sig(x / 1e9, 4)),
        Metric::Time(_) => format!("{} µs", sig(x * 1e6, 3)),
    }
}

/// The table of the points of role `role` (its id), with element id `id`.
fn group(points: &[RunPoint], role: &str, id: &str) -> String {
    let pts: Vec<_> = points.iter().filter(|p| p.role.id() == role).collect();
    let data: Vec<[(&str, String); 4]> = pts
        .iter()
        .map(|p| {
            [
                ("role", role.to_string()),
                ("family", p.family.id().to_string()),
                ("error", p.error().unwrap_or(f64::NAN).to_string()),
                ("tolerance", p.tolerance().to_string()),
            ]
        })
        .collect();
    let cells: Vec<RowCells<1, 3>> = pts
        .iter()
        .map(|p| {
            let model = p.model.as_ref().ok().copied();
            let err = p.error();
            (
                [p.family.id().to_string()],
                [
                    (
                        model.map_or_else(|| "does not fit".into(), |m| fmt(p, m)),
                        false,
                    ),
                    (
                        err.map(|e| format!("{:+.1}%", e * 100.0))
                            .unwrap_or_default(),
                        p.role != Role::Departs && !p.within(),
                    ),
                    (
                        match (p.role.held_out_since(), p.role.predicted_at_entry()) {
                            (Some(d), Some(at)) => format!(
                                "±{:.0}% (since {d}; the model said {} then)",
                                p.tolerance() * 100.0,
                                fmt(p, at)
                            ),
                            _ => format!("±{:.0}%", p.tolerance() * 100.0),
                        },
                        false,
                    ),
                ],
            )
        })
        .collect();
    let rows: Vec<HtmlRow> = pts
        .iter()
        .zip(&data)
        .zip(&cells)
        .map(|((p, d), (lead, cells))| HtmlRow {
            data: d,
            lead,
            label: (p.label, &p.setup),
            fig: (
                fmt(p, p.measured.value()),
                engine::Source::Cited { citation: p.source },
                p.note,
            ),
            cells,
        })
        .collect();
    table_html(
        id,
        &[
            "Family",
            "Measurement",
            "Published",
            "Model",
            "Difference",
            "Allowed",
        ],
        &rows,
    )
}

/// What the points are and the bounds they are held to, then a table for each role.
#[must_use]
pub fn html(points: &[RunPoint]) -> String {
    let count = |id: &str| points.iter().filter(|p| p.role.id() == id).count();
    let outside = points
        .iter()
        .filter(|p| p.role != Role::Departs && !p.within())
        .count();
    let bounds = TOLERANCE
        .iter()
        .map(|(f, fit, other)| {
            format!(
                "{} ±{:.0}% fitted, ±{:.0}% otherwise",
                f.id(),
                fit * 100.0,
                other * 100.0
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    let mut h = format!(
        "<p class=\"small-note\">{}</p>",
        escape(&format!(
            "Calibration as a method: {} points set a parameter, {} check it with nothing fitted and nothing changed while looking at them (each dated when it entered), {} were in view while the mechanism they check was built (kept within their bound, but no evidence), and {} the model departs from, shown last with the reason. Bounds: {bounds}. {} The ranges on the headline cards come from the held-out points only. Hover a figure for its source and assumptions.",
            count("fitted"),
            count("held-out"),
            count("tuned-against"),
            count("departs"),
            if outside == 0 {
                "Every point that is not a departure is within its bound.".to_string()
            } else {
                format!("{outside} outside its bound.")
            }
        ))
    );
    for id in Role::IDS {
        let table_id = match id {
            "held-out" => "run-calibration-table".to_string(),
            _ => format!("run-calibration-{id}"),
        };
        h.push_str(&format!(
            "<h3>{}</h3>{}",
            escape(&format!(
                "{}{}: {}",
                id[..1].to_uppercase(),
                id[1..].replace('-', " "),
                Role::meaning(id)
            )),
            group(points, id, &table_id)
        ));
    }
    h
}
