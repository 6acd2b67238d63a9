//! A piecewise-uniform mixture: the exact distribution of the recovery lag of an outage's
//! delivered events under an unjittered schedule. Its distribution function is piecewise
//! linear, so its percentiles are exact (no grid, no sampling).

/// One uniform component: values uniform over `[lo, hi)`, carrying `weight` (a measure of
/// arrival times, in seconds).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Piece {
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    pub(crate) weight: f64,
}

/// A mixture of uniform pieces with positive widths and weights.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Mixture {
    pieces: Vec<Piece>,
    total: f64,
}

impl Mixture {
    /// The mixture of `pieces`; pieces without weight or width are dropped (they hold no events).
    pub(crate) fn new(mut pieces: Vec<Piece>) -> Self {
        pieces.retain(|p| p.weight > 0.0 && p.hi > p.lo);
        let total = pieces.iter().map(|p| p.weight).sum();
        Mixture { pieces, total }
    }

    /// The mean value. The answers take it from the timeline's running sums (no scan); this
    /// direct form cross-checks them in tests.
    #[cfg(test)]
    pub(crate) fn mean(&self) -> f64 {
        let sum: f64 = self
            .pieces
            .iter()
            .map(|p| p.weight * (p.lo + p.hi) / 2.0)
            .sum();
        if self.total > 0.0 {
            sum / self.total
        } else {
            0.0
        }
    }

    /// The share of values at or below `x`.
    pub(crate) fn cdf(&self, x: f64) -> f64 {
        let below: f64 = self
            .pieces
            .iter()
            .map(|p| p.weight * ((x - p.lo) / (p.hi - p.lo)).clamp(0.0, 1.0))
            .sum();
        below / self.total
    }

    /// The smallest value with a share `level` of the values at or below it. The distribution
    /// function is linear between consecutive piece ends, so the crossing is found on the
    /// sorted ends and solved on its segment.
    pub(crate) fn quantile(&self, level: f64) -> f64 {
        let mut ends: Vec<f64> = self.pieces.iter().flat_map(|p| [p.lo, p.hi]).collect();
        ends.sort_by(f64::total_cmp);
        ends.dedup();
        // Pieces narrower than the precision of their times were dropped: nothing to split.
        let Some(&first) = ends.first() else {
            return 0.0;
        };
        let mut previous = (first, 0.0);
        for &x in &ends[1..] {
            let at = self.cdf(x);
            if at >= level {
                let (x0, f0) = previous;
                // The distribution function rises on this segment (it reached `level` here).
                return x0 + (x - x0) * (level - f0) / (at - f0);
            }
            previous = (x, at);
        }
        previous.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand() -> Mixture {
        // The outage of 40 s under gaps 10, 20, 30 (see timeline.rs).
        Mixture::new(vec![
            Piece {
                lo: 0.0,
                hi: 10.0,
                weight: 10.0,
            },
            Piece {
                lo: 0.0,
                hi: 20.0,
                weight: 20.0,
            },
            Piece {
                lo: 20.0,
                hi: 30.0,
                weight: 10.0,
            },
        ])
    }

    #[test]
    fn mean_max_and_percentiles_by_hand() {
        let m = hand();
        assert_eq!(m.mean(), 12.5);
        // F(x) = 2x/40 on [0, 10]; (30 + (x − 20))/40 on [20, 30].
        assert_eq!(m.cdf(10.0), 0.5);
        assert_eq!(m.quantile(0.5), 10.0);
        assert!((m.quantile(0.95) - 28.0).abs() < 1e-12);
        assert_eq!(m.quantile(0.0), 0.0);
        assert_eq!(m.quantile(1.0), 30.0);
    }

    #[test]
    fn a_flat_stretch_gives_its_smallest_value() {
        // Half the mass in [0, 1), half in [9, 10): the median is 1, where the flat part starts.
        let m = Mixture::new(vec![
            Piece {
                lo: 0.0,
                hi: 1.0,
                weight: 1.0,
            },
            Piece {
                lo: 9.0,
                hi: 10.0,
                weight: 1.0,
            },
        ]);
        assert_eq!(m.quantile(0.5), 1.0);
        assert_eq!(m.quantile(0.75), 9.5);
    }
}
