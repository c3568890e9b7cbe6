//! Movement costs as declared data: their shape checked when declared, compiled for one movement
//! class and side against a map's kinds when a search needs them.

use crate::action::Reason;
use crate::algo::movement::{Cost, CostModel, Entry, LinkRate};
use crate::map::Map;
use crate::state::Value;

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
/// `terrain`, `hexsides` and `links` (and `classes`, the movement class names); a cost is a finite number of MP not below zero,
/// `"prohibited"` or `false`, or a table of such keyed by class, side or `default` (with `cost`,
/// `rule`, `message` and, for links, `bridges`).
pub fn check_costs(decl: &Value) -> Result<(), CostError> {
    let Value::Object(sections) = decl else {
        return Err(CostError("the declaration is a table".into()));
    };
    for (section, entries) in sections {
        if section == "classes" {
            let ok = entries
                .as_array()
                .is_some_and(|a| a.iter().all(Value::is_string));
            if !ok {
                return Err(CostError(format!(
                    "`classes` is a list of movement class names, got {entries}"
                )));
            }
            continue;
        }
        if !["terrain", "hexsides", "links"].contains(&section.as_str()) {
            return Err(CostError(format!(
                "unknown section `{section}`{} (the sections are terrain, hexsides and links, and `classes` lists the movement classes)",
                crate::names::did_you_mean(section, &["terrain", "hexsides", "links", "classes"])
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
    let Value::Object(m) = v else {
        return check_one_cost(v, at).map_err(|e| match v {
            Value::Number(_) => e,
            _ => CostError(format!(
                "`{at}`: expected a number of MP, \"prohibited\", false or a table by class or side, got {v}"
            ))
        });
    };
    let by_class = m
        .keys()
        .any(|k| !matches!(k.as_str(), "cost" | "rule" | "message" | "bridges"));
    if m.contains_key("cost") && by_class {
        // the compiler reads `cost` and would pass over the classes beside it without a word
        return Err(CostError(format!(
            "`{at}`: give the cost under `cost` or by class, side and `default`, not both"
        )));
    }
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
            "cost" => match inner {
                Value::Object(classes) => {
                    for (class, c) in classes {
                        check_one_cost(c, &format!("{at}.cost.{class}"))?;
                    }
                }
                other => check_one_cost(other, &format!("{at}.cost"))?,
            },
            _ => check_one_cost(inner, &format!("{at}.{k}"))?,
        }
    }
    Ok(())
}

/// One class's or side's cost: the compiler reads a number, `"prohibited"` or `false` there and
/// nothing deeper, so a table (`track = { cost = "prohibited" }`) is refused where it is declared
/// rather than at the first search that meets it.
fn check_one_cost(v: &Value, at: &str) -> Result<(), CostError> {
    match v {
        Value::Number(n) => match n.as_f64() {
            // past the most a search counts, a cost read as unreachable: a prohibition without
            // its reason (say "prohibited" for that)
            Some(x) if x.is_finite() && (0.0..=Cost::MOST_MP).contains(&x) => Ok(()),
            _ => Err(CostError(format!(
                "`{at}`: a cost is a number of MP from 0 to {} (\"prohibited\" for no entry), got {n}",
                Cost::MOST_MP.floor()
            ))),
        },
        Value::String(s) if s == "prohibited" => Ok(()),
        Value::Bool(false) => Ok(()),
        Value::Object(_) => Err(CostError(format!(
            "`{at}`: a class's or side's cost is a number of MP, \"prohibited\" or false, \
                 not a table; `rule` and `message` go on the entry itself, e.g. \
                 `bog = {{ foot = 2, wheels = \"prohibited\", rule = \"6.7\", message = \"…\" }}`"
        ))),
        other => Err(CostError(format!(
            "`{at}`: expected a number of MP, \"prohibited\" or false, got {other}"
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
        let v = match terrain_decl.get(name) {
            Some(v) => v,
            // a kind no hex has (the map's default where every hex is painted, a kind painted
            // away) is never read, and `Ruleset::check_map` does not ask it be declared: a
            // default of no declared terrain loaded and every search then failed
            None if !map
                .hexes()
                .any(|h| map.terrain_name(h) == Some(name.as_str())) =>
            {
                terrain.push(Entry::Cost(Cost::from_mp(1.0)));
                continue;
            }
            None => {
                return Err(CostError(format!(
                    "terrain `{name}` used by the map has no movement cost"
                )))
            }
        };
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
                        if let Some(bit) = map.side_kinds.bit(kind) {
                            bridges |= bit;
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

/// Compiled cost models, kept until the map, the rules or the variants in force change, so a
/// search compiles a class's costs once, not once per field.
///
/// The cache holds the map it compiled against: `Arc` identity then means the same map, since a
/// map shared with the cache cannot change in place (a change copies it first).
#[derive(Debug, Default)]
pub struct CostModelCache {
    map: Option<std::sync::Arc<Map>>,
    variants: u64,
    /// (class, side, model): a handful of entries, found by a scan that allocates nothing.
    models: Vec<(String, String, std::sync::Arc<CostModel>)>,
}

impl CostModelCache {
    /// The model for `class` and `side` on `map` under `decl`, compiled on the first request.
    /// `variants` says which option variants shaped `decl` (see `Ruleset::variant_mask`).
    pub fn get(
        &mut self,
        decl: &Value,
        variants: u64,
        map: &std::sync::Arc<Map>,
        class: &str,
        side: &str,
    ) -> Result<std::sync::Arc<CostModel>, CostError> {
        let same_map = self
            .map
            .as_ref()
            .is_some_and(|m| std::sync::Arc::ptr_eq(m, map));
        if !same_map || self.variants != variants {
            self.models.clear();
            self.map = Some(map.clone());
            self.variants = variants;
        }
        if let Some((_, _, m)) = self.models.iter().find(|(c, s, _)| c == class && s == side) {
            return Ok(m.clone());
        }
        let model = std::sync::Arc::new(compile_costs(decl, map, class, side)?);
        self.models
            .push((class.to_string(), side.to_string(), model.clone()));
        Ok(model)
    }
}
