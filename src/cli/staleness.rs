//! `backoff-lab staleness`: after an outage, how late and how old its events arrive, which are
//! exhausted, and (with --tolerance and --max-lag) a schedule derived from the answers.

use backoff_lab::{DurationInput, Error, Params, Purpose};
use clap::Args;

use super::args::{number, Format, JitterFlags, PolicyFlags};

pub(super) const EXAMPLES: &str = "\
Examples:
  backoff-lab staleness --preset article                      the ladder of outages, exact
  backoff-lab staleness --preset article --tolerance 6h --outage 4h
  backoff-lab staleness --preset svix --tolerance 24h --max-lag 1h --format json
  backoff-lab staleness --base 30s --multiplier 3 --cap 3h --attempts 14 --mode full --seed 42

A policy is a --preset, or --base, --multiplier and --cap, or --gaps (with --then-every), and
--attempts or --give-up (a preset brings both; a flag given beside it overrides its value).
The times are the schedule's alone: the destination takes every retry from recovery on. What a
destination of limited capacity makes of them is `storm`'s (--policy exponential, --outage).
Without --outage: outages of 1 min to 7 days, and the give-up time. Without jitter every number
is exact; with it, sampled from --samples jittered schedules (default 20000) with --seed.";

/// The flags of `staleness`.
#[derive(Args)]
pub(super) struct StalenessArgs {
    #[command(flatten)]
    policy: PolicyFlags,
    #[command(flatten)]
    jitter: JitterFlags,
    /// How long an event stays worth delivering: older ones arrive stale.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    tolerance: Option<String>,
    /// How late after recovery a delivery may be; given with --tolerance (required), a suggested
    /// schedule.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    max_lag: Option<String>,
    /// One outage's length (without it, a ladder of lengths).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    outage: Option<String>,
    /// Jittered schedules to sample (1 to 100000, default 20000).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    samples: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

pub(super) fn run(args: StalenessArgs) -> Result<String, Error> {
    let duration = |text: &Option<String>| text.clone().map(DurationInput::Text);
    let given = Params {
        tolerance: duration(&args.tolerance),
        max_lag: duration(&args.max_lag),
        outage: duration(&args.outage),
        samples: args
            .samples
            .as_deref()
            // Text that is no number is told staleness's own range, not jitter's.
            .map(|n| {
                let most = backoff_lab::staleness::MAX_SAMPLES;
                number("samples", n, &format!("a whole number from 1 to {most}"))
            })
            .transpose()?,
        ..args.jitter.over(&args.policy)?
    };
    let params = args.jitter.checked(given, Purpose::Staleness)?;
    let report = params.staleness_report()?;
    // Once the run has succeeded: an error is one line.
    args.jitter
        .tell_fresh_seed(&params, args.format == Format::Csv)?;
    Ok(args.format.render(
        &report,
        backoff_lab::staleness::StalenessReport::to_table,
        backoff_lab::staleness::StalenessReport::to_markdown,
        backoff_lab::staleness::StalenessReport::to_csv,
    ))
}
