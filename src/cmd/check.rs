//! `kessel check`: load a scenario with its map, rules and profile, and summarise it.

use kessel_core::engine::Engine;
use kessel_core::script::Limits;
use kessel_core::state::Location;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

/// `println!` for the summary, whose names come from data files: shown, never obeyed by the
/// terminal, and each call one line: a line break in a name is escaped, so a scenario's name
/// cannot add a line that reads as the summary's own (see [`kessel_core::error::terminal_line`]).
macro_rules! say {
    ($($arg:tt)*) => {
        println!("{}", kessel_core::error::terminal_line(&format!($($arg)*)))
    };
}

/// Arguments of `kessel check`.
#[derive(clap::Args)]
pub struct Args {
    /// Scenario file (TOML), package (.kessel) or campaign file (its games are checked in turn).
    #[arg(default_value = crate::DEFAULT_SCENARIO)]
    scenario: PathBuf,
    /// Profile: a name of the ruleset's (in its profiles/ folder, or for Kessel's own copy of
    /// the rules in ~/kessel/profiles/<ruleset>/), or a path.
    #[arg(long)]
    profile: Option<String>,
    #[command(flatten)]
    options: super::options::OptionArgs,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let path = crate::open_scenario(&args.scenario)?;
    if is_campaign_file(&path) {
        return check_campaign(&args, &path);
    }
    // every problem in one run: the data's own and the rules' checks of it
    let engine = Engine::load_reporting_all(
        &path,
        args.profile.as_deref(),
        &args.options.values(),
        crate::DEFAULT_SEED,
        Limits::default(),
    )
    .map_err(|e| {
        // a copied folder whose ruleset was found by name: said beside the errors too, since
        // the errors may be the other rules' (the note was printed only for a scenario that
        // passed, so a newcomer fixing a copy never learnt whose rules judged it)
        if let Some(note) =
            (kessel_core::scenario::Scenario::load(&path).ok()).and_then(|sc| sc.stand_in_note())
        {
            eprintln!(
                "{}",
                kessel_core::error::terminal_line(&format!("note: {note}"))
            );
        }
        kessel_lab::option_error(e, &args.options.options)
    })?;
    let state = engine.state();
    let sc = engine
        .scenario()
        .ok_or_else(|| anyhow::anyhow!("no scenario loaded"))?;
    let rules = engine.ruleset();
    let options = engine.options();
    let map = &state.map;
    say!("{}: ok", args.scenario.display());
    say!("  scenario   {}", sc.name);
    // a variant written as what differs: what it lays its keys over, nearest first
    if sc.files.len() > 1 {
        let chain: Vec<String> = (sc.bases())
            .map(|p| kessel_core::script::display_path(&kessel_core::error::shown_path(p)))
            .collect();
        say!(
            "  extends    {} (its keys laid over {})",
            chain.join(", which extends "),
            if chain.len() == 1 {
                "that file's"
            } else {
                "those files'"
            }
        );
    }
    say!(
        "  ruleset    {} ({} option{}, {} action kind{})",
        rules.name,
        rules.options.len(),
        if rules.options.len() == 1 { "" } else { "s" },
        rules.actions.len(),
        if rules.actions.len() == 1 { "" } else { "s" }
    );
    if let Some(note) = sc.stand_in_note() {
        say!("  note       {note}");
    }
    // a misspelt variable is read by no rule: the game runs as if it were left out
    if !rules.scenario_vars.is_empty() {
        let declared: Vec<&str> = rules.scenario_vars.keys().map(String::as_str).collect();
        for id in sc
            .vars
            .keys()
            .filter(|id| !rules.scenario_vars.contains_key(*id))
        {
            let at = sc
                .var_lines
                .get(id)
                .map(|l| match sc.locate(*l) {
                    (file, l) if file == sc.path => format!(" (line {l})"),
                    (file, l) => format!(" ({}:{l})", kessel_core::script::display_path(file)),
                })
                .unwrap_or_default();
            say!(
                "  note       [vars] `{id}`{at} is no variable the ruleset declares{}: no rule reads it (`kessel info` lists those it does)",
                kessel_core::names::did_you_mean(id, &declared)
            );
        }
    }
    // what the ruleset's own checks note without refusing the scenario
    for note in engine.check_notes() {
        say!("  note       {note}");
    }
    let mut terrain: BTreeMap<&str, usize> = BTreeMap::new();
    for h in map.hexes() {
        *terrain
            .entry(map.terrain_name(h).unwrap_or("?"))
            .or_default() += 1;
    }
    let terrain: Vec<String> = terrain.iter().map(|(k, v)| format!("{k} {v}")).collect();
    say!(
        "  map        {} — {}×{} hexes ({})",
        map.name,
        map.columns(),
        map.rows(),
        terrain.join(", ")
    );
    // hexside features (rivers: the sides they run along) and links (roads: the sides they
    // cross, from hex to hex) said apart: a road is no hexside to a reader of the map
    let (mut sides, mut links) = (
        BTreeMap::<&str, usize>::new(),
        BTreeMap::<&str, usize>::new(),
    );
    for f in &map.features {
        *sides.entry(f.kind.as_str()).or_default() += f.sides.len();
        *links.entry(f.kind.as_str()).or_default() += f.path.len().saturating_sub(1);
    }
    let listed = |counts: &BTreeMap<&str, usize>| -> Vec<String> {
        (counts.iter())
            .filter(|(_, n)| **n > 0)
            .map(|(k, n)| format!("{k} {n}"))
            .collect()
    };
    let (sides, links) = (listed(&sides), listed(&links));
    let counted = |n: usize, one: &str, many: &str| match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    };
    say!(
        "  hexsides   {}{}; {}, {}",
        if sides.is_empty() {
            "none".to_string()
        } else {
            sides.join(", ")
        },
        if links.is_empty() {
            String::new()
        } else {
            format!("; links {}", links.join(", "))
        },
        counted(map.places.len(), "place", "places"),
        counted(map.areas.len(), "area", "areas")
    );
    say!(
        "  turns      {} (turn {} to {})",
        sc.turns,
        sc.first_turn,
        sc.first_turn + sc.turns - 1
    );
    for side in &state.sides {
        let units: Vec<_> = state.units.iter().filter(|u| &u.side == side).collect();
        let on_map = units
            .iter()
            .filter(|u| matches!(u.location, Location::Map(_)))
            .count();
        // what the scenario file places, which is what a published set-up lists; the rules'
        // start (a setup hook) may place more before the first move
        let in_file = sc
            .units
            .iter()
            .filter(|s| &s.unit.side == side && matches!(s.unit.location, Location::Map(_)))
            .count();
        let by_rules = match on_map.cmp(&in_file) {
            std::cmp::Ordering::Greater => format!(
                " (+{} placed by the rules' start: {on_map} on the map before the first move)",
                on_map - in_file
            ),
            std::cmp::Ordering::Less => format!(
                " (-{} taken off by the rules' start: {on_map} on the map before the first move)",
                in_file - on_map
            ),
            std::cmp::Ordering::Equal => String::new(),
        };
        let later = units.iter().filter(|u| u.entry.is_some()).count();
        let mut types: BTreeMap<&str, usize> = BTreeMap::new();
        for u in &units {
            *types.entry(u.kind.as_str()).or_default() += 1;
        }
        let mut types: Vec<String> = types.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let head = format!(
            "  {:<10} {}",
            side,
            crate::cmd::count(units.len(), "unit", "units")
        );
        let tail = format!(": {in_file} at set-up{by_rules}, {later} as reinforcements");
        // the types count every unit of the side, so they follow the total, not the
        // reinforcements; a side of many types wraps under the column (the campaign's German line
        // ran to 119 characters)
        let lines = match types.first_mut() {
            None => vec![format!("{head}{tail}")],
            Some(first) => {
                first.insert(0, '(');
                wrapped(&head, &types, &format!("){tail}"))
            }
        };
        for line in lines {
            say!("{line}");
        }
        let mut schedule: BTreeMap<u32, usize> = BTreeMap::new();
        for u in &units {
            if let Some(e) = &u.entry {
                *schedule.entry(e.turn).or_default() += 1;
            }
        }
        if !schedule.is_empty() {
            let turns: Vec<String> = schedule.iter().map(|(t, n)| format!("T{t} {n}")).collect();
            say!("  {:<10} arrivals by turn: {}", "", turns.join(", "));
        }
        let reserve = units
            .iter()
            .filter(|u| u.entry.is_none() && matches!(u.location, Location::Pending))
            .count();
        if reserve > 0 {
            say!(
                "  {:<10} {reserve} in reserve (entering by the rules, not by schedule)",
                ""
            );
        }
    }
    for (id, faces) in &state.pools {
        say!("  pool       {id}: {} counters", faces.len());
    }
    let vp: i64 = sc.objectives.iter().map(|o| o.vp).sum();
    say!(
        "  victory    {} worth {vp} VP, {}",
        crate::cmd::count(sc.objectives.len(), "objective", "objectives"),
        crate::cmd::count(sc.levels.len(), "level", "levels")
    );
    let changed: Vec<String> = options
        .decls
        .iter()
        .filter(|d| options.get(&d.id) != Some(&d.default))
        .map(|d| {
            format!(
                "{}={}",
                d.id,
                options
                    .get(&d.id)
                    .map(|v| v.to_string())
                    .unwrap_or_default()
            )
        })
        .collect();
    let head = format!(
        "  profile    {} ({} of {} options differ from the defaults{}",
        args.options.label(&options.profile),
        changed.len(),
        options.decls.len(),
        if changed.is_empty() { ")" } else { ":" },
    );
    // wbc2009's 18 options made one line of about 900 characters: wrapped under the column
    for line in wrapped(&head, &changed, ")") {
        say!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}

/// `head` followed by `items`, comma-separated, in lines of at most about 100 characters, the
/// lines after the first indented under the summary's second column; `end` closes the last.
fn wrapped(head: &str, items: &[String], end: &str) -> Vec<String> {
    const WIDTH: usize = 100;
    let indent = " ".repeat(13);
    let mut lines = vec![head.to_string()];
    for (k, item) in items.iter().enumerate() {
        let piece = if k + 1 == items.len() {
            format!("{item}{end}")
        } else {
            format!("{item},")
        };
        let last = lines.last_mut().expect("the head line");
        if last.chars().count() + 1 + piece.chars().count() > WIDTH {
            lines.push(format!("{indent}{piece}"));
        } else {
            last.push(' ');
            last.push_str(&piece);
        }
    }
    lines
}

/// A campaign file, by the reading the loaders use to say what a file is.
fn is_campaign_file(path: &std::path::Path) -> bool {
    use kessel_core::fsio::{kessel_toml_kind, read_bounded, KesselToml, MAX_TEXT_INPUT};
    read_bounded(path, MAX_TEXT_INPUT).is_ok_and(|bytes| {
        kessel_toml_kind(&String::from_utf8_lossy(&bytes)) == Some(KesselToml::Campaign)
    })
}

/// `kessel check` of a campaign file: the file itself (its games, profiles and what carries),
/// then each game's scenario under the game's profile, as `kessel campaign` would start it, one
/// line each (a game's problems are said with its number, and the other games are still
/// checked), then that the games share one ruleset (and one map when the map carries).
fn check_campaign(args: &Args, path: &std::path::Path) -> anyhow::Result<ExitCode> {
    use kessel_core::campaign::{Campaign, VarsCarried};
    let campaign = Campaign::load(path).map_err(|e| anyhow::anyhow!("{e}"))?;
    // the summary's lines, printed under "ok" once every game starts (the games that do are
    // listed even when another does not)
    let mut lines = vec![format!("  campaign   {}", campaign.name)];
    let mut failed = 0;
    for (i, game) in campaign.games.iter().enumerate() {
        // the profile a game starts with: its own, else --profile, else its scenario's
        let profile = game.profile.as_deref().or(args.profile.as_deref());
        // the game's own profile naming none of the ruleset's is said at its line in the
        // campaign file, as `kessel campaign` says it (it was said at the profile file that is
        // not there)
        let misnamed = kessel_core::scenario::Scenario::load(&game.scenario)
            .ok()
            .and_then(|sc| {
                kessel_core::engine::unknown_game_profile(&campaign, i, &sc.ruleset_dir)
            });
        if let Some(e) = misnamed {
            failed += 1;
            eprintln!("error: {}", kessel_core::error::printable(&e.to_string()));
            continue;
        }
        let loaded = Engine::load_reporting_all(
            &game.scenario,
            profile,
            &args.options.values(),
            crate::DEFAULT_SEED,
            Limits::default(),
        );
        match loaded {
            Ok(engine) => {
                let name = engine
                    .scenario()
                    .map(|sc| kessel_core::engine::game_name(&campaign, i, &sc))
                    .unwrap_or_default();
                let profile = engine
                    .profile_arg()
                    .map(|p| format!(", profile {p}"))
                    .unwrap_or_default();
                let st = engine.state();
                lines.push(format!(
                    "  game {:<5} {name} — {}: ok ({}, turns {} to {}{profile})",
                    i + 1,
                    kessel_core::script::display_path(&game.scenario),
                    crate::cmd::count(st.units.len(), "unit", "units"),
                    st.turn,
                    st.last_turn
                ));
            }
            Err(e) => {
                failed += 1;
                // (the scenario's error names its file)
                let e = kessel_lab::option_error(e, &args.options.options);
                eprintln!(
                    "error: game {} of the campaign: {}",
                    i + 1,
                    kessel_core::error::printable(&format!("{e:#}"))
                );
            }
        }
    }
    let c = &campaign.carry;
    let vars = match &c.vars {
        VarsCarried::All(_) => "every variable".to_string(),
        VarsCarried::Named(list) if !list.is_empty() => format!("vars {}", list.join(", ")),
        _ => String::new(),
    };
    let carried: Vec<String> = [
        (c.units, "units".to_string()),
        (!vars.is_empty(), vars),
        (c.markers, "markers".to_string()),
        (c.pools, "pools".to_string()),
        (c.map, "the map's changes".to_string()),
    ]
    .into_iter()
    .filter_map(|(on, what)| on.then_some(what))
    .collect();
    lines.push(format!(
        "  carries    {}",
        if carried.is_empty() {
            "nothing".to_string()
        } else {
            carried.join("; ")
        }
    ));
    if failed > 0 {
        for line in &lines {
            say!("{line}");
        }
        anyhow::bail!(
            "{failed} of the campaign's {} {} not start",
            crate::cmd::count(campaign.games.len(), "game", "games"),
            if failed == 1 { "does" } else { "do" }
        );
    }
    // every game starts: then that they share one ruleset (and one map, when it carries)
    kessel_core::engine::check_games(&campaign).map_err(super::describe)?;
    say!("{}: ok", args.scenario.display());
    for line in &lines {
        say!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}
