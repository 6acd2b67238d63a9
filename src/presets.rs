//! Published retry schedules of real providers (sources in each preset), as policies.
//! Where a provider publishes only a summary ("8 retries over 4 hours") it is left out rather
//! than given invented gaps.

use serde::Serialize;

use crate::jitter::Jitter;
use crate::{format_exact, DurationInput, Error, Params, Policy, Stop};

/// A provider's schedule.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    /// Lowercase, hyphenated: `svix`, `standard-webhooks`, ...
    pub name: &'static str,
    /// For people: "Svix".
    pub title: &'static str,
    /// Where the schedule is published.
    pub source: &'static str,
    /// What the preset assumes beyond the published figures.
    pub note: &'static str,
    /// The schedule.
    pub policy: Policy,
    /// Its jitter.
    pub jitter: Jitter,
}

const MIN: f64 = 60.0;
const HOUR: f64 = 3_600.0;

/// Every preset, the article's first.
///
/// # Example
/// ```
/// use backoff_lab::presets::presets;
/// let svix = presets().into_iter().find(|p| p.name == "svix").unwrap();
/// assert_eq!(svix.policy.schedule().give_up_s(), 99_305.0); // 27 h 35 min 5 s
/// ```
pub fn presets() -> Vec<Preset> {
    let explicit = |gaps: &[f64], tail: Option<f64>, stop: Option<Stop>| {
        // The figures below are constants within every bound Policy checks.
        Policy::explicit(gaps, tail, stop).unwrap_or_else(|_| Policy::article())
    };
    let formula = |base: f64, multiplier: f64, cap: f64, attempts: u32| {
        Policy::new(base, multiplier, cap, Stop::Attempts(attempts))
            .unwrap_or_else(|_| Policy::article())
    };
    vec![
        Preset {
            name: "article",
            title: "The article's example",
            source: "https://repost.sh/blog/retry-storms-and-the-arithmetic-of-backoff",
            note: "30 s base, ×3, 3 h cap, 14 attempts; the article recommends adding jitter",
            policy: Policy::article(),
            jitter: Jitter::None,
        },
        Preset {
            name: "svix",
            title: "Svix",
            source: "https://docs.svix.com/retries",
            note: "immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h",
            policy: explicit(&[5.0, 5.0 * MIN, 30.0 * MIN, 2.0 * HOUR, 5.0 * HOUR, 10.0 * HOUR, 10.0 * HOUR], None, None),
            jitter: Jitter::None,
        },
        Preset {
            name: "standard-webhooks",
            title: "Standard Webhooks (example schedule)",
            source: "https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md",
            note: "immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h",
            policy: explicit(
                &[5.0, 5.0 * MIN, 30.0 * MIN, 2.0 * HOUR, 5.0 * HOUR, 10.0 * HOUR, 14.0 * HOUR, 20.0 * HOUR, 24.0 * HOUR],
                None,
                None,
            ),
            jitter: Jitter::None,
        },
        Preset {
            name: "azure-event-grid",
            title: "Azure Event Grid",
            source: "https://learn.microsoft.com/azure/event-grid/delivery-and-retry",
            note: "10 s, 30 s, 1 min, 5 min, 10 min, 30 min, 1 h, 3 h, 6 h, then every 12 h while the 24 h time-to-live lasts: the last attempt, at 22 h 46 min 40 s, is the last before the event expires at 24 h (the service randomizes the gaps slightly)",
            policy: explicit(
                &[10.0, 30.0, MIN, 5.0 * MIN, 10.0 * MIN, 30.0 * MIN, HOUR, 3.0 * HOUR, 6.0 * HOUR],
                Some(12.0 * HOUR),
                Some(Stop::Attempts(11)),
            ),
            jitter: Jitter::None,
        },
        Preset {
            name: "grpc",
            title: "gRPC connection backoff",
            source: "https://github.com/grpc/grpc/blob/master/doc/connection-backoff.md",
            note: "1 s, ×1.6, 120 s cap, ±20% jitter; gRPC retries without end, 10 attempts are shown",
            policy: formula(1.0, 1.6, 120.0, 10),
            jitter: Jitter::Proportional(crate::jitter::Factor::GRPC),
        },
        Preset {
            name: "aws-sdk-standard",
            title: "AWS SDK standard retry mode",
            source: "https://docs.aws.amazon.com/sdkref/latest/guide/feature-retry-behavior.html",
            note: "full jitter, 1 s base, ×2, 20 s cap, 3 attempts (plus a client-side retry quota, which the storm models as its retry quota aws)",
            policy: formula(1.0, 2.0, 20.0, 3),
            jitter: Jitter::Full,
        },
        Preset {
            name: "aws-sns",
            title: "Amazon SNS HTTP/S default delivery policy",
            source: "https://docs.aws.amazon.com/sns/latest/dg/sns-message-delivery-retries.html",
            note: "3 retries, 20 s apart",
            policy: Policy::fixed(20.0, Stop::Attempts(4)).unwrap_or_else(|_| Policy::article()),
            jitter: Jitter::None,
        },
    ]
}

/// The preset called `name`, or an error that lists the names.
pub fn preset(name: &str) -> Result<Preset, Error> {
    let all = presets();
    let names: Vec<&str> = all.iter().map(|p| p.name).collect();
    all.iter().find(|p| p.name == name).cloned().ok_or_else(|| {
        Error::out_of_range(
            "preset",
            format!("{name:?}"),
            format!("one of {}", names.join(", ")),
        )
    })
}

impl Preset {
    /// The preset as parameters, so that explicit flags or fields can override any of them: its
    /// schedule, its jitter, and the formula's keys even when it lists its gaps (a `--cap`
    /// cuts the list; see the CLI's policy flags).
    pub fn params(&self) -> Params {
        let jitter = self.jitter_params();
        Params {
            base: Some(DurationInput::Seconds(self.policy.base_s())),
            multiplier: Some(self.policy.multiplier()),
            cap: Some(DurationInput::Seconds(self.policy.cap_s())),
            mode: jitter.mode,
            factor: jitter.factor,
            ..self.schedule_params()
        }
    }

    /// The schedule as written, each key one that
    /// [`Purpose::Schedule`](crate::Purpose::Schedule) reads: the gaps it lists (and its
    /// tail), else base, multiplier and cap; with its attempts.
    pub fn schedule_params(&self) -> Params {
        let seconds = DurationInput::Seconds;
        let attempts = Some(f64::from(self.policy.attempts()));
        match self.policy.explicit_gaps() {
            Some((gaps, tail)) => Params {
                base: None,
                multiplier: None,
                cap: None,
                attempts,
                gaps: Some(gaps.iter().copied().map(seconds).collect()),
                then_every: tail.map(seconds),
                ..Params::default()
            },
            None => Params {
                base: Some(seconds(self.policy.base_s())),
                multiplier: Some(self.policy.multiplier()),
                cap: Some(seconds(self.policy.cap_s())),
                attempts,
                ..Params::default()
            },
        }
    }

    /// Its jitter alone: `mode`, and `factor` when proportional.
    pub fn jitter_params(&self) -> Params {
        let (mode, factor) = match self.jitter {
            Jitter::Proportional(f) => ("proportional", Some(f.get())),
            other => (other.name(), None),
        };
        Params {
            base: None,
            multiplier: None,
            cap: None,
            attempts: None,
            mode: Some(mode.to_string()),
            factor,
            ..Params::default()
        }
    }
}

/// A preset as the CLI lists it and the JS API returns it.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PresetInfo {
    /// Its name.
    pub name: String,
    /// For people.
    pub title: String,
    /// Where it is published.
    pub source: String,
    /// What it assumes.
    pub note: String,
    /// Attempts in all.
    pub attempts: u32,
    /// The unjittered give-up time, seconds.
    pub give_up_s: f64,
    /// The same, exactly, in words: "27 h 35 min 5 s"; a jittered preset's says it is the
    /// schedule as written: "3 s without jitter".
    pub give_up_text: String,
    /// Its schedule as written, what `schedule` reads: the gaps it lists (and `thenEvery`),
    /// else `base`, `multiplier` and `cap`; with `attempts`.
    #[cfg_attr(test, ts(type = "ScheduleParams"))]
    pub params: Params,
    /// Its own jitter, `mode` (and `factor` when proportional), for the functions that draw:
    /// `jitter({ ...preset.params, ...preset.jitter })`.
    #[cfg_attr(test, ts(type = "Pick<Params, \"mode\" | \"factor\">"))]
    pub jitter: Params,
}

impl From<&Preset> for PresetInfo {
    fn from(preset: &Preset) -> Self {
        let give_up_s = preset.policy.schedule().give_up_s();
        PresetInfo {
            name: preset.name.into(),
            title: preset.title.into(),
            source: preset.source.into(),
            note: preset.note.into(),
            attempts: preset.policy.attempts(),
            give_up_s,
            // Under jitter the give-up time is drawn (full jitter: about half as late on
            // average): the time from its gaps as written says so.
            give_up_text: if preset.jitter.draws() {
                format!("{} without jitter", format_exact(give_up_s))
            } else {
                format_exact(give_up_s)
            },
            params: preset.schedule_params(),
            jitter: preset.jitter_params(),
        }
    }
}

/// Every preset as the CLI lists it, the article's first: one list, in each output format. Its
/// JSON is the list itself, each preset as [`PresetInfo`] but for its parameters: snake_case
/// keys like the rest of the CLI's JSON, and whole attempts.
#[derive(Debug, Clone, PartialEq)]
pub struct PresetList(pub Vec<PresetInfo>);

impl Serialize for PresetList {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(ListedPreset::from))
    }
}

/// A preset in the CLI's JSON.
#[derive(Serialize)]
struct ListedPreset<'a> {
    name: &'a str,
    title: &'a str,
    source: &'a str,
    note: &'a str,
    attempts: u32,
    give_up_s: f64,
    give_up_text: &'a str,
    params: ListedParams,
    jitter: ListedJitter,
}

impl<'a> From<&'a PresetInfo> for ListedPreset<'a> {
    fn from(info: &'a PresetInfo) -> Self {
        let params = &info.params;
        ListedPreset {
            name: &info.name,
            title: &info.title,
            source: &info.source,
            note: &info.note,
            attempts: info.attempts,
            give_up_s: info.give_up_s,
            give_up_text: &info.give_up_text,
            params: ListedParams {
                base: params.base.clone(),
                multiplier: params.multiplier,
                cap: params.cap.clone(),
                attempts: info.attempts,
                gaps: params.gaps.clone(),
                then_every: params.then_every.clone(),
            },
            jitter: ListedJitter {
                mode: info.jitter.mode.clone(),
                factor: info.jitter.factor,
            },
        }
    }
}

/// A preset's schedule in the CLI's JSON: snake_case like every other key there
/// (`then_every`), and whole attempts (`14`, as the preset's own `attempts`). The JS API's
/// `presets()` keeps [`PresetInfo::params`] in the form its functions read (`thenEvery`), so
/// that a preset's schedule can be handed back to any of them (with its `jitter` added where
/// the function draws).
#[derive(Serialize)]
struct ListedParams {
    #[serde(skip_serializing_if = "Option::is_none")]
    base: Option<DurationInput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    multiplier: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cap: Option<DurationInput>,
    attempts: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    gaps: Option<Vec<DurationInput>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    then_every: Option<DurationInput>,
}

/// A preset's own jitter in the CLI's JSON.
#[derive(Serialize)]
struct ListedJitter {
    #[serde(skip_serializing_if = "Option::is_none")]
    mode: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    factor: Option<f64>,
}

impl PresetList {
    /// Every preset.
    pub fn all() -> Self {
        PresetList(presets().iter().map(Into::into).collect())
    }

    /// Three lines a preset (name, attempts and give-up time; what it assumes; its source),
    /// then a blank line.
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        for p in &self.0 {
            out += &format!(
                "{:<18} {:>3} attempts, gives up after {}\n{:<18} {}\n{:<18} {}\n\n",
                p.name, p.attempts, p.give_up_text, "", p.note, "", p.source
            );
        }
        out
    }

    /// A Markdown table, one row a preset.
    pub fn to_markdown(&self) -> String {
        let mut out = String::from(
            "| Preset | Schedule | Attempts | Gives up after | Source |\n| --- | --- | ---: | --- | --- |\n",
        );
        for p in &self.0 {
            out += &format!(
                "| `{}` | {} | {} | {} | <{}> |\n",
                p.name, p.note, p.attempts, p.give_up_text, p.source
            );
        }
        out
    }

    /// CSV: one line a preset with its give-up time in seconds, to 12 significant digits as in
    /// the other CSVs (gRPC's read `112.86579456000007`).
    pub fn to_csv(&self) -> String {
        let mut out = String::from("name,attempts,give_up_s,source\n");
        for p in &self.0 {
            out += &format!(
                "{},{},{},{}\n",
                p.name,
                p.attempts,
                crate::report::csv_number(p.give_up_s),
                p.source
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn give_up(name: &str) -> String {
        format_exact(preset(name).unwrap().policy.schedule().give_up_s())
    }

    #[test]
    fn published_give_up_times() {
        assert_eq!(give_up("article"), "24 h 02 min");
        assert_eq!(give_up("svix"), "27 h 35 min 5 s");
        assert_eq!(give_up("standard-webhooks"), "75 h 35 min 5 s");
        assert_eq!(give_up("aws-sns"), "60 s");
        assert_eq!(give_up("aws-sdk-standard"), "3 s");
        // Azure: 10 h 46 min 40 s of listed gaps, then one 12 h gap inside the 24 h TTL.
        assert_eq!(give_up("azure-event-grid"), "22 h 46 min 40 s");
        let grpc = preset("grpc").unwrap();
        assert_eq!(grpc.jitter, Jitter::proportional(0.2).unwrap());
        assert!((grpc.policy.gap(11) - 1.6f64.powi(10)).abs() < 1e-9);
        assert_eq!(grpc.policy.gap(12), 120.0);
    }

    #[test]
    fn names_are_lowercase_with_hyphens_and_unknown_names_are_refused() {
        let names: Vec<&str> = presets().iter().map(|p| p.name).collect();
        assert_eq!(
            names,
            [
                "article",
                "svix",
                "standard-webhooks",
                "azure-event-grid",
                "grpc",
                "aws-sdk-standard",
                "aws-sns"
            ]
        );
        assert_eq!(
            preset("stripe").unwrap_err().to_string(),
            "preset must be one of article, svix, standard-webhooks, azure-event-grid, grpc, aws-sdk-standard, aws-sns, got \"stripe\""
        );
    }

    #[test]
    fn a_presets_params_give_back_its_policy() {
        for preset in presets() {
            let params = preset.params();
            assert_eq!(params.policy().unwrap(), preset.policy, "{}", preset.name);
            assert_eq!(params.jitter().unwrap(), preset.jitter, "{}", preset.name);
        }
    }

    /// The JS API's `presets()` hands a preset back as its schedule and its jitter: the
    /// schedule alone is what `schedule` reads (no key refused), and with the jitter added it
    /// is what `jitter` reads, giving the preset's own policy and jitter.
    #[test]
    fn a_presets_schedule_and_jitter_are_read_as_they_are_handed_back() {
        for preset in presets() {
            let info = PresetInfo::from(&preset);
            let schedule = &info.params;
            assert_eq!(
                schedule.check_read_by(crate::Purpose::Schedule),
                Ok(()),
                "{}",
                preset.name
            );
            assert_eq!(schedule.policy().unwrap(), preset.policy, "{}", preset.name);
            let jittered = Params {
                mode: info.jitter.mode.clone(),
                factor: info.jitter.factor,
                ..schedule.clone()
            };
            assert_eq!(
                jittered.check_read_by(crate::Purpose::GiveUp),
                Ok(()),
                "{}",
                preset.name
            );
            assert_eq!(jittered.jitter().unwrap(), preset.jitter, "{}", preset.name);
            assert_eq!(info.jitter.gaps, None);
        }
    }
}
