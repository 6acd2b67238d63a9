//! Charts, each one `draw` function generic over the plotters backend, so the same figure
//! renders to a canvas in the page and to SVG natively.

mod theme;
pub mod timeline;

pub use theme::Theme;

use plotters::prelude::*;

use crate::Error;

/// Options every chart takes: colours and the device-pixel scale.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ChartOptions {
    /// Draw for a dark page.
    pub dark: bool,
    /// Device pixels per CSS pixel (1 to 4); sizes of text, marks and lines scale with it.
    pub scale: f64,
    /// A logarithmic time axis (`ln(1 + t / base)`), for long tails.
    pub log_scale: bool,
}

impl Default for ChartOptions {
    fn default() -> Self {
        ChartOptions {
            dark: false,
            scale: 1.0,
            log_scale: false,
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

/// Renders any chart to an SVG string of the given CSS size.
pub fn to_svg(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> Result<(), Error>,
) -> Result<String, Error> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&area)?;
        area.present().map_err(drawing_error)?;
    }
    Ok(svg)
}

pub(crate) fn drawing_error<E: std::error::Error + Send + Sync>(
    err: DrawingAreaErrorKind<E>,
) -> Error {
    Error::Drawing(err.to_string())
}
