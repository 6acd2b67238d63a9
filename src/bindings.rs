//! The JS API: thin wrappers that convert plain JS objects, call the core and convert back.
//! Every refusal throws a real JS `Error` with the core's message and, where the error is about
//! one input, a `field` property naming it.

use plotters::prelude::IntoDrawingArea;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::canvas::MeasuredCanvas;
use crate::chart::{distribution, herd as herd_chart, timeline, ChartOptions};
use crate::give_up::{JitterReport, HISTOGRAM_BINS};
use crate::herd::{herd as simulate_herd, Herd, Rates};
use crate::jitter::{fresh_seed, Jitter};
use crate::{Error, Params, Policy, ScheduleReport};

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

/** Jitter mode names. */
export type JitterMode = "none" | "full" | "equal" | "decorrelated" | "proportional";

/** Parameters of the jitter and herd questions: a policy plus the jitter and the draws. */
export interface JitterParams extends ScheduleParams {
  /** Default "none". */
  mode?: JitterMode;
  /** Proportional jitter's factor, 0 to 1 (default 0.2). */
  factor?: number;
  /** 0 to 2^53 - 1; a fresh seed is drawn (and reported) when absent. */
  seed?: number;
  /** Give-up times to sample, 1 to 10,000,000 (default 1,000,000). */
  samples?: number;
  /** Deliveries in a herd, 1 to 10,000,000 (default 1,000). */
  deliveries?: number;
  /** Deadline-safe sizing: the deadline a percentile of give-up times must reach. */
  deadline?: DurationInput;
  /** That percentile, in percent (default 5). */
  percentile?: number;
}

export interface Percentiles { p1: number; p5: number; p50: number; p95: number; p99: number; }

export interface Histogram { start_s: number; bin_s: number; counts: number[]; }

export interface Sampled {
  samples: number;
  seed: number;
  mean_s: number;
  std_error_s: number;
  percentiles: Percentiles;
  histogram: Histogram;
}

export interface DeadlineSafe { deadline_s: number; percentile: number; attempts: number; }

export interface JitterReport {
  mode: JitterMode;
  factor: number | null;
  attempts: number;
  /** false for decorrelated: expected value and percentiles are estimates. */
  exact: boolean;
  expected_give_up_s: number;
  expected_std_error_s: number | null;
  percentiles: Percentiles;
  unjittered_give_up_s: number;
  range_s: [number, number];
  sampled: Sampled;
  deadline_safe: DeadlineSafe | null;
  caption: string;
}

export interface Rates { peak_per_s: number; mean_per_s: number; peak_to_mean: number; window_s: number; }

export interface Herd {
  deliveries: number;
  mode: JitterMode;
  seed: number;
  bin_s: number;
  per_second: number[];
  first_retry_per_second: number[];
  peak_per_s: number;
  mean_per_s: number;
  peak_to_mean: number;
  first_retry: Rates;
}

/** What `drawHerd` returns: the rates without the per-second arrays. */
export interface HerdSummary {
  deliveries: number;
  mode: JitterMode;
  seed: number;
  peak_per_s: number;
  mean_per_s: number;
  peak_to_mean: number;
  first_retry: Rates;
  unjittered_first_retry: Rates;
  caption: string;
}

/** A rate: a number per second, or text such as "600/min", "30/s". A percentage: 10 or "10%". */
export type NumberInput = number | string;

/** A storm scenario: every field not given takes the article's value. */
export interface StormParams extends JitterParams {
  arrivals?: NumberInput;
  traffic?: DurationInput;
  batch?: number;
  batchAt?: DurationInput;
  capacity?: NumberInput;
  latency?: DurationInput;
  timeout?: DurationInput;
  outage?: DurationInput;
  outageStart?: DurationInput;
  /** "fixed" (default; `interval`) or "exponential" (base, multiplier, cap). */
  policy?: "fixed" | "exponential";
  interval?: DurationInput;
  /** Percentage of first attempts, e.g. "10%". */
  budget?: NumberInput;
  budgetWindow?: DurationInput;
  budgetFloor?: NumberInput;
  rateLimit?: NumberInput;
  pause?: boolean;
  /** After a pause, attempts per second at most (default: the rate limit, else what the
   * destination answers in time in one second from an empty queue). */
  resumeRate?: NumberInput;
  retryAfter?: DurationInput;
  retryAfterThreshold?: DurationInput;
  abandon?: boolean;
  /** `storm` and the charts take "discrete" (default) or "fluid"; `arithmeticView` needs no engine. */
  engine?: "discrete" | "fluid";
}

export interface StormMinute {
  minute: number;
  attempts: number;
  first_attempts: number;
  retries: number;
  successes: number;
  failures: number;
  rejected_429: number;
  duplicates: number;
  backlog: number;
  queue: number;
  exhausted: number;
  deferred: number;
}

export interface StormSummary {
  arrivals: number;
  delivered: number;
  exhausted: number;
  exhausted_after_outage: number;
  pending: number;
  duplicates: number;
  attempts: number;
  peak_attempts_per_min: number;
  peak_minute: number;
  /** null when the steady traffic lasts less than a minute (a batch alone). */
  peak_multiple: number | null;
  peak_vs_capacity: number;
  outage_end_s: number;
  /** The backlog cleared: at most 0.1% of deliveries pending (null: not within the horizon). */
  drained_at_s: number | null;
  /** Nothing at all pending: the last straggler settled. */
  emptied_at_s: number | null;
  /** Whether deliveries were exhausted after the outage on the way to `drained_at_s`. */
  drained_by: "delivery" | "exhaustion" | null;
  /** null when nothing was delivered. */
  attempts_per_delivered: number | null;
  horizon_s: number;
}

export interface StormReport {
  engine: "discrete" | "fluid";
  minutes: StormMinute[];
  summary: StormSummary;
  caption: string;
}

export interface ArithmeticMinute {
  minute: number; attempts: number; first_attempts: number; retries: number;
  backlog_entering: number; backlog: number; multiple: number;
  successes: null; duplicates: null; exhausted: null;
}

export interface ArithmeticReport {
  engine: "arithmetic";
  minutes: ArithmeticMinute[];
  summary: {
    arrivals: number; peak_attempts_per_min: number; peak_minute: number; peak_multiple: number;
    outage_end_s: number; delivered: null; exhausted: null; duplicates: null; drained_at_s: null;
  };
}

/** One scenario of a storm chart: its legend label and its parameters. */
export interface StormSeries { label: string; params: StormParams; }

/** What `drawStorm` returns: each series' summary and caption. */
export interface StormDrawn { label: string; summary: StormSummary; caption: string; }

/** A provider's published schedule. */
export interface PresetInfo {
  name: string;
  title: string;
  source: string;
  note: string;
  attempts: number;
  give_up_s: number;
  /** Exact, e.g. "27 h 35 min 5 s". */
  give_up_text: string;
  /** Its parameters: base, multiplier, cap, attempts, mode, factor, or gaps and thenEvery. */
  params: ScheduleParams & { gaps?: DurationInput[]; thenEvery?: DurationInput; mode?: JitterMode; factor?: number };
}

/** One page setting as text, keyed as in the URL hash. */
export interface Setting { key: string; value: string; }

/** A URL hash read back: every setting (defaults where the link had nothing valid) and notices. */
export interface DecodedState { settings: Setting[]; notices: string[]; }

/** The chart `chartSvg` draws. */
export type ChartKind = "timeline" | "distribution" | "herd";

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

fn policy_params(params: JsValue) -> Result<(Params, Policy), JsValue> {
    let params: Params = from_js("parameters", params)?;
    let policy = params.policy().map_err(|e| js_error(&e))?;
    Ok((params, policy))
}

fn chart_options(options: JsValue) -> Result<ChartOptions, JsValue> {
    if options.is_undefined() || options.is_null() {
        Ok(ChartOptions::default())
    } else {
        from_js::<ChartOptions>("chart options", options)?
            .validated()
            .map_err(|e| js_error(&e))
    }
}

/// Runs `draw` on the canvas with id `canvas_id`, at the canvas's own pixel size.
fn on_canvas(
    canvas_id: &str,
    draw: impl FnOnce(
        &plotters::drawing::DrawingArea<MeasuredCanvas, plotters::coord::Shift>,
    ) -> Result<(), Error>,
) -> Result<(), JsValue> {
    let backend = MeasuredCanvas::new(canvas(canvas_id)?)
        .ok_or_else(|| JsValue::from(js_sys::Error::new("the canvas has no 2D context")))?;
    let area = backend.into_drawing_area();
    draw(&area).map_err(|e| js_error(&e))?;
    area.present()
        .map_err(|e| js_error(&crate::chart::drawing_error(e)))
}

fn jitter_and_seed(params: &Params) -> Result<(Jitter, u64), JsValue> {
    let jitter = params.jitter().map_err(|e| js_error(&e))?;
    let seed = match params.seed().map_err(|e| js_error(&e))? {
        Some(seed) => seed,
        None => fresh_seed().map_err(|e| js_error(&e))?,
    };
    Ok((jitter, seed))
}

fn jitter_report(params: JsValue) -> Result<JitterReport, JsValue> {
    let (params, policy) = policy_params(params)?;
    let (jitter, seed) = jitter_and_seed(&params)?;
    let samples = params.samples().map_err(|e| js_error(&e))?;
    let deadline = params.deadline().map_err(|e| js_error(&e))?;
    JitterReport::new(&policy, jitter, samples, seed, HISTOGRAM_BINS, deadline)
        .map_err(|e| js_error(&e))
}

/// One jittered delivery: the exact give-up distribution, a seeded sample and, when a deadline
/// is given, the deadline-safe attempt count. Same shape as `backoff-lab jitter --format json`.
#[wasm_bindgen(unchecked_return_type = "JitterReport")]
pub fn jitter(
    #[wasm_bindgen(unchecked_param_type = "JitterParams")] params: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&jitter_report(params)?)
}

/// Draws the give-up-time distribution into the canvas `canvas_id` and returns its report.
#[wasm_bindgen(js_name = drawDistribution, unchecked_return_type = "JitterReport")]
pub fn draw_distribution(
    canvas_id: &str,
    #[wasm_bindgen(unchecked_param_type = "JitterParams")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ChartOptions | undefined")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let options = chart_options(options)?;
    let report = jitter_report(params)?;
    on_canvas(canvas_id, |area| {
        distribution::draw(area, &report, &options)
    })?;
    to_js(&report)
}

fn herds(params: JsValue) -> Result<(Herd, Herd), JsValue> {
    let (params, policy) = policy_params(params)?;
    let (jitter, seed) = jitter_and_seed(&params)?;
    let deliveries = params.deliveries().map_err(|e| js_error(&e))?;
    let spread = simulate_herd(&policy, jitter, deliveries, seed).map_err(|e| js_error(&e))?;
    let spike = simulate_herd(&policy, Jitter::None, deliveries, seed).map_err(|e| js_error(&e))?;
    Ok((spread, spike))
}

/// A herd of deliveries that failed in the same second: retries per second. Same shape as
/// `backoff-lab herd --format json`.
#[wasm_bindgen(unchecked_return_type = "Herd")]
pub fn herd(
    #[wasm_bindgen(unchecked_param_type = "JitterParams")] params: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&herds(params)?.0)
}

#[derive(Serialize)]
struct HerdSummary {
    deliveries: usize,
    mode: String,
    seed: u64,
    peak_per_s: f64,
    mean_per_s: f64,
    peak_to_mean: f64,
    first_retry: Rates,
    unjittered_first_retry: Rates,
    caption: String,
}

/// Draws the herd (the chosen mode over the unjittered spike) into the canvas `canvas_id` and
/// returns its rates and caption.
#[wasm_bindgen(js_name = drawHerd, unchecked_return_type = "HerdSummary")]
pub fn draw_herd(
    canvas_id: &str,
    #[wasm_bindgen(unchecked_param_type = "JitterParams")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ChartOptions | undefined")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let options = chart_options(options)?;
    let (spread, spike) = herds(params)?;
    on_canvas(canvas_id, |area| {
        herd_chart::draw(area, &spread, Some(&spike), &options)
    })?;
    to_js(&HerdSummary {
        deliveries: spread.deliveries,
        mode: spread.mode.clone(),
        seed: spread.seed,
        peak_per_s: spread.peak_per_s,
        mean_per_s: spread.mean_per_s,
        peak_to_mean: spread.peak_to_mean,
        first_retry: spread.first_retry,
        unjittered_first_retry: spike.first_retry,
        caption: spread.caption(Some(&spike)),
    })
}

/// Draws `params.samples` give-up times with `params.seed` and returns only their mean (no
/// percentiles, no histogram): the timing run's like-for-like with a plain JS sampling loop.
#[wasm_bindgen(js_name = sampledMeanGiveUp)]
pub fn sampled_mean_give_up(
    #[wasm_bindgen(unchecked_param_type = "JitterParams")] params: JsValue,
) -> Result<f64, JsValue> {
    let (params, policy) = policy_params(params)?;
    let (jitter, seed) = jitter_and_seed(&params)?;
    let samples = params.samples().map_err(|e| js_error(&e))?;
    let mut rng = crate::jitter::seeded_rng(seed).map_err(|e| js_error(&e))?;
    let times = crate::give_up::give_up_times(&policy, jitter, samples, &mut rng);
    Ok(times.iter().sum::<f64>() / samples as f64)
}

/// The storm of `params`; `remembered` looks in the recent storms first (the charts), else it
/// is simulated afresh (the `storm` API).
fn storm_report(
    params: Params,
    remembered: bool,
) -> Result<(crate::storm::Scenario, crate::storm::StormReport), JsValue> {
    let scenario = params.scenario().map_err(|e| js_error(&e))?;
    let engine = params.engine().map_err(|e| js_error(&e))?;
    let report = if remembered {
        STORMS.with(|memo| memo.borrow_mut().simulate(&scenario, engine))
    } else {
        crate::storm::simulate(&scenario, engine, false)
    };
    Ok((scenario, report.map_err(|e| js_error(&e))?))
}

thread_local! {
    /// The storm charts' recent storms: moving a policy slider leaves the fixed-interval
    /// comparison as it was, and it is not simulated again.
    static STORMS: std::cell::RefCell<crate::storm::Memo> = Default::default();
}

/// A retry storm: per-minute attempts, successes, backlog and the summary. Same shape as
/// `backoff-lab storm --format json`.
#[wasm_bindgen(unchecked_return_type = "StormReport")]
pub fn storm(
    #[wasm_bindgen(unchecked_param_type = "StormParams")] params: JsValue,
) -> Result<JsValue, JsValue> {
    let params: Params = from_js("parameters", params)?;
    to_js(&storm_report(params, false)?.1)
}

/// The article's per-minute arithmetic for a scenario's outage: the same `{minutes, summary}`
/// shape as `storm`, with `null` where it models nothing. Storm fields it does not use are
/// refused by name.
#[wasm_bindgen(js_name = arithmeticView, unchecked_return_type = "ArithmeticReport")]
pub fn arithmetic_view(
    #[wasm_bindgen(unchecked_param_type = "StormParams")] params: JsValue,
) -> Result<JsValue, JsValue> {
    let params: Params = from_js("parameters", params)?;
    let view = params
        .arithmetic_scenario()
        .and_then(|scenario| crate::storm::arithmetic_view(&scenario))
        .map_err(|e| js_error(&e))?;
    to_js(&view)
}

#[derive(serde::Deserialize)]
struct StormSeriesInput {
    label: String,
    params: Params,
}

#[derive(Serialize)]
struct StormDrawn {
    label: String,
    summary: crate::storm::Summary,
    caption: String,
}

/// Simulates each series and draws them into the canvas `canvas_id` (the first filled, the rest
/// as lines over it); returns each one's summary and caption.
#[wasm_bindgen(js_name = drawStorm, unchecked_return_type = "StormDrawn[]")]
pub fn draw_storm(
    canvas_id: &str,
    #[wasm_bindgen(unchecked_param_type = "StormSeries[]")] series: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ChartOptions | undefined")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let options = chart_options(options)?;
    let runs = storm_runs(series)?;
    let series = storm_series(&runs);
    on_canvas(canvas_id, |area| {
        crate::chart::storm::draw(area, &series, &options)
    })?;
    let drawn: Vec<StormDrawn> = runs
        .into_iter()
        .map(|(label, _, report)| StormDrawn {
            label,
            caption: report.caption,
            summary: report.summary,
        })
        .collect();
    to_js(&drawn)
}

/// Every preset: a provider's published schedule with its give-up time and source.
#[wasm_bindgen(unchecked_return_type = "PresetInfo[]")]
pub fn presets() -> Result<JsValue, JsValue> {
    let infos: Vec<crate::presets::PresetInfo> =
        crate::presets::presets().iter().map(Into::into).collect();
    to_js(&infos)
}

/// Reads a URL hash into settings; garbage falls back to defaults with notices (never throws).
#[wasm_bindgen(js_name = decodeState, unchecked_return_type = "DecodedState")]
pub fn decode_state(hash: &str) -> Result<JsValue, JsValue> {
    to_js(&crate::state::decode_hash(hash))
}

/// Writes settings as a URL hash (without `#`), defaults left out.
#[wasm_bindgen(js_name = encodeState)]
pub fn encode_state(
    #[wasm_bindgen(unchecked_param_type = "Setting[]")] settings: JsValue,
) -> Result<String, JsValue> {
    #[derive(serde::Deserialize)]
    struct SettingInput {
        key: String,
        value: String,
    }
    let settings: Vec<SettingInput> = from_js("settings", settings)?;
    let settings: Vec<crate::state::Setting> = settings
        .into_iter()
        .map(|s| crate::state::Setting {
            key: s.key,
            value: s.value,
        })
        .collect();
    Ok(crate::state::encode_hash(&settings))
}

/// The schedule as `csv`, `json` or `markdown` text, for downloads and "Copy as Markdown".
#[wasm_bindgen(js_name = exportSchedule)]
pub fn export_schedule(
    #[wasm_bindgen(unchecked_param_type = "ScheduleParams")] params: JsValue,
    format: &str,
) -> Result<String, JsValue> {
    let report = report(params)?.report;
    match format {
        "csv" => Ok(report.to_csv()),
        "markdown" => Ok(report.to_markdown()),
        "json" => {
            // The browser's JSON.stringify: serde_json would add tens of kilobytes to the wasm.
            let value = to_js(&report)?;
            js_sys::JSON::stringify_with_replacer_and_space(
                &value,
                &JsValue::NULL,
                &JsValue::from(2),
            )
            .map(String::from)
        }
        other => Err(js_error(&Error::out_of_range(
            "format",
            format!("{other:?}"),
            "csv, json or markdown",
        ))),
    }
}

/// An SVG drawn by a chart function, its text measured by an offscreen canvas (see
/// `src/canvas.rs`).
fn measured_svg(
    size: (u32, u32),
    draw: impl FnOnce(
        &plotters::drawing::DrawingArea<
            crate::canvas::Measured<plotters::prelude::SVGBackend>,
            plotters::coord::Shift,
        >,
    ) -> Result<(), Error>,
) -> Result<String, Error> {
    let mut svg = String::new();
    {
        let backend = plotters::prelude::SVGBackend::with_string(&mut svg, size);
        let backend = crate::canvas::Measured::offscreen(backend)
            .ok_or_else(|| Error::Drawing("no document to measure text in".into()))?;
        let area = backend.into_drawing_area();
        draw(&area)?;
        area.present().map_err(crate::chart::drawing_error)?;
    }
    Ok(svg)
}

fn svg_size(width: f64, height: f64) -> Result<(u32, u32), JsValue> {
    for (field, value) in [("width", width), ("height", height)] {
        if !(value.is_finite() && (100.0..=4_000.0).contains(&value)) {
            return Err(js_error(&Error::out_of_range(
                field,
                value,
                "a number of pixels from 100 to 4000",
            )));
        }
    }
    Ok((width as u32, height as u32))
}

/// A chart as SVG, drawn by the same Rust function as the canvas: `timeline` (with `compare`,
/// a second policy, drawn below it), `distribution` or `herd`.
#[wasm_bindgen(js_name = chartSvg)]
pub fn chart_svg(
    #[wasm_bindgen(unchecked_param_type = "ChartKind")] kind: &str,
    #[wasm_bindgen(unchecked_param_type = "JitterParams")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ChartOptions | undefined")] options: JsValue,
    width: f64,
    height: f64,
    #[wasm_bindgen(unchecked_param_type = "ScheduleParams | undefined")] compare: JsValue,
) -> Result<String, JsValue> {
    let options = chart_options(options)?;
    let size = svg_size(width, height)?;
    let svg = match kind {
        "timeline" => {
            let computed = report(params)?;
            let compared = optional(compare).map(report).transpose()?;
            measured_svg(size, |area| {
                timeline_on(area, &computed, compared.as_ref(), &options)
            })
        }
        "distribution" => {
            let report = jitter_report(params)?;
            measured_svg(size, |area| distribution::draw(area, &report, &options))
        }
        "herd" => {
            let (spread, spike) = herds(params)?;
            measured_svg(size, |area| {
                herd_chart::draw(area, &spread, Some(&spike), &options)
            })
        }
        other => {
            return Err(js_error(&Error::out_of_range(
                "chart",
                format!("{other:?}"),
                "timeline, distribution or herd (the storm: stormSvg)",
            )));
        }
    };
    svg.map_err(|e| js_error(&e))
}

/// The storm chart of `series` as SVG.
#[wasm_bindgen(js_name = stormSvg)]
pub fn storm_svg(
    #[wasm_bindgen(unchecked_param_type = "StormSeries[]")] series: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ChartOptions | undefined")] options: JsValue,
    width: f64,
    height: f64,
) -> Result<String, JsValue> {
    let options = chart_options(options)?;
    let size = svg_size(width, height)?;
    let runs = storm_runs(series)?;
    let series = storm_series(&runs);
    measured_svg(size, |area| {
        crate::chart::storm::draw(area, &series, &options)
    })
    .map_err(|e| js_error(&e))
}

type StormRun = (String, crate::storm::Scenario, crate::storm::StormReport);

fn storm_runs(series: JsValue) -> Result<Vec<StormRun>, JsValue> {
    let inputs: Vec<StormSeriesInput> = from_js("storm series", series)?;
    if inputs.is_empty() || inputs.len() > 4 {
        return Err(js_error(&Error::out_of_range(
            "series",
            inputs.len(),
            "1 to 4 scenarios",
        )));
    }
    inputs
        .into_iter()
        .map(|input| {
            storm_report(input.params, true)
                .map(|(scenario, report)| (input.label, scenario, report))
        })
        .collect()
}

fn storm_series(runs: &[StormRun]) -> Vec<crate::chart::storm::Series<'_>> {
    runs.iter()
        .map(|(label, scenario, report)| crate::chart::storm::Series {
            label: label.clone(),
            scenario,
            report,
        })
        .collect()
}

/// A fresh seed from the browser's randomness (for the page's "new seed" button).
#[wasm_bindgen(js_name = newSeed)]
pub fn new_seed() -> Result<f64, JsValue> {
    fresh_seed()
        .map(|seed| seed as f64)
        .map_err(|e| js_error(&e))
}

struct Computed {
    schedule: crate::Schedule,
    report: ScheduleReport,
}

fn report(params: JsValue) -> Result<Computed, JsValue> {
    let (params, policy) = policy_params(params)?;
    let window = params.window_s().map_err(|e| js_error(&e))?;
    let schedule = policy.schedule();
    let report = ScheduleReport::new(&schedule, window);
    Ok(Computed { schedule, report })
}

/// The schedule of a policy and its derived facts, in the same shape as the CLI's JSON.
#[wasm_bindgen(unchecked_return_type = "ScheduleReport")]
pub fn schedule(
    #[wasm_bindgen(unchecked_param_type = "ScheduleParams")] params: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&report(params)?.report)
}

/// Draws the timeline figure of a policy into the canvas with id `canvas_id`, at the canvas's
/// own pixel size, and returns the schedule it drew.
#[wasm_bindgen(js_name = drawTimeline, unchecked_return_type = "ScheduleReport")]
pub fn draw_timeline(
    canvas_id: &str,
    #[wasm_bindgen(unchecked_param_type = "ScheduleParams")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ChartOptions | undefined")] options: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ScheduleParams | undefined")] compare: JsValue,
) -> Result<JsValue, JsValue> {
    let options = chart_options(options)?;
    let computed = report(params)?;
    let compared = optional(compare).map(report).transpose()?;
    on_canvas(canvas_id, |area| {
        timeline_on(area, &computed, compared.as_ref(), &options)
    })?;
    to_js(&computed.report)
}

fn optional(value: JsValue) -> Option<JsValue> {
    (!value.is_undefined() && !value.is_null()).then_some(value)
}

/// The timeline, or two when a comparison is given: one function for canvas and SVG.
fn timeline_on<DB: plotters::prelude::DrawingBackend>(
    area: &plotters::drawing::DrawingArea<DB, plotters::coord::Shift>,
    computed: &Computed,
    compared: Option<&Computed>,
    options: &ChartOptions,
) -> Result<(), Error> {
    match compared {
        None => timeline::draw(area, &computed.schedule, options),
        Some(other) => timeline::draw_compared(
            area,
            (&computed.schedule, "your policy"),
            (&other.schedule, "compared"),
            options,
        ),
    }
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
