//! The map's two axes: outage lengths and capacity headroom, each log-spaced between two ends.

use serde::Serialize;

use crate::storm::MAX_HORIZON_S;
use crate::Error;

use super::RECOVERY_WINDOW_S;

/// The most steps on either axis.
pub const MAX_STEPS: usize = 64;
/// The most cells in one series (outages × headroom).
pub const MAX_CELLS: usize = 1_024;
/// The smallest and largest headroom (capacity ÷ arrival rate).
pub const HEADROOM_RANGE: (f64, f64) = (0.1, 1_000.0);

/// The longest outage a map may ask about: the storm's horizon less the recovery window.
pub fn longest_outage_s() -> f64 {
    f64::from(MAX_HORIZON_S - RECOVERY_WINDOW_S)
}

/// Outage lengths (seconds) and headroom values, each in increasing order.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Axes {
    /// Outage lengths, whole seconds, log-spaced from the first to the last given.
    pub outages_s: Vec<f64>,
    /// Capacity ÷ arrival rate, log-spaced from the first to the last given.
    pub headroom: Vec<f64>,
    /// Whether the headroom axis is the default one started where the fluid engine runs every
    /// cell ([`super::fitted_axes`]), which the map's caption says.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    pub headroom_fitted: bool,
}

/// `steps` values from `low` to `high` (both included), evenly spaced on a log axis.
fn log_spaced(low: f64, high: f64, steps: usize) -> Vec<f64> {
    (0..steps)
        .map(|i| low * libm::pow(high / low, i as f64 / (steps - 1) as f64))
        .collect()
}

/// Refuses steps outside 2 to [`MAX_STEPS`] on an axis or past [`MAX_CELLS`] in all, with both
/// rules in the message whichever is broken: one alone read as the whole rule (`33x32` was
/// refused for its cells by a map whose documentation gave only the steps' range).
fn check_steps((outages, headroom): (usize, usize)) -> Result<(), Error> {
    let on_each_axis = |steps: usize| (2..=MAX_STEPS).contains(&steps);
    // Each axis first: the product of two unchecked counts could overflow.
    if on_each_axis(outages) && on_each_axis(headroom) && outages * headroom <= MAX_CELLS {
        return Ok(());
    }
    Err(Error::out_of_range(
        "steps",
        format!("{outages}x{headroom}"),
        steps_range(),
    ))
}

/// The steps' range, for counts out of it and for text that is no two counts.
fn steps_range() -> String {
    format!(
        "from 2 to {MAX_STEPS} steps on each axis and at most {MAX_CELLS} cells in all \
         (outages × headroom, such as 32x32 or 64x16)"
    )
}

/// The headroom axis' range, for ratios out of it and for text that is no two ratios.
fn headroom_range() -> String {
    let (floor, ceiling) = HEADROOM_RANGE;
    format!(
        "two ratios of capacity to arrivals from {floor} to {ceiling}, the first smaller (such \
         as 1.05..20)"
    )
}

impl Axes {
    /// Checks and spaces the axes: outages from 1 s to [`longest_outage_s`] (the low end below
    /// the high one), rounded to whole seconds (equal ones merged); headroom within
    /// [`HEADROOM_RANGE`]; 2 to [`MAX_STEPS`] steps each, at most [`MAX_CELLS`] cells.
    pub fn new(
        outages_s: (f64, f64),
        headroom: (f64, f64),
        steps: (usize, usize),
    ) -> Result<Self, Error> {
        let longest = longest_outage_s();
        let (low, high) = outages_s;
        // In hours, minutes and seconds as the range is (7 days and 6 days 23 h would both read
        // "7 days"), unless that rounds the value: 0.9996 s read "1 s", inside the range.
        let given = |seconds: f64| {
            let exact = crate::format_exact(seconds.abs());
            match crate::parse_duration("outages", &exact) {
                Ok(back) if (back - seconds).abs() < 1e-6 => exact,
                _ => crate::duration::format_precise(seconds.abs()),
            }
        };
        // Compared in whole seconds, as the axis is spaced: 10 s..10.4 s is one column.
        if !(low.is_finite()
            && high.is_finite()
            && low >= 1.0
            && low.round() < high.round()
            && high <= longest)
        {
            return Err(Error::out_of_range(
                "outages",
                format!("{}..{}", given(low), given(high)),
                outages_range(longest),
            ));
        }
        let (least, most) = headroom;
        let (floor, ceiling) = HEADROOM_RANGE;
        if !(least.is_finite()
            && most.is_finite()
            && least >= floor
            && least < most
            && most <= ceiling)
        {
            return Err(Error::out_of_range(
                "headroom",
                // Each as a refusal quotes a number: `1..1e308` had read as 312 characters.
                {
                    let quoted = |n: f64| crate::error::quoted_number(n, n.to_string());
                    format!("{}..{}", quoted(least), quoted(most))
                },
                headroom_range(),
            ));
        }
        check_steps(steps)?;
        let mut outages: Vec<f64> = log_spaced(low, high, steps.0)
            .into_iter()
            .map(f64::round)
            .collect();
        outages.dedup();
        Ok(Axes {
            outages_s: outages,
            headroom: log_spaced(least, most, steps.1),
            headroom_fitted: false,
        })
    }

    /// The cells of one series.
    pub fn cells(&self) -> usize {
        self.outages_s.len() * self.headroom.len()
    }

    /// The axes as the CLI's flags and the page's settings write them: `outages` two
    /// durations (`10s..24h`), `headroom` two ratios (`1.05..20`), `steps` two counts
    /// (`24x16`: outages × headroom); then checked as [`Axes::new`] checks them.
    pub fn from_text(outages: &str, headroom: &str, steps: &str) -> Result<Self, Error> {
        Axes::new(
            outage_ends(outages)?,
            headroom_ends(headroom)?,
            step_counts(steps)?,
        )
    }
}

/// The axes as text, each as [`Axes::from_text`] reads it; a field left out takes the default
/// (`10s..24h`, `1.05..20`, `24x16`). The JS API's `survival` takes it.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "SurvivalAxes", optional_fields))]
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AxesText {
    /// Two durations, `10s..24h`.
    pub outages: Option<String>,
    /// Two ratios of capacity to arrivals, `1.05..20`.
    pub headroom: Option<String>,
    /// Steps on each axis, outages × headroom, `24x16`: 2 to 64 on each axis, at most 1024 cells
    /// in all.
    pub steps: Option<String>,
}

impl AxesText {
    /// The axes of a map of `yours` on `engine`, checked (defaults where a field is left out,
    /// the default headroom fitted to the engine: [`super::fitted_axes`]).
    pub fn axes(&self, yours: &crate::storm::Spec, engine: crate::Engine) -> Result<Axes, Error> {
        super::fitted_axes(
            yours,
            engine,
            (
                self.outages.as_deref().unwrap_or(DEFAULT_TEXT.0),
                self.headroom.as_deref().unwrap_or(DEFAULT_TEXT.1),
                self.steps.as_deref().unwrap_or(DEFAULT_TEXT.2),
            ),
        )
    }
}

/// The default axes as text: outages, headroom, steps.
pub const DEFAULT_TEXT: (&str, &str, &str) = ("10s..24h", "1.05..20", "24x16");

/// `from..to` split in two, or the field's range in the message. Three dots are refused, not
/// read as `from..` and `.to` (`1s...1m` ran on 1 s..6 s).
fn ends<'a>(field: &'static str, text: &'a str, valid: &str) -> Result<(&'a str, &'a str), Error> {
    text.split_once("..")
        .filter(|(from, to)| !from.trim_end().ends_with('.') && !to.trim_start().starts_with('.'))
        .ok_or_else(|| Error::out_of_range(field, format!("{text:?}"), valid))
}

/// The outage axis' range, up to `longest` seconds.
fn outages_range(longest: f64) -> String {
    format!(
        "two durations from 1 s to {} ({} less the {} recovery window), the first shorter in \
         whole seconds (such as 10s..24h)",
        crate::format_exact(longest),
        crate::format_duration(f64::from(MAX_HORIZON_S)),
        crate::format_duration(f64::from(RECOVERY_WINDOW_S)),
    )
}

/// `10s..24h`: the outage axis' ends, seconds (not yet range-checked). An end that is no
/// duration (`NaN`, `inf`, `-5s`) is told the axis' range (it was told only "a duration such
/// as 30s" or "never negative").
pub fn outage_ends(text: &str) -> Result<(f64, f64), Error> {
    let refused = || {
        Error::out_of_range(
            "outages",
            format!("{text:?}"),
            outages_range(longest_outage_s()),
        )
    };
    let (low, high) = ends("outages", text, &outages_range(longest_outage_s()))?;
    let end = |end: &str| crate::parse_duration("outages", end).map_err(|_| refused());
    Ok((end(low)?, end(high)?))
}

/// `1.05..20`: the headroom axis' ends (not yet range-checked).
pub fn headroom_ends(text: &str) -> Result<(f64, f64), Error> {
    let (least, most) = ends("headroom", text, &headroom_range())?;
    let ratio = |t: &str| {
        t.trim()
            .parse::<f64>()
            .map_err(|_| Error::out_of_range("headroom", format!("{text:?}"), headroom_range()))
    };
    Ok((ratio(least)?, ratio(most)?))
}

/// `24x16`: steps on the outage and headroom axes (not yet range-checked).
pub fn step_counts(text: &str) -> Result<(usize, usize), Error> {
    let refused = || Error::out_of_range("steps", format!("{text:?}"), steps_range());
    let (outages, headroom) = text.split_once('x').ok_or_else(refused)?;
    let count = |t: &str| t.trim().parse::<usize>().map_err(|_| refused());
    Ok((count(outages)?, count(headroom)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_are_log_spaced_with_both_ends() {
        let axes = Axes::new((10.0, 86_400.0), (1.05, 20.0), (24, 16)).unwrap();
        assert_eq!(axes.outages_s.len(), 24);
        assert_eq!(axes.outages_s[0], 10.0);
        assert_eq!(axes.outages_s[23], 86_400.0);
        assert!((axes.headroom[15] - 20.0).abs() < 1e-9);
        let ratios: Vec<f64> = axes.headroom.windows(2).map(|w| w[1] / w[0]).collect();
        assert!(ratios.iter().all(|r| (r - ratios[0]).abs() < 1e-9));
    }

    #[test]
    fn axes_read_from_text_as_from_numbers() {
        let read = Axes::from_text("10s..24h", "1.05..20", "24x16").unwrap();
        assert_eq!(
            read,
            Axes::new((10.0, 86_400.0), (1.05, 20.0), (24, 16)).unwrap()
        );
        let refused = |o, h, s| Axes::from_text(o, h, s).unwrap_err().to_string();
        // Text that is no axis is told the axis' range, as values out of it are.
        let outages = "outages must be two durations from 1 s to 167 h (7 days less the 1 h \
                       recovery window), the first shorter in whole seconds (such as 10s..24h)";
        for text in ["10s", "NaN..10m", "10s..inf", "-5s..10m"] {
            assert!(refused(text, "1..2", "4x4").starts_with(outages), "{text}");
        }
        let headroom = "headroom must be two ratios of capacity to arrivals from 0.1 to 1000, \
                        the first smaller (such as 1.05..20)";
        assert!(refused("10s..1m", "1..x", "4x4").starts_with(headroom));
        assert!(refused("10s..1m", "0.01..2", "4x4").starts_with(headroom));
        // A huge end is quoted in exponent form, as every refused number, not in 309 digits.
        assert!(
            refused("10s..1m", "1..1e308", "4x4").ends_with("got 1..1e308"),
            "{}",
            refused("10s..1m", "1..1e308", "4x4")
        );
        let steps = "steps must be from 2 to 64 steps on each axis and at most 1024 cells in all";
        for text in [
            "4*4",
            "-4x4",
            "2x-3",
            "NaNx3",
            "3.5x2",
            "99999999999x2",
            "1x4",
        ] {
            assert!(
                refused("10s..1m", "1..2", text).starts_with(steps),
                "{text}"
            );
        }
        // Ends that round to one whole second make one column: refused as the axis.
        assert!(refused("10s..10.4s", "1..2", "4x4").starts_with(outages));
    }

    /// Three dots read as `from..` and `.to`: `1s...1m` ran on 1 s..6 s (0.1 min).
    #[test]
    fn three_dots_are_refused_not_read_as_a_decimal_point() {
        for (outages, headroom) in [("1s...1m", "1.05..20"), ("10s..24h", "1...5")] {
            let text = AxesText {
                outages: Some(outages.into()),
                headroom: Some(headroom.into()),
                steps: None,
            };
            let refused = text
                .axes(&crate::storm::Spec::article_fixed(), crate::Engine::Fluid)
                .unwrap_err()
                .to_string();
            assert!(
                refused.contains(&format!(
                    "got \"{}\"",
                    if outages.contains("...") {
                        outages
                    } else {
                        headroom
                    }
                )),
                "{refused}"
            );
        }
        assert!(outage_ends("1s .. 1m").is_ok());
    }

    #[test]
    fn bad_axes_are_refused_naming_the_flag_and_range() {
        let refused = |o, h, s| Axes::new(o, h, s).unwrap_err().to_string();
        assert!(refused((0.0, 60.0), (1.0, 2.0), (4, 4)).starts_with("outages must be"));
        assert!(refused((60.0, 10.0), (1.0, 2.0), (4, 4)).starts_with("outages must be"));
        assert!(refused((10.0, 1e9), (1.0, 2.0), (4, 4)).starts_with("outages must be"));
        // Seven days reads "7 days" rounded, as 6 days 23 h does: both are written to the second,
        // and the range says why it ends an hour short of 7 days.
        assert_eq!(
            refused((3_600.0, 7.0 * 86_400.0), (1.0, 2.0), (4, 4)),
            "outages must be two durations from 1 s to 167 h (7 days less the 1 h recovery \
             window), the first shorter in whole seconds (such as 10s..24h), got 1 h..168 h"
        );
        // Just under the 1 s floor: rounded to the millisecond it read "1 s", inside the range.
        assert!(refused((0.9996, 3_600.0), (1.0, 2.0), (4, 4)).ends_with("got 999.6 ms..1 h"));
        assert!(refused((10.0, 60.0), (f64::NAN, 2.0), (4, 4)).starts_with("headroom must be"));
        // Either rule broken, the message states both.
        let both = "steps must be from 2 to 64 steps on each axis and at most 1024 cells in all \
                    (outages × headroom, such as 32x32 or 64x16), got";
        assert_eq!(
            refused((10.0, 60.0), (1.0, 2.0), (1, 4)),
            format!("{both} 1x4")
        );
        assert_eq!(
            refused((10.0, 60.0), (1.0, 2.0), (65, 4)),
            format!("{both} 65x4")
        );
        assert_eq!(
            refused((10.0, 60.0), (1.0, 2.0), (33, 32)),
            format!("{both} 33x32")
        );
        assert_eq!(
            refused((10.0, 60.0), (1.0, 2.0), (usize::MAX, usize::MAX)),
            format!("{both} {}x{}", usize::MAX, usize::MAX)
        );
        assert!(Axes::new((10.0, 60.0), (1.0, 2.0), (32, 32)).is_ok());
        assert!(Axes::new((10.0, 60.0), (1.0, 2.0), (64, 16)).is_ok());
    }
}
