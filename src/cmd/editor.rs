//! `kessel editor`: the map and scenario editor.

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kessel editor`.
#[derive(clap::Args)]
pub struct Args {
    /// Scenario file (default: the bundled PGG campaign).
    scenario: Option<PathBuf>,
    /// Render the window to this PNG after the first frames and exit.
    #[arg(long)]
    screenshot: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let scenario = crate::scenario_or_default(args.scenario);
    let _ = (&scenario, &args.screenshot);
    eprintln!("kessel editor: not yet wired");
    Ok(ExitCode::from(2))
}
