//! Downloads as their own module, fetched on the first one: tables as CSV, charts as PNG and
//! SVG (the canvas charts drawn again through plotters' SVG backend).

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

/// Makes the file export button `kind` (`csv`, `png` or `svg`) of element `id` asks for.
#[wasm_bindgen]
pub fn export_button(kind: &str, id: &str) {
    app::export::serve(kind, id);
}
