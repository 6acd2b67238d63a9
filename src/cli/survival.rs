//! `backoff-lab survival`: the survival map, which outages a destination survives at which
//! capacity headroom, under your policy, the fixed 30 s interval and a retry budget.

use backoff_lab::survival::{survival_map, SurvivalMap};
use backoff_lab::Error;
use clap::Args;

use super::args::{DataFormat, MapAxesFlags, StormFlags};

pub(super) const EXAMPLES: &str = "\
Examples:
  backoff-lab survival                                the article's storm, fixed 30 s and backoff
  backoff-lab survival --policy exponential --base 30s --multiplier 3 --cap 3h --mode full
  backoff-lab survival --outages 1m..6h --headroom 1.2..8 --steps 12x8 --format json

Each cell is a storm with that outage and a capacity of headroom × arrivals, traffic lasting
through the outage and one hour after it. recovers: the backlog is delivered within that hour;
collapsed: goodput in that hour below half the arrival rate; slow: neither.";

/// The flags of `survival`.
#[derive(Args)]
pub(super) struct SurvivalArgs {
    #[command(flatten)]
    scenario: StormFlags,
    #[command(flatten)]
    axes: MapAxesFlags,
    /// Output format: table, csv or json.
    #[arg(long, value_enum, default_value_t = DataFormat::Table)]
    format: DataFormat,
}

pub(super) fn run(args: SurvivalArgs) -> Result<String, Error> {
    let params = args.scenario.params_with_engine("fluid")?;
    let axes = args.axes.axes()?;
    let map = survival_map(params.scenario()?.spec(), &axes, params.engine()?)?;
    Ok(args
        .format
        .render(&map, SurvivalMap::to_table, SurvivalMap::to_csv))
}
