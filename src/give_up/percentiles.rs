//! The percentiles every give-up figure reports, exact or sampled.

use serde::{Deserialize, Serialize};

/// The percentiles reported everywhere.
pub const LEVELS: [f64; 5] = [0.01, 0.05, 0.50, 0.95, 0.99];

/// Give-up time percentiles, in seconds.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Percentiles {
    /// 1st percentile.
    pub p1: f64,
    /// 5th percentile.
    pub p5: f64,
    /// Median.
    pub p50: f64,
    /// 95th percentile.
    pub p95: f64,
    /// 99th percentile.
    pub p99: f64,
}

impl Percentiles {
    /// The percentiles at [`LEVELS`], each from `at(level)`.
    pub(super) fn from_fn(at: impl FnMut(f64) -> f64) -> Self {
        Self::from_values(LEVELS.map(at))
    }

    /// The percentiles at [`LEVELS`], in their order.
    pub(super) fn from_values([p1, p5, p50, p95, p99]: [f64; 5]) -> Self {
        Percentiles {
            p1,
            p5,
            p50,
            p95,
            p99,
        }
    }

    /// The percentiles as (level, seconds) pairs, lowest first.
    pub fn pairs(&self) -> [(f64, f64); 5] {
        [
            (0.01, self.p1),
            (0.05, self.p5),
            (0.50, self.p50),
            (0.95, self.p95),
            (0.99, self.p99),
        ]
    }
}
