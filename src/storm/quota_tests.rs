//! The retry quota, by hand: small storms whose every second can be worked out on paper from
//! the rules in [`super::quota`], run through both engines.

use super::destination::Outcome;
use super::quota::{ExactQuota, ExpectedQuota};
use super::*;
use crate::Policy;

/// 10 deliveries a second for 2 minutes, down for the first minute, a destination far above
/// the load (every attempt after the outage succeeds), and a fixed 5 s interval: a first
/// attempt failing in second `s` is due again in `s + 10` (5 s timeout + 5 s gap).
fn small_storm(quota: RetryQuota) -> Spec {
    Spec {
        arrivals_per_s: 10.0,
        traffic_s: 120,
        capacity_per_s: 1_000.0,
        latency_s: 0.0,
        outage: (0, 60),
        timeout_s: 5.0,
        policy: Policy::fixed(5.0, crate::Stop::Attempts(50)).unwrap(),
        bounds: Bounds {
            retry_quota: Some(quota),
            ..Bounds::default()
        },
        ..Spec::article_fixed()
    }
}

/// Both engines' per-second rows: the fluid engine's are the discrete engine's here, because
/// nothing in these storms is random or fractional.
fn both_engines(spec: Spec) -> Vec<StormReport> {
    let scenario = Scenario::new(spec).unwrap();
    let discrete = simulate_discrete(&scenario, true).unwrap();
    let fluid = simulate_fluid(&scenario, true).unwrap();
    vec![discrete, fluid]
}

fn retries(report: &StormReport, seconds: std::ops::Range<usize>) -> Vec<f64> {
    report.seconds[seconds].iter().map(|s| s.retries).collect()
}

#[test]
fn an_aws_bucket_of_20_tokens_sends_two_retries_then_none_until_successes_refund() {
    for report in both_engines(small_storm(RetryQuota::Aws { tokens: 20 })) {
        let engine = &report.engine;
        let seconds = &report.seconds;
        // Second 10: the ten first attempts of second 0 come due; 20 tokens pay for two retries
        // (10 each), the other eight are held.
        assert_eq!(seconds[10].retries, 2.0, "{engine}");
        assert_eq!(seconds[10].deferred, 8.0, "{engine}");
        // Failed retries give nothing back: no retry until the outage ends at 60, and every
        // delivery whose retry came due is held (the two sent in 10 failed and came back in 20):
        // the first attempts of seconds 0 to 49.
        assert!(
            retries(&report, 11..61).iter().all(|&r| r == 0.0),
            "{engine}"
        );
        assert_eq!(seconds[59].deferred, 500.0, "{engine}");
        // ... then the ten first attempts of second 60 succeed and give back a token each: one
        // retry in 61. It succeeds and gives its 10 back, the first attempts add 10: 20 tokens,
        // two retries in 62; then 30, kept to the bucket's 20: two a second from then on.
        assert_eq!(
            retries(&report, 61..66),
            [1.0, 2.0, 2.0, 2.0, 2.0],
            "{engine}"
        );
        assert_eq!(
            report.summary.delivered, report.summary.arrivals,
            "{engine}"
        );
        assert_eq!(report.summary.exhausted, 0.0, "{engine}");
    }
}

#[test]
fn the_aws_bucket_never_exceeds_its_size() {
    // A healthy destination: every first attempt gives back a token into a full bucket of 20,
    // which stays at 20. Then a 30 s outage from second 100: the first retries (due from 110)
    // get two retries' worth and no more, as from a full bucket.
    let spec = Spec {
        outage: (100, 30),
        traffic_s: 240,
        ..small_storm(RetryQuota::Aws { tokens: 20 })
    };
    for report in both_engines(spec) {
        assert_eq!(report.seconds[110].retries, 2.0, "{}", report.engine);
        assert!(retries(&report, 111..131).iter().all(|&r| r == 0.0));
    }
}

#[test]
fn grpc_throttling_sends_retries_only_above_half_its_tokens() {
    let quota = RetryQuota::Grpc {
        max_tokens: 10,
        token_ratio: 0.1,
    };
    for report in both_engines(small_storm(quota)) {
        let engine = &report.engine;
        // Second 0: ten failures take the bucket from 10 to 0; nothing is retried while it is
        // at most 5.
        assert!(
            retries(&report, 0..66).iter().all(|&r| r == 0.0),
            "{engine}"
        );
        // From second 60 each second's ten successes give back 1 token: 6 tokens after second
        // 65, so one retry in 66 (6 − 0 > 5, 6 − 1 is not). It succeeds too: 6 + 1.1 = 7.1,
        // so ceil(7.1 − 5) = 3 in 67; then 8.4 → 4 in 68; 9.8 → 5 in 69; the bucket is full
        // (10, capped) → 5 a second.
        assert_eq!(
            retries(&report, 66..72),
            [1.0, 3.0, 4.0, 5.0, 5.0, 5.0],
            "{engine}"
        );
        assert_eq!(
            report.summary.delivered, report.summary.arrivals,
            "{engine}"
        );
    }
}

#[test]
fn a_quota_holds_instead_of_dropping_and_every_delivery_is_counted() {
    // The article's storm, shortened, under each quota: every second conserves deliveries (the
    // engines check it in debug builds), nothing is exhausted that the quota held, and the
    // quota keeps retries far below the unbounded storm.
    let base = Spec {
        traffic_s: 1_800,
        ..Spec::article_fixed()
    };
    let unbounded = simulate_discrete(&Scenario::new(base).unwrap(), false).unwrap();
    for quota in [
        RetryQuota::Aws { tokens: 500 },
        RetryQuota::Grpc {
            max_tokens: 10,
            token_ratio: 0.1,
        },
    ] {
        let spec = Spec {
            bounds: Bounds {
                retry_quota: Some(quota),
                ..Bounds::default()
            },
            ..base
        };
        let report = simulate_discrete(&Scenario::new(spec).unwrap(), true).unwrap();
        let s = &report.summary;
        assert_eq!(
            s.arrivals,
            s.delivered + s.exhausted + s.pending,
            "{quota:?}"
        );
        assert!(
            s.peak_attempts_per_min < unbounded.summary.peak_attempts_per_min / 10.0,
            "{quota:?}: {} vs {}",
            s.peak_attempts_per_min,
            unbounded.summary.peak_attempts_per_min
        );
        assert!(report.seconds[300].deferred > 1_000.0, "{quota:?}: held");
        assert_eq!(s.exhausted, 0.0, "{quota:?}");
        // The caption names the quota, and nothing was left held at the end.
        assert!(
            report.caption.contains("Retries drew on"),
            "{}",
            report.caption
        );
        assert!(!report.caption.contains("still held"), "{}", report.caption);
    }
}

/// One second's outcome: `ok` successes, then `failed` timeouts (lost in an outage).
fn outcome<T: Copy + Default>(ok: T, failed: T) -> Outcome<T> {
    Outcome {
        ok,
        late: T::default(),
        lost: failed,
        rejected: T::default(),
    }
}

#[test]
fn both_engines_buckets_follow_one_rule() {
    let units = |quota: RetryQuota| {
        *Scenario::new(Spec {
            bounds: Bounds {
                retry_quota: Some(quota),
                ..Bounds::default()
            },
            ..Spec::article_fixed()
        })
        .unwrap()
        .units()
    };
    // (first attempts, retries sent, successes, failures) second by second, and the retries
    // the bucket allows as each second begins.
    let aws = units(RetryQuota::Aws { tokens: 35 });
    let mut exact = ExactQuota::new(&aws);
    let mut expected = ExpectedQuota::new(&aws);
    let seconds: [(u64, u64, u64, u64, u64); 4] = [
        // 35 tokens: 3 retries fit; all 3 fail (−30), 2 first attempts succeed (+2): 7.
        (5, 3, 2, 6, 3),
        // 7 tokens: none fits; 9 first successes: 16.
        (10, 0, 9, 1, 0),
        // 16: one; it and the 4 first attempts succeed: 16 − 10 + 10 + 4 = 20.
        (4, 1, 5, 0, 1),
        // 20: two.
        (0, 0, 0, 0, 2),
    ];
    for (firsts, retries, ok, failed, room) in seconds {
        assert_eq!(exact.room(), room);
        assert_eq!(expected.room(), room as f64);
        exact.settle(firsts, retries, &outcome(ok, failed));
        let (f, r, o, x) = (firsts as f64, retries as f64, ok as f64, failed as f64);
        expected.settle(f, r, &outcome(o, x));
    }
    // gRPC: 4 tokens of 4; retries while above 2.
    let grpc = units(RetryQuota::Grpc {
        max_tokens: 4,
        token_ratio: 0.5,
    });
    let mut exact = ExactQuota::new(&grpc);
    let mut expected = ExpectedQuota::new(&grpc);
    let seconds: [(u64, u64, u64, u64, u64); 4] = [
        // 4 > 2: 4 − 0 and 4 − 1 exceed 2, 4 − 2 does not: 2. Then 3 failures: 1.
        (1, 0, 0, 3, 2),
        // 1: none. 5 successes: 1 + 2.5 = 3.5.
        (5, 0, 5, 0, 0),
        // 3.5: 3.5 − 1 = 2.5 > 2, 1.5 is not: 2. 10 successes: capped at 4.
        (10, 0, 10, 0, 2),
        (0, 0, 0, 0, 2),
    ];
    for (firsts, retries, ok, failed, room) in seconds {
        assert_eq!(exact.room(), room);
        assert_eq!(expected.room(), room as f64);
        exact.settle(firsts, retries, &outcome(ok, failed));
        let (f, r, o, x) = (firsts as f64, retries as f64, ok as f64, failed as f64);
        expected.settle(f, r, &outcome(o, x));
    }
}

#[test]
fn a_bucket_nothing_refills_holds_its_retries_to_the_end_and_the_caption_says_so() {
    // The traffic (30 s) ends inside the outage (60 s): every first attempt fails, the gRPC
    // bucket falls to 0, and with no first attempt left no success ever refills it. The 300
    // deliveries stay held, pending, to the 7-day limit: kept, never dropped nor exhausted.
    let spec = Spec {
        traffic_s: 30,
        ..small_storm(RetryQuota::Grpc {
            max_tokens: 10,
            token_ratio: 0.1,
        })
    };
    let scenario = Scenario::new(spec).unwrap();
    for report in [
        simulate_discrete(&scenario, false).unwrap(),
        simulate_fluid(&scenario, false).unwrap(),
    ] {
        let (engine, s) = (&report.engine, &report.summary);
        assert_eq!((s.delivered, s.exhausted, s.pending), (0.0, 0.0, 300.0));
        assert_eq!(s.horizon_s, MAX_HORIZON_S, "{engine}");
        assert_eq!(report.minutes.last().unwrap().deferred, 300.0, "{engine}");
        assert!(
            report.caption.contains(
                "300 deliveries were still held when the simulation stopped: once no success refills the bucket"
            ),
            "{engine}: {}",
            report.caption
        );
    }
}
