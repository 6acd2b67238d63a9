//! Policy parameters as people type them (seconds or duration text), shared by the CLI, the JS
//! API and the page's state. Converting them to a [`Policy`] is where validation happens.

use serde::{Deserialize, Serialize};

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
pub struct PolicyParams {
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
}

impl Default for PolicyParams {
    fn default() -> Self {
        let article = Policy::article();
        PolicyParams {
            base: article.base_s().into(),
            multiplier: article.multiplier(),
            cap: article.cap_s().into(),
            attempts: Some(f64::from(article.attempts())),
            give_up: None,
            window: None,
        }
    }
}

impl PolicyParams {
    /// Validates the parameters into a policy.
    ///
    /// # Example
    /// ```
    /// use backoff_lab::{DurationInput, PolicyParams};
    /// let params = PolicyParams {
    ///     base: DurationInput::Text("30s".into()),
    ///     multiplier: 3.0,
    ///     cap: DurationInput::Text("3h".into()),
    ///     attempts: None,
    ///     give_up: Some(DurationInput::Text("24h".into())),
    ///     window: None,
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
            (Some(n), None) => Stop::Attempts(attempt_count(n)?),
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
}

/// Turns a count given as a number into an attempt count, refusing fractions and the absurd.
pub fn attempt_count(n: f64) -> Result<u32, Error> {
    if n.fract() == 0.0 && (1.0..=f64::from(crate::policy::MAX_ATTEMPTS)).contains(&n) {
        Ok(n as u32)
    } else {
        Err(Error::out_of_range(
            "attempts",
            n,
            "a whole number from 1 to 10000",
        ))
    }
}
