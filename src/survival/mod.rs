//! The survival map: which outages a destination survives, at which capacity headroom, under
//! each retry policy — where the metastable cliff is.
//!
//! # The rules
//!
//! A map varies two things of a storm scenario (see [`crate::storm`] for the model): the
//! outage's length `D` (the outage starts where the scenario's does) and the **headroom**, the
//! destination's capacity divided by the arrival rate. Every cell is one storm of that
//! scenario ([`cell_spec`]): capacity = headroom × arrivals, no batch, and steady traffic that
//! lasts through the outage and the **recovery window** of [`RECOVERY_WINDOW_S`] (1 hour) after
//! it, so that the destination recovers under its normal load. With the outage ending at `E`:
//!
//! - **recovers**: the backlog is delivered within the window (the storm's `drained_by` is
//!   `delivery`, and `drained_at_s`, the second at whose end the backlog is drained, is one of
//!   the window's 3,600 seconds: `E` to `E + 3599`); the cell's `recovery_s` is
//!   `drained_at_s + 1 − E` (to that second's end, as a storm's caption counts a drain), at most
//!   3,600;
//! - **collapsed**: otherwise, when goodput in the window (attempts answered within the timeout
//!   per second, over the minutes wholly inside `[E, E + 1 h)`) is below
//!   [`COLLAPSE_GOODPUT_SHARE`] (half) of the arrival rate: the destination is up but its
//!   capacity goes to retries that time out;
//! - **slow**: otherwise (it serves most of its traffic, but its backlog is not delivered
//!   within the window: the retries' gaps are long, or deliveries exhausted on the way).
//!
//! A cell's storm is simulated to the end of its recovery window and no further (nothing after
//! it changes the outcome), so `recovery_s` is known for the cells that recover, and a cell's
//! `exhausted_share` and `peak_multiple` are those of the storm up to the window's end. A test
//! checks that running each storm to its end gives the same outcomes.
//!
//! On the fluid engine the cells share storms, which changes no number: before the shorter of
//! two outages ends, the storms of two cells of a series are the same storm (and, while every
//! second so far was in the outage, the same at every headroom). So each series runs one storm
//! through its longest outage (one per headroom when the outage starts after second 0), and each
//! cell continues a copy of it, taken before the first block of seconds that reaches its own
//! outage's end, as its own storm ([`cell`] stays the direct computation; a test compares them).
//! A row computed on its own ([`Plan::row`], as the page's workers do) shares one storm among
//! its cells the same way.
//!
//! A series' **boundary** at a headroom is the longest outage on the axis before the first
//! collapsed cell (every shorter outage survived); `None` when the shortest outage collapses.
//! The series are your policy, the fixed 30 s comparison (no jitter, giving up at 2 h, your
//! bounds but no budget) and your policy with a 10% retry budget (or, when yours has a budget,
//! without it).
//!
//! **Your scenario's own cell.** Your scenario's outage and headroom rarely fall on the grid,
//! and the grid's nearest cell can have another outcome (the cliff may lie between them). So a
//! map also computes the cell of your policy at exactly your scenario's outage and headroom
//! (the same rules as every cell: traffic through the outage and the recovery window), with
//! your policy's row nearest your headroom ([`Plan::rows_of`]); [`SurvivalMap::scenario`]. The
//! caption states its outcome first, then the boundaries at the grid's row nearest your
//! headroom, saying that the row is the nearest one when its headroom is not yours (equal to a
//! relative 1e-9 is yours: the axis' last value is computed); the chart's
//! mark shows that outcome (its colour and its label), not the outcome of the cell it sits in.
//! It is not computed (`None`, and the caption says why) when your outage ends later than
//! 7 days less the recovery window (no storm can hold its window). Its work counts toward the
//! map's limit, and its refusal (by an engine) refuses the map, as any cell's does. On a fluid
//! map it runs on the `auto` engine: your scenario may be a destination too slow for the fluid
//! engine (fewer than 20 requests within its limits in a second, where whole requests decide),
//! which the grid's headrooms are not, and is then simulated delivery by delivery within the
//! discrete engine's own limits (a map refused for your cell alone had no way out).

mod attempt_limit;
mod axes;
mod branching;
mod classify;
mod fitted;
mod render;

use serde::{Deserialize, Serialize};

use crate::jitter::Jitter;
use crate::number_text::format_count;
use crate::storm::{simulate_until, Scenario, Spec};
use crate::{Engine, Error, Policy};

/// The share past which a cell is "mostly exhausted" (hatched): the storm's own.
pub use crate::storm::MOSTLY_EXHAUSTED_SHARE;
pub use axes::{
    headroom_ends, longest_outage_s, outage_ends, step_counts, Axes, AxesText, DEFAULT_TEXT,
    HEADROOM_RANGE, MAX_CELLS, MAX_STEPS,
};
pub use classify::{cell_spec, classify, drained_within_the_hour, Cell, Outcome};
pub use fitted::{fitted_axes, least_fluid_headroom};

/// How long after the outage the destination has to deliver its backlog to count as
/// recovered, seconds (traffic goes on through it).
pub const RECOVERY_WINDOW_S: u32 = 3_600;
/// Below this share of the arrival rate, goodput in the recovery window means collapse.
pub const COLLAPSE_GOODPUT_SHARE: f64 = 0.5;
/// The budget of the comparison series when your policy has none (the storm chart's too).
pub const COMPARED_BUDGET: f64 = 0.10;

/// One policy's cells and boundary.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "SurvivalSeries"))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Series {
    /// The legend entry.
    pub label: String,
    /// One row per headroom (in the axis' order), one cell per outage in each.
    pub cells: Vec<Vec<Cell>>,
    /// Per headroom, the longest outage survived (see the module's rules); `None` also for a
    /// row not computed yet.
    pub boundary: Vec<Option<f64>>,
}

/// A whole map: its axes, its series, and the scenario's own cell.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SurvivalMap {
    /// The outage lengths, seconds.
    pub outages_s: Vec<f64>,
    /// Capacity ÷ arrival rate.
    pub headroom: Vec<f64>,
    /// The recovery window, seconds.
    pub recovery_window_s: u32,
    /// The scenario's own outage and headroom (marked on the chart).
    pub current: (f64, f64),
    /// Your policy's cell at exactly [`SurvivalMap::current`] (see the module's rules); `None`
    /// until the row that carries it is computed, and when the outage ends too late for a cell.
    pub scenario: Option<Cell>,
    /// One per policy.
    pub series: Vec<Series>,
    /// Rows (series × headroom) not computed yet, left empty: 0 for a whole map.
    pub rows_pending: usize,
    /// The map in words.
    pub caption: String,
}

/// The policies a map compares: yours, the fixed 30 s interval and yours with (or without) a
/// budget, each with its label.
pub fn series_specs(yours: &Spec) -> Result<Vec<(String, Spec)>, Error> {
    let fixed = Spec {
        policy: Policy::article_storm(),
        jitter: Jitter::None,
        bounds: crate::storm::Bounds {
            budget: None,
            ..yours.bounds
        },
        ..*yours
    };
    let other_budget = match yours.bounds.budget {
        None => (
            format!("your policy + {:.0}% budget", COMPARED_BUDGET * 100.0),
            Some(COMPARED_BUDGET),
        ),
        Some(_) => ("your policy without its budget".to_string(), None),
    };
    Ok(vec![
        ("your policy".to_string(), *yours),
        ("fixed 30 s".to_string(), fixed),
        (
            other_budget.0,
            Spec {
                bounds: crate::storm::Bounds {
                    budget: other_budget.1,
                    ..yours.bounds
                },
                ..*yours
            },
        ),
    ])
}

/// One cell: the storm of `spec` with an outage of `outage_s` at `headroom`, simulated to the
/// end of its recovery window and classified.
pub fn cell(spec: &Spec, outage_s: f64, headroom: f64, engine: Engine) -> Result<Cell, Error> {
    run_cell(&cell_spec(spec, outage_s, headroom), engine)
}

/// A cell's storm (as [`cell_spec`] made it) simulated to the end of its recovery window and
/// classified.
fn run_cell(storm: &Spec, engine: Engine) -> Result<Cell, Error> {
    let report = simulate_until(&Scenario::new(*storm)?, engine, false, window_end_s(storm))?;
    Ok(classify(storm, &report))
}

/// The end of a cell's recovery window: its outage's end plus [`RECOVERY_WINDOW_S`].
pub fn window_end_s(storm: &Spec) -> u32 {
    storm.outage.0 + storm.outage.1 + RECOVERY_WINDOW_S
}

/// The longest outage before the first collapsed cell of `row` (outages in `outages_s`).
pub fn boundary(row: &[Cell], outages_s: &[f64]) -> Option<f64> {
    let survived = row
        .iter()
        .take_while(|c| c.outcome != Outcome::Collapsed)
        .count();
    survived.checked_sub(1).map(|i| outages_s[i])
}

/// The most work a map may ask for, counted before it starts: for the fluid engine, seconds
/// simulated × attempt classes at worst, counting the shared storms (one per row through its
/// outage start and longest outage, as when the rows are computed one by one) and each cell's
/// own run (its recovery window and at most one block of 64 s before its
/// outage's end); the default 24×16 map of the article's storm counts 2.0e9 and takes 2.4 to
/// 3.2 s natively.
/// For the discrete engine: deliveries × attempts summed over every cell.
pub const MAX_MAP_WORK: (f64, f64) = (5e9, 2e8);

/// The most seconds a cell's own run starts before its outage's end: one block of the fluid
/// engine.
const BRANCH_LEAD_S: f64 = 64.0;

/// Refuses an outage start at which the map's longest cell, whose traffic lasts from the start
/// through its outage and the recovery window, would last past a storm's 7 days: the start is
/// the user's (it was refused as `--traffic`, a flag `survival` does not take).
fn check_outage_start(yours: &Spec, axes: &Axes) -> Result<(), Error> {
    let longest = axes.outages_s.iter().copied().fold(0.0, f64::max);
    let latest = f64::from(crate::storm::MAX_HORIZON_S) - longest - f64::from(RECOVERY_WINDOW_S);
    if f64::from(yours.outage.0) <= latest {
        return Ok(());
    }
    let (got, most) = crate::format_distinct(f64::from(yours.outage.0), latest.max(0.0));
    Err(Error::out_of_range(
        "outage-start",
        got,
        format!(
            "at most {most} for this map: its longest cell's traffic lasts from the start \
             through its {} outage and the hour after it, and a storm lasts at most 7 days (or \
             map shorter outages)",
            crate::duration::as_adjective(&crate::duration::format_precise(longest))
        ),
    ))
}

/// Refuses an arrival rate at which the map's longest cell (its traffic lasts through the
/// longest outage and the recovery window) would create more deliveries than a storm may
/// ([`crate::storm::MAX_DELIVERIES`]): the limit is the rate's, as the map sets the traffic.
fn check_deliveries(yours: &Spec, axes: &Axes) -> Result<(), Error> {
    let mapped = axes.outages_s.iter().copied().fold(0.0, f64::max);
    let own = f64::from(yours.outage.1);
    let lasts = cell_spec(yours, mapped.max(own), 1.0).traffic_s;
    if crate::storm::steady_count(yours.arrivals_per_s, lasts) <= crate::storm::MAX_DELIVERIES {
        return Ok(());
    }
    // Your storm's own cell is on the map too: when its outage is the longest, a shorter one
    // is the way out, not a shorter outage axis (it was told "map shorter outages" for a map
    // of 10 s to 24 h beside a storm's 7-day outage).
    let (cell, instead) = if own > mapped {
        (
            "your storm's own cell",
            "or a shorter outage for your storm",
        )
    } else {
        ("its longest cell", "or map shorter outages")
    };
    Err(Error::out_of_range(
        "arrivals",
        crate::storm::quoted_rate(yours.arrivals_per_s),
        format!(
            "at most {} per second for this map: {cell}'s traffic lasts {} (the outage and the \
             hour after it), and a storm creates at most 10000000 deliveries ({instead})",
            (crate::storm::MAX_DELIVERIES / f64::from(lasts)).floor(),
            crate::format_duration(f64::from(lasts))
        ),
    ))
}

/// Refuses a map whose worst-case work exceeds [`MAX_MAP_WORK`], before any cell runs: its
/// rows' and, when there is one, your scenario's own cell (`own`, its storm). The refusal names
/// `steps`, but on the discrete engine: `arrivals` when even the smallest map (2×2 steps of
/// outages of 1 s and 2 s) is over the limit, as no change of the axes brings it under, with
/// the most rate the map as given takes (its work is in proportion to the rate; rounded down
/// to 6 significant digits); else `outages` for a 2×2 map, whose steps cannot be fewer ("fewer
/// steps" sent the reader of a 2×2 map to a limit it could not follow).
fn check_work(
    specs: &[(String, Spec)],
    own: Option<&Spec>,
    axes: &Axes,
    engine: Engine,
) -> Result<(), Error> {
    let (fluid, discrete) = MAX_MAP_WORK;
    let work = map_work(specs, own, &axes.outages_s, axes.headroom.len(), engine);
    // The fluid engine is a way out only for jitter it can run.
    let fluid_runs_it = specs
        .iter()
        .all(|(_, spec)| spec.jitter != Jitter::Decorrelated);
    let (limit, unit, ways) = match engine {
        Engine::Discrete if fluid_runs_it => (
            discrete,
            "delivery-attempts for the discrete engine",
            "fewer steps, shorter outages, fewer attempts or the fluid engine",
        ),
        Engine::Discrete => (
            discrete,
            "delivery-attempts for the discrete engine",
            "fewer steps, shorter outages or fewer attempts (the fluid engine cannot run \
             decorrelated jitter)",
        ),
        _ => (
            fluid,
            // Not the storm's "class-seconds": a reader of the map knows attempts, not classes.
            "attempt-seconds",
            "fewer steps, shorter outages or fewer attempts",
        ),
    };
    if work <= limit {
        return Ok(());
    }
    // The core's work limit and estimates, grouped as the storm's are ("500,000,000
    // class-seconds"); the attempts and the rates to type back are not.
    let (limit_text, work_text) = (format_count(limit), format_count(work));
    let most = specs.iter().map(|(_, spec)| spec.policy.attempts()).max();
    let what = format!(
        "each cell simulates its storm's seconds for each of up to {} attempts; refused before \
         it starts",
        most.unwrap_or(0)
    );
    if engine == Engine::Discrete {
        // The smallest map there is: 2x2 steps of outages of 1 s and 2 s.
        let smallest = map_work(specs, own, &[1.0, 2.0], 2, engine);
        let without = |ways: &str, cut: &[&str]| {
            cut.iter()
                .fold(ways.to_string(), |ways, cut| ways.replacen(cut, "", 1))
        };
        if let (true, Some((_, yours))) = (smallest > limit, specs.first()) {
            // Rounded down to the digits written, so that the rate quoted runs.
            let most = floor_significant(yours.arrivals_per_s * limit / work, 6);
            return Err(Error::out_of_range(
                "arrivals",
                crate::storm::quoted_rate(yours.arrivals_per_s),
                format!(
                    "at most {} for this map on the discrete engine: at most {limit_text} {unit} \
                     ({what}), and even a 2x2 map of outages of 1 s and 2 s is {} \
                     delivery-attempts at worst; or else {}",
                    crate::storm::quoted_rate(most),
                    format_count(smallest),
                    without(
                        ways,
                        &[
                            "fewer steps, shorter outages, ",
                            "fewer steps, shorter outages or "
                        ]
                    ),
                ),
            ));
        }
        if axes.outages_s.len() == 2 && axes.headroom.len() == 2 {
            // No fewer steps: a 2x2 map was told "fewer steps" (outside review).
            return Err(Error::out_of_range(
                "outages",
                format!("a 2x2 map of {work_text} {unit} at worst"),
                format!(
                    "shorter for this map on the discrete engine: at most {limit_text} \
                     {unit} ({what}), which a 2x2 map of outages of 1 s and 2 s is within ({} \
                     at worst); or else {}",
                    format_count(smallest),
                    without(
                        ways,
                        &[
                            "fewer steps, shorter outages, ",
                            "fewer steps, shorter outages or "
                        ]
                    ),
                ),
            ));
        }
    }
    Err(Error::out_of_range(
        "steps",
        format!("a map of {work_text} {unit} at worst"),
        format!("at most {limit_text} {unit} ({what}): {ways}"),
    ))
}

/// `value` rounded down to `digits` significant digits.
fn floor_significant(value: f64, digits: i32) -> f64 {
    let step = 10f64.powi(value.log10().floor() as i32 - digits + 1);
    (value / step).floor() * step
}

/// A map's work at worst on `engine`, over `outages_s` and `rows` headrooms: simulated seconds ×
/// attempts on the fluid engine (each row sharing one storm, then each cell its branch), × the
/// arrival rate on the discrete one (every cell its own storm).
fn map_work(
    specs: &[(String, Spec)],
    own: Option<&Spec>,
    outages_s: &[f64],
    rows: usize,
    engine: Engine,
) -> f64 {
    let window = f64::from(RECOVERY_WINDOW_S);
    // The own cell is simulated on its own, to the end of its recovery window.
    let mut work = own.map_or(0.0, |storm| {
        let attempts = f64::from(storm.policy.attempts());
        let seconds = f64::from(window_end_s(storm));
        match engine {
            Engine::Discrete => storm.arrivals_per_s * seconds * attempts,
            _ => seconds * attempts,
        }
    });
    for (_, spec) in specs {
        let attempts = f64::from(spec.policy.attempts());
        if engine == Engine::Fluid {
            let longest = outages_s.iter().copied().fold(0.0, f64::max);
            // One shared storm per row at worst: a row computed on its own has its own.
            let shared = rows as f64 * (f64::from(spec.outage.0) + longest);
            let cells = (outages_s.len() * rows) as f64;
            work += attempts * (shared + cells * (window + BRANCH_LEAD_S));
            continue;
        }
        for &outage in outages_s {
            let seconds = f64::from(spec.outage.0) + outage + window;
            let per_cell = match engine {
                Engine::Discrete => spec.arrivals_per_s * seconds * attempts,
                _ => seconds * attempts,
            };
            work += per_cell * rows as f64;
        }
    }
    work
}

/// One row of a map: one series' cells at one headroom, in the outage axis' order. A map is
/// computed row by row (the page spreads the rows over its workers).
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "SurvivalRow"))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The series' index (in [`series_specs`]' order).
    pub series: usize,
    /// The headroom's index on the axis.
    pub headroom: usize,
    /// One cell per outage.
    pub cells: Vec<Cell>,
    /// Your scenario's own cell (see the module's rules), carried by your policy's row nearest
    /// your headroom; `None` in every other row.
    #[serde(default)]
    pub scenario: Option<Cell>,
}

/// A map about to be computed: its axes and series, checked (its work included) before any
/// cell runs.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The axes.
    pub axes: Axes,
    /// Each series' label and scenario.
    pub series: Vec<(String, Spec)>,
    /// The engine every cell runs on.
    pub engine: Engine,
    /// The scenario's own outage and headroom.
    pub current: (f64, f64),
    /// The storm of your scenario's own cell (see the module's rules): your policy at exactly
    /// your outage and headroom; `None` when your outage ends too late for a recovery window.
    pub own: Option<Spec>,
}

impl Plan {
    /// The map of `yours` over `axes` with `engine` (as [`map_engine`] takes it); refused up
    /// front when it would exceed [`MAX_MAP_WORK`], and when `yours` has a batch (every cell is
    /// steady traffic through its outage: a batch would be dropped from every cell, so it is
    /// refused rather than ignored).
    pub fn new(yours: &Spec, axes: Axes, engine: Engine) -> Result<Plan, Error> {
        Self::of(yours, axes, engine, true)
    }

    /// [`Plan::new`] of your policy alone, without the comparisons (the page's storm chart
    /// and map leave them out together): their work no longer counts against the map's limit
    /// (a small discrete map was refused for the fixed 30 s interval's 241 attempts).
    pub fn alone(yours: &Spec, axes: Axes, engine: Engine) -> Result<Plan, Error> {
        Self::of(yours, axes, engine, false)
    }

    /// The plan with the comparisons ([`series_specs`]) or without.
    fn of(yours: &Spec, axes: Axes, engine: Engine, compared: bool) -> Result<Plan, Error> {
        if let Some((count, at_s)) = yours.batch {
            return Err(Error::out_of_range(
                "batch",
                format!("{count} at {at_s} s"),
                "empty for a survival map (its cells are steady traffic through each outage; \
                 run `storm` for a batch)",
            ));
        }
        if engine == Engine::Arithmetic {
            return Err(Error::out_of_range(
                "engine",
                "arithmetic",
                "auto, discrete or fluid for a survival map (the arithmetic view has no recovery)",
            ));
        }
        check_outage_start(yours, &axes)?;
        check_deliveries(yours, &axes)?;
        let engine = map_engine(engine);
        let series = if compared {
            series_specs(yours)?
        } else {
            vec![("your policy".to_string(), *yours)]
        };
        let current = (
            f64::from(yours.outage.1),
            yours.capacity_per_s / yours.arrivals_per_s,
        );
        let own = cell_spec(yours, current.0, current.1);
        // A cell's storm lasts through its recovery window: one that would end past the storm's
        // horizon cannot be run (the axes keep their outages short enough for it).
        let own =
            (u64::from(own.outage.0) + u64::from(own.outage.1) + u64::from(RECOVERY_WINDOW_S)
                <= u64::from(crate::storm::MAX_HORIZON_S))
            .then_some(own);
        if engine == Engine::Fluid {
            attempt_limit::check_attempts(&series, &axes)?;
        }
        check_work(&series, own.as_ref(), &axes, engine)?;
        Ok(Plan {
            series,
            engine,
            current,
            own,
            axes,
        })
    }

    /// Every cell's refusal before any is run, the first in the order the rows are computed
    /// one after another ([`survival_map`]'s): for rows computed at once on several threads,
    /// where a refused cell of a row computed last came after seconds of the other rows' work
    /// on every core. (Computed one after another, each piece checks its own cells first.)
    pub fn check_cells(&self) -> Result<(), Error> {
        if self.engine != Engine::Fluid {
            return Ok(());
        }
        let mut histories: Vec<branching::SharedHistory> = vec![None; self.series.len()];
        for (series, headroom) in self.rows() {
            for &length in &self.axes.outages_s {
                let ratio = self.axes.headroom[headroom];
                let history = &mut histories[series];
                branching::cell_scenario(&self.series[series].1, length, ratio, history).map_err(
                    // Which cell: the map's axes, not a flag given, decided it, so the
                    // headroom axis is named (a map run on its default engine was told
                    // "engine must be discrete here").
                    |error| match error {
                        Error::OutOfRange { value, valid, .. }
                            if valid.contains("needs capacity") =>
                        {
                            // The axis as given, and the row that fails: the row's headroom
                            // read as the low end (1.89× of an axis from 1.05×).
                            let (low, high) = (
                                self.axes.headroom[0],
                                self.axes.headroom[self.axes.headroom.len() - 1],
                            );
                            // Its scenario was valid for the cell, so it is for the least.
                            let least =
                                least_fluid_headroom(&self.series[series].1).unwrap_or(ratio);
                            // Past the axis' range no axis runs: said, with the ways out.
                            // Below the axis' top, as the default is fitted (an axis needs
                            // its low end below its high one).
                            let at_least = if least < HEADROOM_RANGE.1 {
                                format!("at least {least:.2}× here")
                            } else {
                                format!(
                                    "at least {least:.2}× here, past the axis' {}× (a higher \
                                     arrival rate or a longer timeout)",
                                    HEADROOM_RANGE.1
                                )
                            };
                            // The row alone decides, whatever the cell's outage.
                            Error::OutOfRange {
                                field: "headroom",
                                // The ends as given, ungrouped, so that they read back
                                // (`0.1..1,000` was refused typed back: outside review).
                                value: format!(
                                    "{low}..{high}, whose row at {ratio:.2}× {}",
                                    value.replacen("fluid for a destination that ", "", 1)
                                ),
                                valid: format!(
                                    "a low end at which the fluid engine runs every cell, \
                                     {at_least} (or the discrete engine, on a map within its \
                                     work limit): {}",
                                    valid.trim_start_matches("discrete here: ")
                                ),
                            }
                        }
                        other => other,
                    },
                )?;
            }
        }
        Ok(())
    }

    /// The headroom index of the row that carries your scenario's own cell: your policy's row
    /// nearest your headroom (on a log axis).
    fn own_row(&self) -> usize {
        render::nearest(&self.axes.headroom, self.current.1)
    }

    /// Every row to compute, as (series, headroom) indices: each series' rows in turn, the
    /// headroom nearest the scenario's first (what a reader looks at first). A series whose
    /// scenario is an earlier series' (your policy is the fixed 30 s one) is not computed again:
    /// [`Plan::map`] gives it the earlier series' rows.
    pub fn rows(&self) -> Vec<(usize, usize)> {
        let nearest = self.own_row();
        let mut order: Vec<usize> = (0..self.axes.headroom.len()).collect();
        order.sort_by_key(|&h| h.abs_diff(nearest));
        self.computed_series()
            .flat_map(|s| order.iter().map(move |&h| (s, h)))
            .collect()
    }

    /// The series computed: those whose scenario no earlier series has.
    fn computed_series(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.series.len()).filter(|&s| self.first_alike(s) == s)
    }

    /// The first series with the same scenario as `series` (itself when none comes before).
    fn first_alike(&self, series: usize) -> usize {
        let spec = &self.series[series].1;
        self.series
            .iter()
            .position(|(_, other)| other == spec)
            .unwrap_or(series)
    }

    /// Every row in pieces for `workers` threads computing them at once: a piece is one
    /// series' rows at some headrooms, computed together ([`Plan::rows_of`]: they share one
    /// storm through the longest outage, so fewer pieces cost less in all). Each series' rows,
    /// in [`Plan::rows`]' order, go into `workers` pieces of consecutive rows (as even as they
    /// can be), which keeps every worker busy; with 0 workers (the rows are computed on a thread
    /// that must answer in between) each row is a piece of its own. The pieces come in the order
    /// worth computing them: every series' first piece, then every series' second, and so on.
    pub fn pieces(&self, workers: usize) -> Vec<(usize, Vec<usize>)> {
        let rows = self.rows();
        let per_series = self.axes.headroom.len();
        let count = if workers == 0 {
            per_series
        } else {
            workers.min(per_series)
        };
        let mut pieces = Vec::new();
        for piece in 0..count {
            // Rows `piece × n / count` up to `(piece + 1) × n / count` of each series.
            let (from, to) = (piece * per_series / count, (piece + 1) * per_series / count);
            for series_rows in rows.chunks(per_series) {
                let headrooms = series_rows[from..to]
                    .iter()
                    .map(|&(_, headroom)| headroom)
                    .collect();
                pieces.push((series_rows[0].0, headrooms));
            }
        }
        pieces
    }

    /// Series `series`' rows at the headroom indices `headrooms`, every cell simulated: on the
    /// fluid engine, cells branched off shared storms (see the module's rules); otherwise each
    /// cell on its own. Your policy's row nearest your headroom also carries your scenario's own
    /// cell, simulated on its own. Any split of the rows gives the same rows. An index out of
    /// range is refused, naming `row`.
    pub fn rows_of(&self, series: usize, headrooms: &[usize]) -> Result<Vec<Row>, Error> {
        let outside = headrooms.iter().find(|&&h| h >= self.axes.headroom.len());
        if series >= self.series.len()
            || outside.is_some()
            || headrooms.len() > self.axes.headroom.len()
        {
            return Err(Error::out_of_range(
                "row",
                match outside {
                    Some(headroom) => format!("series {series}, headroom {headroom}"),
                    None => format!("series {series}, {} headrooms", headrooms.len()),
                },
                format!(
                    "a series below {} and at most {1} headrooms, each below {1}",
                    self.series.len(),
                    self.axes.headroom.len()
                ),
            ));
        }
        let spec = &self.series[series].1;
        let cells = match self.engine {
            Engine::Fluid => branching::rows(spec, &self.axes, headrooms)?,
            _ => direct_cells(spec, &self.axes, headrooms, self.engine)?,
        };
        let own_row = (series == 0).then(|| self.own_row());
        headrooms
            .iter()
            .zip(cells)
            .map(|(&headroom, cells)| {
                let scenario = match self.own {
                    Some(storm) if own_row == Some(headroom) => {
                        let engine = match self.engine {
                            Engine::Fluid => Engine::Auto,
                            other => other,
                        };
                        Some(run_cell(&storm, engine)?)
                    }
                    _ => None,
                };
                Ok(Row {
                    series,
                    headroom,
                    cells,
                    scenario,
                })
            })
            .collect()
    }

    /// The map from the `rows` computed so far (a row given twice counts once; the rows not
    /// given are left empty, and counted in [`SurvivalMap::rows_pending`]). A row that does
    /// not fit the plan is refused.
    pub fn map(&self, rows: &[Row]) -> Result<SurvivalMap, Error> {
        let outages = self.axes.outages_s.len();
        let mut grid = vec![vec![Vec::new(); self.axes.headroom.len()]; self.series.len()];
        for row in rows {
            let fits = row.series < self.series.len()
                && row.headroom < self.axes.headroom.len()
                && row.cells.len() == outages;
            if !fits {
                return Err(Error::out_of_range(
                    "row",
                    format!(
                        "series {}, headroom {}, {} cells",
                        row.series,
                        row.headroom,
                        row.cells.len()
                    ),
                    format!(
                        "one of this map's rows ({} series × {} headroom, {outages} cells each)",
                        self.series.len(),
                        self.axes.headroom.len()
                    ),
                ));
            }
            // The row, and the same row of every later series with this scenario.
            let alike = (row.series..self.series.len())
                .filter(|&s| s == row.series || self.first_alike(s) == row.series);
            for series in alike {
                grid[series][row.headroom].clone_from(&row.cells);
            }
        }
        let rows_pending = grid.iter().flatten().filter(|row| row.is_empty()).count();
        // Carried by one row of your policy (rows of later series never carry it).
        let scenario = rows
            .iter()
            .filter(|row| row.series == 0)
            .find_map(|row| row.scenario);
        let series: Vec<Series> = self
            .series
            .iter()
            .zip(grid)
            .map(|((label, _), cells)| Series {
                label: label.clone(),
                boundary: cells
                    .iter()
                    .map(|row| boundary(row, &self.axes.outages_s))
                    .collect(),
                cells,
            })
            .collect();
        let caption = if rows_pending == 0 {
            let caption = render::caption(
                &self.axes,
                self.current,
                render::Own {
                    cell: scenario.as_ref(),
                    computable: self.own.is_some(),
                },
                &series,
            );
            match fitted::raised_start_sentence(&self.axes) {
                Some(sentence) => format!("{caption} {sentence}"),
                None => caption,
            }
        } else {
            let total = self.series.len() * self.axes.headroom.len();
            format!(
                "Computing the survival map: {} of {total} rows done.",
                total - rows_pending
            )
        };
        Ok(SurvivalMap {
            outages_s: self.axes.outages_s.clone(),
            headroom: self.axes.headroom.clone(),
            recovery_window_s: RECOVERY_WINDOW_S,
            current: self.current,
            scenario,
            series,
            rows_pending,
            caption,
        })
    }
}

/// The engine a map runs on when `engine` is asked for: the discrete engine when asked, else
/// the fluid one (`auto` included: the map does not switch engines from cell to cell). A map of
/// decorrelated jitter, which the fluid engine cannot run, is refused by its cells on `auto`
/// too, and on `discrete` fits its limit only with few steps or short outages: `auto` turning
/// discrete would only trade one refusal for another, and refuse it before any row runs.
pub fn map_engine(engine: Engine) -> Engine {
    match engine {
        Engine::Discrete => Engine::Discrete,
        _ => Engine::Fluid,
    }
}

/// The rows of `spec`'s series at the headroom indices `headrooms` (in range), each cell
/// computed on its own with [`cell`].
fn direct_cells(
    spec: &Spec,
    axes: &Axes,
    headrooms: &[usize],
    engine: Engine,
) -> Result<Vec<Vec<Cell>>, Error> {
    headrooms
        .iter()
        .map(|&headroom| {
            axes.outages_s
                .iter()
                .map(|&outage| cell(spec, outage, axes.headroom[headroom], engine))
                .collect()
        })
        .collect()
}

/// The map of `yours` over `axes`, every cell simulated with `engine`; refused up front when
/// it would exceed [`MAX_MAP_WORK`].
pub fn survival_map(yours: &Spec, axes: &Axes, engine: Engine) -> Result<SurvivalMap, Error> {
    let plan = Plan::new(yours, axes.clone(), engine)?;
    plan.check_cells()?;
    // A series' rows together, so that they share their storms.
    let mut rows = Vec::new();
    for (series, headrooms) in plan.pieces(1) {
        rows.extend(plan.rows_of(series, &headrooms)?);
    }
    plan.map(&rows)
}

#[cfg(test)]
mod tests;
