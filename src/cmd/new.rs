//! `kessel new scenario`: write a documented scenario skeleton (scenario file, special-rules
//! file, a rule test) for a map and a ruleset, then load it the way `kessel check` does.
//!
//! The files are written by `kessel_core::scaffold::new_scenario`, which the editor's *New
//! scenario from a region* calls too.

use kessel_core::scaffold::{new_scenario, MapSource, NewScenario};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kessel new`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: NewCommand,
}

#[derive(clap::Subcommand)]
enum NewCommand {
    /// Write a new scenario folder: scenario.toml, special.lua and tests/special_test.lua.
    Scenario(ScenarioArgs),
}

/// Arguments of `kessel new scenario`.
#[derive(clap::Args)]
struct ScenarioArgs {
    /// The scenario folder (created if missing; an existing scenario.toml is never overwritten).
    dir: PathBuf,
    /// The map file; copied into the folder as map.toml unless it already is that file.
    #[arg(long)]
    map: PathBuf,
    /// The ruleset folder (the one holding init.lua), e.g. scripts/pgg.
    #[arg(long)]
    ruleset: PathBuf,
    /// The scenario's name (default: the folder's name).
    #[arg(long)]
    name: Option<String>,
    /// Game-turns the scenario lasts.
    #[arg(long, default_value_t = 5)]
    turns: u32,
    /// The game-turn it starts on (default 1): a scenario later in the calendar, as
    /// `--first-turn 7 --turns 6` plays turns 7 to 12.
    #[arg(long, value_name = "N")]
    first_turn: Option<u32>,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        NewCommand::Scenario(a) => scenario(a),
    }
}

fn scenario(args: ScenarioArgs) -> anyhow::Result<ExitCode> {
    let map = crate::bundle::resolve(&args.map)?;
    let ruleset = crate::open_ruleset(&args.ruleset)?;
    let scenario = new_scenario(&NewScenario {
        dir: &args.dir,
        map: MapSource::File(&map),
        ruleset: &ruleset,
        name: args.name.as_deref(),
        turns: args.turns,
        first_turn: args.first_turn,
    })
    .map_err(|e| {
        let lines: Vec<String> = e.located().iter().map(ToString::to_string).collect();
        anyhow::anyhow!("{}", lines.join("\n"))
    })?;
    if crate::bundle::not_the_users(&ruleset.join("init.lua")).is_some() {
        eprintln!(
            "note: the scenario's ruleset is the copy bundled with this version of Kessel ({}); \
             a new version writes its own elsewhere, so after an upgrade run `kessel check` and \
             point `ruleset` in scenario.toml at the new copy if it asks",
            ruleset.display()
        );
    }
    println!(
        "{}: ok (written with map.toml, special.lua, tests/special_test.lua)",
        scenario.display()
    );
    println!(
        "next: kessel check {0}; kessel test {0}",
        args.dir.display()
    );
    Ok(ExitCode::SUCCESS)
}
