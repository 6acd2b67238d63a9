//! The explorer page's own exports: its state as a value (read from and written to the URL
//! hash), what a change to one control does to the others, each chart's costly step (run in a
//! worker) and its drawing. The page's JavaScript only wires the DOM around these.

use wasm_bindgen::prelude::*;

use super::convert::{api_error, canvas_svg_size, chart_options, from_js, page_error, text, to_js};
use super::surface::{on_canvas, svg};
use crate::page::{self, Computed, Settings, View};
use crate::storm::Memo;

fn settings(value: JsValue) -> Result<Settings, JsValue> {
    super::convert::refuse_all_but_plain_objects("settings", &value)?;
    from_js("settings", value)
}

fn view(value: &JsValue) -> Result<View, JsValue> {
    View::from_name(&text("view", value)?).map_err(|e| super::convert::js_error(&e))
}

/// Reads a URL hash into the page's settings (a short preset link completed); garbage falls
/// back to defaults with notices, never an error.
#[wasm_bindgen(js_name = decodeState, unchecked_return_type = "DecodedState")]
pub fn decode_state(
    #[wasm_bindgen(unchecked_param_type = "string")] hash: JsValue,
) -> Result<JsValue, JsValue> {
    // A hash that is no string is refused by name: `decodeState(5)` read as an empty link,
    // the defaults with no notice (outside review of the JS API).
    let hash = text("hash", &hash)?;
    to_js(&page::resolve(page::decode_hash(&hash)))
}

/// The settings of a `<backoff-lab>` element from its attributes (`[name, value]` pairs): the
/// share link's keys as names, over `state` (a whole hash); other attributes are passed over,
/// and each one that could not be used is named with the reason.
#[wasm_bindgen(js_name = elementState, unchecked_return_type = "ElementState")]
pub fn element_state(
    #[wasm_bindgen(unchecked_param_type = "Array<[string, string]>")] attributes: JsValue,
) -> Result<JsValue, JsValue> {
    let attributes: Vec<(String, String)> = from_js("attributes", attributes)?;
    to_js(&page::element_state(&attributes))
}

/// The CSV download of a drawn chart's table (`Drawn.table`) for `view`, `settings` and the
/// `computed` step it was drawn from: a long schedule's, which the drawn table shows in part,
/// with every row; the storm's, every series' minutes.
#[wasm_bindgen(js_name = viewCsv)]
pub fn view_csv(
    #[wasm_bindgen(unchecked_param_type = "View")] view_name: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Computed")] computed: JsValue,
    #[wasm_bindgen(unchecked_param_type = "NumberTable")] table: JsValue,
) -> Result<String, JsValue> {
    let table = from_js::<page::NumberTable>("table", table)?;
    let computed: Computed = super::convert::computed_from_js(computed)?;
    page::view_csv(view(&view_name)?, &settings(values)?, &computed, &table)
        .map_err(|e| page_error(&e))
}

/// The name, without its extension, a download of `what` (a chart's view, or `schedule` for the
/// schedule's report) drawn from `settings` is saved under: see [`page::file_stem`].
#[wasm_bindgen(js_name = fileStem)]
pub fn file_stem(
    #[wasm_bindgen(unchecked_param_type = "View | \"schedule\"")] what: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
) -> Result<String, JsValue> {
    let what = text("what", &what)?;
    if what != "schedule" {
        View::from_name(&what).map_err(|e| super::convert::js_error(&e))?;
    }
    Ok(page::file_stem(&what, &settings(values)?))
}

/// Writes the settings as a URL hash (without `#`), defaults left out. A key that is no
/// setting is refused by name (a link would drop it without a word); the page's other
/// functions take its whole state and read what they use.
#[wasm_bindgen(js_name = encodeState)]
pub fn encode_state(
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
) -> Result<String, JsValue> {
    let keys: Vec<&str> = Settings::default().iter().map(|(key, _)| key).collect();
    super::convert::refuse_unknown_keys("settings", &values, &keys)?;
    Ok(page::encode_hash(&settings(values)?))
}

/// Where the thumb of `field`'s slider stands for the settings' value of the field: a duration
/// slider's nearest stop (its index), a number slider's number; `undefined` when the thumb keeps
/// its place (the text does not read as the field's value, or a base and a cap cross).
#[wasm_bindgen(js_name = sliderPosition)]
pub fn slider_position(
    #[wasm_bindgen(unchecked_param_type = "string")] field: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
) -> Result<Option<f64>, JsValue> {
    Ok(page::slider_position_in(
        &text("field", &field)?,
        &settings(values)?,
    ))
}

/// The text `field`'s slider writes into its field with its thumb at `position`: a duration
/// slider's stop in words, the budget slider's left end empty (no budget), a number as itself.
#[wasm_bindgen(js_name = sliderText)]
pub fn slider_text(
    #[wasm_bindgen(unchecked_param_type = "string")] field: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] position: JsValue,
) -> Result<String, JsValue> {
    let position: f64 = from_js("position", position)?;
    Ok(page::slider_text(&text("field", &field)?, position))
}

/// The settings after the reader changed `control` (`preset`, `base`, `multiplier`, `cap`,
/// `attempts`, `give-up`, `stop`, `drop-gaps`, each followed by ` typed` when typed into its
/// field rather than moved with its slider; others change nothing else).
#[wasm_bindgen(js_name = settingEdited, unchecked_return_type = "Settings")]
pub fn setting_edited(
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] control: JsValue,
) -> Result<JsValue, JsValue> {
    let control = text("control", &control)?;
    to_js(&page::edited(settings(values)?, &control))
}

/// The storms a page's storm chart simulated last, kept by whoever computes them (the page's
/// worker), so that a policy slider does not re-simulate the fixed-interval comparison.
#[wasm_bindgen]
#[derive(Default)]
pub struct StormMemo {
    memo: Memo,
}

#[wasm_bindgen]
impl StormMemo {
    /// An empty memory.
    #[wasm_bindgen(constructor)]
    pub fn new() -> StormMemo {
        StormMemo::default()
    }
}

/// The costly step of a chart (`view`): sampling, herds, storms. The page runs it in a worker.
/// Returned packed, as bytes for `drawView`, `viewSvg` and `survivalExport` (read back in one
/// copy, and moved between threads without one); the numbers themselves come from `jitter`,
/// `herd`, `storm`, `staleness` and `survival`, as plain objects.
#[wasm_bindgen(js_name = computeView, unchecked_return_type = "Uint8Array")]
pub fn compute_view(
    #[wasm_bindgen(unchecked_param_type = "View")] view_name: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
    memo: &mut StormMemo,
) -> Result<JsValue, JsValue> {
    let computed = page::compute(view(&view_name)?, &settings(values)?, &mut memo.memo)
        .map_err(|e| page_error(&e))?;
    let bytes = page::pack(computed).map_err(|e| super::convert::js_error(&e))?;
    Ok(js_sys::Uint8Array::from(bytes.as_slice()).into())
}

/// The survival map's rows for these settings in pieces for `workers` workers computing them at
/// once (0: none, the rows are computed on the page's own thread, a row a piece), as
/// `[series, headrooms]` index pairs in the order worth computing them (see `Plan::pieces`);
/// refused, naming the setting, when the map is invalid or would be too much work.
#[wasm_bindgen(js_name = survivalJobs, unchecked_return_type = "Array<[number, number[]]>")]
pub fn survival_jobs(
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] workers: JsValue,
) -> Result<JsValue, JsValue> {
    let workers = index("workers", from_js("workers", workers)?, 64)?;
    let settings = settings(values)?;
    let plan = page::checked_survival_plan(&settings)
        .map_err(|e| page_error(&page::survival_error(e, &settings).quoting(&settings)))?;
    to_js(&plan.pieces(workers))
}

/// Every survival axis (`outages`, `headroom`, `steps`) whose own text is refused, each as
/// `{ setting, message }`: the map's refusal (`survivalJobs`) names only the first.
#[wasm_bindgen(js_name = survivalAxesErrors, unchecked_return_type = "PageError[]")]
pub fn survival_axes_errors(
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&page::survival_axes_errors(&settings(values)?))
}

/// The rows of one piece of the survival map (`series`, `headrooms`: a pair from
/// [`survival_jobs`]), every cell simulated. `computeView("survival", ...)` computes them all
/// at once.
#[wasm_bindgen(js_name = computeSurvivalRows, unchecked_return_type = "SurvivalRow[]")]
pub fn compute_survival_rows(
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] series: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number[]")] headrooms: JsValue,
) -> Result<JsValue, JsValue> {
    let series = index("series", from_js("series", series)?, 1_000_000)?;
    let headrooms: Vec<f64> = from_js("headrooms", headrooms)?;
    let headrooms = headrooms
        .into_iter()
        .map(|h| index("headrooms", h, 1_000_000))
        .collect::<Result<Vec<usize>, JsValue>>()?;
    let settings = settings(values)?;
    let rows = page::survival_plan(&settings)
        .and_then(|plan| plan.rows_of(series, &headrooms))
        .map_err(|e| page_error(&page::survival_error(e, &settings).quoting(&settings)))?;
    to_js(&rows)
}

/// `n` as an index or a count from 0 to `max` (the core's whole-number rule and message).
fn index(field: &'static str, n: f64, max: u64) -> Result<usize, JsValue> {
    crate::whole_number(field, n, 0, max)
        .map(|n| n as usize)
        .map_err(|e| super::convert::js_error(&e))
}

/// The controls that do nothing as the other settings stand, each with its note: the storm's
/// fields by key (a resume rate without a pause, a budget's window without a budget, which the
/// core leaves out of the storm) and options as `key=value` (`mode=decorrelated` beside a list
/// of gaps).
#[wasm_bindgen(js_name = inactiveControls, unchecked_return_type = "InactiveControl[]")]
pub fn inactive_controls(
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&page::inactive_controls(&settings(values)?))
}

/// Whether an input that leads to `settings` is painted before the page renders them (the
/// core's `page::renders_after_paint`: a schedule of more than 1,000 attempts).
#[wasm_bindgen(js_name = rendersAfterPaint)]
pub fn renders_after_paint(
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
) -> Result<bool, JsValue> {
    Ok(page::renders_after_paint(&settings(values)?))
}

/// Whether the costly step of `view` is cheap enough to compute on the page's own thread (the
/// core's `page::computes_inline`): then the page does, without a worker's round trip.
#[wasm_bindgen(js_name = computesInline)]
pub fn computes_inline(
    #[wasm_bindgen(unchecked_param_type = "View")] view_name: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
) -> Result<bool, JsValue> {
    Ok(page::computes_inline(view(&view_name)?, &settings(values)?))
}

/// The settings of a quicker first run of a chart, or `null` when its full run is quick enough.
#[wasm_bindgen(js_name = previewSettings, unchecked_return_type = "Settings | null")]
pub fn preview_settings(
    #[wasm_bindgen(unchecked_param_type = "View")] view_name: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&page::preview(view(&view_name)?, &settings(values)?))
}

/// Draws a chart into the canvas `canvas_id` from the settings and its computed step; returns
/// its caption (and the timeline's table, the comparison, each storm's summary).
#[wasm_bindgen(js_name = drawView, unchecked_return_type = "Drawn")]
pub fn draw_view(
    #[wasm_bindgen(unchecked_param_type = "string | HTMLCanvasElement")] canvas_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "View")] view_name: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Computed")] computed: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ChartOptions | undefined")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let (view, values) = (view(&view_name)?, settings(values)?);
    let computed: Computed = super::convert::computed_from_js(computed)?;
    let options = chart_options(options)?;
    let drawn = on_canvas(&canvas_id, |area| {
        page::draw(area, view, &values, &computed, &options)
    })?;
    to_js(&drawn)
}

/// Computes and draws into the canvas `canvas_id` the first run of a chart that is cheap
/// enough to draw on the page at once (the core's `page::instant`: the staleness chart under
/// jitter), returning what `drawView` returns; `null`, drawing nothing, for the other charts.
#[wasm_bindgen(js_name = drawInstant, unchecked_return_type = "Drawn | null")]
pub fn draw_instant(
    #[wasm_bindgen(unchecked_param_type = "string | HTMLCanvasElement")] canvas_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "View")] view_name: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ChartOptions | undefined")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let view = view(&view_name)?;
    let Some(instant) = page::instant(view, &settings(values)?) else {
        return Ok(JsValue::NULL);
    };
    let computed =
        page::compute(view, &instant, &mut Memo::default()).map_err(|e| page_error(&e))?;
    let options = chart_options(options)?;
    let drawn = on_canvas(&canvas_id, |area| {
        page::draw_computed(area, view, &instant, &computed, &options)
    })?;
    to_js(&drawn)
}

/// A chart as SVG, from the settings and its computed step, at the size of the canvas it is
/// drawn on (brought within the figure's limits: 240 to 4000 by 160 to 4000 pixels).
#[wasm_bindgen(js_name = viewSvg)]
pub fn view_svg(
    #[wasm_bindgen(unchecked_param_type = "View")] view_name: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Computed")] computed: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ChartOptions | undefined")] options: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] width: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] height: JsValue,
) -> Result<String, JsValue> {
    let (view, values) = (view(&view_name)?, settings(values)?);
    let computed: Computed = super::convert::computed_from_js(computed)?;
    let options = chart_options(options)?;
    let mut caption = String::new();
    let drawn = svg(canvas_svg_size(&width, &height)?, |area| {
        page::draw(area, view, &values, &computed, &options)
            .map(|drawn| caption = drawn.full_caption())
    })?;
    // Titled and described as `backoff-lab figure` does: what a screen reader announces.
    Ok(crate::chart::described(&drawn, view.title(), &caption))
}

/// The schedule of the page's policy as `csv`, `json` or `markdown` text.
#[wasm_bindgen(js_name = pageSchedule)]
pub fn page_schedule(
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
    #[wasm_bindgen(unchecked_param_type = "\"csv\" | \"json\" | \"markdown\"")] format: JsValue,
) -> Result<String, JsValue> {
    let report = page::your_schedule(&settings(values)?)
        .map_err(|e| api_error(&e))?
        .1;
    super::api::schedule_in(&report, format)
}

/// The `<iframe>` snippet for `view` with these settings, for the embed page at `embed_url`.
#[wasm_bindgen(js_name = embedSnippet)]
pub fn embed_snippet(
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
    #[wasm_bindgen(unchecked_param_type = "View")] view_name: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] embed_url: JsValue,
) -> Result<String, JsValue> {
    let url = text("embed-url", &embed_url)?;
    Ok(page::embed_snippet(
        &settings(values)?,
        view(&view_name)?,
        &url,
    ))
}

/// What the page's controls need to know: the duration sliders' stops, and each view's section
/// and title.
#[wasm_bindgen(js_name = pageConfig, unchecked_return_type = "PageConfig")]
pub fn page_config() -> Result<JsValue, JsValue> {
    #[derive(serde::Serialize)]
    struct ViewInfo {
        name: &'static str,
        section: &'static str,
        title: &'static str,
    }
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Config {
        slider_stops: std::collections::BTreeMap<&'static str, Vec<f64>>,
        views: Vec<ViewInfo>,
        own_attributes: [&'static str; 2],
    }
    to_js(&Config {
        own_attributes: page::OWN_ATTRIBUTES,
        slider_stops: page::slider_stops().into_iter().collect(),
        views: View::ALL
            .iter()
            .map(|v| ViewInfo {
                name: v.name(),
                section: v.section(),
                title: v.title(),
            })
            .collect(),
    })
}

/// The staleness report of the page's policy (its ladder of outages, the tolerance and the
/// allowed lag) as `csv`, `json` or `markdown` text.
#[wasm_bindgen(js_name = pageStaleness)]
pub fn page_staleness(
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
    #[wasm_bindgen(unchecked_param_type = "\"csv\" | \"json\" | \"markdown\"")] format: JsValue,
) -> Result<String, JsValue> {
    let report = page::staleness_export(&settings(values)?).map_err(|e| page_error(&e))?;
    match text("format", &format)?.as_str() {
        "csv" => Ok(report.to_csv()),
        "markdown" => Ok(report.to_markdown()),
        "json" => json_text(&report),
        other => Err(super::convert::js_error(&crate::Error::out_of_range(
            "format",
            format!("{other:?}"),
            "csv, json or markdown",
        ))),
    }
}

/// The survival map drawn from `computed` (its rows so far) as `csv` (one line per cell) or
/// `json` text (the shape of `backoff-lab survival --format json`).
#[wasm_bindgen(js_name = survivalExport)]
pub fn survival_export(
    #[wasm_bindgen(unchecked_param_type = "Settings")] values: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Computed")] computed: JsValue,
    #[wasm_bindgen(unchecked_param_type = "\"csv\" | \"json\"")] format: JsValue,
) -> Result<String, JsValue> {
    let Computed::Survival { rows } = super::convert::computed_from_js(computed)? else {
        return Err(super::convert::js_error(&crate::Error::out_of_range(
            "computed",
            "another chart's result",
            "the survival map's rows",
        )));
    };
    let map = page::survival_plan(&settings(values)?)
        .and_then(|plan| plan.map(&rows))
        .map_err(|e| super::convert::js_error(&e))?;
    match text("format", &format)?.as_str() {
        "csv" => Ok(map.to_csv()),
        "json" => json_text(&map),
        other => Err(super::convert::js_error(&crate::Error::out_of_range(
            "format",
            format!("{other:?}"),
            "csv or json",
        ))),
    }
}

/// `value` as indented JSON text (the exports' JSON files).
fn json_text<T: serde::Serialize>(value: &T) -> Result<String, JsValue> {
    js_sys::JSON::stringify_with_replacer_and_space(
        &to_js(value)?,
        &JsValue::NULL,
        &JsValue::from(2),
    )
    .map(String::from)
}
