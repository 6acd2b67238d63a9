//! The map's cells on the fluid engine, computed from shared storms: every cell of a series
//! is the same storm until its outage ends, so one storm runs through the longest outage and
//! each cell branches off a copy of it where its own outage ends (see the module's rules).

use crate::storm::{
    fluid_history_cells, fluid_unrepresentable_sharing, FluidStorm, Scenario, Shortcuts, Spare,
    Spec, Unrepresentable,
};
use crate::Error;

use super::{cell_spec, classify, window_end_s, Axes, Cell};

/// One cell's storm, where it sits in the rows asked for, and where its outage ends.
struct Branch {
    row: usize,
    outage: usize,
    storm: Spec,
    scenario: Scenario,
}

impl Branch {
    fn outage_end(&self) -> u32 {
        self.storm.outage.0 + self.storm.outage.1
    }
}

/// The fluid engine's check of a series' histories (`storm::fluid_history_cells`), which its
/// cells share: they differ from one another in outage and capacity only, and the histories
/// depend on the policy, the jitter, the timeout and the Retry-After. `None` until a cell has
/// checked it. (Checked once a cell, it was most of a map's check: 3 ms for the page's default
/// map, 15 ms for one of 400 attempts, on every render.)
pub(super) type SharedHistory = Option<Result<usize, Unrepresentable>>;

/// The storm of the cell of `spec` with an outage of `length` seconds at headroom `ratio`, and
/// its scenario: refused where it is no scenario or the fluid engine cannot represent it.
/// `history` is the series' (the first cell checked fills it).
pub(super) fn cell_scenario(
    spec: &Spec,
    length: f64,
    ratio: f64,
    history: &mut SharedHistory,
) -> Result<(Spec, Scenario), Error> {
    let storm = cell_spec(spec, length, ratio);
    let scenario = Scenario::new(storm)?;
    let units = scenario.units();
    let history = history.get_or_insert_with(|| fluid_history_cells(&scenario, units));
    // Shared only between cells of one series, whose histories are the same.
    debug_assert_eq!(*history, fluid_history_cells(&scenario, units));
    match fluid_unrepresentable_sharing(&scenario, units, history) {
        Some(why) => Err(why.into()),
        None => Ok((storm, scenario)),
    }
}

/// The rows of `spec`'s series at the headroom indices `headrooms` (in range) of `axes` (one row
/// per index, one cell per outage), each cell exactly the cell [`super::cell`] computes on the
/// fluid engine, and the same first error.
pub(super) fn rows(spec: &Spec, axes: &Axes, headrooms: &[usize]) -> Result<Vec<Vec<Cell>>, Error> {
    // Every cell's storm, refused in the order the cells would be computed one by one.
    let mut history = None;
    let mut branches = Vec::with_capacity(headrooms.len() * axes.outages_s.len());
    for (row, &headroom) in headrooms.iter().enumerate() {
        let ratio = axes.headroom[headroom];
        for (outage, &length) in axes.outages_s.iter().enumerate() {
            let (storm, scenario) = cell_scenario(spec, length, ratio, &mut history)?;
            branches.push(Branch {
                row,
                outage,
                storm,
                scenario,
            });
        }
    }
    let mut cells: Vec<Vec<Option<Cell>>> = vec![vec![None; axes.outages_s.len()]; headrooms.len()];
    // Before the outage ends the destination's capacity is never looked at, so when the outage
    // starts at second 0 the rows share one storm; otherwise each row has its own (the seconds
    // before the outage depend on the capacity).
    let groups: Vec<Vec<&Branch>> = if spec.outage.0 == 0 {
        vec![branches.iter().collect()]
    } else {
        (0..headrooms.len())
            .map(|row| branches.iter().filter(|b| b.row == row).collect())
            .collect()
    };
    for mut group in groups {
        group.sort_by_key(|branch| branch.outage_end());
        let Some(longest) = group.last() else {
            continue;
        };
        let trunk_until = window_end_s(&longest.storm);
        let mut trunk = FluidStorm::start(&longest.scenario, false, Shortcuts::ALL)?;
        let mut spare = Spare::default();
        for branch in group {
            // Stop before the first block that reaches the cell's outage's end: everything
            // simulated so far is the same in the cell's own storm.
            trunk.run_before(branch.outage_end(), trunk_until);
            let mut own = trunk.branch(&branch.scenario, spare);
            own.run_until(window_end_s(&branch.storm));
            let report;
            (report, spare) = own.finish_sparing();
            cells[branch.row][branch.outage] = Some(classify(&branch.storm, &report));
        }
    }
    // Every branch filled its cell.
    Ok(cells
        .into_iter()
        .map(|row| row.into_iter().flatten().collect())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jitter::{seeded_rng, uniform, Factor, Jitter, SeededRng};
    use crate::storm::Bounds;
    use crate::survival::{direct_cells, series_specs};
    use crate::{Engine, Policy, Stop};

    fn every_headroom(axes: &Axes) -> Vec<usize> {
        (0..axes.headroom.len()).collect()
    }

    fn pick<T: Copy>(rng: &mut SeededRng, items: &[T]) -> T {
        items[(uniform(rng, 0.0, items.len() as f64) as usize).min(items.len() - 1)]
    }

    /// A scenario for a map: every policy kind and jitter mode the fluid engine takes, every
    /// bound, outages from second 0 (one storm per series) or later (one per headroom), short
    /// timeouts (blocks of a second or two, so that a branch one second late shows).
    fn random_spec(rng: &mut SeededRng) -> Spec {
        let attempts = Stop::Attempts(pick(rng, &[2, 4, 8, 16]));
        let policy = match pick(rng, &[0, 1, 2]) {
            0 => Policy::fixed(pick(rng, &[10.0, 30.0]), attempts),
            1 => Policy::new(
                pick(rng, &[5.0, 30.0]),
                2.0,
                pick(rng, &[300.0, 1_800.0]),
                attempts,
            ),
            _ => Policy::explicit(&[5.0, 60.0, 600.0], Some(1_200.0), Some(attempts)),
        }
        .unwrap();
        let mut bounds = Bounds::default();
        let arrivals = uniform(rng, 25.0, 60.0);
        match pick(rng, &[0, 1, 2, 3, 4]) {
            0 => bounds.budget = Some(0.1),
            1 => bounds.rate_limit_per_s = Some(arrivals * 2.0),
            2 => bounds.pause = true,
            3 => bounds.retry_after_s = Some(60.0),
            _ => {}
        }
        Spec {
            arrivals_per_s: arrivals,
            timeout_s: pick(rng, &[1.0, 2.0, 5.0]),
            outage: (pick(rng, &[0, 0, 130]), 600),
            policy,
            jitter: pick(
                rng,
                &[
                    Jitter::None,
                    Jitter::Full,
                    Jitter::Equal,
                    Jitter::Proportional(Factor::GRPC),
                ],
            ),
            bounds,
            abandon: pick(rng, &[false, true]),
            ..Spec::article_fixed()
        }
    }

    /// The shared storms give every cell exactly (every field, to the last bit) as computing it
    /// on its own does, and refuse a map with the same error.
    #[test]
    fn branched_cells_are_exactly_the_cells_computed_one_by_one() {
        let axes = Axes::new((20.0, 3_000.0), (1.1, 5.0), (9, 3)).unwrap();
        let mut rng = seeded_rng(2_024).unwrap();
        let mut cells = 0;
        for _ in 0..8 {
            let yours = random_spec(&mut rng);
            for (label, spec) in series_specs(&yours).unwrap() {
                let direct = direct_cells(&spec, &axes, &every_headroom(&axes), Engine::Fluid);
                let branched = rows(&spec, &axes, &every_headroom(&axes));
                match (&direct, &branched) {
                    (Ok(direct), Ok(branched)) => {
                        assert_eq!(direct, branched, "{label}: {spec:?}");
                        // A row on its own (the page's workers compute rows one by one).
                        let alone = rows(&spec, &axes, &[1]).unwrap();
                        assert_eq!(alone[0], direct[1], "{label}, row 1 alone: {spec:?}");
                        cells += direct.len() * direct[0].len();
                    }
                    _ => assert_eq!(
                        direct.clone().err().map(|e| e.to_string()),
                        branched.clone().err().map(|e| e.to_string()),
                        "{label}: {spec:?}"
                    ),
                }
            }
        }
        assert!(cells >= 300, "only {cells} cells compared");
    }

    /// A map the fluid engine refuses for some of its cells is refused with the first cell's
    /// reason, as when the cells are computed one by one.
    #[test]
    fn a_map_with_an_unrepresentable_cell_fails_as_the_direct_cells_fail() {
        let axes = Axes::new((20.0, 3_000.0), (1.1, 5.0), (4, 3)).unwrap();
        let spec = Spec {
            timeout_s: 1.0,
            ..Spec::article_fixed()
        };
        let direct = direct_cells(&spec, &axes, &every_headroom(&axes), Engine::Fluid).unwrap_err();
        let branched = rows(&spec, &axes, &every_headroom(&axes)).unwrap_err();
        assert_eq!(branched.to_string(), direct.to_string());
        assert!(
            branched.to_string().contains("within its limits"),
            "{branched}"
        );
    }
}
