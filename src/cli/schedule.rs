//! `backoff-lab schedule`: every attempt's gap and elapsed time, and the derived facts.

use backoff_lab::{DurationInput, Error, Params, ScheduleReport};
use clap::Args;

use super::args::{Format, PolicyFlags};

/// The flags of `schedule`.
#[derive(Args)]
pub(super) struct ScheduleArgs {
    #[command(flatten)]
    policy: PolicyFlags,
    /// The early window for "attempts inside the first ..." (default 20 min).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    window: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

pub(super) fn run(args: ScheduleArgs) -> Result<String, Error> {
    let params = Params {
        window: args.window.map(DurationInput::Text),
        ..args.policy.params()?
    };
    let report = ScheduleReport::new(&params.policy()?.schedule(), params.window_s()?);
    Ok(args.format.render(
        &report,
        ScheduleReport::to_table,
        ScheduleReport::to_markdown,
        ScheduleReport::to_csv,
    ))
}
