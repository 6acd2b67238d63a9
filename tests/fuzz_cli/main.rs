//! Fuzz-style property test of the command line: the built binary run with argument vectors
//! made of its subcommands and their flags (read from its own `--help`, so a new command or
//! flag is fuzzed as soon as it exists) with plausible, hostile and garbled values.
//!
//! Every run: exits 0 or 2 (never 101, a panic, nor a signal); an exit 2 prints exactly one
//! line on stderr starting with `error:` and nothing on stdout, and a refusal of the core
//! (`error: --field must be ...`) names a flag that exists; an exit 0 prints something (JSON
//! whose numbers are not negative with `--format json`, SVG from `figure`); a run slower than
//! [`running::SLOW`] is printed as `SLOW` (a finding), one slower than [`running::KILLED`] is
//! killed and fails.
//!
//! One module per step: `commands` (read from `--help`), `values` (the argument vectors),
//! `running`, `checks`. Cases that once failed are kept in `main.proptest-regressions` beside
//! this file and as explicit `#[ignore]`d tests in `regressions` (found by fuzzing, not yet
//! fixed in `src/`).
//!
//! Environment: `FUZZ_SCALE=n` runs n times the cases; `FUZZ_STRICT=1` lets the known findings
//! fail their properties; `FUZZ_STATS=1` prints one `TALLY` line per case (how far it got).
#![cfg(not(target_arch = "wasm32"))]

mod checks;
mod commands;
mod regressions;
mod running;
mod values;

/// What every module of the command-line fuzzing uses.
mod prelude {
    pub(crate) use crate::checks::*;
    pub(crate) use crate::commands::*;
    pub(crate) use crate::running::*;
    pub(crate) use crate::values::*;
    pub(crate) use proptest::prelude::*;
    pub(crate) use proptest::test_runner::TestCaseError;
    pub(crate) use std::ffi::OsString;
    pub(crate) use std::io::Read;
    pub(crate) use std::process::{Command, Stdio};
    pub(crate) use std::sync::OnceLock;
    pub(crate) use std::time::{Duration, Instant};
}

use prelude::*;

proptest! {
    #![proptest_config(ProptestConfig {
        // `FUZZ_SCALE` multiplies the cases for a longer run.
        cases: 200 * std::env::var("FUZZ_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1),
        max_shrink_time: 120_000,
        // Seeds beside this file: proptest's default looks in the crate root's folder, which
        // this `main.rs` makes `tests/proptest-regressions/`.
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        ..ProptestConfig::default()
    })]

    /// Any argument vector: a result, or one line of error; never a panic, a signal or a hang.
    #[test]
    fn any_arguments_give_a_result_or_one_line_of_error(args in argv()) {
        if let Some(why) = known_slow(&args) {
            if std::env::var_os("FUZZ_STATS").is_some() {
                eprintln!("TALLY skipped {why}");
            }
            return Ok(());
        }
        let run = run(&args)?;
        check(&args, &run)?;
    }
}

#[test]
fn every_command_was_found_with_flags() {
    let names: Vec<&str> = commands().iter().map(|c| c.name.as_str()).collect();
    for expected in [
        "schedule",
        "solve-cap",
        "jitter",
        "storm",
        "presets",
        "figure",
        "herd",
    ] {
        assert!(names.contains(&expected), "{expected} not in {names:?}");
    }
    let figure = commands().iter().find(|c| c.name == "figure").unwrap();
    assert!(figure
        .positional
        .as_ref()
        .is_some_and(|p| p.contains(&"distribution".to_string())));
    assert!(figure
        .flags
        .iter()
        .any(|f| f.name == "width" && f.value.is_some()));
    assert!(figure
        .flags
        .iter()
        .any(|f| f.name == "dark" && f.value.is_none()));
}
