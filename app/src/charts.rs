//! Charts as pure functions over any plotters backend; components only hand them a canvas.

pub mod canvas;
pub mod collectives;
pub mod roofline;
pub mod svg;
pub mod topology;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A corner of a chart's plotting area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corner {
    /// Top left.
    UpperLeft,
    /// Top right.
    UpperRight,
    /// Bottom left.
    LowerLeft,
    /// Bottom right.
    LowerRight,
}

/// One line of a legend.
pub struct LegendEntry {
    /// Text.
    pub label: String,
    /// Line colour.
    pub color: RGBColor,
    /// Dashed line.
    pub dashed: bool,
}

/// The pixels a polyline passes through, every few pixels along it: what a legend must not
/// cover. `pts` are in the backend's coordinates; `origin` is the plotting area's top left.
#[must_use]
pub fn trace(pts: &[(i32, i32)], origin: (i32, i32)) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    for w in pts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let steps = ((b.0 - a.0).abs().max((b.1 - a.1).abs()) / 4).max(1);
        for i in 0..steps {
            out.push((
                a.0 + (b.0 - a.0) * i / steps - origin.0,
                a.1 + (b.1 - a.1) * i / steps - origin.1,
            ));
        }
    }
    out.extend(pts.last().map(|p| (p.0 - origin.0, p.1 - origin.1)));
    out
}

/// Of `corners` (top-left points of a `size` box), the first that overlaps the fewest of
/// `labels` and then covers the fewest of `avoid`'s points; all in the same coordinates.
#[must_use]
pub fn least_covered(
    corners: &[(i32, i32)],
    (w, h): (i32, i32),
    avoid: &[(i32, i32)],
    labels: &[(i32, i32, i32, i32)],
) -> (i32, i32) {
    let cost = |&(x, y): &(i32, i32)| {
        let hidden = labels
            .iter()
            .filter(|b| b.0 < x + w && b.2 > x && b.1 < y + h && b.3 > y)
            .count();
        let crossed = avoid
            .iter()
            .filter(|p| p.0 >= x && p.0 <= x + w && p.1 >= y && p.1 <= y + h)
            .count();
        (hidden, crossed)
    };
    corners.iter().copied().min_by_key(cost).unwrap_or((0, 0))
}

/// A boxed legend in the corner of `plot` that hides the fewest of `labels` (text boxes,
/// `(left, top, right, bottom)` in the backend's coordinates, which a legend must not cover
/// while any corner leaves them clear), then covers the fewest of `avoid`'s pixels (the curves
/// and marks, see [`trace`]), ties going to `prefer`'s order of corners.
///
/// Laid out here rather than by plotters' series labels, which measure text through the DOM;
/// this asks the backend, which can measure on the canvas.
///
/// # Errors
/// Whatever the backend reports.
pub fn draw_legend<DB: DrawingBackend>(
    plot: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
    font: &FontDesc<'_>,
    scale: f64,
    avoid: &[(i32, i32)],
    labels: &[(i32, i32, i32, i32)],
    prefer: [Corner; 4],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let px = |v: f64| (v * scale).round() as i32;
    let style = TextStyle::from(font.clone()).color(&BLACK);
    let mut text_w = 0;
    for e in entries {
        text_w = text_w.max(plot.estimate_text_size(&e.label, &style)?.0 as i32);
    }
    let line_h = (f64::from(px(13.0)) * 1.35) as i32;
    let (pad, swatch) = (px(8.0), px(20.0));
    let w = pad * 2 + swatch + pad + text_w;
    let h = pad * 2 + line_h * entries.len() as i32;
    let (pw, ph) = plot.dim_in_pixel();
    let at = |c: Corner| match c {
        Corner::UpperLeft => (pad, pad),
        Corner::UpperRight => (pw as i32 - w - pad, pad),
        Corner::LowerLeft => (pad, ph as i32 - h - pad),
        Corner::LowerRight => (pw as i32 - w - pad, ph as i32 - h - pad),
    };
    let o = plot.get_base_pixel();
    let labels: Vec<(i32, i32, i32, i32)> = labels
        .iter()
        .map(|b| (b.0 - o.0, b.1 - o.1, b.2 - o.0, b.3 - o.1))
        .collect();
    let corners = prefer.map(at);
    let (x, y) = least_covered(&corners, (w, h), avoid, &labels);
    plot.draw(&Rectangle::new(
        [(x, y), (x + w, y + h)],
        WHITE.mix(0.88).filled(),
    ))?;
    plot.draw(&Rectangle::new(
        [(x, y), (x + w, y + h)],
        RGBColor(200, 200, 200).stroke_width(1),
    ))?;
    for (k, e) in entries.iter().enumerate() {
        let cy = y + pad + line_h * k as i32 + line_h / 2;
        let x0 = x + pad;
        let d = swatch / 4;
        let segs = if e.dashed {
            vec![
                (x0, x0 + d),
                (x0 + 2 * d - d / 2, x0 + 3 * d - d / 2),
                (x0 + swatch - d + d / 2, x0 + swatch),
            ]
        } else {
            vec![(x0, x0 + swatch)]
        };
        for (a, b) in segs {
            plot.draw(&PathElement::new(
                vec![(a, cy), (b, cy)],
                e.color.stroke_width(px(2.0) as u32),
            ))?;
        }
        plot.draw(&Text::new(
            e.label.clone(),
            (x0 + swatch + pad, cy),
            style.pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_legend_leaves_labels_clear_before_it_counts_curve_pixels() {
        let corners = [(0, 0), (100, 100)];
        // A curve crossing the lower corner many times, one point in the upper one.
        let mut avoid: Vec<(i32, i32)> = (0..30).map(|i| (110 + i, 120)).collect();
        avoid.push((10, 10));
        assert_eq!(least_covered(&corners, (50, 50), &avoid, &[]), (0, 0));
        // A label in the upper corner sends the legend to the lower one, curve or not.
        let label = (20, 5, 40, 20);
        assert_eq!(
            least_covered(&corners, (50, 50), &avoid, &[label]),
            (100, 100)
        );
        // Ties go to the first corner.
        assert_eq!(least_covered(&corners, (50, 50), &[], &[]), (0, 0));
    }
}
