//! The give-up-time distribution of one jittered delivery: a histogram of sampled give-up times,
//! the exact percentiles as markers, the expected value and the unjittered give-up time.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{
    dashed_line, draw_mesh, drawing_error, font, frame, line, nice_time_ticks, prepare, stroke,
    tick_count, time_axis_title, time_labels, ChartOptions, LabelRows, Theme, TimeChart,
    TIME_AXIS_ROOM,
};
use crate::duration::format_table_duration;
use crate::give_up::JitterReport;
use crate::number_text::without_trailing_zeros;
use crate::Error;

/// Draws `report`'s distribution filling `area`.
///
/// # Example
/// ```
/// use backoff_lab::chart::{distribution, to_svg, ChartOptions};
/// use backoff_lab::give_up::{JitterReport, Sampling};
/// use backoff_lab::jitter::Jitter;
/// use backoff_lab::Policy;
/// let sampling = Sampling { samples: 20_000, seed: 42, bins: 60 };
/// let report = JitterReport::new(&Policy::article(), Jitter::Full, sampling, None)?;
/// let svg = to_svg((800, 300), |area| distribution::draw(area, &report, &ChartOptions::default()))?;
/// assert!(svg.contains("unjittered"));
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    report: &JitterReport,
    options: &ChartOptions,
) -> Result<(), Error> {
    let (options, theme) = prepare(area, options)?;
    let s = options.scale;
    let shares = shares(report);
    let (lo, hi, unjittered_shown) = time_range(report);
    let top = shares.iter().copied().fold(0.0, f64::max).max(1.0) * 1.12;

    let width = f64::from(area.dim_in_pixel().0);
    let mut chart = frame(area, s, 58.0 * s, TIME_AXIS_ROOM * s, 52.0 * s)
        .build_cartesian_2d(lo..hi, 0.0..top)
        .map_err(drawing_error)?;
    draw_mesh(
        &mut chart,
        &theme,
        s,
        &["share of deliveries", "deliveries"],
        5,
        // As many decimals as the ticks need: whole percents wrote 0.5 % and 1.5 % as 1% and 2%.
        &|share: &f64| format!("{}%", without_trailing_zeros(&format!("{share:.3}"))),
    )?;
    // Time ticks at nice durations (plotters would pick nice numbers of seconds).
    let ticks = nice_time_ticks(lo, hi, tick_count(width, s, 90.0));
    time_labels(area, &chart, &ticks, &theme, s, true)?;
    time_axis_title(area, &chart, &[TIME_TITLE, SHORT_TIME_TITLE], &theme, s)?;
    histogram(&mut chart, report, &shares, (lo, hi), &theme)?;

    // Markers: percentiles dashed, expected and unjittered solid, labels in rows above the plot.
    let mut rows = LabelRows::new(3);
    for marker in markers(report, &theme, (!unjittered_shown).then_some(hi)) {
        marker.draw(area, &mut chart, &mut rows, top, s)?;
    }
    Ok(())
}

/// What the time axis measures.
const TIME_TITLE: &str = "give-up time, from the first failure";
/// What the time axis measures, in a narrow chart.
const SHORT_TIME_TITLE: &str = "give-up time";

/// Each histogram bin's share of the samples, in percent.
fn shares(report: &JitterReport) -> Vec<f64> {
    let total = report.sampled.samples.max(1) as f64;
    report
        .sampled
        .histogram
        .counts
        .iter()
        .map(|c| *c as f64 / total * 100.0)
        .collect()
}

/// The time axis: the histogram, the percentiles and the unjittered give-up time, padded; and
/// whether the unjittered time is on it. It is left off, and named at the axis' end, where the
/// distribution would take less than a third of the axis: thousands of jittered retries sum
/// to a narrow bell around half the unjittered time, which squeezed the histogram into a few
/// pixels at 10,000 attempts.
fn time_range(report: &JitterReport) -> (f64, f64, bool) {
    let histogram = &report.sampled.histogram;
    let hist_end = histogram.start_s + histogram.bin_s * histogram.counts.len() as f64;
    let mut lo = histogram.start_s.min(report.percentiles.p1);
    let given_up = hist_end.max(report.percentiles.p99);
    let unjittered_shown = report.unjittered_give_up_s - lo <= 3.0 * (given_up - lo);
    let mut hi = if unjittered_shown {
        given_up.max(report.unjittered_give_up_s)
    } else {
        given_up
    };
    let spread = report.percentiles.p99 - report.percentiles.p1;
    if hi - lo < 1e-9 * hi.max(1.0) || spread < 1e-9 * hi.max(1.0) {
        // Without jitter every give-up time is the same: show a window around it (not around
        // the histogram's one bin, a minute or so wide, whose ticks all read "24 h 02 min").
        let pad = (hi * 0.05).max(1.0);
        (lo, hi) = (lo - pad, hi + pad);
    }
    let pad = (hi - lo) * 0.04;
    ((lo - pad).max(0.0), hi + pad, unjittered_shown)
}

/// A bar per bin that holds any samples. A lone bar is at least a 120th of the axis wide:
/// without jitter every sample is in one bin of a second on an axis of hours, a bar no pixel
/// wide (the chart read as an empty plot up to 100%). Bars of a spread histogram keep their
/// bins' widths, which a wider bar would overlap.
fn histogram<DB: DrawingBackend>(
    chart: &mut TimeChart<'_, DB, RangedCoordf64>,
    report: &JitterReport,
    shares: &[f64],
    (lo, hi): (f64, f64),
    theme: &Theme,
) -> Result<(), Error> {
    let histogram = &report.sampled.histogram;
    let lone = shares.iter().filter(|share| **share > 0.0).count() == 1;
    chart
        .draw_series(
            shares
                .iter()
                .enumerate()
                .filter(|(_, share)| **share > 0.0)
                .map(|(i, share)| {
                    let x0 = histogram.start_s + histogram.bin_s * i as f64;
                    let narrowest = (hi - lo) / 120.0;
                    let (x0, x1) = if !lone || histogram.bin_s >= narrowest {
                        (x0, x0 + histogram.bin_s)
                    } else {
                        let middle = x0 + histogram.bin_s / 2.0;
                        (middle - narrowest / 2.0, middle + narrowest / 2.0)
                    };
                    Rectangle::new([(x0, 0.0), (x1, *share)], bar_colour(theme).filled())
                }),
        )
        .map(|_| ())
        .map_err(drawing_error)
}

/// The bars' colour: the primary colour over the background, strong enough for the bars to stand
/// out from the background at 3:1 in both themes (WCAG 1.4.11; at 0.55 they were 2.3:1 in the
/// light theme), and light (dark) enough for the markers across them to read: on a dark page the
/// markers are light, so the bars mix in less colour.
fn bar_colour(theme: &Theme) -> RGBColor {
    let alpha = if theme.is_dark() { 0.6 } else { 0.78 };
    Theme::over(theme.background, theme.primary, alpha)
}

/// A time marked across the plot, with its label above it.
struct Marker {
    t: f64,
    label: String,
    colour: RGBColor,
    dashed: bool,
    /// Whether a line marks `t` across the plot (not for a time past the axis).
    line: bool,
}

/// The percentiles, the expected give-up time and the unjittered one; long labels first, so
/// the short percentile names fill in around them. An unjittered time past the axis' end
/// (`axis_end`) is named there, with an arrow and no line.
fn markers(report: &JitterReport, theme: &Theme, axis_end: Option<f64>) -> Vec<Marker> {
    let marker = |t: f64, label: String, colour: RGBColor, dashed: bool| Marker {
        t,
        label,
        colour,
        dashed,
        line: true,
    };
    let mut markers: Vec<Marker> = report
        .percentiles
        .pairs()
        .iter()
        .map(|(level, t)| marker(*t, format!("p{}", level * 100.0), theme.text, true))
        .collect();
    // Expected and unjittered times as the caption under the chart writes them (2 to 10 min
    // in seconds).
    let estimated = if report.exact { "" } else { " (est.)" };
    markers.push(marker(
        report.expected_give_up_s,
        format!(
            "expected {}{estimated}",
            format_table_duration(report.expected_give_up_s)
        ),
        theme.secondary,
        false,
    ));
    let unjittered = format!(
        "unjittered {}",
        format_table_duration(report.unjittered_give_up_s)
    );
    markers.push(match axis_end {
        None => marker(report.unjittered_give_up_s, unjittered, theme.alert, false),
        Some(end) => Marker {
            line: false,
            ..marker(end, format!("{unjittered} →"), theme.alert, false)
        },
    });
    markers.sort_by_key(|m| std::cmp::Reverse(m.label.len()));
    markers
}

impl Marker {
    /// The line from the bottom of the plot to `top`, and its label above.
    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        chart: &mut TimeChart<'_, DB, RangedCoordf64>,
        rows: &mut LabelRows,
        top: f64,
        s: f64,
    ) -> Result<(), Error> {
        let points = vec![(self.t, 0.0), (self.t, top)];
        let width = stroke(1.5, s);
        match (self.line, self.dashed) {
            (false, _) => {}
            (true, true) => {
                let style = self.colour.mix(0.7).stroke_width(width);
                dashed_line(chart, points, (4.0 * s, 3.0 * s), style)?;
            }
            (true, false) => line(chart, points, self.colour.stroke_width(width))?,
        }
        let (x, _) = chart.backend_coord(&(self.t, top));
        self.label(area, f64::from(x), rows, s)
    }

    /// The label centred over `x` (inside the area) in the first row where it touches no
    /// other, else beside its line, right then left of it (a narrow chart's p99 crowded by the
    /// p95 and the unjittered time had no label at 320 to 400 px); left out when every row is
    /// taken at all three.
    fn label<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        x: f64,
        rows: &mut LabelRows,
        s: f64,
    ) -> Result<(), Error> {
        let width = f64::from(area.dim_in_pixel().0);
        let style = font(11.5, s, self.colour);
        let (w, h) = super::text_size(area, &self.label, &style);
        // 6 px clear of the chart's edge (at 2 px a label touched the card's border on a phone).
        let within = |left: f64| left.clamp(6.0 * s, (width - w - 6.0 * s).max(6.0 * s));
        let placed = [x - w / 2.0, x + 3.0 * s, x - w - 3.0 * s]
            .into_iter()
            .map(within)
            .find_map(|left| {
                let row = rows.place(left - 4.0 * s, left + w + 4.0 * s)?;
                Some((left, row))
            });
        if let Some((left, row)) = placed {
            let y = 52.0 * s - row as f64 * (h + 4.0 * s);
            area.draw(&Text::new(
                self.label.clone(),
                (left.round() as i32, y.round() as i32),
                style.pos(Pos::new(HPos::Left, VPos::Bottom)),
            ))
            .map_err(drawing_error)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::theme::contrast;
    use crate::chart::to_svg;

    /// The bars stand out from the background at 3:1 (WCAG 1.4.11) in both themes, and the
    /// percentiles' dashed markers, drawn in the text's colour, still read across them.
    #[test]
    fn the_bars_stand_out_and_the_markers_read_across_them() {
        for dark in [false, true] {
            let theme = Theme::new(dark);
            let bars = bar_colour(&theme);
            let against_background = contrast(bars, theme.background);
            assert!(
                against_background >= 3.0,
                "dark {dark}: {against_background:.2}:1"
            );
            let markers = contrast(theme.text, bars);
            assert!(markers >= 3.0, "dark {dark}: markers {markers:.2}:1");
        }
    }
    use crate::give_up::Sampling;
    use crate::jitter::Jitter;
    use crate::Policy;

    const SAMPLING: Sampling = Sampling {
        samples: 20_000,
        seed: 42,
        bins: 60,
    };

    /// The distribution of `policy` under `jitter`, 800 × 300.
    fn svg_of(policy: &Policy, jitter: Jitter) -> String {
        let report = JitterReport::new(policy, jitter, SAMPLING, None).unwrap();
        to_svg((800, 300), |area| {
            draw(area, &report, &ChartOptions::default())
        })
        .unwrap()
    }

    fn svg(jitter: Jitter) -> String {
        svg_of(&Policy::article(), jitter)
    }

    #[test]
    fn full_jitter_draws_bars_markers_and_labels() {
        let text = svg(Jitter::Full);
        assert!(text.matches("<rect").count() > 30, "histogram bars");
        // Filled in their colour: drawn as outlines they read as an empty histogram.
        let bar = crate::chart::svg_read::hex(bar_colour(&Theme::new(false)));
        let filled = crate::chart::svg_read::rects(&text)
            .into_iter()
            .filter(|r| r.fill == bar)
            .count();
        assert!(filled > 30, "{filled} bars filled in {bar}");
        assert!(text.contains("unjittered 24 h 02 min"));
        assert!(text.contains("expected 12 h 01 min"));
        assert!(text.contains("p50"));
    }

    /// Every marker of the article's full-jitter distribution is named, from a phone's column
    /// up, without two labels touching (the p99 had none from 320 to 400 px: outside docs
    /// review).
    #[test]
    fn every_marker_is_named_on_a_narrow_chart() {
        let report = JitterReport::new(&Policy::article(), Jitter::Full, SAMPLING, None).unwrap();
        for width in (300..=820).step_by(40) {
            let svg = to_svg((width, 220), |area| {
                draw(area, &report, &ChartOptions::default())
            })
            .unwrap();
            let labels = crate::chart::svg_read::labels(&svg);
            let named = ["p1", "p5", "p50", "p95", "p99", "expected", "unjittered"];
            let markers: Vec<_> = labels
                .iter()
                .filter(|l| named.iter().any(|n| l.text.starts_with(n)))
                .collect();
            for name in named {
                assert!(
                    markers.iter().any(|l| l.text.starts_with(name)),
                    "{width} px: no {name} among {:?}",
                    markers.iter().map(|l| &l.text).collect::<Vec<_>>()
                );
            }
            for (i, a) in markers.iter().enumerate() {
                for b in &markers[i + 1..] {
                    let apart = a.rect.2 <= b.rect.0
                        || b.rect.2 <= a.rect.0
                        || a.rect.3 <= b.rect.1
                        || b.rect.3 <= a.rect.1;
                    assert!(apart, "{width} px: {} touches {}", a.text, b.text);
                }
            }
            // Clear of the edges: the unjittered time's label, at the axis' end, touched the
            // card's border on a phone.
            let out = crate::chart::svg_read::outside(&labels, (width, 220), 5.0);
            assert!(out.is_empty(), "{width} px: {out:?}");
        }
    }

    #[test]
    fn modes_draw_different_pictures_and_none_is_one_bar() {
        assert_ne!(svg(Jitter::Full), svg(Jitter::Equal));
        let none = svg(Jitter::None);
        assert!(none.contains("unjittered 24 h 02 min"));
        assert!(none.contains("expected 24 h 02 min"));
        // Its one bar, every delivery at the same time, can be seen: a second wide on an axis
        // of hours it was no pixel wide.
        let bar = crate::chart::svg_read::hex(bar_colour(&Theme::new(false)));
        let widths: Vec<f64> = crate::chart::svg_read::rects(&none)
            .into_iter()
            .filter(|r| r.fill == bar)
            .map(|r| r.rect.2 - r.rect.0)
            .collect();
        assert_eq!(widths.len(), 1, "{widths:?}");
        assert!(widths[0] >= 5.0, "{widths:?}");
    }

    /// At 10,000 attempts the sum of jittered gaps is a narrow bell around half the
    /// unjittered time: with the unjittered time on the axis the histogram took a few pixels.
    /// It is named at the axis' end instead, and the bars spread over most of the plot.
    #[test]
    fn a_far_unjittered_time_is_named_at_the_axis_end_and_the_bars_fill_the_plot() {
        let policy = Policy::new(1.0, 2.0, 3_600.0, crate::Stop::Attempts(10_000)).unwrap();
        let drawn = svg_of(&policy, Jitter::Full);
        assert!(drawn.contains("unjittered 416 days →"), "{drawn}");
        let bar = crate::chart::svg_read::hex(bar_colour(&Theme::new(false)));
        let bars: Vec<_> = crate::chart::svg_read::rects(&drawn)
            .into_iter()
            .filter(|r| r.fill == bar)
            .collect();
        let left = bars.iter().map(|r| r.rect.0).fold(f64::MAX, f64::min);
        let right = bars.iter().map(|r| r.rect.2).fold(0.0, f64::max);
        assert!(right - left > 500.0, "the bars span {left}..{right}");
        // The article's 14 attempts keep their unjittered time on the axis, as a line.
        assert!(!svg(Jitter::Full).contains('→'));
    }

    /// The time axis' labels under the plot, left to right (its title under them aside).
    fn tick_labels(svg: &str) -> Vec<String> {
        let mut labels = crate::chart::svg_read::labels(svg);
        labels.retain(|l| ![super::TIME_TITLE, super::SHORT_TIME_TITLE].contains(&l.text.as_str()));
        let lowest = labels.iter().map(|l| l.rect.1).fold(0.0, f64::max);
        labels
            .into_iter()
            .filter(|l| l.rect.1 == lowest)
            .map(|l| l.text)
            .collect()
    }

    /// The time axis says what it measures, under its ticks, shortened where the chart is
    /// narrow, clear of every other label and inside the chart (a pasted figure's hours did
    /// not say what they were: outside review).
    #[test]
    fn the_time_axis_says_what_it_measures() {
        let report = JitterReport::new(&Policy::article(), Jitter::Full, SAMPLING, None).unwrap();
        for (width, title) in [(800, TIME_TITLE), (160, SHORT_TIME_TITLE)] {
            let size = (width, 300);
            let svg = to_svg(size, |area| draw(area, &report, &ChartOptions::default())).unwrap();
            let labels = crate::chart::svg_read::labels(&svg);
            let lowest = labels
                .iter()
                .max_by(|a, b| a.rect.1.total_cmp(&b.rect.1))
                .unwrap();
            assert_eq!(lowest.text, title, "{width}");
            assert!(
                crate::chart::svg_read::overlapping(&labels).is_empty(),
                "{width}"
            );
            assert!(
                crate::chart::svg_read::outside(&labels, size, 0.0).is_empty(),
                "{width}"
            );
        }
    }

    /// Without jitter (`figure distribution --preset article`, mode none) every tick read
    /// "24 h 02 min" or "24 h 03 min": the ticks are distinct, around the one give-up time.
    #[test]
    fn tick_labels_are_distinct_without_jitter() {
        for jitter in [Jitter::None, Jitter::Full] {
            let ticks = tick_labels(&svg(jitter));
            assert!(ticks.len() >= 3, "{jitter:?}: {ticks:?}");
            let distinct: std::collections::BTreeSet<&String> = ticks.iter().collect();
            assert_eq!(distinct.len(), ticks.len(), "{jitter:?}: {ticks:?}");
        }
    }

    /// Two attempts under equal jitter: a share axis up to about 2%, its ticks every half
    /// percent, read "2%, 2%, 1%, 0%, 0%" in whole percents.
    #[test]
    fn share_labels_are_distinct_on_a_short_axis() {
        let policy = Policy::new(30.0, 3.0, 10_800.0, crate::Stop::Attempts(2)).unwrap();
        let drawn = svg_of(&policy, Jitter::Equal);
        let shares: Vec<String> = crate::chart::svg_read::labels(&drawn)
            .into_iter()
            .map(|l| l.text)
            .filter(|t| t.ends_with('%'))
            .collect();
        assert!(shares.len() >= 3, "{shares:?}");
        let distinct: std::collections::BTreeSet<&String> = shares.iter().collect();
        assert_eq!(distinct.len(), shares.len(), "{shares:?}");
    }

    #[test]
    fn decorrelated_marks_its_expected_value_as_an_estimate() {
        assert!(svg(Jitter::Decorrelated).contains("(est.)"));
    }
}
