//! The expected-value engine: instead of individual deliveries it moves expected numbers of
//! deliveries between attempt classes (class k: deliveries that have made k attempts), under
//! the same rules as the discrete engine (see the [module](super) documentation), in
//! expectation:
//! - a random order of the second's retries becomes proportional shares: every retry class
//!   meets the same fortune (held, served in time, late, lost, 429) in proportion to its mass;
//! - a delivery's processed state is a second lane of every mass ([`kernel::Mass`]), so a
//!   duplicate is a processing of the processed lane, exactly as in the discrete engine;
//! - the destination's whole-position rule is evaluated on expected numbers.
//!
//! A class's failures in one second come due over the following seconds by a fixed kernel (the
//! gap's uniform window, shifted by the timeout), so each class keeps the history of what failed
//! into it and reads what is due from a few lagged seconds of that history. Fast, deterministic,
//! and only for gaps that depend on the attempt number alone (every jitter mode but
//! decorrelated).
//!
//! Under a bound (rate limit, budget, pause) each class also keeps what the bound holds back,
//! sending the second's share of it. A class's held mass below [`kernel::DUST`] (1e-30 of a
//! delivery) is dropped at the end of each second ([`kernel::Mass::without_dust`]): it changes
//! no reported number, and lets a class that has sent what it held fall quiet as it does
//! without a bound. A class where nothing came due and nothing is held costs next to nothing
//! in a block: its row of what came due is neither filled, read nor moved on.

mod history;
mod kernel;

use history::Histories;
use kernel::{Kernel, Mass, RejectedKernel, Ring};

use super::budget::ExpectedBudget;
use super::destination::{Outcome, Queue};
use super::report::{Interval, Recorder, StormReport};
use super::scenario::{micro, Units, MAX_HORIZON_S};
use super::Scenario;
use crate::Error;

/// The most history cells (attempt classes × seconds of the longest wait) the engine allocates:
/// 16 bytes each, 192 MB (twice that with `Retry-After`).
pub const MAX_CELLS: usize = 12_000_000;

/// The most class-seconds (attempt classes × simulated seconds) the engine takes on: about ten
/// seconds in a browser's worker at worst.
pub const MAX_CLASS_SECONDS: f64 = 5e8;

/// The fewest requests the destination must answer within its limits in a second (capacity ×
/// the shorter of the timeout less the latency and the `Retry-After` threshold). Below it the
/// outcome turns on whole requests and on how a second's attempts happen to bunch, which
/// expected values do not see: the discrete engine answers instead (and is fast at such rates).
pub const MIN_REQUESTS_WITHIN_LIMITS: f64 = 20.0;

/// The most seconds simulated together.
const MAX_BLOCK: usize = 64;

/// Runs `scenario` on expected values. Refuses decorrelated jitter, and scenarios whose
/// histories would exceed [`MAX_CELLS`] or whose work would exceed [`MAX_CLASS_SECONDS`],
/// before allocating.
///
/// # Example
/// ```
/// use backoff_lab::storm::{simulate_fluid, Scenario};
/// let report = simulate_fluid(&Scenario::article_fixed(), false)?;
/// assert!(report.summary.peak_multiple.unwrap() > 15.0);
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn simulate_fluid(scenario: &Scenario, keep_seconds: bool) -> Result<StormReport, Error> {
    simulate_with(scenario, keep_seconds, Shortcuts::ALL)
}

/// The engine's shortcuts, which must change nothing but its speed (tests turn them off).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Shortcuts {
    /// Blocks longer than the soonest a failure comes due while nothing fails.
    pub long_blocks: bool,
    /// Quiet histories neither read nor written.
    pub quiet_histories: bool,
    /// What a bound holds in a class dropped below [`kernel::DUST`].
    pub drop_dust: bool,
}

impl Shortcuts {
    const ALL: Shortcuts = Shortcuts {
        long_blocks: true,
        quiet_histories: true,
        drop_dust: true,
    };
}

pub(crate) fn simulate_with(
    scenario: &Scenario,
    keep_seconds: bool,
    shortcuts: Shortcuts,
) -> Result<StormReport, Error> {
    run(scenario, keep_seconds, shortcuts).map(|(report, _)| report)
}

/// The class-seconds the engine worked through on `scenario` (see [`Fluid::worked`]): what its
/// time goes into, counted the same on every machine (tests bound it instead of timing it).
#[cfg(test)]
pub(crate) fn class_seconds_worked(scenario: &Scenario) -> Result<f64, Error> {
    run(scenario, false, Shortcuts::ALL).map(|(_, worked)| worked)
}

fn run(
    scenario: &Scenario,
    keep_seconds: bool,
    shortcuts: Shortcuts,
) -> Result<(StormReport, f64), Error> {
    let units = *scenario.units();
    let mut engine = Fluid::new(scenario, units, shortcuts)?;
    let mut recorder = Recorder::new(scenario, keep_seconds);
    // Seconds are simulated in blocks: within a block what comes due depends only on what
    // failed before it as long as nothing failed within it more than `soonest` seconds ago (the
    // soonest any failure comes due). So each class reads its history for a whole block at once,
    // then the destination decides each second on totals, and the block ends `soonest` seconds
    // after its first failure. While nothing fails (a healthy destination, a drain) blocks are
    // long; while everything fails they are `soonest` long from the start.
    let (mut from, mut failing, mut finished) = (0usize, true, false);
    while !finished && from < MAX_HORIZON_S as usize {
        let longest = if shortcuts.long_blocks {
            MAX_BLOCK
        } else {
            engine.soonest
        };
        let span =
            if failing { engine.soonest } else { longest }.min(MAX_HORIZON_S as usize - from);
        let top = (engine.active + 1).min(engine.classes.len());
        engine.read_block(from, span, top);
        let decided = engine.decide(from, span, top, &mut recorder);
        failing = decided.first_failure.is_some();
        finished = decided.finished;
        if decided.end < span && !finished {
            engine.rewind(from, decided.end, top);
        }
        engine.move_failures(from, decided.end, top);
        from += decided.end;
    }
    let report = recorder.finish("fluid", scenario, engine.created);
    Ok((report, engine.worked))
}

/// One attempt class (deliveries whose next attempt is this class's): how its predecessor's
/// failures come due in it, and where its history of them is.
#[derive(Debug, Clone, Copy)]
struct Class {
    timeout: Kernel,
    rejected: RejectedKernel,
    ring: Ring,
    /// The running sums over the kernels' runs of equal weights.
    timeout_run: Mass,
    rejected_run: Mass,
}

/// What the destination did to one group of attempts (first attempts, or retries) in one
/// second, per unit of the group's mass.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Shares {
    ok: f64,
    late: f64,
    lost: f64,
    rejected: f64,
}

impl Shares {
    /// The group at positions `[lo, hi)` of the second's `n` attempts, whose outcome bands are
    /// `outcome`'s in position order: succeeded, late, lost, 429.
    fn of(outcome: &Outcome<f64>, n: f64, (lo, hi): (f64, f64)) -> Shares {
        if hi <= lo {
            return Shares::default();
        }
        let part = |a: f64, b: f64| (hi.min(b) - lo.max(a)).max(0.0) / (hi - lo);
        let late_end = outcome.ok + outcome.late;
        Shares {
            ok: part(0.0, outcome.ok),
            late: part(outcome.ok, late_end),
            lost: part(late_end, late_end + outcome.lost),
            rejected: part(n - outcome.rejected, n),
        }
    }

    fn failed(&self) -> f64 {
        self.late + self.lost + self.rejected
    }

    /// What fails of `taken` and moves on: (timed out, answered 429). A late failure is
    /// processed, so its unprocessed part joins the processed lane.
    fn failures(&self, taken: Mass) -> (Mass, Mass) {
        let timed_out = Mass {
            all: taken.all * (self.late + self.lost),
            processed: taken.processed * self.lost + taken.all * self.late,
        };
        (timed_out, taken * self.rejected)
    }
}

/// What the sender and the destination did in one second: the engine's state between deciding
/// a second's fate and moving its failures.
#[derive(Debug, Clone, Copy, Default)]
struct Fate {
    /// The share of the due retries that was sent (the rest stays held).
    share: f64,
    /// First attempts sent.
    firsts: f64,
    first: Shares,
    retry: Shares,
}

/// Where a block's decisions stopped.
struct Decided {
    end: usize,
    finished: bool,
    first_failure: Option<usize>,
}

/// The engine's state between blocks.
struct Fluid<'a> {
    scenario: &'a Scenario,
    units: Units,
    classes: Vec<Class>,
    /// The soonest, in whole seconds, that anything failing in a second comes due (1 to 64).
    soonest: usize,
    answers_429: bool,
    /// Only a bound holds deliveries back; without one, whatever is due is sent.
    bounded: bool,
    histories: Histories,
    /// What came due in each class (row of `MAX_BLOCK`) in each second of the block; after
    /// the decisions, what was sent of it.
    came_due: Vec<Mass>,
    /// Per class, whether nothing came due in it over the block: then its row of `came_due` is
    /// not read (it may hold an earlier block's values).
    nothing_due: Vec<bool>,
    came_total: [Mass; MAX_BLOCK],
    fates: [Fate; MAX_BLOCK],
    runs_before: Vec<(Mass, Mass)>,
    /// Held back by a bound: per retry class, and in total.
    held: Vec<Mass>,
    held_firsts: f64,
    held_retries: Mass,
    created: f64,
    delivered: f64,
    exhausted: f64,
    /// Failed and waiting for their retry to come due.
    pending_calendar: f64,
    queue: Queue,
    budget: ExpectedBudget,
    /// Classes up to `active` have held something; only they can have something due.
    active: usize,
    /// Class-seconds worked through: the seconds of each history read, plus those of each
    /// class that had something due or held (a quiet class, or one with nothing due and
    /// nothing held, counts nothing).
    worked: f64,
    /// Held mass below this is dropped ([`kernel::Mass::without_dust`]).
    dust: f64,
}

impl<'a> Fluid<'a> {
    fn new(scenario: &'a Scenario, units: Units, shortcuts: Shortcuts) -> Result<Self, Error> {
        let (classes, cells) = attempt_classes(scenario, &units).map_err(Error::from)?;
        let answers_429 = units.retry_after_us.is_some();
        let soonest = classes[1..]
            .iter()
            .map(|class| {
                let rejected = if answers_429 {
                    class.rejected.soonest()
                } else {
                    usize::MAX
                };
                class.timeout.soonest().min(rejected)
            })
            .min()
            .unwrap_or(MAX_BLOCK)
            .clamp(1, MAX_BLOCK);
        let bounds = &scenario.bounds;
        let count = classes.len();
        Ok(Fluid {
            scenario,
            units,
            soonest,
            answers_429,
            bounded: bounds.pause || bounds.rate_limit_per_s.is_some() || bounds.budget.is_some(),
            histories: Histories::new(count, cells, answers_429, shortcuts.quiet_histories),
            came_due: vec![Mass::ZERO; count * MAX_BLOCK],
            nothing_due: vec![true; count],
            came_total: [Mass::ZERO; MAX_BLOCK],
            fates: [Fate::default(); MAX_BLOCK],
            runs_before: vec![(Mass::ZERO, Mass::ZERO); count],
            held: vec![Mass::ZERO; count],
            held_firsts: 0.0,
            held_retries: Mass::ZERO,
            created: 0.0,
            delivered: 0.0,
            exhausted: 0.0,
            pending_calendar: 0.0,
            queue: Queue::default(),
            budget: ExpectedBudget::new(&units),
            active: 0,
            worked: 0.0,
            dust: if shortcuts.drop_dust {
                kernel::DUST
            } else {
                0.0
            },
            classes,
        })
    }

    /// Pass 1: what would come due in each class over the block, from the histories alone.
    fn read_block(&mut self, from: usize, span: usize, top: usize) {
        let Fluid {
            classes,
            histories,
            came_due,
            nothing_due,
            came_total,
            runs_before,
            soonest,
            answers_429,
            worked,
            ..
        } = self;
        let came_total = &mut came_total[..span];
        came_total.fill(Mass::ZERO);
        let rows = came_due.chunks_exact_mut(MAX_BLOCK).skip(1);
        for (k, (class, row)) in classes[1..top].iter_mut().zip(rows).enumerate() {
            let k = k + 1;
            let row = &mut row[..span];
            let ring = class.ring;
            runs_before[k] = (class.timeout_run, class.rejected_run);
            if histories.quiet(k, ring, from) {
                nothing_due[k] = true;
                (class.timeout_run, class.rejected_run) = (Mass::ZERO, Mass::ZERO);
                continue;
            }
            *worked += span as f64;
            if span > *soonest {
                // The block's own seconds are read past its first `soonest`.
                histories.clear(ring, from, span);
            }
            let timed_out = &histories.timed_out;
            class.timeout.due_over(
                ring,
                timed_out,
                (from, span),
                &mut class.timeout_run,
                |j, due| {
                    row[j] = due;
                },
            );
            if *answers_429 {
                let kernel = class.rejected;
                let rejected = &histories.rejected;
                kernel.spread.due_over(
                    ring,
                    rejected,
                    (from, span),
                    &mut class.rejected_run,
                    |j, due| {
                        let at_floor = rejected[ring.cell((from + j).wrapping_sub(kernel.floor))];
                        row[j] = row[j] + due + at_floor * kernel.floor_weight;
                    },
                );
            }
            let mut any = false;
            for (due, total) in row.iter_mut().zip(came_total.iter_mut()) {
                *due = due.at_least_zero();
                *total = *total + *due;
                any |= *due != Mass::ZERO;
            }
            nothing_due[k] = !any;
        }
    }

    /// Pass 2, second by second on totals: the bounds, the destination, the fates; each second's row
    /// goes to `recorder`.
    fn decide(&mut self, from: usize, span: usize, top: usize, recorder: &mut Recorder) -> Decided {
        let scenario = self.scenario;
        let classes = self.classes.len();
        let last = classes - 1;
        let mut first_failure = None;
        let mut reached_top = false;
        for j in 0..span {
            let second = (from + j) as u32;
            if second >= scenario.arrivals_end()
                && second > scenario.outage_end()
                && self.pending_calendar < 1e-6
                && self.held_firsts + self.held_retries.all < 1e-6
            {
                return Decided {
                    end: j,
                    finished: true,
                    first_failure,
                };
            }
            // What comes due from here on may depend on this block's first failure.
            if first_failure.is_some_and(|failed: usize| j >= failed + self.soonest) {
                self.activate(top, reached_top);
                return Decided {
                    end: j,
                    finished: false,
                    first_failure,
                };
            }
            let arriving = self.units.arrivals_in(scenario, second) as f64;
            self.created += arriving;
            let came = self.came_total[j];
            self.pending_calendar -= came.all;
            let firsts_due = self.held_firsts + arriving;
            let retries_due = self.held_retries + came;
            let down = scenario.in_outage(second);
            let (firsts, share) = self.send(second, down, firsts_due, retries_due.all);
            let retries = retries_due * share;
            self.held_firsts = firsts_due - firsts;
            self.held_retries = retries_due - retries;

            let n = firsts + retries.all;
            let outcome = self.queue.serve(&self.units, down, scenario.abandon, n);
            self.delivered += outcome.ok;
            let fate = Fate {
                share,
                firsts,
                first: Shares::of(&outcome, n, (0.0, firsts)),
                retry: Shares::of(&outcome, n, (firsts, n)),
            };
            self.fates[j] = fate;
            // The last class's failures are exhausted; everything else moves on.
            let (exhausting, moving_retries) = if last == 0 {
                (firsts * fate.first.failed(), 0.0)
            } else if top == classes {
                let came = if self.nothing_due[last] {
                    Mass::ZERO
                } else {
                    self.came_due[last * MAX_BLOCK + j]
                };
                let due = self.held[last] + came;
                let taken = due * share;
                self.held[last] = (due - taken).without_dust(self.dust);
                (taken.all * fate.retry.failed(), retries.all - taken.all)
            } else {
                (0.0, retries.all)
            };
            self.exhausted += exhausting;
            if last > 0 {
                let moving = firsts * fate.first.failed() + moving_retries * fate.retry.failed();
                self.pending_calendar += moving;
                if moving > 0.0 && first_failure.is_none() {
                    first_failure = Some(j);
                }
            }
            reached_top |= top == 1 && firsts > 0.0;
            let held_now = self.held_firsts + self.held_retries.all;
            debug_assert!(
                (self.created
                    - (self.delivered + self.exhausted + self.pending_calendar + held_now))
                    .abs()
                    <= 1e-6 * self.created.max(1.0),
                "conservation at second {second}"
            );
            recorder.push(Interval {
                index: second,
                attempts: n,
                first_attempts: firsts,
                retries: retries.all,
                successes: outcome.ok,
                failures: outcome.late + outcome.lost,
                rejected_429: outcome.rejected,
                duplicates: retries.processed * (fate.retry.ok + fate.retry.late),
                backlog: (self.created - self.delivered - self.exhausted).max(0.0),
                queue: self.queue.requests(),
                exhausted: self.exhausted,
                deferred: held_now,
            });
        }
        self.activate(top, reached_top);
        Decided {
            end: span,
            finished: false,
            first_failure,
        }
    }

    fn activate(&mut self, top: usize, reached_top: bool) {
        if reached_top {
            self.active = self.active.max(top);
        }
    }

    /// The sender's bounds in `second`: the first attempts sent, and the share of the due
    /// retries sent.
    fn send(&mut self, second: u32, down: bool, firsts_due: f64, retries_due: f64) -> (f64, f64) {
        let scenario = self.scenario;
        if !self.bounded {
            return (firsts_due, 1.0);
        }
        if scenario.bounds.pause && down {
            self.budget.open(second, 0.0);
            return (0.0, 0.0);
        }
        // Whole attempts, as in the discrete engine: the allowance is not random.
        let allowed = match self.units.allowance(second, scenario.outage_end()) {
            u64::MAX => f64::INFINITY,
            allowed => allowed as f64,
        };
        let firsts = firsts_due.min(allowed);
        let room = (allowed - firsts).min(self.budget.open(second, firsts));
        let share = if retries_due > 0.0 {
            (room / retries_due).min(1.0)
        } else {
            0.0
        };
        self.budget.record(retries_due * share);
        (firsts, share)
    }

    /// The block ended early: the running sums go back to where its last second left them.
    fn rewind(&mut self, from: usize, end: usize, top: usize) {
        let Fluid {
            classes,
            histories,
            runs_before,
            answers_429,
            ..
        } = self;
        for (k, class) in classes.iter_mut().enumerate().take(top).skip(1) {
            if histories.quiet(k, class.ring, from) {
                continue;
            }
            (class.timeout_run, class.rejected_run) = runs_before[k];
            let ring = class.ring;
            let ignore = |_, _| {};
            class.timeout.due_over(
                ring,
                &histories.timed_out,
                (from, end),
                &mut class.timeout_run,
                ignore,
            );
            if *answers_429 {
                class.rejected.spread.due_over(
                    ring,
                    &histories.rejected,
                    (from, end),
                    &mut class.rejected_run,
                    ignore,
                );
            }
        }
    }

    /// Pass 3: each class's failures move into the next class's history; what a bound held back
    /// stays with its class.
    fn move_failures(&mut self, from: usize, end: usize, top: usize) {
        let last = self.classes.len() - 1;
        if last == 0 {
            return;
        }
        let fates = &self.fates[..end];
        let retries_failed = fates.iter().any(|fate| fate.retry.failed() > 0.0);
        // What fails in each second of the block, by timeout and by 429, for one class at a time.
        let (mut timed_out, mut rejected) = ([Mass::ZERO; MAX_BLOCK], [Mass::ZERO; MAX_BLOCK]);
        for (j, fate) in fates.iter().enumerate() {
            let firsts = Mass {
                all: fate.firsts,
                processed: 0.0,
            };
            (timed_out[j], rejected[j]) = fate.first.failures(firsts);
        }
        let failed = (&timed_out[..end], &rejected[..end]);
        self.histories.record(1, self.classes[1].ring, from, failed);
        // What a block leaves of deliveries held through it, when nothing joins them.
        let kept_share: f64 = fates.iter().map(|fate| 1.0 - fate.share).product();
        let mut reached_top = false;
        for k in 1..top.min(last) {
            let row = &mut self.came_due[k * MAX_BLOCK..k * MAX_BLOCK + end];
            // Whether only zeros move on (then `row` is not read).
            let mut nothing_sent = self.nothing_due[k];
            if !nothing_sent || self.held[k] != Mass::ZERO {
                self.worked += end as f64;
            }
            if self.bounded {
                let held = &mut self.held[k];
                if nothing_sent && *held == Mass::ZERO {
                    // Nothing came due and nothing is held: nothing is sent.
                } else if !retries_failed
                    && k + 1 < top
                    && (nothing_sent || row.iter().all(|came| came.all == 0.0))
                {
                    // Nothing joined the held deliveries and nothing will fail: they shrink by
                    // the same factor each second, and only zeros move on.
                    *held = (*held * kept_share).without_dust(self.dust);
                    nothing_sent = true;
                } else {
                    // What was due is sent by the second's share; the rest is held for the next.
                    if nothing_sent {
                        row.fill(Mass::ZERO);
                    }
                    let (mut kept, mut sent) = (*held, false);
                    for (fate, came) in fates.iter().zip(row.iter_mut()) {
                        let due = kept + *came;
                        *came = due * fate.share;
                        kept = (due - *came).without_dust(self.dust);
                        sent |= *came != Mass::ZERO;
                    }
                    *held = kept;
                    nothing_sent = !sent;
                }
            }
            let ring = self.classes[k + 1].ring;
            if nothing_sent {
                self.histories.record_nothing(k + 1, ring, from, end);
                continue;
            }
            reached_top |= k + 1 == top && row.iter().any(|taken| taken.all > 0.0);
            for (j, (fate, &taken)) in fates.iter().zip(row.iter()).enumerate() {
                (timed_out[j], rejected[j]) = fate.retry.failures(taken);
            }
            let failed = (&timed_out[..end], &rejected[..end]);
            self.histories.record(k + 1, ring, from, failed);
        }
        self.activate(top, reached_top);
    }
}

/// Why the fluid engine does not take a scenario: what it was given, and why it cannot.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Unrepresentable {
    pub given: String,
    pub reason: &'static str,
}

impl From<Unrepresentable> for Error {
    fn from(why: Unrepresentable) -> Error {
        Error::out_of_range(
            "engine",
            format!("fluid {}", why.given),
            format!("discrete here: {}", why.reason),
        )
    }
}

/// Why the fluid engine would refuse a valid `scenario`, if it would.
pub(crate) fn unrepresentable(scenario: &Scenario, units: &Units) -> Option<Unrepresentable> {
    attempt_classes(scenario, units).err()
}

/// Every attempt class with its kernels and its place in the histories, and how many cells the
/// histories take. Refuses decorrelated jitter, more than [`MAX_CELLS`] cells and more than
/// [`MAX_CLASS_SECONDS`] of work, before allocating.
fn attempt_classes(
    scenario: &Scenario,
    units: &Units,
) -> Result<(Vec<Class>, usize), Unrepresentable> {
    let within_us = (units.timeout_us - units.latency_us).min(match units.retry_after_us {
        Some(_) => units.threshold_us,
        None => u64::MAX,
    });
    let within = within_us as f64 / 1e6 * scenario.capacity_per_s;
    if within < MIN_REQUESTS_WITHIN_LIMITS {
        return Err(Unrepresentable {
            given: format!("for a destination that answers {within:.1} requests within its limits in a second"),
            reason: "the fluid engine needs capacity × (timeout − latency, or the Retry-After threshold if shorter) of at least 20 requests; below that whole requests decide the outcome",
        });
    }
    let count = scenario.policy.attempts() as usize;
    let work = f64::from(scenario.horizon_s()) * count as f64;
    if work > MAX_CLASS_SECONDS {
        return Err(Unrepresentable {
            given: format!(
                "for {work:.3e} class-seconds ({count} attempts × {} simulated)",
                crate::format_duration(f64::from(scenario.horizon_s()))
            ),
            reason:
                "the fluid engine takes at most 500000000 class-seconds (attempts × seconds simulated)",
        });
    }
    let answers_429 = units.retry_after_us.is_some();
    // Class 0, first attempts, has no predecessor.
    let mut classes = vec![
        Class {
            timeout: Kernel::point(1),
            rejected: RejectedKernel::point(1),
            ring: Ring { start: 0, mask: 1 },
            timeout_run: Mass::ZERO,
            rejected_run: Mass::ZERO,
        };
        count
    ];
    let timeout = units.timeout_us as f64 / 1e6;
    let mut cells = 0usize;
    for (k, class) in classes.iter_mut().enumerate().skip(1) {
        let (lo, hi) = scenario.window(k as u32).ok_or_else(|| Unrepresentable {
            given: "with decorrelated jitter".into(),
            reason: "the fluid engine needs gaps that depend only on the attempt number, and decorrelated jitter draws each from the one before",
        })?;
        // A window narrower than a microsecond is a point: exactly the discrete engine's due
        // second, from the same whole microseconds.
        let point = micro(hi) <= micro(lo);
        class.timeout = if point {
            Kernel::point(units.due_after(micro(lo), false) as usize)
        } else {
            Kernel::uniform(timeout + lo, timeout + hi)
        };
        if let Some(after_us) = units.retry_after_us {
            class.rejected = rejected_kernel(units, (lo, hi), after_us, point);
        }
        // Room for the kernels' reach and a whole block ahead of it.
        let reach = class.timeout.reach().max(if answers_429 {
            class.rejected.reach()
        } else {
            0
        });
        let len = (reach + MAX_BLOCK + 1).next_power_of_two();
        class.ring = Ring {
            start: cells,
            mask: len - 1,
        };
        cells = cells.saturating_add(len);
        if cells > MAX_CELLS {
            return Err(Unrepresentable {
                given: format!("for {count} attempts with waits up to {}", crate::format_duration(reach as f64)),
                reason: "the fluid engine keeps at most 12000000 history cells (attempts × longest wait in seconds)",
            });
        }
    }
    Ok((classes, cells))
}

/// A 429 answers at once and its Retry-After is a floor on the gap: the share of the window
/// below it waits exactly Retry-After, the rest its drawn gap.
fn rejected_kernel(
    units: &Units,
    (lo, hi): (f64, f64),
    after_us: u64,
    point: bool,
) -> RejectedKernel {
    let after = after_us as f64 / 1e6;
    if point || hi <= after {
        return RejectedKernel::point(units.due_after(micro(lo), true) as usize);
    }
    let below = ((after - lo) / (hi - lo)).clamp(0.0, 1.0);
    RejectedKernel {
        spread: Kernel::uniform(after.max(lo), hi).scaled(1.0 - below),
        floor: units.due_after(after_us, true) as usize,
        floor_weight: below,
    }
}
