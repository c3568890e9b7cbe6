//! What the play-test mode asks the rules, and how.
//!
//! The editor knows no game. It plays through `Engine::act`, lists choices with
//! `Engine::legal_actions_where`, explains refusals with `Engine::validate`, and asks for data no
//! action carries (a stack's movement field with costs, an odds breakdown) through the ruleset's
//! declared queries (`Engine::query`), when it declares these two (docs/lua-api.md, "Queries the
//! editor asks"):
//!
//! - **`reach`** `{ units = {ids} }` → `{ movers = {ids}, refused = {{unit, rule, message}},
//!   reachable = {{hex, cost}} }`. Its `move` action takes `{ units = {ids}, path = {hexes} }`.
//! - **`odds`** `{ units = {ids}, targets = {hexes} }` → `{ attack, defence, table, label, below,
//!   above, distribution = {{result, p}} }` and its modifiers (`{rule, message}` lists) in
//!   `modifiers`, `attack_modifiers` and/or `defence_modifiers`.
//!
//! A ruleset without them still plays: reachable hexes then come from the `move` actions its
//! enumerator lists (costs from the declared terrain chart), and odds from the summed printed
//! strengths through the ruleset's `odds` hook (`Engine::odds`).

use kessel_core::action::{Action, Reason};
use kessel_core::engine::Engine;
use kessel_core::hex::Hex;
use kessel_core::state::{Unit, Value};
use serde_json::json;
use std::collections::BTreeMap;

/// The query the editor asks for where a stack can go (see the module docs).
pub const REACH_QUERY: &str = "reach";
/// The query the editor asks for an attack's odds (see the module docs).
pub const ODDS_QUERY: &str = "odds";

/// Does the ruleset declare the query `id`?
fn declares(engine: &Engine, id: &str) -> Result<bool, String> {
    Ok(engine
        .queries()
        .map_err(|e| e.message)?
        .iter()
        .any(|q| q.id == id))
}

const PLAIN_FIELD_CHUNK: &str = r#"
local args = ...
local u = kessel.units.get(args.unit)
if u == nil or u.hex == nil then return { reachable = {} } end
local ut = kessel.game.unit_type(u.type) or {}
local f = kessel.paths.field{ from = u.hex, budget = 1000, class = ut.class or "", side = u.side }
local out = {}
for h, c in pairs(f:reachable()) do out[#out + 1] = { hex = h, cost = c } end
return { reachable = out }
"#;

/// Where a stack can go.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reach {
    /// Units moving (those of the selection that may move now).
    pub movers: Vec<String>,
    /// Units of the selection that may not move, with the reason.
    pub refused: Vec<(String, Reason)>,
    /// Reachable hexes and their cost in MP (`None` = unknown).
    pub costs: BTreeMap<Hex, Option<f64>>,
    /// For a stack whose units pay differently (a tank and a rifle): what each group of its
    /// units pays for a hex (the `reach` answer's `costs`), said on hovering the hex; `costs`
    /// holds the most of them.
    pub split: BTreeMap<Hex, Vec<(Vec<String>, f64)>>,
    /// The exact action for each destination, when the rules enumerated it.
    pub actions: BTreeMap<Hex, Action>,
    /// True when the ruleset's `reach` query answered (costs by its rules).
    pub by_rules: bool,
    /// Why no hex is reachable although some units of the selection may move: the answer's
    /// `reason`, else the rules' refusal of a move into a hex the query listed (a panel that
    /// said only "No hex is reachable" left a player guessing).
    pub none_because: Option<Reason>,
}

/// The odds of a declared attack.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OddsView {
    /// Attack strength after modifiers.
    pub attack: i64,
    /// Defence strength after modifiers.
    pub defence: i64,
    /// Results table used.
    pub table: String,
    /// Odds column label (`3-1`).
    pub label: String,
    /// Off the table's low or high end.
    pub edge: Option<String>,
    /// Every modifier applied, each with its rule.
    pub modifiers: Vec<Reason>,
    /// Chance of each result, in table order.
    pub distribution: Vec<(String, f64)>,
    /// Face-down units taking part: their strength is unknown (counted as the rules count an
    /// unknown value) until the attack reveals them.
    pub hidden: usize,
}

fn reason_of(v: &Value) -> Reason {
    Reason {
        rule: v.get("rule").and_then(Value::as_str).map(str::to_string),
        message: v
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("not allowed")
            .to_string(),
    }
}

/// A Lua list: an array, or `{}` which may come back as an empty object.
fn list(v: Option<&Value>) -> Vec<Value> {
    match v {
        Some(Value::Array(a)) => a.clone(),
        _ => Vec::new(),
    }
}

fn hex_costs(engine: &Engine, v: Option<&Value>) -> BTreeMap<Hex, Option<f64>> {
    let map = engine.state().map.clone();
    list(v)
        .iter()
        .filter_map(|e| {
            let hex = map.parse(e.get("hex")?.as_str()?)?;
            Some((hex, e.get("cost").and_then(Value::as_f64)))
        })
        .collect()
}

/// The unit ids an action moves or commits (`units` or `unit`).
pub fn action_units(a: &Action) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(Value::Array(ids)) = a.params.get("units") {
        out.extend(ids.iter().filter_map(|v| v.as_str().map(str::to_string)));
    }
    if let Some(Value::String(id)) = a.params.get("unit") {
        if !out.contains(id) {
            out.push(id.clone());
        }
    }
    out
}

/// The hexes an action names, in order: `hex`, `target`, `targets`, `path`, then `to` (a
/// destination named alone, as a ruleset's own kind of move may: its last hex, where the
/// action ends).
pub fn action_hexes(engine: &Engine, a: &Action) -> Vec<Hex> {
    let map = &engine.state().map;
    let mut out = Vec::new();
    let mut push = |v: &Value| {
        if let Some(h) = v.as_str().and_then(|s| map.parse(s)) {
            out.push(h);
        }
    };
    for key in ["hex", "target", "targets", "path", "to"] {
        match a.params.get(key) {
            Some(Value::Array(list)) => list.iter().for_each(&mut push),
            Some(v) => push(v),
            None => {}
        }
    }
    out
}

/// The destination of a move action (the last hex of its path).
pub fn move_destination(engine: &Engine, a: &Action) -> Option<Hex> {
    let path = a.params.get("path")?.as_array()?;
    let last = path.last()?.as_str()?;
    engine.state().map.parse(last)
}

/// A `move` of `units` to `dest` as the rules spell it: both `units` and `unit` are given, since
/// rulesets move stacks (`units`) or single counters (`unit`) and read only their own key.
pub fn move_action(engine: &Engine, units: &[String], dest: Hex) -> Action {
    let label = engine.state().map.label(dest);
    let mut a = Action::new("move")
        .with("units", json!(units))
        .with("path", json!([label]));
    if let Some(first) = units.first() {
        a = a.with("unit", first.as_str());
    }
    a
}

/// An `attack` by `units` on `targets`, spelt like the rules' own enumerated attacks when there
/// are any (`targets` list or single `target`), else with both spellings.
pub fn attack_action(
    engine: &Engine,
    units: &[String],
    targets: &[Hex],
    samples: &[Action],
) -> Action {
    let map = engine.state().map.clone();
    let labels: Vec<String> = targets.iter().map(|h| map.label(*h)).collect();
    let sample = samples.iter().find(|a| a.kind == "attack");
    let uses_list = sample.is_none_or(|a| a.params.contains_key("targets"));
    let uses_single = sample.is_none_or(|a| a.params.contains_key("target"));
    let mut a = Action::new("attack").with("units", json!(units));
    if uses_list {
        a = a.with("targets", json!(labels));
    }
    if uses_single {
        if let Some(first) = labels.first() {
            a = a.with("target", first.as_str());
        }
    }
    a
}

/// A declared query's answer about one unit.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitAnswer {
    /// The query's id.
    pub id: String,
    /// What it answers.
    pub description: String,
    /// Its answer (plain data), or the error it raised.
    pub answer: Result<Value, String>,
}

/// Asks every declared query that needs no argument — the game as it stands: PGG's score now,
/// a pending retreat — in the order of their ids. Left out: `deciding_side`, which the header
/// says already. A player had no way to see the VP before the game's end.
pub fn game_answers(engine: &Engine) -> Result<Vec<UnitAnswer>, String> {
    let decls = engine.queries().map_err(|e| e.message)?;
    Ok(decls
        .into_iter()
        .filter(|d| d.id != "deciding_side" && d.params.iter().all(|(_, p)| p.optional))
        .map(|d| {
            let answer = engine.query(&d.id, &json!({})).map_err(|e| e.message);
            UnitAnswer {
                id: d.id,
                description: d.description,
                answer,
            }
        })
        .collect())
}

/// Asks every declared query that is about one unit — exactly one required parameter, of type
/// `unit` — about `unit` (a unit's supply state, its MP left), in the order of their ids.
/// The inspector shows what the rules say about a unit this way without knowing any game.
pub fn unit_answers(engine: &Engine, unit: &str) -> Result<Vec<UnitAnswer>, String> {
    use kessel_core::queries::ParamType;
    let decls = engine.queries().map_err(|e| e.message)?;
    Ok(decls
        .into_iter()
        .filter_map(|d| {
            let required: Vec<_> = d.params.iter().filter(|(_, p)| !p.optional).collect();
            let [(name, p)] = required.as_slice() else {
                return None;
            };
            if p.kind != ParamType::Unit {
                return None;
            }
            let answer = engine
                .query(&d.id, &json!({ name.as_str(): unit }))
                .map_err(|e| e.message);
            Some(UnitAnswer {
                id: d.id,
                description: d.description,
                answer,
            })
        })
        .collect())
}

/// Where `units` (standing together) can go now, by the ruleset's `reach` query when it declares
/// one, else by its enumerated `move` actions.
pub fn reach(engine: &Engine, units: &[String]) -> Result<Reach, String> {
    let origin = units
        .first()
        .and_then(|id| engine.state().unit(id).and_then(Unit::hex));
    if declares(engine, REACH_QUERY)? {
        let out = engine
            .query(REACH_QUERY, &json!({ "units": units }))
            .map_err(|e| e.message)?;
        let mut costs = hex_costs(engine, out.get("reachable"));
        if let Some(o) = origin {
            costs.remove(&o);
        }
        let movers: Vec<String> = list(out.get("movers"))
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect();
        // a hex may come with the move's whole `path` (a reinforcement enters by a hex of its
        // area first): the move there is spelt with it
        let map = engine.state().map.clone();
        let mut actions = BTreeMap::new();
        let mut split = BTreeMap::new();
        for e in list(out.get("reachable")) {
            let groups: Vec<(Vec<String>, f64)> = list(e.get("costs"))
                .iter()
                .filter_map(|g| {
                    let cost = g.get("cost")?.as_f64()?;
                    let units = list(g.get("units"))
                        .iter()
                        .filter_map(|u| u.as_str().map(str::to_string))
                        .collect();
                    Some((units, cost))
                })
                .collect();
            if let Some(hex) = e
                .get("hex")
                .and_then(Value::as_str)
                .and_then(|h| map.parse(h))
            {
                if groups.len() > 1 {
                    split.insert(hex, groups);
                }
            }
            let (Some(hex), Some(path)) = (
                e.get("hex")
                    .and_then(Value::as_str)
                    .and_then(|h| map.parse(h)),
                e.get("path").and_then(Value::as_array),
            ) else {
                continue;
            };
            let mut a = move_action(engine, &movers, hex);
            a.params.insert("path".into(), Value::Array(path.clone()));
            actions.insert(hex, a);
        }
        // the query gives the movement field; the move's own rules may still refuse a hex of it
        // (a stacking limit, a scenario's special rule wrapping `move`): shade only what the
        // rules would accept, as the hover and the click ask them
        let mut none_because = out.get("reason").map(reason_of);
        if !movers.is_empty() {
            let mut first_refusal = None;
            costs.retain(|h, _| {
                let a = actions
                    .get(h)
                    .cloned()
                    .unwrap_or_else(|| move_action(engine, &movers, *h));
                match engine.validate(&a) {
                    Ok(Ok(())) => true,
                    Ok(Err(refused)) => {
                        if first_refusal.is_none() {
                            first_refusal = refused.reasons.into_iter().next();
                        }
                        false
                    }
                    Err(_) => false,
                }
            });
            actions.retain(|h, _| costs.contains_key(h));
            if costs.is_empty() && none_because.is_none() {
                none_because = first_refusal;
            }
        }
        if !costs.is_empty() || movers.is_empty() {
            none_because = None;
        }
        split.retain(|h, _| costs.contains_key(h));
        return Ok(Reach {
            split,
            movers,
            refused: list(out.get("refused"))
                .iter()
                .map(|r| {
                    let id = r.get("unit").and_then(Value::as_str).unwrap_or("?");
                    (id.to_string(), reason_of(r))
                })
                .collect(),
            costs,
            actions,
            by_rules: true,
            none_because,
        });
    }
    // no `reach` query: the rules' own list of moves for these units
    let legal = engine
        .legal_actions_where(None, |k| k == "move")
        .map_err(|e| e.message)?;
    let mut r = Reach::default();
    for a in legal {
        let movers = action_units(&a);
        if movers.is_empty() || !movers.iter().all(|m| units.contains(m)) {
            continue;
        }
        let Some(dest) = move_destination(engine, &a) else {
            continue;
        };
        if Some(dest) == origin {
            continue;
        }
        for m in movers {
            if !r.movers.contains(&m) {
                r.movers.push(m);
            }
        }
        r.costs.insert(dest, None);
        r.actions.entry(dest).or_insert(a);
    }
    // costs from the declared terrain chart, when the ruleset declared one
    if let Some(first) = r.movers.first() {
        let args = json!({ "unit": first });
        if let Ok(out) = engine.query_lua("editor/plain-field.lua", PLAIN_FIELD_CHUNK, &args) {
            let plain = hex_costs(engine, out.get("reachable"));
            for (h, c) in r.costs.iter_mut() {
                *c = plain.get(h).copied().flatten();
            }
        }
    }
    Ok(r)
}

/// The odds of `units` attacking `targets`, with every modifier and the chance of each result.
pub fn odds(engine: &Engine, units: &[String], targets: &[Hex]) -> Result<OddsView, String> {
    let map = engine.state().map.clone();
    let first_table = engine
        .ruleset()
        .tables
        .keys()
        .next()
        .cloned()
        .unwrap_or_default();
    let labels: Vec<String> = targets.iter().map(|h| map.label(*h)).collect();
    let declared = declares(engine, ODDS_QUERY)?;
    let state = engine.state();
    let hidden = units
        .iter()
        .filter_map(|id| state.unit(id))
        .chain(targets.iter().flat_map(|h| state.units_at(*h)))
        .filter(|u| u.hidden)
        .count();
    if declared {
        drop(state);
        let out = engine
            .query(ODDS_QUERY, &json!({ "units": units, "targets": labels }))
            .map_err(|e| e.message)?;
        let modifiers: Vec<Reason> = ["modifiers", "attack_modifiers", "defence_modifiers"]
            .iter()
            .flat_map(|k| list(out.get(*k)))
            .map(|m| reason_of(&m))
            .collect();
        let edge = if out.get("below").and_then(Value::as_bool) == Some(true) {
            Some("below the table: resolved on its first column".to_string())
        } else if out.get("above").and_then(Value::as_bool) == Some(true) {
            Some("above the table: resolved on its last column".to_string())
        } else {
            None
        };
        return Ok(OddsView {
            attack: out.get("attack").and_then(Value::as_i64).unwrap_or(0),
            defence: out.get("defence").and_then(Value::as_i64).unwrap_or(0),
            table: out
                .get("table")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            label: out
                .get("label")
                .and_then(Value::as_str)
                .unwrap_or("?")
                .to_string(),
            edge,
            modifiers,
            distribution: list(out.get("distribution"))
                .iter()
                .map(|e| {
                    (
                        e.get("result")
                            .and_then(Value::as_str)
                            .unwrap_or("?")
                            .to_string(),
                        e.get("p").and_then(Value::as_f64).unwrap_or(0.0),
                    )
                })
                .collect(),
            hidden,
        });
    }
    // no `odds` query: printed strengths summed, through the ruleset's odds hook
    if first_table.is_empty() {
        return Err("the ruleset declares no results table".into());
    }
    let attack = kessel_core::tables::total_strength(
        units
            .iter()
            .filter_map(|id| state.unit(id)?.face())
            .map(|f| f.attack),
    );
    let defence = kessel_core::tables::total_strength(
        targets
            .iter()
            .flat_map(|h| state.units_at(*h))
            .filter_map(Unit::face)
            .map(|f| f.defence),
    );
    let report = engine
        .odds(&first_table, attack, defence, (0, 0), &[])
        .map_err(|e| e.message)?;
    let edge = if report.below {
        Some("below the table: resolved on its first column".to_string())
    } else if report.above {
        Some("above the table: resolved on its last column".to_string())
    } else {
        None
    };
    Ok(OddsView {
        attack: report.modified_attack.into(),
        defence: report.modified_defence.into(),
        label: report.column,
        table: first_table,
        edge,
        modifiers: report.modifiers,
        distribution: report
            .chances
            .into_iter()
            .map(|c| (c.code, c.probability))
            .collect(),
        hidden,
    })
}

/// One line per action for buttons and the log: the kind, then its parameters
/// (`retreat · units 3pz · path 0912-0913`).
pub fn describe_action(a: &Action) -> String {
    describe_action_named(a, &|_| None)
}

/// [`describe_action`] with the ids of `unit`/`units` read as `name` gives them (a unit's own
/// name and formation, "29 Pz Rgt (12 Pz)"): the log read "units g-12pz-pz, g-12pz-s1" where a
/// game record names the counters. An id `name` has nothing for stays as it is.
pub fn describe_action_named(a: &Action, name: &dyn Fn(&str) -> Option<String>) -> String {
    let mut parts = vec![a.kind.replace('_', " ")];
    for (k, v) in &a.params {
        let is_unit = k == "unit" || k == "units";
        let word = |s: &str| {
            if is_unit {
                name(s).unwrap_or_else(|| s.to_string())
            } else {
                s.to_string()
            }
        };
        let text = match v {
            Value::Array(items) => items
                .iter()
                .map(|i| match i {
                    Value::String(s) => word(s),
                    other => other.to_string(),
                })
                .collect::<Vec<_>>()
                .join(if k == "path" { "-" } else { ", " }),
            Value::String(s) => word(s),
            Value::Bool(true) => String::new(),
            other => other.to_string(),
        };
        // `unit` repeats the first of `units` in actions the editor built
        if k == "unit" && a.params.contains_key("units") {
            continue;
        }
        // the word a player picked says itself: "choose · choice loss" read as a form's field
        if k == "choice" && matches!(v, Value::String(_)) {
            parts.push(text);
            continue;
        }
        if text.is_empty() {
            parts.push(k.replace('_', " "));
        } else {
            parts.push(format!("{} {text}", k.replace('_', " ")));
        }
    }
    parts.join(" · ")
}

#[cfg(test)]
#[path = "queries_tests.rs"]
mod tests;
