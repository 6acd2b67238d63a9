//! A schedule as a stable, plain-data report (the CLI's JSON and the JS API's result), and its
//! text renderings: the article's table, Markdown for design docs, CSV, and sentences.

use serde::{Deserialize, Serialize};

use crate::number_text::{count_of, format_count, without_trailing_zeros};
use crate::{format_duration, Error, Policy, Schedule, Stop};

/// One attempt in a report. Seconds are plain numbers.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportRow {
    /// 1 for the first delivery.
    pub attempt: u32,
    /// The wait before this attempt; `null` for attempt 1.
    pub gap_s: Option<f64>,
    /// Seconds since the first failure.
    pub elapsed_s: f64,
    /// Whether the gap sits at the cap.
    pub capped: bool,
    /// The gap as the article writes it: `none`, `4.5 min`, `3 h (capped)`.
    pub gap_text: String,
    /// The elapsed time as the article writes it: `6.5 min`, `24 h 02 min`.
    pub elapsed_text: String,
}

/// A schedule and its derived facts: the JSON contract other tools script against.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScheduleReport {
    /// One row per attempt (the page's drawn schedule: the rows it shows, see
    /// `page::table::shown`; every other field is the whole schedule's).
    pub rows: Vec<ReportRow>,
    /// Attempts in all.
    pub attempts: u32,
    /// The policy's base, seconds.
    pub base_s: f64,
    /// The policy's multiplier.
    pub multiplier: f64,
    /// The policy's cap, seconds.
    pub cap_s: f64,
    /// Seconds from the first failure to the last attempt.
    pub give_up_s: f64,
    /// The first attempt whose gap sits at the cap, or `null`.
    pub first_capped_attempt: Option<u32>,
    /// The early window, seconds (20 min unless chosen).
    pub window_s: f64,
    /// Attempts within the early window, the first delivery included.
    pub attempts_within_window: usize,
    /// Share (0 to 1) of the give-up time spent in capped gaps.
    pub capped_share: f64,
    /// The last gap without a cap, or `null` (one attempt, or beyond f64).
    pub uncapped_last_gap_s: Option<f64>,
    /// Whether every gap is longer than all previous gaps combined.
    pub every_gap_exceeds_previous_total: bool,
    /// Whether every gap below the cap is longer than all previous gaps combined.
    pub ramp_exceeds_previous_total: bool,
    /// The derived facts, one plain sentence each.
    pub facts: Vec<String>,
    /// A paragraph describing the timeline figure; also its text alternative.
    pub caption: String,
}

impl ScheduleReport {
    /// Builds the report of `schedule`, counting attempts inside `window_s`.
    ///
    /// # Example
    /// ```
    /// use backoff_lab::{Policy, ScheduleReport};
    /// let report = ScheduleReport::new(&Policy::article().schedule(), 1200.0);
    /// assert_eq!(report.first_capped_attempt, Some(8));
    /// assert_eq!(report.attempts_within_window, 5);
    /// ```
    pub fn new(schedule: &Schedule, window_s: f64) -> Self {
        Self::with_rows(schedule, window_s, schedule.rows())
    }

    /// [`ScheduleReport::new`] with only `rows` of the schedule written out (the page shows a
    /// long schedule's first rows and its last: writing all 10,000 rows' durations, to drop
    /// 9,600 of them, took 10 ms of each redraw natively); every other field is the whole
    /// schedule's.
    pub(crate) fn with_rows(schedule: &Schedule, window_s: f64, rows: &[crate::Row]) -> Self {
        let policy = schedule.policy();
        let rows = rows
            .iter()
            .map(|row| ReportRow {
                attempt: row.attempt,
                gap_s: row.gap_s,
                elapsed_s: row.elapsed_s,
                capped: row.capped,
                gap_text: match row.gap_s {
                    None => "none".to_string(),
                    Some(gap) if row.capped => {
                        format!("{} (capped)", format_duration(gap))
                    }
                    Some(gap) => format_duration(gap),
                },
                elapsed_text: format_duration(row.elapsed_s),
            })
            .collect();
        ScheduleReport {
            rows,
            attempts: policy.attempts(),
            base_s: policy.base_s(),
            multiplier: policy.multiplier(),
            cap_s: policy.cap_s(),
            give_up_s: schedule.give_up_s(),
            first_capped_attempt: schedule.first_capped_attempt(),
            window_s,
            attempts_within_window: schedule.attempts_within(window_s),
            capped_share: schedule.capped_share(),
            uncapped_last_gap_s: schedule.uncapped_last_gap_s(),
            every_gap_exceeds_previous_total: schedule.every_gap_exceeds_previous_total(),
            ramp_exceeds_previous_total: schedule.ramp_exceeds_previous_total(),
            facts: facts(schedule, window_s),
            caption: caption(schedule),
        }
    }

    /// The article's table (Attempt | Gap before it | Elapsed since first failure), aligned for
    /// a terminal, followed by the facts. Every cell is the exact time rounded on its own, so
    /// rounded gaps need not add up to the rounded elapsed time (3635 s and 7300 s read
    /// `1 h 01 min` and `2 h 02 min`; their sum, 10935 s, reads `3 h 02 min`).
    pub fn to_table(&self) -> String {
        let cells = self.human_cells();
        let widths = [0, 1, 2].map(|i| {
            cells
                .iter()
                .map(|row| row[i].chars().count())
                .max()
                .unwrap_or(0)
        });
        let mut out = String::new();
        for (n, row) in cells.iter().enumerate() {
            out += &format!(
                "{:>w0$}  {:<w1$}  {}\n",
                row[0],
                row[1],
                row[2],
                w0 = widths[0],
                w1 = widths[1]
            );
            if n == 0 {
                out += &format!("{}\n", "-".repeat(widths[0] + widths[1] + widths[2] + 4));
            }
        }
        out.push('\n');
        for fact in &self.facts {
            out += &format!("{fact}\n");
        }
        out
    }

    /// A Markdown table with the facts as a list, pasteable into a design doc.
    pub fn to_markdown(&self) -> String {
        let cells = self.human_cells();
        let mut out = String::new();
        for (n, row) in cells.iter().enumerate() {
            out += &format!("| {} | {} | {} |\n", row[0], row[1], row[2]);
            if n == 0 {
                out += "| ---: | --- | --- |\n";
            }
        }
        out.push('\n');
        for fact in &self.facts {
            out += &format!("- {fact}\n");
        }
        out
    }

    /// CSV with a header and one line per attempt; seconds as numbers, an empty gap for attempt 1.
    pub fn to_csv(&self) -> String {
        let mut out = String::from("attempt,gap_s,elapsed_s,capped\n");
        for row in &self.rows {
            let gap = row.gap_s.map(|g| g.to_string()).unwrap_or_default();
            out += &format!("{},{},{},{}\n", row.attempt, gap, row.elapsed_s, row.capped);
        }
        out
    }

    fn human_cells(&self) -> Vec<[String; 3]> {
        let header = ["Attempt", "Gap before it", "Elapsed since first failure"].map(String::from);
        let body = self.rows.iter().map(|row| {
            [
                row.attempt.to_string(),
                row.gap_text.clone(),
                row.elapsed_text.clone(),
            ]
        });
        std::iter::once(header).chain(body).collect()
    }
}

/// Formats a multiplier as the article does: `×3`, `×1.6`.
pub fn format_multiplier(multiplier: f64) -> String {
    format!("×{}", without_trailing_zeros(&format!("{multiplier:.3}")))
}

fn facts(schedule: &Schedule, window_s: f64) -> Vec<String> {
    let policy = schedule.policy();
    let attempts = policy.attempts();
    let count = |n: u32| format_count(f64::from(n));
    let mut facts = vec![format!(
        "Gives up {} after the first failure, at attempt {}{}.",
        format_duration(schedule.give_up_s()),
        count(attempts),
        past_deadline(schedule)
    )];
    let explicit = policy.explicit_gaps().is_some();
    match schedule.first_capped_attempt() {
        _ if explicit => {}
        _ if policy.is_fixed_interval() && attempts > 1 => facts.push(format!(
            "A fixed interval: every gap is {}.",
            format_duration(policy.gap(1))
        )),
        _ if policy.is_fixed_interval() => {}
        Some(first) => facts.push(format!(
            "The {} cap engages at attempt {}; gaps at the cap hold {} of the time to give up, \
             and each further attempt adds exactly one cap.",
            crate::duration::as_adjective(&format_duration(policy.cap_s())),
            count(first),
            crate::number_text::share_percent(schedule.capped_share())
        )),
        None if attempts > 1 => facts.push(format!(
            "The {} cap is never reached: the longest gap is {}.",
            crate::duration::as_adjective(&format_duration(policy.cap_s())),
            format_duration(schedule.rows().last().and_then(|r| r.gap_s).unwrap_or(0.0))
        )),
        None => {}
    }
    let early = schedule.attempts_within(window_s);
    facts.push(format!(
        "{} of {} land{} inside the first {}.",
        format_count(early as f64),
        count_of(u64::from(attempts), "attempt"),
        if early == 1 { "s" } else { "" },
        format_duration(window_s)
    ));
    // Worth saying only when the cap cut the last gap (a base at the cap changes nothing).
    let cut = schedule
        .uncapped_last_gap_s()
        .is_none_or(|gap| gap > policy.cap_s());
    if schedule.first_capped_attempt().is_some() && cut {
        facts.push(match schedule.uncapped_last_gap_s() {
            Some(gap) => format!(
                "Uncapped, the gap before attempt {} alone would be {}.",
                count(attempts),
                format_duration(gap)
            ),
            None => format!(
                "Uncapped, the gap before attempt {} would be over 10³⁰⁸ seconds, more than a \
                 number here can hold.",
                count(attempts)
            ),
        });
    }
    // A ramp of fewer than two gaps below the cap (a base at the cap) has no shape to tell.
    let ramp = schedule
        .rows()
        .iter()
        .skip(1)
        .filter(|row| !row.capped)
        .count();
    // A fixed interval has no ramp and no shape to tell beyond its fact above.
    if attempts > 2 && !explicit && !policy.is_fixed_interval() {
        if schedule.every_gap_exceeds_previous_total() {
            facts.push("Every gap is longer than all previous gaps combined.".to_string());
        } else if ramp >= 2 && schedule.ramp_exceeds_previous_total() {
            facts.push(
                "Below the cap, each gap is longer than all previous gaps combined: the ramp is \
                 cheap, the tail is where the time goes."
                    .to_string(),
            );
        } else if ramp >= 2 && schedule.capped_share() < 0.5 {
            facts.push(
                "Gaps grow slower than the time already spent: with a multiplier under 2 the \
                 ramp itself takes most of the time."
                    .to_string(),
            );
        } else if ramp >= 2 {
            // The cap's share, told above, is most of the time: the ramp is only slow.
            facts.push(
                "Below the cap, gaps grow slower than the time already spent (a multiplier \
                 under 2)."
                    .to_string(),
            );
        }
    }
    facts
}

fn caption(schedule: &Schedule) -> String {
    const LISTED: usize = 8;
    let policy = schedule.policy();
    let rows = schedule.rows();
    let ramp: Vec<_> = rows.iter().take_while(|r| !r.capped).take(LISTED).collect();
    // A list cut short ends "and so on" ("1 h, …." read as a stray full stop after "and").
    let cut = ramp.len() < rows.iter().take_while(|r| !r.capped).count();
    let list = |values: Vec<String>| match values.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        all if cut => format!("{} and so on", all.join(", ")),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    let times = list(ramp.iter().map(|r| format_duration(r.elapsed_s)).collect());
    let gaps = list(
        ramp.iter()
            .filter_map(|r| r.gap_s)
            .map(format_duration)
            .collect(),
    );
    let mut text = match policy.explicit_gaps() {
        Some((_, Some(every))) => format!(
            "A retry timeline of listed gaps, then one every {}: ",
            format_duration(every)
        ),
        Some((_, None)) => "A retry timeline of listed gaps: ".to_string(),
        None if policy.is_fixed_interval() => format!(
            "A retry timeline at a fixed {} interval: ",
            format_duration(policy.gap(1))
        ),
        None => format!(
            "A retry timeline for {} base, a {} multiplier and {} cap: ",
            crate::duration::with_article(&format_duration(policy.base_s())),
            format_multiplier(policy.multiplier()),
            crate::duration::with_article(&format_duration(policy.cap_s()))
        ),
    };
    if ramp.len() > 1 && policy.explicit_gaps().is_none() && policy.is_fixed_interval() {
        // Its one gap is in the sentence's start: "gaps of 1 ms, 1 ms, 1 ms and 1 ms" said no more.
        text += &format!("attempts land at {times}. ");
    } else if ramp.len() == 2 && !cut {
        text += &format!("attempts land at {times}, separated by a gap of {gaps}. ");
    } else if ramp.len() > 1 {
        text += &format!("attempts land at {times}, separated by gaps of {gaps}. ");
    } else {
        text += "the first delivery is at 0 s. ";
    }
    // Attempt numbers grouped by thousands, as everywhere ("attempt 2,000").
    let last = format_count(f64::from(rows.last().map_or(1, |r| r.attempt)));
    let give_up = format_duration(schedule.give_up_s());
    let last_attempt = rows.last().map_or(1, |r| r.attempt);
    match schedule.first_capped_attempt() {
        // The cap engages at the last attempt: no further attempt sits after it (the caption of
        // 8 attempts said "every further attempt sits 3 h after the last": outside review).
        Some(first) if !policy.is_fixed_interval() && first == last_attempt => {
            text += &format!(
                "The cap engages at attempt {last}, a gap of {}, which falls at {give_up}, where \
                 the schedule gives up.",
                format_duration(policy.cap_s())
            )
        }
        Some(first) if !policy.is_fixed_interval() => {
            text += &format!(
            "From attempt {} the cap engages and every further attempt sits {} after the last, \
             so attempt {last} falls at {give_up}, where the schedule gives up.",
            format_count(f64::from(first)),
            format_duration(policy.cap_s())
        )
        }
        _ => text += &format!("Attempt {last} falls at {give_up}, where the schedule gives up."),
    }
    if let Some((_, deadline, _)) = crossed_deadline(schedule) {
        text += &format!(
            " It is the first attempt at or past the {deadline} deadline, and is still made."
        );
    }
    text
}

/// A give-up deadline the last attempt passes: the attempt before it, and the deadline and that
/// attempt's time as text, written apart where rounding would write them alike (the attempt
/// before falls before the deadline, and must not read as falling on it).
fn crossed_deadline(schedule: &Schedule) -> Option<(u32, String, String)> {
    let Stop::GiveUpAfter(deadline_s) = schedule.policy().stop() else {
        return None;
    };
    match schedule.rows() {
        [.., before, last] if last.elapsed_s > deadline_s => {
            let (deadline, before_text) = crate::format_distinct(deadline_s, before.elapsed_s);
            Some((before.attempt, deadline, before_text))
        }
        _ => None,
    }
}

/// For a give-up deadline, where it falls: on the last attempt, or between the last two (the
/// first attempt at or past it is still made, as the CLI's `--give-up` documents).
fn past_deadline(schedule: &Schedule) -> String {
    let Stop::GiveUpAfter(deadline_s) = schedule.policy().stop() else {
        return String::new();
    };
    match crossed_deadline(schedule) {
        Some((attempt, deadline, before)) => format!(
            ", the first at or past the {deadline} deadline (attempt {} falls at {before})",
            format_count(f64::from(attempt))
        ),
        None => format!(", on the {} deadline", format_duration(deadline_s)),
    }
}

/// `solve-cap`'s answer in one sentence: the smallest cap (never below the base) with which
/// `attempts` attempts of `policy`'s base and multiplier reach `deadline_s` (its own cap is not
/// read). The cap is rounded up to the precision it is written in (the nanosecond under a
/// millisecond, the microsecond under a second, else the millisecond), so that the cap as written,
/// typed back, reaches the deadline; it reads as [`crate::duration::format_cap`] writes it, then in
/// seconds. When even a cap at the base lands past the deadline, the sentence says where, and names
/// only what reaches the deadline instead: the fewer attempts that do (counts this answers with a
/// cap), and a shorter base (deadline ÷ retries, with a cap at it, does); that cap, the base, is
/// written in plain seconds where the words would round it below the base.
///
/// # Example
/// ```
/// use backoff_lab::{cap_answer, Policy};
/// assert_eq!(
///     cap_answer(&Policy::article(), 86_400.0, 14)?,
///     "A cap of 2 h 59 min 42.858 s (10782.858 s) makes 14 attempts reach 24 h.\n"
/// );
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn cap_answer(policy: &Policy, deadline_s: f64, attempts: u32) -> Result<String, Error> {
    // The seconds beside a cap in larger units, for a config file ("15 s (15 s)" said it twice).
    let cap_text = |cap: f64| {
        // A cap that rounds below itself (the base, 391.590331 s, read "6 min 31.59 s", which
        // typed back is refused as under the base) is written in plain seconds, exactly.
        let seconds = format!("{} s", csv_number(cap));
        let written = Some(crate::duration::format_cap(cap))
            .filter(|text| crate::parse_duration("cap", text).is_ok_and(|back| back >= cap))
            .unwrap_or_else(|| seconds.clone());
        if written == seconds {
            written
        } else {
            format!("{written} ({seconds})")
        }
    };
    let (cap, reached) = match solved_cap(policy, deadline_s, attempts)? {
        SolvedCap::Reaches(cap) => {
            return Ok(format!(
                "A cap of {} makes {} reach {}.\n",
                cap_text(written_cap(policy, deadline_s, attempts, cap)),
                count_of(u64::from(attempts), "attempt"),
                crate::duration::format_unrounded(deadline_s)
            ))
        }
        SolvedCap::Overshoots { cap, reached } => (cap, reached),
    };
    let instead = match counts_that_reach(policy, deadline_s, attempts) {
        None => "a shorter base reaches it".to_string(),
        Some((fewest, most)) => {
            let (fewest, most, gap) = (
                format_count(f64::from(fewest)),
                format_count(f64::from(most)),
                most - fewest,
            );
            let counts = match gap {
                0 => fewest,
                1 => format!("{fewest} or {most}"),
                _ => format!("{fewest} to {most}"),
            };
            // Said as who reaches it how: "9 to 2,881 attempts reach it, as does a shorter
            // base" left the reader asking with what (outside review); each count reaches it
            // with a cap of its own, where the cap plays a part at all.
            format!(
                "with {counts} attempts it can be reached, and with {} a shorter base reaches it",
                format_count(f64::from(attempts))
            )
        }
    };
    // Written apart where rounding would write them alike: "reach 2 min, past the 2 min asked".
    let (reached, asked) = crate::format_distinct(reached, deadline_s);
    Ok(format!(
        "A cap of {}, the smallest there is (the base), makes {} reach {reached}, past \
         the {asked} asked: {instead}.\n",
        cap_text(cap),
        count_of(u64::from(attempts), "attempt"),
    ))
}

/// The solved `cap` as written, to the precision it is written in
/// ([`crate::duration::cap_steps_per_second`]; one under a nanosecond as it is): the nearest such value where, typed back, it makes `attempts` attempts reach the
/// deadline (by the rule of an attempt at a mark), else the next one up. Rounded to the
/// nearest alone, 2 h 59 min 42.857 s (of 42.857142… s) made 14 attempts fall 0.9 ms short of
/// 24 h (outside review); rounded up alone, a cap on a step already could gain a step from
/// float noise.
fn written_cap(policy: &Policy, deadline_s: f64, attempts: u32, cap: f64) -> f64 {
    if cap < 1e-9 {
        return cap;
    }
    let per_second = crate::duration::cap_steps_per_second(cap);
    let nearest = (cap * per_second).round();
    let reaches = |written: f64| {
        Policy::new(
            policy.base_s(),
            policy.multiplier(),
            written,
            Stop::Attempts(attempts),
        )
        .is_ok_and(|typed| crate::reaches::reaches(typed.schedule().give_up_s(), deadline_s))
    };
    if reaches(nearest / per_second) {
        nearest / per_second
    } else {
        (nearest + 1.0) / per_second
    }
}

/// The cap `solve-cap` finds, and whether the deadline is then met.
enum SolvedCap {
    /// `attempts` attempts land on the deadline.
    Reaches(f64),
    /// The cap is the base and the attempts still land past the deadline, at `reached`.
    Overshoots { cap: f64, reached: f64 },
}

fn solved_cap(policy: &Policy, deadline_s: f64, attempts: u32) -> Result<SolvedCap, Error> {
    let cap = policy.cap_for_deadline(deadline_s, attempts)?;
    let reached = Policy::new(
        policy.base_s(),
        policy.multiplier(),
        cap,
        Stop::Attempts(attempts),
    )?
    .schedule()
    .give_up_s();
    // The solved cap lands on the deadline up to float noise ([`crate::reaches`]); past that,
    // only a cap below the base, which there is not, would do.
    Ok(if !crate::reaches::within(reached, deadline_s) {
        SolvedCap::Overshoots { cap, reached }
    } else {
        SolvedCap::Reaches(cap)
    })
}

/// The counts from 2 to `attempts − 1` that land on the deadline with some cap, as the fewest
/// and the most of them. They form one run: fewer attempts reach less even uncapped (below the
/// run: unreachable), more attempts reach more even at the base (above it: past the deadline).
fn counts_that_reach(policy: &Policy, deadline_s: f64, attempts: u32) -> Option<(u32, u32)> {
    let fewer: Vec<u32> = (2..attempts).collect();
    let first_reaching =
        fewer.partition_point(|&n| policy.cap_for_deadline(deadline_s, n).is_err());
    let first_past = fewer.partition_point(|&n| {
        !matches!(
            solved_cap(policy, deadline_s, n),
            Ok(SolvedCap::Overshoots { .. })
        )
    });
    (first_reaching < first_past).then(|| (fewer[first_reaching], fewer[first_past - 1]))
}

/// A number for CSV: at most 12 significant digits, so that the noise of sums and
/// interpolations (`254.99999999999997`) reads as the value it stands for (`255`), far finer
/// than any figure the tool computes; whole numbers without a decimal point.
pub(crate) fn csv_number(value: f64) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    without_float_noise(value).to_string()
}

/// `value` to 12 significant digits, which drops the noise of float arithmetic: a share of 0.07
/// times 100 is 7, not 7.000000000000001 (the CSVs' numbers and `storm --format json`'s
/// `budget_percent`).
pub fn without_float_noise(value: f64) -> f64 {
    format!("{value:.11e}").parse().unwrap_or(value)
}

/// A percentage as a person gave it (`49.5%` for 100 less a 50.5th percentile, `0.001%` for
/// 100 less 99.999), not rounded to a whole percent: to ten decimals, which a percentage typed
/// with twelve significant digits has at most, and which drop the float noise of taking it from
/// 100 (`0.000999999999995`). One that would then read `0%` or `100%` while it is not is written
/// as [`whole_percent`] writes it (`over 99.999%`).
pub(crate) fn percent_as_given(percent: f64) -> String {
    let text = without_trailing_zeros(&format!("{percent:.10}")).to_string();
    let shown: f64 = text.parse().unwrap_or(percent);
    if (shown == 0.0 && percent > 0.0) || (shown == 100.0 && percent < 100.0) {
        whole_percent(percent)
    } else {
        text + "%"
    }
}

/// A percentage to the whole percent, with as many decimals (up to three) as keep a share that
/// is not all or nothing from reading `100%` or `0%` (149 of 72,000 delivered is 99.8% exhausted).
pub(crate) fn whole_percent(percent: f64) -> String {
    percent_reading(percent, |_| false)
}

/// [`whole_percent`] of a share said to be most of a whole: over a half, it never reads `50%`
/// ("most deliveries run out of attempts (50% exhausted)" read as a contradiction: outside
/// product review), 50.4% or 50.004% instead.
pub(crate) fn most_percent(percent: f64) -> String {
    percent_reading(percent, |shown| percent > 50.0 && shown <= 50.0)
}

/// `percent` to the fewest decimals (up to three) at which it reads neither `0%` nor `100%`
/// unless it is, nor what `misleading` refuses.
fn percent_reading(percent: f64, misleading: impl Fn(f64) -> bool) -> String {
    for decimals in 0..=3 {
        let text = format!("{percent:.decimals$}");
        let shown: f64 = text.parse().unwrap_or(percent);
        let extreme = (shown == 0.0 && percent > 0.0) || (shown == 100.0 && percent < 100.0);
        if !extreme && !misleading(shown) {
            return text + "%";
        }
    }
    if percent < 50.0 {
        "under 0.001%"
    } else if percent < 99.0 {
        "over 50%"
    } else {
        "over 99.999%"
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    /// A share said to be most of a whole never reads 50%, nor 100% unless it is; any other
    /// share reads as the whole percent does.
    #[test]
    fn most_reads_over_a_half() {
        use super::{most_percent, whole_percent};
        assert_eq!(whole_percent(50.4), "50%");
        for (percent, most) in [
            (50.4, "50.4%"),
            (50.004, "50.004%"),
            (50.0004, "over 50%"),
            (60.0, "60%"),
            (99.96, "99.96%"),
            (100.0, "100%"),
        ] {
            assert_eq!(most_percent(percent), most, "{percent}");
        }
    }

    /// A cap held at the base is written so that it reads back as the base: to the millisecond
    /// it read "6 min 31.59 s", below the 391.590331 s base, and typed back was refused.
    #[test]
    fn a_cap_at_the_base_reads_back_as_the_base() {
        for (base, written) in [(391.590331, "391.590331 s"), (0.5000004, "0.5000004 s")] {
            let policy = crate::Policy::new(base, 1.0, 400.0, crate::Stop::Attempts(22)).unwrap();
            let answer = super::cap_answer(&policy, 22.0 * base / 2.0, 22).unwrap();
            assert!(
                answer.starts_with(&format!("A cap of {written}, the smallest there is")),
                "{answer}"
            );
            // Typed back, the cap is the base.
            let typed = crate::parse_duration("cap", written).unwrap();
            assert!(crate::Policy::new(base, 1.0, typed, crate::Stop::Attempts(22)).is_ok());
        }
    }

    use super::*;
    use crate::Policy;
    #[cfg(not(target_arch = "wasm32"))]
    use proptest::prelude::*;

    /// A cap on a millisecond already gained one from float noise when rounded up alone
    /// (outside review: 16,778,664.759 s, where .758 reaches 365 days).
    #[test]
    fn a_cap_on_a_millisecond_is_written_as_it_is() {
        let policy =
            Policy::new(14_757_335.242, 1_000.0, 14_757_335.242, Stop::Attempts(3)).unwrap();
        assert_eq!(
            cap_answer(&policy, 365.0 * 86_400.0, 3).unwrap(),
            "A cap of 194 days 4 h 44 min 24.758 s (16778664.758 s) makes 3 attempts reach 365 \
             days.\n"
        );
    }

    /// A cap in seconds alone is written once ("15 s (15 s)" said it twice).
    #[test]
    fn a_cap_in_seconds_is_not_written_twice() {
        let policy = Policy::new(5.0, 2.0, 5.0, Stop::Attempts(4)).unwrap();
        assert_eq!(
            cap_answer(&policy, 30.0, 4).unwrap(),
            "A cap of 15 s makes 4 attempts reach 30 s.\n"
        );
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest! {
        /// `solve-cap`'s cap, typed back as its sentence writes it (in words and in seconds),
        /// makes the attempts reach the deadline, and one step of its precision less does not
        /// (outside review: written rounded to the nearest, it fell short by 0.9 ms).
        #[test]
        fn the_written_cap_typed_back_reaches_the_deadline(
            base_exponent in -6.0f64..2.8,
            multiplier in 1.0f64..5.0,
            attempts in 3u32..40,
            stretch in 0.0f64..1.0,
        ) {
            let base = 10f64.powf(base_exponent);
            let policy = Policy::new(base, multiplier, base, Stop::Attempts(attempts)).unwrap();
            let uncapped = Policy::new(base, multiplier, crate::policy::MAX_SPAN_S, Stop::Attempts(attempts))
                .unwrap().schedule().give_up_s();
            let floor = base * f64::from(attempts - 1);
            prop_assume!(uncapped > floor * 1.001);
            let deadline = floor + (uncapped.min(floor * 100.0) - floor) * stretch;
            let sentence = cap_answer(&policy, deadline, attempts).unwrap();
            prop_assume!(!sentence.contains("the smallest there is"));
            let cap = sentence.strip_prefix("A cap of ").unwrap().split(" makes").next().unwrap();
            let words = cap.split(" (").next().unwrap();
            // Beside the words in brackets, or the words themselves when in seconds alone.
            let seconds_text = cap.split(" (").nth(1).map_or(words, |s| s.trim_end_matches(')'));
            let seconds: f64 = seconds_text.trim_end_matches(" s").parse().unwrap();
            let gives_up = |cap: f64| {
                Policy::new(base, multiplier, cap.max(base), Stop::Attempts(attempts)).unwrap().schedule().give_up_s()
            };
            let typed = crate::parse_duration("cap", words).unwrap();
            prop_assert!(crate::reaches::reaches(gives_up(typed), deadline), "{sentence}");
            prop_assert!(crate::reaches::reaches(gives_up(seconds), deadline), "{sentence}");
            let step = match seconds {
                s if s < 1e-3 => 1e-9,
                s if s < 1.0 => 1e-6,
                _ => 1e-3,
            };
            prop_assert!(seconds - step < base || !crate::reaches::reaches(gives_up(seconds - step), deadline), "{sentence}");
        }
    }

    fn article() -> ScheduleReport {
        ScheduleReport::new(&Policy::article().schedule(), 1_200.0)
    }

    /// A staleness CSV read `254.99999999999997` for a p95 of 255 s: CSV numbers keep 12
    /// significant digits, which is noise-free and loses nothing a figure here has.
    /// Attempt numbers in the caption are grouped by thousands, as in the facts.
    #[test]
    fn the_caption_groups_attempt_numbers() {
        let policy = Policy::new(30.0, 3.0, 10_800.0, Stop::Attempts(2_000)).unwrap();
        let report = ScheduleReport::new(&policy.schedule(), 1_200.0);
        assert!(
            report.caption.contains("so attempt 2,000 falls at"),
            "{}",
            report.caption
        );
        let deadline = Policy::new(1.0, 1.0, 1.0, Stop::GiveUpAfter(1_500.5)).unwrap();
        let facts = ScheduleReport::new(&deadline.schedule(), 1_200.0).facts;
        assert!(facts[0].contains("(attempt 1,501 falls at"), "{}", facts[0]);
    }

    /// A multiplier under 2 whose cap holds most of the time said "the ramp itself takes most of
    /// the time" right after "gaps at the cap hold 60% of the time" (outside tester).
    #[test]
    fn a_slow_ramp_is_said_to_take_most_of_the_time_only_when_it_does() {
        let slow = |cap_s: f64| {
            let policy = Policy::new(45.0, 1.1, cap_s, Stop::GiveUpAfter(86_400.0)).unwrap();
            let schedule = policy.schedule();
            let facts = ScheduleReport::new(&schedule, 1_200.0).facts.join(" ");
            (schedule.capped_share(), facts)
        };
        let (share, capped) = slow(3_600.0);
        assert!(share > 0.5, "{share}");
        assert!(!capped.contains("ramp itself takes most"), "{capped}");
        assert!(capped.contains("Below the cap, gaps grow slower than the time already spent"));
        let (share, ramped) = slow(86_400.0);
        assert!(share < 0.5, "{share}");
        assert!(
            ramped.contains("the ramp itself takes most of the time"),
            "{ramped}"
        );
    }

    #[test]
    fn csv_numbers_carry_no_float_noise() {
        assert_eq!(csv_number(254.999_999_999_999_97), "255");
        assert_eq!(csv_number(764.999_999_999_9), "765");
        assert_eq!(csv_number(0.1 + 0.2), "0.3");
        assert_eq!(csv_number(101.576_666_666_666_67), "101.576666667");
        assert_eq!(csv_number(86_520.0), "86520");
        assert_eq!(csv_number(1e-7), "0.0000001");
        assert_eq!(csv_number(f64::NAN), "NaN");
    }

    #[test]
    fn a_percent_as_given_keeps_its_decimals() {
        assert_eq!(percent_as_given(100.0 - 50.5), "49.5%");
        assert_eq!(percent_as_given((1.0 - 0.505) * 100.0), "49.5%");
        assert_eq!(percent_as_given(95.0), "95%");
        assert_eq!(percent_as_given((1.0 - 0.999_99) * 100.0), "0.001%");
        assert_eq!(percent_as_given(100.0 - 1e-13), "over 99.999%");
    }

    #[test]
    fn table_mirrors_the_article() {
        let table = article().to_table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(
            lines[0],
            "Attempt  Gap before it  Elapsed since first failure"
        );
        assert_eq!(lines[2], "      1  none           0 s");
        assert_eq!(lines[4], "      3  90 s           2 min");
        assert_eq!(lines[5], "      4  4.5 min        6.5 min");
        assert_eq!(lines[9], "      8  3 h (capped)   6 h 02 min");
        assert!(table.contains("Gives up 24 h 02 min after the first failure, at attempt 14."));
        assert!(table.contains("The 3 h cap engages at attempt 8; gaps at the cap hold 87%"));
        assert!(table.contains("5 of 14 attempts land inside the first 20 min."));
        assert!(table.contains("Uncapped, the gap before attempt 14 alone would be 184 days."));
    }

    /// A base at the cap has no ramp and the cap cuts nothing: neither is described (it read
    /// "the ramp is cheap, the tail is where the time goes" and "uncapped … would be 30 s").
    #[test]
    fn a_schedule_without_a_ramp_tells_no_ramp() {
        let flat = Policy::new(30.0, 1.0, 30.0, Stop::Attempts(3)).unwrap();
        let facts = ScheduleReport::new(&flat.schedule(), 1_200.0).facts;
        assert!(!facts.iter().any(|f| f.contains("ramp")), "{facts:?}");
        assert!(
            !facts.iter().any(|f| f.starts_with("Uncapped")),
            "{facts:?}"
        );
        // The article's ramp is told.
        let facts = ScheduleReport::new(&Policy::article().schedule(), 1_200.0).facts;
        assert!(
            facts.iter().any(|f| f.contains("the ramp is cheap")),
            "{facts:?}"
        );
        assert!(facts.iter().any(|f| f.starts_with("Uncapped")), "{facts:?}");
    }

    /// A fixed interval (AWS SNS's 20 s, or a cap equal to the base) is called one: no cap
    /// "engages at attempt 2" and no row is marked capped in the text, the timeline shades no
    /// capped region; the CSV and the JSON agree: no gap of it is capped (the CSV said `true`
    /// for every gap the table did not mark).
    #[test]
    fn a_fixed_interval_is_called_one_not_a_cap() {
        for policy in [
            Policy::fixed(20.0, Stop::Attempts(4)).unwrap(),
            Policy::new(20.0, 3.0, 20.0, Stop::Attempts(4)).unwrap(),
        ] {
            let report = ScheduleReport::new(&policy.schedule(), 1_200.0);
            assert!(
                report
                    .facts
                    .contains(&"A fixed interval: every gap is 20 s.".to_string()),
                "{:?}",
                report.facts
            );
            let words = [report.to_table(), report.caption.clone()].concat();
            for word in ["cap engages", "(capped)", "cap is never reached"] {
                assert!(!words.contains(word), "{word}: {words}");
            }
            assert!(report.rows.iter().all(|row| !row.capped));
            assert_eq!(report.first_capped_attempt, None);
            assert!(report
                .to_csv()
                .lines()
                .skip(1)
                .all(|l| l.ends_with(",false")));
            assert!(report
                .caption
                .starts_with("A retry timeline at a fixed 20 s interval: "));
            let options = crate::chart::ChartOptions::default();
            let svg = crate::chart::to_svg((900, 320), |area| {
                crate::chart::timeline::draw(area, &policy.schedule(), &options)
            })
            .unwrap();
            assert!(
                !svg.contains("capped"),
                "the timeline shades a capped region"
            );
        }
    }

    /// A deadline crossed by the last attempt, which is still made: the facts and the caption
    /// say where it falls (they read as a schedule 1 h 02 min past what was asked). A deadline
    /// 20 s after attempt 8 is written apart from it: rounded alike, the sentence read "the
    /// first at or past the 6 h 02 min deadline (attempt 8 falls at 6 h 02 min)".
    #[test]
    fn a_deadline_is_named_where_it_falls() {
        let cases = [
            (7_200.0, "3 h 02 min", 7, "2 h", 6, "1 h 01 min"),
            (
                21_740.0,
                "9 h 02 min",
                9,
                "6 h 02 min 20 s",
                8,
                "6 h 02 min",
            ),
        ];
        for (deadline_s, give_up, last, deadline, before, before_at) in cases {
            let policy = Policy::new(30.0, 3.0, 10_800.0, Stop::GiveUpAfter(deadline_s)).unwrap();
            let report = ScheduleReport::new(&policy.schedule(), 1_200.0);
            assert_eq!(
                report.facts[0],
                format!(
                    "Gives up {give_up} after the first failure, at attempt {last}, the first at \
                     or past the {deadline} deadline (attempt {before} falls at {before_at})."
                )
            );
            assert!(
                report.caption.ends_with(&format!(
                    "It is the first attempt at or past the {deadline} deadline, and is still made."
                )),
                "{}",
                report.caption
            );
        }
        // A deadline an attempt lands on exactly.
        let on = Policy::new(30.0, 3.0, 10_800.0, Stop::GiveUpAfter(120.0)).unwrap();
        let report = ScheduleReport::new(&on.schedule(), 1_200.0);
        assert_eq!(
            report.facts[0],
            "Gives up 2 min after the first failure, at attempt 3, on the 2 min deadline."
        );
        assert!(report.caption.ends_with("where the schedule gives up."));
    }

    #[test]
    fn markdown_and_csv_have_one_line_per_attempt() {
        let report = article();
        let markdown = report.to_markdown();
        assert!(markdown
            .starts_with("| Attempt | Gap before it | Elapsed since first failure |\n| ---: |"));
        assert_eq!(markdown.lines().filter(|l| l.starts_with("| ")).count(), 16);
        assert!(markdown.contains("| 14 | 3 h (capped) | 24 h 02 min |"));
        let csv = report.to_csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 15);
        assert_eq!(lines[1], "1,,0,false");
        assert_eq!(lines[14], "14,10800,86520,true");
    }

    #[test]
    fn caption_reads_like_the_articles_figure() {
        assert_eq!(
            article().caption,
            "A retry timeline for a 30 s base, a ×3 multiplier and a 3 h cap: attempts land at 0 s, \
             30 s, 2 min, 6.5 min, 20 min, 1 h 01 min and 3 h 02 min, separated by gaps of 30 s, 90 s, \
             4.5 min, 13.5 min, 40.5 min and 2 h 02 min. From attempt 8 the cap engages and every \
             further attempt sits 3 h after the last, so attempt 14 falls at 24 h 02 min, where the \
             schedule gives up."
        );
    }

    /// The cap engaging at the last attempt has no further attempt to speak of.
    #[test]
    fn a_cap_engaging_at_the_last_attempt_is_said_as_such() {
        let policy = Policy::new(30.0, 3.0, 10_800.0, Stop::Attempts(8)).unwrap();
        let caption = ScheduleReport::new(&policy.schedule(), 1_200.0).caption;
        assert!(
            caption.ends_with(
                "The cap engages at attempt 8, a gap of 3 h, which falls at 6 h 02 min, where the \
                 schedule gives up."
            ),
            "{caption}"
        );
        assert!(!caption.contains("further"), "{caption}");
    }

    /// "an 8 s base" and "an 11 h cap", as they are said; one gap is "a gap".
    #[test]
    fn caption_says_an_before_eight_and_eleven_and_a_gap_alone() {
        let caption = |policy: Policy| ScheduleReport::new(&policy.schedule(), 1_200.0).caption;
        let text = caption(Policy::new(8.0, 3.0, 11.0 * 3_600.0, Stop::Attempts(3)).unwrap());
        assert!(
            text.starts_with("A retry timeline for an 8 s base, a ×3 multiplier and an 11 h cap:"),
            "{text}"
        );
        let text = caption(Policy::new(30.0, 3.0, 3_600.0, Stop::Attempts(2)).unwrap());
        assert!(
            text.contains("attempts land at 0 s and 30 s, separated by a gap of 30 s."),
            "{text}"
        );
    }

    /// Outside tester: a list cut short read "…and 1 h 47 min, …." (a stray full stop after
    /// "and"); a fixed interval listed its one gap eight times; a cap in days read "The 365
    /// days cap" where the caption says "a 365-day cap".
    #[test]
    fn captions_cut_lists_short_and_say_a_fixed_gap_once() {
        let report = |policy: Policy| ScheduleReport::new(&policy.schedule(), 1_200.0);
        let long = report(Policy::new(30.0, 1.5, 86_400.0, Stop::Attempts(30)).unwrap());
        assert!(
            long.caption.contains(
                "attempts land at 0 s, 30 s, 75 s, 2.4 min, 4.1 min, 6.6 min, 10.4 min, 16.1 min \
                 and so on, separated by gaps of 30 s, 45 s, 67.5 s, 101.3 s, 2.5 min, 3.8 min, \
                 5.7 min and so on."
            ),
            "{}",
            long.caption
        );
        let fixed = report(Policy::new(0.001, 3.0, 0.001, Stop::Attempts(50)).unwrap());
        assert!(
            fixed.caption.starts_with(
                "A retry timeline at a fixed 1 ms interval: attempts land at 0 s, 1 ms, 2 ms, \
                 3 ms, 4 ms, 5 ms, 6 ms, 7 ms and so on. Attempt 50"
            ),
            "{}",
            fixed.caption
        );
        let yearly =
            report(Policy::new(0.001, 1_000.0, 365.0 * 86_400.0, Stop::Attempts(20)).unwrap());
        assert!(
            yearly
                .facts
                .iter()
                .any(|f| f.starts_with("The 365-day cap engages at attempt")),
            "{:?}",
            yearly.facts
        );
    }

    #[test]
    fn json_contract_field_names() {
        let json = serde_json::to_value(article()).unwrap();
        assert_eq!(json["rows"][0]["gap_s"], serde_json::Value::Null);
        assert_eq!(json["rows"][1]["gap_s"], 30.0);
        assert_eq!(json["rows"][13]["elapsed_s"], 86_520.0);
        assert_eq!(json["give_up_s"], 86_520.0);
        assert_eq!(json["first_capped_attempt"], 8);
        assert_eq!(json["attempts_within_window"], 5);
        assert_eq!(json["uncapped_last_gap_s"], 15_943_230.0);
        let share = json["capped_share"].as_f64().unwrap();
        assert!((share - 0.8738).abs() < 1e-4);
    }

    #[test]
    fn explicit_schedules_speak_of_their_gaps_not_a_cap() {
        let svix = Policy::explicit(
            &[5.0, 300.0, 1_800.0, 7_200.0, 18_000.0, 36_000.0, 36_000.0],
            None,
            None,
        )
        .unwrap();
        let report = ScheduleReport::new(&svix.schedule(), 1_200.0);
        assert_eq!(report.give_up_s, 99_305.0);
        assert_eq!(crate::format_exact(report.give_up_s), "27 h 35 min 5 s");
        assert_eq!(report.first_capped_attempt, None);
        assert!(report
            .caption
            .starts_with("A retry timeline of listed gaps: attempts land at 0 s, 5 s, 5.1 min"));
        assert!(!report.facts.iter().any(|f| f.contains("cap")));
        assert_eq!(
            report.facts[1],
            "3 of 8 attempts land inside the first 20 min."
        );
    }

    #[test]
    fn multiplier_text() {
        assert_eq!(format_multiplier(3.0), "×3");
        assert_eq!(format_multiplier(1.6), "×1.6");
    }
}
