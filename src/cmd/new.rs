//! `kessel new scenario`: write a documented scenario skeleton (scenario file, special-rules
//! file, a rule test) for a map and a ruleset, then load it the way `kessel check` does.

use super::load_engine;
use anyhow::Context;
use kessel_core::engine::Engine;
use kessel_core::fsio::write_atomic;
use kessel_core::ruleset::Ruleset;
use kessel_core::scenario::load_map;
use kessel_core::script::Limits;
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};
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
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        NewCommand::Scenario(a) => scenario(a),
    }
}

const FILES: [&str; 3] = ["scenario.toml", "special.lua", "tests/special_test.lua"];

fn scenario(args: ScenarioArgs) -> anyhow::Result<ExitCode> {
    let args = ScenarioArgs {
        map: crate::bundle::resolve(&args.map)?,
        ruleset: crate::open_ruleset(&args.ruleset)?,
        ..args
    };
    for f in FILES {
        let p = args.dir.join(f);
        anyhow::ensure!(
            !p.exists(),
            "{} exists already: pick a new folder, or move it away first",
            p.display()
        );
    }
    anyhow::ensure!(args.turns >= 1, "--turns must be at least 1");
    let map = load_map(&args.map).map_err(|e| anyhow::anyhow!("{e}"))?;
    let engine = Engine::bare(&args.ruleset, Limits::default())
        .map_err(super::describe)
        .with_context(|| format!("cannot load the ruleset {}", args.ruleset.display()))?;
    let rules = engine.ruleset();
    std::fs::create_dir_all(args.dir.join("tests"))
        .with_context(|| format!("cannot create {}", args.dir.display()))?;
    let map_dest = args.dir.join("map.toml");
    if !same_file(&args.map, &map_dest) {
        anyhow::ensure!(
            !map_dest.exists(),
            "{} exists already and is not the --map file",
            map_dest.display()
        );
        let bytes = std::fs::read(&args.map)
            .with_context(|| format!("cannot read {}", args.map.display()))?;
        write_atomic(&map_dest, &bytes)?;
    }
    let ruleset_rel = relative_to(&args.dir, &args.ruleset)?;
    let name = args.name.clone().unwrap_or_else(|| {
        args.dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "New scenario".into())
    });
    let skeleton = Skeleton {
        name: &name,
        ruleset: &ruleset_rel,
        turns: args.turns,
        map_name: &map.name,
        first: map.label(map.hex_at(0, 0)),
        last: map.label(map.hex_at(map.columns() as i32 - 1, map.rows() as i32 - 1)),
        profiles: profiles(&args.ruleset),
    };
    let texts = [
        skeleton.scenario_toml(&rules),
        skeleton.special_lua(),
        skeleton.test_lua(),
    ];
    for (f, text) in FILES.iter().zip(&texts) {
        write_atomic(&args.dir.join(f), text.as_bytes())?;
    }
    let scenario = args.dir.join("scenario.toml");
    load_engine(&scenario, None, crate::DEFAULT_SEED)
        .with_context(|| format!("the new scenario {} does not load", scenario.display()))?;
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

/// True if both paths name one existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// `target` as a path relative to the folder `from` (both made absolute first), with `/`
/// separators, as scenario files write it.
fn relative_to(from: &Path, target: &Path) -> anyhow::Result<String> {
    let from = from
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", from.display()))?;
    let target = target
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", target.display()))?;
    let (f, t): (Vec<Component>, Vec<Component>) =
        (from.components().collect(), target.components().collect());
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".into(); f.len() - common];
    parts.extend(
        t[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    Ok(if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    })
}

/// Profile names in the ruleset's profiles/ folder, sorted.
fn profiles(ruleset: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(ruleset.join("profiles"))
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// What the skeleton's texts are made of.
struct Skeleton<'a> {
    name: &'a str,
    ruleset: &'a str,
    turns: u32,
    map_name: &'a str,
    first: String,
    last: String,
    profiles: Vec<String>,
}

impl Skeleton<'_> {
    fn scenario_toml(&self, rules: &Ruleset) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "# {} — written by `kessel new scenario`; see docs/scenario-guide.md and\n\
             # docs/file-formats.md for every key. Check it with `kessel check` after each change.\n",
            self.name
        );
        s.push_str("# --- The scenario: its ruleset, map, length and special rules ----------------------------\n");
        s.push_str("[scenario]\n");
        let _ = writeln!(s, "name = {}", toml_str(self.name));
        let _ = writeln!(
            s,
            "ruleset = {}          # the ruleset folder, relative to this file",
            toml_str(self.ruleset)
        );
        if self.profiles.is_empty() {
            s.push_str(
                "# profile = \"…\"     # the ruleset has no profiles/ folder: its defaults apply\n",
            );
        } else {
            let _ = writeln!(
                s,
                "# profile = {}     # option values; the ruleset has: {}; none = its defaults",
                toml_str(&self.profiles[0]),
                self.profiles.join(", ")
            );
        }
        let _ = writeln!(
            s,
            "map = \"map.toml\"         # {} — hexes {} to {}, numbered as printed",
            self.map_name, self.first, self.last
        );
        let _ = writeln!(s, "turns = {}", self.turns);
        s.push_str("# first_turn = 1         # the game-turn the scenario starts on\n");
        s.push_str(
            "scripts = [\"special.lua\"] # this scenario's own rules, run after the ruleset's\n",
        );
        s.push_str("notes = \"\"\"\nWhat the players are told before they start: the situation, the special rules.\n\"\"\"\n\n");

        s.push_str("# --- Units: one [[units]] table per counter -------------------------------------------\n");
        s.push_str("# id (unique), side, type, faces (full strength first), and where it starts: `at = \"CCRR\"`,\n");
        s.push_str("# `area = \"ID\"` (set up anywhere in an area), or `enter = { turn = N, area = \"ID\" }`.\n");
        let _ = writeln!(s, "# Sides of this ruleset: {}.", rules.sides.join(", "));
        s.push_str("# Unit types (see `kessel info` for what each means):\n");
        for (id, t) in &rules.unit_types {
            let side = t.get("side").and_then(|v| v.as_str()).unwrap_or("any side");
            let _ = writeln!(s, "#   {id:<14} {side}");
        }
        let example_side = rules.sides.first().map_or("SIDE", String::as_str);
        // a type of that side if the ruleset ties types to sides, else any
        let example_type = rules
            .unit_types
            .iter()
            .find(|(_, t)| t.get("side").and_then(|v| v.as_str()) == Some(example_side))
            .or_else(|| rules.unit_types.iter().next())
            .map_or("TYPE", |(id, _)| id.as_str());
        let _ = writeln!(
            s,
            "#\n# [[units]]\n# id = \"u1\"\n# side = {}\n# type = {}\n# faces = [\"…\"]\n# at = {}\n",
            toml_str(example_side),
            toml_str(example_type),
            toml_str(&self.first)
        );

        s.push_str("# --- Victory: [[objectives]] (a place or hex worth VP to a side) and [[levels]] ------------\n");
        s.push_str("# [[objectives]]\n# place = \"…\"\n# vp = 10\n");
        let _ = writeln!(s, "# side = {}\n", toml_str(example_side));
        s.push_str("# [[levels]]\n# name = \"…\"\n# max = 9\n\n");

        s.push_str("# --- Scenario variables the ruleset reads ---------------------------------------------\n");
        s.push_str("# Left out, a variable takes the ruleset's default (said in its description). Mechanics of a\n");
        s.push_str("# whole campaign (reinforcement rolls, calls on other fronts, …) stay off in a new scenario\n");
        s.push_str("# unless you turn them on here.\n");
        s.push_str("[vars]\n");
        if rules.scenario_vars.is_empty() {
            s.push_str("# (this ruleset declares none)\n");
        }
        for (id, v) in &rules.scenario_vars {
            let _ = writeln!(s, "# {id} = …   # {}: {}", v.kind, v.description);
        }
        s
    }

    fn special_lua(&self) -> String {
        format!(
            "-- Special rules of {name}, run after the ruleset's own files (listed in scenario.toml's\n\
             -- `scripts`). Name each rule with an id of its own (S1, S2, …) so refusals cite it.\n\
             --\n\
             -- A special rule usually wraps an action of the ruleset: take its handlers, and refuse what\n\
             -- the rule forbids before asking the ruleset. For example, to keep a hex closed:\n\
             --\n\
             --   local move = kessel.action_handlers(\"move\")\n\
             --   local function closed(a)\n\
             --     for _, h in ipairs(a.path or {{}}) do\n\
             --       if h == \"{first}\" then return {{ rule = \"S1\", message = \"{first} is closed\" }} end\n\
             --     end\n\
             --   end\n\
             --   kessel.action{{\n\
             --     kind = \"move\", rule = move.rule, description = move.description,\n\
             --     validate = function(a) return closed(a) or move.validate(a) end,\n\
             --     apply = move.apply,\n\
             --     enumerate = function(side)\n\
             --       local out = {{}}\n\
             --       for _, a in ipairs(move.enumerate(side) or {{}}) do\n\
             --         if not closed(a) then out[#out + 1] = a end\n\
             --       end\n\
             --       return out\n\
             --     end,\n\
             --   }}\n\
             --\n\
             -- docs/lua-api.md lists everything a rule can read and do.\n",
            name = self.name,
            first = self.first
        )
    }

    fn test_lua(&self) -> String {
        format!(
            "-- Rule tests of {name}: `kessel test` on the scenario folder runs every kessel.test here,\n\
             -- each from the scenario's set-up. Name a test after the rule it guards (case_S1_…).\n\
             local expect = kessel.expect\n\
             \n\
             kessel.test(\"scenario_runs_its_turns\", function()\n\
             \x20 expect.eq(kessel.game.last_turn() - kessel.game.turn() + 1, {turns}, \"turns in scenario.toml\")\n\
             end)\n\
             \n\
             -- The legal actions at the start must pass the rules' own checks: a special rule that\n\
             -- refuses something must also leave it out of `enumerate`, or the AI and the editor offer it.\n\
             kessel.test(\"legal_actions_at_the_start_are_valid\", function()\n\
             \x20 for _, a in ipairs(kessel.legal()) do\n\
             \x20   local ok, reasons = kessel.validate(a)\n\
             \x20   expect.accepted(ok, reasons)\n\
             \x20 end\n\
             end)\n",
            name = self.name,
            turns = self.turns
        )
    }
}

/// A TOML basic string.
fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_and_descend() {
        let root = std::env::temp_dir().join(format!("kessel-rel-{}", std::process::id()));
        let (a, b) = (root.join("x/cut"), root.join("scripts/pgg"));
        std::fs::create_dir_all(&a).expect("mkdir");
        std::fs::create_dir_all(&b).expect("mkdir");
        assert_eq!(
            relative_to(&a, &b).expect("both exist"),
            "../../scripts/pgg"
        );
        assert_eq!(relative_to(&a, &a).expect("exists"), ".");
        assert!(relative_to(&root.join("missing"), &b).is_err());
        let _ = std::fs::remove_dir_all(&root);
    }
}
