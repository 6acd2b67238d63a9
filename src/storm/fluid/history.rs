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
        ring.write(
            &mut self.timed_out,
            from,
            std::iter::repeat_n(Mass::ZERO, span),
        );
        if !self.rejected.is_empty() {
            ring.write(
                &mut self.rejected,
                from,
                std::iter::repeat_n(Mass::ZERO, span),
            );
        }
    }

    /// Records that nothing failed into `class` in the `span` seconds from `from` on: the same
    /// as [`Histories::record`] with zeros, without computing them.
    pub fn record_nothing(&mut self, class: usize, ring: Ring, from: usize, span: usize) {
        if !self.quiet(class, ring, from) {
            self.clear(ring, from, span);
        }
    }

    /// Writes what failed into `class` in each second from `from` on, by timeout and by 429
    /// (`rejected` is ignored when the destination never answers 429).
    // Inlined into the engine's block loop (once per class and block): 4% of the 24 h storm.
    #[inline(always)]
    pub fn record(
        &mut self,
        class: usize,
        ring: Ring,
        from: usize,
        (timed_out, rejected): (&[Mass], &[Mass]),
    ) {
        let answers_429 = !self.rejected.is_empty();
        let nonzero = |cells: &[Mass]| cells.iter().any(|&m| m != Mass::ZERO);
        if nonzero(timed_out) || (answers_429 && nonzero(rejected)) {
            self.written_at[class] = Some(from + timed_out.len() - 1);
        }
        if self.quiet(class, ring, from) {
            return;
        }
        ring.write(&mut self.timed_out, from, timed_out.iter().copied());
        if answers_429 {
            ring.write(&mut self.rejected, from, rejected.iter().copied());
        }
    }
}
