//! The most attempts a fluid map's cells take. The fluid engine keeps one history per attempt
//! class and works through every class each second, so a schedule of thousands of attempts is
//! refused by every cell alike: the refusal names `attempts` with the most the map takes, where
//! "fewer steps" (the map's work limit) or "the discrete engine" (the cell's) would send the
//! reader from one refusal to the next.

use super::{cell_spec, Axes};
use crate::storm::{fluid_unrepresentable, Scenario, Spec};
use crate::{Error, Stop};

/// Refuses, as `attempts`, a map of `series` over `axes` on the fluid engine whose cells the
/// engine cannot hold for their number of attempts (its history cells or its class-seconds,
/// both growing with the attempts), with the most attempts every series' cells take. The cell
/// of the longest outage decides: its traffic, and so its storm, lasts longest, and the
/// headroom changes neither limit. A series that stops at a deadline (its attempts follow from
/// it) is left to the cells' own refusal.
pub(super) fn check_attempts(series: &[(String, Spec)], axes: &Axes) -> Result<(), Error> {
    let longest = axes.outages_s.iter().copied().fold(0.0, f64::max);
    let headroom = axes.headroom[0];
    for (_, spec) in series {
        let Stop::Attempts(attempts) = spec.policy.stop() else {
            continue;
        };
        let refusal = |attempts: u32| {
            let policy = spec.policy.with_stop(Stop::Attempts(attempts)).ok()?;
            let cell = cell_spec(&Spec { policy, ..*spec }, longest, headroom);
            let scenario = Scenario::new(cell).ok()?;
            fluid_unrepresentable(&scenario, scenario.units()).filter(|why| why.by_attempts)
        };
        let Some(mut why) = refusal(attempts) else {
            continue;
        };
        // The refusals grow with the attempts (more classes, a longer storm): the most that
        // passes is found by bisection, a single attempt always passing. The refusal quoted is
        // one attempt more's: the limit that decides the most is not always the one the given
        // attempts meet first.
        let (mut passes, mut fails) = (1, attempts);
        while fails - passes > 1 {
            let mid = passes + (fails - passes) / 2;
            if let Some(refused) = refusal(mid) {
                (fails, why) = (mid, refused);
            } else {
                passes = mid;
            }
        }
        return Err(Error::out_of_range(
            "attempts",
            attempts,
            format!(
                "at most {passes} for a survival map on the fluid engine: {}, and with {fails} \
                 attempts its cells are {}",
                why.reason, why.given,
            ),
        ));
    }
    Ok(())
}
