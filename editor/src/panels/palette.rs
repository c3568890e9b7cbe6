//! The tool palette (left panel): pick a tool and its brush, and turn map layers on and off.
//! It also turns clicks on the map into edit commands for the active tool.

use crate::command::EditorCommand;
use crate::document::Document;
use crate::map_view::{MapResponse, MapView};
use crate::paint;
use egui::{Sense, Stroke, Ui, Vec2};
use kessel_core::hex::{Hex, Hexside};
use kessel_draw::MapStyle;

/// What the editor is doing: editing the map, play-testing the scenario, or setting its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Edit the map with the tools.
    Edit,
    /// Edit the scenario: units, reinforcements, victory conditions.
    Scenario,
    /// Play the scenario through the engine.
    Play,
    /// Choose the profile and options.
    Rules,
}

impl Mode {
    /// Name shown on the palette.
    pub fn label(self) -> &'static str {
        match self {
            Mode::Edit => "Edit map",
            Mode::Scenario => "Edit scenario",
            Mode::Play => "Play-test",
            Mode::Rules => "Rules",
        }
    }

    /// The mode a command-line word names (`map`, `scenario`, `play`, `rules`; `edit` is
    /// accepted for `map`).
    pub fn from_arg(word: &str) -> Option<Mode> {
        match word {
            "map" | "edit" => Some(Mode::Edit),
            "scenario" => Some(Mode::Scenario),
            "play" => Some(Mode::Play),
            "rules" => Some(Mode::Rules),
            _ => None,
        }
    }
}

/// What a click on the map does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Select hexes and stacks; drag pans.
    View,
    /// Paint the chosen terrain (click or drag).
    PaintTerrain,
    /// Paint the chosen terrain over the clicked hex and every hex joined to it through hexes
    /// of the same terrain.
    Fill,
    /// Toggle the chosen hexside feature on the edge clicked; drag along edges to trace it.
    Hexside,
    /// Click a hex, then an adjacent one, to toggle a link between them; drag from hex to hex
    /// to trace one.
    Link,
    /// Drag a rectangle to cut a region into a new scenario.
    Region,
    /// Place units (not yet available).
    PlaceUnit,
}

impl Tool {
    /// Name shown on the palette.
    pub fn label(self) -> &'static str {
        match self {
            Tool::View => "View",
            Tool::PaintTerrain => "Paint terrain",
            Tool::Fill => "Fill terrain",
            Tool::Region => "New scenario from region",
            Tool::Hexside => "Hexside feature",
            Tool::Link => "Link",
            Tool::PlaceUnit => "Place unit",
        }
    }
}

/// The palette's state.
#[derive(Clone, Debug)]
pub struct Palette {
    /// Active mode.
    pub mode: Mode,
    /// Active tool.
    pub tool: Tool,
    /// Terrain the paint tool lays down.
    pub terrain: String,
    /// Hexside feature kind the hexside tool toggles.
    pub side_kind: String,
    /// Link kind the link tool toggles.
    pub link_kind: String,
    /// First hex of a link being drawn.
    pub link_from: Option<Hex>,
    /// What the drag under way does to the sides or links it passes: add (`true`) or erase,
    /// decided by the first one it touches.
    trace_on: Option<bool>,
    /// The last hex a link drag passed.
    trace_last: Option<Hex>,
    /// Something was traced in the drag under way (its release is then no click).
    traced: bool,
    /// The primary button is held on the map (tracing brushes).
    dragging: bool,
    /// Why play-test is not offered now (the app sets it each frame); the button is disabled
    /// and says why on hover.
    pub play_blocked: Option<String>,
    /// What clicks do in play-test now (the app sets it each frame from the game's step).
    pub play_help: std::borrow::Cow<'static, str>,
    stroke: u64,
}

impl Default for Palette {
    fn default() -> Self {
        Palette {
            mode: Mode::Edit,
            tool: Tool::View,
            terrain: "forest".into(),
            side_kind: "river".into(),
            link_kind: "road".into(),
            link_from: None,
            trace_on: None,
            trace_last: None,
            traced: false,
            dragging: false,
            play_blocked: None,
            play_help: crate::play::MOVE_HELP.into(),
            stroke: 0,
        }
    }
}

/// Why a map opened alone offers neither play-test nor the rules.
pub const BARE_MAP: &str = "A map alone has no units or rules to play: open a scenario on it (File menu, Open…), or make one with the map tool New scenario from region, or with kessel new scenario DIR --map FILE --ruleset FOLDER.";

/// Kinds offered when the ruleset declares none (a map opened alone, a ruleset that did not
/// load); the map's own kinds are added to them.
const TERRAINS: [&str; 4] = ["clear", "forest", "swamp", "lake"];
const SIDE_KINDS: [&str; 2] = ["river", "lake"];
const LINK_KINDS: [&str; 2] = ["road", "railway"];

/// The kinds a brush offers: those the ruleset declares (else the stand-in `defaults`), then
/// the map's own that are not among them. A ruleset's kinds replace the stand-ins: ASL's map
/// knows no `forest`, and painting one made a problem.
fn with_defaults<'a>(
    defaults: &[&str],
    declared: impl IntoIterator<Item = &'a str>,
    found: impl IntoIterator<Item = String>,
) -> Vec<String> {
    let mut out: Vec<String> = declared.into_iter().map(str::to_string).collect();
    if out.is_empty() {
        out = defaults.iter().map(|s| s.to_string()).collect();
    }
    for f in found {
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// Keeps a brush's pick among what it offers: a pick it does not offer (the stand-in `forest`
/// on a ruleset without one) becomes the first offered.
fn keep_offered(pick: &mut String, offered: &[String]) {
    if let Some(first) = offered.first() {
        if !offered.contains(pick) {
            *pick = first.clone();
        }
    }
}

impl Palette {
    /// Draws the palette.
    fn show(&mut self, ui: &mut Ui, doc: &Document, style: &MapStyle, view: &mut MapView) {
        ui.heading("Mode");
        ui.with_layout(egui::Layout::top_down_justified(egui::Align::Min), |ui| {
            for mode in [Mode::Edit, Mode::Scenario, Mode::Play, Mode::Rules] {
                // a map alone has no game to play nor rules to switch
                let bare = (doc.scenario_path.is_none()).then(|| BARE_MAP.to_string());
                let blocked = match mode {
                    Mode::Play => self.play_blocked.as_ref().or(bare.as_ref()),
                    Mode::Rules => bare.as_ref(),
                    _ => None,
                };
                match (blocked, mode) {
                    (Some(why), _) if self.mode != mode => {
                        ui.add_enabled(false, egui::Button::selectable(false, mode.label()))
                            .on_disabled_hover_text(why.as_str());
                    }
                    _ => {
                        ui.selectable_value(&mut self.mode, mode, mode.label());
                    }
                }
            }
        });
        ui.separator();
        match self.mode {
            Mode::Edit => self.tools_ui(ui, doc, style),
            // (an extending scenario's data is read-only: the panel on the right says why)
            Mode::Scenario if !doc.scenario_bases.is_empty() => {
                ui.label("This scenario extends another and is read-only here: see the note on the right. Right-drag pans.");
            }
            Mode::Scenario => {
                ui.label("Pick a unit on the right; Place puts it on the clicked hex, Select drags a stack's top unit to another hex, Remove takes it out. Right-drag pans.");
            }
            Mode::Play => {
                ui.label(self.play_help.as_ref());
            }
            Mode::Rules => {
                ui.label("Pick a profile and flip options on the right; they apply to the play-test game at once.");
            }
        }
        ui.separator();
        ui.heading("Layers");
        ui.checkbox(&mut view.show_units, "Counters");
        ui.checkbox(&mut view.show_areas, "Entry areas");
        ui.checkbox(&mut view.show_numbers, "Hex numbers");
        if self.mode == Mode::Play {
            ui.checkbox(&mut view.show_trails, "Computer's last moves")
                .on_hover_text("The computer's last moves and attacks, numbered as in the log");
        }
        if ui.button("Fit map").clicked() {
            view.fit_on_next_frame();
        }
    }

    fn tools_ui(&mut self, ui: &mut Ui, doc: &Document, style: &MapStyle) {
        ui.heading("Tools");
        // justified: the whole row is the button, not just its text
        ui.with_layout(egui::Layout::top_down_justified(egui::Align::Min), |ui| {
            for tool in [
                Tool::View,
                Tool::PaintTerrain,
                Tool::Fill,
                Tool::Hexside,
                Tool::Link,
                Tool::Region,
            ] {
                if ui
                    .selectable_value(&mut self.tool, tool, tool.label())
                    .changed()
                {
                    self.link_from = None;
                }
            }
        });
        ui.separator();

        let map = &doc.map;
        match self.tool {
            Tool::View => {
                ui.label("Click a hex or a stack to inspect it. Drag or use the arrow keys to pan; scroll or +/- to zoom.");
            }
            Tool::Region => {
                ui.label("Drag a rectangle on the map: the panel on the right shows the cut (its printed corner labels, what it shortens) and writes it as a new scenario.");
            }
            Tool::PaintTerrain | Tool::Fill => {
                if self.tool == Tool::Fill {
                    ui.label("Click a hex: it and every hex joined to it through the same terrain take the brush's. One undo step.");
                } else {
                    // said like the other brushes: what a click and a drag do
                    ui.label("Click a hex, or drag across hexes, to give them the terrain picked below; one undo step per drag. Right-drag pans.");
                }
                ui.label("Terrain");
                let offered = with_defaults(
                    &TERRAINS,
                    style.terrain_ids(),
                    map.terrains.names().iter().cloned(),
                );
                keep_offered(&mut self.terrain, &offered);
                for t in offered {
                    ui.horizontal(|ui| {
                        let (rect, _) = ui.allocate_exact_size(Vec2::splat(14.0), Sense::hover());
                        ui.painter().rect(
                            rect,
                            2.0,
                            paint::color(style.terrain(&t).fill),
                            Stroke::new(1.0, egui::Color32::DARK_GRAY),
                            egui::StrokeKind::Inside,
                        );
                        ui.radio_value(&mut self.terrain, t.clone(), t);
                    });
                }
            }
            Tool::Hexside => {
                ui.label("Feature (click an edge, or drag along edges to trace; starting on one that has it erases)");
                let kinds = style.for_map(map);
                let found = map
                    .side_kinds
                    .names()
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| !kinds.hexsides[*k].link)
                    .map(|(_, n)| n.clone());
                let offered = with_defaults(&SIDE_KINDS, style.hexside_ids(false), found);
                keep_offered(&mut self.side_kind, &offered);
                for k in offered {
                    ui.radio_value(&mut self.side_kind, k.clone(), k);
                }
            }
            Tool::Link => {
                ui.label("Link (click a hex, then a neighbour; or drag from hex to hex)");
                let kinds = style.for_map(map);
                let found = map
                    .side_kinds
                    .names()
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| kinds.hexsides[*k].link)
                    .map(|(_, n)| n.clone());
                let offered = with_defaults(&LINK_KINDS, style.hexside_ids(true), found);
                keep_offered(&mut self.link_kind, &offered);
                for k in offered {
                    ui.radio_value(&mut self.link_kind, k.clone(), k);
                }
                if let Some(from) = self.link_from {
                    ui.label(format!("From {}", map.label(from)));
                    if ui.button("Stop drawing").clicked() {
                        self.link_from = None;
                    }
                }
            }
            Tool::PlaceUnit => {}
        }
    }

    /// Follows the primary button for the tracing brushes: a press starts a drag (a new undo
    /// step, add or erase not yet decided); a frame with the button up and no click ends it.
    fn follow_drag(&mut self, r: &MapResponse) {
        match r.primary_down {
            Some(h) if !self.dragging => {
                self.dragging = true;
                self.stroke += 1;
                self.trace_on = None;
                self.trace_last = Some(h);
                self.traced = false;
            }
            Some(_) => {}
            None if r.clicked.is_none() && r.drag_released.is_none() => {
                self.dragging = false;
                self.trace_on = None;
                self.trace_last = None;
                self.traced = false;
            }
            None => self.dragging = false,
        }
    }

    /// Turns this frame's map input into commands for the active tool; returns a status message.
    pub fn on_map(
        &mut self,
        r: &MapResponse,
        doc: &Document,
        cmds: &mut Vec<EditorCommand>,
    ) -> Option<String> {
        let map = &doc.map;
        if matches!(self.tool, Tool::Hexside | Tool::Link) {
            self.follow_drag(r);
        }
        match self.tool {
            Tool::View | Tool::PlaceUnit => None,
            Tool::PaintTerrain => {
                if r.press_started {
                    self.stroke += 1;
                }
                let hex = r.primary_down.or(r.clicked)?;
                if map.terrain_name(hex) != Some(self.terrain.as_str()) {
                    cmds.push(EditorCommand::SetTerrain {
                        hex,
                        terrain: self.terrain.clone(),
                        stroke: self.stroke,
                    });
                }
                None
            }
            Tool::Fill => {
                let at = r.clicked?;
                cmds.push(EditorCommand::FillTerrain {
                    at,
                    terrain: self.terrain.clone(),
                });
                None
            }
            Tool::Region => None,
            Tool::Hexside => {
                if let Some(side) = r.edge_down {
                    let has = map.side_has(side, &self.side_kind);
                    let on = *self.trace_on.get_or_insert(!has);
                    if has != on {
                        self.traced = true;
                        cmds.push(EditorCommand::SetHexside {
                            side,
                            kind: self.side_kind.clone(),
                            on,
                            stroke: self.stroke,
                        });
                    }
                }
                let hex = r.clicked.filter(|_| !self.traced)?;
                match r.clicked_side {
                    // a click too short to be seen held down
                    Some(side) => {
                        cmds.push(EditorCommand::ToggleHexside {
                            side,
                            kind: self.side_kind.clone(),
                        });
                        None
                    }
                    None => Some(format!(
                        "Click nearer the middle of an edge of {} to toggle a {}",
                        map.label(hex),
                        self.side_kind
                    )),
                }
            }
            Tool::Link => {
                if let (Some(from), Some(to)) = (self.trace_last, r.primary_down) {
                    if let Some(side) = Hexside::between(from, to) {
                        let has = map.side_has(side, &self.link_kind);
                        let on = *self.trace_on.get_or_insert(!has);
                        self.traced = true;
                        self.link_from = None;
                        if has != on {
                            cmds.push(EditorCommand::SetLink {
                                from,
                                to,
                                kind: self.link_kind.clone(),
                                on,
                                stroke: self.stroke,
                            });
                        }
                    }
                    // a pointer that skipped a hex starts again where it is
                    self.trace_last = Some(to);
                }
                let hex = r.clicked.filter(|_| !self.traced)?;
                match self.link_from {
                    Some(from) if from == hex => {
                        self.link_from = None;
                        Some("Link drawing stopped".into())
                    }
                    Some(from) if Hexside::between(from, hex).is_some() => {
                        cmds.push(EditorCommand::ToggleLink {
                            from,
                            to: hex,
                            kind: self.link_kind.clone(),
                        });
                        // keep going from here, so a road is drawn by clicking along it
                        self.link_from = Some(hex);
                        None
                    }
                    Some(_) | None => {
                        self.link_from = Some(hex);
                        Some(format!(
                            "{} from {}: click an adjacent hex (Esc or the same hex stops)",
                            self.link_kind,
                            map.label(hex)
                        ))
                    }
                }
            }
        }
    }
}

impl super::Panel for Palette {
    fn ui(&mut self, ui: &mut Ui, cx: &mut super::PanelCx<'_>) {
        self.show(ui, cx.doc, cx.style, cx.view);
    }
}
