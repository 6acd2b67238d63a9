//! The size of a figure drawn as SVG (the CLI's `figure`, the JS API's `chartSvg`, `stormSvg`
//! and `viewSvg`): below 240 × 160 pixels the charts cannot hold their legends and axis labels
//! (a 100 px chart clipped its legend and drew its labels over each other), so a smaller size is
//! refused; past 4000 pixels a side, nobody reads the figure and the SVG only grows.

use crate::{whole_number, Error};

/// The narrowest figure, in pixels.
pub const MIN_WIDTH: u32 = 240;
/// The lowest figure, in pixels.
pub const MIN_HEIGHT: u32 = 160;
/// The longest side, in pixels.
pub const MAX_SIDE: u32 = 4_000;

/// A figure's size as given: whole numbers of pixels, 240 to 4000 wide and 160 to 4000 high.
///
/// # Example
/// ```
/// use backoff_lab::chart::figure_size;
/// assert_eq!(figure_size(900.0, 320.0), Ok((900, 320)));
/// assert!(figure_size(100.0, 320.0).is_err());
/// ```
pub fn figure_size(width: f64, height: f64) -> Result<(u32, u32), Error> {
    Ok((
        side("width", width, MIN_WIDTH)?,
        side("height", height, MIN_HEIGHT)?,
    ))
}

/// The size of a chart already on screen (a canvas's, for the page's and the element's SVG
/// export): rounded to whole pixels and brought within the figure's limits, so that a chart
/// drawn in a narrow column still exports; a size that is no number is refused.
pub fn figure_size_within(width: f64, height: f64) -> Result<(u32, u32), Error> {
    let within = |pixels: f64, min: u32| pixels.round().clamp(f64::from(min), f64::from(MAX_SIDE));
    if !(width.is_finite() && height.is_finite()) {
        return figure_size(width, height);
    }
    figure_size(within(width, MIN_WIDTH), within(height, MIN_HEIGHT))
}

fn side(field: &'static str, pixels: f64, min: u32) -> Result<u32, Error> {
    whole_number(field, pixels, min.into(), MAX_SIDE.into())
        .map(|n| n as u32)
        .map_err(|_| {
            Error::out_of_range(
                field,
                pixels,
                format!("a whole number of pixels from {min} to {MAX_SIDE}"),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_size_the_charts_cannot_hold_is_refused_with_the_range() {
        let refused = |width, height| figure_size(width, height).unwrap_err().to_string();
        assert_eq!(
            refused(239.0, 320.0),
            "width must be a whole number of pixels from 240 to 4000, got 239"
        );
        assert_eq!(
            refused(900.0, 159.0),
            "height must be a whole number of pixels from 160 to 4000, got 159"
        );
        for (width, height) in [(f64::NAN, 320.0), (900.5, 320.0), (900.0, 4001.0)] {
            assert!(figure_size(width, height).is_err(), "{width} × {height}");
        }
        assert_eq!(figure_size(240.0, 160.0), Ok((240, 160)));
        assert_eq!(figure_size(4000.0, 4000.0), Ok((4000, 4000)));
    }

    #[test]
    fn a_canvas_size_is_brought_within_the_limits_but_no_number_is_refused() {
        assert_eq!(figure_size_within(180.4, 99.6), Ok((240, 160)));
        assert_eq!(figure_size_within(900.4, 320.5), Ok((900, 321)));
        assert_eq!(figure_size_within(9000.0, 320.0), Ok((4000, 320)));
        assert!(figure_size_within(f64::NAN, 320.0).is_err());
        assert!(figure_size_within(900.0, f64::INFINITY).is_err());
    }
}
