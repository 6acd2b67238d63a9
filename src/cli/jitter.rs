//! `backoff-lab jitter`: one delivery under jitter, its give-up time exact and sampled, and
//! (with --deadline) the attempts that keep a percentile above the deadline.

use backoff_lab::give_up::{JitterReport, HISTOGRAM_BINS};
use backoff_lab::{parse_percent, DurationInput, Error, Params};
use clap::Args;

use super::args::{count_number, DataFormat, JitterFlags, PolicyFlags};

/// The flags of `jitter`.
#[derive(Args)]
pub(super) struct JitterArgs {
    #[command(flatten)]
    policy: PolicyFlags,
    #[command(flatten)]
    jitter: JitterFlags,
    /// Give-up times to sample (1 to 10000000).
    #[arg(
        long,
        value_name = "N",
        default_value = "1000000",
        allow_hyphen_values = true
    )]
    samples: String,
    /// Also size the schedule: how many attempts keep the --percentile above this deadline.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    deadline: Option<String>,
    /// The percentile (in percent, with or without %, 5 by default) that must reach --deadline.
    #[arg(long, value_name = "P", allow_hyphen_values = true)]
    percentile: Option<String>,
    /// Output format: table, csv or json.
    #[arg(long, value_enum, default_value_t = DataFormat::Table)]
    format: DataFormat,
}

pub(super) fn run(args: JitterArgs) -> Result<String, Error> {
    if let (Some(percentile), None) = (&args.percentile, &args.deadline) {
        return Err(Error::OutOfRange {
            field: "percentile",
            value: percentile.clone(),
            valid: "given only with --deadline (the percentile that must reach it)".into(),
        });
    }
    let params = Params {
        samples: Some(count_number("samples", &args.samples)?),
        deadline: args.deadline.map(DurationInput::Text),
        percentile: args
            .percentile
            .as_deref()
            .map(|p| {
                parse_percent(p).ok_or_else(|| {
                    Error::out_of_range(
                        "percentile",
                        format!("{p:?}"),
                        "a percentage between 0 and 100, such as 5 or 5%",
                    )
                })
            })
            .transpose()?,
        ..args.policy.with_jitter(&args.jitter)?
    };
    let report = JitterReport::new(
        &params.policy()?,
        params.jitter()?,
        params.samples()?,
        params.seed()?.unwrap_or_default(),
        HISTOGRAM_BINS,
        params.deadline()?,
    )?;
    // Once the run has succeeded: an error is one line.
    args.jitter
        .tell_fresh_seed(&params, args.format == DataFormat::Csv)?;
    Ok(args
        .format
        .render(&report, JitterReport::to_table, JitterReport::to_csv))
}
