//! The herd chart: first retries per second after a shared failure, the unjittered spike and the
//! chosen jitter mode overlaid, with the mean rate as a reference line.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{draw_mesh, drawing_error, font, nice_time_ticks, prepare, ChartOptions, Legend};
use crate::herd::Herd;
use crate::{format_duration, Error};

/// Draws `herd`'s first-retry arrivals per second over `spike`'s (the unjittered herd), filling
/// `area`.
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
    let (options, theme) = prepare(area, options)?;
    let s = options.scale;

    let series = |h: &Herd| h.first_retry_per_second.clone();
    let main = series(herd);
    let reference = spike.filter(|sp| sp.mode != herd.mode).map(series);
    let seconds = main
        .len()
        .max(reference.as_ref().map_or(0, Vec::len))
        .max(2) as f64;
    let peak = main
        .iter()
        .chain(reference.iter().flatten())
        .copied()
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let top = peak * 1.15;

    // A legend in words along the top; the plot starts below it.
    let mean = herd.first_retry.mean_per_s;
    let mut entries = vec![(
        format!(
            "{} jitter: peak {:.0}/s",
            herd.mode, herd.first_retry.peak_per_s
        ),
        theme.primary.filled(),
    )];
    if let Some(sp) = spike.filter(|sp| sp.mode != herd.mode) {
        entries.push((
            format!(
                "without jitter: {:.0} in one second",
                sp.first_retry.peak_per_s
            ),
            theme.alert.filled(),
        ));
    }
    entries.push((format!("mean {:.1}/s", mean), theme.secondary.filled()));
    let legend = Legend::new(area, entries, &theme, s);

    let width = f64::from(area.dim_in_pixel().0);
    let mut chart = ChartBuilder::on(area)
        .margin_top(legend.height + 8.0 * s)
        .margin_right(24.0 * s)
        .margin_left(8.0 * s)
        .x_label_area_size(30.0 * s)
        .y_label_area_size(52.0 * s)
        .build_cartesian_2d(0.0..seconds, 0.0..top)
        .map_err(drawing_error)?;
    draw_mesh(
        &mut chart,
        &theme,
        s,
        &[
            "first retries per second",
            "retries per second",
            "retries/s",
        ],
        5,
        &|v: &f64| format!("{v:.0}"),
    )?;
    let tick_style = font(11.0, s, theme.muted).pos(Pos::new(HPos::Center, VPos::Top));
    for t in nice_time_ticks(0.0, seconds, ((width / (s * 70.0)) as usize).max(2)) {
        let (x, y) = chart.backend_coord(&(t, 0.0));
        area.draw(&Text::new(
            format_duration(t),
            (x, y + (7.0 * s) as i32),
            tick_style.clone(),
        ))
        .map_err(drawing_error)?;
    }

    // A bar per second while seconds are wider than a pixel; past that, a bar per pixel's worth
    // of seconds at the busiest second in it (a day of seconds would be 86,400 bars).
    let per_bar = (seconds / width.max(1.0)).ceil().max(1.0) as usize;
    let bars = |counts: &[u64], colour: RGBAColor| -> Vec<Rectangle<(f64, f64)>> {
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
                Some(Rectangle::new(
                    [
                        (start + inset * per_bar as f64, 0.0),
                        (start + last * per_bar as f64, busiest as f64),
                    ],
                    colour.filled(),
                ))
            })
            .collect()
    };
    if let Some(reference) = &reference {
        chart
            .draw_series(bars(reference, theme.alert.mix(0.35)))
            .map_err(drawing_error)?;
    }
    chart
        .draw_series(bars(&main, theme.primary.mix(0.85)))
        .map_err(drawing_error)?;

    let mean_line = vec![(0.0, mean), (seconds, mean)].into_iter();
    let line_width = (1.5 * s).round().max(1.0) as u32;
    chart
        .draw_series(std::iter::once(DashedPathElement::new(
            mean_line,
            5.0 * s,
            4.0 * s,
            theme.secondary.stroke_width(line_width),
        )))
        .map_err(drawing_error)?;

    legend.draw(area)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::to_svg;
    use crate::herd::herd as simulate;
    use crate::jitter::Jitter;
    use crate::Policy;

    fn svg(jitter: Jitter) -> String {
        let spread = simulate(&Policy::article(), jitter, 1_000, 42).unwrap();
        let spike = simulate(&Policy::article(), Jitter::None, 1_000, 42).unwrap();
        to_svg((800, 300), |area| {
            draw(area, &spread, Some(&spike), &ChartOptions::default())
        })
        .unwrap()
    }

    #[test]
    fn the_spike_and_the_spread_are_both_drawn() {
        let full = svg(Jitter::Full);
        // One bar for the spike, about thirty for the spread.
        let bars = full.matches("<rect").count();
        assert!(bars > 30, "{bars} bars");
        assert!(full.contains("without jitter: 1000 in one second"));
        assert!(full.contains("full jitter: peak"));
        assert!(full.contains("mean 33.3/s"));
        let none = svg(Jitter::None);
        assert!(
            !none.contains("without jitter"),
            "no overlay of the spike on itself"
        );
        assert!(none.matches("<rect").count() < bars);
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
}
