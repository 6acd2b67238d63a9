//! The JS API for programs: each function takes plain parameters (seconds as numbers, or
//! duration text), returns the CLI's JSON shapes, and throws an `Error` with a `field`.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::convert::{api_error, checked_from_js, optional, text, to_js};
use crate::herd::Rates;
use crate::jitter::fresh_seed;
use crate::{Error, Params, Purpose, ScheduleReport};

/// The parameters `purpose` reads: a key it has no use for, or a policy given two ways, is
/// refused by name (the functions share one parameter set; see [`Params::check_read_by`]).
pub(super) fn params_for(purpose: Purpose, params: JsValue) -> Result<Params, JsValue> {
    let params: Params = checked_from_js("parameters", params)?;
    params.check_read_by(purpose).map_err(|e| api_error(&e))?;
    Ok(params)
}

/// Parameters of one jittered delivery: full jitter unless `mode` says otherwise and a fresh
/// seed unless one is given (the report says which), as in the CLI's `jitter` and `herd`.
pub(super) fn params_with_seed(purpose: Purpose, params: JsValue) -> Result<Params, JsValue> {
    let mut params = params_for(purpose, params)?;
    if params.mode.is_none() {
        params.mode = Some("full".into());
    }
    params.with_fresh_seed().map_err(|e| api_error(&e))
}

pub(super) fn schedule_report(params: &Params) -> Result<(crate::Schedule, ScheduleReport), Error> {
    let schedule = params.policy()?.schedule();
    let report = ScheduleReport::new(&schedule, params.window_s()?);
    Ok((schedule, report))
}

/// The schedule of a policy and its derived facts, in the same shape as the CLI's JSON.
#[wasm_bindgen(unchecked_return_type = "ScheduleReport")]
pub fn schedule(
    #[wasm_bindgen(unchecked_param_type = "ScheduleParams")] params: JsValue,
) -> Result<JsValue, JsValue> {
    let params = params_for(Purpose::Schedule, params)?;
    to_js(&schedule_report(&params).map_err(|e| api_error(&e))?.1)
}

/// One jittered delivery: the exact give-up distribution, a seeded sample and, when a deadline
/// is given, the deadline-safe attempt count. Same shape as `backoff-lab jitter --format json`.
#[wasm_bindgen(unchecked_return_type = "JitterReport")]
pub fn jitter(
    #[wasm_bindgen(unchecked_param_type = "GiveUpParams")] params: JsValue,
) -> Result<JsValue, JsValue> {
    let params = params_with_seed(Purpose::GiveUp, params)?;
    to_js(&crate::page::jitter_report(&params).map_err(|e| api_error(&e))?)
}

/// A herd of deliveries that failed in the same second: retries per second. Same shape as
/// `backoff-lab herd --format json`.
#[wasm_bindgen(unchecked_return_type = "Herd")]
pub fn herd(
    #[wasm_bindgen(unchecked_param_type = "HerdParams")] params: JsValue,
) -> Result<JsValue, JsValue> {
    let params = params_with_seed(Purpose::Herd, params)?;
    to_js(&crate::page::herds(&params).map_err(|e| api_error(&e))?.0)
}

/// What `drawHerd` returns: the herd's rates, the unjittered spike's, and the caption. Each
/// `Rates` says the width of the bins its peak was counted in; `bin_s` is the whole
/// schedule's.
#[derive(Serialize)]
pub(super) struct HerdSummary {
    deliveries: usize,
    mode: String,
    seed: u64,
    peak_per_s: f64,
    mean_per_s: f64,
    peak_to_mean: f64,
    bin_s: f64,
    first_retry: Rates,
    unjittered_first_retry: Rates,
    caption: String,
}

impl HerdSummary {
    pub(super) fn new(spread: &crate::herd::Herd, spike: &crate::herd::Herd) -> Self {
        HerdSummary {
            deliveries: spread.deliveries,
            mode: spread.mode.clone(),
            seed: spread.seed,
            peak_per_s: spread.peak_per_s,
            mean_per_s: spread.mean_per_s,
            peak_to_mean: spread.peak_to_mean,
            bin_s: spread.bin_s,
            first_retry: spread.first_retry,
            unjittered_first_retry: spike.first_retry,
            caption: spread.caption(Some(spike)),
        }
    }
}

/// Draws `params.samples` give-up times with `params.seed` and returns only their mean (no
/// percentiles, no histogram): the timing run's like-for-like with a plain JS sampling loop.
#[wasm_bindgen(js_name = sampledMeanGiveUp)]
pub fn sampled_mean_give_up(
    #[wasm_bindgen(unchecked_param_type = "SampledMeanParams")] params: JsValue,
) -> Result<f64, JsValue> {
    let params = params_with_seed(Purpose::SampledMean, params)?;
    let mean = || -> Result<f64, Error> {
        let (policy, jitter) = (params.policy()?, params.jitter()?);
        jitter.check_applies_to(&policy)?;
        let samples = params.samples_for(&policy, jitter, crate::give_up::DEFAULT_SAMPLES)?;
        let mut rng = crate::jitter::seeded_rng(params.seed()?.unwrap_or_default())?;
        let times = crate::give_up::give_up_times(&policy, jitter, samples, &mut rng);
        Ok(times.iter().sum::<f64>() / samples as f64)
    };
    mean().map_err(|e| api_error(&e))
}

/// A storm's parameters: the policy is `exponential` when a backoff field (base, multiplier,
/// cap, gaps, thenEvery) is given without `policy`, as the CLI decides from its flags.
pub(super) fn storm_params(purpose: Purpose, params: JsValue) -> Result<Params, JsValue> {
    params_for(purpose, params)?
        .with_storm_policy()
        .map_err(|e| api_error(&e))
}

/// A retry storm: what was simulated (`scenario`, every default filled in), then per-minute
/// attempts, successes, backlog and the summary. Same shape as `backoff-lab storm --format
/// json`. Every field not given takes the article's value; the
/// policy is the fixed 30 s interval unless a backoff field (`base`, `multiplier`, `cap`,
/// `gaps`, `thenEvery`) or `policy: "exponential"` is given, as in the CLI.
#[wasm_bindgen(unchecked_return_type = "SimulatedStorm")]
pub fn storm(
    #[wasm_bindgen(unchecked_param_type = "StormParams")] params: JsValue,
) -> Result<JsValue, JsValue> {
    let params = storm_params(Purpose::Storm, params)?;
    let simulated = params.simulated(false).map_err(|e| api_error(&e))?;
    to_js(&simulated)
}

/// The survival map of a storm scenario: which outages it survives at which capacity headroom,
/// under its policy, the fixed 30 s interval and a retry budget. Same shape as `backoff-lab
/// survival --format json`. `axes` (optional, each field too): `{ outages: "10s..24h", headroom:
/// "1.05..20", steps: "24x16" }`. It runs on the fluid engine unless `engine` is `discrete`, and
/// takes seconds: call it from a worker.
#[wasm_bindgen(unchecked_return_type = "SurvivalMap")]
pub fn survival(
    #[wasm_bindgen(unchecked_param_type = "SurvivalParams")] params: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "SurvivalAxes")] axes: JsValue,
) -> Result<JsValue, JsValue> {
    let params = storm_params(Purpose::SurvivalMap, params)?;
    let axes: crate::survival::AxesText = if axes.is_undefined() || axes.is_null() {
        crate::survival::AxesText::default()
    } else {
        checked_from_js("axes", axes)?
    };
    let map = params
        .map_scenario()
        .and_then(|scenario| {
            // The fluid engine unless `engine` says otherwise, as in the CLI's `survival`.
            let engine = match params.engine {
                Some(_) => params.engine()?,
                None => crate::Engine::Fluid,
            };
            crate::survival::survival_map(
                scenario.spec(),
                &axes.axes(scenario.spec(), engine)?,
                engine,
            )
        })
        .map_err(|e| api_error(&e))?;
    to_js(&map)
}

/// The article's per-minute arithmetic for a scenario's outage: the same `{minutes, summary}`
/// shape as `storm`, with `null` where it models nothing. Storm fields it does not use are
/// refused by name.
#[wasm_bindgen(js_name = arithmeticView, unchecked_return_type = "ArithmeticReport")]
pub fn arithmetic_view(
    #[wasm_bindgen(unchecked_param_type = "ArithmeticParams")] params: JsValue,
) -> Result<JsValue, JsValue> {
    let params = params_for(Purpose::Storm, params)?;
    let view = params
        .arithmetic_scenario_as_given()
        .and_then(|scenario| crate::storm::arithmetic_view(&scenario))
        .map_err(|e| api_error(&e))?;
    to_js(&view)
}

/// Every preset: a provider's published schedule with its give-up time and source.
#[wasm_bindgen(unchecked_return_type = "PresetInfo[]")]
pub fn presets() -> Result<JsValue, JsValue> {
    let infos: Vec<crate::presets::PresetInfo> =
        crate::presets::presets().iter().map(Into::into).collect();
    to_js(&infos)
}

/// The schedule as `csv`, `json` or `markdown` text, for downloads and "Copy as Markdown".
#[wasm_bindgen(js_name = exportSchedule)]
pub fn export_schedule(
    #[wasm_bindgen(unchecked_param_type = "ScheduleParams")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "\"csv\" | \"json\" | \"markdown\"")] format: JsValue,
) -> Result<String, JsValue> {
    let params = params_for(Purpose::Schedule, params)?;
    let report = schedule_report(&params).map_err(|e| api_error(&e))?.1;
    schedule_in(&report, format)
}

/// A schedule's report as CSV, JSON or Markdown, for the JS API's and the page's downloads.
pub(super) fn schedule_in(report: &ScheduleReport, format: JsValue) -> Result<String, JsValue> {
    match text("format", &format)?.as_str() {
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
        other => Err(api_error(&Error::out_of_range(
            "format",
            format!("{other:?}"),
            "csv, json or markdown",
        ))),
    }
}

/// A fresh seed from the browser's randomness (for the page's "new seed" button).
#[wasm_bindgen(js_name = newSeed)]
pub fn new_seed() -> Result<f64, JsValue> {
    fresh_seed()
        .map(|seed| seed as f64)
        .map_err(|e| api_error(&e))
}

/// Formats seconds the way the article does (`30 s`, `4.5 min`, `3 h 02 min`).
#[wasm_bindgen(js_name = formatDuration)]
pub fn format_duration(
    #[wasm_bindgen(unchecked_param_type = "number")] seconds: JsValue,
) -> Result<String, JsValue> {
    let seconds = super::convert::number("seconds", &seconds)?;
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(api_error(&Error::out_of_range(
            "seconds",
            seconds,
            "a finite number of seconds, 0 or more",
        )));
    }
    Ok(crate::format_duration(seconds))
}

/// Parses a duration (`30s`, `4m30s`, `4.5min`, `3h`, `1d`) into seconds; throws on garbage.
/// `field` names the input in the message and the error: any parameter's key (`base`,
/// `giveUp`, `timeout`, ...; `give-up` reads as `giveUp`), else `duration`.
#[wasm_bindgen(js_name = parseDuration)]
pub fn parse_duration(
    #[wasm_bindgen(unchecked_param_type = "string")] field: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] duration: JsValue,
) -> Result<f64, JsValue> {
    // A parameter's key (as JavaScript spells it), else `duration` (`foo` was taken as given).
    let keys = crate::field_names::of::<Params>();
    let name = optional(field)
        .and_then(|f| f.as_string())
        .filter(|name| name.len() <= 40)
        .map(|name| super::convert::camel_case(&name))
        .filter(|name| keys.contains(&name.as_str()))
        .unwrap_or_else(|| "duration".into());
    let refused = |error: JsValue| super::convert::renamed(error, "duration", &name);
    let duration = text("duration", &duration).map_err(refused)?;
    crate::parse_duration("duration", &duration).map_err(|e| refused(api_error(&e)))
}

/// After an outage: how late and how old its events arrive, which are exhausted; for `outage`
/// if given, else along a ladder of outage lengths; with `tolerance` and `maxLag`, a suggested
/// schedule. Same shape as `backoff-lab staleness --format json`.
#[wasm_bindgen(unchecked_return_type = "StalenessReport")]
pub fn staleness(
    #[wasm_bindgen(unchecked_param_type = "StalenessParams")] params: JsValue,
) -> Result<JsValue, JsValue> {
    // A jittered one without a seed draws a fresh one, as `backoff-lab staleness` does (it
    // read seed 0 on every call).
    let params = params_for(Purpose::Staleness, params)?
        .with_fresh_seed()
        .map_err(|e| api_error(&e))?;
    to_js(&params.staleness_report().map_err(|e| api_error(&e))?)
}
