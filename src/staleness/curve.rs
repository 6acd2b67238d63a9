//! The answers along a dense ladder of outage lengths, for a chart: log-spaced from a minute to
//! past the give-up time, with the schedule's own attempt times (where the first event's lag
//! jumps) and a hair before each, so that the sawtooth's corners are drawn where they are.

use super::outage::OutageAnswer;
use super::Question;
use crate::Error;

/// Log-spaced outage lengths on a chart's ladder.
const SPACED: usize = 120;
/// The most of the schedule's attempt times added (a long schedule's tail is log-spaced anyway).
const CORNERS: usize = 120;
/// The most schedules a curve samples under jitter: the first this many of the question's draws
/// (the same seed draws the same schedules first). A curve answers up to 361 outages at once and
/// keeps a few numbers per schedule and outage; this bounds it to about 60 MB, and a curve drawn
/// from 5,000 schedules looks the same as one from more.
pub const CURVE_SAMPLES: usize = 5_000;

/// The first and last outage lengths of a chart of `question`'s schedule: from a minute to twice
/// the give-up time (at least two hours, at most 365 days). A schedule giving up within ten
/// minutes starts from a tenth of its give-up time, rounded down to 30, 15, 10, 5, 2, 1, 0.5,
/// 0.2 or 0.1 s (one giving up at 60 s was drawn from a minute: every outage exhausted).
pub fn curve_span(question: &Question) -> (f64, f64) {
    let give_up = question.give_up_s();
    let end = (2.0 * give_up).clamp(7_200.0, crate::policy::MAX_SPAN_S);
    let start = [60.0, 30.0, 15.0, 10.0, 5.0, 2.0, 1.0, 0.5, 0.2]
        .into_iter()
        .find(|&start| start <= give_up / 10.0)
        .unwrap_or(0.1_f64);
    (start, end)
}

/// The outage lengths of a chart of `question`'s schedule from `start` to `end` seconds (its
/// [`curve_span`], or one wide enough for every curve of a chart), in order.
pub fn curve_outages(question: &Question, (start, end): (f64, f64)) -> Vec<f64> {
    let mut outages: Vec<f64> = (0..=SPACED)
        .map(|i| start * libm::pow(end / start, i as f64 / SPACED as f64))
        .collect();
    let corners = question
        .policy()
        .schedule()
        .rows()
        .iter()
        .map(|row| row.elapsed_s)
        .filter(|&t| t > start && t < end)
        .take(CORNERS)
        .collect::<Vec<_>>();
    for t in corners {
        outages.push(t);
        outages.push(t * (1.0 - 1e-9));
    }
    outages.sort_by(f64::total_cmp);
    outages.dedup();
    outages
}

impl Question {
    /// The answers along [`curve_outages`] over `span`, all from the same draws under jitter:
    /// the first [`CURVE_SAMPLES`] of the question's.
    pub fn curve(&self, span: (f64, f64)) -> Result<Vec<OutageAnswer>, Error> {
        let question = match self.samples() {
            Some(samples) => self.with_samples(samples.min(CURVE_SAMPLES))?,
            None => *self,
        };
        Ok(question.answers(&curve_outages(self, span))?.outages)
    }
}
