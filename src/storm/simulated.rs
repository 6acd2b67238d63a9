//! What was simulated, beside what came of it: the CLI's `storm --format json` and the JS API's
//! `storm()` return the scenario with every default filled in (the 24 h give-up's attempts, the
//! resume pace, the budget's window and floor), so that a result can be checked on its own.

use serde::Serialize;

use super::{Breaker, RetryQuota, Scenario, StormReport};
use crate::jitter::Jitter;

/// A storm's result with its scenario: `scenario`, then the report's fields.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize)]
pub struct SimulatedStorm {
    /// What was simulated.
    pub scenario: SimulatedScenario,
    /// What came of it.
    #[serde(flatten)]
    pub report: StormReport,
}

/// A storm's scenario as simulated, every default filled in: rates per second, durations in
/// seconds, the retry policy's unjittered gaps; a bound not set is `null`.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SimulatedScenario {
    /// Deliveries arriving per second while the steady traffic lasts.
    pub arrivals_per_s: f64,
    /// How long the steady traffic lasts.
    pub traffic_s: u32,
    /// A one-off batch of deliveries, if any.
    pub batch: Option<SimulatedBatch>,
    /// Requests per second the healthy destination serves.
    pub capacity_per_s: f64,
    /// The healthy destination's latency, seconds (less than the timeout).
    pub latency_s: f64,
    /// When the outage starts, whole seconds.
    pub outage_start_s: u32,
    /// How long the outage lasts, whole seconds (0: no outage).
    pub outage_s: u32,
    /// The sender's timeout, seconds.
    pub timeout_s: f64,
    /// Attempts per delivery, the first included.
    pub attempts: u32,
    /// The gaps before retries 1, 2, ... without jitter.
    pub gaps_s: Vec<f64>,
    /// `none`, `full`, `equal`, `decorrelated` or `proportional`.
    pub jitter: String,
    /// Proportional jitter's factor.
    pub jitter_factor: Option<f64>,
    /// The seed of the jittered gaps and of the order retries are served in (discrete
    /// engine).
    #[cfg_attr(test, ts(type = "number"))]
    pub seed: u64,
    /// Whether the destination skips requests whose sender has already timed out.
    pub abandon: bool,
    /// The retry budget: retries over its window at most this percent of the first attempts
    /// over it.
    pub budget_percent: Option<f64>,
    /// The budget's trailing window, seconds, with a budget.
    pub budget_window_s: Option<u32>,
    /// Retries per second the budget always allows on top of its share, with a budget.
    pub budget_floor_per_s: Option<f64>,
    /// Attempts per second at most, first attempts and retries combined.
    pub rate_limit_per_s: Option<f64>,
    /// Whether every delivery is held while the endpoint is down.
    pub pause: bool,
    /// Attempts per second at most from recovery on, with a pause (its default filled in).
    pub resume_rate_per_s: Option<f64>,
    /// The `Retry-After` (seconds) of the destination's 429 answers.
    pub retry_after_s: Option<f64>,
    /// The queue wait above which the destination answers 429, with a `Retry-After`.
    pub retry_after_threshold_s: Option<f64>,
    /// The sender's token bucket on retries.
    pub retry_quota: Option<RetryQuota>,
    /// The sender's circuit breaker.
    pub breaker: Option<Breaker>,
}

/// A one-off batch: its deliveries and the second they arrive in.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SimulatedBatch {
    /// How many deliveries the batch brings.
    pub deliveries: u32,
    /// The second the batch arrives in.
    pub at_s: u32,
}

impl SimulatedStorm {
    /// `report` with the `scenario` it came from.
    pub fn new(scenario: &Scenario, report: StormReport) -> Self {
        SimulatedStorm {
            scenario: SimulatedScenario::of(scenario),
            report,
        }
    }
}

impl SimulatedScenario {
    /// `scenario` as simulated.
    pub fn of(scenario: &Scenario) -> Self {
        let spec = scenario.spec();
        let bounds = &spec.bounds;
        let budget = bounds.budget.is_some();
        let retry_after = bounds.retry_after_s.is_some();
        let schedule = spec.policy.schedule();
        SimulatedScenario {
            arrivals_per_s: spec.arrivals_per_s,
            traffic_s: spec.traffic_s,
            batch: spec
                .batch
                .map(|(deliveries, at_s)| SimulatedBatch { deliveries, at_s }),
            capacity_per_s: spec.capacity_per_s,
            latency_s: spec.latency_s,
            outage_start_s: spec.outage.0,
            outage_s: spec.outage.1,
            timeout_s: spec.timeout_s,
            attempts: spec.policy.attempts(),
            gaps_s: schedule.rows().iter().filter_map(|r| r.gap_s).collect(),
            jitter: spec.jitter.name().to_string(),
            jitter_factor: match spec.jitter {
                Jitter::Proportional(factor) => Some(factor.get()),
                _ => None,
            },
            seed: spec.seed,
            abandon: spec.abandon,
            budget_percent: bounds
                .budget
                .map(|share| crate::without_float_noise(share * 100.0)),
            budget_window_s: budget.then_some(bounds.budget_window_s),
            budget_floor_per_s: budget.then_some(bounds.budget_floor_per_s),
            rate_limit_per_s: bounds.rate_limit_per_s,
            pause: bounds.pause,
            resume_rate_per_s: bounds.pause.then(|| spec.resume_pace_per_s()),
            retry_after_s: bounds.retry_after_s,
            retry_after_threshold_s: retry_after.then_some(bounds.retry_after_threshold_s),
            retry_quota: bounds.retry_quota,
            breaker: bounds.breaker,
        }
    }
}
