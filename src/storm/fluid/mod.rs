//! The expected-value engine: instead of individual deliveries it moves expected numbers of
//! deliveries between attempt classes (class k: deliveries that have made k attempts), under
//! the same rules as the discrete engine (see the [module](super) documentation), in
//! expectation:
//! - a random order of the second's retries becomes proportional shares: every retry class
//!   meets the same fortune (held, served in time, late, lost, 429) in proportion to its mass;
//! - a delivery's processed state is a second lane of every mass ([`kernel::Mass`]), so a
//!   duplicate is a processing of the processed lane, exactly as in the discrete engine;
//! - the destination's whole-position rule is evaluated on expected numbers.
//!
//! A class's failures in one second come due over the following seconds by a fixed kernel (the
//! gap's uniform window, shifted by the timeout), so each class keeps the history of what failed
//! into it and reads what is due from a few lagged seconds of that history. Fast, deterministic,
//! and only for gaps that depend on the attempt number alone (every jitter mode but
//! decorrelated).
//!
//! Under a bound (rate limit, budget, pause, retry quota, circuit breaker) each class also
//! keeps what the bound holds back, sending the second's share of it. A class's held mass
//! below [`kernel::DUST`] (1e-30 of a delivery) is dropped at the end of each second
//! ([`kernel::Mass::without_dust`]): it changes no reported number, and lets a class that has
//! sent what it held fall quiet as it does without a bound. A class where nothing came due and
//! nothing is held costs next to nothing in a block: its row of what came due is neither filled,
//! read nor moved on.

mod classes;
mod deciding;
mod held;
mod history;
mod kernel;
mod moving;
mod progress;
mod reading;
mod state;

pub(crate) use classes::Unrepresentable;
pub(crate) use classes::{history_cells, most_attempts_of, requests_within_limits};
pub(crate) use progress::{FluidStorm, Spare};

use super::report::StormReport;
use super::scenario::{Units, MAX_HORIZON_S};
use super::Scenario;
use crate::Error;

/// The most history cells (attempt classes × seconds of the longest wait) the engine allocates:
/// 16 bytes each, 192 MB (twice that with `Retry-After`).
pub const MAX_CELLS: usize = 12_000_000;

/// The most class-seconds (attempt classes × simulated seconds) the engine takes on: about ten
/// seconds in a browser's worker at worst.
pub const MAX_CLASS_SECONDS: f64 = 5e8;

/// The fewest requests the destination must answer within its limits in a second (capacity ×
/// the shorter of the timeout less the latency and the `Retry-After` threshold). Below it the
/// outcome turns on whole requests and on how a second's attempts happen to bunch, which
/// expected values do not see: the discrete engine answers instead (and is fast at such rates).
pub const MIN_REQUESTS_WITHIN_LIMITS: f64 = 20.0;

/// The most seconds simulated together.
const MAX_BLOCK: usize = 64;

/// Runs `scenario` on expected values. Refuses decorrelated jitter, and scenarios whose
/// histories would exceed [`MAX_CELLS`] or whose work would exceed [`MAX_CLASS_SECONDS`],
/// before allocating.
///
/// # Example
/// ```
/// use backoff_lab::storm::{simulate_fluid, Scenario};
/// let report = simulate_fluid(&Scenario::article_fixed(), false)?;
/// assert!(report.summary.peak_multiple.unwrap() > 15.0);
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn simulate_fluid(scenario: &Scenario, keep_seconds: bool) -> Result<StormReport, Error> {
    simulate_with(scenario, keep_seconds, Shortcuts::ALL)
}

/// [`simulate_fluid`] stopped at the end of second `until_s − 1` (or sooner, when the storm is
/// over): the report of the seconds simulated.
pub(crate) fn simulate_fluid_until(
    scenario: &Scenario,
    keep_seconds: bool,
    until_s: u32,
) -> Result<StormReport, Error> {
    run(scenario, keep_seconds, Shortcuts::ALL, until_s).map(|(report, _)| report)
}

/// The engine's shortcuts, which must change nothing but its speed (tests turn them off).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Shortcuts {
    /// Blocks longer than the soonest a failure comes due while nothing fails.
    pub long_blocks: bool,
    /// Quiet histories neither read nor written.
    pub quiet_histories: bool,
    /// What a bound holds in a class dropped below [`kernel::DUST`].
    pub drop_dust: bool,
}

impl Shortcuts {
    pub(crate) const ALL: Shortcuts = Shortcuts {
        long_blocks: true,
        quiet_histories: true,
        drop_dust: true,
    };
}

pub(crate) fn simulate_with(
    scenario: &Scenario,
    keep_seconds: bool,
    shortcuts: Shortcuts,
) -> Result<StormReport, Error> {
    run(scenario, keep_seconds, shortcuts, MAX_HORIZON_S).map(|(report, _)| report)
}

/// The class-seconds the engine worked through on `scenario` (see [`Fluid::worked`]): what its
/// time goes into, counted the same on every machine (tests bound it instead of timing it).
#[cfg(test)]
pub(crate) fn class_seconds_worked(scenario: &Scenario) -> Result<f64, Error> {
    run(scenario, false, Shortcuts::ALL, MAX_HORIZON_S).map(|(_, worked)| worked)
}

fn run(
    scenario: &Scenario,
    keep_seconds: bool,
    shortcuts: Shortcuts,
    until_s: u32,
) -> Result<(StormReport, f64), Error> {
    let mut storm = FluidStorm::start(scenario, keep_seconds, shortcuts)?;
    storm.run_until(until_s);
    Ok(storm.finish())
}

/// Why the fluid engine would refuse a valid `scenario`, if it would.
pub(crate) fn unrepresentable(scenario: &Scenario, units: &Units) -> Option<Unrepresentable> {
    classes::refusal(scenario, units, None)
}

/// [`unrepresentable`] where the scenario's [`history_cells`] are known already (a survival
/// map's cells share them: see `classes::refusal`).
pub(crate) fn unrepresentable_sharing(
    scenario: &Scenario,
    units: &Units,
    history: &Result<usize, Unrepresentable>,
) -> Option<Unrepresentable> {
    classes::refusal(scenario, units, Some(history))
}
