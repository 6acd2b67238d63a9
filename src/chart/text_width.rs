//! How wide text is in an SVG figure, where nothing measures it: the advance widths of Arial's
//! metrics (those of Liberation Sans, Arimo and Helvetica alike), the `sans-serif` of browsers
//! on Windows, macOS and most Linux desktops. The canvas measures its own text; a figure laid
//! out at plotters' flat estimate (0.565 of the font size a character) left gaps of 50-70 px
//! between its legend's entries once a browser drew it (outside review).

/// Advance widths of the printable ASCII characters (space to `~`), in 2048ths of an em.
const REGULAR: [u16; 95] = [
    569, 569, 727, 1139, 1139, 1821, 1366, 391, 682, 682, 797, 1196, 569, 682, 569, 569, 1139,
    1139, 1139, 1139, 1139, 1139, 1139, 1139, 1139, 1139, 569, 569, 1196, 1196, 1196, 1139, 2079,
    1366, 1366, 1479, 1479, 1366, 1251, 1593, 1479, 569, 1024, 1366, 1139, 1706, 1479, 1593, 1366,
    1593, 1479, 1366, 1251, 1479, 1366, 1933, 1366, 1366, 1251, 569, 569, 569, 961, 1139, 682,
    1139, 1139, 1024, 1139, 1139, 569, 1139, 1139, 455, 455, 1024, 455, 1706, 1139, 1139, 1139,
    1139, 682, 1024, 569, 1139, 1024, 1479, 1024, 1024, 1024, 684, 532, 684, 1196,
];

/// The same in bold.
const BOLD: [u16; 95] = [
    569, 682, 971, 1139, 1139, 1821, 1479, 487, 682, 682, 797, 1196, 569, 682, 569, 569, 1139,
    1139, 1139, 1139, 1139, 1139, 1139, 1139, 1139, 1139, 682, 682, 1196, 1196, 1196, 1251, 1997,
    1479, 1479, 1479, 1479, 1366, 1251, 1593, 1479, 569, 1139, 1479, 1251, 1706, 1479, 1593, 1366,
    1593, 1479, 1366, 1251, 1479, 1366, 1933, 1366, 1366, 1251, 682, 569, 682, 1196, 1139, 682,
    1139, 1251, 1139, 1251, 1139, 682, 1251, 1251, 569, 569, 1139, 569, 1821, 1251, 1251, 1251,
    1251, 797, 1139, 682, 1251, 1139, 1593, 1139, 1139, 1024, 797, 573, 797, 1196,
];

/// The characters past ASCII the charts write, regular and bold alike (bold µ, ’ and the
/// quotes differ by a few units at most).
fn other(c: char) -> u16 {
    match c {
        'µ' => 1180,
        '×' => 1196,
        '→' | '←' | '—' | '…' => 2048,
        '↑' | '↓' => 1024,
        '–' => 1139,
        '·' => 683,
        '±' | '≈' | '÷' | '≥' | '≤' => 1124,
        '°' => 819,
        '’' => 455,
        '“' | '”' => 682,
        // Anything else (text a user typed): a wide letter's width, so that it is never
        // overlapped.
        _ => 1479,
    }
}

/// How wide `text` is at `size` px, in pixels.
pub(crate) fn width(text: &str, size: f64, bold: bool) -> f64 {
    let table = if bold { &BOLD } else { &REGULAR };
    let units: u32 = text
        .chars()
        .map(|c| match c {
            ' '..='~' => u32::from(table[c as usize - 32]),
            c => u32::from(other(c)),
        })
        .sum();
    f64::from(units) / 2048.0 * size
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arial's digits are half an em, its `i` under a quarter: a number column is as wide as
    /// its digits, and a legend of narrow letters is not laid out as a wide one.
    #[test]
    fn widths_follow_the_letters() {
        assert!((width("1000", 10.0, false) - 4.0 * 1139.0 / 2048.0 * 10.0).abs() < 1e-9);
        assert!(width("iiii", 12.0, false) < width("MMMM", 12.0, false) / 3.0);
        assert!(width("goodput", 11.0, true) > width("goodput", 11.0, false));
        assert!(
            (width("30 s → 1 min", 11.0, false) - width("30 s - 1 min", 11.0, false)).abs() > 5.0
        );
    }
}
