//! Workload & TCO page: one job (train a model on a system at a price), its results with
//! their formulas, the owned-cost breakdown and a tornado of the assumptions.

use engine::job::{evaluate_searched, search, search_inputs, Job};
use engine::units::sig;
use engine::{system, workload, Dtype};
use leptos::prelude::*;

use crate::defer::Later;
use crate::state::use_scenario;
use crate::widgets::{chart_data, thousands, Derived, Fig};

// Today (`crate::widgets::today`) is the day the page reads its figures on: a price older
// than six months on it is part of the ranges.
use crate::widgets::today;

mod analysis;
mod evidence;
mod inputs;
mod search;
use analysis::*;
use evidence::*;
use inputs::*;
use search::*;

/// The scenario's job, and its report (the layout searched again only when what the search
/// depends on changes).
fn job_and_report() -> (Memo<Job>, Memo<Result<engine::job::JobReport, String>>) {
    let sc = use_scenario();
    let job = Memo::new(move |_| sc.with(|s| s.job.clone()));
    // The layout search runs again only when what it depends on changes: a price, the tokens,
    // ownership, failures or serving reuse the last search.
    let searched = Memo::new(move |_| job.with(|j| search_inputs(j).map_err(|e| e.to_string())));
    let train = Memo::new(move |_| {
        searched.with(|i| {
            i.as_ref()
                .map_err(Clone::clone)
                .and_then(|i| search(i).map_err(|e| e.to_string()))
        })
    });
    let report = Memo::new(move |_| {
        let t = train.get()?;
        job.with(|j| evaluate_searched(j, t))
            .map_err(|e| e.to_string())
    });
    (job, report)
}

/// Adds the Workload page's own stylesheet (once).
pub fn add_style() {
    crate::module::add_style("workload", include_str!("../../../styles/workload.css"));
}

#[component]
pub fn WorkloadPage() -> impl IntoView {
    let sc = use_scenario();
    let (job, report) = job_and_report();
    // Whether the page is an embed (which shows the answer alone), apart from the rest of the
    // scenario: the views below the answer mount once, not again at each input.
    let embed = Memo::new(move |_| sc.with(|s| s.embed));
    // The ranges' errors depend on the chip alone: worked out in the worker, once a chip.
    let held_out = crate::held_out::HeldOut::listen();
    let today = StoredValue::new(today());
    // The verdict on every price basis against the compared platform: worked out in the
    // worker after the cards paint.
    let verdict = crate::background::derived(view::protocol::Request::Verdict, |r| match r {
        view::protocol::Reply::Verdict { query, sentence } => Some((
            query.as_str(),
            (!sentence.is_empty()).then(|| sentence.clone()),
        )),
        _ => None,
    });
    // The job in a line: the folded inputs' summary on a phone, and an embed's caption.
    let job_line = Signal::derive(move || {
        job.with(|j| {
            let sys =
                system::find(&j.system).map_or_else(|_| j.system.clone(), |s| s.name.to_string());
            let model = workload::find_model(&j.model)
                .map_or_else(|_| j.model.clone(), |m| m.name.to_string());
            format!(
                "{sys} × {} · {model} · {} · {} tokens",
                j.nodes,
                j.dtype.label(),
                engine::units::si(j.tokens, "").replace(' ', "")
            )
        })
    });
    view! {
        <section class="page workload-page answer-first">
            <h1>"Workload & TCO"</h1>
            <p class="embed-caption" id="embed-caption">{job_line}</p>
            <p class="lead">
                "Train a model on a system: the fastest parallel layout that fits, time to train, and what it costs rented or owned. "
                "Every result shows its formula on hover; prices without a published source are marked as assumptions."
            </p>
            <crate::widgets::InputsFold summary=job_line>
                <Inputs/>
            </crate::widgets::InputsFold>
            {move || match report.get() {
                Err(e) => view! { <p class="error" role="alert" id="job-error">{e}</p> }.into_any(),
                Ok(r) => {
                    let j = job.get();
                    let rate = r.usd_per_chip_hour;
                    let layout = r.train.layout;
                    let infer = r.infer.clone();
                    let serving = r.infer.clone();
                    // Why nothing serves: degrees set that fit no replica, else the model's size.
                    let misfit = engine::system::find(&j.system).ok()
                        .and_then(|sys| engine::workload::curve::layout_misfit(j.attn_dp, j.ep, sys.chips()));
                    let no_fit = move |id: Option<&'static str>| view! {
                        <span id=id>
                            <span class="na">{if misfit.is_some() { "serves in no layout" } else { "does not fit one scale-up domain" }}</span>
                            {misfit.clone().map(|why| view! { <span class="small-note block">{why}</span> })}
                        </span>
                    };
                    let no_fit2 = no_fit.clone();
                    let ops_table = r.infer.as_ref().and_then(decode_ops);
                    let train_formula = r.train.formula.clone();
                    let step_note = format!("Step {}: compute {}, pipeline bubble {}, exposed tensor-parallel {}, exposed expert all-to-all {}, exposed data-parallel {} (ZeRO-{}), exposed context-parallel ring {}, pipeline sends {}; {}% of communication hidden ({}).",
                        r.train.step, r.train.compute, r.train.bubble, r.train.tp_comm, r.train.ep_comm, r.train.dp_comm, r.train.layout.zero, r.train.cp_comm, r.train.pp_comm,
                        sig(r.overlap.value * 100.0, 3), if r.overlap.note.is_empty() { "set by you" } else { r.overlap.note });
                    let racks = r.racks;
                    let rack = r.rack_chips;
                    let mem = r.train.memory;
                    let chip = engine::find(&chip_of(&j)).ok();
                    let id = chip_of(&j);
                    held_out.ask(&id);
                    let held = held_out.get(&id);
                    let held_failed = held.as_ref().and_then(|e| e.as_ref().err().cloned());
                    let ranges = held.and_then(Result::ok).map(|(t, s)| {
                        today.with_value(|d| engine::uncertainty::ranges_with(&j, &r, &id, (&t, &s), d))
                    });
                    // A range, its evidence in data attributes, and in a few words what the
                    // evidence lacks (the whole caveat is in the note below the cards).
                    let band = |range: Option<&engine::uncertainty::Range>, id: &'static str, text: &dyn Fn(f64) -> String, unit: &'static str| {
                        range.map(|g| {
                            let e = &g.evidence;
                            let warn = e.is_thin();
                            view! {
                                <span class="band" id=id data-low=g.low data-high=g.high data-points=e.points
                                    data-same-chip=e.same_chip.to_string() data-includes-price=e.includes_price.to_string()
                                    title=g.caveat.clone()>
                                    {format!("{}–{}{unit}", text(g.low), text(g.high))}
                                </span>
                                {warn.then(|| view! { <span class="small-note block caveat">{g.brief.clone()}</span> })}
                            }
                        })
                    };
                    let money = |x: f64| format!("${}", sig(x, 3));
                    let usd = |x: f64| crate::widgets::usd(x);
                    let days = |x: f64| sig(x / 86_400.0, 3);
                    let pct = |x: f64| sig(x * 100.0, 3);
                    let count = |x: f64| thousands(x);
                    let tps_band = band(ranges.as_ref().map(|g| &g.tokens_per_s), "tps-band", &count, " tokens/s");
                    let mfu_band = band(ranges.as_ref().map(|g| &g.mfu), "mfu-band", &pct, "%");
                    let time_band = band(ranges.as_ref().map(|g| &g.time_s), "time-band", &days, " days");
                    let cost_band = band(ranges.as_ref().map(|g| &g.cost_usd), "cost-band", &usd, "");
                    let mtok_band = band(ranges.as_ref().map(|g| &g.train_cost_per_mtok_usd), "mtok-band", &money, "");
                    let serve_band = band(ranges.as_ref().and_then(|g| g.infer_tokens_per_s_per_chip.as_ref()), "serve-band", &count, " tok/s per chip");
                    let serve_mtok_band = band(ranges.as_ref().and_then(|g| g.infer_cost_per_mtok_usd.as_ref()), "serve-mtok-band", &money, "");
                    let age = today.with_value(|d| engine::tco::rates::months_between(r.price.as_of, d));
                    let basis_line = match (r.price.basis, age) {
                        (Some(_), Some(m)) => format!("{}, {m} month{} old", r.price.describe(), if m == 1 { "" } else { "s" }),
                        _ => r.price.describe(),
                    };
                    let discount_note = (j.discount > 0.0 && !j.owned && j.usd_per_chip_hour.is_none()).then(|| format!(
                        "A {}% discount on the published rate, applied alike to every platform priced on this page (the platforms table, the break-even and Compare).",
                        sig(j.discount * 100.0, 3)
                    ));
                    let chips = |n: u32| format!("{n} chip{}", if n == 1 { "" } else { "s" });
                    let targets = format!("TTFT ≤ {} s, TPOT ≤ {} ms", sig(j.ttft_s, 3), sig(j.tpot_s * 1e3, 3));
                    let meets_note = match (r.infer_meets_targets, &r.infer) {
                        (Some(true), Some(i)) => Some((false, format!("The cheapest configuration meeting {targets}: {} a replica × {} sequences.", chips(i.chips_needed), r.infer_batch))),
                        (Some(false), Some(i)) => Some((true, format!("No configuration meets {targets}: shown at the job's own {} sequences on {} a replica.", r.infer_batch, chips(i.chips_needed)))),
                        _ => None,
                    };
                    let range_text = |g: &engine::uncertainty::Range| g.caveat.clone();
                    let eff = chip.as_ref().map(|c| engine::job::efficiency(&j, c));
                    let band_note = format!(
                        "Training ranges: {}. Serving ranges: {}.{} The rate: {}{}. BF16 matmul efficiency {}%: {}.",
                        ranges.as_ref().map_or_else(String::new, |g| range_text(&g.cost_usd)),
                        ranges.as_ref().and_then(|g| g.infer_cost_per_mtok_usd.as_ref()).map_or_else(|| String::from("none"), range_text),
                        ranges.as_ref().and_then(|g| g.price.as_ref()).map_or_else(String::new, |p| format!(" The price: {}.", p.why)),
                        match rate.source {
                            engine::Source::Cited { citation } => format!("{}, {}", citation.title, citation.date),
                            other => other.to_string(),
                        },
                        if rate.note.is_empty() { String::new() } else { format!(" ({})", rate.note) },
                        eff.map_or_else(String::new, |e| sig(e.value * 100.0, 3)),
                        eff.map_or("", |e| if e.source.is_user() { "set by you" } else { e.note }),
                    );
                    view! {
                        <div class="cards answer" id="job-cards">
                            <Card title="Tokens per second" id="tokens-per-s" value=r.train.tokens_per_s>
                                <Derived text=thousands(r.train.tokens_per_s) formula=train_formula/>
                                {tps_band}
                            </Card>
                            <Card title="MFU" id="mfu" value=r.train.mfu>
                                <Derived text=format!("{}%", sig(r.train.mfu * 100.0, 3))
                                    formula="(6·N + 12·L·d·s) FLOP per token × tokens/s ÷ (chips × dense peak)".to_string()/>
                                {mfu_band}
                            </Card>
                            <Card title="Time to train" id="time" value=r.time_s>
                                <Derived text=format!("{} days", sig(r.time_s / 86400.0, 3))
                                    formula=format!("{:e} tokens ÷ {:.0} tokens/s", j.tokens, r.train.tokens_per_s)/>
                                {time_band}
                            </Card>
                            <Card title="Cost of the run" id="cost" value=r.cost_usd>
                                <Derived text=format!("${}", thousands(r.cost_usd))
                                    formula=format!("{} chip-hours × ${}/chip-hour", thousands(r.chip_hours), sig(rate.value, 4))/>
                                {cost_band}
                            </Card>
                            <Card title="$ per chip-hour" id="rate" value=rate.value>
                                <Fig text=format!("${}", sig(rate.value, 4)) source=rate.source estimate=rate.estimate note=rate.note/>
                                <span class=if r.price.fell_back { "small-note block warn" } else { "small-note block" } id="price-basis"
                                    data-kind=r.price.kind data-as-of=r.price.as_of data-fell-back=r.price.fell_back.to_string()>
                                    {basis_line}
                                </span>
                                {discount_note.map(|d| view! { <span class="small-note block" id="discount-note">{d}</span> })}
                                {(j.owned && chip.as_ref().is_some_and(|c| c.vendor == "AWS")).then(|| view! {
                                    <span class="small-note block warn" id="owned-what-if">
                                        "A what-if: AWS sells Trainium only inside its own instances, so nobody outside AWS can own these chips."
                                    </span>
                                })}
                            </Card>
                            <Card title="Training $ per million tokens" id="train-mtok" value=r.train_usd_per_mtok>
                                <Derived text=format!("${}", sig(r.train_usd_per_mtok, 4))
                                    formula="$/chip-hour × chips ÷ (tokens/s × 3600) × 10⁶".to_string()/>
                                {mtok_band}
                            </Card>
                            <Card title="Serving" id="serving" value=serving.as_ref().map_or(f64::NAN, |i| i.tokens_per_s)>
                                {match serving {
                                    Some(i) => view! {
                                        <Derived text=format!("{} tok/s per chip · {} per cluster · {}/token", thousands(i.tokens_per_s_per_chip), thousands(i.tokens_per_s), i.latency_per_token)
                                            formula=format!("{} chips per replica × {} replicas; decode is {}-bound; prefill of a batch {}. {}", i.chips_needed, i.replicas, i.decode_bound, i.prefill, i.formula)/>
                                        {serve_band}
                                        {(!i.decode_ops.ops.is_empty()).then(|| view! {
                                            <a class="small-note block" href="#decode-ops">{format!(
                                                "timed operation by operation: {} operations, {} from measured kernel tables (below)",
                                                i.decode_ops.ops.len(), i.decode_ops.measured()
                                            )}</a>
                                        })}
                                    }.into_any(),
                                    None => no_fit(Some("serving-no-fit")).into_any(),
                                }}
                            </Card>
                            <Card title="Serving $ per million tokens" id="infer-mtok" value=r.infer_usd_per_mtok.unwrap_or(f64::NAN)>
                                {match (r.infer_usd_per_mtok, infer) {
                                    (Some(c), Some(i)) => view! {
                                        <Derived text=format!("${} · {} chips/replica", sig(c, 4), i.chips_needed) formula=i.formula.clone()/>
                                        {serve_mtok_band}
                                        {meets_note.map(|(warn, t)| view! {
                                            <span class=if warn { "small-note block warn" } else { "small-note block" } id="serve-targets"
                                                data-meets=(!warn).to_string()>{t}</span>
                                        })}
                                    }.into_any(),
                                    _ => no_fit2(None).into_any(),
                                }}
                            </Card>
                            <Card title="$ per PFLOP-hour" id="pflop">
                                <Derived text=format!("${} marketed · ${} achieved", sig(r.usd_per_pflop_hour_marketed, 3), sig(r.usd_per_pflop_hour_achieved, 3))
                                    formula=format!("$/chip-hour ÷ dense {} PFLOP/s per chip; achieved divides by MFU too", j.dtype)/>
                            </Card>
                            <Card title="Energy" id="energy" value=r.joules_per_token>
                                <Derived text=format!("{} J/token · {} kW", sig(r.joules_per_token, 3), sig(r.facility_w / 1000.0, 4))
                                    formula="chips × all-in power per chip × load × PUE ÷ tokens/s (the all-in power per chip is an assumption)".to_string()/>
                            </Card>
                            <Card title="Layout and memory" id="layout">
                                <Derived text=format!("{layout} · {}/chip", engine::Bytes::new(mem.total()).display_si())
                                    formula=format!("weights {} · gradients {} · optimizer {} · activations {}",
                                        engine::Bytes::new(mem.weights).display_memory(), engine::Bytes::new(mem.gradients).display_memory(),
                                        engine::Bytes::new(mem.optimizer).display_memory(), engine::Bytes::new(mem.activations).display_memory())/>
                            </Card>
                            <Card title="Racks" id="racks" value=f64::from(racks)>
                                <Derived text=format!("{racks} racks · {} kW per rack", sig(r.rack_w / 1000.0, 3))
                                    formula=format!("⌈{} chips ÷ {} per rack⌉; kW per rack = chips per rack × all-in power per chip × load (IT load, before PUE)", r.chips, rack.value)/>
                                <span class="small-note">" "<Fig text=format!("{} chips/rack", rack.value) source=rack.source estimate=rack.estimate note=rack.note/></span>
                            </Card>
                            {
                                let f = r.failures;
                                let i = r.failure_inputs;
                                view! {
                                    <Card title="With failures" id="goodput" value=f.goodput>
                                        <Derived text=format!("{}% goodput · {} days", sig(f.goodput * 100.0, 3), sig(r.real_days, 3))
                                            formula=format!("{} chips × {} interruptions per chip-hour: one every {} h; checkpoint of {} written in {} s, every {} min (Daly); each interruption costs a {} min restart and half an interval of work; goodput = 1 ÷ ((1 + δ/τ)(1 + (τ/2 + δ/2 + R)/M)); real time = {} days ÷ goodput",
                                                r.chips, sig(i.rate.value, 3), sig(f.mtbf_h, 3), engine::Bytes::new(i.checkpoint_bytes).display_si(),
                                                sig(f.checkpoint_h * 3600.0, 3), sig(f.interval_h * 60.0, 3), sig(i.restart_h.value * 60.0, 3), sig(r.time_s / 86_400.0, 4))/>
                                        <span class="small-note block">
                                            {format!("{} interruptions; ", sig(f.interruptions, 3))}
                                            <Fig text=format!("{} chips per failure", i.blast_radius) source=engine::Source::Assumption estimate=true note="the fabric's blast radius (Topology page), widened to the unit serviced whole"/>
                                            " held "<Fig text=format!("{} h", sig(i.repair_h.value, 2)) source=i.repair_h.source estimate=i.repair_h.estimate note=i.repair_h.note/>
                                            {format!(": {} spare chips; failures add ${}", sig(f.spare_chips, 3), thousands(r.failure_cost_usd))}
                                            " · restart "<Fig text=format!("{} min", sig(i.restart_h.value * 60.0, 3)) source=i.restart_h.source estimate=i.restart_h.estimate note=i.restart_h.note/>
                                            " · checkpoints at "<Fig text=format!("{}/chip", engine::BytesPerSec::new(i.write_bytes_per_s_per_chip.value).display_si()) source=i.write_bytes_per_s_per_chip.source estimate=i.write_bytes_per_s_per_chip.estimate note=i.write_bytes_per_s_per_chip.note/>
                                            " · "<Fig text=format!("rate {:.2e}/chip-h", i.rate.value) source=i.rate.source estimate=i.rate.estimate note=i.rate.note/>
                                        </span>
                                    </Card>
                                }
                            }
                        </div>
                        <p class="small-note" id="band-note">{band_note}</p>
                        {held_failed.map(|why| view! {
                            <p class="small-note warn" id="ranges-failed">{format!("The ranges could not be worked out: {why}.")}</p>
                        })}
                        <p class="small-note" id="basis-verdict" class:updating=move || verdict.updating.get()>
                            {move || verdict.value.get().flatten()}
                        </p>
                        <p class="small-note">{step_note}</p>
                        {ops_table}
                        {(j.model_version < engine::job::MODEL_VERSION).then(|| view! {
                            <p class="notice" id="layout-model-note">
                                "This link was made before pipeline sends were costed, before the layout search tried ZeRO-2/3 (FSDP) and context parallelism, and before mixtures of experts were served expert-parallel, so it opens as it was made. "
                                <button type="button" class="small" on:click=move |_| sc.update(|s| s.job.model_version = engine::job::MODEL_VERSION)>"Use today's model"</button>
                            </p>
                        })}
                    }.into_any()
                }
            }}
            // The views below the answer, and the inputs a few change, are a module of their
            // own, fetched once the answer has painted (an embed shows the answer alone).
            {move || (!embed.get()).then(|| view! {
                <super::lazy::LazyPart name="workload_more" loading="Loading the owned-cost breakdown, the tornado, your own model, failures, the step's breakdown, serving curves, layout search, break-even, other platforms and the evidence…"/>
            })}
        </section>
    }
}

/// The Workload page's views below its answer, built as a module of their own
/// (`workload_more`): the owned-cost breakdown and the tornado, the inputs a few change (your
/// own model, failures), the step's breakdown, serving curves, the layout search, the link
/// read the other way, break-even, other platforms, the claims checked and the published runs.
#[component]
pub fn WorkloadMore() -> impl IntoView {
    let sc = use_scenario();
    let job = Memo::new(move |_| sc.with(|s| s.job.clone()));
    // What one chip-hour is made of, drawn in the worker.
    let chip_hour = crate::background::drawn(view::protocol::View::ChipHour);
    // The tornado's evaluations run in the worker.
    let swings = crate::background::derived(view::protocol::Request::Tornado, |r| match r {
        view::protocol::Reply::Tornado {
            query,
            base,
            swings,
        } => Some((
            query.as_str(),
            (!swings.is_empty()).then(|| (*base, swings.clone())),
        )),
        _ => None,
    });
    // Drawn in the worker; a row's "place" link opens the Roofline page in place (a new tab
    // with a modifier key).
    let step = crate::background::drawn(view::protocol::View::Step);
    let place = move |ev: leptos::ev::MouseEvent| {
        use wasm_bindgen::JsCast;
        if ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.button() != 0 {
            return;
        }
        let a = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("a.place").ok().flatten());
        if let Some(href) = a.and_then(|a| a.get_attribute("href")) {
            ev.prevent_default();
            let (s, _) = engine::Scenario::from_query(href.trim_start_matches('?'));
            sc.set(s);
        }
    };
    view! {
        <div class="tco-grid">
            <div class="deferred" class:updating=move || chip_hour.updating.get()
                inner_html=move || chip_hour.value.get().unwrap_or_default()></div>
            <Tornado swings=swings/>
        </div>
        <OwnModel/>
        <FailureAssumptions/>
        <div class="deferred" class:updating=move || step.updating.get() on:click=place
            inner_html=move || step.value.get().unwrap_or_default()></div>
        // Each in a task of its own: an input between them is answered at once.
        <Later><super::serving::ServingCurves job=job/></Later>
        <Later><super::serving::ApiBeside/></Later>
        <Later><LayoutSearchPanel job=job/></Later>
        <Later><LinkReadingCard job=job/></Later>
        <Later><BreakEven/></Later>
        <Later><Platforms/></Later>
        <Later><Claims/></Later>
        <RunCalibration/>
    }
}

/// Large inputs in e notation (`2e12`), others with up to 6 significant digits.
fn input_text(x: f64) -> String {
    if x >= 1e7 {
        format!("{x:e}")
    } else {
        sig(x, 6)
    }
}

/// The catalog id of the job's chip.
fn chip_of(j: &Job) -> String {
    system::find(&j.system)
        .map(|s| s.chip.to_string())
        .unwrap_or_default()
}

/// The chip's default BF16 matmul efficiency (its measured maximum, or Trainium's fit).
fn default_efficiency(j: &Job) -> f64 {
    engine::find(&chip_of(j)).map_or(0.8, |c| engine::efficiency::default_bf16(&c).value)
}

/// A result card.
#[component]
fn Card(
    /// Heading.
    title: &'static str,
    /// Element id.
    id: &'static str,
    /// The headline number, for scripts and tests reading the page.
    #[prop(default = f64::NAN)]
    value: f64,
    /// The value as shown.
    children: Children,
) -> impl IntoView {
    view! {
        <div class="card result" id=id data-value=value>
            <div class="result-title">{title}</div>
            <div class="result-value">{children()}</div>
        </div>
    }
}

/// A decode step timed operation by operation, as a table folded under its summary: each
/// operation's time on one chip and where it comes from (a measured kernel table, named in
/// its tooltip; the roofline; the fabric). Nothing where the step is one GEMM term.
fn decode_ops(i: &workload::InferReport) -> Option<impl IntoView> {
    let s = &i.decode_ops;
    if s.ops.is_empty() {
        return None;
    }
    let rows: Vec<_> = s
        .ops
        .iter()
        .map(|o| {
            let title = match &o.source {
                workload::ops::OpSource::Table(t) => {
                    format!("{} {} kernel table: {} ({})", t.kind, t.format, t.source, t.url)
                }
                workload::ops::OpSource::Roofline => {
                    "no kernel table for this chip: its FLOPs at the serving rate or its bytes at the serving bandwidth".to_string()
                }
                workload::ops::OpSource::Fabric => "the collective model over the fabric the group crosses".to_string(),
            };
            view! {
                <tr data-source=o.source.id()>
                    <th scope="row" style="text-align:left">{o.name}</th>
                    <td class="num">{format!("{}", engine::Seconds::new(o.seconds))}</td>
                    <td title=title>{o.source.id()}</td>
                    <td>{format!("{} × {}", o.calls, o.shape.describe())}</td>
                </tr>
            }
        })
        .collect();
    Some(view! {
        <details class="decode-ops" id="decode-ops" data-measured=s.measured().to_string()>
            <summary>{format!(
                "One decode step, {} operations ({} from measured kernel tables) · attention data-parallel {} × expert-parallel {}",
                s.ops.len(), s.measured(), i.layout.attn_dp, i.layout.ep
            )}</summary>
            <div class="table-wrap"><table class="grid">
                <thead><tr><th scope="col">"operation"</th><th scope="col">"time a step"</th><th scope="col">"source"</th><th scope="col">"calls × shape"</th></tr></thead>
                <tbody>{rows}
                    <tr><th scope="row" style="text-align:left">"kernel launches"</th><td class="num">{format!("{}", engine::Seconds::new(s.launches))}</td><td>"fitted"</td><td></td></tr>
                    <tr><th scope="row" style="text-align:left">"the step, on one chip"</th><td class="num">{format!("{}", engine::Seconds::new(s.total()))}</td><td></td><td>"operations one after another, collectives exposed"</td></tr>
                </tbody>
            </table></div>
        </details>
    })
}
