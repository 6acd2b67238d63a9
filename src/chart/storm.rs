//! The storm chart: attempts per minute (first attempts and retries) against the destination's
//! capacity, with goodput, and the backlog below; the outage shaded. Further scenarios (a
//! comparison) are drawn as lines over the first.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{
    dashed_line, draw_mesh, drawing_error, font, frame, line, nice_time_ticks, polygon, prepare,
    shade, stroke, tick_count, time_axis_title, time_labels, ChartOptions, Legend, Theme,
    TimeChart, TIME_AXIS_ROOM,
};
use crate::storm::{Drain, Interval, Scenario, StormReport};
use crate::Error;

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
    let (outage_start, outage_length) = first.scenario.outage;
    let (capacity_shown, rate_limit_per_min) = attempts_reach(series);
    let panels = Panels {
        series,
        colours: &colours,
        theme: &theme,
        scale: s,
        outage: (
            f64::from(outage_start),
            f64::from(outage_start + outage_length),
        ),
        capacity_per_min: first.scenario.capacity_per_s * 60.0,
        capacity_shown,
        rate_limit_per_min,
        start_s: start_s(series, end_s(series)),
        end_s: end_s(series),
        line_width: stroke(1.8, s),
    };
    // The panels start below the legend, however many rows it wraps onto.
    // A phone's chart keeps the capacity's legend short: a line more would take its panels.
    let wide = f64::from(area.dim_in_pixel().0) / s >= 480.0;
    let legend = Legend::new(area, panels.legend_entries(wide), &theme, s);
    let below_legend = (f64::from(area.dim_in_pixel().1) - legend.height).max(0.0);
    // The backlog panel gets a third of that, and in a squat chart room for two labels
    // (its time axis and two 11 px labels apart), up to half.
    let lower_height = (below_legend * 0.36)
        .max(BACKLOG_PANEL_LEAST * s)
        .min(below_legend * 0.5);
    let split = legend.height + below_legend - lower_height;
    let (upper, lower) = area.split_vertically(split as u32);
    panels.attempts(&upper, legend.height)?;
    panels.backlog(area, &lower)?;
    legend.draw(area)
}

/// The least height of the backlog panel, unscaled pixels: its titled time axis and two 11 px
/// labels apart.
const BACKLOG_PANEL_LEAST: f64 = TIME_AXIS_ROOM + 38.0;

/// How many times the busiest minute's attempts the capacity may be and still be drawn on the
/// attempts' axis (and how many times the capacity the busiest minute may be on a linear one).
const CAPACITY_ON_SCALE: f64 = 12.0;

/// What the attempts' axis reaches besides the attempts: whether the capacity line, unless it
/// is more than [`CAPACITY_ON_SCALE`] times every series' busiest minute (a destination taking
/// 1,800 a minute under one delivery an hour drew the storm as flat lines at zero: outside
/// product review; the legend then says it is above the axis); and the first series' rate
/// limit per minute, where it is near enough what is drawn (at most 1.5× the higher): a limit
/// far above both would flatten the storm into the axis' foot.
fn attempts_reach(series: &[Series<'_>]) -> (bool, Option<f64>) {
    let Some(first) = series.first() else {
        return (true, None);
    };
    let busiest = series
        .iter()
        .flat_map(|sr| sr.report.minutes.iter().map(|m| m.attempts))
        .fold(0.0, f64::max);
    let capacity = first.scenario.capacity_per_s * 60.0;
    let capacity_shown = busiest == 0.0 || capacity <= CAPACITY_ON_SCALE * busiest;
    let highest = if capacity_shown {
        busiest.max(capacity)
    } else {
        busiest
    };
    let limit = (first.scenario.bounds.rate_limit_per_s)
        .map(|per_s| per_s * 60.0)
        .filter(|limit| *limit <= 1.5 * highest);
    (capacity_shown, limit)
}

/// How much further than your policy's a comparison's end may take the time axis: past that it
/// runs off the axis, said in its legend entry ([`past_the_axis`]). A comparison draining after
/// 36 h squeezed your policy's storm of 3 h into the axis' first twelfth (outside review).
const COMPARISON_STRETCH: f64 = 3.0;

/// Where a series wants the time axis to end: past its drain (or twice the end of its outage)
/// and its peak minute.
fn series_end_s(sr: &Series<'_>) -> f64 {
    let summary = &sr.report.summary;
    let drained = summary.drained_at_s.unwrap_or(summary.horizon_s);
    // The peak the caption names is on the chart: without an outage (drained at 0) a storm
    // peaking in minute 8,334 drew its first ten minutes (outside SRE review).
    let peak_end = f64::from(summary.peak_minute) * 60.0;
    (f64::from(drained).max(peak_end) * 1.15)
        .max(f64::from(sr.scenario.outage.0 + sr.scenario.outage.1) * 2.0)
}

/// Where the time axis ends: where your policy (the first series) wants it, or a comparison up
/// to [`COMPARISON_STRETCH`] times that; at least ten minutes, at most the longest horizon
/// simulated.
fn end_s(series: &[Series<'_>]) -> f64 {
    let Some(first) = series.first() else {
        return 600.0;
    };
    let yours = series_end_s(first);
    series
        .iter()
        .map(series_end_s)
        .filter(|&end| end <= COMPARISON_STRETCH * yours)
        .fold(600.0, f64::max)
        .min(
            series
                .iter()
                .map(|sr| f64::from(sr.report.summary.horizon_s))
                .fold(60.0, f64::max),
        )
}

/// What a comparison's legend entry adds when its storm goes on past the time axis' end (at
/// `end_s`): how its backlog ends, or that it does not within its simulation, timed as the
/// caption times it (after recovery, or after the start without an outage) and said as the
/// caption says it: "drains at 4 h 20 min" beside a caption's "never drains by delivery … gone 4 h
/// 10 min after recovery" read as two answers (outside product review).
fn past_the_axis(sr: &Series<'_>, end_s: f64) -> Option<String> {
    let summary = &sr.report.summary;
    let simulated = f64::from(summary.horizon_s);
    let format = crate::duration::format_duration;
    // What is past the axis, if anything: the drain (or the simulation's end undrained), else,
    // without an outage (drained at once, at second 0), the peak minute (its end), which can
    // come hours later. A series whose wanted end is past the axis only by its margin has
    // nothing past it ("peaks in minute 120, past the axis" of a peak drawn: outside review).
    if summary.drained_at_s.map_or(simulated, f64::from) <= end_s {
        return (f64::from(summary.peak_minute) * 60.0 > end_s).then(|| {
            format!(
                "peaks in minute {}, past the axis",
                crate::number_text::format_count(f64::from(summary.peak_minute))
            )
        });
    }
    let outage_s = sr.scenario.outage.1;
    let after = |after_s: f64| {
        let from = if outage_s > 0 {
            "recovery"
        } else {
            "the start"
        };
        format!("{} after {from}", format(after_s))
    };
    let ending = match Drain::of(summary, outage_s) {
        Drain::ByDelivery(after_s) => format!("drains {}", after(after_s)),
        Drain::NoOutage => format!(
            "drains {}",
            after(summary.after_recovery_s(summary.drained_at_s?))
        ),
        Drain::NeverCatchesUp => "never catches up, mostly exhausted".to_string(),
        Drain::ByExhaustion(after_s) => format!("gone by exhaustion {}", after(after_s)),
        Drain::MostExhaustedInOutage(after_s) => {
            format!("mostly exhausted, the rest drains {}", after(after_s))
        }
        Drain::PartlyByExhaustion(after_s) => {
            format!("gone {}, partly by exhaustion", after(after_s))
        }
        Drain::AllExhaustedInOutage => "every delivery exhausted in the outage".to_string(),
        _ => format!(
            "not drained {}",
            after(simulated - f64::from(summary.outage_end_s))
        ),
    };
    Some(format!("{ending}, past the axis"))
}

/// Where the time axis starts: at 0, unless a long outage would leave what follows it a
/// sliver (a 3-day outage whose backlog drained in 40 min drew the drain in the last 3 px of the
/// axis: outside review). The axis then starts a whole minute at or before three times the
/// recovery's length before the outage's end, so that the recovery takes a quarter of it, and
/// never after the start of a series' peak minute, which the caption names; a start within the
/// first tenth of the axis stays at 0.
fn start_s(series: &[Series<'_>], end_s: f64) -> f64 {
    let Some(first) = series.first() else {
        return 0.0;
    };
    let (start, length) = first.scenario.outage;
    let recovery = f64::from(start + length);
    let from = recovery - 3.0 * (end_s - recovery);
    let peaks = series
        .iter()
        .map(|sr| f64::from(sr.report.summary.peak_minute.saturating_sub(1)) * 60.0)
        .fold(f64::INFINITY, f64::min);
    let from = (from.min(peaks) / 60.0).floor() * 60.0;
    if from < 0.1 * end_s {
        0.0
    } else {
        from
    }
}

/// The value of the line through `points` (in rising x) at `x`: interpolated between the points
/// either side, else the nearest one's, else `fallback`.
fn value_at(points: &[(f64, f64)], x: f64, fallback: f64) -> f64 {
    let after = points.partition_point(|p| p.0 <= x);
    match (after.checked_sub(1).map(|i| points[i]), points.get(after)) {
        (Some((x0, y0)), Some(&(x1, y1))) => y0 + (y1 - y0) * (x - x0) / (x1 - x0),
        (Some((_, y)), None) | (None, Some(&(_, y))) => y,
        (None, None) => fallback,
    }
}

/// What both panels draw from: the series and their colours, the first series' outage and
/// capacity, and the time axis.
struct Panels<'a> {
    series: &'a [Series<'a>],
    colours: &'a [RGBColor],
    theme: &'a Theme,
    scale: f64,
    outage: (f64, f64),
    capacity_per_min: f64,
    /// Whether the capacity line is on the attempts' axis ([`attempts_reach`]).
    capacity_shown: bool,
    /// The first series' rate limit on all attempts, when it has one near the attempts.
    rate_limit_per_min: Option<f64>,
    /// The time axis, seconds ([`start_s`], [`end_s`]).
    start_s: f64,
    end_s: f64,
    line_width: u32,
}

/// The first series' attempts are filled at this strength under its line.
const SERIES_FILL: f64 = 0.22;

/// The first attempts' band is the series' colour at this strength over the series' fill: it
/// stands out from the background at 3:1 in both themes (WCAG 1.4.11; at a half it was 2.6:1 in
/// the light theme, an outside review found).
const FIRST_ATTEMPTS_STRENGTH: f64 = 0.65;

/// The outage's shade in both panels, and its swatch (outlined by the legend, being faint).
fn outage_fill(theme: &Theme) -> ShapeStyle {
    theme.alert.mix(0.10).filled()
}

/// The middle of minute `minute` (1-based), in seconds.
fn minute_x(minute: u32) -> f64 {
    f64::from(minute) * 60.0 - 30.0
}

impl Panels<'_> {
    /// The series' lines in drawing order, each with its style: your policy first and wider,
    /// then the comparisons over it, the last first. A comparison that runs with your policy
    /// (AWS's retry quota holds fixed 30 s to the same attempts) shows along the middle of its
    /// line, where drawn under it, it was a legend entry with no line.
    fn series_order(&self) -> Vec<(usize, ShapeStyle)> {
        let wider = self.line_width + stroke(1.6, self.scale);
        let comparisons = (1..self.series.len()).rev();
        std::iter::once(0)
            .chain(comparisons)
            .map(|i| {
                let width = if i == 0 { wider } else { self.line_width };
                (i, self.colour(i).stroke_width(width))
            })
            .collect()
    }

    /// The capacity per minute, where it is drawn on the attempts' axis.
    fn shown_capacity(&self) -> Option<f64> {
        self.capacity_shown.then_some(self.capacity_per_min)
    }

    fn colour(&self, series: usize) -> RGBColor {
        self.colours[series % self.colours.len()]
    }

    /// Each series, then the first one's first attempts and goodput, the capacity (with its rate
    /// a second when `wide`), the outage.
    fn legend_entries(&self, wide: bool) -> Vec<(String, ShapeStyle)> {
        let (first, theme) = (&self.series[0], self.theme);
        let mut entries: Vec<(String, ShapeStyle)> = self
            .series
            .iter()
            .enumerate()
            .map(|(i, sr)| {
                let label = match past_the_axis(sr, self.end_s).filter(|_| i > 0) {
                    Some(past) => format!("{} ({past})", sr.label),
                    None => sr.label.clone(),
                };
                (label, self.colour(i).filled())
            })
            .collect();
        entries.insert(
            1,
            (
                format!("first attempts ({})", first.label),
                self.first_attempts_colour().filled(),
            ),
        );
        entries.insert(
            2,
            (
                format!("goodput ({})", first.label),
                theme.secondary.filled(),
            ),
        );
        if !self.exhausted_line().is_empty() {
            entries.insert(
                3,
                (
                    format!("exhausted so far ({})", first.label),
                    self.exhausted_style(),
                ),
            );
        }
        let capacity = capacity_label(self.capacity_per_min, wide);
        entries.push((
            if self.capacity_shown {
                capacity
            } else {
                format!("{capacity}, above the axis")
            },
            theme.muted.filled(),
        ));
        entries.push((self.outage_label(), outage_fill(theme)));
        entries
    }

    /// "outage", with when it began where that is before the axis' start (a long outage's axis
    /// starts near its end: its shade from the left edge alone did not say it began earlier).
    fn outage_label(&self) -> String {
        if self.outage.0 < self.start_s {
            format!(
                "outage (from {})",
                crate::duration::format_duration(self.outage.0)
            )
        } else {
            "outage".to_string()
        }
    }

    /// The first attempts' band, opaque: as it shows over the series' own fill (the series'
    /// colour at [`FIRST_ATTEMPTS_STRENGTH`] over its fill), so that its swatch is the colour
    /// on the chart.
    fn first_attempts_colour(&self) -> RGBColor {
        let colour = self.colour(0);
        let under = Theme::over(self.theme.background, colour, SERIES_FILL);
        Theme::over(under, colour, FIRST_ATTEMPTS_STRENGTH)
    }

    /// The upper panel: attempts per minute, on a log axis when the peak dwarfs the capacity.
    fn attempts<DB: DrawingBackend>(
        &self,
        upper: &DrawingArea<DB, Shift>,
        legend_height: f64,
    ) -> Result<(), Error> {
        let s = self.scale;
        let peak = self
            .series
            .iter()
            .flat_map(|sr| sr.report.minutes.iter().map(|m| m.attempts))
            .fold(self.shown_capacity().unwrap_or(0.0), f64::max)
            .max(self.rate_limit_per_min.unwrap_or(0.0));
        let mut builder = frame(upper, s, legend_height + 8.0 * s, 8.0 * s, 60.0 * s);
        if peak > CAPACITY_ON_SCALE * self.capacity_per_min {
            let top = peak * 2.0;
            let mut chart = builder
                .build_cartesian_2d(self.start_s..self.end_s, (1.0..top).log_scale())
                .map_err(drawing_error)?;
            let titles = [
                "attempts per minute (log)",
                "attempts/min (log)",
                "attempts/min",
            ];
            self.attempts_on(&mut chart, &titles, 1.0, top)
        } else {
            let top = peak * 1.15;
            let mut chart = builder
                .build_cartesian_2d(self.start_s..self.end_s, 0.0..top)
                .map_err(drawing_error)?;
            let titles = ["attempts per minute", "attempts/min"];
            self.attempts_on(&mut chart, &titles, 0.0, top)
        }
    }

    /// Attempts (the first series filled, split into first attempts and retries), goodput and
    /// capacity, drawn on whichever y axis the caller built.
    fn attempts_on<DB, Y>(
        &self,
        chart: &mut TimeChart<'_, DB, Y>,
        y_titles: &[&str],
        floor: f64,
        top: f64,
    ) -> Result<(), Error>
    where
        DB: DrawingBackend,
        Y: plotters::coord::ranged1d::Ranged<ValueType = f64>
            + plotters::coord::ranged1d::ValueFormatter<f64>,
    {
        let (theme, s) = (self.theme, self.scale);
        // On the log axis a minute of no attempts (or goodput) is drawn on its floor of 1: the
        // tick there reads "≤ 1", as the staleness chart's floor does, not "1".
        draw_mesh(chart, theme, s, y_titles, 6, &|v: &f64| {
            if floor > 0.0 && *v <= floor {
                format!("≤ {}", axis_count(*v))
            } else {
                axis_count(*v)
            }
        })?;
        shade(chart, self.outage, (floor, top), outage_fill(theme))?;
        // The first series' fills under every series' line: its opaque band of first attempts
        // would hide a comparison's line below it.
        // Every line, each with its dashes if it has any: the first series' goodput, the series
        // (see [`Panels::series_order`]), the capacity dashed and a rate limit dotted.
        let mut lines: Vec<StyledLine> = Vec::new();
        if let Some(first) = self.series.first() {
            let points = self.per_minute(first, |m| m.attempts, floor);
            self.stack(chart, &points, floor)?;
            let goodput = self.per_minute(first, |m| m.successes, floor);
            lines.push((goodput, theme.secondary.stroke_width(self.line_width), None));
        }
        for (i, style) in self.series_order() {
            let points = self.per_minute(&self.series[i], |m| m.attempts, floor);
            lines.push((points, style, None));
        }
        let level = |y: f64| vec![(self.start_s, y), (self.end_s, y)];
        let grey = theme.muted.stroke_width(self.line_width);
        if let Some(capacity) = self.shown_capacity() {
            lines.push((level(capacity), grey, Some((6.0 * s, 4.0 * s))));
        }
        // The rate limit, when there is one, dotted, and named at its right end: attempts never
        // rise above it. Named on the line, not in the legend, where its swatch read as the
        // capacity's, and every other colour is a series' or the goodput's.
        if let Some(limit) = self.rate_limit_per_min {
            lines.push((level(limit), grey, Some((2.0 * s, 3.0 * s))));
        }
        // Each line on a band of the background, every band before every line: over the opaque
        // band of first attempts the capacity's grey read at 1.9:1 and the goodput's green at
        // 1.4:1 (outside review), and a band drawn after a line (a rate limit's over attempts
        // held at it) would hide it.
        let halo = theme
            .background
            .mix(0.8)
            .stroke_width(self.line_width + stroke(2.0, s));
        for (points, _, _) in &lines {
            line(chart, points.clone(), halo)?;
        }
        for (points, style, dashes) in lines {
            match dashes {
                Some(dashes) => dashed_line(chart, points, dashes, style)?,
                None => line(chart, points, style)?,
            }
        }
        let Some(limit) = self.rate_limit_per_min else {
            return Ok(());
        };
        let label = format!("rate limit {}/min", compact(limit));
        let font = font(11.0, s, theme.muted).pos(Pos::new(HPos::Right, VPos::Bottom));
        let offset = (-(4.0 * s) as i32, -(3.0 * s) as i32);
        chart
            .draw_series(std::iter::once(
                EmptyElement::at((self.end_s, limit)) + Text::new(label, offset, font),
            ))
            .map(|_| ())
            .map_err(drawing_error)
    }

    /// The first series' attempts filled, its first attempts as the lower, darker band of the
    /// stack (retries above them).
    fn stack<DB, Y>(
        &self,
        chart: &mut TimeChart<'_, DB, Y>,
        attempts: &[(f64, f64)],
        floor: f64,
    ) -> Result<(), Error>
    where
        DB: DrawingBackend,
        Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
    {
        let colour = self.colour(0);
        fill_under(chart, attempts, floor, colour.mix(SERIES_FILL).filled())?;
        let Some(first) = self.series.first() else {
            return Ok(());
        };
        let firsts = self.per_minute(first, |m| m.first_attempts, floor);
        fill_under(chart, &firsts, floor, self.first_attempts_colour().filled())
    }

    /// `value` in each minute of `series` on the time axis, at its middle, at least `floor`;
    /// the first minute's from the start, and carried on to the axis' end (or to the end of the
    /// last minute simulated, if sooner). Drawn from the middles alone, a filled area rose from
    /// nothing over the first half minute and fell to nothing half a minute before the edge, as
    /// if the traffic had stopped.
    fn per_minute(
        &self,
        series: &Series<'_>,
        value: fn(&Interval) -> f64,
        floor: f64,
    ) -> Vec<(f64, f64)> {
        let minutes = &series.report.minutes;
        let points: Vec<(f64, f64)> = minutes
            .iter()
            .map(|m| (minute_x(m.index), value(m).max(floor)))
            .collect();
        let Some(&(_, first)) = points.first() else {
            return Vec::new();
        };
        let simulated = minutes.last().map_or(0.0, |m| f64::from(m.index) * 60.0);
        let edge = self.end_s.min(simulated);
        let from = points.partition_point(|p| p.0 <= self.start_s);
        let inside = points.partition_point(|p| p.0 <= edge).max(from);
        std::iter::once((self.start_s, value_at(&points, self.start_s, first)))
            .chain(points[from..inside].iter().copied())
            .chain([(edge, value_at(&points, edge, first))])
            .collect()
    }

    /// Your policy's deliveries exhausted so far, minute by minute along the time axis; empty
    /// where they stay under half a delivery, or under 2% of its backlog's peak (a line along
    /// the axis' foot). A backlog gone by exhaustion mid-outage (a 3-day outage's, after a
    /// day) looked like a recovery beside a caption saying none was delivered (outside
    /// product review).
    fn exhausted_line(&self) -> Vec<(f64, f64)> {
        let minutes = &self.series[0].report.minutes;
        let within = |m: &&Interval| {
            let x = f64::from(m.index) * 60.0;
            x > self.start_s && x <= self.end_s
        };
        let peak = |value: fn(&Interval) -> f64| {
            minutes.iter().filter(within).map(value).fold(0.0, f64::max)
        };
        if peak(|m| m.exhausted) < (0.02 * peak(|m| m.backlog)).max(0.5) {
            return Vec::new();
        }
        self.levels(&self.series[0], |m| m.exhausted)
    }

    /// `value` at the end of each minute of `series` on the time axis (a level, as the backlog
    /// and the deliveries exhausted so far are: none at the start), from the axis' start.
    fn levels(&self, series: &Series<'_>, value: fn(&Interval) -> f64) -> Vec<(f64, f64)> {
        let all: Vec<(f64, f64)> = std::iter::once((0.0, 0.0))
            .chain((series.report.minutes.iter()).map(|m| (f64::from(m.index) * 60.0, value(m))))
            .collect();
        std::iter::once((self.start_s, value_at(&all, self.start_s, 0.0)))
            .chain(
                all.into_iter()
                    .filter(|(x, _)| *x > self.start_s && *x <= self.end_s),
            )
            .collect()
    }

    /// The exhausted line's style: your policy's colour, its line's width, dashed.
    fn exhausted_style(&self) -> ShapeStyle {
        self.colour(0).stroke_width(self.line_width)
    }

    /// The lower panel: the backlog, with the time axis' labels under it.
    fn backlog<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        lower: &DrawingArea<DB, Shift>,
    ) -> Result<(), Error> {
        let s = self.scale;
        // Of the minutes on the axis: a long outage's earlier backlog would flatten the rest.
        let backlog_peak = self
            .series
            .iter()
            .flat_map(|sr| sr.report.minutes.iter())
            .filter(|m| f64::from(m.index) * 60.0 >= self.start_s)
            .map(|m| m.backlog)
            .fold(0.0, f64::max);
        let exhausted = self.exhausted_line();
        let exhausted_peak = exhausted.iter().map(|(_, e)| *e).fold(0.0, f64::max);
        // At least 4: a backlog of at most one had ticks at 0, 0.5 and 1, written "0, 1, 1".
        let top = (backlog_peak.max(exhausted_peak) * 1.15).max(4.0);
        // A squat chart's panel keeps its room for two labels: its axis goes untitled.
        let titled = f64::from(lower.dim_in_pixel().1) >= BACKLOG_PANEL_LEAST * s;
        let axis_room = if titled { TIME_AXIS_ROOM } else { 28.0 };
        let mut chart = frame(lower, s, 6.0 * s, axis_room * s, 60.0 * s)
            .build_cartesian_2d(self.start_s..self.end_s, 0.0..top)
            .map_err(drawing_error)?;
        // The exhausted line shares the axis, and can set its scale (every delivery, where the
        // backlog peaked at a third of them): the title names both.
        let titles: &[&str] = if exhausted.is_empty() {
            &["backlog"]
        } else {
            &["backlog, exhausted", "backlog"]
        };
        draw_mesh(&mut chart, self.theme, s, titles, 4, &|v: &f64| {
            axis_count(*v)
        })?;
        shade(&mut chart, self.outage, (0.0, top), outage_fill(self.theme))?;
        for (i, style) in self.series_order() {
            let points = self.levels(&self.series[i], |m| m.backlog);
            if i == 0 {
                fill_under(&mut chart, &points, 0.0, self.colour(0).mix(0.18).filled())?;
            }
            line(&mut chart, points, style)?;
        }
        if !exhausted.is_empty() {
            dashed_line(
                &mut chart,
                exhausted,
                (6.0 * s, 4.0 * s),
                self.exhausted_style(),
            )?;
        }
        // Backend coordinates: the labels go on the whole area, not the lower panel.
        let width = f64::from(area.dim_in_pixel().0);
        let ticks = nice_time_ticks(self.start_s, self.end_s, tick_count(width, s, 90.0));
        time_labels(area, &chart, &ticks, self.theme, s, false)?;
        if titled {
            let titles = [
                "time from the start of the simulation",
                "time from the start",
            ];
            time_axis_title(area, &chart, &titles, self.theme, s)?;
        }
        Ok(())
    }
}

/// An axis' count: in thousands from 1,000 on (`1k`, `1.5k`, `100k`), as the ticks beside it
/// read (`1,000` under `10k` mixed two forms on one axis).
fn axis_count(value: f64) -> String {
    // Under ten, two significant digits: an axis fitted to under one attempt a minute read
    // "0, 0, 0", and one to 3.45 read "0, 1, 1, 2" for steps of a half.
    if value.abs() < 10.0 {
        let text = crate::number_text::significant(value, 2);
        return crate::number_text::without_trailing_zeros(&text).to_string();
    }
    let value = value.round();
    if (1e3..1e4).contains(&value) {
        let text = format!("{:.1}", value / 1e3);
        format!("{}k", crate::number_text::without_trailing_zeros(&text))
    } else {
        compact(value)
    }
}

/// The capacity line's legend on the per-minute axis, with the rate a second as a destination's
/// capacity is usually given (the page's field read "30/s" beside a legend's "1,800/min"), where
/// it is a whole number and the chart is `wide`: "capacity 30/s = 1,800/min".
fn capacity_label(per_min: f64, wide: bool) -> String {
    let per_s = per_min / 60.0;
    if wide && per_s >= 1.0 && per_s == per_s.round() {
        format!("capacity {}/s = {}/min", compact(per_s), compact(per_min))
    } else {
        format!("capacity {}/min", compact(per_min))
    }
}

/// 12600 → "12.6k", 1800 → "1,800", 2500000 → "2.5M", 100000 → "100k" (a tick at a round
/// number reads as one, not "100.0k").
fn compact(value: f64) -> String {
    let short = |scaled: f64, unit: &str| {
        let text = format!("{scaled:.1}");
        format!("{}{unit}", text.strip_suffix(".0").unwrap_or(&text))
    };
    // Rounded first: 9999.6 is "10k", not "10,000" beside a tick of 10000 that reads "10k".
    let value = value.round();
    if value >= 1e6 {
        short(value / 1e6, "M")
    } else if value >= 1e4 {
        short(value / 1e3, "k")
    } else {
        crate::number_text::format_count(value)
    }
}

/// A line's points, its style, and its dash and gap in pixels if it is dashed.
type StyledLine = (Vec<(f64, f64)>, ShapeStyle, Option<(f64, f64)>);

/// The area between the curve through `points` (from x = 0) and `floor`, filled.
fn fill_under<DB, Y>(
    chart: &mut TimeChart<'_, DB, Y>,
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
    polygon(chart, outline, style)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::{svg_read, to_svg};
    use crate::storm::simulate_fluid;

    /// The capacity line says its rate a second, as the field gives it, where that is whole and
    /// the chart is not a phone's.
    #[test]
    fn the_capacity_legend_gives_the_rate_a_second_too() {
        assert_eq!(capacity_label(1_800.0, true), "capacity 30/s = 1,800/min");
        assert_eq!(capacity_label(25_200.0, true), "capacity 420/s = 25.2k/min");
        assert_eq!(capacity_label(1_000.0, true), "capacity 1,000/min");
        assert_eq!(capacity_label(30.0, true), "capacity 30/min");
        assert_eq!(capacity_label(1_800.0, false), "capacity 1,800/min");
    }

    /// `look` at the storm of `spec` alone (fluid engine), labelled as the article's fixed
    /// interval.
    fn with_one_storm<T>(spec: crate::storm::Spec, look: impl FnOnce(&[Series<'_>]) -> T) -> T {
        let scenario = Scenario::new(spec).unwrap();
        let report = simulate_fluid(&scenario, false).unwrap();
        let one = [Series {
            label: "fixed 30 s".into(),
            scenario: &scenario,
            report: &report,
        }];
        look(&one)
    }

    /// A destination of 1,800 a minute under one delivery an hour: the attempts' axis fitted
    /// the capacity, drawing the storm as flat lines at zero. It fits the attempts, and the
    /// legend says the capacity is above it; the article's storm keeps its capacity line.
    #[test]
    fn a_capacity_far_above_the_attempts_is_left_above_the_axis() {
        let ticks_of = |svg: &str| -> Vec<f64> {
            // The attempts' and the backlog's axes: numbers left of their panels.
            crate::chart::svg_read::labels(svg)
                .into_iter()
                .filter(|l| l.rect.2 < 70.0)
                .filter_map(|l| {
                    let text = l.text.trim_start_matches("≤ ").replace(',', "");
                    match text.strip_suffix('k') {
                        Some(k) => k.parse::<f64>().ok().map(|k| k * 1e3),
                        None => text.parse().ok(),
                    }
                })
                .collect()
        };
        let tiny = crate::storm::Spec {
            arrivals_per_s: 1.0 / 3_600.0,
            ..crate::storm::Spec::article_fixed()
        };
        let svg = one_storm_svg(tiny, &ChartOptions::default());
        assert!(svg.contains("capacity 30/s = 1,800/min, above the axis"));
        let ticks = ticks_of(&svg);
        let highest = ticks.iter().copied().fold(0.0, f64::max);
        assert!(highest > 0.0 && highest < 100.0, "ticks {ticks:?}");
        let article = one_storm_svg(crate::storm::Spec::article_fixed(), &Default::default());
        let capacity = crate::chart::svg_read::labels(&article)
            .into_iter()
            .find(|l| l.text.starts_with("capacity"))
            .map(|l| l.text);
        assert_eq!(capacity.as_deref(), Some("capacity 30/s = 1,800/min"));
        assert!(ticks_of(&article).iter().any(|t| *t >= 1_800.0));
    }

    /// A comparison that drains long after your policy's storm runs off the axis, and says so
    /// in its legend, rather than squeezing your storm into the axis' first few pixels (a
    /// comparison draining after 36 h drew a 3 h storm in the first twelfth: outside review);
    /// one draining within three times your policy's end stretches the axis to show it whole.
    #[test]
    fn a_comparison_far_slower_than_your_policy_runs_off_the_axis() {
        let yours = Scenario::new(crate::storm::Spec {
            capacity_per_s: 1_000.0,
            ..crate::storm::Spec::article_fixed()
        })
        .unwrap();
        // Slower by a capacity at which the fixed interval collapses, or by a longer outage
        // (twice its end is where a storm's axis ends at the least).
        let storm = |capacity_per_s: f64, outage_s: u32| {
            let scenario = Scenario::new(crate::storm::Spec {
                capacity_per_s,
                outage: (0, outage_s),
                ..crate::storm::Spec::article_fixed()
            })
            .unwrap();
            let report = simulate_fluid(&scenario, false).unwrap();
            (scenario, report)
        };
        let your_report = simulate_fluid(&yours, false).unwrap();
        let your_end = series_end_s(&Series {
            label: "yours".into(),
            scenario: &yours,
            report: &your_report,
        });
        for (capacity, outage_s, runs_off) in [(30.0, 600, true), (1_000.0, 1_500, false)] {
            let (scenario, report) = storm(capacity, outage_s);
            let series = [
                Series {
                    label: "yours".into(),
                    scenario: &yours,
                    report: &your_report,
                },
                Series {
                    label: "slower".into(),
                    scenario: &scenario,
                    report: &report,
                },
            ];
            let (end, theirs) = (end_s(&series), series_end_s(&series[1]));
            let past = past_the_axis(&series[1], end);
            if runs_off {
                assert!(theirs > 3.0 * your_end, "{theirs} {your_end}");
                assert_eq!(end, your_end.max(600.0));
                let drained = report.summary.drained_at_s.unwrap();
                // As the caption says it: gone by exhaustion, to the end of the second it
                // drains in, from recovery.
                let after = crate::duration::format_duration(f64::from(drained + 1 - outage_s));
                let said = format!("gone by exhaustion {after} after recovery, past the axis");
                assert!(
                    report.caption.contains(&format!(
                        "never drains by delivery: goodput collapses, and the backlog is gone \
                         {after} after recovery because deliveries ran out of attempts"
                    )),
                    "{}",
                    report.caption
                );
                assert_eq!(past.as_deref(), Some(said.as_str()));
                let svg = to_svg((900, 420), |area| {
                    draw(area, &series, &ChartOptions::default())
                })
                .unwrap();
                assert!(svg.contains(&format!("slower ({said})")), "{said}");
            } else {
                assert!(
                    theirs > your_end && theirs <= 3.0 * your_end,
                    "{theirs} {your_end}"
                );
                assert_eq!(end, theirs.max(600.0));
                assert_eq!(past, None);
            }
        }
    }

    /// A backlog gone by exhaustion looked like a recovery: your policy's exhausted deliveries
    /// are a dashed line of its colour in the backlog panel, named in the legend; a storm that
    /// drains by delivery has neither.
    #[test]
    fn a_backlog_gone_by_exhaustion_is_drawn_as_exhausted() {
        use crate::chart::svg_read::{hex, labels, polylines};
        let primary = hex(Theme::new(false).primary);
        for (capacity_per_s, exhausts) in [(30.0, true), (1_000.0, false)] {
            let spec = crate::storm::Spec {
                capacity_per_s,
                ..crate::storm::Spec::article_fixed()
            };
            with_one_storm(spec, |one| {
                let exhausted = one[0].report.summary.exhausted;
                assert_eq!(exhausted > 1_000.0, exhausts, "{exhausted}");
                let svg =
                    to_svg((900, 420), |area| draw(area, one, &ChartOptions::default())).unwrap();
                let named = labels(&svg)
                    .iter()
                    .any(|l| l.text == "exhausted so far (fixed 30 s)");
                assert_eq!(named, exhausts, "{capacity_per_s}/s");
                // The lines of its colour in the lower panel (below 300 px of 420): the
                // backlog's, and the exhausted line's dashes.
                let lines = polylines(&svg)
                    .iter()
                    .filter(|l| l.stroke == primary)
                    .filter(|l| l.points.iter().all(|(_, y)| *y > 300.0))
                    .count();
                assert_eq!(lines > 20, exhausts, "{capacity_per_s}/s: {lines} lines");
            });
        }
    }

    /// A series whose drain and peak are drawn has nothing past the axis, though the end it
    /// wants (1.15 times its drain) is: "peaks in minute 120, past the axis" was said of a peak
    /// and a drain both drawn (outside review). An axis short of its drain says it.
    #[test]
    fn only_what_runs_off_the_axis_is_said_past_it() {
        let spec = crate::storm::Spec {
            capacity_per_s: 1_000.0,
            ..crate::storm::Spec::article_fixed()
        };
        with_one_storm(spec, |one| {
            let summary = &one[0].report.summary;
            let drained = f64::from(summary.drained_at_s.unwrap());
            let drawn = drained.max(f64::from(summary.peak_minute) * 60.0) + 1.0;
            assert!(series_end_s(&one[0]) > drawn, "the margin is past the axis");
            assert_eq!(past_the_axis(&one[0], drawn), None);
            let short = past_the_axis(&one[0], drained - 1.0).unwrap();
            assert!(
                short.starts_with("drains ") && short.ends_with(" after recovery, past the axis"),
                "{short}"
            );
        });
    }

    /// The storm of `spec` alone, 900 × 420, labelled as the article's fixed interval.
    fn one_storm_svg(spec: crate::storm::Spec, options: &ChartOptions) -> String {
        with_one_storm(spec, |one| {
            to_svg((900, 420), |area| draw(area, one, options)).unwrap()
        })
    }

    /// A 3-day paused outage whose backlog drains in minutes: the axis starts near its end, so
    /// that the recovery takes a quarter of it (it was the last 3 px of an axis from 0), with
    /// the peak minute on it; the article's 10-minute outage keeps its axis from 0.
    #[test]
    fn a_long_outage_leaves_its_recovery_a_quarter_of_the_axis() {
        let spec = crate::storm::Spec {
            outage: (0, 3 * 86_400),
            bounds: crate::storm::Bounds {
                pause: true,
                budget: Some(0.05),
                ..crate::storm::Bounds::default()
            },
            ..crate::storm::Spec::article_fixed()
        };
        with_one_storm(spec, |one| {
            let (start, end) = (start_s(one, end_s(one)), end_s(one));
            let recovery = 3.0 * 86_400.0;
            assert!(start > 0.5 * recovery, "{start} of {end}");
            assert!((end - recovery) / (end - start) >= 0.25, "{start}..{end}");
            assert_eq!(start % 60.0, 0.0);
            let peak = f64::from(one[0].report.summary.peak_minute - 1) * 60.0;
            assert!(
                start <= peak,
                "the peak minute at {peak} is on the axis from {start}"
            );
        });
        // Its ticks read the time since the start of the traffic, from the axis' start.
        let svg = one_storm_svg(spec, &ChartOptions::default());
        let texts: Vec<String> = svg_read::labels(&svg).into_iter().map(|l| l.text).collect();
        assert!(
            texts.iter().any(|t| t == "72 h"),
            "the outage's end: {texts:?}"
        );
        assert!(texts.iter().any(|t| t == "70 h"), "{texts:?}");
        assert!(!texts.iter().any(|t| t == "0 s"), "no tick at 0: {texts:?}");
        assert!(
            texts.iter().any(|t| t == "outage (from 0 s)"),
            "the legend says the outage began before the axis: {texts:?}"
        );
        let article = article_fixed_svg(&ChartOptions::default());
        assert!(svg_read::labels(&article)
            .iter()
            .any(|l| l.text == "outage"));
        let article = with_one_storm(crate::storm::Spec::article_fixed(), |one| {
            start_s(one, end_s(one))
        });
        assert_eq!(article, 0.0);
    }

    /// The article's fixed-interval storm alone, 900 × 420.
    fn article_fixed_svg(options: &ChartOptions) -> String {
        one_storm_svg(*Scenario::article_fixed().spec(), options)
    }

    /// A rate limit was in the caption but not on the chart (outside page review): it is a
    /// dotted line named at its end; one far above the storm is left off the axis.
    #[test]
    fn a_rate_limit_is_drawn_as_a_dotted_line_named_at_its_end() {
        let drawn = |limit_per_s: f64| {
            let mut spec = *Scenario::article_fixed().spec();
            spec.bounds.rate_limit_per_s = Some(limit_per_s);
            one_storm_svg(spec, &ChartOptions::default())
        };
        // The capacity's dashes and the limit's dots share the muted grey.
        let grey = format!("stroke=\"{}\"", svg_read::hex(Theme::new(false).muted));
        let near = drawn(25.0);
        let without = article_fixed_svg(&ChartOptions::default());
        let label = svg_read::labels(&near)
            .into_iter()
            .find(|l| l.text == "rate limit 1,500/min")
            .expect("the limit named on its line");
        assert!(
            near.matches(&grey).count() > without.matches(&grey).count() + 10,
            "its dots"
        );
        // Right-aligned at the plot's end, above its line.
        assert!(label.rect.2 > 800.0, "{label:?}");
        let far = drawn(1e6);
        assert!(!far.contains("rate limit"));
        assert_eq!(far.matches(&grey).count(), without.matches(&grey).count());
        assert!(!without.contains("rate limit"));
    }

    /// On the log axis a minute of nothing sits on the floor of 1: its tick reads "≤ 1" (goodput
    /// of none looked like 1/min, outside review); the linear axis starts at a true 0.
    #[test]
    fn the_log_axis_floor_reads_at_most_one() {
        let ticks = |svg: &str| -> Vec<String> {
            svg_read::labels(svg)
                .into_iter()
                .map(|l| l.text)
                .filter(|t| t.starts_with('≤') || t == "1")
                .collect()
        };
        let mut spec = *Scenario::article_fixed().spec();
        spec.capacity_per_s = 5.0;
        let log = one_storm_svg(spec, &ChartOptions::default());
        assert!(log.contains("attempts per minute (log)"), "a log axis");
        assert_eq!(ticks(&log), ["≤ 1"]);
        spec.capacity_per_s = 1_000.0;
        let linear = one_storm_svg(spec, &ChartOptions::default());
        assert!(!linear.contains("(log)"));
        assert!(
            ticks(&linear).iter().all(|t| !t.starts_with('≤')),
            "{:?}",
            ticks(&linear)
        );
    }

    /// Each line of the upper panel (its goodput, the series, the capacity, a rate limit) lies
    /// on a band of the background, every band drawn before every line: over the band of first
    /// attempts the capacity's grey read at 1.9:1, and a band drawn after a line hid it (a rate
    /// limit's over attempts held at it).
    #[test]
    fn every_line_over_the_fills_has_a_band_of_the_background() {
        let theme = Theme::new(false);
        // The strokes of the lines right after the run of bands, as many as there are bands.
        let bands = |svg: &str| {
            let lines = svg_read::polylines(svg);
            let band = |i: &usize| lines[*i].stroke == svg_read::hex(theme.background);
            let first = (0..lines.len()).find(band).unwrap();
            let count = (first..lines.len()).take_while(band).count();
            assert_eq!(
                (0..lines.len()).filter(band).count(),
                count,
                "one run of bands"
            );
            let after = lines[first + count..].iter().map(|l| l.stroke.clone());
            after.take(count).collect::<Vec<_>>()
        };
        let series = svg_read::hex(theme.primary);
        let (goodput, grey) = (svg_read::hex(theme.secondary), svg_read::hex(theme.muted));
        assert_eq!(
            bands(&article_fixed_svg(&ChartOptions::default())),
            [goodput.clone(), series.clone(), grey.clone()]
        );
        let mut spec = *Scenario::article_fixed().spec();
        spec.bounds.rate_limit_per_s = Some(25.0);
        assert_eq!(
            bands(&one_storm_svg(spec, &ChartOptions::default())),
            [goodput, series, grey.clone(), grey]
        );
    }

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
        assert!(single.contains("fixed 30 s") && single.contains("capacity 30/s = 1,800/min"));
        assert!(compare.contains("with a 10% budget"));
        assert!(compare.matches("<polyline").count() > single.matches("<polyline").count());
        // The first series' opaque band of first attempts lies under the compared series' line.
        let budget_label = svg_read::labels(&compare)
            .into_iter()
            .find(|l| l.text == "with a 10% budget")
            .unwrap();
        let swatch = svg_read::rects(&compare)
            .into_iter()
            .find(|r| r.rect.2 <= budget_label.rect.0 && r.rect.2 > budget_label.rect.0 - 8.0)
            .unwrap();
        let band = compare.find("<polygon opacity=\"1\"").unwrap();
        let budget_line = compare
            .find(&format!(
                "<polyline fill=\"none\" opacity=\"1\" stroke=\"{}\"",
                swatch.fill
            ))
            .unwrap();
        assert!(
            band < budget_line,
            "the band is drawn over the budget's line"
        );
        assert_eq!(compact(12_600.0), "12.6k");
    }

    /// The first attempts' band lies over the series' own translucent fill: its swatch showed
    /// the band's colour alone, a paler blue than the chart's, and the outage's swatch was
    /// 2.5 times as strong as its shade. Each swatch is now the colour its region shows: the
    /// band is one opaque colour, the swatch the same, and the outage's swatch is its shade.
    #[test]
    fn the_first_attempts_and_outage_swatches_are_their_regions_colours() {
        for dark in [false, true] {
            let svg = article_fixed_svg(&ChartOptions {
                dark,
                ..ChartOptions::default()
            });
            let rects = svg_read::rects(&svg);
            let (swatches, regions): (Vec<_>, Vec<_>) = rects
                .iter()
                .filter(|r| r.fill != "none")
                .partition(|r| r.rect.2 - r.rect.0 == 10.0 && r.rect.1 < 30.0);
            let labels = svg_read::labels(&svg);
            let swatch_of = |text: &str| {
                let label = labels.iter().find(|l| l.text.starts_with(text)).unwrap();
                swatches
                    .iter()
                    .find(|s| {
                        (s.rect.1 + 5.0 - (label.rect.1 + label.rect.3) / 2.0).abs() < 4.0
                            && s.rect.2 <= label.rect.0
                            && s.rect.2 > label.rect.0 - 8.0
                    })
                    .unwrap_or_else(|| panic!("no swatch beside {text}"))
            };
            let first = swatch_of("first attempts");
            assert_eq!(first.opacity, 1.0, "dark {dark}");
            let theme = Theme::new(dark);
            let band = [1, 3, 5].map(|at| u8::from_str_radix(&first.fill[at..at + 2], 16).unwrap());
            let ratio = crate::chart::theme::contrast(
                RGBColor(band[0], band[1], band[2]),
                theme.background,
            );
            assert!(ratio >= 3.0, "dark {dark}: the band at {ratio:.2}:1");
            assert!(
                svg.contains(&format!("<polygon opacity=\"1\" fill=\"{}\"", first.fill)),
                "dark {dark}: no band in the first attempts' swatch colour {}",
                first.fill
            );
            let outage = swatch_of("outage");
            assert!(
                regions.iter().any(|r| r.fill == outage.fill
                    && r.opacity == outage.opacity
                    && r.rect.3 - r.rect.1 > 50.0),
                "dark {dark}: no shade like the outage's swatch {outage:?}"
            );
        }
    }

    /// A comparison that runs with your policy (the same storm twice, as AWS's retry quota
    /// makes of fixed 30 s) is drawn over your policy's wider line in both panels: drawn under
    /// it, its legend entry had no line.
    #[test]
    fn a_comparison_that_runs_with_your_policy_shows_over_it() {
        let fixed = Scenario::article_fixed();
        let report = simulate_fluid(&fixed, false).unwrap();
        let series = [
            ("your policy", &fixed, &report),
            ("fixed 30 s", &fixed, &report),
        ]
        .map(|(label, scenario, report)| Series {
            label: label.into(),
            scenario,
            report,
        });
        let svg = to_svg((800, 420), |area| {
            draw(area, &series, &ChartOptions::default())
        })
        .unwrap();
        let theme = Theme::new(false);
        let (yours, theirs) = (svg_read::hex(theme.primary), svg_read::hex(theme.alert));
        let lines = svg_read::polylines(&svg);
        for panel in 0..2 {
            let at = |colour: &str| {
                lines
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| l.stroke == colour)
                    .nth(panel)
                    .map(|(i, l)| (i, l.width))
                    .unwrap()
            };
            let ((mine, my_width), (compared, width)) = (at(&yours), at(&theirs));
            assert!(
                compared > mine && width < my_width,
                "panel {panel}: {mine} {my_width} {compared} {width}"
            );
        }
    }

    /// The page's storm (a budget compared with fixed 30 s and with none) in a narrow
    /// column: the legend took a third of the chart and more, and at 200 px the two panels'
    /// y titles ran into each other ("backlogattempts/min"). The legend takes at most a
    /// quarter of the height, no two labels overlap, and every label stays inside.
    #[test]
    fn a_narrow_storm_keeps_its_legend_small_and_its_titles_apart() {
        let mut spec = *Scenario::article_fixed().spec();
        spec.bounds.budget = Some(0.1);
        let budget = Scenario::new(spec).unwrap();
        let fixed = Scenario::article_fixed();
        spec.bounds.budget = None;
        let none = Scenario::new(spec).unwrap();
        let reports = [&budget, &fixed, &none].map(|sc| simulate_fluid(sc, false).unwrap());
        let series = [
            ("your policy", &budget, &reports[0]),
            ("fixed 30 s", &fixed, &reports[1]),
            ("your policy without its budget", &none, &reports[2]),
        ]
        .map(|(label, scenario, report)| Series {
            label: label.into(),
            scenario,
            report,
        });
        for size in [(200, 190), (200, 240), (320, 260), (400, 280), (760, 360)] {
            let svg = to_svg(size, |area| draw(area, &series, &ChartOptions::default())).unwrap();
            let labels = svg_read::labels(&svg);
            let outage = labels.iter().find(|l| l.text == "outage").unwrap();
            let legend_height = outage.rect.3;
            // (The squat 190 px chart only for its titles: no legend is a quarter of that.)
            assert!(
                size.1 < 200 || legend_height <= f64::from(size.1) * 0.25,
                "{size:?}: the legend ends at {legend_height}"
            );
            let pairs = svg_read::overlapping(&labels);
            assert!(pairs.is_empty(), "{size:?}: {pairs:?}");
            let out = svg_read::outside(&labels, size, 0.0);
            assert!(out.is_empty(), "{size:?}: {out:?}");
            // The time axis says what it measures where there is room.
            let titled = labels
                .iter()
                .any(|l| l.text == "time from the start of the simulation");
            assert_eq!(titled, size.0 >= 320, "{size:?}");
        }
        // A figure's legend is laid out at the widths a browser draws its text at: one swatch
        // and gap between each label's end and the next one's start (plotters' flat estimate
        // left 50-70 px after "first attempts (your policy)" and 20 px after "your policy").
        let svg = to_svg((900, 450), |area| {
            draw(area, &series, &ChartOptions::default())
        })
        .unwrap();
        let labels = svg_read::labels(&svg);
        let row: Vec<&svg_read::Label> = labels
            .iter()
            .filter(|l| l.rect.1 < 20.0 && l.rect.0 > 20.0)
            .collect();
        assert!(row.len() >= 4, "{row:?}");
        let spaces: Vec<f64> = row.windows(2).map(|p| p[1].rect.0 - p[0].rect.2).collect();
        assert!(
            spaces.iter().all(|space| (space - 30.0).abs() <= 1.5),
            "{spaces:?}"
        );
    }

    /// A 1 s outage drains at once: the axis shows 10 min of the 2 h of traffic. Its areas
    /// sloped up from nothing over the first half minute and down to nothing half a minute
    /// before the edge, and its backlog axis read "0, 1, 1".
    #[test]
    fn a_short_storms_areas_run_edge_to_edge_and_its_backlog_axis_reads_whole_counts() {
        let spec = crate::storm::Spec {
            outage: (0, 1),
            ..*Scenario::article_fixed().spec()
        };
        let scenario = Scenario::new(spec).unwrap();
        let report = simulate_fluid(&scenario, false).unwrap();
        let one = [Series {
            label: "fixed 30 s".into(),
            scenario: &scenario,
            report: &report,
        }];
        let theme = Theme::new(false);
        let panels = Panels {
            series: &one,
            colours: &[theme.primary],
            theme: &theme,
            scale: 1.0,
            outage: (0.0, 1.0),
            capacity_per_min: 1_800.0,
            capacity_shown: true,
            rate_limit_per_min: None,
            start_s: start_s(&one, end_s(&one)),
            end_s: end_s(&one),
            line_width: 1,
        };
        assert_eq!((panels.start_s, panels.end_s), (0.0, 600.0));
        // A storm peaking late is drawn to past its peak minute.
        let late = Scenario::new(crate::storm::Spec {
            arrivals_per_s: 0.000_001,
            traffic_s: 7 * 86_400,
            outage: (0, 0),
            ..*Scenario::article_fixed().spec()
        })
        .unwrap();
        let late_report = simulate_fluid(&late, false).unwrap();
        let peak_end = f64::from(late_report.summary.peak_minute) * 60.0;
        assert!(peak_end > 600.0, "{peak_end}");
        let late_one = [Series {
            label: "fixed 30 s".into(),
            scenario: &late,
            report: &late_report,
        }];
        assert!(
            end_s(&late_one) >= peak_end,
            "{} < {peak_end}",
            end_s(&late_one)
        );
        let firsts = panels.per_minute(&one[0], |m| m.first_attempts, 0.0);
        assert_eq!(firsts.first(), Some(&(0.0, 600.0)), "{firsts:?}");
        assert_eq!(firsts.last(), Some(&(600.0, 600.0)), "{firsts:?}");
        let svg = to_svg((900, 420), |area| {
            draw(area, &one, &ChartOptions::default())
        })
        .unwrap();
        let labels: Vec<String> = svg_read::labels(&svg).into_iter().map(|l| l.text).collect();
        let times = |text: &str| labels.iter().filter(|l| *l == text).count();
        assert_eq!(
            (times("1"), times("2"), times("4")),
            (0, 1, 1),
            "{labels:?}"
        );
    }

    /// The log axis of a storm that dwarfs the capacity reads "10k", "100k": no "100.0k".
    /// A short panel asked plotters for two labels and got one: the article's backoff storm in a
    /// 240 × 160 figure had "0" alone on its attempts axis, no scale at all.
    #[test]
    fn a_short_panel_still_has_a_scale() {
        let params = crate::Params {
            policy: Some("exponential".into()),
            ..crate::Params::default()
        };
        let scenario = params.scenario().unwrap();
        let report = simulate_fluid(&scenario, false).unwrap();
        let one = [Series {
            label: "backoff".into(),
            scenario: &scenario,
            report: &report,
        }];
        let svg = to_svg((240, 160), |area| {
            draw(area, &one, &ChartOptions::default())
        })
        .unwrap();
        let labels: Vec<String> = svg_read::labels(&svg).into_iter().map(|l| l.text).collect();
        let scale = labels.iter().filter(|l| l.ends_with('k')).count();
        assert!(scale >= 2, "{labels:?}");
    }

    #[test]
    fn tick_labels_are_round_numbers_written_short() {
        let svg = article_fixed_svg(&ChartOptions::default());
        let labels: Vec<String> = svg_read::labels(&svg).into_iter().map(|l| l.text).collect();
        assert!(labels.iter().any(|l| l == "100k"), "{labels:?}");
        assert!(!labels
            .iter()
            .any(|l| l.ends_with(".0k") || l.ends_with(".0M")));
        assert_eq!(compact(2_500_000.0), "2.5M");
        assert_eq!(compact(1_000_000.0), "1M");
        // One form on an axis: "1k" under "10k", not "1,000".
        assert!(labels.iter().any(|l| l == "1k"), "{labels:?}");
        assert!(!labels.contains(&"1,000".to_string()), "{labels:?}");
        assert_eq!(axis_count(1_500.0), "1.5k");
        assert_eq!(axis_count(500.0), "500");
    }

    /// A week's axis read "0 s, 24 h, 48 h, 72 h, 96 h, 5 days": once a tick reaches 100 h,
    /// every tick is in days; ticks 5 s apart read "115 s, 2 min, 2.1 min" (at 125 s): in
    /// seconds throughout; a log axis' first minute reads "1 min", not "60 s".
    #[test]
    fn time_axes_keep_one_unit() {
        use super::super::{axis_unit, time_tick, TickUnit};
        let written = |ticks: &[f64]| -> Vec<String> {
            let unit = axis_unit(ticks);
            ticks.iter().map(|&t| time_tick(t, unit)).collect()
        };
        assert_eq!(
            written(&[110.0, 115.0, 120.0, 125.0]),
            ["110 s", "115 s", "120 s", "125 s"]
        );
        assert_eq!(
            written(&[0.0, 20.0, 40.0, 60.0, 80.0]),
            ["0 s", "20 s", "40 s", "60 s", "80 s"]
        );
        assert_eq!(written(&[0.0, 60.0, 120.0]), ["0 s", "1 min", "2 min"]);
        assert_eq!(written(&[0.0, 10.0, 20.0]), ["0 s", "10 s", "20 s"]);
        assert_eq!(axis_unit(&[0.0, 0.5, 1.0]), TickUnit::Natural);
        let week = [
            0.0,
            86_400.0,
            2.0 * 86_400.0,
            4.0 * 86_400.0,
            5.0 * 86_400.0,
        ];
        assert_eq!(written(&week), ["0", "1 day", "2 days", "4 days", "5 days"]);
        let hours = [0.0, 3_600.0, 36_000.0];
        assert_eq!(axis_unit(&hours), TickUnit::Natural);
        // Ticks 6 h apart past 100 h are in hours: in days they would read "0.2 days".
        let quarter_days: Vec<f64> = (0..20).map(|k| f64::from(k) * 21_600.0).collect();
        assert_eq!(axis_unit(&quarter_days), TickUnit::Hours);
        assert_eq!(written(&quarter_days)[..3], ["0", "6 h", "12 h"]);
        assert_eq!(written(&quarter_days)[19], "114 h");
        // An axis from a late start, ticks under a day apart: each its own label.
        let late: Vec<f64> = (0..6)
            .map(|k| 118.0 * 3_600.0 + f64::from(k) * 1_800.0)
            .collect();
        assert_eq!(
            written(&late),
            [
                "118 h",
                "118 h 30 min",
                "119 h",
                "119 h 30 min",
                "120 h",
                "120 h 30 min"
            ]
        );
        assert_eq!(time_tick(60.0, TickUnit::Natural), "1 min");
        assert_eq!(time_tick(36_000.0, TickUnit::Natural), "10 h");
        assert_eq!(time_tick(1.5 * 86_400.0, TickUnit::Days), "1.5 days");
        assert_eq!(time_tick(1_460.0 * 86_400.0, TickUnit::Days), "1,460 days");
    }
}
