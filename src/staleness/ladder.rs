//! The ladder of outage lengths a report walks through: from a blip to a week, plus the
//! schedule's own give-up time, where first events stop being delivered.

use crate::policy::MAX_SPAN_S;

const MIN: f64 = 60.0;
const HOUR: f64 = 3_600.0;
const DAY: f64 = 86_400.0;

/// The outage lengths every report shows, in seconds: 1 min, 5 min, 15 min, 30 min, 1 h, 2 h,
/// 4 h, 8 h, 12 h, 24 h, 48 h, 72 h and 7 days.
pub const DEFAULT_LADDER_S: [f64; 13] = [
    MIN,
    5.0 * MIN,
    15.0 * MIN,
    30.0 * MIN,
    HOUR,
    2.0 * HOUR,
    4.0 * HOUR,
    8.0 * HOUR,
    12.0 * HOUR,
    DAY,
    2.0 * DAY,
    3.0 * DAY,
    7.0 * DAY,
];

/// The default ladder with `give_up_s` (the schedule's `t_n`) added, sorted and without
/// duplicates. A give-up time of 0 (a single attempt) or beyond 365 days is no valid outage and
/// is left out.
///
/// # Example
/// ```
/// use backoff_lab::staleness::ladder;
/// let rungs = ladder(86_520.0);
/// assert_eq!(rungs.len(), 14);
/// assert_eq!(&rungs[9..11], &[86_400.0, 86_520.0]);
/// assert_eq!(ladder(3_600.0).len(), 13); // 1 h is already on it
/// ```
pub fn ladder(give_up_s: f64) -> Vec<f64> {
    let mut rungs = DEFAULT_LADDER_S.to_vec();
    if give_up_s > 0.0 && give_up_s <= MAX_SPAN_S {
        rungs.push(give_up_s);
    }
    rungs.sort_by(f64::total_cmp);
    rungs.dedup();
    rungs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_give_up_times_stay_off_the_ladder() {
        assert_eq!(ladder(0.0), DEFAULT_LADDER_S.to_vec());
        assert_eq!(ladder(400.0 * DAY), DEFAULT_LADDER_S.to_vec());
        assert_eq!(ladder(10.0)[0], 10.0);
        assert_eq!(ladder(30.0 * DAY).last(), Some(&(30.0 * DAY)));
    }
}
