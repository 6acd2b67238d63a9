//! What failed into every attempt class, second by second.

use super::kernel::{Mass, Ring};

/// What failed into every class, second by second: by timeout, and by 429 when the destination
/// answers it; and the last second each class's history received something other than zero.
#[derive(Default)]
pub(super) struct Histories {
    pub timed_out: Vec<Mass>,
    pub rejected: Vec<Mass>,
    written_at: Vec<Option<usize>>,
    skip_quiet: bool,
}

impl Clone for Histories {
    fn clone(&self) -> Self {
        let mut copy = Histories::default();
        copy.clone_from(self);
        copy
    }

    /// Into this copy's buffers, grown only if they must be (see [`super::FluidStorm::branch`]).
    fn clone_from(&mut self, source: &Self) {
        self.timed_out.clone_from(&source.timed_out);
        self.rejected.clone_from(&source.rejected);
        self.written_at.clone_from(&source.written_at);
        self.skip_quiet = source.skip_quiet;
    }
}

impl Histories {
    pub fn new(classes: usize, cells: usize, answers_429: bool, skip_quiet: bool) -> Self {
        Histories {
            timed_out: vec![Mass::ZERO; cells],
            rejected: vec![Mass::ZERO; if answers_429 { cells } else { 0 }],
            written_at: vec![None; classes],
            skip_quiet,
        }
    }

    /// Whether `class`'s history has held only zeros for a whole lap of its ring by `from`: then
    /// it is neither read nor written with zeros.
    pub fn quiet(&self, class: usize, ring: Ring, from: usize) -> bool {
        self.skip_quiet && self.written_at[class].is_none_or(|second| from > second + ring.len)
    }

    /// Clears the cells of the seconds `from..from + span` of a history, which hold a lap-old
    /// past: read before they are written, they say that nothing failed yet.
    pub fn clear(&mut self, ring: Ring, from: usize, span: usize) {
        let zeros = || std::iter::repeat_n(Mass::ZERO, span);
        ring.fill(&mut self.timed_out, from, zeros());
        if !self.rejected.is_empty() {
            ring.fill(&mut self.rejected, from, zeros());
        }
    }

    /// Records that nothing failed into `class` in the `span` seconds from `from` on: the same
    /// as [`Histories::record`] with zeros, without computing them.
    pub fn record_nothing(&mut self, class: usize, ring: Ring, from: usize, span: usize) {
        if !self.quiet(class, ring, from) {
            self.clear(ring, from, span);
        }
    }

    /// Writes what failed into `class` in each second from `from` on: `timed_out`, and
    /// `rejected` (by 429; not used when the destination never answers 429), as many values
    /// each.
    ///
    /// The values go straight into the cells, even of a quiet history (one that has held only
    /// zeros for a lap, whose cells are then all zero): writing zeros over zeros changes
    /// nothing, and anything else ends its quiet.
    // Inlined into the engine's block loop (once per class and block): 4% of the 24 h storm.
    #[inline(always)]
    pub fn record(
        &mut self,
        class: usize,
        ring: Ring,
        from: usize,
        timed_out: impl ExactSizeIterator<Item = Mass>,
        rejected: impl ExactSizeIterator<Item = Mass>,
    ) {
        let span = timed_out.len();
        let mut any = ring.fill(&mut self.timed_out, from, timed_out);
        if !self.rejected.is_empty() {
            any |= ring.fill(&mut self.rejected, from, rejected);
        }
        if any {
            self.written_at[class] = Some(from + span - 1);
        }
    }
}
