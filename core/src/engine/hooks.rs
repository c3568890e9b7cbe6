//! The engine's calls into the ruleset's hooks: `check`, `setup`, `odds`, `ai` and `result`. Like
//! the calls in `calls.rs` (validators, handlers, enumerators, queries), each runs under a
//! [`StageGuard`] that says what the Lua side may do meanwhile, and an error about what a hook
//! returned is said at the hook's definition.

use crate::action::{Action, Reason};
use crate::script::api::{
    action_from_lua, action_to_lua, bounded_from_value, hooks, key, lua_list, own_fields_only,
    reasons_from_lua, running, show_value,
};
use crate::state::Value;
use crate::world::{Shared, Stage, StageGuard};
use mlua::{Lua, Table};

use super::calls::{deciding_side, hook_place, listing, returned, MAX_ANSWER_BYTES, QUOTED_ACTION};

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
    /// `note = true`: something a designer should know that does not stop the scenario loading
    /// (`kessel check` prints it as a note).
    pub note: bool,
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

/// The most problems one `check` hook may return: as many as [`MAX_RETURNED_TEXT`] holds of
/// the shortest with a message.
///
/// [`MAX_RETURNED_TEXT`]: crate::script::api::MAX_RETURNED_TEXT
const MAX_PROBLEMS: usize = crate::script::api::MAX_RETURNED_TEXT / 64;

/// The problems a `check` hook returned. Anything but nil or a list of `{unit=, var=, marker=,
/// message=, note=}` is an error naming the hook (`file:line:` where it is defined, first, as every
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
            "{}: the check hook defined here returned {what}; a check hook returns nil or a list of {{message=, and unit=, var= or marker=, and note=true for a note}} problems",
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
        // (a problem's text counts against the limit, so one with none, `{note = true}` a
        // hundred thousand times, came through whole: as many as the text allows at most)
        if i >= MAX_PROBLEMS {
            return Err(bad(format!(
                "over {MAX_PROBLEMS} problems, the limit (they are lines for a designer to read)"
            )));
        }
        let item = match item? {
            V::Table(t) => {
                own_fields_only(lua, &t, &format!("a list whose item {}", i + 1))
                    .map_err(|e| bad(crate::script::bare_error(&e)))?;
                // a misspelt `mesage` made the problem read "set-up problem", its text lost
                crate::script::api::strict_keys(
                    &t,
                    &format!("problem {}", i + 1),
                    &["message", "unit", "var", "marker", "note"],
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
        let note = match item.get::<V>("note")? {
            V::Nil => false,
            V::Boolean(b) => b,
            other => {
                return Err(bad(format!(
                    "a problem whose `note` is {} (true for a note, left out for a problem)",
                    show(&other)
                )))
            }
        };
        out.push(CheckProblem {
            unit,
            var,
            marker,
            message,
            note,
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

/// The ruleset's `result` hook: how the game stands (`{ level = "...", scores = { side = n } }`).
/// The first hook registered gives the result; a later one (a scenario's script, a rule variant
/// layered on the ruleset) may only add `metrics`, merged into the first's, so that a variant can
/// count how often its house rule fires in the balance lab without replacing the rules' result.
pub fn call_result_hook(lua: &Lua, world: &Shared) -> mlua::Result<Option<Value>> {
    let mut all = hooks(lua, "result")?.into_iter();
    let Some(f) = all.next() else {
        return Ok(None);
    };
    let guard = StageGuard::enter(world, Stage::Query);
    let call = |f: &mlua::Function| {
        running(
            lua,
            || "the `result` hook".into(),
            || f.call::<mlua::Value>(()),
        )
        .and_then(|v| {
            let read = bounded_from_value(lua, v, "the result", MAX_ANSWER_BYTES);
            returned(f, "result hook", read)
        })
    };
    let checked = |f: &mlua::Function, answer: &Value| {
        let judged = super::result::check(&world.borrow(), answer);
        returned(f, "result hook", judged.map_err(mlua::Error::runtime))
    };
    let out = (|| {
        let mut answer = call(&f)?;
        // the first's own answer is judged alone, so a fault of its own is said at its line
        checked(&f, &answer)?;
        for later in all {
            let metrics = match call(&later)? {
                Value::Null => continue,
                Value::Object(mut o) if o.keys().all(|k| k == "metrics") => o.remove("metrics"),
                _ => {
                    return Err(mlua::Error::runtime(format!(
                        "{}: a `result` hook after the first ({}) may only add `metrics`: the first gives the level, scores and control",
                        hook_place(&later),
                        hook_place(&f)
                    )))
                }
            };
            let metrics = match metrics {
                None => continue,
                Some(Value::Object(m)) => m,
                Some(other) => {
                    let said = crate::error::quoted_json(&other, 80);
                    let not_table =
                        format!("`metrics` = {said}; it is a table of measures by name");
                    return returned(&later, "result hook", Err(mlua::Error::runtime(not_table)));
                }
            };
            if answer.is_null() {
                answer = Value::Object(Default::default());
            }
            let Some(Value::Object(into)) = answer.as_object_mut().map(|o| {
                o.entry("metrics")
                    .or_insert_with(|| Value::Object(Default::default()))
            }) else {
                continue;
            };
            for (name, v) in metrics {
                if into.contains_key(&name) {
                    return Err(mlua::Error::runtime(format!(
                        "{}: the `result` hook defined here adds measure \"{}\", which an earlier `result` hook gives already",
                        hook_place(&later),
                        crate::error::printable_name(&name)
                    )));
                }
                into.insert(name, v);
            }
            // (each later hook judged with what it added: too many measures, one out of range)
            checked(&later, &answer)?;
        }
        Ok(answer)
    })();
    drop(guard);
    Ok(Some(out?).filter(|v| !v.is_null()))
}
