//! The backoff policy and its schedule: the gap before retry k is
//! `min(cap, base × multiplier^(k-1))`, attempt 1 is the first delivery at elapsed 0.

use crate::Error;

/// The longest base, cap or give-up deadline accepted: 365 days, in seconds.
pub const MAX_SPAN_S: f64 = 365.0 * 86_400.0;
/// The shortest base, gap, give-up deadline or window accepted: 1 µs, in seconds, the storm's
/// unit of time too. Shorter ones gave degenerate numbers (a 1e-15 s outage's lags read 0 s; a
/// 5e-324 s base left no deadline to ask for).
pub const MIN_SPAN_S: f64 = 1e-6;
/// The most attempts one schedule may have.
pub const MAX_ATTEMPTS: u32 = 10_000;
/// The largest multiplier accepted.
pub const MAX_MULTIPLIER: f64 = 1_000.0;

/// The valid range of a base, give-up deadline or window, in the words of every refusal:
/// "a duration from 1 µs to 365 days". Its upper end is built from [`MAX_SPAN_S`], so that a
/// new limit changes every message with it; its lower end, [`MIN_SPAN_S`], is held to its text
/// at compile time.
///
/// # Example
/// ```
/// use backoff_lab::policy::span_range;
/// assert_eq!(span_range(), "a duration from 1 µs to 365 days");
/// ```
pub fn span_range() -> String {
    format!("a duration {}", span_ends())
}

/// What each of a list's gaps must be: "durations from 1 µs to 365 days". A list's item that
/// does not read is refused in these words too (it was told a single duration's range).
pub(crate) fn gaps_range() -> String {
    format!("durations {}", span_ends())
}

/// "from 1 µs to 365 days": the ends of [`span_range`]. The lower end is written in
/// microseconds, as the storm's ranges write it ([`crate::format_duration`] would say
/// "0.001 ms").
fn span_ends() -> String {
    const _: () = assert!(MIN_SPAN_S == 1e-6, "the text below says 1 µs");
    format!("from 1 µs to {}", crate::format_duration(MAX_SPAN_S))
}

/// The valid range of a cap over a base of `base_s`: "a duration of at least the base (30 s) and
/// at most 365 days". The cap's lower end is the base: the one range for zero, too large and too
/// small. The base is written to the microsecond under a millisecond (a 0.5 ms base read
/// "0.001 s").
pub fn cap_range(base_s: f64) -> String {
    cap_range_written(&crate::duration::format_cap(base_s))
}

/// [`cap_range`] with the base as written.
fn cap_range_written(base: &str) -> String {
    format!(
        "a duration of at least the base ({base}) and {}",
        at_most_span()
    )
}

/// The refusal of a list of `count` gaps, fewer than one or more than [`MAX_EXPLICIT_GAPS`]
/// (the JS API says it before it reads a list of millions).
pub fn gap_count_refused(count: usize) -> Error {
    Error::out_of_range(
        "gaps",
        format!("{count} gaps"),
        "a list of 1 to 32 gaps (add a tail with then-every for more)",
    )
}

/// "at most 365 days": the upper end of [`span_range`], for the refusals worded around it.
fn at_most_span() -> String {
    format!("at most {}", crate::format_duration(MAX_SPAN_S))
}

/// When a delivery stops being retried.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stop {
    /// After this many attempts in all (the first delivery counts as attempt 1).
    Attempts(u32),
    /// After the first attempt at or past this many seconds since the first failure.
    GiveUpAfter(f64),
}

/// An exponential backoff policy, valid by construction.
///
/// # Example
/// ```
/// use backoff_lab::{Policy, Stop};
/// let policy = Policy::new(30.0, 3.0, 3.0 * 3600.0, Stop::GiveUpAfter(86_400.0))?;
/// assert_eq!(policy.attempts(), 14);
/// assert_eq!(policy.schedule().give_up_s(), 86_520.0);
/// # Ok::<(), backoff_lab::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Policy {
    base_s: f64,
    multiplier: f64,
    cap_s: f64,
    attempts: u32,
    stop: Stop,
    explicit: Option<GapList>,
}

/// The most gaps an explicit schedule lists (a tail repeats the last one for longer schedules).
pub const MAX_EXPLICIT_GAPS: usize = 32;

/// An explicit list of gaps, optionally followed by a steady tail ("then every X").
#[derive(Debug, Clone, Copy, PartialEq)]
struct GapList {
    gaps: [f64; MAX_EXPLICIT_GAPS],
    len: usize,
    then_every_s: Option<f64>,
}

impl GapList {
    fn gap(&self, retry: u32) -> f64 {
        let i = retry.max(1) as usize - 1;
        if i < self.len {
            self.gaps[i]
        } else {
            self.then_every_s.unwrap_or(self.gaps[self.len - 1])
        }
    }
}

impl Policy {
    /// Validates and builds a policy. Every bound is refused with a message naming the field
    /// and its valid range; a deadline that needs more than [`MAX_ATTEMPTS`] is refused too.
    pub fn new(base_s: f64, multiplier: f64, cap_s: f64, stop: Stop) -> Result<Self, Error> {
        check_duration("base", base_s)?;
        if !(multiplier.is_finite() && (1.0..=MAX_MULTIPLIER).contains(&multiplier)) {
            return Err(Error::out_of_range(
                "multiplier",
                multiplier,
                "a number from 1 to 1000",
            ));
        }
        check_span_with("cap", cap_s, || cap_range(base_s))?;
        if cap_s < base_s {
            let (cap, base) = crate::format_distinct(cap_s, base_s);
            return Err(Error::out_of_range("cap", cap, cap_range_written(&base)));
        }
        let mut policy = Policy {
            base_s,
            multiplier,
            cap_s,
            attempts: 1,
            stop,
            explicit: None,
        };
        policy.resolve_stop()?;
        Ok(policy)
    }

    /// An explicit schedule: the listed gaps before retries 1, 2, ..., then every `then_every_s`
    /// if given; past the list without a tail, the last listed gap repeats. The stop rule says
    /// where it ends (the CLI and the page require one: `--attempts` or `--give-up`). Its
    /// "base" is the first gap
    /// and its "cap" the longest; it has no multiplier (reported as 1).
    ///
    /// # Example
    /// ```
    /// use backoff_lab::Policy;
    /// // Svix: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
    /// let svix = Policy::explicit(&[5.0, 300.0, 1_800.0, 7_200.0, 18_000.0, 36_000.0, 36_000.0], None, None)?;
    /// assert_eq!(svix.schedule().give_up_s(), 99_305.0); // 27 h 35 min 5 s
    /// # Ok::<(), backoff_lab::Error>(())
    /// ```
    pub fn explicit(
        gaps: &[f64],
        then_every_s: Option<f64>,
        stop: Option<Stop>,
    ) -> Result<Self, Error> {
        if gaps.is_empty() || gaps.len() > MAX_EXPLICIT_GAPS {
            return Err(gap_count_refused(gaps.len()));
        }
        for &gap in gaps {
            check_span_with("gaps", gap, gaps_range)?;
        }
        if let Some(tail) = then_every_s {
            check_span_with("then-every", tail, span_range)?;
        }
        let mut list = GapList {
            gaps: [0.0; MAX_EXPLICIT_GAPS],
            len: gaps.len(),
            then_every_s,
        };
        list.gaps[..gaps.len()].copy_from_slice(gaps);
        let longest = gaps.iter().copied().chain(then_every_s).fold(0.0, f64::max);
        let stop =
            match (stop, then_every_s) {
                (Some(stop), _) => stop,
                (None, None) => Stop::Attempts(gaps.len() as u32 + 1),
                (None, Some(_)) => return Err(Error::out_of_range(
                    "attempts",
                    "no stop rule",
                    "given with a then-every tail: a count from 1 to 10000, or a give-up deadline",
                )),
            };
        let mut policy = Policy {
            base_s: gaps[0],
            multiplier: 1.0,
            cap_s: longest,
            attempts: 1,
            stop,
            explicit: Some(list),
        };
        policy.resolve_stop()?;
        Ok(policy)
    }

    /// The same schedule with another stop rule (formula and explicit gaps alike).
    pub fn with_stop(&self, stop: Stop) -> Result<Self, Error> {
        let mut policy = *self;
        policy.stop = stop;
        policy.resolve_stop()?;
        Ok(policy)
    }

    /// The same schedule with no gap longer than `cap_s`: a formula takes it as its cap (at
    /// least the base, at most 365 days); an explicit list has each gap and its tail cut to it
    /// (from 1 µs to 365 days). The stop rule stays.
    ///
    /// # Example
    /// ```
    /// use backoff_lab::presets::preset;
    /// let svix = preset("svix")?.policy.capped(3_600.0)?;
    /// let (gaps, _) = svix.explicit_gaps().unwrap();
    /// assert_eq!(gaps, [5.0, 300.0, 1_800.0, 3_600.0, 3_600.0, 3_600.0, 3_600.0]);
    /// # Ok::<(), backoff_lab::Error>(())
    /// ```
    pub fn capped(&self, cap_s: f64) -> Result<Self, Error> {
        match self.explicit_gaps() {
            None => Policy::new(self.base_s, self.multiplier, cap_s, self.stop),
            Some((gaps, tail)) => {
                check_duration("cap", cap_s)?;
                let cut: Vec<f64> = gaps.iter().map(|&gap| gap.min(cap_s)).collect();
                Policy::explicit(&cut, tail.map(|gap| gap.min(cap_s)), Some(self.stop))
            }
        }
    }

    /// The explicit gaps and tail, for an explicit schedule.
    pub fn explicit_gaps(&self) -> Option<(&[f64], Option<f64>)> {
        self.explicit
            .as_ref()
            .map(|list| (&list.gaps[..list.len], list.then_every_s))
    }

    fn resolve_stop(&mut self) -> Result<(), Error> {
        let stop = self.stop;
        self.attempts = match stop {
            Stop::Attempts(n) if (1..=MAX_ATTEMPTS).contains(&n) => n,
            Stop::Attempts(n) => {
                return Err(Error::out_of_range(
                    "attempts",
                    n,
                    "a whole number from 1 to 10000",
                ))
            }
            Stop::GiveUpAfter(deadline) => {
                check_duration("give-up", deadline)?;
                self.attempts_for_deadline(deadline)?
            }
        };
        Ok(())
    }

    /// The article's example: 30 s base, ×3, 3 h cap, 14 attempts.
    pub fn article() -> Self {
        Policy {
            base_s: 30.0,
            multiplier: 3.0,
            cap_s: 10_800.0,
            attempts: 14,
            stop: Stop::Attempts(14),
            explicit: None,
        }
    }

    /// A fixed interval: every gap is `interval_s` (a policy with multiplier 1).
    ///
    /// # Example
    /// ```
    /// use backoff_lab::{Policy, Stop};
    /// let every_30s = Policy::fixed(30.0, Stop::GiveUpAfter(7_200.0))?;
    /// assert_eq!(every_30s.attempts(), 241);
    /// # Ok::<(), backoff_lab::Error>(())
    /// ```
    pub fn fixed(interval_s: f64, stop: Stop) -> Result<Self, Error> {
        Policy::new(interval_s, 1.0, interval_s, stop).map_err(|err| match (err, stop) {
            (
                Error::OutOfRange {
                    field: "base",
                    value,
                    valid,
                },
                _,
            ) => Error::OutOfRange {
                field: "interval",
                value,
                valid,
            },
            // An interval too short to retry for the give-up time within the attempts allowed:
            // the interval is what the fixed policy has to change (it has no base or cap). A
            // give-up time out of its own range (0 s, over a year) is refused as itself.
            (
                Error::OutOfRange {
                    field: "give-up", ..
                },
                Stop::GiveUpAfter(give_up_s),
            ) if check_duration("give-up", give_up_s).is_ok() => {
                let shortest = give_up_s / f64::from(MAX_ATTEMPTS - 1);
                let (shortest_text, interval_text) = crate::format_distinct(shortest, interval_s);
                Error::out_of_range(
                    "interval",
                    interval_text,
                    format!(
                        "at least {shortest_text} to retry for {} within {MAX_ATTEMPTS} \
                         attempts (or stop after a number of attempts, or sooner)",
                        crate::format_duration(give_up_s)
                    ),
                )
            }
            (other, _) => other,
        })
    }

    /// The storm-maker the storm compares with, and its default: a fixed 30 s interval giving up
    /// at 2 h, which the schedule's 241st attempt reaches (as `Policy::fixed(30.0,
    /// Stop::GiveUpAfter(7_200.0))`, which the CLI and the page build from their defaults).
    pub fn article_storm() -> Self {
        Policy {
            base_s: 30.0,
            multiplier: 1.0,
            cap_s: 30.0,
            attempts: 241,
            stop: Stop::GiveUpAfter(7_200.0),
            explicit: None,
        }
    }

    /// The base delay, in seconds: the gap before the first retry.
    pub fn base_s(&self) -> f64 {
        self.base_s
    }
    /// The growth factor between consecutive gaps.
    pub fn multiplier(&self) -> f64 {
        self.multiplier
    }
    /// The longest gap, in seconds.
    pub fn cap_s(&self) -> f64 {
        self.cap_s
    }
    /// The stop rule as it was given.
    pub fn stop(&self) -> Stop {
        self.stop
    }
    /// How many attempts the schedule has in all, the stop rule resolved.
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// Whether every gap is the same formula gap: a multiplier of 1, or a cap equal to the base
    /// (as [`Policy::fixed`] makes). No cap "engages" and no row is capped: the captions and the
    /// timeline call it a fixed interval instead.
    pub fn is_fixed_interval(&self) -> bool {
        self.explicit.is_none() && (self.multiplier == 1.0 || self.base_s == self.cap_s)
    }

    /// The gap before retry `retry` (1-based) without the cap: `base × multiplier^(retry-1)`.
    /// Infinite when it exceeds what an `f64` holds.
    pub fn uncapped_gap(&self, retry: u32) -> f64 {
        if let Some(list) = &self.explicit {
            return list.gap(retry);
        }
        let exponent = retry.saturating_sub(1).min(i32::MAX as u32) as i32;
        self.base_s * self.multiplier.powi(exponent)
    }

    /// The gap before retry `retry` (1-based): `min(cap, base × multiplier^(retry-1))`, saturating
    /// to the cap however large the power grows.
    pub fn gap(&self, retry: u32) -> f64 {
        crate::numbers::smaller(self.uncapped_gap(retry), self.cap_s)
    }

    /// The gaps before retries 1, 2, 3, ... without end (an infinite power saturates to the cap).
    /// Each is [`Policy::gap`]'s, bit for bit; once a formula's power is past twice the cap, the
    /// later ones are the cap without taking their powers: the exact power never falls as the
    /// exponent grows, and `powi`'s rounding (a relative error of about 2e-12 at 10,000
    /// attempts) is far below a factor of two. It made a 10,000-attempt schedule three times
    /// quicker to list in wasm, where a power takes a multiplication per bit of its exponent.
    pub fn gaps(&self) -> impl Iterator<Item = f64> + '_ {
        let mut saturated = false;
        (1u32..).map(move |retry| {
            if saturated {
                return self.cap_s;
            }
            let uncapped = self.uncapped_gap(retry);
            saturated = self.explicit.is_none() && uncapped >= 2.0 * self.cap_s;
            crate::numbers::smaller(uncapped, self.cap_s)
        })
    }

    /// The schedule: one row per attempt.
    pub fn schedule(&self) -> Schedule {
        let mut elapsed_s = 0.0;
        let mut rows = Vec::with_capacity(self.attempts as usize);
        rows.push(Row {
            attempt: 1,
            gap_s: None,
            elapsed_s,
            capped: false,
        });
        // A fixed interval's cap is its interval: no gap of it is "capped" (nothing engages).
        let cappable = self.explicit.is_none() && !self.is_fixed_interval();
        for (retry, gap) in (1..self.attempts).zip(self.gaps()) {
            elapsed_s += gap;
            rows.push(Row {
                attempt: retry + 1,
                gap_s: Some(gap),
                elapsed_s,
                // A gap is the cap exactly when its power reached it (the smaller of the two).
                capped: cappable && gap >= self.cap_s,
            });
        }
        Schedule {
            policy: *self,
            rows,
        }
    }

    /// The smallest attempt count whose last attempt is at or after `deadline_s` since the first
    /// failure: the answer to "this event is stale after 24 h: how many attempts is that?".
    ///
    /// # Example
    /// ```
    /// use backoff_lab::Policy;
    /// assert_eq!(Policy::article().attempts_for_deadline(86_400.0)?, 14);
    /// # Ok::<(), backoff_lab::Error>(())
    /// ```
    pub fn attempts_for_deadline(&self, deadline_s: f64) -> Result<u32, Error> {
        check_duration("give-up", deadline_s)?;
        let mut elapsed = 0.0;
        for (retry, gap) in (1..MAX_ATTEMPTS).zip(self.gaps()) {
            elapsed += gap;
            if crate::reaches::reaches(elapsed, deadline_s) {
                return Ok(retry + 1);
            }
        }
        let reach: f64 = self.gaps().take(MAX_ATTEMPTS as usize - 1).sum();
        let (reach_text, deadline_text) =
            crate::format_limit(crate::reaches::latest_mark(reach), deadline_s);
        // A list of gaps is told in its own terms: it has no base, multiplier or cap to change.
        let schedule = match self.explicit_gaps() {
            Some((_, Some(tail))) => format!(
                "with these gaps and then one every {} (or a longer tail)",
                crate::format_duration(tail)
            ),
            Some((_, None)) => "with these gaps, the last repeated (or longer gaps)".to_string(),
            None => format!(
                "with a {} base, ×{} and a {} cap (or {})",
                crate::format_duration(self.base_s),
                self.multiplier,
                crate::format_duration(self.cap_s),
                self.ways_to_reach_further(MAX_ATTEMPTS),
            ),
        };
        Err(Error::out_of_range(
            "give-up",
            deadline_text,
            format!("at most {reach_text}, what {MAX_ATTEMPTS} attempts reach {schedule}"),
        ))
    }

    /// The smallest cap with which `attempts` attempts reach `deadline_s`, keeping base and
    /// multiplier; refused naming `give-up` (with the longest these attempts reach) when even
    /// no cap at all falls short.
    ///
    /// The give-up time is a continuous, non-decreasing, piecewise-linear function of the cap,
    /// so the answer is exact: find the piece where it crosses the deadline and solve it.
    ///
    /// # Example
    /// ```
    /// use backoff_lab::Policy;
    /// // 14 attempts that should reach exactly 24 h from a 30 s base at ×3: a cap just under 3 h.
    /// let cap = Policy::article().cap_for_deadline(86_400.0, 14)?;
    /// assert!((cap - 10_782.857).abs() < 0.001);
    /// # Ok::<(), backoff_lab::Error>(())
    /// ```
    pub fn cap_for_deadline(&self, deadline_s: f64, attempts: u32) -> Result<f64, Error> {
        check_duration("give-up", deadline_s)?;
        if !(2..=MAX_ATTEMPTS).contains(&attempts) {
            return Err(Error::out_of_range(
                "attempts",
                attempts,
                "a whole number from 2 to 10000 (one attempt never waits)",
            ));
        }
        let retries = attempts - 1;
        // Uncapped gaps ascend (multiplier ≥ 1). With the cap between gap j and gap j+1, the
        // give-up time is the sum of the first j gaps plus the remaining retries at the cap.
        let mut below = 0.0;
        let mut lower = self.base_s;
        for j in 0..retries {
            let next = self.uncapped_gap(j + 1);
            let at_next = below + f64::from(retries - j) * next;
            if crate::reaches::reaches(at_next, deadline_s) {
                let cap = (deadline_s - below) / f64::from(retries - j);
                return Ok(cap.max(lower));
            }
            below += next;
            lower = next;
        }
        let (reached, wanted) = crate::format_limit(crate::reaches::latest_mark(below), deadline_s);
        // Only what can still grow: 10,000 attempts cannot be more (outside review).
        let ways = [
            (attempts < MAX_ATTEMPTS, "more attempts"),
            (self.base_s < MAX_SPAN_S, "a larger base"),
            (
                attempts > 2 && self.multiplier < MAX_MULTIPLIER,
                "a larger multiplier",
            ),
        ];
        Err(Error::out_of_range(
            "give-up",
            wanted,
            format!(
                "at most {reached}, what {attempts} attempts reach with a {} base and ×{} even \
                 uncapped (or {})",
                crate::format_duration(self.base_s),
                self.multiplier,
                either(&ways),
            ),
        ))
    }

    /// What would make a formula's first `attempts` attempts reach further: a longer cap where
    /// gaps are cut to it (the lever that matters: a longer base or a larger multiplier only
    /// shortens the ramp to it), else each change within its range that lengthens some gap on
    /// its own, a longer base (up to the cap) or a larger multiplier (where a later gap is
    /// under the cap). A limit told "or a longer base or cap" of a cap already at 365 days that
    /// no gap reached asked for the impossible (outside review). Where no change alone does (a
    /// base at its cap, ×1), the pair that does.
    pub(crate) fn ways_to_reach_further(&self, attempts: u32) -> String {
        let retries = attempts.saturating_sub(1).max(1);
        let uncapped = |retry: u32| self.uncapped_gap(retry);
        if self.cap_s < MAX_SPAN_S && (1..=retries).any(|retry| uncapped(retry) > self.cap_s) {
            return "a longer cap".to_string();
        }
        let some_gap_under_cap = (2..=retries).any(|retry| uncapped(retry) < self.cap_s);
        let ways = [
            (self.base_s < self.cap_s, "a longer base"),
            (
                self.multiplier < MAX_MULTIPLIER && some_gap_under_cap,
                "a larger multiplier",
            ),
        ];
        if ways.iter().any(|(applies, _)| *applies) {
            either(&ways)
        } else {
            "a longer cap with a longer base or a larger multiplier".to_string()
        }
    }
}

/// The phrases that apply, joined: "a, b or c".
fn either(ways: &[(bool, &str)]) -> String {
    let applying: Vec<&str> = ways
        .iter()
        .filter(|(applies, _)| *applies)
        .map(|(_, way)| *way)
        .collect();
    match applying.split_last() {
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Refuses a duration outside [[`MIN_SPAN_S`], [`MAX_SPAN_S`]] with [`span_range`] as the valid
/// range.
pub(crate) fn check_duration(field: &'static str, seconds: f64) -> Result<(), Error> {
    check_span_with(field, seconds, span_range)
}

/// Refuses a duration outside [[`MIN_SPAN_S`], [`MAX_SPAN_S`]] with `valid` as the valid range.
pub(crate) fn check_span(field: &'static str, seconds: f64, valid: &str) -> Result<(), Error> {
    check_span_with(field, seconds, || valid.to_string())
}

/// The same with the valid range written only for a refusal: policies are built in loops.
fn check_span_with(
    field: &'static str,
    seconds: f64,
    valid: impl FnOnce() -> String,
) -> Result<(), Error> {
    if (MIN_SPAN_S..=MAX_SPAN_S).contains(&seconds) {
        Ok(())
    } else if seconds.is_finite() && seconds >= 0.0 {
        Err(Error::out_of_range(
            field,
            // Told apart from the end it passes (0.9 µs rounds to "1 µs").
            crate::format_distinct(seconds, seconds.clamp(MIN_SPAN_S, MAX_SPAN_S)).0,
            valid(),
        ))
    } else {
        Err(Error::out_of_range(
            field,
            crate::duration::refused_duration(seconds),
            valid(),
        ))
    }
}

/// One attempt of a schedule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row {
    /// 1 for the first delivery.
    pub attempt: u32,
    /// The wait before this attempt; `None` for the first delivery.
    pub gap_s: Option<f64>,
    /// Seconds since the first failure.
    pub elapsed_s: f64,
    /// Whether the gap sits at the cap (the uncapped gap would be at least as long). Never for
    /// listed gaps, nor for a fixed interval (a multiplier of 1, or a cap equal to the base),
    /// whose cap is the interval itself.
    pub capped: bool,
}

/// A policy's attempts in order, with the facts a reader derives from them.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    policy: Policy,
    rows: Vec<Row>,
}

impl Schedule {
    /// The policy this schedule follows.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }
    /// One row per attempt, attempt 1 first.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// Seconds from the first failure to the last attempt, after which the delivery is exhausted.
    pub fn give_up_s(&self) -> f64 {
        self.rows.last().map_or(0.0, |row| row.elapsed_s)
    }

    /// The first attempt whose gap sits at the cap, if any.
    pub fn first_capped_attempt(&self) -> Option<u32> {
        self.rows
            .iter()
            .find(|row| row.capped)
            .map(|row| row.attempt)
    }

    /// How many attempts happen within `window_s` of the first failure (the first included),
    /// an attempt at the window's end counting as inside it ([`crate::reaches::within`]: the
    /// fourth of 100 ms gaps, at 0.30000000000000004 s, is inside a 300 ms window).
    pub fn attempts_within(&self, window_s: f64) -> usize {
        self.rows
            .iter()
            .take_while(|row| crate::reaches::within(row.elapsed_s, window_s))
            .count()
    }

    /// The share (0 to 1) of the give-up time spent in gaps at the cap.
    pub fn capped_share(&self) -> f64 {
        let capped: f64 = self
            .rows
            .iter()
            .filter(|row| row.capped)
            .filter_map(|row| row.gap_s)
            .sum();
        if self.give_up_s() > 0.0 {
            // An empty sum is −0.0, which JSON would print as such.
            capped / self.give_up_s() + 0.0
        } else {
            0.0
        }
    }

    /// The gap the last attempt would have without the cap; `None` for a single attempt or when
    /// it exceeds what an `f64` holds.
    pub fn uncapped_last_gap_s(&self) -> Option<f64> {
        let retries = self.rows.len() as u32 - 1;
        let gap = self.policy.uncapped_gap(retries);
        (retries > 0 && gap.is_finite()).then_some(gap)
    }

    /// Whether every gap is longer than all the gaps before it combined.
    pub fn every_gap_exceeds_previous_total(&self) -> bool {
        self.gaps_exceed_previous_total(|_| true)
    }

    /// Whether every gap below the cap (the ramp) is longer than all gaps before it combined:
    /// the article's "each new gap is longer than all previous gaps combined", true for any
    /// multiplier of 2 or more.
    pub fn ramp_exceeds_previous_total(&self) -> bool {
        self.gaps_exceed_previous_total(|row| !row.capped)
    }

    fn gaps_exceed_previous_total(&self, include: impl Fn(&Row) -> bool) -> bool {
        let mut total = 0.0;
        self.rows.iter().skip(1).all(|row| {
            let gap = row.gap_s.unwrap_or(0.0);
            let exceeds = !include(row) || gap > total;
            total += gap;
            exceeds
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: f64 = 3600.0;

    /// A deadline out of reach names only changes that can still grow: a cap at 365 days that
    /// no gap reaches is not asked to be longer, nor 10,000 attempts to be more.
    #[test]
    fn out_of_reach_names_only_what_can_grow() {
        let policy = |base: f64, multiplier: f64, cap: f64| {
            Policy::new(base, multiplier, cap, Stop::Attempts(MAX_ATTEMPTS)).unwrap()
        };
        for (base, multiplier, cap, ways) in [
            (
                1e-6,
                1.0,
                MAX_SPAN_S,
                "a longer base or a larger multiplier",
            ),
            (
                1.0,
                1.0,
                1.0,
                "a longer cap with a longer base or a larger multiplier",
            ),
            (1.0, 2.0, 10.0, "a longer cap"),
        ] {
            let p = policy(base, multiplier, cap);
            assert_eq!(p.ways_to_reach_further(MAX_ATTEMPTS), ways);
            let refused = p.attempts_for_deadline(MAX_SPAN_S).unwrap_err().to_string();
            assert!(
                refused.contains(&format!("cap (or {ways}), got")),
                "{refused}"
            );
        }
        let refused = policy(1e-6, 1.0, MAX_SPAN_S)
            .cap_for_deadline(MAX_SPAN_S, MAX_ATTEMPTS)
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("uncapped (or a larger base or a larger multiplier), got"),
            "{refused}"
        );
    }

    /// The library's storm-maker was 240 attempts where the CLI's and the page's default (a
    /// 30 s interval, giving up at 2 h) is 241: one policy.
    #[test]
    fn the_storm_maker_is_the_fixed_policy_giving_up_at_two_hours() {
        assert_eq!(
            Policy::article_storm(),
            Policy::fixed(30.0, Stop::GiveUpAfter(7_200.0)).unwrap()
        );
    }

    /// `storm --give-up 0s` was refused as "interval must be at least 0 s …, got 30 s": a
    /// give-up time out of its own range is refused as the give-up time, and only one the
    /// attempts cannot reach asks for a longer interval.
    #[test]
    fn a_fixed_policys_give_up_out_of_range_is_refused_as_the_give_up() {
        let refusal = |interval: f64, give_up: f64| {
            Policy::fixed(interval, Stop::GiveUpAfter(give_up))
                .unwrap_err()
                .to_string()
        };
        for (interval, give_up) in [(30.0, 0.0), (86_400.0, 400.0 * 86_400.0), (30.0, -1.0)] {
            let text = refusal(interval, give_up);
            assert!(text.starts_with("give-up must be"), "{text}");
        }
        let text = refusal(1.0, 86_400.0);
        assert!(
            text.starts_with("interval must be at least 8.6 s to retry for 24 h"),
            "{text}"
        );
    }

    /// A list of gaps has no base, multiplier or cap to change: its deadline refusal says
    /// what it has (it read "with a 1 s base, ×1 and a 2 s cap", none of which can be given
    /// beside gaps).
    #[test]
    fn a_gap_lists_unreachable_deadline_is_told_in_its_own_terms() {
        let refused = |tail: Option<f64>| {
            Policy::explicit(&[1.0, 2.0], tail, Some(Stop::Attempts(3)))
                .unwrap()
                .attempts_for_deadline(365.0 * 86_400.0)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            refused(None),
            "give-up must be at most 5 h 33 min 17 s, what 10000 attempts reach with these gaps, \
             the last repeated (or longer gaps), got 365 days"
        );
        assert!(
            refused(Some(5.0))
                .contains("with these gaps and then one every 5 s (or a longer tail)"),
            "{}",
            refused(Some(5.0))
        );
    }

    #[test]
    fn article_table_gaps_and_elapsed() {
        let schedule = Policy::article().schedule();
        let gaps: Vec<f64> = schedule.rows().iter().filter_map(|r| r.gap_s).collect();
        let mut expected = vec![30.0, 90.0, 270.0, 810.0, 2_430.0, 7_290.0];
        expected.extend([10_800.0; 7]);
        assert_eq!(gaps, expected);
        let elapsed: Vec<f64> = schedule.rows().iter().map(|r| r.elapsed_s).collect();
        assert_eq!(
            &elapsed[..8],
            &[0.0, 30.0, 120.0, 390.0, 1_200.0, 3_630.0, 10_920.0, 21_720.0]
        );
        assert_eq!(elapsed[13], 86_520.0);
        assert_eq!(schedule.rows().len(), 14);
        assert!(schedule
            .rows()
            .iter()
            .enumerate()
            .all(|(i, r)| r.attempt == i as u32 + 1));
    }

    #[test]
    fn article_derived_facts() {
        let schedule = Policy::article().schedule();
        assert_eq!(schedule.give_up_s(), 86_520.0);
        assert_eq!(schedule.first_capped_attempt(), Some(8));
        assert_eq!(schedule.attempts_within(20.0 * 60.0), 5);
        // Summed in binary, three 100 ms gaps end past 0.3 s: still at the window's end.
        let tenths = Policy::explicit(&[0.1], None, Some(Stop::Attempts(8)))
            .unwrap()
            .schedule();
        assert_eq!(tenths.attempts_within(0.3), 4);
        assert_eq!(tenths.attempts_within(0.7), 8);
        assert_eq!(tenths.attempts_within(0.299), 3);
        let last_five: f64 = schedule.rows()[9..].iter().filter_map(|r| r.gap_s).sum();
        assert_eq!(last_five, 15.0 * HOUR);
        assert_eq!(schedule.capped_share(), 7.0 * 10_800.0 / 86_520.0);
        assert!(schedule.ramp_exceeds_previous_total());
        assert!(!schedule.every_gap_exceeds_previous_total());
    }

    #[test]
    fn article_uncapped_counterparts() {
        let policy = Policy::article();
        // "a gap of 18 hours before attempt 9" (retry 8).
        assert_eq!(policy.uncapped_gap(8), 65_610.0);
        assert!((policy.uncapped_gap(8) / HOUR - 18.2).abs() < 0.05);
        // "By attempt 14 ... the uncapped gap alone is 184 days (30 s × 3^12)".
        let last = policy.schedule().uncapped_last_gap_s();
        assert_eq!(last, Some(30.0 * 3f64.powi(12)));
        assert!((last.unwrap_or(0.0) / 86_400.0 - 184.5).abs() < 0.05);
    }

    /// Three 0.3 s gaps sum to 0.8999999999999999 s: the fourth attempt is on a 0.9 s deadline
    /// (`crate::reaches`), so it gives up there, as by hand; it made a fifth, and a cap for four
    /// attempts to reach 0.9 s was refused as "at most 899 ms".
    #[test]
    fn a_deadline_on_a_sum_of_decimal_gaps_is_reached() {
        let thirds = Policy::new(0.3, 1.0, 0.3, Stop::GiveUpAfter(0.9)).unwrap();
        assert_eq!(thirds.attempts(), 4);
        let tenths = Policy::explicit(&[0.1], None, Some(Stop::GiveUpAfter(1.0))).unwrap();
        assert_eq!(tenths.attempts(), 11);
        let uncapped = Policy::new(0.3, 1.0, 0.3, Stop::Attempts(4)).unwrap();
        assert_eq!(
            uncapped.cap_for_deadline(0.9, 4).map(|cap| cap > 0.29),
            Ok(true)
        );
        assert!(uncapped.cap_for_deadline(0.9001, 4).is_err());
    }

    #[test]
    fn deadline_gives_attempt_count() {
        let policy = Policy::article();
        assert_eq!(policy.attempts_for_deadline(24.0 * HOUR), Ok(14));
        assert_eq!(policy.attempts_for_deadline(86_520.0), Ok(14));
        assert_eq!(policy.attempts_for_deadline(86_521.0), Ok(15));
        assert_eq!(policy.attempts_for_deadline(1.0), Ok(2));
        let by_deadline = Policy::new(30.0, 3.0, 3.0 * HOUR, Stop::GiveUpAfter(24.0 * HOUR));
        assert_eq!(by_deadline.map(|p| p.schedule().give_up_s()), Ok(86_520.0));
    }

    /// A tail of 0 read "then-every must be durations"; a gap equal to the tail was named as
    /// the tail.
    #[test]
    fn a_list_and_its_tail_are_refused_each_in_its_own_words() {
        let refused = |gaps: &[f64], tail: Option<f64>| {
            Policy::explicit(gaps, tail, None).unwrap_err().to_string()
        };
        assert!(refused(&[5.0], Some(0.0))
            .starts_with("then-every must be a duration from 1 µs to 365 days"));
        assert!(
            refused(&[0.0], Some(0.0)).starts_with("gaps must be durations from 1 µs to 365 days")
        );
    }

    #[test]
    fn unreachable_deadline_is_an_error_not_a_hang() {
        let policy = Policy::new(0.001, 1.0, 0.001, Stop::Attempts(2)).unwrap();
        let err = policy.attempts_for_deadline(MAX_SPAN_S).unwrap_err();
        assert!(
            err.to_string().starts_with(
                // 9,999 gaps of 1 ms sum to a hair under 9.999 s, which reaches 9.999 s
                // (`crate::reaches`); the limit is written rounded down, so that giving it is
                // never refused.
                "give-up must be at most 9.999 s, what 10000 attempts reach with a 1 ms base, ×1 and a 1 ms cap"
            ),
            "{err}"
        );
        assert_eq!(policy.attempts_for_deadline(9.999), Ok(10_000));
        assert_eq!(policy.attempts_for_deadline(9.998), Ok(9_999));
    }

    #[test]
    fn cap_for_deadline_reaches_the_deadline_exactly() {
        let policy = Policy::article();
        let cap = policy.cap_for_deadline(24.0 * HOUR, 14).unwrap();
        let reached = Policy::new(30.0, 3.0, cap, Stop::Attempts(14)).unwrap();
        assert!((reached.schedule().give_up_s() - 24.0 * HOUR).abs() < 1e-6);
        // Any smaller cap falls short.
        let short = Policy::new(30.0, 3.0, cap - 0.01, Stop::Attempts(14)).unwrap();
        assert!(short.schedule().give_up_s() < 24.0 * HOUR);
        // A deadline the ramp alone reaches needs no more than the base.
        assert_eq!(policy.cap_for_deadline(30.0, 2), Ok(30.0));
        let err = policy.cap_for_deadline(365.0 * 86_400.0, 3).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("give-up must be at most 2 min, what 3 attempts reach"),
            "{err}"
        );
        // Two durations that read alike are written exactly, not "2 min … a give-up of 2 min".
        let err = policy.cap_for_deadline(121.0, 3).unwrap_err().to_string();
        assert!(
            err.starts_with("give-up must be at most 2 min, what 3 attempts reach with")
                && err.ends_with("got 2 min 1 s"),
            "{err}"
        );
    }

    #[test]
    fn validation_names_field_and_range() {
        let bad = [
            (
                Policy::new(f64::NAN, 3.0, 10.0, Stop::Attempts(3)),
                "base must be a duration from 1 µs to 365 days, got NaN",
            ),
            (
                Policy::new(0.0, 3.0, 10.0, Stop::Attempts(3)),
                "base must be a duration from 1 µs to 365 days, got 0 s",
            ),
            // Under a microsecond (a 5e-324 s base had left "--deadline must be at most 0 s"),
            // told apart from the 1 µs it falls short of.
            (
                Policy::new(9e-7, 3.0, 10.0, Stop::Attempts(3)),
                "base must be a duration from 1 µs to 365 days, got 0.0009 ms",
            ),
            (
                Policy::explicit(&[30.0, 5e-324], None, None),
                "gaps must be durations from 1 µs to 365 days, got 4.9e-324 s",
            ),
            (
                Policy::new(1.0, 0.5, 10.0, Stop::Attempts(3)),
                "multiplier must be a number from 1 to 1000, got 0.5",
            ),
            (
                Policy::new(1.0, f64::INFINITY, 10.0, Stop::Attempts(3)),
                "multiplier must be a number from 1 to 1000, got Infinity",
            ),
            (
                Policy::new(30.0, 3.0, 10.0, Stop::Attempts(3)),
                "cap must be a duration of at least the base (30 s) and at most 365 days, got 10 s",
            ),
            // Under a millisecond, both as the tables write them (they read "at least the base
            // (0.001 s) ..., got 0 s").
            (
                Policy::new(0.0005, 3.0, 0.0004, Stop::Attempts(3)),
                "cap must be a duration of at least the base (0.5 ms) and at most 365 days, got 0.4 ms",
            ),
            (
                Policy::new(30.0, 3.0, 0.0, Stop::Attempts(3)),
                "cap must be a duration of at least the base (30 s) and at most 365 days, got 0 s",
            ),
            (
                Policy::new(1.0, 2.0, 10.0, Stop::Attempts(0)),
                "attempts must be a whole number from 1 to 10000, got 0",
            ),
            (
                Policy::new(1.0, 2.0, 10.0, Stop::Attempts(10_001)),
                "attempts must be a whole number from 1 to 10000, got 10001",
            ),
            (
                Policy::new(1.0, 2.0, 10.0, Stop::GiveUpAfter(-1.0)),
                "give-up must be a duration from 1 µs to 365 days, got -1 s",
            ),
            (
                Policy::new(1.0, 2.0, 10.0, Stop::GiveUpAfter(400.0 * 86_400.0)),
                "give-up must be a duration from 1 µs to 365 days, got 400 days",
            ),
        ];
        for (result, message) in bad {
            assert_eq!(result.unwrap_err().to_string(), message);
        }
    }

    #[test]
    fn huge_powers_saturate_to_the_cap() {
        let policy = Policy::new(1.0, 1_000.0, MAX_SPAN_S, Stop::Attempts(MAX_ATTEMPTS)).unwrap();
        let schedule = policy.schedule();
        assert!(schedule.rows().iter().all(|r| r.elapsed_s.is_finite()));
        assert_eq!(schedule.rows()[9_999].gap_s, Some(MAX_SPAN_S));
        assert_eq!(schedule.uncapped_last_gap_s(), None);
        assert_eq!(policy.gap(9_999), MAX_SPAN_S);
    }
}
