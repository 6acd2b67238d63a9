//! Generators of numbers and text: special numbers, NaN-ish text, durations, rates,
//! percentages, and text that is none of them.

use crate::prelude::*;

pub(crate) const SPECIAL_NUMBERS: &[f64] = &[
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
pub(crate) fn json_number() -> impl Strategy<Value = Value> {
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

pub(crate) fn f64_value(n: f64) -> Value {
    serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
}

/// A count: mostly small (cheap to compute), sometimes in range, often absurd.
pub(crate) fn json_count() -> impl Strategy<Value = Value> {
    prop_oneof![
        5 => (0u64..20).prop_map(Value::from),
        1 => (1u64..10_001).prop_map(Value::from),
        3 => prop::sample::select(SPECIAL_NUMBERS).prop_map(f64_value),
        1 => json_number(),
    ]
}

pub(crate) const NAN_ISH: &[&str] = &[
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

pub(crate) const DURATION_TEXT: &[&str] = &[
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

pub(crate) const NUMBER_TEXT: &[&str] = &[
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

pub(crate) const UNITS: &[&str] = &[
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

pub(crate) const RATE_TEXT: &[&str] = &[
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

pub(crate) const PERCENT_TEXT: &[&str] = &[
    "10%", "0%", "100%", "101%", "-1%", "NaN%", "%", "1e400%", "50", "10 %", "%10", "10%%", "0.5%",
    "1e-9%",
];

pub(crate) fn from_list(list: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::sample::select(list).prop_map(str::to_string)
}

/// Text of any kind: NaN-ish, unicode, soups, very long.
pub(crate) fn weird_text() -> BoxedStrategy<String> {
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

pub(crate) fn duration_text() -> BoxedStrategy<String> {
    prop_oneof![
        4 => from_list(DURATION_TEXT),
        3 => (from_list(NUMBER_TEXT), from_list(UNITS)).prop_map(|(n, u)| format!("{n}{u}")),
        1 => (0u32..100, 0u32..100).prop_map(|(m, s)| format!("{m}m{s}s")),
        2 => weird_text(),
    ]
    .boxed()
}

pub(crate) fn rate_text() -> BoxedStrategy<String> {
    prop_oneof![
        4 => from_list(RATE_TEXT),
        3 => (from_list(NUMBER_TEXT), prop::sample::select(&["/s", "/min", "/h", "/d", "", "/x"][..]))
            .prop_map(|(n, u)| format!("{n}{u}")),
        1 => weird_text(),
    ]
    .boxed()
}

pub(crate) fn percent_text() -> BoxedStrategy<String> {
    prop_oneof![
        3 => from_list(PERCENT_TEXT),
        2 => from_list(NUMBER_TEXT).prop_map(|n| format!("{n}%")),
        1 => weird_text(),
    ]
    .boxed()
}
