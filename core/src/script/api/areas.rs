//! `kessel.map.regions` and `kessel.map.enclosed`: connected regions and enclosed hexes, computed
//! natively (`algo::areas`) instead of flood fills in Lua.

use super::hex_of;
use crate::algo::areas;
use crate::world::Shared;
use mlua::{Lua, Table};

/// A dense per-hex flag from a list of labels (each must be on the map).
fn flags(world: &Shared, labels: &[String]) -> mlua::Result<Vec<bool>> {
    let mut out = vec![false; world.borrow().state.map.len()];
    for l in labels {
        let hex = hex_of(world, l)?;
        if let Some(i) = world.borrow().state.map.index(hex) {
            out[i] = true;
        }
    }
    Ok(out)
}

/// The hexside-kind bits an options table's `sides = { ... }` shuts (unknown kinds shut nothing:
/// the map has no such side).
fn shut_bits(world: &Shared, opts: &Option<Table>, what: &str) -> mlua::Result<u32> {
    let Some(o) = opts else { return Ok(0) };
    // a misspelt `side = { ... }` would otherwise shut no hexside unseen
    super::strict_keys(o, what, &["sides"])?;
    let kinds: Vec<String> =
        (o.get::<Option<super::List<String>>>("sides")?).map_or_else(Vec::new, |l| l.0);
    let w = world.borrow();
    Ok(kinds
        .iter()
        .filter_map(|k| w.state.map.side_kinds.bit(k))
        .fold(0, |bits, bit| bits | bit))
}

pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    let m: Table = kessel.get("map")?;
    let w = world.clone();
    m.set(
        "regions",
        super::function(
            lua,
            move |lua, (super::List(hexes), opts): (super::List<String>, Option<Table>)| {
                crate::script::charge(lua, 32 * hexes.len() as u64)?;
                let member = flags(&w, &hexes)?;
                let shut = shut_bits(&w, &opts, "kessel.map.regions")?;
                crate::script::charge(lua, 16 * member.len() as u64)?;
                let wb = w.borrow();
                let map = &wb.state.map;
                let found = areas::regions(map, &member, |s| map.side_bits(s) & shut != 0);
                Ok(found
                    .into_iter()
                    .map(|r| {
                        r.into_iter()
                            .map(|i| map.label(map.hex_of_index(i)))
                            .collect::<Vec<_>>()
                    })
                    .collect::<Vec<_>>())
            },
        )?,
    )?;
    let w = world.clone();
    m.set(
        "enclosed",
        super::function(
            lua,
            move |lua, (super::List(walls), opts): (super::List<String>, Option<Table>)| {
                crate::script::charge(lua, 32 * walls.len() as u64)?;
                let wall = flags(&w, &walls)?;
                let shut = shut_bits(&w, &opts, "kessel.map.enclosed")?;
                crate::script::charge(lua, 16 * wall.len() as u64)?;
                let wb = w.borrow();
                let map = &wb.state.map;
                let found = areas::enclosed(map, &wall, |s| map.side_bits(s) & shut != 0);
                Ok(found
                    .into_iter()
                    .map(|i| map.label(map.hex_of_index(i)))
                    .collect::<Vec<_>>())
            },
        )?,
    )?;
    Ok(())
}
