//! Work beyond the limits refused before it starts, with the JS API's messages; the survival
//! map's limits in `--help` and refusals.

use crate::common::{refused, run, stderr, stdout};

#[test]
fn work_beyond_the_limits_is_refused_before_it_starts_with_the_js_apis_messages() {
    // The same texts as the JS API's and the page's (tests/browser.rs, the e2e tests).
    let cases: [(&[&str], &str); 4] = [
        (
            &["jitter", "--samples", "1000000", "--attempts", "10000"],
            "error: --samples must be at most 200020 for a schedule of 10000 attempts (samples × retries at most 2,000,000,000 drawn gaps), got 1000000",
        ),
        (
            &["herd", "--deliveries", "10000000", "--attempts", "10000"],
            "error: --deliveries must be at most 8334 for a schedule of 10000 attempts (deliveries × 239,976 at most 2,000,000,000 draws: a herd's delivery with full jitter costs 239,976), got 10000000",
        ),
        (
            &["storm", "--arrivals", "1000/s", "--traffic", "2h"],
            "error: --traffic must be at most 1,000,000,000 attempts at worst for the discrete engine",
        ),
        (
            &["storm", "--base", "1us", "--multiplier", "1", "--cap", "1us", "--attempts", "10000", "--arrivals", "20/s"],
            "error: --attempts must be at most 8548 for this storm on the fluid or auto engine: the fluid engine takes at most 500,000,000 class-seconds (attempts × seconds simulated); or less traffic, as the discrete engine takes at most 1,000,000,000 attempts at worst (deliveries × attempts per delivery, refused before it starts), got 10000 (144000 deliveries × 10000 attempts)",
        ),
    ];
    for (args, expected) in cases {
        let mut all = args.to_vec();
        if all[0] != "storm" {
            all.extend_from_slice(&[
                "--base",
                "1s",
                "--multiplier",
                "1",
                "--cap",
                "1s",
                "--mode",
                "full",
                "--seed",
                "1",
            ]);
        }
        let output = run(&all);
        assert_eq!(output.status.code(), Some(2), "{all:?}");
        assert!(
            stderr(&output).starts_with(expected),
            "{all:?}: {}",
            stderr(&output)
        );
    }
}

/// A survival map sets each cell's traffic (through its outage and the hour after it), so a rate
/// too high for its cells is refused by naming `--arrivals` and the rate the map allows, not a
/// `--traffic` the map refuses.
#[test]
fn a_map_too_large_in_deliveries_names_the_arrival_rate() {
    for (args, allowed) in [
        (
            &["--arrivals", "1e6/s", "--steps", "2x2"][..],
            "at most 111 per second",
        ),
        (
            &[
                "--arrivals",
                "2000/s",
                "--steps",
                "2x2",
                "--outages",
                "10m..1h",
            ][..],
            "at most 1388 per second",
        ),
    ] {
        let output = run(&[&["survival"][..], args].concat());
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let said = stderr(&output);
        assert!(said.starts_with("error: --arrivals must be "), "{said}");
        assert!(said.contains(allowed), "{said}");
        assert!(!said.contains("--traffic"), "{said}");
    }
    // A rate given per hour is quoted per second to six significant digits, not to the float's
    // last digit.
    let output = run(&["survival", "--arrivals", "500000/h", "--capacity", "420/s"]);
    let said = stderr(&output);
    assert!(said.trim_end().ends_with("got 138.889/s"), "{said}");
}

/// The map's 1024-cell limit was documented nowhere: `survival --steps 33x32` said only "at most
/// 1024 cells", and `--help` gave no range. Both now state both rules.
#[test]
fn survival_steps_state_both_limits_in_help_and_refusals() {
    let both = "from 2 to 64 steps on each axis and at most 1024 cells in all (outages × \
                headroom, such as 32x32 or 64x16)";
    for steps in ["33x32", "65x2", "1x4"] {
        refused(
            &["survival", "--steps", steps],
            &format!("error: --steps must be {both}, got {steps}"),
        );
    }
    let help = stdout(&run(&["survival", "--help"]));
    let help: String = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("2 to 64 on each and at most 1024 cells in all"),
        "{help}"
    );
}

/// `survival --help` leaves out the storm flags a map refuses (it sets each cell's traffic, and
/// has no batch); giving one is still refused by name, not as an unknown flag. `--outage` is
/// your scenario's, marked on the map.
/// `--no-compare` maps your policy alone: the comparisons' work, which refused a small
/// discrete map of a 14-attempt policy, no longer counts, and the refusal says so where that
/// would fit (not where your own policy is the one past the limit).
#[test]
fn survival_no_compare_maps_your_policy_alone() {
    let base = [
        "survival",
        "--engine",
        "discrete",
        "--steps",
        "8x6",
        "--policy",
        "exponential",
    ];
    let compared = stderr(&run(&base));
    assert!(
        compared.contains("(or --no-compare, to map your policy alone)"),
        "{compared}"
    );
    let alone = run(&[&base[..], &["--no-compare", "--format", "json"]].concat());
    assert!(alone.status.success(), "{}", stderr(&alone));
    let map: serde_json::Value = serde_json::from_str(&stdout(&alone)).unwrap();
    let labels: Vec<&str> = (map["series"].as_array().unwrap().iter())
        .map(|s| s["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["your policy"]);
    // The fixed 30 s interval is your policy here: alone, it is still past the limit.
    let fixed = stderr(&run(&[
        "survival", "--engine", "discrete", "--steps", "8x6",
    ]));
    assert!(
        fixed.contains("delivery-attempts") && !fixed.contains("--no-compare"),
        "{fixed}"
    );
}

#[test]
fn survival_help_leaves_out_the_flags_a_map_refuses() {
    let help = stdout(&run(&["survival", "--help"]));
    assert!(help.contains("--arrivals"), "{help}");
    for flag in ["--traffic ", "--batch ", "--batch-at "] {
        assert!(!help.contains(flag), "{flag} in {help}");
    }
    assert!(
        help.contains("--outage ") && help.contains("--outages "),
        "{help}"
    );
    assert!(stdout(&run(&["storm", "--help"])).contains("--batch-at"));
    for (flag, value, expected) in [
        (
            "--traffic",
            "1h",
            "--traffic must be left out of a survival map (",
        ),
        (
            "--batch",
            "1000",
            "--batch must be empty for a survival map (",
        ),
    ] {
        let refused = run(&["survival", flag, value]);
        assert_eq!(refused.status.code(), Some(2));
        assert!(
            stderr(&refused).starts_with(&format!("error: {expected}")),
            "{}",
            stderr(&refused)
        );
    }
}

/// An outside fuzz campaign's refusals that named no flag, the wrong flag or the wrong range:
/// each names the flag the user gave and its range.
#[test]
fn refusals_name_the_flag_given_and_its_range() {
    let cases = [
        // clap's "unexpected argument '-1' found" named nothing.
        (
            "survival --outages -1s..1h",
            "error: --outages must be two durations from 1 s to 167 h",
        ),
        (
            "survival --headroom -1..2",
            "error: --headroom must be two ratios",
        ),
        (
            "figure survival --steps -1x2",
            "error: --steps must be from 2 to 64 steps on each axis and at most 1024 cells in all",
        ),
        // "--traffic must be at most …" with no traffic: the batch was the cause.
        (
            "storm --batch 10000000 --traffic 0s --attempts 100",
            "error: --batch must be at most 100,000,000 simulated attempts",
        ),
        // "--latency must be …" of a latency never given.
        (
            "storm --timeout 1ms",
            "error: --timeout must be a duration longer than 50 ms (the destination's latency, as the storm takes it unless given)",
        ),
        // "--engine must be discrete here" on the map's default engine.
        (
            "survival --headroom 0.1..1000 --steps 2x2 --outages 10s..1m",
            "error: --headroom must be a low end at which the fluid engine runs every cell",
        ),
        // "from 0 to 100%" for text, "from 1% to 100%" for numbers.
        (
            "storm --breaker-share %",
            "error: --breaker-share must be a whole percentage from 1% to 100%, such as 50%",
        ),
        // "got inf".
        (
            "schedule --preset article --attempts 1e400",
            "error: --attempts must be a whole number from 1 to 10000, got \"1e400\"",
        ),
        // Past 2^53, quoted as typed: it read "got 123456789012345680000".
        (
            "herd --preset article --deliveries 123456789012345678901",
            "error: --deliveries must be a whole number from 1 to 10000000, got 123456789012345678901",
        ),
        (
            "schedule --preset article --attempts -123456789012345678901",
            "error: --attempts must be a whole number from 1 to 10000, got -123456789012345678901",
        ),
        // Answered "to keep 100% of deliveries trying … 280 attempts".
        (
            "jitter --preset article --mode full --deadline 24h --percentile 1e-308",
            "error: --percentile must be a percentage from 0.1 to 99.9",
        ),
        // 20,000 samples all ±0 s.
        (
            "jitter --preset article --mode proportional --factor 1e-320",
            "error: --factor must be a number from 0 to 1: 0 for none, else at least 0.000001",
        ),
        // Simulated without an outage.
        (
            "storm --outage 0.4s",
            "error: --outage must be 0 s or from 0.5 s to 6 days 23 h 59 min 59 s",
        ),
        // Jitter's range for staleness's samples (outside parity review).
        (
            "staleness --mode full --samples 1e400",
            "error: --samples must be a whole number from 1 to 100000, got \"1e400\"",
        ),
        // A list's item that does not read is told the list's range.
        (
            "schedule --gaps 1s,abc --attempts 3",
            "error: --gaps must be durations from 1 µs to 365 days, such as 30s, 4m30s, 4.5min, 3h \
             or 1d, got \"abc\"",
        ),
        // A destination of 0.0344 requests a second within its limits read "0.0".
        (
            "storm --engine fluid --capacity 600/day",
            "error: --engine must be discrete here: the fluid engine needs capacity × (timeout − \
             latency, or the Retry-After threshold if shorter) of at least 20 requests; below that \
             whole requests decide the outcome, got fluid for a destination that answers 0.0344 \
             requests within its limits in a second",
        ),
        // A map's start too late for its longest cell was refused as --traffic, which `survival`
        // does not take (outside review).
        (
            "survival --outage-start 6d23h --outages 1s..2s --steps 2x2",
            "error: --outage-start must be at most 6 days 22 h 59 min 58 s for this map: its \
             longest cell's traffic lasts from the start through its 2 s outage and the hour \
             after it, and a storm lasts at most 7 days (or map shorter outages), got 6 days 23 h",
        ),
        // Arrivals past the limit alone, beside a batch of it all, are refused against the limit
        // alone (they read "at most 0 deliveries … (up to about 0/min)": outside code review).
        (
            "storm --arrivals 10000/s --traffic 2h --batch 10000000",
            "error: --arrivals must be a rate that brings at most 10000000 deliveries over the \
             storm's 2 h of traffic (up to about 83333/min), got 10000/s",
        ),
        // Room for less than one a minute: no per-minute rate is quoted.
        (
            "storm --arrivals 1/s --traffic 2h --batch 9999999",
            "error: --arrivals must be a rate that brings at most 1 delivery over the storm's 2 h \
             of traffic beside its batch of 9999999 (up to about 12/day), got 1/s",
        ),
        // "--arrivals … at most 0 deliveries": the batch that leaves no room is refused.
        (
            "storm --arrivals 1/s --traffic 60s --batch 10000000",
            "error: --batch must be at most 9999940 deliveries beside the 60 the arrivals bring \
             over the storm's 60 s of traffic, got 10000000",
        ),
        // "got given without --format csv" (outside help review).
        (
            "storm --per-second",
            "error: --per-second must be given only with --format csv (per-second rows exist \
             only as CSV), got --format table",
        ),
        (
            "storm --retry-quota aws --retry-quota-ratio 0.2",
            "error: --retry-quota-ratio must be given only with --retry-quota grpc (the AWS SDKs' \
             bucket has no ratio), got retry-quota aws",
        ),
    ];
    for (command, expected) in cases {
        refused(&command.split_whitespace().collect::<Vec<_>>(), expected);
    }
    // "(or a longer cap)" for a list of gaps, which has none.
    let gaps = "jitter --gaps 1ms --then-every 1ms --attempts 100 --mode full --deadline 365d";
    let gaps = stderr(&run(&gaps.split_whitespace().collect::<Vec<_>>()));
    assert!(gaps.contains("(or longer gaps)"), "{gaps}");
    // "answers at most 1 requests per second".
    let slow = "storm --arrivals 2/s --capacity 1/s --traffic 60s --outage 10s --engine discrete";
    let slow = stdout(&run(&slow.split_whitespace().collect::<Vec<_>>()));
    assert!(
        slow.contains("answers at most 1 request per second"),
        "{slow}"
    );
    // An exponent is a number in a duration too: 1e2 s is 100 s.
    let json = crate::common::json(&[
        "schedule",
        "--base",
        "1e2",
        "--multiplier",
        "2",
        "--cap",
        "1.5e3s",
        "--attempts",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(json["rows"][1]["gap_s"], 100.0, "{json}");
}
