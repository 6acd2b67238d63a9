//! Pass 2 of a block, second by second on totals: what the sender sends, how the destination
//! answers, and what becomes of each group of attempts.

use super::kernel::Mass;
use super::state::Fluid;
use crate::numbers::larger;
use crate::storm::destination::Outcome;
use crate::storm::report::{Interval, Recorder};

/// What the destination did to one group of attempts (first attempts, or retries) in one
/// second, per unit of the group's mass.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Shares {
    pub ok: f64,
    pub late: f64,
    pub lost: f64,
    pub rejected: f64,
}

impl Shares {
    /// The group at positions `[lo, hi)` of the second's `n` attempts, whose outcome bands are
    /// `outcome`'s in position order: succeeded, late, lost, 429.
    fn of(outcome: &Outcome<f64>, n: f64, (lo, hi): (f64, f64)) -> Shares {
        if hi <= lo {
            return Shares::default();
        }
        // One division for the four bands (a division is slow, and this runs every second);
        // plain comparisons, as nothing here is NaN.
        let per_position = 1.0 / (hi - lo);
        let part = |a: f64, b: f64| {
            let overlap = if hi < b { hi } else { b } - if lo > a { lo } else { a };
            if overlap > 0.0 {
                overlap * per_position
            } else {
                0.0
            }
        };
        let late_end = outcome.ok + outcome.late;
        Shares {
            ok: part(0.0, outcome.ok),
            late: part(outcome.ok, late_end),
            lost: part(late_end, late_end + outcome.lost),
            rejected: part(n - outcome.rejected, n),
        }
    }

    pub fn failed(&self) -> f64 {
        self.late + self.lost + self.rejected
    }

    /// What times out of `taken` (all that fails when the destination never answers 429; the
    /// rest of what fails is `taken × rejected`). A late failure is processed, so its
    /// unprocessed part joins the processed lane.
    pub fn timed_out(&self, taken: Mass) -> Mass {
        Mass {
            all: taken.all * (self.late + self.lost),
            processed: taken.processed * self.lost + taken.all * self.late,
        }
    }
}

/// What the sender and the destination did in one second: the engine's state between deciding
/// a second's fate and moving its failures.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Fate {
    /// The share of the due retries that was sent (the rest stays held).
    pub share: f64,
    /// First attempts sent.
    pub firsts: f64,
    pub first: Shares,
    pub retry: Shares,
}

/// Where a block's decisions stopped.
pub(super) struct Decided {
    pub end: usize,
    pub finished: bool,
    pub first_failure: Option<usize>,
}

/// One second's attempts and how the destination answered them.
struct Served {
    /// First attempts and retries.
    attempts: f64,
    retries: Mass,
    outcome: Outcome<f64>,
    fate: Fate,
}

impl Fluid<'_> {
    /// Pass 2, second by second on totals: the bounds, the destination, the fates; each second's
    /// row goes to `recorder`.
    pub fn decide(
        &mut self,
        from: usize,
        span: usize,
        top: usize,
        recorder: &mut Recorder,
    ) -> Decided {
        let mut first_failure = None;
        let mut reached_top = false;
        for j in 0..span {
            let second = (from + j) as u32;
            if self.drained(second) {
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
            let served = self.serve_second(j, second);
            self.fates[j] = served.fate;
            if self.settle_failures(j, top, &served) && first_failure.is_none() {
                first_failure = Some(j);
            }
            reached_top |= top == 1 && served.fate.firsts > 0.0;
            self.record_second(second, &served, recorder);
        }
        self.activate(top, reached_top);
        Decided {
            end: span,
            finished: false,
            first_failure,
        }
    }

    /// Whether nothing can happen from `second` on: arrivals over, the outage's end recorded,
    /// nothing (to a millionth of a delivery) waiting or held.
    fn drained(&self, second: u32) -> bool {
        let scenario = self.scenario;
        second >= scenario.arrivals_end()
            && second > scenario.outage_end()
            && self.pending_calendar < 1e-6
            && self.held_firsts + self.held_retries.all < 1e-6
    }

    /// Second `j` of the block: what arrives and comes due, what the bounds send of it (the
    /// rest stays held), and how the destination answers.
    fn serve_second(&mut self, j: usize, second: u32) -> Served {
        let scenario = self.scenario;
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
        self.quota.settle(firsts, retries.all, &outcome);
        let failed = outcome.late + outcome.lost + outcome.rejected;
        self.breaker.settle(second, n, outcome.ok, failed);
        Served {
            attempts: n,
            retries,
            outcome,
            fate: Fate {
                share,
                firsts,
                first: Shares::of(&outcome, n, (0.0, firsts)),
                retry: Shares::of(&outcome, n, (firsts, n)),
            },
        }
    }

    /// Counts the failures of second `j` of the block as exhausted or waiting for their retry;
    /// returns whether any moved on to wait.
    fn settle_failures(&mut self, j: usize, top: usize, served: &Served) -> bool {
        let classes = self.classes.len();
        let last = classes - 1;
        let (fate, retries) = (served.fate, served.retries);
        let firsts = fate.firsts;
        // The last class's failures are exhausted; everything else moves on.
        let (exhausting, moving_retries) = if last == 0 {
            (firsts * fate.first.failed(), 0.0)
        } else if top == classes {
            let taken = self.send_last_class(j, fate.share);
            (taken.all * fate.retry.failed(), retries.all - taken.all)
        } else {
            (0.0, retries.all)
        };
        self.exhausted += exhausting;
        if last == 0 {
            return false;
        }
        let moving = firsts * fate.first.failed() + moving_retries * fate.retry.failed();
        self.pending_calendar += moving;
        moving > 0.0
    }

    /// Pushes the second's row to `recorder` (checking, in debug builds, that every delivery
    /// created is delivered, exhausted, waiting for its retry or held).
    fn record_second(&self, second: u32, served: &Served, recorder: &mut Recorder) {
        let Served {
            attempts,
            retries,
            outcome,
            fate,
        } = served;
        let held_now = self.held_firsts + self.held_retries.all;
        debug_assert!(
            (self.created - (self.delivered + self.exhausted + self.pending_calendar + held_now))
                .abs()
                <= 1e-6 * self.created.max(1.0),
            "conservation at second {second}"
        );
        recorder.push(Interval {
            index: second,
            attempts: *attempts,
            first_attempts: fate.firsts,
            retries: retries.all,
            successes: outcome.ok,
            failures: outcome.late + outcome.lost,
            rejected_429: outcome.rejected,
            duplicates: retries.processed * (fate.retry.ok + fate.retry.late),
            backlog: larger(self.created - self.delivered - self.exhausted, 0.0),
            queue: self.queue.requests(),
            exhausted: self.exhausted,
            deferred: held_now,
        });
    }
}
