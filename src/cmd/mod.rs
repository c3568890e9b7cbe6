//! One module per subcommand.

pub mod campaign;
pub mod check;
pub mod editor;
mod guard;
pub mod info;
pub mod limits;
pub mod lua_profile;
pub mod map;
pub mod new;
pub mod odds;
pub mod options;
pub mod pack;
pub mod query;
pub mod render;
pub mod replay;
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

/// Loads a game argument: a save (`.json`) replayed, or a scenario (a package, a bundled path or
/// a scenario folder, see [`crate::open_scenario`]) at its set-up under `profile` and `seed`.
/// `options` (`--option`) are set on top of the profile; a save keeps the options it was played
/// under, so options with a save are refused rather than lost.
pub fn load_game(
    game: &Path,
    profile: Option<&str>,
    options: &options::OptionArgs,
    seed: u64,
) -> anyhow::Result<Engine> {
    let is_save = game
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if is_save {
        if !options.is_empty() {
            anyhow::bail!(
                "--option applies to a scenario's opening; {} is a saved game, which keeps the options it was played under",
                game.display()
            );
        }
        // one game's save, or a campaign save's last game
        let engine = Engine::load_any_save(game, Limits::default(), None).map_err(describe)?;
        if let Some(note) = engine.save_changed_note() {
            eprintln!("note: {}", kessel_core::error::printable(note));
        }
        Ok(engine)
    } else {
        options.load(&crate::open_scenario(game)?, profile, seed)
    }
}

/// Formats an engine error: every located problem on its own line.
pub fn describe(e: EngineError) -> anyhow::Error {
    let lines: Vec<String> = e.located().iter().map(ToString::to_string).collect();
    anyhow::anyhow!("{}", lines.join("\n"))
}

/// `n` with the noun in the number it takes: `1 unit`, `0 units`, `3 units`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub use guard::{overwrite_only, Output};
