//! A colour a host page gives in CSS for the chart's background (the element's
//! `--backoff-lab-background`), in the notations that name one opaque sRGB colour exactly.

use crate::Error;

/// An opaque colour, read from `#rrggbb`, `#rgb` or `rgb(r, g, b)` (commas or spaces, each
/// channel a whole number from 0 to 255; any case, spaces around). Named colours, other colour
/// spaces and translucent colours are refused: the chart is filled with it, and what shows
/// through a translucent fill would depend on the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct CssColour(pub u8, pub u8, pub u8);

impl CssColour {
    /// Reads `text`, or refuses it naming the field `background` and the notations taken.
    pub fn parse(text: &str) -> Result<CssColour, Error> {
        let refused = || {
            Error::out_of_range(
                "background",
                format!("{text:?}"),
                "an opaque colour written #rrggbb, #rgb or rgb(r, g, b), each channel 0 to 255",
            )
        };
        let text = text.trim().to_ascii_lowercase();
        if let Some(hex) = text.strip_prefix('#') {
            let digits: Option<Vec<u8>> = hex
                .chars()
                .map(|c| c.to_digit(16).map(|d| d as u8))
                .collect();
            return match digits.as_deref() {
                Some(&[r, g, b]) => Ok(CssColour(r * 17, g * 17, b * 17)),
                Some(&[r1, r2, g1, g2, b1, b2]) => {
                    Ok(CssColour(r1 * 16 + r2, g1 * 16 + g2, b1 * 16 + b2))
                }
                _ => Err(refused()),
            };
        }
        let inner = text
            .strip_prefix("rgb(")
            .and_then(|rest| rest.strip_suffix(')'))
            .ok_or_else(refused)?;
        let channels: Vec<&str> = if inner.contains(',') {
            inner.split(',').map(str::trim).collect()
        } else {
            inner.split_whitespace().collect()
        };
        let channel = |text: &str| text.parse::<u8>().ok();
        match channels[..] {
            [r, g, b] => match (channel(r), channel(g), channel(b)) {
                (Some(r), Some(g), Some(b)) => Ok(CssColour(r, g, b)),
                _ => Err(refused()),
            },
            _ => Err(refused()),
        }
    }
}

impl TryFrom<String> for CssColour {
    type Error = Error;

    fn try_from(text: String) -> Result<Self, Error> {
        CssColour::parse(&text)
    }
}

impl From<CssColour> for String {
    fn from(CssColour(r, g, b): CssColour) -> String {
        format!("#{r:02x}{g:02x}{b:02x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notations_of_one_colour_read_alike() {
        for text in [
            "#faf8f5",
            " #FAF8F5 ",
            "rgb(250, 248, 245)",
            "rgb(250 248 245)",
            "RGB( 250 ,248, 245 )",
        ] {
            assert_eq!(
                CssColour::parse(text).unwrap(),
                CssColour(250, 248, 245),
                "{text}"
            );
        }
        assert_eq!(CssColour::parse("#fa0").unwrap(), CssColour(255, 170, 0));
        assert_eq!(String::from(CssColour(250, 248, 5)), "#faf805");
    }

    #[test]
    fn what_is_not_one_opaque_colour_is_refused_naming_the_notations() {
        for text in [
            "",
            "ivory",
            "#faf8f",
            "#faf8f5ff",
            "#ggg",
            "rgb(256, 0, 0)",
            "rgb(1, 2)",
            "rgb(1, 2, 3, 0.5)",
            "rgba(1, 2, 3)",
            "rgb(1.5, 2, 3)",
            "rgb(-1, 2, 3)",
            "oklch(70% 0.1 200)",
            "#٣٣٣",
        ] {
            let message = CssColour::parse(text).unwrap_err().to_string();
            assert!(
                message.starts_with(
                    "background must be an opaque colour written #rrggbb, #rgb or rgb(r, g, b)"
                ),
                "{text}: {message}"
            );
        }
    }
}
