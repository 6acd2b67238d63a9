//! Retry storms: what a retry policy does to a destination's load during and after an outage,
//! and which aggregate bounds (a retry budget, a rate limit, pausing, `Retry-After`) end it.
//!
//! # The model
//!
//! These rules decide every number; both simulated engines implement them, the discrete engine
//! delivery by delivery ([`simulate_discrete`]) and the fluid engine on expected values
//! ([`simulate_fluid`]).
//!
//! **Units.** Time runs in whole seconds `s = 0, 1, 2, …`. Rates (arrivals, capacity, rate limit,
//! resume pace, budget floor) are whole millionths per second, durations (timeout, latency,
//! gaps, `Retry-After` and its threshold) whole microseconds, the budget whole parts per
//! million: every input and every drawn gap is rounded to the nearest unit, and every comparison
//! below is exact.
//!
//! **Deliveries.** Steady traffic creates `floor(A·(s+1)) − floor(A·s)` deliveries in second
//! `s < traffic` (`A` the arrival rate); a batch of `N` arrives in its second. A delivery makes
//! attempts 1, 2, … up to the policy's attempt count (a give-up deadline becomes the unjittered
//! schedule's count). Its first attempt is due in the second it is created.
//!
//! **Each second**, in this order:
//! 1. *Due.* First attempts due: those created now and those held earlier. Retries due: those
//!    held earlier and those whose time has come, put in a uniformly random order (the discrete
//!    engine shuffles them with its seeded generator; the fluid engine gives every retry the same
//!    chances, in proportion).
//! 2. *Sender's bounds.* With `pause`, during the outage nothing is sent and everything due is
//!    held. Otherwise the sender may send `allowance` attempts: unlimited, or under a rate limit
//!    `L` the cumulative count `floor(L·(s+1)) − floor(L·s)`, and after a pause (from the outage's
//!    end on) at most the same count of the resume pace. First attempts go first; retries get what
//!    is left, and at most the budget's room: `floor(share × F + floor × W) − R`, with `F` the
//!    first attempts sent in the trailing window of `W` seconds (this one included), `R` the
//!    retries sent in it before this second. The first retries in the random order are sent; the
//!    rest are held (no attempt is counted for them) and are due again next second.
//! 3. *Destination.* The sent attempts arrive together, first attempts then retries in the
//!    random order; see [`destination`](self#the-destination) below.
//! 4. *Outcomes.* A success delivers. A failure (timeout, loss or 429) of a delivery's last
//!    attempt exhausts it in this second: kept, replayable, never dropped. Any other failure
//!    draws the gap `g` before the next attempt (see below) and makes the retry due in second
//!    `s + max(1, floor(w / 1 s))`, where the wait `w` is `timeout + g` after a timeout or loss and
//!    `max(g, Retry-After)` after a 429 (which answers at once).
//!
//! **The destination** serves a FIFO queue at its capacity `c`. The attempt at position `j`
//! (0-based) of the second waits `(q + j) / c`, `q` the requests still queued as the second
//! began. During the outage every attempt is lost (fails by the timeout, never processed) and
//! the queue empties. Otherwise: with `Retry-After` set, an attempt whose wait **exceeds** the
//! threshold is answered 429 (takes no capacity, not processed); an attempt whose wait plus the
//! latency **exceeds** the timeout times out, and is processed later anyway (late) unless the
//! destination abandons such requests (then lost); every other attempt succeeds. A value exactly
//! at a threshold does not exceed it. Then `q := max(0, q + admitted − c)`, counting as admitted
//! the successes and the late ones.
//!
//! **Duplicates.** An attempt is *processed* when it succeeds or is late. A processing of a
//! delivery that the destination had already processed is a duplicate, counted in the second of
//! the attempt. A delivery's first processing never is, even if it came after a timeout.
//!
//! **Gaps.** The gap before retry `k` (attempt `k + 1`) is drawn from the ideal gap
//! `g_k = min(cap, base × multiplier^(k−1))` (or the explicit list): none `g_k`; full
//! `U[0, g_k)`; equal `U[g_k/2, g_k)`; proportional `g_k × U[1 − f, 1 + f)`; decorrelated
//! `min(cap, U[base, 3 × previous))` with `previous = base` before the first retry (discrete
//! engine only). `U[a, b) = a + (b − a) × u`, `u` the next 64 bits of xoshiro256++ (seeded through
//! SplitMix64 with the scenario's seed) shifted right by 11, times 2^-53. The discrete engine
//! draws, each second: first the shuffle (Fisher–Yates from the last index down, swapping `i`
//! with `floor(u × (i + 1))`), then one gap per failing attempt that is not exhausted, in
//! position order; a gap without jitter draws nothing.
//!
//! **Outcome.** `backlog` counts deliveries neither delivered nor exhausted (waiting, held, or
//! queued). `drained_at_s` is the first second at or after the outage's end at whose end the
//! backlog is empty (under half a delivery on expected values); `drained_by` says whether any
//! delivery was exhausted from the outage's end until then. A simulation ends once arrivals are
//! over, the outage has ended, and nothing is pending, or after 7 days (what is still waiting
//! then is `pending`).
//!
//! # The engines
//! - [`simulate_discrete`]: exact counts for the seed; memory grows with the deliveries in flight
//!   only (16 bytes each); work is refused above [`MAX_DISCRETE_ATTEMPTS`] (deliveries ×
//!   attempts).
//! - [`simulate_fluid`]: the same rules on expected values; no randomness. Decorrelated jitter
//!   is refused (its gap depends on the previous one). Its numbers agree with the mean of
//!   discrete runs (tests compare them on a seeded random family of scenarios).
//! - [`arithmetic_view`]: the article's per-minute arithmetic, for the outage's minutes.

mod arithmetic;
mod budget;
mod caption;
mod destination;
mod discrete;
mod fluid;
mod memo;
mod report;
mod scenario;

pub use arithmetic::{arithmetic_view, ArithmeticMinute, ArithmeticReport, ArithmeticSummary};
pub use discrete::{simulate_discrete, MAX_DISCRETE_ATTEMPTS};
pub use fluid::{simulate_fluid, MAX_CELLS, MAX_CLASS_SECONDS, MIN_REQUESTS_WITHIN_LIMITS};
pub use memo::Memo;
pub use report::{DrainedBy, Interval, StormReport, Summary};
pub use scenario::{Bounds, Scenario, Spec, MAX_DELIVERIES, MAX_HORIZON_S};

use crate::Error;

/// Which storm engine answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// The fluid engine where it represents the scenario, else the discrete engine (the
    /// caption says why).
    Auto,
    /// The article's per-minute approximation ([`arithmetic_view`]).
    Arithmetic,
    /// Delivery by delivery, seeded ([`simulate_discrete`]).
    Discrete,
    /// Expected values ([`simulate_fluid`]).
    Fluid,
}

impl Engine {
    /// The engine named `name`: `arithmetic`, `discrete` or `fluid`.
    pub fn from_name(name: &str) -> Result<Engine, Error> {
        match name {
            "auto" => Ok(Engine::Auto),
            "discrete" => Ok(Engine::Discrete),
            "fluid" => Ok(Engine::Fluid),
            "arithmetic" => Ok(Engine::Arithmetic),
            other => Err(Error::out_of_range(
                "engine",
                format!("{other:?}"),
                "one of auto, arithmetic, discrete, fluid",
            )),
        }
    }
}

/// Runs `scenario` on a simulating engine (`Auto`: the fluid one where it represents the
/// scenario, else the discrete one); the arithmetic view has its own report
/// ([`arithmetic_view`]) and is refused here.
pub fn simulate(
    scenario: &Scenario,
    engine: Engine,
    keep_seconds: bool,
) -> Result<StormReport, Error> {
    match engine {
        Engine::Fluid => simulate_fluid(scenario, keep_seconds),
        Engine::Discrete => simulate_discrete(scenario, keep_seconds),
        Engine::Auto => {
            let Some(why) = fluid::unrepresentable(scenario, scenario.units()) else {
                return simulate_fluid(scenario, keep_seconds);
            };
            let mut report = simulate_discrete(scenario, keep_seconds)?;
            report.caption += &format!(
                " Simulated delivery by delivery (seed {}) because {}.",
                scenario.seed, why.reason
            );
            Ok(report)
        }
        Engine::Arithmetic => Err(Error::out_of_range(
            "engine",
            "arithmetic",
            "auto, discrete or fluid for a simulated storm (the arithmetic view is a table of its own)",
        )),
    }
}

#[cfg(test)]
mod agreement;
#[cfg(test)]
mod tests;
