//! The question asked of a schedule: its policy and jitter, an optional tolerance and how to
//! sample under jitter. Every answer comes from here.

use crate::jitter::{seeded_rng, Jitter};
use crate::limits::Draws;
use crate::{Error, Policy};

use super::outage::OutageAnswer;
use super::sampled::sampled_answers;
use super::timeline::Timeline;
use super::{check_outages, check_tolerance, Answers, Method};
use super::{DEFAULT_SAMPLES, MAX_SAMPLES};

/// A schedule under questioning: valid by construction.
///
/// # Example
/// ```
/// use backoff_lab::jitter::Jitter;
/// use backoff_lab::staleness::{Outcome, Question};
/// use backoff_lab::Policy;
/// let question = Question::new(&Policy::article(), Jitter::None, 0)?;
/// let four_hours = question.outage(4.0 * 3_600.0)?;
/// assert_eq!(four_hours.first_event.outcome, Outcome::Delivered);
/// assert_eq!(four_hours.first_event.attempt, Some(8));
/// assert_eq!(four_hours.first_event.lag_s, Some(7_320.0)); // 2 h 02 min after recovery
/// assert_eq!(question.longest_delivered_outage_s()?, 86_520.0);
/// # Ok::<(), backoff_lab::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Question {
    policy: Policy,
    jitter: Jitter,
    tolerance_s: Option<f64>,
    samples: usize,
    seed: u64,
}

impl Question {
    /// Asks about `policy` with `jitter`. Without jitter (or with proportional jitter of ±0%,
    /// which draws every schedule as written) every answer is exact and `seed` is unused; with
    /// any other mode answers are sampled from [`DEFAULT_SAMPLES`] schedules drawn with `seed`
    /// (from 0 to 2^53 − 1).
    pub fn new(policy: &Policy, jitter: Jitter, seed: u64) -> Result<Self, Error> {
        jitter.check_applies_to(policy)?;
        seeded_rng(seed)?;
        Ok(Question {
            policy: *policy,
            jitter,
            tolerance_s: None,
            samples: DEFAULT_SAMPLES,
            seed,
        })
    }

    /// The same question with a staleness tolerance: events older than `tolerance_s` (from 1 µs
    /// to 365 days) are worth nothing.
    pub fn with_tolerance(mut self, tolerance_s: f64) -> Result<Self, Error> {
        check_tolerance(tolerance_s)?;
        self.tolerance_s = Some(tolerance_s);
        Ok(self)
    }

    /// The same question sampled from `samples` schedules (1 to [`MAX_SAMPLES`]) under jitter.
    pub fn with_samples(mut self, samples: usize) -> Result<Self, Error> {
        if !(1..=MAX_SAMPLES).contains(&samples) {
            return Err(Error::out_of_range(
                "samples",
                samples,
                "a whole number from 1 to 100000",
            ));
        }
        self.samples = samples;
        Ok(self)
    }

    /// The policy.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }
    /// The jitter.
    pub fn jitter(&self) -> Jitter {
        self.jitter
    }
    /// The tolerance, seconds, if any.
    pub fn tolerance_s(&self) -> Option<f64> {
        self.tolerance_s
    }
    /// How the answers are computed: exact without jitter (±0% included), sampled with it.
    pub fn method(&self) -> Method {
        if self.jitter.draws() {
            Method::Sampled
        } else {
            Method::Exact
        }
    }
    /// The schedules drawn under jitter; `None` when exact.
    pub fn samples(&self) -> Option<usize> {
        (self.method() == Method::Sampled).then_some(self.samples)
    }
    /// The seed of the draws; `None` when exact.
    pub fn seed(&self) -> Option<u64> {
        (self.method() == Method::Sampled).then_some(self.seed)
    }

    /// The answer for an outage of `outage_s` seconds (from 1 µs to 365 days).
    pub fn outage(&self, outage_s: f64) -> Result<OutageAnswer, Error> {
        let mut answers = self.outages(&[outage_s])?;
        Ok(answers.remove(0))
    }

    /// The answers for outages of `outages_s` seconds (1 to [`MAX_OUTAGES`](super::MAX_OUTAGES) of
    /// them), in order. Under jitter they are computed from the same drawn schedules.
    pub fn outages(&self, outages_s: &[f64]) -> Result<Vec<OutageAnswer>, Error> {
        check_outages(outages_s)?;
        Ok(self.answers(outages_s)?.outages)
    }

    /// The answers along the [`ladder`](super::ladder) of this schedule.
    pub fn ladder(&self) -> Result<Vec<OutageAnswer>, Error> {
        self.outages(&super::ladder(self.give_up_s()))
    }

    /// The schedule's give-up time as written (`t_n`, unjittered), seconds.
    pub fn give_up_s(&self) -> f64 {
        self.policy.schedule().give_up_s()
    }

    /// The longest outage whose first event is still delivered: `t_n` exactly (an outage of
    /// exactly `t_n` delivers it at lag 0). Under jitter, the [`SAFE_LEVEL`](super::SAFE_LEVEL)
    /// percentile (the 5th) of the sampled give-up times: in 95% of schedules an outage this long
    /// still delivers its first event.
    pub fn longest_delivered_outage_s(&self) -> Result<f64, Error> {
        Ok(self.answers(&[])?.longest_delivered_outage_s)
    }

    /// With a tolerance `T`: the longest outage whose events all arrive fresh and none is
    /// exhausted, `max{t_k : t_k ≤ T}` (0 when the first retry already comes after `T`: no
    /// outage qualifies). Under jitter, its 5th percentile over the sampled schedules. `None`
    /// without a tolerance.
    ///
    /// Why: the oldest delivered event of an outage `D` is its first, delivered at the first
    /// `t_k ≥ D`; that is at most `T` exactly when `D ≤ max{t_k ≤ T}`, which is also at most
    /// `t_n`, so nothing is exhausted either.
    pub fn all_fresh_up_to_s(&self) -> Result<Option<f64>, Error> {
        if self.tolerance_s.is_none() {
            return Ok(None);
        }
        Ok(self.answers(&[])?.all_fresh_up_to_s)
    }

    /// The largest possible lag after a long outage: the longest gap the schedule can draw (a
    /// supremum). Without jitter, the longest gap (the cap for a capped schedule); under jitter,
    /// the top of the widest gap window (a proportional factor `f` reaches `(1 + f) × cap`), and
    /// for decorrelated jitter `min(cap, base × 3^(n−1))`. Exact in every mode: no sampling.
    pub fn max_recovery_lag_s(&self) -> f64 {
        longest_drawn_gap(&self.policy, self.jitter)
    }

    /// Refuses, before drawing, sampled answers for `outages` outages past the work limit
    /// ([`check_draws`](crate::limits::check_draws)); exact answers are always within it.
    pub fn check_work(&self, outages: usize) -> Result<(), Error> {
        if self.method() != Method::Sampled {
            return Ok(());
        }
        crate::limits::check_draws(
            "samples",
            self.samples,
            self.policy.attempts(),
            self.jitter,
            Draws::Staleness { outages },
        )
    }

    /// Every requested outage and the derived lengths, exactly or by sampling.
    pub(crate) fn answers(&self, outages_s: &[f64]) -> Result<Answers, Error> {
        self.check_work(outages_s.len())?;
        if self.method() == Method::Sampled {
            let sampling = (self.samples, self.seed);
            return sampled_answers(
                &self.policy,
                self.jitter,
                self.tolerance_s,
                sampling,
                outages_s,
            );
        }
        let timeline = Timeline::new(self.policy.schedule().rows().iter().map(|r| r.elapsed_s));
        Ok(Answers {
            outages: outages_s
                .iter()
                .map(|&d| OutageAnswer::exact(&timeline, d, self.tolerance_s))
                .collect(),
            longest_delivered_outage_s: timeline.give_up_s(),
            all_fresh_up_to_s: self.tolerance_s.map(|t| timeline.last_within(t)),
        })
    }
}

/// The longest gap `policy` can draw under `jitter` (0 without a retry): the largest lag after
/// a long outage.
pub(crate) fn longest_drawn_gap(policy: &Policy, jitter: Jitter) -> f64 {
    let retries = policy.attempts() - 1;
    if retries == 0 {
        return 0.0;
    }
    if jitter == Jitter::Decorrelated {
        // Each gap is below three times the previous, starting from the base.
        let ramp = policy.base_s() * 3f64.powi(retries.min(i32::MAX as u32) as i32);
        return ramp.min(policy.cap_s());
    }
    (1..=retries)
        .filter_map(|retry| jitter.window(policy.gap(retry)))
        .map(|(_, hi)| hi)
        .fold(0.0, f64::max)
}
