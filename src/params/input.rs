//! A duration or a number as people give it: seconds, or text such as `"4m30s"`, `"600/min"`
//! or `"10%"`, read in one pass.

use serde::{Deserialize, Serialize};

use crate::{parse_duration, Error};

/// A duration given either as seconds or as text such as `"4m30s"`.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum DurationInput {
    /// Seconds.
    Seconds(f64),
    /// Text in any form [`parse_duration`] reads.
    Text(String),
}

/// A number or text, read in one go: an untagged enum would try the number first and fail on
/// text, and at the wasm edge every failed try is a JavaScript `Error` with its stack.
fn number_or_text<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Result<f64, String>, D::Error> {
    struct NumberOrText;
    impl serde::de::Visitor<'_> for NumberOrText {
        type Value = Result<f64, String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a number or text")
        }
        fn visit_f64<E>(self, value: f64) -> Result<Self::Value, E> {
            Ok(Ok(value))
        }
        fn visit_i64<E>(self, value: i64) -> Result<Self::Value, E> {
            Ok(Ok(value as f64))
        }
        fn visit_u64<E>(self, value: u64) -> Result<Self::Value, E> {
            Ok(Ok(value as f64))
        }
        fn visit_str<E>(self, value: &str) -> Result<Self::Value, E> {
            Ok(Err(value.to_string()))
        }
    }
    deserializer.deserialize_any(NumberOrText)
}

impl<'de> Deserialize<'de> for DurationInput {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match number_or_text(deserializer)? {
            Ok(seconds) => DurationInput::Seconds(seconds),
            Err(text) => DurationInput::Text(text),
        })
    }
}

impl<'de> Deserialize<'de> for NumberInput {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match number_or_text(deserializer)? {
            Ok(number) => NumberInput::Number(number),
            Err(text) => NumberInput::Text(text),
        })
    }
}

impl DurationInput {
    /// The duration in seconds; text is parsed, numbers are taken as they are (range checks
    /// happen where the field is used).
    ///
    /// Text with a minus sign reads as the negative duration, as a negative number of seconds
    /// does, so that the field's own check refuses it with the field's range (`"-5s"` was told
    /// "never negative" alone).
    pub fn seconds(&self, field: &'static str) -> Result<f64, Error> {
        match self {
            DurationInput::Seconds(s) => Ok(*s),
            DurationInput::Text(text) => match text.trim_start().strip_prefix('-') {
                Some(magnitude) if !magnitude.trim_start().starts_with(['-', '+']) => {
                    parse_duration(field, magnitude)
                        .map(|seconds| -seconds)
                        .map_err(|error| with_sign(error, magnitude, text))
                }
                _ => parse_duration(field, text),
            },
        }
    }
}

impl DurationInput {
    /// [`DurationInput::seconds`], with text that is no duration refused with the field's
    /// `range` as well as examples, as a number out of the range is ("tolerance must be a
    /// duration from 1 µs to 365 days, such as 30s, …, got \"1e400\""); it was
    /// told the examples alone.
    pub fn seconds_within(&self, field: &'static str, range: &str) -> Result<f64, Error> {
        self.seconds(field).map_err(|error| match error {
            Error::BadDuration { value, .. } => Error::out_of_range(
                field,
                format!("{value:?}"),
                format!("{range}, {}", crate::duration::DURATION_EXAMPLES),
            ),
            // Text that reads as a duration but is refused as written (a month's `M`, a unit
            // twice) is told the range too ("--traffic 10M" was told only what `M` means).
            Error::OutOfRange {
                field,
                value,
                valid,
            } => match crate::duration::how_to_write(&valid) {
                Some(how) => Error::out_of_range(field, value, format!("{range}, {how}")),
                None => Error::OutOfRange {
                    field,
                    value,
                    valid,
                },
            },
            other => other,
        })
    }
}

/// A refusal of the text after a minus sign quoting the whole text given (`-abc` was quoted
/// as `"abc"`, `-1M` as `1M`).
fn with_sign(error: Error, magnitude: &str, text: &str) -> Error {
    let signed = |value: String| value.replacen(magnitude.trim(), text.trim(), 1);
    match error {
        Error::BadDuration { field, .. } => Error::BadDuration {
            field,
            value: text.to_string(),
        },
        Error::OutOfRange {
            field,
            value,
            valid,
        } => Error::OutOfRange {
            field,
            value: signed(value),
            valid,
        },
        other => other,
    }
}

impl From<f64> for DurationInput {
    fn from(seconds: f64) -> Self {
        DurationInput::Seconds(seconds)
    }
}

/// A number given as a number or as text: a rate (`600/min`, `30/s`, a bare number is per
/// second) or a percentage (`10%`, a bare number is percent).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum NumberInput {
    /// A plain number.
    Number(f64),
    /// Text such as `600/min` or `10%`.
    Text(String),
}

impl NumberInput {
    /// A rate in events per second.
    ///
    /// # Example
    /// ```
    /// use backoff_lab::NumberInput;
    /// assert_eq!(NumberInput::Text("600/min".into()).per_second("arrivals")?, 10.0);
    /// assert_eq!(NumberInput::Number(30.0).per_second("capacity")?, 30.0);
    /// # Ok::<(), backoff_lab::Error>(())
    /// ```
    pub fn per_second(&self, field: &'static str) -> Result<f64, Error> {
        let bad = |value: &str| {
            Error::out_of_range(
                field,
                format!("{value:?}"),
                "a rate such as 600/min, 30/s or 36000/h",
            )
        };
        match self {
            NumberInput::Number(n) => Ok(*n),
            NumberInput::Text(text) => {
                let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
                let (amount, unit) = compact.split_once('/').unwrap_or((&compact, "s"));
                let per = match unit {
                    "s" | "sec" | "second" => 1.0,
                    "m" | "min" | "minute" => 60.0,
                    "h" | "hour" => 3_600.0,
                    "d" | "day" => 86_400.0,
                    _ => return Err(bad(text)),
                };
                let amount: f64 = amount.parse().map_err(|_| bad(text))?;
                Ok(amount / per)
            }
        }
    }

    /// A percentage as a share (`10%` → 0.1).
    pub fn share(&self, field: &'static str) -> Result<f64, Error> {
        let percent = match self {
            NumberInput::Number(n) => *n,
            NumberInput::Text(text) => parse_percent(text).ok_or_else(|| {
                Error::out_of_range(
                    field,
                    format!("{text:?}"),
                    "a percentage from 0 to 100%, such as 10%",
                )
            })?,
        };
        // `+ 0.0`: a share of -0 is none, and must not read "-0%" in a caption or the JSON.
        Ok(percent / 100.0 + 0.0)
    }
}

/// A number of percent written with or without one `%` (`10`, `10%`, `10 %`); `None` for
/// anything else (`10%%`, `ten`).
///
/// # Example
/// ```
/// use backoff_lab::parse_percent;
/// assert_eq!(parse_percent(" 7.5 %"), Some(7.5));
/// assert_eq!(parse_percent("10%%"), None);
/// ```
pub fn parse_percent(text: &str) -> Option<f64> {
    let text = text.trim();
    text.strip_suffix('%').unwrap_or(text).trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::DurationInput;

    /// Text refused as written (a month's `M`, a unit twice, a second minus sign) is told the
    /// field's range as well as the rule it broke.
    #[test]
    fn text_refused_as_written_is_told_the_range_and_the_rule() {
        let refused = |text: &str| {
            DurationInput::Text(text.into())
                .seconds_within("traffic", "a duration from 1 s to 7 days")
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            refused("10M"),
            "traffic must be a duration from 1 s to 7 days, such as 30s, 5m, 4.5min, 3h or 1d (M is a month in that notation: write month for months, m or min for minutes), got 10M"
        );
        assert_eq!(
            refused("1h 1h"),
            "traffic must be a duration from 1 s to 7 days, with each unit once, such as 30s, 4m30s, 4.5min, 2h30m or 1d, got \"1h 1h\""
        );
        assert_eq!(
            refused("--5s"),
            "traffic must be a duration from 1 s to 7 days, such as 30s, never negative, got --5s"
        );
        assert!(refused("soon")
            .starts_with("traffic must be a duration from 1 s to 7 days, such as 30s, 4m30s"));
    }
}
