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
        let question = self.staleness_question()?;
        let max_lag = self
            .max_lag
            .as_ref()
            .map(|r| r.seconds_within("max-lag", &crate::policy::span_range()))
            .transpose()?;
        match &self.outage {
            Some(outage) => crate::staleness::StalenessReport::new(
                &question,
                &[outage.seconds_within("outage", &crate::policy::span_range())?],
                max_lag,
            ),
            None => crate::staleness::StalenessReport::ladder(&question, max_lag),
        }
    }
}
