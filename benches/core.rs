//! `cargo bench`: each group times our code next to a baseline measured in the same run.
//! `scripts/bench.sh` prints the medians and the ratios.

use backoff_lab::chart::{timeline, to_svg, ChartOptions};
use backoff_lab::give_up::{distribution, give_up_times};
use backoff_lab::herd::herd;
use backoff_lab::jitter::{seeded_rng, Jitter};
use backoff_lab::{Policy, ScheduleReport};
use criterion::{criterion_group, criterion_main, Criterion};
use rand::RngExt;
use std::hint::black_box;

const SAMPLES: usize = 1_000_000;

/// The article's `retryDelaySeconds` with full jitter, summed over retries 1..13, as written
/// there (a power and a min per retry): the baseline for sampling.
fn article_loop(samples: usize, seed: u64) -> f64 {
    let mut rng = seeded_rng(seed).unwrap();
    let mut total = 0.0;
    for _ in 0..samples {
        let mut give_up = 0.0;
        for retry in 1..14 {
            let ideal = f64::min(3.0 * 60.0 * 60.0, 30.0 * 3f64.powi(retry - 1));
            give_up += rng.random::<f64>() * ideal;
        }
        total += give_up;
    }
    total / samples as f64
}

fn sampling(c: &mut Criterion) {
    let policy = Policy::article();
    let mut group = c.benchmark_group("sample_1M_give_up_times");
    group.sample_size(10);
    group.bench_function("baseline_article_loop", |b| {
        b.iter(|| black_box(article_loop(SAMPLES, 42)))
    });
    group.bench_function("give_up_times_full", |b| {
        b.iter(|| {
            let mut rng = seeded_rng(42).unwrap();
            black_box(give_up_times(&policy, Jitter::Full, SAMPLES, &mut rng))
        })
    });
    group.bench_function("give_up_times_decorrelated", |b| {
        b.iter(|| {
            let mut rng = seeded_rng(42).unwrap();
            black_box(give_up_times(
                &policy,
                Jitter::Decorrelated,
                SAMPLES,
                &mut rng,
            ))
        })
    });
    group.finish();
}

fn exact(c: &mut Criterion) {
    let policy = Policy::article();
    let mut group = c.benchmark_group("exact_percentiles");
    group.bench_function("baseline_sample_100k_and_sort", |b| {
        b.iter(|| {
            let mut times =
                give_up_times(&policy, Jitter::Full, 100_000, &mut seeded_rng(1).unwrap());
            times.sort_by(f64::total_cmp);
            black_box(times[5_000])
        })
    });
    group.bench_function("convolution_full", |b| {
        b.iter(|| black_box(distribution(&policy, Jitter::Full).unwrap()))
    });
    group.finish();
}

fn herds(c: &mut Criterion) {
    let policy = Policy::article();
    let mut group = c.benchmark_group("herd_1M");
    group.sample_size(10);
    group.bench_function("baseline_give_up_times_1M", |b| {
        b.iter(|| {
            black_box(give_up_times(
                &policy,
                Jitter::Full,
                SAMPLES,
                &mut seeded_rng(3).unwrap(),
            ))
        })
    });
    group.bench_function("herd_full", |b| {
        b.iter(|| black_box(herd(&policy, Jitter::Full, SAMPLES, 3).unwrap()))
    });
    group.finish();
}

fn schedule(c: &mut Criterion) {
    let policy = Policy::article();
    let mut group = c.benchmark_group("schedule");
    group.bench_function("baseline_formula_loop", |b| {
        b.iter(|| {
            let gaps: Vec<f64> = (1..14)
                .map(|k| f64::min(10_800.0, 30.0 * 3f64.powi(k - 1)))
                .collect();
            black_box(gaps)
        })
    });
    group.bench_function("report", |b| {
        b.iter(|| black_box(ScheduleReport::new(&policy.schedule(), 1_200.0)))
    });
    group.bench_function("timeline_svg", |b| {
        let schedule = policy.schedule();
        b.iter(|| {
            black_box(
                to_svg((900, 320), |a| {
                    timeline::draw(a, &schedule, &ChartOptions::default())
                })
                .unwrap(),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, sampling, exact, herds, schedule);
criterion_main!(benches);
