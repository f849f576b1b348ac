//! Compare page: scenarios kept in the browser, up to four side by side with their deltas
//! against the first, and a waterfall of why the second costs what it does against the first.
//! Built as its own module (`app/lazy`), so it adds nothing to the first page.

use std::fmt::Write as _;

use engine::compare::{self, Saved, Waterfall};
use engine::job::Job;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::export::table_buttons;
use crate::held_out::ChipErrors;
use crate::state::use_scenario;
use crate::widgets::escape;

const STORE_KEY: &str = "accelscope.scenarios";
use compare::MAX_COMPARED;

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

/// Adds the Compare page's own stylesheet (once).
pub fn add_style() {
    crate::module::add_style("compare", include_str!("../../../styles/compare.css"));
}

/// The Compare page.
#[component]
pub fn ComparePage() -> impl IntoView {
    let sc = use_scenario();
    let (first, problems) = load();
    // What is compared lives in the scenario, so the page's link carries it; a link that
    // names none shows the first scenarios this browser keeps.
    let from_link = sc.with_untracked(|s| !s.compared.is_empty());
    if !from_link && !first.is_empty() {
        let shown: Vec<Saved> = first.iter().take(MAX_COMPARED).cloned().collect();
        sc.update(|s| s.compared = shown);
    }
    let saved = RwSignal::new(first);
    let notes = RwSignal::new(problems);
    let compared = Memo::new(move |_| sc.with(|s| s.compared.clone()));
    let is_compared = move |x: &Saved| compared.with(|c| c.contains(x));
    let toggle = move |x: Saved| {
        sc.update(|s| {
            if let Some(k) = s.compared.iter().position(|c| *c == x) {
                s.compared.remove(k);
            } else if s.compared.len() < MAX_COMPARED {
                s.compared.push(x);
            }
        });
    };
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
            l.push(entry.clone());
            if let Some(p) = save(l) {
                problems.push(p);
            }
        });
        if problems.is_empty() && !is_compared(&entry) {
            toggle(entry);
        }
        notes.set(problems);
    };
    let save_current = move |_| {
        let mut s = sc.get_untracked();
        s.page = engine::Page::Workload;
        s.compared.clear();
        let n = name.get_untracked();
        let n = if n.trim().is_empty() {
            compare::default_name(&s)
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
            // A Compare link: each scenario it compares.
            Ok(sc) if !sc.compared.is_empty() => {
                for x in sc.compared {
                    keep(x);
                }
                link.set(String::new());
            }
            Ok(_) if entry.query.len() <= compare::MAX_QUERY => {
                keep(entry);
                link.set(String::new());
            }
            Ok(_) => notes.set(vec!["that link is too long to keep".into()]),
            Err(e) => notes.set(vec![format!("that link cannot be read: {e}")]),
        }
    };
    let export_file = move |_| {
        let text = saved.with_untracked(|l| compare::to_json(l));
        crate::export::save_text(&text, "accelscope-scenarios.json", "application/json");
    };
    let import_file = move |ev: web_sys::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        input.set_value("");
        if file.size() > 2.0 * compare::MAX_STORE as f64 {
            notes.set(vec![format!(
                "'{}' is {:.0} KiB, more than a scenario file can be ({} KiB); nothing was imported",
                file.name(),
                file.size() / 1024.0,
                2 * compare::MAX_STORE / 1024
            )]);
            return;
        }
        let name = file.name();
        let done = Closure::once(move |text: JsValue| {
            let text = text.as_string().unwrap_or_default();
            let (entries, mut problems) = read_scenario_file(&text, &name);
            let room = compare::MAX_SAVED.saturating_sub(saved.with_untracked(Vec::len));
            let (new, more) = compare::import(&entries, room);
            problems.extend(more);
            let added = new.len();
            saved.update(|l| {
                l.extend(new);
                if let Some(p) = save(l) {
                    problems.push(p);
                }
            });
            problems.insert(0, format!("{added} scenario(s) imported from '{name}'"));
            notes.set(problems);
        });
        let _ = file.text().then(&done);
        done.forget();
    };
    // The errors on published runs the ranges stand on: worked out in the worker after the
    // table's first paint, once a chip, and the ranges then join the table (as on the
    // Workload page).
    let held_out = crate::held_out::HeldOut::listen();
    // Each scenario's job, evaluated once by its link: the ranges' arrival redraws the table
    // without evaluating the jobs again.
    let evaluated = StoredValue::new(Vec::<(String, Run)>::new());
    // With nothing compared, a worked example stands in until the first scenario is kept.
    let table = Memo::new(move |_| {
        let today = crate::widgets::today();
        let (example, list) = compared.with(|c| {
            (
                c.is_empty(),
                if c.is_empty() {
                    worked_example()
                } else {
                    c.clone()
                },
            )
        });
        let runs = evaluated
            .try_update_value(|cache| {
                let runs: Vec<Run> = list
                    .iter()
                    .map(|s| {
                        cache
                            .iter()
                            .find(|(q, _)| *q == s.query)
                            .map_or_else(|| run(s), |(_, r)| r.clone())
                    })
                    .collect();
                *cache = list
                    .iter()
                    .map(|s| s.query.clone())
                    .zip(runs.iter().cloned())
                    .collect();
                runs
            })
            .unwrap_or_default();
        let errors = |job: &Job| {
            let chip = engine::system::find(&job.system).ok()?.chip;
            held_out.ask(chip);
            held_out.get(chip)?.ok()
        };
        let out = comparison(&list, &runs, &errors, today.as_str());
        if example {
            format!(
                "<p class=\"note\" id=\"compare-example\">A worked example: the default job beside the same job on H100 and GB200 at as many chips. Keep a scenario (or add a link) and your own replace it.</p>{out}"
            )
        } else {
            out
        }
    });
    // Scenarios the link carries that this browser does not keep yet.
    let unkept = move || {
        compared.with(|c| {
            saved.with(|l| {
                c.iter()
                    .filter(|x| !l.contains(x))
                    .cloned()
                    .collect::<Vec<Saved>>()
            })
        })
    };
    let keep_shared = move |_| {
        for x in unkept() {
            keep(x);
        }
    };
    view! {
        <section class="page compare-page answer-first">
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
            <div class="controls files">
                <label class="inline">"Import scenarios (JSON) "
                    <input type="file" name="cimport" accept=".json,application/json" on:change=import_file/>
                </label>
                <button on:click=export_file>"Export kept scenarios (JSON)"</button>
                <button on:click=move |_| { if let Some(w) = web_sys::window() { w.print().ok(); } }>"Print a memo"</button>
            </div>
            {move || {
                let n = notes.get();
                (!n.is_empty()).then(|| view! { <p class="notice" role="status">{n.join("; ")}</p> })
            }}
            {move || {
                let n = unkept().len();
                (n > 0).then(|| view! {
                    <p class="notice shared" id="compare-shared" role="status">
                        {format!("This link compares {n} scenario{} this browser does not keep. ", if n == 1 { "" } else { "s" })}
                        <button class="small" on:click=keep_shared>"Keep them here"</button>
                    </p>
                })
            }}
            <ul class="saved-list">
                {move || {
                    saved
                        .get()
                        .into_iter()
                        .enumerate()
                        .map(|(i, s)| {
                            let (a, b, c) = (s.clone(), s.clone(), s.clone());
                            let on = move || is_compared(&a);
                            view! {
                                <li>
                                    <label class="check">
                                        <input type="checkbox" name="cpin" prop:checked=on on:change=move |_| toggle(b.clone())/>
                                        {s.name.clone()}
                                    </label>
                                    " "<a href=format!("?{}", s.query)>"open"</a>" "
                                    <button class="small danger" on:click=move |_| {
                                        saved.update(|l| { if i < l.len() { l.remove(i); } let _ = save(l); });
                                        sc.update(|s| s.compared.retain(|x| *x != c));
                                    }>"Remove"</button>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
            <div class="compare-out answer" inner_html=table></div>
        </section>
    }
}

/// The default job, then the same job on an H100 and a GB200 system with at least as many
/// chips (as the Workload page's platform table moves it).
fn worked_example() -> Vec<Saved> {
    let base = engine::Scenario {
        page: engine::Page::Workload,
        ..engine::Scenario::default()
    };
    let j = &base.job;
    let mut out = vec![Saved {
        name: compare::default_name(&base),
        query: base.to_query(),
    }];
    for id in ["hgx-h100-8", "gb200-nvl72"] {
        let Some(moved) = j.on_platform(id) else {
            continue;
        };
        let mut s = base.clone();
        s.job = moved;
        out.push(Saved {
            name: compare::default_name(&s),
            query: s.to_query(),
        });
    }
    out
}

/// A compared scenario's job and its report, or `None` when it cannot run.
type Run = Option<(engine::job::Job, engine::job::JobReport)>;

/// Evaluates the job of scenario `s`.
fn run(s: &Saved) -> Run {
    let sc = compare::scenario_of(s).ok()?;
    let r = engine::job::evaluate(&sc.job).ok()?;
    Some((sc.job, r))
}

/// A job's chip's errors on held-out runs, where known.
type ErrorsOf<'a> = dyn Fn(&Job) -> Option<ChipErrors> + 'a;

/// The side-by-side table and, for two or more, the waterfall between the first two, from
/// each scenario of `list` and its evaluated job in `runs`; with a job's chip's errors on
/// held-out runs where known (and today's date, for the price spread), each figure's range as
/// the Workload page gives it.
fn comparison(list: &[Saved], runs: &[Run], errors: &ErrorsOf<'_>, today: &str) -> String {
    if list.is_empty() {
        return "<p>Keep a scenario (or paste a link) and tick it to compare.</p>".into();
    }
    // The table, the waterfalls and the sources all read the same evaluated jobs.
    let cols: Vec<(&str, Option<Vec<compare::Figure>>)> = list
        .iter()
        .zip(runs)
        .map(|(s, r)| {
            (
                s.name.as_str(),
                r.as_ref().map(|(_, r)| compare::headline_of(r)),
            )
        })
        .collect();
    let jobs = runs;
    // A memo's head: what is compared, when, and the answer in a line.
    let mut h = String::from(r#"<header class="memo-head">"#);
    let _ = write!(
        h,
        r#"<h2 id="memo-title">{}</h2><p class="memo-date">Prepared {} with accelscope (link version {}); every figure is the model's, sourced on the Workload page.</p>"#,
        escape(&match cols.len() {
            1 => format!("Training and serving cost: {}", cols[0].0),
            _ => format!(
                "Training and serving cost: {} against {}",
                cols[0].0,
                cols[1..].iter().map(|c| c.0).collect::<Vec<_>>().join(", ")
            ),
        }),
        escape(today),
        engine::scenario::VERSION
    );
    if let (Some(Some((a, ra))), Some(Some((b, rb)))) = (jobs.first(), jobs.get(1)) {
        let _ = write!(
            h,
            r#"<p class="memo-conclusion" id="memo-conclusion">{}</p>"#,
            escape(&conclusion((cols[0].0, a, ra), (cols[1].0, b, rb)))
        );
    }
    h.push_str("</header>");
    h.push_str(
        r#"<div class="table-wrap"><table class="grid" id="compare-table"><thead><tr><th scope="col">figure</th>"#,
    );
    for (name, _) in &cols {
        let _ = write!(h, r#"<th scope="col">{}</th>"#, escape(name));
    }
    h.push_str("</tr></thead><tbody>");
    let ranges: Vec<Option<engine::uncertainty::Ranges>> = jobs
        .iter()
        .map(|j| {
            let (job, r) = j.as_ref()?;
            let (t, s) = errors(job)?;
            let chip = engine::system::find(&job.system).ok()?.chip;
            Some(engine::uncertainty::ranges_with(
                job,
                r,
                chip,
                (&t, &s),
                today,
            ))
        })
        .collect();
    // Each scenario's caveats, once each, for the note under the table.
    let mut caveats: Vec<(usize, String)> = Vec::new();
    // What each scenario is, before what it costs.
    let settings: Vec<Option<Vec<(&str, String)>>> = jobs
        .iter()
        .map(|j| j.as_ref().map(|(job, r)| compare::setting_rows(job, r)))
        .collect();
    let labels = settings
        .iter()
        .flatten()
        .next()
        .map(|s| s.iter().map(|(l, _)| *l).collect::<Vec<_>>())
        .unwrap_or_default();
    for (k, label) in labels.iter().enumerate() {
        let _ = write!(h, r#"<tr class="setting"><th scope="row">{label}</th>"#);
        for s in &settings {
            match s {
                Some(s) => {
                    let _ = write!(h, "<td>{}</td>", escape(&s[k].1));
                }
                None => h.push_str("<td class=\"na\">cannot run</td>"),
            }
        }
        h.push_str("</tr>");
    }
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
            let mut cell = crate::widgets::figure_text(fig);
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
            // The range the Workload page gives, marked as an estimate where its evidence is
            // thin (the note under the table says why).
            if let Some((lo, hi, g)) = ranges[i]
                .as_ref()
                .and_then(|g| engine::compare::headline_range(fig.label, g))
            {
                let text = |v: f64| {
                    crate::widgets::figure_text(&engine::compare::Figure { value: v, ..*fig })
                };
                // The unit once, after the upper end: "range 97.9–113 days".
                let (lo, hi) = (text(lo), text(hi));
                let unit_at = hi
                    .rfind(|c: char| c.is_ascii_digit())
                    .map_or(hi.len(), |k| k + 1);
                let lo = lo
                    .strip_suffix(&hi[unit_at..])
                    .filter(|_| unit_at < hi.len())
                    .unwrap_or(&lo);
                let _ = write!(cell, r#"<span class="range"> range {lo}–{hi}"#);
                if g.evidence.is_thin() {
                    cell.push_str(r#" <span class="badge est" title="the range's evidence is thin: see the note under the table">est</span>"#);
                    if !caveats.iter().any(|(k, b)| *k == i && *b == g.brief) {
                        caveats.push((i, g.brief.clone()));
                    }
                }
                cell.push_str("</span>");
            }
            let _ = write!(h, "<td{class} data-value=\"{}\">{cell}</td>", fig.value);
        }
        h.push_str("</tr>");
    }
    h.push_str("</tbody></table></div>");
    if ranges.iter().any(Option::is_some) {
        h.push_str(r#"<p class="small-note" id="compare-ranges">Ranges: the model's error on published runs it was not fitted to, as on the Workload page (prices' spread included in costs)."#);
        for (i, brief) in &caveats {
            let _ = write!(
                h,
                " <span class=\"badge est\">est</span> {}: {}.",
                escape(cols[*i].0),
                escape(brief)
            );
        }
        h.push_str("</p>");
    }
    h.push_str(&table_buttons("compare-table"));
    match (jobs.first(), jobs.get(1)) {
        (Some(Some((a, ra))), Some(Some((b, rb)))) => {
            h.push_str(r#"<div class="wf-pair">"#);
            for (k, w) in compare::waterfall_of((a, ra), (b, rb)).iter().enumerate() {
                let id = if k == 0 {
                    "waterfall"
                } else {
                    "waterfall-serve"
                };
                h.push_str(&waterfall_html(w, id, cols[0].0, cols[1].0));
            }
            h.push_str("</div>");
        }
        (Some(_), Some(_)) => h.push_str(
            r#"<p class="notice">No waterfall: one of the first two scenarios cannot run.</p>"#,
        ),
        _ => {}
    }
    h.push_str(&sources_html(list, jobs));
    h
}

/// The answer in a line: which of the first two trains the job cheaper per million tokens,
/// by how much and on what prices, and on how many published bases the order holds.
fn conclusion(
    (an, a, ra): (&str, &engine::job::Job, &engine::job::JobReport),
    (bn, b, rb): (&str, &engine::job::Job, &engine::job::JobReport),
) -> String {
    let verdicts = engine::job::basis_verdicts(a, ra, b, rb);
    if let Some(s) = ra
        .price
        .basis
        .and_then(|on| engine::job::verdict_sentence(an, bn, on, &verdicts))
    {
        return s;
    }
    let (x, y) = (ra.train_usd_per_mtok, rb.train_usd_per_mtok);
    if !(x.is_finite() && y.is_finite() && x > 0.0 && y > 0.0) {
        return format!("{an} and {bn} cannot both train this job.");
    }
    let (cheap, dear, lo, hi) = if x <= y {
        (an, bn, x, y)
    } else {
        (bn, an, y, x)
    };
    format!(
        "{cheap} trains this job {:.0}% cheaper than {dear} per million tokens ({} against {}), each at its own price.",
        (1.0 - lo / hi) * 100.0,
        crate::widgets::usd(lo),
        crate::widgets::usd(hi)
    )
}

/// Names and links of a scenario file, or what is wrong with it.
fn read_scenario_file(text: &str, file: &str) -> (Vec<(String, String)>, Vec<String>) {
    let bad = |why: &str| {
        (
            Vec::new(),
            vec![format!("'{file}' is not a scenario file: {why}")],
        )
    };
    let Ok(v) = js_sys::JSON::parse(text) else {
        return bad("it is not JSON");
    };
    let get = |o: &JsValue, k: &str| js_sys::Reflect::get(o, &k.into()).ok();
    if get(&v, "format").and_then(|f| f.as_string()).as_deref() != Some("accelscope-scenarios") {
        return bad("its \"format\" is not \"accelscope-scenarios\"");
    }
    match get(&v, "version").and_then(|x| x.as_f64()) {
        Some(1.0) => {}
        Some(x) => return bad(&format!("version {x} is not one this app reads (1)")),
        None => return bad("it has no \"version\""),
    }
    let Some(list) = get(&v, "scenarios").filter(js_sys::Array::is_array) else {
        return bad("it has no \"scenarios\" list");
    };
    let list: js_sys::Array = list.unchecked_into();
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (i, e) in list.iter().enumerate().take(10 * compare::MAX_SAVED) {
        match (
            get(&e, "name").and_then(|x| x.as_string()),
            get(&e, "link").and_then(|x| x.as_string()),
        ) {
            (Some(n), Some(l)) => out.push((n, l)),
            _ => problems.push(format!(
                "scenario {} has no \"name\" and \"link\" text; skipped",
                i + 1
            )),
        }
    }
    (out, problems)
}

/// A waterfall as a chart (SVG, with its export buttons) and its data table.
fn waterfall_html(w: &Waterfall, id: &str, a: &str, b: &str) -> String {
    let mut rows = Vec::new();
    let mut prev = w.start;
    for s in &w.steps {
        rows.push((s, s.usd_per_mtok - prev));
        prev = s.usd_per_mtok;
    }
    let end = prev;
    let lo = w
        .steps
        .iter()
        .map(|s| s.usd_per_mtok)
        .fold(w.start.min(0.0), f64::min);
    let hi = w
        .steps
        .iter()
        .map(|s| s.usd_per_mtok)
        .fold(w.start, f64::max)
        .max(1e-12);
    // Narrow enough that, half an A4 page wide, its 11-unit labels print at about 6.5 pt.
    let (lw, cw, rh) = (210.0, 150.0, 16.0);
    let n = rows.len() + 2;
    let height = rh * n as f64 + 12.0;
    let x = |v: f64| lw + (v - lo) / (hi - lo) * cw;
    let mut svg = format!(
        r#"<svg class="wfall" id="{id}-chart" viewBox="0 0 {} {height:.0}" role="img" aria-labelledby="{id}-title"><title id="{id}-title">Waterfall of {}: the table below holds its data</title>"#,
        lw + cw + 62.0,
        escape(w.what)
    );
    // A label longer than its column ends in an ellipsis (the table beneath has it whole).
    let fit = |l: &str| {
        let max = 33;
        if l.chars().count() > max {
            format!(
                "{}…",
                l.chars().take(max - 1).collect::<String>().trim_end()
            )
        } else {
            l.to_string()
        }
    };
    let bar = |svg: &mut String,
               i: usize,
               label: &str,
               from: f64,
               to: f64,
               class: &str,
               text: &str| {
        let y = rh * i as f64 + 4.0;
        let (x0, x1) = (x(from.min(to)), x(from.max(to)));
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" class="wl">{}</text><rect x="{x0:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" class="{class}"/><text x="{:.1}" y="{:.1}" class="wv">{}</text>"#,
            lw - 6.0,
            y + rh * 0.66,
            escape(&fit(label)),
            (x1 - x0).max(1.0),
            rh - 5.0,
            x1 + 4.0,
            y + rh * 0.66,
            text
        );
    };
    let short = |l: &str| l.split(" (").next().unwrap_or(l).to_string();
    bar(
        &mut svg,
        0,
        a,
        0.0,
        w.start,
        "total",
        &format!("${}", engine::units::sig(w.start, 4)),
    );
    let mut at = w.start;
    for (i, (s, d)) in rows.iter().enumerate() {
        let class = if *d > 0.0 { "up" } else { "down" };
        bar(
            &mut svg,
            i + 1,
            &short(s.label),
            at,
            at + d,
            class,
            &format!("{d:+.3}"),
        );
        at += d;
    }
    bar(
        &mut svg,
        n - 1,
        b,
        0.0,
        end,
        "total",
        &format!("${}", engine::units::sig(end, 4)),
    );
    svg.push_str("</svg>");
    let mut t = format!(
        r#"<table class="grid waterfall" id="{id}"><thead><tr><th scope="col">step</th><th scope="col">{}</th><th scope="col">{}</th><th scope="col">change, $/Mtok</th><th scope="col">after, $/Mtok</th></tr></thead><tbody><tr><th scope="row">{}</th><td></td><td></td><td></td><td>{}</td></tr>"#,
        escape(a),
        escape(b),
        escape(a),
        engine::units::sig(w.start, 4)
    );
    for (s, d) in &rows {
        let _ = write!(
            t,
            r#"<tr><th scope="row">{}</th><td>{}</td><td>{}</td><td data-delta="{d}">{d:+.4}</td><td>{}</td></tr>"#,
            escape(s.label),
            factor(s.a, s.unit),
            factor(s.b, s.unit),
            engine::units::sig(s.usd_per_mtok, 4)
        );
    }
    let _ = write!(
        t,
        r#"<tr><th scope="row">{}</th><td></td><td></td><td data-total-delta="{}">{:+.4}</td><td>{}</td></tr></tbody></table>"#,
        escape(b),
        end - w.start,
        end - w.start,
        engine::units::sig(end, 4)
    );
    format!(
        r#"<section class="wf-block"><h2>Why “{}” costs what it does against “{}”: {}</h2><p class="lead wf-how">{}. The factors move from the first scenario's value to the second's one at a time, in the order of the rows; each row is what its factor changed, so the rows add up to the whole difference.</p><figure class="chart wf">{svg}<figcaption class="export"><button type="button" class="small" data-svg="{id}-chart">SVG</button><button type="button" class="small" data-png="{id}-chart">PNG</button><button type="button" class="small" data-csv="{id}">CSV</button></figcaption></figure><div class="table-wrap">{t}</div></section>"#,
        escape(b),
        escape(a),
        escape(w.what),
        escape(w.formula)
    )
}

/// The sourced figures each scenario rests on, numbered to a list of sources, and each
/// scenario's link: what a printed memo needs to be checked.
fn sources_html(picked: &[Saved], jobs: &[Run]) -> String {
    let mut cites: Vec<String> = Vec::new();
    let mut cite = |s: engine::Source| -> usize {
        let text = match s {
            engine::Source::Cited { citation: c } => {
                format!(
                    "{} ({}), {}",
                    escape(c.title),
                    escape(c.date),
                    escape(c.url)
                )
            }
            engine::Source::UserEdit => "set by the user".into(),
            engine::Source::Assumption => "an accelscope assumption: no published figure".into(),
        };
        cites.iter().position(|c| *c == text).unwrap_or_else(|| {
            cites.push(text);
            cites.len() - 1
        }) + 1
    };
    let figs: Vec<Option<Vec<compare::KeyFigure>>> = jobs
        .iter()
        .map(|j| {
            j.as_ref()
                .and_then(|(j, r)| compare::key_figures_of(j, r).ok())
        })
        .collect();
    let Some(labels) = figs
        .iter()
        .flatten()
        .next()
        .map(|f| f.iter().map(|k| k.label).collect::<Vec<_>>())
    else {
        return String::new();
    };
    let mut h = String::from(
        r#"<h2>What the figures rest on</h2><div class="table-wrap"><table class="grid" id="compare-sources"><thead><tr><th scope="col">input</th>"#,
    );
    for s in picked {
        let _ = write!(h, r#"<th scope="col">{}</th>"#, escape(&s.name));
    }
    h.push_str("</tr></thead><tbody>");
    for (r, label) in labels.iter().enumerate() {
        let _ = write!(h, r#"<tr><th scope="row">{label}</th>"#);
        for f in &figs {
            match f.as_ref().and_then(|f| f.get(r)) {
                Some(k) => {
                    let n = cite(k.source);
                    let est = if k.estimate {
                        r#" <span class="badge est">est</span>"#
                    } else {
                        ""
                    };
                    let v = if k.unit == "$" {
                        format!("${}", engine::units::sig(k.value, 4))
                    } else if k.unit == "of peak" || k.unit == "hidden" {
                        format!("{}%", engine::units::sig(k.value * 100.0, 3))
                    } else {
                        format!("{} {}", engine::units::sig(k.value, 4), k.unit)
                    };
                    let _ = write!(h, "<td>{v}{est} <sup>[{n}]</sup></td>");
                }
                None => h.push_str("<td class=\"na\">—</td>"),
            }
        }
        h.push_str("</tr>");
    }
    h.push_str("</tbody></table></div>");
    h.push_str(&table_buttons("compare-sources"));
    h.push_str(r#"<ol class="sources small-note">"#);
    for c in &cites {
        let _ = write!(h, "<li>{c}</li>");
    }
    h.push_str("</ol>");
    let base = web_sys::window()
        .and_then(|w| {
            let l = w.location();
            Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))
        })
        .unwrap_or_default();
    h.push_str(r#"<h2 class="links-head">Links</h2><ul class="links small-note">"#);
    for s in picked {
        let _ = write!(
            h,
            "<li>{}: <code>{}?{}</code></li>",
            escape(&s.name),
            escape(&base),
            escape(&s.query)
        );
    }
    h.push_str("</ul>");
    h
}

/// A factor's value in its unit, with an SI prefix where the number is large or small.
fn factor(v: f64, unit: &str) -> String {
    use engine::units::sig;
    match unit {
        "chip·s/token" => format!("{} chip·µs/token", sig(v * 1e6, 4)),
        "of peak" => format!("{}% of peak", sig(v * 100.0, 3)),
        "$/h" => format!("${}/h", sig(v, 4)),
        "×" => format!("{}×", sig(v, 4)),
        _ => engine::units::si(v, unit),
    }
}
