//! `kessel.hexset`: a set of hexes shared with Lua, and how the API reads a set given as a hexset
//! or a list of labels (`kessel.paths` takes and gives them).

use super::hex_of;
use crate::algo::zoc::HexSet;
use crate::hex::Hex;
use crate::map::Map;
use crate::world::Shared;
use mlua::{Lua, MetaMethod, Table, UserData, UserDataMethods, UserDataRef};
use std::sync::Arc;

/// A set of hexes, shared with Lua.
#[derive(Debug)]
pub struct LuaHexSet {
    pub(super) set: HexSet,
    pub(super) map: Arc<Map>,
    /// Its bytes, counted against the memory limit while it lives (see `script::hold`).
    _held: crate::script::Held,
}

impl LuaHexSet {
    /// A set for Lua, its memory counted: a set is a byte per hex of the map, outside the Lua
    /// state's memory, which sees only a small userdata.
    pub(super) fn new(lua: &Lua, set: HexSet, map: Arc<Map>) -> mlua::Result<LuaHexSet> {
        let _held = crate::script::hold(lua, set.heap_bytes() + 64)?;
        Ok(LuaHexSet { set, map, _held })
    }

    /// A set keeps its hexes by their place on the grid of the map it was made on; on a map of
    /// another size (`kessel.setup` can load one) those places are other hexes, so the set is
    /// refused there instead of being read as if it were the same.
    pub(super) fn on_grid_of(&self, map: &Map) -> mlua::Result<&HexSet> {
        if self.map.columns() == map.columns() && self.map.rows() == map.rows() {
            return Ok(&self.set);
        }
        Err(mlua::Error::runtime(format!(
            "this hexset was made on a map of {} × {} hexes and the map is now {} × {} \
             (kessel.setup loaded another): make the set again on the new map",
            self.map.columns(),
            self.map.rows(),
            map.columns(),
            map.rows()
        )))
    }

    fn parse(&self, label: &str) -> mlua::Result<Hex> {
        self.map
            .parse(label)
            .ok_or_else(|| mlua::Error::runtime(format!("`{label}` is not a hex of this map")))
    }
}

impl UserData for LuaHexSet {
    // (the name Lua's own messages and `tostring` use: "attempt to compare two hexset values")
    fn add_fields<F: mlua::UserDataFields<Self>>(fields: &mut F) {
        fields.add_meta_field(MetaMethod::Type.name(), "hexset");
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("has", |lua, s, h: String| {
            super::charge_call(lua)?;
            Ok(s.map.parse(&h).is_some_and(|x| s.set.contains(&s.map, x)))
        });
        methods.add_method_mut("add", |lua, s, h: String| {
            super::charge_call(lua)?;
            let x = s.parse(&h)?;
            s.set.insert(&s.map.clone(), x);
            Ok(())
        });
        methods.add_method_mut("remove", |lua, s, h: String| {
            super::charge_call(lua)?;
            let x = s.parse(&h)?;
            s.set.remove(&s.map.clone(), x);
            Ok(())
        });
        methods.add_method("labels", |lua, s, ()| {
            super::charge_call(lua)?;
            let hexes: Vec<Hex> = s.set.hexes(&s.map).collect();
            super::strings::label_list(lua, &s.map, &hexes)
        });
        methods.add_method("union", |lua, s, o: UserDataRef<LuaHexSet>| {
            super::charge_call(lua)?;
            let mut out = LuaHexSet::new(lua, s.set.clone(), s.map.clone())?;
            out.set.union_with(o.on_grid_of(&s.map)?);
            Ok(out)
        });
        methods.add_method("minus", |lua, s, o: UserDataRef<LuaHexSet>| {
            super::charge_call(lua)?;
            let mut out = LuaHexSet::new(lua, s.set.clone(), s.map.clone())?;
            out.set.subtract(o.on_grid_of(&s.map)?);
            Ok(out)
        });
        methods.add_method("copy", |lua, s, ()| {
            super::charge_call(lua)?;
            LuaHexSet::new(lua, s.set.clone(), s.map.clone())
        });
        methods.add_meta_method(MetaMethod::Len, |lua, s, ()| {
            super::charge_call(lua)?;
            Ok(s.set.len())
        });
    }
}

/// Reads a set given as a hexset userdata or a list of labels.
pub(super) fn set_arg(world: &Shared, v: mlua::Value) -> mlua::Result<HexSet> {
    match v {
        mlua::Value::UserData(ud) => {
            let map = world.borrow().state.map.clone();
            Ok(ud.borrow::<LuaHexSet>()?.on_grid_of(&map)?.clone())
        }
        mlua::Value::Table(t) => {
            let map = world.borrow().state.map.clone();
            crate::script::charge(
                &t.weak_lua().upgrade(),
                64 * t.raw_len() as u64 + map.len() as u64,
            )?;
            let mut s = HexSet::new(&map);
            for l in t.sequence_values::<String>() {
                let l = l?;
                s.insert(&map, hex_of(world, &l)?);
            }
            Ok(s)
        }
        mlua::Value::Nil => Ok(HexSet::new(&world.borrow().state.map)),
        other => Err(mlua::Error::runtime(format!(
            "expected a hexset or a list of hexes, got a {}",
            other.type_name()
        ))),
    }
}

pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    let w = world.clone();
    kessel.set(
        "hexset",
        super::function(lua, move |lua, list: mlua::Value| {
            let map = w.borrow().state.map.clone();
            LuaHexSet::new(lua, set_arg(&w, list)?, map)
        })?,
    )?;
    Ok(())
}
