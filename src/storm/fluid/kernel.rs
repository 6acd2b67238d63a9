//! How mass failing in one second comes due in later seconds, and where each attempt class
//! keeps its history of failures.

use std::ops::{Add, Mul, Sub};

use crate::numbers::{larger, smaller};

/// The smallest expected number of deliveries a bound holds back in one attempt class: less is
/// dropped (see [`Mass::without_dust`]).
pub(super) const DUST: f64 = 1e-30;

/// An expected number of deliveries, and how much of it the destination has already processed
/// at least once (a further processing of that part is a duplicate).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(super) struct Mass {
    pub all: f64,
    pub processed: f64,
}

impl Mass {
    pub const ZERO: Mass = Mass {
        all: 0.0,
        processed: 0.0,
    };

    /// The mass with either lane below `dust` ([`DUST`], or 0 to keep everything) dropped
    /// (made zero). A bound sends the same
    /// share of every class's held mass each second, so what a class holds shrinks
    /// geometrically once nothing joins it: without this it would pass through subnormal
    /// numbers (arithmetic on them is some hundred times slower on common CPUs) and never reach
    /// zero (a share below one half of the smallest subnormal rounds to nothing sent), keeping
    /// every class busy to the end of the simulation. `1e-30` of a delivery changes no reported
    /// number: reports round to thousandths, and added to any total above about 1e-14 it is
    /// below half the total's rounding step
    /// (`the_fluid_engines_shortcuts_change_nothing_but_its_speed` compares every second with and
    /// without this rule).
    pub fn without_dust(self, dust: f64) -> Mass {
        if self.all < dust {
            Mass::ZERO
        } else if self.processed < dust {
            Mass {
                processed: 0.0,
                ..self
            }
        } else {
            self
        }
    }

    /// Gathers whether masses are zero without comparing floating-point numbers: OR together
    /// the `bits` of each, and [`Mass::none_in`] the result. A comparison of a float with zero
    /// becomes a branch or several instructions in WebAssembly engines (for NaN), and this
    /// runs for every class and second.
    pub fn bits(self) -> u64 {
        self.all.to_bits() | self.processed.to_bits()
    }

    /// Whether every mass whose [`Mass::bits`] were ORed into `bits` is zero (either sign; a
    /// NaN is not zero), as `mass == Mass::ZERO` says of each.
    pub fn none_in(bits: u64) -> bool {
        // Without the sign bit, +0.0 and -0.0 are the only floats whose bits are all zero.
        bits << 1 == 0
    }

    /// Rounding in running sums can leave -1e-12 where nothing is due.
    pub fn at_least_zero(self) -> Mass {
        let all = larger(self.all, 0.0);
        Mass {
            all,
            processed: smaller(larger(self.processed, 0.0), all),
        }
    }
}

impl Add for Mass {
    type Output = Mass;
    fn add(self, other: Mass) -> Mass {
        Mass {
            all: self.all + other.all,
            processed: self.processed + other.processed,
        }
    }
}

impl Sub for Mass {
    type Output = Mass;
    fn sub(self, other: Mass) -> Mass {
        Mass {
            all: self.all - other.all,
            processed: self.processed - other.processed,
        }
    }
}

impl Mul<f64> for Mass {
    type Output = Mass;
    fn mul(self, share: f64) -> Mass {
        Mass {
            all: self.all * share,
            processed: self.processed * share,
        }
    }
}

/// Weights on whole-second offsets back from the second mass comes due in: the window's
/// partial first and last seconds are single weights; the whole seconds between carry
/// `density` each (offsets `on..last`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Kernel {
    pub first: usize,
    pub first_weight: f64,
    pub last: usize,
    pub last_weight: f64,
    pub on: usize,
    pub density: f64,
}

impl Kernel {
    /// Mass spread uniformly over waits in `[a, b)` seconds from the start of the failing
    /// second; what would come due within the failing second itself comes due in the next, as
    /// in the discrete engine. Needs `b - a` of at least a microsecond (else see
    /// [`Kernel::point`]).
    pub fn uniform(a: f64, b: f64) -> Kernel {
        let first = a.max(0.0) as usize;
        let last = b.max(0.0) as usize;
        if first == last {
            return Kernel::point(first.max(1));
        }
        let density = 1.0 / (b - a);
        let has_run = last > first + 1;
        let first_weight = density * ((first + 1) as f64 - a);
        if has_run && first >= 1 && first_weight == density {
            // A whole first second (the window starts on a second) joins the run: one read
            // fewer for every second of every class (see [`Kernel::due_over`]).
            return Kernel {
                first,
                first_weight: 0.0,
                last,
                last_weight: density * (b - last as f64),
                on: first,
                density,
            };
        }
        Kernel {
            first: first.max(1),
            first_weight,
            last,
            last_weight: density * (b - last as f64),
            on: if has_run { first + 1 } else { last },
            density: if has_run { density } else { 0.0 },
        }
    }

    /// All of the mass `offset` seconds later.
    pub fn point(offset: usize) -> Kernel {
        Kernel {
            first: offset,
            first_weight: 1.0,
            last: offset,
            last_weight: 0.0,
            on: offset,
            density: 0.0,
        }
    }

    pub fn scaled(self, share: f64) -> Kernel {
        Kernel {
            first_weight: self.first_weight * share,
            last_weight: self.last_weight * share,
            density: self.density * share,
            ..self
        }
    }

    /// The largest offset: the history must reach this far back.
    pub fn reach(&self) -> usize {
        self.first.max(self.last)
    }

    /// The smallest offset: nothing failing in a second comes due sooner.
    pub fn soonest(&self) -> usize {
        self.first.min(self.on).min(self.last)
    }

    /// Hands `emit` what comes due in each second of `from..from + span` (with the second's
    /// index in the block) from `history`, a class's `ring`; `run` carries the running sum.
    /// Every offset must be at least `span`, or the block's own cells must already be cleared.
    pub fn due_over(
        &self,
        ring: Ring,
        history: &[Mass],
        block: (usize, usize),
        run: &mut Mass,
        emit: impl FnMut(usize, Mass),
    ) {
        // A window of whole seconds (a whole timeout and whole gaps, the common case) is only
        // its run: two reads a second instead of three.
        if self.first_weight == 0.0 && self.last_weight == 0.0 {
            self.due_over_with::<true>(ring, history, block, run, emit);
        } else {
            self.due_over_with::<false>(ring, history, block, run, emit);
        }
    }

    /// [`Kernel::due_over`], with `ONLY_RUN` when both partial seconds weigh nothing.
    #[inline(always)]
    fn due_over_with<const ONLY_RUN: bool>(
        &self,
        ring: Ring,
        history: &[Mass],
        (from, span): (usize, usize),
        run: &mut Mass,
        mut emit: impl FnMut(usize, Mass),
    ) {
        // The block's stretch of the ring `offset` seconds back, when it does not wrap.
        let at = ring.position(from);
        let stretch = |offset: usize| {
            let start = ring.back(at, offset);
            history
                .get(ring.start + start..ring.start + start + span)
                .filter(|_| start + span <= ring.len)
        };
        if ONLY_RUN {
            if let (Some(ons), Some(lasts)) = (stretch(self.on), stretch(self.last)) {
                for (j, (&on, &last)) in ons.iter().zip(lasts).enumerate() {
                    *run = *run + on - last;
                    emit(j, *run * self.density);
                }
                return;
            }
        } else if let (Some(firsts), Some(ons), Some(lasts)) =
            (stretch(self.first), stretch(self.on), stretch(self.last))
        {
            for (j, ((&first, &on), &last)) in firsts.iter().zip(ons).zip(lasts).enumerate() {
                *run = *run + on - last;
                emit(
                    j,
                    *run * self.density + first * self.first_weight + last * self.last_weight,
                );
            }
            return;
        }
        for j in 0..span {
            let second = ring.ahead(at, j);
            let at = |offset: usize| history[ring.start + ring.back(second, offset)];
            let at_last = at(self.last);
            *run = *run + at(self.on) - at_last;
            let due = *run * self.density;
            emit(
                j,
                if ONLY_RUN {
                    due
                } else {
                    due + at(self.first) * self.first_weight + at_last * self.last_weight
                },
            );
        }
    }
}

/// How a 429's mass comes due: a share at the Retry-After floor, the rest over the window.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct RejectedKernel {
    pub spread: Kernel,
    pub floor: usize,
    pub floor_weight: f64,
}

impl RejectedKernel {
    /// Everything at `offset`.
    pub fn point(offset: usize) -> Self {
        RejectedKernel {
            spread: Kernel::point(offset),
            floor: offset,
            floor_weight: 0.0,
        }
    }

    pub fn reach(&self) -> usize {
        self.spread.reach().max(self.floor)
    }

    pub fn soonest(&self) -> usize {
        self.spread.soonest().min(self.floor)
    }
}

/// Where one attempt class's history of failures sits in the engine's buffers: a ring of `len`
/// cells at `start`, indexed by the second modulo `len`. The ring is just long enough for the
/// class's kernels and a block ahead of them, so a cell is written again soon after its farthest
/// read (a power-of-two ring, up to twice as long, made every write a cache miss in long waits).
#[derive(Debug, Clone, Copy)]
pub(super) struct Ring {
    pub start: usize,
    pub len: usize,
    /// `2^64 / len` rounded up: the second modulo `len` by multiplications (Lemire, Kaser and
    /// Kurz, "Faster remainder by direct computation", 2019), exact for seconds and lengths
    /// below 2^32.
    magic: u64,
}

impl Ring {
    /// A ring of `len` cells (2 to 2^32 − 1) at `start`.
    pub fn new(start: usize, len: usize) -> Ring {
        debug_assert!((2..=u32::MAX as usize).contains(&len));
        Ring {
            start,
            len,
            magic: (u64::MAX / len as u64).wrapping_add(1),
        }
    }

    /// Where `second` (below 2^32) falls in the ring, from its start.
    pub fn position(&self, second: usize) -> usize {
        debug_assert!(second <= u32::MAX as usize);
        let low = self.magic.wrapping_mul(second as u64);
        // The high 64 bits of `low × len` (a 32-bit length), in 64-bit arithmetic: wasm has
        // no wider multiplication.
        let len = self.len as u64;
        (((low >> 32) * len + (((low & 0xFFFF_FFFF) * len) >> 32)) >> 32) as usize
    }

    /// The position `offset` (at most `len`) seconds before position `at`; before the first
    /// second that is a cell not yet written, which holds zero.
    pub fn back(&self, at: usize, offset: usize) -> usize {
        let back = at + self.len - offset;
        if back >= self.len {
            back - self.len
        } else {
            back
        }
    }

    /// The position `seconds` (at most `len`) after position `at`.
    pub fn ahead(&self, at: usize, seconds: usize) -> usize {
        let ahead = at + seconds;
        if ahead >= self.len {
            ahead - self.len
        } else {
            ahead
        }
    }

    /// Writes `values` into the cells of the seconds from `from` on, and returns whether any was
    /// other than zero. Inlined, so that the values are computed straight into the cells (a
    /// block's failures went through a buffer, a scan for a nonzero one and a copy before).
    #[inline(always)]
    pub fn fill(
        &self,
        history: &mut [Mass],
        from: usize,
        values: impl ExactSizeIterator<Item = Mass>,
    ) -> bool {
        let span = values.len();
        let at = self.position(from);
        let mut bits = 0;
        let mut put = |cell: &mut Mass, value: Mass| {
            *cell = value;
            bits |= value.bits();
        };
        if at + span <= self.len {
            let start = self.start + at;
            for (cell, value) in history[start..start + span].iter_mut().zip(values) {
                put(cell, value);
            }
        } else {
            for (j, value) in values.enumerate() {
                put(&mut history[self.start + self.ahead(at, j)], value);
            }
        }
        !Mass::none_in(bits)
    }
}

#[cfg(test)]
mod tests {
    use super::{Kernel, Mass, Ring};

    /// What `kernel` hands out over `seconds` seconds from a history in which `mass` failed in
    /// second 0 only.
    fn due_from_one_second(kernel: Kernel, mass: f64, seconds: usize) -> Vec<f64> {
        let ring = Ring::new(0, kernel.reach() + seconds + 1);
        let mut history = vec![Mass::ZERO; ring.len];
        history[0] = Mass {
            all: mass,
            processed: 0.0,
        };
        let mut run = Mass::ZERO;
        let mut due = vec![0.0; seconds];
        kernel.due_over(ring, &history, (0, seconds), &mut run, |j, mass| {
            due[j] = mass.all
        });
        due
    }

    #[test]
    fn a_window_of_whole_seconds_spreads_its_mass_evenly_over_them() {
        // A 5 s timeout and a gap drawn from [0, 30 s): 30 deliveries failing in second 0 come
        // due one in each of seconds 5 to 34, by the run alone (no partial seconds).
        let kernel = Kernel::uniform(5.0, 35.0);
        assert_eq!((kernel.first_weight, kernel.last_weight), (0.0, 0.0));
        let due = due_from_one_second(kernel, 30.0, 40);
        for (second, &due) in due.iter().enumerate() {
            let expected = if (5..35).contains(&second) { 1.0 } else { 0.0 };
            assert!((due - expected).abs() < 1e-12, "second {second}: {due}");
        }
    }

    #[test]
    fn a_window_starting_within_a_second_weighs_its_partial_seconds() {
        // Waits from 5.5 s to 7.5 s: half a second's share in seconds 5 and 7, a whole one in 6.
        let due = due_from_one_second(Kernel::uniform(5.5, 7.5), 4.0, 10);
        let expected = [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 1.0, 0.0, 0.0];
        for (second, (&due, expected)) in due.iter().zip(expected).enumerate() {
            assert!((due - expected).abs() < 1e-12, "second {second}: {due}");
        }
    }

    /// Lengths at the edges of the multiplication's range, and the engine's own kind.
    const LENGTHS: [usize; 8] = [
        2,
        3,
        66,
        10_870,
        16_384,
        12_000_000,
        4_294_967_291,
        4_294_967_295,
    ];

    #[test]
    fn ring_positions_are_seconds_modulo_the_length() {
        for len in LENGTHS {
            let ring = Ring::new(7, len);
            for second in (0..5_000)
                .chain([
                    len - 1,
                    len,
                    len + 1,
                    u32::MAX as usize - 1,
                    u32::MAX as usize,
                ])
                .filter(|&second| second <= u32::MAX as usize)
            {
                assert_eq!(
                    ring.position(second),
                    second % len,
                    "{second} in a ring of {len}"
                );
            }
        }
    }

    #[test]
    fn stepping_back_and_ahead_wraps_around_the_ring() {
        let ring = Ring::new(0, 70);
        assert_eq!(ring.back(5, 6), 69);
        assert_eq!(ring.back(5, 5), 0);
        assert_eq!(ring.back(5, 70), 5);
        assert_eq!(ring.ahead(65, 4), 69);
        assert_eq!(ring.ahead(65, 5), 0);
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn any_second_in_any_ring(len in 2usize..=u32::MAX as usize, second in 0usize..=u32::MAX as usize) {
            proptest::prop_assert_eq!(Ring::new(0, len).position(second), second % len);
        }
    }
}
