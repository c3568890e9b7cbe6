//! `kessel info`: the vocabulary of a scenario and its ruleset — sequence of play, action kinds,
//! unit types, terrain, hexside and place kinds, areas, places, pools, options in force and the
//! scenario's variables — as text for people or JSON for tools.

use kessel_core::engine::Engine;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kessel info`.
#[derive(clap::Args)]
pub struct Args {
    /// Scenario file (TOML) or package (.kessel).
    #[arg(default_value = crate::DEFAULT_SCENARIO)]
    scenario: PathBuf,
    /// Profile: a name of the ruleset's (in its profiles/ folder, or for Kessel's own copy of
    /// the rules in ~/kessel/profiles/<ruleset>/), or a path.
    #[arg(long)]
    profile: Option<String>,
    #[command(flatten)]
    options: super::options::OptionArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let path = crate::open_scenario(&args.scenario)?;
    let engine = args
        .options
        .load(&path, args.profile.as_deref(), crate::DEFAULT_SEED)?;
    let info = vocabulary(&engine)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&info)?);
    } else {
        print!("{}", kessel_core::error::terminal_safe(&text(&info)));
    }
    Ok(ExitCode::SUCCESS)
}

/// Everything a modder looks up, as one JSON value.
pub fn vocabulary(engine: &Engine) -> anyhow::Result<Value> {
    let sc = engine
        .scenario()
        .ok_or_else(|| anyhow::anyhow!("no scenario loaded"))?;
    let queries = engine
        .queries()
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    let rules = engine.ruleset();
    let options = engine.options();
    let state = engine.state();
    let map = &state.map;
    let labels = |hexes: &[kessel_core::Hex]| -> Vec<String> {
        hexes.iter().map(|h| map.label(*h)).collect()
    };
    let kinds = |list: &[kessel_core::ruleset::KindDecl]| -> Vec<Value> {
        list.iter()
            .map(|k| json!({ "id": k.id, "name": k.props.get("name").cloned().unwrap_or(Value::Null) }))
            .collect()
    };
    Ok(json!({
        "scenario": {
            "name": sc.name,
            "file": kessel_core::script::display_path(&sc.path),
            // the files an extending scenario is laid over, nearest first
            "extends": sc
                .bases()
                .map(|p| kessel_core::script::display_path(&kessel_core::error::shown_path(p)))
                .collect::<Vec<_>>(),
            "turns": sc.turns,
            "first_turn": sc.first_turn,
            "ruleset": rules.name,
            "ruleset_dir": kessel_core::script::display_path(
                &std::fs::canonicalize(engine.ruleset_dir())
                    .unwrap_or_else(|_| engine.ruleset_dir().to_path_buf()),
            ),
            "profile": engine.profile_arg(),
            // (as `kessel check` names it: "defaults" when no profile is given)
            "profile_in_force": engine.options().profile.clone(),
        },
        // the sides that take part, as `kessel check` lists them: a scenario's `sides` may leave
        // some of the ruleset's out (a Red Barricades game of the ASL ruleset has no British)
        "sides": state.sides,
        "ruleset_sides": rules.sides,
        "sequence": rules.sequence.iter().enumerate().map(|(i, s)| json!({
            "index": i, "id": s.id, "name": s.name, "side": s.side, "rule": s.rule,
        })).collect::<Vec<_>>(),
        "modes": rules.modes.iter().map(|(name, n)| json!({
            "name": name,
            "title": n.title_of(name),
            "steps": n.steps.iter().enumerate().map(|(i, s)| json!({
                "index": i, "id": s.id, "name": s.name, "side": s.side, "rule": s.rule,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "actions": rules.actions.iter().map(|a| json!({
            "kind": a.kind, "rule": a.rule, "description": a.description,
        })).collect::<Vec<_>>(),
        "ai_levels": rules.ai_levels.iter().map(|l| json!({
            "id": l.id, "description": l.description,
        })).collect::<Vec<_>>(),
        "unit_types": rules.unit_types,
        "terrain": kinds(&rules.terrains),
        "hexside_kinds": kinds(&rules.hexside_kinds),
        "place_kinds": kinds(&rules.place_kinds),
        "areas": map.areas.values().map(|a| json!({
            "id": a.id, "name": a.name, "hexes": labels(&a.hexes),
        })).collect::<Vec<_>>(),
        "places": map.places.iter().map(|p| json!({
            "name": p.name, "kind": p.kind, "hexes": labels(&p.hexes),
        })).collect::<Vec<_>>(),
        "pools": sc.pools.iter().map(|(id, (side, faces))| json!({
            "id": id, "side": side, "counters": faces.len(),
        })).collect::<Vec<_>>(),
        "options": options.decls.iter().map(|d| json!({
            "id": d.id,
            "value": options.values.get(&d.id).cloned().unwrap_or(Value::Null),
            "default": d.default,
            "rule": d.rule,
            "description": d.description,
            "varies": varies(&rules, &d.id),
        })).collect::<Vec<_>>(),
        "tables": rules.tables.keys().chain(rules.dice_tables.keys()).collect::<Vec<_>>(),
        "results_tables": rules.tables.values().map(|t| {
            let labels: Vec<String> = t.columns.iter().map(|c| c.label(&t.kind)).collect();
            json!({
                "id": t.id,
                "kind": match t.kind {
                    kessel_core::tables::OddsKind::Ratio => "ratio",
                    kessel_core::tables::OddsKind::Differential => "differential",
                },
                "columns": labels,
                "first_roll": t.first_roll,
                "last_roll": t.first_roll + t.rows.len() as i32 - 1,
                "die": t.die,
            })
        }).collect::<Vec<_>>(),
        "dice_tables": rules.dice_tables.values().map(|t| json!({
            "id": t.id,
            "bands": t.bands.len(),
        })).collect::<Vec<_>>(),
        "word_tables": rules.word_tables.values().map(|t| json!({
            "id": t.id, "rows": t.rows, "columns": t.columns,
        })).collect::<Vec<_>>(),
        "scenario_variables": scenario_variables(&rules, &sc.vars),
        "queries": super::query::decls_json(&queries),
    }))
}

/// What declared data has a variant that names option `id` (`movement`, `results table crt`).
fn varies(rules: &kessel_core::ruleset::Ruleset, id: &str) -> Vec<String> {
    use kessel_core::ruleset::VariantData;
    let mut out: Vec<String> = rules
        .variants
        .iter()
        .filter(|v| v.when.contains_key(id))
        .map(|v| match &v.data {
            VariantData::Movement(_) => "movement costs".to_string(),
            VariantData::Table(t) => format!("results table {}", t.id),
            VariantData::Dice(t) => format!("dice table {}", t.id),
        })
        .collect();
    out.dedup();
    out
}

/// The variables the ruleset declares (type, meaning, the value here or none: the rules' default),
/// then any the scenario sets that the ruleset does not declare.
fn scenario_variables(
    rules: &kessel_core::ruleset::Ruleset,
    vars: &std::collections::BTreeMap<String, Value>,
) -> Vec<Value> {
    let mut out: Vec<Value> = rules
        .scenario_vars
        .iter()
        .map(|(id, d)| {
            json!({
                "id": id, "type": d.kind, "description": d.description,
                "default": d.default, "min": d.min, "max": d.max, "values": d.values,
                "declared": true, "value": vars.get(id).cloned().unwrap_or(Value::Null),
            })
        })
        .collect();
    for (id, v) in vars {
        if !rules.scenario_vars.contains_key(id) {
            out.push(json!({ "id": id, "declared": false, "value": v }));
        }
    }
    out
}

fn text(info: &Value) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    // (names and descriptions from the files, on one line each: a line break in an area's name
    // began a line of its own that passed for one of the program's)
    let str_of = |v: &Value| match v {
        Value::String(s) => kessel_core::error::printable_name(s).into_owned(),
        Value::Null => "-".into(),
        other => other.to_string(),
    };
    let list = |key: &str| info[key].as_array().cloned().unwrap_or_default();
    let sc = &info["scenario"];
    let _ = writeln!(
        s,
        "{} ({}) — ruleset {} at {}, profile {}",
        str_of(&sc["name"]),
        match sc["turns"].as_u64() {
            Some(1) => "1 turn".to_string(),
            _ => format!("{} turns", str_of(&sc["turns"])),
        },
        str_of(&sc["ruleset"]),
        str_of(&sc["ruleset_dir"]),
        str_of(&sc["profile_in_force"])
    );
    let bases: Vec<String> = (sc["extends"].as_array().into_iter().flatten())
        .map(str_of)
        .collect();
    if !bases.is_empty() {
        let _ = writeln!(s, "extends: {}", bases.join(", which extends "));
    }
    let sides: Vec<String> = list("sides").iter().map(str_of).collect();
    let all: Vec<String> = list("ruleset_sides").iter().map(str_of).collect();
    if all.is_empty() || all == sides {
        let _ = writeln!(s, "sides: {}", sides.join(", "));
    } else {
        let _ = writeln!(
            s,
            "sides: {} (the scenario's `sides`; the ruleset has {})",
            sides.join(", "),
            all.join(", ")
        );
    }
    let step_lines = |s: &mut String, steps: &[serde_json::Value]| {
        for st in steps {
            let _ = writeln!(
                s,
                "  {:>2} {:<28} {}  [{}]",
                str_of(&st["index"]),
                str_of(&st["id"]),
                str_of(&st["name"]),
                str_of(&st["rule"])
            );
        }
    };
    let _ = writeln!(s, "\nsequence of play (step ids):");
    step_lines(&mut s, &list("sequence"));
    for mode in list("modes") {
        let _ = writeln!(
            s,
            "\nsequence `{}` (a mode), titled \"{}\":",
            str_of(&mode["name"]),
            str_of(&mode["title"])
        );
        step_lines(&mut s, mode["steps"].as_array().map_or(&[][..], |v| v));
    }
    let _ = writeln!(s, "\naction kinds:");
    for a in list("actions") {
        let _ = writeln!(
            s,
            "  {:<22} {}  [{}]",
            str_of(&a["kind"]),
            str_of(&a["description"]),
            str_of(&a["rule"])
        );
    }
    let levels = list("ai_levels");
    if !levels.is_empty() {
        let _ = writeln!(
            s,
            "\ncomputer player levels (the first is the default; `kessel simulate --ai SIDE=ai:LEVEL`):"
        );
        for l in levels {
            let _ = writeln!(
                s,
                "  {:<22} {}",
                str_of(&l["id"]),
                str_of(&l["description"])
            );
        }
    }
    let _ = writeln!(s, "\nunit types:");
    if let Some(types) = info["unit_types"].as_object() {
        for (id, props) in types {
            let id = kessel_core::error::printable_name(id);
            let _ = writeln!(s, "  {id:<14} {}", unit_type_line(props));
        }
    }
    for (key, title) in [
        ("terrain", "terrain"),
        ("hexside_kinds", "hexside kinds"),
        ("place_kinds", "place kinds"),
    ] {
        let items: Vec<String> = list(key)
            .iter()
            .map(|k| format!("{} ({})", str_of(&k["id"]), str_of(&k["name"])))
            .collect();
        let _ = writeln!(s, "\n{title}: {}", items.join(", "));
    }
    let _ = writeln!(s, "\nareas:");
    for a in list("areas") {
        let n = a["hexes"].as_array().map_or(0, Vec::len);
        let _ = writeln!(
            s,
            "  {:<10} {} ({n} hexes)",
            str_of(&a["id"]),
            str_of(&a["name"])
        );
    }
    let places: Vec<String> = list("places")
        .iter()
        .map(|p| format!("{} ({})", str_of(&p["name"]), str_of(&p["kind"])))
        .collect();
    let _ = writeln!(s, "\nplaces: {}", places.join(", "));
    let _ = writeln!(s, "\npools:");
    for p in list("pools") {
        let _ = writeln!(
            s,
            "  {:<14} side {}, {} counters",
            str_of(&p["id"]),
            str_of(&p["side"]),
            str_of(&p["counters"])
        );
    }
    let results = list("results_tables");
    let dice = list("dice_tables");
    if !results.is_empty() || !dice.is_empty() {
        let _ = writeln!(s, "\ntables:");
    }
    // ids in one column, however long the ruleset's are
    let w = results
        .iter()
        .chain(&dice)
        .map(|t| str_of(&t["id"]).chars().count())
        .max()
        .unwrap_or(0)
        .max(14);
    for t in &results {
        let columns = t["columns"].as_array().map_or(&[][..], |v| v);
        let span = match (columns.first(), columns.last()) {
            (Some(a), Some(b)) => format!("{} to {}", str_of(a), str_of(b)),
            _ => "none".into(),
        };
        let die = match &t["die"] {
            Value::Null => String::new(),
            d => format!(", a d{} with modifiers", str_of(d)),
        };
        let _ = writeln!(
            s,
            "  {:<w$} results, {} odds: {} columns ({span}), rolls {} to {}{die}",
            str_of(&t["id"]),
            str_of(&t["kind"]),
            columns.len(),
            str_of(&t["first_roll"]),
            str_of(&t["last_roll"]),
        );
    }
    for t in &dice {
        let _ = writeln!(
            s,
            "  {:<w$} dice table, {} bands",
            str_of(&t["id"]),
            str_of(&t["bands"])
        );
    }
    let words = list("word_tables");
    if !words.is_empty() {
        let _ = writeln!(s, "\ntables keyed by words (rows × columns):");
        for t in words {
            let names = |k: &str| -> String {
                t[k].as_array()
                    .map(|a| a.iter().map(str_of).collect::<Vec<_>>().join(", "))
                    .unwrap_or_default()
            };
            let _ = writeln!(
                s,
                "  {:<14} {} × {}",
                str_of(&t["id"]),
                names("rows"),
                names("columns")
            );
        }
    }
    let _ = writeln!(s, "\noptions in force:");
    for o in list("options") {
        let _ = writeln!(
            s,
            "  {:<40} {:<20} [{}] {}",
            str_of(&o["id"]),
            str_of(&o["value"]),
            str_of(&o["rule"]),
            str_of(&o["description"])
        );
        let varies: Vec<String> = o["varies"]
            .as_array()
            .map(|a| a.iter().map(str_of).collect())
            .unwrap_or_default();
        if !varies.is_empty() {
            let _ = writeln!(s, "  {:<40} varies: {}", "", varies.join(", "));
        }
    }
    let _ = writeln!(
        s,
        "\nqueries (kessel query SCENARIO ID name=value ...; kessel.queries.ask in Lua):"
    );
    if let Some(list) = info["queries"].as_array() {
        if list.is_empty() {
            let _ = writeln!(s, "  (none)");
        }
        for q in list {
            let params: Vec<String> = q["params"]
                .as_object()
                .map(|o| {
                    o.iter()
                        .map(|(n, p)| {
                            let n = kessel_core::error::printable_name(n);
                            // an optional one bracketed, as usage lines show them
                            if p["optional"].as_bool() == Some(true) {
                                format!("[{n}=<{}>]", str_of(&p["type"]))
                            } else {
                                format!("{n}=<{}>", str_of(&p["type"]))
                            }
                        })
                        .collect()
                })
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "  {:<18} {:<28} {}  [{}]",
                str_of(&q["id"]),
                params.join(" "),
                str_of(&q["description"]),
                str_of(&q["rule"])
            );
        }
    }
    let _ = writeln!(
        s,
        "\nscenario variables (declared by the ruleset: type, value here, meaning):"
    );
    let vars = list("scenario_variables");
    if vars.is_empty() {
        let _ = writeln!(s, "  (none)");
    }
    // one row per variable, the columns as wide as their longest entry
    let rows: Vec<(String, String, String, String)> = vars
        .iter()
        .map(|v| {
            let value = match (&v["value"], &v["default"]) {
                (Value::Null, Value::Null) => "(not set)".to_string(),
                (Value::Null, default) => format!("{default} (default)"),
                (other, _) => other.to_string(),
            };
            if v["declared"] == json!(true) {
                let mut t = str_of(&v["type"]).to_string();
                // the words a string may be, where the ruleset lists them
                let words: Vec<&str> = (v["values"].as_array().into_iter().flatten())
                    .filter_map(Value::as_str)
                    .collect();
                if !words.is_empty() {
                    t = format!("{t} ({})", words.join("|"));
                }
                (
                    str_of(&v["id"]).to_string(),
                    t,
                    value,
                    str_of(&v["description"]).to_string(),
                )
            } else {
                let why = "(set here; the ruleset does not declare it)".to_string();
                (str_of(&v["id"]).to_string(), "?".to_string(), value, why)
            }
        })
        .collect();
    let id_w = rows
        .iter()
        .map(|r| r.0.chars().count())
        .max()
        .unwrap_or(0)
        .max(24);
    // a long value (a list of hexes) overflows its own row rather than widen every row
    let value_w = rows
        .iter()
        .map(|r| r.2.chars().count())
        .filter(|n| *n <= 40)
        .max()
        .unwrap_or(0)
        .max(32);
    for (id, ty, value, meaning) in rows {
        let _ = writeln!(s, "  {id:<id_w$} {ty:<7} {value:<value_w$} {meaning}");
    }
    s
}

/// A unit type in words: its name, then side, class and movement, then the ruleset's own fields
/// (`flag` for a field that is `true`, `field=value` for others). It was the declaration's JSON,
/// which a designer had to read brace by brace.
fn unit_type_line(props: &Value) -> String {
    let Some(fields) = props.as_object() else {
        return props.to_string();
    };
    let shown = |v: &Value| match v {
        Value::String(t) => kessel_core::error::printable_name(t).into_owned(),
        other => other.to_string(),
    };
    let mut parts = Vec::new();
    for (key, label) in [
        ("side", "side"),
        ("class", "class"),
        ("movement", "movement"),
    ] {
        if let Some(v) = fields.get(key) {
            parts.push(format!("{label} {}", shown(v)));
        }
    }
    for (key, v) in fields {
        if matches!(key.as_str(), "id" | "name" | "side" | "class" | "movement") {
            continue;
        }
        let key = kessel_core::error::printable_name(key);
        match v {
            Value::Bool(true) => parts.push(key.into_owned()),
            Value::Bool(false) => parts.push(format!("not {key}")),
            other => parts.push(format!("{key}={}", shown(other))),
        }
    }
    let name = fields.get("name").map(shown).unwrap_or_default();
    match (name.is_empty(), parts.is_empty()) {
        (true, _) => parts.join(", "),
        (false, true) => name,
        (false, false) => format!("{name}: {}", parts.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::unit_type_line;
    use serde_json::json;

    #[test]
    fn a_unit_type_reads_as_words_not_json() {
        let t = json!({ "id": "tank", "name": "Tank division", "side": "soviet", "class": "motorized",
            "movement": 10, "armour": true, "towed": false, "symbol": "armour" });
        assert_eq!(
            unit_type_line(&t),
            "Tank division: side soviet, class motorized, movement 10, armour, symbol=armour, not towed"
        );
        assert_eq!(unit_type_line(&json!({ "id": "x", "name": "X" })), "X");
        assert_eq!(
            unit_type_line(&json!({ "id": "x", "movement": 3 })),
            "movement 3"
        );
    }
}
