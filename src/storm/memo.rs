//! The last few storms and their reports, kept by the page's edge.

use super::{simulate, Engine, Scenario, StormReport};
use crate::Error;

/// The last few simulations and their reports, so that a page redrawn after a change that
/// leaves a scenario as it was (a policy slider under a fixed-interval comparison) does not
/// simulate it again.
#[derive(Debug, Default)]
pub struct Memo {
    /// Most recent first.
    pub(super) entries: Vec<(Scenario, Engine, StormReport)>,
}

impl Memo {
    /// How many reports it keeps: the page draws at most four series.
    pub const CAPACITY: usize = 8;

    /// The report of `scenario` on `engine`, from memory or simulated (without per-second rows).
    pub fn simulate(&mut self, scenario: &Scenario, engine: Engine) -> Result<StormReport, Error> {
        let found = self
            .entries
            .iter()
            .position(|(s, e, _)| s == scenario && *e == engine);
        let entry = match found {
            Some(i) => self.entries.remove(i),
            None => (*scenario, engine, simulate(scenario, engine, false)?),
        };
        let report = entry.2.clone();
        self.entries.insert(0, entry);
        self.entries.truncate(Self::CAPACITY);
        Ok(report)
    }
}
