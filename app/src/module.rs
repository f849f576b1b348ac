//! A page built as its own wasm module ([`crate::pages::lazy`] loads it): the page mounts with
//! its own copy of the scenario, decoded from the link, and hands every change back to the
//! shell as a whole query, which the shell takes as its scenario and writes to the link.

use std::any::Any;
use std::cell::RefCell;

use engine::Scenario;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::state::{Notices, ScenarioCtx};

thread_local! {
    static MOUNTED: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

/// Mounts `view` inside `el` with the scenario of `query`; `on_change` receives the scenario's
/// query after every change the page makes.
pub fn mount<V: IntoView + 'static>(
    el: web_sys::Element,
    query: &str,
    on_change: js_sys::Function,
    view: fn() -> V,
) {
    crate::panic::install();
    unmount();
    el.set_inner_html("");
    let (scenario, _) = Scenario::from_query(query);
    let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() else {
        return;
    };
    let handle = leptos::mount::mount_to(el, move || {
        let sc = RwSignal::new(scenario);
        provide_context(ScenarioCtx(sc));
        provide_context(Notices(RwSignal::new(Vec::new())));
        Effect::new(move |first: Option<()>| {
            let q = sc.with(Scenario::to_query);
            if first.is_some() {
                let _ = on_change.call1(
                    &wasm_bindgen::JsValue::NULL,
                    &wasm_bindgen::JsValue::from_str(&q),
                );
            }
        });
        view()
    });
    MOUNTED.with(|m| *m.borrow_mut() = Some(Box::new(handle)));
}

/// Adds a page's own stylesheet to the document, once: rules only its page uses ship in its
/// module, so the first page's stylesheet does not grow as pages are added.
pub fn add_style(page: &str, css: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let id = format!("style-{page}");
    if doc.get_element_by_id(&id).is_some() {
        return;
    }
    let (Ok(style), Some(head)) = (doc.create_element("style"), doc.head()) else {
        return;
    };
    style.set_id(&id);
    style.set_text_content(Some(css));
    let _ = head.append_child(&style);
}

/// Unmounts the page (dropping the handle removes its nodes and disposes its signals).
pub fn unmount() {
    MOUNTED.with(|m| m.borrow_mut().take());
}
