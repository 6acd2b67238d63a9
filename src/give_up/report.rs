//! One delivery under jitter in one report: the exact figures, a seeded sample and, when asked,
//! the deadline-safe attempt count; as a table, CSV, or JSON through serde.

use std::ops::Deref;

use serde::{Deserialize, Serialize};

use super::{
    deadline_safe_attempts, distribution, sample, DeadlineSafe, GiveUpSummary, Sampled, Sampling,
};
use crate::jitter::Jitter;
use crate::{format_duration, Error, Policy};

/// One delivery under jitter: exact distribution, a seeded sample, and (when asked) the
/// deadline-safe attempt count. The CLI's `jitter --format json` and the JS API's `jitter`.
/// It reads as its summary (`report.expected_give_up_s`).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "JitterReportWire", into = "JitterReportWire")]
pub struct JitterReport {
    /// The jitter mode's name.
    pub mode: String,
    /// The proportional factor, when the mode is proportional.
    pub factor: Option<f64>,
    /// Attempts in all.
    pub attempts: u32,
    /// The exact figures (an estimate for the decorrelated mode), flattened in the JSON.
    #[serde(flatten)]
    pub summary: GiveUpSummary,
    /// The seeded sample.
    pub sampled: Sampled,
    /// The deadline-safe attempt count, when a deadline was given.
    pub deadline_safe: Option<DeadlineSafe>,
    /// The numbers in words.
    pub caption: String,
}

/// The JSON shape of a [`JitterReport`], its summary's fields inline: read and written without
/// serde's `flatten`, which buffers the whole object first when reading, and writes a map of
/// unknown length (which the page's packed results cannot hold).
#[derive(Serialize, Deserialize)]
struct JitterReportWire {
    mode: String,
    factor: Option<f64>,
    attempts: u32,
    exact: bool,
    expected_give_up_s: f64,
    expected_std_error_s: Option<f64>,
    percentiles: super::Percentiles,
    unjittered_give_up_s: f64,
    range_s: (f64, f64),
    sampled: Sampled,
    deadline_safe: Option<DeadlineSafe>,
    caption: String,
}

impl From<JitterReport> for JitterReportWire {
    fn from(r: JitterReport) -> Self {
        let GiveUpSummary {
            exact,
            expected_give_up_s,
            expected_std_error_s,
            percentiles,
            unjittered_give_up_s,
            range_s,
        } = r.summary;
        JitterReportWire {
            mode: r.mode,
            factor: r.factor,
            attempts: r.attempts,
            exact,
            expected_give_up_s,
            expected_std_error_s,
            percentiles,
            unjittered_give_up_s,
            range_s,
            sampled: r.sampled,
            deadline_safe: r.deadline_safe,
            caption: r.caption,
        }
    }
}

impl From<JitterReportWire> for JitterReport {
    fn from(w: JitterReportWire) -> Self {
        JitterReport {
            mode: w.mode,
            factor: w.factor,
            attempts: w.attempts,
            summary: GiveUpSummary {
                exact: w.exact,
                expected_give_up_s: w.expected_give_up_s,
                expected_std_error_s: w.expected_std_error_s,
                percentiles: w.percentiles,
                unjittered_give_up_s: w.unjittered_give_up_s,
                range_s: w.range_s,
            },
            sampled: w.sampled,
            deadline_safe: w.deadline_safe,
            caption: w.caption,
        }
    }
}

impl Deref for JitterReport {
    type Target = GiveUpSummary;

    fn deref(&self) -> &GiveUpSummary {
        &self.summary
    }
}

impl JitterReport {
    /// Computes everything for one delivery: the exact figures, the draws `sampling` asks for and,
    /// given a deadline and a percentile, the deadline-safe attempt count.
    ///
    /// # Example
    /// ```
    /// use backoff_lab::give_up::{JitterReport, Sampling};
    /// use backoff_lab::jitter::Jitter;
    /// use backoff_lab::Policy;
    /// let sampling = Sampling { samples: 10_000, seed: 1, bins: 40 };
    /// let report = JitterReport::new(&Policy::article(), Jitter::Equal, sampling, None)?;
    /// assert_eq!(report.expected_give_up_s, 64_890.0);
    /// # Ok::<(), backoff_lab::Error>(())
    /// ```
    pub fn new(
        policy: &Policy,
        jitter: Jitter,
        sampling: Sampling,
        deadline: Option<(f64, f64)>,
    ) -> Result<Self, Error> {
        // Refused before the decorrelated estimate spends its own share of the work.
        super::sampled::check_samples(policy, jitter, sampling.samples)?;
        // The deadline's question before the distribution and the draws: a deadline out of its
        // range is refused at once, not after seconds of sampling.
        let deadline_safe = deadline
            .map(|(deadline_s, percentile)| {
                deadline_safe_attempts(policy, jitter, deadline_s, percentile).map(|attempts| {
                    DeadlineSafe {
                        deadline_s,
                        percentile,
                        attempts,
                    }
                })
            })
            .transpose()?;
        let summary = distribution(policy, jitter)?.summary;
        // Nothing is drawn without jitter (nor with ±0%): the report says seed 0, so that the
        // same question gives the same report wherever a fresh seed was drawn for it.
        let seed = if jitter.draws() { sampling.seed } else { 0 };
        let sampled = sample(policy, jitter, Sampling { seed, ..sampling })?;
        let caption = caption(jitter, &summary, &sampled, deadline_safe);
        Ok(JitterReport {
            mode: jitter.name().to_string(),
            factor: match jitter {
                Jitter::Proportional(f) => Some(f.get()),
                _ => None,
            },
            attempts: policy.attempts(),
            summary,
            sampled,
            deadline_safe,
            caption,
        })
    }

    /// [`JitterReport::new`], except that a deadline no count of attempts reaches leaves the
    /// report without its answer and says so in the caption, instead of refusing the report:
    /// the page's deadline has a default (24 h), and a short cap must not lose its chart for a
    /// field its reader never set. A deadline out of its own range is still refused.
    pub fn with_deadline_told(
        policy: &Policy,
        jitter: Jitter,
        sampling: Sampling,
        deadline: Option<(f64, f64)>,
    ) -> Result<Self, Error> {
        let report = Self::new(policy, jitter, sampling, deadline);
        let Some((deadline_s, level)) = deadline else {
            return report;
        };
        match report {
            Err(Error::OutOfRange {
                field: "deadline", ..
            }) if crate::policy::check_duration("deadline", deadline_s).is_ok() => {
                let reach_s = super::deadline_reach(policy, jitter, level)?;
                let mut report = Self::new(policy, jitter, sampling, None)?;
                let (longer, reach) = super::deadline::reaching_further(policy);
                report.caption += &format!(
                    " No count of attempts keeps {} of deliveries trying until {}: even {} \
                     attempts give up by {} at the {} percentile ({longer} {reach} further).",
                    crate::report::percent_as_given((1.0 - level) * 100.0),
                    format_duration(deadline_s),
                    crate::number_text::format_count(f64::from(crate::policy::MAX_ATTEMPTS)),
                    format_duration(reach_s),
                    crate::number_text::ordinal(level * 100.0),
                );
                Ok(report)
            }
            report => report,
        }
    }

    /// A table of exact and sampled figures (durations from 2 to 10 min in seconds, as
    /// [`crate::duration::format_table_duration`] writes them), then the caption. Without
    /// jitter (or with ±0%
    /// proportional jitter) nothing is drawn, every sample being the unjittered time: the table
    /// has the exact column alone.
    pub fn to_table(&self) -> String {
        let fmt = crate::duration::format_table_duration;
        let exact_head = if self.exact { "exact" } else { "estimate" };
        let mut rows = vec![[
            String::new(),
            exact_head.to_string(),
            format!(
                "sampled ({} draw{}, seed {})",
                crate::number_text::format_count(self.sampled.samples as f64),
                if self.sampled.samples == 1 { "" } else { "s" },
                self.sampled.seed
            ),
        ]];
        let expected = match self.expected_std_error_s {
            Some(se) => format!("{} ± {}", fmt(self.expected_give_up_s), fmt(se)),
            None => fmt(self.expected_give_up_s),
        };
        rows.push([
            "expected".into(),
            expected,
            // One draw has no spread to estimate an error from.
            if self.sampled.samples > 1 {
                format!(
                    "{} ± {}",
                    fmt(self.sampled.mean_s),
                    fmt(self.sampled.std_error_s)
                )
            } else {
                fmt(self.sampled.mean_s)
            },
        ]);
        for (name, exact, sampled) in self.percentile_rows() {
            rows.push([name, fmt(exact), fmt(sampled)]);
        }
        rows.push([
            "unjittered".into(),
            fmt(self.unjittered_give_up_s),
            String::new(),
        ]);
        let draws = Jitter::from_name(&self.mode, self.factor.unwrap_or(0.0))
            .map_or(true, |jitter| jitter.draws());
        if !draws {
            rows.iter_mut().for_each(|row| row[2].clear());
        }
        let width = |i: usize| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0);
        let (w0, w1) = (width(0), width(1));
        let mut out: String = rows
            .iter()
            .map(|r| {
                format!("{:<w0$}  {:<w1$}  {}\n", r[0], r[1], r[2])
                    .trim_end()
                    .to_string()
                    + "\n"
            })
            .collect();
        out += &format!("\n{}\n", self.caption);
        out
    }

    /// CSV: the mean and one line per percentile with the exact and the sampled value, then
    /// the unjittered give-up time, in seconds, as the table has them. With a deadline, three
    /// more lines under `exact_s` (or `estimate_s`), as the JSON's `deadline_safe` has them:
    /// the deadline in seconds, the percentile as a share (0.05 for p5) and the attempts that
    /// keep that percentile at or past the deadline (a count).
    /// The decorrelated mode has no exact figures: its column is `estimate_s` instead, as the
    /// table calls it and the JSON's `exact` is false.
    pub fn to_csv(&self) -> String {
        let mut out = String::from(if self.summary.exact {
            "statistic,exact_s,sampled_s\n"
        } else {
            "statistic,estimate_s,sampled_s\n"
        });
        // Twelve significant digits, as every CSV of fractional numbers: a sampled mean of
        // 43224.81501526713 s is 43224.8150153 (the JSON keeps every bit).
        let number = crate::report::csv_number;
        out += &format!(
            "expected,{},{}\n",
            number(self.expected_give_up_s),
            number(self.sampled.mean_s)
        );
        for (name, exact, sampled) in self.percentile_rows() {
            out += &format!("{name},{},{}\n", number(exact), number(sampled));
        }
        out += &format!("unjittered,{},\n", number(self.unjittered_give_up_s));
        if let Some(safe) = self.deadline_safe {
            out += &format!("deadline,{},\n", number(safe.deadline_s));
            out += &format!("deadline_percentile,{},\n", number(safe.percentile));
            out += &format!("deadline_safe_attempts,{},\n", safe.attempts);
        }
        out
    }

    /// Each percentile as its name ("p5"), the exact value and the sampled one.
    fn percentile_rows(&self) -> impl Iterator<Item = (String, f64, f64)> {
        let sampled = self.sampled.percentiles.pairs();
        self.percentiles
            .pairs()
            .into_iter()
            .zip(sampled)
            .map(|((level, exact), (_, sampled))| (format!("p{}", level * 100.0), exact, sampled))
    }
}

/// The report's numbers in words.
fn caption(
    jitter: Jitter,
    exact: &GiveUpSummary,
    sampled: &Sampled,
    deadline_safe: Option<DeadlineSafe>,
) -> String {
    // Its times are compared with each other, as the table's rows are: 2 to 10 min in seconds
    // ("between 102.4 s (p5) and 2.1 min (p95)" mixed units for numbers set side by side).
    let fmt = crate::duration::format_table_duration;
    let p = &exact.percentiles;
    let share = exact.expected_give_up_s / exact.unjittered_give_up_s.max(f64::MIN_POSITIVE);
    let mut text = if !jitter.draws() {
        format!(
            "Without jitter every delivery gives up at exactly {}.",
            fmt(exact.unjittered_give_up_s)
        )
    } else if exact.unjittered_give_up_s == 0.0 {
        // A single attempt: no gap to jitter, and no share of a give-up time of 0 s to quote
        // ("0% of it": outside review).
        "A single attempt has no gap to jitter: every delivery gives up at 0 s, when it first \
         fails."
            .to_string()
    } else {
        format!(
            "With {} jitter a schedule that reads {} on paper gives up after {}{} on average ({:.0}% of it); \
             90% of deliveries give up between {} (p5) and {} (p95), and half before {}.",
            jitter.described(),
            fmt(exact.unjittered_give_up_s),
            fmt(exact.expected_give_up_s),
            if exact.exact { "" } else { " (estimated)" },
            share * 100.0,
            fmt(p.p5),
            fmt(p.p95),
            fmt(p.p50),
        )
    };
    text += &if !jitter.draws() {
        // Nothing is drawn: every sample is the unjittered time.
        String::new()
    } else if sampled.samples == 1 {
        format!(
            " One seeded draw (seed {}) gives up after {}.",
            sampled.seed,
            fmt(sampled.mean_s)
        )
    } else {
        format!(
            " {} seeded draws (seed {}) average {}.",
            crate::number_text::format_count(sampled.samples as f64),
            sampled.seed,
            fmt(sampled.mean_s)
        )
    };
    if let Some(d) = deadline_safe {
        text += &format!(
            " To keep {} of deliveries trying until {}, the schedule needs {} attempts.",
            // As given: a 50.5th percentile keeps 49.5% of deliveries, not "50%".
            crate::report::percent_as_given((1.0 - d.percentile) * 100.0),
            fmt(d.deadline_s),
            crate::number_text::format_count(f64::from(d.attempts))
        );
    }
    text
}
