//! The evidence behind the figures: vendors' claims beside the model, and the calibration runs.

use super::*;

/// Vendors' published claims beside the model's figure for a comparable job, evaluated when
/// the panel is first opened.
#[component]
pub(super) fn Claims() -> impl IntoView {
    use crate::widgets::{table_html, HtmlRow, RowCells};
    let open = RwSignal::new(false);
    let html = move || {
        open.get().then(|| {
            let checks = engine::claims::checks();
            let data: Vec<[(&str, String); 2]> = checks
                .iter()
                .map(|c| {
                    let m = c.model.as_ref().ok().copied().unwrap_or(f64::NAN);
                    [
                        ("claimed", c.claimed.0.to_string()),
                        ("model", m.to_string()),
                    ]
                })
                .collect();
            let cells: Vec<RowCells<1, 1>> = checks
                .iter()
                .map(|c| {
                    let m = c.model.as_ref().ok().copied();
                    (
                        [c.vendor.to_string()],
                        [(
                            m.map_or_else(
                                || "does not evaluate".into(),
                                |x| format!("{}×", sig(x, 3)),
                            ),
                            false,
                        )],
                    )
                })
                .collect();
            let rows: Vec<HtmlRow> = checks
                .iter()
                .zip(&data)
                .zip(&cells)
                .map(|((c, d), (lead, cells))| HtmlRow {
                    data: d,
                    lead,
                    label: (c.claim, &c.setup),
                    fig: (
                        if (c.claimed.0 - c.claimed.1).abs() < 1e-9 {
                            format!("{}×", sig(c.claimed.0, 3))
                        } else {
                            format!("{}–{}×", sig(c.claimed.0, 3), sig(c.claimed.1, 3))
                        },
                        engine::Source::Cited { citation: c.source },
                        c.note,
                    ),
                    cells,
                })
                .collect();
            table_html(
                "claims-table",
                &["Vendor", "Claim, and the model's job", "Claimed", "Model"],
                &rows,
            )
        })
    };
    view! {
        <details class="card" id="claims" on:toggle=move |_| open.set(true)>
            <summary><h2 class="inline-h">"Vendors' claims against the model"</h2></summary>
            <p class="small-note">"Each claim is put to a comparable job at published prices; where the job differs from the vendor's, the row says how. A model far from a claim is a question to ask the vendor, or the model."</p>
            <div inner_html=move || html().unwrap_or_default()></div>
        </details>
    }
}

/// Published measurements against the model's figure for each: the points a parameter was
/// fitted to, then the held-out ones that check it, family by family.
#[component]
pub(super) fn RunCalibration(
    /// The calibration set, evaluated once for the page.
    points: Vec<engine::calibration::RunPoint>,
) -> impl IntoView {
    use engine::calibration::{Metric, Role, TOLERANCE};
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
    let group = |role: &str, id: &str| {
        use crate::widgets::{table_html, HtmlRow, RowCells};
        let pts: Vec<_> = points.iter().filter(|p| p.role.id() == role).collect();
        let fmt = |p: &engine::calibration::RunPoint, x: f64| match p.measured {
            Metric::TokensPerS(_) => format!("{} tok/s", thousands(x)),
            Metric::Mfu(_) => format!("{}% MFU", sig(x * 100.0, 3)),
            Metric::Busbw(_) => format!("{} GB/s busbw", sig(x / 1e9, 4)),
            Metric::Time(_) => format!("{} µs", sig(x * 1e6, 3)),
        };
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
                            model
                                .map(|m| fmt(p, m))
                                .unwrap_or_else(|| "does not fit".into()),
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
    };
    view! {
        <details class="card" id="run-calibration">
            <summary><h2 class="inline-h">"The model against published measurements"</h2></summary>
            <p class="small-note">{format!(
                "Calibration as a method: {} points set a parameter, {} check it with nothing fitted and nothing changed while looking at them (each dated when it entered), {} were in view while the mechanism they check was built (kept within their bound, but no evidence), and {} the model departs from, shown last with the reason. Bounds: {bounds}. {} The ranges on the headline cards come from the held-out points only. Hover a figure for its source and assumptions.",
                count("fitted"),
                count("held-out"),
                count("tuned-against"),
                count("departs"),
                if outside == 0 { "Every point that is not a departure is within its bound.".to_string() } else { format!("{outside} outside its bound.") }
            )}</p>
            {Role::IDS
                .iter()
                .map(|&id| {
                    let table_id = match id {
                        "held-out" => "run-calibration-table".to_string(),
                        _ => format!("run-calibration-{id}"),
                    };
                    view! {
                        <h3>{format!("{}{}: {}", id[..1].to_uppercase(), id[1..].replace('-', " "), Role::meaning(id))}</h3>
                        <div inner_html=group(id, &table_id)></div>
                    }
                })
                .collect_view()}
        </details>
    }
}
