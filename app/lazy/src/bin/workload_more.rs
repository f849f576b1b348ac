//! The Workload page's views below its answer as a module of their own: the page's first
//! answer does not wait for their code. The page mounts it once that answer has painted and
//! hands it every change of the scenario.

use wasm_bindgen::prelude::*;

fn main() {}

/// Mounts the views in `el` with the scenario of `query`.
#[wasm_bindgen]
pub fn mount(el: web_sys::Element, query: &str, on_change: js_sys::Function) {
    app::module::mount(el, query, on_change, app::pages::workload::WorkloadMore);
}

/// Takes the page's changed scenario.
#[wasm_bindgen]
pub fn update(query: &str) {
    app::module::update(query);
}

/// Removes the views.
#[wasm_bindgen]
pub fn unmount() {
    app::module::unmount();
}
