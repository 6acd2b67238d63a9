//! A storm scenario (traffic, destination, outage, sender, bounds), its validation and its
//! exact integer view: the numbers both engines compute with.

use super::breaker::Breaker;
use super::quota::{QuotaUnits, RetryQuota};
use crate::jitter::Jitter;
use crate::{Error, Policy};

/// The longest simulated time: 7 days.
pub const MAX_HORIZON_S: u32 = 7 * 86_400;
/// The most deliveries one scenario may create.
pub const MAX_DELIVERIES: f64 = 10_000_000.0;

/// One millionth: rates are whole millionths of a request per second, durations whole
/// microseconds, shares whole parts per million.
pub(crate) const MICRO: u64 = 1_000_000;

/// The aggregate bounds on what the destination sees; each is optional.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// Retries over the trailing window may be at most this share (0 to 1) of the first
    /// attempts over it; the rest are held, never dropped.
    pub budget: Option<f64>,
    /// The trailing window of the budget, seconds (60 by default).
    pub budget_window_s: u32,
    /// Retries per second the budget always allows on top of its share (as Finagle's
    /// `RetryBudget` does), so that a backlog still drains once first attempts stop.
    pub budget_floor_per_s: f64,
    /// Attempts per second at most, first attempts and retries combined (first attempts go
    /// first); the rest are held.
    pub rate_limit_per_s: Option<f64>,
    /// Hold every delivery while the endpoint is down; from recovery on, send at most
    /// [`Bounds::resume_rate_per_s`] attempts per second.
    pub pause: bool,
    /// The pace after a pause, attempts per second; `None` takes the default
    /// ([`Spec::resume_pace_per_s`]).
    pub resume_rate_per_s: Option<f64>,
    /// When the destination's queue wait exceeds `retry_after_threshold_s`, it answers 429 with
    /// this `Retry-After` (seconds), taking no capacity; the sender waits at least that long.
    pub retry_after_s: Option<f64>,
    /// The queue wait above which the destination answers 429 (1 s by default).
    pub retry_after_threshold_s: f64,
    /// A token bucket every retry draws on (the AWS SDKs' or gRPC's); a retry it does not let
    /// through is held.
    pub retry_quota: Option<RetryQuota>,
    /// A circuit breaker: after so many consecutive failures nothing is sent for a cool-down,
    /// then a few probes decide whether it closes.
    pub breaker: Option<Breaker>,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            budget: None,
            budget_window_s: 60,
            budget_floor_per_s: 0.5,
            rate_limit_per_s: None,
            pause: false,
            resume_rate_per_s: None,
            retry_after_s: None,
            retry_after_threshold_s: 1.0,
            retry_quota: None,
            breaker: None,
        }
    }
}

/// What a storm scenario is made of, as given: traffic, destination, outage, sender and bounds.
/// Plain data, not yet checked: the engines take a [`Scenario`], which only
/// [`Scenario::new`] makes, from a `Spec` it has checked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spec {
    /// Steady first deliveries per second.
    pub arrivals_per_s: f64,
    /// How long the steady traffic lasts, seconds.
    pub traffic_s: u32,
    /// A one-off batch: how many deliveries, at which second.
    pub batch: Option<(u32, u32)>,
    /// Requests per second the healthy destination serves.
    pub capacity_per_s: f64,
    /// The healthy destination's latency, seconds (less than the timeout).
    pub latency_s: f64,
    /// When the outage starts and how long it lasts, seconds.
    pub outage: (u32, u32),
    /// The sender's timeout, seconds.
    pub timeout_s: f64,
    /// The retry policy; a fixed interval is a policy with multiplier 1 ([`Policy::fixed`]).
    pub policy: Policy,
    /// The jitter on each gap.
    pub jitter: Jitter,
    /// The aggregate bounds.
    pub bounds: Bounds,
    /// Whether the destination skips requests whose sender has already timed out.
    pub abandon: bool,
    /// The seed of the jittered gaps and of the order retries are served in (discrete engine).
    pub seed: u64,
}

impl Spec {
    /// The article's storm: 600 per minute for 2 h, 30 per second of capacity, 50 ms latency,
    /// a 10-minute outage from 0, a 5 s timeout, a fixed 30 s interval giving up at 2 h: 241
    /// attempts (the storm's retries also wait out each failure, so they span 2 h 20 min).
    pub fn article_fixed() -> Self {
        Spec {
            arrivals_per_s: 10.0,
            traffic_s: 7_200,
            batch: None,
            capacity_per_s: 30.0,
            latency_s: 0.05,
            outage: (0, 600),
            timeout_s: 5.0,
            policy: Policy::article_storm(),
            jitter: Jitter::None,
            bounds: Bounds::default(),
            abandon: false,
            seed: crate::jitter::DEFAULT_SEED,
        }
    }

    /// Checks every field before anything is allocated: rates, sizes and the horizon.
    fn validate(&self) -> Result<(), Error> {
        rate("arrivals", self.arrivals_per_s, 1e6)?;
        rate("capacity", self.capacity_per_s, 1e7)?;
        duration("timeout", self.timeout_s, 3_600.0, "1 h")?;
        // Compared as simulated, in whole microseconds: 4.9999999 s against a 5 s timeout passed
        // as less and was simulated as equal.
        if !(self.latency_s.is_finite()
            && self.latency_s >= 0.0
            && micro(self.latency_s) < micro(self.timeout_s))
        {
            // Apart where they are close ("got 5 s" beside "less than the timeout (5 s)").
            let (got, timeout) = if self.latency_s.is_finite() && self.latency_s >= 0.0 {
                crate::format_distinct(self.latency_s, self.timeout_s)
            } else {
                (
                    crate::duration::refused_duration(self.latency_s),
                    crate::format_duration(self.timeout_s),
                )
            };
            return Err(Error::out_of_range(
                "latency",
                got,
                format!(
                    "a duration from 0 s to less than the timeout ({timeout}) in whole microseconds, as simulated: a destination slower than the timeout never answers in time"
                ),
            ));
        }
        self.jitter.check_applies_to(&self.policy)?;
        let end = u64::from(self.outage.0) + u64::from(self.outage.1);
        if self.traffic_s > MAX_HORIZON_S {
            return Err(Error::out_of_range(
                "traffic",
                crate::format_distinct(f64::from(self.traffic_s), f64::from(MAX_HORIZON_S)).0,
                "at most 7 days",
            ));
        }
        // A start at or past the end of the simulation is the start's fault, whatever the length.
        if self.outage.0 >= MAX_HORIZON_S {
            return Err(Error::out_of_range(
                "outage-start",
                crate::format_duration(f64::from(self.outage.0)),
                "a time before 7 days (the outage ends within them)",
            ));
        }
        // Before the last second, not at its end: the second of recovery is always simulated (an
        // outage ending at 7 days exactly had a storm whose recovery was never seen, and a
        // caption saying its empty backlog had not drained).
        if end >= u64::from(MAX_HORIZON_S) {
            return Err(Error::out_of_range(
                "outage",
                format!(
                    "an outage ending at {}",
                    crate::format_distinct(end as f64, f64::from(MAX_HORIZON_S)).0
                ),
                "an outage that ends before 7 days (its start plus its length), so that its \
                 recovery is simulated",
            ));
        }
        if let Some((_, at)) = self.batch {
            if at >= MAX_HORIZON_S {
                return Err(Error::out_of_range(
                    "batch-at",
                    crate::format_duration(f64::from(at)),
                    "a time before 7 days (at most 6 days 23 h 59 min 59 s: the storm's last \
                     second)",
                ));
            }
        }
        let batch = self.batch.map_or(0.0, |(n, _)| f64::from(n));
        if batch > MAX_DELIVERIES {
            return Err(Error::out_of_range(
                "batch",
                batch,
                format!("at most {MAX_DELIVERIES} deliveries"),
            ));
        }
        // Arrivals past the limit on their own are refused against it alone; then a batch that
        // leaves no room for a single arrival is what overflows: it is refused with the room
        // the arrivals leave it.
        let steady = self.steady_deliveries();
        if steady > MAX_DELIVERIES {
            return Err(Error::out_of_range(
                "arrivals",
                quoted_rate(self.arrivals_per_s),
                arrivals_range(f64::from(self.traffic_s), 0.0),
            ));
        }
        if steady >= 1.0 && MAX_DELIVERIES - batch < 1.0 {
            return Err(Error::out_of_range(
                "batch",
                batch,
                format!(
                    "at most {} deliveries beside the {steady} the arrivals bring over the \
                     storm's {} of traffic",
                    MAX_DELIVERIES - steady,
                    crate::format_duration(f64::from(self.traffic_s)),
                ),
            ));
        }
        // The steady arrivals are what a user raises (the traffic's length is a 2 h default):
        // the refusal names the rate and the fastest one allowed beside this traffic and batch.
        if self.deliveries() > MAX_DELIVERIES {
            return Err(Error::out_of_range(
                "arrivals",
                quoted_rate(self.arrivals_per_s),
                arrivals_range(f64::from(self.traffic_s), batch),
            ));
        }
        self.bounds.validate()
    }

    /// Deliveries the scenario creates (steady arrivals over the traffic, plus the batch).
    pub fn deliveries(&self) -> f64 {
        self.steady_deliveries() + self.batch.map_or(0.0, |(n, _)| f64::from(n))
    }

    /// Deliveries the steady traffic creates: `A × traffic` rounded to the nearest whole, halves
    /// up, with `A` in whole millionths per second, as [`Units::arrivals_in`] counts them second
    /// by second.
    pub fn steady_deliveries(&self) -> f64 {
        steady_count(self.arrivals_per_s, self.traffic_s)
    }

    /// The pace after a pause: the resume rate if given, else the rate limit if one is set,
    /// else the most attempts the healthy destination answers in time from an empty queue in
    /// one second (`capacity × min(1 s, timeout − latency)`, at least one).
    pub fn resume_pace_per_s(&self) -> f64 {
        self.bounds
            .resume_rate_per_s
            .or(self.bounds.rate_limit_per_s)
            .unwrap_or_else(|| {
                (self.capacity_per_s * (self.timeout_s - self.latency_s).min(1.0)).max(1.0)
            })
    }

    /// The interval the gap before retry `retry` (1-based) is drawn from; `None` for
    /// decorrelated jitter, whose gap depends on the previous one.
    pub(crate) fn window(&self, retry: u32) -> Option<(f64, f64)> {
        self.jitter.window(self.policy.gap(retry))
    }

    /// The longest gap any retry can draw.
    pub(crate) fn longest_gap_s(&self) -> f64 {
        match self.jitter {
            Jitter::Proportional(f) => self.policy.cap_s() * (1.0 + f.get()),
            _ => self.policy.cap_s(),
        }
    }

    pub(crate) fn in_outage(&self, second: u32) -> bool {
        second >= self.outage.0 && second < self.outage_end()
    }

    pub(crate) fn outage_end(&self) -> u32 {
        self.outage.0 + self.outage.1
    }

    /// The traffic's end: its length in seconds, or the second after the batch's when later
    /// (the stop rule's; a last second of traffic may bring no delivery).
    pub(crate) fn arrivals_end(&self) -> u32 {
        self.traffic_s
            .max(self.batch.map_or(0, |(_, at)| at.saturating_add(1)))
    }

    /// The last second any activity can happen in: traffic, outage and batch, then the longest
    /// possible retry chain, within 7 days.
    pub(crate) fn horizon_s(&self) -> u32 {
        let step = self.timeout_s
            + self
                .longest_gap_s()
                .max(self.bounds.retry_after_s.unwrap_or(0.0))
            + 1.0;
        let chain = step * f64::from(self.policy.attempts());
        let end = f64::from(self.arrivals_end().max(self.outage_end())) + chain + 2.0;
        end.min(f64::from(MAX_HORIZON_S)) as u32
    }
}

/// A checked storm scenario: the [`Spec`] it was made from (read through it: `scenario.timeout_s`)
/// and its exact integer view. Only [`Scenario::new`] makes one, so no engine computes on
/// unchecked input.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scenario {
    spec: Spec,
    units: Units,
}

impl Scenario {
    /// Checks every field of `spec` before anything is allocated: rates, durations, sizes and
    /// the horizon; each refusal names the field and its valid range.
    ///
    /// # Example
    /// ```
    /// use backoff_lab::storm::{Scenario, Spec};
    /// let spec = Spec { capacity_per_s: 0.0, ..Spec::article_fixed() };
    /// let refused = Scenario::new(spec).unwrap_err().to_string();
    /// assert_eq!(refused, "capacity must be a rate from 0.000001 to 10000000 per second, got 0");
    /// ```
    pub fn new(spec: Spec) -> Result<Scenario, Error> {
        spec.validate()?;
        Ok(Scenario {
            units: Units::of(&spec),
            spec,
        })
    }

    /// The article's storm ([`Spec::article_fixed`]), checked.
    pub fn article_fixed() -> Scenario {
        let spec = Spec::article_fixed();
        // Valid by construction (a test checks it through `Scenario::new`).
        Scenario {
            units: Units::of(&spec),
            spec,
        }
    }

    /// What the scenario was made from.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// The scenario in whole units.
    pub(crate) fn units(&self) -> &Units {
        &self.units
    }
}

impl std::ops::Deref for Scenario {
    type Target = Spec;
    fn deref(&self) -> &Spec {
        &self.spec
    }
}

/// The budget's valid range: it runs in whole parts per million, rounded to the nearest.
pub(crate) const BUDGET_RANGE: &str =
    "0% or a percentage from 0.00005% to 100% (it runs in whole parts per million)";

/// A retry budget's share (0 to 1). A share that rounds to no part per million would run as
/// `--budget 0` under its own name ("a budget of 0.00001%"): refused, as an outage that rounds
/// to no second is. A link's `budget` is checked by this too.
pub(crate) fn check_budget(budget: f64) -> Result<(), Error> {
    let vanishes = budget > 0.0 && micro(budget) == 0;
    if budget.is_finite() && (0.0..=1.0).contains(&budget) && !vanishes {
        return Ok(());
    }
    // Without the float noise of the share (110% read "110.00000000000001%").
    let percent = budget * 100.0;
    let percent = if percent.abs() < 1e6 {
        crate::report::percent_as_given(percent)
    } else {
        format!("{percent:e}%")
    };
    Err(Error::out_of_range("budget", percent, BUDGET_RANGE))
}

impl Bounds {
    fn validate(&self) -> Result<(), Error> {
        if let Some(budget) = self.budget {
            check_budget(budget)?;
        }
        if !(1..=3_600).contains(&self.budget_window_s) {
            return Err(Error::out_of_range(
                "budget-window",
                crate::format_duration(f64::from(self.budget_window_s)),
                "a whole number of seconds from 1 s to 1 h",
            ));
        }
        check_budget_floor(self.budget_floor_per_s)?;
        if let Some(limit) = self.rate_limit_per_s {
            rate("rate-limit", limit, 1e7)?;
        }
        if let Some(pace) = self.resume_rate_per_s {
            rate("resume-rate", pace, 1e7)?;
        }
        if let Some(after) = self.retry_after_s {
            duration("retry-after", after, 86_400.0, "1 day")?;
        }
        duration(
            "retry-after-threshold",
            self.retry_after_threshold_s,
            3_600.0,
            "1 h",
        )?;
        if let Some(quota) = &self.retry_quota {
            quota.validate()?;
        }
        if let Some(breaker) = &self.breaker {
            breaker.validate()?;
        }
        Ok(())
    }
}

/// A rate greater than 0 and at most `max` per second, with at least one millionth per second
/// (the resolution every engine counts in).
fn rate(field: &'static str, value: f64, max: f64) -> Result<(), Error> {
    if value.is_finite() && value >= 1e-6 && value <= max {
        Ok(())
    } else {
        Err(Error::out_of_range(
            field,
            value,
            format!("a rate from 0.000001 to {max} per second"),
        ))
    }
}

/// The retry budget's floor, retries a second: from 0 (a budget of its share alone) to
/// 10,000,000. A link's `budget-floor` is checked by this too.
pub(crate) fn check_budget_floor(floor: f64) -> Result<(), Error> {
    if floor.is_finite() && (0.0..=1e7).contains(&floor) {
        Ok(())
    } else {
        Err(Error::out_of_range(
            "budget-floor",
            floor,
            "a rate from 0 to 10000000 per second",
        ))
    }
}

/// A duration from one microsecond to `max` seconds (`max_text` in words).
fn duration(field: &'static str, value: f64, max: f64, max_text: &str) -> Result<(), Error> {
    if value.is_finite() && value >= 1e-6 && value <= max {
        Ok(())
    } else {
        Err(Error::out_of_range(
            field,
            crate::duration::refused_duration(value),
            format!("a duration from 1 µs to {max_text}"),
        ))
    }
}

/// Deliveries steady arrivals of `arrivals_per_s` bring over `traffic_s` seconds, as a storm
/// counts them: `A × traffic` rounded to the nearest whole, halves up, with `A` in whole
/// millionths per second. Every limit on deliveries counts them so.
pub fn steady_count(arrivals_per_s: f64, traffic_s: u32) -> f64 {
    Units::whole_by(micro(arrivals_per_s), u64::from(traffic_s)) as f64
}

/// Rounds a non-negative finite value to the nearest millionth, as a whole number of them.
pub(crate) fn micro(value: f64) -> u64 {
    (value * MICRO as f64).round() as u64
}

/// A validated scenario in whole units: rates in millionths per second, durations in
/// microseconds, shares in parts per million. Every comparison that decides an outcome is made
/// on these integers, so ties follow the stated rules and never rounding noise.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Units {
    pub arrivals: u64,
    pub capacity: u64,
    pub timeout_us: u64,
    pub latency_us: u64,
    pub rate_limit: Option<u64>,
    /// The pace after a pause, from the outage's end (pause only).
    pub resume_pace: Option<u64>,
    pub budget_ppm: Option<u64>,
    pub budget_floor: u64,
    pub budget_window_s: u32,
    pub retry_after_us: Option<u64>,
    pub threshold_us: u64,
    pub quota: Option<QuotaUnits>,
    pub breaker: Option<Breaker>,
}

impl Units {
    fn of(scenario: &Spec) -> Self {
        let bounds = &scenario.bounds;
        Units {
            arrivals: micro(scenario.arrivals_per_s),
            capacity: micro(scenario.capacity_per_s),
            timeout_us: micro(scenario.timeout_s),
            latency_us: micro(scenario.latency_s),
            rate_limit: bounds.rate_limit_per_s.map(micro),
            resume_pace: bounds.pause.then(|| micro(scenario.resume_pace_per_s())),
            budget_ppm: bounds.budget.map(micro),
            budget_floor: micro(bounds.budget_floor_per_s),
            budget_window_s: bounds.budget_window_s,
            retry_after_us: bounds.retry_after_s.map(micro),
            threshold_us: micro(bounds.retry_after_threshold_s),
            quota: bounds.retry_quota.as_ref().map(RetryQuota::units),
            breaker: bounds.breaker,
        }
    }

    /// Whole units (deliveries, attempts) a rate of `per_s` millionths per second yields in
    /// `second`: the cumulative count by the second's end less the count by its start.
    pub fn per_second(per_s: u64, second: u32) -> u64 {
        let second = u64::from(second);
        Self::whole_by(per_s, second + 1) - Self::whole_by(per_s, second)
    }

    /// The cumulative count of a rate of `per_s` millionths per second over `seconds`: the
    /// product rounded to the nearest whole, halves up. Rounded rather than cut: 20/min is
    /// 333,333 millionths a second, whose product with 7,200 s is 2,399.9976, and 20 a minute
    /// for 2 h are 2,400 (a rate's rounding to millionths moves a count by at most 0.3 over
    /// 7 days, so a whole count comes out whole).
    pub fn whole_by(per_s: u64, seconds: u64) -> u64 {
        const HALF: u64 = MICRO / 2;
        // In 64 bits when the product fits (every rate below 2^32 per second), else in 128: a
        // 128-bit division is a slow library call.
        match crate::numbers::product_in_64_bits(per_s, seconds)
            .and_then(|product| product.checked_add(HALF))
        {
            Some(product) => product / MICRO,
            None => {
                let product = u128::from(per_s) * u128::from(seconds) + u128::from(HALF);
                (product / u128::from(MICRO)) as u64
            }
        }
    }

    /// The first whole number of seconds over which a rate of `per_s` millionths per second
    /// counts `count` ([`Units::whole_by`] reaches it): `ceil((count − ½) / rate)`.
    pub fn seconds_to_reach(per_s: u64, count: u64) -> u64 {
        if count == 0 || per_s == 0 {
            return 0;
        }
        let needed = u128::from(count) * u128::from(MICRO) - u128::from(MICRO / 2);
        needed.div_ceil(u128::from(per_s)) as u64
    }

    /// First deliveries created in `second`: the steady traffic's whole count, and the batch.
    pub fn arrivals_in(&self, scenario: &Spec, second: u32) -> u64 {
        let steady = if second < scenario.traffic_s {
            Self::per_second(self.arrivals, second)
        } else {
            0
        };
        let batch = match scenario.batch {
            Some((n, at)) if at == second => u64::from(n),
            _ => 0,
        };
        steady + batch
    }

    /// Attempts the sender may make in `second` under the rate limit and the pace after a
    /// pause (`u64::MAX` when neither applies).
    pub fn allowance(&self, second: u32, outage_end: u32) -> u64 {
        self.rate_limit_allowance(second)
            .min(self.pace_allowance(second, outage_end))
    }

    /// Attempts the pace after a pause alone allows in `second` (`u64::MAX` without a pause,
    /// and before the outage's end).
    pub fn pace_allowance(&self, second: u32, outage_end: u32) -> u64 {
        match self.resume_pace {
            Some(p) if second >= outage_end => Self::per_second(p, second),
            _ => u64::MAX,
        }
    }

    /// Attempts the rate limit alone allows in `second` (`u64::MAX` without one).
    pub fn rate_limit_allowance(&self, second: u32) -> u64 {
        self.rate_limit
            .map_or(u64::MAX, |r| Self::per_second(r, second))
    }

    /// Whole seconds until a retry comes due after a failure: the timeout (unless answered 429)
    /// plus the gap, both in microseconds, rounded down, and at least one.
    pub fn due_after(&self, gap_us: u64, rejected: bool) -> u64 {
        let wait_us = if rejected {
            gap_us.max(self.retry_after_us.unwrap_or(0))
        } else {
            self.timeout_us + gap_us
        };
        (wait_us / MICRO).max(1)
    }
}

/// A rate as a refusal quotes it where the text it was given as is not at hand: per second, to
/// six significant digits (`138.889/s` for 500000/h, not `138.88888888888889/s`), with an
/// exponent below a millionth (`1e-14/s`, which six decimals would make `0/s`).
pub(crate) fn quoted_rate(per_s: f64) -> String {
    use crate::number_text::{significant, without_trailing_zeros};
    if per_s != 0.0 && per_s.abs() < 1e-6 {
        return format!("{per_s:e}/s");
    }
    format!("{}/s", without_trailing_zeros(&significant(per_s, 6)))
}

/// The arrival rates a storm of `traffic_s` seconds of traffic and a batch of `batch` may have:
/// together at most [`MAX_DELIVERIES`] deliveries. The command line and the page refuse a rate
/// past it in these words.
pub fn arrivals_range(traffic_s: f64, batch: f64) -> String {
    // A batch that leaves less than one is refused itself ([`Scenario::validate`]).
    let left = MAX_DELIVERIES - batch;
    let batch_text = if batch > 0.0 {
        format!(" beside its batch of {batch}")
    } else {
        String::new()
    };
    // In the first unit of a minute, an hour and a day that gives one or more ("up to about
    // 0/min" was a range no rate meets; a batch leaving one delivery over 2 h named no rate).
    let fastest = [(60.0, "min"), (3_600.0, "h"), (86_400.0, "day")]
        .into_iter()
        .map(|(unit_s, unit)| ((left * unit_s / traffic_s).floor(), unit))
        .find(|(count, _)| *count >= 1.0)
        .map(|(count, unit)| format!(" (up to about {count:.0}/{unit})"))
        .unwrap_or_default();
    let deliveries = if left == 1.0 {
        "delivery"
    } else {
        "deliveries"
    };
    format!(
        "a rate that brings at most {left} {deliveries} over the storm's {} of \
         traffic{batch_text}{fastest}",
        crate::format_duration(traffic_s),
    )
}
