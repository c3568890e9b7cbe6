//! The scenario panel's unit tab: the units by side and formation with search and sorting, the
//! picked unit's fields, and the new-unit form.

use super::*;

/// What the faces field takes, on hover.
const FACES_HELP: &str = "One face per step, full strength first, separated by commas. A face's \
numbers are read as its unit type says: attack-defence-movement unless the type declares \
face_fields (kessel.unit_type), which name them.";

/// The unit list's height beside a unit's form or the new-unit form.
const LIST_HEIGHT: f32 = 220.0;
/// What the Units tab shows besides the list when it has the panel to itself: the search row,
/// the list's frame and the *New unit* line.
const LIST_MARGIN: f32 = 100.0;

impl ScenarioPanel {
    pub(super) fn units_ui(
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
        // the list takes the panel's height while neither a unit's form nor the new-unit form
        // is open below it (it showed 7 units of the campaign's 200 above an empty half panel)
        let new_open = egui::collapsing_header::CollapsingState::load(
            ui.ctx(),
            ui.make_persistent_id("New unit"),
        )
        .map_or(def.units.is_empty(), |s| s.is_open());
        let list_height = if self.picked.is_none() && !new_open {
            (self.room - LIST_MARGIN).max(LIST_HEIGHT)
        } else {
            LIST_HEIGHT
        };
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(ui.available_width());
            egui::ScrollArea::vertical()
                .id_salt("unit list")
                .max_height(list_height)
                .show(ui, |ui| {
                    if def.units.is_empty() {
                        ui.label("No units yet: make one under New unit below.");
                    } else if groups.is_empty() {
                        ui.label("No units match.");
                    }
                    for (side, formations) in &groups {
                        let n: usize = formations.iter().map(|f| f.1.len()).sum();
                        egui::CollapsingHeader::new(format!("{side} ({n})"))
                            .default_open(true)
                            .show(ui, |ui| {
                                for (f, units) in formations {
                                    // a heading as large as its units: in small print it
                                    // read as a footnote between them
                                    ui.add_space(2.0);
                                    ui.label(RichText::new(f).strong());
                                    for u in units {
                                        // `id (name) — where`, the name only if it has one
                                        let name = (u.name.as_deref())
                                            .map(|n| format!(" ({n})"))
                                            .unwrap_or_default();
                                        let text = format!(
                                            "{}{name} — {}",
                                            u.id,
                                            placement_text(doc, &u.placement)
                                        );
                                        let picked = self.picked.as_deref() == Some(u.id.as_str());
                                        let r = ui.selectable_label(picked, text);
                                        if picked && self.reveal_picked {
                                            r.scroll_to_me(Some(egui::Align::Center));
                                        }
                                        if r.clicked() {
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

    pub(super) fn unit_editor(
        &mut self,
        ui: &mut Ui,
        doc: &Document,
        u: &UnitDef,
        names: &RulesetNames,
        cmds: &mut Vec<EditorCommand>,
    ) {
        let heading = ui.heading(format!("Unit {}", u.id));
        if std::mem::take(&mut self.reveal_picked) {
            // the panel scrolls to the form; the list has scrolled to the unit
            heading.scroll_to_me(Some(egui::Align::TOP));
        }
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
                if sides::side_choice(ui, "side", &mut e.side, &names.sides, false) {
                    field = Some("side");
                }
                ui.end_row();
                ui.label("Type");
                // the side's types, and the unit's own whatever it is
                let types = names.types_for(&e.side);
                if choice(
                    ui,
                    "type",
                    &mut e.kind,
                    &types,
                    std::slice::from_ref(&u.kind),
                ) {
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
                ui.label(format!("Faces ({} per step)", names.face_parts(&e.kind)))
                    .on_hover_text(FACES_HELP);
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

    pub(super) fn new_unit_ui(
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
            if d.side.is_empty() {
                // a side to start from: a unit of no side is refused by the rules
                if let Some(first) = names.sides.first().or(doc.sides.first()) {
                    d.side = first.clone();
                }
            }
            sides::side_choice(ui, "new side", &mut d.side, &names.sides, false);
            ui.end_row();
            ui.label("Type");
            // the side's types where the ruleset says which belong to which side
            let types = names.types_for(&d.side);
            if !types.is_empty() && !types.contains(&d.kind) {
                d.kind = types[0].clone();
            }
            let combo = ui.horizontal(|ui| {
                choice(ui, "new type", &mut d.kind, &types, &[]);
            });
            if !names.unit_types.is_empty() && !names.types_have_sides() {
                combo.response.on_hover_text(
                    "Every type is offered: the ruleset's unit types name no side (a `side` field in kessel.unit_type says which side a type belongs to)",
                );
            }
            ui.end_row();
            ui.label("Formation");
            let mut f = d.formation.clone().unwrap_or_default();
            if ui.text_edit_singleline(&mut f).named("f").changed() {
                d.formation = opt(&f);
            }
            ui.end_row();
            let parts = names.face_parts(&d.kind);
            ui.label(format!("Faces ({parts} per step)"))
                .on_hover_text(FACES_HELP);
            // an example in the type's own terms: PGG's A-D-M, or the names it reads faces with
            let hint = if parts == "A-D-M" {
                "4-4-10, 2-2-10".to_string()
            } else {
                parts
            };
            ui.add(egui::TextEdit::singleline(&mut self.draft_faces).hint_text(hint))
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
        // the faces as `check` reads them, said at once: an added unit with a face it refuses
        // showed only as an error of the whole scenario
        let faces = parse_list(&self.draft_faces);
        let fields = names
            .type_faces
            .get(&self.draft.kind)
            .filter(|f| !f.is_empty());
        let face_problem = if faces.is_empty() && !self.draft.hidden {
            Some(
                "give its faces, its printed values one per step (one at least), or make it hidden and give a pool"
                    .to_string(),
            )
        } else {
            faces.iter().find_map(|f| {
                kessel_core::scenario::face_text_problem(
                    f,
                    &self.draft.kind,
                    fields.map(Vec::as_slice),
                )
            })
        };
        if let Some(why) = &face_problem {
            ui.colored_label(egui::Color32::from_rgb(230, 90, 80), why);
        }
        let taken = doc
            .scenario
            .as_ref()
            .is_some_and(|s| s.unit(&self.draft.id).is_some());
        if taken {
            ui.colored_label(egui::Color32::from_rgb(230, 90, 80), "this id is taken");
        }
        let ok =
            !self.draft.id.trim().is_empty() && !taken && attrs.is_ok() && face_problem.is_none();
        if ui
            .add_enabled(ok, egui::Button::new("Add unit"))
            .on_hover_text("adds it unplaced and picks it: click a hex to place it")
            .clicked()
        {
            let mut u = self.draft.clone();
            u.id = u.id.trim().to_string();
            u.faces = faces;
            u.attrs = attrs.unwrap_or_default();
            self.picked = Some(u.id.clone());
            self.tool = ScenarioTool::Place;
            cmds.push(EditorCommand::AddUnit(u));
            self.draft.id.clear();
            self.draft.name = None;
        }
    }
}
