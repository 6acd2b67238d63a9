//! The JS API: schedule, jitter, herd, storm, arithmetic view, charts.

use crate::prelude::*;

pub(crate) const POLICY_FOCUS: &[&str] = &["attempts", "giveUp", "window", "gaps", "thenEvery"];
pub(crate) const JITTER_FOCUS: &[&str] = &[
    "attempts",
    "giveUp",
    "mode",
    "factor",
    "seed",
    "samples",
    "deliveries",
    "deadline",
    "percentile",
    "gaps",
];
/// What the arithmetic view models (any other storm field is refused by name).
pub(crate) const ARITHMETIC_FOCUS: &[&str] = &[
    "arrivals", "outage", "interval", "policy", "engine", "giveUp",
];
pub(crate) const STORM_FOCUS: &[&str] = &[
    "attempts",
    "giveUp",
    "arrivals",
    "traffic",
    "batch",
    "batchAt",
    "capacity",
    "latency",
    "timeout",
    "outage",
    "outageStart",
    "policy",
    "interval",
    "budget",
    "budgetWindow",
    "budgetFloor",
    "rateLimit",
    "pause",
    "resumeRate",
    "retryAfter",
    "retryAfterThreshold",
    "abandon",
    "retryQuota",
    "retryQuotaTokens",
    "retryQuotaRatio",
    "breakerFailures",
    "breakerShare",
    "breakerWindow",
    "breakerMinAttempts",
    "breakerCooldown",
    "breakerProbes",
    "engine",
    "mode",
];

/// `schedule`, `exportSchedule` and `chartSvg("timeline")` (with a comparison, or not).
pub(crate) fn schedule_case(
    params: &Params,
    options: ChartOptions,
    size: (u32, u32),
    compare: bool,
) -> Result<(), TestCaseError> {
    let result = params.policy().map(|p| p.schedule()).and_then(|schedule| {
        let report = ScheduleReport::new(&schedule, params.window_s()?);
        Ok((schedule, report))
    });
    tally("schedule", &outcome(&result));
    match &result {
        Err(error) => check_error("schedule", error),
        Ok((schedule, report)) => {
            check_numbers("schedule", report)?;
            let _ = (report.to_csv(), report.to_markdown(), report.to_table());
            let other = backoff_lab::Policy::article().schedule();
            svg("timeline", size, options, |area, options| {
                if compare {
                    chart::timeline::draw_compared(
                        area,
                        (schedule, "your policy"),
                        (&other, "compared"),
                        options,
                    )
                } else {
                    chart::timeline::draw(area, schedule, options)
                }
            })
        }
    }
}

/// `arithmeticView`.
pub(crate) fn arithmetic_case(params: &Params) -> Result<(), TestCaseError> {
    let view = params
        .arithmetic_scenario()
        .and_then(|scenario| backoff_lab::storm::arithmetic_view(&scenario));
    tally("arithmetic", &outcome(&view));
    check("arithmetic view", &view)?;
    if let Ok(view) = &view {
        let _ = (view.to_table(), view.to_csv());
    }
    Ok(())
}

/// `jitter`, `drawDistribution` and `chartSvg("distribution")`.
pub(crate) fn jitter_case(
    params: &Params,
    options: ChartOptions,
    size: (u32, u32),
) -> Result<(), TestCaseError> {
    let report = page::jitter_report(params);
    tally("jitter", &outcome(&report));
    check("jitter", &report)?;
    if let Ok(report) = &report {
        let _ = (report.to_table(), report.to_csv());
        svg("distribution", size, options, |area, options| {
            chart::distribution::draw(area, report, options)
        })?;
    }
    Ok(())
}

/// `herd`, `drawHerd`'s summary and `chartSvg("herd")`.
pub(crate) fn herd_case(
    params: &Params,
    options: ChartOptions,
    size: (u32, u32),
) -> Result<(), TestCaseError> {
    let herds = page::herds(params);
    tally("herd", &outcome(&herds));
    check("herd", &herds)?;
    if let Ok((spread, spike)) = &herds {
        // Bounded bins whatever the schedule (`herd_first_retry_bins_grow_with_the_first_gap`).
        for herd in [spread, spike] {
            prop_assert!(
                herd.first_retry_per_second.len() <= backoff_lab::herd::MAX_FIRST_RETRY_BINS
                    && herd.per_second.len() <= backoff_lab::herd::MAX_BINS,
                "herd: {} first-retry bins, {} bins",
                herd.first_retry_per_second.len(),
                herd.per_second.len()
            );
        }
        let _ = (
            spread.caption(Some(spike)),
            spread.to_table(Some(spike)),
            spread.to_csv(),
        );
        svg("herd", size, options, |area, options| {
            chart::herd::draw(area, spread, Some(spike), options)
        })?;
    }
    Ok(())
}

/// `storm`, `drawStorm`, `stormSvg`.
pub(crate) fn storm_case(
    params: &Params,
    options: ChartOptions,
    size: (u32, u32),
) -> Result<(), TestCaseError> {
    let run = params.scenario().and_then(|scenario| {
        let report = backoff_lab::storm::simulate(&scenario, params.engine()?, false)?;
        Ok((scenario, report))
    });
    tally("storm", &outcome(&run));
    match &run {
        Err(error) => check_error("storm", error),
        Ok((scenario, report)) => {
            check_numbers("storm", report)?;
            let _ = (report.to_table(), report.to_csv());
            let series = [chart::storm::Series {
                label: "yours".into(),
                scenario,
                report,
            }];
            svg("storm", size, options, |area, options| {
                chart::storm::draw(area, &series, options)
            })
        }
    }
}

/// Inputs within the limits by design that still take seconds (the limits allow up to about
/// 10 s of work natively), skipped so that the suite stays quick. Not findings: a region found
/// slow beyond what the limits allow gets an `#[ignore]`d test at the end of this file instead.
pub(crate) fn known_slow(what: &str, params: &Params) -> Option<&'static str> {
    let Ok(policy) = params.policy() else {
        return None;
    };
    let retries = f64::from(policy.attempts().saturating_sub(1).max(1));
    let mode = params.mode.as_deref().unwrap_or("none");
    match what {
        "jitter" | "herd" => {
            let count = if what == "jitter" {
                params.samples.unwrap_or(1e6)
            } else {
                params.deliveries.unwrap_or(1e3)
            };
            if mode == "decorrelated" && retries >= 100.0 {
                // Within the limits (`decorrelated_draws_count_what_they_cost`), seconds.
                Some("decorrelated, long schedule")
            } else if count.is_finite() && count * retries > 2e8 && count * retries <= 2e9 {
                // Within the limits by design (2e9 draws, seconds natively): not a finding.
                Some("many draws within the limits")
            } else {
                None
            }
        }
        // Within the limits by design (seconds natively): not a finding.
        "staleness api" if mode != "none" && params.samples.unwrap_or(2e4) * retries > 2e6 => {
            Some("jittered staleness of a long schedule")
        }
        "staleness" if mode != "none" && retries > 100.0 => {
            Some("jittered staleness of a long schedule")
        }
        _ => None,
    }
}

/// Runs `case` on the parameters read from `object`: guarded against known panics, timed.
pub(crate) fn api_case(
    what: &str,
    object: &Map<String, Value>,
    poison: Option<(usize, f64)>,
    case: impl FnOnce(&Params) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    let Some(params) = read_params(object, poison)? else {
        tally(what, "not-deserialized");
        return Ok(());
    };
    if let Some(why) = known_slow(what, &params) {
        tally(what, &format!("skipped ({why})"));
        return Ok(());
    }
    guarded(what, KNOWN_PANICS, || {
        timed(what, &params, || case(&params))
    })?;
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn schedule_of_any_json(
        object in params_object(POLICY_FOCUS, 0.05),
        poison in poison(),
        options in chart_options(),
        size in svg_size(),
        compare in any::<bool>(),
    ) {
        api_case("schedule", &object, poison, |p| schedule_case(p, options, size, compare))?;
    }

    #[test]
    fn arithmetic_view_of_any_json(object in params_object(ARITHMETIC_FOCUS, 0.005), poison in poison()) {
        api_case("arithmetic", &object, poison, arithmetic_case)?;
    }
}

proptest! {
    #![proptest_config(config(160))]

    #[test]
    fn jitter_of_any_json(
        object in params_object(JITTER_FOCUS, 0.05),
        poison in poison(),
        options in chart_options(),
        size in svg_size(),
    ) {
        api_case("jitter", &object, poison, |p| jitter_case(p, options, size))?;
    }

    #[test]
    fn herd_of_any_json(
        object in params_object(JITTER_FOCUS, 0.05),
        poison in poison(),
        options in chart_options(),
        size in svg_size(),
    ) {
        api_case("herd", &object, poison, |p| herd_case(p, options, size))?;
    }

    #[test]
    fn storm_of_any_json(
        object in params_object(STORM_FOCUS, 0.05),
        poison in poison(),
        options in chart_options(),
        size in svg_size(),
    ) {
        api_case("storm", &object, poison, |p| storm_case(p, options, size))?;
    }
}
