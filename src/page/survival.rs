//! The survival map on the page: its plan from the settings (your storm, as the storm chart's
//! "your policy" with its bounds, and the map's axes), one row at a time (the page spreads the
//! rows over its workers), and the chart drawn from the rows computed so far.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend};

use super::views::{storm_params, UNTICK_COMPARE};
use super::{Drawn, NumberTable, PageError, Settings};
use crate::chart::{self, ChartOptions};
use crate::survival::{fitted_axes, Plan, Row, SurvivalMap};
use crate::{format_duration, Error};

/// The map the settings ask for: your storm over the axes `outages`, `headroom` and `steps`, on
/// the fluid engine (the discrete one when the settings choose it), its work checked up front.
pub fn survival_plan(settings: &Settings) -> Result<Plan, Error> {
    // The map sets each cell's traffic (through its outage and the hour after it), as the
    // CLI's `survival`, which refuses `--traffic`: the storm chart's is left out.
    let params = crate::Params {
        traffic: None,
        ..storm_params(settings)
    };
    let spec = *params.map_scenario()?.spec();
    let engine = params.engine()?;
    let axes = fitted_axes(
        &spec,
        engine,
        (
            settings.get("outages"),
            settings.get("headroom"),
            settings.get("steps"),
        ),
    )?;
    // The storm chart's comparisons are the map's series too: unticked, both leave them out.
    if settings.get("storm-compare") == "true" {
        Plan::new(&spec, axes, engine)
    } else {
        Plan::alone(&spec, axes, engine)
    }
}

/// [`survival_plan`], refused where the map starts when a headroom is too low for the fluid
/// engine ([`Plan::check_cells`]): the headroom's fault, as the CLI says, not the engine's (the
/// page told "engine must be discrete here" of the engine "auto", whose discrete map was far
/// too much work). A cell refused for another reason (decorrelated jitter on the fluid engine)
/// is said by the row that holds it, in the map's place, as before: no input of the page is
/// wrong.
pub fn checked_survival_plan(settings: &Settings) -> Result<Plan, Error> {
    let plan = survival_plan(settings)?;
    // Only where a headroom can fix it: past the axis' 1,000× (an arrival rate of 1/h) no
    // headroom can, and the map says why in its place (the headroom field, at its default, was
    // highlighted as the page's fault).
    let fixable = |plan: &Plan| {
        crate::survival::least_fluid_headroom(&plan.series[0].1)
            .is_ok_and(|least| least < crate::survival::HEADROOM_RANGE.1)
    };
    match plan.check_cells() {
        Err(
            error @ Error::OutOfRange {
                field: "headroom", ..
            },
        ) if fixable(&plan) => Err(error),
        _ => Ok(plan),
    }
}

/// Every survival axis whose own text is refused (the other two at their defaults), each as
/// the page shows it: a link with three bad axes was told one at a time, fixed, then told the
/// next, where the map's refusal names the first.
pub fn survival_axes_errors(settings: &Settings) -> Vec<PageError> {
    let (outages, headroom, steps) = crate::survival::DEFAULT_TEXT;
    [
        (settings.get("outages"), headroom, steps),
        (outages, settings.get("headroom"), steps),
        (outages, headroom, settings.get("steps")),
    ]
    .into_iter()
    .filter_map(|(outages, headroom, steps)| {
        crate::survival::Axes::from_text(outages, headroom, steps).err()
    })
    .map(|error| PageError::from(error).quoting(settings))
    .collect()
}

/// A refusal of the survival map as the page shows it. On the engine `auto` the map runs every
/// cell on the fluid engine (the storm chart may run on the discrete one): a cell the fluid
/// engine cannot run (decorrelated jitter) is no control's fault, and is said in the map's
/// place (and, as every error of no control, under the controls) with the way out for
/// decorrelated jitter, the engine field unflagged (outside review: picking decorrelated
/// jitter flagged an Engine the reader never touched, and unfolded the storm's controls on a
/// phone).
pub fn survival_error(error: Error, settings: &Settings) -> PageError {
    match error {
        Error::OutOfRange {
            field: "engine",
            valid,
            ..
        } if settings.get("engine") == "auto" => {
            let reason = valid.strip_prefix("discrete here: ").unwrap_or(&valid);
            // The ways out, where there are some (a map of one delivery an hour said why
            // it could not run and nothing of what to do: outside product review).
            let ways = if settings.get("mode") == "decorrelated" {
                ": map full, equal or proportional jitter instead, or choose the discrete engine \
                 with few steps and short outages"
            } else if reason.contains("needs capacity") {
                ": raise the arrival rate (a cell's capacity is its headroom × the arrivals) or \
                 the timeout, or choose the discrete engine with few steps and short outages"
            } else {
                ""
            };
            PageError::general(format!(
                "the map runs on the fluid engine (engine auto), and {reason}{ways}"
            ))
        }
        // The comparisons' work counts in the map's: leaving them out is a way too (the
        // fixed 30 s interval's 241 attempts refused small discrete maps).
        Error::OutOfRange {
            field,
            value,
            valid,
        } if valid.contains("delivery-attempts")
            && settings.get("storm-compare") == "true"
            && alone_fits(settings) =>
        {
            let valid = valid.replacen(
                " or the fluid engine",
                &format!(", the fluid engine or the map of your policy alone ({UNTICK_COMPARE}, storm-compare=false)"),
                1,
            );
            PageError::from(Error::OutOfRange {
                field,
                value,
                valid,
            })
            .of_chart(settings)
        }
        error => PageError::from(error).of_chart(settings),
    }
}

/// Whether the map of your policy alone (the comparisons left out) is within the map's work.
fn alone_fits(settings: &Settings) -> bool {
    let mut alone = settings.clone();
    alone.set("storm-compare", "false");
    survival_plan(&alone).is_ok()
}

/// Every row of the settings' map, computed.
pub fn survival_rows(settings: &Settings) -> Result<Vec<Row>, Error> {
    let plan = checked_survival_plan(settings)?;
    let mut rows = Vec::new();
    for (series, headrooms) in plan.pieces(1) {
        rows.extend(plan.rows_of(series, &headrooms)?);
    }
    Ok(rows)
}

/// Each series' boundary at each headroom, the largest headroom first.
fn boundary_table(map: &SurvivalMap) -> NumberTable {
    let (mut rows, mut data) = (Vec::new(), Vec::new());
    for series in &map.series {
        for (i, &headroom) in map.headroom.iter().enumerate().rev() {
            let survives = if series.cells[i].is_empty() {
                "not computed yet".to_string()
            } else {
                match series.boundary[i] {
                    None => "none".to_string(),
                    Some(b) => format_duration(b),
                }
            };
            rows.push(vec![
                series.label.clone(),
                format!("{headroom:.2}×"),
                survives,
            ]);
            // Empty where nothing survives or the cell is not computed yet.
            let boundary = (!series.cells[i].is_empty())
                .then_some(series.boundary[i])
                .flatten();
            data.push(vec![
                series.label.clone(),
                crate::report::csv_number(headroom),
                boundary.map_or_else(String::new, crate::report::csv_number),
            ]);
        }
    }
    NumberTable::new(&["series", "headroom", "longest outage survived"], rows).with_data(
        &[
            "series",
            "headroom (capacity ÷ arrival rate)",
            "longest outage survived (s)",
        ],
        data,
    )
}

/// Draws the map of `settings` from the `rows` computed so far.
pub(super) fn draw_survival<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    settings: &Settings,
    rows: &[Row],
    options: &ChartOptions,
) -> Result<Drawn, PageError> {
    let map = survival_plan(settings)?.map(rows)?;
    chart::survival::draw(area, &map, options)?;
    Ok(Drawn {
        caption: map.caption.clone(),
        table: boundary_table(&map),
        schedule: None,
        schedule_rows_left_out: 0,
        schedule_left_out_note: None,
        compared: None,
        storms: Vec::new(),
        suggestion: None,
        suggestion_findings: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::{compute, View};
    use crate::storm::Memo;
    use crate::survival::{cell, Outcome};

    /// The page's default scenario (exponential 30 s ×3 capped at 3 h, 14 attempts, full
    /// jitter, a 10 min outage at 3× headroom) on an 8×6 map: its mark falls in a cell of a
    /// 486 s outage at 3.41× that recovers, while the scenario itself collapses. The map says
    /// the scenario's own outcome (caption and mark), and that its row is only the nearest.
    #[test]
    fn the_scenario_is_told_by_its_own_outcome_not_its_grid_cells() {
        let mut settings = Settings::default();
        settings.set("steps", "8x6");
        let plan = survival_plan(&settings).unwrap();
        assert_eq!(plan.current, (600.0, 3.0));
        let map = plan.map(&survival_rows(&settings).unwrap()).unwrap();
        let yours = &plan.series[0].1;
        let own = cell(yours, 600.0, 3.0, plan.engine).unwrap();
        assert_eq!(own.outcome, Outcome::Collapsed, "{own:?}");
        assert_eq!(map.scenario, Some(own));
        // The grid cell the mark sits in (nearest outage and headroom) recovers.
        let row = 2;
        let column = map.outages_s.iter().position(|&o| o == 486.0).unwrap();
        assert_eq!(
            (map.headroom[row] * 100.0).round() / 100.0,
            3.41,
            "{:?}",
            map.headroom
        );
        assert_eq!(map.series[0].cells[row][column].outcome, Outcome::Recovers);

        let caption = &map.caption;
        assert!(
            caption.starts_with(
                "Your scenario (an outage of 10 min at 3.00× headroom) collapses: goodput in the \
                 hour after the outage is "
            ),
            "{caption}"
        );
        assert!(
            caption.contains("At 3.41× headroom (capacity ÷ arrivals), the map's row nearest your 3.00×, your policy survives outages up to 8.1 min"),
            "{caption}"
        );
        let svg = crate::chart::to_svg((900, 460), |area| {
            crate::chart::survival::draw(area, &map, &ChartOptions::default())
        })
        .unwrap();
        assert!(svg.contains("your scenario: collapses"), "the mark's label");
    }

    /// Unticking the storm's comparisons leaves them out of the map too: its only series is
    /// yours, and their work no longer counts (a discrete 8 × 6 map was refused for the fixed
    /// 30 s interval's 241 attempts a delivery).
    #[test]
    fn the_maps_comparisons_go_with_the_storms() {
        let mut settings = Settings::default();
        settings.set("engine", "discrete");
        settings.set("steps", "8x6");
        let refused = survival_error(survival_plan(&settings).unwrap_err(), &settings);
        assert_eq!(refused.setting, Some("steps"), "{}", refused.message);
        assert!(
            refused.message.contains(
                "the fluid engine or the map of your policy alone (untick \"Compare with a fixed \
                 30 s interval\", storm-compare=false)"
            ),
            "compared, the discrete map is past its work, and says how to map yours alone: {}",
            refused.message
        );
        settings.set("storm-compare", "false");
        let plan = survival_plan(&settings).unwrap();
        assert_eq!(plan.series.len(), 1);
        assert_eq!(plan.series[0].0, "your policy");
        // Drawn alone (on the fluid engine, quick), its legend names no comparison.
        settings.set("engine", "fluid");
        settings.set("steps", "4x3");
        let plan = survival_plan(&settings).unwrap();
        let map = plan.map(&survival_rows(&settings).unwrap()).unwrap();
        assert_eq!(map.series.len(), 1);
        let svg = crate::chart::to_svg((900, 460), |area| {
            crate::chart::survival::draw(area, &map, &ChartOptions::default())
        })
        .unwrap();
        assert!(svg.contains("your policy: ") && !svg.contains("fixed 30 s"));
    }

    /// Where no headroom up to the axis' 1,000× runs on the fluid engine (one delivery an hour),
    /// the headroom is not at fault: the plan is not refused up front (the page highlighted the
    /// default headroom as the input to fix), and the map's rows say why in its place.
    #[test]
    fn a_map_no_headroom_can_fix_is_not_the_headrooms_fault() {
        let mut settings = Settings::default();
        settings.set("arrivals", "1/h");
        settings.set("steps", "4x4");
        let plan = checked_survival_plan(&settings).unwrap();
        let refused = plan.check_cells().unwrap_err().to_string();
        assert!(refused.contains("past the axis' 1000×"), "{refused}");
        // The map's place says what would run it.
        let error = survival_error(survival_rows(&settings).unwrap_err(), &settings);
        assert_eq!(error.setting, None, "{}", error.message);
        assert!(
            error.message.ends_with(
                "raise the arrival rate (a cell's capacity is its headroom × the arrivals) or \
                 the timeout, or choose the discrete engine with few steps and short outages"
            ),
            "{}",
            error.message
        );
    }

    /// Decorrelated jitter on the engine `auto`: the map says why it cannot run it and flags no
    /// field (the engine, never touched, was flagged).
    #[test]
    fn decorrelated_jitter_on_auto_is_no_fields_fault() {
        let mut settings = Settings::default();
        settings.set("mode", "decorrelated");
        settings.set("steps", "4x4");
        let error = survival_error(survival_rows(&settings).unwrap_err(), &settings);
        assert_eq!(error.setting, None, "{}", error.message);
        assert!(
            error.message.starts_with(
                "the map runs on the fluid engine (engine auto), and the fluid engine needs gaps"
            ) && error
                .message
                .ends_with("or choose the discrete engine with few steps and short outages"),
            "{}",
            error.message
        );
        // Chosen by the reader, the engine is the field to change.
        settings.set("engine", "fluid");
        let error = survival_error(survival_rows(&settings).unwrap_err(), &settings);
        assert_eq!(error.setting, Some("engine"), "{}", error.message);
    }

    /// A headroom too low for the fluid engine is refused as the headroom's, as the CLI
    /// refuses it: the page told "engine must be discrete here" of its engine "auto".
    #[test]
    fn a_headroom_too_low_for_the_fluid_engine_is_the_headrooms_fault() {
        let mut settings = Settings::default();
        settings.set("headroom", "0.1..0.2");
        settings.set("steps", "4x4");
        let refused = "headroom must be a low end at which the fluid engine runs every cell";
        let error = checked_survival_plan(&settings).unwrap_err().to_string();
        assert!(error.starts_with(refused), "{error}");
        let error = survival_rows(&settings).unwrap_err().to_string();
        assert!(error.starts_with(refused), "{error}");
    }

    /// 10,000 attempts draw the schedule and every other chart, past the map's work: the map's
    /// refusal is its own limit, noted beside the field; attempts the schedule itself refuses,
    /// and the map's own axes, are values to fix.
    #[test]
    fn a_schedule_value_past_the_maps_work_is_the_maps_limit() {
        let refusal = |pairs: &[(&str, &str)]| {
            let settings = Settings::with(pairs);
            let error = checked_survival_plan(&settings).unwrap_err();
            survival_error(error, &settings)
        };
        let limit = refusal(&[("attempts", "10000")]);
        assert_eq!(limit.setting, Some("attempts"));
        assert!(
            limit.message.contains("for a survival map"),
            "{}",
            limit.message
        );
        assert!(limit.chart_limit);
        let schedule = refusal(&[("attempts", "20000")]);
        assert_eq!(schedule.setting, Some("attempts"));
        assert!(!schedule.chart_limit, "{}", schedule.message);
        let axis = refusal(&[("steps", "100x1")]);
        assert_eq!(axis.setting, Some("steps"));
        assert!(!axis.chart_limit);
        // A chart's refusal through the page's compute step is told the same way.
        let herd = Settings::with(&[("attempts", "10000"), ("deliveries", "10000000")]);
        let error = compute(View::Herd, &herd, &mut Memo::default()).unwrap_err();
        assert_eq!(error.setting, Some("deliveries"), "{}", error.message);
        assert!(!error.chart_limit);
        let tight = [("base", "1us"), ("multiplier", "1"), ("cap", "1us")];
        let storm = Settings::with(&[&tight[..], &[("attempts", "10000")]].concat());
        let error = compute(View::Storm, &storm, &mut Memo::default()).unwrap_err();
        assert_eq!(error.setting, Some("attempts"), "{}", error.message);
        assert!(error.chart_limit, "{}", error.message);
    }
}
