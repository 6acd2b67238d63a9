//! The answer for one outage: what happens to its first event and to all its events, and the
//! exact computation of both for an unjittered schedule.

use serde::{Deserialize, Serialize};

use super::timeline::Timeline;

/// What became of an event.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// An attempt after recovery delivered it.
    Delivered,
    /// Every attempt fell inside the outage. The event is kept and can be replayed; it is not
    /// lost, but no retry will deliver it.
    Exhausted,
}

impl Outcome {
    /// The outcome as the JSON writes it: `delivered` or `exhausted`.
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Delivered => "delivered",
            Outcome::Exhausted => "exhausted",
        }
    }
}

/// The first event of an outage: the one that arrived as it began and waits longest.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FirstEvent {
    /// Delivered or exhausted.
    pub outcome: Outcome,
    /// The attempt that delivered it (1 is the first delivery); `None` when exhausted.
    pub attempt: Option<u32>,
    /// Seconds from recovery to its delivery; `None` when exhausted.
    pub lag_s: Option<f64>,
    /// Seconds from its first attempt to its delivery (at least the outage); `None` when
    /// exhausted.
    pub age_s: Option<f64>,
}

impl FirstEvent {
    /// The event delivered by `attempt`, `lag_s` after recovery, `age_s` old.
    pub fn delivered(attempt: u32, lag_s: f64, age_s: f64) -> Self {
        FirstEvent {
            outcome: Outcome::Delivered,
            attempt: Some(attempt),
            lag_s: Some(lag_s),
            age_s: Some(age_s),
        }
    }

    /// The event exhausted: kept, replayable, never delivered by a retry.
    pub fn exhausted() -> Self {
        FirstEvent {
            outcome: Outcome::Exhausted,
            attempt: None,
            lag_s: None,
            age_s: None,
        }
    }
}

/// All events of an outage, arriving at a steady rate throughout it. The shares are of those
/// events; lags and ages are over the delivered ones (`None` when none is delivered).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AllEvents {
    /// The share (0 to 1) delivered by a retry.
    pub delivered_share: f64,
    /// The share exhausted: kept and replayable, but not delivered by any retry.
    pub exhausted_share: f64,
    /// With a tolerance: the share delivered at most that old. `None` without one.
    pub fresh_share: Option<f64>,
    /// With a tolerance: the share delivered older than that (worth nothing). `None` without
    /// one. Fresh, stale and exhausted add up to 1.
    pub stale_share: Option<f64>,
    /// With a tolerance: the part of the exhausted share already older than the tolerance at
    /// recovery, which even a replay at recovery delivers stale (the rest of the exhausted is
    /// young enough for one). `None` without a tolerance.
    pub exhausted_stale_share: Option<f64>,
    /// The mean seconds from recovery to delivery, over the events delivered (an exhausted
    /// event has no lag; `None` when none is delivered), as are the percentiles below.
    pub lag_mean_s: Option<f64>,
    /// The median of those seconds.
    pub lag_p50_s: Option<f64>,
    /// Their 95th percentile.
    pub lag_p95_s: Option<f64>,
    /// The longest (a supremum: the last event before a retry waits a whole gap, less an
    /// instant).
    pub lag_max_s: Option<f64>,
    /// The age of the oldest delivered event.
    pub age_max_s: Option<f64>,
}

impl AllEvents {
    /// The shares of `mass` event-seconds of which `delivered` were delivered and, with a
    /// tolerance, `fresh` of those fresh and `exhausted_stale` of the rest already stale at
    /// recovery; no lag yet. The lengths are sums of floating-point differences that can stray
    /// past their bounds by a rounding error, so each is clamped: `0 ≤ fresh ≤ delivered ≤
    /// mass`, `0 ≤ exhausted_stale ≤ mass − delivered`, and the shares stay in 0 to 1.
    pub(crate) fn shares(mass: f64, delivered: f64, tolerated: Option<Tolerated>) -> Self {
        let delivered = delivered.clamp(0.0, mass);
        let fresh = tolerated.map(|t| t.fresh.clamp(0.0, delivered));
        let exhausted = mass - delivered;
        let exhausted_stale = tolerated.map(|t| t.exhausted_stale.clamp(0.0, exhausted) / mass);
        AllEvents {
            delivered_share: delivered / mass,
            exhausted_share: exhausted / mass,
            fresh_share: fresh.map(|f| f / mass),
            stale_share: fresh.map(|f| (delivered - f) / mass),
            exhausted_stale_share: exhausted_stale,
            lag_mean_s: None,
            lag_p50_s: None,
            lag_p95_s: None,
            lag_max_s: None,
            age_max_s: None,
        }
    }
}

/// With a tolerance, the event-seconds of an outage delivered fresh and those exhausted already
/// older than the tolerance at recovery.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Tolerated {
    pub fresh: f64,
    pub exhausted_stale: f64,
}

/// The 50th and 95th percentiles and the largest of sampled values, in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    /// The median.
    pub p50_s: f64,
    /// The 95th percentile.
    pub p95_s: f64,
    /// The largest value drawn.
    pub max_s: f64,
}

/// What only sampling shows: how the first event's lag and age vary between jittered schedules
/// (the staleness chart's 95th percentile line). Not part of the JSON contract.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SampledSpread {
    /// The share of sampled schedules that deliver the first event.
    pub first_delivered_share: f64,
    /// The first event's lag over the schedules that deliver it.
    pub first_lag: Option<Spread>,
    /// The first event's age over the schedules that deliver it.
    pub first_age: Option<Spread>,
}

/// The answer for one outage.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutageAnswer {
    /// The outage's length, seconds.
    pub outage_s: f64,
    /// Its first event. Under jitter, the median one: of the sampled schedules, the one whose
    /// first event is delivered at the median time (an exhausted event counting as never).
    pub first_event: FirstEvent,
    /// All its events.
    pub all_events: AllEvents,
    /// Under jitter, the spread the median hides; `None` when exact.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    pub spread: Option<SampledSpread>,
}

impl OutageAnswer {
    /// The exact answer for an outage of `outage_s` under the attempt times of `timeline`.
    pub(crate) fn exact(timeline: &Timeline, outage_s: f64, tolerance_s: Option<f64>) -> Self {
        let outcome = timeline.outcome(outage_s);
        let first_event = match outcome.first_event {
            Some((lag, age, attempt)) => FirstEvent::delivered(attempt, lag, age),
            None => FirstEvent::exhausted(),
        };
        let delivered = outcome.delivered_len;
        let tolerated = tolerance_s.map(|t| Tolerated {
            fresh: timeline.fresh_len(outage_s, t),
            exhausted_stale: timeline.exhausted_stale_len(outage_s, t),
        });
        let mixture = timeline.lag_mixture(outage_s);
        let all_events = AllEvents {
            lag_mean_s: (delivered > 0.0).then(|| outcome.lag_integral / delivered),
            lag_p50_s: mixture.as_ref().map(|m| m.quantile(0.5)),
            lag_p95_s: mixture.as_ref().map(|m| m.quantile(0.95)),
            lag_max_s: outcome.lag_max,
            age_max_s: outcome.age_max,
            ..AllEvents::shares(outage_s, delivered, tolerated)
        };
        OutageAnswer {
            outage_s,
            first_event,
            all_events,
            spread: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forty_seconds_under_gaps_10_20_30() {
        let timeline = Timeline::new([0.0, 10.0, 30.0, 60.0]);
        let answer = OutageAnswer::exact(&timeline, 40.0, Some(30.0));
        assert_eq!(answer.first_event, FirstEvent::delivered(4, 20.0, 60.0));
        let all = answer.all_events;
        assert_eq!((all.delivered_share, all.exhausted_share), (1.0, 0.0));
        assert_eq!((all.fresh_share, all.stale_share), (Some(0.75), Some(0.25)));
        assert_eq!(all.lag_mean_s, Some(12.5));
        assert_eq!(all.lag_p50_s, Some(10.0));
        assert!((all.lag_p95_s.unwrap() - 28.0).abs() < 1e-12);
        assert_eq!((all.lag_max_s, all.age_max_s), (Some(30.0), Some(60.0)));
    }

    #[test]
    fn one_attempt_exhausts_everything() {
        let answer = OutageAnswer::exact(&Timeline::new([0.0]), 5.0, None);
        assert_eq!(answer.first_event, FirstEvent::exhausted());
        assert_eq!(answer.all_events.exhausted_share, 1.0);
        assert_eq!(answer.all_events.lag_mean_s, None);
        assert_eq!(answer.all_events.fresh_share, None);
    }

    #[test]
    fn json_names_the_outcome_in_lowercase() {
        let json = serde_json::to_value(FirstEvent::exhausted()).unwrap();
        assert_eq!(json["outcome"], "exhausted");
        assert!(json["attempt"].is_null() && json["lag_s"].is_null() && json["age_s"].is_null());
    }
}
