//! The scenario editor's side panel: the unit palette (units by side and formation, search, the
//! picked unit's fields, a new-unit form), the reinforcement schedule, objectives and victory
//! levels, and the scenario's details. Every change is pushed as an [`EditorCommand`]. The unit
//! tab is in `units.rs`, the schedule, victory and details tabs in `schedule.rs`.

mod pieces;
mod schedule;
mod sides;
mod units;
mod vars;

use super::Named as _;
use crate::command::EditorCommand;
use crate::document::Document;
use crate::panels::cell_text;
use crate::scenario_file::{LevelDef, ObjectiveDef, Placement, ScenarioDef, UnitDef};
use egui::{RichText, Ui};
use std::collections::BTreeMap;

/// Tabs of the scenario panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScenarioTab {
    /// Unit palette and the picked unit.
    Units,
    /// Reinforcement schedule.
    Reinforcements,
    /// Objectives and levels.
    Victory,
    /// Name, turns, profile, notes, scenario variables.
    Details,
    /// Markers and pools of hidden faces.
    Pieces,
}

/// Column the reinforcement table is sorted by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortBy {
    /// Unit id.
    Unit,
    /// Side.
    Side,
    /// Turn of entry.
    Turn,
    /// Entry area.
    Area,
}

/// What a click on the map does in scenario mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScenarioTool {
    /// Select a hex; drag a stack's top unit to another hex to move it.
    Select,
    /// Put the picked unit on the clicked hex.
    Place,
    /// Remove the top unit of the clicked hex from the scenario.
    Remove,
}

/// A formation's name and units, in the unit list.
type Formation<'a> = (String, Vec<&'a UnitDef>);

/// Names the ruleset declares, offered in combo boxes when known.
#[derive(Clone, Debug, Default)]
pub struct RulesetNames {
    /// Side ids.
    pub sides: Vec<String>,
    /// Unit type ids.
    pub unit_types: Vec<String>,
    /// The sides each unit type belongs to, where the ruleset says so: a type's `side` field (a
    /// side id, or a list of them) or `sides` list; a type without one is any side's.
    pub type_sides: BTreeMap<String, Vec<String>>,
    /// The names a unit type reads its string faces with (its `face_fields`: ASL's squads
    /// are firepower-range-morale); a type without them reads attack-defence-movement.
    pub type_faces: BTreeMap<String, Vec<String>>,
    /// The scenario variables the ruleset reads (`kessel.scenario_var`), by id.
    pub vars: BTreeMap<String, kessel_core::ruleset::ScenarioVarDecl>,
}

impl RulesetNames {
    /// The sides a declared unit type's table gives it (`side = "a"`, `side = {"a", "b"}` or
    /// `sides = {…}`); empty when it names none.
    pub fn sides_of_type(decl: &serde_json::Value) -> Vec<String> {
        let field = decl.get("side").or_else(|| decl.get("sides"));
        match field {
            Some(serde_json::Value::String(s)) => vec![s.clone()],
            Some(serde_json::Value::Array(a)) => a
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The `face_fields` a declared unit type's table gives it; empty when it names none.
    pub fn face_fields_of_type(decl: &serde_json::Value) -> Vec<String> {
        match decl.get("face_fields") {
            Some(serde_json::Value::Array(a)) => a
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// What a face of a unit of type `kind` holds, for the faces field: its type's
    /// `face_fields` joined (`firepower-range-morale`), else the engine's reading of a string
    /// face, attack-defence-movement.
    pub fn face_parts(&self, kind: &str) -> String {
        match self.type_faces.get(kind) {
            Some(fields) if !fields.is_empty() => fields.join("-"),
            _ => "A-D-M".to_string(),
        }
    }

    /// True when the ruleset says which side some unit type belongs to.
    pub fn types_have_sides(&self) -> bool {
        self.type_sides.values().any(|s| !s.is_empty())
    }

    /// The unit types a unit of `side` may be: those of that side and those of no side in
    /// particular (every type when the ruleset says nothing of sides, or `side` is not one of
    /// its sides).
    pub fn types_for(&self, side: &str) -> Vec<String> {
        if !self.sides.iter().any(|s| s == side) {
            return self.unit_types.clone();
        }
        self.unit_types
            .iter()
            .filter(|t| {
                self.type_sides
                    .get(*t)
                    .is_none_or(|s| s.is_empty() || s.iter().any(|x| x == side))
            })
            .cloned()
            .collect()
    }
}

/// The panel's state.
#[derive(Clone, Debug)]
pub struct ScenarioPanel {
    /// Open tab.
    pub tab: ScenarioTab,
    /// Map tool.
    pub tool: ScenarioTool,
    /// Search text of the unit list.
    pub search: String,
    /// The unit the palette has picked (placed by the place tool, shown in the editor).
    pub picked: Option<String>,
    /// The new-unit form.
    pub draft: UnitDef,
    draft_faces: String,
    draft_attrs: String,
    /// Reinforcement table order.
    pub sort: (SortBy, bool),
    /// Text of fields being typed, by field key, so half-typed values survive a frame.
    buffers: BTreeMap<String, String>,
    /// Unit whose top counter a drag on the map started on.
    pub dragging: Option<String>,
    /// Scroll the unit list and the panel to the picked unit's form on the next frame (a unit
    /// picked from elsewhere: `--select`, the problems list).
    pub reveal_picked: bool,
    /// The ruleset's profiles offered for the scenario's `profile`, read from its folder at
    /// most every few seconds (a profile saved in the Rules mode shows up).
    profiles: Option<(std::path::PathBuf, std::time::Instant, Vec<String>)>,
    /// The height the tab's content had on screen this frame (inside its scroll area a panel
    /// has no bottom): the unit list grows into it when nothing below it is open.
    room: f32,
}

impl Default for ScenarioPanel {
    fn default() -> Self {
        ScenarioPanel {
            tab: ScenarioTab::Units,
            tool: ScenarioTool::Select,
            search: String::new(),
            picked: None,
            draft: UnitDef::default(),
            draft_faces: String::new(),
            draft_attrs: String::new(),
            sort: (SortBy::Turn, true),
            buffers: BTreeMap::new(),
            dragging: None,
            reveal_picked: false,
            profiles: None,
            room: 0.0,
        }
    }
}

/// `"4-4-10, 2-2-10"` → faces.
pub fn parse_list(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// `"rating = 3, x = 1"` → attributes; an entry that is not `name = integer` is an error.
pub fn parse_attrs(text: &str) -> Result<BTreeMap<String, i64>, String> {
    let mut out = BTreeMap::new();
    for part in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("`{part}`: write name = number"))?;
        let n: i64 = v
            .trim()
            .parse()
            .map_err(|_| format!("`{part}`: {} is not a whole number", v.trim()))?;
        out.insert(k.trim().to_string(), n);
    }
    Ok(out)
}

fn attrs_text(a: &BTreeMap<String, i64>) -> String {
    a.iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A text field whose text is kept while typing and reset when the value changes elsewhere
/// (undo): `shown` is the value's text, `same` says whether a typed text means the same value.
fn buffered(
    ui: &mut Ui,
    buffers: &mut BTreeMap<String, String>,
    key: &str,
    shown: String,
    same: impl Fn(&str) -> bool,
    width: f32,
) -> Option<String> {
    let buf = buffers
        .entry(key.to_string())
        .or_insert_with(|| shown.clone());
    if !same(buf) {
        *buf = shown;
    }
    let r = cell_text(ui, buf, width).named(key);
    r.changed().then(|| buf.clone())
}

fn opt(s: &str) -> Option<String> {
    let t = s.trim();
    (!t.is_empty()).then(|| t.to_string())
}

fn placement_text(doc: &Document, p: &Placement) -> String {
    match p {
        Placement::Unplaced => "not placed".into(),
        Placement::At(l) => format!("at {l}"),
        Placement::Area(a) => format!("set-up area {a}"),
        Placement::Enter { turn, area } => {
            let _ = doc;
            format!("enters turn {turn}, area {area}")
        }
    }
}

impl ScenarioPanel {
    /// Draws the panel.
    fn show(
        &mut self,
        ui: &mut Ui,
        doc: &Document,
        names: &RulesetNames,
        cmds: &mut Vec<EditorCommand>,
    ) {
        let Some(def) = &doc.scenario else {
            ui.heading("Edit scenario");
            match doc.extends_note() {
                Some(note) => {
                    ui.label(egui::RichText::new(note).color(egui::Color32::from_rgb(230, 170, 60)))
                }
                None => ui.label("Open a scenario file to edit its units and victory conditions."),
            };
            return;
        };
        // wrapped: in a narrow panel the last tool goes to a line of its own rather than
        // breaking letter by letter
        ui.horizontal_wrapped(|ui| {
            ui.label("Map tool:");
            for (tool, label) in [
                (ScenarioTool::Select, "Select / drag"),
                (ScenarioTool::Place, "Place unit"),
                (ScenarioTool::Remove, "Remove unit"),
            ] {
                ui.selectable_value(&mut self.tool, tool, label);
            }
        });
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            for (tab, label) in [
                (ScenarioTab::Units, "Units"),
                (ScenarioTab::Reinforcements, "Reinforcements"),
                (ScenarioTab::Victory, "Victory"),
                (ScenarioTab::Details, "Details"),
                (ScenarioTab::Pieces, "Pools & markers"),
            ] {
                ui.selectable_value(&mut self.tab, tab, label);
            }
        });
        ui.separator();
        self.room = ui.available_height();
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| match self.tab {
                ScenarioTab::Units => self.units_ui(ui, doc, def, names, cmds),
                ScenarioTab::Reinforcements => {
                    self.reinforcements_ui(ui, doc, def, &names.sides, cmds)
                }
                ScenarioTab::Victory => self.victory_ui(ui, doc, def, &names.sides, cmds),
                ScenarioTab::Details => {
                    let dir = doc.ruleset_dir.as_deref();
                    self.details_ui(ui, def, (names, dir), cmds)
                }
                ScenarioTab::Pieces => self.pieces_ui(ui, def, &names.sides, cmds),
            });
    }
}

/// A combo box of known names with a text field for others; true when changed.
fn choice(ui: &mut Ui, salt: &str, value: &mut String, known: &[String], seen: &[String]) -> bool {
    let mut all: Vec<String> = known.to_vec();
    for s in seen {
        if !all.contains(s) {
            all.push(s.clone());
        }
    }
    if all.is_empty() {
        return ui
            .add(egui::TextEdit::singleline(value).desired_width(120.0))
            .changed();
    }
    let before = value.clone();
    egui::ComboBox::from_id_salt(salt)
        .selected_text(value.as_str())
        .width(120.0)
        .show_ui(ui, |ui| {
            for n in &all {
                ui.selectable_value(value, n.clone(), n);
            }
        })
        .response
        .named(salt);
    *value != before
}

/// Radio buttons for where a unit starts, with their fields; true when changed.
fn placement_ui(ui: &mut Ui, doc: &Document, id: &str, p: &mut Placement) -> bool {
    let before = p.clone();
    let first_area = doc.map.areas.keys().next().cloned().unwrap_or_default();
    let kind = match p {
        Placement::Unplaced => 0,
        Placement::At(_) => 1,
        Placement::Area(_) => 2,
        Placement::Enter { .. } => 3,
    };
    let mut k = kind;
    ui.horizontal_wrapped(|ui| {
        ui.radio_value(&mut k, 1, "On a hex");
        ui.radio_value(&mut k, 2, "Set-up area");
        ui.radio_value(&mut k, 3, "Enters later");
        ui.radio_value(&mut k, 0, "Not placed");
    });
    if k != kind {
        *p = match k {
            1 => Placement::At(
                doc.units
                    .get(id)
                    .and_then(|u| u.hex())
                    .map(|h| doc.map.label(h))
                    .unwrap_or_else(|| doc.map.label(doc.map.hex_at(0, 0))),
            ),
            2 => Placement::Area(first_area.clone()),
            3 => Placement::Enter {
                turn: doc.scenario.as_ref().map_or(1, |s| s.meta.first_turn),
                area: first_area.clone(),
            },
            _ => Placement::Unplaced,
        };
    }
    let areas: Vec<&String> = doc.map.areas.keys().collect();
    let area_box = |ui: &mut Ui, a: &mut String, salt: &str| {
        egui::ComboBox::from_id_salt((salt, id))
            .selected_text(a.as_str())
            .show_ui(ui, |ui| {
                for x in &areas {
                    ui.selectable_value(a, (*x).clone(), x.as_str());
                }
            })
            .response
            .named(salt);
    };
    ui.horizontal(|ui| match p {
        Placement::At(l) => {
            ui.label("hex");
            ui.add(egui::TextEdit::singleline(l).desired_width(60.0))
                .named("hex");
        }
        Placement::Area(a) => {
            ui.label("area");
            area_box(ui, a, "setup area");
        }
        Placement::Enter { turn, area } => {
            ui.label("turn");
            ui.add(egui::DragValue::new(turn).range(0..=999))
                .named("turn");
            ui.label("area");
            area_box(ui, area, "enter area");
        }
        Placement::Unplaced => {}
    });
    // a map cut from a region, or drawn new, may have none: the box above is then empty and
    // the problem reads "unknown entry area ``" with nothing to pick
    if areas.is_empty() && matches!(p, Placement::Area(_) | Placement::Enter { .. }) {
        ui.colored_label(egui::Color32::from_rgb(255, 200, 120), NO_AREAS);
    }
    *p != before
}

/// Said under a set-up or entry placement while the map has no area to pick.
pub const NO_AREAS: &str = "This map has no areas yet: make one under Edit map, Map data, Areas (type an id, Add area, then edit hexes and click its hexes on the map).";

impl super::Panel for ScenarioPanel {
    fn ui(&mut self, ui: &mut Ui, cx: &mut super::PanelCx<'_>) {
        self.show(ui, cx.doc, cx.names, cx.cmds);
    }
}
