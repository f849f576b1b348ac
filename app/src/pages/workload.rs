//! Workload & TCO page: one job (train a model on a system at a price), its results with
//! their formulas, the owned-cost breakdown and a tornado of the assumptions.

use engine::job::{evaluate, layout_search, tornado_from, Job};
use engine::units::sig;
use engine::{system, workload, Dtype};
use leptos::prelude::*;

use crate::state::use_scenario;
use crate::widgets::{chart_data, thousands, Derived, Fig};

/// Inputs, result cards, cost breakdown and tornado.
/// A chip's serving speed-error range and its description.
type ServeRange = ((f64, f64), String);

#[component]
pub fn WorkloadPage() -> impl IntoView {
    let sc = use_scenario();
    let job = Memo::new(move |_| sc.with(|s| s.job.clone()));
    let report = Memo::new(move |_| evaluate(&job.get()).map_err(|e| e.to_string()));
    // The calibration set does not depend on the inputs: evaluated once, shared by the band
    // on the headline cards and the calibration tables.
    let points = StoredValue::new(engine::calibration::calibration());
    // The band's error range depends on the chip alone: kept with the chip it was worked out
    // for, and worked out again only when the chip changes.
    let errors = StoredValue::new((String::new(), ((0.0, 0.0), String::new())));
    // The serving range, by chip: its own held-out serving runs, or none.
    let serve_errors = StoredValue::new((String::from("?"), None::<ServeRange>));
    let swings = Memo::new(move |_| {
        report.with(|r| {
            r.as_ref()
                .ok()
                .and_then(|r| tornado_from(&job.get(), r, 0.2).ok())
        })
    });
    view! {
        <section class="page workload-page">
            <h1>"Workload & TCO"</h1>
            <p class="lead">
                "Train a model on a system: the fastest parallel layout that fits, time to train, and what it costs rented or owned. "
                "Every result shows its formula on hover; prices without a published source are marked as assumptions."
            </p>
            <Inputs/>
            <OwnModel/>
            <FailureAssumptions/>
            {move || match report.get() {
                Err(e) => view! { <p class="error" role="alert" id="job-error">{e}</p> }.into_any(),
                Ok(r) => {
                    let j = job.get();
                    let rate = r.usd_per_chip_hour;
                    let layout = r.train.layout;
                    let infer = r.infer.clone();
                    let serving = r.infer.clone();
                    let for_breakdown = r.clone();
                    let train_formula = r.train.formula.clone();
                    let step_note = format!("Step {}: compute {}, pipeline bubble {}, exposed tensor-parallel {}, exposed expert all-to-all {}, exposed data-parallel {} (ZeRO-{}), exposed context-parallel ring {}, pipeline sends {}; {}% of communication hidden ({}).",
                        r.train.step, r.train.compute, r.train.bubble, r.train.tp_comm, r.train.ep_comm, r.train.dp_comm, r.train.layout.zero, r.train.cp_comm, r.train.pp_comm,
                        sig(r.overlap.value * 100.0, 3), if r.overlap.note.is_empty() { "set by you" } else { r.overlap.note });
                    let racks = r.racks;
                    let rack = r.rack_chips;
                    let mem = r.train.memory;
                    let chip = engine::find(&chip_of(&j)).ok();
                    let id = chip_of(&j);
                    if errors.with_value(|(c, _)| *c != id) {
                        let e = engine::find(&id).map_or_else(
                            |_| ((0.0, 0.0), String::new()),
                            |c| points.with_value(|pts| engine::uncertainty::errors_for(pts, &c)),
                        );
                        errors.set_value((id.clone(), e));
                    }
                    if serve_errors.with_value(|(c, _)| *c != id) {
                        let e = engine::find(&id).ok().and_then(|c| {
                            points.with_value(|pts| engine::uncertainty::serving_errors_for(pts, &c))
                        });
                        serve_errors.set_value((id.clone(), e));
                    }
                    let serve_range = serve_errors.with_value(|(_, e)| e.clone());
                    let serve_band = match (&r.infer, r.infer_usd_per_mtok, &serve_range) {
                        (Some(i), Some(c), Some((e, _))) => Some(engine::uncertainty::serving_band(i.tokens_per_s_per_chip, c, *e)),
                        _ => None,
                    };
                    let serve_note = serve_range.as_ref().map_or_else(
                        || "Serving: no held-out serving run on this chip is in the calibration set, so its serving figures carry no range.".to_string(),
                        |(_, b)| format!("Serving range: {b}."),
                    );
                    let ((lo, hi), basis) = errors.with_value(|(_, e)| e.clone());
                    let band = engine::uncertainty::band(&j, &r, (lo, hi), &basis);
                    let eff = chip.as_ref().map(|c| engine::job::efficiency(&j, c));
                    let band_note = format!(
                        "Range: {}. The rate: {}{}. BF16 matmul efficiency {}%: {}.",
                        band.basis,
                        match rate.source {
                            engine::Source::Cited { citation } => format!("{}, {}", citation.title, citation.date),
                            other => other.to_string(),
                        },
                        if rate.note.is_empty() { String::new() } else { format!(" ({})", rate.note) },
                        eff.map_or_else(String::new, |e| sig(e.value * 100.0, 3)),
                        eff.map_or("", |e| if e.source.is_user() { "set by you" } else { e.note }),
                    ) + " " + &serve_note;
                    view! {
                        <div class="cards" id="job-cards">
                            <Card title="Tokens per second" id="tokens-per-s" value=r.train.tokens_per_s>
                                <Derived text=thousands(r.train.tokens_per_s) formula=train_formula/>
                            </Card>
                            <Card title="MFU" id="mfu" value=r.train.mfu>
                                <Derived text=format!("{}%", sig(r.train.mfu * 100.0, 3))
                                    formula="(6·N + 12·L·d·s) FLOP per token × tokens/s ÷ (chips × dense peak)".to_string()/>
                                <span class="band" id="mfu-band" data-low=band.mfu.0 data-high=band.mfu.1>
                                    {format!("{}–{}%", sig(band.mfu.0 * 100.0, 3), sig(band.mfu.1 * 100.0, 3))}
                                </span>
                            </Card>
                            <Card title="Time to train" id="time" value=r.time_s>
                                <Derived text=format!("{} days", sig(r.time_s / 86400.0, 3))
                                    formula=format!("{:e} tokens ÷ {:.0} tokens/s", j.tokens, r.train.tokens_per_s)/>
                            </Card>
                            <Card title="Cost of the run" id="cost" value=r.cost_usd>
                                <Derived text=format!("${}", thousands(r.cost_usd))
                                    formula=format!("{} chip-hours × ${}/chip-hour", thousands(r.chip_hours), sig(rate.value, 4))/>
                            </Card>
                            <Card title="$ per chip-hour" id="rate" value=rate.value>
                                <Fig text=format!("${}", sig(rate.value, 4)) source=rate.source estimate=rate.estimate note=rate.note/>
                                <span class=if r.price.fell_back { "small-note block warn" } else { "small-note block" } id="price-basis"
                                    data-kind=r.price.kind data-as-of=r.price.as_of data-fell-back=r.price.fell_back.to_string()>
                                    {r.price.describe()}
                                </span>
                                {(j.owned && chip.as_ref().is_some_and(|c| c.vendor == "AWS")).then(|| view! {
                                    <span class="small-note block warn" id="owned-what-if">
                                        "A what-if: AWS sells Trainium only inside its own instances, so nobody outside AWS can own these chips."
                                    </span>
                                })}
                            </Card>
                            <Card title="Training $ per million tokens" id="train-mtok" value=r.train_usd_per_mtok>
                                <Derived text=format!("${}", sig(r.train_usd_per_mtok, 4))
                                    formula="$/chip-hour × chips ÷ (tokens/s × 3600) × 10⁶".to_string()/>
                                <span class="band" id="mtok-band" data-low=band.train_usd_per_mtok.0 data-high=band.train_usd_per_mtok.1>
                                    {format!("${}–{}", sig(band.train_usd_per_mtok.0, 3), sig(band.train_usd_per_mtok.1, 3))}
                                </span>
                            </Card>
                            <Card title="Serving" id="serving" value=serving.as_ref().map_or(f64::NAN, |i| i.tokens_per_s)>
                                {match serving {
                                    Some(i) => view! {
                                        <Derived text=format!("{} tok/s per chip · {} per cluster · {}/token", thousands(i.tokens_per_s_per_chip), thousands(i.tokens_per_s), i.latency_per_token)
                                            formula=format!("{} chips per replica × {} replicas; decode is {}-bound; prefill of a batch {}. {}", i.chips_needed, i.replicas, i.decode_bound, i.prefill, i.formula)/>
                                        {serve_band.map(|[t, _]| view! {
                                            <span class="band" id="serve-band" data-low=t.0 data-high=t.1>
                                                {format!("{}–{} tok/s per chip", thousands(t.0), thousands(t.1))}
                                            </span>
                                        })}
                                    }.into_any(),
                                    None => view! { <span class="na">"does not fit one scale-up domain"</span> }.into_any(),
                                }}
                            </Card>
                            <Card title="Serving $ per million tokens" id="infer-mtok">
                                {match (r.infer_usd_per_mtok, infer) {
                                    (Some(c), Some(i)) => view! {
                                        <Derived text=format!("${} · {} chips/replica", sig(c, 4), i.chips_needed) formula=i.formula.clone()/>
                                        {serve_band.map(|[_, u]| view! {
                                            <span class="band" id="serve-mtok-band" data-low=u.0 data-high=u.1>
                                                {format!("${}–{}", sig(u.0, 3), sig(u.1, 3))}
                                            </span>
                                        })}
                                    }.into_any(),
                                    _ => view! { <span class="na">"does not fit one scale-up domain"</span> }.into_any(),
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
                        <div class="tco-grid">
                            <Breakdown report=for_breakdown/>
                            <Tornado swings=swings/>
                        </div>
                        <p class="small-note" id="band-note">{band_note}</p>
                        <p class="small-note">{step_note}</p>
                        {(j.model_version < engine::job::MODEL_VERSION).then(|| view! {
                            <p class="notice" id="layout-model-note">
                                "This link was made before pipeline sends were costed, before the layout search tried ZeRO-2/3 (FSDP) and context parallelism, and before mixtures of experts were served expert-parallel, so it opens as it was made. "
                                <button type="button" class="small" on:click=move |_| sc.update(|s| s.job.model_version = engine::job::MODEL_VERSION)>"Use today's model"</button>
                            </p>
                        })}
                    }.into_any()
                }
            }}
            // Outside the closure above, so an input change updates them in place.
            <super::serving::ServingCurves job=job/>
            <LayoutSearchPanel job=job/>
            <LinkReadingCard job=job report=report/>
            <BreakEven job=job report=report/>
            <Platforms job=job report=report/>
            <Claims/>
            <RunCalibration points=points/>
        </section>
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

/// The job's inputs.
#[component]
fn Inputs() -> impl IntoView {
    let sc = use_scenario();
    let error = RwSignal::new(None::<String>);
    let num = move |label: &'static str,
                    key: &'static str,
                    get: fn(&Job) -> f64,
                    set: fn(&mut Job, f64),
                    lo: f64,
                    hi: f64,
                    step: f64,
                    slider: bool| {
        let value = move || sc.with(|s| get(&s.job));
        let apply = move |raw: String| match raw.trim().parse::<f64>() {
            Ok(x) if x.is_finite() && x >= lo && x <= hi => {
                error.set(None);
                sc.update(|s| set(&mut s.job, x));
            }
            _ => error.set(Some(format!(
                "{label}: '{raw}' is not a number from {lo} to {hi}; the previous value is kept."
            ))),
        };
        view! {
            <label class="field num">
                {label}
                <span class="pair">
                    {slider.then(|| view! {
                        <input type="range" min=lo max=hi step=step prop:value=move || value().to_string()
                            on:input=move |ev| apply(event_target_value(&ev))/>
                    })}
                    <input type="text" inputmode="decimal" name=key prop:value=move || input_text(value())
                        on:change=move |ev| apply(event_target_value(&ev))/>
                </span>
            </label>
        }
    };
    let select = move |label: &'static str,
                       name: &'static str,
                       options: Vec<(String, String)>,
                       get: fn(&Job) -> String,
                       set: fn(&mut Job, String)| {
        view! {
            <label class="field">
                {label}
                <select name=name on:change=move |ev| { let v = event_target_value(&ev); sc.update(|s| set(&mut s.job, v)); }>
                    {options.into_iter().map(|(id, text)| {
                        let id2 = id.clone();
                        view! { <option value=id selected=move || sc.with(|s| get(&s.job) == id2)>{text}</option> }
                    }).collect_view()}
                </select>
            </label>
        }
    };
    let systems: Vec<(String, String)> = system::presets()
        .into_iter()
        .map(|s| (s.id.to_string(), s.name.to_string()))
        .chain(
            sc.with_untracked(|s| s.edited_systems())
                .into_iter()
                .map(|id| (id.clone(), crate::pages::topology::edited_label(&id))),
        )
        .collect();
    let models: Vec<(String, String)> = workload::models()
        .into_iter()
        .map(|m| (m.id, m.name))
        .collect();
    let dtypes: Vec<(String, String)> = [Dtype::Bf16, Dtype::Fp8, Dtype::Fp4]
        .iter()
        .map(|d| (d.id().to_string(), d.label().to_string()))
        .collect();
    view! {
        <div class="card inputs">
            <div class="input-grid">
                {select("System", "wsys", systems, |j| j.system.clone(), |j, v| j.system = v)}
                <label class="field">
                    "Model"
                    <select name="wmodel" on:change=move |ev| { let v = event_target_value(&ev); sc.update(|s| s.job.model = v); }>
                        {models.into_iter().map(|(id, text)| {
                            let id2 = id.clone();
                            view! { <option value=id selected=move || sc.with(|s| s.job.model == id2)>{text}</option> }
                        }).collect_view()}
                        // A model of your own (pasted or typed in) is one more choice.
                        {move || {
                            let id = sc.with(|s| s.job.model.clone());
                            id.starts_with(workload::custom::PREFIX).then(|| {
                                let name = workload::find_model(&id).map_or_else(|_| "your model".into(), |m| m.name);
                                view! { <option value=id.clone() selected=true>{format!("{name} (yours)")}</option> }
                            })
                        }}
                    </select>
                </label>
                {select("Format", "wdtype", dtypes, |j| j.dtype.id().to_string(), |j, v| if let Ok(d) = v.parse() { j.dtype = d })}
                // A mixture of experts: how much more the busiest expert-parallel rank gets.
                {move || sc.with(|s| workload::find_model(&s.job.model).is_ok_and(|m| m.experts > 0)).then(|| {
                    let (lo, hi) = engine::job::range("wimb").unwrap_or((1.0, 1.0));
                    num("Expert imbalance (busiest rank ÷ mean)", "wimb", |j| j.expert_imbalance.unwrap_or(1.0),
                        |j, x| j.expert_imbalance = (x > 1.0).then_some(x), lo, hi, 0.05, false)
                })}
                {num("Nodes", "wnodes", |j| f64::from(j.nodes), |j, x| j.nodes = x.round().max(1.0) as u32, 1.0, 4096.0, 1.0, false)}
                {num("Training tokens", "wtokens", |j| j.tokens, |j, x| j.tokens = x, 1e6, 1e16, 1e9, false)}
                {num("Global batch (sequences)", "wgbs", |j| f64::from(j.global_batch), |j, x| j.global_batch = x.round().max(1.0) as u32, 1.0, 262144.0, 1.0, false)}
                {num("BF16 matmul efficiency", "weff", |j| j.efficiency.unwrap_or_else(|| default_efficiency(j)), |j, x| j.efficiency = Some(x), 0.05, 1.0, 0.01, true)}
                {num("Serving batch per replica", "wbatch", |j| f64::from(j.batch), |j, x| j.batch = x.round().max(1.0) as u32, 1.0, 4096.0, 1.0, false)}
                {num("Prompt tokens per request", "wpr", |j| f64::from(j.prompt), |j, x| j.prompt = x.round().max(1.0) as u32, 1.0, 262144.0, 1.0, false)}
                {num("Output tokens per request", "wout", |j| f64::from(j.output), |j, x| j.output = x.round().max(1.0) as u32, 1.0, 262144.0, 1.0, false)}
                {num("Communication hidden behind compute", "wov", |j| j.overlap.unwrap_or_else(|| system::find(&j.system).map_or(0.0, |s| s.overlap.value)), |j, x| j.overlap = Some(x), 0.0, 1.0, 0.05, true)}
            </div>
            <div class="input-grid">
                <label class="check">
                    <input type="checkbox" name="wown" prop:checked=move || sc.with(|s| s.job.owned)
                        on:change=move |ev| { let on = event_target_checked(&ev); sc.update(|s| s.job.owned = on); }/>
                    "Own the chips"
                </label>
                {move || if sc.with(|s| s.job.owned) {
                    view! {
                        {num("Depreciation (years)", "wyears", |j| j.years, |j, x| j.years = x, 1.0, 10.0, 0.5, true)}
                        {num("PUE", "wpue", |j| j.pue, |j, x| j.pue = x, 1.0, 2.5, 0.01, true)}
                        {num("Electricity ($/kWh)", "wkwh", |j| j.usd_per_kwh, |j, x| j.usd_per_kwh = x, 0.0, 0.5, 0.005, true)}
                        {num("Chip price with server share ($)", "wchip", |j| j.chip_usd.unwrap_or_else(|| engine::tco::ownership_default(&chip_of(j)).chip_usd.value), |j, x| j.chip_usd = Some(x), 1.0, 1e7, 100.0, false)}
                        {num("Cost of capital (per year)", "wcoc", |j| j.cost_of_capital, |j, x| j.cost_of_capital = x, 0.0, 0.3, 0.005, true)}
                        {num("Facility ($/kW-month)", "wfac", |j| j.facility_usd_per_kw_month, |j, x| j.facility_usd_per_kw_month = x, 0.0, 500.0, 5.0, true)}
                        {num("Maintenance (per year of capital)", "wmaint", |j| j.maintenance, |j, x| j.maintenance = x, 0.0, 0.2, 0.005, true)}
                        {num("Networking per chip ($)", "wnet", |j| j.network_usd.unwrap_or_else(|| engine::tco::ownership_default(&chip_of(j)).network_usd.value), |j, x| j.network_usd = Some(x), 0.0, 1e5, 50.0, false)}
                        {num("Average draw (of full load)", "wload", |j| j.load, |j, x| j.load = x, 0.05, 1.0, 0.01, true)}
                    }.into_any()
                } else {
                    let bases = move || {
                        let default = engine::tco::rates::default_basis();
                        engine::tco::rates::bases()
                            .into_iter()
                            .map(|b| {
                                let id = b.id();
                                let is_default = b == default;
                                let text = if is_default { format!("{b} (default: the latest on which Trn2 and H100 both have one)") } else { b.to_string() };
                                let id2 = id.clone();
                                view! {
                                    <option value=id selected=move || sc.with(|s| s.job.price_basis.as_deref().map_or(is_default, |x| x == id2))>{text}</option>
                                }
                            })
                            .collect_view()
                    };
                    let options = move || {
                        let chip = sc.with(|s| chip_of(&s.job));
                        engine::tco::rental_options(&chip)
                            .into_iter()
                            .enumerate()
                            .map(|(i, r)| {
                                let i = i as u32;
                                view! {
                                    <option value=i.to_string() selected=move || sc.with(|s| s.job.rental_option == Some(i))>
                                        {format!("${} — {}", sig(r.usd_per_chip_hour(), 3), r.label())}
                                    </option>
                                }
                            })
                            .collect_view()
                    };
                    view! {
                        <label class="field">
                            "Price basis (every platform priced alike)"
                            <select name="wbasis" on:change=move |ev| {
                                let v = event_target_value(&ev);
                                let default = engine::tco::rates::default_basis().id();
                                sc.update(|s| {
                                    s.job.price_basis = (v != default).then_some(v);
                                    s.job.rental_option = None;
                                    s.job.usd_per_chip_hour = None;
                                });
                            }>{bases}</select>
                        </label>
                        <label class="field">
                            "Published rate"
                            <select name="wopt" on:change=move |ev| {
                                let v = event_target_value(&ev);
                                sc.update(|s| { s.job.rental_option = v.parse::<u32>().ok(); s.job.usd_per_chip_hour = None; });
                            }>
                                <option value="" selected=move || sc.with(|s| s.job.rental_option.is_none())>"the one on the price basis"</option>
                                {options}
                            </select>
                        </label>
                        <label class="field num">
                            "$ per chip-hour (blank: published rate)"
                            <input type="text" inputmode="decimal" name="wprice"
                                prop:value=move || sc.with(|s| s.job.usd_per_chip_hour.map(|p| sig(p, 6)).unwrap_or_default())
                                on:change=move |ev| {
                                    let raw = event_target_value(&ev);
                                    if raw.trim().is_empty() {
                                        error.set(None);
                                        sc.update(|s| s.job.usd_per_chip_hour = None);
                                    } else {
                                        match raw.trim().parse::<f64>() {
                                            Ok(x) if x > 0.0 && x <= 1000.0 => { error.set(None); sc.update(|s| s.job.usd_per_chip_hour = Some(x)); }
                                            _ => error.set(Some(format!("Price: '{raw}' is not a positive number of dollars (at most 1,000); the previous value is kept."))),
                                        }
                                    }
                                }/>
                        </label>
                        {num("Discount", "wdisc", |j| j.discount, |j, x| j.discount = x, 0.0, 0.9, 0.01, true)}
                    }.into_any()
                }}
            </div>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <p class="small-note" id="job-defaults">
                "Defaults: BF16 matmuls at the chip's measured maximum (H100 80.3%, B200 77.6%, GB200 72.9% of peak; ml-engineering's MAMF table); "
                "Trainium's 67% is fitted to the Trn1 GPT-3 175B run and checked against three other Trn1 runs. Narrower formats reach less of their own peak: "
                "FP8 at the measured FP8 maximum (H100 70.9%), FP4 assumed alike; attention, the output head and elementwise work stay in BF16 and casts to FP8 are costed. "
                "Serving kernels reach 0.80 of that rate, fitted to NVIDIA's MLPerf v4.1 H200 Llama 2 70B result; requests of 1,024 prompt and 256 output tokens are an assumption. "
                "Communication hidden behind compute: 10% on Trainium (dedicated collective cores), none on GPUs, assumptions bounded by the Trn1 GPT-3 calibration run. "
                "Ownership: $1,000 networking per chip and an average draw of 80% of full load are assumptions. Ownership defaults are assumptions: 5 years, 8% cost of capital, PUE 1.2, $0.08/kWh, "
                "$150 per kW-month of facility, 3% maintenance a year, and an all-in power per chip that includes its share of host and network."
            </p>
        </div>
    }
}

/// How AWS's NeuronLink figures are read for a Trainium job, the arithmetic, and the other
/// reading one click away with what it changes in the headline figures.
#[component]
fn LinkReadingCard(
    /// The job as set above.
    job: Memo<Job>,
    /// Its report (evaluated once, above).
    report: Memo<Result<engine::job::JobReport, String>>,
) -> impl IntoView {
    use engine::system::{self, LinkReading};
    let sc = use_scenario();
    // The same job read the other way: evaluated only for Trainium platforms.
    let other = Memo::new(move |_| {
        let j = job.get();
        let sys = system::find(&j.system).ok()?;
        let (used, alt) = system::reading(&sys)?;
        // Today's reading from an old link's; otherwise the one not in use.
        let flip = match j.link_reading {
            LinkReading::AsLabelled => LinkReading::PerDirection,
            LinkReading::PerDirection | LinkReading::Legacy => LinkReading::AsLabelled,
        };
        let r = evaluate(&Job {
            link_reading: flip,
            ..j.clone()
        })
        .ok();
        Some((used, alt, flip, r))
    });
    move || {
        let (used, alt, flip, r) = other.get()?;
        let current = job.with(|j| j.link_reading);
        let here = report.with(|r| {
            r.as_ref()
                .ok()
                .map(|r| (r.train_usd_per_mtok, r.train.tokens_per_s))
        });
        let effect = match (here, r) {
            (Some((c0, t0)), Some(r)) => format!(
                "Read the other way, training costs ${} per million tokens instead of ${} ({:+.1}%) and runs at {} tokens/s instead of {}.",
                sig(r.train_usd_per_mtok, 4),
                sig(c0, 4),
                (r.train_usd_per_mtok / c0 - 1.0) * 100.0,
                thousands(r.train.tokens_per_s),
                thousands(t0)
            ),
            _ => String::new(),
        };
        let (now, then) = match current {
            LinkReading::PerDirection => (alt.clone(), used.clone()),
            LinkReading::Legacy => (
                "as links made before version 4 read them: Trn2's figures as labelled, Trn3's per direction".to_string(),
                used.clone(),
            ),
            LinkReading::AsLabelled => (used.clone(), alt.clone()),
        };
        Some(view! {
            <div class="card" id="link-reading" data-reading=current.id()>
                <h2>"How AWS's link figures are read"</h2>
                <p class="small-note">{format!("In use: {now}.")}</p>
                <p class="small-note">{format!("The other reading: {then}.")}</p>
                <p class="small-note" id="link-reading-effect">{effect}</p>
                <button type="button" on:click=move |_| sc.update(|s| s.job.link_reading = flip)>
                    {if flip == LinkReading::PerDirection { "Read them per direction" } else { "Read them as labelled" }}
                </button>
            </div>
        })
    }
}

/// What one chip-hour is made of (owned), as a stacked bar.
#[component]
fn Breakdown(
    /// The job's report.
    report: engine::job::JobReport,
) -> impl IntoView {
    let parts: Vec<(&str, f64, &str)> = match report.owned_breakdown {
        Some((c, p, o)) => vec![
            ("capital", c, "#0072b2"),
            ("power", p, "#e69f00"),
            ("facility & maintenance", o, "#009e73"),
        ],
        None => vec![("rental", report.usd_per_chip_hour.value, "#0072b2")],
    };
    let total: f64 = parts.iter().map(|p| p.1).sum();
    let mut x = 0.0;
    let bars = parts
        .iter()
        .map(|(name, v, color)| {
            let w = v / total * 100.0;
            let here = x;
            x += w;
            view! {
                <rect x=format!("{here:.2}%") y="0" width=format!("{w:.2}%") height="28" fill=*color>
                    <title>{format!("{name}: ${}/chip-hour", sig(*v, 3))}</title>
                </rect>
            }
        })
        .collect_view();
    let legend = parts
        .iter()
        .map(|(name, v, color)| view! { <li><span class="swatch" style=format!("background:{color}")></span>{format!("{name}: ${} ({}%)", sig(*v, 3), sig(v / total * 100.0, 3))}</li> })
        .collect_view();
    view! {
        <div class="card">
            <h2>"One chip-hour"</h2>
            <svg class="stack" id="cost-breakdown" width="100%" height="28" role="img" aria-label="Cost of one chip-hour by component">{bars}</svg>
            <ul class="legend-list">{legend}</ul>
            <p class="small-note">{format!("${} per chip-hour × {} chips", sig(total, 4), report.chips)}</p>
            <div inner_html=chart_data("cost-breakdown", "cost-breakdown-data", &["component", "$ per chip-hour", "share"], &parts.iter().map(|(n, v, _)| vec![(*n).to_string(), sig(*v, 4), format!("{}%", sig(v / total * 100.0, 3))]).collect::<Vec<_>>())></div>
        </div>
    }
}

/// Horizontal bars: the training cost per million tokens with each input moved ±20%.
#[component]
fn Tornado(
    /// Base value and swings, largest first.
    swings: Memo<Option<(f64, Vec<engine::job::Swing>)>>,
) -> impl IntoView {
    move || {
        let Some((base, bars)) = swings.get() else {
            return view! { <div class="card"><p class="na">"No sensitivity: the job does not evaluate."</p></div> }.into_any();
        };
        let span = bars
            .iter()
            .flat_map(|b| [b.low, b.high])
            .filter(|x| x.is_finite())
            .map(|x| (x - base).abs())
            .fold(1e-12, f64::max);
        // Each input's name sits above its bar, so the bars keep the full width on a phone.
        let row_h = 38.0;
        let rows = bars
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let y = i as f64 * row_h + 4.0;
                let pos = |v: f64| 50.0 + (v - base) / span * 48.0;
                let (l, h) = (pos(b.low), pos(b.high));
                view! {
                    <g class="swing">
                        <text x="0" y=y + 11.0 class="swing-label">{b.input}</text>
                        <rect x=format!("{:.2}%", l.min(50.0)) y=y + 16.0 width=format!("{:.2}%", (50.0 - l).abs()) height="16" class="low"/>
                        <rect x=format!("{:.2}%", h.min(50.0)) y=y + 16.0 width=format!("{:.2}%", (h - 50.0).abs()) height="16" class="high"/>
                        <title>{format!("{}: −20% → ${}, +20% → ${}", b.input, sig(b.low, 4), sig(b.high, 4))}</title>
                    </g>
                }
            })
            .collect_view();
        let h = bars.len() as f64 * row_h + 10.0;
        let data = chart_data(
            "tornado",
            "tornado-data",
            &[
                "input",
                "$/Mtok with it 20% lower",
                "$/Mtok with it 20% higher",
            ],
            &bars
                .iter()
                .map(|b| vec![b.input.to_string(), sig(b.low, 4), sig(b.high, 4)])
                .collect::<Vec<_>>(),
        );
        view! {
            <div class="card">
                <h2>"What decides the cost per token"</h2>
                <p class="small-note">{format!("Training $ per million tokens, base ${}; each input moved 20% down (light) and up (dark).", sig(base, 4))}</p>
                <svg class="tornado" id="tornado" width="100%" height=h role="img" aria-label="Tornado chart of the training cost per million tokens">
                    <line x1="50%" x2="50%" y1="16" y2=h class="axis"/>
                    {rows}
                </svg>
                <div inner_html=data></div>
            </div>
        }
        .into_any()
    }
}

/// Platforms compared on the same job at about the same chip count.
const PLATFORMS: [&str; 5] = [
    "trn2-ultra-64",
    "trn3-ultra-144",
    "hgx-h100-8",
    "hgx-b200-8",
    "gb300-nvl72",
];

/// The same job on several platforms: cost per token, where the run's money goes, and the
/// price at which each matches the job's own platform.
#[component]
fn Platforms(
    /// The job as set above.
    job: Memo<Job>,
    /// Its report (evaluated once, above).
    report: Memo<Result<engine::job::JobReport, String>>,
) -> impl IntoView {
    let rows = Memo::new(move |_| {
        let j = job.get();
        let chips = system::find(&j.system)
            .map(|s| s.chips() * j.nodes)
            .unwrap_or(64);
        let mut ids: Vec<String> = PLATFORMS.iter().map(|x| (*x).to_string()).collect();
        if !ids.contains(&j.system) {
            ids.insert(0, j.system.clone());
        }
        ids.into_iter()
            .filter_map(|id| {
                let sys = system::find(&id).ok()?;
                let nodes = chips.div_ceil(sys.chips()).max(1);
                let other = if id == j.system {
                    j.clone()
                } else {
                    j.moved_to(&id, nodes)
                };
                let r = if id == j.system {
                    report.get()
                } else {
                    evaluate(&other).map_err(|e| e.to_string())
                };
                let target = report.with(|r| r.as_ref().ok().map(|r| r.train_usd_per_mtok));
                let be = match (&r, target) {
                    (Ok(r), Some(t)) if id != j.system => engine::job::price_to_match(r, t),
                    _ => None,
                };
                let chip = engine::catalog::find(sys.chip).ok()?;
                Some((sys.name, id, nodes, r, be, chip))
            })
            .collect::<Vec<_>>()
    });
    move || {
        let list = rows.get();
        let max_cost = list
            .iter()
            .filter_map(|(_, _, _, r, _, _)| r.as_ref().ok().map(|r| r.cost_usd))
            .fold(0.0, f64::max);
        use crate::widgets::{escape, fig_html_est};
        let mut body = String::new();
        for (name, id, nodes, r, be, chip) in &list {
            let r = match r {
                Err(e) => {
                    body += &format!(
                        "<tr><th scope=\"row\">{}</th><td colspan=\"7\"><span class=\"na\">{}</span></td></tr>",
                        escape(name),
                        escape(e)
                    );
                    continue;
                }
                Ok(r) => r,
            };
            let t = &r.train;
            let parts = [
                ("compute", t.compute.get(), "#0072b2"),
                ("bubble", t.bubble.get(), "#56b4e9"),
                ("tensor-parallel", t.tp_comm.get(), "#e69f00"),
                ("expert all-to-all", t.ep_comm.get(), "#cc79a7"),
                ("data-parallel", t.dp_comm.get(), "#d55e00"),
            ];
            let step = t.step.get();
            let mut x = 0.0;
            let mut bars = String::new();
            for (n, v, c) in parts {
                let w = v / step * r.cost_usd / max_cost * 100.0;
                bars += &format!(
                    "<rect x=\"{x:.2}%\" y=\"2\" width=\"{w:.2}%\" height=\"16\" fill=\"{c}\"><title>{n}: ${}</title></rect>",
                    thousands(v / step * r.cost_usd)
                );
                x += w;
            }
            let per_pf = |d: Dtype| {
                chip.dense(d).map_or("—".to_string(), |p| {
                    format!("${}", sig(r.usd_per_chip_hour.value / (p.get() / 1e15), 3))
                })
            };
            let rate = r.usd_per_chip_hour;
            body += &format!(
                "<tr data-system=\"{}\" data-price-kind=\"{}\" data-price-as-of=\"{}\"><th scope=\"row\">{}<div class=\"sub small\">{} × {} = {} chips</div></th><td>{}<div class=\"sub small{}\">{}</div></td><td>{}</td><td>{}</td><td>{}</td><td data-train-mtok=\"{}\">${}</td><td class=\"barcell\"><svg width=\"100%\" height=\"20\" role=\"img\" aria-label=\"cost of the run by where the time goes\">{bars}</svg><span class=\"small\">${} · {} days</span></td><td data-goodput=\"{}\">{}% · {} days<div class=\"sub small\">{} chips per failure, {} spares, +${}</div></td><td>{}</td></tr>",
                escape(id),
                r.price.kind,
                r.price.as_of,
                escape(name),
                nodes,
                escape(id),
                r.chips,
                fig_html_est(&format!("${}", sig(rate.value, 3)), rate.source, rate.estimate, rate.note),
                if r.price.fell_back { " warn" } else { "" },
                escape(&if r.price.fell_back {
                    format!("no rate on the basis: {} as of {}", r.price.kind, r.price.as_of)
                } else {
                    format!("{} · {}", r.price.kind, r.price.as_of)
                }),
                per_pf(Dtype::Bf16),
                per_pf(Dtype::Fp8),
                per_pf(Dtype::Fp4),
                r.train_usd_per_mtok,
                sig(r.train_usd_per_mtok, 3),
                thousands(r.cost_usd),
                sig(r.time_s / 86400.0, 3),
                r.failures.goodput,
                sig(r.failures.goodput * 100.0, 3),
                sig(r.real_days, 3),
                r.failure_inputs.blast_radius,
                sig(r.failures.spare_chips, 2),
                thousands(r.failure_cost_usd),
                be.map_or("—".to_string(), |p| format!("${}", sig(p, 3)))
            );
        }
        let table = format!(
            "<div class=\"table-wrap\"><table class=\"compare\" id=\"platforms-table\"><thead><tr><th scope=\"col\">Platform</th><th scope=\"col\">$/chip-hour</th><th scope=\"col\">$/PFLOP-h BF16</th><th scope=\"col\">FP8</th><th scope=\"col\">FP4</th><th scope=\"col\">Training $/Mtok</th><th scope=\"col\">Cost of the run</th><th scope=\"col\">With failures: goodput · days</th><th scope=\"col\">Break-even $/chip-h</th></tr></thead><tbody>{body}</tbody></table></div>{}",
            crate::export::table_buttons("platforms-table")
        );
        view! {
            <section class="platforms">
            <h2>"The same job on other platforms"</h2>
            <p class="small-note">"Each platform runs the job on at least as many chips, at its first published (or assumed) rental rate, or at its own default chip price under your ownership inputs when you own the chips. The bar splits the cost of the run by where the step time goes: "
                <span class="swatch" style="background:#0072b2"></span>"compute "<span class="swatch" style="background:#56b4e9"></span>"pipeline bubble "
                <span class="swatch" style="background:#e69f00"></span>"tensor-parallel "<span class="swatch" style="background:#cc79a7"></span>"expert all-to-all "<span class="swatch" style="background:#d55e00"></span>"data-parallel communication. "
                "Break-even: the $/chip-hour at which that platform matches the job's own cost per token."</p>
            <div inner_html=table></div>
            </section>
        }
    }
}

/// Training cost per token as one lever moves, against another platform's cost for the same
/// job, with the break-even point marked.
#[component]
fn BreakEven(
    /// The job as set above.
    job: Memo<Job>,
    /// Its report (evaluated once, above).
    report: Memo<Result<engine::job::JobReport, String>>,
) -> impl IntoView {
    use engine::job::{sensitivity, Lever};
    let sc = use_scenario();
    let data = Memo::new(move |_| {
        let j = job.get();
        let chips = system::find(&j.system)
            .map(|s| s.chips() * j.nodes)
            .unwrap_or(64);
        let other_sys = system::find(&j.compare_with).ok()?;
        let other = Job {
            owned: false,
            ..j.moved_to(&j.compare_with, chips.div_ceil(other_sys.chips()).max(1))
        };
        let (pts, target, be) =
            report.with(|r| sensitivity(&j, r.as_ref().ok()?, &other, j.lever, 41).ok())?;
        Some((pts, target, be, other_sys.name))
    });
    let formats = Memo::new(move |_| {
        let j = job.get();
        let other = Job {
            owned: false,
            ..j.moved_to(&j.compare_with, j.nodes)
        };
        let name = system::find(&j.compare_with).map(|s| s.name).unwrap_or("?");
        engine::job::by_format(&j, &other)
            .ok()
            .map(|rows| (rows, name))
    });
    let levers = Lever::ALL
        .into_iter()
        .map(|l| view! { <option value=l.id() selected=move || sc.with(|s| s.job.lever == l)>{l.label()}</option> })
        .collect_view();
    let refs = PLATFORMS
        .iter()
        .map(|id| {
            let name = system::find(id).map(|s| s.name).unwrap_or("?");
            view! { <option value=*id selected=move || sc.with(|s| s.job.compare_with == *id)>{name}</option> }
        })
        .collect_view();
    let chart = move || {
        let Some((pts, target, be, name)) = data.get() else {
            return view! { <p class="na">"The comparison cannot be evaluated for this job."</p> }
                .into_any();
        };
        let lever = sc.with(|s| s.job.lever);
        let ys: Vec<f64> = pts
            .iter()
            .map(|p| p.1)
            .filter(|y| y.is_finite())
            .chain([target])
            .collect();
        let (ymin, ymax) = (0.0, ys.iter().copied().fold(0.0, f64::max) * 1.1);
        let (x0, x1) = lever.range();
        let (w, h, l, b) = (640.0, 260.0, 56.0, 34.0);
        let px = |x: f64| l + (x - x0) / (x1 - x0) * (w - l - 12.0);
        let py = |y: f64| 10.0 + (1.0 - (y - ymin) / (ymax - ymin).max(1e-12)) * (h - b - 10.0);
        let path: String = pts
            .iter()
            .filter(|p| p.1.is_finite())
            .enumerate()
            .map(|(i, (x, y))| {
                format!(
                    "{}{:.1},{:.1}",
                    if i == 0 { "M" } else { " L" },
                    px(*x),
                    py(*y)
                )
            })
            .collect();
        let fmt_x = move |x: f64| match lever {
            Lever::Price => format!("${}", sig(x, 3)),
            _ => format!("{}%", sig(x * 100.0, 3)),
        };
        let ticks = (0..=4)
            .map(|k| {
                let x = x0 + (x1 - x0) * f64::from(k) / 4.0;
                view! { <text x=px(x) y=h - 12.0 class="tick" text-anchor="middle">{fmt_x(x)}</text> }
            })
            .collect_view();
        let yticks = (0..=3)
            .map(|k| {
                let y = ymin + (ymax - ymin) * f64::from(k) / 3.0;
                view! { <text x=l - 6.0 y=py(y) + 4.0 class="tick" text-anchor="end">{format!("${}", sig(y, 2))}</text> }
            })
            .collect_view();
        let marker = be.map(|x| {
            view! {
                <line x1=px(x) x2=px(x) y1="10" y2=h - b class="be-line"/>
                <circle cx=px(x) cy=py(target) r="5" class="be-dot"/>
            }
        });
        let table = chart_data(
            "breakeven",
            "breakeven-data",
            &[lever.label(), "training $/Mtok", "reference $/Mtok"],
            &pts.iter()
                .map(|(x, y)| vec![sig(*x, 4), sig(*y, 4), sig(target, 4)])
                .collect::<Vec<_>>(),
        );
        let text = match be {
            Some(x) => format!(
                "This job matches {name} at {} = {}.",
                lever.label(),
                fmt_x(x)
            ),
            None => format!("No {} in range makes this job match {name}.", lever.label()),
        };
        view! {
            <svg class="breakeven" id="breakeven" viewBox=format!("0 0 {w} {h}") role="img" aria-label="Break-even chart" aria-describedby="breakeven-text" data-break-even=be.unwrap_or(f64::NAN)>
                <line x1=l x2=w - 12.0 y1=py(target) y2=py(target) class="ref-line"/>
                <text x=w - 14.0 y=py(target) - 6.0 text-anchor="end" class="tick">{format!("{name}: ${}/Mtok", sig(target, 3))}</text>
                <path d=path class="cost-line"/>
                <line x1=l x2=l y1="10" y2=h - b class="axis"/>
                <line x1=l x2=w - 12.0 y1=h - b y2=h - b class="axis"/>
                {ticks}{yticks}{marker}
            </svg>
            <p class="small-note" id="breakeven-text">{text}</p>
            <div inner_html=table></div>
        }
        .into_any()
    };
    view! {
        <div class="card breakeven-card">
            <h2>"Break-even"</h2>
            <div class="controls">
                <label class="inline">"Move "
                    <select name="wlever" on:change=move |ev| {
                        let v = event_target_value(&ev);
                        if let Some(l) = Lever::ALL.iter().find(|l| l.id() == v) { sc.update(|s| s.job.lever = *l); }
                    }>{levers}</select>
                </label>
                <label class="inline">" against "
                    <select name="wref" on:change=move |ev| { let v = event_target_value(&ev); sc.update(|s| s.job.compare_with = v); }>{refs}</select>
                </label>
            </div>
            {chart}
            {move || formats.get().map(|(rows, name)| view! { <ByFormat rows=rows other=name/> })}
        </div>
    }
}

/// $ per marketed dense PFLOP-hour by format on the job's platform and the one compared:
/// where the job's platform stops being the cheaper one.
#[component]
fn ByFormat(rows: Vec<engine::job::FormatCost>, other: &'static str) -> impl IntoView {
    // The floating-point tensor formats models train and serve in (16 bits and narrower).
    let rows: Vec<_> = rows
        .into_iter()
        .filter(|r| {
            matches!(
                r.dtype,
                Dtype::Bf16 | Dtype::Fp16 | Dtype::Fp8 | Dtype::Fp6 | Dtype::Fp4
            )
        })
        .collect();
    let max = rows
        .iter()
        .flat_map(|r| [r.usd_a, r.usd_b])
        .flatten()
        .fold(0.0, f64::max)
        .max(1e-12);
    let len = |v: f64| format!("{:.1}", (v / max * 360.0).max(0.5));
    let wins: Vec<&str> = rows
        .iter()
        .filter(|r| r.ratio().is_some_and(|x| x < 1.0))
        .map(|r| r.dtype.label())
        .collect();
    let loses: Vec<&str> = rows
        .iter()
        .filter(|r| r.ratio().is_some_and(|x| x >= 1.0))
        .map(|r| r.dtype.label())
        .collect();
    let text = format!(
        "Cheaper than {other} per marketed PFLOP-hour in {}; dearer in {}. Each platform at its own rate ÷ its dense peak in that format.",
        if wins.is_empty() { "no format".to_string() } else { wins.join(", ") },
        if loses.is_empty() { "no format".to_string() } else { loses.join(", ") }
    );
    let row_h = 30.0;
    let bars = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let (a, b) = (r.usd_a.unwrap_or(0.0), r.usd_b.unwrap_or(0.0));
            let ratio = r.ratio().unwrap_or(f64::NAN);
            let y = i as f64 * row_h + 4.0;
            view! {
                <g data-format=r.dtype.id() data-ratio=ratio>
                    <text x="0" y=y + 15.0 class="fmt-label">{r.dtype.label()}</text>
                    <rect x="60" y=y + 2.0 height="10" width=len(a) class="fmt-a"><title>{format!("this job's platform: ${}/PFLOP-hour", sig(a, 3))}</title></rect>
                    <rect x="60" y=y + 14.0 height="10" width=len(b) class="fmt-b"><title>{format!("{other}: ${}/PFLOP-hour", sig(b, 3))}</title></rect>
                    <text x="430" y=y + 17.0 class="fmt-text">{format!("${} vs ${} · {}×", sig(a, 3), sig(b, 3), sig(ratio, 2))}</text>
                </g>
            }
        })
        .collect_view();
    let h = rows.len() as f64 * row_h + 8.0;
    let data = chart_data(
        "by-format",
        "by-format-data",
        &[
            "format",
            "this job's platform, $/PFLOP-hour",
            &format!("{other}, $/PFLOP-hour"),
            "ratio",
        ],
        &rows
            .iter()
            .map(|r| {
                vec![
                    r.dtype.label().to_string(),
                    r.usd_a.map_or("—".into(), |v| sig(v, 4)),
                    r.usd_b.map_or("—".into(), |v| sig(v, 4)),
                    r.ratio().map_or("—".into(), |v| sig(v, 3)),
                ]
            })
            .collect::<Vec<_>>(),
    );
    view! {
        <h3>"By format: $ per marketed PFLOP-hour"</h3>
        <p class="legend-line"><span class="swatch fmt-a"></span>"this job's platform "<span class="swatch fmt-b"></span>{other}</p>
        <svg class="by-format" id="by-format" viewBox=format!("0 0 640 {h}") role="img" aria-label="Cost per marketed PFLOP-hour by format" aria-describedby="by-format-text">{bars}</svg>
        <p class="small-note" id="by-format-text">{text}</p>
        <div inner_html=data></div>
    }
}

/// One row of the layout-search table.
#[derive(Clone, PartialEq)]
struct LayoutRow {
    layout: String,
    tokens_per_s: f64,
    mfu: f64,
    step: String,
    memory: String,
}

/// The layout search, run in slices of about 4 ms so the page stays responsive: progress,
/// the fastest layouts that fit, and why the others do not.
#[component]
fn LayoutSearchPanel(job: Memo<Job>) -> impl IntoView {
    let progress = RwSignal::new((0usize, 0usize));
    let rows = RwSignal::new(Vec::<LayoutRow>::new());
    let reasons = RwSignal::new(Vec::<(String, usize)>::new());
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let j = job.get();
        let my = generation.get_value() + 1;
        generation.set_value(my);
        rows.set(Vec::new());
        reasons.set(Vec::new());
        match layout_search(&j) {
            Ok(s) => {
                progress.set((0, s.total()));
                // Start after this input's own recompute and redraw.
                gloo::timers::callback::Timeout::new(0, move || {
                    run_slice(s, my, generation, progress, rows, reasons);
                })
                .forget();
            }
            Err(_) => progress.set((0, 0)),
        }
    });
    view! {
        <details class="card layout-search" id="layout-search">
            <summary>
                "Layout search: "
                <progress max=move || progress.get().1.max(1) value=move || progress.get().0></progress>
                {move || { let (a, b) = progress.get(); format!(" {a} of {b} layouts tried") }}
            </summary>
            <p class="small-note">"Tensor degrees that divide the scale-up domain, every pipeline depth up to the layer count (uneven stages paced by the largest), expert parallelism for MoE models, and recomputation on or off. The job above uses the fastest."</p>
            <div class="table-wrap">
                <table class="data" id="layouts-table">
                    <thead><tr><th scope="col">"layout"</th><th scope="col">"tokens/s"</th><th scope="col">"MFU"</th><th scope="col">"step"</th><th scope="col">"memory/chip"</th></tr></thead>
                    <tbody>
                        {move || rows.get().into_iter().map(|r| view! {
                            <tr><th scope="row">{r.layout}</th><td>{thousands(r.tokens_per_s)}</td><td>{format!("{}%", sig(r.mfu * 100.0, 3))}</td><td>{r.step}</td><td>{r.memory}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            <div inner_html=crate::export::table_buttons("layouts-table")></div>
            <ul class="small-note">
                {move || reasons.get().into_iter().map(|(why, n)| view! { <li>{format!("{n} rejected: {why}")}</li> }).collect_view()}
            </ul>
        </details>
    }
}

fn run_slice(
    mut s: engine::workload::LayoutSearch,
    my: u64,
    generation: StoredValue<u64>,
    progress: RwSignal<(usize, usize)>,
    rows: RwSignal<Vec<LayoutRow>>,
    reasons: RwSignal<Vec<(String, usize)>>,
) {
    if generation.try_get_value() != Some(my) {
        return;
    }
    let now = || {
        web_sys::window()
            .and_then(|w| w.performance())
            .map_or(0.0, |p| p.now())
    };
    let t0 = now();
    while !s.done() && now() - t0 < 4.0 {
        s.step(4);
    }
    progress.set((s.tried(), s.total()));
    rows.set(
        s.ranked(8)
            .into_iter()
            .map(|r| LayoutRow {
                layout: r.layout.to_string(),
                tokens_per_s: r.tokens_per_s,
                mfu: r.mfu,
                step: r.step.to_string(),
                memory: engine::Bytes::new(r.memory.total()).display_si(),
            })
            .collect(),
    );
    if s.done() {
        let mut by: Vec<(String, usize)> = Vec::new();
        for (_, e) in s.rejected() {
            let why = e.to_string();
            // Group by the reason's kind, not its figures.
            let key = why.split(':').next().unwrap_or(&why).to_string();
            match by.iter_mut().find(|(k, _)| *k == key) {
                Some((_, n)) => *n += 1,
                None => by.push((key, 1)),
            }
        }
        reasons.set(by);
    } else {
        gloo::timers::callback::Timeout::new(0, move || {
            run_slice(s, my, generation, progress, rows, reasons);
        })
        .forget();
    }
}

/// Vendors' published claims beside the model's figure for a comparable job, evaluated when
/// the panel is first opened.
#[component]
fn Claims() -> impl IntoView {
    use crate::widgets::{table_html, HtmlRow, RowCells};
    let open = RwSignal::new(false);
    let html = move || {
        open.get().then(|| {
            let checks = engine::claims::checks();
            let data: Vec<[(&str, String); 2]> = checks
                .iter()
                .map(|c| {
                    let m = c.model.as_ref().ok().copied().unwrap_or(f64::NAN);
                    [
                        ("claimed", c.claimed.0.to_string()),
                        ("model", m.to_string()),
                    ]
                })
                .collect();
            let cells: Vec<RowCells<1, 1>> = checks
                .iter()
                .map(|c| {
                    let m = c.model.as_ref().ok().copied();
                    (
                        [c.vendor.to_string()],
                        [(
                            m.map_or_else(
                                || "does not evaluate".into(),
                                |x| format!("{}×", sig(x, 3)),
                            ),
                            false,
                        )],
                    )
                })
                .collect();
            let rows: Vec<HtmlRow> = checks
                .iter()
                .zip(&data)
                .zip(&cells)
                .map(|((c, d), (lead, cells))| HtmlRow {
                    data: d,
                    lead,
                    label: (c.claim, &c.setup),
                    fig: (
                        if (c.claimed.0 - c.claimed.1).abs() < 1e-9 {
                            format!("{}×", sig(c.claimed.0, 3))
                        } else {
                            format!("{}–{}×", sig(c.claimed.0, 3), sig(c.claimed.1, 3))
                        },
                        engine::Source::Cited { citation: c.source },
                        c.note,
                    ),
                    cells,
                })
                .collect();
            table_html(
                "claims-table",
                &["Vendor", "Claim, and the model's job", "Claimed", "Model"],
                &rows,
            )
        })
    };
    view! {
        <details class="card" id="claims" on:toggle=move |_| open.set(true)>
            <summary><h2 class="inline-h">"Vendors' claims against the model"</h2></summary>
            <p class="small-note">"Each claim is put to a comparable job at published prices; where the job differs from the vendor's, the row says how. A model far from a claim is a question to ask the vendor, or the model."</p>
            <div inner_html=move || html().unwrap_or_default()></div>
        </details>
    }
}

/// Published measurements against the model's figure for each: the points a parameter was
/// fitted to, then the held-out ones that check it, family by family.
#[component]
fn RunCalibration(
    /// The calibration set, evaluated once for the page.
    points: StoredValue<Vec<engine::calibration::RunPoint>>,
) -> impl IntoView {
    use engine::calibration::{Metric, Role, TOLERANCE};
    let points = points.get_value();
    let count = |id: &str| points.iter().filter(|p| p.role.id() == id).count();
    let outside = points
        .iter()
        .filter(|p| p.role != Role::Departs && !p.within())
        .count();
    let bounds = TOLERANCE
        .iter()
        .map(|(f, fit, other)| {
            format!(
                "{} ±{:.0}% fitted, ±{:.0}% otherwise",
                f.id(),
                fit * 100.0,
                other * 100.0
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    let group = |role: &str, id: &str| {
        use crate::widgets::{table_html, HtmlRow, RowCells};
        let pts: Vec<_> = points.iter().filter(|p| p.role.id() == role).collect();
        let fmt = |p: &engine::calibration::RunPoint, x: f64| match p.measured {
            Metric::TokensPerS(_) => format!("{} tok/s", thousands(x)),
            Metric::Mfu(_) => format!("{}% MFU", sig(x * 100.0, 3)),
            Metric::Busbw(_) => format!("{} GB/s busbw", sig(x / 1e9, 4)),
            Metric::Time(_) => format!("{} µs", sig(x * 1e6, 3)),
        };
        let data: Vec<[(&str, String); 4]> = pts
            .iter()
            .map(|p| {
                [
                    ("role", role.to_string()),
                    ("family", p.family.id().to_string()),
                    ("error", p.error().unwrap_or(f64::NAN).to_string()),
                    ("tolerance", p.tolerance().to_string()),
                ]
            })
            .collect();
        let cells: Vec<RowCells<1, 3>> = pts
            .iter()
            .map(|p| {
                let model = p.model.as_ref().ok().copied();
                let err = p.error();
                (
                    [p.family.id().to_string()],
                    [
                        (
                            model
                                .map(|m| fmt(p, m))
                                .unwrap_or_else(|| "does not fit".into()),
                            false,
                        ),
                        (
                            err.map(|e| format!("{:+.1}%", e * 100.0))
                                .unwrap_or_default(),
                            p.role != Role::Departs && !p.within(),
                        ),
                        (
                            match p.role.held_out_since() {
                                Some(d) => format!("±{:.0}% (since {d})", p.tolerance() * 100.0),
                                None => format!("±{:.0}%", p.tolerance() * 100.0),
                            },
                            false,
                        ),
                    ],
                )
            })
            .collect();
        let rows: Vec<HtmlRow> = pts
            .iter()
            .zip(&data)
            .zip(&cells)
            .map(|((p, d), (lead, cells))| HtmlRow {
                data: d,
                lead,
                label: (p.label, &p.setup),
                fig: (
                    fmt(p, p.measured.value()),
                    engine::Source::Cited { citation: p.source },
                    p.note,
                ),
                cells,
            })
            .collect();
        table_html(
            id,
            &[
                "Family",
                "Measurement",
                "Published",
                "Model",
                "Difference",
                "Allowed",
            ],
            &rows,
        )
    };
    view! {
        <details class="card" id="run-calibration">
            <summary><h2 class="inline-h">"The model against published measurements"</h2></summary>
            <p class="small-note">{format!(
                "Calibration as a method: {} points set a parameter, {} check it with nothing fitted and nothing changed while looking at them (each dated when it entered), {} were in view while the mechanism they check was built (kept within their bound, but no evidence), and {} the model departs from, shown last with the reason. Bounds: {bounds}. {} The ranges on the headline cards come from the held-out points only. Hover a figure for its source and assumptions.",
                count("fitted"),
                count("held-out"),
                count("tuned-against"),
                count("departs"),
                if outside == 0 { "Every point that is not a departure is within its bound.".to_string() } else { format!("{outside} outside its bound.") }
            )}</p>
            {Role::IDS
                .iter()
                .map(|&id| {
                    let table_id = match id {
                        "held-out" => "run-calibration-table".to_string(),
                        _ => format!("run-calibration-{id}"),
                    };
                    view! {
                        <h3>{format!("{}{}: {}", id[..1].to_uppercase(), id[1..].replace('-', " "), Role::meaning(id))}</h3>
                        <div inner_html=group(id, &table_id)></div>
                    }
                })
                .collect_view()}
        </details>
    }
}

/// The failure model's inputs: each empty field uses the sourced default shown in it.
#[component]
fn FailureAssumptions() -> impl IntoView {
    let sc = use_scenario();
    let error = RwSignal::new(None::<String>);
    let rel = engine::reliability::fitted_rate().value;
    let field = move |label: &'static str,
                      key: &'static str,
                      unit: &'static str,
                      scale: f64,
                      default: String,
                      get: fn(&Job) -> Option<f64>,
                      set: fn(&mut Job, Option<f64>)| {
        let (lo, hi) = engine::job::range(key).unwrap_or((0.0, 0.0));
        view! {
            <label class="field num">{label}
                <span class="pair">
                    <input type="text" inputmode="decimal" name=key placeholder=default
                        prop:value=move || sc.with(|s| get(&s.job).map_or(String::new(), |x| sig(x / scale, 4)))
                        on:change=move |ev| {
                            let raw = event_target_value(&ev);
                            if raw.trim().is_empty() {
                                error.set(None);
                                sc.update(|s| set(&mut s.job, None));
                                return;
                            }
                            match raw.trim().parse::<f64>() {
                                Ok(x) if x.is_finite() && x * scale >= lo && x * scale <= hi => {
                                    error.set(None);
                                    sc.update(|s| set(&mut s.job, Some(x * scale)));
                                }
                                _ => error.set(Some(format!(
                                    "{label}: '{raw}' is not a number from {} to {} {unit}; the previous value is kept (empty uses the default).",
                                    sig(lo / scale, 3), sig(hi / scale, 3)
                                ))),
                            }
                        }/>
                    " "{unit}
                </span>
            </label>
        }
    };
    view! {
        <details class="card failure-inputs" id="failure-inputs" open=sc.with_untracked(|s| {
            let j = &s.job;
            j.fail_rate.is_some() || j.repair_h.is_some() || j.restart_min.is_some() || j.ckpt_bytes_per_s.is_some()
        })>
            <summary>"Failure assumptions"</summary>
            <p class="small-note">"Empty fields use the defaults shown: the interruption rate fitted to published clusters, repair by the unit a failure takes down (4 h up to 16 chips, else 24 h), a 10-minute restart and 1 GB/s of checkpoint writes per chip. Your figures go into the link and the With failures card marks them as yours."</p>
            <div class="input-grid">
                {field("Interruptions per chip-hour", "wfrate", "per chip-hour", 1.0, format!("{rel:.2e}"), |j| j.fail_rate, |j, x| j.fail_rate = x)}
                {field("Repair time", "wrepair", "h", 1.0, "by blast radius".into(), |j| j.repair_h, |j, x| j.repair_h = x)}
                {field("Restart", "wrestart", "min", 1.0, "10".into(), |j| j.restart_min, |j, x| j.restart_min = x)}
                {field("Checkpoint writes", "wckpt", "GB/s per chip", 1e9, "1".into(), |j| j.ckpt_bytes_per_s, |j, x| j.ckpt_bytes_per_s = x)}
            </div>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
        </details>
    }
}

/// Your own model: paste a Hugging Face config.json or edit the shape's spec; the model's
/// parameter count beside the published one where the shape is a known model.
#[component]
fn OwnModel() -> impl IntoView {
    let sc = use_scenario();
    let pasted = RwSignal::new(String::new());
    let notes = RwSignal::new(Vec::<String>::new());
    let error = RwSignal::new(None::<String>);
    let read = move |_| match workload::custom::from_hf_config(&pasted.get_untracked()) {
        Ok((m, n)) => {
            error.set(None);
            notes.set(n);
            sc.update(|s| s.job.model = m.id);
        }
        Err(e) => {
            notes.set(Vec::new());
            error.set(Some(format!("This config.json cannot be used: {e}")));
        }
    };
    let spec = move || {
        sc.with(|s| workload::find_model(&s.job.model))
            .map(|m| m.to_spec())
            .unwrap_or_default()
    };
    let set_spec = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        match workload::Model::parse_spec(v.trim()) {
            Ok(m) => {
                error.set(None);
                sc.update(|s| s.job.model = m.id);
            }
            Err(e) => error.set(Some(format!("This shape cannot be used: {e}"))),
        }
    };
    let summary = move || {
        let Ok(m) = sc.with(|s| workload::find_model(&s.job.model)) else {
            return String::new();
        };
        let b = |x: f64| format!("{} B", sig(x / 1e9, 4));
        let mut t = format!(
            "{}: {} parameters, {} active per token; KV cache {} KiB per token in BF16.",
            m.name,
            b(m.params_total()),
            b(m.params_active()),
            sig(m.kv_bytes_per_token(Dtype::Bf16) / 1024.0, 4)
        );
        if let Some(p) = workload::custom::published(&m) {
            t.push_str(&format!(
                " Published for {}: {}{} ({}).",
                p.name,
                b(p.total),
                p.active
                    .map_or(String::new(), |a| format!(", {} active", b(a))),
                p.source.title
            ));
        }
        t
    };
    view! {
        <details class="card own-model" id="own-model">
            <summary>"Your own model: paste a config.json or edit the shape"</summary>
            <p class="small-note" id="model-summary">{summary}</p>
            <label class="field wide">
                "A Hugging Face config.json (Llama, Mistral, Mixtral, Qwen2/3 dense and MoE, DeepSeek-V2/V3, GPT-2)"
                <textarea name="wconfig" rows="6" spellcheck="false" prop:value=pasted
                    on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
            </label>
            <button on:click=read>"Use this model"</button>
            <label class="field wide">
                "The shape (l layers, d hidden, h heads, kv key/value heads, f FFN, v vocabulary, s sequence; MoE: e experts, k per token, ef expert FFN, sh shared, dl dense layers; hd head dimension, mla latent attention, n: name)"
                <input type="text" name="wspec" spellcheck="false" prop:value=spec on:change=set_spec/>
            </label>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            {move || {
                let n = notes.get();
                (!n.is_empty()).then(|| view! { <ul class="small-note">{n.into_iter().map(|x| view! { <li>{x}</li> }).collect_view()}</ul> })
            }}
        </details>
    }
}
