//! The destination: a FIFO queue served at its capacity. The same rule in whole units for the
//! discrete engine and on expected values for the fluid engine.
//!
//! The attempts of a second arrive together at its start, in the order the sender sends them;
//! the one at position `j` (0-based) waits `(queue + j) / capacity`, where `queue` is what was
//! still queued as the second began. In order:
//! - during the outage every attempt is lost (fails by the timeout, never processed) and the
//!   queue empties;
//! - with `Retry-After`, an attempt whose wait **exceeds** the threshold is answered 429 at once,
//!   takes no capacity and is not processed;
//! - an attempt whose wait plus the latency **exceeds** the timeout times out; it is processed
//!   later (late) unless the destination abandons such requests (then it is lost);
//! - every other attempt succeeds. A wait exactly at a threshold does not exceed it.
//!
//! The queue then gains what was admitted (only what succeeds, when abandoning) and loses one
//! second of capacity, down to zero.

use super::scenario::{Units, MICRO};
use crate::numbers::{larger, product_in_64_bits, smaller};

/// What happened to the `n` attempts of one second, by position: the first `ok` succeeded,
/// the next `late + lost` timed out, the last `rejected` were answered 429 (outage: all lost).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Outcome<T> {
    /// Answered in time: delivered.
    pub ok: T,
    /// Timed out at the sender but processed later by the destination.
    pub late: T,
    /// Failed without being processed (the outage, or abandoned by the destination).
    pub lost: T,
    /// Answered 429 with `Retry-After`.
    pub rejected: T,
}

/// The destination's queue, in millionths of a request: whole in the discrete engine, rounded
/// to the nearest millionth each second in the fluid engine.
#[derive(Debug, Clone, Default)]
pub(crate) struct Queue {
    millionths: u128,
}

impl Queue {
    /// Requests queued, as a number.
    pub fn requests(&self) -> f64 {
        as_f64(self.millionths) / MICRO as f64
    }

    /// How many of `n` attempts, from position 0 on, wait at most `wait_us`: positions `j` with
    /// `(queue + j) / capacity <= wait`, in whole units
    /// `(queue_millionths + j × 1e6) × 1e6 <= wait_us × capacity_millionths`.
    fn within(&self, units: &Units, wait_us: u64) -> Option<u128> {
        const MICRO_SQUARED: u64 = MICRO * MICRO;
        // In 64 bits when everything fits (the common case, and much faster), else in 128.
        let narrow = u64::try_from(self.millionths).ok().and_then(|queue| {
            let budget = product_in_64_bits(wait_us, units.capacity)?;
            let used = product_in_64_bits(queue, MICRO)?;
            Some(budget.checked_sub(used).map(|room| room / MICRO_SQUARED))
        });
        let last = match narrow {
            Some(last) => u128::from(last?),
            None => {
                let budget = u128::from(wait_us) * u128::from(units.capacity);
                let used = self.millionths * u128::from(MICRO);
                budget.checked_sub(used)? / u128::from(MICRO_SQUARED)
            }
        };
        Some(last + 1)
    }

    /// Serves the `n` attempts of one second (whole in the discrete engine, expected in the
    /// fluid engine: the same positions, with the last one partly there).
    pub fn serve<T: Count>(
        &mut self,
        units: &Units,
        down: bool,
        abandon: bool,
        n: T,
    ) -> Outcome<T> {
        if down {
            self.millionths = 0;
            return Outcome {
                ok: T::ZERO,
                late: T::ZERO,
                lost: n,
                rejected: T::ZERO,
            };
        }
        let count = |wait_us: u64| match self.within(units, wait_us) {
            Some(positions) => n.at_most(positions),
            None => T::ZERO,
        };
        let admitted = match units.retry_after_us {
            Some(_) => count(units.threshold_us),
            None => n,
        };
        let ok = count(units.timeout_us - units.latency_us).min(admitted);
        let too_late = admitted - ok;
        let (late, lost) = if abandon {
            (T::ZERO, too_late)
        } else {
            (too_late, T::ZERO)
        };
        let queued = (ok + late).millionths();
        self.millionths = (self.millionths + queued).saturating_sub(u128::from(units.capacity));
        Outcome {
            ok,
            late,
            lost,
            rejected: n - admitted,
        }
    }
}

/// `wide` as the nearest `f64`, from a signed 64-bit number when it fits: one instruction on
/// x86-64, where an unsigned one takes several (the fluid engine converts a queue's positions
/// every second, one after another; the nearest `f64` is the same from either). A 128-bit
/// conversion is a slow library call, kept out of line so that the compiler does not make it
/// on every path.
fn as_f64(wide: u128) -> f64 {
    #[cold]
    #[inline(never)]
    fn from_128_bits(wide: u128) -> f64 {
        wide as f64
    }
    match i64::try_from(wide) {
        Ok(narrow) => narrow as f64,
        Err(_) => from_128_bits(wide),
    }
}

/// 2^63, the first `f64` beyond `i64`.
const TWO_TO_THE_63: f64 = 9_223_372_036_854_775_808.0;

/// A count of attempts: whole (`u64`) or expected (`f64`).
pub(crate) trait Count:
    Copy + PartialOrd + std::ops::Add<Output = Self> + std::ops::Sub<Output = Self>
{
    const ZERO: Self;
    /// This count, or `positions` if fewer.
    fn at_most(self, positions: u128) -> Self;
    /// In millionths, rounded to the nearest.
    fn millionths(self) -> u128;
    fn min(self, other: Self) -> Self {
        if other < self {
            other
        } else {
            self
        }
    }
}

impl Count for u64 {
    const ZERO: u64 = 0;
    fn at_most(self, positions: u128) -> u64 {
        positions.min(u128::from(self)) as u64
    }
    fn millionths(self) -> u128 {
        u128::from(self) * u128::from(MICRO)
    }
}

impl Count for f64 {
    const ZERO: f64 = 0.0;
    fn at_most(self, positions: u128) -> f64 {
        smaller(self, as_f64(positions))
    }
    fn millionths(self) -> u128 {
        // Below 2^64 millionths (1.8e13 requests) in one conversion, as is every real queue;
        // below 2^63 through a signed number, the same value in one instruction on x86-64
        // instead of several (the queue's next second waits for it).
        let rounded = larger(self, 0.0) * MICRO as f64 + 0.5;
        if rounded < TWO_TO_THE_63 {
            rounded as i64 as u128
        } else {
            u128::from(rounded as u64)
        }
    }
}
