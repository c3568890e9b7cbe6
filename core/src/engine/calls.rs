//! The engine's calls into the rules: validators, handlers, enumerators, read-only chunks and
//! every hook. Each runs under a [`StageGuard`] that says what the Lua side may do meanwhile.
//!
//! Also the script functions that drive the engine from Lua (`kessel.act`, `kessel.validate`,
//! `kessel.legal`), since they are these calls seen from a script.

use crate::action::{Action, Reason, Rejection};
use crate::script::api::{
    action_from_lua, action_from_lua_sized, action_to_lua, bounded_from_value, events_table,
    handler, hooks, key, lua_list, own_fields_only, reasons_from_lua, reasons_table, running,
    script_only, show_value, MAX_LISTED_BYTES,
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
fn listing(
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
const MAX_ANSWER_BYTES: usize = 16 << 20;

/// Runs the ruleset's `check` hooks; each returns a list of `{unit=, message=}` problems.
/// A problem a `check` hook found in a scenario, with what it points at (its line in the file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckProblem {
    /// A unit's id (`unit =`): the problem is at the unit's table.
    pub unit: Option<String>,
    /// A scenario variable (`var =`): the problem is at its line of `[vars]`.
    pub var: Option<String>,
    /// A marker's id (`marker =`): the problem is at its `[[markers]]` table.
    pub marker: Option<u32>,
    /// What is wrong.
    pub message: String,
}

pub fn call_check_hooks(lua: &Lua, world: &Shared) -> mlua::Result<Vec<CheckProblem>> {
    let mut out = Vec::new();
    let _query = StageGuard::enter(world, Stage::Query);
    for f in hooks(lua, "check")? {
        let returned = running(
            lua,
            || "a `check` hook".into(),
            || f.call::<mlua::Value>(()),
        )?;
        out.extend(check_problems(lua, &f, returned)?);
    }
    Ok(out)
}

/// The problems a `check` hook returned. Anything but nil or a list of `{unit=, var=, marker=,
/// message=}` is an error naming the hook (`file:line:` where it is defined, first, as every
/// located error) and what it returned.
fn check_problems(
    lua: &Lua,
    f: &mlua::Function,
    v: mlua::Value,
) -> mlua::Result<Vec<CheckProblem>> {
    use mlua::Value as V;
    let show = show_value;
    let bad = |what: String| {
        mlua::Error::runtime(format!(
            "{}: the check hook defined here returned {what}; a check hook returns nil or a list of {{message=, and unit=, var= or marker=}} problems",
            hook_place(f)
        ))
    };
    let list = match v {
        V::Nil => return Ok(Vec::new()),
        V::Table(t) => t,
        other => return Err(bad(show(&other))),
    };
    own_fields_only(lua, &list, "a list").map_err(|e| bad(crate::script::bare_error(&e)))?;
    let mut out = Vec::new();
    let mut text = crate::script::api::ReturnedText::default();
    for (i, item) in list.sequence_values::<V>().enumerate() {
        let item = match item? {
            V::Table(t) => {
                own_fields_only(lua, &t, &format!("a list whose item {}", i + 1))
                    .map_err(|e| bad(crate::script::bare_error(&e)))?;
                // a misspelt `mesage` made the problem read "set-up problem", its text lost
                crate::script::api::strict_keys(
                    &t,
                    &format!("problem {}", i + 1),
                    &["message", "unit", "var", "marker"],
                )
                .map_err(|e| bad(crate::script::bare_error(&e)))?;
                t
            }
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
            V::String(s) => Some(
                text.take(&s, "problem", i + 1)
                    .map_err(|e| bad(crate::script::bare_error(&e)))?,
            ),
            other => return Err(bad(format!("a problem whose `unit` is {}", show(&other)))),
        };
        let var = match item.get::<V>("var")? {
            V::Nil => None,
            V::String(s) => Some(
                text.take(&s, "problem", i + 1)
                    .map_err(|e| bad(crate::script::bare_error(&e)))?,
            ),
            other => return Err(bad(format!("a problem whose `var` is {}", show(&other)))),
        };
        let marker = match item.get::<V>("marker")? {
            V::Nil => None,
            V::Integer(n) => Some(
                u32::try_from(n)
                    .map_err(|_| bad(format!("a problem whose `marker` is {n}, no marker's id")))?,
            ),
            other => {
                return Err(bad(format!(
                    "a problem whose `marker` is {} (a marker's id is a whole number)",
                    show(&other)
                )))
            }
        };
        let message = match item.get::<V>("message")? {
            V::Nil => "set-up problem".to_string(),
            V::String(s) => text
                .take(&s, "problem", i + 1)
                .map_err(|e| bad(crate::script::bare_error(&e)))?,
            other => {
                return Err(bad(format!(
                    "a problem whose `message` is {}",
                    show(&other)
                )))
            }
        };
        out.push(CheckProblem {
            unit,
            var,
            marker,
            message,
        });
    }
    Ok(out)
}

/// Runs the ruleset's `setup` hooks with events allowed (they become part of the initial state).
pub fn call_setup_hooks(lua: &Lua, world: &Shared) -> mlua::Result<()> {
    let guard = StageGuard::enter(world, Stage::Apply);
    let result = (|| {
        for f in hooks(lua, "setup")? {
            running(lua, || "a `setup` hook".into(), || f.call::<()>(()))?;
        }
        Ok(())
    })();
    drop(guard);
    result
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
    /// Die roll modifier: added to the roll before the table is read.
    pub drm: i32,
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
        drm: 0,
        notes: Vec::new(),
    };
    let guard = StageGuard::enter(world, Stage::Query);
    let result = (|| {
        let odds_hooks = hooks(lua, "odds")?;
        if odds_hooks.is_empty() && !flags.is_empty() {
            // flags no rule reads were ignored in silence, and the odds shown as if they applied
            return Err(mlua::Error::runtime(format!(
                "the ruleset has no `odds` hook, so no modifier flag means anything to it \
                 (given: {})",
                flags.join(", ")
            )));
        }
        for f in odds_hooks {
            let got = running(
                lua,
                || "the `odds` hook".into(),
                || f.call::<mlua::Value>((out.attack, out.defence, flags.to_vec())),
            )?;
            let bad = |what: String| {
                mlua::Error::runtime(format!(
                    "{}: the odds hook defined here returned {what}; an odds hook returns \
                     {{ attack =, defence =, shift =, drm =, modifiers = }} with whole numbers",
                    hook_place(&f)
                ))
            };
            let t = match got {
                mlua::Value::Table(t) => t,
                other => return Err(bad(show_value(&other))),
            };
            own_fields_only(lua, &t, "a table").map_err(|e| bad(crate::script::bare_error(&e)))?;
            // a misspelt field (`shfit`) was passed over, and the odds shown without it
            const FIELDS: [&str; 5] = ["attack", "defence", "shift", "drm", "modifiers"];
            for pair in t.pairs::<mlua::Value, mlua::Value>() {
                let (k, _) = pair?;
                let key = match &k {
                    mlua::Value::String(s) => s.to_string_lossy(),
                    other => show_value(other),
                };
                if !FIELDS.contains(&key.as_str()) {
                    return Err(bad(format!(
                        "a table with the field `{key}`{}",
                        crate::names::did_you_mean(&key, &FIELDS)
                    )));
                }
            }
            let number = |key: &str| -> mlua::Result<Option<i32>> {
                match t.get::<mlua::Value>(key)? {
                    mlua::Value::Nil => Ok(None),
                    mlua::Value::Integer(i) => i32::try_from(i)
                        .map(Some)
                        .map_err(|_| bad(format!("`{key}` = {i}, out of range"))),
                    mlua::Value::Number(x)
                        if x.fract() == 0.0 && x.abs() <= f64::from(i32::MAX) =>
                    {
                        Ok(Some(x as i32))
                    }
                    other => Err(bad(format!("`{key}` = {}", show_value(&other)))),
                }
            };
            out.attack = number("attack")?.unwrap_or(out.attack);
            out.defence = number("defence")?.unwrap_or(out.defence);
            // strengths are counted, never below nothing (a negative one made odds of "-5 to -1")
            for (key, v) in [("attack", out.attack), ("defence", out.defence)] {
                if v < 0 {
                    return Err(bad(format!("`{key}` = {v}, below 0")));
                }
            }
            out.shift = out
                .shift
                .checked_add(number("shift")?.unwrap_or(0))
                .ok_or_else(|| bad("shifts that add up past the largest number".into()))?;
            out.drm = out
                .drm
                .checked_add(number("drm")?.unwrap_or(0))
                .ok_or_else(|| {
                    bad("die roll modifiers that add up past the largest number".into())
                })?;
            if let Some(notes) = t.get::<Option<mlua::Value>>("modifiers")? {
                out.notes
                    .extend(returned(&f, "odds hook", reasons_from_lua(lua, notes))?);
            }
        }
        Ok(())
    })();
    drop(guard);
    result.map(|_| out)
}

/// Where the `tiebreak` an `ai` hook is given draws from: the game's seed and the engine's AI
/// variation, never the game's dice.
#[derive(Clone, Copy, Debug)]
pub struct Tiebreak {
    /// The game's seed.
    pub seed: u64,
    /// The variation ([`super::Engine::set_ai_variation`]).
    pub variation: u64,
}

/// Asks the ruleset's `ai` hook for the next action; `None` when the ruleset has no AI or the hook
/// has no opinion.
///
/// The hook is called as `hook(legal, kinds, view, level, tiebreak, side)`: `legal(kind)` runs the enumerators of
/// one action kind (every kind when `kind` is nil) and returns what they list, `kinds` names the
/// action kinds in declaration order, `view(opts?)` gives what the deciding side is shown
/// (`kessel.game.view` of that side; built only when called), and `level` is the id of the
/// declared `kessel.ai_level` that plays (nil when the ruleset declares none; the caller resolved
/// it with [`crate::ruleset::Ruleset::ai_level`]); `tiebreak(n)` draws a number from 1 to `n`
/// from the chooser's own dice (see [`Tiebreak`]) for choosing among equally good actions;
/// `side` is the side whose decision it is ([`deciding_side`], nil for nobody). The
/// hook returns one of the listed action tables. So a computer
/// player asks only for the kinds it is weighing (listing every move of every stack before each
/// choice is most of a simulated game's time), and still picks only what the rules enumerate:
/// an action that no `legal` call of this hook listed is refused here, and the caller then
/// validates the choice like a player's.
pub fn call_ai_hook(
    lua: &Lua,
    world: &Shared,
    level: Option<&str>,
    tiebreak: Tiebreak,
) -> mlua::Result<Option<Action>> {
    let Some(f) = hooks(lua, "ai")?.into_iter().next() else {
        return Ok(None);
    };
    let listed = std::rc::Rc::new(std::cell::RefCell::new(Vec::<Listed>::new()));
    let known: Vec<String> = world
        .borrow()
        .ruleset
        .action_kinds()
        .map(str::to_string)
        .collect();
    let kinds = {
        let names = known
            .iter()
            .map(|k| key(lua, k).map(mlua::Value::String))
            .collect::<mlua::Result<Vec<_>>>()?;
        lua_list(lua, names)?
    };
    // `legal`, `view` and `tiebreak` are for this decision only: kept past it (in a global, a
    // module's upvalue) and called from a rule, `tiebreak` drew the chooser's dice inside the
    // game's own rules, which then played otherwise in a replay, where no computer chose
    let live = std::rc::Rc::new(std::cell::Cell::new(true));
    let expired = |name: &'static str, live: &std::rc::Rc<std::cell::Cell<bool>>| {
        if live.get() {
            Ok(())
        } else {
            Err(mlua::Error::runtime(format!(
                "the ai hook's `{name}` was called after the hook returned: `legal`, `view` and \
                 `tiebreak` answer for the decision they were handed to only (kept in a variable?)"
            )))
        }
    };
    let w = world.clone();
    let seen = listed.clone();
    let alive = live.clone();
    let legal = crate::script::api::function(lua, move |lua, kind: Option<String>| {
        expired("legal", &alive)?;
        // a misspelt kind listed nothing, and the computer player chose among the rest unawares
        if let Some(k) = kind.as_deref().filter(|k| !known.iter().any(|x| x == k)) {
            return Err(mlua::Error::runtime(format!(
                "legal(\"{}\"): the ruleset has no action kind of that name (its kinds: {})",
                crate::error::printable_name(k),
                known.join(", ")
            )));
        }
        let (list, bytes) = listing(lua, &w, None, &|k| {
            kind.as_deref().is_none_or(|wanted| wanted == k)
        })?;
        let tables = list
            .iter()
            .map(|a| action_to_lua(lua, a).map(mlua::Value::Table))
            .collect::<mlua::Result<Vec<_>>>()?;
        let out = lua_list(lua, tables)?;
        // the game cannot change during the hook, so asking again lists what was kept already:
        // each call was kept whole, and a hook calling `legal()` in a loop filled the engine's
        // memory unseen by Lua's limit (190 MB in one decision of the toy)
        let again = seen
            .borrow()
            .iter()
            .rev()
            .find(|l| l.kind == kind)
            .is_some_and(|l| l.actions == list);
        if !again {
            // an enumerator that lists something new each time is held to the memory limit
            let held = crate::script::hold(lua, bytes)?;
            seen.borrow_mut().push(Listed {
                kind,
                actions: list,
                _held: held,
            });
        }
        Ok(out)
    })?;
    let w = world.clone();
    let alive = live.clone();
    let view = crate::script::api::function(lua, move |lua, opts: Option<Table>| {
        expired("view", &alive)?;
        let Some(side) = deciding_side(lua, &w) else {
            return Ok(mlua::Value::Nil);
        };
        crate::script::api::view_table(lua, &w, &side, opts.as_ref())
    })?;
    // dice of the chooser's own, for this decision only: keyed by the game's seed, the
    // variation and how far the game has gone, so the same position breaks its ties the same way
    let stream = format!("tiebreak #{}", world.borrow().log.len());
    let dice = std::cell::RefCell::new(crate::dice::Dice::new(
        tiebreak.seed ^ tiebreak.variation.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x71e_b4ea,
    ));
    let alive = live.clone();
    let tiebreak = crate::script::api::function(lua, move |lua, n: mlua::Value| {
        expired("tiebreak", &alive)?;
        crate::script::charge(lua, crate::script::api::ROLL_CHARGE)?;
        let whole = match &n {
            mlua::Value::Integer(i) => Some(*i),
            mlua::Value::Number(x) if x.fract() == 0.0 && x.abs() < 1e15 => Some(*x as i64),
            _ => None,
        };
        let sides = whole
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| *n >= 1)
            .ok_or_else(|| {
                let shown = match &n {
                    mlua::Value::Integer(i) => i.to_string(),
                    mlua::Value::Number(x) => crate::script::api::shown_number(*x),
                    other => show_value(other),
                };
                mlua::Error::runtime(format!(
                    "tiebreak({shown}): give how many are tied, a whole number of 1 or more"
                ))
            })?;
        Ok(dice.borrow_mut().roll_from(&stream, sides))
    })?;
    // whose seat the hook plays: in a step of no side it had to ask the `deciding_side` query
    // itself, which the docs did not say
    let side = deciding_side(lua, world);
    // what the hook returned is read in the query stage too (its metamethods run then)
    let guard = StageGuard::enter(world, Stage::Query);
    let read = running(
        lua,
        || "the `ai` hook".into(),
        || f.call::<mlua::Value>((legal, kinds, view, level, tiebreak, side)),
    )
    .and_then(|out| {
            if out.is_nil() {
                return Ok(None);
            }
            let what = show_value(&out);
            action_from_lua(lua, out).map(Some).map_err(|e| {
                mlua::Error::runtime(format!(
                    "{}: the ai hook defined here returned {what} ({}); an ai hook returns one of the actions `legal` listed, or nil",
                    hook_place(&f),
                    crate::script::bare_error(&e)
                ))
            })
        });
    drop(guard);
    live.set(false);
    // (what was listed is let go with the decision, even if the hook kept `legal` alive)
    let listed = std::mem::take(&mut *listed.borrow_mut());
    let Some(action) = read? else {
        return Ok(None);
    };
    if !listed.iter().any(|l| l.actions.contains(&action)) {
        return Err(mlua::Error::runtime(format!(
            "{}: the ai hook defined here chose a `{}` action that no `legal` call listed: {}",
            hook_place(&f),
            action.kind,
            crate::error::quoted_json(&action, QUOTED_ACTION)
        )));
    }
    Ok(Some(action))
}

/// One listing an `ai` hook's `legal` made, kept to check the hook's choice against.
struct Listed {
    /// The kind asked for (`None`: every kind).
    kind: Option<String>,
    actions: Vec<Action>,
    /// Its bytes, counted against the memory limit until the decision is made.
    _held: crate::script::Held,
}

/// The most characters of an action an error quotes.
pub(crate) const QUOTED_ACTION: usize = 400;

/// What a hook returned, as the engine read it: an error reading it (a reason that is no table,
/// text over the limit, a metamethod's error) is said at the hook's definition.
fn returned<T>(f: &mlua::Function, hook: &str, read: mlua::Result<T>) -> mlua::Result<T> {
    read.map_err(|e| match e {
        mlua::Error::RuntimeError(m) => mlua::Error::runtime(format!(
            "{}: the {hook} defined here returned {m}",
            hook_place(f)
        )),
        other => other,
    })
}

/// Where a hook is defined, `file:line`, for errors about what it returned.
fn hook_place(f: &mlua::Function) -> String {
    let info = f.info();
    format!(
        "{}:{}",
        info.short_src.as_deref().unwrap_or("?"),
        info.line_defined.unwrap_or(0)
    )
}

/// The ruleset's `result` hook: how the game stands (`{ level = "...", scores = { side = n } }`).
pub fn call_result_hook(lua: &Lua, world: &Shared) -> mlua::Result<Option<Value>> {
    let Some(f) = hooks(lua, "result")?.into_iter().next() else {
        return Ok(None);
    };
    let guard = StageGuard::enter(world, Stage::Query);
    let out = running(
        lua,
        || "the `result` hook".into(),
        || f.call::<mlua::Value>(()),
    )
    .and_then(|v| {
        let read = bounded_from_value(lua, v, "the result", MAX_ANSWER_BYTES);
        let read = read.and_then(|answer| {
            super::result::check(&world.borrow(), &answer).map_err(mlua::Error::runtime)?;
            Ok(answer)
        });
        returned(&f, "result hook", read)
    });
    drop(guard);
    Ok(Some(out?).filter(|v| !v.is_null()))
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
