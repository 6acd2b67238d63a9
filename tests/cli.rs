//! The command line as a user runs it: output formats, the JSON contract, and refusals.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{refused, run, stderr, stdout};
use std::process::Output;

fn article(extra: &[&str]) -> Output {
    let mut args = vec![
        "schedule",
        "--base",
        "30s",
        "--multiplier",
        "3",
        "--cap",
        "3h",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn json_is_the_documented_contract() {
    let output = article(&["--give-up", "24h", "--format", "json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 14);
    assert_eq!(
        rows[0],
        serde_json::json!({"attempt": 1, "gap_s": null, "elapsed_s": 0.0, "capped": false, "gap_text": "none", "elapsed_text": "0 s"})
    );
    let gaps: Vec<f64> = rows[1..]
        .iter()
        .map(|r| r["gap_s"].as_f64().unwrap())
        .collect();
    assert_eq!(
        &gaps[..7],
        &[30.0, 90.0, 270.0, 810.0, 2_430.0, 7_290.0, 10_800.0]
    );
    assert_eq!(json["give_up_s"], 86_520.0);
    assert_eq!(json["first_capped_attempt"], 8);
    assert_eq!(json["attempts_within_window"], 5);
    assert_eq!(json["uncapped_last_gap_s"], 15_943_230.0);
    assert!((json["capped_share"].as_f64().unwrap() - 75_600.0 / 86_520.0).abs() < 1e-12);
}

#[test]
fn table_markdown_and_csv() {
    let table = stdout(&article(&["--attempts", "14"]));
    assert!(table.starts_with("Attempt  Gap before it  Elapsed since first failure\n"));
    assert!(table.contains("     14  3 h (capped)   24 h 02 min\n"));
    assert!(table.contains("5 of 14 attempts land inside the first 20 min."));
    let markdown = stdout(&article(&["--attempts", "14", "--format", "markdown"]));
    assert!(markdown.contains("| 5 | 13.5 min | 20 min |"));
    let csv = stdout(&article(&["--attempts", "14", "--format", "csv"]));
    assert_eq!(csv.lines().count(), 15);
    assert_eq!(csv.lines().nth(5), Some("5,810,1200,false"));
    let window = stdout(&article(&[
        "--attempts",
        "14",
        "--window",
        "2h",
        "--format",
        "json",
    ]));
    let json: serde_json::Value = serde_json::from_str(&window).unwrap();
    assert_eq!(json["attempts_within_window"], 6);
}

#[test]
fn solve_cap_answers_and_refuses() {
    let output = run(&[
        "solve-cap",
        "--base",
        "30s",
        "--multiplier",
        "3",
        "--attempts",
        "14",
        "--give-up",
        "24h",
    ]);
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "A cap of 2 h 59 min 42.857 s (10782.8571429 s) makes 14 attempts reach 24 h.\n"
    );
    let output = run(&[
        "solve-cap",
        "--base",
        "30s",
        "--multiplier",
        "1",
        "--attempts",
        "3",
        "--give-up",
        "24h",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("--give-up must be at most 60 s, what 3 attempts reach"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn bad_input_exits_2_with_one_line_naming_flag_value_and_range() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["--attempts", "14", "--unknown", "1"],
            "unexpected argument '--unknown'",
        ),
        (
            &["--attempts", "NaN"],
            "--attempts must be a whole number from 1 to 10000, got NaN",
        ),
        (
            &["--attempts", "0"],
            "--attempts must be a whole number from 1 to 10000, got 0",
        ),
        (
            &["--attempts", "1000000000000"],
            "--attempts must be a whole number from 1 to 10000, got 1000000000000",
        ),
        (
            &["--give-up", "-5s"],
            "--give-up must be a duration such as 30s, never negative, got -5s",
        ),
        (
            &["--give-up", "soon"],
            "--give-up must be a duration such as 30s",
        ),
        (
            &["--give-up", "400d"],
            "--give-up must be a duration greater than 0 s and at most 365 days, got 400 days",
        ),
        (
            &[],
            "--attempts must be given: a count from 1 to 10000, or a give-up deadline",
        ),
    ];
    for (extra, expected) in cases {
        let output = article(extra);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{extra:?}");
        assert_eq!(err.lines().count(), 1, "{extra:?}: {err}");
        assert!(err.contains(expected), "{extra:?}: {err}");
        assert!(!err.contains("panicked") && !err.contains("RUST_BACKTRACE"));
    }
    let flags: &[(&[&str], &str)] = &[
        (
            &["--base", "-5s"],
            "--base must be a duration such as 30s, never negative, got -5s",
        ),
        (&["--base", "NaN"], "--base must be a duration such as"),
        (
            &["--multiplier", "0.5"],
            "--multiplier must be a number from 1 to 1000, got 0.5",
        ),
        (
            &["--multiplier", "inf"],
            "--multiplier must be a number from 1 to 1000, got inf",
        ),
        (
            &["--cap", "10s"],
            "--cap must be a duration of at least the base (30 s) and at most 365 days, got 10 s",
        ),
        (
            &["--base", "abc"],
            "--base must be a duration such as 30s, 4m30s, 4.5min, 3h or 1d, got \"abc\"",
        ),
    ];
    for (override_flags, expected) in flags {
        let mut args = vec![
            "schedule",
            "--base",
            "30s",
            "--multiplier",
            "3",
            "--cap",
            "3h",
            "--attempts",
            "5",
        ];
        for pair in override_flags.chunks(2) {
            let at = args.iter().position(|a| *a == pair[0]).unwrap();
            args[at + 1] = pair[1];
        }
        let output = run(&args);
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(stderr(&output).lines().count(), 1);
        assert!(
            stderr(&output).starts_with(&format!("error: {expected}")),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn help_shows_examples() {
    let output = run(&["schedule", "--help"]);
    assert!(output.status.success());
    assert!(stdout(&output)
        .contains("backoff-lab schedule --base 30s --multiplier 3 --cap 3h --attempts 14"));
}

fn policy_args<'a>(command: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
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

#[test]
fn jitter_json_has_exact_and_sampled_figures() {
    let output = run(&policy_args(
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
    ));
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
    let again = run(&policy_args(
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
    ));
    assert_eq!(stdout(&again), stdout(&output));
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
            "--factor must be a number from 0 to 1, got 1.5",
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
        (
            "jitter",
            &["--deadline", "24h", "--percentile", "120"],
            "--percentile must be a percentage between 0 and 100",
        ),
        (
            "jitter",
            &["--deadline", "24h", "--percentile", "10%%%"],
            "--percentile must be a percentage between 0 and 100, such as 5 or 5%, got \"10%%%\"",
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
        let output = run(&policy_args(command, extra));
        assert_eq!(output.status.code(), Some(2), "{extra:?}");
        assert_eq!(stderr(&output).lines().count(), 1);
        assert!(
            stderr(&output).starts_with(&format!("error: {expected}")),
            "{extra:?}: {}",
            stderr(&output)
        );
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

/// A flag a chart does not read is refused, naming the charts that do (`figure storm --compare
/// svix` drew no comparison, silently).
#[test]
fn a_figure_refuses_the_flags_its_chart_does_not_read() {
    for (args, expected) in [
        (
            &["figure", "storm", "--compare", "svix"][..],
            "error: --compare must be left out of figure storm (only figure staleness reads it), got svix",
        ),
        (
            &["figure", "timeline", "--capacity", "5/s"],
            "error: --capacity must be left out of figure timeline (only figure storm and survival read \
             it), got 5/s",
        ),
        (
            &["figure", "timeline", "--mode", "full"],
            "error: --mode must be left out of figure timeline (only figure distribution, herd, storm, \
             staleness and survival read it), got full",
        ),
        (
            &["figure", "distribution", "--log-scale"],
            "error: --log-scale must be left out of figure distribution (only figure timeline reads \
             it), got --log-scale",
        ),
        (
            &["figure", "herd", "--outage", "1h"],
            "error: --outage must be left out of figure herd (only figure storm, staleness and survival \
             read it), got 1h",
        ),
        (
            &["figure", "storm", "--steps", "4x4"],
            "error: --steps must be left out of figure storm (only figure survival reads it), got 4x4",
        ),
    ] {
        refused(args, expected);
    }
}

#[test]
fn figures_are_svg_from_the_same_chart_functions() {
    for (kind, expected) in [
        ("timeline", "gives up at 24 h 02 min"),
        ("distribution", "unjittered 24 h 02 min"),
        ("herd", "without jitter: 1,000 in one second"),
        ("storm", "capacity 1,800/min"),
    ] {
        let policy = [
            "figure",
            kind,
            "--base",
            "30s",
            "--multiplier",
            "3",
            "--cap",
            "3h",
        ];
        // Each chart takes only the flags it reads.
        let own: &[&str] = match kind {
            "timeline" => &[],
            "distribution" => &["--mode", "full", "--seed", "1", "--samples", "20000"],
            _ => &["--mode", "full", "--seed", "1"],
        };
        let output = run(&[&policy[..], own].concat());
        assert!(output.status.success(), "{kind}: {}", stderr(&output));
        let svg = stdout(&output);
        assert!(
            svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
            "{kind}"
        );
        assert!(svg.contains(r#"width="900""#) && svg.contains(r#"height="320""#));
        assert!(svg.contains(expected), "{kind} lacks {expected:?}");
    }
    // Any text a size flag is given is refused with the range, never clap's parse error.
    for (flag, value, got) in [
        ("--width", "5", "5"),
        ("--width", "NaN", "NaN"),
        ("--height", "-320", "-320"),
        ("--height", "320.5", "320.5"),
        ("--width", "wide", "\"wide\""),
    ] {
        let output = run(&[
            "figure",
            "timeline",
            "--base",
            "30s",
            "--multiplier",
            "3",
            "--cap",
            "3h",
            flag,
            value,
        ]);
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(
            stderr(&output),
            format!("error: {flag} must be a whole number of pixels from 100 to 4000, got {got}\n")
        );
    }
}

/// The element draws its timeline on a log axis by default; a `figure timeline` made as its
/// fallback does too, so that the chart that replaces it looks the same. Every figure carries
/// its title and the page's caption, for screen readers and `alt` text.
#[test]
fn figures_default_to_the_elements_log_axis_and_carry_their_caption() {
    let figure = |extra: &[&str]| {
        let output = run(&[&["figure", "timeline", "--preset", "svix"][..], extra].concat());
        assert!(output.status.success(), "{extra:?}: {}", stderr(&output));
        stdout(&output)
    };
    let default = figure(&[]);
    assert_eq!(
        default,
        figure(&["--log-scale"]),
        "the default is the log axis"
    );
    assert_eq!(default, figure(&["--log-scale=true"]));
    assert_ne!(
        default,
        figure(&["--log-scale=false"]),
        "a linear axis on request"
    );
    let head: Vec<&str> = default.lines().take(3).collect();
    assert!(head[0].starts_with("<svg "), "{head:?}");
    assert_eq!(head[1], "<title>backoff-lab: retry timeline</title>");
    assert!(
        head[2].starts_with("<desc>A retry timeline of listed gaps: attempts land at 0 s, 5 s,")
            && head[2].ends_with("where the schedule gives up.</desc>"),
        "{}",
        head[2]
    );
    for (kind, title) in [
        ("distribution", "give-up time of one jittered delivery"),
        ("storm", "retry storm after an outage"),
        (
            "survival",
            "which outages a destination survives (survival map)",
        ),
    ] {
        let extra: &[&str] = if kind == "survival" {
            &["--steps", "2x2", "--outages", "1m..10m"]
        } else {
            &[]
        };
        let output = run(&[&["figure", kind][..], extra].concat());
        assert!(output.status.success(), "{kind}: {}", stderr(&output));
        let svg = stdout(&output);
        assert!(
            svg.contains(&format!("<title>backoff-lab: {title}</title>")),
            "{kind}"
        );
        assert!(
            svg.contains("<desc>") && !svg.contains("<desc></desc>"),
            "{kind}"
        );
    }
}

/// `presets --format json` wrote one camelCase key (`params.thenEvery`) among snake_case ones
/// and the attempts of `params` as `14.0` beside a top-level `14`; its CSV wrote gRPC's give-up
/// time with float noise (`112.86579456000007`).
#[test]
fn presets_json_keys_are_snake_case_and_the_csv_is_rounded() {
    let text = stdout(&run(&["presets", "--format", "json"]));
    assert!(!text.contains("thenEvery"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let azure = json
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "azure-event-grid")
        .unwrap();
    assert_eq!(azure["params"]["then_every"], 43_200.0);
    for preset in json.as_array().unwrap() {
        assert_eq!(preset["params"]["attempts"], preset["attempts"], "{preset}");
        assert!(preset["params"]["attempts"].is_u64(), "{preset}");
    }
    let csv = stdout(&run(&["presets", "--format", "csv"]));
    assert!(csv.contains("\ngrpc,10,112.86579456,https://"), "{csv}");
}

#[test]
fn presets_list_and_apply_with_flags_overriding() {
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&run(&["presets", "--format", "json"]))).unwrap();
    let give_up = |name: &str| {
        json.as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .map(|p| p["give_up_text"].clone())
    };
    assert_eq!(give_up("svix"), Some("27 h 35 min 5 s".into()));
    assert_eq!(give_up("standard-webhooks"), Some("75 h 35 min 5 s".into()));
    assert_eq!(json.as_array().unwrap().len(), 7);
    assert!(json
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["source"].as_str().unwrap().starts_with("https://")));
    let svix = stdout(&run(&["schedule", "--preset", "svix", "--format", "json"]));
    let svix: serde_json::Value = serde_json::from_str(&svix).unwrap();
    assert_eq!(svix["give_up_s"], 99_305.0);
    assert_eq!(svix["rows"].as_array().unwrap().len(), 8);
    // A flag overrides the preset: the article with a 1 h cap.
    let shorter: serde_json::Value = serde_json::from_str(&stdout(&run(&[
        "schedule", "--preset", "article", "--cap", "1h", "--format", "json",
    ])))
    .unwrap();
    assert_eq!(shorter["cap_s"], 3_600.0);
    assert_eq!(shorter["rows"].as_array().unwrap().len(), 14);
    // A cap over a preset that lists its gaps cuts them: Svix's 2 h, 5 h, 10 h, 10 h become 1 h
    // each (5 s + 5 min + 30 min + 4 h = 16,505 s), instead of a formula from its first gap.
    let cut: serde_json::Value = serde_json::from_str(&stdout(&run(&[
        "schedule", "--preset", "svix", "--cap", "1h", "--format", "json",
    ])))
    .unwrap();
    let gaps: Vec<f64> = cut["rows"].as_array().unwrap()[1..]
        .iter()
        .map(|row| row["gap_s"].as_f64().unwrap())
        .collect();
    assert_eq!(
        gaps,
        [5.0, 300.0, 1_800.0, 3_600.0, 3_600.0, 3_600.0, 3_600.0]
    );
    assert_eq!(cut["give_up_s"], 16_505.0);
    refused(
        &["schedule", "--preset", "svix", "--base", "10s"],
        "error: --base must be left out with --preset svix, a list of gaps with no base or multiplier",
    );
    refused(
        &[
            "jitter",
            "--preset",
            "standard-webhooks",
            "--multiplier",
            "2",
        ],
        "error: --multiplier must be left out with --preset standard-webhooks",
    );
    // Flags that only another flag's rule reads are refused without it, never ignored.
    refused(
        &[
            "jitter", "--preset", "article", "--mode", "full", "--factor", "0.5",
        ],
        "error: --factor must be given only with --mode proportional",
    );
    // A misspelt mode is the mode's error, not the factor's.
    refused(
        &[
            "jitter",
            "--preset",
            "article",
            "--mode",
            "Proportional",
            "--factor",
            "0.3",
        ],
        "error: --mode must be one of none, full, equal, decorrelated, proportional",
    );
    refused(
        &[
            "jitter",
            "--preset",
            "article",
            "--mode",
            "full",
            "--percentile",
            "50",
        ],
        "error: --percentile must be given only with --deadline",
    );
    refused(
        &["schedule", "--preset", "article", "--then-every", "1h"],
        "error: --then-every must be given only with --gaps or a preset that lists its gaps",
    );
    // Alone, it is refused for itself, not for the formula's missing --base.
    refused(
        &["schedule", "--then-every", "1h", "--attempts", "3"],
        "error: --then-every must be given only with --gaps or a preset that lists its gaps",
    );
    refused(
        &[
            "schedule",
            "--gaps",
            "5s,1m",
            "--cap",
            "30s",
            "--attempts",
            "4",
        ],
        "error: --cap must be left out with --gaps (a list of gaps is used as written), got 30s",
    );
    // The storm's fixed policy reads none of the backoff policy's flags.
    refused(
        &["storm", "--policy", "fixed", "--base", "30s"],
        "error: --base must be given only with the exponential policy (the fixed policy retries every interval), got 30s",
    );
    refused(
        &["survival", "--engine", "arithmetic"],
        "error: --engine must be auto, discrete or fluid for a survival map",
    );
    // A map's cells set their own traffic (through the outage and the hour after it).
    refused(
        &["survival", "--traffic", "5m"],
        "error: --traffic must be left out of a survival map (each cell's traffic lasts through \
         its outage and the hour after it), got 5m",
    );
    refused(
        &["figure", "survival", "--traffic", "5m"],
        "error: --traffic must be left out of figure survival (only figure storm reads it), got 5m",
    );
    refused(
        &["schedule", "--preset", "svix", "--cap", "0"],
        "error: --cap must be a duration greater than 0 s",
    );
    let output = run(&["schedule", "--preset", "stripe"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output)
        .starts_with("error: --preset must be one of article, svix, standard-webhooks"));
    // Explicit gaps from the command line, with a tail.
    let explicit: serde_json::Value = serde_json::from_str(&stdout(&run(&[
        "schedule",
        "--gaps",
        "10s,1m",
        "--then-every",
        "1h",
        "--give-up",
        "3h",
        "--format",
        "json",
    ])))
    .unwrap();
    assert_eq!(explicit["give_up_s"], 70.0 + 3.0 * 3_600.0);
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
    // Unjittered, nothing is drawn, but the count is the same (the cheap run of the formats).
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

#[test]
fn work_beyond_the_limits_is_refused_before_it_starts_with_the_js_apis_messages() {
    // The same texts as the JS API's and the page's (tests/browser.rs, the e2e tests).
    let cases: [(&[&str], &str); 3] = [
        (
            &["jitter", "--samples", "1000000", "--attempts", "10000"],
            "error: --samples must be at most 200020 for a schedule of 10000 attempts (samples × retries at most 2000000000 drawn gaps), got 1000000",
        ),
        (
            &["herd", "--deliveries", "10000000", "--attempts", "10000"],
            "error: --deliveries must be at most 50005 for a schedule of 10000 attempts (deliveries × 39996 at most 2000000000 draws: a herd's delivery with full jitter costs 39996), got 10000000",
        ),
        (
            &["storm", "--arrivals", "1000/s", "--traffic", "2h"],
            "error: --traffic must be at most 1000000000 attempts at worst for the discrete engine",
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

/// Refusals name the flag that was given and never read two different values alike (all from
/// an outside review).
#[test]
fn refusals_name_the_flag_given_and_its_value_as_given() {
    refused(
        &["jitter", "--preset", "article", "--deadline", "400d"],
        "error: --deadline must be a duration greater than 0 s and at most 365 days, got 400 days",
    );
    refused(
        &["figure", "staleness", "--compare", "bogus"],
        "error: --compare must be one of article, svix",
    );
    refused(
        &["schedule", "--preset", "article", "--give-up", "365.001d"],
        "error: --give-up must be a duration greater than 0 s and at most 365 days, got 365 days 1 min 26.4 s",
    );
    refused(
        &["schedule", "--preset", "article", "--cap", "5M"],
        "error: --cap must be a duration such as 30s, 5m, 4.5min, 3h or 1d (M is a month",
    );
    refused(
        &["solve-cap", "--base", "30s", "--multiplier", "3", "--attempts", "3", "--give-up", "121s"],
        "error: --give-up must be at most 2 min, what 3 attempts reach with a 30 s base and ×3 even uncapped (or more attempts or a larger base or multiplier), got 2 min 1 s",
    );
    // A storm of no deliveries (a batch of none, a rate too slow for its traffic) is refused,
    // not reported as "0 of 0 deliveries delivered".
    refused(
        &["storm", "--batch", "0"],
        "error: --batch must be a whole number from 1 to 10000000, got 0",
    );
    refused(
        &["storm", "--arrivals", "0.0001/s", "--traffic", "30m"],
        "error: --arrivals must be a rate that brings at least one delivery during the traffic (at least 1 per 30 min), got 0.0001/s",
    );
    refused(
        &["storm", "--traffic", "0"],
        "error: --traffic must be a duration of at least 1 s, or a batch: a storm needs deliveries, got 0 s without a batch",
    );
    // A map's cells have their own traffic: `figure survival` refuses what `survival` does, no
    // more (it refused a rate too slow for the storm's 2 h, which no cell has).
    let slow = ["--arrivals", "0.0001/s", "--steps", "3x2"];
    assert_eq!(
        stderr(&run(&[&["figure", "survival"][..], &slow].concat())),
        stderr(&run(&[&["survival"][..], &slow].concat())),
    );
    // An uncapped gap beyond any count of days is written in years.
    let week = stdout(&article(&["--give-up", "1w"]));
    assert!(
        week.contains("Uncapped, the gap before attempt 62 alone would be 4.0e22 years."),
        "{week}"
    );
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
}

fn solve_cap(base: &str, multiplier: &str, attempts: &str, give_up: &str) -> String {
    let output = run(&[
        "solve-cap",
        "--base",
        base,
        "--multiplier",
        multiplier,
        "--attempts",
        attempts,
        "--give-up",
        give_up,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output)
}

/// The cap cannot go below the base: when even that overshoots the deadline, `solve-cap` says
/// where the attempts land (14 attempts at a 30 s base land at 6.5 min, not at 100 s), and
/// names the counts that do reach it: 3 attempts (30 s + 90 s uncapped) to 4 (3 × 30 s at the
/// base), not "fewer attempts" in general.
#[test]
fn solve_cap_says_when_even_the_base_overshoots() {
    assert_eq!(
        solve_cap("30s", "3", "14", "100"),
        "A cap of 30 s (30 s), the smallest there is (the base), makes 14 attempts reach \
         6.5 min, past the 100 s asked: 3 or 4 attempts reach it, as does a shorter base.\n"
    );
}

/// Two attempts cannot become fewer (one attempt gives up at 0 s, and `solve-cap` takes 2 to
/// 10000): only a shorter base reaches a deadline the base overshoots. It said "fewer attempts
/// or a shorter base reach it".
#[test]
fn solve_cap_suggests_only_what_reaches_the_deadline() {
    let said = solve_cap("30s", "3", "2", "10s");
    assert!(
        said.ends_with("past the 10 s asked: a shorter base reaches it.\n"),
        "{said}"
    );
    // 2 attempts: 30 s uncapped, short of 100 s; 4 attempts: 3 × 30 s at the base; 5 overshoot.
    let said = solve_cap("30s", "1", "14", "90s");
    assert!(
        said.ends_with("past the 90 s asked: 4 attempts reach it, as does a shorter base.\n"),
        "{said}"
    );
    // Each count named is one the command answers with a cap that lands on the deadline.
    for attempts in ["3", "4"] {
        let said = solve_cap("30s", "3", attempts, "100");
        assert!(
            said.contains(&format!("makes {attempts} attempts reach 100 s.")),
            "{said}"
        );
    }
}

/// Caps below a second were rounded to whole milliseconds: 1.5 µs read `0 s (0.000 s)`, 1.5 ms
/// `0.002 s` and 1.4 ms `0.001 s`. A cap of a year read `8760 h` beside a deadline of
/// `365 days`.
#[test]
fn solve_cap_writes_the_cap_right_at_every_scale() {
    for ((base, multiplier, attempts, give_up), said) in [
        (
            ("1us", "2", "3", "2.5us"),
            "A cap of 0.0015 ms (0.0000015 s) makes 3 attempts reach 0.0025 ms.\n",
        ),
        (
            ("1ms", "2", "3", "2.5ms"),
            "A cap of 1.5 ms (0.0015 s) makes 3 attempts reach 2.5 ms.\n",
        ),
        (
            ("1ms", "2", "3", "2.4ms"),
            "A cap of 1.4 ms (0.0014 s) makes 3 attempts reach 2.4 ms.\n",
        ),
        (
            ("365d", "1", "2", "365d"),
            "A cap of 365 days (31536000 s) makes 2 attempts reach 365 days.\n",
        ),
        (
            ("1h", "3", "10", "200d"),
            "A cap of 77 days 5 h 30 min (6672600 s) makes 10 attempts reach 200 days.\n",
        ),
    ] {
        assert_eq!(solve_cap(base, multiplier, attempts, give_up), said);
    }
}

/// The sizing's sentence writes the share of deliveries as the percentile gives it: close to
/// 100 in words (0.001%, not 0%), and a fractional one with its decimals (a 50.5th percentile
/// keeps 49.5% trying; it read "50%").
#[test]
fn the_deadline_sizing_writes_the_share_as_given() {
    for (percentile, said) in [
        (
            "99.999",
            "To keep 0.001% of deliveries trying until 24 h, the schedule needs 16 attempts.",
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
/// has no batch); giving one is still refused by name, not as an unknown flag.
#[test]
fn survival_help_leaves_out_the_flags_a_map_refuses() {
    let help = stdout(&run(&["survival", "--help"]));
    assert!(help.contains("--arrivals"), "{help}");
    for flag in ["--traffic", "--batch", "--batch-at"] {
        assert!(!help.contains(flag), "{flag} in {help}");
    }
    assert!(stdout(&run(&["storm", "--help"])).contains("--batch-at"));
    let refused = run(&["survival", "--traffic", "1h"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).starts_with("error: --traffic must be left out of a survival map"),
        "{}",
        stderr(&refused)
    );
}

/// `figure --help` says the seed is 42 unless given, as the page's and the storm's is: a
/// jittered figure made without `--seed` is the one made with `--seed 42`, and says so (the
/// distribution, herd and staleness figures drew with seed 0).
#[test]
fn a_figure_without_a_seed_draws_with_the_documented_default() {
    let help = stdout(&run(&["figure", "--help"]));
    assert!(help.contains("(default 42)"), "{help}");
    for (kind, extra) in [
        ("distribution", &["--samples", "2000"][..]),
        ("herd", &[][..]),
        ("staleness", &["--preset", "article", "--mode", "full"][..]),
    ] {
        let figure = |seed: &[&str]| {
            let output = run(&[&["figure", kind][..], extra, seed].concat());
            assert!(output.status.success(), "{kind}: {}", stderr(&output));
            stdout(&output)
        };
        let default = figure(&[]);
        assert_eq!(default, figure(&["--seed", "42"]), "{kind}");
        assert_ne!(default, figure(&["--seed", "7"]), "{kind}: the seed draws");
        assert!(default.contains("seed 42)"), "{kind}: {default}");
    }
    for (kind, extra) in [
        ("timeline", &[][..]),
        ("storm", &["--policy", "fixed"][..]),
        ("staleness", &["--mode", "none"][..]),
    ] {
        let output = run(&[&["figure", kind][..], extra].concat());
        assert!(
            output.status.success(),
            "{kind} {extra:?}: {}",
            stderr(&output)
        );
    }
}
