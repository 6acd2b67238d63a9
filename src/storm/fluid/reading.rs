//! Pass 1 of a block, per class: what comes due in it, read from its history; and going back
//! when the block ends early.

use super::kernel::Mass;
use super::state::Fluid;
use super::MAX_BLOCK;

impl Fluid<'_> {
    /// Pass 1: what would come due in each class over the block, from the histories alone.
    pub fn read_block(&mut self, from: usize, span: usize, top: usize) {
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
        let mut histories_read = 0;
        for (k, (class, row)) in classes[1..top].iter_mut().zip(rows).enumerate() {
            let k = k + 1;
            let row = &mut row[..span];
            let ring = class.ring;
            // Only a block longer than `soonest` can end early and be rewound.
            if span > *soonest {
                runs_before[k] = (class.timeout_run, class.rejected_run);
            }
            if histories.quiet(k, ring, from) {
                nothing_due[k] = true;
                (class.timeout_run, class.rejected_run) = (Mass::ZERO, Mass::ZERO);
                continue;
            }
            histories_read += 1;
            if span > *soonest {
                // The block's own seconds are read past its first `soonest`.
                histories.clear(ring, from, span);
            }
            let timed_out = &histories.timed_out;
            // Whether anything came due (see [`Mass::bits`]).
            let mut due_bits = 0;
            if !*answers_429 {
                // What times out is all that comes due: totalled as it is read.
                class.timeout.due_over(
                    ring,
                    timed_out,
                    (from, span),
                    &mut class.timeout_run,
                    |j, due| row[j] = counted(due, &mut came_total[j], &mut due_bits),
                );
                nothing_due[k] = Mass::none_in(due_bits);
                continue;
            }
            class.timeout.due_over(
                ring,
                timed_out,
                (from, span),
                &mut class.timeout_run,
                |j, due| {
                    row[j] = due;
                },
            );
            let kernel = class.rejected;
            let rejected = &histories.rejected;
            let at = ring.position(from);
            kernel.spread.due_over(
                ring,
                rejected,
                (from, span),
                &mut class.rejected_run,
                |j, due| {
                    let at_floor =
                        rejected[ring.start + ring.back(ring.ahead(at, j), kernel.floor)];
                    row[j] = row[j] + due + at_floor * kernel.floor_weight;
                },
            );
            for (due, total) in row.iter_mut().zip(came_total.iter_mut()) {
                *due = counted(*due, total, &mut due_bits);
            }
            nothing_due[k] = Mass::none_in(due_bits);
        }
        *worked += (histories_read * span) as f64;
    }

    /// The block ended early: the running sums go back to where its last second left them.
    pub fn rewind(&mut self, from: usize, end: usize, top: usize) {
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
}

/// What comes due in a second, no less than zero (rounding in running sums can leave -1e-12),
/// added to the second's `total`; its [`Mass::bits`] are ORed into `due_bits`.
#[inline(always)]
fn counted(due: Mass, total: &mut Mass, due_bits: &mut u64) -> Mass {
    let due = due.at_least_zero();
    *total = *total + due;
    *due_bits |= due.bits();
    due
}
