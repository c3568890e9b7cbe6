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

/// The name of `known` nearest to `name` when it is close enough to be a typo of it (at most two
/// edits, or one of them starts with the other); ties go to the first in sorted order.
pub(crate) fn nearest(name: &str, known: &[String]) -> Option<String> {
    let mut sorted: Vec<&String> = known.iter().collect();
    sorted.sort();
    sorted
        .into_iter()
        .map(|k| (edit_distance(name, k), k))
        .filter(|(d, k)| *d <= 2 || k.starts_with(name) || name.starts_with(k.as_str()))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k.clone())
}

/// Edit distance over characters where swapping two neighbours counts as one edit (the optimal
/// string alignment distance): `sied` is one edit from `side`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::nearest;

    #[test]
    fn typos_find_their_name() {
        let known: Vec<String> = ["units", "markers", "map", "game"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(nearest("unit", &known).as_deref(), Some("units"));
        assert_eq!(nearest("mpa", &known).as_deref(), Some("map"));
        assert_eq!(nearest("weather", &known), None);
        let fields: Vec<String> = ["id", "side", "type"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(nearest("sied", &fields).as_deref(), Some("side"));
    }
}
