//! What each mode shows in the side panel and how the map's input is read in each mode.

use super::EditorApp;
use crate::command::EditorCommand;
use crate::map_view::{MapResponse, Overlay, Scene};
use crate::panels::scenario::ScenarioTool;
use crate::panels::{Mode, Named as _, Panel as _, Tool};
use crate::play::PlayCommand;
use egui::{RichText, Ui};

impl EditorApp {
    pub(super) fn side_ui(
        &mut self,
        ui: &mut Ui,
        cmds: &mut Vec<EditorCommand>,
        play: &mut Vec<PlayCommand>,
    ) {
        // the rules' and the scenario's text wraps at the panel's edge in rows too: an option's
        // long id, a unit's line, made the content wider than [`side_max`] allows, and it
        // spilled out under the map in a narrow window (not in play-test: the players'
        // Human/Computer switches broke letter by letter)
        if matches!(self.palette.mode, Mode::Rules | Mode::Scenario) {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
        }
        match self.palette.mode {
            Mode::Edit if self.palette.tool == Tool::Region => {
                if let Some(req) = self.region.ui(ui, &self.doc) {
                    self.new_scenario_from_region(req);
                }
            }
            Mode::Edit => {
                self.underlay_ui(ui);
                ui.separator();
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut self.show_map_data, false, "Inspector");
                    ui.selectable_value(&mut self.show_map_data, true, "Map data");
                });
                ui.separator();
                if self.show_map_data {
                    egui::ScrollArea::vertical()
                        .auto_shrink([false, false])
                        .show(ui, |ui| {
                            self.map_data.ui(ui, &mut panel_cx!(self, cmds, play));
                        });
                } else {
                    self.inspector.ui(ui, &mut panel_cx!(self, cmds, play));
                }
            }
            Mode::Scenario => {
                if let Some(h) = self.selected.filter(|h| self.doc.map.contains(*h)) {
                    egui::CollapsingHeader::new(format!("Hex {}", self.doc.map.label(h)))
                        .id_salt("scenario hex")
                        .default_open(true)
                        .show(ui, |ui| {
                            egui::ScrollArea::vertical()
                                .id_salt("scenario hex scroll")
                                .max_height(260.0)
                                .show(ui, |ui| {
                                    crate::panels::inspector::hex_ui(ui, &self.doc, &self.style, h)
                                });
                        });
                    ui.separator();
                }
                self.scenario_panel.ui(ui, &mut panel_cx!(self, cmds, play));
            }
            Mode::Play | Mode::Rules => {
                if self.session.is_none() {
                    // the panel keeps its width while the game starts (it sizes to what it holds)
                    ui.set_min_width(ui.available_width());
                    ui.heading(self.palette.mode.label());
                    if let Some((took, stopping)) = self.starting_for() {
                        let stop = ui.horizontal(|ui| {
                            ui.spinner();
                            ui.label(format!("Starting the game… {:.1} s", took.as_secs_f32()));
                            ui.add_enabled(!stopping, egui::Button::new("Stop"))
                                .on_hover_text("Cut the rules short; the game does not start")
                                .named("Stop the start")
                                .clicked()
                        });
                        if stop.inner {
                            self.stop_start();
                        }
                        return;
                    }
                    match &self.session_error {
                        Some(e) => {
                            ui.label(RichText::new("The game could not start:").strong());
                            ui.label(RichText::new(e).color(crate::panels::play::REFUSAL));
                        }
                        None => {
                            ui.label("Open a scenario to play-test it.");
                        }
                    }
                    if self.doc.scenario_path.is_some() && ui.button("Try again").clicked() {
                        self.start_attempted = false;
                        self.ensure_session();
                    }
                    return;
                }
                let mut cx = panel_cx!(self, cmds, play);
                if self.palette.mode == Mode::Play {
                    self.play_panel.ui(ui, &mut cx);
                } else {
                    self.rules_panel.ui(ui, &mut cx);
                }
            }
        }
    }

    /// The markers drawn on the map outside a game: in scenario mode the scenario's set-up
    /// markers, as a game starts with them (the mode showed none, play-test all of them); none in
    /// map mode, as they belong to the scenario, not to the map being edited.
    pub fn setup_markers_shown(&self) -> &[kessel_core::state::Marker] {
        setup_markers(self.palette.mode, &self.doc)
    }

    pub(super) fn map_ui(
        &mut self,
        ui: &mut Ui,
        cmds: &mut Vec<EditorCommand>,
        play: &mut Vec<PlayCommand>,
    ) {
        let playing = matches!(self.palette.mode, Mode::Play | Mode::Rules);
        let scenario_mode = self.palette.mode == Mode::Scenario;
        let problems = if !playing {
            self.validator.hexes()
        } else {
            Vec::new()
        };
        let marked = if self.palette.mode == Mode::Edit && self.show_map_data {
            self.map_data.marked(&self.doc.map)
        } else {
            Vec::new()
        };
        let underlay = if self.palette.mode == Mode::Edit {
            self.underlay_view(ui.ctx())
        } else {
            None
        };
        let session = if playing { self.session.as_mut() } else { None };
        let overlay: Option<Overlay> = match &session {
            Some(s) if self.palette.mode == Mode::Play => Some(s.overlay(self.hovered)),
            _ => None,
        };
        let (units, markers) = match &session {
            Some(s) => (&s.units, s.markers.as_slice()),
            None => (&self.doc.units, setup_markers(self.palette.mode, &self.doc)),
        };
        let scene = Scene {
            underlay,
            doc: &self.doc,
            style: &self.style,
            units,
            markers,
            overlay: overlay.as_ref(),
            selected: if playing { None } else { self.selected },
            link_from: self.palette.link_from,
            side_hint: self.palette.mode == Mode::Edit && self.palette.tool == Tool::Hexside,
            primary_pans: playing
                || (self.palette.mode == Mode::Edit
                    && self.palette.tool == Tool::View
                    && self.map_data.target.is_none()),
            problems: &problems,
            marked: &marked,
            region: self
                .region
                .corners
                .filter(|_| self.palette.mode == Mode::Edit && self.palette.tool == Tool::Region),
        };
        let r = self.map_view.ui(ui, &scene);
        // a hex pinned by a scripted start stays explained until the pointer moves
        if ui.input(|i| i.pointer.delta() != egui::Vec2::ZERO) {
            self.pinned_hover = None;
        }
        self.hovered = self.pinned_hover.or(r.hovered);
        if playing {
            if let Some(s) = session {
                s.hovered = self.hovered;
                if self.palette.mode == Mode::Play {
                    if let Some(h) = self.hovered {
                        s.hover(h);
                    }
                    if let Some(h) = r.clicked {
                        if let Some(c) = s.click(h) {
                            play.push(c);
                        }
                    }
                }
            }
            return;
        }
        if scenario_mode {
            self.scenario_on_map(&r, cmds);
            return;
        }
        if self.tracing.picking && self.tracing.underlay.is_some() {
            if let Some(w) = r.clicked_world {
                self.pick_fit_spot(w);
            }
            return;
        }
        if self.palette.tool == Tool::Region {
            self.region.on_map(&r);
            return;
        }
        // while a place's, area's or tag's *edit hexes* is on, a click marks hexes whatever
        // tool is picked: with a brush or a link it painted or drew and the place kept its hexes
        let marking = self.show_map_data && self.map_data.target.is_some();
        if let Some(h) = r.clicked {
            self.selected = Some(h);
            if marking {
                if let Some(c) = self.map_data.on_click(&self.doc.map, h) {
                    cmds.push(c);
                }
            }
        }
        if marking {
            return;
        }
        // while painting, the inspector follows the brush
        if self.palette.tool == Tool::PaintTerrain && r.primary_down.is_some() {
            self.selected = r.primary_down;
        }
        if let Some(msg) = self.palette.on_map(&r, &self.doc, cmds) {
            self.status.info(msg);
        }
    }

    /// Scenario mode's map input: select, drag a unit to another hex, place, remove.
    fn scenario_on_map(&mut self, r: &MapResponse, cmds: &mut Vec<EditorCommand>) {
        let panel = &mut self.scenario_panel;
        let Some(def) = &self.doc.scenario else {
            return;
        };
        let map = &self.doc.map;
        let top = |h| self.doc.units.stack(h).last().map(|u| u.id.clone());
        if r.press_started {
            panel.dragging = r.primary_down.and_then(top);
        }
        if let (Some(id), Some(to)) = (panel.dragging.clone(), r.drag_released) {
            panel.dragging = None;
            let from = self.doc.units.get(&id).and_then(|u| u.hex());
            if let Some(u) = def.unit(&id).filter(|_| from != Some(to)) {
                let mut u = u.clone();
                u.placement = crate::scenario_file::Placement::At(map.label(to));
                cmds.push(EditorCommand::SetUnit {
                    id: id.clone(),
                    unit: u,
                    merge: None,
                });
                self.selected = Some(to);
                panel.picked = Some(id);
            }
            return;
        }
        let Some(h) = r.clicked else {
            return;
        };
        self.selected = Some(h);
        match panel.tool {
            ScenarioTool::Select => {
                if let Some(id) = top(h) {
                    panel.picked = Some(id);
                }
            }
            ScenarioTool::Place => {
                let Some(u) = panel.picked.as_deref().and_then(|id| def.unit(id)) else {
                    self.status
                        .info("Pick a unit in the list first, then click a hex");
                    return;
                };
                let mut u = u.clone();
                u.placement = crate::scenario_file::Placement::At(map.label(h));
                cmds.push(EditorCommand::SetUnit {
                    id: u.id.clone(),
                    unit: u,
                    merge: None,
                });
            }
            ScenarioTool::Remove => {
                if let Some(id) = top(h) {
                    cmds.push(EditorCommand::RemoveUnit { id });
                }
            }
        }
    }
}

/// See [`EditorApp::setup_markers_shown`] (apart, so the map's drawing borrows only the document).
fn setup_markers(mode: Mode, doc: &crate::document::Document) -> &[kessel_core::state::Marker] {
    if mode == Mode::Scenario {
        &doc.markers
    } else {
        &[]
    }
}

/// The map keeps at least this width (points) beside the side panel, when the window has it.
pub const MAP_MIN_WIDTH: f32 = 320.0;

/// How wide the side panel may be, given its mode's width and the room left of the window beside
/// the palette: up to 1.8 times the mode's width, but the map keeps [`MAP_MIN_WIDTH`], or in a
/// window too narrow for both, more than half the room. (The rules panel's 520 points left the
/// map a 90-point strip in an 800-pixel window.)
pub fn side_max(mode_width: f32, room: f32) -> f32 {
    (mode_width * 1.8).min((room - MAP_MIN_WIDTH).max(room * 0.45))
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.ui_root(ui);
        self.drive_screenshot(ui.ctx());
    }

    fn raw_input_hook(&mut self, _ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        if self.screenshot.is_some() {
            super::screenshot::without_pointer(raw_input);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_side_panel_leaves_the_map_room() {
        // a wide window: the mode's width and room to widen it
        assert_eq!(side_max(520.0, 1700.0), 520.0 * 1.8);
        // 800 pixels less the palette: the map keeps its minimum
        assert_eq!(side_max(520.0, 610.0), 610.0 - MAP_MIN_WIDTH);
        // too narrow for both: the map keeps more than half
        let narrow = side_max(380.0, 322.0);
        assert!(322.0 - narrow > 322.0 / 2.0, "{narrow}");
    }
}
