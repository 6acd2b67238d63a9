//! The TypeScript declarations of the JS API (`src/wasm/types.d.ts`, shipped in the package's
//! `.d.ts`), generated from the Rust types so that they cannot drift: a test writes them out
//! and fails when the file differs (`BLESS=1 cargo test --lib api_types` rewrites it).
#![cfg(all(test, not(target_arch = "wasm32")))]

use ts_rs::{Config, TS};

use crate::chart::staleness::{StalenessChart, StalenessCurve};
use crate::give_up::{DeadlineSafe, GiveUpSummary, Histogram, JitterReport, Percentiles, Sampled};
use crate::herd::{Herd, Rates};
use crate::page::{
    AttributeError, DecodedState, Drawn, ElementState, NumberTable, PageError, StormDrawn,
    StormSeries, View,
};
use crate::presets::PresetInfo;
use crate::staleness::{
    AllEvents, FirstEvent, Method, OutageAnswer, Outcome, StalenessReport, Suggestion,
};
use crate::storm::{
    ArithmeticMinute, ArithmeticReport, ArithmeticSummary, DrainedBy, Interval, StormReport,
    Summary,
};
use crate::{chart::ChartOptions, DurationInput, NumberInput, Params, ReportRow, ScheduleReport};

/// What no Rust type says: the names the exports' signatures use for one shape, and the errors.
const PREAMBLE: &str = r#"// Generated from the Rust types by src/api_types.rs: do not edit by hand.

/** The chart `chartSvg` draws. */
export type ChartKind = "timeline" | "distribution" | "herd";
/** Every page setting as text, keyed as in the URL hash ("base": "30 s", "mode": "full", ...). */
export type Settings = Record<string, string>;
/** What the page's controls need: the duration sliders' stops, each view's section and title;
 * and the `<backoff-lab>` element's attributes that are not settings (`state`, `actions`). */
export interface PageConfig {
  sliderStops: Record<string, number[]>;
  views: { name: View; section: string; title: string }[];
  ownAttributes: string[];
}
/** What `drawHerd` returns: the herd's rates, the unjittered spike's, and the caption; `bin_s`
 * is the width of the whole schedule's bins (each `Rates` has its own). */
export interface HerdSummary {
  deliveries: number; mode: string; seed: number; peak_per_s: number; mean_per_s: number;
  peak_to_mean: number; bin_s: number; first_retry: Rates; unjittered_first_retry: Rates;
  caption: string;
}
/** A chart's computed step, as `drawView`, `viewSvg` and `survivalExport` take it: what
 * `computeView` returns (its result packed as bytes), or a survival map assembled from the rows
 * `computeSurvivalRows` returns (the timeline has no result: `{ view: "timeline" }`). */
export type Computed = Uint8Array | { view: "timeline" } | { view: "survival"; rows: SurvivalRow[] };
/** What the API's functions throw: an Error, with the input (field) it is about; of a compared
 * schedule, `field` is `compare` and `key` its key. */
export interface BackoffError extends Error { field?: string; key?: string; }
/** What the page's functions throw: an Error, with the control (setting) it is about. */
export interface PageSettingError extends Error { setting?: string; chartLimit?: boolean; }
"#;

/// Every declaration, as the `.d.ts` holds it.
fn declarations() -> String {
    let config = Config::new();
    let decls = [
        Params::decl(&config),
        DurationInput::decl(&config),
        NumberInput::decl(&config),
        ChartOptions::decl(&config),
        ReportRow::decl(&config),
        ScheduleReport::decl(&config),
        Percentiles::decl(&config),
        GiveUpSummary::decl(&config),
        Histogram::decl(&config),
        Sampled::decl(&config),
        DeadlineSafe::decl(&config),
        JitterReport::decl(&config),
        Rates::decl(&config),
        Herd::decl(&config),
        Interval::decl(&config),
        DrainedBy::decl(&config),
        Summary::decl(&config),
        StormReport::decl(&config),
        crate::storm::FailureShare::decl(&config),
        crate::storm::Breaker::decl(&config),
        crate::storm::RetryQuota::decl(&config),
        crate::storm::SimulatedBatch::decl(&config),
        crate::storm::SimulatedScenario::decl(&config),
        crate::storm::SimulatedStorm::decl(&config),
        ArithmeticMinute::decl(&config),
        ArithmeticSummary::decl(&config),
        ArithmeticReport::decl(&config),
        StormSeries::decl(&config),
        crate::page::InactiveControl::decl(&config),
        StormDrawn::decl(&config),
        PresetInfo::decl(&config),
        View::decl(&config),
        DecodedState::decl(&config),
        NumberTable::decl(&config),
        AttributeError::decl(&config),
        ElementState::decl(&config),
        Drawn::decl(&config),
        PageError::decl(&config),
        Outcome::decl(&config),
        FirstEvent::decl(&config),
        AllEvents::decl(&config),
        OutageAnswer::decl(&config),
        Method::decl(&config),
        Suggestion::decl(&config),
        StalenessReport::decl(&config),
        StalenessCurve::decl(&config),
        StalenessChart::decl(&config),
        crate::survival::Outcome::decl(&config),
        crate::survival::Cell::decl(&config),
        crate::survival::Row::decl(&config),
        crate::survival::Series::decl(&config),
        crate::survival::SurvivalMap::decl(&config),
        crate::survival::AxesText::decl(&config),
    ];
    let mut text = PREAMBLE.to_string();
    text.push_str(&parameter_sets());
    for decl in decls {
        text.push('\n');
        text.push_str("export ");
        // A closing brace on its own line, no trailing spaces: wasm-bindgen indents the
        // section by its braces, and a `, };` it did not see close left every later
        // declaration of the package's `.d.ts` four spaces deeper (150 by the end).
        let tidy = decl.replace(", };", ",\n};").replace(" \n", "\n");
        text.push_str(&tidy);
        text.push('\n');
    }
    text
}

/// Each function's parameters: the keys of `Params` its purpose reads, so that TypeScript
/// refuses at compile time the keys the functions refuse when they run.
fn parameter_sets() -> String {
    use crate::Purpose;
    let sets = [
        ("ScheduleParams", Purpose::Schedule, "A schedule's parameters: base, multiplier and cap (or gaps and thenEvery), attempts or giveUp, and window."),
        ("DrawnScheduleParams", Purpose::DrawnSchedule, "A schedule drawn but not reported (chartSvg's timeline, a compared schedule): the policy alone."),
        ("GiveUpParams", Purpose::GiveUp, "The give-up distribution's: a schedule's with its jitter, samples and the deadline-safe purpose."),
        ("SampledMeanParams", Purpose::SampledMean, "sampledMeanGiveUp's: a schedule's with its jitter and samples."),
        ("HerdParams", Purpose::Herd, "A herd's: a schedule's with its jitter and deliveries."),
        ("StormParams", Purpose::Storm, "A storm scenario's: every field not given takes the article's value."),
        ("StalenessParams", Purpose::Staleness, "The staleness report's: a schedule's with its jitter, samples, outage, tolerance and maxLag."),
        ("SurvivalParams", Purpose::SurvivalMap, "A survival map's: a storm scenario's but traffic (each cell's lasts through its outage and the hour after it)."),
    ];
    let mut text = String::new();
    for (name, purpose, doc) in sets {
        let keys: Vec<String> = (crate::params::KEYS.iter())
            .filter(|key| purpose.reads(key))
            .map(|key| format!("\"{}\"", crate::params::js_key(key)))
            .collect();
        text.push_str(&format!(
            "/** {doc} */\nexport type {name} = Pick<Params, {}>;\n",
            keys.join(" | ")
        ));
    }
    let arithmetic: Vec<String> = (crate::params::ARITHMETIC_KEYS.iter())
        .map(|key| format!("\"{}\"", crate::params::js_key(key)))
        .collect();
    text.push_str(&format!(
        "/** What `arithmeticView` reads: `policy`, `mode` and `engine` only as \"fixed\", \"none\" and \"arithmetic\". */\n\
         export type ArithmeticParams = Pick<Params, {}>;\n",
        arithmetic.join(" | ")
    ));
    text.push_str(
        "/** What `chartSvg` reads: the timeline's, the distribution's or the herd's. */\n\
         export type ChartParams = DrawnScheduleParams | GiveUpParams | HerdParams;\n",
    );
    text
}

#[test]
fn the_typescript_declarations_are_generated_from_the_rust_types() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/wasm/types.d.ts");
    let generated = declarations();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(path, &generated).unwrap();
    }
    let written = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        written == generated,
        "src/wasm/types.d.ts is not what the Rust types say: run `BLESS=1 cargo test --lib api_types`"
    );
}
