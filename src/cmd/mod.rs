//! One module per subcommand.

pub mod campaign;
pub mod check;
pub mod editor;
pub mod info;
pub mod map;
pub mod new;
pub mod odds;
pub mod options;
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
        Engine::load_any_save(game, Limits::default(), None).map_err(describe)
    } else {
        let mut engine = load_engine(&crate::open_scenario(game)?, profile, seed)?;
        options.apply(&mut engine)?;
        Ok(engine)
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

/// Refuses to write an output over an existing file that is not what the command writes (`what`,
/// recognised by `marker` near its start): `kessel script --save scenario.toml` would have
/// replaced the scenario with a save, `simulate --out map.toml` the map with game records. An
/// absent or empty file, or one holding `marker` in its first 4 KiB, may be written.
pub fn overwrite_only(out: &Path, what: &str, marker: &str) -> anyhow::Result<()> {
    use std::io::Read as _;
    let Ok(meta) = std::fs::metadata(out) else {
        return Ok(());
    };
    if meta.is_dir() {
        anyhow::bail!("{}: a folder; name the {what} file to write", out.display());
    }
    if meta.len() == 0 {
        return Ok(());
    }
    let mut head = Vec::new();
    let read = std::fs::File::open(out).and_then(|f| f.take(4096).read_to_end(&mut head));
    let is_ours = read.is_ok() && String::from_utf8_lossy(&head).contains(marker);
    if !is_ours {
        anyhow::bail!(
            "{}: the file exists and is not a {what}; not overwriting it (name a new file, or remove this one first)",
            out.display()
        );
    }
    Ok(())
}
