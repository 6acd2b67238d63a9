//! What a storm simulation reports: per-second and per-minute rows, the summary, and their
//! table and CSV forms. Both engines record through one [`Recorder`].

use serde::{Deserialize, Serialize, Serializer};

use super::acted::BoundsActed;
use super::Scenario;

/// What happened in one second or one minute. Counts are whole in the discrete engine and
/// expected values, rounded to the nearest thousandth, in the fluid engine.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Interval {
    /// 1-based minute (0-based second in per-second rows).
    #[serde(rename = "minute")]
    pub index: u32,
    /// Attempts made (first attempts plus retries).
    #[serde(serialize_with = "count")]
    pub attempts: f64,
    /// First attempts.
    #[serde(serialize_with = "count")]
    pub first_attempts: f64,
    /// Retries.
    #[serde(serialize_with = "count")]
    pub retries: f64,
    /// Attempts that succeeded within the timeout (goodput).
    #[serde(serialize_with = "count")]
    pub successes: f64,
    /// Attempts that failed (timeouts, outage).
    #[serde(serialize_with = "count")]
    pub failures: f64,
    /// Attempts answered 429 with `Retry-After`.
    #[serde(serialize_with = "count")]
    pub rejected_429: f64,
    /// Duplicate side effects: processings of a delivery the destination had already processed.
    #[serde(serialize_with = "count")]
    pub duplicates: f64,
    /// Deliveries neither delivered nor exhausted, at the end.
    #[serde(serialize_with = "count")]
    pub backlog: f64,
    /// Requests waiting in the destination's queue, at the end.
    #[serde(serialize_with = "count")]
    pub queue: f64,
    /// Deliveries exhausted so far.
    #[serde(serialize_with = "count")]
    pub exhausted: f64,
    /// Deliveries held by a bound (pause, rate limit, budget, retry quota, circuit breaker), at
    /// the end.
    #[serde(serialize_with = "count")]
    pub deferred: f64,
}

/// How the backlog ended.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DrainedBy {
    /// No delivery was exhausted from the outage's end until nothing was pending: the backlog
    /// was delivered.
    Delivery,
    /// Some deliveries ran out of attempts on the way: the backlog ended partly or wholly by
    /// exhaustion.
    Exhaustion,
}

/// Totals and the outcome in a few numbers.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Deliveries created.
    #[serde(serialize_with = "count")]
    pub arrivals: f64,
    /// Delivered.
    #[serde(serialize_with = "count")]
    pub delivered: f64,
    /// Exhausted (out of attempts): visible, replayable, never silently dropped.
    #[serde(serialize_with = "count")]
    pub exhausted: f64,
    /// Exhausted at or after the outage's end.
    #[serde(serialize_with = "count")]
    pub exhausted_after_outage: f64,
    /// Neither, when the simulation stopped.
    #[serde(serialize_with = "count")]
    pub pending: f64,
    /// Duplicate side effects.
    #[serde(serialize_with = "count")]
    pub duplicates: f64,
    /// Attempts made in all.
    #[serde(serialize_with = "count")]
    pub attempts: f64,
    /// The most attempts in any minute.
    #[serde(serialize_with = "count")]
    pub peak_attempts_per_min: f64,
    /// The minute it happened (1-based).
    pub peak_minute: u32,
    /// That peak as a multiple of a minute of steady arrivals; `None` when the steady traffic
    /// lasts less than a minute (a batch alone has no normal traffic to compare with) or brings
    /// less than one delivery a minute.
    pub peak_multiple: Option<f64>,
    /// That peak as a multiple of a minute of the destination's capacity.
    pub peak_vs_capacity: f64,
    /// When the outage ended, seconds.
    pub outage_end_s: u32,
    /// The first second at or after the outage's end at whose end the backlog is cleared: at
    /// most 0.1% of the deliveries created since the outage began are pending, and under half a
    /// delivery when that is less (a few stragglers may still wait out long gaps); `None` if
    /// that does not happen within the horizon.
    pub drained_at_s: Option<u32>,
    /// The first second at or after the outage's end at whose end nothing at all is pending
    /// (under half a delivery on expected values): when the last straggler is settled.
    pub emptied_at_s: Option<u32>,
    /// How the backlog ended by then (`None` when it did not drain).
    pub drained_by: Option<DrainedBy>,
    /// Attempts per delivered delivery (`None` under half a delivery delivered, which the
    /// totals write as 0).
    pub attempts_per_delivered: Option<f64>,
    /// Seconds simulated.
    pub horizon_s: u32,
    /// How many times the circuit breaker opened (from closed or from half-open); `None`
    /// without a breaker.
    pub breaker_openings: Option<u32>,
}

/// Past this share of its deliveries exhausted, a storm's backlog cleared mostly because they
/// ran out of attempts: the caption and the drain say so, and the survival map hatches the cell,
/// whatever its outcome.
pub const MOSTLY_EXHAUSTED_SHARE: f64 = 0.5;

impl Summary {
    /// Whether more than [`MOSTLY_EXHAUSTED_SHARE`] of the deliveries created ran out of
    /// attempts.
    pub fn mostly_exhausted(&self) -> bool {
        self.exhausted > MOSTLY_EXHAUSTED_SHARE * self.arrivals
    }

    /// Seconds from the outage's end to the end of second `at_s` (0 before it): how the
    /// captions and the table of numbers count a drain "after recovery", for `drained_at_s` and
    /// `emptied_at_s` are the seconds at whose end the backlog is low. A backlog drained at the
    /// end of the first second after the outage is drained 1 s after recovery (it read 0 s).
    pub fn after_recovery_s(&self, at_s: u32) -> f64 {
        f64::from((at_s + 1).saturating_sub(self.outage_end_s))
    }
}

/// A storm simulation's result: per-minute rows, per-second rows when asked, the summary.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StormReport {
    /// Which engine produced it: `discrete` or `fluid`.
    pub engine: String,
    /// One row per minute; minute 1 is the first.
    pub minutes: Vec<Interval>,
    /// One row per second, when asked for (CSV only; never in JSON).
    #[serde(skip)]
    pub seconds: Vec<Interval>,
    /// The summary.
    pub summary: Summary,
    /// The outcome in words.
    pub caption: String,
}

/// Writes a count as a whole number when it is one (`1553`, not `1553.0`), in formats people
/// read (JSON, JavaScript objects); always as a number with a fraction in binary ones, which
/// read it back as one (the page's packed results).
pub(crate) fn count<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if serializer.is_human_readable() && value.fract() == 0.0 && value.abs() < 9e15 {
        serializer.serialize_i64(*value as i64)
    } else {
        serializer.serialize_f64(*value)
    }
}

/// To the nearest thousandth: expected values keep what expectation needs, not float noise.
fn tidy(value: f64) -> f64 {
    let rounded = (value * 1e3).round() / 1e3;
    if rounded == 0.0 {
        0.0
    } else {
        rounded
    }
}

impl Interval {
    fn tidy(mut self) -> Self {
        for field in [
            &mut self.attempts,
            &mut self.first_attempts,
            &mut self.retries,
            &mut self.successes,
            &mut self.failures,
            &mut self.rejected_429,
            &mut self.duplicates,
            &mut self.backlog,
            &mut self.queue,
            &mut self.exhausted,
            &mut self.deferred,
        ] {
            *field = tidy(*field);
        }
        self
    }

    fn add_flows(&mut self, row: &Interval) {
        self.attempts += row.attempts;
        self.first_attempts += row.first_attempts;
        self.retries += row.retries;
        self.successes += row.successes;
        self.failures += row.failures;
        self.rejected_429 += row.rejected_429;
        self.duplicates += row.duplicates;
        self.backlog = row.backlog;
        self.queue = row.queue;
        self.exhausted = row.exhausted;
        self.deferred = row.deferred;
    }
}

/// Folds per-second rows into minutes and the summary's totals as a simulation goes, keeping
/// the seconds themselves only when asked.
#[derive(Clone)]
pub(crate) struct Recorder {
    minutes: Vec<Interval>,
    seconds: Option<Vec<Interval>>,
    count: u32,
    drained_at: Option<u32>,
    emptied_at: Option<u32>,
    outage_start: u32,
    outage_end: u32,
    /// Exhausted when the outage ended.
    exhausted_at_outage_end: f64,
    exhausted_at_drain: f64,
    delivered: f64,
    /// The deliveries created before the outage's first second: the drain threshold counts
    /// those created from it on.
    created_before_outage: f64,
}

impl Recorder {
    pub(crate) fn new(scenario: &Scenario, keep_seconds: bool) -> Self {
        Recorder {
            minutes: Vec::new(),
            seconds: keep_seconds.then(Vec::new),
            count: 0,
            drained_at: None,
            emptied_at: None,
            outage_start: scenario.outage.0,
            outage_end: scenario.outage_end(),
            exhausted_at_outage_end: 0.0,
            exhausted_at_drain: 0.0,
            delivered: 0.0,
            created_before_outage: 0.0,
        }
    }

    /// This recorder going on for `scenario`, whose outage ends at or after the seconds recorded:
    /// what it would hold had it recorded the same seconds for `scenario` (rows and totals are
    /// the same; only the outage's end is used, to mark the exhausted count at that end and,
    /// from that end on, when the backlog drained).
    pub(crate) fn continued_as(&self, scenario: &Scenario) -> Recorder {
        let outage_end = scenario.outage_end();
        debug_assert!(self.count <= outage_end, "recorded past the outage's end");
        // The last second recorded is the outage's last only when the outage ends now.
        let exhausted_at_outage_end = match self.minutes.last() {
            Some(minute) if self.count == outage_end => minute.exhausted,
            _ => 0.0,
        };
        Recorder {
            outage_end,
            exhausted_at_outage_end,
            drained_at: None,
            emptied_at: None,
            exhausted_at_drain: 0.0,
            ..self.clone()
        }
    }

    /// Records the next second (seconds come in order from 0).
    pub(crate) fn push(&mut self, row: Interval) {
        if row.index % 60 == 0 {
            self.minutes.push(Interval {
                index: row.index / 60 + 1,
                ..Interval::default()
            });
        }
        if let Some(minute) = self.minutes.last_mut() {
            minute.add_flows(&row);
        }
        if row.index + 1 == self.outage_end {
            self.exhausted_at_outage_end = row.exhausted;
        }
        self.delivered += row.successes;
        let created = row.backlog + row.exhausted + self.delivered;
        if row.index + 1 == self.outage_start {
            self.created_before_outage = created;
        }
        if row.index >= self.outage_end {
            // Of the deliveries created since the outage began: counted from the start, a day
            // of traffic before a minute's outage made its whole backlog "drained" at recovery,
            // before a single retry (outside SRE review).
            let since_outage = created - self.created_before_outage;
            if self.drained_at.is_none()
                && row.backlog < crate::numbers::larger(0.001 * since_outage, 0.5)
            {
                self.drained_at = Some(row.index);
                self.exhausted_at_drain = row.exhausted;
            }
            if self.emptied_at.is_none() && row.backlog < 0.5 {
                self.emptied_at = Some(row.index);
            }
        }

        self.count += 1;
        if let Some(seconds) = &mut self.seconds {
            seconds.push(row.tidy());
        }
    }

    /// The report: minutes, the kept seconds, the summary and its caption; `breaker_openings`
    /// as the engine counted them.
    pub(crate) fn finish(
        self,
        engine: &str,
        scenario: &Scenario,
        created: f64,
        breaker_openings: Option<u32>,
        acted: BoundsActed,
    ) -> StormReport {
        let minutes: Vec<Interval> = self.minutes.iter().map(|m| m.tidy()).collect();
        let peak = minutes
            .iter()
            .fold(None::<&Interval>, |best, m| match best {
                Some(b) if b.attempts >= m.attempts => Some(b),
                _ => Some(m),
            });
        let total = |field: fn(&Interval) -> f64| tidy(self.minutes.iter().map(field).sum());
        let delivered = total(|m| m.successes);
        let attempts = total(|m| m.attempts);
        let last = minutes.last().copied().unwrap_or_default();
        // Counted only once the outage has ended within the simulation.
        let exhausted_after_outage = if self.count > self.outage_end {
            tidy(last.exhausted - self.exhausted_at_outage_end)
        } else {
            0.0
        };
        let peak_attempts = peak.map_or(0.0, |m| m.attempts);
        let summary = Summary {
            arrivals: tidy(created),
            delivered,
            exhausted: last.exhausted,
            exhausted_after_outage,
            pending: last.backlog,
            duplicates: total(|m| m.duplicates),
            attempts,
            peak_attempts_per_min: peak_attempts,
            peak_minute: peak.map_or(0, |m| m.index),
            // A trickle under a delivery a minute has no normal minute to compare with: one
            // attempt read "16,667× normal traffic" (outside SRE review).
            peak_multiple: (scenario.traffic_s >= 60 && scenario.arrivals_per_s * 60.0 >= 1.0)
                .then(|| peak_attempts / (scenario.arrivals_per_s * 60.0)),
            peak_vs_capacity: peak_attempts / (scenario.capacity_per_s * 60.0),
            outage_end_s: self.outage_end,
            drained_at_s: self.drained_at,
            emptied_at_s: self.emptied_at,
            drained_by: self.drained_at.map(|_| {
                if self.exhausted_at_drain - self.exhausted_at_outage_end < 0.5 {
                    DrainedBy::Delivery
                } else {
                    DrainedBy::Exhaustion
                }
            }),
            // Not under half a delivery, which the totals write as none (the fluid engine's
            // 0.0001 expected deliveries read "0 of 72,000 delivered … 504,000,000 attempts
            // per delivered event").
            attempts_per_delivered: (delivered >= 0.5).then(|| attempts / delivered),
            horizon_s: self.count,
            breaker_openings,
        };
        // The survival map's test of collapse, on the whole minutes simulated in the hour after
        // the outage, while steady traffic lasts: once it has stopped, the arrival rate is no
        // longer what the destination is asked for (30 s of traffic and an 8 s outage read
        // "in the hour after recovery 0% of the arrival rate is delivered").
        let end = summary.outage_end_s;
        let window = crate::survival::RECOVERY_WINDOW_S.min(self.count.saturating_sub(end));
        let traffic_lasts = scenario.traffic_s >= end + window;
        let recovery =
            (window >= 60 && traffic_lasts && scenario.arrivals_per_s > 0.0).then(|| Recovery {
                goodput_share: goodput_per_s(&minutes, end, window) / scenario.arrivals_per_s,
                destination_failing: failed_share(&minutes, end, window) > 0.01,
            });
        let acted = BoundsActed {
            answered_429: total(|m| m.rejected_429),
            ..acted
        };
        let caption = super::caption::caption(scenario, &summary, &last, recovery, &acted);
        StormReport {
            engine: engine.to_string(),
            minutes,
            seconds: self.seconds.unwrap_or_default(),
            summary,
            caption,
        }
    }
}

impl StormReport {
    /// The same report with at most `points` minutes, for a chart a thousand pixels wide: each
    /// run of consecutive minutes keeps its busiest and its quietest minute, in their order, so
    /// that peaks and troughs survive. The summary, caption and totals stay the full run's.
    pub fn for_chart(&self, points: usize) -> StormReport {
        let per_run = self.minutes.len().div_ceil(points.max(2) / 2).max(1);
        if per_run <= 2 {
            return self.clone();
        }
        let minutes = self
            .minutes
            .chunks(per_run)
            .flat_map(|run| {
                let by_attempts = |a: &&Interval, b: &&Interval| a.attempts.total_cmp(&b.attempts);
                let busiest = run.iter().max_by(by_attempts).copied().unwrap_or_default();
                let quietest = run.iter().min_by(by_attempts).copied().unwrap_or_default();
                if busiest.index <= quietest.index {
                    [busiest, quietest]
                } else {
                    [quietest, busiest]
                }
            })
            .collect();
        StormReport {
            minutes,
            seconds: Vec::new(),
            ..self.clone()
        }
    }

    /// The summary in words, then minutes as a table: every minute of the first half hour and
    /// of the quarter hour from recovery, the peak's and the longest queue's, then every
    /// fifteenth (a last line says so when any is left out). The minutes after recovery, where
    /// the queue and the duplicates are, were left out of a 2 h outage's table but every 15th
    /// (outside SRE review).
    pub fn to_table(&self) -> String {
        let mut out = format!("{}\n\n", self.caption);
        out += "minute  attempts  first  retries  successes  failures   429s  duplicates  backlog   queue  exhausted  deferred\n";
        let recovery = self.summary.outage_end_s / 60 + 1;
        let longest_queue = (self.minutes.iter())
            .max_by(|a, b| a.queue.total_cmp(&b.queue))
            .filter(|m| m.queue > 0.0)
            .map(|m| m.index);
        let shown = |m: &&Interval| {
            m.index <= 30
                || m.index % 15 == 0
                || (recovery..recovery + 15).contains(&m.index)
                || m.index == self.summary.peak_minute
                || Some(m.index) == longest_queue
        };
        for m in self.minutes.iter().filter(shown) {
            out += &format!(
                "{:>6}  {:>8.0}  {:>5.0}  {:>7.0}  {:>9.0}  {:>8.0}  {:>5.0}  {:>10.0}  {:>7.0}  {:>6.0}  {:>9.0}  {:>8.0}\n",
                m.index, m.attempts, m.first_attempts, m.retries, m.successes, m.failures, m.rejected_429,
                m.duplicates, m.backlog, m.queue, m.exhausted, m.deferred
            );
        }
        if self.minutes.iter().any(|m| !shown(&m)) {
            out += "(every minute of the first half hour and of the quarter hour from recovery, the peak's and the longest queue's, then every 15th; --format csv or json has them all)\n";
        }
        out
    }

    /// CSV, one line per second when the report kept seconds, else per minute.
    pub fn to_csv(&self) -> String {
        let (unit, rows) = if self.seconds.is_empty() {
            ("minute", &self.minutes)
        } else {
            ("second", &self.seconds)
        };
        let mut out = Interval::csv_header(unit) + "\n";
        for r in rows {
            out += &r.csv_line();
            out += "\n";
        }
        out
    }
}

impl Interval {
    /// The CSV columns of an interval, the first naming its `unit` (`minute`, `second`).
    pub fn csv_header(unit: &str) -> String {
        format!(
            "{unit},attempts,first_attempts,retries,successes,failures,rejected_429,duplicates,backlog,queue,exhausted,deferred"
        )
    }

    /// The interval as a CSV line of [`Interval::csv_header`]'s columns (no line break).
    pub fn csv_line(&self) -> String {
        let r = self;
        format!(
            "{},{},{},{},{},{},{},{},{},{},{},{}",
            r.index,
            r.attempts,
            r.first_attempts,
            r.retries,
            r.successes,
            r.failures,
            r.rejected_429,
            r.duplicates,
            r.backlog,
            r.queue,
            r.exhausted,
            r.deferred
        )
    }
}

/// Attempts answered within the timeout per second, over the minutes wholly inside the window of
/// `window_s` seconds from second `from` (0 when none is): the goodput by which the survival map
/// and the storm's caption call a storm collapsed. The minutes are the storm's own, counted from
/// second 0 (the `m`-th is seconds `60(m − 1)` to `60(m − 1) + 59`), not from `from`.
pub fn goodput_per_s(minutes: &[Interval], from: u32, window_s: u32) -> f64 {
    let (successes, count) = whole_minutes(minutes, from, window_s)
        .fold((0.0, 0u32), |(s, n), m| (s + m.successes, n + 1));
    if count == 0 {
        0.0
    } else {
        successes / f64::from(count * 60)
    }
}

/// The share of the attempts in the whole minutes of `from..from + window_s` that the
/// destination failed (timed out, lost or answered 429); 0 when nothing was attempted.
fn failed_share(minutes: &[Interval], from: u32, window_s: u32) -> f64 {
    let (failed, attempts) = whole_minutes(minutes, from, window_s)
        .fold((0.0, 0.0), |(f, a), m| {
            (f + m.failures + m.rejected_429, a + m.attempts)
        });
    if attempts > 0.0 {
        failed / attempts
    } else {
        0.0
    }
}

/// The minutes that lie wholly within `from..from + window_s`.
fn whole_minutes(
    minutes: &[Interval],
    from: u32,
    window_s: u32,
) -> impl Iterator<Item = &Interval> {
    let window = from..from + window_s;
    minutes.iter().filter(move |m| {
        let start = (m.index - 1) * 60;
        window.contains(&start) && start + 60 <= window.end
    })
}

/// The hour after the outage, as the caption reads it.
pub(crate) struct Recovery {
    /// Goodput ÷ the arrival rate (the survival map's test of collapse).
    pub goodput_share: f64,
    /// Whether the destination failed more than 1% of what it was sent: else a low goodput is
    /// the sender's doing (its gaps and bounds), not the destination's.
    pub destination_failing: bool,
}
