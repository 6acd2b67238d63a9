//! Human durations in (`30s`, `90 s`, `4m30s`, `4.5min`, `3h`, `1d`, `2h30m`) and out, the way the
//! article writes them (`30 s`, `4.5 min`, `3 h 02 min`, `184 days`).

use crate::number_text::format_count;
use crate::Error;

const MINUTE: f64 = 60.0;
const HOUR: f64 = 3600.0;
const DAY: f64 = 86_400.0;
const YEAR: f64 = 365.0 * DAY;

/// How a refusal shows what a duration looks like.
pub(crate) const DURATION_EXAMPLES: &str = "such as 30s, 4m30s, 4.5min, 3h or 1d";

/// How a duration must be written, as [`parse_duration`]'s refusals of text that reads as one
/// but is refused as written say it ("a duration …").
const NEVER_NEGATIVE: &str = "such as 30s, never negative";
const NO_MONTH_M: &str = "such as 30s, 5m, 4.5min, 3h or 1d (M is a month in that notation: \
                          write month for months, m or min for minutes)";
const EACH_UNIT_ONCE: &str = "with each unit once, such as 30s, 4m30s, 4.5min, 2h30m or 1d";

/// The rule of how to write a duration that a refusal by [`parse_duration`] states in `valid`
/// ("with each unit once, such as …"), for a caller that adds its own range to it; `None` for
/// any other refusal.
pub(crate) fn how_to_write(valid: &str) -> Option<&str> {
    valid
        .strip_prefix("a duration ")
        .filter(|how| [NEVER_NEGATIVE, NO_MONTH_M, EACH_UNIT_ONCE].contains(how))
}

/// Parses a duration into seconds. A bare number is seconds.
///
/// Whole-unit forms (`4m30s`, `2h30m`, `1d`, `50ms`) go to `humantime`; a single decimal
/// amount (`4.5min`, `1.5h`) is the amount times humantime's length of one unit. `field` names
/// the input in the error message.
///
/// # Example
/// ```
/// use backoff_lab::parse_duration;
/// assert_eq!(parse_duration("base", "4m30s")?, 270.0);
/// assert_eq!(parse_duration("base", "4.5min")?, 270.0);
/// assert_eq!(parse_duration("base", "90 s")?, 90.0);
/// assert_eq!(parse_duration("base", "+5s")?, 5.0);
/// assert!(parse_duration("base", "abc").is_err());
/// assert!(parse_duration("base", "++5s").is_err());
/// # Ok::<(), backoff_lab::Error>(())
/// ```
pub fn parse_duration(field: &'static str, text: &str) -> Result<f64, Error> {
    let bad = || Error::BadDuration {
        field,
        value: text.to_string(),
    };
    // A plus sign reads as a count's does (`+3`): `+5s` is 5 s (outside review: counts took it
    // and durations did not). The rest is read as without it.
    let unsigned = text.trim_start();
    let unsigned = unsigned.strip_prefix('+').unwrap_or(unsigned);
    let compact: String = unsigned.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.is_empty() {
        return Err(bad());
    }
    if compact.starts_with('-') {
        return Err(Error::out_of_range(
            field,
            text.trim(),
            format!("a duration {NEVER_NEGATIVE}"),
        ));
    }
    // humantime reads `M` as months, one letter from `m`: a typo would make minutes months.
    if compact
        .split(|c: char| !c.is_ascii_alphabetic())
        .any(|unit| unit == "M")
    {
        return Err(Error::out_of_range(
            field,
            text.trim(),
            format!("a duration {NO_MONTH_M}"),
        ));
    }
    // humantime sums every part: "1h 1h" is 2 h. A unit written twice is a typo, not a sum.
    let mut units: Vec<u64> = compact
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|unit| !unit.is_empty())
        .filter_map(|unit| humantime::parse_duration(&format!("1{unit}")).ok())
        .map(|one| one.as_nanos() as u64)
        .collect();
    let written = units.len();
    units.sort_unstable();
    units.dedup();
    if units.len() < written {
        return Err(Error::out_of_range(
            field,
            format!("{:?}", text.trim()),
            format!("a duration {EACH_UNIT_ONCE}"),
        ));
    }
    // A number may have an exponent (`1e2`, `1.5e2s`), as every number flag takes it; spaces
    // may separate parts, never split a number ("1e0 5s" read 1e05 s, "1 2s" 12 s).
    let number = number_len(&compact);
    if number > number_len(unsigned.trim_start()) {
        return Err(bad());
    }
    let seconds = if number == compact.len() {
        compact.parse::<f64>().map_err(|_| bad())?
    } else if let Ok(d) = humantime::parse_duration(&compact) {
        d.as_secs_f64()
    } else {
        let (amount, unit) = compact.split_at(number);
        // One unit after a number humantime does not read (one with an exponent): `1e2m30s`
        // was read as 100 × "1m30s".
        if !unit.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(bad());
        }
        let amount: f64 = amount.parse().map_err(|_| bad())?;
        let unit = humantime::parse_duration(&format!("1{unit}")).map_err(|_| bad())?;
        amount * unit.as_secs_f64()
    };
    if seconds.is_finite() {
        Ok(seconds)
    } else {
        Err(bad())
    }
}

/// The length of the number `text` starts with: digits and a point, then an exponent when one
/// follows (`1.5e2`, `1e-3`); 0 when it starts with neither a digit nor a point.
fn number_len(text: &str) -> usize {
    let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let mantissa = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let Some(exponent) = text[mantissa..]
        .strip_prefix(['e', 'E'])
        .filter(|_| mantissa > 0)
    else {
        return mantissa;
    };
    let unsigned = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
    match digits(unsigned) {
        0 => mantissa,
        n => mantissa + 1 + (exponent.len() - unsigned.len()) + n,
    }
}

/// Formats seconds the way the article does: `30 s`, `90 s`, `4.5 min`, `2 h 02 min`,
/// `24 h 02 min`, `184 days`; from 100 years on in years of 365 days (`184 years`, then
/// `1.3e22 years`). Rounds to what a reader needs; see [`format_exact`] for a lossless form.
///
/// # Example
/// ```
/// use backoff_lab::format_duration;
/// assert_eq!(format_duration(270.0), "4.5 min");
/// assert_eq!(format_duration(10_920.0), "3 h 02 min");
/// assert_eq!(format_duration(15_943_230.0), "184 days");
/// assert_eq!(format_duration(30.0 * 3f64.powi(60)), "4.0e22 years");
/// ```
pub fn format_duration(seconds: f64) -> String {
    // Rounding noise of a sum (64889.9999998775 for 64890) must not decide which way a value
    // rounds: from a second on, the value is first taken to the microsecond.
    let s = match seconds.max(0.0) {
        s if (1.0..1e12).contains(&s) => (s * 1e6).round() / 1e6,
        s => s,
    };
    if s == 0.0 {
        "0 s".to_string()
    } else if s < 1e-9 {
        format!("{s:.1e} s")
    } else if s < 0.001 {
        // Under a millisecond (a latency of 0.5 ms): two significant digits, never "0 ms".
        let ms = s * 1000.0;
        let decimals = (1.0 - ms.log10().floor()).clamp(1.0, 12.0) as usize;
        format!("{} ms", trim(ms, decimals))
    // Each unit holds the values that do not round up to the next one's start: 0.9996 s reads
    // "1 s", not "1000 ms"; 3599 s "1 h", not "60 min"; 359,999 s "4.2 days", not "100 h".
    } else if s < 1.0 && rounded(s * 1000.0, usize::from(s < 0.01)) < 1000.0 {
        let ms = s * 1000.0;
        format!("{} ms", trim(ms, usize::from(ms < 10.0)))
    } else if s < 2.0 * MINUTE {
        format!("{} s", trim(s, 1))
    } else if s < HOUR && rounded(s / MINUTE, 1) < 60.0 {
        format!("{} min", trim(s / MINUTE, 1))
    } else if s < 100.0 * HOUR && (s / MINUTE).round() < 6_000.0 {
        let minutes = (s / MINUTE).round() as u64;
        match (minutes / 60, minutes % 60) {
            (h, 0) => format!("{h} h"),
            (h, m) => format!("{h} h {m:02} min"),
        }
    } else if s < 10.0 * DAY {
        format!("{} days", trim(s / DAY, 1))
    } else if s < 100.0 * YEAR {
        // Whole days, rounded down: "184 days" for 184.5, as people say it; grouped as every
        // count is ("1,249 days").
        format!("{} days", format_count((s / DAY).floor()))
    } else if s < 1e6 * YEAR {
        format!("{} years", format_count((s / YEAR).floor()))
    } else {
        // An uncapped gap deep in a schedule: digits of days would claim a precision (and
        // past 2^64 days a value) that is not there.
        format!("{:.1e} years", s / YEAR)
    }
}

/// A duration in a table of figures compared row by row: as [`format_duration`] writes it, but
/// from 2 to 10 min in seconds to a tenth (`123.3 s`), where [`format_duration`]'s tenths of a
/// minute would write a p95 of 123.3 s and a p99 of 126.5 s alike (`2.1 min`), below a p50 of
/// `112.9 s` (outside review).
pub(crate) fn format_table_duration(seconds: f64) -> String {
    if (2.0 * MINUTE..10.0 * MINUTE).contains(&seconds) {
        format!("{} s", trim(seconds, 1))
    } else {
        format_duration(seconds)
    }
}

/// `a` and `b` as [`format_duration`] writes them, or to the millisecond (in days and the rest
/// past 100 h) where that would write two different durations alike, or in plain seconds
/// where even that would: a refusal must not read "at most 365 days, got 365 days".
///
/// # Example
/// ```
/// use backoff_lab::format_distinct;
/// assert_eq!(format_distinct(121.0, 120.0), ("2 min 1 s".to_string(), "2 min".to_string()));
/// assert_eq!(format_distinct(600.0, 60.0), ("10 min".to_string(), "60 s".to_string()));
/// let year = 365.25 * 86_400.0;
/// assert_eq!(
///     format_distinct(year, 365.0 * 86_400.0),
///     ("365 days 6 h".to_string(), "365 days".to_string())
/// );
/// assert_eq!(format_distinct(86.0004, 86.0), ("86.0004 s".to_string(), "86 s".to_string()));
/// ```
pub fn format_distinct(a: f64, b: f64) -> (String, String) {
    let (a_text, b_text) = (format_duration(a), format_duration(b));
    if a_text != b_text || a == b {
        return (a_text, b_text);
    }
    // To the millisecond, in days past 100 h ("365 days" and "365 days 6 h" for a year of
    // 365.25 days), else in plain seconds.
    let (a_exact, b_exact) = (format_cap(a), format_cap(b));
    if a_exact != b_exact {
        (a_exact, b_exact)
    } else {
        (format!("{a} s"), format!("{b} s"))
    }
}

/// A limit ("at most …") and the value given past it. The limit is rounded down to the last
/// digit [`format_cap`] writes (the millisecond from a second on, the microsecond under a
/// second, the nanosecond under a millisecond): rounded to the minute, the limit read
/// `8 h 21 min` for 8 h 20 min 30 s, and itself was refused; cut to the millisecond, 4.952 ms
/// read "at most 4 ms". Both are written to that digit where rounding would change them
/// (`60 s`, but `12 days 12 h`).
///
/// # Example
/// ```
/// use backoff_lab::format_limit;
/// assert_eq!(format_limit(30_030.0, 364.0 * 86_400.0), ("8 h 20 min 30 s".to_string(), "364 days".to_string()));
/// assert_eq!(format_limit(9_999.0, 10_000.0), ("2 h 46 min 39 s".to_string(), "2 h 46 min 40 s".to_string()));
/// assert_eq!(format_limit(0.004_952_7, 1.0).0, "4.952 ms");
/// ```
pub fn format_limit(limit: f64, given: f64) -> (String, String) {
    let digit = cap_steps_per_second(limit);
    let limit = (limit * digit).floor() / digit;
    (format_unrounded(limit), format_unrounded(given))
}

/// A duration as a refusal quotes it: as [`format_unrounded`] writes it where it is one (0 s or
/// more, finite: what reads back as the value, 3601 s as "1 h 1 s", not "1 h" beside a limit of
/// 1 h), a negative one with its sign (`-10 min`: `format_duration` writes a negative count as
/// 0 s, which made a refusal contradict itself, "a duration from 0 s to 7 days, got 10 min" for
/// -600), else the number of seconds given (`NaN`, `inf`).
pub(crate) fn refused_duration(seconds: f64) -> String {
    if seconds.is_finite() && seconds >= 0.0 {
        // As it reads back: rounded, 3601 s read "got 1 h" beside "from 1 s to 1 h". Closer
        // than [`format_unrounded`]'s relative 1e-9: 3600.0000001 s read "got 1 h" too (outside
        // review); such a value is written in plain seconds, as given.
        reads_back_exactly(seconds)
    } else if seconds < 0.0 && seconds > -1e15 {
        format!("-{}", reads_back_exactly(-seconds))
    } else if seconds.abs() >= 1e15 && seconds.is_finite() {
        format!("{seconds:e}")
    } else {
        seconds.to_string()
    }
}

/// `seconds` (0 or more) as [`format_unrounded`] writes it where that reads back as exactly
/// the value, else in plain seconds as given (3600.0000000000005 s, one step of a float past
/// 1 h, read "got 1 h" beside "to 1 h").
fn reads_back_exactly(seconds: f64) -> String {
    let text = format_unrounded(seconds);
    match parse_duration("value", &text) {
        Ok(back) if back == seconds => text,
        // Thousands of years past every limit need no exact digits (1e300 s, as written).
        _ if seconds >= 1e12 => text,
        _ => format!("{seconds} s"),
    }
}

/// `seconds` as [`format_duration`] writes it where that reads back as the same value (`60 s`,
/// `24 h`), else as [`format_cap`] does, to the millisecond (`12 days 12 h`, not `12 days`).
pub(crate) fn format_unrounded(seconds: f64) -> String {
    let text = format_duration(seconds);
    match parse_duration("value", &text) {
        Ok(back) if (back - seconds).abs() <= 1e-9 * seconds.abs() => text,
        // Past what the millisecond form holds (1e300 s read "213503982334 days …"), as
        // written: thousands of years need no exact digits.
        _ if seconds >= 1e12 => text,
        _ => format_cap(seconds),
    }
}

/// Formats seconds without rounding away anything above a millisecond, in hours, minutes and
/// seconds: `27 h 35 min 5 s`, `30 s`, `0 s`; under 2 minutes in seconds alone, as
/// [`format_duration`] writes them (gRPC's give-up read "1 min 52.866 s" beside a chart's
/// "112.9 s").
///
/// # Example
/// ```
/// use backoff_lab::format_exact;
/// assert_eq!(format_exact(99_305.0), "27 h 35 min 5 s");
/// assert_eq!(format_exact(1.5), "1.5 s");
/// assert_eq!(format_exact(112.866), "112.866 s");
/// assert_eq!(format_exact(21_740.0), "6 h 02 min 20 s");
/// ```
pub fn format_exact(seconds: f64) -> String {
    whole_exact_to(seconds, 3)
}

/// [`format_exact`] with the seconds to `decimals` decimals (3: the millisecond, 6: the
/// microsecond).
fn exact_to(seconds: f64, decimals: u32) -> String {
    let unit = 10u64.pow(decimals);
    let ticks = (seconds.max(0.0) * unit as f64).round() as u64;
    let (h, m) = (ticks / (3_600 * unit), ticks / (60 * unit) % 60);
    let s = (ticks % (60 * unit)) as f64 / unit as f64;
    let mut parts = Vec::new();
    if h > 0 {
        parts.push(format!("{h} h"));
    }
    if m > 0 {
        // Two digits after hours, as `format_duration` writes them: `6 h 02 min 20 s`.
        parts.push(if h > 0 {
            format!("{m:02} min")
        } else {
            format!("{m} min")
        });
    }
    if s > 0.0 || parts.is_empty() {
        parts.push(format!("{} s", trim(s, decimals as usize)));
    }
    parts.join(" ")
}

/// A whole duration as [`exact_to`] writes it, but under 2 minutes in seconds alone, as every
/// duration is (gRPC's give-up read "1 min 52.865795 s": outside review).
fn whole_exact_to(seconds: f64, decimals: u32) -> String {
    let unit = 10f64.powi(decimals as i32);
    if (seconds.max(0.0) * unit).round() < 120.0 * unit {
        format!("{} s", trim(seconds.max(0.0), decimals as usize))
    } else {
        exact_to(seconds, decimals)
    }
}

/// A written duration before a noun: days and years as one word, in the singular ("a 5.5-day
/// outage", "the 365-day tolerance"); other units read as written ("a 3 h cap").
pub(crate) fn as_adjective(text: &str) -> String {
    // Only a length in one unit: "5 days 3 h 20 min" stays as written ("a 5-day 3 h" misreads).
    for (unit, word) in [(" days", "-day"), (" years", "-year")] {
        if let Some(amount) = text.strip_suffix(unit) {
            // Grouped ("1,249 days") as every count of days from a thousand is.
            if amount.replace(',', "").parse::<f64>().is_ok() {
                return format!("{amount}{word}");
            }
        }
    }
    text.to_string()
}

/// `text` (a written duration or number) after the article a reader says before it: "an 8 h
/// outage", "an 11 min", "an 18 s", "an 80 s", but "a 1 h", "a 110 s". Eight, eleven and
/// eighteen (and their thousands) are the numbers said with a vowel first.
///
/// Before a noun a length of days or years is one word, in the singular: "a 5.5-day outage".
pub(crate) fn with_article(text: &str) -> String {
    let text = &as_adjective(text);
    let digits = text.chars().take_while(char::is_ascii_digit).count();
    let vowel = text.starts_with('8')
        || ((text.starts_with("11") || text.starts_with("18")) && digits % 3 == 2);
    format!("{} {text}", if vowel { "an" } else { "a" })
}

/// Formats a cap that must read right at every scale (`solve-cap`'s answer): under a second in
/// milliseconds to the microsecond (`1.5 ms`), under a millisecond to the nanosecond
/// (`0.205 ms`, `0.0015 ms`; under a nanosecond as [`format_duration`] writes it, never `0 s`),
/// then to the millisecond as [`format_exact`] writes it (`2 h 59 min 42.857 s`),
/// and from 100 h on, where [`format_duration`] writes days, in whole days and the exact rest
/// (`365 days`, `200 days 6 h`), so that the cap reads in the unit the deadline beside it does.
pub(crate) fn format_cap(seconds: f64) -> String {
    format_cap_finer(seconds, 0)
}

/// The steps per second a cap of `seconds` is written to by [`format_cap`]: nanoseconds under a
/// millisecond, microseconds under a second, else milliseconds. Whoever picks a cap that must
/// hold typed back (`solve-cap`, the jittered deadline's cap) picks it on this grid.
pub(crate) fn cap_steps_per_second(seconds: f64) -> f64 {
    if seconds < 1e-3 {
        1e9
    } else if seconds < 1.0 {
        1e6
    } else {
        1e3
    }
}

/// [`format_cap`] with `more` decimals in every unit: a cap that must read back to a finer step
/// than it (`1 h 04 min 32.390137 s`, `549.931245 ms`, `200 days 0.000123 s`).
pub(crate) fn format_cap_finer(seconds: f64, more: u32) -> String {
    let s = seconds.max(0.0);
    let decimals = 3 + more;
    if s < 1e-9 {
        format_duration(s)
    } else if s < 0.001 {
        format!("{} ms", trim(s * 1000.0, 3 + decimals as usize))
    } else if s < 1.0 {
        format!("{} ms", trim(s * 1000.0, decimals as usize))
    } else if s < 100.0 * HOUR {
        whole_exact_to(s, decimals)
    } else {
        // Rounded to the step before the split: a rest of 23 h 59 min 59.9996 s must carry
        // into the days, not read "24 h".
        let per_second = 10u64.pow(decimals);
        let ticks = (s * per_second as f64).round() as u64;
        let day_ticks = DAY as u64 * per_second;
        let (days, rest) = (ticks / day_ticks, ticks % day_ticks);
        // Grouped, as format_duration writes days.
        let days = format_count(days as f64);
        if rest == 0 {
            format!("{days} days")
        } else {
            let rest = exact_to(rest as f64 / per_second as f64, decimals);
            format!("{days} days {rest}")
        }
    }
}

/// Formats a time that something is compared with, such as a give-up time an outage either
/// reaches or not, so that it reads back as the same time to the microsecond, and never later
/// than it: as [`format_duration`] writes it when that does, else as [`format_cap`] does (to
/// the millisecond), else as [`format_exact`] does but to the microsecond, rounded down (in
/// seconds under 2 min and past 100 h): a give-up time of 9.999 s written "10 s" put a 10 s
/// outage on the wrong side of it.
pub(crate) fn format_precise(seconds: f64) -> String {
    // Past 365 days, the longest of any duration given, nothing is compared with it to the
    // microsecond: written as everywhere ("6182057001 s" for a give-up past every outage).
    if seconds > crate::policy::MAX_SPAN_S {
        return format_duration(seconds);
    }
    // Never above it but by what the model counts as at a mark (`reaches`: a part in 10^12,
    // the noise of summed gaps): a time rounded up put an outage of its length typed back on
    // the other side of it.
    let at_or_under = |back: f64| crate::reaches::reaches(seconds, back);
    let reads_back = |text: &String| {
        parse_duration("duration", text)
            .is_ok_and(|back| at_or_under(back) && seconds - back < 1e-6)
    };
    // Past those, in hours, minutes and seconds to the microsecond (3872.390137 s read as
    // such: "1 h 04 min 32.390137 s"), or in seconds past 100 h.
    [format_duration(seconds), format_cap(seconds)]
        .into_iter()
        .find(reads_back)
        .unwrap_or_else(|| {
            // Down to the microsecond, never up: typed back it stays on the same side of what
            // it is compared with (gRPC's give-up, 112.86579456 s, read "112.865795 s", and an
            // outage of that length, said to be delivered, was exhausted: outside review).
            let micros = (seconds * 1e6).round();
            let micros = if at_or_under(micros / 1e6) {
                micros
            } else {
                micros - 1.0
            };
            let floored = micros / 1e6;
            if floored < 100.0 * HOUR {
                whole_exact_to(floored, 6)
            } else {
                format!("{} s", trim(floored, 6))
            }
        })
}

/// Formats a number with at most `decimals` decimals and no trailing zeros, halves rounded up
/// (4.25 min is 4.3 min, as a reader rounds it; the formatter would round it to even).
fn trim(value: f64, decimals: usize) -> String {
    let rounded = rounded(value, decimals);
    crate::number_text::without_trailing_zeros(&format!("{rounded:.decimals$}")).to_string()
}

/// `value` rounded to `decimals` decimals, as [`trim`] writes it.
fn rounded(value: f64, decimals: usize) -> f64 {
    let scale = 10f64.powi(decimals as i32);
    if value.abs() < 1e15 / scale {
        (value * scale).round() / scale
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a refusal quotes of a duration: its length, or the number given where it has none.
    #[test]
    fn a_refused_duration_is_quoted_as_given() {
        assert_eq!(refused_duration(600.0), "10 min");
        assert_eq!(refused_duration(-600.0), "-10 min");
        assert_eq!(refused_duration(-1.5), "-1.5 s");
        assert_eq!(refused_duration(f64::NAN), "NaN");
        assert_eq!(refused_duration(f64::INFINITY), "inf");
        assert_eq!(refused_duration(-1e300), "-1e300");
        // Past a limit by less than the rounding of its written form: never "got 1 h" beside
        // "to 1 h".
        assert_eq!(refused_duration(3_600.000_000_1), "3600.0000001 s");
        assert_eq!(
            refused_duration(3_600.000_000_000_000_5),
            "3600.0000000000005 s"
        );
        assert_eq!(refused_duration(86_400.000_001), "86400.000001 s");
        assert_eq!(refused_duration(-3_600.000_000_1), "-3600.0000001 s");
        assert_eq!(refused_duration(0.3), "300 ms");
    }

    #[test]
    fn a_value_that_rounds_up_to_the_next_unit_is_written_in_it() {
        for (seconds, text) in [
            (0.9994, "999 ms"),
            (0.9996, "1 s"),
            (3_596.0, "59.9 min"),
            (3_599.0, "1 h"),
            (359_969.0, "99 h 59 min"),
            (359_999.0, "4.2 days"),
            (360_000.0, "4.2 days"),
        ] {
            assert_eq!(format_duration(seconds), text, "{seconds} s");
        }
    }

    /// A plus sign reads as a count's does: `+5s` is `5s`, and whatever follows it is read as
    /// without it (a second sign, a minus, a split number are refused as before).
    #[test]
    fn a_plus_sign_reads_as_in_counts() {
        for (text, seconds) in [
            ("+5s", 5.0),
            (" +4m30s", 270.0),
            ("+1.5e2s", 150.0),
            ("+90", 90.0),
        ] {
            assert_eq!(parse_duration("base", text).unwrap(), seconds, "{text}");
        }
        for text in ["+", "++5s", "+inf", "+1 2s"] {
            assert!(
                matches!(parse_duration("base", text), Err(Error::BadDuration { .. })),
                "{text}"
            );
        }
        let negative = parse_duration("base", "+-5s").unwrap_err().to_string();
        assert!(
            negative.starts_with("base must be a duration such as 30s, never negative"),
            "{negative}"
        );
    }

    #[test]
    fn parses_every_documented_form() {
        for (text, seconds) in [
            ("30s", 30.0),
            ("90 s", 90.0),
            ("4m30s", 270.0),
            ("4.5min", 270.0),
            ("3h", 10_800.0),
            ("1d", 86_400.0),
            ("2h30m", 9_000.0),
            ("2h 30m", 9_000.0),
            ("50ms", 0.05),
            ("1.5h", 5_400.0),
            ("45", 45.0),
            ("0.25", 0.25),
            // With an exponent, as every number flag reads one (outside fuzz review: `1e2` was
            // "a duration such as 30s", `--attempts 1e3` a count).
            ("1e2", 100.0),
            ("1.5e2s", 150.0),
            ("2.5E1min", 1_500.0),
            ("1e-3s", 0.001),
            ("1e+1 s", 10.0),
        ] {
            assert_eq!(parse_duration("base", text), Ok(seconds), "{text}");
        }
        // An exponent then several units, and a number split by a space, were read wrongly.
        for text in [
            "5e", "1e", "e5", "1e400", "1e2e3", "1e2m30s", "1e1h30m", "1e0 5s", "1 e2", "1 2s",
        ] {
            assert!(
                matches!(parse_duration("base", text), Err(Error::BadDuration { .. })),
                "{text}"
            );
        }
    }

    /// A unit given twice is refused rather than summed ("1h 1h" was 2 h, "30s30s" 60 s);
    /// "1m 30s" and "4m30s" keep working.
    #[test]
    fn a_unit_written_twice_is_refused() {
        for text in ["1h 1h", "30s30s", "1d1d", "1m 1min"] {
            let refused = parse_duration("base", text).unwrap_err().to_string();
            assert!(
                refused.starts_with("base must be a duration with each unit once"),
                "{text}: {refused}"
            );
        }
        assert_eq!(parse_duration("base", "1m 30s"), Ok(90.0));
        assert_eq!(parse_duration("base", "1h30m15s"), Ok(5_415.0));
    }

    #[test]
    fn refuses_garbage_with_the_field_and_examples() {
        for text in ["", "abc", "NaN", "inf", "5 parsecs", "1.2.3s", "s", "."] {
            let err = parse_duration("cap", text).unwrap_err().to_string();
            assert!(err.starts_with("cap must be a duration"), "{text}: {err}");
        }
        let err = parse_duration("base", "-5s").unwrap_err().to_string();
        assert_eq!(
            err,
            "base must be a duration such as 30s, never negative, got -5s"
        );
    }

    #[test]
    fn formats_the_article_table() {
        let cases = [
            (30.0, "30 s"),
            (90.0, "90 s"),
            (120.0, "2 min"),
            (270.0, "4.5 min"),
            (390.0, "6.5 min"),
            (810.0, "13.5 min"),
            (1_200.0, "20 min"),
            (2_430.0, "40.5 min"),
            (7_290.0, "2 h 02 min"),
            (10_800.0, "3 h"),
            (10_920.0, "3 h 02 min"),
            (86_520.0, "24 h 02 min"),
            (65_610.0, "18 h 14 min"),
            (15_943_230.0, "184 days"),
            (0.05, "50 ms"),
            (0.0005, "0.5 ms"),
            (0.0015, "1.5 ms"),
            (0.0126, "13 ms"),
            (0.000_123_4, "0.12 ms"),
            (1e-7, "0.0001 ms"),
            (1e-12, "1.0e-12 s"),
            (0.0, "0 s"),
        ];
        for (seconds, text) in cases {
            assert_eq!(format_duration(seconds), text, "{seconds}");
        }
    }

    /// A value rounds as a reader rounds it, whatever noise its sum carries: halves up (255 s
    /// is 4.3 min, not 4.2; 765 s 12.8 min) and the same minute for 64890 s and the
    /// 64889.9999998775 s a percentile of a sum comes out as (one read 18 h 02 min, the other
    /// 18 h 01 min).
    #[test]
    fn halves_round_up_and_noise_does_not_decide() {
        assert_eq!(format_duration(255.0), "4.3 min");
        assert_eq!(format_duration(765.0), "12.8 min");
        assert_eq!(format_duration(64_890.0), "18 h 02 min");
        assert_eq!(format_duration(64_889.999_999_877_5), "18 h 02 min");
        assert_eq!(format_duration(1.25), "1.3 s");
        assert_eq!(format_duration(0.0125), "13 ms");
    }

    #[test]
    fn eight_eleven_and_eighteen_take_an() {
        for (text, said) in [
            ("8 h", "an 8 h"),
            ("11 min", "an 11 min"),
            ("18 s", "an 18 s"),
            ("85 s", "an 85 s"),
            ("800 ms", "an 800 ms"),
            ("11000 s", "an 11000 s"),
            ("1 h", "a 1 h"),
            ("110 s", "a 110 s"),
            ("180 days", "a 180-day"),
            ("8.5 days", "an 8.5-day"),
            ("184 years", "a 184-year"),
            ("5 days 3 h 20 min 1 s", "a 5 days 3 h 20 min 1 s"),
            ("30 s", "a 30 s"),
            ("×3", "a ×3"),
        ] {
            assert_eq!(with_article(text), said);
        }
    }

    /// Gaps a schedule would reach uncapped: years, never a count of days past what a u64
    /// holds (which read 18446744073709551615 days).
    #[test]
    fn formats_centuries_in_years() {
        let year = 365.0 * DAY;
        assert_eq!(format_duration(99.0 * year), "36,135 days");
        // Grouped alike wherever days are written, and one word before a noun.
        assert_eq!(format_cap(1_249.5 * DAY), "1,249 days 12 h");
        assert_eq!(as_adjective("1,249 days"), "1,249-day");
        assert_eq!(format_duration(184.5 * year), "184 years");
        assert_eq!(format_duration(2e6 * year), "2.0e6 years");
        assert_eq!(format_duration(1.27e30), "4.0e22 years");
        assert_eq!(format_duration(f64::MAX), "5.7e300 years");
    }

    /// `M` is a month in humantime's notation, one letter from `m`: refused rather than read as
    /// 30 days (`--cap 5M` made a 152-day cap).
    #[test]
    fn a_capital_m_is_refused_not_read_as_months() {
        for text in ["5M", "1M30s", "2.5M"] {
            let err = parse_duration("cap", text).unwrap_err().to_string();
            assert!(err.starts_with("cap must be "), "{text}: {err}");
            assert!(err.contains("M is a month"), "{text}: {err}");
        }
        assert_eq!(parse_duration("cap", "5m").unwrap(), 300.0);
        assert_eq!(parse_duration("cap", "1month").unwrap(), 2_630_016.0);
    }

    /// `solve-cap` wrote a 1.5 µs cap as `0 s` and a 1.4 ms one as `0.001 s` (whole
    /// milliseconds), and a 365-day cap as `8760 h` beside a deadline of `365 days`.
    #[test]
    fn a_cap_reads_right_at_every_scale() {
        let cases = [
            (1.5e-6, "0.0015 ms"),
            (0.000_205, "0.205 ms"),
            (0.0014, "1.4 ms"),
            (0.0015, "1.5 ms"),
            (0.0126, "12.6 ms"),
            (0.999_5, "999.5 ms"),
            (1.5, "1.5 s"),
            (10_782.857_142_857_143, "2 h 59 min 42.857 s"),
            (99.0 * HOUR, "99 h"),
            (365.0 * DAY, "365 days"),
            (200.0 * DAY + 6.0 * HOUR, "200 days 6 h"),
            (5.0 * DAY - 0.000_4, "5 days"),
        ];
        for (seconds, text) in cases {
            assert_eq!(format_cap(seconds), text, "{seconds}");
        }
    }

    /// A cap with more decimals is written in the units `format_cap` writes it in: days past
    /// 100 h (it wrote "4800 h 00 min 0.000123 s"), milliseconds under a second.
    #[test]
    fn a_finer_cap_keeps_the_units() {
        let cases = [
            (0.549_931_245, 3, "549.931245 ms"),
            (0.000_549_931_245, 3, "0.549931245 ms"),
            (3_872.390_137, 3, "1 h 04 min 32.390137 s"),
            (200.0 * DAY + 0.000_123, 3, "200 days 0.000123 s"),
            (299.940_446_65, 6, "4 min 59.94044665 s"),
        ];
        for (seconds, more, text) in cases {
            assert_eq!(format_cap_finer(seconds, more), text, "{seconds}");
        }
    }

    #[test]
    fn a_time_compared_with_is_written_exactly_only_when_rounding_would_move_it() {
        let cases = [
            (86_520.0, "24 h 02 min"),
            (60.0, "60 s"),
            (1.5, "1.5 s"),
            (7.0 * DAY, "7 days"),
            (9.999, "9.999 s"),
            (99_305.0, "27 h 35 min 5 s"),
            (255.0, "4 min 15 s"),
            (0.0005, "0.5 ms"),
            (9.9999, "9.9999 s"),
            // Down to the microsecond, never up: typed back, it is still not past the time.
            (10_782.857_142_857_143, "2 h 59 min 42.857142 s"),
            // gRPC's give-up time: "1 min 52.865795 s" was past it, and not in seconds alone.
            (112.865_794_56, "112.865794 s"),
            (119.9999, "119.9999 s"),
            // The noise of arithmetic is not rounded down ("299.999999 ms").
            (0.1 + 0.2, "300 ms"),
            (0.7 + 0.1, "800 ms"),
            // A nanosecond short of 10 s is not at it.
            (9.999_999_999_5, "9.999999 s"),
            // A staleness caption read "outages up to 3872.390137 s deliver every event fresh".
            (3_872.390_137, "1 h 04 min 32.390137 s"),
            // Past 365 days, written as everywhere: it read "6182057001 s".
            (6_182_057_001.0, "196 years"),
            (365.0 * DAY + 0.5, "365 days"),
        ];
        for (seconds, text) in cases {
            assert_eq!(format_precise(seconds), text, "{seconds}");
            if seconds <= crate::policy::MAX_SPAN_S {
                let back = parse_duration("duration", text).unwrap();
                assert!(
                    crate::reaches::reaches(seconds, back),
                    "{text} is past {seconds}"
                );
            }
        }
    }

    #[test]
    fn exact_format_keeps_every_second() {
        assert_eq!(format_exact(272_105.0), "75 h 35 min 5 s");
        assert_eq!(format_exact(86_520.0), "24 h 02 min");
        assert_eq!(format_exact(0.0), "0 s");
    }
}
