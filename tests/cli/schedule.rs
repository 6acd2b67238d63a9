//! `schedule` and `solve-cap`: output formats, the JSON contract, refusals naming the flag.

use crate::common::{refused, run, stderr, stdout};
use std::process::Output;

pub(crate) fn article(extra: &[&str]) -> Output {
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
        "A cap of 2 h 59 min 42.858 s (10782.858 s) makes 14 attempts reach 24 h.\n"
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
            "--give-up must be a duration from 1 µs to 365 days, got -5 s",
        ),
        (
            &["--give-up", "soon"],
            "--give-up must be a duration from 1 µs to 365 days, such as 30s, \
             4m30s, 4.5min, 3h or 1d, got \"soon\"",
        ),
        (
            &["--give-up", "400d"],
            "--give-up must be a duration from 1 µs to 365 days, got 400 days",
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
            "--base must be a duration from 1 µs to 365 days, got -5 s",
        ),
        (
            &["--base", "NaN"],
            "--base must be a duration from 1 µs to 365 days, such as",
        ),
        (
            &["--multiplier", "0.5"],
            "--multiplier must be a number from 1 to 1000, got 0.5",
        ),
        (
            &["--multiplier", "inf"],
            "--multiplier must be a number from 1 to 1000, got Infinity",
        ),
        (
            &["--cap", "10s"],
            "--cap must be a duration of at least the base (30 s) and at most 365 days, got 10 s",
        ),
        (
            &["--base", "abc"],
            "--base must be a duration from 1 µs to 365 days, such as 30s, \
             4m30s, 4.5min, 3h or 1d, got \"abc\"",
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
        refused(&args, &format!("error: {expected}"));
    }
}

/// Text that is no duration is told the flag's range, as a number out of it is: it was told
/// "a duration such as 30s, …" alone (outside product review: `--tolerance 1e400`).
#[test]
fn text_that_is_no_duration_is_told_the_range() {
    let policy = ["--base", "30s", "--multiplier", "3", "--cap", "3h"];
    let span = "a duration from 1 µs to 365 days, such as 30s, 4m30s, 4.5min, 3h or 1d";
    let cases: &[(&[&str], &str, String)] = &[
        (&["schedule", "--attempts", "5"], "--base", span.into()),
        (&["schedule", "--attempts", "5"], "--window", span.into()),
        (&["schedule"], "--give-up", span.into()),
        (
            &["schedule", "--attempts", "5"],
            "--cap",
            "a duration of at least the base (30 s) and at most 365 days, such as 30s".into(),
        ),
        (&["jitter", "--attempts", "5"], "--deadline", span.into()),
        (
            &["staleness", "--attempts", "5", "--mode", "none"],
            "--tolerance",
            span.into(),
        ),
        (
            &["staleness", "--attempts", "5", "--mode", "none"],
            "--outage",
            span.into(),
        ),
        (
            &[
                "storm",
                "--policy",
                "exponential",
                "--attempts",
                "5",
                "--engine",
                "fluid",
            ],
            "--retry-after",
            "a duration from 1 µs to 1 day, such as 30s".into(),
        ),
        (
            &["storm", "--engine", "fluid"],
            "--latency",
            "a duration from 0 s to less than the timeout, such as 30s".into(),
        ),
        (
            &["storm", "--engine", "fluid"],
            "--timeout",
            "a duration from 1 µs to 1 h, such as 30s".into(),
        ),
        (
            &["storm", "--engine", "fluid", "--budget", "10"],
            "--budget-window",
            "a whole number of seconds from 1 s to 1 h, such as 30s".into(),
        ),
    ];
    // solve-cap reads no cap; a preset's cap cuts its listed gaps; a base out of its range is
    // refused before the cap's range is written from it ("at least the base (400 days) and at
    // most 365 days").
    let solve = "solve-cap --base 30s --multiplier 3 --attempts 14 --give-up abc";
    let preset = "schedule --preset svix --attempts 5 --cap 1e400";
    let far_base = "schedule --base 400d --multiplier 3 --cap abc --attempts 3";
    for (line, expected) in [
        (
            solve,
            format!("error: --give-up must be {span}, got \"abc\""),
        ),
        (
            preset,
            format!("error: --cap must be {span}, got \"1e400\""),
        ),
        (
            far_base,
            "error: --base must be a duration from 1 µs".to_string(),
        ),
    ] {
        refused(&line.split(' ').collect::<Vec<_>>(), &expected);
    }
    for (command, flag, range) in cases {
        let mut args: Vec<&str> = command.to_vec();
        // The policy's own value of the flag under test left out.
        for pair in policy.chunks(2).filter(|pair| pair[0] != *flag) {
            args.extend(pair);
        }
        args.extend([*flag, "1e400"]);
        let output = run(&args);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
        let expected = format!("{flag} must be {range}");
        assert!(err.contains(&expected), "{args:?}: {err}");
        assert!(err.trim_end().ends_with("got \"1e400\""), "{args:?}: {err}");
    }
}

#[test]
fn help_shows_examples() {
    let output = run(&["schedule", "--help"]);
    assert!(output.status.success());
    assert!(stdout(&output)
        .contains("backoff-lab schedule --base 30s --multiplier 3 --cap 3h --attempts 14"));
}

/// Refusals name the flag that was given and never read two different values alike (all from
/// an outside review).
#[test]
fn refusals_name_the_flag_given_and_its_value_as_given() {
    refused(
        &["jitter", "--preset", "article", "--deadline", "400d"],
        "error: --deadline must be a duration from 1 µs to 365 days, got 400 days",
    );
    refused(
        &["figure", "staleness", "--compare", "bogus"],
        "error: --compare must be one of article, svix",
    );
    refused(
        &["schedule", "--preset", "article", "--give-up", "365.001d"],
        "error: --give-up must be a duration from 1 µs to 365 days, got 365 days 1 min 26.4 s",
    );
    refused(
        &["schedule", "--preset", "article", "--cap", "5M"],
        "error: --cap must be a duration of at least the base (30 s) and at most 365 days, such as 30s, 5m, 4.5min, 3h or 1d (M is a month",
    );
    refused(
        &["solve-cap", "--base", "30s", "--multiplier", "3", "--attempts", "3", "--give-up", "121s"],
        "error: --give-up must be at most 2 min, what 3 attempts reach with a 30 s base and ×3 even uncapped (or more attempts, a larger base or a larger multiplier), got 2 min 1 s",
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
        "error: --traffic must be a duration of at least 1 s (rounded to whole seconds), or a batch: a storm needs deliveries, got 0 s without a batch",
    );
    // As typed, not its whole seconds.
    refused(
        &["storm", "--traffic", "0.4s"],
        "error: --traffic must be a duration of at least 1 s (rounded to whole seconds), or a batch: a storm needs deliveries, got 400 ms without a batch",
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

pub(crate) fn solve_cap(base: &str, multiplier: &str, attempts: &str, give_up: &str) -> String {
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
        "A cap of 30 s, the smallest there is (the base), makes 14 attempts reach \
         6.5 min, past the 100 s asked: with 3 or 4 attempts it can be reached, and with 14 a \
         shorter base reaches it.\n"
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
        said.ends_with(
            "past the 90 s asked: with 4 attempts it can be reached, and with 14 a shorter base \
             reaches it.\n"
        ),
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

/// The help said which flags exist but not which a policy needs, and `figure <kind> --help` is
/// `figure --help`: they now say what a policy is made of and which flags each chart reads
/// (outside help review). Each kind named there refuses a flag it does not read.
#[test]
fn help_says_what_a_policy_needs_and_which_flags_each_figure_reads() {
    let one_line = |command: &[&str]| {
        stdout(&run(command))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    for command in ["schedule", "jitter", "herd", "staleness"] {
        let help = one_line(&[command, "--help"]);
        assert!(
            help.contains("--base, --multiplier and --cap, or --gaps (with --then-every), and --attempts or --give-up"),
            "{command}: {help}"
        );
    }
    let figure = one_line(&["figure", "--help"]);
    for kind in [
        "timeline",
        "distribution",
        "herd",
        "storm",
        "staleness",
        "survival",
    ] {
        assert!(figure.contains(&format!("{kind} the ")), "{kind}: {figure}");
    }
    let unread = run(&["figure", "timeline", "--deliveries", "5"]);
    assert!(stderr(&unread).contains("only figure herd reads it"));
}

/// A misspelt flag was told only "unexpected argument" (outside SRE review): clap's suggestion,
/// in the part of its message the one line leaves out, is said; so is what to do about a value
/// split by a space.
#[test]
fn a_misspelt_flag_is_told_the_flag_meant() {
    let refusal = |args: &[&str]| stderr(&run(args)).trim().to_string();
    assert_eq!(
        refusal(&["storm", "--attemps", "5"]),
        "error: unexpected argument '--attemps' found (did you mean --attempts?)"
    );
    assert_eq!(
        refusal(&["storm", "--zzz", "5"]),
        "error: unexpected argument '--zzz' found (--help lists the flags)"
    );
    assert_eq!(
        refusal(&["schedule", "--preset", "article", "--cap", "3", "hours"]),
        "error: unexpected argument 'hours' found (a value with a space goes in quotes, such as '90 s')"
    );
    // An unknown command is told the commands there are (clap's list was left out).
    assert_eq!(
        refusal(&["bogus"]),
        "error: unrecognized subcommand 'bogus' (the commands: schedule, solve-cap, jitter, \
         presets, herd, staleness, survival, storm, figure)"
    );
}

/// Output that cannot be written (a full disk) is an error, said and exited with 1: a figure
/// lost to `/dev/full` exited 0 without a word (outside review). A closed pipe is not.
#[cfg(target_os = "linux")]
#[test]
fn output_that_cannot_be_written_is_an_error() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_backoff-lab"))
        .args(["schedule", "--preset", "article"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: the output could not be written: No space left on device (os error 28)\n"
    );
}

/// A value the argument parser refuses is cut as every refusal cuts one: `--format` given
/// 100,000 characters made a 100 kB message (outside review).
#[test]
fn a_long_value_the_parser_refuses_is_cut_short() {
    let long = "x".repeat(100_000);
    let said = stderr(&run(&["schedule", "--format", &long]));
    assert_eq!(
        said.trim_end(),
        format!(
            "error: invalid value \"{}…\" (100,000 characters) for '--format <FORMAT>' [possible values: table, markdown, csv, json]",
            "x".repeat(40)
        )
    );
    // An argument or a command it does not know, too.
    let said = stderr(&run(&["schedule", &long]));
    assert!(
        said.starts_with("error: unexpected argument \"xxxx"),
        "{}",
        &said[..80]
    );
    assert!(said.len() < 300, "{} bytes", said.len());
    let said = stderr(&run(&[&long]));
    assert!(said.len() < 300, "{} bytes", said.len());
}

/// A command without its policy is told every flag it lacks at once, not one per run.
#[test]
fn a_bare_command_names_every_missing_flag_at_once() {
    let all = "--base must be given (as must --multiplier, --cap and --attempts or --give-up; \
               or name a --preset that sets them, or list --gaps), got nothing";
    for command in ["schedule", "jitter", "herd", "staleness"] {
        refused(&[command], &format!("error: {all}"));
    }
    refused(
        &["jitter", "--base", "1s", "--samples", "0"],
        "error: --multiplier must be given (as must --cap and --attempts or --give-up; or name \
         a --preset that sets them, or list --gaps), got nothing",
    );
    refused(
        &[
            "schedule",
            "--base",
            "1s",
            "--multiplier",
            "2",
            "--give-up",
            "1h",
        ],
        "error: --cap must be given (or taken from a --preset, or left out with --gaps), got nothing",
    );
    refused(
        &["schedule", "--cap", "1h", "--attempts", "3"],
        "error: --base must be given (as must --multiplier; or name a --preset that sets \
         them, or list --gaps), got nothing",
    );
}
