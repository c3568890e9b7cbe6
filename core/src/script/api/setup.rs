//! `kessel.setup`: a position built inline by a script or a test (map, units, markers, pools,
//! clock, options), every table checked field by field.

use crate::hex::Hex;
use crate::map::{Area, Map, Place};
use crate::numbering::Numbering;
use crate::state::{Face, GameState, Location, Marker, Unit, Value};
use crate::world::{Shared, Stage};
use mlua::{Lua, LuaSerdeExt, Table};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Refuses a key `t` does not know, naming the nearest known one: a misspelt field
/// (`sied = "red"`) fails at the call instead of being ignored.
const SETUP_FIELDS: &[&str] = &[
    "map",
    "seed",
    "last_turn",
    "turn",
    "step",
    "mode",
    "units",
    "pools",
    "markers",
    "vars",
    "options",
    "run_step_start",
    "objectives",
    "levels",
];
const OBJECTIVE_FIELDS: &[&str] = &["name", "vp", "side", "place", "hexes"];
const LEVEL_FIELDS: &[&str] = &["name", "max"];
const UNIT_FIELDS: &[&str] = &[
    "id",
    "name",
    "side",
    "type",
    "formation",
    "faces",
    "step",
    "hidden",
    "pool",
    "at",
    "location",
    "enter",
    "setup_area",
    "attrs",
    "flags",
    "vars",
    "hidden_from",
];
/// The items of a set-up's list field `what` (`objectives`, `levels`), each a table: a keyed
/// entry or a hole is refused, not dropped (`{ Mill = {…} }` read as no objective at all, and
/// replaced the scenario's), and the list is charged by its length before any item is read.
fn records(lua: &Lua, list: &Table, what: &str, item: &str) -> mlua::Result<Vec<Table>> {
    let n = list.raw_len();
    crate::script::charge(lua, super::LIST_ITEM_CHARGE.saturating_mul(n as u64 + 1))?;
    let mut out = Vec::with_capacity(n.min(1 << 16));
    list.for_each::<mlua::Value, mlua::Value>(|k, v| {
        let at = match k {
            mlua::Value::Integer(i) if i >= 1 && (i as u64) <= n as u64 => i as usize,
            other => {
                return Err(mlua::Error::runtime(format!(
                    "kessel.setup: `{what}` is a list ({{ {{…}}, {{…}} }}), but it has the key {}",
                    super::describe_value(&other)
                )))
            }
        };
        match v {
            mlua::Value::Table(t) => {
                out.push((at, t));
                Ok(())
            }
            other => Err(mlua::Error::runtime(format!(
                "kessel.setup: {item} {at} is {}, not a table",
                super::describe_value(&other)
            ))),
        }
    })?;
    if out.len() != n {
        // a hole: the border `raw_len` answers lies past it
        return Err(mlua::Error::runtime(format!(
            "kessel.setup: `{what}` has a hole (a nil among its {n} items): give every item"
        )));
    }
    out.sort_by_key(|(at, _)| *at);
    Ok(out.into_iter().map(|(_, t)| t).collect())
}

/// Field `key` of `t` as text: nil, or a string (a number is not turned into one), else refused
/// naming the field.
fn text_field(t: &Table, key: &str, what: &str) -> mlua::Result<Option<String>> {
    match t.get::<mlua::Value>(key)? {
        mlua::Value::Nil => Ok(None),
        mlua::Value::String(s) => Ok(Some(s.to_string_lossy())),
        other => Err(mlua::Error::runtime(format!(
            "{what}: `{key}` is {}, not a string",
            super::show_value(&other)
        ))),
    }
}

/// Field `key` of `t` as victory points: nil, or a whole number within ±[`MAX_VP`] as a
/// scenario file's (a string is not turned into one), else refused naming the field.
fn points_field(t: &Table, key: &str, what: &str) -> mlua::Result<Option<i64>> {
    use crate::scenario::MAX_VP;
    let v = t.get::<mlua::Value>(key)?;
    let n = match &v {
        mlua::Value::Nil => return Ok(None),
        mlua::Value::Integer(i) => Some(*i),
        mlua::Value::Number(x) if x.fract() == 0.0 && x.abs() <= MAX_VP as f64 => Some(*x as i64),
        _ => None,
    };
    match n {
        Some(n) if n.unsigned_abs() <= MAX_VP as u64 => Ok(Some(n)),
        _ => Err(mlua::Error::runtime(format!(
            "{what}: `{key}` is {}, not a whole number within ±{MAX_VP}",
            super::show_value(&v)
        ))),
    }
}

/// A set-up's own victory objectives, checked as a scenario file's are: a name under the rule of
/// names, a place of the set-up's map or a list of its hexes (not both, no hex twice), a vp
/// within ±MAX_VP, a side in play, not the same hexes and side as another objective. A victory
/// test on an inline map had none: the rules read the loaded scenario's, labelled for another
/// map.
fn objectives_of(
    lua: &Lua,
    spec: &Table,
    map: &Map,
    sides: &[String],
) -> mlua::Result<Option<Vec<crate::scenario::Objective>>> {
    let Some(list) = spec.get::<Option<Table>>("objectives")? else {
        return Ok(None);
    };
    let mut out: Vec<crate::scenario::Objective> = Vec::new();
    let mut names = std::collections::BTreeSet::new();
    let mut same = std::collections::BTreeMap::new();
    for (i, t) in records(lua, &list, "objectives", "objective")?
        .into_iter()
        .enumerate()
    {
        let what = format!("kessel.setup: objective {}", i + 1);
        super::strict_keys(&t, &what, OBJECTIVE_FIELDS)?;
        let bad = |why: String| mlua::Error::runtime(format!("{what}: {why}"));
        let place = text_field(&t, "place", &what)?;
        let listed: Option<super::List<String>> = match t.get::<mlua::Value>("hexes")? {
            mlua::Value::Nil => None,
            mlua::Value::Table(h) => Some(lua.unpack(mlua::Value::Table(h))?),
            other => {
                return Err(bad(format!(
                    "`hexes` is {}, not a list of hexes",
                    super::show_value(&other)
                )))
            }
        };
        let given_name = text_field(&t, "name", &what)?;
        let (name, hexes) = match (place, listed) {
            (Some(p), None) => {
                let Some(found) = map.place(&p) else {
                    let names: Vec<String> = map.places.iter().map(|pl| pl.name.clone()).collect();
                    return Err(bad(format!(
                        "no place `{}` on the map{}",
                        crate::error::printable_name(&p),
                        crate::names::did_you_mean(&p, &names)
                    )));
                };
                (given_name.unwrap_or(p), found.hexes.clone())
            }
            (None, Some(labels)) => {
                let name =
                    given_name.ok_or_else(|| bad("`name` is required with `hexes`".into()))?;
                let mut hexes = Vec::new();
                for l in labels.0 {
                    let h = map.parse(&l).filter(|h| map.contains(*h)).ok_or_else(|| {
                        bad(format!(
                            "`{}` is not a hex of the map",
                            crate::error::printable_name(&l)
                        ))
                    })?;
                    if hexes.contains(&h) {
                        return Err(bad(format!("hex {} is listed twice", map.label(h))));
                    }
                    hexes.push(h);
                }
                (name, hexes)
            }
            _ => return Err(bad("give `place` or `hexes`, one of them".into())),
        };
        if let Some(problem) = crate::names::name_problem(&name) {
            return Err(bad(format!("the name {problem}")));
        }
        if hexes.is_empty() {
            return Err(bad("an objective has hexes".into()));
        }
        let vp = points_field(&t, "vp", &what)?.ok_or_else(|| bad("`vp` is required".into()))?;
        let side = text_field(&t, "side", &what)?;
        if let Some(side) = &side {
            if !sides.contains(side) {
                return Err(bad(format!(
                    "`{}` is not a side of this ruleset ({}){}",
                    crate::error::printable_name(side),
                    sides.join(", "),
                    crate::names::did_you_mean(side, sides)
                )));
            }
        }
        if !names.insert(name.clone()) {
            return Err(bad(format!(
                "the name `{}` is given twice",
                crate::error::printable_name(&name)
            )));
        }
        // as a scenario file's: the same hexes and side twice counts one objective twice
        let mut key = hexes.clone();
        key.sort();
        if let Some(first) = same.insert((key, side.clone()), i + 1) {
            return Err(bad(format!(
                "the same objective as objective {first} (the same hexes and side): remove one, \
                 or give it all the VP"
            )));
        }
        out.push(crate::scenario::Objective {
            name,
            hexes,
            vp,
            side,
        });
    }
    Ok(Some(out))
}

/// A set-up's own victory levels (`{ name =, max = }`, first match wins), names given once and
/// under the rule of names, a `max` within ±MAX_VP.
fn levels_of(lua: &Lua, spec: &Table) -> mlua::Result<Option<Vec<crate::scenario::Level>>> {
    let Some(list) = spec.get::<Option<Table>>("levels")? else {
        return Ok(None);
    };
    let mut out: Vec<crate::scenario::Level> = Vec::new();
    let mut names = std::collections::BTreeSet::new();
    for (i, t) in records(lua, &list, "levels", "level")?
        .into_iter()
        .enumerate()
    {
        let what = format!("kessel.setup: level {}", i + 1);
        super::strict_keys(&t, &what, LEVEL_FIELDS)?;
        let name = text_field(&t, "name", &what)?
            .ok_or_else(|| mlua::Error::runtime(format!("{what}: `name` is required")))?;
        if let Some(problem) = crate::names::name_problem(&name) {
            return Err(mlua::Error::runtime(format!("{what}: the name {problem}")));
        }
        if !names.insert(name.clone()) {
            return Err(mlua::Error::runtime(format!(
                "{what}: the level `{}` is given twice",
                crate::error::printable_name(&name)
            )));
        }
        out.push(crate::scenario::Level {
            name,
            max: points_field(&t, "max", &what)?,
        });
    }
    Ok(Some(out))
}

/// A set-up's `hidden_from` (a side, a list of sides, or true: every side but `own`), checked
/// against the sides in play.
fn hidden_at_start(
    v: mlua::Value,
    sides: &[String],
    own: Option<&str>,
    what: &str,
) -> mlua::Result<Vec<String>> {
    use super::secrets::{others_than, sides_among, NotSides};
    match v {
        mlua::Value::Boolean(true) => Ok(others_than(sides, own)),
        mlua::Value::Boolean(false) => Ok(Vec::new()),
        v => match sides_among(v, sides)? {
            Ok(list) => Ok(list.unwrap_or_default()),
            Err(NotSides::Value(v)) => Err(mlua::Error::runtime(format!(
                "kessel.setup: {what}: hidden_from is a side, a list of sides or true, not {v}"
            ))),
            Err(NotSides::Unknown(s)) => Err(mlua::Error::runtime(format!(
                "kessel.setup: {what}: hidden_from names `{s}`, not a side ({})",
                sides.join(", ")
            ))),
            Err(NotSides::Twice(s)) => Err(mlua::Error::runtime(format!(
                "kessel.setup: {what}: hidden_from names `{s}` twice; name each side once"
            ))),
        },
    }
}

const MARKER_FIELDS: &[&str] = &[
    "kind",
    "side",
    "at",
    "other",
    "count",
    "value",
    "hidden_from",
];
const MAP_FIELDS: &[&str] = &[
    "columns",
    "rows",
    "default",
    "terrain",
    "hexsides",
    "links",
    "places",
    "areas",
    "tags",
    "numbering",
    "lower_columns",
    "first_column",
    "first_row",
];

/// Builds a map from an inline description. `declared` are the ruleset's terrain ids, in
/// declaration order. A map that names no `default` is "clear" when the ruleset declares that
/// terrain or none at all, else of the ruleset's first terrain: a ruleset with no "clear"
/// (a game of plains and hills) would otherwise need `default` in every test's map.
fn inline_map(spec: &Table, declared: &[String]) -> mlua::Result<Map> {
    let cols: u32 = spec.get::<Option<u32>>("columns")?.unwrap_or(9);
    let rows: u32 = spec.get::<Option<u32>>("rows")?.unwrap_or(9);
    let default: String = match spec.get::<Option<String>>("default")? {
        Some(d) => d,
        None if declared.is_empty() || declared.iter().any(|t| t == "clear") => "clear".into(),
        None => declared[0].clone(),
    };
    let numbering = match spec.get::<Option<String>>("numbering")?.as_deref() {
        None | Some("ccrr") => Numbering::default(),
        Some("letters") => Numbering {
            letters: true,
            ..Numbering::default()
        },
        Some(other) => {
            return Err(mlua::Error::runtime(format!(
                "inline map: unknown numbering `{other}` (supported: \"ccrr\", \"letters\")"
            )))
        }
    };
    // the grid of the game's own map file, so a test's neighbours are the game's: with odd
    // columns lower, the hexes next to B2 are others than with even ones
    let lower_columns = match spec.get::<Option<String>>("lower_columns")?.as_deref() {
        None | Some("even") => crate::numbering::LowerColumns::Even,
        Some("odd") => crate::numbering::LowerColumns::Odd,
        Some(other) => {
            return Err(mlua::Error::runtime(format!(
                "inline map: lower_columns `{other}` is \"even\" or \"odd\""
            )))
        }
    };
    let numbering = Numbering {
        lower_columns,
        first_column: spec
            .get::<Option<i32>>("first_column")?
            .unwrap_or(numbering.first_column),
        first_row: spec
            .get::<Option<i32>>("first_row")?
            .unwrap_or(numbering.first_row),
        ..numbering
    };
    // the same rule as a map file's, checked before anything is allocated
    if let Some(problem) = numbering.size_problems(cols, rows).into_iter().next() {
        return Err(mlua::Error::runtime(format!("inline map: {problem}")));
    }
    let mut map = Map::new("inline", cols, rows, numbering, &default);
    let bad = |l: &str| {
        mlua::Error::runtime(format!(
            "inline map: `{l}` is not a hex of a {cols}x{rows} map"
        ))
    };
    let hex = |map: &Map, l: &str| map.parse(l).ok_or_else(|| bad(l));
    if let Some(t) = spec.get::<Option<Table>>("terrain")? {
        for pair in t.pairs::<String, String>() {
            let (l, terrain) = pair?;
            let h = hex(&map, &l)?;
            map.set_terrain(h, &terrain)
                .map_err(mlua::Error::external)?;
        }
    }
    // hexsides: { {"0202", "0302", "river"}, ... }
    if let Some(t) = spec.get::<Option<Table>>("hexsides")? {
        for item in t.sequence_values::<super::List<String>>() {
            let super::List(item) = item?;
            let [a, b, kind] = item.as_slice() else {
                return Err(mlua::Error::runtime(
                    "inline map: a hexside is {\"AAAA\", \"BBBB\", \"kind\"}",
                ));
            };
            let (ha, hb) = (hex(&map, a)?, hex(&map, b)?);
            let side = crate::hex::Hexside::between(ha, hb).ok_or_else(|| {
                mlua::Error::runtime(format!("inline map: {a} and {b} are not adjacent"))
            })?;
            map.add_side_feature(kind, None, vec![side])
                .map_err(mlua::Error::external)?;
        }
    }
    // links: { {kind = "road", path = {...}} }
    if let Some(t) = spec.get::<Option<Table>>("links")? {
        for item in t.sequence_values::<Table>() {
            let item = item?;
            let kind: String = item.get("kind")?;
            let super::List(path) = item.get::<super::List<String>>("path")?;
            let hexes = path
                .iter()
                .map(|l| hex(&map, l))
                .collect::<mlua::Result<Vec<Hex>>>()?;
            map.add_link(&kind, None, hexes)
                .map_err(mlua::Error::external)?;
        }
    }
    if let Some(t) = spec.get::<Option<Table>>("places")? {
        for item in t.sequence_values::<Table>() {
            let item = item?;
            let super::List(hexes) = item.get::<super::List<String>>("hexes")?;
            let place = Place {
                name: item.get("name")?,
                kind: item.get("kind")?,
                hexes: hexes
                    .iter()
                    .map(|l| hex(&map, l))
                    .collect::<mlua::Result<_>>()?,
            };
            map.add_place(place).map_err(mlua::Error::external)?;
        }
    }
    if let Some(t) = spec.get::<Option<Table>>("areas")? {
        for pair in t.pairs::<String, super::List<String>>() {
            let (id, super::List(hexes)) = pair?;
            let hexes = hexes
                .iter()
                .map(|l| hex(&map, l))
                .collect::<mlua::Result<_>>()?;
            map.areas.insert(
                id.clone(),
                Area {
                    id: id.clone(),
                    name: id,
                    hexes,
                },
            );
        }
    }
    if let Some(t) = spec.get::<Option<Table>>("tags")? {
        for pair in t.pairs::<String, super::List<String>>() {
            let (tag, super::List(hexes)) = pair?;
            let hexes: Vec<Hex> = hexes
                .iter()
                .map(|l| hex(&map, l))
                .collect::<mlua::Result<_>>()?;
            map.tags.entry(tag).or_default().extend(hexes);
        }
    }
    Ok(map)
}

fn face_of(s: &str) -> mlua::Result<Face> {
    Face::parse(s).ok_or_else(|| mlua::Error::runtime(format!("`{s}` is not a face (A-D-M)")))
}

/// The most units an inline set-up may create.
use super::changes::MAX_UNITS;

/// `kessel.setup{...}`: replaces the position with one described inline.
pub(super) fn setup(lua: &Lua, world: &Shared, spec: Table) -> mlua::Result<()> {
    super::strict_keys(&spec, "kessel.setup", SETUP_FIELDS)?;
    let map = match spec.get::<Option<Table>>("map")? {
        Some(m) => {
            super::strict_keys(&m, "kessel.setup: map", MAP_FIELDS)?;
            let declared: Vec<String> = (world.borrow().ruleset.terrains.iter())
                .map(|t| t.id.clone())
                .collect();
            let map = inline_map(&m, &declared)?;
            // as a scenario's map is checked: an undeclared terrain ("lava") set up here only
            // failed later, at the first move, as a terrain with no movement cost
            if let Some(p) = world.borrow().ruleset.check_map(&map).first() {
                return Err(mlua::Error::runtime(format!("kessel.setup: the map: {p}")));
            }
            Arc::new(map)
        }
        None => world.borrow().state.map.clone(),
    };
    // Every Lua value is read before the world is borrowed: a table's metamethods may call back
    // into the engine (and a borrow held across them would panic).
    let seed: Option<u64> = spec.get("seed")?;
    let last_turn = spec.get::<Option<u32>>("last_turn")?.unwrap_or(12);
    let turn = spec.get::<Option<u32>>("turn")?.unwrap_or(1);
    for (what, n) in [("last_turn", last_turn), ("turn", turn)] {
        // game-turns count from 1, as a scenario's do
        if n == 0 {
            return Err(mlua::Error::runtime(format!(
                "kessel.setup: {what} = 0: game-turns count from 1"
            )));
        }
        if n > crate::scenario::MAX_TURNS {
            return Err(mlua::Error::runtime(format!(
                "kessel.setup: {what} = {n} is over the limit ({})",
                crate::scenario::MAX_TURNS
            )));
        }
    }
    let step = match spec.get::<Option<mlua::Value>>("step")? {
        Some(mlua::Value::Integer(i)) => Some(Ok(usize::try_from(i).map_err(|_| {
            mlua::Error::runtime(format!("kessel.setup: step {i} is not a step index"))
        })?)),
        Some(mlua::Value::String(s)) => Some(Err(s.to_str()?.to_string())),
        None | Some(mlua::Value::Nil) => None,
        // `step = 2.5` or `step = true` set the first step without a word
        Some(other) => {
            return Err(mlua::Error::runtime(format!(
                "kessel.setup: step is a step id or a 0-based step index, not {}",
                super::describe_value(&other)
            )))
        }
    };
    let (sides, seed, types) = {
        let w = world.borrow();
        let types: Vec<String> = w.ruleset.unit_types.keys().cloned().collect();
        (w.ruleset.sides.clone(), seed.unwrap_or(w.state.seed), types)
    };
    if turn > last_turn {
        return Err(mlua::Error::runtime(format!(
            "kessel.setup: turn = {turn} is after last_turn = {last_turn}"
        )));
    }
    let mut state = GameState::new(map.clone(), sides, seed);
    state.last_turn = last_turn;
    state.turn = turn;
    if let Some(mode) = spec.get::<Option<String>>("mode")? {
        let w = world.borrow();
        if !w.ruleset.modes.contains_key(&mode) {
            let known: Vec<String> = w.ruleset.modes.keys().cloned().collect();
            return Err(mlua::Error::runtime(format!(
                "kessel.setup: no sequence `{mode}` was declared{}",
                crate::names::did_you_mean(&mode, &known)
            )));
        }
        state.mode = Some(mode);
    }
    match step {
        Some(Ok(i)) => {
            // as `kessel.emit.clock`: a step past the sequence was kept, and
            // `kessel.game.step()` answered an index with no id
            let w = world.borrow();
            let n = w.ruleset.steps_of(state.mode.as_deref()).len();
            if i >= n.max(1) {
                return Err(mlua::Error::runtime(format!(
                    "kessel.setup: the sequence{} has {n} steps (0 to {}); there is no step {i}",
                    state
                        .mode
                        .as_ref()
                        .map_or(String::new(), |m| format!(" `{m}`")),
                    n.saturating_sub(1)
                )));
            }
            state.phase = i
        }
        Some(Err(id)) => {
            let w = world.borrow();
            let steps = w.ruleset.steps_of(state.mode.as_deref());
            state.phase = steps.iter().position(|s| s.id == id).ok_or_else(|| {
                let known: Vec<String> = steps.iter().map(|s| s.id.clone()).collect();
                mlua::Error::runtime(format!(
                    "kessel.setup: no step `{id}` in the sequence{}{}",
                    state
                        .mode
                        .as_ref()
                        .map_or(String::new(), |m| format!(" `{m}`")),
                    crate::names::did_you_mean(&id, &known)
                ))
            })?
        }
        None => {}
    }
    if let Some(units) = spec.get::<Option<Table>>("units")? {
        for u in units.sequence_values::<Table>() {
            let u = u?;
            if state.units.len() >= MAX_UNITS {
                return Err(mlua::Error::runtime(format!(
                    "kessel.setup: more than {MAX_UNITS} units"
                )));
            }
            let id: String = u.get("id")?;
            // as a scenario's units and `kessel.emit.create_unit` are checked (before the id is
            // named in any message)
            if let Some(why) = crate::names::unit_id_problem(&id) {
                return Err(mlua::Error::runtime(format!("kessel.setup: {why}")));
            }
            super::strict_keys(&u, &format!("kessel.setup: unit `{id}`"), UNIT_FIELDS)?;
            let kind: String = u.get("type")?;
            let what = format!("kessel.setup: unit `{id}`");
            let fields = super::changes::face_fields(&world.borrow(), &kind);
            let (faces, named) =
                super::changes::faces_of(lua, fields.as_deref(), u.get("faces")?, &what)?;
            let location = match u.get::<Option<String>>("at")? {
                Some(l) => Location::Map(map.parse(&l).ok_or_else(|| {
                    mlua::Error::runtime(format!(
                        "kessel.setup: unit `{id}` at `{l}`, not a hex of the map"
                    ))
                })?),
                // as `kessel.emit.create_unit`: a misspelt location (`eliminted`) or `map`
                // without `at` was read as pending unseen
                None => match u.get::<Option<String>>("location")?.as_deref() {
                    None | Some("pending") => Location::Pending,
                    Some("eliminated") => Location::Eliminated,
                    Some("removed") => Location::Removed,
                    Some(other) => {
                        return Err(mlua::Error::runtime(format!(
                            "{what}: location `{other}` is not pending, eliminated or removed \
                             (give `at` for a hex)"
                        )))
                    }
                },
            };
            let mut flags = BTreeSet::new();
            for f in (u.get::<Option<super::List<String>>>("flags")?).map_or_else(Vec::new, |l| l.0)
            {
                flags.insert(f);
            }
            let attrs: BTreeMap<String, i64> = u
                .get::<Option<BTreeMap<String, i64>>>("attrs")?
                .unwrap_or_default();
            let vars = match u.get::<mlua::Value>("vars")? {
                mlua::Value::Nil => BTreeMap::new(),
                v => match super::plain::from_lua(lua, &v, &format!("{what}: vars"), 1 << 20)? {
                    crate::state::Value::Object(m) => m.into_iter().collect(),
                    _ => {
                        return Err(mlua::Error::runtime(format!(
                            "{what}: vars is a table keyed by name"
                        )))
                    }
                },
            };
            let entry = match u.get::<Option<Table>>("enter")? {
                Some(e) => {
                    let in_enter = format!("{what}: enter");
                    super::strict_keys(&e, &in_enter, &["turn", "area"])?;
                    let turn = e.get::<Option<u32>>("turn")?.ok_or_else(|| {
                        mlua::Error::runtime(format!("{in_enter}: `turn` is required"))
                    })?;
                    let area = e.get::<Option<String>>("area")?.ok_or_else(|| {
                        mlua::Error::runtime(format!("{in_enter}: `area` is required"))
                    })?;
                    Some(crate::state::Entry { turn, area })
                }
                None => None,
            };
            let unit = Unit {
                name: u
                    .get::<Option<String>>("name")?
                    .unwrap_or_else(|| id.clone()),
                id: id.clone(),
                side: u.get("side")?,
                kind,
                formation: u.get("formation")?,
                faces,
                named,
                step: u.get::<Option<u32>>("step")?.unwrap_or(0),
                hidden: super::bool_field(&u, "hidden", "kessel.setup unit")?.unwrap_or(false),
                pool: u.get("pool")?,
                location,
                entry,
                setup_area: u.get("setup_area")?,
                attrs,
                flags,
                vars,
            };
            if !state.sides.contains(&unit.side) {
                return Err(mlua::Error::runtime(format!(
                    "kessel.setup: unit `{id}`: side `{}` is not a side of the ruleset ({})",
                    unit.side,
                    state.sides.join(", ")
                )));
            }
            // as a scenario file's unit is checked: a misspelt type passed, and the rules met a
            // unit whose `kessel.game.unit_type` was nil in the middle of the test
            if !types.is_empty() && !types.contains(&unit.kind) {
                return Err(mlua::Error::runtime(format!(
                    "kessel.setup: unit `{id}`: unknown unit type `{}` (the ruleset has: {}){}",
                    unit.kind,
                    types.join(", "),
                    crate::names::did_you_mean(&unit.kind, &types)
                )));
            }
            if !unit.faces.is_empty() && unit.step as usize >= unit.faces.len() {
                return Err(mlua::Error::runtime(format!(
                    "kessel.setup: unit `{id}`: step {} but {} face(s) (steps count from 0)",
                    unit.step,
                    unit.faces.len()
                )));
            }
            let hidden_from = hidden_at_start(
                u.get::<mlua::Value>("hidden_from")?,
                &state.sides,
                Some(unit.side.as_str()),
                &format!("unit `{id}`"),
            )?;
            if !state.add_unit(unit) {
                return Err(mlua::Error::runtime(format!(
                    "kessel.setup: unit id `{id}` used twice"
                )));
            }
            for s in &hidden_from {
                state.secrets.set_hidden(&id, s, true);
            }
        }
    }
    if let Some(pools) = spec.get::<Option<Table>>("pools")? {
        for pair in pools.pairs::<String, super::List<String>>() {
            let (id, super::List(faces)) = pair?;
            state.pools.insert(
                id,
                faces
                    .iter()
                    .map(|f| face_of(f))
                    .collect::<mlua::Result<_>>()?,
            );
        }
    }
    if let Some(markers) = spec.get::<Option<Table>>("markers")? {
        for m in markers.sequence_values::<Table>() {
            let m = m?;
            super::strict_keys(&m, "kessel.setup: marker", MARKER_FIELDS)?;
            let count: u32 = m.get::<Option<u32>>("count")?.unwrap_or(1);
            if state.markers.len() as u64 + count as u64 > crate::scenario::MAX_MARKERS as u64 {
                return Err(mlua::Error::runtime(format!(
                    "kessel.setup: more than {} markers",
                    crate::scenario::MAX_MARKERS
                )));
            }
            let (kind, side): (String, Option<String>) = (m.get("kind")?, m.get("side")?);
            if let Some(sd) = side.as_ref().filter(|sd| !state.sides.contains(sd)) {
                return Err(mlua::Error::runtime(format!(
                    "kessel.setup: marker `{kind}`: side `{sd}` is not a side of the ruleset ({})",
                    state.sides.join(", ")
                )));
            }
            let hex =
                match m.get::<Option<String>>("at")? {
                    Some(l) => Some(map.parse(&l).ok_or_else(|| {
                        mlua::Error::runtime(format!("marker at `{l}`: not a hex"))
                    })?),
                    None => None,
                };
            let other = match m.get::<Option<String>>("other")? {
                None => None,
                Some(l) => {
                    let o = map.parse(&l).filter(|o| map.contains(*o));
                    match (hex, o) {
                        (Some(h), Some(o)) if h.distance_to(o) == 1 => Some(o),
                        _ => {
                            return Err(mlua::Error::runtime(format!(
                                "kessel.setup: marker `{kind}`: `other` ({l}) must be a hex adjacent to `at`"
                            )))
                        }
                    }
                }
            };
            let value = match m.get::<mlua::Value>("value")? {
                mlua::Value::Nil => None,
                v => Some(super::plain::from_lua(
                    lua,
                    &v,
                    &format!("kessel.setup: marker `{kind}`: the value"),
                    1 << 16,
                )?),
            };
            let hidden_from = hidden_at_start(
                m.get::<mlua::Value>("hidden_from")?,
                &state.sides,
                side.as_deref(),
                &format!("marker `{kind}`"),
            )?;
            for _ in 0..count {
                let id = state.markers.len() as u32;
                for s in &hidden_from {
                    state.secrets.set_marker_hidden(id, s, true);
                }
                state.markers.push(Marker {
                    id,
                    kind: kind.clone(),
                    side: side.clone(),
                    hex,
                    other,
                    value: value.clone(),
                });
            }
        }
    }
    if let Some(vars) = spec.get::<Option<Table>>("vars")? {
        for pair in vars.pairs::<String, mlua::Value>() {
            let (k, v) = pair?;
            let what = format!("kessel.setup: var `{k}`");
            state
                .vars
                .insert(k, super::bounded_from_value(lua, v, &what, 1 << 20)?);
        }
    }
    // a set-up on a map of its own keeps the objectives in force only while that map holds
    // every hex of them (a stand-in of the game's map, as a test draws one); else it has those
    // it gives, none unless it gives some: objectives off the map were read as valid ones
    let own_map = spec.contains_key("map")?;
    let objectives = objectives_of(lua, &spec, &map, &state.sides)?.or_else(|| {
        let w = world.borrow();
        let off_map = |o: &crate::scenario::Objective| o.hexes.iter().any(|h| !map.contains(*h));
        (own_map && w.objectives().iter().any(off_map)).then(Vec::new)
    });
    let levels = levels_of(lua, &spec)?;
    let mut options = Vec::new();
    if let Some(opts) = spec.get::<Option<Table>>("options")? {
        for pair in opts.pairs::<String, mlua::Value>() {
            let (k, v) = pair?;
            let v: Value = super::bounded_from_value(lua, v, "kessel.setup: an option", 1 << 20)?;
            options.push((k, v));
        }
    }
    crate::script::charge(
        lua,
        map.len() as u64 + 64 * state.units.len() as u64 + 8 * state.markers.len() as u64,
    )?;
    let run_start = super::bool_field(&spec, "run_step_start", "kessel.setup")? == Some(true);
    let mut w = world.borrow_mut();
    // each set-up starts from the base options (the profile in force), not the previous set-up's;
    // every option is checked before anything is replaced, so a refused one changes nothing
    let mut values = match &w.base {
        Some((_, base)) => base.clone(),
        None => w.options.clone(),
    };
    for (k, v) in options {
        let decl = w
            .ruleset
            .options
            .iter()
            .find(|d| d.id == k)
            .ok_or_else(|| mlua::Error::runtime(format!("kessel.setup: unknown option `{k}`")))?;
        decl.check(&v).map_err(mlua::Error::runtime)?;
        values.values.insert(k, v);
    }
    // judged as a game's options are: two variants of one table in force, neither for both
    if let Some(conflict) = w.ruleset.variant_conflicts(&values).into_iter().next() {
        return Err(mlua::Error::runtime(format!(
            "kessel.setup: options: {conflict}"
        )));
    }
    // what a failing `step_start` gives back (a test's `pcall(kessel.setup, …)` went on in a
    // position half set: the new units with the old game's log)
    let before = run_start.then(|| Before {
        state: w.state.clone(),
        initial: w.initial.clone(),
        dice: w.dice.clone(),
        options: w.options.clone(),
        log: w.log.clone(),
        pending: w.pending.clone(),
        victory: w.setup_victory.clone(),
    });
    w.options = values;
    // omitted, a set-up keeps the objectives (as above) and levels in force
    if let Some(o) = objectives {
        w.setup_victory.objectives = Some(Arc::new(o));
    }
    if let Some(l) = levels {
        w.setup_victory.levels = Some(Arc::new(l));
    }
    w.dice = crate::dice::Dice::new(seed);
    w.state = state.clone();
    w.state_replaced();
    w.initial = state;
    w.log.clear();
    w.reloaded_at.clear();
    w.option_changes.clear();
    w.options_at_start = None;
    w.pending.clear();
    drop(w);
    if let Some(before) = before {
        if let Err(e) = run_step_start(lua, world) {
            let mut w = world.borrow_mut();
            w.state = before.state;
            w.state_replaced();
            w.initial = before.initial;
            w.dice = before.dice;
            w.options = before.options;
            w.log = before.log;
            w.pending = before.pending;
            w.setup_victory = before.victory;
            return Err(e);
        }
    }
    Ok(())
}

/// The game a set-up replaces, kept while its `step_start` hooks run.
struct Before {
    state: GameState,
    initial: GameState,
    dice: crate::dice::Dice,
    options: crate::options::Options,
    log: Vec<crate::event::LogEntry>,
    pending: Vec<crate::event::Event>,
    victory: crate::world::SetupVictory,
}

/// Runs the `step_start` hooks of the step a set-up put the game in, as if the sequencer had just
/// entered it (`kessel.setup{ run_step_start = true }`); what they emit becomes part of the
/// initial position, as the `setup` hooks' events do when a scenario loads.
fn run_step_start(lua: &Lua, world: &Shared) -> mlua::Result<()> {
    let phase = world.borrow().state.phase;
    let guard = crate::world::StageGuard::enter(world, Stage::Apply);
    let out = super::call_hooks(lua, "step_start", lua.to_value(&phase)?);
    drop(guard);
    out?;
    let mut w = world.borrow_mut();
    w.initial = w.state.clone();
    w.pending.clear();
    Ok(())
}
