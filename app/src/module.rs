//! A page built as its own wasm module ([`crate::pages::lazy`] loads it): the page mounts with
//! its own copy of the scenario, decoded from the link, and hands every change back to the
//! shell as a whole query, which the shell takes as its scenario and writes to the link.
//!
//! A part of a page can be a module of its own the same way (the Workload page's views below
//! its answer): the page mounts it with the query and hands it each change ([`update`]); the
//! part hands its own changes back like a page.

use std::any::Any;
use std::cell::RefCell;

use engine::Scenario;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::state::{Notices, ScenarioCtx};

thread_local! {
    static MOUNTED: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
    /// The mounted scenario, for [`update`].
    static SCENARIO: RefCell<Option<RwSignal<Scenario>>> = const { RefCell::new(None) };
    /// The query last handed over, either way: a change that came in is not sent back.
    static LAST: RefCell<String> = const { RefCell::new(String::new()) };
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
        SCENARIO.with(|s| *s.borrow_mut() = Some(sc));
        provide_context(ScenarioCtx(sc));
        provide_context(Notices(RwSignal::new(Vec::new())));
        Effect::new(move |first: Option<()>| {
            let q = sc.with(Scenario::to_query);
            let sent = LAST.with(|l| std::mem::replace(&mut *l.borrow_mut(), q.clone()));
            if first.is_some() && sent != q {
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

/// Takes the scenario of `query`, changed where the module was mounted from; it is not handed
/// back.
pub fn update(query: &str) {
    if LAST.with(|l| *l.borrow() == query) {
        return;
    }
    LAST.with(|l| query.clone_into(&mut l.borrow_mut()));
    if let Some(sc) = SCENARIO.with(|s| *s.borrow()) {
        sc.try_set(Scenario::from_query(query).0);
    }
}

/// Unmounts the page (dropping the handle removes its nodes and disposes its signals).
pub fn unmount() {
    SCENARIO.with(|s| s.borrow_mut().take());
    MOUNTED.with(|m| m.borrow_mut().take());
}
