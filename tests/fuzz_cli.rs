//! Fuzz-style property test of the command line: the built binary run with argument vectors
//! made of its subcommands and their flags (read from its own `--help`, so a new command or
//! flag is fuzzed as soon as it exists) with plausible, hostile and garbled values.
//!
//! Every run: exits 0 or 2 (never 101, a panic, nor a signal); an exit 2 prints exactly one
//! line on stderr starting with `error:` and nothing on stdout, and a refusal of the core
//! (`error: --field must be ...`) names a flag that exists; an exit 0 prints something (JSON
//! whose numbers are not negative with `--format json`, SVG from `figure`); a run slower than
//! [`SLOW`] is printed as `SLOW` (a finding), one slower than [`KILLED`] is killed and fails.
//!
//! Cases that once failed are kept in `tests/fuzz_cli.proptest-regressions` and as explicit
//! `#[ignore]`d tests at the end (found by fuzzing, not yet fixed in `src/`).
//!
//! Environment: `FUZZ_SCALE=n` runs n times the cases; `FUZZ_STRICT=1` lets the known findings
//! fail their properties; `FUZZ_STATS=1` prints one `TALLY` line per case (how far it got).
#![cfg(not(target_arch = "wasm32"))]

use std::ffi::OsString;
use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

const BIN: &str = env!("CARGO_BIN_EXE_backoff-lab");

/// A run slower than this is a finding: the limits refuse big work before it starts.
const SLOW: Duration = Duration::from_secs(2);
/// A run still going after this is killed, and the case fails.
const KILLED: Duration = Duration::from_secs(30);

/// Panics found by fuzzing and not yet fixed (each reproduced by an `#[ignore]`d test below):
/// a run that exits 101 with one of these on stderr is printed as `KNOWN` and tolerated.
const KNOWN_PANICS: &[&str] = &[];

/// With `FUZZ_STRICT` set, known findings fail the property too (which then writes its seed
/// to the regressions file).
fn strict() -> bool {
    std::env::var_os("FUZZ_STRICT").is_some()
}

type FlagStrategy = BoxedStrategy<Option<(String, Option<String>)>>;

// ---------------------------------------------------------------------------------------------
// The command line, as its help describes it
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
struct Flag {
    /// Without the leading `--`.
    name: String,
    /// The value's name (`DURATION`, `RATE`, `N`, ...), `None` for a switch.
    value: Option<String>,
    /// The possible values, when the help lists them.
    choices: Vec<String>,
}

#[derive(Debug, Clone)]
struct Subcommand {
    name: String,
    /// The flags its usage line shows, which it requires.
    required: Vec<String>,
    /// The possible values of a positional argument (`figure <KIND>`), if it has one.
    positional: Option<Vec<String>>,
    flags: Vec<Flag>,
}

fn help(args: &[&str]) -> String {
    let output = Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(output.status.success(), "{args:?} --help failed");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn possible_values(text: &str) -> Vec<String> {
    text.split_once("[possible values: ")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list.split(", ").map(|v| v.trim().to_string()).collect())
        .unwrap_or_default()
}

/// Every subcommand with its flags, read from `backoff-lab --help` and `<command> --help`.
fn commands() -> &'static [Subcommand] {
    static COMMANDS: OnceLock<Vec<Subcommand>> = OnceLock::new();
    COMMANDS.get_or_init(|| {
        let top = help(&["--help"]);
        let names: Vec<String> = top
            .split("Commands:")
            .nth(1)
            .expect("a list of commands")
            .lines()
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .filter_map(|l| l.split_whitespace().next().map(str::to_string))
            .filter(|name| name != "help")
            .collect();
        names
            .into_iter()
            .map(|name| {
                let text = help(&[&name, "--help"]);
                // Each option's paragraph: its first line and the lines indented under it.
                let mut paragraphs: Vec<String> = Vec::new();
                for line in text.lines() {
                    let trimmed = line.trim_start();
                    if trimmed.starts_with("--")
                        || trimmed.starts_with('<')
                        || trimmed.starts_with("-h")
                    {
                        paragraphs.push(trimmed.to_string());
                    } else if let Some(last) = paragraphs.last_mut() {
                        if line.starts_with("          ") {
                            last.push(' ');
                            last.push_str(trimmed);
                        }
                    }
                }
                let usage = text
                    .lines()
                    .find(|l| l.starts_with("Usage:"))
                    .unwrap_or_default();
                let required = usage
                    .split_whitespace()
                    .filter_map(|w| w.strip_prefix("--"))
                    .map(str::to_string)
                    .collect();
                let mut positional = None;
                let mut flags = Vec::new();
                for p in paragraphs {
                    if p.starts_with('<') {
                        positional = Some(possible_values(&p));
                        continue;
                    }
                    let Some(rest) = p.strip_prefix("--") else {
                        continue;
                    };
                    let mut words = rest.split_whitespace();
                    let flag = words.next().unwrap_or_default().to_string();
                    if flag == "help" || flag.is_empty() {
                        continue;
                    }
                    let value = words
                        .next()
                        .filter(|w| w.starts_with('<'))
                        .map(|w| w.trim_matches(|c| c == '<' || c == '>').to_string());
                    flags.push(Flag {
                        name: flag,
                        choices: possible_values(&p),
                        value,
                    });
                }
                Subcommand {
                    name,
                    required,
                    positional,
                    flags,
                }
            })
            .collect()
    })
}

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

fn from_list(list: &'static [&'static str]) -> BoxedStrategy<String> {
    prop::sample::select(list).prop_map(str::to_string).boxed()
}

fn number(range: std::ops::Range<f64>) -> BoxedStrategy<String> {
    range.prop_map(|n| format!("{n}")).boxed()
}

fn whole(range: std::ops::Range<u64>) -> BoxedStrategy<String> {
    range.prop_map(|n| n.to_string()).boxed()
}

/// A value a person would give the flag: in range, and cheap (small counts, short traffic).
fn plausible(flag: &Flag) -> BoxedStrategy<String> {
    if !flag.choices.is_empty() {
        return prop::sample::select(flag.choices.clone()).boxed();
    }
    let value = flag.value.as_deref().unwrap_or("");
    match (flag.name.as_str(), value) {
        ("mode", _) => from_list(&["none", "full", "equal", "decorrelated", "proportional"]),
        ("policy", _) => from_list(&["fixed", "exponential"]),
        ("engine", _) => from_list(&["discrete", "fluid", "auto", "arithmetic"]),
        ("traffic", _) => from_list(&["1m", "5m", "10m", "30s"]),
        ("arrivals", _) => from_list(&["1/s", "60/min", "5/s", "10/s", "0.5/s"]),
        ("outage", _) => from_list(&["10m", "1m", "30m", "0s", "2m"]),
        ("outage-start" | "batch-at", _) => from_list(&["0s", "1m", "90s"]),
        ("give-up", _) => from_list(&["1h", "24h", "2h", "30m", "10m"]),
        ("cap", _) => from_list(&["3h", "1h", "10m", "1d"]),
        ("base", _) => from_list(&["30s", "1s", "5s", "500ms", "1m"]),
        ("latency", _) => from_list(&["50ms", "200ms", "1s"]),
        ("timeout", _) => from_list(&["5s", "10s", "1s"]),
        ("interval", _) => from_list(&["30s", "1m", "10s"]),
        ("budget-window", _) => from_list(&["60s", "10s", "1h"]),
        ("attempts", _) => whole(1..16),
        ("seed", _) => whole(0..1_000_000),
        ("samples", _) => whole(1..5_000),
        ("deliveries", _) => whole(1..5_000),
        ("batch", _) => whole(0..2_000),
        ("multiplier", _) => prop_oneof![from_list(&["2", "3", "1"]), number(1.0..6.0)].boxed(),
        ("factor", _) => number(0.0..1.0),
        ("percentile", _) => number(0.5..50.0),
        ("width" | "height", _) => whole(100..1_200),
        (_, "DURATION") => from_list(&["30s", "1m", "5m", "1h", "3h", "24h", "500ms"]),
        (_, "DURATIONS") => from_list(&["5s,5m,30m", "1s,2s", "5s,5m,30m,2h,5h,10h,10h", "1m"]),
        (_, "RATE") => from_list(&["10/s", "30/s", "600/min", "1/s", "50/s"]),
        (_, "PERCENT") => from_list(&["10%", "5", "50%", "1%"]),
        (_, "NAME") => from_list(&[
            "article",
            "svix",
            "standard-webhooks",
            "azure-event-grid",
            "grpc",
            "aws-sdk-standard",
            "aws-sns",
        ]),
        (_, "N") => whole(1..100),
        (_, "X" | "F" | "P") => number(0.0..10.0),
        // A flag added since: what most values look like.
        _ => prop_oneof![
            from_list(&["30s", "1h", "10m", "24h"]),
            whole(1..100),
            number(0.0..1.0),
        ]
        .boxed(),
    }
}

const WEIRD: &[&str] = &[
    "",
    " ",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "Infinity",
    "1e400",
    "-1e400",
    "-5",
    "-0",
    "0",
    "1e-7",
    "1e7",
    "1e9",
    "1e12",
    "10000000",
    "10000001",
    "99999999999999999999",
    "18446744073709551616",
    "4294967296",
    "-1",
    "2.5",
    "0.5",
    "1e300",
    "0x10",
    "1_000",
    "٣٠",
    "３０s",
    "😀",
    "true",
    "null",
    "--",
    "-",
    "--help",
    "-h",
    "=",
    "%",
    "/s",
    "s",
    "1e400s",
    "-5s",
    "NaNs",
    "1y",
    "365d",
    "366d",
    "7d",
    "8d",
    "1w",
    "600/min/s",
    "5/fortnight",
    "1e-6/s",
    "1e8/s",
    "101%",
    "-1%",
    "NaN%",
    "5,5,5",
    ",",
    "5s,,5s",
    "article,svix",
    "SVIX",
    "4001",
    "99",
    "100",
    "4000",
];

/// A value nobody should give: garbled, extreme, of another kind, very long, unicode.
fn hostile() -> BoxedStrategy<String> {
    prop_oneof![
        6 => from_list(WEIRD),
        2 => "[0-9a-z./%,:-]{0,12}",
        2 => "\\PC{0,16}".prop_map(|s: String| s.replace('\0', "")),
        1 => (1usize..40).prop_map(|n| "5s,".repeat(n)),
        1 => Just("9".repeat(5_000)),
        1 => Just(format!("{}s", "1".repeat(400))),
    ]
    .boxed()
}

#[derive(Debug, Clone)]
enum Edit {
    /// Give the `n`th flag of the command (mod their count) a hostile value.
    Hostile(usize, String),
    /// Give it with `--flag=value`, so that a value starting with `-` reaches the command.
    Equals(usize, String),
    /// Give it with no value (the last argument).
    Bare(usize),
    /// Give it twice.
    Twice(usize),
    /// Remove the `n`th argument given.
    Remove(usize),
    /// An argument no command has.
    Stray(String),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        16 => (any::<usize>(), hostile()).prop_map(|(n, v)| Edit::Hostile(n, v)),
        6 => (any::<usize>(), hostile()).prop_map(|(n, v)| Edit::Equals(n, v)),
        1 => any::<usize>().prop_map(Edit::Bare),
        1 => any::<usize>().prop_map(Edit::Twice),
        2 => any::<usize>().prop_map(Edit::Remove),
        1 => prop_oneof![
            from_list(&["--nope", "-x", "--", "extra", "--format=yaml", "--base=", "-", "--help"]),
            hostile(),
        ]
        .prop_map(Edit::Stray),
    ]
}

/// One argument vector: a subcommand (sometimes a wrong one), plausible flags (each often,
/// a stop rule at most once), then zero to three hostile edits.
fn argv() -> BoxedStrategy<Vec<OsString>> {
    let commands = commands();
    let plausible_run = (0..commands.len()).prop_flat_map(move |i| {
        let command = &commands[i];
        let positional = match &command.positional {
            Some(choices) if !choices.is_empty() => prop_oneof![
                9 => prop::sample::select(choices.clone()).prop_map(Some),
                1 => hostile().prop_map(Some),
            ]
            .boxed(),
            Some(_) => hostile().prop_map(Some).boxed(),
            None => Just(None).boxed(),
        };
        let flags: Vec<FlagStrategy> = command
            .flags
            .iter()
            .map(|flag| {
                let p = match flag.name.as_str() {
                    _ if command.required.contains(&flag.name) => 0.999,
                    // Cheap runs: short traffic, few arrivals, samples and deliveries.
                    "traffic" | "arrivals" | "samples" | "deliveries" => 0.9,
                    "base" | "multiplier" | "cap" => 0.97,
                    "seed" | "format" | "attempts" => 0.7,
                    "give-up" | "preset" | "gaps" | "then-every" => 0.1,
                    "per-second" => 0.05,
                    _ => 0.3,
                };
                let name = flag.name.clone();
                let value = match &flag.value {
                    Some(_) => plausible(flag).prop_map(Some).boxed(),
                    None => Just(None).boxed(),
                };
                prop::option::weighted(p, value.prop_map(move |v| (name.clone(), v))).boxed()
            })
            .collect();
        let edits = prop_oneof![
            4 => Just(Vec::new()),
            4 => prop::collection::vec(edit(), 1..2),
            2 => prop::collection::vec(edit(), 2..4),
        ];
        (Just(i), positional, flags, edits)
    });
    let built = plausible_run.prop_map(move |(i, positional, flags, edits)| {
        let command = &commands[i];
        // Flags in order: (name, value, given as `--name=value`).
        let mut given: Vec<(String, Option<String>, bool)> = Vec::new();
        let mut stop_given = false;
        for (name, value) in flags.into_iter().flatten() {
            if matches!(name.as_str(), "attempts" | "give-up") && !command.required.contains(&name)
            {
                if stop_given {
                    continue;
                }
                stop_given = true;
            }
            given.push((name, value, false));
        }
        let mut strays = Vec::new();
        let flag = |n: usize| -> Option<&Flag> {
            (!command.flags.is_empty()).then(|| &command.flags[n % command.flags.len()])
        };
        // Sets a flag (replacing its value when it is already given).
        let set = |given: &mut Vec<(String, Option<String>, bool)>,
                   flag: &Flag,
                   value: Option<String>,
                   equals: bool| {
            let value = if flag.value.is_some() || equals {
                value
            } else {
                None
            };
            match given.iter_mut().find(|(name, _, _)| *name == flag.name) {
                Some(slot) => *slot = (flag.name.clone(), value, equals),
                None => given.push((flag.name.clone(), value, equals)),
            }
        };
        for edit in edits {
            match edit {
                Edit::Hostile(n, value) => {
                    if let Some(flag) = flag(n) {
                        set(&mut given, flag, Some(value), false);
                    }
                }
                Edit::Equals(n, value) => {
                    if let Some(flag) = flag(n) {
                        set(&mut given, flag, Some(value), true);
                    }
                }
                Edit::Bare(n) => {
                    if let Some(flag) = flag(n) {
                        given.retain(|(name, _, _)| *name != flag.name);
                        strays.push(format!("--{}", flag.name));
                    }
                }
                Edit::Twice(n) => {
                    if let Some(flag) = flag(n) {
                        let value = flag.value.as_ref().map(|_| "1".to_string());
                        given.push((flag.name.clone(), value.clone(), false));
                        given.push((flag.name.clone(), value, false));
                    }
                }
                Edit::Remove(n) => {
                    if !given.is_empty() {
                        let i = n % given.len();
                        given.remove(i);
                    }
                }
                Edit::Stray(arg) => strays.push(arg),
            }
        }
        let mut args: Vec<String> = vec![command.name.clone()];
        args.extend(positional);
        for (name, value, equals) in given {
            match (value, equals) {
                (Some(value), true) => args.push(format!("--{name}={value}")),
                (value, _) => {
                    args.push(format!("--{name}"));
                    args.extend(value);
                }
            }
        }
        args.extend(strays);
        args.into_iter().map(OsString::from).collect::<Vec<_>>()
    });
    let junk = prop::collection::vec(
        prop_oneof![
            3 => prop::sample::select(commands.iter().map(|c| c.name.clone()).collect::<Vec<_>>()),
            3 => prop::sample::select(
                commands
                    .iter()
                    .flat_map(|c| c.flags.iter().map(|f| format!("--{}", f.name)))
                    .collect::<Vec<_>>()
            ),
            3 => hostile(),
        ],
        0..6,
    )
    .prop_map(|args| args.into_iter().map(OsString::from).collect::<Vec<_>>());
    let not_utf8 = Just(vec![
        OsString::from("schedule"),
        OsString::from("--base"),
        {
            use std::os::unix::ffi::OsStringExt;
            OsString::from_vec(vec![0x33, 0x30, 0xff, 0x73])
        },
    ]);
    prop_oneof![
        40 => built,
        5 => junk,
        1 => not_utf8,
    ]
    .boxed()
}

// ---------------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------------

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    took: Duration,
}

/// Runs the binary with `args`, killing it after [`KILLED`].
fn run(args: &[OsString]) -> Result<Run, TestCaseError> {
    let start = Instant::now();
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| TestCaseError::fail(format!("spawn: {e}")))?;
    fn read_all(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    }
    let out = read_all(child.stdout.take().expect("piped"));
    let err = read_all(child.stderr.take().expect("piped"));
    let status = loop {
        if let Some(status) = child
            .try_wait()
            .map_err(|e| TestCaseError::fail(e.to_string()))?
        {
            break status;
        }
        if start.elapsed() > KILLED {
            let _ = child.kill();
            let _ = child.wait();
            return Err(TestCaseError::fail(format!(
                "{args:?} still running after {KILLED:?}: killed"
            )));
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let took = start.elapsed();
    Ok(Run {
        code: {
            use std::os::unix::process::ExitStatusExt;
            if let Some(signal) = status.signal() {
                return Err(TestCaseError::fail(format!(
                    "{args:?} killed by signal {signal}"
                )));
            }
            status.code()
        },
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        took,
    })
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

/// Every number in a JSON value, with its path.
fn numbers(value: &serde_json::Value, path: String, found: &mut Vec<(String, f64)>) {
    match value {
        serde_json::Value::Number(n) => found.push((path, n.as_f64().unwrap_or(f64::NAN))),
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                numbers(item, format!("{path}[{i}]"), found);
            }
        }
        serde_json::Value::Object(map) => {
            for (key, item) in map {
                numbers(item, format!("{path}.{key}"), found);
            }
        }
        _ => {}
    }
}

/// Fields a refusal may name that are no flag of its command: none so far.
const NOT_FLAGS: &[&str] = &[];

fn check(args: &[OsString], run: &Run) -> Result<(), TestCaseError> {
    let shown: Vec<String> = args
        .iter()
        .map(|a| {
            let a = a.to_string_lossy();
            if a.chars().count() > 60 {
                format!(
                    "{}… ({} chars)",
                    a.chars().take(40).collect::<String>(),
                    a.chars().count()
                )
            } else {
                a.into_owned()
            }
        })
        .collect();
    if std::env::var_os("FUZZ_STATS").is_some() {
        let error = run
            .stderr
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(50)
            .collect::<String>();
        eprintln!(
            "TALLY {} {:?} {error}",
            shown.first().map_or("", |s| s.as_str()),
            run.code
        );
    }
    if run.took > SLOW {
        eprintln!("SLOW {:.2?}: {shown:?}", run.took);
    }
    match run.code {
        Some(0) => {
            prop_assert!(
                !run.stdout.is_empty(),
                "{:?}: exit 0 and nothing printed",
                shown
            );
            let text = |a: &OsString| a.to_string_lossy().into_owned();
            let json = args
                .windows(2)
                .any(|w| text(&w[0]) == "--format" && text(&w[1]) == "json")
                || args.iter().any(|a| text(a) == "--format=json");
            if json
                && !args
                    .iter()
                    .any(|a| matches!(text(a).as_str(), "--help" | "-h" | "--version" | "-V"))
            {
                if let Ok(value) = serde_json::from_str::<serde_json::Value>(&run.stdout) {
                    let mut found = Vec::new();
                    numbers(&value, String::new(), &mut found);
                    for (path, n) in found {
                        prop_assert!(n >= 0.0, "{:?}: {} is {}", shown, path, n);
                        prop_assert!(
                            !path.ends_with("_share") || n <= 1.0,
                            "{:?}: {} is {}",
                            shown,
                            path,
                            n
                        );
                    }
                }
            }
        }
        Some(2) => {
            prop_assert!(
                run.stdout.is_empty(),
                "{:?}: exit 2 with output {:?}",
                shown,
                run.stdout
            );
            let lines: Vec<&str> = run.stderr.lines().collect();
            prop_assert_eq!(
                lines.len(),
                1,
                "{:?}: exit 2 with stderr {:?}",
                shown,
                run.stderr
            );
            prop_assert!(
                lines[0].starts_with("error:"),
                "{:?}: {:?}",
                shown,
                lines[0]
            );
            if let Some(rest) = lines[0].strip_prefix("error: --") {
                if let Some((field, _)) = rest.split_once(" must be ") {
                    let command = args.first().map(|a| a.to_string_lossy().into_owned());
                    let flags: Vec<&str> = commands()
                        .iter()
                        .filter(|c| Some(&c.name) == command.as_ref())
                        .flat_map(|c| c.flags.iter().map(|f| f.name.as_str()))
                        .collect();
                    prop_assert!(
                        flags.contains(&field) || NOT_FLAGS.contains(&field),
                        "{:?}: the refusal names --{}, no flag of the command: {:?}",
                        shown,
                        field,
                        lines[0]
                    );
                }
            }
        }
        Some(101) if !strict() && KNOWN_PANICS.iter().any(|k| run.stderr.contains(k)) => {
            eprintln!("KNOWN panic: {shown:?}");
        }
        other => prop_assert!(
            false,
            "{:?}: exit {:?}\nstdout: {:?}\nstderr: {}",
            shown,
            other,
            run.stdout.chars().take(300).collect::<String>(),
            run.stderr
        ),
    }
    Ok(())
}

/// Arguments within the limits by design that still take seconds (jittered staleness of a long
/// schedule draws up to the draw limit; a survival map), skipped so that the suite stays quick. Not findings: a
/// region found slow beyond what the limits allow gets an `#[ignore]`d test below instead.
fn known_slow(args: &[OsString]) -> Option<&'static str> {
    let args: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let value = |flag: &str| -> Option<String> {
        let long = format!("--{flag}");
        let equals = format!("--{flag}=");
        args.iter().enumerate().rev().find_map(|(i, a)| {
            if *a == long {
                args.get(i + 1).cloned()
            } else {
                a.strip_prefix(&equals).map(str::to_string)
            }
        })
    };
    // A survival map runs hundreds of storms: seconds by design, within its work limit
    // (`survival::MAX_MAP_WORK`, tested in src/survival/tests.rs).
    if args.iter().any(|a| a == "survival") {
        return Some("a survival map");
    }
    let staleness = args.iter().any(|a| a == "staleness");
    let unjittered = value("mode").is_some_and(|m| m == "none");
    let many = value("attempts")
        .and_then(|a| a.trim().parse::<f64>().ok())
        .is_some_and(|a| a > 100.0)
        || value("give-up").is_some()
        || value("then-every").is_some()
        || value("preset").is_some();
    (staleness && !unjittered && many).then_some("jittered staleness of a long schedule")
}

proptest! {
    #![proptest_config(ProptestConfig {
        // `FUZZ_SCALE` multiplies the cases for a longer run.
        cases: 200 * std::env::var("FUZZ_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1),
        max_shrink_time: 120_000,
        ..ProptestConfig::default()
    })]

    /// Any argument vector: a result, or one line of error; never a panic, a signal or a hang.
    #[test]
    fn any_arguments_give_a_result_or_one_line_of_error(args in argv()) {
        if let Some(why) = known_slow(&args) {
            if std::env::var_os("FUZZ_STATS").is_some() {
                eprintln!("TALLY skipped {why}");
            }
            return Ok(());
        }
        let run = run(&args)?;
        check(&args, &run)?;
    }
}

#[test]
fn every_command_was_found_with_flags() {
    let names: Vec<&str> = commands().iter().map(|c| c.name.as_str()).collect();
    for expected in [
        "schedule",
        "solve-cap",
        "jitter",
        "storm",
        "presets",
        "figure",
        "herd",
    ] {
        assert!(names.contains(&expected), "{expected} not in {names:?}");
    }
    let figure = commands().iter().find(|c| c.name == "figure").unwrap();
    assert!(figure
        .positional
        .as_ref()
        .is_some_and(|p| p.contains(&"distribution".to_string())));
    assert!(figure
        .flags
        .iter()
        .any(|f| f.name == "width" && f.value.is_some()));
    assert!(figure
        .flags
        .iter()
        .any(|f| f.name == "dark" && f.value.is_none()));
}

// ---------------------------------------------------------------------------------------------
// Cases found by fuzzing, kept as explicit reproductions (ignored until fixed in `src/`).
// ---------------------------------------------------------------------------------------------

fn args(list: &[&str]) -> Vec<OsString> {
    list.iter().map(OsString::from).collect()
}

/// Found by fuzzing: `backoff-lab` alone exited 2 printing only "Reason about retry schedules:
/// …" (clap's help cut to its first paragraph), which says nothing of what is wrong.
#[test]
fn no_subcommand_is_an_error_naming_the_commands() {
    let run = run(&[]).unwrap();
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .starts_with("error: a command is needed: one of schedule, ")
            && run.stderr.contains("staleness"),
        "exit {:?}: {:?}",
        run.code,
        run.stderr
    );
}

/// Found by fuzzing: `staleness` checked no work limit under jitter (10,000 attempts took 12 s,
/// 60 s with `--samples 100000 --outage 1h`; `figure staleness` 26 s and 260 MB). Now its draws
/// count against the limits, and the largest requests are refused before any work.
#[test]
fn staleness_under_jitter_past_the_limit_is_refused() {
    let list = [
        "staleness",
        "--base",
        "1s",
        "--multiplier",
        "1",
        "--cap",
        "1s",
        "--attempts",
        "10000",
        "--mode",
        "full",
        "--seed",
        "1",
        "--samples",
        "100000",
        "--outage",
        "1h",
    ];
    let run = run(&args(&list)).unwrap();
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("error: --samples must be at most 49955 for a schedule of 10000 attempts"),
        "{}",
        run.stderr
    );
}

/// `--width 100` is accepted (100 to 4000), but the distribution chart's label placement calls
/// `f64::clamp(2, width - label - 2)` with a negative upper bound: a panic, exit 101.
#[test]
fn figure_distribution_at_the_smallest_width_draws() {
    let run = run(&args(&[
        "figure",
        "distribution",
        "--width",
        "100",
        "--samples",
        "1000",
        "--seed",
        "1",
    ]))
    .unwrap();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}

/// Found by fuzzing: `jitter --mode decorrelated` within the draw limit took 20 s for 1e6
/// samples × 2,000 retries (full jitter: 4 s), `herd` with 1e6 such deliveries 30 s. Now a
/// decorrelated draw counts what it costs, and these are refused before any work.
#[test]
fn decorrelated_jitter_and_herd_past_their_cost_are_refused() {
    let policy = [
        "--base",
        "1s",
        "--multiplier",
        "1",
        "--cap",
        "1s",
        "--attempts",
        "2001",
        "--mode",
        "decorrelated",
        "--seed",
        "1",
    ];
    for (extra, expected) in [
        (
            &["jitter", "--samples", "1000000"][..],
            "error: --samples must be at most 200000 for a schedule of 2001 attempts",
        ),
        (
            &["herd", "--deliveries", "1000000"][..],
            "error: --deliveries must be at most 166666 for a schedule of 2001 attempts",
        ),
    ] {
        let mut list = extra.to_vec();
        list.extend(policy);
        let run = run(&args(&list)).unwrap();
        assert_eq!(run.code, Some(2), "{list:?}");
        assert!(run.stderr.starts_with(expected), "{list:?}: {}", run.stderr);
    }
}

/// `herd` of a 300-day first gap under ±100% proportional jitter wrote one count per second of
/// its 600 days of first retries: 51,840,003 bins, 370 MB of JSON. (Found by fuzzing, fixed by
/// round bin widths past 100,000 first-retry bins: kept as a regression test.)
#[test]
fn herd_of_a_300_day_gap_writes_bounded_bins() {
    let run = run(&args(&[
        "herd",
        "--base",
        "300d",
        "--multiplier",
        "1",
        "--cap",
        "300d",
        "--attempts",
        "2",
        "--deliveries",
        "1",
        "--mode",
        "proportional",
        "--factor",
        "1",
        "--seed",
        "1",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // The whole schedule's 864,002 one-minute bins, pretty-printed: under 10 MB.
    assert!(run.stdout.len() < 10_000_000, "{} bytes", run.stdout.len());
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let first = json["first_retry_per_second"].as_array().unwrap();
    assert_eq!(first.len(), 86_402);
    assert_eq!(json["first_retry"]["bin_s"], 600.0);
    assert_eq!(json["bin_s"], 60.0);
    assert_eq!(json["per_second"].as_array().unwrap().len(), 864_002);
}
