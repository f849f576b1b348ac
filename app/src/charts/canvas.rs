//! A canvas backend that measures text with the canvas itself.
//!
//! plotters' web font code measures each label by inserting a `<span>` and reading its
//! `offsetHeight`, which forces a layout of the whole page per label. With a large table
//! on the page that dominated a redraw; `measureText` costs no layout. Text state (font,
//! alignment, fill) is set only when it changes: Chrome parses the font string on every
//! assignment, which was the largest single cost of drawing a chart. A label's measured width
//! is kept for the session (a redraw measures the same tick labels again), so measuring
//! neither sets the font nor asks the canvas twice for the same text.

use std::cell::RefCell;
use std::collections::HashMap;

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontTransform,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// [`CanvasBackend`] with text measured by `CanvasRenderingContext2d::measureText`.
pub struct MeasuringCanvas {
    inner: CanvasBackend,
    ctx: CanvasRenderingContext2d,
    text: RefCell<TextState>,
}

/// The text state last given to the context (`None`: unknown). The fill is not kept:
/// shapes drawn between texts change it.
#[derive(Default)]
struct TextState {
    font: Option<String>,
    align: Option<&'static str>,
    baseline: Option<&'static str>,
}

/// Most labels whose widths are kept; past it the memory starts again.
const MAX_WIDTHS: usize = 4096;

thread_local! {
    /// Widths of labels already measured, by font and text.
    static WIDTHS: RefCell<HashMap<(String, String), f64>> = RefCell::new(HashMap::new());
}

fn font_of<S: BackendTextStyle>(s: &S) -> String {
    format!(
        "{} {}px {}",
        s.style().as_str(),
        s.size(),
        s.family().as_str()
    )
}

impl MeasuringCanvas {
    fn set_font(&self, font: String) {
        let mut t = self.text.borrow_mut();
        if t.font.as_deref() != Some(font.as_str()) {
            self.ctx.set_font(&font);
            t.font = Some(font);
        }
    }
}

impl MeasuringCanvas {
    /// Wrap `canvas`; `None` if it has no 2D context.
    #[must_use]
    pub fn new(canvas: HtmlCanvasElement) -> Option<Self> {
        let ctx = canvas
            .get_context("2d")
            .ok()??
            .dyn_into::<CanvasRenderingContext2d>()
            .ok()?;
        Some(Self {
            inner: CanvasBackend::with_canvas_object(canvas)?,
            ctx,
            text: RefCell::new(TextState::default()),
        })
    }
}

type Res<E> = Result<(), DrawingErrorKind<E>>;

impl DrawingBackend for MeasuringCanvas {
    type ErrorType = <CanvasBackend as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Res<Self::ErrorType> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Res<Self::ErrorType> {
        self.inner.present()
    }
    fn draw_pixel(&mut self, p: BackendCoord, c: BackendColor) -> Res<Self::ErrorType> {
        self.inner.draw_pixel(p, c)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        s: &S,
    ) -> Res<Self::ErrorType> {
        self.inner.draw_line(a, b, s)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        s: &S,
        fill: bool,
    ) -> Res<Self::ErrorType> {
        self.inner.draw_rect(a, b, s, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        s: &S,
    ) -> Res<Self::ErrorType> {
        self.inner.draw_path(path, s)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        c: BackendCoord,
        r: u32,
        s: &S,
        fill: bool,
    ) -> Res<Self::ErrorType> {
        self.inner.draw_circle(c, r, s, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        v: I,
        s: &S,
    ) -> Res<Self::ErrorType> {
        self.inner.fill_polygon(v, s)
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        s: &S,
        p: BackendCoord,
    ) -> Res<Self::ErrorType> {
        let c = s.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        let quarter_turns = match s.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 1.0,
            FontTransform::Rotate180 => 2.0,
            FontTransform::Rotate270 => 3.0,
        };
        let (mut x, mut y) = (f64::from(p.0), f64::from(p.1));
        if quarter_turns != 0.0 {
            // save/restore puts the text state back as it was before: forget what we knew.
            self.ctx.save();
            let _ = self.ctx.translate(x, y);
            let _ = self.ctx.rotate(quarter_turns * std::f64::consts::FRAC_PI_2);
            (x, y) = (0.0, 0.0);
        }
        let baseline = match s.anchor().v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        };
        let align = match s.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        };
        let fill = format!("rgba({},{},{},{})", c.rgb.0, c.rgb.1, c.rgb.2, c.alpha);
        {
            let mut t = self.text.borrow_mut();
            if t.baseline != Some(baseline) {
                self.ctx.set_text_baseline(baseline);
                t.baseline = Some(baseline);
            }
            if t.align != Some(align) {
                self.ctx.set_text_align(align);
                t.align = Some(align);
            }
            // Shapes drawn between texts set the fill too, so it is always set.
            self.ctx.set_fill_style_str(&fill);
        }
        self.set_font(font_of(s));
        let _ = self.ctx.fill_text(text, x, y);
        if quarter_turns != 0.0 {
            self.ctx.restore();
            *self.text.borrow_mut() = TextState::default();
        }
        Ok(())
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        s: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        let key = (font_of(s), text.to_string());
        let w = match WIDTHS.with(|w| w.borrow().get(&key).copied()) {
            Some(w) => w,
            None => {
                self.set_font(key.0.clone());
                let w = self.ctx.measure_text(text).map_or(0.0, |m| m.width());
                WIDTHS.with(|m| {
                    let mut m = m.borrow_mut();
                    if m.len() >= MAX_WIDTHS {
                        m.clear();
                    }
                    m.insert(key, w);
                });
                w
            }
        };
        Ok((w.ceil() as u32, (s.size() * 1.2).ceil() as u32))
    }
}
