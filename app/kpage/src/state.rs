//! The page's state: the kernel and its form, the device roofs, the workers, the
//! NeuronCore section; and the keys it gives the link.

use std::cell::RefCell;
use std::rc::Rc;

use engine::kernels::device::{self, DeviceRoof};
use engine::kernels::KernelSpec;
use engine::neuroncore::spec::Experiment;
use view::protocol::Request;
use wasm_bindgen::prelude::*;
use web_sys::{Element, Event};

use crate::nc;
use view::workers::{retire, Live};

/// The device benchmark under way: its workers and what they have measured.
#[derive(Default)]
pub struct Bench {
    pub workers: Vec<Live>,
    pub single: Option<f64>,
    pub results: Vec<(f64, f64)>,
    pub threads: u32,
}

impl Bench {
    /// Stops every worker measuring.
    pub fn retire(b: Option<Self>) {
        for l in b.map(|b| b.workers).unwrap_or_default() {
            retire(Some(l));
        }
    }
}

/// The page mounted now.
pub struct Page {
    pub root: Element,
    pub spec: KernelSpec,
    pub device: Vec<DeviceRoof>,
    pub on_change: js_sys::Function,
    pub runner: Option<Live>,
    pub ready: bool,
    pub pending: Option<Request>,
    pub busy: bool,
    pub confirm: bool,
    pub bench: Option<Bench>,
    pub _listeners: Vec<Closure<dyn FnMut(Event)>>,
    /// The NeuronCore section: its experiment, worker and timeline.
    pub nc: Nc,
}

/// The NeuronCore section's state.
#[derive(Default)]
pub struct Nc {
    pub exp: Experiment,
    pub runner: Option<Live>,
    pub ready: bool,
    pub busy: bool,
    pub pending: Option<Request>,
    pub whats: Vec<String>,
    pub timeline: Option<nc::Timeline>,
    pub drag: Option<(f64, (f64, f64))>,
    /// Why the link's experiment was not used, shown until the form changes.
    pub note: String,
    /// The last result's intensity and whole-chip FLOP/s, for the Roofline page.
    pub point: Option<[f64; 2]>,
    pub listeners: Vec<Closure<dyn FnMut(Event)>>,
}

thread_local! {
    pub static PAGE: RefCell<Option<Rc<RefCell<Page>>>> = const { RefCell::new(None) };
}

/// The page, while it is mounted.
pub fn page() -> Option<Rc<RefCell<Page>>> {
    PAGE.with(|p| p.borrow().clone())
}

/// Tells the shell the page's keys, so the link carries them.
pub fn notify() {
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
