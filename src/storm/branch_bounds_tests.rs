//! A fluid storm branched off a shared one (as the survival map's cells are) carries the retry
//! quota's tokens and the circuit breaker's state with it: every branch reports exactly what
//! its own storm, simulated from second 0, reports.

use super::*;
use crate::storm::FailureShare;

/// The article's fixed interval at 10 deliveries a second, its outage from second 0 lasting
/// `outage_s`, at `capacity` a second, under `bounds`.
fn storm(outage_s: u32, capacity: f64, bounds: Bounds) -> Spec {
    Spec {
        arrivals_per_s: 10.0,
        traffic_s: 3_600,
        capacity_per_s: capacity,
        outage: (0, outage_s),
        bounds,
        ..Spec::article_fixed()
    }
}

/// Every bound of the two kinds, alone and with another bound.
fn bounds() -> Vec<Bounds> {
    let aws = |tokens| Some(RetryQuota::Aws { tokens });
    let grpc = Some(RetryQuota::Grpc {
        max_tokens: 10,
        token_ratio: 0.1,
    });
    let breaker = |failures, cooldown_s, probes| {
        Some(Breaker {
            failures: Some(failures),
            share: None,
            cooldown_s,
            probes,
        })
    };
    let share = |percent, window_s, min_attempts| {
        Some(Breaker {
            failures: None,
            share: Some(FailureShare {
                percent,
                window_s,
                min_attempts,
            }),
            cooldown_s: 30,
            probes: 2,
        })
    };
    vec![
        Bounds {
            retry_quota: aws(500),
            ..Bounds::default()
        },
        Bounds {
            retry_quota: aws(50),
            budget: Some(0.1),
            ..Bounds::default()
        },
        Bounds {
            retry_quota: grpc,
            ..Bounds::default()
        },
        Bounds {
            breaker: breaker(5, 30, 1),
            ..Bounds::default()
        },
        Bounds {
            breaker: breaker(20, 7, 3),
            retry_quota: grpc,
            ..Bounds::default()
        },
        Bounds {
            breaker: breaker(5, 30, 1),
            rate_limit_per_s: Some(12.0),
            ..Bounds::default()
        },
        Bounds {
            breaker: share(50, 30, 100),
            ..Bounds::default()
        },
        Bounds {
            breaker: share(20, 5, 10),
            retry_quota: aws(500),
            ..Bounds::default()
        },
    ]
}

#[test]
fn a_branched_fluid_storm_keeps_the_quota_and_the_breaker_it_reached() {
    let longest = 1_200;
    for bounds in bounds() {
        let trunk_spec = storm(longest, 20.0, bounds);
        let trunk_scenario = Scenario::new(trunk_spec).unwrap();
        let trunk_until = longest + 3_600;
        // Shorter outages, in order, each at its own capacity (before the outage ends the
        // capacity is never looked at, so they all share the trunk).
        let owns: Vec<(u32, Scenario)> = [(45, 12.0), (300, 40.0), (601, 15.0), (longest, 25.0)]
            .into_iter()
            .map(|(outage_s, capacity)| {
                (
                    outage_s,
                    Scenario::new(storm(outage_s, capacity, bounds)).unwrap(),
                )
            })
            .collect();
        let mut trunk = FluidStorm::start(&trunk_scenario, false, Shortcuts::ALL).unwrap();
        // Each branch reuses the buffers of the one before, as the survival map's do.
        let mut spare = Spare::default();
        for (outage_s, own) in &owns {
            let outage_s = *outage_s;
            let until = outage_s + 3_600;
            trunk.run_before(outage_s, trunk_until);
            let mut branch = trunk.branch(own, spare);
            branch.run_until(until);
            let branched;
            (branched, spare) = branch.finish_sparing();
            let direct = simulate_until(own, Engine::Fluid, false, until).unwrap();
            assert_eq!(branched, direct, "{bounds:?}, outage {outage_s} s");
        }
    }
}
