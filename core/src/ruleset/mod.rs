//! What a ruleset declared when its scripts loaded: sides, unit types, terrain and hexside kinds,
//! movement costs, tables, the sequence of play, options. Plain data; the Lua functions (action
//! handlers, hooks) stay in the Lua state and are looked up by name.
//!
//! **Invariant:** a ruleset holds no game state, so it can be rebuilt from its files at any moment
//! (hot reload) and the game goes on.

use crate::map::Map;
use crate::options::OptionDecl;
use crate::state::Value;
use crate::tables::{DiceTable, ResultsTable};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod checks;
mod costs;
mod variants;

pub use checks::DeclProblem;
pub use costs::{check_costs, compile_costs, CostError, CostModelCache};
pub use variants::{Variant, VariantData};

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
    /// Its parameters are shown only to the side that sent it (orders written in secret).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub secret: bool,
}

/// The constant a ruleset gives its sides' display names and counter colours in, for the editor
/// and `kessel render`: `kessel.constant("side_style", { red = { name = "Red", color = "#c05040" } })`.
/// The core checks its shape when it is declared; what it means is the drawers' business.
pub const SIDE_STYLE: &str = "side_style";

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
    /// Movement costs as declared (see [`compile_costs`]), without the option variants.
    pub movement: Option<Value>,
    /// Where `kessel.movement` was declared, for the checks made once everything has loaded.
    pub movement_site: Option<Site>,
    /// Results tables by id.
    pub tables: BTreeMap<String, ResultsTable>,
    /// Dice tables by id.
    pub dice_tables: BTreeMap<String, DiceTable>,
    /// Tables keyed by words, by id.
    pub word_tables: BTreeMap<String, crate::tables::WordTable>,
    /// The sequence of play.
    pub sequence: Vec<Step>,
    /// Where `kessel.sequence` was declared.
    pub sequence_site: Option<Site>,
    /// Named sequences (modes), e.g. a campaign's phase between two battles, by name; the state's
    /// `mode` says which one is walked (none: the main `sequence`).
    pub modes: BTreeMap<String, NamedSequence>,
    /// Options.
    pub options: Vec<OptionDecl>,
    /// Action kinds.
    pub actions: Vec<ActionDecl>,
    /// Free ruleset-wide constants (one, [`SIDE_STYLE`], is read by the map drawers too).
    pub constants: BTreeMap<String, Value>,
    /// Scenario variables the rules read, by id: the type their `[vars]` value must have
    /// (checked when a scenario loads) and what they mean (listed by `kessel info`).
    pub scenario_vars: BTreeMap<String, ScenarioVarDecl>,
    /// Declared data that replaces the above while some options have given values, in
    /// declaration order (see [`Ruleset::movement_in_force`], [`Ruleset::table`]).
    pub variants: Vec<Variant>,
    /// The computer player's levels (`kessel.ai_level`), in declaration order: the first is the
    /// default. Empty when the ruleset names none (its `ai` hook then gets no level).
    pub ai_levels: Vec<AiLevel>,
}

/// A level of the ruleset's computer player, as declared by `kessel.ai_level`: its `ai` hook is
/// told which one is playing (e.g. a fast level for balance sweeps, a stronger one for play).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiLevel {
    /// Id, as `kessel simulate --ai SIDE=ai:ID` and the editor name it.
    pub id: String,
    /// What it is for, in a line.
    pub description: String,
}

/// A named sequence of play (a mode), as declared by `kessel.sequence(name, steps)`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NamedSequence {
    /// Its steps, in order.
    pub steps: Vec<Step>,
    /// Where it was declared.
    pub site: Option<Site>,
    /// Its title as players read it ("Refit Phase (RB)"), if the ruleset gives one; else its
    /// name stands for it (see [`NamedSequence::title_of`]).
    pub title: Option<String>,
}

impl NamedSequence {
    /// The title of the mode `name` (this sequence): the declared one, else the id read as
    /// words (`night_phase` → `Night phase`).
    pub fn title_of(&self, name: &str) -> String {
        self.title.clone().unwrap_or_else(|| id_as_title(name))
    }
}

/// An id read as a title: `refit` → `Refit`, `night_phase` → `Night phase`.
pub fn id_as_title(id: &str) -> String {
    let words = id.replace('_', " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Where a declaration was made: errors found after the ruleset has loaded (a kind that was
/// never declared, a variant of an unknown option) still point at the line that caused them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Site {
    /// Script file, as errors print it.
    pub file: String,
    /// Line.
    pub line: usize,
}

/// A scenario variable a ruleset reads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScenarioVarDecl {
    /// `int`, `number`, `string`, `bool`, `list` or `table`.
    pub kind: String,
    /// What it means, and what the rules do when a scenario leaves it out.
    pub description: String,
    /// The value the rules read when a scenario leaves it out (`kessel.scenario.var`).
    pub default: Option<Value>,
    /// Lowest value a scenario may give (numbers).
    pub min: Option<f64>,
    /// Highest value a scenario may give (numbers).
    pub max: Option<f64>,
    /// The words a string variable may be (empty: any string): the name of a table the rules
    /// roll on, say, which misspelt failed only when the game first read it.
    pub values: Vec<String>,
}

impl ScenarioVarDecl {
    /// Whether `v` has the declared type and lies in the declared range; `Err` says why not.
    pub fn admits(&self, v: &Value) -> Result<(), String> {
        scenario_var_fits(&self.kind, v)
            .map_err(|what| format!("is {what}; the ruleset reads it as {}", self.kind))?;
        if let (Some(word), false) = (v.as_str(), self.values.is_empty()) {
            if !self.values.iter().any(|x| x == word) {
                let known: Vec<&str> = self.values.iter().map(String::as_str).collect();
                return Err(format!(
                    "is \"{}\"; the ruleset allows {}{}",
                    crate::error::printable_name(word),
                    known.join(", "),
                    crate::names::did_you_mean(word, &known)
                ));
            }
        }
        if let Some(x) = v.as_f64() {
            let below = self.min.is_some_and(|m| x < m);
            let above = self.max.is_some_and(|m| x > m);
            if below || above {
                let range = match (self.min, self.max) {
                    (Some(a), Some(b)) => format!("from {a} to {b}"),
                    (Some(a), None) => format!("{a} or more"),
                    (None, Some(b)) => format!("{b} or less"),
                    (None, None) => String::new(),
                };
                return Err(format!("is {x}; the ruleset allows {range}"));
            }
        }
        Ok(())
    }
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

impl Ruleset {
    /// Whether the action kind is declared `secret` (its parameters shown to its sender only).
    pub fn secret_action(&self, kind: &str) -> bool {
        self.actions.iter().any(|a| a.secret && a.kind == kind)
    }

    /// The computer player's level that plays when `requested` is asked for: that level when the
    /// ruleset declares it, the first declared level for `None`, nothing when the ruleset declares
    /// no levels and none is asked for. An undeclared level is an error naming the declared ones.
    pub fn ai_level(&self, requested: Option<&str>) -> Result<Option<&AiLevel>, String> {
        match requested {
            None => Ok(self.ai_levels.first()),
            Some(id) => match self.ai_levels.iter().find(|l| l.id == id) {
                Some(level) => Ok(Some(level)),
                None if self.ai_levels.is_empty() => Err(format!(
                    "the ruleset's computer player has no levels (it declares no `kessel.ai_level`), so there is no level `{id}`"
                )),
                None => {
                    let known: Vec<&str> = self.ai_levels.iter().map(|l| l.id.as_str()).collect();
                    Err(format!(
                        "the ruleset's computer player has no level `{id}`{} (levels: {})",
                        crate::names::did_you_mean(id, &known),
                        known.join(", ")
                    ))
                }
            },
        }
    }

    /// The action kinds, in declaration order.
    pub fn action_kinds(&self) -> impl Iterator<Item = &str> {
        self.actions.iter().map(|a| a.kind.as_str())
    }

    /// The step at an index of the main sequence.
    pub fn step(&self, index: usize) -> Option<&Step> {
        self.sequence.get(index)
    }

    /// The steps of a mode's sequence (`None`: the main one); empty for an undeclared mode.
    pub fn steps_of(&self, mode: Option<&str>) -> &[Step] {
        match mode {
            None => &self.sequence,
            Some(m) => self.modes.get(m).map_or(&[][..], |n| &n.steps),
        }
    }

    /// The step at an index of a mode's sequence (`None`: the main one).
    pub fn step_in(&self, mode: Option<&str>, index: usize) -> Option<&Step> {
        self.steps_of(mode).get(index)
    }

    /// Index of a step by id.
    pub fn step_index(&self, id: &str) -> Option<usize> {
        self.sequence.iter().position(|s| s.id == id)
    }

    /// Whether the ruleset makes a hexside kind a link (`Some(true)`: a road, drawn along a path
    /// of hexes) or a feature (`Some(false)`: a river, on the hexsides): its `kind` field in
    /// `kessel.hexside_kind`, else `kessel.movement` listing it only under `links` or only under
    /// `hexsides`. `None` when the ruleset does not say.
    pub fn hexside_kind_is_link(&self, id: &str) -> Option<bool> {
        let decl = self.hexside_kinds.iter().find(|k| k.id == id)?;
        match decl.props.get("kind").and_then(Value::as_str) {
            Some("link") => return Some(true),
            Some("feature") => return Some(false),
            _ => {}
        }
        let listed = |key: &str| {
            self.movement
                .as_ref()
                .and_then(|m| m.get(key))
                .and_then(Value::as_object)
                .is_some_and(|o| o.contains_key(id))
        };
        match (listed("links"), listed("hexsides")) {
            (true, false) => Some(true),
            (false, true) => Some(false),
            _ => None,
        }
    }

    /// Checks a map's kinds against the declarations; returns one message per unknown kind.
    pub fn check_map(&self, map: &Map) -> Vec<String> {
        let mut out = Vec::new();
        let known = |list: &[KindDecl], n: &str| list.iter().any(|k| k.id == n);
        // terrains some hex has: a kind painted away (in an editor) no longer counts
        let used: std::collections::BTreeSet<&str> =
            map.hexes().filter_map(|h| map.terrain_name(h)).collect();
        for t in map
            .terrains
            .names()
            .iter()
            .filter(|t| used.contains(t.as_str()))
        {
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
