//! What the bounds (rate limit, budget, pause, retry quota, circuit breaker) hold back: how much of
//! what is due they send each second, and what each class keeps for the next.

use super::deciding::Fate;
use super::kernel::Mass;
use super::state::Fluid;
use super::MAX_BLOCK;
use crate::storm::acted::{allows, Sending};

impl Fluid<'_> {
    /// The sender's bounds in `second`: the first attempts sent, and the share of the due
    /// retries sent.
    pub fn send(
        &mut self,
        second: u32,
        down: bool,
        firsts_due: f64,
        retries_due: f64,
    ) -> (f64, f64) {
        let scenario = self.scenario;
        if !self.bounded {
            return (firsts_due, 1.0);
        }
        if scenario.bounds.pause && down {
            self.budget.open(second, 0.0);
            self.acted.paused(firsts_due + retries_due);
            return (0.0, 0.0);
        }
        // Whole attempts, as in the discrete engine: the allowance is not random.
        let allowance = self
            .units
            .allowance(second, scenario.outage_end())
            .min(self.breaker.allowance(second));
        let allowed = allows(allowance);
        let firsts = firsts_due.min(allowed);
        let (budget, quota) = (self.budget.open(second, firsts), self.quota.room());
        let room = (allowed - firsts).min(budget).min(quota);
        let share = if retries_due > 0.0 {
            (room / retries_due).min(1.0)
        } else {
            0.0
        };
        self.budget.record(retries_due * share);
        self.acted.sent(&Sending {
            firsts_due,
            retries_due,
            firsts,
            retries: retries_due * share,
            rate_limit: allows(self.units.rate_limit_allowance(second)),
            pace: allows(self.units.pace_allowance(second, scenario.outage_end())),
            budget,
            quota,
        });
        (firsts, share)
    }

    /// The last class's retries sent in second `j` of the block: the second's `share` of what
    /// it held and what came due in it. It keeps the rest.
    pub fn send_last_class(&mut self, j: usize, share: f64) -> Mass {
        let last = self.classes.len() - 1;
        let came = if self.nothing_due[last] {
            Mass::ZERO
        } else {
            self.came_due[last * MAX_BLOCK + j]
        };
        let due = self.held[last] + came;
        let taken = due * share;
        self.held[last] = (due - taken).without_dust(self.dust);
        taken
    }
}

/// How a bound sends what a class held and what came due in it over a block, by each second's
/// share.
pub(super) struct Release<'f> {
    fates: &'f [Fate],
    /// Whether any retry failed in the block.
    retries_failed: bool,
    /// What a block leaves of deliveries held through it, when nothing joins them.
    kept_share: f64,
    dust: f64,
}

impl<'f> Release<'f> {
    /// The release by the block's `fates`, dropping held mass below `dust`.
    pub fn new(fates: &'f [Fate], dust: f64) -> Self {
        Release {
            fates,
            retries_failed: fates.iter().any(|fate| fate.retry.failed() > 0.0),
            kept_share: fates.iter().map(|fate| 1.0 - fate.share).product(),
            dust,
        }
    }

    /// Sends what a class `held` with what came due in it (`row`, not read when `nothing_due`):
    /// `row` becomes what was sent in each second, `held` what is left. `next_below_top`: whether
    /// the class's successor is below the block's top class. Returns whether nothing was sent
    /// (then only zeros move on, and `row` is not to be read).
    pub fn send(
        &self,
        held: &mut Mass,
        row: &mut [Mass],
        nothing_due: bool,
        next_below_top: bool,
    ) -> bool {
        if nothing_due && *held == Mass::ZERO {
            // Nothing came due and nothing is held: nothing is sent.
            true
        } else if !self.retries_failed
            && next_below_top
            && (nothing_due || row.iter().all(|came| came.all == 0.0))
        {
            // Nothing joined the held deliveries and nothing will fail: they shrink by
            // the same factor each second, and only zeros move on.
            *held = (*held * self.kept_share).without_dust(self.dust);
            true
        } else {
            // What was due is sent by the second's share; the rest is held for the next.
            if nothing_due {
                row.fill(Mass::ZERO);
            }
            let (mut kept, mut sent) = (*held, false);
            for (fate, came) in self.fates.iter().zip(row.iter_mut()) {
                let due = kept + *came;
                *came = due * fate.share;
                kept = (due - *came).without_dust(self.dust);
                sent |= *came != Mass::ZERO;
            }
            *held = kept;
            !sent
        }
    }
}
