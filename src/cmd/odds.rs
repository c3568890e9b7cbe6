//! `kessel odds`: the odds column for an attack and the chance of each combat result, with the
//! ruleset's modifiers (terrain and the like) applied and explained.

use kessel_core::engine::{Engine, OddsReport};
use kessel_core::script::Limits;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `kessel odds`.
#[derive(clap::Args)]
pub struct Args {
    /// Total attack strength (not needed with `--flag list`).
    attack: Option<i32>,
    /// Total defence strength (not needed with `--flag list`).
    defense: Option<i32>,
    /// Modifier flags the ruleset knows (PGG: `forest`, `river`, `major_city`, `out_of_supply`);
    /// repeatable. `--flag list` shows them.
    #[arg(long = "flag", short = 'f')]
    flags: Vec<String>,
    /// Column shift (positive favours the attacker).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    shift: i32,
    /// Die roll modifier, added to every roll (on top of the ruleset's `odds` hook's).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    drm: i32,
    /// Ruleset folder (default: the working folder or the nearest one above it holding init.lua,
    /// else scripts/pgg).
    #[arg(long)]
    ruleset: Option<PathBuf>,
    /// A scenario (TOML or .kessel) whose ruleset, and profile unless --profile names another,
    /// the odds are read under, as every other command reads a scenario's.
    #[arg(long, conflicts_with = "ruleset")]
    scenario: Option<PathBuf>,
    /// Results table id.
    #[arg(long, default_value = "crt")]
    table: String,
    /// Profile name or path.
    #[arg(long)]
    profile: Option<String>,
    #[command(flatten)]
    options: super::options::OptionArgs,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let engine = match &args.scenario {
        Some(scenario) => {
            let path = crate::open_scenario(scenario)?;
            args.options
                .load(&path, args.profile.as_deref(), crate::DEFAULT_SEED)?
        }
        None => ruleset_engine(&args)?,
    };
    // `--flag list` asks the ruleset for its flags: no strengths are needed for that
    let listing = args.flags.iter().any(|f| f == "list");
    let (attack, defense) = match (args.attack, args.defense) {
        (Some(a), Some(d)) => (a, d),
        (None, None) if listing => (1, 1),
        _ => anyhow::bail!(
            "give the attack and the defence strength, as `kessel odds 6 2` (only `--flag list` goes without them)"
        ),
    };
    let report = engine
        .odds(
            &args.table,
            attack,
            defense,
            (args.shift, args.drm),
            &args.flags,
        )
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    if listing && args.attack.is_none() {
        for m in &report.modifiers {
            println!("{m}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    // which interpretation the odds are read under: a GM comparing two profiles must see it
    let profile = engine.options().profile.clone();
    if args.scenario.is_some() || args.profile.is_some() {
        let shown = if profile.is_empty() {
            "defaults"
        } else {
            profile.as_str()
        };
        println!("profile {shown}");
    }
    print!("{}", report_text(&report));
    Ok(ExitCode::SUCCESS)
}

/// The ruleset's engine (no scenario), with the profile and options given.
fn ruleset_engine(args: &Args) -> anyhow::Result<Engine> {
    // in a ruleset's own folder the odds are its table's: they were PGG's, without a word
    let ruleset = match &args.ruleset {
        Some(r) => r.clone(),
        None => match ruleset_here() {
            Some(found) => {
                eprintln!(
                    "note: the ruleset of {} (the folder holding init.lua); --ruleset names another",
                    found.display()
                );
                found
            }
            None => PathBuf::from("scripts/pgg"),
        },
    };
    let mut engine = Engine::bare(&crate::open_ruleset(&ruleset)?, Limits::default())
        .map_err(super::describe)?;
    if args.profile.is_some() {
        engine
            .apply_profile(args.profile.as_deref())
            .map_err(super::describe)?;
    }
    args.options.apply(&mut engine)?;
    Ok(engine)
}

/// The working folder or the nearest folder above it that holds a ruleset's `init.lua`.
fn ruleset_here() -> Option<PathBuf> {
    let here = std::fs::canonicalize(".").ok()?;
    here.ancestors()
        .find(|d| d.join("init.lua").is_file())
        .map(Path::to_path_buf)
}

/// The report as players read it: strengths, each modifier with its rule, the column, and each
/// result's chance with the rolls that give it.
pub fn report_text(r: &OddsReport) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "attack {} vs defence {}", r.attack, r.defence);
    for m in &r.modifiers {
        let _ = writeln!(s, "  {m}");
    }
    // with modifiers listed, always say what they came to: a doubling and a halving that cancel
    // out must not read as if neither had been applied
    let changed = (r.modified_attack, r.modified_defence) != (r.attack, r.defence);
    if changed || !r.modifiers.is_empty() {
        let _ = writeln!(
            s,
            "modified: attack {} vs defence {}{}",
            r.modified_attack,
            r.modified_defence,
            if changed { "" } else { " (unchanged)" }
        );
    }
    if r.shift != 0 {
        let _ = writeln!(s, "column shift {:+}", r.shift);
    }
    if r.drm != 0 {
        let _ = writeln!(
            s,
            "die roll modifier {:+} (the rolls below are the die's)",
            r.drm
        );
    }
    let edge = if r.below {
        " (below the table: resolved on its first column)"
    } else if r.above {
        " (above the table: resolved on its last column)"
    } else {
        ""
    };
    let _ = writeln!(s, "odds column {}{edge}", r.column);
    for c in &r.chances {
        let rolls: Vec<String> = c.rolls.iter().map(i32::to_string).collect();
        let _ = writeln!(
            s,
            "  {:<6} {:>5.1}%  (roll {})",
            c.code,
            c.probability * 100.0,
            rolls.join(", ")
        );
    }
    s
}
