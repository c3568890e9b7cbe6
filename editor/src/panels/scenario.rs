//! The scenario editor's side panel: the unit palette (units by side and formation, search, the
//! picked unit's fields, a new-unit form), the reinforcement schedule, objectives and victory
//! levels, and the scenario's details. Every change is pushed as an [`EditorCommand`].

use super::Named as _;
use crate::command::EditorCommand;
use crate::document::Document;
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
    /// Name, turns, profile, notes.
    Details,
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
    let r = ui
        .add(egui::TextEdit::singleline(buf).desired_width(width))
        .named(key);
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
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        doc: &Document,
        names: &RulesetNames,
        cmds: &mut Vec<EditorCommand>,
    ) {
        let Some(def) = &doc.scenario else {
            ui.heading("Edit scenario");
            ui.label("Open a scenario file to edit its units and victory conditions.");
            return;
        };
        ui.horizontal(|ui| {
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
            ] {
                ui.selectable_value(&mut self.tab, tab, label);
            }
        });
        ui.separator();
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| match self.tab {
                ScenarioTab::Units => self.units_ui(ui, doc, def, names, cmds),
                ScenarioTab::Reinforcements => self.reinforcements_ui(ui, doc, def, cmds),
                ScenarioTab::Victory => self.victory_ui(ui, doc, def, cmds),
                ScenarioTab::Details => self.details_ui(ui, def, cmds),
            });
    }

    fn units_ui(
        &mut self,
        ui: &mut Ui,
        doc: &Document,
        def: &ScenarioDef,
        names: &RulesetNames,
        cmds: &mut Vec<EditorCommand>,
    ) {
        ui.horizontal(|ui| {
            ui.label("Search");
            ui.add(egui::TextEdit::singleline(&mut self.search).desired_width(150.0))
                .named("search");
        });
        let needle = self.search.to_lowercase();
        let matches = |u: &UnitDef| {
            needle.is_empty()
                || [
                    u.id.as_str(),
                    u.name.as_deref().unwrap_or(""),
                    u.kind.as_str(),
                    u.formation.as_deref().unwrap_or(""),
                ]
                .iter()
                .any(|s| s.to_lowercase().contains(&needle))
        };
        // side → formation → units, in file order
        let mut groups: Vec<(String, Vec<Formation<'_>>)> = Vec::new();
        for u in def.units.iter().filter(|u| matches(u)) {
            let side = match groups.iter_mut().find(|(s, _)| *s == u.side) {
                Some(g) => g,
                None => {
                    groups.push((u.side.clone(), Vec::new()));
                    let n = groups.len() - 1;
                    &mut groups[n]
                }
            };
            let f = u
                .formation
                .clone()
                .unwrap_or_else(|| "(no formation)".into());
            match side.1.iter_mut().find(|(name, _)| *name == f) {
                Some(g) => g.1.push(u),
                None => side.1.push((f, vec![u])),
            }
        }
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(ui.available_width());
            egui::ScrollArea::vertical()
                .id_salt("unit list")
                .max_height(220.0)
                .show(ui, |ui| {
                    if groups.is_empty() {
                        ui.label("No units match.");
                    }
                    for (side, formations) in &groups {
                        let n: usize = formations.iter().map(|f| f.1.len()).sum();
                        egui::CollapsingHeader::new(format!("{side} ({n})"))
                            .default_open(true)
                            .show(ui, |ui| {
                                for (f, units) in formations {
                                    ui.label(RichText::new(f).small().strong());
                                    for u in units {
                                        let text = format!(
                                            "{} {} — {}",
                                            u.id,
                                            u.name
                                                .as_deref()
                                                .map(|n| format!("({n})"))
                                                .unwrap_or_default(),
                                            placement_text(doc, &u.placement)
                                        );
                                        let picked = self.picked.as_deref() == Some(u.id.as_str());
                                        if ui.selectable_label(picked, text).clicked() {
                                            self.picked = Some(u.id.clone());
                                        }
                                    }
                                }
                            });
                    }
                });
        });
        if let Some(u) = self.picked.as_deref().and_then(|id| def.unit(id)) {
            let u = u.clone();
            ui.separator();
            self.unit_editor(ui, doc, &u, names, cmds);
        }
        ui.separator();
        egui::CollapsingHeader::new("New unit")
            .default_open(def.units.is_empty())
            .show(ui, |ui| self.new_unit_ui(ui, doc, names, cmds));
    }

    fn unit_editor(
        &mut self,
        ui: &mut Ui,
        doc: &Document,
        u: &UnitDef,
        names: &RulesetNames,
        cmds: &mut Vec<EditorCommand>,
    ) {
        ui.heading(format!("Unit {}", u.id));
        let mut e = u.clone();
        let mut field: Option<&str> = None;
        let id = u.id.clone();
        egui::Grid::new("unit fields")
            .num_columns(2)
            .show(ui, |ui| {
                ui.label("Name");
                let mut name = e.name.clone().unwrap_or_default();
                if ui.text_edit_singleline(&mut name).named("name").changed() {
                    e.name = opt(&name);
                    field = Some("name");
                }
                ui.end_row();
                ui.label("Side");
                if choice(ui, "side", &mut e.side, &names.sides, &doc.sides) {
                    field = Some("side");
                }
                ui.end_row();
                ui.label("Type");
                if choice(ui, "type", &mut e.kind, &names.unit_types, &[]) {
                    field = Some("type");
                }
                ui.end_row();
                ui.label("Formation");
                let mut f = e.formation.clone().unwrap_or_default();
                if ui.text_edit_singleline(&mut f).named("f").changed() {
                    e.formation = opt(&f);
                    field = Some("formation");
                }
                ui.end_row();
                ui.label("Faces (A-D-M per step)");
                let faces = e.faces.clone();
                if let Some(t) = buffered(
                    ui,
                    &mut self.buffers,
                    &format!("faces {id}"),
                    faces.join(", "),
                    |t| parse_list(t) == faces,
                    160.0,
                ) {
                    e.faces = parse_list(&t);
                    field = Some("faces");
                }
                ui.end_row();
                ui.label("Hidden");
                ui.horizontal(|ui| {
                    if ui.checkbox(&mut e.hidden, "hidden").changed() {
                        field = Some("hidden");
                    }
                    if e.hidden {
                        ui.label("pool");
                        let mut p = e.pool.clone().unwrap_or_default();
                        if ui
                            .add(egui::TextEdit::singleline(&mut p).desired_width(90.0))
                            .named("p")
                            .changed()
                        {
                            e.pool = opt(&p);
                            field = Some("pool");
                        }
                    }
                });
                ui.end_row();
                ui.label("Attributes");
                let attrs = e.attrs.clone();
                if let Some(t) = buffered(
                    ui,
                    &mut self.buffers,
                    &format!("attrs {id}"),
                    attrs_text(&attrs),
                    |t| parse_attrs(t).is_ok_and(|a| a == attrs) || parse_attrs(t).is_err(),
                    160.0,
                ) {
                    if let Ok(a) = parse_attrs(&t) {
                        e.attrs = a;
                        field = Some("attrs");
                    }
                }
                ui.end_row();
            });
        ui.label(RichText::new("Starts").strong());
        if placement_ui(ui, doc, &id, &mut e.placement) {
            field = Some("placement");
        }
        if let Some(f) = field {
            if e != *u {
                cmds.push(EditorCommand::SetUnit {
                    id: id.clone(),
                    unit: e,
                    merge: Some(format!("{id} {f}")),
                });
            }
        }
        ui.horizontal(|ui| {
            if ui
                .button("Place on map…")
                .on_hover_text("then click a hex")
                .clicked()
            {
                self.tool = ScenarioTool::Place;
            }
            if ui.button("Remove unit").clicked() {
                cmds.push(EditorCommand::RemoveUnit { id: id.clone() });
                self.picked = None;
            }
        });
    }

    fn new_unit_ui(
        &mut self,
        ui: &mut Ui,
        doc: &Document,
        names: &RulesetNames,
        cmds: &mut Vec<EditorCommand>,
    ) {
        let d = &mut self.draft;
        egui::Grid::new("new unit").num_columns(2).show(ui, |ui| {
            ui.label("Id");
            ui.text_edit_singleline(&mut d.id).named("d id");
            ui.end_row();
            ui.label("Name");
            let mut name = d.name.clone().unwrap_or_default();
            if ui.text_edit_singleline(&mut name).named("name").changed() {
                d.name = opt(&name);
            }
            ui.end_row();
            ui.label("Side");
            choice(ui, "new side", &mut d.side, &names.sides, &doc.sides);
            ui.end_row();
            ui.label("Type");
            choice(ui, "new type", &mut d.kind, &names.unit_types, &[]);
            ui.end_row();
            ui.label("Formation");
            let mut f = d.formation.clone().unwrap_or_default();
            if ui.text_edit_singleline(&mut f).named("f").changed() {
                d.formation = opt(&f);
            }
            ui.end_row();
            ui.label("Faces");
            ui.add(egui::TextEdit::singleline(&mut self.draft_faces).hint_text("4-4-10, 2-2-10"))
                .named("draft faces");
            ui.end_row();
            ui.label("Hidden");
            ui.horizontal(|ui| {
                ui.checkbox(&mut d.hidden, "hidden");
                if d.hidden {
                    ui.label("pool");
                    let mut p = d.pool.clone().unwrap_or_default();
                    if ui
                        .add(egui::TextEdit::singleline(&mut p).desired_width(90.0))
                        .named("p")
                        .changed()
                    {
                        d.pool = opt(&p);
                    }
                }
            });
            ui.end_row();
            ui.label("Attributes");
            ui.add(egui::TextEdit::singleline(&mut self.draft_attrs).hint_text("rating = 3"))
                .named("draft attrs");
            ui.end_row();
        });
        let attrs = parse_attrs(&self.draft_attrs);
        if let Err(e) = &attrs {
            ui.colored_label(egui::Color32::from_rgb(230, 90, 80), e);
        }
        let taken = doc
            .scenario
            .as_ref()
            .is_some_and(|s| s.unit(&self.draft.id).is_some());
        if taken {
            ui.colored_label(egui::Color32::from_rgb(230, 90, 80), "this id is taken");
        }
        let ok = !self.draft.id.trim().is_empty() && !taken && attrs.is_ok();
        if ui
            .add_enabled(ok, egui::Button::new("Add unit"))
            .on_hover_text("adds it unplaced and picks it: click a hex to place it")
            .clicked()
        {
            let mut u = self.draft.clone();
            u.id = u.id.trim().to_string();
            u.faces = parse_list(&self.draft_faces);
            u.attrs = attrs.unwrap_or_default();
            self.picked = Some(u.id.clone());
            self.tool = ScenarioTool::Place;
            cmds.push(EditorCommand::AddUnit(u));
            self.draft.id.clear();
            self.draft.name = None;
        }
    }

    fn reinforcements_ui(
        &mut self,
        ui: &mut Ui,
        doc: &Document,
        def: &ScenarioDef,
        cmds: &mut Vec<EditorCommand>,
    ) {
        ui.heading("Reinforcement schedule");
        ui.label(format!(
            "Turns {}–{}. Click a heading to sort; edit a cell to change the unit.",
            def.meta.first_turn,
            def.last_turn()
        ));
        let mut rows: Vec<(&UnitDef, u32, String)> = def
            .units
            .iter()
            .filter_map(|u| match &u.placement {
                Placement::Enter { turn, area } => Some((u, *turn, area.clone())),
                _ => None,
            })
            .collect();
        let (by, asc) = self.sort;
        rows.sort_by(|a, b| {
            let o = match by {
                SortBy::Unit => a.0.id.cmp(&b.0.id),
                SortBy::Side => a.0.side.cmp(&b.0.side),
                SortBy::Turn => a.1.cmp(&b.1),
                SortBy::Area => a.2.cmp(&b.2),
            };
            let o = o.then(a.1.cmp(&b.1)).then(a.0.id.cmp(&b.0.id));
            if asc {
                o
            } else {
                o.reverse()
            }
        });
        let areas: Vec<String> = doc.map.areas.keys().cloned().collect();
        egui::Grid::new("reinforcements")
            .striped(true)
            .num_columns(5)
            .show(ui, |ui| {
                for (col, label) in [
                    (SortBy::Unit, "Unit"),
                    (SortBy::Side, "Side"),
                    (SortBy::Turn, "Turn"),
                    (SortBy::Area, "Area"),
                ] {
                    let arrow = match (by == col, asc) {
                        (true, true) => " ^",
                        (true, false) => " v",
                        _ => "",
                    };
                    if ui.button(format!("{label}{arrow}")).clicked() {
                        self.sort = (col, if by == col { !asc } else { true });
                    }
                }
                ui.label("");
                ui.end_row();
                for (u, turn, area) in &rows {
                    if ui
                        .selectable_label(self.picked.as_deref() == Some(u.id.as_str()), &u.id)
                        .clicked()
                    {
                        self.picked = Some(u.id.clone());
                    }
                    let mut side = u.side.clone();
                    if ui
                        .add(egui::TextEdit::singleline(&mut side).desired_width(70.0))
                        .named("side")
                        .changed()
                    {
                        let mut e = (*u).clone();
                        e.side = side;
                        cmds.push(EditorCommand::SetUnit {
                            id: u.id.clone(),
                            unit: e,
                            merge: Some(format!("{} side", u.id)),
                        });
                    }
                    if let Some(t) = buffered(
                        ui,
                        &mut self.buffers,
                        &format!("turn {}", u.id),
                        turn.to_string(),
                        |t| t.trim().parse::<u32>().ok() == Some(*turn) || t.trim().is_empty(),
                        36.0,
                    ) {
                        if let Ok(n) = t.trim().parse::<u32>() {
                            let mut e = (*u).clone();
                            e.placement = Placement::Enter {
                                turn: n,
                                area: area.clone(),
                            };
                            cmds.push(EditorCommand::SetUnit {
                                id: u.id.clone(),
                                unit: e,
                                merge: Some(format!("{} turn", u.id)),
                            });
                        }
                    }
                    let mut a = area.clone();
                    egui::ComboBox::from_id_salt(("entry area", &u.id))
                        .selected_text(&a)
                        .width(60.0)
                        .show_ui(ui, |ui| {
                            for id in &areas {
                                ui.selectable_value(&mut a, id.clone(), id);
                            }
                        })
                        .response
                        .named("entry area");
                    if a != *area {
                        let mut e = (*u).clone();
                        e.placement = Placement::Enter {
                            turn: *turn,
                            area: a,
                        };
                        cmds.push(EditorCommand::SetUnit {
                            id: u.id.clone(),
                            unit: e,
                            merge: None,
                        });
                    }
                    if ui
                        .small_button("×")
                        .on_hover_text("remove the unit")
                        .clicked()
                    {
                        cmds.push(EditorCommand::RemoveUnit { id: u.id.clone() });
                    }
                    ui.end_row();
                }
            });
        if rows.is_empty() {
            ui.label("No reinforcements: give a unit \"Enters on turn\" in its fields.");
        }
    }

    fn victory_ui(
        &mut self,
        ui: &mut Ui,
        doc: &Document,
        def: &ScenarioDef,
        cmds: &mut Vec<EditorCommand>,
    ) {
        ui.heading("Objectives");
        let mut obj = def.objectives.clone();
        let mut changed: Option<String> = None;
        let places: Vec<String> = doc.map.places.iter().map(|p| p.name.clone()).collect();
        let mut remove = None;
        egui::Grid::new("objectives")
            .striped(true)
            .num_columns(5)
            .show(ui, |ui| {
                for h in ["Place", "Hexes", "VP", "Side", ""] {
                    ui.label(RichText::new(h).strong());
                }
                ui.end_row();
                for (i, o) in obj.iter_mut().enumerate() {
                    let mut place = o.place.clone().unwrap_or_default();
                    egui::ComboBox::from_id_salt(("objective place", i))
                        .selected_text(if place.is_empty() { "(hexes)" } else { &place })
                        .width(100.0)
                        .show_ui(ui, |ui| {
                            ui.selectable_value(&mut place, String::new(), "(hexes)");
                            for p in &places {
                                ui.selectable_value(&mut place, p.clone(), p);
                            }
                        })
                        .response
                        .named("objective place");
                    if opt(&place) != o.place {
                        o.place = opt(&place);
                        changed = Some(format!("obj {i} place"));
                    }
                    let hexes = o.hexes.clone();
                    if let Some(t) = buffered(
                        ui,
                        &mut self.buffers,
                        &format!("objective hexes {i}"),
                        hexes.join(", "),
                        |t| parse_list(t) == hexes,
                        80.0,
                    ) {
                        o.hexes = parse_list(&t);
                        changed = Some(format!("obj {i} hexes"));
                    }
                    if ui
                        .add(egui::DragValue::new(&mut o.vp))
                        .named("o vp")
                        .changed()
                    {
                        changed = Some(format!("obj {i} vp"));
                    }
                    let mut side = o.side.clone().unwrap_or_default();
                    if ui
                        .add(egui::TextEdit::singleline(&mut side).desired_width(60.0))
                        .named("side")
                        .changed()
                    {
                        o.side = opt(&side);
                        changed = Some(format!("obj {i} side"));
                    }
                    if ui.small_button("×").clicked() {
                        remove = Some(i);
                    }
                    ui.end_row();
                }
            });
        if let Some(i) = remove {
            obj.remove(i);
            changed = Some(String::new());
        }
        if ui.button("Add objective").clicked() {
            obj.push(ObjectiveDef {
                place: places.first().cloned(),
                vp: 1,
                ..ObjectiveDef::default()
            });
            changed = Some(String::new());
        }
        if let Some(key) = changed {
            cmds.push(EditorCommand::SetObjectives {
                objectives: obj,
                merge: opt(&key),
            });
        }
        ui.separator();
        ui.heading("Victory levels");
        ui.label("First level whose max the score is at most applies; empty max = any score.");
        let mut levels = def.levels.clone();
        let mut changed: Option<String> = None;
        let mut remove = None;
        egui::Grid::new("levels").num_columns(3).show(ui, |ui| {
            for (i, l) in levels.iter_mut().enumerate() {
                if ui
                    .text_edit_singleline(&mut l.name)
                    .named("l name")
                    .changed()
                {
                    changed = Some(format!("level {i} name"));
                }
                let max = l.max;
                if let Some(t) = buffered(
                    ui,
                    &mut self.buffers,
                    &format!("level max {i}"),
                    max.map(|m| m.to_string()).unwrap_or_default(),
                    |t| t.trim().parse::<i64>().ok() == max,
                    50.0,
                ) {
                    let t = t.trim();
                    if t.is_empty() || t.parse::<i64>().is_ok() {
                        l.max = t.parse().ok();
                        changed = Some(format!("level {i} max"));
                    }
                }
                if ui.small_button("×").clicked() {
                    remove = Some(i);
                }
                ui.end_row();
            }
        });
        if let Some(i) = remove {
            levels.remove(i);
            changed = Some(String::new());
        }
        if ui.button("Add level").clicked() {
            levels.push(LevelDef {
                name: "New level".into(),
                max: None,
            });
            changed = Some(String::new());
        }
        if let Some(key) = changed {
            cmds.push(EditorCommand::SetLevels {
                levels,
                merge: opt(&key),
            });
        }
    }

    fn details_ui(&mut self, ui: &mut Ui, def: &ScenarioDef, cmds: &mut Vec<EditorCommand>) {
        ui.heading("Scenario");
        let mut m = def.meta.clone();
        let mut key = None;
        egui::Grid::new("meta").num_columns(2).show(ui, |ui| {
            ui.label("Name");
            if ui
                .text_edit_singleline(&mut m.name)
                .named("m name")
                .changed()
            {
                key = Some("name");
            }
            ui.end_row();
            ui.label("Turns");
            if ui
                .add(egui::DragValue::new(&mut m.turns).range(1..=999))
                .named("m turns")
                .changed()
            {
                key = Some("turns");
            }
            ui.end_row();
            ui.label("Profile");
            let mut p = m.profile.clone().unwrap_or_default();
            if ui.text_edit_singleline(&mut p).named("p").changed() {
                m.profile = opt(&p);
                key = Some("profile");
            }
            ui.end_row();
        });
        ui.label("Notes");
        if ui
            .add(
                egui::TextEdit::multiline(&mut m.notes)
                    .desired_rows(8)
                    .desired_width(f32::INFINITY),
            )
            .named("m notes")
            .changed()
        {
            key = Some("notes");
        }
        if let Some(k) = key {
            cmds.push(EditorCommand::SetMeta {
                meta: m,
                merge: Some(k.to_string()),
            });
        }
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
    *p != before
}
