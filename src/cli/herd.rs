//! `backoff-lab herd`: many deliveries that failed in the same second, and their retries per
//! second.

use backoff_lab::herd::{herd, Herd};
use backoff_lab::{Error, Params, Purpose};
use clap::Args;

use super::args::{count_number, DataFormat, JitterFlags, PolicyFlags};

/// The flags of `herd`.
#[derive(Args)]
pub(super) struct HerdArgs {
    /// Deliveries that failed together (1 to 10000000).
    #[arg(
        long,
        value_name = "N",
        default_value = "1000",
        allow_hyphen_values = true
    )]
    deliveries: String,
    #[command(flatten)]
    policy: PolicyFlags,
    #[command(flatten)]
    jitter: JitterFlags,
    /// Output format: table, csv or json.
    #[arg(long, value_enum, default_value_t = DataFormat::Table)]
    format: DataFormat,
}

pub(super) fn run(args: HerdArgs) -> Result<String, Error> {
    // Its own flag first: `--deliveries 0` without a policy was told only that the base is
    // missing.
    let count = Some(count_number("deliveries", &args.deliveries)?);
    let deliveries = Params {
        deliveries: count,
        ..Params::default()
    }
    .deliveries()?;
    let given = Params {
        deliveries: count,
        ..args.policy.with_jitter(&args.jitter)?
    };
    let params = args.jitter.checked(given, Purpose::Herd)?;
    let (policy, mode) = (params.policy()?, params.jitter()?);
    let seed = params.seed()?.unwrap_or_default();
    let herd = herd(&policy, mode, deliveries, seed)?;
    // Only the table compares the herd with its unjittered spike.
    let spike = match args.format {
        DataFormat::Table => herd.unjittered_spike(&policy)?,
        DataFormat::Csv | DataFormat::Json => None,
    };
    // Once the run has succeeded: an error is one line.
    args.jitter
        .tell_fresh_seed(&params, args.format == DataFormat::Csv)?;
    Ok(args
        .format
        .render(&herd, |h| h.to_table(spike.as_ref()), Herd::to_csv))
}
