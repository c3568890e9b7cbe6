//! Campaigns: scenarios played one after another, each starting with what the last one left.
//!
//! A campaign file names its games in order and what carries over from one to the next: the
//! units with their state (place, steps, faces, type, variables, flags), chosen game variables,
//! markers, pools and the changes made to a shared map. The core knows nothing of why a game
//! carries anything; the rules decide what the state holds when a game ends (a campaign's phase
//! between two battles is usually a named sequence the rules switch to, see
//! `kessel.sequence(name, steps)`), and [`carry_over`] moves it into the next game's set-up before
//! the next game's rules look at it.

pub mod sources;

use crate::error::{read_text, LoadError};
use crate::fsio::KesselToml;
use crate::state::{GameState, Location, Unit, Value};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Most games one campaign may chain.
pub const MAX_GAMES: usize = 256;

/// Which variables carry over.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    untagged,
    expecting = "`vars` takes \"all\" or a list of variable names"
)]
pub enum VarsCarried {
    /// `vars = "all"` (or `true`): every game variable.
    All(AllWord),
    /// `vars = ["cpp", "record"]`: these, when they are set.
    Named(Vec<String>),
    /// Nothing.
    #[default]
    #[serde(skip)]
    Nothing,
}

/// The word `"all"` (serde helper for [`VarsCarried::All`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AllWord {
    /// Everything.
    All,
}

/// What carries from one game to the next.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Carry {
    /// Every unit of the last game, in its final state (the eliminated ones too, so they stay
    /// eliminated), hidden from the sides it was hidden from, its secret variables still secret.
    /// A unit of the next scenario with the same id is replaced by it; the next scenario's other
    /// units join as new arrivals.
    #[serde(default)]
    pub units: bool,
    /// Game variables that carry (their final values replace the next scenario's; a secret one
    /// stays its side's secret).
    #[serde(default)]
    pub vars: VarsCarried,
    /// The markers of the last game (renumbered after the next scenario's own).
    #[serde(default)]
    pub markers: bool,
    /// Pools as the last game left them (replacing the next scenario's pools of the same id).
    #[serde(default)]
    pub pools: bool,
    /// The changes made to the map (terrain, hexsides, tags); the next game must be on the same
    /// map as the last.
    #[serde(default)]
    pub map: bool,
}

/// One game of a campaign as its file gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignGame {
    /// The scenario file, relative to the campaign file.
    pub scenario: PathBuf,
    /// A name for this game ("Night I"); default the scenario's.
    #[serde(default)]
    pub name: Option<String>,
    /// Profile for this game (default the scenario's).
    #[serde(default)]
    pub profile: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CampaignFile {
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    carry: Carry,
    #[serde(default)]
    game: Vec<CampaignGame>,
}

/// A loaded campaign file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Campaign {
    /// The campaign file.
    pub path: PathBuf,
    /// Name.
    pub name: String,
    /// What it is about, for players.
    pub description: String,
    /// What carries over between games.
    pub carry: Carry,
    /// The games, in order, with their scenario paths resolved against the campaign's folder.
    pub games: Vec<CampaignGame>,
}

impl Campaign {
    /// Loads and checks a campaign file (its scenarios are loaded when played).
    pub fn load(path: &Path) -> Result<Campaign, LoadError> {
        let text = read_text(path, "campaign")?;
        Campaign::parse(path, &text)
    }

    /// Parses campaign text; scenario paths are relative to `path`'s folder.
    pub fn parse(path: &Path, text: &str) -> Result<Campaign, LoadError> {
        crate::error::toml_bounds_at(path, text, crate::error::MAX_SMALL_TOML_VALUES)?;
        let file: CampaignFile = toml::from_str(text).map_err(|e| {
            // another of Kessel's files given where a campaign goes: say which it is
            use crate::fsio::{not_the_kind, KesselFile, KesselToml};
            let wanted = KesselFile::Toml(KesselToml::Campaign);
            if let Some(why) = not_the_kind(path, text, wanted, "a campaign file") {
                return LoadError::new(path, None, why);
            }
            let line = e.span().map(|s| {
                text.as_bytes()[..s.start.min(text.len())]
                    .iter()
                    .filter(|b| **b == b'\n')
                    .count()
                    + 1
            });
            LoadError::new(path, line, format!("not a campaign file: {}", e.message()))
        })?;
        let fail = |message: String| LoadError::new(path, None, message);
        let fail_at = |line: Option<usize>, message: String| LoadError::new(path, line, message);
        if file.game.is_empty() {
            return Err(fail(
                "a campaign needs at least one [[game]] with a `scenario`".into(),
            ));
        }
        if file.game.len() > MAX_GAMES {
            return Err(fail(format!(
                "a campaign chains at most {MAX_GAMES} games, this one {}",
                file.game.len()
            )));
        }
        // (each was carried as written, or not at all, without a word: `vars = ["all"]` carried a
        // variable named `all`, so none of the others)
        if let VarsCarried::Named(names) = &file.carry.vars {
            for (i, name) in names.iter().enumerate() {
                let shown = crate::error::printable_name(name);
                let why = if name.is_empty() {
                    "an empty name names no variable".to_string()
                } else if name == "all" {
                    "\"all\" in a list names a variable called `all`: write vars = \"all\" to \
                     carry every variable"
                        .to_string()
                } else if names[..i].contains(name) {
                    format!("`{shown}` is listed twice; list each variable once")
                } else {
                    continue;
                };
                return Err(fail_at(
                    line_of_value(text, name),
                    format!("[carry] vars: {why}"),
                ));
            }
        }
        // a game's name heads its part of every report and a save's title: an empty one printed
        // "game 2 ()", and two games of one name could not be told apart in them
        for (i, g) in file.game.iter().enumerate() {
            let Some(name) = &g.name else { continue };
            let shown = crate::error::printable_name(name);
            let why = if name.trim().is_empty() {
                "an empty name: give the game a name, or leave `name` out for the scenario's"
                    .to_string()
            } else if let Some(j) = file.game[..i]
                .iter()
                .position(|o| o.name.as_deref() == Some(name.as_str()))
            {
                format!(
                    "`{shown}` is also game {}'s name; give each game its own",
                    j + 1
                )
            } else {
                continue;
            };
            // the line of this game's name: the value as often written before it is passed over
            let before = file.game[..i]
                .iter()
                .filter(|o| o.name.as_deref() == Some(name.as_str()))
                .count();
            return Err(fail_at(
                line_of_nth_value(text, name, before),
                format!("game {} `name`: {why}", i + 1),
            ));
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        // the paths a game names: relative to the campaign's folder, of the field's kind
        let mut games = Vec::with_capacity(file.game.len());
        for (i, g) in file.game.into_iter().enumerate() {
            let named = |field: &str, value: &str| {
                crate::fsio::named_path(dir, value, crate::fsio::Named::Toml).map_err(|e| {
                    fail_at(
                        line_of_value(text, value),
                        format!("game {} `{field}`: {e}", i + 1),
                    )
                })
            };
            // a path through a file (`scenario.toml/`), or another of Kessel's files, is said
            // at the game's line: it was the named file's own error ("map.toml: not a
            // scenario … give the scenario that names it"), after "game 1 of the campaign"
            let kind = |field: &str, value: &str, at: &Path, wanted: KesselToml| {
                let line = line_of_value(text, value);
                if let Some(file) = crate::fsio::file_on_the_way(at) {
                    return Err(fail_at(
                        line,
                        format!(
                            "game {} `{field}`: `{value}` goes through {}, which is a file, not \
                             a folder",
                            i + 1,
                            crate::error::shown_path(&file).display()
                        ),
                    ));
                }
                let Some(found) = (at.is_file())
                    .then(|| read_text(at, field).ok())
                    .flatten()
                    .and_then(|t| {
                        let wanted = crate::fsio::KesselFile::Toml(wanted);
                        crate::fsio::not_the_kind(at, &t, wanted, &format!("a {field}"))
                    })
                else {
                    return Ok(());
                };
                Err(fail_at(
                    line,
                    format!("game {} `{field}`: `{value}` is {found}", i + 1),
                ))
            };
            let written = g.scenario.to_string_lossy().into_owned();
            let scenario = named("scenario", &written)?;
            kind("scenario", &written, &scenario, KesselToml::Scenario)?;
            let profile = match g.profile {
                Some(p) if crate::engine::Engine::is_profile_path(&p) => {
                    let at = named("profile", &p)?;
                    kind("profile", &p, &at, KesselToml::Profile)?;
                    Some(at.to_string_lossy().into_owned())
                }
                other => other,
            };
            games.push(CampaignGame {
                scenario,
                profile,
                ..g
            });
        }
        Ok(Campaign {
            path: path.to_path_buf(),
            name: file.name,
            description: file.description,
            carry: file.carry,
            games,
        })
    }

    /// The name game `index` (0-based) will have, said before its scenario is loaded: its own in
    /// the campaign file, else its scenario file's stem (the scenario's name once it is loaded).
    pub fn planned_name(&self, index: usize) -> String {
        let game = &self.games[index];
        game.name.clone().unwrap_or_else(|| {
            game.scenario.file_stem().map_or_else(
                || format!("game {}", index + 1),
                |s| s.to_string_lossy().into(),
            )
        })
    }

    /// The dice seed of game `index` (0-based) of a campaign played with `seed`: `seed + index`,
    /// so each game has its own dice and the same campaign seed gives the same games.
    pub fn game_seed(seed: u64, index: usize) -> u64 {
        seed.wrapping_add(index as u64)
    }
}

/// What a carry moved, for players to read and tests to check.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CarryReport {
    /// Units carried, in the order of the last game.
    pub units: Vec<CarriedUnit>,
    /// Units of the next scenario that a carried unit replaced.
    pub replaced: Vec<String>,
    /// Units of the next scenario that joined as new arrivals.
    pub arrivals: Vec<String>,
    /// Variables carried, with their values.
    pub vars: BTreeMap<String, Value>,
    /// Of those, the ones secret to a side: key → side.
    pub secret_vars: BTreeMap<String, String>,
    /// Variables `[carry] vars` names that the last game left unset, so nothing carried for them
    /// (a misspelt name carried nothing without a word): name → the nearest name the game set,
    /// if any.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unset_vars: BTreeMap<String, Option<String>>,
    /// Markers carried.
    pub markers: usize,
    /// Of those, the ones that took the place of a marker the next scenario declares at the same
    /// place (same kind and side).
    #[serde(skip_serializing_if = "is_zero")]
    pub markers_in_place: usize,
    /// Pools carried.
    pub pools: Vec<String>,
    /// Map changes carried (0: none, or the map is not carried).
    pub map_changes: u64,
    /// Where each carried variable was last set in the last game (see [`sources::var_sources`]).
    #[serde(skip)]
    pub var_sources: Vec<(String, sources::SetIn)>,
    /// Carried variables the next game's own `setup` hooks cleared again (records the rules hold
    /// to be the last game's alone): said, or the report reads as if they held.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dropped_vars: Vec<String>,
}

/// A unit as it came out of the last game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CarriedUnit {
    /// Its id.
    pub id: String,
    /// Its side.
    pub side: String,
    /// Its type.
    pub kind: String,
    /// Where it ended (a hex label, `pending`, `eliminated`, `removed`).
    pub location: String,
    /// Made during the last game (not in its set-up).
    pub created: bool,
    /// What changed during the last game: `type`, `side`, `faces`, `step`, `flags`, `location`,
    /// `vars k1 k2` (the variables that changed) — empty for a created unit.
    pub changed: Vec<String>,
    /// The sides it is hidden from as it carries (a secret purchase, a hidden set-up): the
    /// report marks it, as it marks a side's secret variable.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hidden_from: Vec<String>,
}

/// A carry that cannot be made.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CarryError {
    /// The map is carried but the next game is on another map.
    #[error("the campaign carries the map, but the next scenario is on another map ({0}) than the last ({1})")]
    OtherMap(String, String),
    /// A carried unit stands in a hex the next map does not have.
    #[error("unit `{0}` ended in hex {1}, which the next scenario's map does not have")]
    OffMap(String, String),
    /// A carried unit's type is not declared by the next game's ruleset.
    #[error("unit `{0}` is of type `{1}`, which the next game's ruleset does not declare")]
    UnknownType(String, String),
}

/// Moves what `carry` names from the final state of a game (`from`, which began as `started`)
/// into the initial state of the next (`into`). `unit_types` are the next ruleset's.
pub fn carry_over(
    started: &GameState,
    from: &GameState,
    into: &mut GameState,
    carry: &Carry,
    unit_types: &BTreeMap<String, Value>,
) -> Result<CarryReport, CarryError> {
    let mut report = CarryReport::default();
    if carry.map {
        let (last, next) = (started.map.digest(), into.map.digest());
        if last != next {
            return Err(CarryError::OtherMap(
                into.map.name.clone(),
                from.map.name.clone(),
            ));
        }
        into.map = from.map.clone();
        into.map_changes = from.map_changes;
        report.map_changes = from.map_changes;
    }
    if carry.units {
        let scenario_ids: Vec<String> = into.units.iter().map(|u| u.id.clone()).collect();
        for unit in &from.units {
            if !unit_types.is_empty() && !unit_types.contains_key(&unit.kind) {
                return Err(CarryError::UnknownType(unit.id.clone(), unit.kind.clone()));
            }
            if let Location::Map(h) = unit.location {
                if !into.map.contains(h) {
                    return Err(CarryError::OffMap(unit.id.clone(), from.map.label(h)));
                }
            }
            let before = started.unit(&unit.id);
            report.units.push(CarriedUnit {
                id: unit.id.clone(),
                side: unit.side.clone(),
                kind: unit.kind.clone(),
                location: location_text(from, unit.location),
                created: before.is_none(),
                changed: before.map(|b| changes(b, unit)).unwrap_or_default(),
                hidden_from: from
                    .secrets
                    .hidden_from(&unit.id)
                    .map(String::from)
                    .collect(),
            });
            if into.put_unit(unit.clone()) {
                report.replaced.push(unit.id.clone());
            }
            // what stays hidden of it goes with it: who may not see it, its secret variables
            match from.secrets.hidden.get(&unit.id) {
                Some(sides) => {
                    into.secrets.hidden.insert(unit.id.clone(), sides.clone());
                }
                None => {
                    into.secrets.hidden.remove(&unit.id);
                }
            }
            match from.secrets.unit_vars.get(&unit.id) {
                Some(vars) => {
                    into.secrets.unit_vars.insert(unit.id.clone(), vars.clone());
                }
                None => {
                    into.secrets.unit_vars.remove(&unit.id);
                }
            }
        }
        report.arrivals = scenario_ids
            .into_iter()
            .filter(|id| from.unit(id).is_none())
            .collect();
    }
    let carried_vars: Vec<&String> = match &carry.vars {
        VarsCarried::All(_) => from.vars.keys().collect(),
        VarsCarried::Named(names) => names.iter().collect(),
        VarsCarried::Nothing => Vec::new(),
    };
    if let VarsCarried::Named(names) = &carry.vars {
        let set: Vec<&String> = from.vars.keys().collect();
        report.unset_vars = (names.iter())
            .filter(|k| !from.vars.contains_key(*k))
            .map(|k| (k.clone(), crate::names::nearest(k, &set)))
            .collect();
    }
    for key in carried_vars {
        if let Some(v) = from.vars.get(key) {
            into.vars.insert(key.clone(), v.clone());
            report.vars.insert(key.clone(), v.clone());
            // a secret stays the secret of the side that had it
            match from.secrets.vars.get(key) {
                Some(side) => {
                    into.secrets.vars.insert(key.clone(), side.clone());
                    report.secret_vars.insert(key.clone(), side.clone());
                }
                None => {
                    into.secrets.vars.remove(key);
                }
            }
        }
    }
    if carry.markers {
        let first_free = into.markers.iter().map(|m| m.id + 1).max().unwrap_or(0);
        let mut next = first_free;
        // the scenario's own markers a carried one already stands for
        let mut taken: Vec<u32> = Vec::new();
        for m in &from.markers {
            // a marker on the map the next scenario declares too (same kind, side and place) is
            // that one, as the last game left it: carried beside it, the game had two
            let own = m.hex.and_then(|_| {
                into.markers.iter().position(|o| {
                    o.id < first_free
                        && !taken.contains(&o.id)
                        && o.kind == m.kind
                        && o.side == m.side
                        && same_place(o, m)
                })
            });
            let id = match own {
                Some(i) => {
                    let id = into.markers[i].id;
                    into.markers[i] = crate::state::Marker { id, ..m.clone() };
                    let hidden: Vec<String> = (into.secrets.marker_hidden_from(id))
                        .map(String::from)
                        .collect();
                    for side in hidden {
                        into.secrets.set_marker_hidden(id, &side, false);
                    }
                    taken.push(id);
                    report.markers_in_place += 1;
                    id
                }
                None => {
                    into.markers.push(crate::state::Marker {
                        id: next,
                        ..m.clone()
                    });
                    next += 1;
                    next - 1
                }
            };
            // a hidden marker stays hidden from the same sides, under its new id
            for side in from.secrets.marker_hidden_from(m.id) {
                into.secrets.set_marker_hidden(id, side, true);
            }
            report.markers += 1;
        }
    }
    if carry.pools {
        for (id, faces) in &from.pools {
            into.pools.insert(id.clone(), faces.clone());
            report.pools.push(id.clone());
        }
    }
    Ok(report)
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Whether two markers stand on the same hex, or on the same hexside written either way round.
fn same_place(a: &crate::state::Marker, b: &crate::state::Marker) -> bool {
    (a.hex, a.other) == (b.hex, b.other)
        || (a.other.is_some() && (a.hex, a.other) == (b.other, b.hex))
}

impl CarryReport {
    /// What carried, for people: one line per fact, each indented two spaces (units by side,
    /// the created ones, the changed ones with what changed, how many came through unchanged,
    /// the new arrivals, each carried variable, markers, map changes). Lists wrap at `width`
    /// columns, continued lines indented four; `usize::MAX` keeps each fact on one line (for a
    /// display that wraps by itself). `kessel campaign` and the editor both show this text.
    pub fn text(&self, width: usize) -> String {
        let mut out = String::new();
        let mut line = |l: String| {
            out.push_str("  ");
            out.push_str(&l);
            out.push('\n');
        };
        if !self.units.is_empty() {
            let mut by_side = BTreeMap::<&str, usize>::new();
            for u in &self.units {
                *by_side.entry(u.side.as_str()).or_default() += 1;
            }
            let sides: Vec<String> = by_side
                .iter()
                .map(|(s, n)| format!("{} {n}", shown(s)))
                .collect();
            line(format!("{} units ({})", self.units.len(), sides.join(", ")));
            let created: Vec<String> = (self.units.iter())
                .filter(|u| u.created)
                .map(|u| {
                    let (id, side, kind) = (shown(&u.id), shown(&u.side), shown(&u.kind));
                    let at = &u.location;
                    format!("{id} ({side} {kind}, {at}{})", hidden_note(&u.hidden_from))
                })
                .collect();
            if !created.is_empty() {
                line(format!("created: {}", wrap(&created, 12, width)));
            }
            let changed: Vec<String> = (self.units.iter())
                .filter(|u| !u.created && !u.changed.is_empty())
                .map(|u| {
                    let hidden = hidden_note(&u.hidden_from);
                    format!(
                        "{} ({}: {}{hidden})",
                        shown(&u.id),
                        u.location,
                        u.changed.join(", ")
                    )
                })
                .collect();
            if !changed.is_empty() {
                line(format!("changed: {}", wrap(&changed, 12, width)));
            }
            let same: Vec<&CarriedUnit> = (self.units.iter())
                .filter(|u| !u.created && u.changed.is_empty())
                .collect();
            let hidden: Vec<String> = (same.iter())
                .filter(|u| !u.hidden_from.is_empty())
                .map(|u| format!("{}{}", shown(&u.id), hidden_note(&u.hidden_from)))
                .collect();
            if hidden.is_empty() {
                line(format!("unchanged: {}", same.len()));
            } else {
                line(format!("unchanged: {} ({})", same.len(), hidden.join("; ")));
            }
            if !self.arrivals.is_empty() {
                let arrivals: Vec<String> = (self.arrivals.iter())
                    .map(|id| shown(id).into_owned())
                    .collect();
                let w = wrap(&arrivals, 12, width);
                line(format!("new arrivals from the scenario: {w}"));
            }
        }
        for (k, v) in &self.vars {
            let secret = (self.secret_vars.get(k)).map_or(String::new(), |side| secret_note(side));
            line(format!("{} = {}{secret}", shown(k), value_line(v, 100)));
        }
        if !self.unset_vars.is_empty() {
            let unset: Vec<String> = (self.unset_vars.iter())
                .map(|(k, near)| match near {
                    Some(n) => format!("{} (did you mean `{}`?)", shown(k), shown(n)),
                    None => shown(k).into_owned(),
                })
                .collect();
            line(format!(
                "not set by the game, so not carried: {}",
                unset.join(", ")
            ));
        }
        if self.markers > 0 {
            let noun = if self.markers == 1 {
                "marker"
            } else {
                "markers"
            };
            let in_place = match self.markers_in_place {
                0 => String::new(),
                n => format!(" ({n} in place of the scenario's own)"),
            };
            line(format!("{} {noun}{in_place}", self.markers));
        }
        if !self.pools.is_empty() {
            let pools: Vec<String> = self.pools.iter().map(|p| shown(p).into_owned()).collect();
            line(format!("pools: {}", pools.join(", ")));
        }
        if self.map_changes > 0 {
            line(format!("the map with {} changes", self.map_changes));
        }
        out.push_str(&sources::sources_text(&self.var_sources));
        if !self.dropped_vars.is_empty() {
            let dropped: Vec<String> = (self.dropped_vars.iter())
                .map(|k| shown(k).into_owned())
                .collect();
            out.push_str(&format!(
                "  dropped as the game began (its rules' setup cleared them): {}\n",
                dropped.join(", ")
            ));
        }
        out
    }
}

/// A name from the game (a unit's id, a variable's) on one line, control characters escaped: the
/// text is a line per fact, and a name's line break began a line of its own.
fn shown(name: &str) -> std::borrow::Cow<'_, str> {
    crate::error::printable_name(name)
}

/// How a carried unit hidden from sides is marked: `, hidden from blue` (nothing if none).
fn hidden_note(sides: &[String]) -> String {
    if sides.is_empty() {
        String::new()
    } else {
        let sides: Vec<String> = sides.iter().map(|s| shown(s).into_owned()).collect();
        format!(", hidden from {}", sides.join(" and "))
    }
}

/// How a carried value that is one side's secret is marked: `  (blue's secret)`.
pub fn secret_note(side: &str) -> String {
    format!("  ({side}'s secret)")
}

/// The line of a campaign file where the string `value` is first written (quoted either way), for
/// a message about a game's field.
pub(crate) fn line_of_value(text: &str, value: &str) -> Option<usize> {
    line_of_nth_value(text, value, 0)
}

/// The line of the `n`-th (0-based) place `value` is written as a quoted string.
fn line_of_nth_value(text: &str, value: &str, n: usize) -> Option<usize> {
    let at = |quoted: String| text.match_indices(&quoted).nth(n).map(|(at, _)| at);
    at(format!("\"{value}\""))
        .or_else(|| at(format!("'{value}'")))
        .map(|at| text[..at].matches('\n').count() + 1)
}

/// A value as JSON on one line, cut at `max` characters (an ellipsis marks the cut).
pub fn value_line(v: &Value, max: usize) -> String {
    let t = v.to_string();
    if t.chars().count() > max {
        format!("{}…", t.chars().take(max).collect::<String>())
    } else {
        t
    }
}

/// `items` joined by commas, a new line (indented four) started before an item that would pass
/// `width` columns; `col` is the column the first item starts at.
fn wrap(items: &[String], mut col: usize, width: usize) -> String {
    let mut out = String::new();
    for (i, it) in items.iter().enumerate() {
        if i > 0 {
            if col.saturating_add(2 + it.len()) > width {
                out.push_str(",\n    ");
                col = 4;
            } else {
                out.push_str(", ");
                col += 2;
            }
        }
        out.push_str(it);
        col += it.len();
    }
    out
}

fn location_text(state: &GameState, at: Location) -> String {
    match at {
        Location::Map(h) => state.map.label(h),
        Location::Pending => "pending".into(),
        Location::Eliminated => "eliminated".into(),
        Location::Removed => "removed".into(),
    }
}

/// The parts of a unit that differ between two moments of a game.
fn changes(before: &Unit, after: &Unit) -> Vec<String> {
    let mut out = Vec::new();
    let mut differs = |what: &str, yes: bool| {
        if yes {
            out.push(what.to_string());
        }
    };
    differs("type", before.kind != after.kind);
    differs("side", before.side != after.side);
    differs(
        "faces",
        before.faces != after.faces || before.named != after.named,
    );
    differs("step", before.step != after.step);
    differs("flags", before.flags != after.flags);
    differs("location", before.location != after.location);
    if before.vars != after.vars {
        // which variables: `vars reph wounded`
        let keys: std::collections::BTreeSet<&String> =
            before.vars.keys().chain(after.vars.keys()).collect();
        let changed: Vec<&str> = keys
            .into_iter()
            .filter(|k| before.vars.get(*k) != after.vars.get(*k))
            .map(String::as_str)
            .collect();
        out.push(format!("vars {}", changed.join(" ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::Hex;
    use crate::map::Map;
    use crate::numbering::Numbering;
    use crate::state::Face;
    use std::sync::Arc;

    fn unit(id: &str, side: &str, at: Location) -> Unit {
        Unit {
            faces: vec![Face {
                attack: 2,
                defence: 2,
                movement: 4,
            }],
            location: at,
            ..Unit::new(id, side, "inf")
        }
    }

    fn state(units: Vec<Unit>) -> GameState {
        let map = Arc::new(Map::new("m", 4, 4, Numbering::default(), "clear"));
        let mut s = GameState::new(map, vec!["red".into(), "blue".into()], 1);
        for u in units {
            s.add_unit(u);
        }
        s
    }

    /// A variable `[carry] vars` names that the game left unset carried nothing without a word
    /// (a misspelt `cpp_typo`): the report says which, with the nearest name the game set.
    #[test]
    fn a_named_variable_the_game_left_unset_is_reported() {
        let started = state(vec![]);
        let mut from = started.clone();
        from.vars.insert("cpp".into(), Value::from(7));
        let mut into = state(vec![]);
        let carry = Carry {
            vars: VarsCarried::Named(vec!["cpp".into(), "cpq".into(), "zzzzzz".into()]),
            ..Carry::default()
        };
        let report =
            carry_over(&started, &from, &mut into, &carry, &BTreeMap::new()).expect("carries");
        let text = report.text(100);
        assert!(
            text.contains("not set by the game, so not carried: cpq (did you mean `cpp`?), zzzzzz"),
            "{text}"
        );
        assert!(!text.contains("cpp (did"), "{text}");
    }

    #[test]
    fn units_carry_with_their_state_and_replace_the_next_scenarios_copy() {
        let here = Location::Map(Hex::new(1, 1));
        let started = state(vec![unit("a", "red", here), unit("b", "blue", here)]);
        let mut from = started.clone();
        from.put_unit(Unit {
            step: 1,
            ..unit("a", "red", Location::Eliminated)
        });
        from.put_unit(unit("new", "red", here));
        from.vars.insert("cpp".into(), Value::from(7));
        from.vars.insert("secret".into(), Value::from(1));
        from.secrets
            .hidden
            .insert("b".into(), ["red".to_string()].into_iter().collect());
        from.secrets.vars.insert("cpp".into(), "blue".into());
        let mut into = state(vec![unit("a", "red", here), unit("fresh", "blue", here)]);
        let carry = Carry {
            units: true,
            vars: VarsCarried::Named(vec!["cpp".into(), "absent".into()]),
            ..Carry::default()
        };
        let report =
            carry_over(&started, &from, &mut into, &carry, &BTreeMap::new()).expect("carries");
        let a = into.unit("a").expect("a carried");
        assert_eq!(a.location, Location::Eliminated, "stays eliminated");
        assert_eq!(a.step, 1);
        assert!(into.unit("b").is_some(), "b carried too");
        assert!(into.unit("fresh").is_some(), "a new arrival stays");
        assert_eq!(report.replaced, vec!["a".to_string()]);
        assert_eq!(report.arrivals, vec!["fresh".to_string()]);
        let new = report.units.iter().find(|u| u.id == "new").expect("new");
        assert!(new.created);
        let a = report.units.iter().find(|u| u.id == "a").expect("a");
        assert_eq!(a.changed, vec!["step".to_string(), "location".to_string()]);
        assert_eq!(into.vars.get("cpp"), Some(&Value::from(7)));
        assert_eq!(
            into.secrets.hidden.get("b").map(|s| s.len()),
            Some(1),
            "b stays hidden from red"
        );
        assert_eq!(
            into.secrets.vars.get("cpp").map(String::as_str),
            Some("blue")
        );
        assert!(!into.vars.contains_key("secret"), "only named vars carry");
        assert_eq!(report.vars.len(), 1);
    }

    #[test]
    fn a_unit_off_the_next_map_or_of_an_unknown_type_is_refused() {
        let far = Location::Map(Hex::new(3, 3));
        let started = state(vec![unit("a", "red", far)]);
        let small = Arc::new(Map::new("small", 2, 2, Numbering::default(), "clear"));
        let mut into = GameState::new(small, vec!["red".into()], 1);
        let carry = Carry {
            units: true,
            ..Carry::default()
        };
        let err = carry_over(&started, &started, &mut into, &carry, &BTreeMap::new())
            .expect_err("off the map");
        assert!(matches!(err, CarryError::OffMap(..)), "{err}");
        let mut into = state(vec![]);
        let mut types = BTreeMap::new();
        types.insert("tank".to_string(), Value::from(1));
        let err = carry_over(&started, &started, &mut into, &carry, &types).expect_err("type");
        assert!(matches!(err, CarryError::UnknownType(..)), "{err}");
    }

    #[test]
    fn a_hidden_marker_carries_hidden_from_the_same_sides() {
        let mut from = state(vec![]);
        let mine = |id: u32| crate::state::Marker {
            id,
            kind: "mine".into(),
            side: Some("red".into()),
            hex: Some(Hex::new(1, 1)),
            other: None,
            value: None,
        };
        from.markers.push(mine(0));
        from.markers.push(mine(1));
        from.secrets.set_marker_hidden(1, "blue", true);
        let mut into = state(vec![]);
        // the scenario's own mine elsewhere: the carried ones join it
        into.markers.push(crate::state::Marker {
            hex: Some(Hex::new(2, 2)),
            ..mine(0)
        });
        let carry = Carry {
            markers: true,
            ..Carry::default()
        };
        carry_over(&from, &from, &mut into, &carry, &BTreeMap::new()).expect("carries");
        assert_eq!(into.markers.len(), 3);
        // the carried markers are 1 and 2: the hidden one is 2 now
        assert!(!into.secrets.is_marker_hidden(1, "blue"));
        assert!(into.secrets.is_marker_hidden(2, "blue"));
        assert!(!into.secrets.is_marker_hidden(2, "red"));
    }

    /// A marker the next scenario declares at the same place, of the same kind and side, is the
    /// one the last game left there: one marker, with the last game's value and secrecy, not two.
    #[test]
    fn a_marker_the_next_scenario_declares_too_is_carried_in_its_place() {
        let wire = |id: u32, hex: Hex, other: Option<Hex>, value: i64| crate::state::Marker {
            id,
            kind: "wire".into(),
            side: Some("red".into()),
            hex: Some(hex),
            other,
            value: Some(Value::from(value)),
        };
        let (a, b) = (Hex::new(1, 1), Hex::new(2, 1));
        let mut from = state(vec![]);
        from.markers.push(wire(0, a, None, 5));
        // on a hexside, written the other way round from the scenario's
        from.markers.push(wire(1, b, Some(a), 6));
        from.markers.push(wire(2, Hex::new(3, 3), None, 7));
        from.secrets.set_marker_hidden(0, "blue", true);
        let mut into = state(vec![]);
        into.markers.push(wire(0, a, None, 1));
        into.markers.push(wire(1, a, Some(b), 1));
        into.secrets.set_marker_hidden(1, "blue", true);
        let carry = Carry {
            markers: true,
            ..Carry::default()
        };
        let report =
            carry_over(&from, &from, &mut into, &carry, &BTreeMap::new()).expect("carries");
        let values: Vec<(u32, Option<Value>)> = (into.markers.iter())
            .map(|m| (m.id, m.value.clone()))
            .collect();
        assert_eq!(
            values,
            [
                (0, Some(Value::from(5))),
                (1, Some(Value::from(6))),
                (2, Some(Value::from(7)))
            ]
        );
        assert!(
            into.secrets.is_marker_hidden(0, "blue"),
            "hidden as carried"
        );
        assert!(
            !into.secrets.is_marker_hidden(1, "blue"),
            "shown as carried"
        );
        assert_eq!((report.markers, report.markers_in_place), (3, 2));
        assert!(
            report
                .text(usize::MAX)
                .contains("3 markers (2 in place of the scenario's own)"),
            "{}",
            report.text(usize::MAX)
        );
        let one = CarryReport {
            markers: 1,
            ..CarryReport::default()
        };
        assert_eq!(one.text(usize::MAX), "  1 marker\n");
    }

    #[test]
    fn the_map_carries_only_onto_the_same_map() {
        let started = state(vec![]);
        let other = Arc::new(Map::new("other", 5, 5, Numbering::default(), "clear"));
        let mut into = GameState::new(other, vec![], 1);
        let carry = Carry {
            map: true,
            ..Carry::default()
        };
        let err = carry_over(&started, &started, &mut into, &carry, &BTreeMap::new())
            .expect_err("other map");
        assert!(matches!(err, CarryError::OtherMap(..)), "{err}");
    }

    #[test]
    fn campaign_files_are_checked() {
        let p = Path::new("c.toml");
        let c = Campaign::parse(
            p,
            "name = \"c\"\n[carry]\nunits = true\nvars = \"all\"\n[[game]]\nscenario = \"a.toml\"\n",
        )
        .expect("parses");
        assert_eq!(c.carry.vars, VarsCarried::All(AllWord::All));
        assert!(Campaign::parse(p, "name = \"c\"\n").is_err(), "no game");
        let e = Campaign::parse(
            p,
            "name = \"c\"\n[carry]\nunit = true\n[[game]]\nscenario = \"a\"\n",
        )
        .expect_err("unknown key");
        assert!(e.to_string().contains("unit"), "{e}");
        assert_ne!(Campaign::game_seed(1, 0), Campaign::game_seed(1, 1));
    }

    #[test]
    fn a_carry_report_reads_as_lines_and_wraps_its_lists() {
        let unit = |id: &str, created: bool, changed: &[&str]| CarriedUnit {
            id: id.into(),
            side: "red".into(),
            kind: "inf".into(),
            location: "0101".into(),
            created,
            changed: changed.iter().map(|c| c.to_string()).collect(),
            hidden_from: Vec::new(),
        };
        let mut r = CarryReport {
            units: vec![unit("n1", true, &[]), unit("a", false, &["vars"])],
            ..CarryReport::default()
        };
        r.units.push(unit("b", false, &[]));
        r.units.push(unit("h", false, &[]));
        r.units[0].hidden_from = vec!["blue".into()];
        r.units[3].hidden_from = vec!["blue".into()];
        r.vars.insert("cpp".into(), Value::from(3));
        r.vars.insert("long".into(), Value::String("x".repeat(200)));
        let text = r.text(usize::MAX);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  4 units (red 4)");
        assert_eq!(lines[1], "  created: n1 (red inf, 0101, hidden from blue)");
        assert_eq!(lines[2], "  changed: a (0101: vars)");
        assert_eq!(lines[3], "  unchanged: 2 (h, hidden from blue)");
        assert_eq!(lines[4], "  cpp = 3");
        assert!(
            lines[5].ends_with('…') && lines[5].chars().count() < 120,
            "{}",
            lines[5]
        );
        r.units = (0..20).map(|i| unit(&format!("u{i}"), true, &[])).collect();
        r.vars.clear();
        let narrow = r.text(60);
        assert!(narrow.lines().all(|l| l.chars().count() <= 60), "{narrow}");
        assert!(narrow.lines().any(|l| l.starts_with("    u")), "{narrow}");
        assert_eq!(
            CarryReport::default().text(80),
            "",
            "nothing carried, nothing said"
        );
    }

    /// A list of variables to carry names each once, by a name, and not "all" (which is the
    /// whole word `vars = "all"`): each was carried as written or not at all, without a word.
    #[test]
    fn carried_variables_are_named_once_and_all_is_no_name_in_a_list() {
        let path = Path::new("c.toml");
        let with = |vars: &str| {
            format!("name = \"c\"\n[carry]\nvars = {vars}\n[[game]]\nscenario = \"s.toml\"\n")
        };
        for (vars, said) in [
            ("[\"cpp\", \"cpp\"]", "`cpp` is listed twice"),
            ("[\"cpp\", \"\"]", "an empty name names no variable"),
            ("[\"all\"]", "write vars = \"all\" to carry every variable"),
        ] {
            let e = Campaign::parse(path, &with(vars)).expect_err(vars);
            assert_eq!(e.line, Some(3), "{vars}: {e}");
            assert!(e.message.contains(said), "{vars}: {e}");
        }
        for vars in ["\"all\"", "[\"cpp\", \"san\"]"] {
            let c = Campaign::parse(path, &with(vars)).expect(vars);
            assert_ne!(c.carry.vars, VarsCarried::Nothing, "{vars}");
        }
    }

    /// A game's name heads its part of a campaign's reports: an empty one, or one that two games
    /// share, is refused at the line that wrote it; the same scenario twice under the default
    /// names is a campaign's right (the names are numbered in reports).
    #[test]
    fn game_names_are_given_once_and_not_empty() {
        let path = Path::new("c.toml");
        let games = |names: &[&str]| {
            let mut t = String::from("name = \"c\"\n");
            for n in names {
                t.push_str("[[game]]\nscenario = \"s.toml\"\n");
                if !n.is_empty() || names.len() == 1 {
                    t.push_str(&format!("name = \"{n}\"\n"));
                }
            }
            t
        };
        let e = Campaign::parse(path, &games(&[""])).expect_err("empty name");
        assert_eq!(e.line, Some(4), "{e}");
        assert!(e.message.contains("game 1 `name`: an empty name"), "{e}");
        let e = Campaign::parse(path, &games(&["Night", "Day", "Night"])).expect_err("twice");
        assert_eq!(e.line, Some(10), "the third game's name: {e}");
        assert!(
            e.message
                .contains("game 3 `name`: `Night` is also game 1's name"),
            "{e}"
        );
        let c = Campaign::parse(path, &games(&["Night", "Day"])).expect("two names");
        assert_eq!(c.games.len(), 2);
        let t = "name = \"c\"\n[[game]]\nscenario = \"s.toml\"\n[[game]]\nscenario = \"s.toml\"\n";
        assert_eq!(
            Campaign::parse(path, t).expect("default names").games.len(),
            2
        );
    }
}
