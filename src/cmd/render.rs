//! `kessel render`: draw a scenario's map to an image.

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kessel render`.
#[derive(clap::Args)]
pub struct Args {
    /// Scenario file.
    scenario: PathBuf,
    /// Output file (.svg or .png).
    #[arg(short, long)]
    output: PathBuf,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let _ = (&args.scenario, &args.output);
    eprintln!("kessel render: not yet");
    Ok(ExitCode::from(2))
}
