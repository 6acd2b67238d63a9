//! Policy parameters as people type them (seconds or duration text), shared by the CLI, the JS
//! API and the page's state. Converting them to a [`Policy`] is where validation happens.

use serde::{Deserialize, Serialize};

use crate::jitter::Jitter;
use crate::{parse_duration, Error, Policy, Stop};

/// A duration given either as seconds or as text such as `"4m30s"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum DurationInput {
    /// Seconds.
    Seconds(f64),
    /// Text in any form [`parse_duration`] reads.
    Text(String),
}

impl DurationInput {
    /// The duration in seconds; text is parsed, numbers are taken as they are (range checks
    /// happen where the field is used).
    pub fn seconds(&self, field: &'static str) -> Result<f64, Error> {
        match self {
            DurationInput::Seconds(s) => Ok(*s),
            DurationInput::Text(text) => parse_duration(field, text),
        }
    }
}

impl From<f64> for DurationInput {
    fn from(seconds: f64) -> Self {
        DurationInput::Seconds(seconds)
    }
}

/// The article's 20-minute window for "attempts inside the first 20 minutes".
pub const DEFAULT_WINDOW_S: f64 = 1_200.0;

/// Everything that defines a schedule question: the policy, its stop rule and the early window.
///
/// Exactly one of `attempts` and `give_up` is given. `attempts` is a number (not an integer
/// type) so that `2.5` or `1e12` get a range message rather than a type error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Params {
    /// Gap before the first retry.
    pub base: DurationInput,
    /// Growth factor between gaps.
    pub multiplier: f64,
    /// Longest gap.
    pub cap: DurationInput,
    /// Total attempts, the first delivery included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempts: Option<f64>,
    /// Give-up deadline since the first failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub give_up: Option<DurationInput>,
    /// The early window for `attempts_within_window` (default 20 min).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<DurationInput>,
    /// Jitter mode: `none` (default), `full`, `equal`, `decorrelated`, `proportional`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// The factor of proportional jitter, 0 to 1 (default 0.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub factor: Option<f64>,
    /// The seed of every random draw, 0 to 2^53 − 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<f64>,
    /// Give-up times to sample (default 1,000,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<f64>,
    /// Deliveries in a herd (default 1,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deliveries: Option<f64>,
    /// A deadline for deadline-safe sizing: how many attempts keep a percentile above it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<DurationInput>,
    /// The percentile (in percent, default 5) that must reach `deadline`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percentile: Option<f64>,
}

impl Default for Params {
    fn default() -> Self {
        let article = Policy::article();
        Params {
            base: article.base_s().into(),
            multiplier: article.multiplier(),
            cap: article.cap_s().into(),
            attempts: Some(f64::from(article.attempts())),
            give_up: None,
            window: None,
            mode: None,
            factor: None,
            seed: None,
            samples: None,
            deliveries: None,
            deadline: None,
            percentile: None,
        }
    }
}

impl Params {
    /// Validates the parameters into a policy.
    ///
    /// # Example
    /// ```
    /// use backoff_lab::{DurationInput, Params};
    /// let params = Params {
    ///     base: DurationInput::Text("30s".into()),
    ///     multiplier: 3.0,
    ///     cap: DurationInput::Text("3h".into()),
    ///     attempts: None,
    ///     give_up: Some(DurationInput::Text("24h".into())),
    ///     ..Params::default()
    /// };
    /// assert_eq!(params.policy()?.attempts(), 14);
    /// # Ok::<(), backoff_lab::Error>(())
    /// ```
    pub fn policy(&self) -> Result<Policy, Error> {
        let base = self.base.seconds("base")?;
        let cap = self.cap.seconds("cap")?;
        let stop = match (self.attempts, &self.give_up) {
            (Some(_), Some(_)) => {
                return Err(Error::out_of_range(
                    "attempts",
                    "both attempts and give-up",
                    "given alone: choose attempts or give-up, not both",
                ))
            }
            (Some(n), None) => Stop::Attempts(whole_number("attempts", n, 1, 10_000)? as u32),
            (None, Some(deadline)) => Stop::GiveUpAfter(deadline.seconds("give-up")?),
            (None, None) => {
                return Err(Error::out_of_range(
                    "attempts",
                    "neither attempts nor give-up",
                    "given: a count from 1 to 10000, or a give-up deadline",
                ))
            }
        };
        Policy::new(base, self.multiplier, cap, stop)
    }

    /// The early window in seconds: greater than 0 and at most 365 days, 20 min by default.
    pub fn window_s(&self) -> Result<f64, Error> {
        let Some(window) = &self.window else {
            return Ok(DEFAULT_WINDOW_S);
        };
        let seconds = window.seconds("window")?;
        if seconds.is_finite() && seconds > 0.0 && seconds <= crate::policy::MAX_SPAN_S {
            Ok(seconds)
        } else {
            Err(Error::out_of_range(
                "window",
                seconds,
                "a duration greater than 0 s and at most 365 days",
            ))
        }
    }

    /// The jitter mode (`none` unless chosen).
    pub fn jitter(&self) -> Result<Jitter, Error> {
        Jitter::from_name(
            self.mode.as_deref().unwrap_or("none"),
            self.factor.unwrap_or(0.2),
        )
    }

    /// The seed, if one was given.
    pub fn seed(&self) -> Result<Option<u64>, Error> {
        self.seed.map(crate::jitter::seed_from_f64).transpose()
    }

    /// Give-up times to sample: 1 to 10,000,000, 1,000,000 unless chosen.
    pub fn samples(&self) -> Result<usize, Error> {
        let max = crate::give_up::MAX_SAMPLES as u64;
        Ok(whole_number("samples", self.samples.unwrap_or(1e6), 1, max)? as usize)
    }

    /// Deliveries in a herd: 1 to 10,000,000, 1,000 unless chosen.
    pub fn deliveries(&self) -> Result<usize, Error> {
        let max = crate::herd::MAX_DELIVERIES as u64;
        Ok(whole_number("deliveries", self.deliveries.unwrap_or(1e3), 1, max)? as usize)
    }

    /// The deadline-safe question, if asked: the deadline in seconds and the percentile as a
    /// share (5 % unless chosen).
    pub fn deadline(&self) -> Result<Option<(f64, f64)>, Error> {
        let Some(deadline) = &self.deadline else {
            return Ok(None);
        };
        let percent = self.percentile.unwrap_or(5.0);
        if !(percent.is_finite() && percent > 0.0 && percent < 100.0) {
            return Err(Error::out_of_range(
                "percentile",
                percent,
                "a percentage between 0 and 100, such as 5",
            ));
        }
        Ok(Some((deadline.seconds("deadline")?, percent / 100.0)))
    }
}

/// A count given as a number (JS numbers, URL text): whole and within `min..=max`, so that
/// `2.5`, `NaN` or `1e12` are refused with the range.
pub fn whole_number(field: &'static str, n: f64, min: u64, max: u64) -> Result<u64, Error> {
    if n.fract() == 0.0 && n >= min as f64 && n <= max as f64 {
        Ok(n as u64)
    } else {
        Err(Error::out_of_range(
            field,
            n,
            format!("a whole number from {min} to {max}"),
        ))
    }
}
