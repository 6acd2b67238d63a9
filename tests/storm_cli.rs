//! `backoff-lab storm` as a user runs it: the model's numbers worked by hand, one contract for
//! every engine, and refusals before any work starts.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{json, refused, run, stderr, stdout};

fn storm(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["storm", "--format", "json"];
    all.extend_from_slice(args);
    json(&all)
}

/// A batch of 1000 at second 2 against 30/s of capacity, a 5 s timeout, 50 ms latency, the
/// fixed 30 s interval and 3 attempts (one more delivery arrives at second 0, in the outage).
const BATCH: &[&str] = &[
    "--traffic",
    "1s",
    "--arrivals",
    "1/s",
    "--outage",
    "1s",
    "--batch",
    "1000",
    "--batch-at",
    "2s",
    "--attempts",
    "3",
];

#[test]
fn duplicates_of_a_batch_match_the_hand_calculation_in_both_engines() {
    // Second 2: 1000 attempts, empty queue. Position j waits j/30 s and succeeds while
    // j/30 + 0.05 <= 5, so j <= 148.5: 149 succeed, 851 time out but are processed later (their
    // first processing: no duplicate). Queue 1000 - 30 = 970, empty again by second 35.
    // Second 37 (2 + 5 s timeout + 30 s gap): the 851 again; 149 succeed and 702 are late, all
    // already processed once: 851 duplicates. Second 72: the 702 make their last attempt; 149
    // succeed and 553 are late (702 duplicates) and exhausted. The delivery of second 0 fails
    // in the outage, retries at second 35 and succeeds.
    for engine in ["discrete", "fluid"] {
        let mut args = BATCH.to_vec();
        args.extend_from_slice(&["--engine", engine]);
        let summary = &storm(&args)["summary"];
        assert_eq!(summary["duplicates"], 851 + 702, "{engine}");
        assert_eq!(summary["delivered"], 149 * 3 + 1, "{engine}");
        assert_eq!(summary["exhausted"], 553, "{engine}");
        assert_eq!(summary["arrivals"], 1001, "{engine}");
        assert_eq!(summary["drained_at_s"], 72, "{engine}");
        assert_eq!(summary["drained_by"], "exhaustion", "{engine}");
        // A batch alone has no minute of normal traffic to compare the peak with.
        assert!(summary["peak_multiple"].is_null(), "{engine}");
        assert_eq!(summary["peak_attempts_per_min"], 1000 + 1 + 851 + 1);
        let capacity_minute = 30.0 * 60.0;
        assert_eq!(summary["peak_vs_capacity"], 1853.0 / capacity_minute);
    }
}

#[test]
fn a_wait_exactly_at_the_timeout_succeeds_whatever_floating_point_says() {
    // 4 deliveries a second for 3 s against 3.6/s, a 1 s timeout and 500 ms latency: position j
    // succeeds while (queue + j) / 3.6 + 0.5 <= 1, i.e. queue + j <= 1.8.
    // Second 0: queue 0, j = 0, 1 succeed (2 of 4), queue 4 - 3.6 = 0.4.
    // Second 1: j <= 1.4: 2 succeed, queue 0.8.
    // Second 2: j <= 1.0: j = 1 waits exactly 0.5 s and succeeds (in floating point
    // 1.8 - 0.8 = 0.9999999999999998 would fail it): 2 succeed.
    let summary = &storm(&[
        "--arrivals",
        "4/s",
        "--traffic",
        "3s",
        "--capacity",
        "3.6/s",
        "--timeout",
        "1s",
        "--latency",
        "500ms",
        "--outage",
        "0s",
        "--attempts",
        "1",
    ])["summary"];
    assert_eq!(summary["delivered"], 6);
    assert_eq!(summary["exhausted"], 6);
}

#[test]
fn every_engine_returns_minutes_and_summary_and_the_arithmetic_one_says_what_it_leaves_out() {
    let view = storm(&["--engine", "arithmetic"]);
    let minutes = view["minutes"].as_array().unwrap();
    let pick = |minute: usize| {
        let row = &minutes[minute - 1];
        (
            row["backlog_entering"].as_f64().unwrap(),
            row["attempts"].as_f64().unwrap(),
        )
    };
    // The article's table: 600 new a minute, each backlogged delivery retrying twice a minute.
    assert_eq!(pick(1), (0.0, 600.0));
    assert_eq!(pick(2), (600.0, 1_800.0));
    assert_eq!(pick(5), (2_400.0, 5_400.0));
    assert_eq!(pick(10), (5_400.0, 11_400.0));
    assert_eq!(pick(11), (6_000.0, 12_600.0));
    assert_eq!(minutes[9]["multiple"], 19);
    assert!(minutes[0]["successes"].is_null() && minutes[0]["duplicates"].is_null());
    let summary = &view["summary"];
    assert_eq!(summary["peak_attempts_per_min"], 12_600);
    assert_eq!(summary["peak_multiple"], 21);
    // Retried until the fix: an interval too short to reach the fixed policy's 2 h give-up
    // within 10,000 attempts is no reason to refuse the view (it read "at least 720 ms").
    let fast = storm(&["--engine", "arithmetic", "--interval", "0.5s"]);
    assert_eq!(fast["minutes"][1]["attempts"], 600 + 600 * 120);
    for unmodelled in ["delivered", "exhausted", "duplicates", "drained_at_s"] {
        assert!(summary[unmodelled].is_null(), "{unmodelled}");
    }
    for engine in ["discrete", "fluid"] {
        let report = storm(&["--traffic", "20m", "--engine", engine]);
        assert!(report["minutes"].is_array() && report["summary"].is_object());
        assert_eq!(report["engine"], engine);
    }
}

#[test]
fn counts_are_whole_numbers_in_json_and_expected_values_carry_no_float_noise() {
    let output = run(&["storm", "--format", "json", "--traffic", "20m"]);
    let text = stdout(&output);
    assert!(text.contains("\"delivered\": 149,"), "{text}");
    // The report after the scenario simulated (whose rates and durations are numbers).
    let report = &text[text.find("\"engine\"").unwrap()..];
    assert!(!report.contains(".0,"), "whole counts print as integers");
    // A batch of a million on expected values: exactly a million arrivals.
    let summary = &storm(&[
        "--engine",
        "fluid",
        "--traffic",
        "0s",
        "--batch",
        "1000000",
        "--policy",
        "exponential",
        "--mode",
        "full",
        "--attempts",
        "14",
    ])["summary"];
    assert_eq!(summary["arrivals"], 1_000_000);
    let delivered = summary["delivered"].as_f64().unwrap();
    assert_eq!(
        delivered,
        (delivered * 1e3).round() / 1e3,
        "thousandths at most"
    );
}

#[test]
fn pausing_paces_the_release_and_beats_no_bound() {
    let policy = [
        "--policy",
        "exponential",
        "--base",
        "30s",
        "--multiplier",
        "3",
        "--cap",
        "3h",
    ];
    for engine in ["discrete", "fluid"] {
        let mut args = policy.to_vec();
        args.extend_from_slice(&["--engine", engine]);
        let unbounded = storm(&args)["summary"].clone();
        args.push("--pause");
        let paused = storm(&args);
        let summary = &paused["summary"];
        // Held through the outage, then sent at the default pace (30 a second: what the
        // destination answers in time from an empty queue): no timeouts, no duplicates, and the
        // backlog of 6000 drains at 30 - 10 = 20 a second, in 300 s.
        assert_eq!(summary["exhausted"], 0, "{engine}");
        assert_eq!(summary["duplicates"], 0, "{engine}");
        assert_eq!(summary["drained_at_s"], 600 + 299, "{engine}");
        let minutes = paused["minutes"].as_array().unwrap();
        assert!(minutes[10..]
            .iter()
            .all(|m| m["attempts"].as_f64().unwrap() <= 30.0 * 60.0));
        assert!(minutes[10..].iter().all(|m| m["failures"] == 0));
        assert!(
            unbounded["duplicates"].as_f64().unwrap() > 100_000.0,
            "{engine}"
        );
        assert!(
            unbounded["drained_at_s"].as_f64().unwrap()
                > 10.0 * summary["drained_at_s"].as_f64().unwrap(),
            "{engine}"
        );
    }
    // A resume rate faster than the destination brings the storm back.
    let fast = storm(&[
        "--policy",
        "exponential",
        "--base",
        "30s",
        "--multiplier",
        "3",
        "--cap",
        "3h",
        "--pause",
        "--resume-rate",
        "100/s",
    ]);
    assert!(fast["summary"]["duplicates"].as_f64().unwrap() > 0.0);
}

#[test]
fn work_and_memory_beyond_the_limits_are_refused_before_they_start() {
    refused(
        &["storm", "--traffic", "7d"],
        "error: --traffic must be at most 1,000,000,000 attempts at worst for the discrete engine",
    );
    refused(
        &["storm", "--arrivals", "1e6/s", "--traffic", "10s"],
        "error: --traffic must be at most 1,000,000,000 attempts at worst for the discrete engine",
    );
    // The arrival rate alone given: the refusal names it, not the traffic's untouched length.
    refused(
        &["storm", "--arrivals", "1000/s"],
        "error: --arrivals must be at most 1,000,000,000 attempts at worst for the discrete engine",
    );
    refused(
        &[
            "storm",
            "--arrivals",
            "1e6/s",
            "--traffic",
            "10s",
            "--outage",
            "6d",
            "--interval",
            "1s",
            "--attempts",
            "10000",
        ],
        // Too long a schedule for the fluid engine's class-seconds: fewer attempts let it run.
        "error: --attempts must be at most 952 for this storm on the fluid or auto engine",
    );
    refused(
        &[
            "storm",
            "--engine",
            "fluid",
            "--traffic",
            "7d",
            "--outage",
            "6d",
            "--interval",
            "1s",
            "--attempts",
            "10000",
        ],
        // Too long a schedule for the fluid engine: its attempts are named, with the most it runs.
        "error: --attempts must be at most 826 for this storm on the fluid engine: the fluid \
         engine takes at most 500,000,000 class-seconds",
    );
    // The fluid engine takes the week-long storm the discrete one refuses.
    let week = storm(&["--engine", "fluid", "--traffic", "7d"]);
    assert_eq!(week["summary"]["arrivals"], 6_048_000);
}

#[test]
fn inputs_an_engine_cannot_use_are_refused_by_name() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["--engine", "arithmetic", "--arrivals", "0"],
            "error: --arrivals must be a rate from 0.000001 to 1000000 per second, got 0",
        ),
        (
            &["--engine", "arithmetic", "--arrivals=-5/s"],
            "error: --arrivals must be a rate from 0.000001",
        ),
        // Retries a minute are 60 s over the interval: infinite and NaN for 5e-324 s.
        (
            &["--engine", "arithmetic", "--interval", "5e-324"],
            "error: --interval must be a duration from 1 µs to 365 days, got 4.9e-324 s",
        ),
        (
            &["--engine", "arithmetic", "--budget", "10%"],
            "error: --budget must be left out: the arithmetic view models only arrivals",
        ),
        (
            &["--engine", "arithmetic", "--pause"],
            "error: --pause must be left out",
        ),
        // Named as typed, not as the exponential policy a backoff flag makes.
        (
            &["--engine", "arithmetic", "--base", "1m"],
            "error: --base must be left out: the arithmetic view models only arrivals",
        ),
        (
            &["--engine", "arithmetic", "--budget-window", "30s"],
            "error: --budget-window must be left out: the arithmetic view",
        ),
        // The table's minutes: a 30 s outage counted a whole minute's backlog (600, not 300).
        (
            &["--engine", "arithmetic", "--outage", "30s"],
            "error: --outage must be whole minutes for the arithmetic engine (the article's table counts minutes), got 30 s",
        ),
        (
            &["--engine", "arithmetic", "--outage", "121s"],
            "error: --outage must be whole minutes for the arithmetic engine (the article's table counts minutes), got 2 min 1 s",
        ),
        (
            &["--engine", "arithmetic", "--capacity", "40/s"],
            "error: --capacity must be left out",
        ),
        (
            &["--engine", "arithmetic", "--batch", "10"],
            "error: --batch must be left out",
        ),
        (
            &["--latency", "10s"],
            "error: --latency must be a duration from 0 s to less than the timeout (5 s)",
        ),
        (
            &["--latency", "5s"],
            "error: --latency must be a duration from 0 s to less than the timeout (5 s)",
        ),
        (
            &["--per-second"],
            "error: --per-second must be given only with --format csv",
        ),
        (
            &["--budget", "10%", "--budget-window", "8d"],
            "error: --budget-window must be a whole number of seconds from 1 s to 1 h, got 8 days",
        ),
        (
            &["--capacity", "0"],
            "error: --capacity must be a rate from 0.000001 to 10000000 per second, got 0",
        ),
        (
            &["--arrivals", "lots"],
            "error: --arrivals must be a rate such as 600/min",
        ),
        (
            &["--budget", "150%"],
            "error: --budget must be 0% or a percentage from 0.00005% to 100% (it runs in whole parts per million), got 150%",
        ),
        (
            &["--outage", "8d"],
            "error: --outage must be 0 s or from 0.5 s to 6 days 23 h 59 min 59 s",
        ),
        (
            &["--arrivals", "1000/s", "--traffic", "7d"],
            "error: --arrivals must be a rate that brings at most 10000000 deliveries over the storm's 7 days of traffic (up to about 992/min), got 1000/s",
        ),
        (
            &["--batch", "20000000"],
            "error: --batch must be a whole number from 1 to 10000000",
        ),
        // The rule a flag needs is named as a flag too (it read "only with budget").
        (
            &["--budget-window", "10s"],
            "error: --budget-window must be given only with --budget, got \"10s\"",
        ),
        (
            &["--breaker-cooldown", "10s"],
            "error: --breaker-cooldown must be given only with --breaker-failures or --breaker-share",
        ),
        // A fixed interval too short for its 2 h of retrying names the interval and the
        // shortest that fits (it spoke of a base and a cap the fixed policy refuses).
        (
            &["--interval", "0.5s"],
            "error: --interval must be at least 720 ms to retry for 2 h within 10000 attempts (or stop after a number of attempts, or sooner), got 500 ms",
        ),
        (
            &["--policy", "exponential", "--base", "1s", "--multiplier", "1", "--cap", "1s"],
            "error: --give-up must be at most 2 h 46 min 39 s, what 10000 attempts reach with a 1 s base, ×1 and a 1 s cap (or a longer cap with a longer base or a larger multiplier), got 24 h (the storm's default)",
        ),
        (&["--policy", "linear"], "error: --policy must be fixed or exponential"),
        (
            &["--engine", "quantum"],
            "error: --engine must be one of auto, arithmetic, discrete, fluid",
        ),
        (
            &["--policy", "exponential", "--mode", "decorrelated", "--engine", "fluid"],
            "error: --engine must be discrete here: the fluid engine needs gaps that depend only on the attempt number",
        ),
        (
            &["--capacity", "3.6/s", "--timeout", "1s", "--latency", "500ms", "--engine", "fluid"],
            "error: --engine must be discrete here: the fluid engine needs capacity × (timeout − latency",
        ),
        (
            &["--resume-rate", "0/s", "--pause"],
            "error: --resume-rate must be a rate from 0.000001",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["storm"];
        all.extend_from_slice(args);
        refused(&all, expected);
    }
    // Markdown is not a storm format; clap names the ones there are.
    let output = run(&["storm", "--format", "markdown"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("[possible values: table, csv, json]"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn the_fixed_default_tells_the_story_and_csv_goes_per_second() {
    let table = stdout(&run(&["storm", "--traffic", "20m", "--engine", "fluid"]));
    assert!(table.contains("never drains"), "{table}");
    let csv = stdout(&run(&[
        "storm",
        "--traffic",
        "20m",
        "--engine",
        "fluid",
        "--format",
        "csv",
        "--per-second",
    ]));
    assert!(csv.starts_with("second,attempts,first_attempts,retries"));
    assert!(csv.lines().count() > 1_200);
}

#[test]
fn json_has_minutes_and_summary_and_repeats_for_a_seed() {
    let args = [
        "--policy",
        "exponential",
        "--mode",
        "full",
        "--seed",
        "42",
        "--traffic",
        "30m",
        "--budget",
        "10%",
    ];
    let report = storm(&args);
    let minute = &report["minutes"][0];
    for key in [
        "minute",
        "attempts",
        "first_attempts",
        "retries",
        "successes",
        "duplicates",
        "backlog",
        "exhausted",
    ] {
        assert!(minute[key].is_number(), "{key}");
    }
    assert_eq!(minute["minute"], 1);
    let summary = &report["summary"];
    assert_eq!(summary["arrivals"], 18_000);
    assert_eq!(summary["delivered"], 18_000);
    assert_eq!(summary["drained_by"], "delivery");
    assert!(summary["peak_multiple"].as_f64().unwrap() <= 1.2);
    assert_eq!(storm(&args), report, "the same seed gives the same storm");
}

#[test]
fn auto_takes_the_fluid_engine_where_it_applies_and_says_why_when_it_does_not() {
    let fluid = storm(&["--engine", "auto", "--traffic", "20m"]);
    assert_eq!(fluid["engine"], "fluid");
    let decorrelated = storm(&[
        "--engine",
        "auto",
        "--traffic",
        "20m",
        "--policy",
        "exponential",
        "--mode",
        "decorrelated",
    ]);
    assert_eq!(decorrelated["engine"], "discrete");
    let caption = decorrelated["caption"].as_str().unwrap();
    assert!(
        caption.ends_with(
            "Simulated delivery by delivery (seed 42) because the fluid engine needs gaps that depend only on the attempt number, and decorrelated jitter draws each from the one before."
        ),
        "{caption}"
    );
    let small = storm(&[
        "--engine",
        "auto",
        "--capacity",
        "3.6/s",
        "--arrivals",
        "2/s",
    ]);
    assert_eq!(small["engine"], "discrete");
}

/// The caption says why the backlog ended: deliveries that ran out during the outage are not
/// a backlog cleared by exhaustion after it (an outside review found "never drains by
/// delivery" for a backlog delivered 34 s after recovery).
#[test]
fn the_caption_tells_exhaustion_during_the_outage_from_after_it() {
    let caption = |args: &[&str]| {
        let json = json(&[&["storm", "--engine", "fluid"], args, &["--format", "json"]].concat());
        let text = stdout(&run(&[&["storm", "--engine", "fluid"], args].concat()));
        (json, text.lines().next().unwrap_or_default().to_string())
    };
    let (summary, text) = caption(&["--capacity", "1000/s", "--outage", "3.5h"]);
    assert_eq!(summary["summary"]["drained_by"], "delivery");
    assert!(
        text.contains("Most deliveries run out of attempts during the outage (58% end exhausted); what is left at recovery drains within a minute."),
        "{text}"
    );
    let (_, text) = caption(&["--outage", "5h"]);
    assert!(
        text.contains("Every delivery runs out of attempts during the outage"),
        "{text}"
    );
    let (summary, text) = caption(&[]);
    assert_eq!(summary["summary"]["drained_by"], "exhaustion");
    assert!(
        text.contains("never drains by delivery: goodput collapses, and the backlog is gone"),
        "{text}"
    );
}

/// The drain threshold's 0.1% is of the deliveries created since the outage began: a day of
/// traffic before a one-minute outage made its whole backlog "drained" at recovery, before a
/// single retry, in both engines, with 600 deliveries still pending at the end (outside SRE
/// review). Held by a budget of 0, that backlog stays until the traffic after recovery makes
/// it 0.1% of what arrived since: 600 in 600,000 arrivals, 16 h 40 min at 10/s.
#[test]
fn a_backlog_is_drained_against_the_deliveries_since_the_outage_began() {
    for engine in ["fluid", "discrete"] {
        let report = storm(&[
            "--outage-start",
            "1d",
            "--traffic",
            "2d",
            "--outage",
            "1m",
            "--budget",
            "0",
            "--budget-floor",
            "0",
            "--engine",
            engine,
        ]);
        let summary = &report["summary"];
        let end = summary["outage_end_s"].as_u64().unwrap();
        assert_eq!(end, 86_460, "{engine}");
        assert_eq!(summary["pending"].as_f64(), Some(600.0), "{engine}");
        // Backlog 600 (plus this second's arrivals, delivered within it) under 0.1% of
        // 600 + 10 × t arrivals since the outage began: t = 59,940 s after recovery.
        let drained = summary["drained_at_s"].as_u64().unwrap();
        assert!(
            (end + 59_900..=end + 60_000).contains(&drained),
            "{engine}: {drained}"
        );
    }
}

/// A trickle under one delivery a minute has no normal minute to compare its peak with: one
/// attempt read "16,667× normal traffic" (outside SRE review); it is compared with the
/// destination's capacity instead.
#[test]
fn a_trickles_peak_is_not_a_multiple_of_normal_traffic() {
    for engine in ["fluid", "discrete"] {
        let report = storm(&[
            "--arrivals",
            "0.000001/s",
            "--traffic",
            "7d",
            "--outage",
            "0",
            "--engine",
            engine,
        ]);
        assert!(report["summary"]["peak_multiple"].is_null(), "{engine}");
        let one = storm(&["--arrivals", "1/min", "--outage", "0", "--engine", engine]);
        assert_eq!(
            one["summary"]["peak_multiple"].as_f64(),
            Some(1.0),
            "{engine}"
        );
    }
    let caption = crate::common::stdout(&crate::common::run(&[
        "storm",
        "--arrivals",
        "0.000001/s",
        "--traffic",
        "7d",
        "--outage",
        "0",
    ]));
    assert!(
        caption.contains(
            "attempts peak at 1 in minute 8,334, under 0.001× the destination's capacity."
        ) && !caption.contains("normal traffic"),
        "{caption}"
    );
}
