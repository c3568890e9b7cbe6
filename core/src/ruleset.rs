//! What a ruleset declared when its scripts loaded: sides, unit types, terrain and hexside kinds,
//! movement costs, tables, the sequence of play, options. Plain data; the Lua functions (action
//! handlers, hooks) stay in the Lua state and are looked up by name.
//!
//! **Invariant:** a ruleset holds no game state, so it can be rebuilt from its files at any moment
//! (hot reload) and the game goes on.

use crate::action::Reason;
use crate::algo::movement::{Cost, CostModel, Entry, LinkRate};
use crate::map::Map;
use crate::options::OptionDecl;
use crate::state::Value;
use crate::tables::{DiceTable, ResultsTable};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One step of the sequence of play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// Id (`"red_combat"`).
    pub id: String,
    /// Name shown to players.
    pub name: String,
    /// Phasing side, if any.
    pub side: Option<String>,
    /// Rule reference.
    pub rule: Option<String>,
}

/// A declared kind with display data (terrain, hexside kind, place kind).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KindDecl {
    /// Id used in maps.
    pub id: String,
    /// Free properties (name, colour, …) for the rules and the editor.
    pub props: Value,
}

/// An action kind the rules handle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionDecl {
    /// Kind id.
    pub kind: String,
    /// Rule reference.
    pub rule: Option<String>,
    /// One-line description.
    pub description: String,
}

/// Everything a ruleset declared.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ruleset {
    /// Name.
    pub name: String,
    /// Side ids, in play order.
    pub sides: Vec<String>,
    /// Unit types by id, with their free properties.
    pub unit_types: BTreeMap<String, Value>,
    /// Terrain kinds.
    pub terrains: Vec<KindDecl>,
    /// Hexside kinds (features and links).
    pub hexside_kinds: Vec<KindDecl>,
    /// Place kinds.
    pub place_kinds: Vec<KindDecl>,
    /// Movement costs as declared (see [`compile_costs`]).
    pub movement: Option<Value>,
    /// Results tables by id.
    pub tables: BTreeMap<String, ResultsTable>,
    /// Dice tables by id.
    pub dice_tables: BTreeMap<String, DiceTable>,
    /// Tables keyed by words, by id.
    pub word_tables: BTreeMap<String, crate::tables::WordTable>,
    /// The sequence of play.
    pub sequence: Vec<Step>,
    /// Options.
    pub options: Vec<OptionDecl>,
    /// Action kinds.
    pub actions: Vec<ActionDecl>,
    /// Free ruleset-wide constants.
    pub constants: BTreeMap<String, Value>,
    /// Scenario variables the rules read, by id: the type their `[vars]` value must have
    /// (checked when a scenario loads) and what they mean (listed by `kessel info`).
    pub scenario_vars: BTreeMap<String, ScenarioVarDecl>,
}

/// A scenario variable a ruleset reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScenarioVarDecl {
    /// `int`, `number`, `string`, `bool`, `list` or `table`.
    pub kind: String,
    /// What it means, and what the rules do when a scenario leaves it out.
    pub description: String,
}

/// The types a scenario variable may be declared with.
pub const SCENARIO_VAR_TYPES: &[&str] = &["int", "number", "string", "bool", "list", "table"];

/// Whether a scenario variable's value has its declared type; `Err` says what it is instead.
pub fn scenario_var_fits(kind: &str, v: &Value) -> Result<(), String> {
    let fits = match kind {
        "int" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "string" => v.is_string(),
        "bool" => v.is_boolean(),
        "list" => v.is_array(),
        "table" => v.is_object(),
        _ => true,
    };
    if fits {
        return Ok(());
    }
    Err(match v {
        Value::Null => "nothing".to_string(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string \"{s}\""),
        Value::Array(_) => "a list".to_string(),
        Value::Object(_) => "a table".to_string(),
    })
}

/// A cost declaration that cannot be compiled.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("movement costs: {0}")]
pub struct CostError(pub String);

fn lookup<'a>(v: &'a Value, class: &str, side: &str) -> Option<&'a Value> {
    match v {
        Value::Object(m) => m
            .get(class)
            .or_else(|| m.get(side))
            .or_else(|| m.get("default")),
        other => Some(other),
    }
}

fn entry_of(
    v: &Value,
    class: &str,
    side: &str,
    what: &str,
    decl: &Value,
) -> Result<Option<Entry>, CostError> {
    let rule = decl.get("rule").and_then(Value::as_str).map(str::to_string);
    let message = decl
        .get("message")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| format!("{what} may not be entered"));
    match lookup(v, class, side) {
        None => Ok(None),
        Some(Value::Number(n)) => Ok(Some(Entry::Cost(Cost::from_mp(n.as_f64().unwrap_or(0.0))))),
        Some(Value::String(s)) if s == "prohibited" => {
            Ok(Some(Entry::Prohibited(Reason { rule, message })))
        }
        Some(Value::Bool(false)) => Ok(None),
        Some(other) => Err(CostError(format!(
            "`{what}` for class `{class}`: expected a number or \"prohibited\", got {other}"
        ))),
    }
}

/// Checks a movement declaration's shape and values when it is declared, so that a bad value fails
/// at its declaration instead of at the first movement field that meets it: the sections are
/// `terrain`, `hexsides` and `links`; a cost is a finite number of MP not below zero,
/// `"prohibited"` or `false`, or a table of such keyed by class, side or `default` (with `cost`,
/// `rule`, `message` and, for links, `bridges`).
pub fn check_costs(decl: &Value) -> Result<(), CostError> {
    let Value::Object(sections) = decl else {
        return Err(CostError("the declaration is a table".into()));
    };
    for (section, entries) in sections {
        if !["terrain", "hexsides", "links"].contains(&section.as_str()) {
            return Err(CostError(format!(
                "unknown section `{section}` (the sections are terrain, hexsides and links)"
            )));
        }
        let Value::Object(entries) = entries else {
            return Err(CostError(format!(
                "`{section}` is a table of kind = cost, got {entries}"
            )));
        };
        for (kind, v) in entries {
            check_cost(v, &format!("{section}.{kind}"))?;
        }
    }
    Ok(())
}

fn check_cost(v: &Value, at: &str) -> Result<(), CostError> {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(x) if x.is_finite() && x >= 0.0 => Ok(()),
            _ => Err(CostError(format!(
                "`{at}`: a cost is a number of MP of 0 or more, got {n}"
            ))),
        },
        Value::String(s) if s == "prohibited" => Ok(()),
        Value::Bool(false) => Ok(()),
        Value::Object(m) => {
            for (k, inner) in m {
                match k.as_str() {
                    "rule" | "message" if inner.is_string() => {}
                    "rule" | "message" => {
                        return Err(CostError(format!("`{at}.{k}` is a string, got {inner}")))
                    }
                    "bridges" => {
                        let ok = inner
                            .as_array()
                            .is_some_and(|a| a.iter().all(Value::is_string));
                        if !ok {
                            return Err(CostError(format!(
                                "`{at}.bridges` is a list of hexside kinds, got {inner}"
                            )));
                        }
                    }
                    _ => check_cost(inner, &format!("{at}.{k}"))?,
                }
            }
            Ok(())
        }
        other => Err(CostError(format!(
            "`{at}`: expected a number of MP, \"prohibited\" or a table by class or side, got {other}"
        ))),
    }
}

/// Compiles the declared movement costs for one movement class and side against a map's kinds.
///
/// Declaration shape (Lua):
/// `{ terrain = { clear = 1, forest = { infantry = 1, default = 2 }, lake = "prohibited" },
///    hexsides = { river = { red = 2, blue = 1 } }, links = { road = { motorized = 0.5 } } }`.
/// A value is a number of MP, `"prohibited"`, or a table keyed by class, side or `default`; an entry
/// may carry `rule` and `message` for the reason shown when it forbids a move.
pub fn compile_costs(
    decl: &Value,
    map: &Map,
    class: &str,
    side: &str,
) -> Result<CostModel, CostError> {
    let empty = Value::Object(Default::default());
    let terrain_decl = decl.get("terrain").unwrap_or(&empty);
    let mut terrain = Vec::new();
    for name in map.terrains.names() {
        let v = terrain_decl.get(name).ok_or_else(|| {
            CostError(format!(
                "terrain `{name}` used by the map has no movement cost"
            ))
        })?;
        let inner = v.get("cost").unwrap_or(v);
        let e = entry_of(inner, class, side, &format!("terrain {name}"), v)?
            .unwrap_or(Entry::Cost(Cost::from_mp(1.0)));
        terrain.push(e);
    }
    let sides_decl = decl.get("hexsides").unwrap_or(&empty);
    let links_decl = decl.get("links").unwrap_or(&empty);
    let mut sides = Vec::new();
    let mut links = Vec::new();
    for (k, name) in map.side_kinds.names().iter().enumerate() {
        if let Some(v) = links_decl.get(name) {
            let inner = v.get("cost").unwrap_or(v);
            if let Some(Entry::Cost(c)) = entry_of(inner, class, side, name, v)? {
                let mut bridges = 0u32;
                if let Some(Value::Array(b)) = v.get("bridges") {
                    for kind in b.iter().filter_map(Value::as_str) {
                        if let Some(id) = map.side_kinds.get(kind) {
                            bridges |= 1 << id;
                        }
                    }
                }
                links.push(LinkRate {
                    bit: 1 << k,
                    cost: c,
                    bridges,
                });
            }
            sides.push(None);
        } else if let Some(v) = sides_decl.get(name) {
            let inner = v.get("cost").unwrap_or(v);
            sides.push(entry_of(inner, class, side, &format!("hexside {name}"), v)?);
        } else {
            sides.push(None);
        }
    }
    // the cheapest link first: where two links share a hexside the better one applies
    links.sort_by_key(|l| l.cost);
    Ok(CostModel {
        terrain,
        sides,
        links,
    })
}

impl Ruleset {
    /// The action kinds, in declaration order.
    pub fn action_kinds(&self) -> impl Iterator<Item = &str> {
        self.actions.iter().map(|a| a.kind.as_str())
    }

    /// The step at an index of the sequence.
    pub fn step(&self, index: usize) -> Option<&Step> {
        self.sequence.get(index)
    }

    /// Index of a step by id.
    pub fn step_index(&self, id: &str) -> Option<usize> {
        self.sequence.iter().position(|s| s.id == id)
    }

    /// Checks a map's kinds against the declarations; returns one message per unknown kind.
    pub fn check_map(&self, map: &Map) -> Vec<String> {
        let mut out = Vec::new();
        let known = |list: &[KindDecl], n: &str| list.iter().any(|k| k.id == n);
        for t in map.terrains.names() {
            if !self.terrains.is_empty() && !known(&self.terrains, t) {
                out.push(format!("terrain `{t}` is not declared by the ruleset"));
            }
        }
        for t in map.side_kinds.names() {
            if !self.hexside_kinds.is_empty() && !known(&self.hexside_kinds, t) {
                out.push(format!("hexside kind `{t}` is not declared by the ruleset"));
            }
        }
        for t in map.place_kinds.names() {
            if !self.place_kinds.is_empty() && !known(&self.place_kinds, t) {
                out.push(format!("place kind `{t}` is not declared by the ruleset"));
            }
        }
        out
    }
}
