//! The `backoff-lab` command line (part of the binary, not the library): a thin edge over it.

use std::io::Write;
use std::process::ExitCode;

use backoff_lab::give_up::JitterReport;
use backoff_lab::herd::herd;
use backoff_lab::jitter::fresh_seed;
use backoff_lab::{
    format_duration, format_exact, whole_number, DurationInput, Error, Params, ScheduleReport,
};
use clap::{Args, Parser, Subcommand, ValueEnum};

const EXAMPLES: &str = "\
Examples:
  backoff-lab schedule --base 30s --multiplier 3 --cap 3h --attempts 14
  backoff-lab schedule --base 30s --multiplier 3 --cap 3h --give-up 24h --format json
  backoff-lab solve-cap --base 30s --multiplier 3 --attempts 14 --give-up 24h
  backoff-lab jitter --base 30s --multiplier 3 --cap 3h --attempts 14 --mode full --seed 42
  backoff-lab jitter --base 30s --multiplier 3 --cap 3h --attempts 14 --mode full --deadline 24h
  backoff-lab herd --deliveries 1000 --base 30s --multiplier 3 --cap 3h --attempts 14 --mode full --seed 42

Durations: 30s, 90 s, 4m30s, 4.5min, 3h, 1d, 2h30m (a bare number is seconds).";

/// Reason about retry schedules: the gap before retry k is min(cap, base × multiplier^(k-1)).
#[derive(Parser)]
#[command(name = "backoff-lab", version, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Every attempt's gap and elapsed time, the give-up time and the derived facts.
    #[command(after_help = EXAMPLES)]
    Schedule {
        #[command(flatten)]
        policy: PolicyFlags,
        /// The early window for "attempts inside the first ..." (default 20 min).
        #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
        window: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// The smallest cap with which N attempts reach a give-up deadline.
    #[command(after_help = EXAMPLES)]
    SolveCap {
        /// Gap before the first retry.
        #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
        base: String,
        /// Growth factor between consecutive gaps (1 to 1000).
        #[arg(long, value_name = "X", allow_hyphen_values = true)]
        multiplier: String,
        /// Attempts in all, the first delivery included (2 to 10000).
        #[arg(long, value_name = "N", allow_hyphen_values = true)]
        attempts: String,
        /// The deadline the last attempt must reach.
        #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
        give_up: String,
    },
    /// One delivery under jitter: expected and percentile give-up times, exact and sampled.
    #[command(after_help = EXAMPLES)]
    Jitter {
        #[command(flatten)]
        policy: PolicyFlags,
        #[command(flatten)]
        jitter: JitterFlags,
        /// Give-up times to sample (1 to 10000000).
        #[arg(
            long,
            value_name = "N",
            default_value = "1000000",
            allow_hyphen_values = true
        )]
        samples: String,
        /// Also size the schedule: how many attempts keep the --percentile above this deadline.
        #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
        deadline: Option<String>,
        /// The percentile (in percent) that must reach --deadline.
        #[arg(
            long,
            value_name = "P",
            default_value = "5",
            allow_hyphen_values = true
        )]
        percentile: String,
        /// Output format: table, csv or json.
        #[arg(long, value_enum, default_value_t = DataFormat::Table)]
        format: DataFormat,
    },
    /// A retry storm: what a policy does to a destination's load during and after an outage.
    #[command(after_help = STORM_EXAMPLES)]
    Storm(Box<StormArgs>),
    /// Every preset: a provider's published schedule, its give-up time and its source.
    Presets {
        /// Output format (table, markdown or json).
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// A chart as SVG, drawn by the same Rust function as the page: for documentation.
    #[command(after_help = FIGURE_EXAMPLES)]
    Figure(Box<FigureArgs>),
    /// Many deliveries that failed in the same second: their retries per second.
    #[command(after_help = EXAMPLES)]
    Herd {
        /// Deliveries that failed together (1 to 10000000).
        #[arg(
            long,
            value_name = "N",
            default_value = "1000",
            allow_hyphen_values = true
        )]
        deliveries: String,
        #[command(flatten)]
        policy: PolicyFlags,
        #[command(flatten)]
        jitter: JitterFlags,
        /// Output format: table, csv or json.
        #[arg(long, value_enum, default_value_t = DataFormat::Table)]
        format: DataFormat,
    },
}

const FIGURE_EXAMPLES: &str = "\
Examples:
  backoff-lab figure timeline --base 30s --multiplier 3 --cap 3h --attempts 14 --log-scale > timeline.svg
  backoff-lab figure distribution --base 30s --multiplier 3 --cap 3h --attempts 14 --mode full --seed 42 > distribution.svg
  backoff-lab figure herd --mode full --seed 42 > herd.svg
  backoff-lab figure storm --budget 10% --height 420 > storm.svg";

const STORM_EXAMPLES: &str = "\
Examples:
  backoff-lab storm                                   the article's fixed 30 s storm
  backoff-lab storm --engine arithmetic               the article's per-minute table
  backoff-lab storm --policy exponential --base 30s --multiplier 3 --cap 3h --mode full --seed 42
  backoff-lab storm --budget 10%
  backoff-lab storm --rate-limit 25/s --format csv
  backoff-lab storm --policy exponential --base 30s --multiplier 3 --cap 3h --pause --format json

Rates: 600/min, 30/s, 36000/h (a bare number is per second). Percentages: 10% or 10.";

#[derive(Args)]
struct StormFlags {
    /// Steady first deliveries (default 600/min).
    #[arg(long, value_name = "RATE", allow_hyphen_values = true)]
    arrivals: Option<String>,
    /// How long the steady traffic lasts (default 2h).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    traffic: Option<String>,
    /// A one-off batch of deliveries (e.g. a batch import).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    batch: Option<String>,
    /// When the batch arrives (default 0s).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    batch_at: Option<String>,
    /// The destination's healthy capacity (default 30/s).
    #[arg(long, value_name = "RATE", allow_hyphen_values = true)]
    capacity: Option<String>,
    /// The destination's healthy latency (default 50ms).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    latency: Option<String>,
    /// The sender's timeout (default 5s).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    timeout: Option<String>,
    /// How long the outage lasts (default 10m).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    outage: Option<String>,
    /// When the outage starts (default 0s).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    outage_start: Option<String>,
    /// fixed (the default without a preset or policy flags) or exponential (the backoff policy
    /// given by --preset, --base/--multiplier/--cap or --gaps).
    #[arg(long)]
    policy: Option<String>,
    /// The fixed policy's interval (default 30s).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    interval: Option<String>,
    #[command(flatten)]
    backoff: PolicyFlags,
    /// Jitter mode: none (default), full, equal, decorrelated, proportional.
    #[arg(long)]
    mode: Option<String>,
    /// The factor of proportional jitter (0 to 1).
    #[arg(long, value_name = "F", allow_hyphen_values = true)]
    factor: Option<String>,
    /// The seed of the jittered gaps and of the order retries are served in (default 42).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    seed: Option<String>,
    /// A retry budget: retries at most this share of first attempts over the trailing window.
    #[arg(long, value_name = "PERCENT", allow_hyphen_values = true)]
    budget: Option<String>,
    /// The budget's trailing window (default 60s).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    budget_window: Option<String>,
    /// A per-endpoint rate limit on all attempts.
    #[arg(long, value_name = "RATE", allow_hyphen_values = true)]
    rate_limit: Option<String>,
    /// Hold deliveries while the endpoint is down; from recovery on, send at most --resume-rate.
    #[arg(long)]
    pause: bool,
    /// After a pause, attempts per second at most (default: the rate limit if set, else what
    /// the destination answers in time in one second from an empty queue).
    #[arg(long, value_name = "RATE", allow_hyphen_values = true)]
    resume_rate: Option<String>,
    /// When overloaded the destination answers 429 with this Retry-After.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    retry_after: Option<String>,
    /// The queue wait above which it does (default 1s).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    retry_after_threshold: Option<String>,
    /// The destination skips requests whose sender already timed out.
    #[arg(long)]
    abandon: bool,
    /// discrete (default: every delivery, seeded), fluid (expected values, fast), auto (fluid
    /// where it represents the scenario, else discrete) or arithmetic (the article's table).
    #[arg(long, default_value = "discrete")]
    engine: String,
}

#[derive(Args)]
struct StormArgs {
    #[command(flatten)]
    scenario: StormFlags,
    /// With --format csv: one line per second instead of per minute.
    #[arg(long)]
    per_second: bool,
    /// Output format: table, csv or json.
    #[arg(long, value_enum, default_value_t = DataFormat::Table)]
    format: DataFormat,
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum FigureKind {
    Timeline,
    Distribution,
    Herd,
    Storm,
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum FigureFormat {
    Svg,
}

#[derive(Args)]
struct FigureArgs {
    /// Which chart.
    #[arg(value_enum)]
    kind: FigureKind,
    #[command(flatten)]
    scenario: StormFlags,
    /// Give-up times sampled for the distribution.
    #[arg(
        long,
        value_name = "N",
        default_value = "100000",
        allow_hyphen_values = true
    )]
    samples: String,
    /// Deliveries in the herd.
    #[arg(
        long,
        value_name = "N",
        default_value = "1000",
        allow_hyphen_values = true
    )]
    deliveries: String,
    /// Width in pixels (100 to 4000).
    #[arg(long, default_value_t = 900)]
    width: u32,
    /// Height in pixels (100 to 4000).
    #[arg(long, default_value_t = 320)]
    height: u32,
    /// Colours for a dark page.
    #[arg(long)]
    dark: bool,
    /// A logarithmic time axis (timeline).
    #[arg(long)]
    log_scale: bool,
    /// Output format: the same Rust chart function as the page, through plotters' SVG backend.
    #[arg(long, value_enum, default_value_t = FigureFormat::Svg)]
    format: FigureFormat,
}

impl FigureArgs {
    fn svg(&self) -> Result<String, Error> {
        use backoff_lab::chart::{self, ChartOptions};
        for (field, value) in [("width", self.width), ("height", self.height)] {
            if !(100..=4_000).contains(&value) {
                return Err(Error::OutOfRange {
                    field,
                    value: value.to_string(),
                    valid: "a number of pixels from 100 to 4000".into(),
                });
            }
        }
        let mut params = self.scenario.params()?;
        if params.attempts.is_none() && params.give_up.is_none() && self.kind != FigureKind::Storm {
            params.attempts = Some(14.0);
        }
        params.samples = Some(number(
            "samples",
            &self.samples,
            "a whole number from 1 to 10000000",
        )?);
        params.deliveries = Some(number(
            "deliveries",
            &self.deliveries,
            "a whole number from 1 to 10000000",
        )?);
        let options = ChartOptions {
            dark: self.dark,
            scale: 1.0,
            log_scale: self.log_scale,
        };
        let size = (self.width, self.height);
        match self.kind {
            FigureKind::Timeline => {
                let schedule = params.policy()?.schedule();
                chart::to_svg(size, |area| {
                    chart::timeline::draw(area, &schedule, &options)
                })
            }
            FigureKind::Distribution => {
                let seed = params.seed()?.unwrap_or_default();
                let report = JitterReport::new(
                    &params.policy()?,
                    params.jitter()?,
                    params.samples()?,
                    seed,
                    backoff_lab::give_up::HISTOGRAM_BINS,
                    None,
                )?;
                chart::to_svg(size, |area| {
                    chart::distribution::draw(area, &report, &options)
                })
            }
            FigureKind::Herd => {
                let (policy, seed) = (params.policy()?, params.seed()?.unwrap_or_default());
                let spread = herd(&policy, params.jitter()?, params.deliveries()?, seed)?;
                let spike = herd(
                    &policy,
                    backoff_lab::jitter::Jitter::None,
                    params.deliveries()?,
                    seed,
                )?;
                chart::to_svg(size, |area| {
                    chart::herd::draw(area, &spread, Some(&spike), &options)
                })
            }
            FigureKind::Storm => {
                let scenario = params.scenario()?;
                let engine = params.engine()?;
                let report = backoff_lab::storm::simulate(&scenario, engine, false)?;
                let label = if params.policy.as_deref() == Some("fixed") {
                    "fixed interval"
                } else {
                    "backoff"
                };
                let series = [chart::storm::Series {
                    label: label.into(),
                    scenario: &scenario,
                    report: &report,
                }];
                chart::to_svg(size, |area| chart::storm::draw(area, &series, &options))
            }
        }
    }
}

impl StormFlags {
    fn params(&self) -> Result<Params, Error> {
        let duration = |text: &Option<String>| text.clone().map(DurationInput::Text);
        let number_input = |text: &Option<String>| text.clone().map(backoff_lab::NumberInput::Text);
        let backoff = &self.backoff;
        let backoff_given =
            backoff.preset.is_some() || backoff.gaps.is_some() || backoff.base.is_some();
        let policy = self.policy.clone().unwrap_or_else(|| {
            if backoff_given {
                "exponential"
            } else {
                "fixed"
            }
            .into()
        });
        let mut params = backoff.params_over(true)?;
        if let Some(mode) = &self.mode {
            params.mode = Some(mode.clone());
        }
        if let Some(factor) = &self.factor {
            params.factor = Some(number("factor", factor, "a number from 0 to 1")?);
        }
        Ok(Params {
            seed: self
                .seed
                .as_deref()
                .map(|seed| number("seed", seed, "a whole number from 0 to 9007199254740991"))
                .transpose()?,
            arrivals: number_input(&self.arrivals),
            traffic: duration(&self.traffic),
            batch: self
                .batch
                .as_deref()
                .map(|n| number("batch", n, "a whole number from 0 to 10000000"))
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
            rate_limit: number_input(&self.rate_limit),
            pause: self.pause.then_some(true),
            resume_rate: number_input(&self.resume_rate),
            retry_after: duration(&self.retry_after),
            retry_after_threshold: duration(&self.retry_after_threshold),
            abandon: self.abandon.then_some(true),
            engine: Some(self.engine.clone()),
            ..params
        })
    }
}

#[derive(Args)]
struct PolicyFlags {
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
    /// An explicit schedule instead: the gaps, comma-separated (5s,5m,30m,2h).
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

impl PolicyFlags {
    /// The preset's parameters (or the article's policy when `defaults`, or nothing), with every
    /// given flag over them.
    fn params_over(&self, defaults: bool) -> Result<Params, Error> {
        let mut params = match &self.preset {
            Some(name) => backoff_lab::presets::preset(name)?.params(),
            None => Params {
                attempts: None,
                ..Params::default()
            },
        };
        let given = |flag: &Option<String>, field: &'static str| -> Result<Option<String>, Error> {
            match flag {
                Some(text) => Ok(Some(text.clone())),
                None if self.preset.is_some() || defaults || self.gaps.is_some() => Ok(None),
                None => Err(Error::OutOfRange {
                    field,
                    value: "nothing".into(),
                    valid: "given (or taken from a --preset)".into(),
                }),
            }
        };
        if let Some(base) = given(&self.base, "base")? {
            params.base = DurationInput::Text(base);
        }
        if let Some(multiplier) = given(&self.multiplier, "multiplier")? {
            params.multiplier = number("multiplier", &multiplier, "a number from 1 to 1000")?;
        }
        if let Some(cap) = given(&self.cap, "cap")? {
            params.cap = DurationInput::Text(cap);
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

    fn params(&self) -> Result<Params, Error> {
        self.params_over(false)
    }

    fn with_jitter(&self, jitter: &JitterFlags) -> Result<Params, Error> {
        let seed = match &jitter.seed {
            Some(seed) => number("seed", seed, "a whole number from 0 to 9007199254740991")?,
            None => fresh_seed()? as f64,
        };
        let mut params = self.params()?;
        if let Some(mode) = &jitter.mode {
            params.mode = Some(mode.clone());
        } else if params.mode.is_none() || self.preset.is_none() {
            params.mode = Some("full".into());
        }
        if let Some(factor) = &jitter.factor {
            params.factor = Some(number("factor", factor, "a number from 0 to 1")?);
        }
        params.seed = Some(seed);
        Ok(params)
    }
}

#[derive(Args)]
struct JitterFlags {
    /// How each gap is drawn: none, full (default), equal, decorrelated or proportional.
    #[arg(long)]
    mode: Option<String>,
    /// The factor of proportional jitter (0 to 1, default 0.2).
    #[arg(long, value_name = "F", allow_hyphen_values = true)]
    factor: Option<String>,
    /// The seed of the random draws (0 to 9007199254740991); a fresh one, printed, if absent.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    seed: Option<String>,
}

/// The formats of the commands with a Markdown form (schedule, presets).
#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum Format {
    Table,
    Markdown,
    Csv,
    Json,
}

/// The formats of the commands without one (jitter, herd, storm).
#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum DataFormat {
    Table,
    Csv,
    Json,
}

/// A number from a flag; text that is not one gets the field's range in the message.
fn number(field: &'static str, text: &str, valid: &str) -> Result<f64, Error> {
    text.trim().parse::<f64>().map_err(|_| Error::OutOfRange {
        field,
        value: format!("{text:?}"),
        valid: valid.to_string(),
    })
}

fn json<T: serde::Serialize>(value: &T) -> String {
    // Reports are plain numbers, strings, arrays and options: serializing them cannot fail.
    serde_json::to_string_pretty(value).unwrap_or_default() + "\n"
}

fn run(command: Command) -> Result<String, Error> {
    match command {
        Command::Schedule {
            policy,
            window,
            format,
        } => {
            let params = Params {
                window: window.map(DurationInput::Text),
                ..policy.params()?
            };
            let report = ScheduleReport::new(&params.policy()?.schedule(), params.window_s()?);
            Ok(match format {
                Format::Table => report.to_table(),
                Format::Markdown => report.to_markdown(),
                Format::Csv => report.to_csv(),
                Format::Json => json(&report),
            })
        }
        Command::SolveCap {
            base,
            multiplier,
            attempts,
            give_up,
        } => {
            let attempts = number("attempts", &attempts, "a whole number from 2 to 10000")?;
            let attempts = whole_number("attempts", attempts, 2, 10_000)? as u32;
            let params = Params {
                base: DurationInput::Text(base),
                multiplier: number("multiplier", &multiplier, "a number from 1 to 1000")?,
                cap: backoff_lab::policy::MAX_SPAN_S.into(),
                attempts: Some(1.0),
                ..Params::default()
            };
            let deadline = DurationInput::Text(give_up).seconds("give-up")?;
            let cap = params.policy()?.cap_for_deadline(deadline, attempts)?;
            Ok(format!(
                "A cap of {} ({cap:.3} s) makes {attempts} attempts reach {}.\n",
                format_exact(cap),
                format_duration(deadline)
            ))
        }
        Command::Jitter {
            policy,
            jitter,
            samples,
            deadline,
            percentile,
            format,
        } => {
            let params = Params {
                samples: Some(number(
                    "samples",
                    &samples,
                    "a whole number from 1 to 10000000",
                )?),
                deadline: deadline.map(DurationInput::Text),
                percentile: Some(number(
                    "percentile",
                    &percentile,
                    "a percentage between 0 and 100",
                )?),
                ..policy.with_jitter(&jitter)?
            };
            let report = JitterReport::new(
                &params.policy()?,
                params.jitter()?,
                params.samples()?,
                params.seed()?.unwrap_or_default(),
                backoff_lab::give_up::HISTOGRAM_BINS,
                params.deadline()?,
            )?;
            Ok(match format {
                DataFormat::Json => json(&report),
                DataFormat::Csv => report.to_csv(),
                DataFormat::Table => report.to_table(),
            })
        }
        Command::Figure(args) => args.svg(),
        Command::Presets { format } => {
            let infos: Vec<backoff_lab::presets::PresetInfo> = backoff_lab::presets::presets()
                .iter()
                .map(Into::into)
                .collect();
            Ok(match format {
                Format::Json => json(&infos),
                Format::Csv => {
                    let mut out = String::from("name,attempts,give_up_s,source\n");
                    for p in &infos {
                        out += &format!("{},{},{},{}\n", p.name, p.attempts, p.give_up_s, p.source);
                    }
                    out
                }
                Format::Markdown => {
                    let mut out = String::from("| Preset | Schedule | Attempts | Gives up after | Source |\n| --- | --- | ---: | --- | --- |\n");
                    for p in &infos {
                        out += &format!(
                            "| `{}` | {} | {} | {} | <{}> |\n",
                            p.name, p.note, p.attempts, p.give_up_text, p.source
                        );
                    }
                    out
                }
                Format::Table => {
                    let mut out = String::new();
                    for p in &infos {
                        out += &format!(
                            "{:<18} {:>3} attempts, gives up after {}\n{:<18} {}\n{:<18} {}\n\n",
                            p.name, p.attempts, p.give_up_text, "", p.note, "", p.source
                        );
                    }
                    out
                }
            })
        }
        Command::Storm(flags) => {
            let params = flags.scenario.params()?;
            if flags.per_second && flags.format != DataFormat::Csv {
                return Err(Error::out_of_range(
                    "per-second",
                    "given without --format csv",
                    "given only with --format csv (per-second rows exist only as CSV)",
                ));
            }
            if params.engine()? == backoff_lab::Engine::Arithmetic {
                if flags.per_second {
                    return Err(Error::out_of_range(
                        "per-second",
                        "given with the arithmetic engine",
                        "left out: the arithmetic view has minutes only",
                    ));
                }
                let view = backoff_lab::storm::arithmetic_view(&params.arithmetic_scenario()?)?;
                return Ok(match flags.format {
                    DataFormat::Json => json(&view),
                    DataFormat::Csv => view.to_csv(),
                    DataFormat::Table => view.to_table(),
                });
            }
            let report = backoff_lab::storm::simulate(
                &params.scenario()?,
                params.engine()?,
                flags.per_second,
            )?;
            Ok(match flags.format {
                DataFormat::Json => json(&report),
                DataFormat::Csv => report.to_csv(),
                DataFormat::Table => report.to_table(),
            })
        }
        Command::Herd {
            deliveries,
            policy,
            jitter,
            format,
        } => {
            let params = Params {
                deliveries: Some(number(
                    "deliveries",
                    &deliveries,
                    "a whole number from 1 to 10000000",
                )?),
                ..policy.with_jitter(&jitter)?
            };
            let (policy, mode) = (params.policy()?, params.jitter()?);
            let seed = params.seed()?.unwrap_or_default();
            let herd = herd(&policy, mode, params.deliveries()?, seed)?;
            Ok(match format {
                DataFormat::Json => json(&herd),
                DataFormat::Csv => herd.to_csv(),
                DataFormat::Table => {
                    let spike = herd_spike(&policy, &herd)?;
                    format!("{}\n", herd.caption(spike.as_ref()))
                }
            })
        }
    }
}

/// The unjittered herd, for comparison in words (only when the herd itself is jittered).
fn herd_spike(
    policy: &backoff_lab::Policy,
    herd: &backoff_lab::herd::Herd,
) -> Result<Option<backoff_lab::herd::Herd>, Error> {
    if herd.mode == "none" {
        return Ok(None);
    }
    let jitter = backoff_lab::jitter::Jitter::None;
    backoff_lab::herd::herd(policy, jitter, herd.deliveries.min(100_000), herd.seed).map(Some)
}

/// The message with the field named as its flag: "--base must be ...".
fn flag_message(error: &Error) -> String {
    let message = error.to_string();
    match error {
        Error::OutOfRange { field, .. } | Error::BadDuration { field, .. }
            if message.starts_with(field) =>
        {
            format!("--{message}")
        }
        _ => message,
    }
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) if !err.use_stderr() => {
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
        Err(err) => {
            // clap's first paragraph, on one line: the usage block and tips follow it.
            let rendered = err.render().to_string();
            let first: Vec<&str> = rendered
                .lines()
                .skip_while(|l| l.trim().is_empty())
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            eprintln!("{}", first.join(" "));
            return ExitCode::from(2);
        }
    };
    match run(cli.command) {
        Ok(output) => {
            // A closed pipe (`| head`) is not an error worth a panic.
            let _ = std::io::stdout().lock().write_all(output.as_bytes());
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("error: {}", flag_message(&err));
            ExitCode::from(2)
        }
    }
}
