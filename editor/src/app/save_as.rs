//! File → Save as…: a folder field; the scenario (edits included) and its folder are written
//! there ([`crate::save_as`]) and the copy is opened in place of the document.

use super::EditorApp;
use crate::document::Document;
use egui::{Color32, Key};
use kessel_core::script::display_path;
use std::path::{Path, PathBuf};

impl EditorApp {
    /// The folder *Save as…* offers: the user's folder when the document is in Kessel's own,
    /// else a copy beside the scenario's folder.
    pub fn save_as_default(&self) -> PathBuf {
        let file = self
            .doc
            .scenario_path
            .as_deref()
            .unwrap_or(&self.doc.map_path);
        let folder = file.parent().unwrap_or(Path::new("."));
        let name = folder
            .canonicalize()
            .ok()
            .and_then(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "scenario".into());
        match (&self.not_yours, self.save_refused()) {
            (Some((_, user)), Some(_)) => user.join(name),
            _ => folder
                .parent()
                .unwrap_or(Path::new("."))
                .join(format!("{name}-copy")),
        }
    }

    /// Opens the *Save as…* dialog on the default folder.
    pub fn offer_save_as(&mut self) {
        self.save_as_dialog = Some(self.save_as_default().display().to_string());
    }

    pub(super) fn save_as_dialog_ui(&mut self, ctx: &egui::Context) {
        let (mut go, mut cancel) = (false, false);
        let refused = self.save_refused().is_some();
        egui::Window::new("Save as")
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                if refused {
                    ui.colored_label(
                        Color32::from_rgb(230, 170, 60),
                        "This scenario is Kessel's own copy, which a new version replaces: keep your work in a folder of yours.",
                    );
                }
                ui.label("Folder to write the scenario (with the rest of its folder) into:");
                if let Some(path) = &mut self.save_as_dialog {
                    let field = ui.add(egui::TextEdit::singleline(path).desired_width(420.0));
                    field.widget_info(|| {
                        egui::WidgetInfo::labeled(egui::Role::TextInput, true, "save as folder")
                    });
                    if field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                        go = true;
                    }
                    crate::panels::whole_path_if_cut(ui, &field, path);
                }
                ui.label("The copy is opened; the original is left as it was.");
                ui.horizontal(|ui| {
                    go |= ui.button("Save here and open").clicked();
                    cancel = ui.button("Cancel").clicked();
                });
            });
        if cancel {
            self.save_as_dialog = None;
        } else if go {
            let dir = PathBuf::from(self.save_as_dialog.clone().unwrap_or_default());
            let opened =
                crate::save_as::save_as(&self.doc, &dir).and_then(|p| Ok((Document::open(&p)?, p)));
            match opened {
                Ok((doc, path)) => {
                    let not_yours = self.not_yours.take();
                    *self = EditorApp::new(doc);
                    self.set_not_yours(not_yours);
                    self.status.info(format!(
                        "Saved as {}; editing the copy now",
                        display_path(&path)
                    ));
                }
                Err(e) => self.status.error(format!("Save as failed: {e:#}")),
            }
        }
    }
}
