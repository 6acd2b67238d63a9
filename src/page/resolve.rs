//! Presets in the page's settings: what choosing one sets, how a short link such as
//! `#preset=svix&seed=7` is completed, and when an edit leaves the preset.

use super::settings::Refused;
use super::views::View;
use super::{DecodedState, Settings};
use crate::presets::Preset;

/// The settings that make a preset's schedule: while they match it, the preset stays chosen.
const SCHEDULE_KEYS: [&str; 7] = [
    "base",
    "multiplier",
    "cap",
    "gaps",
    "then-every",
    "stop",
    "attempts",
];

/// Seconds as the article writes them (`5 min`), or else in units to the digit (`58 min
/// 36.36 s`), when that reads back exactly; plain seconds (`0.2 s`) otherwise.
///
/// # Example
/// ```
/// use backoff_lab::page::duration_text;
/// assert_eq!(duration_text(300.0), "5 min");
/// assert_eq!(duration_text(3_516.36), "58 min 36.36 s");
/// ```
pub fn duration_text(seconds: f64) -> String {
    // As a reader writes it ("3 h"), or else to the digit in units ("58 min 36.36 s": a field
    // read "3516.36 s" beside a suggestion saying the former, outside review), or else seconds.
    [
        crate::format_duration(seconds),
        crate::format_exact(seconds),
    ]
    .into_iter()
    .find(|text| crate::parse_duration("duration", text).is_ok_and(|back| back == seconds))
    .unwrap_or_else(|| format!("{seconds} s"))
}

/// The settings a preset sets: its schedule and its jitter. A provider's schedule has its own
/// end, so the optional deadline sizing starts empty (it would size a few-second SDK schedule
/// to thousands of attempts for a 24 h deadline).
pub fn preset_settings(preset: &Preset) -> Vec<(&'static str, String)> {
    let policy = &preset.policy;
    let (gaps, tail) = match policy.explicit_gaps() {
        Some((gaps, tail)) => (
            gaps.iter()
                .map(|&g| duration_text(g))
                .collect::<Vec<_>>()
                .join(","),
            tail.map(duration_text).unwrap_or_default(),
        ),
        None => (String::new(), String::new()),
    };
    let mut values = vec![
        ("base", duration_text(policy.base_s())),
        ("multiplier", format!("{}", policy.multiplier())),
        ("cap", duration_text(policy.cap_s())),
        ("gaps", gaps),
        ("then-every", tail),
        ("stop", "attempts".to_string()),
        ("attempts", policy.attempts().to_string()),
        ("deadline", String::new()),
        ("mode", preset.jitter.name().to_string()),
    ];
    if let crate::jitter::Jitter::Proportional(factor) = preset.jitter {
        values.push(("factor", format!("{}", factor.get())));
    }
    values
}

/// `preset` with its listed gaps cut to the settings' cap, as the CLI's `--cap` cuts them; `None`
/// for a formula preset or a cap that does not read.
fn capped_preset(settings: &Settings, preset: &Preset) -> Option<Preset> {
    let cap_s = crate::parse_duration("cap", settings.get("cap")).ok()?;
    preset.policy.explicit_gaps()?;
    let policy = preset.policy.capped(cap_s).ok()?;
    Some(Preset { policy, ..*preset })
}

/// Your own policy on the formula: no preset, no listed gaps.
fn to_formula(settings: &mut Settings) {
    settings.set("preset", "");
    settings.set("gaps", "");
    settings.set("then-every", "");
}

/// A base moved above the cap takes the cap up with it, and a cap moved under the base takes
/// the base down: a slider never reaches the state the cap's range refuses ("at least the
/// base"). Text that does not read as a duration (being typed), and a value outside the
/// field's own range (a cap of 0), are left to the usual refusal: moving them into the other
/// field would spread the error and lose the value it held.
fn keep_base_within_cap(settings: &mut Settings, moved: &str) {
    let read = |key| crate::parse_duration("duration", settings.get(key)).ok();
    let (Some(base), Some(cap)) = (read("base"), read("cap")) else {
        return;
    };
    let moved_s = if moved == "base" { base } else { cap };
    if base > cap && crate::policy::check_duration("duration", moved_s).is_ok() {
        let other = if moved == "base" { "cap" } else { "base" };
        let value = settings.get(moved).to_string();
        settings.set(other, value);
    }
}

/// A preset that lists its gaps (`svix`) has no base or multiplier, as the CLI's
/// `--preset svix --base 1m` is refused: named beside it without `gaps`, they are taken out of
/// `given` (the preset's stay), and those of a value of their own are told in one notice. Each
/// had left the preset for a formula from the preset's own keys (`preset="svix" base="1m"` drew
/// a fixed 60 s interval without a word). The values the page itself writes beside such a
/// preset (its base and multiplier, or those of its gaps cut to the link's cap) are no notice.
/// A formula preset's keys are its own to change.
fn formula_beside_listed_preset(
    linked: &Settings,
    preset: &Preset,
    given: &mut Vec<&'static str>,
) -> Option<Refused> {
    preset.policy.explicit_gaps()?;
    if given.contains(&"gaps") {
        return None;
    }
    let formula: Vec<&'static str> = ["base", "multiplier"]
        .into_iter()
        .filter(|key| given.contains(key))
        .collect();
    given.retain(|key| !formula.contains(key));
    let written = [Some(preset.clone()), capped_preset(linked, preset)];
    let the_pages_own = |key: &'static str| {
        written.iter().flatten().any(|preset| {
            preset_settings(preset)
                .iter()
                .any(|(k, v)| *k == key && same_value(key, linked.get(key), v))
        })
    };
    let ignored: Vec<&'static str> = formula
        .into_iter()
        .filter(|key| !the_pages_own(key))
        .collect();
    let (keys, verb) = match ignored.as_slice() {
        [] => return None,
        [one] => (one.to_string(), "was"),
        _ => ("base and multiplier".to_string(), "were"),
    };
    Some(Refused {
        // The first named: an element's error is that attribute's.
        key: ignored.first().copied(),
        refusal: format!(
            "{keys} {verb} ignored: preset {} is a list of gaps with no base or multiplier (cap \
             cuts its gaps, gaps replaces them; without a preset the formula applies)",
            preset.name
        ),
        using: None,
    })
}

/// Whether `a` and `b` are the same value of `key` however written (`5s`, `5 s`; `1.60`, `1.6`):
/// a link naming a preset's own value in its own spelling keeps the preset (`preset=grpc&base=1s`
/// had left it). Other keys (`gaps`, `attempts`) compare as written.
fn same_value(key: &'static str, a: &str, b: &str) -> bool {
    let read = |text: &str| match key {
        "multiplier" => text.trim().parse::<f64>().ok(),
        "base" | "cap" => crate::parse_duration(key, text).ok(),
        _ => None,
    };
    a == b || read(a).is_some_and(|a| read(b) == Some(a))
}

/// The chosen preset, when it lists its gaps.
fn listed_preset(settings: &Settings) -> Option<Preset> {
    crate::presets::preset(settings.get("preset"))
        .ok()
        .filter(|preset| preset.policy.explicit_gaps().is_some())
}

/// The preset `settings` name, before they are completed, when it lists its gaps and `named`
/// (the keys a link or an element gave) does not: the gaps the completed settings use are its
/// own, even where another setting made the schedule the reader's (`give-up` beside Svix).
pub(super) fn gaps_from_preset(settings: &Settings, named: &[&str]) -> Option<Preset> {
    listed_preset(settings).filter(|_| !named.contains(&"gaps"))
}

/// A cap over a preset that lists its gaps cuts them: the schedule's settings but for its stop
/// rule become the cut preset's; whether it did.
fn cut_gaps(settings: &mut Settings, preset: &Preset) -> bool {
    let Some(cut) = capped_preset(settings, preset) else {
        return false;
    };
    for (key, value) in preset_settings(&cut) {
        if ["base", "multiplier", "gaps", "then-every", "cap"].contains(&key) {
            settings.set(key, value);
        }
    }
    true
}

/// Whether the settings hold `preset`'s schedule, as listed or with its gaps cut to the cap.
fn matches_schedule(settings: &Settings, preset: &Preset) -> bool {
    let holds = |preset: &Preset| {
        let wanted = preset_settings(preset);
        SCHEDULE_KEYS.iter().all(|key| {
            wanted
                .iter()
                .find(|(k, _)| k == key)
                .is_some_and(|(_, v)| same_value(key, settings.get(key), v))
        })
    };
    holds(preset) || capped_preset(settings, preset).is_some_and(|cut| holds(&cut))
}

fn apply(settings: &mut Settings, values: &[(&'static str, String)]) {
    for (key, value) in values {
        settings.set(key, value.as_str());
    }
}

/// A decoded hash as the page shows it. A link the page wrote already holds the preset's
/// schedule and is used as it is; a short link gets the preset's schedule and jitter, then
/// every setting it names. A link that changes the preset's schedule is the reader's own policy
/// (a new base or multiplier means the formula rather than the preset's listed gaps; a cap
/// alone cuts them, as `--cap` does in the CLI). The
/// section follows the view (an older link named the section alone).
pub fn resolve(decoded: DecodedState) -> DecodedState {
    let DecodedState {
        mut settings,
        mut notices,
        given: named,
        mut refused,
    } = decoded;
    let gaps_from = gaps_from_preset(&settings, &named);
    if let Ok(preset) = crate::presets::preset(settings.get("preset")) {
        if !matches_schedule(&settings, &preset) {
            let linked = settings.clone();
            // Named in the link (at a default value too), or changed from the default.
            let mut given: Vec<&'static str> = linked
                .iter()
                .filter(|(key, _)| {
                    *key != "preset" && (named.contains(key) || !linked.is_default(key))
                })
                .map(|(key, _)| key)
                .collect();
            if let Some(ignored) = formula_beside_listed_preset(&linked, &preset, &mut given) {
                notices.push(ignored.notice());
                refused.push(ignored);
            }
            apply(&mut settings, &preset_settings(&preset));
            for key in &given {
                settings.set(key, linked.get(key));
            }
            if !matches_schedule(&settings, &preset) {
                settings.set("preset", "");
                let formula = ["base", "multiplier", "cap"]
                    .iter()
                    .any(|k| given.contains(k));
                let only_cap = !["base", "multiplier", "gaps"]
                    .iter()
                    .any(|k| given.contains(k));
                let cut = only_cap && cut_gaps(&mut settings, &preset);
                if cut && matches_schedule(&settings, &preset) {
                    // The preset cut to the cap, nothing else changed: still the preset.
                    settings.set("preset", preset.name);
                } else if formula && !given.contains(&"gaps") && !cut {
                    settings.set("gaps", "");
                    settings.set("then-every", "");
                } else if given.contains(&"then-every") {
                    // A tail the link gives is its own, as `--then-every` is in the CLI.
                    settings.set("then-every", linked.get("then-every"));
                }
            }
        }
    }
    // An older link named the section alone: its view follows. A view named beside it (the
    // element's `view="timeline" section="storm"`) is the view.
    let section = settings.get("section").to_string();
    if settings.get("view") == "timeline" && section != "schedule" && !named.contains(&"view") {
        if let Some(view) = View::of_section(&section) {
            settings.set("view", view.name());
        }
    }
    let section = View::from_name(settings.get("view")).map_or("schedule", View::section);
    settings.set("section", section);
    // What a refused value's notice says is used instead, as completed.
    for refusal in &refused {
        let now = used_instead(refusal, &settings, gaps_from.as_ref());
        let said = refusal.notice();
        if let Some(notice) = notices.iter_mut().find(|notice| **notice == said) {
            *notice = now;
        }
    }
    DecodedState {
        settings,
        notices,
        given: named,
        refused,
    }
}

/// The notice of `refused` with what `settings` (completed: a preset's values filled in) use
/// instead: the preset's value where it set one ("multiplier \"zero\" was ignored …; using
/// \"3\"" was said beside gRPC's preset, which uses 1.6), and beside a preset that lists its
/// gaps (`settings`' own, or `gaps_from`: the one named before completing, whose gaps they
/// use: [`gaps_from_preset`]), that it uses neither base nor multiplier.
pub(super) fn used_instead(
    refused: &Refused,
    settings: &Settings,
    gaps_from: Option<&Preset>,
) -> String {
    let (Some(key), Some(_)) = (refused.key, &refused.using) else {
        return refused.notice();
    };
    let listed = listed_preset(settings).or_else(|| gaps_from.cloned());
    if let Some(preset) = listed.filter(|_| ["base", "multiplier"].contains(&key)) {
        return format!(
            "{}; preset {} lists its gaps and uses neither base nor multiplier",
            refused.refusal, preset.name
        );
    }
    // A value nothing uses as the settings stand is not said to be replaced by one.
    let unused = match key {
        "base" | "multiplier" if !settings.get("gaps").trim().is_empty() => {
            Some("gaps is given, which uses neither base nor multiplier")
        }
        "attempts" if settings.get("stop") == "give-up" => {
            Some("the give-up deadline is the stop, not a count")
        }
        "give-up" if settings.get("stop") == "attempts" => {
            Some("the attempt count is the stop, not a deadline")
        }
        _ => None,
    };
    if let Some(unused) = unused {
        return format!("{}; {unused}", refused.refusal);
    }
    match settings.is_default(key) {
        true => refused.notice(),
        false => format!(
            "{}; using {}",
            refused.refusal,
            crate::error::quoted(settings.get(key))
        ),
    }
}

/// The settings after the reader changed `control`: choosing a preset sets its schedule and
/// jitter; moving base, multiplier or cap (or pressing "drop-gaps") goes back to the formula
/// and leaves the preset (base and cap moved with their sliders never cross; `"cap typed"`, a
/// value typed into the field, is left for the cap's own refusal); a new stop rule or count leaves
/// the preset but keeps its gaps; "apply-suggestion" sets the schedule the staleness tolerance and
/// allowed lag suggest.
pub fn edited(mut settings: Settings, control: &str) -> Settings {
    // A value typed into a field (`"cap typed"`) is the user's own: a cap typed under the base
    // is refused next to its field rather than lowering the base (an outside tester lost a
    // base that way, silently). A slider's move keeps the two from crossing.
    let (control, typed) = match control.strip_suffix(" typed") {
        Some(control) => (control, true),
        None => (control, false),
    };
    match control {
        "preset" => {
            if let Ok(preset) = crate::presets::preset(settings.get("preset")) {
                apply(&mut settings, &preset_settings(&preset));
            }
        }
        // The cap cuts a listed preset's own gaps (moved back up, they come back), as a link's
        // or the CLI's cap does; a cap that does not read (being typed) leaves them as they are.
        "cap" => match listed_preset(&settings) {
            Some(preset) => {
                cut_gaps(&mut settings, &preset);
            }
            None => {
                to_formula(&mut settings);
                if !typed {
                    keep_base_within_cap(&mut settings, "cap");
                }
            }
        },
        "base" => {
            to_formula(&mut settings);
            if !typed {
                keep_base_within_cap(&mut settings, "base");
            }
        }
        "multiplier" | "drop-gaps" => to_formula(&mut settings),
        "attempts" | "give-up" | "stop" => settings.set("preset", ""),
        "apply-suggestion" => {
            let params = super::views::staleness_params(&settings);
            let suggestion = params.staleness_suggestion().ok().flatten();
            if let Some(suggestion) = suggestion {
                super::apply_suggestion(&mut settings, &suggestion);
            }
        }
        _ => {}
    }
    let section = View::from_name(settings.get("view")).map_or("schedule", View::section);
    settings.set("section", section);
    settings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::decode_hash;

    fn resolved(hash: &str) -> Settings {
        resolve(decode_hash(hash)).settings
    }

    /// The base slider moved past the 3 h cap raises the cap with it, and the cap slider moved
    /// under the base lowers the base: the schedule stays one the core accepts. A base under
    /// the cap, or text being typed, changes nothing else.
    #[test]
    fn base_and_cap_sliders_never_cross() {
        let edit = |hash: &str, control: &str| {
            let settings = edited(resolved(hash), control);
            let policy = crate::page::views::policy_params(&settings).policy();
            assert!(policy.is_ok(), "{hash} {control}: {policy:?}");
            (
                settings.get("base").to_string(),
                settings.get("cap").to_string(),
            )
        };
        assert_eq!(edit("#base=10h", "base"), ("10h".into(), "10h".into()));
        assert_eq!(edit("#cap=10s", "cap"), ("10s".into(), "10s".into()));
        // Typed, a cap under the base is refused where it was typed and the base kept.
        let typed = edited(resolved("#cap=10s"), "cap typed");
        assert_eq!((typed.get("base"), typed.get("cap")), ("30 s", "10s"));
        let refusal = crate::page::views::policy_params(&typed)
            .policy()
            .unwrap_err();
        assert!(
            refusal
                .to_string()
                .starts_with("cap must be a duration of at least the base (30 s)"),
            "{refusal}"
        );
        let typed = edited(resolved("#base=10h"), "base typed");
        assert_eq!((typed.get("base"), typed.get("cap")), ("10h", "3 h"));
        assert_eq!(edit("#base=1h", "base"), ("1h".into(), "3 h".into()));
        let typing = edited(resolved("#base=10x"), "base");
        assert_eq!(typing.get("cap"), "3 h");
        // Out of range, a value is refused where it was typed and the other field keeps its
        // own (a cap of 0 set the base to 0; a base of 3170 years the cap).
        for (control, typed, base, cap) in [
            ("cap", "0", "30 s", "0"),
            ("base", "99999999999", "99999999999", "3 h"),
        ] {
            let mut settings = resolved("");
            settings.set(control, typed);
            let settings = edited(settings, control);
            assert_eq!(
                (settings.get("base"), settings.get("cap")),
                (base, cap),
                "{control} {typed}"
            );
        }
    }

    #[test]
    fn a_short_preset_link_gets_the_presets_schedule_then_what_it_names() {
        let svix = resolved("#preset=svix&seed=7");
        assert_eq!(svix.get("preset"), "svix");
        assert_eq!(svix.get("gaps"), "5 s,5 min,30 min,2 h,5 h,10 h,10 h");
        assert_eq!(svix.get("attempts"), "8");
        assert_eq!(svix.get("mode"), "none");
        assert_eq!(svix.get("seed"), "7");
        // A link the page wrote round-trips as it is.
        let written = crate::page::encode_hash(&svix);
        assert_eq!(resolved(&written), svix);
    }

    #[test]
    fn a_link_that_changes_the_schedule_is_the_readers_own_policy() {
        let own = resolved("#preset=article&base=1m");
        assert_eq!(own.get("preset"), "");
        assert_eq!(own.get("base"), "1m");
        assert_eq!(own.get("multiplier"), "3");
        let listed = resolved("#preset=svix&attempts=5");
        assert_eq!(listed.get("preset"), "");
        assert_eq!(
            listed.get("gaps"),
            "5 s,5 min,30 min,2 h,5 h,10 h,10 h",
            "keeps the gaps"
        );
        // A base or multiplier of its own beside a list of gaps is ignored with a notice, as the
        // CLI refuses it: it had meant a formula from Svix's own keys, a fixed 10 s interval.
        for (hash, keys) in [
            ("#preset=svix&base=10s", "base was"),
            (
                "#preset=svix&multiplier=2&base=10s",
                "base and multiplier were",
            ),
            ("#preset=svix&multiplier=2&cap=1h", "multiplier was"),
        ] {
            let state = resolve(decode_hash(hash));
            assert_eq!(state.settings.get("preset"), "svix", "{hash}");
            assert!(
                state.settings.get("gaps").starts_with("5 s,5 min,30 min"),
                "{hash}"
            );
            assert_eq!(
                state.notices,
                [format!(
                    "{keys} ignored: preset svix is a list of gaps with no base or multiplier \
                     (cap cuts its gaps, gaps replaces them; without a preset the formula applies)"
                )],
                "{hash}"
            );
        }
        // A refused value is said to be replaced by what a preset uses, not the page's default:
        // gRPC's multiplier is 1.6, its base 1 s.
        let grpc = resolve(decode_hash("#preset=grpc&base=x&multiplier=zero"));
        assert_eq!(grpc.settings.get("multiplier"), "1.6");
        assert_eq!(
            grpc.notices,
            [
                "base \"x\" was ignored (a duration from 1 µs to 365 days, such \
                 as 30s, 4m30s, 4.5min, 3h or 1d); using \"1 s\"",
                "multiplier \"zero\" was ignored (a number from 1 to 1000); using \"1.6\""
            ]
        );
        // A value nothing uses as the settings stand is not said to be replaced by one.
        for (hash, said) in [
            // The gaps are Svix's, cut to the give-up deadline: the link named no gaps.
            (
                "#preset=svix&multiplier=zero&give-up=2h",
                "; preset svix lists its gaps and uses neither base nor multiplier",
            ),
            (
                "#gaps=1s,2s&base=zz&attempts=3",
                "; gaps is given, which uses neither base nor multiplier",
            ),
            (
                "#preset=svix&attempts=x&give-up=30h",
                "; the give-up deadline is the stop, not a count",
            ),
            (
                "#give-up=x&attempts=5",
                "; the attempt count is the stop, not a deadline",
            ),
        ] {
            let state = resolve(decode_hash(hash));
            assert!(
                state.notices[0].ends_with(said),
                "{hash}: {:?}",
                state.notices
            );
        }
        // A formula preset's own value in another spelling keeps the preset.
        for hash in [
            "#preset=grpc&base=1s",
            "#preset=grpc&multiplier=1.60",
            "#preset=article&base=30s",
        ] {
            let state = resolve(decode_hash(hash));
            assert_ne!(state.settings.get("preset"), "", "{hash}");
            assert!(state.notices.is_empty(), "{hash}: {:?}", state.notices);
        }
        // A refused multiplier is not said to be replaced by 3, which Svix does not use.
        let refused = resolve(decode_hash("#preset=svix&multiplier=zero"));
        assert_eq!(
            refused.notices,
            [
                "multiplier \"zero\" was ignored (a number from 1 to 1000); preset svix lists its \
              gaps and uses neither base nor multiplier"
            ]
        );
        // The preset's own base beside it, and a formula preset's keys, are no notice.
        let article = resolve(decode_hash("#preset=article&base=1m"));
        assert!(article.notices.is_empty(), "{:?}", article.notices);
        // The preset's own base and multiplier, and those of its gaps cut to the link's cap, are
        // what the page writes beside it: no notice, and still the preset's gaps (they had made
        // a fixed 5 s interval of Svix).
        for hash in [
            "#preset=svix&base=5s&cap=1h",
            "#preset=svix&base=5%20s&multiplier=1&cap=1%20h",
            "#preset=svix&cap=2s&base=2s",
        ] {
            let state = resolve(decode_hash(hash));
            assert!(state.notices.is_empty(), "{hash}: {:?}", state.notices);
            assert_eq!(state.settings.get("preset"), "svix", "{hash}");
            assert!(state.settings.get("gaps").contains(','), "{hash}");
        }
        // A value of its own beside the preset's is told, and the gaps stay.
        let mixed = resolve(decode_hash("#preset=svix&base=5s&multiplier=3"));
        assert_eq!(mixed.settings.get("preset"), "svix");
        assert!(mixed.settings.get("gaps").starts_with("5 s,5 min"));
        assert!(mixed.notices[0].starts_with("multiplier was ignored"));
        let tail = resolved("#preset=svix&cap=1h&then-every=2h&attempts=11");
        assert_eq!(
            (tail.get("gaps"), tail.get("then-every")),
            ("5 s,5 min,30 min,1 h,1 h,1 h,1 h", "2h"),
            "the link's own tail stays, as --then-every does"
        );
        let default_cap = resolved("#preset=svix&cap=3 h");
        assert_eq!(
            default_cap.get("gaps"),
            "5 s,5 min,30 min,2 h,3 h,3 h,3 h",
            "a cap the link names is cut to even when it is the page's default"
        );
        let cut = resolved("#preset=svix&cap=1h");
        assert_eq!(cut.get("preset"), "svix", "still Svix, cut to the cap");
        assert_eq!(
            (cut.get("gaps"), cut.get("cap")),
            ("5 s,5 min,30 min,1 h,1 h,1 h,1 h", "1 h"),
            "a cap alone cuts the listed gaps"
        );
        // The page's own link of that state reads back the same.
        assert_eq!(resolved(&crate::page::encode_hash(&cut)), cut);
    }

    /// Moving the cap with Svix chosen cuts Svix's gaps, as a link's or the CLI's cap does (it
    /// turned Svix into a 5 s × 1 formula that gave up after 35 s); moved back up, the gaps
    /// come back, and the preset stays chosen throughout.
    #[test]
    fn the_cap_cuts_a_listed_presets_gaps() {
        let mut svix = resolved("#preset=svix");
        svix.set("cap", "3 h");
        let cut = edited(svix.clone(), "cap");
        assert_eq!(cut.get("preset"), "svix");
        assert_eq!(cut.get("gaps"), "5 s,5 min,30 min,2 h,3 h,3 h,3 h");
        let mut back = cut.clone();
        back.set("cap", "20 h");
        let back = edited(back, "cap");
        assert_eq!(back.get("gaps"), "5 s,5 min,30 min,2 h,5 h,10 h,10 h");
        assert_eq!(
            back.get("cap"),
            "10 h",
            "a cap past the longest gap reads as it"
        );
        // A cap being typed ("3 x") leaves Svix as it was; its field shows the error.
        let mut typing = cut.clone();
        typing.set("cap", "3 x");
        let typing = edited(typing, "cap");
        assert_eq!(
            (typing.get("preset"), typing.get("gaps")),
            ("svix", "5 s,5 min,30 min,2 h,3 h,3 h,3 h")
        );
        // A formula preset goes on as the formula with the new cap.
        let mut article = resolved("#preset=article");
        article.set("cap", "1 h");
        let formula = edited(article, "cap");
        assert_eq!((formula.get("preset"), formula.get("gaps")), ("", ""));
    }

    #[test]
    fn edits_leave_the_preset_as_the_page_did() {
        let svix = resolved("#preset=svix");
        let moved = edited(svix.clone(), "multiplier");
        assert_eq!((moved.get("preset"), moved.get("gaps")), ("", ""));
        let counted = edited(svix.clone(), "attempts");
        assert_eq!(counted.get("preset"), "");
        assert_ne!(counted.get("gaps"), "");
        let mut chosen = Settings::default();
        chosen.set("preset", "grpc");
        let chosen = edited(chosen, "preset");
        assert_eq!(
            (chosen.get("mode"), chosen.get("factor")),
            ("proportional", "0.2")
        );
        assert_eq!(chosen.get("multiplier"), "1.6");
        assert_eq!(chosen.get("deadline"), "");
    }

    #[test]
    fn the_section_follows_the_view() {
        assert_eq!(resolved("#view=storm").get("section"), "storm");
        assert_eq!(resolved("#section=jitter").get("view"), "distribution");
        assert_eq!(resolved("#section=jitter").get("section"), "jitter");
        let both = resolved("#view=timeline&section=storm");
        assert_eq!(
            (both.get("view"), both.get("section")),
            ("timeline", "schedule")
        );
    }
}
