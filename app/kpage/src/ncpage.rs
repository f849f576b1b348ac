//! The NeuronCore section's behaviour: simulating and tuning in its own worker, its status,
//! and the timeline's zoom, pan and hover (the markup and drawing are in `nc`).

use engine::neuroncore::spec::Experiment;
use view::protocol::{Reply, Request};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, Event, MessageEvent};

use crate::dom::{find, now, set_html, set_text};
use crate::state::{notify, page};
use crate::{form, nc};
use view::workers::{reply, send, spawn};

/// Shows and simulates an experiment (a tuned row the user picked).
pub fn set(e: Experiment) {
    let Some(p) = page() else { return };
    let root = p.borrow().root.clone();
    if let Some(f) = find(&root, "form.ncform") {
        f.set_outer_html(&nc::form_html(&e));
    }
    p.borrow_mut().nc.exp = e;
    notify();
    simulate();
}

/// The section's form changed: read it, relabel it, simulate it.
pub fn changed(root: &Element) {
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
            simulate();
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

/// The section's status line, and its Cancel enabled while `working`.
pub fn status(text: &str, working: bool) {
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

/// The worker failed: say so.
fn on_failure(msg: &str) {
    status(msg, false);
}

/// Simulates the section's experiment (its result replaces the shown one).
pub fn simulate() {
    start(false);
}

/// Searches the section's matmul for its best tiles.
pub fn tune() {
    start(true);
}

fn start(tuning: bool) {
    let Some(p) = page() else { return };
    let text = p.borrow().nc.exp.to_text();
    let cmd = if tuning {
        Request::Tune(text)
    } else {
        Request::Simulate(text)
    };
    if p.borrow().nc.runner.is_none() {
        match spawn(on_message, on_failure) {
            Ok(l) => {
                let mut pm = p.borrow_mut();
                pm.nc.runner = Some(l);
                pm.nc.ready = false;
            }
            Err(e) => return status(&e, false),
        }
    }
    {
        let mut pm = p.borrow_mut();
        if pm.nc.ready && !pm.nc.busy {
            pm.nc.busy = true;
            if let Some(r) = &pm.nc.runner {
                send(r, &cmd);
            }
        } else {
            // The latest request waits for the worker; older ones are dropped.
            pm.nc.pending = Some(cmd);
        }
    }
    status(if tuning { "tuning" } else { "simulating" }, true);
}

/// The worker is free: send the request that waited, if any.
fn next() {
    let Some(p) = page() else { return };
    let mut pm = p.borrow_mut();
    pm.nc.busy = false;
    if let Some(cmd) = pm.nc.pending.take() {
        pm.nc.busy = true;
        if let Some(r) = &pm.nc.runner {
            send(r, &cmd);
        }
    }
}

fn on_message(e: MessageEvent) {
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
        draw();
        let note = p.borrow().nc.note.clone();
        status(&note, false);
        next();
        return;
    }
    match reply(&e) {
        Some(Ok(Reply::Ready)) => {
            if let Some(p) = page() {
                p.borrow_mut().nc.ready = true;
            }
            next();
        }
        Some(Ok(Reply::Stage(what))) => status(&format!("{what}…"), true),
        Some(Ok(Reply::NcPoint {
            intensity,
            flops_per_s,
        })) => {
            if let Some(p) = page() {
                // Four significant digits are plenty for a chart and keep the link short.
                let short = format!("{intensity:.3e},{flops_per_s:.3e}");
                p.borrow_mut().nc.point = engine::scenario::parse_nc_point(&short);
            }
            notify();
        }
        Some(Ok(Reply::NcResult { whats, html })) => {
            if let Some(p) = page() {
                p.borrow_mut().nc.whats = whats;
            }
            set_html("#ncresult", &html);
        }
        Some(Ok(Reply::NcTuned(html))) => {
            set_html("#nctuned", &html);
            status("Tuned: open a row to see its timeline.", false);
            next();
        }
        Some(Ok(Reply::NcError(e) | Reply::Error(e)) | Err(e)) => {
            status("", false);
            set_html(
                ".ncstatus",
                &format!(
                    r#"<span class="err">Cannot simulate: {}</span>"#,
                    form::esc(&e)
                ),
            );
            next();
        }
        Some(Ok(_)) | None => {}
    }
}

fn canvas() -> Option<web_sys::HtmlCanvasElement> {
    let p = page()?;
    let root = p.borrow().root.clone();
    find(&root, "#nccanvas")?.dyn_into().ok()
}

/// Redraws the timeline.
pub fn draw() {
    let Some(p) = page() else { return };
    let Some(canvas) = canvas() else { return };
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

/// Canvas x and y in CSS pixels, and its width.
fn pointer(e: &Event) -> Option<(f64, f64, f64)> {
    let me = e.dyn_ref::<web_sys::MouseEvent>()?;
    let canvas = canvas()?;
    let r = canvas.get_bounding_client_rect();
    Some((me.client_x() - r.left(), me.client_y() - r.top(), r.width()))
}

/// Zoom, pan and hover on the timeline's canvas.
pub fn listen() {
    let Some(canvas) = canvas() else { return };
    let wheel = Closure::<dyn FnMut(Event)>::new(|e: Event| {
        let Some((x, _, w)) = pointer(&e) else {
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
        draw();
    });
    let down = Closure::<dyn FnMut(Event)>::new(|e: Event| {
        let Some((x, _, _)) = pointer(&e) else {
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
        let Some((x, y, w)) = pointer(&e) else {
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
            draw();
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
