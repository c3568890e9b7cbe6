//! `kessel`: the command-line front end. One file per subcommand under `cmd/`; errors become a
//! one-line cause (with file:line where there is one) and a non-zero exit.

// unsafe: one call setting an option of the allocator (see the module)
#[allow(unsafe_code)]
mod allocator;
mod bundle;
mod cmd;
mod package;
mod render;

use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
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
    /// Show what one side sees of a scenario or a saved game: hidden units absent, other sides'
    /// secret values and rolls withheld, commitments as digests.
    View(cmd::view::Args),
    /// Replay a saved game through the files now in place: does every action still play, and
    /// if not, which is the first that does not and why; `--save` writes what still replays.
    Replay(cmd::replay::Args),
    /// Run Lua rule tests; the last line is `N passed, N failed`.
    Test(cmd::test::Args),
    /// Play AI-vs-AI games headless and summarise the results (levels, VP, paired difference).
    Simulate(cmd::simulate::Args),
    /// Play a campaign headless (scenarios in a row, units and chosen variables carried from one
    /// to the next) and print what carried over; `--save` keeps it, `--verify` replays a save.
    Campaign(cmd::campaign::Args),
    /// Merge `simulate --out` data files, print their statistics, write an HTML report.
    Report(cmd::report::Args),
    /// Open the map and scenario editor.
    Editor(Box<cmd::editor::Args>),
    /// Tools on map files: `map cut` cuts a region out keeping the printed hex numbers.
    Map(cmd::map::Args),
    /// Start something new: `new scenario DIR --map … --ruleset …` writes a checked skeleton.
    New(cmd::new::Args),
    /// Pack a scenario folder into one `.kessel` file (with a hashed manifest) to share.
    Pack(cmd::pack::Args),
    /// Draw a scenario's map (terrain, hex numbers, rivers, roads, railways, cities, units, markers)
    /// to SVG or PNG.
    Render(cmd::render::Args),
}

/// The bundled campaign, used when a command needs a scenario and none is given.
pub const DEFAULT_SCENARIO: &str = bundle::DEFAULT_SCENARIO;

/// The default dice seed.
pub const DEFAULT_SEED: u64 = 1;

fn main() -> ExitCode {
    allocator::keep_freed_memory();
    quiet_on_broken_pipe();
    let cli = Cli::parse();
    kessel_core::fsio::set_ruleset_finder(bundle::ruleset_by_name);
    kessel_core::fsio::set_user_profiles(bundle::user_profiles);
    kessel_core::fsio::set_scenario_opener(|p| {
        package::is_package(p).then(|| package::open(p).map_err(|e| format!("{e:#}")))
    });
    let result = match cli.command {
        Command::Check(a) => cmd::check::run(a),
        Command::Info(a) => cmd::info::run(a),
        Command::Rules(a) => cmd::rules::run(a),
        Command::Odds(a) => cmd::odds::run(a),
        Command::Query(a) => cmd::query::run(a),
        Command::Script(a) => cmd::script::run(a),
        Command::View(a) => cmd::view::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Test(a) => cmd::test::run(a),
        Command::Simulate(a) => cmd::simulate::run(a),
        Command::Report(a) => cmd::report::run(a),
        Command::Campaign(a) => cmd::campaign::run(a),
        Command::Editor(a) => cmd::editor::run(*a),
        Command::Render(a) => cmd::render::run(a),
        Command::Map(a) => cmd::map::run(a),
        Command::New(a) => cmd::new::run(a),
        Command::Pack(a) => cmd::pack::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // a mod's names and error values reach this line: shown, never obeyed by the terminal
            // each cause in the chain in its own words, an operating system's in plain ones
            let text: Vec<String> = e
                .chain()
                .map(|cause| match cause.downcast_ref::<std::io::Error>() {
                    Some(io) => kessel_core::error::io_words(io),
                    None => cause.to_string(),
                })
                .collect();
            eprintln!("error: {}", kessel_core::error::printable(&text.join(": ")));
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

/// Resolves an optional scenario argument: none is the bundled campaign (see [`bundle`]), a
/// `.kessel` package is verified and opened (see [`package`]), anything else is a scenario file.
pub fn scenario_or_default(s: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    match s {
        None => bundle::default_scenario(),
        Some(p) => open_scenario(&p),
    }
}

/// A scenario argument as a scenario file to load: a `.kessel` package is opened; a bundled
/// scenario's path (`scenarios/yelnya`), where it does not exist (outside a checkout), is the
/// bundled copy; a folder holding `scenario.toml` stands for that file.
pub fn open_scenario(p: &Path) -> anyhow::Result<PathBuf> {
    if package::is_package(p) {
        return package::open(p);
    }
    let p = bundle::resolve(p)?;
    if p.is_dir() {
        if p.join("scenario.toml").is_file() {
            return Ok(p.join("scenario.toml"));
        }
        // a ruleset folder (scripts/pgg) given where a scenario goes: say what it is
        if p.join("init.lua").is_file() {
            anyhow::bail!(
                "{}: a ruleset folder (it holds init.lua), not a scenario: name a scenario that \
                 plays these rules (its `ruleset = …` leads here){}",
                p.display(),
                {
                    // the ruleset's own example scenarios, if it has any
                    let mut found: Vec<String> = std::fs::read_dir(p.join("examples"))
                        .into_iter()
                        .flatten()
                        .flatten()
                        .map(|e| e.path().join("scenario.toml"))
                        .filter(|f| f.is_file())
                        .map(|f| f.display().to_string())
                        .collect();
                    found.sort();
                    match found.first() {
                        Some(first) => format!(", such as {first}"),
                        None => String::new(),
                    }
                }
            );
        }
        // a folder of several scenarios (scenarios/pgg): say which files it holds
        let mut names: Vec<String> = std::fs::read_dir(&p)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|f| f.is_file() && f.extension().is_some_and(|x| x == "toml"))
            .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect();
        names.sort();
        anyhow::bail!(
            "{}: a folder with no scenario.toml; name the scenario file{}",
            p.display(),
            if names.is_empty() {
                String::new()
            } else {
                format!(" (its .toml files: {})", names.join(", "))
            }
        );
    }
    Ok(p)
}

/// A ruleset argument as a folder: a bundled ruleset's path (`scripts/pgg`), where it does not
/// exist (outside a checkout), is the bundled copy. A bare name that is no folder here but names
/// a ruleset Kessel knows (`--ruleset pgg`, as `--profile` takes names) is refused saying the
/// path to give, rather than "no ruleset here".
pub fn open_ruleset(p: &Path) -> anyhow::Result<PathBuf> {
    let dir = bundle::resolve(p)?;
    let bare = p.components().count() == 1 && !p.is_absolute();
    if bare && !dir.exists() {
        let name = p.to_string_lossy();
        if bundle::ruleset_by_name(&name).is_some() {
            anyhow::bail!(
                "{name}: no folder of that name here; a ruleset is given by its folder: \
                 scripts/{name}"
            );
        }
    }
    Ok(dir)
}

#[cfg(test)]
#[allow(unsafe_code)]
mod tests {
    unsafe extern "C" {
        fn mi_option_get(option: i32) -> std::ffi::c_long;
    }

    #[test]
    fn the_allocator_option_set_is_the_purge_delay() {
        // the default purge delay of the mimalloc built here (v3) is 1000 ms: another option at
        // that place (a library that renumbered its options) would read otherwise
        // SAFETY: reading an option is allowed at any time.
        let read = || unsafe { mi_option_get(crate::allocator::PURGE_DELAY) };
        assert_eq!(read(), 1000);
        crate::allocator::keep_freed_memory();
        assert_eq!(read(), -1);
    }
}
