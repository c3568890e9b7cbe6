//! The play-test panel's *Game* section: the seed and *New game*, the game's file with *Save
//! game* and *Load game* (out of play.rs, which had grown past the 600 lines the tidy test
//! allows).

use crate::play::{PlayCommand, PlaySession};
use egui::Ui;
use std::path::PathBuf;

/// The seed, *New game*, and the game's file (its whole path said when the field cuts it).
pub(super) fn game_file_ui(ui: &mut Ui, s: &mut PlaySession, cmds: &mut Vec<PlayCommand>) {
    egui::CollapsingHeader::new("Game")
        .default_open(true)
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                let label = ui.label("Seed");
                ui.add(egui::DragValue::new(&mut s.seed))
                    .labelled_by(label.id);
                if ui
                    .button("New game")
                    .on_hover_text("Start the scenario again with this seed and the chosen profile")
                    .clicked()
                {
                    cmds.push(PlayCommand::NewGame);
                }
            });
            let field = ui
                .horizontal(|ui| {
                    let label = ui.label("File");
                    ui.add(
                        egui::TextEdit::singleline(&mut s.save_path).desired_width(f32::INFINITY),
                    )
                    .labelled_by(label.id)
                })
                .inner;
            super::whole_path_if_cut(ui, &field, &s.save_path);
            ui.horizontal(|ui| {
                let path = PathBuf::from(s.save_path.trim());
                let ok = !s.save_path.trim().is_empty();
                if ui.add_enabled(ok, egui::Button::new("Save game")).clicked() {
                    cmds.push(PlayCommand::SaveGame(path.clone()));
                }
                if ui.add_enabled(ok, egui::Button::new("Load game")).clicked() {
                    cmds.push(PlayCommand::LoadGame(path));
                }
            });
        });
}
