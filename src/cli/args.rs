//! The flags several commands share (the policy, its jitter, a storm's scenario, the output
//! formats) and their conversion to [`Params`], the same parameters the wasm edge reads.

use backoff_lab::presets::{preset, Preset};
use backoff_lab::{DurationInput, Error, NumberInput, Params, Purpose};
use clap::{Args, ValueEnum};
use serde::Serialize;

/// The policy: a preset, the formula (base, multiplier, cap) or explicit gaps, and when to stop.
#[derive(Args)]
pub(super) struct PolicyFlags {
    /// A provider's published schedule (see `backoff-lab presets`); flags override its values.
    #[arg(long, value_name = "NAME")]
    preset: Option<String>,
    /// Gap before the first retry, e.g. 30s.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    base: Option<String>,
    /// Growth factor between consecutive gaps (1 to 1000).
    #[arg(long, value_name = "X", allow_hyphen_values = true)]
    multiplier: Option<String>,
    /// Longest gap, e.g. 3h (at least the base, at most 365 days).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    cap: Option<String>,
    /// An explicit schedule instead: 1 to 32 gaps, comma-separated (5s,5m,30m,2h).
    #[arg(long, value_name = "DURATIONS", allow_hyphen_values = true)]
    gaps: Option<String>,
    /// After the explicit gaps, one attempt every this long.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    then_every: Option<String>,
    /// Attempts in all, the first delivery included (1 to 10000).
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        conflicts_with = "give_up"
    )]
    attempts: Option<String>,
    /// Give up at the first attempt at or past this time since the first failure.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    give_up: Option<String>,
}

/// The flags of `flags` that were given, with their values.
fn given_of(flags: &[(&'static str, &Option<String>)]) -> Vec<(&'static str, String)> {
    flags
        .iter()
        .filter_map(|(name, value)| value.as_ref().map(|value| (*name, value.clone())))
        .collect()
}

impl PolicyFlags {
    /// The policy's flags given, with their values.
    pub(super) fn given(&self) -> Vec<(&'static str, String)> {
        given_of(&[
            ("preset", &self.preset),
            ("base", &self.base),
            ("multiplier", &self.multiplier),
            ("cap", &self.cap),
            ("gaps", &self.gaps),
            ("then-every", &self.then_every),
            ("attempts", &self.attempts),
            ("give-up", &self.give_up),
        ])
    }

    /// The preset's parameters (or the article's policy when `defaults`, or nothing), with every
    /// given flag over them.
    fn params_over(&self, defaults: bool) -> Result<Params, Error> {
        let preset = self.preset.as_deref().map(preset).transpose()?;
        let mut params = match &preset {
            Some(preset) => preset.params(),
            None => Params {
                attempts: None,
                ..Params::default()
            },
        };
        // A preset that lists its gaps keeps them: a cap cuts them, and a base or a multiplier
        // (which it has not) is refused rather than replacing the list with a formula.
        let listed = preset
            .as_ref()
            .filter(|preset| preset.policy.explicit_gaps().is_some() && self.gaps.is_none());
        if let Some(preset) = listed {
            return self.over_listed(preset, params);
        }
        // A list of gaps is used as written: the formula's flags would be ignored.
        if self.gaps.is_some() {
            let formula = [
                ("base", &self.base),
                ("multiplier", &self.multiplier),
                ("cap", &self.cap),
            ];
            if let Some((field, Some(text))) = formula.iter().find(|(_, flag)| flag.is_some()) {
                return Err(Error::OutOfRange {
                    field,
                    value: text.clone(),
                    valid: "left out with --gaps (a list of gaps is used as written)".into(),
                });
            }
        }
        // A formula reads no tail: only a list of gaps ends in one. Said before the formula's
        // missing flags, which `--then-every 1h` alone would otherwise be refused for.
        if let (Some(tail), None) = (&self.then_every, &self.gaps) {
            return Err(Error::OutOfRange {
                field: "then-every",
                value: tail.clone(),
                valid: "given only with --gaps or a preset that lists its gaps".into(),
            });
        }
        if self.preset.is_none() && !defaults && self.gaps.is_none() {
            self.formula_given()?;
        }
        if let Some(base) = &self.base {
            params.base = Some(DurationInput::Text(base.clone()));
        }
        if let Some(multiplier) = &self.multiplier {
            params.multiplier = Some(multiplier_number(multiplier)?);
        }
        if let Some(cap) = &self.cap {
            params.cap = Some(DurationInput::Text(cap.clone()));
        }
        if let Some(gaps) = &self.gaps {
            params.gaps = Some(
                gaps.split(',')
                    .map(|g| DurationInput::Text(g.to_string()))
                    .collect(),
            );
        }
        if let Some(tail) = &self.then_every {
            params.then_every = Some(DurationInput::Text(tail.clone()));
        }
        if self.base.is_some() || self.multiplier.is_some() || self.cap.is_some() {
            // Formula flags replace a preset's explicit list.
            if self.gaps.is_none() {
                params.gaps = None;
                params.then_every = None;
            }
        }
        self.stop_over(params)
    }

    /// Without a preset or a list of gaps, the formula's flags are all given; refused otherwise,
    /// naming the first missing and the rest (a stop rule too, when neither is given), so that
    /// a bare command is told everything it needs at once.
    fn formula_given(&self) -> Result<(), Error> {
        let mut missing: Vec<&'static str> = [
            ("base", &self.base),
            ("multiplier", &self.multiplier),
            ("cap", &self.cap),
        ]
        .into_iter()
        .filter(|(_, flag)| flag.is_none())
        .map(|(field, _)| field)
        .collect();
        let Some(&field) = missing.first() else {
            return Ok(());
        };
        if self.attempts.is_none() && self.give_up.is_none() {
            missing.push("attempts or --give-up");
        }
        // The other ways to a schedule: a list of gaps, too (outside review: it went unsaid).
        let otherwise = "or name a --preset that sets them, or list --gaps";
        let valid = match &missing[1..] {
            [] => "given (or taken from a --preset, or left out with --gaps)".to_string(),
            [only] => format!("given (as must --{only}; {otherwise})"),
            [others @ .., last] => format!(
                "given (as must --{} and --{last}; {otherwise})",
                others.join(", --")
            ),
        };
        Err(Error::OutOfRange {
            field,
            value: "nothing".into(),
            valid,
        })
    }

    /// `params` with the stop rule given here, if any, over theirs.
    fn stop_over(&self, mut params: Params) -> Result<Params, Error> {
        if let Some(attempts) = &self.attempts {
            params.attempts = Some(number(
                "attempts",
                attempts,
                "a whole number from 1 to 10000",
            )?);
            params.give_up = None;
        }
        if let Some(give_up) = &self.give_up {
            params.give_up = Some(DurationInput::Text(give_up.clone()));
            params.attempts = None;
        }
        Ok(params)
    }

    /// [`PolicyFlags::params_over`] for `preset`, which lists its gaps (`params` are its own).
    fn over_listed(&self, preset: &Preset, mut params: Params) -> Result<Params, Error> {
        for (flag, field) in [(&self.base, "base"), (&self.multiplier, "multiplier")] {
            if let Some(text) = flag {
                return Err(Error::OutOfRange {
                    field,
                    value: text.clone(),
                    valid: format!(
                        "left out with --preset {}, a list of gaps with no base or multiplier \
                         (--cap cuts its gaps, --gaps replaces them; without --preset the \
                         formula applies)",
                        preset.name
                    ),
                });
            }
        }
        if let Some(cap) = &self.cap {
            let cap_s = DurationInput::Text(cap.clone())
                .seconds_within("cap", &backoff_lab::policy::span_range())?;
            let capped = preset.policy.capped(cap_s)?;
            if let Some((gaps, tail)) = capped.explicit_gaps() {
                params.gaps = Some(gaps.iter().map(|&g| DurationInput::Seconds(g)).collect());
                params.then_every = tail.map(DurationInput::Seconds);
            }
            params.cap = Some(DurationInput::Seconds(capped.cap_s()));
        }
        if let Some(tail) = &self.then_every {
            params.then_every = Some(DurationInput::Text(tail.clone()));
        }
        self.stop_over(params)
    }

    /// The first backoff flag given, with its text (see [`Params::storm_policy_name`]).
    fn first_backoff_flag(&self) -> Option<(&'static str, String)> {
        // The flags given, in order, less the stop's (last), which names no policy.
        self.given()
            .into_iter()
            .find(|(field, _)| !matches!(*field, "attempts" | "give-up"))
    }

    /// The policy's parameters: a flag the policy needs is given or taken from a preset.
    pub(super) fn params(&self) -> Result<Params, Error> {
        self.params_over(false)
    }

    /// The policy's parameters with its jitter: full unless a flag or the preset says otherwise
    /// (the seed as given: [`JitterFlags::checked`] draws one).
    pub(super) fn with_jitter(&self, jitter: &JitterFlags) -> Result<Params, Error> {
        let mut params = jitter.over(self)?;
        if jitter.mode.is_none() && (params.mode.is_none() || self.preset.is_none()) {
            params.mode = Some("full".into());
        }
        Ok(params)
    }
}

/// How one delivery's gaps are jittered, and the seed of the draws.
#[derive(Args)]
pub(super) struct JitterFlags {
    /// How each gap is drawn: none, full, equal, decorrelated or proportional (default: a
    /// preset's own jitter, else full for jitter and herd, none for staleness: exact).
    #[arg(long)]
    mode: Option<String>,
    /// The factor of proportional jitter (0, or 0.000001 to 1; default 0.2).
    #[arg(long, value_name = "F", allow_hyphen_values = true)]
    factor: Option<String>,
    /// The seed of the random draws (0 to 9007199254740991); a fresh one, printed, if absent.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    seed: Option<String>,
}

impl JitterFlags {
    /// `params`, with every key of the command given, checked by the core's rule for keys
    /// without the one that gives them a use, as the JS API checks them (`--factor` without
    /// proportional jitter, `--percentile` without `--deadline`, `--samples` or `--seed` where
    /// nothing is drawn), then seeded: a fresh seed when jittered without one.
    pub(super) fn checked(&self, params: Params, purpose: Purpose) -> Result<Params, Error> {
        params.refuse_keys_without_their_rule(purpose)?;
        params.with_fresh_seed()
    }

    /// Says on stderr which seed was drawn when none was given, the run is jittered (an
    /// unjittered one draws nothing) and the output (CSV) does not carry it: every run can be
    /// repeated.
    pub(super) fn tell_fresh_seed(&self, params: &Params, csv: bool) -> Result<(), Error> {
        let jittered = params.jitter()?.draws();
        if let (None, true, true, Some(seed)) = (&self.seed, csv, jittered, params.seed()?) {
            eprintln!("seed {seed} (drawn fresh: --seed {seed} repeats this run)");
        }
        Ok(())
    }

    /// The policy's parameters with the jitter given here, if any: the preset's own jitter, or
    /// none (exact) otherwise; the seed as given ([`JitterFlags::checked`] draws one).
    pub(super) fn over(&self, policy: &PolicyFlags) -> Result<Params, Error> {
        let mut params = policy.params()?;
        if let Some(mode) = &self.mode {
            params.mode = Some(mode.clone());
        }
        params.factor = factor_number(&self.factor)?;
        params.seed = self.seed.as_deref().map(seed_number).transpose()?;
        Ok(params)
    }
}

/// A storm's scenario: traffic, destination, outage, the retry policy and what protects the
/// destination (budget, rate limit, pause, Retry-After, retry quota, circuit breaker).
#[derive(Args)]
pub(super) struct StormFlags {
    /// Steady first deliveries, 0.000001 to 1000000 a second (default 600/min).
    #[arg(long, value_name = "RATE", allow_hyphen_values = true)]
    arrivals: Option<String>,
    /// How long the steady traffic lasts, 1 s to 7 days in whole seconds (rounded; default 2h),
    /// or 0 s beside a --batch.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    traffic: Option<String>,
    /// A one-off batch of 1 to 10000000 deliveries (e.g. a batch import).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    batch: Option<String>,
    /// When the batch arrives, from 0 s to 6 days 23 h 59 min 59 s (under 7 days) in whole
    /// seconds (rounded; default 0s).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    batch_at: Option<String>,
    /// The destination's healthy capacity, 0.000001 to 10000000 a second (default 30/s).
    #[arg(long, value_name = "RATE", allow_hyphen_values = true)]
    capacity: Option<String>,
    /// The destination's healthy latency, from 0 s to less than the timeout (default 50ms).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    latency: Option<String>,
    /// The sender's timeout, 1 µs to 1 h (default 5s).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    timeout: Option<String>,
    /// How long the outage lasts, 0 s or from 0.5 s to 6 days 23 h 59 min 59 s (under 7 days), in
    /// whole seconds (rounded; default 10m).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    outage: Option<String>,
    /// When the outage starts, from 0 s in whole seconds (rounded; default 0s): the outage must end
    /// before 7 days, so that its recovery is simulated.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    outage_start: Option<String>,
    /// fixed (the default without a preset or policy flags) or exponential (the backoff policy
    /// given by --preset, --base/--multiplier/--cap or --gaps; for what is not given, the
    /// article's 30 s × 3 capped at 3 h, and a give-up time of 24 h, which is its 14 attempts).
    #[arg(long)]
    policy: Option<String>,
    /// The fixed policy's interval, from 1 µs to 365 days (default 30s).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    interval: Option<String>,
    #[command(flatten)]
    backoff: PolicyFlags,
    /// Jitter mode: none, full, equal, decorrelated, proportional (default: a preset's own,
    /// else none; `figure distribution` and `figure herd`: full, as `jitter` and `herd`).
    #[arg(long)]
    mode: Option<String>,
    /// The factor of proportional jitter (0, or 0.000001 to 1; default 0.2).
    #[arg(long, value_name = "F", allow_hyphen_values = true)]
    factor: Option<String>,
    /// The seed of the jittered gaps and of the order retries are served in (default 42).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    seed: Option<String>,
    /// A retry budget, 0% or 0.00005 to 100 percent (10 or 10%; whole parts per million): retries
    /// at most this share of the first attempts over the trailing window, plus a floor of
    /// --budget-floor retries a second over it.
    #[arg(long, value_name = "PERCENT", allow_hyphen_values = true)]
    budget: Option<String>,
    /// The budget's trailing window, whole seconds from 1 s to 1 h (default 60s).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    budget_window: Option<String>,
    /// The budget's floor: retries a second it allows whatever the first attempts, so that a
    /// backlog drains once they stop (0 to 10000000/s; default 0.5/s; 0 for a pure share).
    #[arg(long, value_name = "RATE", allow_hyphen_values = true)]
    budget_floor: Option<String>,
    /// A per-endpoint rate limit on all attempts, 0.000001 to 10000000 a second.
    #[arg(long, value_name = "RATE", allow_hyphen_values = true)]
    rate_limit: Option<String>,
    /// Hold deliveries while the endpoint is down; from recovery on, send at most --resume-rate.
    #[arg(long)]
    pause: bool,
    /// After a pause, attempts per second at most, 0.000001 to 10000000 (default: the rate limit if
    /// set, else capacity × min(1 s, timeout − latency), at least 1/s).
    #[arg(long, value_name = "RATE", allow_hyphen_values = true)]
    resume_rate: Option<String>,
    /// When overloaded the destination answers 429 with this Retry-After, 1 µs to 1 day.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    retry_after: Option<String>,
    /// The queue wait above which it does, 1 µs to 1 h (default 1s).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    retry_after_threshold: Option<String>,
    /// The destination skips requests whose sender already timed out.
    #[arg(long)]
    abandon: bool,
    /// A token bucket on retries: aws (the AWS SDKs' standard retry mode: 500 tokens, 10 a
    /// retry) or grpc (gRPC's retry throttling: retries only above half the tokens).
    #[arg(long, value_name = "NAME")]
    retry_quota: Option<String>,
    /// The retry quota's bucket size in tokens: aws 10 to 1000000 (default 500), grpc 1 to 1000
    /// (default 10).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    retry_quota_tokens: Option<String>,
    /// Tokens a success gives back under --retry-quota grpc, 0.000001 to 1 (default 0.1).
    #[arg(long, value_name = "R", allow_hyphen_values = true)]
    retry_quota_ratio: Option<String>,
    /// A circuit breaker: open after this many consecutive failures, 1 to 10000.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    breaker_failures: Option<String>,
    /// A circuit breaker: open when this share of the attempts over its window failed (a whole
    /// percentage, such as 50%).
    #[arg(long, value_name = "PERCENT", allow_hyphen_values = true)]
    breaker_share: Option<String>,
    /// The window of --breaker-share, whole seconds from 1 s to 1 h (default 30s).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    breaker_window: Option<String>,
    /// Attempts the window must hold before --breaker-share counts, 1 to 1000000 (default 100).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    breaker_min_attempts: Option<String>,
    /// How long the breaker stays open before it probes, whole seconds from 1 s to 1 h (default
    /// 30s).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    breaker_cooldown: Option<String>,
    /// Attempts sent at most each second while the breaker is half-open, 1 to 1000 (default 1).
    #[arg(long, value_name = "P", allow_hyphen_values = true)]
    breaker_probes: Option<String>,
    /// discrete (every delivery, seeded; the default of storm), fluid (expected values, fast;
    /// the default of survival), auto (fluid where it represents the scenario, else discrete)
    /// or arithmetic (the article's table; the storm command only).
    #[arg(long)]
    engine: Option<String>,
}

impl StormFlags {
    /// The first backoff flag given (`--preset`, `--base`, … `--then-every`), with its text.
    pub(super) fn backoff_given(&self) -> Option<(&'static str, String)> {
        self.backoff.first_backoff_flag()
    }

    /// The flags given that only a storm reads (traffic, destination, sender and bounds; not
    /// the policy, the jitter nor the outage), with their values, in the order of `--help`.
    pub(super) fn storm_only_given(&self) -> Vec<(&'static str, String)> {
        let flag =
            |name: &'static str, value: &Option<String>| value.clone().map(|value| (name, value));
        let switch = |name: &'static str, on: bool| on.then(|| (name, format!("--{name}")));
        [
            flag("arrivals", &self.arrivals),
            flag("traffic", &self.traffic),
            flag("batch", &self.batch),
            flag("batch-at", &self.batch_at),
            flag("capacity", &self.capacity),
            flag("latency", &self.latency),
            flag("timeout", &self.timeout),
            flag("outage-start", &self.outage_start),
            flag("policy", &self.policy),
            flag("interval", &self.interval),
            flag("budget", &self.budget),
            flag("budget-window", &self.budget_window),
            flag("budget-floor", &self.budget_floor),
            flag("rate-limit", &self.rate_limit),
            switch("pause", self.pause),
            flag("resume-rate", &self.resume_rate),
            flag("retry-after", &self.retry_after),
            flag("retry-after-threshold", &self.retry_after_threshold),
            switch("abandon", self.abandon),
            flag("retry-quota", &self.retry_quota),
            flag("retry-quota-tokens", &self.retry_quota_tokens),
            flag("retry-quota-ratio", &self.retry_quota_ratio),
            flag("breaker-failures", &self.breaker_failures),
            flag("breaker-share", &self.breaker_share),
            flag("breaker-window", &self.breaker_window),
            flag("breaker-min-attempts", &self.breaker_min_attempts),
            flag("breaker-cooldown", &self.breaker_cooldown),
            flag("breaker-probes", &self.breaker_probes),
            flag("engine", &self.engine),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// The policy's flags given (`--preset`, `--base`, … `--give-up`), with their values.
    pub(super) fn policy_given(&self) -> Vec<(&'static str, String)> {
        self.backoff.given()
    }

    /// `--outage`, if given.
    pub(super) fn outage_given(&self) -> Option<(&'static str, String)> {
        self.outage.clone().map(|value| ("outage", value))
    }

    /// The jitter's flags given (`--mode`, `--factor`, `--seed`), with their values.
    pub(super) fn jitter_given(&self) -> Vec<(&'static str, String)> {
        given_of(&[
            ("mode", &self.mode),
            ("factor", &self.factor),
            ("seed", &self.seed),
        ])
    }

    /// The parameters with `engine` when no `--engine` was given.
    pub(super) fn params_with_engine(&self, engine: &str) -> Result<Params, Error> {
        Ok(Params {
            engine: Some(self.engine.clone().unwrap_or_else(|| engine.into())),
            ..self.params()?
        })
    }

    /// The scenario's parameters: the article's storm where a flag is not given, under the
    /// fixed policy unless a backoff policy is given.
    pub(super) fn params(&self) -> Result<Params, Error> {
        let duration = |text: &Option<String>| text.clone().map(DurationInput::Text);
        let number_input = |text: &Option<String>| text.clone().map(NumberInput::Text);
        let backoff = &self.backoff;
        let policy =
            Params::storm_policy_name(self.policy.as_deref(), backoff.first_backoff_flag())?;
        let mut params = backoff.params_over(true)?;
        if let Some(mode) = &self.mode {
            params.mode = Some(mode.clone());
        }
        params.factor = factor_number(&self.factor)?;
        let params = Params {
            seed: self.seed.as_deref().map(seed_number).transpose()?,
            arrivals: number_input(&self.arrivals),
            traffic: duration(&self.traffic),
            batch: self
                .batch
                .as_deref()
                .map(|n| number("batch", n, "a whole number from 1 to 10000000"))
                .transpose()?,
            batch_at: duration(&self.batch_at),
            capacity: number_input(&self.capacity),
            latency: duration(&self.latency),
            timeout: duration(&self.timeout),
            outage: duration(&self.outage),
            outage_start: duration(&self.outage_start),
            policy: Some(policy),
            interval: duration(&self.interval),
            budget: number_input(&self.budget),
            budget_window: duration(&self.budget_window),
            budget_floor: number_input(&self.budget_floor),
            rate_limit: number_input(&self.rate_limit),
            pause: self.pause.then_some(true),
            resume_rate: number_input(&self.resume_rate),
            retry_after: duration(&self.retry_after),
            retry_after_threshold: duration(&self.retry_after_threshold),
            abandon: self.abandon.then_some(true),
            retry_quota: self.retry_quota.clone(),
            retry_quota_tokens: flag_number(
                &self.retry_quota_tokens,
                "retry-quota-tokens",
                "a whole number of tokens (10 to 1000000 for aws, 1 to 1000 for grpc)",
            )?,
            retry_quota_ratio: flag_number(
                &self.retry_quota_ratio,
                "retry-quota-ratio",
                "a number from 0.000001 to 1",
            )?,
            breaker_failures: flag_number(
                &self.breaker_failures,
                "breaker-failures",
                "a whole number from 1 to 10000",
            )?,
            breaker_share: number_input(&self.breaker_share),
            breaker_window: duration(&self.breaker_window),
            breaker_min_attempts: flag_number(
                &self.breaker_min_attempts,
                "breaker-min-attempts",
                "a whole number from 1 to 1000000",
            )?,
            breaker_cooldown: duration(&self.breaker_cooldown),
            breaker_probes: flag_number(
                &self.breaker_probes,
                "breaker-probes",
                "a whole number from 1 to 1000",
            )?,
            engine: Some(self.engine.clone().unwrap_or_else(|| "discrete".into())),
            ..params
        };
        // `--factor` without proportional jitter, as the JS API refuses it.
        params.refuse_keys_without_their_rule(Purpose::Storm)?;
        Ok(params)
    }
}

/// The formats of the commands with a Markdown form (schedule, presets).
#[derive(Clone, Copy, PartialEq, ValueEnum)]
pub(super) enum Format {
    Table,
    Markdown,
    Csv,
    Json,
}

impl Format {
    /// `report` in this format: the data formats as [`DataFormat::render`], and Markdown.
    pub(super) fn render<T: Serialize>(
        self,
        report: &T,
        table: impl FnOnce(&T) -> String,
        markdown: impl FnOnce(&T) -> String,
        csv: impl FnOnce(&T) -> String,
    ) -> String {
        let data = match self {
            Format::Markdown => return markdown(report),
            Format::Table => DataFormat::Table,
            Format::Csv => DataFormat::Csv,
            Format::Json => DataFormat::Json,
        };
        data.render(report, table, csv)
    }
}

/// The formats of the commands without one (jitter, herd, storm).
#[derive(Clone, Copy, PartialEq, ValueEnum)]
pub(super) enum DataFormat {
    Table,
    Csv,
    Json,
}

impl DataFormat {
    /// The format as `--format` takes it.
    pub(super) fn name(self) -> &'static str {
        match self {
            DataFormat::Table => "table",
            DataFormat::Csv => "csv",
            DataFormat::Json => "json",
        }
    }

    /// `report` in this format: JSON from serde, the others from the report's own forms.
    pub(super) fn render<T: Serialize>(
        self,
        report: &T,
        table: impl FnOnce(&T) -> String,
        csv: impl FnOnce(&T) -> String,
    ) -> String {
        match self {
            DataFormat::Table => table(report),
            DataFormat::Csv => csv(report),
            DataFormat::Json => json(report),
        }
    }
}

fn json<T: Serialize>(value: &T) -> String {
    // Reports are plain numbers, strings, arrays and options: serializing them cannot fail.
    serde_json::to_string_pretty(value).unwrap_or_default() + "\n"
}

/// A number from a flag; text that is not one gets the field's range in the message.
pub(super) fn number(field: &'static str, text: &str, valid: &str) -> Result<f64, Error> {
    match text.trim().parse::<f64>() {
        // Past 2^53, beyond every range a flag read here has (the seed's ends at 2^53 − 1), the
        // number is refused as typed: the core quoted what it was given, and
        // 123456789012345678901 read back as 123456789012345680000 (outside review).
        Ok(number) if number.abs() >= 9_007_199_254_740_992.0 && number.is_finite() => {
            Err(Error::out_of_range(field, text.trim(), valid))
        }
        // An overflowing number (`1e400`, 100,000 digits) is quoted as given, not as "inf";
        // `NaN` and `inf` are read as what they say, and refused by the field's range.
        Ok(number) if number.is_finite() || !text.contains(|c: char| c.is_ascii_digit()) => {
            Ok(number)
        }
        _ => Err(Error::OutOfRange {
            field,
            value: format!("{text:?}"),
            valid: valid.to_string(),
        }),
    }
}

/// An optional flag's number; text that is not one gets the field's range in the message.
fn flag_number(
    text: &Option<String>,
    field: &'static str,
    valid: &str,
) -> Result<Option<f64>, Error> {
    text.as_deref()
        .map(|text| number(field, text, valid))
        .transpose()
}

/// A count of samples or deliveries (`field`): 1 to 10,000,000.
pub(super) fn count_number(field: &'static str, text: &str) -> Result<f64, Error> {
    number(field, text, "a whole number from 1 to 10000000")
}

/// A multiplier: 1 to 1000.
pub(super) fn multiplier_number(text: &str) -> Result<f64, Error> {
    number("multiplier", text, "a number from 1 to 1000")
}

/// A seed: any whole number a JavaScript number holds exactly, as on the page.
fn seed_number(text: &str) -> Result<f64, Error> {
    let valid = "a whole number from 0 to 9007199254740991";
    let seed = number("seed", text, valid)?;
    // Refused as written: 18446744073709551616 read back as 18446744073709552000.
    match backoff_lab::jitter::seed_from_f64(seed) {
        Ok(_) => Ok(seed),
        Err(_) => Err(Error::out_of_range("seed", text.trim(), valid)),
    }
}

/// The factor of proportional jitter, if given: 0 to 1. With another mode it is refused by the
/// core's rule ([`JitterFlags::checked`], [`Params::refuse_keys_without_their_rule`]).
fn factor_number(factor: &Option<String>) -> Result<Option<f64>, Error> {
    flag_number(factor, "factor", "a number from 0 to 1")
}

/// The survival map's axes, as `survival` and `figure survival` take them.
#[derive(Args)]
pub(super) struct MapAxesFlags {
    /// The outage axis, two durations (log-spaced between them).
    // Hyphens allowed: `--outages -1s..1h` is refused by the axis' own rule, with its range.
    #[arg(long, value_name = "FROM..TO", default_value = backoff_lab::survival::DEFAULT_TEXT.0, allow_hyphen_values = true)]
    outages: String,
    /// The headroom axis (capacity ÷ arrival rate), two ratios (log-spaced between them). On the
    /// fluid engine the default starts no lower than the least headroom whose every cell it runs
    /// (20 requests within the destination's limits in a second).
    #[arg(long, value_name = "FROM..TO", default_value = backoff_lab::survival::DEFAULT_TEXT.1, allow_hyphen_values = true)]
    headroom: String,
    /// Steps on each axis: outages x headroom, 2 to 64 on each and at most 1024 cells in all
    /// (32x32, 64x16).
    #[arg(long, value_name = "NxM", default_value = backoff_lab::survival::DEFAULT_TEXT.2, allow_hyphen_values = true)]
    steps: String,
}

impl MapAxesFlags {
    /// The axes given away from their defaults, with their values.
    pub(super) fn given(&self) -> Vec<(&'static str, String)> {
        let defaults = backoff_lab::survival::DEFAULT_TEXT;
        [
            ("outages", &self.outages, defaults.0),
            ("headroom", &self.headroom, defaults.1),
            ("steps", &self.steps, defaults.2),
        ]
        .into_iter()
        .filter(|(_, value, default)| value.as_str() != *default)
        .map(|(name, value, _)| (name, value.clone()))
        .collect()
    }

    /// Refuses axes that are no axes, before the scenario is read (as the map always has: a
    /// `--steps 100x100` is told before a bad `--capacity`).
    pub(super) fn check(&self) -> Result<(), Error> {
        backoff_lab::survival::Axes::from_text(&self.outages, &self.headroom, &self.steps)
            .map(|_| ())
    }

    /// The axes of a map of `yours` on `engine`, checked (the default headroom fitted to the
    /// engine: [`backoff_lab::survival::fitted_axes`]).
    pub(super) fn axes(
        &self,
        yours: &backoff_lab::storm::Spec,
        engine: backoff_lab::Engine,
    ) -> Result<backoff_lab::survival::Axes, Error> {
        backoff_lab::survival::fitted_axes(
            yours,
            engine,
            (&self.outages, &self.headroom, &self.steps),
        )
    }
}
