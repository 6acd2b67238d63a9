//! Invariants of every valid policy, checked on random ones.
#![cfg(not(target_arch = "wasm32"))]

use backoff_lab::{format_duration, parse_duration, Policy, ScheduleReport, Stop};
use proptest::prelude::*;

fn policies() -> impl Strategy<Value = Policy> {
    (0.01f64..3_600.0, 1.0f64..10.0, 1.0f64..1_000.0, 1u32..300).prop_map(
        |(base, multiplier, cap_factor, attempts)| {
            Policy::new(
                base,
                multiplier,
                base * cap_factor,
                Stop::Attempts(attempts),
            )
            .unwrap()
        },
    )
}

proptest! {
    #[test]
    fn gaps_never_exceed_the_cap_and_follow_the_formula(policy in policies()) {
        let schedule = policy.schedule();
        prop_assert_eq!(schedule.rows().len() as u32, policy.attempts());
        let mut previous = 0.0;
        for (k, row) in schedule.rows().iter().enumerate().skip(1) {
            let gap = row.gap_s.unwrap();
            prop_assert!(gap > 0.0 && gap <= policy.cap_s());
            let ideal = policy.base_s() * policy.multiplier().powi(k as i32 - 1);
            let formula = ideal.min(policy.cap_s());
            prop_assert!((gap - formula).abs() <= 1e-9 * formula, "gap {} vs formula {}", gap, formula);
            prop_assert!(gap >= previous, "gaps never shrink");
            prop_assert_eq!(row.capped, ideal >= policy.cap_s());
            previous = gap;
        }
    }

    /// The schedule's gaps stop taking powers once past twice the cap: each is still
    /// `Policy::gap`'s, bit for bit, and capped exactly when its power reaches the cap, for
    /// multipliers barely above 1 (a cap within 1% of the base is reached, and twice it passed,
    /// within the schedule) and schedules of up to the 10,000 attempts a policy may have.
    #[test]
    fn a_saturated_schedule_is_its_formula_bit_for_bit(
        base in 0.001f64..100.0,
        multiplier in prop_oneof![1.0001f64..1.001, 1.0f64..1.01, 1.0f64..1_000.0],
        cap_factor in prop_oneof![1.0f64..1.01, 1.0f64..1e6],
        attempts in 1u32..=10_000,
    ) {
        let cap = (base * cap_factor).min(365.0 * 86_400.0);
        let policy = Policy::new(base, multiplier, cap, Stop::Attempts(attempts)).unwrap();
        for (k, row) in policy.schedule().rows().iter().enumerate().skip(1) {
            let retry = k as u32;
            prop_assert_eq!(row.gap_s.unwrap().to_bits(), policy.gap(retry).to_bits(), "retry {}", retry);
            let fixed = policy.is_fixed_interval();
            prop_assert_eq!(row.capped, !fixed && policy.uncapped_gap(retry) >= policy.cap_s(), "retry {}", retry);
        }
    }

    #[test]
    fn elapsed_is_the_running_sum_of_gaps(policy in policies()) {
        let schedule = policy.schedule();
        let mut sum = 0.0;
        for row in schedule.rows() {
            sum += row.gap_s.unwrap_or(0.0);
            prop_assert_eq!(row.elapsed_s, sum);
        }
        prop_assert_eq!(schedule.give_up_s(), sum);
        let share = schedule.capped_share();
        prop_assert!((0.0..=1.0 + 1e-12).contains(&share));
    }

    #[test]
    fn deadline_gives_the_smallest_count_that_reaches_it(policy in policies(), fraction in 0.01f64..1.0) {
        let deadline = (policy.schedule().give_up_s() * fraction).clamp(1e-3, 300.0 * 86_400.0);
        let n = policy.attempts_for_deadline(deadline).unwrap();
        let reach = |n: u32| Policy::new(policy.base_s(), policy.multiplier(), policy.cap_s(), Stop::Attempts(n)).unwrap().schedule().give_up_s();
        prop_assert!(reach(n) >= deadline);
        prop_assert!(n == 1 || reach(n - 1) < deadline);
    }

    #[test]
    fn solved_cap_reaches_the_deadline_and_no_smaller_cap_does(policy in policies(), stretch in 1.0f64..5.0) {
        prop_assume!(policy.attempts() >= 2);
        let deadline = (policy.schedule().give_up_s() * stretch).min(300.0 * 86_400.0);
        if let Ok(cap) = policy.cap_for_deadline(deadline, policy.attempts()) {
            let with = |cap: f64| Policy::new(policy.base_s(), policy.multiplier(), cap, Stop::Attempts(policy.attempts())).map(|p| p.schedule().give_up_s());
            let reached = with(cap).unwrap();
            prop_assert!(reached >= deadline * (1.0 - 1e-9), "cap {} reaches {} < {}", cap, reached, deadline);
            if cap > policy.base_s() * 1.001 {
                prop_assert!(with(cap * 0.999).unwrap() < deadline);
            }
        }
    }

    #[test]
    fn any_valid_input_gives_a_report_without_panicking(
        base in prop_oneof![Just(f64::NAN), Just(f64::INFINITY), Just(-1.0), Just(0.0), 1e-6f64..1e9],
        multiplier in prop_oneof![Just(f64::NAN), Just(0.0), 0.5f64..2_000.0],
        cap in prop_oneof![Just(f64::NEG_INFINITY), 1e-6f64..1e9],
        attempts in 0u32..20_000,
    ) {
        if let Ok(policy) = Policy::new(base, multiplier, cap, Stop::Attempts(attempts)) {
            let report = ScheduleReport::new(&policy.schedule(), 1_200.0);
            prop_assert!(report.give_up_s.is_finite());
            prop_assert!(report.rows.iter().all(|r| r.gap_s.is_none_or(|g| g.is_finite() && g <= policy.cap_s())));
        }
    }

    #[test]
    fn formatted_durations_parse_back_close(seconds in 1.0f64..30_000_000.0) {
        let text = format_duration(seconds);
        let back = parse_duration("base", &text).unwrap();
        // The article's format rounds: to a tenth below an hour, to a minute below 100 h, then to
        // a tenth of a day, and down to whole days from 10 days on.
        let tolerance = if seconds >= 10.0 * 86_400.0 { 86_400.0 } else { (seconds * 0.05).max(30.0) };
        prop_assert!((back - seconds).abs() <= tolerance, "{} -> {} -> {}", seconds, text, back);
    }
}

fn jitters() -> impl Strategy<Value = backoff_lab::jitter::Jitter> {
    use backoff_lab::jitter::Jitter;
    prop_oneof![
        Just(Jitter::None),
        Just(Jitter::Full),
        Just(Jitter::Equal),
        Just(Jitter::Decorrelated),
        (0.0f64..=1.0).prop_map(|f| Jitter::proportional(f).unwrap()),
    ]
}

proptest! {
    #[test]
    fn every_jittered_gap_stays_in_its_window(policy in policies(), jitter in jitters(), seed in 0u64..1_000_000) {
        use backoff_lab::jitter::{sample_schedule, seeded_rng, Jitter};
        let rows = sample_schedule(&policy, jitter, &mut seeded_rng(seed).unwrap());
        prop_assert_eq!(rows.len() as u32, policy.attempts());
        let mut previous = policy.base_s();
        let mut elapsed = 0.0;
        for (k, row) in rows.iter().enumerate().skip(1) {
            let gap = row.gap_s.unwrap();
            let ideal = policy.gap(k as u32);
            let ok = match jitter {
                Jitter::None => gap == ideal,
                Jitter::Full => (0.0..ideal).contains(&gap) || (ideal == 0.0 && gap == 0.0),
                Jitter::Equal => gap >= ideal / 2.0 && gap < ideal,
                Jitter::Proportional(f) => gap >= ideal * (1.0 - f.get()) - 1e-9 && gap <= ideal * (1.0 + f.get()) + 1e-9,
                Jitter::Decorrelated => {
                    let inside = gap >= policy.base_s().min(policy.cap_s()) && gap <= policy.cap_s() && gap <= previous * 3.0;
                    previous = gap;
                    inside
                }
            };
            prop_assert!(ok, "{:?} gap {} before attempt {} (ideal {})", jitter, gap, k + 1, ideal);
            elapsed += gap;
            prop_assert!((row.elapsed_s - elapsed).abs() <= 1e-9 * elapsed.max(1.0));
        }
    }

    #[test]
    fn every_herd_retry_is_counted_once(policy in policies(), jitter in jitters(), deliveries in 1usize..300, seed in 0u64..1_000) {
        let herd = backoff_lab::herd::herd(&policy, jitter, deliveries, seed).unwrap();
        let retries = (policy.attempts() - 1) as u64;
        prop_assert_eq!(herd.per_second.iter().sum::<u64>(), deliveries as u64 * retries);
        prop_assert_eq!(herd.first_retry_per_second.iter().sum::<u64>(), if retries > 0 { deliveries as u64 } else { 0 });
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_delivery_ends_delivered_exhausted_or_pending(
        arrivals in 0.5f64..20.0,
        capacity in 5.0f64..60.0,
        outage in 0u32..900,
        interval in 5.0f64..120.0,
        attempts in 1u32..40,
        budget in prop_oneof![Just(None), (0.0f64..0.5).prop_map(Some)],
        rate_limit in prop_oneof![Just(None), (1.0f64..50.0).prop_map(Some)],
        pause in any::<bool>(),
        retry_after in prop_oneof![Just(None), (1.0f64..120.0).prop_map(Some)],
        abandon in any::<bool>(),
        seed in 0u64..1_000,
    ) {
        use backoff_lab::storm::{simulate_discrete, simulate_fluid, Scenario, Spec};
        let mut scenario = Spec {
            arrivals_per_s: arrivals,
            traffic_s: 900,
            capacity_per_s: capacity,
            outage: (60, outage),
            policy: Policy::fixed(interval, Stop::Attempts(attempts)).unwrap(),
            abandon,
            seed,
            ..Spec::article_fixed()
        };
        scenario.bounds.budget = budget;
        scenario.bounds.rate_limit_per_s = rate_limit;
        scenario.bounds.pause = pause;
        scenario.bounds.retry_after_s = retry_after;
        let scenario = Scenario::new(scenario).unwrap();
        let mut reports = vec![simulate_discrete(&scenario, false).unwrap()];
        match simulate_fluid(&scenario, false) {
            Ok(report) => reports.push(report),
            // A destination that answers few requests within its limits is the discrete
            // engine's alone.
            Err(why) => prop_assert!(why.to_string().contains("at least 20 requests"), "{}", why),
        }
        for report in reports {
            let s = report.summary;
            prop_assert!((s.arrivals - (s.delivered + s.exhausted + s.pending)).abs() <= 1e-6 * s.arrivals.max(1.0), "{:?}", s);
            prop_assert!(s.delivered >= 0.0 && s.exhausted >= 0.0 && s.pending >= 0.0);
            prop_assert!(s.duplicates >= 0.0 && s.duplicates.is_finite() && s.peak_vs_capacity.is_finite());
            prop_assert!(report.minutes.iter().all(|m| m.backlog >= 0.0 && m.queue >= 0.0 && m.deferred >= 0.0));
            if let Some(limit) = rate_limit {
                // The discrete engine carries fractions of the limit from second to second.
                prop_assert!(report.minutes.iter().all(|m| m.attempts <= limit * 60.0 + 1.0));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The deadline-safe search settles close calls on the fine grid and the rest on a coarse
    /// one: with the deadline a hair either side of a percentile computed on the fine grid, its
    /// answer must be the one a plain scan on the fine grid gives.
    #[test]
    fn deadline_safe_attempts_match_a_scan_on_the_fine_grid(
        base in 1.0f64..120.0,
        multiplier in 1.0f64..4.0,
        cap_factor in 1.0f64..200.0,
        attempts in 2u32..40,
        hair in prop::sample::select(vec![-1e-6, 1e-6]),
        mode in 0usize..3,
        level in prop::sample::select(vec![0.01, 0.05, 0.5, 0.95]),
    ) {
        use backoff_lab::give_up::{deadline_safe_attempts, SumOfUniforms};
        use backoff_lab::jitter::Jitter;
        let jitter = [Jitter::Full, Jitter::Equal, Jitter::proportional(0.2).unwrap()][mode];
        let policy = Policy::new(base, multiplier, base * cap_factor, Stop::Attempts(2)).unwrap();
        let quantile = |attempts: u32| {
            let p = policy.with_stop(Stop::Attempts(attempts)).unwrap();
            SumOfUniforms::new((1..attempts).filter_map(|r| jitter.window(p.gap(r)))).quantile(level)
        };
        let deadline = quantile(attempts) * (1.0 + hair);
        let scanned = (1..=attempts + 1).find(|&n| quantile(n) >= deadline).unwrap();
        prop_assert_eq!(deadline_safe_attempts(&policy, jitter, deadline, level).unwrap(), scanned);
    }
}
