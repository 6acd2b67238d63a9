//! The circuit breaker: after `failures` consecutive failed attempts, or when failures make up
//! a share of the attempts over a window of seconds, the sender stops sending for a cool-down,
//! then probes with a few attempts before it sends freely again.
//!
//! - *Closed*: attempts go as the other bounds allow. After each second the consecutive-failure
//!   count is the second's failures if any attempt of the second succeeded (successes take the
//!   first positions of a second, so every failure of the second comes after its last success),
//!   else the count plus the second's failures; timeouts, losses and 429s are failures. When the
//!   count reaches `failures` the breaker opens.
//! - *Failure share* (the rule of Polly's advanced breaker and resilience4j's time-based
//!   window): after each closed second `s`, the window is the closed seconds `s − W + 1` to `s`
//!   since the breaker last closed (or since the start). When something was sent in `s`, at
//!   least `min_attempts` attempts were sent in the window and `100 × failures ≥ percent ×
//!   attempts` over it, the breaker opens (a second with nothing sent changes nothing, though
//!   older seconds leave the window). Either
//!   rule opens it; a breaker has one or both. Seconds while open or half-open never count, so a
//!   breaker that closes starts with an empty window.
//! - *Open*: in the `cooldown` seconds after the second it opened in, nothing is sent (first
//!   attempts and retries are held, never dropped, and no attempt is counted).
//! - *Half-open*, from the second after that: at most `probes` attempts are sent (first attempts
//!   first; the other bounds apply too). If at least one was sent and none failed, the breaker
//!   closes (count 0); if any failed, it opens again in this second; if none was sent, it stays
//!   half-open.
//!
//! Both engines run this one state machine on numbers of attempts: whole in the discrete engine,
//! expected in the fluid engine. "An attempt succeeded", "one was sent" and "one failed" mean at
//! least half an attempt did, and "none failed" under half an attempt: for whole counts that is
//! exactly at least one, and none. The count is compared with `failures` as it is (expected
//! failures add up unrounded). Whole counts stay far below 2^53, so `f64` holds them exactly.

use crate::number_text::count_of;
use crate::Error;

/// A circuit breaker on the sender: it opens on `failures` in a row, on a failure `share` over
/// a window, or on either.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Breaker {
    /// Consecutive failed attempts that open it (1 to 10,000), if that rule is on.
    pub failures: Option<u32>,
    /// The share of failed attempts over a window that opens it, if that rule is on.
    pub share: Option<FailureShare>,
    /// Whole seconds it stays open before probing (1 s to 1 h; 30 s by default).
    pub cooldown_s: u32,
    /// Attempts sent at most in a half-open second (1 to 1000; 1 by default).
    pub probes: u32,
}

impl Breaker {
    /// The cool-down when none is given.
    pub const DEFAULT_COOLDOWN_S: u32 = 30;
    /// The probes when none is given.
    pub const DEFAULT_PROBES: u32 = 1;

    pub(crate) fn validate(&self) -> Result<(), Error> {
        if self.failures.is_none() && self.share.is_none() {
            return Err(Error::out_of_range(
                "breaker-failures",
                "none",
                "given (or breaker-share): a breaker needs a rule that opens it",
            ));
        }
        if let Some(failures) = self.failures {
            whole("breaker-failures", failures, 10_000)?;
        }
        if let Some(share) = self.share {
            share.validate()?;
        }
        seconds_to_an_hour("breaker-cooldown", self.cooldown_s)?;
        whole("breaker-probes", self.probes, 1_000)
    }

    /// The breaker in a few words, for captions.
    pub fn describe(&self) -> String {
        let consecutive = self
            .failures
            .map(|n| format!("after {}", count_of(u64::from(n), "consecutive failure")));
        let share = self.share.map(|share| {
            format!(
                "when {}% of at least {} in {} fail",
                share.percent,
                count_of(u64::from(share.min_attempts), "attempt"),
                crate::format_duration(f64::from(share.window_s))
            )
        });
        let opens = [consecutive, share]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" or ");
        format!(
            "a circuit breaker (opens {opens}, {} cool-down, {})",
            crate::format_duration(f64::from(self.cooldown_s)),
            count_of(u64::from(self.probes), "probe")
        )
    }
}

/// The breaker's failure-share rule: it opens when at least `percent` % of the attempts sent in
/// the last `window_s` closed seconds failed, once at least `min_attempts` were sent in them.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct FailureShare {
    /// The share of failed attempts that opens the breaker, whole percent (1 to 100).
    pub percent: u32,
    /// The window, whole seconds (1 s to 1 h; 30 s by default).
    pub window_s: u32,
    /// Attempts the window must hold before the share counts (1 to 1,000,000; 100 by default).
    pub min_attempts: u32,
}

impl FailureShare {
    /// The window when none is given (Polly's sampling duration).
    pub const DEFAULT_WINDOW_S: u32 = 30;
    /// The minimum attempts when none is given (Polly's minimum throughput).
    pub const DEFAULT_MIN_ATTEMPTS: u32 = 100;

    fn validate(&self) -> Result<(), Error> {
        if !(1..=100).contains(&self.percent) {
            return Err(Error::out_of_range(
                "breaker-share",
                format!("{}%", self.percent),
                "a whole percentage from 1% to 100%",
            ));
        }
        seconds_to_an_hour("breaker-window", self.window_s)?;
        whole("breaker-min-attempts", self.min_attempts, 1_000_000)
    }
}

/// `value` must be a whole number from 1 to `most`.
fn whole(field: &'static str, value: u32, most: u32) -> Result<(), Error> {
    if (1..=most).contains(&value) {
        Ok(())
    } else {
        Err(Error::out_of_range(
            field,
            value,
            format!("a whole number from 1 to {most}"),
        ))
    }
}

/// `seconds` must be whole seconds from 1 s to 1 h.
fn seconds_to_an_hour(field: &'static str, seconds: u32) -> Result<(), Error> {
    if (1..=3_600).contains(&seconds) {
        Ok(())
    } else {
        Err(Error::out_of_range(
            field,
            crate::format_duration(f64::from(seconds)),
            "a whole number of seconds from 1 s to 1 h",
        ))
    }
}

/// The closed seconds the failure-share rule looks at: `(second, sent, failed)` of each closed
/// second with an attempt, oldest first, and their totals.
#[derive(Debug, Clone, Default)]
struct Window {
    seconds: std::collections::VecDeque<(u32, f64, f64)>,
    sent: f64,
    failed: f64,
}

impl Window {
    /// `second` added, and the seconds before `second − window_s + 1` dropped.
    fn push(&mut self, second: u32, sent: f64, failed: f64, window_s: u32) {
        if sent > 0.0 {
            self.seconds.push_back((second, sent, failed));
            self.sent += sent;
            self.failed += failed;
        }
        let first = (second + 1).saturating_sub(window_s);
        while let Some(&(oldest, sent, failed)) = self.seconds.front() {
            if oldest >= first {
                break;
            }
            self.seconds.pop_front();
            self.sent -= sent;
            self.failed -= failed;
        }
        // Whole counts stay exact; expected ones return to exactly zero when the window empties.
        if self.seconds.is_empty() {
            (self.sent, self.failed) = (0.0, 0.0);
        }
    }

    fn clear(&mut self) {
        *self = Window::default();
    }
}

/// Where the breaker is between seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    Closed {
        failures: f64,
    },
    /// Nothing is sent before `probe_at`; from it on the breaker is half-open.
    Open {
        probe_at: u32,
    },
}

/// The breaker as a simulation goes (none when the scenario has no breaker).
#[derive(Debug, Clone)]
pub(crate) struct BreakerState {
    rule: Option<Breaker>,
    phase: Phase,
    window: Window,
    openings: u32,
}

impl BreakerState {
    pub fn new(rule: Option<Breaker>) -> Self {
        BreakerState {
            rule,
            phase: Phase::Closed { failures: 0.0 },
            window: Window::default(),
            openings: 0,
        }
    }

    /// The attempts the breaker lets through in `second`: no limit (`u64::MAX`) while closed,
    /// none while open, the probes while half-open.
    pub fn allowance(&self, second: u32) -> u64 {
        match (self.rule, self.phase) {
            (Some(_), Phase::Open { probe_at }) if second < probe_at => 0,
            (Some(rule), Phase::Open { .. }) => u64::from(rule.probes),
            _ => u64::MAX,
        }
    }

    /// The breaker after `second`, in which `sent` attempts were made, `successes` of them
    /// succeeded and `failures` failed.
    pub fn settle(&mut self, second: u32, sent: f64, successes: f64, failures: f64) {
        let Some(rule) = self.rule else {
            return;
        };
        let open = Phase::Open {
            probe_at: second.saturating_add(rule.cooldown_s).saturating_add(1),
        };
        self.phase = match self.phase {
            Phase::Closed { failures: count } => {
                let count = if successes >= 0.5 {
                    failures
                } else {
                    count + failures
                };
                let consecutive = rule.failures.is_some_and(|n| count >= f64::from(n));
                // Checked only after a second in which something was sent: an empty second
                // changes nothing, though older seconds leave the window.
                let share = rule.share.is_some_and(|share| {
                    self.window.push(second, sent, failures, share.window_s);
                    sent >= 0.5
                        && self.window.sent >= f64::from(share.min_attempts)
                        && 100.0 * self.window.failed >= f64::from(share.percent) * self.window.sent
                });
                if consecutive || share {
                    self.openings += 1;
                    self.window.clear();
                    open
                } else {
                    Phase::Closed { failures: count }
                }
            }
            Phase::Open { probe_at } if second < probe_at || sent < 0.5 => self.phase,
            Phase::Open { .. } if failures < 0.5 => Phase::Closed { failures: 0.0 },
            Phase::Open { .. } => {
                self.openings += 1;
                open
            }
        };
    }

    /// How many times the breaker opened (`None` without a breaker).
    pub fn openings(&self) -> Option<u32> {
        self.rule.map(|_| self.openings)
    }
}
