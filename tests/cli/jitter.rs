//! `jitter` and `herd`: exact and sampled figures, seeds, percentiles, deadline sizing.

use crate::common::{refused, run, stderr, stdout};

pub(crate) fn policy_args<'a>(command: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        command,
        "--base",
        "30s",
        "--multiplier",
        "3",
        "--cap",
        "3h",
        "--attempts",
        "14",
    ];
    args.extend_from_slice(extra);
    args
}

/// One attempt has no gap to jitter: no "0% of" a give-up time of 0 s (outside review).
#[test]
fn a_single_attempt_under_jitter_says_there_is_nothing_to_jitter() {
    let mut args = policy_args("jitter", &["--mode", "full", "--seed", "4"]);
    let attempts = 1 + args.iter().position(|&arg| arg == "--attempts").unwrap();
    args[attempts] = "1";
    let output = run(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("A single attempt has no gap to jitter: every delivery gives up at 0 s"),
        "{text}"
    );
    assert!(!text.contains("% of it"), "{text}");
}

#[test]
fn jitter_json_has_exact_and_sampled_figures() {
    let args = policy_args(
        "jitter",
        &[
            "--mode",
            "full",
            "--seed",
            "42",
            "--samples",
            "200000",
            "--format",
            "json",
        ],
    );
    let output = run(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["expected_give_up_s"], 43_260.0);
    assert_eq!(json["exact"], true);
    for p in ["p1", "p5", "p50", "p95", "p99"] {
        let exact = json["percentiles"][p].as_f64().unwrap();
        let sampled = json["sampled"]["percentiles"][p].as_f64().unwrap();
        assert!(
            (exact - sampled).abs() / exact < 0.01,
            "{p}: {exact} vs {sampled}"
        );
    }
    assert_eq!(json["sampled"]["samples"], 200_000);
    assert_eq!(json["sampled"]["seed"], 42);
    // The same seed gives the same sample.
    assert_eq!(stdout(&run(&args)), stdout(&output));
}

#[test]
fn jitter_without_a_seed_prints_the_one_it_drew() {
    let output = run(&policy_args(
        "jitter",
        &["--mode", "equal", "--samples", "1000"],
    ));
    let text = stdout(&output);
    let seed: u64 = text
        .split("seed ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|digits| digits.parse().ok())
        .expect("the table names its seed");
    let again = run(&policy_args(
        "jitter",
        &[
            "--mode",
            "equal",
            "--samples",
            "1000",
            "--seed",
            &seed.to_string(),
        ],
    ));
    assert_eq!(stdout(&again), text, "the printed seed reproduces the run");
}

#[test]
fn herd_json_shows_the_spike_and_the_spread() {
    let none = run(&policy_args(
        "herd",
        &[
            "--deliveries",
            "1000",
            "--mode",
            "none",
            "--seed",
            "1",
            "--format",
            "json",
        ],
    ));
    let json: serde_json::Value = serde_json::from_str(&stdout(&none)).unwrap();
    assert_eq!(json["first_retry"]["peak_per_s"], 1_000.0);
    assert_eq!(json["per_second"][30], 1_000);
    let full = run(&policy_args(
        "herd",
        &[
            "--deliveries",
            "1000",
            "--mode",
            "full",
            "--seed",
            "1",
            "--format",
            "json",
        ],
    ));
    let json: serde_json::Value = serde_json::from_str(&stdout(&full)).unwrap();
    let peak = json["first_retry"]["peak_per_s"].as_f64().unwrap();
    assert!(peak < 100.0, "full jitter peak {peak}");
    for key in ["per_second", "peak_per_s", "mean_per_s", "peak_to_mean"] {
        assert!(!json[key].is_null(), "{key}");
    }
    let csv = stdout(&run(&policy_args(
        "herd",
        &["--mode", "none", "--seed", "1", "--format", "csv"],
    )));
    assert_eq!(csv.lines().next(), Some("second,first_retries,retries"));
    assert!(csv.lines().any(|l| l == "30,1000,1000"));
}

#[test]
fn jitter_and_herd_refuse_bad_input() {
    let cases: &[(&str, &[&str], &str)] = &[
        (
            "jitter",
            &["--mode", "proportional", "--factor", "1.5"],
            "--factor must be a number from 0 to 1: 0 for none, else at least 0.000001, got 1.5",
        ),
        (
            "jitter",
            &["--mode", "wobbly"],
            "--mode must be one of none, full, equal, decorrelated, proportional, got \"wobbly\"",
        ),
        (
            "jitter",
            &["--samples", "0"],
            "--samples must be a whole number from 1 to 10000000, got 0",
        ),
        (
            "jitter",
            &["--samples", "1e12"],
            "--samples must be a whole number from 1 to 10000000, got 1000000000000",
        ),
        (
            "jitter",
            &["--seed", "-1"],
            "--seed must be a whole number from 0 to 9007199254740991, got -1",
        ),
        // As written: read as a number first, it was quoted as 18446744073709552000.
        (
            "jitter",
            &["--seed", "18446744073709551616"],
            "--seed must be a whole number from 0 to 9007199254740991, got 18446744073709551616",
        ),
        (
            "jitter",
            &["--deadline", "24h", "--percentile", "120"],
            "--percentile must be a percentage from 0.1 to 99.9",
        ),
        (
            "jitter",
            &["--deadline", "24h", "--percentile", "10%%%"],
            "--percentile must be a percentage from 0.1 to 99.9, such as 5 or 5%, got \"10%%%\"",
        ),
        (
            "herd",
            &["--deliveries", "0"],
            "--deliveries must be a whole number from 1 to 10000000, got 0",
        ),
        (
            "herd",
            &["--deliveries", "NaN"],
            "--deliveries must be a whole number from 1 to 10000000, got NaN",
        ),
    ];
    for (command, extra, expected) in cases {
        refused(&policy_args(command, extra), &format!("error: {expected}"));
    }
    // Its own flag first, without a policy too (it was told only that the base is missing).
    refused(
        &["herd", "--deliveries", "0"],
        "error: --deliveries must be a whole number from 1 to 10000000, got 0",
    );
}

/// Decorrelated jitter grows each gap from a base: an explicit list has none, and every command
/// refuses the pair in the same words (`jitter`, `herd` and `staleness` read the list's first gap
/// as a base and its longest as a cap, and printed numbers of a schedule nobody gave).
#[test]
fn decorrelated_jitter_of_an_explicit_schedule_is_refused_everywhere() {
    let expected = "error: --mode must be none, full, equal or proportional for an explicit \
                    schedule (decorrelated jitter grows from a base), got decorrelated with \
                    explicit gaps";
    for command in ["jitter", "herd", "staleness", "storm"] {
        refused(
            &[command, "--preset", "svix", "--mode", "decorrelated"],
            expected,
        );
        let listed = [
            command,
            "--gaps",
            "5s,10s",
            "--attempts",
            "4",
            "--mode",
            "decorrelated",
        ];
        refused(&listed, expected);
        if command == "jitter" {
            refused(&[&listed[..], &["--deadline", "1h"]].concat(), expected);
        }
    }
}

/// Without jitter nothing is drawn, so a count or a seed of draws would be ignored: `jitter`
/// refuses them as `staleness` does (it printed one exact table for `--samples 1 --seed 1`).
#[test]
fn draws_are_not_asked_for_without_jitter() {
    let reason = "must be left out without jitter (the answers are exact: nothing is drawn)";
    for command in ["jitter", "staleness"] {
        refused(
            &[command, "--preset", "article", "--samples", "1"],
            &format!("error: --samples {reason}, got 1"),
        );
        refused(
            &[command, "--preset", "svix", "--mode", "none", "--seed", "7"],
            &format!("error: --seed {reason}, got 7"),
        );
    }
    // Proportional jitter of ±0% draws nothing either (staleness still samples it).
    let no_width = [
        "--preset",
        "article",
        "--mode",
        "proportional",
        "--factor",
        "0",
    ];
    refused(
        &[&["jitter"], &no_width[..], &["--seed", "7"]].concat(),
        "error: --seed must be left out with proportional jitter of ±0% (the answers are exact: \
         nothing is drawn), got 7",
    );
    // Nor is a seed drawn for nothing: the same command prints the same JSON, with seed 0,
    // proportional jitter of ±0% too.
    for args in [&["--preset", "svix"][..], &no_width[..]] {
        let json = || stdout(&run(&[&["jitter"], args, &["--format", "json"]].concat()));
        let first = json();
        assert_eq!(first, json(), "{args:?}");
        let parsed: serde_json::Value = serde_json::from_str(&first).unwrap();
        assert_eq!(parsed["sampled"]["seed"], 0, "{args:?}");
    }
}

/// Without jitter nothing is drawn: the table has the exact column alone and the caption no
/// sampled average or seed (it read "1000000 seeded draws (seed 2213372760) average 24 h 02
/// min" beside a column of the same figures ± 0 s).
#[test]
fn without_jitter_the_table_has_no_sampled_column() {
    // Proportional jitter of ±0% draws nothing either.
    let zero = ["--mode", "proportional", "--factor", "0"];
    for extra in [&[][..], &zero[..]] {
        let output = run(&[&["jitter", "--preset", "article"][..], extra].concat());
        let table = stdout(&output);
        assert_eq!(
            table.lines().next().map(str::trim),
            Some("exact"),
            "{table}"
        );
        assert!(table.contains("p95         24 h 02 min\n"), "{table}");
        assert!(!table.contains("seed") && !table.contains("±"), "{table}");
        assert!(
            table
                .trim_end()
                .ends_with("Without jitter every delivery gives up at exactly 24 h 02 min."),
            "{table}"
        );
        assert_eq!(stderr(&output), "", "{extra:?}: no fresh seed named");
    }
}

/// A percentile is read as a percentage with or without its sign, as budgets are.
#[test]
fn a_percentile_may_carry_its_percent_sign() {
    let sized = |p: &str| {
        let output = run(&policy_args(
            "jitter",
            &[
                "--mode",
                "full",
                "--seed",
                "1",
                "--samples",
                "1000",
                "--deadline",
                "20h",
                "--percentile",
                p,
            ],
        ));
        assert!(output.status.success(), "{p}: {}", stderr(&output));
        stdout(&output)
    };
    let plain = sized("10");
    assert!(
        plain.contains("To keep 90% of deliveries trying until 20 h"),
        "{plain}"
    );
    assert_eq!(sized("10%"), plain);
    assert_eq!(sized(" 10 % "), plain);
}

/// A run without --seed can be repeated whatever its format: CSV, which has no room for the
/// seed, names it on stderr; a given seed is not repeated there.
#[test]
fn a_fresh_seed_is_named_even_in_csv() {
    for command in ["jitter", "herd", "staleness"] {
        let args = [
            command, "--preset", "article", "--mode", "full", "--format", "csv",
        ];
        let output = run(&args);
        assert_eq!(output.status.code(), Some(0), "{command}");
        let said = stderr(&output);
        let seed = said
            .strip_prefix("seed ")
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or_else(|| panic!("{command}: {said:?}"));
        let again = run(&[&args[..], &["--seed", seed]].concat());
        assert_eq!(
            stdout(&again),
            stdout(&output),
            "{command} with --seed {seed}"
        );
        assert_eq!(stderr(&again), "", "{command}");
        // Without jitter nothing is drawn, so no seed is named.
        let exact = run(&[
            command, "--preset", "article", "--mode", "none", "--format", "csv",
        ]);
        assert_eq!(exact.status.code(), Some(0), "{command}");
        assert_eq!(stderr(&exact), "", "{command} without jitter");
    }
}

/// The jitter CSV carries what the table and the JSON say: the unjittered give-up time, and with
/// `--deadline` the sizing's answer (the JSON's `deadline_safe`), so a spreadsheet gets it too.
#[test]
fn the_jitter_csv_carries_the_unjittered_time_and_the_deadline_answer() {
    let with_deadline = [
        "--mode",
        "full",
        "--seed",
        "1",
        "--samples",
        "1000",
        "--deadline",
        "24h",
    ];
    let csv = stdout(&run(&policy_args(
        "jitter",
        &[&with_deadline[..], &["--format", "csv"]].concat(),
    )));
    let row = |name: &str| {
        csv.lines()
            .find_map(|line| line.strip_prefix(&format!("{name},")))
            .unwrap_or_else(|| panic!("no {name} row in {csv}"))
            .to_string()
    };
    // The article's schedule on paper: 24 h 02 min.
    assert_eq!(row("unjittered"), "86520,");
    let sized: serde_json::Value = serde_json::from_str(&stdout(&run(&policy_args(
        "jitter",
        &[&with_deadline[..], &["--format", "json"]].concat(),
    ))))
    .unwrap();
    assert_eq!(sized["unjittered_give_up_s"], 86520.0);
    let safe = &sized["deadline_safe"];
    assert_eq!(row("deadline"), "86400,");
    assert_eq!(row("deadline_percentile"), "0.05,");
    assert_eq!(
        row("deadline_safe_attempts"),
        format!("{},", safe["attempts"])
    );
    // The caption's answer for this schedule: 27 attempts keep 95% trying until 24 h.
    assert_eq!(safe["attempts"], 27);
    // The decorrelated mode's figures are estimates, and its column says so.
    let decorrelated = stdout(&run(&policy_args(
        "jitter",
        &[
            "--mode",
            "decorrelated",
            "--seed",
            "1",
            "--samples",
            "1000",
            "--format",
            "csv",
        ],
    )));
    assert!(
        decorrelated.starts_with("statistic,estimate_s,sampled_s\n"),
        "{decorrelated}"
    );
    assert!(csv.starts_with("statistic,exact_s,sampled_s\n"), "{csv}");
    // Twelve significant digits at most, as every CSV of fractional numbers (a sampled mean
    // read 43224.81501526713).
    for cell in csv.lines().skip(1).flat_map(|line| line.split(',').skip(1)) {
        let significant = cell
            .trim_start_matches(['0', '.'])
            .chars()
            .filter(char::is_ascii_digit)
            .count();
        assert!(significant <= 12, "{cell} in {csv}");
    }
    // Without --deadline there is no sizing row.
    let plain = stdout(&run(&policy_args(
        "jitter",
        &[
            "--mode",
            "full",
            "--seed",
            "1",
            "--samples",
            "1000",
            "--format",
            "csv",
        ],
    )));
    assert!(!plain.contains("deadline"), "{plain}");
}

/// The sizing's sentence writes the share of deliveries as the percentile gives it: close to
/// 100 in words (0.1%, not 0%), and a fractional one with its decimals (a 50.5th percentile
/// keeps 49.5% trying; it read "50%").
#[test]
fn the_deadline_sizing_writes_the_share_as_given() {
    for (percentile, said) in [
        (
            "99.9",
            "To keep 0.1% of deliveries trying until 24 h, the schedule needs 17 attempts.",
        ),
        ("50.5%", "To keep 49.5% of deliveries trying until 24 h"),
    ] {
        let output = stdout(&run(&[
            "jitter",
            "--preset",
            "article",
            "--mode",
            "full",
            "--deadline",
            "24h",
            "--percentile",
            percentile,
            "--samples",
            "1000",
            "--seed",
            "1",
        ]));
        assert!(output.contains(said), "{percentile}: {output}");
    }
}

/// `jitter` refused its own default: `--attempts 10000` without `--samples` said "--samples must
/// be at most 200020 …, got 1000000". Untyped, the count is the most the limit allows, and the
/// output says how many were drawn (the table's head, the caption and the JSON; the CSV, which
/// does not carry it, on stderr). A typed count past the limit is still refused (below).
#[test]
fn jitter_draws_what_the_limit_allows_when_samples_are_not_given() {
    let policy = [
        "--base",
        "30s",
        "--multiplier",
        "3",
        "--cap",
        "3h",
        "--attempts",
        "10000",
    ];
    let mut args = vec!["jitter", "--seed", "1"];
    args.extend_from_slice(&policy);
    let output = run(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let table = stdout(&output);
    assert!(table.contains("sampled (200,020 draws, seed 1)"), "{table}");
    assert!(
        table.contains("200,020 seeded draws (seed 1) average"),
        "{table}"
    );
    // Unjittered, nothing is drawn (a seed is refused: see below), but the count is the same
    // (the cheap run of the formats).
    let mut args = vec!["jitter"];
    args.extend_from_slice(&policy);
    args.extend_from_slice(&["--mode", "none", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&run(&args))).unwrap();
    assert_eq!(json["sampled"]["samples"], 200_020);
    *args.last_mut().unwrap() = "csv";
    let output = run(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output)
            .starts_with("200020 samples (the most the work limit allows for 10000 attempts"),
        "{}",
        stderr(&output)
    );
}

/// The table compares its rows: gRPC's p95 (123.3 s) and p99 (126.5 s) both read "2.1 min"
/// under a p50 of "112.9 s" (outside review). From 2 to 10 min the table writes seconds.
#[test]
fn the_jitter_table_tells_close_percentiles_apart() {
    let table = stdout(&run(&[
        "jitter",
        "--preset",
        "grpc",
        "--seed",
        "1",
        "--samples",
        "1000",
    ]));
    let row = |name: &str| {
        let line = table.lines().find(|l| l.starts_with(name)).unwrap();
        line.split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .nth(1)
            .unwrap()
            .to_string()
    };
    assert_eq!(row("p50"), "112.9 s", "{table}");
    assert_eq!(row("p95"), "123.3 s", "{table}");
    assert_eq!(row("p99"), "126.5 s", "{table}");
    assert!(!table.lines().take(8).any(|l| l.contains("min")), "{table}");
}

/// The caption's times, set side by side, are written as the table's rows are (2 to 10 min in
/// seconds), the deadline too, and so are the distribution chart's markers: gRPC's p95 read
/// "2.1 min" beside a p5 of "102.4 s", and a 210 s deadline "3.5 min".
#[test]
fn the_captions_compared_times_share_one_unit() {
    let grpc = stdout(&run(&["jitter", "--preset", "grpc"]));
    assert!(
        grpc.contains("between 102.4 s (p5) and 123.3 s (p95)"),
        "{grpc}"
    );
    let policy = [
        "--base",
        "30s",
        "--multiplier",
        "2",
        "--cap",
        "10m",
        "--attempts",
        "4",
        "--seed",
        "1",
    ];
    let sized = stdout(&run(
        &[&["jitter"], &policy[..], &["--deadline", "210s"]].concat()
    ));
    assert!(
        sized.contains("a schedule that reads 210 s on paper"),
        "{sized}"
    );
    assert!(sized.contains("trying until 210 s,"), "{sized}");
    let figure = stdout(&run(&[&["figure", "distribution"], &policy[..]].concat()));
    assert!(
        figure.lines().any(|line| line.trim() == "unjittered 210 s"),
        "{figure}"
    );
}
