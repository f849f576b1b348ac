//! Collectives page: time and bus bandwidth against message size for chosen systems,
//! operations and algorithms; a table at one size with formulas and the link-level
//! simulation beside the analytic figure; the published measurements beside the model.

use engine::calibration::collectives::{self as calibration, CollectivePoint, Measured};
use engine::collective::{sim, standalone, Algorithm, Op};
use engine::system::{self, Cluster};
use engine::units::sig;
use engine::Bytes;
use leptos::prelude::*;
use plotters::prelude::IntoDrawingArea;

use crate::charts::canvas::MeasuringCanvas;
use crate::charts::collectives::{draw, to_csv, CollectiveData, Measurement, Metric, Series};
use crate::charts::roofline::css_color;
use crate::state::use_scenario;
use crate::widgets::{observe_width, size_canvas};

/// Sizes on the x axis: 8 B to 16 GiB in powers of two.
fn sizes() -> impl Iterator<Item = f64> {
    (3..=34).map(|k| 2f64.powi(k))
}

/// Controls, charts and tables.
#[component]
pub fn CollectivesPage() -> impl IntoView {
    let sc = use_scenario();
    let data = Memo::new(move |_| sc.with(collective_data));
    // The data table is built only while it is open: it can run to hundreds of rows.
    let data_open = RwSignal::new(false);
    let csv = move |_| {
        crate::export::save_text(
            &to_csv(&data.get_untracked()),
            "collectives.csv",
            "text/csv",
        )
    };
    view! {
        <section class="page collectives-page answer-first">
            <h1>"Collectives"</h1>
            <p class="lead">
                "Alpha-beta model: time = steps × per-step latency + bytes on the busiest link ÷ its bandwidth × efficiency; on NVIDIA systems, NCCL's protocols (LL, LL128, Simple) and latency constants, NVLink SHARP, rail-aligned rings or trees across nodes and all-to-alls sent directly to every peer, the fastest for each size as NCCL picks; on Trainium a collective launched on its own also pays Neuron's launch, as nccom-test times it. "
                "busbw is algbw × 2(n−1)/n for all-reduce and × (n−1)/n for all-gather, reduce-scatter and all-to-all, as nccl-tests reports it."
            </p>
            <crate::widgets::InputsFold summary=Signal::derive(move || sc.with(|s| {
                let c = &s.collectives;
                format!("{} · {} · {} node{}", c.systems.join(", "), c.ops.iter().map(|o| o.id()).collect::<Vec<_>>().join(", "), c.nodes, if c.nodes == 1 { "" } else { "s" })
            }))>
                <Controls/>
            </crate::widgets::InputsFold>
            <div class="chart-pair answer">
                <CanvasChart id="collective-time" data=data metric=Metric::Time/>
                <CanvasChart id="collective-busbw" data=data metric=Metric::Busbw/>
            </div>
            <p class="chart-tools"><button class="small" on:click=csv>"Download CSV"</button></p>
            <details class="chart-data" on:toggle=move |_| data_open.update(|o| *o = !*o)>
                <summary>"The charts' data"</summary>
                {move || data_open.get().then(|| view! {
                    <div class="table-wrap" inner_html=move || crate::charts::collectives::data_table_html(&data.get())></div>
                    <div inner_html=crate::export::table_buttons("collective-data")></div>
                })}
            </details>
            <AtSize/>
            <CalibrationTable/>
        </section>
    }
}

/// Checkbox lists and the node count and size fields.
#[component]
fn Controls() -> impl IntoView {
    let sc = use_scenario();
    let error = RwSignal::new(None::<String>);
    let edited: Vec<(String, String)> = sc
        .with_untracked(|s| s.edited_systems())
        .into_iter()
        .map(|id| (crate::pages::topology::edited_label(&id), id))
        .collect();
    let systems = system::presets()
        .into_iter()
        .map(|x| (x.name.to_string(), x.id.to_string()))
        .chain(edited)
        .map(|(name, id)| {
            let (id2, id3) = (id.clone(), id.clone());
            view! {
                <label class="check">
                    <input type="checkbox" name="csys" value=id
                        prop:checked=move || sc.with(|s| s.collectives.systems.contains(&id2))
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            let id = id3.clone();
                            sc.update(|s| {
                                s.collectives.systems.retain(|y| *y != id);
                                if on { s.collectives.systems.push(id); }
                            });
                        }/>
                    {name}
                </label>
            }
        })
        .collect_view();
    let ops = Op::ALL
        .into_iter()
        .map(|op| {
            view! {
                <label class="check">
                    <input type="checkbox" name="cop" value=op.id()
                        prop:checked=move || sc.with(|s| s.collectives.ops.contains(&op))
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            sc.update(|s| {
                                s.collectives.ops.retain(|y| *y != op);
                                if on { s.collectives.ops.push(op); }
                            });
                        }/>
                    {op.id()}
                </label>
            }
        })
        .collect_view();
    let algos = Algorithm::ALL
        .into_iter()
        .map(|a| {
            view! {
                <label class="check">
                    <input type="checkbox" name="calgo" value=a.id()
                        prop:checked=move || sc.with(|s| s.collectives.algorithms.contains(&a))
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            sc.update(|s| {
                                s.collectives.algorithms.retain(|y| *y != a);
                                if on { s.collectives.algorithms.push(a); }
                            });
                        }/>
                    {a.id()}
                </label>
            }
        })
        .collect_view();
    view! {
        <div class="controls">
            <fieldset class="picker"><legend>"Systems"</legend>{systems}</fieldset>
            <fieldset class="picker"><legend>"Operations"</legend>{ops}</fieldset>
            <fieldset class="picker"><legend>"Algorithms"</legend>{algos}</fieldset>
            <fieldset class="picker">
                <legend>"Scale"</legend>
                <label class="inline">"Nodes "
                    <input type="text" inputmode="numeric" name="nodes" size="5"
                        prop:value=move || sc.with(|s| s.collectives.nodes.to_string())
                        on:change=move |ev| {
                            let raw = event_target_value(&ev);
                            match raw.trim().parse::<u32>() {
                                Ok(n) if (1..=engine::scenario::MAX_NODES).contains(&n) => {
                                    error.set(None);
                                    sc.update(|s| s.collectives.nodes = n);
                                }
                                _ => error.set(Some(format!("Nodes: '{raw}' is not a whole number from 1 to {}; kept the previous value.", engine::scenario::MAX_NODES))),
                            }
                        }/>
                </label>
                <label class="inline">" Size "
                    <input type="text" name="size" size="9"
                        prop:value=move || sc.with(|s| Bytes::new(s.collectives.bytes).display_iec().replace(' ', ""))
                        on:change=move |ev| {
                            let raw = event_target_value(&ev);
                            match raw.parse::<Bytes>() {
                                Ok(b) if b.get() <= 1e15 => {
                                    error.set(None);
                                    sc.update(|s| s.collectives.bytes = b.get());
                                }
                                Ok(_) => error.set(Some("Size: at most 1 PB.".into())),
                                Err(e) => error.set(Some(format!("Size: {e}; kept the previous value."))),
                            }
                        }/>
                </label>
            </fieldset>
        </div>
        {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
    }
}

/// A canvas drawing one metric of the data, sized by a ResizeObserver, crisp at any DPR.
#[component]
fn CanvasChart(
    /// Element id of the canvas.
    id: &'static str,
    /// The curves.
    data: Memo<CollectiveData>,
    /// Which metric.
    metric: Metric,
) -> impl IntoView {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let wrap = NodeRef::<leptos::html::Div>::new();
    let width = RwSignal::new(0.0f64);
    observe_width(wrap, width);
    Effect::new(move |_| {
        let d = data.get();
        let w = width.get();
        let Some(c) = canvas.get() else { return };
        if w <= 0.0 {
            return;
        }
        let w = w.max(260.0);
        let h = (w * 0.7).clamp(240.0, 460.0);
        let dpr = size_canvas(&c, w, h);
        let Some(backend) = MeasuringCanvas::new(c.clone()) else {
            return;
        };
        if let Err(e) = draw(
            &backend.into_drawing_area(),
            &d,
            metric,
            dpr * if w < 480.0 { 0.85 } else { 1.0 },
        ) {
            web_sys::console::error_1(&format!("collectives chart: {e:?}").into());
        }
        c.set_attribute("data-series", &d.series.len().to_string())
            .ok();
    });
    let sc = use_scenario();
    let svg = move |_| {
        let q = sc.with_untracked(engine::Scenario::to_query);
        crate::pages::lazy::export_svg(id, &q, &format!("{id}.svg"));
    };
    view! {
        <figure class="chart">
            <figcaption class="export">
                <button type="button" class="small" data-png=id>"PNG"</button>
                <button type="button" class="small" on:click=svg>"SVG"</button>
            </figcaption>
            <div class="canvas-wrap" node_ref=wrap>
                <canvas node_ref=canvas id=id role="img"
                    aria-label=match metric { Metric::Time => "Time against message size; the charts' data table follows", Metric::Busbw => "Bus bandwidth against message size; the charts' data table follows" }></canvas>
            </div>
        </figure>
    }
}

/// The table at the chosen size: analytic terms, formula, and the simulation beside them.
#[component]
fn AtSize() -> impl IntoView {
    let sc = use_scenario();
    use crate::widgets::{derived_html, escape};
    move || {
        sc.with(|s| {
            let v = &s.collectives;
            let bytes = Bytes::new(v.bytes);
            let mut rows = String::new();
            for (si, id) in v.systems.iter().enumerate() {
                let Ok(sys) = system::find(id) else { continue };
                let cl = Cluster { system: sys.clone(), nodes: v.nodes };
                for op in &v.ops {
                    for algo in &v.algorithms {
                        let head = format!(
                            "<th scope=\"row\"><span class=\"swatch\" style=\"background:{}\"></span>{} · {} · {}</th>",
                            css_color(si),
                            escape(sys.name),
                            op.id(),
                            algo.id()
                        );
                        match standalone(&cl, *op, bytes, *algo) {
                            Err(e) => {
                                rows += &format!(
                                    "<tr>{head}<td colspan=\"7\"><span class=\"na\">{}</span></td></tr>",
                                    escape(&e.to_string())
                                );
                            }
                            Ok(e) => {
                                let perf = web_sys::window().and_then(|w| w.performance());
                                let t0 = perf.as_ref().map_or(0.0, web_sys::Performance::now);
                                let simulated = (v.nodes == 1).then(|| {
                                    let sa = if *op == Op::AllToAll { Algorithm::Direct } else { e.algorithm };
                                    sim::simulate(&sys.fabric(), *op, bytes, sa, sys.hop_latency.value, sys.link_efficiency.value)
                                });
                                // The benchmark reads how long the simulation took in the browser.
                                let sim_ms = format!("{:.3}", perf.as_ref().map_or(0.0, web_sys::Performance::now) - t0);
                                let sim_cell = match simulated {
                                    None => "<span class=\"na\">one domain only</span>".to_string(),
                                    Some(Err(_)) => "<span class=\"na\">not simulated</span>".to_string(),
                                    Some(Ok(r)) => {
                                        let ratio = r.time.get() / e.time.get();
                                        derived_html(
                                            &format!("{} ({}×)", r.time, sig(ratio, 3)),
                                            &format!("{} steps, {} flows, up to {} flows sharing a link; simulated ÷ analytic = {}", r.steps, r.flows, r.max_link_sharing, sig(ratio, 4)),
                                        )
                                    }
                                };
                                rows += &format!(
                                    "<tr>{head}<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td data-busbw=\"{}\">{}</td><td data-sim-ms=\"{sim_ms}\">{sim_cell}</td></tr>",
                                    e.algorithm.id(),
                                    derived_html(&e.time.display_si(), &e.formula),
                                    e.latency_term.display_si(),
                                    e.bandwidth_term.display_si(),
                                    e.algbw.display_si(),
                                    e.busbw.get(),
                                    e.busbw.display_si()
                                );
                            }
                        }
                    }
                }
            }
            let table = format!(
                "<div class=\"table-wrap\"><table class=\"compare\" id=\"collective-table\"><thead><tr><th scope=\"col\">System · operation · algorithm</th><th scope=\"col\">Used</th><th scope=\"col\">Time</th><th scope=\"col\">Latency term</th><th scope=\"col\">Bandwidth term</th><th scope=\"col\">algbw</th><th scope=\"col\">busbw</th><th scope=\"col\">Simulated</th></tr></thead><tbody>{rows}</tbody></table></div>{}",
                crate::export::table_buttons("collective-table")
            );
            view! {
                <h2>{format!("At {} on {} node{}", bytes.display_iec(), v.nodes, if v.nodes == 1 { "" } else { "s" })}</h2>
                <div inner_html=table></div>
            }
        })
    }
}

/// Every published measurement against the model's figure for it, with how it is used: below
/// the charts, and the same on every visit, so worked out after the charts paint (see
/// `crate::defer`); it times every measurement with the model.
#[component]
fn CalibrationTable() -> impl IntoView {
    let table = crate::defer::deferred(|| (), |()| calibration_html());
    view! {
        <h2>"The model against measurements"</h2>
        <p class="small-note">"On NVIDIA systems the model runs NCCL's own choice: rings in the LL, LL128 or Simple protocol with NCCL's latency constants, NVLink SHARP, across nodes rail-aligned rings or trees whose phases stream together, and all-to-alls sent directly to every peer, (m−1)/m of each GPU's bytes through its NIC. "
            "Fitted: the ring and NVLS efficiencies of each NVLink generation (8 GiB on 8 × H200 and 8 × B200), the NVLS pipeline fill (16 MiB on DGX H100), EFA's latency per network step (2 × p6-b200, 2 × p5) and Neuron's launch of a collective on its own (nccom-test's 64-rank all-gather of 1 KiB on a Trn2). "
            "The rest are held out (dated when they entered, before any change they judge) or were tuned against (in view while the NCCL model was built); each must come within its bound, and a point where the model departs says why. "
            "Two published point-to-point figures are not collectives and are checked against the efficiencies instead: an 8 × H200 GPU-pair copy reached 396.4 GB/s (88% of 450; the model's NVLink 4 ring efficiency is 81%), and one 200G EFA device 193.72 Gb/s (96.9%; the model uses 95%)."</p>
        <div class="deferred" class:updating=move || table.updating.get()
            inner_html=move || table.value.get().unwrap_or_default()></div>
    }
}

/// The table of every published measurement against the model, as HTML.
fn calibration_html() -> String {
    use crate::widgets::{table_html, HtmlRow, RowCells};
    let points = calibration::points();
    let fmt = |c: &CollectivePoint, x: f64| match c.measured {
        Measured::Busbw(_) => engine::BytesPerSec::new(x).display_si(),
        Measured::Time(_) => engine::Seconds::new(x).display_si(),
    };
    let bound = |c: &CollectivePoint| {
        (
            c.role.id(),
            engine::calibration::tolerance(c.role, engine::calibration::Family::Collectives),
        )
    };
    let data: Vec<[(&str, String); 2]> = points
        .iter()
        .map(|c| {
            let err = c.predicted().map_or(f64::NAN, |p| p / c.value() - 1.0);
            [("role", bound(c).0.to_string()), ("error", err.to_string())]
        })
        .collect();
    let cells: Vec<RowCells<1, 3>> = points
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let predicted = c.predicted().ok();
            let err = predicted.map(|p| p / c.value() - 1.0);
            let (role, b) = bound(c);
            (
                [format!("M{}", i + 1)],
                [
                    (predicted.map(|p| fmt(c, p)).unwrap_or_default(), false),
                    (
                        err.map(|e| format!("{:+.1}%", e * 100.0))
                            .unwrap_or_default(),
                        err.is_some_and(|e| e.abs() > b),
                    ),
                    (format!("{role} (±{:.0}%)", b * 100.0), false),
                ],
            )
        })
        .collect();
    let rows: Vec<HtmlRow> = points
        .iter()
        .zip(&data)
        .zip(&cells)
        .map(|((c, d), (lead, cells))| HtmlRow {
            data: d,
            lead,
            label: (c.label, c.note),
            fig: (
                fmt(c, c.value()),
                engine::Source::Cited { citation: c.source },
                "",
            ),
            cells,
        })
        .collect();
    table_html(
        "calibration-table",
        &["#", "Measurement", "Measured", "Model", "Difference", "Use"],
        &rows,
    )
}

/// What the collectives charts draw for a scenario: each system's curves for each operation
/// and algorithm, and the published measurements that match.
#[must_use]
pub fn collective_data(s: &engine::Scenario) -> CollectiveData {
    let v = &s.collectives;
    let mut d = CollectiveData::default();
    // Legends name systems by their name before its bracket ("HGX H200"), unless two chosen
    // systems share it.
    let found: Vec<Option<system::System>> =
        v.systems.iter().map(|id| system::find(id).ok()).collect();
    let short = |name: &str| name.split(" (").next().unwrap_or(name).to_string();
    let name_of = |sys: &system::System| {
        let s = short(sys.name);
        let shared = found
            .iter()
            .flatten()
            .filter(|o| short(o.name) == s)
            .count()
            > 1;
        if shared {
            sys.name.to_string()
        } else {
            s
        }
    };
    for (si, sys) in found.iter().enumerate() {
        let Some(sys) = sys else { continue };
        let cl = Cluster {
            system: sys.clone(),
            nodes: v.nodes,
        };
        let mut k = 0;
        for op in &v.ops {
            for algo in &v.algorithms {
                let points: Vec<(f64, f64, f64)> = sizes()
                    .filter_map(|b| standalone(&cl, *op, Bytes::new(b), *algo).ok())
                    .map(|e| (e.bytes.get(), e.time.get(), e.busbw.get()))
                    .collect();
                if points.is_empty() {
                    continue;
                }
                d.series.push(Series {
                    label: format!("{} · {} · {}", name_of(sys), op.id(), algo.id()),
                    color: si,
                    dashed: k > 0,
                    points,
                });
                k += 1;
            }
        }
    }
    for (i, c) in calibration::points().iter().enumerate() {
        if let Some(si) = v.systems.iter().position(|x| x == c.system) {
            if v.ops.contains(&c.op) && v.nodes == c.nodes {
                d.measured.push(Measurement {
                    tag: format!("M{}", i + 1),
                    color: si,
                    bytes: c.bytes.get(),
                    metric: match c.measured {
                        Measured::Busbw(_) => Metric::Busbw,
                        Measured::Time(_) => Metric::Time,
                    },
                    value: c.value(),
                });
            }
        }
    }
    d
}
