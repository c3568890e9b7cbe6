//! The scenario panel's other tabs: the reinforcement schedule, objectives and victory levels,
//! and the scenario's details.

use super::*;
use std::time::{Duration, Instant};

impl ScenarioPanel {
    pub(super) fn reinforcements_ui(
        &mut self,
        ui: &mut Ui,
        doc: &Document,
        def: &ScenarioDef,
        sides: &[String],
        cmds: &mut Vec<EditorCommand>,
    ) {
        ui.heading("Reinforcement schedule");
        ui.label(format!(
            "Turns {}–{}. Click a heading to sort; edit a cell to change the unit. To add one, pick a unit under Units (or make one under New unit) and set where it starts to \"Enters later\".",
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
                    let salt = format!("side {}", u.id);
                    if sides::side_choice(ui, &salt, &mut side, sides, false) {
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
                        .on_hover_text("remove the unit from the scenario (to keep it, set where it starts under Units)")
                        .clicked()
                    {
                        cmds.push(EditorCommand::RemoveUnit { id: u.id.clone() });
                    }
                    ui.end_row();
                }
            });
        if rows.is_empty() {
            ui.label("No reinforcements yet.");
        }
    }

    pub(super) fn victory_ui(
        &mut self,
        ui: &mut Ui,
        doc: &Document,
        def: &ScenarioDef,
        sides: &[String],
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
                        110.0,
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
                    if sides::side_choice(
                        ui,
                        &format!("objective side {i}"),
                        &mut side,
                        sides,
                        true,
                    ) {
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
        ui.label("Read from the top: the first level whose Max score is at least the game's score (as the ruleset's victory rules count it) applies; an empty Max takes any score.");
        let mut levels = def.levels.clone();
        let mut changed: Option<String> = None;
        let mut remove = None;
        egui::Grid::new("levels").num_columns(3).show(ui, |ui| {
            if !levels.is_empty() {
                for h in ["Level", "Max score", ""] {
                    ui.label(RichText::new(h).strong());
                }
                ui.end_row();
            }
            for (i, l) in levels.iter_mut().enumerate() {
                if cell_text(ui, &mut l.name, 160.0).named("l name").changed() {
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

    pub(super) fn details_ui(
        &mut self,
        ui: &mut Ui,
        def: &ScenarioDef,
        (names, ruleset_dir): (&RulesetNames, Option<&std::path::Path>),
        cmds: &mut Vec<EditorCommand>,
    ) {
        let profiles = self.ruleset_profiles(ruleset_dir);
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
            ui.horizontal(|ui| {
                let mut p = m.profile.clone().unwrap_or_default();
                let field = egui::TextEdit::singleline(&mut p)
                    .desired_width(150.0)
                    .hint_text("the ruleset's defaults");
                if ui.add(field).named("p").changed() {
                    m.profile = opt(&p);
                    key = Some("profile");
                }
                // the ruleset's profiles to pick from (a .toml path is typed in the field)
                let mut picked = None;
                egui::ComboBox::from_id_salt("profile pick")
                    .selected_text("pick…")
                    .show_ui(ui, |ui| {
                        if ui
                            .selectable_label(m.profile.is_none(), "none (every option at its default)")
                            .clicked()
                        {
                            picked = Some(None);
                        }
                        for name in &profiles {
                            let on = m.profile.as_deref() == Some(name.as_str());
                            if ui.selectable_label(on, name).clicked() {
                                picked = Some(Some(name.clone()));
                            }
                        }
                    })
                    .response
                    .on_hover_text("The ruleset's profiles (its profiles/ folder); a profile file of your own is typed as a path to its .toml")
                    .named("pick profile");
                if let Some(p) = picked {
                    if p != m.profile {
                        m.profile = p;
                        key = Some("profile");
                    }
                }
            });
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
        self.vars_ui(ui, def, names, cmds);
    }

    /// The profiles of the ruleset in `dir`, read again when a few seconds old.
    fn ruleset_profiles(&mut self, dir: Option<&std::path::Path>) -> Vec<String> {
        let Some(dir) = dir else {
            return Vec::new();
        };
        let fresh = (self.profiles.as_ref())
            .is_some_and(|(d, at, _)| d == dir && at.elapsed() < Duration::from_secs(3));
        if !fresh {
            let list = kessel_core::engine::Engine::profile_names(dir);
            self.profiles = Some((dir.to_path_buf(), Instant::now(), list));
        }
        self.profiles
            .as_ref()
            .map(|p| p.2.clone())
            .unwrap_or_default()
    }
}
