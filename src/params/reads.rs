//! Which parameters each purpose reads (a schedule, the give-up distribution, a herd, a storm,
//! the staleness report, a survival map). The JS API's functions share one parameter set, so a
//! key given to a function that has no use for it would be left unused without a word (`mode`
//! to `schedule`): it is refused by name instead, as the command line refuses a flag its command
//! does not have. A policy given two ways (a list of gaps beside a formula's key, a tail without
//! a list) is refused too.

use super::{DurationInput, NumberInput, Params};
use crate::Error;

/// What the parameters are read for; each purpose reads its own keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// A schedule, its facts and its timeline: the policy and the early window.
    Schedule,
    /// A schedule drawn but not reported (`chartSvg`'s timeline, a compared schedule): the
    /// policy alone (the window decides only a report's early attempts).
    DrawnSchedule,
    /// The give-up distribution: the policy, its jitter, the samples and the deadline-safe
    /// question (`deadline`, `percentile`).
    GiveUp,
    /// The mean give-up time alone (`sampledMeanGiveUp`): the policy, its jitter and the
    /// samples, no deadline-safe sizing.
    SampledMean,
    /// A herd: the policy, its jitter and the deliveries.
    Herd,
    /// A storm: the policy, its jitter and the scenario's keys.
    Storm,
    /// The staleness report: the policy, its jitter, the samples, one outage, the tolerance and
    /// the longest lag.
    Staleness,
    /// A survival map: a storm's keys but `traffic`, which each cell sets (through its outage
    /// and the hour after it); the outage is your scenario's, marked on the map, and a batch is
    /// refused by the map itself (`batch must be empty for a survival map`).
    SurvivalMap,
}

/// The policy's keys, which every purpose reads.
const POLICY: &[&str] = &[
    "base",
    "multiplier",
    "cap",
    "attempts",
    "give-up",
    "gaps",
    "then-every",
];

/// The jitter's keys.
const JITTER: &[&str] = &["mode", "factor", "seed"];

/// What a storm's scenario reads beside the policy and its jitter: traffic, destination,
/// sender, outage and bounds.
const STORM_ONLY: &[&str] = &[
    "arrivals",
    "traffic",
    "batch",
    "batch-at",
    "capacity",
    "latency",
    "timeout",
    "outage",
    "outage-start",
    "policy",
    "interval",
    "budget",
    "budget-window",
    "budget-floor",
    "rate-limit",
    "pause",
    "resume-rate",
    "retry-after",
    "retry-after-threshold",
    "abandon",
    "retry-quota",
    "retry-quota-tokens",
    "retry-quota-ratio",
    "breaker-failures",
    "breaker-share",
    "breaker-window",
    "breaker-min-attempts",
    "breaker-cooldown",
    "breaker-probes",
    "engine",
];

impl Purpose {
    /// Whether this purpose reads `key` (as the CLI spells it, `give-up`).
    pub fn reads(self, key: &str) -> bool {
        let (jitter, scenario) = (JITTER.contains(&key), STORM_ONLY.contains(&key));
        POLICY.contains(&key)
            || match self {
                Purpose::Schedule => key == "window",
                Purpose::DrawnSchedule => false,
                Purpose::SampledMean => jitter || key == "samples",
                Purpose::GiveUp => jitter || ["samples", "deadline", "percentile"].contains(&key),
                Purpose::Herd => jitter || key == "deliveries",
                Purpose::Storm => jitter || scenario,
                Purpose::Staleness => {
                    jitter || ["samples", "outage", "tolerance", "max-lag"].contains(&key)
                }
                Purpose::SurvivalMap => jitter || (scenario && key != "traffic"),
            }
    }

    /// Why `key`, given, is not read: the valid range of the refusal.
    fn leave_out(self, key: &str) -> String {
        match (self, key) {
            (Purpose::SurvivalMap, "traffic") => "left out of a survival map (each cell's \
                 traffic lasts through its outage and the hour after it)"
                .into(),
            _ => {
                let (what, reads) = match self {
                    Purpose::Schedule => ("a schedule", "the policy and the window"),
                    Purpose::DrawnSchedule => (
                        "a schedule drawn but not reported (chartSvg, a compared schedule)",
                        "the policy alone",
                    ),
                    Purpose::SampledMean => (
                        "sampledMeanGiveUp",
                        "the policy, its jitter and samples (the mean alone)",
                    ),
                    Purpose::GiveUp => (
                        "the give-up distribution",
                        "the policy, its jitter, samples, deadline and percentile",
                    ),
                    Purpose::Herd => ("a herd", "the policy, its jitter and deliveries"),
                    Purpose::Storm => ("a storm", "the policy, its jitter and the scenario"),
                    Purpose::SurvivalMap => (
                        "a survival map",
                        "the policy, its jitter and the scenario but its traffic",
                    ),
                    Purpose::Staleness => (
                        "the staleness report",
                        "the policy, its jitter, samples, outage, tolerance and the longest lag",
                    ),
                };
                format!("left out of {what}, which reads {reads}")
            }
        }
    }
}

/// A given value as a refusal quotes it: text in quotes (an empty one, or one holding a comma,
/// reads as given), numbers as they read back, very large and very small ones in exponent form
/// (`1e300`, not 301 digits).
pub(super) trait GivenText {
    fn given_text(&self) -> String;
}

fn number_text(number: f64) -> String {
    let plain = number == 0.0 || (1e-6..1e15).contains(&number.abs());
    match plain || !number.is_finite() {
        true => number.to_string(),
        false => format!("{number:e}"),
    }
}

impl GivenText for DurationInput {
    fn given_text(&self) -> String {
        match self {
            DurationInput::Seconds(seconds) => number_text(*seconds),
            DurationInput::Text(text) => text.given_text(),
        }
    }
}

impl GivenText for NumberInput {
    fn given_text(&self) -> String {
        match self {
            NumberInput::Number(number) => number_text(*number),
            NumberInput::Text(text) => text.given_text(),
        }
    }
}

impl GivenText for Vec<DurationInput> {
    fn given_text(&self) -> String {
        let items: Vec<String> = self.iter().map(GivenText::given_text).collect();
        format!("[{}]", items.join(", "))
    }
}

impl GivenText for f64 {
    fn given_text(&self) -> String {
        number_text(*self)
    }
}

impl GivenText for String {
    fn given_text(&self) -> String {
        format!("{self:?}")
    }
}

impl GivenText for bool {
    fn given_text(&self) -> String {
        self.to_string()
    }
}

/// [`KEYS`] and [`Params::given`] from one list, so that neither can miss a field.
macro_rules! keys {
    ($($field:ident => $key:literal),* $(,)?) => {
        /// How many keys [`Params`] has.
        const KEY_COUNT: usize = [$($key),*].len();

        /// Every key of [`Params`], as the CLI spells it (`give-up`; JavaScript writes
        /// `giveUp`), in the order of the fields: the names its refusals give as their field.
        pub const KEYS: &[&str] = &[$($key),*];

        impl Params {
            /// Each key given, with its value (for a refusal to quote), in the order of the
            /// fields.
            pub(super) fn given(&self) -> impl Iterator<Item = (&'static str, &dyn GivenText)> {
                let keys: [(&'static str, Option<&dyn GivenText>); KEY_COUNT] =
                    [$(($key, self.$field.as_ref().map(|value| value as &dyn GivenText))),*];
                keys.into_iter().filter_map(|(key, value)| Some((key, value?)))
            }

            /// `key`'s value as a refusal quotes it ("a value" if it was not given).
            pub(super) fn given_text_of(&self, key: &str) -> String {
                self.given()
                    .find(|(given, _)| *given == key)
                    .map_or_else(|| "a value".to_string(), |(_, value)| value.given_text())
            }
        }
    };
}

keys! {
    base => "base",
    multiplier => "multiplier",
    cap => "cap",
    attempts => "attempts",
    give_up => "give-up",
    window => "window",
    gaps => "gaps",
    then_every => "then-every",
    mode => "mode",
    factor => "factor",
    seed => "seed",
    samples => "samples",
    deliveries => "deliveries",
    deadline => "deadline",
    percentile => "percentile",
    arrivals => "arrivals",
    traffic => "traffic",
    batch => "batch",
    batch_at => "batch-at",
    capacity => "capacity",
    latency => "latency",
    timeout => "timeout",
    outage => "outage",
    outage_start => "outage-start",
    policy => "policy",
    interval => "interval",
    budget => "budget",
    budget_window => "budget-window",
    budget_floor => "budget-floor",
    rate_limit => "rate-limit",
    pause => "pause",
    resume_rate => "resume-rate",
    retry_after => "retry-after",
    retry_after_threshold => "retry-after-threshold",
    abandon => "abandon",
    retry_quota => "retry-quota",
    retry_quota_tokens => "retry-quota-tokens",
    retry_quota_ratio => "retry-quota-ratio",
    breaker_failures => "breaker-failures",
    breaker_share => "breaker-share",
    breaker_window => "breaker-window",
    breaker_min_attempts => "breaker-min-attempts",
    breaker_cooldown => "breaker-cooldown",
    breaker_probes => "breaker-probes",
    engine => "engine",
    tolerance => "tolerance",
    max_lag => "max-lag",
}

impl Params {
    /// Refuses the first key given (in the order of the fields) that `purpose` does not read.
    pub fn refuse_keys_not_read_by(&self, purpose: Purpose) -> Result<(), Error> {
        match self
            .given()
            .into_iter()
            .find(|(key, _)| !purpose.reads(key))
        {
            Some((key, value)) => Err(Error::out_of_range(
                key,
                value.given_text(),
                purpose.leave_out(key),
            )),
            None => Ok(()),
        }
    }

    /// Refuses a policy given two ways: a formula's key (`base`, `multiplier`, `cap`) beside a
    /// list of gaps, which is used as written, or a tail (`then-every`) without a list. (The
    /// CLI decides these from its flags, where a preset's list may be cut by `--cap`.)
    pub fn refuse_two_policies(&self) -> Result<(), Error> {
        let listed = self.gaps.is_some();
        let refused = self.given().find(|(key, _)| match *key {
            "base" | "multiplier" | "cap" => listed,
            "then-every" => !listed,
            _ => false,
        });
        match refused {
            Some(("then-every", value)) => Err(Error::out_of_range(
                "then-every",
                value.given_text(),
                "given only with gaps (a formula schedule has no tail)",
            )),
            Some((key, value)) => Err(Error::out_of_range(
                key,
                value.given_text(),
                "left out with gaps (a list of gaps is used as written)",
            )),
            None => Ok(()),
        }
    }

    /// Refuses a key given without the one that gives it a use (the command line's commands
    /// call this too, with every flag they were given, before any default fills a key in):
    /// `factor` without `mode: "proportional"`, `percentile` without `deadline`, and `samples`
    /// or `seed` where nothing is drawn (the give-up distribution with a mode that draws
    /// nothing, such as `none`; left out, its mode is full jitter; the staleness report
    /// without jitter, its default).
    pub fn refuse_keys_without_their_rule(&self, purpose: Purpose) -> Result<(), Error> {
        let refused = |key, value: &dyn GivenText, valid: &str| {
            Err(Error::out_of_range(key, value.given_text(), valid))
        };
        let jitter = self.jitter()?;
        if let Some(factor) = &self.factor {
            if !matches!(jitter, crate::jitter::Jitter::Proportional(_)) {
                return refused(
                    "factor",
                    factor,
                    "given only with mode proportional (the width of its window)",
                );
            }
        }
        if let (Some(percentile), None) = (&self.percentile, &self.deadline) {
            return refused(
                "percentile",
                percentile,
                "given only with deadline (the percentile that must reach it)",
            );
        }
        let draws = match purpose {
            Purpose::GiveUp | Purpose::SampledMean => self.mode.is_none() || jitter.draws(),
            Purpose::Staleness => jitter.draws(),
            _ => true,
        };
        let drawn: [(&str, Option<&dyn GivenText>); 2] = [
            (
                "samples",
                self.samples.as_ref().map(|v| v as &dyn GivenText),
            ),
            ("seed", self.seed.as_ref().map(|v| v as &dyn GivenText)),
        ];
        // Proportional jitter of ±0% is jitter by name only: said so, not "without jitter".
        let why = match jitter {
            crate::jitter::Jitter::Proportional(_) => {
                "left out with proportional jitter of ±0% (the answers are exact: nothing is drawn)"
            }
            _ => "left out without jitter (the answers are exact: nothing is drawn)",
        };
        match drawn.into_iter().find(|(_, value)| value.is_some()) {
            Some((key, Some(value))) if !draws => refused(key, value, why),
            _ => Ok(()),
        }
    }

    /// The refusals above: the parameters as `purpose` reads them, every key used.
    pub fn check_read_by(&self, purpose: Purpose) -> Result<(), Error> {
        self.refuse_keys_not_read_by(purpose)?;
        self.refuse_two_policies()?;
        self.refuse_keys_without_their_rule(purpose)
    }
}

/// `key` as JavaScript spells it (`give-up` is `giveUp`): for the TypeScript declarations.
#[cfg(test)]
pub(crate) fn js_key(key: &str) -> String {
    let mut words = key.split('-');
    let first = words.next().unwrap_or_default().to_string();
    words.fold(first, |mut camel, word| {
        camel.push_str(&word[..1].to_uppercase());
        camel.push_str(&word[1..]);
        camel
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PURPOSES: [Purpose; 8] = [
        Purpose::Schedule,
        Purpose::DrawnSchedule,
        Purpose::GiveUp,
        Purpose::SampledMean,
        Purpose::Herd,
        Purpose::Storm,
        Purpose::Staleness,
        Purpose::SurvivalMap,
    ];

    /// The list the refusals walk is every field of the parameters, spelt as their keys.
    #[test]
    fn the_keys_are_every_field_of_the_parameters() {
        let keys: Vec<String> = KEYS.iter().map(|key| js_key(key)).collect();
        assert_eq!(keys, crate::field_names::of::<Params>());
        // Every key is read by some purpose: none is refused everywhere.
        for key in KEYS {
            assert!(PURPOSES.iter().any(|q| q.reads(key)), "{key}");
        }
    }

    fn params(json: &str) -> Params {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_key_the_purpose_has_no_use_for_is_refused_by_name_with_its_value() {
        let schedule = params(r#"{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 14}"#);
        for purpose in PURPOSES {
            assert_eq!(schedule.check_read_by(purpose), Ok(()), "{purpose:?}");
        }
        let with = |key: &str, value: &str| {
            params(&format!(
                r#"{{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 14, "{key}": {value}}}"#
            ))
        };
        let refused = |params: Params, purpose| {
            params
                .check_read_by(purpose)
                .map_err(|error| error.to_string())
        };
        assert_eq!(
            refused(with("mode", r#""full""#), Purpose::Schedule),
            Err(
                "mode must be left out of a schedule, which reads the policy and the window, \
                 got \"full\""
                    .into()
            )
        );
        assert_eq!(
            refused(with("window", "600"), Purpose::GiveUp),
            Err(
                "window must be left out of the give-up distribution, which reads the policy, \
                 its jitter, samples, deadline and percentile, got 600"
                    .into()
            )
        );
        assert_eq!(
            refused(with("window", "600"), Purpose::DrawnSchedule),
            Err(
                "window must be left out of a schedule drawn but not reported (chartSvg, a \
                 compared schedule), which reads the policy alone, got 600"
                    .into()
            )
        );
        assert!(refused(with("deadline", r#""6h""#), Purpose::SampledMean)
            .is_err_and(|e| e.starts_with("deadline must be left out of sampledMeanGiveUp")));
        assert!(refused(with("deliveries", "10"), Purpose::Storm)
            .is_err_and(|e| e.starts_with("deliveries must be left out of a storm")));
        assert!(refused(with("pause", "true"), Purpose::Staleness)
            .is_err_and(|e| e.starts_with("pause must be left out of the staleness report")));
        assert!(refused(with("samples", "10"), Purpose::Herd)
            .is_err_and(|e| e.starts_with("samples must be left out of a herd")));
        assert!(refused(with("traffic", "7200"), Purpose::SurvivalMap)
            .is_err_and(|e| e.starts_with("traffic must be left out of a survival map (")));
        // What a purpose reads is accepted.
        for (key, value, purpose) in [
            ("window", "600", Purpose::Schedule),
            ("deadline", r#""6h""#, Purpose::GiveUp),
            ("samples", "100", Purpose::SampledMean),
            ("deliveries", "10", Purpose::Herd),
            ("outage", r#""1h""#, Purpose::Storm),
            ("outage", r#""1h""#, Purpose::Staleness),
            ("maxLag", r#""1h""#, Purpose::Staleness),
            ("budget", r#""10%""#, Purpose::SurvivalMap),
            ("seed", "7", Purpose::SurvivalMap),
            // Your scenario's outage, which the map marks.
            ("outage", r#""1h""#, Purpose::SurvivalMap),
        ] {
            assert_eq!(
                with(key, value).refuse_keys_not_read_by(purpose),
                Ok(()),
                "{key}"
            );
        }
    }

    #[test]
    fn a_policy_given_two_ways_is_refused() {
        let refused = |json: &str| {
            params(json)
                .check_read_by(Purpose::Schedule)
                .map_err(|error| error.to_string())
        };
        assert_eq!(
            refused(r#"{"gaps": ["5s", "5m"], "base": "30s", "attempts": 3}"#),
            Err(
                "base must be left out with gaps (a list of gaps is used as written), got \"30s\""
                    .into()
            )
        );
        assert!(refused(r#"{"gaps": [5, 300], "cap": 60, "attempts": 3}"#)
            .is_err_and(|e| e.starts_with("cap must be left out with gaps")));
        assert_eq!(
            refused(
                r#"{"base": 30, "multiplier": 3, "cap": 600, "thenEvery": "1h", "attempts": 3}"#
            ),
            Err(
                "then-every must be given only with gaps (a formula schedule has no tail), \
                 got \"1h\""
                    .into()
            )
        );
        assert_eq!(
            refused(r#"{"gaps": [5, 300], "thenEvery": "1h", "attempts": 9}"#),
            Ok(())
        );
    }

    /// The command line's cross-flag rules hold in the JS API too: each key given without the
    /// one that gives it a use was accepted and ignored there.
    #[test]
    fn a_key_without_the_one_that_gives_it_a_use_is_refused() {
        let refused = |extra: &str, purpose| {
            params(&format!(
                r#"{{"base": "30s", "multiplier": 3, "cap": "3h", "attempts": 14{extra}}}"#
            ))
            .check_read_by(purpose)
            .map_err(|error| error.to_string())
        };
        assert_eq!(
            refused(r#", "factor": 0.3"#, Purpose::GiveUp),
            Err(
                "factor must be given only with mode proportional (the width of its window), \
                 got 0.3"
                    .into()
            )
        );
        assert!(refused(r#", "mode": "full", "factor": 0.3"#, Purpose::Storm).is_err());
        assert_eq!(
            refused(r#", "mode": "proportional", "factor": 0.3"#, Purpose::Herd),
            Ok(())
        );
        assert_eq!(
            refused(r#", "percentile": 10"#, Purpose::GiveUp),
            Err(
                "percentile must be given only with deadline (the percentile that must reach \
                 it), got 10"
                    .into()
            )
        );
        assert_eq!(
            refused(r#", "deadline": "6h", "percentile": 10"#, Purpose::GiveUp),
            Ok(())
        );
        let exact = "left out without jitter (the answers are exact: nothing is drawn)";
        assert_eq!(
            refused(r#", "mode": "none", "samples": 10"#, Purpose::GiveUp),
            Err(format!("samples must be {exact}, got 10"))
        );
        assert_eq!(
            refused(
                r#", "mode": "proportional", "factor": 0, "seed": 3"#,
                Purpose::GiveUp
            ),
            // Jitter by name, not "without jitter", as the outside review of the JS API read it.
            Err(
                "seed must be left out with proportional jitter of ±0% (the answers are exact: \
                 nothing is drawn), got 3"
                    .into()
            )
        );
        // Left out, the distribution's mode is full jitter, which draws.
        assert_eq!(refused(r#", "samples": 10"#, Purpose::GiveUp), Ok(()));
        // The staleness report is exact unless a mode that draws is given: a proportional ±0%
        // is exact too (it sampled, with percentiles a minute off the exact ones: outside
        // product review).
        assert_eq!(
            refused(r#", "seed": 3"#, Purpose::Staleness),
            Err(format!("seed must be {exact}, got 3"))
        );
        assert_eq!(
            refused(
                r#", "mode": "proportional", "factor": 0, "samples": 100"#,
                Purpose::Staleness
            ),
            Err(
                "samples must be left out with proportional jitter of ±0% (the answers are \
                 exact: nothing is drawn), got 100"
                    .into()
            )
        );
        assert_eq!(
            refused(
                r#", "mode": "proportional", "factor": 0.1, "samples": 100"#,
                Purpose::Staleness
            ),
            Ok(())
        );
        // A storm's seed orders its retries: it is read without jitter too.
        assert_eq!(
            refused(r#", "mode": "none", "seed": 3"#, Purpose::Storm),
            Ok(())
        );
    }

    /// A refusal quotes text as given and numbers as they read back: `1e300` was written out
    /// in 301 digits, an empty text as nothing at all.
    #[test]
    fn refused_values_are_quoted_readably() {
        assert_eq!(1e300.given_text(), "1e300");
        assert_eq!(5e-324.given_text(), "5e-324");
        assert_eq!(600.0.given_text(), "600");
        assert_eq!(0.25.given_text(), "0.25");
        assert_eq!(f64::INFINITY.given_text(), "inf");
        assert_eq!(String::new().given_text(), r#""""#);
        assert_eq!(
            vec![
                DurationInput::Seconds(5.0),
                DurationInput::Text("5m".into())
            ]
            .given_text(),
            r#"[5, "5m"]"#
        );
    }
}
