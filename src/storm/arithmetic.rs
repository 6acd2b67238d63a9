//! The article's own per-minute arithmetic: attempts in a minute ≈ new deliveries plus
//! retries-per-minute × the backlog entering it, while every attempt fails. It models only the
//! steady arrivals, the outage's length and the retry interval; its report has the simulated
//! engines' shape with `null` where it models nothing.

use serde::{Deserialize, Serialize};

use super::Scenario;
use crate::Error;

/// One minute of the arithmetic view.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ArithmeticMinute {
    /// 1-based minute.
    pub minute: u32,
    /// New deliveries plus the backlog's retries in the minute.
    #[serde(serialize_with = "super::report::count")]
    pub attempts: f64,
    /// New deliveries in the minute (every one makes its first attempt).
    #[serde(serialize_with = "super::report::count")]
    pub first_attempts: f64,
    /// Retries in the minute.
    #[serde(serialize_with = "super::report::count")]
    pub retries: f64,
    /// Deliveries waiting for a retry as the minute starts.
    #[serde(serialize_with = "super::report::count")]
    pub backlog_entering: f64,
    /// Deliveries waiting as the minute ends (none succeeds while the outage lasts).
    #[serde(serialize_with = "super::report::count")]
    pub backlog: f64,
    /// `attempts` as a multiple of normal traffic (a minute of arrivals).
    #[serde(serialize_with = "super::report::count")]
    pub multiple: f64,
    /// Not modelled: `null`.
    pub successes: Option<f64>,
    /// Not modelled: `null`.
    pub duplicates: Option<f64>,
    /// Not modelled: `null`.
    pub exhausted: Option<f64>,
}

/// The arithmetic view's totals; what it does not model is `null`.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ArithmeticSummary {
    /// Deliveries arriving over the minutes shown.
    #[serde(serialize_with = "super::report::count")]
    pub arrivals: f64,
    /// The most attempts in any minute (the last one: the minute the fix ships).
    #[serde(serialize_with = "super::report::count")]
    pub peak_attempts_per_min: f64,
    /// That minute.
    pub peak_minute: u32,
    /// The peak as a multiple of normal traffic.
    #[serde(serialize_with = "super::report::count")]
    pub peak_multiple: f64,
    /// When the outage ends, seconds.
    pub outage_end_s: u32,
    /// Not modelled: `null`.
    pub delivered: Option<f64>,
    /// Not modelled: `null`.
    pub exhausted: Option<f64>,
    /// Not modelled: `null`.
    pub duplicates: Option<f64>,
    /// Not modelled: `null`.
    pub drained_at_s: Option<u32>,
}

/// The arithmetic view: its minutes and summary.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArithmeticReport {
    /// Always `arithmetic`.
    pub engine: String,
    /// The outage's minutes and the minute after the fix.
    pub minutes: Vec<ArithmeticMinute>,
    /// The totals.
    pub summary: ArithmeticSummary,
}

/// The view for the outage's minutes and the minute after the fix, when nothing succeeds yet:
/// each backlogged delivery retries `60 / interval` times a minute (the fixed interval, or the
/// cap for a backoff policy deep in its capped tail), and every new delivery joins the backlog.
///
/// # Example
/// ```
/// use backoff_lab::storm::{arithmetic_view, Scenario};
/// let view = arithmetic_view(&Scenario::article_fixed())?;
/// assert_eq!(view.minutes[9].attempts, 11_400.0); // minute 10: 19× normal traffic
/// assert_eq!(view.minutes[10].attempts, 12_600.0); // minute 11: the fix ships
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn arithmetic_view(scenario: &Scenario) -> Result<ArithmeticReport, Error> {
    // The table counts whole minutes of outage: a 30 s one would be a minute's backlog.
    if scenario.outage.1 % 60 != 0 {
        return Err(Error::out_of_range(
            "outage",
            crate::duration::format_precise(f64::from(scenario.outage.1)),
            "whole minutes for the arithmetic engine (the article's table counts minutes)",
        ));
    }
    // Retries a minute are 60 s over the interval, which a policy holds to 1 µs at least (one
    // of 5e-324 s had made them infinite, one of 1e-300 s counts of 300 digits).
    let interval = scenario.policy.cap_s();
    let new = scenario.arrivals_per_s * 60.0;
    let per_delivery = 60.0 / interval;
    let count = scenario.outage.1.div_ceil(60) + 1;
    let mut backlog = 0.0;
    let minutes: Vec<ArithmeticMinute> = (1..=count)
        .map(|minute| {
            let retries = per_delivery * backlog;
            let row = ArithmeticMinute {
                minute,
                attempts: new + retries,
                first_attempts: new,
                retries,
                backlog_entering: backlog,
                backlog: backlog + new,
                multiple: (new + retries) / new,
                successes: None,
                duplicates: None,
                exhausted: None,
            };
            backlog += new;
            row
        })
        .collect();
    let peak = minutes[minutes.len() - 1];
    Ok(ArithmeticReport {
        engine: "arithmetic".into(),
        summary: ArithmeticSummary {
            arrivals: new * f64::from(count),
            peak_attempts_per_min: peak.attempts,
            peak_minute: peak.minute,
            peak_multiple: peak.multiple,
            outage_end_s: scenario.outage_end(),
            delivered: None,
            exhausted: None,
            duplicates: None,
            drained_at_s: None,
        },
        minutes,
    })
}

impl ArithmeticReport {
    /// The minutes as a table.
    pub fn to_table(&self) -> String {
        let mut out = String::from("Minute  Backlog entering it  Attempts during it  × normal\n");
        for m in &self.minutes {
            out += &format!(
                "{:>6}  {:>18.0}  {:>18.0}  {:>8.1}\n",
                m.minute, m.backlog_entering, m.attempts, m.multiple
            );
        }
        out
    }

    /// The minutes as CSV.
    pub fn to_csv(&self) -> String {
        let mut out = String::from(
            "minute,backlog_entering,attempts,first_attempts,retries,backlog,multiple\n",
        );
        for m in &self.minutes {
            out += &format!(
                "{},{},{},{},{},{},{}\n",
                m.minute,
                m.backlog_entering,
                m.attempts,
                m.first_attempts,
                m.retries,
                m.backlog,
                m.multiple
            );
        }
        out
    }
}
