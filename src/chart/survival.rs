//! The survival map: outage length (log, across) × capacity headroom (log, up), each cell of
//! your policy shaded by what became of the destination (green, darker the longer it took to
//! drain; amber when it recovered slowly; vermillion when it collapsed), every series' boundary
//! as a staircase line, and your scenario marked with its own outcome. Rows not computed yet are
//! left blank, so the same function draws a map as its rows arrive.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{
    dashed_line, drawing_error, font, frame, hatched_swatch, line, log_axis_lines, prepare, stroke,
    tick_count, ChartOptions, Legend, LogPlot, Theme, NICE_SECONDS,
};
use crate::survival::{Cell, Outcome, Series, SurvivalMap};
use crate::{format_duration, Error};

/// Headroom values a reader knows, for the vertical axis' ticks.
const NICE_RATIOS: [f64; 14] = [
    0.1, 0.2, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0,
];

/// A cell's extent along one axis: its low and high edge.
type Span = (f64, f64);

/// Each value's cell edges on a log axis: halfway (geometrically) to its neighbours, and at the
/// two ends the end values themselves: the axis spans only what was computed (half a cell
/// beyond, a 6-step map's axis read 5 s to 48 h for outages of 10 s to 24 h). `values` has at
/// least two entries, increasing.
fn edges(values: &[f64]) -> Vec<Span> {
    let n = values.len();
    let mid = |i: usize| (values[i] * values[i + 1]).sqrt();
    (0..n)
        .map(|i| {
            let low = if i == 0 { values[0] } else { mid(i - 1) };
            let high = if i + 1 == n { values[n - 1] } else { mid(i) };
            (low, high)
        })
        .collect()
}

/// The green of a cell that recovered, `share` (0 to 1) of the way from the quickest drain to
/// the slowest: how strongly it covers the background. A darker green the slower, on either
/// page: on a light background more green is darker (0.15 up to 0.75), on a dark one less
/// green is (0.85 down to 0.30, which still stands out from the background and from a row not
/// computed yet), so that the legend's "darker: slower to drain" holds in both schemes.
fn recovered(share: f64, theme: &Theme) -> ShapeStyle {
    let share = share.clamp(0.0, 1.0);
    let cover = if theme.is_dark() {
        0.85 - 0.55 * share
    } else {
        0.15 + 0.6 * share
    };
    theme.secondary.mix(cover).filled()
}

/// The shade of a cell of your policy: how strongly its colour covers the background.
fn fill(cell: &Cell, window_s: f64, theme: &Theme) -> ShapeStyle {
    match cell.outcome {
        Outcome::Recovers => {
            // The longer the backlog took to drain, the darker, on a log scale of minutes.
            let minutes = cell.recovery_s.unwrap_or(0.0) / 60.0;
            recovered((1.0 + minutes).ln() / (1.0 + window_s / 60.0).ln(), theme)
        }
        Outcome::Slow => slow(theme),
        Outcome::Collapsed => collapsed(theme),
    }
}

/// "Recovers slowly" and "collapsed" apart in lightness as well as hue: at 0.7 and 0.8 of their
/// colours they were 1.07:1 apart on the dark page and alike under deuteranopia (outside
/// review); at half and full strength 2.4:1 (dark) and 2.7:1 (light).
fn slow(theme: &Theme) -> ShapeStyle {
    theme.accent.mix(0.5).filled()
}

fn collapsed(theme: &Theme) -> ShapeStyle {
    theme.alert.filled()
}

/// The hatching over a cell where most deliveries ran out of attempts.
fn hatching(theme: &Theme, s: f64) -> ShapeStyle {
    theme.text.mix(0.55).stroke_width(stroke(1.0, s))
}

/// How each series' boundary is drawn: your policy solid and bold, the comparisons dashed.
fn boundary_style(index: usize, theme: &Theme, s: f64) -> (ShapeStyle, Option<(f64, f64)>) {
    match index {
        0 => (theme.text.stroke_width(stroke(2.5, s)), None),
        1 => (
            theme.primary.stroke_width(stroke(2.0, s)),
            Some((7.0 * s, 4.0 * s)),
        ),
        _ => (
            theme.tertiary.stroke_width(stroke(2.0, s)),
            Some((2.5 * s, 3.5 * s)),
        ),
    }
}

fn legend_entries(map: &SurvivalMap, theme: &Theme, s: f64) -> Vec<(String, ShapeStyle)> {
    let mut entries = vec![
        (
            "recovers (darker: slower to drain)".to_string(),
            recovered(0.5, theme),
        ),
        ("recovers slowly (not within 1 h)".to_string(), slow(theme)),
        ("collapsed".to_string(), collapsed(theme)),
    ];
    let yours = map
        .series
        .first()
        .map(|series| series.cells.iter().flatten());
    if yours.is_some_and(|mut cells| cells.any(Cell::mostly_exhausted)) {
        entries.push((
            "exhausted (hatched: most deliveries ran out of attempts)".to_string(),
            hatched_swatch(hatching(theme, s).color),
        ));
    }
    for (i, series) in map.series.iter().enumerate() {
        let (style, _) = boundary_style(i, theme, s);
        let text = format!("{}: {}", series.label, cliff_text(series, &map.headroom));
        entries.push((text, style.color.filled()));
    }
    entries
}

/// What a series' boundary line shows: a cliff, or, when no computed cell collapses (the line
/// runs along the map's right edge) or every one does (its left edge), where no one would see
/// it, that there is none within the map. While cells are still to come that is said of the
/// cells so far: "no cell collapses" read as the answer while the map was a third drawn, and
/// the rows still to come collapsed (outside SRE review). A whole map whose rows above some
/// headroom never collapse says so: "cliff only at 1.05×" (the page's budget's line along the
/// lowest row's edge looked like the frame, its legend saying "cliff": outside product review).
fn cliff_text(series: &Series, headroom: &[f64]) -> String {
    // A row not computed yet is empty.
    let complete = series.cells.iter().all(|row| !row.is_empty());
    let mut outcomes = series
        .cells
        .iter()
        .flatten()
        .map(|cell| cell.outcome)
        .peekable();
    if outcomes.peek().is_none() {
        return "cliff".to_string();
    }
    let outcomes: Vec<Outcome> = outcomes.collect();
    let none = outcomes.iter().all(|o| *o != Outcome::Collapsed);
    let every = outcomes.iter().all(|o| *o == Outcome::Collapsed);
    // The highest headroom (rows in the axis' order, lowest first) with a collapsed cell,
    // where every row under it has one too: a map whose low rows recover but a higher one
    // collapses has no cliff "only at and below".
    let collapses = |row: &Vec<Cell>| row.iter().any(|cell| cell.outcome == Outcome::Collapsed);
    let highest_collapsing = (series.cells.iter())
        .rposition(collapses)
        .filter(|&row| series.cells[..row].iter().all(collapses))
        .and_then(|row| headroom.get(row).map(|h| (row, *h)));
    match (none, every, complete) {
        (true, _, true) => "no cliff (no cell collapses)".to_string(),
        (_, true, true) => "no cliff (every cell collapses)".to_string(),
        (true, _, false) => "no cliff so far (no cell drawn collapses)".to_string(),
        (_, true, false) => "no cliff so far (every cell drawn collapses)".to_string(),
        _ => match highest_collapsing {
            Some((row, h)) if complete && row + 1 < series.cells.len() => {
                let h = crate::number_text::multiple(h);
                if row == 0 {
                    format!("cliff only at {h}×")
                } else {
                    format!("cliff only at {h}× and below")
                }
            }
            _ => "cliff".to_string(),
        },
    }
}

/// Draws `map` filling `area`: your policy's cells, every series' boundary and your scenario.
///
/// # Example
/// ```
/// use backoff_lab::chart::{survival, to_svg, ChartOptions};
/// use backoff_lab::storm::Spec;
/// use backoff_lab::survival::{survival_map, Axes};
/// use backoff_lab::Engine;
/// let axes = Axes::new((30.0, 1_800.0), (1.5, 6.0), (4, 3))?;
/// let map = survival_map(&Spec::article_fixed(), &axes, Engine::Fluid)?;
/// let svg = to_svg((900, 460), |area| survival::draw(area, &map, &ChartOptions::default()))?;
/// assert!(svg.contains("fixed 30 s: cliff"));
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    map: &SurvivalMap,
    options: &ChartOptions,
) -> Result<(), Error> {
    let (options, theme) = prepare(area, options)?;
    let s = options.scale;
    if map.outages_s.len() < 2 || map.headroom.len() < 2 {
        return Err(Error::Drawing(
            "a survival map needs two steps on each axis at least".into(),
        ));
    }
    let columns = edges(&map.outages_s);
    let rows = edges(&map.headroom);
    let x = (columns[0].0, columns[columns.len() - 1].1);
    let y = (rows[0].0, rows[rows.len() - 1].1);
    let legend = Legend::new(area, legend_entries(map, &theme, s), &theme, s);
    // The top headroom's label sits on the map's top edge: room for half of it under the legend.
    let mut plot = frame(area, s, legend.height + 12.0 * s, 34.0 * s, 56.0 * s)
        .build_cartesian_2d((x.0..x.1).log_scale(), (y.0..y.1).log_scale())
        .map_err(drawing_error)?;
    log_axis_lines(
        &mut plot,
        (
            "outage length",
            &["headroom: capacity ÷ arrivals", "headroom"],
        ),
        &theme,
        s,
    )?;
    cells(&mut plot, map, (&columns, &rows), &theme, s)?;
    axes(&mut plot, area, (x, y), &theme, s)?;
    // Each line on a band of the page's background (a dotted pink line on the collapsed
    // cells' orange could hardly be seen); every band first, so that none covers a line where
    // two policies share a cliff.
    for (i, series) in map.series.iter().enumerate() {
        let (style, _) = boundary_style(i, &theme, s);
        let halo = theme
            .background
            .mix(0.85)
            .stroke_width(style.stroke_width + stroke(2.0, s));
        staircase(&mut plot, series, (&columns, &rows), (halo, None))?;
    }
    for (i, series) in map.series.iter().enumerate() {
        staircase(
            &mut plot,
            series,
            (&columns, &rows),
            boundary_style(i, &theme, s),
        )?;
    }
    current(&mut plot, area, map, (x, y), (&columns, &rows), &theme, s)?;
    legend.draw(area)
}

/// Your policy's cells, shaded, and hatched where most deliveries ran out of attempts (a
/// backlog cleared so "recovers" at their expense: AWS SNS's 24 h outage read as green with 96%
/// exhausted); a row not computed yet stays blank.
fn cells<DB: DrawingBackend>(
    plot: &mut LogPlot<'_, DB>,
    map: &SurvivalMap,
    (columns, rows): (&[Span], &[Span]),
    theme: &Theme,
    s: f64,
) -> Result<(), Error> {
    let Some(yours) = map.series.first() else {
        return Ok(());
    };
    let window = f64::from(map.recovery_window_s);
    let rectangles = yours
        .cells
        .iter()
        .zip(rows)
        .flat_map(|(row, &(low, high))| {
            row.iter().zip(columns).map(move |(cell, &(left, right))| {
                Rectangle::new([(left, low), (right, high)], fill(cell, window, theme))
            })
        });
    plot.draw_series(rectangles).map_err(drawing_error)?;
    // Three parallel strokes a cell, from its lower left to its upper right: on the log axes
    // a cell's middle is the geometric mean of its edges.
    let style = hatching(theme, s);
    let strokes = yours
        .cells
        .iter()
        .zip(rows)
        .flat_map(|(row, &(low, high))| {
            row.iter()
                .zip(columns)
                .filter(|(cell, _)| cell.mostly_exhausted())
                .flat_map(move |(_, &(left, right))| {
                    let (x, y) = ((left * right).sqrt(), (low * high).sqrt());
                    [
                        [(left, y), (x, high)],
                        [(left, low), (right, high)],
                        [(x, low), (right, y)],
                    ]
                })
        })
        .map(move |ends| PathElement::new(ends.to_vec(), style));
    plot.draw_series(strokes).map_err(drawing_error)?;
    Ok(())
}

/// Ticks at the axis' two ends, the first and last values computed, and at nice values between
/// them, at most `max` in all (at least the two ends); a nice value nearer an end than most of
/// a tick's room is left out. The ends are labelled because the edge rows and columns are half
/// cells: the bottom row of a 1.05..20 map read as "below 1.5×", and a phone's outage axis
/// stopped short of its 24 h.
fn ticks(nice: &[f64], (low, high): (f64, f64), max: usize) -> Vec<f64> {
    let room = (high / low).ln() / max.max(2) as f64 * 0.8;
    let inner: Vec<f64> = nice
        .iter()
        .copied()
        .filter(|t| (t / low).ln() >= room && (high / t).ln() >= room)
        .collect();
    let slots = max.saturating_sub(2);
    let mut all = vec![low];
    if slots > 0 {
        let step = inner.len().div_ceil(slots).max(1);
        all.extend(inner.into_iter().step_by(step));
    }
    all.push(high);
    all
}

/// Nice outage lengths and headroom ratios along both axes, with light grid lines over the
/// cells.
fn axes<DB: DrawingBackend>(
    plot: &mut LogPlot<'_, DB>,
    area: &DrawingArea<DB, Shift>,
    (x, y): ((f64, f64), (f64, f64)),
    theme: &Theme,
    s: f64,
) -> Result<(), Error> {
    let grid = theme.background.mix(0.6).stroke_width(stroke(1.0, s));
    let (width, height) = area.dim_in_pixel();
    let style = font(11.0, s, theme.muted);
    for t in ticks(&NICE_SECONDS, x, tick_count(f64::from(width), s, 80.0)) {
        line(plot, vec![(t, y.0), (t, y.1)], grid)?;
        let (px, py) = plot.backend_coord(&(t, y.0));
        area.draw(&Text::new(
            super::time_tick(t, super::TickUnit::Natural),
            (px, py + (6.0 * s) as i32),
            style.pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(drawing_error)?;
    }
    for r in ticks(&NICE_RATIOS, y, tick_count(f64::from(height), s, 32.0)) {
        line(plot, vec![(x.0, r), (x.1, r)], grid)?;
        let (px, py) = plot.backend_coord(&(x.0, r));
        area.draw(&Text::new(
            format!("{}×", crate::number_text::multiple(r)),
            (px - (6.0 * s) as i32, py),
            style.pos(Pos::new(HPos::Right, VPos::Center)),
        ))
        .map_err(drawing_error)?;
    }
    Ok(())
}

/// A series' boundary: in each computed row, a vertical line at the right edge of the longest
/// outage survived (the left edge of the map when even the shortest collapsed), joined from
/// row to row.
fn staircase<DB: DrawingBackend>(
    plot: &mut LogPlot<'_, DB>,
    series: &crate::survival::Series,
    (columns, rows): (&[Span], &[Span]),
    (style, dash): (ShapeStyle, Option<(f64, f64)>),
) -> Result<(), Error> {
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut previous_computed = false;
    for (row, &(low, high)) in series.cells.iter().zip(rows) {
        if row.is_empty() {
            previous_computed = false;
            continue;
        }
        // The same count as the series' boundary: the outages before the first collapse.
        let survived = row
            .iter()
            .take_while(|c| c.outcome != Outcome::Collapsed)
            .count();
        let x = if survived == 0 {
            columns[0].0
        } else {
            columns[survived - 1].1
        };
        if !previous_computed {
            runs.push(Vec::new());
        }
        if let Some(run) = runs.last_mut() {
            run.extend([(x, low), (x, high)]);
        }
        previous_computed = true;
    }
    for run in runs {
        match dash {
            None => line(plot, run, style)?,
            Some(pattern) => dashed_line(plot, run, pattern, style)?,
        }
    }
    Ok(())
}

/// What became of your scenario itself, for its mark's label: "recovers in 4.5 min", and
/// the deliveries that ran out of attempts on the way, as the caption says them ("recovers in
/// 5 s" on a green cell, with 14% of the deliveries lost, read as safe: outside product review).
fn outcome_words(cell: &Cell) -> String {
    let words = match cell.outcome {
        Outcome::Recovers => format!(
            "recovers in {}",
            format_duration(cell.recovery_s.unwrap_or(0.0))
        ),
        Outcome::Slow => "recovers slowly".to_string(),
        Outcome::Collapsed => return "collapses".to_string(),
    };
    if cell.exhausted_share > 0.0 {
        let share = crate::report::whole_percent(cell.exhausted_share * 100.0);
        format!("{words}, {share} exhausted")
    } else {
        words
    }
}

/// Your policy's cell that `(outage, headroom)` lies in, once its row is computed: the cell's
/// own outage and headroom, and what became of it.
fn cell_under<'a>(
    map: &'a SurvivalMap,
    (columns, rows): (&[Span], &[Span]),
    (outage, headroom): (f64, f64),
) -> Option<(f64, f64, &'a Cell)> {
    let within = |value: f64| move |&(low, high): &Span| value >= low && value <= high;
    let column = columns.iter().position(within(outage))?;
    let row = rows.iter().position(within(headroom))?;
    let cell = map.series.first()?.cells.get(row)?.get(column)?;
    Some((map.outages_s[column], map.headroom[row], cell))
}

/// Your scenario's outage and headroom: a ringed dot, labelled (clamped to the map's edge, and
/// said so, when it lies outside). Once its own cell is computed, the dot is filled with that
/// cell's shade and the label says its outcome: the cell of the grid it sits in is another
/// outage and headroom, whose outcome may differ (the cliff can pass between them); then the
/// label says what became of that cell too, so that the mark does not contradict the shade
/// under it ("collapses" on a green cell).
fn current<DB: DrawingBackend>(
    plot: &mut LogPlot<'_, DB>,
    area: &DrawingArea<DB, Shift>,
    map: &SurvivalMap,
    (x, y): ((f64, f64), (f64, f64)),
    grid: (&[Span], &[Span]),
    theme: &Theme,
    s: f64,
) -> Result<(), Error> {
    let (outage, headroom) = map.current;
    let inside = outage >= x.0 && outage <= x.1 && headroom >= y.0 && headroom <= y.1;
    let at = (outage.clamp(x.0, x.1), headroom.clamp(y.0, y.1));
    let (px, py) = plot.backend_coord(&at);
    let radius = (5.0 * s) as i32;
    area.draw(&Circle::new(
        (px, py),
        radius + stroke(2.0, s) as i32,
        theme.background.filled(),
    ))
    .map_err(drawing_error)?;
    if let Some(own) = &map.scenario {
        let shade = fill(own, f64::from(map.recovery_window_s), theme);
        area.draw(&Circle::new((px, py), radius, shade))
            .map_err(drawing_error)?;
    }
    area.draw(&Circle::new(
        (px, py),
        radius,
        theme.text.stroke_width(stroke(2.0, s)),
    ))
    .map_err(drawing_error)?;
    let place = if inside { "" } else { " (off the map)" };
    // The label's wordings, longest first: the cell around the mark is named when its outcome
    // differs, unless that does not fit across the map (it ran off a 240 px figure).
    let wordings = match &map.scenario {
        Some(own) => {
            let short = format!("your scenario{place}: {}", outcome_words(own));
            match cell_under(map, grid, (outage, headroom)) {
                Some((cell_outage, cell_headroom, cell)) if cell.outcome != own.outcome => vec![
                    format!(
                        "{short} (the cell around it, {} at {cell_headroom:.2}×, {})",
                        format_duration(cell_outage),
                        outcome_words(cell)
                    ),
                    short,
                ],
                _ => vec![short],
            }
        }
        None => vec![format!("your scenario{place}")],
    };
    // Beside the mark on the side with room for it, else under it (over it at the bottom),
    // kept inside the map: a 200 px map ran it off the left edge, a 320 px one over the
    // headroom axis' labels.
    let (columns_px, rows_px) = plot.plotting_area().get_pixel_range();
    let edge = 4.0 * s;
    let (plot_left, plot_right) = (
        f64::from(columns_px.start) + edge,
        f64::from(columns_px.end) - edge,
    );
    let label_style = font(12.0, s, theme.text);
    let sized = |label: String| {
        let (width, height) = super::text_size(area, &label, &label_style);
        (label, width, height)
    };
    let sized_wordings: Vec<_> = wordings.into_iter().map(sized).collect();
    let mut chosen = sized_wordings
        .iter()
        .find(|wording| wording.1 <= plot_right - plot_left)
        .or(sized_wordings.last())
        .cloned()
        .unwrap_or_else(|| sized(String::new()));
    // On a small map even the shortest wording covered a quarter of it (a 240 × 160 figure):
    // the mark's outcome alone, which the caption names as your scenario's.
    let shortest = sized_wordings.last().map_or(0.0, |wording| wording.1);
    if let Some(own) = map.scenario.as_ref() {
        if shortest > (plot_right - plot_left) / 2.0 {
            chosen = sized(outcome_words(own));
        }
    }
    let (label, label_width, label_height) = chosen;
    let plot_bottom = f64::from(rows_px.end) - edge;
    let gap = f64::from(radius) + 6.0 * s;
    let (px_f, py_f) = (f64::from(px), f64::from(py));
    let (left, middle) = if px_f + gap + label_width <= plot_right {
        (px_f + gap, py_f)
    } else if px_f - gap - label_width >= plot_left {
        (px_f - gap - label_width, py_f)
    } else {
        // Within the map when it is wide enough for the label, else within the figure.
        let width = f64::from(area.dim_in_pixel().0);
        let (lowest, highest) = match plot_right - label_width >= plot_left {
            true => (plot_left, plot_right - label_width),
            false => (edge, (width - label_width - edge).max(edge)),
        };
        let left = (px_f - label_width / 2.0).clamp(lowest, highest);
        let below = py_f + gap + label_height / 2.0;
        let middle = if below + label_height / 2.0 <= plot_bottom {
            below
        } else {
            py_f - gap - label_height / 2.0
        };
        (left, middle)
    };
    // On a plate of the page's background: a one-pixel halo left the dark page's light text
    // on the collapsed cells' orange, hard to read.
    let pad = 3.0 * s;
    let plate = [
        (
            (left - pad) as i32,
            (middle - label_height / 2.0 - pad) as i32,
        ),
        (
            (left + label_width + pad).ceil() as i32,
            (middle + label_height / 2.0 + pad).ceil() as i32,
        ),
    ];
    area.draw(&Rectangle::new(plate, theme.background.mix(0.88).filled()))
        .map_err(drawing_error)?;
    area.draw(&Text::new(
        label,
        (left.round() as i32, middle.round() as i32),
        label_style.pos(Pos::new(HPos::Left, VPos::Center)),
    ))
    .map_err(drawing_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_edges_meet_halfway_on_the_log_axis_and_stop_at_the_ends() {
        let e = edges(&[10.0, 100.0, 1_000.0]);
        assert!((e[0].1 - 100f64.sqrt() * 10f64.sqrt()).abs() < 1e-9);
        assert_eq!(e[0].1, e[1].0);
        assert_eq!(e[1].1, e[2].0);
        assert_eq!((e[0].0, e[2].1), (10.0, 1_000.0));
    }

    fn map(steps: (usize, usize)) -> SurvivalMap {
        let axes = crate::survival::Axes::new((10.0, 86_400.0), (1.05, 20.0), steps).unwrap();
        let spec = crate::storm::Spec::article_fixed();
        crate::survival::survival_map(&spec, &axes, crate::Engine::Fluid).unwrap()
    }

    /// Cells where most deliveries ran out of attempts are hatched, three strokes each, with a
    /// legend entry saying so; a map without such cells has neither.
    #[test]
    fn mostly_exhausted_cells_are_hatched_and_named() {
        let mut map = map((4, 3));
        for cell in map
            .series
            .iter_mut()
            .flat_map(|s| s.cells.iter_mut().flatten())
        {
            cell.exhausted_share = 0.1;
        }
        let drawn = |map: &SurvivalMap| {
            let svg = crate::chart::to_svg((900, 460), |area| draw(area, map, &Default::default()))
                .unwrap();
            let named = svg.contains("exhausted (hatched: most deliveries ran out of attempts)");
            let hatching = format!(
                "<polyline fill=\"none\" opacity=\"0.55\" stroke=\"{}\" stroke-width=\"1\"",
                crate::chart::svg_read::hex(Theme::new(false).text)
            );
            (named, svg.matches(&hatching).count())
        };
        assert_eq!(drawn(&map), (false, 0));
        // Another series' cells are not drawn as cells: not hatched, not named.
        map.series[1].cells[0][0].exhausted_share = 0.9;
        assert_eq!(drawn(&map), (false, 0));
        map.series[0].cells[1][2].exhausted_share = 0.96;
        map.series[0].cells[2][3].exhausted_share = 0.51;
        // Two cells of three strokes, and the swatch's diagonal.
        assert_eq!(drawn(&map), (true, 2 * 3 + 1));
    }

    /// The mark names the deliveries exhausted beside a recovery, slow or not: "recovers in 5 s"
    /// on a green cell read as safe with 14% of them lost. A collapse says only that.
    #[test]
    fn the_marks_words_name_the_exhausted_share() {
        let mut cell = map((4, 3)).series[0].cells[0][0];
        for (outcome, recovery_s, share, words) in [
            (
                Outcome::Recovers,
                Some(5.0),
                0.14,
                "recovers in 5 s, 14% exhausted",
            ),
            (Outcome::Recovers, Some(5.0), 0.0, "recovers in 5 s"),
            (Outcome::Slow, None, 0.2, "recovers slowly, 20% exhausted"),
            (Outcome::Slow, None, 0.0, "recovers slowly"),
            (Outcome::Collapsed, None, 0.9, "collapses"),
        ] {
            (cell.outcome, cell.recovery_s, cell.exhausted_share) = (outcome, recovery_s, share);
            assert_eq!(outcome_words(&cell), words);
        }
    }

    /// A policy under which no cell collapses (the page's "+ 10% budget") has its boundary
    /// along the map's right edge, where no one sees it: its legend said "cliff" all the same.
    /// The legend says there is none, either way; anything between is a cliff.
    #[test]
    fn a_boundary_along_the_maps_edge_is_called_no_cliff() {
        let mut map = map((6, 4));
        let legend = |map: &SurvivalMap| {
            let svg = crate::chart::to_svg((900, 460), |area| draw(area, map, &Default::default()))
                .unwrap();
            crate::chart::svg_read::labels(&svg)
                .into_iter()
                .map(|l| l.text)
                .find(|t| t.starts_with(&map.series[0].label))
                .unwrap()
        };
        assert!(legend(&map).ends_with(": cliff"), "{}", legend(&map));
        fn every(map: &mut SurvivalMap, outcome: Outcome) {
            for cell in map.series[0].cells.iter_mut().flatten() {
                cell.outcome = outcome;
            }
        }
        every(&mut map, Outcome::Slow);
        assert!(legend(&map).ends_with(": no cliff (no cell collapses)"));
        every(&mut map, Outcome::Collapsed);
        assert!(legend(&map).ends_with(": no cliff (every cell collapses)"));
        // With a row still to come (empty), what the drawn cells show is said of them.
        let last_row = std::mem::take(map.series[0].cells.last_mut().unwrap());
        assert!(legend(&map).ends_with(": no cliff so far (every cell drawn collapses)"));
        every(&mut map, Outcome::Recovers);
        assert!(legend(&map).ends_with(": no cliff so far (no cell drawn collapses)"));
        *map.series[0].cells.last_mut().unwrap() = last_row;
        every(&mut map, Outcome::Collapsed);
        // The shortest outage collapsing but a longer one recovering is a cliff of its own.
        map.series[0].cells[0][2].outcome = Outcome::Recovers;
        assert!(legend(&map).ends_with(": cliff"));
        // Collapsing only in the lowest rows, the legend says which: the line runs along
        // their edge, where it looked like the frame.
        every(&mut map, Outcome::Recovers);
        map.series[0].cells[0][5].outcome = Outcome::Collapsed;
        let lowest = crate::number_text::multiple(map.headroom[0]);
        assert!(
            legend(&map).ends_with(&format!(": cliff only at {lowest}×")),
            "{}",
            legend(&map)
        );
        map.series[0].cells[1][4].outcome = Outcome::Collapsed;
        let second = crate::number_text::multiple(map.headroom[1]);
        assert!(legend(&map).ends_with(&format!(": cliff only at {second}× and below")));
        // A lower row recovering everywhere under one that collapses: a cliff, with no
        // "only … and below".
        for cell in map.series[0].cells[0].iter_mut() {
            cell.outcome = Outcome::Recovers;
        }
        assert!(legend(&map).ends_with(": cliff"), "{}", legend(&map));
        // Every row collapsing somewhere: a cliff, with no "only".
        for row in map.series[0].cells.iter_mut() {
            row[5].outcome = Outcome::Collapsed;
        }
        assert!(legend(&map).ends_with(": cliff"));
    }

    /// Each cliff lies on a band of the background, and every band is drawn before every line:
    /// a band drawn over a line where two policies share a cliff hid it.
    #[test]
    fn every_cliff_line_is_drawn_over_every_band() {
        use crate::chart::svg_read::{hex, polylines};
        let map = map((6, 4));
        let svg =
            crate::chart::to_svg((900, 460), |area| draw(area, &map, &Default::default())).unwrap();
        let theme = Theme::new(false);
        let lines = polylines(&svg);
        let bands: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].stroke == hex(theme.background) && lines[i].width >= 3.0)
            .collect();
        // Your policy's line, not the hatching of its cells (thin, in the same colour).
        let yours: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].stroke == hex(theme.text) && lines[i].width >= 2.0)
            .collect();
        assert!(
            !bands.is_empty() && !yours.is_empty(),
            "{bands:?} {yours:?}"
        );
        assert!(
            bands.iter().max() < yours.iter().min(),
            "bands {bands:?}, your policy's line {yours:?}"
        );
    }

    /// Your scenario's mark said "collapses" on a cell shaded as recovering (the cell is another
    /// outage and headroom): the label then says what became of the cell as well, and only
    /// then.
    #[test]
    fn the_marks_label_names_the_cell_around_it_when_their_outcomes_differ() {
        let label_at = |map: &SurvivalMap, size| {
            let svg =
                crate::chart::to_svg(size, |area| draw(area, map, &Default::default())).unwrap();
            crate::chart::svg_read::labels(&svg)
                .into_iter()
                .map(|l| l.text)
                .find(|t| {
                    t.starts_with("your scenario")
                        || map.scenario.is_some_and(|own| *t == outcome_words(&own))
                })
                .unwrap()
        };
        let label = |map: &SurvivalMap| label_at(map, (900, 460));
        let mut map = map((6, 4));
        let columns = edges(&map.outages_s);
        let rows = edges(&map.headroom);
        let (outage, headroom, under) = cell_under(&map, (&columns, &rows), map.current)
            .map(|(o, h, c)| (o, h, *c))
            .unwrap();
        let mut own = under;
        map.scenario = Some(own);
        assert_eq!(
            label(&map),
            format!("your scenario: {}", outcome_words(&own))
        );
        own.outcome = if under.outcome == Outcome::Collapsed {
            Outcome::Slow
        } else {
            Outcome::Collapsed
        };
        map.scenario = Some(own);
        assert_eq!(
            label(&map),
            format!(
                "your scenario: {} (the cell around it, {} at {headroom:.2}×, {})",
                outcome_words(&own),
                format_duration(outage),
                outcome_words(&under)
            )
        );
        // Too long to fit across a small map: the outcome alone (it ran off a 240 px figure,
        // and the shorter wording covered a quarter of the map); on a middling one, the
        // shorter wording.
        assert_eq!(label_at(&map, (240, 160)), outcome_words(&own));
        assert_eq!(
            label_at(&map, (480, 300)),
            format!("your scenario: {}", outcome_words(&own))
        );
    }

    /// The headroom axis' title ran up into the legend of the smallest figure (240 × 160): a
    /// shorter wording is written where the long one does not fit along the map.
    #[test]
    fn the_headroom_title_is_the_wording_that_fits_along_the_map() {
        let titles = |size| {
            let svg =
                crate::chart::to_svg(size, |area| draw(area, &map((6, 4)), &Default::default()))
                    .unwrap();
            crate::chart::svg_read::labels(&svg)
                .into_iter()
                .map(|l| l.text)
                .filter(|t| t.starts_with("headroom"))
                .collect::<Vec<_>>()
        };
        assert_eq!(titles((900, 460)), ["headroom: capacity ÷ arrivals"]);
        assert_eq!(titles((240, 160)), ["headroom"]);
    }

    /// The mark's label was kept inside the figure, not the map: in a 320 px figure it covered
    /// the headroom axis' labels. It overlaps no other label at any size.
    #[test]
    fn the_marks_label_covers_no_axis_label() {
        for size in [(240, 160), (320, 200), (480, 240), (900, 460)] {
            let svg =
                crate::chart::to_svg(size, |area| draw(area, &map((6, 4)), &Default::default()))
                    .unwrap();
            let labels = crate::chart::svg_read::labels(&svg);
            let own = map((6, 4)).scenario.map(|own| outcome_words(&own));
            let mark = labels
                .iter()
                .find(|l| l.text.starts_with("your scenario") || Some(&l.text) == own.as_ref())
                .unwrap();
            let axis: Vec<_> = labels.iter().filter(|l| l.text.ends_with('×')).collect();
            assert!(axis.len() >= 2, "{size:?}: {labels:?}");
            for label in axis {
                assert!(!mark.overlaps(label), "{size:?}: {mark:?} over {label:?}");
            }
        }
    }

    /// Both axes label their ends, the first and last values computed, at a phone's width and
    /// a desktop's: the bottom row (1.05×) read as "below 1.5×", and at 390 px the outage axis
    /// stopped short of its 24 h.
    #[test]
    fn both_axes_label_their_ends() {
        for width in [360, 900] {
            let svg = crate::chart::to_svg((width, 460), |area| {
                draw(area, &map((24, 16)), &Default::default())
            })
            .unwrap();
            let labels: Vec<String> = crate::chart::svg_read::labels(&svg)
                .into_iter()
                .map(|l| l.text)
                .collect();
            for end in ["1.05×", "20×", "10 s", "24 h"] {
                assert!(
                    labels.iter().any(|l| l == end),
                    "{width}: {end} in {labels:?}"
                );
            }
        }
    }

    /// A 6-step map of outages from 10 s to 24 h had its axis run from 5 s to 48 h: every
    /// duration under the map is one that was computed.
    #[test]
    fn the_outage_axis_covers_only_the_computed_outages() {
        for steps in [(6, 4), (24, 16)] {
            let svg = crate::chart::to_svg((900, 460), |area| {
                draw(area, &map(steps), &Default::default())
            })
            .unwrap();
            let ticks: Vec<f64> = crate::chart::svg_read::labels(&svg)
                .iter()
                .filter_map(|l| crate::duration::parse_duration("tick", &l.text).ok())
                .collect();
            assert!(ticks.len() >= 3, "{steps:?}: {ticks:?}");
            assert!(
                ticks.iter().all(|t| (10.0..=86_400.0).contains(t)),
                "{steps:?}: {ticks:?}"
            );
        }
    }

    /// WCAG's contrast ratio between two colours (1 to 21), of `a` shown at opacity `alpha`
    /// over `under`.
    fn contrast_over(text: RGBColor, (a, alpha): (RGBColor, f64), under: RGBColor) -> f64 {
        let over = |c: u8, u: u8| (alpha * f64::from(c) + (1.0 - alpha) * f64::from(u)) / 255.0;
        let lin = |c: f64| {
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let lum = |(r, g, b): (f64, f64, f64)| 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
        let back = lum((over(a.0, under.0), over(a.1, under.1), over(a.2, under.2)));
        let front = lum((
            f64::from(text.0) / 255.0,
            f64::from(text.1) / 255.0,
            f64::from(text.2) / 255.0,
        ));
        (front.max(back) + 0.05) / (front.min(back) + 0.05)
    }

    /// "your scenario: collapses" sat in light text on the collapsed cells' orange on a dark
    /// page: it is on a plate of the page's colour, and reads at 4.5:1 over the strongest cell.
    #[test]
    fn the_scenario_label_reads_over_any_cell() {
        for dark in [false, true] {
            let theme = Theme::new(dark);
            let options = ChartOptions {
                dark,
                ..ChartOptions::default()
            };
            let svg = crate::chart::to_svg((700, 460), |area| draw(area, &map((6, 4)), &options))
                .unwrap();
            let label = crate::chart::svg_read::labels(&svg)
                .into_iter()
                .find(|l| l.text.starts_with("your scenario"))
                .unwrap();
            let background = crate::chart::svg_read::hex(theme.background);
            let (l, t, r, b) = label.rect;
            let plate = crate::chart::svg_read::rects(&svg)
                .into_iter()
                .find(|p| {
                    p.fill == background
                        && p.rect.0 <= l
                        && p.rect.2 >= r
                        && p.rect.1 <= t
                        && p.rect.3 >= b
                        && p.rect.2 - p.rect.0 < 400.0
                })
                .unwrap_or_else(|| panic!("dark {dark}: no plate under {label:?}"));
            // The plate over the collapsed orange (over the page), the strongest cell.
            let RGBAColor(cr, cg, cb, ca) = theme.alert.mix(0.8);
            let bg = theme.background;
            let cell = RGBColor(
                (ca * f64::from(cr) + (1.0 - ca) * f64::from(bg.0)).round() as u8,
                (ca * f64::from(cg) + (1.0 - ca) * f64::from(bg.1)).round() as u8,
                (ca * f64::from(cb) + (1.0 - ca) * f64::from(bg.2)).round() as u8,
            );
            let ratio = contrast_over(theme.text, (bg, plate.opacity), cell);
            assert!(ratio >= 4.5, "dark {dark}: {ratio:.2}");
        }
    }

    /// In a 200 px column the label ran off the left edge ("scenario: collapses"): it stays
    /// inside the chart at every width.
    #[test]
    fn the_scenario_label_stays_inside_narrow_maps() {
        for width in [200, 260, 320, 400, 700] {
            let svg = crate::chart::to_svg((width, 360), |area| {
                draw(area, &map((6, 4)), &ChartOptions::default())
            })
            .unwrap();
            let labels = crate::chart::svg_read::labels(&svg);
            let own = map((6, 4)).scenario.map(|own| outcome_words(&own));
            let label = labels
                .iter()
                .find(|l| l.text.starts_with("your scenario") || Some(&l.text) == own.as_ref())
                .unwrap_or_else(|| panic!("{width} px: no scenario label"));
            let outside =
                crate::chart::svg_read::outside(std::slice::from_ref(label), (width, 360), 2.0);
            // (Text running off the left edge is written at x 0: 2 px to spare tells it.)
            assert!(outside.is_empty(), "{width} px: {outside:?}");
        }
    }

    /// The relative luminance of `style`'s colour as it shows over the page's background.
    fn luminance(style: ShapeStyle, theme: &Theme) -> f64 {
        let RGBAColor(r, g, b, a) = style.color;
        let RGBColor(br, bg, bb) = theme.background;
        let over = |c: u8, back: u8| a * f64::from(c) + (1.0 - a) * f64::from(back);
        0.2126 * over(r, br) + 0.7152 * over(g, bg) + 0.0722 * over(b, bb)
    }

    /// The legend says "recovers (darker: slower to drain)": on a light and on a dark page, a
    /// cell whose backlog drained later shows a darker green (in the dark scheme it used to be
    /// brighter), and the legend's swatch lies between the quickest and the slowest.
    #[test]
    fn a_slower_drain_is_a_darker_green_in_both_schemes() {
        for dark in [false, true] {
            let theme = Theme::new(dark);
            let shade = |minutes: f64| {
                let cell = Cell {
                    outcome: Outcome::Recovers,
                    recovery_s: Some(minutes * 60.0),
                    exhausted_share: 0.0,
                    peak_multiple: None,
                    goodput_vs_arrivals: 1.0,
                };
                luminance(fill(&cell, 3_600.0, &theme), &theme)
            };
            let shades: Vec<f64> = [0.0, 1.0, 5.0, 15.0, 30.0, 60.0]
                .iter()
                .map(|&m| shade(m))
                .collect();
            assert!(
                shades.windows(2).all(|w| w[1] < w[0]),
                "dark {dark}: {shades:?}"
            );
            let swatch = luminance(recovered(0.5, &theme), &theme);
            assert!(swatch < shades[0] && swatch > shades[5], "dark {dark}");
            // The slowest still stands out from the background (a row not computed yet).
            let background = luminance(theme.background.filled(), &theme);
            assert!((shades[5] - background).abs() > 20.0, "dark {dark}");
        }
    }

    /// "Recovers slowly" and "collapsed" differ in lightness, not only in hue: at least 2:1
    /// apart on either page (1.07:1 on the dark page before, alike under deuteranopia).
    #[test]
    fn slow_and_collapsed_cells_differ_in_lightness() {
        for dark in [false, true] {
            let theme = Theme::new(dark);
            let on_page = |style: ShapeStyle| {
                let RGBAColor(r, g, b, a) = style.color;
                let RGBColor(br, bg, bb) = theme.background;
                let over =
                    |c: u8, u: u8| (a * f64::from(c) + (1.0 - a) * f64::from(u)).round() as u8;
                RGBColor(over(r, br), over(g, bg), over(b, bb))
            };
            let ratio =
                crate::chart::theme::contrast(on_page(slow(&theme)), on_page(collapsed(&theme)));
            assert!(ratio >= 2.0, "dark {dark}: {ratio:.2}:1");
        }
    }
}
