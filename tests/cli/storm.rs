//! `storm`'s flags as a storm reads them: what its give-up time counts, how its rates count
//! whole, and refusals that name the flag at fault and its range.

use crate::common::{json, refused, run, stderr, stdout};

/// A storm's retries wait for each failure before their gap: `--give-up` there is the number
/// of attempts the schedule makes up to its first at or past that time (a 30 s interval and
/// 1 h: 121 attempts, the last 70 min in), which its help says. It first read "the first
/// attempt at or past this time", as if the storm gave up then, and then "as many attempts as
/// the schedule makes in this time", which counts 4 for 100 s (0, 30, 60 and 90 s) where the
/// storm makes 5.
#[test]
fn storms_give_up_help_says_it_counts_the_schedules_attempts() {
    for command in ["storm", "survival"] {
        let help = stdout(&run(&[command, "--help"]));
        let help: String = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            help.contains(
                "Give up at the schedule's first attempt at or past this time since the first \
                 failure (a storm's retries also wait for each failure, so they span longer)"
            ),
            "{command}: {help}"
        );
    }
    let schedule = stdout(&run(&["schedule", "--help"]));
    assert!(schedule.contains("Give up at the first attempt at or past this time"));
}

/// A give-up time out of its own range is refused as itself (`--give-up 0s` read "--interval
/// must be at least 0 s …, got 30 s"); the fluid engine refuses decorrelated jitter as such
/// whatever the size (10,000 attempts read as a class-seconds limit); an outage is told its
/// whole range (`-1s` read "never negative").
#[test]
fn storm_refusals_name_the_flag_at_fault_and_its_range() {
    let give_up = "error: --give-up must be a duration from 1 µs to 365 days";
    refused(&["storm", "--give-up", "0s"], give_up);
    refused(&["storm", "--interval", "1d", "--give-up", "400d"], give_up);
    refused(
        &["storm", "--interval", "1s", "--give-up", "24h"],
        "error: --interval must be at least 8.6 s to retry for 24 h within 10000 attempts",
    );
    let decorrelated = "error: --engine must be discrete here: the fluid engine needs gaps that \
                        depend only on the attempt number";
    for attempts in ["5", "10000"] {
        refused(
            &[
                "storm",
                "--engine",
                "fluid",
                "--mode",
                "decorrelated",
                "--policy",
                "exponential",
                "--attempts",
                attempts,
            ],
            decorrelated,
        );
    }
    refused(
        &["storm", "--outage", "-1s"],
        "error: --outage must be 0 s or from 0.5 s to 6 days 23 h 59 min 59 s (the storm runs in whole seconds, rounding halves up, and simulates the outage's recovery within its 7 days), got -1 s",
    );
    refused(
        &["storm", "--traffic", "1e300s"],
        "error: --traffic must be a duration from 0 s to 7 days, got 3.2e292 years",
    );
}

/// A refused duration is written as it reads back, not rounded into the range it is refused
/// from ("from 1 s to 1 h, got 1 h" for 3601 s); a retry quota's ratio, gRPC's alone, says so
/// without a quota too.
#[test]
fn refused_values_read_back_as_given() {
    refused(
        &[
            "storm",
            "--breaker-share",
            "50%",
            "--breaker-window",
            "3601s",
        ],
        "error: --breaker-window must be a whole number of seconds from 1 s to 1 h, got 1 h 1 s",
    );
    refused(
        &["storm", "--outage", "7d1s", "--engine", "fluid"],
        "error: --outage must be 0 s or from 0.5 s to 6 days 23 h 59 min 59 s (the storm runs in whole seconds, rounding halves up, and simulates the outage's recovery within its 7 days), got 7 days 1 s",
    );
    refused(
        &["storm", "--retry-quota-ratio", "0.5"],
        "error: --retry-quota-ratio must be given only with --retry-quota grpc",
    );
}

/// A refusal's range holds no value it refuses: "a time within 7 days, got 7 days", and "less
/// than 7 days" of an outage that rounds to 7 days (outside review). The last second in range
/// runs.
#[test]
fn a_refused_value_lies_outside_the_range_it_is_told() {
    refused(
        &["storm", "--engine", "fluid", "--batch", "5", "--batch-at", "7d"],
        "error: --batch-at must be a time before 7 days (at most 6 days 23 h 59 min 59 s: the storm's last second), got 7 days",
    );
    refused(
        &["storm", "--engine", "fluid", "--outage", "6d23h59m59.6s"],
        "error: --outage must be 0 s or from 0.5 s to 6 days 23 h 59 min 59 s (the storm runs in whole seconds, rounding halves up, and simulates the outage's recovery within its 7 days), got 6 days 23 h 59 min 59.6 s",
    );
    for args in [
        &["--batch", "5", "--batch-at", "6d23h59m59s"][..],
        &["--outage", "6d23h59m59s", "--traffic", "60s"][..],
    ] {
        let mut all = vec![
            "storm",
            "--engine",
            "fluid",
            "--policy",
            "fixed",
            "--interval",
            "1h",
        ];
        all.extend_from_slice(args);
        let output = run(&all);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    }
}

/// A budget of -0 is a budget of 0%, not "-0%" (outside review).
#[test]
fn a_budget_of_minus_zero_reads_zero() {
    let output = run(&["storm", "--engine", "fluid", "--budget", "-0"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("held to a budget of 0% of the first attempts"),
        "{text}"
    );
    assert!(!text.contains("-0"), "{text}");
}

/// The article's retry budget of 10% is "1.1× normal traffic"; with the default floor of
/// 0.5 retries a second it peaked at 1.15×, and the floor could be set only in the JS API
/// (outside review). `--budget-floor 0` gives the article's budget; the floor needs a budget.
#[test]
fn a_budget_without_its_floor_is_the_articles_one_point_one() {
    let peak = |extra: &[&str]| {
        let said = stdout(&run(&[&["storm", "--budget", "10%"][..], extra].concat()));
        said.split("attempts peak at ")
            .nth(1)
            .and_then(|rest| rest.split(" normal traffic").next())
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(peak(&["--budget-floor", "0"]), "660 in minute 1, 1.1×");
    assert_eq!(peak(&[]), "690 in minute 1, 1.15×");
    assert_eq!(
        peak(&["--budget-floor", "2/s"]),
        peak(&["--budget-floor", "120/min"])
    );
    refused(
        &["storm", "--budget-floor", "0"],
        "error: --budget-floor must be given only with --budget",
    );
    // The caption states the budget as read: `--budget 0.1` is a tenth of a percent, which it
    // never said (outside SRE review).
    let tenth = stdout(&run(&["storm", "--budget", "0.1", "--budget-floor", "0"]));
    assert!(
        tenth.contains("Retries were held to a budget of 0.1% of the first attempts over 60 s (a held retry waits without spending an attempt). "),
        "{tenth}"
    );
    let default_floor = stdout(&run(&["storm", "--budget", "10%"]));
    assert!(default_floor.contains("over 60 s, plus 0.5 retries a second (a held retry"));
    // Quoted without the float noise of the share (it read "110.00000000000001%").
    refused(
        &["storm", "--budget", "110%"],
        "error: --budget must be 0% or a percentage from 0.00005% to 100% (it runs in whole parts per million), got 110%",
    );
    // A budget under half a part per million would run as none under its own name.
    refused(
        &["storm", "--budget", "0.00001%"],
        "error: --budget must be 0% or a percentage from 0.00005% to 100% (it runs in whole parts per million), got 0.00001%",
    );
    assert!(stdout(&run(&["storm", "--budget", "0.00005%"])).contains("a budget of 0.00005%"));
    // Text that is no percentage is told the same range.
    refused(
        &["storm", "--budget", "ten"],
        "error: --budget must be 0% or a percentage from 0.00005% to 100% (it runs in whole parts per million), such as 10%, got \"ten\"",
    );
    refused(
        &["storm", "--budget", "10", "--budget-floor", "-1"],
        "error: --budget-floor must be a rate from 0 to 10000000 per second, got -1",
    );
}

/// A map's limit on the arrival rate comes from its longest cell: your storm's own when its
/// outage is longer than the map's, and then a shorter outage for the storm is the way out
/// (a 7-day storm outage beside a map of 10 s to 24 h was told "map shorter outages").
#[test]
fn a_maps_rate_limit_names_the_outage_that_sets_it() {
    refused(
        &["survival", "--arrivals", "1000/min", "--outage", "167h"],
        "error: --arrivals must be at most 16 per second for this map: your storm's own cell's \
         traffic lasts 7 days (the outage and the hour after it), and a storm creates at most \
         10000000 deliveries (or a shorter outage for your storm), got 16.6667/s",
    );
    refused(
        &["survival", "--arrivals", "200/s"],
        "error: --arrivals must be at most 111 per second for this map: its longest cell's \
         traffic lasts 25 h (the outage and the hour after it), and a storm creates at most \
         10000000 deliveries (or map shorter outages), got 200/s",
    );
}

/// Every storm flag's `--help` states the range its refusal names (outside help review: several
/// were only in the README and the refusals): each number of the refusal's range is in the
/// flag's help.
#[test]
fn storm_help_states_the_range_each_refusal_names() {
    let help = stdout(&run(&["storm", "--help"]));
    let help_of = |flag: &str| -> String {
        let lines: Vec<&str> = help.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.trim_start().starts_with(&format!("{flag} ")))
            .unwrap_or_else(|| panic!("{flag} in --help"));
        lines[at + 1..]
            .iter()
            .take_while(|l| !l.trim_start().starts_with("--"))
            .copied()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let cases: &[&[&str]] = &[
        &["--arrivals", "-1"],
        &["--traffic=-1s"],
        &["--batch", "-1"],
        &["--batch", "5", "--batch-at=-1s"],
        &["--capacity", "-1"],
        &["--timeout=-1s"],
        &["--outage=-1s"],
        &["--outage-start=-1s"],
        &["--budget", "-1"],
        &["--budget", "10", "--budget-floor", "-1"],
        &["--rate-limit", "-1"],
        &["--pause", "--resume-rate", "-1"],
        &["--retry-after=-1s"],
        &["--retry-after", "5s", "--retry-after-threshold=-1s"],
        &["--retry-quota", "aws", "--retry-quota-tokens", "-1"],
        &["--retry-quota", "grpc", "--retry-quota-tokens", "-1"],
        &["--retry-quota", "grpc", "--retry-quota-ratio", "-1"],
        &["--breaker-failures", "-1"],
        &["--breaker-share", "50%", "--breaker-window=-1s"],
        &["--breaker-share", "50%", "--breaker-min-attempts", "-1"],
        &["--breaker-failures", "5", "--breaker-probes", "-1"],
        &["--breaker-failures", "5", "--breaker-cooldown=-1s"],
    ];
    for case in cases {
        let refusal = stderr(&run(&[&["storm"][..], case].concat()));
        let (flag, range) = refusal
            .strip_prefix("error: ")
            .and_then(|r| r.split_once(" must be "))
            .unwrap_or_else(|| panic!("{case:?}: {refusal}"));
        let range = range.rsplit_once(", got").map_or(range, |(r, _)| r);
        let flag_help = help_of(flag);
        for number in range
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .filter(|n| n.chars().any(|c| c.is_ascii_digit()))
        {
            assert!(
                flag_help.contains(number),
                "{flag}: the refusal's range {range:?} has {number}, its help reads {flag_help:?}"
            );
        }
    }
}

/// `survival --engine discrete` was told "--steps must be …", a flag never given: the map's
/// default steps are not what changed, the engine is (outside SRE review).
#[test]
fn a_discrete_maps_work_limit_names_the_engine_when_the_steps_are_the_default() {
    refused(
        &["survival", "--engine", "discrete"],
        "error: --engine must be fluid or auto for the default 24x16 map: at most 200,000,000 \
         delivery-attempts for the discrete engine",
    );
    refused(
        &["survival", "--engine", "discrete", "--steps", "30x20"],
        "error: --steps must be at most 200,000,000 delivery-attempts for the discrete engine",
    );
}

/// Rates per minute or per hour count whole: 20 a minute for 2 h are 2,400 deliveries and a
/// rate limit of 20/min lets 20 attempts through in a minute (2,399 and 19 when each second's
/// count was cut from the rate rounded to millionths a second), and 3 an hour for 20 min bring
/// the one delivery that the refusal of too slow a rate counts (it had run a storm of none).
#[test]
fn rates_per_minute_and_per_hour_count_whole() {
    let summary = |args: &[&str]| {
        let mut all = vec!["storm", "--format", "json"];
        all.extend_from_slice(args);
        json(&all)
    };
    let arrivals = |report: &serde_json::Value| report["summary"]["arrivals"].as_f64().unwrap();
    assert_eq!(arrivals(&summary(&["--arrivals", "20/min"])), 2_400.0);
    assert_eq!(arrivals(&summary(&["--arrivals", "200/min"])), 24_000.0);
    let one = summary(&["--arrivals", "3/h", "--traffic", "20m"]);
    assert_eq!(
        (arrivals(&one), one["summary"]["delivered"].as_f64()),
        (1.0, Some(1.0))
    );
    let limited = summary(&[
        "--outage",
        "0s",
        "--arrivals",
        "60/min",
        "--rate-limit",
        "20/min",
        "--traffic",
        "5m",
    ]);
    let minutes: Vec<f64> = limited["minutes"]
        .as_array()
        .unwrap()
        .iter()
        .take(5)
        .map(|m| m["attempts"].as_f64().unwrap())
        .collect();
    assert_eq!(minutes, [20.0; 5]);
    // A budget's floor of 20/min lets 20 retries a minute through (it let 19), on both engines.
    for engine in ["discrete", "fluid"] {
        let floored = summary(&[
            "--budget",
            "0",
            "--budget-floor",
            "20/min",
            "--outage",
            "30m",
            "--traffic",
            "10m",
            "--arrivals",
            "1/s",
            "--engine",
            engine,
        ]);
        let retries: Vec<f64> = floored["minutes"].as_array().unwrap()[..8]
            .iter()
            .map(|m| m["retries"].as_f64().unwrap())
            .collect();
        assert_eq!(retries, [20.0; 8], "{engine}");
    }
}

/// `--give-up` in a storm counts the schedule's attempts up to its first at or past the time,
/// as its help says: 100 s of a 30 s interval is 5 attempts (the fifth at 120 s).
#[test]
fn a_storms_give_up_counts_up_to_the_first_attempt_at_or_past_it() {
    let report = json(&[
        "storm",
        "--batch",
        "1",
        "--traffic",
        "0s",
        "--outage",
        "6d",
        "--give-up",
        "100s",
        "--format",
        "json",
    ]);
    assert_eq!(report["summary"]["attempts"].as_f64(), Some(5.0));
}

/// A value that reads as a negative number is a value, refused by its flag with its range (it
/// was "unexpected argument '-1' found").
#[test]
fn a_negative_number_is_a_value_refused_with_its_range() {
    refused(
        &["storm", "--mode", "-1"],
        "error: --mode must be one of none, full, equal, decorrelated, proportional, got \"-1\"",
    );
    refused(
        &["storm", "--retry-quota", "-0"],
        "error: --retry-quota must be aws or grpc, got \"-0\"",
    );
    refused(
        &["schedule", "--preset", "article", "--attempts", "-3"],
        "error: --attempts must be a whole number from 1 to 10000",
    );
}

/// A drain is counted from recovery to the end of the second at whose end the backlog is low,
/// as `drained_at_s` is defined: drained in second 21 after an outage over seconds 0 to 9 is
/// 12 s after recovery (the caption said 11 s, one second short).
#[test]
fn a_drain_is_counted_to_the_end_of_its_second() {
    let report = json(&[
        "storm",
        "--arrivals",
        "2/s",
        "--traffic",
        "20s",
        "--outage",
        "10s",
        "--interval",
        "3s",
        "--attempts",
        "4",
        "--timeout",
        "1s",
        "--capacity",
        "3/s",
        "--latency",
        "100ms",
        "--retry-after",
        "4s",
        "--retry-after-threshold",
        "500ms",
        "--format",
        "json",
    ]);
    let summary = &report["summary"];
    assert_eq!(
        (
            summary["drained_at_s"].as_u64(),
            summary["outage_end_s"].as_u64()
        ),
        (Some(21), Some(10))
    );
    let caption = report["caption"].as_str().unwrap();
    assert!(
        caption.contains("The backlog is gone 12 s after recovery"),
        "{caption}"
    );
}

/// A storm's JSON says what was simulated, defaults filled in: the exponential policy's 24 h
/// give-up at a 10 s base, ×2 and a 60 s cap is 1,443 attempts (its caption reads as one of 14
/// attempts would), and the fixed default's 241 attempts 30 s apart.
#[test]
fn a_storms_json_says_what_was_simulated() {
    let scenario = |args: &[&str]| {
        let mut all = vec![
            "storm",
            "--batch",
            "1",
            "--traffic",
            "0s",
            "--format",
            "json",
        ];
        all.extend_from_slice(args);
        json(&all)["scenario"].clone()
    };
    let long = scenario(&["--base", "10s", "--multiplier", "2", "--cap", "60s"]);
    assert_eq!(long["attempts"].as_u64(), Some(1_443));
    let gaps = long["gaps_s"].as_array().unwrap();
    assert_eq!(gaps.len(), 1_442);
    assert_eq!(
        gaps[..4],
        [10.0, 20.0, 40.0, 60.0].map(serde_json::Value::from)
    );
    let fixed = scenario(&["--budget", "10%", "--pause"]);
    assert_eq!(fixed["attempts"].as_u64(), Some(241));
    assert!(fixed["gaps_s"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g.as_f64() == Some(30.0)));
    assert_eq!(
        (
            fixed["budget_percent"].as_f64(),
            fixed["budget_floor_per_s"].as_f64()
        ),
        (Some(10.0), Some(0.5))
    );
    // The pause's pace, by default the capacity × min(1 s, timeout − latency): 30/s.
    assert_eq!(fixed["resume_rate_per_s"].as_f64(), Some(30.0));
    assert_eq!(
        (fixed["jitter"].as_str(), fixed["rate_limit_per_s"].as_f64()),
        (Some("none"), None)
    );
    // Every bound as data, not prose, and no float noise (a 7% budget read 7.000000000000001).
    let bounded = scenario(&[
        "--budget",
        "7%",
        "--retry-quota",
        "grpc",
        "--breaker-failures",
        "5",
        "--breaker-share",
        "50%",
    ]);
    assert_eq!(bounded["budget_percent"].as_f64(), Some(7.0));
    assert_eq!(
        bounded["retry_quota"],
        serde_json::json!({"kind": "grpc", "max_tokens": 10, "token_ratio": 0.1})
    );
    assert_eq!(
        bounded["breaker"],
        serde_json::json!({
            "failures": 5,
            "share": {"percent": 50, "window_s": 30, "min_attempts": 100},
            "cooldown_s": 30,
            "probes": 1
        })
    );
}

/// A duration refused as written (a month's `M`, a unit twice) is told the flag's range too,
/// and a breaker share is quoted as given (1e-300 read back as 303 characters of zeros).
#[test]
fn refusals_of_text_as_written_name_the_range() {
    refused(
        &["storm", "--traffic", "10M"],
        "error: --traffic must be a duration from 0 s to 7 days, such as 30s, 5m, 4.5min, 3h or \
         1d (M is a month in that notation",
    );
    refused(
        &["storm", "--traffic", "1h 1h"],
        "error: --traffic must be a duration from 0 s to 7 days, with each unit once",
    );
    refused(
        &["storm", "--breaker-share", "1e-300"],
        "error: --breaker-share must be a whole percentage from 1% to 100%, got 1e-300%",
    );
}

/// A map's limit on deliveries counts them as a storm does (rounded): 1388.889/s over a cell's
/// 2 h is 10,000,001 deliveries, refused in the map's own words (a cut count let it through to
/// a storm's refusal of its traffic).
#[test]
fn a_maps_delivery_limit_counts_as_a_storm_does() {
    refused(
        &[
            "survival",
            "--arrivals",
            "1388.889",
            "--outages",
            "10s..1h",
            "--steps",
            "2x2",
        ],
        "error: --arrivals must be at most 1388 per second for this map",
    );
}

/// The README's Retry-After storm has a survival map at the map's defaults: its default
/// headroom axis starts at 2.00× (20 requests within the 1 s threshold at 10 deliveries a
/// second), where `survival --retry-after 60s` had been refused for the row at 1.89×. The map
/// says so; the same axis given lower is refused with the least headroom that runs.
#[test]
fn a_retry_after_map_starts_its_default_headroom_where_the_fluid_engine_runs() {
    let table = stdout(&run(&[
        "survival",
        "--retry-after",
        "60s",
        "--steps",
        "6x4",
    ]));
    let rows: Vec<&str> = table
        .lines()
        .filter(|line| line.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .take(4)
        .map(|line| line.split_whitespace().next().unwrap_or_default())
        .collect();
    assert_eq!(rows, ["20.00×", "9.28×", "4.31×", "2.00×"], "{table}");
    assert!(
        table.contains("Headroom starts at 2.00×, not 1.05×"),
        "{table}"
    );
    refused(
        &[
            "survival",
            "--retry-after",
            "60s",
            "--steps",
            "6x4",
            "--headroom",
            "1.05..10",
        ],
        "error: --headroom must be a low end at which the fluid engine runs every cell, at \
         least 2.00× here (or the discrete engine, on a map within its work limit)",
    );
    // Axes that are no axes are told before the scenario, as they always were.
    refused(
        &["survival", "--steps", "100x100", "--capacity", "abc"],
        "error: --steps must be from 2 to 64 steps on each axis",
    );
}
