//! Read-only views: `kessel.map`, `kessel.units`, `kessel.markers`, `kessel.game`,
//! `kessel.scenario`. Units and markers come back as fresh tables (snapshots): changing one changes
//! nothing in the game; only events do.

use super::strings::{intern, intern_opt, keyed_table};
use super::{hex_in, label_list, set_read, value_or_nil};
use crate::hex::Hexside;
use crate::state::{Location, Marker, Unit};
use crate::world::{Shared, World};
use mlua::{Lua, Table};

/// Builds a unit snapshot from its fields in one call (see `strings.rs` for why one call).
const UNIT_CONSTRUCTOR: &str = r#"
return function(id, name, side, type, formation, hidden, pool, step, steps_left, steps,
                attack, defence, movement, location, hex, enter_turn, enter_area, setup_area,
                flags, attrs, vars, face)
  return { id = id, name = name, side = side, type = type, formation = formation,
    hidden = hidden, pool = pool, step = step, steps_left = steps_left, steps = steps,
    attack = attack, defence = defence, movement = movement, face = face,
    location = location, hex = hex,
    enter_turn = enter_turn, enter_area = enter_area, setup_area = setup_area,
    flags = flags or {}, attrs = attrs or {}, vars = vars or {} }
end
"#;

/// The unit constructor of this Lua state, compiled on first use and kept in its app data.
struct UnitConstructor(mlua::Function);

fn unit_constructor(lua: &Lua) -> mlua::Result<mlua::Function> {
    if let Some(c) = lua.app_data_ref::<UnitConstructor>() {
        return Ok(c.0.clone());
    }
    let f: mlua::Function = lua
        .load(UNIT_CONSTRUCTOR)
        .set_name("=kessel unit snapshot")
        .set_mode(mlua::chunk::ChunkMode::Text)
        .call(())?;
    lua.set_app_data(UnitConstructor(f.clone()));
    Ok(f)
}

/// A unit as a Lua table.
pub(super) fn unit_table(lua: &Lua, w: &World, u: &Unit) -> mlua::Result<Table> {
    use mlua::Value as V;
    let s = |x: &str| intern(lua, x).map(V::String);
    let opt = |x: Option<&str>| intern_opt(lua, x);
    let int = |x: i64| V::Integer(x);
    let (attack, defence, movement) = match u.face() {
        Some(f) => (
            int(f.attack.into()),
            int(f.defence.into()),
            int(f.movement.into()),
        ),
        // what everyone can see of a face-down counter: its movement allowance is printed on the back
        None if u.hidden => (
            V::Nil,
            V::Nil,
            u.faces.first().map_or(V::Nil, |f| int(f.movement.into())),
        ),
        None => (V::Nil, V::Nil, V::Nil),
    };
    let (location, hex) = match u.location {
        Location::Map(h) => (
            "map",
            V::String(super::strings::label(lua, &w.state.map, h)?),
        ),
        Location::Pending => ("pending", V::Nil),
        Location::Eliminated => ("eliminated", V::Nil),
        Location::Removed => ("removed", V::Nil),
    };
    let (enter_turn, enter_area) = match &u.entry {
        Some(e) => (int(e.turn.into()), s(&e.area)?),
        None => (V::Nil, V::Nil),
    };
    let flags = keyed_table(lua, u.flags.iter().map(|f| (f.as_str(), true)))?;
    let attrs = keyed_table(lua, u.attrs.iter().map(|(k, v)| (k.as_str(), *v)))?;
    let vars = if u.vars.is_empty() {
        V::Nil
    } else {
        let values = u
            .vars
            .iter()
            .map(|(k, v)| Ok((k.as_str(), super::plain::to_lua(lua, v)?)))
            .collect::<mlua::Result<Vec<_>>>()?;
        keyed_table(lua, values.into_iter())?
    };
    let face = match u.named_face() {
        Some(f) => {
            let values = f
                .iter()
                .map(|(k, v)| Ok((k.as_str(), super::plain::to_lua(lua, v)?)))
                .collect::<mlua::Result<Vec<_>>>()?;
            keyed_table(lua, values.into_iter())?
        }
        None => V::Nil,
    };
    let args = mlua::MultiValue::from_iter([
        s(&u.id)?,
        s(&u.name)?,
        s(&u.side)?,
        s(&u.kind)?,
        opt(u.formation.as_deref())?,
        V::Boolean(u.hidden),
        opt(u.pool.as_deref())?,
        int(u.step.into()),
        int(u.steps_left().into()),
        int(u.step_count().max(1) as i64),
        attack,
        defence,
        movement,
        s(location)?,
        hex,
        enter_turn,
        enter_area,
        opt(u.setup_area.as_deref())?,
        flags,
        attrs,
        vars,
        face,
    ]);
    unit_constructor(lua)?.call(args)
}

pub(super) fn marker_table(lua: &Lua, w: &World, m: &Marker) -> mlua::Result<Table> {
    use mlua::Value as V;
    let map = &w.state.map;
    let label = |h: crate::hex::Hex| map.label(h);
    let mut pairs = vec![
        V::String(intern(lua, "id")?),
        V::Integer(m.id.into()),
        V::String(intern(lua, "kind")?),
        V::String(intern(lua, &m.kind)?),
        V::String(intern(lua, "side")?),
        intern_opt(lua, m.side.as_deref())?,
        V::String(intern(lua, "hex")?),
        intern_opt(lua, m.hex.map(label).as_deref())?,
    ];
    if let Some(o) = m.other {
        pairs.push(V::String(intern(lua, "other")?));
        pairs.push(V::String(intern(lua, &label(o))?));
    }
    if let Some(v) = &m.value {
        pairs.push(V::String(intern(lua, "value")?));
        pairs.push(super::plain::to_lua(lua, v)?);
    }
    super::strings::fill(lua, lua.create_table()?, pairs)
}

/// A `kessel.units.all{...}` filter, read from its Lua table once per call (not once per unit);
/// also the key under which the answer is kept for the revision.
#[derive(Default, Clone, PartialEq, Eq, Hash)]
pub(super) struct UnitFilter {
    side: Option<String>,
    kind: Option<String>,
    formation: Option<String>,
    location: Option<String>,
    flag: Option<String>,
}

/// The fields a unit filter has.
const UNIT_FILTER_FIELDS: [&str; 5] = ["side", "type", "formation", "location", "flag"];

/// The values a unit filter's `location` takes.
const UNIT_LOCATIONS: [&str; 4] = ["map", "pending", "eliminated", "removed"];

impl UnitFilter {
    /// The side the filter asks for, if any.
    pub(super) fn side(&self) -> Option<&str> {
        self.side.as_deref()
    }

    /// The bytes of text the filter holds.
    pub(super) fn text_len(&self) -> usize {
        [
            &self.side,
            &self.kind,
            &self.formation,
            &self.location,
            &self.flag,
        ]
        .iter()
        .map(|f| f.as_ref().map_or(0, String::len))
        .sum()
    }

    /// Reads the filter in one pass over its fields. A field it does not have is an error with a
    /// did-you-mean: a misspelt `sied = "red"` would otherwise match every unit.
    pub(super) fn read(filter: &Option<Table>) -> mlua::Result<UnitFilter> {
        let mut out = UnitFilter::default();
        let Some(f) = filter else {
            return Ok(out);
        };
        // one protected call for the whole walk (see `strict_keys`); the callback runs no Lua
        f.for_each::<mlua::Value, mlua::Value>(|k, v| {
            let name = match &k {
                mlua::Value::String(s) => s.to_string_lossy(),
                other => format!("[{}]", super::describe_value(other)),
            };
            let slot = match name.as_str() {
                "side" => &mut out.side,
                "type" => &mut out.kind,
                "formation" => &mut out.formation,
                "location" => &mut out.location,
                "flag" => &mut out.flag,
                _ => {
                    return Err(mlua::Error::runtime(format!(
                        "kessel.units.all: unknown filter field `{name}`{}; the fields are {}",
                        crate::names::did_you_mean(&name, &UNIT_FILTER_FIELDS),
                        UNIT_FILTER_FIELDS.join(", ")
                    )))
                }
            };
            *slot = match v {
                mlua::Value::String(s) => {
                    super::reads::long_filter(s.as_bytes().len())?;
                    Some(s.to_str()?.to_string())
                }
                mlua::Value::Integer(i) => Some(i.to_string()),
                other => {
                    return Err(mlua::Error::runtime(format!(
                        "kessel.units.all: filter field `{name}` is a string, not {}",
                        super::describe_value(&other)
                    )))
                }
            };
            Ok(())
        })?;
        // a misspelt location (`eliminted`) matched no unit, so a count of losses read 0 unseen
        if let Some(l) = &out.location {
            if !UNIT_LOCATIONS.contains(&l.as_str()) {
                return Err(mlua::Error::runtime(format!(
                    "kessel.units.all: `{l}` is no location{} (locations: {})",
                    crate::names::did_you_mean(l, &UNIT_LOCATIONS),
                    UNIT_LOCATIONS.join(", ")
                )));
            }
        }
        Ok(out)
    }

    pub(super) fn matches(&self, u: &Unit) -> bool {
        let location = match u.location {
            Location::Map(_) => "map",
            Location::Pending => "pending",
            Location::Eliminated => "eliminated",
            Location::Removed => "removed",
        };
        self.side.as_ref().is_none_or(|s| &u.side == s)
            && self.kind.as_ref().is_none_or(|k| &u.kind == k)
            && self
                .formation
                .as_ref()
                .is_none_or(|f| u.formation.as_deref() == Some(f.as_str()))
            && self.location.as_ref().is_none_or(|l| l == location)
            && self.flag.as_ref().is_none_or(|f| u.flags.contains(f))
    }
}

pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    // ---- kessel.map
    let m = lua.create_table()?;
    set_read(lua, &m, world, "terrain", |_, w, h: String| {
        let hex = hex_in(w, &h)?;
        Ok(w.state.map.terrain_name(hex).map(str::to_string))
    })?;
    set_read(lua, &m, world, "sides", |_, w, (a, b): (String, String)| {
        let side = Hexside::between(hex_in(w, &a)?, hex_in(w, &b)?)
            .ok_or_else(|| mlua::Error::runtime(format!("{a} and {b} are not adjacent")))?;
        let kinds = w.state.map.side_kind_names(side);
        Ok(kinds.into_iter().map(str::to_string).collect::<Vec<_>>())
    })?;
    set_read(
        lua,
        &m,
        world,
        "has_side",
        |_, w, (a, b, kind): (String, String, String)| {
            let side = Hexside::between(hex_in(w, &a)?, hex_in(w, &b)?);
            Ok(side.is_some_and(|s| w.state.map.side_has(s, &kind)))
        },
    )?;
    set_read(
        lua,
        &m,
        world,
        "has_link",
        |_, w, (h, kind): (String, String)| Ok(w.state.map.hex_has_link(hex_in(w, &h)?, &kind)),
    )?;
    set_read(lua, &m, world, "place", |lua, w, h: String| {
        match w.state.map.place_at(hex_in(w, &h)?) {
            None => Ok(None),
            Some(p) => place_table(lua, w, p).map(Some),
        }
    })?;
    set_read(lua, &m, world, "places", |lua, w, ()| {
        let out = lua.create_table()?;
        for p in &w.state.map.places {
            out.push(place_table(lua, w, p)?)?;
        }
        Ok(out)
    })?;
    set_read(lua, &m, world, "area", |_, w, id: String| {
        let map = &w.state.map;
        Ok(map.areas.get(&id).map(|a| label_list(map, &a.hexes)))
    })?;
    set_read(lua, &m, world, "tagged", |_, w, tag: String| {
        let map = &w.state.map;
        Ok(label_list(map, map.tagged(&tag)))
    })?;
    set_read(lua, &m, world, "tags", |_, w, h: String| {
        let tags = w.state.map.tags_of(hex_in(w, &h)?);
        Ok(tags.into_iter().map(str::to_string).collect::<Vec<_>>())
    })?;
    set_read(
        lua,
        &m,
        world,
        "on_edge",
        |_, w, (h, edge): (String, String)| {
            // a misspelt edge (`nort`) was on no hex: false for every hex, without a word
            if !matches!(edge.as_str(), "north" | "south" | "east" | "west") {
                return Err(mlua::Error::runtime(format!(
                    "kessel.map.on_edge: `{}` is no edge (north, south, east, west)",
                    crate::error::printable_name(&edge)
                )));
            }
            Ok(w.state.map.on_edge(hex_in(w, &h)?, &edge))
        },
    )?;
    set_read(lua, &m, world, "hexes", |lua, w, ()| {
        let map = &w.state.map;
        crate::script::charge(lua, 4 * map.len() as u64)?;
        Ok(map.hexes().map(|h| map.label(h)).collect::<Vec<_>>())
    })?;
    set_read(lua, &m, world, "column", |_, w, h: String| {
        let map = &w.state.map;
        Ok(map.offset(hex_in(w, &h)?).0 + map.numbering().first_column)
    })?;
    set_read(lua, &m, world, "row", |_, w, h: String| {
        let map = &w.state.map;
        Ok(map.offset(hex_in(w, &h)?).1 + map.numbering().first_row)
    })?;
    set_read(lua, &m, world, "size", |_, w, ()| {
        Ok((w.state.map.columns(), w.state.map.rows()))
    })?;
    kessel.set("map", m)?;

    // ---- kessel.units
    // get, at, all and occupied are the kept reads (reads.rs)
    let u = lua.create_table()?;
    set_read(lua, &u, world, "changed_since", |_, w, revision: u64| {
        Ok(w.unit_changes.since(revision, &w.state))
    })?;
    kessel.set("units", u)?;

    // ---- kessel.markers: all and at are the kept reads (reads.rs)
    let mk = lua.create_table()?;
    kessel.set("markers", mk)?;

    // ---- kessel.game
    let g = lua.create_table()?;
    set_read(lua, &g, world, "turn", |_, w, ()| Ok(w.state.turn))?;
    // a number that changes whenever the game or its options change, so rules may cache
    // derived data (zones of control, supply) and know when it went stale
    set_read(lua, &g, world, "revision", |_, w, ()| Ok(w.revision))?;
    set_read(lua, &g, world, "last_turn", |_, w, ()| {
        Ok(w.state.last_turn)
    })?;
    // the turn the game began on: the scenario's `first_turn`, or a `kessel.setup`'s `turn`
    // (a scenario starting later in the calendar does once what the rules do on "turn 1")
    set_read(lua, &g, world, "first_turn", |_, w, ()| Ok(w.initial.turn))?;
    set_read(lua, &g, world, "finished", |_, w, ()| Ok(w.state.finished))?;
    // why this game is its campaign's last (`kessel.emit.end_campaign`), or nil
    set_read(lua, &g, world, "campaign_ended", |lua, w, ()| {
        let Some(end) = &w.state.campaign_ended else {
            return Ok(mlua::Value::Nil);
        };
        let t = lua.create_table()?;
        t.set("rule", end.rule.clone())?;
        t.set("message", end.message.clone())?;
        Ok(mlua::Value::Table(t))
    })?;
    set_read(lua, &g, world, "profile", |_, w, ()| {
        // `Options::defaults` names itself "defaults": no profile was applied
        let name = &w.options.profile;
        Ok((!name.is_empty() && name != "defaults").then(|| name.clone()))
    })?;
    set_read(lua, &g, world, "var", |lua, w, key: String| {
        match w.state.vars.get(&key) {
            Some(v) => super::plain::to_lua(lua, v),
            None => Ok(mlua::Value::Nil),
        }
    })?;
    // the names of the game variables set now (those starting with `prefix`), sorted: a rule that
    // keeps one variable per hex or unit (`attacked.0304`) finds them without walking the map
    set_read(
        lua,
        &g,
        world,
        "var_names",
        |_, w, prefix: Option<String>| {
            let prefix = prefix.unwrap_or_default();
            let names: Vec<String> = (w.state.vars.range(prefix.clone()..))
                .map(|(k, _)| k)
                .take_while(|k| k.starts_with(&prefix))
                .cloned()
                .collect();
            // (copied out name by name: native work the budget sees)
            crate::script::charge_current(names.iter().map(|n| n.len() as u64 + 16).sum())?;
            Ok(names)
        },
    )?;
    set_read(lua, &g, world, "sides", |_, w, ()| {
        Ok(w.state.sides.clone())
    })?;
    set_read(lua, &g, world, "pool", |_, w, id: String| {
        let faces = w.state.pools.get(&id);
        Ok(faces.map_or_else(Vec::new, |f| f.iter().map(|x| x.to_string()).collect()))
    })?;
    set_read(lua, &g, world, "unit_type", |lua, w, id: String| {
        value_or_nil(lua, w.ruleset.unit_types.get(&id))
    })?;
    set_read(lua, &g, world, "constant", |lua, w, id: String| {
        value_or_nil(lua, w.ruleset.constants.get(&id))
    })?;
    kessel.set("game", g)?;

    // ---- kessel.scenario
    let s = lua.create_table()?;
    set_read(lua, &s, world, "var", |lua, w, key: String| {
        let set = w.scenario.as_ref().and_then(|s| s.vars.get(&key));
        let declared = || w.ruleset.scenario_vars.get(&key)?.default.as_ref();
        value_or_nil(lua, set.or_else(declared))
    })?;
    // every key the scenario's [vars] sets, declared or not, in sorted order: a ruleset that
    // keys records by a name of its own (one a side, say) checks each against its names, where
    // `var` can only ask for the keys it already knows
    set_read(lua, &s, world, "var_names", |lua, w, ()| {
        let out = lua.create_table()?;
        for key in w.scenario.iter().flat_map(|sc| sc.vars.keys()) {
            out.push(super::strings::text(lua, key)?)?;
        }
        Ok(out)
    })?;
    set_read(lua, &s, world, "objectives", |lua, w, ()| {
        let out = lua.create_table()?;
        for o in w.objectives() {
            use mlua::IntoLua;
            let hexes = super::strings::label_list(lua, &w.state.map, &o.hexes)?;
            let pairs = vec![
                mlua::Value::String(intern(lua, "name")?),
                mlua::Value::String(super::strings::text(lua, &o.name)?),
                mlua::Value::String(intern(lua, "vp")?),
                o.vp.into_lua(lua)?,
                mlua::Value::String(intern(lua, "side")?),
                intern_opt(lua, o.side.as_deref())?,
                mlua::Value::String(intern(lua, "hexes")?),
                mlua::Value::Table(hexes),
            ];
            out.push(super::strings::fill(lua, lua.create_table()?, pairs)?)?;
        }
        Ok(out)
    })?;
    set_read(lua, &s, world, "levels", |lua, w, ()| {
        let out = lua.create_table()?;
        for l in w.levels() {
            let t = lua.create_table()?;
            t.set("name", l.name.as_str())?;
            t.set("max", l.max)?;
            out.push(t)?;
        }
        Ok(out)
    })?;
    set_read(lua, &s, world, "name", |_, w, ()| {
        Ok(w.scenario.as_ref().map(|s| s.name.clone()))
    })?;
    kessel.set("scenario", s)?;
    Ok(())
}

/// A place as a Lua table: its name, kind and hexes.
fn place_table(lua: &Lua, w: &World, p: &crate::map::Place) -> mlua::Result<Table> {
    let hexes = super::strings::label_list(lua, &w.state.map, &p.hexes)?;
    let pairs = vec![
        mlua::Value::String(intern(lua, "name")?),
        mlua::Value::String(super::strings::text(lua, &p.name)?),
        mlua::Value::String(intern(lua, "kind")?),
        mlua::Value::String(super::strings::text(lua, &p.kind)?),
        mlua::Value::String(intern(lua, "hexes")?),
        mlua::Value::Table(hexes),
    ];
    super::strings::fill(lua, lua.create_table()?, pairs)
}
