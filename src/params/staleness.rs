//! The staleness question and report from the parameters.

use super::{whole_number, Params};
use crate::Error;

impl Params {
    /// The staleness question of the policy: its jitter and seed (0 unless given), and the
    /// tolerance if given. Under jitter it samples `samples` schedules if given (at most
    /// 100,000), else 20,000.
    pub fn staleness_question(&self) -> Result<crate::staleness::Question, Error> {
        let mut question = crate::staleness::Question::new(
            &self.policy()?,
            self.jitter()?,
            self.seed()?.unwrap_or_default(),
        )?;
        if let Some(tolerance) = &self.tolerance {
            question = question.with_tolerance(
                tolerance.seconds_within("tolerance", &crate::policy::span_range())?,
            )?;
        }
        if let Some(samples) = self.samples {
            let max = crate::staleness::MAX_SAMPLES as u64;
            question = question.with_samples(whole_number("samples", samples, 1, max)? as usize)?;
        }
        Ok(question)
    }

    /// The staleness report: for `outage` if given, else along the schedule's ladder of
    /// outages; with `max_lag` (and a tolerance), a suggested schedule.
    pub fn staleness_report(&self) -> Result<crate::staleness::StalenessReport, Error> {
        self.staleness_report_with(report_outages)
    }

    /// Refuses, before anything is drawn, a staleness report past its work limit: the check
    /// [`staleness_report`](Self::staleness_report) makes, over the same outages (the page
    /// skips a quicker first run of a report it would refuse).
    pub fn check_staleness_work(&self) -> Result<(), Error> {
        let question = self.staleness_question()?;
        let outages = report_outages(self.staleness_outage()?, question.give_up_s());
        question.check_work(outages.len())
    }

    /// The outage to read off, seconds, if given.
    fn staleness_outage(&self) -> Result<Option<f64>, Error> {
        let span = crate::policy::span_range();
        (self.outage.as_ref())
            .map(|outage| outage.seconds_within("outage", &span))
            .transpose()
    }

    /// The staleness report along the outages `outages` chooses from `outage` (if given) and
    /// the schedule's give-up time; its caption is about `outage` when given.
    pub fn staleness_report_with(
        &self,
        outages: impl FnOnce(Option<f64>, f64) -> Vec<f64>,
    ) -> Result<crate::staleness::StalenessReport, Error> {
        let question = self.staleness_question()?;
        let span = crate::policy::span_range();
        let max_lag = (self.max_lag.as_ref())
            .map(|r| r.seconds_within("max-lag", &span))
            .transpose()?;
        let outage = self.staleness_outage()?;
        let outages = outages(outage, question.give_up_s());
        let report = crate::staleness::StalenessReport::new(&question, &outages, max_lag)?;
        Ok(match outage {
            Some(outage_s) => report.reading_off(outage_s),
            None => report,
        })
    }

    /// The schedule derived from the tolerance and `max_lag` alone, without the report's
    /// sampled answers (the page's Apply: it sampled 20,000 schedules on the page's thread to
    /// read this); `None` without both, or where no schedule can be derived.
    pub fn staleness_suggestion(&self) -> Result<Option<crate::staleness::Suggestion>, Error> {
        let question = self.staleness_question()?;
        let span = crate::policy::span_range();
        let max_lag = (self.max_lag.as_ref())
            .map(|r| r.seconds_within("max-lag", &span))
            .transpose()?;
        Ok(match (question.tolerance_s(), max_lag) {
            (Some(t), Some(r)) => {
                crate::staleness::suggest(question.policy(), question.jitter(), t, r).ok()
            }
            _ => None,
        })
    }
}

/// The outages a staleness report answers: the one given alone, else the schedule's ladder.
fn report_outages(outage: Option<f64>, give_up_s: f64) -> Vec<f64> {
    match outage {
        Some(outage) => vec![outage],
        None => crate::staleness::ladder(give_up_s),
    }
}
