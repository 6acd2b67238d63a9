//! Generators of JSON objects as `Params` (every known field with values of every JSON type,
//! unknown keys, extreme numbers), poisoned fields, chart options and sizes, and the
//! proptest configuration.

use crate::prelude::*;

/// Any JSON value, nested a little.
pub(crate) fn any_json() -> BoxedStrategy<Value> {
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
pub(crate) enum Kind {
    Duration,
    Number,
    Count,
    Rate,
    Percent,
    Bool,
    Gaps,
    OneOf(&'static [&'static str]),
}

pub(crate) const MODES: &[&str] = &[
    "none",
    "full",
    "equal",
    "decorrelated",
    "proportional",
    "FULL",
    "",
    "random",
];
pub(crate) const POLICIES: &[&str] = &["fixed", "exponential", "Fixed", "", "linear"];
pub(crate) const ENGINES: &[&str] = &["auto", "discrete", "fluid", "arithmetic", "", "exact"];
pub(crate) const QUOTAS: &[&str] = &["aws", "grpc", "", "AWS", "finagle"];

/// Every field of `Params` as JSON names it, with what it holds.
pub(crate) const PARAMS: &[(&str, Kind)] = &[
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

pub(crate) fn value_of(kind: Kind) -> BoxedStrategy<Value> {
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
pub(crate) fn plausible(name: &str) -> BoxedStrategy<Value> {
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
pub(crate) enum Edit {
    /// Set the field to a hostile value of its kind (or of any kind).
    Set(&'static str, Value),
    /// Leave the field out.
    Remove(&'static str),
    /// Add a key `Params` does not have.
    Unknown(String, Value),
}

pub(crate) fn edit() -> impl Strategy<Value = Edit> {
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
pub(crate) fn params_object(
    focus: &'static [&'static str],
    others: f64,
) -> BoxedStrategy<Map<String, Value>> {
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
pub(crate) fn hostile_object(focus: &'static [&'static str]) -> BoxedStrategy<Map<String, Value>> {
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
pub(crate) fn poison() -> impl Strategy<Value = Option<(usize, f64)>> {
    prop::option::weighted(
        0.15,
        (
            0usize..40,
            prop::sample::select(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0][..]),
        ),
    )
}

pub(crate) fn poisoned(params: &mut Params, poison: Option<(usize, f64)>) {
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
        13 => params.percentile = Some(N::Number(v)),
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
pub(crate) fn read_params(
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

pub(crate) fn chart_options() -> impl Strategy<Value = ChartOptions> {
    (
        any::<bool>(),
        prop::sample::select(&[1.0, 1.0, 2.0, 0.5, 4.0, 4.01, 0.0, f64::NAN, 1e300][..]),
        any::<bool>(),
        prop::option::of(any::<(u8, u8, u8)>()),
    )
        .prop_map(|(dark, scale, log_scale, background)| ChartOptions {
            dark,
            scale,
            log_scale,
            background: background.map(|(r, g, b)| backoff_lab::chart::CssColour(r, g, b)),
        })
}

pub(crate) fn svg_size() -> impl Strategy<Value = (u32, u32)> {
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
pub(crate) fn svg(
    what: &str,
    size: (u32, u32),
    options: ChartOptions,
    draw: impl FnOnce(
        &plotters::drawing::DrawingArea<
            backoff_lab::chart::svg_text::SvgFigure,
            plotters::coord::Shift,
        >,
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
pub(crate) fn config(cases: u32) -> ProptestConfig {
    let scale = std::env::var("FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    ProptestConfig {
        cases: cases * scale,
        max_shrink_time: 60_000,
        // Seeds next to each module (`api.proptest-regressions` beside `api.rs`): proptest's
        // default looks for the crate root's folder, which `tests/fuzz/main.rs` makes
        // `tests/proptest-regressions/`.
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        ..ProptestConfig::default()
    }
}
