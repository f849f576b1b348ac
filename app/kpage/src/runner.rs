//! Running a kernel or a sweep in the worker: its status line, its result, Cancel.

use engine::units::sig;
use view::protocol::{Reply, Request};
use web_sys::MessageEvent;

use crate::dom::{find, set_html, set_text};
use crate::form;
use crate::state::{page, Bench};
use view::workers::{reply, retire, send, spawn};

/// Runs estimated longer than this ask for a second click.
pub const CONFIRM_S: f64 = 6.0;

/// Marks the kernel section working (`on`) or idle, with what it is doing.
pub fn busy(on: bool, what: &str) {
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

/// Stops the kernel's worker and the benchmark's, and says why.
pub fn failed(msg: &str) {
    if let Some(p) = page() {
        let mut pm = p.borrow_mut();
        retire(pm.runner.take());
        pm.ready = false;
        Bench::retire(pm.bench.take());
    }
    busy(false, "");
    set_html(
        ".kstatus",
        &format!(r#"<span class="err">{}</span>"#, form::esc(msg)),
    );
}

/// Starts a run (`run`) or a sweep (`sweep`) of the form's kernel, asking once more first
/// when it will be long.
pub fn start(what: &str) {
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
    let query = query.join("&");
    let cmd = if what == "sweep" {
        Request::Sweep(query)
    } else {
        Request::Run(query)
    };
    busy(true, "starting the worker");
    if p.borrow().runner.is_none() {
        match spawn(on_runner_message, failed) {
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
            send(r, &cmd);
        }
    } else {
        pm.pending = Some(cmd);
    }
}

fn on_runner_message(e: MessageEvent) {
    match reply(&e) {
        Some(Ok(Reply::Ready)) => {
            let Some(p) = page() else { return };
            let mut pm = p.borrow_mut();
            pm.ready = true;
            if let (Some(cmd), Some(r)) = (pm.pending.take(), &pm.runner) {
                send(r, &cmd);
            }
        }
        Some(Ok(Reply::Stage(what))) => set_text(".kstatus", &format!("{what}…")),
        Some(Ok(Reply::Result(html))) => {
            busy(false, "");
            set_html("#kresult", &html);
        }
        Some(Ok(Reply::Sweep(html))) => {
            busy(false, "");
            set_html("#ksweep", &html);
        }
        Some(Ok(Reply::Error(e)) | Err(e)) => failed(&e),
        Some(Ok(_)) | None => {}
    }
}

/// Stops every kernel worker (the run's and the benchmark's).
pub fn cancel() {
    if let Some(p) = page() {
        let mut pm = p.borrow_mut();
        retire(pm.runner.take());
        pm.ready = false;
        pm.pending = None;
        Bench::retire(pm.bench.take());
    }
    busy(false, "Cancelled: the worker was stopped.");
}
