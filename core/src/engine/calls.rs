//! The engine's calls into the rules: validators, handlers, enumerators and read-only chunks (the
//! hooks' calls are in `hooks.rs`). Each runs under a [`StageGuard`] that says what the Lua side
//! may do meanwhile.
//!
//! Also the script functions that drive the engine from Lua (`kessel.act`, `kessel.validate`,
//! `kessel.legal`), since they are these calls seen from a script.

use crate::action::{Action, Reason, Rejection};
use crate::script::api::{
    action_from_lua, action_from_lua_sized, action_to_lua, bounded_from_value, events_table,
    handler, key, own_fields_only, reasons_from_lua, reasons_table, running, script_only,
    show_value, MAX_LISTED_BYTES,
};
use crate::state::Value;
use crate::world::{Shared, Stage, StageGuard};
use mlua::{Lua, LuaSerdeExt, Table};

use super::Outcome;

/// The side whose decision it is (see [`crate::engine::Engine::deciding_side`]).
pub fn deciding_side(lua: &Lua, world: &Shared) -> Option<String> {
    if matches!(
        crate::script::api::declares_query(lua, "deciding_side"),
        Ok(true)
    ) {
        let empty = Value::Object(Default::default());
        match crate::script::api::ask_query(lua, world, "deciding_side", &empty) {
            Ok(Value::String(side)) => return Some(side),
            Ok(Value::Null) => return None,
            // a faulty answer: the conventions below still name a side
            _ => {}
        }
    }
    let w = world.borrow();
    let pending = w.state.vars.get("pending").and_then(|p| p.get("side"));
    if let Some(side) = pending.and_then(|s| s.as_str()) {
        return Some(side.to_string());
    }
    w.current_step().and_then(|s| s.side.clone())
}

/// The action as sent: with its own side, or else the deciding side's.
fn sent(lua: &Lua, world: &Shared, action: &Action) -> Action {
    let mut a = action.clone();
    if a.side.is_none() {
        a.side = deciding_side(lua, world);
    }
    a
}

/// Runs the action's validator; an action that names no side is the deciding side's.
pub fn validate(lua: &Lua, world: &Shared, action: &Action) -> mlua::Result<Result<(), Rejection>> {
    validate_sent(lua, world, &sent(lua, world, action))
}

/// Runs the validator of an action whose side is settled.
fn validate_sent(
    lua: &Lua,
    world: &Shared,
    action: &Action,
) -> mlua::Result<Result<(), Rejection>> {
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
                    "unknown action `{}`{} (this ruleset has: {})",
                    action.kind,
                    crate::names::did_you_mean(&action.kind, &known),
                    known.join(", ")
                ),
            }],
        }));
    };
    let t = action_to_lua(lua, action)?;
    // what the validator returned is read in the query stage too: a metamethod of the table it
    // returned ran while the engine read it, and could change the game from a validator
    let guard = StageGuard::enter(world, Stage::Query);
    let reasons = running(
        lua,
        || format!("the validator of `{}`", action.kind),
        || {
            f.call::<mlua::Value>(t)
                .and_then(|out| returned(&f, "validator", reasons_from_lua(lua, out)))
        },
    );
    drop(guard);
    let reasons = reasons?;
    Ok(if !reasons.is_empty() {
        // the rules' own refusal, with their case, even after the end
        Err(Rejection { reasons })
    } else if let Some(side) = unknown_side(world, action) {
        // a side the ruleset lacks sends nothing, whatever a validator that reads the side only
        // when it matters says: a save edited by hand (`"side": "green"`) replayed as if green
        // had moved red's units
        Err(Rejection {
            reasons: vec![Reason {
                rule: None,
                message: side,
            }],
        })
    } else if world.borrow().state.finished {
        // an ended game is final whatever the rules would allow: nothing is listed, nothing taken
        Err(Rejection {
            reasons: vec![Reason {
                rule: None,
                message: "the game is over: no action is taken after its end".into(),
            }],
        })
    } else {
        Ok(())
    })
}

/// Why an action's side is none of the game's, if it is not: not a side of the ruleset, or one
/// the scenario's `sides` leaves out.
fn unknown_side(world: &Shared, action: &Action) -> Option<String> {
    let side = action.side.as_ref()?;
    let w = world.borrow();
    let sides = &w.state.sides;
    if sides.is_empty() || sides.contains(side) {
        return None;
    }
    Some(if w.ruleset.sides.contains(side) {
        format!(
            "`{}` takes no part in this scenario (its sides: {})",
            crate::error::printable_name(side),
            sides.join(", ")
        )
    } else {
        format!(
            "`{}` is not a side of this ruleset (its sides: {})",
            crate::error::printable_name(side),
            sides.join(", ")
        )
    })
}

/// Validates and applies an action, recording it with the side that sent it (the action's own
/// `side`, else the deciding side); the state is restored if the handler fails.
pub fn act(lua: &Lua, world: &Shared, action: &Action) -> mlua::Result<Outcome> {
    if world.borrow().stage() == Stage::Apply {
        return Err(mlua::Error::runtime(
            "an action cannot be taken while another is being applied",
        ));
    }
    let sent_action;
    let action = if action.side.is_some() {
        action
    } else {
        sent_action = sent(lua, world, action);
        &sent_action
    };
    if let Err(rejection) = validate_sent(lua, world, action)? {
        return Ok(Err(rejection));
    }
    let Some(apply) = handler(lua, &action.kind, "apply")? else {
        return Err(mlua::Error::runtime(format!(
            "action `{}` has no apply function",
            action.kind
        )));
    };
    let t = action_to_lua(lua, action)?;
    let dice = {
        let mut w = world.borrow_mut();
        w.begin_action();
        w.pending.clear();
        w.dice.clone()
    };
    let guard = StageGuard::enter(world, Stage::Apply);
    let out = running(
        lua,
        || format!("the apply function of `{}`", action.kind),
        || apply.call::<mlua::Value>(t),
    );
    drop(guard);
    let mut w = world.borrow_mut();
    match out {
        Ok(_) => {
            w.end_action();
            let events = std::mem::take(&mut w.pending);
            w.log.push(crate::event::LogEntry {
                action: action.clone(),
                events: events.clone(),
            });
            Ok(Ok(events))
        }
        Err(e) => {
            w.abandon_action(dice);
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
    listing(lua, world, side, keep).map(|(list, _)| list)
}

/// [`legal_actions_where`], and about how many bytes of the engine's memory the list holds.
pub(super) fn listing(
    lua: &Lua,
    world: &Shared,
    side: Option<&str>,
    keep: &dyn Fn(&str) -> bool,
) -> mlua::Result<(Vec<Action>, usize)> {
    if world.borrow().state.finished {
        return Ok((Vec::new(), 0));
    }
    let actions: Table = lua.named_registry_value("kessel_actions")?;
    let kinds: Vec<String> = world
        .borrow()
        .ruleset
        .action_kinds()
        .filter(|k| keep(k))
        .map(str::to_string)
        .collect();
    let mut out = Vec::new();
    let mut listed = 0usize;
    let guard = StageGuard::enter(world, Stage::Query);
    let result = (|| {
        // kept Lua strings as keys: a `&str` key is a new Lua string per read (see `strings.rs`)
        let (enumerate, kind_key) = (key(lua, "enumerate")?, key(lua, "kind")?);
        for kind in kinds {
            let Some(entry) = actions.get::<Option<Table>>(key(lua, &kind)?)? else {
                continue;
            };
            let Some(f) = entry.get::<Option<mlua::Function>>(&enumerate)? else {
                continue;
            };
            let list = running(
                lua,
                || format!("the enumerator of `{kind}`"),
                || f.call::<mlua::Value>(side.map(str::to_string)),
            )?;
            let list = match list {
                mlua::Value::Nil => None,
                mlua::Value::Table(t) => {
                    returned(&f, "enumerator", own_fields_only(lua, &t, "its list"))?;
                    Some(t)
                }
                other => {
                    return Err(mlua::Error::runtime(format!(
                        "{}: the enumerator of `{kind}` defined here returned {}; an enumerator \
                         returns a list of actions, or nil for none",
                        hook_place(&f),
                        show_value(&other)
                    )))
                }
            };
            if let Some(list) = list {
                for (i, item) in list.sequence_values::<mlua::Value>().enumerate() {
                    // an enumerator may leave out `kind`: it is its own action's
                    let item = item?;
                    if let mlua::Value::Table(t) = &item {
                        // read before `kind` is set in it: a proxy's `__newindex` would run
                        returned(
                            &f,
                            "enumerator",
                            own_fields_only(lua, t, &format!("action {} of its list", i + 1)),
                        )?;
                        if !t.contains_key(&kind_key)? {
                            t.set(&kind_key, key(lua, &kind)?)?;
                        }
                    }
                    // (said as the item it is: "returned action 2 of its list: an action needs
                    // `kind`", not "returned an action needs `kind`")
                    let read = action_from_lua_sized(lua, item).map_err(|e| match e {
                        mlua::Error::RuntimeError(m) => {
                            mlua::Error::runtime(format!("action {} of its list: {m}", i + 1))
                        }
                        other => other,
                    });
                    let (action, size) = returned(&f, "enumerator", read)?;
                    listed = listed.saturating_add(size);
                    if listed > MAX_LISTED_BYTES {
                        return Err(mlua::Error::runtime(format!(
                            "{}: the enumerator of `{kind}` defined here: the actions listed hold \
                             over {MAX_LISTED_BYTES} bytes together ({} actions so far), the \
                             limit for one listing",
                            hook_place(&f),
                            out.len() + 1
                        )));
                    }
                    out.push(action);
                }
            }
        }
        Ok(())
    })();
    drop(guard);
    result.map(|_| (out, listed))
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
    // the answer is read in the query stage too (its metamethods run while it is read)
    let guard = StageGuard::enter(world, Stage::Query);
    let out = running(
        lua,
        || format!("the read-only chunk `{name}`"),
        || {
            f.call::<mlua::Value>(a)
                .and_then(|v| bounded_from_value(lua, v, "the query's answer", MAX_ANSWER_BYTES))
        },
    );
    drop(guard);
    out
}

/// The most a query's or the `result` hook's answer may hold, roughly as JSON: a tool asks for
/// a map's worth of data (a movement field of every hex) at most.
pub(super) const MAX_ANSWER_BYTES: usize = 16 << 20;

/// The most characters of an action an error quotes.
pub(crate) const QUOTED_ACTION: usize = 400;

/// What a hook returned, as the engine read it: an error reading it (a reason that is no table,
/// text over the limit, a metamethod's error) is said at the hook's definition.
pub(super) fn returned<T>(
    f: &mlua::Function,
    hook: &str,
    read: mlua::Result<T>,
) -> mlua::Result<T> {
    read.map_err(|e| match e {
        mlua::Error::RuntimeError(m) => mlua::Error::runtime(format!(
            "{}: the {hook} defined here returned {m}",
            hook_place(f)
        )),
        other => other,
    })
}

/// Where a hook is defined, `file:line`, for errors about what it returned.
pub(super) fn hook_place(f: &mlua::Function) -> String {
    let info = f.info();
    format!(
        "{}:{}",
        info.short_src.as_deref().unwrap_or("?"),
        info.line_defined.unwrap_or(0)
    )
}

/// Registers the script functions that drive the engine: `kessel.act`, `kessel.validate`,
/// `kessel.legal` (scripts and tests only).
pub(crate) fn register_script_drivers(lua: &Lua, world: &Shared) -> mlua::Result<()> {
    // the engine's own `kessel` table, written past any metatable a ruleset gave it
    let kessel: Table = lua.named_registry_value("kessel_api")?;
    let w = world.clone();
    kessel.raw_set(
        "act",
        crate::script::api::function(lua, move |lua, a: mlua::Value| {
            script_only(lua, &w, "act")?;
            let action = action_from_lua(lua, a)?;
            match act(lua, &w, &action)? {
                Ok(events) => Ok((true, events_table(lua, &w, &events)?)),
                Err(rej) => Ok((false, reasons_table(lua, &rej.reasons)?)),
            }
        })?,
    )?;
    let w = world.clone();
    kessel.raw_set(
        "validate",
        crate::script::api::function(lua, move |lua, a: mlua::Value| {
            script_only(lua, &w, "validate")?;
            let action = action_from_lua(lua, a)?;
            match validate(lua, &w, &action)? {
                Ok(()) => Ok((true, lua.create_table()?)),
                Err(rej) => Ok((false, reasons_table(lua, &rej.reasons)?)),
            }
        })?,
    )?;
    let w = world.clone();
    kessel.raw_set(
        "legal",
        crate::script::api::function(lua, move |lua, side: Option<String>| {
            script_only(lua, &w, "legal")?;
            if let Some(side) = &side {
                let sides = w.borrow().ruleset.sides.clone();
                if !sides.iter().any(|s| s == side) {
                    return Err(mlua::Error::runtime(format!(
                        "kessel.legal(\"{}\"): not a side of this ruleset (its sides: {})",
                        crate::error::printable_name(side),
                        sides.join(", ")
                    )));
                }
            }
            let list = legal_actions(lua, &w, side.as_deref())?;
            let out = lua.create_table()?;
            for a in &list {
                out.push(action_to_lua(lua, a)?)?;
            }
            Ok(out)
        })?,
    )?;
    Ok(())
}
