//! Working backwards: from how long an event stays worth delivering (`T`) and how late after
//! recovery a delivery may be (`R`), derive the schedule instead of picking its count.
//!
//! After a long outage the lag is at most the longest gap, so the cap must be at most `R`.
//! Attempts after `T` deliver only stale events and an early give-up exhausts events still worth
//! delivering, so the last attempt belongs exactly at `T`. Keeping the base and the multiplier:
//!
//! 1. `n` = the fewest attempts that reach `T` with the cap at `R`
//!    ([`Policy::attempts_for_deadline`]);
//! 2. the cap = the smallest with which those `n` attempts reach `T`
//!    ([`Policy::cap_for_deadline`]), at most `R`; the last attempt then lands on `T`. When that
//!    cap would be below the base, the cap is the base (a fixed interval) and the schedule ends
//!    at its last attempt at or before `T`: it gives up early rather than deliver stale events
//!    (the findings say where the last attempt lands). A base longer than `T` is refused: its
//!    first retry would already deliver a stale event.
//!
//! The reported give-up time is the proposed schedule's own (its gaps summed in `f64`), so it
//! may differ from `T` in the last digits (604800.0000000097 for 7 days).
//!
//! An explicit gap list keeps its gaps, each cut to `R`, continues at its last (or tail) gap cut
//! to `R`, and shortens the final gap to end on `T`; when that takes more than
//! [`MAX_EXPLICIT_GAPS`] (32) gaps, the list is filled to 32 gaps and the tail (`then_every_s`)
//! is the time left to `T` divided into the fewest equal gaps no longer than the last
//! continued gap cut to `R`, so the last attempt lands on `T` too. A first gap longer than `T`
//! is cut to `T`, as every gap is cut to end on `T`.

//!
//! Under jitter the give-up time is random: see [`jittered`] for the schedule derived then.

mod jittered;

use serde::{Deserialize, Serialize};

use crate::jitter::Jitter;
use crate::policy::{MAX_ATTEMPTS, MAX_EXPLICIT_GAPS};
use crate::{format_duration, format_multiplier, Error, Policy, Stop};

use super::question::longest_drawn_gap;
use super::{check_max_lag, check_tolerance};

/// A schedule derived from `T` and `R`, and what the current schedule gets wrong against them.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Suggestion {
    /// `T`: how long an event stays worth delivering, seconds.
    pub tolerance_s: f64,
    /// `R`: how late after recovery a delivery may be, seconds.
    pub max_lag_s: f64,
    /// The proposed base (the current one, or the first listed gap cut to `R`), seconds.
    pub base_s: f64,
    /// The proposed multiplier (the current one; 1 for a gap list).
    pub multiplier: f64,
    /// The proposed cap (the longest gap), seconds: at most `R` unless the base is longer.
    pub cap_s: f64,
    /// The proposed attempt count, derived.
    pub attempts: u32,
    /// The proposed schedule's give-up time as written: `T`, unless noted in the findings
    /// (under jitter, the findings give its median and 95th percentile).
    pub give_up_s: f64,
    /// For a gap list: the proposed gaps. `None` for a formula schedule.
    pub gaps_s: Option<Vec<f64>>,
    /// For a gap list of more than 32 gaps: the equal tail gaps that end it on `T`.
    pub then_every_s: Option<f64>,
    /// One sentence each: the current schedule against `T` and `R`, then the proposal.
    pub findings: Vec<String>,
    /// Whether the proposal is the schedule asked about, every attempt within half a
    /// millisecond (asked again after applying it): nothing to apply (the page's Apply stayed
    /// and did nothing: outside review).
    pub is_current: bool,
}

impl Suggestion {
    /// The proposed schedule as a policy.
    ///
    /// # Example
    /// ```
    /// use backoff_lab::jitter::Jitter;
    /// use backoff_lab::staleness::suggest;
    /// use backoff_lab::Policy;
    /// let suggestion = suggest(&Policy::article(), Jitter::None, 86_400.0, 3_600.0)?;
    /// let proposed = suggestion.policy()?;
    /// assert_eq!(proposed.attempts(), 29);
    /// assert!((proposed.schedule().give_up_s() - 86_400.0).abs() < 1e-6);
    /// # Ok::<(), backoff_lab::Error>(())
    /// ```
    pub fn policy(&self) -> Result<Policy, Error> {
        let stop = Stop::Attempts(self.attempts);
        match &self.gaps_s {
            Some(gaps) => Policy::explicit(gaps, self.then_every_s, Some(stop)),
            None => Policy::new(self.base_s, self.multiplier, self.cap_s, stop),
        }
    }
}

/// Derives a schedule from `policy` under `jitter` for a tolerance `tolerance_s` (`T`) and an
/// allowed recovery lag `max_lag_s` (`R`), both from 1 µs to 365 days: keeping
/// the base and the multiplier, the fewest attempts that reach `T` with the cap at `R`, then the
/// smallest cap with which they do (a gap list keeps its gaps cut to `R`). Under jitter "reach"
/// is in 95% of schedules and no gap drawn passes `R` ([`jittered`]). Refused when the schedule
/// would need more than 10000 attempts.
///
/// # Example
/// ```
/// use backoff_lab::jitter::Jitter;
/// use backoff_lab::staleness::suggest;
/// use backoff_lab::Policy;
/// let suggestion = suggest(&Policy::article(), Jitter::None, 6.0 * 3_600.0 + 120.0, 3.0 * 3_600.0)?;
/// assert_eq!(suggestion.attempts, 8);
/// assert_eq!(
///     suggestion.findings[0],
///     "Keeps retrying 18 h after events stopped being worth delivering: the last 6 attempts \
///      deliver only stale events."
/// );
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn suggest(
    policy: &Policy,
    jitter: Jitter,
    tolerance_s: f64,
    max_lag_s: f64,
) -> Result<Suggestion, Error> {
    check_tolerance(tolerance_s)?;
    check_max_lag(max_lag_s)?;
    jitter.check_applies_to(policy)?;
    let explicit = policy.explicit_gaps().is_some();
    let proposed = match (jitter.draws(), explicit) {
        (false, true) => from_gap_list(policy, tolerance_s, max_lag_s)?,
        (false, false) => from_formula(policy, tolerance_s, max_lag_s)?,
        (true, true) => jittered::from_gap_list(policy, jitter, tolerance_s, max_lag_s)?,
        (true, false) => jittered::from_formula(policy, jitter, tolerance_s, max_lag_s)?,
    };
    let mut findings = vec![if jitter.draws() {
        jittered::give_up_finding(policy, jitter, tolerance_s)?
    } else {
        give_up_finding(policy, tolerance_s)
    }];
    findings.extend(against(policy, jitter, tolerance_s, max_lag_s));
    findings.push(proposal(
        (policy, &proposed),
        jitter,
        tolerance_s,
        max_lag_s,
    )?);
    let (gaps_s, then_every_s) = match proposed.explicit_gaps() {
        Some((gaps, tail)) => (Some(gaps.to_vec()), tail),
        None => (None, None),
    };
    Ok(Suggestion {
        tolerance_s,
        max_lag_s,
        base_s: proposed.base_s(),
        multiplier: proposed.multiplier(),
        cap_s: proposed.cap_s(),
        attempts: proposed.attempts(),
        give_up_s: proposed.schedule().give_up_s(),
        gaps_s,
        then_every_s,
        findings,
        is_current: is_current(policy, &proposed),
    })
}

/// Whether `proposed` is the `current` schedule, asked again after applying a proposal or
/// typing its cap as written: every attempt within the half millisecond [`written_cap`] keeps
/// to.
fn is_current(current: &Policy, proposed: &Policy) -> bool {
    let (now, derived) = (current.schedule(), proposed.schedule());
    now.rows().len() == derived.rows().len()
        && (now.rows().iter().zip(derived.rows()))
            .all(|(a, b)| (a.elapsed_s - b.elapsed_s).abs() < ON_TIME_S)
}

/// Steps 1 and 2 for `base × multiplier^(k−1)` gaps. When the smallest cap that reaches `T`
/// would be below the base (a base longer than `R`, or a `T` short of what the attempts reach
/// at the base), the cap is the base: a fixed interval, ending at its last attempt at or
/// before `T`.
fn from_formula(policy: &Policy, tolerance_s: f64, max_lag_s: f64) -> Result<Policy, Error> {
    let (base, multiplier) = (policy.base_s(), policy.multiplier());
    if base > tolerance_s {
        return Err(base_past_tolerance(base, tolerance_s));
    }
    let widest = max_lag_s.max(base);
    let at_widest = Policy::new(base, multiplier, widest, Stop::Attempts(1))?;
    // The policy's own refusal names a give-up flag the reader never gave: said in this
    // question's words instead.
    let attempts = at_widest
        .attempts_for_deadline(tolerance_s)
        .map_err(|_| too_many_attempts(tolerance_s, base, multiplier, widest))?;
    // With `attempts` attempts the cap `widest` reaches T, so the smallest cap that does is no
    // larger; the min only guards against rounding.
    let cap = at_widest
        .cap_for_deadline(tolerance_s, attempts)?
        .min(widest);
    let proposed = Policy::new(base, multiplier, cap, Stop::Attempts(attempts))?;
    // A cap held at the base overshoots `T`: its last attempt would deliver only stale events
    // (AWS SNS's 20 s gaps for a 30 s tolerance ended at 40 s). It ends at its last attempt
    // at or before `T` instead.
    let within = (proposed.schedule().rows().iter())
        .filter(|row| crate::reaches::within(row.elapsed_s, tolerance_s))
        .count() as u32;
    if within < attempts {
        return Policy::new(base, multiplier, cap, Stop::Attempts(within));
    }
    Ok(proposed)
}

/// The refusal of a base longer than `T`: its first retry would deliver a stale event.
fn base_past_tolerance(base: f64, tolerance_s: f64) -> Error {
    // Written apart where rounding would make them one ("the 2 s base, past the 2 s
    // tolerance" for 2 s against 1.9999 s).
    let (base_text, tolerance_text) = crate::format_distinct(base, tolerance_s);
    Error::Unreachable(format!(
        "the first retry comes after the {} base, past the {} tolerance, so every retry \
         would deliver a stale event; a base of at most {tolerance_text} can retry in time",
        crate::duration::as_adjective(&base_text),
        crate::duration::as_adjective(&tolerance_text),
    ))
}

/// The refusal of a formula schedule that would need more than [`MAX_ATTEMPTS`] to reach `T`
/// with gaps of at most `widest`.
fn too_many_attempts(tolerance_s: f64, base: f64, multiplier: f64, widest: f64) -> Error {
    // At ×1 every gap is the base: no maximum lag makes them longer.
    let (gaps, fewer) = if multiplier == 1.0 {
        (
            format!("of the {} base (a ×1 multiplier)", format_duration(base)),
            "a longer base or a multiplier above 1",
        )
    } else {
        (
            format!("of at most {}", format_duration(widest)),
            "a longer maximum lag or base",
        )
    };
    Error::Unreachable(format!(
        "reaching the {} tolerance with gaps {gaps} would take more than {} attempts; \
         {fewer} needs fewer",
        crate::duration::as_adjective(&format_duration(tolerance_s)),
        crate::number_text::format_count(f64::from(MAX_ATTEMPTS)),
    ))
}

/// The listed gaps cut to `R`, ending exactly on `T` when that fits in a gap list.
fn from_gap_list(policy: &Policy, tolerance_s: f64, max_lag_s: f64) -> Result<Policy, Error> {
    let mut gaps = Vec::new();
    let mut elapsed = 0.0;
    for retry in 1..MAX_ATTEMPTS {
        // Less than the shortest gap left to `T`: the list ends here, on `T` within it (a last
        // gap of 0.5 µs was refused as "gaps must be durations from 1 µs …").
        if !gaps.is_empty() && tolerance_s - elapsed < crate::policy::MIN_SPAN_S {
            return Policy::explicit(&gaps, None, None);
        }
        if gaps.len() == MAX_EXPLICIT_GAPS {
            break;
        }
        let gap = policy.gap(retry).min(max_lag_s);
        if crate::reaches::reaches(elapsed + gap, tolerance_s) {
            gaps.push(tolerance_s - elapsed);
            return Policy::explicit(&gaps, None, None);
        }
        gaps.push(gap);
        elapsed += gap;
    }
    // Too many gaps to list: the time left to T in the fewest equal gaps no longer than the
    // steady tail, so that the last attempt lands on T (the tail itself overshot T by up to a
    // gap, its last attempt delivering only stale events).
    // The 32 gaps ending on T but for rounding: no tail (a 1e-16 s gap would add an attempt).
    if crate::reaches::reaches(elapsed, tolerance_s) {
        return Policy::explicit(&gaps, None, None);
    }
    let longest = policy.gap(MAX_EXPLICIT_GAPS as u32 + 1).min(max_lag_s);
    let left = tolerance_s - elapsed;
    // The fewest gaps no longer than `longest` that reach what is left, within rounding as
    // every mark (65.4 s of 0.3 s gaps divide into 218.00000000000003 in f64: 218, not 219).
    let mut count = (left / longest).ceil().max(1.0);
    if count > 1.0 && crate::reaches::reaches((count - 1.0) * longest, left) {
        count -= 1.0;
    }
    let attempts = gaps.len() as f64 + count + 1.0;
    if attempts > f64::from(MAX_ATTEMPTS) {
        return Err(Error::Unreachable(format!(
            "reaching the {} tolerance with gaps of at most {} would take more than {} \
             attempts; a longer maximum lag or longer gaps need fewer",
            crate::duration::as_adjective(&format_duration(tolerance_s)),
            format_duration(longest),
            crate::number_text::format_count(f64::from(MAX_ATTEMPTS)),
        )));
    }
    Policy::explicit(
        &gaps,
        Some(left / count),
        Some(Stop::Attempts(attempts as u32)),
    )
}

/// How close to `T` a give-up time counts as on it: half a millisecond, the step a cap is
/// written in (finer where that step would move the end more: [`written_cap`]).
const ON_TIME_S: f64 = 0.0005;

/// Where `policy`'s give-up time, as written, falls against `T`.
fn give_up_finding(policy: &Policy, tolerance_s: f64) -> String {
    let schedule = policy.schedule();
    let give_up = schedule.give_up_s();
    // A derived schedule's gaps sum to T only up to rounding (32399.999999999993 s for 9 h):
    // closer than the finest step any duration is written in counts as on T.
    let off = give_up - tolerance_s;
    if off.abs() < ON_TIME_S {
        "Gives up exactly when events stop being worth delivering.".to_string()
    } else if off < 0.0 {
        // Told apart where rounding would merge them ("between 7 days and 7 days").
        let (from, to) = crate::format_distinct(give_up, tolerance_s);
        format!(
            "Gives up {} before events stop being worth delivering: the first events of outages \
             between {from} and {to} are exhausted while still worth delivering.",
            format_duration(tolerance_s - give_up),
        )
    } else {
        // An attempt on `T` is fresh, as the table counts it: three 0.1 s gaps sum to
        // 0.30000000000000004 s, and one on a 300 ms tolerance was counted as stale.
        let late = schedule
            .rows()
            .iter()
            .filter(|row| !crate::reaches::within(row.elapsed_s, tolerance_s))
            .count();
        let last = match late {
            1 => "the last attempt delivers".to_string(),
            n => format!(
                "the last {} attempts deliver",
                crate::number_text::format_count(n as f64)
            ),
        };
        format!(
            "Keeps retrying {} after events stopped being worth delivering: {last} only stale \
             events.",
            format_duration(give_up - tolerance_s),
        )
    }
}

/// What `policy` gets wrong against `R` under `jitter`, and a base longer than `R` or `T`.
fn against(policy: &Policy, jitter: Jitter, tolerance_s: f64, max_lag_s: f64) -> Vec<String> {
    let (t, r) = (format_duration(tolerance_s), format_duration(max_lag_s));
    let mut findings = vec![lag_finding(policy, jitter, max_lag_s)];
    let base = policy.base_s();
    // The first gap's draws under the jitter: its longest against `R`, its shortest against
    // `T` (under full jitter half of a 60 s first gap's retries come within 30 s: "every retry
    // delivers a stale event" was false; outside code review).
    let (shortest_first, longest_first) = jitter.window(base).unwrap_or((base, base));
    // A list's gaps are each cut to `R` by the proposal: only a formula's base is stuck.
    if longest_first > max_lag_s && policy.explicit_gaps().is_none() {
        let longer = if base > max_lag_s {
            format!("The {} base alone is longer", format_duration(base))
        } else {
            format!(
                "The {} base's jittered draws reach {}, longer",
                format_duration(base),
                format_duration(longest_first)
            )
        };
        findings.push(format!(
            "{longer} than the {r} allowed: no cap keeps every delivery within it; shorten the \
             base."
        ));
    }
    if shortest_first > tolerance_s {
        // A list's first gap is cut to `T` by the proposal without jitter ("shorten the base"
        // beside a derived list read as a contradiction), and to `R` under it.
        findings.push(match policy.explicit_gaps() {
            None => format!(
                "The {} base alone is longer than the {t} tolerance: every retry delivers a \
                 stale event; shorten the base.",
                format_duration(base)
            ),
            Some(_) => format!(
                "The first gap, {}, is longer than the {t} tolerance: every retry delivers a \
                 stale event.",
                format_duration(base)
            ),
        });
    }
    findings
}

/// The longest lag after a long outage (the longest gap `policy` can draw under `jitter`)
/// against `R`.
fn lag_finding(policy: &Policy, jitter: Jitter, max_lag_s: f64) -> String {
    let r = format_duration(max_lag_s);
    let widest = longest_drawn_gap(policy, jitter);
    if policy.attempts() < 2 {
        // No retry: nothing arrives "within the 1 h allowed" (it said "at most 0 s").
        "No retry delivers an outage's events: the schedule never retries.".to_string()
    } else if !crate::reaches::within(widest, max_lag_s) {
        format!(
            "A long outage's events arrive up to {} after recovery, {} later than the {r} \
             allowed.",
            format_duration(widest),
            format_duration(widest - max_lag_s),
        )
    } else {
        format!(
            "A long outage's events arrive at most {} after recovery, within the {r} allowed.",
            format_duration(widest)
        )
    }
}

/// Whether two times are one within rounding ([`crate::reaches`]'s relative 1e-12 either way).
fn same_time(a: f64, b: f64) -> bool {
    crate::reaches::reaches(a, b) && crate::reaches::within(a, b)
}

/// The cap as the proposal writes it: as `solve-cap` writes one (to the millisecond, under a
/// second to the microsecond) when that, typed back, ends the schedule within [`ON_TIME_S`] of
/// where the proposed one ends; else with three more decimals, else six. Rounded to
/// the millisecond, each capped gap moves the end by up to half of one: a 77-attempt
/// proposal's cap typed back gave up 33 ms before `T` (outside review).
fn written_cap(proposed: &Policy) -> String {
    let (cap, give_up) = (proposed.cap_s(), proposed.schedule().give_up_s());
    let as_solve_cap = crate::duration::format_cap(cap);
    // A gap list's cap is its longest gap, named, not typed back.
    if proposed.explicit_gaps().is_some() {
        return as_solve_cap;
    }
    let lands = |text: &String| {
        crate::parse_duration("cap", text)
            .and_then(|typed| proposed.capped(typed))
            .is_ok_and(|typed| (typed.schedule().give_up_s() - give_up).abs() < ON_TIME_S)
    };
    let finer = [3, 6].map(|more| crate::duration::format_cap_finer(cap, more));
    [as_solve_cap.clone()]
        .into_iter()
        .chain(finer)
        .find(lands)
        .unwrap_or(as_solve_cap)
}

/// The proposal in one sentence. The cap is written as [`written_cap`] writes it (typed back,
/// it gives the same schedule to within half a millisecond), and one still above the allowed lag `max_lag_s` (a base longer than
/// it) says so. Under jitter, where its schedules give up and the longest gap they draw.
fn proposal(
    (current, proposed): (&Policy, &Policy),
    jitter: Jitter,
    tolerance_s: f64,
    max_lag_s: f64,
) -> Result<String, Error> {
    let schedule = proposed.schedule();
    let cap = written_cap(proposed);
    let shape = match proposed.explicit_gaps() {
        // Written out, a run of one gap with its count ("the listed gaps" named none: outside
        // SRE review).
        Some(_) => {
            let mut runs: Vec<(f64, usize)> = Vec::new();
            for gap in schedule.rows().iter().filter_map(|r| r.gap_s) {
                match runs.last_mut() {
                    // Equal within rounding: a list shortened to end on `T` read "9 × 100 ms,
                    // 100 ms" for a last gap of 0.09999999999999987 s.
                    Some((last, n)) if same_time(*last, gap) => *n += 1,
                    _ => runs.push((gap, 1)),
                }
            }
            let written: Vec<String> = (runs.iter())
                .map(|&(gap, n)| match n {
                    1 => format_duration(gap),
                    n => format!("{n} × {}", format_duration(gap)),
                })
                .collect();
            // Not "the listed gaps": a list cut to end on the tolerance has a gap of its own
            // (Azure's 30 s read as listed where 10 s was derived: outside review).
            format!("the gaps {}, none longer than {cap}", written.join(", "))
        }
        // Its multiplier does nothing ("a 30 s base, a ×3 multiplier and a 30 s cap").
        None if proposed.is_fixed_interval() => format!("a fixed {cap} interval"),
        None => format!(
            "{} base, a {} multiplier and {} cap",
            crate::duration::with_article(&format_duration(proposed.base_s())),
            format_multiplier(proposed.multiplier()),
            crate::duration::with_article(&cap),
        ),
    };
    let count = match (proposed.attempts(), current.attempts()) {
        (n, now) if n == now => format!(
            "{} as now",
            crate::number_text::count_of(u64::from(n), "attempt")
        ),
        (n, now) => format!(
            "{} instead of {}",
            crate::number_text::count_of(u64::from(n), "attempt"),
            crate::number_text::format_count(f64::from(now))
        ),
    };
    // On `T`, said so; else where, to the second (a 100 h tolerance's tail overshot to
    // 100 h 05 min read "4.2 days", and 100.5 min read "1 h 41 min").
    let give_up = schedule.give_up_s();
    let (lands, longest) = if jitter.draws() {
        jittered::lands(proposed, jitter, tolerance_s)?
    } else if (give_up - tolerance_s).abs() < ON_TIME_S {
        let on = crate::duration::as_adjective(&crate::duration::format_precise(tolerance_s));
        (
            format!("the last attempt lands on the {on} tolerance"),
            proposed.cap_s(),
        )
    } else {
        (
            format!(
                "the last attempt lands at {}",
                crate::duration::format_precise(give_up)
            ),
            proposed.cap_s(),
        )
    };
    // Within rounding, as every mark: a cap of 0.10000000000000009 s was "still more than the
    // 100 ms allowed".
    let still = if !crate::reaches::within(longest, max_lag_s) {
        format!(
            ", still more than the {} allowed (only a shorter base keeps within it)",
            format_duration(max_lag_s)
        )
    } else {
        String::new()
    };
    let lead = if is_current(current, proposed) {
        format!(
            "This is the schedule they derive: {shape}, {}",
            crate::number_text::count_of(u64::from(proposed.attempts()), "attempt")
        )
    } else {
        format!("Derived instead: {shape}, {count}")
    };
    // The cap as the sentence wrote it: "a 2 h 01 min 30 s cap … at most 2 h 02 min after
    // recovery" read longer than the cap it is (outside review).
    let longest = if longest == proposed.cap_s() {
        cap
    } else {
        format_duration(longest)
    };
    Ok(format!(
        "{lead}; {lands} and a long outage's events arrive at most {longest} after recovery{still}."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schedule derived from the schedule as written (these tests are about it).
    fn suggest(policy: &Policy, tolerance_s: f64, max_lag_s: f64) -> Result<Suggestion, Error> {
        super::suggest(policy, Jitter::None, tolerance_s, max_lag_s)
    }

    /// The proposal's sentence never reads like the schedule it replaces, and says when the
    /// base alone keeps it above the allowed lag.
    #[test]
    fn the_proposal_reads_as_what_changes() {
        let article = Policy::article();
        let same_count = suggest(&article, 86_400.0, 10_800.0).unwrap();
        let sentence = same_count.findings.last().unwrap();
        assert!(
            sentence.contains("a 2 h 59 min 42.857143 s cap, 14 attempts as now"),
            "{sentence}"
        );
        let too_short = suggest(&article, 60.0, 1.0).unwrap();
        let sentence = too_short.findings.last().unwrap();
        assert!(
            sentence.ends_with(
                "still more than the 1 s allowed (only a shorter base keeps within it)."
            ),
            "{sentence}"
        );
    }

    const HOUR: f64 = 3_600.0;

    /// A derived list of gaps was "the listed gaps, none longer than 1 h", none of them
    /// named (outside SRE review): they are written out, a run of one gap with its count.
    #[test]
    fn derived_listed_gaps_are_written_out() {
        let svix = crate::presets::preset("svix").unwrap().policy;
        let sentence = suggest(&svix, 24.0 * HOUR, HOUR).unwrap().findings;
        let sentence = sentence.last().unwrap();
        assert!(
            sentence.contains(
                "the gaps 5 s, 5 min, 30 min, 23 × 1 h, 24.9 min, none longer than 1 h, 28 \
                 attempts instead of 8"
            ),
            "{sentence}"
        );
    }

    /// Applying a proposal whose gaps sum to T only up to rounding (9 h, 45 min: a cap of
    /// 2615.4545… s, the gaps summing to 32399.999999999993 s) gives up on T, and asking again
    /// derives the same schedule.
    /// A cap under a second is written in milliseconds, to the digits its 6,549 attempts need to
    /// end within half a millisecond of `T` typed back (to the millisecond it read "0.55 s"
    /// for 549.931 ms).
    #[test]
    fn a_cap_under_a_second_keeps_its_digits() {
        let fast = Policy::new(0.1, 2.0, HOUR, crate::Stop::Attempts(12)).unwrap();
        let s = suggest(&fast, HOUR, 0.55).unwrap();
        assert!(s.cap_s < 0.55, "{}", s.cap_s);
        let sentence = s.findings.last().unwrap();
        let written = format!("a {:.6} ms cap, 6,549 attempts", s.cap_s * 1000.0);
        assert!(sentence.contains(&written), "{written}: {sentence}");
    }

    /// The cap as the proposal writes it, typed back, lands on `T` and is the schedule derived
    /// again: to the millisecond, 77 attempts' cap gave up 33 ms before 72 h and 2,019
    /// attempts' 900 ms before 7 days (outside review); an early give-up's outages told apart.
    #[test]
    fn the_cap_as_written_lands_on_t() {
        for (base, multiplier, tolerance, max_lag, written) in [
            (30.0, 3.0, 72.0 * HOUR, HOUR, "59 min 59.577465 s"),
            (60.0, 2.0, 168.0 * HOUR, 300.0, "4 min 59.94044665 s"),
            (30.0, 3.0, 24.0 * HOUR, HOUR, "59 min 58.695652 s"),
        ] {
            let policy = Policy::new(base, multiplier, HOUR, crate::Stop::Attempts(3)).unwrap();
            let s = suggest(&policy, tolerance, max_lag).unwrap();
            let sentence = s.findings.last().unwrap();
            assert!(sentence.contains(written), "{written}: {sentence}");
            let cap_text = sentence
                .split(" multiplier and a ")
                .nth(1)
                .and_then(|rest| rest.split(" cap,").next())
                .unwrap();
            let typed = Policy::new(
                base,
                multiplier,
                crate::parse_duration("cap", cap_text).unwrap(),
                crate::Stop::Attempts(s.attempts),
            )
            .unwrap();
            let again = suggest(&typed, tolerance, max_lag).unwrap();
            assert_eq!(
                again.findings[0], "Gives up exactly when events stop being worth delivering.",
                "{cap_text}"
            );
            assert!(
                again
                    .findings
                    .last()
                    .unwrap()
                    .starts_with("This is the schedule they derive"),
                "{:?}",
                again.findings
            );
        }
        let short = Policy::new(60.0, 2.0, 299.94, crate::Stop::Attempts(2_019)).unwrap();
        let findings = suggest(&short, 168.0 * HOUR, 300.0).unwrap().findings;
        assert!(
            findings[0].starts_with(
                "Gives up 900 ms before events stop being worth delivering: the first events of \
                 outages between 6 days 23 h 59 min 59.1 s and 7 days"
            ),
            "{findings:?}"
        );
    }

    /// A gap list whose gaps reach within 1 µs of `T` ends there: the last gap, `T` less the
    /// time so far, would be under the shortest duration accepted.
    #[test]
    fn a_gap_list_within_a_microsecond_of_t_ends_there() {
        let listed = Policy::explicit(&[1.0, 1.0, 1.0], None, Some(Stop::Attempts(4))).unwrap();
        let s = suggest(&listed, 2.000_000_5, 10.0).unwrap();
        assert_eq!(s.gaps_s.as_deref(), Some(&[1.0, 1.0][..]), "{s:?}");
        assert_eq!(s.attempts, 3);
    }

    #[test]
    fn an_applied_proposal_ends_on_t() {
        let unjittered = Policy::article();
        let first = suggest(&unjittered, 9.0 * HOUR, 0.75 * HOUR).unwrap();
        assert!(
            first
                .findings
                .last()
                .unwrap()
                .contains("a 43 min 35.454545 s cap, 17 attempts instead of 14"),
            "{:?}",
            first.findings
        );
        assert!(!first.is_current);
        let applied = first.policy().unwrap();
        assert_ne!(
            applied.schedule().give_up_s(),
            9.0 * HOUR,
            "the rounding this is about"
        );
        let again = suggest(&applied, 9.0 * HOUR, 0.75 * HOUR).unwrap();
        assert!(again.is_current, "nothing to apply");
        assert_eq!(
            again.findings[0],
            "Gives up exactly when events stop being worth delivering."
        );
        assert!(
            again.findings.last().unwrap().starts_with(
                "This is the schedule they derive: a 30 s base, a ×3 multiplier and a 43 min \
                 35.454545 s cap, 17 attempts;"
            ),
            "{:?}",
            again.findings
        );
        // A millisecond off T is named.
        let late = Policy::new(30.0, 3.0, first.cap_s + 0.001 / 11.0, Stop::Attempts(17)).unwrap();
        let findings = suggest(&late, 9.0 * HOUR, 0.75 * HOUR).unwrap().findings;
        assert!(
            findings[0].starts_with("Keeps retrying 1 ms after"),
            "{findings:?}"
        );
    }

    /// Three 0.1 s gaps end at 0.30000000000000004 s: that attempt, on a 300 ms tolerance, is
    /// fresh (the table delivers its outage all fresh), and only the one after it is counted
    /// as delivering stale events.
    #[test]
    fn an_attempt_on_the_tolerance_is_not_counted_stale() {
        let policy = Policy::explicit(&[0.1], None, Some(Stop::Attempts(5))).unwrap();
        let findings = suggest(&policy, 0.3, 1.0).unwrap().findings;
        assert!(
            findings[0].ends_with(": the last attempt delivers only stale events."),
            "{findings:?}"
        );
    }

    #[test]
    fn the_formula_lands_on_t_with_a_cap_under_r() {
        // Article, T = 24 h, R = 1 h. With a 1 h cap, attempts land at 0, 30 s, 2 min, 6.5 min,
        // 20 min, 1 h 00 min 30 s, then every hour: 3630 + 23 × 3600 = 86430 ≥ 86400 at
        // attempt 29. Solving for 23 capped gaps after 3630 s: (86400 − 3630) / 23.
        let s = suggest(&Policy::article(), 24.0 * HOUR, HOUR).unwrap();
        assert_eq!((s.base_s, s.multiplier, s.attempts), (30.0, 3.0, 29));
        assert!((s.cap_s - 82_770.0 / 23.0).abs() < 1e-9);
        assert!((s.give_up_s - 24.0 * HOUR).abs() < 1e-6);
        assert_eq!(s.gaps_s, None);
        assert_eq!(
            s.findings[1],
            "A long outage's events arrive up to 3 h after recovery, 2 h later than the 1 h \
             allowed."
        );
    }

    #[test]
    fn an_early_give_up_is_named() {
        let s = suggest(&Policy::article(), 86_520.0 + 3.0 * HOUR, 3.0 * HOUR).unwrap();
        assert!(s.findings[0].starts_with("Gives up 3 h before events stop being worth delivering"));
        assert_eq!(
            s.findings[1],
            "A long outage's events arrive at most 3 h after recovery, within the 3 h allowed."
        );
        // Fifteen attempts reach 27 h 02 min with a 3 h cap; a 3 h cap lands on it exactly.
        assert_eq!((s.attempts, s.cap_s), (15, 3.0 * HOUR));
    }

    #[test]
    fn a_base_longer_than_r_is_named_and_one_longer_than_t_refused() {
        let policy = Policy::new(600.0, 2.0, 3_600.0, Stop::Attempts(5)).unwrap();
        let s = suggest(&policy, 1_200.0, 60.0).unwrap();
        assert_eq!((s.cap_s, s.attempts), (600.0, 3));
        assert!(s
            .findings
            .iter()
            .any(|f| f.starts_with("The 10 min base alone is longer than the 60 s allowed")));
        // No retry can come within the tolerance: a "derived" schedule would send only stale
        // events.
        assert_eq!(
            suggest(&policy, 300.0, 60.0).unwrap_err().to_string(),
            "the first retry comes after the 10 min base, past the 5 min tolerance, so every \
             retry would deliver a stale event; a base of at most 5 min can retry in time"
        );
        // A list's first gap is shortened to land on the tolerance instead.
        let listed = Policy::explicit(&[600.0], None, Some(Stop::Attempts(3))).unwrap();
        assert_eq!(suggest(&listed, 300.0, 60.0).unwrap().give_up_s, 300.0);
    }

    /// A base longer than `R` holds the cap at the base: a fixed interval, which overshot `T`
    /// (AWS SNS's 20 s gaps for a 30 s tolerance ended at 40 s, its last attempt delivering
    /// only stale events, and read "a 20 s base, a ×2 multiplier and a 20 s cap").
    #[test]
    fn a_cap_held_at_the_base_ends_within_t_and_reads_as_a_fixed_interval() {
        let policy = Policy::new(20.0, 2.0, 3_600.0, Stop::Attempts(5)).unwrap();
        let s = suggest(&policy, 30.0, 5.0).unwrap();
        assert_eq!((s.cap_s, s.attempts, s.give_up_s), (20.0, 2, 20.0));
        let proposed = s.policy().unwrap().schedule();
        assert!(proposed.rows().iter().all(|row| row.elapsed_s <= 30.0));
        let said = s.findings.last().unwrap();
        assert!(
            said.starts_with(
                "Derived instead: a fixed 20 s interval, 2 attempts instead of 5; \
                              the last attempt lands at 20 s"
            ),
            "{said}"
        );
    }

    /// A schedule that never retries delivers nothing after an outage: no lag "within the 1 h
    /// allowed" (it said "at most 0 s after recovery").
    #[test]
    fn a_schedule_that_never_retries_claims_no_lag() {
        let once = Policy::new(30.0, 3.0, 3.0 * HOUR, Stop::Attempts(1)).unwrap();
        let findings = suggest(&once, 6.0 * HOUR, HOUR).unwrap().findings;
        assert!(
            findings
                .iter()
                .any(|f| f == "No retry delivers an outage's events: the schedule never retries."),
            "{findings:?}"
        );
        assert!(
            !findings.iter().any(|f| f.contains("at most 0 s")),
            "{findings:?}"
        );
    }

    /// Too many attempts: the advice names what shortens them. At ×1 every gap is the base, and
    /// "a longer maximum lag" (outside product review: 365 days at 1 s gaps) changed nothing.
    #[test]
    fn too_many_attempts_are_told_what_makes_fewer() {
        let flat = Policy::new(1.0, 1.0, 1.0, Stop::Attempts(100)).unwrap();
        let refusal = suggest(&flat, 6.0 * HOUR, 365.0 * 24.0 * HOUR)
            .unwrap_err()
            .to_string();
        assert!(
            refusal.ends_with(
                "gaps of the 1 s base (a ×1 multiplier) would take more than 10,000 attempts; \
                 a longer base or a multiplier above 1 needs fewer"
            ),
            "{refusal}"
        );
        let growing = Policy::new(1.0, 2.0, 1.0, Stop::Attempts(100)).unwrap();
        let refusal = suggest(&growing, 6.0 * HOUR, 1.0).unwrap_err().to_string();
        assert!(
            refusal.ends_with("a longer maximum lag or base needs fewer"),
            "{refusal}"
        );
    }

    /// 32 gaps of 0.3 s leave 65.4 s to a 75 s tolerance: 218 more gaps of 0.3 s, though in
    /// f64 the division reads 218.00000000000003 (it took 219 shorter gaps).
    #[test]
    fn a_tail_that_divides_evenly_within_rounding_keeps_its_gap() {
        let every = Policy::explicit(&[0.3], None, Some(Stop::Attempts(5))).unwrap();
        let s = suggest(&every, 75.0, HOUR).unwrap();
        assert_eq!(s.attempts, 32 + 218 + 1);
        assert!(
            (s.then_every_s.unwrap() - 0.3).abs() < 1e-12,
            "{:?}",
            s.then_every_s
        );
        // A base refused against a tolerance it rounds to is written apart from it.
        let two = Policy::new(2.0, 1.0, 2.0, Stop::Attempts(3)).unwrap();
        let refusal = suggest(&two, 1.9999, 5.0).unwrap_err().to_string();
        assert!(
            !refusal.contains("2 s base, past the 2 s tolerance"),
            "{refusal}"
        );
    }

    #[test]
    fn a_gap_list_too_long_to_list_keeps_a_tail() {
        let every_minute = Policy::explicit(&[60.0], Some(60.0), Some(Stop::Attempts(3))).unwrap();
        let s = suggest(&every_minute, 100.0 * 60.0 + 30.0, HOUR).unwrap();
        // 32 gaps of a minute (1,920 s), then the 4,110 s left in 69 equal gaps of at most a
        // minute: the last attempt lands on 100.5 min (the minute's tail overshot it by 30 s,
        // its last attempt delivering only stale events).
        assert_eq!(s.then_every_s, Some(4_110.0 / 69.0));
        assert_eq!(s.attempts, 32 + 69 + 1);
        let policy = s.policy().unwrap();
        assert!((policy.schedule().give_up_s() - 6_030.0).abs() < 1e-6);
        let said = s.findings.last().unwrap();
        assert!(
            said.contains("the last attempt lands on the 1 h 40 min 30 s tolerance"),
            "{said}"
        );
    }

    #[test]
    fn bad_input_is_refused() {
        let policy = Policy::article();
        assert_eq!(
            suggest(&policy, 0.0, 60.0).unwrap_err().to_string(),
            "tolerance must be a duration from 1 µs to 365 days, got 0 s"
        );
        assert_eq!(
            suggest(&policy, 60.0, f64::NAN).unwrap_err().to_string(),
            "max-lag must be a duration from 1 µs to 365 days, got NaN"
        );
    }
}
