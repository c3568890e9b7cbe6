//! `kessel`: the command-line front end. One file per subcommand under `cmd/`; errors become a
//! one-line cause (with file:line where there is one) and a non-zero exit.

mod cmd;
mod lab;
mod render;
mod stats;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Kessel: a moddable hex-and-counter wargame engine.
#[derive(Parser)]
#[command(name = "kessel", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Load and validate a scenario with its map, rules and profile; print a summary.
    Check(cmd::check::Args),
    /// Show a scenario's vocabulary: steps, action kinds, unit types, kinds, areas, places, pools,
    /// options in force and scenario variables (`--json` for tools).
    Info(cmd::info::Args),
    /// List every option of a scenario's ruleset with its value, reference and description.
    Rules(cmd::rules::Args),
    /// Show the odds column and the chance of each combat result.
    Odds(cmd::odds::Args),
    /// Ask a ruleset's declared queries (supply, MP left, odds, ...) about a scenario or a saved
    /// game; without a query id, list them.
    Query(cmd::query::Args),
    /// Run a Lua script with the full engine API.
    Script(cmd::script::Args),
    /// Run Lua rule tests; the last line is `N passed, N failed`.
    Test(cmd::test::Args),
    /// Play AI-vs-AI games headless and summarise the results (levels, VP, paired difference).
    Simulate(cmd::simulate::Args),
    /// Merge `simulate --out` data files, print their statistics, write an HTML report.
    Report(cmd::report::Args),
    /// Open the map and scenario editor.
    Editor(cmd::editor::Args),
    /// Draw a scenario's map (terrain, hex numbers, rivers, roads, railways, cities, units) to SVG
    /// or PNG.
    Render(cmd::render::Args),
}

/// The bundled campaign, used when a command needs a scenario and none is given.
pub const DEFAULT_SCENARIO: &str = "scenarios/pgg/campaign.toml";

/// The default dice seed.
pub const DEFAULT_SEED: u64 = 1;

fn main() -> ExitCode {
    quiet_on_broken_pipe();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(a) => cmd::check::run(a),
        Command::Info(a) => cmd::info::run(a),
        Command::Rules(a) => cmd::rules::run(a),
        Command::Odds(a) => cmd::odds::run(a),
        Command::Query(a) => cmd::query::run(a),
        Command::Script(a) => cmd::script::run(a),
        Command::Test(a) => cmd::test::run(a),
        Command::Simulate(a) => cmd::simulate::run(a),
        Command::Report(a) => cmd::report::run(a),
        Command::Editor(a) => cmd::editor::run(a),
        Command::Render(a) => cmd::render::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// `kessel check … | head` closes our stdout early; that is the reader's choice, not a crash, so
/// end quietly instead of printing a panic.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if text.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

/// Resolves an optional scenario argument to the bundled campaign.
pub fn scenario_or_default(s: Option<PathBuf>) -> PathBuf {
    s.unwrap_or_else(|| PathBuf::from(DEFAULT_SCENARIO))
}
