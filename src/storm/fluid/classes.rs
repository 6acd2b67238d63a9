//! The attempt classes: how each class's predecessor's failures come due in it, where its
//! history of them is, and why the engine refuses a scenario it cannot represent.

use super::kernel::{Kernel, Mass, RejectedKernel, Ring};
use super::{MAX_BLOCK, MAX_CELLS, MAX_CLASS_SECONDS, MIN_REQUESTS_WITHIN_LIMITS};
use crate::storm::scenario::{micro, Units};
use crate::storm::Scenario;
use crate::Error;

/// One attempt class (deliveries whose next attempt is this class's): how its predecessor's
/// failures come due in it, and where its history of them is.
#[derive(Debug, Clone, Copy)]
pub(super) struct Class {
    pub timeout: Kernel,
    pub rejected: RejectedKernel,
    pub ring: Ring,
    /// The running sums over the kernels' runs of equal weights.
    pub timeout_run: Mass,
    pub rejected_run: Mass,
}

/// Why the fluid engine does not take a scenario: what it was given, and why it cannot.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Unrepresentable {
    pub given: String,
    pub reason: &'static str,
    /// Whether fewer attempts would make it representable: the histories' cells and the work
    /// grow with the attempt classes (a survival map names `attempts` for them).
    pub by_attempts: bool,
}

impl Unrepresentable {
    /// The refusal of a schedule too long for the fluid engine as `attempts`: at most `most`
    /// "for this storm on {engines}: {reason}; or {or}".
    pub(crate) fn attempts_error(&self, most: u32, engines: &str, or: &str, got: String) -> Error {
        Error::out_of_range(
            "attempts",
            got,
            format!(
                "at most {most} for this storm on {engines}: {}; or {or}",
                self.reason
            ),
        )
    }
}

impl From<Unrepresentable> for Error {
    fn from(why: Unrepresentable) -> Error {
        Error::out_of_range(
            "engine",
            format!("fluid {}", why.given),
            format!("discrete here: {}", why.reason),
        )
    }
}

/// Every attempt class with its kernels and its place in the histories, and how many cells the
/// histories take. Refuses decorrelated jitter, more than [`MAX_CLASS_SECONDS`] of work and
/// more than [`MAX_CELLS`] cells, in that order, before allocating.
pub(super) fn attempt_classes(
    scenario: &Scenario,
    units: &Units,
) -> Result<(Vec<Class>, usize), Unrepresentable> {
    let count = checked_count(scenario, units)?;
    let mut classes = Vec::with_capacity(count);
    classes.push(first_class());
    let cells = each_class(scenario, units, |class| classes.push(class))?;
    Ok((classes, cells))
}

/// Why the fluid engine refuses `scenario`, as [`attempt_classes`] would, without building the
/// classes. `history` is [`history_cells`] of the scenario when known already: it depends only
/// on the policy, the jitter, the timeout and the Retry-After, which a survival map's cells
/// share (they differ in outage and capacity), so a map checks it once a series, not once a
/// cell.
pub(crate) fn refusal(
    scenario: &Scenario,
    units: &Units,
    history: Option<&Result<usize, Unrepresentable>>,
) -> Option<Unrepresentable> {
    if let Err(why) = checked_count(scenario, units) {
        return Some(why);
    }
    match history {
        Some(known) => known.as_ref().err().cloned(),
        None => history_cells(scenario, units).err(),
    }
}

/// Class 0, first attempts, which has no predecessor (and what a class has before its own).
fn first_class() -> Class {
    Class {
        timeout: Kernel::point(1),
        rejected: RejectedKernel::point(1),
        ring: Ring::new(0, 2),
        timeout_run: Mass::ZERO,
        rejected_run: Mass::ZERO,
    }
}

/// The number of attempt classes: refused for decorrelated jitter (as itself, before any limit:
/// no size makes it representable), then by [`within_limits`].
fn checked_count(scenario: &Scenario, units: &Units) -> Result<usize, Unrepresentable> {
    if scenario.policy.attempts() > 1 && scenario.window(1).is_none() {
        return Err(decorrelated());
    }
    within_limits(scenario, units)
}

/// How many cells the classes' histories take, refused past [`MAX_CELLS`] (decorrelated jitter
/// is refused by [`checked_count`] first).
pub(crate) fn history_cells(scenario: &Scenario, units: &Units) -> Result<usize, Unrepresentable> {
    each_class(scenario, units, |_| ())
}

/// Hands `keep` every attempt class after the first, in order, its ring placed after the
/// last's; how many cells the histories take, refused past [`MAX_CELLS`] before the class
/// that passes it is handed over.
fn each_class(
    scenario: &Scenario,
    units: &Units,
    mut keep: impl FnMut(Class),
) -> Result<usize, Unrepresentable> {
    let count = scenario.policy.attempts() as usize;
    let mut cells = 0usize;
    for k in 1..count {
        let class = class(scenario, units, k, cells)?;
        cells = cells.saturating_add(class.ring.len);
        if cells > MAX_CELLS {
            let reach = class.ring.len - MAX_BLOCK - 1;
            return Err(Unrepresentable {
                given: format!("for {count} attempts with waits up to {}", crate::format_duration(reach as f64)),
                reason: "the fluid engine keeps at most 12,000,000 history cells (attempts × longest wait in seconds)",
                by_attempts: true,
            });
        }
        keep(class);
    }
    Ok(cells)
}

/// Attempt class `k` (1 or more), its history's ring starting at cell `start`.
fn class(
    scenario: &Scenario,
    units: &Units,
    k: usize,
    start: usize,
) -> Result<Class, Unrepresentable> {
    let (lo, hi) = scenario.window(k as u32).ok_or_else(decorrelated)?;
    let timeout = units.timeout_us as f64 / 1e6;
    // A window narrower than a microsecond is a point: exactly the discrete engine's due
    // second, from the same whole microseconds.
    let point = micro(hi) <= micro(lo);
    let mut class = first_class();
    class.timeout = if point {
        Kernel::point(units.due_after(micro(lo), false) as usize)
    } else {
        Kernel::uniform(timeout + lo, timeout + hi)
    };
    if let Some(after_us) = units.retry_after_us {
        class.rejected = rejected_kernel(units, (lo, hi), after_us, point);
    }
    // Room for the kernels' reach and a whole block ahead of it.
    let reach = class
        .timeout
        .reach()
        .max(if units.retry_after_us.is_some() {
            class.rejected.reach()
        } else {
            0
        });
    class.ring = Ring::new(start, reach + MAX_BLOCK + 1);
    Ok(class)
}

/// The most attempts, up to `attempts`, that `refusal` lets pass, where it refuses `attempts`:
/// with the refusal of one attempt more, which is quoted (the limit that decides the most is not
/// always the one the given attempts meet first). The refusals grow with the attempts (more
/// classes, a longer storm), so the most is found by bisection; a single attempt always passes.
fn most_attempts(
    attempts: u32,
    refusal: impl Fn(u32) -> Option<Unrepresentable>,
) -> Option<(u32, Unrepresentable)> {
    let mut why = refusal(attempts)?;
    let (mut passes, mut fails) = (1, attempts);
    while fails - passes > 1 {
        let mid = passes + (fails - passes) / 2;
        if let Some(refused) = refusal(mid) {
            (fails, why) = (mid, refused);
        } else {
            passes = mid;
        }
    }
    Some((passes, why))
}

/// The most attempts of `scenario`'s schedule the fluid engine runs, where the engine refuses
/// the scenario for its attempts (its history cells or class-seconds) and the schedule stops
/// after a count of them; with the refusal of one attempt more.
pub(crate) fn most_attempts_of(scenario: &Scenario) -> Option<(u32, Unrepresentable)> {
    let crate::Stop::Attempts(attempts) = scenario.policy.stop() else {
        return None;
    };
    most_attempts(attempts, |fewer| {
        let policy = scenario
            .policy
            .with_stop(crate::Stop::Attempts(fewer))
            .ok()?;
        let fewer = Scenario::new(crate::storm::Spec {
            policy,
            ..*scenario.spec()
        })
        .ok()?;
        refusal(&fewer, fewer.units(), None).filter(|why| why.by_attempts)
    })
}

fn decorrelated() -> Unrepresentable {
    Unrepresentable {
        given: "with decorrelated jitter".into(),
        reason: "the fluid engine needs gaps that depend only on the attempt number, and decorrelated jitter draws each from the one before",
        by_attempts: false,
    }
}

/// The number of attempt classes, unless the destination answers too few requests within its
/// limits ([`MIN_REQUESTS_WITHIN_LIMITS`]) or the work would exceed [`MAX_CLASS_SECONDS`].
fn within_limits(scenario: &Scenario, units: &Units) -> Result<usize, Unrepresentable> {
    let within = requests_within_limits(units, scenario.capacity_per_s);
    if within < MIN_REQUESTS_WITHIN_LIMITS {
        return Err(Unrepresentable {
            // Three significant digits: a tenth wrote 0.0347 as "0.0" (outside review).
            given: format!(
                "for a destination that answers {} requests within its limits in a second",
                crate::number_text::without_trailing_zeros(&crate::number_text::significant(within, 3))
            ),
            reason: "the fluid engine needs capacity × (timeout − latency, or the Retry-After threshold if shorter) of at least 20 requests; below that whole requests decide the outcome",
            by_attempts: false,
        });
    }
    let count = scenario.policy.attempts() as usize;
    let work = f64::from(scenario.horizon_s()) * count as f64;
    if work > MAX_CLASS_SECONDS {
        return Err(Unrepresentable {
            given: format!(
                "for {} class-seconds ({count} attempts × {} simulated)",
                crate::number_text::format_count(work),
                crate::format_duration(f64::from(scenario.horizon_s()))
            ),
            reason:
                "the fluid engine takes at most 500,000,000 class-seconds (attempts × seconds simulated)",
            by_attempts: true,
        });
    }
    Ok(count)
}

/// The requests a destination of `capacity_per_s` answers within its limits in a second:
/// capacity × the timeout less the latency, or × the Retry-After threshold when that is shorter
/// (a wait over it is answered 429). The fluid engine needs [`MIN_REQUESTS_WITHIN_LIMITS`].
pub(crate) fn requests_within_limits(units: &Units, capacity_per_s: f64) -> f64 {
    let within_us = (units.timeout_us - units.latency_us).min(match units.retry_after_us {
        Some(_) => units.threshold_us,
        None => u64::MAX,
    });
    within_us as f64 / 1e6 * capacity_per_s
}

/// A 429 answers at once and its Retry-After is a floor on the gap: the share of the window
/// below it waits exactly Retry-After, the rest its drawn gap.
fn rejected_kernel(
    units: &Units,
    (lo, hi): (f64, f64),
    after_us: u64,
    point: bool,
) -> RejectedKernel {
    let after = after_us as f64 / 1e6;
    if point || hi <= after {
        return RejectedKernel::point(units.due_after(micro(lo), true) as usize);
    }
    let below = ((after - lo) / (hi - lo)).clamp(0.0, 1.0);
    RejectedKernel {
        spread: Kernel::uniform(after.max(lo), hi).scaled(1.0 - below),
        floor: units.due_after(after_us, true) as usize,
        floor_weight: below,
    }
}

// proptest is a native dev-dependency only.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::jitter::{Factor, Jitter};
    use crate::storm::Spec;
    use crate::{Policy, Stop};
    use proptest::prelude::*;

    /// A day's cap over 200 attempts takes more history cells than the engine keeps: the cells
    /// decide for a cell with room, and the capacity, checked first, for one without.
    #[test]
    fn the_cells_limit_decides_after_the_capacity_with_the_history_shared() {
        let policy = Policy::new(60.0, 2.0, 86_400.0, Stop::Attempts(200)).unwrap();
        let cell = |capacity_per_s| {
            Scenario::new(Spec {
                policy,
                capacity_per_s,
                timeout_s: 10.0,
                latency_s: 0.0,
                ..Spec::article_fixed()
            })
            .unwrap()
        };
        // 0.5 a second for 10 s: 5 requests within the limits, under the 20 the engine needs.
        let (roomy, starved) = (cell(30.0), cell(0.5));
        let shared = history_cells(&roomy, roomy.units());
        let reason = |why: Option<Unrepresentable>| why.map(|why| why.reason).unwrap_or_default();
        assert!(reason(shared.clone().err()).contains("12,000,000 history cells"));
        for scenario in [&roomy, &starved] {
            let built = attempt_classes(scenario, scenario.units()).err();
            assert_eq!(refusal(scenario, scenario.units(), Some(&shared)), built);
        }
        let starved_why = refusal(&starved, starved.units(), Some(&shared));
        assert!(reason(starved_why).contains("needs capacity"));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// A survival map's cells check their histories once a series: the refusal with the
        /// series' history shared is the refusal of building the cell's classes, whichever
        /// limit decides it (decorrelated jitter, the capacity, the work or the cells).
        #[test]
        fn a_refusal_with_a_shared_history_is_the_refusal_of_building_the_classes(
            base in 0.1f64..600.0,
            multiplier in 1.0f64..4.0,
            cap_over_base in 1.0f64..200_000.0,
            attempts in prop_oneof![1u32..20, 20u32..=3_000],
            jitter in 0usize..5,
            factor in 0.05f64..1.0,
            timeout in 0.1f64..120.0,
            retry_after in prop::option::of(0.0f64..3_600.0),
            arrivals in 0.01f64..100.0,
            capacities in (0.001f64..50.0, 0.001f64..50.0),
            outages in (1u32..86_400, 1u32..86_400),
        ) {
            let Ok(policy) = Policy::new(base, multiplier, base * cap_over_base, Stop::Attempts(attempts))
            else {
                // Past the cap's 365 days.
                return Ok(());
            };
            let jitter = [Jitter::None, Jitter::Full, Jitter::Equal,
                Jitter::Proportional(Factor::new(factor).unwrap()), Jitter::Decorrelated][jitter];
            let cell = |capacity_ratio: f64, outage: u32| {
                let mut spec = Spec {
                    policy,
                    jitter,
                    timeout_s: timeout,
                    latency_s: 0.0,
                    arrivals_per_s: arrivals,
                    capacity_per_s: arrivals * capacity_ratio,
                    outage: (0, outage),
                    traffic_s: outage + 3_600,
                    ..Spec::article_fixed()
                };
                spec.bounds.retry_after_s = retry_after;
                Scenario::new(spec).ok()
            };
            let (Some(first), Some(other)) = (cell(capacities.0, outages.0), cell(capacities.1, outages.1)) else {
                return Ok(());
            };
            let shared = history_cells(&first, first.units());
            for scenario in [&first, &other] {
                let built = attempt_classes(scenario, scenario.units());
                prop_assert_eq!(refusal(scenario, scenario.units(), None), built.clone().err());
                prop_assert_eq!(refusal(scenario, scenario.units(), Some(&shared)), built.clone().err());
                if let Ok((classes, cells)) = built {
                    prop_assert_eq!(classes.len(), attempts as usize);
                    prop_assert_eq!(Ok(cells), history_cells(scenario, scenario.units()));
                }
            }
        }
    }
}
