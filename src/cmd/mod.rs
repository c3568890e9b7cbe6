//! One module per subcommand.

pub mod campaign;
pub mod check;
pub mod editor;
pub mod info;
pub mod map;
pub mod new;
pub mod odds;
pub mod pack;
pub mod query;
pub mod render;
pub mod report;
pub mod rules;
pub mod script;
pub mod simulate;
pub mod test;
pub mod view;

use kessel_core::engine::{Engine, EngineError};
use kessel_core::script::Limits;
use std::path::Path;

/// Loads a scenario into an engine, turning load errors into one readable error.
pub fn load_engine(scenario: &Path, profile: Option<&str>, seed: u64) -> anyhow::Result<Engine> {
    Engine::load(scenario, profile, seed, Limits::default()).map_err(describe)
}

/// Formats an engine error: every located problem on its own line.
pub fn describe(e: EngineError) -> anyhow::Error {
    let lines: Vec<String> = e.located().iter().map(ToString::to_string).collect();
    anyhow::anyhow!("{}", lines.join("\n"))
}
