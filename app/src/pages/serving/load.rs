//! Serving under load on the Workload page: the job's replica simulated request by request
//! in a Web Worker (the Kernels page's), with progress and Cancel, then TTFT against offered
//! load on the job's platform and the one compared with.

use std::cell::RefCell;

use engine::job::Job;
use leptos::prelude::*;
use view::protocol::{Reply, Request, ServeRun};
use view::workers::{clear_retired, reply, retire, send, spawn, Live};

use crate::state::use_scenario;
use crate::widgets::escape;

/// The largest trace a page sends to the worker, bytes.
const MAX_TRACE_BYTES: usize = 8_000_000;

thread_local! {
    /// The worker of the simulation running, if any.
    static LIVE: RefCell<Option<Live>> = const { RefCell::new(None) };
}

fn stop() {
    LIVE.with(|l| retire(l.borrow_mut().take()));
}

fn worker_failed(why: &str) {
    web_sys::console::error_1(&why.into());
}

/// The card: traffic, load and duration; Run and Cancel; the worker's result.
#[component]
pub fn LoadSimulation(
    /// The job as set above (its replica, lengths and targets).
    job: Memo<Job>,
) -> impl IntoView {
    let sc = use_scenario();
    // The simulation's settings are the job's (`wsrate`, `wstraffic`, `wsdur`, `wspc`,
    // `wseng`, `wsvary`): they
    // travel in the link.
    let rate = move || job.with(|j| j.sim_rate);
    let stage = RwSignal::new(String::new());
    let html = RwSignal::new(String::new());
    let running = RwSignal::new(false);
    let bad = RwSignal::new(None::<String>);
    // A pasted trace, used in place of the traffic when it holds anything (kept in the page,
    // not the link: a trace may run to megabytes).
    let trace = RwSignal::new(String::new());
    on_cleanup(stop);
    let run = move |_| {
        clear_retired();
        stop();
        let (r, traffic, duration, prefix) = job.with_untracked(|j| {
            (
                j.sim_rate,
                j.sim_traffic.clone(),
                j.sim_duration_s,
                j.sim_prefix_cache,
            )
        });
        if !(r > 0.0 && r * duration <= engine::servesim::MAX_REQUESTS) {
            bad.set(Some(format!(
                "the rate must be positive and at most {} requests in all",
                engine::servesim::MAX_REQUESTS
            )));
            return;
        }
        let pasted = trace.get_untracked();
        if pasted.len() > MAX_TRACE_BYTES {
            bad.set(Some(format!(
                "a pasted trace holds at most {} MB",
                MAX_TRACE_BYTES / 1_000_000
            )));
            return;
        }
        if !pasted.trim().is_empty() {
            if let Err(e) = engine::servesim::Traffic::parse_trace(&pasted) {
                bad.set(Some(e));
                return;
            }
        }
        bad.set(None);
        let req = Request::Serve(ServeRun {
            rate: r,
            traffic,
            duration_s: duration,
            seed: 1,
            prefix_cache: prefix,
            query: sc.with_untracked(engine::Scenario::to_query),
            trace: pasted,
        });
        let on_msg = move |e: web_sys::MessageEvent| match reply(&e) {
            Some(Ok(Reply::Ready)) => LIVE.with(|l| {
                if let Some(l) = l.borrow().as_ref() {
                    send(l, &req);
                }
            }),
            Some(Ok(Reply::Stage(s))) if s == "done" => {
                stage.set(String::new());
                running.set(false);
                stop();
            }
            Some(Ok(Reply::Stage(s))) => stage.set(s),
            Some(Ok(Reply::Result(h))) => html.set(h),
            Some(Ok(Reply::Error(e))) => html.set(format!(
                "<p class=\"error\" role=\"alert\">{}</p>",
                escape(&e)
            )),
            _ => {}
        };
        match spawn(on_msg, worker_failed) {
            Ok(l) => {
                LIVE.with(|x| *x.borrow_mut() = Some(l));
                running.set(true);
                stage.set("starting the worker…".into());
            }
            Err(e) => bad.set(Some(e)),
        }
    };
    let cancel = move |_| {
        stop();
        running.set(false);
        stage.set("cancelled".into());
    };
    let (lo, hi) = engine::scenario::keys::range("wsrate").unwrap_or((0.001, 1e4));
    let set_rate = move |ev: leptos::ev::Event| match event_target_value(&ev).trim().parse::<f64>()
    {
        Ok(x) if x.is_finite() && (lo..=hi).contains(&x) => {
            sc.update(|s| s.job.sim_rate = x);
            bad.set(None);
        }
        _ => bad.set(Some(format!(
            "requests per second: a number from {lo} to {hi}"
        ))),
    };
    // Host memory for evicted KV blocks and its bandwidth, each within its key's range.
    let set_host = move |key: &'static str| {
        move |ev: leptos::ev::Event| {
            let (lo, hi) = engine::scenario::keys::range(key).unwrap_or((0.0, 0.0));
            match event_target_value(&ev).trim().parse::<f64>() {
                Ok(x) if x.is_finite() && (lo..=hi).contains(&x) => {
                    sc.update(|s| {
                        if key == "wshkv" {
                            s.job.sim_host_kv_gb = x;
                        } else {
                            s.job.sim_host_bw_gbps = x;
                        }
                    });
                    bad.set(None);
                }
                _ => bad.set(Some(format!(
                    "{}: a number from {lo} to {hi}",
                    engine::scenario::keys::find(key).map_or(key, |k| k.what)
                ))),
            }
        }
    };
    let set_duration = move |ev: leptos::ev::Event| {
        if let Ok(x) = event_target_value(&ev).parse() {
            sc.update(|s| s.job.sim_duration_s = x);
        }
    };
    let system = move || {
        job.with(|j| {
            engine::system::find(&j.system)
                .map_or_else(|_| j.system.clone(), |s| s.name.to_string())
        })
    };
    view! {
        <div class="card" id="serving-load">
            <h2>"Under load, request by request"</h2>
            <p class="small-note">
                {move || format!("One replica of {} serving the prompt and output above, simulated request by request in the background: arrivals, continuous batching ({} sequences at most, 8,192 tokens a step), the KV cache in blocks with preemption, and a prefix cache that keeps a session's context for its next turn. Each step costs what the analytic model says of its parts, and the engine adds its own time a step and its way of fitting prompts in (ideal adds nothing, so at low load the two agree); under load the queue decides. On Trainium every decode step runs the graph compiled for those sequences and each prompt is prefilled alone in its bucket, as Neuron runs them. With lengths varying, each request draws its prompt and output about the lengths above, as a dataset's do. The targets are the TTFT and TPOT above. This engine: {}.", system(), job.with(|j| j.batch), job.with(|j| engine::servesim::engines::find(&j.sim_engine).map_or("", |e| e.basis)))}
            </p>
            <div class="controls">
                <label class="inline">"Traffic "
                    <select name="sim-traffic" on:change=move |ev| { let v = event_target_value(&ev); sc.update(|s| s.job.sim_traffic = v); }>
                        {engine::servesim::Traffic::IDS.iter().map(|id| view! { <option value=*id selected=move || job.with(|j| j.sim_traffic == *id)>{*id}</option> }).collect_view()}
                    </select>
                </label>
                <label class="inline">"Requests/s "
                    <input type="text" inputmode="decimal" name="sim-rate" size="6" prop:value=move || rate().to_string()
                        on:change=set_rate/>
                </label>
                <label class="inline">"Over "
                    <select name="sim-duration" on:change=set_duration>
                        {[(60.0, "1 minute"), (600.0, "10 minutes"), (3600.0, "1 hour")].map(|(v, label)| view! {
                            <option value=v.to_string() selected=move || job.with(|j| j.sim_duration_s == v)>{label}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label class="inline">"Engine "
                    <select name="sim-engine" on:change=move |ev| { let v = event_target_value(&ev); sc.update(|s| s.job.sim_engine = v); }>
                        {engine::servesim::engines::ENGINES.iter().map(|e| view! { <option value=e.id title=e.basis selected=move || job.with(|j| j.sim_engine == e.id)>{e.name}</option> }).collect_view()}
                    </select>
                </label>
                <label class="inline" title="KV blocks evicted from HBM (a session's context between turns) go to host memory and are reloaded at its bandwidth; 0: none">"Host KV, GB "
                    <input type="text" inputmode="decimal" name="sim-host-kv" size="5" prop:value=move || job.with(|j| j.sim_host_kv_gb.to_string())
                        on:change=set_host("wshkv")/>
                </label>
                <label class="inline">"at GB/s "
                    <input type="text" inputmode="decimal" name="sim-host-bw" size="4" prop:value=move || job.with(|j| j.sim_host_bw_gbps.to_string())
                        on:change=set_host("wshbw")/>
                </label>
                <label class="check"><input type="checkbox" name="sim-vary" prop:checked=move || job.with(|j| j.sim_vary) on:change=move |ev| { let on = event_target_checked(&ev); sc.update(|s| s.job.sim_vary = on); }/>"lengths vary"</label>
                <label class="check"><input type="checkbox" name="sim-prefix" prop:checked=move || job.with(|j| j.sim_prefix_cache) on:change=move |ev| { let on = event_target_checked(&ev); sc.update(|s| s.job.sim_prefix_cache = on); }/>"prefix cache"</label>
                <button type="button" id="sim-run" on:click=run disabled=move || running.get()>"Simulate"</button>
                <button type="button" id="sim-cancel" class="small" on:click=cancel disabled=move || !running.get()>"Cancel"</button>
            </div>
            <details class="sim-trace">
                <summary>{move || if trace.with(|t| t.trim().is_empty()) { "Paste a trace instead".to_string() } else { format!("A pasted trace of {} lines is used in place of the traffic", trace.with(|t| t.lines().filter(|l| !l.trim().is_empty()).count())) }}</summary>
                <label class="small-note" for="sim-trace-text">"One request a line: arrival_s,prompt,output (a header line and # comments are skipped). Empty: the traffic above."</label>
                <textarea id="sim-trace-text" name="sim-trace" rows="5" cols="40" placeholder="arrival_s,prompt,output"
                    prop:value=move || trace.get() on:input=move |ev| trace.set(event_target_value(&ev))></textarea>
            </details>
            {move || bad.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <p class="small-note" id="sim-stage" role="status">{move || stage.get()}</p>
            <div id="sim-output" inner_html=move || html.get()></div>
        </div>
    }
}
