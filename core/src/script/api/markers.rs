//! `kessel.emit.create_marker` (markers made in play), `kessel.emit.marker_value` (a value a
//! marker carries) and `kessel.emit.marker` with two hexes (a marker on a hexside): each call one
//! event with the marker's whole record.

use super::emit::{emit, named};
use super::{hex_of, plain};
use crate::event::Event;
use crate::hex::{Hex, Hexside};
use crate::state::{Marker, Value};
use crate::world::Shared;
use mlua::{Lua, Table};

/// The most markers a game may hold (as many as a scenario may ask for).
const MAX_MARKERS: usize = 100_000;
/// The largest marker value, as JSON.
const MAX_VALUE: usize = 64 * 1024;

fn value_of(lua: &Lua, v: &mlua::Value, what: &str) -> mlua::Result<Option<Value>> {
    if v.is_nil() {
        return Ok(None);
    }
    Ok(Some(plain::from_lua(lua, v, what, MAX_VALUE)?))
}

/// The hexside `a`–`b`, as the pair the marker keeps; refuses hexes that are not adjacent.
pub(super) fn side_of(world: &Shared, a: &str, b: &str, what: &str) -> mlua::Result<(Hex, Hex)> {
    let (ha, hb) = (hex_of(world, a)?, hex_of(world, b)?);
    if Hexside::between(ha, hb).is_none() {
        return Err(mlua::Error::runtime(format!(
            "{what}: {a} and {b} are not adjacent"
        )));
    }
    // one order for one side, so equal sides are equal records
    Ok(if ha <= hb { (ha, hb) } else { (hb, ha) })
}

pub(super) fn marker(world: &Shared, id: u32, what: &str) -> mlua::Result<Marker> {
    world
        .borrow()
        .state
        .markers
        .iter()
        .find(|m| m.id == id)
        .cloned()
        .ok_or_else(|| mlua::Error::runtime(format!("{what}: unknown marker {id}")))
}

pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    let e: Table = kessel.get("emit")?;

    let w = world.clone();
    e.set(
        "create_marker",
        super::function(lua, move |lua, t: Table| {
            let what = "kessel.emit.create_marker";
            super::strict_keys(
                &t,
                what,
                &["kind", "side", "hex", "other", "value", "hidden_from"],
            )?;
            let kind: String = t
                .get::<Option<String>>("kind")?
                .ok_or_else(|| mlua::Error::runtime(format!("{what}: needs a kind")))?;
            named(&kind, &format!("{what}: the kind"))?;
            let side: Option<String> = t.get("side")?;
            if let Some(s) = &side {
                super::emit::known_side(&w.borrow().state.sides, s, what)?;
            }
            let (hex, other) = match (
                t.get::<Option<String>>("hex")?,
                t.get::<Option<String>>("other")?,
            ) {
                (Some(a), Some(b)) => {
                    let (a, b) = side_of(&w, &a, &b, what)?;
                    (Some(a), Some(b))
                }
                (Some(a), None) => (Some(hex_of(&w, &a)?), None),
                (None, Some(_)) => {
                    return Err(mlua::Error::runtime(format!(
                        "{what}: `other` needs `hex` (the side between them)"
                    )))
                }
                (None, None) => (None, None),
            };
            let value = value_of(lua, &t.get("value")?, &format!("{what}: the value"))?;
            let hidden_from = super::secrets::hidden_from_option(
                &w,
                t.get("hidden_from")?,
                side.as_deref(),
                &format!("{what}: hidden_from"),
            )?;
            let id = {
                let wb = w.borrow();
                if wb.state.markers.len() >= MAX_MARKERS {
                    return Err(mlua::Error::runtime(format!(
                        "{what}: the game already holds {MAX_MARKERS} markers, the limit"
                    )));
                }
                // markers are kept in id order: the last has the largest id
                wb.state.markers.last().map_or(0, |m| m.id + 1)
            };
            emit(
                lua,
                &w,
                Event::MarkerCreated {
                    marker: Marker {
                        id,
                        kind,
                        side,
                        hex,
                        other,
                        value,
                    },
                },
            )?;
            super::secrets::set_marker_hidden(lua, &w, id, hidden_from, true)?;
            Ok(id)
        })?,
    )?;

    let w = world.clone();
    e.set(
        "marker_value",
        super::function(lua, move |lua, (id, v): (u32, mlua::Value)| {
            let what = "kessel.emit.marker_value";
            let mut m = marker(&w, id, what)?;
            m.value = value_of(lua, &v, &format!("{what}: the value"))?;
            emit(lua, &w, Event::MarkerChanged { marker: m })
        })?,
    )?;

    Ok(())
}
