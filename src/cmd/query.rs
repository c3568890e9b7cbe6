//! `kessel query`: ask a ruleset's declared queries (`kessel.queries.declare`) about a scenario's
//! opening position or a saved game, with `key=value` arguments typed by the declaration.

use kessel_core::queries::QueryDecl;
use serde_json::Value;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kessel query`.
#[derive(clap::Args)]
pub struct Args {
    /// Scenario file (TOML or .kessel), or a saved game (JSON) to ask about its current position.
    game: PathBuf,
    /// The query's id; without it, the declared queries are listed.
    id: Option<String>,
    /// Arguments as `name=value`; lists (`units=a,b`) are comma-separated, `any` takes JSON.
    #[arg(value_name = "NAME=VALUE")]
    args: Vec<String>,
    /// Profile: a name of the ruleset's (in its profiles/ folder, or for Kessel's own copy of
    /// the rules in ~/kessel/profiles/<ruleset>/), or a path (scenarios only).
    #[arg(long)]
    profile: Option<String>,
    #[command(flatten)]
    options: super::options::OptionArgs,
    /// Ask as this side: the rules answer from what the side is shown (as `kessel view --as`
    /// shows it), so nothing hidden from it is named; without it, the answer is the truth.
    #[arg(long = "as", value_name = "SIDE")]
    side: Option<String>,
    /// Print the answer (or the list) as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let engine = super::load_game(
        &args.game,
        args.profile.as_deref(),
        &args.options,
        crate::DEFAULT_SEED,
    )?;
    let decls = engine
        .queries()
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    let Some(id) = args.id else {
        if args.json {
            println!("{}", serde_json::to_string_pretty(&decls_json(&decls))?);
        } else {
            print!("{}", kessel_core::error::terminal_safe(&list_text(&decls)));
        }
        return Ok(ExitCode::SUCCESS);
    };
    let decl = decls.iter().find(|d| d.id == id);
    let query_args = parse_args(decl, &args.args)?;
    let answer = match &args.side {
        Some(side) => engine.query_as(side, &id, &query_args)?,
        None => engine
            .query(&id, &query_args)
            .map_err(|e| anyhow::anyhow!("{}", e.message))?,
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&answer)?);
    } else {
        let mut out = String::new();
        render(&answer, 0, &mut out);
        print!("{}", kessel_core::error::terminal_safe(&out));
    }
    Ok(ExitCode::SUCCESS)
}

/// `name=value` arguments typed by the declaration (an unknown name is left to the engine, which
/// refuses it with the nearest declared one).
fn parse_args(decl: Option<&QueryDecl>, raw: &[String]) -> anyhow::Result<Value> {
    let mut out = serde_json::Map::new();
    for a in raw {
        let (name, text) = a
            .split_once('=')
            .ok_or_else(|| anyhow::anyhow!("`{a}`: arguments are name=value"))?;
        let value = match decl.and_then(|d| d.params.get(name)) {
            Some(p) => p
                .kind
                .from_text(text)
                .map_err(|m| anyhow::anyhow!("`{name}`: {m}"))?,
            None => Value::String(text.to_string()),
        };
        // the second would silently replace the first (a list is one argument: units=a,b)
        if out.insert(name.to_string(), value).is_some() {
            anyhow::bail!(
                "`{name}` is given twice; give it once (a list in one argument: {name}=a,b)"
            );
        }
    }
    Ok(Value::Object(out))
}

/// The declarations as JSON (also listed by `kessel info --json`).
pub fn decls_json(decls: &[QueryDecl]) -> Value {
    Value::Array(
        decls
            .iter()
            .map(|d| {
                let params: serde_json::Map<String, Value> = d
                    .params
                    .iter()
                    .map(|(n, p)| {
                        (
                            n.clone(),
                            serde_json::json!({
                                "type": p.kind.name(), "description": p.description,
                                "optional": p.optional,
                            }),
                        )
                    })
                    .collect();
                serde_json::json!({
                    "id": d.id, "description": d.description, "rule": d.rule, "params": params,
                })
            })
            .collect(),
    )
}

/// One line per query, then one per parameter.
pub fn list_text(decls: &[QueryDecl]) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    if decls.is_empty() {
        let _ = writeln!(s, "  (none)");
    }
    for d in decls {
        let rule = d.rule.as_deref().unwrap_or("-");
        // (the ruleset's text, a line each: a line break in it is escaped)
        let one = kessel_core::error::terminal_line;
        let _ = writeln!(s, "  {:<18} {}  [{}]", d.id, one(&d.description), one(rule));
        for (name, p) in &d.params {
            let opt = if p.optional { ", optional" } else { "" };
            let _ = writeln!(
                s,
                "      {name}=<{}{opt}>  {}",
                p.kind.name(),
                one(&p.description)
            );
        }
    }
    s
}

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Null => Some("-".into()),
        Value::Bool(_) | Value::Number(_) => Some(v.to_string()),
        Value::Array(a) if a.is_empty() => Some("(none)".into()),
        Value::Array(a) if a.iter().all(|x| !x.is_array() && !x.is_object()) => {
            Some(a.iter().filter_map(scalar).collect::<Vec<_>>().join(", "))
        }
        Value::Object(o) if o.is_empty() => Some("(none)".into()),
        _ => None,
    }
}

/// An answer as indented `key: value` lines, lists of tables as `-` items.
fn render(v: &Value, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                match scalar(x) {
                    Some(s) => out.push_str(&format!("{pad}{k}: {s}\n")),
                    None => {
                        out.push_str(&format!("{pad}{k}:\n"));
                        render(x, depth + 1, out);
                    }
                }
            }
        }
        Value::Array(a) => {
            for x in a {
                match scalar(x) {
                    Some(s) => out.push_str(&format!("{pad}- {s}\n")),
                    None => {
                        let mut inner = String::new();
                        render(x, depth + 1, &mut inner);
                        out.push_str(&format!("{pad}- {}\n", inner.trim()));
                    }
                }
            }
        }
        other => out.push_str(&format!("{pad}{}\n", scalar(other).unwrap_or_default())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn answers_render_as_indented_lines() {
        let mut out = String::new();
        render(
            &json!({"in_supply": false, "units": ["a", "b"], "mods": [{"rule": "9.3", "message": "x"}]}),
            0,
            &mut out,
        );
        assert!(out.contains("in_supply: false\n"), "{out}");
        assert!(out.contains("units: a, b\n"), "{out}");
        assert!(out.contains("mods:\n  - message: x\n"), "{out}");
    }

    #[test]
    fn arguments_need_a_name_and_an_equals_sign() {
        assert!(parse_args(None, &["unit".into()]).is_err());
        assert_eq!(
            parse_args(None, &["unit=3pz".into()]).expect("parses"),
            json!({"unit": "3pz"})
        );
    }
}
