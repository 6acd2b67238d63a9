//! The discrete engine keeps what is in flight, not history: its peak memory is measured here by
//! a counting allocator, against the attempts it simulates.
#![cfg(not(target_arch = "wasm32"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use backoff_lab::storm::{simulate_discrete, Scenario, Spec};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The peak bytes allocated while `scenario` runs, and the attempts it simulated.
fn peak_while(scenario: &Scenario) -> (usize, f64) {
    let before = CURRENT.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let report = simulate_discrete(scenario, false).unwrap();
    let attempts = report.summary.attempts;
    drop(report);
    (PEAK.load(Ordering::Relaxed) - before, attempts)
}

// One test only: the counters are global, and tests in one binary run in parallel.
#[test]
fn memory_follows_the_deliveries_in_flight_not_the_attempts_made() {
    // The article's storm: 72,000 deliveries, every one retrying every 30 s for 2 h.
    let article = Scenario::article_fixed();
    let (peak, attempts) = peak_while(&article);
    assert!(attempts > 17e6, "{attempts}");
    // 16 bytes a delivery in flight, a few buffers of that size, and the per-minute report:
    // well under a byte per attempt (the engine once kept about 5.6).
    assert!(peak < 8 << 20, "{peak} bytes for {attempts} attempts");

    // Four times the traffic, for twice as long, through the same outage: four times the
    // deliveries in flight at the worst moment, so about four times the memory.
    let longer = Scenario::new(Spec {
        traffic_s: 4 * 3_600,
        arrivals_per_s: 20.0,
        ..*article.spec()
    })
    .unwrap();
    let (longer_peak, longer_attempts) = peak_while(&longer);
    assert!(longer_attempts > 3.5 * attempts, "{longer_attempts}");
    assert!(
        (longer_peak as f64) < 16.0 * 10.0 * 4.0 * 72_000.0,
        "{longer_peak} bytes"
    );
    assert!(
        (longer_peak as f64) / longer_attempts < 1.0,
        "{longer_peak} bytes for {longer_attempts} attempts"
    );
}
