//! The page's charts ("views") and the parameters each one is drawn from, derived from the
//! settings: the policy, its jitter, and the storm's scenarios (yours, and the comparisons).

use serde::{Deserialize, Serialize};

use super::Settings;
use crate::{DurationInput, Error, NumberInput, Params};

/// One chart of the page.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum View {
    /// The retry timeline (section "schedule").
    Timeline,
    /// The give-up-time distribution of one jittered delivery (section "jitter").
    Distribution,
    /// A herd of deliveries retrying together (section "jitter").
    Herd,
    /// The retry storm after an outage (section "storm").
    Storm,
    /// How late and how old an outage's events arrive (section "staleness").
    Staleness,
    /// Which outages the destination survives at which headroom (section "survival").
    Survival,
}

impl View {
    /// Every view, in the page's order.
    pub const ALL: [View; 6] = [
        View::Timeline,
        View::Distribution,
        View::Herd,
        View::Storm,
        View::Staleness,
        View::Survival,
    ];

    /// The view named `name`.
    pub fn from_name(name: &str) -> Result<View, Error> {
        View::ALL
            .into_iter()
            .find(|view| view.name() == name)
            .ok_or_else(|| {
                Error::out_of_range(
                    "view",
                    format!("{name:?}"),
                    "one of timeline, distribution, herd, storm, staleness, survival",
                )
            })
    }

    /// Its name, as the hash's `view` holds it.
    pub fn name(self) -> &'static str {
        match self {
            View::Timeline => "timeline",
            View::Distribution => "distribution",
            View::Herd => "herd",
            View::Storm => "storm",
            View::Staleness => "staleness",
            View::Survival => "survival",
        }
    }

    /// The page section it belongs to.
    pub fn section(self) -> &'static str {
        match self {
            View::Timeline => "schedule",
            View::Distribution | View::Herd => "jitter",
            View::Storm => "storm",
            View::Staleness => "staleness",
            View::Survival => "survival",
        }
    }

    /// The section's first view.
    pub fn of_section(section: &str) -> Option<View> {
        match section {
            "schedule" => Some(View::Timeline),
            "jitter" => Some(View::Distribution),
            "storm" => Some(View::Storm),
            "staleness" => Some(View::Staleness),
            "survival" => Some(View::Survival),
            _ => None,
        }
    }

    /// The iframe's height in the embed snippet, pixels: about what the embed page asks for in
    /// a 700 px column (the chart at half the frame's width, then its caption), so that a frame
    /// without the host script that sizes it (`embed-host.js`) cuts no caption short; a storm's
    /// caption, one paragraph a series, is the longest (it was cut mid-line at 360 px).
    pub fn embed_height(self) -> u32 {
        match self {
            View::Timeline | View::Distribution | View::Herd => 460,
            View::Staleness | View::Survival => 580,
            View::Storm => 640,
        }
    }

    /// What it shows, in words (titles, the embed snippet's title).
    pub fn title(self) -> &'static str {
        match self {
            View::Timeline => "retry timeline",
            View::Distribution => "give-up time of one jittered delivery",
            View::Herd => "a herd of deliveries retrying together",
            View::Storm => "retry storm after an outage",
            View::Staleness => "how late and how old an outage's events arrive",
            View::Survival => "which outages a destination survives (survival map)",
        }
    }
}

/// A number as a text field holds it: empty or unreadable text is NaN, which the core refuses
/// with the field's range.
fn number(text: &str) -> f64 {
    text.trim().parse().unwrap_or(f64::NAN)
}

/// The page's "sampled deliveries" setting as a number (NaN when it is not one, for the core to
/// refuse).
pub(super) fn sampled_deliveries(settings: &Settings) -> f64 {
    number(settings.get("samples"))
}

fn text(settings: &Settings, key: &str) -> String {
    settings.get(key).trim().to_string()
}

/// "5 s,5 min" (as the hash keeps it) or "5 s, 5 min" (as the page shows it): the gaps.
pub fn gap_list(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|gap| !gap.is_empty())
        .map(str::to_string)
        .collect()
}

/// The policy: the formula, or the listed gaps (and their tail) alone when there are any, as
/// [`Params::check_read_by`] reads one policy; attempts or a give-up time.
pub fn policy_params(settings: &Settings) -> Params {
    let gaps = gap_list(settings.get("gaps"));
    let mut params = if gaps.is_empty() {
        Params {
            base: Some(DurationInput::Text(text(settings, "base"))),
            multiplier: Some(number(settings.get("multiplier"))),
            cap: Some(DurationInput::Text(text(settings, "cap"))),
            attempts: None,
            ..Params::default()
        }
    } else {
        let tail = text(settings, "then-every");
        Params {
            base: None,
            multiplier: None,
            cap: None,
            attempts: None,
            gaps: Some(gaps.into_iter().map(DurationInput::Text).collect()),
            then_every: (!tail.is_empty()).then_some(DurationInput::Text(tail)),
            ..Params::default()
        }
    };
    if settings.get("stop") == "give-up" {
        params.give_up = Some(DurationInput::Text(text(settings, "give-up")));
    } else {
        params.attempts = Some(number(settings.get("attempts")));
    }
    params
}

/// The factor of proportional jitter, when that is the mode (the page keeps its slider's value
/// under any mode; the core reads it only with proportional jitter, and refuses it otherwise).
fn factor(settings: &Settings) -> Option<f64> {
    (settings.get("mode") == "proportional").then(|| number(settings.get("factor")))
}

/// The policy with its jitter (mode and factor) and seed: what every sampled view draws.
fn seeded_policy_params(settings: &Settings) -> Params {
    Params {
        mode: Some(text(settings, "mode")),
        factor: factor(settings),
        seed: Some(number(settings.get("seed"))),
        ..policy_params(settings)
    }
}

/// The policy with its jitter, seed and sample sizes; the deadline-safe sizing when a deadline
/// is set (listed gaps leave it out: it adds attempts to base × multiplier).
pub fn jitter_params(settings: &Settings) -> Params {
    let mut params = Params {
        samples: Some(number(settings.get("samples"))),
        deliveries: Some(number(settings.get("deliveries"))),
        ..seeded_policy_params(settings)
    };
    let deadline = text(settings, "deadline");
    if !deadline.is_empty() && params.gaps.is_none() {
        params.deadline = Some(DurationInput::Text(deadline));
    }
    params
}

/// The policy with its jitter and seed, and the staleness tolerance and allowed lag.
pub fn staleness_params(settings: &Settings) -> Params {
    let optional = |key: &str| Some(text(settings, key)).filter(|t| !t.is_empty());
    Params {
        tolerance: optional("tolerance").map(DurationInput::Text),
        // Left out while inactive ([`inactive_fields`]): the page's default lag (1 h) refused
        // the chart with "max-lag must be given only with a tolerance", a lag never set.
        max_lag: optional("max-lag")
            .filter(|_| max_lag_applies(settings))
            .map(DurationInput::Text),
        // The page's sample count, up to what a staleness report draws at most.
        samples: Some(sampled_deliveries(settings).min(crate::staleness::MAX_SAMPLES as f64)),
        ..seeded_policy_params(settings)
    }
}

/// Your policy in the storm, with the bounds the settings set. A field that does not apply as
/// the others stand ([`inactive_fields`]: a resume rate without a pause) is left out, as the
/// page greys it out: the CLI's refusal of it would have been a trap in a form, whose fields
/// keep what was typed.
pub(super) fn storm_params(settings: &Settings) -> Params {
    storm_params_without(settings, &inactive_fields(settings))
}

/// The storm's fields the page greys out and leaves out: those that apply only with another
/// setting that is not set ([`Params::unused_storm_fields`]), named by their keys.
pub fn inactive_fields(settings: &Settings) -> Vec<&'static str> {
    inactive_with_needs(settings)
        .into_iter()
        .map(|(field, _)| field)
        .collect()
}

/// Each of the [`inactive_fields`] with the setting it needs.
fn inactive_with_needs(settings: &Settings) -> Vec<(&'static str, &'static str)> {
    let mut unused = storm_params_without(settings, &[]).unused_storm_fields();
    // The page's own fields alone (it has no `interval` or `batch-at`).
    unused.retain(|(field, _)| Settings::is_key(field));
    if !max_lag_applies(settings) {
        unused.push(("max-lag", "tolerance"));
    }
    unused
}

/// Whether the allowed lag applies: it serves the suggestion, which needs a tolerance. Without
/// one it did nothing without a word (the CLI refuses `--max-lag` alone); the page notes it
/// ([`inactive_fields`]) and the staleness parameters leave it out.
fn max_lag_applies(settings: &Settings) -> bool {
    !settings.get("tolerance").trim().is_empty()
}

/// A control that does nothing as the other settings stand, and the note the page shows for it.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InactiveControl {
    /// The setting's key (`resume-rate`), or one of its options as `key=value`
    /// (`mode=decorrelated`).
    pub control: String,
    /// Why, in words: "not used now: it applies only with pause".
    pub note: String,
}

/// The controls the page marks as doing nothing now: the [`inactive_fields`] (a field keeps
/// what was typed, and shows its note where its error would be), and `mode=decorrelated` (that
/// option of `mode`, which the page greys out) beside a list of gaps, which decorrelated
/// jitter does not apply to ([`crate::jitter::Jitter::applies_to`]; chosen, it is refused,
/// naming the mode).
pub fn inactive_controls(settings: &Settings) -> Vec<InactiveControl> {
    let mut inactive: Vec<InactiveControl> = inactive_with_needs(settings)
        .into_iter()
        .map(|(field, needs)| InactiveControl {
            control: field.into(),
            note: format!(
                "not used now: it applies only with {}",
                in_page_words(needs)
            ),
        })
        .collect();
    let listed = policy_params(settings)
        .policy()
        .is_ok_and(|policy| !crate::jitter::Jitter::Decorrelated.applies_to(&policy));
    if listed {
        inactive.push(InactiveControl {
            control: "mode=decorrelated".into(),
            note: "not offered: decorrelated jitter grows from a base, which a list of gaps has \
                   not"
            .into(),
        });
    }
    if let Some(preset) = drawn_as_preset(settings) {
        inactive.push(InactiveControl {
            control: format!("compare={}", preset.name),
            note: format!(
                "not offered: your policy is {} as it stands, so it would be compared with \
                 itself",
                preset.title
            ),
        });
    }
    inactive
}

/// The preset chosen when your policy is exactly its schedule with its jitter: comparing with
/// it draws your policy twice (a newcomer was offered the preset just chosen under "Compare
/// with"). A preset whose gaps the cap cuts, or with another jitter, is still worth comparing.
/// A comparison already chosen (a link may name it) stays offered, as it is drawn.
fn drawn_as_preset(settings: &Settings) -> Option<crate::presets::Preset> {
    let preset = crate::presets::preset(settings.get("preset")).ok()?;
    if settings.get("compare") == preset.name {
        return None;
    }
    let params = seeded_policy_params(settings);
    let same = params.policy().ok()? == preset.policy && params.jitter().ok()? == preset.jitter;
    same.then_some(preset)
}

/// The setting a field needs, as the page's controls name it (the CLI's and the links' keys,
/// `retry-quota aws or grpc`, read as jargon beside the page's labels).
fn in_page_words(needs: &str) -> &str {
    match needs {
        "budget" => "a retry budget",
        "tolerance" => "a tolerance (Worth delivering for)",
        "pause" => "Pause the endpoint",
        "retry-quota aws or grpc" => "a retry quota",
        "breaker-share" => "the breaker's failure share",
        "breaker-failures or breaker-share" => "a circuit breaker",
        needs if needs == crate::storm::RATIO_NEEDS => "the gRPC retry quota",
        needs => needs,
    }
}

/// A notice for each of the keys `given` (by a link or an element's attributes) that the page
/// leaves out as inactive ([`inactive_fields`]): "resume-rate was ignored: it applies only with
/// pause".
pub fn inactive_notices(
    settings: &Settings,
    given: &[&'static str],
) -> Vec<(&'static str, String)> {
    inactive_with_needs(settings)
        .into_iter()
        .filter(|(field, _)| given.contains(field))
        .map(|(field, needs)| {
            (
                field,
                format!("{field} was ignored: it applies only with {needs}"),
            )
        })
        .collect()
}

/// [`storm_params`] with the fields `left_out` left out.
fn storm_params_without(settings: &Settings, left_out: &[&str]) -> Params {
    let optional =
        |key: &str| Some(text(settings, key)).filter(|t| !t.is_empty() && !left_out.contains(&key));
    Params {
        policy: Some("exponential".into()),
        arrivals: Some(NumberInput::Text(text(settings, "arrivals"))),
        capacity: Some(NumberInput::Text(text(settings, "capacity"))),
        outage: Some(DurationInput::Text(text(settings, "outage"))),
        traffic: Some(DurationInput::Text(text(settings, "traffic"))),
        timeout: Some(DurationInput::Text(text(settings, "timeout"))),
        pause: Some(settings.get("pause") == "true"),
        engine: Some(text(settings, "engine")),
        budget: optional("budget").map(NumberInput::Text),
        budget_window: optional("budget-window").map(DurationInput::Text),
        budget_floor: optional("budget-floor").map(NumberInput::Text),
        resume_rate: optional("resume-rate").map(NumberInput::Text),
        rate_limit: optional("rate-limit").map(NumberInput::Text),
        retry_after: optional("retry-after").map(DurationInput::Text),
        retry_quota: optional("retry-quota"),
        retry_quota_tokens: optional("retry-quota-tokens").map(|n| number(&n)),
        retry_quota_ratio: optional("retry-quota-ratio").map(|n| number(&n)),
        breaker_failures: optional("breaker-failures").map(|n| number(&n)),
        breaker_share: optional("breaker-share").map(NumberInput::Text),
        breaker_window: optional("breaker-window").map(DurationInput::Text),
        breaker_min_attempts: optional("breaker-min-attempts").map(|n| number(&n)),
        breaker_cooldown: optional("breaker-cooldown").map(DurationInput::Text),
        breaker_probes: optional("breaker-probes").map(|n| number(&n)),
        samples: None,
        deliveries: None,
        deadline: None,
        ..jitter_params(settings)
    }
}

/// One storm of the chart: its legend label and its parameters.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StormSeries {
    /// The legend entry.
    pub label: String,
    /// The scenario's parameters.
    #[cfg_attr(test, ts(type = "StormParams"))]
    pub params: Params,
}

/// How a refusal tells the reader to leave the storm's comparisons out (of the storm chart and
/// the survival map alike): the switch as the page labels it (its link key is
/// `storm-compare=false`).
pub(super) const UNTICK_COMPARE: &str = "untick \"Compare with a fixed 30 s interval\"";

/// The storm chart's series: your policy alone; or, compared, as the survival map compares
/// (see [`crate::survival::series_specs`]): your policy with every bound you set, the article's
/// fixed 30 s interval (no jitter, given up after 2 h) with your bounds but no retry budget, and
/// your policy with a 10% budget added (`your policy + 10% budget`) or, when yours has a
/// budget, without it (`your policy without its budget`); and the compared preset's schedule
/// in the same storm when one is chosen (same traffic, outage and bounds).
pub fn storm_series(settings: &Settings) -> Vec<StormSeries> {
    let mine = storm_params(settings);
    let series = |label: &str, params: Params| StormSeries {
        label: label.to_string(),
        params,
    };
    let mut all = vec![series("your policy", mine.clone())];
    if settings.get("storm-compare") == "true" {
        let unbudgeted = Params {
            budget: None,
            budget_window: None,
            budget_floor: None,
            ..mine.clone()
        };
        all.push(series(
            "fixed 30 s",
            Params {
                // The storm's fixed interval at its defaults: `Policy::article_storm`.
                policy: Some("fixed".into()),
                interval: None,
                give_up: None,
                attempts: None,
                gaps: None,
                then_every: None,
                mode: Some("none".into()),
                // The engine chosen, as every series runs on (it ran on `auto`: the fluid
                // engine's numbers beside a discrete "your policy": outside SRE review).
                ..unbudgeted.clone()
            },
        ));
        all.push(match mine.budget {
            None => series(
                &format!("your policy + {COMPARED_BUDGET_PERCENT}% budget"),
                Params {
                    budget: Some(NumberInput::Number(COMPARED_BUDGET_PERCENT)),
                    ..mine.clone()
                },
            ),
            Some(_) => series("your policy without its budget", unbudgeted),
        });
    }
    if let Ok(compared) = crate::presets::preset(settings.get("compare")) {
        let (own, jitter) = (compared.schedule_params(), compared.jitter_params());
        all.push(series(
            compared.title,
            Params {
                base: own.base,
                multiplier: own.multiplier,
                cap: own.cap,
                attempts: own.attempts,
                give_up: None,
                gaps: own.gaps,
                then_every: own.then_every,
                mode: jitter.mode,
                factor: jitter.factor,
                policy: Some("exponential".into()),
                ..mine
            },
        ));
    }
    all
}

/// The budget the comparison adds to a policy without one, in percent: the survival map's.
const COMPARED_BUDGET_PERCENT: f64 = crate::survival::COMPARED_BUDGET * 100.0;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::{decode_hash, encode_hash};
    use crate::storm::{Breaker, RetryQuota};
    use crate::Purpose;

    /// The storm bounds of each series, by label.
    fn bounds(settings: &Settings) -> Vec<(String, crate::storm::Bounds)> {
        storm_series(settings)
            .into_iter()
            .map(|s| (s.label, s.params.scenario().unwrap().bounds))
            .collect()
    }

    /// Every series runs on the engine chosen: the fixed 30 s series ran on `auto` (the fluid
    /// engine's numbers beside a discrete "your policy", and auto's note on it alone).
    #[test]
    fn every_series_runs_on_the_engine_chosen() {
        for engine in ["auto", "fluid", "discrete"] {
            let settings =
                decode_hash(&format!("storm-compare=true&compare=svix&engine={engine}")).settings;
            let series = storm_series(&settings);
            assert_eq!(series.len(), 4);
            for s in series {
                assert_eq!(s.params.engine.as_deref(), Some(engine), "{}", s.label);
            }
        }
    }

    #[test]
    fn a_links_retry_quota_and_breaker_reach_the_storm() {
        let mut settings = Settings::default();
        for (key, value) in [
            ("retry-quota", "grpc"),
            ("retry-quota-tokens", "20"),
            ("retry-quota-ratio", "0.25"),
            ("breaker-failures", "5"),
            ("breaker-cooldown", "1 min"),
            ("breaker-probes", "2"),
        ] {
            settings.set(key, value);
        }
        let quota = Some(RetryQuota::Grpc {
            max_tokens: 20,
            token_ratio: 0.25,
        });
        let breaker = Some(Breaker {
            failures: Some(5),
            share: None,
            cooldown_s: 60,
            probes: 2,
        });
        // Compared: every series has your bounds; the third adds a 10% budget.
        let series = bounds(&settings);
        assert_eq!(series.len(), 3);
        for (label, bounds) in &series {
            assert_eq!(
                (bounds.retry_quota, bounds.breaker),
                (quota, breaker),
                "{label}"
            );
        }
        let labels = |settings: &Settings| {
            storm_series(settings)
                .into_iter()
                .map(|s| (s.label, s.params.budget.map(|b| b.share("budget").unwrap())))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            labels(&settings),
            [
                ("your policy".to_string(), None),
                ("fixed 30 s".to_string(), None),
                ("your policy + 10% budget".to_string(), Some(0.1))
            ]
        );
        // With your own budget, "your policy" is yours, budget included (as in the CLI and the
        // survival map), and the comparison drops it.
        settings.set("budget", "20");
        let with_budget = [
            ("your policy".to_string(), Some(0.2)),
            ("fixed 30 s".to_string(), None),
            ("your policy without its budget".to_string(), None),
        ];
        assert_eq!(labels(&settings), with_budget);
        // Written as the CLI and the JS API take it, and as the captions write it.
        settings.set("budget", "20 %");
        assert_eq!(labels(&settings), with_budget);
        settings.set("budget", "");
        // Alone: your policy with them.
        settings.set("storm-compare", "false");
        let series = bounds(&settings);
        assert_eq!(
            (series[0].1.retry_quota, series[0].1.breaker),
            (quota, breaker)
        );
        // Unset, neither.
        let series = bounds(&Settings::default());
        assert!(series
            .iter()
            .all(|(_, b)| b.retry_quota.is_none() && b.breaker.is_none()));
    }

    /// A link's budget is the CLI's `--budget`: empty is none, 0 a budget of no share whose
    /// floor still lets retries through, and its window and floor, and the pause's resume rate,
    /// reach the storm. The page had read 0 as no budget, so `budget=0` and `--budget 0` drew
    /// different storms.
    #[test]
    fn a_links_budget_is_the_clis() {
        let mut settings = Settings::default();
        settings.set("storm-compare", "false");
        let mine = |settings: &Settings| bounds(settings).remove(0).1;
        assert_eq!(mine(&settings).budget, None);
        settings.set("budget", "0");
        let zero = mine(&settings);
        assert_eq!((zero.budget, zero.budget_floor_per_s), (Some(0.0), 0.5));
        for (key, value) in [("budget-window", "30 s"), ("budget-floor", "0")] {
            settings.set(key, value);
        }
        let pure = mine(&settings);
        assert_eq!(
            (pure.budget, pure.budget_window_s, pure.budget_floor_per_s),
            (Some(0.0), 30, 0.0)
        );
        for (key, value) in [("pause", "true"), ("resume-rate", "2/s")] {
            settings.set(key, value);
        }
        assert_eq!(mine(&settings).resume_rate_per_s, Some(2.0));
        // The comparison without your budget drops its window and floor with it (alone they
        // would be refused as given without a budget).
        settings.set("storm-compare", "true");
        let series = bounds(&settings);
        assert_eq!(series[2].0, "your policy without its budget");
        assert_eq!(series[2].1.budget, None);
        // The same storm as the CLI's, number for number.
        let cli = crate::Params {
            budget: Some(NumberInput::Text("0".into())),
            budget_window: Some(DurationInput::Text("30s".into())),
            budget_floor: Some(NumberInput::Text("0".into())),
            ..storm_params(&Settings::default())
        };
        settings.set("pause", "false");
        settings.set("resume-rate", "");
        assert_eq!(
            cli.scenario().unwrap(),
            storm_params(&settings).scenario().unwrap()
        );
    }

    /// The page's parameters are one policy as the JS API's functions read it: the page's
    /// schedule export went through `exportSchedule`, which refused the base kept beside a
    /// preset's listed gaps; your policy's storm series and a compared preset's read the same
    /// way (the page draws them itself; its fixed-interval comparison keeps the formula's keys
    /// unread beside `policy: "fixed"`).
    #[test]
    fn the_pages_parameters_are_read_as_the_js_api_reads_them() {
        for (preset, compare) in [("article", "svix"), ("svix", "azure-event-grid")] {
            let hash = format!("#preset={preset}&compare={compare}");
            let settings = crate::page::resolve(crate::page::decode_hash(&hash)).settings;
            let policy = policy_params(&settings);
            assert_eq!(policy.check_read_by(Purpose::Schedule), Ok(()), "{preset}");
            for series in storm_series(&settings) {
                assert_eq!(
                    series.params.check_read_by(Purpose::Storm),
                    Ok(()),
                    "{preset}: {}",
                    series.label
                );
            }
        }
    }

    /// No control the page does not have is listed (the page's storm is always exponential:
    /// `interval` was listed at every render, with `batch-at` and `retry-after-threshold`).
    #[test]
    fn only_the_pages_own_controls_are_inactive() {
        let inactive = inactive_controls(&Settings::default());
        assert!(!inactive.is_empty());
        assert!(
            inactive.iter().all(|c| Settings::is_key(&c.control)),
            "{inactive:?}"
        );
    }

    /// A storm field that needs another setting is inactive while that setting is off: left out
    /// of the storm (a resume rate left typed after Pause was unticked refused it with
    /// "resume-rate must be given only with pause"), kept in the link as in its field, with a
    /// note; active again, it reaches the storm. Each dependent field of the page is checked
    /// both ways.
    #[test]
    fn a_field_that_needs_an_unset_setting_is_left_out_until_it_is_set() {
        let cases: [(&str, &str, &str, &str); 9] = [
            ("resume-rate", "20/s", "pause", "true"),
            ("budget-window", "2m", "budget", "10"),
            ("budget-floor", "0", "budget", "10"),
            ("retry-quota-tokens", "50", "retry-quota", "grpc"),
            ("retry-quota-ratio", "0.2", "retry-quota", "grpc"),
            ("breaker-window", "30s", "breaker-share", "50"),
            ("breaker-min-attempts", "20", "breaker-share", "50"),
            ("breaker-cooldown", "10s", "breaker-failures", "5"),
            ("breaker-probes", "3", "breaker-share", "50"),
        ];
        for (field, value, needs, on) in cases {
            let mut settings = Settings::default();
            settings.set(field, value);
            assert!(inactive_fields(&settings).contains(&field), "{field}");
            let storm = storm_params(&settings);
            assert!(!storm.is_given(field), "{field} left out of the storm");
            storm.scenario().unwrap();
            assert!(
                encode_hash(&settings).contains(field),
                "{field} kept in the link"
            );
            let notes = inactive_controls(&settings);
            let note = notes.iter().find(|c| c.control == field).unwrap();
            assert!(
                note.note.starts_with("not used now: it applies only with ")
                    // In the page's words ("Pause the endpoint", "a retry budget").
                    && note.note.to_lowercase().contains(needs.split('-').next().unwrap_or(needs)),
                "{field}: {note:?}"
            );

            settings.set(needs, on);
            assert!(!inactive_fields(&settings).contains(&field), "{field}");
            assert!(!inactive_controls(&settings)
                .iter()
                .any(|c| c.control == field));
            let storm = storm_params(&settings);
            assert!(
                storm.is_given(field),
                "{field} reaches the storm with {needs}"
            );
            storm.scenario().unwrap();
            assert!(encode_hash(&settings).contains(field), "{field}");
        }
        // The ratio is gRPC's alone: inactive beside the AWS quota.
        let mut settings = Settings::default();
        settings.set("retry-quota", "aws");
        settings.set("retry-quota-ratio", "0.2");
        assert!(inactive_fields(&settings).contains(&"retry-quota-ratio"));
        storm_params(&settings).scenario().unwrap();
    }

    /// The allowed lag serves the suggestion, which needs a tolerance: with the tolerance
    /// cleared, its field says so (it did nothing without a word), and an element's `max-lag`
    /// attribute is named.
    #[test]
    fn the_allowed_lag_is_inactive_without_a_tolerance() {
        let mut settings = Settings::default();
        assert!(!inactive_fields(&settings).contains(&"max-lag"));
        settings.set("tolerance", "");
        let notes = inactive_controls(&settings);
        let note = notes.iter().find(|c| c.control == "max-lag").unwrap();
        assert_eq!(
            note.note,
            "not used now: it applies only with a tolerance (Worth delivering for)"
        );
        let attributes = [("tolerance", ""), ("max-lag", "1h")]
            .map(|(k, v): (&str, &str)| (k.to_string(), v.to_string()));
        let element = super::super::element_state(&attributes);
        assert_eq!(element.errors.len(), 1, "{:?}", element.errors);
        assert_eq!(
            element.errors[0].message,
            "max-lag was ignored: it applies only with tolerance"
        );
    }

    /// A preset drawn as it is is not offered under "Compare with" (it would be compared with
    /// itself); once the cap cuts its gaps, or its jitter changes, or another preset is chosen,
    /// it is offered again.
    #[test]
    fn the_preset_drawn_as_it_is_is_not_offered_for_comparison() {
        let greyed = |hash: &str| -> Vec<String> {
            let settings = crate::page::resolve(decode_hash(hash)).settings;
            inactive_controls(&settings)
                .into_iter()
                .filter(|c| c.control.starts_with("compare="))
                .map(|c| format!("{}: {}", c.control, c.note))
                .collect()
        };
        assert_eq!(
            greyed("#preset=svix"),
            [
                "compare=svix: not offered: your policy is Svix as it stands, so it would be \
              compared with itself"
            ]
        );
        assert_eq!(greyed("#preset=grpc").len(), 1);
        assert!(greyed("#preset=grpc")[0].starts_with("compare=grpc:"));
        assert!(greyed("#preset=article&mode=none")[0].starts_with("compare=article:"));
        for offered in [
            "#preset=svix&cap=1h",
            "#preset=svix&mode=full",
            // The page jitters the article's schedule: worth comparing with the unjittered one.
            "#preset=article",
            // Chosen already (by a link, or before the preset): offered, as it is drawn.
            "#preset=svix&compare=svix",
            "#preset=grpc&multiplier=2",
            "#base=30s&multiplier=3&cap=3h&attempts=14&mode=none",
        ] {
            assert_eq!(greyed(offered), Vec::<String>::new(), "{offered}");
        }
    }

    /// Decorrelated jitter grows from a base, which a list of gaps has not: beside one its option
    /// is greyed out (chosen, it is refused naming the mode), and it is offered again once the
    /// list is cleared.
    #[test]
    fn decorrelated_jitter_is_greyed_out_beside_a_list_of_gaps() {
        let greyed = |settings: &Settings| {
            inactive_controls(settings)
                .iter()
                .any(|c| c.control == "mode=decorrelated")
        };
        let mut settings = Settings::default();
        assert!(!greyed(&settings));
        settings.set("gaps", "5 s,5 min,30 min");
        assert!(greyed(&settings));
        settings.set("mode", "decorrelated");
        let params = jitter_params(&settings);
        let refused = params
            .jitter()
            .unwrap()
            .check_applies_to(&params.policy().unwrap())
            .unwrap_err();
        assert!(refused
            .to_string()
            .starts_with("mode must be none, full, equal or proportional"));
        settings.set("gaps", "");
        assert!(!greyed(&settings));
    }

    /// A link keeps an inactive field as its field does (the page notes it there); an element,
    /// which has no field, names an attribute that is inactive among its errors (one inside
    /// `state` is kept without a word, as a link keeps it); an attribute that turns the setting
    /// on makes the state's field apply.
    #[test]
    fn an_inactive_field_is_kept_by_a_link_and_named_by_an_element() {
        let link = decode_hash("#resume-rate=20%2Fs");
        assert!(link.notices.is_empty(), "{:?}", link.notices);
        assert_eq!(link.settings.get("resume-rate"), "20/s");

        let element = |pairs: &[(&str, &str)]| {
            let attributes: Vec<(String, String)> = pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            super::super::element_state(&attributes)
        };
        let notice = "resume-rate was ignored: it applies only with pause";
        let alone = element(&[("resume-rate", "20/s")]);
        assert_eq!(alone.errors.len(), 1, "{:?}", alone.errors);
        assert_eq!(
            (
                alone.errors[0].attribute.as_str(),
                alone.errors[0].message.as_str()
            ),
            ("resume-rate", notice)
        );
        // Inside `state` it is kept without a word, as a share link keeps it.
        let in_state = element(&[("state", "view=storm&resume-rate=5/s")]);
        assert!(in_state.errors.is_empty(), "{:?}", in_state.errors);
        let turned_on = element(&[("pause", "true"), ("state", "view=storm&resume-rate=5/s")]);
        assert!(turned_on.errors.is_empty(), "{:?}", turned_on.errors);
        let storm = storm_params(&turned_on.settings).scenario().unwrap();
        assert_eq!(storm.bounds.resume_rate_per_s, Some(5.0));
    }
}
