//! Staleness: questions and reports from arbitrary parameters.

use crate::api::api_case;
use crate::page::PRESETS;
use crate::prelude::*;

pub(crate) fn duration_number() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => prop::sample::select(SPECIAL_NUMBERS),
        4 => 1.0f64..100_000.0,
        1 => prop::sample::select(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY][..]),
        3 => 0.0f64..1e6,
        1 => 0.0f64..31_536_000.0,
    ]
}

/// `Question::new`, `with_tolerance`, `with_samples`, `outage`, the derived lengths and
/// `StalenessReport::ladder` (with its caption, table, CSV, Markdown and suggestion).
pub(crate) fn staleness_case(
    params: &Params,
    tolerance: Option<f64>,
    samples: Option<usize>,
    outage: f64,
    max_lag: Option<f64>,
) -> Result<(), TestCaseError> {
    let question = params.policy().and_then(|policy| {
        let seed = params.seed()?.unwrap_or(0);
        let mut question = Question::new(&policy, params.jitter()?, seed)?;
        if let Some(t) = tolerance {
            question = question.with_tolerance(t)?;
        }
        if let Some(n) = samples {
            question = question.with_samples(n)?;
        }
        Ok(question)
    });
    let question = match question {
        Err(error) => {
            tally("staleness", &outcome::<(), _>(&Err(error.clone())));
            return check_error("staleness question", &error);
        }
        Ok(question) => question,
    };
    let answer = question.outage(outage);
    check("staleness outage", &answer)?;
    check(
        "longest delivered outage",
        &question.longest_delivered_outage_s(),
    )?;
    check("all fresh up to", &question.all_fresh_up_to_s())?;
    check_numbers("max recovery lag", &question.max_recovery_lag_s())?;
    let report = StalenessReport::ladder(&question, max_lag);
    tally("staleness", &outcome(&report));
    check("staleness report", &report)?;
    if let Ok(report) = &report {
        let _ = (
            report.caption(),
            report.to_table(),
            report.to_csv(),
            report.to_markdown(),
        );
        if let Some(suggestion) = &report.suggestion {
            match suggestion.policy() {
                Ok(policy) => check_numbers(
                    "suggested schedule",
                    &ScheduleReport::new(&policy.schedule(), 1_200.0),
                )?,
                Err(error) => check_error("suggested policy", &error)?,
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn staleness_of_any_json(
        object in params_object(&["attempts", "giveUp", "gaps", "thenEvery", "mode", "factor", "seed"], 0.05),
        poison in poison(),
        tolerance in prop::option::weighted(0.6, duration_number()),
        samples in prop::option::weighted(0.3, prop::sample::select(&[0usize, 1, 2, 17, 500, 2_000, 100_001, usize::MAX][..])),
        outage in duration_number(),
        max_lag in prop::option::weighted(0.5, duration_number()),
    ) {
        api_case("staleness", &object, poison, |p| {
            staleness_case(p, tolerance, samples, outage, max_lag)
        })?;
    }
}

/// The JS API's `staleness` and `drawStaleness` (with a compared preset, or not).
pub(crate) fn staleness_api_case(
    params: &Params,
    compare: Option<&str>,
    options: ChartOptions,
    size: (u32, u32),
) -> Result<(), TestCaseError> {
    let report = params.staleness_report();
    tally("staleness api", &outcome(&report));
    check("staleness api", &report)?;
    if let Ok(report) = &report {
        let _ = (
            report.caption(),
            report.to_table(),
            report.to_csv(),
            report.to_markdown(),
        );
    }
    let compared = compare.and_then(|name| backoff_lab::presets::preset(name).ok());
    let chart = page::staleness_chart_of(params, compared.as_ref());
    check("staleness chart", &chart)?;
    if let Ok(chart) = &chart {
        svg("staleness", size, options, |area, options| {
            chart::staleness::draw(area, chart, options)
        })?;
    }
    Ok(())
}

pub(crate) const STALENESS_FOCUS: &[&str] = &[
    "attempts",
    "giveUp",
    "gaps",
    "thenEvery",
    "mode",
    "factor",
    "seed",
    "samples",
    "tolerance",
    "maxLag",
    "outage",
];

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn staleness_api_of_any_json(
        object in params_object(STALENESS_FOCUS, 0.03),
        poison in poison(),
        compare in prop::option::weighted(0.3, prop::sample::select(PRESETS)),
        options in chart_options(),
        size in svg_size(),
    ) {
        api_case("staleness api", &object, poison, |p| staleness_api_case(p, compare, options, size))?;
    }
}
