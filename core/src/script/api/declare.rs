//! Declarations a ruleset makes while it loads: `kessel.ruleset`, `.unit_type`, `.terrain`,
//! `.hexside_kind`, `.place_kind`, `.movement`, `.results_table`, `.dice_table`, `.sequence`,
//! `.option`, `.action`, `.on`, `.constant`, `.scenario_var`.

use crate::options::{OptionDecl, OptionType};
use crate::ruleset::{ActionDecl, KindDecl, Step};
use crate::state::Value;
use crate::tables::{Column, DiceTable, OddsKind, ResultsTable};
use crate::world::{Shared, Stage};
use mlua::{Function, Lua, LuaSerdeExt, Table};

fn declaring(world: &Shared, what: &str) -> mlua::Result<()> {
    if world.borrow().stage() != Stage::Declare {
        return Err(mlua::Error::runtime(format!(
            "kessel.{what} is a declaration: call it while the ruleset loads, not during play"
        )));
    }
    Ok(())
}

fn req<T: mlua::FromLua>(t: &Table, key: &str, what: &str) -> mlua::Result<T> {
    t.get::<Option<T>>(key)?
        .ok_or_else(|| mlua::Error::runtime(format!("kessel.{what}: `{key}` is required")))
}

fn kind_decl(lua: &Lua, t: &Table, what: &str) -> mlua::Result<KindDecl> {
    Ok(KindDecl {
        id: req(t, "id", what)?,
        props: lua.from_value(mlua::Value::Table(t.clone()))?,
    })
}

/// Movement costs are MP: a negative, infinite or NaN number is a mistake, said where it is.
fn check_costs(v: &mlua::Value, path: &str, depth: u32) -> mlua::Result<()> {
    let bad = |n: String| {
        Err(mlua::Error::runtime(format!(
            "{path} = {n}: a movement cost must be a finite number of MP, 0 or more"
        )))
    };
    match v {
        mlua::Value::Number(n) if !n.is_finite() || *n < 0.0 => bad(n.to_string()),
        mlua::Value::Integer(i) if *i < 0 => bad(i.to_string()),
        mlua::Value::Table(t) if depth < 16 => {
            for pair in t.pairs::<mlua::Value, mlua::Value>() {
                let (k, v) = pair?;
                let key = match &k {
                    mlua::Value::String(s) => s.to_string_lossy(),
                    other => format!("{other:?}"),
                };
                check_costs(&v, &format!("{path}.{key}"), depth + 1)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    let w = world.clone();
    kessel.set(
        "ruleset",
        lua.create_function(move |_, t: Table| {
            declaring(&w, "ruleset")?;
            // read the Lua table before borrowing the world: its metamethods may call the engine
            let name = req(&t, "name", "ruleset")?;
            let sides = req(&t, "sides", "ruleset")?;
            let mut wm = w.borrow_mut();
            wm.ruleset.name = name;
            wm.ruleset.sides = sides;
            Ok(())
        })?,
    )?;

    let w = world.clone();
    kessel.set(
        "unit_type",
        lua.create_function(move |lua, t: Table| {
            declaring(&w, "unit_type")?;
            let id: String = req(&t, "id", "unit_type")?;
            let props: Value = lua.from_value(mlua::Value::Table(t))?;
            w.borrow_mut().ruleset.unit_types.insert(id, props);
            Ok(())
        })?,
    )?;

    for (name, pick) in [("terrain", 0usize), ("hexside_kind", 1), ("place_kind", 2)] {
        let w = world.clone();
        kessel.set(
            name,
            lua.create_function(move |lua, t: Table| {
                declaring(&w, name)?;
                let d = kind_decl(lua, &t, name)?;
                let mut wm = w.borrow_mut();
                let list = match pick {
                    0 => &mut wm.ruleset.terrains,
                    1 => &mut wm.ruleset.hexside_kinds,
                    _ => &mut wm.ruleset.place_kinds,
                };
                list.retain(|k| k.id != d.id);
                list.push(d);
                Ok(())
            })?,
        )?;
    }

    let w = world.clone();
    kessel.set(
        "movement",
        lua.create_function(move |lua, t: Table| {
            declaring(&w, "movement")?;
            check_costs(&mlua::Value::Table(t.clone()), "kessel.movement", 0)?;
            let v: Value = lua.from_value(mlua::Value::Table(t))?;
            crate::ruleset::check_costs(&v).map_err(|e| mlua::Error::runtime(e.to_string()))?;
            w.borrow_mut().ruleset.movement = Some(v);
            Ok(())
        })?,
    )?;

    let w = world.clone();
    kessel.set(
        "results_table",
        lua.create_function(move |_, t: Table| {
            declaring(&w, "results_table")?;
            let id: String = req(&t, "id", "results_table")?;
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
                let col = match kind {
                    OddsKind::Ratio => {
                        let (a, d) = l.split_once('-').ok_or_else(|| {
                            mlua::Error::runtime(format!(
                                "results_table `{id}`: column `{l}` is not A-D"
                            ))
                        })?;
                        Column {
                            att: a.trim().parse().map_err(mlua::Error::external)?,
                            def: d.trim().parse().map_err(mlua::Error::external)?,
                        }
                    }
                    OddsKind::Differential => Column {
                        att: l
                            .trim()
                            .trim_start_matches('+')
                            .parse()
                            .map_err(mlua::Error::external)?,
                        def: 0,
                    },
                };
                columns.push(col);
            }
            let table = ResultsTable {
                id: id.clone(),
                kind,
                columns,
                first_roll: t.get::<Option<i32>>("first_roll")?.unwrap_or(1),
                rows: req(&t, "rows", "results_table")?,
            };
            table
                .validate()
                .map_err(|e| mlua::Error::runtime(e.to_string()))?;
            w.borrow_mut().ruleset.tables.insert(id, table);
            Ok(())
        })?,
    )?;

    let w = world.clone();
    kessel.set(
        "dice_table",
        lua.create_function(move |_, t: Table| {
            declaring(&w, "dice_table")?;
            let id: String = req(&t, "id", "dice_table")?;
            let raw: Vec<Table> = req(&t, "bands", "dice_table")?;
            let mut bands = Vec::new();
            for b in raw {
                bands.push((b.get::<i32>(1)?, b.get::<String>(2)?));
            }
            w.borrow_mut()
                .ruleset
                .dice_tables
                .insert(id.clone(), DiceTable { id, bands });
            Ok(())
        })?,
    )?;

    let w = world.clone();
    kessel.set(
        "word_table",
        lua.create_function(move |lua, t: Table| {
            declaring(&w, "word_table")?;
            let id: String = req(&t, "id", "word_table")?;
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

    let w = world.clone();
    kessel.set(
        "sequence",
        lua.create_function(move |_, steps: Vec<Table>| {
            declaring(&w, "sequence")?;
            let mut out = Vec::new();
            for s in steps {
                let id: String = req(&s, "id", "sequence")?;
                out.push(Step {
                    name: s
                        .get::<Option<String>>("name")?
                        .unwrap_or_else(|| id.clone()),
                    id,
                    side: s.get("side")?,
                    rule: s.get("rule")?,
                });
            }
            w.borrow_mut().ruleset.sequence = out;
            Ok(())
        })?,
    )?;

    let w = world.clone();
    kessel.set(
        "option",
        lua.create_function(move |lua, t: Table| {
            declaring(&w, "option")?;
            let id: String = req(&t, "id", "option")?;
            let kind = match t.get::<mlua::Value>("type")? {
                mlua::Value::Nil => OptionType::Bool,
                mlua::Value::String(s) if s.to_str()? == "bool" => OptionType::Bool,
                mlua::Value::String(s) if s.to_str()? == "int" => OptionType::Int,
                mlua::Value::Table(c) => {
                    OptionType::Choice(c.sequence_values::<String>().collect::<mlua::Result<_>>()?)
                }
                other => {
                    return Err(mlua::Error::runtime(format!(
                        "option `{id}`: type is \"bool\", \"int\" or a list of choices, not {:?}",
                        other.type_name()
                    )))
                }
            };
            let default: Value = lua.from_value(t.get::<mlua::Value>("default")?)?;
            let decl = OptionDecl {
                id: id.clone(),
                kind,
                default,
                description: req(&t, "description", "option")?,
                rule: req(&t, "rule", "option")?,
            };
            decl.check(&decl.default)
                .map_err(|m| mlua::Error::runtime(format!("option `{id}` default: {m}")))?;
            let mut wm = w.borrow_mut();
            if wm.ruleset.options.iter().any(|o| o.id == id) {
                return Err(mlua::Error::runtime(format!(
                    "option `{id}` is declared twice"
                )));
            }
            wm.ruleset.options.push(decl);
            Ok(())
        })?,
    )?;

    let w = world.clone();
    kessel.set(
        "action",
        lua.create_function(move |lua, t: Table| {
            declaring(&w, "action")?;
            let kind: String = req(&t, "kind", "action")?;
            let _: Function = req(&t, "validate", "action")?;
            let _: Function = req(&t, "apply", "action")?;
            let actions: Table = lua.named_registry_value("kessel_actions")?;
            actions.set(kind.as_str(), t.clone())?;
            let rule = t.get("rule")?;
            let description = t.get::<Option<String>>("description")?.unwrap_or_default();
            let mut wm = w.borrow_mut();
            wm.ruleset.actions.retain(|a| a.kind != kind);
            wm.ruleset.actions.push(ActionDecl {
                kind,
                rule,
                description,
            });
            Ok(())
        })?,
    )?;

    // the handlers of a declared action, so a scenario's special rule can wrap them
    kessel.set(
        "action_handlers",
        lua.create_function(move |lua, kind: String| {
            let actions: Table = lua.named_registry_value("kessel_actions")?;
            actions.get::<Option<Table>>(kind.as_str())
        })?,
    )?;

    let w = world.clone();
    kessel.set(
        "on",
        lua.create_function(move |lua, (name, f): (String, Function)| {
            declaring(&w, "on")?;
            const HOOKS: [&str; 7] = [
                "check",
                "setup",
                "step_start",
                "step_end",
                "odds",
                "ai",
                "result",
            ];
            let event_hook = match name.strip_prefix("event") {
                Some("") => true,
                Some(rest) => match rest.strip_prefix(':') {
                    Some(kind) if crate::event::Event::KINDS.contains(&kind) => true,
                    _ => {
                        return Err(mlua::Error::runtime(format!(
                            "kessel.on: unknown event hook `{name}` (event kinds: {})",
                            crate::event::Event::KINDS.join(", ")
                        )))
                    }
                },
                None => false,
            };
            if event_hook {
                lua.set_app_data(super::emit::EventHooks);
            } else if !HOOKS.contains(&name.as_str()) {
                return Err(mlua::Error::runtime(format!(
                    "kessel.on: unknown hook `{name}` (hooks: {}, event, event:<kind>)",
                    HOOKS.join(", ")
                )));
            }
            let all: Table = lua.named_registry_value("kessel_hooks")?;
            let list = match all.get::<Option<Table>>(name.as_str())? {
                Some(l) => l,
                None => {
                    let l = lua.create_table()?;
                    all.set(name.as_str(), l.clone())?;
                    l
                }
            };
            list.push(f)?;
            Ok(())
        })?,
    )?;

    // a scenario variable the rules read, and the type its `[vars]` value must have
    let w = world.clone();
    kessel.set(
        "scenario_var",
        lua.create_function(move |_, t: Table| {
            declaring(&w, "scenario_var")?;
            let id: String = req(&t, "id", "scenario_var")?;
            let kind: String = req(&t, "type", "scenario_var")?;
            if !crate::ruleset::SCENARIO_VAR_TYPES.contains(&kind.as_str()) {
                return Err(mlua::Error::runtime(format!(
                    "kessel.scenario_var `{id}`: type is one of {}, not \"{kind}\"",
                    crate::ruleset::SCENARIO_VAR_TYPES.join(", ")
                )));
            }
            let description: String = t.get::<Option<String>>("description")?.unwrap_or_default();
            let decl = crate::ruleset::ScenarioVarDecl { kind, description };
            w.borrow_mut().ruleset.scenario_vars.insert(id, decl);
            Ok(())
        })?,
    )?;

    let w = world.clone();
    kessel.set(
        "constant",
        lua.create_function(move |lua, (name, v): (String, mlua::Value)| {
            declaring(&w, "constant")?;
            let v: Value = lua.from_value(v)?;
            w.borrow_mut().ruleset.constants.insert(name, v);
            Ok(())
        })?,
    )?;
    Ok(())
}
