//! A panic in wasm would leave a dead page; this hook shows what happened instead, with a
//! link back to the last state that drew without one.
//!
//! The shell records each state it writes to the address bar as good (in a `data-last-good`
//! attribute on `<html>`, so the page modules, which are separate wasm instances, read the
//! same), unless a panic came first.

use wasm_bindgen::JsCast;

const LAST_GOOD: &str = "data-last-good";
const PANICKED: &str = "data-panicked";

/// Replace the default panic hook with one that logs and shows an error panel.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        let msg = info.to_string();
        web_sys::console::error_1(&msg.clone().into());
        show_panel(&msg);
    }));
}

fn root() -> Option<web_sys::Element> {
    web_sys::window()?.document()?.document_element()
}

/// Record `query` as a state that drew without a panic (none has happened yet).
pub fn remember_good(query: &str) {
    if let Some(r) = root() {
        if !r.has_attribute(PANICKED) {
            r.set_attribute(LAST_GOOD, query).ok();
        }
    }
}

/// Append the error panel to `<body>` with `msg` as the details.
pub fn show_panel(msg: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let good = root().and_then(|r| {
        r.set_attribute(PANICKED, "").ok();
        r.get_attribute(LAST_GOOD)
    });
    // None: the page never drew (the link it opened with may be the cause).
    let (href, text) = match good {
        Some(q) => (format!("?{q}"), "Reopen the last state that worked"),
        None => (
            format!("?v={}", engine::scenario::VERSION),
            "Open the default view",
        ),
    };
    if doc.get_element_by_id("panic-panel").is_some() {
        return;
    }
    let Ok(panel) = doc.create_element("div") else {
        return;
    };
    panel.set_id("panic-panel");
    panel.set_attribute("role", "alert").ok();
    let add = |tag: &str, text: &str| -> Option<web_sys::Element> {
        let e = doc.create_element(tag).ok()?;
        e.set_text_content(Some(text));
        panel.append_child(&e).ok()?;
        Some(e)
    };
    add("h2", "accelscope stopped with an internal error");
    add(
        "p",
        "This is a bug, and what you see may be out of date. The link below reopens the page in the last state that worked; the details follow.",
    );
    if let Some(a) = add("a", text) {
        a.set_attribute("href", &href).ok();
        a.set_attribute("class", "button").ok();
    }
    add("pre", msg);
    if let Some(body) = doc.body() {
        body.append_child(panel.unchecked_ref()).ok();
    }
}

/// Panics on purpose: the end-to-end tests call it through a module's `simulate_panic` to
/// check that a panic shows the error panel with its way back, which no valid input can reach.
pub fn simulate() {
    panic!("a simulated panic, to check the error panel");
}
