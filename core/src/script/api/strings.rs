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
    // one look at the app data per call: this runs hundreds of thousands of times a game
    let Some(interned) = lua.app_data_ref::<Interned>() else {
        lua.set_app_data(Interned::default());
        return match lua.app_data_ref::<Interned>() {
            Some(_) => intern(lua, s),
            None => Err(mlua::Error::runtime("string cache missing")),
        };
    };
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

/// Strings longer than this are made afresh instead of kept: ids, labels and names are short, and
/// a long text (a message) kept here would hold its memory until the cache starts afresh.
const KEPT_UP_TO: usize = 64;

/// A Lua string for `s`: the kept one when it is short (see [`intern`]), else a new one.
pub(crate) fn text(lua: &Lua, s: &str) -> mlua::Result<mlua::LuaString> {
    if s.len() <= KEPT_UP_TO {
        intern(lua, s)
    } else {
        lua.create_string(s)
    }
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

/// The current map's hex labels as Lua strings, made once per map shape and numbering (a search
/// result keys a table by hundreds of labels; formatting and interning each one anew was a good
/// part of a path search's cost as a script sees it).
struct Labels {
    numbering: crate::numbering::Numbering,
    columns: u32,
    rows: u32,
    strings: Vec<Option<mlua::LuaString>>,
    /// Each hex's place in label order, by dense index (made on first use).
    rank: Option<Vec<u32>>,
}

/// The `Labels` of `map` in `lua`'s app data, made afresh when the map's shape or numbering
/// changed.
fn labels_of<'a>(
    lua: &'a Lua,
    map: &crate::map::Map,
) -> mlua::Result<mlua::AppDataRefMut<'a, Labels>> {
    let fits = lua.app_data_ref::<Labels>().is_some_and(|l| {
        l.columns == map.columns() && l.rows == map.rows() && l.numbering == *map.numbering()
    });
    if !fits {
        lua.set_app_data(Labels {
            numbering: map.numbering().clone(),
            columns: map.columns(),
            rows: map.rows(),
            strings: vec![None; map.len()],
            rank: None,
        });
    }
    lua.app_data_mut::<Labels>()
        .ok_or_else(|| mlua::Error::runtime("label cache missing"))
}

/// Sorts on-map `hexes` by their labels, as `table.sort` sorts label strings, without making a
/// label per comparison: each hex's place in label order is worked out once per map.
pub(crate) fn sort_by_label(
    lua: &Lua,
    map: &crate::map::Map,
    hexes: &mut [crate::hex::Hex],
) -> mlua::Result<()> {
    let mut kept = labels_of(lua, map)?;
    let rank = kept.rank.get_or_insert_with(|| {
        let mut order: Vec<(String, usize)> = (0..map.len())
            .map(|i| (map.label(map.hex_of_index(i)), i))
            .collect();
        order.sort();
        let mut rank = vec![0; map.len()];
        for (place, (_, i)) in order.into_iter().enumerate() {
            rank[i] = place as u32;
        }
        rank
    });
    hexes.sort_by_key(|h| map.index(*h).map_or(u32::MAX, |i| rank[i]));
    Ok(())
}

/// The Lua strings of the labels of `hexes`, in order (`None` for a hex off the map), from one
/// look at the cache.
pub(crate) fn labels(
    lua: &Lua,
    map: &crate::map::Map,
    hexes: impl IntoIterator<Item = crate::hex::Hex>,
) -> mlua::Result<Vec<Option<mlua::LuaString>>> {
    let mut kept = labels_of(lua, map)?;
    let mut out = Vec::new();
    for hex in hexes {
        let Some(slot) = map.index(hex).and_then(|i| kept.strings.get_mut(i)) else {
            out.push(None);
            continue;
        };
        if slot.is_none() {
            *slot = Some(lua.create_string(map.label(hex))?);
        }
        out.push(slot.clone());
    }
    Ok(out)
}

/// The Lua string of `hex`'s label: the cached one, or a new one for a hex off the map (callbacks
/// of the searches get two labels a step; formatting and making each anew was most of a step's
/// native cost).
pub(crate) fn label(
    lua: &Lua,
    map: &crate::map::Map,
    hex: crate::hex::Hex,
) -> mlua::Result<mlua::LuaString> {
    match labels(lua, map, [hex])?.pop().flatten() {
        Some(s) => Ok(s),
        None => lua.create_string(map.label(hex)),
    }
}

/// A list of the labels of `hexes`, in order, as Lua strings (a hex off the map gets its label
/// made anew), built by one call into Lua.
pub(crate) fn label_list(
    lua: &Lua,
    map: &crate::map::Map,
    hexes: &[crate::hex::Hex],
) -> mlua::Result<Table> {
    let kept = labels(lua, map, hexes.iter().copied())?;
    let items = kept
        .into_iter()
        .zip(hexes)
        .map(|(s, h)| match s {
            Some(s) => Ok(mlua::Value::String(s)),
            None => lua.create_string(map.label(*h)).map(mlua::Value::String),
        })
        .collect::<mlua::Result<Vec<_>>>()?;
    list(lua, items)
}

/// A table keyed by hex labels, `{ ["0712"] = v, ... }`, sized for its entries up front; hexes off
/// the map are left out.
pub(crate) fn hex_keyed<V: mlua::IntoLua>(
    lua: &Lua,
    map: &crate::map::Map,
    entries: impl ExactSizeIterator<Item = (crate::hex::Hex, V)>,
) -> mlua::Result<Table> {
    let t = lua.create_table_with_capacity(0, entries.len())?;
    let (hexes, values): (Vec<_>, Vec<_>) = entries.unzip();
    let mut pairs = Vec::with_capacity(2 * hexes.len());
    for (k, v) in labels(lua, map, hexes)?.into_iter().zip(values) {
        if let Some(k) = k {
            pairs.push(mlua::Value::String(k));
            pairs.push(v.into_lua(lua)?);
        }
    }
    fill(lua, t, pairs)
}

/// How many values one call into Lua passes on its stack, at most.
const ONE_CALL: usize = 4000;

/// A small Lua function of the engine's own (`name`, from `code`, a chunk that returns it), made
/// once per state and kept.
fn helper(lua: &Lua, name: &'static str, code: &'static str) -> mlua::Result<mlua::Function> {
    // a handful of helpers, asked for on every table the engine builds: a scan of a short list
    // costs less than hashing the name each time
    #[derive(Default)]
    struct Helpers(RefCell<Vec<(&'static str, mlua::Function)>>);
    let Some(helpers) = lua.app_data_ref::<Helpers>() else {
        lua.set_app_data(Helpers::default());
        return match lua.app_data_ref::<Helpers>() {
            Some(_) => helper(lua, name, code),
            None => Err(mlua::Error::runtime("helper functions missing")),
        };
    };
    if let Some((_, f)) = helpers.0.borrow().iter().find(|(n, _)| *n == name) {
        return Ok(f.clone());
    }
    let f: mlua::Function = lua
        .load(code)
        .set_name(format!("={name}"))
        .set_mode(mlua::chunk::ChunkMode::Text)
        .call(())?;
    helpers.0.borrow_mut().push((name, f.clone()));
    Ok(f)
}

/// Sets `pairs` (key, value, key, value, …) in `t`, a fresh table without a metatable, by one call
/// into Lua per few thousand pairs instead of one protected call per field (see this module's
/// header).
pub(crate) fn fill(lua: &Lua, t: Table, pairs: Vec<mlua::Value>) -> mlua::Result<Table> {
    if pairs.len() <= 2 * FEW_PAIRS {
        // most tables the engine hands out (actions, small game variables) have a few fields: a
        // helper with fixed parameters sets them without first gathering `...` into a table
        let f = helper(lua, "kessel fill few", FILL_FEW)?;
        let mut args = mlua::MultiValue::with_capacity(pairs.len() + 1);
        args.push_back(mlua::Value::Table(t.clone()));
        args.extend(pairs);
        f.call::<()>(args)?;
        return Ok(t);
    }
    let f = helper(
        lua,
        "kessel fill",
        "return function(t, ...) local a, n = { ... }, select('#', ...) \
         for i = 1, n, 2 do t[a[i]] = a[i + 1] end end",
    )?;
    let mut pairs = pairs.into_iter().peekable();
    while pairs.peek().is_some() {
        let mut args = mlua::MultiValue::with_capacity(ONE_CALL + 1);
        args.push_back(mlua::Value::Table(t.clone()));
        args.extend(pairs.by_ref().take(ONE_CALL));
        f.call::<()>(args)?;
    }
    Ok(t)
}

/// The most pairs [`FILL_FEW`] takes.
const FEW_PAIRS: usize = 8;

/// Sets up to [`FEW_PAIRS`] key-value pairs, stopping at the first absent key (keys are never nil,
/// values may be).
const FILL_FEW: &str =
    "return function(t, k1, v1, k2, v2, k3, v3, k4, v4, k5, v5, k6, v6, k7, v7, k8, v8) \
     if k1 == nil then return end t[k1] = v1 \
     if k2 == nil then return end t[k2] = v2 \
     if k3 == nil then return end t[k3] = v3 \
     if k4 == nil then return end t[k4] = v4 \
     if k5 == nil then return end t[k5] = v5 \
     if k6 == nil then return end t[k6] = v6 \
     if k7 == nil then return end t[k7] = v7 \
     if k8 == nil then return end t[k8] = v8 end";

/// A list of two-field tables `{ [a] = x, [b] = y }`, from `values` (x, y, x, y, …; none nil),
/// built by one call into Lua; `None` when there are too many for one call.
pub(crate) fn pairs_list(
    lua: &Lua,
    a: mlua::LuaString,
    b: mlua::LuaString,
    values: Vec<mlua::Value>,
) -> mlua::Result<Option<Table>> {
    if values.len() > ONE_CALL {
        return Ok(None);
    }
    let f = helper(
        lua,
        "kessel pairs list",
        "return function(a, b, ...) local v, out = { ... }, {} \
         for i = 1, select('#', ...), 2 do out[#out + 1] = { [a] = v[i], [b] = v[i + 1] } end \
         return out end",
    )?;
    let mut args = mlua::MultiValue::with_capacity(values.len() + 2);
    args.push_back(mlua::Value::String(a));
    args.push_back(mlua::Value::String(b));
    args.extend(values);
    f.call(args).map(Some)
}

/// A list table from items, built by one call into Lua (see this module's header for why one call).
pub(crate) fn list(lua: &Lua, items: Vec<mlua::Value>) -> mlua::Result<Table> {
    // long lists are filled item by item
    if items.len() > ONE_CALL {
        let t = lua.create_table_with_capacity(items.len(), 0)?;
        for v in items {
            t.raw_push(v)?;
        }
        return Ok(t);
    }
    let f = helper(
        lua,
        "kessel list",
        "return function(...) return { ... } end",
    )?;
    f.call(mlua::MultiValue::from_iter(items))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Map;
    use crate::numbering::Numbering;

    fn label(lua: &Lua, map: &Map, hex: crate::hex::Hex) -> mlua::Result<Option<mlua::LuaString>> {
        Ok(labels(lua, map, [hex])?.pop().flatten())
    }

    #[test]
    fn labels_follow_the_map_they_are_asked_for() {
        let lua = Lua::new();
        let a = Map::new("a", 4, 4, Numbering::default(), "clear");
        let h = a.parse("0203").expect("label");
        let s = label(&lua, &a, h).expect("label").expect("on the map");
        assert_eq!(s.to_str().expect("utf-8").to_string(), "0203");
        // the same hex on a map numbered from another corner gets that map's label
        let b = Map::new(
            "b",
            4,
            4,
            Numbering {
                first_column: 11,
                ..Numbering::default()
            },
            "clear",
        );
        let s = label(&lua, &b, h).expect("label").expect("on the map");
        assert_eq!(s.to_str().expect("utf-8").to_string(), "1203");
        // off the map: no label
        let off = b.hex_at(-1, 0);
        assert!(label(&lua, &b, off).expect("label").is_none());
    }

    #[test]
    fn hexes_sort_by_label_as_strings_do_on_any_numbering() {
        let lua = Lua::new();
        // letters for columns and rows not zero-padded: A10 comes before A2, and Z before AA
        let letters = Map::new(
            "l",
            30,
            12,
            Numbering {
                letters: true,
                ..Numbering::default()
            },
            "clear",
        );
        let padded = Map::new("p", 12, 30, Numbering::default(), "clear");
        for map in [&letters, &padded, &letters] {
            // column-major order reversed: far from label order
            let mut hexes: Vec<_> = map.hexes().collect();
            hexes.reverse();
            let mut by_string = hexes.clone();
            by_string.sort_by_key(|h| map.label(*h));
            sort_by_label(&lua, map, &mut hexes).expect("sorted");
            assert_eq!(hexes, by_string, "{}", map.label(hexes[0]));
        }
        assert_eq!(letters.label(letters.hex_at(0, 9)), "A10");
    }

    #[test]
    fn fill_sets_every_pair_few_or_many() {
        let lua = Lua::new();
        let count: mlua::Function = lua
            .load("return function(t) local n = 0 for _ in pairs(t) do n = n + 1 end return n end")
            .eval()
            .expect("fn");
        for n in [0, 1, 3, FEW_PAIRS, FEW_PAIRS + 1, 40] {
            let mut pairs = Vec::new();
            for i in 0..n {
                pairs.push(mlua::Value::String(
                    intern(&lua, &format!("k{i}")).expect("key"),
                ));
                // a nil value sets nothing, as `t[k] = nil` does
                pairs.push(if i == 1 {
                    mlua::Value::Nil
                } else {
                    mlua::Value::Integer(i as i64)
                });
            }
            let t = fill(&lua, lua.create_table().expect("table"), pairs).expect("filled");
            let set: usize = count.call(t.clone()).expect("count");
            assert_eq!(set, if n > 1 { n - 1 } else { n }, "{n} pairs");
            if n > 0 {
                assert_eq!(t.get::<i64>("k0").expect("k0"), 0);
            }
            if n > 2 {
                assert_eq!(
                    t.get::<i64>(format!("k{}", n - 1)).expect("last"),
                    n as i64 - 1
                );
            }
        }
    }

    #[test]
    fn hex_keyed_tables_hold_every_entry_past_one_call() {
        let lua = Lua::new();
        // 4,900 hexes: more pairs than one call takes
        let map = Map::new("m", 70, 70, Numbering::default(), "clear");
        let all: Vec<_> = map.hexes().map(|h| (h, 1.5)).collect();
        let t = hex_keyed(&lua, &map, all.into_iter()).expect("table");
        let n: usize = lua
            .load("return function(t) local n = 0 for _ in pairs(t) do n = n + 1 end return n end")
            .eval::<mlua::Function>()
            .expect("fn")
            .call(t.clone())
            .expect("count");
        assert_eq!(n, 4_900);
        assert_eq!(t.get::<f64>("7070").expect("the last hex"), 1.5);
    }
}
