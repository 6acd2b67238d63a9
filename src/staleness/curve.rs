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

/// The outage lengths of a chart for a schedule giving up after `give_up_s`: from a minute to
/// twice the give-up time (at least two hours, at most 365 days), in order.
pub fn curve_outages(question: &Question) -> Vec<f64> {
    let give_up = question.give_up_s();
    let end = (2.0 * give_up).clamp(7_200.0, crate::policy::MAX_SPAN_S);
    let start = 60.0_f64;
    let mut outages: Vec<f64> = (0..=SPACED)
        .map(|i| start * (end / start).powf(i as f64 / SPACED as f64))
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
    /// The answers along [`curve_outages`], all from the same draws under jitter.
    pub fn curve(&self) -> Result<Vec<OutageAnswer>, Error> {
        Ok(self.answers(&curve_outages(self))?.outages)
    }
}
