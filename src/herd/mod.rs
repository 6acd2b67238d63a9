//! A herd: many deliveries that failed within the same second, and when their retries arrive.
//! Backoff spaces one delivery's attempts; only jitter spreads the herd.
//!
//! # Bins
//!
//! A herd counts arrivals in two histograms from the failure's second (second 0): every retry
//! over the whole schedule (`per_second`, at most [`MAX_BINS`] bins) and the first retries
//! alone (`first_retry_per_second`, at most [`MAX_FIRST_RETRY_BINS`]: what the herd chart
//! draws and the page copies). Each histogram has bins of one width, from second 0 to the
//! latest instant an arrival can have (the failure's second plus the longest gaps its jitter
//! can draw), with one spare bin at the end:
//!
//! - **1 s** while that span fits the histogram's most bins: under 999,999 s (11.6 days) of
//!   schedule and under 99,999 s (27.8 h) of first retries. Every herd of an ordinary schedule
//!   counts per second.
//! - Past that, **the narrowest round width** that fits: 2, 5, 10, 15 or 30 s, 1, 2, 5, 10, 15
//!   or 30 min, 1, 2, 3, 6 or 12 h, then whole days in 1-2-5 steps (1, 2, 5, 10, 20, ...
//!   days). A 300-day first gap under ±100% proportional jitter spans 600 days of first
//!   retries: 10 min bins, 86,402 of them.
//!
//! The bin widths are `bin_s` (whole schedule) and `first_retry.bin_s` (first retries). Rates
//! stay per second: a peak is the busiest bin's arrivals divided by its width, which is the
//! busiest second with 1 s bins and the busiest bin's average rate with wider ones (the
//! busiest second within it may hold more: counting every second of a 600-day span would
//! take 52 million counts). The caption and the chart say so whenever a bin is wider than a
//! second. Without jitter every first retry arrives within one second of the others (the
//! failure's instant plus the same gap), so a spike's first-retry peak is read from its bins
//! only while they are 1 s wide, and is every delivery otherwise
//! ([`Herd::unjittered_first_second`]).

use serde::{Deserialize, Serialize};

use crate::batches::{batch_of, in_batches};
use crate::jitter::{seeded_rng, uniform, Gaps, Jitter};
use crate::{Error, Policy};

mod bins;
mod render;

use bins::Bins;
pub(crate) use render::{format_peak, format_rate};

/// The most deliveries one herd may have.
pub const MAX_DELIVERIES: usize = 10_000_000;
/// The most bins of a herd's whole-schedule histogram (`per_second`); longer schedules get
/// wider bins (see the module docs).
pub const MAX_BINS: usize = 1_000_000;
/// The most bins of a herd's first-retry histogram (`first_retry_per_second`); a longer
/// spread of first retries gets wider bins (see the module docs).
pub const MAX_FIRST_RETRY_BINS: usize = 100_000;

/// Peak and mean arrival rates over a window.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rates {
    /// The most arrivals in any one bin, divided by its width: the busiest second's arrivals
    /// with 1 s bins, the busiest bin's average rate with wider ones.
    pub peak_per_s: f64,
    /// Arrivals divided by the window they belong to: for the first retry the first gap's reach
    /// (the upper end of its jitter window: the gap itself without jitter, 1.2 × it with
    /// proportional 0.2, 3 × base, capped, with decorrelated jitter); for the whole schedule its
    /// reach likewise, the sum of every gap's upper end (the unjittered give-up time without
    /// jitter or with full or equal jitter), so that a peak is not below the mean the way a
    /// herd spread past the unjittered give-up time made it (0.6× under ±100% proportional
    /// jitter). At least one bin's width and a second: the deliveries fail across their second,
    /// so even retries of one instant after it land in two bins (a 1 s first gap under full
    /// jitter peaked at 0.501× a mean over 1 s: outside review). Below 1× only by sampling
    /// noise.
    pub mean_per_s: f64,
    /// `peak_per_s / mean_per_s`: 1 is perfectly even; the unjittered first retry gives the gap
    /// in seconds (all in one second).
    pub peak_to_mean: f64,
    /// The window, seconds.
    pub window_s: f64,
    /// The width of the bins the peak was counted in, seconds: 1, or a round width (2 s, 5 s,
    /// ..., 1 min, ..., 1 h, ..., days) when the arrivals span too long for one-second bins.
    pub bin_s: f64,
}

/// Arrivals per second of a herd's retries.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Herd {
    /// How many deliveries failed together.
    pub deliveries: usize,
    /// The jitter mode's name.
    pub mode: String,
    /// The seed of the draws.
    #[cfg_attr(test, ts(type = "number"))]
    pub seed: u64,
    /// Width of each bin of `per_second`, seconds: 1 unless the schedule spans 999,999 s or
    /// more, then the narrowest round width (2 s, 5 s, ..., 1 min, ..., 1 h, ..., days) that
    /// keeps within 1,000,000 bins.
    pub bin_s: f64,
    /// Retries (every attempt after the first) arriving in each bin of `bin_s` seconds, over
    /// the whole schedule: bin `i` starts `i × bin_s` after the failure's second began.
    #[cfg_attr(test, ts(type = "Array<number>"))]
    pub per_second: Vec<u64>,
    /// First retries arriving in each bin of `first_retry.bin_s` seconds: 1 unless they spread
    /// over 99,999 s or more, then the narrowest round width that keeps within 100,000 bins.
    #[cfg_attr(test, ts(type = "Array<number>"))]
    pub first_retry_per_second: Vec<u64>,
    /// Peak over the whole schedule, per second: the busiest bin of `per_second` divided by
    /// `bin_s`.
    pub peak_per_s: f64,
    /// Mean over the whole schedule, per second.
    pub mean_per_s: f64,
    /// `peak_per_s / mean_per_s` over the whole schedule.
    pub peak_to_mean: f64,
    /// The same rates for the first retry alone.
    pub first_retry: Rates,
}

/// A herd's series as a reader names it: `full jitter`, and `without jitter` for mode `none`
/// (not "none jitter").
pub fn jitter_label(mode: &str) -> String {
    match mode {
        "none" => "without jitter".to_string(),
        mode => format!("{mode} jitter"),
    }
}

/// Simulates `deliveries` deliveries that each failed at a uniform instant of the same second,
/// then retried under `policy` with `jitter`, drawn with `seed`. Sizes are checked before any
/// allocation, and the histograms' bins are bounded whatever the schedule (see the module docs).
///
/// # Example
/// ```
/// use backoff_lab::herd::herd;
/// use backoff_lab::jitter::Jitter;
/// use backoff_lab::Policy;
/// let spike = herd(&Policy::article(), Jitter::None, 1_000, 42)?;
/// assert_eq!(spike.first_retry.peak_per_s, 1_000.0);
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn herd(policy: &Policy, jitter: Jitter, deliveries: usize, seed: u64) -> Result<Herd, Error> {
    jitter.check_applies_to(policy)?;
    if !(1..=MAX_DELIVERIES).contains(&deliveries) {
        return Err(Error::out_of_range(
            "deliveries",
            deliveries,
            "a whole number from 1 to 10000000",
        ));
    }
    crate::limits::check_draws(
        "deliveries",
        deliveries,
        policy.attempts(),
        jitter,
        crate::limits::Draws::Herd,
    )?;
    let mut rng = seeded_rng(seed)?;
    let retries = policy.attempts() - 1;
    let latest = latest_retry_s(policy, jitter, retries);
    let mut all = Bins::covering(latest, MAX_BINS);
    let first_latest = latest_retry_s(policy, jitter, retries.min(1));
    let mut first = Bins::covering(first_latest, MAX_FIRST_RETRY_BINS);
    // Windows drawn once: a power per retry per delivery would dominate a million-strong herd.
    let gaps = Gaps::new(policy, jitter);
    let windows = gaps.windows();
    // In batches: see `crate::batches` (a million-strong herd ran twice as long the first time).
    in_batches(deliveries, batch_of(retries as usize), |n| {
        let mut generator = rng.clone();
        for _ in 0..n {
            let mut t = uniform(&mut generator, 0.0, 1.0);
            let mut sampler = gaps.sampler();
            for retry in 1..=retries {
                t += match &windows {
                    Some(windows) => {
                        let (lo, hi) = windows[retry as usize - 1];
                        uniform(&mut generator, lo, hi)
                    }
                    None => sampler.next_gap(&mut generator),
                };
                if retry == 1 {
                    first.add(t);
                }
                all.add(t);
            }
        }
        rng = generator;
    });
    let rates = |bins: &Bins, arrivals: f64, reach: f64| {
        let (peak, bin) = (bins.peak_per_s(), bins.width_s);
        let window = reach.max(bin + 1.0);
        let mean = arrivals / window;
        Rates {
            peak_per_s: peak,
            mean_per_s: mean,
            peak_to_mean: if mean > 0.0 { peak / mean } else { 0.0 },
            window_s: window,
            bin_s: bin,
        }
    };
    let n = deliveries as f64;
    // The first retries' window is their reach: from the failure to the latest a first retry can
    // come (the first gap's window's upper end), so that a herd spread evenly over all of it
    // reads 1× (decorrelated first gaps reach 3 × base: over the 30 s base gap its peak read
    // 0.7× its "mean").
    let first_retry = rates(
        &first,
        if retries > 0 { n } else { 0.0 },
        first_latest - 1.0,
    );
    // The schedule's reach, as the first retry's (`latest` counts the failure's second).
    let whole = rates(&all, n * f64::from(retries), latest - 1.0);
    Ok(Herd {
        deliveries,
        mode: jitter.name().to_string(),
        seed,
        bin_s: all.width_s,
        per_second: all.counts,
        first_retry_per_second: first.counts,
        peak_per_s: whole.peak_per_s,
        mean_per_s: whole.mean_per_s,
        peak_to_mean: whole.peak_to_mean,
        first_retry,
    })
}

/// The latest instant any of the first `retries` retries can arrive (failure in second 0).
fn latest_retry_s(policy: &Policy, jitter: Jitter, retries: u32) -> f64 {
    let latest_gaps: f64 = (1..=retries)
        .map(|r| match jitter.window(policy.gap(r)) {
            Some((_, hi)) => hi,
            None => policy.cap_s().min(policy.base_s() * 3f64.powi(r as i32)),
        })
        .sum();
    1.0 + latest_gaps
}

impl Herd {
    /// The same deliveries without jitter, to compare the herd with in words ([`Herd::caption`]);
    /// `None` when the herd itself is unjittered. It simulates at most 100,000 deliveries.
    pub fn unjittered_spike(&self, policy: &Policy) -> Result<Option<Herd>, Error> {
        if self.mode == "none" {
            return Ok(None);
        }
        herd(
            policy,
            Jitter::None,
            self.deliveries.min(100_000),
            self.seed,
        )
        .map(Some)
    }

    /// An unjittered herd's first retries in its busiest second, and that as a multiple of
    /// their mean rate: read from its bins while they are 1 s wide; with wider bins every
    /// delivery, since without jitter all of them arrive within one second (see the module
    /// docs).
    pub fn unjittered_first_second(&self) -> (f64, f64) {
        let first = &self.first_retry;
        if first.bin_s == 1.0 {
            return (first.peak_per_s, first.peak_to_mean);
        }
        let (all, mean) = (self.deliveries as f64, first.mean_per_s);
        (all, if mean > 0.0 { all / mean } else { 0.0 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unjittered_herd_returns_as_one_spike() {
        let h = herd(&Policy::article(), Jitter::None, 1_000, 42).unwrap();
        // All 1,000 failed in second 0 and come back in second 30.
        assert_eq!(h.first_retry_per_second[30], 1_000);
        assert_eq!(h.first_retry_per_second.iter().sum::<u64>(), 1_000);
        assert!((h.first_retry.mean_per_s - 1_000.0 / 30.0).abs() < 1e-9);
        assert!((h.first_retry.peak_to_mean - 30.0).abs() < 1e-9);
        assert_eq!(h.per_second.iter().sum::<u64>(), 13_000);
    }

    #[test]
    fn full_jitter_spreads_the_herd_within_a_binomial_bound() {
        let n = 1_000;
        let h = herd(&Policy::article(), Jitter::Full, n, 42).unwrap();
        let mean = n as f64 / 30.0;
        assert!((h.first_retry.mean_per_s - mean).abs() < 1e-9);
        // A second receives each retry with probability at most 1/30: counts are at most
        // Binomial(1000, 1/30). Over 31 seconds the chance that any exceeds mean + 6 sd is
        // below 31 × 1e-9 (Chernoff), so this fails only if the spreading is broken.
        let sd = (n as f64 * (1.0 / 30.0) * (29.0 / 30.0)).sqrt();
        assert!(
            h.first_retry.peak_per_s <= mean + 6.0 * sd,
            "peak {}",
            h.first_retry.peak_per_s
        );
        assert!(h.first_retry.peak_per_s >= mean);
        assert!(
            h.first_retry.peak_per_s < 1_000.0 / 10.0,
            "far below the spike"
        );
        assert_eq!(h.first_retry_per_second.iter().sum::<u64>(), 1_000);
        assert!(
            h.first_retry_per_second[..=30]
                .iter()
                .filter(|c| **c > 0)
                .count()
                >= 29
        );
    }

    #[test]
    fn same_seed_same_herd_and_sizes_refused() {
        let a = herd(&Policy::article(), Jitter::Equal, 500, 9).unwrap();
        assert_eq!(a, herd(&Policy::article(), Jitter::Equal, 500, 9).unwrap());
        assert_ne!(a, herd(&Policy::article(), Jitter::Equal, 500, 10).unwrap());
        assert_eq!(
            herd(&Policy::article(), Jitter::Full, 10_000_001, 1)
                .unwrap_err()
                .to_string(),
            "deliveries must be a whole number from 1 to 10000000, got 10000001"
        );
    }

    #[test]
    fn long_schedules_get_wider_bins_not_huge_arrays() {
        let policy = Policy::new(
            86_400.0,
            1.0,
            86_400.0 * 365.0,
            crate::Stop::Attempts(10_000),
        )
        .unwrap();
        let h = herd(&policy, Jitter::Full, 10, 1).unwrap();
        // 9,999 days of retries in 15 min bins; the first retries' day in seconds.
        assert_eq!((h.bin_s, h.per_second.len()), (900.0, 959_906));
        assert_eq!(h.per_second.iter().sum::<u64>(), 10 * 9_999);
        assert_eq!(h.first_retry.bin_s, 1.0);
        assert_eq!(h.first_retry_per_second.len(), 86_403);
    }

    /// The fuzzing finding: a 300-day first gap under ±100% jitter spread its first retries
    /// over 52 million one-second bins.
    #[test]
    fn a_300_day_spread_keeps_its_bins_bounded() {
        let days = 300.0 * 86_400.0;
        let policy = Policy::new(days, 1.0, days, crate::Stop::Attempts(2)).unwrap();
        let jitter = Jitter::proportional(1.0).unwrap();
        for deliveries in [1, 1_000] {
            let h = herd(&policy, jitter, deliveries, 1).unwrap();
            // 600 days and a second: 10 min bins for first retries, 1 min for the schedule.
            assert_eq!(h.first_retry.bin_s, 600.0);
            assert_eq!(h.first_retry_per_second.len(), 86_402);
            assert!(h.first_retry_per_second.len() <= MAX_FIRST_RETRY_BINS);
            assert_eq!((h.bin_s, h.per_second.len()), (60.0, 864_002));
            assert!(h.per_second.len() <= MAX_BINS);
            let n = deliveries as u64;
            assert_eq!(h.first_retry_per_second.iter().sum::<u64>(), n);
            assert_eq!(h.per_second.iter().sum::<u64>(), n);
            // Rates stay per second: the busiest bin over its width.
            let busiest = *h.first_retry_per_second.iter().max().unwrap() as f64;
            assert_eq!(h.first_retry.peak_per_s, busiest / 600.0);
            // Over their reach: proportional 1.0 doubles the 300 days.
            assert_eq!(h.first_retry.mean_per_s, deliveries as f64 / (2.0 * days));
        }
        let widest = Policy::new(
            crate::policy::MAX_SPAN_S,
            crate::policy::MAX_MULTIPLIER,
            crate::policy::MAX_SPAN_S,
            crate::Stop::Attempts(crate::policy::MAX_ATTEMPTS),
        )
        .unwrap();
        let h = herd(&widest, jitter, 1, 1).unwrap();
        assert!(h.first_retry_per_second.len() <= MAX_FIRST_RETRY_BINS);
        assert!(h.per_second.len() <= MAX_BINS);
        assert_eq!((h.first_retry.bin_s, h.bin_s), (900.0, 864_000.0));
    }

    /// A schedule that jitter stretches past its give-up time: its mean was taken over the
    /// unjittered 1.001 s, and the peak read 0.6× it (from an outside tester).
    #[test]
    fn a_peak_is_never_below_the_mean_of_a_stretched_schedule() {
        let policy = Policy::new(0.001, 1_000.0, 365.0 * 86_400.0, crate::Stop::Attempts(3));
        let jitter = Jitter::proportional(1.0).unwrap();
        for seed in 0..20 {
            let h = herd(policy.as_ref().unwrap(), jitter, 100, seed).unwrap();
            assert!(h.peak_per_s >= h.mean_per_s, "seed {seed}: {h:?}");
            assert!((h.mean_per_s - 200.0 / 2.002).abs() < 1e-9);
        }
    }

    /// Herds of ordinary schedules count per second exactly as before bins could widen
    /// (vectors recorded from that code).
    #[test]
    fn ordinary_herds_are_unchanged() {
        let small = Policy::new(2.0, 2.0, 10.0, crate::Stop::Attempts(4)).unwrap();
        let cases: [(Jitter, &[u64], &[u64], f64); 5] = [
            (
                Jitter::Full,
                &[2, 6, 2, 0, 0],
                &[2, 6, 7, 1, 2, 2, 2, 2, 1, 0, 4, 1, 0, 0, 0, 0, 0],
                7.0,
            ),
            (
                Jitter::Equal,
                &[0, 4, 6, 0, 0],
                &[0, 4, 6, 0, 5, 4, 1, 0, 0, 0, 2, 3, 5, 0, 0, 0, 0],
                6.0,
            ),
            (
                Jitter::None,
                &[0, 0, 10, 0, 0],
                &[0, 0, 10, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0],
                10.0,
            ),
            (
                Jitter::proportional(0.5).unwrap(),
                &[0, 2, 6, 2, 0, 0],
                &[
                    0, 2, 6, 2, 0, 5, 1, 2, 2, 0, 0, 0, 0, 2, 2, 1, 0, 4, 1, 0, 0, 0, 0, 0,
                ],
                6.0,
            ),
            (
                Jitter::Decorrelated,
                &[0, 0, 2, 2, 2, 3, 1, 0, 0],
                &[
                    0, 0, 2, 2, 2, 3, 2, 2, 1, 1, 0, 1, 0, 2, 2, 3, 1, 1, 0, 0, 0, 1, 0, 2, 0, 2,
                    0, 0, 0,
                ],
                3.0,
            ),
        ];
        for (jitter, first, all, peak) in cases {
            let h = herd(&small, jitter, 10, 42).unwrap();
            assert_eq!(h.first_retry_per_second, first, "{}", jitter.name());
            assert_eq!(h.per_second, all, "{}", jitter.name());
            assert_eq!((h.bin_s, h.first_retry.bin_s), (1.0, 1.0));
            assert_eq!(h.peak_per_s, peak);
            // Over the schedule's reach: the give-up time of 14 s where jitter only shortens
            // gaps; 1.5 × it under ±50%; 6 + 10 + 10 s (min(cap, 3^r × base)) decorrelated.
            let reach = match jitter.name() {
                "proportional" => 21.0,
                "decorrelated" => 26.0,
                _ => 14.0,
            };
            assert_eq!(h.mean_per_s, 30.0 / reach, "{}", jitter.name());
            assert!(h.peak_per_s >= h.mean_per_s, "{}", jitter.name());
        }
        let article = herd(&Policy::article(), Jitter::Full, 1_000, 42).unwrap();
        assert_eq!(
            article.first_retry_per_second,
            [
                22, 38, 26, 29, 33, 32, 33, 36, 37, 27, 41, 24, 34, 30, 35, 28, 34, 33, 36, 28, 44,
                39, 32, 19, 41, 32, 32, 36, 36, 35, 18, 0, 0
            ]
        );
        assert_eq!(
            article.first_retry,
            Rates {
                peak_per_s: 44.0,
                mean_per_s: 1_000.0 / 30.0,
                peak_to_mean: 44.0 / (1_000.0 / 30.0),
                window_s: 30.0,
                bin_s: 1.0,
            }
        );
        assert_eq!(article.per_second.len(), 86_523);
        assert_eq!(&article.per_second[..5], &[22, 38, 28, 29, 35]);
        assert_eq!((article.bin_s, article.peak_per_s), (1.0, 55.0));
    }

    /// The first retries' mean is over their reach, from the failure to the latest first retry:
    /// decorrelated first gaps fall in 30 to 90 s, so over 90 s (over the 30 s base gap their
    /// peak read 0.7× their "mean"); proportional ±20% ones reach 36 s.
    #[test]
    fn the_first_retries_mean_is_over_their_reach() {
        let decorrelated = herd(&Policy::article(), Jitter::Decorrelated, 1_000, 1).unwrap();
        assert_eq!(decorrelated.first_retry.window_s, 90.0);
        assert_eq!(decorrelated.first_retry.mean_per_s, 1_000.0 / 90.0);
        assert!(decorrelated.first_retry.peak_to_mean > 1.0);
        assert_eq!(
            decorrelated.first_retry_per_second[..30]
                .iter()
                .sum::<u64>(),
            0
        );
        let proportional = Jitter::proportional(0.2).unwrap();
        let herd = herd(&Policy::article(), proportional, 1_000, 1).unwrap();
        assert!((herd.first_retry.window_s - 36.0).abs() < 1e-9);
    }

    #[test]
    fn a_wide_spike_is_every_delivery_in_one_second() {
        let days = 300.0 * 86_400.0;
        let policy = Policy::new(days, 1.0, days, crate::Stop::Attempts(2)).unwrap();
        let spike = herd(&policy, Jitter::None, 1_000, 1).unwrap();
        assert_eq!(spike.first_retry.bin_s, 300.0);
        // Its busiest 5 min bin averages 3.3 per second, yet all arrive within one second.
        assert_eq!(spike.first_retry.peak_per_s, 1_000.0 / 300.0);
        let (count, multiple) = spike.unjittered_first_second();
        assert_eq!(count, 1_000.0);
        assert!((multiple - days).abs() < 1e-6, "{multiple}");
        let article = herd(&Policy::article(), Jitter::None, 1_000, 1).unwrap();
        let (count, multiple) = article.unjittered_first_second();
        assert_eq!(count, 1_000.0);
        assert!((multiple - 30.0).abs() < 1e-9, "{multiple}");
    }
}
