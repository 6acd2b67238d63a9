//! `backoff-lab survival`: the survival map, which outages a destination survives at which
//! capacity headroom, under your policy, the fixed 30 s interval and a retry budget.

use std::sync::atomic::{AtomicUsize, Ordering};

use backoff_lab::storm::{Engine, Spec};
use backoff_lab::survival::{Axes, Plan, Row, SurvivalMap};
use backoff_lab::{Error, Purpose};
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
    /// Map your policy alone, without the fixed 30 s interval and the budget comparison (their
    /// work then does not count against the map's limit)
    #[arg(long)]
    no_compare: bool,
    /// Output format: table, csv or json.
    #[arg(long, value_enum, default_value_t = DataFormat::Table)]
    format: DataFormat,
}

pub(super) fn run(args: SurvivalArgs) -> Result<String, Error> {
    let params = args.scenario.params_with_engine("fluid")?;
    params.refuse_keys_not_read_by(Purpose::SurvivalMap)?;
    args.axes.check()?;
    let engine = params.engine()?;
    let scenario = params.map_scenario()?;
    let axes = args.axes.axes(scenario.spec(), engine)?;
    let steps_given = args.axes.given().iter().any(|(name, _)| *name == "steps");
    let compared = !args.no_compare;
    let map = map_on_every_core(scenario.spec(), &axes, engine, compared).map_err(|error| {
        match error {
            // The map's work limit names its steps; with the default steps, `--engine
            // discrete` (the map's default is fluid) is what the user changed (outside SRE
            // review: `survival --engine discrete` was told "--steps must be …").
            Error::OutOfRange {
                field: "steps",
                value,
                valid,
            } if engine == backoff_lab::Engine::Discrete && !steps_given => Error::OutOfRange {
                field: "engine",
                // Said as an engine: "--engine must be at most 200,000,000 delivery-attempts"
                // read as if an engine were a count.
                value: format!("discrete ({value})"),
                valid: format!(
                    "fluid or auto for the default {} map: {valid}",
                    backoff_lab::survival::DEFAULT_TEXT.2
                ),
            },
            // The comparisons' work counts in the map's: leaving them out is a way too, where
            // your policy's own map is within it.
            Error::OutOfRange {
                field,
                value,
                valid,
            } if compared
                && valid.contains("delivery-attempts")
                && Plan::alone(scenario.spec(), axes.clone(), engine).is_ok() =>
            {
                Error::OutOfRange {
                    field,
                    value,
                    valid: format!("{valid} (or --no-compare, to map your policy alone)"),
                }
            }
            other => other,
        }
    })?;
    Ok(args
        .format
        .render(&map, SurvivalMap::to_table, SurvivalMap::to_csv))
}

/// The survival map of `yours` (`compared`: with the comparisons, else [`Plan::alone`]), its
/// rows computed on as many threads as the machine has cores (the same map as
/// [`backoff_lab::survival::survival_map`], which computes them one after another), in the
/// plan's pieces for that many threads ([`Plan::pieces`]).
pub(super) fn map_on_every_core(
    yours: &Spec,
    axes: &Axes,
    engine: Engine,
    compared: bool,
) -> Result<SurvivalMap, Error> {
    let plan = if compared {
        Plan::new(yours, axes.clone(), engine)?
    } else {
        Plan::alone(yours, axes.clone(), engine)?
    };
    plan.check_cells()?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pieces = plan.pieces(threads);
    let next = AtomicUsize::new(0);
    // Each thread's pieces, by their index. A refused piece stops the others from taking more
    // (each finishes the one it has: every piece before the refused one is done), and the
    // first refusal in the pieces' order is the map's, as the serial map's is.
    type Done = Vec<(usize, Result<Vec<Row>, Error>)>;
    let results: Vec<Done> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(pieces.len()))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some((series, headrooms)) = pieces.get(index) else {
                            return done;
                        };
                        let rows = plan.rows_of(*series, headrooms);
                        let refused = rows.is_err();
                        done.push((index, rows));
                        if refused {
                            next.store(pieces.len(), Ordering::Relaxed);
                            return done;
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    let mut done: Done = results.into_iter().flatten().collect();
    // The pieces in their order, whichever thread finished first.
    done.sort_by_key(|(index, _)| *index);
    let mut rows: Vec<Row> = Vec::new();
    for (_, piece) in done {
        rows.extend(piece?);
    }
    plan.map(&rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use backoff_lab::survival::survival_map;

    #[test]
    fn the_map_on_every_core_is_the_map() {
        for (engine, axes, arrivals_per_s) in [
            (
                Engine::Fluid,
                Axes::new((30.0, 7_200.0), (1.1, 6.0), (5, 5)),
                10.0,
            ),
            (
                Engine::Discrete,
                Axes::new((30.0, 300.0), (1.1, 6.0), (3, 3)),
                2.0,
            ),
        ] {
            let axes = axes.unwrap();
            let yours = Spec {
                arrivals_per_s,
                capacity_per_s: 3.0 * arrivals_per_s,
                traffic_s: 600,
                ..Spec::article_fixed()
            };
            let parallel = map_on_every_core(&yours, &axes, engine, true).unwrap();
            let serial = survival_map(&yours, &axes, engine).unwrap();
            assert_eq!(
                serde_json::to_string(&parallel).unwrap(),
                serde_json::to_string(&serial).unwrap(),
                "{engine:?}"
            );
        }
    }
}
