//! The map in words, as a table and as CSV.

use super::{Outcome, Series, SurvivalMap};
use crate::format_duration;

/// The index of the headroom nearest `current` on a log axis.
pub(super) fn nearest(headroom: &[f64], current: f64) -> usize {
    let distance = |h: f64| (h.ln() - current.ln()).abs();
    (0..headroom.len())
        .min_by(|&a, &b| distance(headroom[a]).total_cmp(&distance(headroom[b])))
        .unwrap_or(0)
}

fn survives(boundary: Option<f64>, outages_s: &[f64]) -> String {
    match boundary {
        None => format!(
            "collapses even after a {} outage",
            format_duration(outages_s[0])
        ),
        Some(b) if Some(&b) == outages_s.last() => {
            format!("survives every outage up to {}", format_duration(b))
        }
        Some(b) => format!("survives outages up to {}", format_duration(b)),
    }
}

/// "At 3.0× headroom your policy survives outages up to 4 min; fixed 30 s …" at the axis'
/// headroom nearest the scenario's.
pub(super) fn caption(
    headroom: &[f64],
    current: f64,
    series: &[Series],
    outages_s: &[f64],
) -> String {
    let at = nearest(headroom, current);
    let parts: Vec<String> = series
        .iter()
        .map(|s| format!("{} {}", s.label, survives(s.boundary[at], outages_s)))
        .collect();
    format!(
        "At {:.2}× headroom (capacity ÷ arrivals), {}. A cell recovers when its backlog is \
         delivered within 1 h of the outage's end, and collapses when goodput in that hour stays \
         below half the arrival rate.",
        headroom[at],
        parts.join("; ")
    )
}

fn letter(outcome: Outcome) -> char {
    match outcome {
        Outcome::Recovers => '.',
        Outcome::Slow => 's',
        Outcome::Collapsed => 'X',
    }
}

impl SurvivalMap {
    /// Each series as a grid of letters (`.` recovers, `s` slow, `X` collapsed), headroom
    /// rows from the largest down, with its boundary, then the caption.
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        for series in &self.series {
            out += &format!("{}\n", series.label);
            for (i, row) in series.cells.iter().enumerate().rev() {
                let cells: String = row.iter().map(|c| letter(c.outcome)).collect();
                let boundary = series.boundary[i]
                    .map_or("collapses from the shortest outage".into(), |s| {
                        format!("survives up to {}", format_duration(s))
                    });
                out += &format!("  {:>8.2}×  {cells}  {boundary}\n", self.headroom[i]);
            }
            out += &format!(
                "  outages    {} … {}\n\n",
                format_duration(self.outages_s[0]),
                format_duration(*self.outages_s.last().unwrap_or(&0.0))
            );
        }
        out += "`.` recovers, `s` recovers slowly, `X` collapsed.\n";
        out += &self.caption;
        out.push('\n');
        out
    }

    /// One line per cell of every series.
    pub fn to_csv(&self) -> String {
        let mut out = String::from(
            "series,headroom,outage_s,outcome,recovery_s,exhausted_share,peak_multiple,goodput_vs_arrivals\n",
        );
        let optional = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v}"));
        for series in &self.series {
            for (row, &headroom) in series.cells.iter().zip(&self.headroom) {
                for (cell, &outage) in row.iter().zip(&self.outages_s) {
                    out += &format!(
                        "{},{headroom},{outage},{},{},{},{},{}\n",
                        series.label,
                        cell.outcome.name(),
                        optional(cell.recovery_s),
                        cell.exhausted_share,
                        optional(cell.peak_multiple),
                        cell.goodput_vs_arrivals,
                    );
                }
            }
        }
        out
    }
}
