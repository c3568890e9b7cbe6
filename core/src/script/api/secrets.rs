//! Secrets in Lua: `kessel.emit.hide`, `.show`, `.commit`, `.open` (events applied at once, like
//! every `kessel.emit` call) and the reads `kessel.units.hidden_from`, `kessel.game.commitments`,
//! `kessel.game.view`. Rules read the whole truth; `kessel.game.view` is what one side is shown.

use super::emit::{check_side, check_unit, emit, named};
use super::plain;
use crate::event::Event;
use crate::secrets::Commitment;
use crate::world::Shared;
use mlua::{Lua, Table};

/// The largest committed choice, as JSON.
const MAX_CHOICE: usize = 64 * 1024;
/// The most commitments waiting to be opened at once.
pub(crate) const MAX_COMMITMENTS: usize = 10_000;

/// Why a value does not name sides.
pub(super) enum NotSides {
    /// Neither a side nor a list of sides: the value, described.
    Value(String),
    /// The first name that is not one of the sides.
    Unknown(String),
    /// The first side named twice (a list of a million repeats was taken as one side).
    Twice(String),
}

/// The sides `v` names among `all`: none (nil), a side, or a list of sides. The one reading of
/// every `from`, `to` and `hidden_from` the API takes; the callers word the refusal.
pub(super) fn sides_among(
    v: mlua::Value,
    all: &[String],
) -> mlua::Result<Result<Option<Vec<String>>, NotSides>> {
    let list = match v {
        mlua::Value::Nil => return Ok(Ok(None)),
        mlua::Value::String(s) => vec![s.to_str()?.to_string()],
        mlua::Value::Table(t) => {
            let lua = t.weak_lua().upgrade();
            <super::List<String> as mlua::FromLua>::from_lua(mlua::Value::Table(t), &lua)?.0
        }
        other => return Ok(Err(NotSides::Value(super::describe_value(&other)))),
    };
    if let Some(s) = list.iter().find(|s| !all.contains(s)) {
        return Ok(Err(NotSides::Unknown(s.clone())));
    }
    // (every name is a side, and sides are few: a short scan finds a repeat)
    let twice = list
        .iter()
        .enumerate()
        .find(|(i, s)| list[..*i].contains(s))
        .map(|(_, s)| s.clone());
    Ok(match twice {
        Some(s) => Err(NotSides::Twice(s)),
        None => Ok(Some(list)),
    })
}

/// Every side of `all` but `own` (every side, for no owner).
pub(super) fn others_than(all: &[String], own: Option<&str>) -> Vec<String> {
    all.iter()
        .filter(|s| Some(s.as_str()) != own)
        .cloned()
        .collect()
}

/// Sides named by an option (`from = "red"` or `from = { "red", "blue" }`), each checked.
fn sides_of(world: &Shared, v: mlua::Value, what: &str) -> mlua::Result<Option<Vec<String>>> {
    let all = world.borrow().state.sides.clone();
    match sides_among(v, &all)? {
        Ok(list) => Ok(list),
        Err(NotSides::Value(v)) => Err(mlua::Error::runtime(format!(
            "{what}: a side or a list of sides, not {v}"
        ))),
        Err(NotSides::Unknown(side)) => Err(super::emit::not_a_side(&side, &all, what)),
        Err(NotSides::Twice(side)) => Err(mlua::Error::runtime(format!(
            "{what}: side `{}` is listed twice; name each side once",
            crate::error::printable_name(&side)
        ))),
    }
}

/// The side named by `key` in an options table, if any.
fn option_sides(
    world: &Shared,
    opts: Option<&Table>,
    key: &str,
    what: &str,
) -> mlua::Result<Option<Vec<String>>> {
    let Some(t) = opts else {
        return Ok(None);
    };
    super::strict_keys(t, what, &[key])?;
    sides_of(world, t.get(key)?, what)
}

/// Hides (`on`) a unit from sides, or shows it to them, one event per side whose view changes.
fn set_hidden(
    lua: &Lua,
    world: &Shared,
    unit: String,
    sides: Vec<String>,
    on: bool,
) -> mlua::Result<()> {
    for side in sides {
        let already = world.borrow().state.secrets.is_hidden(&unit, &side);
        if already != on {
            emit(
                lua,
                world,
                Event::UnitHidden {
                    unit: unit.clone(),
                    side,
                    on,
                },
            )?;
        }
    }
    Ok(())
}

/// Hides (`on`) a marker from sides, or shows it to them, one event per side whose view changes.
pub(super) fn set_marker_hidden(
    lua: &Lua,
    world: &Shared,
    marker: u32,
    sides: Vec<String>,
    on: bool,
) -> mlua::Result<()> {
    for side in sides {
        let already = world.borrow().state.secrets.is_marker_hidden(marker, &side);
        if already != on {
            emit(lua, world, Event::MarkerHidden { marker, side, on })?;
        }
    }
    Ok(())
}

/// The sides a marker is hidden from when none are named: every side but the marker's own (every
/// side, for a marker of no side).
pub(super) fn other_sides(world: &Shared, own: Option<&str>) -> Vec<String> {
    others_than(&world.borrow().state.sides, own)
}

/// The sides named by `v` (a side, a list of sides, or `true` for every side but `own`).
pub(super) fn hidden_from_option(
    world: &Shared,
    v: mlua::Value,
    own: Option<&str>,
    what: &str,
) -> mlua::Result<Vec<String>> {
    match v {
        mlua::Value::Boolean(true) => Ok(other_sides(world, own)),
        mlua::Value::Boolean(false) => Ok(Vec::new()),
        v => Ok(sides_of(world, v, what)?.unwrap_or_default()),
    }
}

pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    let e: Table = kessel.get("emit")?;

    let w = world.clone();
    e.set(
        "hide",
        super::function(lua, move |lua, (unit, opts): (String, Option<Table>)| {
            const WHAT: &str = "kessel.emit.hide";
            check_unit(&w, &unit)?;
            let sides = match option_sides(&w, opts.as_ref(), "from", WHAT)? {
                Some(s) => s,
                None => {
                    // every side but the unit's own
                    let own = w.borrow().state.unit(&unit).map(|u| u.side.clone());
                    other_sides(&w, own.as_deref())
                }
            };
            set_hidden(lua, &w, unit, sides, true)
        })?,
    )?;
    let w = world.clone();
    e.set(
        "show",
        super::function(lua, move |lua, (unit, opts): (String, Option<Table>)| {
            const WHAT: &str = "kessel.emit.show";
            check_unit(&w, &unit)?;
            let sides = match option_sides(&w, opts.as_ref(), "to", WHAT)? {
                Some(s) => s,
                None => {
                    let wb = w.borrow();
                    wb.state
                        .secrets
                        .hidden_from(&unit)
                        .map(str::to_string)
                        .collect()
                }
            };
            set_hidden(lua, &w, unit, sides, false)
        })?,
    )?;
    let w = world.clone();
    e.set(
        "hide_marker",
        super::function(lua, move |lua, (id, opts): (u32, Option<Table>)| {
            const WHAT: &str = "kessel.emit.hide_marker";
            let m = super::markers::marker(&w, id, WHAT)?;
            let sides = match option_sides(&w, opts.as_ref(), "from", WHAT)? {
                Some(s) => s,
                None => other_sides(&w, m.side.as_deref()),
            };
            set_marker_hidden(lua, &w, id, sides, true)
        })?,
    )?;
    let w = world.clone();
    e.set(
        "show_marker",
        super::function(lua, move |lua, (id, opts): (u32, Option<Table>)| {
            const WHAT: &str = "kessel.emit.show_marker";
            super::markers::marker(&w, id, WHAT)?;
            let sides = match option_sides(&w, opts.as_ref(), "to", WHAT)? {
                Some(s) => s,
                None => {
                    let wb = w.borrow();
                    wb.state
                        .secrets
                        .marker_hidden_from(id)
                        .map(str::to_string)
                        .collect()
                }
            };
            set_marker_hidden(lua, &w, id, sides, false)
        })?,
    )?;
    let w = world.clone();
    e.set(
        "commit",
        super::function(lua,
            move |lua, (id, side, choice): (String, String, mlua::Value)| {
                const WHAT: &str = "kessel.emit.commit";
                named(&id, "kessel.emit.commit: the id")?;
                check_side(&w, &side, WHAT)?;
                if choice.is_nil() {
                    return Err(mlua::Error::runtime(format!(
                        "{WHAT} `{id}`: a commitment needs a choice (plain data, not nil)"
                    )));
                }
                let choice =
                    plain::from_lua(lua, &choice, &format!("{WHAT} `{id}`: the choice"), MAX_CHOICE)?;
                let salt = {
                    let wb = w.borrow();
                    let pending = &wb.state.secrets.commitments;
                    if pending.contains_key(&id) {
                        return Err(mlua::Error::runtime(format!(
                            "{WHAT}: commitment `{id}` is already made and not opened"
                        )));
                    }
                    if pending.len() >= MAX_COMMITMENTS {
                        return Err(mlua::Error::runtime(format!(
                            "{WHAT}: {MAX_COMMITMENTS} commitments are waiting to be opened, the most a game may hold"
                        )));
                    }
                    // the same game gives the same salt; nobody without the seed can work it out
                    let index = wb.log.len() as u64 * 1_000_000 + wb.pending.len() as u64;
                    wb.dice.salt(&id, index)
                };
                let commitment = Commitment::new(&id, &side, choice, &salt);
                let digest = commitment.digest.clone();
                emit(lua, &w, Event::Committed { commitment })?;
                Ok(digest)
            },
        )?,
    )?;
    let w = world.clone();
    e.set(
        "open",
        super::function(lua, move |lua, ids: Option<super::List<String>>| {
            let opened: Vec<Commitment> = {
                let wb = w.borrow();
                let pending = &wb.state.secrets.commitments;
                match ids {
                    None => pending.values().cloned().collect(),
                    Some(super::List(ids)) => ids
                        .iter()
                        .map(|id| {
                            pending.get(id).cloned().ok_or_else(|| {
                                mlua::Error::runtime(format!(
                                    "kessel.emit.open: no commitment `{id}` to open"
                                ))
                            })
                        })
                        .collect::<mlua::Result<_>>()?,
                }
            };
            let out = lua.create_table()?;
            if opened.is_empty() {
                return Ok(out);
            }
            for c in &opened {
                out.set(c.id.as_str(), plain::to_lua(lua, &c.choice)?)?;
            }
            emit(
                lua,
                &w,
                Event::Opened {
                    commitments: opened,
                },
            )?;
            Ok(out)
        })?,
    )?;

    let units: Table = kessel.get("units")?;
    let w = world.clone();
    units.set(
        "hidden_from",
        super::function(lua, move |_, unit: String| {
            check_unit(&w, &unit)?;
            let wb = w.borrow();
            Ok(wb
                .state
                .secrets
                .hidden_from(&unit)
                .map(str::to_string)
                .collect::<Vec<_>>())
        })?,
    )?;

    let markers: Table = kessel.get("markers")?;
    let w = world.clone();
    markers.set(
        "hidden_from",
        super::function(lua, move |_, id: u32| {
            super::markers::marker(&w, id, "kessel.markers.hidden_from")?;
            let wb = w.borrow();
            Ok(wb
                .state
                .secrets
                .marker_hidden_from(id)
                .map(str::to_string)
                .collect::<Vec<_>>())
        })?,
    )?;

    let game: Table = kessel.get("game")?;
    let w = world.clone();
    game.set(
        "commitments",
        super::function(lua, move |lua, ()| {
            let list: Vec<Commitment> = w
                .borrow()
                .state
                .secrets
                .commitments
                .values()
                .cloned()
                .collect();
            let out = lua.create_table()?;
            for c in list {
                let t = lua.create_table()?;
                t.set("id", c.id)?;
                t.set("side", c.side)?;
                t.set("digest", c.digest)?;
                t.set("choice", plain::to_lua(lua, &c.choice)?)?;
                out.push(t)?;
            }
            Ok(out)
        })?,
    )?;
    let w = world.clone();
    game.set(
        "view",
        super::function(lua, move |lua, (side, opts): (String, Option<Table>)| {
            view_table(lua, &w, &side, opts.as_ref())
        })?,
    )?;
    Ok(())
}

/// `kessel.game.view(side, { log = true }?)`: what `side` is shown, as plain data.
pub(crate) fn view_table(
    lua: &Lua,
    world: &Shared,
    side: &str,
    opts: Option<&Table>,
) -> mlua::Result<mlua::Value> {
    const WHAT: &str = "kessel.game.view";
    check_side(world, side, WHAT)?;
    let with_log = match opts {
        Some(t) => {
            super::strict_keys(t, WHAT, &["log"])?;
            super::bool_field(t, "log", WHAT)?.unwrap_or(false)
        }
        None => false,
    };
    let mut v = {
        let wb = world.borrow();
        if with_log {
            let secret = |kind: &str| wb.ruleset.secret_action(kind);
            crate::secrets::view(&wb.initial, &wb.log, &wb.state, side, &secret)
                .map_err(|e| mlua::Error::runtime(format!("{WHAT}: the log does not replay: {e}")))?
                .to_json()
        } else {
            crate::secrets::View {
                side: side.to_string(),
                state: crate::secrets::state_for(&wb.state, side),
                log: Vec::new(),
            }
            .to_json()
        }
    };
    if let Some(o) = v.as_object_mut() {
        if !with_log {
            o.remove("log");
        }
    }
    crate::script::charge(lua, serde_json::to_vec(&v).map_or(0, |b| b.len() as u64))?;
    plain::to_lua(lua, &v)
}
