//! What one computation may cost, estimated and checked before it starts. The command line, the
//! JS API and the page share these limits (each is a refusal naming the input and the limit),
//! so that no input can take minutes or exhaust memory. Each is set to about ten seconds of
//! work in a browser's worker on a two-core machine (natively it is a few times faster).

use crate::jitter::Jitter;
use crate::number_text::format_count;
use crate::Error;

/// The work of one report's random draws, in units of the cheapest draw (see
/// [`delivery_cost`]): samples (or deliveries) × the cost of one. About 2 ns a unit in wasm.
pub const MAX_DRAWS: f64 = 2e9;

/// What the drawn gaps are for: a give-up time only sums them, a herd also counts each retry
/// in its histograms, staleness keeps each schedule's attempt times and looks outages up in
/// them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Draws {
    /// Give-up times (the distribution chart, `jitter`).
    GiveUpTimes,
    /// A herd's retries per second (`herd`).
    Herd,
    /// Staleness under jitter: per sampled schedule, its attempt times and every outage of the
    /// question looked up in them.
    Staleness {
        /// How many outages each sampled schedule answers.
        outages: usize,
    },
}

/// What one delivery (or sampled schedule) of `attempts` attempts drawn with `jitter` costs,
/// in units of a full-jitter give-up time's draw (1.75 ns natively), as measured with timed
/// runs of the command line: a gap of a give-up time costs 1, a decorrelated one 5 (it depends on
/// the one before); a herd's gap also counts its retry in a histogram of up to a million bins,
/// whose scattered writes miss the cache, and costs 24 (either way: 21 s natively for the 500
/// million gaps it was refused past at 4, 40 ns a gap; outside review); a staleness
/// schedule stores each attempt time, 4 a gap (8 decorrelated), and answers each outage with a
/// few binary searches and the sums the percentiles need, 40 an outage.
///
/// # Example
/// ```
/// use backoff_lab::jitter::Jitter;
/// use backoff_lab::limits::{delivery_cost, Draws};
/// assert_eq!(delivery_cost(14, Jitter::Full, Draws::GiveUpTimes), 13.0);
/// assert_eq!(delivery_cost(14, Jitter::Decorrelated, Draws::GiveUpTimes), 65.0);
/// assert_eq!(delivery_cost(14, Jitter::Full, Draws::Staleness { outages: 10 }), 13.0 * 4.0 + 400.0);
/// ```
pub fn delivery_cost(attempts: u32, jitter: Jitter, draws: Draws) -> f64 {
    let retries = f64::from(attempts.saturating_sub(1).max(1));
    let decorrelated = matches!(jitter, Jitter::Decorrelated);
    let per_gap = match draws {
        Draws::GiveUpTimes if decorrelated => 5.0,
        Draws::GiveUpTimes => 1.0,
        Draws::Herd => 24.0,
        Draws::Staleness { .. } if decorrelated => 8.0,
        Draws::Staleness { .. } => 4.0,
    };
    let per_outage = match draws {
        Draws::Staleness { outages } => 40.0 * outages as f64,
        _ => 0.0,
    };
    retries * per_gap + per_outage
}

/// Checks that `count` deliveries (or sampled schedules) of `attempts` attempts each, drawn
/// with `jitter` for `draws`, cost at most [`MAX_DRAWS`] (see [`delivery_cost`]); `field` names
/// the count (`samples`, `deliveries`).
///
/// # Example
/// ```
/// use backoff_lab::jitter::Jitter;
/// use backoff_lab::limits::{check_draws, Draws};
/// assert!(check_draws("samples", 1_000_000, 14, Jitter::Full, Draws::GiveUpTimes).is_ok());
/// let refused = check_draws("samples", 1_000_000, 10_000, Jitter::Full, Draws::GiveUpTimes);
/// assert_eq!(
///     refused.unwrap_err().to_string(),
///     "samples must be at most 200020 for a schedule of 10000 attempts (samples × retries at most 2,000,000,000 drawn gaps), got 1000000"
/// );
/// let refused = check_draws("deliveries", 1_000_000, 2001, Jitter::Decorrelated, Draws::Herd);
/// assert_eq!(
///     refused.unwrap_err().to_string(),
///     "deliveries must be at most 41666 for a schedule of 2001 attempts (deliveries × 48,000 at most 2,000,000,000 draws: a herd's delivery with decorrelated jitter costs 48,000), got 1000000"
/// );
/// let refused = check_draws("deliveries", 1_000_000, 10_000, Jitter::None, Draws::Herd);
/// assert!(refused.unwrap_err().to_string().contains("a herd's delivery with no jitter costs"));
/// ```
pub fn check_draws(
    field: &'static str,
    count: usize,
    attempts: u32,
    jitter: Jitter,
    draws: Draws,
) -> Result<(), Error> {
    let cost = delivery_cost(attempts, jitter, draws);
    if count as f64 * cost <= MAX_DRAWS {
        return Ok(());
    }
    let most = (MAX_DRAWS / cost).floor();
    let retries = f64::from(attempts.saturating_sub(1).max(1));
    // The limit and a cost are the core's own numbers, grouped for reading; the count to type
    // stays as it is typed.
    let (limit, cost_text) = (format_count(MAX_DRAWS), format_count(cost));
    let weighed = if cost == retries {
        format!("{field} × retries at most {limit} drawn gaps")
    } else {
        // "with none jitter" read as a typo.
        let mode = match jitter {
            Jitter::None => "no jitter".to_string(),
            _ => format!("{} jitter", jitter.name()),
        };
        let what = match draws {
            Draws::GiveUpTimes => format!("a give-up time with {mode}"),
            Draws::Herd => format!("a herd's delivery with {mode}"),
            Draws::Staleness { outages } => {
                let plural = if outages == 1 { "" } else { "s" };
                format!("a schedule with {mode} answering {outages} outage{plural}")
            }
        };
        format!("{field} × {cost_text} at most {limit} draws: {what} costs {cost_text}")
    };
    Err(Error::out_of_range(
        field,
        count,
        format!("at most {most} for a schedule of {attempts} attempts ({weighed})"),
    ))
}

/// The samples of `attempts`-attempt schedules drawn with `jitter` for `draws` that cost a
/// `share` of [`MAX_DRAWS`], between `floor` and `ceiling`: estimates that sample for want of a
/// closed form (a decorrelated give-up time) take fewer samples for long schedules.
pub fn affordable_samples(
    attempts: u32,
    jitter: Jitter,
    draws: Draws,
    share: f64,
    (floor, ceiling): (usize, usize),
) -> usize {
    let samples = MAX_DRAWS * share / delivery_cost(attempts, jitter, draws);
    (samples as usize).clamp(floor, ceiling)
}
