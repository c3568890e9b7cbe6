//! `kessel.tables`: odds columns, results-table lookups and result distributions, over the tables
//! the ruleset declared.

use super::set_read;
use crate::tables::ResultsTable;
use crate::world::{Shared, World};
use mlua::{Lua, Table};

/// The refusal of a table id the ruleset does not declare, naming the nearest and the ones it
/// does (it said only "no results table `x`").
fn no_table<T>(kind: &str, id: &str, known: &std::collections::BTreeMap<String, T>) -> mlua::Error {
    let names: Vec<&str> = known.keys().map(String::as_str).collect();
    let listed = if names.is_empty() {
        "the ruleset declares none".to_string()
    } else {
        format!("declared: {}", names.join(", "))
    };
    mlua::Error::runtime(format!(
        "no {kind} `{id}`{} ({listed})",
        crate::names::did_you_mean(id, &names)
    ))
}

/// The results table `id` under the options in force.
fn results_table<'w>(w: &'w World, id: &str) -> mlua::Result<&'w ResultsTable> {
    w.ruleset
        .table(id, &w.options)
        .ok_or_else(|| no_table("results table", id, &w.ruleset.tables))
}

pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    let t = lua.create_table()?;
    type OddsArgs = (String, i32, i32, Option<i32>);
    set_read(
        lua,
        &t,
        world,
        "odds",
        |lua, w, (id, att, def, shift): OddsArgs| {
            let table = results_table(w, &id)?;
            crate::tables::check_strengths(att, def).map_err(mlua::Error::runtime)?;
            let o = table.odds(att, def, shift.unwrap_or(0));
            use super::strings::{intern, text};
            use mlua::IntoLua;
            let label = table.columns[o.column].label(&table.kind);
            let pairs = vec![
                mlua::Value::String(intern(lua, "column")?),
                (o.column + 1).into_lua(lua)?,
                mlua::Value::String(intern(lua, "label")?),
                mlua::Value::String(text(lua, &label)?),
                mlua::Value::String(intern(lua, "below")?),
                o.below.into_lua(lua)?,
                mlua::Value::String(intern(lua, "above")?),
                o.above.into_lua(lua)?,
            ];
            super::strings::fill(lua, lua.create_table()?, pairs)
        },
    )?;
    set_read(
        lua,
        &t,
        world,
        "result",
        |_, w, (id, column, roll): (String, i64, i32)| {
            let table = results_table(w, &id)?;
            Ok(table
                .result(first_based("kessel.tables.result", column)?, roll)
                .map(str::to_string))
        },
    )?;
    set_read(
        lua,
        &t,
        world,
        "distribution",
        |lua, w, (id, column, drm): (String, i64, Option<i32>)| {
            let table = results_table(w, &id)?;
            let (result, p_key) = (
                super::strings::intern(lua, "result")?,
                super::strings::intern(lua, "p")?,
            );
            let rows = table.distribution(
                first_based("kessel.tables.distribution", column)?,
                drm.unwrap_or(0),
            );
            let mut values = Vec::with_capacity(2 * rows.len());
            for (code, p) in &rows {
                values.push(mlua::Value::String(super::strings::text(lua, code)?));
                values.push(mlua::Value::Number(*p));
            }
            if let Some(out) =
                super::strings::pairs_list(lua, result.clone(), p_key.clone(), values)?
            {
                return Ok(out);
            }
            let out = lua.create_table()?;
            for (code, p) in rows {
                let e = lua.create_table()?;
                e.set(&result, code)?;
                e.set(&p_key, p)?;
                out.push(e)?;
            }
            Ok(out)
        },
    )?;
    set_read(lua, &t, world, "columns", |_, w, id: String| {
        let table = results_table(w, &id)?;
        let labels = table.columns.iter().map(|c| c.label(&table.kind));
        Ok(labels.collect::<Vec<_>>())
    })?;
    set_read(
        lua,
        &t,
        world,
        "lookup",
        |_, w, (id, roll): (String, i32)| {
            let table = w
                .ruleset
                .dice_table(&id, &w.options)
                .ok_or_else(|| no_table("dice table", &id, &w.ruleset.dice_tables))?;
            Ok(table.lookup(roll).map(str::to_string))
        },
    )?;
    type CellArgs = (String, String, String);
    set_read(
        lua,
        &t,
        world,
        "cell",
        |lua, w, (id, row, column): CellArgs| {
            let table = w
                .ruleset
                .word_tables
                .get(&id)
                .ok_or_else(|| no_table("word table", &id, &w.ruleset.word_tables))?;
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
        },
    )?;
    kessel.set("tables", t)?;
    Ok(())
}

/// A column as the scripts count them (from 1, as `kessel.tables.odds` gives it), as an index.
/// Column 0 read as column 1: a script counting from 0 got the column left of the one it meant,
/// without a word.
fn first_based(call: &str, column: i64) -> mlua::Result<usize> {
    match column {
        // (past the last column reads as no result, as documented)
        1.. => Ok(usize::try_from(column - 1).unwrap_or(usize::MAX)),
        _ => Err(mlua::Error::runtime(format!(
            "{call}: column {column}; columns count from 1 (the `column` of kessel.tables.odds)"
        ))),
    }
}
