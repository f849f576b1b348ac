//! A canvas backend that measures text with the canvas itself.
//!
//! plotters' web font code measures each label by inserting a `<span>` and reading its
//! `offsetHeight`, which forces a layout of the whole page per label. With a large table
//! on the page that dominated a redraw; `measureText` costs no layout.

use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// [`CanvasBackend`] with text measured by `CanvasRenderingContext2d::measureText`.
pub struct MeasuringCanvas {
    inner: CanvasBackend,
    ctx: CanvasRenderingContext2d,
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
        self.inner.draw_text(text, s, p)
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        s: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        // The same font string CanvasBackend::draw_text sets.
        self.ctx.set_font(&format!(
            "{} {}px {}",
            s.style().as_str(),
            s.size(),
            s.family().as_str()
        ));
        let w = self.ctx.measure_text(text).map_or(0.0, |m| m.width());
        Ok((w.ceil() as u32, (s.size() * 1.2).ceil() as u32))
    }
}
