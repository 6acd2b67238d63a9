//! `backoff-lab storm`: what a retry policy does to a destination's load during and after an
//! outage, simulated or (engine arithmetic) by the article's table.

use backoff_lab::storm::{arithmetic_view, ArithmeticReport, StormReport};
use backoff_lab::{Engine, Error};
use clap::Args;

use super::args::{DataFormat, StormFlags};

pub(super) const EXAMPLES: &str = "\
Examples:
  backoff-lab storm                                   the article's fixed 30 s storm
  backoff-lab storm --engine arithmetic               the article's per-minute table
  backoff-lab storm --policy exponential --base 30s --multiplier 3 --cap 3h --mode full --seed 42
  backoff-lab storm --budget 10%
  backoff-lab storm --rate-limit 25/s --format csv
  backoff-lab storm --policy exponential --base 30s --multiplier 3 --cap 3h --pause --format json

Rates: 600/min, 30/s, 36000/h (a bare number is per second). Percentages: 10% or 10.";

/// The flags of `storm`.
#[derive(Args)]
pub(super) struct StormArgs {
    #[command(flatten)]
    scenario: StormFlags,
    /// With --format csv: one line per second instead of per minute.
    #[arg(long)]
    per_second: bool,
    /// Output format: table, csv or json.
    #[arg(long, value_enum, default_value_t = DataFormat::Table)]
    format: DataFormat,
}

pub(super) fn run(args: StormArgs) -> Result<String, Error> {
    let params = args.scenario.params()?;
    if args.per_second && args.format != DataFormat::Csv {
        return Err(Error::out_of_range(
            "per-second",
            format!("--format {}", args.format.name()),
            "given only with --format csv (per-second rows exist only as CSV)",
        ));
    }
    if params.engine()? == Engine::Arithmetic {
        if args.per_second {
            return Err(Error::out_of_range(
                "per-second",
                "--engine arithmetic",
                "left out: the arithmetic view has minutes only",
            ));
        }
        // Named as typed: a backoff flag would otherwise be refused as the policy it makes.
        if let Some((flag, value)) = args.scenario.backoff_given() {
            return Err(backoff_lab::refused_by_arithmetic(flag, value));
        }
        let view = arithmetic_view(&params.arithmetic_scenario()?)?;
        return Ok(args
            .format
            .render(&view, ArithmeticReport::to_table, ArithmeticReport::to_csv));
    }
    // The JSON says what was simulated beside what came of it, so that it can be checked on
    // its own (the defaults filled in: the 24 h give-up's attempts, the resume pace).
    let simulated = params.simulated(args.per_second)?;
    Ok(args.format.render(
        &simulated,
        |s| StormReport::to_table(&s.report),
        |s| StormReport::to_csv(&s.report),
    ))
}
