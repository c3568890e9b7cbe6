//! `kessel.tables`: odds columns, results-table lookups and result distributions, over the tables
//! the ruleset declared.

use crate::world::Shared;
use mlua::{Lua, Table};

fn table_err(id: &str) -> mlua::Error {
    mlua::Error::runtime(format!("no results table `{id}`"))
}

pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    let t = lua.create_table()?;
    let w = world.clone();
    t.set(
        "odds",
        lua.create_function(
            move |lua, (id, att, def, shift): (String, i32, i32, Option<i32>)| {
                let wb = w.borrow();
                let table = wb
                    .ruleset
                    .table(&id, &wb.options)
                    .ok_or_else(|| table_err(&id))?;
                let o = table.odds(att, def, shift.unwrap_or(0));
                let out = lua.create_table()?;
                out.set("column", o.column + 1)?;
                out.set("label", table.columns[o.column].label(&table.kind))?;
                out.set("below", o.below)?;
                out.set("above", o.above)?;
                Ok(out)
            },
        )?,
    )?;
    let w = world.clone();
    t.set(
        "result",
        lua.create_function(move |_, (id, column, roll): (String, usize, i32)| {
            let wb = w.borrow();
            let table = wb
                .ruleset
                .table(&id, &wb.options)
                .ok_or_else(|| table_err(&id))?;
            Ok(table
                .result(column.saturating_sub(1), roll)
                .map(str::to_string))
        })?,
    )?;
    let w = world.clone();
    t.set(
        "distribution",
        lua.create_function(move |lua, (id, column): (String, usize)| {
            let wb = w.borrow();
            let table = wb
                .ruleset
                .table(&id, &wb.options)
                .ok_or_else(|| table_err(&id))?;
            let out = lua.create_table()?;
            for (code, p) in table.distribution(column.saturating_sub(1)) {
                let e = lua.create_table()?;
                e.set("result", code)?;
                e.set("p", p)?;
                out.push(e)?;
            }
            Ok(out)
        })?,
    )?;
    let w = world.clone();
    t.set(
        "columns",
        lua.create_function(move |_, id: String| {
            let wb = w.borrow();
            let table = wb
                .ruleset
                .table(&id, &wb.options)
                .ok_or_else(|| table_err(&id))?;
            Ok(table
                .columns
                .iter()
                .map(|c| c.label(&table.kind))
                .collect::<Vec<_>>())
        })?,
    )?;
    let w = world.clone();
    t.set(
        "lookup",
        lua.create_function(move |_, (id, roll): (String, i32)| {
            let wb = w.borrow();
            let table = wb
                .ruleset
                .dice_table(&id, &wb.options)
                .ok_or_else(|| mlua::Error::runtime(format!("no dice table `{id}`")))?;
            Ok(table.lookup(roll).map(str::to_string))
        })?,
    )?;
    let w = world.clone();
    t.set(
        "cell",
        lua.create_function(move |lua, (id, row, column): (String, String, String)| {
            let wb = w.borrow();
            let table = wb
                .ruleset
                .word_tables
                .get(&id)
                .ok_or_else(|| mlua::Error::runtime(format!("no word table `{id}`")))?;
            if !table.rows.contains(&row) {
                return Err(mlua::Error::runtime(format!(
                    "word table `{id}` has no row `{row}` (rows: {})",
                    table.rows.join(", ")
                )));
            }
            if !table.columns.contains(&column) {
                return Err(mlua::Error::runtime(format!(
                    "word table `{id}` has no column `{column}` (columns: {})",
                    table.columns.join(", ")
                )));
            }
            match table.cell(&row, &column) {
                Some(v) => super::plain::to_lua(lua, v),
                None => Ok(mlua::Value::Nil),
            }
        })?,
    )?;
    kessel.set("tables", t)?;
    Ok(())
}
