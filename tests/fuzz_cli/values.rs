//! Generators of argument vectors: plausible, hostile and garbled values for every flag.

use crate::prelude::*;

pub(crate) fn from_list(list: &'static [&'static str]) -> BoxedStrategy<String> {
    prop::sample::select(list).prop_map(str::to_string).boxed()
}

pub(crate) fn number(range: std::ops::Range<f64>) -> BoxedStrategy<String> {
    range.prop_map(|n| format!("{n}")).boxed()
}

pub(crate) fn whole(range: std::ops::Range<u64>) -> BoxedStrategy<String> {
    range.prop_map(|n| n.to_string()).boxed()
}

/// A value a person would give the flag: in range, and cheap (small counts, short traffic).
pub(crate) fn plausible(flag: &Flag) -> BoxedStrategy<String> {
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
        (_, "NAME") => prop::sample::select(crate::commands::preset_names().to_vec()).boxed(),
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

pub(crate) const WEIRD: &[&str] = &[
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
pub(crate) fn hostile() -> BoxedStrategy<String> {
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
pub(crate) enum Edit {
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

pub(crate) fn edit() -> impl Strategy<Value = Edit> {
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
pub(crate) fn argv() -> BoxedStrategy<Vec<OsString>> {
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
