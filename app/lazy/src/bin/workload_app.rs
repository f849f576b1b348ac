//! The app with the Workload page built in: what a link to the Workload page starts from (see
//! [`app::LocalPage`]). Opened from the app, the page comes as its own module (`workload`).

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

fn main() {}

/// Installs the panic panel and mounts the app, with the Workload page in it, on `<body>`.
#[wasm_bindgen]
pub fn start() {
    app::start_with(Some((engine::scenario::Page::Workload, || {
        app::pages::workload::add_style();
        app::pages::workload::WorkloadPage().into_any()
    })));
}

/// Panics on purpose, as the app's module does (the end-to-end tests check the error panel).
#[wasm_bindgen]
pub fn simulate_panic() {
    app::panic::simulate();
}
