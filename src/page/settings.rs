//! Every control's setting, as text keyed as in the URL hash, written to the hash and read back.
//! Reading never fails: an unknown key, a garbled value or an absurd size falls back to the
//! default with a notice that says what was ignored. Values stay text; the page writes them into
//! form fields, never into HTML.

use std::collections::BTreeMap;

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde::{Deserialize, Serialize};

use crate::error::quoted;
use crate::survival::DEFAULT_TEXT as DEFAULT_AXES;
use crate::{parse_duration, NumberInput};

/// The longest hash read; anything longer is refused whole.
pub const MAX_HASH_LEN: usize = 4_096;

/// What a setting may hold.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Duration,
    OptionalDuration,
    Durations,
    Number(f64, f64),
    Whole(f64, f64),
    /// A whole number in the range, or empty (the bound is off, or at its default).
    OptionalWhole(f64, f64),
    /// A number in the range, or empty (its default).
    OptionalNumber(f64, f64),
    Bool,
    OneOf(&'static [&'static str]),
    /// A preset's name (see [`crate::presets::presets`]), or empty.
    Preset,
    /// Checked by its own function (the survival map's axes, the breaker's share).
    Checked(fn(&str) -> Result<(), String>),
    /// A number of percent written with or without `%` (`10`, `10%`), as the CLI and the JS API
    /// take it, checked by its own function (the budget, as the storm checks it).
    CheckedPercent(fn(&str) -> Result<(), String>),
}

/// What a refusal says a field must be, for a notice that names the field and quotes the value
/// itself ("breaker-share \"x\" was ignored (breaker-share must be …, got \"x\")" said both
/// twice).
fn reason(error: crate::Error) -> String {
    match error {
        crate::Error::OutOfRange { valid, .. } => valid,
        crate::Error::BadDuration { .. } => {
            format!("a duration {}", crate::duration::DURATION_EXAMPLES)
        }
        other => other.to_string(),
    }
}

/// The survival map's outage axis, `10s..24h` (its range checked where the map is made).
fn check_outages(value: &str) -> Result<(), String> {
    crate::survival::outage_ends(value)
        .map(|_| ())
        .map_err(reason)
}

/// A storm's outage: `0 s` (none), or from 0.5 s to 7 days, as the storm checks it.
fn check_outage(value: &str) -> Result<(), String> {
    crate::Params::outage_of_text(value)
        .map(|_| ())
        .map_err(reason)
}

/// A storm's traffic: from 0 s to 7 days, as the storm checks it.
fn check_traffic(value: &str) -> Result<(), String> {
    crate::Params::traffic_of_text(value)
        .map(|_| ())
        .map_err(reason)
}

/// A storm setting checked by the storm's own rule: the default storm with it alone set by
/// `set`, refused with the range the storm states when the storm refuses it by `key`. A link's
/// `timeout=2h` passed the page's "duration up to 365 days" to be refused by the chart ("from
/// 1 µs to 1 h"), and `capacity=1e308` a "rate greater than 0" (outside review).
fn storm_rule(
    key: &str,
    value: &str,
    set: impl Fn(&mut crate::Params, String),
) -> Result<(), String> {
    let refusal = |value: &str| {
        let mut params = crate::Params {
            // The resume rate applies to a paused endpoint alone.
            pause: Some(key == "resume-rate"),
            // The field's own range alone: a second of traffic and a batch of one meet the
            // storm's rules across fields (at least one delivery, at most 10,000,000), which
            // the link's other settings decide (`traffic=10min&arrivals=10000/s` is a storm,
            // refused against the default 2 h: outside code review).
            traffic: Some(crate::DurationInput::Text("1s".into())),
            batch: Some(1.0),
            ..crate::Params::default()
        };
        set(&mut params, value.to_string());
        match params.scenario() {
            Err(error @ crate::Error::OutOfRange { field, .. }) if field == key => {
                Err(reason(error))
            }
            Err(error @ crate::Error::BadDuration { field, .. }) if field == key => {
                Err(reason(error))
            }
            _ => Ok(()),
        }
    };
    match refusal(value) {
        // Text that is no rate at all is told the range too, as no rate (0) is.
        Err(why) if why.starts_with("a rate such as") => {
            let range = refusal("0").err().unwrap_or_default();
            Err(format!("{range}, such as 600/min, 30/s or 36000/h"))
        }
        checked => checked,
    }
}

fn check_arrivals(value: &str) -> Result<(), String> {
    storm_rule("arrivals", value, |p, v| {
        p.arrivals = Some(NumberInput::Text(v))
    })
}

fn check_capacity(value: &str) -> Result<(), String> {
    storm_rule("capacity", value, |p, v| {
        p.capacity = Some(NumberInput::Text(v))
    })
}

fn check_rate_limit(value: &str) -> Result<(), String> {
    // Empty is off.
    if value.trim().is_empty() {
        return Ok(());
    }
    storm_rule("rate-limit", value, |p, v| {
        p.rate_limit = Some(NumberInput::Text(v))
    })
}

fn check_resume_rate(value: &str) -> Result<(), String> {
    // Empty is off.
    if value.trim().is_empty() {
        return Ok(());
    }
    storm_rule("resume-rate", value, |p, v| {
        p.resume_rate = Some(NumberInput::Text(v))
    })
}

fn check_timeout(value: &str) -> Result<(), String> {
    storm_rule("timeout", value, |p, v| {
        p.timeout = Some(crate::DurationInput::Text(v))
    })
}

fn check_retry_after(value: &str) -> Result<(), String> {
    // Empty is off.
    if value.trim().is_empty() {
        return Ok(());
    }
    storm_rule("retry-after", value, |p, v| {
        p.retry_after = Some(crate::DurationInput::Text(v))
    })
}

/// The proportional jitter's factor, as the jitter checks it: 0, or from 0.000001 to 1.
fn check_factor(value: &str) -> Result<(), String> {
    let factor: f64 = value
        .trim()
        .parse()
        .map_err(|_| "a number from 0 to 1: 0 for none, else at least 0.000001".to_string())?;
    crate::jitter::Factor::new(factor)
        .map(|_| ())
        .map_err(reason)
}

/// The breaker's failure share: empty (off) or a whole percentage.
fn check_breaker_share(value: &str) -> Result<(), String> {
    if value.trim().is_empty() {
        return Ok(());
    }
    crate::params::breaker_percent(&crate::NumberInput::Text(value.into()))
        .map(|_| ())
        .map_err(reason)
}

/// The retry budget's floor: empty (its default) or a rate in the storm's range for it (0 is a
/// pure share), checked by the storm's own rule.
/// A retry budget: empty (none), or a percentage as the storm checks it (whole parts per
/// million: a link's 0.00001% was let through, and then refused by the storm).
fn check_budget(value: &str) -> Result<(), String> {
    if value.trim().is_empty() {
        return Ok(());
    }
    crate::parse_percent(value)
        .ok_or_else(|| format!("{}, such as 10 or 10%", crate::storm::BUDGET_RANGE))
        .and_then(|percent| crate::storm::check_budget(percent / 100.0).map_err(reason))
}

fn check_budget_floor(value: &str) -> Result<(), String> {
    if value.trim().is_empty() {
        return Ok(());
    }
    NumberInput::Text(value.into())
        .per_second("budget-floor")
        .and_then(crate::storm::check_budget_floor)
        .map_err(|_| "a rate from 0 to 10000000 per second, such as 0.5/s or 30/min".into())
}

/// A window or a cool-down: empty (its default) or whole seconds from 1 s to 1 h, checked by
/// the storm's own rule (a link's `budget-window=2h` passed, to be refused by the storm later).
fn check_whole_seconds_to_an_hour(value: &str) -> Result<(), String> {
    if value.trim().is_empty() {
        return Ok(());
    }
    parse_duration("value", value)
        .and_then(|seconds| crate::params::whole_seconds_within("value", seconds))
        .map(|_| ())
        .map_err(|_| crate::params::WHOLE_SECONDS_TO_AN_HOUR.into())
}

fn check_headroom(value: &str) -> Result<(), String> {
    crate::survival::headroom_ends(value)
        .map(|_| ())
        .map_err(reason)
}

fn check_steps(value: &str) -> Result<(), String> {
    crate::survival::step_counts(value)
        .map(|_| ())
        .map_err(reason)
}

/// The settings that, empty, take a value of their own (the field's label says which), rather
/// than turning something off.
const DEFAULT_WHEN_EMPTY: &[&str] = &[
    "budget-window",
    "budget-floor",
    "resume-rate",
    "retry-quota-tokens",
    "retry-quota-ratio",
    "breaker-window",
    "breaker-min-attempts",
    "breaker-cooldown",
    "breaker-probes",
];

/// Every setting of the page: its key, what it may hold and its default.
const SETTINGS: &[(&str, Kind, &str)] = &[
    ("preset", Kind::Preset, ""),
    ("base", Kind::Duration, "30 s"),
    ("multiplier", Kind::Number(1.0, 1_000.0), "3"),
    ("cap", Kind::Duration, "3 h"),
    ("gaps", Kind::Durations, ""),
    ("then-every", Kind::OptionalDuration, ""),
    ("stop", Kind::OneOf(&["attempts", "give-up"]), "attempts"),
    ("attempts", Kind::Whole(1.0, 10_000.0), "14"),
    ("give-up", Kind::Duration, "24 h"),
    ("log", Kind::Bool, "true"),
    ("compare", Kind::Preset, ""),
    (
        "mode",
        Kind::OneOf(&["none", "full", "equal", "decorrelated", "proportional"]),
        "full",
    ),
    ("factor", Kind::Checked(check_factor), "0.2"),
    ("seed", Kind::Whole(0.0, 9_007_199_254_740_991.0), "42"),
    (
        "samples",
        Kind::OneOf(&["20000", "100000", "1000000"]),
        "20000",
    ),
    // The herd's own range: a link holds any count the field accepts.
    (
        "deliveries",
        Kind::Whole(1.0, crate::herd::MAX_DELIVERIES as f64),
        "1000",
    ),
    ("deadline", Kind::OptionalDuration, "24 h"),
    ("arrivals", Kind::Checked(check_arrivals), "600/min"),
    ("capacity", Kind::Checked(check_capacity), "30/s"),
    ("outage", Kind::Checked(check_outage), "10 min"),
    // How long deliveries arrive: the article's 2 h (it was fixed on the page, and an outage of
    // 2 h or more met only the backlog, which a reader took for a drain of traffic that goes on).
    ("traffic", Kind::Checked(check_traffic), "2 h"),
    ("timeout", Kind::Checked(check_timeout), "5 s"),
    // Empty is no budget; 0 is a budget of no share, which still lets its floor through (as
    // `--budget 0` in the CLI).
    ("budget", Kind::CheckedPercent(check_budget), ""),
    (
        "budget-window",
        Kind::Checked(check_whole_seconds_to_an_hour),
        "",
    ),
    ("budget-floor", Kind::Checked(check_budget_floor), ""),
    ("rate-limit", Kind::Checked(check_rate_limit), ""),
    ("retry-after", Kind::Checked(check_retry_after), ""),
    ("pause", Kind::Bool, "false"),
    ("resume-rate", Kind::Checked(check_resume_rate), ""),
    // The retry quota and the circuit breaker, as `storm` takes them; empty is off (or, for
    // their other settings, the documented default).
    ("retry-quota", Kind::OneOf(&["", "aws", "grpc"]), ""),
    (
        "retry-quota-tokens",
        Kind::OptionalWhole(1.0, 1_000_000.0),
        "",
    ),
    (
        "retry-quota-ratio",
        Kind::OptionalNumber(0.000_001, 1.0),
        "",
    ),
    ("breaker-failures", Kind::OptionalWhole(1.0, 10_000.0), ""),
    ("breaker-share", Kind::Checked(check_breaker_share), ""),
    (
        "breaker-window",
        Kind::Checked(check_whole_seconds_to_an_hour),
        "",
    ),
    (
        "breaker-min-attempts",
        Kind::OptionalWhole(1.0, 1_000_000.0),
        "",
    ),
    (
        "breaker-cooldown",
        Kind::Checked(check_whole_seconds_to_an_hour),
        "",
    ),
    ("breaker-probes", Kind::OptionalWhole(1.0, 1_000.0), ""),
    ("storm-compare", Kind::Bool, "true"),
    (
        "engine",
        Kind::OneOf(&["auto", "fluid", "discrete"]),
        "auto",
    ),
    ("tolerance", Kind::OptionalDuration, "6 h"),
    ("max-lag", Kind::OptionalDuration, "1 h"),
    ("read-outage", Kind::Duration, "4 h"),
    ("outages", Kind::Checked(check_outages), DEFAULT_AXES.0),
    ("headroom", Kind::Checked(check_headroom), DEFAULT_AXES.1),
    ("steps", Kind::Checked(check_steps), DEFAULT_AXES.2),
    (
        "section",
        Kind::OneOf(&["schedule", "jitter", "storm", "staleness", "survival"]),
        "schedule",
    ),
    (
        "view",
        Kind::OneOf(&[
            "timeline",
            "distribution",
            "herd",
            "storm",
            "staleness",
            "survival",
        ]),
        "timeline",
    ),
    // The embed page's and the element's colours: `auto` follows the reader's
    // `prefers-color-scheme` (the explorer always does). An iframe on a light-only site showed
    // a dark chart to a reader whose system is dark, with no way to say `light`.
    ("theme", Kind::OneOf(&["auto", "light", "dark"]), "auto"),
];

/// Every setting of the page, as text, in a fixed order; serialized as an object keyed as in
/// the URL hash (`{"base": "30 s", "mode": "full", ...}`).
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    values: Vec<String>,
}

impl Default for Settings {
    /// Every setting at its default.
    fn default() -> Self {
        Settings {
            values: SETTINGS.iter().map(|(_, _, d)| (*d).to_string()).collect(),
        }
    }
}

impl Settings {
    /// The defaults with `pairs` set, for tests.
    #[cfg(test)]
    pub(crate) fn with(pairs: &[(&str, &str)]) -> Settings {
        let mut settings = Settings::default();
        for (key, value) in pairs {
            settings.set(key, *value);
        }
        settings
    }

    /// The setting `key`'s text ("" for a key the page does not have).
    pub fn get(&self, key: &str) -> &str {
        index(key).map_or("", |i| self.values[i].as_str())
    }

    /// Sets `key` to `value` (a key the page does not have is ignored). A list of gaps is kept
    /// as the hash writes it, `5 s,5 min`, however the page shows it.
    pub fn set(&mut self, key: &str, value: impl Into<String>) {
        if let Some(i) = index(key) {
            self.values[i] = normalized(SETTINGS[i].1, value.into());
        }
    }

    /// Sets `key` back to its default (a key the page does not have is ignored).
    pub(super) fn reset(&mut self, key: &str) {
        if let Some(i) = index(key) {
            self.values[i] = SETTINGS[i].2.to_string();
        }
    }

    /// Every key with its value, in the fixed order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &str)> {
        SETTINGS
            .iter()
            .zip(&self.values)
            .map(|((key, _, _), value)| (*key, value.as_str()))
    }

    /// Whether `key` is one of the page's settings.
    pub fn is_key(key: &str) -> bool {
        index(key).is_some()
    }

    /// Whether `key` holds its default.
    pub fn is_default(&self, key: &str) -> bool {
        index(key).is_some_and(|i| self.values[i] == SETTINGS[i].2)
    }

    /// The settings a page's controls hold: known keys taken as they are (they are checked
    /// where they are used), unknown keys ignored, missing keys at their defaults.
    pub fn from_map(map: &BTreeMap<String, String>) -> Settings {
        let mut settings = Settings::default();
        for (key, value) in map {
            settings.set(key, value.as_str());
        }
        settings
    }

    /// Sets `key` to `value` if `key` is a setting and `value` valid for it; otherwise leaves
    /// the settings as they are and says, in one sentence, what was ignored and why (`key` and
    /// `value` [`quoted`]). An empty value is the setting's default where empty is not a value
    /// of its own (an empty `deadline` is none), as the README says of every attribute and key
    /// (`outage=""` was refused as no duration).
    pub fn set_checked(&mut self, key: &str, value: &str) -> Result<(), Refused> {
        let Some(index) = index(key) else {
            // A slip of a key's name is told the key it means, as the element's attributes are.
            let keys: Vec<&str> = SETTINGS.iter().map(|(key, _, _)| *key).collect();
            let hint = crate::spelling::nearest(key, &keys)
                .map(|near| format!(": did you mean {near}?"))
                .unwrap_or_default();
            return Err(Refused {
                key: None,
                refusal: format!("unknown setting {} was ignored{hint}", quoted(key)),
                using: None,
            });
        };
        let key = SETTINGS[index].0;
        let (_, kind, default) = SETTINGS[index];
        // A boolean attribute written bare (`<backoff-lab pause>`) is on, as HTML reads it.
        if value.trim().is_empty() && matches!(kind, Kind::Bool) {
            self.values[index] = "true".into();
            return Ok(());
        }
        if value.trim().is_empty() && valid(kind, "").is_err() {
            self.values[index] = default.to_string();
            return Ok(());
        }
        // A name in capitals is the name (`view="Timeline"`, `preset="Svix"`, `pause="TRUE"`
        // were refused), and a boolean attribute written as its own name (`pause="pause"`, as
        // HTML allows) is on.
        let lower = value.trim().to_ascii_lowercase();
        let lower = if matches!(kind, Kind::Bool) && lower == key {
            "true".to_string()
        } else {
            lower
        };
        let named = matches!(kind, Kind::OneOf(_) | Kind::Preset | Kind::Bool)
            && valid(kind, value.trim()).is_err()
            && valid(kind, &lower).is_ok();
        let value = if named { lower.as_str() } else { value };
        match valid(kind, value.trim()) {
            Ok(()) => {
                self.values[index] = normalized(kind, value.trim().to_string());
                Ok(())
            }
            Err(why) => {
                // The reason quotes the value as a refusal does (cut the same way past 80
                // characters), so the notice needs no more than a bound on its length.
                let why = cut(&why, 200);
                // An empty default is no value at all (no preset, no breaker): "none", not "";
                // or, for a bound's own settings, the value the storm takes then ("none" read as
                // a zero budget floor, where the storm took its 0.5/s).
                let using = match default.is_empty() {
                    true if DEFAULT_WHEN_EMPTY.contains(&key) => "its default".to_string(),
                    true => "none".to_string(),
                    false => format!("{default:?}"),
                };
                Err(Refused {
                    key: Some(key),
                    refusal: format!("{key} {} was ignored ({why})", quoted(value)),
                    using: Some(using),
                })
            }
        }
    }
}

impl Serialize for Settings {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Settings {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Settings::from_map(&BTreeMap::deserialize(deserializer)?))
    }
}

fn normalized(kind: Kind, value: String) -> String {
    match kind {
        Kind::Durations => crate::page::gap_list(&value).join(","),
        _ => value,
    }
}

fn index(key: &str) -> Option<usize> {
    SETTINGS.iter().position(|(k, _, _)| *k == key)
}

/// The page's own key equal to `name`, if the page has that setting.
pub(super) fn key(name: &str) -> Option<&'static str> {
    index(name).map(|i| SETTINGS[i].0)
}

/// A value a setting refused, told as "{refusal}; using {using}". Its key is kept so that what
/// is used instead can be said once a preset has completed the settings
/// ([`super::resolve::used_instead`]): "multiplier \"zero\" was ignored …; using \"3\"" was
/// said beside gRPC's preset, which uses 1.6.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    /// The setting refused; `None` for a key that is no setting.
    pub key: Option<&'static str>,
    /// The sentence up to what is used instead: `base "abc" was ignored (…)`.
    pub refusal: String,
    /// What is used instead, as the notice says it (`"3"`, `none`, `its default`); `None` when
    /// nothing is.
    pub using: Option<String>,
}

impl Refused {
    /// The refusal in one sentence, with what is used instead.
    pub fn notice(&self) -> String {
        match &self.using {
            Some(using) => format!("{}; using {using}", self.refusal),
            None => self.refusal.clone(),
        }
    }
}

/// A hash read back: every setting (defaults where nothing valid was given) and what was
/// ignored, in words.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DecodedState {
    /// Every setting.
    #[cfg_attr(test, ts(type = "Settings"))]
    pub settings: Settings,
    /// One sentence per thing ignored.
    pub notices: Vec<String>,
    /// The settings the link named with a valid value, whatever the value (a link that names a
    /// default value names it too): a preset's schedule is completed around them.
    #[serde(skip)]
    pub given: Vec<&'static str>,
    /// The notices that refuse a setting's value, with their keys.
    #[serde(skip)]
    pub refused: Vec<Refused>,
}

fn valid(kind: Kind, value: &str) -> Result<(), String> {
    // Text that is no duration at all is told the range too (`1e308s` read "value must be a
    // duration such as 30s …" where `400d` read the range).
    let duration_range = crate::policy::span_range();
    let check_duration = |text: &str| -> Result<(), String> {
        // A negative one is told the range alone (it read "never negative; from 1 µs").
        if text.trim_start().starts_with('-') {
            return Err(duration_range.clone());
        }
        let seconds = parse_duration("value", text).map_err(|error| match error {
            // A reason of its own (a unit written twice, a capital M) is kept, after the range
            // as the command line says it ("a duration such as … (M is a month …); a duration
            // from 1 µs to 365 days" said "a duration" twice: outside review).
            crate::Error::OutOfRange { valid, .. } => match crate::duration::how_to_write(&valid) {
                Some(how) => format!("{duration_range}, {how}"),
                None => format!("{valid}; {duration_range}"),
            },
            _ => format!("{duration_range}, {}", crate::duration::DURATION_EXAMPLES),
        })?;
        crate::policy::check_duration("value", seconds).map_err(|_| duration_range.clone())
    };
    match kind {
        Kind::Duration => check_duration(value),
        Kind::OptionalDuration if value.is_empty() => Ok(()),
        Kind::OptionalDuration => check_duration(value),
        Kind::Durations if value.is_empty() => Ok(()),
        Kind::Durations => {
            let gaps: Vec<&str> = value.split(',').collect();
            if gaps.len() > crate::policy::MAX_EXPLICIT_GAPS {
                return Err("at most 32 gaps".into());
            }
            // Told as a list: an item's range alone read as the whole field's (outside review).
            (gaps.into_iter().try_for_each(check_duration))
                .map_err(|why| format!("a list of 1 to 32 gaps, each {why}"))
        }
        Kind::OptionalWhole(..) | Kind::OptionalNumber(..) if value.is_empty() => Ok(()),
        Kind::OptionalWhole(lo, hi) => valid(Kind::Whole(lo, hi), value),
        Kind::OptionalNumber(lo, hi) => valid(Kind::Number(lo, hi), value),
        Kind::Number(lo, hi) | Kind::Whole(lo, hi) => {
            let n: f64 = value
                .trim()
                .parse()
                .map_err(|_| format!("a number from {lo} to {hi}"))?;
            let whole = !matches!(kind, Kind::Whole(..)) || n.fract() == 0.0;
            if n.is_finite() && whole && (lo..=hi).contains(&n) {
                Ok(())
            } else {
                Err(format!("a number from {lo} to {hi}"))
            }
        }
        Kind::Bool if value == "true" || value == "false" => Ok(()),
        Kind::Bool => Err("true or false".into()),
        Kind::OneOf(options) if options.contains(&value) => Ok(()),
        Kind::OneOf(options) => {
            let named: Vec<&str> = options.iter().copied().filter(|o| !o.is_empty()).collect();
            let or_empty = if named.len() < options.len() {
                ", or empty"
            } else {
                ""
            };
            Err(format!("one of {}{or_empty}", named.join(", ")))
        }
        Kind::Checked(check) | Kind::CheckedPercent(check) => check(value),
        Kind::Preset if value.is_empty() => Ok(()),
        Kind::Preset => crate::presets::preset(value)
            .map(|_| ())
            .map_err(|e| match e {
                crate::Error::OutOfRange { valid, .. } => valid,
                other => other.to_string(),
            }),
    }
}

/// Whether `text` is a valid value of the setting `key` (false for no setting).
pub(super) fn is_valid(key: &str, text: &str) -> bool {
    SETTINGS
        .iter()
        .find(|(name, ..)| *name == key)
        .is_some_and(|(_, kind, _)| valid(*kind, text).is_ok())
}

/// The number `text` holds for the setting `key`, as its kind reads it (a percentage with or
/// without its `%`), when it is a valid value of it; `None` if it is not (or `key` is not a
/// setting).
pub(super) fn number_of(key: &str, text: &str) -> Option<f64> {
    let (_, kind, _) = SETTINGS.iter().find(|(name, ..)| *name == key)?;
    is_valid(key, text).then_some(())?;
    match kind {
        Kind::CheckedPercent(..) => crate::parse_percent(text),
        _ => text.trim().parse().ok(),
    }
}

/// `text` cut to `most` characters, with an ellipsis when cut.
fn cut(text: &str, most: usize) -> String {
    if text.chars().count() <= most {
        return text.to_string();
    }
    let kept: String = text.chars().take(most - 1).collect();
    format!("{kept}…")
}

/// Reads a URL hash (with or without its `#`). Never fails; see [`DecodedState::notices`].
///
/// # Example
/// ```
/// use backoff_lab::page::decode_hash;
/// let state = decode_hash("#base=1m&multiplier=abc&colour=red");
/// assert_eq!(state.settings.get("base"), "1m");
/// assert_eq!(state.notices.len(), 2); // the multiplier fell back to 3; "colour" is unknown
/// ```
pub fn decode_hash(hash: &str) -> DecodedState {
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    let mut settings = Settings::default();
    let mut notices = Vec::new();
    let mut given = Vec::new();
    let mut refused = Vec::new();
    if hash.len() > MAX_HASH_LEN {
        notices.push(format!("the link's settings are {} characters long, more than {MAX_HASH_LEN}: all defaults are used", hash.len()));
        return DecodedState {
            settings,
            notices,
            given: Vec::new(),
            refused,
        };
    }
    // An empty pair, with or without its `=` (`#=&&`), says nothing: it read `unknown setting ""`.
    for pair in hash.split('&').filter(|p| !p.is_empty() && *p != "=") {
        let (raw_key, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
        let decode = |text: &str| {
            percent_decode_str(&text.replace('+', " "))
                .decode_utf8()
                .map(|c| c.into_owned())
        };
        let (Ok(key), Ok(value)) = (decode(raw_key), decode(raw_value)) else {
            // Named when its key reads: "base is not valid text in the link".
            notices.push(match decode(raw_key) {
                Ok(key) if index(&key).is_some() => {
                    format!("{key} is not valid text in the link and was ignored")
                }
                _ => "a setting in the link is not valid text and was ignored".into(),
            });
            continue;
        };
        match settings.set_checked(&key, &value) {
            Ok(()) => {
                let known = self::key(&key);
                // A key given twice is a link edited by hand: the last valid one counts, and
                // the notice says so rather than dropping the first in silence. One notice a
                // key, of the value used (each repeat had its own, each "the last").
                if let Some(known) = known.filter(|known| given.contains(known)) {
                    let repeated = format!("{known} is given more than once in the link");
                    let notice = format!("{repeated}; using the last, {}", quoted(value.trim()));
                    match notices.iter_mut().find(|n| n.starts_with(&repeated)) {
                        Some(earlier) => *earlier = notice,
                        None => notices.push(notice),
                    }
                }
                given.extend(known);
            }
            Err(refusal) => {
                notices.push(refusal.notice());
                refused.push(refusal);
            }
        }
    }
    if let Some(refusal) = quota_tokens_refused(&mut settings) {
        notices.push(refusal.notice());
        refused.push(refusal);
    }
    notices.extend(choose_stop(&mut settings, &given));
    // One notice says it once (`#zzz=1&zzz=2` listed the same sentence twice).
    let mut said = Vec::with_capacity(notices.len());
    notices.retain(|notice| {
        let new = !said.contains(notice);
        said.push(notice.clone());
        new
    });
    DecodedState {
        settings,
        notices,
        given,
        refused,
    }
}

/// A retry quota's token count, valid alone, checked against the quota the settings name (10
/// to 1,000,000 tokens for `aws`, 1 to 1,000 for `grpc`): one out of its quota's range is
/// ignored, set back to its default, as any refused value is (a link's
/// `retry-quota-tokens=5000` beside `grpc` took the storm chart's place with its error, where a
/// bad capacity fell back to its default: outside review). The ratio's range is the same for
/// every quota it serves (`grpc`'s alone; beside `aws` it is unused, and said to be).
pub(super) fn quota_tokens_refused(settings: &mut Settings) -> Option<Refused> {
    const KEY: &str = "retry-quota-tokens";
    let name = settings.get("retry-quota").to_string();
    let tokens = number_of(KEY, settings.get(KEY))?;
    // Without a quota (or with no name it knows) it is unused, and said to be.
    let Err(crate::Error::OutOfRange {
        field: KEY, valid, ..
    }) = crate::storm::RetryQuota::from_name(&name, Some(tokens), None)
    else {
        return None;
    };
    let refused = Refused {
        key: Some(KEY),
        refusal: format!(
            "{KEY} {} was ignored ({valid} for retry-quota {name})",
            quoted(settings.get(KEY))
        ),
        using: Some("its default".into()),
    };
    settings.reset(KEY);
    Some(refused)
}

/// A give-up deadline named without a stop rule is the stop, as `--give-up` is in the CLI;
/// named beside an attempt count (which the CLI refuses) it is left out: the notice says so.
pub(super) fn choose_stop(settings: &mut Settings, named: &[&'static str]) -> Option<String> {
    if !named.contains(&"give-up") || named.contains(&"stop") {
        return None;
    }
    if named.contains(&"attempts") {
        settings.set("stop", "attempts");
        return Some(
            "give-up was ignored: attempts is given too (add stop=give-up to use the deadline)"
                .into(),
        );
    }
    settings.set("stop", "give-up");
    None
}

/// The formula's settings, which a list of gaps replaces.
const FORMULA: [&str; 3] = ["base", "multiplier", "cap"];

/// Whether the settings' schedule is a list of gaps of their own, which the formula's settings
/// do not shape (a preset's listed gaps are cut to a cap: see [`super::resolve`]).
fn own_gaps(settings: &Settings) -> bool {
    !settings.get("gaps").trim().is_empty() && settings.get("preset").is_empty()
}

/// A list of gaps of its own is the schedule, as `--gaps` is in the CLI (which refuses
/// `--base`, `--multiplier` or `--cap` beside it): named beside it, they are left out of the
/// schedule. An element's attributes are told so, with the first of them named
/// ([`super::element_state`]); a link is read without a notice, as the page's own links carry
/// them beside a list ([`encode_hash`]). Their values stay, for when the list is cleared.
pub(super) fn formula_beside_gaps(
    settings: &Settings,
    named: &[&'static str],
) -> Option<(String, &'static str)> {
    if !named.contains(&"gaps") || !own_gaps(settings) {
        return None;
    }
    let ignored: Vec<&'static str> = FORMULA
        .into_iter()
        .filter(|key| named.contains(key))
        .collect();
    let (last, others) = ignored.split_last()?;
    let (keys, verb) = match others {
        [] => (last.to_string(), "was"),
        _ => (format!("{} and {last}", others.join(", ")), "were"),
    };
    let notice = format!(
        "{keys} {verb} ignored: gaps is given (clear the gaps to use base, multiplier and cap)"
    );
    Some((notice, ignored[0]))
}

/// Characters escaped in a hash value: everything but letters, digits and a few readable marks.
const ESCAPED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'/')
    .remove(b',');

/// Writes settings as a URL hash (without the `#`), in the fixed order, skipping defaults, but
/// for the stop rule beside a give-up deadline (a deadline alone is the stop, see
/// [`super::resolve`]). The formula's base, multiplier and cap are written beside a list of
/// gaps too, which is the schedule: their fields keep them for when the list is cleared, and so
/// are the storm's inactive fields ([`super::inactive_fields`]), which keep theirs for when they
/// apply again.
///
/// # Example
/// ```
/// use backoff_lab::page::{decode_hash, encode_hash, Settings};
/// let mut settings = Settings::default();
/// settings.set("base", "45 s");
/// assert_eq!(encode_hash(&settings), "base=45%20s");
/// assert!(decode_hash("base=45%20s").notices.is_empty());
/// ```
pub fn encode_hash(settings: &Settings) -> String {
    SETTINGS
        .iter()
        .zip(&settings.values)
        .filter_map(|((key, _, default), value)| {
            let value = value.trim();
            let kept = value != *default || (*key == "stop" && !settings.is_default("give-up"));
            kept.then(|| format!("{key}={}", utf8_percent_encode(value, ESCAPED)))
        })
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value<'a>(state: &'a DecodedState, key: &str) -> &'a str {
        state.settings.get(key)
    }

    /// A name written in capitals is the name: `view="Timeline"` and `preset="Svix"` were
    /// refused, though their messages listed the names.
    #[test]
    fn a_name_in_capitals_is_the_name() {
        let state = decode_hash("#view=Timeline&preset=Svix&mode=FULL&theme=Dark");
        assert!(state.notices.is_empty(), "{:?}", state.notices);
        let values: Vec<&str> = ["view", "preset", "mode", "theme"]
            .iter()
            .map(|key| state.settings.get(key))
            .collect();
        assert_eq!(values, ["timeline", "svix", "full", "dark"]);
        // A boolean in capitals, or written as its own name as HTML allows.
        for (hash, on) in [
            ("pause=TRUE", "true"),
            ("pause=pause", "true"),
            ("log=False", "false"),
        ] {
            let state = decode_hash(hash);
            assert!(state.notices.is_empty(), "{hash}: {:?}", state.notices);
            let key = hash.split('=').next().unwrap_or_default();
            assert_eq!(state.settings.get(key), on, "{hash}");
        }
        // Text is not a name: a duration keeps its case rules (`10M` is refused as a month).
        assert_eq!(decode_hash("#outage=10M").notices.len(), 1);
    }

    /// An empty value is the setting's default, as the README says ("empty: off, or the flag's
    /// default"): `outage=""` and `capacity=""` were refused as no duration and no rate; an
    /// empty deadline stays none, its own value.
    #[test]
    fn an_empty_value_is_the_default_unless_empty_means_none() {
        let state = decode_hash("#outage=&capacity=&deadline=&view=storm");
        assert!(state.notices.is_empty(), "{:?}", state.notices);
        let defaults = Settings::default();
        assert_eq!(state.settings.get("outage"), defaults.get("outage"));
        assert_eq!(state.settings.get("capacity"), defaults.get("capacity"));
        assert_eq!(state.settings.get("deadline"), "");
        assert_ne!(defaults.get("deadline"), "");
        // A boolean written bare is on, as HTML reads `<backoff-lab pause>`.
        assert_eq!(decode_hash("#pause=").settings.get("pause"), "true");
    }

    /// A link's outage is checked as the storm checks it: `outage=0` (a storm without an
    /// outage, which the page draws) reads back, where the page's own range ("greater than 0 s
    /// and at most 365 days") refused it and let 8 days through to the storm's refusal.
    #[test]
    fn a_links_outage_is_the_storms() {
        for zero in ["0", "0s", "0%20s"] {
            let state = decode_hash(&format!("#outage={zero}"));
            assert!(state.notices.is_empty(), "{zero}: {:?}", state.notices);
            let settings = super::super::resolve(state).settings;
            assert_eq!(
                super::super::views::storm_params(&settings)
                    .scenario()
                    .unwrap()
                    .outage,
                (0, 0)
            );
        }
        let long = decode_hash("#outage=8d");
        assert_eq!(long.notices.len(), 1);
        assert!(
            long.notices[0].contains("0 s or from 0.5 s to 6 days 23 h 59 min 59 s"),
            "{:?}",
            long.notices
        );
    }

    /// `#give-up=2h` gives up at 2 h, as `--give-up 2h` does; a page whose stop rule is the
    /// attempt count writes it beside a deadline it keeps, so its link reads back the same.
    /// A link keeps any herd the field accepts (5,000,000 deliveries was refused as over
    /// 1,000,000 when opened), and a key given twice is named in a notice.
    #[test]
    fn a_link_keeps_what_its_fields_accept_and_names_a_repeated_key() {
        let big = decode_hash("#deliveries=5000000");
        assert_eq!(
            (value(&big, "deliveries"), big.notices.len()),
            ("5000000", 0)
        );
        let twice = decode_hash("#base=1&base=2m");
        assert_eq!(value(&twice, "base"), "2m");
        assert_eq!(
            twice.notices,
            ["base is given more than once in the link; using the last, \"2m\""]
        );
        // A list's bad item is told the list's range, not a single duration's.
        let item = decode_hash("#gaps=1s,abc");
        assert!(
            item.notices[0].starts_with(
                "gaps \"1s,abc\" was ignored (a list of 1 to 32 gaps, each a duration from 1 µs \
                 to 365 days, such as 30s"
            ),
            "{:?}",
            item.notices
        );
        // Given four times, one notice, of the value used.
        let often =
            decode_hash("#attempts=5&attempts=7&view=storm&attempts=9&attempts=11&view=herd");
        assert_eq!(value(&often, "attempts"), "11");
        assert_eq!(
            often.notices,
            [
                "attempts is given more than once in the link; using the last, \"11\"",
                "view is given more than once in the link; using the last, \"herd\""
            ]
        );
        // A repeat that is refused is named as refused, and the first value stays.
        let refused = decode_hash("#base=1&base=abc");
        assert_eq!(value(&refused, "base"), "1");
        assert_eq!(refused.notices.len(), 1);
        assert!(refused.notices[0].starts_with("base \"abc\" was ignored"));
    }

    /// A refused value stays escaped in its notice: a tab and a line break opening a link's
    /// value broke the notice over two lines. A long one is quoted by its start, "…" and its
    /// length, as every refusal quotes text: cut to 40 characters without a mark, 100 nines
    /// read as a 40-digit value (outside tester).
    #[test]
    fn a_refused_value_is_escaped_and_a_long_one_cut_with_its_length() {
        let state = decode_hash("#outages=%09%0A,0.0000001ms,99999999999999999999s,0months");
        assert_eq!(state.notices.len(), 1);
        let notice = &state.notices[0];
        assert!(!notice.contains(['\n', '\t']), "{notice:?}");
        assert!(
            notice.starts_with(
                r#"outages "\t\n,0.0000001ms,99999999999999999999s,0months" was ignored"#
            ),
            "{notice}"
        );
        let long = decode_hash(&format!("#multiplier={}", "9".repeat(100)));
        let nines = "9".repeat(40);
        assert_eq!(
            long.notices,
            [format!(
                "multiplier \"{nines}…\" (100 characters) was ignored (a number from 1 to 1000); using \"3\""
            )]
        );
    }

    /// A token count out of its quota's range is ignored as any refused value is, whichever
    /// comes first in the link (it took the storm chart's place with its error); one in range
    /// for its quota is kept, and without a quota it is unused, not refused.
    #[test]
    fn a_quotas_tokens_are_checked_against_its_range() {
        for hash in [
            "#view=storm&retry-quota=grpc&retry-quota-tokens=5000",
            "#retry-quota-tokens=5000&view=storm&retry-quota=grpc",
        ] {
            let state = decode_hash(hash);
            assert_eq!(
                state.notices,
                [
                    r#"retry-quota-tokens "5000" was ignored (a whole number of tokens from 1 to 1000 for retry-quota grpc); using its default"#
                ],
                "{hash}"
            );
            assert_eq!(value(&state, "retry-quota-tokens"), "");
            assert_eq!(state.refused[0].key, Some("retry-quota-tokens"));
            super::super::views::storm_params(&state.settings)
                .scenario()
                .unwrap();
        }
        let aws = decode_hash("#retry-quota=aws&retry-quota-tokens=5");
        assert!(
            aws.notices[0].contains("from 10 to 1000000 for retry-quota aws"),
            "{:?}",
            aws.notices
        );
        for kept in [
            "#retry-quota=aws&retry-quota-tokens=5000",
            "#retry-quota-tokens=5000",
        ] {
            let state = decode_hash(kept);
            assert_eq!(state.notices, Vec::<String>::new(), "{kept}");
            assert_eq!(value(&state, "retry-quota-tokens"), "5000");
        }
    }

    #[test]
    fn a_give_up_deadline_alone_is_the_stop_rule() {
        let alone = decode_hash("#give-up=2h");
        assert_eq!((value(&alone, "stop"), alone.notices.len()), ("give-up", 0));
        let ruled = decode_hash("#stop=attempts&give-up=2h");
        assert_eq!(
            (value(&ruled, "stop"), ruled.notices.len()),
            ("attempts", 0)
        );
        let both = decode_hash("#attempts=5&give-up=2h");
        assert_eq!(value(&both, "stop"), "attempts");
        assert_eq!(
            both.notices,
            ["give-up was ignored: attempts is given too (add stop=give-up to use the deadline)"]
        );
        let mut kept = Settings::default();
        kept.set("give-up", "2 h");
        let hash = encode_hash(&kept);
        assert_eq!(hash, "stop=attempts&give-up=2%20h");
        assert_eq!(decode_hash(&hash).settings, kept);
    }

    /// A list of gaps is the schedule (`--gaps` refuses the formula's flags beside it): named
    /// beside it, base, multiplier or cap are ignored, and said so to an element. A link reads
    /// them without a notice: the page's own links keep them beside a list, and read back the
    /// same. Beside a preset's list a cap still cuts it.
    #[test]
    fn the_formula_beside_a_list_of_gaps_is_ignored_and_said_so() {
        let both = decode_hash("#base=1m&cap=10m&gaps=5s,5m");
        assert_eq!(
            formula_beside_gaps(&both.settings, &both.given),
            Some(("base and cap were ignored: gaps is given (clear the gaps to use base, multiplier and cap)".to_string(), "base"))
        );
        assert!(both.notices.is_empty());
        let one = decode_hash("#gaps=5s,5m&multiplier=2");
        assert_eq!(
            formula_beside_gaps(&one.settings, &one.given).map(|(notice, _)| notice).as_deref(),
            Some("multiplier was ignored: gaps is given (clear the gaps to use base, multiplier and cap)")
        );
        let mut own = Settings::default();
        own.set("gaps", "5s,5m");
        own.set("base", "1 min");
        let hash = encode_hash(&own);
        assert_eq!(hash, "base=1%20min&gaps=5s,5m");
        let back = decode_hash(&hash);
        assert_eq!((back.notices.len(), back.settings), (0, own));
        let preset = decode_hash("#preset=svix&cap=1h");
        assert!(preset.notices.is_empty());
        let resolved = super::super::resolve(preset);
        assert!(
            encode_hash(&resolved.settings).contains("cap=1%20h"),
            "{}",
            encode_hash(&resolved.settings)
        );
    }

    #[test]
    fn a_link_round_trips_exactly() {
        let mut settings = decode_hash("").settings;
        for (key, value) in [
            ("base", "1 min"),
            ("mode", "proportional"),
            ("factor", "0.35"),
            ("seed", "123456789"),
            ("budget", "10"),
            ("budget-window", "30 s"),
            ("budget-floor", "0"),
            ("resume-rate", "2/s"),
            ("rate-limit", "25/s"),
            ("gaps", "5s,5m,30m"),
            ("pause", "true"),
            ("retry-quota", "grpc"),
            ("retry-quota-tokens", "20"),
            ("retry-quota-ratio", "0.25"),
            ("breaker-failures", "5"),
            ("breaker-share", "50%"),
            ("breaker-window", "10 s"),
            ("breaker-min-attempts", "40"),
            ("breaker-cooldown", "1 min"),
            ("breaker-probes", "2"),
            ("section", "storm"),
        ] {
            settings.set(key, value);
        }
        let hash = encode_hash(&settings);
        let back = decode_hash(&hash);
        assert!(back.notices.is_empty(), "{:?}", back.notices);
        assert_eq!(back.settings, settings);
        assert_eq!(encode_hash(&back.settings), hash);
    }

    /// A budget floor past the storm's range is refused by the link, with that range, not let
    /// through to be refused later quoted per second.
    #[test]
    fn a_budget_floor_is_told_the_storms_range() {
        let state = decode_hash("#budget=10&budget-floor=2e7/s");
        assert_eq!(state.settings.get("budget-floor"), "");
        assert!(
            state.notices[0].contains("a rate from 0 to 10000000 per second"),
            "{:?}",
            state.notices
        );
        assert!(decode_hash("#budget=10&budget-floor=0").notices.is_empty());
        // Empty, the floor is the storm's default (0.5/s), not none; a window is told the
        // storm's own range (2 h passed the link, to be refused by the storm).
        assert!(
            state.notices[0].ends_with("; using its default"),
            "{:?}",
            state.notices
        );
        let state = decode_hash("#budget=10&budget-window=2h&breaker-cooldown=1.5s");
        assert_eq!(state.notices.len(), 2, "{:?}", state.notices);
        assert!(state
            .notices
            .iter()
            .all(|n| n.contains("(a whole number of seconds from 1 s to 1 h)")));
        assert!(decode_hash("#budget=10&budget-window=1h")
            .notices
            .is_empty());
    }

    #[test]
    fn a_budget_is_a_percentage_with_or_without_its_sign() {
        for hash in ["#budget=10", "#budget=10%25", "#budget=10%20%25"] {
            let state = decode_hash(hash);
            assert!(state.notices.is_empty(), "{hash}: {:?}", state.notices);
        }
        // Out of range, or so small it would run as none, the storm's own range is told.
        for hash in ["#budget=150%25", "#budget=0.00001"] {
            let state = decode_hash(hash);
            assert_eq!(state.settings.get("budget"), "", "{hash}");
            assert!(
                state.notices[0].contains(
                    "0% or a percentage from 0.00005% to 100% (it runs in whole parts per million)"
                ),
                "{hash}: {:?}",
                state.notices
            );
        }
    }

    #[test]
    fn a_negative_duration_is_told_the_range_once() {
        let state = decode_hash("#cap=-3h");
        assert!(
            state.notices[0].contains("ignored (a duration from 1 µs to 365 days);"),
            "{:?}",
            state.notices
        );
    }

    #[test]
    fn bad_quota_and_breaker_settings_fall_back_to_off_with_notices() {
        let state = decode_hash(
            "#retry-quota=azure&retry-quota-ratio=2&breaker-failures=0&breaker-probes=1.5\
             &breaker-share=33.3%25&breaker-min-attempts=0",
        );
        for key in [
            "retry-quota",
            "retry-quota-ratio",
            "breaker-failures",
            "breaker-probes",
            "breaker-share",
            "breaker-min-attempts",
        ] {
            assert_eq!(value(&state, key), "", "{key}");
        }
        assert_eq!(
            state.notices,
            [
                "retry-quota \"azure\" was ignored (one of aws, grpc, or empty); using none",
                "retry-quota-ratio \"2\" was ignored (a number from 0.000001 to 1); using its default",
                "breaker-failures \"0\" was ignored (a number from 1 to 10000); using none",
                "breaker-probes \"1.5\" was ignored (a number from 1 to 1000); using its default",
                "breaker-share \"33.3%\" was ignored (a whole percentage from 1% to 100%); using none",
                "breaker-min-attempts \"0\" was ignored (a number from 1 to 1000000); using its default",
            ]
        );
    }

    /// Empty pairs said `unknown setting "" was ignored`, twice (outside page review).
    #[test]
    fn empty_pairs_say_nothing_and_a_notice_is_said_once() {
        assert_eq!(decode_hash("#=&&&=&").notices, Vec::<String>::new());
        assert_eq!(
            decode_hash("#zzz=1&zzz=2&=5").notices,
            [
                "unknown setting \"zzz\" was ignored",
                "unknown setting \"\" was ignored"
            ]
        );
    }

    #[test]
    fn garbage_falls_back_to_defaults_with_notices() {
        let state = decode_hash("#base=-5s&multiplier=NaN&seed=1.5&mode=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&%FF=1&zzz=1&attempts=1e12");
        assert_eq!(value(&state, "base"), "30 s");
        assert_eq!(value(&state, "multiplier"), "3");
        assert_eq!(value(&state, "mode"), "full");
        assert_eq!(value(&state, "attempts"), "14");
        assert_eq!(state.notices.len(), 7, "{:?}", state.notices);
        assert!(state
            .notices
            .iter()
            .any(|n| n.starts_with("mode \"<img src=x onerror=alert(1)>\" was ignored")));
        assert!(state
            .notices
            .iter()
            .any(|n| n == "unknown setting \"zzz\" was ignored"));
        let huge = "a".repeat(MAX_HASH_LEN + 1);
        assert_eq!(decode_hash(&huge).notices.len(), 1);
        // A value cut inside a character names its setting.
        assert_eq!(
            decode_hash("#base=%E0%A4%A").notices,
            ["base is not valid text in the link and was ignored"]
        );
    }

    /// Text that is no duration or rate at all is told the valid range, as a value out of it
    /// is (`1e308s` read "value must be a duration such as 30s …", naming no field or range).
    #[test]
    fn unreadable_values_are_told_the_range() {
        // A link's storm values are held to the storm's own ranges, named as the storm names
        // them: `timeout=2h` passed a "duration up to 365 days" for the chart to refuse, and a
        // factor of 1e-7 passed "0 to 1" (outside review).
        for (hash, notice) in [
            ("timeout=2h", "timeout \"2h\" was ignored (a duration from 1 µs to 1 h); using \"5 s\""),
            ("retry-after=2d", "retry-after \"2d\" was ignored (a duration from 1 µs to 1 day); using none"),
            ("capacity=1e308", "capacity \"1e308\" was ignored (a rate from 0.000001 to 10000000 per second); using \"30/s\""),
            ("rate-limit=0", "rate-limit \"0\" was ignored (a rate from 0.000001 to 10000000 per second); using none"),
            ("pause=false&resume-rate=1e9", "resume-rate \"1e9\" was ignored (a rate from 0.000001 to 10000000 per second); using its default"),
            ("mode=proportional&factor=1e-7", "factor \"1e-7\" was ignored (a number from 0 to 1: 0 for none, else at least 0.000001); using \"0.2\""),
        ] {
            assert_eq!(decode_hash(hash).notices, [notice], "{hash}");
        }
        for fine in [
            "timeout=1h",
            "retry-after=1d",
            "capacity=1e7",
            "rate-limit=",
            "factor=0",
            "factor=0.000001",
            // Ranges across fields are the storm's to tell, with the link's own traffic.
            "traffic=10min&arrivals=10000/s",
            "traffic=7d&arrivals=1/day",
            "traffic=7d&arrivals=0.00001/s",
            "arrivals=1000000/s",
        ] {
            assert_eq!(decode_hash(fine).notices, Vec::<String>::new(), "{fine}");
        }
        let state = decode_hash("#outage=1e308s&arrivals=lots&base=1h%201h");
        assert_eq!(
            state.notices,
            [
                "outage \"1e308s\" was ignored (0 s or from 0.5 s to 6 days 23 h 59 min 59 s (the storm runs in whole seconds, rounding halves up, and simulates the outage's recovery within its 7 days)); using \"10 min\"",
                "arrivals \"lots\" was ignored (a rate from 0.000001 to 1000000 per second, such as 600/min, 30/s or 36000/h); using \"600/min\"",
                "base \"1h 1h\" was ignored (a duration from 1 µs to 365 days, with each unit once, such as 30s, 4m30s, 4.5min, 2h30m or 1d); using \"30 s\"",
            ]
        );
        // The axes' own checks say what the field must be, once: not "(outages must be …,
        // got …)" inside the notice that names and quotes it already.
        assert_eq!(
            decode_hash("#outages=abc..1h&breaker-share=x").notices,
            [
                "outages \"abc..1h\" was ignored (two durations from 1 s to 167 h (7 days less the 1 h recovery window), the first shorter in whole seconds (such as 10s..24h)); using \"10s..24h\"",
                "breaker-share \"x\" was ignored (a whole percentage from 1% to 100%, such as 50%); using none",
            ]
        );
    }
}
