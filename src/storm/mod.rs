//! Retry storms: what a retry policy does to a destination's load during and after an outage,
//! and which aggregate bounds (a retry budget, a rate limit, pausing, `Retry-After`) end it.
//!
//! The model, shared by both engines, runs in one-second steps. Attempts due in a second arrive
//! together; the destination serves a FIFO queue at its capacity, so the j-th attempt of a
//! second waits `(queue + j) / capacity`. An attempt whose wait plus latency exceeds the sender's
//! timeout fails at the timeout, but the destination still processes it later (a duplicate side
//! effect if the delivery also succeeds elsewhere) unless it abandons such requests. During the
//! outage every attempt fails by the timeout. A failed delivery retries after the timeout plus
//! its gap; after its last attempt it is exhausted, which is a state, never a loss.

mod arithmetic;
mod discrete;
mod fluid;

pub use arithmetic::{arithmetic_view, ArithmeticMinute};
pub use discrete::simulate_discrete;
pub use fluid::simulate_fluid;

use serde::{Deserialize, Serialize};

use crate::jitter::Jitter;
use crate::{Error, Policy};

/// The longest simulated time: 7 days.
pub const MAX_HORIZON_S: u32 = 7 * 86_400;
/// The most deliveries one scenario may create.
pub const MAX_DELIVERIES: f64 = 10_000_000.0;

/// The aggregate bounds on what the destination sees; each is optional.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Bounds {
    /// Retries over the trailing window may be at most this share (0 to 1) of the first
    /// attempts over it; the rest are deferred, never dropped.
    pub budget: Option<f64>,
    /// The trailing window of the budget, seconds (60 by default).
    pub budget_window_s: u32,
    /// Retries per second the budget always allows on top of its share (as Finagle's
    /// `RetryBudget` does), so that a backlog still drains once first attempts stop.
    pub budget_floor_per_s: f64,
    /// Attempts per second at most, first attempts and retries combined (first attempts go
    /// first); the rest are deferred.
    pub rate_limit_per_s: Option<f64>,
    /// Hold every delivery while the endpoint is down; resume at recovery.
    pub pause: bool,
    /// When the destination's queue wait exceeds `retry_after_threshold_s`, it answers 429 with
    /// this `Retry-After` (seconds), taking no capacity; the sender waits at least that long.
    pub retry_after_s: Option<f64>,
    /// The queue wait above which the destination answers 429 (1 s by default).
    pub retry_after_threshold_s: f64,
}

/// A storm scenario: traffic, destination, outage, sender and bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scenario {
    /// Steady first deliveries per second.
    pub arrivals_per_s: f64,
    /// How long the steady traffic lasts, seconds.
    pub traffic_s: u32,
    /// A one-off batch: how many deliveries, at which second.
    pub batch: Option<(u32, u32)>,
    /// Requests per second the healthy destination serves.
    pub capacity_per_s: f64,
    /// The healthy destination's latency, seconds.
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
    /// The seed of the jittered gaps (discrete engine).
    pub seed: u64,
}

impl Scenario {
    /// The article's storm: 600 per minute for 2 h, 30 per second of capacity, 50 ms latency,
    /// a 10-minute outage from 0, a 5 s timeout, a fixed 30 s interval for up to 240 attempts
    /// (two hours of retrying).
    pub fn article_fixed() -> Self {
        Scenario {
            arrivals_per_s: 10.0,
            traffic_s: 7_200,
            batch: None,
            capacity_per_s: 30.0,
            latency_s: 0.05,
            outage: (0, 600),
            timeout_s: 5.0,
            policy: Policy::article_storm(),
            jitter: Jitter::None,
            bounds: Bounds {
                budget_window_s: 60,
                budget_floor_per_s: 0.5,
                retry_after_threshold_s: 1.0,
                ..Bounds::default()
            },
            abandon: false,
            seed: 42,
        }
    }

    /// Checks every field before anything is allocated: rates, sizes and the horizon.
    pub fn validate(&self) -> Result<(), Error> {
        positive(
            "arrivals",
            self.arrivals_per_s,
            1e6,
            "a rate greater than 0 and at most 1000000 per second",
        )?;
        positive(
            "capacity",
            self.capacity_per_s,
            1e7,
            "a rate greater than 0 and at most 10000000 per second",
        )?;
        if !(self.latency_s.is_finite() && (0.0..=60.0).contains(&self.latency_s)) {
            return Err(Error::out_of_range(
                "latency",
                self.latency_s,
                "a duration from 0 to 60 s",
            ));
        }
        positive(
            "timeout",
            self.timeout_s,
            3_600.0,
            "a duration greater than 0 s and at most 1 h",
        )?;
        let end = u64::from(self.outage.0) + u64::from(self.outage.1);
        if end > u64::from(MAX_HORIZON_S) || u64::from(self.traffic_s) > u64::from(MAX_HORIZON_S) {
            return Err(Error::out_of_range(
                "horizon",
                crate::format_duration(end.max(u64::from(self.traffic_s)) as f64),
                "at most 7 days: traffic and outage must end within it",
            ));
        }
        let deliveries = self.arrivals_per_s * f64::from(self.traffic_s)
            + self.batch.map_or(0.0, |(n, _)| f64::from(n));
        if deliveries > MAX_DELIVERIES {
            return Err(Error::out_of_range(
                "traffic",
                format!("{} deliveries", deliveries.round()),
                "at most 10000000 deliveries in a scenario (arrivals × traffic duration + batch)",
            ));
        }
        if let Some((_, at)) = self.batch {
            if at >= MAX_HORIZON_S {
                return Err(Error::out_of_range(
                    "batch-at",
                    at,
                    "a second within 7 days",
                ));
            }
        }
        if let Some(budget) = self.bounds.budget {
            if !(budget.is_finite() && (0.0..=1.0).contains(&budget)) {
                return Err(Error::out_of_range(
                    "budget",
                    format!("{}%", budget * 100.0),
                    "a percentage from 0 to 100%",
                ));
            }
            if !(1..=3_600).contains(&self.bounds.budget_window_s) {
                return Err(Error::out_of_range(
                    "budget-window",
                    self.bounds.budget_window_s,
                    "a whole number of seconds from 1 to 3600",
                ));
            }
        }
        let floor = self.bounds.budget_floor_per_s;
        if !(floor.is_finite() && (0.0..=1e7).contains(&floor)) {
            return Err(Error::out_of_range(
                "budget-floor",
                floor,
                "a rate from 0 to 10000000 per second",
            ));
        }
        if let Some(limit) = self.bounds.rate_limit_per_s {
            positive(
                "rate-limit",
                limit,
                1e7,
                "a rate greater than 0 and at most 10000000 per second",
            )?;
        }
        if let Some(after) = self.bounds.retry_after_s {
            positive(
                "retry-after",
                after,
                86_400.0,
                "a duration greater than 0 s and at most 1 day",
            )?;
            positive(
                "retry-after-threshold",
                self.bounds.retry_after_threshold_s,
                3_600.0,
                "a duration greater than 0 s and at most 1 h",
            )?;
        }
        Ok(())
    }

    /// The interval the gap before retry `retry` (1-based) is drawn from; `None` for
    /// decorrelated jitter, whose gap depends on the previous one.
    fn window(&self, retry: u32) -> Option<(f64, f64)> {
        self.jitter.window(self.policy.gap(retry))
    }

    /// The longest gap any retry can draw.
    fn longest_gap_s(&self) -> f64 {
        match self.jitter {
            Jitter::Proportional(f) => self.policy.cap_s() * (1.0 + f),
            _ => self.policy.cap_s(),
        }
    }

    fn in_outage(&self, second: u32) -> bool {
        second >= self.outage.0 && second < self.outage.0 + self.outage.1
    }

    fn outage_end(&self) -> u32 {
        self.outage.0 + self.outage.1
    }

    /// First deliveries arriving in `second` (steady traffic plus the batch), as a rate; the
    /// discrete engine carries fractions over.
    fn arrivals_in(&self, second: u32) -> f64 {
        let steady = if second < self.traffic_s {
            self.arrivals_per_s
        } else {
            0.0
        };
        let batch = match self.batch {
            Some((n, at)) if at == second => f64::from(n),
            _ => 0.0,
        };
        steady + batch
    }

    /// The last second any activity can happen in: traffic, outage and batch, then the longest
    /// possible retry chain, within 7 days.
    fn horizon_s(&self) -> u32 {
        let last_arrival = self.traffic_s.max(self.batch.map_or(0, |(_, at)| at + 1));
        let step = self.timeout_s
            + self
                .longest_gap_s()
                .max(self.bounds.retry_after_s.unwrap_or(0.0));
        let chain = step * f64::from(self.policy.attempts());
        let end = f64::from(last_arrival.max(self.outage_end())) + chain + 2.0;
        end.min(f64::from(MAX_HORIZON_S)) as u32
    }
}

fn positive(field: &'static str, value: f64, max: f64, valid: &str) -> Result<(), Error> {
    if value.is_finite() && value > 0.0 && value <= max {
        Ok(())
    } else {
        Err(Error::out_of_range(field, value, valid))
    }
}

/// What happened in one second or one minute.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Interval {
    /// 1-based minute (0-based second in per-second rows).
    #[serde(rename = "minute")]
    pub index: u32,
    /// Attempts made (first attempts plus retries).
    pub attempts: f64,
    /// First attempts.
    pub first_attempts: f64,
    /// Retries.
    pub retries: f64,
    /// Attempts that succeeded within the timeout (goodput).
    pub successes: f64,
    /// Attempts that failed (timeouts, outage).
    pub failures: f64,
    /// Attempts answered 429 with `Retry-After`.
    pub rejected_429: f64,
    /// Duplicate side effects: a delivery processed more than once.
    pub duplicates: f64,
    /// Deliveries neither delivered nor exhausted, at the end.
    pub backlog: f64,
    /// Requests waiting in the destination's queue, at the end.
    pub queue: f64,
    /// Deliveries exhausted so far.
    pub exhausted: f64,
    /// Deliveries held or deferred by a bound, at the end.
    pub deferred: f64,
}

/// Totals and the outcome in a few numbers.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Deliveries created.
    pub arrivals: f64,
    /// Delivered.
    pub delivered: f64,
    /// Exhausted (out of attempts): visible, replayable, never silently dropped.
    pub exhausted: f64,
    /// Neither, when the simulation stopped.
    pub pending: f64,
    /// Duplicate side effects.
    pub duplicates: f64,
    /// The most attempts in any minute.
    pub peak_attempts_per_min: f64,
    /// The minute it happened (1-based).
    pub peak_minute: u32,
    /// That peak as a multiple of normal traffic (arrivals per minute).
    pub peak_multiple: f64,
    /// When the outage ended, seconds.
    pub outage_end_s: u32,
    /// The first second after the outage at which the backlog is empty (under one delivery in
    /// the fluid engine), or `None` if it never drains within the horizon.
    pub drained_at_s: Option<u32>,
    /// Attempts per delivered delivery.
    pub attempts_per_delivered: f64,
    /// The last simulated second.
    pub horizon_s: u32,
}

/// A storm simulation's result: per-minute rows, per-second attempts and the summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StormReport {
    /// Which engine produced it: `discrete` or `fluid`.
    pub engine: String,
    /// One row per minute; minute 1 is the first.
    pub minutes: Vec<Interval>,
    /// One row per second, when asked for (CSV only; never in JSON).
    #[serde(skip)]
    pub seconds: Vec<Interval>,
    /// The summary.
    pub summary: Summary,
    /// The outcome in words.
    pub caption: String,
}

/// Folds per-second rows into minutes and the summary's totals as a simulation goes (both
/// engines record here), keeping the seconds themselves only when asked.
pub(crate) struct Recorder {
    minutes: Vec<Interval>,
    seconds: Option<Vec<Interval>>,
    count: u32,
    drained_at: Option<u32>,
    outage_end: u32,
    /// The backlog under which it counts as drained: under one delivery on expected values.
    drained_below: f64,
}

impl Recorder {
    pub(crate) fn new(scenario: &Scenario, fluid: bool, keep_seconds: bool) -> Self {
        Recorder {
            minutes: Vec::new(),
            seconds: keep_seconds.then(Vec::new),
            count: 0,
            drained_at: None,
            outage_end: scenario.outage_end(),
            drained_below: if fluid { 1.0 } else { 0.5 },
        }
    }

    /// Records the next second (seconds come in order from 0).
    pub(crate) fn push(&mut self, row: Interval) {
        if row.index % 60 == 0 {
            self.minutes.push(Interval {
                index: row.index / 60 + 1,
                ..Interval::default()
            });
        }
        if let Some(minute) = self.minutes.last_mut() {
            minute.attempts += row.attempts;
            minute.first_attempts += row.first_attempts;
            minute.retries += row.retries;
            minute.successes += row.successes;
            minute.failures += row.failures;
            minute.rejected_429 += row.rejected_429;
            minute.duplicates += row.duplicates;
            minute.backlog = row.backlog;
            minute.queue = row.queue;
            minute.exhausted = row.exhausted;
            minute.deferred = row.deferred;
        }
        if self.drained_at.is_none()
            && row.index >= self.outage_end
            && row.backlog < self.drained_below
        {
            self.drained_at = Some(row.index);
        }
        self.count += 1;
        if let Some(seconds) = &mut self.seconds {
            seconds.push(row);
        }
    }

    /// The report: minutes, the kept seconds, the summary and its caption.
    pub(crate) fn finish(self, engine: &str, scenario: &Scenario, created: f64) -> StormReport {
        let peak = self
            .minutes
            .iter()
            .fold(None::<&Interval>, |best, m| match best {
                Some(b) if b.attempts >= m.attempts => Some(b),
                _ => Some(m),
            });
        let total = |field: fn(&Interval) -> f64| self.minutes.iter().map(field).sum::<f64>();
        let delivered = total(|m| m.successes);
        let attempts = total(|m| m.attempts);
        let last = self.minutes.last().copied().unwrap_or_default();
        let normal = scenario.arrivals_per_s * 60.0;
        let summary = Summary {
            arrivals: created,
            delivered,
            exhausted: last.exhausted,
            pending: last.backlog,
            duplicates: total(|m| m.duplicates),
            peak_attempts_per_min: peak.map_or(0.0, |m| m.attempts),
            peak_minute: peak.map_or(0, |m| m.index),
            peak_multiple: peak.map_or(0.0, |m| m.attempts) / normal,
            outage_end_s: self.outage_end,
            drained_at_s: self.drained_at,
            attempts_per_delivered: if delivered > 0.0 {
                attempts / delivered
            } else {
                0.0
            },
            horizon_s: self.count,
        };
        let caption = caption(scenario, &summary);
        StormReport {
            engine: engine.to_string(),
            minutes: self.minutes,
            seconds: self.seconds.unwrap_or_default(),
            summary,
            caption,
        }
    }
}

fn caption(scenario: &Scenario, summary: &Summary) -> String {
    let fmt = crate::format_duration;
    let outage = fmt(f64::from(scenario.outage.1));
    let mut text = format!(
        "A {outage} outage at {:.0} deliveries per minute: attempts peak at {:.0} in minute {}, {:.1}× normal traffic. ",
        scenario.arrivals_per_s * 60.0,
        summary.peak_attempts_per_min,
        summary.peak_minute,
        summary.peak_multiple,
    );
    text += &match summary.drained_at_s {
        _ if summary.exhausted > 0.5 * summary.arrivals => format!(
            "The storm outlives the outage and never drains: goodput collapses and {:.0}% of deliveries end exhausted. ",
            summary.exhausted / summary.arrivals.max(1.0) * 100.0
        ),
        Some(at) if at <= summary.outage_end_s + 60 => "The backlog drains within a minute of recovery. ".to_string(),
        Some(at) => format!(
            "The storm outlives the outage: the backlog drains {} after recovery. ",
            fmt(f64::from(at - summary.outage_end_s))
        ),
        None => format!(
            "The storm outlives the outage: the backlog has not drained {} after recovery. ",
            fmt(f64::from(summary.horizon_s.saturating_sub(summary.outage_end_s)))
        ),
    };
    let exhausted_share = summary.exhausted / summary.arrivals.max(1.0);
    if (0.05..=0.5).contains(&exhausted_share) {
        text += &format!(
            "{:.0}% of deliveries ran out of attempts. ",
            exhausted_share * 100.0
        );
    }
    text += &format!(
        "{:.0} of {:.0} deliveries delivered, {:.0} exhausted (kept, replayable), {:.0} pending; {:.0} duplicate side effects; {:.2} attempts per delivered event.",
        summary.delivered, summary.arrivals, summary.exhausted, summary.pending, summary.duplicates, summary.attempts_per_delivered
    );
    text
}

/// The retry budget's bookkeeping over its trailing window, shared by both engines.
pub(crate) struct BudgetWindow {
    firsts: Vec<f64>,
    retries: Vec<f64>,
    slot: usize,
    /// The window's sums, kept as it slides (and summed afresh once per lap, so that rounding
    /// cannot build up).
    firsts_sum: f64,
    retries_sum: f64,
    budget: Option<f64>,
    floor: f64,
}

impl BudgetWindow {
    pub(crate) fn new(bounds: &Bounds) -> Self {
        let window = bounds.budget_window_s.max(1) as usize;
        BudgetWindow {
            firsts: vec![0.0; window],
            retries: vec![0.0; window],
            slot: 0,
            firsts_sum: 0.0,
            retries_sum: 0.0,
            budget: bounds.budget,
            floor: bounds.budget_floor_per_s * window as f64,
        }
    }

    /// Opens `second` with the first attempts made in it and returns how many retries the
    /// budget allows in it: its share of the window's first attempts plus its floor, less the
    /// window's retries so far (unbounded without a budget).
    pub(crate) fn open(&mut self, second: u32, firsts: f64) -> f64 {
        let Some(share) = self.budget else {
            return f64::INFINITY;
        };
        self.slot = second as usize % self.firsts.len();
        self.firsts_sum += firsts - self.firsts[self.slot];
        self.retries_sum -= self.retries[self.slot];
        self.firsts[self.slot] = firsts;
        self.retries[self.slot] = 0.0;
        if self.slot == 0 {
            self.firsts_sum = self.firsts.iter().sum();
            self.retries_sum = self.retries.iter().sum();
        }
        (share * self.firsts_sum + self.floor - self.retries_sum).max(0.0)
    }

    /// Records the retries made in the second opened last.
    pub(crate) fn record(&mut self, retries: f64) {
        if self.budget.is_some() {
            self.retries_sum += retries - self.retries[self.slot];
            self.retries[self.slot] = retries;
        }
    }
}

/// What the destination does with `n` attempts arriving in one second: shared by both engines
/// so that they differ only in how they count deliveries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Outcome {
    /// Answered in time.
    pub ok: f64,
    /// Timed out at the sender but queued: processed later (a side effect without a success).
    pub late: f64,
    /// Failed without being processed (outage, or abandoned).
    pub lost: f64,
    /// Answered 429.
    pub rejected: f64,
}

/// The destination during one second; `queue` is updated.
pub(crate) fn destination(
    scenario: &Scenario,
    second: u32,
    n: f64,
    queue: &mut f64,
    discrete: bool,
) -> Outcome {
    if n <= 0.0 {
        *queue = (*queue - scenario.capacity_per_s).max(0.0);
        return Outcome {
            ok: 0.0,
            late: 0.0,
            lost: 0.0,
            rejected: 0.0,
        };
    }
    if scenario.in_outage(second) {
        *queue = 0.0;
        return Outcome {
            ok: 0.0,
            late: 0.0,
            lost: n,
            rejected: 0.0,
        };
    }
    let c = scenario.capacity_per_s;
    // The j-th attempt (0-based) sees (queue + j) requests ahead of it.
    let count_below = |limit: f64| -> f64 {
        let room = limit - *queue;
        if discrete {
            (room.floor() + 1.0).clamp(0.0, n)
        } else {
            room.clamp(0.0, n)
        }
    };
    let admitted = match scenario.bounds.retry_after_s {
        Some(_) => count_below(scenario.bounds.retry_after_threshold_s * c),
        None => n,
    };
    let rejected = n - admitted;
    let in_time = count_below((scenario.timeout_s - scenario.latency_s) * c).min(admitted);
    let too_late = admitted - in_time;
    let (late, lost, queued) = if scenario.abandon {
        (0.0, too_late, in_time)
    } else {
        (too_late, 0.0, admitted)
    };
    *queue = (*queue + queued - c).max(0.0);
    Outcome {
        ok: in_time,
        late,
        lost,
        rejected,
    }
}

#[cfg(test)]
mod tests;

impl StormReport {
    /// The summary in words, then minutes as a table: every minute of the first half hour, then
    /// every fifteenth.
    pub fn to_table(&self) -> String {
        let mut out = format!("{}\n\n", self.caption);
        out += "minute  attempts  first  retries  successes  failures   429s  duplicates  backlog   queue  exhausted\n";
        for m in self
            .minutes
            .iter()
            .filter(|m| m.index <= 30 || m.index % 15 == 0)
        {
            out += &format!(
                "{:>6}  {:>8.0}  {:>5.0}  {:>7.0}  {:>9.0}  {:>8.0}  {:>5.0}  {:>10.0}  {:>7.0}  {:>6.0}  {:>9.0}\n",
                m.index, m.attempts, m.first_attempts, m.retries, m.successes, m.failures, m.rejected_429,
                m.duplicates, m.backlog, m.queue, m.exhausted
            );
        }
        out
    }

    /// CSV, one line per second when the report kept seconds, else per minute.
    pub fn to_csv(&self) -> String {
        let (unit, rows) = if self.seconds.is_empty() {
            ("minute", &self.minutes)
        } else {
            ("second", &self.seconds)
        };
        let mut out = format!(
            "{unit},attempts,first_attempts,retries,successes,failures,rejected_429,duplicates,backlog,queue,exhausted,deferred\n"
        );
        for r in rows {
            out += &format!(
                "{},{},{},{},{},{},{},{},{},{},{},{}\n",
                r.index,
                r.attempts,
                r.first_attempts,
                r.retries,
                r.successes,
                r.failures,
                r.rejected_429,
                r.duplicates,
                r.backlog,
                r.queue,
                r.exhausted,
                r.deferred
            );
        }
        out
    }
}

/// The last few simulations and their reports, so that a page redrawn after a change that
/// leaves a scenario as it was (a policy slider under a fixed-interval comparison) does not
/// simulate it again.
#[derive(Debug, Default)]
pub struct Memo {
    /// Most recent first.
    entries: Vec<(Scenario, crate::Engine, StormReport)>,
}

impl Memo {
    /// How many reports it keeps: the page draws at most four series.
    pub const CAPACITY: usize = 8;

    /// The report of `scenario` on `engine`, from memory or simulated (without per-second rows).
    pub fn simulate(
        &mut self,
        scenario: &Scenario,
        engine: crate::Engine,
    ) -> Result<StormReport, Error> {
        let found = self
            .entries
            .iter()
            .position(|(s, e, _)| s == scenario && *e == engine);
        let entry = match found {
            Some(i) => self.entries.remove(i),
            None => (*scenario, engine, simulate(scenario, engine, false)?),
        };
        let report = entry.2.clone();
        self.entries.insert(0, entry);
        self.entries.truncate(Self::CAPACITY);
        Ok(report)
    }
}

/// Runs `scenario` on the chosen engine (the arithmetic view has its own type: see
/// [`arithmetic_view`]).
pub fn simulate(
    scenario: &Scenario,
    engine: crate::Engine,
    keep_seconds: bool,
) -> Result<StormReport, Error> {
    match engine {
        crate::Engine::Fluid => simulate_fluid(scenario, keep_seconds),
        _ => simulate_discrete(scenario, keep_seconds),
    }
}
