//! The one backend every chart is drawn on in the browser: the page's `<canvas>` through
//! plotters-canvas, or an SVG string through plotters' SVG backend, behind one type so that
//! each chart is compiled once (two backend types doubled the charts' share of the wasm).
//!
//! Text is measured by a canvas context: plotters measures text on wasm by giving a `<span>`
//! an inline style, which a strict Content-Security-Policy (`style-src 'self'`) refuses, and
//! which measures CSS pixels rather than the canvas's device pixels.
//!
//! Text is drawn on the canvas here rather than by plotters-canvas, which sets the font, the
//! alignment and the baseline before every label: the browser parses the font string each
//! time, and a chart measures and draws a hundred labels in a handful of fonts. The context is
//! told only what changed.
//!
//! Text widths are remembered for the page's life: every redraw measures the same tick labels
//! and legends again, and `measureText` with the font set before it was most of a chart's
//! drawing time. The charts' only font family is the generic `sans-serif`, which does not
//! change while a page is open (a web font loading late would).

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;

use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform,
};
use plotters_canvas::CanvasBackend;

use crate::chart::svg_text::SvgFigure;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The most text widths remembered; past it they are forgotten and measured again.
const REMEMBERED_WIDTHS: usize = 4_096;

thread_local! {
    /// Widths measured so far, in the pixels of the font's size (which carries the device
    /// pixel scale), by the font and the text (`"{font}\n{text}"`).
    static WIDTHS: RefCell<HashMap<String, f64>> = RefCell::new(HashMap::new());
}

/// Where the drawing goes.
enum Target<'a> {
    Canvas(CanvasBackend),
    /// plotters' SVG backend writing text at the size it is measured at.
    Svg(SvgFigure<'a>),
}

/// A chart's drawing surface, with text sizes from a canvas context's `measureText`.
pub struct Surface<'a> {
    target: Target<'a>,
    /// The canvas's own context (the one plotters-canvas draws with), or a detached canvas's
    /// for SVG: text is measured, and on a canvas drawn, with it.
    context: CanvasRenderingContext2d,
    /// What `context` was last told about text (empty: nothing yet).
    text: RefCell<TextSettings>,
}

/// A canvas context's text settings, as last set through [`Surface`].
#[derive(Default)]
struct TextSettings {
    font: String,
    align: &'static str,
    baseline: &'static str,
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
            text: RefCell::default(),
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
            target: Target::Svg(SvgFigure::with_string(svg, size)),
            context,
            text: RefCell::default(),
        })
    }

    /// Sets `context`'s font to `style`'s, unless it is that already.
    fn use_font<S: BackendTextStyle>(&self, style: &S) {
        self.set_font(font_of(style));
    }

    fn set_font(&self, font: String) {
        let mut text = self.text.borrow_mut();
        if text.font != font {
            self.context.set_font(&font);
            text.font = font;
        }
    }

    /// Draws `text` on the canvas as plotters-canvas would: anchored, coloured and turned as
    /// `style` says.
    fn fill_text<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
        (x, y): BackendCoord,
    ) -> Result<(), DrawingErrorKind<SurfaceError>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        self.use_font(style);
        let align = match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        };
        let baseline = match style.anchor().v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        };
        {
            let mut settings = self.text.borrow_mut();
            if settings.align != align {
                self.context.set_text_align(align);
                settings.align = align;
            }
            if settings.baseline != baseline {
                self.context.set_text_baseline(baseline);
                settings.baseline = baseline;
            }
        }
        let (r, g, b) = color.rgb;
        self.context
            .set_fill_style_str(&format!("rgba({r},{g},{b},{})", color.alpha));
        let quarter_turns = match style.transform() {
            FontTransform::None => 0,
            FontTransform::Rotate90 => 1,
            FontTransform::Rotate180 => 2,
            FontTransform::Rotate270 => 3,
        };
        let failed = |e: wasm_bindgen::JsValue| {
            DrawingErrorKind::DrawingError(SurfaceError(format!("{e:?}")))
        };
        if quarter_turns == 0 {
            return self
                .context
                .fill_text(text, f64::from(x), f64::from(y))
                .map_err(failed);
        }
        // Turned about the anchor; the settings above were made before `save`, so that
        // `restore` keeps them.
        self.context.save();
        let drawn = self
            .context
            .translate(f64::from(x), f64::from(y))
            .and_then(|()| {
                self.context
                    .rotate(f64::from(quarter_turns) * std::f64::consts::FRAC_PI_2)
            })
            .and_then(|()| self.context.fill_text(text, 0.0, 0.0));
        self.context.restore();
        drawn.map_err(failed)
    }
}

/// `style`'s font as a canvas context's `font` (the string plotters-canvas would set).
fn font_of<S: BackendTextStyle>(style: &S) -> String {
    format!(
        "{} {}px {}",
        style.style().as_str(),
        style.size(),
        style.family().as_str()
    )
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
        match &mut self.target {
            Target::Canvas(_) => self.fill_text(text, style, pos),
            Target::Svg(backend) => lift(backend.draw_text(text, style, pos)),
        }
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<SurfaceError>> {
        let font = font_of(style);
        let key = format!("{font}\n{text}");
        let width = match WIDTHS.with(|widths| widths.borrow().get(&key).copied()) {
            Some(width) => width,
            None => {
                self.set_font(font);
                let width = self
                    .context
                    .measure_text(text)
                    .map(|m| m.width())
                    .unwrap_or(0.0);
                WIDTHS.with(|widths| {
                    let mut widths = widths.borrow_mut();
                    if widths.len() >= REMEMBERED_WIDTHS {
                        widths.clear();
                    }
                    widths.insert(key, width);
                });
                width
            }
        };
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
