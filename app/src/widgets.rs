//! Small shared components: sourced figures, chip and format pickers.

use engine::{Dtype, Source};
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::JsCast;

use crate::state::use_scenario;

/// A figure with its source and estimate badge, shown on hover or keyboard focus.
#[component]
pub fn Fig(
    /// The value as displayed.
    text: String,
    /// Where it comes from.
    source: Source,
    /// Whether it is an estimate.
    #[prop(default = false)]
    estimate: bool,
    /// Caveats and disagreeing sources.
    #[prop(default = "")]
    note: &'static str,
) -> impl IntoView {
    let (src, user) = match source {
        Source::Cited { citation: c } => (
            view! {
                "Source: "
                <a href=c.url target="_blank" rel="noopener noreferrer">{c.title}</a>
                " ("{c.date}")"
            }
            .into_any(),
            false,
        ),
        Source::UserEdit => ("Edited by you".into_any(), true),
        Source::Assumption => (
            "An accelscope assumption: no published figure was found".into_any(),
            false,
        ),
    };
    view! {
        <span class="fig" class:user=user tabindex="0">
            {text}
            {estimate.then(|| view! { <span class="badge est" title="estimate">"est"</span> })}
            {user.then(|| view! { <span class="badge user">"edited"</span> })}
            <span class="tip" role="tooltip">
                {src}
                {estimate.then_some(". An estimate, not a vendor specification.")}
                {(!note.is_empty()).then(|| view! { <br/><span class="note">{note}</span> })}
            </span>
        </span>
    }
}

/// A derived figure with the formula and inputs that produced it.
#[component]
pub fn Derived(
    /// The value as displayed.
    text: String,
    /// The formula with its inputs.
    formula: String,
) -> impl IntoView {
    view! {
        <span class="fig derived" tabindex="0">
            {text}
            <span class="tip" role="tooltip">{formula}</span>
        </span>
    }
}

/// Checkboxes choosing which chips (presets and custom) the page compares.
#[component]
pub fn ChipPicker() -> impl IntoView {
    let sc = use_scenario();
    let available = Memo::new(move |_| {
        sc.with(|s| {
            s.available_chips()
                .into_iter()
                .map(|c| (c.id, c.name, c.custom))
                .collect::<Vec<_>>()
        })
    });
    view! {
        <fieldset class="picker chips-picker">
            <legend>"Chips"</legend>
            {move || {
                available
                    .get()
                    .into_iter()
                    .map(|(id, name, custom)| {
                        let id2 = id.clone();
                        let checked = move || sc.with(|s| s.chips.contains(&id2));
                        let id3 = id.clone();
                        view! {
                            <label class="check" class:custom=custom>
                                <input
                                    type="checkbox"
                                    name="chip"
                                    value=id.clone()
                                    prop:checked=checked
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        let id = id3.clone();
                                        sc.update(|s| {
                                            s.chips.retain(|c| *c != id);
                                            if on {
                                                s.chips.push(id);
                                            }
                                        });
                                    }
                                />
                                {name}
                            </label>
                        }
                    })
                    .collect_view()
            }}
        </fieldset>
    }
}

/// A `<select>` of number formats.
#[component]
pub fn FormatSelect(
    /// The chosen format.
    value: Signal<Dtype>,
    /// Called with the new format.
    on_change: Callback<Dtype>,
) -> impl IntoView {
    view! {
        <label class="inline">
            "Format "
            <select
                name="format"
                on:change=move |ev| {
                    if let Ok(d) = event_target_value(&ev).parse() {
                        on_change.run(d);
                    }
                }
            >
                {Dtype::ALL
                    .into_iter()
                    .map(|d| {
                        view! {
                            <option value=d.id() selected=move || value.get() == d>
                                {d.label()}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </label>
    }
}

/// Keep `width` equal to the content width of `wrap`: measured once at mount (so the first
/// frame has a chart), then by a ResizeObserver, so drawing never forces a layout to read it.
pub fn observe_width(wrap: NodeRef<leptos::html::Div>, width: RwSignal<f64>) {
    Effect::new(move |_| {
        let Some(el) = wrap.get() else { return };
        width.set(f64::from(el.client_width()));
        let cb = wasm_bindgen::closure::Closure::<dyn FnMut(js_sys::Array)>::new(
            move |entries: js_sys::Array| {
                if let Ok(e) = entries.get(0).dyn_into::<web_sys::ResizeObserverEntry>() {
                    let w = e.content_rect().width();
                    if (w - width.get_untracked()).abs() >= 1.0 {
                        width.set(w);
                    }
                }
            },
        );
        if let Ok(ro) = web_sys::ResizeObserver::new(cb.as_ref().unchecked_ref()) {
            ro.observe(&el);
            let keep = SendWrapper::new((ro, cb));
            on_cleanup(move || {
                let (ro, cb) = keep.take();
                ro.disconnect();
                drop(cb);
            });
        }
    });
}

/// Size `canvas` to `w` × `h` CSS pixels backed by device pixels; returns the pixel ratio.
pub fn size_canvas(canvas: &web_sys::HtmlCanvasElement, w: f64, h: f64) -> f64 {
    let dpr = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .max(1.0);
    canvas.set_width((w * dpr) as u32);
    canvas.set_height((h * dpr) as u32);
    let style = canvas.unchecked_ref::<web_sys::HtmlElement>().style();
    style.set_property("width", &format!("{w}px")).ok();
    style.set_property("height", &format!("{h}px")).ok();
    dpr
}

pub use view::escape;

pub use view::tables::{fig_html, fig_html_est, table_html, HtmlRow, RowCells};

pub use view::tables::derived_html;

pub use view::thousands;

pub use view::tables::chart_data;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_tables_escape_what_they_are_given() {
        let data = [("role", "held-out".to_string())];
        let rows = [HtmlRow {
            data: &data,
            lead: &["<b>".to_string()],
            label: ("a < b & c", "\"quoted\""),
            fig: ("1 GB/s".into(), Source::Assumption, "n > 0"),
            cells: &[("x".into(), true)],
        }];
        let h = table_html("t", &["A", "B"], &rows);
        assert!(h.contains("data-role=\"held-out\""));
        assert!(h.contains("&lt;b&gt;") && h.contains("a &lt; b &amp; c"));
        assert!(h.contains("&quot;quoted&quot;") && h.contains("n &gt; 0"));
        assert!(h.contains("<td class=\"off\">x</td>"));
        assert!(!h.contains("<b>"));
    }
}

/// A page's inputs. On a phone they come after the answer (`.answer-first` pages), folded
/// into one line saying what is set, with a button to change them; wider, they show as they
/// are and the line is hidden.
#[component]
pub fn InputsFold(
    /// What is set, in one line ("HGX H100 × 8 · Llama 3 70B · FP8").
    #[prop(into)]
    summary: Signal<String>,
    children: Children,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let fold = NodeRef::<leptos::html::Div>::new();
    // Opened, the inputs start at the top of the screen, their first field in view.
    let toggle = move |_| {
        open.update(|o| *o = !*o);
        if open.get_untracked() {
            // After the frame that lays the opened inputs out (the browser's scroll anchoring
            // would otherwise move the page by their height).
            request_animation_frame(move || {
                if let Some(el) = fold.get_untracked() {
                    el.scroll_into_view();
                }
            });
        }
    };
    view! {
        <div class="inputs-fold" class:open=move || open.get() node_ref=fold>
            <div class="fold-bar">
                <span class="fold-summary">{summary}</span>
                <button type="button" class="small fold-toggle"
                    aria-expanded=move || if open.get() { "true" } else { "false" }
                    on:click=toggle>
                    {move || if open.get() { "Done" } else { "Change inputs" }}
                </button>
            </div>
            <div class="fold-body">{children()}</div>
        </div>
    }
}

/// Dollars as a budget reads them: `$3.46 M` from a million, `$12,345` from a thousand, and
/// three significant figures below (`$4.21`, `$0.0312`).
#[must_use]
pub fn usd(x: f64) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    let (sign, a) = if x < 0.0 { ("−", -x) } else { ("", x) };
    if a >= 1e9 {
        format!("{sign}${} B", engine::units::sig(a / 1e9, 3))
    } else if a >= 1e6 {
        format!("{sign}${} M", engine::units::sig(a / 1e6, 3))
    } else if a >= 1e3 {
        format!("{sign}${}", thousands(a))
    } else {
        format!("{sign}${}", engine::units::sig(a, 3))
    }
}

/// A compared figure in its own unit: `$3.46 M`, `105.9 days`, `62%`, `1,234 tokens/s`.
#[must_use]
pub fn figure_text(f: &engine::compare::Figure) -> String {
    use engine::compare::Unit;
    use engine::units::sig;
    if !f.value.is_finite() {
        return "—".into();
    }
    match f.unit {
        Unit::Count => thousands(f.value),
        Unit::PerSecond => format!("{}/s", thousands(f.value)),
        Unit::Share => format!("{}%", sig(f.value * 100.0, 3)),
        Unit::Days => format!("{:.1} days", f.value),
        Unit::Usd => usd(f.value),
        Unit::Kw => format!("{} kW", thousands(f.value)),
        Unit::Joules => format!("{} J", sig(f.value, 3)),
    }
}

/// Today's date in this browser, `2026-11-27`.
#[must_use]
pub fn today() -> String {
    String::from(js_sys::Date::new_0().to_iso_string())
        .get(..10)
        .unwrap_or("")
        .to_string()
}
