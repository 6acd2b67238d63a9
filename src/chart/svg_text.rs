//! Text in an SVG at the size the chart laid it out at. plotters' SVG backend writes a font's
//! size divided by 1.24 (the em of its own fonts), so text laid out at 11 px, the size the
//! canvas draws, read 8.87 px in a `figure` and in the page's SVG download: about a fifth
//! smaller than on the page, with the room around it laid out for the larger text.

use plotters::prelude::*;
use plotters_backend::{
    text_anchor, BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
    FontFamily, FontStyle, FontTransform,
};

/// The factor plotters' SVG backend divides a font's size by.
const SVG_EM: f64 = 1.24;

/// `style` with its size times [`SVG_EM`], for the SVG backend to write the size itself.
struct SvgSized<'s, S>(&'s S);

impl<S: BackendTextStyle> BackendTextStyle for SvgSized<'_, S> {
    type FontError = S::FontError;

    fn color(&self) -> BackendColor {
        self.0.color()
    }

    fn size(&self) -> f64 {
        self.0.size() * SVG_EM
    }

    fn transform(&self) -> FontTransform {
        self.0.transform()
    }

    fn style(&self) -> FontStyle {
        self.0.style()
    }

    fn anchor(&self) -> text_anchor::Pos {
        self.0.anchor()
    }

    fn family(&self) -> FontFamily<'_> {
        self.0.family()
    }

    /// The box of the text at the size written: the style's own box, [`SVG_EM`] times larger.
    fn layout_box(&self, text: &str) -> Result<((i32, i32), (i32, i32)), Self::FontError> {
        let scaled = |v: i32| (f64::from(v) * SVG_EM).round() as i32;
        let ((x0, y0), (x1, y1)) = self.0.layout_box(text)?;
        Ok(((scaled(x0), scaled(y0)), (scaled(x1), scaled(y1))))
    }

    fn draw<E, DrawFunc: FnMut(i32, i32, BackendColor) -> Result<(), E>>(
        &self,
        text: &str,
        pos: BackendCoord,
        draw: DrawFunc,
    ) -> Result<Result<(), E>, Self::FontError> {
        self.0.draw(text, pos, draw)
    }
}

/// `svg` with each `font-size` written to the hundredth of a pixel. The backend writes the size
/// it is given divided by 1.24, and no float divides back to 13 exactly: 13 px read
/// `13.000000000000002` (an outside review found it in a figure).
pub fn tidy_font_sizes(svg: &str) -> String {
    const KEY: &str = "font-size=\"";
    let mut tidy = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(at) = rest.find(KEY) {
        let (before, after) = rest.split_at(at + KEY.len());
        tidy.push_str(before);
        let end = after.find('"').unwrap_or(after.len());
        let size = &after[..end];
        match size.parse::<f64>() {
            Ok(px) => {
                let written = format!("{px:.2}");
                tidy.push_str(written.trim_end_matches('0').trim_end_matches('.'));
            }
            Err(_) => tidy.push_str(size),
        }
        rest = &after[end..];
    }
    tidy.push_str(rest);
    tidy
}

/// plotters' SVG backend with its text written at the size it is drawn at: what
/// [`super::to_svg`] draws on.
pub struct SvgFigure<'a>(SVGBackend<'a>);

impl<'a> SvgFigure<'a> {
    /// An SVG of `size` written into `svg`.
    pub fn with_string(svg: &'a mut String, size: (u32, u32)) -> Self {
        SvgFigure(SVGBackend::with_string(svg, size))
    }
}

type Drawn = Result<(), DrawingErrorKind<<SVGBackend<'static> as DrawingBackend>::ErrorType>>;

impl DrawingBackend for SvgFigure<'_> {
    type ErrorType = <SVGBackend<'static> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }

    fn ensure_prepared(&mut self) -> Drawn {
        self.0.ensure_prepared()
    }

    fn present(&mut self) -> Drawn {
        self.0.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn {
        self.0.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawn {
        self.0.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn {
        self.0.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn {
        self.0.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn {
        self.0.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn {
        self.0.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Drawn {
        self.0.draw_text(text, &SvgSized(style), pos)
    }

    /// Measured as a browser draws it ([`super::text_width`]: Arial's widths at the size
    /// written); as tall as plotters' estimate, which reads the size divided by 1.24 too, so
    /// the height it measures is the text's the SVG shows.
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        let estimated = self.0.estimate_text_size(text, &SvgSized(style))?;
        let bold = matches!(style.style(), FontStyle::Bold);
        let width = super::text_width::width(text, style.size(), bold).ceil() as u32;
        // A quarter-turned text (a y axis' title) is as wide as it is tall upright (plotters'
        // estimate is of the upright text, whatever the turn).
        Ok(match style.transform() {
            FontTransform::Rotate90 | FontTransform::Rotate270 => (estimated.1, width),
            _ => (width, estimated.1),
        })
    }
}

#[cfg(test)]
mod tests {
    /// Every size a figure writes reads as the chart's: at most two decimals, with no float
    /// noise, at the sizes the page draws.
    #[test]
    fn font_sizes_are_written_without_float_noise() {
        use crate::chart::{timeline, to_svg, ChartOptions};
        let svix = crate::presets::preset("svix").unwrap().policy;
        let article = crate::Policy::article();
        for (view, policy, scale) in [("svix", &svix, 1.0), ("article", &article, 1.3)] {
            let options = ChartOptions {
                scale,
                ..ChartOptions::default()
            };
            let svg = to_svg((900, 420), |area| {
                timeline::draw(area, &policy.schedule(), &options)
            })
            .unwrap();
            let sizes: Vec<&str> = svg
                .split("font-size=\"")
                .skip(1)
                .filter_map(|rest| rest.split('"').next())
                .collect();
            assert!(!sizes.is_empty(), "{view}");
            for size in sizes {
                let decimals = size.split('.').nth(1).map_or(0, str::len);
                assert!(decimals <= 2, "{view}: font-size=\"{size}\"");
                assert!(size.parse::<f64>().unwrap() >= 10.0, "{view}: {size}");
            }
        }
    }
}
