//! The `kessel.*` Lua API: the one registration point.
//!
//! | module | file | stage |
//! |---|---|---|
//! | `kessel.ruleset`, `.unit_type`, `.terrain`, `.hexside_kind`, `.place_kind`, `.movement`, `.results_table`, `.dice_table`, `.sequence`, `.option`, `.action`, `.on`, `.constant` | `declare.rs` | loading the ruleset |
//! | `kessel.hex` | `hex.rs` | always |
//! | `kessel.map`, `kessel.units`, `kessel.markers`, `kessel.game`, `kessel.scenario` | `query.rs` | always (read-only) |
//! | `kessel.units.get/at/all/occupied`, `kessel.markers.all/at`, `kessel.game.step/option`, kept per revision | `reads.rs` | always (read-only) |
//! | `kessel.queries` (`declare` while loading; `ask`, `list`, `has` read-only) | `queries.rs` | always |
//! | `kessel.log` (`records`: structured records of the accepted actions) | `log.rs` | always (read-only) |
//! | `kessel.emit`, `kessel.dice` | `emit.rs`; the sequencer `kessel.emit.clock`, `.advance`, `.mode` in `sequence.rs` | applying an action |
//! | `kessel.map.regions/enclosed` | `areas.rs` | always (read-only) |
//! | `kessel.emit.create_unit/change_unit/terrain/hexside/tag` | `changes.rs` | applying an action |
//! | `kessel.emit.create_marker/marker_value` | `markers.rs` | applying an action |
//! | `kessel.emit.hide/show/commit/open`; `kessel.units.hidden_from`, `kessel.game.commitments/view` | `secrets.rs` | applying an action; reads always |
//! | plain data (game and unit variables) to and from Lua | `plain.rs` | — |
//! | `kessel.paths`, `kessel.hexset` | `paths.rs` | always |
//! | `kessel.tables` | `tables.rs` | always |
//! | `kessel.undo`, `.inject_dice`, `.test`, `.state_hash`, `.events` | `script.rs` | `kessel script` / `kessel test` |
//! | `kessel.setup` (a position built inline) | `setup.rs` | `kessel script` / `kessel test` |
//! | `kessel.act`, `.validate`, `.legal` (they drive the engine) | `engine/calls.rs` | `kessel script` / `kessel test` |
//!
//! The calls from Rust into the rules (validators, handlers, enumerators, hooks) live on the engine
//! side (`engine/calls.rs`); this module only registers functions and converts values.
//!
//! Hexes are passed to and from Lua as their printed labels (`"0120"`): plain strings work as table
//! keys, compare with `==` and print as players read them.

mod areas;
mod changes;
mod declare;
mod declare_limits;
mod emit;
mod hex;
mod log;
mod markers;
mod paths;
mod plain;
mod queries;
mod query;
mod reads;
mod script;
mod secrets;
mod sequence;
mod setup;
mod strings;
mod tables;

use crate::action::{Action, Reason};
use crate::hex::Hex;
use crate::state::Value;
use crate::world::{Shared, World};
use mlua::{Lua, LuaSerdeExt, Table};

pub(crate) use queries::{
    ask as ask_query, declared as declared_queries, declares as declares_query,
};
pub(crate) use script::{events_table, reasons_table, run_test, script_only};
pub(crate) use secrets::view_table;

/// Registers every module on a fresh host.
pub fn register(lua: &Lua, world: &Shared) -> mlua::Result<()> {
    let kessel = lua.create_table()?;
    lua.set_named_registry_value("kessel_actions", lua.create_table()?)?;
    lua.set_named_registry_value("kessel_hooks", lua.create_table()?)?;
    lua.set_named_registry_value("kessel_tests", lua.create_table()?)?;
    declare::register(lua, &kessel, world)?;
    hex::register(lua, &kessel, world)?;
    query::register(lua, &kessel, world)?;
    queries::register(lua, &kessel, world)?;
    log::register(lua, &kessel, world)?;
    areas::register(lua, &kessel, world)?;
    reads::register(lua, &kessel, world)?;
    emit::register(lua, &kessel, world)?;
    changes::register(lua, &kessel, world)?;
    markers::register(lua, &kessel, world)?;
    secrets::register(lua, &kessel, world)?;
    paths::register(lua, &kessel, world)?;
    tables::register(lua, &kessel, world)?;
    kessel.set("version", env!("CARGO_PKG_VERSION"))?;
    guard_names(lua, &kessel)?;
    lua.globals().set("kessel", kessel)?;
    Ok(())
}

/// Adds the script/test-only functions (`kessel.act`, `kessel.setup`, …).
pub fn register_script_api(lua: &Lua, world: &Shared) -> mlua::Result<()> {
    let kessel: Table = lua.globals().get("kessel")?;
    script::register(lua, &kessel, world)?;
    guard_names(lua, &kessel)
}

/// Makes reading a name the API does not have an error that suggests the nearest one
/// (`kessel.unit` → "did you mean `kessel.units`?"), on `kessel` and each of its modules: a typo
/// fails where it is made instead of as "attempt to index a nil value" further on.
pub(crate) fn guard_names(lua: &Lua, kessel: &Table) -> mlua::Result<()> {
    let guard = |path: String| -> mlua::Result<Table> {
        let mt = lua.create_table()?;
        mt.set(
            "__index",
            lua.create_function(
                move |_, (t, key): (Table, mlua::Value)| -> mlua::Result<()> {
                    let name = match &key {
                        mlua::Value::String(s) => s.to_string_lossy(),
                        other => format!("[{}]", other.type_name()),
                    };
                    let mut known = Vec::new();
                    for pair in t.pairs::<mlua::Value, mlua::Value>() {
                        if let (mlua::Value::String(k), _) = pair? {
                            known.push(k.to_string_lossy());
                        }
                    }
                    let hint = crate::names::nearest(&name, &known)
                        .map(|n| format!(" (did you mean `{path}.{n}`?)"))
                        .unwrap_or_default();
                    Err(mlua::Error::runtime(format!(
                        "`{path}.{name}` is not part of the Kessel API{hint}"
                    )))
                },
            )?,
        )?;
        Ok(mt)
    };
    for pair in kessel.pairs::<String, mlua::Value>() {
        let (name, v) = pair?;
        if let mlua::Value::Table(module) = v {
            if module.metatable().is_none() {
                module.set_metatable(Some(guard(format!("kessel.{name}"))?))?;
            }
        }
    }
    if kessel.metatable().is_none() {
        kessel.set_metatable(Some(guard("kessel".into())?))?;
    }
    Ok(())
}

/// Sets `name` in `table` to a Lua function that reads the world: `read(lua, world, args)` runs
/// with the world borrowed for the one call. Most of the API is such reads; registering them
/// through one helper keeps each down to what it reads.
pub(crate) fn set_read<A, R, F>(
    lua: &Lua,
    table: &Table,
    world: &Shared,
    name: &str,
    read: F,
) -> mlua::Result<()>
where
    A: mlua::FromLuaMulti,
    R: mlua::IntoLuaMulti,
    F: Fn(&Lua, &World, A) -> mlua::Result<R> + mlua::MaybeSend + 'static,
{
    let w = world.clone();
    table.set(
        name,
        lua.create_function(move |lua, args: A| read(lua, &w.borrow(), args))?,
    )
}

/// Parses a hex label against the current map.
pub(crate) fn hex_of(world: &Shared, label: &str) -> mlua::Result<Hex> {
    hex_in(&world.borrow(), label)
}

/// Parses a hex label against the map of a borrowed world.
pub(crate) fn hex_in(world: &World, label: &str) -> mlua::Result<Hex> {
    if label.len() > 64 {
        // copying a long string in was native work: charge it (no label is this long)
        crate::script::charge_current(label.len() as u64)?;
    }
    world
        .state
        .map
        .parse(label)
        .ok_or_else(|| mlua::Error::runtime(format!("`{label}` is not a hex of this map")))
}

/// The labels of `hexes`, in their order.
pub(crate) fn label_list<'a>(
    map: &crate::map::Map,
    hexes: impl IntoIterator<Item = &'a Hex>,
) -> Vec<String> {
    hexes.into_iter().map(|h| map.label(*h)).collect()
}

/// A list of the labels of the hexes that lie on the map (neighbours, rings and ranges reach past
/// its edges).
pub(crate) fn on_map_labels(
    lua: &Lua,
    map: &crate::map::Map,
    hexes: impl IntoIterator<Item = Hex>,
) -> mlua::Result<Table> {
    let items = strings::labels(lua, map, hexes)?
        .into_iter()
        .flatten()
        .map(mlua::Value::String)
        .collect();
    strings::list(lua, items)
}

/// A stored value as Lua sees it: nil when absent.
pub(crate) fn value_or_nil(lua: &Lua, v: Option<&Value>) -> mlua::Result<mlua::Value> {
    match v {
        Some(v) => lua.to_value(v),
        None => Ok(mlua::Value::Nil),
    }
}

/// Converts a Lua value (a table) to an action.
pub(crate) fn action_from_lua(lua: &Lua, value: mlua::Value) -> mlua::Result<Action> {
    let v: Value = lua.from_value(value)?;
    let Value::Object(mut map) = v else {
        return Err(mlua::Error::runtime("an action is a table with a `kind`"));
    };
    let kind = match map.remove("kind") {
        Some(Value::String(k)) => k,
        _ => return Err(mlua::Error::runtime("an action needs `kind = \"...\"`")),
    };
    // `side` is the sending side, not a parameter
    let side = match map.remove("side") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(other) => {
            return Err(mlua::Error::runtime(format!(
                "an action's `side` is a side id, not {other}"
            )))
        }
    };
    Ok(Action {
        kind,
        side,
        params: map.into_iter().collect(),
    })
}

/// Converts an action to a Lua table (`kind` plus its parameters).
pub(crate) fn action_to_lua(lua: &Lua, action: &Action) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    for (k, v) in &action.params {
        t.set(k.as_str(), lua.to_value(v)?)?;
    }
    t.set("kind", action.kind.as_str())?;
    if let Some(side) = &action.side {
        t.set("side", side.as_str())?;
    }
    Ok(t)
}

/// Reads reasons returned by a validator: nil/true = legal; a string, a reason table
/// `{rule=, message=}` or a list of them = refused.
pub(crate) fn reasons_from_lua(v: mlua::Value) -> mlua::Result<Vec<Reason>> {
    let one = |t: &Table| -> mlua::Result<Reason> {
        Ok(Reason {
            rule: t.get::<Option<String>>("rule")?,
            message: t
                .get::<Option<String>>("message")?
                .unwrap_or_else(|| "not allowed".into()),
        })
    };
    match v {
        mlua::Value::Nil | mlua::Value::Boolean(true) => Ok(Vec::new()),
        mlua::Value::Boolean(false) => Ok(vec![Reason {
            rule: None,
            message: "not allowed".into(),
        }]),
        mlua::Value::String(s) => Ok(vec![Reason {
            rule: None,
            message: s.to_str()?.to_string(),
        }]),
        mlua::Value::Table(t) => {
            if t.contains_key("message")? || t.contains_key("rule")? {
                return Ok(vec![one(&t)?]);
            }
            let mut out = Vec::new();
            for item in t.sequence_values::<Table>() {
                out.push(one(&item?)?);
            }
            if out.is_empty() {
                // `{ rul = "T1", mesage = "…" }` is neither a reason nor a list of them: refuse it
                // rather than read it as an empty list, which would make the action legal
                let mut keys = Vec::new();
                for pair in t.pairs::<mlua::Value, mlua::Value>() {
                    if let (mlua::Value::String(k), _) = pair? {
                        keys.push(k.to_string_lossy());
                    }
                }
                if !keys.is_empty() {
                    keys.sort();
                    return Err(mlua::Error::runtime(format!(
                        "reasons: a table with neither `message` nor `rule` and no list of reasons (its fields: {}); \
                         a reason is {{ rule = …, message = … }}, no reason (legal) is nil or {{}}",
                        keys.join(", ")
                    )));
                }
            }
            Ok(out)
        }
        other => Err(mlua::Error::runtime(format!(
            "a validator returns nil (legal) or reasons, not a {}",
            other.type_name()
        ))),
    }
}

/// The function `name` (`validate`, `apply`, `enumerate`) of an action kind, as `kessel.action`
/// registered it.
pub(crate) fn handler(lua: &Lua, kind: &str, name: &str) -> mlua::Result<Option<mlua::Function>> {
    let actions: Table = lua.named_registry_value("kessel_actions")?;
    let Some(entry) = actions.get::<Option<Table>>(kind)? else {
        return Ok(None);
    };
    entry.get::<Option<mlua::Function>>(name)
}

/// The hooks registered under `name` by `kessel.on`, in registration order.
pub(crate) fn hooks(lua: &Lua, name: &str) -> mlua::Result<Vec<mlua::Function>> {
    let all: Table = lua.named_registry_value("kessel_hooks")?;
    let Some(list) = all.get::<Option<Table>>(name)? else {
        return Ok(Vec::new());
    };
    list.sequence_values::<mlua::Function>().collect()
}

/// Calls the hooks registered under `name` with `arg` (used by the sequencer).
pub(crate) fn call_hooks(lua: &Lua, name: &str, arg: mlua::Value) -> mlua::Result<()> {
    for f in hooks(lua, name)? {
        f.call::<()>(arg.clone())?;
    }
    Ok(())
}

/// Refuses a field of `t` not in `known`, naming the nearest known one: a misspelt key fails at the
/// caller's line instead of being ignored. Integer keys are the table's list part, not fields.
pub(crate) fn strict_keys(t: &Table, what: &str, known: &[&str]) -> mlua::Result<()> {
    for pair in t.pairs::<mlua::Value, mlua::Value>() {
        let (k, _) = pair?;
        let name = match &k {
            mlua::Value::String(s) => s.to_string_lossy(),
            mlua::Value::Integer(_) => continue,
            other => format!("[{}]", other.type_name()),
        };
        if known.contains(&name.as_str()) {
            continue;
        }
        return Err(mlua::Error::runtime(format!(
            "{what}: unknown field `{name}`{}; the fields are {}",
            crate::names::did_you_mean(&name, known),
            known.join(", ")
        )));
    }
    Ok(())
}

/// A Lua value in a few words, for "expected X, got Y" messages (never an address).
pub(crate) fn describe_value(v: &mlua::Value) -> String {
    match v {
        mlua::Value::Nil => "nothing".into(),
        mlua::Value::Boolean(b) => b.to_string(),
        mlua::Value::Integer(i) => i.to_string(),
        mlua::Value::Number(n) => n.to_string(),
        mlua::Value::String(s) => {
            let text = s.to_string_lossy();
            match text.char_indices().nth(40) {
                Some((cut, _)) => format!("\"{}…\"", &text[..cut]),
                None => format!("\"{text}\""),
            }
        }
        other => format!("a {}", other.type_name()),
    }
}
