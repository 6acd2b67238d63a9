//! Cases found by fuzzing, kept as explicit reproductions (ignored until fixed in `src/`).

use crate::prelude::*;

pub(crate) fn args(list: &[&str]) -> Vec<OsString> {
    list.iter().map(OsString::from).collect()
}

/// Found by fuzzing: `backoff-lab` alone exited 2 printing only "Reason about retry schedules:
/// …" (clap's help cut to its first paragraph), which says nothing of what is wrong.
#[test]
pub(crate) fn no_subcommand_is_an_error_naming_the_commands() {
    let run = run(&[]).unwrap();
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .starts_with("error: a command is needed: one of schedule, ")
            && run.stderr.contains("staleness"),
        "exit {:?}: {:?}",
        run.code,
        run.stderr
    );
}

/// Found by fuzzing: `staleness` checked no work limit under jitter (10,000 attempts took 12 s,
/// 60 s with `--samples 100000 --outage 1h`; `figure staleness` 26 s and 260 MB). Now its draws
/// count against the limits, and the largest requests are refused before any work.
#[test]
pub(crate) fn staleness_under_jitter_past_the_limit_is_refused() {
    let list = [
        &["staleness"][..],
        &ONE_SECOND_INTERVAL,
        &[
            "--attempts",
            "10000",
            "--mode",
            "full",
            "--seed",
            "1",
            "--samples",
            "100000",
            "--outage",
            "1h",
        ],
    ]
    .concat();
    refused_at_once(
        &list,
        "error: --samples must be at most 49955 for a schedule of 10000 attempts",
    );
}

/// A schedule of one attempt a second: the most attempts for the least time.
const ONE_SECOND_INTERVAL: [&str; 6] = ["--base", "1s", "--multiplier", "1", "--cap", "1s"];

/// Asserts that `list` is refused (exit 2) with a message starting `expected`.
fn refused_at_once(list: &[&str], expected: &str) {
    let run = run(&args(list)).unwrap();
    assert_eq!(run.code, Some(2), "{list:?}: {}", run.stderr);
    assert!(run.stderr.starts_with(expected), "{list:?}: {}", run.stderr);
}

/// `--width 100` was accepted (100 to 4000), but the distribution chart's label placement called
/// `f64::clamp(2, width - label - 2)` with a negative upper bound: a panic, exit 101. The
/// narrowest figure is 240 px now (a 100 px one could not hold its labels), and draws.
#[test]
pub(crate) fn figure_distribution_at_the_smallest_width_draws() {
    let run = run(&args(&[
        "figure",
        "distribution",
        "--width",
        "240",
        "--samples",
        "1000",
        "--seed",
        "1",
    ]))
    .unwrap();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}

/// Found by fuzzing: `jitter --mode decorrelated` within the draw limit took 20 s for 1e6
/// samples × 2,000 retries (full jitter: 4 s), `herd` with 1e6 such deliveries 30 s. Now a
/// decorrelated draw counts what it costs, and these are refused before any work.
#[test]
pub(crate) fn decorrelated_jitter_and_herd_past_their_cost_are_refused() {
    let policy = [
        &ONE_SECOND_INTERVAL[..],
        &[
            "--attempts",
            "2001",
            "--mode",
            "decorrelated",
            "--seed",
            "1",
        ],
    ]
    .concat();
    for (extra, expected) in [
        (
            &["jitter", "--samples", "1000000"][..],
            "error: --samples must be at most 200000 for a schedule of 2001 attempts",
        ),
        (
            &["herd", "--deliveries", "1000000"][..],
            "error: --deliveries must be at most 41666 for a schedule of 2001 attempts",
        ),
    ] {
        refused_at_once(&[extra, &policy].concat(), expected);
    }
}

/// `herd` of a 300-day first gap under ±100% proportional jitter wrote one count per second of
/// its 600 days of first retries: 51,840,003 bins, 370 MB of JSON. (Found by fuzzing, fixed by
/// round bin widths past 100,000 first-retry bins: kept as a regression test.)
#[test]
pub(crate) fn herd_of_a_300_day_gap_writes_bounded_bins() {
    let run = run(&args(&[
        "herd",
        "--base",
        "300d",
        "--multiplier",
        "1",
        "--cap",
        "300d",
        "--attempts",
        "2",
        "--deliveries",
        "1",
        "--mode",
        "proportional",
        "--factor",
        "1",
        "--seed",
        "1",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // The whole schedule's 864,002 one-minute bins, pretty-printed: under 10 MB.
    assert!(run.stdout.len() < 10_000_000, "{} bytes", run.stdout.len());
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let first = json["first_retry_per_second"].as_array().unwrap();
    assert_eq!(first.len(), 86_402);
    assert_eq!(json["first_retry"]["bin_s"], 600.0);
    assert_eq!(json["bin_s"], 60.0);
    assert_eq!(json["per_second"].as_array().unwrap().len(), 864_002);
}
