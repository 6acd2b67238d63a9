//! The command line as its own `--help` describes it: subcommands, their flags and values.

use crate::prelude::*;

pub(crate) type FlagStrategy = BoxedStrategy<Option<(String, Option<String>)>>;

#[derive(Debug, Clone)]
pub(crate) struct Flag {
    /// Without the leading `--`.
    pub(crate) name: String,
    /// The value's name (`DURATION`, `RATE`, `N`, ...), `None` for a switch.
    pub(crate) value: Option<String>,
    /// The possible values, when the help lists them.
    pub(crate) choices: Vec<String>,
}

#[derive(Debug, Clone)]
pub(crate) struct Subcommand {
    pub(crate) name: String,
    /// The flags its usage line shows, which it requires.
    pub(crate) required: Vec<String>,
    /// The possible values of a positional argument (`figure <KIND>`), if it has one.
    pub(crate) positional: Option<Vec<String>>,
    pub(crate) flags: Vec<Flag>,
}

pub(crate) fn help(args: &[&str]) -> String {
    let output = Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(output.status.success(), "{args:?} --help failed");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub(crate) fn possible_values(text: &str) -> Vec<String> {
    text.split_once("[possible values: ")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list.split(", ").map(|v| v.trim().to_string()).collect())
        .unwrap_or_default()
}

/// Every preset's name, read from `backoff-lab presets --format json`: a new preset is fuzzed
/// as soon as it exists, as a new flag is.
pub(crate) fn preset_names() -> &'static [String] {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let listed: serde_json::Value =
            serde_json::from_str(&help(&["presets", "--format", "json"])).expect("JSON");
        listed
            .as_array()
            .expect("a list of presets")
            .iter()
            .filter_map(|preset| preset["name"].as_str().map(str::to_string))
            .collect()
    })
}

/// Every subcommand with its flags, read from `backoff-lab --help` and `<command> --help`.
pub(crate) fn commands() -> &'static [Subcommand] {
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
