//! The lab's data file: JSON Lines, a header record then one record per game.
//!
//! ```text
//! {"type":"header","format":"kessel-lab/1","engine":"kessel 0.1.0","scenario":{…},"ruleset":{…},…}
//! {"type":"game","profile":"standard","seed":1,"finished":true,"level":"Red win",…}
//! ```
//!
//! Shards of one run carry the same header but for `shard`; `kessel report` merges files whose
//! engine, scenario hash, ruleset hash and settings agree and refuses the others.

use anyhow::Context;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The data format's name and version.
pub const FORMAT: &str = "kessel-lab/1";

/// The engine's name and version, as recorded in headers.
pub fn engine_version() -> String {
    format!("kessel {}", env!("CARGO_PKG_VERSION"))
}

/// What a data file was made from and how.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Always `"header"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// [`FORMAT`].
    pub format: String,
    /// [`engine_version`] of the program that played the games.
    pub engine: String,
    /// The scenario.
    pub scenario: Source,
    /// The ruleset.
    pub ruleset: Source,
    /// Side ids in play order (from the ruleset).
    pub sides: Vec<String>,
    /// The sides the statistics' key figure starts from: `[a, b]` for a − b, and with more sides
    /// a's lead over the best of all the others (`summary::difference_label`). The side the
    /// scenario's objectives count for comes first; else the ruleset's first two sides.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub difference: Vec<String>,
    /// Victory levels in the scenario's declared (rank) order.
    pub levels: Vec<String>,
    /// Profiles played, in the order given, with the option values each put in force.
    pub profiles: Vec<ProfileInfo>,
    /// Objectives, for the control statistics and the map.
    pub objectives: Vec<ObjectiveInfo>,
    /// The map's size and layout, for drawing the objectives.
    pub map: MapInfo,
    /// Games stopped after this many actions count as unfinished.
    pub max_actions: usize,
    /// Sides not played by the ruleset's AI at its default level: side → player (`"random"`, or
    /// `"ai:LEVEL"` for a named level of the AI; see `lab::play::Seat`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub players: BTreeMap<String, String>,
    /// Ways each seed is played (`--ai-variations`): variation 0 is the usual game, the others
    /// replay its dice with the players' open choices made otherwise. 1 (left out): no others.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub variations: u64,
    /// The levels the ruleset's AI declares (`kessel.ai_level`), the default first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ai_levels: Vec<String>,
    /// The scenario's first and last game-turn, `[first, last]`: no game of the run ends
    /// outside them. (Left out by files written before it was recorded.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turns: Option<[u32; 2]>,
    /// What each option is, as the ruleset declares it (`[rule] description`), so the report's
    /// table of the profiles' options can say what a player is reading. (Left out by files
    /// written before it was recorded.)
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub option_notes: BTreeMap<String, String>,
    /// The seed range and this file's slice of it.
    pub seeds: Seeds,
}

/// A file set identified by its content.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Source {
    /// Display name.
    pub name: String,
    /// Path as given on the command line (not compared when merging).
    pub path: String,
    /// FNV-1a 64-bit hash of the content, hex.
    pub hash: String,
}

/// One profile and its option values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProfileInfo {
    /// Name as given (or the scenario's default profile); with `--against-ai`, the profile and
    /// the players that set this arm apart.
    pub name: String,
    /// Every option's value in force.
    pub options: BTreeMap<String, Value>,
    /// This arm's players where they differ from the header's (`--against-ai`): side → player.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub players: BTreeMap<String, String>,
}

/// One objective.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObjectiveInfo {
    /// Name.
    pub name: String,
    /// Victory points.
    pub vp: i64,
    /// The side it counts for, if the scenario says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Its hexes.
    pub hexes: Vec<HexInfo>,
}

/// A hex: label and 0-based column and row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HexInfo {
    /// Printed label.
    pub label: String,
    /// 0-based column, west to east.
    pub col: i32,
    /// 0-based row, north to south.
    pub row: i32,
}

/// A map's size and which columns sit half a hex lower (flat-topped hexes in vertical columns).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MapInfo {
    /// Columns.
    pub columns: u32,
    /// Rows.
    pub rows: u32,
    /// Per column: true if it sits half a hex lower.
    pub lower: Vec<bool>,
}

/// Seeds: game k of `games` uses `first + k`; a shard plays the k with `k % of == index − 1`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seeds {
    /// Seed of game 0.
    pub first: u64,
    /// Games per profile in the whole run (the cap under `--until-ci`).
    pub games: u64,
    /// `[K, N]`: this file holds the K-th of N interleaved slices.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<[u64; 2]>,
}

impl Seeds {
    /// Whether every game's seed is one: game k plays seed `first + k`, so the last must not run
    /// past `u64::MAX` (a range that wrapped round gave the game after 18446744073709551615 seed
    /// 0, and the report's seed range overflowed a debug build).
    pub fn within_range(&self) -> Result<(), String> {
        match self.first.checked_add(self.games.saturating_sub(1)) {
            Some(_) => Ok(()),
            None => Err(format!(
                "the seeds run past {} ({} games from seed {}; game k plays seed + k)",
                u64::MAX,
                self.games,
                self.first
            )),
        }
    }
}

/// One game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Always `"game"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Profile name (one of the header's).
    pub profile: String,
    /// Seed.
    pub seed: u64,
    /// True if the game reached its end (false: stopped at the action limit).
    pub finished: bool,
    /// Last game-turn reached.
    pub turn: u32,
    /// Victory level from the ruleset's `result` hook.
    pub level: Option<String>,
    /// Final VP by side.
    pub scores: BTreeMap<String, f64>,
    /// VP and objective control at the end of each game-turn (the last entry: the game's end).
    pub per_turn: Vec<TurnRecord>,
    /// Losses by side.
    pub losses: BTreeMap<String, Losses>,
    /// Actions played.
    pub actions: usize,
    /// Actions played by kind, under the side deciding (`Engine::deciding_side`: a pending
    /// decision's side, else the phasing side; `-` for steps of no side).
    #[serde(default)]
    pub actions_by_side: BTreeMap<String, BTreeMap<String, u32>>,
    /// CPU seconds the game took (its thread's; wall time where that cannot be read).
    pub cpu_s: f64,
    /// The part of `cpu_s` spent choosing actions: the computer players' own work, with the
    /// enumerations they ask for (or a random player's draw among the legal actions). Measured as
    /// the share of the game's wall time, applied to its CPU time.
    #[serde(default)]
    pub choice_cpu_s: f64,
    /// The part of `cpu_s` the rules took validating and applying the chosen actions (measured
    /// like `choice_cpu_s`); the rest is the lab's own bookkeeping (results at each turn's end).
    #[serde(default)]
    pub rules_cpu_s: f64,
    /// The AI variation it was played with (`--ai-variations`: the same seed's dice, the
    /// players' open choices made otherwise); 0, the usual game, is left out.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub variation: u64,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

fn one() -> u64 {
    1
}

fn is_one(v: &u64) -> bool {
    *v <= 1
}

/// The state at the end of one game-turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// Game-turn.
    pub turn: u32,
    /// VP by side per the `result` hook.
    pub scores: BTreeMap<String, f64>,
    /// Objective name → the side holding all its hexes (`null`: nobody holds all).
    pub control: BTreeMap<String, Option<String>>,
    /// The ruleset's own measures at that moment (the `metrics` of its `result` hook).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metrics: BTreeMap<String, f64>,
}

/// A side's losses.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Losses {
    /// Units eliminated.
    pub eliminated: u32,
    /// Steps lost (an eliminated unit counts all its steps).
    pub steps: u32,
}

/// Games of one or more files, merged.
#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    /// The common header (shard cleared, profiles the union in order of appearance).
    pub header: Header,
    /// Games sorted by profile (header order), then seed.
    pub games: Vec<GameRecord>,
}

impl Data {
    /// Sorts games by profile order then seed.
    pub fn sort(&mut self) {
        let order: BTreeMap<&str, usize> = self
            .header
            .profiles
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.as_str(), i))
            .collect();
        self.games.sort_by_key(|g| {
            (
                order.get(g.profile.as_str()).copied().unwrap_or(usize::MAX),
                g.seed,
                g.variation,
            )
        });
    }
}

/// Reads one data file: its header and games.
/// The largest magnitude a VP figure or measure of a game record may have, as scenario values
/// are bounded: an edited record of 1e308 VP made every mean and interval infinite.
const MAX_MAGNITUDE: f64 = 1e9;

/// The most ways a run plays each seed (`kessel simulate --ai-variations`).
pub const MAX_VARIATIONS: u64 = 1000;

/// The longest victory level name a game record may hold (a scenario's are a few words).
const MAX_LEVEL_NAME: usize = 200;

/// How many victory levels beyond the header's (the scenario's) the games of one file may reach:
/// rules may name a level the scenario does not list (an option that turns one of its levels into
/// a draw), a few at most; each is a bar in every chart of the report.
const MAX_EXTRA_LEVELS: usize = 16;

/// Every number a game record holds is finite and within bounds (CPU times not negative).
/// A header as `kessel simulate` writes it: sides, profiles and levels each named once, a side
/// at least; the VP difference between two of its sides; a map of the size a map file may have,
/// with a layout for each column; objectives worth what a scenario's may be, on hexes of that
/// map. (The report draws the objectives' part of the map: a header whose map or objective hexes
/// no scenario could have had drew billions of hexes, and ran out of memory.)
fn header_in_order(h: &Header) -> Result<(), String> {
    let twice = |names: Vec<&String>| {
        let mut seen = std::collections::BTreeSet::new();
        names.into_iter().find(|n| !seen.insert(*n)).cloned()
    };
    if h.sides.is_empty() {
        return Err("the header lists no sides".into());
    }
    for (what, names) in [
        ("side", h.sides.iter().collect::<Vec<_>>()),
        ("profile", h.profiles.iter().map(|p| &p.name).collect()),
        ("victory level", h.levels.iter().collect()),
    ] {
        if let Some(n) = twice(names) {
            return Err(format!(
                "the header lists {what} `{}` twice",
                kessel_core::error::printable_name(&n)
            ));
        }
    }
    if let Some(s) = h.difference.iter().find(|s| !h.sides.contains(s)) {
        return Err(format!(
            "the header's VP difference names `{}`, no side of the header's ({})",
            kessel_core::error::printable_name(s),
            h.sides.join(", ")
        ));
    }
    if h.difference.len() > 2 || (h.difference.len() == 2 && h.difference[0] == h.difference[1]) {
        return Err(format!(
            "the header's VP difference is between {}; it is between two sides",
            h.difference.join(" and ")
        ));
    }
    h.seeds.within_range()?;
    if let Some([k, n]) = h.seeds.shard {
        if !(1..=n).contains(&k) {
            return Err(format!(
                "the header's shard is {k} of {n}; a shard is K of N with K from 1 to N"
            ));
        }
    }
    // (`--ai-variations` is 2 to 1000; 1, left out, is the usual game alone)
    if !(1..=MAX_VARIATIONS).contains(&h.variations) {
        return Err(format!(
            "the header's `variations` is {}; a run plays each seed 1 to {MAX_VARIATIONS} ways",
            h.variations
        ));
    }
    let most = kessel_core::map::MAX_SIDE;
    let m = &h.map;
    if !(1..=most).contains(&m.columns) || !(1..=most).contains(&m.rows) {
        return Err(format!(
            "the header's map is {}×{} hexes; a map has 1 to {most} columns and rows",
            m.columns, m.rows
        ));
    }
    if m.lower.len() != m.columns as usize {
        return Err(format!(
            "the header's map has {} columns but a layout (`lower`) for {}",
            m.columns,
            m.lower.len()
        ));
    }
    let max_vp = kessel_core::scenario::MAX_VP;
    for o in &h.objectives {
        let name = kessel_core::error::printable_name(&o.name);
        if o.vp.unsigned_abs() > max_vp.unsigned_abs() {
            return Err(format!(
                "objective `{name}` is worth {} VP; an objective is worth at most ±{max_vp}",
                o.vp
            ));
        }
        let on_map = |x: &HexInfo| {
            u32::try_from(x.col).is_ok_and(|c| c < m.columns)
                && u32::try_from(x.row).is_ok_and(|r| r < m.rows)
        };
        if let Some(x) = o.hexes.iter().find(|x| !on_map(x)) {
            return Err(format!(
                "objective `{name}`: hex `{}` at column {}, row {} (from 0) is off the header's \
                 {}×{} map",
                kessel_core::error::printable_name(&x.label),
                x.col,
                x.row,
                m.columns,
                m.rows
            ));
        }
    }
    Ok(())
}

/// Whether a game record could have been written by the run its file's header describes: its
/// seed in the header's range (game k plays `first + k`), objectives the header lists held by
/// its sides, losses and actions of its sides (`-`: steps of no side). A record pasted from
/// another run or edited by hand was counted in every statistic as if it were this run's.
fn agrees_with_header(h: &Header, g: &GameRecord) -> Result<(), String> {
    let side = |s: &str| h.sides.iter().any(|x| x == s);
    if g.seed.wrapping_sub(h.seeds.first) >= h.seeds.games {
        return Err(format!(
            "seed {} is outside the run's seeds ({} games from seed {})",
            g.seed, h.seeds.games, h.seeds.first
        ));
    }
    // game-turns: the game's within the scenario's, and the per-turn entries one for each turn
    // reached, in order, the last at the game's end (an entry out of order, or a game of turn
    // 4,000,000,000 in a 3-turn scenario, reached the per-turn charts and the game lengths)
    let (first, last) = match h.turns {
        Some([first, last]) => (first, last),
        None => (0, kessel_core::scenario::MAX_TURNS),
    };
    if !(first..=last).contains(&g.turn) {
        return Err(format!(
            "the game ends on turn {}, outside the scenario's turns ({first} to {last})",
            g.turn
        ));
    }
    // a shard's file holds its own slice of the seeds (game k with k mod N = K − 1)
    if let Some([k, n]) = h.seeds.shard.filter(|[_, n]| *n > 0) {
        let index = g.seed.wrapping_sub(h.seeds.first);
        if index % n + 1 != k {
            return Err(format!(
                "seed {} is not one of shard {k} of {n} (game {index} of the run is in shard {})",
                g.seed,
                index % n + 1
            ));
        }
    }
    if g.variation >= h.variations {
        return Err(format!(
            "variation {} of seed {}, but the run played each seed {} way{}",
            g.variation,
            g.seed,
            h.variations,
            if h.variations == 1 { "" } else { "s" }
        ));
    }
    // actions: no more than the run's limit, and those counted by side the same in all (a
    // record of 10^18 actions reached the game lengths as the turn of 4e9 did)
    if g.actions > h.max_actions {
        return Err(format!(
            "the game played {} actions, more than the run's limit of {}",
            g.actions, h.max_actions
        ));
    }
    let by_side: u64 = (g.actions_by_side.values())
        .flat_map(|kinds| kinds.values())
        .map(|n| u64::from(*n))
        .sum();
    if !g.actions_by_side.is_empty() && by_side != g.actions as u64 {
        return Err(format!(
            "the game played {} actions, but its actions by side add up to {by_side}",
            g.actions
        ));
    }
    for pair in g.per_turn.windows(2) {
        if pair[1].turn <= pair[0].turn {
            return Err(format!(
                "the per-turn entry of turn {} follows that of turn {}: one entry a turn, in \
                 order",
                pair[1].turn, pair[0].turn
            ));
        }
    }
    if let (Some(a), Some(z)) = (g.per_turn.first(), g.per_turn.last()) {
        if a.turn < first || z.turn != g.turn {
            return Err(format!(
                "the per-turn entries run from turn {} to {}, not from the scenario's first turn \
                 ({first}) or later to the game's last ({})",
                a.turn, z.turn, g.turn
            ));
        }
    }
    for t in &g.per_turn {
        for (objective, holder) in &t.control {
            if !h.objectives.iter().any(|o| &o.name == objective) {
                return Err(format!(
                    "turn {}: objective `{}` is not one of the header's",
                    t.turn,
                    kessel_core::error::printable_name(objective)
                ));
            }
            if let Some(s) = holder.as_deref().filter(|s| !side(s)) {
                return Err(format!(
                    "turn {}: objective `{objective}` is held by `{}`, no side of the header's",
                    t.turn,
                    kessel_core::error::printable_name(s)
                ));
            }
        }
    }
    if let Some(level) = &g.level {
        if level.len() > MAX_LEVEL_NAME {
            let shown: String = level.chars().take(60).collect();
            return Err(format!(
                "victory level `{}…` is no level's name (over {MAX_LEVEL_NAME} bytes; the \
                 header's levels: {})",
                kessel_core::error::printable_name(&shown),
                if h.levels.is_empty() {
                    "none".to_string()
                } else {
                    h.levels.join(", ")
                }
            ));
        }
    }
    // (a side only a hand-edited record names became a VP row of its own in the report)
    let sides = g
        .losses
        .keys()
        .map(|s| ("losses", s))
        .chain(g.scores.keys().map(|s| ("VP", s)))
        .chain(
            g.per_turn
                .iter()
                .flat_map(|t| t.scores.keys().map(|s| ("VP by turn", s))),
        )
        .chain(g.actions_by_side.keys().map(|s| ("actions", s)));
    for (what, s) in sides {
        let no_side = what == "actions" && s == "-";
        if !(side(s) || no_side) {
            return Err(format!(
                "{what} of `{}`, no side of the header's ({})",
                kessel_core::error::printable_name(s),
                h.sides.join(", ")
            ));
        }
    }
    Ok(())
}

fn numbers_in_bounds(g: &GameRecord) -> Result<(), String> {
    let check = |what: &dyn Fn() -> String, x: f64| {
        if x.is_finite() && x.abs() <= MAX_MAGNITUDE {
            Ok(())
        } else {
            // (1e308 as itself, not as 309 digits)
            let shown = if x.abs() >= 1e15 {
                format!("{x:e}")
            } else {
                format!("{x}")
            };
            Err(format!(
                "{} is {shown}: a game record's numbers lie within ±{MAX_MAGNITUDE:e}",
                what()
            ))
        }
    };
    for (side, v) in &g.scores {
        check(&|| format!("the score of `{side}`"), *v)?;
    }
    for t in &g.per_turn {
        for (side, v) in &t.scores {
            check(&|| format!("turn {}: the score of `{side}`", t.turn), *v)?;
        }
        for (name, v) in &t.metrics {
            check(&|| format!("turn {}: measure `{name}`", t.turn), *v)?;
        }
    }
    for (name, v) in [
        ("cpu_s", g.cpu_s),
        ("choice_cpu_s", g.choice_cpu_s),
        ("rules_cpu_s", g.rules_cpu_s),
    ] {
        check(&|| format!("`{name}`"), v)?;
        if v < 0.0 {
            return Err(format!("`{name}` is {v}: a CPU time is not negative"));
        }
    }
    Ok(())
}

/// The most a lab data file may hold: a sweep's records can be far larger than any scenario file
/// (a toy game's record is about 600 bytes, a long game's a few kilobytes), but the file is read
/// whole and its records kept, so not without bound; a larger run is written as shards
/// (`--shard`) and merged.
pub const MAX_DATA_FILE: u64 = 256 << 20;

/// The most values (numbers, strings, lists, maps) one record of a data file may hold: a game
/// record holds a few per game-turn and side; the parser makes each a 32-byte node or more.
pub const MAX_RECORD_VALUES: usize = 100_000;

pub fn read_file(path: &Path) -> anyhow::Result<Data> {
    let bytes = kessel_core::fsio::read_bounded(path, MAX_DATA_FILE).map_err(|e| {
        let big = std::fs::metadata(path).is_ok_and(|m| m.len() > MAX_DATA_FILE);
        let hint = if big {
            " (play a run that large in shards, `--shard K/N`, each to its own file)"
        } else {
            ""
        };
        anyhow::Error::new(e).context(format!("reading {}{hint}", path.display()))
    })?;
    let text = String::from_utf8(bytes)
        .with_context(|| format!("reading {}: not UTF-8 text", path.display()))?;
    // a byte-order mark an editor put at the start is skipped, as every other file Kessel reads
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text).to_string();
    // another of Kessel's files (a save, a scenario) is said as what it is, not as "not JSON"
    use kessel_core::fsio::{kessel_json_kind, not_the_kind, KesselFile, KesselJson};
    if kessel_json_kind(&text) != Some(KesselJson::LabData) {
        let wanted = KesselFile::Json(KesselJson::LabData);
        if let Some(why) = not_the_kind(
            path,
            &text,
            wanted,
            "a data file of `kessel simulate --out`",
        ) {
            anyhow::bail!("{}: {why}", path.display());
        }
    }
    let mut header: Option<Header> = None;
    let mut games = Vec::new();
    // (profile, seed, variation) → the line of its record: a game recorded twice (lines
    // pasted twice, two files joined by hand) would count twice in every statistic
    let mut lines_of = std::collections::BTreeMap::new();
    // victory levels the games reach that the header does not list
    let mut extra_levels = std::collections::BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let at = || format!("{}:{}", path.display(), i + 1);
        if line.trim().is_empty() {
            continue;
        }
        // each value a record holds becomes a node: counted before any is built
        if kessel_core::error::shape(
            line,
            kessel_core::error::Syntax::Json,
            usize::MAX,
            MAX_RECORD_VALUES,
        )
        .is_err()
        {
            anyhow::bail!(
                "{}: the record holds more than {MAX_RECORD_VALUES} values, far more than a \
                 game's record (it was edited or joined with another line?): delete or fix \
                 that line",
                at()
            );
        }
        // a key given twice in a record was read as its last value without a word
        if let Some((_, key)) = kessel_core::error::json_duplicate_key(line) {
            anyhow::bail!(
                "{}: the record gives the key `{}` twice (it was not written so by \
                 `kessel simulate`, or was edited): remove one",
                at(),
                kessel_core::error::printable_name(&key)
            );
        }
        let v: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            // the file ends inside a record: a run stopped while writing it
            Err(e) if e.is_eof() && !text.ends_with('\n') && i + 1 == text.lines().count() => {
                anyhow::bail!(
                    "{}: the last record is cut short (the run that wrote it stopped while \
                     writing it?): delete that line to report the {} games before it",
                    at(),
                    games.len()
                )
            }
            Err(e) => return Err(anyhow::Error::new(e).context(format!("{}: not JSON", at()))),
        };
        match v.get("type").and_then(Value::as_str) {
            Some("header") => {
                if header.is_some() {
                    anyhow::bail!("{}: a second header", at());
                }
                let h: Header = serde_json::from_value(v).map_err(|e| {
                    anyhow::anyhow!(
                        "{}: not a header record: {}",
                        at(),
                        kessel_core::error::plain_types(&e.to_string())
                    )
                })?;
                if h.format != FORMAT {
                    anyhow::bail!(
                        "{}: format `{}`, this kessel reads `{FORMAT}`",
                        at(),
                        h.format
                    );
                }
                if let Err(why) = header_in_order(&h) {
                    anyhow::bail!("{}: {why}", at());
                }
                header = Some(h);
            }
            Some("game") => {
                if header.is_none() {
                    anyhow::bail!("{}: a game record before the header", at());
                }
                let g: GameRecord = serde_json::from_value(v).map_err(|e| {
                    anyhow::anyhow!(
                        "{}: not a game record: {}",
                        at(),
                        kessel_core::error::plain_types(&e.to_string())
                    )
                })?;
                if let Err(why) = numbers_in_bounds(&g) {
                    anyhow::bail!("{}: {why}", at());
                }
                if let Some(h) = &header {
                    if let Err(why) = agrees_with_header(h, &g) {
                        anyhow::bail!(
                            "{}: {why}: the record does not belong to this file's run (edited, \
                             or pasted from another run?); delete that line",
                            at()
                        );
                    }
                }
                if let (Some(level), Some(h)) = (&g.level, &header) {
                    if !h.levels.contains(level)
                        && extra_levels.insert(level.clone())
                        && extra_levels.len() > MAX_EXTRA_LEVELS
                    {
                        anyhow::bail!(
                            "{}: victory level `{}` is the {}th this file's games reach beyond \
                             the header's ({}): rules add a few levels to a scenario's, not \
                             that many (records edited, or joined from other runs?)",
                            at(),
                            kessel_core::error::printable_name(level),
                            extra_levels.len(),
                            h.levels.join(", ")
                        );
                    }
                }
                let key = (g.profile.clone(), g.seed, g.variation);
                if let Some(first) = lines_of.insert(key, i + 1) {
                    anyhow::bail!(
                        "{}: seed {} of profile `{}` is recorded twice (first on line {first}); \
                         remove one of the two records",
                        at(),
                        g.seed,
                        g.profile
                    );
                }
                games.push(g);
            }
            other => anyhow::bail!(
                "{}: unknown record type {}",
                at(),
                other.map_or("(none)".to_string(), |t| format!("`{t}`"))
            ),
        }
    }
    if games.is_empty() && header.is_none() {
        // an empty file (a run that failed before it wrote a line, a redirect that truncated it)
        // was "no header record", as if the records were there and the header missing
        anyhow::bail!(
            "{}: the file is empty: it holds no records (`kessel simulate --out` writes a \
             header line, then a line per game)",
            path.display()
        );
    }
    let header = header.with_context(|| format!("{}: no header record", path.display()))?;
    for g in &games {
        if !header.profiles.iter().any(|p| p.name == g.profile) {
            anyhow::bail!(
                "{}: a game of profile `{}`, which the header does not list",
                path.display(),
                g.profile
            );
        }
    }
    let mut data = Data { header, games };
    data.sort();
    Ok(data)
}

/// Reads and merges data files (shards of one run, or runs of other profiles with the same
/// engine, scenario, ruleset and settings). Refuses a file from another engine, scenario or
/// ruleset, a profile whose options differ between files, and a game played twice.
pub fn merge_files(paths: &[PathBuf]) -> anyhow::Result<Data> {
    let mut merged: Option<(Data, PathBuf)> = None;
    for path in paths {
        let data = read_file(path)?;
        merged = Some(match merged {
            None => (data, path.clone()),
            Some((mut into, first)) => {
                merge_into(&mut into, data).with_context(|| {
                    format!(
                        "{} cannot be merged with {}",
                        path.display(),
                        first.display()
                    )
                })?;
                (into, first)
            }
        });
    }
    let (mut data, _) = merged.context("no data files given")?;
    data.header.seeds.shard = None;
    data.sort();
    Ok(data)
}

/// Merges `other` into `into`, after checking they come from the same engine, scenario, ruleset
/// and settings.
pub fn merge_into(into: &mut Data, other: Data) -> anyhow::Result<()> {
    let (a, b) = (&into.header, &other.header);
    if a.engine != b.engine {
        anyhow::bail!("made by {}, not {}", b.engine, a.engine);
    }
    if a.scenario.hash != b.scenario.hash {
        anyhow::bail!(
            "another scenario: {} ({}), not {} ({})",
            b.scenario.name,
            b.scenario.hash,
            a.scenario.name,
            a.scenario.hash
        );
    }
    // a profile file edited between two runs changes the ruleset's hash too (its profiles are
    // part of it): the profile and the options that differ are the cause to name, not "another
    // ruleset: pgg (…), not pgg (…)"
    let clash = b.profiles.iter().find_map(|p| {
        let q = a.profiles.iter().find(|q| q.name == p.name)?;
        let ids: BTreeSet<&String> = p.options.keys().chain(q.options.keys()).collect();
        let differ: Vec<String> = ids
            .into_iter()
            .filter(|id| p.options.get(*id) != q.options.get(*id))
            .map(|id| {
                let shown = |v: Option<&Value>| v.map_or("unset".to_string(), Value::to_string);
                format!(
                    "{id} = {} here, {} there",
                    shown(p.options.get(id)),
                    shown(q.options.get(id))
                )
            })
            .collect();
        (!differ.is_empty()).then(|| (p.name.clone(), differ))
    });
    if let Some((name, differ)) = clash {
        anyhow::bail!(
            "profile `{name}` has other option values ({}): its file was changed between the \
             runs; play them again under one version of it",
            differ.join(", ")
        );
    }
    if a.ruleset.hash != b.ruleset.hash {
        anyhow::bail!(
            "another ruleset: {} ({}), not {} ({}): its files (rules, options or profiles) \
             changed between the runs",
            b.ruleset.name,
            b.ruleset.hash,
            a.ruleset.name,
            a.ruleset.hash
        );
    }
    if a.max_actions != b.max_actions {
        anyhow::bail!(
            "another action limit: {}, not {}",
            b.max_actions,
            a.max_actions
        );
    }
    if a.players != b.players {
        anyhow::bail!("other players (--ai): {:?}, not {:?}", b.players, a.players);
    }
    if a.seeds.first != b.seeds.first {
        anyhow::bail!(
            "another seed range: from {}, not {}",
            b.seeds.first,
            a.seeds.first
        );
    }
    let mut profiles = a.profiles.clone();
    for p in &b.profiles {
        // profiles of one name with other options were refused above
        if !profiles.iter().any(|q| q.name == p.name) {
            profiles.push(p.clone());
        }
    }
    if into.header.variations != other.header.variations {
        anyhow::bail!(
            "other --ai-variations: {}, not {}",
            other.header.variations,
            into.header.variations
        );
    }
    let seen: std::collections::BTreeSet<(&str, u64, u64)> = into
        .games
        .iter()
        .map(|g| (g.profile.as_str(), g.seed, g.variation))
        .collect();
    if let Some(g) = other
        .games
        .iter()
        .find(|g| seen.contains(&(g.profile.as_str(), g.seed, g.variation)))
    {
        anyhow::bail!(
            "seed {} of profile `{}` is in both (a shard given twice?)",
            g.seed,
            g.profile
        );
    }
    match (into.header.turns, other.header.turns) {
        (Some(a), Some(b)) if a != b => anyhow::bail!(
            "the scenario's turns are {} to {}, not {} to {}",
            b[0],
            b[1],
            a[0],
            a[1]
        ),
        (None, Some(b)) => into.header.turns = Some(b),
        _ => {}
    }
    into.header.profiles = profiles;
    into.header.seeds.games = into.header.seeds.games.max(other.header.seeds.games);
    into.games.extend(other.games);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(profile: &str, seeds: &[u64]) -> Data {
        Data {
            header: Header {
                kind: "header".into(),
                format: FORMAT.into(),
                engine: "kessel test".into(),
                scenario: Source {
                    name: "s".into(),
                    path: "a/s.toml".into(),
                    hash: "1".into(),
                },
                ruleset: Source {
                    name: "r".into(),
                    path: "r".into(),
                    hash: "2".into(),
                },
                sides: vec!["red".into(), "blue".into()],
                difference: vec![],
                levels: vec![],
                profiles: vec![ProfileInfo {
                    name: profile.into(),
                    options: BTreeMap::new(),
                    players: BTreeMap::new(),
                }],
                objectives: vec![],
                map: MapInfo {
                    columns: 1,
                    rows: 1,
                    lower: vec![false],
                },
                max_actions: 10,
                players: BTreeMap::new(),
                variations: 1,
                ai_levels: Vec::new(),
                turns: None,
                option_notes: BTreeMap::new(),
                seeds: Seeds {
                    first: 1,
                    games: 4,
                    shard: Some([1, 2]),
                },
            },
            games: seeds
                .iter()
                .map(|&seed| GameRecord {
                    kind: "game".into(),
                    profile: profile.into(),
                    seed,
                    finished: true,
                    turn: 1,
                    level: None,
                    scores: BTreeMap::new(),
                    per_turn: vec![],
                    losses: BTreeMap::new(),
                    actions: 1,
                    actions_by_side: BTreeMap::new(),
                    cpu_s: 0.0,
                    choice_cpu_s: 0.0,
                    rules_cpu_s: 0.0,
                    variation: 0,
                })
                .collect(),
        }
    }

    #[test]
    fn seeds_are_within_range_up_to_the_last_u64() {
        let seeds = |first, games| Seeds {
            first,
            games,
            shard: None,
        };
        assert!(seeds(u64::MAX - 1, 2).within_range().is_ok());
        assert!(seeds(u64::MAX, 1).within_range().is_ok());
        assert!(seeds(5, 0).within_range().is_ok());
        let e = seeds(u64::MAX, 2).within_range().expect_err("wraps");
        assert!(e.contains("run past 18446744073709551615"), "{e}");
    }

    #[test]
    fn merging_joins_profiles_and_refuses_what_does_not_belong() {
        let mut a = data("x", &[1, 3]);
        let mut b = data("y", &[1, 3]);
        // another machine's path to the same files does not matter
        b.header.scenario.path = "/elsewhere/s.toml".into();
        merge_into(&mut a, b).expect("merge");
        a.sort();
        let names: Vec<&str> = a.header.profiles.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["x", "y"]);
        let order: Vec<(&str, u64)> = a
            .games
            .iter()
            .map(|g| (g.profile.as_str(), g.seed))
            .collect();
        assert_eq!(order, [("x", 1), ("x", 3), ("y", 1), ("y", 3)]);
        let err = merge_into(&mut a, data("x", &[3])).expect_err("seed twice");
        assert!(
            err.to_string().contains("seed 3 of profile `x` is in both"),
            "{err}"
        );
        let mut other = data("x", &[2]);
        other.header.max_actions = 11;
        let err = merge_into(&mut a, other).expect_err("other limit");
        assert!(err.to_string().contains("another action limit"), "{err}");
        let mut other = data("x", &[2]);
        other.header.seeds.first = 100;
        assert!(merge_into(&mut a, other).is_err());
        merge_into(&mut a, data("x", &[2])).expect("the other shard");
        assert_eq!(a.games.len(), 5);
    }
}
