//! Topology page: the chosen system's scale-up fabric drawn chip by chip; click a chip for its
//! hop distances, mark one failed to see what leaves service with it.

use engine::system::{self, Shape, System};
use engine::units::sig;
use leptos::prelude::*;

use crate::charts::topology::{hypercube_view, layout, EdgeKind, Layout};
use crate::state::use_scenario;

/// Adds the Topology page's own stylesheet (once).
pub fn add_style() {
    crate::module::add_style("topology", include_str!("../../../styles/topology.css"));
}

/// System picker, drawing(s) and the fabric's figures.
#[component]
pub fn TopologyPage() -> impl IntoView {
    let sc = use_scenario();
    let sys = Memo::new(move |_| {
        sc.with(|s| {
            system::find(&s.topology.system).unwrap_or_else(|_| system::presets().remove(0))
        })
    });
    let marking = RwSignal::new(false);
    view! {
        <section class="page topology-page">
            <h1>"Topology"</h1>
            <p class="lead">
                "How the chips of one scale-up domain are wired. Click a chip to see how many hops "
                "every other chip is from it; switch to failure mode and click to see what one failed chip takes out of service."
            </p>
            <div class="controls">
                <label class="inline">
                    "System "
                    <select
                        name="system"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            sc.update(|s| {
                                s.topology.system = v;
                                s.topology.selected = Some(0);
                                s.topology.failed = None;
                            });
                        }
                    >
                        {system::presets()
                            .into_iter()
                            .map(|x| {
                                let id = x.id;
                                view! {
                                    <option value=id selected=move || sc.with(|s| s.topology.system == id)>
                                        {x.name}
                                    </option>
                                }
                            })
                            .collect_view()}
                        {move || sc.with(|s| s.edited_systems()).into_iter().map(|id| {
                            let label = edited_label(&id);
                            let id2 = id.clone();
                            view! { <option value=id selected=move || sc.with(|s| s.topology.system == id2)>{label}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <label class="check">
                    <input type="checkbox" name="mark-failed" prop:checked=move || marking.get()
                        on:change=move |ev| marking.set(event_target_checked(&ev))/>
                    "Click marks a failed chip"
                </label>
                <button class="small" on:click=move |_| sc.update(|s| s.topology.failed = None)>"Clear failure"</button>
            </div>
            <EditSystem sys=sys/>
            <p class="embed-caption">{move || sys.with(|s| format!("{}: {} chips; shade and numbers are hops from the selected chip", s.name, s.chips()))}</p>
            <div class="topo-grid answer">
                <div class="card drawing">
                    {move || {
                        let s = sys.get();
                        let l = layout(&s);
                        view! { <Drawing sys=s.clone() layout=l marking=marking id="topology-svg"/> }
                    }}
                    {move || if matches!(sys.get().shape, Shape::Tiered { .. }) {
                        view! {
                            <p class="legend small-note">
                                <span class="key link"></span>"a server's chips on its switch (every chip of a rack also reaches the rest through the rack's switch) "
                                <span class="key slow"></span>"direct link to the same position in the other rack "
                                "· shade: hops from the selected chip"
                            </p>
                        }.into_any()
                    } else {
                        view! {
                            <p class="legend small-note">
                                <span class="key link"></span>"link "
                                <span class="key wrap"></span>"wraparound "
                                <span class="key slow"></span>"slowest axis (the selected chip's Z ring on a 3-D torus) "
                                "· numbers: hops from the selected chip"
                            </p>
                        }.into_any()
                    }}
                    {move || {
                        let s = sys.get();
                        (s.chips() == 16 && matches!(s.shape, Shape::Torus { .. })).then(|| view! {
                            <h3>"The same 16 chips as a 2×2×2×2 hypercube"</h3>
                            <p class="small-note">"A 4-chip ring is a square, so a 4×4 torus is a 4-dimensional hypercube: every link and every hop count is the same."</p>
                            <Drawing sys=s.clone() layout=hypercube_view() marking=marking id="hypercube-svg"/>
                        })
                    }}
                </div>
                <Figures sys=sys/>
            </div>
        </section>
    }
}

/// Hop distances from the selected chip, and who is out of service, for colouring.
fn state(sys: &System, selected: Option<u32>, failed: Option<u32>) -> (Vec<u32>, Vec<bool>) {
    let fabric = sys.fabric();
    let n = fabric.chips();
    let d = selected
        .filter(|c| *c < n)
        .map_or_else(|| vec![u32::MAX; n as usize], |c| fabric.distances(c));
    let mut out = vec![false; n as usize];
    if let Some(f) = failed.filter(|f| *f < n) {
        let m = sys.metrics().map(|m| m.blast_radius).unwrap_or(n);
        if m >= n {
            out.iter_mut().for_each(|x| *x = true);
        } else {
            let start = f - f % m;
            for c in start..(start + m).min(n) {
                out[c as usize] = true;
            }
        }
    }
    (d, out)
}

const HOP_COLOURS: [&str; 8] = [
    "#0b3d91", "#1f6fd1", "#4b9be8", "#7fbaf0", "#a9d0f5", "#cfe3f9", "#e3eefb", "#eef4fc",
];

/// One SVG drawing of the fabric with clickable chips.
#[component]
fn Drawing(
    /// The system drawn.
    sys: System,
    /// Where things go.
    layout: Layout,
    /// Whether a click marks a failure instead of selecting.
    marking: RwSignal<bool>,
    /// Element id.
    id: &'static str,
) -> impl IntoView {
    let sc = use_scenario();
    let n = layout.chips.len();
    let show_numbers = n <= 64;
    let (w, h) = layout.size;
    let edges = layout
        .edges
        .iter()
        .map(|e| {
            let (x0, y0, cx, cy, x1, y1) = e.path;
            let class = match e.kind {
                EdgeKind::Link => "edge",
                EdgeKind::Wrap => "edge wrap",
                EdgeKind::Slow => "edge slow",
                EdgeKind::Port => "edge port",
            };
            view! { <path class=class d=format!("M{x0:.1},{y0:.1} Q{cx:.1},{cy:.1} {x1:.1},{y1:.1}")/> }
        })
        .collect_view();
    let sys2 = sys.clone();
    let sys_data = sys.clone();
    let zchips = layout.chips.clone();
    let z_links = move || {
        // Slow-axis (Z) ring of the selected chip's column, for 3-D tori.
        let Shape::Torus { dims } = &sys2.shape else {
            return None;
        };
        if dims.len() < 3 || id != "topology-svg" {
            return None;
        }
        let sel = sc.with(|s| s.topology.selected)?;
        let c = engine::topology::Fabric::coords(dims, sel);
        let pts: Vec<(f64, f64)> = (0..dims[2])
            .map(|z| {
                let mut d = c.clone();
                d[2] = z;
                zchips[engine::topology::Fabric::index(dims, &d) as usize]
            })
            .collect();
        let mut path = String::new();
        for (k, p) in pts.iter().enumerate() {
            path.push_str(&format!(
                "{}{:.1},{:.1} ",
                if k == 0 { "M" } else { "L" },
                p.0,
                p.1
            ));
        }
        Some(view! { <path class="edge slow zring" d=path/> })
    };
    let sw = layout.switch.map(|(cx, cy, s)| {
        view! {
            <rect class="switch" x=cx - s y=cy - s * 0.6 width=2.0 * s height=1.2 * s rx="6"/>
            <text class="switch-label" x=cx y=cy + 4.0>"switch"</text>
        }
    });
    let captions = layout
        .captions
        .iter()
        .map(|(x, y, t)| view! { <text class="caption" x=*x y=*y>{t.clone()}</text> })
        .collect_view();
    let r = layout.radius;
    let chips = layout.chips.clone();
    let sys3 = sys.clone();
    let nodes = move || {
        let (sel, failed) = sc.with(|s| (s.topology.selected, s.topology.failed));
        let (dist, out) = state(&sys3, sel, failed);
        chips
            .iter()
            .enumerate()
            .map(|(i, (x, y))| {
                let i = i as u32;
                let d = dist[i as usize];
                let fill = if out[i as usize] {
                    "#c8ccd2"
                } else if d == u32::MAX {
                    "#5b8fd6"
                } else {
                    HOP_COLOURS[(d as usize).min(HOP_COLOURS.len() - 1)]
                };
                let text_fill = if d <= 2 && !out[i as usize] { "#fff" } else { "#1b2430" };
                let click = move || {
                    if marking.get_untracked() {
                        sc.update(|s| s.topology.failed = Some(i));
                    } else {
                        sc.update(|s| s.topology.selected = Some(i));
                    }
                };
                let label = if d == u32::MAX { format!("chip {i}") } else { format!("chip {i}: {d} hops") };
                view! {
                    <g class="chip" class:selected=sel == Some(i) class:failed=failed == Some(i)
                        tabindex="0" role="button" aria-label=label data-chip=i data-hops=d
                        on:click=move |_| click()
                        on:keydown=move |ev| if ev.key() == "Enter" || ev.key() == " " { ev.prevent_default(); click() }>
                        <circle cx=*x cy=*y r=r fill=fill/>
                        {(failed == Some(i)).then(|| view! {
                            <path class="cross" d=format!("M{:.1},{:.1} L{:.1},{:.1} M{:.1},{:.1} L{:.1},{:.1}", x - r * 0.6, y - r * 0.6, x + r * 0.6, y + r * 0.6, x - r * 0.6, y + r * 0.6, x + r * 0.6, y - r * 0.6)/>
                        })}
                        {(show_numbers && d != u32::MAX && failed != Some(i)).then(|| view! {
                            <text x=*x y=y + 4.0 fill=text_fill>{d}</text>
                        })}
                    </g>
                }
            })
            .collect_view()
    };
    view! {
        <svg id=id class="topology" viewBox=format!("0 0 {w:.0} {h:.0}") role="group"
            style=format!("max-width:{:.0}px", w * 1.5)
            aria-label=format!("{} drawn chip by chip", sys.name) data-chips=n>
            {edges}
            {z_links}
            {sw}
            {captions}
            {nodes}
        </svg>
        <div inner_html=move || drawing_data(&sys_data, id)></div>
    }
}

/// The drawing's data (each chip's place, hops from the selected chip and whether it is out
/// of service), folded under it as its text alternative, with the download buttons.
fn drawing_data(sys: &System, id: &str) -> String {
    use crate::widgets::escape;
    let (sel, failed) = use_scenario().with(|s| (s.topology.selected, s.topology.failed));
    let (hops, out) = state(sys, sel, failed);
    let dims = match &sys.shape {
        Shape::Torus { dims } => Some(dims.clone()),
        _ => None,
    };
    let mut rows = String::new();
    for (i, (d, o)) in hops.iter().zip(&out).enumerate() {
        let place = dims.as_ref().map_or_else(
            || "on the switch".to_string(),
            |dims| {
                let c = engine::topology::Fabric::coords(dims, i as u32);
                format!(
                    "({})",
                    c.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
                )
            },
        );
        let hop = if *d == u32::MAX {
            "—".to_string()
        } else {
            d.to_string()
        };
        rows.push_str(&format!(
            "<tr><td>{i}</td><td>{}</td><td>{hop}</td><td>{}</td></tr>",
            escape(&place),
            if *o { "out of service" } else { "in service" }
        ));
    }
    format!(
        r#"<div class="export"><button type="button" class="small" data-svg="{id}">SVG</button><button type="button" class="small" data-png="{id}">PNG</button><button type="button" class="small" data-csv="{id}-data">CSV</button></div><details class="chart-data"><summary>The drawing's data</summary><div class="table-wrap"><table class="grid" id="{id}-data"><thead><tr><th scope="col">chip</th><th scope="col">torus coordinates</th><th scope="col">hops from the selected chip</th><th scope="col">state</th></tr></thead><tbody>{rows}</tbody></table></div></details>"#
    )
}

/// The fabric's figures, with the sources of the link figures and the alternatives.
#[component]
fn Figures(
    /// The system.
    sys: Memo<System>,
) -> impl IntoView {
    let sc = use_scenario();
    move || {
        let s = sys.get();
        let Ok(m) = s.metrics() else {
            return view! { <p class="error">"This fabric is not valid."</p> }.into_any();
        };
        let failed = sc.with(|x| x.topology.failed);
        let blast = match (&s.shape, failed) {
            (_, None) => None,
            (Shape::Torus { .. }, Some(f)) => Some(format!(
                "Chip {f} failed: a torus with a hole is no longer a torus, so all {} chips of this domain leave service until it is repaired (or the job shrinks to a smaller shape).",
                m.chips
            )),
            (Shape::Switch { .. } | Shape::Tiered { .. }, Some(f)) => Some(format!(
                "Chip {f} failed: the switch still joins the other chips, but its service unit of {} chips comes out for repair ({}).",
                m.blast_radius, s.service_unit.note
            )),
        };
        use crate::widgets::{escape, fig_html_est};
        let fig =
            |v: String, f: &engine::Sourced<f64>| fig_html_est(&v, f.source, f.estimate, f.note);
        let row = |th: &str, attr: &str, td: String| {
            format!(
                "<tr><th scope=\"row\">{}</th><td{attr}>{td}</td></tr>",
                escape(th)
            )
        };
        let mut body = String::new();
        body += &row("Fabric", "", escape(&s.fabric().describe()));
        body += &row("Chips", "", m.chips.to_string());
        body += &row("Links", "", m.links.to_string());
        body += &row("Neighbours per chip", "", m.degree.to_string());
        body += &row(
            "Diameter",
            " data-figure=\"diameter\"",
            format!("{} hops", m.diameter),
        );
        body += &row("Mean hop count", "", sig(m.mean_hops, 4));
        body += &row(
            "Bisection, per direction",
            " data-figure=\"bisection\"",
            m.bisection.display_si(),
        );
        body += &row(
            "Injection per chip, per direction",
            "",
            m.injection.display_si(),
        );
        body += &row(
            "Blast radius",
            " data-figure=\"blast\"",
            format!("{} chips", m.blast_radius),
        );
        for (i, l) in s.links.iter().enumerate() {
            let axis = match &s.shape {
                Shape::Torus { dims } if dims.len() > 1 => {
                    format!("axis {} ({}) link", ["X", "Y", "Z", "W"][i.min(3)], dims[i])
                }
                Shape::Torus { .. } => "link".into(),
                Shape::Switch { .. } => "port per chip".into(),
                Shape::Tiered { .. } => {
                    [
                        "into the server's switch",
                        "into the rack's switch",
                        "direct to the other rack",
                    ][i.min(2)]
                    .to_string()
                        + ", per chip"
                }
            };
            let v = engine::Sourced {
                value: l.value.get(),
                source: l.source,
                estimate: l.estimate,
                note: l.note,
            };
            body += &row(
                &format!("{axis}, per direction"),
                "",
                fig(l.value.display_si(), &v),
            );
        }
        let hl = s.hop_latency;
        let so = s.scale_out;
        body += &row(
            "Hop latency",
            "",
            fig(
                hl.value.display_si(),
                &engine::Sourced {
                    value: hl.value.get(),
                    source: hl.source,
                    estimate: hl.estimate,
                    note: hl.note,
                },
            ),
        );
        body += &row(
            "Scale-out per chip, per direction",
            "",
            fig(
                so.value.display_si(),
                &engine::Sourced {
                    value: so.value.get(),
                    source: so.source,
                    estimate: so.estimate,
                    note: so.note,
                },
            ),
        );
        let mut alts = String::new();
        for a in &s.alternatives {
            let v = if a.unit == "B/s" {
                engine::BytesPerSec::new(a.figure.value).display_si()
            } else {
                format!("{} {}", sig(a.figure.value, 4), a.unit)
            };
            alts += &format!("<li>{}: {}</li>", escape(a.what), fig(v, &a.figure));
        }
        let html = format!(
            "<table class=\"compare\" id=\"topology-figures\"><tbody>{body}</tbody></table>{}{}{}",
            crate::export::table_buttons("topology-figures"),
            blast
                .map(|b| format!("<p class=\"blast\" role=\"status\">{}</p>", escape(&b)))
                .unwrap_or_default(),
            if alts.is_empty() {
                String::new()
            } else {
                format!("<h3>Other published figures</h3><ul class=\"alts\">{alts}</ul>")
            }
        );
        view! {
            <div class="card figures">
                <h2>{if s.edited { format!("Edited from {}", s.name) } else { s.name.to_string() }}</h2>
                {s.concept.then(|| view! { <p class="badge est">"concept from SemiAnalysis's Trainium2 article, not a product"</p> })}
                <div inner_html=html></div>
            </div>
        }
        .into_any()
    }
}

/// How a picker names an edited system: its base and its spec.
#[must_use]
pub fn edited_label(id: &str) -> String {
    match system::find(id) {
        Ok(s) => format!(
            "Edited {} ({})",
            s.name,
            id.trim_start_matches(system::EDIT_PREFIX)
        ),
        Err(_) => id.to_string(),
    }
}

/// Clone the shown system and change its fabric, scale-out, price and power; the edited
/// system becomes the shown one, and every page's picker offers it. The form is plain HTML
/// (refilled when the system changes) and read once on Apply.
#[component]
fn EditSystem(
    /// The system shown.
    sys: Memo<System>,
) -> impl IntoView {
    use crate::widgets::escape;
    use wasm_bindgen::JsCast;
    const FIELDS: [(&str, &str); 6] = [
        ("shape", "Shape: torus AxB[xC] or switch chip count"),
        (
            "links",
            "Links, GB/s per direction (per axis, tier or port, / between)",
        ),
        ("out", "Scale-out, Gb/s per chip"),
        ("outlat", "Scale-out step latency, µs"),
        ("usd", "$ per chip-hour (blank: published)"),
        ("w", "Power per chip, all-in W (blank: default)"),
    ];
    let sc = use_scenario();
    let error = RwSignal::new(None::<String>);
    let form = move || {
        let s = sys.get();
        let values = [
            match &s.shape {
                Shape::Torus { dims } => dims
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("x"),
                Shape::Switch { chips, .. } => chips.to_string(),
                Shape::Tiered { .. } => String::new(),
            },
            s.links
                .iter()
                .map(|l| sig(l.value.get() / 1e9, 6))
                .collect::<Vec<_>>()
                .join("/"),
            sig(s.scale_out.value.get() * 8.0 / 1e9, 6),
            sig(s.scale_out_latency.value.get() * 1e6, 6),
            s.usd_per_chip_hour
                .map(|p| sig(p.value, 6))
                .unwrap_or_default(),
            s.power_w.map(|p| sig(p.value, 6)).unwrap_or_default(),
        ];
        let mut h = String::new();
        for ((key, label), v) in FIELDS.iter().zip(values) {
            h += &format!(
                "<label class=\"field num\">{}<input type=\"text\" name=\"edit-{key}\" value=\"{}\"></label>",
                escape(label),
                escape(&v)
            );
        }
        h
    };
    let apply = move |_| {
        let doc = web_sys::window().and_then(|w| w.document());
        let get = |key: &str| {
            doc.as_ref()
                .and_then(|d| {
                    d.query_selector(&format!("input[name=edit-{key}]"))
                        .ok()
                        .flatten()
                })
                .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
                .map(|e| e.value())
                .unwrap_or_default()
        };
        let current = sc.with(|s| s.topology.system.clone());
        let base = system::SystemEdit::parse(&current)
            .map(|e| e.base)
            .unwrap_or(current);
        let mut spec = format!("{}{base}", system::EDIT_PREFIX);
        let shape = get("shape");
        let shape = shape.trim();
        if shape.contains('x') {
            spec += &format!(";torus={shape}");
        } else if !shape.is_empty() {
            spec += &format!(";switch={shape}");
        }
        for key in ["links", "out", "outlat", "usd", "w"] {
            let v = get(key);
            if !v.trim().is_empty() {
                spec += &format!(";{key}={}", v.trim());
            }
        }
        match system::SystemEdit::parse(&spec).and_then(|e| e.apply().map(|_| e.to_spec())) {
            Ok(spec) => {
                error.set(None);
                sc.update(|s| {
                    s.topology.system = spec;
                    s.topology.selected = Some(0);
                    s.topology.failed = None;
                });
            }
            Err(e) => error.set(Some(format!("{e}; the system shown is kept."))),
        }
    };
    view! {
        <details class="card" id="edit-system">
            <summary><h2 class="inline-h">"Edit this system"</h2></summary>
            <p class="small-note">"Clone the system shown and change its fabric, scale-out, price or power. The edited system travels in the link and every page's system picker offers it; what you change is marked as yours."</p>
            <div class="input-grid" inner_html=form></div>
            <button class="small" id="edit-apply" on:click=apply>"Apply"</button>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
        </details>
    }
}
