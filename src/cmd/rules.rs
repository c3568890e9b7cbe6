//! `kessel rules`: every option of a scenario's ruleset under a profile, or the difference
//! between two profiles.

use super::load_engine;
use std::path::PathBuf;
use std::process::ExitCode;

/// `println!` for the listing, whose descriptions come from the ruleset: shown, never obeyed by
/// the terminal (see [`kessel_core::error::terminal_safe`]); a description's further lines are
/// indented, so they read as its own and never as another option's row.
macro_rules! say {
    ($($arg:tt)*) => {
        println!(
            "{}",
            kessel_core::error::terminal_safe(&kessel_core::error::continued(&format!($($arg)*)))
        )
    };
}

/// Arguments of `kessel rules`.
#[derive(clap::Args)]
pub struct Args {
    /// Scenario file (TOML) or package (.kessel); its ruleset's options are listed.
    #[arg(default_value = crate::DEFAULT_SCENARIO)]
    scenario: PathBuf,
    /// Profile: a name of the ruleset's (in its profiles/ folder, or for Kessel's own copy of
    /// the rules in ~/kessel/profiles/<ruleset>/), or a path.
    #[arg(long)]
    profile: Option<String>,
    #[command(flatten)]
    options: super::options::OptionArgs,
    /// Show only the options whose values differ between --profile and this profile.
    #[arg(long)]
    diff: Option<String>,
}

fn show(v: Option<&serde_json::Value>) -> String {
    match v {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => "-".into(),
    }
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let args = Args {
        scenario: crate::open_scenario(&args.scenario)?,
        ..args
    };
    let engine = args
        .options
        .load(&args.scenario, args.profile.as_deref(), crate::DEFAULT_SEED)?;
    let options = engine.options();
    let profile = args.options.label(&options.profile);
    let ruleset = engine.ruleset();
    if let Some(other) = &args.diff {
        let mut second = load_engine(&args.scenario, args.profile.as_deref(), crate::DEFAULT_SEED)?;
        second.apply_profile(Some(other)).map_err(super::describe)?;
        let theirs = second.options();
        // columns as wide as their longest entry, so string values line up too
        let differing: Vec<_> = ruleset
            .options
            .iter()
            .filter(|d| options.get(&d.id) != theirs.get(&d.id))
            .collect();
        let id_w = differing
            .iter()
            .map(|d| d.id.len())
            .max()
            .unwrap_or(0)
            .max(6);
        let a_w = differing
            .iter()
            .map(|d| show(options.get(&d.id)).len())
            .chain([profile.len()])
            .max()
            .unwrap_or(0);
        let b_w = differing
            .iter()
            .map(|d| show(theirs.get(&d.id)).len())
            .chain([theirs.profile.len()])
            .max()
            .unwrap_or(0);
        say!(
            "{:<id_w$} {:>a_w$} {:>b_w$}  {:<12} description",
            "option",
            profile,
            theirs.profile,
            "rule"
        );
        let n = differing.len();
        for d in &differing {
            say!(
                "{:<id_w$} {:>a_w$} {:>b_w$}  {:<12} {}",
                d.id,
                show(options.get(&d.id)),
                show(theirs.get(&d.id)),
                d.rule,
                d.description
            );
        }
        say!("{n} of {} options differ", ruleset.options.len());
        return Ok(ExitCode::SUCCESS);
    }
    // the profile's own description heads the listing: printed for the players, the list is
    // what is in force, and the description says whose rules they are
    // (not the defaults' "every option at its default" once an --option has changed one)
    let flipped = profile != options.profile;
    let described = engine
        .profile_arg()
        .filter(|p| !(flipped && *p == kessel_core::options::DEFAULTS))
        .and_then(|p| engine.read_profile(p).ok())
        .map(|p| p.description)
        .filter(|d| !d.trim().is_empty());
    match described {
        Some(d) => say!("ruleset {} — profile {profile}: {d}", ruleset.name),
        None => say!("ruleset {} — profile {profile}", ruleset.name),
    }
    // columns as wide as their longest entry, so string values line up too
    let id_w = ruleset
        .options
        .iter()
        .map(|d| d.id.len())
        .max()
        .unwrap_or(0)
        .max(6);
    let v_w = ruleset
        .options
        .iter()
        .map(|d| show(options.get(&d.id)).len())
        .max()
        .unwrap_or(0)
        .max(5);
    say!(
        "{:<id_w$} {:>v_w$}  {:<12} description",
        "option",
        "value",
        "rule"
    );
    for d in &ruleset.options {
        let v = options.get(&d.id);
        let mark = if v != Some(&d.default) { "*" } else { " " };
        say!(
            "{:<id_w$} {:>v_w$}{mark} {:<12} {}",
            d.id,
            show(v),
            d.rule,
            d.description
        );
    }
    say!(
        "{} options; * = differs from the default",
        ruleset.options.len()
    );
    Ok(ExitCode::SUCCESS)
}
