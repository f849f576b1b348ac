//! The Learn page as its own module: its lessons and exercises stay out of the first page's download.

use wasm_bindgen::prelude::*;

fn main() {}

/// Mounts the page in `el` with the scenario of `query`.
#[wasm_bindgen]
pub fn mount(el: web_sys::Element, query: &str, on_change: js_sys::Function) {
    app::module::add_style("learn", include_str!("../../../../styles/learn.css"));
    app::module::mount(el, query, on_change, app::pages::learn::LearnPage);
}

/// Removes the page.
#[wasm_bindgen]
pub fn unmount() {
    app::module::unmount();
}
