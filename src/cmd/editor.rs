//! `kessel editor`: the map and scenario editor (see the `kessel-editor` crate).

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kessel editor`.
#[derive(clap::Args)]
pub struct Args {
    /// Scenario file (default: the bundled PGG campaign).
    scenario: Option<PathBuf>,
    /// Render the window to this PNG after the first frames settle, then exit.
    #[arg(long)]
    screenshot: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    kessel_editor::run(kessel_editor::EditorOptions {
        scenario: crate::scenario_or_default(args.scenario)?,
        screenshot: args.screenshot,
    })?;
    Ok(ExitCode::SUCCESS)
}
