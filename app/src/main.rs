//! Entry point of the accelscope web app: installs the panic panel and mounts the app.

use wasm_bindgen::prelude::*;

fn main() {
    app::start();
}

/// Panics on purpose: the end-to-end tests call it (`wasmBindings.simulate_panic()`) to check
/// that a panic shows the error panel with its way back, which no valid input can reach.
#[wasm_bindgen]
pub fn simulate_panic() {
    app::panic::simulate();
}
