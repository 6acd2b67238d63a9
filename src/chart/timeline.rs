//! The timeline figure, after the article's: attempts as marks on a time axis, labelled with
//! their elapsed time, gaps as arcs labelled with their length, the capped region shaded and the
//! give-up point marked. Labels that would overlap are left out, never piled up.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{drawing_error, ChartOptions};
use crate::{format_duration, Error, Schedule};

/// Draws the timeline of `schedule` filling `area`.
///
/// # Example
/// ```
/// use backoff_lab::chart::{timeline, to_svg, ChartOptions};
/// use backoff_lab::Policy;
/// let schedule = Policy::article().schedule();
/// let svg = to_svg((900, 320), |area| timeline::draw(area, &schedule, &ChartOptions::default()))?;
/// assert!(svg.contains("gives up at 24 h 02 min"));
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    schedule: &Schedule,
    options: &ChartOptions,
) -> Result<(), Error> {
    draw_labelled(area, schedule, options, Axis::default()).map(|_| ())
}

/// Draws two schedules one above the other on one time axis, each named by its label (for
/// comparing a policy with a provider's), filling `area`.
///
/// # Example
/// ```
/// use backoff_lab::chart::{timeline, to_svg, ChartOptions};
/// use backoff_lab::presets::preset;
/// use backoff_lab::Policy;
/// let (mine, svix) = (Policy::article().schedule(), preset("svix")?.policy.schedule());
/// let svg = to_svg((900, 520), |area| {
///     timeline::draw_compared(area, (&mine, "your policy"), (&svix, "Svix"), &ChartOptions::default())
/// })?;
/// assert!(svg.contains("gives up at 27 h 35 min"));
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn draw_compared<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    first: (&Schedule, &str),
    second: (&Schedule, &str),
    options: &ChartOptions,
) -> Result<(), Error> {
    let end = first.0.give_up_s().max(second.0.give_up_s());
    let log_base = first.0.policy().base_s().min(second.0.policy().base_s());
    let (height, _) = (area.dim_in_pixel().1, ());
    let (upper, lower) = area.split_vertically(height / 2);
    for (half, (schedule, label)) in [(upper, first), (lower, second)] {
        let axis = Axis {
            end: Some(end),
            log_base: Some(log_base),
            title: Some(label),
        };
        draw_labelled(&half, schedule, options, axis)?;
    }
    Ok(())
}

/// What a comparison shares between its two timelines: the time axis, and a title for each.
#[derive(Default)]
struct Axis<'a> {
    end: Option<f64>,
    log_base: Option<f64>,
    title: Option<&'a str>,
}

/// A label's rectangle in pixels: left, top, right, bottom.
type Rect = (f64, f64, f64, f64);

/// Draws the timeline and returns the rectangles its labels took.
fn draw_labelled<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    schedule: &Schedule,
    options: &ChartOptions,
    shared: Axis<'_>,
) -> Result<Vec<Rect>, Error> {
    let (options, theme) = super::prepare(area, options)?;
    let s = options.scale;
    let (width, height) = area.dim_in_pixel();
    let (width, height) = (f64::from(width), f64::from(height));

    let rows = schedule.rows();
    let policy = schedule.policy();
    let end = shared
        .end
        .unwrap_or(schedule.give_up_s())
        .max(policy.base_s());
    let axis = TimeAxis {
        left: 28.0 * s,
        right: width - 28.0 * s,
        end,
        log_base: options
            .log_scale
            .then_some(shared.log_base.unwrap_or(policy.base_s())),
    };
    let top = 34.0 * s;
    let bottom = height - 30.0 * s;
    let line_y = top + (bottom - top) * 0.64;
    let mut painter = Painter {
        area,
        scale: s,
        placed: Vec::new(),
    };

    if let Some(title) = shared.title {
        let font = painter.styled_font(13.0, theme.text, FontStyle::Bold);
        painter.text(
            title,
            (8.0 * s, 8.0 * s),
            &font,
            HPos::Left,
            VPos::Top,
            true,
        )?;
    }

    // Grid and tick labels at nice durations.
    let tick_font = painter.font(11.0, theme.muted);
    for (t, label) in axis.ticks(&painter, &tick_font) {
        let x = axis.x(t);
        painter.line(&[(x, top), (x, bottom)], theme.grid, 1.0)?;
        painter.text(
            &label,
            (x, bottom + 6.0 * s),
            &tick_font,
            HPos::Center,
            VPos::Top,
            false,
        )?;
    }

    // The capped region: from the attempt before the first capped gap to the give-up point.
    let label_font = painter.font(12.5, theme.text);
    let give_up_x = axis.x(schedule.give_up_s());
    let give_up_label = format!("gives up at {}", format_duration(schedule.give_up_s()));
    let give_up_anchor = if give_up_x > width / 2.0 {
        HPos::Right
    } else {
        HPos::Left
    };
    painter.text(
        &give_up_label,
        (give_up_x, top - 8.0 * s),
        &painter.styled_font(13.0, theme.alert, FontStyle::Bold),
        give_up_anchor,
        VPos::Bottom,
        true,
    )?;
    // No gap label may sit on the give-up line.
    painter.claim((give_up_x - 1.0 * s, top, give_up_x + 1.0 * s, line_y));
    if let Some(first) = schedule.first_capped_attempt() {
        let start = axis.x(rows[first as usize - 2].elapsed_s);
        let fill = theme.accent.mix(if options.dark { 0.16 } else { 0.13 });
        painter.rect((start, top), (give_up_x, bottom), fill)?;
        painter.line(&[(start, top), (start, bottom)], theme.accent, 1.5)?;
        let label = format!("capped: every gap {}", format_duration(policy.cap_s()));
        let font = painter.font(12.5, theme.text);
        if !painter.text(
            &label,
            (start + 4.0 * s, top + 6.0 * s),
            &font,
            HPos::Left,
            VPos::Top,
            true,
        )? {
            painter.text(
                "capped",
                (start + 4.0 * s, top + 6.0 * s),
                &font,
                HPos::Left,
                VPos::Top,
                true,
            )?;
        }
    }

    // The time line itself.
    painter.line(
        &[(axis.left, line_y), (axis.right, line_y)],
        theme.muted,
        1.5,
    )?;

    // Gaps as arcs above the line, labelled where there is room.
    let gap_font = painter.font(12.0, theme.muted);
    let max_arc = (line_y - top - 40.0 * s).max(8.0 * s);
    for pair in rows.windows(2) {
        let (x0, x1) = (axis.x(pair[0].elapsed_s), axis.x(pair[1].elapsed_s));
        if x1 - x0 < 3.0 * s {
            continue;
        }
        let rise = ((x1 - x0) * 0.45).min(max_arc).max(3.0 * s);
        let colour = if pair[1].capped {
            theme.accent
        } else {
            theme.primary
        };
        let arc: Vec<(f64, f64)> = (0..=24)
            .map(|i| {
                let f = f64::from(i) / 24.0;
                (x0 + (x1 - x0) * f, line_y - rise * 4.0 * f * (1.0 - f))
            })
            .collect();
        painter.line(&arc, colour, 1.5)?;
        if let Some(gap) = pair[1].gap_s {
            let centre = ((x0 + x1) / 2.0, line_y - rise - 4.0 * s);
            painter.text(
                &format_duration(gap),
                centre,
                &gap_font,
                HPos::Center,
                VPos::Bottom,
                true,
            )?;
        }
    }

    // Attempts: the give-up point is labelled first so that its label is never crowded out.
    let number_font = painter.font(11.0, theme.muted);
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.rotate_right(1);
    let mut last_dot = f64::NEG_INFINITY;
    for &i in &order {
        let row = rows[i];
        let x = axis.x(row.elapsed_s);
        let is_last = i + 1 == rows.len();
        if is_last || x - last_dot >= 1.0 || i == 0 {
            let (colour, radius) = if is_last {
                (theme.alert, 6.0)
            } else if row.capped {
                (theme.accent, 4.5)
            } else {
                (theme.primary, 4.5)
            };
            painter.dot((x, line_y), radius, colour)?;
            if !is_last {
                last_dot = x;
            }
        }
        let label_y = line_y + 11.0 * s;
        let elapsed = format_duration(row.elapsed_s);
        let (ew, eh) = painter.size(&elapsed, &label_font);
        let left = x - ew / 2.0;
        let rect = (
            left.max(0.0),
            label_y,
            left.max(0.0) + ew,
            label_y + eh + 16.0 * s,
        );
        if painter.claim(rect) {
            painter.text(
                &format!("#{}", row.attempt),
                (x, label_y),
                &number_font,
                HPos::Center,
                VPos::Top,
                false,
            )?;
            painter.text(
                &elapsed,
                (x, label_y + 15.0 * s),
                &label_font,
                HPos::Center,
                VPos::Top,
                false,
            )?;
        }
    }
    if let Some(last) = rows.last() {
        let x = axis.x(last.elapsed_s);
        painter.line(&[(x, top - 4.0 * s), (x, line_y)], theme.alert, 1.5)?;
    }
    Ok(painter.placed)
}

/// Maps seconds to pixels, linearly or on `ln(1 + t / base)`.
struct TimeAxis {
    left: f64,
    right: f64,
    end: f64,
    log_base: Option<f64>,
}

impl TimeAxis {
    fn warp(&self, t: f64) -> f64 {
        match self.log_base {
            Some(base) => (t / base).ln_1p(),
            None => t,
        }
    }

    fn x(&self, t: f64) -> f64 {
        self.left + (self.right - self.left) * self.warp(t) / self.warp(self.end)
    }

    /// Nice durations along the axis, spaced so that their labels never touch.
    fn ticks<DB: DrawingBackend>(
        &self,
        painter: &Painter<'_, DB>,
        font: &TextStyle,
    ) -> Vec<(f64, String)> {
        let room = |t: f64| painter.size(&format_duration(t), font).0 + 18.0 * painter.scale;
        let candidates: Vec<f64> = match self.log_base {
            Some(_) => std::iter::once(0.0)
                .chain(super::NICE_SECONDS.into_iter().filter(|&t| t <= self.end))
                .collect(),
            None => {
                let fit = ((self.right - self.left) / room(self.end)).floor() as usize;
                super::nice_time_ticks(0.0, self.end, fit)
            }
        };
        let mut ticks = Vec::new();
        let mut next_free = f64::NEG_INFINITY;
        for t in candidates {
            let x = self.x(t);
            let half = room(t) / 2.0;
            if x - half >= next_free {
                ticks.push((t, format_duration(t)));
                next_free = x + half;
            }
        }
        ticks
    }
}

/// Draws in pixels at a device scale, and keeps the rectangles that labels already hold.
struct Painter<'a, DB: DrawingBackend> {
    area: &'a DrawingArea<DB, Shift>,
    scale: f64,
    placed: Vec<Rect>,
}

fn px(point: (f64, f64)) -> (i32, i32) {
    (point.0.round() as i32, point.1.round() as i32)
}

impl<DB: DrawingBackend> Painter<'_, DB> {
    fn font(&self, size: f64, colour: RGBColor) -> TextStyle<'static> {
        self.styled_font(size, colour, FontStyle::Normal)
    }

    fn styled_font(&self, size: f64, colour: RGBColor, style: FontStyle) -> TextStyle<'static> {
        TextStyle {
            font: ("sans-serif", size * self.scale, style).into_font(),
            color: colour.to_backend_color(),
            pos: Pos::default(),
        }
    }

    fn size(&self, text: &str, font: &TextStyle) -> (f64, f64) {
        match self.area.estimate_text_size(text, font) {
            Ok((w, h)) => (f64::from(w), f64::from(h)),
            Err(_) => (
                text.chars().count() as f64 * font.font.get_size() * 0.6,
                font.font.get_size(),
            ),
        }
    }

    /// Takes a rectangle for a label unless it overlaps one already taken or comes within a
    /// word space of one on its line (side by side, two labels would read as one).
    fn claim(&mut self, rect: Rect) -> bool {
        let space = 6.0 * self.scale;
        let free = self.placed.iter().all(|p| {
            rect.2 + space <= p.0 || rect.0 >= p.2 + space || rect.3 <= p.1 || rect.1 >= p.3
        });
        if free {
            self.placed.push(rect);
        }
        free
    }

    /// Writes `text` anchored at `at`; with `avoid`, only where no other label is. Returns
    /// whether it was written.
    fn text(
        &mut self,
        text: &str,
        at: (f64, f64),
        font: &TextStyle,
        h: HPos,
        v: VPos,
        avoid: bool,
    ) -> Result<bool, Error> {
        let (w, height) = self.size(text, font);
        let (area_w, _) = self.area.dim_in_pixel();
        let x0 = match h {
            HPos::Left => at.0,
            HPos::Center => at.0 - w / 2.0,
            HPos::Right => at.0 - w,
        }
        .clamp(0.0, (f64::from(area_w) - w).max(0.0));
        let y0 = match v {
            VPos::Top => at.1,
            VPos::Center => at.1 - height / 2.0,
            VPos::Bottom => at.1 - height,
        };
        let pad = 3.0 * self.scale;
        if avoid && !self.claim((x0 - pad, y0, x0 + w + pad, y0 + height)) {
            return Ok(false);
        }
        let style = font.pos(Pos::new(HPos::Left, VPos::Top));
        self.area
            .draw(&Text::new(text.to_string(), px((x0, y0)), style))
            .map_err(drawing_error)?;
        Ok(true)
    }

    fn line(&self, points: &[(f64, f64)], colour: RGBColor, width: f64) -> Result<(), Error> {
        let style = colour.stroke_width((width * self.scale).round().max(1.0) as u32);
        self.area
            .draw(&PathElement::new(
                points.iter().copied().map(px).collect::<Vec<_>>(),
                style,
            ))
            .map_err(drawing_error)
    }

    fn rect(&self, from: (f64, f64), to: (f64, f64), fill: RGBAColor) -> Result<(), Error> {
        self.area
            .draw(&Rectangle::new([px(from), px(to)], fill.filled()))
            .map_err(drawing_error)
    }

    fn dot(&self, at: (f64, f64), radius: f64, colour: RGBColor) -> Result<(), Error> {
        let r = (radius * self.scale).round() as i32;
        self.area
            .draw(&Circle::new(px(at), r, colour.filled()))
            .map_err(drawing_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::to_svg;
    use crate::{Policy, Stop};

    fn svg(schedule: &Schedule, options: ChartOptions) -> String {
        to_svg((900, 320), |area| draw(area, schedule, &options)).unwrap()
    }

    /// The text of every label in an SVG.
    fn labels(svg: &str) -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .filter_map(|rest| {
                let body = &rest[rest.find('>')? + 1..];
                Some(body[..body.find("</text>")?].trim().to_string())
            })
            .collect()
    }

    #[test]
    fn article_figure_marks_every_attempt_and_the_give_up_point() {
        let options = ChartOptions {
            log_scale: true,
            ..ChartOptions::default()
        };
        let text = svg(&Policy::article().schedule(), options);
        assert_eq!(text.matches("<circle").count(), 14);
        assert!(text.contains("gives up at 24 h 02 min"));
        assert!(text.contains("capped: every gap 3 h"));
        assert!(labels(&text).iter().any(|l| l == "2 h 02 min"));
        // On a linear axis the first attempts sit within a pixel: they merge into one mark.
        let linear = svg(&Policy::article().schedule(), ChartOptions::default());
        assert!((12..14).contains(&linear.matches("<circle").count()));
    }

    #[test]
    fn log_axis_has_room_to_label_the_ramp() {
        let options = ChartOptions {
            log_scale: true,
            ..ChartOptions::default()
        };
        let text = svg(&Policy::article().schedule(), options);
        let labels = labels(&text);
        for label in ["30 s", "2 min", "6.5 min", "20 min", "4.5 min", "40.5 min"] {
            assert!(
                labels.iter().any(|l| l == label),
                "{label} missing on the log axis"
            );
        }
    }

    #[test]
    fn labels_keep_a_word_space_apart_even_with_ten_thousand_attempts() {
        let crowded = Policy::new(1.0, 1.1, 60.0, Stop::Attempts(10_000)).unwrap();
        for (policy, log_scale) in [
            (crowded, false),
            (crowded, true),
            (Policy::article(), true),
            (Policy::article(), false),
        ] {
            let options = ChartOptions {
                log_scale,
                ..ChartOptions::default()
            };
            let mut text = String::new();
            let placed = {
                let area = SVGBackend::with_string(&mut text, (900, 320)).into_drawing_area();
                draw_labelled(&area, &policy.schedule(), &options, Axis::default()).unwrap()
            };
            assert!(placed.len() > 5);
            for (i, a) in placed.iter().enumerate() {
                for b in &placed[i + 1..] {
                    let apart = a.2 + 6.0 <= b.0 || b.2 + 6.0 <= a.0 || a.3 <= b.1 || b.3 <= a.1;
                    assert!(apart, "labels at {a:?} and {b:?} touch");
                }
            }
            assert!(labels(&text).len() < 200);
            assert!(labels(&text).iter().any(|l| l.starts_with("gives up at")));
        }
    }

    #[test]
    fn dark_theme_and_scale_change_the_picture() {
        let schedule = Policy::article().schedule();
        let light = svg(&schedule, ChartOptions::default());
        let dark = svg(
            &schedule,
            ChartOptions {
                dark: true,
                ..ChartOptions::default()
            },
        );
        assert_ne!(light, dark);
        let bad = to_svg((900, 320), |area| {
            draw(
                area,
                &schedule,
                &ChartOptions {
                    scale: f64::NAN,
                    ..ChartOptions::default()
                },
            )
        });
        assert_eq!(
            bad.unwrap_err().to_string(),
            "scale must be a device pixel ratio from 0.5 to 4, got NaN"
        );
    }
}
