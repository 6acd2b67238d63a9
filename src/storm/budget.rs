//! The retry budget's trailing window: in any second, the retries sent over the window's
//! seconds (this one included) may be at most `share × first attempts sent over them + floor ×
//! window` (rounded down in whole attempts); what exceeds it is held.

use std::ops::{Add, Sub};

use super::scenario::{Units, MICRO};

/// The first attempts and retries sent in each second of the trailing window, and their sums.
#[derive(Debug, Clone)]
struct Window<T> {
    firsts: Vec<T>,
    retries: Vec<T>,
    slot: usize,
    firsts_sum: T,
    retries_sum: T,
}

impl<T: Copy + Default + Add<Output = T> + Sub<Output = T> + std::iter::Sum> Window<T> {
    fn new(seconds: u32) -> Self {
        let len = seconds.max(1) as usize;
        Window {
            firsts: vec![T::default(); len],
            retries: vec![T::default(); len],
            slot: 0,
            firsts_sum: T::default(),
            retries_sum: T::default(),
        }
    }

    /// Opens `second` with its first attempts: the window's first attempts (this second's
    /// included) and its retries before this second.
    fn open(&mut self, second: u32, firsts: T) -> (T, T) {
        self.slot = second as usize % self.firsts.len();
        self.firsts_sum = self.firsts_sum + firsts - self.firsts[self.slot];
        self.retries_sum = self.retries_sum - self.retries[self.slot];
        self.firsts[self.slot] = firsts;
        self.retries[self.slot] = T::default();
        if self.slot == 0 {
            // Summed afresh once per lap, so that rounding cannot build up in floating point.
            self.firsts_sum = self.firsts.iter().copied().sum();
            self.retries_sum = self.retries.iter().copied().sum();
        }
        (self.firsts_sum, self.retries_sum)
    }

    fn record(&mut self, retries: T) {
        self.retries_sum = self.retries_sum - self.retries[self.slot] + retries;
        self.retries[self.slot] = retries;
    }
}

/// The budget in whole attempts (discrete engine).
#[derive(Debug, Clone)]
pub(crate) struct ExactBudget {
    window: Option<Window<u64>>,
    ppm: u64,
    /// The floor over the whole window, in millionths of a retry: whole retries, the floor
    /// rate's count over the window as every rate's ([`Units::whole_by`]).
    floor: u128,
}

impl ExactBudget {
    pub fn new(units: &Units) -> Self {
        ExactBudget {
            window: units.budget_ppm.map(|_| Window::new(units.budget_window_s)),
            ppm: units.budget_ppm.unwrap_or(0),
            floor: u128::from(floor_retries(units)) * u128::from(MICRO),
        }
    }

    /// Opens `second` with the first attempts sent in it: the retries the budget allows in it
    /// (`u64::MAX` without a budget).
    pub fn open(&mut self, second: u32, firsts: u64) -> u64 {
        let (ppm, floor) = (self.ppm, self.floor);
        let Some(window) = &mut self.window else {
            return u64::MAX;
        };
        let (firsts, retries) = window.open(second, firsts);
        let allowed = (u128::from(ppm) * u128::from(firsts) + floor) / u128::from(MICRO);
        (allowed as u64).saturating_sub(retries)
    }

    /// Records the retries sent in the second opened last.
    pub fn record(&mut self, retries: u64) {
        if let Some(window) = &mut self.window {
            window.record(retries);
        }
    }
}

/// The retries the floor allows over the budget's window: its rate's whole count over the
/// window, rounded as every rate's count is (20/min over 60 s is 20; cut, it was 19, from
/// 333,333 millionths a second).
fn floor_retries(units: &Units) -> u64 {
    Units::whole_by(units.budget_floor, u64::from(units.budget_window_s))
}

/// The budget on expected values (fluid engine): the same sums and the same rounding down of
/// the allowance (first attempts are whole here whenever the arrivals are).
#[derive(Debug, Clone)]
pub(crate) struct ExpectedBudget {
    window: Option<Window<f64>>,
    share: f64,
    floor: f64,
}

impl ExpectedBudget {
    pub fn new(units: &Units) -> Self {
        ExpectedBudget {
            window: units.budget_ppm.map(|_| Window::new(units.budget_window_s)),
            share: units.budget_ppm.unwrap_or(0) as f64 / MICRO as f64,
            floor: floor_retries(units) as f64,
        }
    }

    /// Opens `second` with the first attempts sent in it: the retries the budget allows in it
    /// (infinite without a budget).
    pub fn open(&mut self, second: u32, firsts: f64) -> f64 {
        let (share, floor) = (self.share, self.floor);
        let Some(window) = &mut self.window else {
            return f64::INFINITY;
        };
        let (firsts, retries) = window.open(second, firsts);
        // The small term keeps 0.1 × 70 = 7.000000000000001 - 1e-15 from flooring to 6.
        ((share * firsts + floor + 1e-9).floor() - retries).max(0.0)
    }

    /// Records the retries sent in the second opened last.
    pub fn record(&mut self, retries: f64) {
        if let Some(window) = &mut self.window {
            window.record(retries);
        }
    }
}
