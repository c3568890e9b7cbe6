//! `kessel.hex`: neighbours, distance, ranges and hexsides, on printed labels.

use super::{hex_of, label_of, on_map_labels};
use crate::hex::{HexDir, Hexside};
use crate::world::Shared;
use mlua::{Lua, Table};

/// The largest radius `kessel.hex.ring` and `range` accept.
const MAX_RADIUS: u32 = 10_000;

pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    let m = lua.create_table()?;

    let w = world.clone();
    m.set(
        "neighbors",
        lua.create_function(move |lua, h: String| {
            let hex = hex_of(&w, &h)?;
            on_map_labels(lua, &w.borrow().state.map, hex.neighbors())
        })?,
    )?;

    let w = world.clone();
    m.set(
        "neighbor",
        lua.create_function(move |_, (h, dir): (String, String)| {
            let hex = hex_of(&w, &h)?;
            let d = HexDir::from_name(&dir).ok_or_else(|| {
                mlua::Error::runtime(format!("`{dir}` is not a direction (N, NE, SE, S, SW, NW)"))
            })?;
            let n = hex.neighbor(d);
            let wb = w.borrow();
            Ok(wb.state.map.contains(n).then(|| wb.state.map.label(n)))
        })?,
    )?;

    let w = world.clone();
    m.set(
        "distance",
        lua.create_function(move |_, (a, b): (String, String)| {
            Ok(hex_of(&w, &a)?.distance_to(hex_of(&w, &b)?))
        })?,
    )?;

    let w = world.clone();
    m.set(
        "adjacent",
        lua.create_function(move |_, (a, b): (String, String)| {
            Ok(hex_of(&w, &a)?.distance_to(hex_of(&w, &b)?) == 1)
        })?,
    )?;

    let w = world.clone();
    m.set(
        "direction",
        lua.create_function(move |_, (a, b): (String, String)| {
            Ok(hex_of(&w, &a)?
                .direction_to(hex_of(&w, &b)?)
                .map(|d| d.name()))
        })?,
    )?;

    for (name, ring) in [("range", false), ("ring", true)] {
        let w = world.clone();
        m.set(
            name,
            lua.create_function(move |lua, (h, r): (String, u32)| {
                let hex = hex_of(&w, &h)?;
                if r > MAX_RADIUS {
                    return Err(mlua::Error::runtime(format!(
                        "kessel.hex.{name}: radius {r} is over the limit ({MAX_RADIUS})"
                    )));
                }
                // hexes farther than the map is wide and high are all off it: never allocate for them
                let extent = {
                    let wb = w.borrow();
                    wb.state.map.columns() + wb.state.map.rows()
                };
                let hexes = if ring && r > extent {
                    Vec::new()
                } else if ring {
                    hex.ring(r)
                } else {
                    hex.range(r.min(extent))
                };
                crate::script::charge(lua, 4 * hexes.len() as u64)?;
                on_map_labels(lua, &w.borrow().state.map, hexes)
            })?,
        )?;
    }

    let w = world.clone();
    m.set(
        "side",
        lua.create_function(move |_, (a, b): (String, String)| {
            let (ha, hb) = (hex_of(&w, &a)?, hex_of(&w, &b)?);
            let side = Hexside::between(ha, hb)
                .ok_or_else(|| mlua::Error::runtime(format!("{a} and {b} are not adjacent")))?;
            let (x, y) = side.hexes();
            Ok(format!("{}/{}", label_of(&w, x), label_of(&w, y)))
        })?,
    )?;

    let w = world.clone();
    m.set(
        "valid",
        lua.create_function(move |lua, h: String| {
            if h.len() > 64 {
                crate::script::charge(lua, h.len() as u64)?;
            }
            Ok(w.borrow().state.map.parse(&h).is_some())
        })?,
    )?;

    // a straight line between two hex centres: { hex = label, alt = label? } per step
    let w = world.clone();
    m.set(
        "line",
        lua.create_function(move |lua, (a, b): (String, String)| {
            let (ha, hb) = (hex_of(&w, &a)?, hex_of(&w, &b)?);
            let steps = ha.line_to(hb);
            crate::script::charge(lua, 8 * steps.len() as u64)?;
            let wb = w.borrow();
            let map = &wb.state.map;
            let out = lua.create_table()?;
            for step in steps {
                let t = lua.create_table()?;
                t.set("hex", map.label(step.hex))?;
                if let Some(alt) = step.alt.filter(|h| map.contains(*h)) {
                    t.set("alt", map.label(alt))?;
                }
                out.push(t)?;
            }
            Ok(out)
        })?,
    )?;

    let w = world.clone();
    m.set(
        "grain",
        lua.create_function(move |_, (a, b): (String, String)| {
            Ok(hex_of(&w, &a)?.grain_to(hex_of(&w, &b)?).map(|g| g.name()))
        })?,
    )?;

    kessel.set("hex", m)?;
    Ok(())
}
