//! Numbers written as text. In text people read (captions, summaries, table heads, chart
//! labels) the digits of a number's whole part are grouped by thousands with commas, as the
//! article writes them (72,000 deliveries, 116,225 attempts). Machine formats (CSV, JSON), seeds
//! and the ranges error messages quote are written without grouping, so that they read back as
//! numbers; but the core's own work limits and estimates in those messages, which nobody types
//! (2,000,000,000 drawn gaps, 500,000,000 class-seconds, a map of 40,688,646,960
//! delivery-attempts), are grouped for reading.

/// `text`, a number as `format!` writes it (`-1234567.5`), with the digits of its whole part
/// grouped by thousands (`-1,234,567.5`). Anything else (`inf`, `NaN`) comes back as given.
pub(crate) fn grouped(text: &str) -> String {
    let (sign, unsigned) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text),
    };
    let whole_len = unsigned
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(unsigned.len());
    if whole_len == 0 {
        return text.to_string();
    }
    let (whole, rest) = unsigned.split_at(whole_len);
    let mut out = String::with_capacity(text.len() + whole_len / 3);
    out.push_str(sign);
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole_len - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out.push_str(rest);
    out
}

/// `value` rounded to a whole number (halves away from zero), grouped: 863761.4 → `863,761`;
/// a negative value that rounds to zero is `0`.
pub(crate) fn format_count(value: f64) -> String {
    let rounded = value.round();
    grouped(&format!(
        "{:.0}",
        if rounded == 0.0 { 0.0 } else { rounded }
    ))
}

/// A count that can be an expectation (the fluid storm's attempts in a minute): whole and
/// grouped from 100 up or when it is whole (`863,761`, `4`), else to three significant digits
/// (`4.47`, `44.7`), so that a small peak reads as the multiple the caption gives with it
/// ("4.47 … 4.47× normal traffic", where a rounded `4` stood beside 4.47×).
pub(crate) fn format_expected_count(value: f64) -> String {
    if value.abs() >= 100.0 || value.fract() == 0.0 || !value.is_finite() {
        format_count(value)
    } else {
        without_trailing_zeros(&significant(value, 3)).to_string()
    }
}

/// `value` to `digits` significant digits in decimal notation, at most 12 decimals, zeros kept
/// (they are significant): `0.0000386`, `0.150`, `33.3`, `1234`; 0 and non-finite values with
/// no decimals.
pub(crate) fn significant(value: f64, digits: i32) -> String {
    let decimals = if value.is_finite() && value != 0.0 {
        (f64::from(digits - 1) - value.abs().log10().floor()).clamp(0.0, 12.0) as usize
    } else {
        0
    };
    format!("{value:.decimals$}")
}

/// `text`, a number, without the trailing zeros of its fraction: `17.50` → `17.5`, `3.00` → `3`.
pub(crate) fn without_trailing_zeros(text: &str) -> &str {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        text
    }
}

/// A multiple (of a mean, of normal traffic, of capacity) to three significant digits, without
/// trailing zeros, grouped: `1.32`, `1.15` (not `1.1` for a 15% overload), `6.94`, `30`, `205`,
/// `366`, `0.004`, `51,840,000`; a positive one below a thousandth is `under 0.001`.
pub(crate) fn multiple(value: f64) -> String {
    if value > 0.0 && value < 0.001 {
        return "under 0.001".to_string();
    }
    grouped(without_trailing_zeros(&significant(value, 3)))
}

/// A share in whole percents, with as many decimals as it takes not to read 0% or 100% when
/// it is neither (`99.99%` for 9,992 of 9,993 gaps); "over 99.99%" and "under 0.01%" past that.
///
/// # Example (crate-internal)
/// `share_percent(0.42)` is `42%`, `share_percent(0.99992)` is `99.99%`.
pub(crate) fn share_percent(share: f64) -> String {
    let percent = share * 100.0;
    if percent <= 0.0 || percent >= 100.0 {
        return format!("{}%", percent.round());
    }
    for decimals in 0..=2 {
        let text = format!("{percent:.decimals$}");
        let shown: f64 = text.parse().unwrap_or(percent);
        if shown > 0.0 && shown < 100.0 {
            return format!("{}%", without_trailing_zeros(&text));
        }
    }
    if percent < 50.0 {
        "under 0.01%".to_string()
    } else {
        "over 99.99%".to_string()
    }
}

/// Shares (0 to 1) that add up to a whole, as percentages with `decimals` decimals that add up
/// to it too (largest remainders): each is rounded down to its last decimal, and the units left
/// go to the largest remainders, the earlier share first on a tie (each share first rounded to
/// a billionth of its last decimal's unit, so that float noise does not decide). Rounded one by one, 50.05% + 20.85% + 29.1% read
/// 50.1% + 20.9% + 29.1% = 100.1%; together they read 50.1% + 20.8% + 29.1%. The rule's
/// tests read it; the captions write [`percents_adding_up_legibly`].
#[cfg(test)]
pub(crate) fn percents_adding_up(shares: &[f64], decimals: usize) -> Vec<String> {
    units_adding_up(shares, decimals)
        .iter()
        .map(|&units| percent_of_units(units, decimals))
        .collect()
}

/// [`percents_adding_up`] with the fewest decimals (whole percents up to 3 decimals) at which
/// no share reads 0% or 100% unless it is: "99% … 0.3% … 1%" added up to 100.3%, its 0.485%
/// read "1%" beside the table's "0.5%" (outside review); together they read 99.2%, 0.3% and
/// 0.5%. A share of exactly none or all reads `0%` or `100%`; one still reading 0% or 100% at 3
/// decimals, and not, `under 0.001%` or `over 99.999%` (it read "0.000%"), or where it reads
/// otherwise alone to 3 decimals, so.
pub(crate) fn percents_adding_up_legibly(shares: &[f64]) -> Vec<String> {
    let legible = |decimals: usize| {
        let whole = 10f64.powi(decimals as i32 + 2);
        units_adding_up(shares, decimals)
            .iter()
            .zip(shares)
            .all(|(&units, &share)| {
                (units > 0.0 || share <= 0.0) && (units < whole || share >= 1.0)
            })
    };
    let decimals = (0..3).find(|&d| legible(d)).unwrap_or(3);
    let whole = 10f64.powi(decimals as i32 + 2);
    units_adding_up(shares, decimals)
        .iter()
        .zip(shares)
        .map(|(&units, &share)| {
            let alone = format!("{:.3}", share * 100.0);
            match alone.parse::<f64>() {
                _ if share <= 0.0 => "0%".to_string(),
                _ if share >= 1.0 => "100%".to_string(),
                _ if units > 0.0 && units < whole => percent_of_units(units, decimals),
                Ok(0.0) => "under 0.001%".to_string(),
                Ok(100.0) => "over 99.999%".to_string(),
                _ => alone + "%",
            }
        })
        .collect()
}

/// [`percents_adding_up`] as whole units of the last decimal (tenths of a percent for one
/// decimal), for a sum of some of them.
pub(crate) fn units_adding_up(shares: &[f64], decimals: usize) -> Vec<f64> {
    let unit = 10f64.powi(decimals as i32 + 2);
    // In whole nanounits first, so that remainders compare exactly: 0.5005 × 1000 is
    // 500.49999999999994, a tie with 208.5; as floats, 2/3 and 1/6 of a thousand left
    // remainders differing by 1e-13, which picked the later of a tie. A share is at most 1, so
    // its nanounits fit an i64 for up to 6 decimals.
    const NANO: i64 = 1_000_000_000;
    let nanos: Vec<i64> = shares
        .iter()
        .map(|s| (s * unit * NANO as f64).round() as i64)
        .collect();
    let whole = (nanos.iter().sum::<i64>() as f64 / NANO as f64).round();
    let mut floors: Vec<f64> = nanos.iter().map(|n| n.div_euclid(NANO) as f64).collect();
    let remainders: Vec<i64> = nanos.iter().map(|n| n.rem_euclid(NANO)).collect();
    let left = (whole - floors.iter().sum::<f64>()).max(0.0) as usize;
    // The largest remainder not yet given a unit, the earlier on a tie: a few shares, so a
    // scan each time (a sort brought 8 KB of wasm).
    let mut given = vec![false; nanos.len()];
    for _ in 0..left {
        let mut best: Option<usize> = None;
        for i in (0..nanos.len()).filter(|&i| !given[i]) {
            if best.is_none_or(|b| remainders[i] > remainders[b]) {
                best = Some(i);
            }
        }
        if let Some(i) = best {
            floors[i] += 1.0;
            given[i] = true;
        }
    }
    floors
}

/// `units` of the last of `decimals` decimals as a percentage ("33.3%" for 333 tenths).
pub(crate) fn percent_of_units(units: f64, decimals: usize) -> String {
    format!("{:.decimals$}%", units / 10f64.powi(decimals as i32))
}

/// A number as an ordinal, for percentiles: `1st`, `2nd`, `3rd`, `5th`, `11th`, `21st`,
/// `22nd`, `50.5th` (a fraction takes `th`); they read "2th", "21th".
pub(crate) fn ordinal(value: f64) -> String {
    let text = without_trailing_zeros(&significant(value, 6)).to_string();
    let suffix = if value.fract() != 0.0 {
        "th"
    } else {
        let whole = value.abs() as u64;
        match (whole % 10, whole % 100) {
            (_, 11..=13) => "th",
            (1, _) => "st",
            (2, _) => "nd",
            (3, _) => "rd",
            _ => "th",
        }
    };
    format!("{text}{suffix}")
}

/// `n` of `noun`, grouped, the noun in the plural unless `n` is 1: `1 attempt`, `2,000 attempts`.
pub(crate) fn count_of(n: u64, noun: &str) -> String {
    let plural = if n == 1 { "" } else { "s" };
    format!("{} {noun}{plural}", format_count(n as f64))
}

#[cfg(test)]
mod tests {
    use super::{
        count_of, format_count, format_expected_count, grouped, multiple, percents_adding_up,
        percents_adding_up_legibly, share_percent, significant, units_adding_up,
        without_trailing_zeros,
    };

    /// The fewest decimals at which no share reads 0% or 100% unless it is, all shares at
    /// them, adding up: gRPC's 4 h outage read "99% … 0.3% … 1%" (100.3%, its 0.485% as 1%).
    #[test]
    fn small_shares_keep_their_decimals_and_add_up() {
        let cases: [(&[f64], &[&str]); 4] = [
            (&[1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0], &["34%", "33%", "33%"]),
            (&[0.992_16, 0.003_0, 0.004_85], &["99.2%", "0.3%", "0.5%"]),
            (
                &[0.997_254, 0.000_346, 0.002_4],
                &["99.73%", "0.03%", "0.24%"],
            ),
            (&[1.0, 0.0], &["100%", "0%"]),
        ];
        for (shares, texts) in cases {
            assert_eq!(percents_adding_up_legibly(shares), texts, "{shares:?}");
        }
        // Past 3 decimals a share that would still read 0% or 100% says so.
        assert_eq!(
            percents_adding_up_legibly(&[1.0 - 1e-9, 1e-9]),
            ["over 99.999%", "under 0.001%"]
        );
    }

    #[test]
    fn expected_counts_keep_three_digits_below_a_hundred() {
        assert_eq!(format_expected_count(4.4721), "4.47");
        assert_eq!(format_expected_count(44.72), "44.7");
        assert_eq!(format_expected_count(4.0), "4");
        assert_eq!(format_expected_count(0.5), "0.5");
        assert_eq!(format_expected_count(447.2), "447");
        assert_eq!(format_expected_count(123_456.7), "123,457");
    }

    /// The cap's share of a 10,000-attempt schedule read "100% of the time to give up".
    #[test]
    fn a_share_reads_100_or_0_percent_only_when_it_is() {
        for (share, text) in [
            (0.0, "0%"),
            (0.42, "42%"),
            (0.996, "99.6%"),
            (0.99992, "99.99%"),
            (0.999_999, "over 99.99%"),
            (1.0, "100%"),
            (0.004, "0.4%"),
            (0.000_001, "under 0.01%"),
        ] {
            assert_eq!(share_percent(share), text, "{share}");
        }
    }

    #[test]
    fn percentiles_read_as_ordinals() {
        let read: Vec<String> = [1.0, 2.0, 3.0, 5.0, 11.0, 12.0, 21.0, 22.0, 23.0, 95.0, 50.5]
            .into_iter()
            .map(super::ordinal)
            .collect();
        assert_eq!(
            read,
            [
                "1st", "2nd", "3rd", "5th", "11th", "12th", "21st", "22nd", "23rd", "95th",
                "50.5th"
            ]
        );
    }

    #[test]
    fn shares_of_a_whole_add_up_in_tenths() {
        assert_eq!(
            percents_adding_up(&[0.5005, 0.2085, 0.291], 1),
            ["50.1%", "20.8%", "29.1%"]
        );
        assert_eq!(
            percents_adding_up(&[1.0, 0.0, 0.0], 1),
            ["100.0%", "0.0%", "0.0%"]
        );
        assert_eq!(
            percents_adding_up(&[1.0 / 3.0; 3], 1),
            ["33.4%", "33.3%", "33.3%"]
        );
        assert_eq!(
            percents_adding_up(&[1.0 / 3.0; 3], 0),
            ["34%", "33%", "33%"]
        );
        // Ties the earlier way whatever the float noise (they read 66.6%, 16.7%, 16.7%, and
        // 67%, 17%, 16% in the caption beside them).
        let shares = [2.0 / 3.0, 1.0 / 6.0, 1.0 / 6.0];
        assert_eq!(percents_adding_up(&shares, 1), ["66.7%", "16.7%", "16.6%"]);
        assert_eq!(percents_adding_up(&shares, 0), ["67%", "17%", "16%"]);
        for n in [3.0, 6.0, 7.0, 9.0, 11.0, 12.0] {
            let shares = [1.0 / n, 1.0 / n, 1.0 - 2.0 / n];
            let tenths = units_adding_up(&shares, 1);
            assert!(tenths[0] >= tenths[1], "1/{n}: {tenths:?}");
        }
    }

    /// Herds and storms write their multiples alike (they read 366× and 205.4×).
    #[test]
    fn multiples_keep_three_significant_digits() {
        let cases = [
            (44.0 / 33.333, "1.32"),
            (690.0 / 600.0, "1.15"),
            (6.941, "6.94"),
            (10.0, "10"),
            (29.97, "30"),
            (205.43, "205"),
            (366.2, "366"),
            (0.25, "0.25"),
            (25.0 / 6_000.0, "0.00417"),
            (0.0001, "under 0.001"),
            (0.0, "0"),
            (51_840_000.0, "51,840,000"),
        ];
        for (value, text) in cases {
            assert_eq!(multiple(value), text, "{value}");
        }
    }

    #[test]
    fn significant_digits_in_decimal_notation() {
        assert_eq!(significant(1_000.0 / (300.0 * 86_400.0), 3), "0.0000386");
        assert_eq!(significant(0.15, 3), "0.150");
        assert_eq!(significant(1_234.4, 3), "1234");
        assert_eq!(significant(138.888_888_888_888_89, 6), "138.889");
        assert_eq!(significant(0.0, 3), "0");
        assert_eq!(without_trailing_zeros("17.50"), "17.5");
        assert_eq!(without_trailing_zeros("3.00"), "3");
        assert_eq!(without_trailing_zeros("300"), "300");
    }

    #[test]
    fn a_count_of_things_is_grouped_and_in_the_plural_but_for_one() {
        assert_eq!(count_of(1, "attempt"), "1 attempt");
        assert_eq!(count_of(0, "attempt"), "0 attempts");
        assert_eq!(count_of(2_000, "attempt"), "2,000 attempts");
    }

    #[test]
    fn whole_parts_are_grouped_by_thousands() {
        for (text, expected) in [
            ("0", "0"),
            ("999", "999"),
            ("1000", "1,000"),
            ("72000", "72,000"),
            ("116225", "116,225"),
            ("1000000", "1,000,000"),
            ("-1234567.5", "-1,234,567.5"),
            ("1234.5678", "1,234.5678"),
            ("205.4", "205.4"),
            ("0.00001234", "0.00001234"),
            ("inf", "inf"),
            ("NaN", "NaN"),
            ("", ""),
        ] {
            assert_eq!(grouped(text), expected, "{text}");
        }
    }

    #[test]
    fn counts_are_rounded_then_grouped() {
        assert_eq!(format_count(863_761.4), "863,761");
        assert_eq!(format_count(1_552.5), "1,553");
        assert_eq!(format_count(-0.4), "0");
        assert_eq!(format_count(-2_500.0), "-2,500");
        assert_eq!(format_count(10_000_000.0), "10,000,000");
    }
}
