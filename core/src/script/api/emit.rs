//! `kessel.emit` and `kessel.dice`: the only ways Lua changes a game, each call one [`Event`]
//! applied at once and recorded with the action being applied.

use super::{hex_of, plain};
use crate::algo::movement::Cost;
use crate::event::Event;
use crate::state::{Face, Location, Value};
use crate::world::{Shared, Stage};
use mlua::{FromLua, Lua, Table};

/// The most events one call may record (each is kept in the log, outside Lua's memory limit).
const MAX_PENDING: usize = 100_000;
/// The longest name (flag, variable, rule, purpose) an event may carry.
pub(super) const MAX_NAME: usize = 1024;
/// The longest note text.
const MAX_TEXT: usize = 64 * 1024;
/// The largest variable value, as JSON.
const MAX_VALUE: usize = 1 << 20;

/// Set in a Lua state's app data once a ruleset registers an event hook, so that emitting costs
/// nothing more while none is registered (the common case: PGG has none).
pub(crate) struct EventHooks;

/// How deep event hooks run inside each other's events, now.
struct HookDepth(usize);

/// The deepest event hooks may nest (a hook's event running hooks whose events run hooks…).
const MAX_HOOK_DEPTH: usize = 8;

/// Applies and records an event, then runs the event hooks registered for it
/// (`kessel.on("event:<kind>")`, then `kessel.on("event:<meaning>")` — `eliminated` and the like,
/// see `Event::meaning` — then `kessel.on("event")`) inside the same action: what they emit is
/// part of it.
pub(super) fn emit(lua: &Lua, world: &Shared, e: Event) -> mlua::Result<()> {
    if lua.app_data_ref::<EventHooks>().is_none() {
        return emit_raw(lua, world, e);
    }
    let copy = e.clone();
    emit_raw(lua, world, e)?;
    let mut fs = super::hooks(lua, &format!("event:{}", copy.kind()))?;
    if let Some(meaning) = copy.meaning() {
        fs.extend(super::hooks(lua, &format!("event:{meaning}"))?);
    }
    fs.extend(super::hooks(lua, "event")?);
    if fs.is_empty() {
        return Ok(());
    }
    let depth = lua.app_data_ref::<HookDepth>().map_or(0, |d| d.0);
    if depth >= MAX_HOOK_DEPTH {
        return Err(mlua::Error::runtime(format!(
            "event hooks nested deeper than {MAX_HOOK_DEPTH} (a hook's events run hooks that emit again?)"
        )));
    }
    let table: Table = super::events_table(lua, world, std::slice::from_ref(&copy))?.get(1)?;
    lua.set_app_data(HookDepth(depth + 1));
    let name = format!("an `event:{}` hook", copy.kind());
    let result = fs
        .into_iter()
        .try_for_each(|f| super::running(lua, || name.clone(), || f.call::<()>(table.clone())));
    lua.set_app_data(HookDepth(depth));
    result
}

/// Applies and records an event without running hooks (dice rolls).
fn emit_raw(lua: &Lua, world: &Shared, e: Event) -> mlua::Result<()> {
    changes_allowed(lua, world)?;
    if world.borrow().pending.len() >= MAX_PENDING {
        return Err(mlua::Error::runtime(format!(
            "more than {MAX_PENDING} events in one call; an endless loop?"
        )));
    }
    // (a caller still holding a view of the state while it emits is a bug of the engine's: an
    // error that names it, not a panic that ends the program)
    let mut w = world.try_borrow_mut().map_err(|_| {
        mlua::Error::runtime(format!(
            "internal error: the game state is still being read while `{}` changes it",
            e.kind()
        ))
    })?;
    w.emit(e).map_err(mlua::Error::runtime)
}

/// Refuses a change outside an action's handler or a script, before anything is borrowed for
/// writing (a validator may run while a caller holds a view of the state), saying which rules
/// call the change came from when one is running (a search's step function, a validator, a
/// hook): the bare refusal left a modder to guess why `kessel.emit` was refused inside an
/// `apply` that had called a search.
fn changes_allowed(lua: &Lua, world: &Shared) -> mlua::Result<()> {
    let stage = world.borrow().stage();
    if matches!(stage, Stage::Apply | Stage::Script) {
        return Ok(());
    }
    let inside = super::script::innermost_call(lua).unwrap_or_else(|| match stage {
        Stage::Declare => "the rules' loading".to_string(),
        _ => "a read-only call of the rules".to_string(),
    });
    Err(mlua::Error::runtime(format!(
        "the game state can only change while an action is applied: this change was made inside \
         {inside}, which may only read the game"
    )))
}

/// Refuses a string an event would keep in Rust memory (outside Lua's limit) beyond `max` bytes.
pub(super) fn bounded(s: &str, what: &str, max: usize) -> mlua::Result<()> {
    if s.len() > max {
        return Err(mlua::Error::runtime(format!(
            "{what} is {} bytes long, over the limit ({max})",
            s.len()
        )));
    }
    Ok(())
}

/// Refuses a name an event keeps as a key of the game (a flag, a variable's key, a pool, a
/// marker's kind, a tag, an attribute) that breaks the rule of declared names
/// ([`crate::names::name_problem`]): such names are printed in every listing, message and save
/// that holds them, and were only held to a length, so a key of NUL, a line break, a
/// bidirectional mark or nothing at all was kept and printed as another or as none.
pub(super) fn named(s: &str, what: &str) -> mlua::Result<()> {
    bounded(s, what, MAX_NAME)?;
    match crate::names::name_problem(s) {
        Some(problem) => Err(mlua::Error::runtime(format!("{what} {problem}"))),
        None => Ok(()),
    }
}

pub(super) fn check_unit(world: &Shared, id: &str) -> mlua::Result<()> {
    if world.borrow().state.unit(id).is_none() {
        return Err(mlua::Error::runtime(format!("unknown unit `{id}`")));
    }
    Ok(())
}

/// The options table a call takes last, when it is a table. Anything else there is ignored, as
/// extra arguments were before these calls took options: `kessel.emit.note(rule, s:gsub(...))`
/// passes `string.gsub`'s count after its string.
pub(super) struct Opts(Option<Table>);

impl FromLua for Opts {
    fn from_lua(v: mlua::Value, _: &Lua) -> mlua::Result<Opts> {
        Ok(Opts(match v {
            mlua::Value::Table(t) => Some(t),
            _ => None,
        }))
    }
}

/// Reads the options table of a call that may keep its value secret (`{ secret_to = side }`):
/// the side, which must be one of the game's.
pub(super) fn secret_to(
    world: &Shared,
    opts: Option<&Table>,
    what: &str,
) -> mlua::Result<Option<String>> {
    let Some(t) = opts else {
        return Ok(None);
    };
    super::strict_keys(t, what, &["secret_to"])?;
    match t.get::<Option<String>>("secret_to")? {
        Some(side) => check_side(world, &side, what).map(|()| Some(side)),
        None => Ok(None),
    }
}

/// Refuses a side the game does not have.
pub(super) fn check_side(world: &Shared, side: &str, what: &str) -> mlua::Result<()> {
    known_side(&world.borrow().state.sides, side, what)
}

/// Refuses `side` unless it is one of `sides` (the game's), worded as every refusal of a side.
pub(super) fn known_side(sides: &[String], side: &str, what: &str) -> mlua::Result<()> {
    if sides.iter().any(|s| s == side) {
        return Ok(());
    }
    Err(not_a_side(side, sides, what))
}

/// The refusal of a name that is not one of `sides`, with the nearest one.
pub(super) fn not_a_side(side: &str, sides: &[String], what: &str) -> mlua::Error {
    mlua::Error::runtime(format!(
        "{what}: `{}` is not a side{} (sides: {})",
        crate::error::printable_name(side),
        crate::names::did_you_mean(side, sides),
        sides.join(", ")
    ))
}

/// Rolls one die and records it.
pub(crate) fn roll(lua: &Lua, world: &Shared, purpose: &str, sides: u32) -> mlua::Result<u32> {
    roll_for(lua, world, purpose, sides, None)
}

/// Rolls one die and records it, its value shown only to `secret_to` when given.
pub(crate) fn roll_for(
    lua: &Lua,
    world: &Shared,
    purpose: &str,
    sides: u32,
    secret_to: Option<String>,
) -> mlua::Result<u32> {
    changes_allowed(lua, world)?;
    bounded(purpose, "kessel.dice.roll: the purpose", MAX_NAME)?;
    crate::script::charge(lua, super::ROLL_CHARGE)?;
    // one stream per purpose and turn: see crate::dice for why
    let (value, drawn, stream, stream_after) = {
        let mut w = world.borrow_mut();
        let stream = format!("{purpose} @{}", w.state.turn);
        // an injected roll stands for a face of this die: 0 or 7 on a d6 went on to the
        // tables, which clamp a modified roll, and read as a 1 or a 6 without a word
        let v = w.dice.roll_checked(&stream, sides).map_err(|v| {
            mlua::Error::runtime(format!(
                "kessel.dice.roll(`{purpose}`): the injected roll {v} is not a face of the \
                 {sides}-sided die it stands for (1 to {sides}); kessel.inject_dice queues rolls \
                 as the die shows them, before modifiers"
            ))
        })?;
        let after = w.dice.drawn_from(&stream);
        (v, w.dice.drawn(), stream, after)
    };
    emit_raw(
        lua,
        world,
        Event::Dice {
            purpose: purpose.to_string(),
            rolls: vec![value],
            drawn_after: drawn,
            stream,
            stream_after,
            secret_to,
        },
    )?;
    Ok(value)
}

pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    let e = lua.create_table()?;

    let w = world.clone();
    e.set(
        "place",
        super::function(lua, move |lua, (unit, h): (String, String)| {
            check_unit(&w, &unit)?;
            let hex = hex_of(&w, &h)?;
            emit(
                lua,
                &w,
                Event::Located {
                    unit,
                    to: Location::Map(hex),
                },
            )
        })?,
    )?;
    for (name, loc) in [
        ("eliminate", Location::Eliminated),
        ("remove", Location::Removed),
        ("withdraw", Location::Pending),
    ] {
        let w = world.clone();
        e.set(
            name,
            super::function(lua, move |lua, unit: String| {
                check_unit(&w, &unit)?;
                // sending a unit where it already is changes nothing: a rule that eliminates an
                // eliminated unit has lost track of it, and said nothing
                // (a withdrawal of a unit waiting off the map is how a ruleset keeps one back,
                // and stays allowed)
                let gone = match loc {
                    Location::Eliminated => Some("eliminated"),
                    Location::Removed => Some("removed"),
                    _ => None,
                };
                if let Some(gone) = gone {
                    if w.borrow().state.unit(&unit).map(|u| &u.location) == Some(&loc) {
                        return Err(mlua::Error::runtime(format!(
                            "kessel.emit.{name}: `{unit}` is {gone} already"
                        )));
                    }
                }
                emit(lua, &w, Event::Located { unit, to: loc })
            })?,
        )?;
    }
    let w = world.clone();
    e.set(
        "move",
        super::function(lua,
            move |lua, (unit, super::List(path), cost): (String, super::List<String>, Option<f64>)| {
                crate::script::charge(lua, 64 * path.len() as u64)?;
                check_unit(&w, &unit)?;
                if path.is_empty() {
                    return Err(mlua::Error::runtime("kessel.emit.move: empty path"));
                }
                let most = 4 * w.borrow().state.map.len() + 16;
                if path.len() > most {
                    return Err(mlua::Error::runtime(format!(
                        "kessel.emit.move: a path of {} hexes is longer than any move on this map ({most})",
                        path.len()
                    )));
                }
                let hexes = path
                    .iter()
                    .map(|h| hex_of(&w, h))
                    .collect::<mlua::Result<Vec<_>>>()?;
                // the cost goes into the log as JSON, which has no NaN or infinity: a save of
                // the game held `null` there and no longer loaded
                if let Some(c) = cost.filter(|c| !c.is_finite()) {
                    return Err(mlua::Error::runtime(format!(
                        "kessel.emit.move: the cost {c} is not a number of MP (NaN or infinite)"
                    )));
                }
                // rules sum the costs in the log to know what a unit has spent: a negative one
                // gave MP back without a word, and one past what any search counts (1e300) is
                // no cost a field could have found. A fraction is a cost (roads at half an MP)
                if let Some(c) = cost.filter(|c| *c < 0.0) {
                    return Err(mlua::Error::runtime(format!(
                        "kessel.emit.move: the cost {c} is negative; a move costs 0 MP or more"
                    )));
                }
                if let Some(c) = cost.filter(|c| *c > Cost::MOST_MP) {
                    return Err(mlua::Error::runtime(format!(
                        "kessel.emit.move: the cost {} is more MP than any move costs (at most {}, \
                         the most a search counts)",
                        super::shown_number(c),
                        Cost::MOST_MP.floor()
                    )));
                }
                emit(lua, &w,
                    Event::Moved {
                        unit,
                        path: hexes,
                        // (-0.0 went into the log as written: "cost": -0.0)
                        cost: cost.map_or(0.0, |c| c + 0.0),
                    },
                )
            },
        )?,
    )?;
    let w = world.clone();
    e.set(
        "step",
        super::function(lua, move |lua, (unit, step): (String, u32)| {
            check_unit(&w, &unit)?;
            {
                // a unit can lose every step it has, no more: the last one leaves it without a face
                let wb = w.borrow();
                let steps = wb
                    .state
                    .unit(&unit)
                    .map_or(0, |u| u.faces.len().max(u.named.len()))
                    .max(1);
                if step as usize > steps {
                    return Err(mlua::Error::runtime(format!(
                        "kessel.emit.step: unit `{unit}` has {steps} step{}; it cannot have lost {step}",
                        if steps == 1 { "" } else { "s" }
                    )));
                }
            }
            emit(lua, &w, Event::StepSet { unit, step })
        })?,
    )?;
    let w = world.clone();
    e.set(
        "reveal",
        super::function(lua, move |lua, (unit, face): (String, Option<String>)| {
            check_unit(&w, &unit)?;
            // a unit with A-D-M faces of its own keeps them: it shows its current one (it drew
            // from its pool, or failed for want of one, and answered the drawn face while the
            // unit kept its own)
            let own = {
                let wb = w.borrow();
                wb.state.unit(&unit).and_then(|u| {
                    u.faces
                        .get(u.step as usize)
                        .or_else(|| u.faces.last())
                        .copied()
                })
            };
            let face = match (face, own) {
                (Some(f), _) => Face::parse(&f)
                    .ok_or_else(|| mlua::Error::runtime(format!("`{f}` is not a face (A-D-M)")))?,
                (None, Some(own)) => own,
                (None, None) => {
                    // draw at random from the unit's pool
                    let (pool, n) = {
                        let wb = w.borrow();
                        let u = wb
                            .state
                            .unit(&unit)
                            .ok_or_else(|| mlua::Error::runtime("unit"))?;
                        let pool = u.pool.clone().ok_or_else(|| {
                            mlua::Error::runtime(format!("unit `{unit}` has no pool to draw from"))
                        })?;
                        let n = wb.state.pools.get(&pool).map(Vec::len).unwrap_or(0);
                        (pool, n)
                    };
                    if n == 0 {
                        return Err(mlua::Error::runtime(format!("pool `{pool}` is empty")));
                    }
                    let r = roll(lua, &w, &format!("draw from pool {pool}"), n as u32)?;
                    if r < 1 || r as usize > n {
                        return Err(mlua::Error::runtime(format!(
                            "a draw from pool `{pool}` needs a roll of 1 to {n}, got {r} (an injected die?)"
                        )));
                    }
                    let wb = w.borrow();
                    wb.state.pools[&pool][(r - 1) as usize]
                }
            };
            emit(lua, &w, Event::Revealed { unit, face })?;
            Ok(own.unwrap_or(face).to_string())
        })?,
    )?;
    let w = world.clone();
    e.set(
        "conceal",
        super::function(lua, move |lua, (unit, pool): (String, Option<String>)| {
            const WHAT: &str = "kessel.emit.conceal";
            check_unit(&w, &unit)?;
            let (pool, face) = {
                let wb = w.borrow();
                let u = wb.state.unit(&unit).ok_or_else(|| {
                    mlua::Error::runtime(format!("{WHAT}: unknown unit `{unit}`"))
                })?;
                if u.hidden {
                    return Err(mlua::Error::runtime(format!(
                        "{WHAT}: unit `{unit}` is face down already"
                    )));
                }
                // the pool model holds one face a counter: a unit of several steps (or of named
                // values) would lose what its other faces say
                let face = match (u.faces.as_slice(), u.named.is_empty()) {
                    ([face], true) => *face,
                    _ => {
                        return Err(mlua::Error::runtime(format!(
                        "{WHAT}: unit `{unit}` has {} faces; only a unit of one A-D-M face can go \
                             face down (its face goes back into a pool, one face a counter)",
                        u.faces.len().max(u.named.len())
                    )))
                    }
                };
                let pool = match pool.or_else(|| u.pool.clone()) {
                    Some(p) => p,
                    None => {
                        return Err(mlua::Error::runtime(format!(
                        "{WHAT}: unit `{unit}` has no pool for its face to go back to; name one: \
                             kessel.emit.conceal(\"{unit}\", \"POOL\")"
                    )))
                    }
                };
                named(&pool, &format!("{WHAT}: the pool"))?;
                if !wb.state.pools.contains_key(&pool) {
                    // (a map keyed in order: the names come sorted)
                    let known: Vec<&str> = wb.state.pools.keys().map(String::as_str).collect();
                    return Err(mlua::Error::runtime(format!(
                        "{WHAT}: `{pool}` is not a pool (pools: {})",
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    )));
                }
                (pool, face)
            };
            emit(lua, &w, Event::Concealed { unit, pool, face })
        })?,
    )?;
    let w = world.clone();
    e.set(
        "flag",
        super::function(
            lua,
            move |lua, (unit, flag, on): (String, String, Option<super::Bool>)| {
                let on = on.map(|b| b.0);
                check_unit(&w, &unit)?;
                named(&flag, "kessel.emit.flag: the flag")?;
                emit(
                    lua,
                    &w,
                    Event::UnitFlag {
                        unit,
                        flag,
                        on: on.unwrap_or(true),
                    },
                )
            },
        )?,
    )?;
    let w = world.clone();
    e.set(
        "unit_var",
        super::function(
            lua,
            move |lua, (unit, key, value, Opts(opts)): (String, String, mlua::Value, Opts)| {
                check_unit(&w, &unit)?;
                named(&key, "kessel.emit.unit_var: the key")?;
                let secret_to = secret_to(&w, opts.as_ref(), "kessel.emit.unit_var")?;
                let value = if value.is_nil() {
                    None
                } else {
                    let what = format!("kessel.emit.unit_var: the value of `{key}`");
                    Some(plain::from_lua(lua, &value, &what, MAX_VALUE)?)
                };
                emit(
                    lua,
                    &w,
                    Event::UnitVar {
                        unit,
                        key,
                        value,
                        secret_to,
                    },
                )
            },
        )?,
    )?;
    let w = world.clone();
    e.set(
        "clear_flag",
        super::function(lua, move |lua, (flag, side): (String, Option<String>)| {
            bounded(&flag, "kessel.emit.clear_flag: the flag", MAX_NAME)?;
            bounded(
                side.as_deref().unwrap_or(""),
                "kessel.emit.clear_flag: the side",
                MAX_NAME,
            )?;
            emit(lua, &w, Event::FlagsCleared { flag, side })
        })?,
    )?;
    let w = world.clone();
    e.set(
        "clear_unit_var",
        super::function(lua, move |lua, key: String| {
            bounded(&key, "kessel.emit.clear_unit_var: the key", MAX_NAME)?;
            emit(lua, &w, Event::UnitVarsCleared { key })
        })?,
    )?;
    let w = world.clone();
    e.set(
        "var",
        super::function(
            lua,
            move |lua, (key, value, Opts(opts)): (String, mlua::Value, Opts)| {
                named(&key, "kessel.emit.var: the key")?;
                let secret_to = secret_to(&w, opts.as_ref(), "kessel.emit.var")?;
                let v: Option<Value> = if value.is_nil() {
                    None
                } else {
                    let what = format!("kessel.emit.var: the value of `{key}`");
                    Some(plain::from_lua(lua, &value, &what, MAX_VALUE)?)
                };
                emit(
                    lua,
                    &w,
                    Event::Var {
                        key,
                        value: v,
                        secret_to,
                    },
                )
            },
        )?,
    )?;
    let w = world.clone();
    e.set(
        "marker",
        super::function(
            lua,
            move |lua, (id, h, o): (u32, Option<String>, Option<String>)| {
                if !w.borrow().state.markers.iter().any(|m| m.id == id) {
                    return Err(mlua::Error::runtime(format!("unknown marker {id}")));
                }
                // with two hexes the marker goes on the hexside between them
                if let (Some(a), Some(b)) = (&h, &o) {
                    let what = "kessel.emit.marker";
                    let mut m = super::markers::marker(&w, id, what)?;
                    let (a, b) = super::markers::side_of(&w, a, b, what)?;
                    m.hex = Some(a);
                    m.other = Some(b);
                    return emit(lua, &w, Event::MarkerChanged { marker: m });
                }
                let hex = match h {
                    Some(h) => Some(hex_of(&w, &h)?),
                    None => None,
                };
                emit(lua, &w, Event::MarkerMoved { marker: id, hex })
            },
        )?,
    )?;
    let w = world.clone();
    e.set(
        "note",
        super::function(
            lua,
            move |lua, (rule, text, Opts(opts)): (Option<String>, String, Opts)| {
                bounded(
                    rule.as_deref().unwrap_or(""),
                    "kessel.emit.note: the rule",
                    MAX_NAME,
                )?;
                bounded(&text, "kessel.emit.note: the text", MAX_TEXT)?;
                let secret_to = secret_to(&w, opts.as_ref(), "kessel.emit.note")?;
                emit(
                    lua,
                    &w,
                    Event::Note {
                        rule,
                        text,
                        secret_to,
                    },
                )
            },
        )?,
    )?;
    // this game is the campaign's last: `kessel.emit.end_campaign("9.6", "the CG is over")`
    let w = world.clone();
    e.set(
        "end_campaign",
        super::function(lua, move |lua, (rule, text): (Option<String>, String)| {
            bounded(
                rule.as_deref().unwrap_or(""),
                "kessel.emit.end_campaign: the rule",
                MAX_NAME,
            )?;
            bounded(&text, "kessel.emit.end_campaign: the text", MAX_TEXT)?;
            if text.trim().is_empty() {
                return Err(mlua::Error::runtime(
                    "kessel.emit.end_campaign: say why the campaign ends (the text is empty); players read it where the next game would have started",
                ));
            }
            emit(lua, &w, Event::CampaignEnded { rule, text })
        })?,
    )?;
    // a resolution as data: `kessel.emit.record{ kind = "combat", rule = "9.5", fields = {...} }`
    let w = world.clone();
    e.set(
        "record",
        super::function(lua, move |lua, t: Table| {
            for pair in t.pairs::<mlua::Value, mlua::Value>() {
                let (k, _) = pair?;
                let key = match &k {
                    mlua::Value::String(s) => s.to_string_lossy(),
                    other => format!("[{}]", other.type_name()),
                };
                if !["kind", "rule", "fields", "secret_to"].contains(&key.as_str()) {
                    let known = [
                        "kind".to_string(),
                        "rule".into(),
                        "fields".into(),
                        "secret_to".into(),
                    ];
                    let hint = crate::names::did_you_mean(&key, &known);
                    return Err(mlua::Error::runtime(format!(
                        "kessel.emit.record: unknown key `{key}`{hint}; keys: kind, rule, fields, secret_to"
                    )));
                }
            }
            let kind: String = t.get::<Option<String>>("kind")?.ok_or_else(|| {
                mlua::Error::runtime("kessel.emit.record: `kind` is required")
            })?;
            let rule: Option<String> = t.get("rule")?;
            named(&kind, "kessel.emit.record: the kind")?;
            bounded(
                rule.as_deref().unwrap_or(""),
                "kessel.emit.record: the rule",
                MAX_NAME,
            )?;
            let fields: Value = match t.get::<mlua::Value>("fields")? {
                mlua::Value::Nil => Value::Object(Default::default()),
                v @ mlua::Value::Table(_) => {
                    let what = format!("kessel.emit.record `{kind}`: the fields");
                    super::bounded_from_value(lua, v, &what, MAX_VALUE).map_err(|e| match e {
                        mlua::Error::RuntimeError(_) => e,
                        other => mlua::Error::runtime(format!(
                            "kessel.emit.record `{kind}`: fields are plain data (strings, numbers, booleans, tables of them): {other}"
                        )),
                    })?
                }
                other => {
                    return Err(mlua::Error::runtime(format!(
                        "kessel.emit.record `{kind}`: fields are a table, not {}",
                        super::a_type(&other)
                    )))
                }
            };
            // `{}` from Lua comes back as an empty array or object; a record's fields are an object
            let fields = match fields {
                Value::Array(a) if a.is_empty() => Value::Object(Default::default()),
                v => v,
            };
            let size = serde_json::to_vec(&fields)
                .map(|b| b.len())
                .unwrap_or(usize::MAX);
            if size > MAX_VALUE {
                return Err(mlua::Error::runtime(format!(
                    "kessel.emit.record `{kind}`: the fields are {size} bytes as JSON, over the limit ({MAX_VALUE})"
                )));
            }
            let secret_to: Option<String> = t.get("secret_to")?;
            if let Some(side) = &secret_to {
                check_side(&w, side, "kessel.emit.record")?;
            }
            emit(
                lua,
                &w,
                Event::Record {
                    kind,
                    rule,
                    fields,
                    secret_to,
                },
            )
        })?,
    )?;
    super::sequence::register(lua, &e, world)?;
    kessel.set("emit", e)?;

    let d = lua.create_table()?;
    let w = world.clone();
    d.set(
        "roll",
        super::function(
            lua,
            move |lua, (first, sides, Opts(opts)): (mlua::Value, mlua::Value, Opts)| {
                const WHAT: &str = "kessel.dice.roll";
                // roll(purpose?, sides?, { secret_to = side }?) or roll{ purpose =, sides =, secret_to = }
                let (purpose, sides, secret) = match first {
                    mlua::Value::Table(t) => {
                        super::strict_keys(&t, WHAT, &["purpose", "sides", "secret_to"])?;
                        let secret: Option<String> = t.get("secret_to")?;
                        if let Some(side) = &secret {
                            check_side(&w, side, WHAT)?;
                        }
                        (t.get::<Option<String>>("purpose")?, t.get("sides")?, secret)
                    }
                    mlua::Value::Nil => (None, sides, secret_to(&w, opts.as_ref(), WHAT)?),
                    mlua::Value::String(_) | mlua::Value::Integer(_) | mlua::Value::Number(_) => (
                        Some(String::from_lua(first, lua)?),
                        sides,
                        secret_to(&w, opts.as_ref(), WHAT)?,
                    ),
                    other => {
                        return Err(mlua::Error::runtime(format!(
                            "{WHAT}: the purpose is a string (or the call a table), not {}",
                            super::describe_value(&other)
                        )))
                    }
                };
                roll_for(
                    lua,
                    &w,
                    purpose.as_deref().unwrap_or("roll"),
                    die_sides(&sides, WHAT)?,
                    secret,
                )
            },
        )?,
    )?;
    kessel.set("dice", d)?;
    Ok(())
}

/// The sides of a die a script asked for: 6 when not given, else a whole number of 1 or more (a
/// 0-sided die rolled 1 before, and 1.5 or NaN were "out of range" in the binding's words).
fn die_sides(v: &mlua::Value, what: &str) -> mlua::Result<u32> {
    // (a whole float is judged by its size like an integer: 2^53 or 1e308 was "not a whole
    // number")
    let n = match v {
        mlua::Value::Nil => return Ok(6),
        mlua::Value::Integer(i) => Some(*i as f64),
        mlua::Value::Number(x) if x.is_finite() && x.fract() == 0.0 => Some(*x),
        _ => None,
    };
    let shown = super::describe_value(v);
    match n {
        Some(n) if n < 1.0 => Err(mlua::Error::runtime(format!(
            "{what}: a die has at least 1 side (got {shown})"
        ))),
        Some(n) if n > f64::from(u32::MAX) => Err(mlua::Error::runtime(format!(
            "{what}: a die of {shown} sides is too large (at most {})",
            u32::MAX
        ))),
        // (whole, from 1 to u32::MAX: exact as a float and as the integer)
        Some(n) => Ok(n as u32),
        None => Err(mlua::Error::runtime(format!(
            "{what}: the sides of a die are a whole number, not {shown}"
        ))),
    }
}
