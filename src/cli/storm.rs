//! `backoff-lab storm`: what a retry policy does to a destination's load during and after an
//! outage, simulated or (engine arithmetic) by the article's table.

use backoff_lab::jitter::Jitter;
use backoff_lab::storm::{
    arithmetic_view, ArithmeticReport, Breaker, RetryQuota, Scenario, StormReport,
};
use backoff_lab::{Engine, Error};
use clap::Args;
use serde::Serialize;

use super::args::{DataFormat, StormFlags};

pub(super) const EXAMPLES: &str = "\
Examples:
  backoff-lab storm                                   the article's fixed 30 s storm
  backoff-lab storm --engine arithmetic               the article's per-minute table
  backoff-lab storm --policy exponential --base 30s --multiplier 3 --cap 3h --mode full --seed 42
  backoff-lab storm --budget 10%
  backoff-lab storm --rate-limit 25/s --format csv
  backoff-lab storm --policy exponential --base 30s --multiplier 3 --cap 3h --pause --format json

Rates: 600/min, 30/s, 36000/h (a bare number is per second). Percentages: 10% or 10.";

/// The flags of `storm`.
#[derive(Args)]
pub(super) struct StormArgs {
    #[command(flatten)]
    scenario: StormFlags,
    /// With --format csv: one line per second instead of per minute.
    #[arg(long)]
    per_second: bool,
    /// Output format: table, csv or json.
    #[arg(long, value_enum, default_value_t = DataFormat::Table)]
    format: DataFormat,
}

pub(super) fn run(args: StormArgs) -> Result<String, Error> {
    let params = args.scenario.params()?;
    if args.per_second && args.format != DataFormat::Csv {
        return Err(Error::out_of_range(
            "per-second",
            format!("--format {}", args.format.name()),
            "given only with --format csv (per-second rows exist only as CSV)",
        ));
    }
    if params.engine()? == Engine::Arithmetic {
        if args.per_second {
            return Err(Error::out_of_range(
                "per-second",
                "--engine arithmetic",
                "left out: the arithmetic view has minutes only",
            ));
        }
        // Named as typed: a backoff flag would otherwise be refused as the policy it makes.
        if let Some((flag, value)) = args.scenario.backoff_given() {
            return Err(backoff_lab::refused_by_arithmetic(flag, value));
        }
        let view = arithmetic_view(&params.arithmetic_scenario()?)?;
        return Ok(args
            .format
            .render(&view, ArithmeticReport::to_table, ArithmeticReport::to_csv));
    }
    let report = params.simulate(args.per_second)?;
    // The JSON says what was simulated beside what came of it, so that it can be checked on
    // its own (the defaults filled in: the 24 h give-up's attempts, the resume pace).
    let simulated = Simulated {
        scenario: ScenarioJson::of(&params.scenario()?),
        report: &report,
    };
    Ok(args.format.render(
        &simulated,
        |s| StormReport::to_table(s.report),
        |s| StormReport::to_csv(s.report),
    ))
}

/// `storm --format json`: the scenario simulated, then the report's fields.
#[derive(Serialize)]
struct Simulated<'a> {
    scenario: ScenarioJson,
    #[serde(flatten)]
    report: &'a StormReport,
}

/// A storm's scenario as simulated, every default filled in: rates per second, durations in
/// seconds, the retry policy's unjittered gaps.
#[derive(Serialize)]
struct ScenarioJson {
    arrivals_per_s: f64,
    traffic_s: u32,
    batch: Option<BatchJson>,
    capacity_per_s: f64,
    latency_s: f64,
    outage_start_s: u32,
    outage_s: u32,
    timeout_s: f64,
    /// Attempts per delivery, the first included.
    attempts: u32,
    /// The gaps before retries 1, 2, ... without jitter.
    gaps_s: Vec<f64>,
    jitter: &'static str,
    /// Proportional jitter's factor.
    jitter_factor: Option<f64>,
    seed: u64,
    abandon: bool,
    budget_percent: Option<f64>,
    budget_window_s: Option<u32>,
    budget_floor_per_s: Option<f64>,
    rate_limit_per_s: Option<f64>,
    pause: bool,
    resume_rate_per_s: Option<f64>,
    retry_after_s: Option<f64>,
    retry_after_threshold_s: Option<f64>,
    retry_quota: Option<RetryQuota>,
    breaker: Option<Breaker>,
}

#[derive(Serialize)]
struct BatchJson {
    deliveries: u32,
    at_s: u32,
}

impl ScenarioJson {
    fn of(scenario: &Scenario) -> Self {
        let spec = scenario.spec();
        let bounds = &spec.bounds;
        let budget = bounds.budget.is_some();
        let retry_after = bounds.retry_after_s.is_some();
        let schedule = spec.policy.schedule();
        ScenarioJson {
            arrivals_per_s: spec.arrivals_per_s,
            traffic_s: spec.traffic_s,
            batch: spec
                .batch
                .map(|(deliveries, at_s)| BatchJson { deliveries, at_s }),
            capacity_per_s: spec.capacity_per_s,
            latency_s: spec.latency_s,
            outage_start_s: spec.outage.0,
            outage_s: spec.outage.1,
            timeout_s: spec.timeout_s,
            attempts: spec.policy.attempts(),
            gaps_s: schedule.rows().iter().filter_map(|r| r.gap_s).collect(),
            jitter: spec.jitter.name(),
            jitter_factor: match spec.jitter {
                Jitter::Proportional(factor) => Some(factor.get()),
                _ => None,
            },
            seed: spec.seed,
            abandon: spec.abandon,
            budget_percent: bounds
                .budget
                .map(|share| backoff_lab::without_float_noise(share * 100.0)),
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
