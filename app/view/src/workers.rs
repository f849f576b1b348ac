//! The page's Web Workers: starting one, and stopping one whose closures may still be
//! running.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cell::RefCell;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker};

type Handler = Closure<dyn FnMut(MessageEvent)>;
type ErrHandler = Closure<dyn FnMut(ErrorEvent)>;

/// A worker and the closures that must live as long as it does.
pub struct Live {
    pub worker: Worker,
    _on_msg: Handler,
    _on_err: ErrHandler,
}

std::thread_local! {
    /// Stopped workers whose closures may still be on the stack (a worker's own message can
    /// stop it); emptied at the next click, when none can be.
    static RETIRED: RefCell<Vec<Live>> = const { RefCell::new(Vec::new()) };
}

/// Stops a worker; its closures are dropped at the next click.
pub fn retire(l: Option<Live>) {
    if let Some(l) = l {
        l.worker.terminate();
        RETIRED.with(|r| r.borrow_mut().push(l));
    }
}

/// Drops the stopped workers' closures (called when none can be running).
pub fn clear_retired() {
    RETIRED.with(|r| r.borrow_mut().clear());
}

/// A worker running `worker_loader.js`; `on_err` hears why it stopped, if it fails.
pub fn spawn(on_msg: impl FnMut(MessageEvent) + 'static, on_err: fn(&str)) -> Result<Live, String> {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_default();
    let url = web_sys::Url::new_with_base("worker_loader.js", &base)
        .map(|u| u.href())
        .map_err(|_| "no address for the worker".to_string())?;
    let worker = Worker::new(&url).map_err(|e| format!("the worker could not start: {e:?}"))?;
    let on_msg = Closure::<dyn FnMut(MessageEvent)>::new(on_msg);
    let on_err = Closure::<dyn FnMut(ErrorEvent)>::new(move |e: ErrorEvent| {
        on_err(&format!("the worker stopped: {}", e.message()));
    });
    worker.set_onmessage(Some(on_msg.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_err.as_ref().unchecked_ref()));
    Ok(Live {
        worker,
        _on_msg: on_msg,
        _on_err: on_err,
    })
}

/// A worker's message, typed; `None` for one that is not text (a timeline's numbers).
pub fn reply(e: &MessageEvent) -> Option<Result<crate::protocol::Reply, String>> {
    e.data()
        .as_string()
        .map(|s| crate::protocol::Reply::decode(&s))
}

/// Sends a request to a worker.
pub fn send(live: &Live, r: &crate::protocol::Request) {
    let _ = live.worker.post_message(&JsValue::from_str(&r.encode()));
}
