//! One schedule's attempt times `t_1 = 0 < t_2 < … < t_n`, with the running sums that make every
//! per-outage quantity of the model a binary search instead of a scan.

use super::mixture::{Mixture, Piece};
use crate::reaches::{reaches, within};

/// What an outage makes of one schedule ([`Timeline::outcome`]). The tests check each field
/// against a method of its own name that computes it alone, from the model's definition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Outcome {
    /// `L = min(D, t_n)` ([`Timeline::delivered_len`]).
    pub delivered_len: f64,
    /// `∫ lag du` over the delivered arrivals: whole pieces contribute `g²/2`, the last one
    /// `(g² − r²)/2` with `r = t_j − L` the lag of its earliest-delivered event.
    pub lag_integral: f64,
    /// The supremum of the lag over delivered events: the longest gap among the delivering
    /// attempts. `None` when nothing is delivered.
    pub lag_max: Option<f64>,
    /// The oldest delivered event's age: the time of the last delivering attempt.
    pub age_max: Option<f64>,
    /// [`Timeline::event`] of the outage's first event (the one with the whole outage to go).
    pub first_event: Option<(f64, f64, u32)>,
}

/// The attempt times of one schedule (unjittered or drawn) and their running sums.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Timeline {
    /// `times[i]` is attempt `i + 1`'s time since the event's first attempt; `times[0] = 0`.
    times: Vec<f64>,
    /// `half_squares[i]`: the sum of `g_j² / 2` over gaps `j = 1..=i` (`g_j = t_j − t_{j−1}`),
    /// which is the lag integral of the events that attempts `2..=i + 1` deliver.
    half_squares: Vec<f64>,
    /// `widest[i]`: the longest of gaps `1..=i` (0 for `i = 0`).
    widest: Vec<f64>,
}

impl Timeline {
    /// The timeline of attempt times `times` (the first must be 0, the rest ascending).
    pub(crate) fn new(times: impl IntoIterator<Item = f64>) -> Self {
        let mut timeline = Timeline::default();
        timeline.refill(times);
        timeline
    }

    /// Replaces the times, reusing the buffers: sampling refills one timeline per draw.
    pub(crate) fn refill(&mut self, times: impl IntoIterator<Item = f64>) {
        self.times.clear();
        self.half_squares.clear();
        self.widest.clear();
        for t in times {
            let (half, wide) = match self.times.last() {
                Some(&previous) => {
                    let gap = t - previous;
                    (
                        self.half_squares[self.half_squares.len() - 1] + gap * gap / 2.0,
                        self.widest[self.widest.len() - 1].max(gap),
                    )
                }
                None => (0.0, 0.0),
            };
            self.times.push(t);
            self.half_squares.push(half);
            self.widest.push(wide);
        }
    }

    /// The attempt times (for tests that compare draws).
    #[cfg(test)]
    pub(crate) fn times(&self) -> &[f64] {
        &self.times
    }

    /// `t_n`: an event whose outage lasts longer than this after its arrival is exhausted.
    pub(crate) fn give_up_s(&self) -> f64 {
        self.times.last().copied().unwrap_or(0.0)
    }

    /// The 0-based index of the first attempt at or after `elapsed_s`, if any: the attempt that
    /// delivers an event still `elapsed_s` away from recovery when it arrives.
    #[cfg(test)]
    pub(crate) fn reach(&self, elapsed_s: f64) -> Option<usize> {
        let i = self.times.partition_point(|&t| !reaches(t, elapsed_s));
        (i < self.times.len()).then_some(i)
    }

    /// The latest attempt time at or below `tolerance_s` (0 at least: attempt 1 is at 0).
    pub(crate) fn last_within(&self, tolerance_s: f64) -> f64 {
        let i = self.times.partition_point(|&t| within(t, tolerance_s));
        self.times[i.saturating_sub(1)]
    }

    /// `L = min(D, t_n)`: the measure of arrival times `a` in `[0, D)` that are delivered. With
    /// `u = D − a` (time left to recovery at arrival), attempt `k` delivers `u` in
    /// `(t_{k−1}, t_k]`, so exactly `u ≤ t_n` is delivered.
    pub(crate) fn delivered_len(&self, outage_s: f64) -> f64 {
        covered_len(outage_s, self.give_up_s())
    }

    /// The measure of arrivals delivered at most `tolerance_s` old: the attempts at or below
    /// `T` cover `u ≤ max{t_k ≤ T}`.
    pub(crate) fn fresh_len(&self, outage_s: f64, tolerance_s: f64) -> f64 {
        covered_len(outage_s, self.last_within(tolerance_s))
    }

    /// The age past which an exhausted event is already stale at recovery: `max(T, t_n)`, with
    /// `t_n` as reaching `T` within rounding as every mark (a give-up of 0.7999999999999999 s
    /// left a 0.8 s tolerance "under 0.001%" of exhausted events worth a replay).
    pub(crate) fn stale_past(&self, tolerance_s: f64) -> f64 {
        let give_up = self.give_up_s();
        if reaches(give_up, tolerance_s) {
            give_up
        } else {
            tolerance_s
        }
    }

    /// The arrivals of an outage of `outage_s` exhausted and already older than `tolerance_s`
    /// at recovery: `a < D − max(T, t_n)`, so `D − min(D, max(T, t_n))`.
    pub(crate) fn exhausted_stale_len(&self, outage_s: f64, tolerance_s: f64) -> f64 {
        exhausted_stale_len(outage_s, self.stale_past(tolerance_s))
    }

    /// The index of the last attempt that delivers anything in an outage of `outage_s`: the
    /// attempt holding `u = L`. `None` when nothing is delivered.
    fn last_delivering(&self, outage_s: f64) -> Option<usize> {
        self.last_delivering_by(outage_s, |times, x| {
            times.partition_point(|&t| !reaches(t, x))
        })
    }

    /// [`Timeline::last_delivering`] with `first_at_or_after(times, x)` as the search for the
    /// first attempt at or after `x`.
    fn last_delivering_by(
        &self,
        outage_s: f64,
        first_at_or_after: impl FnOnce(&[f64], f64) -> usize,
    ) -> Option<usize> {
        let len = self.delivered_len(outage_s);
        // `len ≤ t_n`, so the search always lands on an attempt; at `len = 0` (one attempt)
        // nothing is delivered.
        (len > 0.0).then(|| first_at_or_after(&self.times, len))
    }

    /// `∫ lag du` over the delivered arrivals: whole pieces contribute `g²/2`, the last one
    /// `(g² − r²)/2` with `r = t_j − L` the lag of its earliest-delivered event, written as a
    /// product to keep the precision of short lags on long schedules.
    #[cfg(test)]
    pub(crate) fn lag_integral(&self, outage_s: f64) -> f64 {
        self.last_delivering(outage_s).map_or(0.0, |j| {
            self.lag_integral_to(j, self.delivered_len(outage_s))
        })
    }

    /// The lag integral (see [`Outcome::lag_integral`]) with the last delivering attempt `j`
    /// and the delivered measure `len` known, written as a product to keep the precision of
    /// short lags on long schedules.
    fn lag_integral_to(&self, j: usize, len: f64) -> f64 {
        let (t, before) = (self.times[j], self.times[j - 1]);
        let gap = t - before;
        let rest = t - len;
        self.half_squares[j - 1] + (len - before) * (gap + rest) / 2.0
    }

    /// What an outage of `outage_s` makes of this schedule, from one search: what the exact
    /// answer asks of the schedule, and sampling of every drawn schedule for every outage.
    pub(crate) fn outcome(&self, outage_s: f64) -> Outcome {
        self.outcome_from(outage_s, self.last_delivering(outage_s))
    }

    /// [`Timeline::outcome`] searching from `walk`'s last position: for outages in rising
    /// order, one pass over the attempt times answers them all.
    pub(crate) fn outcome_walking(&self, outage_s: f64, walk: &mut Walk) -> Outcome {
        let last = self.last_delivering_by(outage_s, |times, x| walk.first_at_or_after(times, x));
        self.outcome_from(outage_s, last)
    }

    fn outcome_from(&self, outage_s: f64, last: Option<usize>) -> Outcome {
        let len = self.delivered_len(outage_s);
        Outcome {
            delivered_len: len,
            lag_integral: last.map_or(0.0, |j| self.lag_integral_to(j, len)),
            lag_max: last.map(|j| self.widest[j]),
            age_max: last.map(|j| self.times[j]),
            // Up to the give-up time `len` is the outage itself, so the attempt that delivers
            // the last arrival is the one that reaches the first (`event`'s search); past it
            // the first event is exhausted.
            first_event: last
                .filter(|_| reaches(self.give_up_s(), outage_s))
                .map(|j| lag_age_attempt(self.times[j], outage_s, j)),
        }
    }

    /// The supremum of the lag over delivered events: the longest gap among the delivering
    /// attempts. `None` when nothing is delivered.
    #[cfg(test)]
    pub(crate) fn lag_max(&self, outage_s: f64) -> Option<f64> {
        self.last_delivering(outage_s).map(|j| self.widest[j])
    }

    /// The oldest delivered event's age: the time of the last delivering attempt.
    #[cfg(test)]
    pub(crate) fn age_max(&self, outage_s: f64) -> Option<f64> {
        self.last_delivering(outage_s).map(|j| self.times[j])
    }

    /// The lag distribution over delivered events as a piecewise-uniform mixture: attempt
    /// `k ≤ j` delivers `u` in `(t_{k−1}, min(t_k, L)]` with lag `t_k − u`.
    pub(crate) fn lag_mixture(&self, outage_s: f64) -> Option<Mixture> {
        let j = self.last_delivering(outage_s)?;
        let len = self.delivered_len(outage_s);
        let pieces = (1..=j).map(|k| {
            let (t, before) = (self.times[k], self.times[k - 1]);
            let end = t.min(len);
            Piece {
                lo: t - end,
                hi: t - before,
                weight: end - before,
            }
        });
        Some(Mixture::new(pieces.collect()))
    }

    /// The lag and age of the event with `left_s` to go until recovery at its arrival (`u`),
    /// with its attempt (1-based); `None` when it is exhausted.
    #[cfg(test)]
    pub(crate) fn event(&self, left_s: f64) -> Option<(f64, f64, u32)> {
        self.event_at(left_s, self.reach(left_s))
    }

    /// [`Timeline::event`] searching from `walk`'s last position (see
    /// [`Timeline::outcome_walking`]).
    pub(crate) fn event_walking(&self, left_s: f64, walk: &mut Walk) -> Option<(f64, f64, u32)> {
        let k = walk.first_at_or_after(&self.times, left_s);
        self.event_at(left_s, (k < self.times.len()).then_some(k))
    }

    fn event_at(&self, left_s: f64, reached: Option<usize>) -> Option<(f64, f64, u32)> {
        reached.map(|k| lag_age_attempt(self.times[k], left_s, k))
    }
}

/// The lag, age and attempt (1-based) of an event delivered by attempt index `k` at `t_s`, with
/// `left_s` to go until recovery at its arrival.
fn lag_age_attempt(t_s: f64, left_s: f64, k: usize) -> (f64, f64, u32) {
    (lag_after(t_s, left_s), t_s, k as u32 + 1)
}

/// The lag of a delivery at `t_s` after a recovery at `recovery_s` (both from the event's
/// arrival or both from the outage's start): an attempt that counts as at the recovery (within
/// [`reaches`]' rounding either way) delivers with no lag, not a rounding's worth above or
/// below none (three 1.1 s gaps after a 3.3 s outage read "4.4e-16 s after recovery").
pub(crate) fn lag_after(t_s: f64, recovery_s: f64) -> f64 {
    if within(t_s, recovery_s) {
        0.0
    } else {
        t_s - recovery_s
    }
}

/// The measure of arrivals `u ≤ reach_s` in an outage of `outage_s`: `min(D, reach)`, and all of
/// `D` when the reach counts as at it ([`reaches`]). Delivered with `t_n` as the reach, fresh with
/// the latest attempt within the tolerance.
pub(crate) fn covered_len(outage_s: f64, reach_s: f64) -> f64 {
    if reaches(reach_s, outage_s) {
        outage_s
    } else {
        reach_s
    }
}

/// The arrivals of an outage of `outage_s` older than `past_s` at recovery
/// ([`Timeline::stale_past`]).
pub(crate) fn exhausted_stale_len(outage_s: f64, past_s: f64) -> f64 {
    outage_s - covered_len(outage_s, past_s)
}

/// The arrivals of an outage of `outage_s` exhausted by a give-up at `give_up_s` but not older
/// than `past_s` at recovery ([`Timeline::stale_past`]). None, exactly, where the give-up is
/// itself the age past which they are stale: the shares had 1.7e-15 of "the outage's events
/// need a replay" left from a subtraction (outside review).
pub(crate) fn exhausted_fresh_len(outage_s: f64, past_s: f64, give_up_s: f64) -> f64 {
    covered_len(outage_s, past_s) - covered_len(outage_s, give_up_s)
}

/// A search position in one timeline's attempt times, for searches at rising values: each
/// goes on from where the last ended (a step per attempt passed), instead of a binary search
/// per value. A value below the last one searched is found by a binary search.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Walk(usize);

impl Walk {
    /// The index of the first of `times` (ascending) that [`reaches`] `x`.
    fn first_at_or_after(&mut self, times: &[f64], x: f64) -> usize {
        let mut i = self.0;
        if i > 0 && reaches(times[i - 1], x) {
            i = times.partition_point(|&t| !reaches(t, x));
        } else {
            while i < times.len() && !reaches(times[i], x) {
                i += 1;
            }
        }
        self.0 = i;
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand() -> Timeline {
        // Gaps 10, 20, 30.
        Timeline::new([0.0, 10.0, 30.0, 60.0])
    }

    #[test]
    fn running_sums() {
        let t = hand();
        assert_eq!(t.half_squares, [0.0, 50.0, 250.0, 700.0]);
        assert_eq!(t.widest, [0.0, 10.0, 20.0, 30.0]);
        assert_eq!(t.give_up_s(), 60.0);
    }

    #[test]
    fn lag_integral_by_hand() {
        let t = hand();
        // D = 40: u in (0,10] lag 10−u, (10,30] lag 30−u, (30,40] lag 60−u in (20, 30].
        assert_eq!(t.lag_integral(40.0), 50.0 + 200.0 + 250.0);
        // D = 100: everything up to t_n, whole pieces only.
        assert_eq!(t.lag_integral(100.0), 700.0);
        // The running sums agree with the mixture's direct mean.
        for d in [5.0, 10.0, 25.0, 40.0, 59.0, 60.0, 100.0] {
            let mean = t.lag_mixture(d).unwrap().mean();
            assert!(
                (t.lag_integral(d) / t.delivered_len(d) - mean).abs() < 1e-12,
                "{d}"
            );
        }
        assert_eq!(t.lag_max(40.0), Some(30.0));
        assert_eq!(t.lag_max(10.0), Some(10.0));
        assert_eq!(t.age_max(30.0), Some(30.0));
        assert_eq!(t.age_max(30.5), Some(60.0));
    }

    /// Attempt times summed from 0.1 s gaps are a rounding off their decimal values: an attempt
    /// at 0.9999999999999999 s is at a 1 s recovery and delivers the first event with no lag
    /// (it was exhausted), and one at 0.30000000000000004 s is within a 0.3 s tolerance.
    #[test]
    fn attempts_a_rounding_off_a_mark_are_at_it() {
        let mut elapsed = 0.0;
        let t = Timeline::new((0..11).map(|k| {
            if k > 0 {
                elapsed += 0.1;
            }
            elapsed
        }));
        assert!(t.give_up_s() < 1.0);
        let walked = t.outcome_walking(1.0, &mut Walk::default());
        for outcome in [t.outcome(1.0), walked] {
            assert_eq!(outcome.delivered_len, 1.0);
            assert_eq!(outcome.first_event, Some((0.0, t.give_up_s(), 11)));
        }
        assert_eq!(t.last_within(0.3), t.times()[3]);
        assert_eq!(t.fresh_len(1.0, 0.3), t.times()[3]);
    }

    /// The one-search outcome is what the methods give one by one, on outages between,
    /// at and beyond the attempt times.
    #[test]
    fn outcome_is_each_method() {
        let timelines = [
            hand(),
            Timeline::new([0.0]),
            Timeline::new([0.0, 0.5, 7.25, 7.5]),
        ];
        for t in &timelines {
            for d in [
                1e-9, 0.25, 0.5, 5.0, 7.25, 7.3, 10.0, 25.0, 30.0, 45.0, 60.0, 61.0, 1e6,
            ] {
                let expected = Outcome {
                    delivered_len: t.delivered_len(d),
                    lag_integral: t.lag_integral(d),
                    lag_max: t.lag_max(d),
                    age_max: t.age_max(d),
                    first_event: t.event(d),
                };
                assert_eq!(t.outcome(d), expected, "{d} on {:?}", t.times());
            }
        }
    }

    #[test]
    fn single_attempt_delivers_nothing() {
        let t = Timeline::new([0.0]);
        assert_eq!(t.delivered_len(5.0), 0.0);
        assert_eq!(t.lag_integral(5.0), 0.0);
        assert_eq!(t.lag_max(5.0), None);
        assert_eq!(t.event(5.0), None);
        assert!(t.lag_mixture(5.0).is_none());
    }

    // proptest is a native dev-dependency only (the wasm build runs these tests too).
    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// Walking a timeline at values in any order (rising, as sampling asks, or not) gives
        /// what a search for each gives: the outcome and the event of every outage.
        #[test]
        fn walking_is_searching(
            gaps in proptest::collection::vec(
                proptest::prop_oneof![proptest::strategy::Just(0.0), 0.0f64..100.0], 0..20),
            values in proptest::collection::vec(
                proptest::prop_oneof![0.0f64..2_000.0, proptest::strategy::Strategy::prop_map(0usize..20, |i| i as f64 * 50.0)],
                1..40),
            rising in proptest::bool::ANY,
        ) {
            use proptest::prop_assert_eq;
            let mut elapsed = 0.0;
            let t = Timeline::new(std::iter::once(0.0).chain(gaps.iter().map(|g| {
                elapsed += g;
                elapsed
            })));
            // The attempt times themselves, too: the searches' edges.
            let mut values: Vec<f64> = values.into_iter().chain(t.times.iter().copied()).collect();
            if rising {
                values.sort_by(f64::total_cmp);
            }
            let mut walks = [Walk::default(); 2];
            for &d in &values {
                prop_assert_eq!(t.outcome_walking(d, &mut walks[0]), t.outcome(d), "outage {}", d);
                prop_assert_eq!(t.event_walking(d, &mut walks[1]), t.event(d), "left {}", d);
            }
        }
    }

    #[test]
    fn events_and_reach() {
        let t = hand();
        assert_eq!(t.event(40.0), Some((20.0, 60.0, 4)));
        assert_eq!(t.event(30.0), Some((0.0, 30.0, 3)));
        assert_eq!(t.event(60.5), None);
        assert_eq!(t.last_within(29.9), 10.0);
        assert_eq!(t.last_within(0.5), 0.0);
    }
}
