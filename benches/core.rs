//! `cargo bench`: each group times our code next to a baseline measured in the same run.
//! `scripts/bench.sh` prints the medians and the ratios.

use backoff_lab::chart::{timeline, to_svg, ChartOptions};
use backoff_lab::give_up::{distribution, give_up_times, sample, Sampling, HISTOGRAM_BINS};
use backoff_lab::herd::herd;
use backoff_lab::jitter::{seeded_rng, Jitter};
use backoff_lab::storm::{simulate_discrete, simulate_fluid, Scenario, Spec, StormReport};
use backoff_lab::survival::{cell, series_specs, survival_map, Axes, Cell};
use backoff_lab::{Engine, Policy, ScheduleReport, Stop};
use criterion::{criterion_group, criterion_main, Criterion};
use rand::RngExt;
use std::hint::black_box;
use std::time::{Duration, Instant};

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
    // The distribution's whole sampled report: the draws (above, the baseline) plus the mean,
    // the histogram and five percentiles.
    group.bench_function("sample_full_with_percentiles", |b| {
        b.iter(|| {
            black_box(
                sample(
                    &policy,
                    Jitter::Full,
                    Sampling {
                        samples: SAMPLES,
                        seed: 42,
                        bins: HISTOGRAM_BINS,
                    },
                )
                .unwrap(),
            )
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
    // A long schedule's timeline: ten thousand attempts on a log axis (the page's worst case
    // for a slider step).
    group.bench_function("timeline_svg_10k_attempts", |b| {
        let schedule = Policy::new(30.0, 3.0, 10_800.0, Stop::Attempts(10_000))
            .unwrap()
            .schedule();
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

/// The page's staleness chart (the curves along the outage lengths, the outage read off and the
/// caption's report) for the default settings with Svix compared: under full jitter (sampled)
/// against the same policy without jitter (exact) as the baseline.
fn staleness(c: &mut Criterion) {
    use backoff_lab::page::{staleness_chart, Settings};
    let mut group = c.benchmark_group("staleness_chart");
    let mut jittered = Settings::default();
    jittered.set("compare", "svix");
    let mut exact = jittered.clone();
    exact.set("mode", "none");
    group.bench_function("baseline_without_jitter", |b| {
        b.iter(|| black_box(staleness_chart(black_box(&exact)).unwrap()))
    });
    group.bench_function("full_jitter", |b| {
        b.iter(|| black_box(staleness_chart(black_box(&jittered)).unwrap()))
    });
    group.finish();
}

/// Exponential 30 s ×3 capped at 3 h, 14 attempts, full jitter: the article's policy.
fn storm_policy() -> Policy {
    Policy::new(30.0, 3.0, 10_800.0, Stop::Attempts(14)).unwrap()
}

/// 600/min for 24 h with a 2-hour outage from the start, the article's policy with full jitter
/// (the rest as the article's storm: 30/s capacity, 50 ms latency, 5 s timeout, seed 42).
fn storm_24h() -> Scenario {
    Scenario::new(storm_24h_spec()).unwrap()
}

fn storm_24h_spec() -> Spec {
    Spec {
        traffic_s: 86_400,
        outage: (0, 7_200),
        policy: storm_policy(),
        jitter: Jitter::Full,
        ..Spec::article_fixed()
    }
}

/// One batch of 1,000,000 deliveries at second 0 (next to no steady traffic: 10^-6 per second
/// for 1 s) and a 10-minute outage, same policy.
fn storm_batch_1m() -> Scenario {
    Scenario::new(Spec {
        arrivals_per_s: 1e-6,
        traffic_s: 1,
        batch: Some((1_000_000, 0)),
        outage: (0, 600),
        ..storm_24h_spec()
    })
    .unwrap()
}

/// Attempts simulated, summed over the report's minutes.
fn attempts(report: &StormReport) -> f64 {
    report.minutes.iter().map(|m| m.attempts).sum()
}

/// Outside criterion's timing: the discrete engine's throughput (attempts simulated per wall
/// second, the median of 3 runs after a warm-up) on both storm scenarios, printed to stderr and
/// written to target/criterion/storm_events_per_second.json for scripts/criterion_summary.py.
fn storm_events_per_second(_: &mut Criterion) {
    // Only under `cargo bench` (criterion's `--bench`), not when `cargo test --benches` runs
    // each benchmark once as a test.
    if !std::env::args().any(|arg| arg == "--bench") {
        return;
    }
    let mut lines = Vec::new();
    for (name, scenario) in [
        ("storm_24h", storm_24h()),
        ("storm_batch_1M", storm_batch_1m()),
    ] {
        let warm = simulate_discrete(&scenario, false).unwrap();
        let mut times: Vec<f64> = (0..3)
            .map(|_| {
                let started = Instant::now();
                black_box(simulate_discrete(&scenario, false).unwrap());
                started.elapsed().as_secs_f64()
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let seconds = times[1];
        let n = attempts(&warm);
        let fluid = simulate_fluid(&scenario, false).unwrap();
        eprintln!(
            "{name}: discrete engine {n:.0} attempts ({:.0} deliveries) in {:.3} s (median of 3): \
             {:.3e} events per second; fluid engine counts {:.0} attempts",
            warm.summary.arrivals,
            seconds,
            n / seconds,
            attempts(&fluid),
        );
        lines.push(format!(
            "  {{\"scenario\": \"{name}\", \"engine\": \"discrete\", \"attempts\": {n:.0}, \
             \"deliveries\": {:.0}, \"seconds\": {seconds:.6}, \"events_per_second\": {:.1}, \
             \"fluid_attempts\": {:.1}}}",
            warm.summary.arrivals,
            n / seconds,
            attempts(&fluid),
        ));
    }
    let dir = std::path::Path::new(
        &std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".to_string()),
    )
    .join("criterion");
    let json = format!("[\n{}\n]\n", lines.join(",\n"));
    if let Err(error) = std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(dir.join("storm_events_per_second.json"), json))
    {
        eprintln!(
            "storm events per second: could not write under {}: {error}",
            dir.display()
        );
    }
}

fn storms(c: &mut Criterion) {
    for (group_name, scenario) in [
        ("storm_24h", storm_24h()),
        ("storm_batch_1M", storm_batch_1m()),
    ] {
        let mut group = c.benchmark_group(group_name);
        group.sample_size(10);
        // About 1.3 s per discrete run natively: room for 10 of them without criterion's warning.
        group.measurement_time(Duration::from_secs(16));
        group.bench_function("baseline_discrete", |b| {
            b.iter(|| black_box(simulate_discrete(black_box(&scenario), false).unwrap()))
        });
        group.measurement_time(Duration::from_secs(5));
        group.bench_function("fluid", |b| {
            b.iter(|| black_box(simulate_fluid(black_box(&scenario), false).unwrap()))
        });
        group.finish();
    }
}

/// Every cell of the article storm's map over `axes`, each storm simulated on its own: what the
/// map did before its cells shared storms (the baseline).
fn cells_one_by_one(axes: &Axes) -> Vec<Cell> {
    let mut cells = Vec::new();
    for (_, spec) in series_specs(&Spec::article_fixed()).unwrap() {
        for &headroom in &axes.headroom {
            for &outage in &axes.outages_s {
                cells.push(cell(&spec, outage, headroom, Engine::Fluid).unwrap());
            }
        }
    }
    cells
}

/// The survival map of the article's storm (its three series): cells computed one by one on an
/// 8×4 grid against the shared storms on the same grid, and the default 24×16 grid.
fn survival_maps(c: &mut Criterion) {
    let small = Axes::new((10.0, 86_400.0), (1.05, 20.0), (8, 4)).unwrap();
    let default = Axes::new((10.0, 86_400.0), (1.05, 20.0), (24, 16)).unwrap();
    let map = |axes: &Axes| survival_map(&Spec::article_fixed(), axes, Engine::Fluid).unwrap();
    let mut group = c.benchmark_group("survival_map");
    group.sample_size(10);
    group.bench_function("baseline_cells_one_by_one_8x4", |b| {
        b.iter(|| black_box(cells_one_by_one(&small)))
    });
    group.bench_function("shared_storms_8x4", |b| b.iter(|| black_box(map(&small))));
    group.bench_function("shared_storms_24x16", |b| {
        b.iter(|| black_box(map(&default)))
    });
    group.finish();
}

criterion_group!(
    benches,
    storm_events_per_second,
    sampling,
    exact,
    herds,
    schedule,
    staleness,
    storms,
    survival_maps
);
criterion_main!(benches);
