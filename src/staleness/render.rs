//! The staleness report as text: an aligned table for a terminal, Markdown for a design doc and
//! CSV for a spreadsheet.

use crate::format_duration;

use super::report::StalenessReport;

/// The human columns of the table and the Markdown.
const HEADER: [&str; 13] = [
    "Outage",
    "First event",
    "First lag",
    "First age",
    "Exhausted",
    "Replay",
    "Fresh",
    "Stale",
    "Mean lag",
    "p50 lag",
    "p95 lag",
    "Max lag",
    "Max age",
];

/// The CSV header: seconds and shares as plain numbers.
const CSV_HEADER: &str = "outage_s,first_outcome,first_attempt,first_lag_s,first_age_s,\
delivered_share,exhausted_share,fresh_share,stale_share,lag_mean_s,lag_p50_s,lag_p95_s,\
lag_max_s,age_max_s,exhausted_stale_share";

impl StalenessReport {
    /// One aligned line per outage under a header, then the caption and any findings.
    ///
    /// # Example
    /// ```
    /// use backoff_lab::jitter::Jitter;
    /// use backoff_lab::staleness::{Question, StalenessReport};
    /// use backoff_lab::Policy;
    /// let question = Question::new(&Policy::article(), Jitter::None, 0)?;
    /// let table = StalenessReport::new(&question, &[14_400.0], None)?.to_table();
    /// assert!(table.lines().nth(2).unwrap().starts_with("4 h     attempt 8    2 h 02 min  6 h 02 min"));
    /// # Ok::<(), backoff_lab::Error>(())
    /// ```
    pub fn to_table(&self) -> String {
        let rows = self.cells();
        let widths: Vec<usize> = (0..HEADER.len())
            .map(|i| {
                rows.iter()
                    .map(|row| row[i].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = String::new();
        for (n, row) in rows.iter().enumerate() {
            let line: Vec<String> = row
                .iter()
                .zip(&widths)
                .map(|(cell, width)| format!("{cell:<width$}"))
                .collect();
            out += line.join("  ").trim_end();
            out.push('\n');
            if n == 0 {
                out += &"-".repeat(widths.iter().sum::<usize>() + 2 * (widths.len() - 1));
                out.push('\n');
            }
        }
        out.push('\n');
        for sentence in self.sentences() {
            out += &format!("{sentence}\n");
        }
        out
    }

    /// A Markdown table, then the caption and any findings as a list.
    pub fn to_markdown(&self) -> String {
        let rows = self.cells();
        let mut out = String::new();
        for (n, row) in rows.iter().enumerate() {
            out += &format!("| {} |\n", row.join(" | "));
            if n == 0 {
                out += &format!("|{}\n", " ---: |".repeat(HEADER.len()));
            }
        }
        out.push('\n');
        for sentence in self.sentences() {
            out += &format!("- {sentence}\n");
        }
        out
    }

    /// CSV with a header and one line per outage; an empty field where a value is `null`.
    pub fn to_csv(&self) -> String {
        let mut out = format!("{CSV_HEADER}\n");
        for o in &self.outages {
            let (first, all) = (&o.first_event, &o.all_events);
            let fields = [
                o.outage_s.to_string(),
                first.outcome.name().to_string(),
                number(first.attempt.map(f64::from)),
                number(first.lag_s),
                number(first.age_s),
                number(Some(all.delivered_share)),
                number(Some(all.exhausted_share)),
                number(all.fresh_share),
                number(all.stale_share),
                number(all.lag_mean_s),
                number(all.lag_p50_s),
                number(all.lag_p95_s),
                number(all.lag_max_s),
                number(all.age_max_s),
                number(all.exhausted_stale_share),
            ];
            out += &fields.join(",");
            out.push('\n');
        }
        out
    }

    /// The caption, then the suggestion's findings.
    fn sentences(&self) -> Vec<String> {
        let mut sentences = vec![self.caption()];
        sentences.extend(self.suggestion_findings());
        sentences
    }

    fn cells(&self) -> Vec<Vec<String>> {
        let header = HEADER.iter().map(|h| h.to_string()).collect();
        let body = self.outages.iter().map(|o| {
            let (first, all) = (&o.first_event, &o.all_events);
            let [exhausted, replay, fresh, stale] = shares(all);
            vec![
                crate::duration::format_precise(o.outage_s),
                match first.attempt {
                    Some(attempt) => format!("attempt {attempt}"),
                    None => "exhausted".to_string(),
                },
                duration(first.lag_s),
                duration(first.age_s),
                exhausted,
                replay,
                fresh,
                stale,
                duration(all.lag_mean_s),
                duration(all.lag_p50_s),
                duration(all.lag_p95_s),
                duration(all.lag_max_s),
                duration(all.age_max_s),
            ]
        });
        std::iter::once(header).chain(body).collect()
    }
}

/// A row's shares as the table writes them: exhausted, the part of it worth a replay, fresh and
/// stale. With a tolerance the exhausted events worth a replay, those already stale, the fresh
/// and the stale make the whole, their tenths adding up to 100.0% (so they read as the caption's
/// split does), and Exhausted is the sum of its two parts' tenths.
fn shares(all: &super::outage::AllEvents) -> [String; 4] {
    use crate::number_text::{percent_of_units, units_adding_up};
    match (all.fresh_share, all.stale_share, all.exhausted_stale_share) {
        (Some(fresh), Some(stale), Some(exhausted_stale)) => {
            let parts = [
                all.exhausted_share - exhausted_stale,
                exhausted_stale,
                fresh,
                stale,
            ];
            let tenths = units_adding_up(&parts, 1);
            let [replay, already, fresh, stale] = [tenths[0], tenths[1], tenths[2], tenths[3]];
            [replay + already, replay, fresh, stale].map(|t| percent_of_units(t, 1))
        }
        _ => [
            percent(Some(all.exhausted_share)),
            percent(None),
            percent(None),
            percent(None),
        ],
    }
}

fn duration(seconds: Option<f64>) -> String {
    seconds.map_or_else(|| "–".to_string(), format_duration)
}

fn percent(share: Option<f64>) -> String {
    share.map_or_else(|| "–".to_string(), |s| format!("{:.1}%", s * 100.0))
}

fn number(value: Option<f64>) -> String {
    value.map(crate::report::csv_number).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use crate::jitter::Jitter;
    use crate::staleness::{Question, StalenessReport};
    use crate::Policy;

    fn report() -> StalenessReport {
        let question = Question::new(&Policy::article(), Jitter::None, 0)
            .and_then(|q| q.with_tolerance(6.0 * 3_600.0))
            .unwrap();
        StalenessReport::new(&question, &[600.0, 14_400.0, 172_800.0], Some(3_600.0)).unwrap()
    }

    #[test]
    fn table_lines() {
        let table = report().to_table();
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[0].starts_with("Outage  First event  First lag"));
        assert!(lines[2].starts_with("10 min  attempt 5    10 min"));
        assert!(lines[4].starts_with("48 h    exhausted    –"));
        assert!(lines[4].contains("49.9%"));
        assert!(table.contains("Derived instead:"));
    }

    #[test]
    fn markdown_and_csv() {
        let report = report();
        let markdown = report.to_markdown();
        assert!(markdown.starts_with("| Outage | First event | First lag | First age |"));
        assert!(markdown.contains("| 4 h | attempt 8 | 2 h 02 min | 6 h 02 min | 0.0% |"));
        assert!(markdown.contains("\n- Outages up to 3 h 02 min deliver every event fresh;"));
        let csv = report.to_csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 4);
        assert!(lines[0].starts_with("outage_s,first_outcome,first_attempt"));
        assert!(lines[2].starts_with("14400,delivered,8,7320,21720,1,0,"));
        assert!(lines[3].starts_with("172800,exhausted,,,,"));
    }
}
