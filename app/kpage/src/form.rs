//! The page's markup as escaped strings, and the form read back into a [`KernelSpec`].

use engine::formats::{Format, ScaleFormat, Scaling};
use engine::kernels::device::{DeviceRoof, Engine};
use engine::kernels::{Accumulator, Distribution, Kernel, KernelSpec, Operand};
use engine::units::sig;
use std::fmt::Write as _;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement};

/// The page's own styles, injected with it (the first page's stylesheet does not carry them).
const STYLE: &str = r#"
.kform, .ncform { display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: 0.6rem 1rem; }
.kform fieldset, .ncform fieldset { border: 1px solid var(--line); border-radius: 8px; background: var(--card); padding: 0.4rem 0.7rem 0.6rem; margin: 0; min-width: 0; }
.kform legend, .ncform legend { font-weight: 600; font-size: 0.85rem; color: var(--muted); }
.kform label, .ncform label { display: flex; align-items: center; justify-content: space-between; gap: 0.5rem; margin: 0.2rem 0; font-size: 0.92rem; }
.kform input[type=number], .ncform input[type=number] { width: 6.5rem; font: inherit; padding: 0.25rem 0.4rem; border: 1px solid #b9c3ce; border-radius: 6px; }
.kform .hide, .ncform .hide { display: none; }
.kform label select { max-width: 11rem; min-width: 0; }
.kernels-page button:disabled { opacity: 0.5; cursor: default; }
.kfold-bar { display: none; }
main.embedded .kernels-page > :not(h1):not(.kexp), main.embedded .kexp > :not(.kanswer), main.embedded .kactions, main.embedded .kformula, main.embedded .kest, main.embedded .ncsec { display: none; }
main.embedded .kresult { display: grid; grid-template-columns: auto minmax(0, 1fr); column-gap: 1rem; align-items: start; font-size: 0.8rem; padding: 0.4rem 0.6rem; margin: 0.3rem 0; }
main.embedded .kresult > .formula { grid-column: 1 / -1; margin: 0 0 0.3rem; }
main.embedded .kresult .kcols > div:has(.kround), main.embedded .kresult .kspeed { display: none; }
main.embedded .kresult .khist { margin: 0; }
main.embedded .kresult .grid td, main.embedded .kresult .grid th { padding: 0.1rem 0.4rem; }
@media (max-width: 640px) {
  .kexp { display: flex; flex-direction: column; }
  .kexp > .kanswer { order: 1; }
  .kexp > .kfold-bar { order: 2; display: flex; align-items: center; justify-content: space-between; gap: 0.5rem; background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 0.4rem 0.6rem; margin: 0.6rem 0; }
  .kexp > .kinputs { order: 3; }
  .kexp:not(.kshow) > .kinputs { display: none; }
}
.krecipes { display: flex; flex-wrap: wrap; gap: 0.35rem; margin: 0.8rem 0 0.4rem; align-items: center; }
.kactions { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin: 0.6rem 0; }
.kest, .kformula { color: var(--muted); font-size: 0.9rem; margin: 0.3rem 0; max-width: 90ch; }
.kstatus.working::before, .ncstatus.working::before { content: ""; display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.4em; border: 2px solid var(--accent); border-right-color: transparent; border-radius: 50%; animation: kspin 0.8s linear infinite; vertical-align: -0.1em; }
@keyframes kspin { to { transform: rotate(360deg); } }
.kstatus .err { color: var(--err); }
.kresult, .ncresult { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 0.6rem 0.9rem; margin: 0.8rem 0; }
.kcols { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: flex-start; }
.kresult table, .ksweep, .kdev { border-collapse: collapse; font-size: 0.9rem; }
.kresult th, .kresult td, .ksweep th, .ksweep td, .kdev th, .kdev td { border-bottom: 1px solid var(--line); padding: 0.2rem 0.6rem; text-align: left; }
.kresult td, .ksweep td:not(:first-child), .kdev td:not(:first-child) { font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: 0.2rem 0; }
.khist { margin: 0.6rem 0; max-width: 34rem; }
.khist svg { width: 100%; height: auto; }
.khist rect { fill: #0b6bcb; }
.khist text { font-size: 9px; fill: #5b6776; }
.khist line { stroke: #9aa5b1; }
.khist figcaption { color: var(--muted); font-size: 0.85rem; }
.ksweep { margin: 0.8rem 0; width: 100%; max-width: 52rem; }
.kbar { width: 30%; }
.ksweep td:not(:first-child) { white-space: nowrap; }
.kbar span { display: block; height: 0.7em; background: #0b6bcb; border-radius: 2px; }
.kwrap { overflow-x: auto; }
"#;

/// Escapes text for HTML.
pub use view::escape as esc;

pub fn select(name: &str, options: &[(&str, &str)], chosen: &str) -> String {
    let mut s = format!(r#"<select name="{name}">"#);
    for (id, label) in options {
        let sel = if *id == chosen { " selected" } else { "" };
        let _ = write!(s, r#"<option value="{id}"{sel}>{}</option>"#, esc(label));
    }
    s.push_str("</select>");
    s
}

fn formats() -> Vec<(&'static str, &'static str)> {
    Format::ALL.iter().map(|f| (f.id(), f.label())).collect()
}

fn operand_html(legend: &str, key: &str, o: &Operand) -> String {
    let (kind, size, scale) = match o.scaling {
        Scaling::None => ("none", 32, ScaleFormat::E8m0),
        Scaling::Tensor => ("tensor", 32, ScaleFormat::E8m0),
        Scaling::Block { size, scale } => ("block", size, scale),
    };
    let hide = if kind == "block" { "" } else { " hide" };
    let scales: Vec<(&str, &str)> = ScaleFormat::ALL
        .iter()
        .map(|s| {
            (
                s.id(),
                match s {
                    ScaleFormat::E8m0 => "E8M0 (MX)",
                    ScaleFormat::E4m3 => "E4M3 × FP32 (NVFP4)",
                    ScaleFormat::Fp32 => "FP32 (ideal)",
                },
            )
        })
        .collect();
    format!(
        r#"<fieldset><legend>{legend}</legend><label>format {}</label><label>scaling {}</label><label class="kblock kb-{key}{hide}">block size <input type="number" name="{key}b" min="1" max="4096" value="{size}"></label><label class="kblock kb-{key}{hide}">scale {}</label></fieldset>"#,
        select(key, &formats(), o.format.id()),
        select(
            &format!("{key}s"),
            &[
                ("none", "none"),
                ("tensor", "one FP32 scale per tensor"),
                ("block", "per block")
            ],
            kind
        ),
        select(&format!("{key}sf"), &scales, scale.id()),
    )
}

/// The whole page.
pub fn page_html(spec: &KernelSpec, device: &[DeviceRoof], gpu: &str) -> String {
    let kernels: Vec<(&str, &str)> = Kernel::ALL.iter().map(|k| (k.id(), k.label())).collect();
    let accs: Vec<(&str, &str)> = Accumulator::ALL.iter().map(|a| (a.id(), a.id())).collect();
    let dists: Vec<(&str, &str)> = Distribution::ALL
        .iter()
        .map(|d| (d.id(), d.label()))
        .collect();
    let dims = spec.kernel.dims();
    let third_hidden = if dims[2] == "-" { " hide" } else { "" };
    let mut h = format!("<style>{STYLE}</style>");
    h.push_str(r#"<section class="page kernels-page"><h1>Kernels</h1><p class="lead">Real kernels run in this tab, in a Web Worker, on inputs rounded to the format you choose, and are compared with an f64 reference computed from the unrounded inputs. Everything is seeded, so the link reproduces the run exactly.</p>"#);
    // The experiment: its inputs, then its answer; on a phone the answer comes first and the
    // inputs fold into one line (the `kshow` class unfolds them).
    h.push_str(r#"<div class="kexp"><div class="kfold-bar"><span class="small-note">Kernel, sizes, formats and seed as the link sets them.</span><button type="button" class="small" data-act="fold" aria-expanded="false">Change inputs</button></div><div class="kinputs">"#);
    h.push_str(r#"<div class="krecipes" role="group" aria-label="Recipes"><span>Recipes:</span>"#);
    for (v, label) in [
        ("bf16", "BF16"),
        ("fp8e4m3", "FP8 E4M3"),
        ("mxfp8", "MXFP8"),
        ("mxfp6", "MXFP6"),
        ("mxfp4", "MXFP4"),
        ("nvfp4", "NVFP4"),
        ("int8", "INT8"),
    ] {
        let _ = write!(
            h,
            r#"<button type="button" class="small" data-act="recipe" data-v="{v}">{label}</button>"#
        );
    }
    h.push_str("</div>");
    let _ = write!(
        h,
        r#"<form class="kform"><fieldset><legend>Kernel</legend><label>kernel {}</label><label><span class="kd0">{}</span> <input type="number" name="km" min="1" max="16384" value="{}"></label><label><span class="kd1">{}</span> <input type="number" name="kn" min="1" max="16384" value="{}"></label><label class="kd2w{third_hidden}"><span class="kd2">{}</span> <input type="number" name="kk" min="1" max="16384" value="{}"></label></fieldset>"#,
        select("kern", &kernels, spec.kernel.id()),
        dims[0],
        spec.m,
        dims[1],
        spec.n,
        dims[2],
        spec.k
    );
    h.push_str(&operand_html("Inputs (activations, Q)", "kin", &spec.input));
    h.push_str(&operand_html(
        "Weights (B, gamma/beta, K and V)",
        "kw",
        &spec.weight,
    ));
    let _ = write!(
        h,
        r#"<fieldset><legend>Arithmetic and data</legend><label>accumulator {}</label><label>output {}</label><label>inputs drawn {}</label><label>seed <input type="number" name="kseed" min="0" value="{}"></label><label>stochastic rounding <input type="checkbox" name="ksr"{}></label><label>saturate on overflow <input type="checkbox" name="ksat"{}></label></fieldset></form>"#,
        select("kacc", &accs, spec.acc.id()),
        select("kout", &formats(), spec.output.id()),
        select("kdist", &dists, spec.dist.id()),
        spec.seed,
        if spec.stochastic { " checked" } else { "" },
        if spec.saturate { " checked" } else { "" },
    );
    h.push_str(r#"</div><div class="kanswer"><p class="kformula"></p><p class="kest"></p><div class="kactions"><button type="button" data-act="run">Run</button><button type="button" data-act="sweep">Compare every format</button><button type="button" data-act="cancel" disabled>Cancel</button><span class="kstatus" role="status" aria-live="polite"></span></div><div id="kresult" class="kwrap"></div><div id="ksweep" class="kwrap"></div></div></div>"#);
    let _ = write!(
        h,
        r#"<h2>This device on the roofline</h2><p class="lead">Measures this machine's f32 GEMM rate and memory bandwidth (STREAM triad), with one thread and then with one Web Worker per core. The roofs are drawn on the Roofline page beside the catalog's chips and travel in the link as numbers; opening a link never measures again. Only f32 is timed: WebAssembly's standard SIMD has no BF16, FP8 or INT8 multiply (relaxed SIMD's dot products are not in every browser), so a narrower format here would be f32 arithmetic on converted values, as the kernels above are.</p><div class="kactions"><button type="button" data-act="bench">Measure this device</button></div><div id="kdevice" class="kwrap">{}</div><p id="kgpu" class="kest">{}</p></section>"#,
        device_html(device),
        esc(gpu)
    );
    h
}

/// The table of measured roofs.
pub fn device_html(device: &[DeviceRoof]) -> String {
    if device.is_empty() {
        return "<p>Not measured yet.</p>".into();
    }
    let mut h = String::from(
        r#"<table class="kdev" id="kernels-device"><thead><tr><th>measured</th><th>f32 GEMM</th><th>triad bandwidth</th><th>ridge</th></tr></thead><tbody>"#,
    );
    for r in device {
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{} GFLOP/s</td><td>{} GB/s</td><td>{} FLOP/B</td></tr>",
            esc(&r.label()),
            sig(r.gflops, 3),
            sig(r.gbps, 3),
            sig(r.gflops / r.gbps, 3)
        );
    }
    h.push_str(r#"</tbody></table><div class="export"><button type="button" class="small" data-csv="kernels-device">CSV</button></div>"#);
    if device
        .iter()
        .any(|r| matches!(r.engine, Engine::Cpu(n) if n > 1))
    {
        h.push_str("<p class=\"kest\">Threads run at the same time, each its own wasm instance; their rates are added.</p>");
    }
    h
}

fn value(root: &Element, name: &str) -> String {
    let Some(e) = root
        .query_selector(&format!("[name={name}]"))
        .ok()
        .flatten()
    else {
        return String::new();
    };
    if let Some(s) = e.dyn_ref::<HtmlSelectElement>() {
        return s.value();
    }
    if let Some(i) = e.dyn_ref::<HtmlInputElement>() {
        if i.type_() == "checkbox" {
            return if i.checked() { "1" } else { "0" }.into();
        }
        return i.value().trim().to_string();
    }
    String::new()
}

fn set_value(root: &Element, name: &str, v: &str) {
    let Some(e) = root
        .query_selector(&format!("[name={name}]"))
        .ok()
        .flatten()
    else {
        return;
    };
    if let Some(s) = e.dyn_ref::<HtmlSelectElement>() {
        s.set_value(v);
    } else if let Some(i) = e.dyn_ref::<HtmlInputElement>() {
        i.set_value(v);
    }
}

fn scaling_of(root: &Element, key: &str) -> String {
    match value(root, &format!("{key}s")).as_str() {
        "block" => format!(
            "b{}{}",
            value(root, &format!("{key}b")),
            value(root, &format!("{key}sf"))
        ),
        other => other.to_string(),
    }
}

/// The form's values as a spec, with notices for what could not be read.
pub fn read(root: &Element) -> (KernelSpec, Vec<String>) {
    let mut pairs: Vec<(&str, String)> = Vec::new();
    for k in [
        "kern", "km", "kn", "kk", "kin", "kw", "kacc", "kout", "kdist", "kseed", "ksr", "ksat",
    ] {
        pairs.push((k, value(root, k)));
    }
    pairs.push(("kins", scaling_of(root, "kin")));
    pairs.push(("kws", scaling_of(root, "kw")));
    for key in ["kin", "kw"] {
        let block = value(root, &format!("{key}s")) == "block";
        if let Ok(list) = root.query_selector_all(&format!(".kb-{key}")) {
            for i in 0..list.length() {
                if let Some(e) = list.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                    let class = format!("kblock kb-{key}{}", if block { "" } else { " hide" });
                    let _ = e.set_attribute("class", &class);
                }
            }
        }
    }
    KernelSpec::from_pairs(pairs.iter().map(|(k, v)| (*k, v.as_str())))
}

/// Names the dimensions for the chosen kernel.
pub fn relabel(root: &Element, spec: &KernelSpec) {
    let dims = spec.kernel.dims();
    for (i, d) in dims.iter().enumerate() {
        if let Some(e) = root.query_selector(&format!(".kd{i}")).ok().flatten() {
            e.set_text_content(Some(d));
        }
    }
    if let Some(e) = root.query_selector(".kd2w").ok().flatten() {
        let _ = e.set_attribute("class", if dims[2] == "-" { "kd2w hide" } else { "kd2w" });
    }
}

/// Sets inputs and weights to a named recipe.
pub fn apply_recipe(root: &Element, recipe: &str) {
    let Ok(o) = Operand::parse(recipe) else {
        return;
    };
    for key in ["kin", "kw"] {
        set_value(root, key, o.format.id());
        let (kind, size, scale) = match o.scaling {
            Scaling::None => ("none", None, None),
            Scaling::Tensor => ("tensor", None, None),
            Scaling::Block { size, scale } => ("block", Some(size), Some(scale)),
        };
        set_value(root, &format!("{key}s"), kind);
        if let Some(s) = size {
            set_value(root, &format!("{key}b"), &s.to_string());
        }
        if let Some(s) = scale {
            set_value(root, &format!("{key}sf"), s.id());
        }
    }
}
