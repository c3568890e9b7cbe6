//! The `kessel.*` Lua API: the one registration point.
//!
//! | module | file | stage |
//! |---|---|---|
//! | `kessel.ruleset`, `.unit_type`, `.terrain`, `.hexside_kind`, `.place_kind`, `.movement`, `.sequence`, `.option`, `.ai_level`, `.action`, `.on`, `.constant`, `.scenario_var` | `declare.rs` | loading the ruleset |
//! | `kessel.results_table`, `.dice_table`, `.word_table` | `declare_tables.rs` | loading the ruleset |
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
//! | `kessel.paths` | `paths.rs` | always |
//! | `kessel.hexset` | `hexset.rs` | always |
//! | `kessel.tables` | `tables.rs` | always |
//! | `kessel.undo`, `.inject_dice`, `.test`, `.state_hash`, `.events` | `script.rs` | `kessel script` / `kessel test` |
//! | `kessel.setup` (a position built inline) | `setup.rs` | `kessel script` / `kessel test` |
//! | `kessel.act`, `.validate`, `.legal` (they drive the engine) | `engine/calls.rs` | `kessel script` / `kessel test` |
//!
//! The calls from Rust into the rules (validators, handlers, enumerators; hooks) live on the engine
//! side (`engine/calls.rs`, `engine/hooks.rs`); this module only registers functions and converts values.
//!
//! Hexes are passed to and from Lua as their printed labels (`"0120"`): plain strings work as table
//! keys, compare with `==` and print as players read them.

mod areas;
mod changes;
mod declare;
mod declare_limits;
mod declare_tables;
mod emit;
mod hex;
mod hexset;
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

pub(crate) use plain::own_fields_only;
pub(crate) use queries::{
    ask as ask_query, declared as declared_queries, declares as declares_query,
};
pub(crate) use script::{events_table, reasons_table, run_test, running, script_only};
pub(crate) use secrets::view_table;
pub(crate) use strings::{list as lua_list, text as key};

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
    hexset::register(lua, &kessel, world)?;
    paths::register(lua, &kessel, world)?;
    tables::register(lua, &kessel, world)?;
    kessel.set("version", env!("CARGO_PKG_VERSION"))?;
    guard_names(lua, &kessel)?;
    name_in_tracebacks(lua, &kessel)?;
    // the engine's own table, kept apart from the global a ruleset may replace
    lua.set_named_registry_value("kessel_api", &kessel)?;
    lua.globals().set("kessel", kessel)?;
    Ok(())
}

/// Adds the script/test-only functions (`kessel.act`, `kessel.setup`, …).
pub fn register_script_api(lua: &Lua, world: &Shared) -> mlua::Result<()> {
    let kessel: Table = lua.named_registry_value("kessel_api")?;
    script::register(lua, &kessel, world)?;
    guard_names(lua, &kessel)?;
    name_in_tracebacks(lua, &kessel)
}

/// Lets Lua's tracebacks name the API's functions by their full names (`kessel.hex.neighbors`
/// instead of `?`), so that an error raised inside one (a table passed where a hex label goes)
/// says which function refused what ([`crate::script::ScriptError`] reads the name there).
///
/// A traceback names a function by looking it up in the table of loaded modules, one level of
/// fields deep: `kessel` and each of its modules are entered there under their dotted names.
/// Scripts never see that table (the sandbox opens no `package` library), and it is read only
/// when a traceback is made, so calls cost nothing more.
///
/// Every table there is a copy made now, not the table scripts use: a traceback looks through
/// each of them for every frame, and Lua makes one for every error an engine function raises, so
/// a script that put a million globals in `_G` (or keys in `kessel.hex`, `string`, …) made each
/// such error a second of work the instruction count never saw (a `pcall` loop of them ran past
/// the time limit by minutes). The copies hold what the library and the API have, which is what
/// a traceback names by these tables; a script's own functions are named by their call.
fn name_in_tracebacks(lua: &Lua, kessel: &Table) -> mlua::Result<()> {
    let copy = |t: &Table| -> mlua::Result<Table> {
        let out = lua.create_table()?;
        for pair in t.pairs::<mlua::Value, mlua::Value>() {
            let (k, v) = pair?;
            out.raw_set(k, v)?;
        }
        Ok(out)
    };
    let loaded: Table = lua.named_registry_value("_LOADED")?;
    let mut libraries = Vec::new();
    for pair in loaded.pairs::<mlua::Value, mlua::Value>() {
        if let (k @ mlua::Value::String(_), mlua::Value::Table(t)) = pair? {
            libraries.push((k, t));
        }
    }
    for (name, table) in libraries {
        // (`kessel` and its modules are copied from the live tables below, each time)
        let is_kessel = matches!(&name, mlua::Value::String(s)
            if s.to_string_lossy() == "kessel" || s.to_string_lossy().starts_with("kessel."));
        if !is_kessel {
            loaded.raw_set(name, copy(&table)?)?;
        }
    }
    loaded.raw_set("kessel", copy(kessel)?)?;
    for pair in kessel.pairs::<mlua::Value, mlua::Value>() {
        if let (mlua::Value::String(name), mlua::Value::Table(module)) = pair? {
            loaded.raw_set(format!("kessel.{}", name.to_string_lossy()), copy(&module)?)?;
        }
    }
    Ok(())
}

/// Makes reading a name the API does not have an error that suggests the nearest one
/// (`kessel.unit` → "did you mean `kessel.units`?"), on `kessel` and each of its modules: a typo
/// fails where it is made instead of as "attempt to index a nil value" further on.
pub(crate) fn guard_names(lua: &Lua, kessel: &Table) -> mlua::Result<()> {
    const MAX_NAMES_NEARBY: usize = 1000;
    const MAX_NAME_NEARBY: usize = 256;
    let guard = |path: String| -> mlua::Result<Table> {
        let mt = lua.create_table()?;
        mt.set(
            "__index",
            function(
                lua,
                move |_, (t, key): (Table, mlua::Value)| -> mlua::Result<()> {
                    let name = match &key {
                        mlua::Value::String(s) => s.to_string_lossy(),
                        other => format!("[{}]", other.type_name()),
                    };
                    // (a name of megabytes is shown by its start and length: the message is
                    // cut at 16 KiB, which left only the name)
                    let what = if name.len() > 64 {
                        let start: String = name.chars().take(40).collect();
                        format!("`{path}.{start}…` (a {}-byte name)", name.len())
                    } else {
                        format!("`{path}.{name}`")
                    };
                    // (the names looked through are bounded: a script that filled `kessel.hex`
                    // with a million keys made each typo a second of work the instruction count
                    // never saw, and a pcall loop of typos ran three times past the time limit;
                    // the API's own modules have a few dozen names)
                    let mut known = Vec::new();
                    for pair in t.pairs::<mlua::Value, mlua::Value>().take(MAX_NAMES_NEARBY) {
                        if let (mlua::Value::String(k), _) = pair? {
                            if k.as_bytes().len() <= MAX_NAME_NEARBY {
                                known.push(k.to_string_lossy());
                            }
                        }
                    }
                    let hint = crate::names::nearest(&name, &known)
                        .map(|n| format!(" (did you mean `{path}.{n}`?)"))
                        .unwrap_or_default();
                    Err(mlua::Error::runtime(format!(
                        "{what} is not part of the Kessel API{hint}"
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
                let mt = guard(format!("kessel.{name}"))?;
                crate::script::strlib::track_metatable(lua, &mt)?;
                module.set_metatable(Some(mt))?;
            }
        }
    }
    if kessel.metatable().is_none() {
        let mt = guard("kessel".into())?;
        crate::script::strlib::track_metatable(lua, &mt)?;
        kessel.set_metatable(Some(mt))?;
    }
    Ok(())
}

/// Units of the instruction budget one call of an API function costs, besides the work it
/// charges by its size: a call is one VM instruction for the count, yet takes as long as a few
/// dozen (reading its arguments, borrowing the world, building the answer), so a loop of cheap
/// reads (`kessel.hex.valid`, a kept `kessel.units.all()`, `s:has(h)`) ran into the wall clock
/// where the budget should stop it, and which of the two errors a runaway script got depended
/// on the machine. (The PGG computer player's dearest decision makes about 12,000 calls among
/// 48 million instructions.)
pub(crate) const CALL_CHARGE: u64 = 64;

/// Units of the budget a die roll costs besides its call's [`CALL_CHARGE`]: each roll sets a
/// ChaCha generator to its place in its stream and makes a fresh block, some eight times the
/// work of a cheap call. A loop of the `ai` hook's `tiebreak(2)` (which emits no event, so no
/// event limit stops it) ran 40 s of a debug build to the budget and met the 10 s wall clock.
pub(crate) const ROLL_CHARGE: u64 = 512;

/// Units of the budget each item of a [`List`] costs besides its strings' bytes.
pub(crate) const LIST_ITEM_CHARGE: u64 = 16;

/// A list a script hands the engine (`Vec<T>` as an argument or a field), charged to the budget
/// before any of it is copied: [`LIST_ITEM_CHARGE`] an item and a unit a byte of its strings.
/// mlua's `Vec<T>` copied the whole table first and the call charged what it got afterwards, if
/// at all: a list of a million references to one 1 MB string (held once by Lua) was a terabyte
/// to copy before anything counted, and a loop handing one large table to a cheap call again and
/// again did unseen work each time.
pub(crate) struct List<T>(pub Vec<T>);

impl<T: mlua::FromLua> mlua::FromLua for List<T> {
    fn from_lua(value: mlua::Value, lua: &Lua) -> mlua::Result<Self> {
        let mlua::Value::Table(t) = value else {
            // (refused as `Vec<T>` is, in the words the error module gives it)
            return Vec::<T>::from_lua(value, lua).map(List);
        };
        // the items read are those before the first nil, never more than the border `raw_len`
        // answers (any border lies at or past the first nil)
        let n = t.raw_len() as u64;
        crate::script::charge(lua, LIST_ITEM_CHARGE.saturating_mul(n))?;
        let mut bytes = 0u64;
        t.for_each_value::<mlua::Value>(|v| {
            if let mlua::Value::String(s) = &v {
                bytes = bytes.saturating_add(s.as_bytes().len() as u64);
            }
            Ok(())
        })?;
        crate::script::charge(lua, bytes)?;
        Vec::<T>::from_lua(mlua::Value::Table(t), lua).map(List)
    }
}

/// A Lua function of the API running `f`, each call charged [`CALL_CHARGE`].
pub(crate) fn function<A, R, F>(lua: &Lua, f: F) -> mlua::Result<mlua::Function>
where
    A: mlua::FromLuaMulti,
    R: mlua::IntoLuaMulti,
    F: Fn(&Lua, A) -> mlua::Result<R> + mlua::MaybeSend + 'static,
{
    lua.create_function(move |lua, args: A| {
        charge_call(lua)?;
        f(lua, args)
    })
}

/// Charges one call of an API function (see [`CALL_CHARGE`]); for methods of the API's
/// userdata, which are not made by [`function`].
pub(crate) fn charge_call(lua: &Lua) -> mlua::Result<()> {
    crate::script::charge(lua, CALL_CHARGE)
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
        function(lua, move |lua, args: A| read(lua, &w.borrow(), args))?,
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
    action_from_lua_sized(lua, value).map(|(a, _)| a)
}

/// The most one action a script or a rule hands the engine may hold (its parameters, roughly as
/// JSON), as the values a rule emits.
pub(crate) const MAX_ACTION_BYTES: usize = 1 << 20;

/// The most the actions one listing (`kessel.legal`, a computer player's choice) may hold
/// together, with 128 bytes an action for its bookkeeping: a list of twenty thousand actions
/// sharing one 900 KB string was copied whole into the engine's memory (Lua keeps the string
/// once).
pub(crate) const MAX_LISTED_BYTES: usize = 64 << 20;

/// Converts a Lua value a script or a rule hands the engine (`what` names it), refusing one over
/// `max` bytes or nested too deep before anything is copied: a table is copied each time it
/// appears, so a list of references to one large table (held once by Lua) would otherwise fill
/// the engine's memory.
pub(crate) fn bounded_from_value(
    lua: &Lua,
    v: mlua::Value,
    what: &str,
    max: usize,
) -> mlua::Result<Value> {
    let (size, unplain) = declare_limits::measure(&v, max as u64 + 1, Some(lua));
    if let Some(u) = unplain {
        return Err(mlua::Error::runtime(format!("{what}: {}", u.describe())));
    }
    if size > max as u64 {
        return Err(mlua::Error::runtime(format!(
            "{what}: over the size limit ({max} bytes, a table appearing N times counted N \
             times) or nested more than {} deep",
            plain::MAX_DEPTH
        )));
    }
    // copied next, a unit a 16 bytes as Lua's own allocations are: a loop handing a cheap call
    // a megabyte each time did work only the wall clock saw
    crate::script::charge(lua, size / 16)?;
    // read as game variables and actions are: a table that mixes a list and fields, or a list
    // that does not start at 1, is refused in words, never cut short (the size is known to be
    // within bounds, which JSON's counting may see a little larger)
    plain::from_lua(lua, &v, what, max.saturating_mul(2).saturating_add(1024))
}

/// [`action_from_lua`], and roughly how many bytes the action holds.
pub(crate) fn action_from_lua_sized(
    lua: &Lua,
    value: mlua::Value,
) -> mlua::Result<(Action, usize)> {
    if !matches!(value, mlua::Value::Table(_)) {
        return Err(mlua::Error::runtime("an action is a table with a `kind`"));
    }
    // measured before it is copied (raw reads; a string counted each time it appears)
    let (size, unplain) = declare_limits::measure(&value, MAX_ACTION_BYTES as u64 + 1, Some(lua));
    if let Some(u) = unplain {
        return Err(mlua::Error::runtime(format!(
            "an action holding {}",
            u.describe()
        )));
    }
    if size > MAX_ACTION_BYTES as u64 {
        return Err(mlua::Error::runtime(format!(
            "an action is over the size limit ({MAX_ACTION_BYTES} bytes, a table appearing N \
             times counted N times) or nests tables more than {} deep",
            plain::MAX_DEPTH
        )));
    }
    crate::script::charge(lua, size / 16)?;
    let size = size as usize + 128;
    // read as game variables are (plain.rs): a table mixing a list and fields, a list with
    // holes or keys that are no names is said as such, not read with parts dropped
    let v: Value = plain::from_lua(lua, &value, "an action", MAX_ACTION_BYTES)?;
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
    Ok((
        Action {
            kind,
            side,
            params: map.into_iter().collect(),
        },
        size,
    ))
}

/// Converts an action to a Lua table (`kind` plus its parameters).
pub(crate) fn action_to_lua(lua: &Lua, action: &Action) -> mlua::Result<Table> {
    let n = action.params.len() + 2;
    let mut pairs = Vec::with_capacity(2 * n);
    for (k, v) in &action.params {
        pairs.push(mlua::Value::String(strings::text(lua, k)?));
        pairs.push(plain::json_to_lua(lua, v)?);
    }
    // set after the parameters, so that they win over a parameter of the same name (as ever)
    pairs.push(mlua::Value::String(strings::intern(lua, "kind")?));
    pairs.push(mlua::Value::String(strings::text(lua, &action.kind)?));
    if let Some(side) = &action.side {
        pairs.push(mlua::Value::String(strings::intern(lua, "side")?));
        pairs.push(mlua::Value::String(strings::text(lua, side)?));
    }
    strings::fill(lua, lua.create_table_with_capacity(0, n)?, pairs)
}

/// Reads reasons returned by a validator: nil/true = legal; a string, a reason table
/// `{rule=, message=}` or a list of them = refused.
pub(crate) fn reasons_from_lua(lua: &Lua, v: mlua::Value) -> mlua::Result<Vec<Reason>> {
    let mut text = ReturnedText::default();
    let mut one = |t: &Table, n: usize| -> mlua::Result<Reason> {
        plain::own_fields_only(lua, t, &format!("reason {n}"))?;
        Ok(Reason {
            rule: text.field(t, "rule", "reason", n)?,
            message: text
                .field(t, "message", "reason", n)?
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
            message: ReturnedText::default().take(&s, "reason", 1)?,
        }]),
        mlua::Value::Table(t) => {
            plain::own_fields_only(lua, &t, "reasons")?;
            if t.contains_key("message")? || t.contains_key("rule")? {
                return Ok(vec![one(&t, 1)?]);
            }
            let mut out = Vec::new();
            for (i, item) in t.sequence_values::<mlua::Value>().enumerate() {
                match item? {
                    mlua::Value::Table(item) => out.push(one(&item, i + 1)?),
                    other => {
                        return Err(mlua::Error::runtime(format!(
                            "reason {}, {}: a reason is {{ rule = …, message = … }}",
                            i + 1,
                            a_type(&other)
                        )))
                    }
                }
            }
            if out.is_empty() {
                // `{ rul = "T1", mesage = "…" }` is neither a reason nor a list of them: refuse it
                // rather than read it as an empty list, which would make the action legal
                let mut keys = Vec::new();
                for pair in t.pairs::<mlua::Value, mlua::Value>().take(1000) {
                    if let (mlua::Value::String(k), _) = pair? {
                        if k.as_bytes().len() <= 64 {
                            keys.push(k.to_string_lossy());
                        }
                    }
                }
                keys.truncate(20);
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
            "{}: a validator returns nil (legal) or reasons",
            a_type(&other)
        ))),
    }
}

/// The most text the engine copies out of what one hook call returned as reasons or problems
/// (their rules, messages and unit ids together, and 64 bytes an item): they are lines for a
/// player to read. A validator returning twenty thousand reasons that all hold the same 900 KB
/// string made the engine copy 18 GB (Lua keeps the string once, each copy in Rust is new).
pub(crate) const MAX_RETURNED_TEXT: usize = 1 << 20;

/// A Lua value's type with its article: "an integer", "a table".
pub(crate) fn a_type(v: &mlua::Value) -> String {
    let t = v.type_name();
    let article = if t.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {t}")
}

/// Copies the strings of returned reasons or problems, within [`MAX_RETURNED_TEXT`] together.
#[derive(Default)]
pub(crate) struct ReturnedText {
    used: usize,
}

impl ReturnedText {
    /// The string `s`, item `n` of a list of `what`s, counted against the limit before it is
    /// copied.
    pub(crate) fn take(
        &mut self,
        s: &mlua::LuaString,
        what: &str,
        n: usize,
    ) -> mlua::Result<String> {
        self.used = self.used.saturating_add(s.as_bytes().len() + 64);
        if self.used > MAX_RETURNED_TEXT {
            return Err(mlua::Error::runtime(format!(
                "{what} {n}: the {what}s returned hold over {MAX_RETURNED_TEXT} bytes of text \
                 together, the limit (they are lines for a player to read)"
            )));
        }
        Ok(s.to_string_lossy())
    }

    /// Field `key` of item `n` of a list of `what`s: nil, or a string (a number is written as
    /// one); anything else is refused naming it.
    pub(crate) fn field(
        &mut self,
        t: &Table,
        key: &str,
        what: &str,
        n: usize,
    ) -> mlua::Result<Option<String>> {
        match t.get::<mlua::Value>(key)? {
            mlua::Value::Nil => Ok(None),
            mlua::Value::String(s) => self.take(&s, what, n).map(Some),
            mlua::Value::Integer(i) => Ok(Some(i.to_string())),
            mlua::Value::Number(x) => Ok(Some(x.to_string())),
            other => Err(mlua::Error::runtime(format!(
                "{what} {n}: its `{key}` is {}, not a string",
                a_type(&other)
            ))),
        }
    }
}

/// The function `name` (`validate`, `apply`, `enumerate`) of an action kind, as `kessel.action`
/// registered it.
pub(crate) fn handler(lua: &Lua, kind: &str, name: &str) -> mlua::Result<Option<mlua::Function>> {
    let actions: Table = lua.named_registry_value("kessel_actions")?;
    let Some(entry) = actions.get::<Option<Table>>(strings::text(lua, kind)?)? else {
        return Ok(None);
    };
    entry.get::<Option<mlua::Function>>(strings::intern(lua, name)?)
}

/// The hooks registered under `name` by `kessel.on`, in registration order.
pub(crate) fn hooks(lua: &Lua, name: &str) -> mlua::Result<Vec<mlua::Function>> {
    let all: Table = lua.named_registry_value("kessel_hooks")?;
    let Some(list) = all.get::<Option<Table>>(strings::intern(lua, name)?)? else {
        return Ok(Vec::new());
    };
    list.sequence_values::<mlua::Function>().collect()
}

/// Calls the hooks registered under `name` with `arg` (used by the sequencer).
pub(crate) fn call_hooks(lua: &Lua, name: &str, arg: mlua::Value) -> mlua::Result<()> {
    for f in hooks(lua, name)? {
        running(
            lua,
            || format!("a `{name}` hook"),
            || f.call::<()>(arg.clone()),
        )?;
    }
    Ok(())
}

/// `true` or `false` from Lua, and nothing else: the bindings' own `bool` takes any value by its
/// truth (`kessel.emit.clock(1, 0, "no")` ended the game).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bool(pub(crate) bool);

impl mlua::FromLua for Bool {
    fn from_lua(v: mlua::Value, _: &Lua) -> mlua::Result<Self> {
        match v {
            mlua::Value::Boolean(b) => Ok(Bool(b)),
            other => Err(mlua::Error::FromLuaConversionError {
                from: other.type_name(),
                to: "boolean".into(),
                message: None,
            }),
        }
    }
}

/// The field `name` of `t` as true or false (absent: `None`); any other value is an error naming
/// the field and `what` reads it.
pub(crate) fn bool_field(t: &Table, name: &str, what: &str) -> mlua::Result<Option<bool>> {
    match t.get::<mlua::Value>(name)? {
        mlua::Value::Nil => Ok(None),
        mlua::Value::Boolean(b) => Ok(Some(b)),
        other => Err(mlua::Error::runtime(format!(
            "{what}: `{name}` is {}, not true or false",
            show_value(&other)
        ))),
    }
}

/// Refuses a field of `t` not in `known`, naming the nearest known one: a misspelt key fails at the
/// caller's line instead of being ignored. A list item is refused as well (`[1]`): none of the
/// tables read this way has a list part, and `{ "blue" }` given for `{ secret_to = "blue" }` made
/// a note public, `kessel.markers.all{ "mines" }` answered every marker.
pub(crate) fn strict_keys(t: &Table, what: &str, known: &[&str]) -> mlua::Result<()> {
    // `for_each` walks the table in one protected call (`pairs` makes one a step); the callback
    // runs no Lua
    t.for_each::<mlua::Value, mlua::Value>(|k, _| {
        let name = match &k {
            mlua::Value::String(s) => s.to_string_lossy(),
            mlua::Value::Integer(i) => format!("[{i}]"),
            other => format!("[{}]", other.type_name()),
        };
        if known.contains(&name.as_str()) {
            return Ok(());
        }
        Err(mlua::Error::runtime(format!(
            "{what}: unknown field `{name}`{}; the fields are {}",
            crate::names::did_you_mean(&name, known),
            known.join(", ")
        )))
    })
}

/// A Lua value in a few words, for "expected X, got Y" messages (never an address).
pub(crate) fn describe_value(v: &mlua::Value) -> String {
    match v {
        mlua::Value::Nil => "nothing".into(),
        mlua::Value::Boolean(b) => b.to_string(),
        mlua::Value::Integer(i) => i.to_string(),
        mlua::Value::Number(n) => shown_number(*n),
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

/// A Lua float as a message shows it: `1e300` in exponent form, as Lua writes it, not Rust's
/// 301 digits.
pub(crate) fn shown_number(x: f64) -> String {
    if x.is_finite() && x.abs() >= 1e16 {
        format!("{x:e}")
    } else {
        x.to_string()
    }
}

/// A value a script handed the engine (a hook's answer, a filter's field), in words.
pub(crate) fn show_value(v: &mlua::Value) -> String {
    use mlua::Value as V;
    match v {
        V::String(s) => format!("the string \"{}\"", s.to_string_lossy()),
        V::Integer(i) => format!("the number {i}"),
        V::Number(n) => format!("the number {}", shown_number(*n)),
        V::Boolean(b) => format!("the boolean {b}"),
        other => format!("a {}", other.type_name()),
    }
}
