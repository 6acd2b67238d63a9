//! The herd chart: first retries per second after a shared failure, the unjittered spike and the
//! chosen jitter mode overlaid, with the mean rate as a reference line.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{
    dashed_line, draw_mesh, drawing_error, font, frame, nice_time_ticks, prepare, stroke,
    tick_count, time_axis_title, time_labels, wrapped, y_label_room, ChartOptions, Legend, Theme,
    TIME_AXIS_ROOM,
};
use crate::herd::{format_rate, Herd};
use crate::number_text::{format_count, grouped};
use crate::{format_duration, Error};

/// Draws `herd`'s first-retry arrivals per second over `spike`'s (the unjittered herd), filling
/// `area`. Bins wider than a second (a long spread: see [`crate::herd`]) are drawn as their
/// average rate, and the axis title and legend name their width.
///
/// # Example
/// ```
/// use backoff_lab::chart::{herd, to_svg, ChartOptions};
/// use backoff_lab::herd::herd as simulate;
/// use backoff_lab::jitter::Jitter;
/// use backoff_lab::Policy;
/// let spread = simulate(&Policy::article(), Jitter::Full, 1_000, 42)?;
/// let spike = simulate(&Policy::article(), Jitter::None, 1_000, 42)?;
/// let svg = to_svg((800, 300), |area| herd::draw(area, &spread, Some(&spike), &ChartOptions::default()))?;
/// assert!(svg.contains("without jitter"));
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    herd: &Herd,
    spike: Option<&Herd>,
    options: &ChartOptions,
) -> Result<(), Error> {
    for h in std::iter::once(herd).chain(spike) {
        check_bin_width(h)?;
    }
    let (options, theme) = prepare(area, options)?;
    let s = options.scale;
    if herd.first_retry_per_second.iter().all(|&count| count == 0) {
        // A schedule that gives up at its first attempt retries nothing: empty axes with
        // "peak 0/s" read as a chart that failed to draw.
        return draw_note(
            area,
            "no delivery is retried: the schedule gives up at its first attempt",
            &theme,
            s,
        );
    }
    // The spike is drawn under the spread unless it is the same herd.
    let spike = spike.filter(|sp| sp.mode != herd.mode);
    let extent = Extent::new(herd, spike);
    // A legend in words along the top; the plot starts below it.
    let legend = Legend::new(
        area,
        legend_entries(herd, spike, &extent, &theme),
        &theme,
        s,
    );

    let width = f64::from(area.dim_in_pixel().0);
    let decimals = y_decimals(&extent);
    let widest = grouped(&format!("{:.decimals$}", extent.top));
    let label_room = y_label_room(area, &widest, &theme, s);
    let mut chart = frame(
        area,
        s,
        legend.height + 8.0 * s,
        TIME_AXIS_ROOM * s,
        label_room,
    )
    .build_cartesian_2d(0.0..extent.seconds, 0.0..extent.top)
    .map_err(drawing_error)?;
    let titles = y_titles(extent.wide);
    draw_mesh(
        &mut chart,
        &theme,
        s,
        &titles.iter().map(String::as_str).collect::<Vec<_>>(),
        5,
        &|v: &f64| grouped(&format!("{v:.decimals$}")),
    )?;
    // No tick finer than the bins (1 s at the narrowest): a lone bar at second 0 between ticks
    // every 500 ms read as a burst narrower than its second.
    let bins_across = (extent.seconds / extent.narrowest_bin_s()).floor() as usize;
    let ticks = nice_time_ticks(
        0.0,
        extent.seconds,
        tick_count(width, s, 70.0).min(bins_across),
    );
    time_labels(area, &chart, &ticks, &theme, s, false)?;
    time_axis_title(
        area,
        &chart,
        &[
            "time since the deliveries failed together",
            "time since they failed",
        ],
        &theme,
        s,
    )?;

    let spike_bars = extent
        .reference
        .map(|reference| extent.bars(reference, width));
    if let Some(bars) = &spike_bars {
        chart
            .draw_series(extent.rectangles(bars, spike_colour(&theme).filled()))
            .map_err(drawing_error)?;
    }
    let bars = extent.bars(extent.main, width);
    chart
        .draw_series(extent.rectangles(&bars, spread_colour(&theme).filled()))
        .map_err(drawing_error)?;
    if let Some(spike_bars) = &spike_bars {
        // A spike bar the spread's covers whole (every first retry in one second either way,
        // under a base of 1 µs) is outlined over it, as the legend promises it.
        let hidden: Vec<Bar> = spike_bars
            .iter()
            .filter(|spike| {
                bars.iter()
                    .any(|bar| bar.span_s == spike.span_s && bar.rate_per_s >= spike.rate_per_s)
            })
            .cloned()
            .collect();
        let outline = spike_colour(&theme).stroke_width(stroke(2.0, s));
        chart
            .draw_series(extent.rectangles(&hidden, outline))
            .map_err(drawing_error)?;
        if extent.cut {
            // Wide bins average the spike away: its label says what it is, as the legend does.
            let in_one_second = spike.map_or(0.0, |sp| sp.unjittered_first_second().0);
            draw_cuts(
                area,
                &chart,
                spike_bars,
                (extent.top, in_one_second),
                &theme,
                s,
            )?;
        }
    }
    let mean = herd.first_retry.mean_per_s;
    let mean_line = vec![(0.0, mean), (extent.seconds, mean)];
    let style = theme.secondary.stroke_width(stroke(1.5, s));
    dashed_line(&mut chart, mean_line, (5.0 * s, 4.0 * s), style)?;

    legend.draw(area)
}

/// Refuses a herd whose bins are narrower than the narrowest a herd is counted in (1 s), as a
/// result handed in from outside may be: rates are counts over the width, and a width near 0
/// would put bars past any pixel plotters can address.
fn check_bin_width(herd: &Herd) -> Result<(), Error> {
    let bin = herd.first_retry.bin_s;
    if bin.is_finite() && bin >= 1.0 {
        return Ok(());
    }
    Err(Error::out_of_range(
        "computed",
        format!("first_retry.bin_s {bin:e}"),
        "a herd whose bins are 1 s or wider",
    ))
}

/// A herd's first retries per bin of `first_retry.bin_s` seconds (see the herd module docs:
/// 1 s, or a round width for a long spread), and that width; heights are per second.
type Bins<'a> = (&'a [u64], f64);

fn bins(h: &Herd) -> Bins<'_> {
    (&h.first_retry_per_second, h.first_retry.bin_s)
}

/// A spike taller than this many times the spread's peak is cut off at the top of the plot:
/// drawn whole, it would flatten the spread into a line (1000 in one second over a spread
/// peaking at 44/s), and the spread's shape is what the chart is for.
const CUT_RATIO: f64 = 4.0;

/// A bar to draw: the seconds it spans, the rate it stands for (per second), and the width of
/// the bins it stands for.
#[derive(Clone)]
struct Bar {
    span_s: (f64, f64),
    rate_per_s: f64,
    bin_s: f64,
}

/// What the plot spans: the herd's bins and the spike's, how many seconds and how high.
struct Extent<'a> {
    main: Bins<'a>,
    reference: Option<Bins<'a>>,
    seconds: f64,
    /// The axis' top: above the tallest bar, or twice the spread's peak when the spike is cut.
    top: f64,
    /// Whether the spike's bars past the top are cut off there (see [`CUT_RATIO`]).
    cut: bool,
    /// The bins' width, when wider than a second: the chart says so, and rates below one get
    /// decimals.
    wide: Option<f64>,
}

impl<'a> Extent<'a> {
    fn new(herd: &'a Herd, spike: Option<&'a Herd>) -> Self {
        let main = bins(herd);
        let reference = spike.map(bins);
        let all = || std::iter::once(main).chain(reference);
        let seconds = all()
            .map(|(counts, bin)| counts.len() as f64 * bin)
            .fold(2.0, f64::max);
        let peak_of =
            |(counts, bin): Bins<'_>| counts.iter().copied().max().unwrap_or(0) as f64 / bin;
        let main_peak = peak_of(main);
        let cut = reference
            .map(peak_of)
            .is_some_and(|peak| main_peak > 0.0 && peak > CUT_RATIO * main_peak);
        let peak = all().map(peak_of).fold(0.0, f64::max);
        let top = match cut {
            true => 2.0 * main_peak,
            false if peak > 0.0 => 1.15 * peak,
            false => 1.15,
        };
        Extent {
            main,
            reference,
            seconds,
            top,
            cut,
            wide: all().map(|(_, bin)| bin).find(|bin| *bin != 1.0),
        }
    }

    /// A bar per bin while bins are wider than a pixel; past that, a bar per pixel's worth
    /// of bins at the busiest bin in it (a day of seconds would be 86,400 bars).
    fn bars(&self, (counts, bin): Bins<'_>, width: f64) -> Vec<Bar> {
        let per_bar = (self.seconds / width.max(1.0) / bin).ceil().max(1.0) as usize;
        let (inset, last) = if per_bar == 1 {
            (0.08, 0.92)
        } else {
            (0.0, 1.0)
        };
        counts
            .chunks(per_bar)
            .enumerate()
            .filter_map(|(i, chunk)| {
                let busiest = chunk.iter().copied().max().filter(|c| *c > 0)?;
                let start = (i * per_bar) as f64;
                Some(Bar {
                    span_s: (
                        (start + inset * per_bar as f64) * bin,
                        (start + last * per_bar as f64) * bin,
                    ),
                    rate_per_s: busiest as f64 / bin,
                    bin_s: bin,
                })
            })
            .collect()
    }

    /// The bars as rectangles in `style`, none past the axis' top.
    fn rectangles(&self, bars: &[Bar], style: ShapeStyle) -> Vec<Rectangle<(f64, f64)>> {
        bars.iter()
            .map(|bar| {
                let (from, to) = bar.span_s;
                Rectangle::new([(from, 0.0), (to, bar.rate_per_s.min(self.top))], style)
            })
            .collect()
    }

    /// The narrowest bins drawn, seconds (1 s, or a long spread's wider round width).
    fn narrowest_bin_s(&self) -> f64 {
        std::iter::once(self.main)
            .chain(self.reference)
            .map(|(_, bin)| bin)
            .fold(f64::INFINITY, f64::min)
    }
}

/// Marks every bar of the spike cut off at the axis' top with a gap across it under the top,
/// and the busiest (the first of equals) with its rate beside it ("1000/s ↑"); in bins wider
/// than a second, with the deliveries the spike has in one second instead ("1,000 in one
/// second ↑", as the legend and the caption say): its bin's average rate, in bins other than
/// the axis', read as a contradiction of them ("3.33/s over 5 min" under "10 min bins").
fn draw_cuts<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    bars: &[Bar],
    (top, in_one_second): (f64, f64),
    theme: &Theme,
    s: f64,
) -> Result<(), Error> {
    let cut: Vec<&Bar> = bars.iter().filter(|bar| bar.rate_per_s > top).collect();
    for bar in &cut {
        let (from, to) = bar.span_s;
        let (left, y_top) = chart.backend_coord(&(from, top));
        let (right, y_bottom) = chart.backend_coord(&(to, 0.0));
        let gap_y = y_top + (f64::from(y_bottom - y_top) * 0.06) as i32;
        let band = (3.0 * s).max(1.0) as i32;
        area.draw(&Rectangle::new(
            [(left, gap_y), (right + 1, gap_y + band)],
            theme.background.filled(),
        ))
        .map_err(drawing_error)?;
    }
    let busiest = cut.iter().copied().reduce(|most, bar| {
        if bar.rate_per_s > most.rate_per_s {
            bar
        } else {
            most
        }
    });
    let Some(busiest) = busiest else {
        return Ok(());
    };
    let label = match busiest.bin_s {
        1.0 => format!("{}/s ↑", format_rate(busiest.rate_per_s)),
        _ => format!("{} in one second ↑", format_count(in_one_second)),
    };
    let (left, y_top) = chart.backend_coord(&(busiest.span_s.0, top));
    area.draw(&Text::new(
        label,
        (left - (4.0 * s) as i32, y_top + (2.0 * s) as i32),
        font(11.0, s, theme.alert).pos(Pos::new(HPos::Right, VPos::Top)),
    ))
    .map_err(drawing_error)
}

/// `note` in the middle of `area`, in place of a plot with nothing to show.
fn draw_note<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    note: &str,
    theme: &Theme,
    s: f64,
) -> Result<(), Error> {
    let (width, height) = area.dim_in_pixel();
    let style = font(13.0, s, theme.muted).pos(Pos::new(HPos::Center, VPos::Center));
    let lines = wrapped(area, note, &style, f64::from(width) * 0.9);
    let pitch = 18.0 * s;
    let first = f64::from(height) / 2.0 - pitch * (lines.len() as f64 - 1.0) / 2.0;
    for (i, line) in lines.into_iter().enumerate() {
        let y = (first + pitch * i as f64) as i32;
        area.draw(&Text::new(line, (width as i32 / 2, y), style.clone()))
            .map_err(drawing_error)?;
    }
    Ok(())
}

/// The jittered herd's bars, and its legend swatch: the same colour, so that the swatch finds
/// its bars.
fn spread_colour(theme: &Theme) -> RGBAColor {
    theme.primary.mix(0.85)
}

/// The unjittered spike's bar (under the spread's), and its swatch. Strong enough to read as
/// the swatch's orange: at a third it was a pale peach beside a saturated swatch.
fn spike_colour(theme: &Theme) -> RGBAColor {
    theme.alert.mix(0.7)
}

/// The jitter mode's peak, the spike (when drawn) and the mean rate.
fn legend_entries(
    herd: &Herd,
    spike: Option<&Herd>,
    extent: &Extent<'_>,
    theme: &Theme,
) -> Vec<(String, ShapeStyle)> {
    // The mean as the caption writes it (three significant digits: 33.3, 3,333), with the
    // window it is taken over: the line runs over bars that come only late in it (equal jitter)
    // and was read as their average.
    let mean_text = format!(
        "mean over {}: {}/s",
        format_duration(herd.first_retry.window_s),
        format_rate(herd.first_retry.mean_per_s)
    );
    let peak_text = match extent.wide {
        None => format!("peak {}/s", format_count(herd.first_retry.peak_per_s)),
        Some(_) => format!(
            "peak {}/s over {}",
            format_rate(herd.first_retry.peak_per_s),
            format_duration(herd.first_retry.bin_s)
        ),
    };
    let label = crate::herd::jitter_label(&herd.mode);
    let mut entries = vec![(
        format!("{label}: {peak_text}"),
        spread_colour(theme).filled(),
    )];
    if let Some(sp) = spike {
        entries.push((
            format!(
                "without jitter: {} in one second",
                format_count(sp.unjittered_first_second().0)
            ),
            spike_colour(theme).filled(),
        ));
    }
    entries.push((mean_text, theme.secondary.filled()));
    entries
}

/// The y axis' titles, longest first, naming the bins' width when wider than a second.
fn y_titles(wide: Option<f64>) -> Vec<String> {
    match wide {
        None => vec![
            "first retries per second".into(),
            "retries per second".into(),
            "retries/s".into(),
        ],
        Some(bin) => vec![
            format!("first retries per second ({} bins)", format_duration(bin)),
            format!("retries/s ({} bins)", format_duration(bin)),
            "retries/s".into(),
        ],
    }
}

/// Whole numbers, unless the axis is low (wide bins' small rates, or a small herd's axis of
/// twice its peak under a cut spike): then enough decimals for the five labels to differ.
fn y_decimals(extent: &Extent<'_>) -> usize {
    let top = extent.top;
    if top < 5.0 {
        (1.0 - (top / 5.0).log10().floor()).clamp(0.0, 12.0) as usize
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::{svg_read, to_svg};
    use crate::herd::herd as simulate;
    use crate::jitter::Jitter;
    use crate::Policy;

    fn svg(jitter: Jitter) -> String {
        herd_svg(&Policy::article(), jitter, 1_000)
    }

    /// `deliveries` failing together under `policy` with `jitter` (seed 42), over their
    /// unjittered spike, 800 × 300.
    fn herd_svg(policy: &Policy, jitter: Jitter, deliveries: usize) -> String {
        let spread = simulate(policy, jitter, deliveries, 42).unwrap();
        let spike = simulate(policy, Jitter::None, deliveries, 42).unwrap();
        to_svg((800, 300), |area| {
            draw(area, &spread, Some(&spike), &ChartOptions::default())
        })
        .unwrap()
    }

    /// The time axis says what it measures, as the lowest label.
    #[test]
    fn the_time_axis_says_what_it_measures() {
        let labels = crate::chart::svg_read::labels(&svg(Jitter::Full));
        let lowest = labels
            .iter()
            .max_by(|a, b| a.rect.1.total_cmp(&b.rect.1))
            .unwrap();
        assert_eq!(lowest.text, "time since the deliveries failed together");
    }

    /// A herd spread over 300 days at 1,000 deliveries labels its rates "0.0040": the labels
    /// ran into the axis' title (`#base=300d&cap=300d&mode=proportional&factor=1&attempts=2`).
    #[test]
    fn long_rate_labels_leave_room_for_the_axis_title() {
        let days = 300.0 * 86_400.0;
        let policy = Policy::new(days, 1.0, days, crate::Stop::Attempts(2)).unwrap();
        let drawn = herd_svg(
            &policy,
            Jitter::from_name("proportional", 1.0).unwrap(),
            1_000,
        );
        let labels = svg_read::labels(&drawn);
        // The axis' title, in whichever of its forms fits the plot's height.
        let title = labels.iter().find(|l| l.text.ends_with("(10 min bins)"));
        let rates: Vec<_> = labels
            .iter()
            .filter(|l| l.text.starts_with("0.00"))
            .collect();
        assert!(title.is_some() && !rates.is_empty(), "{labels:?}");
        // Text widths here are estimates; a browser's font runs wider, so a gap of a few
        // pixels between the title and the labels' left edge is kept.
        let left = rates.iter().map(|r| r.rect.0).fold(f64::INFINITY, f64::min);
        let gap = left - title.unwrap().rect.2;
        assert!(gap >= 6.0, "{gap} px between the title and {rates:?}");
    }

    /// A result from outside whose bin width was garbled to almost 0 (a sign bit flipped in
    /// the bytes of 1 s, as the fuzz test did) made bars plotters overflowed on.
    #[test]
    fn a_herd_with_bins_narrower_than_a_second_is_refused_by_name() {
        let mut spread = simulate(&Policy::article(), Jitter::Full, 1_000, 42).unwrap();
        let spike = simulate(&Policy::article(), Jitter::None, 1_000, 42).unwrap();
        for width in [-3.6e-304, 0.0, 0.5, f64::NAN, f64::INFINITY] {
            spread.first_retry.bin_s = width;
            let refused = to_svg((800, 300), |area| {
                draw(area, &spread, Some(&spike), &ChartOptions::default())
            })
            .unwrap_err()
            .to_string();
            assert!(
                refused.starts_with(
                    "computed must be a herd whose bins are 1 s or wider, got first_retry.bin_s"
                ) && refused.len() < 100,
                "{refused}"
            );
        }
    }

    #[test]
    fn the_spike_and_the_spread_are_both_drawn() {
        let full = svg(Jitter::Full);
        // One bar for the spike, about thirty for the spread.
        let bars = full.matches("<rect").count();
        assert!(bars > 30, "{bars} bars");
        assert!(full.contains("without jitter: 1,000 in one second"));
        assert!(full.contains("full jitter: peak"));
        assert!(full.contains("mean over 30 s: 33.3/s"));
        let none = svg(Jitter::None);
        assert!(
            !none.contains("1,000 in one second"),
            "no overlay of the spike on itself"
        );
        assert!(
            none.contains("without jitter: peak 1,000/s"),
            "not \"none jitter\""
        );
        assert!(none.matches("<rect").count() < bars);
    }

    /// Each legend swatch is the colour, opacity included, of bars drawn in the plot: the
    /// "without jitter" swatch was saturated orange, its bar a pale peach.
    /// The unjittered spike (1000 in one second) is 23 times the full-jitter spread's peak
    /// (44/s): drawn whole it flattened the spread to a twentieth of the plot. It is cut off at
    /// the top, labelled with its rate, and the spread's peak fills half the plot; a spike only a
    /// little above the spread (equal jitter over 10 deliveries) is drawn whole.
    #[test]
    fn a_spike_far_above_the_spread_is_cut_off_and_labelled() {
        let theme = Theme::new(false);
        let heights = |svg: &str, colour| -> Vec<f64> {
            svg_read::rects(svg)
                .iter()
                .filter(|r| r.rect.2 - r.rect.0 != 10.0 && r.fill == svg_read::hex(colour))
                .map(|r| r.rect.3 - r.rect.1)
                .collect()
        };
        let full = svg(Jitter::Full);
        let spike = heights(&full, theme.alert).into_iter().fold(0.0, f64::max);
        let spread = heights(&full, theme.primary)
            .into_iter()
            .fold(0.0, f64::max);
        assert!(
            spread > 0.45 * spike && spread < 0.55 * spike,
            "the spread's peak is {spread} px under a cut spike of {spike} px"
        );
        let labels = svg_read::labels(&full);
        assert!(labels.iter().any(|l| l.text == "1,000/s ↑"), "{labels:?}");

        let whole = herd_svg(&Policy::article(), Jitter::Equal, 10);
        assert!(
            !whole.contains('↑'),
            "a spike of 10 over a spread of 1 to 3 is drawn whole"
        );
    }

    /// A spike split over two seconds (a 30.5 s first gap: about 500 in each) has both bars
    /// cut: each gets its gap, and one label names the busier; the other is no bar of the
    /// axis' height that reads as real.
    /// A schedule of one attempt retries nothing: the chart says so in its place, not as
    /// empty axes under "peak 0/s".
    #[test]
    fn a_herd_with_no_retries_says_so_in_the_charts_place() {
        let policy = Policy::new(30.0, 3.0, 10_800.0, crate::Stop::Attempts(1)).unwrap();
        let drawn = herd_svg(&policy, Jitter::Full, 1_000);
        let words: Vec<String> = svg_read::labels(&drawn)
            .into_iter()
            .map(|l| l.text)
            .collect();
        assert_eq!(
            words.join(" "),
            "no delivery is retried: the schedule gives up at its first attempt"
        );
    }

    /// Under a base of 1 µs every first retry lands in second 0 with or without jitter: the
    /// spike's bar, covered by the spread's, is outlined over it, and the time axis has no
    /// tick finer than its 1 s bins.
    #[test]
    fn a_spike_the_spread_covers_is_outlined_and_ticks_are_whole_seconds() {
        let theme = Theme::new(false);
        let policy = Policy::new(1e-6, 3.0, 10_800.0, crate::Stop::Attempts(14)).unwrap();
        let drawn = herd_svg(&policy, Jitter::Full, 1_000);
        let spike = svg_read::hex(theme.alert);
        let outlined = svg_read::rects(&drawn)
            .into_iter()
            .filter(|r| r.stroke == spike && r.fill != spike)
            .count();
        assert_eq!(outlined, 1, "the covered spike's one bar is outlined");
        let ticks: Vec<String> = svg_read::labels(&drawn)
            .into_iter()
            .map(|l| l.text)
            .filter(|t| t.ends_with(" s") || t.ends_with("ms"))
            .collect();
        assert!(
            !ticks.is_empty() && ticks.iter().all(|t| !t.contains('.') && !t.ends_with("ms")),
            "{ticks:?}"
        );
        // The article's spike stands out of the spread: no outline.
        let article = svg(Jitter::Full);
        assert!(svg_read::rects(&article)
            .iter()
            .all(|r| r.stroke != spike || r.fill == spike));
    }

    #[test]
    fn every_cut_bar_is_marked_and_the_busiest_labelled() {
        let policy = Policy::new(30.5, 3.0, 10_800.0, crate::Stop::Attempts(14)).unwrap();
        let svg = herd_svg(&policy, Jitter::Full, 1_000);
        let background = svg_read::hex(Theme::new(false).background);
        let gaps = svg_read::rects(&svg)
            .iter()
            .filter(|r| r.fill == background && r.rect.3 - r.rect.1 < 5.0)
            .count();
        assert_eq!(gaps, 2, "a gap across each cut bar");
        let labels = svg_read::labels(&svg);
        assert_eq!(
            labels.iter().filter(|l| l.text.ends_with('↑')).count(),
            1,
            "{labels:?}"
        );
    }

    /// Five deliveries: a spread peaking at 1/s under a cut spike of 5/s, an axis to 2. Whole
    /// numbers labelled it 0, 0, 1, 2, 2; the labels differ.
    #[test]
    fn a_low_axis_has_labels_that_differ() {
        let svg = herd_svg(&Policy::article(), Jitter::Full, 5);
        let ticks: Vec<String> = svg_read::labels(&svg)
            .into_iter()
            .filter(|l| l.rect.2 < 60.0 && l.text.parse::<f64>().is_ok())
            .map(|l| l.text)
            .collect();
        assert!(ticks.len() >= 3, "{ticks:?}");
        let distinct: std::collections::HashSet<_> = ticks.iter().collect();
        assert_eq!(distinct.len(), ticks.len(), "{ticks:?}");
    }

    #[test]
    fn every_swatch_matches_its_bars() {
        for dark in [false, true] {
            let spread = simulate(&Policy::article(), Jitter::Full, 1_000, 42).unwrap();
            let spike = simulate(&Policy::article(), Jitter::None, 1_000, 42).unwrap();
            let options = ChartOptions {
                dark,
                ..ChartOptions::default()
            };
            let svg = to_svg((800, 300), |area| {
                draw(area, &spread, Some(&spike), &options)
            })
            .unwrap();
            let rects = svg_read::rects(&svg);
            let is_swatch = |r: &&svg_read::Rect| r.rect.2 - r.rect.0 == 10.0 && r.rect.1 < 30.0;
            let swatches: Vec<_> = rects.iter().filter(is_swatch).collect();
            let bars: Vec<_> = rects.iter().filter(|r| !is_swatch(r)).collect();
            let theme = Theme::new(dark);
            for colour in [theme.primary, theme.alert] {
                let swatch = swatches
                    .iter()
                    .find(|s| s.fill == svg_read::hex(colour))
                    .unwrap_or_else(|| panic!("dark {dark}: no swatch in {colour:?}"));
                assert!(
                    bars.iter()
                        .any(|b| b.fill == swatch.fill && b.opacity == swatch.opacity),
                    "dark {dark}: no bar like the swatch {swatch:?}"
                );
            }
        }
    }

    #[test]
    fn a_day_of_seconds_is_drawn_a_bar_per_pixel_at_its_busiest_second() {
        let policy = Policy::new(86_400.0, 2.0, 86_400.0, crate::Stop::Attempts(3)).unwrap();
        let spread = simulate(&policy, Jitter::Full, 20_000, 7).unwrap();
        let svg = to_svg((800, 300), |area| {
            draw(area, &spread, None, &ChartOptions::default())
        })
        .unwrap();
        let bars = svg.matches("<rect").count();
        assert!(bars <= 800, "{bars} bars for 800 pixels");
        assert!(bars > 100, "{bars} bars");
    }

    #[test]
    fn wide_bins_are_drawn_as_average_rates_and_named() {
        let days = 300.0 * 86_400.0;
        let policy = Policy::new(days, 1.0, days, crate::Stop::Attempts(2)).unwrap();
        let spread = simulate(&policy, Jitter::proportional(1.0).unwrap(), 1_000, 1).unwrap();
        let spike = simulate(&policy, Jitter::None, 1_000, 1).unwrap();
        let svg = to_svg((800, 300), |area| {
            draw(area, &spread, Some(&spike), &ChartOptions::default())
        })
        .unwrap();
        // The axis' title names the bins, in whichever of its forms fits the plot's height.
        assert!(
            svg.contains("retries/s (10 min bins)")
                || svg.contains("retries per second (10 min bins)"),
            "{svg}"
        );
        assert!(svg.contains("peak 0.00333/s over 10 min"));
        assert!(svg.contains("without jitter: 1,000 in one second"));
        assert!(svg.contains("mean over 600 days: 0.0000193/s"), "{svg}");
        let bars = svg.matches("<rect").count();
        assert!(bars <= 2 * 800, "{bars} bars for 800 pixels");
        // The spike's 5 min bin at its average rate (1000 / 300 s) is a thousand times the
        // spread's peak: it is cut off and labelled with what it is (not "3.33/s over 5 min"
        // under an axis of 10 min bins), and the spread's peak sets the scale, with decimals on
        // the axis.
        assert!(svg.contains("\n1,000 in one second ↑\n"), "{svg}");
        assert!(!svg.contains("/s over 5 min"), "{svg}");
        assert!(svg.contains("\n0.0060\n"), "{svg}");
    }
}
