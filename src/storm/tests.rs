use super::*;
use crate::jitter::Jitter;
use crate::Error;
use crate::Policy;

#[test]
fn arithmetic_view_reproduces_the_article_table() {
    let view = arithmetic_view(&Scenario::article_fixed()).unwrap().minutes;
    let pick = |m: usize| (view[m - 1].backlog_entering, view[m - 1].attempts);
    assert_eq!(pick(1), (0.0, 600.0));
    assert_eq!(pick(2), (600.0, 1_800.0));
    assert_eq!(pick(5), (2_400.0, 5_400.0));
    assert_eq!(pick(10), (5_400.0, 11_400.0));
    assert_eq!(pick(11), (6_000.0, 12_600.0));
    assert_eq!(view[9].multiple, 19.0);
    // 12,600 a minute after the fix is 210 requests per second against a capacity of 30.
    assert_eq!(view[10].attempts / 60.0, 210.0);
}

fn exponential(jitter: Jitter) -> Spec {
    let policy = Policy::new(30.0, 3.0, 10_800.0, crate::Stop::Attempts(14)).unwrap();
    Spec {
        policy,
        jitter,
        ..short_fixed()
    }
}

/// The article's storm with 40 minutes of traffic, to keep debug-build tests quick.
fn short_fixed() -> Spec {
    Spec {
        traffic_s: 2_400,
        ..Spec::article_fixed()
    }
}

/// The engines take a checked scenario.
fn checked(spec: Spec) -> Scenario {
    Scenario::new(spec).unwrap()
}

fn discrete(spec: &Spec, keep_seconds: bool) -> Result<StormReport, Error> {
    simulate_discrete(&Scenario::new(*spec)?, keep_seconds)
}

fn fluid(spec: &Spec, keep_seconds: bool) -> Result<StormReport, Error> {
    simulate_fluid(&Scenario::new(*spec)?, keep_seconds)
}

fn assert_conserved(report: &StormReport) {
    let s = &report.summary;
    assert!(
        (s.arrivals - (s.delivered + s.exhausted + s.pending)).abs() < 1e-6 * s.arrivals.max(1.0),
        "{s:?}"
    );
    for second in &report.seconds {
        assert!(second.backlog >= -1e-9 && second.exhausted >= 0.0);
    }
}

#[test]
fn fixed_interval_storm_outlives_the_outage() {
    let report = discrete(&short_fixed(), true).unwrap();
    assert_conserved(&report);
    let minutes = &report.minutes;
    // Minute 10, still down: far above normal traffic, growing with the backlog.
    assert!(
        minutes[9].attempts > 15.0 * 600.0,
        "{}",
        minutes[9].attempts
    );
    // Minute 11, the fix: offered load far above the 30 per second capacity ...
    assert!(minutes[10].attempts / 60.0 > 5.0 * 30.0);
    // ... the queue outgrows the timeout (5 s × 30 per second) ...
    assert!(minutes[10].queue > 5.0 * 30.0);
    // ... and for the following hour successes stay far below arrivals while the backlog grows.
    let hour = &minutes[11..40];
    let successes: f64 = hour.iter().map(|m| m.successes).sum();
    let arrivals: f64 = hour.iter().map(|m| m.first_attempts).sum();
    assert!(successes < 0.05 * arrivals, "{successes} of {arrivals}");
    assert!(hour.windows(2).all(|w| w[1].backlog >= w[0].backlog));
    assert!(
        report.summary.duplicates > 0.0,
        "timed-out requests are still processed"
    );
}

#[test]
fn exponential_backoff_with_full_jitter_drains() {
    let report = discrete(&exponential(Jitter::Full), true).unwrap();
    assert_conserved(&report);
    let s = report.summary;
    assert_eq!(s.exhausted, 0.0);
    assert_eq!(s.pending, 0.0);
    assert_eq!(s.delivered, s.arrivals);
    let drained = s.drained_at_s.expect("drains");
    assert!(drained > s.outage_end_s);
    let fixed = discrete(&short_fixed(), false).unwrap().summary;
    assert!(s.peak_attempts_per_min < fixed.peak_attempts_per_min / 10.0);
}

/// A batch that fails during a long outage until it sits in the capped tail.
fn capped_tail(deliveries: u32) -> Spec {
    Spec {
        arrivals_per_s: 1e-6,
        traffic_s: 1,
        batch: Some((deliveries, 0)),
        outage: (0, 6 * 86_400),
        ..exponential(Jitter::None)
    }
}

fn tail_retries_per_minute(report: &StormReport) -> f64 {
    // Hours 8 to 11: every delivery is past attempt 8, one attempt per cap (3 h + the timeout).
    let window = &report.minutes[8 * 60..11 * 60];
    window.iter().map(|m| m.retries).sum::<f64>() / window.len() as f64
}

#[test]
fn the_capped_tail_retries_once_per_cap() {
    let six_thousand = discrete(&capped_tail(6_000), false).unwrap();
    let per_minute = tail_retries_per_minute(&six_thousand);
    let expected = 6_000.0 / ((10_800.0 + 5.0) / 60.0);
    assert!(
        (per_minute - expected).abs() < 0.02 * expected,
        "{per_minute} vs {expected}"
    );
    // About 360× less than the fixed storm's 12,000 retries a minute from the same backlog.
    assert!((12_000.0 / per_minute - 360.0).abs() < 10.0);
    let million = fluid(&capped_tail(1_000_000), false).unwrap();
    let per_minute = tail_retries_per_minute(&million);
    assert!(
        (per_minute - 5_555.6).abs() < 0.02 * 5_555.6,
        "{per_minute}"
    );
}

#[test]
fn a_retry_budget_bounds_retries_to_its_share_of_first_attempts() {
    let mut scenario = short_fixed();
    scenario.bounds.budget = Some(0.10);
    let report = discrete(&scenario, true).unwrap();
    assert_conserved(&report);
    let seconds = &report.seconds;
    // While traffic is steady (once first attempts stop, past retries cannot be taken back).
    for end in 60..2_400 {
        let window = &seconds[end - 59..=end];
        let retries: f64 = window.iter().map(|s| s.retries).sum();
        let firsts: f64 = window.iter().map(|s| s.first_attempts).sum();
        assert!(
            retries <= 0.10 * firsts + 0.5 * 60.0 + 1e-9,
            "second {end}: {retries} retries, {firsts} first attempts"
        );
    }
    // So the destination sees at most about 1.1× its arrival traffic (plus the budget's floor of
    // half a retry per second), however deep the backlog.
    for minute in &report.minutes[1..40] {
        assert!(
            minute.attempts <= 1.1 * 600.0 + 30.0 + 1.0,
            "minute {}: {}",
            minute.index,
            minute.attempts
        );
    }
    assert!(
        report.minutes[10].deferred > 1_000.0,
        "the rest is deferred, not dropped"
    );
}

#[test]
fn pausing_makes_no_attempts_during_the_outage_and_loses_nothing() {
    let mut scenario = exponential(Jitter::Full);
    scenario.bounds.pause = true;
    let report = discrete(&scenario, true).unwrap();
    assert_conserved(&report);
    assert!(report.seconds[..600].iter().all(|s| s.attempts == 0.0));
    assert_eq!(report.seconds[599].deferred, 6_000.0);
    assert_eq!(report.summary.exhausted, 0.0);
    assert_eq!(report.summary.delivered, report.summary.arrivals);
}

#[test]
fn a_rate_limit_caps_attempts_per_second() {
    let mut scenario = short_fixed();
    scenario.bounds.rate_limit_per_s = Some(25.0);
    let report = discrete(&scenario, true).unwrap();
    assert_conserved(&report);
    assert!(report.seconds.iter().all(|s| s.attempts <= 25.0));
    // Under the capacity, nothing queues: once the outage ends every attempt succeeds and
    // the backlog drains through the limit.
    assert_eq!(
        report.summary.delivered + report.summary.exhausted,
        report.summary.arrivals
    );
    assert!(report.summary.drained_at_s.is_some());
    assert!(report.minutes[12..].iter().all(|m| m.failures == 0.0));
}

#[test]
fn retry_after_defers_instead_of_piling_on() {
    let mut scenario = short_fixed();
    scenario.bounds.retry_after_s = Some(60.0);
    let with = discrete(&scenario, true).unwrap();
    let without = discrete(&short_fixed(), true).unwrap();
    assert_conserved(&with);
    let rejected: f64 = with.minutes.iter().map(|m| m.rejected_429).sum();
    assert!(rejected > 0.0);
    // 429s take no capacity: the queue stays near the threshold instead of growing without end.
    let worst_queue = with.seconds.iter().map(|s| s.queue).fold(0.0, f64::max);
    assert!(worst_queue <= 30.0 * 1.0 + 30.0, "queue {worst_queue}");
    assert!(with.summary.delivered > without.summary.delivered);
}

/// The scenarios the engines are compared on: the article's storm, backoff, and each bound.
fn compared_scenarios() -> Vec<(&'static str, Spec)> {
    let mut budget = exponential(Jitter::Full);
    budget.bounds.budget = Some(0.10);
    let mut limited = exponential(Jitter::Equal);
    limited.bounds.rate_limit_per_s = Some(40.0);
    let mut paused = exponential(Jitter::Full);
    paused.bounds.pause = true;
    let mut told_to_wait = exponential(Jitter::proportional(0.2).unwrap());
    told_to_wait.bounds.retry_after_s = Some(90.0);
    // Waits shorter than the one-second step: retries land in the next second in both engines.
    let sub_second = Spec {
        timeout_s: 0.4,
        policy: Policy::new(0.2, 2.0, 3.0, crate::Stop::Attempts(12)).unwrap(),
        jitter: Jitter::Full,
        outage: (0, 20),
        capacity_per_s: 1_000.0,
        ..short_fixed()
    };
    let single = Spec {
        policy: Policy::new(30.0, 3.0, 10_800.0, crate::Stop::Attempts(1)).unwrap(),
        ..short_fixed()
    };
    // Saturated storms where the order of service decided 17-43% of the outcome before both
    // engines served a second's retries in the same (random) order.
    let saturated_batch = Spec {
        capacity_per_s: 17.5,
        traffic_s: 1_800,
        outage: (0, 1_800),
        latency_s: 0.5,
        policy: Policy::fixed(30.0, crate::Stop::Attempts(20)).unwrap(),
        abandon: true,
        batch: Some((1_000, 1_200)),
        ..short_fixed()
    };
    let saturated_fast_retries = Spec {
        arrivals_per_s: 50.0,
        capacity_per_s: 87.8,
        traffic_s: 7_200,
        policy: Policy::fixed(10.0, crate::Stop::Attempts(60)).unwrap(),
        abandon: true,
        ..short_fixed()
    };
    vec![
        ("saturated, a batch", saturated_batch),
        ("saturated, 10 s retries", saturated_fast_retries),
        ("fixed storm", short_fixed()),
        ("exponential", exponential(Jitter::Full)),
        ("exponential + budget", budget),
        ("rate limit", limited),
        ("pause", paused),
        ("retry-after", told_to_wait),
        ("sub-second waits", sub_second),
        ("one attempt", single),
    ]
}

#[test]
fn the_two_engines_agree_on_the_hand_picked_scenarios() {
    for (name, scenario) in compared_scenarios() {
        let found = super::agreement::disagreements(&scenario);
        assert!(found.is_empty(), "{name}: {}", found.join("; "));
    }
}

#[test]
fn seeded_runs_repeat_and_seeds_matter() {
    let scenario = exponential(Jitter::Full);
    assert_eq!(
        discrete(&scenario, false).unwrap(),
        discrete(&scenario, false).unwrap()
    );
    let other = Spec {
        seed: 43,
        ..scenario
    };
    assert_ne!(
        discrete(&scenario, true).unwrap().seconds,
        discrete(&other, true).unwrap().seconds
    );
}

#[test]
fn bad_scenarios_are_refused_before_allocating() {
    let base = Spec::article_fixed();
    let cases = [
        (
            Spec {
                arrivals_per_s: -1.0,
                ..base
            },
            "arrivals must be a rate from 0.000001 to 1000000 per second, got -1",
        ),
        (
            Spec {
                arrivals_per_s: f64::NAN,
                ..base
            },
            "arrivals must be",
        ),
        (
            Spec {
                capacity_per_s: 0.0,
                ..base
            },
            "capacity must be a rate from 0.000001 to 10000000 per second, got 0",
        ),
        (
            Spec {
                bounds: Bounds {
                    budget: Some(1.5),
                    ..base.bounds
                },
                ..base
            },
            "budget must be 0% or a percentage from 0.00005% to 100% (it runs in whole parts per million), got 150%",
        ),
        (
            Spec {
                outage: (0, 8 * 86_400),
                ..base
            },
            "outage must be an outage that ends before 7 days",
        ),
        (
            Spec {
                outage: (86_400, 6 * 86_400 + 1),
                ..base
            },
            "outage must be an outage that ends before 7 days (its start plus its length), so that its recovery is simulated, got an outage ending at 7 days 1 s",
        ),
        // Equal to the timeout once in whole microseconds, as it is simulated.
        (
            Spec {
                latency_s: 4.999_999_9,
                timeout_s: 5.0,
                ..base
            },
            "latency must be a duration from 0 s to less than the timeout (5 s) in whole microseconds, as simulated: a destination slower than the timeout never answers in time, got 4.9999999 s",
        ),
        // Ending at 7 days exactly, its recovery would be past the last second simulated.
        (
            Spec {
                outage: (7 * 86_400 - 1, 1),
                ..base
            },
            "outage must be an outage that ends before 7 days (its start plus its length), so that its recovery is simulated, got an outage ending at 7 days",
        ),
        (
            Spec {
                outage: (7 * 86_400, 600),
                ..base
            },
            "outage-start must be a time before 7 days (the outage ends within them), got 7 days",
        ),
        (
            Spec {
                arrivals_per_s: 1_000.0,
                traffic_s: 86_400,
                ..base
            },
            "arrivals must be a rate that brings at most 10000000 deliveries over the storm's 24 h of traffic (up to about 6944/min), got 1000/s",
        ),
        (
            Spec {
                arrivals_per_s: 1_000.0,
                batch: Some((9_000_000, 0)),
                ..base
            },
            "arrivals must be a rate that brings at most 1000000 deliveries over the storm's 2 h of traffic beside its batch of 9000000 (up to about 8333/min), got 1000/s",
        ),
        // A batch that leaves one delivery over 2 h: under one a minute or an hour, 12 a day.
        (
            Spec {
                arrivals_per_s: 10.0,
                batch: Some((9_999_999, 0)),
                ..base
            },
            "arrivals must be a rate that brings at most 1 delivery over the storm's 2 h of traffic beside its batch of 9999999 (up to about 12/day), got 10/s",
        ),
        (
            Spec {
                batch: Some((10_000_001, 0)),
                ..base
            },
            "batch must be at most 10000000 deliveries, got 10000001",
        ),
    ];
    for (scenario, message) in cases {
        let err = discrete(&scenario, false).unwrap_err().to_string();
        assert!(err.starts_with(message), "{err}");
        assert_eq!(fluid(&scenario, false).unwrap_err().to_string(), err);
    }
    let decorrelated = exponential(Jitter::Decorrelated);
    assert!(fluid(&decorrelated, false)
        .unwrap_err()
        .to_string()
        .contains(
            "discrete here: the fluid engine needs gaps that depend only on the attempt number"
        ));
    assert!(discrete(&decorrelated, false).is_ok());
}

#[test]
fn the_memo_answers_as_the_engine_does_and_forgets_the_oldest() {
    let mut memo = Memo::default();
    let fixed = short_fixed();
    let fresh = simulate(&checked(fixed), crate::Engine::Fluid, false).unwrap();
    assert_eq!(
        memo.simulate(&checked(fixed), crate::Engine::Fluid)
            .unwrap(),
        fresh
    );
    assert_eq!(
        memo.simulate(&checked(fixed), crate::Engine::Fluid)
            .unwrap(),
        fresh
    );
    // Another engine or another scenario is another entry, never the remembered report.
    let discrete = memo
        .simulate(&checked(fixed), crate::Engine::Discrete)
        .unwrap();
    assert_eq!(discrete.engine, "discrete");
    let slower = Spec {
        capacity_per_s: 20.0,
        ..fixed
    };
    assert_ne!(
        memo.simulate(&checked(slower), crate::Engine::Fluid)
            .unwrap(),
        fresh
    );
    for capacity in 1..=Memo::CAPACITY {
        let other = Spec {
            capacity_per_s: 100.0 + capacity as f64,
            traffic_s: 60,
            ..fixed
        };
        memo.simulate(&checked(other), crate::Engine::Fluid)
            .unwrap();
    }
    assert_eq!(memo.entries.len(), Memo::CAPACITY);
    assert!(!memo.entries.iter().any(|(s, _, _)| *s.spec() == fixed));
}

#[test]
fn the_fluid_engines_shortcuts_change_nothing_but_its_speed() {
    use super::fluid::{simulate_with, Shortcuts};
    // Long stretches where nothing fails, where the shortcuts matter most.
    let healthy = Spec {
        capacity_per_s: 100.0,
        outage: (600, 120),
        ..exponential(Jitter::Full)
    };
    let scenarios = compared_scenarios().into_iter();
    for (name, scenario) in scenarios.chain([("healthy, a short outage later", healthy)]) {
        let plain = Shortcuts {
            long_blocks: false,
            quiet_histories: false,
            drop_dust: false,
        };
        let reference = simulate_with(&Scenario::new(scenario).unwrap(), true, plain).unwrap();
        let fast = fluid(&scenario, true).unwrap();
        assert_eq!(
            fast.seconds.len(),
            reference.seconds.len(),
            "{name}: horizon"
        );
        for (a, b) in fast.seconds.iter().zip(&reference.seconds) {
            for (x, y) in [
                (a.attempts, b.attempts),
                (a.successes, b.successes),
                (a.backlog, b.backlog),
                (a.exhausted, b.exhausted),
                (a.deferred, b.deferred),
            ] {
                assert!(
                    (x - y).abs() <= 1e-6 * y.abs().max(1.0),
                    "{name}, second {}: {x} vs {y}",
                    a.index
                );
            }
        }
    }
}

#[test]
fn a_discrete_storm_past_its_attempts_stops_with_an_error_saying_so() {
    // The article's collapsing storm makes about 17 million attempts: past a limit of 100,000
    // it is refused before it starts, by the fluid engine's estimate (it ran seconds first).
    let within = |scenario: &Scenario| {
        super::discrete::simulate_within(scenario, false, 1e5, MAX_HORIZON_S)
            .unwrap_err()
            .to_string()
    };
    let error = within(&Scenario::article_fixed());
    let limit = "traffic must be at most 100,000 simulated attempts for the discrete engine";
    assert!(error.starts_with(limit), "{error}");
    assert!(
        error.contains("attempts expected (the fluid engine's estimate, refused before it starts)"),
        "{error}"
    );
    // Where expected values do not apply (decorrelated jitter), it stops at the limit, naming
    // how far the storm got.
    let error = within(&checked(Spec {
        jitter: Jitter::Decorrelated,
        ..Spec::article_fixed()
    }));
    assert!(error.starts_with(limit), "{error}");
    assert!(
        error.contains("got a storm still going after 100,000 simulated attempts, at "),
        "{error}"
    );
    // Its ways out are those that exist: not the fluid engine, which cannot run it (the reader
    // was sent from one engine to the other).
    assert!(
        error.contains("fewer attempts or less traffic (the fluid engine needs gaps that depend only on the attempt number")
            && !error.contains("use the fluid engine"),
        "{error}"
    );
    assert!(within(&Scenario::article_fixed()).contains("use the fluid engine, fewer attempts"));
    // Under the limit it runs as ever.
    assert!(super::discrete::simulate_within(
        &Scenario::article_fixed(),
        false,
        1e8,
        MAX_HORIZON_S
    )
    .is_ok());
}

/// A schedule too long for the fluid engine, and too much work for the discrete one, is refused
/// as `attempts` with the most the fluid engine runs, whichever discrete limit it meets: 10,000
/// gaps of 1 µs were told "less traffic", after seconds of work (outside review). The count is
/// the most: the fluid engine runs it and refuses one more.
#[test]
fn a_storm_too_long_for_either_engine_names_attempts_and_the_most_the_fluid_engine_runs() {
    let micro = |attempts: u32, arrivals_per_s: f64| {
        checked(Spec {
            policy: Policy::new(1e-6, 1.0, 1e-6, crate::Stop::Attempts(attempts)).unwrap(),
            arrivals_per_s,
            ..Spec::article_fixed()
        })
    };
    // Stopped by the simulated attempts (a small limit), and refused before it starts by the
    // worst case (144,000 deliveries × 10,000 attempts is over 1e9).
    let refusals = [
        (
            10.0,
            super::discrete::simulate_within(&micro(10_000, 10.0), false, 1e5, MAX_HORIZON_S),
        ),
        (20.0, simulate_discrete(&micro(10_000, 20.0), false)),
    ];
    for (arrivals, refused) in refusals {
        let refused = refused.unwrap_err();
        let Error::OutOfRange { field, valid, .. } = &refused else {
            panic!("{refused}")
        };
        assert_eq!(*field, "attempts", "{refused}");
        assert!(
            valid.contains("for this storm on the fluid or auto engine: the fluid engine takes at most 500,000,000 class-seconds")
                && valid.contains("; or less traffic, as the discrete engine takes at most "),
            "{refused}"
        );
        let most: u32 = valid
            .strip_prefix("at most ")
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no count: {refused}"));
        let fluid = |attempts: u32| {
            let scenario = micro(attempts, arrivals);
            fluid::unrepresentable(&scenario, scenario.units())
        };
        assert_eq!(fluid(most), None, "{refused}");
        assert!(fluid(most + 1).is_some(), "{refused}");
        // Asked of the fluid engine, the same schedule names its attempts too, with the same
        // most: "engine must be discrete here" sent the reader to an engine that refuses it
        // as well.
        let on_fluid = simulate(&micro(10_000, arrivals), Engine::Fluid, false).unwrap_err();
        let told = format!("attempts must be at most {most} for this storm on the fluid engine: ");
        assert!(on_fluid.to_string().starts_with(&told), "{on_fluid}");
    }
    // A storm the fluid engine refuses for other reasons still names its volume.
    let decorrelated = super::discrete::simulate_within(
        &checked(Spec {
            jitter: Jitter::Decorrelated,
            ..Spec::article_fixed()
        }),
        false,
        1e5,
        MAX_HORIZON_S,
    )
    .unwrap_err();
    assert!(
        decorrelated.to_string().starts_with("traffic must be "),
        "{decorrelated}"
    );
}

#[test]
fn a_chart_gets_a_storms_peaks_and_troughs_in_at_most_its_points() {
    let week = simulate_fluid(
        &checked(Spec {
            traffic_s: 7 * 86_400 - 600,
            ..Spec::article_fixed()
        }),
        false,
    )
    .unwrap();
    assert!(week.minutes.len() > 10_000);
    let thin = week.for_chart(1_500);
    assert!(thin.minutes.len() <= 1_500, "{}", thin.minutes.len());
    assert!(
        thin.minutes.windows(2).all(|w| w[0].index < w[1].index),
        "in order"
    );
    let peak = |r: &StormReport| r.minutes.iter().map(|m| m.attempts).fold(0.0, f64::max);
    let trough = |r: &StormReport| {
        r.minutes
            .iter()
            .map(|m| m.attempts)
            .fold(f64::MAX, f64::min)
    };
    assert_eq!(peak(&thin), peak(&week));
    assert_eq!(trough(&thin), trough(&week));
    assert_eq!(thin.summary, week.summary);
    let short = simulate_fluid(&Scenario::article_fixed(), false).unwrap();
    assert_eq!(
        short.for_chart(100_000),
        short,
        "short storms are kept whole"
    );
}

/// A bound (here a rate limit) holds deliveries back in each class and sends a share of them
/// each second; what a class holds once nothing joins it shrinks geometrically. The fluid engine
/// drops it below 1e-30 of a delivery, so a class that has sent what it held falls quiet (here
/// about a third of horizon × attempts class-seconds are worked through): before,
/// every class stayed busy to the end of a 24 h schedule (more than horizon × attempts
/// class-seconds, through subnormal numbers: 18 s instead of under 1 s).
#[test]
fn a_bound_lets_the_fluid_engines_classes_fall_quiet() {
    use super::fluid::class_seconds_worked;
    let limited = Spec {
        traffic_s: 300,
        policy: Policy::fixed(30.0, crate::Stop::GiveUpAfter(86_400.0)).unwrap(),
        bounds: Bounds {
            rate_limit_per_s: Some(50.0),
            ..Bounds::default()
        },
        ..Spec::article_fixed()
    };
    let scenario = checked(limited);
    let always_busy = f64::from(scenario.horizon_s()) * f64::from(limited.policy.attempts());
    let worked = class_seconds_worked(&scenario).unwrap();
    assert!(
        worked < always_busy / 2.0,
        "{worked:e} class-seconds worked of {always_busy:e}"
    );
}

#[test]
fn a_refused_rate_is_quoted_to_six_significant_digits() {
    use super::quoted_rate;
    assert_eq!(quoted_rate(500_000.0 / 3_600.0), "138.889/s");
    assert_eq!(quoted_rate(1.0 / 3.0), "0.333333/s");
    assert_eq!(quoted_rate(10_000_000.0), "10000000/s");
    assert_eq!(quoted_rate(0.000_001), "0.000001/s");
    assert_eq!(quoted_rate(1e-14), "1e-14/s");
    assert_eq!(quoted_rate(0.0), "0/s");
}

/// The table showed every minute of the first half hour, then every 15th: the minutes after a
/// 2 h outage, where the queue and the duplicates are, were left out (outside SRE review). It
/// shows the quarter hour from recovery, the peak's minute and the longest queue's.
#[test]
fn the_minute_table_shows_the_quarter_hour_after_recovery_and_the_longest_queue() {
    let spec = Spec {
        outage: (0, 7_200),
        ..Spec::article_fixed()
    };
    let report = super::simulate_fluid(&Scenario::new(spec).unwrap(), false).unwrap();
    let table = report.to_table();
    let shown: Vec<u32> = table
        .lines()
        .filter_map(|line| line.split_whitespace().next()?.parse().ok())
        .collect();
    for minute in 121..=135 {
        assert!(shown.contains(&minute), "minute {minute}: {shown:?}");
    }
    let longest_queue = report
        .minutes
        .iter()
        .max_by(|a, b| a.queue.total_cmp(&b.queue))
        .unwrap();
    assert!(longest_queue.queue > 0.0);
    assert!(shown.contains(&longest_queue.index));
    assert!(shown.contains(&report.summary.peak_minute));
    assert!(!shown.contains(&31) && shown.contains(&45));
}

// proptest is a native dev-dependency only (the wasm build runs these tests too).
#[cfg(not(target_arch = "wasm32"))]
proptest::proptest! {
    /// A rate's counts second by second add up to its whole count (`round(R·t)`, halves up),
    /// and the second the count is first reached is the one `seconds_to_reach` names, which the
    /// caption's "after the last delivery arrived (by …)" uses.
    #[test]
    fn a_rates_counts_add_up_and_reach_their_total_when_said(
        per_s in 1u64..5_000_000_000,
        seconds in 1u64..100_000,
    ) {
        use super::scenario::Units;
        let total = Units::whole_by(per_s, seconds);
        let halves_up = (u128::from(per_s) * u128::from(seconds) * 2 + 1_000_000) / 2_000_000;
        proptest::prop_assert_eq!(u128::from(total), halves_up);
        let sampled: u64 = (0..seconds.min(500) as u32).map(|s| Units::per_second(per_s, s)).sum();
        proptest::prop_assert_eq!(sampled, Units::whole_by(per_s, seconds.min(500)));
        if total > 0 {
            let t = Units::seconds_to_reach(per_s, total);
            proptest::prop_assert!(Units::whole_by(per_s, t) >= total, "{t}");
            proptest::prop_assert!(Units::whole_by(per_s, t - 1) < total, "{t}");
        }
    }
}
