//! Policy parameters as people type them (seconds or duration text), shared by the CLI, the JS
//! API and the page's state. Converting them to a [`Policy`] is where validation happens.

mod dependent;
// The JS API's refusals of a value of the wrong type (the wasm build's alone).
#[cfg(any(target_arch = "wasm32", test))]
mod expected;
mod input;
mod reads;
mod staleness;
mod storm;
#[cfg(test)]
mod storm_tests;

use serde::{Deserialize, Serialize};

use crate::jitter::Jitter;
use crate::{Error, Policy, Stop};

#[cfg(target_arch = "wasm32")]
pub use expected::expected_value;
pub use input::{parse_percent, DurationInput, NumberInput};
// For the TypeScript declarations (`api_types`, native tests only).
#[cfg(all(test, not(target_arch = "wasm32")))]
pub(crate) use reads::{js_key, KEYS};
pub use reads::{Purpose, KEYS as PARAMETER_KEYS};
pub use storm::refused_by_arithmetic;
#[cfg(all(test, not(target_arch = "wasm32")))]
pub(crate) use storm::ARITHMETIC_KEYS;
pub(crate) use storm::{breaker_percent, whole_seconds_within, WHOLE_SECONDS_TO_AN_HOUR};

/// The article's 20-minute window for "attempts inside the first 20 minutes".
pub const DEFAULT_WINDOW_S: f64 = 1_200.0;

/// Everything that defines a schedule question: the policy, its stop rule and the early window.
///
/// Exactly one of `attempts` and `give_up` is given. `attempts` is a number (not an integer
/// type) so that `2.5` or `1e12` get a range message rather than a type error.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Params {
    /// Gap before the first retry (required for a formula schedule; a storm takes the
    /// article's 30 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<DurationInput>,
    /// Growth factor between gaps, 1 to 1000 (required for a formula schedule; a storm takes
    /// the article's 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multiplier: Option<f64>,
    /// Longest gap (required for a formula schedule; a storm takes the article's 3 h).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cap: Option<DurationInput>,
    /// Total attempts, the first delivery included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempts: Option<f64>,
    /// Give-up deadline since the first failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub give_up: Option<DurationInput>,
    /// The early window for `attempts_within_window` (default 20 min).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<DurationInput>,
    /// An explicit schedule: the gaps before retries 1, 2, ... (base, multiplier and cap are
    /// then left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gaps: Option<Vec<DurationInput>>,
    /// An explicit schedule's tail: then one attempt every this long.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub then_every: Option<DurationInput>,
    /// Jitter mode: `none`, `full`, `equal`, `decorrelated`, `proportional`. Left out, each
    /// function's default: full jitter for `jitter`, `herd` and their charts, as the CLI.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        test,
        ts(type = r#""none" | "full" | "equal" | "decorrelated" | "proportional" | null"#)
    )]
    pub mode: Option<String>,
    /// The factor of proportional jitter: 0 (none), or 0.000001 to 1 (default 0.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub factor: Option<f64>,
    /// The seed of every random draw, 0 to 2^53 − 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<f64>,
    /// Give-up times to sample (default 1,000,000, or as many as the work limit allows for the
    /// schedule when fewer: 200,020 of 10,000 attempts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<f64>,
    /// Deliveries in a herd (default 1,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deliveries: Option<f64>,
    /// A deadline for deadline-safe sizing: how many attempts keep a percentile above it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<DurationInput>,
    /// The percentile (in percent, from 0.1 to 99.9, default 5) that must reach `deadline`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percentile: Option<NumberInput>,
    /// Storm: steady first deliveries (default 600/min).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrivals: Option<NumberInput>,
    /// Storm: how long the steady traffic lasts (default 2 h).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traffic: Option<DurationInput>,
    /// Storm: a one-off batch of deliveries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<f64>,
    /// Storm: when the batch arrives (default at 0; only with `batch`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_at: Option<DurationInput>,
    /// Storm: the destination's healthy capacity (default 30/s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<NumberInput>,
    /// Storm: the destination's healthy latency (default 50 ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency: Option<DurationInput>,
    /// Storm: the sender's timeout (default 5 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<DurationInput>,
    /// Storm: how long the outage lasts (default 10 min).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outage: Option<DurationInput>,
    /// Storm: when the outage starts (default at 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outage_start: Option<DurationInput>,
    /// Storm: `fixed` (default) or `exponential` (the base, multiplier and cap above).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(type = r#""fixed" | "exponential" | null"#))]
    pub policy: Option<String>,
    /// Storm: the fixed policy's interval (default 30 s; only with the fixed policy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<DurationInput>,
    /// Storm: the retry budget, a percentage of first attempts (`10%`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<NumberInput>,
    /// Storm: the budget's trailing window (default 60 s; only with `budget`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_window: Option<DurationInput>,
    /// Storm: retries per second the budget always allows (default 0.5/s; only with `budget`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_floor: Option<NumberInput>,
    /// Storm: a per-endpoint rate limit on all attempts (`50/s`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_limit: Option<NumberInput>,
    /// Storm: hold deliveries while the endpoint is down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pause: Option<bool>,
    /// Storm: after a pause, attempts per second at most (default: the rate limit, else what
    /// the destination answers in time in a second from an empty queue; only with `pause`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume_rate: Option<NumberInput>,
    /// Storm: the destination answers 429 with this `Retry-After` when overloaded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<DurationInput>,
    /// Storm: the queue wait above which it does (default 1 s; only with `retryAfter`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_threshold: Option<DurationInput>,
    /// Storm: the destination skips requests whose sender already timed out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abandon: Option<bool>,
    /// Storm: a token bucket on retries, `aws` (the AWS SDKs' standard retry mode) or `grpc`
    /// (gRPC's retry throttling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(type = r#""aws" | "grpc" | null"#))]
    pub retry_quota: Option<String>,
    /// Storm: the retry quota's bucket size, whole tokens (default 500 for `aws`, 10 for `grpc`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_quota_tokens: Option<f64>,
    /// Storm: tokens a success gives back under the `grpc` quota (default 0.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_quota_ratio: Option<f64>,
    /// Storm: a circuit breaker opening after this many consecutive failures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breaker_failures: Option<f64>,
    /// Storm: a circuit breaker opening when this share of the attempts over its window failed
    /// (a whole percentage, as `50` or `"50%"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breaker_share: Option<NumberInput>,
    /// Storm: the failure share's window (default 30 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breaker_window: Option<DurationInput>,
    /// Storm: attempts the window must hold before the share counts (default 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breaker_min_attempts: Option<f64>,
    /// Storm: how long the breaker stays open before probing (default 30 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breaker_cooldown: Option<DurationInput>,
    /// Storm: attempts sent at most while half-open (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breaker_probes: Option<f64>,
    /// Storm: `discrete` (every delivery, seeded; `storm`'s default), `fluid` (expected values,
    /// fast; `survival`'s default) or `auto` (fluid where it represents the scenario, else
    /// discrete); `arithmetic` only for `arithmeticView`, whose engine it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        test,
        ts(type = r#""discrete" | "fluid" | "auto" | "arithmetic" | null"#)
    )]
    pub engine: Option<String>,
    /// Staleness: how long an event stays worth delivering.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<DurationInput>,
    /// Staleness: how late after recovery a delivery may arrive (with `tolerance`, a suggested
    /// schedule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_lag: Option<DurationInput>,
}

impl Default for Params {
    fn default() -> Self {
        let article = Policy::article();
        Params {
            base: Some(article.base_s().into()),
            multiplier: Some(article.multiplier()),
            cap: Some(article.cap_s().into()),
            attempts: Some(f64::from(article.attempts())),
            give_up: None,
            window: None,
            gaps: None,
            then_every: None,
            mode: None,
            factor: None,
            seed: None,
            samples: None,
            deliveries: None,
            deadline: None,
            percentile: None,
            arrivals: None,
            traffic: None,
            batch: None,
            batch_at: None,
            capacity: None,
            latency: None,
            timeout: None,
            outage: None,
            outage_start: None,
            policy: None,
            interval: None,
            budget: None,
            budget_window: None,
            budget_floor: None,
            rate_limit: None,
            pause: None,
            resume_rate: None,
            retry_after: None,
            retry_after_threshold: None,
            abandon: None,
            retry_quota: None,
            retry_quota_tokens: None,
            retry_quota_ratio: None,
            breaker_failures: None,
            breaker_share: None,
            breaker_window: None,
            breaker_min_attempts: None,
            breaker_cooldown: None,
            breaker_probes: None,
            engine: None,
            tolerance: None,
            max_lag: None,
        }
    }
}

/// The percentiles a deadline may be asked at (the share of deliveries that give up before it).
pub(crate) const PERCENTILE_RANGE: &str = "a percentage from 0.1 to 99.9, such as 5 or 5%";
impl Params {
    /// Validates the parameters into a policy.
    ///
    /// # Example
    /// ```
    /// use backoff_lab::{DurationInput, Params};
    /// let params = Params {
    ///     base: Some(DurationInput::Text("30s".into())),
    ///     multiplier: Some(3.0),
    ///     cap: Some(DurationInput::Text("3h".into())),
    ///     attempts: None,
    ///     give_up: Some(DurationInput::Text("24h".into())),
    ///     ..Params::default()
    /// };
    /// assert_eq!(params.policy()?.attempts(), 14);
    /// # Ok::<(), backoff_lab::Error>(())
    /// ```
    pub fn policy(&self) -> Result<Policy, Error> {
        let stop = self.stop()?;
        match &self.gaps {
            Some(gaps) => {
                let gaps: Vec<f64> = gaps
                    .iter()
                    .map(|g| g.seconds_within("gaps", &crate::policy::gaps_range()))
                    .collect::<Result<_, _>>()?;
                let tail = self
                    .then_every
                    .as_ref()
                    .map(|t| t.seconds_within("then-every", &crate::policy::span_range()))
                    .transpose()?;
                Policy::explicit(&gaps, tail, Some(stop))
            }
            None => {
                let given = |field: &'static str, valid: &str| {
                    Error::out_of_range(
                        field,
                        "nothing",
                        format!("given for a formula schedule: {valid} (or list the gaps)"),
                    )
                };
                let base = (self.base.as_ref())
                    .ok_or_else(|| given("base", "a duration such as 30s"))?
                    .seconds_within("base", &crate::policy::span_range())?;
                // Refused before the cap's range is written from it (a 400-day base made "at
                // least the base (400 days) and at most 365 days" for a cap of "abc").
                crate::policy::check_duration("base", base)?;
                let multiplier = self
                    .multiplier
                    .ok_or_else(|| given("multiplier", "a number from 1 to 1000"))?;
                let cap = (self.cap.as_ref())
                    .ok_or_else(|| given("cap", "a duration such as 3h"))?
                    .seconds_within("cap", &crate::policy::cap_range(base))?;
                Policy::new(base, multiplier, cap, stop)
            }
        }
    }

    /// The stop rule: exactly one of `attempts` and `give_up`.
    pub fn stop(&self) -> Result<Stop, Error> {
        match (self.attempts, &self.give_up) {
            (Some(_), Some(_)) => Err(Error::out_of_range(
                "attempts",
                "both attempts and give-up",
                "given alone: choose attempts or give-up, not both",
            )),
            (Some(n), None) => Ok(Stop::Attempts(
                whole_number("attempts", n, 1, 10_000)? as u32
            )),
            (None, Some(deadline)) => Ok(Stop::GiveUpAfter(
                deadline.seconds_within("give-up", &crate::policy::span_range())?,
            )),
            (None, None) => Err(Error::out_of_range(
                "attempts",
                "neither attempts nor give-up",
                "given: a count from 1 to 10000, or a give-up deadline",
            )),
        }
    }

    /// The early window in seconds: from 1 µs to 365 days, 20 min by default.
    pub fn window_s(&self) -> Result<f64, Error> {
        let Some(window) = &self.window else {
            return Ok(DEFAULT_WINDOW_S);
        };
        let seconds = window.seconds_within("window", &crate::policy::span_range())?;
        crate::policy::check_duration("window", seconds)?;
        Ok(seconds)
    }

    /// The jitter mode (`none` unless chosen).
    pub fn jitter(&self) -> Result<Jitter, Error> {
        Jitter::from_name(
            self.mode.as_deref().unwrap_or("none"),
            self.factor.unwrap_or(0.2),
        )
    }

    /// The seed, if one was given.
    pub fn seed(&self) -> Result<Option<u64>, Error> {
        self.seed.map(crate::jitter::seed_from_f64).transpose()
    }

    /// These parameters with a fresh seed from the system's randomness when none is given and
    /// the jitter draws (the CLI and the JS API alike), so that the report says which seed
    /// repeats the run; where nothing is drawn (no jitter, proportional of ±0%) the seed stays
    /// unset (reported as 0).
    pub fn with_fresh_seed(mut self) -> Result<Params, Error> {
        if self.seed.is_none() && self.jitter()?.draws() {
            self.seed = Some(crate::jitter::fresh_seed()? as f64);
        }
        Ok(self)
    }

    /// Give-up times to sample of `policy` drawn with `jitter`: as given, 1 to 10,000,000 (a
    /// count past the work limit is then refused, before any draw); when not given, `default`
    /// or the most the limit allows, whichever is fewer. A default the user never typed must
    /// not be refused: 1,000,000 give-up times of 10,000 attempts are five times the limit, so
    /// `jitter` draws 200,020 and its table, caption and JSON say so.
    pub fn samples_for(
        &self,
        policy: &Policy,
        jitter: Jitter,
        default: usize,
    ) -> Result<usize, Error> {
        let Some(samples) = self.samples else {
            return Ok(crate::limits::affordable_samples(
                policy.attempts(),
                jitter,
                crate::limits::Draws::GiveUpTimes,
                1.0,
                (1, default),
            ));
        };
        let max = crate::give_up::MAX_SAMPLES as u64;
        let samples = whole_number("samples", samples, 1, max)? as usize;
        // Past the work limit, refused before any draw, whatever draws them.
        crate::give_up::check_samples(policy, jitter, samples)?;
        Ok(samples)
    }

    /// Deliveries in a herd: 1 to 10,000,000, 1,000 unless chosen.
    pub fn deliveries(&self) -> Result<usize, Error> {
        let max = crate::herd::MAX_DELIVERIES as u64;
        Ok(whole_number("deliveries", self.deliveries.unwrap_or(1e3), 1, max)? as usize)
    }

    /// The deadline-safe question, if asked: the deadline in seconds and the percentile as a
    /// share (5 % unless chosen).
    pub fn deadline(&self) -> Result<Option<(f64, f64)>, Error> {
        let Some(deadline) = &self.deadline else {
            return Ok(None);
        };
        // A number of percent, or text with or without its sign (`5`, `5%`), as the CLI takes it.
        let percent = match &self.percentile {
            None => 5.0,
            Some(NumberInput::Number(percent)) => *percent,
            Some(NumberInput::Text(text)) => crate::parse_percent(text).unwrap_or(f64::NAN),
        };
        // The tails past 0.1% are beyond what the grids and the decorrelated estimate's 1,000
        // draws resolve: 1e-308 was answered "to keep 100% of deliveries trying … 280 attempts".
        if !(percent.is_finite() && (0.1..=99.9).contains(&percent)) {
            return Err(Error::out_of_range(
                "percentile",
                self.given_text_of("percentile"),
                PERCENTILE_RANGE,
            ));
        }
        Ok(Some((
            deadline.seconds_within("deadline", &crate::policy::span_range())?,
            percent / 100.0,
        )))
    }
}

/// A count given as a number (JS numbers, URL text): whole and within `min..=max`, so that
/// `2.5`, `NaN` or `1e12` are refused with the range.
pub fn whole_number(field: &'static str, n: f64, min: u64, max: u64) -> Result<u64, Error> {
    if n.fract() == 0.0 && n >= min as f64 && n <= max as f64 {
        Ok(n as u64)
    } else {
        Err(Error::out_of_range(
            field,
            n,
            format!("a whole number from {min} to {max}"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default count was refused as if typed (`jitter --attempts 10000` said "--samples must
    /// be at most 200020 …, got 1000000"): it is now the most the limit allows, when fewer; a
    /// count that is given is refused past the limit here, for every function that draws them
    /// (`sampledMeanGiveUp` drew 10,000,000 give-up times of 10,000 attempts for two minutes).
    #[test]
    fn the_default_samples_fit_the_work_limit_and_given_ones_are_kept() {
        let params = |attempts: f64, samples: Option<f64>| Params {
            base: Some(DurationInput::Seconds(30.0)),
            multiplier: Some(3.0),
            cap: Some(DurationInput::Seconds(10_800.0)),
            attempts: Some(attempts),
            samples,
            ..Params::default()
        };
        let default = crate::give_up::DEFAULT_SAMPLES;
        let samples = |params: Params, jitter: Jitter| {
            params.samples_for(&params.policy().unwrap(), jitter, default)
        };
        assert_eq!(samples(params(14.0, None), Jitter::Full), Ok(1_000_000));
        assert_eq!(samples(params(10_000.0, None), Jitter::Full), Ok(200_020));
        assert_eq!(
            samples(params(10_000.0, None), Jitter::Decorrelated),
            Ok(40_004)
        );
        assert_eq!(
            samples(params(10_000.0, Some(2e5)), Jitter::Full),
            Ok(200_000)
        );
        let refused = samples(params(10_000.0, Some(1e7)), Jitter::Full).unwrap_err();
        assert!(
            refused
                .to_string()
                .starts_with("samples must be at most 200020"),
            "{refused}"
        );
    }

    /// The JS API took only a number where the CLI takes `5%` too.
    #[test]
    fn a_percentile_is_a_number_of_percent_with_or_without_its_sign() {
        let asked = |percentile: NumberInput| {
            Params {
                deadline: Some(DurationInput::Seconds(3_600.0)),
                percentile: Some(percentile),
                ..Params::default()
            }
            .deadline()
        };
        for given in [
            NumberInput::Number(5.0),
            NumberInput::Text("5".into()),
            NumberInput::Text("5 %".into()),
        ] {
            assert_eq!(asked(given), Ok(Some((3_600.0, 0.05))));
        }
        for (given, quoted) in [
            (NumberInput::Number(100.0), "100"),
            (NumberInput::Number(99.95), "99.95"),
            (NumberInput::Text("1e-308".into()), "\"1e-308\""),
            (NumberInput::Number(0.05), "0.05"),
            (NumberInput::Text("5%%".into()), "\"5%%\""),
        ] {
            assert_eq!(
                asked(given).unwrap_err().to_string(),
                format!("percentile must be {PERCENTILE_RANGE}, got {quoted}")
            );
        }
    }

    /// A negative duration typed as text was told "never negative" without the field's range
    /// (outside page review); it is now refused as the same number of seconds is.
    #[test]
    fn a_negative_duration_typed_is_told_the_fields_range() {
        let policy = |base: &str, cap: &str| {
            Params {
                base: Some(DurationInput::Text(base.into())),
                multiplier: Some(2.0),
                cap: Some(DurationInput::Text(cap.into())),
                attempts: Some(5.0),
                ..Params::default()
            }
            .policy()
            .map(|_| ())
            .unwrap_err()
            .to_string()
        };
        assert_eq!(
            policy("-5s", "1h"),
            "base must be a duration from 1 µs to 365 days, got -5 s"
        );
        assert_eq!(
            policy(" - 1m30s", "1h"),
            "base must be a duration from 1 µs to 365 days, got -90 s"
        );
        assert_eq!(
            policy("30s", "-1h"),
            "cap must be a duration of at least the base (30 s) and at most 365 days, got -1 h"
        );
        // Two signs are no duration; text that is none after its sign is quoted whole.
        assert!(policy("--5s", "1h").contains("got --5s"));
        assert!(
            policy("-abc", "1h").ends_with("got \"-abc\""),
            "{}",
            policy("-abc", "1h")
        );
        assert!(
            policy("-1M", "1h").ends_with("got -1M"),
            "{}",
            policy("-1M", "1h")
        );
        assert!(policy("-1h1h", "1h").ends_with("got \"-1h1h\""));
    }

    #[test]
    fn numbers_and_text_are_read_in_one_pass_and_anything_else_is_named() {
        let duration = |json: &str| serde_json::from_str::<DurationInput>(json);
        assert_eq!(duration("30").unwrap(), DurationInput::Seconds(30.0));
        assert_eq!(duration("2.5").unwrap(), DurationInput::Seconds(2.5));
        assert_eq!(
            duration("\"4m30s\"").unwrap(),
            DurationInput::Text("4m30s".into())
        );
        let number = |json: &str| serde_json::from_str::<NumberInput>(json);
        assert_eq!(number("-3").unwrap(), NumberInput::Number(-3.0));
        assert_eq!(
            number("\"600/min\"").unwrap(),
            NumberInput::Text("600/min".into())
        );
        // The message says what is accepted (an untagged enum would say no variant matched).
        for wrong in ["true", "[1]", "{}", "null"] {
            let error = duration(wrong).unwrap_err().to_string();
            assert!(
                error.contains("expected a number or text"),
                "{wrong}: {error}"
            );
            let error = number(wrong).unwrap_err().to_string();
            assert!(
                error.contains("expected a number or text"),
                "{wrong}: {error}"
            );
        }
    }
}
