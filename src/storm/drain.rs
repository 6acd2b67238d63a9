//! How a storm's backlog ended after its outage, as its caption and the page's table of numbers
//! both say it (the table read "8 h 36 min, by exhaustion" where the caption said the backlog was
//! gone "partly because 79 deliveries ran out of attempts", and "1 s" drained for a storm whose
//! every delivery ran out during the outage).

use super::report::{DrainedBy, Summary};

/// How the backlog ended; the seconds a variant holds count from the outage's end to the end of
/// the second it drained in ([`Summary::after_recovery_s`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Drain {
    /// A storm without an outage that kept up: nothing to drain.
    NoOutage,
    /// A storm without an outage whose destination never catches up: more than half the
    /// deliveries ran out of attempts.
    NeverCatchesUp,
    /// Not drained when the simulation stopped.
    NotDrained,
    /// More than half the deliveries ran out of attempts and the backlog went by exhaustion.
    ByExhaustion(f64),
    /// Every delivery ran out of attempts during the outage: nothing was left at recovery.
    AllExhaustedInOutage,
    /// More than half ran out during the outage; what was left at recovery drained.
    MostExhaustedInOutage(f64),
    /// Delivered.
    ByDelivery(f64),
    /// Gone, but partly because deliveries ran out of attempts after recovery.
    PartlyByExhaustion(f64),
}

impl Drain {
    /// How the backlog of a storm with an outage of `outage_s` seconds ended, by its summary.
    /// "Most" is more than half of the deliveries that arrived; "every" is under half a
    /// delivery delivered. Without an outage (`outage_s` 0) it is [`Drain::NeverCatchesUp`],
    /// [`Drain::NotDrained`] or [`Drain::NoOutage`], in that order.
    pub fn of(summary: &Summary, outage_s: u32) -> Drain {
        let mostly_exhausted = summary.mostly_exhausted();
        if outage_s == 0 && mostly_exhausted {
            return Drain::NeverCatchesUp;
        }
        let Some(at) = summary.drained_at_s else {
            return Drain::NotDrained;
        };
        let after_s = summary.after_recovery_s(at);
        match summary.drained_by {
            _ if outage_s == 0 => Drain::NoOutage,
            Some(DrainedBy::Exhaustion) if mostly_exhausted => Drain::ByExhaustion(after_s),
            _ if mostly_exhausted && summary.delivered < 0.5 => Drain::AllExhaustedInOutage,
            _ if mostly_exhausted => Drain::MostExhaustedInOutage(after_s),
            Some(DrainedBy::Delivery) => Drain::ByDelivery(after_s),
            _ => Drain::PartlyByExhaustion(after_s),
        }
    }
}
