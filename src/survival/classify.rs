//! One cell: the storm of an outage length at a headroom, and what became of the destination.

use serde::{Deserialize, Serialize};

use crate::storm::{DrainedBy, Spec, StormReport, Summary};

use super::{COLLAPSE_GOODPUT_SHARE, RECOVERY_WINDOW_S};

/// What the destination did after the outage (see the module's rules).
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "SurvivalOutcome"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The backlog was delivered within the recovery window.
    Recovers,
    /// Neither recovered within the window nor collapsed.
    Slow,
    /// Goodput in the recovery window stayed below half the arrival rate.
    Collapsed,
}

impl Outcome {
    /// The name in JSON and CSV.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Recovers => "recovers",
            Outcome::Slow => "slow",
            Outcome::Collapsed => "collapsed",
        }
    }
}

/// One cell of a series.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "SurvivalCell"))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// What became of the destination.
    pub outcome: Outcome,
    /// Seconds from the outage's end until the backlog was delivered (`drained_at_s` − outage
    /// end, when it drained by delivery within the recovery window), else `None`.
    pub recovery_s: Option<f64>,
    /// Deliveries exhausted by the end of the recovery window, as a share of those created.
    pub exhausted_share: f64,
    /// The busiest minute's attempts (up to the window's end) as a multiple of a minute of
    /// steady arrivals.
    pub peak_multiple: Option<f64>,
    /// Attempts answered within the timeout per second in the recovery window, divided by the
    /// arrival rate (above 1 while a backlog drains).
    pub goodput_vs_arrivals: f64,
}

impl Cell {
    /// Whether most of the cell's deliveries ran out of attempts (the storm's
    /// [`crate::storm::MOSTLY_EXHAUSTED_SHARE`]): a backlog that "recovers" so was cleared at
    /// their expense.
    pub fn mostly_exhausted(&self) -> bool {
        self.exhausted_share > crate::storm::MOSTLY_EXHAUSTED_SHARE
    }
}

/// The storm of one cell: `base` with an outage of `outage_s` from its start, a capacity of
/// `headroom` × its arrival rate, and traffic that lasts through the outage and the recovery
/// window after it.
pub fn cell_spec(base: &Spec, outage_s: f64, headroom: f64) -> Spec {
    let start = base.outage.0;
    let outage = outage_s as u32;
    Spec {
        outage: (start, outage),
        capacity_per_s: base.arrivals_per_s * headroom,
        traffic_s: start + outage + RECOVERY_WINDOW_S,
        batch: None,
        ..*base
    }
}

/// Whether the backlog was delivered within the recovery window: drained by delivery, with
/// `drained_at_s` (the second at whose end the backlog is drained) one of the window's 3,600
/// seconds, `E` to `E + 3599` for an outage ending at `E`. A backlog drained at the end of second
/// `E + 3600` took longer than the hour; the map does not simulate that second.
pub fn drained_within_the_hour(summary: &Summary) -> bool {
    summary.drained_by == Some(DrainedBy::Delivery)
        && summary
            .drained_at_s
            .is_some_and(|at| at < summary.outage_end_s + RECOVERY_WINDOW_S)
}

/// The cell's outcome from its storm (`spec` the cell's storm, as [`cell_spec`] made it).
pub fn classify(spec: &Spec, report: &StormReport) -> Cell {
    let summary = &report.summary;
    let end = summary.outage_end_s;
    let recovery_s = summary
        .drained_at_s
        .filter(|_| drained_within_the_hour(summary))
        // To the end of that second, as a storm's caption counts it.
        .map(|at| summary.after_recovery_s(at));
    let goodput_vs_arrivals =
        crate::storm::goodput_per_s(&report.minutes, end, RECOVERY_WINDOW_S) / spec.arrivals_per_s;
    let outcome = match recovery_s {
        Some(_) => Outcome::Recovers,
        None if goodput_vs_arrivals < COLLAPSE_GOODPUT_SHARE => Outcome::Collapsed,
        None => Outcome::Slow,
    };
    Cell {
        outcome,
        recovery_s,
        exhausted_share: if summary.arrivals > 0.0 {
            summary.exhausted / summary.arrivals
        } else {
            0.0
        },
        peak_multiple: summary.peak_multiple,
        goodput_vs_arrivals,
    }
}
