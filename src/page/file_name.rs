//! The name a download is saved under: what it shows and the settings that decide it, so that
//! two states' downloads do not both save as `backoff-lab-storm.png` (the second as
//! `backoff-lab-storm (1).png`, which says nothing of what it holds).

use super::Settings;

/// The longest name made before its state's digits and its extension: file systems take 255
/// bytes, and a name this long still reads in a downloads list.
const MAX_LEN: usize = 120;

/// The file name, without its extension, of a download of `what` (a chart's view, or the
/// `schedule` or `staleness` report) drawn from `settings`: `backoff-lab-`, `what`, the policy
/// (its preset, then its gaps, or its base, multiplier and cap), its stop, its jitter where
/// `what` draws any, the storm's outage or the staleness tolerance where they decide it, and
/// six hex digits of the settings' share link (FNV-1a, 32 bits, of the link without the
/// `view` and `section` it opens at), which set two states' names apart whatever the setting
/// they differ in (a storm's bounds, its traffic, the outage read off). In lowercase letters,
/// digits, dots and dashes alone (`×3` is `x3`, `30 s` is `30s`).
///
/// # Example
/// ```
/// use backoff_lab::page::{file_stem, Settings};
/// assert_eq!(
///     file_stem("storm", &Settings::default()),
///     "backoff-lab-storm-30s-x3-cap-3h-14-attempts-full-jitter-outage-10min-1c9dc5"
/// );
/// ```
pub fn file_stem(what: &str, settings: &Settings) -> String {
    let value = |key: &str| settings.get(key).trim().to_string();
    let mut parts = vec!["backoff-lab".to_string(), what.to_string(), value("preset")];
    let gaps = value("gaps");
    if gaps.is_empty() {
        parts.push(value("base"));
        parts.push(format!("x{}", value("multiplier")));
        parts.push(format!("cap-{}", value("cap")));
    } else {
        parts.push(format!("gaps-{gaps}"));
        parts.push(value("then-every"));
    }
    parts.push(match settings.get("stop") {
        "give-up" => format!("give-up-{}", value("give-up")),
        _ => format!("{}-attempts", value("attempts")),
    });
    let draws = !matches!(what, "timeline" | "schedule");
    if draws && settings.get("mode") != "none" {
        parts.push(format!("{}-jitter", value("mode")));
    }
    match what {
        "storm" | "survival" => parts.push(format!("outage-{}", value("outage"))),
        "staleness" => parts.push(format!("tolerance-{}", value("tolerance"))),
        _ => {}
    }
    format!("{}-{}", slug(&parts.join("-")), state_digits(settings))
}

/// Six hex digits of the share link of `settings`, the chart it opens at and the storm's
/// inactive fields ([`super::inactive_fields`], which change no picture) left out: FNV-1a.
fn state_digits(settings: &Settings) -> String {
    let mut state = settings.clone();
    for key in ["view", "section"]
        .into_iter()
        .chain(super::inactive_fields(settings))
    {
        state.reset(key);
    }
    let hash = super::encode_hash(&state)
        .bytes()
        .fold(0x811c_9dc5_u32, |hash, byte| {
            (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
        });
    format!("{:06x}", hash & 0x00ff_ffff)
}

/// `text` in lowercase letters, digits, dots and dashes: spaces inside a value dropped (`30 s`),
/// `×` as `x`, anything else one dash, no dash twice, at most [`MAX_LEN`] characters.
fn slug(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let c = match c {
            'A'..='Z' => c.to_ascii_lowercase(),
            'a'..='z' | '0'..='9' | '.' => c,
            '×' => 'x',
            ' ' => continue,
            _ => '-',
        };
        if !(c == '-' && (out.is_empty() || out.ends_with('-'))) {
            out.push(c);
        }
        if out.len() >= MAX_LEN {
            break;
        }
    }
    out.trim_end_matches(['-', '.']).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(pairs: &[(&str, &str)]) -> Settings {
        Settings::with(pairs)
    }

    /// The name without its state's six digits, which it checks are there.
    fn words(name: &str) -> &str {
        let (words, digits) = name.rsplit_once('-').unwrap();
        assert!(
            digits.len() == 6 && digits.chars().all(|c| c.is_ascii_hexdigit()),
            "{name}"
        );
        words
    }

    /// Two states' downloads have two names, each saying what decides it: the timeline draws no
    /// jitter and names none; a list of gaps is named by its gaps.
    #[test]
    fn a_download_is_named_after_what_decides_it() {
        let default = Settings::default();
        assert_eq!(
            words(&file_stem("timeline", &default)),
            "backoff-lab-timeline-30s-x3-cap-3h-14-attempts"
        );
        assert_eq!(
            words(&file_stem("staleness", &default)),
            "backoff-lab-staleness-30s-x3-cap-3h-14-attempts-full-jitter-tolerance-6h"
        );
        let svix = settings(&[
            ("preset", "svix"),
            ("gaps", "5s,5m,30m,2h,5h,10h,10h"),
            ("mode", "none"),
            ("stop", "give-up"),
            ("give-up", "27 h 35 min 5 s"),
        ]);
        assert_eq!(
            words(&file_stem("herd", &svix)),
            "backoff-lab-herd-svix-gaps-5s-5m-30m-2h-5h-10h-10h-give-up-27h35min5s"
        );
        assert_ne!(
            file_stem("storm", &default),
            file_stem("storm", &settings(&[("outage", "30 min")]))
        );
    }

    /// Two states that differ in any setting have two names, the storm's bounds and the outage
    /// read off included (every storm download of a budget, a rate limit or none saved under
    /// one name); the chart a link opens at changes nothing.
    #[test]
    fn two_states_have_two_names() {
        let default = file_stem("storm", &Settings::default());
        for (key, value) in [
            ("budget", "10"),
            ("rate-limit", "25/s"),
            ("pause", "true"),
            ("retry-quota", "aws"),
            ("capacity", "50/s"),
            ("read-outage", "1h"),
        ] {
            assert_ne!(
                file_stem("storm", &settings(&[(key, value)])),
                default,
                "{key}"
            );
        }
        let budget = settings(&[("budget", "10")]);
        assert_ne!(
            file_stem(
                "storm",
                &settings(&[("budget", "10"), ("budget-floor", "0")])
            ),
            file_stem("storm", &budget)
        );
        let elsewhere = settings(&[("view", "herd"), ("section", "jitter")]);
        assert_eq!(file_stem("storm", &elsewhere), default);
        // A field left out of the storm as inactive (a floor without a budget) changes nothing.
        assert_eq!(
            file_stem("storm", &settings(&[("budget-floor", "0")])),
            default
        );
    }

    /// Whatever a link holds, the name is a file name: no slash, no space, no quote, not
    /// longer than [`MAX_LEN`].
    #[test]
    fn any_value_makes_a_plain_file_name() {
        let odd = settings(&[
            ("gaps", &"../../etc/passwd <b>\"x\" ".repeat(20)),
            ("attempts", "1e3"),
        ]);
        let name = file_stem("schedule", &odd);
        assert!(words(&name).len() <= MAX_LEN, "{name}");
        assert!(
            name.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-'),
            "{name}"
        );
        assert!(!name.contains("--") && !name.ends_with('-'), "{name}");
    }
}
