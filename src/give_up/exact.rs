//! The exact distribution of the give-up time: with independent gaps it is the distribution of
//! a sum of uniforms, convolved numerically on a grid. The decorrelated mode has no closed
//! form: it gets an estimate from a fixed-seed sample, marked as such.

use std::ops::Deref;

use serde::{Deserialize, Serialize};

use super::{sample, Percentiles};
use crate::jitter::Jitter;
use crate::{Error, Policy};

/// Grid points of the exact distribution: its percentiles are within `W / GRID` of the truth,
/// where `W` is the spread of the give-up time (well inside 0.1% of the give-up time).
pub(super) const GRID: usize = 8_192;
/// Samples behind the decorrelated estimates, which have no closed form (fewer for schedules so
/// long that these would take more than a tenth of [`crate::limits::MAX_DRAWS`]).
const DECORRELATED_SAMPLES: usize = 200_000;
/// The fixed seed of those estimates, so that the same question gives the same answer.
pub(super) const DECORRELATED_SEED: u64 = 0x5eed;

/// The give-up time in figures: its expected value, percentiles and range. A
/// [`GiveUpDistribution`] and a [`JitterReport`](super::JitterReport) each hold one, flattened
/// in their JSON.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GiveUpSummary {
    /// `true` when computed exactly; `false` for the decorrelated mode, estimated by sampling.
    pub exact: bool,
    /// The expected give-up time, seconds.
    pub expected_give_up_s: f64,
    /// The standard error of `expected_give_up_s` when it is an estimate.
    pub expected_std_error_s: Option<f64>,
    /// Percentiles of the give-up time (exact unless `exact` is false).
    pub percentiles: Percentiles,
    /// The give-up time without jitter.
    pub unjittered_give_up_s: f64,
    /// The earliest and latest possible give-up times.
    pub range_s: (f64, f64),
}

/// The distribution of the give-up time, exact where a closed form or convolution exists. It
/// reads as its summary (`distribution.expected_give_up_s`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GiveUpDistribution {
    /// The expected value, percentiles and range.
    #[serde(flatten)]
    pub summary: GiveUpSummary,
    /// The give-up time's cumulative distribution on a grid: `(seconds, probability)` pairs,
    /// thinned to at most 512 points (empty for estimates).
    pub cdf: Vec<(f64, f64)>,
}

impl Deref for GiveUpDistribution {
    type Target = GiveUpSummary;

    fn deref(&self) -> &GiveUpSummary {
        &self.summary
    }
}

/// The cumulative distribution of a sum of independent uniforms `U(lo_k, hi_k)`, on a grid.
///
/// Each convolution on the grid widens the distribution a little beyond the uniform it adds
/// (about a sixth of a squared grid step of variance: the grid's distribution is piecewise
/// linear again after every step), which a long schedule accumulates: 5,000 retries put the
/// first percentile 25 grid steps too low. So the grid's times are read through the one linear
/// map that gives the distribution the sum's exact mean and variance (`Σ (lo + hi) / 2`,
/// `Σ (hi − lo)² / 12`), `x ↦ mean + (x − grid mean) × sd / grid sd`, which undoes that
/// widening where it matters (a long sum is close to normal, and widening a normal is this
/// scaling) and moves a short one by far less than a step.
#[derive(Debug, Clone, PartialEq)]
pub struct SumOfUniforms {
    offset: f64,
    step: f64,
    cdf: Vec<f64>,
    /// The grid distribution's mean, the exact mean, and exact sd ÷ grid sd.
    moments: Moments,
}

/// The linear map from the grid's times to the sum's: `exact + (x − grid) × scale`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Moments {
    grid: f64,
    exact: f64,
    scale: f64,
}

impl Moments {
    const NONE: Moments = Moments {
        grid: 0.0,
        exact: 0.0,
        scale: 1.0,
    };

    /// The map for `cdf` (from `offset` in steps of `step`) onto `widths` above `offset`: the
    /// grid's moments read with a uniform density within each cell, as its quantiles read it,
    /// over the grid's total mass (rounding leaves its last point a hair below 1).
    fn of(cdf: &[f64], offset: f64, step: f64, widths: &[f64]) -> Moments {
        let mid = |i: usize| step * (i as f64 - 0.5);
        let mass = |i: usize| cdf[i] - cdf[i - 1];
        let total: f64 = (1..cdf.len()).map(mass).sum();
        let mean = (1..cdf.len()).map(|i| mass(i) * mid(i)).sum::<f64>() / total;
        let spread = (1..cdf.len())
            .map(|i| mass(i) * (mid(i) - mean).powi(2))
            .sum::<f64>()
            / total
            + step * step / 12.0;
        let exact_variance: f64 = widths.iter().map(|w| w * w / 12.0).sum();
        let scale = (exact_variance / spread).sqrt();
        if scale.is_finite() && scale > 0.0 {
            Moments {
                grid: offset + mean,
                exact: offset + widths.iter().sum::<f64>() / 2.0,
                scale,
            }
        } else {
            Moments::NONE
        }
    }

    fn time(&self, grid_time: f64) -> f64 {
        self.exact + (grid_time - self.grid) * self.scale
    }
}

impl SumOfUniforms {
    /// Convolves the uniforms' densities one at a time. With `F` the distribution so far and
    /// `G` its integral, adding `U(0, w)` gives `F'(x) = (G(x) − G(x − w)) / w`: one pass each.
    pub fn new(windows: impl IntoIterator<Item = (f64, f64)>) -> Self {
        Self::with_grid(windows, GRID)
    }

    /// The same on a grid of `grid` points: coarser is faster, and percentiles are within
    /// `spread / grid` of the truth.
    pub fn with_grid(windows: impl IntoIterator<Item = (f64, f64)>, grid: usize) -> Self {
        let grid = grid.max(16);
        let windows: Vec<(f64, f64)> = windows.into_iter().collect();
        let (offset, widths) = offset_and_widths(&windows);
        let spread: f64 = widths.iter().sum();
        let step = spread / grid as f64;
        // A spread too small to divide into cells (5e-324 s) is a point.
        if step <= 0.0 {
            return SumOfUniforms {
                offset,
                step: 0.0,
                cdf: vec![1.0],
                moments: Moments::NONE,
            };
        }
        let mut cdf = vec![1.0; grid + 1];
        let mut integral = vec![0.0; grid + 1];
        let mut next = vec![0.0; grid + 1];
        for &width in &widths {
            let cells = width / step;
            let shift = cells.floor() as usize;
            if shift == 0 {
                // A width within one cell: the mean of the linear `F` over `[x − w, x]`, its value
                // at `x − w/2`. The integrals' difference is the same number, but subtracting two
                // integrals of the whole range and dividing by a width a million times narrower
                // than a cell amplified their rounding a million times.
                let half = width / (2.0 * step);
                next[0] = 0.0;
                for i in 1..=grid {
                    next[i] = (cdf[i] - half * (cdf[i] - cdf[i - 1])).clamp(0.0, 1.0);
                }
            } else {
                for i in 1..=grid {
                    integral[i] = integral[i - 1] + step * (cdf[i - 1] + cdf[i]) / 2.0;
                }
                // G(x) at the grid points is `integral`; G(x − w) falls a fixed fraction `t` of
                // a cell past grid point i − shift − 1, where G is quadratic between grid points.
                let t = 1.0 - (cells - cells.floor());
                let (linear, quadratic) = (step * t, step * t * t / 2.0);
                let per_width = 1.0 / width;
                for (i, next) in next.iter_mut().enumerate() {
                    let behind = match i.checked_sub(shift + 1) {
                        Some(c) => {
                            integral[c] + linear * cdf[c] + quadratic * (cdf[c + 1] - cdf[c])
                        }
                        None => 0.0,
                    };
                    *next = ((integral[i] - behind) * per_width).clamp(0.0, 1.0);
                }
            }
            std::mem::swap(&mut cdf, &mut next);
        }
        let moments = Moments::of(&cdf, offset, step, &widths);
        SumOfUniforms {
            offset,
            step,
            cdf,
            moments,
        }
    }

    /// The smallest time by which a share `level` of deliveries has given up.
    pub fn quantile(&self, level: f64) -> f64 {
        if self.step == 0.0 {
            return self.offset;
        }
        let i = self.cdf.partition_point(|&f| f < level);
        if i == 0 {
            return self.time(0.0);
        }
        let i = i.min(self.cdf.len() - 1);
        let (f0, f1) = (self.cdf[i - 1], self.cdf[i]);
        let t = if f1 > f0 {
            (level - f0) / (f1 - f0)
        } else {
            0.0
        };
        self.time((i - 1) as f64 + t)
    }

    /// The time at grid position `cells` (a fraction of a cell allowed), within the sum's range.
    fn time(&self, cells: f64) -> f64 {
        let end = self.offset + self.step * (self.cdf.len() - 1) as f64;
        self.moments
            .time(self.offset + self.step * cells)
            .clamp(self.offset, end)
    }

    /// The probability density at `x` seconds (from the grid's slope).
    pub fn density(&self, x: f64) -> f64 {
        if self.step == 0.0 {
            return f64::INFINITY;
        }
        let m = self.moments;
        let grid_x = m.grid + (x - m.exact) / m.scale;
        let i =
            (((grid_x - self.offset) / self.step).round() as usize).clamp(1, self.cdf.len() - 1);
        (self.cdf[i] - self.cdf[i - 1]) / (self.step * m.scale)
    }

    /// How far a grid percentile may be from the truth: a cell or so; four cells is safe.
    pub(super) fn margin(&self) -> f64 {
        4.0 * self.step * self.moments.scale
    }

    fn thinned(&self) -> Vec<(f64, f64)> {
        let every = (self.cdf.len() / 512).max(1);
        self.cdf
            .iter()
            .enumerate()
            .filter(|(i, _)| i % every == 0 || *i == self.cdf.len() - 1)
            .map(|(i, f)| (self.time(i as f64), *f))
            .collect()
    }
}

/// The window each retry's gap is drawn from, first retry first; `None` for the decorrelated
/// mode, whose gaps depend on the ones before.
pub(super) fn gap_windows(policy: &Policy, jitter: Jitter) -> Option<Vec<(f64, f64)>> {
    (1..policy.attempts())
        .map(|retry| jitter.window(policy.gap(retry)))
        .collect()
}

/// A sum of uniforms as its fixed part (the sum of the lower ends) and the widths that vary
/// (zero widths left out).
pub(super) fn offset_and_widths(windows: &[(f64, f64)]) -> (f64, Vec<f64>) {
    let offset: f64 = windows.iter().map(|w| w.0).sum();
    let widths: Vec<f64> = windows
        .iter()
        .map(|w| w.1 - w.0)
        .filter(|w| *w > 0.0)
        .collect();
    (offset, widths)
}

/// The exact distribution of the give-up time of `policy` with `jitter`; for the decorrelated
/// mode, an estimate from a fixed-seed sample, marked `exact: false` with its standard error.
///
/// # Example
/// ```
/// use backoff_lab::give_up::distribution;
/// use backoff_lab::jitter::Jitter;
/// use backoff_lab::Policy;
/// let full = distribution(&Policy::article(), Jitter::Full)?;
/// assert_eq!(full.expected_give_up_s, 43_260.0);
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn distribution(policy: &Policy, jitter: Jitter) -> Result<GiveUpDistribution, Error> {
    jitter.check_applies_to(policy)?;
    let unjittered = policy.schedule().give_up_s();
    match gap_windows(policy, jitter) {
        Some(windows) => Ok(convolved(windows, unjittered)),
        None => estimated(policy, jitter, unjittered),
    }
}

/// The expected give-up time of `policy` under `jitter`, exact: the sum of its gaps' windows'
/// midpoints; `None` for decorrelated jitter, whose gaps depend on each other (estimated by
/// sampling in [`distribution`]).
pub fn expected_give_up_s(policy: &Policy, jitter: Jitter) -> Option<f64> {
    gap_windows(policy, jitter).map(|windows| mean_of(&windows))
}

/// The mean of a sum of uniforms drawn from `windows`.
fn mean_of(windows: &[(f64, f64)]) -> f64 {
    // `+ 0.0`: the empty sum of a single attempt is −0.0, which JSON would print as such.
    windows.iter().map(|(lo, hi)| (lo + hi) / 2.0).sum::<f64>() + 0.0
}

/// The exact distribution of a give-up time whose gaps are drawn from `windows`.
fn convolved(windows: Vec<(f64, f64)>, unjittered: f64) -> GiveUpDistribution {
    let expected = mean_of(&windows);
    let range = (
        windows.iter().map(|w| w.0).sum::<f64>() + 0.0,
        windows.iter().map(|w| w.1).sum::<f64>() + 0.0,
    );
    let sum = SumOfUniforms::new(windows);
    GiveUpDistribution {
        summary: GiveUpSummary {
            exact: true,
            expected_give_up_s: expected,
            expected_std_error_s: None,
            percentiles: Percentiles::from_fn(|level| sum.quantile(level)),
            unjittered_give_up_s: unjittered,
            range_s: range,
        },
        cdf: sum.thinned(),
    }
}

/// The estimated distribution of a give-up time whose gaps depend on each other.
fn estimated(
    policy: &Policy,
    jitter: Jitter,
    unjittered: f64,
) -> Result<GiveUpDistribution, Error> {
    // Fewer samples for long schedules: a tenth of the draws a report may take, at least 1000.
    let samples = crate::limits::affordable_samples(
        policy.attempts(),
        jitter,
        crate::limits::Draws::GiveUpTimes,
        0.1,
        (1_000, DECORRELATED_SAMPLES),
    );
    let estimate = sample(
        policy,
        jitter,
        super::Sampling {
            samples,
            seed: DECORRELATED_SEED,
            bins: 0,
        },
    )?;
    let (base, cap) = (policy.base_s(), policy.cap_s());
    let retries = f64::from(policy.attempts() - 1);
    // Each gap is at most three times the largest the previous could be, from the base, and
    // at most the cap.
    let mut top = base;
    let latest: f64 = (1..policy.attempts())
        .map(|_| {
            top = (top * 3.0).min(cap);
            top
        })
        .sum();
    Ok(GiveUpDistribution {
        summary: GiveUpSummary {
            exact: false,
            expected_give_up_s: estimate.mean_s,
            expected_std_error_s: Some(estimate.std_error_s),
            percentiles: estimate.percentiles,
            unjittered_give_up_s: unjittered,
            range_s: (base.min(cap) * retries, latest + 0.0),
        },
        cdf: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn article_expected_give_up_times() {
        let policy = Policy::article();
        let none = distribution(&policy, Jitter::None).unwrap();
        assert_eq!(none.expected_give_up_s, 86_520.0);
        assert_eq!(none.percentiles.p1, 86_520.0);
        assert_eq!(none.percentiles.p99, 86_520.0);
        assert_eq!(
            distribution(&policy, Jitter::Full)
                .unwrap()
                .expected_give_up_s,
            43_260.0
        );
        assert_eq!(
            distribution(&policy, Jitter::Equal)
                .unwrap()
                .expected_give_up_s,
            64_890.0
        );
        assert_eq!(
            distribution(&policy, Jitter::Proportional(crate::jitter::Factor::GRPC))
                .unwrap()
                .expected_give_up_s,
            86_520.0
        );
    }

    #[test]
    fn convolution_matches_closed_forms() {
        // Two U(0,1): triangular, F(x) = x²/2 below 1, so the p-quantile is sqrt(2p).
        let two = SumOfUniforms::new([(0.0, 1.0), (0.0, 1.0)]);
        for p in [0.01, 0.05, 0.3, 0.5] {
            assert!(
                (two.quantile(p) - (2.0 * p).sqrt()).abs() < 2.0 / GRID as f64,
                "p{p}"
            );
        }
        assert!((two.quantile(0.95) - (2.0 - (2.0 * 0.05f64).sqrt())).abs() < 2.0 / GRID as f64);
        // Three U(0,1) (Irwin–Hall): F(x) = x³/6 below 1.
        let three = SumOfUniforms::new([(0.0, 1.0); 3]);
        assert!((three.quantile(0.01) - 0.06f64.cbrt()).abs() < 3.0 / GRID as f64);
        assert!((three.quantile(0.5) - 1.5).abs() < 3.0 / GRID as f64);
        // One uniform is itself, shifted.
        let one = SumOfUniforms::new([(10.0, 20.0)]);
        assert!((one.quantile(0.25) - 12.5).abs() < 1e-9);
    }

    /// A long sum is normal to far better than a grid step (its excess kurtosis is −1.2 / n):
    /// 5,000 U(0, 1) have their percentiles at `n/2 + z × sqrt(n/12)`. Without the moment
    /// correction the first percentile sat 25 steps low.
    #[test]
    fn long_sums_keep_their_spread() {
        let n = 5_000.0;
        let sum = SumOfUniforms::new(vec![(0.0, 1.0); 5_000]);
        let sd = (n / 12.0_f64).sqrt();
        let step = n / GRID as f64;
        for (level, z) in [(0.01, -2.326_347_874), (0.5, 0.0), (0.95, 1.644_853_627)] {
            let expected = n / 2.0 + z * sd;
            let off = (sum.quantile(level) - expected).abs() / step;
            assert!(
                off < 0.5,
                "p{level}: {} against {expected}, {off:.1} steps",
                sum.quantile(level)
            );
        }
        // A capped schedule's long tail of equal gaps: the AWS SDK's standard mode kept until a
        // day.
        let policy = crate::presets::preset("aws-sdk-standard")
            .unwrap()
            .policy
            .with_stop(crate::Stop::GiveUpAfter(86_400.0))
            .unwrap();
        let windows = gap_windows(&policy, Jitter::Full).unwrap();
        let mean: f64 = windows.iter().map(|(lo, hi)| (lo + hi) / 2.0).sum();
        let variance: f64 = windows
            .iter()
            .map(|(lo, hi)| (hi - lo).powi(2) / 12.0)
            .sum();
        let sum = SumOfUniforms::new(windows.clone());
        let step = windows.iter().map(|(lo, hi)| hi - lo).sum::<f64>() / GRID as f64;
        let normal = mean - 2.326_347_874 * variance.sqrt();
        assert!(
            (sum.quantile(0.01) - normal).abs() < step,
            "p1 {} against the normal's {normal} (step {step})",
            sum.quantile(0.01)
        );
    }

    /// Gaps far narrower than a grid step before a long tail (a 100 µs base doubling up to a
    /// day, 2,000 attempts; a 1 µs base ×1000 up to 365 days): each narrow width's step must not
    /// divide a difference of two nearly equal integrals by it (that put p99 ten days, and p50 of
    /// the second at the sum's maximum). The sums are near normal: their percentiles are within
    /// a step of the normal's.
    #[test]
    fn narrow_gaps_before_a_long_tail_keep_the_percentiles() {
        for (base, multiplier, cap, attempts) in [
            (1e-4, 2.0, 86_400.0, 2_000),
            (1e-6, 1_000.0, 31_536_000.0, 10_000),
        ] {
            let policy =
                Policy::new(base, multiplier, cap, crate::Stop::Attempts(attempts)).unwrap();
            let windows = gap_windows(&policy, Jitter::Full).unwrap();
            let mean: f64 = windows.iter().map(|(lo, hi)| (lo + hi) / 2.0).sum();
            let sd = windows
                .iter()
                .map(|(lo, hi)| (hi - lo).powi(2) / 12.0)
                .sum::<f64>()
                .sqrt();
            let step = windows.iter().map(|(lo, hi)| hi - lo).sum::<f64>() / GRID as f64;
            let sum = SumOfUniforms::new(windows);
            for (level, z) in [(0.01, -2.326_347_874), (0.5, 0.0), (0.99, 2.326_347_874)] {
                let normal = mean + z * sd;
                let off = (sum.quantile(level) - normal).abs() / step;
                assert!(
                    off < 1.0,
                    "base {base}: p{level} {} against the normal's {normal}, {off:.1} steps",
                    sum.quantile(level)
                );
            }
        }
    }

    #[test]
    fn decorrelated_is_an_estimate_with_its_error() {
        let d = distribution(&Policy::article(), Jitter::Decorrelated).unwrap();
        assert!(!d.exact);
        let se = d.expected_std_error_s.unwrap();
        assert!(se > 0.0 && se < d.expected_give_up_s * 0.01);
        assert!(d.percentiles.p1 <= d.percentiles.p50 && d.percentiles.p50 <= d.percentiles.p99);
        // The latest give-up: gaps of at most 30, 90, 270 s (three times the last, from the
        // base) for a 10 s base and a 1000 s cap; not three caps.
        let short = Policy::new(10.0, 2.0, 1_000.0, crate::Stop::Attempts(4)).unwrap();
        let d = distribution(&short, Jitter::Decorrelated).unwrap();
        assert_eq!(d.range_s, (30.0, 390.0));
        assert!(d.percentiles.p99 <= 390.0);
        // One attempt gives up at once: +0, never −0 in JSON.
        let once = Policy::new(10.0, 2.0, 1_000.0, crate::Stop::Attempts(1)).unwrap();
        let d = distribution(&once, Jitter::Full).unwrap();
        assert!(d.expected_give_up_s.is_sign_positive() && d.range_s.1.is_sign_positive());
    }
}
