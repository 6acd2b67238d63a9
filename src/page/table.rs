//! A drawn chart's numbers as a table of text, for readers who cannot see the chart (the
//! `<backoff-lab>` element shows it in a disclosure under the chart) and for copying: the
//! same numbers the caption and the exports give, one table per view.

use serde::{Deserialize, Serialize};

use super::compute::{Computed, StormDrawn};
use crate::duration::format_precise;
use crate::give_up::JitterReport;
use crate::herd::{format_peak, format_rate, Herd};
use crate::number_text::{format_count, format_expected_count};
use crate::staleness::StalenessReport;
use crate::storm::Drain;
use crate::{format_duration, ScheduleReport};

/// A table of text: a header row and rows of the same length.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct NumberTable {
    /// The column headings.
    pub headers: Vec<String>,
    /// One entry per column in each row.
    pub rows: Vec<Vec<String>>,
    /// The same numbers for a spreadsheet, which the CSV download writes: durations in seconds,
    /// rates per second, shares from 0 to 1 and counts as plain numbers, each unit in its
    /// column's heading (the rows above are written for reading: "8 h 36 min", "20.00×").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub data: Option<Box<NumberTable>>,
}

/// The most attempts a drawn schedule (and its table, plus a row saying how many are left out)
/// carries to the page: a long schedule's ten thousand rows, each a few strings across the wasm
/// boundary, took 100-300 ms of every redraw, for a table that shows a few hundred.
pub const SHOWN_ROWS: usize = 400;

/// The rows a reader is shown of `all`: every one up to [`SHOWN_ROWS`], else the first
/// `SHOWN_ROWS - 1` and the last (a schedule's give-up), with how many are left out between.
pub fn shown<T: Clone>(all: &[T]) -> (Vec<T>, usize) {
    if all.len() <= SHOWN_ROWS {
        return (all.to_vec(), 0);
    }
    let mut shown = all[..SHOWN_ROWS - 1].to_vec();
    shown.extend(all.last().cloned());
    (shown, all.len() - SHOWN_ROWS)
}

impl NumberTable {
    /// The table as CSV (RFC 4180: a cell with a comma, a quote or a line break is quoted, its
    /// quotes doubled), the header row first: its numbers for a spreadsheet where it has them.
    pub fn to_csv(&self) -> String {
        if let Some(data) = &self.data {
            return data.to_csv();
        }
        std::iter::once(&self.headers)
            .chain(&self.rows)
            .map(|row| {
                row.iter()
                    .map(|text| csv_cell(text))
                    .collect::<Vec<_>>()
                    .join(",")
                    + "\n"
            })
            .collect()
    }

    pub(super) fn new(headers: &[&str], rows: Vec<Vec<String>>) -> Self {
        NumberTable {
            headers: headers.iter().map(|h| h.to_string()).collect(),
            rows,
            data: None,
        }
    }

    /// This table with its numbers for a spreadsheet (see [`NumberTable::data`]).
    pub(super) fn with_data(self, headers: &[&str], rows: Vec<Vec<String>>) -> Self {
        NumberTable {
            data: Some(Box::new(NumberTable::new(headers, rows))),
            ..self
        }
    }
}

/// A number as a spreadsheet reads it; an absent one as an empty cell.
fn number(value: Option<f64>) -> String {
    value.map_or_else(String::new, crate::report::csv_number)
}

fn optional_duration(seconds: Option<f64>) -> String {
    seconds.map_or_else(|| "—".to_string(), format_duration)
}

fn share(value: f64) -> String {
    format!("{:.2}%", value * 100.0)
}

/// The schedule table as the page shows it: of a long schedule its first rows and its last
/// ([`shown`]), with a row before the last saying how many attempts are left out (its CSV
/// download has every one: see [`view_csv`]).
pub fn shown_schedule_table(shown: &ScheduleReport, left_out: usize) -> NumberTable {
    let mut table = schedule_table(shown);
    // Without its numbers for a spreadsheet: the timeline's CSV is the whole schedule's, made
    // again ([`view_csv`]), and the shown rows' were a third of a long schedule's strings
    // crossing to the page at every redraw.
    table.data = None;
    if left_out > 0 {
        let mut note = vec![String::new(); table.headers.len()];
        note[0] = left_out_note(left_out);
        let last = table.rows.len() - 1;
        table.rows.insert(last, note);
    }
    table
}

/// The row that stands for the `left_out` attempts a long schedule's table leaves out:
/// "… 9,600 more attempts".
pub fn left_out_note(left_out: usize) -> String {
    format!(
        "… {} more attempts",
        crate::number_text::grouped(&left_out.to_string())
    )
}

/// The CSV download of `view`'s drawn `table` for `settings` and `computed`: the table's own,
/// but the timeline's, which shows a long schedule in part, made whole again, and the storm's,
/// which is the minutes the chart is drawn from ([`storm_minutes_csv`]), not its summary.
pub fn view_csv(
    view: super::View,
    settings: &super::Settings,
    computed: &Computed,
    table: &NumberTable,
) -> Result<String, super::PageError> {
    match (view, computed) {
        (super::View::Timeline, _) => {
            let (_, report) = super::compute::your_schedule(settings)?;
            Ok(schedule_table(&report).to_csv())
        }
        (super::View::Storm, Computed::Storm { reports }) => {
            let labels = super::compute::storm_labels(settings)?;
            Ok(storm_minutes_csv(&labels, reports))
        }
        (super::View::Distribution, Computed::Distribution { report }) => Ok(histogram_csv(report)),
        (super::View::Herd, Computed::Herd { spread, spike }) => Ok(herd_csv(spread, spike)),
        _ => Ok(table.to_csv()),
    }
}

/// The sampled give-up times' histogram as the distribution chart draws it, a line a bin: its
/// edges, its count and its share of the samples (the percentiles it marks are the table
/// under it).
fn histogram_csv(report: &JitterReport) -> String {
    let histogram = &report.sampled.histogram;
    let samples = report.sampled.samples.max(1) as f64;
    let mut out = String::from("give_up_from_s,give_up_to_s,deliveries,share\n");
    for (i, &count) in histogram.counts.iter().enumerate() {
        let from = histogram.start_s + i as f64 * histogram.bin_s;
        let cells = [
            from,
            from + histogram.bin_s,
            count as f64,
            count as f64 / samples,
        ];
        let cells = cells.map(|value| number(Some(value)));
        out += &cells.join(",");
        out.push('\n');
    }
    out
}

/// Each herd's first retries per bin as the herd chart draws them, with the chosen jitter and
/// without, each line led by its series as the table names it (its summary is the table under
/// it): the bin's start and width in seconds, as `backoff-lab herd --format csv` writes wide
/// bins, and the first retries in it.
fn herd_csv(spread: &Herd, spike: &Herd) -> String {
    let mut out = String::from("series,bin_start_s,bin_s,first_retries\n");
    let jittered = crate::herd::jitter_label(&spread.mode);
    // Without jitter the two are one herd, drawn once.
    let spike = Some(spike).filter(|_| spread.mode != spike.mode);
    let series =
        std::iter::once((jittered.as_str(), spread)).chain(spike.map(|h| ("no jitter", h)));
    for (label, herd) in series {
        let bin = herd.first_retry.bin_s;
        for (i, &count) in herd.first_retry_per_second.iter().enumerate() {
            let start = number(Some(i as f64 * bin));
            out += &format!(
                "{},{start},{},{count}\n",
                csv_cell(label),
                number(Some(bin))
            );
        }
    }
    out
}

/// Every storm series' minutes as the chart draws them, as `backoff-lab storm --format csv`
/// writes one storm's, each line led by its series' label, for a spreadsheet to plot again (the
/// summary is the table on screen). A storm longer than the chart's 1,500 minutes keeps, of each
/// run of minutes, its busiest and its quietest ([`crate::storm::StormReport::for_chart`]): its
/// minute column then skips, and its columns do not add up to the summary's totals; the command
/// line's CSV has every minute.
fn storm_minutes_csv(labels: &[String], reports: &[crate::storm::StormReport]) -> String {
    let mut out = format!("series,{}\n", crate::storm::Interval::csv_header("minute"));
    for (label, report) in labels.iter().zip(reports) {
        for minute in &report.minutes {
            out += &format!("{},{}\n", csv_cell(label), minute.csv_line());
        }
    }
    out
}

/// A CSV cell (RFC 4180: one with a comma, a quote or a line break is quoted, its quotes
/// doubled).
fn csv_cell(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\"")).into()
    } else {
        text.into()
    }
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
    let data = report
        .rows
        .iter()
        .map(|row| {
            vec![
                row.attempt.to_string(),
                number(row.gap_s),
                number(Some(row.elapsed_s)),
            ]
        })
        .collect();
    NumberTable::new(&["attempt", "gap before it", "time of the attempt"], rows).with_data(
        &["attempt", "gap before it (s)", "time of the attempt (s)"],
        data,
    )
}

/// The give-up time's percentiles and mean, exact (where computed) and sampled.
fn distribution_table(report: &JitterReport) -> NumberTable {
    let (exact, sampled) = (&report.summary.percentiles, &report.sampled.percentiles);
    let values = [
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
    ];
    let rows = (values.iter())
        .map(|&(name, exact, sampled)| {
            // Rows compared with each other, as the CLI's table writes them.
            let written = crate::duration::format_table_duration;
            vec![name.to_string(), written(exact), written(sampled)]
        })
        .collect();
    let data = (values.iter())
        .map(|&(name, exact, sampled)| {
            vec![name.to_string(), number(Some(exact)), number(Some(sampled))]
        })
        .collect();
    let first = if report.summary.exact {
        "exact"
    } else {
        "computed"
    };
    let samples = format!("{} samples", format_count(report.sampled.samples as f64));
    NumberTable::new(&["give-up time", first, &samples], rows).with_data(
        &[
            "give-up time",
            &format!("{first} (s)"),
            &format!("{} samples (s)", report.sampled.samples),
        ],
        data,
    )
}

/// The first retries' peak and mean rate, with the chosen jitter and without, as the caption
/// gives them (`44/s`, `33.3/s`, `1.32×`; unjittered, the one second they all arrive in).
fn herd_table(spread: &Herd, spike: &Herd) -> NumberTable {
    let row = |label: &str, herd: &Herd| {
        let (peak, multiple, averaged) = herd.first_retry_peak();
        vec![
            label.to_string(),
            format!("{}/s", format_peak(peak, averaged)),
            format!("{}/s", format_rate(herd.first_retry.mean_per_s)),
            format!("{}×", crate::number_text::multiple(multiple)),
        ]
    };
    let data = |label: &str, herd: &Herd| {
        let (peak, multiple, _) = herd.first_retry_peak();
        let numbers = [peak, herd.first_retry.mean_per_s, multiple];
        std::iter::once(label.to_string())
            .chain(numbers.map(|value| number(Some(value))))
            .collect::<Vec<_>>()
    };
    let jittered = crate::herd::jitter_label(&spread.mode);
    NumberTable::new(
        &["first retries", "peak", "mean", "peak ÷ mean"],
        vec![row(&jittered, spread), row("no jitter", spike)],
    )
    .with_data(
        &[
            "first retries",
            "peak (per s)",
            "mean (per s)",
            "peak ÷ mean",
        ],
        vec![data(&jittered, spread), data("no jitter", spike)],
    )
}

/// When a storm's backlog drained, from recovery, as the caption counts it ("drains 6 h 57 min
/// after recovery"), and how, in words, as the caption says it ([`Drain`]): no time where it did
/// not drain after recovery (no outage, which left nothing to drain, had read "1 s").
/// The cell's text, and the CSV's words for how the backlog ended (the cell's words without the
/// time, and without a comma: the CSV's "delivery" had stood beside "all exhausted in the
/// outage").
fn drained(storm: &StormDrawn) -> (Option<f64>, String, &'static str) {
    let after = |after: f64, cell: &str, how: &'static str| {
        (
            Some(after),
            format!("{}{cell}", format_duration(after)),
            how,
        )
    };
    let none = |how: &'static str| (None, how.to_string(), how);
    match Drain::of(&storm.summary, storm.outage_s) {
        Drain::NoOutage => none("no outage"),
        Drain::NeverCatchesUp => none("never caught up (no outage)"),
        Drain::NotDrained => none("not drained"),
        Drain::AllExhaustedInOutage => none("all exhausted in the outage"),
        Drain::ByExhaustion(at) => after(at, ", by exhaustion", "exhaustion"),
        Drain::MostExhaustedInOutage(at) => after(
            at,
            " (most exhausted in the outage)",
            "delivery (most exhausted in the outage)",
        ),
        Drain::PartlyByExhaustion(at) => after(at, ", partly by exhaustion", "partly exhaustion"),
        Drain::ByDelivery(at) => after(at, "", "delivery"),
    }
}

/// Each storm series' outcome.
pub fn storm_table(storms: &[StormDrawn]) -> NumberTable {
    let rows = storms
        .iter()
        .map(|storm| {
            let s = &storm.summary;
            // How it drained in the cell itself: a phone's narrow table ends before the CSV's
            // "drained by" column would.
            let (_, drained, _) = drained(storm);
            vec![
                storm.label.clone(),
                format_count(s.delivered),
                format_count(s.exhausted),
                format_count(s.duplicates),
                format_expected_count(s.peak_attempts_per_min),
                drained,
            ]
        })
        .collect();
    let data = storms
        .iter()
        .map(|storm| {
            let s = &storm.summary;
            let (after, _, how) = drained(storm);
            let counts = [
                s.delivered,
                s.exhausted,
                s.duplicates,
                s.peak_attempts_per_min,
            ];
            std::iter::once(storm.label.clone())
                .chain(counts.map(|value| number(Some(value))))
                .chain([number(after), how.to_string()])
                .collect()
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
    .with_data(
        &[
            "series",
            "delivered",
            "exhausted",
            "duplicates",
            "peak attempts/min",
            "drained after recovery (s)",
            "drained by",
        ],
        data,
    )
}

/// The derived answers, then the outage read off: its first event's fate and the shares of all
/// its events.
fn staleness_table(report: &StalenessReport) -> NumberTable {
    // For a spreadsheet: (question, value, unit).
    let mut data: Vec<(String, Option<f64>, &str)> = vec![
        ("give-up time".into(), Some(report.give_up_s), "s"),
        (
            "longest outage whose first event is delivered".into(),
            Some(report.longest_delivered_outage_s),
            "s",
        ),
        (
            "outages whose events all arrive fresh, up to".into(),
            report.all_fresh_up_to_s,
            "s",
        ),
        (
            "largest recovery lag after a long outage".into(),
            Some(report.max_recovery_lag_s),
            "s",
        ),
    ];
    let mut rows = vec![
        ("give-up time".to_string(), format_precise(report.give_up_s)),
        (
            "longest outage whose first event is delivered".to_string(),
            report.longest_delivered_text(),
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
        let question = |what: &str| {
            format!(
                "after an outage of {} s: {what}",
                crate::report::csv_number(outage.outage_s)
            )
        };
        data.extend([
            (
                question("the first event's attempt"),
                first.attempt.map(f64::from),
                // Without one, the first event was exhausted.
                if first.attempt.is_some() {
                    "attempt"
                } else {
                    "exhausted"
                },
            ),
            (
                question("the first event's lag after recovery"),
                first.lag_s,
                "s",
            ),
            (question("the first event's age"), first.age_s, "s"),
            (
                question("share of its events exhausted"),
                Some(all.exhausted_share),
                "share",
            ),
        ]);
        if let Some(stale) = all.stale_share {
            data.push((question("share delivered stale"), Some(stale), "share"));
        }
    }
    NumberTable::new(
        &["question", "answer"],
        rows.into_iter().map(|(q, a)| vec![q, a]).collect(),
    )
    .with_data(
        &["question", "value", "unit"],
        data.into_iter()
            .map(|(q, value, unit)| vec![q, number(value), unit.to_string()])
            .collect(),
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

    /// The distribution's and the herd's CSVs are the bins their charts draw (they were the
    /// summaries under the charts: outside page review): every sampled give-up time in one bin,
    /// the bins edge to edge; every delivery's first retry in one bin of each series.
    #[test]
    fn the_distribution_and_herd_csvs_are_the_bins_drawn() {
        use super::super::{compute, Settings, View};
        let settings = Settings::default();
        let memo = &mut crate::storm::Memo::default();
        let table = NumberTable::default();
        let computed = compute(View::Distribution, &settings, memo).unwrap();
        let Computed::Distribution { report } = &computed else {
            panic!("a distribution")
        };
        let csv = view_csv(View::Distribution, &settings, &computed, &table).unwrap();
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("give_up_from_s,give_up_to_s,deliveries,share")
        );
        let rows: Vec<Vec<f64>> = lines
            .map(|line| line.split(',').map(|c| c.parse().unwrap()).collect())
            .collect();
        assert_eq!(rows.len(), report.sampled.histogram.counts.len());
        let total: f64 = rows.iter().map(|row| row[2]).sum();
        assert_eq!(total, report.sampled.samples as f64);
        assert!(rows
            .windows(2)
            .all(|w| (w[0][1] - w[1][0]).abs() < 1e-6 * w[1][0]));
        assert!(rows
            .iter()
            .all(|row| (row[3] - row[2] / total).abs() < 1e-12));

        let computed = compute(View::Herd, &settings, memo).unwrap();
        let csv = view_csv(View::Herd, &settings, &computed, &table).unwrap();
        let mut lines = csv.lines();
        assert_eq!(lines.next(), Some("series,bin_start_s,bin_s,first_retries"));
        let rows: Vec<Vec<&str>> = lines.map(|line| line.split(',').collect()).collect();
        for series in ["full jitter", "no jitter"] {
            let counts = rows.iter().filter(|row| row[0] == series);
            let total: u64 = counts.map(|row| row[3].parse::<u64>().unwrap()).sum();
            assert_eq!(total, 1_000, "{series}: every delivery's first retry");
        }
        // Without jitter the two series are one herd: written once, not as "none jitter".
        let unjittered = Settings::with(&[("mode", "none")]);
        let computed = compute(View::Herd, &unjittered, memo).unwrap();
        let csv = view_csv(View::Herd, &unjittered, &computed, &table).unwrap();
        let labels: std::collections::BTreeSet<&str> = csv
            .lines()
            .skip(1)
            .filter_map(|l| l.split(',').next())
            .collect();
        assert_eq!(labels.into_iter().collect::<Vec<_>>(), ["without jitter"]);
    }

    /// The storm's CSV is the minutes its chart draws, every series' (it was the summary alone:
    /// outside SRE review), each minute's numbers as the command line's CSV writes them; a
    /// storm past the chart's 1,500 minutes keeps the minutes drawn, in order.
    #[test]
    fn the_storms_csv_is_every_series_minutes() {
        let mut settings = super::super::Settings::default();
        settings.set("traffic", "20 min");
        settings.set("outage", "2 min");
        let memo = &mut crate::storm::Memo::default();
        let computed = super::super::compute(super::super::View::Storm, &settings, memo).unwrap();
        let Computed::Storm { reports } = &computed else {
            panic!("a storm")
        };
        let labels = super::super::compute::storm_labels(&settings).unwrap();
        assert!(reports.len() >= 2 && labels.len() == reports.len());
        let csv = view_csv(
            super::super::View::Storm,
            &settings,
            &computed,
            &NumberTable::default(),
        )
        .unwrap();
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some(
                "series,minute,attempts,first_attempts,retries,successes,failures,rejected_429,\
                 duplicates,backlog,queue,exhausted,deferred"
            )
        );
        let rows: Vec<Vec<&str>> = lines.map(|line| line.split(',').collect()).collect();
        for (label, report) in labels.iter().zip(reports) {
            let own: Vec<&Vec<&str>> = rows.iter().filter(|r| r[0] == label).collect();
            assert_eq!(own.len(), report.minutes.len(), "{label}");
            // The caption's peak is the busiest of the CSV's minutes.
            let peak = own
                .iter()
                .map(|r| r[2].parse::<f64>().unwrap())
                .fold(0.0, f64::max);
            assert_eq!(peak, report.summary.peak_attempts_per_min, "{label}");
            assert_eq!(own[3][1..].join(","), report.minutes[3].csv_line());
        }
        settings.set("traffic", "3 days");
        let computed = super::super::compute(super::super::View::Storm, &settings, memo).unwrap();
        let Computed::Storm { reports } = &computed else {
            panic!("a storm")
        };
        let table = NumberTable::default();
        let csv = view_csv(super::super::View::Storm, &settings, &computed, &table).unwrap();
        let minutes: Vec<u32> = (csv.lines().skip(1))
            .filter(|line| line.starts_with("your policy,"))
            .map(|line| line.split(',').nth(1).unwrap().parse().unwrap())
            .collect();
        assert!(minutes.len() <= 1_500 && minutes.windows(2).all(|w| w[0] < w[1]));
        let drawn: Vec<u32> = reports[0].minutes.iter().map(|m| m.index).collect();
        assert_eq!(minutes, drawn);
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
            outage_s: scenario.spec().outage.1,
        };
        let table = storm_table(&[drawn]);
        assert_eq!(table.headers[5], "drained after recovery");
        // It ends by exhaustion, which the cell says after the time.
        let after = table.rows[0][5].trim_end_matches(", by exhaustion");
        assert_ne!(after, "—");
        assert!(
            report.caption.contains(&format!("{after} after recovery")),
            "{after}: {}",
            report.caption
        );
        // Its counts are grouped as the caption's are ("149 of 72,000 deliveries delivered").
        let delivered = &table.rows[0][1];
        assert!(
            report.caption.contains(&format!("{delivered} of 72,000")),
            "{delivered}: {}",
            report.caption
        );
        assert!(table.rows[0][3].contains(','), "{:?}", table.rows[0]);
        // Its CSV has the numbers a spreadsheet reads: seconds, and how the backlog ended (the
        // element's CSV wrote "8 h 36 min" and lost "by exhaustion").
        let csv = table.to_csv();
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("series,delivered,exhausted,duplicates,peak attempts/min,drained after recovery (s),drained by")
        );
        let cells: Vec<&str> = lines.next().unwrap().split(',').collect();
        let s = &report.summary;
        let after_s = s.after_recovery_s(s.drained_at_s.unwrap());
        assert_eq!(cells[5].parse::<f64>(), Ok(after_s), "{csv}");
        assert!(["delivery", "exhaustion"].contains(&cells[6]), "{csv}");
        assert_eq!(
            cells[1].parse::<f64>().map(f64::round),
            Ok(s.delivered.round())
        );
    }

    /// A storm without an outage has nothing to drain: its table said "1 s" (its backlog was low
    /// at the end of second 0, one second "after recovery"). A backlog that ended by exhaustion
    /// says so in the table's own cell, which a phone shows without the CSV's column.
    #[test]
    fn a_storm_without_an_outage_drains_nothing_and_an_exhausted_one_says_so() {
        let drawn = |spec: crate::storm::Spec| {
            let scenario = crate::storm::Scenario::new(spec).unwrap();
            let report = crate::storm::simulate(&scenario, crate::Engine::Fluid, false).unwrap();
            StormDrawn {
                label: "yours".into(),
                caption: report.caption.clone(),
                summary: report.summary,
                outage_s: spec.outage.1,
            }
        };
        let article = crate::storm::Spec::article_fixed();
        let calm = drawn(crate::storm::Spec {
            outage: (0, 0),
            ..article
        });
        let table = storm_table(std::slice::from_ref(&calm));
        assert_eq!(table.rows[0][5], "no outage");
        let csv = table.to_csv();
        // The CSV: no time, and how it ended in the cell's words.
        assert!(
            csv.lines().nth(1).unwrap().ends_with(",,no outage"),
            "{csv}"
        );
        // No word of it needs quoting: every row has the header's width.
        for spec in [
            article,
            crate::storm::Spec {
                outage: (0, 172_800),
                ..article
            },
        ] {
            let csv = storm_table(&[drawn(spec)]).to_csv();
            let widths: Vec<usize> = csv.lines().map(|line| line.split(',').count()).collect();
            assert!(widths.iter().all(|&w| w == widths[0]), "{csv}");
        }
        // Without an outage and below the arrivals, it never catches up, as the caption says.
        let short = drawn(crate::storm::Spec {
            outage: (0, 0),
            capacity_per_s: 5.0,
            ..article
        });
        assert!(
            short.caption.contains("never catches up"),
            "{}",
            short.caption
        );
        assert_eq!(
            storm_table(&[short]).rows[0][5],
            "never caught up (no outage)"
        );

        // As the caption says it: the article's fixed 30 s storm is gone by exhaustion (99.8%
        // of its deliveries); the backoff storm is gone partly by it (79 deliveries, which the
        // cell had read as "by exhaustion"); a 2-day outage exhausts every delivery in it.
        let cell = |spec| storm_table(&[drawn(spec)]).rows[0][5].clone();
        let after = |spec| {
            let s = drawn(spec).summary;
            format_duration(s.after_recovery_s(s.drained_at_s.unwrap()))
        };
        assert_eq!(cell(article), format!("{}, by exhaustion", after(article)));
        let backoff = crate::storm::Spec {
            policy: crate::Policy::article(),
            jitter: crate::jitter::Jitter::Full,
            ..article
        };
        assert_eq!(
            cell(backoff),
            format!("{}, partly by exhaustion", after(backoff))
        );
        // Its CSV words hold no comma (the page's CSV split into an extra column).
        let csv = storm_table(&[drawn(backoff)]).to_csv();
        assert!(
            csv.lines().all(|line| line.split(',').count() == 7),
            "{csv}"
        );
        let two_days = crate::storm::Spec {
            outage: (0, 172_800),
            ..backoff
        };
        assert_eq!(cell(two_days), "all exhausted in the outage");
    }

    /// The page's herd caption of 1,000 deliveries under full jitter (seed 42) reads "44 per
    /// second against a mean of 33.3 per second (1.32× the mean)": its table says the same.
    #[test]
    fn the_herd_table_writes_rates_and_multiples_as_its_caption() {
        use crate::jitter::Jitter;
        let spread = crate::herd::herd(&Policy::article(), Jitter::Full, 1_000, 42).unwrap();
        let spike = crate::herd::herd(&Policy::article(), Jitter::None, 1_000, 42).unwrap();
        let caption = spread.caption(Some(&spike));
        let table = herd_table(&spread, &spike);
        let jittered = &table.rows[0];
        let per_s = |cell: &String| cell.trim_end_matches("/s").to_string();
        for said in [
            format!("peak at {} per second", per_s(&jittered[1])),
            format!("a mean of {} per second", per_s(&jittered[2])),
            format!("({} the mean)", jittered[3]),
        ] {
            assert!(caption.contains(&said), "{said:?} in {caption}");
        }
        assert_eq!(jittered[1..], ["44/s", "33.3/s", "1.32×"]);
        // Unjittered: all 1,000 in one second, as the caption says.
        assert_eq!(table.rows[1][1], "1,000/s");
    }

    /// Every table's CSV carries numbers, not the words and units the rows are written in.
    #[test]
    fn every_csv_is_numbers_under_headings_with_units() {
        let report = ScheduleReport::new(&Policy::article().schedule(), 1_200.0);
        let csv = schedule_table(&report).to_csv();
        assert!(
            csv.starts_with("attempt,gap before it (s),time of the attempt (s)\n1,,0\n2,30,30\n"),
            "{csv}"
        );
        let jitter = JitterReport::new(
            &Policy::article(),
            crate::jitter::Jitter::Full,
            crate::give_up::Sampling {
                samples: 1_000,
                seed: 7,
                bins: 10,
            },
            None,
        )
        .unwrap();
        let csv = distribution_table(&jitter).to_csv();
        let mean = csv.lines().find(|l| l.starts_with("mean,")).unwrap();
        assert_eq!(
            mean.split(',').nth(1).unwrap().parse::<f64>(),
            Ok(jitter.summary.expected_give_up_s),
            "{csv}"
        );
        let question =
            crate::staleness::Question::new(&Policy::article(), crate::jitter::Jitter::None, 0)
                .unwrap();
        let staleness = StalenessReport::new(&question, &[14_400.0], None).unwrap();
        let csv = staleness_table(&staleness).to_csv();
        assert!(
            csv.contains(
                "after an outage of 14400 s: the first event's lag after recovery,7320,s\n"
            ),
            "{csv}"
        );
        assert!(
            csv.contains("after an outage of 14400 s: the first event's attempt,8,attempt\n"),
            "{csv}"
        );
    }

    /// The page's jitter table read gRPC's p95 and p99 alike ("2.1 min"), as the CLI's did.
    #[test]
    fn the_jitter_table_tells_close_percentiles_apart() {
        let grpc = crate::presets::preset("grpc").unwrap();
        let sampling = crate::give_up::Sampling {
            samples: 1_000,
            seed: 1,
            bins: 10,
        };
        let report = JitterReport::new(&grpc.policy, grpc.jitter, sampling, None).unwrap();
        let table = distribution_table(&report);
        let exact = |name: &str| {
            table
                .rows
                .iter()
                .find(|row| row[0] == name)
                .map(|row| row[1].clone())
        };
        assert_eq!(exact("p95").as_deref(), Some("123.3 s"));
        assert_eq!(exact("p99").as_deref(), Some("126.5 s"));
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
