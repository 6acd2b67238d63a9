//! Fuzz-style property tests of everything behind the JS API, called natively as the wasm layer
//! calls it (`src/wasm/api.rs`, `charts.rs`, `page.rs`): arbitrary JSON objects as `Params`
//! (every known field with values of every JSON type, unknown keys, extreme numbers, NaN-ish
//! text; and NaN or infinities written into the fields afterwards, as a JavaScript caller can
//! pass them), arbitrary strings as a URL hash, arbitrary settings and mutated computed results
//! for the page's views, and the staleness questions.
//!
//! Every property asserts: no panic; an error's message is one line, and a range error's text
//! before " must be " is the field it names, one the user knows; every number of a result is
//! finite and not negative (see [`may_be_negative`]); work beyond the limits is refused before
//! it starts (a case slower than [`SLOW`] is printed as `SLOW` and listed at the end of its
//! property; run with `--nocapture` to see them).
//!
//! Cases that once failed are kept in `tests/fuzz.proptest-regressions` and as explicit
//! `#[ignore]`d tests at the end of this file (found by fuzzing, not yet fixed in `src/`).
//!
//! Environment: `FUZZ_SCALE=n` runs n times the cases; `FUZZ_STRICT=1` lets the known findings
//! fail their properties; `FUZZ_STATS=1` prints one `TALLY` line per case (how far it got).
#![cfg(not(target_arch = "wasm32"))]

use std::fmt::Debug;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use backoff_lab::chart::{self, ChartOptions};
use backoff_lab::page::{self, Computed, PageError, Settings, View};
use backoff_lab::staleness::{Question, StalenessReport};
use backoff_lab::storm::Memo;
use backoff_lab::{Error, Params, ScheduleReport};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde::Serialize;
use serde_json::{Map, Value};

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

/// A case slower than this is a finding (the limits are meant to refuse big work at once).
const SLOW: Duration = Duration::from_secs(2);

/// Every field name an error message may start with: the `Params` fields as the CLI and the
/// page name them, and the few inputs of the page, the charts and the staleness questions.
const FIELDS: &[&str] = &[
    "base",
    "multiplier",
    "cap",
    "attempts",
    "give-up",
    "window",
    "gaps",
    "then-every",
    "mode",
    "factor",
    "seed",
    "samples",
    "deliveries",
    "deadline",
    "percentile",
    "arrivals",
    "traffic",
    "batch",
    "batch-at",
    "capacity",
    "latency",
    "timeout",
    "outage",
    "outage-start",
    "policy",
    "interval",
    "budget",
    "budget-window",
    "budget-floor",
    "rate-limit",
    "pause",
    "resume-rate",
    "retry-after",
    "retry-after-threshold",
    "abandon",
    "retry-quota",
    "retry-quota-tokens",
    "retry-quota-ratio",
    "breaker-failures",
    "breaker-share",
    "breaker-window",
    "breaker-min-attempts",
    "breaker-cooldown",
    "breaker-probes",
    "engine",
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
fn may_be_negative(_path: &str) -> bool {
    false
}

fn check_message(what: &str, message: &str) -> Result<(), TestCaseError> {
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
            FIELDS.contains(&field),
            "{}: the message names no known field: {:?}",
            what,
            message
        );
    }
    Ok(())
}

/// An error of the core: one line; a range or duration error names a known field first.
fn check_error(what: &str, error: &Error) -> Result<(), TestCaseError> {
    let message = error.to_string();
    check_message(what, &message)?;
    match error {
        Error::OutOfRange { field, .. } | Error::BadDuration { field, .. } => {
            prop_assert!(
                FIELDS.contains(field),
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
fn check_page_error(what: &str, error: &PageError) -> Result<(), TestCaseError> {
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
fn check_numbers<T: Serialize>(what: &str, value: &T) -> Result<(), TestCaseError> {
    let mut failure: Option<String> = None;
    let mut count = 0usize;
    walk::numbers(value, &mut |path, n| {
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

fn check<T: Serialize>(what: &str, result: &Result<T, Error>) -> Result<(), TestCaseError> {
    match result {
        Ok(value) => check_numbers(what, value),
        Err(error) => check_error(what, error),
    }
}

/// Runs `f`, printing the input if it took longer than [`SLOW`].
fn timed<T>(what: &str, input: &dyn Debug, f: impl FnOnce() -> T) -> T {
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
const KNOWN_PANICS: &[&str] = &[];

/// With `FUZZ_STRICT` set, known findings fail their properties too (which then write their
/// seeds to the regressions file); slow regions stay skipped.
fn strict() -> bool {
    std::env::var_os("FUZZ_STRICT").is_some()
}

/// Runs `f`, turning a panic into a failure unless its message is one of `known`.
fn guarded<T>(
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
fn tally(what: &str, outcome: &str) {
    if std::env::var_os("FUZZ_STATS").is_some() {
        eprintln!("TALLY {what} {outcome}");
    }
}

fn outcome<T, E: std::fmt::Display>(result: &Result<T, E>) -> String {
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

/// Every number a value serializes, with its path (`.summary.attempts`, `.rows[].gap_s`), handed
/// to a visitor: a serializer of its own, since `serde_json` turns NaN and infinities into
/// `null`. Elements of a sequence share one path, so that a million bins cost no allocation.
mod walk {
    use serde::ser::{self, Serialize};
    use std::fmt;
    use std::rc::Rc;

    #[derive(Debug)]
    pub struct E(pub String);
    impl fmt::Display for E {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(&self.0)
        }
    }
    impl std::error::Error for E {}
    impl ser::Error for E {
        fn custom<T: fmt::Display>(msg: T) -> Self {
            E(msg.to_string())
        }
    }

    type Visit<'a> = &'a mut dyn FnMut(&str, f64);

    pub fn numbers<T: Serialize + ?Sized>(value: &T, visit: Visit<'_>) -> Result<(), E> {
        value.serialize(W {
            path: Rc::from(""),
            visit,
        })
    }

    pub struct W<'a> {
        path: Rc<str>,
        visit: Visit<'a>,
    }

    pub struct C<'a> {
        path: Rc<str>,
        element: Rc<str>,
        visit: Visit<'a>,
        key: String,
    }

    impl W<'_> {
        fn num(self, n: f64) -> Result<(), E> {
            (self.visit)(&self.path, n);
            Ok(())
        }
    }

    impl<'a> W<'a> {
        fn compound(self) -> C<'a> {
            C {
                element: Rc::from(format!("{}[]", self.path)),
                path: self.path,
                visit: self.visit,
                key: String::new(),
            }
        }
    }

    impl C<'_> {
        fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), E> {
            value.serialize(W {
                path: self.element.clone(),
                visit: &mut *self.visit,
            })
        }
        fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), E> {
            value.serialize(W {
                path: Rc::from(format!("{}.{key}", self.path)),
                visit: &mut *self.visit,
            })
        }
    }

    macro_rules! numbers {
        ($($method:ident: $t:ty),*) => {
            $(fn $method(self, v: $t) -> Result<(), E> { self.num(v as f64) })*
        };
    }

    impl<'a> ser::Serializer for W<'a> {
        type Ok = ();
        type Error = E;
        type SerializeSeq = C<'a>;
        type SerializeTuple = C<'a>;
        type SerializeTupleStruct = C<'a>;
        type SerializeTupleVariant = C<'a>;
        type SerializeMap = C<'a>;
        type SerializeStruct = C<'a>;
        type SerializeStructVariant = C<'a>;

        numbers!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
            serialize_i128: i128, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
            serialize_u64: u64, serialize_u128: u128, serialize_f32: f32, serialize_f64: f64);

        fn serialize_bool(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn serialize_char(self, _: char) -> Result<(), E> {
            Ok(())
        }
        fn serialize_str(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn serialize_bytes(self, _: &[u8]) -> Result<(), E> {
            Ok(())
        }
        fn serialize_none(self) -> Result<(), E> {
            Ok(())
        }
        fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), E> {
            value.serialize(self)
        }
        fn serialize_unit(self) -> Result<(), E> {
            Ok(())
        }
        fn serialize_unit_struct(self, _: &'static str) -> Result<(), E> {
            Ok(())
        }
        fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), E> {
            Ok(())
        }
        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            value: &T,
        ) -> Result<(), E> {
            value.serialize(self)
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            variant: &'static str,
            value: &T,
        ) -> Result<(), E> {
            value.serialize(W {
                path: Rc::from(format!("{}.{variant}", self.path)),
                visit: self.visit,
            })
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<C<'a>, E> {
            Ok(self.compound())
        }
        fn serialize_tuple(self, _: usize) -> Result<C<'a>, E> {
            Ok(self.compound())
        }
        fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<C<'a>, E> {
            Ok(self.compound())
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<C<'a>, E> {
            Ok(self.compound())
        }
        fn serialize_map(self, _: Option<usize>) -> Result<C<'a>, E> {
            Ok(self.compound())
        }
        fn serialize_struct(self, _: &'static str, _: usize) -> Result<C<'a>, E> {
            Ok(self.compound())
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<C<'a>, E> {
            Ok(self.compound())
        }
    }

    impl ser::SerializeSeq for C<'_> {
        type Ok = ();
        type Error = E;
        fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), E> {
            self.element(v)
        }
        fn end(self) -> Result<(), E> {
            Ok(())
        }
    }
    impl ser::SerializeTuple for C<'_> {
        type Ok = ();
        type Error = E;
        fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), E> {
            self.element(v)
        }
        fn end(self) -> Result<(), E> {
            Ok(())
        }
    }
    impl ser::SerializeTupleStruct for C<'_> {
        type Ok = ();
        type Error = E;
        fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), E> {
            self.element(v)
        }
        fn end(self) -> Result<(), E> {
            Ok(())
        }
    }
    impl ser::SerializeTupleVariant for C<'_> {
        type Ok = ();
        type Error = E;
        fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), E> {
            self.element(v)
        }
        fn end(self) -> Result<(), E> {
            Ok(())
        }
    }
    impl ser::SerializeMap for C<'_> {
        type Ok = ();
        type Error = E;
        fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), E> {
            self.key = match serde_json::to_value(key) {
                Ok(serde_json::Value::String(s)) => s,
                Ok(other) => other.to_string(),
                Err(e) => return Err(E(e.to_string())),
            };
            Ok(())
        }
        fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), E> {
            let key = std::mem::take(&mut self.key);
            self.field(&key, v)
        }
        fn end(self) -> Result<(), E> {
            Ok(())
        }
    }
    impl ser::SerializeStruct for C<'_> {
        type Ok = ();
        type Error = E;
        fn serialize_field<T: Serialize + ?Sized>(
            &mut self,
            key: &'static str,
            v: &T,
        ) -> Result<(), E> {
            self.field(key, v)
        }
        fn end(self) -> Result<(), E> {
            Ok(())
        }
    }
    impl ser::SerializeStructVariant for C<'_> {
        type Ok = ();
        type Error = E;
        fn serialize_field<T: Serialize + ?Sized>(
            &mut self,
            key: &'static str,
            v: &T,
        ) -> Result<(), E> {
            self.field(key, v)
        }
        fn end(self) -> Result<(), E> {
            Ok(())
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

const SPECIAL_NUMBERS: &[f64] = &[
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    2.5,
    1e-300,
    -1e-300,
    5e-324,
    1e-7,
    1e300,
    -1e300,
    f64::MAX,
    f64::MIN,
    1e12,
    1e15,
    9_007_199_254_740_991.0,
    9_007_199_254_740_993.0,
    1.8446744073709552e19,
    4_294_967_296.0,
    10_000.0,
    10_001.0,
    1e7,
    1e7 + 1.0,
    2e9,
    3.0,
    30.0,
    86_400.0,
    31_536_000.0,
    31_536_001.0,
    604_800.0,
    604_801.0,
];

/// A JSON number: a special value, a small one, a big one, an integer beyond 2^53.
fn json_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => prop::sample::select(SPECIAL_NUMBERS).prop_map(f64_value),
        3 => (0.0f64..10.0).prop_map(f64_value),
        2 => (0.0f64..1e6).prop_map(f64_value),
        1 => (-1e6f64..0.0).prop_map(f64_value),
        1 => any::<u64>().prop_map(Value::from),
        1 => any::<i64>().prop_map(Value::from),
        1 => (0u64..10_001).prop_map(Value::from),
    ]
}

fn f64_value(n: f64) -> Value {
    serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
}

/// A count: mostly small (cheap to compute), sometimes in range, often absurd.
fn json_count() -> impl Strategy<Value = Value> {
    prop_oneof![
        5 => (0u64..20).prop_map(Value::from),
        1 => (1u64..10_001).prop_map(Value::from),
        3 => prop::sample::select(SPECIAL_NUMBERS).prop_map(f64_value),
        1 => json_number(),
    ]
}

const NAN_ISH: &[&str] = &[
    "NaN",
    "nan",
    "-NaN",
    "inf",
    "-inf",
    "Infinity",
    "-Infinity",
    "+inf",
    "1e400",
    "-1e400",
    "0x10",
    "1_000",
    "1,5",
    "",
    " ",
    "\t\n",
    "null",
    "undefined",
    "true",
    "[]",
    "{}",
    "٣٠",
    "３０s",
    "30\u{0}s",
    "😀",
    "-0",
    "+5",
    ".",
    "e",
    "1e",
    "--5",
    "5-",
];

const DURATION_TEXT: &[&str] = &[
    "30s",
    "90 s",
    "4m30s",
    "4.5min",
    "3h",
    "1d",
    "2h30m",
    "50ms",
    "0s",
    "0",
    "1us",
    "1µs",
    "1ns",
    "0.000001s",
    "0.0000001s",
    "365d",
    "365days",
    "366d",
    "7d",
    "7days 1s",
    "1y",
    "1year",
    "2y",
    "1w",
    "52w",
    "1month",
    "10000d",
    "-5s",
    "-0s",
    "1e400s",
    "1e3s",
    "1e-9s",
    "1.5.5s",
    "s",
    "5",
    "5 s 5 s",
    "99999999999999999999d",
    "18446744073709551616s",
    "NaNs",
    "infs",
    "4.5",
    ".5s",
    "5.s",
    "5S",
    "5sec",
    "5 seconds",
    "5m",
    "5M",
    "5min30",
    "24h",
    "30 min",
    "1h 1h",
    "3 h 02 min",
    "0.1",
    "1e-300",
    "3600",
    "86400.5",
    "604800",
    "604801",
];

const NUMBER_TEXT: &[&str] = &[
    "0",
    "1",
    "3",
    "30",
    "4.5",
    "1e3",
    "1e-7",
    "1e400",
    "-5",
    "NaN",
    "inf",
    "0.0000001",
    ".5",
    "5.",
    "99999999999999999999",
    "600",
    "1e7",
    "1e8",
    "10000",
    "10001",
    "2.5",
];

const UNITS: &[&str] = &[
    "",
    "s",
    "ms",
    "us",
    "µs",
    "ns",
    "m",
    "min",
    "h",
    "d",
    "w",
    "y",
    "months",
    "fortnight",
    "sec",
    "seconds",
    " s",
    "S",
    "/s",
    "%",
];

const RATE_TEXT: &[&str] = &[
    "600/min",
    "30/s",
    "36000/h",
    "1/d",
    "10",
    "0/s",
    "-5/s",
    "1e400/s",
    "NaN/s",
    "inf/min",
    "5/fortnight",
    "/s",
    "1e-7/s",
    "1e-6/s",
    "1e7/s",
    "1e8/s",
    "600 / min",
    "600/min/s",
    "10%",
    "1/sec",
    "1/second",
    "1/minute",
    "1/hour",
    "1/day",
    "0.000001",
    "2/ms",
];

const PERCENT_TEXT: &[&str] = &[
    "10%", "0%", "100%", "101%", "-1%", "NaN%", "%", "1e400%", "50", "10 %", "%10", "10%%", "0.5%",
    "1e-9%",
];

fn from_list(list: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::sample::select(list).prop_map(str::to_string)
}

/// Text of any kind: NaN-ish, unicode, soups, very long.
fn weird_text() -> BoxedStrategy<String> {
    prop_oneof![
        3 => from_list(NAN_ISH),
        2 => "\\PC{0,24}",
        1 => ".{0,12}",
        1 => "[0-9.e+-]{0,12}",
        1 => (1usize..4, "[0-9a-z ]{1,3}").prop_map(|(n, s)| s.repeat(n * 800)),
        1 => Just("9".repeat(400)),
        1 => Just(format!("{}s", "9".repeat(400))),
    ]
    .boxed()
}

fn duration_text() -> BoxedStrategy<String> {
    prop_oneof![
        4 => from_list(DURATION_TEXT),
        3 => (from_list(NUMBER_TEXT), from_list(UNITS)).prop_map(|(n, u)| format!("{n}{u}")),
        1 => (0u32..100, 0u32..100).prop_map(|(m, s)| format!("{m}m{s}s")),
        2 => weird_text(),
    ]
    .boxed()
}

fn rate_text() -> BoxedStrategy<String> {
    prop_oneof![
        4 => from_list(RATE_TEXT),
        3 => (from_list(NUMBER_TEXT), prop::sample::select(&["/s", "/min", "/h", "/d", "", "/x"][..]))
            .prop_map(|(n, u)| format!("{n}{u}")),
        1 => weird_text(),
    ]
    .boxed()
}

fn percent_text() -> BoxedStrategy<String> {
    prop_oneof![
        3 => from_list(PERCENT_TEXT),
        2 => from_list(NUMBER_TEXT).prop_map(|n| format!("{n}%")),
        1 => weird_text(),
    ]
    .boxed()
}

/// Any JSON value, nested a little.
fn any_json() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        json_number(),
        weird_text().prop_map(Value::String),
        duration_text().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-zA-Z]{0,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .boxed()
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Duration,
    Number,
    Count,
    Rate,
    Percent,
    Bool,
    Gaps,
    OneOf(&'static [&'static str]),
}

const MODES: &[&str] = &[
    "none",
    "full",
    "equal",
    "decorrelated",
    "proportional",
    "FULL",
    "",
    "random",
];
const POLICIES: &[&str] = &["fixed", "exponential", "Fixed", "", "linear"];
const ENGINES: &[&str] = &["auto", "discrete", "fluid", "arithmetic", "", "exact"];
const QUOTAS: &[&str] = &["aws", "grpc", "", "AWS", "finagle"];

/// Every field of `Params` as JSON names it, with what it holds.
const PARAMS: &[(&str, Kind)] = &[
    ("base", Kind::Duration),
    ("multiplier", Kind::Number),
    ("cap", Kind::Duration),
    ("attempts", Kind::Count),
    ("giveUp", Kind::Duration),
    ("window", Kind::Duration),
    ("gaps", Kind::Gaps),
    ("thenEvery", Kind::Duration),
    ("mode", Kind::OneOf(MODES)),
    ("factor", Kind::Number),
    ("seed", Kind::Count),
    ("samples", Kind::Count),
    ("deliveries", Kind::Count),
    ("deadline", Kind::Duration),
    ("percentile", Kind::Number),
    ("arrivals", Kind::Rate),
    ("traffic", Kind::Duration),
    ("batch", Kind::Count),
    ("batchAt", Kind::Duration),
    ("capacity", Kind::Rate),
    ("latency", Kind::Duration),
    ("timeout", Kind::Duration),
    ("outage", Kind::Duration),
    ("outageStart", Kind::Duration),
    ("policy", Kind::OneOf(POLICIES)),
    ("interval", Kind::Duration),
    ("budget", Kind::Percent),
    ("budgetWindow", Kind::Duration),
    ("budgetFloor", Kind::Rate),
    ("rateLimit", Kind::Rate),
    ("pause", Kind::Bool),
    ("resumeRate", Kind::Rate),
    ("retryAfter", Kind::Duration),
    ("retryAfterThreshold", Kind::Duration),
    ("abandon", Kind::Bool),
    ("retryQuota", Kind::OneOf(QUOTAS)),
    ("retryQuotaTokens", Kind::Count),
    ("retryQuotaRatio", Kind::Number),
    ("breakerFailures", Kind::Count),
    ("breakerShare", Kind::Percent),
    ("breakerWindow", Kind::Duration),
    ("breakerMinAttempts", Kind::Count),
    ("breakerCooldown", Kind::Duration),
    ("breakerProbes", Kind::Count),
    ("engine", Kind::OneOf(ENGINES)),
    ("tolerance", Kind::Duration),
    ("maxLag", Kind::Duration),
];

fn value_of(kind: Kind) -> BoxedStrategy<Value> {
    let text = |s: BoxedStrategy<String>| s.prop_map(Value::String).boxed();
    match kind {
        Kind::Duration => prop_oneof![
            9 => json_number(),
            9 => text(duration_text()),
            2 => any_json(),
        ]
        .boxed(),
        Kind::Number => prop_oneof![
            17 => json_number(),
            3 => any_json(),
        ]
        .boxed(),
        Kind::Count => prop_oneof![
            17 => json_count(),
            3 => any_json(),
        ]
        .boxed(),
        Kind::Rate => prop_oneof![
            4 => json_number(),
            5 => text(rate_text()),
            1 => any_json(),
        ]
        .boxed(),
        Kind::Percent => prop_oneof![
            4 => json_number(),
            5 => text(percent_text()),
            1 => any_json(),
        ]
        .boxed(),
        Kind::Bool => prop_oneof![
            17 => any::<bool>().prop_map(Value::Bool),
            3 => any_json(),
        ]
        .boxed(),
        Kind::Gaps => prop_oneof![
            12 => prop::collection::vec(value_of(Kind::Duration), 0..6).prop_map(Value::Array),
            2 => prop::collection::vec(value_of(Kind::Duration), 30..40).prop_map(Value::Array),
            2 => any_json(),
        ]
        .boxed(),
        Kind::OneOf(options) => prop_oneof![
            12 => from_list(options).prop_map(Value::String),
            4 => weird_text().prop_map(Value::String),
            2 => any_json(),
        ]
        .boxed(),
    }
}

/// A plausible value for a field, in range most of the time and cheap to compute: what a
/// person would type. The fields around a hostile value are plausible, so that the hostile one
/// is what the core meets.
fn plausible(name: &str) -> BoxedStrategy<Value> {
    fn n(range: std::ops::Range<f64>) -> BoxedStrategy<Value> {
        range.prop_map(f64_value).boxed()
    }
    fn whole(range: std::ops::Range<u64>) -> BoxedStrategy<Value> {
        range.prop_map(Value::from).boxed()
    }
    fn text(list: &'static [&'static str]) -> BoxedStrategy<Value> {
        from_list(list).prop_map(Value::String).boxed()
    }
    match name {
        "base" => prop_oneof![
            text(&["30s", "1s", "5s", "500ms", "1m", "4.5min", "10 s"]),
            n(0.01..600.0)
        ]
        .boxed(),
        "multiplier" => {
            prop_oneof![n(1.0..10.0), Just(Value::from(2)), Just(Value::from(3))].boxed()
        }
        "cap" => prop_oneof![
            text(&["3h", "1h", "10m", "1d", "30 min"]),
            n(600.0..200_000.0)
        ]
        .boxed(),
        "attempts" => prop_oneof![4 => whole(1..16), 1 => whole(16..200)].boxed(),
        "giveUp" => {
            prop_oneof![text(&["24h", "1h", "2h", "3d", "30m"]), n(60.0..300_000.0)].boxed()
        }
        "window" => prop_oneof![text(&["20m", "1h", "90s"]), n(1.0..100_000.0)].boxed(),
        "gaps" => prop::collection::vec(plausible("base"), 1..6)
            .prop_map(Value::Array)
            .boxed(),
        "thenEvery" => prop_oneof![text(&["1h", "10h", "30m"]), n(1.0..40_000.0)].boxed(),
        "mode" => text(&["none", "full", "equal", "decorrelated", "proportional"]),
        "factor" => n(0.0..1.0),
        "seed" => whole(0..1_000_000),
        "samples" => whole(1..20_000),
        "deliveries" => whole(1..20_000),
        "deadline" => prop_oneof![text(&["24h", "1h", "10m"]), n(60.0..200_000.0)].boxed(),
        "percentile" => n(0.5..50.0),
        "arrivals" => prop_oneof![
            text(&["600/min", "10/s", "60/min", "1/s", "3600/h"]),
            n(0.05..20.0)
        ]
        .boxed(),
        "traffic" => prop_oneof![text(&["10m", "1h", "30m", "5m"]), n(0.0..3_600.0)].boxed(),
        "batch" => whole(0..10_000),
        "batchAt" => prop_oneof![text(&["0s", "5m"]), n(0.0..3_600.0)].boxed(),
        "capacity" => prop_oneof![text(&["30/s", "100/s", "600/min"]), n(1.0..500.0)].boxed(),
        "latency" => prop_oneof![text(&["50ms", "200ms", "1s"]), n(0.001..3.0)].boxed(),
        "timeout" => prop_oneof![text(&["5s", "10s", "30s"]), n(0.1..30.0)].boxed(),
        "outage" => prop_oneof![text(&["10m", "1h", "30s", "0s"]), n(0.0..3_600.0)].boxed(),
        "outageStart" => prop_oneof![text(&["0s", "5m"]), n(0.0..1_800.0)].boxed(),
        "policy" => text(&["fixed", "exponential"]),
        "interval" => prop_oneof![text(&["30s", "1m", "5s"]), n(1.0..600.0)].boxed(),
        "budget" => prop_oneof![text(&["10%", "1%", "50%", "0%", "100%"]), n(0.0..100.0)].boxed(),
        "budgetWindow" => prop_oneof![text(&["60s", "10s", "1h"]), whole(1..3_600)].boxed(),
        "budgetFloor" => prop_oneof![text(&["0.5/s", "1/s", "0/s"]), n(0.0..10.0)].boxed(),
        "rateLimit" => prop_oneof![text(&["50/s", "25/s", "600/min"]), n(0.5..200.0)].boxed(),
        "pause" | "abandon" => any::<bool>().prop_map(Value::Bool).boxed(),
        "retryQuota" => text(&["aws", "grpc"]),
        "retryQuotaTokens" => whole(10..1_000),
        "retryQuotaRatio" => n(0.01..1.0),
        "breakerFailures" => whole(1..100),
        "breakerShare" => {
            prop_oneof![text(&["50%", "10%", "100%", "33.3%"]), whole(1..100)].boxed()
        }
        "breakerWindow" => prop_oneof![text(&["30s", "10s", "2m"]), whole(1..600)].boxed(),
        "breakerMinAttempts" => whole(1..1_000),
        "breakerCooldown" => prop_oneof![text(&["30s", "5s", "1m"]), whole(1..600)].boxed(),
        "breakerProbes" => whole(1..10),
        "resumeRate" => prop_oneof![text(&["10/s", "1/s"]), n(0.5..200.0)].boxed(),
        "retryAfter" => prop_oneof![text(&["30s", "1m", "5s"]), n(0.5..600.0)].boxed(),
        "retryAfterThreshold" => prop_oneof![text(&["1s", "500ms"]), n(0.01..10.0)].boxed(),
        "engine" => text(&["auto", "discrete", "fluid", "auto", "fluid", "arithmetic"]),
        "tolerance" => prop_oneof![text(&["6h", "1h", "24h", "3d"]), n(60.0..500_000.0)].boxed(),
        "maxLag" => prop_oneof![text(&["1h", "10m", "30s"]), n(1.0..50_000.0)].boxed(),
        other => panic!("no plausible value for {other}"),
    }
}

#[derive(Debug, Clone)]
enum Edit {
    /// Set the field to a hostile value of its kind (or of any kind).
    Set(&'static str, Value),
    /// Leave the field out.
    Remove(&'static str),
    /// Add a key `Params` does not have.
    Unknown(String, Value),
}

fn edit() -> impl Strategy<Value = Edit> {
    let field = prop::sample::select(PARAMS.to_vec());
    prop_oneof![
        16 => field.clone().prop_flat_map(|(name, kind)| value_of(kind).prop_map(move |v| Edit::Set(name, v))),
        2 => field.prop_map(|(name, _)| Edit::Remove(name)),
        1 => (
            prop_oneof![
                "[a-zA-Z_]{1,12}",
                from_list(&["give_up", "Base", "rate_limit", "then_every", "gap", "__proto__"]),
            ],
            any_json(),
        ).prop_map(|(k, v)| Edit::Unknown(k, v)),
    ]
}

/// A JSON object of parameters. Mostly plausible fields (the policy's always, the `focus`
/// fields often, others rarely) with zero to three hostile edits: a field set to an extreme or
/// garbled value or one of another JSON type, a field left out, an unknown key. Sometimes every
/// field is hostile.
fn params_object(focus: &'static [&'static str], others: f64) -> BoxedStrategy<Map<String, Value>> {
    let fields: Vec<BoxedStrategy<Option<(String, Value)>>> = PARAMS
        .iter()
        .filter(|(name, _)| !matches!(*name, "attempts" | "giveUp"))
        .map(|&(name, _)| {
            let p = match name {
                "base" | "multiplier" | "cap" => 0.999,
                _ if focus.contains(&name) => 0.45,
                _ => others,
            };
            prop::option::weighted(p, plausible(name).prop_map(move |v| (name.to_string(), v)))
                .boxed()
        })
        .collect();
    let stop = prop_oneof![
        6 => plausible("attempts").prop_map(|v| Some(("attempts".to_string(), v))),
        3 => plausible("giveUp").prop_map(|v| Some(("giveUp".to_string(), v))),
        1 => Just(None),
    ];
    let edits = prop_oneof![
        2 => Just(Vec::new()),
        5 => prop::collection::vec(edit(), 1..2),
        3 => prop::collection::vec(edit(), 2..4),
    ];
    let plausible_object = (fields, stop, edits).prop_map(|(fields, stop, edits)| {
        let mut map: Map<String, Value> = fields.into_iter().flatten().chain(stop).collect();
        for edit in edits {
            match edit {
                Edit::Set(name, value) => {
                    map.insert(name.to_string(), value);
                }
                Edit::Remove(name) => {
                    map.remove(name);
                }
                Edit::Unknown(key, value) => {
                    map.insert(key, value);
                }
            }
        }
        map
    });
    prop_oneof![
        9 => plausible_object,
        1 => hostile_object(focus),
    ]
    .boxed()
}

/// A JSON object of parameters where every field is hostile.
fn hostile_object(focus: &'static [&'static str]) -> BoxedStrategy<Map<String, Value>> {
    let fields: Vec<BoxedStrategy<Option<(String, Value)>>> = PARAMS
        .iter()
        .map(|&(name, kind)| {
            let p = match name {
                "base" | "multiplier" | "cap" => 0.93,
                _ if focus.contains(&name) => 0.4,
                _ => 0.05,
            };
            prop::option::weighted(p, value_of(kind).prop_map(move |v| (name.to_string(), v)))
                .boxed()
        })
        .collect();
    fields
        .prop_map(|fields| fields.into_iter().flatten().collect())
        .boxed()
}

/// A number JavaScript can pass but JSON cannot hold, written into one numeric field after
/// deserialization (`serde-wasm-bindgen` hands NaN and infinities through as they are).
fn poison() -> impl Strategy<Value = Option<(usize, f64)>> {
    prop::option::weighted(
        0.15,
        (
            0usize..40,
            prop::sample::select(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0][..]),
        ),
    )
}

fn poisoned(params: &mut Params, poison: Option<(usize, f64)>) {
    use backoff_lab::{DurationInput as D, NumberInput as N};
    let Some((which, v)) = poison else { return };
    match which {
        0 => params.base = Some(D::Seconds(v)),
        1 => params.multiplier = Some(v),
        2 => params.cap = Some(D::Seconds(v)),
        3 => params.attempts = Some(v),
        4 => params.give_up = Some(D::Seconds(v)),
        5 => params.window = Some(D::Seconds(v)),
        6 => params.gaps = Some(vec![D::Seconds(5.0), D::Seconds(v)]),
        7 => params.then_every = Some(D::Seconds(v)),
        8 => params.factor = Some(v),
        9 => params.seed = Some(v),
        10 => params.samples = Some(v),
        11 => params.deliveries = Some(v),
        12 => params.deadline = Some(D::Seconds(v)),
        13 => params.percentile = Some(v),
        14 => params.arrivals = Some(N::Number(v)),
        15 => params.traffic = Some(D::Seconds(v)),
        16 => params.batch = Some(v),
        17 => params.batch_at = Some(D::Seconds(v)),
        18 => params.capacity = Some(N::Number(v)),
        19 => params.latency = Some(D::Seconds(v)),
        20 => params.timeout = Some(D::Seconds(v)),
        21 => params.outage = Some(D::Seconds(v)),
        22 => params.outage_start = Some(D::Seconds(v)),
        23 => params.interval = Some(D::Seconds(v)),
        24 => params.budget = Some(N::Number(v)),
        25 => params.budget_window = Some(D::Seconds(v)),
        26 => params.budget_floor = Some(N::Number(v)),
        27 => params.rate_limit = Some(N::Number(v)),
        28 => params.resume_rate = Some(N::Number(v)),
        29 => params.retry_after = Some(D::Seconds(v)),
        30 => params.tolerance = Some(D::Seconds(v)),
        31 => params.retry_quota_tokens = Some(v),
        32 => params.retry_quota_ratio = Some(v),
        33 => params.breaker_failures = Some(v),
        34 => params.breaker_cooldown = Some(D::Seconds(v)),
        35 => params.breaker_probes = Some(v),
        36 => params.breaker_share = Some(N::Number(v)),
        37 => params.breaker_window = Some(D::Seconds(v)),
        38 => params.breaker_min_attempts = Some(v),
        _ => params.max_lag = Some(D::Seconds(v)),
    }
}

/// The parameters as the JS API reads them, or the deserialization error (checked: one line,
/// never a panic).
fn read_params(
    object: &Map<String, Value>,
    poison: Option<(usize, f64)>,
) -> Result<Option<Params>, TestCaseError> {
    match serde_json::from_value::<Params>(Value::Object(object.clone())) {
        Ok(mut params) => {
            poisoned(&mut params, poison);
            Ok(Some(params))
        }
        Err(error) => {
            let message = error.to_string();
            prop_assert!(!message.is_empty());
            Ok(None)
        }
    }
}

fn chart_options() -> impl Strategy<Value = ChartOptions> {
    (
        any::<bool>(),
        prop::sample::select(&[1.0, 1.0, 2.0, 0.5, 4.0, 4.01, 0.0, f64::NAN, 1e300][..]),
        any::<bool>(),
    )
        .prop_map(|(dark, scale, log_scale)| ChartOptions {
            dark,
            scale,
            log_scale,
        })
}

fn svg_size() -> impl Strategy<Value = (u32, u32)> {
    prop::sample::select(
        &[
            (800, 400),
            (800, 400),
            (100, 100),
            (4_000, 100),
            (100, 4_000),
        ][..],
    )
}

/// Draws to SVG as `chartSvg` does: options validated first.
fn svg(
    what: &str,
    size: (u32, u32),
    options: ChartOptions,
    draw: impl FnOnce(
        &plotters::drawing::DrawingArea<plotters::prelude::SVGBackend, plotters::coord::Shift>,
        &ChartOptions,
    ) -> Result<(), Error>,
) -> Result<(), TestCaseError> {
    let drawn = options
        .validated()
        .and_then(|options| chart::to_svg(size, |area| draw(area, &options)));
    match drawn {
        Ok(svg) => {
            prop_assert!(svg.starts_with("<svg"), "{}: no SVG", what);
            Ok(())
        }
        Err(error) => check_error(what, &error),
    }
}

/// `cases` per property, times `FUZZ_SCALE` if set (a longer run: `FUZZ_SCALE=20`).
fn config(cases: u32) -> ProptestConfig {
    let scale = std::env::var("FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    ProptestConfig {
        cases: cases * scale,
        max_shrink_time: 60_000,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------------
// The JS API: schedule, jitter, herd, storm, arithmetic view, charts
// ---------------------------------------------------------------------------------------------

const POLICY_FOCUS: &[&str] = &["attempts", "giveUp", "window", "gaps", "thenEvery"];
const JITTER_FOCUS: &[&str] = &[
    "attempts",
    "giveUp",
    "mode",
    "factor",
    "seed",
    "samples",
    "deliveries",
    "deadline",
    "percentile",
    "gaps",
];
/// What the arithmetic view models (any other storm field is refused by name).
const ARITHMETIC_FOCUS: &[&str] = &[
    "arrivals", "outage", "interval", "policy", "engine", "giveUp",
];
const STORM_FOCUS: &[&str] = &[
    "attempts",
    "giveUp",
    "arrivals",
    "traffic",
    "batch",
    "batchAt",
    "capacity",
    "latency",
    "timeout",
    "outage",
    "outageStart",
    "policy",
    "interval",
    "budget",
    "budgetWindow",
    "budgetFloor",
    "rateLimit",
    "pause",
    "resumeRate",
    "retryAfter",
    "retryAfterThreshold",
    "abandon",
    "retryQuota",
    "retryQuotaTokens",
    "retryQuotaRatio",
    "breakerFailures",
    "breakerShare",
    "breakerWindow",
    "breakerMinAttempts",
    "breakerCooldown",
    "breakerProbes",
    "engine",
    "mode",
];

/// `schedule`, `exportSchedule` and `chartSvg("timeline")` (with a comparison, or not).
fn schedule_case(
    params: &Params,
    options: ChartOptions,
    size: (u32, u32),
    compare: bool,
) -> Result<(), TestCaseError> {
    let result = params.policy().map(|p| p.schedule()).and_then(|schedule| {
        let report = ScheduleReport::new(&schedule, params.window_s()?);
        Ok((schedule, report))
    });
    tally("schedule", &outcome(&result));
    match &result {
        Err(error) => check_error("schedule", error),
        Ok((schedule, report)) => {
            check_numbers("schedule", report)?;
            let _ = (report.to_csv(), report.to_markdown(), report.to_table());
            let other = backoff_lab::Policy::article().schedule();
            svg("timeline", size, options, |area, options| {
                if compare {
                    chart::timeline::draw_compared(
                        area,
                        (schedule, "your policy"),
                        (&other, "compared"),
                        options,
                    )
                } else {
                    chart::timeline::draw(area, schedule, options)
                }
            })
        }
    }
}

/// `arithmeticView`.
fn arithmetic_case(params: &Params) -> Result<(), TestCaseError> {
    let view = params
        .arithmetic_scenario()
        .and_then(|scenario| backoff_lab::storm::arithmetic_view(&scenario));
    tally("arithmetic", &outcome(&view));
    check("arithmetic view", &view)?;
    if let Ok(view) = &view {
        let _ = (view.to_table(), view.to_csv());
    }
    Ok(())
}

/// `jitter`, `drawDistribution` and `chartSvg("distribution")`.
fn jitter_case(
    params: &Params,
    options: ChartOptions,
    size: (u32, u32),
) -> Result<(), TestCaseError> {
    let report = page::jitter_report(params);
    tally("jitter", &outcome(&report));
    check("jitter", &report)?;
    if let Ok(report) = &report {
        let _ = (report.to_table(), report.to_csv());
        svg("distribution", size, options, |area, options| {
            chart::distribution::draw(area, report, options)
        })?;
    }
    Ok(())
}

/// `herd`, `drawHerd`'s summary and `chartSvg("herd")`.
fn herd_case(
    params: &Params,
    options: ChartOptions,
    size: (u32, u32),
) -> Result<(), TestCaseError> {
    let herds = page::herds(params);
    tally("herd", &outcome(&herds));
    check("herd", &herds)?;
    if let Ok((spread, spike)) = &herds {
        // Bounded bins whatever the schedule (`herd_first_retry_bins_grow_with_the_first_gap`).
        for herd in [spread, spike] {
            prop_assert!(
                herd.first_retry_per_second.len() <= backoff_lab::herd::MAX_FIRST_RETRY_BINS
                    && herd.per_second.len() <= backoff_lab::herd::MAX_BINS,
                "herd: {} first-retry bins, {} bins",
                herd.first_retry_per_second.len(),
                herd.per_second.len()
            );
        }
        let _ = (
            spread.caption(Some(spike)),
            spread.to_table(Some(spike)),
            spread.to_csv(),
        );
        svg("herd", size, options, |area, options| {
            chart::herd::draw(area, spread, Some(spike), options)
        })?;
    }
    Ok(())
}

/// `storm`, `drawStorm`, `stormSvg`.
fn storm_case(
    params: &Params,
    options: ChartOptions,
    size: (u32, u32),
) -> Result<(), TestCaseError> {
    let run = params.scenario().and_then(|scenario| {
        let report = backoff_lab::storm::simulate(&scenario, params.engine()?, false)?;
        Ok((scenario, report))
    });
    tally("storm", &outcome(&run));
    match &run {
        Err(error) => check_error("storm", error),
        Ok((scenario, report)) => {
            check_numbers("storm", report)?;
            let _ = (report.to_table(), report.to_csv());
            let series = [chart::storm::Series {
                label: "yours".into(),
                scenario,
                report,
            }];
            svg("storm", size, options, |area, options| {
                chart::storm::draw(area, &series, options)
            })
        }
    }
}

/// Inputs within the limits by design that still take seconds (the limits allow up to about
/// 10 s of work natively), skipped so that the suite stays quick. Not findings: a region found
/// slow beyond what the limits allow gets an `#[ignore]`d test at the end of this file instead.
fn known_slow(what: &str, params: &Params) -> Option<&'static str> {
    let Ok(policy) = params.policy() else {
        return None;
    };
    let retries = f64::from(policy.attempts().saturating_sub(1).max(1));
    let mode = params.mode.as_deref().unwrap_or("none");
    match what {
        "jitter" | "herd" => {
            let count = if what == "jitter" {
                params.samples.unwrap_or(1e6)
            } else {
                params.deliveries.unwrap_or(1e3)
            };
            if mode == "decorrelated" && retries >= 100.0 {
                // Within the limits (`decorrelated_draws_count_what_they_cost`), seconds.
                Some("decorrelated, long schedule")
            } else if count.is_finite() && count * retries > 2e8 && count * retries <= 2e9 {
                // Within the limits by design (2e9 draws, seconds natively): not a finding.
                Some("many draws within the limits")
            } else {
                None
            }
        }
        // Within the limits by design (seconds natively): not a finding.
        "staleness api" if mode != "none" && params.samples.unwrap_or(2e4) * retries > 2e6 => {
            Some("jittered staleness of a long schedule")
        }
        "staleness" if mode != "none" && retries > 100.0 => {
            Some("jittered staleness of a long schedule")
        }
        _ => None,
    }
}

/// Runs `case` on the parameters read from `object`: guarded against known panics, timed.
fn api_case(
    what: &str,
    object: &Map<String, Value>,
    poison: Option<(usize, f64)>,
    case: impl FnOnce(&Params) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    let Some(params) = read_params(object, poison)? else {
        tally(what, "not-deserialized");
        return Ok(());
    };
    if let Some(why) = known_slow(what, &params) {
        tally(what, &format!("skipped ({why})"));
        return Ok(());
    }
    guarded(what, KNOWN_PANICS, || {
        timed(what, &params, || case(&params))
    })?;
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn schedule_of_any_json(
        object in params_object(POLICY_FOCUS, 0.05),
        poison in poison(),
        options in chart_options(),
        size in svg_size(),
        compare in any::<bool>(),
    ) {
        api_case("schedule", &object, poison, |p| schedule_case(p, options, size, compare))?;
    }

    #[test]
    fn arithmetic_view_of_any_json(object in params_object(ARITHMETIC_FOCUS, 0.005), poison in poison()) {
        api_case("arithmetic", &object, poison, arithmetic_case)?;
    }
}

proptest! {
    #![proptest_config(config(160))]

    #[test]
    fn jitter_of_any_json(
        object in params_object(JITTER_FOCUS, 0.05),
        poison in poison(),
        options in chart_options(),
        size in svg_size(),
    ) {
        api_case("jitter", &object, poison, |p| jitter_case(p, options, size))?;
    }

    #[test]
    fn herd_of_any_json(
        object in params_object(JITTER_FOCUS, 0.05),
        poison in poison(),
        options in chart_options(),
        size in svg_size(),
    ) {
        api_case("herd", &object, poison, |p| herd_case(p, options, size))?;
    }

    #[test]
    fn storm_of_any_json(
        object in params_object(STORM_FOCUS, 0.05),
        poison in poison(),
        options in chart_options(),
        size in svg_size(),
    ) {
        api_case("storm", &object, poison, |p| storm_case(p, options, size))?;
    }
}

// ---------------------------------------------------------------------------------------------
// Staleness
// ---------------------------------------------------------------------------------------------

fn duration_number() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => prop::sample::select(SPECIAL_NUMBERS),
        4 => 1.0f64..100_000.0,
        1 => prop::sample::select(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY][..]),
        3 => 0.0f64..1e6,
        1 => 0.0f64..31_536_000.0,
    ]
}

/// `Question::new`, `with_tolerance`, `with_samples`, `outage`, the derived lengths and
/// `StalenessReport::ladder` (with its caption, table, CSV, Markdown and suggestion).
fn staleness_case(
    params: &Params,
    tolerance: Option<f64>,
    samples: Option<usize>,
    outage: f64,
    max_lag: Option<f64>,
) -> Result<(), TestCaseError> {
    let question = params.policy().and_then(|policy| {
        let seed = params.seed()?.unwrap_or(0);
        let mut question = Question::new(&policy, params.jitter()?, seed)?;
        if let Some(t) = tolerance {
            question = question.with_tolerance(t)?;
        }
        if let Some(n) = samples {
            question = question.with_samples(n)?;
        }
        Ok(question)
    });
    let question = match question {
        Err(error) => {
            tally("staleness", &outcome::<(), _>(&Err(error.clone())));
            return check_error("staleness question", &error);
        }
        Ok(question) => question,
    };
    let answer = question.outage(outage);
    check("staleness outage", &answer)?;
    check(
        "longest delivered outage",
        &question.longest_delivered_outage_s(),
    )?;
    check("all fresh up to", &question.all_fresh_up_to_s())?;
    check_numbers("max recovery lag", &question.max_recovery_lag_s())?;
    let report = StalenessReport::ladder(&question, max_lag);
    tally("staleness", &outcome(&report));
    check("staleness report", &report)?;
    if let Ok(report) = &report {
        let _ = (
            report.caption(),
            report.to_table(),
            report.to_csv(),
            report.to_markdown(),
        );
        if let Some(suggestion) = &report.suggestion {
            match suggestion.policy() {
                Ok(policy) => check_numbers(
                    "suggested schedule",
                    &ScheduleReport::new(&policy.schedule(), 1_200.0),
                )?,
                Err(error) => check_error("suggested policy", &error)?,
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn staleness_of_any_json(
        object in params_object(&["attempts", "giveUp", "gaps", "thenEvery", "mode", "factor", "seed"], 0.05),
        poison in poison(),
        tolerance in prop::option::weighted(0.6, duration_number()),
        samples in prop::option::weighted(0.3, prop::sample::select(&[0usize, 1, 2, 17, 500, 2_000, 100_001, usize::MAX][..])),
        outage in duration_number(),
        max_lag in prop::option::weighted(0.5, duration_number()),
    ) {
        api_case("staleness", &object, poison, |p| {
            staleness_case(p, tolerance, samples, outage, max_lag)
        })?;
    }
}

/// The JS API's `staleness` and `drawStaleness` (with a compared preset, or not).
fn staleness_api_case(
    params: &Params,
    compare: Option<&str>,
    options: ChartOptions,
    size: (u32, u32),
) -> Result<(), TestCaseError> {
    let report = params.staleness_report();
    tally("staleness api", &outcome(&report));
    check("staleness api", &report)?;
    if let Ok(report) = &report {
        let _ = (
            report.caption(),
            report.to_table(),
            report.to_csv(),
            report.to_markdown(),
        );
    }
    let compared = compare.and_then(|name| backoff_lab::presets::preset(name).ok());
    let chart = page::staleness_chart_of(params, compared.as_ref());
    check("staleness chart", &chart)?;
    if let Ok(chart) = &chart {
        svg("staleness", size, options, |area, options| {
            chart::staleness::draw(area, chart, options)
        })?;
    }
    Ok(())
}

const STALENESS_FOCUS: &[&str] = &[
    "attempts",
    "giveUp",
    "gaps",
    "thenEvery",
    "mode",
    "factor",
    "seed",
    "samples",
    "tolerance",
    "maxLag",
    "outage",
];

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn staleness_api_of_any_json(
        object in params_object(STALENESS_FOCUS, 0.03),
        poison in poison(),
        compare in prop::option::weighted(0.3, prop::sample::select(PRESETS)),
        options in chart_options(),
        size in svg_size(),
    ) {
        api_case("staleness api", &object, poison, |p| staleness_api_case(p, compare, options, size))?;
    }
}

// ---------------------------------------------------------------------------------------------
// The page: the URL hash, settings, each view's costly step and drawing
// ---------------------------------------------------------------------------------------------

/// Every setting key of the page.
fn setting_keys() -> Vec<&'static str> {
    Settings::default().iter().map(|(key, _)| key).collect()
}

const PRESETS: &[&str] = &[
    "article",
    "svix",
    "standard-webhooks",
    "azure-event-grid",
    "grpc",
    "aws-sdk-standard",
    "aws-sns",
    "nope",
    "SVIX",
];

/// A value for a setting: what the page's control could hold, or anything.
fn setting_value() -> BoxedStrategy<String> {
    prop_oneof![
        3 => duration_text(),
        2 => from_list(NUMBER_TEXT),
        1 => (0u64..30).prop_map(|n| n.to_string()),
        2 => rate_text(),
        1 => from_list(&["true", "false", "attempts", "give-up", "timeline", "distribution",
            "herd", "storm", "schedule", "jitter", "auto", "fluid", "discrete", "20000",
            "100000", "1000000", "none", "full", "equal", "decorrelated", "proportional",
            "aws", "grpc"]),
        1 => from_list(PRESETS),
        1 => prop::collection::vec(duration_text(), 0..5).prop_map(|g| g.join(",")),
        2 => weird_text(),
    ]
    .boxed()
}

fn setting_key() -> BoxedStrategy<String> {
    prop_oneof![
        6 => prop::sample::select(setting_keys()).prop_map(str::to_string),
        1 => "[a-z-]{0,10}",
        1 => weird_text(),
    ]
    .boxed()
}

/// Percent-encodes some characters of `text` (or all of them), as a link would.
fn escaped(text: &str, all: bool) -> String {
    text.chars()
        .map(|c| {
            if all || matches!(c, ' ' | '&' | '=' | '%' | '#' | '+') || !c.is_ascii() {
                let mut buf = [0u8; 4];
                c.encode_utf8(&mut buf)
                    .bytes()
                    .map(|b| format!("%{b:02X}"))
                    .collect()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A URL hash: known keys with random values (escaped or not), `&`/`=` and percent soup,
/// any text, very long text.
fn hash() -> BoxedStrategy<String> {
    let pairs =
        prop::collection::vec((setting_key(), setting_value(), 0u8..4), 0..10).prop_map(|pairs| {
            pairs
                .into_iter()
                .map(|(key, value, how)| match how {
                    0 => format!("{key}={value}"),
                    1 => format!("{}={}", escaped(&key, false), escaped(&value, false)),
                    2 => format!("{}={}", escaped(&key, true), escaped(&value, true)),
                    _ => key,
                })
                .collect::<Vec<_>>()
                .join("&")
        });
    prop_oneof![
        6 => pairs.clone().prop_map(|h| format!("#{h}")),
        2 => pairs,
        2 => "(%[0-9A-Fa-f]{0,2}|[&=+#]|[a-z-]{1,12}|%FF|%C3%28|%E2%82){0,40}",
        2 => "\\PC{0,200}",
        1 => (4_000usize..4_200).prop_map(|n| format!("base={}", "9".repeat(n))),
        1 => Just(format!("#{}", "&".repeat(5_000))),
        1 => Just("#".to_string()),
    ]
    .boxed()
}

/// Settings as JavaScript may hand them over: an object of strings for known keys (values
/// never validated), unknown keys.
fn settings_object() -> BoxedStrategy<Map<String, Value>> {
    prop::collection::vec((setting_key(), setting_value()), 0..12)
        .prop_map(|pairs| {
            pairs
                .into_iter()
                .map(|(k, v)| (k, Value::String(v)))
                .collect()
        })
        .boxed()
}

const CONTROLS: &[&str] = &[
    "preset",
    "base",
    "multiplier",
    "cap",
    "attempts",
    "give-up",
    "stop",
    "drop-gaps",
    "mode",
    "view",
    "",
    "nonsense",
];

fn view() -> impl Strategy<Value = View> {
    prop::sample::select(View::ALL.to_vec())
}

/// `computeView`, `drawView` / `viewSvg`, `previewSettings`, `embedSnippet`, `pageSchedule`,
/// `encodeState`, `settingEdited`, for one view and settings.
fn page_case(
    what: &str,
    view: View,
    settings: &Settings,
    control: &str,
    options: ChartOptions,
) -> Result<(), TestCaseError> {
    let _ = page::encode_hash(settings);
    let _ = page::edited(settings.clone(), control);
    let _ = page::embed_snippet(settings, view, "https://example.com/embed.html");
    if page::preview(view, settings).is_some() {
        prop_assert!(
            !matches!(view, View::Timeline | View::Storm),
            "a preview of {:?}",
            view
        );
    }
    // `pageSchedule`: the page's policy through the JS API's schedule export.
    let params = page::policy_params(settings);
    let schedule = params
        .policy()
        .and_then(|p| Ok(ScheduleReport::new(&p.schedule(), params.window_s()?)));
    check(&format!("{what}: page schedule"), &schedule)?;
    // `pageStaleness`: the page's policy's staleness report.
    let staleness = page::staleness_params(settings);
    if known_slow("staleness api", &staleness).is_none() {
        check(
            &format!("{what}: page staleness"),
            &staleness.staleness_report(),
        )?;
    }
    if view == View::Staleness && known_slow("staleness api", &staleness).is_some() {
        tally(what, "skipped (jittered staleness of a long schedule)");
        return Ok(());
    }
    // A whole survival map takes seconds by design (its work limit has its own tests): the
    // fuzzer draws the generated map's axes with at most 4 × 3 steps.
    let mut small_map = settings.clone();
    let settings = match backoff_lab::survival::step_counts(settings.get("steps")) {
        Ok((outages, headroom)) if view == View::Survival && outages * headroom > 12 => {
            tally(what, "survival map drawn with 4x3 steps");
            small_map.set("steps", "4x3");
            &small_map
        }
        _ => settings,
    };
    let computed = page::compute(view, settings, &mut Memo::default());
    tally(
        &format!("{what}-{}", view.name()),
        &outcome(&computed.clone().map_err(|e| e.message)),
    );
    let computed = match computed {
        Err(error) => return check_page_error(&format!("{what}: compute"), &error),
        Ok(computed) => computed,
    };
    check_numbers(&format!("{what}: computed"), &computed)?;
    let options = match options.validated() {
        Err(error) => return check_error(what, &error),
        Ok(options) => options,
    };
    let mut drawn = None;
    let mut refused = None;
    let svg = chart::to_svg((800, 400), |area| {
        match page::draw(area, view, settings, &computed, &options) {
            Ok(d) => drawn = Some(d),
            Err(e) => refused = Some(e),
        }
        Ok(())
    });
    if let Err(error) = &svg {
        check_error(&format!("{what}: draw"), error)?;
    }
    if let Some(error) = &refused {
        check_page_error(&format!("{what}: draw"), error)?;
    }
    if let Some(drawn) = &drawn {
        check_numbers(&format!("{what}: drawn"), drawn)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    /// `decodeState`: any text reads into settings (with notices, never an error); the
    /// settings written back read again without a notice, to the same settings.
    #[test]
    fn any_hash_decodes_and_round_trips(hash in hash(), control in prop::sample::select(CONTROLS)) {
        guarded("decode", KNOWN_PANICS, || {
            let state = timed("decode", &hash, || page::resolve(page::decode_hash(&hash)));
            for notice in &state.notices {
                prop_assert!(!notice.contains('\n'), "a notice of several lines: {:?}", notice);
                prop_assert!(
                    notice.chars().count() < 400,
                    "a notice of {} characters: {:?}", notice.chars().count(), notice
                );
            }
            let written = page::encode_hash(&state.settings);
            let again = page::resolve(page::decode_hash(&written));
            prop_assert!(again.notices.is_empty(), "{:?} read back with notices {:?}", written, again.notices);
            prop_assert_eq!(&again.settings, &state.settings, "{:?} read back differently", written);
            let _ = page::edited(state.settings.clone(), control);
            check_numbers("decoded", &state)
        })?;
    }
}

proptest! {
    #![proptest_config(config(96))]

    /// A decoded hash, computed and drawn in every view.
    #[test]
    fn decoded_settings_compute_and_draw(
        hash in hash(),
        view in view(),
        control in prop::sample::select(CONTROLS),
        options in chart_options(),
    ) {
        let settings = page::resolve(page::decode_hash(&hash)).settings;
        guarded("decoded page", KNOWN_PANICS, || {
            timed("decoded page", &(view, &settings), || page_case("decoded", view, &settings, control, options))
        })?;
    }

    /// Settings handed over as a JSON object (never validated), computed and drawn.
    #[test]
    fn any_settings_compute_and_draw(
        object in settings_object(),
        view in view(),
        control in prop::sample::select(CONTROLS),
        options in chart_options(),
    ) {
        let settings: Settings = match serde_json::from_value(Value::Object(object)) {
            Ok(settings) => settings,
            Err(_) => return Ok(()),
        };
        guarded("settings page", KNOWN_PANICS, || {
            timed("settings page", &(view, &settings), || page_case("settings", view, &settings, control, options))
        })?;
    }
}

/// Each view's computed result for the default settings (one storm series), as JSON.
fn default_computed(view: View) -> Option<Value> {
    static COMPUTED: OnceLock<Vec<Option<Value>>> = OnceLock::new();
    let all = COMPUTED.get_or_init(|| {
        View::ALL
            .iter()
            .map(|&v| {
                let mut settings = Settings::default();
                settings.set("storm-compare", "false");
                let computed = page::compute(v, &settings, &mut Memo::default()).ok()?;
                serde_json::to_value(&computed).ok()
            })
            .collect()
    });
    all[View::ALL.iter().position(|&v| v == view)?].clone()
}

fn number_slots(value: &mut Value) -> Vec<&mut Value> {
    fn collect<'a>(value: &'a mut Value, slots: &mut Vec<&'a mut Value>) {
        match value {
            Value::Number(_) => slots.push(value),
            Value::Array(items) => items.iter_mut().for_each(|v| collect(v, slots)),
            Value::Object(map) => map.values_mut().for_each(|v| collect(v, slots)),
            _ => {}
        }
    }
    let mut slots = Vec::new();
    collect(value, &mut slots);
    slots
}

/// The arrays holding no array or object (histogram counts, per-second bins, ...) and the
/// arrays of objects (rows, minutes, reports), which cannot be borrowed with their elements.
fn array_slots(value: &mut Value) -> Vec<&mut Vec<Value>> {
    fn collect<'a>(value: &'a mut Value, slots: &mut Vec<&'a mut Vec<Value>>) {
        match value {
            Value::Array(items) => {
                if items.iter().any(|v| v.is_array() || v.is_object()) {
                    items.iter_mut().for_each(|v| collect(v, slots));
                } else {
                    slots.push(items);
                }
            }
            Value::Object(map) => map.values_mut().for_each(|v| collect(v, slots)),
            _ => {}
        }
    }
    let mut slots = Vec::new();
    collect(value, &mut slots);
    slots
}

#[derive(Debug, Clone)]
enum Mutation {
    /// Replace the `n`th number (mod their count) by this one.
    Number(usize, Value),
    /// Keep the first `k` items of the `n`th leaf array.
    Truncate(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        8 => (any::<usize>(), json_number()).prop_map(|(n, v)| Mutation::Number(n, v)),
        2 => (any::<usize>(), 0usize..3).prop_map(|(n, k)| Mutation::Truncate(n, k)),
    ]
}

fn mutate(value: &mut Value, mutation: &Mutation) {
    match mutation {
        Mutation::Number(n, v) => {
            let mut slots = number_slots(value);
            if !slots.is_empty() {
                let len = slots.len();
                *slots[n % len] = v.clone();
            }
        }
        Mutation::Truncate(n, keep) => {
            let mut slots = array_slots(value);
            if !slots.is_empty() {
                let len = slots.len();
                slots[n % len].truncate(*keep);
            }
        }
    }
}

/// Panics only a `computed` value from JavaScript could cause (numbers no computation makes);
/// none since such values are refused (`drawing_a_computed_result_with_a_huge_number_is_refused`).
const KNOWN_DRAWING_PANICS: &[&str] = &[];

proptest! {
    #![proptest_config(config(192))]

    /// `drawView` / `viewSvg` with a `computed` value from JavaScript: a real one with numbers
    /// replaced (huge, tiny, negative, beyond 2^53), arrays cut, or another view's.
    #[test]
    fn drawing_a_mutated_computed_result(
        view in view(),
        from in view(),
        mutations in prop::collection::vec(mutation(), 1..4),
        size in svg_size(),
    ) {
        let Some(mut value) = default_computed(from) else { return Ok(()) };
        for m in &mutations {
            mutate(&mut value, m);
        }
        let Ok(computed) = serde_json::from_value::<Computed>(value) else { return Ok(()) };
        let mut settings = Settings::default();
        settings.set("storm-compare", "false");
        let input = (view, &mutations, size);
        guarded("draw mutated", KNOWN_DRAWING_PANICS, || {
            let svg = timed("draw mutated", &input, || chart::to_svg(size, |area| {
                page::draw(area, view, &settings, &computed, &ChartOptions::default())
                    .map(|_| ())
                    .map_err(|e| Error::Unreachable(e.message))
            }));
            if let Err(error) = &svg {
                check_error("draw mutated", error)?;
            }
            Ok(())
        })?;
    }
}

proptest! {
    #![proptest_config(config(128))]

    /// `drawView` / `viewSvg` with packed bytes from JavaScript that `computeView` did not make:
    /// a real result with bytes overwritten or cut. Refused with a message naming `computed`,
    /// or read as some other result and then drawn or refused like any other: never a panic.
    #[test]
    fn drawing_garbled_packed_bytes(
        view in view(),
        writes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in prop::option::of(any::<prop::sample::Index>()),
    ) {
        let Some(value) = default_computed(view) else { return Ok(()) };
        let computed: Computed = serde_json::from_value(value).unwrap();
        let mut bytes = page::pack(computed).unwrap();
        for (at, byte) in &writes {
            let i = at.index(bytes.len());
            bytes[i] = *byte;
        }
        if let Some(cut) = cut {
            bytes.truncate(cut.index(bytes.len()));
        }
        let computed = match page::unpack(&bytes) {
            Ok(computed) => computed,
            Err(error) => {
                let message = error.to_string();
                prop_assert!(message.starts_with("computed must be what computeView returned"), "{}", message);
                return Ok(());
            }
        };
        let mut settings = Settings::default();
        settings.set("storm-compare", "false");
        let input = (view, &writes, cut);
        guarded("draw garbled bytes", KNOWN_DRAWING_PANICS, || {
            let svg = timed("draw garbled bytes", &input, || chart::to_svg((800, 400), |area| {
                page::draw(area, view, &settings, &computed, &ChartOptions::default())
                    .map(|_| ())
                    .map_err(|e| Error::Unreachable(e.message))
            }));
            if let Err(error) = &svg {
                check_error("draw garbled bytes", error)?;
            }
            Ok(())
        })?;
    }
}

// ---------------------------------------------------------------------------------------------
// Cases found by fuzzing, kept as explicit reproductions (ignored until fixed in `src/`).
// ---------------------------------------------------------------------------------------------

/// `viewSvg("distribution", ..., width 100)` and `backoff-lab figure distribution --width 100`:
/// `f64::clamp(2 s, width - w - 2 s)` with a label wider than the plot panics.
#[test]
fn distribution_chart_narrower_than_about_150_px_draws() {
    let mut settings = Settings::default();
    settings.set("samples", "20000");
    let computed = page::compute(View::Distribution, &settings, &mut Memo::default()).unwrap();
    for size in [(100, 100), (100, 400), (200, 100)] {
        let options = ChartOptions {
            scale: if size.0 == 200 { 4.0 } else { 1.0 },
            ..ChartOptions::default()
        };
        let drawn = std::panic::catch_unwind(|| {
            chart::to_svg(size, |area| {
                page::draw(area, View::Distribution, &settings, &computed, &options)
                    .map(|_| ())
                    .map_err(|e| Error::Unreachable(e.message))
            })
        });
        assert!(
            drawn.is_ok(),
            "{size:?} at scale {}: panicked",
            options.scale
        );
    }
}

/// Found by fuzzing: a decoded hash's notice showed the value cut to 40 characters, then the
/// reason repeated it whole (a 4,000-character value made a notice of 4,000+ characters).
#[test]
fn a_notice_shows_a_long_value_cut() {
    for hash in [
        format!("base={}", "9".repeat(4_000)),
        format!("base={}", "x".repeat(1_000)),
        format!("arrivals={}", "x".repeat(1_000)),
    ] {
        let state = page::decode_hash(&hash);
        let longest = state
            .notices
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap();
        assert!(
            longest < 400,
            "{}…: a notice of {longest} characters",
            &hash[..20]
        );
    }
}

/// `drawView` with a `computed` from JavaScript holding a number no computation makes (1e300
/// as a percentile or the expected give-up time, -1e300 as a herd's mean or a storm minute's
/// backlog): plotters' axis arithmetic overflows (a panic where overflow checks are on, as in
/// the test profile; in a release or wasm build it wraps instead).
#[test]
fn drawing_a_computed_result_with_a_huge_number_is_refused() {
    let settings = Settings::default();
    for (view, pointer, number) in [
        (View::Distribution, "/report/expected_give_up_s", 1e300),
        (View::Distribution, "/report/percentiles/p50", 1e300),
        (View::Herd, "/spread/first_retry/mean_per_s", -1e300),
    ] {
        let computed = page::compute(view, &settings, &mut Memo::default()).unwrap();
        let mut value = serde_json::to_value(&computed).unwrap();
        *value.pointer_mut(pointer).unwrap() = serde_json::json!(number);
        let computed: Computed = serde_json::from_value(value).unwrap();
        let drawn = std::panic::catch_unwind(|| {
            chart::to_svg((800, 400), |area| {
                page::draw(area, view, &settings, &computed, &ChartOptions::default())
                    .map(|_| ())
                    .map_err(|e| Error::Unreachable(e.message))
            })
        });
        let refused = drawn
            .unwrap_or_else(|_| panic!("{pointer} = {number}: panicked"))
            .expect_err("refused");
        assert!(
            refused.to_string().ends_with(&format!(
                "got {number:e} at {}",
                pointer[1..].replace('/', ".")
            )),
            "{refused}"
        );
    }
}

/// An outage of 0.1 µs under full jitter: every event is delivered, yet the shares come out as
/// 1.0000000000001181 delivered and -1.18e-13 exhausted (`(mass - delivered) / mass` rounded).
/// (Found by fuzzing, fixed in bef2aac: kept as a regression test.)
#[test]
fn staleness_shares_leave_0_to_1_by_rounding() {
    use backoff_lab::{Policy, Stop};
    let policy = Policy::new(30.0, 1.0, 3.0 * 3_600.0, Stop::Attempts(2)).unwrap();
    let question = Question::new(&policy, backoff_lab::jitter::Jitter::Full, 0).unwrap();
    let all = question.outage(1e-7).unwrap().all_events;
    assert!(
        (0.0..=1.0).contains(&all.exhausted_share) && (0.0..=1.0).contains(&all.delivered_share),
        "{all:?}"
    );
}

/// Found by fuzzing: staleness under jitter had no work limit (a 10,000-attempt ladder took
/// 12 s natively with 20,000 samples, 62 s with 100,000; the page's staleness view as long).
/// Now a power per gap per draw is gone (the gaps' windows are computed once) and the draws
/// count against the limits like the others' (see `limits::delivery_cost`): the largest
/// requests are refused, naming `samples`, before any work.
#[test]
fn staleness_under_jitter_is_refused_past_the_draw_limit() {
    use backoff_lab::limits::{delivery_cost, Draws, MAX_DRAWS};
    use backoff_lab::{Policy, Stop};
    let policy = Policy::new(1.0, 1.0, 1.0, Stop::Attempts(10_000)).unwrap();
    let full = backoff_lab::jitter::Jitter::Full;
    let question = Question::new(&policy, full, 1).unwrap();
    let refused = StalenessReport::ladder(&question.with_samples(100_000).unwrap(), None)
        .expect_err("100,000 schedules of 10,000 attempts")
        .to_string();
    assert!(refused.starts_with("samples must be at most "), "{refused}");
    // The page samples the default 20,000 schedules whatever its settings: its report on the
    // ladder and its chart (at most 361 outages from the first 5,000) fit for any policy.
    let ladder = backoff_lab::staleness::ladder(question.give_up_s()).len();
    for jitter in [full, backoff_lab::jitter::Jitter::Decorrelated] {
        let report = 20_000.0 * delivery_cost(10_000, jitter, Draws::Staleness { outages: ladder });
        let curve = backoff_lab::staleness::CURVE_SAMPLES as f64
            * delivery_cost(10_000, jitter, Draws::Staleness { outages: 361 });
        assert!(
            report <= MAX_DRAWS && curve <= MAX_DRAWS,
            "{jitter:?}: {report} {curve}"
        );
    }
}

/// Found by fuzzing: decorrelated draws cost about five times the others (each gap depends on
/// the last) but were counted alike: 1e6 samples of a 2,001-attempt schedule took 20 s in
/// `backoff-lab jitter`, a herd of 1e6 such deliveries 30 s. Now each kind of draw counts what
/// it costs, and the sample count is checked before the decorrelated estimate draws anything.
#[test]
fn decorrelated_draws_count_what_they_cost() {
    let params = |attempts: f64, samples: f64| Params {
        base: Some(backoff_lab::DurationInput::Seconds(1.0)),
        multiplier: Some(1.0),
        cap: Some(backoff_lab::DurationInput::Seconds(1.0)),
        attempts: Some(attempts),
        mode: Some("decorrelated".into()),
        seed: Some(1.0),
        samples: Some(samples),
        deliveries: Some(samples),
        ..Params::default()
    };
    let jitter = page::jitter_report(&params(2_001.0, 1e6))
        .expect_err("1e6 decorrelated give-up times of 2,001 attempts");
    assert!(
        jitter
            .to_string()
            .starts_with("samples must be at most 200000 for a schedule of 2001 attempts"),
        "{jitter}"
    );
    let herd = page::herds(&params(2_001.0, 1e6)).expect_err("a herd of 1e6 such deliveries");
    assert!(
        herd.to_string()
            .starts_with("deliveries must be at most 166666 for a schedule of 2001 attempts"),
        "{herd}"
    );
    // Full jitter draws five times as many give-up times.
    let full = Params {
        mode: Some("full".into()),
        ..params(2_001.0, 1e6)
    };
    assert!(page::jitter_report(&full).is_ok());
}

/// A herd kept one count per second of its first retry's window, with no limit but the
/// policy's: one delivery with a 300-day base under proportional jitter (factor 1) held 52
/// million bins, which `herd` (the JS API) and `backoff-lab herd --format json` (370 MB of
/// output, 2.4 s) returned whole, and the page's herd view (`#gaps=5M`: five months) copied
/// from its worker (two herds of 13 million bins). (Found by fuzzing, fixed by round bin widths
/// past 100,000 first-retry bins: kept as a regression test.)
#[test]
fn herd_first_retry_bins_grow_with_the_first_gap() {
    use backoff_lab::herd::{MAX_BINS, MAX_FIRST_RETRY_BINS};
    use backoff_lab::{Policy, Stop};
    let policy = Policy::new(300.0 * 86_400.0, 1.0, 300.0 * 86_400.0, Stop::Attempts(2)).unwrap();
    let herd = backoff_lab::herd::herd(
        &policy,
        backoff_lab::jitter::Jitter::proportional(1.0).unwrap(),
        1,
        1,
    )
    .unwrap();
    assert!(
        herd.first_retry_per_second.len() <= MAX_FIRST_RETRY_BINS,
        "{} first-retry bins for one delivery",
        herd.first_retry_per_second.len()
    );
    assert!(herd.per_second.len() <= MAX_BINS);
    assert_eq!(herd.first_retry.bin_s, 600.0, "10 min bins for 600 days");
    let settings = page::resolve(page::decode_hash("#gaps=5month&view=herd")).settings;
    let Computed::Herd { spread, spike } =
        page::compute(View::Herd, &settings, &mut Memo::default()).unwrap()
    else {
        panic!("not a herd")
    };
    for herd in [&spread, &spike] {
        assert!(
            herd.first_retry_per_second.len() <= MAX_FIRST_RETRY_BINS,
            "the page's herd view copies {} first-retry bins",
            herd.first_retry_per_second.len()
        );
        assert!(herd.first_retry.bin_s > 1.0, "five months in wider bins");
    }
    // The caption says that its peak is a wide bin's average, and the spike stays one second.
    let caption = spread.caption(Some(&spike));
    assert!(caption.contains("averaged over the busiest"), "{caption}");
    assert!(
        caption.contains("Without jitter all 1,000 arrive within one second"),
        "{caption}"
    );
}
