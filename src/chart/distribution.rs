//! The give-up-time distribution of one jittered delivery: a histogram of sampled give-up times,
//! the exact percentiles as markers, the expected value and the unjittered give-up time.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{draw_mesh, drawing_error, font, nice_time_ticks, prepare, ChartOptions, LabelRows};
use crate::give_up::JitterReport;
use crate::{format_duration, Error};

/// Draws `report`'s distribution filling `area`.
///
/// # Example
/// ```
/// use backoff_lab::chart::{distribution, to_svg, ChartOptions};
/// use backoff_lab::give_up::JitterReport;
/// use backoff_lab::jitter::Jitter;
/// use backoff_lab::Policy;
/// let report = JitterReport::new(&Policy::article(), Jitter::Full, 20_000, 42, 60, None)?;
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

    let histogram = &report.sampled.histogram;
    let total = report.sampled.samples.max(1) as f64;
    let shares: Vec<f64> = histogram
        .counts
        .iter()
        .map(|c| *c as f64 / total * 100.0)
        .collect();
    let hist_end = histogram.start_s + histogram.bin_s * histogram.counts.len() as f64;
    let mut lo = histogram.start_s.min(report.percentiles.p1);
    let mut hi = hist_end
        .max(report.unjittered_give_up_s)
        .max(report.percentiles.p99);
    if hi - lo < 1e-9 * hi.max(1.0) {
        // Without jitter every give-up time is the same: show a window around it.
        let pad = (hi * 0.05).max(1.0);
        (lo, hi) = (lo - pad, hi + pad);
    }
    let pad = (hi - lo) * 0.04;
    let (lo, hi) = ((lo - pad).max(0.0), hi + pad);
    let top = shares.iter().copied().fold(0.0, f64::max).max(1.0) * 1.12;

    let width = f64::from(area.dim_in_pixel().0);
    let ticks = nice_time_ticks(lo, hi, ((width / (s * 90.0)) as usize).max(2));
    let mut chart = ChartBuilder::on(area)
        .margin_top(58.0 * s)
        .margin_right(24.0 * s)
        .margin_left(8.0 * s)
        .x_label_area_size(30.0 * s)
        .y_label_area_size(52.0 * s)
        .build_cartesian_2d(lo..hi, 0.0..top)
        .map_err(drawing_error)?;
    draw_mesh(
        &mut chart,
        &theme,
        s,
        &["share of deliveries", "deliveries"],
        5,
        &|share: &f64| format!("{share:.0}%"),
    )?;
    // Time ticks at nice durations (plotters would pick nice numbers of seconds).
    let tick_style = font(11.0, s, theme.muted).pos(Pos::new(HPos::Center, VPos::Top));
    for t in &ticks {
        let (x, y) = chart.backend_coord(&(*t, 0.0));
        area.draw(&PathElement::new(
            vec![(x, y), (x, y + (4.0 * s) as i32)],
            theme.muted,
        ))
        .map_err(drawing_error)?;
        area.draw(&Text::new(
            format_duration(*t),
            (x, y + (7.0 * s) as i32),
            tick_style.clone(),
        ))
        .map_err(drawing_error)?;
    }

    chart
        .draw_series(
            shares
                .iter()
                .enumerate()
                .filter(|(_, share)| **share > 0.0)
                .map(|(i, share)| {
                    let x0 = histogram.start_s + histogram.bin_s * i as f64;
                    let x1 = if histogram.bin_s > 0.0 {
                        x0 + histogram.bin_s
                    } else {
                        x0 + (hi - lo) / 200.0
                    };
                    Rectangle::new([(x0, 0.0), (x1, *share)], theme.primary.mix(0.55).filled())
                }),
        )
        .map_err(drawing_error)?;

    // Markers: percentiles dashed, expected and unjittered solid, labels in rows above the plot.
    let mut markers: Vec<(f64, String, RGBColor, bool)> = report
        .percentiles
        .pairs()
        .iter()
        .map(|(level, t)| (*t, format!("p{}", level * 100.0), theme.text, true))
        .collect();
    let estimated = if report.exact { "" } else { " (est.)" };
    markers.push((
        report.expected_give_up_s,
        format!(
            "expected {}{estimated}",
            format_duration(report.expected_give_up_s)
        ),
        theme.secondary,
        false,
    ));
    markers.push((
        report.unjittered_give_up_s,
        format!(
            "unjittered {}",
            format_duration(report.unjittered_give_up_s)
        ),
        theme.alert,
        false,
    ));
    // Long labels first, so the short percentile names fill in around them.
    markers.sort_by_key(|m| std::cmp::Reverse(m.1.len()));
    let mut rows = LabelRows::new(3);
    let line_width = (1.5 * s).round().max(1.0) as u32;
    for (t, label, colour, dashed) in &markers {
        let points = vec![(*t, 0.0), (*t, top)];
        if *dashed {
            chart
                .draw_series(std::iter::once(DashedPathElement::new(
                    points,
                    4.0 * s,
                    3.0 * s,
                    colour.mix(0.7).stroke_width(line_width),
                )))
                .map_err(drawing_error)?;
        } else {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    points,
                    colour.stroke_width(line_width),
                )))
                .map_err(drawing_error)?;
        }
        let (x, _) = chart.backend_coord(&(*t, top));
        let style = font(11.5, s, *colour);
        let (w, h) = area
            .estimate_text_size(label, &style)
            .map(|(w, h)| (f64::from(w), f64::from(h)))
            .unwrap_or((label.len() as f64 * 7.0 * s, 12.0 * s));
        let left = (f64::from(x) - w / 2.0).clamp(2.0 * s, (width - w - 2.0 * s).max(2.0 * s));
        if let Some(row) = rows.place(left - 4.0 * s, left + w + 4.0 * s) {
            let y = 52.0 * s - row as f64 * (h + 4.0 * s);
            area.draw(&Text::new(
                label.clone(),
                (left.round() as i32, y.round() as i32),
                style.pos(Pos::new(HPos::Left, VPos::Bottom)),
            ))
            .map_err(drawing_error)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::to_svg;
    use crate::jitter::Jitter;
    use crate::Policy;

    fn svg(jitter: Jitter) -> String {
        let report = JitterReport::new(&Policy::article(), jitter, 20_000, 42, 60, None).unwrap();
        to_svg((800, 300), |area| {
            draw(area, &report, &ChartOptions::default())
        })
        .unwrap()
    }

    #[test]
    fn full_jitter_draws_bars_markers_and_labels() {
        let text = svg(Jitter::Full);
        assert!(text.matches("<rect").count() > 30, "histogram bars");
        assert!(text.contains("unjittered 24 h 02 min"));
        assert!(text.contains("expected 12 h 01 min"));
        assert!(text.contains("p50"));
    }

    #[test]
    fn modes_draw_different_pictures_and_none_is_one_bar() {
        assert_ne!(svg(Jitter::Full), svg(Jitter::Equal));
        let none = svg(Jitter::None);
        assert!(none.contains("unjittered 24 h 02 min"));
        assert!(none.contains("expected 24 h 02 min"));
    }

    #[test]
    fn decorrelated_marks_its_expected_value_as_an_estimate() {
        assert!(svg(Jitter::Decorrelated).contains("(est.)"));
    }
}
