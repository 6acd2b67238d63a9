//! The article's own per-minute arithmetic: attempts in a minute ≈ new deliveries plus
//! retries-per-minute × the backlog entering it, while every attempt fails.

use serde::{Deserialize, Serialize};

use super::Scenario;

/// One minute of the arithmetic view.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ArithmeticMinute {
    /// 1-based minute.
    pub minute: u32,
    /// Deliveries waiting for a retry as the minute starts.
    pub backlog_entering: f64,
    /// New deliveries plus the backlog's retries in the minute.
    pub attempts: f64,
    /// `attempts` as a multiple of normal traffic.
    pub multiple: f64,
}

/// The view for the outage's minutes and the minute after the fix, when nothing succeeds yet:
/// each backlogged delivery retries `60 / interval` times a minute (the fixed interval, or the
/// cap for a backoff policy deep in its capped tail), and every new delivery joins the backlog.
///
/// # Example
/// ```
/// use backoff_lab::storm::{arithmetic_view, Scenario};
/// let view = arithmetic_view(&Scenario::article_fixed());
/// assert_eq!(view[9].attempts, 11_400.0); // minute 10: 19× normal traffic
/// assert_eq!(view[10].attempts, 12_600.0); // minute 11: the fix ships
/// ```
pub fn arithmetic_view(scenario: &Scenario) -> Vec<ArithmeticMinute> {
    let new = scenario.arrivals_per_s * 60.0;
    let per_delivery = 60.0 / scenario.policy.cap_s();
    let minutes = scenario.outage.1.div_ceil(60) + 1;
    let mut backlog = 0.0;
    (1..=minutes)
        .map(|minute| {
            let attempts = new + per_delivery * backlog;
            let row = ArithmeticMinute {
                minute,
                backlog_entering: backlog,
                attempts,
                multiple: attempts / new,
            };
            backlog += new;
            row
        })
        .collect()
}
