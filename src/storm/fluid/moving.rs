//! Pass 3 of a block: each class's failures move into the next class's history.

use super::deciding::Fate;
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
        let firsts = |fate: &Fate| Mass {
            all: fate.firsts,
            processed: 0.0,
        };
        self.histories.record(
            1,
            self.classes[1].ring,
            from,
            fates.iter().map(|fate| fate.first.timed_out(firsts(fate))),
            fates.iter().map(|fate| firsts(fate) * fate.first.rejected),
        );
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
            let sent = || fates.iter().zip(row.iter());
            self.histories.record(
                k + 1,
                ring,
                from,
                sent().map(|(fate, &taken)| fate.retry.timed_out(taken)),
                sent().map(|(fate, &taken)| taken * fate.retry.rejected),
            );
        }
        self.activate(top, reached_top);
    }
}
