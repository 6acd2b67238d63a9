//! A fluid storm in progress, between blocks: it can go on to a given second, stop before the
//! block that would reach a given second, or branch off a copy that goes on as another
//! scenario (the survival map's cells share the storm before their outages end this way).

use super::history::Histories;
use super::state::Fluid;
use super::{Shortcuts, MAX_BLOCK};
use crate::storm::report::{Recorder, StormReport};
use crate::storm::scenario::MAX_HORIZON_S;
use crate::storm::Scenario;
use crate::Error;

/// A finished storm's buffers, for a branch to reuse ([`FluidStorm::branch`]); `Spare::default()`
/// has none.
#[derive(Default)]
pub(crate) struct Spare(Histories);

/// A fluid storm stopped between two blocks.
#[derive(Clone)]
pub(crate) struct FluidStorm<'a> {
    engine: Fluid<'a>,
    recorder: Recorder,
    /// The first second not simulated yet (the next block's first).
    from: usize,
    /// Whether the last block had a failure: then the next is `soonest` seconds long.
    failing: bool,
    finished: bool,
    long_blocks: bool,
}

impl<'a> FluidStorm<'a> {
    /// `scenario` before its first second; refused as [`super::simulate_fluid`] refuses it.
    pub fn start(
        scenario: &'a Scenario,
        keep_seconds: bool,
        shortcuts: Shortcuts,
    ) -> Result<Self, Error> {
        Ok(FluidStorm {
            engine: Fluid::new(scenario, *scenario.units(), shortcuts)?,
            recorder: Recorder::new(scenario, keep_seconds),
            from: 0,
            failing: true,
            finished: false,
            long_blocks: shortcuts.long_blocks,
        })
    }

    /// Simulates blocks until the storm is over or second `until_s − 1` is simulated.
    pub fn run_until(&mut self, until_s: u32) {
        let until = until_s.min(MAX_HORIZON_S) as usize;
        while !self.finished && self.from < until {
            self.block(until);
        }
    }

    /// Simulates the blocks (of a run to `until_s`) that end before `second`, stopping at the
    /// start of the first block that would simulate `second`, or sooner when the storm is over.
    /// Every second simulated is then before `second`, and nothing after `second` in the
    /// scenario has been looked at.
    pub fn run_before(&mut self, second: u32, until_s: u32) {
        let until = until_s.min(MAX_HORIZON_S) as usize;
        while !self.finished
            && self.from < until
            && self.from + self.next_span(until) <= second as usize
        {
            self.block(until);
        }
    }

    /// A copy that goes on as `scenario`: the storm `scenario` itself would be at this point,
    /// provided the two scenarios agree on everything the seconds simulated so far looked at —
    /// the same attempt classes (policy, jitter, timeout, `Retry-After`), arrivals, bounds and
    /// outage start, and an outage that has not ended for either before the next second to simulate
    /// — and on the destination's capacity unless every second simulated so far was in the outage
    /// (then the capacity was never looked at). The survival map checks this for its cells.
    ///
    /// The copy's histories (megabytes for long waits) go into `spare`'s buffers, a finished
    /// branch's ([`FluidStorm::finish_sparing`]): a survival map branches a thousand times, and
    /// fresh memory costs a page fault every 4 KB (a tenth of the map's time).
    pub fn branch(&mut self, scenario: &'a Scenario, spare: Spare) -> Self {
        let mut histories = spare.0;
        histories.clone_from(&self.engine.histories);
        // The rest is small: cloned with the trunk's histories set aside.
        let trunk_histories = std::mem::take(&mut self.engine.histories);
        let mut copy = FluidStorm {
            engine: self.engine.continued_as(scenario),
            recorder: self.recorder.continued_as(scenario),
            ..self.clone()
        };
        self.engine.histories = trunk_histories;
        copy.engine.histories = histories;
        copy
    }

    /// The report of the seconds simulated, and the class-seconds worked through.
    pub fn finish(self) -> (StormReport, f64) {
        let engine = self.engine;
        let report = self.recorder.finish(
            "fluid",
            engine.scenario,
            engine.created,
            engine.breaker.openings(),
            engine.acted,
        );
        (report, engine.worked)
    }

    /// [`FluidStorm::finish`]'s report, and the buffers for another branch to reuse.
    pub fn finish_sparing(mut self) -> (StormReport, Spare) {
        let spare = Spare(std::mem::take(&mut self.engine.histories));
        (self.finish().0, spare)
    }

    /// The next block's length in a run to `until`.
    fn next_span(&self, until: usize) -> usize {
        let soonest = self.engine.soonest;
        let longest = if self.long_blocks { MAX_BLOCK } else { soonest };
        if self.failing { soonest } else { longest }.min(until - self.from)
    }

    // Seconds are simulated in blocks: within a block what comes due depends only on what
    // failed before it as long as nothing failed within it more than `soonest` seconds ago (the
    // soonest any failure comes due). So each class reads its history for a whole block at once,
    // then the destination decides each second on totals, and the block ends `soonest` seconds
    // after its first failure. While nothing fails (a healthy destination, a drain) blocks are
    // long; while everything fails they are `soonest` long from the start.
    //
    // Compiled on its own: inlined into the loop over blocks, the 24 h storm ran about a tenth
    // slower natively (the compiler's choices over the larger function were worse: 2% more
    // instructions, and a slower schedule).
    #[inline(never)]
    fn block(&mut self, until: usize) {
        let (from, span) = (self.from, self.next_span(until));
        let engine = &mut self.engine;
        let top = (engine.active + 1).min(engine.classes.len());
        engine.read_block(from, span, top);
        let decided = engine.decide(from, span, top, &mut self.recorder);
        self.failing = decided.first_failure.is_some();
        self.finished = decided.finished;
        if decided.end < span && !self.finished {
            engine.rewind(from, decided.end, top);
        }
        engine.move_failures(from, decided.end, top);
        self.from += decided.end;
    }
}
