//! What every run asserts: exit 0 or 2, one line of error naming a flag that exists, output
//! for a success, numbers not negative, no run slower than [`crate::running::SLOW`] unnoticed.

use crate::prelude::*;

/// Panics found by fuzzing and not yet fixed (each reproduced by an `#[ignore]`d test below):
/// a run that exits 101 with one of these on stderr is printed as `KNOWN` and tolerated.
pub(crate) const KNOWN_PANICS: &[&str] = &[];

/// With `FUZZ_STRICT` set, known findings fail the property too (which then writes its seed
/// to the regressions file).
pub(crate) fn strict() -> bool {
    std::env::var_os("FUZZ_STRICT").is_some()
}

/// Every number in a JSON value, with its path.
pub(crate) fn numbers(value: &serde_json::Value, path: String, found: &mut Vec<(String, f64)>) {
    match value {
        serde_json::Value::Number(n) => found.push((path, n.as_f64().unwrap_or(f64::NAN))),
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                numbers(item, format!("{path}[{i}]"), found);
            }
        }
        serde_json::Value::Object(map) => {
            for (key, item) in map {
                numbers(item, format!("{path}.{key}"), found);
            }
        }
        _ => {}
    }
}

/// Fields a refusal may name that are no flag of its command: none so far.
pub(crate) const NOT_FLAGS: &[&str] = &[];

pub(crate) fn check(args: &[OsString], run: &Run) -> Result<(), TestCaseError> {
    let shown: Vec<String> = args
        .iter()
        .map(|a| {
            let a = a.to_string_lossy();
            if a.chars().count() > 60 {
                format!(
                    "{}… ({} chars)",
                    a.chars().take(40).collect::<String>(),
                    a.chars().count()
                )
            } else {
                a.into_owned()
            }
        })
        .collect();
    if std::env::var_os("FUZZ_STATS").is_some() {
        let error = run
            .stderr
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(50)
            .collect::<String>();
        eprintln!(
            "TALLY {} {:?} {error}",
            shown.first().map_or("", |s| s.as_str()),
            run.code
        );
    }
    if run.took > SLOW {
        eprintln!("SLOW {:.2?}: {shown:?}", run.took);
    }
    match run.code {
        Some(0) => {
            prop_assert!(
                !run.stdout.is_empty(),
                "{:?}: exit 0 and nothing printed",
                shown
            );
            let text = |a: &OsString| a.to_string_lossy().into_owned();
            let json = args
                .windows(2)
                .any(|w| text(&w[0]) == "--format" && text(&w[1]) == "json")
                || args.iter().any(|a| text(a) == "--format=json");
            if json
                && !args
                    .iter()
                    .any(|a| matches!(text(a).as_str(), "--help" | "-h" | "--version" | "-V"))
            {
                if let Ok(value) = serde_json::from_str::<serde_json::Value>(&run.stdout) {
                    let mut found = Vec::new();
                    numbers(&value, String::new(), &mut found);
                    for (path, n) in found {
                        prop_assert!(n >= 0.0, "{:?}: {} is {}", shown, path, n);
                        prop_assert!(
                            !path.ends_with("_share") || n <= 1.0,
                            "{:?}: {} is {}",
                            shown,
                            path,
                            n
                        );
                    }
                }
            }
        }
        Some(2) => {
            prop_assert!(
                run.stdout.is_empty(),
                "{:?}: exit 2 with output {:?}",
                shown,
                run.stdout
            );
            let lines: Vec<&str> = run.stderr.lines().collect();
            prop_assert_eq!(
                lines.len(),
                1,
                "{:?}: exit 2 with stderr {:?}",
                shown,
                run.stderr
            );
            prop_assert!(
                lines[0].starts_with("error:"),
                "{:?}: {:?}",
                shown,
                lines[0]
            );
            if let Some(rest) = lines[0].strip_prefix("error: --") {
                if let Some((field, _)) = rest.split_once(" must be ") {
                    let command = args.first().map(|a| a.to_string_lossy().into_owned());
                    let flags: Vec<&str> = commands()
                        .iter()
                        .filter(|c| Some(&c.name) == command.as_ref())
                        .flat_map(|c| c.flags.iter().map(|f| f.name.as_str()))
                        .collect();
                    prop_assert!(
                        flags.contains(&field) || NOT_FLAGS.contains(&field),
                        "{:?}: the refusal names --{}, no flag of the command: {:?}",
                        shown,
                        field,
                        lines[0]
                    );
                }
            }
        }
        Some(101) if !strict() && KNOWN_PANICS.iter().any(|k| run.stderr.contains(k)) => {
            eprintln!("KNOWN panic: {shown:?}");
        }
        other => prop_assert!(
            false,
            "{:?}: exit {:?}\nstdout: {:?}\nstderr: {}",
            shown,
            other,
            run.stdout.chars().take(300).collect::<String>(),
            run.stderr
        ),
    }
    Ok(())
}

/// Arguments within the limits by design that still take seconds (jittered staleness of a long
/// schedule draws up to the draw limit; a survival map), skipped so that the suite stays quick. Not findings: a
/// region found slow beyond what the limits allow gets an `#[ignore]`d test below instead.
pub(crate) fn known_slow(args: &[OsString]) -> Option<&'static str> {
    let args: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let value = |flag: &str| -> Option<String> {
        let long = format!("--{flag}");
        let equals = format!("--{flag}=");
        args.iter().enumerate().rev().find_map(|(i, a)| {
            if *a == long {
                args.get(i + 1).cloned()
            } else {
                a.strip_prefix(&equals).map(str::to_string)
            }
        })
    };
    // A survival map runs hundreds of storms: seconds by design, within its work limit
    // (`survival::MAX_MAP_WORK`, tested in src/survival/tests.rs).
    if args.iter().any(|a| a == "survival") {
        return Some("a survival map");
    }
    let staleness = args.iter().any(|a| a == "staleness");
    let unjittered = value("mode").is_some_and(|m| m == "none");
    let many = value("attempts")
        .and_then(|a| a.trim().parse::<f64>().ok())
        .is_some_and(|a| a > 100.0)
        || value("give-up").is_some()
        || value("then-every").is_some()
        || value("preset").is_some();
    (staleness && !unjittered && many).then_some("jittered staleness of a long schedule")
}
