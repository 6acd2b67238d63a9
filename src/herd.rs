//! A herd: many deliveries that failed within the same second, and when their retries arrive.
//! Backoff spaces one delivery's attempts; only jitter spreads the herd.

use serde::{Deserialize, Serialize};

use crate::jitter::{seeded_rng, uniform, Gaps, Jitter};
use crate::{Error, Policy};

/// The most deliveries one herd may have.
pub const MAX_DELIVERIES: usize = 10_000_000;
/// The most histogram bins; longer schedules get wider bins.
const MAX_BINS: f64 = 1_000_000.0;

/// Peak and mean arrival rates over a window.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rates {
    /// The most arrivals in any one second (any one bin, divided by its width).
    pub peak_per_s: f64,
    /// Arrivals divided by the window they belong to (the unjittered first gap for the first
    /// retry, the unjittered give-up time for the whole schedule).
    pub mean_per_s: f64,
    /// `peak_per_s / mean_per_s`: 1 is perfectly even; the unjittered first retry gives the gap
    /// in seconds (all in one second).
    pub peak_to_mean: f64,
    /// The window, seconds.
    pub window_s: f64,
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
    /// Width of each bin of `per_second` (1 unless the schedule is longer than 1,000,000 s).
    pub bin_s: f64,
    /// Retries (every attempt after the first) arriving in each bin, over the whole schedule.
    #[cfg_attr(test, ts(type = "Array<number>"))]
    pub per_second: Vec<u64>,
    /// First retries arriving in each second.
    #[cfg_attr(test, ts(type = "Array<number>"))]
    pub first_retry_per_second: Vec<u64>,
    /// Peak over the whole schedule, per second.
    pub peak_per_s: f64,
    /// Mean over the whole schedule, per second.
    pub mean_per_s: f64,
    /// `peak_per_s / mean_per_s` over the whole schedule.
    pub peak_to_mean: f64,
    /// The same rates for the first retry alone.
    pub first_retry: Rates,
}

/// Simulates `deliveries` deliveries that each failed at a uniform instant of the same second,
/// then retried under `policy` with `jitter`, drawn with `seed`. Sizes are checked before any
/// allocation.
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
    let bin_s = (latest / MAX_BINS).ceil().max(1.0);
    let mut per_bin = vec![0u64; (latest / bin_s) as usize + 2];
    let first_latest = latest_retry_s(policy, jitter, retries.min(1));
    let mut first = vec![0u64; first_latest as usize + 2];
    let (last_first, last_bin) = (first.len() - 1, per_bin.len() - 1);
    // Windows drawn once: a power per retry per delivery would dominate a million-strong herd.
    let gaps = Gaps::new(policy, jitter);
    let windows = gaps.windows();
    for _ in 0..deliveries {
        let mut t = uniform(&mut rng, 0.0, 1.0);
        let mut sampler = gaps.sampler();
        for retry in 1..=retries {
            t += match &windows {
                Some(windows) => {
                    let (lo, hi) = windows[retry as usize - 1];
                    uniform(&mut rng, lo, hi)
                }
                None => sampler.next_gap(&mut rng),
            };
            if retry == 1 {
                first[(t as usize).min(last_first)] += 1;
            }
            per_bin[((t / bin_s) as usize).min(last_bin)] += 1;
        }
    }
    let rates = |counts: &[u64], bin: f64, arrivals: f64, window: f64| {
        let peak = counts.iter().copied().max().unwrap_or(0) as f64 / bin;
        let mean = arrivals / window.max(bin);
        Rates {
            peak_per_s: peak,
            mean_per_s: mean,
            peak_to_mean: if mean > 0.0 { peak / mean } else { 0.0 },
            window_s: window.max(bin),
        }
    };
    let n = deliveries as f64;
    let first_retry = rates(
        &first,
        1.0,
        if retries > 0 { n } else { 0.0 },
        policy.gap(1),
    );
    let whole = rates(
        &per_bin,
        bin_s,
        n * f64::from(retries),
        policy.schedule().give_up_s(),
    );
    Ok(Herd {
        deliveries,
        mode: jitter.name().to_string(),
        seed,
        bin_s,
        per_second: per_bin,
        first_retry_per_second: first,
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

    /// The table form: the caption, compared with `spike` when one is given.
    pub fn to_table(&self, spike: Option<&Herd>) -> String {
        format!("{}\n", self.caption(spike))
    }

    /// The herd's numbers in words, compared with the unjittered spike when one is given.
    pub fn caption(&self, spike: Option<&Herd>) -> String {
        let first = &self.first_retry;
        let mut text = format!(
            "{} deliveries fail in the same second. With {} jitter (seed {}) their first retries peak at {:.0} \
             per second against a mean of {:.1} per second over the {} window ({:.1}× the mean).",
            self.deliveries,
            self.mode,
            self.seed,
            first.peak_per_s,
            first.mean_per_s,
            crate::format_duration(first.window_s),
            first.peak_to_mean,
        );
        if let Some(spike) = spike.filter(|s| s.mode != self.mode) {
            text += &format!(
                " Without jitter all {:.0} arrive within one second, {:.0}× the mean.",
                spike.first_retry.peak_per_s, spike.first_retry.peak_to_mean
            );
        }
        text += &format!(
            " Over the whole schedule retries peak at {:.0} per second ({:.0}× the mean of {:.2}).",
            self.peak_per_s, self.peak_to_mean, self.mean_per_s
        );
        text
    }

    /// CSV: one line per second with first retries and all retries (per bin, without the
    /// first-retry column, when the schedule is too long for one-second bins).
    pub fn to_csv(&self) -> String {
        if self.bin_s != 1.0 {
            let mut out = String::from("bin_start_s,retries\n");
            for (i, count) in self.per_second.iter().enumerate() {
                out += &format!("{},{count}\n", i as f64 * self.bin_s);
            }
            return out;
        }
        let mut out = String::from("second,first_retries,retries\n");
        for (i, count) in self.per_second.iter().enumerate() {
            let first = self.first_retry_per_second.get(i).copied().unwrap_or(0);
            out += &format!("{i},{first},{count}\n");
        }
        out
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
        assert!(h.per_second.len() <= 1_000_002);
        assert!(h.bin_s > 1.0);
        assert_eq!(h.per_second.iter().sum::<u64>(), 10 * 9_999);
    }
}
