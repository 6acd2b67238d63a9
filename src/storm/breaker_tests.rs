//! The circuit breaker, by hand: small storms whose every second can be worked out on paper
//! from the rules in [`super::breaker`], run through both engines.

use super::breaker::BreakerState;
use super::*;
use crate::Policy;

fn with_breaker(spec: Spec, breaker: Breaker) -> Spec {
    Spec {
        bounds: Bounds {
            breaker: Some(breaker),
            ..spec.bounds
        },
        ..spec
    }
}

/// Both engines' reports with per-second rows: the fluid engine's equal the discrete engine's
/// in these storms, where nothing is random or fractional.
fn both_engines(spec: Spec) -> Vec<StormReport> {
    let scenario = Scenario::new(spec).unwrap();
    vec![
        simulate_discrete(&scenario, true).unwrap(),
        simulate_fluid(&scenario, true).unwrap(),
    ]
}

fn attempts(report: &StormReport, seconds: std::ops::Range<usize>) -> Vec<f64> {
    report.seconds[seconds].iter().map(|s| s.attempts).collect()
}

/// 10 deliveries a second for 2 minutes, down for the first 20 seconds, a destination far above
/// the load, and a fixed 30 s interval (a failure in second `s` is due again in `s + 35`).
fn small_storm() -> Spec {
    Spec {
        arrivals_per_s: 10.0,
        traffic_s: 120,
        capacity_per_s: 1_000.0,
        latency_s: 0.0,
        outage: (0, 20),
        timeout_s: 5.0,
        policy: Policy::fixed(30.0, crate::Stop::Attempts(10)).unwrap(),
        ..Spec::article_fixed()
    }
}

#[test]
fn a_breaker_opens_holds_for_its_cooldown_then_probes_until_one_succeeds() {
    let breaker = Breaker {
        failures: Some(3),
        share: None,
        cooldown_s: 5,
        probes: 1,
    };
    for report in both_engines(with_breaker(small_storm(), breaker)) {
        let engine = &report.engine;
        let zeros = [0.0; 5];
        // Second 0: ten failures, the count reaches 3: open. Nothing in seconds 1-5; one probe
        // (a first attempt) in 6, which fails in the outage: open again; and so on in 12 and
        // 18. The probe of second 24 succeeds (the outage ended at 20): closed.
        assert_eq!(report.seconds[0].attempts, 10.0, "{engine}");
        for probe in [6, 12, 18, 24] {
            assert_eq!(
                attempts(&report, probe - 5..probe),
                zeros,
                "{engine} before {probe}"
            );
            assert_eq!(report.seconds[probe].attempts, 1.0, "{engine} at {probe}");
        }
        assert_eq!(report.seconds[24].successes, 1.0, "{engine}");
        // Held, not dropped: after second 6, 70 created, 11 sent.
        assert_eq!(report.seconds[6].deferred, 59.0, "{engine}");
        // Second 25, closed: every held first attempt goes at once (260 created, 14 sent).
        assert_eq!(report.seconds[25].attempts, 246.0, "{engine}");
        assert_eq!(report.seconds[25].deferred, 0.0, "{engine}");
        assert_eq!(report.summary.breaker_openings, Some(4), "{engine}");
        assert_eq!(
            report.summary.delivered, report.summary.arrivals,
            "{engine}"
        );
    }
}

#[test]
fn a_half_open_breaker_sends_its_probes_first_attempts_first() {
    let breaker = Breaker {
        failures: Some(3),
        share: None,
        cooldown_s: 5,
        probes: 4,
    };
    for report in both_engines(with_breaker(small_storm(), breaker)) {
        for probe in [6, 12, 18, 24] {
            let second = &report.seconds[probe];
            assert_eq!(
                (second.attempts, second.first_attempts),
                (4.0, 4.0),
                "{} at {probe}",
                report.engine
            );
        }
    }
}

#[test]
fn a_success_restarts_the_count_of_consecutive_failures() {
    // An overloaded destination (100/s of capacity, 150 first attempts a second, a 1 s
    // timeout): in second 0 the first 101 succeed (the 101st waits exactly the timeout) and 49
    // time out; queue 50. Second 1: 51 succeed, 99 fail; queue 100. Second 2: 1 succeeds, 149
    // fail. With 100 failures to open, the count is 49, then 99 (a success in second 1: only
    // the failures after it count), then 149: open in second 2, not in second 1 as 49 + 99
    // would be.
    let overloaded = Spec {
        arrivals_per_s: 150.0,
        capacity_per_s: 100.0,
        timeout_s: 1.0,
        outage: (0, 0),
        policy: Policy::fixed(600.0, crate::Stop::Attempts(3)).unwrap(),
        ..small_storm()
    };
    let breaker = Breaker {
        failures: Some(100),
        share: None,
        cooldown_s: 10,
        probes: 1,
    };
    for report in both_engines(with_breaker(overloaded, breaker)) {
        let engine = &report.engine;
        let failures: Vec<f64> = report.seconds[..3].iter().map(|s| s.failures).collect();
        assert_eq!(failures, [49.0, 99.0, 149.0], "{engine}");
        assert_eq!(
            attempts(&report, 0..4),
            [150.0, 150.0, 150.0, 0.0],
            "{engine}"
        );
        assert_eq!(
            attempts(&report, 3..13),
            [0.0; 10],
            "{engine}: the cool-down"
        );
        assert_eq!(report.seconds[13].attempts, 1.0, "{engine}: the probe");
    }
}

#[test]
fn without_a_breaker_nothing_is_counted_and_nothing_held() {
    let report = simulate_discrete(&Scenario::new(small_storm()).unwrap(), true).unwrap();
    assert_eq!(report.summary.breaker_openings, None);
    assert!(report.seconds.iter().all(|s| s.deferred == 0.0));
}

#[test]
fn the_state_machine_reads_expected_numbers_by_halves() {
    let rule = Breaker {
        failures: Some(5),
        share: None,
        cooldown_s: 2,
        probes: 3,
    };
    let mut breaker = BreakerState::new(Some(rule));
    // (second, sent, successes, failures) and the allowance of the next second.
    let steps: [(u32, f64, f64, f64, u64); 9] = [
        (0, 10.0, 6.0, 4.0, u64::MAX), // count 4
        (1, 5.0, 1.0, 4.0, u64::MAX),  // a success: count 4
        (2, 0.0, 0.0, 0.0, u64::MAX),  // nothing sent: still 4
        (3, 1.0, 0.4, 0.6, u64::MAX),  // under half a success: 4.6
        (4, 1.0, 0.0, 0.4, 0),         // 5.0: open in 4, closed to sending in 5 and 6
        (5, 0.0, 0.0, 0.0, 0),
        (6, 0.0, 0.0, 0.0, 3),        // half-open from 7
        (7, 0.4, 0.4, 0.0, 3),        // under half an attempt sent: still half-open
        (8, 3.0, 2.6, 0.4, u64::MAX), // under half a failure: closed
    ];
    for (second, sent, successes, failures, next) in steps {
        breaker.settle(second, sent, successes, failures);
        assert_eq!(breaker.allowance(second + 1), next, "after second {second}");
    }
    assert_eq!(breaker.openings(), Some(1));
    // A failed probe opens it again from the second it was sent in.
    breaker.settle(9, 10.0, 0.0, 10.0);
    breaker.settle(10, 0.0, 0.0, 0.0);
    breaker.settle(11, 0.0, 0.0, 0.0);
    breaker.settle(12, 2.0, 1.0, 1.0);
    assert_eq!(breaker.allowance(13), 0, "reopened by a failed probe");
    assert_eq!(breaker.allowance(15), 3);
    assert_eq!(breaker.openings(), Some(3));
    assert_eq!(BreakerState::new(None).openings(), None);
}

/// A breaker that opens on a failure share only.
fn share_breaker(percent: u32, window_s: u32, min_attempts: u32, cooldown_s: u32) -> Breaker {
    Breaker {
        failures: None,
        share: Some(FailureShare {
            percent,
            window_s,
            min_attempts,
        }),
        cooldown_s,
        probes: 1,
    }
}

#[test]
fn the_failure_share_counts_the_window_and_opens_at_the_share() {
    let mut breaker = BreakerState::new(Some(share_breaker(50, 3, 10, 2)));
    // (second, sent, successes, failures) and the allowance of the next second.
    let steps: [(u32, f64, f64, f64, u64); 7] = [
        (0, 6.0, 0.0, 6.0, u64::MAX), // window 0..0: 6 of 6 failed, under 10 attempts
        (1, 2.0, 2.0, 0.0, u64::MAX), // 0..1: 6 of 8
        (2, 0.0, 0.0, 0.0, u64::MAX), // 0..2: 6 of 8
        // 1..3: second 0 has left the window: 0 of 6 (with it: 6 of 12, 50%, would open).
        (3, 4.0, 4.0, 0.0, u64::MAX),
        (4, 6.0, 0.0, 6.0, 0), // 2..4: 6 of 10 attempts, 60%: open in 4
        (5, 0.0, 0.0, 0.0, 0),
        (6, 0.0, 0.0, 0.0, 1), // half-open from 7
    ];
    for (second, sent, successes, failures, next) in steps {
        breaker.settle(second, sent, successes, failures);
        assert_eq!(breaker.allowance(second + 1), next, "after second {second}");
    }
    // A good probe closes it with an empty window: the 6 failures of second 4 are forgotten.
    breaker.settle(7, 1.0, 1.0, 0.0);
    assert_eq!(breaker.allowance(8), u64::MAX, "closed");
    breaker.settle(8, 9.0, 5.0, 4.0);
    assert_eq!(
        breaker.allowance(9),
        u64::MAX,
        "9 attempts: under the minimum"
    );
    // Exactly at the share: 5 of 10 failed is 50%, and "at least" opens.
    breaker.settle(9, 1.0, 0.0, 1.0);
    assert_eq!(breaker.allowance(10), 0, "open at exactly 50%");
    assert_eq!(breaker.openings(), Some(2));

    // A long window forgets what came before the breaker opened: opened by 10 of 10 in second
    // 0 and closed by the probe of second 2, 4 of 10 failing in second 3 is 40% (counting second
    // 0's: 14 of 20, 70%).
    let mut breaker = BreakerState::new(Some(share_breaker(50, 60, 10, 1)));
    breaker.settle(0, 10.0, 0.0, 10.0);
    breaker.settle(1, 0.0, 0.0, 0.0);
    breaker.settle(2, 1.0, 1.0, 0.0);
    assert_eq!(breaker.allowance(3), u64::MAX, "closed by the probe");
    breaker.settle(3, 10.0, 6.0, 4.0);
    assert_eq!(breaker.allowance(4), u64::MAX, "40% since it closed");

    // A second with nothing sent changes nothing: a success and a failure, then ten empty
    // seconds in which the success leaves the 10 s window (1 of 1 failed, over 60%) keep it
    // closed until something is sent again.
    let mut breaker = BreakerState::new(Some(share_breaker(60, 10, 1, 5)));
    breaker.settle(0, 1.0, 1.0, 0.0);
    breaker.settle(1, 1.0, 0.0, 1.0);
    for second in 2..=11 {
        breaker.settle(second, 0.0, 0.0, 0.0);
        assert_eq!(
            breaker.allowance(second + 1),
            u64::MAX,
            "after empty second {second}"
        );
    }
    breaker.settle(12, 1.0, 0.0, 1.0);
    assert_eq!(breaker.allowance(13), 0, "1 of 1 failed in seconds 3-12");
}

#[test]
fn a_share_breaker_opens_once_the_window_holds_its_minimum() {
    // 10 attempts a second, every one failing in the outage (seconds 0-19); 100% over 5 s with
    // at least 30 attempts: seconds 0 and 1 hold 10 and 20, second 2 reaches 30: open in 2.
    // Nothing in 3-7, a probe in 8 (fails: open again), 14 (fails), 20 (succeeds: closed).
    let breaker = share_breaker(100, 5, 30, 5);
    for report in both_engines(with_breaker(small_storm(), breaker)) {
        let engine = &report.engine;
        assert_eq!(attempts(&report, 0..3), [10.0; 3], "{engine}");
        for probe in [8, 14, 20] {
            assert_eq!(
                attempts(&report, probe - 5..probe),
                [0.0; 5],
                "{engine} before {probe}"
            );
            assert_eq!(report.seconds[probe].attempts, 1.0, "{engine} at {probe}");
        }
        assert_eq!(report.seconds[20].successes, 1.0, "{engine}");
        // Held, not dropped: after second 8, 90 created, 31 sent.
        assert_eq!(report.seconds[8].deferred, 59.0, "{engine}");
        assert_eq!(report.summary.breaker_openings, Some(3), "{engine}");
        assert_eq!(
            report.summary.delivered, report.summary.arrivals,
            "{engine}"
        );
    }
}
