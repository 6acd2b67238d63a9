//! Jitter: how each gap is drawn at random around the ideal gap
//! `g = min(cap, base × multiplier^(k-1))`, and seeded sampling of jittered schedules.

use rand::{Rng, RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::{Error, Policy, Row};

/// The generator behind every sample: xoshiro256++, seeded through SplitMix64. Named and
/// portable, so a seed gives the same numbers natively, in wasm and in every later version.
pub type SeededRng = rand_xoshiro::Xoshiro256PlusPlus;

/// The largest seed: seeds travel through JavaScript numbers and URLs, so they stay exact there.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// A generator for `seed`, refused beyond [`MAX_SEED`].
///
/// # Example
/// ```
/// use backoff_lab::jitter::seeded_rng;
/// use rand::Rng;
/// let (mut a, mut b) = (seeded_rng(42)?, seeded_rng(42)?);
/// assert_eq!(a.next_u64(), b.next_u64());
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn seeded_rng(seed: u64) -> Result<SeededRng, Error> {
    if seed <= MAX_SEED {
        Ok(SeededRng::seed_from_u64(seed))
    } else {
        Err(Error::out_of_range(
            "seed",
            seed,
            "a whole number from 0 to 9007199254740991",
        ))
    }
}

/// A seed given as a number (from JS or a URL): whole, from 0 to [`MAX_SEED`].
pub fn seed_from_f64(seed: f64) -> Result<u64, Error> {
    if seed.fract() == 0.0 && (0.0..=MAX_SEED as f64).contains(&seed) {
        Ok(seed as u64)
    } else {
        Err(Error::out_of_range(
            "seed",
            seed,
            "a whole number from 0 to 9007199254740991",
        ))
    }
}

/// The seed of reproducible output when none is given: a storm's, a figure's and the page's.
pub const DEFAULT_SEED: u64 = 42;

/// A fresh seed from the operating system or the browser, for when the user asks for one.
/// Drawn from 32 bits so that it is short to read and to type.
pub fn fresh_seed() -> Result<u64, Error> {
    let mut bytes = [0u8; 4];
    getrandom::fill(&mut bytes)
        .map_err(|e| Error::Unreachable(format!("no randomness available: {e}")))?;
    Ok(u64::from(u32::from_le_bytes(bytes)))
}

/// How a gap is drawn from its ideal value `g`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "mode", content = "factor")]
pub enum Jitter {
    /// Exactly `g`. Expected gap `g`. Deliveries that failed together come back together.
    None,
    /// Uniform in `[0, g)` (AWS "full jitter"). Expected gap `g / 2`: a schedule that reads 24 h
    /// on paper gives up after about 12 h.
    Full,
    /// Uniform in `[g/2, g)`, the upper half of each window (AWS "equal jitter"). Expected gap
    /// `3g / 4`.
    Equal,
    /// `min(cap, uniform(base, previous × 3))` starting from `previous = base` (AWS
    /// "decorrelated jitter"). It ignores the multiplier, and once `previous × 3` passes the cap
    /// a growing share of gaps is clamped to exactly the cap: decorrelated retries bunch at the
    /// cap. Its expected gap has no closed form; it is estimated by sampling.
    Decorrelated,
    /// `g × uniform(1 − f, 1 + f)` for a factor `f` in `[0, 1]` (gRPC's ±20% is `f = 0.2`).
    /// Expected gap `g`. A gap may exceed the cap, by at most `f × cap`.
    Proportional(Factor),
}

/// The smallest factor of proportional jitter other than 0: below it no drawn gap moves by a
/// microsecond, the storm's unit, for gaps up to a second.
pub const MIN_FACTOR: f64 = 1e-6;

/// The factor of proportional jitter: a number from 0 to 1, checked when it is made.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "f64", into = "f64")]
pub struct Factor(f64);

impl Factor {
    /// gRPC's ±20%.
    pub const GRPC: Factor = Factor(0.2);

    /// A factor of 0 (nothing drawn) or from [`MIN_FACTOR`] to 1; anything else (NaN included) is
    /// refused.
    pub fn new(factor: f64) -> Result<Factor, Error> {
        // A subnormal factor drew 20,000 samples all ±0 s, and a herd "with jitter" of exactly
        // the unjittered spike.
        if factor == 0.0 || (MIN_FACTOR..=1.0).contains(&factor) {
            Ok(Factor(factor))
        } else {
            Err(Error::out_of_range(
                "factor",
                factor,
                "a number from 0 to 1: 0 for none, else at least 0.000001",
            ))
        }
    }

    /// The factor as a number.
    pub fn get(self) -> f64 {
        self.0
    }
}

impl TryFrom<f64> for Factor {
    type Error = Error;
    fn try_from(factor: f64) -> Result<Factor, Error> {
        Factor::new(factor)
    }
}

impl From<Factor> for f64 {
    fn from(factor: Factor) -> f64 {
        factor.0
    }
}

impl Jitter {
    /// Builds a jitter mode from its name (`none`, `full`, `equal`, `decorrelated`,
    /// `proportional`) and, for `proportional`, its factor.
    ///
    /// # Example
    /// ```
    /// use backoff_lab::jitter::Jitter;
    /// assert_eq!(Jitter::from_name("proportional", 0.2)?, Jitter::proportional(0.2)?);
    /// assert!(Jitter::from_name("proportional", 1.5).is_err());
    /// # Ok::<(), backoff_lab::Error>(())
    /// ```
    pub fn from_name(name: &str, factor: f64) -> Result<Self, Error> {
        match name {
            "none" => Ok(Jitter::None),
            "full" => Ok(Jitter::Full),
            "equal" => Ok(Jitter::Equal),
            "decorrelated" => Ok(Jitter::Decorrelated),
            "proportional" => Jitter::proportional(factor),
            other => Err(Error::out_of_range(
                "mode",
                format!("{other:?}"),
                "one of none, full, equal, decorrelated, proportional",
            )),
        }
    }

    /// Proportional jitter with `factor`, from 0 to 1.
    pub fn proportional(factor: f64) -> Result<Self, Error> {
        Factor::new(factor).map(Jitter::Proportional)
    }

    /// Whether the mode draws anything: not without jitter, nor with proportional jitter of
    /// ±0%, whose every gap is its ideal value.
    pub fn draws(&self) -> bool {
        !matches!(self, Jitter::None | Jitter::Proportional(Factor(0.0)))
    }

    /// Refuses decorrelated jitter for an explicit schedule: it grows each gap from the base
    /// and the gap before, so it would read a list's first gap as a base and its longest as a
    /// cap and ignore the rest. Every public computation under jitter (the give-up
    /// distribution, `sample`, the deadline, the herd, staleness, storms, the JS API's sampled
    /// mean) starts with this check; the draws beneath them ([`Gaps`], [`sample_schedule`],
    /// `give_up_times`) trust their callers, as they trust them with sizes.
    pub fn check_applies_to(&self, policy: &Policy) -> Result<(), Error> {
        if !self.applies_to(policy) {
            return Err(Error::out_of_range(
                "mode",
                "decorrelated with explicit gaps",
                "none, full, equal or proportional for an explicit schedule (decorrelated jitter grows from a base)",
            ));
        }
        Ok(())
    }

    /// Whether the mode applies to `policy` ([`Jitter::check_applies_to`]).
    pub fn applies_to(&self, policy: &Policy) -> bool {
        !(*self == Jitter::Decorrelated && policy.explicit_gaps().is_some())
    }

    /// The mode's name.
    pub fn name(&self) -> &'static str {
        match self {
            Jitter::None => "none",
            Jitter::Full => "full",
            Jitter::Equal => "equal",
            Jitter::Decorrelated => "decorrelated",
            Jitter::Proportional(_) => "proportional",
        }
    }

    /// The mode as a sentence names it: its name, and proportional jitter's factor with it
    /// ("proportional (±20%)"; a caption said "proportional" of a factor it never gave).
    pub fn described(&self) -> String {
        match self {
            Jitter::Proportional(factor) => format!(
                "proportional (±{}%)",
                crate::number_text::without_trailing_zeros(&format!("{:.4}", factor.get() * 100.0))
            ),
            _ => self.name().to_string(),
        }
    }

    /// The interval a gap with ideal value `ideal` is drawn from, for the modes whose gaps are
    /// independent of each other (all but decorrelated).
    pub fn window(&self, ideal: f64) -> Option<(f64, f64)> {
        match *self {
            Jitter::None => Some((ideal, ideal)),
            Jitter::Full => Some((0.0, ideal)),
            Jitter::Equal => Some((ideal / 2.0, ideal)),
            Jitter::Proportional(Factor(f)) => Some((ideal * (1.0 - f), ideal * (1.0 + f))),
            Jitter::Decorrelated => None,
        }
    }
}

/// The gaps of one policy under one jitter mode, prepared once for many draws: each retry's
/// window (a power per retry per draw would dominate long schedules), or for decorrelated
/// jitter its base and cap. Every draw from it is the draw the policy and mode define.
#[derive(Debug, Clone, PartialEq)]
pub struct Gaps {
    jitter: Jitter,
    retries: u32,
    base_s: f64,
    cap_s: f64,
    /// The window of retry `k` at `k − 1`, for the modes with independent gaps; empty for
    /// decorrelated jitter.
    windows: Vec<(f64, f64)>,
}

impl Gaps {
    /// The gaps of `policy`'s retries under `jitter`.
    pub fn new(policy: &Policy, jitter: Jitter) -> Self {
        let windows = (1..policy.attempts())
            .map_while(|retry| jitter.window(policy.gap(retry)))
            .collect();
        Gaps {
            jitter,
            retries: policy.attempts() - 1,
            base_s: policy.base_s(),
            cap_s: policy.cap_s(),
            windows,
        }
    }

    /// Each retry's window, in order; `None` for decorrelated jitter, whose gaps depend on each
    /// other.
    pub fn windows(&self) -> Option<&[(f64, f64)]> {
        (self.jitter != Jitter::Decorrelated).then_some(&self.windows)
    }

    /// The retries: attempts after the first.
    pub fn retries(&self) -> u32 {
        self.retries
    }

    /// A sampler for one delivery's gaps.
    pub fn sampler(&self) -> GapSampler<'_> {
        GapSampler {
            gaps: self,
            retry: 0,
            previous: self.base_s,
        }
    }
}

/// Draws the gaps before attempts 2, 3, ... of one delivery (at most the policy's retries).
pub struct GapSampler<'a> {
    gaps: &'a Gaps,
    retry: usize,
    previous: f64,
}

impl GapSampler<'_> {
    /// The next gap, drawn with `rng`.
    pub fn next_gap(&mut self, rng: &mut impl Rng) -> f64 {
        self.retry += 1;
        let gaps = self.gaps;
        if gaps.jitter == Jitter::Decorrelated {
            let gap = uniform(rng, gaps.base_s, self.previous * 3.0).min(gaps.cap_s);
            self.previous = gap;
            return gap;
        }
        let (lo, hi) = gaps.windows[self.retry - 1];
        uniform(rng, lo, hi)
    }
}

/// A uniform draw in `[lo, hi)` (exactly `lo` when the interval is empty).
pub fn uniform(rng: &mut impl Rng, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * rng.random::<f64>()
}

/// One jittered schedule: rows like [`Policy::schedule`]'s, with drawn gaps. `capped` marks
/// the gaps whose ideal value sits at the cap.
///
/// # Example
/// ```
/// use backoff_lab::jitter::{sample_schedule, seeded_rng, Jitter};
/// use backoff_lab::Policy;
/// let rows = sample_schedule(&Policy::article(), Jitter::Full, &mut seeded_rng(7)?);
/// assert_eq!(rows.len(), 14);
/// assert!(rows[1].gap_s.unwrap() < 30.0);
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn sample_schedule(policy: &Policy, jitter: Jitter, rng: &mut impl Rng) -> Vec<Row> {
    let ideal = policy.schedule();
    let gaps = Gaps::new(policy, jitter);
    let mut sampler = gaps.sampler();
    let mut elapsed_s = 0.0;
    ideal
        .rows()
        .iter()
        .map(|row| {
            let gap_s = row.gap_s.map(|_| sampler.next_gap(rng));
            elapsed_s += gap_s.unwrap_or(0.0);
            Row {
                gap_s,
                elapsed_s,
                ..*row
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Stop;

    /// A caption of proportional jitter gives its factor: "with proportional jitter" left the
    /// reader to guess ±20% (outside review).
    #[test]
    fn proportional_jitter_is_described_with_its_factor() {
        let described = |f: f64| Jitter::Proportional(Factor::new(f).unwrap()).described();
        assert_eq!(described(0.2), "proportional (±20%)");
        assert_eq!(described(0.125), "proportional (±12.5%)");
        assert_eq!(Jitter::Full.described(), "full");
        let sampling = crate::give_up::Sampling {
            samples: 1_000,
            seed: 1,
            bins: 40,
        };
        let report = crate::give_up::JitterReport::new(
            &crate::Policy::article(),
            Jitter::Proportional(Factor::new(0.125).unwrap()),
            sampling,
            None,
        );
        assert!(report.is_ok_and(|r| r
            .caption
            .starts_with("With proportional (±12.5%) jitter a schedule")),);
    }

    #[test]
    fn value_stability_of_the_seeded_generator() {
        // Pinned: if these change, every shared link and recorded figure changes with them.
        let mut rng = seeded_rng(42).unwrap();
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(first, [FIRST_42[0], FIRST_42[1], FIRST_42[2]]);
        let mut rng = seeded_rng(42).unwrap();
        let gaps: Vec<f64> = sample_schedule(&Policy::article(), Jitter::Full, &mut rng)
            .iter()
            .filter_map(|r| r.gap_s)
            .take(2)
            .collect();
        let u0 = (FIRST_42[0] >> 11) as f64 / (1u64 << 53) as f64;
        assert_eq!(gaps[0], 30.0 * u0);
    }

    const FIRST_42: [u64; 3] = [
        15021278609987233951,
        5881210131331364753,
        18149643915985481100,
    ];

    /// xoshiro256++ seeded by SplitMix64, written from the reference C code (Blackman & Vigna),
    /// to show that the crate's generator is the named algorithm and not an accident.
    fn reference_xoshiro(seed: u64, n: usize) -> Vec<u64> {
        let mut sm = seed;
        let mut splitmix = || {
            sm = sm.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = sm;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut s = [splitmix(), splitmix(), splitmix(), splitmix()];
        (0..n)
            .map(|_| {
                let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
                let t = s[1] << 17;
                s[2] ^= s[0];
                s[3] ^= s[1];
                s[1] ^= s[2];
                s[0] ^= s[3];
                s[2] ^= t;
                s[3] = s[3].rotate_left(45);
                result
            })
            .collect()
    }

    #[test]
    fn the_generator_is_reference_xoshiro256plusplus() {
        for seed in [0, 1, 42, 2_024, MAX_SEED] {
            let mut rng = seeded_rng(seed).unwrap();
            let ours: Vec<u64> = (0..8).map(|_| rng.next_u64()).collect();
            assert_eq!(ours, reference_xoshiro(seed, 8), "seed {seed}");
        }
    }

    #[test]
    fn modes_by_name_and_their_refusals() {
        assert_eq!(Jitter::from_name("none", 0.0), Ok(Jitter::None));
        assert_eq!(
            Jitter::from_name("proportional", f64::NAN)
                .unwrap_err()
                .to_string(),
            "factor must be a number from 0 to 1: 0 for none, else at least 0.000001, got NaN"
        );
        assert_eq!(
            Jitter::from_name("fuzzy", 0.0).unwrap_err().to_string(),
            "mode must be one of none, full, equal, decorrelated, proportional, got \"fuzzy\""
        );
        assert!(seeded_rng(MAX_SEED + 1).is_err());
        assert_eq!(
            seed_from_f64(1.5).unwrap_err().to_string(),
            "seed must be a whole number from 0 to 9007199254740991, got 1.5"
        );
    }

    #[test]
    fn decorrelated_stays_between_base_and_cap() {
        let policy = Policy::new(1.0, 2.0, 20.0, Stop::Attempts(200)).unwrap();
        let mut rng = seeded_rng(1).unwrap();
        let rows = sample_schedule(&policy, Jitter::Decorrelated, &mut rng);
        let gaps: Vec<f64> = rows.iter().filter_map(|r| r.gap_s).collect();
        assert!(gaps.iter().all(|g| (1.0..=20.0).contains(g)));
        // The known bunching: many gaps sit exactly at the cap.
        assert!(gaps.iter().filter(|g| **g == 20.0).count() > 20);
    }
}
