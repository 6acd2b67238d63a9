//! A drawn chart's numbers as a table of text, for readers who cannot see the chart (the
//! `<backoff-lab>` element shows it in a disclosure under the chart) and for copying: the
//! same numbers the caption and the exports give, one table per view.

use serde::{Deserialize, Serialize};

use super::compute::{Computed, StormDrawn};
use crate::duration::format_precise;
use crate::give_up::JitterReport;
use crate::herd::Herd;
use crate::number_text::format_count;
use crate::staleness::StalenessReport;
use crate::{format_duration, ScheduleReport};

/// A table of text: a header row and rows of the same length.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct NumberTable {
    /// The column headings.
    pub headers: Vec<String>,
    /// One entry per column in each row.
    pub rows: Vec<Vec<String>>,
}

impl NumberTable {
    /// The table as CSV (RFC 4180: a cell with a comma, a quote or a line break is quoted, its
    /// quotes doubled), the header row first.
    pub fn to_csv(&self) -> String {
        let cell = |text: &String| {
            if text.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", text.replace('"', "\"\""))
            } else {
                text.clone()
            }
        };
        std::iter::once(&self.headers)
            .chain(&self.rows)
            .map(|row| row.iter().map(cell).collect::<Vec<_>>().join(",") + "\n")
            .collect()
    }

    fn new(headers: &[&str], rows: Vec<Vec<String>>) -> Self {
        NumberTable {
            headers: headers.iter().map(|h| h.to_string()).collect(),
            rows,
        }
    }
}

fn optional_duration(seconds: Option<f64>) -> String {
    seconds.map_or_else(|| "—".to_string(), format_duration)
}

fn share(value: f64) -> String {
    format!("{:.2}%", value * 100.0)
}

fn count(value: f64) -> String {
    format!("{:.0}", value.round())
}

/// Attempt, gap and time of each attempt.
pub fn schedule_table(report: &ScheduleReport) -> NumberTable {
    let rows = report
        .rows
        .iter()
        .map(|row| {
            vec![
                row.attempt.to_string(),
                row.gap_text.clone(),
                row.elapsed_text.clone(),
            ]
        })
        .collect();
    NumberTable::new(&["attempt", "gap before it", "time of the attempt"], rows)
}

/// The give-up time's percentiles and mean, exact (where computed) and sampled.
fn distribution_table(report: &JitterReport) -> NumberTable {
    let (exact, sampled) = (&report.summary.percentiles, &report.sampled.percentiles);
    let rows = [
        ("p1", exact.p1, sampled.p1),
        ("p5", exact.p5, sampled.p5),
        ("p50", exact.p50, sampled.p50),
        ("p95", exact.p95, sampled.p95),
        ("p99", exact.p99, sampled.p99),
        (
            "mean",
            report.summary.expected_give_up_s,
            report.sampled.mean_s,
        ),
    ]
    .into_iter()
    .map(|(name, exact, sampled)| {
        vec![
            name.to_string(),
            format_duration(exact),
            format_duration(sampled),
        ]
    })
    .collect();
    let first = if report.summary.exact {
        "exact"
    } else {
        "computed"
    };
    NumberTable::new(
        &[
            "give-up time",
            first,
            &format!("{} samples", format_count(report.sampled.samples as f64)),
        ],
        rows,
    )
}

/// The first retries' peak and mean rate, with the chosen jitter and without.
fn herd_table(spread: &Herd, spike: &Herd) -> NumberTable {
    let row = |label: &str, herd: &Herd| {
        vec![
            label.to_string(),
            format!("{:.1}/s", herd.first_retry.peak_per_s),
            format!("{:.1}/s", herd.first_retry.mean_per_s),
            format!("{:.1}×", herd.first_retry.peak_to_mean),
        ]
    };
    NumberTable::new(
        &["first retries", "peak", "mean", "peak ÷ mean"],
        vec![
            row(&format!("{} jitter", spread.mode), spread),
            row("no jitter", spike),
        ],
    )
}

/// Each storm series' outcome.
pub fn storm_table(storms: &[StormDrawn]) -> NumberTable {
    let rows = storms
        .iter()
        .map(|storm| {
            let s = &storm.summary;
            vec![
                storm.label.clone(),
                count(s.delivered),
                count(s.exhausted),
                count(s.duplicates),
                count(s.peak_attempts_per_min),
                // From recovery, as the caption counts it ("drains 6 h 57 min after recovery").
                optional_duration(s.drained_at_s.map(|at| s.after_recovery_s(at))),
            ]
        })
        .collect();
    NumberTable::new(
        &[
            "series",
            "delivered",
            "exhausted",
            "duplicates",
            "peak attempts/min",
            "drained after recovery",
        ],
        rows,
    )
}

/// The derived answers, then the outage read off: its first event's fate and the shares of all
/// its events.
fn staleness_table(report: &StalenessReport) -> NumberTable {
    let mut rows = vec![
        ("give-up time".to_string(), format_precise(report.give_up_s)),
        (
            "longest outage whose first event is delivered".to_string(),
            report.boundary_text(report.longest_delivered_outage_s),
        ),
        (
            "outages whose events all arrive fresh, up to".to_string(),
            report
                .all_fresh_up_to_s
                .map_or_else(|| "—".to_string(), |s| report.boundary_text(s)),
        ),
        (
            "largest recovery lag after a long outage".to_string(),
            format_duration(report.max_recovery_lag_s),
        ),
    ];
    for outage in &report.outages {
        let (first, all) = (&outage.first_event, &outage.all_events);
        let after = format!(
            "after {} outage",
            crate::duration::with_article(&format_precise(outage.outage_s))
        );
        rows.push((
            format!("{after}: the first event's attempt"),
            first
                .attempt
                .map_or_else(|| "none: exhausted".into(), |a| a.to_string()),
        ));
        rows.push((
            format!("{after}: the first event's lag after recovery"),
            optional_duration(first.lag_s),
        ));
        rows.push((
            format!("{after}: the first event's age"),
            optional_duration(first.age_s),
        ));
        rows.push((
            format!("{after}: share of its events exhausted"),
            share(all.exhausted_share),
        ));
        if let Some(stale) = all.stale_share {
            rows.push((format!("{after}: share delivered stale"), share(stale)));
        }
    }
    NumberTable::new(
        &["question", "answer"],
        rows.into_iter().map(|(q, a)| vec![q, a]).collect(),
    )
}

/// The table of a view other than the timeline and the storm (whose tables come with their
/// drawing), from what its costly step found.
pub fn computed_table(computed: &Computed) -> NumberTable {
    match computed {
        Computed::Timeline | Computed::Storm { .. } | Computed::Survival { .. } => {
            NumberTable::default()
        }
        Computed::Distribution { report } => distribution_table(report),
        Computed::Herd { spread, spike } => herd_table(spread, spike),
        Computed::Staleness { chart } => staleness_table(&chart.report),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Policy;

    #[test]
    fn the_articles_schedule_table_lists_every_attempt() {
        let report = ScheduleReport::new(&Policy::article().schedule(), 1_200.0);
        let table = schedule_table(&report);
        assert_eq!(table.rows.len(), 14);
        assert_eq!(table.rows[7][0], "8");
        assert_eq!(table.rows[7][2], report.rows[7].elapsed_text);
        assert!(table
            .rows
            .iter()
            .all(|row| row.len() == table.headers.len()));
    }

    /// The element's table read "drained at 7 h 27 min" (from the storm's start) beside a
    /// caption's "drains 6 h 57 min after recovery": both count from recovery.
    #[test]
    fn a_storm_drains_after_recovery_in_the_table_as_in_its_caption() {
        let scenario = crate::storm::Scenario::article_fixed();
        let report = crate::storm::simulate(&scenario, crate::Engine::Fluid, false).unwrap();
        let drawn = StormDrawn {
            label: "fixed 30 s".into(),
            caption: report.caption.clone(),
            summary: report.summary,
        };
        let table = storm_table(&[drawn]);
        assert_eq!(table.headers[5], "drained after recovery");
        let after = &table.rows[0][5];
        assert_ne!(after, "—");
        assert!(
            report.caption.contains(&format!("{after} after recovery")),
            "{after}: {}",
            report.caption
        );
    }

    #[test]
    fn csv_quotes_what_would_split_a_cell() {
        let table = NumberTable::new(
            &["series", "delivered"],
            vec![vec!["fixed, 30 s \"x\"".into(), "12".into()]],
        );
        assert_eq!(
            table.to_csv(),
            "series,delivered\n\"fixed, 30 s \"\"x\"\"\",12\n"
        );
    }

    #[test]
    fn a_four_hour_outage_row_gives_the_worked_examples_lag_and_age() {
        let question =
            crate::staleness::Question::new(&Policy::article(), crate::jitter::Jitter::None, 0)
                .unwrap();
        let report = StalenessReport::new(&question, &[14_400.0], None).unwrap();
        let table = staleness_table(&report);
        let answer = |q: &str| {
            table
                .rows
                .iter()
                .find(|row| row[0].ends_with(q))
                .map(|row| row[1].clone())
                .unwrap()
        };
        assert_eq!(answer("the first event's attempt"), "8");
        assert_eq!(
            answer("the first event's lag after recovery"),
            format_duration(7_320.0)
        );
        assert_eq!(answer("the first event's age"), format_duration(21_720.0));
    }
}
