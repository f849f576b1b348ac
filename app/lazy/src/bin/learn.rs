//! The Learn page as its own module: its lessons and exercises stay out of the first page's download.

use wasm_bindgen::prelude::*;

fn main() {}

/// Mounts the page in `el` with the scenario of `query`.
#[wasm_bindgen]
pub fn mount(el: web_sys::Element, query: &str, on_change: js_sys::Function) {
    app::pages::learn::add_style();
    app::module::mount(el, query, on_change, app::pages::learn::LearnPage);
}

/// Removes the page.
#[wasm_bindgen]
pub fn unmount() {
    app::module::unmount();
}
