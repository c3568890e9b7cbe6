//! `kessel.hex`: neighbours, distance, ranges and hexsides, on printed labels.

use super::{hex_in, on_map_labels, set_read};
use crate::hex::{HexDir, Hexside};
use crate::world::Shared;
use mlua::{Lua, Table};

/// The largest radius `kessel.hex.ring` and `range` accept.
const MAX_RADIUS: u32 = 10_000;

pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    let m = lua.create_table()?;
    set_read(lua, &m, world, "neighbors", |lua, w, h: String| {
        on_map_labels(lua, &w.state.map, hex_in(w, &h)?.neighbors())
    })?;
    set_read(
        lua,
        &m,
        world,
        "neighbor",
        |_, w, (h, dir): (String, String)| {
            let hex = hex_in(w, &h)?;
            let d = HexDir::from_name(&dir).ok_or_else(|| {
                mlua::Error::runtime(format!("`{dir}` is not a direction (N, NE, SE, S, SW, NW)"))
            })?;
            let (n, map) = (hex.neighbor(d), &w.state.map);
            Ok(map.contains(n).then(|| map.label(n)))
        },
    )?;
    set_read(
        lua,
        &m,
        world,
        "distance",
        |_, w, (a, b): (String, String)| Ok(hex_in(w, &a)?.distance_to(hex_in(w, &b)?)),
    )?;
    set_read(
        lua,
        &m,
        world,
        "adjacent",
        |_, w, (a, b): (String, String)| Ok(hex_in(w, &a)?.distance_to(hex_in(w, &b)?) == 1),
    )?;
    set_read(
        lua,
        &m,
        world,
        "direction",
        |_, w, (a, b): (String, String)| {
            Ok(hex_in(w, &a)?
                .direction_to(hex_in(w, &b)?)
                .map(|d| d.name()))
        },
    )?;
    for (name, ring) in [("range", false), ("ring", true)] {
        set_read(
            lua,
            &m,
            world,
            name,
            move |lua, w, (h, r): (String, i64)| {
                let hex = hex_in(w, &h)?;
                // (read wide, so a negative or huge radius is told the radii there are)
                if r < 0 {
                    return Err(mlua::Error::runtime(format!(
                        "kessel.hex.{name}: radius {r} is below 0 (a radius is from 0 to \
                         {MAX_RADIUS})"
                    )));
                }
                let r = match u32::try_from(r) {
                    Ok(r) if r <= MAX_RADIUS => r,
                    _ => {
                        return Err(mlua::Error::runtime(format!(
                            "kessel.hex.{name}: radius {r} is over the limit ({MAX_RADIUS})"
                        )))
                    }
                };
                // hexes farther than the map is wide and high are all off it: never allocate for them
                let map = &w.state.map;
                let extent = map.columns() + map.rows();
                let hexes = if ring && r > extent {
                    Vec::new()
                } else if ring {
                    hex.ring(r)
                } else {
                    hex.range(r.min(extent))
                };
                crate::script::charge(lua, 4 * hexes.len() as u64)?;
                on_map_labels(lua, map, hexes)
            },
        )?;
    }
    set_read(lua, &m, world, "side", |_, w, (a, b): (String, String)| {
        let side = Hexside::between(hex_in(w, &a)?, hex_in(w, &b)?)
            .ok_or_else(|| mlua::Error::runtime(format!("{a} and {b} are not adjacent")))?;
        let ((x, y), map) = (side.hexes(), &w.state.map);
        Ok(format!("{}/{}", map.label(x), map.label(y)))
    })?;
    // never raises: a value that is no label (nil, a table, a boolean) is no hex of the map
    set_read(lua, &m, world, "valid", |lua, w, v: mlua::Value| {
        let h = match v {
            mlua::Value::String(s) => s.to_string_lossy(),
            mlua::Value::Integer(i) => i.to_string(),
            mlua::Value::Number(n) => match lua.coerce_string(mlua::Value::Number(n))? {
                Some(s) => s.to_string_lossy(),
                None => return Ok(false),
            },
            _ => return Ok(false),
        };
        if h.len() > 64 {
            crate::script::charge(lua, h.len() as u64)?;
        }
        Ok(w.state.map.parse(&h).is_some())
    })?;
    // a straight line between two hex centres: { hex = label, alt = label? } per step
    set_read(
        lua,
        &m,
        world,
        "line",
        |lua, w, (a, b): (String, String)| {
            let steps = hex_in(w, &a)?.line_to(hex_in(w, &b)?);
            crate::script::charge(lua, 8 * steps.len() as u64)?;
            let map = &w.state.map;
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
        },
    )?;
    set_read(lua, &m, world, "grain", |_, w, (a, b): (String, String)| {
        Ok(hex_in(w, &a)?.grain_to(hex_in(w, &b)?).map(|g| g.name()))
    })?;
    kessel.set("hex", m)?;
    Ok(())
}
