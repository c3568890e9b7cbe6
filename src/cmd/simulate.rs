//! `kessel simulate`: headless AI-vs-AI games.

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kessel simulate`.
#[derive(clap::Args)]
pub struct Args {
    /// Scenario file.
    scenario: PathBuf,
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    games: u32,
    /// First seed.
    #[arg(long, default_value_t = crate::DEFAULT_SEED)]
    seed: u64,
    /// Profile name or path.
    #[arg(long)]
    profile: Option<String>,
    /// Run the same seeds under a second profile and compare.
    #[arg(long)]
    against_profile: Option<String>,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let _ = (
        &args.scenario,
        args.games,
        args.seed,
        &args.profile,
        &args.against_profile,
    );
    eprintln!("kessel simulate: not yet — the AI players arrive with the campaign issue");
    Ok(ExitCode::from(2))
}
