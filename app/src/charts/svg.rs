//! Canvas charts drawn again as SVG files, through plotters' SVG backend and the same drawing
//! code. Built into the `charts` module, which the shell fetches on the first SVG download, so
//! the first page carries neither the backend nor a second copy of the charts.

use plotters::prelude::{IntoDrawingArea, SVGBackend};

use crate::charts::collectives::Metric;

/// The SVG of chart `chart` (`roofline`, `collective-time`, `collective-busbw`) for the
/// scenario of `query`.
///
/// # Errors
/// An unknown chart, or a drawing error.
pub fn chart_svg(chart: &str, query: &str) -> Result<String, String> {
    let (s, _) = engine::Scenario::from_query(query);
    let mut out = String::new();
    {
        let err = |e| format!("{chart}: {e:?}");
        match chart {
            "roofline" => {
                let area = SVGBackend::with_string(&mut out, (900, 560)).into_drawing_area();
                let data = crate::pages::roofline::roofline_data(&s);
                crate::charts::roofline::draw(&area, &data, 1.0).map_err(err)?;
                area.present().map_err(err)?;
            }
            "collective-time" | "collective-busbw" => {
                let metric = if chart == "collective-time" {
                    Metric::Time
                } else {
                    Metric::Busbw
                };
                let area = SVGBackend::with_string(&mut out, (720, 500)).into_drawing_area();
                let data = crate::pages::collectives::collective_data(&s);
                crate::charts::collectives::draw(&area, &data, metric, 1.0).map_err(err)?;
                area.present().map_err(err)?;
            }
            _ => return Err(format!("there is no chart '{chart}'")),
        }
    }
    Ok(out)
}
