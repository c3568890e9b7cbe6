//! Script- and test-only API: `kessel.act`, `.legal`, `.validate`, `.undo`, `.inject_dice`,
//! `.setup` (build a position inline, in `setup.rs`), `.test`, `.events`, `.state_hash`, `.replay_hash`, `.expect`.

use crate::event::Event;
use crate::world::{Shared, Stage};
use mlua::{Function, Lua, LuaSerdeExt, Table};

/// The most rolls `kessel.inject_dice` keeps queued at once.
pub(crate) const MAX_INJECTED: usize = 1 << 16;

/// Reasons as a Lua list of `{rule=, message=}`.
pub(crate) fn reasons_table(lua: &Lua, reasons: &[crate::action::Reason]) -> mlua::Result<Table> {
    let out = lua.create_table()?;
    for r in reasons {
        let t = lua.create_table()?;
        t.set("rule", r.rule.as_deref())?;
        t.set("message", r.message.as_str())?;
        out.push(t)?;
    }
    Ok(out)
}

/// Events as Lua tables, hexes as labels.
pub(crate) fn events_table(lua: &Lua, world: &Shared, events: &[Event]) -> mlua::Result<Table> {
    let out = lua.create_table()?;
    let map = world.borrow().state.map.clone();
    for e in events {
        // hexes as labels, as everywhere else in Lua
        let t: Table = match lua.to_value(&e.labelled(&map))? {
            mlua::Value::Table(t) => t,
            _ => lua.create_table()?,
        };
        out.push(t)?;
    }
    Ok(out)
}

/// The longest name a Lua test may have (the rulesets' longest are under 100).
const MAX_TEST_NAME: usize = 200;

const PRELUDE: &str = r#"
-- (what the checks call was taken when the sandbox was made, before any rules or test file ran,
-- and is handed in: a file that defines its own global `error` or `tostring`, rules included,
-- must not turn failed checks into passes)
local P, kessel = ...
local error, type, tostring, pairs, ipairs = P.error, P.type, P.tostring, P.pairs, P.ipairs
local sort, concat, find, format = P.sort, P.concat, P.find, P.format
local abs, huge = P.abs, P.huge
local expect = {}
local function show(v)
  if type(v) == "table" then
    local parts = {}
    for k, x in pairs(v) do parts[#parts + 1] = tostring(k) .. "=" .. tostring(x) end
    sort(parts)
    return "{" .. concat(parts, ", ") .. "}"
  end
  return tostring(v)
end
-- a value in a failure: strings quoted when the other side is no string, so "1" and 1 differ
local function shown(v, other)
  if type(v) == "string" and type(other) ~= "string" then return format("%q", v) end
  return show(v)
end
-- what a check is about, before its failure (any value; a string as it is)
local function about(what)
  if what == nil then return "" end
  if type(what) == "string" then return what .. ": " end
  return show(what) .. ": "
end
function expect.eq(actual, expected, what)
  if actual ~= expected then
    error(about(what) .. "expected " .. shown(expected, actual) .. ", got " .. shown(actual, expected), 2)
  end
end
function expect.truthy(v, what)
  if not v then error((what ~= nil and show(what) or "expected a true value") .. ", got " .. show(v), 2) end
end
function expect.falsy(v, what)
  if v then error((what ~= nil and show(what) or "expected a false value") .. ", got " .. show(v), 2) end
end
-- (a NaN is near nothing: `x - nan > eps` is false, so the comparison is made the other way;
-- an infinity is near itself only)
function expect.near(actual, expected, eps, what)
  if type(expected) ~= "number" or expected ~= expected then
    error("expect.near: the expected value must be a number, got " .. shown(expected, 0), 2)
  end
  eps = eps or 1e-9
  if type(eps) ~= "number" or not (eps >= 0) or eps == huge then
    error("expect.near: the tolerance must be a finite number of 0 or more, got " .. shown(eps, 0), 2)
  end
  if actual == expected then return end
  if type(actual) ~= "number" or not (abs(actual - expected) <= eps) then
    error(about(what) .. "expected about " .. show(expected) .. ", got " .. shown(actual, expected), 2)
  end
end
-- a reason as a failure shows it: its message and, when it cites one, its rule case
local function reason_text(r)
  if type(r) ~= "table" then return show(r) end
  return show(r.message or "?") .. (r.rule ~= nil and (" [" .. tostring(r.rule) .. "]") or "")
end
-- an action refused with a reason citing `rule` (and whose text contains `text`, if given)
function expect.refused(ok, reasons, rule, text)
  if ok then error("expected the action to be refused, but it was accepted", 2) end
  if type(reasons) ~= "table" then
    error("expect.refused: give it what the action returned (ok, reasons), got reasons = " .. show(reasons), 2)
  end
  for _, r in ipairs(reasons) do
    if type(r) == "table" and (rule == nil or r.rule == rule)
      and (text == nil or (type(r.message) == "string" and find(r.message, tostring(text), 1, true))) then
      return r
    end
  end
  local got = {}
  for _, r in ipairs(reasons) do got[#got + 1] = reason_text(r) end
  error("expected a refusal citing [" .. tostring(rule) .. "]" .. (text ~= nil and (" with '" .. tostring(text) .. "'") or "") ..
    ", got: " .. concat(got, "; "), 2)
end
function expect.accepted(ok, info)
  if not ok then
    if type(info) ~= "table" then
      error("expected the action to be accepted, got a refusal without reasons: " .. show(info), 2)
    end
    local got = {}
    for _, r in ipairs(info) do got[#got + 1] = reason_text(r) end
    error("expected the action to be accepted, got: " .. concat(got, "; "), 2)
  end
  return info
end
P.rawset(kessel, "expect", expect)
"#;

/// The engine's calls into the rules running now (a validator, an enumerator, an apply
/// function, a hook), innermost last, in words: a script function that drives the engine refuses
/// to run inside one and names it (see [`script_only`]).
#[derive(Default)]
pub(crate) struct Running(Vec<String>);

/// Runs `f`, a call of the engine into the rules that `what` names ("the enumerator of `move`"),
/// as the innermost [`Running`] call.
pub(crate) fn running<T>(
    lua: &Lua,
    what: impl FnOnce() -> String,
    f: impl FnOnce() -> mlua::Result<T>,
) -> mlua::Result<T> {
    let what = what();
    let unpushed = match lua.app_data_mut::<Running>() {
        Some(mut r) => {
            r.0.push(what);
            None
        }
        None => Some(what),
    };
    if let Some(what) = unpushed {
        lua.set_app_data(Running(vec![what]));
    }
    let out = f();
    if let Some(mut r) = lua.app_data_mut::<Running>() {
        r.0.pop();
    }
    out
}

/// `kessel.act`, `.validate`, `.legal`, `.undo`, `.setup` and `.inject_dice` drive the game from outside; rules
/// code (validators, enumerators, handlers, hooks) calling them would change the game behind the
/// engine's back, or re-enter the rules without end (an enumerator calling `kessel.legal` ran
/// into Lua's "C stack overflow"). Refused with the rules call it came from.
/// The innermost rules call the engine is running now ("a search of kessel.paths.reach"), if any.
pub(crate) fn innermost_call(lua: &Lua) -> Option<String> {
    lua.app_data_ref::<Running>()
        .and_then(|r| r.0.last().cloned())
}

pub(crate) fn script_only(lua: &Lua, world: &Shared, what: &str) -> mlua::Result<()> {
    let stage = world.borrow().stage();
    // a hook run from a script's own event (`kessel.emit` in a test) runs in the script's stage:
    // still rules code
    let callback = innermost_call(lua);
    if stage == Stage::Script && callback.is_none() {
        return Ok(());
    }
    let inside = callback.unwrap_or_else(|| {
        match stage {
            Stage::Declare => "the rules' loading",
            Stage::Apply => "an action's application",
            _ => "a read-only call of the rules",
        }
        .to_string()
    });
    Err(mlua::Error::runtime(format!(
        "kessel.{what} is for scripts and tests, not for rules code: called from inside {inside}, \
         it would re-enter the engine (a rules callback cannot drive the game)"
    )))
}

pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    let w = world.clone();
    kessel.raw_set(
        "undo",
        super::function(lua, move |lua, ()| {
            script_only(lua, &w, "undo")?;
            // the log before the last action is applied again, as by `kessel.replay_hash`
            charge_per_logged_event(lua, &w)?;
            let undone = w.borrow_mut().undo_last();
            undone.map_err(|e| mlua::Error::runtime(e.to_string()))
        })?,
    )?;
    let w = world.clone();
    kessel.raw_set(
        "inject_dice",
        super::function(lua, move |lua, rolls: mlua::Value| {
            // the game's next rolls are the script's to set, not the rules': a validator or a
            // query doing it in a test changed the rolls the test went on to see
            script_only(lua, &w, "inject_dice")?;
            // the queue is engine memory no limit sees: a loop queueing a million rolls a call
            // held half a gigabyte by the budget's end (a test queues the few rolls it checks).
            // Measured on the table before its rolls are copied: a table of ten million rolls
            // was copied whole, then refused
            let asked = match &rolls {
                mlua::Value::Table(t) => t.raw_len(),
                _ => 0,
            };
            let queued = w.borrow().dice.injected_left();
            if queued.saturating_add(asked) > MAX_INJECTED {
                return Err(mlua::Error::runtime(format!(
                    "kessel.inject_dice: {} rolls would wait in the queue, more than {MAX_INJECTED} \
                     (a test queues the rolls it checks; roll the queued ones first)",
                    queued.saturating_add(asked)
                )));
            }
            let super::List(rolls) = <super::List<i64> as mlua::FromLua>::from_lua(rolls, lua)?;
            // a die shows 1 and up: a 0 (or -1) was queued and read by the tables as their
            // first row; one too high for its die is refused when rolled, where the die is known
            let rolls = rolls
                .iter()
                .enumerate()
                .map(|(i, &r)| {
                    u32::try_from(r).ok().filter(|r| *r >= 1).ok_or_else(|| {
                        let why = if r < 1 {
                            "a die shows 1 and up (rolls are queued as the die shows them, \
                             before modifiers)"
                                .to_string()
                        } else {
                            // (it said "a die shows 1 and up" of a roll of 2^62)
                            format!("no die has that many sides (at most {})", u32::MAX)
                        };
                        mlua::Error::runtime(format!(
                            "kessel.inject_dice: roll {} is {r}; {why}",
                            i + 1
                        ))
                    })
                })
                .collect::<mlua::Result<Vec<u32>>>()?;
            let mut world = w.borrow_mut();
            world.dice.inject(rolls);
            world.changed_outside_actions = true;
            Ok(())
        })?,
    )?;
    let w = world.clone();
    kessel.raw_set(
        "setup",
        super::function(lua, move |lua, spec: Table| {
            script_only(lua, &w, "setup")?;
            // the table is read through its metamethods, which may call back: a set-up (or an
            // action, an undo) made from its `__index` was overwritten by this one half-read,
            // or replaced it, and the call still answered as if its own had been made. Read as
            // a rules call, read-only: driving the engine or changing the game from there is
            // refused (the set-up writes its position itself, not through events)
            running(
                lua,
                || "kessel.setup reading its table".into(),
                || {
                    let _read_only = crate::world::StageGuard::enter(&w, Stage::Query);
                    super::setup::setup(lua, &w, spec)
                },
            )
            .inspect(|_| w.borrow_mut().changed_outside_actions = true)
        })?,
    )?;
    let w = world.clone();
    kessel.raw_set(
        "test",
        super::function(lua, move |lua, (name, f): (String, Function)| {
            // tests are collected when their file loads and run afterwards: one defined while a
            // test runs would never run, and the suite would pass without it
            if let Some(running) = lua.app_data_ref::<RunningTest>() {
                return Err(mlua::Error::runtime(format!(
                    "kessel.test(\"{}\") inside test `{}`: define tests at the top level of a \
                     test file (this one would never run)",
                    crate::error::printable_name(&name),
                    crate::error::printable_name(&running.0)
                )));
            }
            // a name is what `--filter` picks and a report lists: an empty one named nothing, and
            // one of 100 KB filled a terminal with one line
            if name.trim().is_empty() {
                return Err(mlua::Error::runtime(
                    "kessel.test: a test needs a name (its first argument is empty)",
                ));
            }
            if name.chars().count() > MAX_TEST_NAME {
                return Err(mlua::Error::runtime(format!(
                    "kessel.test: a test's name is at most {MAX_TEST_NAME} characters, this one {}",
                    name.chars().count()
                )));
            }
            let tests: Table = lua.named_registry_value("kessel_tests")?;
            if tests.contains_key(name.as_str())? {
                return Err(mlua::Error::runtime(format!(
                    "test `{}` is defined twice",
                    crate::error::printable_name(&name)
                )));
            }
            tests.set(name.as_str(), f)?;
            w.borrow_mut().tests.push(name);
            Ok(())
        })?,
    )?;
    let w = world.clone();
    kessel.raw_set(
        "events",
        super::function(lua, move |lua, ()| {
            charge_per_logged_event(lua, &w)?;
            let all: Vec<Event> = w
                .borrow()
                .log
                .iter()
                .flat_map(|e| e.events.clone())
                .collect();
            events_table(lua, &w, &all)
        })?,
    )?;
    let w = world.clone();
    kessel.raw_set(
        "state_hash",
        super::function(lua, move |lua, ()| hash_text(lua, &w.borrow().state))?,
    )?;
    let w = world.clone();
    kessel.raw_set(
        "replay_hash",
        super::function(lua, move |lua, ()| {
            // the whole log is applied again, an event at a time
            charge_per_logged_event(lua, &w)?;
            let replayed = w.borrow().replayed();
            let state = replayed.map_err(|e| mlua::Error::runtime(e.to_string()))?;
            hash_text(lua, &state)
        })?,
    )?;
    let pristine: Table = lua.named_registry_value("kessel_pristine")?;
    lua.load(PRELUDE)
        .set_name("=kessel prelude")
        .set_mode(mlua::chunk::ChunkMode::Text)
        .call::<()>((pristine, kessel))?;
    Ok(())
}

/// Charges work done once for each event of the game's log (listing it, applying it again).
fn charge_per_logged_event(lua: &Lua, world: &Shared) -> mlua::Result<()> {
    let count: usize = world.borrow().log.iter().map(|e| e.events.len()).sum();
    crate::script::charge(lua, 64 * count as u64)
}

/// Charges hashing `bytes` of a state's canonical text, eight units a byte, a piece at a time as
/// it is made (`GameState::hash_charged`): each piece is built into a JSON tree and written out,
/// about 0.1 µs a byte of text in a debug build (0.5 s for 20,000 units), the time of some eight
/// cheap instructions. A loop of `kessel.state_hash()`
/// paid one call's charge each and ran into the wall clock where the budget should stop it
/// (after a minute and more, before `Meter::check` read the clock).
fn charge_hashing(lua: &Lua, bytes: usize) -> mlua::Result<()> {
    crate::script::charge(lua, 8 * bytes as u64)
}

/// A state's hash as scripts see it, charged in blocks of 64 KiB of its text as the text is made
/// (a charge reads the clock: one for each unit's piece would cost more than hashing it).
fn hash_text(lua: &Lua, state: &crate::state::GameState) -> mlua::Result<String> {
    let mut pending = 0;
    let (hash, _) = state.hash_charged(|n| {
        pending += n;
        if pending < 1 << 16 {
            return Ok(());
        }
        charge_hashing(lua, std::mem::take(&mut pending))
    })?;
    charge_hashing(lua, pending)?;
    Ok(format!("{hash:016x}"))
}

/// The test running now (see `kessel.test`).
struct RunningTest(String);

/// Runs one registered test.
pub(crate) fn run_test(lua: &Lua, name: &str) -> mlua::Result<()> {
    let tests: Table = lua.named_registry_value("kessel_tests")?;
    let f: Function = tests
        .get::<Option<Function>>(name)?
        .ok_or_else(|| mlua::Error::runtime(format!("no test `{name}`")))?;
    lua.set_app_data(RunningTest(name.to_string()));
    let out = f.call::<()>(());
    lua.remove_app_data::<RunningTest>();
    out
}
