//! The retry quota: a token bucket the sender draws on for every retry, as the AWS SDKs'
//! standard retry mode and gRPC's retry throttling do. One rule for both engines: the discrete
//! engine counts whole millionths of a token and whole attempts, the fluid engine tokens and
//! expected attempts, with the room rounded to whole retries the same way.
//!
//! In second `s`, with `T` the tokens as the second begins:
//! - `aws` (bucket of `S` tokens): at most `floor(T / 10)` retries are sent, every retry costing
//!   10 tokens; then `T := min(S, T − 10 × retries sent + 1 × first attempts that succeeded +
//!   10 × retries that succeeded)`.
//! - `grpc` (`maxTokens` `M`, `tokenRatio` `r`): retries are sent while the tokens exceed `M/2`,
//!   each retry of the second counted as if it had already failed: at most the number of `k ≥ 0`
//!   with `T − k > M/2`, that is `ceil(T − M/2)` when `T > M/2`, else none; then
//!   `T := min(M, max(0, T − failed attempts + r × successes))`, over every attempt of the
//!   second (first attempts and retries; timeouts, losses and 429s are failures).
//!
//! The bucket starts full. A retry the quota does not let through is held, like the budget's.

use std::ops::Mul;

use super::destination::{Count, Outcome};
use super::scenario::{Units, MICRO};
use crate::Error;

/// What every retry costs under the `aws` quota, in tokens: the SDKs' cost after a timeout (they
/// charge 5 after a throttling error such as a 429; here every retry costs 10, because the fluid
/// engine does not know which kind of failure a due retry follows).
pub const AWS_RETRY_COST: u32 = 10;
/// What a first attempt's success gives back under the `aws` quota, in tokens.
pub const AWS_SUCCESS_REFUND: u32 = 1;

/// A token bucket on retries. Serialized as `{"kind": "aws", "tokens": 500}` or
/// `{"kind": "grpc", "max_tokens": 10, "token_ratio": 0.1}`.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum RetryQuota {
    /// The AWS SDKs' standard retry mode: a bucket of `tokens` (500 in the SDKs); a retry costs
    /// [`AWS_RETRY_COST`], a first attempt's success gives back [`AWS_SUCCESS_REFUND`] and a
    /// retry's success its cost.
    Aws {
        /// The bucket's size, whole tokens (10 to 1,000,000).
        tokens: u32,
    },
    /// gRPC's retry throttling: every failed attempt takes a token, every success gives back
    /// `token_ratio`; retries go only while the tokens exceed half of `max_tokens`.
    Grpc {
        /// The bucket's size, whole tokens (1 to 1000, as gRPC's service config allows).
        max_tokens: u32,
        /// Tokens a success gives back (more than 0, at most 1).
        token_ratio: f64,
    },
}

/// Where a ratio belongs: gRPC's throttling has one, the AWS SDKs' bucket none (the refusal
/// of a ratio with `aws`, and of one without a quota).
pub(crate) const RATIO_NEEDS: &str = "retry-quota grpc (the AWS SDKs' bucket has no ratio)";

impl RetryQuota {
    /// The AWS SDKs' bucket size.
    pub const AWS_DEFAULT_TOKENS: u32 = 500;
    /// The `maxTokens` used when none is given (gRPC has no default; 10 is its documentation's
    /// example).
    pub const GRPC_DEFAULT_TOKENS: u32 = 10;
    /// The `tokenRatio` used when none is given (gRPC's documentation's example).
    pub const GRPC_DEFAULT_RATIO: f64 = 0.1;

    /// The quota named `name` (`aws` or `grpc`) with `tokens` and, for `grpc`, `ratio`, each its
    /// default when not given. A ratio for `aws` is refused (the SDKs have none).
    pub fn from_name(name: &str, tokens: Option<f64>, ratio: Option<f64>) -> Result<Self, Error> {
        let quota = match name {
            "aws" => {
                if ratio.is_some() {
                    return Err(Error::out_of_range(
                        "retry-quota-ratio",
                        "retry-quota aws",
                        format!("given only with {RATIO_NEEDS}"),
                    ));
                }
                RetryQuota::Aws {
                    tokens: whole_tokens(tokens, Self::AWS_DEFAULT_TOKENS, 10, 1_000_000)?,
                }
            }
            "grpc" => RetryQuota::Grpc {
                max_tokens: whole_tokens(tokens, Self::GRPC_DEFAULT_TOKENS, 1, 1_000)?,
                token_ratio: ratio.unwrap_or(Self::GRPC_DEFAULT_RATIO),
            },
            other => {
                return Err(Error::out_of_range(
                    "retry-quota",
                    format!("{other:?}"),
                    "aws or grpc",
                ))
            }
        };
        quota.validate()?;
        Ok(quota)
    }

    pub(crate) fn validate(&self) -> Result<(), Error> {
        match *self {
            RetryQuota::Aws { tokens } => {
                whole_tokens(Some(f64::from(tokens)), 0, 10, 1_000_000)?;
            }
            RetryQuota::Grpc {
                max_tokens,
                token_ratio,
            } => {
                whole_tokens(Some(f64::from(max_tokens)), 0, 1, 1_000)?;
                if !(token_ratio.is_finite() && (1e-6..=1.0).contains(&token_ratio)) {
                    return Err(Error::out_of_range(
                        "retry-quota-ratio",
                        token_ratio,
                        "a number from 0.000001 to 1 (tokens a success gives back, to a millionth)",
                    ));
                }
            }
        }
        Ok(())
    }

    /// The quota in whole units.
    pub(crate) fn units(&self) -> QuotaUnits {
        match *self {
            RetryQuota::Aws { tokens } => QuotaUnits::Aws {
                size: u64::from(tokens) * MICRO,
            },
            RetryQuota::Grpc {
                max_tokens,
                token_ratio,
            } => QuotaUnits::Grpc {
                max: u64::from(max_tokens) * MICRO,
                ratio: super::scenario::micro(token_ratio),
            },
        }
    }

    /// The quota in a few words, for captions.
    pub fn describe(&self) -> String {
        match *self {
            RetryQuota::Aws { tokens } => format!(
                "the AWS SDKs' retry quota ({}, {AWS_RETRY_COST} a retry, {AWS_SUCCESS_REFUND} back for each first-attempt success and the {AWS_RETRY_COST} back for each successful retry)",
                crate::number_text::count_of(u64::from(tokens), "token")
            ),
            RetryQuota::Grpc {
                max_tokens,
                token_ratio,
            } => format!(
                "gRPC retry throttling ({}, one taken per failure, {token_ratio} back per success, retries only above {})",
                crate::number_text::count_of(u64::from(max_tokens), "token"),
                f64::from(max_tokens) / 2.0
            ),
        }
    }
}

/// `tokens` if given, else `default`: a whole number from `min` to `max`.
fn whole_tokens(tokens: Option<f64>, default: u32, min: u32, max: u32) -> Result<u32, Error> {
    let Some(n) = tokens else {
        return Ok(default);
    };
    if n.fract() == 0.0 && (f64::from(min)..=f64::from(max)).contains(&n) {
        Ok(n as u32)
    } else {
        Err(Error::out_of_range(
            "retry-quota-tokens",
            n,
            format!("a whole number of tokens from {min} to {max}"),
        ))
    }
}

/// The quota in millionths of a token.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum QuotaUnits {
    Aws { size: u64 },
    Grpc { max: u64, ratio: u64 },
}

/// A count of tokens and attempts in an engine's unit: whole millionths of a token and whole
/// attempts (`u64`, discrete), or tokens and expected attempts (`f64`, fluid).
pub(crate) trait Tokens: Count + Mul<Output = Self> {
    /// No limit.
    const UNLIMITED: Self;
    /// `millionths` millionths of a token in this unit.
    fn of_millionths(millionths: u64) -> Self;
    /// How many whole times `per` fits in `self`, rounded down.
    fn fits(self, per: Self) -> Self;
    /// How many whole `k ≥ 0` keep `self − k × per` above zero (none when `self` is not).
    fn steps_above_zero(self, per: Self) -> Self;
    /// `self − other`, or zero when that is less.
    fn minus(self, other: Self) -> Self;
}

impl Tokens for u64 {
    const UNLIMITED: u64 = u64::MAX;
    fn of_millionths(millionths: u64) -> u64 {
        millionths
    }
    fn fits(self, per: u64) -> u64 {
        self / per
    }
    fn steps_above_zero(self, per: u64) -> u64 {
        self.div_ceil(per)
    }
    fn minus(self, other: u64) -> u64 {
        self.saturating_sub(other)
    }
}

impl Tokens for f64 {
    const UNLIMITED: f64 = f64::INFINITY;
    fn of_millionths(millionths: u64) -> f64 {
        millionths as f64 / MICRO as f64
    }
    // The small terms keep float noise (2.9999999999 tokens' worth) from changing a whole count.
    fn fits(self, per: f64) -> f64 {
        (self / per + 1e-9).floor().max(0.0)
    }
    fn steps_above_zero(self, per: f64) -> f64 {
        (self / per - 1e-9).ceil().max(0.0)
    }
    fn minus(self, other: f64) -> f64 {
        (self - other).max(0.0)
    }
}

/// The bucket as a simulation goes: [`ExactQuota`] in the discrete engine, [`ExpectedQuota`]
/// in the fluid engine.
#[derive(Debug, Clone)]
pub(crate) struct Quota<T> {
    rule: Option<QuotaUnits>,
    tokens: T,
}

pub(crate) type ExactQuota = Quota<u64>;
pub(crate) type ExpectedQuota = Quota<f64>;

impl<T: Tokens> Quota<T> {
    /// A full bucket (none when the scenario has no quota).
    pub fn new(units: &Units) -> Self {
        let tokens = match units.quota {
            Some(QuotaUnits::Aws { size }) => T::of_millionths(size),
            Some(QuotaUnits::Grpc { max, .. }) => T::of_millionths(max),
            None => T::ZERO,
        };
        Quota {
            rule: units.quota,
            tokens,
        }
    }

    /// The retries the quota lets through in the second that begins ([`Tokens::UNLIMITED`]
    /// without a quota).
    pub fn room(&self) -> T {
        let one = T::of_millionths(MICRO);
        match self.rule {
            None => T::UNLIMITED,
            Some(QuotaUnits::Aws { .. }) => self.tokens.fits(retry_cost::<T>()),
            Some(QuotaUnits::Grpc { max, .. }) => {
                let half = T::of_millionths(max / 2);
                if self.tokens > half {
                    (self.tokens - half).steps_above_zero(one)
                } else {
                    T::ZERO
                }
            }
        }
    }

    /// The tokens after the destination answered the second's `firsts` first attempts and
    /// `retries` retries (first attempts at the first positions) with `outcome`.
    pub fn settle(&mut self, firsts: T, retries: T, outcome: &Outcome<T>) {
        let one = T::of_millionths(MICRO);
        match self.rule {
            None => {}
            Some(QuotaUnits::Aws { size }) => {
                let cost = retry_cost::<T>();
                let first_successes = outcome.ok.min(firsts);
                let retry_successes = outcome.ok - first_successes;
                let refund = T::of_millionths(u64::from(AWS_SUCCESS_REFUND) * MICRO);
                let refunds = refund * first_successes + cost * retry_successes;
                self.tokens = (self.tokens + refunds)
                    .minus(cost * retries)
                    .min(T::of_millionths(size));
            }
            Some(QuotaUnits::Grpc { max, ratio }) => {
                let failed = outcome.late + outcome.lost + outcome.rejected;
                self.tokens = (self.tokens + T::of_millionths(ratio) * outcome.ok)
                    .minus(one * failed)
                    .min(T::of_millionths(max));
            }
        }
    }
}

/// An `aws` retry's cost in the engine's unit.
fn retry_cost<T: Tokens>() -> T {
    T::of_millionths(u64::from(AWS_RETRY_COST) * MICRO)
}
