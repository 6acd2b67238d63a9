//! The `backoff-lab` command line (part of the binary, not the library): a thin edge over it.
//! One module per command, each with its flags and a `run` that returns what to print; the
//! flags several commands share are in `args`.

mod args;
mod figure;
mod herd;
mod jitter;
mod presets;
mod schedule;
mod solve_cap;
mod staleness;
mod storm;
mod survival;

use std::io::Write;
use std::process::ExitCode;

use backoff_lab::Error;
use clap::{Parser, Subcommand};

const EXAMPLES: &str = "\
Examples:
  backoff-lab schedule --base 30s --multiplier 3 --cap 3h --attempts 14
  backoff-lab schedule --base 30s --multiplier 3 --cap 3h --give-up 24h --format json
  backoff-lab solve-cap --base 30s --multiplier 3 --attempts 14 --give-up 24h
  backoff-lab jitter --base 30s --multiplier 3 --cap 3h --attempts 14 --mode full --seed 42
  backoff-lab jitter --base 30s --multiplier 3 --cap 3h --attempts 14 --mode full --deadline 24h
  backoff-lab herd --deliveries 1000 --base 30s --multiplier 3 --cap 3h --attempts 14 --mode full --seed 42

The policy of schedule, jitter and herd is a --preset, or --base, --multiplier and --cap, or
--gaps (with --then-every), and --attempts or --give-up (a preset brings both; a flag given
beside it overrides its value); solve-cap takes all four of its flags.
Durations: 30s, 4m30s, 4.5min, 3h, 1d, 2h30m, or '90 s' in quotes (a bare number is seconds).";

/// Every command's first example; `<command> --help` has more.
const COMMANDS_EXAMPLES: &str = "\
Examples (each command's --help has more):
  backoff-lab schedule --base 30s --multiplier 3 --cap 3h --attempts 14
  backoff-lab solve-cap --base 30s --multiplier 3 --attempts 14 --give-up 24h
  backoff-lab jitter --base 30s --multiplier 3 --cap 3h --attempts 14 --mode full --seed 42
  backoff-lab herd --deliveries 1000 --preset article --mode full --seed 42
  backoff-lab storm --policy exponential --base 30s --multiplier 3 --cap 3h --budget 10%
  backoff-lab staleness --preset article --tolerance 6h --max-lag 1h
  backoff-lab survival --policy exponential --mode full
  backoff-lab figure timeline --preset svix > svix-timeline.svg
  backoff-lab presets

Durations: 30s, 4m30s, 4.5min, 3h, 1d, 2h30m, or '90 s' in quotes (a bare number is seconds).";

/// Reason about retry schedules: the gap before retry k is min(cap, base × multiplier^(k-1)).
#[derive(Parser)]
#[command(name = "backoff-lab", version, after_help = COMMANDS_EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Every attempt's gap and elapsed time, the give-up time and the derived facts.
    #[command(after_help = EXAMPLES)]
    Schedule(schedule::ScheduleArgs),
    /// The smallest cap with which N attempts reach a give-up deadline.
    #[command(after_help = EXAMPLES)]
    SolveCap(solve_cap::SolveCapArgs),
    /// One delivery under jitter: expected and percentile give-up times, exact and sampled.
    #[command(after_help = EXAMPLES)]
    Jitter(jitter::JitterArgs),
    /// A retry storm: what a policy does to a destination's load during and after an outage.
    #[command(after_help = storm::EXAMPLES)]
    Storm(Box<storm::StormArgs>),
    /// Every preset: a provider's published schedule, its give-up time and its source.
    Presets(presets::PresetsArgs),
    /// A chart as SVG, drawn by the same Rust function as the page: for documentation.
    #[command(after_help = figure::EXAMPLES)]
    Figure(Box<figure::FigureArgs>),
    /// Many deliveries that failed in the same second: their retries per second.
    #[command(after_help = EXAMPLES)]
    Herd(herd::HerdArgs),
    /// After an outage: how late and how old its events arrive, which are exhausted.
    #[command(after_help = staleness::EXAMPLES)]
    Staleness(Box<staleness::StalenessArgs>),
    /// Which outages a destination survives at which capacity headroom: the metastable cliff.
    #[command(after_help = survival::EXAMPLES)]
    Survival(Box<survival::SurvivalArgs>),
}

fn run(command: Command) -> Result<String, Error> {
    match command {
        Command::Schedule(args) => schedule::run(args),
        Command::SolveCap(args) => solve_cap::run(args),
        Command::Jitter(args) => jitter::run(args),
        Command::Storm(args) => storm::run(*args),
        Command::Presets(args) => presets::run(args),
        Command::Figure(args) => figure::run(&args),
        Command::Herd(args) => herd::run(args),
        Command::Staleness(args) => staleness::run(*args),
        Command::Survival(args) => survival::run(*args),
    }
}

/// The message with the field named as its flag ("--base must be ..."), and the fields its
/// rule names too: "--budget-window must be given only with --budget" (the core's words, shared
/// with the page, name fields as the page's settings do).
fn flag_message(error: &Error) -> String {
    let message = error.to_string();
    match error {
        Error::OutOfRange { field, .. } | Error::BadDuration { field, .. }
            if message.starts_with(field) =>
        {
            format!("--{}", flagged_rule(&message))
        }
        _ => message,
    }
}

/// The fields a "given only with …" rule names, as flags, up to the clause's end.
fn flagged_rule(message: &str) -> String {
    const RULES: [&str; 9] = [
        "mode",
        "deadline",
        "budget",
        "pause",
        "batch",
        "retry-after",
        "retry-quota",
        "breaker-failures",
        "breaker-share",
    ];
    const OPENING: &str = "given only with ";
    let Some(at) = message.find(OPENING).map(|at| at + OPENING.len()) else {
        return message.to_string();
    };
    let end = message[at..]
        .find(',')
        .map_or(message.len(), |end| at + end);
    let clause = message[at..end]
        .split(' ')
        .map(|word| match RULES.contains(&word) {
            true => format!("--{word}"),
            false => word.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ");
    format!("{}{clause}{}", &message[..at], &message[end..])
}

/// What `--give-up` means where a storm is simulated: there each retry waits for its attempt's
/// failure (a timeout during the outage) before its gap, so the retries span longer than the
/// schedule's give-up time (a 30 s interval and a 2 h give-up: 241 attempts over 2 h 20 min).
const STORM_GIVE_UP_HELP: &str = "Give up at the schedule's first attempt at or past this time \
     since the first failure (a storm's retries also wait for each failure, so they span longer)";

/// The command line: the derived commands, with the storm flags a survival map refuses (it sets
/// each cell's traffic, and a batch would be dropped from every cell) left out of its `--help`.
/// They are still read, so that giving one is refused by name rather than as unknown. The
/// commands that simulate storms say what their give-up time counts. A value that reads as a
/// negative number (`--mode -1`) is a value, refused by its flag with its range, not an unknown
/// flag.
fn command() -> clap::Command {
    let storm_give_up =
        |command: clap::Command| command.mut_arg("give_up", |arg| arg.help(STORM_GIVE_UP_HELP));
    <Cli as clap::CommandFactory>::command()
        .mut_subcommands(|command| command.allow_negative_numbers(true))
        .mut_subcommand("survival", |map| {
            ["traffic", "batch", "batch_at"]
                .into_iter()
                .fold(storm_give_up(map), |map, flag| {
                    map.mut_arg(flag, |arg| arg.hide(true))
                })
        })
        .mut_subcommand("storm", storm_give_up)
        // The staleness figure reads its outage off the chart, at 4 h unless given (the help
        // said only the storm's 10 min).
        .mut_subcommand("figure", |figure| {
            figure.mut_arg("outage", |arg| {
                arg.help(
                    "How long the outage lasts, 0 s or from 0.5 s to 6 days 23 h 59 min 59 s (under 7 days), in whole seconds \
                     (rounded; default 10m); for `figure staleness`, the outage read off the \
                     chart, exactly, from 1 µs to 365 days (default 4h)",
                )
            })
        })
}

/// The commands to choose from, as an error lists them.
fn command_names() -> String {
    let names: Vec<String> = command()
        .get_subcommands()
        .filter(|c| !c.is_hide_set() && c.get_name() != "help")
        .map(|c| c.get_name().to_string())
        .collect();
    names.join(", ")
}

pub fn main() -> ExitCode {
    let parsed = command()
        .try_get_matches()
        .and_then(|matches| <Cli as clap::FromArgMatches>::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(err) if !err.use_stderr() => {
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
        Err(err)
            if err.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            // No command: say so in the one line of an error, with the commands to choose from.
            eprintln!(
                "error: a command is needed: one of {} (backoff-lab --help tells more)",
                command_names()
            );
            return ExitCode::from(2);
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
            // clap's tip for a misspelt flag (`--attemps`) is in the part left out: said here.
            use clap::error::{ContextKind, ContextValue, ErrorKind};
            let invalid = match err.get(ContextKind::InvalidArg) {
                Some(ContextValue::String(arg)) => arg.as_str(),
                _ => "",
            };
            let suggestion = match err.get(ContextKind::SuggestedArg) {
                Some(ContextValue::String(flag)) => format!(" (did you mean {flag}?)"),
                // `--cap 3 hours`: the value's second word.
                _ if err.kind() == ErrorKind::UnknownArgument && !invalid.starts_with('-') => {
                    " (a value with a space goes in quotes, such as '90 s')".to_string()
                }
                _ if err.kind() == ErrorKind::UnknownArgument => {
                    " (--help lists the flags)".to_string()
                }
                // `backoff-lab bogus` named no command to choose from.
                _ if err.kind() == ErrorKind::InvalidSubcommand => {
                    format!(" (the commands: {})", command_names())
                }
                _ => String::new(),
            };
            // What clap quotes whole (a value, an argument, a command) is cut as every refusal
            // cuts one (`--format` given 100,000 characters made a 100 kB message: outside
            // review).
            let line: Vec<String> = first
                .join(" ")
                .split('\'')
                .enumerate()
                .map(|(i, part)| match i % 2 {
                    1 => match backoff_lab::cut_short(&format!("\"{part}\"")) {
                        cut if cut.len() < part.len() => cut.into_owned(),
                        _ => format!("'{part}'"),
                    },
                    _ => part.to_string(),
                })
                .collect();
            eprintln!("{}{suggestion}", line.concat());
            return ExitCode::from(2);
        }
    };
    match run(cli.command) {
        Ok(output) => {
            let mut stdout = std::io::stdout().lock();
            match stdout
                .write_all(output.as_bytes())
                .and_then(|()| stdout.flush())
            {
                // A closed pipe (`| head`) took what it wanted: not an error.
                Err(err) if err.kind() != std::io::ErrorKind::BrokenPipe => {
                    // A full disk lost a figure without a word, and exited 0 (outside review).
                    eprintln!("error: the output could not be written: {err}");
                    ExitCode::from(1)
                }
                _ => ExitCode::SUCCESS,
            }
        }
        Err(err) => {
            eprintln!("error: {}", flag_message(&err));
            ExitCode::from(2)
        }
    }
}
