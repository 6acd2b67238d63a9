//! The staleness chart: for outages of every length (a log axis from a minute to past the give-up
//! time), how long after recovery an outage's first event arrives (the sawtooth a schedule
//! makes), how old it is then, the band all its events fall in, where events are exhausted,
//! the tolerance, a compared preset, and the outage to read off.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::{Deserialize, Serialize};

use super::{drawing_error, font, prepare, ChartOptions, Legend, NICE_SECONDS};
use crate::staleness::{OutageAnswer, StalenessReport};
use crate::{format_duration, Error};

/// The shortest time drawn on the log axis: a lag under a minute (delivered at recovery or
/// soon after) sits here, rather than diving toward zero at every retry.
const FLOOR_S: f64 = 60.0;

/// One schedule along the outage lengths.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StalenessCurve {
    /// Its name in the legend.
    pub label: String,
    /// Its give-up time, seconds: outages longer exhaust their first event.
    pub give_up_s: f64,
    /// The answers along the outage lengths.
    pub points: Vec<OutageAnswer>,
    /// Under jitter: for each point, the first event's lag at its median and 95th percentile
    /// across the sampled schedules that deliver it (empty when exact; `None` where none does).
    pub jitter_band: Vec<Option<(f64, f64)>>,
}

/// What the chart draws: your schedule's report and curve, a compared one, the outage to read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StalenessChart {
    /// Your schedule's report (its derived lengths, its caption).
    pub report: StalenessReport,
    /// Your schedule along the outage lengths.
    pub mine: StalenessCurve,
    /// A compared schedule, when one is chosen.
    pub compared: Option<StalenessCurve>,
    /// The outage to read off, and your schedule's answer for it.
    pub read: Option<OutageAnswer>,
}

/// A nice duration of [`NICE_SECONDS`] per stretch of the log axis from `lo` to `hi`.
fn log_ticks(lo: f64, hi: f64, max: usize) -> Vec<f64> {
    let within: Vec<f64> = NICE_SECONDS
        .into_iter()
        .filter(|t| *t >= lo && *t <= hi)
        .collect();
    let step = within.len().div_ceil(max.max(1)).max(1);
    within.into_iter().step_by(step).collect()
}

/// Draws `chart` filling `area`.
///
/// # Example
/// ```
/// use backoff_lab::chart::{staleness, to_svg, ChartOptions};
/// let chart = backoff_lab::page::staleness_chart(&backoff_lab::page::Settings::default()).unwrap();
/// let svg = to_svg((900, 420), |area| staleness::draw(area, &chart, &ChartOptions::default()))?;
/// assert!(svg.contains("first event arrives"));
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &StalenessChart,
    options: &ChartOptions,
) -> Result<(), Error> {
    let (options, theme) = prepare(area, options)?;
    let s = options.scale;
    let mine = &chart.mine;
    let x_end = mine.points.last().map_or(7_200.0, |p| p.outage_s).max(
        chart
            .compared
            .as_ref()
            .and_then(|c| c.points.last())
            .map_or(0.0, |p| p.outage_s),
    );
    let highest = |curve: &StalenessCurve| {
        curve
            .points
            .iter()
            .flat_map(|p| [p.first_event.age_s, p.all_events.age_max_s])
            .flatten()
            .fold(FLOOR_S, f64::max)
    };
    let tolerance = chart.report.tolerance_s;
    let y_end = (highest(mine)
        .max(chart.compared.as_ref().map_or(0.0, highest))
        .max(tolerance.unwrap_or(0.0))
        * 2.0)
        .max(600.0);

    let mut entries = vec![
        (
            "when the first event arrives after recovery".to_string(),
            theme.primary.filled(),
        ),
        ("its age then".to_string(), theme.secondary.filled()),
        (
            "all events: median to latest".to_string(),
            theme.primary.mix(0.25).filled(),
        ),
    ];
    if !mine.jitter_band.is_empty() {
        entries.push((
            "first event under jitter: median to 95th".to_string(),
            theme.accent.mix(0.3).filled(),
        ));
    }
    if let Some(compared) = &chart.compared {
        entries.push((compared.label.clone(), theme.tertiary.filled()));
    }
    entries.push((
        "exhausted: replay needed".to_string(),
        theme.alert.mix(0.2).filled(),
    ));
    let legend = Legend::new(area, entries, &theme, s);

    let mut plot = ChartBuilder::on(area)
        .margin_top(legend.height + 6.0 * s)
        .margin_right(24.0 * s)
        .margin_left(8.0 * s)
        .x_label_area_size(34.0 * s)
        .y_label_area_size(64.0 * s)
        .build_cartesian_2d((60.0..x_end).log_scale(), (FLOOR_S..y_end).log_scale())
        .map_err(drawing_error)?;
    plot.configure_mesh()
        .disable_mesh()
        .x_labels(0)
        .y_labels(0)
        .x_label_formatter(&|_| String::new())
        .y_label_formatter(&|_| String::new())
        // `axes` draws the ticks and labels a log scale needs; plotters would add a stray one.
        .set_all_tick_mark_size(0)
        .axis_style(theme.muted.stroke_width(s.round().max(1.0) as u32))
        .x_desc("outage length")
        .y_desc("time")
        .axis_desc_style(font(11.0, s, theme.muted))
        .draw()
        .map_err(drawing_error)?;
    axes(&mut plot, area, (x_end, y_end), &theme, s)?;

    // Outages longer than the give-up time exhaust their first event (under jitter, in more
    // than one schedule in twenty).
    let exhausted_from = chart.report.longest_delivered_outage_s;
    plot.draw_series(std::iter::once(Rectangle::new(
        [(exhausted_from.clamp(60.0, x_end), FLOOR_S), (x_end, y_end)],
        theme.alert.mix(0.12).filled(),
    )))
    .map_err(drawing_error)?;
    curves(&mut plot, chart, &theme, s)?;
    if let Some(t) = tolerance {
        let width = (1.5 * s).round().max(1.0) as u32;
        plot.draw_series(std::iter::once(DashedPathElement::new(
            vec![(60.0, t), (x_end, t)],
            6.0 * s,
            4.0 * s,
            theme.alert.stroke_width(width),
        )))
        .map_err(drawing_error)?;
        let (x, y) = plot.backend_coord(&(60.0, t));
        area.draw(&Text::new(
            format!("tolerance {}: older arrives stale", format_duration(t)),
            (x + (6.0 * s) as i32, y - (4.0 * s) as i32),
            font(11.0, s, theme.alert).pos(Pos::new(HPos::Left, VPos::Bottom)),
        ))
        .map_err(drawing_error)?;
    }
    if let Some(read) = &chart.read {
        read_off(&mut plot, area, read, &theme, s)?;
    }
    legend.draw(area)
}

type Plot<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<
        plotters::coord::combinators::LogCoord<f64>,
        plotters::coord::combinators::LogCoord<f64>,
    >,
>;

/// Nice durations along both log axes, with a light grid.
fn axes<DB: DrawingBackend>(
    plot: &mut Plot<'_, DB>,
    area: &DrawingArea<DB, Shift>,
    (x_end, y_end): (f64, f64),
    theme: &super::Theme,
    s: f64,
) -> Result<(), Error> {
    let grid = theme.grid.stroke_width(s.round().max(1.0) as u32);
    let (width, height) = area.dim_in_pixel();
    for t in log_ticks(
        60.0,
        x_end,
        ((f64::from(width) / (s * 80.0)) as usize).max(2),
    ) {
        plot.draw_series(std::iter::once(PathElement::new(
            vec![(t, FLOOR_S), (t, y_end)],
            grid,
        )))
        .map_err(drawing_error)?;
        let (x, y) = plot.backend_coord(&(t, FLOOR_S));
        area.draw(&Text::new(
            format_duration(t),
            (x, y + (6.0 * s) as i32),
            font(11.0, s, theme.muted).pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(drawing_error)?;
    }
    for t in log_ticks(
        FLOOR_S,
        y_end,
        ((f64::from(height) / (s * 40.0)) as usize).max(2),
    ) {
        plot.draw_series(std::iter::once(PathElement::new(
            vec![(60.0, t), (x_end, t)],
            grid,
        )))
        .map_err(drawing_error)?;
        let (x, y) = plot.backend_coord(&(60.0, t));
        let label = if t <= FLOOR_S {
            "< 1 min".to_string()
        } else {
            format_duration(t)
        };
        area.draw(&Text::new(
            label,
            (x - (6.0 * s) as i32, y),
            font(11.0, s, theme.muted).pos(Pos::new(HPos::Right, VPos::Center)),
        ))
        .map_err(drawing_error)?;
    }
    Ok(())
}

/// The band of all events, the jitter band, the first event's lag and age, and the compared.
fn curves<DB: DrawingBackend>(
    plot: &mut Plot<'_, DB>,
    chart: &StalenessChart,
    theme: &super::Theme,
    s: f64,
) -> Result<(), Error> {
    let floor = |v: f64| v.max(FLOOR_S);
    let mine = &chart.mine;
    let delivered = |p: &&OutageAnswer| p.all_events.lag_max_s.is_some();
    let band: Vec<(f64, f64)> = mine
        .points
        .iter()
        .filter(delivered)
        .map(|p| (p.outage_s, floor(p.all_events.lag_max_s.unwrap_or(0.0))))
        .chain(
            mine.points
                .iter()
                .filter(delivered)
                .rev()
                .map(|p| (p.outage_s, floor(p.all_events.lag_p50_s.unwrap_or(0.0)))),
        )
        .collect();
    plot.draw_series(std::iter::once(Polygon::new(
        band,
        theme.primary.mix(0.18).filled(),
    )))
    .map_err(drawing_error)?;
    let banded: Vec<(f64, (f64, f64))> = mine
        .points
        .iter()
        .zip(&mine.jitter_band)
        .filter_map(|(p, band)| band.map(|b| (p.outage_s, b)))
        .collect();
    if !banded.is_empty() {
        let top = banded.iter().map(|&(x, b)| (x, floor(b.1)));
        let bottom = banded.iter().rev().map(|&(x, b)| (x, floor(b.0)));
        plot.draw_series(std::iter::once(Polygon::new(
            top.chain(bottom).collect::<Vec<_>>(),
            theme.accent.mix(0.25).filled(),
        )))
        .map_err(drawing_error)?;
    }
    let width = (2.0 * s).round().max(1.0) as u32;
    let first = |curve: &StalenessCurve, pick: fn(&OutageAnswer) -> Option<f64>| {
        curve
            .points
            .iter()
            .filter_map(|p| pick(p).map(|v| (p.outage_s, floor(v))))
            .collect::<Vec<_>>()
    };
    if let Some(compared) = &chart.compared {
        plot.draw_series(std::iter::once(PathElement::new(
            first(compared, |p| p.first_event.lag_s),
            theme.tertiary.stroke_width(width),
        )))
        .map_err(drawing_error)?;
    }
    plot.draw_series(std::iter::once(PathElement::new(
        first(mine, |p| p.first_event.age_s),
        theme.secondary.stroke_width(width),
    )))
    .map_err(drawing_error)?;
    plot.draw_series(std::iter::once(PathElement::new(
        first(mine, |p| p.first_event.lag_s),
        theme.primary.stroke_width(width),
    )))
    .map_err(drawing_error)?;
    Ok(())
}

/// The outage to read off: a line across, its first event's lag and age marked and written.
fn read_off<DB: DrawingBackend>(
    plot: &mut Plot<'_, DB>,
    area: &DrawingArea<DB, Shift>,
    read: &OutageAnswer,
    theme: &super::Theme,
    s: f64,
) -> Result<(), Error> {
    let x = read.outage_s;
    let top = plot.y_range().end;
    plot.draw_series(std::iter::once(DashedPathElement::new(
        vec![(x, FLOOR_S), (x, top)],
        3.0 * s,
        3.0 * s,
        theme.text.stroke_width(s.round().max(1.0) as u32),
    )))
    .map_err(drawing_error)?;
    let text = match (read.first_event.lag_s, read.first_event.age_s) {
        (Some(lag), Some(age)) => {
            for (value, colour) in [(lag, theme.primary), (age, theme.secondary)] {
                plot.draw_series(std::iter::once(Circle::new(
                    (x, value.max(FLOOR_S)),
                    (4.0 * s) as i32,
                    colour.filled(),
                )))
                .map_err(drawing_error)?;
            }
            format!(
                "a {} outage: the first event arrives {} after recovery, {} old",
                format_duration(x),
                format_duration(lag),
                format_duration(age)
            )
        }
        _ => format!(
            "a {} outage: its first event is exhausted",
            format_duration(x)
        ),
    };
    let (px, py) = plot.backend_coord(&(x, top));
    let right_half = f64::from(px) > f64::from(area.dim_in_pixel().0) * 0.55;
    let anchor = if right_half { HPos::Right } else { HPos::Left };
    let dx = if right_half { -6.0 } else { 6.0 } * s;
    area.draw(&Text::new(
        text,
        (px + dx as i32, py + (4.0 * s) as i32),
        font(12.0, s, theme.text).pos(Pos::new(anchor, VPos::Top)),
    ))
    .map_err(drawing_error)
}
