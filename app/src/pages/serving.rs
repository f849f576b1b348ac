//! Serving against targets, on the Workload & TCO page: the throughput-versus-interactivity
//! curve of the job's model on several platforms (per chip or per dollar), the TTFT and TPOT
//! targets, and the cheapest configuration that meets them on each platform. The page holds
//! the controls; the answer, the chart and its tables are worked out and drawn in the worker
//! (`view::serving`).

use engine::job::Job;
use engine::units::sig;
use engine::Dtype;
use leptos::prelude::*;

use crate::state::use_scenario;

mod api;
mod load;
use crate::widgets::Derived;
pub use api::ApiBeside;

/// Serving against targets: the curve on several platforms, the targets and the cheapest
/// configuration meeting them.
#[component]
pub fn ServingCurves(
    /// The job as set above.
    job: Memo<Job>,
) -> impl IntoView {
    let sc = use_scenario();
    // The answer, the chart and its tables are worked out and drawn in the worker.
    let drawn = crate::background::drawn(view::protocol::View::Serving);
    let error = RwSignal::new(None::<String>);
    let target = move |label: &'static str,
                       key: &'static str,
                       get: fn(&Job) -> f64,
                       set: fn(&mut Job, f64)| {
        let (lo, hi) = engine::job::range(key).unwrap_or((0.0, 0.0));
        view! {
            <label class="inline">{label}
                <input type="text" inputmode="decimal" name=key size="6"
                    prop:value=move || sig(sc.with(|s| get(&s.job)) * 1e3, 6)
                    on:change=move |ev| {
                        let raw = event_target_value(&ev);
                        match raw.trim().parse::<f64>() {
                            Ok(x) if x.is_finite() && x / 1e3 >= lo && x / 1e3 <= hi => {
                                error.set(None);
                                sc.update(|s| set(&mut s.job, x / 1e3));
                            }
                            _ => error.set(Some(format!(
                                "{label}: '{raw}' is not a number of milliseconds from {} to {}; the previous target is kept.",
                                sig(lo * 1e3, 3), sig(hi * 1e3, 3)
                            ))),
                        }
                    }/>
                " ms"
            </label>
        }
    };
    let format_pick = move |label: &'static str,
                            key: &'static str,
                            get: fn(&Job) -> Option<Dtype>,
                            set: fn(&mut Job, Option<Dtype>)| {
        let opts = [Dtype::Bf16, Dtype::Fp8, Dtype::Fp4]
            .into_iter()
            .map(|d| view! { <option value=d.id() selected=move || sc.with(|s| get(&s.job) == Some(d))>{d.to_string()}</option> })
            .collect_view();
        view! {
            <label class="inline">{label}
                <select name=key on:change=move |ev| {
                    let v = event_target_value(&ev);
                    sc.update(|s| set(&mut s.job, v.parse().ok()));
                }>
                    <option value="" selected=move || sc.with(|s| get(&s.job).is_none())>"as computed"</option>
                    {opts}
                </select>
            </label>
        }
    };
    let number = move |label: &'static str,
                       key: &'static str,
                       get: fn(&Job) -> f64,
                       set: fn(&mut Job, f64),
                       lo: f64,
                       hi: f64| {
        view! {
            <label class="inline">{label}
                <input type="text" inputmode="decimal" name=key size="4"
                    prop:value=move || sig(sc.with(|s| get(&s.job)), 4)
                    on:change=move |ev| {
                        let raw = event_target_value(&ev);
                        match raw.trim().parse::<f64>() {
                            Ok(x) if x.is_finite() && x >= lo && x <= hi => {
                                error.set(None);
                                sc.update(|s| set(&mut s.job, x));
                            }
                            _ => error.set(Some(format!(
                                "{}: '{raw}' is not a number from {lo} to {hi}; the previous value is kept.",
                                label.trim()
                            ))),
                        }
                    }/>
            </label>
        }
    };
    // A serving layout degree: empty for the search's choice.
    let degree = move |label: &'static str,
                       key: &'static str,
                       get: fn(&Job) -> Option<u32>,
                       set: fn(&mut Job, Option<u32>)| {
        let hi = engine::keys::MAX_SERVE_DEGREE;
        view! {
            <label class="inline">{label}
                <input type="text" inputmode="numeric" name=key size="3" placeholder="auto"
                    prop:value=move || sc.with(|s| get(&s.job).map_or(String::new(), |n| n.to_string()))
                    on:change=move |ev| {
                        let raw = event_target_value(&ev);
                        match raw.trim() {
                            "" => {
                                error.set(None);
                                sc.update(|s| set(&mut s.job, None));
                            }
                            t => match t.parse::<u32>() {
                                Ok(n) if (1..=hi).contains(&n) => {
                                    error.set(None);
                                    sc.update(|s| set(&mut s.job, Some(n)));
                                }
                                _ => error.set(Some(format!(
                                    "{}: '{raw}' is not a whole number from 1 to {hi} (or empty, for the search's choice); the previous value is kept.",
                                    label.trim()
                                ))),
                            },
                        }
                    }/>
            </label>
        }
    };
    let boxes = engine::system::presets()
        .into_iter()
        .map(|sys| {
            let id = sys.id;
            view! {
                <label class="check">
                    <input type="checkbox" name="wcurve" value=id
                        prop:checked=move || sc.with(|s| s.job.system == id || s.job.curve_systems.iter().any(|x| x == id))
                        prop:disabled=move || sc.with(|s| s.job.system == id)
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            sc.update(|s| {
                                let list = &mut s.job.curve_systems;
                                list.retain(|x| x != id);
                                if on && list.len() < engine::scenario::MAX_CURVES {
                                    list.push(id.to_string());
                                }
                            });
                        }/>
                    {sys.name}
                </label>
            }
        })
        .collect_view();
    let body = move || {
        match drawn.value.get() {
        Some(html) => view! { <div class="deferred" class:updating=move || drawn.updating.get() inner_html=html></div> }.into_any(),
        None => view! { <p class="small-note" id="serving-pending">"Working out the curves…"</p> }.into_any(),
    }
    };
    let disagg = view! { <DisaggCard/> <load::LoadSimulation job=job/> };
    view! {
        <div class="card serving-card" id="serving-curves">
            <h2>"Serving against targets"</h2>
            <p class="small-note">
                "Each point is one configuration of a replica: its chips (tensor parallel; a mixture of experts spreads its experts over the same chips, expert parallel, exchanging tokens by all-to-all and streaming only the experts a step's tokens touch) and the sequences it serves at once, for the prompt and output lengths above. "
                "A user waits for the first token "<Derived text="TTFT".to_string() formula="prefill of the batch ÷ sequences + one decode step: its own prompt, then the step it joins".to_string()/>
                " and then a token every "<Derived text="TPOT".to_string() formula="prefill of the batch ÷ output tokens + one decode step: continuous batching slips each new prompt in between steps".to_string()/>
                ". The TPOT target is held at the "<Derived text="99th percentile".to_string() formula="requests arrive at random, so the sequences a replica holds vary: an M/G/∞ occupancy is Poisson, and its 99th percentile is about B + 2.326·√B; TPOT is evaluated there, with the extra sequences' KV caches in memory (as MLPerf's Server scenario holds it)".to_string()/>
                ", the TTFT target on average. Lines join the points no other beats on both axes; a ring marks each platform's cheapest point meeting both targets, the larger ring the cheapest of all. Queueing is not modelled: the points hold below saturation."
            </p>
            <div class="controls">
                {target("TTFT ≤ ", "wttft", |j| j.ttft_s, |j, x| j.ttft_s = x)}
                {target(" TPOT ≤ ", "wtpot", |j| j.tpot_s, |j, x| j.tpot_s = x)}
                <label class="inline">" Plot "
                    <select name="wcy" on:change=move |ev| { let v = event_target_value(&ev); sc.update(|s| s.job.curve_per_usd = v == "usd"); }>
                        <option value="chip" selected=move || sc.with(|s| !s.job.curve_per_usd)>"per chip"</option>
                        <option value="usd" selected=move || sc.with(|s| s.job.curve_per_usd)>"per dollar"</option>
                    </select>
                </label>
            </div>
            <div class="controls" id="serving-options">
                {format_pick("Weights ", "wwt", |j| j.weight_dtype, |j, d| j.weight_dtype = d)}
                {format_pick(" KV cache ", "wkv", |j| j.kv_dtype, |j, d| j.kv_dtype = d)}
                {number(" Drafted tokens ", "wdraft", |j| f64::from(j.draft_tokens), |j, x| j.draft_tokens = x.round() as u32, 0.0, f64::from(engine::workload::MAX_DRAFT))}
                {number(" each accepted with probability ", "wacc", |j| j.acceptance, |j, x| j.acceptance = x, 0.0, 0.99)}
                {number(" Prefix-cache hits ", "wprefix", |j| j.prefix_hit, |j, x| j.prefix_hit = x, 0.0, 0.99)}
                {degree(" Attention data-parallel ", "wadp", |j| j.attn_dp, |j, x| j.attn_dp = x)}
                {degree(" × expert-parallel ", "wep", |j| j.ep, |j, x| j.ep = x)}
            </div>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <details class="platform-picks">
                <summary>{move || format!("Platforms drawn ({})", sc.with(|s| engine::serving::platforms(&s.job).len()))}</summary>
                <div class="checks">{boxes}</div>
            </details>
            {body}
        </div>
        {disagg}
    }
}

/// Disaggregated prefill and decode: the two pools' platforms, the cheapest split meeting
/// the targets, the KV cache's trip, and what co-location costs on the decode platform.
#[component]
fn DisaggCard() -> impl IntoView {
    let sc = use_scenario();
    // A search over splits: worked out and drawn in the worker.
    let data = crate::background::drawn(view::protocol::View::Disagg);
    let pick = move |label: &'static str,
                     key: &'static str,
                     get: fn(&Job) -> String,
                     set: fn(&mut Job, String)| {
        let opts = engine::system::presets()
            .into_iter()
            .map(|sys| {
                let id = sys.id;
                view! { <option value=id selected=move || sc.with(|s| get(&s.job) == id)>{sys.name}</option> }
            })
            .collect_view();
        view! {
            <label class="inline">{label}
                <select name=key on:change=move |ev| { let v = event_target_value(&ev); sc.update(|s| set(&mut s.job, v)); }>
                    <option value="" selected=move || sc.with(|s| get(&s.job).is_empty())>"the job's own"</option>
                    {opts}
                </select>
            </label>
        }
    };
    let body = move || match data.value.get() {
        Some(html) => view! { <div inner_html=html></div> }.into_any(),
        None => view! { <p class="na" id="disagg-pending">"Working out the cheapest split…"</p> }
            .into_any(),
    };
    view! {
        <div class="card disagg-card" id="disagg">
            <h2>"Disaggregated prefill and decode"</h2>
            <p class="small-note">
                "Prompts prefill on one pool; their KV caches move to another that only decodes, so no prompt slows a decode step. Each pool takes its own chips per replica, batch and platform; the cheapest split meeting the targets above is shown, with the ratio of the pools that keeps both busy. The transfer is counted whole, not overlapped with the prefill."
            </p>
            <div class="controls">
                {pick("Prefill on ", "wpsys", |j| j.prefill_system.clone(), |j, v| j.prefill_system = v)}
                {pick(" decode on ", "wdsys", |j| j.decode_system.clone(), |j, v| j.decode_system = v)}
            </div>
            <div class="deferred" class:updating=move || data.updating.get()>{body}</div>
        </div>
    }
}
