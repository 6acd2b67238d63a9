//! The per-delivery engine: every delivery is an individual with its own attempts and seeded
//! jittered gaps, scheduled on a one-second timing wheel. Counts are exact for the seed.

use std::collections::VecDeque;

use super::{destination, BudgetWindow, Interval, Recorder, Scenario, StormReport, MAX_HORIZON_S};
use crate::jitter::{seeded_rng, uniform, Jitter, SeededRng};
use crate::Error;

struct Delivery {
    attempts: u32,
    processed: u32,
    previous_gap: f64,
}

/// Runs `scenario` delivery by delivery. `keep_seconds` keeps the per-second rows.
///
/// # Example
/// ```
/// use backoff_lab::storm::{simulate_discrete, Scenario};
/// let report = simulate_discrete(&Scenario::article_fixed(), false)?;
/// assert!(report.summary.peak_multiple > 15.0);
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn simulate_discrete(scenario: &Scenario, keep_seconds: bool) -> Result<StormReport, Error> {
    scenario.validate()?;
    let mut rng = seeded_rng(scenario.seed)?;
    let max_attempts = scenario.policy.attempts();
    let mut deliveries: Vec<Delivery> = Vec::new();
    let mut wheel: Vec<Vec<u32>> = vec![Vec::new(); scenario.horizon_s() as usize + 2];
    let mut scheduled = 0usize;
    let mut beyond_horizon = 0usize;
    let mut deferred: VecDeque<u32> = VecDeque::new();
    let (mut delivered, mut exhausted) = (0usize, 0usize);
    let mut queue = 0.0;
    let mut arrival_carry = 0.0;
    let mut limit_carry = 0.0;
    let mut budget = BudgetWindow::new(&scenario.bounds);
    let mut recorder = Recorder::new(scenario, false, keep_seconds);
    let last_arrival = scenario
        .traffic_s
        .max(scenario.batch.map_or(0, |(_, at)| at + 1));

    for second in 0..MAX_HORIZON_S {
        if second >= last_arrival && scheduled == 0 && deferred.is_empty() {
            break;
        }
        // New deliveries, then everything due: deferred first, in the order it was deferred.
        arrival_carry += scenario.arrivals_in(second);
        let new = arrival_carry.floor();
        arrival_carry -= new;
        let mut firsts: Vec<u32> = Vec::new();
        let mut retries: Vec<u32> = Vec::new();
        for id in deferred.drain(..) {
            if deliveries[id as usize].attempts == 0 {
                firsts.push(id);
            } else {
                retries.push(id);
            }
        }
        for _ in 0..new as u64 {
            firsts.push(deliveries.len() as u32);
            deliveries.push(Delivery {
                attempts: 0,
                processed: 0,
                previous_gap: 0.0,
            });
        }
        if let Some(due) = wheel.get_mut(second as usize) {
            scheduled -= due.len();
            retries.append(due);
        }

        // Bounds: pause holds everything; the rate limit and the budget defer the excess.
        let (firsts, retries) = if scenario.bounds.pause && scenario.in_outage(second) {
            deferred.extend(firsts.iter().chain(&retries));
            budget.open(second, 0.0);
            (Vec::new(), Vec::new())
        } else {
            let mut allowed_total = usize::MAX;
            if let Some(limit) = scenario.bounds.rate_limit_per_s {
                limit_carry += limit;
                allowed_total = limit_carry.floor() as usize;
                limit_carry -= allowed_total as f64;
            }
            let take_firsts = firsts.len().min(allowed_total);
            let room = budget.open(second, take_firsts as f64).floor();
            let allowed_retries = (allowed_total - take_firsts).min(room as usize);
            let take_retries = retries.len().min(allowed_retries);
            budget.record(take_retries as f64);
            deferred.extend(firsts[take_firsts..].iter().chain(&retries[take_retries..]));
            (
                firsts[..take_firsts].to_vec(),
                retries[..take_retries].to_vec(),
            )
        };
        let attempted: Vec<u32> = firsts.iter().chain(&retries).copied().collect();
        let n = attempted.len() as f64;
        let outcome = destination(scenario, second, n, &mut queue, true);
        let ok = outcome.ok as usize;
        let processed_late = ok + outcome.late as usize;
        let admitted = (n - outcome.rejected) as usize;
        let mut row = Interval {
            index: second,
            attempts: n,
            first_attempts: firsts.len() as f64,
            retries: retries.len() as f64,
            successes: outcome.ok,
            failures: outcome.late + outcome.lost,
            rejected_429: outcome.rejected,
            ..Interval::default()
        };
        for (position, &id) in attempted.iter().enumerate() {
            let delivery = &mut deliveries[id as usize];
            delivery.attempts += 1;
            if position < processed_late {
                delivery.processed += 1;
                if delivery.processed > 1 {
                    row.duplicates += 1.0;
                }
            }
            if position < ok {
                delivered += 1;
                continue;
            }
            if delivery.attempts >= max_attempts {
                exhausted += 1;
                continue;
            }
            let rejected = position >= admitted;
            let gap = next_gap(scenario, delivery, &mut rng);
            let wait = if rejected {
                gap.max(scenario.bounds.retry_after_s.unwrap_or(0.0))
            } else {
                scenario.timeout_s + gap
            };
            let due = ((f64::from(second) + wait).floor() as usize).max(second as usize + 1);
            if due >= wheel.len() {
                wheel.resize_with((due + 1).min(MAX_HORIZON_S as usize + 1), Vec::new);
            }
            if let Some(slot) = wheel.get_mut(due) {
                slot.push(id);
                scheduled += 1;
            } else {
                // Due past the 7-day horizon: it stays pending.
                beyond_horizon += 1;
            }
        }
        let created = deliveries.len();
        debug_assert_eq!(
            created,
            delivered + exhausted + scheduled + deferred.len() + beyond_horizon,
            "conservation at second {second}"
        );
        row.backlog = (created - delivered - exhausted) as f64;
        row.queue = queue;
        row.exhausted = exhausted as f64;
        row.deferred = deferred.len() as f64;
        recorder.push(row);
    }
    let created = deliveries.len() as f64;
    Ok(recorder.finish("discrete", scenario, created))
}

fn next_gap(scenario: &Scenario, delivery: &mut Delivery, rng: &mut SeededRng) -> f64 {
    let retry = delivery.attempts;
    let policy = &scenario.policy;
    if scenario.jitter == Jitter::Decorrelated {
        let previous = if retry == 1 {
            policy.base_s()
        } else {
            delivery.previous_gap
        };
        let gap = uniform(rng, policy.base_s(), previous * 3.0).min(policy.cap_s());
        delivery.previous_gap = gap;
        return gap;
    }
    scenario
        .window(retry)
        .map_or(0.0, |(lo, hi)| uniform(rng, lo, hi))
}
