//! Declarations a ruleset makes while it loads: `kessel.ruleset`, `.unit_type`, `.terrain`,
//! `.hexside_kind`, `.place_kind`, `.movement`, `.sequence`, `.option`, `.ai_level`, `.action`,
//! `.on`, `.constant`, `.scenario_var`; the tables (`.results_table`, `.dice_table`,
//! `.word_table`) are declared in `declare_tables.rs`.

use super::declare_limits::{
    caller_site, declared_once, declared_size, declaring, table_size, MAX_DECLARATION_BYTES,
};
use super::strict_keys;
use crate::algo::movement::Cost;
use crate::options::{OptionDecl, OptionType};
use crate::ruleset::{ActionDecl, KindDecl, Step, VariantData};
use crate::state::Value;
use crate::world::Shared;
use mlua::{FromLua, Function, Lua, Table};
use std::collections::BTreeMap;

pub(super) fn req<T: mlua::FromLua>(t: &Table, key: &str, what: &str) -> mlua::Result<T> {
    t.get::<Option<T>>(key)
        .map_err(|e| wrong_type(t, key, &format!("kessel.{what}"), &e))?
        .ok_or_else(|| mlua::Error::runtime(format!("kessel.{what}: `{key}` is required")))
}

/// An id or kind a declaration names (`id`, an action's `kind`), checked by [`name_problem`].
pub(super) fn req_id(t: &Table, key: &str, what: &str) -> mlua::Result<String> {
    let id: String = req(t, key, what)?;
    match name_problem(&id) {
        Some(problem) => Err(mlua::Error::runtime(format!(
            "kessel.{what}: `{key}` {problem}"
        ))),
        None => Ok(id),
    }
}

pub(super) use crate::names::name_problem;

/// What a Rust type a field converts to is called in Lua.
fn lua_word(rust: &str) -> &'static str {
    match rust {
        "String" | "&str" | "LuaString" => "a string",
        "bool" => "a boolean",
        "f32" | "f64" => "a number",
        t if t.starts_with('i') || t.starts_with('u') => "an integer",
        t if t.starts_with("Vec<") => "a list (a table { ... })",
        _ => "a table",
    }
}

/// A declaration field of the wrong Lua type, named with what it was (mlua's own conversion
/// message alone names neither the field nor the declaration).
fn wrong_type(t: &Table, key: &str, what: &str, e: &mlua::Error) -> mlua::Error {
    let got = t.get::<mlua::Value>(key).map_or("value", |v| v.type_name());
    let why = match e {
        mlua::Error::FromLuaConversionError { to, .. } => format!("it should be {}", lua_word(to)),
        other => other.to_string(),
    };
    mlua::Error::runtime(format!("{what}: `{key}` can't be a {got}: {why}"))
}

/// The display fields of each kind category (see docs/lua-api.md): the rules read only the id,
/// so any other field is a typo.
fn kind_fields(what: &str) -> &'static [&'static str] {
    match what {
        "terrain" => &["id", "name", "color", "marks"],
        "hexside_kind" => &["id", "name", "color", "kind", "ticks", "width"],
        _ => &["id", "name", "color", "symbol"],
    }
}

fn kind_decl(lua: &Lua, t: &Table, what: &str) -> mlua::Result<KindDecl> {
    let id: String = req_id(t, "id", what)?;
    strict_keys(t, &format!("kessel.{what} `{id}`"), kind_fields(what))?;
    let bad = |field: &str, expected: &str, got: &mlua::Value| {
        Err(mlua::Error::runtime(format!(
            "kessel.{what} `{id}`: `{field}` is {expected}, got {}",
            super::describe_value(got)
        )))
    };
    let one_of = |field: &str, choices: &[&str]| -> mlua::Result<()> {
        let v: mlua::Value = t.get(field)?;
        match &v {
            mlua::Value::Nil => Ok(()),
            mlua::Value::String(s) if choices.contains(&&*s.to_str()?) => Ok(()),
            other => bad(
                field,
                &format!("one of \"{}\"", choices.join("\", \"")),
                other,
            ),
        }
    };
    match t.get::<mlua::Value>("color")? {
        mlua::Value::Nil => {}
        mlua::Value::String(c) if is_color(&c.to_string_lossy()) => {}
        other => bad("color", "a colour \"#rrggbb\" or \"#rgb\"", &other)?,
    }
    match t.get::<mlua::Value>("name")? {
        mlua::Value::Nil | mlua::Value::String(_) => {}
        other => bad("name", "a string", &other)?,
    }
    one_of("marks", &["trees", "marsh"])?;
    one_of("kind", &["link", "feature"])?;
    one_of("symbol", &["square", "dot", "diamond"])?;
    match t.get::<mlua::Value>("ticks")? {
        mlua::Value::Nil | mlua::Value::Boolean(_) => {}
        other => bad("ticks", "true or false", &other)?,
    }
    match t.get::<mlua::Value>("width")? {
        mlua::Value::Nil => {}
        v @ (mlua::Value::Number(_) | mlua::Value::Integer(_)) => {
            let w = f64::from_lua(v.clone(), lua)?;
            if !(w > 0.0 && w <= 1.0) {
                bad(
                    "width",
                    "a line width in hex radii, above 0 and at most 1",
                    &v,
                )?;
            }
        }
        other => bad("width", "a number", &other)?,
    }
    let props = super::plain::from_lua(
        lua,
        &mlua::Value::Table(t.clone()),
        &format!("kessel.{what} `{id}`"),
        MAX_DECLARATION_BYTES as usize,
    )?;
    Ok(KindDecl { id, props })
}

fn is_color(c: &str) -> bool {
    let hex = c.strip_prefix('#').unwrap_or(c);
    (hex.len() == 3 || hex.len() == 6) && hex.chars().all(|ch| ch.is_ascii_hexdigit())
}

/// The `when = { option = value }` of a declaration that varies with the options, if any.
pub(super) fn when_of(
    lua: &Lua,
    t: &Table,
    what: &str,
) -> mlua::Result<Option<BTreeMap<String, Value>>> {
    match t.get::<mlua::Value>("when")? {
        mlua::Value::Nil => Ok(None),
        mlua::Value::Table(w) => {
            let mut out = BTreeMap::new();
            for pair in w.pairs::<mlua::Value, mlua::Value>() {
                let (k, v) = pair?;
                let mlua::Value::String(k) = k else {
                    return Err(mlua::Error::runtime(format!(
                        "kessel.{what}: `when` is a table of option id = value"
                    )));
                };
                let value = super::plain::from_lua(
                    lua,
                    &v,
                    &format!("kessel.{what}: `when`"),
                    MAX_DECLARATION_BYTES as usize,
                )?;
                out.insert(k.to_string_lossy(), value);
            }
            if out.is_empty() {
                return Err(mlua::Error::runtime(format!(
                    "kessel.{what}: `when` names no option"
                )));
            }
            Ok(Some(out))
        }
        other => Err(mlua::Error::runtime(format!(
            "kessel.{what}: `when` is a table of option id = value, got {}",
            super::describe_value(&other)
        ))),
    }
}

/// Movement costs are MP: a negative, infinite or NaN number is a mistake, said where it is.
fn check_costs(v: &mlua::Value, path: &str, depth: u32) -> mlua::Result<()> {
    let bad = |n: String| {
        Err(mlua::Error::runtime(format!(
            "{path} = {n}: a movement cost must be a finite number of MP from 0 to {}",
            Cost::MOST_MP.floor()
        )))
    };
    let within = |x: f64| (0.0..=Cost::MOST_MP).contains(&x);
    match v {
        mlua::Value::Number(n) if !within(*n) => bad(super::shown_number(*n)),
        mlua::Value::Integer(i) if !within(*i as f64) => bad(i.to_string()),
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
        super::function(lua, move |lua, t: Table| {
            declaring(lua, &w, "ruleset", table_size(&t))?;
            // read the Lua table before borrowing the world: its metamethods may call the engine
            strict_keys(&t, "kessel.ruleset", &["name", "sides", "description"])?;
            let name = req(&t, "name", "ruleset")?;
            let sides: Vec<String> = req(&t, "sides", "ruleset")?;
            // sides are names the rules, files and messages give: each once, as ids are
            for (i, side) in sides.iter().enumerate() {
                if let Some(problem) = name_problem(side) {
                    return Err(mlua::Error::runtime(format!(
                        "kessel.ruleset: side {} {problem}",
                        i + 1
                    )));
                }
                if sides[..i].contains(side) {
                    return Err(mlua::Error::runtime(format!(
                        "kessel.ruleset: side `{}` is listed twice",
                        crate::error::printable_name(side)
                    )));
                }
            }
            declared_once(lua, "ruleset", "")?;
            let mut wm = w.borrow_mut();
            wm.ruleset.name = name;
            wm.ruleset.sides = sides;
            Ok(())
        })?,
    )?;

    let w = world.clone();
    kessel.set(
        "unit_type",
        super::function(lua, move |lua, t: Table| {
            declaring(lua, &w, "unit_type", table_size(&t))?;
            let id: String = req_id(&t, "id", "unit_type")?;
            declared_once(lua, "unit_type", &id)?;
            let what = format!("kessel.unit_type `{id}`");
            // names the rules and scenario files read faces and classes by
            for key in ["class", "name"] {
                match t.get::<mlua::Value>(key)? {
                    mlua::Value::Nil | mlua::Value::String(_) => {}
                    other => {
                        return Err(mlua::Error::runtime(format!(
                            "{what}: `{key}` is a string, not {}",
                            super::a_type(&other)
                        )))
                    }
                }
            }
            if let Some(fields) = t.get::<Option<mlua::Value>>("face_fields")? {
                if !is_name_list(&fields)? {
                    return Err(mlua::Error::runtime(format!(
                        "{what}: `face_fields` is a list of field names, such as {{ \"morale\", \"leadership\" }}"
                    )));
                }
            }
            let props = super::plain::from_lua(lua, &mlua::Value::Table(t), &what, MAX_DECLARATION_BYTES as usize)?;
            w.borrow_mut().ruleset.unit_types.insert(id, props);
            Ok(())
        })?,
    )?;

    for (name, pick) in [("terrain", 0usize), ("hexside_kind", 1), ("place_kind", 2)] {
        let w = world.clone();
        kessel.set(
            name,
            super::function(lua, move |lua, t: Table| {
                declaring(lua, &w, name, table_size(&t))?;
                let d = kind_decl(lua, &t, name)?;
                declared_once(lua, name, &d.id)?;
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
        super::function(lua, move |lua, t: Table| {
            declaring(lua, &w, "movement", table_size(&t))?;
            let when = when_of(lua, &t, "movement")?;
            check_costs(&mlua::Value::Table(t.clone()), "kessel.movement", 0)?;
            let mut v = super::plain::from_lua(
                lua,
                &mlua::Value::Table(t),
                "kessel.movement",
                MAX_DECLARATION_BYTES as usize,
            )?;
            if let Value::Object(m) = &mut v {
                m.remove("when");
                if when.is_some() && m.contains_key("classes") {
                    return Err(mlua::Error::runtime(
                        "kessel.movement: a variant (with `when`) lays entries over the plain declaration; declare `classes` there",
                    ));
                }
            }
            crate::ruleset::check_costs(&v).map_err(|e| mlua::Error::runtime(e.to_string()))?;
            if when.is_none() {
                declared_once(lua, "movement", "")?;
            }
            let site = caller_site(lua);
            let data = VariantData::Movement(v);
            (w.borrow_mut().ruleset.declare_data(when, data, site)).map_err(mlua::Error::runtime)
        })?,
    )?;

    super::declare_tables::register(lua, kessel, world)?;

    let w = world.clone();
    kessel.set(
        "sequence",
        super::function(lua, move |lua, (first, second, third): (mlua::Value, mlua::Value, mlua::Value)| {
            declaring(
                lua,
                &w,
                "sequence",
                declared_size(&first, MAX_DECLARATION_BYTES + 1)
                    .saturating_add(declared_size(&second, MAX_DECLARATION_BYTES + 1))
                    .saturating_add(declared_size(&third, MAX_DECLARATION_BYTES + 1)),
            )?;
            // `kessel.sequence{...}` declares the main sequence, `kessel.sequence(name, {...})` a mode
            let (name, steps) = match (first, second) {
                (mlua::Value::Table(t), mlua::Value::Nil) => (None, t),
                (mlua::Value::String(n), mlua::Value::Table(t)) => {
                    let n = n.to_str()?.to_string();
                    super::emit::bounded(&n, "kessel.sequence: a sequence's name", super::emit::MAX_NAME)?;
                    (Some(n), t)
                }
                (mlua::Value::Table(_), mlua::Value::Table(_)) => {
                    return Err(mlua::Error::runtime(
                        "kessel.sequence: only a named sequence (a mode) takes a title: kessel.sequence(name, steps, { title = \"...\" })",
                    ))
                }
                (a, b) => {
                    return Err(mlua::Error::runtime(format!(
                        "kessel.sequence takes a list of steps, or a name and a list of steps (a mode), not ({}, {})",
                        a.type_name(),
                        b.type_name()
                    )))
                }
            };
            let what = match &name {
                Some(n) => format!("kessel.sequence `{n}`"),
                None => "kessel.sequence".to_string(),
            };
            // a mode's title, as players read it ("Refit Phase (RB)"): a third argument
            // `{ title = "..." }`; without one the id stands for it
            let title = match (&name, third) {
                (_, mlua::Value::Nil) => None,
                (Some(_), mlua::Value::Table(t)) => {
                    strict_keys(&t, &what, &["title"])?;
                    let title: Option<String> = t.get("title")?;
                    if let Some(ti) = &title {
                        super::emit::bounded(ti, "kessel.sequence: a sequence's title", super::emit::MAX_NAME)?;
                    }
                    title
                }
                (None, _) => {
                    return Err(mlua::Error::runtime(
                        "kessel.sequence: only a named sequence (a mode) takes a title: kessel.sequence(name, steps, { title = \"...\" })",
                    ))
                }
                (Some(_), other) => {
                    return Err(mlua::Error::runtime(format!(
                        "{what}: the third argument is a table {{ title = \"...\" }}, not a {}",
                        other.type_name()
                    )))
                }
            };
            let mut out = Vec::new();
            for s in steps.sequence_values::<Table>() {
                let s = s.map_err(|e| {
                    let e = crate::script::bare_error(&e);
                    mlua::Error::runtime(format!("{what}: every step is a table ({e})"))
                })?;
                let id: String = req_id(&s, "id", "sequence")?;
                strict_keys(
                    &s,
                    &format!("{what}: step `{id}`"),
                    &["id", "name", "side", "rule"],
                )?;
                out.push(Step {
                    name: s
                        .get::<Option<String>>("name")?
                        .unwrap_or_else(|| id.clone()),
                    id,
                    side: s.get("side")?,
                    rule: s.get("rule")?,
                });
            }
            // a game is played step by step: the main sequence without steps passed `kessel
            // check` and failed only in play, inside the rules, asking for the step's id
            if out.is_empty() {
                return Err(mlua::Error::runtime(format!(
                    "{what} has no steps: a sequence lists at least one ({{ id = \"...\", side = \"...\" }})"
                )));
            }
            // the main sequence may be declared again: a ruleset's stand-in (asl-cg's one-step
            // CG scenario) is replaced by the turns a scenario's special rules declare
            if let Some(n) = &name {
                declared_once(lua, "sequence", n)?;
            }
            let site = caller_site(lua);
            let mut wm = w.borrow_mut();
            match name {
                None => {
                    wm.ruleset.sequence = out;
                    wm.ruleset.sequence_site = site;
                }
                Some(n) => {
                    wm.ruleset
                        .modes
                        .insert(n, crate::ruleset::NamedSequence { steps: out, site, title });
                }
            }
            Ok(())
        })?,
    )?;

    let w = world.clone();
    kessel.set(
        "option",
        super::function(lua, move |lua, t: Table| {
            declaring(lua, &w, "option", table_size(&t))?;
            let id: String = req_id(&t, "id", "option")?;
            strict_keys(
                &t,
                &format!("kessel.option `{id}`"),
                &["id", "type", "default", "description", "rule", "min", "max"],
            )?;
            let kind = match t.get::<mlua::Value>("type")? {
                mlua::Value::Nil => OptionType::Bool,
                mlua::Value::String(s) if s.to_str()? == "bool" => OptionType::Bool,
                mlua::Value::String(s) if s.to_str()? == "int" => OptionType::Int,
                mlua::Value::Table(c) => OptionType::Choice(option_choices(&id, &c)?),
                other => {
                    let shown = match &other {
                        mlua::Value::String(s) => format!("\"{}\"", s.to_string_lossy()),
                        v => format!("a {}", v.type_name()),
                    };
                    return Err(mlua::Error::runtime(format!(
                        "option `{id}`: type is \"bool\", \"int\" or a list of choices, not {shown}"
                    )));
                }
            };
            let default = super::plain::from_lua(
                lua,
                &t.get::<mlua::Value>("default")?,
                &format!("option `{id}`: the default"),
                MAX_DECLARATION_BYTES as usize,
            )?;
            // the range of an int option: values outside it are refused wherever one is set
            let bound = |key: &str| -> mlua::Result<Option<i64>> {
                match t.get::<mlua::Value>(key)? {
                    mlua::Value::Nil => Ok(None),
                    mlua::Value::Integer(n) => Ok(Some(n)),
                    other => Err(mlua::Error::runtime(format!(
                        "option `{id}`: {key} is a whole number, not {}",
                        other.type_name()
                    ))),
                }
            };
            let (min, max) = (bound("min")?, bound("max")?);
            if (min.is_some() || max.is_some()) && kind != OptionType::Int {
                return Err(mlua::Error::runtime(format!(
                    "option `{id}`: min and max are for an \"int\" option"
                )));
            }
            if let (Some(a), Some(b)) = (min, max) {
                if a > b {
                    return Err(mlua::Error::runtime(format!(
                        "option `{id}`: min {a} is above max {b}"
                    )));
                }
            }
            let decl = OptionDecl {
                id: id.clone(),
                kind,
                default,
                description: req(&t, "description", "option")?,
                rule: req(&t, "rule", "option")?,
                min,
                max,
            };
            decl.check(&decl.default)
                .map_err(|m| mlua::Error::runtime(format!("option `{id}` default: {m}")))?;
            declared_once(lua, "option", &id)?;
            let mut wm = w.borrow_mut();
            wm.ruleset.options.push(decl);
            Ok(())
        })?,
    )?;

    // the computer player's levels: the `ai` hook is told which one plays; the first is the default
    let w = world.clone();
    kessel.set(
        "ai_level",
        super::function(lua, move |lua, t: Table| {
            declaring(lua, &w, "ai_level", table_size(&t))?;
            let id: String = req_id(&t, "id", "ai_level")?;
            strict_keys(&t, &format!("kessel.ai_level `{id}`"), &["id", "description"])?;
            let description: String = req(&t, "description", "ai_level")?;
            if id.is_empty() || id.contains(char::is_whitespace) || id.contains(['=', ':', ',']) {
                return Err(mlua::Error::runtime(format!(
                    "ai_level `{id}`: an id is one word without `=`, `:` or `,` (the command line names it as SIDE=ai:ID)"
                )));
            }
            declared_once(lua, "ai_level", &id)?;
            let mut wm = w.borrow_mut();
            wm.ruleset
                .ai_levels
                .push(crate::ruleset::AiLevel { id, description });
            Ok(())
        })?,
    )?;

    let w = world.clone();
    kessel.set(
        "action",
        super::function(lua, move |lua, t: Table| {
            declaring(lua, &w, "action", table_size(&t))?;
            let kind: String = req_id(&t, "kind", "action")?;
            strict_keys(
                &t,
                &format!("kessel.action `{kind}`"),
                &[
                    "kind",
                    "validate",
                    "apply",
                    "enumerate",
                    "rule",
                    "description",
                    "secret",
                ],
            )?;
            let _: Function = req(&t, "validate", "action")?;
            let _: Function = req(&t, "apply", "action")?;
            let actions: Table = lua.named_registry_value("kessel_actions")?;
            actions.set(kind.as_str(), t.clone())?;
            let rule = t.get("rule")?;
            let description = t.get::<Option<String>>("description")?.unwrap_or_default();
            let secret = super::bool_field(&t, "secret", "kessel.action")?.unwrap_or(false);
            let mut wm = w.borrow_mut();
            wm.ruleset.actions.retain(|a| a.kind != kind);
            wm.ruleset.actions.push(ActionDecl {
                kind,
                rule,
                description,
                secret,
            });
            Ok(())
        })?,
    )?;

    // the handlers of a declared action, so a scenario's special rule can wrap them
    kessel.set(
        "action_handlers",
        super::function(lua, move |lua, kind: String| {
            let actions: Table = lua.named_registry_value("kessel_actions")?;
            actions.get::<Option<Table>>(kind.as_str())
        })?,
    )?;

    let w = world.clone();
    kessel.set(
        "on",
        super::function(lua, move |lua, (name, f): (String, Function)| {
            declaring(lua, &w, "on", name.len() as u64)?;
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
                // a roll runs no hooks: such a hook was kept and never ran
                Some(":dice") => {
                    return Err(mlua::Error::runtime(
                        "kessel.on: `event:dice` never runs: dice rolls run no hooks (read the \
                         roll where kessel.dice.roll returns it)",
                    ))
                }
                Some(rest) => match rest.strip_prefix(':') {
                    Some(kind)
                        if crate::event::Event::KINDS.contains(&kind)
                            || crate::event::Event::MEANINGS.contains(&kind) =>
                    {
                        true
                    }
                    _ => {
                        let known: Vec<String> = crate::event::Event::KINDS
                            .iter()
                            .chain(crate::event::Event::MEANINGS)
                            .map(|k| format!("event:{k}"))
                            .collect();
                        return Err(mlua::Error::runtime(format!(
                            "kessel.on: unknown event hook `{name}`{} (event kinds: {}; meanings: {})",
                            crate::names::did_you_mean(&name, &known),
                            crate::event::Event::KINDS.join(", "),
                            crate::event::Event::MEANINGS.join(", ")
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
        super::function(lua, move |lua, t: Table| {
            declaring(lua, &w, "scenario_var", table_size(&t))?;
            let id: String = req_id(&t, "id", "scenario_var")?;
            declared_once(lua, "scenario_var", &id)?;
            let what = format!("kessel.scenario_var `{id}`");
            strict_keys(
                &t,
                &what,
                &[
                    "id",
                    "type",
                    "description",
                    "default",
                    "min",
                    "max",
                    "values",
                ],
            )?;
            let kind: String = req(&t, "type", "scenario_var")?;
            if !crate::ruleset::SCENARIO_VAR_TYPES.contains(&kind.as_str()) {
                return Err(mlua::Error::runtime(format!(
                    "{what}: type is one of {}, not \"{kind}\"{}",
                    crate::ruleset::SCENARIO_VAR_TYPES.join(", "),
                    crate::names::did_you_mean(&kind, crate::ruleset::SCENARIO_VAR_TYPES)
                )));
            }
            let description: String = t.get::<Option<String>>("description")?.unwrap_or_default();
            let bound = |key: &str| -> mlua::Result<Option<f64>> {
                match t.get::<mlua::Value>(key)? {
                    mlua::Value::Nil => Ok(None),
                    mlua::Value::Integer(n) => Ok(Some(n as f64)),
                    mlua::Value::Number(x) if x.is_finite() => Ok(Some(x)),
                    mlua::Value::Number(x) => Err(mlua::Error::runtime(format!(
                        "{what}: `{key}` is a finite number, not {}",
                        if x.is_nan() {
                            "NaN".to_string()
                        } else {
                            x.to_string()
                        }
                    ))),
                    other => Err(mlua::Error::runtime(format!(
                        "{what}: `{key}` is a number, not {}",
                        super::a_type(&other)
                    ))),
                }
            };
            let (min, max) = (bound("min")?, bound("max")?);
            if (min.is_some() || max.is_some()) && !matches!(kind.as_str(), "int" | "number") {
                return Err(mlua::Error::runtime(format!(
                    "{what}: `min` and `max` bound numbers; this variable is a {kind}"
                )));
            }
            if let (Some(a), Some(b)) = (min, max) {
                if a > b {
                    return Err(mlua::Error::runtime(format!(
                        "{what}: `min` {a} is above `max` {b}"
                    )));
                }
            }
            let values: Vec<String> = match t.get::<mlua::Value>("values")? {
                mlua::Value::Nil => Vec::new(),
                _ if kind != "string" => {
                    let why = "`values` lists the words a string may be";
                    return Err(mlua::Error::runtime(format!(
                        "{what}: {why}; this variable is a {kind}"
                    )));
                }
                mlua::Value::Table(list) => {
                    let words = list
                        .sequence_values::<String>()
                        .collect::<mlua::Result<Vec<String>>>()
                        .map_err(|_| {
                            mlua::Error::runtime(format!("{what}: `values` is a list of strings"))
                        })?;
                    if words.is_empty() {
                        return Err(mlua::Error::runtime(format!(
                            "{what}: `values` lists at least one word (leave it out for any string)"
                        )));
                    }
                    words
                }
                other => {
                    return Err(mlua::Error::runtime(format!(
                        "{what}: `values` is a list of strings, not {}",
                        super::a_type(&other)
                    )))
                }
            };
            let default: Option<Value> = match t.get::<mlua::Value>("default")? {
                mlua::Value::Nil => None,
                // `{}` is both an empty list and an empty table in Lua: the type decides
                mlua::Value::Table(e) if kind == "list" && e.is_empty() => {
                    Some(Value::Array(Vec::new()))
                }
                v => Some(super::plain::from_lua(
                    lua,
                    &v,
                    &format!("{what}: the default"),
                    MAX_DECLARATION_BYTES as usize,
                )?),
            };
            let decl = crate::ruleset::ScenarioVarDecl {
                kind,
                description,
                default,
                min,
                max,
                values,
            };
            if let Some(d) = &decl.default {
                decl.admits(d)
                    .map_err(|why| mlua::Error::runtime(format!("{what}: the default {why}")))?;
            }
            w.borrow_mut().ruleset.scenario_vars.insert(id, decl);
            Ok(())
        })?,
    )?;

    let w = world.clone();
    kessel.set(
        "constant",
        super::function(lua, move |lua, (name, v): (String, mlua::Value)| {
            declaring(
                lua,
                &w,
                "constant",
                (name.len() as u64).saturating_add(declared_size(&v, MAX_DECLARATION_BYTES + 1)),
            )?;
            if let Some(problem) = name_problem(&name) {
                return Err(mlua::Error::runtime(format!(
                    "kessel.constant: the name {problem}"
                )));
            }
            declared_once(lua, "constant", &name)?;
            let v = super::plain::from_lua(
                lua,
                &v,
                &format!("kessel.constant `{name}`"),
                MAX_DECLARATION_BYTES as usize,
            )?;
            if name == crate::ruleset::SIDE_STYLE {
                side_style_problem(&v, &w.borrow().ruleset.sides).map_err(mlua::Error::runtime)?;
            }
            w.borrow_mut().ruleset.constants.insert(name, v);
            Ok(())
        })?,
    )?;
    Ok(())
}

/// What is wrong with a `side_style` constant, if anything: a side the ruleset does not declare
/// (once it has declared its sides), a field other than `name` and `color`, a colour that is not
/// one. The drawers quietly fell back to a palette colour for any of them.
fn side_style_problem(v: &Value, sides: &[String]) -> Result<(), String> {
    let what = format!("kessel.constant `{}`", crate::ruleset::SIDE_STYLE);
    let Value::Object(styles) = v else {
        // (an empty Lua table reads as an empty list)
        if matches!(v, Value::Array(a) if a.is_empty()) {
            return Ok(());
        }
        return Err(format!(
            "{what}: a table keyed by side, such as {{ red = {{ name = \"Red\", color = \"#c05040\" }} }}"
        ));
    };
    for (side, style) in styles {
        let shown = crate::error::printable_name(side);
        if !sides.is_empty() && !sides.contains(side) {
            return Err(format!(
                "{what}: `{shown}` is not a side{} (sides: {})",
                crate::names::did_you_mean(side, sides),
                sides.join(", ")
            ));
        }
        let Value::Object(fields) = style else {
            return Err(format!(
                "{what}: side `{shown}`: a table {{ name = \"…\", color = \"#rrggbb\" }}"
            ));
        };
        for (key, value) in fields {
            match (key.as_str(), value) {
                ("name", Value::String(_)) => {}
                ("color", Value::String(c)) if is_color(c) => {}
                ("name", _) => return Err(format!("{what}: side `{shown}`: `name` is a string")),
                ("color", _) => {
                    return Err(format!(
                    "{what}: side `{shown}`: `color` is a colour \"#rrggbb\" or \"#rgb\", not {}",
                    crate::campaign::value_line(value, 40)
                ))
                }
                (other, _) => {
                    let fields = ["name".to_string(), "color".to_string()];
                    return Err(format!(
                        "{what}: side `{shown}`: unknown field `{}`{} (fields: name, color)",
                        crate::error::printable_name(other),
                        crate::names::did_you_mean(other, &fields)
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Whether `v` is a non-empty list (keys 1 to n) of non-empty strings.
fn is_name_list(v: &mlua::Value) -> mlua::Result<bool> {
    let mlua::Value::Table(t) = v else {
        return Ok(false);
    };
    let mut n = 0usize;
    for pair in t.clone().pairs::<mlua::Value, mlua::Value>() {
        let (_, item) = pair?;
        match item {
            mlua::Value::String(s) if !s.as_bytes().is_empty() => n += 1,
            _ => return Ok(false),
        }
    }
    Ok(n > 0 && n == t.raw_len())
}

/// An option's choices: words, each once (a profile and `--option` name one by its word; a number
/// there was read as its digits, so the default `1` of the choices `{ 1, 2 }` was refused).
fn option_choices(id: &str, list: &Table) -> mlua::Result<Vec<String>> {
    let bad = |why: String| mlua::Error::runtime(format!("option `{id}`: {why}"));
    let mut out: Vec<String> = Vec::new();
    for (i, item) in list.clone().sequence_values::<mlua::Value>().enumerate() {
        let word = match item? {
            mlua::Value::String(s) => s.to_str()?.to_string(),
            other => {
                return Err(bad(format!(
                    "choice {} is {}; choices are words, strings such as \"strict\"",
                    i + 1,
                    match other {
                        mlua::Value::Integer(n) => format!("the number {n}"),
                        mlua::Value::Number(x) => format!("the number {x}"),
                        v => format!("a {}", v.type_name()),
                    }
                )))
            }
        };
        // a choice is a name a profile, --option and the editor give: the rule of declared names
        if let Some(problem) = name_problem(&word) {
            return Err(bad(format!("choice {} {problem}", i + 1)));
        }
        if out.contains(&word) {
            return Err(bad(format!(
                "the choice \"{}\" is listed twice",
                crate::error::printable_name(&word)
            )));
        }
        out.push(word);
    }
    if out.is_empty() || out.len() != list.raw_len() {
        return Err(bad(
            "type is a list of choices such as { \"strict\", \"loose\" }".to_string(),
        ));
    }
    Ok(out)
}
