//! Colours for light and dark pages, from the Okabe–Ito palette (safe for colour-blind readers).
//! On a light page its orange, green and pink are darkened to read against white: text drawn
//! in a colour at 4.5:1 or more, the cap's marks (lines and dots, never text) at 3:1 or more
//! (WCAG 1.4.3 and 1.4.11); Okabe–Ito's own #D55E00 was 3.9:1 and #E69F00 2.3:1.

use plotters::style::RGBColor;

/// The colours a chart uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    /// Page background (charts fill it so exported images match the page).
    pub background: RGBColor,
    /// Main text.
    pub text: RGBColor,
    /// Secondary text and axis.
    pub muted: RGBColor,
    /// Grid lines.
    pub grid: RGBColor,
    /// The main series (attempts).
    pub primary: RGBColor,
    /// Emphasis (the cap region).
    pub accent: RGBColor,
    /// The end (give-up).
    pub alert: RGBColor,
    /// A second series.
    pub secondary: RGBColor,
    /// A third series.
    pub tertiary: RGBColor,
}

impl Theme {
    /// `colour` laid at `alpha` over `under`, as one opaque colour: what a translucent fill
    /// shows, for a legend swatch that must look like it.
    pub fn over(under: RGBColor, colour: RGBColor, alpha: f64) -> RGBColor {
        let channel =
            |u: u8, c: u8| (f64::from(u) + (f64::from(c) - f64::from(u)) * alpha).round() as u8;
        RGBColor(
            channel(under.0, colour.0),
            channel(under.1, colour.1),
            channel(under.2, colour.2),
        )
    }

    /// Whether this is a dark page's theme: its background darker than mid-grey (relative
    /// luminance below one half). Shades that stand for "more" mix less colour into a dark
    /// background to look darker, and more into a light one.
    pub fn is_dark(&self) -> bool {
        let RGBColor(r, g, b) = self.background;
        let luminance =
            (0.2126 * f64::from(r) + 0.7152 * f64::from(g) + 0.0722 * f64::from(b)) / 255.0;
        luminance < 0.5
    }

    /// The theme for a light or a dark page.
    pub fn new(dark: bool) -> Self {
        if dark {
            Theme {
                background: RGBColor(0x16, 0x1b, 0x22),
                text: RGBColor(0xe6, 0xed, 0xf3),
                muted: RGBColor(0x9d, 0xa7, 0xb3),
                grid: RGBColor(0x30, 0x36, 0x3d),
                primary: RGBColor(0x56, 0xb4, 0xe9),
                accent: RGBColor(0xe6, 0x9f, 0x00),
                alert: RGBColor(0xff, 0x7b, 0x4a),
                secondary: RGBColor(0x00, 0xb3, 0x86),
                tertiary: RGBColor(0xe0, 0x8f, 0xc0),
            }
        } else {
            Theme {
                background: RGBColor(0xff, 0xff, 0xff),
                text: RGBColor(0x1f, 0x23, 0x28),
                muted: RGBColor(0x59, 0x63, 0x6e),
                grid: RGBColor(0xd8, 0xde, 0xe4),
                primary: RGBColor(0x00, 0x72, 0xb2),
                accent: RGBColor(0xb0, 0x78, 0x00),
                alert: RGBColor(0xb8, 0x4f, 0x00),
                secondary: RGBColor(0x00, 0x80, 0x5c),
                tertiary: RGBColor(0xb0, 0x58, 0x8a),
            }
        }
    }
}

/// WCAG's contrast ratio of two colours (1 to 21), for the tests that check what reads.
#[cfg(test)]
pub(crate) fn contrast(a: RGBColor, b: RGBColor) -> f64 {
    let luminance = |RGBColor(r, g, b): RGBColor| {
        let linear = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    };
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every colour text is drawn in reads at 4.5:1 on its background, and the cap's marks at
    /// 3:1, in both themes (the light theme's orange labels were 3.9:1, its cap 2.3:1).
    #[test]
    fn every_colour_reads_against_its_background() {
        for dark in [false, true] {
            let theme = Theme::new(dark);
            let texts = [
                ("text", theme.text),
                ("muted", theme.muted),
                ("primary", theme.primary),
                ("alert", theme.alert),
                ("secondary", theme.secondary),
                ("tertiary", theme.tertiary),
            ];
            for (name, colour) in texts {
                let ratio = contrast(colour, theme.background);
                assert!(ratio >= 4.5, "dark {dark}: {name} {ratio:.2}:1");
            }
            let ratio = contrast(theme.accent, theme.background);
            assert!(ratio >= 3.0, "dark {dark}: accent {ratio:.2}:1");
        }
    }

    #[test]
    fn the_dark_theme_is_dark_and_the_light_one_is_not() {
        assert!(Theme::new(true).is_dark());
        assert!(!Theme::new(false).is_dark());
    }
}
