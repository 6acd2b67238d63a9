//! ---------------------------------------------------------------------------------------------

use crate::prelude::*;

// ---------------------------------------------------------------------------------------------

/// `viewSvg("distribution", ..., width 100)` and `backoff-lab figure distribution --width 100`:
/// `f64::clamp(2 s, width - w - 2 s)` with a label wider than the plot panics.
#[test]
pub(crate) fn distribution_chart_narrower_than_about_150_px_draws() {
    let mut settings = Settings::default();
    settings.set("samples", "20000");
    let computed = page::compute(View::Distribution, &settings, &mut Memo::default()).unwrap();
    for size in [(100, 100), (100, 400), (200, 100)] {
        let options = ChartOptions {
            scale: if size.0 == 200 { 4.0 } else { 1.0 },
            ..ChartOptions::default()
        };
        let drawn = std::panic::catch_unwind(|| {
            chart::to_svg(size, |area| {
                page::draw(area, View::Distribution, &settings, &computed, &options)
                    .map(|_| ())
                    .map_err(|e| Error::Unreachable(e.message))
            })
        });
        assert!(
            drawn.is_ok(),
            "{size:?} at scale {}: panicked",
            options.scale
        );
    }
}

/// Found by fuzzing: a decoded hash's notice showed the value cut to 40 characters, then the
/// reason repeated it whole (a 4,000-character value made a notice of 4,000+ characters).
#[test]
pub(crate) fn a_notice_shows_a_long_value_cut() {
    for hash in [
        format!("base={}", "9".repeat(4_000)),
        format!("base={}", "x".repeat(1_000)),
        format!("arrivals={}", "x".repeat(1_000)),
    ] {
        let state = page::decode_hash(&hash);
        let longest = state
            .notices
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap();
        assert!(
            longest < 400,
            "{}…: a notice of {longest} characters",
            &hash[..20]
        );
    }
}

/// `drawView` with a `computed` from JavaScript holding a number no computation makes (1e300
/// as a percentile or the expected give-up time, -1e300 as a herd's mean or a storm minute's
/// backlog): plotters' axis arithmetic overflows (a panic where overflow checks are on, as in
/// the test profile; in a release or wasm build it wraps instead).
#[test]
pub(crate) fn drawing_a_computed_result_with_a_huge_number_is_refused() {
    let settings = Settings::default();
    for (view, pointer, number) in [
        (View::Distribution, "/report/expected_give_up_s", 1e300),
        (View::Distribution, "/report/percentiles/p50", 1e300),
        (View::Herd, "/spread/first_retry/mean_per_s", -1e300),
    ] {
        let computed = page::compute(view, &settings, &mut Memo::default()).unwrap();
        let mut value = serde_json::to_value(&computed).unwrap();
        *value.pointer_mut(pointer).unwrap() = serde_json::json!(number);
        let computed: Computed = serde_json::from_value(value).unwrap();
        let drawn = std::panic::catch_unwind(|| {
            chart::to_svg((800, 400), |area| {
                page::draw(area, view, &settings, &computed, &ChartOptions::default())
                    .map(|_| ())
                    .map_err(|e| Error::Unreachable(e.message))
            })
        });
        let refused = drawn
            .unwrap_or_else(|_| panic!("{pointer} = {number}: panicked"))
            .expect_err("refused");
        assert!(
            refused.to_string().ends_with(&format!(
                "got {number:e} at {}",
                pointer[1..].replace('/', ".")
            )),
            "{refused}"
        );
    }
}

/// An outage of 0.1 µs under full jitter: every event is delivered, yet the shares came out as
/// 1.0000000000001181 delivered and -1.18e-13 exhausted (`(mass - delivered) / mass` rounded).
/// (Found by fuzzing, fixed in bef2aac: kept as a regression test.) Outages under 1 µs are
/// refused since; the shortest accepted keeps its shares within 0 to 1.
#[test]
pub(crate) fn staleness_shares_leave_0_to_1_by_rounding() {
    use backoff_lab::{Policy, Stop};
    let policy = Policy::new(30.0, 1.0, 3.0 * 3_600.0, Stop::Attempts(2)).unwrap();
    let question = Question::new(&policy, backoff_lab::jitter::Jitter::Full, 0).unwrap();
    let all = question.outage(1e-6).unwrap().all_events;
    assert!(
        (0.0..=1.0).contains(&all.exhausted_share) && (0.0..=1.0).contains(&all.delivered_share),
        "{all:?}"
    );
    assert_eq!(
        question.outage(1e-7).unwrap_err().to_string(),
        "outage must be a duration from 1 µs to 365 days, got 0.0001 ms"
    );
}

/// Found by fuzzing: staleness under jitter had no work limit (a 10,000-attempt ladder took
/// 12 s natively with 20,000 samples, 62 s with 100,000; the page's staleness view as long).
/// Now a power per gap per draw is gone (the gaps' windows are computed once) and the draws
/// count against the limits like the others' (see `limits::delivery_cost`): the largest
/// requests are refused, naming `samples`, before any work.
#[test]
pub(crate) fn staleness_under_jitter_is_refused_past_the_draw_limit() {
    use backoff_lab::limits::{delivery_cost, Draws, MAX_DRAWS};
    use backoff_lab::{Policy, Stop};
    let policy = Policy::new(1.0, 1.0, 1.0, Stop::Attempts(10_000)).unwrap();
    let full = backoff_lab::jitter::Jitter::Full;
    let question = Question::new(&policy, full, 1).unwrap();
    let refused = StalenessReport::ladder(&question.with_samples(100_000).unwrap(), None)
        .expect_err("100,000 schedules of 10,000 attempts")
        .to_string();
    assert!(refused.starts_with("samples must be at most "), "{refused}");
    // The page samples the default 20,000 schedules whatever its settings: its report on the
    // ladder and its chart (at most 361 outages from the first 5,000) fit for any policy.
    let ladder = backoff_lab::staleness::ladder(question.give_up_s()).len();
    for jitter in [full, backoff_lab::jitter::Jitter::Decorrelated] {
        let report = 20_000.0 * delivery_cost(10_000, jitter, Draws::Staleness { outages: ladder });
        let curve = backoff_lab::staleness::CURVE_SAMPLES as f64
            * delivery_cost(10_000, jitter, Draws::Staleness { outages: 361 });
        assert!(
            report <= MAX_DRAWS && curve <= MAX_DRAWS,
            "{jitter:?}: {report} {curve}"
        );
    }
}

/// Found by fuzzing: decorrelated draws cost about five times the others (each gap depends on
/// the last) but were counted alike: 1e6 samples of a 2,001-attempt schedule took 20 s in
/// `backoff-lab jitter`, a herd of 1e6 such deliveries 30 s. Now each kind of draw counts what
/// it costs, and the sample count is checked before the decorrelated estimate draws anything.
#[test]
pub(crate) fn decorrelated_draws_count_what_they_cost() {
    let params = |attempts: f64, samples: f64| Params {
        base: Some(backoff_lab::DurationInput::Seconds(1.0)),
        multiplier: Some(1.0),
        cap: Some(backoff_lab::DurationInput::Seconds(1.0)),
        attempts: Some(attempts),
        mode: Some("decorrelated".into()),
        seed: Some(1.0),
        samples: Some(samples),
        deliveries: Some(samples),
        ..Params::default()
    };
    let jitter = page::jitter_report(&params(2_001.0, 1e6))
        .expect_err("1e6 decorrelated give-up times of 2,001 attempts");
    assert!(
        jitter
            .to_string()
            .starts_with("samples must be at most 200000 for a schedule of 2001 attempts"),
        "{jitter}"
    );
    let herd = page::herds(&params(2_001.0, 1e6)).expect_err("a herd of 1e6 such deliveries");
    assert!(
        herd.to_string()
            .starts_with("deliveries must be at most 41666 for a schedule of 2001 attempts"),
        "{herd}"
    );
    // Full jitter draws five times as many give-up times.
    let full = Params {
        mode: Some("full".into()),
        ..params(2_001.0, 1e6)
    };
    assert!(page::jitter_report(&full).is_ok());
}

/// A herd kept one count per second of its first retry's window, with no limit but the
/// policy's: one delivery with a 300-day base under proportional jitter (factor 1) held 52
/// million bins, which `herd` (the JS API) and `backoff-lab herd --format json` (370 MB of
/// output, 2.4 s) returned whole, and the page's herd view (`#gaps=5M`: five months) copied
/// from its worker (two herds of 13 million bins). (Found by fuzzing, fixed by round bin widths
/// past 100,000 first-retry bins: kept as a regression test.)
#[test]
pub(crate) fn herd_first_retry_bins_grow_with_the_first_gap() {
    use backoff_lab::herd::{MAX_BINS, MAX_FIRST_RETRY_BINS};
    use backoff_lab::{Policy, Stop};
    let policy = Policy::new(300.0 * 86_400.0, 1.0, 300.0 * 86_400.0, Stop::Attempts(2)).unwrap();
    let herd = backoff_lab::herd::herd(
        &policy,
        backoff_lab::jitter::Jitter::proportional(1.0).unwrap(),
        1,
        1,
    )
    .unwrap();
    assert!(
        herd.first_retry_per_second.len() <= MAX_FIRST_RETRY_BINS,
        "{} first-retry bins for one delivery",
        herd.first_retry_per_second.len()
    );
    assert!(herd.per_second.len() <= MAX_BINS);
    assert_eq!(herd.first_retry.bin_s, 600.0, "10 min bins for 600 days");
    let settings = page::resolve(page::decode_hash("#gaps=5month&view=herd")).settings;
    let Computed::Herd { spread, spike } =
        page::compute(View::Herd, &settings, &mut Memo::default()).unwrap()
    else {
        panic!("not a herd")
    };
    for herd in [&spread, &spike] {
        assert!(
            herd.first_retry_per_second.len() <= MAX_FIRST_RETRY_BINS,
            "the page's herd view copies {} first-retry bins",
            herd.first_retry_per_second.len()
        );
        assert!(herd.first_retry.bin_s > 1.0, "five months in wider bins");
    }
    // The caption says that its peak is a wide bin's average, and the spike stays one second.
    let caption = spread.caption(Some(&spike));
    assert!(caption.contains("averaged over the busiest"), "{caption}");
    assert!(
        caption.contains("Without jitter all 1,000 arrive within one second"),
        "{caption}"
    );
}
