//! Compare page: scenarios kept in the browser, up to four side by side with their deltas
//! against the first, and a waterfall of why the second costs what it does against the first.
//! Built as its own module (`app/lazy`), so it adds nothing to the first page.

use std::fmt::Write as _;

use engine::compare::{self, Saved, WATERFALL_ORDER};
use leptos::prelude::*;

use crate::state::use_scenario;
use crate::widgets::escape;

const STORE_KEY: &str = "accelscope.scenarios";
/// Scenarios compared at once.
const MAX_COMPARED: usize = 4;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// The kept scenarios and what could not be read of the store.
fn load() -> (Vec<Saved>, Vec<String>) {
    let Some(s) = storage() else {
        return (
            Vec::new(),
            vec![
                "this browser keeps no local storage for this page; scenarios last until it closes"
                    .into(),
            ],
        );
    };
    match s.get_item(STORE_KEY) {
        Ok(Some(text)) => compare::parse_store(&text),
        Ok(None) => (Vec::new(), Vec::new()),
        Err(_) => (
            Vec::new(),
            vec!["the saved scenarios could not be read".into()],
        ),
    }
}

fn save(list: &[Saved]) -> Option<String> {
    let s = storage()?;
    s.set_item(STORE_KEY, &compare::store_text(list))
        .err()
        .map(|_| "the browser refused to keep the scenarios (storage full or disabled)".into())
}

/// The Compare page.
#[component]
pub fn ComparePage() -> impl IntoView {
    let sc = use_scenario();
    let (first, problems) = load();
    let saved = RwSignal::new(first);
    let notes = RwSignal::new(problems);
    let chosen = RwSignal::new(
        (0..saved.with_untracked(Vec::len).min(MAX_COMPARED)).collect::<Vec<usize>>(),
    );
    let name = RwSignal::new(String::new());
    let link = RwSignal::new(String::new());
    let keep = move |entry: Saved| {
        let mut problems = Vec::new();
        saved.update(|l| {
            if l.len() >= compare::MAX_SAVED {
                problems.push(format!(
                    "{} scenarios are kept at most; remove one first",
                    compare::MAX_SAVED
                ));
                return;
            }
            l.push(entry);
            if let Some(p) = save(l) {
                problems.push(p);
            }
            let i = l.len() - 1;
            chosen.update(|c| {
                if c.len() < MAX_COMPARED {
                    c.push(i);
                }
            });
        });
        notes.set(problems);
    };
    let save_current = move |_| {
        let mut s = sc.get_untracked();
        s.page = engine::Page::Workload;
        let n = name.get_untracked();
        let n = if n.trim().is_empty() {
            format!("{} × {} · {}", s.job.system, s.job.nodes, s.job.model)
        } else {
            n.trim().chars().take(compare::MAX_NAME).collect()
        };
        keep(Saved {
            name: n,
            query: s.to_query(),
        });
        name.set(String::new());
    };
    let add_link = move |_| {
        let l = link.get_untracked();
        let query = l
            .split_once('?')
            .map_or(l.as_str(), |(_, q)| q)
            .trim()
            .to_string();
        let entry = Saved {
            name: format!("link {}", saved.with_untracked(Vec::len) + 1),
            query,
        };
        match compare::scenario_of(&entry) {
            Ok(_) if entry.query.len() <= compare::MAX_QUERY => {
                keep(entry);
                link.set(String::new());
            }
            Ok(_) => notes.set(vec!["that link is too long to keep".into()]),
            Err(e) => notes.set(vec![format!("that link cannot be read: {e}")]),
        }
    };
    let table = Memo::new(move |_| saved.with(|l| chosen.with(|c| comparison(l, c))));
    view! {
        <section class="page compare-page">
            <h1>"Compare"</h1>
            <p class="lead">
                "Keep scenarios in this browser, put up to four side by side, and see why one costs what it does against another. Each scenario is its link: the job, its system and every price assumption."
            </p>
            <div class="controls">
                <label class="inline grow">"Name "
                    <input type="text" name="cname" placeholder="e.g. Trn2 at $4/h" prop:value=name on:input=move |e| name.set(event_target_value(&e))/>
                </label>
                <button on:click=save_current>"Keep the current scenario"</button>
                <label class="inline grow">"Link "
                    <input type="text" name="clink" placeholder="paste a link" prop:value=link on:input=move |e| link.set(event_target_value(&e))/>
                </label>
                <button on:click=add_link>"Add"</button>
            </div>
            {move || {
                let n = notes.get();
                (!n.is_empty()).then(|| view! { <p class="notice" role="status">{n.join("; ")}</p> })
            }}
            <ul class="saved-list">
                {move || {
                    saved
                        .get()
                        .into_iter()
                        .enumerate()
                        .map(|(i, s)| {
                            let on = move || chosen.with(|c| c.contains(&i));
                            view! {
                                <li>
                                    <label class="check">
                                        <input type="checkbox" name="cpin" prop:checked=on on:change=move |_| chosen.update(|c| {
                                            if let Some(k) = c.iter().position(|x| *x == i) { c.remove(k); } else if c.len() < MAX_COMPARED { c.push(i); }
                                        })/>
                                        {s.name.clone()}
                                    </label>
                                    " "<a href=format!("?{}", s.query)>"open"</a>" "
                                    <button class="small danger" on:click=move |_| {
                                        saved.update(|l| { if i < l.len() { l.remove(i); } let _ = save(l); });
                                        chosen.update(|c| { c.retain(|x| *x != i); for x in c.iter_mut() { if *x > i { *x -= 1; } } });
                                    }>"Remove"</button>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
            <div class="table-wrap" inner_html=table></div>
        </section>
    }
}

/// The side-by-side table and, for two or more, the waterfall between the first two.
fn comparison(list: &[Saved], chosen: &[usize]) -> String {
    let picked: Vec<&Saved> = chosen.iter().filter_map(|i| list.get(*i)).collect();
    if picked.is_empty() {
        return "<p>Keep a scenario (or paste a link) and tick it to compare.</p>".into();
    }
    let mut cols = Vec::new();
    let mut jobs = Vec::new();
    for s in &picked {
        match compare::scenario_of(s).and_then(|sc| compare::headline(&sc.job).map(|f| (sc.job, f)))
        {
            Ok((job, f)) => {
                cols.push((s.name.as_str(), Some(f)));
                jobs.push(Some(job));
            }
            Err(e) => {
                cols.push((s.name.as_str(), None));
                jobs.push(None);
                let _ = e;
            }
        }
    }
    let mut h =
        String::from(r#"<table class="grid" id="compare-table"><thead><tr><th>figure</th>"#);
    for (name, _) in &cols {
        let _ = write!(h, "<th>{}</th>", escape(name));
    }
    h.push_str("</tr></thead><tbody>");
    let rows = cols
        .iter()
        .find_map(|(_, f)| f.as_ref().map(Vec::len))
        .unwrap_or(0);
    for r in 0..rows {
        let label = cols
            .iter()
            .find_map(|(_, f)| f.as_ref().map(|f| f[r].label))
            .unwrap_or("");
        let _ = write!(h, "<tr><th scope=\"row\">{label}</th>");
        let base = cols[0].1.as_ref().map(|f| f[r].value);
        for (i, (_, f)) in cols.iter().enumerate() {
            let Some(f) = f else {
                h.push_str("<td class=\"na\">cannot run</td>");
                continue;
            };
            let fig = &f[r];
            let mut cell = engine::units::sig(fig.value, 4);
            let mut class = "";
            if let (Some(b), true) = (base, i > 0) {
                if b.is_finite() && fig.value.is_finite() && b != 0.0 {
                    let d = fig.value / b - 1.0;
                    let better = (d > 0.0) == fig.higher_is_better;
                    // More or fewer chips is neither better nor worse in itself.
                    if d.abs() > 0.005 && r > 0 {
                        class = if better {
                            " class=\"better\""
                        } else {
                            " class=\"worse\""
                        };
                    }
                    let _ = write!(cell, " <small>({:+.1}%)</small>", d * 100.0);
                }
            }
            let _ = write!(h, "<td{class} data-value=\"{}\">{cell}</td>", fig.value);
        }
        h.push_str("</tr>");
    }
    h.push_str("</tbody></table>");
    if let (Some(Some(a)), Some(Some(b))) = (jobs.first(), jobs.get(1)) {
        let (start, steps) = compare::waterfall(a, b);
        let _ = write!(
            h,
            r#"<h2>Why “{}” costs what it does against “{}”</h2><p class="lead">Training $ per million tokens. Inputs move from the first scenario's values to the second's one group at a time, in this fixed order: {}. Each row is what that group changed; the rows add up to the whole difference.</p><table class="grid waterfall" id="waterfall"><tbody><tr><th scope="row">{}</th><td>{}</td><td></td></tr>"#,
            escape(cols[1].0),
            escape(cols[0].0),
            WATERFALL_ORDER.join(", then "),
            escape(cols[0].0),
            engine::units::sig(start, 4)
        );
        let mut prev = start;
        let span = steps
            .iter()
            .map(|s| (s.usd_per_mtok - start).abs())
            .fold(start.abs(), f64::max)
            .max(1e-12);
        for s in &steps {
            let d = s.usd_per_mtok - prev;
            let width = (d.abs() / span * 100.0).clamp(0.0, 100.0);
            let class = if d > 0.0 { "up" } else { "down" };
            let _ = write!(
                h,
                r#"<tr><th scope="row">{}</th><td data-delta="{d}">{:+.4}</td><td class="wbar"><span class="{class}" style="width:{width:.1}%"></span></td></tr>"#,
                escape(s.label),
                d
            );
            prev = s.usd_per_mtok;
        }
        let _ = write!(
            h,
            r#"<tr><th scope="row">{}</th><td>{}</td><td></td></tr></tbody></table>"#,
            escape(cols[1].0),
            engine::units::sig(prev, 4)
        );
    }
    h
}
