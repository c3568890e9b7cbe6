//! `kessel odds`: the odds column for an attack and the chance of each combat result, with the
//! ruleset's modifiers (terrain and the like) applied and explained.

use kessel_core::engine::Engine;
use kessel_core::script::Limits;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kessel odds`.
#[derive(clap::Args)]
pub struct Args {
    /// Total attack strength.
    attack: i32,
    /// Total defence strength.
    defense: i32,
    /// Modifier flags the ruleset knows (e.g. `forest`, `river`, `city`, `out_of_supply`);
    /// repeatable. `--flag list` shows them.
    #[arg(long = "flag", short = 'f')]
    flags: Vec<String>,
    /// Column shift (positive favours the attacker).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    shift: i32,
    /// Ruleset folder.
    #[arg(long, default_value = "scripts/pgg")]
    ruleset: PathBuf,
    /// Results table id.
    #[arg(long, default_value = "crt")]
    table: String,
    /// Profile name or path.
    #[arg(long)]
    profile: Option<String>,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut engine = Engine::bare(&args.ruleset, Limits::default()).map_err(super::describe)?;
    if args.profile.is_some() {
        engine
            .apply_profile(args.profile.as_deref())
            .map_err(super::describe)?;
    }
    let report = engine
        .odds_report(
            &args.table,
            args.attack,
            args.defense,
            args.shift,
            &args.flags,
        )
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    print!("{report}");
    Ok(ExitCode::SUCCESS)
}
