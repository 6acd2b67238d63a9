//! The timeline's painter: drawing in pixels at a device scale, and keeping labels apart.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::chart::{drawing_error, font, stroke};
use crate::Error;

/// A label's rectangle in pixels: left, top, right, bottom.
pub(super) type Rect = (f64, f64, f64, f64);

/// Draws in pixels at a device scale, and keeps the rectangles that labels already hold.
pub(super) struct Painter<'a, DB: DrawingBackend> {
    area: &'a DrawingArea<DB, Shift>,
    pub(super) scale: f64,
    pub(super) placed: Vec<Rect>,
    /// Lines no label may come near ([`Painter::reserve`]).
    reserved: Vec<Rect>,
}

fn px(point: (f64, f64)) -> (i32, i32) {
    (point.0.round() as i32, point.1.round() as i32)
}

impl<'a, DB: DrawingBackend> Painter<'a, DB> {
    pub(super) fn new(area: &'a DrawingArea<DB, Shift>, scale: f64) -> Self {
        Painter {
            area,
            scale,
            placed: Vec::new(),
            reserved: Vec::new(),
        }
    }

    pub(super) fn font(&self, size: f64, colour: RGBColor) -> TextStyle<'static> {
        font(size, self.scale, colour)
    }

    pub(super) fn styled_font(
        &self,
        size: f64,
        colour: RGBColor,
        style: FontStyle,
    ) -> TextStyle<'static> {
        TextStyle {
            font: (
                plotters::style::FontFamily::SansSerif,
                size * self.scale,
                style,
            )
                .into_font(),
            color: colour.to_backend_color(),
            pos: Pos::default(),
        }
    }

    pub(super) fn size(&self, text: &str, font: &TextStyle) -> (f64, f64) {
        crate::chart::text_size(self.area, text, font)
    }

    /// The left edge of a label `w` wide wanted at `left`, moved to keep a margin from both
    /// edges of an area `area_w` wide: a label flush with the edge reads as cut off (and in an
    /// iframe or a bordered box it is).
    pub(super) fn inside(&self, left: f64, w: f64, area_w: f64) -> f64 {
        let margin = 4.0 * self.scale;
        left.min(area_w - margin - w)
            .max(margin.min((area_w - w) / 2.0))
    }

    /// Takes a rectangle that no later label may come near, whatever is there already: a line
    /// drawn beside its own label (the cap band's edge, the give-up line), which `claim` would
    /// refuse for being within a word space of that label, leaving the line free to be written
    /// over.
    pub(super) fn reserve(&mut self, rect: Rect) {
        self.reserved.push(rect);
    }

    /// Takes a rectangle for a label unless it overlaps one already taken or comes within a
    /// word space of one on its line (side by side, two labels would read as one).
    pub(super) fn claim(&mut self, rect: Rect) -> bool {
        let free = self.is_free(rect);
        if free {
            self.placed.push(rect);
        }
        free
    }

    /// Whether [`Painter::claim`] would take `rect`. A rectangle that is not free stays so
    /// however it grows: a label can be refused before its text is measured, by a part of it
    /// known without measuring.
    pub(super) fn is_free(&self, rect: Rect) -> bool {
        let space = 6.0 * self.scale;
        self.placed.iter().chain(&self.reserved).all(|p| {
            rect.2 + space <= p.0 || rect.0 >= p.2 + space || rect.3 <= p.1 || rect.1 >= p.3
        })
    }

    /// Writes `text` anchored at `at`; with `avoid`, only where no other label is. Returns
    /// whether it was written.
    pub(super) fn text(
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
        let x0 = self.inside(
            match h {
                HPos::Left => at.0,
                HPos::Center => at.0 - w / 2.0,
                HPos::Right => at.0 - w,
            },
            w,
            f64::from(area_w),
        );
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

    pub(super) fn line(
        &self,
        points: &[(f64, f64)],
        colour: RGBColor,
        width: f64,
    ) -> Result<(), Error> {
        let style = colour.stroke_width(stroke(width, self.scale));
        self.area
            .draw(&PathElement::new(
                points.iter().copied().map(px).collect::<Vec<_>>(),
                style,
            ))
            .map_err(drawing_error)
    }

    pub(super) fn rect(
        &self,
        from: (f64, f64),
        to: (f64, f64),
        fill: RGBAColor,
    ) -> Result<(), Error> {
        self.area
            .draw(&Rectangle::new([px(from), px(to)], fill.filled()))
            .map_err(drawing_error)
    }

    pub(super) fn dot(&self, at: (f64, f64), radius: f64, colour: RGBColor) -> Result<(), Error> {
        let r = (radius * self.scale).round() as i32;
        self.area
            .draw(&Circle::new(px(at), r, colour.filled()))
            .map_err(drawing_error)
    }
}
