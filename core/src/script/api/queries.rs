//! `kessel.queries`: named, read-only questions a ruleset answers. `declare{}` while the ruleset
//! loads; `ask(id, args)` and `list()` during play, from rules, scripts and tests alike (the
//! engine's `Engine::query` is the same call from Rust). What a declaration is and how arguments
//! are checked lives in `crate::queries`.

use crate::queries::{ParamType, QueryDecl, QueryParam};
use crate::state::Value;
use crate::world::{Shared, Stage, StageGuard};
use mlua::{Function, Lua, LuaSerdeExt, Table};
use std::collections::BTreeMap;

const REGISTRY: &str = "kessel_queries";
const KEYS: [&str; 5] = ["id", "description", "rule", "params", "fn"];
const PARAM_KEYS: [&str; 3] = ["type", "description", "optional"];

/// Refuses a key of `t` not in `allowed`, naming the nearest allowed one.
fn strict_keys(t: &Table, allowed: &[&str], what: &str) -> mlua::Result<()> {
    let known: Vec<String> = allowed.iter().map(|s| s.to_string()).collect();
    for pair in t.pairs::<mlua::Value, mlua::Value>() {
        let (k, _) = pair?;
        let key = match &k {
            mlua::Value::String(s) => s.to_string_lossy(),
            other => format!("[{}]", other.type_name()),
        };
        if !allowed.contains(&key.as_str()) {
            let hint = crate::names::did_you_mean(&key, &known);
            return Err(mlua::Error::runtime(format!(
                "{what}: unknown key `{key}`{hint}; keys: {}",
                allowed.join(", ")
            )));
        }
    }
    Ok(())
}

/// Reads a declaration table (as `declare` stored it) into a [`QueryDecl`].
fn decl_of(t: &Table) -> mlua::Result<QueryDecl> {
    let id: String = t.get("id")?;
    let mut params = BTreeMap::new();
    if let Some(ps) = t.get::<Option<Table>>("params")? {
        for pair in ps.pairs::<String, mlua::Value>() {
            let (name, spec) = pair?;
            if let Some(problem) = super::declare::name_problem(&name) {
                return Err(mlua::Error::runtime(format!(
                    "kessel.queries.declare `{id}`: a parameter's name {problem}"
                )));
            }
            // a parameter is given as `name=value` on the command line and listed as
            // `[name=<type>]` when optional: a name holding `=`, a bracket or a space could
            // never be given, or would read as something else
            if let Some(c) = name
                .chars()
                .find(|c| matches!(c, '=' | '[' | ']') || c.is_whitespace())
            {
                return Err(mlua::Error::runtime(format!(
                    "kessel.queries.declare `{id}`: the parameter name `{name}` holds {}; a parameter is given as name=value, so its name has no `=`, brackets or spaces",
                    if c.is_whitespace() { "a space".to_string() } else { format!("`{c}`") }
                )));
            }
            let what = format!("kessel.queries.declare `{id}`, parameter `{name}`");
            let (type_name, description, optional) = match spec {
                mlua::Value::String(s) => (s.to_str()?.to_string(), String::new(), false),
                mlua::Value::Table(p) => {
                    strict_keys(&p, &PARAM_KEYS, &what)?;
                    (
                        p.get::<Option<String>>("type")?
                            .unwrap_or_else(|| "any".to_string()),
                        p.get::<Option<String>>("description")?.unwrap_or_default(),
                        super::bool_field(&p, "optional", &what)?.unwrap_or(false),
                    )
                }
                other => {
                    let got = other.type_name();
                    let shape = "a type name or a table {type=, description=, optional=}";
                    return Err(mlua::Error::runtime(format!(
                        "{what}: {shape}, not a {got}"
                    )));
                }
            };
            let kind = ParamType::parse(&type_name).ok_or_else(|| {
                mlua::Error::runtime(format!(
                    "{what}: type is one of {}, not \"{type_name}\"",
                    ParamType::NAMES.join(", ")
                ))
            })?;
            params.insert(
                name,
                QueryParam {
                    kind,
                    description,
                    optional,
                },
            );
        }
    }
    Ok(QueryDecl {
        description: t.get::<Option<String>>("description")?.unwrap_or_default(),
        rule: t.get("rule")?,
        id,
        params,
    })
}

/// Every declared query, by id.
pub(crate) fn declared(lua: &Lua) -> mlua::Result<Vec<QueryDecl>> {
    let all: Table = lua.named_registry_value(REGISTRY)?;
    let mut out = Vec::new();
    for pair in all.pairs::<String, Table>() {
        out.push(decl_of(&pair?.1)?);
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}

/// Runs the query `id` with `args` in the read-only stage and returns its answer as plain data.
/// Unknown ids, unknown or ill-typed arguments and answers that are not plain data are errors.
/// Whether the ruleset declared query `id`.
pub(crate) fn declares(lua: &Lua, id: &str) -> mlua::Result<bool> {
    let all: Table = lua.named_registry_value(REGISTRY)?;
    all.contains_key(id)
}

pub(crate) fn ask(lua: &Lua, world: &Shared, id: &str, args: &Value) -> mlua::Result<Value> {
    let all: Table = lua.named_registry_value(REGISTRY)?;
    let Some(entry) = all.get::<Option<Table>>(id)? else {
        let known: Vec<String> = declared(lua)?.into_iter().map(|d| d.id).collect();
        let hint = crate::names::did_you_mean(id, &known);
        let list = if known.is_empty() {
            "none".to_string()
        } else {
            known.join(", ")
        };
        return Err(mlua::Error::runtime(format!(
            "no query `{id}`{hint}; this ruleset declares: {list}"
        )));
    };
    if world.borrow().stage() == Stage::Declare {
        return Err(mlua::Error::runtime(format!(
            "query `{id}` asked while the ruleset loads; queries answer during play"
        )));
    }
    let decl = decl_of(&entry)?;
    decl.check_args(args, &world.borrow().state)
        .map_err(mlua::Error::runtime)?;
    let f: Function = entry.get("fn")?;
    let a = match args {
        Value::Object(_) => lua.to_value(args)?,
        _ => mlua::Value::Table(lua.create_table()?),
    };
    // the answer is read in the query stage too: its metamethods run while it is read
    let guard = StageGuard::enter(world, Stage::Query);
    let called = super::running(lua, || format!("the query `{id}`"), || f.call(a));
    let out = called.and_then(|out: mlua::Value| {
        super::bounded_from_value(lua, out, &format!("query `{id}`'s answer"), 16 << 20).map_err(
            |e| {
                mlua::Error::runtime(format!(
                    "query `{id}` answered with something that is not plain data (tables of strings, numbers and booleans): {}",
                    crate::script::bare_error(&e)
                ))
            },
        )
    });
    drop(guard);
    out
}

fn decl_table(lua: &Lua, d: &QueryDecl) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.set("id", d.id.as_str())?;
    t.set("description", d.description.as_str())?;
    t.set("rule", d.rule.as_deref())?;
    let ps = lua.create_table()?;
    for (name, p) in &d.params {
        let pt = lua.create_table()?;
        pt.set("type", p.kind.name())?;
        pt.set("description", p.description.as_str())?;
        pt.set("optional", p.optional)?;
        ps.set(name.as_str(), pt)?;
    }
    t.set("params", ps)?;
    Ok(t)
}

pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    lua.set_named_registry_value(REGISTRY, lua.create_table()?)?;
    let queries = lua.create_table()?;

    let w = world.clone();
    queries.set(
        "declare",
        super::function(lua, move |lua, t: Table| {
            // counted and sized with the ruleset's other declarations (it escaped their limits)
            super::declare_limits::declaring(
                lua,
                &w,
                "queries.declare",
                super::declare_limits::table_size(&t),
            )?;
            strict_keys(&t, &KEYS, "kessel.queries.declare")?;
            let id: String = t.get::<Option<String>>("id")?.ok_or_else(|| {
                mlua::Error::runtime("kessel.queries.declare: `id` is required")
            })?;
            if let Some(problem) = super::declare::name_problem(&id) {
                return Err(mlua::Error::runtime(format!(
                    "kessel.queries.declare: `id` {problem}"
                )));
            }
            if t.get::<Option<String>>("description")?.is_none() {
                return Err(mlua::Error::runtime(format!(
                    "kessel.queries.declare `{id}`: `description` is required (it is what `kessel info` lists)"
                )));
            }
            if t.get::<Option<Function>>("fn")?.is_none() {
                return Err(mlua::Error::runtime(format!(
                    "kessel.queries.declare `{id}`: `fn = function(args) ... end` is required"
                )));
            }
            decl_of(&t)?;
            super::declare_limits::declared_once(lua, "queries.declare", &id)?;
            let all: Table = lua.named_registry_value(REGISTRY)?;
            all.set(id.as_str(), t)?;
            Ok(())
        })?,
    )?;

    let w = world.clone();
    queries.set(
        "ask",
        super::function(lua, move |lua, (id, args): (String, mlua::Value)| {
            let args: Value = if args.is_nil() {
                Value::Null
            } else {
                super::bounded_from_value(lua, args, "kessel.queries.ask's arguments", 1 << 20)?
            };
            let out = ask(lua, &w, &id, &args)?;
            if out.is_null() {
                return Ok(mlua::Value::Nil);
            }
            lua.to_value(&out)
        })?,
    )?;

    queries.set(
        "list",
        super::function(lua, |lua, ()| {
            let out = lua.create_table()?;
            for d in declared(lua)? {
                out.raw_push(decl_table(lua, &d)?)?;
            }
            Ok(out)
        })?,
    )?;

    queries.set(
        "has",
        super::function(lua, |lua, id: String| {
            let all: Table = lua.named_registry_value(REGISTRY)?;
            all.contains_key(id)
        })?,
    )?;

    kessel.set("queries", queries)?;
    Ok(())
}
