//! `backoff-lab solve-cap`: the smallest cap with which N attempts reach a give-up deadline.

use backoff_lab::{cap_answer, whole_number, DurationInput, Error, Params};
use clap::Args;

use super::args::{multiplier_number, number};

/// The flags of `solve-cap`.
#[derive(Args)]
pub(super) struct SolveCapArgs {
    /// Gap before the first retry.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    base: String,
    /// Growth factor between consecutive gaps (1 to 1000).
    #[arg(long, value_name = "X", allow_hyphen_values = true)]
    multiplier: String,
    /// Attempts in all, the first delivery included (2 to 10000).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    attempts: String,
    /// The deadline the last attempt must reach.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    give_up: String,
}

pub(super) fn run(args: SolveCapArgs) -> Result<String, Error> {
    let attempts = number("attempts", &args.attempts, "a whole number from 2 to 10000")?;
    let attempts = whole_number("attempts", attempts, 2, 10_000)? as u32;
    // The cap is the unknown: the largest valid one stands in (the answer reads only the base
    // and the multiplier).
    let params = Params {
        base: Some(DurationInput::Text(args.base)),
        multiplier: Some(multiplier_number(&args.multiplier)?),
        cap: Some(backoff_lab::policy::MAX_SPAN_S.into()),
        attempts: Some(1.0),
        ..Params::default()
    };
    let deadline = DurationInput::Text(args.give_up)
        .seconds_within("give-up", &backoff_lab::policy::span_range())?;
    cap_answer(&params.policy()?, deadline, attempts)
}
