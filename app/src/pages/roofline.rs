//! Roofline page: the chart of chosen chips and formats, with operations placed on it.

use engine::units::sig;
use engine::{Bound, BytesPerSec, Dtype, FlopPerByte, FlopPerSec, OpSpec, Roofline};
use leptos::prelude::*;
use plotters::prelude::IntoDrawingArea;

use crate::charts::canvas::MeasuringCanvas;
use crate::charts::roofline::{css_color, draw, to_csv, Frame, Marker, Point, Roof, RooflineData};
use crate::state::use_scenario;
use crate::widgets::{observe_width, size_canvas, ChipPicker};

/// The roofline chart, its data table and the operations editor.
#[component]
pub fn RooflinePage() -> impl IntoView {
    let sc = use_scenario();
    let data = Memo::new(move |_| sc.with(roofline_data));
    view! {
        <section class="page roofline-page answer-first">
            <h1>"Roofline"</h1>
            <p class="lead">
                "Attainable throughput = min(peak, intensity × HBM bandwidth). Left of a chip's ridge an "
                "operation is memory-bound; right of it, compute-bound. Dense peaks only."
            </p>
            <crate::widgets::InputsFold summary=Signal::derive(move || sc.with(|s| format!("{} chips · {}", s.chosen_chips().len(), s.roofline_formats.iter().map(|d| d.label()).collect::<Vec<_>>().join(", "))))>
                <div class="controls">
                    <ChipPicker/>
                    <FormatChecks/>
                </div>
            </crate::widgets::InputsFold>
            <div class="answer"><Chart data=data/></div>
            {move || {
                sc.with(|s| s.nc_point.map(|[ai, flops]| {
                    let what = if s.neuroncore.is_empty() { "the default schedule".to_string() } else { s.neuroncore.clone() };
                    view! {
                        <p class="note" id="nc-point">
                            {format!(
                                "● The Kernels page's NeuronCore schedule ({what}): {} TFLOP/s at {} FLOP per HBM byte, for the whole chip with every core running it. It is simulated, not a roof; open the Kernels page to see why it sits where it does.",
                                sig(flops / 1e12, 4),
                                sig(ai, 4)
                            )}
                        </p>
                    }
                }))
            }}
            <Readings/>
            <OpsEditor/>
        </section>
    }
}

/// `1`, `2`… or `1a`, `1b`… when several formats are drawn.
fn tag(op: usize, format: usize, formats: usize) -> String {
    if formats > 1 {
        format!("{}{}", op + 1, (b'a' + (format % 26) as u8) as char)
    } else {
        format!("{}", op + 1)
    }
}

/// Checkboxes choosing the formats drawn.
#[component]
fn FormatChecks() -> impl IntoView {
    let sc = use_scenario();
    view! {
        <fieldset class="picker formats-picker">
            <legend>"Formats"</legend>
            {Dtype::ALL
                .into_iter()
                .map(|d| {
                    view! {
                        <label class="check">
                            <input
                                type="checkbox"
                                name="rfmt"
                                value=d.id()
                                prop:checked=move || sc.with(|s| s.roofline_formats.contains(&d))
                                on:change=move |ev| {
                                    let on = event_target_checked(&ev);
                                    sc.update(|s| {
                                        s.roofline_formats.retain(|x| *x != d);
                                        if on {
                                            s.roofline_formats.push(d);
                                        }
                                    });
                                }
                            />
                            {d.label()}
                        </label>
                    }
                })
                .collect_view()}
        </fieldset>
    }
}

/// The canvas, redrawn whenever the data or the size changes, crisp at any pixel ratio.
#[component]
fn Chart(
    /// What to draw.
    data: Memo<RooflineData>,
) -> impl IntoView {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let width = RwSignal::new(0.0f64);
    let frame = StoredValue::new(None::<(Frame, f64)>);
    let hover = RwSignal::new(None::<(f64, f64, f64)>);
    let wrap = NodeRef::<leptos::html::Div>::new();
    observe_width(wrap, width);
    Effect::new(move |_| {
        let d = data.get();
        let Some(c) = canvas.get() else { return };
        let w = width.get();
        if w <= 0.0 {
            return;
        }
        let w = w.max(280.0);
        let h = (w * 0.62).clamp(260.0, 600.0);
        let dpr = size_canvas(&c, w, h);
        let perf = web_sys::window().and_then(|w| w.performance());
        let t0 = perf.as_ref().map_or(0.0, web_sys::Performance::now);
        let Some(backend) = MeasuringCanvas::new(c.clone()) else {
            return;
        };
        let area = backend.into_drawing_area();
        let scale = dpr * if w < 500.0 { 0.85 } else { 1.0 };
        match draw(&area, &d, scale) {
            Ok(f) => frame.set_value(Some((f, dpr))),
            Err(e) => web_sys::console::error_1(&format!("roofline chart: {e:?}").into()),
        }
        // The benchmark reads how long the drawing itself took.
        let took = perf.as_ref().map_or(0.0, web_sys::Performance::now) - t0;
        c.set_attribute("data-draw-ms", &format!("{took:.2}")).ok();
        c.set_attribute("data-roofs", &d.roofs.len().to_string())
            .ok();
        c.set_attribute("data-markers", &d.markers.len().to_string())
            .ok();
    });
    let download_png = move |_| {
        if let Some(c) = canvas.get_untracked() {
            if let Ok(url) = c.to_data_url() {
                crate::export::save_url(&url, "roofline.png");
            }
        }
    };
    let sc = use_scenario();
    let download_svg = move |_| {
        let q = sc.with_untracked(engine::Scenario::to_query);
        crate::pages::lazy::export_svg("roofline", &q, "roofline.svg");
    };
    let download_csv = move |_| {
        crate::export::save_text(&to_csv(&data.get_untracked()), "roofline.csv", "text/csv")
    };
    let on_move = move |ev: web_sys::MouseEvent| {
        let (x, y) = (ev.offset_x(), ev.offset_y());
        let at = frame.with_value(|f| f.and_then(|(f, dpr)| f.intensity_at(x * dpr, y * dpr)));
        hover.set(at.map(|i| (x, y, i)));
    };
    view! {
        <figure class="chart">
            <div class="canvas-wrap" node_ref=wrap>
                <canvas
                    node_ref=canvas
                    id="roofline-canvas"
                    role="img"
                    aria-label="Roofline chart; the table below reads every point"
                    on:mousemove=on_move
                    on:mouseleave=move |_| hover.set(None)
                ></canvas>
                {move || hover.get().map(|(x, y, i)| view! { <Readout data=data x=x y=y intensity=i/> })}
            </div>
            <figcaption>
                <button class="small" on:click=download_png>"Download PNG"</button>
                <button class="small" on:click=download_svg>"Download SVG"</button>
                <button class="small" on:click=download_csv>"Download CSV"</button>
            </figcaption>
        </figure>
    }
}

/// What the chart says at the pointer: each roof's attainable throughput at that intensity,
/// and the operation whose marker is nearest, if one is close.
#[component]
fn Readout(
    /// The chart's data.
    data: Memo<RooflineData>,
    /// Pointer position in CSS pixels within the canvas.
    x: f64,
    /// Pointer position in CSS pixels within the canvas.
    y: f64,
    /// Intensity under the pointer, FLOP/B.
    intensity: f64,
) -> impl IntoView {
    let d = data.get_untracked();
    let near = d
        .markers
        .iter()
        .filter(|m| (m.intensity / intensity).log10().abs() < 0.04)
        .map(|m| m.tag.clone())
        .collect::<Vec<_>>();
    let i = FlopPerByte::new(intensity);
    let lines = d
        .roofs
        .iter()
        .map(|r| {
            let roof = Roofline { peak: FlopPerSec::new(r.peak), bandwidth: BytesPerSec::new(r.bandwidth) };
            let a = roof.attainable(i);
            let kind = roof.bound(i).kind();
            view! {
                <li>
                    <span class="swatch" style=format!("background:{}", css_color(r.chip))></span>
                    {r.label.clone()}": "{a.display_si()}" ("{kind}"-bound, "{sig(a / roof.peak * 100.0, 3)}"% of peak)"
                </li>
            }
        })
        .collect_view();
    let left = if x > 360.0 { x - 330.0 } else { x + 16.0 };
    view! {
        <div class="readout" style=format!("left:{left}px; top:{}px", y + 12.0) role="status">
            <strong>{format!("{} FLOP/B", sig(intensity, 3))}</strong>
            {(!near.is_empty()).then(|| format!(" · operation {}", near.join(", ")))}
            <ul>{lines}</ul>
        </div>
    }
}

/// For each operation and format: its intensity and where it lands on each chip.
#[component]
fn Readings() -> impl IntoView {
    let sc = use_scenario();
    // Below the chart: worked out after the chart paints (see `crate::defer`).
    let table = crate::defer::deferred(
        move || sc.with(|s| (s.chosen_chips(), s.roofline_formats.clone(), s.ops.clone())),
        |(chips, formats, ops)| readings_html(chips, formats, ops),
    );
    view! {
        <div class="deferred" class:updating=move || table.updating.get()
            inner_html=move || table.value.get().unwrap_or_default()></div>
    }
}

/// The readings table of `ops` in each of `formats` on each of `chips`, as HTML.
fn readings_html(chips: &[engine::Chip], formats: &[Dtype], ops: &[OpSpec]) -> String {
    use crate::widgets::{derived_html, escape};
    if ops.is_empty() || chips.is_empty() {
        return "<p class=\"empty\">Add an operation and choose a chip to read the chart.</p>"
            .into();
    }
    let mut head = String::new();
    for (i, c) in chips.iter().enumerate() {
        head += &format!(
            "<th scope=\"col\"><span class=\"swatch\" style=\"background:{}\"></span>{}</th>",
            css_color(i),
            escape(&c.name)
        );
    }
    let nf = formats.len();
    let mut rows = String::new();
    for (fi, f) in formats.iter().enumerate() {
        for (oi, op) in ops.iter().enumerate() {
            let cost = op.cost(*f);
            let i = cost.intensity();
            let mut cells = String::new();
            for c in chips {
                match Roofline::dense(c, *f) {
                    None => cells += &format!("<td><span class=\"na\">no {f}</span></td>"),
                    Some(r) => {
                        let p = r.place(cost);
                        let (kind, detail) = match p.bound {
                            Bound::Compute { margin } => {
                                ("compute", format!("{}× past the ridge", sig(margin, 3)))
                            }
                            Bound::Memory { shortfall } => {
                                ("memory", format!("{}× below the ridge", sig(shortfall, 3)))
                            }
                        };
                        let formula = format!(
                            "attainable = min({}, {} FLOP/B × {}) = {}; ridge {} FLOP/B; time ≥ {} ÷ attainable = {}",
                            r.peak, sig(i.get(), 4), r.bandwidth, p.attainable, sig(r.ridge().get(), 4), cost.flop, p.time
                        );
                        cells += &format!(
                            "<td class=\"bound-{kind}\"><strong>{kind}-bound</strong><br>{}</td>",
                            derived_html(
                                &format!(
                                    "{}% of peak, {}",
                                    sig(p.fraction_of_peak * 100.0, 3),
                                    detail
                                ),
                                &formula
                            )
                        );
                    }
                }
            }
            rows += &format!(
                "<tr><th scope=\"row\"><span class=\"tag\">{}</span>{} · {}<br>{}</th>{cells}</tr>",
                escape(&tag(oi, fi, nf)),
                escape(&op.label()),
                f.label(),
                derived_html(
                    &format!("{} FLOP/B", sig(i.get(), 4)),
                    &format!(
                        "{}; b = {} bytes. {} ÷ {}",
                        op.formula(),
                        f.bytes(),
                        cost.flop,
                        cost.bytes
                    )
                )
            );
        }
    }
    format!(
        "<div class=\"table-wrap\"><table class=\"compare readings\" id=\"roofline-table\"><thead><tr><th scope=\"col\">Operation · intensity</th>{head}</tr></thead><tbody>{rows}</tbody></table></div>{}",
        crate::export::table_buttons("roofline-table")
    )
}

/// Lists the operations and adds new ones from a kind and its values.
#[component]
fn OpsEditor() -> impl IntoView {
    let sc = use_scenario();
    let kind = RwSignal::new(OpSpec::KINDS[0].0.to_string());
    let values = RwSignal::new(String::from("4096,4096,4096"));
    let error = RwSignal::new(None::<String>);
    let add = move || {
        let spec = format!("{}:{}", kind.get_untracked(), values.get_untracked());
        match OpSpec::parse_spec(&spec) {
            Ok(op) => {
                error.set(None);
                sc.update(|s| {
                    if s.ops.len() < engine::scenario::MAX_ITEMS {
                        s.ops.push(op);
                    }
                });
            }
            Err(e) => error.set(Some(e.to_string())),
        }
    };
    let params = move || {
        let k = kind.get();
        OpSpec::KINDS
            .iter()
            .find(|(n, _)| *n == k)
            .map_or("", |(_, p)| p)
    };
    view! {
        <h2>"Operations"</h2>
        <ol class="ops">
            {move || {
                sc.with(|s| {
                    s.ops
                        .iter()
                        .enumerate()
                        .map(|(i, op)| {
                            view! {
                                <li>
                                    <span>{op.label()}</span>
                                    " "
                                    <code>{op.to_spec()}</code>
                                    <button class="small" aria-label=format!("Remove operation {}", i + 1)
                                        on:click=move |_| sc.update(|s| { if i < s.ops.len() { s.ops.remove(i); } })>
                                        "Remove"
                                    </button>
                                </li>
                            }
                        })
                        .collect_view()
                })
            }}
        </ol>
        <form class="add-op" on:submit=move |ev| { ev.prevent_default(); add(); }>
            <label class="inline">
                "Kind "
                <select name="op-kind" on:change=move |ev| kind.set(event_target_value(&ev))>
                    {OpSpec::KINDS
                        .iter()
                        .map(|(k, _)| view! { <option value=*k>{*k}</option> })
                        .collect_view()}
                </select>
            </label>
            <label class="inline grow">
                {move || format!("Values ({}) ", params())}
                <input
                    type="text"
                    name="op-values"
                    prop:value=move || values.get()
                    on:input=move |ev| values.set(event_target_value(&ev))
                />
            </label>
            <button type="submit">"Add"</button>
            <button type="button" class="small" on:click=move |_| sc.update(|s| s.ops = OpSpec::defaults())>"Reset to defaults"</button>
        </form>
        {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
    }
}

/// What the roofline chart draws for a scenario: each chosen chip's roof in each format, the
/// device's measured roofs, and the operations' markers.
#[must_use]
pub fn roofline_data(s: &engine::Scenario) -> RooflineData {
    let chips = s.chosen_chips();
    let mut d = RooflineData::default();
    for (fi, f) in s.roofline_formats.iter().enumerate() {
        for (ci, c) in chips.iter().enumerate() {
            if let Some(r) = Roofline::dense(c, *f) {
                d.roofs.push(Roof {
                    label: format!("{} {}", c.name, f.label()),
                    peak: r.peak.get(),
                    bandwidth: r.bandwidth.get(),
                    chip: ci,
                    format: fi,
                });
            }
        }
        if fi == 0 {
            // This device as measured on the Kernels page: f32 roofs, carried in the link.
            for (i, r) in s.device.iter().enumerate() {
                d.roofs.push(Roof {
                    label: format!("{} (f32, measured)", r.label()),
                    peak: r.gflops * 1e9,
                    bandwidth: r.gbps * 1e9,
                    chip: chips.len() + i,
                    format: 0,
                });
            }
        }
        if let (0, Some([ai, flops])) = (fi, s.nc_point) {
            let chip = s
                .neuroncore
                .split('_')
                .next()
                .filter(|c| !c.is_empty())
                .unwrap_or("trn2");
            d.points.push(Point {
                label: format!("NeuronCore schedule ({chip}, every core)"),
                intensity: ai,
                flops,
            });
        }
        for (oi, op) in s.ops.iter().enumerate() {
            d.markers.push(Marker {
                tag: tag(oi, fi, s.roofline_formats.len()),
                intensity: op.cost(*f).intensity().get(),
                format: fi,
            });
        }
    }
    d
}
