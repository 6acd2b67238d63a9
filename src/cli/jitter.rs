//! `backoff-lab jitter`: one delivery under jitter, its give-up time exact and sampled, and
//! (with --deadline) the attempts that keep a percentile above the deadline.

use backoff_lab::give_up::{JitterReport, Sampling, DEFAULT_SAMPLES, HISTOGRAM_BINS};
use backoff_lab::{DurationInput, Error, NumberInput, Params, Purpose};
use clap::Args;

use super::args::{count_number, DataFormat, JitterFlags, PolicyFlags};

/// The flags of `jitter`.
#[derive(Args)]
pub(super) struct JitterArgs {
    #[command(flatten)]
    policy: PolicyFlags,
    #[command(flatten)]
    jitter: JitterFlags,
    /// Give-up times to sample (1 to 10000000; by default 1000000, or as many as the work limit
    /// allows when that is fewer: 200020 for 10000 attempts).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    samples: Option<String>,
    /// Also size the schedule: how many attempts keep the --percentile above this deadline.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    deadline: Option<String>,
    /// The percentile (in percent, with or without %, 0.1 to 99.9, 5 by default) that must
    /// reach --deadline.
    #[arg(long, value_name = "P", allow_hyphen_values = true)]
    percentile: Option<String>,
    /// Output format: table, csv or json.
    #[arg(long, value_enum, default_value_t = DataFormat::Table)]
    format: DataFormat,
}

pub(super) fn run(args: JitterArgs) -> Result<String, Error> {
    let given = Params {
        samples: args
            .samples
            .as_deref()
            .map(|samples| count_number("samples", samples))
            .transpose()?,
        deadline: args.deadline.map(DurationInput::Text),
        percentile: args.percentile.clone().map(NumberInput::Text),
        ..args.policy.with_jitter(&args.jitter)?
    };
    let params = args.jitter.checked(given, Purpose::GiveUp)?;
    let (policy, jitter) = (params.policy()?, params.jitter()?);
    let report = JitterReport::new(
        &policy,
        jitter,
        Sampling {
            samples: params.samples_for(&policy, jitter, DEFAULT_SAMPLES)?,
            seed: params.seed()?.unwrap_or_default(),
            bins: HISTOGRAM_BINS,
        },
        params.deadline()?,
    )?;
    // Once the run has succeeded: an error is one line.
    let csv = args.format == DataFormat::Csv;
    args.jitter.tell_fresh_seed(&params, csv)?;
    // The table and the JSON carry the count drawn; the CSV does not, so a default the work
    // limit lowered is told on stderr, as a fresh seed is.
    if csv && args.samples.is_none() && report.sampled.samples < DEFAULT_SAMPLES {
        eprintln!(
            "{} samples (the most the work limit allows for {} attempts; --samples sets the count)",
            report.sampled.samples, report.attempts
        );
    }
    Ok(args
        .format
        .render(&report, JitterReport::to_table, JitterReport::to_csv))
}
