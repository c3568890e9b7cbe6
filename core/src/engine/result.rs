//! What a `result` hook may answer: `{ level?, scores?, control?, metrics? }` naming the game's
//! own sides, levels and objectives. The balance lab records what it is told and `kessel report`
//! later refuses a record naming a side or objective the run does not have, so an answer that
//! cannot be right is refused when the hook gives it, where its author can see which.

use crate::state::Value;
use crate::world::World;

/// Why `answer` (the hook's return, read as JSON; `Null` is no answer) is no result of `world`'s
/// game, or `Ok`.
pub(super) fn check(world: &World, answer: &Value) -> Result<(), String> {
    let table = match answer {
        Value::Null => return Ok(()),
        Value::Object(t) => t,
        other => {
            return Err(format!(
                "{}; a result is {{ level =, scores =, control =, metrics = }} or nil",
                shown(other)
            ))
        }
    };
    let sides = &world.state.sides;
    let is_side = |s: &str| sides.iter().any(|x| x == s);
    let sides_list = || sides.join(", ");
    for (key, v) in table {
        match key.as_str() {
            "level" => {
                let Some(level) = v.as_str() else {
                    return Err(format!(
                        "`level` = {}; a level is its name, a string",
                        shown(v)
                    ));
                };
                let levels = world.levels();
                if !levels.is_empty() && !levels.iter().any(|l| l.name == level) {
                    let names: Vec<&str> = levels.iter().map(|l| l.name.as_str()).collect();
                    return Err(format!(
                        "`level` = \"{}\", not a level of the scenario ({})",
                        crate::error::printable_name(level),
                        names.join(", ")
                    ));
                }
            }
            "scores" | "control" | "metrics" => {
                let entries = match v {
                    Value::Object(m) => m,
                    other => {
                        return Err(format!("`{key}` = {}; it is a table by name", shown(other)))
                    }
                };
                // the lab keeps every metric of every game-turn in its data file, and lists
                // them by name, a line each: a few hundred short names at most
                if key == "metrics" {
                    if entries.len() > MAX_METRICS {
                        return Err(format!(
                            "`metrics` holds {} measures; a result reports at most {MAX_METRICS} \
                             (the lab keeps each one for every game-turn of every game)",
                            entries.len()
                        ));
                    }
                    if let Some(bad) = entries.keys().find(|k| !metric_name_ok(k)) {
                        return Err(format!(
                            "`metrics` has a measure named \"{}\"; a measure's name is 1 to \
                             {MAX_METRIC_NAME} characters, none of them a line break or other \
                             control character",
                            crate::error::printable_name(bad)
                        ));
                    }
                }
                for (name, x) in entries {
                    let name_shown = crate::error::printable_name(name);
                    match key.as_str() {
                        "scores" if !is_side(name) => {
                            return Err(format!(
                            "`scores.{name_shown}`: `{name_shown}` is not a side of this game ({})",
                            sides_list()
                        ))
                        }
                        "scores" | "metrics" if !x.is_number() => {
                            return Err(format!(
                                "`{key}.{name_shown}` = {}; it is a number",
                                shown(x)
                            ))
                        }
                        // bounded as a scenario's VP are: the lab averages them over games, and
                        // `math.mininteger` VP made every mean and interval meaningless
                        "scores" | "metrics"
                            if !x
                                .as_f64()
                                .is_some_and(|n| n.abs() <= crate::scenario::MAX_VP as f64) =>
                        {
                            return Err(format!(
                                "`{key}.{name_shown}` = {}, out of range (at most ±{})",
                                shown(x),
                                crate::scenario::MAX_VP
                            ))
                        }
                        "control" => {
                            // a position of no scenario names no objectives: nothing to check
                            let objectives = (world.scenario.is_some()
                                || world.setup_victory.objectives.is_some())
                            .then(|| world.objectives());
                            if let Some(objectives) = objectives {
                                if !objectives.iter().any(|o| &o.name == name) {
                                    let names: Vec<&str> =
                                        objectives.iter().map(|o| o.name.as_str()).collect();
                                    return Err(format!(
                                        "`control.{name_shown}`: `{name_shown}` is not an objective of the scenario ({})",
                                        if names.is_empty() { "it has none".to_string() } else { names.join(", ") }
                                    ));
                                }
                            }
                            match x {
                                Value::Null => {}
                                Value::String(s) if is_side(s) => {}
                                other => {
                                    return Err(format!(
                                        "`control.{name_shown}` = {}; it is the side holding it ({}) or nil",
                                        shown(other),
                                        sides_list()
                                    ))
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            other => {
                return Err(format!(
                    "a field `{}`; a result has `level`, `scores`, `control` and `metrics`",
                    crate::error::printable_name(other)
                ))
            }
        }
    }
    Ok(())
}

/// The most measures one result may report.
pub const MAX_METRICS: usize = 256;
/// The longest name of a measure, in characters.
pub const MAX_METRIC_NAME: usize = 80;

fn metric_name_ok(name: &str) -> bool {
    let n = name.chars().count();
    n > 0 && n <= MAX_METRIC_NAME && !name.chars().any(char::is_control)
}

/// A value as the refusal shows it.
fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => format!("the string \"{}\"", crate::error::printable_name(s)),
        Value::Number(n) => format!("the number {n}"),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "a table".into(),
        Value::Null => "nil".into(),
    }
}
