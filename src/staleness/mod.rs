//! Staleness: how late, and how old, a webhook's events arrive after an outage, and which are
//! exhausted before the destination recovers.
//!
//! # The model
//!
//! A schedule's attempt times, from an event's first attempt, are `t_1 = 0 < t_2 < … < t_n`;
//! `t_n` is its give-up time. An outage of length `D` fails every attempt in `[0, D)` and accepts
//! every attempt at or after `D`.
//!
//! An event that arrives at `a` in `[0, D)` is attempted at `a + t_k`. It is **delivered** by the
//! first attempt with `a + t_k ≥ D`, or **exhausted** when `a + t_n < D`. An exhausted event is
//! not lost: it is kept and can be replayed, but no retry delivers it. A delivered event's
//! **recovery lag** is `a + t_k − D` and its **age** at delivery `t_k`.
//!
//! Two views of an outage:
//! - its **first event** (`a = 0`), which waits longest: delivered by the first `t_k ≥ D`, with
//!   lag `t_k − D` and age `t_k`; exhausted when `D > t_n`;
//! - **all its events**, arriving at a steady rate throughout it (`a` uniform over `[0, D)`).
//!   Attempt `k` delivers the arrivals `a` in `[D − t_k, D − t_{k−1})`, clipped to `[0, D)`;
//!   their lag is uniform over a sub-interval of `[0, t_k − t_{k−1})` and their age is `t_k`.
//!   Delivered is `min(D, t_n) / D` of them and exhausted `max(0, D − t_n) / D`; the lag is a
//!   mixture of uniform pieces, so its mean and percentiles are exact, and so are the largest
//!   lag (the longest gap among the delivering attempts) and the largest age.
//!
//! With a **tolerance** `T`, events older than `T` at delivery are worth nothing: all events of
//! an outage split into fresh (delivered at most `T` old), stale (delivered older) and exhausted,
//! and the three shares add up to 1. Fresh is `min(D, max{t_k ≤ T}) / D`.
//!
//! # Exact and sampled
//!
//! Without jitter every number above is exact ([`Method::Exact`]). Under jitter the `t_k` are
//! random: [`Question`] draws [`DEFAULT_SAMPLES`] schedules with the caller's seed
//! ([`Method::Sampled`], and the report says so with the seed and the count). Within one drawn
//! schedule the model stays exact, so shares, mean lag and the largest lag and age are exact per
//! schedule and averaged (or maximised) over the draws; percentiles come from one delivered
//! event per schedule, drawn uniformly among the arrivals it delivers and weighted by their
//! share of the outage's. The first event reported is the median one, and
//! the lengths derived from the give-up time are taken at its 5th percentile ([`SAFE_LEVEL`]):
//! they hold in 95% of schedules.
//!
//! # Example
//! ```
//! use backoff_lab::jitter::Jitter;
//! use backoff_lab::staleness::{Question, StalenessReport};
//! use backoff_lab::Policy;
//! let question = Question::new(&Policy::article(), Jitter::None, 0)?.with_tolerance(6.0 * 3_600.0)?;
//! let report = StalenessReport::ladder(&question, None)?;
//! assert_eq!(report.all_fresh_up_to_s, Some(10_920.0));
//! assert!(report.caption().starts_with(
//!     "Outages up to 3 h 02 min deliver every event fresh; after a 4 h outage the first event \
//!      arrives 2 h 02 min after recovery, 6 h 02 min old (stale: older than the 6 h tolerance);"
//! ));
//! # Ok::<(), backoff_lab::Error>(())
//! ```

mod curve;
mod ladder;
mod mixture;
mod outage;
mod question;
mod render;
mod report;
mod sampled;
mod suggestion;
mod timeline;

use serde::{Deserialize, Serialize};

use crate::policy::{check_span, span_range};
use crate::Error;

pub use curve::{curve_outages, curve_span, CURVE_SAMPLES};
pub use ladder::{ladder, DEFAULT_LADDER_S};
pub use outage::{AllEvents, FirstEvent, OutageAnswer, Outcome, SampledSpread, Spread};
pub use question::Question;
pub use report::StalenessReport;
pub use suggestion::{suggest, Suggestion};

/// Schedules drawn under jitter unless chosen.
pub const DEFAULT_SAMPLES: usize = 20_000;
/// The most schedules one question may draw: each outage keeps a few numbers per draw.
pub const MAX_SAMPLES: usize = 100_000;
/// The most outages one question may ask about at once.
pub const MAX_OUTAGES: usize = 32;
/// Under jitter, the percentile of the sampled schedules at which the longest delivered outage
/// and the all-fresh length are taken: 0.05, so that they hold in 95% of schedules.
pub const SAFE_LEVEL: f64 = 0.05;

/// How a report's numbers were computed.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// From the closed forms, for a schedule without jitter.
    Exact,
    /// From seeded draws of jittered schedules.
    Sampled,
}

/// Every requested outage's answer and the lengths derived from the same schedules.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Answers {
    pub(crate) outages: Vec<OutageAnswer>,
    pub(crate) longest_delivered_outage_s: f64,
    pub(crate) all_fresh_up_to_s: Option<f64>,
}

/// Refuses an empty or over-long list of outages, or any outage out of range.
pub(crate) fn check_outages(outages_s: &[f64]) -> Result<(), Error> {
    if !(1..=MAX_OUTAGES).contains(&outages_s.len()) {
        return Err(Error::out_of_range(
            "outages",
            format!("{} outages", outages_s.len()),
            "a list of 1 to 32 outage lengths",
        ));
    }
    outages_s
        .iter()
        .try_for_each(|&outage_s| check_span("outage", outage_s, &span_range()))
}

/// Refuses a tolerance outside the span every duration of the crate keeps to.
pub(crate) fn check_tolerance(tolerance_s: f64) -> Result<(), Error> {
    check_span("tolerance", tolerance_s, &span_range())
}

/// Refuses an allowed recovery lag outside that span.
pub(crate) fn check_max_lag(max_lag_s: f64) -> Result<(), Error> {
    check_span("max-lag", max_lag_s, &span_range())
}
