//! The `backoff-lab` command line (part of the binary, not the library): a thin edge over it.

use std::io::Write;
use std::process::ExitCode;

use backoff_lab::{
    attempt_count, format_duration, format_exact, DurationInput, Error, PolicyParams,
    ScheduleReport,
};
use clap::{Args, Parser, Subcommand, ValueEnum};

const EXAMPLES: &str = "\
Examples:
  backoff-lab schedule --base 30s --multiplier 3 --cap 3h --attempts 14
  backoff-lab schedule --base 30s --multiplier 3 --cap 3h --give-up 24h --format json
  backoff-lab schedule --base 1s --multiplier 2 --cap 20s --attempts 3 --format markdown
  backoff-lab solve-cap --base 30s --multiplier 3 --attempts 14 --give-up 24h

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
}

#[derive(Args)]
struct PolicyFlags {
    /// Gap before the first retry, e.g. 30s.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    base: String,
    /// Growth factor between consecutive gaps (1 to 1000).
    #[arg(long, value_name = "X", allow_hyphen_values = true)]
    multiplier: String,
    /// Longest gap, e.g. 3h (at least the base, at most 365 days).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    cap: String,
    /// Attempts in all, the first delivery included (1 to 10000).
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        conflicts_with = "give_up",
        required_unless_present = "give_up"
    )]
    attempts: Option<String>,
    /// Give up at the first attempt at or past this time since the first failure.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    give_up: Option<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Table,
    Markdown,
    Csv,
    Json,
}

fn number(field: &'static str, text: &str, valid: &str) -> Result<f64, Error> {
    text.trim().parse::<f64>().map_err(|_| Error::OutOfRange {
        field,
        value: format!("{text:?}"),
        valid: valid.to_string(),
    })
}

impl PolicyFlags {
    fn params(&self) -> Result<PolicyParams, Error> {
        Ok(PolicyParams {
            base: DurationInput::Text(self.base.clone()),
            multiplier: number("multiplier", &self.multiplier, "a number from 1 to 1000")?,
            cap: DurationInput::Text(self.cap.clone()),
            attempts: self
                .attempts
                .as_deref()
                .map(|n| number("attempts", n, "a whole number from 1 to 10000"))
                .transpose()?,
            give_up: self.give_up.clone().map(DurationInput::Text),
            window: None,
        })
    }
}

fn run(command: Command) -> Result<String, Error> {
    match command {
        Command::Schedule {
            policy,
            window,
            format,
        } => {
            let params = PolicyParams {
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
            let attempts = attempt_count(number(
                "attempts",
                &attempts,
                "a whole number from 2 to 10000",
            )?)?;
            let params = PolicyParams {
                base: DurationInput::Text(base),
                multiplier: number("multiplier", &multiplier, "a number from 1 to 1000")?,
                cap: backoff_lab::policy::MAX_SPAN_S.into(),
                attempts: Some(1.0),
                give_up: None,
                window: None,
            };
            let deadline = DurationInput::Text(give_up).seconds("give-up")?;
            let cap = params.policy()?.cap_for_deadline(deadline, attempts)?;
            Ok(format!(
                "A cap of {} ({cap:.3} s) makes {attempts} attempts reach {}.\n",
                format_exact(cap),
                format_duration(deadline)
            ))
        }
    }
}

fn json(report: &ScheduleReport) -> String {
    // A report is plain numbers, strings and options: serializing it cannot fail.
    serde_json::to_string_pretty(report).unwrap_or_default() + "\n"
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
            let rendered = err.render().to_string();
            // clap's first paragraph, on one line: the usage block and tips follow it.
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
