//! A herd's histograms and the width of their bins: one second while the arrivals' span fits
//! the histogram's most bins, else the narrowest round width that keeps within them (the rule
//! is written out in the [`herd`](super) module docs).

/// Round bin widths below a day, seconds: 1, 2, 5, 10, 15 and 30 s, 1, 2, 5, 10, 15 and 30 min,
/// 1, 2, 3, 6 and 12 h. From a day on, whole days in 1-2-5 steps (1, 2, 5, 10, 20, 50, ...).
const ROUND_WIDTHS_S: [f64; 17] = [
    1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 900.0, 1_800.0, 3_600.0, 7_200.0,
    10_800.0, 21_600.0, 43_200.0,
];
const DAY_S: f64 = 86_400.0;

/// Bins of `width_s` from second 0 that hold every arrival before `latest_s`: one per started
/// width, and one spare for a sum of draws that rounds onto `latest_s`. Counted in `f64`: in
/// wasm `usize` has 32 bits, and a span past 2^32 s (136 years) in 1 s bins wrapped to 1 bin.
pub(super) fn bin_count(latest_s: f64, width_s: f64) -> f64 {
    (latest_s / width_s).floor() + 2.0
}

/// The narrowest round width (1 s first) whose [`bin_count`] for arrivals before `latest_s`
/// is at most `max_bins` (at least 3).
pub(super) fn width_for(latest_s: f64, max_bins: usize) -> f64 {
    let fits = |width: f64| bin_count(latest_s, width) <= max_bins as f64;
    if let Some(width) = ROUND_WIDTHS_S.into_iter().find(|w| fits(*w)) {
        return width;
    }
    // Whole days in 1-2-5 steps; a policy's spans end long before f64 runs out of days.
    let mut decade = 1.0;
    loop {
        for step in [1.0, 2.0, 5.0] {
            let width = step * decade * DAY_S;
            if fits(width) || !width.is_finite() {
                return width;
            }
        }
        decade *= 10.0;
    }
}

/// Arrival counts from second 0 in bins of one width.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Bins {
    /// The width of every bin, seconds.
    pub width_s: f64,
    /// Arrivals in each bin: bin `i` covers `[i × width_s, (i + 1) × width_s)`.
    pub counts: Vec<u64>,
}

impl Bins {
    /// Empty bins for arrivals before `latest_s`, at most `max_bins` of them.
    pub fn covering(latest_s: f64, max_bins: usize) -> Bins {
        let width_s = width_for(latest_s, max_bins);
        Bins {
            width_s,
            // At most `max_bins` (or 2, for a width that ran out of days).
            counts: vec![0; bin_count(latest_s, width_s) as usize],
        }
    }

    /// Counts an arrival at `t` seconds (in the last bin if a sum of draws overshoots).
    pub fn add(&mut self, t: f64) {
        let last = self.counts.len() - 1;
        self.counts[((t / self.width_s) as usize).min(last)] += 1;
    }

    /// The busiest bin's arrivals divided by its width: the busiest second's with 1 s bins.
    pub fn peak_per_s(&self) -> f64 {
        self.counts.iter().copied().max().unwrap_or(0) as f64 / self.width_s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_second_bins_while_the_span_fits_then_round_widths() {
        // 99,998 s fit 100,000 one-second bins with the spare; a second more does not.
        assert_eq!(width_for(31.0, 100_000), 1.0);
        assert_eq!(bin_count(31.0, 1.0), 33.0);
        // Past 2^32 s the count stays exact (wasm's 32-bit usize wrapped it to 1 bin of 1 s).
        assert_eq!(bin_count(2f64.powi(32) + 5.0, 1.0), 2f64.powi(32) + 7.0);
        assert_eq!(width_for(2f64.powi(33), 1_000_000), 10_800.0);
        assert_eq!(width_for(99_998.0, 100_000), 1.0);
        assert_eq!(width_for(99_999.0, 100_000), 2.0);
        assert_eq!(width_for(199_997.0, 100_000), 2.0);
        assert_eq!(width_for(199_998.0, 100_000), 5.0);
        // 300 days: 259,200 s per 100,000 bins, so 5 min bins (86,402 of them).
        assert_eq!(width_for(300.0 * DAY_S, 100_000), 300.0);
        // Past 12 h, whole days in 1-2-5 steps.
        assert_eq!(width_for(999_998.0 * 43_200.0, 1_000_000), 43_200.0);
        assert_eq!(width_for(999_999.0 * 43_200.0, 1_000_000), DAY_S);
        // The longest schedule: 10,000 attempts of ±100% around 365 days.
        assert_eq!(width_for(6.4e11, 1_000_000), 10.0 * DAY_S);
    }

    #[test]
    fn every_width_keeps_within_the_most_bins() {
        for exponent in 0..=130 {
            let latest = 10f64.powf(f64::from(exponent) / 10.0);
            for max in [100, 100_000, 1_000_000] {
                let width = width_for(latest, max);
                assert!(
                    bin_count(latest, width) <= max as f64,
                    "{latest} s, {max} bins"
                );
            }
        }
    }

    #[test]
    fn arrivals_land_in_their_bin_and_overshoots_in_the_last() {
        let mut bins = Bins::covering(600_000.0, 100_000);
        assert_eq!((bins.width_s, bins.counts.len()), (10.0, 60_002));
        for t in [0.0, 9.99, 10.0, 599_999.5, 1e12] {
            bins.add(t);
        }
        assert_eq!(&bins.counts[..2], &[2, 1]);
        assert_eq!(bins.counts[59_999], 1);
        assert_eq!(bins.counts[60_001], 1);
        assert_eq!(bins.peak_per_s(), 0.2);
    }
}
