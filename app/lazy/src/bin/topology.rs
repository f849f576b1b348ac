//! The Topology page as its own module: the fabric drawings, hop distances, blast radius and the system editor stay out of the first page's download.

use wasm_bindgen::prelude::*;

fn main() {}

/// Mounts the page in `el` with the scenario of `query`.
#[wasm_bindgen]
pub fn mount(el: web_sys::Element, query: &str, on_change: js_sys::Function) {
    app::pages::topology::add_style();
    app::module::mount(el, query, on_change, app::pages::topology::TopologyPage);
}

/// Removes the page.
#[wasm_bindgen]
pub fn unmount() {
    app::module::unmount();
}
