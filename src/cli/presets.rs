//! `backoff-lab presets`: every provider's published schedule, its give-up time and source.

use backoff_lab::presets::PresetList;
use backoff_lab::Error;
use clap::Args;

use super::args::Format;

/// The flags of `presets`.
#[derive(Args)]
pub(super) struct PresetsArgs {
    /// Output format (table, markdown, csv or json).
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

pub(super) fn run(args: PresetsArgs) -> Result<String, Error> {
    Ok(args.format.render(
        &PresetList::all(),
        PresetList::to_table,
        PresetList::to_markdown,
        PresetList::to_csv,
    ))
}
