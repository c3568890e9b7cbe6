//! The menu bar, keyboard shortcuts, the File → Open dialog, the error panel of failed reloads
//! and the validation panel.

use super::EditorApp;
use crate::command::EditorCommand;
use crate::panels::Mode;
use crate::play::PlayCommand;
use egui::{Color32, Key, KeyboardShortcut, Modifiers, RichText, Ui};
use std::path::PathBuf;

impl EditorApp {
    pub(super) fn shortcuts(
        &mut self,
        ui: &Ui,
        cmds: &mut Vec<EditorCommand>,
        play: &mut Vec<PlayCommand>,
    ) {
        let playing = self.palette.mode == Mode::Play && self.session.is_some();
        let shortcut = |m: Modifiers, k: Key| KeyboardShortcut::new(m, k);
        ui.ctx().input_mut(|i| {
            // the shift variant first: consume_shortcut(Ctrl+Z) would also match Ctrl+Shift+Z
            if i.consume_shortcut(&shortcut(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z))
                || i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::Y))
            {
                cmds.push(EditorCommand::Redo);
            }
            if i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::Z)) {
                // in play-test, undo takes back the last game action, not a map edit
                if playing {
                    play.push(PlayCommand::Undo);
                } else {
                    cmds.push(EditorCommand::Undo);
                }
            }
            if i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::S)) {
                cmds.push(EditorCommand::Save);
            }
        });
        if !ui.ctx().egui_wants_keyboard_input() {
            let (escape, home) =
                ui.input(|i| (i.key_pressed(Key::Escape), i.key_pressed(Key::Home)));
            if escape {
                self.palette.link_from = None;
                self.selected = None;
                if let Some(s) = &mut self.session {
                    s.clear_selection();
                }
            }
            if home {
                self.map_view.fit_on_next_frame();
            }
        }
    }

    /// File → Open…: a path field; opening replaces the document (and ends a play-test game).
    pub(super) fn open_dialog_ui(&mut self, ctx: &egui::Context) {
        let mut open = false;
        let mut cancel = false;
        egui::Window::new("Open a scenario, map or campaign")
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                if let Some(path) = &mut self.open_dialog {
                    ui.label("Scenario, map or campaign file (TOML), scenario folder or .kessel package:");
                    let field = ui.add(
                        egui::TextEdit::singleline(path)
                            .desired_width(420.0)
                            .hint_text("scenarios/pgg/campaign.toml"),
                    );
                    field.widget_info(|| {
                        egui::WidgetInfo::labeled(egui::Role::TextInput, true, "File to open")
                    });
                    if field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                        open = true;
                    }
                    crate::panels::whole_path_if_cut(ui, &field, path);
                }
                if let Some(e) = &self.open_error {
                    // said here, where the eyes are, as well as in the status bar
                    ui.add(
                        egui::Label::new(
                            RichText::new(format!("Cannot open: {e}"))
                                .color(Color32::from_rgb(240, 110, 100)),
                        )
                        .wrap(),
                    );
                }
                if self.doc.is_dirty() {
                    ui.colored_label(
                        Color32::from_rgb(230, 170, 60),
                        "The open document has unsaved changes: opening another loses them.",
                    );
                }
                ui.horizontal(|ui| {
                    open |= ui.button("Open").clicked();
                    cancel = ui.button("Cancel").clicked();
                });
            });
        if cancel {
            self.open_dialog = None;
            self.open_error = None;
        } else if open {
            let path = PathBuf::from(self.open_dialog.clone().unwrap_or_default());
            match EditorApp::open_from_dialog(&path) {
                Ok((app, opened, theirs)) => {
                    let not_yours = theirs.or_else(|| self.not_yours.take());
                    *self = app;
                    self.set_not_yours(not_yours);
                    self.status.info(format!("Opened {}", opened.display()));
                }
                Err(e) => {
                    let e = format!("{e:#}");
                    self.status.error(format!("Cannot open: {e}"));
                    self.open_error = Some(e);
                }
            }
        }
    }

    /// What *File → Open…* opens for `path`: read as the CLI reads a scenario argument (see
    /// [`crate::Opener`]), a saved game refused with what to do instead. Returns the app, the
    /// file opened and the folder that is Kessel's it lies in, if any.
    #[allow(clippy::type_complexity)]
    pub fn open_from_dialog(
        path: &std::path::Path,
    ) -> anyhow::Result<(EditorApp, PathBuf, Option<(PathBuf, PathBuf)>)> {
        if path
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("json"))
        {
            anyhow::bail!(
                "{} is a saved game, not a scenario: open the scenario it was played on, then Load game in Play-test (or start the editor with `kessel editor {}`)",
                path.display(),
                path.display()
            );
        }
        let (file, theirs) = match crate::opener() {
            Some(open) => open(path)?,
            None if path.is_dir() && path.join("scenario.toml").is_file() => {
                (path.join("scenario.toml"), None)
            }
            None => (path.to_path_buf(), None),
        };
        let app = EditorApp::open_file(&file, true)?;
        Ok((app, file, theirs))
    }

    pub(super) fn menu_ui(&mut self, ui: &mut Ui, cmds: &mut Vec<EditorCommand>) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                // a newcomer looks here for a new scenario; it is made by cutting a region of
                // the open map (the only place a new map comes from in the editor)
                let new = ui.button("New scenario…").on_hover_text(
                    "Cut a rectangle of this map into a new scenario folder (Edit map, New scenario from region)",
                );
                if new.clicked() {
                    self.start_new_scenario();
                }
                if ui.button("Open…").clicked() {
                    let current = self
                        .doc
                        .scenario_path
                        .as_ref()
                        .unwrap_or(&self.doc.map_path);
                    self.open_dialog = Some(current.display().to_string());
                    self.open_error = None;
                }
                if ui.button("Save  (Ctrl+S)").clicked() {
                    cmds.push(EditorCommand::Save);
                }
                if ui.button("Save as…").clicked() {
                    self.offer_save_as();
                }
                if ui.button("Quit").clicked() {
                    ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                }
            });
            // the View menu stays open while its switches and the interface size are clicked
            // (a size is found by trying a few)
            let stays = egui::containers::menu::MenuConfig::new()
                .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
            egui::containers::menu::MenuButton::new("View")
                .config(stays)
                .ui(ui, |ui| {
                if ui.button("Fit map  (Home)").clicked() {
                    self.map_view.fit_on_next_frame();
                    ui.close();
                }
                ui.checkbox(&mut self.map_view.show_units, "Counters");
                ui.checkbox(&mut self.map_view.show_areas, "Entry areas");
                ui.checkbox(&mut self.map_view.show_numbers, "Hex numbers");
                ui.checkbox(&mut self.map_view.show_trails, "Computer's last moves");
                ui.separator();
                EditorApp::ui_scale_menu(ui);
            });
            ui.menu_button("Help", help_ui);
            ui.separator();
            let undo = ui
                .add_enabled(
                    self.doc.history.undo_label().is_some(),
                    egui::Button::new("Undo"),
                )
                .on_hover_text(self.doc.history.undo_label().unwrap_or("nothing to undo"));
            if undo.clicked() {
                cmds.push(EditorCommand::Undo);
            }
            let redo = ui
                .add_enabled(
                    self.doc.history.redo_label().is_some(),
                    egui::Button::new("Redo"),
                )
                .on_hover_text(self.doc.history.redo_label().unwrap_or("nothing to redo"));
            if redo.clicked() {
                cmds.push(EditorCommand::Redo);
            }
            if ui.button("Save").clicked() {
                cmds.push(EditorCommand::Save);
            }
            ui.separator();
            ui.label(self.title());
        });
    }

    /// The locations the red reload panel at the top shows (a problem there is not listed
    /// again below).
    fn shown_above(&self) -> Vec<&str> {
        [&self.problems.rules, &self.problems.scenario]
            .into_iter()
            .flatten()
            .filter_map(|p| p.location.as_deref())
            .collect()
    }

    /// True when every problem the check found is the reload error shown in red at the top:
    /// the panel then needs one line, not the list's height (it kept an empty band of 90
    /// points under the map, saying only that the error was at the top).
    pub(super) fn problems_all_above(&self) -> bool {
        let shown = self.shown_above();
        (self.validator.issues.iter()).all(|i| shown.contains(&i.location.as_str()))
    }

    /// The validation panel: every problem of the edited scenario, clickable.
    pub(super) fn problems_ui(&mut self, ui: &mut Ui) {
        let v = &self.validator;
        // a reload error the red panel above shows already is not listed twice
        let shown = self.shown_above();
        let above = v
            .issues
            .iter()
            .filter(|i| shown.contains(&i.location.as_str()))
            .count();
        ui.horizontal(|ui| {
            ui.heading("Problems");
            let state = if v.busy && !v.issues.is_empty() {
                format!("{} (checking…)", v.issues.len())
            } else if v.busy {
                "checking…".to_string()
            } else if v.runs == 0 {
                "not checked yet".to_string()
            } else if v.issues.is_empty() {
                "none — the scenario passes kessel check".to_string()
            } else if above == v.issues.len() {
                format!("{} — the error in red at the top", v.issues.len())
            } else if above > 0 {
                format!("{} ({above} in red at the top)", v.issues.len())
            } else {
                format!("{}", v.issues.len())
            };
            ui.label(state);
        });
        // (nothing to list: an empty list would take the panel's whole height)
        if self.validator.issues.is_empty() || self.problems_all_above() {
            return;
        }
        let mut pick = None;
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for (i, issue) in self.validator.issues.iter().enumerate() {
                    if shown.contains(&issue.location.as_str()) {
                        continue;
                    }
                    ui.horizontal(|ui| {
                        ui.label(
                            RichText::new(&issue.location)
                                .monospace()
                                .color(Color32::from_rgb(255, 170, 150)),
                        );
                        let r =
                            ui.add(egui::Label::new(&issue.message).sense(egui::Sense::click()));
                        if r.on_hover_text("click to select its unit and hex")
                            .clicked()
                        {
                            pick = Some(i);
                        }
                    });
                }
            });
        if let Some(i) = pick {
            let issue = self.validator.issues[i].clone();
            if let Some(h) = issue.hex {
                self.selected = Some(h);
                self.map_view
                    .focus_on_next_frame(h, self.map_view.zoom.max(28.0));
            }
            if let Some(u) = issue.unit {
                if self.palette.mode != crate::panels::Mode::Scenario {
                    self.set_mode(crate::panels::Mode::Scenario);
                }
                self.scenario_panel.picked = Some(u);
                self.scenario_panel.reveal_picked = true;
                self.scenario_panel.tab = crate::panels::scenario::ScenarioTab::Units;
            }
        }
    }

    pub(super) fn errors_ui(&mut self, ui: &mut Ui) {
        for p in [&self.problems.rules, &self.problems.scenario]
            .into_iter()
            .flatten()
        {
            ui.label(
                RichText::new(format!("Error: {}", p.title))
                    .strong()
                    .color(Color32::from_rgb(255, 200, 190)),
            );
            if let Some(loc) = &p.location {
                ui.label(RichText::new(loc).monospace().color(Color32::WHITE));
            }
            ui.label(RichText::new(&p.message).color(Color32::from_rgb(255, 225, 220)));
        }
        ui.label(
            RichText::new("Fix the file and save it: the editor reloads it by itself.")
                .small()
                .color(Color32::from_rgb(230, 190, 185)),
        );
    }
}

/// Help: the keys and mouse gestures (said nowhere else in one place), what each mode is for,
/// and where the guides are.
fn help_ui(ui: &mut Ui) {
    ui.set_min_width(420.0);
    ui.label(RichText::new("Keys and mouse").strong());
    egui::Grid::new("help keys").num_columns(2).show(ui, |ui| {
        for (keys, what) in [
            ("Ctrl+S", "save the scenario and its map"),
            (
                "Ctrl+Z",
                "undo (in play-test: take back your last decision)",
            ),
            ("Ctrl+Shift+Z, Ctrl+Y", "redo"),
            (
                "Arrow keys, right-drag",
                "pan the map (a drag too, with the View tool)",
            ),
            ("Scroll, + and -", "zoom the map"),
            ("Ctrl +, Ctrl -, Ctrl 0", "interface size (also in View)"),
            ("Home", "fit the map to the window"),
            ("Escape", "drop the selection, stop drawing a link"),
        ] {
            ui.label(RichText::new(keys).monospace());
            ui.label(what);
            ui.end_row();
        }
    });
    ui.separator();
    ui.label(RichText::new("Modes").strong());
    for line in [
        "Edit map: paint terrain, rivers, roads; places, areas, tags (Map data); trace a picture.",
        "Edit scenario: units, reinforcements, victory, details and scenario variables.",
        "Play-test: play the scenario; under Players set a side to Computer to play against it (Scenario notes say what the scenario is about); Undo action, save and load games.",
        "Rules: pick a profile, flip options, compare profiles, run the balance lab.",
    ] {
        ui.label(line);
    }
    ui.separator();
    ui.label(RichText::new("Guides (in Kessel's source: README.md and docs/)").strong());
    for line in [
        "README.md: a first game (scenarios/pgg/learning.toml against the computer), the commands",
        "scenario-guide.md: build a scenario of your own, step by step",
        "file-formats.md: every key of the map, scenario, profile and campaign files",
        "lua-api.md: writing rules in Lua",
    ] {
        ui.label(line);
    }
}
