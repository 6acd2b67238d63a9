//! The storm chart: attempts per minute (first attempts and retries) against the destination's
//! capacity, with goodput, and the backlog below; the outage shaded. Further scenarios (a
//! comparison) are drawn as lines over the first.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{
    draw_mesh, drawing_error, font, nice_time_ticks, prepare, ChartOptions, Legend, Theme,
};
use crate::storm::{Scenario, StormReport};
use crate::{format_duration, Error};

/// One scenario to draw: its name in the legend and its result.
pub struct Series<'a> {
    /// The legend entry.
    pub label: String,
    /// The scenario (its capacity and outage are drawn for the first series).
    pub scenario: &'a Scenario,
    /// Its result.
    pub report: &'a StormReport,
}

/// Draws `series` (the first filled, the rest as lines) filling `area`.
///
/// # Example
/// ```
/// use backoff_lab::chart::{storm, to_svg, ChartOptions};
/// use backoff_lab::storm::{simulate_fluid, Scenario};
/// let scenario = Scenario::article_fixed();
/// let report = simulate_fluid(&scenario, false)?;
/// let series = [storm::Series { label: "fixed 30 s".into(), scenario: &scenario, report: &report }];
/// let svg = to_svg((900, 420), |area| storm::draw(area, &series, &ChartOptions::default()))?;
/// assert!(svg.contains("capacity"));
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    series: &[Series<'_>],
    options: &ChartOptions,
) -> Result<(), Error> {
    let (options, theme) = prepare(area, options)?;
    let s = options.scale;
    let Some(first) = series.first() else {
        return Ok(());
    };
    let colours = [theme.primary, theme.alert, theme.tertiary, theme.accent];
    let capacity_per_min = first.scenario.capacity_per_s * 60.0;
    let end_s = series
        .iter()
        .map(|sr| {
            let drained = sr
                .report
                .summary
                .drained_at_s
                .unwrap_or(sr.report.summary.horizon_s);
            (f64::from(drained) * 1.15)
                .max(f64::from(sr.scenario.outage.0 + sr.scenario.outage.1) * 2.0)
        })
        .fold(600.0, f64::max)
        .min(
            series
                .iter()
                .map(|sr| f64::from(sr.report.summary.horizon_s))
                .fold(60.0, f64::max),
        );
    let peak = series
        .iter()
        .flat_map(|sr| sr.report.minutes.iter().map(|m| m.attempts))
        .fold(capacity_per_min, f64::max);
    let log = peak > 12.0 * capacity_per_min;
    let backlog_peak = series
        .iter()
        .flat_map(|sr| sr.report.minutes.iter().map(|m| m.backlog))
        .fold(1.0, f64::max);

    let (width, height) = area.dim_in_pixel();
    let mut entries: Vec<(String, ShapeStyle)> = series
        .iter()
        .enumerate()
        .map(|(i, sr)| (sr.label.clone(), colours[i % colours.len()].filled()))
        .collect();
    entries.insert(
        1,
        (
            format!("first attempts ({})", first.label),
            colours[0].mix(0.5).filled(),
        ),
    );
    entries.insert(
        2,
        (
            format!("goodput ({})", first.label),
            theme.secondary.filled(),
        ),
    );
    entries.push((
        format!("capacity {}/min", compact(capacity_per_min)),
        theme.muted.filled(),
    ));
    entries.push(("outage".to_string(), theme.alert.mix(0.25).filled()));
    // The panels start below the legend, however many rows it wraps onto.
    let legend = Legend::new(area, entries, &theme, s);
    let legend_height = legend.height;
    let below_legend = (f64::from(height) - legend_height).max(0.0);
    let (upper, lower) = area.split_vertically((legend_height + below_legend * 0.64) as u32);
    let ticks = nice_time_ticks(
        0.0,
        end_s,
        ((f64::from(width) / (s * 90.0)) as usize).max(2),
    );
    let line_width = (1.8 * s).round().max(1.0) as u32;
    let outage = (
        f64::from(first.scenario.outage.0),
        f64::from(first.scenario.outage.0 + first.scenario.outage.1),
    );

    // Upper panel: attempts per minute, on a log axis when the peak dwarfs the capacity.
    let panel = AttemptsPanel {
        series,
        colours: &colours,
        theme: &theme,
        scale: s,
        outage,
        capacity_per_min,
        end_s,
        line_width,
    };
    let mut frame = ChartBuilder::on(&upper);
    frame
        .margin_top(legend_height + 8.0 * s)
        .margin_right(24.0 * s)
        .margin_left(8.0 * s)
        .x_label_area_size(8.0 * s)
        .y_label_area_size(60.0 * s);
    if log {
        let top = peak * 2.0;
        let mut chart = frame
            .build_cartesian_2d(0.0..end_s, (1.0..top).log_scale())
            .map_err(drawing_error)?;
        let titles = [
            "attempts per minute (log)",
            "attempts/min (log)",
            "attempts/min",
        ];
        panel.draw(&mut chart, &titles, 1.0, top)?;
    } else {
        let top = peak * 1.15;
        let mut chart = frame
            .build_cartesian_2d(0.0..end_s, 0.0..top)
            .map_err(drawing_error)?;
        panel.draw(
            &mut chart,
            &["attempts per minute", "attempts/min"],
            0.0,
            top,
        )?;
    }

    // Lower panel: the backlog.
    let mut chart = ChartBuilder::on(&lower)
        .margin_top(6.0 * s)
        .margin_right(24.0 * s)
        .margin_left(8.0 * s)
        .x_label_area_size(28.0 * s)
        .y_label_area_size(60.0 * s)
        .build_cartesian_2d(0.0..end_s, 0.0..backlog_peak * 1.15)
        .map_err(drawing_error)?;
    draw_mesh(&mut chart, &theme, s, &["backlog"], 4, &|v: &f64| {
        compact(*v)
    })?;
    shade(
        &mut chart,
        outage,
        (0.0, backlog_peak * 1.15),
        theme.alert.mix(0.10).filled(),
    )?;
    for (i, sr) in series.iter().enumerate().rev() {
        let colour = colours[i % colours.len()];
        let points: Vec<(f64, f64)> = std::iter::once((0.0, 0.0))
            .chain(
                sr.report
                    .minutes
                    .iter()
                    .map(|m| (f64::from(m.index) * 60.0, m.backlog)),
            )
            .filter(|(x, _)| *x <= end_s)
            .collect();
        if i == 0 {
            fill_under(&mut chart, &points, 0.0, colour.mix(0.18).filled())?;
        }
        chart
            .draw_series(std::iter::once(PathElement::new(
                points,
                colour.stroke_width(line_width),
            )))
            .map_err(drawing_error)?;
    }
    let tick_style = font(11.0, s, theme.muted).pos(Pos::new(HPos::Center, VPos::Top));
    for t in &ticks {
        let (x, y) = chart.backend_coord(&(*t, 0.0));
        // Backend coordinates: draw on the whole area, not the lower panel.
        area.draw(&Text::new(
            format_duration(*t),
            (x, y + (7.0 * s) as i32),
            tick_style.clone(),
        ))
        .map_err(drawing_error)?;
    }

    legend.draw(area)?;
    Ok(())
}

/// The upper panel: attempts (the first series filled, split into first attempts and
/// retries), goodput and capacity, drawn on whichever y axis the caller built.
struct AttemptsPanel<'a> {
    series: &'a [Series<'a>],
    colours: &'a [RGBColor],
    theme: &'a Theme,
    scale: f64,
    outage: (f64, f64),
    capacity_per_min: f64,
    end_s: f64,
    line_width: u32,
}

/// The middle of minute `minute` (1-based), in seconds.
fn minute_x(minute: u32) -> f64 {
    f64::from(minute) * 60.0 - 30.0
}

impl AttemptsPanel<'_> {
    fn draw<DB, Y>(
        &self,
        chart: &mut ChartContext<'_, DB, Cartesian2d<plotters::coord::types::RangedCoordf64, Y>>,
        y_titles: &[&str],
        floor: f64,
        top: f64,
    ) -> Result<(), Error>
    where
        DB: DrawingBackend,
        Y: plotters::coord::ranged1d::Ranged<ValueType = f64>
            + plotters::coord::ranged1d::ValueFormatter<f64>,
    {
        let AttemptsPanel {
            series,
            colours,
            theme,
            scale: s,
            outage,
            capacity_per_min,
            end_s,
            line_width,
        } = *self;
        draw_mesh(chart, theme, s, y_titles, 6, &|v: &f64| compact(*v))?;
        shade(chart, outage, (floor, top), theme.alert.mix(0.10).filled())?;
        for (i, sr) in series.iter().enumerate().rev() {
            let colour = colours[i % colours.len()];
            let visible = sr
                .report
                .minutes
                .iter()
                .filter(|m| minute_x(m.index) <= end_s);
            let points: Vec<(f64, f64)> = visible
                .clone()
                .map(|m| (minute_x(m.index), m.attempts.max(floor)))
                .collect();
            if i == 0 {
                fill_under(chart, &points, floor, colour.mix(0.22).filled())?;
                // First attempts as the lower, darker band of the stack; retries above them.
                let firsts: Vec<(f64, f64)> = visible
                    .clone()
                    .map(|m| (minute_x(m.index), m.first_attempts.max(floor)))
                    .collect();
                fill_under(chart, &firsts, floor, colour.mix(0.5).filled())?;
                let goodput: Vec<(f64, f64)> = visible
                    .map(|m| (minute_x(m.index), m.successes.max(floor)))
                    .collect();
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        goodput,
                        theme.secondary.stroke_width(line_width),
                    )))
                    .map_err(drawing_error)?;
            }
            chart
                .draw_series(std::iter::once(PathElement::new(
                    points,
                    colour.stroke_width(line_width),
                )))
                .map_err(drawing_error)?;
        }
        chart
            .draw_series(std::iter::once(DashedPathElement::new(
                vec![(0.0, capacity_per_min), (end_s, capacity_per_min)],
                6.0 * s,
                4.0 * s,
                theme.muted.stroke_width(line_width),
            )))
            .map_err(drawing_error)?;
        Ok(())
    }
}

/// 12600 → "12.6k", 1800 → "1800", 2500000 → "2.5M".
fn compact(value: f64) -> String {
    if value >= 1e6 {
        format!("{:.1}M", value / 1e6)
    } else if value >= 1e4 {
        format!("{:.1}k", value / 1e3)
    } else {
        format!("{value:.0}")
    }
}

/// The band `x.0..x.1` shaded over the heights `y`.
fn shade<DB, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<plotters::coord::types::RangedCoordf64, Y>>,
    x: (f64, f64),
    y: (f64, f64),
    style: ShapeStyle,
) -> Result<(), Error>
where
    DB: DrawingBackend,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    chart
        .draw_series(std::iter::once(Rectangle::new(
            [(x.0, y.0), (x.1, y.1)],
            style,
        )))
        .map(|_| ())
        .map_err(drawing_error)
}

/// The area between the curve through `points` (from x = 0) and `floor`, filled.
fn fill_under<DB, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<plotters::coord::types::RangedCoordf64, Y>>,
    points: &[(f64, f64)],
    floor: f64,
    style: ShapeStyle,
) -> Result<(), Error>
where
    DB: DrawingBackend,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    let end = points.last().map_or(0.0, |p| p.0);
    let outline: Vec<(f64, f64)> = std::iter::once((0.0, floor))
        .chain(points.iter().copied())
        .chain([(end, floor)])
        .collect();
    chart
        .draw_series(std::iter::once(Polygon::new(outline, style)))
        .map(|_| ())
        .map_err(drawing_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::to_svg;
    use crate::storm::simulate_fluid;

    #[test]
    fn one_and_several_scenarios_draw() {
        let fixed = Scenario::article_fixed();
        let mut spec = *fixed.spec();
        spec.bounds.budget = Some(0.1);
        let budget = Scenario::new(spec).unwrap();
        let (a, b) = (
            simulate_fluid(&fixed, false).unwrap(),
            simulate_fluid(&budget, false).unwrap(),
        );
        let one = [Series {
            label: "fixed 30 s".into(),
            scenario: &fixed,
            report: &a,
        }];
        let two = [
            Series {
                label: "fixed 30 s".into(),
                scenario: &fixed,
                report: &a,
            },
            Series {
                label: "with a 10% budget".into(),
                scenario: &budget,
                report: &b,
            },
        ];
        let single = to_svg((900, 420), |area| {
            draw(area, &one, &ChartOptions::default())
        })
        .unwrap();
        let compare = to_svg((900, 420), |area| {
            draw(area, &two, &ChartOptions::default())
        })
        .unwrap();
        assert!(single.contains("fixed 30 s") && single.contains("capacity 1800"));
        assert!(compare.contains("with a 10% budget"));
        assert!(compare.matches("<polyline").count() > single.matches("<polyline").count());
        assert_eq!(compact(12_600.0), "12.6k");
    }
}
