//! The one backend every chart is drawn on in the browser: the page's `<canvas>` through
//! plotters-canvas, or an SVG string through plotters' SVG backend, behind one type so that
//! each chart is compiled once (two backend types doubled the charts' share of the wasm).
//!
//! Text is measured by a canvas context: plotters measures text on wasm by giving a `<span>`
//! an inline style, which a strict Content-Security-Policy (`style-src 'self'`) refuses, and
//! which measures CSS pixels rather than the canvas's device pixels.

use std::fmt;

use plotters::prelude::*;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// Where the drawing goes.
enum Target<'a> {
    Canvas(CanvasBackend),
    Svg(SVGBackend<'a>),
}

/// A chart's drawing surface, with text sizes from a canvas context's `measureText`.
pub struct Surface<'a> {
    target: Target<'a>,
    context: CanvasRenderingContext2d,
}

/// What went wrong on either backend, in words.
#[derive(Debug)]
pub struct SurfaceError(String);

impl fmt::Display for SurfaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SurfaceError {}

fn context_of(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas
        .get_context("2d")
        .ok()??
        .dyn_into::<CanvasRenderingContext2d>()
        .ok()
}

impl<'a> Surface<'a> {
    /// Draws on `canvas`, at its own pixel size; `None` when it has no 2D context.
    pub fn canvas(canvas: HtmlCanvasElement) -> Option<Surface<'a>> {
        let context = context_of(&canvas)?;
        let backend = CanvasBackend::with_canvas_object(canvas)?;
        Some(Surface {
            target: Target::Canvas(backend),
            context,
        })
    }

    /// Draws SVG into `svg`, measuring text with a detached canvas; `None` without a document.
    pub fn svg(svg: &'a mut String, size: (u32, u32)) -> Option<Surface<'a>> {
        let canvas = web_sys::window()?
            .document()?
            .create_element("canvas")
            .ok()?;
        let context = context_of(&canvas.dyn_into::<HtmlCanvasElement>().ok()?)?;
        Some(Surface {
            target: Target::Svg(SVGBackend::with_string(svg, size)),
            context,
        })
    }
}

/// Either backend's error as the surface's.
fn lift<T, E: std::error::Error + Send + Sync>(
    result: Result<T, DrawingErrorKind<E>>,
) -> Result<T, DrawingErrorKind<SurfaceError>> {
    result.map_err(|error| match error {
        DrawingErrorKind::DrawingError(e) => {
            DrawingErrorKind::DrawingError(SurfaceError(e.to_string()))
        }
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    })
}

/// Calls the same method on whichever backend the surface draws on.
macro_rules! on_target {
    ($self:ident, $backend:ident => $call:expr) => {
        match &mut $self.target {
            Target::Canvas($backend) => lift($call),
            Target::Svg($backend) => lift($call),
        }
    };
}

impl DrawingBackend for Surface<'_> {
    type ErrorType = SurfaceError;

    fn get_size(&self) -> (u32, u32) {
        match &self.target {
            Target::Canvas(backend) => backend.get_size(),
            Target::Svg(backend) => backend.get_size(),
        }
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<SurfaceError>> {
        on_target!(self, b => b.ensure_prepared())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<SurfaceError>> {
        on_target!(self, b => b.present())
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<SurfaceError>> {
        on_target!(self, b => b.draw_pixel(point, color))
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<SurfaceError>> {
        on_target!(self, b => b.draw_line(from, to, style))
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<SurfaceError>> {
        on_target!(self, b => b.draw_rect(upper_left, bottom_right, style, fill))
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<SurfaceError>> {
        on_target!(self, b => b.draw_path(path, style))
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<SurfaceError>> {
        on_target!(self, b => b.draw_circle(center, radius, style, fill))
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<SurfaceError>> {
        on_target!(self, b => b.fill_polygon(vert, style))
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<SurfaceError>> {
        on_target!(self, b => b.draw_text(text, style, pos))
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<SurfaceError>> {
        // The same font string plotters-canvas draws with.
        self.context.set_font(&format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str()
        ));
        let width = self
            .context
            .measure_text(text)
            .map(|m| m.width())
            .unwrap_or(0.0);
        Ok((width.ceil() as u32, style.size().ceil() as u32))
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<SurfaceError>> {
        on_target!(self, b => b.blit_bitmap(pos, size, src))
    }
}
