//! Numbers in text people read (captions, summaries, chart labels) have the digits of their
//! whole part grouped by thousands with commas, as the article writes them (72,000 deliveries,
//! 116,225 attempts). Machine formats (CSV, JSON) and the ranges error messages quote are
//! written without grouping, so that they read back as numbers.

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

#[cfg(test)]
mod tests {
    use super::{format_count, grouped};

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
