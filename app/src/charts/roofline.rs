//! The log-log roofline chart: one roof per chip and format, operations as marked points.

use super::{draw_legend, trace, Corner, LegendEntry};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One roof: a chip in one format.
#[derive(Clone, Debug, PartialEq)]
pub struct Roof {
    /// Legend text, e.g. `Trn2 BF16`.
    pub label: String,
    /// Compute ceiling, FLOP/s.
    pub peak: f64,
    /// HBM bandwidth, B/s.
    pub bandwidth: f64,
    /// Index of the chip (colour).
    pub chip: usize,
    /// Index of the format among those drawn (line style).
    pub format: usize,
}

/// One operation at one format: a vertical marker at its intensity.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    /// Short tag printed on the chart, matching the table: `1`, `2`…
    pub tag: String,
    /// FLOP per HBM byte.
    pub intensity: f64,
    /// Index of the format among those drawn.
    pub format: usize,
}

/// A result placed where it was achieved (a simulated schedule), not on a roof.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// What it is.
    pub label: String,
    /// FLOP per HBM byte.
    pub intensity: f64,
    /// FLOP/s achieved.
    pub flops: f64,
}

/// Everything the chart shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RooflineData {
    /// The roofs.
    pub roofs: Vec<Roof>,
    /// The operations.
    pub markers: Vec<Marker>,
    /// Achieved points.
    pub points: Vec<Point>,
}

/// Colours of the chips, in order (colour-blind-safe Okabe–Ito, then extras).
pub const PALETTE: [RGBColor; 10] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(120, 94, 240),
    RGBColor(90, 90, 90),
    RGBColor(170, 40, 40),
    RGBColor(40, 120, 40),
];

/// The colour of chip `i` as CSS hex, for the legend in HTML.
#[must_use]
pub fn css_color(i: usize) -> String {
    let c = PALETTE[i % PALETTE.len()];
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

impl RooflineData {
    /// Axis ranges (x: FLOP/B, y: FLOP/s) that show every ridge, ceiling and marker.
    #[must_use]
    pub fn ranges(&self) -> ((f64, f64), (f64, f64)) {
        let mut xmin = 0.5f64;
        let mut xmax = 100.0f64;
        let mut ymax = 1e12f64;
        // Only finite, positive figures set the axes, and the axes stay within decades any
        // chart can draw (the engine bounds its inputs; this keeps a bad one from the axes).
        let ok = |v: f64| v.is_finite() && v > 0.0;
        for r in self.roofs.iter().filter(|r| ok(r.peak) && ok(r.bandwidth)) {
            xmax = xmax.max(r.peak / r.bandwidth * 8.0);
            ymax = ymax.max(r.peak * 2.5);
        }
        let xs = self.markers.iter().map(|m| m.intensity);
        for x in xs
            .chain(self.points.iter().map(|p| p.intensity))
            .filter(|x| ok(*x))
        {
            xmin = xmin.min(x / 2.0);
            xmax = xmax.max(x * 2.0);
        }
        let (xmin, xmax) = (xmin.max(1e-6), xmax.min(1e16));
        let ymax = ymax.min(1e24);
        let (x0, x1) = (decade_floor(xmin), decade_ceil(xmax));
        // The slope must start inside the plot: plotters clamps points outside the range,
        // which would bend every roof into the corner.
        let ymin = self
            .roofs
            .iter()
            .map(|r| r.bandwidth * x0)
            .filter(|y| ok(*y))
            .fold(ymax / 1e4, f64::min)
            .max(1.0);
        ((x0, x1), (decade_floor(ymin), decade_ceil(ymax)))
    }
}

fn decade_floor(v: f64) -> f64 {
    10f64.powf(v.log10().floor())
}
fn decade_ceil(v: f64) -> f64 {
    10f64.powf(v.log10().ceil())
}

/// Axis tick text: `0.01`, `1`, `10k`, `100T`.
fn tick(v: f64) -> String {
    if v < 1.0 {
        engine::units::sig(v, 3)
    } else {
        engine::units::si(v, "").replace(' ', "")
    }
}

/// Where the plot landed in backend pixels, to map the pointer back to data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// Left and right edge of the plotting area, backend pixels.
    pub px_x: (f64, f64),
    /// Top and bottom edge, backend pixels.
    pub px_y: (f64, f64),
    /// Intensity at the left and right edges, FLOP/B.
    pub x: (f64, f64),
}

impl Frame {
    /// The intensity under backend pixel column `px`, if it is inside the plot.
    #[must_use]
    pub fn intensity_at(&self, px: f64, py: f64) -> Option<f64> {
        let (l, r) = self.px_x;
        let (t, b) = self.px_y;
        if px < l || px > r || py < t || py > b || r <= l {
            return None;
        }
        let (a, z) = (self.x.0.log10(), self.x.1.log10());
        Some(10f64.powf(a + (px - l) / (r - l) * (z - a)))
    }
}

/// Draw the chart on `area`. `scale` multiplies line widths and fonts (device pixel ratio).
///
/// # Errors
/// Whatever the backend reports.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &RooflineData,
    scale: f64,
) -> Result<Frame, DrawingAreaErrorKind<DB::ErrorType>> {
    let px = |v: f64| (v * scale).round() as u32;
    area.fill(&WHITE)?;
    let ((x0, x1), (y0, y1)) = data.ranges();
    let font = ("sans-serif", px(13.0) as f64).into_font();
    let mut chart = ChartBuilder::on(area)
        .margin(px(12.0))
        .x_label_area_size(px(44.0))
        .y_label_area_size(px(64.0))
        .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("Arithmetic intensity (FLOP per HBM byte)")
        .y_desc("Attainable FLOP/s (dense)")
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| tick(*v))
        .label_style(font.clone())
        .axis_desc_style(font.clone())
        .light_line_style(RGBColor(238, 238, 238))
        .bold_line_style(RGBColor(210, 210, 210))
        .draw()?;

    for r in &data.roofs {
        let color = PALETTE[r.chip % PALETTE.len()];
        let ridge = r.peak / r.bandwidth;
        let pts = vec![(x0, r.bandwidth * x0), (ridge, r.peak), (x1, r.peak)];
        let style = color.stroke_width(px(2.0));
        if r.format == 0 {
            chart.draw_series(LineSeries::new(pts, style))?;
        } else {
            let dash = px(4.0 + 3.0 * r.format as f64);
            chart.draw_series(DashedLineSeries::new(pts, dash, px(4.0), style))?;
        }
        chart.draw_series(std::iter::once(Circle::new(
            (ridge, r.peak),
            px(3.0),
            color.filled(),
        )))?;
    }

    // Tags never overlap: each takes the first row (from the top) where it clears the last tag
    // placed there by a gap, measured in pixels at this width, so a phone's narrower chart
    // spreads the same tags over more rows.
    let mut order: Vec<usize> = (0..data.markers.len()).collect();
    order.sort_by(|a, b| {
        data.markers[*a]
            .intensity
            .total_cmp(&data.markers[*b].intensity)
    });
    let mut rows = vec![0usize; data.markers.len()];
    let mut halves = vec![0i32; data.markers.len()];
    let mut right_edges: Vec<i32> = Vec::new();
    for &k in &order {
        let m = &data.markers[k];
        let x = chart.backend_coord(&(m.intensity, y1)).0;
        let half = px(4.0 + 3.5 * m.tag.chars().count() as f64) as i32;
        halves[k] = half;
        let row = right_edges
            .iter()
            .position(|r| x - half > *r)
            .unwrap_or(right_edges.len());
        if row == right_edges.len() {
            right_edges.push(x + half);
        } else {
            right_edges[row] = x + half;
        }
        rows[k] = row;
    }
    // Each tag's box, which the legend must leave clear.
    let mut tags = Vec::new();
    for (k, m) in data.markers.iter().enumerate() {
        let grey = RGBColor(60, 60, 60);
        let at = (m.intensity, y1 / 1.6 / 2.2f64.powi(rows[k] as i32));
        let (cx, cy) = chart.backend_coord(&at);
        let half_h = px(8.0) as i32;
        tags.push((cx - halves[k], cy - half_h, cx + halves[k], cy + half_h));
        chart.draw_series(DashedLineSeries::new(
            vec![(m.intensity, y0), (m.intensity, y1)],
            px(3.0),
            px(3.0),
            grey.mix(0.5).stroke_width(px(1.0)),
        ))?;
        for r in data.roofs.iter().filter(|r| r.format == m.format) {
            let y = r.peak.min(r.bandwidth * m.intensity);
            let color = PALETTE[r.chip % PALETTE.len()];
            chart.draw_series(std::iter::once(Circle::new(
                (m.intensity, y),
                px(4.0),
                ShapeStyle::from(color).filled(),
            )))?;
        }
        chart.draw_series(std::iter::once(Text::new(
            m.tag.clone(),
            at,
            font.clone()
                .color(&grey)
                .pos(Pos::new(HPos::Center, VPos::Center)),
        )))?;
    }

    for p in data
        .points
        .iter()
        .filter(|p| p.flops >= y0 && p.flops <= y1)
    {
        let ink = RGBColor(20, 20, 20);
        chart.draw_series(std::iter::once(Circle::new(
            (p.intensity, p.flops),
            px(6.0),
            ShapeStyle::from(ink).filled(),
        )))?;
        chart.draw_series(std::iter::once(Text::new(
            p.label.clone(),
            (p.intensity * 1.15, p.flops / 1.5),
            font.clone().color(&ink),
        )))?;
    }

    if !data.roofs.is_empty() {
        let entries: Vec<LegendEntry> = data
            .roofs
            .iter()
            .map(|r| LegendEntry {
                label: r.label.clone(),
                color: PALETTE[r.chip % PALETTE.len()],
                dashed: r.format != 0,
            })
            .collect();
        // What the legend must not hide: the operations' tags above all, then the roofs, the
        // operations' lines and dots, the achieved points.
        let (ox, oy) = chart.plotting_area().get_pixel_range();
        let origin = (ox.start, oy.start);
        let at = |x: f64, y: f64| chart.backend_coord(&(x, y));
        let mut avoid = Vec::new();
        for r in &data.roofs {
            let ridge = r.peak / r.bandwidth;
            let line = [at(x0, r.bandwidth * x0), at(ridge, r.peak), at(x1, r.peak)];
            avoid.extend(trace(&line, origin));
        }
        for m in &data.markers {
            avoid.extend(trace(&[at(m.intensity, y0), at(m.intensity, y1)], origin));
        }
        for p in &data.points {
            avoid.extend(trace(&[at(p.intensity, p.flops)], origin));
        }
        draw_legend(
            &chart.plotting_area().strip_coord_spec(),
            &entries,
            &font,
            scale,
            &avoid,
            &tags,
            // Below the flat roofs at high intensity a roofline is empty.
            [
                Corner::LowerRight,
                Corner::UpperLeft,
                Corner::LowerLeft,
                Corner::UpperRight,
            ],
        )?;
    }
    let (px, py) = chart.plotting_area().get_pixel_range();
    area.present()?;
    Ok(Frame {
        px_x: (f64::from(px.start), f64::from(px.end)),
        px_y: (f64::from(py.start), f64::from(py.end)),
        x: (x0, x1),
    })
}

/// The chart's data as CSV: one line per roof, then one per marker.
#[must_use]
pub fn to_csv(data: &RooflineData) -> String {
    let mut s = String::from("kind,label,peak_flop_per_s,hbm_bandwidth_bytes_per_s,ridge_flop_per_byte,intensity_flop_per_byte\n");
    for r in &data.roofs {
        s.push_str(&format!(
            "roof,\"{}\",{},{},{},\n",
            r.label.replace('"', "'"),
            r.peak,
            r.bandwidth,
            r.peak / r.bandwidth
        ));
    }
    for m in &data.markers {
        s.push_str(&format!("operation,\"{}\",,,,{}\n", m.tag, m.intensity));
    }
    for p in &data.points {
        s.push_str(&format!(
            "achieved,\"{}\",{},,,{}\n",
            p.label.replace('"', "'"),
            p.flops,
            p.intensity
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> RooflineData {
        RooflineData {
            roofs: vec![
                Roof {
                    label: "Trn2 BF16".into(),
                    peak: 667e12,
                    bandwidth: 2.9e12,
                    chip: 0,
                    format: 0,
                },
                Roof {
                    label: "H100 FP8".into(),
                    peak: 1979e12,
                    bandwidth: 3.35e12,
                    chip: 1,
                    format: 1,
                },
            ],
            markers: vec![
                Marker {
                    tag: "1".into(),
                    intensity: 2730.0,
                    format: 0,
                },
                Marker {
                    tag: "2".into(),
                    intensity: 0.1667,
                    format: 0,
                },
            ],
            points: vec![Point {
                label: "NeuronCore schedule (trn2, every core)".into(),
                intensity: 118.7,
                flops: 3.242e14,
            }],
        }
    }

    #[test]
    fn ranges_cover_ridges_and_markers() {
        let ((x0, x1), (y0, y1)) = sample().ranges();
        assert!(x0 <= 0.5 && x1 >= 2730.0 * 2.0);
        assert!(y1 >= 1979e12 && y0 <= 2.9e12 * 0.5);
        for r in sample().roofs {
            assert!(
                r.bandwidth * x0 >= y0,
                "{}: the slope starts inside the plot",
                r.label
            );
        }
    }

    #[test]
    fn extreme_and_non_finite_figures_still_draw_within_bounded_axes() {
        let mut d = sample();
        for intensity in [f64::INFINITY, f64::NAN, 1e300, -1.0, 1e-300] {
            d.markers.push(Marker {
                tag: "x".into(),
                intensity,
                format: 0,
            });
        }
        d.roofs[0].peak = f64::INFINITY;
        let ((x0, x1), (y0, y1)) = d.ranges();
        assert!(
            x0 >= 1e-6 && x1 <= 1e16 && y0 >= 1.0 && y1 <= 1e24,
            "{x0} {x1} {y0} {y1}"
        );
        let mut svg = String::new();
        let area = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        draw(&area, &d, 1.0).unwrap();
    }

    #[test]
    fn draws_legend_and_markers_to_svg() {
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
            draw(&area, &sample(), 1.0).unwrap();
        }
        assert!(svg.contains("Trn2 BF16"), "legend names the roofs");
        assert!(svg.contains("H100 FP8"));
        assert!(svg.contains("Arithmetic intensity"));
        assert!(
            svg.contains("NeuronCore schedule"),
            "achieved points are labelled"
        );
        assert!(
            svg.matches("<circle").count() >= 3,
            "ridge points and marker points"
        );
    }

    #[test]
    fn frame_maps_pixels_back_to_intensity() {
        let mut svg = String::new();
        let frame = {
            let area = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
            draw(&area, &sample(), 1.0).unwrap()
        };
        let ((x0, x1), _) = sample().ranges();
        let (l, r) = frame.px_x;
        let mid = frame.px_y.0 + 10.0;
        assert!((frame.intensity_at(l, mid).unwrap() / x0 - 1.0).abs() < 1e-9);
        assert!((frame.intensity_at(r, mid).unwrap() / x1 - 1.0).abs() < 1e-9);
        let centre = frame.intensity_at((l + r) / 2.0, mid).unwrap();
        assert!((centre / (x0 * x1).sqrt() - 1.0).abs() < 1e-9, "log scale");
        assert_eq!(frame.intensity_at(l - 1.0, mid), None);
    }

    #[test]
    fn empty_chart_still_draws_axes() {
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (400, 300)).into_drawing_area();
            draw(&area, &RooflineData::default(), 2.0).unwrap();
        }
        assert!(svg.contains("Attainable FLOP/s"));
    }

    #[test]
    fn csv_has_a_line_per_roof_marker_and_point() {
        let csv = to_csv(&sample());
        assert_eq!(csv.lines().count(), 6);
        assert!(csv.contains(
            "achieved,\"NeuronCore schedule (trn2, every core)\",324200000000000,,,118.7"
        ));
        assert!(csv.contains("\"Trn2 BF16\",667000000000000,2900000000000,230"));
    }
}
