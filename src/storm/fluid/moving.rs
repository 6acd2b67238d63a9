//! Pass 3 of a block: each class's failures move into the next class's history.

use super::held::Release;
use super::kernel::Mass;
use super::state::Fluid;
use super::MAX_BLOCK;

impl Fluid<'_> {
    /// Pass 3: each class's failures move into the next class's history; what a bound held back
    /// stays with its class.
    pub fn move_failures(&mut self, from: usize, end: usize, top: usize) {
        let last = self.classes.len() - 1;
        if last == 0 {
            return;
        }
        let fates = &self.fates[..end];
        // What fails in each second of the block, by timeout and by 429, for one class at a time
        // (the engine's own buffers: zeroing new ones for each block shows in its time).
        let (timed_out, rejected) = &mut self.failing;
        for (j, fate) in fates.iter().enumerate() {
            let firsts = Mass {
                all: fate.firsts,
                processed: 0.0,
            };
            (timed_out[j], rejected[j]) = fate.first.failures(firsts);
        }
        let failed = (&timed_out[..end], &rejected[..end]);
        self.histories.record(1, self.classes[1].ring, from, failed);
        let release = Release::new(fates, self.dust);
        let mut reached_top = false;
        for k in 1..top.min(last) {
            let row = &mut self.came_due[k * MAX_BLOCK..k * MAX_BLOCK + end];
            // Whether only zeros move on (then `row` is not read).
            let mut nothing_sent = self.nothing_due[k];
            if !nothing_sent || self.held[k] != Mass::ZERO {
                self.worked += end as f64;
            }
            if self.bounded {
                nothing_sent = release.send(&mut self.held[k], row, nothing_sent, k + 1 < top);
            }
            let ring = self.classes[k + 1].ring;
            if nothing_sent {
                self.histories.record_nothing(k + 1, ring, from, end);
                continue;
            }
            reached_top |= k + 1 == top && row.iter().any(|taken| taken.all > 0.0);
            if self.answers_429 {
                for (j, (fate, &taken)) in fates.iter().zip(row.iter()).enumerate() {
                    (timed_out[j], rejected[j]) = fate.retry.failures(taken);
                }
            } else {
                // Nothing is answered 429, so nothing is rejected (and `rejected` is not read).
                let failing = timed_out.iter_mut().zip(fates.iter().zip(row.iter()));
                for (failed, (fate, &taken)) in failing {
                    *failed = fate.retry.timed_out(taken);
                }
            }
            let failed = (&timed_out[..end], &rejected[..end]);
            self.histories.record(k + 1, ring, from, failed);
        }
        self.activate(top, reached_top);
    }
}
