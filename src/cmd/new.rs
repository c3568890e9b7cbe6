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
    #[arg(long, required_unless_present = "extends")]
    map: Option<PathBuf>,
    /// The ruleset folder (the one holding init.lua), e.g. scripts/pgg.
    #[arg(long, required_unless_present = "extends")]
    ruleset: Option<PathBuf>,
    /// Write a variant of this scenario instead: a scenario.toml that extends it and gives only
    /// what differs (its ruleset, map and order of battle are the base's), with the merge rule
    /// in its comments.
    #[arg(long, conflicts_with_all = ["map", "ruleset"])]
    extends: Option<PathBuf>,
    /// The scenario's name (default: the folder's name).
    #[arg(long)]
    name: Option<String>,
    /// Game-turns the scenario lasts (default 5; a variant: the base's).
    #[arg(long)]
    turns: Option<u32>,
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
    if let Some(base) = &args.extends {
        return variant(&args, base);
    }
    let (Some(map), Some(ruleset)) = (&args.map, &args.ruleset) else {
        anyhow::bail!("give --map and --ruleset, or --extends");
    };
    let map = crate::bundle::resolve(map)?;
    let ruleset = crate::open_ruleset(ruleset)?;
    let scenario = new_scenario(&NewScenario {
        dir: &args.dir,
        map: MapSource::File(&map),
        ruleset: &ruleset,
        name: args.name.as_deref(),
        turns: args.turns.unwrap_or(5),
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

/// A variant's length: `--turns` and `--first-turn` given are written (they replace the base's),
/// the base's shown commented out otherwise.
fn variant_length(args: &ScenarioArgs, base: &kessel_core::scenario::Scenario) -> String {
    let turns = match args.turns {
        Some(t) => format!("turns = {t}\n"),
        None => format!("# turns = {}\n", base.turns),
    };
    let first = match args.first_turn {
        Some(f) => format!("first_turn = {f}\n"),
        None => format!("# first_turn = {}\n", base.first_turn),
    };
    format!("{turns}{first}")
}

/// `kessel new scenario DIR --extends BASE`: a scenario file that extends `base`, loaded before
/// it is kept (the folder's other files are the designer's to add).
fn variant(args: &ScenarioArgs, base: &std::path::Path) -> anyhow::Result<ExitCode> {
    use anyhow::Context;
    let base = crate::bundle::resolve(base)?;
    let out = args.dir.join("scenario.toml");
    anyhow::ensure!(
        !kessel_core::fsio::resolved(&out).exists(),
        "{} exists already: a new scenario is never written over one",
        out.display()
    );
    let base_scenario = kessel_core::scenario::Scenario::load(&base)
        .map_err(|e| anyhow::anyhow!("{e}"))
        .with_context(|| format!("{} does not load, so nothing extends it", base.display()))?;
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("cannot create {}", args.dir.display()))?;
    let rel =
        kessel_core::scaffold::relative_to(&args.dir, &base).map_err(|e| anyhow::anyhow!("{e}"))?;
    let name = args.name.clone().unwrap_or_else(|| {
        format!(
            "{}, varied",
            base_scenario.name.replace(char::is_control, " ")
        )
    });
    let q = |s: &str| toml::Value::String(s.to_string()).to_string();
    let text = format!(
        "# A variant of {base_shown}: this file gives only what differs from it, and everything\n\
         # else is the base's, read from its file (and its folder) each time. The merge rule\n\
         # (docs/file-formats.md, \"Extending a scenario\"):\n\
         # - a table such as [vars] merges key by key; any other value given here replaces the base's;\n\
         # - [[units]], [[pools]], [[markers]], [[objectives]], [[levels]] and `scripts` are added to;\n\
         #   an entry with the id (a level or objective: the name) of one of the base's replaces it,\n\
         #   whole, and `remove = true` beside the id takes it out.\n\
         # Paths here are read from this file's folder; the base's from the base's.\n\
         \n\
         [scenario]\n\
         extends = {rel}\n\
         name = {name}\n\
         {length}\
         # scripts = [\"special.lua\"]\n\
         \n\
         # [[units]]\n\
         # id = \"new-unit\"          # an id the base does not have: added\n\
         # side = \"…\"\n\
         # type = \"…\"\n\
         # faces = [\"…\"]\n\
         # at = \"…\"\n",
        base_shown = kessel_core::script::display_path(&base),
        rel = q(&rel),
        name = q(&name),
        length = variant_length(args, &base_scenario),
    );
    kessel_core::fsio::write_atomic(&out, text.as_bytes())
        .with_context(|| format!("cannot write {}", out.display()))?;
    if let Err(e) = kessel_core::scenario::Scenario::load(&out) {
        let _ = std::fs::remove_file(&out);
        anyhow::bail!("the variant would not load, so it was not kept: {e}");
    }
    println!(
        "{}: ok (extends {})",
        out.display(),
        kessel_core::script::display_path(&base)
    );
    println!("next: kessel check {0}", out.display());
    Ok(ExitCode::SUCCESS)
}
