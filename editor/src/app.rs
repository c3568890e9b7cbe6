//! The editor application: lays out the panels each frame, collects their commands and applies
//! them after the frame.

use crate::command::EditorCommand;
use crate::document::{Document, SaveOutcome};
use crate::map_view::{MapView, Scene};
use crate::panels::{Inspector, Palette, StatusBar, Tool};
use egui::{Key, KeyboardShortcut, Modifiers, Ui};
use kessel_core::hex::Hex;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Frames drawn before a requested screenshot, so fonts, layout and the map fit have settled.
const SCREENSHOT_AFTER_FRAMES: u32 = 10;
/// Frames after which a screenshot that never arrived counts as failed.
const SCREENSHOT_GIVE_UP_FRAMES: u32 = 600;

/// Where a screenshot run reports back to [`crate::run`].
pub type ScreenshotOutcome = Arc<Mutex<Option<Result<PathBuf, String>>>>;

struct ScreenshotJob {
    path: PathBuf,
    frames: u32,
    requested: bool,
    outcome: ScreenshotOutcome,
}

/// The editor: the document plus one struct per panel.
pub struct EditorApp {
    /// The open document.
    pub doc: Document,
    /// The map canvas.
    pub map_view: MapView,
    /// Tool palette.
    pub palette: Palette,
    /// Inspector panel.
    pub inspector: Inspector,
    /// Status bar.
    pub status: StatusBar,
    /// The hex the inspector shows.
    pub selected: Option<Hex>,
    hovered: Option<Hex>,
    screenshot: Option<ScreenshotJob>,
}

impl EditorApp {
    /// An editor on a document.
    pub fn new(doc: Document) -> EditorApp {
        EditorApp {
            doc,
            map_view: MapView::default(),
            palette: Palette::default(),
            inspector: Inspector::default(),
            status: StatusBar::default(),
            selected: None,
            hovered: None,
            screenshot: None,
        }
    }

    /// Asks for a screenshot once the first frames have settled; the window closes after it.
    pub fn take_screenshot(&mut self, path: PathBuf, outcome: ScreenshotOutcome) {
        self.screenshot = Some(ScreenshotJob {
            path,
            frames: 0,
            requested: false,
            outcome,
        });
    }

    /// Draws one frame into `ui` and applies the commands it produced. Independent of eframe so
    /// tests can drive it through `egui_kittest`.
    pub fn ui_root(&mut self, ui: &mut Ui) {
        let mut cmds = Vec::new();
        self.shortcuts(ui, &mut cmds);

        egui::Panel::top("menu").show(ui, |ui| self.menu_ui(ui, &mut cmds));
        egui::Panel::bottom("status").show(ui, |ui| {
            self.status
                .ui(ui, &self.doc, self.hovered, self.map_view.zoom);
        });
        egui::Panel::left("palette")
            .resizable(false)
            .exact_size(190.0)
            .show(ui, |ui| self.palette.ui(ui, &self.doc, &mut self.map_view));
        egui::Panel::right("inspector")
            .resizable(true)
            .default_size(300.0)
            .show(ui, |ui| self.inspector.ui(ui, &self.doc, self.selected));
        egui::CentralPanel::no_frame().show(ui, |ui| {
            let scene = Scene {
                doc: &self.doc,
                selected: self.selected,
                link_from: self.palette.link_from,
                side_hint: self.palette.tool == Tool::Hexside,
                primary_pans: self.palette.tool == Tool::View,
            };
            let r = self.map_view.ui(ui, &scene);
            self.hovered = r.hovered;
            if let Some(h) = r.clicked {
                self.selected = Some(h);
            }
            // while painting, the inspector follows the brush
            if self.palette.tool == Tool::PaintTerrain && r.primary_down.is_some() {
                self.selected = r.primary_down;
            }
            if let Some(msg) = self.palette.on_map(&r, &self.doc, &mut cmds) {
                self.status.info(msg);
            }
        });

        self.apply(cmds);
    }

    fn shortcuts(&mut self, ui: &Ui, cmds: &mut Vec<EditorCommand>) {
        let shortcut = |m: Modifiers, k: Key| KeyboardShortcut::new(m, k);
        ui.ctx().input_mut(|i| {
            // the shift variant first: consume_shortcut(Ctrl+Z) would also match Ctrl+Shift+Z
            if i.consume_shortcut(&shortcut(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z))
                || i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::Y))
            {
                cmds.push(EditorCommand::Redo);
            }
            if i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::Z)) {
                cmds.push(EditorCommand::Undo);
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
            }
            if home {
                self.map_view.fit_on_next_frame();
            }
        }
    }

    fn menu_ui(&mut self, ui: &mut Ui, cmds: &mut Vec<EditorCommand>) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("Save map  (Ctrl+S)").clicked() {
                    cmds.push(EditorCommand::Save);
                }
                if ui.button("Quit").clicked() {
                    ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                }
            });
            ui.menu_button("View", |ui| {
                if ui.button("Fit map  (Home)").clicked() {
                    self.map_view.fit_on_next_frame();
                }
                ui.checkbox(&mut self.map_view.show_units, "Counters");
                ui.checkbox(&mut self.map_view.show_areas, "Entry areas");
                ui.checkbox(&mut self.map_view.show_numbers, "Hex numbers");
            });
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
            ui.label(&self.doc.name);
        });
    }

    /// Applies commands collected during the frame.
    pub fn apply(&mut self, cmds: Vec<EditorCommand>) {
        for cmd in cmds {
            match &cmd {
                EditorCommand::Undo => match self.doc.history.undo(&mut self.doc.map) {
                    Some(label) => self.status.info(format!("Undid: {label}")),
                    None => self.status.info("Nothing to undo"),
                },
                EditorCommand::Redo => match self.doc.history.redo(&mut self.doc.map) {
                    Some(label) => self.status.info(format!("Redid: {label}")),
                    None => self.status.info("Nothing to redo"),
                },
                EditorCommand::Save => match self.doc.save() {
                    Ok(SaveOutcome::Unchanged) => self.status.info("No changes to save"),
                    Ok(SaveOutcome::Written(p)) => {
                        self.status.info(format!("Saved {}", p.display()))
                    }
                    Err(e) => self.status.error(format!("Save failed: {e:#}")),
                },
                edit => match self.doc.edit(edit) {
                    Ok(true) => {
                        if let Some(label) = self.doc.history.undo_label() {
                            let label = label.to_string();
                            self.status.info(label);
                        }
                    }
                    Ok(false) => {}
                    Err(e) => self.status.error(e),
                },
            }
        }
    }

    fn drive_screenshot(&mut self, ctx: &egui::Context) {
        let Some(job) = &mut self.screenshot else {
            return;
        };
        job.frames += 1;
        let done = job.outcome.lock().map(|o| o.is_some()).unwrap_or(true);
        if done {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            return;
        }
        if !job.requested && job.frames >= SCREENSHOT_AFTER_FRAMES {
            job.requested = true;
            let path = job.path.clone();
            let outcome = job.outcome.clone();
            ctx.request_screenshot(move |img| {
                let result = save_png(&path, &img).map(|()| path.clone());
                if let Ok(mut slot) = outcome.lock() {
                    *slot = Some(result);
                }
            });
        }
        if job.frames > SCREENSHOT_GIVE_UP_FRAMES {
            if let Ok(mut slot) = job.outcome.lock() {
                *slot = Some(Err("no screenshot arrived from the renderer".into()));
            }
        }
        ctx.request_repaint();
    }
}

fn save_png(path: &std::path::Path, img: &egui::ColorImage) -> Result<(), String> {
    let [w, h] = img.size;
    let rgba: Vec<u8> = img.pixels.iter().flat_map(|p| p.to_array()).collect();
    image::save_buffer(path, &rgba, w as u32, h as u32, image::ColorType::Rgba8)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.ui_root(ui);
        self.drive_screenshot(ui.ctx());
    }
}
