//! The expected-value engine: instead of individual deliveries it moves expected numbers of
//! deliveries between attempt classes, spreading each class's retries over the seconds its
//! gap's uniform window covers. Fast, deterministic, and only for gaps that depend on the
//! attempt number alone (every jitter mode but decorrelated).

use super::{destination, finish, BudgetWindow, Interval, Scenario, StormReport, MAX_HORIZON_S};
use crate::Error;

/// The most ring cells (attempt classes × seconds of the longest wait) the engine allocates.
const MAX_CELLS: f64 = 50_000_000.0;

/// Expected deliveries due in future seconds for one attempt class, as a ring: a uniform spread
/// over `[a, b)` is a constant rate with partial first and last seconds, added in O(1).
struct Calendar {
    rate_change: Vec<f64>,
    extra: Vec<f64>,
    rate: f64,
    /// The ring's length is a power of two: a mask, not a division, finds a second's cell.
    mask: usize,
}

impl Calendar {
    fn new(len: usize) -> Self {
        let len = len.next_power_of_two();
        Calendar {
            rate_change: vec![0.0; len],
            extra: vec![0.0; len],
            rate: 0.0,
            mask: len - 1,
        }
    }

    /// Adds `mass` spread uniformly over `[a, b)` seconds (a point mass when `b <= a`).
    fn spread(&mut self, a: f64, b: f64, mass: f64) {
        let mask = self.mask;
        let cell = |t: f64| (t as usize) & mask;
        if b - a < 1e-9 {
            self.extra[cell(a)] += mass;
            return;
        }
        let density = mass / (b - a);
        let (first, last) = (a.floor(), b.floor());
        if first == last {
            self.extra[cell(a)] += mass;
            return;
        }
        self.extra[cell(a)] += density * (first + 1.0 - a);
        self.extra[cell(b)] += density * (b - last);
        if last > first + 1.0 {
            self.rate_change[cell(first + 1.0)] += density;
            self.rate_change[cell(last)] -= density;
        }
    }

    /// Takes what is due in `second`.
    fn take(&mut self, second: u32) -> f64 {
        let i = second as usize & self.mask;
        self.rate += self.rate_change[i];
        self.rate_change[i] = 0.0;
        let due = self.rate + self.extra[i];
        self.extra[i] = 0.0;
        due.max(0.0)
    }
}

/// Runs `scenario` on expected values. Refuses decorrelated jitter and scenarios whose
/// calendars would exceed 50,000,000 cells, before allocating.
///
/// # Example
/// ```
/// use backoff_lab::storm::{simulate_fluid, Scenario};
/// let report = simulate_fluid(&Scenario::article_fixed(), false)?;
/// assert!(report.summary.peak_multiple > 15.0);
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn simulate_fluid(scenario: &Scenario, keep_seconds: bool) -> Result<StormReport, Error> {
    scenario.validate()?;
    let classes = scenario.policy.attempts() as usize;
    let windows: Vec<(f64, f64)> = (1..classes as u32)
        .map(|retry| scenario.window(retry))
        .collect::<Option<_>>()
        .ok_or_else(|| {
            Error::out_of_range(
                "engine",
                "fluid with decorrelated jitter",
                "discrete for decorrelated jitter (the fluid engine needs gaps that depend only on the attempt number)",
            )
        })?;
    let longest_wait = scenario.timeout_s
        + scenario
            .longest_gap_s()
            .max(scenario.bounds.retry_after_s.unwrap_or(0.0));
    let ring = (longest_wait.ceil() as usize + 3).next_power_of_two();
    if ring as f64 * classes as f64 > MAX_CELLS {
        return Err(Error::out_of_range(
            "engine",
            "fluid for this scenario",
            "discrete here: attempts × longest wait exceeds the fluid engine's 50000000 cells",
        ));
    }
    // Class k holds deliveries whose next attempt is attempt k + 1 (k = 0: the first).
    let mut calendars: Vec<Calendar> = (0..classes)
        .map(|_| Calendar::new(if classes > 1 { ring } else { 1 }))
        .collect();
    let mut deferred = vec![0.0; classes];
    let (mut created, mut delivered, mut exhausted, mut pending_calendar) = (0.0, 0.0, 0.0, 0.0);
    let mut queue = 0.0;
    let mut budget = BudgetWindow::new(&scenario.bounds);
    let mut seconds: Vec<Interval> = Vec::new();
    let last_arrival = scenario
        .traffic_s
        .max(scenario.batch.map_or(0, |(_, at)| at + 1));
    let after = scenario.bounds.retry_after_s.unwrap_or(0.0);
    let mut active = 0usize;

    // Buffers reused every second: `due` (then `taken`) per class, and what is held back.
    let mut due = vec![0.0; classes];
    let mut held_total = 0.0;
    for second in 0..MAX_HORIZON_S {
        if second >= last_arrival && pending_calendar < 1e-6 && held_total < 1e-6 {
            break;
        }
        let arriving = scenario.arrivals_in(second);
        created += arriving;
        let top = (active + 1).min(classes);
        due[0] = deferred[0] + arriving;
        deferred[0] = 0.0;
        // Only classes that have ever held anything can have something due.
        let mut retries_due = 0.0;
        for k in 1..top {
            let mass = calendars[k].take(second);
            pending_calendar -= mass;
            due[k] = deferred[k] + mass;
            deferred[k] = 0.0;
            retries_due += due[k];
        }

        let taken = &mut due;
        let (firsts, retries_taken) = if scenario.bounds.pause && scenario.in_outage(second) {
            deferred[..top].copy_from_slice(&taken[..top]);
            taken[..top].iter_mut().for_each(|t| *t = 0.0);
            budget.open(second, 0.0);
            (0.0, 0.0)
        } else {
            let allowed_total = scenario.bounds.rate_limit_per_s.unwrap_or(f64::INFINITY);
            let firsts = taken[0].min(allowed_total);
            deferred[0] = taken[0] - firsts;
            taken[0] = firsts;
            let allowed_retries = (allowed_total - firsts).min(budget.open(second, firsts));
            let share = if retries_due > 0.0 {
                (allowed_retries / retries_due).min(1.0)
            } else {
                0.0
            };
            if share < 1.0 {
                for k in 1..top {
                    deferred[k] = taken[k] * (1.0 - share);
                    taken[k] *= share;
                }
            }
            budget.record(retries_due * share);
            (firsts, retries_due * share)
        };
        held_total = deferred[..top].iter().sum();

        let n = firsts + retries_taken;
        let outcome = destination(scenario, second, n, &mut queue, false);
        // Outcomes by position: first attempts first, as in the discrete engine.
        let ok_firsts = outcome.ok.min(firsts);
        let ok_retries = outcome.ok - ok_firsts;
        let admitted = n - outcome.rejected;
        let admitted_firsts = admitted.min(firsts);
        delivered += outcome.ok;
        let start = f64::from(second);
        for k in 0..top {
            let mass = taken[k];
            taken[k] = 0.0;
            if mass <= 0.0 {
                continue;
            }
            let (ok, admitted_here) = if k == 0 {
                (ok_firsts, admitted_firsts)
            } else {
                let share = mass / retries_taken;
                (ok_retries * share, (admitted - admitted_firsts) * share)
            };
            // Rounding can leave -1e-45 where nothing failed.
            let failed_timeout = (admitted_here - ok).max(0.0);
            let failed_429 = (mass - admitted_here).max(0.0);
            if k + 1 == classes {
                exhausted += failed_timeout + failed_429;
                continue;
            }
            active = active.max(k + 1);
            let (lo, hi) = windows[k];
            let next = &mut calendars[k + 1];
            if failed_timeout > 0.0 {
                next.spread(
                    start + scenario.timeout_s + lo,
                    start + scenario.timeout_s + hi,
                    failed_timeout,
                );
            }
            if failed_429 > 0.0 {
                // A 429 answers at once, and its Retry-After is a floor on the gap.
                let below = if hi > lo {
                    ((after - lo) / (hi - lo)).clamp(0.0, 1.0)
                } else if lo < after {
                    1.0
                } else {
                    0.0
                };
                let floor = start + after.max(lo);
                next.spread(floor, floor, failed_429 * below);
                next.spread(floor, start + hi.max(after), failed_429 * (1.0 - below));
            }
            pending_calendar += failed_timeout + failed_429;
        }
        let held = held_total;
        debug_assert!(
            (created - (delivered + exhausted + pending_calendar + held)).abs()
                <= 1e-6 * created.max(1.0),
            "conservation at second {second}: created {created}, delivered {delivered}, exhausted {exhausted}, calendar {pending_calendar}, held {held}"
        );
        seconds.push(Interval {
            index: second,
            attempts: n,
            first_attempts: firsts,
            retries: retries_taken,
            successes: outcome.ok,
            failures: outcome.late + outcome.lost,
            rejected_429: outcome.rejected,
            duplicates: outcome.late,
            backlog: (created - delivered - exhausted).max(0.0),
            queue,
            exhausted,
            deferred: held,
        });
    }
    Ok(finish("fluid", scenario, created, seconds, keep_seconds))
}
