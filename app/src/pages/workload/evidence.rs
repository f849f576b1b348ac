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
/// fitted to, then the held-out ones that check it, family by family. Evaluated and drawn in
/// the worker when the fold first opens (`view::calibration`).
#[component]
pub(super) fn RunCalibration() -> impl IntoView {
    use view::protocol::{Reply, Request};
    let html = RwSignal::new(None::<String>);
    let asked = StoredValue::new(false);
    crate::background::listen(move |r| match r {
        Reply::Calibration(h) => {
            html.try_set(Some(h.clone()));
        }
        Reply::Error(why)
            if asked.try_get_value() == Some(true)
                && html.try_with_untracked(Option::is_none) == Some(true) =>
        {
            html.try_set(Some(format!(
                "<p class=\"error\" role=\"alert\">The published runs could not be evaluated: {}</p>",
                crate::widgets::escape(why)
            )));
        }
        _ => {}
    });
    let on_toggle = move |ev: leptos::ev::Event| {
        let open = event_target::<web_sys::Element>(&ev).has_attribute("open");
        if open && !asked.get_value() {
            asked.set_value(true);
            crate::background::ask(Request::Calibration);
        }
    };
    view! {
        <details class="card" id="run-calibration" on:toggle=on_toggle>
            <summary><h2 class="inline-h">"The model against published measurements"</h2></summary>
            {move || match html.get() {
                Some(h) => view! { <div inner_html=h></div> }.into_any(),
                None => view! { <p class="small-note" id="run-calibration-waiting">"Evaluating every published run in the background…"</p> }.into_any(),
            }}
        </details>
    }
}
