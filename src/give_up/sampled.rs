//! Give-up times drawn from a seeded sample: their mean, percentiles and histogram.

use serde::{Deserialize, Serialize};

use super::exact::{gap_windows, offset_and_widths};
use super::{Percentiles, LEVELS};
use crate::batches::{batch_of, in_batches};
use crate::jitter::{seeded_rng, Gaps, Jitter};
use crate::{Error, Policy};

/// The most samples one question may draw.
pub const MAX_SAMPLES: usize = 10_000_000;

/// The give-up times `jitter` and the JS API's `jitter` sample when not told how many, as long
/// as the work limit allows that many (see [`crate::Params::samples_for`]).
pub const DEFAULT_SAMPLES: usize = 1_000_000;

/// Histogram bins of the sampled give-up times in reports and charts.
pub const HISTOGRAM_BINS: usize = 60;

/// Give-up times drawn from a seeded sample.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sampled {
    /// How many give-up times were drawn.
    pub samples: usize,
    /// The seed they were drawn with.
    #[cfg_attr(test, ts(type = "number"))]
    pub seed: u64,
    /// Their mean, seconds.
    pub mean_s: f64,
    /// The standard error of the mean.
    pub std_error_s: f64,
    /// Their percentiles.
    pub percentiles: Percentiles,
    /// A histogram of them, for the chart.
    pub histogram: Histogram,
}

/// Counts in equal bins starting at `start_s`.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Histogram {
    /// The left edge of the first bin, seconds.
    pub start_s: f64,
    /// The width of every bin, seconds.
    pub bin_s: f64,
    /// How many values fell in each bin.
    #[cfg_attr(test, ts(type = "Array<number>"))]
    pub counts: Vec<u64>,
}

/// What a seeded sample draws: how many give-up times, with which seed, into how many histogram
/// bins (0 for none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sampling {
    /// How many give-up times to draw, from 1 to [`MAX_SAMPLES`].
    pub samples: usize,
    /// The seed of the generator they are drawn with.
    pub seed: u64,
    /// Histogram bins, from 0 (none) to 10,000.
    pub bins: usize,
}

/// Refuses `samples` give-up times of `policy` under `jitter` past the work limit
/// ([`crate::limits::check_draws`]), before any is drawn.
pub(crate) fn check_samples(policy: &Policy, jitter: Jitter, samples: usize) -> Result<(), Error> {
    crate::limits::check_draws(
        "samples",
        samples,
        policy.attempts(),
        jitter,
        crate::limits::Draws::GiveUpTimes,
    )
}

/// Draws `sampling.samples` give-up times with its seed and summarises them in its histogram
/// bins. Refuses 0 samples, more than [`MAX_SAMPLES`], and more draws than
/// [`crate::limits::MAX_DRAWS`], before allocating anything.
///
/// # Example
/// ```
/// use backoff_lab::give_up::{sample, Sampling};
/// use backoff_lab::jitter::Jitter;
/// use backoff_lab::Policy;
/// let sampling = Sampling { samples: 10_000, seed: 42, bins: 40 };
/// let a = sample(&Policy::article(), Jitter::Full, sampling)?;
/// let b = sample(&Policy::article(), Jitter::Full, sampling)?;
/// assert_eq!(a, b);
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn sample(policy: &Policy, jitter: Jitter, sampling: Sampling) -> Result<Sampled, Error> {
    let Sampling {
        samples,
        seed,
        bins,
    } = sampling;
    jitter.check_applies_to(policy)?;
    if !(1..=MAX_SAMPLES).contains(&samples) {
        return Err(Error::out_of_range(
            "samples",
            samples,
            "a whole number from 1 to 10000000",
        ));
    }
    check_samples(policy, jitter, samples)?;
    if bins > 10_000 {
        return Err(Error::out_of_range(
            "bins",
            bins,
            "a whole number from 0 to 10000",
        ));
    }
    let mut times = give_up_times(policy, jitter, samples, &mut seeded_rng(seed)?);
    let n = samples as f64;
    let mean = times.iter().sum::<f64>() / n;
    let variance = times.iter().map(|t| (t - mean) * (t - mean)).sum::<f64>() / (n - 1.0).max(1.0);
    let (lo, hi) = times
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &t| {
            (
                crate::numbers::smaller(lo, t),
                crate::numbers::larger(hi, t),
            )
        });
    let histogram = histogram(&times, lo, hi, bins);
    let percentiles = Percentiles::from_values(nearest_ranks(&mut times, LEVELS));
    Ok(Sampled {
        samples,
        seed,
        mean_s: mean,
        std_error_s: (variance / n).sqrt(),
        percentiles,
        histogram,
    })
}

/// The nearest-rank percentile of a sample: the smallest value with at least `level` of the
/// values at or below it. Reorders `values` (a partial sort, not a full one).
pub(crate) fn nearest_rank(values: &mut [f64], level: f64) -> f64 {
    nearest_ranks(values, [level])[0]
}

/// [`nearest_rank`] at each of `levels`, which must ascend. The middle level is selected
/// first, among all the values; the levels below it then among the values left of its position
/// (which a partial sort leaves no larger), those above among the values right of it, and so
/// on: five percentiles of a sample cost about two and a half passes over it instead of five.
/// Afterwards every value right of the highest level's position is at least that percentile.
pub(crate) fn nearest_ranks<const N: usize>(values: &mut [f64], levels: [f64; N]) -> [f64; N] {
    let ranks = levels.map(|level| rank_of(values.len(), level));
    select_ranks(values, ranks, f64::total_cmp)
}

/// The values at each of `ranks` (ascending positions) in `values` sorted by `order`, placed
/// there as [`nearest_ranks`] places them: afterwards every value right of the highest rank's
/// position is at least the one there.
pub(crate) fn select_ranks<T: Copy + Default, const N: usize>(
    values: &mut [T],
    ranks: [usize; N],
    order: impl Fn(&T, &T) -> std::cmp::Ordering,
) -> [T; N] {
    debug_assert!(ranks.is_sorted(), "ranks ascend");
    let mut found = [T::default(); N];
    select_within(values, 0, &ranks, &mut found, &order);
    found
}

/// Places each of `ranks` (ascending positions in the sorted whole, of which `values` is the
/// part from `offset`) and writes its value to `found`.
fn select_within<T: Copy>(
    values: &mut [T],
    offset: usize,
    ranks: &[usize],
    found: &mut [T],
    order: &impl Fn(&T, &T) -> std::cmp::Ordering,
) {
    // The lower middle: of two levels (a median and a p95), the median first.
    let Some(&middle) = ranks.get(ranks.len().saturating_sub(1) / 2) else {
        return;
    };
    let (left, &mut value, right) = values.select_nth_unstable_by(middle - offset, order);
    let below = ranks.partition_point(|&rank| rank < middle);
    let above = ranks.partition_point(|&rank| rank <= middle);
    found[below..above].fill(value);
    select_within(left, offset, &ranks[..below], &mut found[..below], order);
    select_within(
        right,
        middle + 1,
        &ranks[above..],
        &mut found[above..],
        order,
    );
}

/// The 0-based position of the nearest-rank percentile `level` among `len` sorted values.
pub(crate) fn rank_of(len: usize, level: f64) -> usize {
    ((level * len as f64).ceil() as usize).clamp(1, len) - 1
}

/// Draws `samples` give-up times of `policy` with `jitter` from `rng`. The caller bounds
/// `samples` (see [`MAX_SAMPLES`]): this allocates eight bytes per sample.
pub fn give_up_times(
    policy: &Policy,
    jitter: Jitter,
    samples: usize,
    rng: &mut impl rand::Rng,
) -> Vec<f64> {
    let mut times = Vec::with_capacity(samples);
    match gap_windows(policy, jitter) {
        // Independent gaps: the sum of the lower ends plus width × uniform per gap.
        Some(windows) => {
            let (offset, widths) = offset_and_widths(&windows);
            in_batches(samples, batch_of(widths.len()), |n| {
                for _ in 0..n {
                    let spread: f64 = widths
                        .iter()
                        .map(|w| w * rand::RngExt::random::<f64>(rng))
                        .sum();
                    times.push(offset + spread);
                }
            });
        }
        None => {
            let retries = policy.attempts() - 1;
            let gaps = Gaps::new(policy, jitter);
            in_batches(samples, batch_of(retries as usize), |n| {
                for _ in 0..n {
                    let mut sampler = gaps.sampler();
                    times.push((0..retries).map(|_| sampler.next_gap(rng)).sum());
                }
            });
        }
    }
    times
}

fn histogram(values: &[f64], lo: f64, hi: f64, bins: usize) -> Histogram {
    if bins == 0 {
        return Histogram {
            start_s: lo,
            bin_s: 0.0,
            counts: Vec::new(),
        };
    }
    let bin_s = if hi > lo {
        (hi - lo) / bins as f64
    } else {
        1.0
    };
    let mut counts = vec![0u64; bins];
    for v in values {
        let i = (((v - lo) / bin_s) as usize).min(bins - 1);
        counts[i] += 1;
    }
    Histogram {
        start_s: lo,
        bin_s,
        counts,
    }
}

#[cfg(test)]
mod tests {
    use super::super::exact::GRID;
    use super::super::{distribution, SumOfUniforms};
    use super::*;
    use crate::Stop;

    fn sampling(samples: usize, seed: u64) -> Sampling {
        Sampling {
            samples,
            seed,
            bins: 0,
        }
    }

    #[test]
    fn exact_and_sampled_agree_within_the_statistical_tolerance() {
        let policies = [
            (Policy::article(), Jitter::Full),
            (Policy::article(), Jitter::Equal),
            (
                Policy::new(1.0, 1.6, 120.0, Stop::Attempts(20)).unwrap(),
                Jitter::Proportional(crate::jitter::Factor::GRPC),
            ),
            (
                Policy::new(1.0, 2.0, 20.0, Stop::Attempts(3)).unwrap(),
                Jitter::Full,
            ),
        ];
        let n = 400_000;
        for (policy, jitter) in policies {
            let exact = distribution(&policy, jitter).unwrap();
            let sampled = sample(&policy, jitter, sampling(n, 42)).unwrap();
            let sum = SumOfUniforms::new(
                (1..policy.attempts()).filter_map(|r| jitter.window(policy.gap(r))),
            );
            // The mean: within 5 standard errors.
            let mean_gap = (sampled.mean_s - exact.expected_give_up_s).abs();
            assert!(
                mean_gap < 5.0 * sampled.std_error_s,
                "{jitter:?}: mean off by {mean_gap}"
            );
            // Each percentile: a sample quantile's standard error is sqrt(p(1-p)/n) / density,
            // plus the grid's resolution.
            for ((level, exact_q), (_, sampled_q)) in exact
                .percentiles
                .pairs()
                .iter()
                .zip(sampled.percentiles.pairs())
            {
                let se = (level * (1.0 - level) / n as f64).sqrt() / sum.density(*exact_q);
                let tolerance = 5.0 * se + 2.0 * (exact.range_s.1 - exact.range_s.0) / GRID as f64;
                assert!((exact_q - sampled_q).abs() < tolerance, "{jitter:?} p{level}: exact {exact_q}, sampled {sampled_q}, tolerance {tolerance}");
            }
        }
    }

    #[test]
    fn sizes_are_refused_before_allocating() {
        let policy = Policy::article();
        assert_eq!(
            sample(&policy, Jitter::Full, sampling(10_000_001, 1))
                .unwrap_err()
                .to_string(),
            "samples must be a whole number from 1 to 10000000, got 10000001"
        );
        assert!(sample(&policy, Jitter::Full, sampling(0, 1)).is_err());
    }
}
