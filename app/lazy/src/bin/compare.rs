//! The Compare page as its own module: kept scenarios, side by side, and the waterfall.

use wasm_bindgen::prelude::*;

fn main() {}

/// Mounts the page in `el` with the scenario of `query`.
#[wasm_bindgen]
pub fn mount(el: web_sys::Element, query: &str, on_change: js_sys::Function) {
    app::pages::compare::add_style();
    app::module::mount(el, query, on_change, app::pages::compare::ComparePage);
}

/// Removes the page.
#[wasm_bindgen]
pub fn unmount() {
    app::module::unmount();
}
