//! The Kernels page as its own small wasm module, loaded when the page opens: the app shell
//! imports it and calls [`mount`] with the page's element, the link's query and a callback
//! that takes the page's keys back into the link. Kernels run in a Web Worker (the `worker`
//! crate, spoken to in `view::protocol`'s typed messages); Cancel terminates it. Markup is
//! built as escaped strings with one delegated listener per event type, which keeps this
//! module small.
//!
//! Here: mounting, and the form's events. `state` holds the page and the keys it gives the
//! link; `runner` runs a kernel or sweep; `bench` measures the device; `ncpage` drives the
//! NeuronCore section (drawn by `nc`); `form` builds and reads the kernel form; `gpu` is the
//! WebGPU measurement; `workers` starts and stops workers; `dom` reads and writes elements.

mod bench;
mod dom;
mod form;
mod gpu;
mod nc;
mod ncpage;
mod runner;
mod state;

use std::cell::RefCell;
use std::rc::Rc;

use engine::kernels::device;
use engine::kernels::KernelSpec;
use engine::neuroncore::spec::Experiment;
use engine::units::sig;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, Event};

use dom::{find_ancestor, set_text};
use runner::CONFIRM_S;
use state::{notify, page, Bench, Nc, Page, PAGE};
use view::workers::{clear_retired, retire};

/// Runs estimated shorter than this start on their own when a link opens the page.
const AUTORUN_S: f64 = 2.0;

fn main() {}

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
    ncpage::listen();
    ncpage::simulate();
    refresh_estimate();
    if spec.estimate_seconds() <= AUTORUN_S {
        runner::start("run");
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
        Bench::retire(p.bench.take());
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
        return ncpage::changed(&root);
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

fn clicked(e: &Event) {
    clear_retired();
    let Some(target) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
        return;
    };
    let Some(button) = find_ancestor(&target, "button[data-act]") else {
        return;
    };
    let act = button.get_attribute("data-act").unwrap_or_default();
    match act.as_str() {
        "run" | "sweep" => runner::start(&act),
        "cancel" => runner::cancel(),
        "fold" => {
            // On a phone: unfold the experiment's inputs, or fold them away again.
            if let Some(exp) = find_ancestor(&button, ".kexp") {
                let open = exp.class_list().toggle("kshow").unwrap_or(false);
                let _ = button.set_attribute("aria-expanded", if open { "true" } else { "false" });
                button.set_text_content(Some(if open { "Done" } else { "Change inputs" }));
                // Opened, the inputs start at the top of the screen.
                if let (true, Some(bar)) = (open, button.parent_element()) {
                    bar.scroll_into_view();
                }
            }
        }
        "bench" => bench::start(),
        "ncrun" => ncpage::simulate(),
        "nctune" => ncpage::tune(),
        "nccancel" => {
            if let Some(p) = page() {
                let mut pm = p.borrow_mut();
                retire(pm.nc.runner.take());
                pm.nc.ready = false;
                pm.nc.busy = false;
                pm.nc.pending = None;
            }
            ncpage::status("Cancelled: the worker was stopped.", false);
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
            ncpage::draw();
        }
        "ncpick" => {
            let Ok(e) = Experiment::parse(&button.get_attribute("data-v").unwrap_or_default())
            else {
                return;
            };
            ncpage::set(e);
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
