//! Time and bus bandwidth against message size (log-log), like the charts of nccl-tests, with
//! measured calibration points drawn beside the prediction.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::roofline::PALETTE;
use super::{draw_legend, trace, Corner, LegendEntry};

/// Which quantity the y axis shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Seconds.
    Time,
    /// Bus bandwidth, B/s.
    Busbw,
}

/// One predicted curve.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// Colour index (system).
    pub color: usize,
    /// Dashed (second and later op/algorithm of a system).
    pub dashed: bool,
    /// (bytes, seconds, busbw B/s) per size.
    pub points: Vec<(f64, f64, f64)>,
}

/// A published measurement placed on the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// Short tag, matching the calibration table: `M1`.
    pub tag: String,
    /// Colour index (system).
    pub color: usize,
    /// Message size.
    pub bytes: f64,
    /// Which chart it belongs on.
    pub metric: Metric,
    /// The measured value.
    pub value: f64,
}

/// Everything both charts show.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CollectiveData {
    /// Predicted curves.
    pub series: Vec<Series>,
    /// Measured points.
    pub measured: Vec<Measurement>,
}

fn y_of(m: Metric, p: &(f64, f64, f64)) -> f64 {
    match m {
        Metric::Time => p.1,
        Metric::Busbw => p.2,
    }
}

fn decade(v: f64, up: bool) -> f64 {
    let l = v.log10();
    10f64.powf(if up { l.ceil() } else { l.floor() })
}

/// Axis ranges covering every point and measurement.
#[must_use]
pub fn ranges(d: &CollectiveData, m: Metric) -> ((f64, f64), (f64, f64)) {
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    let (mut x0, mut x1) = (f64::INFINITY, 0.0f64);
    for s in &d.series {
        for p in &s.points {
            let y = y_of(m, p);
            if y.is_finite() && y > 0.0 {
                lo = lo.min(y);
                hi = hi.max(y);
            }
            x0 = x0.min(p.0);
            x1 = x1.max(p.0);
        }
    }
    for q in d.measured.iter().filter(|q| q.metric == m) {
        lo = lo.min(q.value);
        hi = hi.max(q.value);
    }
    if !(lo.is_finite() && hi > 0.0) {
        return ((8.0, 16.0 * 1_073_741_824.0), (1e-6, 1.0));
    }
    // Bus bandwidth spans eight decades from 8 B up; the four below the top hold what a
    // reader compares (the ramp and the plateau), so the axis stops there.
    if m == Metric::Busbw {
        lo = lo.max(hi / 1e4);
    }
    (
        (x0.min(8.0), x1.max(1024.0)),
        (decade(lo, false), decade(hi * 1.5, true)),
    )
}

/// Draw `metric` against size on `area`; `scale` multiplies line widths and fonts.
///
/// # Errors
/// Whatever the backend reports.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    d: &CollectiveData,
    metric: Metric,
    scale: f64,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let px = |v: f64| (v * scale).round() as u32;
    area.fill(&WHITE)?;
    let ((x0, x1), (y0, y1)) = ranges(d, metric);
    let font = ("sans-serif", f64::from(px(12.0))).into_font();
    // Sizes are powers of two, as the page's size and nccl-tests' are: the axis is marked in
    // binary units, every 32× where about 70 px a label fits, else every 1024×, so a phone's
    // reads "1KiB  1MiB  1GiB", never "10kB100kB1MB".
    let width = f64::from(area.dim_in_pixel().0) / scale.max(1e-9);
    let x_labels = (width / 70.0).clamp(3.0, 12.0) as usize;
    let step = if x_labels >= 6 { 32.0 } else { 1024.0 };
    let mut chart = ChartBuilder::on(area)
        .margin(px(10.0))
        .x_label_area_size(px(40.0))
        .y_label_area_size(px(62.0))
        .build_cartesian_2d((x0..x1).log_scale().base(step), (y0..y1).log_scale())?;
    let ydesc = match metric {
        Metric::Time => "Time",
        Metric::Busbw => "Bus bandwidth (B/s)",
    };
    chart
        .configure_mesh()
        .x_labels(x_labels)
        .x_desc("Message size (nccl-tests convention)")
        .y_desc(ydesc)
        .x_label_formatter(&|v| engine::units::iec(*v).replace(' ', ""))
        .y_label_formatter(&|v| match metric {
            Metric::Time => engine::Seconds::new(*v).display_si().replace(' ', ""),
            Metric::Busbw => engine::units::si(*v, "").replace(' ', ""),
        })
        .label_style(font.clone())
        .axis_desc_style(font.clone())
        .light_line_style(RGBColor(240, 240, 240))
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()?;
    for s in &d.series {
        let color = PALETTE[s.color % PALETTE.len()];
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .map(|p| (p.0, y_of(metric, p)))
            // Below the axis a line would run along its floor; it starts where it enters.
            .filter(|p| p.1.is_finite() && p.1 >= y0)
            .collect();
        let style = color.stroke_width(px(2.0));
        if s.dashed {
            chart.draw_series(DashedLineSeries::new(pts, px(6.0), px(4.0), style))?;
        } else {
            chart.draw_series(LineSeries::new(pts, style))?;
        }
    }
    // Tags sit left of their diamond (the measurements are near the right edge), or above it
    // when that spot is taken; a tag that fits nowhere is left off (the table has them all).
    let tag_font = TextStyle::from(font.clone()).pos(Pos::new(HPos::Right, VPos::Center));
    let mut placed: Vec<(i32, i32, i32, i32)> = Vec::new();
    let r = px(6.0) as i32;
    let (tw, th) = (px(28.0) as i32, px(14.0) as i32);
    let overlaps = |b: &(i32, i32, i32, i32), placed: &[(i32, i32, i32, i32)]| {
        placed
            .iter()
            .any(|p| b.0 < p.2 && p.0 < b.2 && b.1 < p.3 && p.1 < b.3)
    };
    for q in d.measured.iter().filter(|q| q.metric == metric) {
        let color = PALETTE[q.color % PALETTE.len()];
        let (cx, cy) = chart.backend_coord(&(q.bytes, q.value));
        placed.push((cx - r, cy - r, cx + r, cy + r));
        let left = (cx - r - 3 - tw, cy - th / 2, cx - r - 3, cy + th / 2);
        let above = (cx - tw / 2, cy - r - 2 - th, cx + tw / 2, cy - r - 2);
        let spot = if !overlaps(&left, &placed) {
            Some(((-(r + 3), 0), left))
        } else if !overlaps(&above, &placed) {
            Some(((tw / 2, -(r + 2 + th / 2)), above))
        } else {
            None
        };
        let diamond = EmptyElement::at((q.bytes, q.value))
            + Polygon::new(vec![(0, -r), (r, 0), (0, r), (-r, 0)], color.filled())
            + Polygon::new(
                vec![(0, -r), (r, 0), (0, r), (-r, 0)],
                BLACK.stroke_width(1),
            );
        match spot {
            Some((offset, rect)) => {
                placed.push(rect);
                chart.draw_series(std::iter::once(
                    diamond + Text::new(q.tag.clone(), offset, tag_font.clone()),
                ))?;
            }
            None => {
                chart.draw_series(std::iter::once(diamond))?;
            }
        }
    }
    if !d.series.is_empty() {
        let entries: Vec<LegendEntry> = d
            .series
            .iter()
            .map(|s| LegendEntry {
                label: s.label.clone(),
                color: PALETTE[s.color % PALETTE.len()],
                dashed: s.dashed,
            })
            .collect();
        // What the legend must not hide: the measurements with their tags (`placed`) above
        // all, then the curves.
        let (ox, oy) = chart.plotting_area().get_pixel_range();
        let origin = (ox.start, oy.start);
        let mut avoid = Vec::new();
        for s in &d.series {
            let line: Vec<(i32, i32)> = s
                .points
                .iter()
                .map(|p| (p.0, y_of(metric, p)))
                .filter(|p| p.1.is_finite() && p.1 >= y0)
                .map(|p| chart.backend_coord(&p))
                .collect();
            avoid.extend(trace(&line, origin));
        }
        // Time rises to the right, bus bandwidth levels off at the top: each leaves the
        // opposite corner empty first.
        let prefer = match metric {
            Metric::Time => [
                Corner::UpperLeft,
                Corner::LowerRight,
                Corner::UpperRight,
                Corner::LowerLeft,
            ],
            Metric::Busbw => [
                Corner::LowerRight,
                Corner::UpperLeft,
                Corner::LowerLeft,
                Corner::UpperRight,
            ],
        };
        draw_legend(
            &chart.plotting_area().strip_coord_spec(),
            &entries,
            &font,
            scale,
            &avoid,
            &placed,
            prefer,
        )?;
    }
    area.present()
}

/// Both charts' data as CSV.
#[must_use]
pub fn to_csv(d: &CollectiveData) -> String {
    let mut s = String::from("series,bytes,time_s,busbw_bytes_per_s\n");
    for x in &d.series {
        for p in &x.points {
            s.push_str(&format!(
                "\"{}\",{},{},{}\n",
                x.label.replace('"', "'"),
                p.0,
                p.1,
                p.2
            ));
        }
    }
    for q in &d.measured {
        let (t, b) = match q.metric {
            Metric::Time => (q.value.to_string(), String::new()),
            Metric::Busbw => (String::new(), q.value.to_string()),
        };
        s.push_str(&format!("\"measured {}\",{},{t},{b}\n", q.tag, q.bytes));
    }
    s
}

/// The charts' data as an HTML table: their text alternative.
#[must_use]
pub fn data_table_html(d: &CollectiveData) -> String {
    use engine::units::sig;
    let esc = crate::widgets::escape;
    let mut s = String::from(
        r#"<table class="grid" id="collective-data"><thead><tr><th scope="col">series</th><th scope="col">bytes</th><th scope="col">time (µs)</th><th scope="col">busbw (GB/s)</th></tr></thead><tbody>"#,
    );
    for x in &d.series {
        for p in &x.points {
            s.push_str(&format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&x.label),
                p.0,
                sig(p.1 * 1e6, 4),
                sig(p.2 / 1e9, 4)
            ));
        }
    }
    for q in &d.measured {
        let (t, b) = match q.metric {
            Metric::Time => (sig(q.value * 1e6, 4), String::new()),
            Metric::Busbw => (String::new(), sig(q.value / 1e9, 4)),
        };
        s.push_str(&format!(
            "<tr><td>measured {}</td><td>{}</td><td>{t}</td><td>{b}</td></tr>",
            esc(&q.tag),
            q.bytes
        ));
    }
    s.push_str("</tbody></table>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> CollectiveData {
        CollectiveData {
            series: vec![Series {
                label: "NVL72 all-reduce auto".into(),
                color: 0,
                dashed: false,
                points: (3..35)
                    .map(|k| {
                        let b = 2f64.powi(k);
                        let t = 4e-6 + b / 4e11;
                        (b, t, b / t * 1.97)
                    })
                    .collect(),
            }],
            measured: vec![Measurement {
                tag: "M1".into(),
                color: 0,
                bytes: 8.0 * 1_073_741_824.0,
                metric: Metric::Busbw,
                value: 8.5e11,
            }],
        }
    }

    #[test]
    fn both_charts_draw_with_legend_and_measurement() {
        for m in [Metric::Time, Metric::Busbw] {
            let mut svg = String::new();
            {
                let area = SVGBackend::with_string(&mut svg, (700, 420)).into_drawing_area();
                draw(&area, &sample(), m, 1.0).unwrap();
            }
            assert!(svg.contains("NVL72 all-reduce auto"));
            assert_eq!(
                svg.contains("M1"),
                m == Metric::Busbw,
                "the measurement sits on its own chart"
            );
        }
    }

    #[test]
    fn ranges_cover_curves_and_measurements() {
        let ((x0, x1), (y0, y1)) = ranges(&sample(), Metric::Busbw);
        assert!(x0 <= 8.0 && x1 >= 16.0 * 1_073_741_824.0);
        // The top four decades of bus bandwidth, measurements included.
        assert!(
            y1 >= 8.5e11 && y0 <= 8.5e11 / 1e3 && y0 >= y1 / 1e6,
            "{y0} {y1}"
        );
        assert_eq!(to_csv(&sample()).lines().count(), 1 + 32 + 1);
    }
}
