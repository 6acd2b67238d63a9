//! Retry storms: what a retry policy does to a destination's load during and after an outage,
//! and which aggregate bounds (a retry budget, a rate limit, pausing, `Retry-After`, a retry
//! quota, a circuit breaker) end it.
//!
//! # The model
//!
//! These rules decide every number; both simulated engines implement them, the discrete engine
//! delivery by delivery ([`simulate_discrete`]) and the fluid engine on expected values
//! ([`simulate_fluid`]).
//!
//! **Units.** Time runs in whole seconds: the outage's start and length, the traffic's length
//! and the batch's second are whole seconds (the inputs' durations rounded to the nearest
//! second, halves up, by [`crate::Params`]); the outage covers seconds `start` to
//! `start + length − 1`. Rates (arrivals, capacity, rate limit, resume pace,
//! budget floor) are whole millionths per second, durations (timeout, latency, gaps,
//! `Retry-After` and its threshold) whole microseconds, the budget whole parts per million: every
//! input, the default resume pace (computed from the inputs as given) and every drawn gap is
//! rounded once to the nearest unit, and every comparison below is exact. The summary's ratios
//! (`peak_multiple`, `peak_vs_capacity`) divide by the rates as given.
//!
//! **Deliveries.** A rate's whole count by time `t` is `round(R·t)`, to the nearest whole,
//! halves up (`R` in millionths per second; `Units::whole_by`).
//! Steady traffic creates `round(A·(s+1)) − round(A·s)` deliveries in second `s < traffic`
//! (`A` the arrival rate, `s` counted from 0); a batch of `N` arrives in its second. A delivery makes attempts 1, 2, … up to the policy's attempt count (a give-up deadline
//! becomes the unjittered schedule's count: the fixed 30 s interval giving up at 2 h makes 241,
//! and as each retry also waits for its attempt's failure they span longer than 2 h). Its first
//! attempt is due in the second it is created.
//!
//! **Each second** `s`, in this order:
//! 1. *Due.* First attempts due: those held earlier and those created now (all alike). Retries
//!    due, in this order before they are drawn: those held earlier, in the order they were left
//!    in, then those whose time has come, in the order they were scheduled (by the second they
//!    failed in, then by their position in it).
//! 2. *Sender's bounds.* With `pause`, during the outage nothing is sent and everything due is
//!    held. Otherwise the sender may send an allowance of attempts: unlimited; under a rate limit
//!    `L`, `round(L·(s+1)) − round(L·s)` (with `s` the absolute second); after a pause, from the
//!    outage's end on, at most the same count of the resume pace too (by default the rate limit
//!    if set, else `max(1, capacity × min(1 s, timeout − latency))` per second:
//!    [`Scenario::resume_pace_per_s`]); under a circuit breaker,
//!    none while it is open and at most its probes while it is half-open (see **The circuit
//!    breaker**); the smallest of these. First attempts go first; retries get what is left, at
//!    most the budget's room: `max(0, floor(share × F) + round(floor × W) − R)` (the floor's
//!    part a rate's count, rounded as every rate's), with `F` the first
//!    attempts sent in the trailing window of `W` seconds (this one included), `R` the retries
//!    sent in it before this second, and the floor always taken over the whole window, from
//!    second 0 on; and at most the retry quota's room (see **The retry quota**).
//! 3. *Which retries.* Of the `len` retries due, `count` are sent, drawn uniformly at random and
//!    in a random order. The discrete engine draws them with a partial Fisher–Yates shuffle: for
//!    `i` from `len − 1` down to `max(1, len − count)`, it swaps element `i` with element
//!    `floor(u × (i + 1))`; the sent retries are elements `len − count` to `len − 1`, served in
//!    that order; the others stay, in their order, held for the next second (no attempt is
//!    counted for them). The fluid engine sends every retry class the same share.
//! 4. *Destination.* The sent attempts arrive together, first attempts then retries; see **The
//!    destination** below.
//! 5. *Outcomes.* A success delivers. A failure (timeout, loss or 429) of a delivery's last
//!    attempt exhausts it in this second: kept, replayable, never dropped. Any other failure
//!    draws the gap `g` before the next attempt (see below) and makes the retry due in second
//!    `s + max(1, floor(w / 1 s))`, where the wait `w` is `timeout + g` after a timeout or loss and
//!    `max(g, Retry-After)` after a 429 (which answers at once).
//! 6. *Bounds.* The retry quota's tokens and the circuit breaker's state are updated from the
//!    second's attempts and outcomes (a second in which nothing was sent changes neither).
//!
//! **The retry quota** is a token bucket, full at second 0, that every retry draws on; a retry
//! it does not let through is held like the budget's (never dropped, no attempt counted, due
//! again next second). With `T` the tokens as second `s` begins:
//! - `aws`, the AWS SDKs' standard retry mode, a bucket of `S` tokens (500 by default): the room
//!   is `floor(T / 10)` retries, every retry costing 10 tokens. After the destination answers,
//!   `T := min(S, T − 10 × retries sent + 1 × first attempts that succeeded + 10 × retries that
//!   succeeded)`; first attempts take the second's first positions, so `min(successes, first
//!   attempts sent)` of the successes are theirs. (The SDKs charge 10 after a timeout and 5
//!   after a throttling error such as a 429; here every retry costs 10, because the fluid engine
//!   does not know which kind of failure a due retry follows. Without `Retry-After` every
//!   failure is a timeout or a loss, and the two agree.)
//! - `grpc`, gRPC's retry throttling, `maxTokens` `M` (10 by default) and `tokenRatio` `r` (0.1
//!   by default): retries are sent only while the tokens exceed `M/2`, each retry of the second
//!   counted as if it had already failed: the room is the number of `k ≥ 0` with `T − k > M/2`,
//!   `ceil(T − M/2)` when `T > M/2`, else 0. After the destination answers, `T := min(M, max(0,
//!   T − f + r × k))` with `f` the failed attempts of the second (first attempts and retries;
//!   timeouts, losses and 429s) and `k` its successes.
//!
//! The discrete engine counts tokens in whole millionths (`r` rounded to the nearest millionth
//! once), exactly. The fluid engine applies the same rules to expected numbers of attempts,
//! keeping the tokens unrounded (and never below 0), and rounds the room as the discrete engine
//! does but with a margin of 10⁻⁹ against float noise: `floor(T / 10 + 10⁻⁹)` and
//! `ceil(T − M/2 − 10⁻⁹)`, each at least 0. A bucket that no first attempt refills (the traffic
//! is over) can stay too low for any retry: what it holds then stays pending to the end of the
//! simulation (the 7-day limit).
//!
//! **The circuit breaker** (`failures` `N` and/or a failure share `p` % over `W` whole seconds
//! with at least `M` attempts; `cooldown` `C` whole seconds, `probes` `P`) starts closed with a
//! count of 0 and an empty window.
//! - *Closed*: it does not limit the allowance. After each second, the count of consecutive
//!   failures becomes the second's failures if any attempt of the second succeeded (successes
//!   take a second's first positions, so every failure of the second came after its last
//!   success), else the count plus the second's failures (timeouts, losses and 429s are
//!   failures). The window is the closed seconds `s − W + 1` to `s` since the breaker last
//!   closed (or since the start): its attempts `a` and failures `f`. If the count is at least
//!   `N`, or something was sent in this second and `a ≥ M` and `100 f ≥ p a`, the breaker opens
//!   in this second (and its window
//!   empties: seconds while open or half-open never count).
//! - *Open* in second `o`: nothing is sent in seconds `o + 1` to `o + C` (everything due is held,
//!   no attempt is counted); from `o + C + 1` it is half-open.
//! - *Half-open*: at most `P` attempts are sent in a second (first attempts first; the other
//!   bounds apply too). After it: if nothing was sent it stays half-open; if none of what was
//!   sent failed it closes, with a count of 0; otherwise it opens again in this second.
//!
//! `breaker_openings` in the summary counts every opening, from closed or half-open. The fluid
//! engine runs the same state machine on expected numbers, in which "any succeeded", "something
//! was sent" and "any failed" mean at least half an attempt (for whole counts exactly: at least
//! one), and compares the unrounded count with `N` and the unrounded window totals with `M` and
//! `p`.
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
//! `delivered` and `exhausted` count what the sender saw: an exhausted delivery's last attempt
//! failed, but an earlier one may have timed out and still been processed, so a replay of it
//! can process it a second time.
//!
//! **Gaps.** The gap before retry `k` (attempt `k + 1`) is drawn from the ideal gap
//! `g_k = min(cap, base × multiplier^(k−1))` (or the explicit list): none `g_k`; full
//! `U[0, g_k)`; equal `U[g_k/2, g_k)`; proportional `g_k × U[1 − f, 1 + f)`; decorrelated
//! `min(cap, U[base, 3 × previous))` with `previous = base` before the first retry and the
//! previous drawn gap (not rounded) after it (discrete engine only). `U[a, b) = a + (b − a) × u`,
//! `u` the next 64 bits of xoshiro256++ (seeded through SplitMix64 with the scenario's seed)
//! shifted right by 11, times 2^-53. Each second the discrete engine draws the retries first
//! (step 3), then one gap per failed attempt that is not exhausted, in position order; a gap
//! without jitter draws nothing. A drawn gap is rounded to the nearest microsecond for its wait.
//!
//! **Rows.** Each second's row: `attempts` = `first_attempts` + `retries` sent; `successes`;
//! `failures` (timeouts and losses; 429s are `rejected_429`); `duplicates`; and, at the second's
//! end, `backlog` (deliveries neither delivered nor exhausted: held, waiting or queued), `queue`
//! (requests, as a number), `exhausted` (so far) and `deferred` (held: first attempts and
//! retries, whichever bound held them). A minute's row sums the flows of its seconds and keeps
//! the last second's levels.
//! Counts of the fluid engine are rounded to the nearest thousandth.
//!
//! **Summary.** `drained_at_s` is the first second `s` at or after the outage's end at whose end
//! the backlog is below `max(0.001 × deliveries created so far, 0.5)`; `emptied_at_s` the first
//! second, also from the outage's end on, at whose end it is below 0.5 (none pending: the last
//! straggler); `drained_by` is `exhaustion` when a delivery was exhausted in the seconds from
//! the outage's end to `drained_at_s`, else `delivery`; `exhausted_after_outage` counts those
//! exhausted at or after the outage's end.
//! `peak_minute` is the first of equally busy minutes. `attempts_per_delivered` is `null` when
//! under half a delivery was delivered (the fluid engine's expected values; the totals write
//! that as 0).
//!
//! **End.** The simulation runs from second 0 and stops before the first second `s` at which
//! `s` ≥ the traffic's end (`traffic`, or the second after the batch's when later; a last second
//! of traffic that brings no delivery is simulated too), `s` > the outage's end, and nothing is
//! held or due at or before the 7-day limit (what is due after it stays pending); `horizon_s` is
//! the number of seconds simulated. On expected values "nothing" is under a millionth of a
//! delivery.

//! # The engines
//! - [`simulate_discrete`]: exact counts for the seed; memory grows with the deliveries in flight
//!   only (16 bytes each); refused when deliveries × attempts exceed [`MAX_DISCRETE_WORST_CASE`],
//!   refused before it starts when the fluid engine expects more than [`MAX_DISCRETE_ATTEMPTS`]
//!   attempts, stopped with an error past them otherwise.
//! - [`simulate_fluid`]: the same rules on expected values; no randomness. Decorrelated jitter
//!   is refused (its gap depends on the previous one). Its numbers agree with the mean of
//!   discrete runs (tests compare them on a seeded random family of scenarios).
//! - [`arithmetic_view`]: the article's per-minute arithmetic, for the outage's minutes.

mod acted;
mod arithmetic;
mod breaker;
mod budget;
mod caption;
mod destination;
mod discrete;
mod drain;
mod fluid;
mod memo;
mod quota;
pub(crate) use quota::RATIO_NEEDS;
mod report;
mod scenario;
mod simulated;

pub use arithmetic::{arithmetic_view, ArithmeticMinute, ArithmeticReport, ArithmeticSummary};
pub use breaker::{Breaker, FailureShare};
pub use discrete::{simulate_discrete, MAX_DISCRETE_ATTEMPTS, MAX_DISCRETE_WORST_CASE};
pub use drain::Drain;
pub(crate) use fluid::{
    history_cells as fluid_history_cells, most_attempts_of, requests_within_limits,
    unrepresentable_sharing as fluid_unrepresentable_sharing, FluidStorm, Shortcuts, Spare,
    Unrepresentable,
};
pub use fluid::{simulate_fluid, MAX_CELLS, MAX_CLASS_SECONDS, MIN_REQUESTS_WITHIN_LIMITS};
pub use memo::Memo;
pub use quota::{RetryQuota, AWS_RETRY_COST, AWS_SUCCESS_REFUND};
pub use report::{
    goodput_per_s, DrainedBy, Interval, StormReport, Summary, MOSTLY_EXHAUSTED_SHARE,
};
pub(crate) use scenario::quoted_rate;
pub use scenario::{
    arrivals_range, steady_count, Bounds, Scenario, Spec, MAX_DELIVERIES, MAX_HORIZON_S,
};
pub(crate) use scenario::{check_budget, check_budget_floor, BUDGET_RANGE};
pub use simulated::{SimulatedBatch, SimulatedScenario, SimulatedStorm};

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
/// ([`arithmetic_view`]) and is refused here. A schedule that stops after a count of attempts
/// and is too long for the fluid engine (its history cells or class-seconds) is refused as
/// `attempts`, with the most attempts the fluid engine runs for this storm (found by bisection),
/// on the fluid engine and wherever the discrete engine's work limits refuse it too; other
/// refusals for too much work name the traffic (or the batch).
pub fn simulate(
    scenario: &Scenario,
    engine: Engine,
    keep_seconds: bool,
) -> Result<StormReport, Error> {
    simulate_until(scenario, engine, keep_seconds, MAX_HORIZON_S)
}

/// [`simulate`] stopped at the end of second `until_s − 1`, or sooner when the storm is over:
/// the report covers the seconds simulated (what is still pending then is `pending`, and a
/// backlog not cleared by then has no `drained_at_s`). The survival map stops each cell at the
/// end of its recovery window this way.
pub fn simulate_until(
    scenario: &Scenario,
    engine: Engine,
    keep_seconds: bool,
    until_s: u32,
) -> Result<StormReport, Error> {
    let discrete =
        || discrete::simulate_within(scenario, keep_seconds, MAX_DISCRETE_ATTEMPTS, until_s);
    match engine {
        Engine::Fluid => {
            // A schedule too long for the engine names its attempts, with the most it runs:
            // "engine must be discrete here" sent the reader to an engine that refused it too.
            if let Some((most, why)) = fluid::most_attempts_of(scenario) {
                return Err(why.attempts_error(
                    most,
                    "the fluid engine",
                    "the discrete engine",
                    scenario.policy.attempts().to_string(),
                ));
            }
            fluid::simulate_fluid_until(scenario, keep_seconds, until_s)
        }
        Engine::Discrete => discrete(),
        Engine::Auto => {
            let Some(why) = fluid::unrepresentable(scenario, scenario.units()) else {
                return fluid::simulate_fluid_until(scenario, keep_seconds, until_s);
            };
            let mut report = discrete()?;
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
mod branch_bounds_tests;
#[cfg(test)]
mod breaker_tests;
#[cfg(test)]
mod quota_tests;
#[cfg(test)]
mod tests;
