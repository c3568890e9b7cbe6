//! The Pools & markers tab: the scenario's markers (kind, side, how many) and its pools of
//! hidden faces (id, side, faces with their copies), added, edited and removed. Whether a kind,
//! side or face is one the ruleset knows is the checks' job (the problems panel names the line).

use super::ScenarioPanel;
use crate::command::EditorCommand;
use crate::panels::cell_text;
use crate::panels::Named as _;
use crate::scenario_file::{MarkerDef, PoolDef, ScenarioDef};
use egui::{Color32, RichText, Ui};

const BAD: Color32 = Color32::from_rgb(240, 95, 85);

/// `""` → none, anything else → itself.
fn opt(text: &str) -> Option<String> {
    let t = text.trim();
    (!t.is_empty()).then(|| t.to_string())
}

impl ScenarioPanel {
    pub(super) fn pieces_ui(
        &mut self,
        ui: &mut Ui,
        def: &ScenarioDef,
        sides: &[String],
        cmds: &mut Vec<EditorCommand>,
    ) {
        self.markers_ui(ui, def, sides, cmds);
        ui.separator();
        self.pools_ui(ui, def, sides, cmds);
    }

    fn markers_ui(
        &mut self,
        ui: &mut Ui,
        def: &ScenarioDef,
        sides: &[String],
        cmds: &mut Vec<EditorCommand>,
    ) {
        ui.heading("Markers");
        let mut markers = def.markers.clone();
        let mut changed = None;
        let mut remove = None;
        egui::Grid::new("markers").num_columns(4).show(ui, |ui| {
            ui.label("kind");
            ui.label("side");
            ui.label("count");
            ui.end_row();
            for (i, m) in markers.iter_mut().enumerate() {
                if cell_text(ui, &mut m.kind, 150.0)
                    .named(&format!("marker kind {i}"))
                    .changed()
                {
                    changed = Some(format!("marker kind {i}"));
                }
                let mut side = m.side.clone().unwrap_or_default();
                if super::sides::side_choice(
                    ui,
                    &format!("marker side {i}"),
                    &mut side,
                    sides,
                    true,
                ) {
                    m.side = opt(&side);
                    changed = Some(format!("marker side {i}"));
                }
                let count = egui::DragValue::new(&mut m.count).range(0..=999);
                if ui.add(count).named(&format!("marker count {i}")).changed() {
                    changed = Some(format!("marker count {i}"));
                }
                if ui
                    .small_button("Remove")
                    .named(&format!("remove marker {i}"))
                    .clicked()
                {
                    remove = Some(i);
                }
                ui.end_row();
            }
        });
        if let Some(i) = remove {
            markers.remove(i);
            changed = Some("remove marker".into());
        }
        if ui.button("Add marker").clicked() {
            markers.push(MarkerDef {
                kind: "marker".into(),
                side: None,
                count: 1,
            });
            changed = Some("add marker".into());
        }
        if let Some(k) = changed {
            cmds.push(EditorCommand::SetMarkers {
                markers,
                merge: Some(k),
            });
        }
    }

    fn pools_ui(
        &mut self,
        ui: &mut Ui,
        def: &ScenarioDef,
        sides: &[String],
        cmds: &mut Vec<EditorCommand>,
    ) {
        ui.heading("Pools");
        ui.label(
            RichText::new("Faces hidden units draw from when revealed, with their copies: 5-5-6 x1, 4-5-6 x2.")
                .small(),
        );
        let mut pools = def.pools.clone();
        let mut changed = None;
        let mut remove = None;
        for (i, p) in pools.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                ui.label("id");
                let id = egui::TextEdit::singleline(&mut p.id).desired_width(90.0);
                if ui.add(id).named(&format!("pool id {i}")).changed() {
                    changed = Some(format!("pool id {i}"));
                }
                ui.label("side");
                let mut side = p.side.clone().unwrap_or_default();
                if super::sides::side_choice(ui, &format!("pool side {i}"), &mut side, sides, true)
                {
                    p.side = opt(&side);
                    changed = Some(format!("pool side {i}"));
                }
                if ui
                    .small_button("Remove")
                    .named(&format!("remove pool {i}"))
                    .clicked()
                {
                    remove = Some(i);
                }
            });
            let key = format!("pool faces {i}");
            let text = self
                .buffers
                .entry(key.clone())
                .or_insert_with(|| p.faces_text());
            let r = ui
                .add(egui::TextEdit::singleline(text).desired_width(f32::INFINITY))
                .named(&key);
            match PoolDef::parse_faces(text) {
                Ok(faces) if r.changed() && faces != p.faces => {
                    p.faces = faces;
                    changed = Some(key);
                }
                Ok(_) => {}
                Err(e) => {
                    ui.label(RichText::new(e).color(BAD));
                }
            }
            ui.separator();
        }
        if let Some(i) = remove {
            pools.remove(i);
            // the typed texts follow the pools' positions
            self.buffers.retain(|k, _| !k.starts_with("pool faces "));
            changed = Some("remove pool".into());
        }
        if ui.button("Add pool").clicked() {
            pools.push(PoolDef {
                id: format!("pool{}", pools.len() + 1),
                side: None,
                faces: Vec::new(),
            });
            changed = Some("add pool".into());
        }
        if let Some(k) = changed {
            cmds.push(EditorCommand::SetPools {
                pools,
                merge: Some(k),
            });
        }
    }
}
