//! `kessel.emit.create_unit/change_unit` (units made and changed in play) and
//! `kessel.emit.terrain/hexside/tag` (the map changed in play): each call one event carrying the
//! whole new value, so a replay needs no rules.
//!
//! Faces here are attack-defence-movement strings (`"4-2-6"`) or named values per step
//! (`{ firepower = 4, range = 4, morale = 7 }`); a unit type that declares `face_fields` reads its
//! string faces with those names (`"4-4-7"` → firepower 4, range 4, morale 7).

use super::emit::{bounded, emit, named, MAX_NAME};
use super::{hex_of, plain};
use crate::event::Event;
use crate::state::{Face, Location, NamedFace, Unit, Value};
use crate::world::{Shared, World};
use mlua::{Lua, Table};
use std::collections::{BTreeMap, BTreeSet};

/// The most steps (faces) a unit may have.
pub(crate) const MAX_STEPS: usize = 64;
/// The largest named face, as JSON.
const MAX_FACE: usize = 4096;
/// The most units a game may hold (set-up and created in play).
pub(crate) const MAX_UNITS: usize = 100_000;
/// The most flags or attributes one created unit may carry.
const MAX_ENTRIES: usize = 256;
/// The most distinct tags or terrain names play may add to a map.
const MAX_KINDS: usize = 1024;
/// The largest value of all of a created unit's variables, as JSON.
const MAX_VARS: usize = 1 << 20;

/// The field names a unit type declares for its string faces (`face_fields = { ... }`).
pub(crate) fn face_fields(w: &World, kind: &str) -> Option<Vec<String>> {
    let fields = w
        .ruleset
        .unit_types
        .get(kind)?
        .get("face_fields")?
        .as_array()?;
    Some(
        fields
            .iter()
            .filter_map(|f| f.as_str().map(str::to_string))
            .collect(),
    )
}

/// Reads a list of faces: A-D-M faces when every entry is an A-D-M string and the type declares
/// no `face_fields`, named faces otherwise.
pub(crate) fn faces_of(
    lua: &Lua,
    fields: Option<&[String]>,
    v: mlua::Value,
    what: &str,
) -> mlua::Result<(Vec<Face>, Vec<NamedFace>)> {
    let list = match v {
        mlua::Value::Nil => return Ok((Vec::new(), Vec::new())),
        mlua::Value::Table(t) => t,
        other => {
            return Err(mlua::Error::runtime(format!(
                "{what}: faces must be a list, not {}",
                super::a_type(&other)
            )))
        }
    };
    let n = list.raw_len();
    if n > MAX_STEPS {
        return Err(mlua::Error::runtime(format!(
            "{what}: {n} faces is over the limit ({MAX_STEPS})"
        )));
    }
    let items: Vec<mlua::Value> = (1..=n)
        .map(|i| list.raw_get(i))
        .collect::<mlua::Result<_>>()?;
    if fields.is_none() && items.iter().all(|i| matches!(i, mlua::Value::String(_))) {
        let faces = items
            .iter()
            .map(|i| {
                let s = i.to_string()?;
                bounded(&s, &format!("{what}: a face"), MAX_NAME)?;
                Face::parse(&s).ok_or_else(|| {
                    mlua::Error::runtime(format!("{what}: `{s}` is not a face (A-D-M)"))
                })
            })
            .collect::<mlua::Result<_>>()?;
        return Ok((faces, Vec::new()));
    }
    let adm = ["attack", "defence", "movement"].map(String::from);
    let names: &[String] = fields.unwrap_or(&adm);
    let mut named = Vec::new();
    for item in &items {
        let face = match item {
            mlua::Value::String(s) => {
                let s = s.to_str()?.to_string();
                bounded(&s, &format!("{what}: a face"), MAX_NAME)?;
                crate::state::named_face_from_text(&s, names).ok_or_else(|| {
                    mlua::Error::runtime(format!(
                        "{what}: `{s}` is not a face ({})",
                        names.join("-")
                    ))
                })?
            }
            mlua::Value::Table(_) => {
                match plain::from_lua(lua, item, &format!("{what}: a face"), MAX_FACE)? {
                    Value::Object(m) if !m.is_empty() => m.into_iter().collect(),
                    _ => {
                        return Err(mlua::Error::runtime(format!(
                            "{what}: a face table needs named values ({{ name = value, … }})"
                        )))
                    }
                }
            }
            other => {
                return Err(mlua::Error::runtime(format!(
                    "{what}: a face is a string or a table, not {}",
                    super::a_type(other)
                )))
            }
        };
        named.push(face);
    }
    Ok((Vec::new(), named))
}

/// Refuses a unit type or side the ruleset does not know.
fn check_kind_and_side(w: &World, kind: &str, side: &str, what: &str) -> mlua::Result<()> {
    if !w.ruleset.unit_types.is_empty() && !w.ruleset.unit_types.contains_key(kind) {
        let known: Vec<&str> = w.ruleset.unit_types.keys().map(String::as_str).collect();
        return Err(mlua::Error::runtime(format!(
            "{what}: unknown unit type `{kind}`{}",
            crate::names::did_you_mean(kind, &known)
        )));
    }
    // worded as every other refusal of a side (`kessel.emit.var`'s `secret_to`, …)
    super::emit::known_side(&w.state.sides, side, what)
}

/// Reads the fields a script may give for a unit onto `u` (those absent keep their value).
fn read_fields(lua: &Lua, world: &Shared, t: &Table, u: &mut Unit, what: &str) -> mlua::Result<()> {
    const FIELDS: &[&str] = &[
        "id",
        "name",
        "side",
        "type",
        "formation",
        "faces",
        "step",
        "at",
        "location",
        "attrs",
        "flags",
        "vars",
    ];
    super::strict_keys(t, what, FIELDS)?;
    let text = |key: &str| -> mlua::Result<Option<String>> {
        let v: Option<String> = t.get(key)?;
        if let Some(s) = &v {
            bounded(s, &format!("{what}: the {key}"), MAX_NAME)?;
        }
        Ok(v)
    };
    if let Some(v) = text("name")? {
        u.name = v;
    }
    if let Some(v) = text("side")? {
        u.side = v;
    }
    if let Some(v) = text("type")? {
        u.kind = v;
    }
    if let Some(v) = text("formation")? {
        u.formation = Some(v);
    }
    {
        let w = world.borrow();
        check_kind_and_side(&w, &u.kind, &u.side, what)?;
    }
    let faces: mlua::Value = t.get("faces")?;
    if !faces.is_nil() {
        let fields = face_fields(&world.borrow(), &u.kind);
        let (adm, named) = faces_of(lua, fields.as_deref(), faces, what)?;
        if adm.is_empty() && named.is_empty() {
            return Err(mlua::Error::runtime(format!("{what}: a unit needs faces")));
        }
        u.faces = adm;
        u.named = named;
        u.hidden = false;
    }
    if let Some(step) = t.get::<Option<u32>>("step")? {
        u.step = step;
    }
    if u.step as usize >= u.step_count().max(1) {
        return Err(mlua::Error::runtime(format!(
            "{what}: step {} but the unit has {} faces",
            u.step,
            u.step_count()
        )));
    }
    if let Some(at) = t.get::<Option<String>>("at")? {
        u.location = Location::Map(hex_of(world, &at)?);
    } else if let Some(l) = text("location")? {
        u.location = match l.as_str() {
            "pending" => Location::Pending,
            "eliminated" => Location::Eliminated,
            "removed" => Location::Removed,
            _ => {
                return Err(mlua::Error::runtime(format!(
                    "{what}: location `{l}` is not pending, eliminated or removed (give `at` for a hex)"
                )))
            }
        };
    }
    if let Some(attrs) = t.get::<Option<BTreeMap<String, i64>>>("attrs")? {
        if attrs.len() > MAX_ENTRIES {
            return Err(mlua::Error::runtime(format!(
                "{what}: more than {MAX_ENTRIES} attributes"
            )));
        }
        for k in attrs.keys() {
            named(k, &format!("{what}: an attribute name"))?;
        }
        u.attrs = attrs;
    }
    if let Some(super::List(flags)) = t.get::<Option<super::List<String>>>("flags")? {
        if flags.len() > MAX_ENTRIES {
            return Err(mlua::Error::runtime(format!(
                "{what}: more than {MAX_ENTRIES} flags"
            )));
        }
        for f in &flags {
            named(f, &format!("{what}: a flag"))?;
        }
        u.flags = flags.into_iter().collect::<BTreeSet<_>>();
    }
    let vars: mlua::Value = t.get("vars")?;
    if !vars.is_nil() {
        match plain::from_lua(lua, &vars, &format!("{what}: the vars"), MAX_VARS)? {
            Value::Object(m) => u.vars = m.into_iter().collect(),
            _ => {
                return Err(mlua::Error::runtime(format!(
                    "{what}: vars is a table keyed by name"
                )))
            }
        }
    }
    Ok(())
}

/// An id for a created unit that gave none: `<type>.<n>`, the first free n from the unit count
/// (deterministic: the same game gives the same ids), and how many ids were tried.
fn derived_id(w: &World, kind: &str) -> (String, u64) {
    let mut n = w.state.units.len() + 1;
    let mut tried = 1;
    loop {
        let id = format!("{kind}.{n}");
        if w.state.unit(&id).is_none() {
            return (id, tried);
        }
        n += 1;
        tried += 1;
    }
}

/// Budget units a derived id pays for each id it tried: ids a mod gave its units by hand can
/// make every derivation walk past thousands of them, work the instruction count did not see
/// (only the wall clock stopped such a loop, at a point that depends on the machine).
const DERIVED_ID_TRY_CHARGE: u64 = 64;

pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    let e: Table = kessel.get("emit")?;

    let w = world.clone();
    e.set(
        "create_unit",
        super::function(lua, move |lua, t: Table| {
            const WHAT: &str = "kessel.emit.create_unit";
            if w.borrow().state.units.len() >= MAX_UNITS {
                return Err(mlua::Error::runtime(format!(
                    "{WHAT}: the game already holds {MAX_UNITS} units, the limit"
                )));
            }
            let side: String = t
                .get::<Option<String>>("side")?
                .ok_or_else(|| mlua::Error::runtime(format!("{WHAT}: needs a side")))?;
            let kind: String = t
                .get::<Option<String>>("type")?
                .ok_or_else(|| mlua::Error::runtime(format!("{WHAT}: needs a type")))?;
            if t.get::<mlua::Value>("faces")?.is_nil() {
                return Err(mlua::Error::runtime(format!("{WHAT}: a unit needs faces")));
            }
            let id = match t.get::<Option<String>>("id")? {
                Some(id) => {
                    // the one rule for unit ids, as a scenario's units and `kessel.setup` hold
                    // (checked before the id is named in any message)
                    if let Some(why) = crate::names::unit_id_problem(&id) {
                        return Err(mlua::Error::runtime(format!("{WHAT}: {why}")));
                    }
                    if w.borrow().state.unit(&id).is_some() {
                        return Err(mlua::Error::runtime(format!(
                            "{WHAT}: unit id `{id}` is taken"
                        )));
                    }
                    id
                }
                None => {
                    bounded(&kind, &format!("{WHAT}: the type"), MAX_NAME)?;
                    let (id, tried) = derived_id(&w.borrow(), &kind);
                    crate::script::charge(lua, tried.saturating_mul(DERIVED_ID_TRY_CHARGE))?;
                    // (made from the type, which may hold what an id may not)
                    if let Some(why) = crate::names::unit_id_problem(&id) {
                        return Err(mlua::Error::runtime(format!("{WHAT}: {why}")));
                    }
                    id
                }
            };
            let mut unit = Unit::new(&id, &side, &kind);
            read_fields(lua, &w, &t, &mut unit, WHAT)?;
            emit(
                lua,
                &w,
                Event::UnitCreated {
                    unit: Box::new(unit),
                },
            )?;
            Ok(id)
        })?,
    )?;

    let w = world.clone();
    e.set(
        "change_unit",
        super::function(lua, move |lua, (id, t): (String, Table)| {
            let what = "kessel.emit.change_unit";
            let mut unit = w
                .borrow()
                .state
                .unit(&id)
                .cloned()
                .ok_or_else(|| mlua::Error::runtime(format!("{what}: unknown unit `{id}`")))?;
            if let Some(other) = t.get::<Option<String>>("id")? {
                if other != id {
                    return Err(mlua::Error::runtime(format!(
                        "{what}: a unit's id does not change (`{id}` → `{other}`); create a new unit"
                    )));
                }
            }
            read_fields(lua, &w, &t, &mut unit, what)?;
            emit(lua, &w,
                Event::UnitChanged {
                    unit: Box::new(unit),
                },
            )
        })?,
    )?;

    let w = world.clone();
    e.set(
        "terrain",
        super::function(lua, move |lua, (h, terrain): (String, String)| {
            let what = "kessel.emit.terrain";
            let hex = hex_of(&w, &h)?;
            named(&terrain, &format!("{what}: the terrain"))?;
            {
                let wb = w.borrow();
                let declared = &wb.ruleset.terrains;
                if !declared.is_empty() && !declared.iter().any(|k| k.id == terrain) {
                    return Err(mlua::Error::runtime(format!(
                        "{what}: terrain `{terrain}` is not declared by the ruleset"
                    )));
                }
                let names = wb.state.map.terrains.names();
                if names.len() >= MAX_KINDS && !names.contains(&terrain) {
                    return Err(mlua::Error::runtime(format!(
                        "{what}: the map already has {MAX_KINDS} terrain names, the limit"
                    )));
                }
            }
            emit(lua, &w, Event::TerrainSet { hex, terrain })
        })?,
    )?;

    let w = world.clone();
    e.set(
        "hexside",
        super::function(
            lua,
            move |lua, (a, b, kind, on): (String, String, String, Option<super::Bool>)| {
                let on = on.map(|b| b.0);
                let what = "kessel.emit.hexside";
                let (hex, other) = (hex_of(&w, &a)?, hex_of(&w, &b)?);
                if crate::hex::Hexside::between(hex, other).is_none() {
                    return Err(mlua::Error::runtime(format!(
                        "{what}: {a} and {b} are not adjacent"
                    )));
                }
                named(&kind, &format!("{what}: the kind"))?;
                {
                    // (the borrow ends here: the emit below borrows the world to change it)
                    let wb = w.borrow();
                    let declared = &wb.ruleset.hexside_kinds;
                    if !declared.is_empty() && !declared.iter().any(|k| k.id == kind) {
                        return Err(mlua::Error::runtime(format!(
                            "{what}: hexside kind `{kind}` is not declared by the ruleset"
                        )));
                    }
                }
                emit(
                    lua,
                    &w,
                    Event::HexsideSet {
                        hex,
                        other,
                        kind,
                        on: on.unwrap_or(true),
                    },
                )
            },
        )?,
    )?;

    let w = world.clone();
    e.set(
        "tag",
        super::function(
            lua,
            move |lua, (h, tag, on): (String, String, Option<super::Bool>)| {
                let on = on.map(|b| b.0);
                let what = "kessel.emit.tag";
                let hex = hex_of(&w, &h)?;
                named(&tag, &format!("{what}: the tag"))?;
                {
                    let wb = w.borrow();
                    let tags = &wb.state.map.tags;
                    if tags.len() >= MAX_KINDS && !tags.contains_key(&tag) {
                        return Err(mlua::Error::runtime(format!(
                            "{what}: the map already has {MAX_KINDS} tags, the limit"
                        )));
                    }
                }
                emit(
                    lua,
                    &w,
                    Event::HexTagged {
                        hex,
                        tag,
                        on: on.unwrap_or(true),
                    },
                )
            },
        )?,
    )?;
    Ok(())
}
