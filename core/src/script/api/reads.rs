//! The busiest reads of the API, kept per state revision: `kessel.units.get/at/all/occupied`,
//! `kessel.markers.all/at`, `kessel.game.step/option`.
//!
//! Between two changes of the game the rules read the same units, hexes and clock over and over
//! (every enumerator, every validator, a computer player). So the engine keeps what it handed out
//! for as long as `World::revision` stays the same, and after a change rebuilds only the snapshots
//! of the units the change touched (`World::unit_changes`). The reads are therefore exactly the
//! engine's, whatever the rules do, and no ruleset needs caches of its own around `kessel.*`.
//!
//! **Invariant:** a table handed out here is shared by every reader of the same revision: rules
//! read it and never write to it (documented in `docs/lua-api.md`; a copy is the way to change one).

use super::hex_of;
use super::query::{marker_table, unit_table, UnitFilter};
use super::strings::list;
use crate::hex::Hex;
use crate::state::Location;
use crate::world::{Shared, Stage, World};
use mlua::{Lua, LuaSerdeExt, Table};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// What was handed out at one revision.
#[derive(Default)]
struct Kept {
    /// The revision the entries below belong to (`None`: nothing kept yet).
    revision: Option<u64>,
    /// Unit snapshots by unit index; kept across revisions for units that did not change.
    units: Vec<Option<Table>>,
    /// Unit indices by hex, built on the first `at` of a revision.
    by_hex: Option<HashMap<Hex, Vec<usize>>>,
    at: HashMap<Hex, Table>,
    all: HashMap<UnitFilter, Table>,
    occupied: HashMap<Option<String>, Table>,
    markers_all: HashMap<String, Table>,
    markers_at: HashMap<Hex, Table>,
    step: Option<Table>,
    options: HashMap<String, mlua::Value>,
}

impl Kept {
    /// Brings the kept reads up to the world's revision: drops every list, and the snapshots of
    /// the units changed since (all of them after the state was replaced).
    fn catch_up(&mut self, w: &World) {
        if self.revision == Some(w.revision) {
            return;
        }
        let count = w.state.units.len();
        match self.revision.and_then(|r| w.unit_changes.indices_since(r)) {
            Some(changed) if self.units.len() == count => {
                for i in changed {
                    self.units[i] = None;
                }
            }
            _ => {
                self.units.clear();
                self.units.resize(count, None);
            }
        }
        self.revision = Some(w.revision);
        self.by_hex = None;
        self.at.clear();
        self.all.clear();
        self.occupied.clear();
        self.markers_all.clear();
        self.markers_at.clear();
        self.step = None;
        self.options.clear();
    }

    fn unit(&mut self, lua: &Lua, w: &World, index: usize) -> mlua::Result<Table> {
        if let Some(t) = &self.units[index] {
            return Ok(t.clone());
        }
        let t = unit_table(lua, w, &w.state.units[index])?;
        self.units[index] = Some(t.clone());
        Ok(t)
    }
}

/// The most answers one filtered read (`kessel.units.all`, `.occupied`, `kessel.markers.all`)
/// keeps for a revision, one per filter asked. A rule asks with a handful of filters; a loop
/// asking with a new one each time (`side = "s" .. i`) kept every answer and its filter until
/// the game changed, across calls: tables Lua could not collect, so later calls ran out of
/// memory, and filter strings in the engine's memory no limit saw. At the limit the kept answers
/// of that read are dropped, and the next ones kept afresh.
const MAX_KEPT_ANSWERS: usize = 256;

/// Keeps `answer` for `filter` (of `bytes` bytes of text) in `kept`, within [`MAX_KEPT_ANSWERS`];
/// a filter longer than any id is not kept (256 of a megabyte each held 256 MB).
fn keep<K: std::hash::Hash + Eq>(
    kept: &mut HashMap<K, Table>,
    filter: K,
    bytes: usize,
    answer: &Table,
) {
    if bytes > LONG_FILTER {
        return;
    }
    if kept.len() >= MAX_KEPT_ANSWERS {
        kept.clear();
    }
    kept.insert(filter, answer.clone());
}

/// Runs `read` with the world and the kept reads brought up to its revision.
fn with_kept<R>(
    w: &Shared,
    k: &RefCell<Kept>,
    read: impl FnOnce(&World, &mut Kept) -> mlua::Result<R>,
) -> mlua::Result<R> {
    let wb = w.borrow();
    let mut kb = k.borrow_mut();
    kb.catch_up(&wb);
    read(&wb, &mut kb)
}

/// Refuses a side the game does not have (`"bleu"` listed nothing, and a rule built on it found
/// no enemy anywhere). Asked on a read's first answer for the revision only: the kept answers
/// are of sides already found.
fn known_side(w: &World, side: Option<&str>, what: &str) -> mlua::Result<()> {
    side.map_or(Ok(()), |s| super::emit::known_side(&w.state.sides, s, what))
}

/// Bytes of text past which a filter is charged by its length and its answer is not kept.
const LONG_FILTER: usize = 256;

/// Charges reading a filter of `bytes` bytes of text: copying and hashing a long string is
/// native work (no filter of a rule is this long), and a loop of filters of a megabyte each ran
/// into the wall clock.
pub(super) fn long_filter(bytes: usize) -> mlua::Result<()> {
    if bytes > LONG_FILTER {
        crate::script::charge_current(bytes as u64)?;
    }
    Ok(())
}

fn filter_key(filter: &Option<Table>) -> mlua::Result<String> {
    let Some(f) = filter else {
        return Ok(String::new());
    };
    let mut parts = Vec::new();
    for pair in f.pairs::<mlua::Value, mlua::Value>() {
        let (k, v) = pair?;
        parts.push(format!("{}={}", k.to_string()?, v.to_string()?));
    }
    long_filter(parts.iter().map(String::len).sum())?;
    parts.sort();
    Ok(parts.join(","))
}

/// Registers the kept reads on `kessel.units`, `kessel.markers` and `kessel.game`.
pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    let kept = Rc::new(RefCell::new(Kept::default()));
    let units: Table = kessel.get("units")?;
    let markers: Table = kessel.get("markers")?;
    let game: Table = kessel.get("game")?;

    let (w, k) = (world.clone(), kept.clone());
    units.set(
        "get",
        super::function(lua, move |lua, id: String| {
            if id.len() > 256 {
                // copying a long string in was native work: charge it (no id is this long)
                crate::script::charge(lua, id.len() as u64)?;
            }
            with_kept(&w, &k, |wb, kb| match wb.state.unit_index(&id) {
                Some(i) => Ok(Some(kb.unit(lua, wb, i)?)),
                None => Ok(None),
            })
        })?,
    )?;

    let (w, k) = (world.clone(), kept.clone());
    units.set(
        "at",
        super::function(lua, move |lua, h: String| {
            let hex = hex_of(&w, &h)?;
            with_kept(&w, &k, |wb, kb| {
                if let Some(t) = kb.at.get(&hex) {
                    return Ok(t.clone());
                }
                if kb.by_hex.is_none() {
                    crate::script::charge(lua, 8 * wb.state.units.len() as u64)?;
                }
                let by_hex = kb.by_hex.get_or_insert_with(|| {
                    let mut m: HashMap<Hex, Vec<usize>> = HashMap::new();
                    for (i, u) in wb.state.units.iter().enumerate() {
                        if let Location::Map(at) = u.location {
                            m.entry(at).or_default().push(i);
                        }
                    }
                    m
                });
                let indices = by_hex.get(&hex).cloned().unwrap_or_default();
                let items = indices
                    .into_iter()
                    .map(|i| kb.unit(lua, wb, i).map(mlua::Value::Table))
                    .collect::<mlua::Result<Vec<_>>>()?;
                let t = list(lua, items)?;
                kb.at.insert(hex, t.clone());
                Ok(t)
            })
        })?,
    )?;

    let (w, k) = (world.clone(), kept.clone());
    units.set(
        "all",
        super::function(lua, move |lua, filter: Option<Table>| {
            // the filter is read before anything is borrowed: its fields are plain values
            let parsed = UnitFilter::read(&filter)?;
            with_kept(&w, &k, |wb, kb| {
                if let Some(t) = kb.all.get(&parsed) {
                    return Ok(t.clone());
                }
                known_side(wb, parsed.side(), "kessel.units.all")?;
                // native work a script drives is charged to its budget (when it is done, not when a
                // kept answer is handed out again)
                crate::script::charge(lua, 16 * wb.state.units.len() as u64)?;
                let mut items = Vec::new();
                for (i, u) in wb.state.units.iter().enumerate() {
                    if parsed.matches(u) {
                        items.push(mlua::Value::Table(kb.unit(lua, wb, i)?));
                    }
                }
                let t = list(lua, items)?;
                let bytes = parsed.text_len();
                keep(&mut kb.all, parsed, bytes, &t);
                Ok(t)
            })
        })?,
    )?;

    let (w, k) = (world.clone(), kept.clone());
    units.set(
        "occupied",
        super::function(lua, move |lua, side: Option<String>| {
            long_filter(side.as_ref().map_or(0, String::len))?;
            with_kept(&w, &k, |wb, kb| {
                if let Some(t) = kb.occupied.get(&side) {
                    return Ok(t.clone());
                }
                known_side(wb, side.as_deref(), "kessel.units.occupied")?;
                crate::script::charge(lua, 8 * wb.state.units.len() as u64)?;
                let map = &wb.state.map;
                let mut hexes = Vec::new();
                for unit in &wb.state.units {
                    if let Location::Map(h) = unit.location {
                        if side.as_ref().is_none_or(|s| &unit.side == s) {
                            hexes.push(h);
                        }
                    }
                }
                let items = if hexes.iter().all(|h| map.contains(*h)) {
                    // in label order without formatting a label per unit: the map's kept labels
                    super::strings::sort_by_label(lua, map, &mut hexes)?;
                    hexes.dedup();
                    super::strings::labels(lua, map, hexes)?
                        .into_iter()
                        .flatten()
                        .map(mlua::Value::String)
                        .collect()
                } else {
                    let set: BTreeSet<String> = hexes.iter().map(|h| map.label(*h)).collect();
                    set.iter()
                        .map(|l| super::strings::intern(lua, l).map(mlua::Value::String))
                        .collect::<mlua::Result<Vec<_>>>()?
                };
                let t = list(lua, items)?;
                let bytes = side.as_ref().map_or(0, String::len);
                keep(&mut kb.occupied, side, bytes, &t);
                Ok(t)
            })
        })?,
    )?;

    let (w, k) = (world.clone(), kept.clone());
    markers.set(
        "all",
        super::function(lua, move |lua, filter: Option<Table>| {
            const WHAT: &str = "kessel.markers.all";
            if let Some(f) = &filter {
                // a misspelt key filtered nothing and listed every marker
                super::strict_keys(f, WHAT, &["kind", "side", "placed"])?;
            }
            let key = filter_key(&filter)?;
            let field = |name: &str| -> mlua::Result<Option<mlua::Value>> {
                filter.as_ref().map(|f| f.get(name)).transpose()
            };
            let wrong = |name: &str, wants: &str, v: &mlua::Value| {
                mlua::Error::runtime(format!(
                    "{WHAT}: `{name}` is {}, not {wants}",
                    super::show_value(v)
                ))
            };
            let as_string = |name: &str| -> mlua::Result<Option<String>> {
                match field(name)? {
                    None | Some(mlua::Value::Nil) => Ok(None),
                    Some(mlua::Value::String(s)) => Ok(Some(s.to_string_lossy())),
                    // a number is taken as its text, as everywhere a string is expected (and as
                    // `kessel.units.all` does)
                    Some(mlua::Value::Integer(i)) => Ok(Some(i.to_string())),
                    Some(v) => Err(wrong(name, "a string", &v)),
                }
            };
            let kind = as_string("kind")?;
            let side = as_string("side")?;
            let placed = match &filter {
                Some(f) => super::bool_field(f, "placed", WHAT)?,
                None => None,
            };
            with_kept(&w, &k, |wb, kb| {
                if let Some(t) = kb.markers_all.get(&key) {
                    return Ok(t.clone());
                }
                known_side(wb, side.as_deref(), WHAT)?;
                crate::script::charge(lua, 16 * wb.state.markers.len() as u64)?;
                let mut items = Vec::new();
                for m in &wb.state.markers {
                    if kind.as_ref().is_some_and(|k| &m.kind != k)
                        || side.as_ref().is_some_and(|s| m.side.as_ref() != Some(s))
                        || placed.is_some_and(|p| m.hex.is_some() != p)
                    {
                        continue;
                    }
                    items.push(mlua::Value::Table(marker_table(lua, wb, m)?));
                }
                let t = list(lua, items)?;
                let bytes = key.len();
                keep(&mut kb.markers_all, key, bytes, &t);
                Ok(t)
            })
        })?,
    )?;

    let (w, k) = (world.clone(), kept.clone());
    markers.set(
        "at",
        super::function(lua, move |lua, h: String| {
            let hex = hex_of(&w, &h)?;
            with_kept(&w, &k, |wb, kb| {
                if let Some(t) = kb.markers_at.get(&hex) {
                    return Ok(t.clone());
                }
                let items = wb
                    .state
                    .markers_at(hex)
                    .map(|m| marker_table(lua, wb, m).map(mlua::Value::Table))
                    .collect::<mlua::Result<Vec<_>>>()?;
                let t = list(lua, items)?;
                kb.markers_at.insert(hex, t.clone());
                Ok(t)
            })
        })?,
    )?;

    let (w, k) = (world.clone(), kept.clone());
    game.set(
        "step",
        super::function(lua, move |lua, ()| {
            with_kept(&w, &k, |wb, kb| {
                if let Some(t) = &kb.step {
                    return Ok(t.clone());
                }
                use super::strings::{intern, intern_opt, text};
                use mlua::Value as V;
                let mut pairs = vec![
                    V::String(intern(lua, "index")?),
                    V::Integer(wb.state.phase as i64),
                    V::String(intern(lua, "mode")?),
                    intern_opt(lua, wb.state.mode.as_deref())?,
                ];
                if let Some(s) = wb.current_step() {
                    pairs.extend([
                        V::String(intern(lua, "id")?),
                        V::String(text(lua, &s.id)?),
                        V::String(intern(lua, "name")?),
                        V::String(text(lua, &s.name)?),
                        V::String(intern(lua, "side")?),
                        intern_opt(lua, s.side.as_deref())?,
                        V::String(intern(lua, "rule")?),
                        intern_opt(lua, s.rule.as_deref())?,
                    ]);
                }
                let t = super::strings::fill(lua, lua.create_table()?, pairs)?;
                kb.step = Some(t.clone());
                Ok(t)
            })
        })?,
    )?;

    let (w, k) = (world.clone(), kept);
    game.set(
        "option",
        super::function(lua, move |lua, id: String| {
            if id.len() > 256 {
                // copying a long string in was native work: charge it (no id is this long)
                crate::script::charge(lua, id.len() as u64)?;
            }
            with_kept(&w, &k, |wb, kb| {
                if let Some(v) = kb.options.get(&id) {
                    return Ok(v.clone());
                }
                let v = match wb.options.get(&id) {
                    Some(v) => lua.to_value(v)?,
                    // while the rules load no option has a value yet, declared or not: "unknown
                    // option" sent a designer looking for a typo in an option declared a line above
                    None if wb.stage() == Stage::Declare => {
                        return Err(mlua::Error::runtime(format!(
                            "option `{id}` read while the rules load: options are set once the ruleset and the scenario's scripts have loaded (read it in a hook, an action or a query)"
                        )));
                    }
                    None => {
                        return Err(mlua::Error::runtime(format!("unknown option `{id}`")));
                    }
                };
                kb.options.insert(id, v.clone());
                Ok(v)
            })
        })?,
    )?;
    Ok(())
}
