//! `presets` and `--preset`: the list, its formats, and flags that override a preset.

use crate::common::{refused, run, stderr, stdout};

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
    // A jittered preset's give-up time is its gaps as written, and says so (AWS calls it ideal).
    assert_eq!(
        give_up("aws-sdk-standard"),
        Some("3 s without jitter".into())
    );
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
    // Every command that takes a jitter applies the one rule (the core's, as the JS API does).
    for command in [
        &["herd", "--preset", "article", "--mode", "equal"][..],
        &["storm", "--mode", "full"],
        &["staleness", "--preset", "article", "--mode", "full"],
        &["figure", "distribution"],
    ] {
        refused(
            &[command, &["--factor", "0.5"]].concat(),
            "error: --factor must be given only with --mode proportional",
        );
    }
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
         its outage and the hour after it), got \"5m\"",
    );
    refused(
        &["figure", "survival", "--traffic", "5m"],
        "error: --traffic must be left out of figure survival (only figure storm reads it), got 5m",
    );
    refused(
        &["schedule", "--preset", "svix", "--cap", "0"],
        "error: --cap must be a duration from 1 µs",
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
