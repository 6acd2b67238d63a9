//! The JS API: thin wrappers that convert plain JS objects, call the core and convert back.
//! Every refusal throws a real JS `Error` with the core's message and, where the error is about
//! one input, a `field` property naming it.

use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::chart::{timeline, ChartOptions};
use crate::{Error, Params, ScheduleReport};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A duration as seconds, or as text such as "30s", "4m30s", "4.5min", "3h", "1d". */
export type DurationInput = number | string;

/** A backoff policy. Give exactly one of `attempts` and `giveUp`. */
export interface ScheduleParams {
  base: DurationInput;
  multiplier: number;
  cap: DurationInput;
  /** Attempts in all, the first delivery included (1 to 10000). */
  attempts?: number;
  /** Give up at the first attempt at or past this time since the first failure. */
  giveUp?: DurationInput;
  /** The early window for `attempts_within_window` (default 20 min). */
  window?: DurationInput;
}

export interface ReportRow {
  attempt: number;
  /** null for attempt 1. */
  gap_s: number | null;
  elapsed_s: number;
  capped: boolean;
  /** As the article writes it: "none", "4.5 min", "3 h (capped)". */
  gap_text: string;
  /** As the article writes it: "6.5 min", "24 h 02 min". */
  elapsed_text: string;
}

export interface ScheduleReport {
  rows: ReportRow[];
  attempts: number;
  base_s: number;
  multiplier: number;
  cap_s: number;
  give_up_s: number;
  first_capped_attempt: number | null;
  window_s: number;
  attempts_within_window: number;
  capped_share: number;
  uncapped_last_gap_s: number | null;
  every_gap_exceeds_previous_total: boolean;
  ramp_exceeds_previous_total: boolean;
  facts: string[];
  caption: string;
}

export interface ChartOptions {
  /** Draw for a dark page. */
  dark?: boolean;
  /** Device pixels per CSS pixel, 0.5 to 4. */
  scale?: number;
  /** A logarithmic time axis. */
  logScale?: boolean;
}

/** What `schedule` and friends throw: an Error, with the input it is about. */
export interface BackoffError extends Error {
  field?: string;
}
"#;

/// A JS `Error` carrying the message and, when there is one, the field it is about.
fn js_error(error: &Error) -> JsValue {
    let js = js_sys::Error::new(&error.to_string());
    let field = match error {
        Error::OutOfRange { field, .. } | Error::BadDuration { field, .. } => Some(*field),
        _ => None,
    };
    if let Some(field) = field {
        // Setting a property on a fresh Error object cannot fail.
        let _ = js_sys::Reflect::set(&js, &"field".into(), &field.into());
    }
    js.into()
}

fn from_js<T: serde::de::DeserializeOwned>(what: &str, value: JsValue) -> Result<T, JsValue> {
    serde_wasm_bindgen::from_value(value)
        .map_err(|err| js_sys::Error::new(&format!("{what}: {err}")).into())
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    // json_compatible: `None` becomes `null` (not `undefined`), as in the CLI's JSON.
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|err| js_sys::Error::new(&err.to_string()).into())
}

fn report(params: JsValue) -> Result<ScheduleReport, JsValue> {
    let params: Params = from_js("schedule parameters", params)?;
    let policy = params.policy().map_err(|e| js_error(&e))?;
    let window = params.window_s().map_err(|e| js_error(&e))?;
    Ok(ScheduleReport::new(&policy.schedule(), window))
}

/// The schedule of a policy and its derived facts, in the same shape as the CLI's JSON.
#[wasm_bindgen(unchecked_return_type = "ScheduleReport")]
pub fn schedule(
    #[wasm_bindgen(unchecked_param_type = "ScheduleParams")] params: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&report(params)?)
}

/// Draws the timeline figure of a policy into the canvas with id `canvas_id`, at the canvas's
/// own pixel size, and returns the schedule it drew.
#[wasm_bindgen(js_name = drawTimeline, unchecked_return_type = "ScheduleReport")]
pub fn draw_timeline(
    canvas_id: &str,
    #[wasm_bindgen(unchecked_param_type = "ScheduleParams")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ChartOptions | undefined")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let params: Params = from_js("schedule parameters", params)?;
    let options: ChartOptions = if options.is_undefined() || options.is_null() {
        ChartOptions::default()
    } else {
        from_js("chart options", options)?
    };
    let policy = params.policy().map_err(|e| js_error(&e))?;
    let window = params.window_s().map_err(|e| js_error(&e))?;
    let canvas = canvas(canvas_id)?;
    let backend = CanvasBackend::with_canvas_object(canvas)
        .ok_or_else(|| JsValue::from(js_sys::Error::new("the canvas has no 2D context")))?;
    let area = backend.into_drawing_area();
    let schedule = policy.schedule();
    timeline::draw(&area, &schedule, &options).map_err(|e| js_error(&e))?;
    area.present()
        .map_err(|e| js_error(&crate::chart::drawing_error(e)))?;
    to_js(&ScheduleReport::new(&schedule, window))
}

fn canvas(id: &str) -> Result<web_sys::HtmlCanvasElement, JsValue> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from(js_sys::Error::new("no document to draw in")))?;
    document
        .get_element_by_id(id)
        .ok_or_else(|| {
            js_sys::Error::new(&format!("no element with id {id:?} to draw the chart in"))
        })?
        .dyn_into::<web_sys::HtmlCanvasElement>()
        .map_err(|_| {
            js_sys::Error::new(&format!("the element with id {id:?} is not a <canvas>")).into()
        })
}

/// Formats seconds the way the article does (`30 s`, `4.5 min`, `3 h 02 min`).
#[wasm_bindgen(js_name = formatDuration)]
pub fn format_duration(seconds: f64) -> String {
    crate::format_duration(seconds)
}

/// Parses a duration (`30s`, `4m30s`, `4.5min`, `3h`, `1d`) into seconds; throws on garbage.
#[wasm_bindgen(js_name = parseDuration)]
pub fn parse_duration(field: &str, text: &str) -> Result<f64, JsValue> {
    let field = match field {
        "base" => "base",
        "cap" => "cap",
        "give-up" | "giveUp" => "give-up",
        "window" => "window",
        _ => "duration",
    };
    crate::parse_duration(field, text).map_err(|e| js_error(&e))
}
