//! Charts, each one `draw` function generic over the plotters backend, so the same figure
//! renders to a canvas in the page and to SVG natively.

pub mod distribution;
mod figure_size;
pub mod herd;
pub mod staleness;
pub mod storm;
pub mod survival;

/// `text` as markup may hold it, in an element's text or a double-quoted attribute (SVG's
/// `<desc>`, the embed snippet's HTML).
pub(crate) fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `svg` with a `<title>` (the chart's title, as the page's embeds name it) and a `<desc>` (the
/// caption the page shows under the chart) as the first children of its root: what a screen
/// reader announces for an inline SVG, and the text to copy into an `<img>`'s `alt`.
pub fn described(svg: &str, title: &str, caption: &str) -> String {
    let described = format!(
        "<title>backoff-lab: {}</title>\n<desc>{}</desc>\n",
        escaped(title),
        escaped(caption)
    );
    match svg
        .find("<svg")
        .and_then(|at| svg[at..].find('>').map(|end| at + end + 1))
    {
        Some(end) => format!(
            "{}\n{described}{}",
            &svg[..end],
            svg[end..].trim_start_matches('\n')
        ),
        None => svg.to_string(),
    }
}

mod css_colour;
#[cfg(test)]
pub(crate) mod svg_read;
pub mod svg_text;
mod text_width;
mod theme;
pub mod timeline;

pub use css_colour::CssColour;
pub use figure_size::{figure_size, figure_size_within, MAX_SIDE, MIN_HEIGHT, MIN_WIDTH};
pub use theme::Theme;

use plotters::prelude::*;

use crate::Error;

/// Options every chart takes: colours and the device-pixel scale.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ChartOptions {
    /// Draw for a dark page (default false).
    #[cfg_attr(test, ts(as = "Option<bool>", optional))]
    pub dark: bool,
    /// Device pixels per CSS pixel (0.5 to 4, default 1); sizes of text, marks and lines scale
    /// with it.
    #[cfg_attr(test, ts(as = "Option<f64>", optional))]
    pub scale: f64,
    /// A logarithmic time axis (`ln(1 + t / base)`), for long tails (default false).
    #[cfg_attr(test, ts(as = "Option<bool>", optional))]
    pub log_scale: bool,
    /// The host page's background (`#faf8f5`, `#fff`, `rgb(250, 248, 245)`), filled behind the
    /// chart and under its lines' halos in place of the theme's own white or near-black, for a
    /// site whose page is off-white (default: the theme's). Text and lines keep the theme's
    /// colours: give a light background with the light theme, a dark one with the dark.
    #[cfg_attr(test, ts(as = "Option<String>", optional))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background: Option<CssColour>,
}

impl Default for ChartOptions {
    fn default() -> Self {
        ChartOptions {
            dark: false,
            scale: 1.0,
            log_scale: false,
            background: None,
        }
    }
}

impl ChartOptions {
    /// Refuses scales outside 0.5 to 4 (a NaN included).
    pub fn validated(self) -> Result<Self, Error> {
        if self.scale.is_finite() && (0.5..=4.0).contains(&self.scale) {
            Ok(self)
        } else {
            Err(Error::out_of_range(
                "scale",
                self.scale,
                "a device pixel ratio from 0.5 to 4",
            ))
        }
    }
}

/// Renders any chart to an SVG string of the given CSS size, its text at the sizes it is laid
/// out at ([`svg_text`]).
pub fn to_svg(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<svg_text::SvgFigure, plotters::coord::Shift>) -> Result<(), Error>,
) -> Result<String, Error> {
    let mut svg = String::new();
    {
        let area = svg_text::SvgFigure::with_string(&mut svg, size).into_drawing_area();
        draw(&area)?;
        area.present().map_err(drawing_error)?;
    }
    Ok(svg_text::tidy_font_sizes(&svg))
}

pub(crate) fn drawing_error<E: std::error::Error + Send + Sync>(
    err: DrawingAreaErrorKind<E>,
) -> Error {
    Error::Drawing(err.to_string())
}

/// Durations a person reads at a glance, for axis ticks.
pub(crate) const NICE_SECONDS: [f64; 30] = [
    0.001,
    0.01,
    0.1,
    0.5,
    1.0,
    2.0,
    5.0,
    10.0,
    15.0,
    30.0,
    60.0,
    120.0,
    300.0,
    600.0,
    900.0,
    1_800.0,
    3_600.0,
    7_200.0,
    10_800.0,
    21_600.0,
    43_200.0,
    86_400.0,
    172_800.0,
    604_800.0,
    1_209_600.0,
    2_592_000.0,
    7_776_000.0,
    15_552_000.0,
    31_536_000.0,
    63_072_000.0,
];

/// The unit a time axis writes every tick in ([`axis_unit`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum TickUnit {
    /// As [`crate::format_duration`] writes each, one minute as `1 min`.
    Natural,
    /// Seconds throughout: `90 s`, `120 s`, `125 s`.
    Seconds,
    /// Days throughout: `0`, `1 day`, `1.5 days`.
    Days,
    /// Hours throughout, with the minutes and seconds a tick has: `118 h`, `118 h 30 min`.
    Hours,
}

/// A time axis' tick label in `unit`: as [`crate::format_duration`] writes it, but one minute
/// as `1 min` (beside `2 min` it read `60 s`); in seconds or in days throughout an axis whose
/// ticks `format_duration` would write in two units ([`axis_unit`]).
pub(crate) fn time_tick(seconds: f64, unit: TickUnit) -> String {
    const DAY: f64 = 86_400.0;
    let trimmed =
        |value: f64| crate::number_text::without_trailing_zeros(&format!("{value:.1}")).to_string();
    match unit {
        TickUnit::Days if seconds <= 0.0 => "0".to_string(),
        TickUnit::Days => {
            // Grouped as the captions write days ("1,836 days"): an axis read "1460 days".
            let text = crate::number_text::grouped(&trimmed(seconds / DAY));
            format!("{text} {}", if text == "1" { "day" } else { "days" })
        }
        TickUnit::Seconds => format!("{} s", trimmed(seconds)),
        TickUnit::Hours if seconds <= 0.0 => "0".to_string(),
        TickUnit::Hours => {
            let whole = seconds.round() as u64;
            let (minutes, rest) = (whole % 3_600 / 60, whole % 60);
            let mut text = format!(
                "{} h",
                crate::number_text::grouped(&(whole / 3_600).to_string())
            );
            if minutes > 0 {
                text += &format!(" {minutes} min");
            }
            if rest > 0 {
                text += &format!(" {rest} s");
            }
            text
        }
        TickUnit::Natural if seconds == 60.0 => "1 min".to_string(),
        TickUnit::Natural => crate::format_duration(seconds),
    }
}

/// The unit of a linear time axis with `ticks`, so that one axis reads in one unit:
/// - days when a tick reaches 100 h (where `format_duration` writes days) and every tick is a
///   whole half day, so that a tenth of a day writes each exactly (ticks 6 h apart would read
///   "0.2 days"; the week's axis read "0 s, 24 h, 48 h, 72 h, 96 h, 5 days");
/// - else hours, when a tick reaches 100 h: `format_duration`'s days to a tenth wrote ticks an
///   hour apart on an axis from 118 h as "4.9 days, 4.9 days, 5 days" (outside review);
/// - seconds when ticks less than a minute apart reach a minute, under an hour (ticks 5 s apart
///   read "115 s, 2 min, 2.1 min", the last at 125 s; 20 s apart "40 s, 1 min, 80 s");
/// - else each as `format_duration` writes it.
pub(crate) fn axis_unit(ticks: &[f64]) -> TickUnit {
    const HALF_DAY: f64 = 43_200.0;
    let highest = ticks.iter().copied().fold(0.0, f64::max);
    let step = ticks
        .windows(2)
        .map(|pair| pair[1] - pair[0])
        .fold(f64::INFINITY, f64::min);
    if highest >= 100.0 * 3_600.0 {
        if ticks.iter().all(|&t| (t / HALF_DAY).fract() == 0.0) {
            TickUnit::Days
        } else {
            TickUnit::Hours
        }
    } else if step < 60.0 && (60.0..3_600.0).contains(&highest) {
        TickUnit::Seconds
    } else {
        TickUnit::Natural
    }
}

/// Multiples of the smallest nice duration that puts at most `max` ticks in `lo..=hi`.
pub(crate) fn nice_time_ticks(lo: f64, hi: f64, max: usize) -> Vec<f64> {
    let span = (hi - lo).max(f64::MIN_POSITIVE);
    let step = NICE_SECONDS
        .into_iter()
        .find(|step| span / step <= max.max(1) as f64)
        .unwrap_or(span);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// The width and height `text` takes in `style` on `area`, in pixels. Where the backend cannot
/// measure text (the native SVG backend, without a font stack), an estimate: 0.6 of the font
/// size a character.
pub(crate) fn text_size<DB: DrawingBackend, CT: plotters::coord::CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    text: &str,
    style: &TextStyle,
) -> (f64, f64) {
    match area.estimate_text_size(text, style) {
        Ok((w, h)) => (f64::from(w), f64::from(h)),
        Err(_) => {
            let size = style.font.get_size();
            (text.chars().count() as f64 * size * 0.6, size)
        }
    }
}

/// `text` in lines of at most `width` pixels in `style`, broken between words but never inside
/// a duration ("6 h 02 min" was broken after "6 h"); a word wider than `width` gets a line of
/// its own.
pub(crate) fn wrapped<DB: DrawingBackend, CT: plotters::coord::CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    text: &str,
    style: &TextStyle,
    width: f64,
) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in unbreakable_words(text) {
        match lines.last_mut() {
            Some(line) if text_size(area, &format!("{line} {word}"), style).0 <= width => {
                line.push(' ');
                line.push_str(&word);
            }
            _ => lines.push(word),
        }
    }
    // A short last word alone on its line ("… 6 h 02 min" / "old") takes the word before it
    // along, where the two fit.
    if let [.., before, last] = lines.as_mut_slice() {
        let words = unbreakable_words(before);
        if let ([kept @ .., moved], true) = (words.as_slice(), last.chars().count() <= 4) {
            let joined = format!("{moved} {last}");
            if !kept.is_empty() && text_size(area, &joined, style).0 <= width {
                (*before, *last) = (kept.join(" "), joined);
            }
        }
    }
    lines
}

/// The words of `text`, a duration's numbers and units kept together as one ("6 h 02 min").
fn unbreakable_words(text: &str) -> Vec<String> {
    const UNITS: [&str; 7] = ["ms", "s", "min", "h", "day", "days", "µs"];
    let mut words: Vec<String> = Vec::new();
    for word in text.split(' ') {
        let glued = words.last().is_some_and(|last| {
            let unit_after_number = last.ends_with(|c: char| c.is_ascii_digit())
                && UNITS.contains(&word.trim_end_matches([',', '.', ';', ':', ')']));
            let number_after_unit = UNITS.iter().any(|unit| last.ends_with(&format!(" {unit}")))
                && word.starts_with(|c: char| c.is_ascii_digit());
            unit_after_number || number_after_unit
        });
        match words.last_mut() {
            Some(last) if glued => {
                last.push(' ');
                last.push_str(word);
            }
            _ => words.push(word.to_string()),
        }
    }
    words
}

/// Text styles and sizes at a device scale, shared by the charts.
pub(crate) fn font(size: f64, scale: f64, colour: RGBColor) -> TextStyle<'static> {
    TextStyle {
        font: (plotters::style::FontFamily::SansSerif, size * scale).into_font(),
        color: colour.to_backend_color(),
        pos: plotters::style::text_anchor::Pos::default(),
    }
}

/// Lays out marker labels above a plot in rows: each goes in the first row where it touches
/// no label already placed; `None` when every row is taken there.
pub(crate) struct LabelRows {
    rows: Vec<Vec<(f64, f64)>>,
}

impl LabelRows {
    pub(crate) fn new(rows: usize) -> Self {
        LabelRows {
            rows: vec![Vec::new(); rows],
        }
    }

    pub(crate) fn place(&mut self, left: f64, right: f64) -> Option<usize> {
        let row = self
            .rows
            .iter()
            .position(|taken| taken.iter().all(|(l, r)| right <= *l || left >= *r))?;
        self.rows[row].push((left, right));
        Some(row)
    }
}

/// A legend swatch for a hatching in `color`: an unfilled style of no width, which no line is
/// drawn with, marks it.
pub(crate) fn hatched_swatch(color: RGBAColor) -> ShapeStyle {
    ShapeStyle {
        color,
        filled: false,
        stroke_width: 0,
    }
}

/// A legend across the top of a chart: a swatch and words for each entry, wrapped onto as many
/// rows as the width needs. `height` is where the plot may start.
pub(crate) struct Legend {
    placed: Vec<(String, ShapeStyle, f64, f64)>,
    style: TextStyle<'static>,
    scale: f64,
    pub(crate) height: f64,
}

impl Legend {
    pub(crate) fn new<DB: DrawingBackend>(
        area: &DrawingArea<DB, plotters::coord::Shift>,
        entries: Vec<(String, ShapeStyle)>,
        theme: &Theme,
        scale: f64,
    ) -> Self {
        let s = scale;
        let (width, height) = area.dim_in_pixel();
        let (width, height) = (f64::from(width), f64::from(height));
        let roomy = Self::laid_out(area, entries.clone(), theme, s, (12.0, 18.0, 16.0), width);
        // In a narrow column the legend wraps onto many rows: past a fifth of the chart's
        // height (a third and more of a 200 px storm chart was legend), set closer.
        if roomy.height <= height * 0.2 {
            return roomy;
        }
        // Closer, and without the asides in brackets ("first attempts (your policy)").
        let short = entries
            .into_iter()
            .map(|(text, swatch)| match text.split_once(" (") {
                Some((head, _)) if text.ends_with(')') => (head.to_string(), swatch),
                _ => (text, swatch),
            })
            .collect();
        Self::laid_out(area, short, theme, s, (10.5, 13.0, 10.0), width)
    }

    /// The entries in rows of at most `width` pixels at a font `size`, rows `pitch` apart and
    /// entries `gap` apart (CSS pixels).
    fn laid_out<DB: DrawingBackend>(
        area: &DrawingArea<DB, plotters::coord::Shift>,
        entries: Vec<(String, ShapeStyle)>,
        theme: &Theme,
        s: f64,
        (size, pitch, gap): (f64, f64, f64),
        width: f64,
    ) -> Self {
        use plotters::style::text_anchor::{HPos, Pos, VPos};
        let style = font(size, s, theme.text).pos(Pos::new(HPos::Left, VPos::Center));
        let indent = if gap < 16.0 {
            4.0 * s
        } else {
            (60.0 * s).min(width * 0.1)
        };
        let (mut x, mut y) = (indent, 10.0 * s);
        let mut placed = Vec::with_capacity(entries.len());
        for (text, swatch) in entries {
            let (w, _) = text_size(area, &text, &style);
            let entry_width = 14.0 * s + w;
            if x > indent && x + entry_width > width {
                x = indent;
                y += pitch * s;
            }
            placed.push((text, swatch, x, y));
            x += entry_width + gap * s;
        }
        Legend {
            placed,
            style,
            scale: s,
            height: y + 10.0 * s,
        }
    }

    pub(crate) fn draw<DB: DrawingBackend>(
        self,
        area: &DrawingArea<DB, plotters::coord::Shift>,
    ) -> Result<(), Error> {
        let s = self.scale;
        for (text, swatch, x, y) in self.placed {
            Self::swatch(area, swatch, (x, y), s)?;
            area.draw(&Text::new(
                text,
                ((x + 14.0 * s) as i32, (y + 5.0 * s) as i32),
                self.style.clone(),
            ))
            .map_err(drawing_error)?;
        }
        Ok(())
    }

    /// A fill's swatch is a square of it; a stroke's (a dashed line's) two dashes of it; a
    /// hatching's ([`hatched_swatch`]) a square outline with a diagonal.
    fn swatch<DB: DrawingBackend>(
        area: &DrawingArea<DB, plotters::coord::Shift>,
        swatch: ShapeStyle,
        (x, y): (f64, f64),
        s: f64,
    ) -> Result<(), Error> {
        if !swatch.filled && swatch.stroke_width == 0 {
            let (x0, y0, x1, y1) = (
                x as i32,
                y as i32,
                (x + 10.0 * s) as i32,
                (y + 10.0 * s) as i32,
            );
            let line = swatch.color.stroke_width(stroke(1.0, s));
            area.draw(&Rectangle::new([(x0, y0), (x1, y1)], line))
                .map_err(drawing_error)?;
            area.draw(&PathElement::new([(x0, y1), (x1, y0)], line))
                .map_err(drawing_error)?;
            return Ok(());
        }
        if !swatch.filled {
            let middle = (y + 5.0 * s) as i32;
            for (from, to) in [(0.0, 4.0), (6.0, 10.0)] {
                let dash = [
                    ((x + from * s) as i32, middle),
                    ((x + to * s) as i32, middle),
                ];
                area.draw(&PathElement::new(dash, swatch))
                    .map_err(drawing_error)?;
            }
            return Ok(());
        }
        let corners = [
            (x as i32, y as i32),
            ((x + 10.0 * s) as i32, (y + 10.0 * s) as i32),
        ];
        area.draw(&Rectangle::new(corners, swatch))
            .map_err(drawing_error)?;
        // A faint fill (a shaded region's) is a faint swatch, on a dark page next to
        // invisible: its colour at full strength outlines it.
        let RGBAColor(r, g, b, alpha) = swatch.color;
        if alpha < 0.5 {
            let outline = RGBColor(r, g, b).stroke_width(stroke(1.0, s));
            area.draw(&Rectangle::new(corners, outline))
                .map_err(drawing_error)?;
        }
        Ok(())
    }
}

/// Every chart's start: valid options, their theme, and the background filled.
pub(crate) fn prepare<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    options: &ChartOptions,
) -> Result<(ChartOptions, Theme), Error> {
    let options = options.validated()?;
    let mut theme = Theme::new(options.dark);
    if let Some(CssColour(r, g, b)) = options.background {
        theme.background = RGBColor(r, g, b);
    }
    area.fill(&theme.background).map_err(drawing_error)?;
    Ok((options, theme))
}

/// The y title to write along `plot`'s height, with its style: the first wording (longest
/// first) that fits, so that a short panel never spills its title into its neighbour's (or a
/// small figure's into its legend); when none fits, the shortest in a smaller font; when that
/// does not either, none (a title longer than its panel ran into the next panel's:
/// "backlogattempts/min").
fn fitting_title<'t, DB: DrawingBackend, CT: plotters::coord::CoordTranslate>(
    plot: &DrawingArea<DB, CT>,
    titles: &[&'t str],
    theme: &Theme,
    scale: f64,
) -> (&'t str, TextStyle<'static>) {
    let room = plot.dim_in_pixel().1;
    let fits = |title: &str, style: &TextStyle| {
        plot.estimate_text_size(title, style)
            .is_ok_and(|(width, _)| width <= room)
    };
    let (regular, small) = (
        font(11.0, scale, theme.muted),
        font(9.0, scale, theme.muted),
    );
    match titles.iter().find(|title| fits(title, &regular)) {
        Some(title) => (title, regular),
        None => match titles.last().filter(|title| fits(title, &small)) {
            Some(title) => (title, small),
            None => ("", regular),
        },
    }
}

/// The y axis and horizontal grid every cartesian chart shares (the x axis is labelled by the
/// chart itself, at nice durations).
pub(crate) fn draw_mesh<DB, Y>(
    chart: &mut TimeChart<'_, DB, Y>,
    theme: &Theme,
    scale: f64,
    y_titles: &[&str],
    y_labels: usize,
    y_format: &dyn Fn(&f64) -> String,
) -> Result<(), Error>
where
    DB: DrawingBackend,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>
        + plotters::coord::ranged1d::ValueFormatter<f64>,
{
    let line = theme.grid.stroke_width(stroke(1.0, scale));
    let room = chart.plotting_area().dim_in_pixel().1;
    let (y_desc, title_style) = fitting_title(chart.plotting_area(), y_titles, theme, scale);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        // No more labels than the panel has room for, one per 24 px; but three at least: asked
        // for two, plotters may find one round value in range, and a short panel read "0" alone.
        .y_labels(y_labels.min(tick_count(f64::from(room), scale, 24.0).max(3)))
        .y_label_formatter(y_format)
        .label_style(font(11.0, scale, theme.muted))
        .axis_style(theme.muted.stroke_width(stroke(1.0, scale)))
        .light_line_style(theme.background)
        .bold_line_style(line)
        .y_desc(y_desc)
        .axis_desc_style(title_style)
        .draw()
        .map_err(drawing_error)
}

/// A chart with a log scale on both axes (the staleness chart, the survival map).
pub(crate) type LogPlot<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<
        plotters::coord::combinators::LogCoord<f64>,
        plotters::coord::combinators::LogCoord<f64>,
    >,
>;

/// A log-log chart's axis lines and their titles, without ticks: plotters would put a stray
/// one on a log scale, so each chart writes its own at nice values.
pub(crate) fn log_axis_lines<DB: DrawingBackend>(
    plot: &mut LogPlot<'_, DB>,
    (x_desc, y_titles): (&str, &[&str]),
    theme: &Theme,
    scale: f64,
) -> Result<(), Error> {
    let (y_desc, title_style) = fitting_title(plot.plotting_area(), y_titles, theme, scale);
    plot.configure_mesh()
        .disable_mesh()
        .x_labels(0)
        .y_labels(0)
        .x_label_formatter(&|_| String::new())
        .y_label_formatter(&|_| String::new())
        .set_all_tick_mark_size(0)
        .axis_style(theme.muted.stroke_width(stroke(1.0, scale)))
        .x_desc(x_desc)
        .y_desc(y_desc)
        .axis_desc_style(title_style)
        .draw()
        .map_err(drawing_error)
}

/// A chart whose x axis is time in seconds, on whichever y axis it was built with.
pub(crate) type TimeChart<'a, DB, Y> =
    ChartContext<'a, DB, Cartesian2d<plotters::coord::types::RangedCoordf64, Y>>;

/// A stroke `width` CSS pixels wide at a device scale: whole device pixels, at least one.
pub(crate) fn stroke(width: f64, scale: f64) -> u32 {
    (width * scale).round().max(1.0) as u32
}

/// How many ticks fit along `length` pixels at one per `spacing` CSS pixels (at least two).
pub(crate) fn tick_count(length: f64, scale: f64, spacing: f64) -> usize {
    ((length / (scale * spacing)) as usize).max(2)
}

/// The room left of a plot for its y labels and its title: 52 px, or more where the widest
/// label (`widest`, as the axis writes it) would run into the title ("0.0040" did).
pub(crate) fn y_label_room<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    widest: &str,
    theme: &Theme,
    scale: f64,
) -> f64 {
    let label = text_size(area, widest, &font(11.0, scale, theme.muted)).0;
    // 28 px: the title (11 px tall), the gap of plotters' labels to the axis, and 6 px between.
    (label + 28.0 * scale).max(52.0 * scale)
}

/// A [`frame`]'s margin left of its y axis' labels, unscaled pixels.
pub(crate) const FRAME_LEFT: f64 = 8.0;
/// A [`frame`]'s margin right of its plot, unscaled pixels.
pub(crate) const FRAME_RIGHT: f64 = 24.0;

/// A cartesian chart on `area` with the margins every chart shares: `top` above the plot (the
/// legend's room), `x_labels` below it and `y_labels` left of it, in pixels.
pub(crate) fn frame<'a, 'b, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, plotters::coord::Shift>,
    scale: f64,
    top: f64,
    x_labels: f64,
    y_labels: f64,
) -> ChartBuilder<'a, 'b, DB> {
    let mut builder = ChartBuilder::on(area);
    builder
        .margin_top(top)
        .margin_right(FRAME_RIGHT * scale)
        .margin_left(FRAME_LEFT * scale)
        .x_label_area_size(x_labels)
        .y_label_area_size(y_labels);
    builder
}

/// Durations under a time axis at `ticks` (seconds), written on `area` (backend coordinates),
/// each with a short tick mark above it when `marks`.
pub(crate) fn time_labels<DB, Y>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    chart: &TimeChart<'_, DB, Y>,
    ticks: &[f64],
    theme: &Theme,
    scale: f64,
    marks: bool,
) -> Result<(), Error>
where
    DB: DrawingBackend,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    let s = scale;
    let style = font(11.0, s, theme.muted).pos(Pos::new(HPos::Center, VPos::Top));
    let unit = axis_unit(ticks);
    for t in ticks {
        let (x, y) = chart.backend_coord(&(*t, 0.0));
        if marks {
            area.draw(&PathElement::new(
                vec![(x, y), (x, y + (4.0 * s) as i32)],
                theme.muted,
            ))
            .map_err(drawing_error)?;
        }
        area.draw(&Text::new(
            time_tick(*t, unit),
            (x, y + (7.0 * s) as i32),
            style.clone(),
        ))
        .map_err(drawing_error)?;
    }
    Ok(())
}

/// The room under a time axis for its tick labels and, under them, its title
/// ([`time_axis_title`]), unscaled pixels.
pub(crate) const TIME_AXIS_ROOM: f64 = 42.0;

/// What a time axis measures, centred under its tick labels ([`time_labels`]), so that a chart
/// pasted into a document says it (three charts' hours read alike: give-up times, seconds since
/// a herd failed, time into a storm: outside review).
///
/// The first of `titles` (longest first) that fits the area's width is written; in a chart
/// too narrow for any, none.
pub(crate) fn time_axis_title<DB, Y>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    chart: &TimeChart<'_, DB, Y>,
    titles: &[&str],
    theme: &Theme,
    scale: f64,
) -> Result<(), Error>
where
    DB: DrawingBackend,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let centre = f64::from(xs.start + xs.end) / 2.0;
    let room = 2.0 * centre.min(f64::from(area.dim_in_pixel().0) - centre);
    let style = font(11.0, scale, theme.muted);
    let Some(title) = titles
        .iter()
        .find(|title| text_size(area, title, &style).0 <= room)
    else {
        return Ok(());
    };
    let at = (centre as i32, ys.end + (24.0 * scale) as i32);
    let style = style.pos(Pos::new(HPos::Center, VPos::Top));
    area.draw(&Text::new(title.to_string(), at, style))
        .map_err(drawing_error)
}

/// A line through `points`, in the chart's coordinates.
pub(crate) fn line<DB, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    points: Vec<(f64, f64)>,
    style: ShapeStyle,
) -> Result<(), Error>
where
    DB: DrawingBackend,
    X: plotters::coord::ranged1d::Ranged<ValueType = f64>,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    let points = thinned(chart, points);
    chart
        .draw_series(std::iter::once(PathElement::new(points, style)))
        .map(|_| ())
        .map_err(drawing_error)
}

/// `points` (in the chart's coordinates, in order) less those that change nothing a path
/// through them draws at the chart's pixel resolution: of each run of consecutive points in one
/// pixel column, only the first, the lowest, the highest and the last stay, in their order. A
/// storm of a week (10,080 minutes) then costs the canvas what the chart's width does, not a
/// call per minute.
fn thinned<DB, X, Y>(
    chart: &ChartContext<'_, DB, Cartesian2d<X, Y>>,
    points: Vec<(f64, f64)>,
) -> Vec<(f64, f64)>
where
    DB: DrawingBackend,
    X: plotters::coord::ranged1d::Ranged<ValueType = f64>,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    // Short paths (most of them: grid lines, markers) are drawn as they are.
    if points.len() < 64 {
        return points;
    }
    let column = |p: &(f64, f64)| chart.backend_coord(p).0;
    let mut kept = Vec::new();
    let mut start = 0;
    while start < points.len() {
        let here = column(&points[start]);
        let (mut low, mut high, mut end) = (start, start, start + 1);
        while end < points.len() && column(&points[end]) == here {
            if points[end].1 < points[low].1 {
                low = end;
            }
            if points[end].1 > points[high].1 {
                high = end;
            }
            end += 1;
        }
        let mut run = [start, low, high, end - 1];
        run.sort_unstable();
        let mut last = None;
        for i in run {
            if last != Some(i) {
                kept.push(points[i]);
                last = Some(i);
            }
        }
        start = end;
    }
    kept
}

/// A dashed line through `points`, in the chart's coordinates: `dash` pixels drawn, `gap` left.
pub(crate) fn dashed_line<DB, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    points: Vec<(f64, f64)>,
    (dash, gap): (f64, f64),
    style: ShapeStyle,
) -> Result<(), Error>
where
    DB: DrawingBackend,
    X: plotters::coord::ranged1d::Ranged<ValueType = f64>,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    let points = thinned(chart, points);
    chart
        .draw_series(std::iter::once(plotters::element::DashedPathElement::new(
            points, dash, gap, style,
        )))
        .map(|_| ())
        .map_err(drawing_error)
}

/// The area inside `outline`, filled, in the chart's coordinates.
pub(crate) fn polygon<DB, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    outline: Vec<(f64, f64)>,
    style: ShapeStyle,
) -> Result<(), Error>
where
    DB: DrawingBackend,
    X: plotters::coord::ranged1d::Ranged<ValueType = f64>,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    let outline = thinned(chart, outline);
    chart
        .draw_series(std::iter::once(Polygon::new(outline, style)))
        .map(|_| ())
        .map_err(drawing_error)
}

/// The band `x.0..x.1` shaded over the heights `y`, in the chart's coordinates.
pub(crate) fn shade<DB, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    x: (f64, f64),
    y: (f64, f64),
    style: ShapeStyle,
) -> Result<(), Error>
where
    DB: DrawingBackend,
    X: plotters::coord::ranged1d::Ranged<ValueType = f64>,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A duration is never broken across lines: "6 h" ended one line of the staleness chart's
    /// read-off and "02 min old" began the next.
    #[test]
    fn wrapping_keeps_a_duration_whole() {
        assert_eq!(
            unbreakable_words("4 h outage: first event 2 h 02 min late, 6 h 02 min old"),
            [
                "4 h",
                "outage:",
                "first",
                "event",
                "2 h 02 min",
                "late,",
                "6 h 02 min",
                "old"
            ]
        );
        assert_eq!(
            unbreakable_words("up to 30 s, then 2 attempts in 1.5 min."),
            ["up", "to", "30 s,", "then", "2", "attempts", "in", "1.5 min."]
        );
        // At every width, the lines hold the words in order and each duration on one line, and
        // "old" is not left alone on the last line where the duration before it fits there.
        let text = "4 h outage: first event 2 h 02 min late, 6 h 02 min old";
        let mut svg = String::new();
        let area = SVGBackend::with_string(&mut svg, (400, 100)).into_drawing_area();
        let style = font(12.0, 1.0, BLACK);
        for width in (20..=400).step_by(10) {
            let lines = wrapped(&area, text, &style, f64::from(width));
            assert_eq!(lines.join(" "), text, "{width} px");
            for duration in ["4 h", "2 h 02 min", "6 h 02 min"] {
                assert!(
                    lines.iter().any(|line| line.contains(duration)),
                    "{width} px: {lines:?}"
                );
            }
            let fits = text_size(&area, "6 h 02 min old", &style).0 <= f64::from(width);
            assert!(
                lines.len() == 1 || !fits || lines.last().unwrap() != "old",
                "{width} px: {lines:?}"
            );
        }
    }

    /// A long noisy path thinned to the pixel: no more than four points a column, each column's
    /// lowest and highest point and the path's ends kept, in order.
    #[test]
    fn a_long_path_is_thinned_to_what_its_pixels_show() {
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (300, 120)).into_drawing_area();
            let chart = ChartBuilder::on(&area)
                .build_cartesian_2d(0.0..10_080.0, 0.0..1.0)
                .unwrap();
            // A deterministic zigzag with spikes, one point a minute for a week.
            let points: Vec<(f64, f64)> = (0..10_080)
                .map(|m| (m as f64, ((m * 7919) % 1000) as f64 / 1000.0))
                .collect();
            let kept = thinned(&chart, points.clone());
            let columns = |path: &[(f64, f64)]| {
                let mut by_column = std::collections::BTreeMap::new();
                for p in path {
                    let (x, y) = chart.backend_coord(p);
                    let e = by_column.entry(x).or_insert((y, y));
                    *e = (e.0.min(y), e.1.max(y));
                }
                by_column
            };
            assert!(kept.len() <= 4 * 300, "{} points kept", kept.len());
            assert!(kept.len() < points.len() / 8);
            assert_eq!(columns(&kept), columns(&points));
            assert_eq!(kept.first(), points.first());
            assert_eq!(kept.last(), points.last());
            let mut rest = points.iter();
            assert!(kept.iter().all(|k| rest.any(|p| p == k)), "kept in order");
            // Short paths are drawn as they are.
            assert_eq!(
                thinned(&chart, points[..10].to_vec()),
                points[..10].to_vec()
            );
        }
    }

    /// A y title longer than its panel is tall ran into the next panel's title
    /// ("backlogattempts/min"): it is shrunk, or left out, but never runs past its panel.
    #[test]
    fn a_y_title_stays_within_its_panel() {
        for height in [30u32, 45, 60, 120] {
            let mut svg = String::new();
            {
                let area = SVGBackend::with_string(&mut svg, (300, height)).into_drawing_area();
                let mut chart = frame(&area, 1.0, 4.0, 4.0, 40.0)
                    .build_cartesian_2d(0.0..1.0, 0.0..1.0)
                    .unwrap();
                let theme = Theme::new(false);
                let titles = ["attempts per minute", "attempts/min"];
                draw_mesh(&mut chart, &theme, 1.0, &titles, 2, &|v| format!("{v}")).unwrap();
                area.present().unwrap();
            }
            for label in svg_read::labels(&svg) {
                if label.text.starts_with("attempts") {
                    let (_, top, _, bottom) = label.rect;
                    assert!(
                        top >= 3.5 && bottom <= f64::from(height) - 3.5,
                        "{height} px: {label:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_legend_wraps_to_stay_inside_a_narrow_chart() {
        let theme = Theme::new(false);
        let entries: Vec<(String, ShapeStyle)> = [
            "full jitter: peak 44/s",
            "without jitter: 1000 in one second",
            "mean 33.3/s",
            "capacity 1800/min",
        ]
        .iter()
        .map(|text| (text.to_string(), theme.primary.filled()))
        .collect();
        for width in [360u32, 900] {
            let mut svg = String::new();
            let area = SVGBackend::with_string(&mut svg, (width, 300)).into_drawing_area();
            let legend = Legend::new(&area, entries.clone(), &theme, 1.0);
            let rows: std::collections::BTreeSet<i64> =
                legend.placed.iter().map(|p| p.3 as i64).collect();
            for (text, _, x, _) in &legend.placed {
                let (w, _) = area.estimate_text_size(text, &legend.style).unwrap();
                assert!(
                    x + 14.0 + f64::from(w) <= f64::from(width),
                    "{text:?} runs past {width} px"
                );
            }
            // The plot starts below the last row.
            let last_row = *rows.iter().max().unwrap() as f64;
            assert!(legend.height >= last_row + 10.0);
            assert_eq!(
                rows.len() > 1,
                width == 360,
                "{width} px: {} rows",
                rows.len()
            );
        }
    }
}
