//! What every fuzz case asserts: no panic, one-line errors naming a known field, finite
//! numbers, work refused before it starts (a case slower than [`SLOW`] is a finding).

use crate::prelude::*;

/// A case slower than this is a finding (the limits are meant to refuse big work at once).
pub(crate) const SLOW: Duration = Duration::from_secs(2);

/// Every field name an error message may start with beside the parameters' keys
/// ([`backoff_lab::PARAMETER_KEYS`]): the few inputs of the page, the charts and the staleness
/// questions.
pub(crate) const OTHER_FIELDS: &[&str] = &[
    // The page and the charts.
    "view",
    "scale",
    "preset",
    // The core's name for the simulated span (the page shows it next to `outage`).
    "horizon",
    // Staleness (the page's outage to read off is refused by its own name).
    "tolerance",
    "max-lag",
    "read-outage",
    "outages",
    // The survival map's axes (`outages` above is shared with staleness).
    "headroom",
    "steps",
    // A result handed back to be drawn (`drawView`, `viewSvg`), and one survival-map row of it
    // (`computed.rows[i]`) that does not fit the map's plan.
    "computed",
    "row",
];

/// Numbers of a result that may legitimately be below zero, by their field name. (None so far:
/// counts, rates, times, lags, gaps, shares and multiples are all at least 0.)
pub(crate) fn may_be_negative(_path: &str) -> bool {
    false
}

pub(crate) fn check_message(what: &str, message: &str) -> Result<(), TestCaseError> {
    prop_assert!(
        !message.trim().is_empty(),
        "{}: an empty error message",
        what
    );
    prop_assert!(
        !message.contains('\n'),
        "{}: a message of several lines: {:?}",
        what,
        message
    );
    if let Some((field, _)) = message.split_once(" must be ") {
        prop_assert!(
            backoff_lab::PARAMETER_KEYS.contains(&field) || OTHER_FIELDS.contains(&field),
            "{}: the message names no known field: {:?}",
            what,
            message
        );
    }
    Ok(())
}

/// An error of the core: one line; a range or duration error names a known field first.
pub(crate) fn check_error(what: &str, error: &Error) -> Result<(), TestCaseError> {
    let message = error.to_string();
    check_message(what, &message)?;
    match error {
        Error::OutOfRange { field, .. } | Error::BadDuration { field, .. } => {
            prop_assert!(
                backoff_lab::PARAMETER_KEYS.contains(field) || OTHER_FIELDS.contains(field),
                "{}: unknown field {:?}: {}",
                what,
                field,
                message
            );
            prop_assert!(
                message.starts_with(&format!("{field} must be ")),
                "{}: {:?} does not start with its field",
                what,
                message
            );
        }
        Error::Unreachable(_) => {}
        Error::Drawing(why) => {
            // Documented, but an SVG string cannot go away: worth a look if it ever happens.
            eprintln!("NOTE {what}: a drawing error: {why}");
        }
    }
    Ok(())
}

/// A page error: one line, about a real setting if about one.
pub(crate) fn check_page_error(what: &str, error: &PageError) -> Result<(), TestCaseError> {
    check_message(what, &error.message)?;
    if let Some(setting) = error.setting {
        prop_assert!(
            Settings::default().iter().any(|(key, _)| key == setting),
            "{}: setting {:?} is no page setting",
            what,
            setting
        );
    }
    Ok(())
}

/// Every number in `value`, finite and (unless exempt) at least 0; and the value serializes as
/// JSON, as the JS API's results do.
pub(crate) fn check_numbers<T: Serialize>(what: &str, value: &T) -> Result<(), TestCaseError> {
    let mut failure: Option<String> = None;
    let mut count = 0usize;
    crate::walk::numbers(value, &mut |path, n| {
        count += 1;
        if failure.is_some() {
            return;
        }
        let share = path.ends_with("_share");
        if !n.is_finite() {
            failure = Some(format!("{what}: {path} is {n}"));
        } else if n < 0.0 && !may_be_negative(path) {
            failure = Some(format!("{what}: {path} is {n} (below 0)"));
        } else if share && n > 1.0 {
            failure = Some(format!("{what}: {path} is {n} (above 1)"));
        }
    })
    .map_err(|e| TestCaseError::fail(format!("{what}: does not serialize: {e}")))?;
    if let Some(failure) = failure {
        return Err(TestCaseError::fail(failure));
    }
    // A result of more numbers than a page would want to copy (one per second of a schedule).
    if count > 2_000_000 {
        eprintln!("BIG {what}: {count} numbers");
    }
    if count < 200_000 {
        serde_json::to_value(value)
            .map_err(|e| TestCaseError::fail(format!("{what}: no JSON: {e}")))?;
    }
    Ok(())
}

pub(crate) fn check<T: Serialize>(
    what: &str,
    result: &Result<T, Error>,
) -> Result<(), TestCaseError> {
    match result {
        Ok(value) => check_numbers(what, value),
        Err(error) => check_error(what, error),
    }
}

/// Runs `f`, printing the input if it took longer than [`SLOW`].
pub(crate) fn timed<T>(what: &str, input: &dyn Debug, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    if took > SLOW {
        eprintln!("SLOW {what} took {took:.2?}: {input:?}");
    }
    out
}

/// Panics found by fuzzing and not yet fixed, each reproduced by an `#[ignore]`d test at the
/// end of this file: a property that meets one prints it as `KNOWN` and goes on, so that the
/// suite stays green while anything else still fails it. Remove an entry once it is fixed.
pub(crate) const KNOWN_PANICS: &[&str] = &[];

/// With `FUZZ_STRICT` set, known findings fail their properties too (which then write their
/// seeds to the regressions file); slow regions stay skipped.
pub(crate) fn strict() -> bool {
    std::env::var_os("FUZZ_STRICT").is_some()
}

/// Runs `f`, turning a panic into a failure unless its message is one of `known`.
pub(crate) fn guarded<T>(
    what: &str,
    known: &[&str],
    f: impl FnOnce() -> Result<T, TestCaseError>,
) -> Result<Option<T>, TestCaseError> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(result) => result.map(Some),
        Err(payload) => {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            if !strict() && known.iter().any(|k| message.contains(k)) {
                eprintln!("KNOWN {what}: {message}");
                Ok(None)
            } else {
                Err(TestCaseError::fail(format!("{what} panicked: {message}")))
            }
        }
    }
}

/// With `FUZZ_STATS` set, one line per case saying how far it got (to tune the generators).
pub(crate) fn tally(what: &str, outcome: &str) {
    if std::env::var_os("FUZZ_STATS").is_some() {
        eprintln!("TALLY {what} {outcome}");
    }
}

pub(crate) fn outcome<T, E: std::fmt::Display>(result: &Result<T, E>) -> String {
    match result {
        Ok(_) => "ok".into(),
        Err(e) => {
            let m = e.to_string();
            match m.split_once(" must be ") {
                Some((field, _)) => format!("err:{field}"),
                None => format!("err:other {}", m.chars().take(60).collect::<String>()),
            }
        }
    }
}
