//! The per-delivery engine: every delivery is an individual with its own attempts and seeded
//! jittered gaps, waiting on a one-second timing wheel. Counts are exact for the seed. It keeps
//! only what is in flight: a delivered or exhausted delivery leaves no trace but the counts.

use super::acted::{allows, BoundsActed, Sending};
use super::breaker::BreakerState;
use super::budget::ExactBudget;
use super::destination::{Outcome, Queue};
use super::fluid::Unrepresentable;
use super::quota::ExactQuota;
use super::report::{Interval, Recorder, StormReport};
use super::scenario::{micro, Units, MAX_HORIZON_S};
use super::Scenario;
use crate::jitter::{seeded_rng, uniform, Jitter, SeededRng};
use crate::Error;

/// The most attempts the discrete engine simulates (about ten seconds in a browser's worker): a
/// storm that gets past them stops with an error saying so.
pub const MAX_DISCRETE_ATTEMPTS: f64 = 1e8;

/// The most attempts a scenario may need at worst (deliveries × attempts per delivery, each
/// delivery making every attempt), refused before anything is allocated: beyond this a storm
/// could not end within [`MAX_DISCRETE_ATTEMPTS`] unless nearly every delivery succeeded early.
pub const MAX_DISCRETE_WORST_CASE: f64 = 1e9;

/// A delivery waiting for its next attempt: 16 bytes, the engine's whole memory per delivery
/// (held up to three times while a second's retries move from due to sent to scheduled).
#[derive(Debug, Clone, Copy)]
struct Waiting {
    /// Attempts made so far.
    attempts: u32,
    /// Whether the destination has processed it (a success, or a timeout processed late).
    processed: bool,
    /// The gap drawn before its latest attempt, in seconds (decorrelated jitter grows from it).
    previous_gap: f64,
}

/// Runs `scenario` delivery by delivery. `keep_seconds` keeps the per-second rows.
///
/// # Example
/// ```
/// use backoff_lab::storm::{simulate_discrete, Scenario};
/// let report = simulate_discrete(&Scenario::article_fixed(), false)?;
/// assert!(report.summary.peak_multiple.unwrap() > 15.0);
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn simulate_discrete(scenario: &Scenario, keep_seconds: bool) -> Result<StormReport, Error> {
    simulate_within(scenario, keep_seconds, MAX_DISCRETE_ATTEMPTS, MAX_HORIZON_S)
}

/// [`simulate_discrete`] stopping past `limit` simulated attempts (tests use a small one), and
/// at the end of second `until_s − 1` (or sooner, when the storm is over).
pub(super) fn simulate_within(
    scenario: &Scenario,
    keep_seconds: bool,
    limit: f64,
    until_s: u32,
) -> Result<StormReport, Error> {
    let units = *scenario.units();
    let worst = scenario.deliveries() * f64::from(scenario.policy.attempts());
    let refuse = Refusal::of(scenario, &units);
    if worst > MAX_DISCRETE_WORST_CASE {
        return Err(refuse.past(
            "at most 1,000,000,000 attempts at worst",
            "(deliveries × attempts per delivery, refused before it starts)",
            format!(
                "{} deliveries × {} attempts",
                scenario.deliveries(),
                scenario.policy.attempts()
            ),
        ));
    }
    // Past the limit at worst, the expected attempts (the fluid engine's, a few milliseconds)
    // say whether the storm would stop at the limit: refused now, not after seconds of work.
    let limit_text = format!(
        "at most {} simulated attempts",
        crate::number_text::format_count(limit)
    );
    let limit_detail = "(about ten seconds of work at the full limit)";
    if worst > limit && refuse.fluid_runs_it {
        let expected = super::fluid::simulate_fluid_until(scenario, false, until_s)?
            .summary
            .attempts;
        if expected > limit {
            return Err(refuse.past(
                &limit_text,
                limit_detail,
                format!(
                    "about {} attempts expected (the fluid engine's estimate, refused before it starts)",
                    crate::number_text::format_count(expected)
                ),
            ));
        }
    }
    let mut engine = Discrete::new(scenario, units)?;
    let mut recorder = Recorder::new(scenario, keep_seconds);
    let mut simulated = 0.0;
    for second in 0..until_s.min(MAX_HORIZON_S) {
        if engine.finished(second) {
            break;
        }
        let row = engine.step(second);
        simulated += row.attempts;
        if simulated > limit {
            return Err(refuse.past(
                &limit_text,
                limit_detail,
                format!(
                    "a storm still going after {} simulated attempts, at {}",
                    crate::number_text::format_count(limit),
                    crate::format_duration(f64::from(second))
                ),
            ));
        }
        recorder.push(row);
    }
    Ok(recorder.finish(
        "discrete",
        scenario,
        engine.created as f64,
        engine.breaker.openings(),
        engine.acted,
    ))
}

/// How a storm past one of the discrete engine's work limits is refused: what it names and the
/// ways out that exist.
struct Refusal {
    /// Whether the fluid engine runs the scenario: "use the fluid engine" to a destination it
    /// cannot represent sent the reader in a circle.
    fluid_runs_it: bool,
    /// Where the fluid engine refuses the schedule for its length alone, the most attempts it
    /// runs and its refusal of one more: the refusal names `attempts` (10,000 gaps of 1 µs were
    /// told "less traffic", a field nothing was wrong with).
    most_attempts: Option<(u32, Unrepresentable)>,
    attempts: u32,
    /// The field otherwise named ([`volume_field`]), how to ask for less of it and the ways out.
    field: &'static str,
    less: &'static str,
    ways: String,
}

impl Refusal {
    fn of(scenario: &Scenario, units: &Units) -> Refusal {
        let fluid_cannot = super::fluid::unrepresentable(scenario, units);
        let (field, less) = volume_field(scenario);
        let ways = match &fluid_cannot {
            None => format!("use the fluid engine, fewer attempts or {less}"),
            Some(why) => format!("fewer attempts or {less} ({})", why.reason),
        };
        let most_attempts = match &fluid_cannot {
            Some(why) if why.by_attempts => super::fluid::most_attempts_of(scenario),
            _ => None,
        };
        Refusal {
            fluid_runs_it: fluid_cannot.is_none(),
            most_attempts,
            attempts: scenario.policy.attempts(),
            field,
            less,
            ways,
        }
    }

    /// The refusal of a storm past what the discrete engine takes (`limit`, said more of in
    /// `detail`), as `got` says.
    fn past(&self, limit: &str, detail: &str, got: String) -> Error {
        match &self.most_attempts {
            Some((most, why)) => why.attempts_error(
                *most,
                "the fluid or auto engine",
                &format!(
                    "{}, as the discrete engine takes {limit} {detail}",
                    self.less
                ),
                format!("{} ({got})", self.attempts),
            ),
            None => Error::out_of_range(
                self.field,
                got,
                format!("{limit} for the discrete engine {detail}: {}", self.ways),
            ),
        }
    }
}

/// The field a refusal for too much work names, and how to ask for less: the batch when it
/// brings more deliveries than the steady traffic (`--batch 10000000 --traffic 0s` was told
/// "traffic must be …"), else the traffic.
fn volume_field(scenario: &Scenario) -> (&'static str, &'static str) {
    match scenario.batch {
        Some((batch, _)) if f64::from(batch) > scenario.steady_deliveries() => {
            ("batch", "a smaller batch")
        }
        _ => ("traffic", "less traffic"),
    }
}

/// The engine's state between seconds.
struct Discrete<'a> {
    scenario: &'a Scenario,
    units: Units,
    rng: SeededRng,
    /// The window each retry's gap is drawn from, by retry number (empty for decorrelated).
    windows: Vec<(f64, f64)>,
    wheel: Vec<Vec<Waiting>>,
    /// The retries due: between seconds, those held by a bound.
    due: Vec<Waiting>,
    /// The retries sent in the current second (a buffer kept between seconds).
    sent: Vec<Waiting>,
    held_firsts: u64,
    scheduled: u64,
    beyond_horizon: u64,
    created: u64,
    delivered: u64,
    exhausted: u64,
    queue: Queue,
    budget: ExactBudget,
    quota: ExactQuota,
    breaker: BreakerState,
    acted: BoundsActed,
}

impl<'a> Discrete<'a> {
    fn new(scenario: &'a Scenario, units: Units) -> Result<Self, Error> {
        let attempts = scenario.policy.attempts();
        let windows = (1..attempts).map_while(|k| scenario.window(k)).collect();
        Ok(Discrete {
            scenario,
            units,
            rng: seeded_rng(scenario.seed)?,
            windows,
            wheel: vec![Vec::new(); scenario.horizon_s() as usize + 2],
            due: Vec::new(),
            sent: Vec::new(),
            held_firsts: 0,
            scheduled: 0,
            beyond_horizon: 0,
            created: 0,
            delivered: 0,
            exhausted: 0,
            queue: Queue::default(),
            budget: ExactBudget::new(&units),
            quota: ExactQuota::new(&units),
            breaker: BreakerState::new(units.breaker),
            acted: BoundsActed::default(),
        })
    }

    /// Whether nothing can happen from `second` on: arrivals over, the outage's end recorded,
    /// nothing held or scheduled.
    fn finished(&self, second: u32) -> bool {
        second >= self.scenario.arrivals_end()
            && second > self.scenario.outage_end()
            && self.scheduled == 0
            && self.due.is_empty()
            && self.held_firsts == 0
    }

    /// Simulates `second` and returns its row. A call of its own for every second, so that a
    /// browser's engine moves it to optimized code early in a long storm (see `crate::batches`).
    #[inline(never)]
    fn step(&mut self, second: u32) -> Interval {
        let scenario = self.scenario;
        let new = self.units.arrivals_in(scenario, second);
        self.created += new;
        let firsts_due = self.held_firsts + new;
        self.bring_due(second);
        let down = scenario.in_outage(second);
        let (firsts, retries) = self.allow(second, down, firsts_due);
        self.pick_sent(retries);
        self.held_firsts = firsts_due - firsts;

        let n = firsts + retries;
        let outcome = self.queue.serve(&self.units, down, scenario.abandon, n);
        let mut row = Interval {
            index: second,
            attempts: n as f64,
            first_attempts: firsts as f64,
            retries: retries as f64,
            successes: outcome.ok as f64,
            failures: (outcome.late + outcome.lost) as f64,
            rejected_429: outcome.rejected as f64,
            ..Interval::default()
        };
        self.delivered += outcome.ok;
        self.quota.settle(firsts, retries, &outcome);
        let failed = outcome.late + outcome.lost + outcome.rejected;
        self.breaker
            .settle(second, n as f64, outcome.ok as f64, failed as f64);
        row.duplicates = self.fail_unanswered(second, firsts, &outcome);
        self.close_row(second, row)
    }

    /// Everything due in `second`: what was held, then what the wheel brings.
    fn bring_due(&mut self, second: u32) {
        if let Some(slot) = self.wheel.get_mut(second as usize) {
            let slot = std::mem::take(slot);
            self.scheduled -= slot.len() as u64;
            if self.due.is_empty() {
                self.due = slot;
            } else {
                self.due.extend_from_slice(&slot);
            }
        }
    }

    /// The sender's bounds: first attempts first, then retries in that order. Returns how many
    /// of each are sent.
    fn allow(&mut self, second: u32, down: bool, firsts_due: u64) -> (u64, u64) {
        let scenario = self.scenario;
        let retries_due = self.due.len() as u64;
        if scenario.bounds.pause && down {
            self.budget.open(second, 0);
            self.acted.paused((firsts_due + retries_due) as f64);
            (0, 0)
        } else {
            let allowed = self
                .units
                .allowance(second, scenario.outage_end())
                .min(self.breaker.allowance(second));
            let firsts = firsts_due.min(allowed);
            let (budget, quota) = (self.budget.open(second, firsts), self.quota.room());
            let room = (allowed - firsts).min(budget).min(quota);
            let retries = retries_due.min(room);
            self.budget.record(retries);
            self.acted.sent(&Sending {
                firsts_due: firsts_due as f64,
                retries_due: retries_due as f64,
                firsts: firsts as f64,
                retries: retries as f64,
                rate_limit: allows(self.units.rate_limit_allowance(second)),
                pace: allows(self.units.pace_allowance(second, scenario.outage_end())),
                budget: allows(budget),
                quota: allows(quota),
            });
            (firsts, retries)
        }
    }

    /// Moves `retries` of the due retries to `sent`, in a seeded random order; the rest are held.
    fn pick_sent(&mut self, retries: u64) {
        choose(&mut self.due, retries as usize, &mut self.rng);
        let held = self.due.len() - retries as usize;
        self.sent.clear();
        self.sent.extend_from_slice(&self.due[held..]);
        self.due.truncate(held);
    }

    /// Fails, in `second`, the first attempts (`firsts` of them, at the first positions) and
    /// the retries sent that `outcome` did not answer in time. Returns the duplicates: retries
    /// of deliveries already processed that were processed again.
    fn fail_unanswered(&mut self, second: u32, firsts: u64, outcome: &Outcome<u64>) -> f64 {
        // Positions: [0, ok) succeed, [ok, processed_end) time out but are processed,
        // [processed_end, rejected_from) time out unprocessed, [rejected_from, n) get a 429.
        let n = firsts + self.sent.len() as u64;
        let processed_end = outcome.ok + outcome.late;
        let rejected_from = n - outcome.rejected;
        let ok_firsts = outcome.ok.min(firsts);
        for position in ok_firsts..firsts {
            let first = Waiting {
                attempts: 1,
                processed: position < processed_end,
                previous_gap: 0.0,
            };
            self.fail(first, second, position >= rejected_from);
        }
        let mut duplicates = 0.0;
        let sent = std::mem::take(&mut self.sent);
        for (offset, waiting) in sent.iter().enumerate() {
            let position = firsts + offset as u64;
            let processed_now = position < processed_end;
            if processed_now && waiting.processed {
                duplicates += 1.0;
            }
            if position < outcome.ok {
                continue;
            }
            let next = Waiting {
                attempts: waiting.attempts + 1,
                processed: waiting.processed || processed_now,
                ..*waiting
            };
            self.fail(next, second, position >= rejected_from);
        }
        self.sent = sent;
        duplicates
    }

    /// Fills in the end-of-second counts of `row` (checking, in debug builds, that every
    /// delivery created is delivered, exhausted, in flight or beyond the horizon).
    fn close_row(&self, second: u32, mut row: Interval) -> Interval {
        let in_flight = self.scheduled + self.due.len() as u64 + self.held_firsts;
        debug_assert_eq!(
            self.created,
            self.delivered + self.exhausted + in_flight + self.beyond_horizon,
            "conservation at second {second}"
        );
        row.backlog = (self.created - self.delivered - self.exhausted) as f64;
        row.queue = self.queue.requests();
        row.exhausted = self.exhausted as f64;
        row.deferred = (self.due.len() as u64 + self.held_firsts) as f64;
        row
    }

    /// A delivery whose attempt (its `attempts`-th) failed in `second`: exhausted after its last
    /// attempt, else due again after the timeout (or the Retry-After) and its next gap.
    fn fail(&mut self, mut waiting: Waiting, second: u32, rejected: bool) {
        if waiting.attempts >= self.scenario.policy.attempts() {
            self.exhausted += 1;
            return;
        }
        let gap = self.next_gap(&mut waiting);
        let due = u64::from(second) + self.units.due_after(micro(gap), rejected);
        if due >= self.wheel.len() as u64 && due <= u64::from(MAX_HORIZON_S) {
            // Held by a bound longer than the horizon's estimate assumed.
            self.wheel.resize_with(due as usize + 1, Vec::new);
        }
        match self.wheel.get_mut(due as usize) {
            Some(slot) => {
                slot.push(waiting);
                self.scheduled += 1;
            }
            // Due past the 7-day horizon: it stays pending.
            None => self.beyond_horizon += 1,
        }
    }

    /// The gap before retry `waiting.attempts`, drawn from its window (or, for decorrelated
    /// jitter, from `[base, 3 × previous gap)`, capped).
    fn next_gap(&mut self, waiting: &mut Waiting) -> f64 {
        let retry = waiting.attempts;
        if self.scenario.jitter == Jitter::Decorrelated {
            let policy = &self.scenario.policy;
            let previous = if retry == 1 {
                policy.base_s()
            } else {
                waiting.previous_gap
            };
            let gap = uniform(&mut self.rng, policy.base_s(), previous * 3.0).min(policy.cap_s());
            waiting.previous_gap = gap;
            return gap;
        }
        let (lo, hi) = self.windows[retry as usize - 1];
        if hi > lo {
            uniform(&mut self.rng, lo, hi)
        } else {
            lo
        }
    }
}

/// Moves `count` of `items`, drawn uniformly at random, in a uniformly random order to the
/// back: a partial Fisher–Yates shuffle, written out so that anyone can reproduce it. For `i`
/// from `len − 1` down to `max(1, len − count)`, swap element `i` with element
/// `floor(u × (i + 1))`, `u` the generator's next uniform number in `[0, 1)` (as every draw: its
/// next 64 bits shifted right by 11, times 2^-53). The chosen are served from index
/// `len − count` on.
fn choose(items: &mut [Waiting], count: usize, rng: &mut SeededRng) {
    let len = items.len();
    for i in (len.saturating_sub(count).max(1)..len).rev() {
        let j = uniform(rng, 0.0, (i + 1) as f64) as usize;
        items.swap(i, j.min(i));
    }
}
