//! Declared queries: named, read-only questions a ruleset answers (a unit's supply state, the odds
//! of an attack) with plain data. The Lua side (`kessel.queries.declare`, `.ask`, `.list`) lives
//! in `script/api/queries.rs`; this module holds what Rust callers see of a declaration and the
//! checks of the arguments a caller passes, so the CLI, the editor and scripts are refused alike.
//!
//! **Invariant:** a query answers, it never changes the game: it runs in the read-only stage, and
//! its result is plain data (objects, arrays, strings, numbers, booleans), so it crosses into Rust
//! as a [`Value`] without losing anything.

use crate::state::{GameState, Value};
use std::collections::BTreeMap;

/// The type of one query parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamType {
    /// Any string.
    String,
    /// A whole number.
    Int,
    /// Any number.
    Number,
    /// `true` or `false`.
    Bool,
    /// The label of a hex of the map.
    Hex,
    /// The id of a unit of the game.
    Unit,
    /// A list of hex labels.
    Hexes,
    /// A list of unit ids.
    Units,
    /// Any plain value (a table the query reads itself).
    Any,
}

impl ParamType {
    /// Every type's name, as a declaration spells it.
    pub const NAMES: [&'static str; 9] = [
        "string", "int", "number", "bool", "hex", "unit", "hexes", "units", "any",
    ];

    /// The type a declaration names.
    pub fn parse(name: &str) -> Option<ParamType> {
        use ParamType::*;
        Some(match name {
            "string" => String,
            "int" => Int,
            "number" => Number,
            "bool" => Bool,
            "hex" => Hex,
            "unit" => Unit,
            "hexes" => Hexes,
            "units" => Units,
            "any" => Any,
            _ => return None,
        })
    }

    /// The name a declaration uses.
    pub fn name(self) -> &'static str {
        use ParamType::*;
        match self {
            String => "string",
            Int => "int",
            Number => "number",
            Bool => "bool",
            Hex => "hex",
            Unit => "unit",
            Hexes => "hexes",
            Units => "units",
            Any => "any",
        }
    }

    /// A value of this type from the text a command line gives (`unit=3pz`, `units=a,b`,
    /// `strict=true`); `any` takes JSON.
    ///
    /// # Example
    /// ```
    /// use kessel_core::queries::ParamType;
    /// assert_eq!(ParamType::Units.from_text("a,b").unwrap(), serde_json::json!(["a", "b"]));
    /// assert!(ParamType::Int.from_text("x").is_err());
    /// ```
    pub fn from_text(self, text: &str) -> Result<Value, String> {
        use ParamType::*;
        let list = || {
            Value::Array(
                text.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(|s| Value::String(s.to_string()))
                    .collect(),
            )
        };
        match self {
            String | Hex | Unit => Ok(Value::String(text.to_string())),
            Int => text
                .parse::<i64>()
                .map(Value::from)
                .map_err(|_| format!("`{text}` is not a whole number")),
            Number => text
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(Value::Number)
                .ok_or_else(|| format!("`{text}` is not a number")),
            Bool => match text {
                "true" => Ok(Value::Bool(true)),
                "false" => Ok(Value::Bool(false)),
                _ => Err(format!("`{text}` is not true or false")),
            },
            Hexes | Units => Ok(list()),
            Any => serde_json::from_str(text).map_err(|e| format!("`{text}` is not JSON: {e}")),
        }
    }
}

/// One parameter of a declared query.
#[derive(Clone, Debug, PartialEq)]
pub struct QueryParam {
    /// Its type.
    pub kind: ParamType,
    /// What it means.
    pub description: String,
    /// May be left out.
    pub optional: bool,
}

/// A query as the ruleset declared it (its function stays on the Lua side).
#[derive(Clone, Debug, PartialEq)]
pub struct QueryDecl {
    /// The id callers name it by.
    pub id: String,
    /// What it answers.
    pub description: String,
    /// The rule case it answers by, when one does.
    pub rule: Option<String>,
    /// Parameters by name.
    pub params: BTreeMap<String, QueryParam>,
}

impl QueryDecl {
    /// Checks `args` against the declared parameters: an object, no unknown name (with the nearest
    /// declared one suggested), every required one given, each of its type; hexes and units must
    /// exist in `state`.
    pub fn check_args(&self, args: &Value, state: &GameState) -> Result<(), String> {
        let empty = serde_json::Map::new();
        let obj = match args {
            Value::Object(o) => o,
            Value::Null => &empty,
            // `{}` from Lua may arrive as an empty array
            Value::Array(a) if a.is_empty() => &empty,
            _ => {
                return Err(format!(
                    "query `{}`: arguments are a table of named values",
                    self.id
                ))
            }
        };
        let known: Vec<String> = self.params.keys().cloned().collect();
        for key in obj.keys() {
            if !self.params.contains_key(key) {
                let hint = crate::names::did_you_mean(key, &known);
                let list = if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                };
                return Err(format!(
                    "query `{}` has no parameter `{key}`{hint}; its parameters: {list}",
                    self.id
                ));
            }
        }
        for (name, p) in &self.params {
            match obj.get(name) {
                None | Some(Value::Null) if p.optional => {}
                None | Some(Value::Null) => {
                    return Err(format!(
                        "query `{}` needs `{name}` ({}: {})",
                        self.id,
                        p.kind.name(),
                        p.description
                    ))
                }
                Some(v) => check_value(p.kind, v, state)
                    .map_err(|m| format!("query `{}`, `{name}`: {m}", self.id))?,
            }
        }
        Ok(())
    }
}

fn check_value(kind: ParamType, v: &Value, state: &GameState) -> Result<(), String> {
    let hex = |v: &Value| match v.as_str() {
        Some(s) if state.map.parse(s).is_some() => Ok(()),
        Some(s) => Err(format!("`{s}` is not a hex of this map")),
        None => Err(format!("expected a hex label, got {v}")),
    };
    let unit = |v: &Value| match v.as_str() {
        Some(s) if state.unit(s).is_some() => Ok(()),
        Some(s) => Err(format!("there is no unit `{s}`")),
        None => Err(format!("expected a unit id, got {v}")),
    };
    let items = |v: &Value| match v {
        Value::Array(a) => Ok(a.clone()),
        Value::Object(o) if o.is_empty() => Ok(Vec::new()),
        _ => Err(format!("expected a list, got {v}")),
    };
    match kind {
        ParamType::String if v.is_string() => Ok(()),
        ParamType::Int if v.is_i64() || v.as_f64().is_some_and(|f| f.fract() == 0.0) => Ok(()),
        ParamType::Number if v.is_number() => Ok(()),
        ParamType::Bool if v.is_boolean() => Ok(()),
        ParamType::Hex => hex(v),
        ParamType::Unit => unit(v),
        ParamType::Hexes => items(v)?.iter().try_for_each(hex),
        ParamType::Units => items(v)?.iter().try_for_each(unit),
        ParamType::Any => Ok(()),
        other => Err(format!("expected {}, got {v}", other.name())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn decl() -> QueryDecl {
        let mut params = BTreeMap::new();
        params.insert(
            "unit".to_string(),
            QueryParam {
                kind: ParamType::Unit,
                description: "who".into(),
                optional: false,
            },
        );
        params.insert(
            "depth".to_string(),
            QueryParam {
                kind: ParamType::Int,
                description: "how far".into(),
                optional: true,
            },
        );
        QueryDecl {
            id: "q".into(),
            description: String::new(),
            rule: None,
            params,
        }
    }

    #[test]
    fn arguments_are_checked_by_name_presence_and_type() {
        let map = crate::map::Map::new("m", 2, 2, Default::default(), "clear");
        let state = GameState::new(std::sync::Arc::new(map), vec![], 0);
        let d = decl();
        let e = d.check_args(&json!({}), &state).expect_err("refused");
        assert!(e.contains("needs `unit`"), "{e}");
        let e = d
            .check_args(&json!({"unti": "x"}), &state)
            .expect_err("refused");
        assert!(e.contains("did you mean `unit`"), "{e}");
        let e = d
            .check_args(&json!({"unit": "x"}), &state)
            .expect_err("refused");
        assert!(e.contains("no unit `x`"), "{e}");
        let e = d
            .check_args(&json!({"unit": 3}), &state)
            .expect_err("refused");
        assert!(e.contains("expected a unit id"), "{e}");
        let e = d
            .check_args(&json!({"depth": "deep"}), &state)
            .expect_err("refused");
        assert!(e.contains("`depth`: expected int"), "{e}");
    }

    #[test]
    fn command_line_text_becomes_typed_values() {
        assert_eq!(ParamType::Int.from_text("12"), Ok(json!(12)));
        assert_eq!(ParamType::Bool.from_text("true"), Ok(json!(true)));
        assert!(ParamType::Bool.from_text("yes").is_err());
        assert_eq!(
            ParamType::Hexes.from_text("0101, 0102"),
            Ok(json!(["0101", "0102"]))
        );
        assert_eq!(ParamType::Any.from_text("{\"a\":1}"), Ok(json!({"a": 1})));
        for name in ParamType::NAMES {
            assert_eq!(ParamType::parse(name).map(ParamType::name), Some(name));
        }
    }
}
