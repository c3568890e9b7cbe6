//! The balance lab (crate `kessel-lab`): games played headless and recorded (`play`), the data
//! file (`record`) and the content hashes its header carries (`files`), the statistics over it
//! (`summary`, on the pure functions of `stats`) and how the games were played (`measures`), and
//! the HTML report (`html`). The CLI's `kessel simulate`
//! plays and writes, `kessel report` reads, merges and draws; the editor's rules panel runs games
//! and shows the same summary.

pub mod files;
pub mod html;
pub mod measures;
pub mod play;
pub mod record;
pub mod stats;
pub mod summary;

use anyhow::Context;
use kessel_core::engine::{Engine, EngineError};
use kessel_core::hex::HexDir;
use kessel_core::script::Limits;
use record::{Header, HexInfo, MapInfo, ObjectiveInfo, ProfileInfo, Seeds, Source};
use std::collections::BTreeMap;
use std::path::Path;

/// An engine error as one message, a located line (`file:line: …`) per problem.
pub fn describe(e: kessel_core::engine::EngineError) -> anyhow::Error {
    let lines: Vec<String> = e.located().iter().map(ToString::to_string).collect();
    anyhow::anyhow!("{}", lines.join("\n"))
}

/// A profile as the command line gave it (`arg`, passed to the engine) and as records name it.
#[derive(Clone, Debug)]
pub struct ProfileArg {
    /// What the engine gets (`None`: the scenario's default).
    pub arg: Option<String>,
    /// The name in records and summaries.
    pub name: String,
    /// Options set on top of the profile, `ID` and the value as typed (`--option ID=VALUE`,
    /// see [`apply_options`]).
    pub options: Vec<(String, String)>,
}

/// An option's value as typed on a command line: JSON (`true`, `3`, `"word"`), else the plain
/// word as a string.
pub fn option_value(text: &str) -> kessel_core::state::Value {
    use kessel_core::state::Value;
    match serde_json::from_str(text) {
        // JSON reads `-0` as the decimal -0.0, which an `int` option refuses as no whole number:
        // typed without a point or exponent it is the whole number 0
        Ok(Value::Number(n)) if n.as_f64() == Some(0.0) && !text.contains(['.', 'e', 'E']) => {
            Value::from(0)
        }
        Ok(v) => v,
        Err(_) => Value::String(text.to_string()),
    }
}

/// Loads a scenario under `profile` with `options` (`ID`, value as typed) set on top of it
/// before the scenario is checked and set up, as `--option` asks; an option the ruleset lacks or
/// whose value it refuses is an error naming the option.
pub fn load_with_options(
    scenario: &Path,
    profile: Option<&str>,
    options: &[(String, String)],
    seed: u64,
) -> anyhow::Result<Engine> {
    load_with_limits(scenario, profile, options, seed, Limits::default())
}

/// [`load_with_options`] with the limits of each call into the rules.
pub fn load_with_limits(
    scenario: &Path,
    profile: Option<&str>,
    options: &[(String, String)],
    seed: u64,
    limits: Limits,
) -> anyhow::Result<Engine> {
    Engine::load_with_options(scenario, profile, &option_values(options), seed, limits)
        .map_err(|e| option_error(e, options))
}

/// An engine error, an option's refusal said as the flag that set it (`--option ID=VALUE: …`).
pub fn option_error(e: EngineError, options: &[(String, String)]) -> anyhow::Error {
    match &e {
        EngineError::Option { id, message, .. } => {
            let text = options
                .iter()
                .find(|(i, _)| i == id)
                .map_or("", |(_, t)| t.as_str());
            anyhow::anyhow!("--option {id}={text}: {message}")
        }
        _ => describe(e),
    }
}

/// Options as typed (`ID`, text) read as values ([`option_value`]).
pub fn option_values(options: &[(String, String)]) -> Vec<(String, kessel_core::state::Value)> {
    options
        .iter()
        .map(|(id, text)| (id.clone(), option_value(text)))
        .collect()
}

/// Sets options (`ID`, value as typed) on a loaded game, on top of its profile, as the editor's
/// rules panel and a save's hand-set options do; the first the ruleset lacks or whose value it
/// refuses is an error naming it as the flag (`--option ID=VALUE: …`).
pub fn apply_options(engine: &mut Engine, options: &[(String, String)]) -> anyhow::Result<()> {
    for (i, (id, text)) in options.iter().enumerate() {
        if let Some((_, first)) = options[..i].iter().find(|(other, _)| other == id) {
            anyhow::bail!(
                "--option {id}={first}: set twice, to {first} and to {text}: set each option once"
            );
        }
    }
    for (id, text) in options {
        engine
            .put_option(id, option_value(text))
            .map_err(|e| anyhow::anyhow!("--option {id}={text}: {e}"))?;
    }
    if let Some(conflict) = engine.option_conflict() {
        anyhow::bail!("--option: {conflict}");
    }
    Ok(())
}

/// Builds the data file's header: loads the scenario once per profile for the option values,
/// hashes the scenario (with its map and scripts) and the ruleset folder.
pub fn header(
    scenario: &Path,
    profiles: &[ProfileArg],
    max_actions: usize,
    players: BTreeMap<String, String>,
    seeds: Seeds,
) -> anyhow::Result<Header> {
    seeds.within_range().map_err(anyhow::Error::msg)?;
    let mut infos = Vec::new();
    let mut first: Option<Engine> = None;
    for p in profiles {
        let engine = load_with_options(scenario, p.arg.as_deref(), &p.options, 0)?;
        infos.push(ProfileInfo {
            name: p.name.clone(),
            options: engine.options().values.clone(),
            players: BTreeMap::new(),
        });
        if first.is_none() {
            first = Some(engine);
        }
    }
    let engine = first.context("no profile to play")?;
    let sc = engine
        .scenario()
        .context("the engine has no scenario loaded")?;
    let ruleset = engine.ruleset();
    let mut files = vec![sc.path.clone()];
    // the files an extending scenario is laid over are the scenario too
    files.extend(sc.bases().map(Path::to_path_buf));
    files.push(sc.map_path.clone());
    files.extend(sc.scripts.iter().cloned());
    let base = sc.path.parent().unwrap_or(Path::new(""));
    let scenario_hash = files::hash_files(base, &files)?;
    let ruleset_dir = engine.ruleset_dir().to_path_buf();
    let ruleset_hash = files::hash_files(&ruleset_dir, &files::rule_files_under(&ruleset_dir)?)?;
    let map = &sc.map;
    let lower = (0..map.columns() as i32)
        .map(|c| {
            // a lower column's north-east neighbour is in the same printed row
            let h = map.hex_at(c, 0);
            map.offset(h.neighbor(HexDir::NE)).1 == 0
        })
        .collect();
    let objectives = sc
        .objectives
        .iter()
        .map(|o| ObjectiveInfo {
            name: o.name.clone(),
            vp: o.vp,
            side: o.side.clone(),
            hexes: o
                .hexes
                .iter()
                .map(|h| {
                    let (col, row) = map.offset(*h);
                    HexInfo {
                        label: map.label(*h),
                        col,
                        row,
                    }
                })
                .collect(),
        })
        .collect();
    // the side the objectives are for is the one whose VP the levels measure
    let for_sides: std::collections::BTreeSet<&String> = sc
        .objectives
        .iter()
        .filter_map(|o| o.side.as_ref())
        .collect();
    // the sides that take part: the scenario's `sides` when it names them (Pegasus Bridge leaves
    // the ruleset's Russians out), else every side of the ruleset
    let sides = match &sc.sides {
        Some((named, _)) => (ruleset.sides.iter())
            .filter(|s| named.contains(s))
            .cloned()
            .collect(),
        None => ruleset.sides.clone(),
    };
    let difference = match (for_sides.iter().next(), for_sides.len()) {
        (Some(&s), 1) if sides.contains(s) && sides.len() >= 2 => {
            let other = sides.iter().find(|x| *x != s).cloned().unwrap_or_default();
            vec![s.clone(), other]
        }
        _ => sides.iter().take(2).cloned().collect(),
    };
    Ok(Header {
        kind: "header".into(),
        format: record::FORMAT.into(),
        engine: record::engine_version(),
        scenario: Source {
            name: sc.name.clone(),
            path: scenario.display().to_string(),
            hash: scenario_hash,
        },
        ruleset: Source {
            name: ruleset.name.clone(),
            path: ruleset_dir.display().to_string(),
            hash: ruleset_hash,
        },
        sides: sides.clone(),
        difference,
        levels: sc.levels.iter().map(|l| l.name.clone()).collect(),
        profiles: infos,
        objectives,
        map: MapInfo {
            columns: map.columns(),
            rows: map.rows(),
            lower,
        },
        max_actions,
        players,
        variations: 1,
        ai_levels: ruleset.ai_levels.iter().map(|l| l.id.clone()).collect(),
        turns: Some([sc.first_turn, sc.first_turn + sc.turns.saturating_sub(1)]),
        option_notes: ruleset
            .options
            .iter()
            .map(|o| (o.id.clone(), format!("[{}] {}", o.rule, o.description)))
            .collect(),
        seeds,
    })
}

/// Players as a name suffix: `red=ai:timid, blue=random`, or `default AI` when every side
/// is the ruleset's AI at its default level (how `--against-ai` names its two arms).
pub fn players_label(players: &BTreeMap<String, String>) -> String {
    if players.is_empty() {
        return "default AI".into();
    }
    let named: Vec<String> = players.iter().map(|(s, p)| format!("{s}={p}")).collect();
    named.join(", ")
}
