//! The Workload page's inputs: the job, its failure assumptions, a model of your own and how AWS's link figures are read.

use super::*;

/// The job's inputs.
#[component]
pub(super) fn Inputs() -> impl IntoView {
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
                            aria-label=format!("{label} (slider)")
                            on:input=move |ev| apply(event_target_value(&ev))/>
                    })}
                    // A label names only its first field: the box says its own name.
                    <input type="text" inputmode="decimal" name=key prop:value=move || input_text(value()) aria-label=label
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
                <label class="field num">
                    "Micro-batch (sequences a pass)"
                    <span class="pair"><input type="text" inputmode="numeric" name="wmb" placeholder="auto" size="6"
                        prop:value=move || sc.with(|s| s.job.micro_batch.map_or(String::new(), |n| n.to_string()))
                        on:change=move |ev| {
                            let raw = event_target_value(&ev);
                            let (lo, hi) = engine::keys::range("wmb").unwrap_or((1.0, 1.0));
                            match raw.trim() {
                                "" => { error.set(None); sc.update(|s| s.job.micro_batch = None); }
                                t => match t.parse::<u32>() {
                                    Ok(n) if (lo..=hi).contains(&f64::from(n)) => { error.set(None); sc.update(|s| s.job.micro_batch = Some(n)); }
                                    _ => error.set(Some(format!("Micro-batch: '{raw}' is not a whole number from {lo} to {hi} (or empty, for the layout search's choice); the previous value is kept."))),
                                },
                            }
                        }/></span>
                </label>
                {select("Offload layer inputs to host", "woff",
                    vec![("auto".into(), "where nothing else fits".into()), ("1".into(), "always".into()), ("0".into(), "never".into())],
                    |j| match j.offload { None => "auto".into(), Some(true) => "1".into(), Some(false) => "0".into() },
                    |j, v| j.offload = match v.as_str() { "1" => Some(true), "0" => Some(false), _ => None })}
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
                                // The date first, so a narrow select still shows it.
                                let text = format!("{} · {}{}", b.as_of, b.kind.label(), if is_default { " (default: the newest on which Trn2 and H100 both have a rate)" } else { "" });
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
            <details class="defaults-note">
            <summary class="small-note">"Where the defaults come from"</summary>
            <p class="small-note" id="job-defaults">
                {move || {
                    // The figures as the engine holds them, for the job's model version.
                    let version = sc.with(|s| s.job.model_version);
                    let pct = |chip: &str, d: engine::Dtype| {
                        engine::find(chip).map_or_else(|_| "?".into(), |c| {
                            let e = if c.id.starts_with("trn") {
                                engine::efficiency::default_bf16_at(&c, version).value
                            } else {
                                let m = engine::efficiency::matmul(&c, d);
                                m.large(m.bf16.value)
                            };
                            format!("{:.1}%", e * 100.0)
                        })
                    };
                    format!(
                        "Defaults: BF16 matmuls at the chip's measured maximum (H100 {}, B200 {}, GB200 {} of peak; ml-engineering's MAMF table); Trainium's {} is fitted to the Trn1 GPT-3 175B run and checked against three other Trn1 runs. Narrower formats reach less of their own peak: FP8 at the measured FP8 maximum (H100 {}), FP4 assumed alike; attention, the output head and elementwise work stay in BF16 and casts to FP8 are costed. Serving kernels reach {:.2} of that rate, fitted to NVIDIA's MLPerf v4.1 H200 Llama 2 70B result; requests of 1,024 prompt and 256 output tokens are an assumption. ",
                        pct("h100-sxm", engine::Dtype::Bf16),
                        pct("b200", engine::Dtype::Bf16),
                        pct("gb200", engine::Dtype::Bf16),
                        pct("trn1", engine::Dtype::Bf16),
                        pct("h100-sxm", engine::Dtype::Fp8),
                        engine::workload::SERVING_KERNEL_FACTOR
                    )
                }}
                "Communication hidden behind compute: 10% on Trainium (dedicated collective cores), none on GPUs, assumptions bounded by the Trn1 GPT-3 calibration run. "
                "Ownership: $1,000 networking per chip and an average draw of 80% of full load are assumptions. Ownership defaults are assumptions: 5 years, 8% cost of capital, PUE 1.2, $0.08/kWh, "
                "$150 per kW-month of facility, 3% maintenance a year, and an all-in power per chip that includes its share of host and network."
            </p>
            </details>
        </div>
    }
}

/// How AWS's NeuronLink figures are read for a Trainium job, the arithmetic, and the other
/// reading one click away with what it changes in the headline figures.
#[component]
pub(super) fn LinkReadingCard(
    /// The job as set above.
    job: Memo<Job>,
) -> impl IntoView {
    use engine::system::{self, LinkReading};
    let sc = use_scenario();
    // The same job read the other way, evaluated in the worker.
    let effect = crate::background::drawn(view::protocol::View::Reading);
    let readings = Memo::new(move |_| {
        job.with(|j| {
            system::find(&j.system)
                .ok()
                .and_then(|sys| system::reading(&sys))
        })
    });
    move || {
        let (used, alt) = readings.get()?;
        let current = job.with(|j| j.link_reading);
        let flip = view::reading::flipped(current);
        let (now, then) = match current {
            LinkReading::PerDirection => (alt, used),
            LinkReading::Legacy => (
                "as links made before version 4 read them: Trn2's figures as labelled, Trn3's per direction".to_string(),
                used,
            ),
            LinkReading::AsLabelled => (used, alt),
        };
        Some(view! {
            <div class="card" id="link-reading" data-reading=current.id()>
                <h2>"How AWS's link figures are read"</h2>
                <p class="small-note">{format!("In use: {now}.")}</p>
                <p class="small-note">{format!("The other reading: {then}.")}</p>
                <p class="small-note deferred" id="link-reading-effect" class:updating=move || effect.updating.get()
                    inner_html=move || effect.value.get().unwrap_or_default()></p>
                <button type="button" on:click=move |_| sc.update(|s| s.job.link_reading = flip)>
                    {if flip == LinkReading::PerDirection { "Read them per direction" } else { "Read them as labelled" }}
                </button>
            </div>
        })
    }
}

/// The failure model's inputs: each empty field uses the sourced default shown in it.
#[component]
pub(super) fn FailureAssumptions() -> impl IntoView {
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
pub(super) fn OwnModel() -> impl IntoView {
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
