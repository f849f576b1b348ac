//! The Workload & TCO page as its own module: the largest page, and the engine's training,
//! serving and cost code with it, stay out of the first page's download.

use wasm_bindgen::prelude::*;

fn main() {}

/// Mounts the page in `el` with the scenario of `query`.
#[wasm_bindgen]
pub fn mount(el: web_sys::Element, query: &str, on_change: js_sys::Function) {
    app::pages::workload::add_style();
    app::module::mount(el, query, on_change, app::pages::workload::WorkloadPage);
}

/// Removes the page.
#[wasm_bindgen]
pub fn unmount() {
    app::module::unmount();
}
