//! The staleness chart: for outages of every length (a log axis from a minute to past the give-up
//! time), how long after recovery an outage's first event arrives (the sawtooth a schedule
//! makes), how old it is then, the band all its events fall in, where events are exhausted,
//! the tolerance, a compared preset, and the outage to read off.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::{Deserialize, Serialize};

use super::{
    dashed_line, drawing_error, font, frame, line, log_axis_lines, polygon, prepare, shade, stroke,
    tick_count, ChartOptions, Legend, LogPlot, Theme, NICE_SECONDS,
};
use crate::staleness::{OutageAnswer, StalenessReport};
use crate::{format_duration, Error};

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
    /// Under jitter: for each point, the first event's lag at its 95th percentile across the
    /// sampled schedules (empty when exact; `None` where more than 5% of them exhaust it).
    pub first_lag_p95_s: Vec<Option<f64>>,
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

/// Whether the chart's schedule is sampled under jitter (its first event is the median's).
fn sampled(chart: &StalenessChart) -> bool {
    chart.report.method == crate::staleness::Method::Sampled
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

/// `ticks` with the axis' `start` first where no tick is near it: a floor of 250 ms (a schedule of
/// milliseconds) is no round duration, and its "≤" went unsaid, the lag line along an
/// unlabelled floor (outside review).
fn with_start(start: f64, mut ticks: Vec<f64>) -> Vec<f64> {
    if ticks.first().is_none_or(|first| *first > start * 1.5) {
        ticks.insert(0, start);
    }
    ticks
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
    let ((x_start, x_end), (floor, y_end)) = extent(chart);
    let legend = Legend::new(area, legend_entries(chart, &theme, s), &theme, s);
    let top = legend.height + 6.0 * s;
    let (x_labels, y_labels) = (34.0 * s, 64.0 * s);
    // The read-off's sentence takes a band of its own above the plot: written inside it, on a
    // phone's plot it covered the curves.
    // Without room for it the line and its dots are still drawn (a phone's chart lost them
    // all, while its caption read the outage off them: outside review).
    let read = chart.read.as_ref().map(|read| {
        let (width, height) = area.dim_in_pixel();
        let plot = (
            f64::from(width) - y_labels - (super::FRAME_LEFT + super::FRAME_RIGHT) * s,
            f64::from(height) - top - x_labels,
        );
        (read, read_off_lines(area, read, sampled(chart), plot, s))
    });
    let band = read
        .as_ref()
        .and_then(|(_, lines)| lines.as_ref())
        .map_or(0.0, |lines| lines.height);

    let mut plot = frame(area, s, top + band, x_labels, y_labels)
        .build_cartesian_2d((x_start..x_end).log_scale(), (floor..y_end).log_scale())
        .map_err(drawing_error)?;
    log_axis_lines(
        &mut plot,
        (
            "outage length",
            &["lag after recovery / age", "lag / age", "time"],
        ),
        &theme,
        s,
    )?;
    axes(&mut plot, area, &theme, s)?;

    // Outages longer than the give-up time exhaust their first event (under jitter, in more
    // than one schedule in twenty).
    let exhausted_from = chart
        .report
        .longest_delivered_outage_s
        .clamp(x_start, x_end);
    let fill = exhausted_fill(&theme);
    shade(&mut plot, (exhausted_from, x_end), (floor, y_end), fill)?;
    curves(&mut plot, chart, &theme, s)?;
    let references = references(chart, &theme);
    // The tolerance's line last, over the delay's where the two are one level.
    for reference in references.iter().rev() {
        reference_line(&mut plot, reference, s)?;
    }
    if let Some((read, lines)) = read {
        read_off(&mut plot, area, read, lines, &theme, s)?;
    }
    // Over the read-off's line, which crossed their words; each off the labels before it.
    let lines = drawn_lines(&plot, chart);
    let mut taken = Vec::new();
    for reference in &references {
        let label = reference_label(&plot, area, reference, &lines, &taken, &theme, s)?;
        taken.push(label);
    }
    legend.draw(area)
}

/// A level the curves are read against, drawn across the plot and named along it: the
/// tolerance (an event older arrives stale) and the acceptable delay after recovery (a later
/// delivery arrives too late: the lag the suggestion serves).
struct Reference {
    /// The level, seconds.
    value: f64,
    /// Its words while on the axis, and its words past the axis' top.
    on_scale: String,
    off_scale: String,
    colour: RGBColor,
    /// Its dashes and gaps, pixels at scale 1.
    dashes: (f64, f64),
}

/// The chart's [`Reference`]s: the tolerance, then the acceptable delay (given only with one).
fn references(chart: &StalenessChart, theme: &Theme) -> Vec<Reference> {
    let tolerance = chart.report.tolerance_s.map(|t| Reference {
        value: t,
        on_scale: format!("tolerance {}: older arrives stale", format_duration(t)),
        off_scale: format!(
            "tolerance {}, off the scale: every delivery drawn is fresh",
            format_duration(t)
        ),
        colour: theme.alert,
        dashes: (6.0, 4.0),
    });
    // Grey and in longer dashes: the lag's own blue is its curves' (and, dashed, its 95th
    // percentile's) colour.
    let max_lag = chart.report.max_lag_s.map(|r| Reference {
        value: r,
        on_scale: format!("acceptable delay {} after recovery", format_duration(r)),
        off_scale: format!(
            "acceptable delay {}, off the scale: every lag drawn is within it",
            format_duration(r)
        ),
        colour: theme.muted,
        dashes: (12.0, 4.0),
    });
    tolerance.into_iter().chain(max_lag).collect()
}

/// How far above the highest age or lag drawn a tolerance (or an acceptable delay) may lie and
/// still stretch the time axis to it: past that it is drawn on the axis' top, off the scale (a
/// 6 h tolerance beside a schedule that gives up within seconds left the curves in the plot's
/// bottom fifth: outside review).
const ON_SCALE: f64 = 8.0;

/// Both axes' ranges. The outages from the shortest drawn (a minute, or less for a schedule
/// that gives up within ten: see [`crate::staleness::curve_outages`]) to the longest. The
/// times from the same floor (a lag under it, delivered at recovery or soon after, sits on it
/// rather than diving toward zero at every retry) to twice the highest age or lag drawn (or
/// the tolerance or the acceptable delay, unless more than [`ON_SCALE`] times that highest), at
/// least ten times the floor (ten minutes from the usual one-minute floor).
fn extent(chart: &StalenessChart) -> ((f64, f64), (f64, f64)) {
    let first = |curve: &StalenessCurve| curve.points.first().map_or(60.0, |p| p.outage_s);
    let x_start = first(&chart.mine)
        .min(chart.compared.as_ref().map_or(60.0, first))
        .min(60.0);
    let floor = x_start;
    let x_end = chart
        .mine
        .points
        .last()
        .map_or(7_200.0, |p| p.outage_s)
        .max(
            chart
                .compared
                .as_ref()
                .and_then(|c| c.points.last())
                .map_or(0.0, |p| p.outage_s),
        )
        // The outage to read off is on the axis too: past the curves it was drawn at the
        // edge, as if it were the edge's outage.
        .max(chart.read.as_ref().map_or(0.0, |read| read.outage_s));
    let highest = |curve: &StalenessCurve| {
        curve
            .points
            .iter()
            .flat_map(|p| [p.first_event.age_s, p.all_events.age_max_s])
            .flatten()
            .fold(floor, f64::max)
    };
    let drawn_top = highest(&chart.mine).max(chart.compared.as_ref().map_or(0.0, highest));
    let reference = [chart.report.tolerance_s, chart.report.max_lag_s]
        .into_iter()
        .flatten()
        .filter(|t| *t <= drawn_top * ON_SCALE)
        .fold(0.0, f64::max);
    let y_end = (drawn_top.max(reference) * 2.0).max(floor * 10.0);
    ((x_start, x_end), (floor, y_end))
}

/// The first event's lag (its median and 95th percentile under jitter) and age, the band of all
/// events, the compared schedule (when one is) and the exhausted outages.
fn legend_entries(chart: &StalenessChart, theme: &Theme, s: f64) -> Vec<(String, ShapeStyle)> {
    let mut entries = vec![
        (
            "when the first event arrives after recovery".to_string(),
            theme.primary.filled(),
        ),
        ("its age then".to_string(), theme.secondary.filled()),
        (
            "all events' lag: median to latest".to_string(),
            all_events_fill(theme),
        ),
    ];
    if !chart.mine.first_lag_p95_s.is_empty() {
        entries[0].0 = "when the median first event arrives after recovery".to_string();
        entries.insert(
            1,
            (
                "its 95th percentile across schedules".to_string(),
                jitter_line(theme, s),
            ),
        );
    }
    if let Some(compared) = &chart.compared {
        // What its line is, as yours is named: its first event's lag.
        entries.push((
            format!("{}: its first event", compared.label),
            theme.tertiary.filled(),
        ));
    }
    // As the caption says it: under jitter the region starts where at least 5% of the
    // schedules exhaust the first event (the median's curve goes on past it); a schedule giving
    // up past the tolerance exhausts only stale events.
    let exhausted = match (
        sampled(chart),
        chart.report.exhausted_are_stale(sampled(chart)),
    ) {
        // What they are worth outside the brackets: a narrow legend drops what is in them.
        (true, true) => "exhausted in 5%+ of schedules, stale in 95% of them (kept, not dropped)",
        (true, false) => "exhausted in 5%+ of schedules, worth a replay (kept, not dropped)",
        (false, true) => "exhausted, already stale (kept, not dropped)",
        (false, false) => "exhausted, worth a replay (kept, not dropped)",
    };
    entries.push((exhausted.to_string(), exhausted_fill(theme)));
    entries
}

/// The shades the legend names, one function each so that a swatch is what it stands for.
fn all_events_fill(theme: &Theme) -> ShapeStyle {
    theme.primary.mix(0.18).filled()
}

/// The first event's 95th percentile under jitter: a dashed line of the median's colour (a
/// band from the median would overlap the band of all events in a colour no swatch shows).
fn jitter_line(theme: &Theme, s: f64) -> ShapeStyle {
    theme.primary.stroke_width(stroke(1.5, s))
}

fn exhausted_fill(theme: &Theme) -> ShapeStyle {
    theme.alert.mix(0.12).filled()
}

/// Nice durations along both log axes, with a light grid.
fn axes<DB: DrawingBackend>(
    plot: &mut LogPlot<'_, DB>,
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
    s: f64,
) -> Result<(), Error> {
    let (x_start, x_end) = (plot.x_range().start, plot.x_range().end);
    let (floor, y_end) = (plot.y_range().start, plot.y_range().end);
    let grid = theme.grid.stroke_width(stroke(1.0, s));
    let (width, height) = area.dim_in_pixel();
    for t in with_start(
        x_start,
        log_ticks(x_start, x_end, tick_count(f64::from(width), s, 80.0)),
    ) {
        line(plot, vec![(t, floor), (t, y_end)], grid)?;
        let (x, y) = plot.backend_coord(&(t, floor));
        area.draw(&Text::new(
            super::time_tick(t, super::TickUnit::Natural),
            (x, y + (6.0 * s) as i32),
            font(11.0, s, theme.muted).pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(drawing_error)?;
    }
    for t in with_start(
        floor,
        log_ticks(floor, y_end, tick_count(f64::from(height), s, 40.0)),
    ) {
        line(plot, vec![(x_start, t), (x_end, t)], grid)?;
        let (x, y) = plot.backend_coord(&(x_start, t));
        // At or under the floor: a lag of exactly the floor's 1 min is drawn there too (it read
        // "< 1 min").
        let label = if t <= floor {
            format!("≤ {}", super::time_tick(floor, super::TickUnit::Natural))
        } else {
            super::time_tick(t, super::TickUnit::Natural)
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

/// The band of all events, the first event's 95th percentile under jitter, its lag and age, and
/// the compared.
fn curves<DB: DrawingBackend>(
    plot: &mut LogPlot<'_, DB>,
    chart: &StalenessChart,
    theme: &Theme,
    s: f64,
) -> Result<(), Error> {
    bands(plot, &chart.mine, theme, s)?;
    // A time under the axis' floor sits on it.
    let floor = plot.y_range().start;
    let width = stroke(2.0, s);
    let first = |curve: &StalenessCurve, pick: fn(&OutageAnswer) -> Option<f64>| {
        curve
            .points
            .iter()
            .filter_map(|p| pick(p).map(|v| (p.outage_s, v.max(floor))))
            .collect::<Vec<_>>()
    };
    if let Some(compared) = &chart.compared {
        let lag = first(compared, |p| p.first_event.lag_s);
        line(plot, lag, theme.tertiary.stroke_width(width))?;
    }
    let age = first(&chart.mine, |p| p.first_event.age_s);
    line(plot, age, theme.secondary.stroke_width(width))?;
    let lag = first(&chart.mine, |p| p.first_event.lag_s);
    line(plot, lag, theme.primary.stroke_width(width))
}

/// Where all of an outage's events arrive (median to latest, where they are delivered), and
/// under jitter how late its first event arrives at the 95th percentile (a dashed line over
/// each run of outages that has one).
fn bands<DB: DrawingBackend>(
    plot: &mut LogPlot<'_, DB>,
    mine: &StalenessCurve,
    theme: &Theme,
    s: f64,
) -> Result<(), Error> {
    let floor = plot.y_range().start;
    let delivered = |p: &&OutageAnswer| p.all_events.lag_max_s.is_some();
    let band: Vec<(f64, f64)> = mine
        .points
        .iter()
        .filter(delivered)
        .map(|p| (p.outage_s, p.all_events.lag_max_s.unwrap_or(0.0).max(floor)))
        .chain(
            mine.points
                .iter()
                .filter(delivered)
                .rev()
                .map(|p| (p.outage_s, p.all_events.lag_p50_s.unwrap_or(0.0).max(floor))),
        )
        .collect();
    polygon(plot, band, all_events_fill(theme))?;
    let p95: Vec<Option<(f64, f64)>> = mine
        .points
        .iter()
        .zip(&mine.first_lag_p95_s)
        .map(|(p, p95)| p95.map(|p95| (p.outage_s, p95.max(floor))))
        .collect();
    for run in p95.split(Option::is_none).filter(|run| !run.is_empty()) {
        let run = run.iter().flatten().copied().collect();
        dashed_line(plot, run, (6.0 * s, 4.0 * s), jitter_line(theme, s))?;
    }
    Ok(())
}

/// `reference`'s dashed line across the plot. One under the axis' floor (`≤ 1 min`) is drawn
/// on it, as every lag under it is (drawn at its value, its label had been written below the
/// plot, among the outage axis' ticks). One far above every age drawn is drawn on the axis'
/// top (see [`extent`]), its label saying so.
fn reference_line<DB: DrawingBackend>(
    plot: &mut LogPlot<'_, DB>,
    reference: &Reference,
    s: f64,
) -> Result<(), Error> {
    let style = reference.colour.stroke_width(stroke(1.5, s));
    let drawn = reference.drawn(plot);
    let (x_start, x_end) = (plot.x_range().start, plot.x_range().end);
    let (dash, gap) = reference.dashes;
    dashed_line(
        plot,
        vec![(x_start, drawn), (x_end, drawn)],
        (dash * s, gap * s),
        style,
    )
}

impl Reference {
    /// The time its line is drawn at: its value, within the axis.
    fn drawn<DB: DrawingBackend>(&self, plot: &LogPlot<'_, DB>) -> f64 {
        self.value.clamp(plot.y_range().start, plot.y_range().end)
    }
}

/// The first event's lines as drawn ([`curves`]), in pixels: what a label must not cover.
fn drawn_lines<DB: DrawingBackend>(
    plot: &LogPlot<'_, DB>,
    chart: &StalenessChart,
) -> Vec<Vec<(f64, f64)>> {
    let floor = plot.y_range().start;
    let pixels = |curve: &StalenessCurve, pick: fn(&OutageAnswer) -> Option<f64>| {
        (curve.points.iter())
            .filter_map(|p| pick(p).map(|v| plot.backend_coord(&(p.outage_s, v.max(floor)))))
            .map(|(x, y)| (f64::from(x), f64::from(y)))
            .collect()
    };
    let mut lines = vec![
        pixels(&chart.mine, |p| p.first_event.age_s),
        pixels(&chart.mine, |p| p.first_event.lag_s),
    ];
    if let Some(compared) = &chart.compared {
        lines.push(pixels(compared, |p| p.first_event.lag_s));
    }
    lines
}

/// How much of `lines` runs through the box `(left, top, right, bottom)`: the points of each
/// segment, taken every two pixels or so, that fall inside it.
fn covered(lines: &[Vec<(f64, f64)>], (left, top, right, bottom): (f64, f64, f64, f64)) -> usize {
    let inside = |(x, y): (f64, f64)| (left..=right).contains(&x) && (top..=bottom).contains(&y);
    let mut count = 0;
    for line in lines {
        for pair in line.windows(2) {
            let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
            let steps = ((x1 - x0).abs().max((y1 - y0).abs()) / 2.0)
                .ceil()
                .clamp(1.0, 4096.0);
            let steps = steps as usize;
            count += (0..=steps)
                .map(|i| i as f64 / steps as f64)
                .filter(|f| inside((x0 + (x1 - x0) * f, y0 + (y1 - y0) * f)))
                .count();
        }
    }
    count
}

/// A label's box in pixels: `(left, top, right, bottom)`.
type LabelBox = (f64, f64, f64, f64);

/// `reference`'s line named along it: above it at its left, unless that covers more of the
/// first event's `lines` than below it, or at its right end (the tolerance's box hid the age
/// line of Svix's schedule from 5 to 12 min: outside review); never over a label `taken`
/// before it while another place is free. Returns its box.
fn reference_label<DB: DrawingBackend>(
    plot: &LogPlot<'_, DB>,
    area: &DrawingArea<DB, Shift>,
    reference: &Reference,
    lines: &[Vec<(f64, f64)>],
    taken: &[LabelBox],
    theme: &Theme,
    s: f64,
) -> Result<LabelBox, Error> {
    let drawn = reference.drawn(plot);
    let (x_start, x_end) = (plot.x_range().start, plot.x_range().end);
    let (x, y) = plot.backend_coord(&(x_start, drawn));
    let right_end = f64::from(plot.backend_coord(&(x_end, drawn)).0);
    let plot_top = f64::from(plot.backend_coord(&(x_start, plot.y_range().end)).1);
    let plot_bottom = f64::from(plot.backend_coord(&(x_start, plot.y_range().start)).1);
    let text = if reference.value > plot.y_range().end {
        reference.off_scale.clone()
    } else {
        reference.on_scale.clone()
    };
    let style = font(11.0, s, reference.colour).pos(Pos::new(HPos::Left, VPos::Bottom));
    let (width, height) = super::text_size(area, &text, &style);
    let pad = 2.0 * s;
    // Above the line or below it, within the plot (not into the read-off's band); at its left
    // or its right end. The first of the fewest covered, in that order. Where those are all
    // taken (two levels a few pixels apart), stacked on a label taken, above it or below.
    let (above, below) = (f64::from(y) - 4.0 * s, f64::from(y) + 4.0 * s + height);
    let stacked = taken
        .iter()
        .flat_map(|&(_, top, _, bottom)| [top - pad, bottom + height + pad]);
    let bottoms = [above, below]
        .into_iter()
        .map(|b| (false, b))
        .chain(stacked.map(|b| (true, b)))
        .filter(|(_, b)| b - height - pad >= plot_top && b + pad <= plot_bottom);
    let lefts = [f64::from(x) + 6.0 * s, right_end - 6.0 * s - width];
    let candidates: Vec<(bool, (f64, f64))> = bottoms
        .flat_map(|(stacked, bottom)| lefts.map(|left| (stacked, (left, bottom))))
        .collect();
    let boxed = |(left, bottom): (f64, f64)| {
        (
            left - pad,
            bottom - height - pad,
            left + width + pad,
            bottom + pad,
        )
    };
    let overlaps = |(l, t, r, b): LabelBox| {
        taken
            .iter()
            .any(|&(tl, tt, tr, tb)| l < tr && tl < r && t < tb && tt < b)
    };
    let place = candidates
        .iter()
        .copied()
        .min_by_key(|&(stacked, at)| (overlaps(boxed(at)), stacked, covered(lines, boxed(at))))
        .map_or((lefts[0], below), |(_, at)| at);
    let label = boxed(place);
    // Words over words read as neither: a label with no free place is left out (two levels
    // on one line on a phone's plot).
    if overlaps(label) {
        return Ok(label);
    }
    // On the page's background, as the read-off: on the floor the curves start under it.
    area.draw(&Rectangle::new(
        [
            (label.0 as i32, label.1 as i32),
            (label.2 as i32, label.3 as i32),
        ],
        theme.background.mix(0.85).filled(),
    ))
    .map_err(drawing_error)?;
    let (left, bottom) = place;
    area.draw(&Text::new(text, (left as i32, bottom as i32), style))
        .map_err(drawing_error)?;
    Ok(label)
}

/// The read-off's sentence as drawn: its lines, the widest line's width and the band they take
/// above the plot.
struct ReadOffLines {
    lines: Vec<String>,
    width: f64,
    line_height: f64,
    height: f64,
}

/// The read-off's font.
fn read_off_style(theme_text: RGBColor, s: f64) -> TextStyle<'static> {
    font(12.0, s, theme_text).pos(Pos::new(HPos::Left, VPos::Top))
}

/// The read-off outage's sentence in as many lines as the plot's width (`plot`: its width and
/// height before the band) needs: in the longer wording only where it takes one line, in the
/// shorter one where its band is at most a third of the plot's height, in none when it would
/// take more (the line, its dots and the caption still say it).
fn read_off_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    read: &OutageAnswer,
    sampled: bool,
    (plot_width, plot_height): (f64, f64),
    s: f64,
) -> Option<ReadOffLines> {
    // Under jitter the first event read off is the median schedule's, as the caption says.
    let median = if sampled { "median " } else { "" };
    let outage = crate::duration::format_precise(read.outage_s);
    let wordings = match (read.first_event.lag_s, read.first_event.age_s) {
        (Some(lag), Some(age)) => {
            let (lag, age) = (format_duration(lag), format_duration(age));
            [
                format!(
                    "{} outage: the {median}first event arrives {lag} after recovery, {age} old",
                    crate::duration::with_article(&outage)
                ),
                format!("{outage} outage: {median}first event {lag} late, {age} old"),
            ]
        }
        _ => [
            format!(
                "{} outage: its {median}first event is exhausted",
                crate::duration::with_article(&outage)
            ),
            format!("{outage} outage: {median}first event exhausted"),
        ],
    };
    // The colour does not change the size.
    let style = read_off_style(BLACK, s);
    let gap = 6.0 * s;
    let [longer, shorter] =
        wordings.map(|text| super::wrapped(area, &text, &style, plot_width - 2.0 * gap));
    let lines = if longer.len() == 1 { longer } else { shorter };
    let (width, line_height) = lines.iter().fold((0.0, 0.0), |(w, h), line| {
        let (lw, lh) = super::text_size(area, line, &style);
        (f64::max(w, lw), f64::max(h, lh + 2.0 * s))
    });
    // The lines, a gap above them (off the legend) and one below (off the plot).
    let height = lines.len() as f64 * line_height + gap + 4.0 * s;
    (height <= (plot_height - height) / 3.0).then_some(ReadOffLines {
        lines,
        width,
        line_height,
        height,
    })
}

/// The outage to read off: a line across, its first event's lag and age marked, and its
/// sentence (where there was room for it) in the band above the plot, beside the line on the
/// side with more room.
fn read_off<DB: DrawingBackend>(
    plot: &mut LogPlot<'_, DB>,
    area: &DrawingArea<DB, Shift>,
    read: &OutageAnswer,
    sentence: Option<ReadOffLines>,
    theme: &Theme,
    s: f64,
) -> Result<(), Error> {
    let x = read.outage_s;
    let (floor, top) = (plot.y_range().start, plot.y_range().end);
    let style = theme.text.stroke_width(stroke(1.0, s));
    dashed_line(plot, vec![(x, floor), (x, top)], (3.0 * s, 3.0 * s), style)?;
    if let (Some(lag), Some(age)) = (read.first_event.lag_s, read.first_event.age_s) {
        for (value, colour) in [(lag, theme.primary), (age, theme.secondary)] {
            plot.draw_series(std::iter::once(Circle::new(
                (x, value.max(floor)),
                (4.0 * s) as i32,
                colour.filled(),
            )))
            .map_err(drawing_error)?;
        }
    }
    let Some(sentence) = sentence else {
        return Ok(());
    };
    let (px, py) = plot.backend_coord(&(x, top));
    let (px, gap) = (f64::from(px), 6.0 * s);
    let x_range = plot.x_range();
    let (plot_left, plot_right) = (
        f64::from(plot.backend_coord(&(x_range.start, top)).0),
        f64::from(plot.backend_coord(&(x_range.end, top)).0),
    );
    let width = sentence.width;
    let left = if px > (plot_left + plot_right) * 0.55 {
        px - gap - width
    } else {
        px + gap
    };
    let left = left.min(plot_right - width - gap).max(plot_left + gap);
    let line_height = sentence.line_height;
    let band_top = f64::from(py) - gap - sentence.lines.len() as f64 * line_height;
    let style = read_off_style(theme.text, s);
    for (row, line) in sentence.lines.into_iter().enumerate() {
        let y = band_top + row as f64 * line_height;
        area.draw(&Text::new(line, (left as i32, y as i32), style.clone()))
            .map_err(drawing_error)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::{svg_read, to_svg};
    use crate::page::{staleness_chart, Settings};

    /// `chart` drawn as SVG at `size` with the default options.
    fn svg_of(chart: &StalenessChart, size: (u32, u32)) -> String {
        to_svg(size, |area| draw(area, chart, &ChartOptions::default())).unwrap()
    }

    /// The highest point (least y) of the lines drawn in `svg` that reach below `y`: the plot's
    /// lines, not the legend's samples above them.
    fn highest_line_reaching_below(svg: &str, y: f64) -> f64 {
        crate::chart::svg_read::polylines(svg)
            .iter()
            .map(|line| line.points.iter().map(|p| p.1))
            .filter(|ys| ys.clone().fold(0.0, f64::max) > y)
            .flatten()
            .fold(f64::INFINITY, f64::min)
    }

    use crate::chart::theme::contrast;

    /// On a dark page the "exhausted" swatch (a faint orange like the region it names) was
    /// next to invisible: it is the region's own shade, outlined in a colour that stands out
    /// from the page (3:1, the contrast asked of graphics).
    #[test]
    fn the_exhausted_swatch_is_the_regions_shade_and_visible() {
        for dark in [false, true] {
            let mut settings = Settings::default();
            settings.set("mode", "none");
            let chart = staleness_chart(&settings).unwrap();
            let options = ChartOptions {
                dark,
                ..ChartOptions::default()
            };
            let svg = to_svg((900, 400), |area| draw(area, &chart, &options)).unwrap();
            let theme = Theme::new(dark);
            // The article's schedule gives up (24 h 02 min) past the 6 h tolerance: what it
            // exhausts is stale already, as the caption says.
            let label = crate::chart::svg_read::labels(&svg)
                .into_iter()
                .find(|l| l.text == "exhausted, already stale (kept, not dropped)")
                .unwrap();
            let rects = crate::chart::svg_read::rects(&svg);
            // The swatch: left of its words, on their line.
            let beside = |r: &&crate::chart::svg_read::Rect| {
                r.rect.2 <= label.rect.0
                    && r.rect.2 > label.rect.0 - 8.0
                    && r.rect.3 > label.rect.1
                    && r.rect.1 < label.rect.3
            };
            let swatch: Vec<_> = rects.iter().filter(beside).collect();
            let alert = crate::chart::svg_read::hex(theme.alert);
            let region = rects
                .iter()
                .find(|r| r.fill == alert && r.rect.3 - r.rect.1 > 100.0)
                .expect("the exhausted region");
            assert!(
                swatch
                    .iter()
                    .any(|s| s.fill == region.fill && s.opacity == region.opacity),
                "dark {dark}: {swatch:?} against {region:?}"
            );
            assert!(
                swatch.iter().any(|s| s.stroke == alert),
                "dark {dark}: outlined in {alert}: {swatch:?}"
            );
            assert!(
                contrast(theme.alert, theme.background) >= 3.0,
                "dark {dark}"
            );
        }
    }

    /// Under jitter the first event's 95th percentile is a dashed line of its median's colour,
    /// never below the median and above it somewhere; no second band blends with the band of
    /// all events into a colour no swatch shows. Exact, neither the line nor its legend entry.
    #[test]
    fn the_first_events_95th_percentile_is_a_dashed_line_above_its_median() {
        use crate::chart::svg_read::{hex, labels, polylines};
        let primary = hex(Theme::new(false).primary);
        for mode in ["full", "none"] {
            let mut settings = Settings::default();
            settings.set("mode", mode);
            let chart = staleness_chart(&settings).unwrap();
            let svg = svg_of(&chart, (900, 400));
            let named = labels(&svg)
                .iter()
                .any(|l| l.text == "its 95th percentile across schedules");
            assert_eq!(named, mode == "full", "{mode}");
            assert_eq!(svg.matches("<polygon").count(), 1, "{mode}: one band");
            let mut lines = polylines(&svg);
            lines.retain(|l| l.stroke == primary);
            lines.sort_by_key(|l| std::cmp::Reverse(l.points.len()));
            let (median, dashes) = lines.split_first().unwrap();
            if mode == "none" {
                assert!(dashes.is_empty(), "{dashes:?}");
                continue;
            }
            // The median's y (pixels, downwards) at x, where the line reaches x.
            let median_at = |x: f64| {
                median.points.windows(2).find_map(|w| {
                    let ((x0, y0), (x1, y1)) = (w[0], w[1]);
                    (x0 <= x && x <= x1 && x1 > x0).then(|| y0 + (y1 - y0) * (x - x0) / (x1 - x0))
                })
            };
            let gaps: Vec<f64> = dashes
                .iter()
                .flat_map(|d| d.points.iter())
                .filter_map(|&(x, y)| median_at(x).map(|m| m - y))
                .collect();
            assert!(gaps.len() > 40, "dashes along the median: {}", gaps.len());
            assert!(
                gaps.iter().all(|g| *g >= -1.0),
                "below the median: {gaps:?}"
            );
            let mean = gaps.iter().sum::<f64>() / gaps.len() as f64;
            assert!(
                mean > 5.0,
                "the 95th percentile above the median: {mean} px"
            );
        }
    }

    /// An outage to read off past the curves widens the outage axis to it (100 days was drawn
    /// at the 48 h edge, as if it were 48 h); within them the axis ends where they end.
    /// The read-off covered a small figure's plot: it takes the shorter wording there, and
    /// none where even that would cover more than a third of the plot.
    /// On a phone's plot the read-off was written over the tolerance's label, the two showing
    /// through each other: it goes below it instead.
    #[test]
    fn the_read_off_keeps_off_the_tolerances_label() {
        let mut settings = Settings::default();
        settings.set("read-outage", "4h");
        let chart = staleness_chart(&settings).unwrap();
        // Without the rule, 57 of 612 sizes from 240 × 160 to 900 × 500 had them overlap.
        for width in (240..=900).step_by(20) {
            for height in (160..=500).step_by(20) {
                let svg = svg_of(&chart, (width, height));
                let labels = crate::chart::svg_read::labels(&svg);
                let Some(tolerance) = labels.iter().find(|l| l.text.starts_with("tolerance"))
                else {
                    continue;
                };
                let read_off = labels
                    .iter()
                    .filter(|l| !l.text.starts_with("tolerance"))
                    .filter(|l| l.text.contains("outage:") || l.text.ends_with(" old"));
                for read in read_off {
                    assert!(
                        !read.overlaps(tolerance),
                        "{width} × {height}: {:?}",
                        read.text
                    );
                }
            }
        }
    }

    /// The read-off's sentence is written in a band above the plot: inside it, on a phone's
    /// plot it covered the curves and the 95th percentile's line (outside docs review, 360 px).
    /// No line drawn (the curves, the tolerance, the read-off's own line) reaches into it.
    /// The tolerance's words are drawn over everything in the plot, the read-off's line and
    /// dots included (the line crossed "stale" on a phone: outside product review).
    #[test]
    fn the_tolerance_is_named_over_the_read_off() {
        let mut settings = Settings::default();
        settings.set("mode", "none");
        settings.set("read-outage", "2h");
        let svg = svg_of(&staleness_chart(&settings).unwrap(), (390, 300));
        let label = svg
            .find("tolerance 6 h: older")
            .expect("the tolerance's label");
        let last_dot = svg.rfind("<circle").expect("the read-off's dots");
        assert!(label > last_dot, "the label is drawn before the read-off");
    }

    /// The tolerance's label goes where it covers least of the first event's lines: at its
    /// left, above its line, its box hid Svix's age line (at 35 min) from 5 to 12 min outages
    /// (outside review). Of the age line's points in the label's box, at most a few remain (on a
    /// phone's plot every place covers some).
    #[test]
    fn the_tolerances_label_leaves_the_first_events_lines_in_view() {
        let mut settings = Settings::default();
        for (key, value) in [
            ("preset", "svix"),
            ("tolerance", "30m"),
            ("read-outage", "1h"),
        ] {
            settings.set(key, value);
        }
        let chart = staleness_chart(&settings).unwrap();
        let age = svg_read::hex(Theme::new(false).secondary);
        for size in [(900, 320), (600, 300)] {
            let svg = svg_of(&chart, size);
            let labels = svg_read::labels(&svg);
            let label = labels
                .iter()
                .find(|l| l.text.starts_with("tolerance 30 min"))
                .expect("the tolerance's label");
            let (left, top, right, bottom) = label.rect;
            let hidden = svg_read::polylines(&svg)
                .iter()
                .filter(|line| line.stroke == age)
                .flat_map(|line| line.points.clone())
                .filter(|&(x, y)| (left..=right).contains(&x) && (top..=bottom).contains(&y))
                .count();
            assert!(
                hidden <= 2,
                "{size:?}: {hidden} points of the age line under the label"
            );
        }
    }

    /// A tolerance at the top of the plot wrote its label above the plot, into the read-off's
    /// band: it goes under its line there (outside diff review).
    #[test]
    fn a_tolerance_at_the_top_keeps_its_label_in_the_plot() {
        let mut settings = Settings::default();
        settings.set("mode", "none");
        settings.set("gaps", "10ms");
        settings.set("attempts", "5");
        settings.set("tolerance", "365d");
        settings.set("read-outage", "20ms");
        let chart = staleness_chart(&settings).unwrap();
        let svg = svg_of(&chart, (360, 240));
        let labels = crate::chart::svg_read::labels(&svg);
        let find = |start: &str| labels.iter().find(|l| l.text.starts_with(start));
        let tolerance = find("tolerance 365 days").expect("the tolerance's label");
        let read = find("20 ms outage").expect("the read-off");
        // The plot's top: where the highest line below the read-off's band starts (its own
        // dashed line runs the plot's height).
        let plot_top = highest_line_reaching_below(&svg, read.rect.3);
        assert!(
            tolerance.rect.1 >= plot_top && tolerance.rect.1 >= read.rect.3,
            "the tolerance's label {:?} rises above the plot's top ({plot_top}), toward the \
             read-off's {:?}",
            tolerance.rect,
            read.rect
        );
    }

    #[test]
    fn the_read_off_sentence_is_above_every_line() {
        let mut settings = Settings::default();
        settings.set("read-outage", "4h");
        settings.set("samples", "500");
        let chart = staleness_chart(&settings).unwrap();
        let mut drawn = 0;
        for (width, height) in [(360, 300), (360, 420), (480, 320), (700, 350), (900, 420)] {
            let svg = svg_of(&chart, (width, height));
            let labels = crate::chart::svg_read::labels(&svg);
            let Some(first) = labels.iter().position(|l| l.text.contains("outage: ")) else {
                continue;
            };
            drawn += 1;
            let last = first
                + labels[first..]
                    .iter()
                    .position(|l| l.text.ends_with(" old"))
                    .unwrap();
            let (top, bottom) = labels[first..=last]
                .iter()
                .fold((f64::INFINITY, 0.0), |(t, b), l| {
                    (f64::min(t, l.rect.1), f64::max(b, l.rect.3))
                });
            let highest = highest_line_reaching_below(&svg, top);
            assert!(
                bottom <= highest,
                "{width} × {height}: the sentence ends at {bottom}, a line reaches {highest}"
            );
        }
        assert_eq!(drawn, 5, "the sentence is drawn at every size");
    }

    /// A 6 h tolerance beside a schedule that gives up within seconds stretched the time axis
    /// to 12 h, its curves in the plot's bottom fifth: it is drawn on the axis' top, saying it
    /// is off the scale. One within reach of the ages drawn still sets the axis.
    #[test]
    fn a_tolerance_far_above_every_age_is_drawn_off_the_scale() {
        let mut settings = Settings::default();
        for (key, value) in [("mode", "none"), ("gaps", "1s,2s,4s"), ("attempts", "4")] {
            settings.set(key, value);
        }
        // It gives up at 7 s: no event drawn is older than 14 s.
        for (tolerance, label, tick) in [
            (
                "6h",
                "tolerance 6 h, off the scale: every delivery drawn is fresh",
                None,
            ),
            ("30s", "tolerance 30 s: older arrives stale", Some("30 s")),
        ] {
            settings.set("tolerance", tolerance);
            let chart = staleness_chart(&settings).unwrap();
            let labels = crate::chart::svg_read::labels(&svg_of(&chart, (900, 560)));
            assert!(
                labels.iter().any(|l| l.text == label),
                "{tolerance}: no label {label:?}"
            );
            // The time axis' ticks: right of its title, left of the plot.
            let ticks: Vec<&str> = (labels.iter())
                .filter(|l| l.rect.0 > 20.0 && l.rect.2 < 70.0)
                .map(|l| l.text.as_str())
                .collect();
            match tick {
                Some(tick) => assert!(ticks.contains(&tick), "{tolerance}: ticks {ticks:?}"),
                None => assert!(
                    ticks
                        .iter()
                        .all(|t| t.ends_with(" s") || t.ends_with(" ms")),
                    "{tolerance}: the time axis reaches past a minute: {ticks:?}"
                ),
            }
        }
    }

    /// The acceptable delay after recovery (`max-lag`) served the findings but was not drawn:
    /// it is a line at its level, named there, beside the tolerance's; without a tolerance it
    /// applies to nothing and is neither in the report nor drawn.
    #[test]
    fn the_acceptable_delay_is_drawn_at_its_level() {
        let mut settings = Settings::default();
        settings.set("mode", "none");
        let chart = staleness_chart(&settings).unwrap();
        assert_eq!(chart.report.max_lag_s, Some(3_600.0));
        let labels = crate::chart::svg_read::labels(&svg_of(&chart, (900, 520)));
        let delay = (labels.iter())
            .find(|l| l.text == "acceptable delay 1 h after recovery")
            .expect("the delay's label");
        // The time axis' tick, left of the plot (the outage axis has one too).
        let tick = (labels.iter())
            .find(|l| l.text == "1 h" && l.rect.2 < 70.0)
            .expect("the 1 h tick");
        // Named just above or just below its line, which runs through the tick's middle.
        let line = (tick.rect.1 + tick.rect.3) / 2.0;
        let off = (line - delay.rect.3).max(delay.rect.1 - line);
        assert!(
            (0.0..12.0).contains(&off),
            "the label {:?} is not along the line at {line}",
            delay.rect
        );
        settings.set("tolerance", "");
        let chart = staleness_chart(&settings).unwrap();
        assert_eq!(chart.report.max_lag_s, None);
        let svg = svg_of(&chart, (900, 520));
        assert!(!svg.contains("acceptable delay"));
    }

    /// The tolerance and the acceptable delay at one level, or near, are each named where the
    /// other's words are not, on a phone's plot too.
    #[test]
    fn the_tolerance_and_the_delay_are_named_apart() {
        for (tolerance, max_lag) in [("6h", "6h"), ("2h", "2h"), ("1h", "80min"), ("6h", "1h")] {
            let mut settings = Settings::default();
            settings.set("tolerance", tolerance);
            settings.set("max-lag", max_lag);
            let chart = staleness_chart(&settings).unwrap();
            for size in [(390, 420), (900, 520)] {
                let labels = crate::chart::svg_read::labels(&svg_of(&chart, size));
                let find = |start: &str| {
                    labels
                        .iter()
                        .find(|l| l.text.starts_with(start))
                        .unwrap_or_else(|| panic!("{tolerance}, {max_lag}, {size:?}: no {start}"))
                };
                let (t, r) = (find("tolerance "), find("acceptable delay "));
                assert!(
                    !t.overlaps(r),
                    "{tolerance}, {max_lag}, {size:?}: {:?} over {:?}",
                    t.rect,
                    r.rect
                );
            }
        }
    }

    /// A floor that is no round duration (a schedule of milliseconds starts its axes at 200
    /// ms) went unlabelled, the lag line running along it: both axes name where they start.
    #[test]
    fn both_axes_name_their_start() {
        let mut settings = Settings::default();
        for (key, value) in [("mode", "none"), ("gaps", "5ms,20ms,100ms,250ms")] {
            settings.set(key, value);
        }
        let chart = staleness_chart(&settings).unwrap();
        let ((x_start, _), (floor, _)) = extent(&chart);
        assert!(!NICE_SECONDS.contains(&floor), "{floor}");
        let labels = crate::chart::svg_read::labels(&svg_of(&chart, (700, 400)));
        let tick = super::super::time_tick(floor, super::super::TickUnit::Natural);
        assert!(
            labels.iter().any(|l| l.text == format!("≤ {tick}")),
            "no floor label"
        );
        let start = super::super::time_tick(x_start, super::super::TickUnit::Natural);
        assert!(labels.iter().any(|l| l.text == start), "no start label");
    }

    /// A tolerance under the lag axis' floor (`≤ 1 min`) was drawn below the plot, its label
    /// among the outage axis' ticks: it is drawn on the floor, its label above the ticks.
    #[test]
    fn a_tolerance_under_the_floor_is_drawn_on_it() {
        let mut settings = Settings::default();
        settings.set("tolerance", "1s");
        let chart = staleness_chart(&settings).unwrap();
        let svg = svg_of(&chart, (800, 400));
        let labels = crate::chart::svg_read::labels(&svg);
        let find = |start: &str| labels.iter().find(|l| l.text.starts_with(start)).unwrap();
        let (tolerance, tick) = (find("tolerance 1 s"), find("1 min"));
        assert!(
            tolerance.rect.3 <= tick.rect.1,
            "{:?} is not above the tick {:?}",
            tolerance.rect,
            tick.rect
        );
    }

    #[test]
    fn the_read_off_takes_the_wording_that_fits() {
        let mut settings = Settings::default();
        settings.set("mode", "none");
        settings.set("read-outage", "4h");
        let chart = staleness_chart(&settings).unwrap();
        // The read-off's first line.
        let read_off = |size| {
            let svg = svg_of(&chart, size);
            crate::chart::svg_read::labels(&svg)
                .into_iter()
                .map(|l| l.text)
                .find(|t| t.starts_with("a 4 h outage") || t.starts_with("4 h outage"))
                .unwrap_or_default()
        };
        assert!(read_off((900, 400)).starts_with("a 4 h outage: the first event arrives"));
        assert!(read_off((360, 300)).starts_with("4 h outage: first event"));
        assert_eq!(read_off((280, 180)), "");
        // Without its sentence the read-off's line and its two dots are still drawn.
        let circles = |size| svg_of(&chart, size).matches("<circle").count();
        assert_eq!(circles((280, 180)), circles((900, 400)));
        assert!(circles((280, 180)) >= 2);
        // Under jitter the first event is the median schedule's, and the exhausted region
        // where 5% of the schedules exhaust it, as the caption says (the chart dropped both).
        let mut jittered = Settings::default();
        jittered.set("mode", "full");
        jittered.set("samples", "500");
        jittered.set("read-outage", "4h");
        let chart = staleness_chart(&jittered).unwrap();
        let svg = svg_of(&chart, (900, 400));
        let labels: Vec<String> = (crate::chart::svg_read::labels(&svg).into_iter())
            .map(|l| l.text)
            .collect();
        assert!(
            labels
                .iter()
                .any(|t| t.starts_with("a 4 h outage: the median first event arrives")),
            "{labels:?}"
        );
        // The default 6 h tolerance: 95% of the schedules give up after it, so their exhausted
        // events are already stale (the legend said "kept for a replay", outside product
        // review); a 2-day tolerance leaves them worth one.
        let legend_at = |settings: &Settings, size| {
            let svg = svg_of(&staleness_chart(settings).unwrap(), size);
            (crate::chart::svg_read::labels(&svg).into_iter())
                .map(|l| l.text)
                .find(|t| t.starts_with("exhausted"))
        };
        let legend = |settings: &Settings| legend_at(settings, (900, 400));
        assert_eq!(
            legend(&jittered).as_deref(),
            Some("exhausted in 5%+ of schedules, stale in 95% of them (kept, not dropped)")
        );
        // A phone's legend drops what is in brackets, and keeps what the events are worth (it
        // read "exhausted in 5%+ of schedules" alone).
        assert_eq!(
            legend_at(&jittered, (300, 360)).as_deref(),
            Some("exhausted in 5%+ of schedules, stale in 95% of them")
        );
        jittered.set("tolerance", "48h");
        assert_eq!(
            legend(&jittered).as_deref(),
            Some("exhausted in 5%+ of schedules, worth a replay (kept, not dropped)")
        );
    }

    #[test]
    fn the_outage_axis_reaches_the_outage_to_read_off() {
        let mut settings = Settings::default();
        settings.set("mode", "none");
        settings.set("read-outage", "100d");
        let chart = staleness_chart(&settings).unwrap();
        assert_eq!(super::extent(&chart).0 .1, 100.0 * 86_400.0);
        settings.set("read-outage", "4h");
        let chart = staleness_chart(&settings).unwrap();
        // Twice the article schedule's give-up time (24 h 02 min).
        assert_eq!(super::extent(&chart).0 .1, 2.0 * 86_520.0);
    }

    /// A schedule that gives up within a minute (AWS SNS's, at 60 s) was drawn from a 1 min
    /// outage: every outage exhausted, no curve. Its outages start at a tenth of its give-up
    /// time, rounded down (5 s), and so do the times (a lag under 5 s sits on the floor); the
    /// article's schedule still starts at a minute.
    #[test]
    fn a_schedule_giving_up_within_a_minute_is_drawn_from_shorter_outages() {
        let settings = crate::page::resolve(crate::page::decode_hash("preset=aws-sns")).settings;
        let chart = staleness_chart(&settings).unwrap();
        assert!(
            (59.0..=61.0).contains(&chart.mine.give_up_s),
            "{}",
            chart.mine.give_up_s
        );
        assert_eq!(super::extent(&chart).0 .0, 5.0);
        assert_eq!(super::extent(&chart).1 .0, 5.0);
        let delivered = (chart.mine.points.iter())
            .filter(|p| p.first_event.lag_s.is_some())
            .count();
        assert!(
            delivered >= 20,
            "{delivered} outages with a first event delivered"
        );
        let svg = svg_of(&chart, (800, 400));
        let labels = crate::chart::svg_read::labels(&svg);
        for tick in ["≤ 5 s", "5 s", "15 s"] {
            assert!(labels.iter().any(|l| l.text == tick), "{tick}: {labels:?}");
        }
        let article = staleness_chart(&Settings::default()).unwrap();
        assert_eq!(super::extent(&article).0 .0, 60.0);
        assert_eq!(super::extent(&article).1 .0, 60.0);
    }

    /// The read-off outage's sentence stays inside the chart, whichever side of its line it
    /// goes on, down to a narrow column (where it once ran off the left edge): in as many
    /// lines as it needs, every word drawn.
    #[test]
    fn the_read_off_sentence_stays_inside_the_chart() {
        for (outage, width) in [
            ("4h", 360),
            ("4h", 900),
            ("2m", 360),
            ("47h", 360),
            ("47h", 900),
            ("100d", 900),
        ] {
            let mut settings = Settings::default();
            settings.set("mode", "none");
            settings.set("read-outage", outage);
            let chart = staleness_chart(&settings).unwrap();
            let svg = svg_of(&chart, (width, 400));
            let first = svg[..svg.find("outage: ").unwrap()].rfind("<text").unwrap();
            // The time axis's tick labels end (right-aligned) left of the plot, where the
            // sentence once ran over "12 h" in a narrow column.
            let axis_labels_end = svg
                .split("<text x=\"")
                .skip(1)
                .filter(|element| element.contains("text-anchor=\"end\""))
                .filter_map(|element| element.split('"').next()?.parse::<f64>().ok())
                .fold(0.0, f64::max);
            assert!(axis_labels_end > 0.0, "the time axis's labels");
            let mut sentence = Vec::new();
            for element in svg[first..].split("<text").skip(1) {
                let line = element
                    [element.find('>').unwrap() + 1..element.find("</text>").unwrap()]
                    .trim();
                let x: f64 = element[" x=\"".len()..]
                    .split('"')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                let mut line_width = 0.0;
                to_svg((width, 400), |area| {
                    line_width = crate::chart::text_size(area, line, &font(12.0, 1.0, BLACK)).0;
                    Ok(())
                })
                .unwrap();
                assert!(
                    x > axis_labels_end && x + line_width <= f64::from(width),
                    "{outage} at {width} px: {x} + {line_width} for {line:?} (axis labels end \
                     at {axis_labels_end})"
                );
                sentence.push(line.to_string());
                if line.ends_with(" old") || line.ends_with("exhausted") {
                    break;
                }
            }
            // The longer wording only where it takes one line, as at 900 px.
            let lines = sentence.len();
            let sentence = sentence.join(" ");
            let longer = sentence.starts_with("a ") || sentence.starts_with("an ");
            assert!(longer || width < 900, "{outage} at {width} px: {sentence}");
            assert!(!longer || lines == 1, "{outage} at {width} px: {sentence}");
            assert!(sentence.contains(" outage: "), "{sentence}");
            assert!(
                sentence.ends_with(" old") || sentence.ends_with("exhausted"),
                "{sentence}"
            );
        }
    }
}
