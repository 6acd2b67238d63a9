//! The answers under jitter, by seeded sampling: `N` schedules drawn as
//! [`sample_schedule`](crate::jitter::sample_schedule) draws them, each with one arrival time.
//!
//! Within one drawn schedule the model is exact, so shares, mean lag and the largest lag and age
//! are computed exactly per schedule and averaged (or maximised) over the `N` schedules: only
//! the schedules are random. Percentiles need single events: each schedule contributes one
//! event drawn uniformly among its delivered arrivals, weighted by how many of the outage's
//! arrivals it delivers (an event drawn among all of them left percentiles of a long outage,
//! whose events nearly all are exhausted, resting on the few drawn delivered: gRPC's 7-day
//! median lag read 10.9 s, 1.8 s or 6.4 s by the seed; outside review).

use crate::batches::{batch_of, in_batches};
use crate::give_up::{nearest_rank, nearest_ranks, rank_of, select_ranks};
use crate::jitter::{seeded_rng, uniform, Gaps, Jitter, SeededRng};
use crate::{Error, Policy};

use super::outage::{AllEvents, FirstEvent, OutageAnswer, SampledSpread, Spread, Tolerated};
use super::timeline::{covered_len, exhausted_fresh_len, exhausted_stale_len, lag_after};
use super::timeline::{Timeline, Walk};
use super::{Answers, SAFE_LEVEL};

/// Draws `samples` schedules of `policy` with `jitter` from `seed` and hands each to `visit`
/// with the fraction `v` in `[0, 1)` that places its one sampled event among the arrivals it
/// delivers. Every draw consumes the
/// same count of random numbers, so every outage sees the same schedules and arrival fractions
/// (common random numbers: comparisons between outages carry no sampling noise of their own).
pub(crate) fn for_each_draw(
    policy: &Policy,
    jitter: Jitter,
    samples: usize,
    seed: u64,
    mut visit: impl FnMut(&Timeline, f64),
) -> Result<(), Error> {
    let mut rng = seeded_rng(seed)?;
    let mut timeline = Timeline::default();
    let gaps = Gaps::new(policy, jitter);
    // In batches: see `crate::batches`.
    in_batches(samples, batch_of(gaps.retries() as usize), |n| {
        let mut generator = rng.clone();
        for _ in 0..n {
            draw(&gaps, &mut generator, &mut timeline);
            let fraction = uniform(&mut generator, 0.0, 1.0);
            visit(&timeline, fraction);
        }
        rng = generator;
    });
    Ok(())
}

/// One schedule's attempt times: the gaps `sample_schedule` would draw, in the same order from
/// the same generator, without rebuilding the unjittered schedule for every draw.
fn draw(gaps: &Gaps, rng: &mut SeededRng, timeline: &mut Timeline) {
    let mut sampler = gaps.sampler();
    let mut elapsed = 0.0;
    let retries = (1..=gaps.retries()).map(|_| {
        elapsed += sampler.next_gap(rng);
        elapsed
    });
    timeline.refill(std::iter::once(0.0).chain(retries));
}

/// A weight in `(0, 1]` as whole units of 2^-24 (at least one): sums of them are exact in any
/// order, so that a selection finds what a sort would.
fn weight_units(weight: f64) -> u32 {
    (weight * 16_777_216.0).round().max(1.0) as u32
}

/// The values at `levels` of `values` weighted by `weights` (in [`weight_units`]): in ascending
/// order of value, the first whose running sum of weights reaches `⌈level × total⌉` (with
/// equal weights, the nearest rank `⌈level × N⌉`). Found by selection (a sort of every
/// outage's lags doubled the staleness chart's time).
fn weighted_ranks<const N: usize>(values: &[f64], weights: &[u32], levels: [f64; N]) -> [f64; N] {
    let mut pairs: Vec<(f64, u32)> = values
        .iter()
        .copied()
        .zip(weights.iter().copied())
        .collect();
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    levels.map(|level| {
        let target = ((level * total as f64).ceil() as u64).clamp(1, total);
        weighted_select(&mut pairs, target)
    })
}

/// The value of the first of `pairs` in ascending order of value whose running sum of weights
/// reaches `target` (from 1 to their total): a quickselect that keeps to the side of the
/// median holding the target.
fn weighted_select(pairs: &mut [(f64, u32)], mut target: u64) -> f64 {
    let mut rest = pairs;
    loop {
        let middle = rest.len() / 2;
        let (below, &mut (value, weight), above) =
            rest.select_nth_unstable_by(middle, |a, b| a.0.total_cmp(&b.0));
        let below_sum: u64 = below.iter().map(|p| u64::from(p.1)).sum();
        if target <= below_sum {
            rest = below;
        } else if target <= below_sum + u64::from(weight) {
            return value;
        } else {
            target -= below_sum + u64::from(weight);
            rest = above;
        }
    }
}

/// The running totals of one outage over the drawn schedules.
struct Tally {
    outage_s: f64,
    delivered: f64,
    fresh: f64,
    exhausted_fresh: f64,
    exhausted_stale: f64,
    lag_integral: f64,
    lag_max: Option<f64>,
    age_max: Option<f64>,
    /// The first event's delivery time (infinite when exhausted) and attempt, per schedule.
    firsts: Vec<(f64, u32)>,
    /// The lag of each schedule's one drawn event, when it delivers any.
    lags: Vec<f64>,
    /// Each lag's weight, the share of the outage's arrivals its schedule delivers; `None`
    /// while every one is 1 (no schedule exhausts any: the outage is no longer than each
    /// give-up time), as for most outages, so that those keep no more than their lags.
    weights: Option<Vec<u32>>,
}

impl Tally {
    fn new(outage_s: f64, samples: usize) -> Self {
        Tally {
            outage_s,
            delivered: 0.0,
            fresh: 0.0,
            exhausted_fresh: 0.0,
            exhausted_stale: 0.0,
            lag_integral: 0.0,
            lag_max: None,
            age_max: None,
            firsts: Vec::with_capacity(samples),
            // At most one per schedule: growing it would copy it again and again.
            lags: Vec::with_capacity(samples),
            weights: None,
        }
    }

    /// Adds one drawn schedule, with the reaches of its tolerance (the same for every
    /// outage): the latest of its attempts within it ([`Timeline::last_within`]) and the later
    /// of it and the give-up time (an exhausted event older than that at recovery is stale).
    /// `walks`: the searches' positions in this schedule, from the outage before.
    fn add(
        &mut self,
        timeline: &Timeline,
        fraction: f64,
        reaches: Option<(f64, f64)>,
        walks: &mut [Walk; 2],
    ) {
        let d = self.outage_s;
        let outcome = timeline.outcome_walking(d, &mut walks[0]);
        self.delivered += outcome.delivered_len;
        if let Some((fresh, stale_past)) = reaches {
            self.fresh += covered_len(d, fresh);
            self.exhausted_fresh += exhausted_fresh_len(d, stale_past, timeline.give_up_s());
            self.exhausted_stale += exhausted_stale_len(d, stale_past);
        }
        self.lag_integral += outcome.lag_integral;
        self.lag_max = max_of(self.lag_max, outcome.lag_max);
        self.age_max = max_of(self.age_max, outcome.age_max);
        self.firsts.push(match outcome.first_event {
            Some((_, age, attempt)) => (age, attempt),
            None => (f64::INFINITY, 0),
        });
        // Among the delivered arrivals `u` in `(0, L]` (`u = D − a`, `L = min(D, t_n)`):
        // `u = L × (1 − fraction)`, weighted `L / D`.
        let delivered = outcome.delivered_len;
        if delivered > 0.0 {
            let u = delivered * (1.0 - fraction);
            if let Some((lag, _, _)) = timeline.event_walking(u, &mut walks[1]) {
                let weight = weight_units(delivered / d);
                if weight != weight_units(1.0) && self.weights.is_none() {
                    self.weights = Some(vec![weight_units(1.0); self.lags.len()]);
                }
                if let Some(weights) = &mut self.weights {
                    weights.push(weight);
                }
                self.lags.push(lag);
            }
        }
    }

    fn answer(mut self, tolerance_s: Option<f64>) -> OutageAnswer {
        let d = self.outage_s;
        let mass = d * self.firsts.len() as f64;
        let [lag_p50_s, lag_p95_s] = if self.lags.is_empty() {
            [None; 2]
        } else if let Some(weights) = &self.weights {
            weighted_ranks(&self.lags, weights, [0.5, 0.95]).map(Some)
        } else {
            nearest_ranks(&mut self.lags, [0.5, 0.95]).map(Some)
        };
        let all_events = AllEvents {
            lag_mean_s: (self.delivered > 0.0).then(|| self.lag_integral / self.delivered),
            lag_p50_s,
            lag_p95_s,
            lag_max_s: self.lag_max,
            age_max_s: self.age_max,
            ..AllEvents::shares(
                mass,
                self.delivered,
                tolerance_s.map(|_| Tolerated {
                    fresh: self.fresh,
                    // Summed per schedule, both kinds: where no schedule exhausts one kind the
                    // other is all that is exhausted, exactly (a difference of sums left
                    // 1.7e-15 of "need a replay", or of "already older than the tolerance").
                    exhausted_stale: if self.exhausted_fresh == 0.0 {
                        mass - self.delivered
                    } else {
                        self.exhausted_stale
                    },
                }),
            )
        };
        let ((time, attempt), spread) = self.first_events();
        OutageAnswer {
            outage_s: d,
            first_event: if time.is_finite() {
                FirstEvent::delivered(attempt, lag_after(time, d), time)
            } else {
                FirstEvent::exhausted()
            },
            all_events,
            spread: Some(spread),
        }
    }

    /// The median schedule's first event (its delivery time, infinite when exhausted, and its
    /// attempt) and the spread of the first events' ages where delivered (nearest rank, as
    /// [`give_up::sample`](crate::give_up::sample) takes percentiles), from one partial sort of
    /// `firsts`: the delivered times sort before the exhausted ones, so ranks among the delivered
    /// are ranks among all.
    fn first_events(&mut self) -> ((f64, u32), SampledSpread) {
        let firsts = &mut self.firsts;
        let delivered = firsts.iter().filter(|f| f.0.is_finite()).count();
        let median = rank_of(firsts.len(), 0.5);
        let by_time = |a: &(f64, u32), b: &(f64, u32)| a.0.total_cmp(&b.0);
        let first_delivered_share = delivered as f64 / firsts.len() as f64;
        if delivered == 0 {
            let [first] = select_ranks(firsts, [median], by_time);
            let spread = SampledSpread {
                first_delivered_share,
                first_lag: None,
                first_age: None,
            };
            return (first, spread);
        }
        let (p50, p95) = (rank_of(delivered, 0.5), rank_of(delivered, 0.95));
        // Below both the median of all and the p95 of the delivered, which may come either way.
        let [at_p50, lower, upper] =
            select_ranks(firsts, [p50, p95.min(median), p95.max(median)], by_time);
        let (first, at_p95) = if median <= p95 {
            (lower, upper)
        } else {
            (upper, lower)
        };
        // The largest delivered is among those right of the p95's position.
        let max_s = firsts[p95..]
            .iter()
            .map(|f| f.0)
            .filter(|t| t.is_finite())
            .fold(f64::NEG_INFINITY, f64::max);
        let age = Spread {
            p50_s: at_p50.0,
            p95_s: at_p95.0,
            max_s,
        };
        let d = self.outage_s;
        let spread = SampledSpread {
            first_delivered_share,
            first_lag: Some(Spread {
                p50_s: lag_after(age.p50_s, d),
                p95_s: lag_after(age.p95_s, d),
                max_s: lag_after(age.max_s, d),
            }),
            first_age: Some(age),
        };
        (first, spread)
    }
}

/// Every outage's answer and the derived lengths, from one pass over the drawn schedules.
pub(crate) fn sampled_answers(
    policy: &Policy,
    jitter: Jitter,
    tolerance_s: Option<f64>,
    (samples, seed): (usize, u64),
    outages_s: &[f64],
) -> Result<Answers, Error> {
    let mut tallies: Vec<Tally> = outages_s.iter().map(|&d| Tally::new(d, samples)).collect();
    let mut give_ups = Vec::with_capacity(samples);
    let mut fresh_reach = Vec::with_capacity(samples);
    for_each_draw(policy, jitter, samples, seed, |timeline, fraction| {
        give_ups.push(timeline.give_up_s());
        let reaches = tolerance_s.map(|t| (timeline.last_within(t), timeline.stale_past(t)));
        fresh_reach.extend(reaches.map(|(fresh, _)| fresh));
        // The outages come in rising order on a chart and a ladder: each schedule is walked once.
        let mut walks = [Walk::default(); 2];
        for tally in &mut tallies {
            tally.add(timeline, fraction, reaches, &mut walks);
        }
    })?;
    Ok(Answers {
        outages: tallies.into_iter().map(|t| t.answer(tolerance_s)).collect(),
        // A low percentile: outages up to this length keep the property in 95% of schedules.
        longest_delivered_outage_s: nearest_rank(&mut give_ups, SAFE_LEVEL),
        all_fresh_up_to_s: tolerance_s.map(|_| nearest_rank(&mut fresh_reach, SAFE_LEVEL)),
    })
}

fn max_of(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(crate::numbers::larger(a, b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jitter::sample_schedule;

    #[test]
    fn draws_are_sample_schedule_draws() {
        let policy = Policy::article();
        let mut rng = seeded_rng(9).unwrap();
        let mut expected = Vec::new();
        for _ in 0..3 {
            let rows = sample_schedule(&policy, Jitter::Full, &mut rng);
            expected.push(rows.iter().map(|r| r.elapsed_s).collect::<Vec<_>>());
            uniform(&mut rng, 0.0, 1.0); // the arrival fraction
        }
        let mut seen = Vec::new();
        for_each_draw(&policy, Jitter::Full, 3, 9, |t, _| {
            seen.push(t.times().to_vec())
        })
        .unwrap();
        assert_eq!(seen, expected);
    }

    /// One drawn schedule's shares are the exact model's for that schedule: the sampled tally
    /// (fresh, and exhausted already stale) is the exact computation per schedule, averaged.
    #[test]
    fn one_sample_has_the_exact_shares_of_its_schedule() {
        let policy = Policy::article();
        for seed in [1, 2, 3] {
            let mut times = Vec::new();
            for_each_draw(&policy, Jitter::Full, 1, seed, |t, _| {
                times = t.times().to_vec()
            })
            .unwrap();
            let timeline = Timeline::new(times.iter().copied());
            let outages = [600.0, 6.0 * 3_600.0, 30.0 * 3_600.0, 4.0 * 86_400.0];
            for tolerance in [3_600.0, 8.0 * 3_600.0, 48.0 * 3_600.0] {
                let answers =
                    sampled_answers(&policy, Jitter::Full, Some(tolerance), (1, seed), &outages)
                        .unwrap();
                for (answer, &d) in answers.outages.iter().zip(&outages) {
                    let exact = OutageAnswer::exact(&timeline, d, Some(tolerance)).all_events;
                    let sampled = answer.all_events;
                    assert_eq!(
                        (sampled.exhausted_stale_share, sampled.fresh_share),
                        (exact.exhausted_stale_share, exact.fresh_share),
                        "seed {seed}, tolerance {tolerance}, outage {d}"
                    );
                    assert_eq!(sampled.exhausted_share, exact.exhausted_share);
                }
            }
        }
    }

    const MIN: f64 = 60.0;
    const HOUR: f64 = 3_600.0;
    const DAY: f64 = 24.0 * HOUR;

    /// A sampled percentile `estimate` of level `p` from `n` draws: the exact distribution function
    /// at it lies within `p ± 5σ` (σ = √(p(1 − p)/n)), plus one draw for the nearest rank.
    fn percentile_agrees(cdf: impl Fn(f64) -> f64, estimate: f64, p: f64, n: f64) -> bool {
        let slack = 5.0 * (p * (1.0 - p) / n).sqrt() + 1.0 / n;
        (cdf(estimate) - p).abs() <= slack
    }

    /// The exact lag distribution function of an outage `d` under attempt times `t`, written
    /// independently of the crate: the share of `u` in `(0, L]` with `t_k(u) − u ≤ x`.
    fn lag_cdf(t: &[f64], d: f64) -> impl Fn(f64) -> f64 + '_ {
        let len = d.min(*t.last().unwrap());
        move |x| {
            let below: f64 = t
                .windows(2)
                .map(|w| (w[1].min(len) - w[0].max(w[1] - x)).max(0.0))
                .sum();
            below / len
        }
    }

    #[test]
    fn sampled_agrees_with_exact_where_both_apply() {
        // A proportional factor of 0 draws every gap at its ideal value: sampling the unjittered
        // schedule. Shares, mean, max lag and age are exact per draw and must agree to rounding;
        // percentiles come from single draws, one delivered event of every schedule, and must
        // agree within the sampling error of that many (a drawn event among all the outage's
        // arrivals left a year-long outage's percentiles to the 55 of 20,000 delivered).
        let policy = Policy::article();
        let samples = 20_000;
        let zero = Jitter::proportional(0.0).unwrap();
        let exact = super::super::Question::new(&policy, Jitter::None, 0)
            .unwrap()
            .with_tolerance(6.0 * HOUR)
            .unwrap();
        let times: Vec<f64> = policy
            .schedule()
            .rows()
            .iter()
            .map(|r| r.elapsed_s)
            .collect();
        let outages = [
            MIN,
            30.0 * MIN,
            4.0 * HOUR,
            24.0 * HOUR,
            48.0 * HOUR,
            7.0 * DAY,
            30.0 * DAY,
            365.0 * DAY,
        ];
        // The sampled engine itself: a question of ±0% jitter is answered exactly.
        let sampled =
            sampled_answers(&policy, zero, Some(6.0 * HOUR), (samples, 11), &outages).unwrap();
        let (s, e) = (&sampled.outages, exact.outages(&outages).unwrap());
        for (s, e) in s.iter().zip(&e) {
            assert_eq!(s.first_event, e.first_event);
            let (a, b) = (s.all_events, e.all_events);
            for (x, y) in [
                (Some(a.delivered_share), b.delivered_share),
                (Some(a.exhausted_share), b.exhausted_share),
                (a.fresh_share, b.fresh_share.unwrap()),
                (a.stale_share, b.stale_share.unwrap()),
                (a.lag_mean_s, b.lag_mean_s.unwrap()),
            ] {
                assert!((x.unwrap() - y).abs() <= 1e-9 * y.max(1.0), "{x:?} vs {y}");
            }
            assert_eq!((a.lag_max_s, a.age_max_s), (b.lag_max_s, b.age_max_s));
            let cdf = lag_cdf(&times, s.outage_s);
            let n = samples as f64;
            assert!(
                percentile_agrees(&cdf, a.lag_p50_s.unwrap(), 0.5, n),
                "{s:?}"
            );
            assert!(
                percentile_agrees(&cdf, a.lag_p95_s.unwrap(), 0.95, n),
                "{s:?}"
            );
            // The independent distribution function gives the exact percentiles back.
            assert!((cdf(b.lag_p50_s.unwrap()) - 0.5).abs() < 1e-9);
            assert!((cdf(b.lag_p95_s.unwrap()) - 0.95).abs() < 1e-9);
        }
        assert_eq!(sampled.longest_delivered_outage_s, 86_520.0);
        assert_eq!(sampled.all_fresh_up_to_s, Some(10_920.0));
    }

    /// Schedules of unequal give-up times: each delivered event weighs by its schedule's
    /// delivered share, so the percentiles are those of the mixture of the schedules' lag
    /// distributions weighted by `L/D` (unweighted, the short schedule, which delivers a tenth
    /// as many of the outage's events, would count as much as the long one).
    #[test]
    fn unequal_schedules_weigh_by_what_they_deliver() {
        let short = [0.0, 4.0, 10.0];
        let long = [0.0, 10.0, 40.0, 100.0];
        let (d, n) = (1_000.0, 20_000);
        let mut timelines = [Timeline::default(), Timeline::default()];
        timelines[0].refill(short.iter().copied());
        timelines[1].refill(long.iter().copied());
        let mut tally = Tally::new(d, n);
        let mut rng = seeded_rng(5).unwrap();
        for i in 0..n {
            let fraction = uniform(&mut rng, 0.0, 1.0);
            tally.add(&timelines[i % 2], fraction, None, &mut [Walk::default(); 2]);
        }
        let events = tally.answer(None).all_events;
        let (a, b) = (lag_cdf(&short, d), lag_cdf(&long, d));
        let mixture = |x: f64| (10.0 * a(x) + 100.0 * b(x)) / 110.0;
        // The effective count of weighted draws: (Σw)² / Σw² for half at 10, half at 100.
        let effective = 1.1e6f64.powi(2) / 1.01e8;
        for (p, at) in [(0.5, events.lag_p50_s), (0.95, events.lag_p95_s)] {
            assert!(
                percentile_agrees(mixture, at.unwrap(), p, effective),
                "{p}: {at:?}"
            );
        }
    }

    /// Weighted, the value whose running weight reaches the level's share of the total; with
    /// equal weights, the nearest rank.
    #[test]
    fn weighted_percentiles() {
        let values = [5.0, 1.0, 4.0, 2.0, 3.0];
        assert_eq!(weighted_ranks(&values, &[7; 5], [0.5, 0.95]), [3.0, 5.0]);
        // 1 weighs as much as all the others together.
        let heavy = [1, 4, 1, 1, 1];
        assert_eq!(
            weighted_ranks(&values, &heavy, [0.25, 0.5, 0.51, 1.0]),
            [1.0, 1.0, 2.0, 5.0]
        );
        assert_eq!((weight_units(1.0), weight_units(1e-12)), (1 << 24, 1));
    }

    #[test]
    fn nearest_rank_percentiles() {
        let mut values = [5.0, 1.0, 4.0, 2.0, 3.0];
        assert_eq!(nearest_rank(&mut values, 0.5), 3.0);
        assert_eq!(nearest_rank(&mut values, 0.95), 5.0);
        assert_eq!(nearest_rank(&mut values, 0.05), 1.0);
    }

    // proptest is a native dev-dependency only (the wasm build runs these tests too).
    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// Percentiles taken one after another on what the partial sort left are those of the
        /// sorted values.
        #[test]
        fn ascending_percentiles_are_the_sorted_values(
            values in proptest::collection::vec(-1e3f64..1e3, 1..200),
        ) {
            let mut sorted = values.clone();
            sorted.sort_by(f64::total_cmp);
            let at = |level: f64| sorted[rank_of(sorted.len(), level)];
            let mut partial = values.clone();
            let levels = [0.05, 0.5, 0.5, 0.95, 1.0];
            proptest::prop_assert_eq!(nearest_ranks(&mut partial, levels), levels.map(at));
        }

        /// The weighted selection finds what a sort and a running sum of the weights find,
        /// ties in value included.
        #[test]
        fn weighted_selection_is_the_sorted_running_sum(
            pairs in proptest::collection::vec((0u8..20, 1u32..1_000), 1..200),
            levels in proptest::array::uniform3(0.0f64..=1.0),
        ) {
            let values: Vec<f64> = pairs.iter().map(|p| f64::from(p.0)).collect();
            let weights: Vec<u32> = pairs.iter().map(|p| p.1).collect();
            let mut sorted: Vec<(f64, u32)> = values.iter().copied().zip(weights.iter().copied()).collect();
            sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
            let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
            let at = |level: f64| {
                let target = ((level * total as f64).ceil() as u64).clamp(1, total);
                let mut sum = 0;
                sorted.iter().find(|p| { sum += u64::from(p.1); sum >= target }).unwrap().0
            };
            proptest::prop_assert_eq!(weighted_ranks(&values, &weights, levels), levels.map(at));
        }

        /// The first events' median and spread from one partial sort are those of the sorted
        /// times: the median among all schedules (exhausted ones infinite), the spread among
        /// the delivered ones.
        #[test]
        fn first_events_are_the_sorted_firsts(
            times in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just(f64::INFINITY),
                    0.0f64..1e3,
                    proptest::strategy::Strategy::prop_map(0u32..5, f64::from),
                ],
                1..200),
        ) {
            let mut tally = Tally::new(1.0, times.len());
            // The attempt is a function of the time, as in a schedule: ties carry the same one.
            tally.firsts = times.iter().map(|&t| (t, t.to_bits() as u32 % 7)).collect();
            let mut sorted = tally.firsts.clone();
            sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
            let ages: Vec<f64> = sorted.iter().map(|f| f.0).filter(|t| t.is_finite()).collect();
            let ((time, attempt), spread) = tally.first_events();
            let median = sorted[rank_of(sorted.len(), 0.5)];
            proptest::prop_assert_eq!(time.to_bits(), median.0.to_bits());
            proptest::prop_assert_eq!(attempt, median.1);
            proptest::prop_assert_eq!(
                spread.first_delivered_share,
                ages.len() as f64 / times.len() as f64
            );
            let age = spread.first_age.map(|s| (s.p50_s, s.p95_s, s.max_s));
            let expected = (!ages.is_empty()).then(|| {
                let at = |level: f64| ages[rank_of(ages.len(), level)];
                (at(0.5), at(0.95), ages[ages.len() - 1])
            });
            proptest::prop_assert_eq!(age, expected);
            proptest::prop_assert_eq!(
                spread.first_lag.map(|s| s.max_s),
                // The lag after the 1 s outage, none at it or (in these made-up times) before.
                expected.map(|(_, _, max)| if max <= 1.0 { 0.0 } else { max - 1.0 })
            );
        }
    }
}
