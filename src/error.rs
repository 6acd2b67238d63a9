//! The one error type of the crate: every refusal says what was wrong and what is valid.

use std::fmt;

/// Why an input was refused. `Display` gives one lowercase sentence that names the field,
/// the value that was given and the valid range.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// A number outside its valid range (NaN and infinities included).
    OutOfRange {
        /// The field, as the user knows it (`base`, `multiplier`, ...).
        field: &'static str,
        /// The value that was given, as text.
        value: String,
        /// The valid range, in words.
        valid: String,
    },
    /// Text that is not a duration.
    BadDuration {
        /// The field the text was given for.
        field: &'static str,
        /// The text that was given.
        value: String,
    },
    /// A question with no answer under the given policy (e.g. a deadline no cap can reach).
    Unreachable(String),
    /// A chart could not be drawn (a canvas that went away, a backend failure).
    Drawing(String),
}

/// A number as a refusal quotes it, `written` as given (Rust's shortest form that reads back),
/// or in exponent form where that would be hundreds of digits (1e-320 as 0.000…, 1e308 as 1000…).
pub fn quoted_number(number: f64, written: String) -> String {
    if written.len() > 24 && number.is_finite() {
        format!("{number:e}")
    } else {
        written
    }
}

impl Error {
    /// A refusal of `value` for `field`, with the valid range in words.
    pub fn out_of_range(
        field: &'static str,
        value: impl fmt::Display,
        valid: impl Into<String>,
    ) -> Self {
        let value = value.to_string();
        let value = match value.parse::<f64>() {
            Ok(number) => quoted_number(number, value),
            _ => value,
        };
        Error::OutOfRange {
            field,
            value: infinity_as_javascript_writes_it(value),
            valid: valid.into(),
        }
    }
}

/// A value Rust wrote with an infinite number in it (`inf`, `-inf%`, `1..inf`) written as
/// JavaScript writes it (`Infinity`): the page, the CLI and the JS API read "got inf", "got inf%"
/// and "got Infinity" for one value (outside review). Text given in quotes is left as given.
fn infinity_as_javascript_writes_it(value: String) -> String {
    if value.starts_with('"') || !value.contains("inf") {
        return value;
    }
    let letter = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphabetic());
    let mut written = String::with_capacity(value.len() + 5);
    let mut rest = value.as_str();
    while let Some(at) = rest.find("inf") {
        let (before, after) = (&rest[..at], &rest[at + 3..]);
        written.push_str(before);
        let alone = !letter(before.chars().next_back().or(written.chars().next_back()))
            && !letter(after.chars().next());
        written.push_str(if alone { "Infinity" } else { "inf" });
        rest = after;
    }
    written.push_str(rest);
    written
}

#[cfg(test)]
mod infinity_tests {
    use super::*;

    #[test]
    fn infinite_numbers_are_written_as_javascript_writes_them() {
        for (rust, written) in [
            ("inf", "Infinity"),
            ("-inf", "-Infinity"),
            ("inf%", "Infinity%"),
            ("1..inf", "1..Infinity"),
            ("\"inf\"", "\"inf\""),
            ("infinite", "infinite"),
            ("NaN", "NaN"),
        ] {
            assert_eq!(infinity_as_javascript_writes_it(rust.into()), written);
        }
        let refused = Error::out_of_range("multiplier", f64::INFINITY, "a number from 1 to 1000");
        assert_eq!(
            refused.to_string(),
            "multiplier must be a number from 1 to 1000, got Infinity"
        );
    }
}

impl Error {
    /// The same refusal of a field given under another name (a preset given as `compare`).
    pub fn for_field(self, name: &'static str) -> Self {
        match self {
            Error::OutOfRange { value, valid, .. } => Error::OutOfRange {
                field: name,
                value,
                valid,
            },
            Error::BadDuration { value, .. } => Error::BadDuration { field: name, value },
            other => other,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::OutOfRange {
                field,
                value,
                valid,
            } => write!(f, "{field} must be {valid}, got {}", cut_short(value)),
            Error::BadDuration { field, value } => write!(
                f,
                "{field} must be a duration {}, got {}",
                crate::duration::DURATION_EXAMPLES,
                cut_short(&format!("{value:?}"))
            ),
            Error::Unreachable(why) => f.write_str(why),
            Error::Drawing(why) => write!(f, "the chart could not be drawn: {why}"),
        }
    }
}

impl std::error::Error for Error {}

/// The most characters of text given (quoted) that a refusal quotes whole.
const QUOTED_CHARS: usize = 80;
/// The most characters of any other value a refusal writes whole: the core's own words about a
/// value ("about 17,245,640 attempts expected (the fluid engine's estimate, …)") run longer.
const WRITTEN_CHARS: usize = 300;

/// Text given, as every refusal and notice quotes it: escaped, in quotes, whole up to
/// [`QUOTED_CHARS`] characters and else its start, "…" and its length ([`cut_short`]).
pub(crate) fn quoted(text: &str) -> String {
    cut_short(&format!("{text:?}")).into_owned()
}

/// `value` as a refusal quotes it: whole up to [`QUOTED_CHARS`] characters of text given (in
/// quotes) or [`WRITTEN_CHARS`] of anything else, else its start and how long it was (a
/// 100,000-character `base` made a 100 kB message); text in quotes keeps its quotes, and its length
/// is the text's.
pub fn cut_short(value: &str) -> std::borrow::Cow<'_, str> {
    let (quote, text) = match value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        Some(inner) => ("\"", inner),
        None => ("", value),
    };
    let most = if quote.is_empty() {
        WRITTEN_CHARS
    } else {
        QUOTED_CHARS
    };
    if value.chars().count() <= most {
        return value.into();
    }
    let start: String = text.chars().take(QUOTED_CHARS / 2).collect();
    let count = crate::number_text::grouped(&text.chars().count().to_string());
    format!("{quote}{start}…{quote} ({count} characters)").into()
}

#[cfg(test)]
mod tests {
    use super::Error;

    /// A 100,000-character value made a 100 kB message: its start is quoted, and its length.
    #[test]
    fn a_long_value_is_quoted_by_its_start_and_length() {
        let long = "9".repeat(100_000) + "s";
        let message = crate::parse_duration("base", &long)
            .unwrap_err()
            .to_string();
        assert!(message.len() < 200, "{}", message.len());
        let start = "9".repeat(40);
        let quoted = format!("got \"{start}…\" (100,001 characters)");
        assert!(message.ends_with(&quoted), "{message}");
        let short = Error::out_of_range("base", "x".repeat(80), "a duration").to_string();
        assert!(short.ends_with(&"x".repeat(80)), "{short}");
    }

    /// `multiplier: 1e-320` was quoted as "got 0.000…" with 320 digits.
    #[test]
    fn a_number_of_hundreds_of_digits_is_quoted_in_exponent_form() {
        let quoted = |value: f64| match Error::out_of_range("multiplier", value, "a number") {
            Error::OutOfRange { value, .. } => value,
            other => panic!("{other:?}"),
        };
        assert_eq!(quoted(1e-320), "1e-320");
        assert_eq!(quoted(1e300), "1e300");
        assert_eq!(quoted(0.5), "0.5");
        assert_eq!(quoted(123_456.0), "123456");
    }
}
