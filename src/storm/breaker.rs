//! The circuit breaker: after `failures` consecutive failed attempts the sender stops sending
//! for a cool-down, then probes with a few attempts before it sends freely again.
//!
//! - *Closed*: attempts go as the other bounds allow. After each second the consecutive-failure
//!   count is the second's failures if any attempt of the second succeeded (successes take the
//!   first positions of a second, so every failure of the second comes after its last success),
//!   else the count plus the second's failures; timeouts, losses and 429s are failures. When the
//!   count reaches `failures` the breaker opens.
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

use crate::Error;

/// A circuit breaker on the sender.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Breaker {
    /// Consecutive failed attempts that open it (1 to 10,000).
    pub failures: u32,
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
        if !(1..=10_000).contains(&self.failures) {
            return Err(Error::out_of_range(
                "breaker-failures",
                self.failures,
                "a whole number from 1 to 10000",
            ));
        }
        if !(1..=3_600).contains(&self.cooldown_s) {
            return Err(Error::out_of_range(
                "breaker-cooldown",
                crate::format_duration(f64::from(self.cooldown_s)),
                "a whole number of seconds from 1 s to 1 h",
            ));
        }
        if !(1..=1_000).contains(&self.probes) {
            return Err(Error::out_of_range(
                "breaker-probes",
                self.probes,
                "a whole number from 1 to 1000",
            ));
        }
        Ok(())
    }

    /// The breaker in a few words, for captions.
    pub fn describe(&self) -> String {
        format!(
            "a circuit breaker (opens after {} consecutive failures, {} cool-down, {} probe{})",
            self.failures,
            crate::format_duration(f64::from(self.cooldown_s)),
            self.probes,
            if self.probes == 1 { "" } else { "s" }
        )
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
    openings: u32,
}

impl BreakerState {
    pub fn new(rule: Option<Breaker>) -> Self {
        BreakerState {
            rule,
            phase: Phase::Closed { failures: 0.0 },
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
                if count >= f64::from(rule.failures) {
                    self.openings += 1;
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
