//! The JS API's charts: each draws into a `<canvas>` (or returns SVG) with the same Rust
//! function the CLI's `figure` and the page use, and returns what it drew.

use wasm_bindgen::prelude::*;

use super::api::{params_for, params_with_seed, schedule_report, HerdSummary};
use super::convert::{api_error, chart_options, checked_from_js, optional, svg_size, text, to_js};
use super::surface::{on_canvas, svg};
use crate::chart::{self, ChartOptions};
use crate::page::View;
use crate::storm::{Scenario, StormReport};
use crate::{Error, Params, Purpose};

/// Draws the timeline of a policy (and below it a compared one, if given) into the canvas
/// whose id is `canvas_id`; returns the schedule it drew.
#[wasm_bindgen(js_name = drawTimeline, unchecked_return_type = "ScheduleReport")]
pub fn draw_timeline(
    #[wasm_bindgen(unchecked_param_type = "string | HTMLCanvasElement")] canvas_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ScheduleParams")] params: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ChartOptions")] options: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DrawnScheduleParams")] compare: JsValue,
) -> Result<JsValue, JsValue> {
    let options = chart_options(options)?;
    let (mine, report) = timeline_inputs(params, true)?;
    let compared = compared_inputs(compare)?;
    on_canvas(&canvas_id, |area| {
        timeline_on(area, &mine, compared.as_ref().map(|c| &c.0), &options)
    })?;
    to_js(&report)
}

/// A schedule to draw, with its report; one drawn but never reported (a compared one,
/// `chartSvg`'s) is read as [`Purpose::DrawnSchedule`]: its `window` would be unused.
fn timeline_inputs(
    params: JsValue,
    reported: bool,
) -> Result<(crate::Schedule, crate::ScheduleReport), JsValue> {
    let purpose = match reported {
        true => Purpose::Schedule,
        false => Purpose::DrawnSchedule,
    };
    let params = params_for(purpose, params)?;
    schedule_report(&params).map_err(|e| api_error(&e))
}

/// The compared schedule's inputs, if given. A refusal names `compare`, the argument at fault,
/// as its `field`, and which of its keys as its `key` and in its message ("compare: base must
/// be …"): it named `base`, as if of the first schedule's parameters.
fn compared_inputs(
    compare: JsValue,
) -> Result<Option<(crate::Schedule, crate::ScheduleReport)>, JsValue> {
    optional(compare)
        .map(|c| timeline_inputs(c, false))
        .transpose()
        .map_err(|error| {
            let message = js_sys::Reflect::get(&error, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_default();
            let key = js_sys::Reflect::get(&error, &"field".into()).unwrap_or_default();
            let js = js_sys::Error::new(&format!("compare: {message}"));
            // Setting a property on a fresh Error object cannot fail.
            let _ = js_sys::Reflect::set(&js, &"field".into(), &"compare".into());
            let _ = js_sys::Reflect::set(&js, &"key".into(), &key);
            js.into()
        })
}

/// The timeline, or two when a comparison is given: one function for canvas and SVG.
fn timeline_on<DB: plotters::prelude::DrawingBackend>(
    area: &plotters::drawing::DrawingArea<DB, plotters::coord::Shift>,
    schedule: &crate::Schedule,
    compared: Option<&crate::Schedule>,
    options: &ChartOptions,
) -> Result<(), Error> {
    match compared {
        None => chart::timeline::draw(area, schedule, options),
        Some(other) => chart::timeline::draw_compared(
            area,
            (schedule, "your policy"),
            (other, "compared"),
            options,
        ),
    }
}

fn jitter_report(params: JsValue) -> Result<crate::give_up::JitterReport, JsValue> {
    let params = params_with_seed(Purpose::GiveUp, params)?;
    crate::page::jitter_report(&params).map_err(|e| api_error(&e))
}

fn herds(params: JsValue) -> Result<(crate::herd::Herd, crate::herd::Herd), JsValue> {
    let params = params_with_seed(Purpose::Herd, params)?;
    crate::page::herds(&params).map_err(|e| api_error(&e))
}

/// Draws the give-up-time distribution into the canvas `canvas_id` and returns its report.
#[wasm_bindgen(js_name = drawDistribution, unchecked_return_type = "JitterReport")]
pub fn draw_distribution(
    #[wasm_bindgen(unchecked_param_type = "string | HTMLCanvasElement")] canvas_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "GiveUpParams")] params: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ChartOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let options = chart_options(options)?;
    let report = jitter_report(params)?;
    on_canvas(&canvas_id, |area| {
        chart::distribution::draw(area, &report, &options)
    })?;
    to_js(&report)
}

/// Draws the herd (the chosen mode over the unjittered spike) into the canvas `canvas_id` and
/// returns its rates and caption.
#[wasm_bindgen(js_name = drawHerd, unchecked_return_type = "HerdSummary")]
pub fn draw_herd(
    #[wasm_bindgen(unchecked_param_type = "string | HTMLCanvasElement")] canvas_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "HerdParams")] params: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ChartOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let options = chart_options(options)?;
    let (spread, spike) = herds(params)?;
    on_canvas(&canvas_id, |area| {
        chart::herd::draw(area, &spread, Some(&spike), &options)
    })?;
    to_js(&HerdSummary::new(&spread, &spike))
}

/// One series of `drawStorm` and `stormSvg`: its label (its parameters are read apart, as
/// every function reads its own).
#[derive(serde::Deserialize)]
struct SeriesLabel {
    label: String,
    #[allow(dead_code)]
    params: serde::de::IgnoredAny,
}

type Run = (String, Scenario, StormReport);

/// Simulates each series (1 to 4), afresh. Each series and its parameters are read as every
/// function reads its own: a key misspelt or not read is refused by name, and a value of the
/// wrong type names its key (not the series' index).
fn storm_runs(series: JsValue) -> Result<Vec<Run>, JsValue> {
    let list = series.dyn_into::<js_sys::Array>().map_err(|other| {
        api_error(&Error::out_of_range(
            "series",
            super::convert::js_type(&other),
            "a list (an array) of 1 to 4 { label, params }",
        ))
    })?;
    if list.length() == 0 || list.length() > 4 {
        return Err(api_error(&Error::out_of_range(
            "series",
            list.length(),
            "1 to 4 scenarios",
        )));
    }
    let inputs = list
        .iter()
        .map(|item| {
            let SeriesLabel { label, .. } = checked_from_js("storm series", item.clone())?;
            let params = js_sys::Reflect::get(&item, &"params".into()).unwrap_or_default();
            Ok((label, params_for(Purpose::Storm, params)?))
        })
        .collect::<Result<Vec<_>, JsValue>>()?;
    let run = |(label, params): (String, Params)| -> Result<Run, Error> {
        let params = params.with_storm_policy()?;
        let scenario = params.scenario()?;
        let report = params.simulate(false)?;
        Ok((label, scenario, report))
    };
    inputs
        .into_iter()
        .map(|input| run(input).map_err(|e| api_error(&e)))
        .collect()
}

fn storm_series(runs: &[Run]) -> Vec<chart::storm::Series<'_>> {
    runs.iter()
        .map(|(label, scenario, report)| chart::storm::Series {
            label: label.clone(),
            scenario,
            report,
        })
        .collect()
}

/// Simulates each series and draws them into the canvas `canvas_id` (the first filled, the rest
/// as lines over it); returns each one's summary and caption.
#[wasm_bindgen(js_name = drawStorm, unchecked_return_type = "StormDrawn[]")]
pub fn draw_storm(
    #[wasm_bindgen(unchecked_param_type = "string | HTMLCanvasElement")] canvas_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "StormSeries[]")] series: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ChartOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let options = chart_options(options)?;
    let runs = storm_runs(series)?;
    on_canvas(&canvas_id, |area| {
        chart::storm::draw(area, &storm_series(&runs), &options)
    })?;
    // The page's own type, which its declaration (`StormDrawn`) describes: a type of this
    // function's own had left out `outage_s`.
    let drawn: Vec<crate::page::StormDrawn> = runs
        .into_iter()
        .map(|(label, scenario, report)| crate::page::StormDrawn {
            label,
            caption: report.caption,
            summary: report.summary,
            outage_s: scenario.spec().outage.1,
        })
        .collect();
    to_js(&drawn)
}

/// A chart as SVG, drawn by the same Rust function as the canvas: `timeline` (with `compare`,
/// a second policy, drawn below it), `distribution` or `herd`; with a `<title>` and a `<desc>`
/// (its caption) as `backoff-lab figure` writes them, the text for an `<img>`'s `alt`.
#[wasm_bindgen(js_name = chartSvg)]
pub fn chart_svg(
    #[wasm_bindgen(unchecked_param_type = "ChartKind")] kind: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ChartParams")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ChartOptions | undefined")] options: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] width: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] height: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DrawnScheduleParams")] compare: JsValue,
) -> Result<String, JsValue> {
    let options = chart_options(options)?;
    let size = svg_size(&width, &height)?;
    let kind = text("chart", &kind)?;
    // Only the timeline draws a compared schedule: given to another chart, it would be ignored.
    if matches!(kind.as_str(), "distribution" | "herd") && optional(compare.clone()).is_some() {
        return Err(api_error(&Error::out_of_range(
            "compare",
            "a schedule",
            format!("left out of chartSvg('{kind}') (only the timeline draws a compared schedule)"),
        )));
    }
    match kind.as_str() {
        "timeline" => {
            let (mine, report) = timeline_inputs(params, false)?;
            let compared = compared_inputs(compare)?;
            let drawn = svg(size, |area| {
                timeline_on(area, &mine, compared.as_ref().map(|c| &c.0), &options)
            })?;
            Ok(described(&drawn, View::Timeline, &report.caption))
        }
        "distribution" => {
            let report = jitter_report(params)?;
            let drawn = svg(size, |area| {
                chart::distribution::draw(area, &report, &options)
            })?;
            Ok(described(&drawn, View::Distribution, &report.caption))
        }
        "herd" => {
            let (spread, spike) = herds(params)?;
            let drawn = svg(size, |area| {
                chart::herd::draw(area, &spread, Some(&spike), &options)
            })?;
            Ok(described(&drawn, View::Herd, &spread.caption(Some(&spike))))
        }
        other => Err(api_error(&Error::out_of_range(
            "chart",
            format!("{other:?}"),
            "timeline, distribution or herd (the storm: stormSvg)",
        ))),
    }
}

/// The storm chart of `series` as SVG, described as [`chart_svg`]'s are (each series' caption
/// after its label).
#[wasm_bindgen(js_name = stormSvg)]
pub fn storm_svg(
    #[wasm_bindgen(unchecked_param_type = "StormSeries[]")] series: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ChartOptions | undefined")] options: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] width: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] height: JsValue,
) -> Result<String, JsValue> {
    let options = chart_options(options)?;
    let size = svg_size(&width, &height)?;
    let runs = storm_runs(series)?;
    let drawn = svg(size, |area| {
        chart::storm::draw(area, &storm_series(&runs), &options)
    })?;
    let captions: Vec<String> = runs
        .iter()
        .map(|(label, _, report)| format!("{label}: {}", report.caption))
        .collect();
    Ok(described(&drawn, View::Storm, &captions.join(" ")))
}

/// `svg` with the `<title>` of `view` and `caption` as its `<desc>`.
fn described(svg: &str, view: View, caption: &str) -> String {
    chart::described(svg, view.title(), caption)
}

/// Draws the staleness chart of a policy into the canvas `canvas_id`: outage lengths along,
/// when the first event arrives and how old it is, the band of all events, the tolerance, the
/// outage `params.outage` read off, and `compare` (a preset's name) beside it; returns the
/// report it drew.
#[wasm_bindgen(js_name = drawStaleness, unchecked_return_type = "StalenessReport")]
pub fn draw_staleness(
    #[wasm_bindgen(unchecked_param_type = "string | HTMLCanvasElement")] canvas_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "StalenessParams")] params: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ChartOptions")] options: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string")] compare: JsValue,
) -> Result<JsValue, JsValue> {
    let options = chart_options(options)?;
    let params = params_for(Purpose::Staleness, params)?;
    let compared = optional(compare)
        .map(|name| {
            let name = text("compare", &name)?;
            crate::presets::preset(&name).map_err(|e| api_error(&e))
        })
        .transpose()?;
    let chart =
        crate::page::staleness_chart_of(&params, compared.as_ref()).map_err(|e| api_error(&e))?;
    on_canvas(&canvas_id, |area| {
        chart::staleness::draw(area, &chart, &options)
    })?;
    to_js(&chart.report)
}
