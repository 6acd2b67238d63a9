//! The storm scenario from the parameters: the article's storm wherever a field is not given.

use super::{whole_number, DurationInput, NumberInput, Params};
use crate::storm::{Bounds, Breaker, Engine, FailureShare, RetryQuota, Scenario, Spec};
use crate::{Error, Policy};

impl Params {
    /// The storm of these parameters, simulated by their engine (`keep_seconds`: its
    /// per-second rows too). An engine refuses a storm past its work limit under `traffic`, the
    /// length of its arrivals; when `arrivals` was given and the traffic's length was not, the
    /// refusal names `arrivals`, the input the user changed (it read "--traffic must be at most
    /// 1,000,000,000 attempts at worst" for `--arrivals 1000/s`).
    pub fn simulate(&self, keep_seconds: bool) -> Result<crate::storm::StormReport, Error> {
        self.simulate_scenario(&self.scenario()?, keep_seconds)
    }

    /// [`Params::simulate`]'s report with the scenario it simulated, every default filled in:
    /// what the CLI's `storm --format json` and the JS API's `storm()` return.
    pub fn simulated(&self, keep_seconds: bool) -> Result<crate::storm::SimulatedStorm, Error> {
        let scenario = self.scenario()?;
        let report = self.simulate_scenario(&scenario, keep_seconds)?;
        Ok(crate::storm::SimulatedStorm::new(&scenario, report))
    }

    fn simulate_scenario(
        &self,
        scenario: &Scenario,
        keep_seconds: bool,
    ) -> Result<crate::storm::StormReport, Error> {
        crate::storm::simulate(scenario, self.engine()?, keep_seconds).map_err(
            |error| match error {
                Error::OutOfRange {
                    field: "traffic", ..
                } if self.arrivals.is_some() && self.traffic.is_none() => {
                    error.for_field("arrivals")
                }
                error => error,
            },
        )
    }

    /// The storm scenario: every field not given takes the article's value. The policy is the
    /// fixed interval unless `policy` is `exponential`; without `attempts` or `give_up`, a fixed
    /// interval gives up at 2 h and a backoff policy at 24 h (each as the number of attempts its
    /// schedule makes in that time: a storm's retries also wait for each failure).
    ///
    /// # Example
    /// ```
    /// use backoff_lab::{NumberInput, Params};
    /// let params = Params { budget: Some(NumberInput::Text("10%".into())), ..Params::default() };
    /// assert_eq!(params.scenario()?.bounds.budget, Some(0.1));
    /// # Ok::<(), backoff_lab::Error>(())
    /// ```
    pub fn scenario(&self) -> Result<Scenario, Error> {
        let scenario = self.scenario_of_any_traffic()?;
        if scenario.deliveries() < 1.0 && scenario.traffic_s == 0 {
            // As given (`--traffic 0.4s` was told "got 0 s", its whole seconds).
            let given = seconds(&self.traffic, ("traffic", ""), 0.0)?;
            return Err(Error::out_of_range(
                "traffic",
                format!(
                    "{} without a batch",
                    crate::duration::refused_duration(given)
                ),
                "a duration of at least 1 s (rounded to whole seconds), or a batch: a storm \
                 needs deliveries",
            ));
        }
        if scenario.deliveries() < 1.0 {
            let arrivals = match &self.arrivals {
                Some(NumberInput::Number(n)) => format!("{n}/s"),
                Some(NumberInput::Text(text)) => text.clone(),
                None => crate::storm::quoted_rate(scenario.arrivals_per_s),
            };
            return Err(Error::out_of_range(
                "arrivals",
                arrivals,
                format!(
                    "a rate that brings at least one delivery during the traffic (at least 1 per {})",
                    crate::format_duration(f64::from(scenario.traffic_s))
                ),
            ));
        }
        Ok(scenario)
    }

    /// The latency and the timeout; a timeout no longer than the default latency, the latency
    /// not given, is the timeout's fault (`--timeout 1ms` was told "latency must be … less than
    /// the timeout", of a latency never typed). Its bound leads with the number: the page and
    /// the element have no latency to change (a link's `timeout=0s` was told of "the latency
    /// (50 ms, its default)" as if it were a field).
    fn latency_and_timeout(&self, article: &Spec) -> Result<(f64, f64), Error> {
        let latency_s = seconds(
            &self.latency,
            ("latency", "a duration from 0 s to less than the timeout"),
            article.latency_s,
        )?;
        let timeout_s = seconds(
            &self.timeout,
            ("timeout", "a duration from 1 µs to 1 h"),
            article.timeout_s,
        )?;
        if self.latency.is_none() && (0.0..=latency_s).contains(&timeout_s) {
            return Err(Error::out_of_range(
                "timeout",
                crate::duration::refused_duration(timeout_s),
                format!(
                    "a duration longer than {} (the destination's latency, as the storm takes \
                     it unless given) and at most 1 h",
                    crate::format_duration(latency_s)
                ),
            ));
        }
        Ok((latency_s, timeout_s))
    }

    /// A storm's outage given as `text`, in whole seconds, checked as a storm checks it (a
    /// link's `outage=0` had been refused by the page's own range, "greater than 0 s", which
    /// the storm does not have).
    pub fn outage_of_text(text: &str) -> Result<u32, Error> {
        Params {
            outage: Some(DurationInput::Text(text.into())),
            ..Params::default()
        }
        .outage_seconds(0)
    }

    /// A storm's traffic length given as `text`, in whole seconds, as a storm without a batch
    /// (the page's, the element's) takes it: from 1 s to 7 days, rounded to whole seconds (a
    /// traffic of 0 or 0.4 s, accepted by the field, was refused later as too much work).
    pub fn traffic_of_text(text: &str) -> Result<u32, Error> {
        const RANGE: &str = "a duration from 1 s to 7 days, rounded to whole seconds (deliveries \
                             arrive for at least a second)";
        let input = Some(DurationInput::Text(text.into()));
        let seconds = seconds_within_the_horizon(&input, "traffic", 0, RANGE)?;
        match seconds.round() as u32 {
            0 => Err(Error::out_of_range(
                "traffic",
                crate::duration::refused_duration(seconds),
                RANGE,
            )),
            whole => Ok(whole),
        }
    }

    /// The outage in whole seconds; a positive one that would round to none is refused (the
    /// storm runs in whole seconds, and `--outage 0.4s` ran without an outage).
    fn outage_seconds(&self, default: u32) -> Result<u32, Error> {
        const RANGE: &str = "0 s or from 0.5 s to 6 days 23 h 59 min 59 s (the storm runs in \
                             whole seconds, rounding halves up, and simulates the outage's \
                             recovery within its 7 days)";
        let given = seconds_within_the_horizon(&self.outage, "outage", default, RANGE)?;
        // An outage of 7 days ends at the limit whatever its start (see `Scenario`'s check).
        if (given > 0.0 && given < 0.5) || given.round() >= f64::from(crate::storm::MAX_HORIZON_S) {
            return Err(Error::out_of_range(
                "outage",
                crate::duration::refused_duration(given),
                RANGE,
            ));
        }
        Ok(given.round() as u32)
    }

    /// [`Params::scenario`] without its check that the traffic brings a delivery: a survival
    /// map's traffic is its cells' own.
    fn scenario_of_any_traffic(&self) -> Result<Scenario, Error> {
        self.check_orphans()?;
        let article = Spec::article_fixed();
        let batch = match self.batch {
            Some(n) => Some((
                whole_number("batch", n, 1, 10_000_000)? as u32,
                whole_seconds(&self.batch_at, "batch-at", 0)?,
            )),
            None => None,
        };
        let (latency_s, timeout_s) = self.latency_and_timeout(&article)?;
        Scenario::new(Spec {
            arrivals_per_s: self
                .arrivals
                .as_ref()
                .map_or(Ok(article.arrivals_per_s), |a| a.per_second("arrivals"))?,
            traffic_s: whole_seconds(&self.traffic, "traffic", article.traffic_s)?,
            batch,
            capacity_per_s: self
                .capacity
                .as_ref()
                .map_or(Ok(article.capacity_per_s), |c| c.per_second("capacity"))?,
            latency_s,
            outage: (
                whole_seconds(&self.outage_start, "outage-start", article.outage.0)?,
                self.outage_seconds(article.outage.1)?,
            ),
            timeout_s,
            policy: self.storm_policy()?,
            jitter: self.jitter()?,
            bounds: self.bounds(&article.bounds)?,
            abandon: self.abandon.unwrap_or(false),
            seed: self.seed()?.unwrap_or(article.seed),
        })
    }

    /// The scenario a survival map starts from: [`Params::scenario`], but without a traffic
    /// duration of its own unless one is given, as the map sets each cell's (through its outage
    /// and the hour after it); so an arrival rate is checked against the map's cells
    /// ([`crate::survival::Plan::new`]), not against a duration the map does not use.
    pub fn map_scenario(&self) -> Result<Scenario, Error> {
        if self.traffic.is_some() {
            return self.scenario();
        }
        Params {
            traffic: Some(DurationInput::Seconds(1.0)),
            ..self.clone()
        }
        .scenario_of_any_traffic()
    }

    /// Refuses a field given without the rule that uses it (which would ignore it silently).
    fn check_orphans(&self) -> Result<(), Error> {
        self.refuse_unused(&[
            "budget-window",
            "budget-floor",
            "resume-rate",
            "retry-after-threshold",
            "batch-at",
            "interval",
        ])
    }

    /// These parameters with the storm's policy named: as given, else decided by the backoff
    /// fields given ([`Params::storm_policy_name`]), for callers that pass fields only when
    /// they are given (the JS API).
    pub fn with_storm_policy(self) -> Result<Params, Error> {
        let policy = Self::storm_policy_name(self.policy.as_deref(), self.first_backoff_field())?;
        Ok(Params {
            policy: Some(policy),
            ..self
        })
    }

    /// The first backoff field given (base, multiplier, cap, gaps, then-every), with its value
    /// as text, for [`Params::storm_policy_name`].
    pub fn first_backoff_field(&self) -> Option<(&'static str, String)> {
        let text = |input: &DurationInput| match input {
            DurationInput::Seconds(seconds) => format!("{seconds} s"),
            DurationInput::Text(text) => text.clone(),
        };
        let gaps = self
            .gaps
            .as_ref()
            .map(|gaps| gaps.iter().map(text).collect::<Vec<_>>().join(","));
        [
            ("base", self.base.as_ref().map(text)),
            ("multiplier", self.multiplier.map(|m| m.to_string())),
            ("cap", self.cap.as_ref().map(text)),
            ("gaps", gaps),
            ("then-every", self.then_every.as_ref().map(text)),
        ]
        .into_iter()
        .find_map(|(field, value)| value.map(|value| (field, value)))
    }

    /// The storm's policy when `policy` is not given: `exponential` when a backoff field is
    /// given (`given`: the first of base, multiplier, cap, gaps, then-every, with its value), else
    /// `fixed`. A backoff field given with the fixed policy is refused: the fixed policy retries
    /// every `interval` and would ignore it. The CLI and the JS API both decide this way.
    pub fn storm_policy_name(
        policy: Option<&str>,
        given: Option<(&'static str, String)>,
    ) -> Result<String, Error> {
        let name = policy.unwrap_or(if given.is_some() {
            "exponential"
        } else {
            "fixed"
        });
        match given {
            Some((field, value)) if name == "fixed" => Err(Error::OutOfRange {
                field,
                value,
                valid: "given only with the exponential policy (the fixed policy retries every interval)"
                    .into(),
            }),
            _ => Ok(name.to_string()),
        }
    }

    /// The retry policy of the storm: a fixed interval (30 s unless given) retrying for 2 h, or
    /// the backoff policy retrying for 24 h, unless `attempts` or `give_up` says otherwise.
    fn storm_policy(&self) -> Result<Policy, Error> {
        let stop_given = self.attempts.is_some() || self.give_up.is_some();
        match self.policy.as_deref().unwrap_or("fixed") {
            "fixed" => {
                let storm_maker = Policy::article_storm();
                let span = crate::policy::span_range();
                let interval = seconds(&self.interval, ("interval", &span), storm_maker.base_s())?;
                let stop = if stop_given {
                    self.stop()?
                } else {
                    storm_maker.stop()
                };
                Policy::fixed(interval, stop)
            }
            "exponential" => {
                // What is not given is the article's: 30 s × 3 capped at 3 h, for 24 h.
                let article = Params::default();
                Params {
                    base: self.base.clone().or(article.base),
                    multiplier: self.multiplier.or(article.multiplier),
                    cap: self.cap.clone().or(article.cap),
                    give_up: match stop_given {
                        true => self.give_up.clone(),
                        false => Some(DurationInput::Seconds(86_400.0)),
                    },
                    ..self.clone()
                }
                .policy()
                .map_err(|error| match error {
                    // The 24 h was not typed: say where it came from.
                    Error::OutOfRange {
                        field: "give-up",
                        value,
                        valid,
                    } if !stop_given => Error::OutOfRange {
                        field: "give-up",
                        value: format!("{value} (the storm's default)"),
                        valid,
                    },
                    other => other,
                })
            }
            other => Err(Error::out_of_range(
                "policy",
                format!("{other:?}"),
                "fixed or exponential",
            )),
        }
    }

    /// The bounds on retries: each one given, the others off (the budget's window 60 s and
    /// floor the article's, the Retry-After threshold 1 s).
    fn bounds(&self, article: &Bounds) -> Result<Bounds, Error> {
        Ok(Bounds {
            budget: self
                .budget
                .as_ref()
                .map(|b| {
                    // Text that is no percentage gets the budget's own range too.
                    b.share("budget").map_err(|error| match error {
                        Error::OutOfRange { field, value, .. } => Error::OutOfRange {
                            field,
                            value,
                            valid: format!("{}, such as 10%", crate::storm::BUDGET_RANGE),
                        },
                        other => other,
                    })
                })
                .transpose()?,
            budget_window_s: budget_window(seconds(
                &self.budget_window,
                ("budget-window", WHOLE_SECONDS_TO_AN_HOUR),
                60.0,
            )?)?,
            budget_floor_per_s: self
                .budget_floor
                .as_ref()
                .map_or(Ok(article.budget_floor_per_s), |f| {
                    f.per_second("budget-floor")
                })?,
            rate_limit_per_s: self
                .rate_limit
                .as_ref()
                .map(|r| r.per_second("rate-limit"))
                .transpose()?,
            pause: self.pause.unwrap_or(false),
            resume_rate_per_s: self
                .resume_rate
                .as_ref()
                .map(|r| r.per_second("resume-rate"))
                .transpose()?,
            retry_after_s: self
                .retry_after
                .as_ref()
                .map(|r| r.seconds_within("retry-after", "a duration from 1 µs to 1 day"))
                .transpose()?,
            retry_after_threshold_s: seconds(
                &self.retry_after_threshold,
                ("retry-after-threshold", "a duration from 1 µs to 1 h"),
                1.0,
            )?,
            retry_quota: self.retry_quota()?,
            breaker: self.breaker()?,
        })
    }

    /// The retry quota, if one is named; its tokens and ratio are refused without it (and the
    /// ratio with `aws`, which has none).
    fn retry_quota(&self) -> Result<Option<RetryQuota>, Error> {
        let Some(name) = &self.retry_quota else {
            self.refuse_unused(&["retry-quota-tokens", "retry-quota-ratio"])?;
            return Ok(None);
        };
        RetryQuota::from_name(name, self.retry_quota_tokens, self.retry_quota_ratio).map(Some)
    }

    /// The circuit breaker, if `breaker_failures` or `breaker_share` is given (or both); its
    /// cool-down and probes are refused without either, the share's window and minimum without
    /// the share.
    fn breaker(&self) -> Result<Option<Breaker>, Error> {
        let share = match &self.breaker_share {
            Some(share) => Some(self.failure_share(share)?),
            None => {
                self.refuse_unused(&["breaker-window", "breaker-min-attempts"])?;
                None
            }
        };
        let failures = self
            .breaker_failures
            .map(|n| whole_number("breaker-failures", n, 1, 10_000))
            .transpose()?
            .map(|n| n as u32);
        if failures.is_none() && share.is_none() {
            self.refuse_unused(&["breaker-cooldown", "breaker-probes"])?;
            return Ok(None);
        }
        let cooldown = seconds(
            &self.breaker_cooldown,
            ("breaker-cooldown", WHOLE_SECONDS_TO_AN_HOUR),
            f64::from(Breaker::DEFAULT_COOLDOWN_S),
        )?;
        Ok(Some(Breaker {
            failures,
            share,
            cooldown_s: whole_seconds_within("breaker-cooldown", cooldown)?,
            probes: match self.breaker_probes {
                Some(probes) => whole_number("breaker-probes", probes, 1, 1_000)? as u32,
                None => Breaker::DEFAULT_PROBES,
            },
        }))
    }

    /// The breaker's failure-share rule from `breaker_share` (a whole percentage) and its
    /// window and minimum.
    fn failure_share(&self, share: &super::NumberInput) -> Result<FailureShare, Error> {
        let percent = breaker_percent(share)?;
        let window = seconds(
            &self.breaker_window,
            ("breaker-window", WHOLE_SECONDS_TO_AN_HOUR),
            f64::from(FailureShare::DEFAULT_WINDOW_S),
        )?;
        Ok(FailureShare {
            percent,
            window_s: whole_seconds_within("breaker-window", window)?,
            min_attempts: match self.breaker_min_attempts {
                Some(n) => whole_number("breaker-min-attempts", n, 1, 1_000_000)? as u32,
                None => FailureShare::DEFAULT_MIN_ATTEMPTS,
            },
        })
    }

    /// The storm engine: `discrete` unless chosen.
    pub fn engine(&self) -> Result<Engine, Error> {
        Engine::from_name(self.engine.as_deref().unwrap_or("discrete"))
    }

    /// The storm scenario for the arithmetic view, which models only the arrivals, the outage's
    /// length and the retry interval: any other storm field given is refused by name. The
    /// formula's keys are taken for the article's defaults the CLI fills in (a backoff flag
    /// makes the policy exponential, which is refused); see
    /// [`Params::arithmetic_scenario_as_given`] where every key is the user's.
    pub fn arithmetic_scenario(&self) -> Result<Scenario, Error> {
        self.refuse_unread_by_arithmetic(false)?;
        // Retried until the fix: the fixed interval's give-up (2 h by default) does not apply,
        // so an interval too short to reach it within 10,000 attempts is no reason to refuse
        // (`--interval 0.5s` was, with advice to give a stop the view refuses). The view reads
        // the interval alone.
        Params {
            attempts: Some(1.0),
            give_up: None,
            ..self.clone()
        }
        .scenario()
    }

    /// [`Params::arithmetic_scenario`] of parameters as a program gave them (the JS API fills in
    /// no defaults): a formula key given is refused by its own name, before it makes the policy
    /// exponential (`base` given was refused as `policy`).
    pub fn arithmetic_scenario_as_given(self) -> Result<Scenario, Error> {
        self.refuse_unread_by_arithmetic(true)?;
        self.with_storm_policy()?.arithmetic_scenario()
    }

    fn refuse_unread_by_arithmetic(&self, as_given: bool) -> Result<(), Error> {
        // A fixed interval, retried until the fix: no backoff, no bounds, nothing exhausted.
        let reads = |key: &str| match key {
            "base" | "multiplier" | "cap" => !as_given,
            "policy" => self.policy.as_deref() == Some("fixed"),
            "mode" => self.mode.as_deref() == Some("none"),
            "engine" => self.engine.as_deref() == Some("arithmetic"),
            other => ARITHMETIC_KEYS.contains(&other),
        };
        match self.given().find(|(key, _)| !reads(key)) {
            Some((key, value)) => Err(refused_by_arithmetic(key, value.given_text())),
            None => Ok(()),
        }
    }
}

/// `key`, given as `value`, refused by the arithmetic view (the CLI refuses a backoff flag by its
/// own name with it, before the flag makes the policy exponential).
pub fn refused_by_arithmetic(key: &'static str, value: impl std::fmt::Display) -> Error {
    Error::out_of_range(
        key,
        value,
        "left out: the arithmetic view models only arrivals, the outage's length and a fixed retry interval, retried until the fix; the discrete and fluid engines use it",
    )
}

/// The keys the arithmetic view reads, as a program gives them: `policy`, `mode` and `engine`
/// only as `fixed`, `none` and `arithmetic`.
pub const ARITHMETIC_KEYS: &[&str] =
    &["arrivals", "outage", "interval", "policy", "mode", "engine"];

/// The budget's window: a whole number of seconds from 1 s to 1 h.
fn budget_window(seconds: f64) -> Result<u32, Error> {
    whole_seconds_within("budget-window", seconds)
}

/// The breaker's failure share as a whole percentage from 1% to 100% (`50`, `"50%"`).
pub(crate) fn breaker_percent(share: &super::NumberInput) -> Result<u32, Error> {
    const VALID: &str = "a whole percentage from 1% to 100%";
    // Text that is no percentage gets this range too (it was told "from 0 to 100%").
    let percent = share.share("breaker-share").map_err(|error| match error {
        Error::OutOfRange { field, value, .. } => Error::OutOfRange {
            field,
            value,
            valid: format!("{VALID}, such as 50%"),
        },
        other => other,
    })? * 100.0;
    let whole = percent.round();
    if !(1.0..=100.0).contains(&whole) || (percent - whole).abs() > 1e-9 {
        // As given: 1e-300 read back as 303 characters of zeros.
        let given = match share {
            super::NumberInput::Text(text) => text.trim().to_string(),
            super::NumberInput::Number(n) => format!("{n:?}"),
        };
        let given = given.strip_suffix(".0").unwrap_or(&given);
        let given = if given.ends_with('%') {
            given.to_string()
        } else {
            format!("{given}%")
        };
        return Err(Error::out_of_range("breaker-share", given, VALID));
    }
    Ok(whole as u32)
}

/// A whole number of seconds from 1 s to 1 h (the budget's window, the breaker's cool-down).
pub(crate) fn whole_seconds_within(field: &'static str, seconds: f64) -> Result<u32, Error> {
    if seconds.fract() == 0.0 && (1.0..=3_600.0).contains(&seconds) {
        Ok(seconds as u32)
    } else {
        Err(Error::out_of_range(
            field,
            crate::duration::refused_duration(seconds),
            WHOLE_SECONDS_TO_AN_HOUR,
        ))
    }
}

/// A duration field's seconds, `default` when not given; text that is no duration is refused
/// with the field's `range`.
fn seconds(
    input: &Option<DurationInput>,
    (field, range): (&'static str, &str),
    default: f64,
) -> Result<f64, Error> {
    input
        .as_ref()
        .map_or(Ok(default), |d| d.seconds_within(field, range))
}

/// The range of the whole seconds of a budget's or a breaker's window and cooldown.
pub(crate) const WHOLE_SECONDS_TO_AN_HOUR: &str = "a whole number of seconds from 1 s to 1 h";

/// A duration field rounded to whole seconds, halves up (the storm runs in whole seconds; an
/// outage that would round to none is refused by [`Params::outage_seconds`]), from 0 s to the
/// storm's longest horizon (7 days).
fn whole_seconds(
    input: &Option<DurationInput>,
    field: &'static str,
    default: u32,
) -> Result<u32, Error> {
    let range = "a duration from 0 s to 7 days";
    seconds_within_the_horizon(input, field, default, range).map(|value| value.round() as u32)
}

/// A duration field's seconds, from 0 s to the storm's longest horizon (7 days) once rounded to
/// whole seconds (as the storm takes it: `--traffic 7d0.4s` was refused while an outage 0.4 s
/// short of 7 days was rounded), refused with `range`.
fn seconds_within_the_horizon(
    input: &Option<DurationInput>,
    field: &'static str,
    default: u32,
    range: &str,
) -> Result<f64, Error> {
    // Text that is no duration is told the range too, as a negative one is below.
    let value = seconds(input, (field, range), f64::from(default))?;
    if value.is_finite() && value >= 0.0 && value.round() <= f64::from(crate::storm::MAX_HORIZON_S)
    {
        Ok(value)
    } else {
        Err(Error::out_of_range(
            field,
            crate::duration::refused_duration(value),
            range,
        ))
    }
}
