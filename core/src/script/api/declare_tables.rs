//! The tables a ruleset declares while it loads: `kessel.results_table` (a combat results table
//! by odds or differential), `kessel.dice_table` and `kessel.word_table`. Each is checked whole
//! when declared, so a game never looks up a cell that is not there.

use super::declare::{req, req_id, when_of};
use super::declare_limits::{caller_site, declared_once, declaring, table_size};
use super::strict_keys;
use crate::ruleset::VariantData;
use crate::tables::{Column, DiceTable, OddsKind, ResultsTable};
use crate::world::Shared;
use mlua::{Lua, Table};

pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    let w = world.clone();
    kessel.set(
        "results_table",
        super::function(lua, move |lua, t: Table| {
            declaring(lua, &w, "results_table", table_size(&t))?;
            let id: String = req_id(&t, "id", "results_table")?;
            strict_keys(
                &t,
                &format!("kessel.results_table `{id}`"),
                &[
                    "id",
                    "kind",
                    "columns",
                    "first_roll",
                    "rows",
                    "die",
                    "description",
                    "rule",
                    "when",
                ],
            )?;
            let when = when_of(lua, &t, "results_table")?;
            if when.is_none() {
                declared_once(lua, "results_table", &id)?;
            }
            let kind = match t.get::<Option<String>>("kind")?.as_deref() {
                None | Some("ratio") => OddsKind::Ratio,
                Some("differential") => OddsKind::Differential,
                Some(other) => {
                    return Err(mlua::Error::runtime(format!(
                        "results_table `{id}`: kind is \"ratio\" or \"differential\", not `{other}`"
                    )))
                }
            };
            let labels: Vec<String> = req(&t, "columns", "results_table")?;
            let mut columns = Vec::new();
            for l in &labels {
                // (a column's numbers said as such: the parser's own words are "invalid digit")
                let bad = |shape: &str| {
                    mlua::Error::runtime(format!(
                        "results_table `{id}`: column `{l}` is not {shape}"
                    ))
                };
                let col = match kind {
                    OddsKind::Ratio => {
                        let shape = "A-D, two whole numbers such as 3-1";
                        let (a, d) = l.split_once('-').ok_or_else(|| bad(shape))?;
                        Column {
                            att: a.trim().parse().map_err(|_| bad(shape))?,
                            def: d.trim().parse().map_err(|_| bad(shape))?,
                        }
                    }
                    OddsKind::Differential => Column {
                        att: l
                            .trim()
                            .trim_start_matches('+')
                            .parse()
                            .map_err(|_| bad("a whole number such as +3 or -2"))?,
                        def: 0,
                    },
                };
                columns.push(col);
            }
            let table = ResultsTable {
                id: id.clone(),
                kind,
                columns,
                // (read whole, and said in the table's words: an i32 said its own range)
                first_roll: crate::tables::first_roll_of(
                    t.get::<Option<i64>>("first_roll")?.unwrap_or(1),
                )
                .map_err(|e| mlua::Error::runtime(format!("kessel.results_table `{id}`: {e}")))?,
                rows: result_rows(&id, req(&t, "rows", "results_table")?)?,
                die: (t.get::<Option<i64>>("die")?)
                    .map(crate::tables::die_of)
                    .transpose()
                    .map_err(|e| {
                        mlua::Error::runtime(format!("kessel.results_table `{id}`: {e}"))
                    })?,
            };
            table
                .validate()
                .map_err(|e| mlua::Error::runtime(e.to_string()))?;
            let site = caller_site(lua);
            let data = VariantData::Table(table);
            (w.borrow_mut().ruleset.declare_data(when, data, site)).map_err(mlua::Error::runtime)
        })?,
    )?;

    let w = world.clone();
    kessel.set(
        "dice_table",
        super::function(lua, move |lua, t: Table| {
            declaring(lua, &w, "dice_table", table_size(&t))?;
            let id: String = req_id(&t, "id", "dice_table")?;
            let what = format!("kessel.dice_table `{id}`");
            strict_keys(&t, &what, &["id", "bands", "description", "rule", "when"])?;
            let when = when_of(lua, &t, "dice_table")?;
            if when.is_none() {
                declared_once(lua, "dice_table", &id)?;
            }
            let raw: Vec<mlua::Value> = req(&t, "bands", "dice_table")?;
            let mut bands: Vec<(i32, String)> = Vec::new();
            for (i, b) in raw.into_iter().enumerate() {
                let band = match b.as_table() {
                    Some(b) => (
                        b.get::<Option<i32>>(1).ok().flatten(),
                        b.get::<Option<String>>(2).ok().flatten(),
                    ),
                    None => (None, None),
                };
                let (Some(from), Some(result)) = band else {
                    return Err(mlua::Error::runtime(format!(
                        "{what}: band {} is {{ lowest roll, result }}, like {{ 3, \"hit\" }}",
                        i + 1
                    )));
                };
                if let Some((prev, _)) = bands.last() {
                    if from <= *prev {
                        return Err(mlua::Error::runtime(format!(
                            "{what}: bands go up by their lowest roll; band {} starts at {from}, after {prev}",
                            i + 1
                        )));
                    }
                }
                bands.push((from, result));
            }
            if bands.is_empty() {
                return Err(mlua::Error::runtime(format!("{what}: no bands")));
            }
            let table = DiceTable { id: id.clone(), bands };
            let site = caller_site(lua);
            let data = VariantData::Dice(table);
            (w.borrow_mut().ruleset.declare_data(when, data, site)).map_err(mlua::Error::runtime)
        })?,
    )?;

    let w = world.clone();
    kessel.set(
        "word_table",
        super::function(lua, move |lua, t: Table| {
            declaring(lua, &w, "word_table", table_size(&t))?;
            let id: String = req_id(&t, "id", "word_table")?;
            declared_once(lua, "word_table", &id)?;
            let rows: Vec<String> = req(&t, "rows", "word_table")?;
            let columns: Vec<String> = req(&t, "columns", "word_table")?;
            let raw: Vec<Table> = req(&t, "cells", "word_table")?;
            let mut cells = Vec::new();
            for r in raw {
                let n = r.raw_len().max(columns.len());
                let mut row = Vec::new();
                for i in 1..=n {
                    let v: mlua::Value = r.raw_get(i)?;
                    let what = format!("word_table `{id}`: a cell");
                    row.push(super::plain::from_lua(lua, &v, &what, 1 << 20)?);
                }
                cells.push(row);
            }
            let table = crate::tables::WordTable {
                id: id.clone(),
                rows,
                columns,
                cells,
            };
            table
                .validate()
                .map_err(|e| mlua::Error::runtime(e.to_string()))?;
            w.borrow_mut().ruleset.word_tables.insert(id, table);
            Ok(())
        })?,
    )?;
    Ok(())
}

/// A results table's rows of result codes: strings, or numbers Lua would write as such (a NaN
/// or an infinity is no result).
fn result_rows(id: &str, rows: Vec<Vec<mlua::Value>>) -> mlua::Result<Vec<Vec<String>>> {
    rows.into_iter()
        .enumerate()
        .map(|(r, row)| {
            row.into_iter()
                .enumerate()
                .map(|(c, cell)| {
                    let bad = |shown: String| {
                        mlua::Error::runtime(format!(
                            "kessel.results_table `{id}`: row {}, column {} is {shown}, not a result",
                            r + 1,
                            c + 1
                        ))
                    };
                    match cell {
                        mlua::Value::String(s) => Ok(s.to_str()?.to_string()),
                        mlua::Value::Integer(n) => Ok(n.to_string()),
                        // (as Lua writes it: 2.0 stays "2.0")
                        mlua::Value::Number(x) if x.is_finite() && x.fract() == 0.0 && x.abs() < 1e15 => {
                            Ok(format!("{x:.1}"))
                        }
                        mlua::Value::Number(x) if x.is_finite() => Ok(x.to_string()),
                        mlua::Value::Number(x) if x.is_nan() => Err(bad("NaN".into())),
                        mlua::Value::Number(x) => Err(bad(x.to_string())),
                        other => Err(bad(format!("a {}", other.type_name()))),
                    }
                })
                .collect()
        })
        .collect()
}
