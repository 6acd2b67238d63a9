//! The staleness report: the JSON contract, and its caption, a few sentences that answer in words.

use serde::{Deserialize, Serialize};

use crate::duration::format_precise;
use crate::{format_duration, Error};

use super::outage::OutageAnswer;
use super::suggestion::{suggest, Suggestion};
use super::{check_max_lag, check_outages, Method, Question};

/// Everything about one schedule's staleness: the derived lengths and one answer per outage.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StalenessReport {
    /// The schedule's give-up time as written (`t_n`, unjittered), seconds.
    pub give_up_s: f64,
    /// The tolerance, seconds, or `null`.
    pub tolerance_s: Option<f64>,
    /// With a tolerance: the acceptable delay after recovery (`--max-lag`, the lag the
    /// suggestion serves), seconds; `null` without one.
    pub max_lag_s: Option<f64>,
    /// The longest outage whose first event is still delivered (under jitter, in 95% of
    /// schedules).
    pub longest_delivered_outage_s: f64,
    /// With a tolerance: the longest outage whose events all arrive fresh (under jitter, in 95%
    /// of schedules); `null` without one.
    pub all_fresh_up_to_s: Option<f64>,
    /// The largest possible lag after a long outage: the longest gap the schedule can draw.
    pub max_recovery_lag_s: f64,
    /// `exact` without jitter, `sampled` with it.
    pub method: Method,
    /// The schedules drawn; `null` when exact.
    pub samples: Option<usize>,
    /// The seed of the draws; `null` when exact.
    #[cfg_attr(test, ts(type = "number | null"))]
    pub seed: Option<u64>,
    /// One answer per outage, shortest first as given.
    pub outages: Vec<OutageAnswer>,
    /// A schedule derived from the tolerance and an allowed recovery lag, or `null`.
    pub suggestion: Option<Suggestion>,
    /// With a tolerance and an allowed lag, why no schedule could be derived (it would need
    /// more than 10000 attempts), or `null`.
    pub suggestion_refused: Option<String>,
    /// The outage the caption is about, when one of several was read off (the page's exports:
    /// its ladder with the outage its chart reads off). Not part of the JSON.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    read_off_s: Option<f64>,
}

impl StalenessReport {
    /// The report on outages of `outages_s` seconds. With `max_lag_s` (how late after recovery
    /// a delivery may be), it carries a [`Suggestion`], which needs the question's tolerance.
    pub fn new(
        question: &Question,
        outages_s: &[f64],
        max_lag_s: Option<f64>,
    ) -> Result<Self, Error> {
        let (suggestion, suggestion_refused) = match (max_lag_s, question.tolerance_s()) {
            (None, _) => (None, None),
            // Bad input is refused; a schedule that cannot be derived is an answer.
            (Some(r), Some(t)) => {
                check_max_lag(r)?;
                match suggest(question.policy(), question.jitter(), t, r) {
                    Ok(suggestion) => (Some(suggestion), None),
                    Err(why) => (None, Some(format!("No schedule derived: {why}."))),
                }
            }
            // Named as the key given, as every key without the one that gives it a use is
            // (`resume-rate` without `pause`): it named the tolerance, which was not given.
            (Some(r), None) => {
                return Err(Error::out_of_range(
                    "max-lag",
                    crate::format_duration(r),
                    "given only with a tolerance (how long an event stays worth delivering), \
                     which the schedule it derives needs",
                ))
            }
        };
        check_outages(outages_s)?;
        let answers = question.answers(outages_s)?;
        Ok(StalenessReport {
            give_up_s: question.give_up_s(),
            tolerance_s: question.tolerance_s(),
            max_lag_s,
            longest_delivered_outage_s: answers.longest_delivered_outage_s,
            all_fresh_up_to_s: answers.all_fresh_up_to_s,
            max_recovery_lag_s: question.max_recovery_lag_s(),
            method: question.method(),
            samples: question.samples(),
            seed: question.seed(),
            outages: answers.outages,
            suggestion,
            suggestion_refused,
            read_off_s: None,
        })
    }

    /// The report with its caption about the outage of `outage_s` seconds (one of its
    /// outages), as the page's caption is: not about the ladder's worst first event.
    pub fn reading_off(mut self, outage_s: f64) -> Self {
        self.read_off_s = Some(outage_s);
        self
    }

    /// What the suggestion says in words: its findings, or why no schedule was derived (empty
    /// without an allowed lag).
    pub fn suggestion_findings(&self) -> Vec<String> {
        match (&self.suggestion, &self.suggestion_refused) {
            (Some(suggestion), _) => suggestion.findings.clone(),
            (None, Some(why)) => vec![why.clone()],
            (None, None) => Vec::new(),
        }
    }

    /// The report on the schedule's [`ladder`](super::ladder) of outages.
    pub fn ladder(question: &Question, max_lag_s: Option<f64>) -> Result<Self, Error> {
        Self::new(question, &super::ladder(question.give_up_s()), max_lag_s)
    }

    /// A few sentences that answer in words: how long an outage may last with every event
    /// fresh; the first event of the outage asked about ([`StalenessReport::reading_off`], or
    /// the only one), whether it is stale and what becomes of that outage's exhausted events,
    /// else the worst first event on the report (the longest lag); when events start to be
    /// exhausted (worth a replay, or already stale); the longest lag after a long outage; and
    /// how the numbers were computed.
    pub fn caption(&self) -> String {
        let sampled = self.method == Method::Sampled;
        let mut clauses = Vec::new();
        // A schedule that never retries says so once, below.
        if let (Some(tolerance), Some(fresh), true) = (
            self.tolerance_s,
            self.all_fresh_up_to_s,
            self.longest_delivered_outage_s > 0.0,
        ) {
            clauses.push(fresh_clause(tolerance, fresh, sampled));
        }
        let asked = self.asked_outage();
        match asked.or_else(|| self.worst_first_event()) {
            Some(outage) if outage.first_event.lag_s.is_some() => {
                let (lag, age) = (
                    outage.first_event.lag_s.unwrap_or(0.0),
                    outage.first_event.age_s.unwrap_or(0.0),
                );
                let mut clause = format!(
                    "after {} outage the {}first event arrives {} after recovery, {} old",
                    crate::duration::with_article(&format_precise(outage.outage_s)),
                    if sampled { "median " } else { "" },
                    format_duration(lag),
                    format_duration(age),
                );
                // Older than the tolerance, it is stale: said, not left to the reader's sums.
                if let Some(t) = self
                    .tolerance_s
                    .filter(|&t| !crate::reaches::within(age, t))
                {
                    clause += &format!(
                        " (stale: older than the {} tolerance)",
                        crate::duration::as_adjective(&format_duration(t))
                    );
                }
                // The outage asked about exhausts some of its events all the same (under
                // jitter, in some schedules): what becomes of them. The caption was silent on
                // the 7.9% of a 12 h outage's events exhausted (outside product review). With
                // some of its events stale, how many: the share was the answer a product
                // reader came for, and only the jittered caption gave it (outside review).
                let events = &outage.all_events;
                if asked.is_some()
                    && (events.exhausted_share > 0.0 || events.stale_share.is_some_and(|s| s > 0.0))
                {
                    clause +=
                        &format!(", and {}", events_clause(outage, sampled, self.tolerance_s));
                }
                clauses.push(clause);
            }
            // The outage asked about exhausts its first event: what becomes of its events. (A
            // schedule that never retries says so below.)
            Some(outage) if self.longest_delivered_outage_s > 0.0 => {
                clauses.push(exhausted_outage_clause(outage, sampled, self.tolerance_s));
            }
            _ => {}
        }
        clauses.push(self.exhausted_clause(sampled));
        let mut text = capitalized(&clauses.join("; "));
        text += ". ";
        if self.max_recovery_lag_s > 0.0 {
            text += &format!(
                "A long outage's events arrive up to {} after recovery. ",
                format_duration(self.max_recovery_lag_s)
            );
        }
        if let (Some(samples), Some(seed)) = (self.samples, self.seed) {
            text += &format!(
                // A maximum grows with the draws (27.5 min of 1,000, 39.8 min of 100,000):
                // said, as it reads like the exact column it shares a heading with.
                "Sampled from {} jittered schedules (seed {seed}); the max lag and age are the \
                 largest drawn. ",
                crate::number_text::format_count(samples as f64)
            );
        }
        text.trim_end().to_string()
    }

    /// The outage read off, or the only one asked about.
    fn asked_outage(&self) -> Option<&OutageAnswer> {
        (self.read_off_s)
            .and_then(|d| self.outages.iter().find(|o| o.outage_s == d))
            .or(match self.outages.as_slice() {
                [only] => Some(only),
                _ => None,
            })
    }

    /// The longest outage that delivers its first event, as the caption and the numbers table
    /// write it ([`boundary`]); written as the caption names it as its outage when it does
    /// (a sampled one is otherwise rounded: "after a 9.999 ms outage …; outages longer than
    /// 10 ms exhaust …").
    pub(crate) fn longest_delivered_text(&self) -> String {
        let longest = self.longest_delivered_outage_s;
        let named = self
            .asked_outage()
            .or_else(|| self.worst_first_event())
            .map(|outage| outage.outage_s);
        let sampled = self.method == Method::Sampled;
        boundary(longest, sampled && named != Some(longest))
    }

    /// The outage on the report whose delivered first event waits longest after recovery (the
    /// shortest such outage on a tie).
    fn worst_first_event(&self) -> Option<&OutageAnswer> {
        self.outages
            .iter()
            .filter(|o| o.first_event.lag_s.is_some())
            .fold(None, |worst: Option<&OutageAnswer>, o| match worst {
                Some(w) if w.first_event.lag_s >= o.first_event.lag_s => Some(w),
                _ => Some(o),
            })
    }

    fn exhausted_clause(&self, sampled: bool) -> String {
        let longest = self.longest_delivered_outage_s;
        if longest <= 0.0 {
            let never = "every event of any outage is exhausted (the schedule never retries) and \
                         needs a replay";
            // Its events older than the tolerance at recovery are already stale, as
            // `exhausted_stale_share` says.
            return match self.tolerance_s {
                Some(t) => format!(
                    "{never}, which delivers stale those already older than the {} tolerance",
                    crate::duration::as_adjective(&format_duration(t))
                ),
                None => never.to_string(),
            };
        }
        let share = if sampled {
            " in at least 5% of sampled schedules"
        } else {
            ""
        };
        let kept = match self.tolerance_s {
            Some(tolerance) if self.exhausted_are_stale(sampled) => format!(
                "which are kept, but {}already older than the {} tolerance: a replay delivers \
                 them stale",
                if sampled {
                    "in 95% of sampled schedules "
                } else {
                    ""
                },
                crate::duration::as_adjective(&format_duration(tolerance))
            ),
            // Giving up before the tolerance, an outage longer than it exhausts events older
            // than it too: a replay is worth it for the younger ones.
            Some(tolerance) => format!(
                "which are kept and need a replay (one at recovery delivers stale those already \
                 older than the {} tolerance)",
                crate::duration::as_adjective(&format_duration(tolerance))
            ),
            None => "which are kept and need a replay".to_string(),
        };
        format!(
            "outages longer than {} exhaust their earliest events{share}, {kept}",
            self.longest_delivered_text()
        )
    }

    /// Whether every exhausted event is already stale: the schedule as written gives up at or
    /// after the tolerance, so an event exhausted is at least that old (a caption said such
    /// events "need a replay" though they were worth nothing). Under jitter each schedule gives
    /// up at its own time: whether 95% of them do (the 5th percentile of their give-up times,
    /// `longest_delivered_outage_s`, reaches the tolerance).
    pub(crate) fn exhausted_are_stale(&self, sampled: bool) -> bool {
        let give_up = if sampled {
            self.longest_delivered_outage_s
        } else {
            self.give_up_s
        };
        // Within rounding, as every mark: a derived schedule's gaps sum to its tolerance only
        // up to the last digits (32399.999999999993 s for 9 h).
        self.tolerance_s
            .is_some_and(|t| crate::reaches::reaches(give_up, t))
    }
}

/// An outage whose first event is exhausted: the share of its events exhausted, and how the
/// rest arrive (fresh and stale with a tolerance, and then which of the exhausted are already
/// older than it at recovery, worth no replay).
fn exhausted_outage_clause(
    outage: &OutageAnswer,
    sampled: bool,
    tolerance_s: Option<f64>,
) -> String {
    format!(
        "after {} outage the {}first event is exhausted: {}",
        crate::duration::with_article(&format_precise(outage.outage_s)),
        if sampled { "median " } else { "" },
        events_clause(outage, sampled, tolerance_s),
    )
}

/// What becomes of an outage's events: the share exhausted (worth a replay, or already stale
/// with a tolerance) and how the rest arrive, "on average" under jitter.
fn events_clause(outage: &OutageAnswer, sampled: bool, tolerance_s: Option<f64>) -> String {
    let events = &outage.all_events;
    // The shares of the whole add up (thirds read 33% + 33% + 33%), in whole percents, or with
    // the decimals that keep a share from reading 0% or 100% when it is not.
    let shares: Vec<f64> = match (
        events.fresh_share,
        events.stale_share,
        events.exhausted_stale_share,
    ) {
        (Some(fresh), Some(stale), Some(exhausted_stale)) => vec![
            events.exhausted_share - exhausted_stale,
            exhausted_stale,
            fresh,
            stale,
        ],
        _ => vec![events.exhausted_share, events.delivered_share],
    };
    let texts = crate::number_text::percents_adding_up_legibly(&shares);
    let exhausted = match (texts.as_slice(), tolerance_s) {
        ([replay, already, fresh, stale], Some(tolerance)) => {
            let arrive = format!("{fresh} arrive fresh and {stale} stale");
            if shares[0] <= 0.0 && shares[1] <= 0.0 {
                format!("{fresh} of the outage's events arrive fresh and {stale} stale")
            } else if shares[1] <= 0.0 {
                format!("{replay} of the outage's events need a replay, {arrive}")
            } else if shares[0] <= 0.0 {
                format!("{already} of the outage's events are exhausted (kept, already stale), {arrive}")
            } else {
                format!(
                    "{replay} of the outage's events need a replay and {already} are exhausted already \
                     older than the {} tolerance (kept, stale), {arrive}",
                    crate::duration::as_adjective(&format_duration(tolerance))
                )
            }
        }
        ([replay, delivered], _) => {
            format!("{replay} of the outage's events need a replay, {delivered} are delivered")
        }
        _ => String::new(),
    };
    format!("{}{exhausted}", if sampled { "on average " } else { "" })
}

fn fresh_clause(tolerance_s: f64, fresh_s: f64, sampled: bool) -> String {
    let share = if sampled {
        " in 95% of sampled schedules"
    } else {
        ""
    };
    if fresh_s > 0.0 {
        format!(
            "outages up to {} deliver every event fresh{share}",
            boundary(fresh_s, sampled)
        )
    } else {
        format!(
            "no outage delivers every event fresh{share}: the first retry comes more than {} \
             after the first attempt",
            format_duration(tolerance_s)
        )
    }
}

/// A length that outages are compared with: exactly when it is an attempt time of the schedule
/// ([`format_precise`]), rounded when it is a percentile of sampled schedules.
fn boundary(seconds: f64, sampled: bool) -> String {
    if sampled {
        format_duration(seconds)
    } else {
        format_precise(seconds)
    }
}

impl StalenessReport {
    /// A length of this report that outages are compared with (the longest outage delivering
    /// its first event, or all its events fresh), written as the caption writes it.
    pub(crate) fn boundary_text(&self, seconds: f64) -> String {
        boundary(seconds, self.method == Method::Sampled)
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => std::iter::once(first.to_ascii_uppercase())
            .chain(chars)
            .collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jitter::Jitter;
    use crate::Policy;

    const HOUR: f64 = 3_600.0;

    /// Decorrelated jitter between a base and a cap of 1 µs draws every gap at 1 µs: every
    /// sampled schedule gives up at 9.999 ms, the outage the caption names, and its boundary
    /// is written the same way (it read "after a 9.999 ms outage …; outages longer than 10 ms").
    #[test]
    fn a_sampled_boundary_named_as_the_outage_reads_the_same() {
        let policy = Policy::new(1e-6, 1.0, 1e-6, crate::Stop::Attempts(10_000)).unwrap();
        let question = Question::new(&policy, Jitter::Decorrelated, 1)
            .unwrap()
            .with_samples(1_000)
            .unwrap();
        let report = StalenessReport::ladder(&question, None).unwrap();
        // The numbers table under the chart reads it as the caption does.
        assert_eq!(report.longest_delivered_text(), "9.999 ms");
        let caption = report.caption();
        assert!(caption.starts_with("After a 9.999 ms outage"), "{caption}");
        assert!(
            caption.contains("outages longer than 9.999 ms exhaust"),
            "{caption}"
        );
    }

    /// An exhausted outage's sentence gives shares of one whole: thirds read "33% … 33% fresh
    /// and 33% stale" (99%); they add up, and a share under half a percent keeps its decimals.
    #[test]
    fn an_exhausted_outages_shares_add_up() {
        let outage = |delivered: f64, fresh: f64, exhausted_stale: f64| OutageAnswer {
            outage_s: 4.0 * HOUR,
            first_event: super::super::outage::FirstEvent::exhausted(),
            all_events: super::super::outage::AllEvents::shares(
                3.0,
                delivered,
                Some(super::super::outage::Tolerated {
                    fresh,
                    exhausted_stale,
                }),
            ),
            spread: None,
        };
        let said = |delivered, fresh, exhausted_stale| {
            exhausted_outage_clause(
                &outage(delivered, fresh, exhausted_stale),
                false,
                Some(HOUR),
            )
        };
        assert!(said(2.0, 1.0, 0.0)
            .contains("34% of the outage's events need a replay, 33% arrive fresh and 33% stale"));
        // Small shares keep the decimals that say them, and all of them have those decimals,
        // so that they still add up (it read "0.3% …, 99.6% … and 0.03%").
        let small = said(2.99, 2.989, 0.0);
        assert!(
            small.contains(
                "0.34% of the outage's events need a replay, 99.63% arrive fresh and 0.03% stale"
            ),
            "{small}"
        );
        // A schedule giving up past the tolerance exhausts only stale events.
        assert!(said(2.0, 1.0, 1.0).contains(
            "34% of the outage's events are exhausted (kept, already stale), 33% arrive fresh"
        ));
        // Giving up before it, an outage longer than the tolerance exhausts both kinds.
        assert!(said(1.2, 0.6, 1.5).contains(
            "10% of the outage's events need a replay and 50% are exhausted already older than the 1 h \
             tolerance (kept, stale), 20% arrive fresh and 20% stale"
        ));
    }

    fn article(tolerance_s: f64) -> StalenessReport {
        let question = Question::new(&Policy::article(), Jitter::None, 0)
            .and_then(|q| q.with_tolerance(tolerance_s))
            .unwrap();
        StalenessReport::ladder(&question, None).unwrap()
    }

    #[test]
    fn caption_answers_in_words() {
        assert_eq!(
            article(6.0 * HOUR).caption(),
            "Outages up to 3 h 02 min deliver every event fresh; after a 4 h outage the first \
             event arrives 2 h 02 min after recovery, 6 h 02 min old (stale: older than the 6 h \
             tolerance); outages longer than \
             24 h 02 min exhaust their earliest events, which are kept, but already older than \
             the 6 h tolerance: a replay delivers them stale. A long outage's events arrive up \
             to 3 h after recovery."
        );
        // Giving up before the tolerance, an exhausted event is still worth a replay.
        assert!(article(48.0 * HOUR).caption().contains(
            "exhaust their earliest events, which are kept and need a replay (one at \
                 recovery delivers stale those already older than the 48 h tolerance)."
        ));
    }

    #[test]
    fn caption_when_nothing_is_fresh_or_delivered() {
        assert!(article(10.0).caption().starts_with(
            "No outage delivers every event fresh: the first retry comes more than 10 s"
        ));
        let once = Policy::new(30.0, 2.0, 60.0, crate::Stop::Attempts(1)).unwrap();
        let question = Question::new(&once, Jitter::None, 0).unwrap();
        let report = StalenessReport::ladder(&question, None).unwrap();
        assert_eq!(
            report.caption(),
            "Every event of any outage is exhausted (the schedule never retries) and needs a replay."
        );
    }

    /// A schedule that never retries, with a tolerance: its exhausted events older than it are
    /// stale, as `exhausted_stale_share` says (the caption said all "need a replay", and that
    /// "the first retry comes more than 1 h after" a retry there is not).
    #[test]
    fn a_schedule_that_never_retries_names_its_stale_events() {
        let once = Policy::new(30.0, 3.0, 3.0 * HOUR, crate::Stop::Attempts(1)).unwrap();
        let question = Question::new(&once, Jitter::None, 0)
            .and_then(|q| q.with_tolerance(HOUR))
            .unwrap();
        let report = StalenessReport::new(&question, &[3.0 * HOUR], None).unwrap();
        assert_eq!(
            report.caption(),
            "Every event of any outage is exhausted (the schedule never retries) and needs a \
             replay, which delivers stale those already older than the 1 h tolerance."
        );
        let events = report.outages[0].all_events;
        assert_eq!(events.exhausted_share, 1.0);
        assert!((events.exhausted_stale_share.unwrap() - 2.0 / 3.0).abs() < 1e-15);
    }

    /// Under jitter the median first event of a 12 h outage is delivered, but 8% of its events
    /// are exhausted in some schedules: the caption says what becomes of them (it was silent).
    #[test]
    fn an_outage_asked_about_names_its_exhausted_events_under_jitter() {
        let question = Question::new(&Policy::article(), Jitter::Full, 42)
            .and_then(|q| q.with_tolerance(6.0 * HOUR))
            .unwrap();
        let report = StalenessReport::new(&question, &[12.0 * HOUR], None).unwrap();
        let events = report.outages[0].all_events;
        assert!(report.outages[0].first_event.lag_s.is_some());
        assert!(events.exhausted_share > 0.05, "{events:?}");
        let caption = report.caption();
        assert!(
            caption.contains(", and on average ")
                && caption.contains("are exhausted already older than the 6 h tolerance"),
            "{caption}"
        );
        // The ladder's worst first event is not the outage asked about: no such clause there.
        let ladder = StalenessReport::ladder(&question, None).unwrap().caption();
        assert!(!ladder.contains(", and on average"), "{ladder}");
    }

    /// A give-up a rounding error short of the tolerance (0.7 s + 0.1 s) gives up on it: every
    /// exhausted event is stale, and the caption does not split off "under 0.001%" worth a
    /// replay.
    #[test]
    fn a_give_up_on_the_tolerance_within_rounding_exhausts_only_stale_events() {
        let gaps = Policy::explicit(&[0.7, 0.1], None, Some(crate::Stop::Attempts(3))).unwrap();
        let question = Question::new(&gaps, Jitter::None, 0)
            .and_then(|q| q.with_tolerance(0.8))
            .unwrap();
        let report = StalenessReport::new(&question, &[1.0], None).unwrap();
        let events = report.outages[0].all_events;
        assert_eq!(events.exhausted_stale_share, Some(events.exhausted_share));
        assert!(
            report
                .caption()
                .contains("20% of the outage's events are exhausted (kept, already stale)"),
            "{}",
            report.caption()
        );
    }

    /// Under gRPC's ±20% jitter every schedule gives up at 90 s or later, past a 60 s
    /// tolerance: every exhausted event of a 4 h outage is stale, exactly. The sums of the
    /// sampled schedules left 1.7e-15 of it "need a replay" ("under 0.001%": outside review).
    #[test]
    fn sampled_schedules_giving_up_past_the_tolerance_exhaust_only_stale_events() {
        let grpc = crate::presets::preset("grpc").unwrap();
        let question = Question::new(&grpc.policy, grpc.jitter, 42)
            .and_then(|q| q.with_tolerance(60.0))
            .unwrap();
        let report = StalenessReport::new(&question, &[4.0 * HOUR], None).unwrap();
        let events = report.outages[0].all_events;
        assert!(events.exhausted_share > 0.9, "{events:?}");
        assert_eq!(events.exhausted_stale_share, Some(events.exhausted_share));
        let caption = report.caption();
        assert!(!caption.contains("replay,"), "{caption}");
        assert!(
            caption.contains("of the outage's events are exhausted (kept, already stale)"),
            "{caption}"
        );
    }

    /// A share that reads 0% or 100% even at 3 decimals, and is not, is "under 0.001%" or
    /// "over 99.999%" (an outage a microsecond past gRPC's give-up read "0.000% … need a
    /// replay, 100.000% are delivered").
    #[test]
    fn a_share_past_three_decimals_is_said_to_be_under_or_over() {
        let grpc = crate::presets::preset("grpc").unwrap();
        let question = Question::new(&grpc.policy, Jitter::None, 0).unwrap();
        let report = StalenessReport::new(&question, &[112.865_795], None).unwrap();
        let caption = report.caption();
        assert!(
            caption.contains(
                "under 0.001% of the outage's events need a replay, over 99.999% are delivered"
            ),
            "{caption}"
        );
    }

    /// One outage asked about whose first event is exhausted is still answered (the page's
    /// read-off outage of 30 h: the events older than the 24 h 02 min give-up at recovery are
    /// exhausted, 5 h 58 min of 30 h or 19.9%; those within 6 h of their delivery fresh, 10.1%).
    #[test]
    fn caption_of_one_outage_whose_first_event_is_exhausted() {
        let question = Question::new(&Policy::article(), Jitter::None, 0)
            .and_then(|q| q.with_tolerance(6.0 * HOUR))
            .unwrap();
        let report = StalenessReport::new(&question, &[30.0 * HOUR], None).unwrap();
        let caption = report.caption();
        assert!(
            caption.contains(
                "after a 30 h outage the first event is exhausted: 20% of the outage's events are \
                 exhausted (kept, already stale), 10% arrive fresh and 70% stale;"
            ),
            "{caption}"
        );
    }

    /// An outage asked about whose first event arrives stale says how many of its events do:
    /// the exact caption gave only the first event's lag and age (outside review). Every 10 min
    /// for 80 min, after a 1 h outage an event born `u` into it is delivered at the first
    /// attempt from 1 h on, `10 min × ⌈(60 − u) / 10⌉` old: within a 30 min tolerance exactly
    /// when `u ≥ 30 min`, half of them.
    #[test]
    fn caption_says_how_many_of_the_outages_events_arrive_stale() {
        let every_ten = Policy::explicit(&[600.0; 8], None, None).unwrap();
        let question = Question::new(&every_ten, Jitter::None, 0)
            .and_then(|q| q.with_tolerance(1_800.0))
            .unwrap();
        let report = StalenessReport::new(&question, &[HOUR], None).unwrap();
        let caption = report.caption();
        assert!(
            caption.contains(
                "after a 1 h outage the first event arrives 0 s after recovery, 1 h old (stale: \
                 older than the 30 min tolerance), and 50% of the outage's events arrive fresh \
                 and 50% stale;"
            ),
            "{caption}"
        );
        // Within the tolerance nothing is stale, and nothing more is said.
        let report = StalenessReport::new(&question, &[1_200.0], None).unwrap();
        assert!(
            !report.caption().contains("of the outage's events"),
            "{}",
            report.caption()
        );
    }

    #[test]
    fn max_lag_needs_a_tolerance() {
        let question = Question::new(&Policy::article(), Jitter::None, 0).unwrap();
        assert_eq!(
            StalenessReport::ladder(&question, Some(HOUR))
                .unwrap_err()
                .to_string(),
            "max-lag must be given only with a tolerance (how long an event stays worth \
             delivering), which the schedule it derives needs, got 1 h"
        );
    }
}
