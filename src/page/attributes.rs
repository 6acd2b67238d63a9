//! The settings of a `<backoff-lab>` element, from its attributes: the share link's keys as
//! attribute names (`base="1m"`, `give-up="24 h"`, `view="storm"`), on top of `state` (a whole
//! share-link hash), `theme` among them. Attributes that are not settings (`class`, `id`,
//! `actions`, `aria-*`…) belong to the page or the element and are passed over.

use serde::Serialize;

use super::settings::{decode_hash, DecodedState, Refused, Settings};

/// What an element's attributes set, and each one that could not be used.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ElementState {
    /// Every setting (defaults where nothing valid was given).
    #[cfg_attr(test, ts(type = "Settings"))]
    pub settings: Settings,
    /// One per attribute (or part of `state`) that was not used.
    pub errors: Vec<AttributeError>,
}

/// An attribute that was not used, and why.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttributeError {
    /// The attribute's name (`state` for a part of the share link in it).
    pub attribute: String,
    /// What was ignored and the valid range, in words.
    pub message: String,
}

/// The element's attributes that are not settings: `state` (a share link whose settings the
/// other attributes override) and `actions` (its download buttons). The element observes them
/// beside the settings (`pageConfig().ownAttributes`), and `figure --state` leaves them out of
/// an element's attributes joined as a link.
pub const OWN_ATTRIBUTES: [&str; 2] = ["state", "actions"];

/// The command line's flags that the page and the element do not take (a storm's latency, its
/// batch, the fixed policy's interval, a herd's window…): given as an attribute, each is named
/// as ignored. They drew the default storm without a word, though the README's "each as its
/// `storm` flag takes it" read as every flag (outside review). `tests/cli/main.rs` checks that
/// every flag of the commands is a setting, one of these, or `format`/`help`.
pub const CLI_ONLY_FLAGS: [&str; 12] = [
    "abandon",
    "batch",
    "batch-at",
    "interval",
    "latency",
    // The page's and the element's is `storm-compare`, for the storm and the map together.
    "no-compare",
    "outage-start",
    "per-second",
    "percentile",
    "policy",
    "retry-after-threshold",
    "window",
];

/// HTML's own attributes that an element may carry (besides `data-*`, `aria-*` and a
/// framework's `x:y`), never read as a slip of one of ours (`style` is two letters from
/// `state`).
const HTML_ATTRIBUTES: [&str; 24] = [
    "id",
    "class",
    "style",
    "title",
    "lang",
    "dir",
    "hidden",
    "slot",
    "tabindex",
    "role",
    "part",
    "is",
    "nonce",
    "translate",
    "inert",
    "popover",
    "draggable",
    "spellcheck",
    "autofocus",
    "accesskey",
    "contenteditable",
    "exportparts",
    "width",
    "height",
];

/// The settings named by `attributes` (name, value), applied in order after `state` whatever
/// its position, then completed as a link is (a preset's schedule filled in).
pub fn element_state(attributes: &[(String, String)]) -> ElementState {
    let mut errors = Vec::new();
    let from_state = attributes
        .iter()
        .find(|(name, _)| name == "state")
        .map_or_else(
            || decode_hash(""),
            |(_, link)| {
                // The page's Copy link copies a whole address: its settings are after the `#`
                // (the address was read as an unknown setting, and the first one lost).
                let hash = link.split_once('#').map_or(link.as_str(), |(_, hash)| hash);
                let decoded = decode_hash(hash);
                errors.extend(decoded.notices.iter().map(|notice| AttributeError {
                    attribute: "state".into(),
                    message: notice.clone(),
                }));
                decoded
            },
        );
    let mut settings = from_state.settings;
    let mut given = from_state.given;
    // Each refused value's error, with the refusal: what is used instead is said once the
    // settings are completed (a preset's values filled in).
    let mut refusals: Vec<(usize, Refused)> = from_state
        .refused
        .into_iter()
        .filter_map(|refusal| {
            let said = refusal.notice();
            let at = errors
                .iter()
                .position(|e: &AttributeError| e.message == said)?;
            Some((at, refusal))
        })
        .collect();
    // The keys named by attributes themselves (not inside `state`, which is a link).
    let mut named = Vec::new();
    for (name, value) in attributes {
        if name == "state" || !Settings::is_key(name) {
            // A slip of an attribute's name (`attemps`, `give_up`, `giveUp`, which HTML reads as
            // `giveup`) drew the defaults without a word; another name (`id`, `class`, a
            // framework's own) is the page's business.
            let known: Vec<&str> = Settings::default()
                .iter()
                .map(|(key, _)| key)
                .chain(OWN_ATTRIBUTES)
                .collect();
            let html = HTML_ATTRIBUTES.contains(&name.as_str())
                || ["data-", "aria-"]
                    .iter()
                    .any(|start| name.starts_with(start))
                || name.contains(':');
            if CLI_ONLY_FLAGS.contains(&name.as_str()) {
                errors.push(AttributeError {
                    attribute: name.clone(),
                    message: format!(
                        "{name} is a flag of the command line that backoff-lab's element does not \
                         take, and was ignored"
                    ),
                });
                continue;
            }
            let near = crate::spelling::nearest(name, &known).filter(|near| near != name);
            if let Some(near) = near.filter(|_| !html) {
                errors.push(AttributeError {
                    attribute: name.clone(),
                    message: format!(
                        "{} is not an attribute of backoff-lab and was ignored: did you mean {near}?",
                        crate::error::cut_short(name)
                    ),
                });
            }
            continue;
        }
        match settings.set_checked(name, value) {
            Ok(()) => {
                given.extend(super::settings::key(name));
                named.extend(super::settings::key(name));
            }
            Err(refusal) => {
                errors.push(AttributeError {
                    attribute: name.clone(),
                    message: refusal.notice(),
                });
                refusals.push((errors.len() - 1, refusal));
            }
        }
    }
    if let Some(refusal) = super::settings::quota_tokens_refused(&mut settings) {
        errors.push(AttributeError {
            attribute: refusal.key.unwrap_or_default().into(),
            message: refusal.notice(),
        });
        refusals.push((errors.len() - 1, refusal));
    }
    if let Some(message) = super::settings::choose_stop(&mut settings, &given) {
        errors.push(AttributeError {
            attribute: "give-up".into(),
            message,
        });
    }
    // Named as attributes beside a list (from either): told, as the attribute named.
    let formula_named: Vec<&'static str> = given
        .iter()
        .copied()
        .filter(|key| *key == "gaps" || named.contains(key))
        .collect();
    if let Some((message, first)) = super::settings::formula_beside_gaps(&settings, &formula_named)
    {
        errors.push(AttributeError {
            attribute: first.into(),
            message,
        });
    }
    // The storm's outage beside the staleness chart, which reads off `read-outage` (it read off
    // 4 h beside `outage="30m"` without a word).
    if settings.get("view") == "staleness"
        && named.contains(&"outage")
        && !given.contains(&"read-outage")
    {
        errors.push(AttributeError {
            attribute: "outage".into(),
            message: "outage is the storm's; the staleness chart reads off the outage given as \
                      read-outage"
                .into(),
        });
    }
    // An attribute the storm does not use as the others stand (`resume-rate` without `pause`,
    // which may come from `state`): an element has no field to say it beside. Inside `state`
    // it is kept without a word, as a share link keeps it (a pasted Copy link showed an error).
    errors.extend(
        super::views::inactive_notices(&settings, &named)
            .into_iter()
            .map(|(field, message)| AttributeError {
                attribute: field.into(),
                message,
            }),
    );
    let gaps_from = super::resolve::gaps_from_preset(&settings, &named);
    let resolved = super::resolve(DecodedState {
        settings,
        notices: Vec::new(),
        given,
        refused: Vec::new(),
    });
    for (at, refusal) in refusals {
        errors[at].message =
            super::resolve::used_instead(&refusal, &resolved.settings, gaps_from.as_ref());
    }
    // What completing the settings ignored (a base beside a preset's list of gaps): told as
    // the attribute that named it, or `state`.
    errors.extend(resolved.refused.iter().map(|refusal| AttributeError {
        attribute: match refusal.key.filter(|key| named.contains(key)) {
            Some(key) => key.into(),
            None => "state".into(),
        },
        message: refusal.notice(),
    }));
    ElementState {
        settings: resolved.settings,
        errors,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A base beside a preset that lists its gaps is an error of that attribute, as the CLI's
    /// `--base` beside `--preset svix` is: it drew a fixed 60 s interval without a word.
    #[test]
    fn a_base_beside_a_listed_preset_is_named() {
        let element = element_state(&attributes(&[("preset", "svix"), ("base", "1m")]));
        assert_eq!(element.settings.get("preset"), "svix");
        assert_eq!(element.errors.len(), 1, "{:?}", element.errors);
        assert_eq!(element.errors[0].attribute, "base");
        assert!(element.errors[0]
            .message
            .starts_with("base was ignored: preset svix is a list of gaps"));
        // With a give-up deadline too, the schedule is the reader's but its gaps are still
        // Svix's: the message named a `gaps` attribute nobody wrote (outside review).
        for give_up in [None, Some("2 h")] {
            let mut given = vec![("preset", "svix"), ("multiplier", "zero")];
            given.extend(give_up.map(|at| ("give-up", at)));
            let refused = element_state(&attributes(&given));
            assert_eq!(refused.errors.len(), 1, "{:?}", refused.errors);
            assert_eq!(refused.errors[0].attribute, "multiplier");
            assert!(
                refused.errors[0]
                    .message
                    .ends_with("preset svix lists its gaps and uses neither base nor multiplier"),
                "{give_up:?}: {}",
                refused.errors[0].message
            );
        }
        let linked = element_state(&attributes(&[("state", "preset=svix&base=1m")]));
        assert_eq!(linked.errors[0].attribute, "state");
    }

    /// A flag of the command line the element does not take is named as ignored (a storm's
    /// `latency` drew the default storm without a word).
    #[test]
    fn a_command_line_flag_is_named_as_ignored() {
        let element = element_state(&attributes(&[("view", "storm"), ("latency", "1s")]));
        assert_eq!(element.errors.len(), 1, "{:?}", element.errors);
        assert_eq!(element.errors[0].attribute, "latency");
        assert_eq!(
            element.errors[0].message,
            "latency is a flag of the command line that backoff-lab's element does not take, \
             and was ignored"
        );
    }

    /// A token count out of its quota's range is the attribute's error, its default used.
    #[test]
    fn a_quotas_tokens_out_of_its_range_are_named() {
        let element = element_state(&attributes(&[
            ("view", "storm"),
            ("retry-quota-tokens", "5000"),
            ("retry-quota", "grpc"),
        ]));
        assert_eq!(element.errors.len(), 1, "{:?}", element.errors);
        assert_eq!(element.errors[0].attribute, "retry-quota-tokens");
        assert!(
            element.errors[0]
                .message
                .contains("from 1 to 1000 for retry-quota grpc"),
            "{:?}",
            element.errors
        );
        assert_eq!(element.settings.get("retry-quota-tokens"), "");
    }

    fn attributes(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// A slip of an attribute's name is named with the attribute it means (it drew the
    /// defaults without a word); the page's own attributes (`id`, `class`, `style`, `data-*`,
    /// `aria-*`, a framework's) are left alone. The storm's `outage` beside the staleness chart
    /// is told that the chart reads `read-outage`.
    #[test]
    fn a_misspelt_attribute_is_named_with_the_one_it_means() {
        for (given, meant) in [
            ("attemps", "attempts"),
            ("give_up", "give-up"),
            ("giveup", "give-up"),
            ("multipler", "multiplier"),
        ] {
            let element = element_state(&attributes(&[("view", "timeline"), (given, "5")]));
            assert_eq!(element.errors.len(), 1, "{given}: {:?}", element.errors);
            assert_eq!(element.errors[0].attribute, given);
            assert!(
                element.errors[0]
                    .message
                    .ends_with(&format!("was ignored: did you mean {meant}?")),
                "{:?}",
                element.errors
            );
        }
        let page_own = [
            ("id", "a"),
            ("class", "figure"),
            ("style", "x"),
            ("data-x", "1"),
            ("aria-label", "chart"),
            ("ng-version", "17"),
            ("title", "t"),
            ("slot", "s"),
            ("lang", "en"),
            ("width", "600"),
            ("height", "300"),
        ];
        let element = element_state(&attributes(&page_own));
        assert!(element.errors.is_empty(), "{:?}", element.errors);

        let staleness = element_state(&attributes(&[("view", "staleness"), ("outage", "30m")]));
        assert_eq!(staleness.errors.len(), 1, "{:?}", staleness.errors);
        assert!(staleness.errors[0].message.contains("read-outage"));
        let both = element_state(&attributes(&[
            ("view", "staleness"),
            ("outage", "30m"),
            ("read-outage", "2h"),
        ]));
        assert!(both.errors.is_empty(), "{:?}", both.errors);
        // The read-off given inside `state` counts too.
        let in_state = element_state(&attributes(&[
            ("state", "view=staleness&read-outage=2h"),
            ("outage", "30m"),
        ]));
        assert!(in_state.errors.is_empty(), "{:?}", in_state.errors);
    }

    /// `state` takes what the page's Copy link copies, a whole address, as well as its hash:
    /// the address was read as an unknown setting and its first setting lost (outside tester).
    #[test]
    fn state_takes_a_whole_share_link() {
        let hash = "preset=svix&mode=none&view=distribution";
        let link = format!("https://docs.example.com/backoff-lab/index.html#{hash}");
        for state in [link, format!("#{hash}"), hash.to_string()] {
            let element = element_state(&attributes(&[("state", &state)]));
            assert!(element.errors.is_empty(), "{state}: {:?}", element.errors);
            assert_eq!(element.settings.get("preset"), "svix", "{state}");
        }
    }

    /// A docs author's `preset="svix" cap="3 h"` cuts Svix's gaps to 3 h, although 3 h is the
    /// page's default cap (a value equal to the default once counted as not given).
    #[test]
    fn an_attribute_at_a_default_value_is_still_given() {
        let state = element_state(&attributes(&[("preset", "svix"), ("cap", "3 h")]));
        assert!(state.errors.is_empty(), "{:?}", state.errors);
        assert_eq!(
            state.settings.get("gaps"),
            "5 s,5 min,30 min,2 h,3 h,3 h,3 h"
        );
    }

    /// README's `element.giveUp = '2 h'` on a timeline gives up at the deadline.
    #[test]
    fn a_give_up_attribute_is_the_stop_rule_unless_attempts_is_given_too() {
        let state = element_state(&attributes(&[("view", "timeline"), ("give-up", "2 h")]));
        assert!(state.errors.is_empty(), "{:?}", state.errors);
        assert_eq!(state.settings.get("stop"), "give-up");
        let both = element_state(&attributes(&[("attempts", "5"), ("give-up", "2 h")]));
        assert_eq!(both.settings.get("stop"), "attempts");
        assert_eq!(both.errors.len(), 1);
        assert_eq!(both.errors[0].attribute, "give-up");
    }

    /// As in a link: a list of gaps is the schedule, and a base beside it is named as ignored.
    #[test]
    fn a_base_beside_a_list_of_gaps_is_named_as_ignored() {
        let state = element_state(&attributes(&[("gaps", "5s,5m"), ("base", "1m")]));
        assert_eq!(state.errors.len(), 1, "{:?}", state.errors);
        assert_eq!(state.errors[0].attribute, "base");
        assert_eq!(
            state.errors[0].message,
            "base was ignored: gaps is given (clear the gaps to use base, multiplier and cap)"
        );
        assert_eq!(state.settings.get("gaps"), "5s,5m");
        // Inside `state` they are a link's, read without a word (the page's links carry them);
        // a base attribute beside a list from `state` is told.
        let linked = element_state(&attributes(&[("state", "gaps=5s,5m&base=1m")]));
        assert!(linked.errors.is_empty(), "{:?}", linked.errors);
        let mixed = element_state(&attributes(&[("state", "gaps=5s,5m"), ("cap", "1h")]));
        assert_eq!(
            mixed
                .errors
                .iter()
                .map(|e| e.attribute.as_str())
                .collect::<Vec<_>>(),
            ["cap"]
        );
    }

    #[test]
    fn an_unknown_theme_is_named_and_auto_used() {
        let long = element_state(&attributes(&[("theme", &"x".repeat(100_000))]));
        assert!(
            long.errors[0].message.len() < 200
                && long.errors[0].message.contains("(100,000 characters)"),
            "{}",
            long.errors[0].message.chars().take(200).collect::<String>()
        );
        let state = element_state(&attributes(&[("theme", "blue")]));
        assert_eq!(
            state.errors,
            [AttributeError {
                attribute: "theme".into(),
                message: "theme \"blue\" was ignored (one of auto, light, dark); using \"auto\""
                    .into(),
            }]
        );
        for fine in ["auto", "light", "dark", ""] {
            let element = element_state(&attributes(&[("theme", fine)]));
            assert!(element.errors.is_empty(), "{fine}");
            assert_eq!(
                element.settings.get("theme"),
                if fine.is_empty() { "auto" } else { fine }
            );
        }
        // A share link (an iframe's, or `state`) carries it too.
        assert_eq!(decode_hash("#theme=light").settings.get("theme"), "light");
    }

    #[test]
    fn attributes_set_what_the_share_link_sets_and_override_state() {
        let state = element_state(&attributes(&[
            ("class", "wide"),
            ("base", "1m"),
            ("state", "base=45s&view=storm&mode=none"),
            ("give-up", "2 h"),
            ("theme", "dark"),
        ]));
        assert!(state.errors.is_empty(), "{:?}", state.errors);
        assert_eq!(
            state.settings.get("base"),
            "1m",
            "the attribute wins over state"
        );
        assert_eq!(state.settings.get("view"), "storm");
        assert_eq!(state.settings.get("mode"), "none");
        assert_eq!(state.settings.get("give-up"), "2 h");
        assert_eq!(state.settings.get("multiplier"), "3", "defaults elsewhere");
    }

    #[test]
    fn a_bad_attribute_is_named_with_its_valid_range_and_the_rest_still_apply() {
        let state = element_state(&attributes(&[
            ("multiplier", "NaN"),
            ("view", "pie"),
            ("cap", "1h"),
            ("state", "colour=red"),
        ]));
        let named: Vec<&str> = state.errors.iter().map(|e| e.attribute.as_str()).collect();
        assert_eq!(named, ["state", "multiplier", "view"]);
        assert!(
            state.errors[2]
                .message
                .contains("one of timeline, distribution"),
            "{}",
            state.errors[2].message
        );
        assert_eq!(state.settings.get("cap"), "1h");
        assert_eq!(state.settings.get("view"), "timeline");
    }

    /// No preset is no value: the notice says "none", not `""`.
    #[test]
    fn an_unknown_preset_is_named_and_none_used() {
        let state = element_state(&attributes(&[("preset", "nope")]));
        assert_eq!(state.errors.len(), 1);
        assert_eq!(state.errors[0].attribute, "preset");
        let message = &state.errors[0].message;
        assert!(
            message.starts_with("preset \"nope\" was ignored (one of "),
            "{message}"
        );
        assert!(message.ends_with("); using none"), "{message}");
        assert_eq!(state.settings.get("preset"), "");
    }

    #[test]
    fn a_preset_attribute_brings_its_schedule() {
        let state = element_state(&attributes(&[("preset", "svix")]));
        assert!(state.errors.is_empty(), "{:?}", state.errors);
        assert_ne!(state.settings.get("gaps"), "", "svix is a gap list");
    }
}
