//! The give-up time of one jittered delivery: its expected value and percentiles, exactly (a
//! numerical convolution of the gaps' uniform distributions) and by seeded sampling.

use serde::{Deserialize, Serialize};

use crate::jitter::{seeded_rng, GapSampler, Jitter};
use crate::{Error, Policy, Stop};

/// The most samples one question may draw.
pub const MAX_SAMPLES: usize = 10_000_000;
/// Grid points of the exact distribution: its percentiles are within `W / GRID` of the truth,
/// where `W` is the spread of the give-up time (well inside 0.1% of the give-up time).
const GRID: usize = 8_192;
/// Samples behind the decorrelated estimates, which have no closed form.
const DECORRELATED_SAMPLES: usize = 200_000;
/// The fixed seed of those estimates, so that the same question gives the same answer.
const DECORRELATED_SEED: u64 = 0x5eed;

/// Histogram bins of the sampled give-up times in reports and charts.
pub const HISTOGRAM_BINS: usize = 60;

/// The percentiles reported everywhere.
pub const LEVELS: [f64; 5] = [0.01, 0.05, 0.50, 0.95, 0.99];

/// Give-up time percentiles, in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Percentiles {
    /// 1st percentile.
    pub p1: f64,
    /// 5th percentile.
    pub p5: f64,
    /// Median.
    pub p50: f64,
    /// 95th percentile.
    pub p95: f64,
    /// 99th percentile.
    pub p99: f64,
}

impl Percentiles {
    fn from_fn(mut at: impl FnMut(f64) -> f64) -> Self {
        let [p1, p5, p50, p95, p99] = LEVELS.map(&mut at);
        Percentiles {
            p1,
            p5,
            p50,
            p95,
            p99,
        }
    }

    /// The percentiles as (level, seconds) pairs, lowest first.
    pub fn pairs(&self) -> [(f64, f64); 5] {
        [
            (0.01, self.p1),
            (0.05, self.p5),
            (0.50, self.p50),
            (0.95, self.p95),
            (0.99, self.p99),
        ]
    }
}

/// The distribution of the give-up time, exact where a closed form or convolution exists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GiveUpDistribution {
    /// `true` when computed exactly; `false` for the decorrelated mode, estimated by sampling.
    pub exact: bool,
    /// The expected give-up time, seconds.
    pub expected_give_up_s: f64,
    /// The standard error of `expected_give_up_s` when it is an estimate.
    pub expected_std_error_s: Option<f64>,
    /// Percentiles of the give-up time.
    pub percentiles: Percentiles,
    /// The give-up time without jitter.
    pub unjittered_give_up_s: f64,
    /// The earliest and latest possible give-up times.
    pub range_s: (f64, f64),
    /// The give-up time's cumulative distribution on a grid: `(seconds, probability)` pairs,
    /// thinned to at most 512 points (empty for estimates).
    pub cdf: Vec<(f64, f64)>,
}

/// The cumulative distribution of a sum of independent uniforms `U(lo_k, hi_k)`, on a grid.
#[derive(Debug, Clone, PartialEq)]
pub struct SumOfUniforms {
    offset: f64,
    step: f64,
    cdf: Vec<f64>,
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
        let offset: f64 = windows.iter().map(|w| w.0).sum();
        let widths: Vec<f64> = windows
            .iter()
            .map(|w| w.1 - w.0)
            .filter(|w| *w > 0.0)
            .collect();
        let spread: f64 = widths.iter().sum();
        if spread <= 0.0 {
            return SumOfUniforms {
                offset,
                step: 0.0,
                cdf: vec![1.0],
            };
        }
        let step = spread / grid as f64;
        let mut cdf = vec![1.0; grid + 1];
        let mut integral = vec![0.0; grid + 1];
        let mut next = vec![0.0; grid + 1];
        for width in widths {
            for i in 1..=grid {
                integral[i] = integral[i - 1] + step * (cdf[i - 1] + cdf[i]) / 2.0;
            }
            // G(x) at the grid points is `integral`; G(x − w) falls a fixed fraction `t` of a
            // cell past grid point i − shift − 1, where G is quadratic between grid points.
            let cells = width / step;
            let shift = cells.floor() as usize;
            let t = 1.0 - (cells - cells.floor());
            let (linear, quadratic) = (step * t, step * t * t / 2.0);
            let per_width = 1.0 / width;
            for (i, next) in next.iter_mut().enumerate() {
                let behind = match i.checked_sub(shift + 1) {
                    Some(c) => integral[c] + linear * cdf[c] + quadratic * (cdf[c + 1] - cdf[c]),
                    None => 0.0,
                };
                *next = ((integral[i] - behind) * per_width).clamp(0.0, 1.0);
            }
            std::mem::swap(&mut cdf, &mut next);
        }
        SumOfUniforms { offset, step, cdf }
    }

    /// The smallest time by which a share `level` of deliveries has given up.
    pub fn quantile(&self, level: f64) -> f64 {
        if self.step == 0.0 {
            return self.offset;
        }
        let i = self.cdf.partition_point(|&f| f < level);
        if i == 0 {
            return self.offset;
        }
        let i = i.min(self.cdf.len() - 1);
        let (f0, f1) = (self.cdf[i - 1], self.cdf[i]);
        let t = if f1 > f0 {
            (level - f0) / (f1 - f0)
        } else {
            0.0
        };
        self.offset + self.step * ((i - 1) as f64 + t)
    }

    /// The probability density at `x` seconds (from the grid's slope).
    pub fn density(&self, x: f64) -> f64 {
        if self.step == 0.0 {
            return f64::INFINITY;
        }
        let i = (((x - self.offset) / self.step).round() as usize).clamp(1, self.cdf.len() - 1);
        (self.cdf[i] - self.cdf[i - 1]) / self.step
    }

    fn thinned(&self) -> Vec<(f64, f64)> {
        let every = (self.cdf.len() / 512).max(1);
        self.cdf
            .iter()
            .enumerate()
            .filter(|(i, _)| i % every == 0 || *i == self.cdf.len() - 1)
            .map(|(i, f)| (self.offset + self.step * i as f64, *f))
            .collect()
    }
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
    let unjittered = policy.schedule().give_up_s();
    let windows: Option<Vec<(f64, f64)>> = (1..policy.attempts())
        .map(|retry| jitter.window(policy.gap(retry)))
        .collect();
    match windows {
        Some(windows) => {
            let expected = windows.iter().map(|(lo, hi)| (lo + hi) / 2.0).sum();
            let range = (
                windows.iter().map(|w| w.0).sum(),
                windows.iter().map(|w| w.1).sum(),
            );
            let sum = SumOfUniforms::new(windows);
            Ok(GiveUpDistribution {
                exact: true,
                expected_give_up_s: expected,
                expected_std_error_s: None,
                percentiles: Percentiles::from_fn(|level| sum.quantile(level)),
                unjittered_give_up_s: unjittered,
                range_s: range,
                cdf: sum.thinned(),
            })
        }
        None => {
            let estimate = sample(policy, jitter, DECORRELATED_SAMPLES, DECORRELATED_SEED, 0)?;
            let cap = policy.cap_s();
            let retries = f64::from(policy.attempts() - 1);
            Ok(GiveUpDistribution {
                exact: false,
                expected_give_up_s: estimate.mean_s,
                expected_std_error_s: Some(estimate.std_error_s),
                percentiles: estimate.percentiles,
                unjittered_give_up_s: unjittered,
                range_s: (policy.base_s().min(cap) * retries, cap * retries),
                cdf: Vec::new(),
            })
        }
    }
}

/// Give-up times drawn from a seeded sample.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sampled {
    /// How many give-up times were drawn.
    pub samples: usize,
    /// The seed they were drawn with.
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Histogram {
    /// The left edge of the first bin, seconds.
    pub start_s: f64,
    /// The width of every bin, seconds.
    pub bin_s: f64,
    /// How many values fell in each bin.
    pub counts: Vec<u64>,
}

/// Draws `samples` give-up times with `seed` and summarises them (`bins` histogram bins; 0 for
/// none). Refuses 0 samples and more than [`MAX_SAMPLES`] before allocating anything.
///
/// # Example
/// ```
/// use backoff_lab::give_up::sample;
/// use backoff_lab::jitter::Jitter;
/// use backoff_lab::Policy;
/// let a = sample(&Policy::article(), Jitter::Full, 10_000, 42, 40)?;
/// let b = sample(&Policy::article(), Jitter::Full, 10_000, 42, 40)?;
/// assert_eq!(a, b);
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn sample(
    policy: &Policy,
    jitter: Jitter,
    samples: usize,
    seed: u64,
    bins: usize,
) -> Result<Sampled, Error> {
    if !(1..=MAX_SAMPLES).contains(&samples) {
        return Err(Error::out_of_range(
            "samples",
            samples,
            "a whole number from 1 to 10000000",
        ));
    }
    if bins > 10_000 {
        return Err(Error::out_of_range(
            "bins",
            bins,
            "a whole number from 0 to 10000",
        ));
    }
    let times = give_up_times(policy, jitter, samples, &mut seeded_rng(seed)?);
    let mut times = times;
    let n = samples as f64;
    let mean = times.iter().sum::<f64>() / n;
    let variance = times.iter().map(|t| (t - mean) * (t - mean)).sum::<f64>() / (n - 1.0).max(1.0);
    let (lo, hi) = times
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &t| {
            (lo.min(t), hi.max(t))
        });
    let histogram = histogram(&times, lo, hi, bins);
    let percentiles = Percentiles::from_fn(|level| {
        // Nearest rank: the smallest sample with at least `level` of the samples at or below it.
        let rank = ((level * n).ceil() as usize).clamp(1, samples) - 1;
        *times.select_nth_unstable_by(rank, f64::total_cmp).1
    });
    Ok(Sampled {
        samples,
        seed,
        mean_s: mean,
        std_error_s: (variance / n).sqrt(),
        percentiles,
        histogram,
    })
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
    let retries = policy.attempts() - 1;
    match (1..=retries)
        .map(|r| jitter.window(policy.gap(r)))
        .collect::<Option<Vec<_>>>()
    {
        // Independent gaps: the sum of the lower ends plus width × uniform per gap.
        Some(windows) => {
            let offset: f64 = windows.iter().map(|w| w.0).sum();
            let widths: Vec<f64> = windows
                .iter()
                .map(|w| w.1 - w.0)
                .filter(|w| *w > 0.0)
                .collect();
            for _ in 0..samples {
                let spread: f64 = widths
                    .iter()
                    .map(|w| w * rand::RngExt::random::<f64>(rng))
                    .sum();
                times.push(offset + spread);
            }
        }
        None => {
            for _ in 0..samples {
                let mut sampler = GapSampler::new(policy, jitter);
                times.push((0..retries).map(|_| sampler.next_gap(rng)).sum());
            }
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

/// The smallest attempt count for which the `level` percentile of the jittered give-up time
/// still reaches `deadline_s`: with full jitter, a schedule sized on paper gives up early.
///
/// # Example
/// ```
/// use backoff_lab::give_up::deadline_safe_attempts;
/// use backoff_lab::jitter::Jitter;
/// use backoff_lab::Policy;
/// let policy = Policy::article();
/// // Unjittered, 24 h takes 14 attempts; with full jitter, 95% of deliveries need more.
/// assert!(deadline_safe_attempts(&policy, Jitter::Full, 86_400.0, 0.05)? > 14);
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn deadline_safe_attempts(
    policy: &Policy,
    jitter: Jitter,
    deadline_s: f64,
    level: f64,
) -> Result<u32, Error> {
    if !(level.is_finite() && level > 0.0 && level < 1.0) {
        return Err(Error::out_of_range(
            "percentile",
            level,
            "a share between 0 and 1, such as 0.05",
        ));
    }
    crate::policy::check_span(
        "give-up",
        deadline_s,
        "a duration greater than 0 s and at most 365 days",
    )?;
    // The chosen percentile of the give-up time with `attempts` attempts, on a grid of `grid`
    // points (decorrelated: from a fixed-seed sample), and how far off the grid may leave it.
    let quantile_on = |attempts: u32, grid: usize| -> Result<(f64, f64), Error> {
        let p = policy.with_stop(Stop::Attempts(attempts))?;
        // Bounded work per evaluation (grid × attempts): long schedules get a coarser grid.
        let grid = grid.min((4_000_000 / attempts.max(1) as usize).max(256));
        Ok(match jitter {
            Jitter::Decorrelated => {
                let samples = (4_000_000 / attempts.max(1) as usize).clamp(1_000, 20_000);
                let mut times =
                    give_up_times(&p, jitter, samples, &mut seeded_rng(DECORRELATED_SEED)?);
                let rank = ((level * times.len() as f64).ceil() as usize).clamp(1, times.len()) - 1;
                (*times.select_nth_unstable_by(rank, f64::total_cmp).1, 0.0)
            }
            // Past a few hundred gaps the sum is normal to far better than the grid resolves
            // (central limit theorem): its mean and variance are exact.
            _ if attempts > 400 => {
                let windows = (1..attempts).filter_map(|r| jitter.window(p.gap(r)));
                let (mean, variance) = windows.fold((0.0, 0.0), |(m, v), (lo, hi)| {
                    (m + (lo + hi) / 2.0, v + (hi - lo) * (hi - lo) / 12.0)
                });
                (
                    mean + variance.sqrt() * standard_normal_quantile(level),
                    0.0,
                )
            }
            _ => {
                let sum = SumOfUniforms::with_grid(
                    (1..attempts).filter_map(|r| jitter.window(p.gap(r))),
                    grid,
                );
                // A grid percentile is within a cell or so of the truth: four cells is safe.
                (sum.quantile(level), 4.0 * sum.step)
            }
        })
    };
    // The search runs on a coarse grid; the fine one settles only what the coarse cannot.
    let quantile = |attempts: u32| Ok::<f64, Error>(quantile_on(attempts, 1_024)?.0);
    let reaches = |attempts: u32| -> Result<bool, Error> {
        let (coarse, margin) = quantile_on(attempts, 1_024)?;
        Ok(if (coarse - deadline_s).abs() > margin {
            coarse >= deadline_s
        } else {
            quantile_on(attempts, GRID)?.0 >= deadline_s
        })
    };
    // The percentile grows with every attempt (each adds a non-negative gap): double until it
    // reaches the deadline, then bisect.
    let max = crate::policy::MAX_ATTEMPTS;
    let mut hi = 2u32;
    while quantile(hi)? < deadline_s {
        if hi == max {
            return Err(Error::Unreachable(format!(
                "even {max} attempts do not reach {} at the {}th percentile; raise the cap",
                crate::format_duration(deadline_s),
                level * 100.0
            )));
        }
        hi = (hi * 2).min(max);
    }
    let mut lo = hi / 2;
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if quantile(mid)? >= deadline_s {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    while lo < max && !reaches(lo)? {
        lo += 1;
    }
    while lo > 1 && reaches(lo - 1)? {
        lo -= 1;
    }
    Ok(lo)
}

/// The standard normal distribution's `p`-quantile (Acklam's rational approximation, relative
/// error below 1.2e-9), for `0 < p < 1`.
fn standard_normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969683028665376e1,
        2.209460984245205e2,
        -2.759285104469687e2,
        1.38357751867269e2,
        -3.066479806614716e1,
        2.506628277459239,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e1,
        1.615858368580409e2,
        -1.556989798598866e2,
        6.680131188771972e1,
        -1.328068155288572e1,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-3,
        -3.223964580411365e-1,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [
        7.784695709041462e-3,
        3.224671290700398e-1,
        2.445134137142996,
        3.754408661907416,
    ];
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// The answer to "how many attempts keep the chosen percentile above the deadline?".
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DeadlineSafe {
    /// The deadline, seconds.
    pub deadline_s: f64,
    /// The percentile as a share (0.05 for p5).
    pub percentile: f64,
    /// The smallest attempt count whose percentile give-up time reaches the deadline.
    pub attempts: u32,
}

/// One delivery under jitter: exact distribution, a seeded sample, and (when asked) the
/// deadline-safe attempt count. The CLI's `jitter --format json` and the JS API's `jitter`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JitterReport {
    /// The jitter mode's name.
    pub mode: String,
    /// The proportional factor, when the mode is proportional.
    pub factor: Option<f64>,
    /// Attempts in all.
    pub attempts: u32,
    /// Whether `expected_give_up_s` and `percentiles` are exact.
    pub exact: bool,
    /// The expected give-up time.
    pub expected_give_up_s: f64,
    /// Its standard error when estimated.
    pub expected_std_error_s: Option<f64>,
    /// Percentiles of the give-up time (exact unless `exact` is false).
    pub percentiles: Percentiles,
    /// The give-up time without jitter.
    pub unjittered_give_up_s: f64,
    /// The earliest and latest possible give-up times.
    pub range_s: (f64, f64),
    /// The seeded sample.
    pub sampled: Sampled,
    /// The deadline-safe attempt count, when a deadline was given.
    pub deadline_safe: Option<DeadlineSafe>,
    /// The numbers in words.
    pub caption: String,
}

impl JitterReport {
    /// Computes everything for one delivery: `samples` draws with `seed`, a histogram of `bins`.
    ///
    /// # Example
    /// ```
    /// use backoff_lab::give_up::JitterReport;
    /// use backoff_lab::jitter::Jitter;
    /// use backoff_lab::Policy;
    /// let report = JitterReport::new(&Policy::article(), Jitter::Equal, 10_000, 1, 40, None)?;
    /// assert_eq!(report.expected_give_up_s, 64_890.0);
    /// # Ok::<(), backoff_lab::Error>(())
    /// ```
    pub fn new(
        policy: &Policy,
        jitter: Jitter,
        samples: usize,
        seed: u64,
        bins: usize,
        deadline: Option<(f64, f64)>,
    ) -> Result<Self, Error> {
        let exact = distribution(policy, jitter)?;
        let sampled = sample(policy, jitter, samples, seed, bins)?;
        let deadline_safe = deadline
            .map(|(deadline_s, percentile)| {
                deadline_safe_attempts(policy, jitter, deadline_s, percentile).map(|attempts| {
                    DeadlineSafe {
                        deadline_s,
                        percentile,
                        attempts,
                    }
                })
            })
            .transpose()?;
        let caption = jitter_caption(jitter, &exact, &sampled, deadline_safe);
        Ok(JitterReport {
            mode: jitter.name().to_string(),
            factor: match jitter {
                Jitter::Proportional(f) => Some(f.get()),
                _ => None,
            },
            attempts: policy.attempts(),
            exact: exact.exact,
            expected_give_up_s: exact.expected_give_up_s,
            expected_std_error_s: exact.expected_std_error_s,
            percentiles: exact.percentiles,
            unjittered_give_up_s: exact.unjittered_give_up_s,
            range_s: exact.range_s,
            sampled,
            deadline_safe,
            caption,
        })
    }

    /// A table of exact and sampled figures, then the caption.
    pub fn to_table(&self) -> String {
        let fmt = crate::format_duration;
        let exact_head = if self.exact { "exact" } else { "estimate" };
        let mut rows = vec![[
            String::new(),
            exact_head.to_string(),
            format!(
                "sampled ({} draws, seed {})",
                self.sampled.samples, self.sampled.seed
            ),
        ]];
        let expected = match self.expected_std_error_s {
            Some(se) => format!("{} ± {}", fmt(self.expected_give_up_s), fmt(se)),
            None => fmt(self.expected_give_up_s),
        };
        rows.push([
            "expected".into(),
            expected,
            format!(
                "{} ± {}",
                fmt(self.sampled.mean_s),
                fmt(self.sampled.std_error_s)
            ),
        ]);
        for ((level, exact), (_, sampled)) in self
            .percentiles
            .pairs()
            .iter()
            .zip(self.sampled.percentiles.pairs())
        {
            rows.push([format!("p{}", level * 100.0), fmt(*exact), fmt(sampled)]);
        }
        rows.push([
            "unjittered".into(),
            fmt(self.unjittered_give_up_s),
            String::new(),
        ]);
        let width = |i: usize| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0);
        let (w0, w1) = (width(0), width(1));
        let mut out: String = rows
            .iter()
            .map(|r| {
                format!("{:<w0$}  {:<w1$}  {}\n", r[0], r[1], r[2])
                    .trim_end()
                    .to_string()
                    + "\n"
            })
            .collect();
        out += &format!("\n{}\n", self.caption);
        out
    }

    /// CSV: one line per percentile with the exact and the sampled value, seconds.
    pub fn to_csv(&self) -> String {
        let mut out = String::from("statistic,exact_s,sampled_s\n");
        out += &format!(
            "expected,{},{}\n",
            self.expected_give_up_s, self.sampled.mean_s
        );
        for ((level, exact), (_, sampled)) in self
            .percentiles
            .pairs()
            .iter()
            .zip(self.sampled.percentiles.pairs())
        {
            out += &format!("p{},{exact},{sampled}\n", level * 100.0);
        }
        out
    }
}

fn jitter_caption(
    jitter: Jitter,
    exact: &GiveUpDistribution,
    sampled: &Sampled,
    deadline_safe: Option<DeadlineSafe>,
) -> String {
    let fmt = crate::format_duration;
    let p = &exact.percentiles;
    let share = exact.expected_give_up_s / exact.unjittered_give_up_s.max(f64::MIN_POSITIVE);
    let mut text = if jitter == Jitter::None {
        format!(
            "Without jitter every delivery gives up at exactly {}.",
            fmt(exact.unjittered_give_up_s)
        )
    } else {
        format!(
            "With {} jitter a schedule that reads {} on paper gives up after {}{} on average ({:.0}% of it); \
             90% of deliveries give up between {} (p5) and {} (p95), and half before {}.",
            jitter.name(),
            fmt(exact.unjittered_give_up_s),
            fmt(exact.expected_give_up_s),
            if exact.exact { "" } else { " (estimated)" },
            share * 100.0,
            fmt(p.p5),
            fmt(p.p95),
            fmt(p.p50),
        )
    };
    text += &format!(
        " {} seeded draws (seed {}) average {}.",
        sampled.samples,
        sampled.seed,
        fmt(sampled.mean_s)
    );
    if let Some(d) = deadline_safe {
        text += &format!(
            " To keep {:.0}% of deliveries trying until {}, the schedule needs {} attempts.",
            (1.0 - d.percentile) * 100.0,
            fmt(d.deadline_s),
            d.attempts
        );
    }
    text
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
            let sampled = sample(&policy, jitter, n, 42, 0).unwrap();
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
    fn decorrelated_is_an_estimate_with_its_error() {
        let d = distribution(&Policy::article(), Jitter::Decorrelated).unwrap();
        assert!(!d.exact);
        let se = d.expected_std_error_s.unwrap();
        assert!(se > 0.0 && se < d.expected_give_up_s * 0.01);
        assert!(d.percentiles.p1 <= d.percentiles.p50 && d.percentiles.p50 <= d.percentiles.p99);
    }

    #[test]
    fn deadline_safe_sizing_reaches_the_deadline_at_the_percentile() {
        let policy = Policy::article();
        assert_eq!(
            deadline_safe_attempts(&policy, Jitter::None, 86_400.0, 0.05),
            Ok(14)
        );
        let n = deadline_safe_attempts(&policy, Jitter::Full, 86_400.0, 0.05).unwrap();
        let at = |n| {
            distribution(
                &Policy::new(30.0, 3.0, 10_800.0, Stop::Attempts(n)).unwrap(),
                Jitter::Full,
            )
            .unwrap()
            .percentiles
            .p5
        };
        assert!(at(n) >= 86_400.0 && at(n - 1) < 86_400.0, "n = {n}");
    }

    #[test]
    fn deadline_sizing_keeps_explicit_gaps_and_stays_bounded_for_long_schedules() {
        let svix = crate::presets::preset("svix").unwrap().policy;
        let n = deadline_safe_attempts(&svix, Jitter::Full, 86_400.0, 0.05).unwrap();
        let p5 = |n| {
            distribution(&svix.with_stop(Stop::Attempts(n)).unwrap(), Jitter::Full)
                .unwrap()
                .percentiles
                .p5
        };
        assert!(p5(n) >= 86_400.0 && p5(n - 1) < 86_400.0, "n = {n}");
        // A 20 s cap needs thousands of attempts for 24 h; the answer still comes, and reaches it.
        let short = Policy::new(1.0, 2.0, 20.0, Stop::Attempts(3)).unwrap();
        let n = deadline_safe_attempts(&short, Jitter::Full, 86_400.0, 0.05).unwrap();
        assert!((8_700..=8_760).contains(&n), "n = {n}");
    }

    #[test]
    fn normal_quantiles() {
        assert!((standard_normal_quantile(0.05) + 1.644_853_626_951).abs() < 1e-8);
        assert!((standard_normal_quantile(0.5)).abs() < 1e-12);
        assert!((standard_normal_quantile(0.99) - 2.326_347_874_041).abs() < 1e-8);
    }

    #[test]
    fn sizes_are_refused_before_allocating() {
        let policy = Policy::article();
        assert_eq!(
            sample(&policy, Jitter::Full, 10_000_001, 1, 0)
                .unwrap_err()
                .to_string(),
            "samples must be a whole number from 1 to 10000000, got 10000001"
        );
        assert!(sample(&policy, Jitter::Full, 0, 1, 0).is_err());
    }
}
