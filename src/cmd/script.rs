//! `kessel script`: run a Lua file with the full engine API.

use anyhow::Context;
use kessel_core::engine::Engine;
use kessel_core::script::Limits;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `kessel script`.
#[derive(clap::Args)]
pub struct Args {
    /// The Lua script.
    file: PathBuf,
    /// Scenario to load first (its ruleset is used).
    #[arg(long)]
    scenario: Option<PathBuf>,
    /// A saved game to go on from (its scenario, profile, options and dice are the save's): the
    /// script's actions follow those saved, `kessel.undo()` takes back saved ones too, and
    /// `--save` writes the whole game.
    #[arg(long, value_name = "SAVE", conflicts_with_all = ["scenario", "ruleset", "profile", "seed"])]
    load: Option<PathBuf>,
    /// Ruleset folder, when no scenario is given (default: the folder above the script holding
    /// init.lua, else scripts/pgg).
    #[arg(long)]
    ruleset: Option<PathBuf>,
    /// Profile name or path.
    #[arg(long)]
    profile: Option<String>,
    #[command(flatten)]
    options: super::options::OptionArgs,
    /// Dice seed.
    #[arg(long, default_value_t = crate::DEFAULT_SEED)]
    seed: u64,
    #[command(flatten)]
    limits: super::limits::LimitArgs,
    /// Write the game the script played as a save (needs --scenario or --load), for `kessel view`
    /// or the editor.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    #[command(flatten)]
    lua_profile: super::lua_profile::LuaProfileArgs,
}

/// Finds the ruleset folder for a script: the nearest ancestor holding init.lua.
pub fn ruleset_for(file: &Path) -> Option<PathBuf> {
    let abs = std::fs::canonicalize(file).ok()?;
    let mut dir = abs.parent();
    while let Some(d) = dir {
        if d.join("init.lua").is_file() {
            return Some(d.to_path_buf());
        }
        dir = d.parent();
    }
    None
}

/// Runs the command (profiled as a whole with `--lua-profile`: loading the rules runs Lua too).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let profiled = args.lua_profile.clone();
    profiled.around(|| run_script(args))
}

fn run_script(args: Args) -> anyhow::Result<ExitCode> {
    let limits = args.limits.limits()?;
    if !args.file.is_file() {
        if args.file.exists() {
            anyhow::bail!(
                "{}: not a script file (a folder, a device or a FIFO)",
                args.file.display()
            );
        }
        anyhow::bail!("{}: no such script", args.file.display());
    }
    if args.load.is_some() && !args.options.values().is_empty() {
        anyhow::bail!(
            "--option does not go with --load: the save holds the options its game is played under"
        );
    }
    // who played each side, kept in a save written from a loaded one
    let mut players = Default::default();
    let mut engine = match (&args.load, &args.scenario) {
        (Some(save), _) => {
            let (engine, seats) = Engine::load_save_with_players(save, limits).map_err(|e| {
                // a scenario given to --load: say what it is and where it goes
                use kessel_core::fsio::{not_the_kind, read_bounded, KesselFile, KesselJson};
                let text = read_bounded(save, kessel_core::fsio::MAX_TEXT_INPUT)
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
                    .unwrap_or_default();
                match not_the_kind(save, &text, KesselFile::Json(KesselJson::Save), "a save") {
                    Some(why) => anyhow::anyhow!("--load {}: {why}", save.display()),
                    None => super::describe(e),
                }
            })?;
            players = seats;
            engine
        }
        (None, Some(s)) => {
            let s = crate::open_scenario(s)?;
            // (options set before the set-up, which sees them)
            Engine::load_with_options(
                &s,
                args.profile.as_deref(),
                &args.options.values(),
                args.seed,
                limits,
            )
            .map_err(|e| kessel_lab::option_error(e, &args.options.options))?
        }
        (None, None) => {
            let dir = args
                .ruleset
                .clone()
                .or_else(|| ruleset_for(&args.file))
                .unwrap_or_else(|| PathBuf::from(crate::bundle::DEFAULT_RULESET));
            let dir = crate::open_ruleset(&dir)?;
            let mut e = Engine::bare(&dir, limits).map_err(super::describe)?;
            e.reseed(args.seed);
            if args.profile.is_some() {
                e.apply_profile(args.profile.as_deref())
                    .map_err(super::describe)?;
            }
            e
        }
    };
    if args.scenario.is_none() && args.load.is_none() {
        args.options.apply(&mut engine)?;
    }
    if args.save.is_some() && args.scenario.is_none() && args.load.is_none() {
        anyhow::bail!("--save needs --scenario or --load: a save names the scenario it replays");
    }
    if let Some(out) = &args.save {
        super::overwrite_only(out, super::Output::Save)?;
    }
    match engine.run_script(&args.file) {
        Ok(()) => {
            if let Some(out) = &args.save {
                // paths relative to the save's folder: it loads from any working folder
                let text = engine
                    .save_as(out, &players)
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
                save_checked(out, &text, engine.changed_outside_actions())?;
                // on stderr, so stdout stays the script's own prints; a run that said nothing
                // left a newcomer unsure the save was written
                let w = engine.world();
                let step = w
                    .current_step()
                    .map_or_else(String::new, |s| format!(", {}", s.name));
                eprintln!(
                    "{}: saved, {} played (turn {}{step}); `kessel view` or `kessel editor` opens it",
                    out.display(),
                    count_actions(engine.log().len()),
                    w.state.turn,
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            // another of Kessel's files given as the script: say which it is
            use kessel_core::fsio::{not_the_kind, read_bounded, KesselFile, MAX_TEXT_INPUT};
            let other = read_bounded(&args.file, MAX_TEXT_INPUT).ok().and_then(|b| {
                let text = String::from_utf8_lossy(&b);
                not_the_kind(&args.file, &text, KesselFile::Lua, "a Lua script")
            });
            let message = match other {
                Some(why) => format!("{}: {why}", args.file.display()),
                // the whole file is one call: a script that plays a long game runs out where a
                // game in `simulate` (a call per decision) does not, and the message only
                // asked about an endless loop
                None if e.message.contains("instruction budget exceeded")
                    || e.message.contains("time limit exceeded") =>
                {
                    format!(
                        "{} (a `kessel script` file is one call, however many actions it \
                         takes: --budget N allows N million instructions, --seconds S more time)",
                        e.message
                    )
                }
                None => e.message,
            };
            eprintln!("error: {}", kessel_core::error::printable(&message));
            Ok(ExitCode::FAILURE)
        }
    }
}

fn count_actions(n: usize) -> String {
    if n == 1 {
        "1 action".into()
    } else {
        format!("{n} actions")
    }
}

/// Writes a save only once it loads back: a save holds the scenario and the actions played, so a
/// game the script changed besides (`kessel.emit.*`, `kessel.setup` or injected dice outside an
/// action) would be written, said to be saved, and then refused by every loader as edited.
/// Checked on a temporary copy beside `out`, so the file named is written whole or not at all.
pub(super) fn save_checked(
    out: &Path,
    text: &str,
    changed_outside_actions: bool,
) -> anyhow::Result<()> {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "save".into());
    let probe = out.with_file_name(format!(".{name}.checking"));
    kessel_core::fsio::write_atomic(&probe, text.as_bytes()).map_err(|e| {
        anyhow::anyhow!(
            "cannot write {}: {}",
            out.display(),
            kessel_core::error::io_words(&e.error)
        )
    })?;
    let loaded = Engine::load_save(&probe, Limits::default());
    let _ = std::fs::remove_file(&probe);
    if let Err(e) = loaded {
        // (the loader, which cannot tell, blames an edit of the save: there was none)
        use kessel_core::engine::{EDITED_HISTORY, EDITED_REMEDY, EDITED_STATE};
        let remedy = format!(" ({EDITED_REMEDY})");
        let why = e
            .to_string()
            .replace(&probe.display().to_string(), "the save")
            .replace(&format!("{EDITED_HISTORY}: "), "")
            .replace(&format!(": {EDITED_STATE}{remedy}"), "")
            .replace(&remedy, "");
        // (the scenario and rules cannot have changed within this run: what the loader blames
        // on them is the script's own change of the game outside actions, or rules that do not
        // give the same events for the same actions)
        if changed_outside_actions {
            anyhow::bail!(
                "{}: not written: the script changed the game outside actions (kessel.emit.*, \
                 kessel.setup, kessel.inject_dice), which a save does not record (it holds the \
                 scenario and the actions played), so the game would not load back from it: make \
                 those changes actions, or put them in the scenario. Loading it back said: {why}",
                out.display()
            );
        }
        anyhow::bail!(
            "{}: not written: played again from the scenario, the same actions do not give the \
             same game, so the rules are not deterministic and no save of this game would load \
             back. Look in the rules for what the action named below does that a replay does \
             not repeat: iterating with `pairs` over a table whose keys are tables or functions \
             (their order follows memory addresses), or a value kept in Lua between actions \
             rather than in the game state. Loading it back said: {why}",
            out.display()
        );
    }
    kessel_core::fsio::write_atomic(out, text.as_bytes())
        .with_context(|| format!("cannot write {}", out.display()))
}
