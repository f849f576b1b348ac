//! Chips page: figures of the chosen chips side by side, with sources; clone and edit a chip.

use engine::chip::Field;
use engine::scenario::custom_id;
use engine::units::sig;
use engine::{Chip, Dtype};
use leptos::prelude::*;

use crate::state::use_scenario;
use crate::widgets::{ChipPicker, Derived, Fig, FormatSelect};

/// The comparison table and the editors of custom chips.
#[component]
pub fn ChipsPage() -> impl IntoView {
    let sc = use_scenario();
    let chips = Memo::new(move |_| sc.with(|s| s.chosen_chips()));
    let format = Signal::derive(move || sc.with(|s| s.format));
    view! {
        <section class="page chips-page answer-first">
            <h1>"Chips"</h1>
            <p class="lead">
                "Peak throughput, memory and power of each accelerator, every figure with its source. "
                "Clone a chip to edit any figure."
            </p>
            <crate::widgets::InputsFold summary=Signal::derive(move || format!("{} chips · {}", chips.with(Vec::len), format.get().label()))>
                <div class="controls">
                    <ChipPicker/>
                    <FormatSelect value=format on_change=Callback::new(move |d| sc.update(|s| s.format = d))/>
                </div>
            </crate::widgets::InputsFold>
            <div class="table-wrap answer">
                {move || table(&chips.get(), format.get())}
            </div>
            <Editors/>
        </section>
    }
}

/// Renders one chip's cell of a table row.
type Cell = Box<dyn Fn(&Chip) -> AnyView>;

fn table(chips: &[Chip], d: Dtype) -> impl IntoView {
    if chips.is_empty() {
        return view! { <p class="empty">"Choose at least one chip above."</p> }.into_any();
    }
    let header = chips
        .iter()
        .map(|c| {
            let id = c.id.clone();
            let custom = c.custom;
            view! {
                <th scope="col" data-chip=c.id.clone()>
                    <span class="chip-name">{c.name.clone()}</span>
                    <span class="vendor">{c.vendor}</span>
                    {custom.then(|| view! { <span class="badge custom">"custom"</span> })}
                    <CloneButton id=id/>
                </th>
            }
        })
        .collect_view();
    // Each figure, whether it is a headline (an embed shows those alone), and its cell.
    let rows: Vec<(String, bool, Cell)> = vec![
        (
            format!("{} dense", d.label()),
            true,
            Box::new(move |c: &Chip| {
                match c.peak(d).dense {
                Some(x) => view! { <Fig text=x.value.display_si() source=x.source estimate=x.estimate note=x.note/> }.into_any(),
                None => na("not supported"),
            }
            }),
        ),
        (
            format!("{} sparse", d.label()),
            false,
            Box::new(move |c: &Chip| {
                match c.peak(d).sparse {
                Some(x) => view! {
                    <Fig text=x.value.display_si() source=x.source estimate=x.estimate note=x.note/>
                    <div class="sub small" title=c.sparsity>{short_sparsity(c.sparsity)}" sparsity"</div>
                }
                .into_any(),
                None => na("no sparse figure"),
            }
            }),
        ),
        (
            "HBM capacity".into(),
            true,
            Box::new(|c: &Chip| {
                let x = c.hbm_capacity;
                view! { <Fig text=x.value.display_memory() source=x.source estimate=x.estimate note=x.note/> }.into_any()
            }),
        ),
        (
            "HBM bandwidth".into(),
            true,
            Box::new(|c: &Chip| {
                let x = c.hbm_bandwidth;
                view! { <Fig text=x.value.display_si() source=x.source estimate=x.estimate note=x.note/> }.into_any()
            }),
        ),
        (
            "On-chip SRAM".into(),
            false,
            Box::new(|c: &Chip| {
                if c.sram.is_empty() {
                    return na("not published");
                }
                c.sram
                    .iter()
                    .map(|m| {
                        let x = m.capacity;
                        view! {
                            <div class="sub">
                                {m.name}": "
                                // On-chip memories are sized in binary units, on every page.
                                <Fig text=x.value.display_iec() source=x.source estimate=x.estimate note=x.note/>
                            </div>
                        }
                    })
                    .collect_view()
                    .into_any()
            }),
        ),
        (
            "Cores".into(),
            false,
            Box::new(|c: &Chip| {
                let x = c.cores;
                view! {
                    <Fig text=x.value.to_string() source=x.source estimate=x.estimate note=x.note/>
                    <div class="sub small">{c.core_kind}</div>
                }
                .into_any()
            }),
        ),
        (
            "Clocks".into(),
            false,
            Box::new(|c: &Chip| {
                if c.clocks.is_empty() {
                    return na("not published");
                }
                c.clocks
                    .iter()
                    .map(|k| {
                        let x = k.frequency;
                        view! {
                            <div class="sub">
                                {k.engine}": "
                                <Fig text=x.value.display_si() source=x.source estimate=x.estimate note=x.note/>
                            </div>
                        }
                    })
                    .collect_view()
                    .into_any()
            }),
        ),
        (
            "Power".into(),
            true,
            Box::new(|c: &Chip| {
                match c.power {
                Some(x) => view! { <Fig text=x.value.display_si() source=x.source estimate=x.estimate note=x.note/> }.into_any(),
                None => na("not published"),
            }
            }),
        ),
        (
            "Ridge point (FLOP per HBM byte)".into(),
            true,
            Box::new(move |c: &Chip| {
                match (c.dense(d), c.ridge(d)) {
                (Some(f), Some(r)) => view! {
                    <Derived
                        text=sig(r.get(), 4)
                        formula=format!("{} dense ÷ HBM bandwidth = {} ÷ {} = {} FLOP/B", d.label(), f, c.hbm_bandwidth.value, sig(r.get(), 4))
                    />
                }
                .into_any(),
                _ => na("—"),
            }
            }),
        ),
        (
            format!("{} per watt", d.label()),
            true,
            Box::new(move |c: &Chip| {
                match (c.dense(d), c.power, c.flops_per_watt(d)) {
                (Some(f), Some(p), Some(e)) => view! {
                    <Derived
                        text=engine::units::si(e.get(), "FLOP/s/W")
                        formula=format!("{} dense ÷ power = {} ÷ {}{}", d.label(), f, p.value, if p.estimate { " (power is an estimate)" } else { "" })
                    />
                }
                .into_any(),
                _ => na("power not published"),
            }
            }),
        ),
        (
            format!("HBM per {} PFLOP/s", d.label()),
            false,
            Box::new(move |c: &Chip| {
                match (c.dense(d), c.bytes_per_flops(d)) {
                (Some(f), Some(b)) => view! {
                    <Derived
                        text=format!("{} GB", sig(b * 1e15 / 1e9, 3))
                        formula=format!("HBM capacity ÷ {} dense = {} ÷ {}, per PFLOP/s", d.label(), c.hbm_capacity.value.display_memory(), f)
                    />
                }
                .into_any(),
                _ => na("—"),
            }
            }),
        ),
        (
            "Time to read all HBM once".into(),
            false,
            Box::new(|c: &Chip| {
                let t = c.hbm_capacity.value / c.hbm_bandwidth.value;
                view! {
                    <Derived
                        text=t.display_si()
                        formula=format!("HBM capacity ÷ bandwidth = {} ÷ {}: the floor of one decode step of a model filling memory", c.hbm_capacity.value.display_memory(), c.hbm_bandwidth.value)
                    />
                }
                .into_any()
            }),
        ),
    ];
    let body = rows
        .into_iter()
        .map(|(label, headline, cell)| {
            let cells = chips
                .iter()
                .map(|c| view! { <td>{cell(c)}</td> })
                .collect_view();
            // An embed shows the headline rows alone.
            view! { <tr class:detail=!headline><th scope="row">{label}</th>{cells}</tr> }
        })
        .collect_view();
    view! {
        <table class="compare" id="chips-table" data-format=d.id()>
            <thead><tr><th scope="col">"Figure"</th>{header}</tr></thead>
            <tbody>{body}</tbody>
        </table>
        <div inner_html=crate::export::table_buttons("chips-table")></div>
    }
    .into_any()
}

/// `up to 4:16 (4:16, 4:12, …)` shortened to `up to 4:16`.
fn short_sparsity(s: &'static str) -> &'static str {
    s.split(" (").next().unwrap_or(s)
}

fn na(why: &'static str) -> AnyView {
    view! { <span class="na">{why}</span> }.into_any()
}

/// Clones a chip into a new, editable custom chip.
#[component]
fn CloneButton(
    /// Id of the chip to clone.
    id: String,
) -> impl IntoView {
    let sc = use_scenario();
    view! {
        <button
            class="small"
            title="Make an editable copy of this chip"
            on:click=move |_| {
                sc.update(|s| {
                    s.add_clone(&id);
                });
            }
        >
            "Clone"
        </button>
    }
}

/// One editor card per custom chip.
#[component]
fn Editors() -> impl IntoView {
    let sc = use_scenario();
    let count = Memo::new(move |_| sc.with(|s| s.custom.len()));
    move || {
        let n = count.get();
        (n > 0).then(|| {
            view! {
                <h2>"Custom chips"</h2>
                <div class="editors">{(0..n).map(|i| view! { <Editor index=i/> }).collect_view()}</div>
            }
        })
    }
}

/// Input unit for an editable field: scale to SI and label.
fn unit(f: Field) -> (f64, &'static str) {
    match f {
        Field::Dense(_) | Field::Sparse(_) => (1e12, "TFLOP/s"),
        Field::HbmCapacity => (1e9, "GB"),
        Field::HbmBandwidth => (1e12, "TB/s"),
        Field::Power => (1.0, "W"),
    }
}

fn field_label(f: Field) -> String {
    match f {
        Field::Dense(d) => format!("{} dense", d.label()),
        Field::Sparse(d) => format!("{} sparse", d.label()),
        Field::HbmCapacity => "HBM capacity".into(),
        Field::HbmBandwidth => "HBM bandwidth".into(),
        Field::Power => "Power".into(),
    }
}

fn current(c: &Chip, f: Field) -> Option<f64> {
    match f {
        Field::Dense(d) => c.dense(d).map(|x| x.get()),
        Field::Sparse(d) => c.sparse(d).map(|x| x.get()),
        Field::HbmCapacity => Some(c.hbm_capacity.value.get()),
        Field::HbmBandwidth => Some(c.hbm_bandwidth.value.get()),
        Field::Power => c.power.map(|p| p.value.get()),
    }
}

/// Edits the name and figures of custom chip `index`.
#[component]
fn Editor(
    /// Position in the scenario's custom list.
    index: usize,
) -> impl IntoView {
    let sc = use_scenario();
    let id = custom_id(index);
    let chip = {
        let id = id.clone();
        Memo::new(move |_| sc.with(|s| s.available_chips().into_iter().find(|c| c.id == id)))
    };
    let error = RwSignal::new(None::<String>);
    let fields = move || {
        let Some(c) = chip.get() else {
            return Vec::new();
        };
        let fmt = sc.with(|s| s.format);
        let mut v = vec![
            Field::Dense(fmt),
            Field::Sparse(fmt),
            Field::HbmCapacity,
            Field::HbmBandwidth,
            Field::Power,
        ];
        for d in c.formats() {
            if d != fmt {
                v.push(Field::Dense(d));
            }
        }
        v
    };
    let head_id = id.clone();
    view! {
        <div class="editor card" data-custom=id>
            {move || chip.get().map(|c| view! {
                <div class="editor-head">
                    <strong>{head_id.clone()}</strong>
                    " — from "{c.based_on.clone().unwrap_or_default()}
                    <button class="small danger" on:click=move |_| sc.update(|s| s.remove_custom(index))>"Delete"</button>
                </div>
            })}
            <label class="field">
                "Name"
                <input
                    type="text"
                    maxlength="60"
                    prop:value=move || chip.get().map(|c| c.name).unwrap_or_default()
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        let v = v.trim();
                        if v.is_empty() {
                            error.set(Some("The name cannot be empty.".into()));
                        } else {
                            error.set(None);
                            sc.update(|s| {
                                if let Some(e) = s.custom.get_mut(index) {
                                    e.name = v.replace('|', "/");
                                }
                            });
                        }
                    }
                />
            </label>
            {move || {
                fields()
                    .into_iter()
                    .map(|f| {
                        let (scale, u) = unit(f);
                        let shown = move || {
                            chip.get()
                                .and_then(|c| current(&c, f))
                                .map(|v| sig(v / scale, 6))
                                .unwrap_or_default()
                        };
                        view! {
                            <label class="field">
                                {field_label(f)}" ("{u}")"
                                <input
                                    type="text"
                                    inputmode="decimal"
                                    data-field=f.id()
                                    prop:value=shown
                                    placeholder="not set"
                                    on:change=move |ev| {
                                        let raw = event_target_value(&ev);
                                        match raw.trim().parse::<f64>() {
                                            Ok(x) if x.is_finite() && x > 0.0 => {
                                                error.set(None);
                                                sc.update(|s| {
                                                    if let Some(e) = s.custom.get_mut(index) {
                                                        e.set(f, x * scale).ok();
                                                    }
                                                });
                                            }
                                            _ => error.set(Some(format!(
                                                "{}: '{}' is not a positive number of {}; the previous value is kept.",
                                                field_label(f), raw, u
                                            ))),
                                        }
                                    }
                                />
                            </label>
                        }
                    })
                    .collect_view()
            }}
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
        </div>
    }
}
