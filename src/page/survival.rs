//! The survival map on the page: its plan from the settings (your storm, as the storm chart's
//! "your policy" with its bounds, and the map's axes), one row at a time (the page spreads the
//! rows over its workers), and the chart drawn from the rows computed so far.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend};

use super::views::storm_params;
use super::{Drawn, NumberTable, PageError, Settings};
use crate::chart::{self, ChartOptions};
use crate::survival::{Axes, Plan, Row, SurvivalMap};
use crate::{format_duration, Error};

/// The map the settings ask for: your storm over the axes `outages`, `headroom` and `steps`, on
/// the fluid engine (the discrete one when the settings choose it), its work checked up front.
pub fn survival_plan(settings: &Settings) -> Result<Plan, Error> {
    let params = storm_params(settings);
    let spec = *params.scenario()?.spec();
    let engine = params.engine()?;
    let axes = Axes::from_text(
        settings.get("outages"),
        settings.get("headroom"),
        settings.get("steps"),
    )?;
    Plan::new(&spec, axes, engine)
}

/// Every row of the settings' map, computed.
pub fn survival_rows(settings: &Settings) -> Result<Vec<Row>, Error> {
    let plan = survival_plan(settings)?;
    let mut rows = Vec::new();
    for (series, headrooms) in plan.pieces(1) {
        rows.extend(plan.rows_of(series, &headrooms)?);
    }
    Ok(rows)
}

/// Each series' boundary at each headroom, the largest headroom first.
fn boundary_table(map: &SurvivalMap) -> NumberTable {
    let mut rows = Vec::new();
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
        }
    }
    NumberTable {
        headers: ["series", "headroom", "longest outage survived"]
            .map(String::from)
            .to_vec(),
        rows,
    }
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
        compared: None,
        storms: Vec::new(),
        suggestion: None,
        suggestion_findings: Vec::new(),
    })
}
