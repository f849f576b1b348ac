//! Chart exports as their own module: the canvas charts drawn again as SVG, fetched on the
//! first SVG download.

use wasm_bindgen::prelude::*;

fn main() {}

/// The SVG of chart `chart` for the scenario of `query`.
///
/// # Errors
/// An unknown chart or a drawing error, as a message.
#[wasm_bindgen]
pub fn svg(chart: &str, query: &str) -> Result<String, JsValue> {
    app::charts::svg::chart_svg(chart, query).map_err(|e| JsValue::from_str(&e))
}
