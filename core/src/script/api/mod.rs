//! The `kessel.*` Lua API: the one registration point.
//!
//! | module | file | stage |
//! |---|---|---|
//! | `kessel.ruleset`, `.unit_type`, `.terrain`, `.hexside_kind`, `.place_kind`, `.movement`, `.results_table`, `.dice_table`, `.sequence`, `.option`, `.action`, `.on`, `.constant` | `declare.rs` | loading the ruleset |
//! | `kessel.hex` | `hex.rs` | always |
//! | `kessel.map`, `kessel.units`, `kessel.markers`, `kessel.game`, `kessel.scenario` | `query.rs` | always (read-only) |
//! | `kessel.emit`, `kessel.dice` | `emit.rs` | applying an action |
//! | `kessel.paths`, `kessel.hexset` | `paths.rs` | always |
//! | `kessel.tables` | `tables.rs` | always |
//! | `kessel.act`, `.legal`, `.undo`, `.inject_dice`, `.test`, `.setup`, `.state_hash`, `.events` | `script.rs` | `kessel script` / `kessel test` |
//!
//! Hexes are passed to and from Lua as their printed labels (`"0120"`): plain strings work as table
//! keys, compare with `==` and print as players read them.

mod declare;
mod emit;
mod hex;
mod paths;
mod query;
mod script;
mod strings;
mod tables;

use crate::action::{Action, Reason, Rejection};
use crate::engine::{Outcome, Shared, Stage};
use crate::hex::Hex;
use crate::state::Value;
use mlua::{Lua, LuaSerdeExt, Table};

pub(crate) use script::run_test;

/// Registers every module on a fresh host.
pub fn register(lua: &Lua, world: &Shared) -> mlua::Result<()> {
    let kessel = lua.create_table()?;
    lua.set_named_registry_value("kessel_actions", lua.create_table()?)?;
    lua.set_named_registry_value("kessel_hooks", lua.create_table()?)?;
    lua.set_named_registry_value("kessel_tests", lua.create_table()?)?;
    declare::register(lua, &kessel, world)?;
    hex::register(lua, &kessel, world)?;
    query::register(lua, &kessel, world)?;
    emit::register(lua, &kessel, world)?;
    paths::register(lua, &kessel, world)?;
    tables::register(lua, &kessel, world)?;
    kessel.set("version", env!("CARGO_PKG_VERSION"))?;
    lua.globals().set("kessel", kessel)?;
    Ok(())
}

/// Adds the script/test-only functions (`kessel.act`, `kessel.setup`, …).
pub fn register_script_api(lua: &Lua, world: &Shared) -> mlua::Result<()> {
    let kessel: Table = lua.globals().get("kessel")?;
    script::register(lua, &kessel, world)
}

/// Parses a hex label against the current map.
pub(crate) fn hex_of(world: &Shared, label: &str) -> mlua::Result<Hex> {
    if label.len() > 64 {
        // copying a long string in was native work: charge it (no label is this long)
        crate::script::charge_current(label.len() as u64)?;
    }
    let w = world.borrow();
    w.state
        .map
        .parse(label)
        .ok_or_else(|| mlua::Error::runtime(format!("`{label}` is not a hex of this map")))
}

/// Labels of the hexes that lie on the map (neighbours, rings and ranges reach past its edges).
pub(crate) fn on_map_labels(
    map: &crate::map::Map,
    hexes: impl IntoIterator<Item = Hex>,
) -> Vec<String> {
    hexes
        .into_iter()
        .filter(|h| map.contains(*h))
        .map(|h| map.label(h))
        .collect()
}

/// A stored value as Lua sees it: nil when absent.
pub(crate) fn value_or_nil(lua: &Lua, v: Option<&Value>) -> mlua::Result<mlua::Value> {
    match v {
        Some(v) => lua.to_value(v),
        None => Ok(mlua::Value::Nil),
    }
}

/// The label of a hex.
pub(crate) fn label_of(world: &Shared, hex: Hex) -> String {
    world.borrow().state.map.label(hex)
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
    Ok(Action {
        kind,
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
    Ok(t)
}

/// Reads reasons returned by a validator: nil/true = legal; a string, a reason table
/// `{rule=, message=}` or a list of them = refused.
fn reasons_from_lua(v: mlua::Value) -> mlua::Result<Vec<Reason>> {
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
            Ok(out)
        }
        other => Err(mlua::Error::runtime(format!(
            "a validator returns nil (legal) or reasons, not a {}",
            other.type_name()
        ))),
    }
}

fn handler(lua: &Lua, kind: &str, name: &str) -> mlua::Result<Option<mlua::Function>> {
    let actions: Table = lua.named_registry_value("kessel_actions")?;
    let Some(entry) = actions.get::<Option<Table>>(kind)? else {
        return Ok(None);
    };
    entry.get::<Option<mlua::Function>>(name)
}

fn set_stage(world: &Shared, stage: Stage) -> Stage {
    let mut w = world.borrow_mut();
    std::mem::replace(&mut w.stage, stage)
}

/// Runs the action's validator.
pub fn validate(lua: &Lua, world: &Shared, action: &Action) -> mlua::Result<Result<(), Rejection>> {
    let Some(f) = handler(lua, &action.kind, "validate")? else {
        let known: Vec<String> = world
            .borrow()
            .ruleset
            .action_kinds()
            .map(str::to_string)
            .collect();
        return Ok(Err(Rejection {
            reasons: vec![Reason {
                rule: None,
                message: format!(
                    "unknown action `{}` (this ruleset has: {})",
                    action.kind,
                    known.join(", ")
                ),
            }],
        }));
    };
    let t = action_to_lua(lua, action)?;
    let before = set_stage(world, Stage::Query);
    let out = f.call::<mlua::Value>(t);
    set_stage(world, before);
    let reasons = reasons_from_lua(out?)?;
    Ok(if reasons.is_empty() {
        Ok(())
    } else {
        Err(Rejection { reasons })
    })
}

/// Validates and applies an action, recording it; the state is restored if the handler fails.
pub fn act(lua: &Lua, world: &Shared, action: &Action) -> mlua::Result<Outcome> {
    if world.borrow().stage == Stage::Apply {
        return Err(mlua::Error::runtime(
            "an action cannot be taken while another is being applied",
        ));
    }
    if let Err(rejection) = validate(lua, world, action)? {
        return Ok(Err(rejection));
    }
    let Some(apply) = handler(lua, &action.kind, "apply")? else {
        return Err(mlua::Error::runtime(format!(
            "action `{}` has no apply function",
            action.kind
        )));
    };
    let (snapshot, dice) = {
        let w = world.borrow();
        (w.state.clone(), w.dice.clone())
    };
    world.borrow_mut().pending.clear();
    let t = action_to_lua(lua, action)?;
    let before = set_stage(world, Stage::Apply);
    let out = apply.call::<mlua::Value>(t);
    set_stage(world, before);
    let mut w = world.borrow_mut();
    match out {
        Ok(_) => {
            let events = std::mem::take(&mut w.pending);
            w.log.push(crate::event::LogEntry {
                action: action.clone(),
                events: events.clone(),
            });
            Ok(Ok(events))
        }
        Err(e) => {
            w.state = snapshot;
            w.state_replaced();
            w.dice = dice;
            w.pending.clear();
            Err(e)
        }
    }
}

/// Collects every action the ruleset's enumerators offer for a side.
pub fn legal_actions(lua: &Lua, world: &Shared, side: Option<&str>) -> mlua::Result<Vec<Action>> {
    legal_actions_where(lua, world, side, &|_| true)
}

/// Like [`legal_actions`], asking only the enumerators of the kinds `keep` accepts (enumerating
/// every move of every stack can take a large part of a second, and a caller that shows moves
/// another way need not pay for it).
pub fn legal_actions_where(
    lua: &Lua,
    world: &Shared,
    side: Option<&str>,
    keep: &dyn Fn(&str) -> bool,
) -> mlua::Result<Vec<Action>> {
    let actions: Table = lua.named_registry_value("kessel_actions")?;
    let kinds: Vec<String> = world
        .borrow()
        .ruleset
        .action_kinds()
        .filter(|k| keep(k))
        .map(str::to_string)
        .collect();
    let mut out = Vec::new();
    let before = set_stage(world, Stage::Query);
    let result = (|| {
        for kind in kinds {
            let Some(entry) = actions.get::<Option<Table>>(kind.as_str())? else {
                continue;
            };
            let Some(f) = entry.get::<Option<mlua::Function>>("enumerate")? else {
                continue;
            };
            let list: Option<Table> = f.call(side.map(str::to_string))?;
            if let Some(list) = list {
                for item in list.sequence_values::<mlua::Value>() {
                    // an enumerator may leave out `kind`: it is its own action's
                    let item = item?;
                    if let mlua::Value::Table(t) = &item {
                        if !t.contains_key("kind")? {
                            t.set("kind", kind.as_str())?;
                        }
                    }
                    out.push(action_from_lua(lua, item)?);
                }
            }
        }
        Ok(())
    })();
    set_stage(world, before);
    result.map(|_| out)
}

/// Runs a chunk of Lua source read-only (query stage) with `args` as its `...`, and converts what it
/// returns to JSON: a table with string keys becomes an object, a sequence an array, nil null.
/// Tools use it for data the rules derive but no action carries (a movement field's costs, an
/// odds breakdown). The chunk cannot change the game: `kessel.emit` refuses outside apply.
pub fn query(
    lua: &Lua,
    world: &Shared,
    name: &str,
    chunk: &str,
    args: &Value,
) -> mlua::Result<Value> {
    let f = lua
        .load(chunk)
        .set_name(format!("@{name}"))
        .set_mode(mlua::chunk::ChunkMode::Text)
        .into_function()?;
    let a = lua.to_value(args)?;
    let before = set_stage(world, Stage::Query);
    let out = f.call::<mlua::Value>(a);
    set_stage(world, before);
    let v = out?;
    if v.is_nil() {
        return Ok(Value::Null);
    }
    lua.from_value(v)
}

fn hooks(lua: &Lua, name: &str) -> mlua::Result<Vec<mlua::Function>> {
    let all: Table = lua.named_registry_value("kessel_hooks")?;
    let Some(list) = all.get::<Option<Table>>(name)? else {
        return Ok(Vec::new());
    };
    list.sequence_values::<mlua::Function>().collect()
}

/// Runs the ruleset's `check` hooks; each returns a list of `{unit=, message=}` problems.
pub fn call_check_hooks(lua: &Lua, world: &Shared) -> mlua::Result<Vec<(Option<String>, String)>> {
    let mut out = scenario_var_problems(world);
    let before = set_stage(world, Stage::Query);
    let result = (|| {
        for f in hooks(lua, "check")? {
            let returned = f.call::<mlua::Value>(())?;
            out.extend(check_problems(&f, returned)?);
        }
        Ok(())
    })();
    set_stage(world, before);
    result.map(|_| out)
}

/// Scenario variables whose `[vars]` value does not have the type the ruleset declared.
fn scenario_var_problems(world: &Shared) -> Vec<(Option<String>, String)> {
    let w = world.borrow();
    let Some(sc) = &w.scenario else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (id, kind) in &w.ruleset.scenario_vars {
        let Some(v) = sc.vars.get(id) else { continue };
        if let Err(what) = crate::ruleset::scenario_var_fits(kind, v) {
            let at = sc
                .var_lines
                .get(id)
                .map(|l| format!(" (line {l})"))
                .unwrap_or_default();
            out.push((
                None,
                format!("scenario var `{id}`{at} is {what}; the ruleset reads it as {kind}"),
            ));
        }
    }
    out
}

/// The problems a `check` hook returned. Anything but nil or a list of `{unit=, message=}` is an
/// error naming the hook (where it is defined) and what it returned.
fn check_problems(
    f: &mlua::Function,
    v: mlua::Value,
) -> mlua::Result<Vec<(Option<String>, String)>> {
    use mlua::Value as V;
    let info = f.info();
    let show = |v: &V| match v {
        V::String(s) => format!("the string \"{}\"", s.to_string_lossy()),
        V::Integer(i) => format!("the number {i}"),
        V::Number(n) => format!("the number {n}"),
        V::Boolean(b) => format!("the boolean {b}"),
        other => format!("a {}", other.type_name()),
    };
    let bad = |what: String| {
        mlua::Error::runtime(format!(
            "the check hook defined at {}:{} returned {what}; a check hook returns nil or a list of {{unit=, message=}} problems",
            info.short_src.as_deref().unwrap_or("?"),
            info.line_defined.unwrap_or(0)
        ))
    };
    let list = match v {
        V::Nil => return Ok(Vec::new()),
        V::Table(t) => t,
        other => return Err(bad(show(&other))),
    };
    let mut out = Vec::new();
    for (i, item) in list.sequence_values::<V>().enumerate() {
        let item = match item? {
            V::Table(t) => t,
            other => {
                return Err(bad(format!(
                    "a list whose item {} is {}",
                    i + 1,
                    show(&other)
                )))
            }
        };
        let unit = match item.get::<V>("unit")? {
            V::Nil => None,
            V::String(s) => Some(s.to_string_lossy()),
            other => return Err(bad(format!("a problem whose `unit` is {}", show(&other)))),
        };
        let message = match item.get::<V>("message")? {
            V::Nil => "set-up problem".to_string(),
            V::String(s) => s.to_string_lossy(),
            other => {
                return Err(bad(format!(
                    "a problem whose `message` is {}",
                    show(&other)
                )))
            }
        };
        out.push((unit, message));
    }
    Ok(out)
}

/// Runs the ruleset's `setup` hooks with events allowed (they become part of the initial state).
pub fn call_setup_hooks(lua: &Lua, world: &Shared) -> mlua::Result<()> {
    let before = set_stage(world, Stage::Apply);
    let result = (|| {
        for f in hooks(lua, "setup")? {
            f.call::<()>(())?;
        }
        Ok(())
    })();
    set_stage(world, before);
    result
}

/// Calls the hooks registered under `name` with `arg` (used by the sequencer).
pub(crate) fn call_hooks(lua: &Lua, name: &str, arg: mlua::Value) -> mlua::Result<()> {
    for f in hooks(lua, name)? {
        f.call::<()>(arg.clone())?;
    }
    Ok(())
}

/// What the ruleset's `odds` hook made of a combat: modified strengths, a column shift and the
/// modifiers it applied, each with its rule.
#[derive(Clone, Debug, PartialEq)]
pub struct OddsModifiers {
    /// Attack strength after modifiers.
    pub attack: i32,
    /// Defence strength after modifiers.
    pub defence: i32,
    /// Column shift.
    pub shift: i32,
    /// Each modifier applied.
    pub notes: Vec<Reason>,
}

/// Calls the ruleset's `odds` hook (if any) with raw strengths and modifier flags.
pub fn call_odds_hook(
    lua: &Lua,
    world: &Shared,
    attack: i32,
    defence: i32,
    flags: &[String],
) -> mlua::Result<OddsModifiers> {
    let mut out = OddsModifiers {
        attack,
        defence,
        shift: 0,
        notes: Vec::new(),
    };
    let before = set_stage(world, Stage::Query);
    let result = (|| {
        for f in hooks(lua, "odds")? {
            let t: Table = f.call((out.attack, out.defence, flags.to_vec()))?;
            out.attack = t.get::<Option<i32>>("attack")?.unwrap_or(out.attack);
            out.defence = t.get::<Option<i32>>("defence")?.unwrap_or(out.defence);
            out.shift += t.get::<Option<i32>>("shift")?.unwrap_or(0);
            if let Some(notes) = t.get::<Option<mlua::Value>>("modifiers")? {
                out.notes.extend(reasons_from_lua(notes)?);
            }
        }
        Ok(())
    })();
    set_stage(world, before);
    result.map(|_| out)
}

/// Asks the ruleset's `ai` hook for the next action; `None` when the ruleset has no AI or the hook
/// has no opinion.
///
/// The hook is called as `hook(legal, kinds)`: `legal(kind)` runs the enumerators of one action
/// kind (every kind when `kind` is nil) and returns what they list, `kinds` names the action
/// kinds in declaration order. The hook returns one of the listed action tables. So a computer
/// player asks only for the kinds it is weighing (listing every move of every stack before each
/// choice is most of a simulated game's time), and still picks only what the rules enumerate:
/// an action that no `legal` call of this hook listed is refused here, and the caller then
/// validates the choice like a player's.
pub fn call_ai_hook(lua: &Lua, world: &Shared) -> mlua::Result<Option<Action>> {
    let Some(f) = hooks(lua, "ai")?.into_iter().next() else {
        return Ok(None);
    };
    let listed = std::rc::Rc::new(std::cell::RefCell::new(Vec::<Action>::new()));
    let kinds: Vec<String> = world
        .borrow()
        .ruleset
        .action_kinds()
        .map(str::to_string)
        .collect();
    let w = world.clone();
    let seen = listed.clone();
    let legal = lua.create_function(move |lua, kind: Option<String>| {
        let list = legal_actions_where(lua, &w, None, &|k| {
            kind.as_deref().is_none_or(|wanted| wanted == k)
        })?;
        let out = lua.create_table_with_capacity(list.len(), 0)?;
        for a in &list {
            out.raw_push(action_to_lua(lua, a)?)?;
        }
        seen.borrow_mut().extend(list);
        Ok(out)
    })?;
    let before = set_stage(world, Stage::Query);
    let out = f.call::<mlua::Value>((legal, kinds));
    set_stage(world, before);
    let out = out?;
    if out.is_nil() {
        return Ok(None);
    }
    let action = action_from_lua(lua, out)?;
    if !listed.borrow().contains(&action) {
        return Err(mlua::Error::runtime(format!(
            "the ai hook chose a `{}` action that no `legal` call listed: {}",
            action.kind,
            serde_json::to_string(&action).unwrap_or_default()
        )));
    }
    Ok(Some(action))
}

/// The ruleset's `result` hook: how the game stands (`{ level = "...", scores = { side = n } }`).
pub fn call_result_hook(lua: &Lua, world: &Shared) -> mlua::Result<Option<Value>> {
    let Some(f) = hooks(lua, "result")?.into_iter().next() else {
        return Ok(None);
    };
    let before = set_stage(world, Stage::Query);
    let out = f.call::<mlua::Value>(());
    set_stage(world, before);
    let v = out?;
    if v.is_nil() {
        return Ok(None);
    }
    Ok(Some(lua.from_value(v)?))
}
