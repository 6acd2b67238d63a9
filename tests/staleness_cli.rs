//! `backoff-lab staleness` and `figure staleness` as a user runs them: the article's schedule
//! worked by hand, the four formats carrying the same numbers, the suggestion, and refusals.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{json, refused, run, stderr, stdout};

/// The article's schedule: a 30 s base, ×3, a 3 h cap, 14 attempts. Its attempts land at
/// 0, 30 s, 120 s, 390 s, 1200 s, 3630 s, 10920 s, then every 3 h until 86520 s (24 h 02 min).
const ARTICLE: &[&str] = &["--preset", "article"];

fn staleness(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["staleness", "--format", "json"];
    all.extend_from_slice(ARTICLE);
    all.extend_from_slice(args);
    json(&all)
}

fn first_event(outage: &str) -> serde_json::Value {
    staleness(&["--outage", outage])["outages"][0]["first_event"].clone()
}

#[test]
fn the_first_event_of_an_outage_is_delivered_by_the_first_attempt_at_or_after_recovery() {
    // 4 h = 14400 s: attempt 7 (10920 s) is in the outage, attempt 8 lands at 21720 s.
    let four_hours = first_event("4h");
    assert_eq!(four_hours["outcome"], "delivered");
    assert_eq!(four_hours["attempt"], 8);
    assert_eq!(four_hours["lag_s"], 21720.0 - 14400.0);
    assert_eq!(four_hours["age_s"], 21720.0);
    // 10 min = 600 s: attempt 5 at 1200 s.
    let ten_minutes = first_event("10m");
    assert_eq!(
        (ten_minutes["attempt"].clone(), ten_minutes["lag_s"].clone()),
        (5.into(), 600.0.into())
    );
    // An attempt exactly at recovery delivers: 3630 s is attempt 6, no lag.
    let on_the_dot = first_event("3630s");
    assert_eq!(
        (on_the_dot["attempt"].clone(), on_the_dot["lag_s"].clone()),
        (6.into(), 0.0.into())
    );
}

#[test]
fn outages_longer_than_the_give_up_time_exhaust_their_earliest_events() {
    let report = staleness(&["--outage", "48h"]);
    assert_eq!(report["give_up_s"], 86520.0);
    assert_eq!(report["longest_delivered_outage_s"], 86520.0);
    assert_eq!(report["method"], "exact");
    let outage = &report["outages"][0];
    assert_eq!(outage["first_event"]["outcome"], "exhausted");
    assert!(outage["first_event"]["lag_s"].is_null());
    // An event failing at t of the 172800 s outage is delivered when t + 86520 ≥ 172800.
    let all = &outage["all_events"];
    let delivered = 86520.0 / 172800.0;
    assert!((all["delivered_share"].as_f64().unwrap() - delivered).abs() < 1e-12);
    assert!((all["exhausted_share"].as_f64().unwrap() - (1.0 - delivered)).abs() < 1e-12);
    // The last retry waits a whole cap: no event arrives more than 3 h after recovery.
    assert_eq!(all["lag_max_s"], 10800.0);
}

#[test]
fn a_tolerance_splits_the_delivered_events_into_fresh_and_stale() {
    // 4 h outage, 6 h tolerance: an event failing at t is delivered by the first attempt at or
    // after 14400 − t. Events from t ≥ 14400 − 10920 = 3480 s go at t + 10920 (age 10920 s,
    // fresh); earlier ones at t + 21720 (age 21720 s > 21600, stale). Fresh: 10920 / 14400.
    let report = staleness(&["--outage", "4h", "--tolerance", "6h"]);
    assert_eq!(report["tolerance_s"], 21600.0);
    // Attempt 7 (10920 s) is the last within 6 h.
    assert_eq!(report["all_fresh_up_to_s"], 10920.0);
    let all = &report["outages"][0]["all_events"];
    let fresh = all["fresh_share"].as_f64().unwrap();
    let stale = all["stale_share"].as_f64().unwrap();
    assert!((fresh - 10920.0 / 14400.0).abs() < 1e-12, "{fresh}");
    assert!((stale - 3480.0 / 14400.0).abs() < 1e-12, "{stale}");
}

#[test]
fn the_suggestion_ends_at_the_tolerance_with_a_cap_within_the_allowed_lag() {
    // Keep the 30 s base and ×3: gaps 30, 90, 270, 810 and 2430 s reach 3630 s; the rest of
    // the 6 h (17970 s) in gaps no longer than the allowed hour: 5 of 3594 s. 11 attempts.
    let suggestion = staleness(&["--tolerance", "6h", "--max-lag", "1h"])["suggestion"].clone();
    assert_eq!(suggestion["base_s"], 30.0);
    assert_eq!(suggestion["multiplier"], 3.0);
    assert_eq!(suggestion["cap_s"], 3594.0);
    assert_eq!(suggestion["attempts"], 11);
    assert_eq!(suggestion["give_up_s"], 21600.0);
    let findings = suggestion["findings"].as_array().unwrap();
    assert!(
        findings[0]
            .as_str()
            .unwrap()
            .contains("the last 7 attempts deliver only stale events"),
        "{findings:?}"
    );
    // Without an allowed lag there is nothing to derive.
    assert!(staleness(&["--tolerance", "6h"])["suggestion"].is_null());
}

/// The suggestion reads the schedule as written: beside answers drawn with jitter, its "keeps
/// retrying 18 h 02 min after…" says so first, and only then.
#[test]
fn under_jitter_the_suggestion_reads_the_jittered_schedules() {
    let table = |extra: &[&str]| {
        let mut args = vec![
            "staleness",
            "--preset",
            "article",
            "--tolerance",
            "6h",
            "--max-lag",
            "1h",
        ];
        args.extend_from_slice(extra);
        stdout(&run(&args))
    };
    // The derived schedule said for the mode's draws: as written, its last attempt lands on
    // the tolerance, a schedule full jitter gives up with 3 h early on average (outside
    // product review).
    let jittered = table(&["--mode", "full", "--seed", "1"]);
    assert!(
        jittered.contains("\nWith full jitter, 95% of schedules keep retrying until events stop being worth delivering"),
        "{jittered}"
    );
    assert!(
        jittered.contains("; with full jitter, 95% of its schedules keep retrying until the 6 h tolerance (half give up by "),
        "{jittered}"
    );
    let written = table(&[]);
    assert!(
        written.contains("the last attempt lands on the 6 h tolerance")
            && !written.contains("jitter"),
        "{written}"
    );
}

#[test]
fn every_format_carries_the_same_numbers() {
    let args = |format: &'static str| ["staleness", "--preset", "article", "--format", format];
    let csv = stdout(&run(&args("csv")));
    let rows: Vec<&str> = csv.lines().collect();
    let ladder = staleness(&[])["outages"].as_array().unwrap().len();
    assert_eq!(
        rows.len(),
        ladder + 1,
        "a header and a row per outage:\n{csv}"
    );
    assert!(rows[0].starts_with("outage_s,first_outcome,first_attempt,first_lag_s,first_age_s"));
    assert!(
        rows.contains(&"14400,delivered,8,7320,21720,1,0,,,4265.4375,3570,10080,10800,21720,"),
        "{csv}"
    );
    assert!(
        rows.iter().any(|r| r.starts_with("172800,exhausted,,,,")),
        "{csv}"
    );

    let table = stdout(&run(&args("table")));
    let four_hours = table
        .lines()
        .find(|l| l.starts_with("4 h "))
        .expect("a 4 h row");
    for cell in ["attempt 8", "2 h 02 min", "6 h 02 min"] {
        assert!(four_hours.contains(cell), "{four_hours}");
    }
    assert!(
        table.contains("outages longer than 24 h 02 min exhaust their earliest events"),
        "{table}"
    );

    let markdown = stdout(&run(&args("markdown")));
    assert!(
        markdown.contains("| 4 h | attempt 8 | 2 h 02 min | 6 h 02 min |"),
        "{markdown}"
    );
    assert!(markdown.contains("| 48 h | exhausted |"), "{markdown}");
}

#[test]
fn jittered_answers_are_sampled_from_the_seed_and_repeat() {
    let once = json(&[
        "staleness",
        "--preset",
        "svix",
        "--mode",
        "full",
        "--seed",
        "7",
        "--samples",
        "2000",
        "--format",
        "json",
    ]);
    let again = json(&[
        "staleness",
        "--preset",
        "svix",
        "--mode",
        "full",
        "--seed",
        "7",
        "--samples",
        "2000",
        "--format",
        "json",
    ]);
    assert_eq!(once, again);
    assert_eq!(once["method"], "sampled");
    assert_eq!(once["samples"], 2000);
    assert_eq!(once["seed"], 7);
}

#[test]
fn bad_input_is_refused_naming_the_flag_and_range() {
    let base = ["staleness", "--preset", "article"];
    let with = |extra: &[&'static str]| [&base[..], extra].concat();
    refused(
        &with(&["--tolerance", "0s"]),
        "error: --tolerance must be a duration from 1 µs to 365 days, got 0 s",
    );
    refused(
        &with(&["--outage", "400d"]),
        "error: --outage must be a duration from 1 µs to 365 days, got 400 days",
    );
    refused(
        &with(&["--tolerance", "banana"]),
        "error: --tolerance must be a duration from 1 µs to 365 days, such as",
    );
    refused(
        &with(&["--tolerance", "1h", "--max-lag", "-1h"]),
        "error: --max-lag must be a duration from 1 µs to 365 days, got -1 h",
    );
    refused(&with(&["--outage", "nan"]), "error: --outage must be");
    refused(
        &with(&["--samples", "0", "--mode", "full"]),
        "error: --samples must be",
    );
}

#[test]
fn the_figure_draws_the_tolerance_and_the_outage_read_off() {
    let output = run(&[
        "figure",
        "staleness",
        "--preset",
        "article",
        "--tolerance",
        "6h",
        "--outage",
        "4h",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let svg = stdout(&output);
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.contains("tolerance 6 h: older arrives stale"));
    assert!(svg.contains(
        "a 4 h outage: the first event arrives 2 h 02 min after recovery, 6 h 02 min old"
    ));
    // Given up (24 h 02 min) past the 6 h tolerance, what it exhausts is stale already.
    assert!(svg.contains("exhausted, already stale (kept, not dropped)"));
    // Without a tolerance there is no line to draw.
    let plain = stdout(&run(&["figure", "staleness", "--preset", "article"]));
    assert!(
        !plain.contains("tolerance"),
        "a tolerance line without --tolerance"
    );
}

/// The figure samples as many schedules as `staleness --samples` says (it refused the flag as
/// the distribution's alone), within the same range.
#[test]
fn the_figure_samples_the_schedules_it_is_told_to() {
    let figure = |samples: &str| {
        run(&[
            "figure",
            "staleness",
            "--preset",
            "article",
            "--mode",
            "full",
            "--samples",
            samples,
        ])
    };
    let svg = stdout(&figure("100"));
    assert!(
        svg.contains("Sampled from 100 jittered schedules (seed 42); the max lag and age are the largest drawn."),
        "{svg}"
    );
    let refused = figure("200000");
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("--samples must be a whole number from 1 to 100000"),
        "{}",
        stderr(&refused)
    );
}

#[test]
fn a_schedule_that_cannot_be_derived_is_an_answer_not_an_error() {
    // 1 s gaps that never grow cannot reach a 6 h tolerance within 10000 attempts.
    let report = json(&[
        "staleness",
        "--base",
        "1s",
        "--multiplier",
        "1",
        "--cap",
        "1s",
        "--attempts",
        "100",
        "--mode",
        "none",
        "--tolerance",
        "6h",
        "--max-lag",
        "1h",
        "--format",
        "json",
    ]);
    assert!(report["suggestion"].is_null());
    let why = report["suggestion_refused"].as_str().unwrap();
    assert!(
        why.starts_with("No schedule derived: ")
            && why.contains("would take more than 10,000 attempts")
            // In the question's words: it named a --give-up the reader never gave.
            && !why.contains("give-up"),
        "{why}"
    );
    // The text formats say it after the caption.
    let table = stdout(&run(&[
        "staleness",
        "--base",
        "1s",
        "--multiplier",
        "1",
        "--cap",
        "1s",
        "--attempts",
        "100",
        "--mode",
        "none",
        "--tolerance",
        "6h",
        "--max-lag",
        "1h",
    ]));
    assert!(table.contains("No schedule derived: "), "{table}");
}

/// Without jitter the answers are exact: a count of samples or a seed would be ignored, so each
/// is refused by name.
#[test]
fn draws_without_jitter_are_refused() {
    for (flag, value) in [("--samples", "5"), ("--seed", "5")] {
        common::refused(
            &[
                "staleness",
                "--preset",
                "article",
                "--mode",
                "none",
                flag,
                value,
            ],
            &format!(
                "error: {flag} must be left out without jitter (the answers are exact: nothing is \
                 drawn), got 5"
            ),
        );
    }
}

/// A row's Exhausted, Fresh and Stale are the whole of its events: written to a tenth, they add
/// up to 100.0% (rounded one by one, the jittered 24 h 02 min row read 50.1% + 20.8% + 29.2%).
/// Replay, the exhausted events still worth a replay, is a part of Exhausted.
#[test]
fn a_rows_shares_add_up_to_the_whole() {
    for seed in ["1", "2", "3"] {
        let markdown = stdout(&run(&[
            "staleness",
            "--preset",
            "article",
            "--tolerance",
            "6h",
            "--mode",
            "full",
            "--seed",
            seed,
            "--format",
            "markdown",
        ]));
        let rows: Vec<Vec<&str>> = markdown
            .lines()
            .filter(|line| line.starts_with("| ") && line.contains('%'))
            .map(|line| line.split(" | ").collect())
            .collect();
        assert!(rows.len() >= 10, "{markdown}");
        let tenths = |cell: &str| {
            let number: f64 = cell.trim_end_matches('%').parse().unwrap();
            (number * 10.0).round() as i64
        };
        for row in rows {
            let [exhausted, replay, fresh, stale] = [row[4], row[5], row[6], row[7]].map(tenths);
            assert_eq!(exhausted + fresh + stale, 1_000, "seed {seed}: {row:?}");
            assert!(replay <= exhausted, "seed {seed}: {row:?}");
        }
    }
}

/// A row says how much of an outage's exhausted events is still worth a replay: after 72 h under
/// a 48 h tolerance, a third of the events (exhausted younger than 48 h at recovery) of the two
/// thirds exhausted; without a tolerance it is not known (`–`).
#[test]
fn a_row_splits_the_exhausted_events_worth_a_replay() {
    let row = |extra: &[&str]| {
        let mut args = vec![
            "staleness",
            "--preset",
            "article",
            "--mode",
            "none",
            "--outage",
            "72h",
            "--format",
            "markdown",
        ];
        args.extend(extra);
        let markdown = stdout(&run(&args));
        let line = markdown.lines().nth(2).unwrap_or_default().to_string();
        line
    };
    assert!(
        row(&["--tolerance", "48h"])
            .starts_with("| 72 h | exhausted | – | – | 66.6% | 33.3% | 33.4% | 0.0% |"),
        "{}",
        row(&["--tolerance", "48h"])
    );
    assert!(
        row(&[]).starts_with("| 72 h | exhausted | – | – | 66.6% | – | – | – |"),
        "{}",
        row(&[])
    );
}
