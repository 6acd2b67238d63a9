//! The map's cells on the fluid engine, computed from shared storms: every cell of a series
//! is the same storm until its outage ends, so one storm runs through the longest outage and
//! each cell branches off a copy of it where its own outage ends (see the module's rules).

use crate::storm::{fluid_unrepresentable, FluidStorm, Scenario, Shortcuts, Spec};
use crate::Error;

use super::{cell_spec, classify, window_end_s, Axes, Cell};

/// One cell's storm, where it sits in the series' rows, and where its outage ends.
struct Branch {
    headroom: usize,
    outage: usize,
    storm: Spec,
    scenario: Scenario,
}

impl Branch {
    fn outage_end(&self) -> u32 {
        self.storm.outage.0 + self.storm.outage.1
    }
}

/// The cells of `spec`'s series (one row per headroom of `axes`, one cell per outage), each
/// exactly the cell [`super::cell`] computes on the fluid engine, and the same first error.
pub(super) fn series_cells(spec: &Spec, axes: &Axes) -> Result<Vec<Vec<Cell>>, Error> {
    // Every cell's storm, refused in the order the cells would be computed one by one.
    let mut branches = Vec::with_capacity(axes.headroom.len() * axes.outages_s.len());
    for (headroom, &ratio) in axes.headroom.iter().enumerate() {
        for (outage, &length) in axes.outages_s.iter().enumerate() {
            let storm = cell_spec(spec, length, ratio);
            let scenario = Scenario::new(storm)?;
            if let Some(why) = fluid_unrepresentable(&scenario, scenario.units()) {
                return Err(why.into());
            }
            branches.push(Branch {
                headroom,
                outage,
                storm,
                scenario,
            });
        }
    }
    let mut rows = vec![Vec::with_capacity(axes.outages_s.len()); axes.headroom.len()];
    let placeholder = Cell {
        outcome: super::Outcome::Slow,
        recovery_s: None,
        exhausted_share: 0.0,
        peak_multiple: None,
        goodput_share: 0.0,
    };
    for row in &mut rows {
        row.resize(axes.outages_s.len(), placeholder);
    }
    // Before the outage ends the destination's capacity is never looked at, so when the outage
    // starts at second 0 the whole series shares one storm; otherwise each headroom has its own
    // (the seconds before the outage depend on the capacity).
    let groups: Vec<Vec<&Branch>> = if spec.outage.0 == 0 {
        vec![branches.iter().collect()]
    } else {
        (0..axes.headroom.len())
            .map(|h| branches.iter().filter(|b| b.headroom == h).collect())
            .collect()
    };
    for mut group in groups {
        group.sort_by_key(|branch| branch.outage_end());
        let Some(longest) = group.last() else {
            continue;
        };
        let trunk_until = window_end_s(&longest.storm);
        let mut trunk = FluidStorm::start(&longest.scenario, false, Shortcuts::ALL)?;
        for branch in group {
            // Stop before the first block that reaches the cell's outage's end: everything
            // simulated so far is the same in the cell's own storm.
            trunk.run_before(branch.outage_end(), trunk_until);
            let mut own = trunk.branch(&branch.scenario);
            own.run_until(window_end_s(&branch.storm));
            let (report, _) = own.finish();
            rows[branch.headroom][branch.outage] = classify(&branch.storm, &report);
        }
    }
    Ok(rows)
}
