//! Sizing a jittered schedule for a deadline: with full jitter, a schedule sized on paper gives
//! up early, so the attempt count is chosen by a percentile of the give-up time instead.

use serde::{Deserialize, Serialize};

use super::exact::{gap_windows, DECORRELATED_SEED, GRID};
use super::sampled::{give_up_times, nearest_ranks};
use super::SumOfUniforms;
use crate::jitter::{seeded_rng, Jitter};
use crate::{Error, Policy, Stop};

/// The grid the search runs on; the fine one, [`GRID`], settles only what this cannot.
const COARSE_GRID: usize = 1_024;
/// Grid points × attempts one evaluation may cost: long schedules get a coarser grid.
const WORK: usize = 4_000_000;
/// Past this many attempts the sum of the gaps is normal to far better than the grid resolves
/// (central limit theorem), and its mean and variance are exact, unless one gap carries more
/// than [`NORMAL_SHARE`] of the variance (`--gaps 3600,5`: one hour spread and a thin tail).
const NORMAL_FROM: u32 = 400;
/// The largest share of the variance one gap may carry for the sum to be taken as normal.
const NORMAL_SHARE: f64 = 1.0 / 200.0;

/// The answer to "how many attempts keep the chosen percentile above the deadline?".
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DeadlineSafe {
    /// The deadline, seconds.
    pub deadline_s: f64,
    /// The percentile as a share (0.05 for p5).
    pub percentile: f64,
    /// The smallest attempt count whose percentile give-up time reaches the deadline.
    pub attempts: u32,
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
    jitter.check_applies_to(policy)?;
    if !(level.is_finite() && level > 0.0 && level < 1.0) {
        return Err(Error::out_of_range(
            "percentile",
            level,
            "a share between 0 and 1, such as 0.05",
        ));
    }
    crate::policy::check_duration("deadline", deadline_s)?;
    let percentile = Percentile {
        policy,
        jitter,
        level,
    };
    // The percentile grows with every attempt (each adds a non-negative gap): double until it
    // reaches the deadline, then bisect on the coarse grid, then settle on the fine one.
    let max = crate::policy::MAX_ATTEMPTS;
    let mut hi = 2u32;
    while !reached(percentile.coarse(hi)?, deadline_s) {
        if hi == max {
            // Written rounded down, as every limit: rounded to the nearest, "at most 1 h 23 min"
            // was itself refused.
            let latest = deadline_reach(policy, jitter, level)?;
            let (reach_text, deadline_text) = crate::format_limit(latest, deadline_s);
            return Err(Error::out_of_range(
                "deadline",
                deadline_text,
                format!(
                    "at most {reach_text}, what even {max} attempts reach at the {} \
                     percentile (or {})",
                    crate::number_text::ordinal(level * 100.0),
                    reaching_further(policy).0
                ),
            ));
        }
        hi = (hi * 2).min(max);
    }
    let mut lo = hi / 2;
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if reached(percentile.coarse(mid)?, deadline_s) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    while lo < max && !percentile.reaches(lo, deadline_s)? {
        lo += 1;
    }
    while lo > 1 && percentile.reaches(lo - 1, deadline_s)? {
        lo -= 1;
    }
    Ok(lo)
}

/// The smallest cap from `lo_s` to `hi_s` with which `policy`'s base, multiplier and `attempts`
/// keep the `level` percentile of the give-up time under `jitter` at or past `deadline_s`
/// (with `hi_s` they do), to the precision a cap is written in (that of `hi_s` by
/// [`crate::duration::cap_steps_per_second`]): the percentile grows with the cap, so it is bisected until the ends are a
/// step apart, the end that reaches rounded up to the step, and one step less tried, so that
/// the cap is the smallest written one that reaches. With decorrelated jitter each try draws thousands of
/// schedules, so `hi_s` is kept.
pub(crate) fn deadline_safe_cap(
    policy: &Policy,
    jitter: Jitter,
    (deadline_s, level): (f64, f64),
    attempts: u32,
    (lo_s, hi_s): (f64, f64),
) -> Result<f64, Error> {
    if jitter == Jitter::Decorrelated {
        return Ok(hi_s);
    }
    let reaches = |cap: f64| -> Result<bool, Error> {
        let capped = Policy::new(policy.base_s(), policy.multiplier(), cap, Stop::Attempts(1))?;
        let percentile = Percentile {
            policy: &capped,
            jitter,
            level,
        };
        percentile.reaches(attempts, deadline_s)
    };
    let (mut lo, mut hi) = (lo_s, hi_s);
    if reaches(lo)? {
        return Ok(lo);
    }
    // Forty halvings on the fine grid took a second for a 386-attempt schedule, and the cap
    // they found, written to the millisecond, could fall short when typed back.
    let per_second = crate::duration::cap_steps_per_second(hi_s);
    while (hi - lo) * per_second > 1.0 {
        let mid = lo + (hi - lo) / 2.0;
        if reaches(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    // `hi` reaches and lies within a step of the least cap that does, so rounded up it may
    // pass a written step that reaches too (1.132 s where 1.131 s did: outside review).
    let steps = (hi * per_second).ceil();
    let (written, below) = ((steps / per_second).min(hi_s), (steps - 1.0) / per_second);
    // At or below `lo`, which falls short, nothing is left to try.
    Ok(if below > lo && reaches(below)? {
        below
    } else {
        written
    })
}

/// The give-up time's percentiles at `levels` (ascending) under `jitter` for `policy` as it
/// stands, on the fine grid (decorrelated: from the fixed-seed sample [`deadline_safe_attempts`]
/// uses).
pub(crate) fn give_up_percentiles<const N: usize>(
    policy: &Policy,
    jitter: Jitter,
    levels: [f64; N],
) -> Result<[f64; N], Error> {
    Ok(GiveUpDistribution::of(policy, jitter, GRID)?.quantiles(levels))
}

/// The latest deadline that [`deadline_safe_attempts`] answers for `policy` under `jitter` at
/// `level`: the one the `level` percentile of the most attempts allowed reaches.
pub fn deadline_reach(policy: &Policy, jitter: Jitter, level: f64) -> Result<f64, Error> {
    let percentile = Percentile {
        policy,
        jitter,
        level,
    };
    Ok(percentile.coarse(crate::policy::MAX_ATTEMPTS)? / (1.0 - REACHED_TOLERANCE))
}

/// Whether a computed percentile reaches the deadline: at least it, less a hundred-millionth
/// of it. A percentile equal to the deadline (the median of 20 gaps drawn from [0, 10 s] is
/// 100 s by symmetry) comes out of a grid's sums a few billionths short, and the count that
/// reaches the deadline must not turn into the next one for that.
pub(crate) fn reached(percentile_s: f64, deadline_s: f64) -> bool {
    percentile_s >= deadline_s * (1.0 - REACHED_TOLERANCE)
}

/// How far below a deadline, relative to it, a computed percentile still reaches it: wider than
/// [`crate::reaches`]'s rounding of summed gaps, for a grid's error.
const REACHED_TOLERANCE: f64 = 1e-8;

/// One percentile of the give-up time of a policy, as a function of its attempt count.
struct Percentile<'a> {
    policy: &'a Policy,
    jitter: Jitter,
    level: f64,
}

impl Percentile<'_> {
    /// The percentile with `attempts` attempts, on the coarse grid.
    fn coarse(&self, attempts: u32) -> Result<f64, Error> {
        Ok(self.on_grid(attempts, COARSE_GRID)?.0)
    }

    /// Whether the percentile with `attempts` attempts reaches `deadline_s`: the coarse grid
    /// answers unless it is too close to call.
    fn reaches(&self, attempts: u32, deadline_s: f64) -> Result<bool, Error> {
        let (coarse, margin) = self.on_grid(attempts, COARSE_GRID)?;
        Ok(if (coarse - deadline_s).abs() > margin {
            reached(coarse, deadline_s)
        } else {
            reached(self.on_grid(attempts, GRID)?.0, deadline_s)
        })
    }

    /// The percentile with `attempts` attempts on a grid of `grid` points (decorrelated: from a
    /// fixed-seed sample), and how far off the grid may leave it.
    fn on_grid(&self, attempts: u32, grid: usize) -> Result<(f64, f64), Error> {
        let policy = self.policy.with_stop(Stop::Attempts(attempts))?;
        let mut distribution = GiveUpDistribution::of(&policy, self.jitter, grid)?;
        let [percentile] = distribution.quantiles([self.level]);
        Ok((percentile, distribution.margin()))
    }
}

/// The give-up time's distribution for one policy under one jitter, as the deadline's sizing
/// and [`give_up_percentiles`] read it: built once, read at every level asked.
enum GiveUpDistribution {
    /// Decorrelated jitter (its gaps depend on each other): a fixed-seed sample.
    Sample(Vec<f64>),
    /// Many gaps, none dominating: as good as normal.
    Normal { mean: f64, sd: f64 },
    /// Otherwise the exact sum of the uniform gaps, on a grid.
    Grid(SumOfUniforms),
}

impl GiveUpDistribution {
    /// The distribution for `policy` under `jitter`, on a grid of at most `grid` points (fewer
    /// for long schedules, to bound the work).
    fn of(policy: &Policy, jitter: Jitter, grid: usize) -> Result<Self, Error> {
        let attempts = policy.attempts();
        let per_attempt = WORK / attempts.max(1) as usize;
        if jitter == Jitter::Decorrelated {
            let samples = per_attempt.clamp(1_000, 20_000);
            let mut rng = seeded_rng(DECORRELATED_SEED)?;
            return Ok(Self::Sample(give_up_times(
                policy, jitter, samples, &mut rng,
            )));
        }
        let windows = gap_windows(policy, jitter).unwrap_or_default();
        Ok(match normal(&windows) {
            Some((mean, sd)) if attempts > NORMAL_FROM => Self::Normal { mean, sd },
            _ => Self::Grid(SumOfUniforms::with_grid(
                windows,
                grid.min(per_attempt.max(256)),
            )),
        })
    }

    /// The percentiles at `levels`, which must ascend.
    fn quantiles<const N: usize>(&mut self, levels: [f64; N]) -> [f64; N] {
        match self {
            Self::Sample(times) => nearest_ranks(times, levels),
            Self::Normal { mean, sd } => {
                levels.map(|level| *mean + *sd * standard_normal_quantile(level))
            }
            Self::Grid(sum) => levels.map(|level| sum.quantile(level)),
        }
    }

    /// How far off the grid may leave a percentile (none off a grid).
    fn margin(&self) -> f64 {
        match self {
            Self::Grid(sum) => sum.margin(),
            Self::Sample(_) | Self::Normal { .. } => 0.0,
        }
    }
}

/// The mean and standard deviation of the sum of uniforms on `windows`, when no window carries
/// more than [`NORMAL_SHARE`] of its variance (then the sum is as good as normal).
fn normal(windows: &[(f64, f64)]) -> Option<(f64, f64)> {
    let variance_of = |(lo, hi): &(f64, f64)| (hi - lo) * (hi - lo) / 12.0;
    let mean = windows.iter().map(|(lo, hi)| (lo + hi) / 2.0).sum();
    let variance: f64 = windows.iter().map(variance_of).sum();
    let widest = windows.iter().map(variance_of).fold(0.0, f64::max);
    (widest <= NORMAL_SHARE * variance).then(|| (mean, variance.sqrt()))
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

/// What reaches a later deadline: for a formula what can still grow
/// ([`Policy::ways_to_reach_further`]: "a longer cap" was asked of a cap at 365 days that no
/// gap reached), longer gaps for a gap list (which has no cap); as the subject of "…
/// reach(es) further", with its verb.
pub(crate) fn reaching_further(policy: &Policy) -> (String, &'static str) {
    match policy.explicit_gaps() {
        Some(_) => ("longer gaps".to_string(), "reach"),
        None => (
            policy.ways_to_reach_further(crate::policy::MAX_ATTEMPTS),
            "reaches",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::distribution;
    use super::*;

    /// The cap found is the smallest written one that reaches: a step less falls short. Rounded
    /// up from the bisection's end it could be a step above (1.132 s where 1.131 s reached:
    /// outside review).
    #[test]
    fn the_safe_cap_is_the_smallest_written_one() {
        let cases = [
            (0.923, 5.854, Jitter::Equal, 10.721, 1.163),
            (
                211.557,
                2.0,
                Jitter::Proportional(crate::jitter::Factor::new(1.0).unwrap()),
                21_150.537,
                4_414.551 / 2.0,
            ),
            (30.0, 2.0, Jitter::Full, 86_400.0, 3_600.0),
            (1.0, 1.5, Jitter::Equal, 600.0, 20.0),
            (0.05, 3.0, Jitter::Full, 2.0, 0.4),
            // Under a millisecond, written to the nanosecond.
            (0.000_02, 2.0, Jitter::Full, 0.01, 0.000_5),
        ];
        for (base, multiplier, jitter, deadline, widest) in cases {
            let policy = Policy::new(base, multiplier, widest, Stop::Attempts(1)).unwrap();
            let attempts = deadline_safe_attempts(&policy, jitter, deadline, 0.05).unwrap();
            let cap =
                deadline_safe_cap(&policy, jitter, (deadline, 0.05), attempts, (base, widest))
                    .unwrap();
            let reaches = |cap: f64| {
                let capped = Policy::new(base, multiplier, cap, Stop::Attempts(1)).unwrap();
                let percentile = Percentile {
                    policy: &capped,
                    jitter,
                    level: 0.05,
                };
                percentile.reaches(attempts, deadline).unwrap()
            };
            let step = 1.0 / crate::duration::cap_steps_per_second(widest);
            assert!(reaches(cap), "{base} {jitter:?}: {cap}");
            assert!(
                cap - step < base || !reaches(cap - step),
                "{base} {jitter:?}: {cap}"
            );
            assert!(
                ((cap / step).round() * step - cap).abs() < step * 1e-6,
                "written: {cap}"
            );
        }
    }

    /// A deadline out of its range is refused before the report draws anything: with a sample
    /// request the draws would refuse too (too many bins), the deadline's refusal comes first
    /// (it came after seconds of sampling of 10,000 attempts).
    #[test]
    fn a_report_refuses_its_deadline_before_drawing() {
        let refused = super::super::JitterReport::new(
            &Policy::article(),
            Jitter::Full,
            super::super::Sampling {
                samples: 1_000,
                seed: 1,
                bins: 1_000_000,
            },
            Some((1_000.0 * 86_400.0, 0.05)),
        )
        .unwrap_err();
        assert!(
            refused.to_string().starts_with("deadline must be"),
            "{refused}"
        );
    }

    /// Twenty gaps drawn from [0, 10 s] have a median of exactly 100 s (the sum is symmetric
    /// about its mean): 21 attempts reach a 100 s deadline at the 50th percentile, not 22.
    #[test]
    fn a_percentile_equal_to_the_deadline_reaches_it() {
        let policy = Policy::new(10.0, 1.0, 10.0, crate::Stop::Attempts(3)).unwrap();
        assert_eq!(
            deadline_safe_attempts(&policy, Jitter::Full, 100.0, 0.5),
            Ok(21)
        );
        // Just past it, one more.
        assert_eq!(
            deadline_safe_attempts(&policy, Jitter::Full, 100.001, 0.5),
            Ok(22)
        );
    }

    /// A deadline no count of attempts reaches is refused naming the deadline, with the
    /// longest one that fits (it said "even 10000 attempts do not reach", naming no flag).
    #[test]
    fn an_unreachable_deadline_names_the_deadline_and_the_longest_that_fits() {
        let policy = Policy::new(0.001, 1.0, 0.001, crate::Stop::Attempts(2)).unwrap();
        let refused = deadline_safe_attempts(&policy, Jitter::Full, 365.0 * 86_400.0, 0.05)
            .unwrap_err()
            .to_string();
        assert!(
            refused.starts_with("deadline must be at most 4.9")
                && refused.contains(", what even 10000 attempts reach at the 5th percentile")
                && refused.ends_with("got 365 days"),
            "{refused}"
        );
        // The limit is written rounded down: given, it is taken (rounded, "5 s" was refused).
        let limit = refused["deadline must be at most ".len()..]
            .split(',')
            .next()
            .unwrap();
        let limit_s = crate::parse_duration("deadline", limit).unwrap();
        assert_eq!(
            deadline_safe_attempts(&policy, Jitter::Full, limit_s, 0.05),
            Ok(10_000)
        );
        assert!(deadline_safe_attempts(&policy, Jitter::Full, limit_s + 0.002, 0.05).is_err());
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

    /// One wide gap and a long thin tail is no normal sum: `--gaps 3600,5` needs U(0, 3600)
    /// plus n − 2 gaps of U(0, 5) to have its p5 at 1,300 s, which is 180 s into the hour plus
    /// the tail's mean 2.5 × (n − 2): n = 450 exactly (the normal shortcut said 487).
    #[test]
    fn a_dominant_gap_is_sized_on_the_grid() {
        let policy = Policy::explicit(&[3_600.0, 5.0], None, None).unwrap();
        let n = deadline_safe_attempts(&policy, Jitter::Full, 1_300.0, 0.05).unwrap();
        assert!((449..=451).contains(&n), "n = {n}");
    }

    #[test]
    fn normal_quantiles() {
        assert!((standard_normal_quantile(0.05) + 1.644_853_626_951).abs() < 1e-8);
        assert!((standard_normal_quantile(0.5)).abs() < 1e-12);
        assert!((standard_normal_quantile(0.99) - 2.326_347_874_041).abs() < 1e-8);
    }
}
