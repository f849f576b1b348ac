//! The Kernels page as its own small wasm module, loaded when the page opens: the app shell
//! imports it and calls [`mount`] with the page's element, the link's query and a callback
//! that takes the page's keys back into the link. Kernels run in a Web Worker (the `worker`
//! crate); Cancel terminates it. Markup is built as escaped strings with one delegated
//! listener per event type, which keeps this module small.

mod form;
mod gpu;
mod nc;

use std::cell::RefCell;
use std::rc::Rc;

use engine::kernels::device::{self, DeviceRoof, Engine};
use engine::kernels::KernelSpec;
use engine::neuroncore::spec::Experiment;
use engine::units::sig;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, ErrorEvent, Event, MessageEvent, Worker};

/// Runs estimated longer than this ask for a second click.
const CONFIRM_S: f64 = 6.0;
/// Runs estimated shorter than this start on their own when a link opens the page.
const AUTORUN_S: f64 = 2.0;
/// Threads the device benchmark uses at most.
const MAX_BENCH_THREADS: u32 = 16;

type Handler = Closure<dyn FnMut(MessageEvent)>;
type ErrHandler = Closure<dyn FnMut(ErrorEvent)>;

/// A worker and the closures that must live as long as it does.
struct Live {
    worker: Worker,
    _on_msg: Handler,
    _on_err: ErrHandler,
}

thread_local! {
    /// Stopped workers whose closures may still be on the stack (a worker's own message can
    /// stop it); emptied at the next click, when none can be.
    static RETIRED: RefCell<Vec<Live>> = const { RefCell::new(Vec::new()) };
}

fn retire(l: Option<Live>) {
    if let Some(l) = l {
        l.worker.terminate();
        RETIRED.with(|r| r.borrow_mut().push(l));
    }
}

fn retire_bench(b: Option<Bench>) {
    for l in b.map(|b| b.workers).unwrap_or_default() {
        retire(Some(l));
    }
}

#[derive(Default)]
struct Bench {
    workers: Vec<Live>,
    single: Option<f64>,
    results: Vec<(f64, f64)>,
    threads: u32,
}

struct Page {
    root: Element,
    spec: KernelSpec,
    device: Vec<DeviceRoof>,
    on_change: js_sys::Function,
    runner: Option<Live>,
    ready: bool,
    pending: Option<String>,
    busy: bool,
    confirm: bool,
    bench: Option<Bench>,
    _listeners: Vec<Closure<dyn FnMut(Event)>>,
    /// The NeuronCore section: its experiment, worker and timeline.
    nc: Nc,
}

#[derive(Default)]
struct Nc {
    exp: Experiment,
    runner: Option<Live>,
    ready: bool,
    busy: bool,
    pending: Option<String>,
    whats: Vec<String>,
    timeline: Option<nc::Timeline>,
    drag: Option<(f64, (f64, f64))>,
    /// Why the link's experiment was not used, shown until the form changes.
    note: String,
    /// The last result's intensity and whole-chip FLOP/s, for the Roofline page.
    point: Option<[f64; 2]>,
    listeners: Vec<Closure<dyn FnMut(Event)>>,
}

thread_local! {
    static PAGE: RefCell<Option<Rc<RefCell<Page>>>> = const { RefCell::new(None) };
}

fn main() {}

fn doc() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a page has a document")
}

fn page() -> Option<Rc<RefCell<Page>>> {
    PAGE.with(|p| p.borrow().clone())
}

/// Builds the page inside `el` from the link's `query`; `on_change` receives the page's keys
/// (`kern=…&dev=…`) whenever they change.
#[wasm_bindgen]
pub fn mount(el: Element, query: &str, on_change: js_sys::Function) {
    unmount();
    let pairs = engine::scenario::query_pairs(query);
    let (spec, _) = KernelSpec::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let device = pairs
        .iter()
        .find(|(k, _)| k == "dev")
        .and_then(|(_, v)| device::parse_spec(v).ok())
        .unwrap_or_default();
    el.set_inner_html(&form::page_html(&spec, &device, gpu_note()));
    let (exp, nc_note) = match pairs.iter().find(|(k, _)| k == "knc") {
        Some((_, v)) => match Experiment::parse(v) {
            Ok(e) => (e, String::new()),
            Err(e) => (
                Experiment::default(),
                format!("The link's NeuronCore experiment could not be read ({e}); the default is shown."),
            ),
        },
        None => (Experiment::default(), String::new()),
    };
    let _ = el.insert_adjacent_html("beforeend", &nc::section_html(&exp, &nc_note));
    let p = Rc::new(RefCell::new(Page {
        root: el.clone(),
        spec,
        device,
        on_change,
        runner: None,
        ready: false,
        pending: None,
        busy: false,
        confirm: false,
        bench: None,
        _listeners: Vec::new(),
        nc: Nc {
            exp,
            note: nc_note,
            ..Nc::default()
        },
    }));
    let on_change = Closure::<dyn FnMut(Event)>::new(|e: Event| changed(&e));
    let on_click = Closure::<dyn FnMut(Event)>::new(|e: Event| clicked(&e));
    el.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref())
        .ok();
    el.add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref())
        .ok();
    // Enter in a field would submit the form (and reload the page); the policy forbids an
    // inline handler, so a listener stops it.
    let on_submit = Closure::<dyn FnMut(Event)>::new(|e: Event| e.prevent_default());
    el.add_event_listener_with_callback("submit", on_submit.as_ref().unchecked_ref())
        .ok();
    p.borrow_mut()._listeners = vec![on_change, on_click, on_submit];
    PAGE.with(|slot| *slot.borrow_mut() = Some(p));
    nc_listen();
    nc_start("nc");
    refresh_estimate();
    if spec.estimate_seconds() <= AUTORUN_S {
        start("run");
    }
}

/// Stops every worker and forgets the page (the shell calls this when another page opens).
#[wasm_bindgen]
pub fn unmount() {
    if let Some(p) = PAGE.with(|slot| slot.borrow_mut().take()) {
        let mut p = p.borrow_mut();
        for l in std::mem::take(&mut p._listeners) {
            let _ = p
                .root
                .remove_event_listener_with_callback("change", l.as_ref().unchecked_ref());
            let _ = p
                .root
                .remove_event_listener_with_callback("click", l.as_ref().unchecked_ref());
        }
        retire(p.runner.take());
        retire_bench(p.bench.take());
        retire(p.nc.runner.take());
        p.nc.listeners.clear();
    }
}

fn gpu_note() -> &'static str {
    if gpu::offered() {
        "This browser offers WebGPU: after the CPU, the GPU runs the same f32 GEMM in WGSL (checked element by element against the CPU kernel) and a copy."
    } else {
        "This browser offers no WebGPU (or it is turned off), so only the CPU is measured."
    }
}

fn find(root: &Element, sel: &str) -> Option<Element> {
    root.query_selector(sel).ok().flatten()
}

fn set_text(sel: &str, text: &str) {
    if let Some(p) = page() {
        if let Some(e) = find(&p.borrow().root, sel) {
            e.set_text_content(Some(text));
        }
    }
}

fn set_html(sel: &str, html: &str) {
    if let Some(p) = page() {
        if let Some(e) = find(&p.borrow().root, sel) {
            e.set_inner_html(html);
        }
    }
}

/// Tells the shell the page's keys, so the link carries them.
fn notify() {
    let Some(p) = page() else { return };
    let p = p.borrow();
    let mut q: Vec<String> = p
        .spec
        .to_pairs()
        .iter()
        .map(|(k, v)| format!("{k}={}", engine::scenario::enc(v)))
        .collect();
    if !p.device.is_empty() {
        q.push(format!(
            "dev={}",
            engine::scenario::enc(&device::to_spec(&p.device))
        ));
    }
    if p.nc.exp != Experiment::default() {
        q.push(format!("knc={}", p.nc.exp.to_text()));
    }
    if let Some(pt) = p.nc.point {
        q.push(format!(
            "kncpt={}",
            engine::scenario::enc(&engine::scenario::nc_point_text(pt))
        ));
    }
    let _ = p
        .on_change
        .call1(&JsValue::NULL, &JsValue::from_str(&q.join("&")));
}

fn refresh_estimate() {
    let Some(p) = page() else { return };
    let spec = p.borrow().spec;
    let est = spec.estimate_seconds();
    let text =
        match spec.check() {
            Err(e) => format!("Cannot run: {e}."),
            Ok(()) => {
                format!(
            "{} multiply-adds; about {} s on one modest core, inputs and reference included.{}",
            sig(spec.macs() as f64, 3),
            sig(est.max(0.01), 2),
            if est > CONFIRM_S { " A long run: Run asks once more before it starts." } else { "" }
        )
            }
        };
    set_text(".kest", &text);
    set_text(".kformula", &spec.formula());
}

fn changed(e: &Event) {
    let Some(target) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
        return;
    };
    let Some(p) = page() else { return };
    let root = p.borrow().root.clone();
    if find_ancestor(&target, "form.ncform").is_some() {
        return nc_changed(&root);
    }
    if find_ancestor(&target, "form.kform").is_none() {
        return;
    }
    let (spec, notes) = form::read(&root);
    let kernel_changed = spec.kernel != p.borrow().spec.kernel;
    {
        let mut pm = p.borrow_mut();
        pm.spec = spec;
        pm.confirm = false;
    }
    if kernel_changed {
        form::relabel(&root, &spec);
    }
    set_text(".kstatus", &notes.join("; "));
    refresh_estimate();
    notify();
}

fn find_ancestor(e: &Element, sel: &str) -> Option<Element> {
    e.closest(sel).ok().flatten()
}

fn clicked(e: &Event) {
    RETIRED.with(|r| r.borrow_mut().clear());
    let Some(target) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
        return;
    };
    let Some(button) = find_ancestor(&target, "button[data-act]") else {
        return;
    };
    let act = button.get_attribute("data-act").unwrap_or_default();
    match act.as_str() {
        "run" | "sweep" => start(&act),
        "cancel" => cancel(),
        "bench" => bench_start(),
        "ncrun" => nc_start("nc"),
        "nctune" => nc_start("nctune"),
        "nccancel" => {
            if let Some(p) = page() {
                let mut pm = p.borrow_mut();
                retire(pm.nc.runner.take());
                pm.nc.ready = false;
                pm.nc.busy = false;
                pm.nc.pending = None;
            }
            nc_status("Cancelled: the worker was stopped.", false);
        }
        "nczin" | "nczout" | "nczreset" => {
            if let Some(p) = page() {
                if let Some(t) = p.borrow_mut().nc.timeline.as_mut() {
                    let mid = (t.view.0 + t.view.1) / 2.0;
                    match act.as_str() {
                        "nczin" => t.zoom(0.5, mid),
                        "nczout" => t.zoom(2.0, mid),
                        _ => t.reset(),
                    }
                }
            }
            nc_draw();
        }
        "ncpick" => {
            let Ok(e) = Experiment::parse(&button.get_attribute("data-v").unwrap_or_default())
            else {
                return;
            };
            nc_set(e);
        }
        "recipe" => {
            let Some(p) = page() else { return };
            let root = p.borrow().root.clone();
            form::apply_recipe(&root, &button.get_attribute("data-v").unwrap_or_default());
            let (spec, _) = form::read(&root);
            p.borrow_mut().spec = spec;
            refresh_estimate();
            notify();
        }
        _ => {}
    }
}

fn busy(on: bool, what: &str) {
    let Some(p) = page() else { return };
    p.borrow_mut().busy = on;
    let root = p.borrow().root.clone();
    for (sel, disabled) in [
        ("button[data-act=run]", on),
        ("button[data-act=sweep]", on),
        ("button[data-act=bench]", on),
        ("button[data-act=cancel]", !on),
    ] {
        if let Some(b) = find(&root, sel) {
            let _ = if disabled {
                b.set_attribute("disabled", "")
            } else {
                b.remove_attribute("disabled")
            };
        }
    }
    if let Some(s) = find(&root, ".kstatus") {
        let _ = s.set_attribute("class", if on { "kstatus working" } else { "kstatus" });
        s.set_text_content(Some(what));
    }
}

fn spawn(on_msg: impl FnMut(MessageEvent) + 'static) -> Result<Live, String> {
    let base = doc().base_uri().ok().flatten().unwrap_or_default();
    let url = web_sys::Url::new_with_base("worker_loader.js", &base)
        .map(|u| u.href())
        .map_err(|_| "no address for the worker".to_string())?;
    let worker = Worker::new(&url).map_err(|e| format!("the worker could not start: {e:?}"))?;
    let on_msg = Closure::<dyn FnMut(MessageEvent)>::new(on_msg);
    let on_err = Closure::<dyn FnMut(ErrorEvent)>::new(|e: ErrorEvent| {
        failed(&format!("the worker stopped: {}", e.message()));
    });
    worker.set_onmessage(Some(on_msg.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_err.as_ref().unchecked_ref()));
    Ok(Live {
        worker,
        _on_msg: on_msg,
        _on_err: on_err,
    })
}

fn failed(msg: &str) {
    if let Some(p) = page() {
        let mut pm = p.borrow_mut();
        retire(pm.runner.take());
        pm.ready = false;
        retire_bench(pm.bench.take());
    }
    busy(false, "");
    set_html(
        ".kstatus",
        &format!(r#"<span class="err">{}</span>"#, form::esc(msg)),
    );
}

fn start(what: &str) {
    let Some(p) = page() else { return };
    let spec = p.borrow().spec;
    if p.borrow().busy {
        return;
    }
    if let Err(e) = spec.check() {
        set_text(".kstatus", &format!("Cannot run: {e}."));
        return;
    }
    let est = spec.estimate_seconds() * if what == "sweep" { 22.0 } else { 1.0 };
    if est > CONFIRM_S && !p.borrow().confirm {
        p.borrow_mut().confirm = true;
        set_text(
            ".kstatus",
            &format!(
                "This will take about {} s; click again to start it.",
                sig(est, 2)
            ),
        );
        return;
    }
    p.borrow_mut().confirm = false;
    let query: Vec<String> = spec
        .to_pairs()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let cmd = format!("{what} {}", query.join("&"));
    busy(true, "starting the worker");
    if p.borrow().runner.is_none() {
        match spawn(on_runner_message) {
            Ok(l) => {
                let mut pm = p.borrow_mut();
                pm.runner = Some(l);
                pm.ready = false;
            }
            Err(e) => return failed(&e),
        }
    }
    let mut pm = p.borrow_mut();
    if pm.ready {
        if let Some(r) = &pm.runner {
            let _ = r.worker.post_message(&JsValue::from_str(&cmd));
        }
    } else {
        pm.pending = Some(cmd);
    }
}

fn on_runner_message(e: MessageEvent) {
    let Some(msg) = e.data().as_string() else {
        return;
    };
    let (verb, rest) = msg.split_once(' ').unwrap_or((msg.as_str(), ""));
    match verb {
        "ready" => {
            let Some(p) = page() else { return };
            let mut pm = p.borrow_mut();
            pm.ready = true;
            if let (Some(cmd), Some(r)) = (pm.pending.take(), &pm.runner) {
                let _ = r.worker.post_message(&JsValue::from_str(&cmd));
            }
        }
        "stage" => set_text(".kstatus", &format!("{rest}…")),
        "result" => {
            busy(false, "");
            set_html("#kresult", rest);
        }
        "sweep" => {
            busy(false, "");
            set_html("#ksweep", rest);
        }
        "error" => failed(rest),
        _ => {}
    }
}

fn cancel() {
    if let Some(p) = page() {
        let mut pm = p.borrow_mut();
        retire(pm.runner.take());
        pm.ready = false;
        pm.pending = None;
        retire_bench(pm.bench.take());
    }
    busy(false, "Cancelled: the worker was stopped.");
}

fn bench_threads() -> u32 {
    let n = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    (n as u32).clamp(1, MAX_BENCH_THREADS)
}

fn bench_start() {
    let Some(p) = page() else { return };
    if p.borrow().busy {
        return;
    }
    busy(true, "measuring one thread: f32 GEMM, then memory streams");
    p.borrow_mut().bench = Some(Bench::default());
    bench_spawn(1);
}

/// Starts `n` workers at once, each measuring itself; their rates add up.
fn bench_spawn(n: u32) {
    let Some(p) = page() else { return };
    let mut workers = Vec::new();
    for _ in 0..n {
        match spawn(on_bench_message) {
            Ok(l) => workers.push(l),
            Err(e) => return failed(&e),
        }
    }
    let mut pm = p.borrow_mut();
    if let Some(b) = pm.bench.as_mut() {
        for l in std::mem::replace(&mut b.workers, workers) {
            retire(Some(l));
        }
        b.threads = n;
        b.results.clear();
    }
}

fn on_bench_message(e: MessageEvent) {
    let Some(msg) = e.data().as_string() else {
        return;
    };
    let Some(p) = page() else { return };
    let parts: Vec<&str> = msg.split(' ').collect();
    match parts.first().copied() {
        Some("ready") => {
            let b = p.borrow();
            let Some(bench) = b.bench.as_ref() else {
                return;
            };
            // Start them together once all are loaded, so they run at the same time.
            let ready = js_sys::Reflect::get(&e, &JsValue::from_str("target"))
                .ok()
                .and_then(|t| t.dyn_into::<Worker>().ok());
            if let Some(w) = ready {
                let _ = js_sys::Reflect::set(&w, &JsValue::from_str("_ready"), &JsValue::TRUE);
            }
            let all = bench.workers.iter().all(|l| {
                js_sys::Reflect::get(&l.worker, &JsValue::from_str("_ready"))
                    .map(|v| v.is_truthy())
                    .unwrap_or(false)
            });
            if all {
                for l in &bench.workers {
                    let _ = l
                        .worker
                        .post_message(&JsValue::from_str(&format!("bench {}", bench.threads)));
                }
            }
        }
        Some("bench") if parts.len() >= 4 => {
            let (Ok(f), Ok(g)) = (parts[2].parse::<f64>(), parts[3].parse::<f64>()) else {
                return failed("the benchmark sent numbers that do not read");
            };
            let next = {
                let mut pm = p.borrow_mut();
                let Some(b) = pm.bench.as_mut() else { return };
                b.results.push((f, g));
                if b.results.len() < b.threads as usize {
                    return;
                }
                let gflops: f64 = b.results.iter().map(|r| r.0).sum();
                let gbps: f64 = b.results.iter().map(|r| r.1).sum();
                let threads = b.threads;
                if threads == 1 {
                    b.single = Some(gflops);
                }
                pm.device.retain(|r| {
                    r.engine != Engine::Cpu(threads)
                        && (threads == 1 || !matches!(r.engine, Engine::Cpu(n) if n > 1))
                });
                pm.device.push(DeviceRoof {
                    engine: Engine::Cpu(threads),
                    gflops,
                    gbps,
                });
                pm.device.sort_by_key(|r| match r.engine {
                    Engine::Cpu(n) => n,
                    Engine::Gpu => u32::MAX,
                });
                threads
            };
            let all = bench_threads();
            render_device();
            notify();
            if next == 1 && all > 1 {
                busy(true, &format!("measuring {all} threads at once"));
                bench_spawn(all);
            } else {
                let done = p.borrow_mut().bench.take();
                retire_bench(done);
                if gpu::offered() {
                    busy(true, "measuring the GPU through WebGPU");
                    wasm_bindgen_futures::spawn_local(gpu_bench());
                } else {
                    busy(false, "Measured; the roofs are on the Roofline page too.");
                }
            }
        }
        _ => {}
    }
}

async fn gpu_bench() {
    let result = gpu::measure().await;
    let Some(p) = page() else { return };
    // Cancel (or a new page) while the GPU worked: drop what it found.
    if !p.borrow().busy {
        return;
    }
    match result {
        Ok(m) => {
            {
                let mut pm = p.borrow_mut();
                pm.device.retain(|r| r.engine != Engine::Gpu);
                pm.device.push(DeviceRoof {
                    engine: Engine::Gpu,
                    gflops: m.gflops,
                    gbps: m.gbps,
                });
            }
            render_device();
            notify();
            set_text(
                "#kgpu",
                &format!(
                    "GPU: {}. Its 256³ GEMM {} the CPU kernel's on the same inputs; the rate is a simple tiled WGSL kernel's, not the GPU's peak.",
                    m.adapter,
                    if m.check == 0.0 {
                        "matches, element for element,".to_string()
                    } else {
                        format!("agrees to {:.1e} of the result's rms with", m.check)
                    }
                ),
            );
            busy(false, "Measured; the roofs are on the Roofline page too.");
        }
        Err(e) => {
            set_text("#kgpu", &format!("GPU not measured: {e}."));
            busy(
                false,
                "Measured the CPU; the roofs are on the Roofline page too.",
            );
        }
    }
}

fn render_device() {
    let Some(p) = page() else { return };
    let html = form::device_html(&p.borrow().device);
    set_html("#kdevice", &html);
}

// ---- The NeuronCore section ----

fn nc_set(e: Experiment) {
    let Some(p) = page() else { return };
    let root = p.borrow().root.clone();
    if let Some(f) = find(&root, "form.ncform") {
        f.set_outer_html(&nc::form_html(&e));
    }
    p.borrow_mut().nc.exp = e;
    notify();
    nc_start("nc");
}

fn nc_changed(root: &Element) {
    match nc::read(root) {
        Ok(e) => {
            let kind = match e.kernel {
                engine::neuroncore::spec::Kernel::Matmul(_) => "mm",
                engine::neuroncore::spec::Kernel::Attention(_) => "attn",
            };
            nc::relabel(root, kind);
            if let Some(p) = page() {
                let mut pm = p.borrow_mut();
                pm.nc.exp = e;
                pm.nc.note.clear();
            }
            notify();
            nc_start("nc");
        }
        Err(e) => set_html(
            ".ncstatus",
            &format!(
                r#"<span class="err">Cannot simulate: {}</span>"#,
                form::esc(&e)
            ),
        ),
    }
}

fn nc_status(text: &str, working: bool) {
    if let Some(p) = page() {
        if let Some(b) = find(&p.borrow().root, "button[data-act=nccancel]") {
            let _ = if working {
                b.remove_attribute("disabled")
            } else {
                b.set_attribute("disabled", "")
            };
        }
        if let Some(s) = find(&p.borrow().root, ".ncstatus") {
            let _ = s.set_attribute(
                "class",
                if working {
                    "ncstatus kstatus working"
                } else {
                    "ncstatus"
                },
            );
            s.set_text_content(Some(text));
        }
    }
}

fn nc_start(verb: &str) {
    let Some(p) = page() else { return };
    let cmd = format!("{verb} {}", p.borrow().nc.exp.to_text());
    if p.borrow().nc.runner.is_none() {
        match spawn(on_nc_message) {
            Ok(l) => {
                let mut pm = p.borrow_mut();
                pm.nc.runner = Some(l);
                pm.nc.ready = false;
            }
            Err(e) => return nc_status(&e, false),
        }
    }
    {
        let mut pm = p.borrow_mut();
        if pm.nc.ready && !pm.nc.busy {
            pm.nc.busy = true;
            if let Some(r) = &pm.nc.runner {
                let _ = r.worker.post_message(&JsValue::from_str(&cmd));
            }
        } else {
            // The latest request waits for the worker; older ones are dropped.
            pm.nc.pending = Some(cmd);
        }
    }
    nc_status(
        if verb == "nctune" {
            "tuning"
        } else {
            "simulating"
        },
        true,
    );
}

fn nc_next() {
    let Some(p) = page() else { return };
    let mut pm = p.borrow_mut();
    pm.nc.busy = false;
    if let Some(cmd) = pm.nc.pending.take() {
        pm.nc.busy = true;
        if let Some(r) = &pm.nc.runner {
            let _ = r.worker.post_message(&JsValue::from_str(&cmd));
        }
    }
}

fn on_nc_message(e: MessageEvent) {
    let data = e.data();
    if let Ok(arr) = data.clone().dyn_into::<js_sys::Float64Array>() {
        let Some(p) = page() else { return };
        {
            let mut pm = p.borrow_mut();
            let whats = std::mem::take(&mut pm.nc.whats);
            if let Ok(core) = pm.nc.exp.core() {
                pm.nc.timeline = Some(nc::Timeline::new(arr.to_vec(), whats, core));
            }
        }
        nc_draw();
        let note = p.borrow().nc.note.clone();
        nc_status(&note, false);
        nc_next();
        return;
    }
    let Some(msg) = data.as_string() else {
        return;
    };
    let (verb, rest) = msg.split_once(' ').unwrap_or((msg.as_str(), ""));
    match verb {
        "ready" => {
            if let Some(p) = page() {
                p.borrow_mut().nc.ready = true;
            }
            nc_next();
        }
        "stage" => nc_status(&format!("{rest}…"), true),
        "ncpoint" => {
            if let Some(p) = page() {
                // Four significant digits are plenty for a chart and keep the link short.
                let short = rest
                    .split(',')
                    .map(|x| {
                        x.parse::<f64>()
                            .map_or(String::new(), |v| format!("{v:.3e}"))
                    })
                    .collect::<Vec<_>>()
                    .join(",");
                p.borrow_mut().nc.point = engine::scenario::parse_nc_point(&short);
            }
            notify();
        }
        "ncresult" => {
            let (whats, html) = rest.split_once('\n').unwrap_or(("", rest));
            if let Some(p) = page() {
                p.borrow_mut().nc.whats = whats.split('|').map(String::from).collect();
            }
            set_html("#ncresult", html);
        }
        "nctune" => {
            set_html("#nctuned", rest);
            nc_status("Tuned: open a row to see its timeline.", false);
            nc_next();
        }
        "ncerror" => {
            nc_status("", false);
            set_html(
                ".ncstatus",
                &format!(
                    r#"<span class="err">Cannot simulate: {}</span>"#,
                    form::esc(rest)
                ),
            );
            nc_next();
        }
        _ => {}
    }
}

fn nc_canvas() -> Option<web_sys::HtmlCanvasElement> {
    let p = page()?;
    let root = p.borrow().root.clone();
    find(&root, "#nccanvas")?.dyn_into().ok()
}

fn nc_draw() {
    let Some(p) = page() else { return };
    let Some(canvas) = nc_canvas() else { return };
    let t0 = now();
    let w = f64::from(canvas.client_width().max(300));
    let dpr = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 3.0);
    let text = {
        let pm = p.borrow();
        let Some(t) = pm.nc.timeline.as_ref() else {
            return;
        };
        t.draw(&canvas, w, dpr);
        t.view_text()
    };
    let ms = now() - t0;
    let _ = canvas.set_attribute("data-draw-ms", &format!("{ms:.2}"));
    set_text(".ncview", &format!("{text}; drawn in {ms:.1} ms"));
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Canvas x and y in CSS pixels, and its width.
fn nc_point(e: &Event) -> Option<(f64, f64, f64)> {
    let me = e.dyn_ref::<web_sys::MouseEvent>()?;
    let canvas = nc_canvas()?;
    let r = canvas.get_bounding_client_rect();
    Some((me.client_x() - r.left(), me.client_y() - r.top(), r.width()))
}

fn nc_listen() {
    let Some(canvas) = nc_canvas() else { return };
    let wheel = Closure::<dyn FnMut(Event)>::new(|e: Event| {
        let Some((x, _, w)) = nc_point(&e) else {
            return;
        };
        let dy = e
            .dyn_ref::<web_sys::WheelEvent>()
            .map_or(0.0, web_sys::WheelEvent::delta_y);
        if dy == 0.0 {
            return;
        }
        e.prevent_default();
        if let Some(p) = page() {
            if let Some(t) = p.borrow_mut().nc.timeline.as_mut() {
                let at = t.time_at(x, w);
                t.zoom(if dy < 0.0 { 0.8 } else { 1.25 }, at);
            }
        }
        nc_draw();
    });
    let down = Closure::<dyn FnMut(Event)>::new(|e: Event| {
        let Some((x, _, _)) = nc_point(&e) else {
            return;
        };
        if let Some(p) = page() {
            let mut pm = p.borrow_mut();
            let view = pm.nc.timeline.as_ref().map(|t| t.view);
            pm.nc.drag = view.map(|v| (x, v));
        }
    });
    let up = Closure::<dyn FnMut(Event)>::new(|_e: Event| {
        if let Some(p) = page() {
            p.borrow_mut().nc.drag = None;
        }
        if let Some(p) = page() {
            let tip = find(&p.borrow().root, "#nctip");
            if let Some(tip) = tip {
                let _ = tip.set_attribute("style", "display:none");
            }
        }
    });
    let moved = Closure::<dyn FnMut(Event)>::new(|e: Event| {
        let Some((x, y, w)) = nc_point(&e) else {
            return;
        };
        let Some(p) = page() else { return };
        let drag = p.borrow().nc.drag;
        if let Some((x0, view)) = drag {
            {
                let mut pm = p.borrow_mut();
                if let Some(t) = pm.nc.timeline.as_mut() {
                    let dt = (x0 - x) / (w - 70.0).max(1.0) * (view.1 - view.0);
                    t.view = view;
                    t.pan(dt);
                }
            }
            nc_draw();
            return;
        }
        let text = p
            .borrow()
            .nc
            .timeline
            .as_ref()
            .and_then(|t| t.hover(x, y, w));
        let tip = find(&p.borrow().root, "#nctip");
        if let Some(tip) = tip {
            match text {
                Some(t) => {
                    tip.set_text_content(Some(&t));
                    let left = (x + 12.0).min((w - 260.0).max(0.0));
                    let _ = tip.set_attribute(
                        "style",
                        &format!("display:block;left:{left:.0}px;top:{:.0}px", y + 40.0),
                    );
                }
                None => {
                    let _ = tip.set_attribute("style", "display:none");
                }
            }
        }
    });
    let opts = web_sys::AddEventListenerOptions::new();
    opts.set_passive(false);
    let _ = canvas.add_event_listener_with_callback_and_add_event_listener_options(
        "wheel",
        wheel.as_ref().unchecked_ref(),
        &opts,
    );
    for (ev, c) in [
        ("mousedown", &down),
        ("mouseup", &up),
        ("mouseleave", &up),
        ("mousemove", &moved),
    ] {
        let _ = canvas.add_event_listener_with_callback(ev, c.as_ref().unchecked_ref());
    }
    if let Some(p) = page() {
        p.borrow_mut().nc.listeners = vec![wheel, down, up, moved];
    }
}
