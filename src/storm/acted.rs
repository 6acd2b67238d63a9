//! Which of the sender's bounds held something back at some second of a storm, so that the
//! caption credits a bound with the outcome only when it acted: a rate limit never reached, or
//! a budget in a storm without a retry, read as if they had bounded it (outside review).
//!
//! The rules, per second, on what the bounds decided (the module `storm`'s order: first
//! attempts, then retries):
//! - the **pause** acted when anything was due (a first attempt or a retry) while it held the
//!   sender during the outage;
//! - the **rate limit**, and the **pace after a pause** (from the outage's end), each acted when
//!   the sender sent as many attempts as it allows in that second and had more due;
//! - the **retry budget** and the **retry quota** each acted when fewer retries were sent than
//!   were due and the retries sent were as many as it let through.
//!
//! Two bounds that allow the same number both acted. The fluid engine's shares of what is due
//! are compared within a billionth (a share sent can come out a rounding error under the bound
//! that set it). The circuit breaker is counted by its openings, and `Retry-After` acted when an
//! attempt was answered 429.

/// One second's sending: what was due and what was sent, with what each bound allowed (first
/// attempts and retries together for the rate limit and the pace; retries alone for the budget
/// and the quota). A bound that is not set (or not yet: the pace before the outage's end)
/// allows [`f64::INFINITY`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sending {
    pub firsts_due: f64,
    pub retries_due: f64,
    pub firsts: f64,
    pub retries: f64,
    pub rate_limit: f64,
    pub pace: f64,
    pub budget: f64,
    pub quota: f64,
}

/// A whole count of attempts a bound allows as [`Sending`] takes it: `u64::MAX` (no bound) as
/// [`f64::INFINITY`].
pub(crate) fn allows(count: u64) -> f64 {
    match count {
        u64::MAX => f64::INFINITY,
        count => count as f64,
    }
}

/// Whether each bound held something back at some second (see the module's rules), and the
/// attempts the destination answered 429 (set from the storm's rows once it is over).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BoundsActed {
    pub pause: bool,
    pub pace: bool,
    pub rate_limit: bool,
    pub budget: bool,
    pub quota: bool,
    pub answered_429: f64,
}

impl BoundsActed {
    /// A second the pause held the sender in, with `due` attempts due.
    pub(crate) fn paused(&mut self, due: f64) {
        self.pause |= due > 0.0;
    }

    /// A second the sender was not paused in.
    pub(crate) fn sent(&mut self, s: &Sending) {
        // Whether a bound allowing `allowed` is what stopped at `sent`.
        let reached = |allowed: f64, sent: f64| allowed <= sent + 1e-9 * sent.max(1.0);
        let sent = s.firsts + s.retries;
        if sent < s.firsts_due + s.retries_due {
            self.rate_limit |= reached(s.rate_limit, sent);
            self.pace |= reached(s.pace, sent);
        }
        if s.retries < s.retries_due {
            self.budget |= reached(s.budget, s.retries);
            self.quota |= reached(s.quota, s.retries);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{BoundsActed, Sending};

    const FREE: Sending = Sending {
        firsts_due: 10.0,
        retries_due: 5.0,
        firsts: 10.0,
        retries: 5.0,
        rate_limit: f64::INFINITY,
        pace: f64::INFINITY,
        budget: f64::INFINITY,
        quota: f64::INFINITY,
    };

    fn acted(seconds: &[Sending]) -> BoundsActed {
        let mut acted = BoundsActed::default();
        for second in seconds {
            acted.sent(second);
        }
        acted
    }

    /// A bound is credited only in a second where it was what stopped more from being sent.
    #[test]
    fn a_bound_acts_only_where_it_held_something_back() {
        assert_eq!(acted(&[FREE]), BoundsActed::default());
        // Reached, with nothing more due: not held back.
        let at_the_limit = Sending {
            rate_limit: 15.0,
            ..FREE
        };
        assert_eq!(acted(&[at_the_limit]), BoundsActed::default());
        let limited = Sending {
            rate_limit: 12.0,
            retries: 2.0,
            ..FREE
        };
        assert!(acted(&[FREE, limited]).rate_limit);
        // The budget let 1 retry through: the limit of 12 was never reached.
        let budgeted = Sending {
            rate_limit: 12.0,
            budget: 1.0,
            retries: 1.0,
            ..FREE
        };
        let found = acted(&[budgeted]);
        assert!(
            found.budget && !found.rate_limit && !found.quota,
            "{found:?}"
        );
        // Both let 3 through: both acted.
        let tied = Sending {
            budget: 3.0,
            quota: 3.0,
            retries: 3.0,
            ..FREE
        };
        let found = acted(&[tied]);
        assert!(found.budget && found.quota, "{found:?}");
        // A share of what is due sent a rounding error under the budget that set it.
        let shared = Sending {
            retries: 3.0 * (1.0 - 1e-15),
            budget: 3.0,
            ..FREE
        };
        assert!(acted(&[shared]).budget);
        let paced = Sending {
            pace: 12.0,
            retries: 2.0,
            ..FREE
        };
        let found = acted(&[paced]);
        assert!(found.pace && !found.rate_limit, "{found:?}");
        let mut paused = BoundsActed::default();
        paused.paused(0.0);
        assert!(!paused.pause);
        paused.paused(0.5);
        assert!(paused.pause);
    }
}
