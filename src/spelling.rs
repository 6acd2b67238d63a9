//! Which known name a misspelt one means: `atempts` is `attempts`, `give_up` is `give-up`. Used
//! by the JS API's refusal of unknown keys and the element's of unknown attributes.

/// The word of `known` that `given` is a slip of: the nearest (the first of equals) at most two
/// edits away, and fewer for a short word (`foo` is two edits from `log`, another word); `None`
/// if there is none. A word longer or shorter by more than the edits allowed is not measured (a
/// million-character key took seconds per known word).
pub fn nearest<'a>(given: &str, known: &[&'a str]) -> Option<&'a str> {
    // Known names are lowercase: `BASE` is `base` in capitals, not four edits from it. ASCII
    // alone: Unicode's case tables would weigh on the wasm.
    let given = given.to_ascii_lowercase();
    let given = given.as_str();
    let chars = given.chars().count();
    let most = 2.min(chars.saturating_sub(1) / 2);
    known
        .iter()
        .filter(|word| word.chars().count().abs_diff(chars) <= most)
        .map(|word| (edits(word, given), *word))
        .filter(|(edits, _)| *edits <= most)
        // The first of the nearest: `min_by_key` keeps the first of equal keys.
        .min_by_key(|(edits, _)| *edits)
        .map(|(_, word)| word)
}

/// The edit distance between `a` and `b`: insertions, deletions, substitutions and swaps of
/// two neighbouring letters (`veiw` is one slip of `view`, two by the first three alone), each
/// letter edited once (the optimal string alignment distance).
fn edits(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // The rows for `a`'s first `i - 2`, `i - 1` and `i` letters against each prefix of `b`.
    let mut before: Vec<usize> = Vec::new();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            row[j] = (previous[j] + 1)
                .min(row[j - 1] + 1)
                .min(previous[j - 1] + usize::from(a[i - 1] != b[j - 1]));
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        before = std::mem::replace(&mut previous, row);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slip_is_near_and_another_word_is_not() {
        let known = ["attempts", "give-up", "log", "base"];
        assert_eq!(nearest("atempts", &known), Some("attempts"));
        assert_eq!(nearest("attemps", &known), Some("attempts"));
        assert_eq!(nearest("give_up", &known), Some("give-up"));
        assert_eq!(nearest("giveup", &known), Some("give-up"));
        assert_eq!(nearest("foo", &known), None);
        assert_eq!(nearest("BASE", &known), Some("base"));
        assert_eq!(nearest("Atempts", &known), Some("attempts"));
        assert_eq!(nearest("class", &known), None);
        assert_eq!(nearest(&"x".repeat(1_000_000), &known), None);
        // The nearest, not the first near enough: `action` is one edit from `actions`, two from
        // `section`.
        assert_eq!(nearest("action", &["section", "actions"]), Some("actions"));
        // Two letters swapped are one slip (a docs author's `veiw` drew the default view).
        assert_eq!(nearest("veiw", &["view", "seed"]), Some("view"));
        assert_eq!(nearest("tehme", &["theme"]), Some("theme"));
        assert_eq!(nearest("vewi", &["view"]), None);
        assert_eq!(edits("ca", "abc"), 3);
    }
}
