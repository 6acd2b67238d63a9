//! The most attempts a fluid map's cells take. The fluid engine keeps one history per attempt
//! class and works through every class each second, so a schedule of thousands of attempts is
//! refused by every cell alike: the refusal names `attempts` with the most the map takes, where
//! "fewer steps" (the map's work limit) or "the discrete engine" (the cell's) would send the
//! reader from one refusal to the next.

use super::{cell_spec, Axes};
use crate::storm::{most_attempts_of, Scenario, Spec};
use crate::Error;

/// Refuses, as `attempts`, a map of `series` over `axes` on the fluid engine whose cells the
/// engine cannot hold for their number of attempts (its history cells or its class-seconds,
/// both growing with the attempts), with the most attempts every series' cells take. The cell
/// of the longest outage decides: its traffic, and so its storm, lasts longest. The headroom
/// changes neither limit, but a destination too slow for the engine is refused before them
/// (it "needs capacity"), so the cell of the most headroom is asked: at the least, a map whose
/// lowest row is too slow was told to change its headroom, then its attempts. A series that
/// stops at a deadline (its attempts follow from it) is left to the cells' own refusal.
pub(super) fn check_attempts(series: &[(String, Spec)], axes: &Axes) -> Result<(), Error> {
    let longest = axes.outages_s.iter().copied().fold(0.0, f64::max);
    let headroom = axes.headroom.iter().copied().fold(0.0, f64::max);
    for (_, spec) in series {
        let Ok(cell) = Scenario::new(cell_spec(spec, longest, headroom)) else {
            continue;
        };
        let Some((passes, why)) = most_attempts_of(&cell) else {
            continue;
        };
        // What the cells would be at one attempt more, its count said once ("and with 14
        // attempts its cells are for 14 attempts with waits up to 184 days": outside review).
        let given = why.given.strip_prefix("for ").unwrap_or(&why.given);
        return Err(Error::out_of_range(
            "attempts",
            spec.policy.attempts(),
            format!(
                "at most {passes} for a survival map on the fluid engine: {}, which its cells \
                 pass at one attempt more ({given})",
                why.reason,
            ),
        ));
    }
    Ok(())
}
