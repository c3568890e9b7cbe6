//! `kessel.log`: the game's history as data, read-only. `records{kind=, last=}` gives the
//! structured records (`kessel.emit.record`) of the accepted actions, so scripts, tests and rules
//! read a combat's odds or result without parsing a note.

use crate::event::Event;
use crate::world::Shared;
use mlua::{Lua, LuaSerdeExt, Table};

pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    let log = lua.create_table()?;
    let w = world.clone();
    log.set(
        "records",
        super::function(lua, move |lua, filter: mlua::Value| {
            let filter = match filter {
                mlua::Value::Nil => None,
                mlua::Value::Table(t) => Some(t),
                other => {
                    return Err(mlua::Error::runtime(format!(
                        "kessel.log.records takes a filter table, `{{ kind = \"...\", last = n }}`, or nothing; got a {}",
                        other.type_name()
                    )))
                }
            };
            let (kind, last) = match &filter {
                Some(f) => {
                    const KEYS: [&str; 2] = ["kind", "last"];
                    for pair in f.pairs::<mlua::Value, mlua::Value>() {
                        let (k, _) = pair?;
                        let name = match &k {
                            mlua::Value::String(s) => s.to_string_lossy(),
                            other => format!("[{}]", super::describe_value(other)),
                        };
                        if !KEYS.contains(&name.as_str()) {
                            return Err(mlua::Error::runtime(format!(
                                "kessel.log.records: unknown key `{name}`{}; keys: kind, last",
                                crate::names::did_you_mean(&name, &KEYS)
                            )));
                        }
                    }
                    let last = match f.get::<mlua::Value>("last")? {
                        mlua::Value::Nil => None,
                        mlua::Value::Integer(n) if n >= 0 => Some(n as usize),
                        mlua::Value::Number(n) if n >= 0.0 && n.fract() == 0.0 && n < 1e15 => {
                            Some(n as usize)
                        }
                        other => {
                            return Err(mlua::Error::runtime(format!(
                                "kessel.log.records: `last` is a whole number, 0 or more, not {}",
                                super::describe_value(&other)
                            )))
                        }
                    };
                    (f.get::<Option<String>>("kind")?, last)
                }
                None => (None, None),
            };
            // (action number, the record) for every match, oldest first
            let found: Vec<(usize, Event)> = {
                let wb = w.borrow();
                wb.log
                    .iter()
                    .enumerate()
                    .flat_map(|(i, entry)| entry.events.iter().map(move |e| (i + 1, e)))
                    .filter(|(_, e)| match e {
                        Event::Record { kind: k, .. } => kind.as_ref().is_none_or(|want| want == k),
                        _ => false,
                    })
                    .map(|(i, e)| (i, e.clone()))
                    .collect()
            };
            let skip = last.map_or(0, |n| found.len().saturating_sub(n));
            crate::script::charge(lua, 64 * (found.len() - skip) as u64)?;
            let out = lua.create_table()?;
            for (action, e) in found.into_iter().skip(skip) {
                if let Event::Record {
                    kind, rule, fields, ..
                } = e
                {
                    let t = lua.create_table()?;
                    t.set("action", action)?;
                    t.set("kind", kind)?;
                    t.set("rule", rule)?;
                    t.set("fields", lua.to_value(&fields)?)?;
                    out.raw_push(t)?;
                }
            }
            Ok(out)
        })?,
    )?;
    kessel.set("log", log)?;
    Ok(())
}
