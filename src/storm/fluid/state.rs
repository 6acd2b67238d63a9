//! The engine's state between blocks, and how it starts.

use super::classes::{attempt_classes, Class};
use super::deciding::Fate;
use super::history::Histories;
use super::kernel::{self, Mass};
use super::{Shortcuts, MAX_BLOCK};
use crate::storm::acted::BoundsActed;
use crate::storm::breaker::BreakerState;
use crate::storm::budget::ExpectedBudget;
use crate::storm::destination::Queue;
use crate::storm::quota::ExpectedQuota;
use crate::storm::scenario::Units;
use crate::storm::Scenario;
use crate::Error;

/// The engine's state between blocks.
#[derive(Clone)]
pub(super) struct Fluid<'a> {
    pub scenario: &'a Scenario,
    pub units: Units,
    pub classes: Vec<Class>,
    /// The soonest, in whole seconds, that anything failing in a second comes due (1 to 64).
    pub soonest: usize,
    pub answers_429: bool,
    /// Only a bound holds deliveries back; without one, whatever is due is sent.
    pub bounded: bool,
    pub histories: Histories,
    /// What came due in each class (row of `MAX_BLOCK`) in each second of the block; after
    /// the decisions, what was sent of it.
    pub came_due: Vec<Mass>,
    /// Per class, whether nothing came due in it over the block: then its row of `came_due` is
    /// not read (it may hold an earlier block's values).
    pub nothing_due: Vec<bool>,
    pub came_total: [Mass; MAX_BLOCK],
    pub fates: [Fate; MAX_BLOCK],
    pub runs_before: Vec<(Mass, Mass)>,
    /// Held back by a bound: per retry class, and in total.
    pub held: Vec<Mass>,
    pub held_firsts: f64,
    pub held_retries: Mass,
    pub created: f64,
    pub delivered: f64,
    pub exhausted: f64,
    /// Failed and waiting for their retry to come due.
    pub pending_calendar: f64,
    pub queue: Queue,
    pub budget: ExpectedBudget,
    pub quota: ExpectedQuota,
    pub breaker: BreakerState,
    /// Which bounds held something back so far.
    pub acted: BoundsActed,
    /// Classes up to `active` have held something; only they can have something due.
    pub active: usize,
    /// Class-seconds worked through: the seconds of each history read, plus those of each
    /// class that had something due or held (a quiet class, or one with nothing due and
    /// nothing held, counts nothing).
    pub worked: f64,
    /// Held mass below this is dropped ([`Mass::without_dust`]).
    pub dust: f64,
}

impl<'a> Fluid<'a> {
    pub fn new(scenario: &'a Scenario, units: Units, shortcuts: Shortcuts) -> Result<Self, Error> {
        let (classes, cells) = attempt_classes(scenario, &units).map_err(Error::from)?;
        let answers_429 = units.retry_after_us.is_some();
        let soonest = soonest_due(&classes, answers_429);
        let bounds = &scenario.bounds;
        let count = classes.len();
        Ok(Fluid {
            scenario,
            units,
            soonest,
            answers_429,
            bounded: bounds.pause
                || bounds.rate_limit_per_s.is_some()
                || bounds.budget.is_some()
                || bounds.retry_quota.is_some()
                || bounds.breaker.is_some(),
            histories: Histories::new(count, cells, answers_429, shortcuts.quiet_histories),
            came_due: vec![Mass::ZERO; count * MAX_BLOCK],
            nothing_due: vec![true; count],
            came_total: [Mass::ZERO; MAX_BLOCK],
            fates: [Fate::default(); MAX_BLOCK],
            runs_before: vec![(Mass::ZERO, Mass::ZERO); count],
            held: vec![Mass::ZERO; count],
            held_firsts: 0.0,
            held_retries: Mass::ZERO,
            created: 0.0,
            delivered: 0.0,
            exhausted: 0.0,
            pending_calendar: 0.0,
            queue: Queue::default(),
            budget: ExpectedBudget::new(&units),
            quota: ExpectedQuota::new(&units),
            breaker: BreakerState::new(units.breaker),
            acted: BoundsActed::default(),
            active: 0,
            worked: 0.0,
            dust: if shortcuts.drop_dust {
                kernel::DUST
            } else {
                0.0
            },
            classes,
        })
    }

    /// This state going on as `scenario` (see [`super::FluidStorm::branch`]).
    pub fn continued_as(&self, scenario: &'a Scenario) -> Fluid<'a> {
        Fluid {
            scenario,
            units: *scenario.units(),
            ..self.clone()
        }
    }

    /// Counts classes up to `top` as active once something reached `top`.
    pub fn activate(&mut self, top: usize, reached_top: bool) {
        if reached_top {
            self.active = self.active.max(top);
        }
    }
}

/// The soonest, in whole seconds (1 to `MAX_BLOCK`), that anything failing in a second comes
/// due in any retry class.
fn soonest_due(classes: &[Class], answers_429: bool) -> usize {
    classes[1..]
        .iter()
        .map(|class| {
            let rejected = if answers_429 {
                class.rejected.soonest()
            } else {
                usize::MAX
            };
            class.timeout.soonest().min(rejected)
        })
        .min()
        .unwrap_or(MAX_BLOCK)
        .clamp(1, MAX_BLOCK)
}
