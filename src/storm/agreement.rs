//! The two simulated engines against each other on scenarios nobody picked: a seeded random
//! family covering every policy kind, every jitter mode the fluid engine takes, every bound
//! (budget, rate limit, pause, Retry-After, retry quota, circuit breaker),
//! batches, short and long outages, saturated and unsaturated destinations.

use rand::Rng;

use super::*;
use crate::jitter::{seeded_rng, uniform, Jitter, SeededRng};
use crate::{Policy, Stop};

fn pick<T: Copy>(rng: &mut SeededRng, items: &[T]) -> T {
    items[(uniform(rng, 0.0, items.len() as f64) as usize).min(items.len() - 1)]
}

fn chance(rng: &mut SeededRng, p: f64) -> bool {
    uniform(rng, 0.0, 1.0) < p
}

/// Log-uniform between `lo` and `hi`.
fn spread(rng: &mut SeededRng, lo: f64, hi: f64) -> f64 {
    (uniform(rng, lo.ln(), hi.ln())).exp()
}

/// A scenario of the family, from `rng`: small enough that a discrete run takes well under a
/// second in an optimized test build.
pub(super) fn random_scenario(rng: &mut SeededRng) -> Spec {
    let arrivals = spread(rng, 1.0, 25.0);
    let traffic = pick(rng, &[300, 900, 1_800, 2_700]);
    let attempts = pick(rng, &[1, 3, 5, 8, 12, 20]);
    let stop = Stop::Attempts(attempts);
    let policy = match pick(rng, &["fixed", "exponential", "explicit"]) {
        "fixed" => Policy::fixed(pick(rng, &[5.0, 10.0, 30.0, 60.0]), stop),
        "exponential" => Policy::new(
            pick(rng, &[1.0, 5.0, 10.0, 30.0]),
            pick(rng, &[1.5, 2.0, 3.0]),
            pick(rng, &[60.0, 300.0, 1_800.0]),
            stop,
        ),
        _ => Policy::explicit(&[5.0, 30.0, 120.0, 600.0], Some(1_800.0), Some(stop)),
    }
    .expect("the family's policies are valid");
    let jitter = pick(
        rng,
        &[
            Jitter::None,
            Jitter::Full,
            Jitter::Equal,
            Jitter::Proportional(crate::jitter::Factor::GRPC),
        ],
    );
    let timeout = pick(rng, &[1.0, 2.0, 5.0, 10.0]);
    let mut bounds = Bounds::default();
    if chance(rng, 0.25) {
        bounds.budget = Some(pick(rng, &[0.05, 0.1, 0.2]));
    }
    let capacity = arrivals * pick(rng, &[0.9, 1.2, 2.0, 3.0, 6.0]);
    if chance(rng, 0.25) {
        bounds.rate_limit_per_s = Some(capacity * pick(rng, &[0.6, 1.0, 1.5]));
    }
    if chance(rng, 0.2) {
        bounds.pause = true;
    }
    if chance(rng, 0.2) {
        bounds.retry_after_s = Some(pick(rng, &[10.0, 60.0, 120.0]));
        bounds.retry_after_threshold_s = pick(rng, &[0.5, 1.0, 2.0]);
    }
    let batch = chance(rng, 0.3).then(|| {
        (
            pick(rng, &[500, 2_000, 10_000]),
            uniform(rng, 0.0, f64::from(traffic)) as u32,
        )
    });
    let mut spec = Spec {
        arrivals_per_s: arrivals,
        traffic_s: traffic,
        batch,
        capacity_per_s: capacity,
        latency_s: pick(rng, &[0.0, 0.05, 0.3]),
        outage: (
            pick(rng, &[0, 60, 300]),
            pick(rng, &[0, 30, 120, 600, 1_800]),
        ),
        timeout_s: timeout,
        policy,
        jitter,
        bounds,
        abandon: chance(rng, 0.25),
        seed: rng.next_u64() >> 11,
    };
    // The retry quota and the breaker come from a generator of their own, seeded by the
    // scenario, so that the family's other draws are what they were before these bounds.
    let rng = &mut seeded_rng(spec.seed).expect("a seed below 2^53");
    if chance(rng, 0.2) {
        spec.bounds.retry_quota = Some(if chance(rng, 0.5) {
            RetryQuota::Aws {
                tokens: pick(rng, &[50, 500, 5_000]),
            }
        } else {
            RetryQuota::Grpc {
                max_tokens: pick(rng, &[10, 100, 1_000]),
                token_ratio: pick(rng, &[0.1, 0.5, 1.0]),
            }
        });
    }
    if chance(rng, 0.2) {
        let failures = pick(rng, &[1, 5, 20, 100]);
        let cooldown_s = pick(rng, &[5, 30, 120]);
        let probes = pick(rng, &[1, 5, 20]);
        // Half the breakers also (or only) open on a failure share over a window.
        let share = chance(rng, 0.5).then(|| FailureShare {
            percent: pick(rng, &[10, 50, 100]),
            window_s: pick(rng, &[10, 30, 120]),
            min_attempts: pick(rng, &[1, 20, 100, 1_000]),
        });
        let failures = (share.is_none() || chance(rng, 0.5)).then_some(failures);
        spec.bounds.breaker = Some(Breaker {
            failures,
            share,
            cooldown_s,
            probes,
        });
    }
    spec
}

/// How far the fluid engine may be from the mean of discrete runs: 2% of the larger, or four
/// standard errors of the mean (the runs' own spread), or half a delivery, whichever is largest.
fn close(fluid: f64, runs: &[f64]) -> Result<(), String> {
    let k = runs.len() as f64;
    let mean = runs.iter().sum::<f64>() / k;
    let variance = runs.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (k - 1.0);
    let allowed = (0.02 * fluid.abs().max(mean.abs()))
        .max(4.0 * (variance / k).sqrt())
        .max(0.5);
    if (fluid - mean).abs() <= allowed {
        Ok(())
    } else {
        Err(format!(
            "fluid {fluid:.1} vs discrete mean {mean:.1} (runs {runs:?}), allowed ±{allowed:.1}"
        ))
    }
}

/// What the fluid engine says against eight discrete runs (seeds 1 to 8) of one scenario.
pub(super) fn disagreements(spec: &Spec) -> Vec<String> {
    let fluid = simulate_fluid(&Scenario::new(*spec).unwrap(), false)
        .expect("fluid")
        .summary;
    let runs: Vec<Summary> = (1..=8)
        .map(|seed| {
            let scenario = Scenario::new(Spec { seed, ..*spec }).unwrap();
            simulate_discrete(&scenario, false)
                .expect("discrete")
                .summary
        })
        .collect();
    let mut found = Vec::new();
    type Field = fn(&Summary) -> f64;
    let fields: [(&str, Field); 4] = [
        ("delivered", |s| s.delivered),
        ("exhausted", |s| s.exhausted),
        ("duplicates", |s| s.duplicates),
        ("peak attempts per minute", |s| s.peak_attempts_per_min),
    ];
    for (name, field) in fields {
        let values: Vec<f64> = runs.iter().map(field).collect();
        if let Err(why) = close(field(&fluid), &values) {
            found.push(format!("{name}: {why}"));
        }
    }
    let drains: Vec<Option<u32>> = runs.iter().map(|s| s.drained_at_s).collect();
    // Within a minute of the runs' mean, or within their own spread when that is wider.
    match (fluid.drained_at_s, drains.iter().all(Option::is_some)) {
        (Some(at), true) => {
            let times: Vec<f64> = drains.iter().flatten().map(|&t| f64::from(t)).collect();
            let mean = times.iter().sum::<f64>() / times.len() as f64;
            let (lo, hi) = times
                .iter()
                .fold((f64::MAX, 0.0f64), |(lo, hi), &t| (lo.min(t), hi.max(t)));
            if (f64::from(at) - mean).abs() > 60.0
                && !(lo - 60.0..=hi + 60.0).contains(&f64::from(at))
            {
                found.push(format!("drained at {at} vs discrete {drains:?}"));
            }
        }
        (None, false) if drains.iter().all(Option::is_none) => {}
        (fluid, _) => found.push(format!("drained at {fluid:?} vs discrete {drains:?}")),
    }
    found
}

#[test]
fn the_engines_agree_on_a_random_family_of_scenarios() {
    let mut rng = seeded_rng(2026).unwrap();
    let wanted = std::env::var("FAMILY").map_or(48, |n| n.parse().unwrap());
    let (mut compared, mut refused, mut failures) = (0, 0, Vec::new());
    while compared < wanted {
        let scenario = random_scenario(&mut rng);
        if let Err(why) = simulate_fluid(&Scenario::new(scenario).unwrap(), false) {
            assert!(why.to_string().contains("at least 20 requests"), "{why}");
            refused += 1;
            continue;
        }
        compared += 1;
        let found = disagreements(&scenario);
        if !found.is_empty() {
            failures.push(format!(
                "scenario {compared}: {scenario:?}\n  {}",
                found.join("\n  ")
            ));
        }
    }
    assert!(refused < compared, "{refused} refused");
    assert!(
        failures.is_empty(),
        "{} of {compared}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
