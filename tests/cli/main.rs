//! The command line as a user runs it: output formats, the JSON contract, and refusals, one
//! module per command or concern.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../common/mod.rs"]
mod common;

mod figures;
mod jitter;
mod limits;
mod presets;
mod schedule;
mod storm;

/// Every flag of the commands the page draws is a setting of the page and the element, or one
/// they name as the command line's own when given as an attribute (`CLI_ONLY_FLAGS`): a flag
/// added to the command line without either would be an attribute drawn without a word.
#[test]
fn every_flag_is_a_setting_or_named_as_the_command_lines_own() {
    use backoff_lab::page::{Settings, CLI_ONLY_FLAGS};
    for command in [
        "schedule",
        "jitter",
        "herd",
        "storm",
        "survival",
        "staleness",
    ] {
        let help = common::stdout(&common::run(&[command, "--help"]));
        let flags = help
            .lines()
            .filter(|line| line.trim_start().starts_with('-'))
            .filter_map(|line| line.split_whitespace().find(|w| w.starts_with("--")))
            .map(|flag| flag.trim_start_matches("--").trim_end_matches(','));
        let flags: Vec<&str> = flags.collect();
        // The help's layout read: a flag every command has, and each one's own.
        let own = match command {
            "storm" => "latency",
            "herd" => "deliveries",
            "jitter" => "percentile",
            _ => "base",
        };
        assert!(
            flags.contains(&"format") && flags.contains(&own),
            "{command}: {flags:?}"
        );
        for flag in flags {
            assert!(
                Settings::is_key(flag)
                    || CLI_ONLY_FLAGS.contains(&flag)
                    || ["format", "help"].contains(&flag),
                "{command} --{flag}: neither a setting nor in CLI_ONLY_FLAGS"
            );
        }
    }
    for flag in CLI_ONLY_FLAGS {
        assert!(!Settings::is_key(flag), "{flag} is a setting");
    }
}
