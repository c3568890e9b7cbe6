//! Lua strings the read API hands out over and over (unit ids, sides, types, hex labels, table
//! keys), made once per Lua state and reused.
//!
//! Why: the sandbox gives the Lua state a memory limit, and with a limit every string mlua makes
//! from Rust, and every field it sets, is a protected call (a `lua_pcall` around one
//! `lua_pushlstring`). Pushing a string Lua already holds is not. Unit snapshots are the engine's
//! busiest read (a simulated game builds hundreds of thousands), so they take their strings from
//! here and are built by one call into a small Lua constructor instead of field by field.

use mlua::{Lua, Table};
use std::cell::RefCell;
use std::collections::HashMap;

/// Above this many distinct strings the cache starts afresh (game data has a few thousand: ids,
/// names, labels; a script making endless new names must not grow it without bound).
const MAX_STRINGS: usize = 1 << 16;

/// Per-state cache of Lua strings, kept in the state's app data.
#[derive(Default)]
struct Interned {
    strings: RefCell<HashMap<Box<str>, mlua::LuaString>>,
}

/// The Lua string for `s`, made on first use.
pub(crate) fn intern(lua: &Lua, s: &str) -> mlua::Result<mlua::LuaString> {
    if lua.app_data_ref::<Interned>().is_none() {
        lua.set_app_data(Interned::default());
    }
    let interned = lua
        .app_data_ref::<Interned>()
        .ok_or_else(|| mlua::Error::runtime("string cache missing"))?;
    if let Some(v) = interned.strings.borrow().get(s) {
        return Ok(v.clone());
    }
    let v = lua.create_string(s)?;
    let mut map = interned.strings.borrow_mut();
    if map.len() >= MAX_STRINGS {
        map.clear();
    }
    map.insert(s.into(), v.clone());
    Ok(v)
}

/// `intern` for an optional string: nil when absent.
pub(crate) fn intern_opt(lua: &Lua, s: Option<&str>) -> mlua::Result<mlua::Value> {
    Ok(match s {
        Some(s) => mlua::Value::String(intern(lua, s)?),
        None => mlua::Value::Nil,
    })
}

/// A table `{ key = true, ... }` or `{ key = n, ... }` from string keys (flags, attributes,
/// variables), with interned keys; nil when there are none (the snapshot constructor makes `{}`).
pub(crate) fn keyed_table<'a, V: mlua::IntoLua>(
    lua: &Lua,
    entries: impl ExactSizeIterator<Item = (&'a str, V)>,
) -> mlua::Result<mlua::Value> {
    if entries.len() == 0 {
        return Ok(mlua::Value::Nil);
    }
    let t: Table = lua.create_table_with_capacity(0, entries.len())?;
    for (k, v) in entries {
        t.raw_set(intern(lua, k)?, v)?;
    }
    Ok(mlua::Value::Table(t))
}
