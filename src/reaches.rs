//! When an attempt counts as at a time: the one rule behind "the first attempt at or past the
//! give-up deadline", "the smallest cap that reaches the deadline", "an attempt at the
//! recovery delivers", "an attempt at the tolerance is fresh" and "the attempts inside the
//! early window".
//!
//! Attempt times are running sums of gaps in binary floating point, where decimal gaps are not
//! exact: three 0.3 s gaps sum to 0.8999999999999999 s and ten 0.1 s gaps to
//! 0.9999999999999999 s. Compared exactly, a schedule retrying every 100 ms with a 1 s deadline
//! made 12 attempts, and said its 11th "falls at 1000 ms". A time within a relative 1e-12 below
//! a mark counts as at it: above the rounding of 10,000 summed gaps (at most about 1e-12 of the
//! sum), and far below anything a schedule shows (0.03 ms of 365 days).

/// How far below a mark, relative to it, a time still counts as at it.
pub const AT_MARK_TOLERANCE: f64 = 1e-12;

/// Whether an attempt at `time_s` is at or past `mark_s` (both seconds, neither NaN): at, within
/// [`AT_MARK_TOLERANCE`] of `mark_s` below it.
///
/// # Example
/// ```
/// use backoff_lab::reaches::reaches;
/// assert!(reaches(0.3 + 0.3 + 0.3, 0.9));
/// assert!(!reaches(0.899, 0.9));
/// ```
#[inline(always)]
pub fn reaches(time_s: f64, mark_s: f64) -> bool {
    time_s >= mark_s - mark_s.abs() * AT_MARK_TOLERANCE
}

/// The latest mark an attempt at `time_s` [`reaches`]: a limit told as "at most" this (rounded
/// down) is never refused when given.
pub fn latest_mark(time_s: f64) -> f64 {
    time_s / (1.0 - AT_MARK_TOLERANCE)
}

/// Whether an attempt at `time_s` is at or before `mark_s` (a tolerance: "at most this old"):
/// at, within [`AT_MARK_TOLERANCE`] of `mark_s` above it (three 0.1 s gaps sum to
/// 0.30000000000000004 s).
#[inline(always)]
pub fn within(time_s: f64, mark_s: f64) -> bool {
    time_s <= mark_s + mark_s.abs() * AT_MARK_TOLERANCE
}

#[cfg(test)]
mod tests {
    use super::{latest_mark, reaches, within};

    /// Sums of decimal gaps land a rounding below their decimal total; they reach it, and a
    /// millionth less does not.
    #[test]
    fn sums_of_decimal_gaps_reach_their_total() {
        for (gap, count) in [
            (0.1, 10),
            (0.3, 3),
            (0.7, 1_000),
            (0.01, 9_999),
            (1e-3, 10_000),
        ] {
            let sum: f64 = std::iter::repeat_n(gap, count).sum();
            let total = gap * count as f64;
            assert!(reaches(sum, total), "{count} × {gap} = {sum}");
            assert!(within(sum, total), "{count} × {gap} = {sum}");
            assert!(!reaches(total * (1.0 - 1e-6), total));
            assert!(!within(total * (1.0 + 1e-6), total));
        }
        assert!(reaches(0.0, 0.0));
        let sum: f64 = std::iter::repeat_n(1e-3, 9_999).sum();
        assert!(reaches(sum, latest_mark(sum)) && !reaches(sum, latest_mark(sum) * (1.0 + 1e-15)));
    }
}
