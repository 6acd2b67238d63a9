//! Where a chart is drawn: a page's `<canvas>` (at its own pixel size) or an SVG string, both
//! measuring their text with the browser's canvas.

use plotters::coord::Shift;
use plotters::drawing::DrawingArea;
use plotters::prelude::IntoDrawingArea;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::canvas::Surface;
use super::convert::js_error;
use crate::error::quoted;
use crate::Error;

/// What a drawing function's `canvas` may be.
const CANVAS_RANGE: &str = "a <canvas> element of the document, or its id";

/// A refusal of `canvas`, naming it as the field, and what was given.
fn canvas_refused(given: String) -> JsValue {
    js_error(&Error::out_of_range("canvas", given, CANVAS_RANGE))
}

fn canvas(id: &str) -> Result<web_sys::HtmlCanvasElement, JsValue> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from(js_sys::Error::new("no document to draw in")))?;
    let element = document
        .get_element_by_id(id)
        .ok_or_else(|| canvas_refused(format!("{}, the id of no element", quoted(id))))?;
    let tag = element.tag_name().to_ascii_lowercase();
    element
        .dyn_into::<web_sys::HtmlCanvasElement>()
        .map_err(|_| canvas_refused(format!("{}, the id of a <{tag}>", quoted(id))))
}

/// The `<canvas>` itself, or the one whose id `canvas` names (a canvas in a shadow root has no
/// id the document can find: the `<backoff-lab>` element passes the element).
fn canvas_of(canvas_or_id: &JsValue) -> Result<web_sys::HtmlCanvasElement, JsValue> {
    if let Some(element) = canvas_or_id.dyn_ref::<web_sys::HtmlCanvasElement>() {
        return Ok(element.clone());
    }
    if let Some(element) = canvas_or_id.dyn_ref::<web_sys::Element>() {
        return Err(canvas_refused(format!(
            "a <{}>",
            element.tag_name().to_ascii_lowercase()
        )));
    }
    match canvas_or_id.as_string() {
        Some(id) => canvas(&id),
        None => Err(canvas_refused(super::convert::js_type(canvas_or_id))),
    }
}

/// Runs `draw` on the canvas `canvas_id` (a `<canvas>` or its id), at the canvas's own pixel
/// size.
pub fn on_canvas<T, E: IntoJs>(
    canvas_id: &JsValue,
    draw: impl FnOnce(&DrawingArea<Surface, Shift>) -> Result<T, E>,
) -> Result<T, JsValue> {
    let backend = Surface::canvas(canvas_of(canvas_id)?)
        .ok_or_else(|| JsValue::from(js_sys::Error::new("the canvas has no 2D context")))?;
    let area = backend.into_drawing_area();
    let drawn = draw(&area).map_err(IntoJs::into_js)?;
    area.present()
        .map_err(|e| js_error(&crate::chart::drawing_error(e)))?;
    Ok(drawn)
}

/// An SVG drawn by a chart function, its text measured by an offscreen canvas.
pub fn svg<T, E: IntoJs>(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<Surface, Shift>) -> Result<T, E>,
) -> Result<String, JsValue> {
    let mut svg = String::new();
    {
        let backend = Surface::svg(&mut svg, size)
            .ok_or_else(|| js_error(&Error::Drawing("no document to measure text in".into())))?;
        let area = backend.into_drawing_area();
        draw(&area).map_err(IntoJs::into_js)?;
        area.present()
            .map_err(|e| js_error(&crate::chart::drawing_error(e)))?;
    }
    Ok(crate::chart::svg_text::tidy_font_sizes(&svg))
}

/// A core error as the JS `Error` it throws.
pub trait IntoJs {
    /// The JS value thrown.
    fn into_js(self) -> JsValue;
}

impl IntoJs for Error {
    fn into_js(self) -> JsValue {
        js_error(&self)
    }
}

impl IntoJs for crate::page::PageError {
    fn into_js(self) -> JsValue {
        super::convert::page_error(&self)
    }
}
