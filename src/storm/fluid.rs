//! The expected-value engine: instead of individual deliveries it moves expected numbers of
//! deliveries between attempt classes. A class's failures in one second come due over the
//! following seconds by a fixed kernel (the gap's uniform window, shifted by the timeout), so
//! each class keeps the history of what failed into it and reads what is due from a few lagged
//! seconds of that history. Fast, deterministic, and only for gaps that depend on the attempt
//! number alone (every jitter mode but decorrelated).

use super::{destination, BudgetWindow, Interval, Recorder, Scenario, StormReport, MAX_HORIZON_S};
use crate::Error;

/// The most history cells (attempt classes × seconds of the longest wait) the engine allocates.
const MAX_CELLS: f64 = 50_000_000.0;

/// The most seconds simulated together.
const MAX_BLOCK: usize = 64;

/// How mass failing in one second comes due in later seconds, for a gap drawn uniformly from a
/// window: weights on whole-second offsets back from the second it comes due in. The window's
/// partial first and last seconds are single weights; the whole seconds between carry
/// `density` each (offsets `on..last`). What would come due within the failing second itself
/// comes due in the next, as in the discrete engine.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Kernel {
    first: usize,
    first_weight: f64,
    last: usize,
    last_weight: f64,
    on: usize,
    density: f64,
}

impl Kernel {
    /// Mass spread uniformly over `[a, b)` seconds after the start of the failing second (all
    /// of it at `a` when the window is narrower than a nanosecond).
    fn uniform(a: f64, b: f64) -> Kernel {
        let first = a.max(0.0) as usize;
        let last = b.max(0.0) as usize;
        let soonest = |offset: usize| offset.max(1);
        if b - a < 1e-9 || first == last {
            return Kernel::point(soonest(first));
        }
        let density = 1.0 / (b - a);
        let has_run = last > first + 1;
        Kernel {
            first: soonest(first),
            first_weight: density * ((first + 1) as f64 - a),
            last,
            last_weight: density * (b - last as f64),
            on: if has_run { first + 1 } else { last },
            density: if has_run { density } else { 0.0 },
        }
    }

    fn point(offset: usize) -> Kernel {
        Kernel {
            first: offset,
            first_weight: 1.0,
            last: offset,
            last_weight: 0.0,
            on: offset,
            density: 0.0,
        }
    }

    fn scaled(self, share: f64) -> Kernel {
        Kernel {
            first_weight: self.first_weight * share,
            last_weight: self.last_weight * share,
            density: self.density * share,
            ..self
        }
    }

    /// The largest offset: the history must reach this far back.
    fn reach(&self) -> usize {
        self.first.max(self.last)
    }

    /// Hands `emit` what comes due in each second of `from..from + span` (with the second's
    /// index in the block) from `history`, a class's `ring`; `run` carries the running sum.
    /// Every offset must be at least `span`: then only seconds before `from` are read.
    fn due_over(
        &self,
        ring: Ring,
        history: &[f64],
        (from, span): (usize, usize),
        run: &mut f64,
        mut emit: impl FnMut(usize, f64),
    ) {
        // The block's stretch of the ring `offset` seconds back, when it does not wrap.
        let stretch = |offset: usize| {
            let start = ring.cell(from.wrapping_sub(offset));
            history
                .get(start..start + span)
                .filter(|_| (from.wrapping_sub(offset) & ring.mask) + span <= ring.mask + 1)
        };
        if let (Some(firsts), Some(ons), Some(lasts)) =
            (stretch(self.first), stretch(self.on), stretch(self.last))
        {
            for (j, ((first, on), last)) in firsts.iter().zip(ons).zip(lasts).enumerate() {
                *run += on - last;
                emit(
                    j,
                    self.density * *run + self.first_weight * first + self.last_weight * last,
                );
            }
            return;
        }
        let at = |second: usize, offset: usize| history[ring.cell(second.wrapping_sub(offset))];
        for j in 0..span {
            let second = from + j;
            let at_last = at(second, self.last);
            *run += at(second, self.on) - at_last;
            emit(
                j,
                self.density * *run
                    + self.first_weight * at(second, self.first)
                    + self.last_weight * at_last,
            );
        }
    }

    /// The smallest offset: nothing failing in a second comes due sooner.
    fn soonest(&self) -> usize {
        self.first.min(self.on).min(self.last)
    }
}

/// How a 429's mass comes due: a share at the Retry-After floor, the rest over the window.
#[derive(Debug, Clone, Copy, PartialEq)]
struct RejectedKernel {
    spread: Kernel,
    floor: usize,
    floor_weight: f64,
}

impl RejectedKernel {
    /// A share `at_floor` of the mass at `a`, the rest spread over `[a, b)`.
    fn new(at_floor: f64, a: f64, b: f64) -> Self {
        RejectedKernel {
            spread: Kernel::uniform(a, b).scaled(1.0 - at_floor),
            floor: Kernel::uniform(a, a).first,
            floor_weight: at_floor,
        }
    }

    fn reach(&self) -> usize {
        self.spread.reach().max(self.floor)
    }
}

/// Where one attempt class's history of failures sits in the engine's buffers: a power-of-two
/// ring just long enough for its kernels, at `start`, indexed by the second modulo its length.
#[derive(Debug, Clone, Copy)]
struct Ring {
    start: usize,
    mask: usize,
}

impl Ring {
    fn cell(&self, second: usize) -> usize {
        self.start + (second & self.mask)
    }

    /// Writes `values` into the cells of the seconds from `from` on.
    fn write(&self, history: &mut [f64], from: usize, values: impl ExactSizeIterator<Item = f64>) {
        let span = values.len();
        if (from & self.mask) + span <= self.mask + 1 {
            let start = self.cell(from);
            for (cell, value) in history[start..start + span].iter_mut().zip(values) {
                *cell = value;
            }
        } else {
            for (j, value) in values.enumerate() {
                history[self.cell(from + j)] = value;
            }
        }
    }
}

/// One attempt class (deliveries whose next attempt is this class's): how its predecessor's
/// failures come due in it, and where its history of them is.
#[derive(Debug, Clone, Copy)]
struct Class {
    timeout: Kernel,
    rejected: RejectedKernel,
    ring: Ring,
    /// The running sums over the kernels' runs of equal weights.
    timeout_run: f64,
    rejected_run: f64,
}

/// What failed into every class, second by second: by timeout, and by 429 when the destination
/// answers it; and the last second each class's history received something other than zero.
struct Histories {
    timed_out: Vec<f64>,
    rejected: Vec<f64>,
    written_at: Vec<Option<usize>>,
    skip_quiet: bool,
}

impl Histories {
    fn new(classes: usize, cells: usize, answers_429: bool, skip_quiet: bool) -> Self {
        Histories {
            timed_out: vec![0.0; cells],
            rejected: vec![0.0; if answers_429 { cells } else { 0 }],
            written_at: vec![None; classes],
            skip_quiet,
        }
    }

    /// Whether `class`'s history has held only zeros for a whole lap of its ring by `from`: then
    /// it is neither read nor written with zeros.
    fn quiet(&self, class: usize, ring: Ring, from: usize) -> bool {
        self.skip_quiet && self.written_at[class].is_none_or(|second| from > second + ring.mask + 1)
    }

    /// Clears the cells of the seconds `from..from + span` of `class`'s history, which hold a
    /// lap-old past: read before they are written, they say that nothing failed yet.
    fn clear(&mut self, ring: Ring, from: usize, span: usize) {
        ring.write(&mut self.timed_out, from, std::iter::repeat_n(0.0, span));
        if !self.rejected.is_empty() {
            ring.write(&mut self.rejected, from, std::iter::repeat_n(0.0, span));
        }
    }

    /// Writes what failed into `class` in each second from `from` on: (timed out, answered 429).
    fn record(
        &mut self,
        class: usize,
        ring: Ring,
        from: usize,
        failed: impl ExactSizeIterator<Item = (f64, f64)> + Clone,
    ) {
        if failed.clone().any(|f| f != (0.0, 0.0)) {
            self.written_at[class] = Some(from + failed.len() - 1);
        }
        if self.quiet(class, ring, from) {
            return;
        }
        ring.write(&mut self.timed_out, from, failed.clone().map(|f| f.0));
        if !self.rejected.is_empty() {
            ring.write(&mut self.rejected, from, failed.map(|f| f.1));
        }
    }
}

/// What the destination did to the attempts of one second, as shares: the engine's state
/// between deciding a second's fate and moving its failures.
#[derive(Debug, Clone, Copy, Default)]
struct Fate {
    /// The share of what was due that was attempted (the rest stays held).
    share: f64,
    /// First attempts made.
    firsts: f64,
    /// Shares of first attempts that timed out, and that were answered 429.
    first: (f64, f64),
    /// The same for retries.
    retry: (f64, f64),
}

/// Runs `scenario` on expected values. Refuses decorrelated jitter and scenarios whose
/// histories would exceed 50,000,000 cells, before allocating.
///
/// # Example
/// ```
/// use backoff_lab::storm::{simulate_fluid, Scenario};
/// let report = simulate_fluid(&Scenario::article_fixed(), false)?;
/// assert!(report.summary.peak_multiple > 15.0);
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn simulate_fluid(scenario: &Scenario, keep_seconds: bool) -> Result<StormReport, Error> {
    simulate_with(scenario, keep_seconds, Shortcuts::ALL)
}

/// The engine's shortcuts, which must change nothing but its speed (tests turn them off).
#[derive(Debug, Clone, Copy)]
pub(super) struct Shortcuts {
    /// Blocks longer than the soonest a failure comes due while nothing fails.
    pub long_blocks: bool,
    /// Quiet histories neither read nor written.
    pub quiet_histories: bool,
}

impl Shortcuts {
    const ALL: Shortcuts = Shortcuts {
        long_blocks: true,
        quiet_histories: true,
    };
}

/// Every attempt class with its kernels and its place in the histories, and how many cells the
/// histories take. Refuses decorrelated jitter, and more than 50,000,000 cells, before allocating
/// them.
fn attempt_classes(scenario: &Scenario) -> Result<(Vec<Class>, usize), Error> {
    let classes = scenario.policy.attempts() as usize;
    let after = scenario.bounds.retry_after_s;
    let answers_429 = after.is_some();
    let after = after.unwrap_or(0.0);
    // Class 0, first attempts, has no predecessor.
    let mut class_list = vec![
        Class {
            timeout: Kernel::point(1),
            rejected: RejectedKernel {
                spread: Kernel::point(1),
                floor: 1,
                floor_weight: 0.0,
            },
            ring: Ring { start: 0, mask: 1 },
            timeout_run: 0.0,
            rejected_run: 0.0,
        };
        classes
    ];
    let mut cells = 0usize;
    for (k, class) in class_list.iter_mut().enumerate().skip(1) {
        let (lo, hi) = scenario.window(k as u32).ok_or_else(|| {
            Error::out_of_range(
                "engine",
                "fluid with decorrelated jitter",
                "discrete for decorrelated jitter (the fluid engine needs gaps that depend only on the attempt number)",
            )
        })?;
        class.timeout = Kernel::uniform(scenario.timeout_s + lo, scenario.timeout_s + hi);
        if answers_429 {
            // A 429 answers at once, and its Retry-After is a floor on the gap: the share of
            // the window below it waits exactly Retry-After.
            let below = if hi > lo {
                ((after - lo) / (hi - lo)).clamp(0.0, 1.0)
            } else if lo < after {
                1.0
            } else {
                0.0
            };
            class.rejected = RejectedKernel::new(below, after.max(lo), hi.max(after));
        }
        // Room for the kernels' reach and a whole block ahead of it.
        let reach = class.timeout.reach().max(class.rejected.reach());
        let len = (reach + MAX_BLOCK + 1).next_power_of_two();
        class.ring = Ring {
            start: cells,
            mask: len - 1,
        };
        cells = cells.saturating_add(len);
        if cells as f64 > MAX_CELLS {
            return Err(Error::out_of_range(
                "engine",
                "fluid for this scenario",
                "discrete here: attempts × longest wait exceeds the fluid engine's 50000000 cells",
            ));
        }
    }
    Ok((class_list, cells))
}

/// The soonest, in whole seconds, that anything failing in a second comes due (1 to 64).
fn soonest_due(class_list: &[Class], answers_429: bool) -> usize {
    class_list[1..]
        .iter()
        .map(|class| {
            let rejected = if answers_429 {
                class.rejected.spread.soonest().min(class.rejected.floor)
            } else {
                usize::MAX
            };
            class.timeout.soonest().min(rejected)
        })
        .min()
        .unwrap_or(MAX_BLOCK)
        .clamp(1, MAX_BLOCK)
}

pub(super) fn simulate_with(
    scenario: &Scenario,
    keep_seconds: bool,
    shortcuts: Shortcuts,
) -> Result<StormReport, Error> {
    scenario.validate()?;
    let classes = scenario.policy.attempts() as usize;
    let answers_429 = scenario.bounds.retry_after_s.is_some();
    let (mut class_list, cells) = attempt_classes(scenario)?;
    // Seconds are simulated in blocks: within a block what comes due depends only on what
    // failed before it as long as nothing failed within it more than `soonest` seconds ago (the
    // soonest any failure comes due). So each class reads its history for a whole block at once,
    // then the destination decides each second on totals, and the block ends `soonest` seconds
    // after its first failure. While nothing fails (a healthy destination, a drain) blocks are
    // long; while everything fails they are `soonest` long from the start.
    let soonest = soonest_due(&class_list, answers_429);
    let mut histories = Histories::new(classes, cells, answers_429, shortcuts.quiet_histories);
    // What came due in each class (row) in each second of the block.
    let mut came_due = vec![0.0; classes * MAX_BLOCK];
    let mut came_in_all = [0.0; MAX_BLOCK];
    let mut fates = [Fate::default(); MAX_BLOCK];
    let mut runs_before = vec![(0.0, 0.0); classes];
    let bounds = &scenario.bounds;
    // Only a bound holds deliveries back; without one, whatever is due is attempted.
    let bounded = bounds.pause || bounds.rate_limit_per_s.is_some() || bounds.budget.is_some();
    // Held back by a bound: per retry class, and in total for first attempts, retries and the
    // last class.
    let mut held = vec![0.0; classes];
    let (mut held_firsts, mut held_retries) = (0.0, 0.0);

    let (mut created, mut delivered, mut exhausted, mut pending_calendar) = (0.0, 0.0, 0.0, 0.0);
    let mut queue = 0.0;
    let mut budget = BudgetWindow::new(&scenario.bounds);
    let mut recorder = Recorder::new(scenario, true, keep_seconds);
    let last_arrival = scenario
        .traffic_s
        .max(scenario.batch.map_or(0, |(_, at)| at + 1));
    let last = classes - 1;
    // Classes up to `active` have held something; only they can have something due.
    let mut active = 0usize;
    let mut from = 0usize;
    let mut finished = false;
    let mut failing = true;
    while !finished && from < MAX_HORIZON_S as usize {
        let longest = if shortcuts.long_blocks {
            MAX_BLOCK
        } else {
            soonest
        };
        let span = if failing { soonest } else { longest }.min(MAX_HORIZON_S as usize - from);
        let top = (active + 1).min(classes);

        // 1. What would come due in each class over the block, from the histories alone.
        let came_in_all = &mut came_in_all[..span];
        came_in_all.fill(0.0);
        let rows = came_due.chunks_exact_mut(MAX_BLOCK);
        for (k, (class, row)) in class_list[1..top].iter_mut().zip(rows.skip(1)).enumerate() {
            let row = &mut row[..span];
            let ring = class.ring;
            runs_before[k + 1] = (class.timeout_run, class.rejected_run);
            if histories.quiet(k + 1, ring, from) {
                row.fill(0.0);
                (class.timeout_run, class.rejected_run) = (0.0, 0.0);
                continue;
            }
            if span > soonest {
                // The block's own seconds are read past its first `soonest`.
                histories.clear(ring, from, span);
            }
            // Rounding in the running sums can leave -1e-12 where nothing is due.
            if !answers_429 {
                let emit = |j: usize, due: f64| {
                    let due = due.max(0.0);
                    row[j] = due;
                    came_in_all[j] += due;
                };
                class.timeout.due_over(
                    ring,
                    &histories.timed_out,
                    (from, span),
                    &mut class.timeout_run,
                    emit,
                );
                continue;
            }
            class.timeout.due_over(
                ring,
                &histories.timed_out,
                (from, span),
                &mut class.timeout_run,
                |j, due| row[j] = due,
            );
            let kernel = class.rejected;
            kernel.spread.due_over(
                ring,
                &histories.rejected,
                (from, span),
                &mut class.rejected_run,
                |j, due| {
                    let at_floor =
                        histories.rejected[ring.cell((from + j).wrapping_sub(kernel.floor))];
                    let due = (row[j] + due + kernel.floor_weight * at_floor).max(0.0);
                    row[j] = due;
                    came_in_all[j] += due;
                },
            );
        }

        // 2. Second by second on totals: the bounds, the destination, the fates.
        let mut end = span;
        let mut first_failure = None;
        let mut reached_top = false;
        for j in 0..span {
            let second = (from + j) as u32;
            if second >= last_arrival
                && pending_calendar < 1e-6
                && held_firsts + held_retries < 1e-6
            {
                end = j;
                finished = true;
                break;
            }
            // What comes due from here on may depend on this block's first failure.
            if first_failure.is_some_and(|failed: usize| j >= failed + soonest) {
                end = j;
                break;
            }
            let arriving = scenario.arrivals_in(second);
            created += arriving;
            let came = came_in_all[j];
            pending_calendar -= came;
            let firsts_due = held_firsts + arriving;
            let retries_due = held_retries + came;
            let (firsts, share) = if !bounded {
                (firsts_due, 1.0)
            } else if bounds.pause && scenario.in_outage(second) {
                budget.open(second, 0.0);
                (0.0, 0.0)
            } else {
                let allowed_total = bounds.rate_limit_per_s.unwrap_or(f64::INFINITY);
                let firsts = firsts_due.min(allowed_total);
                let allowed_retries = (allowed_total - firsts).min(budget.open(second, firsts));
                let share = if retries_due > 0.0 {
                    (allowed_retries / retries_due).min(1.0)
                } else {
                    0.0
                };
                (firsts, share)
            };
            let retries = retries_due * share;
            budget.record(retries);
            held_firsts = firsts_due - firsts;
            held_retries = retries_due - retries;

            let n = firsts + retries;
            let outcome = destination(scenario, second, n, &mut queue, false);
            delivered += outcome.ok;
            // Outcomes by position: first attempts first, as in the discrete engine; every
            // retry class then meets the same fortune in proportion to its mass.
            let ok_firsts = outcome.ok.min(firsts);
            let admitted = n - outcome.rejected;
            let admitted_firsts = admitted.min(firsts);
            // Most seconds all succeed or all time out: no division then. Rounding can leave
            // -1e-45 where nothing failed.
            let failing_shares = |ok: f64, admitted_here: f64, mass: f64| {
                if ok >= mass || mass <= 0.0 {
                    (0.0, 0.0)
                } else if ok <= 0.0 && admitted_here >= mass {
                    (1.0, 0.0)
                } else {
                    let per = 1.0 / mass;
                    (
                        (admitted_here - ok).max(0.0) * per,
                        (mass - admitted_here).max(0.0) * per,
                    )
                }
            };
            let fate = Fate {
                share,
                firsts,
                first: failing_shares(ok_firsts, admitted_firsts, firsts),
                retry: failing_shares(outcome.ok - ok_firsts, admitted - admitted_firsts, retries),
            };
            fates[j] = fate;
            let failed =
                |mass: f64, (timed_out, rejected): (f64, f64)| mass * (timed_out + rejected);
            // The last class's failures are exhausted; everything else moves on.
            let (exhausting, moving_retries) = if last == 0 {
                (failed(firsts, fate.first), 0.0)
            } else if top == classes {
                let due = held[last] + came_due[last * MAX_BLOCK + j];
                let taken = due * share;
                held[last] = due - taken;
                (failed(taken, fate.retry), retries - taken)
            } else {
                (0.0, retries)
            };
            exhausted += exhausting;
            if last > 0 {
                let moving = failed(firsts, fate.first) + failed(moving_retries, fate.retry);
                pending_calendar += moving;
                if moving > 0.0 && first_failure.is_none() {
                    first_failure = Some(j);
                }
            }
            reached_top |= top == 1 && firsts > 0.0;
            let held_now = held_firsts + held_retries;
            debug_assert!(
                (created - (delivered + exhausted + pending_calendar + held_now)).abs()
                    <= 1e-6 * created.max(1.0),
                "conservation at second {second}: created {created}, delivered {delivered}, exhausted {exhausted}, calendar {pending_calendar}, held {held_now}"
            );
            recorder.push(Interval {
                index: second,
                attempts: n,
                first_attempts: firsts,
                retries,
                successes: outcome.ok,
                failures: outcome.late + outcome.lost,
                rejected_429: outcome.rejected,
                duplicates: outcome.late,
                backlog: (created - delivered - exhausted).max(0.0),
                queue,
                exhausted,
                deferred: held_now,
            });
        }
        failing = first_failure.is_some();
        if end < span && !finished {
            // The block ended early: the running sums go back to where its last second left them.
            for (k, class) in class_list.iter_mut().enumerate().take(top).skip(1) {
                if histories.quiet(k, class.ring, from) {
                    continue;
                }
                (class.timeout_run, class.rejected_run) = runs_before[k];
                let ring = class.ring;
                class.timeout.due_over(
                    ring,
                    &histories.timed_out,
                    (from, end),
                    &mut class.timeout_run,
                    |_, _| {},
                );
                if answers_429 {
                    class.rejected.spread.due_over(
                        ring,
                        &histories.rejected,
                        (from, end),
                        &mut class.rejected_run,
                        |_, _| {},
                    );
                }
            }
        }

        // 3. Each class's failures move into the next class's history; what a bound held
        // back stays with its class.
        let fates = &fates[..end];
        let retries_failed = fates.iter().any(|fate| fate.retry != (0.0, 0.0));
        if last > 0 {
            let failed = fates
                .iter()
                .map(|fate| (fate.firsts * fate.first.0, fate.firsts * fate.first.1));
            histories.record(1, class_list[1].ring, from, failed);
        }
        // What a block leaves of deliveries held through it, when nothing joins them.
        let kept_share: f64 = fates.iter().map(|fate| 1.0 - fate.share).product();
        for k in 1..top.min(last) {
            let row = &mut came_due[k * MAX_BLOCK..k * MAX_BLOCK + end];
            if bounded {
                if !retries_failed && k + 1 < top && row.iter().all(|&came| came == 0.0) {
                    // Nothing joined the held deliveries and nothing will fail: they shrink by
                    // the same factor each second, and only zeros move on (`row` stays zero).
                    held[k] *= kept_share;
                } else {
                    // What was due is taken by the second's share; the rest is held for the next.
                    let mut kept = held[k];
                    for (fate, came) in fates.iter().zip(row.iter_mut()) {
                        let due = kept + *came;
                        *came = due * fate.share;
                        kept = due - *came;
                    }
                    held[k] = kept;
                }
            }
            reached_top |= k + 1 == top && row.iter().any(|&taken| taken > 0.0);
            let failed = fates
                .iter()
                .zip(row.iter())
                .map(|(fate, taken)| (taken * fate.retry.0, taken * fate.retry.1));
            histories.record(k + 1, class_list[k + 1].ring, from, failed);
        }
        if reached_top {
            active = active.max(top);
        }
        from += end;
    }
    Ok(recorder.finish("fluid", scenario, created))
}
