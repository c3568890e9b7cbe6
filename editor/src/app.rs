//! The editor application: lays out the panels each frame, collects their commands and applies
//! them after the frame. It also owns the play-test game and the file watcher: files that changed
//! on disk are reloaded at the start of a frame, before anything is drawn.

use crate::command::EditorCommand;
use crate::document::{write_atomic, Document, SaveOutcome};
use crate::map_view::{MapView, Overlay, Scene};
use crate::panels::scenario::{RulesetNames, ScenarioTool};
use crate::panels::{
    Inspector, LogPanel, MapDataPanel, Mode, Palette, PlayPanel, RulesPanel, ScenarioPanel,
    StatusBar, Tool,
};
use crate::play::{PlayCommand, PlaySession};
use crate::reload::{clock_now, Changes, Watched, Watcher};
use crate::validate::Validator;
use egui::{Color32, Key, KeyboardShortcut, Modifiers, RichText, Ui};
use kessel_core::hex::Hex;
use kessel_core::options::Profile;
use kessel_core::ruleset::Ruleset;
use kessel_core::script::display_path;
use kessel_draw::MapStyle;
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
    delay: Option<std::time::Instant>,
    frames: u32,
    requested: bool,
    outcome: ScreenshotOutcome,
}

/// A file problem shown in the error panel until a later reload fixes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What failed, and what the editor did about it.
    pub title: String,
    /// `file:line`, when known.
    pub location: Option<String>,
    /// The message.
    pub message: String,
}

/// The problems of the last reloads, by what they concern.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problems {
    /// The ruleset's scripts.
    pub rules: Option<Problem>,
    /// The scenario or map files.
    pub scenario: Option<Problem>,
}

impl Problems {
    /// True when every file loaded.
    pub fn is_empty(&self) -> bool {
        self.rules.is_none() && self.scenario.is_none()
    }
}

/// The profile the user picked: none yet (the scenario's own), the defaults, or a named one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ProfileChoice {
    /// The scenario's profile.
    #[default]
    Scenario,
    /// Every option at its default.
    Defaults,
    /// A profile of the ruleset.
    Named(String),
}

/// A scripted start: a mode, actions to take, a stack to select, an attack to declare, a hex to
/// point at, a view to show. For screenshots of each mode without a person at the mouse.
#[derive(Clone, Debug, Default)]
pub struct Startup {
    /// Mode to open in.
    pub mode: Option<Mode>,
    /// Actions (JSON objects with a `kind`) to take first, in order.
    pub actions: Vec<String>,
    /// Hex label whose stack to select (play-test).
    pub select: Option<String>,
    /// Hex labels of attacking stacks (play-test).
    pub attackers: Vec<String>,
    /// Hex label of the attack's target (play-test).
    pub target: Option<String>,
    /// Hex label to explain as if the pointer were on it.
    pub hover: Option<String>,
    /// Zoom (points per hex radius) centred on the selected or hovered hex.
    pub zoom: Option<f32>,
    /// Profiles to compare in the rules panel.
    pub compare: Option<(String, String)>,
    /// Seconds to wait before the screenshot (to catch a reload made meanwhile).
    pub delay: Option<f32>,
    /// A saved game to load first.
    pub load: Option<PathBuf>,
    /// Write the game here once the start is set up.
    pub save: Option<PathBuf>,
    /// Print the legal actions (JSON, one a line) once the start is set up.
    pub print_legal: bool,
    /// Profile to apply (as the rules panel would).
    pub profile: Option<String>,
    /// Options to set, `id` and value (JSON, or a plain word for a choice).
    pub options: Vec<(String, String)>,
    /// Let the ruleset's AI play (at most 3000 actions) until this step (by id) offers an
    /// attack, to reach a combat without playing one by hand.
    pub ai_until: Option<String>,
}

/// The editor: the document, the play-test game, and one struct per panel.
pub struct EditorApp {
    /// The open document.
    pub doc: Document,
    /// The map canvas.
    pub map_view: MapView,
    /// Tool palette (and the mode switch).
    pub palette: Palette,
    /// Inspector panel.
    pub inspector: Inspector,
    /// Status bar.
    pub status: StatusBar,
    /// Play-test panel.
    pub play_panel: PlayPanel,
    /// Event log panel.
    pub log_panel: LogPanel,
    /// Rules panel.
    pub rules_panel: RulesPanel,
    /// Scenario editing panel.
    pub scenario_panel: ScenarioPanel,
    /// Map metadata panel.
    pub map_data: MapDataPanel,
    /// The map-editing side panel shows the map data instead of the inspector.
    pub show_map_data: bool,
    /// Validation of the edited scenario.
    pub validator: Validator,
    /// Sides and unit types the ruleset declares (read when scenario editing first needs them).
    pub ruleset_names: Option<RulesetNames>,
    /// The hex the inspector shows.
    pub selected: Option<Hex>,
    /// The play-test game, started when play-test or rules mode first needs it.
    pub session: Option<PlaySession>,
    /// Why the game could not start (shown until a reload or a retry succeeds).
    pub session_error: Option<String>,
    /// The profile picked in the rules panel.
    pub profile: ProfileChoice,
    /// Seed of new games.
    pub seed: u64,
    /// Reload problems, shown in the error panel.
    pub problems: Problems,
    /// The file watcher (none if it could not start).
    pub watcher: Option<Watcher>,
    /// The File → Open… dialog: the path being typed, while it is open.
    pub open_dialog: Option<String>,
    /// Successful rule reloads so far (tests and benchmarks wait on it).
    pub rule_reloads: u64,
    /// How the ruleset says the map and counters look: built once per ruleset load, shared
    /// with the canvas and the panels (the same model `kessel render` draws from).
    pub style: Arc<MapStyle>,
    hovered: Option<Hex>,
    pinned_hover: Option<Hex>,
    start_attempted: bool,
    needs_refresh: bool,
    screenshot: Option<ScreenshotJob>,
}

impl EditorApp {
    /// An editor on a document, watching its files for changes.
    pub fn new(doc: Document) -> EditorApp {
        let mut app = EditorApp::without_watcher(doc);
        let watched = app.watched();
        match Watcher::start(watched) {
            Ok(w) => app.watcher = Some(w),
            Err(e) => app
                .status
                .error(format!("hot reload is off: cannot watch the files ({e:#})")),
        }
        app
    }

    /// An editor on a document with no file watcher (benchmarks; tests that reload by hand).
    pub fn without_watcher(doc: Document) -> EditorApp {
        let mut rules_panel = RulesPanel::default();
        if let Some(dir) = &doc.ruleset_dir {
            rules_panel.refresh(dir);
        }
        let style = Arc::new(style_of(&doc, None));
        EditorApp {
            style,
            doc,
            map_view: MapView::default(),
            palette: Palette::default(),
            inspector: Inspector::default(),
            status: StatusBar::default(),
            play_panel: PlayPanel::default(),
            log_panel: LogPanel::default(),
            rules_panel,
            scenario_panel: ScenarioPanel::default(),
            map_data: MapDataPanel::default(),
            show_map_data: false,
            validator: Validator::default(),
            ruleset_names: None,
            selected: None,
            session: None,
            session_error: None,
            profile: ProfileChoice::Scenario,
            seed: 1,
            problems: Problems::default(),
            watcher: None,
            rule_reloads: 0,
            hovered: None,
            pinned_hover: None,
            start_attempted: false,
            needs_refresh: false,
            screenshot: None,
            open_dialog: None,
        }
    }

    /// The files the watcher should follow for this document.
    pub fn watched(&self) -> Watched {
        let mut scenario_files = vec![self.doc.map_path.clone()];
        if let Some(p) = &self.doc.scenario_path {
            scenario_files.insert(0, p.clone());
        }
        Watched {
            ruleset_dir: self.doc.ruleset_dir.clone(),
            scenario_files,
            script_files: self.doc.scenario_scripts.clone(),
        }
    }

    /// Asks for a screenshot once the first frames have settled; the window closes after it.
    pub fn take_screenshot(&mut self, path: PathBuf, outcome: ScreenshotOutcome) {
        self.screenshot = Some(ScreenshotJob {
            path,
            delay: None,
            frames: 0,
            requested: false,
            outcome,
        });
    }

    /// Applies a scripted start (see [`Startup`]).
    pub fn startup(&mut self, st: Startup) -> anyhow::Result<()> {
        let parse = |label: &str| {
            self.doc
                .map
                .parse(label)
                .ok_or_else(|| anyhow::anyhow!("`{label}` is not a hex of this map"))
        };
        let select = st.select.as_deref().map(parse).transpose()?;
        let hover = st.hover.as_deref().map(parse).transpose()?;
        let target = st.target.as_deref().map(parse).transpose()?;
        let attackers = st
            .attackers
            .iter()
            .map(|l| parse(l))
            .collect::<anyhow::Result<Vec<Hex>>>()?;
        if let Some(mode) = st.mode {
            self.set_mode(mode);
        }
        if let Some((a, b)) = st.compare {
            self.rules_panel.comparing = true;
            self.rules_panel.compare_a = a;
            self.rules_panel.compare_b = b;
        }
        if let Some(delay) = st.delay {
            if let Some(job) = &mut self.screenshot {
                job.delay =
                    Some(std::time::Instant::now() + std::time::Duration::from_secs_f32(delay));
            }
        }
        let focus = select.or(hover).or(target);
        if let (Some(z), Some(h)) = (st.zoom, focus) {
            self.map_view.focus_on_next_frame(h, z);
        }
        if let Some(h) = select {
            // map and scenario editing show the selected hex in the inspector
            self.selected = Some(h);
        }
        let Some(s) = &mut self.session else {
            return Ok(());
        };
        if let Some(p) = &st.load {
            s.load(p).map_err(anyhow::Error::msg)?;
        }
        let mut cmds = Vec::new();
        if let Some(p) = &st.profile {
            cmds.push(PlayCommand::ApplyProfile(Some(p.clone())));
        }
        for (id, text) in &st.options {
            let v = serde_json::from_str(text)
                .unwrap_or_else(|_| serde_json::Value::String(text.clone()));
            cmds.push(PlayCommand::SetOption(id.clone(), v));
        }
        if !cmds.is_empty() {
            self.apply_play(cmds);
        }
        let Some(s) = &mut self.session else {
            return Ok(());
        };
        if let Some(step) = &st.ai_until {
            ai_until(s, step)?;
        }
        for text in &st.actions {
            let v: serde_json::Value =
                serde_json::from_str(text).map_err(|e| anyhow::anyhow!("action {text}: {e}"))?;
            let mut obj = match v {
                serde_json::Value::Object(o) => o,
                _ => anyhow::bail!("action {text}: not a JSON object"),
            };
            let kind = match obj.remove("kind") {
                Some(serde_json::Value::String(k)) => k,
                _ => anyhow::bail!("action {text}: no \"kind\""),
            };
            let action = kessel_core::action::Action {
                kind,
                params: obj.into_iter().collect(),
            };
            s.act(&action);
        }
        if let Some(p) = &st.save {
            s.save(p)?;
        }
        if st.print_legal {
            for a in s
                .engine
                .legal_actions(None)
                .map_err(|e| anyhow::anyhow!("{e}"))?
            {
                println!("{}", serde_json::to_string(&a)?);
            }
        }
        if let Some(h) = select {
            s.select(h);
        }
        for h in attackers {
            s.interaction = crate::play::Interaction::Attack;
            s.toggle_attackers(h);
        }
        if let Some(h) = target {
            s.toggle_target(h);
        }
        if let Some(h) = hover {
            s.hovered = Some(h);
            s.hover(h);
            self.pinned_hover = Some(h);
        }
        Ok(())
    }

    /// Switches mode (starting the play-test game if the mode needs it).
    pub fn set_mode(&mut self, mode: Mode) {
        self.palette.mode = mode;
        self.ensure_session();
        self.enter_scenario_mode();
    }

    /// On entering scenario editing: read the ruleset's names once and check the scenario.
    fn enter_scenario_mode(&mut self) {
        if self.palette.mode != Mode::Scenario || self.ruleset_names.is_some() {
            return;
        }
        let mut names = RulesetNames::default();
        if let Some(dir) = &self.doc.ruleset_dir {
            match kessel_core::engine::Engine::bare(dir, kessel_core::script::Limits::default()) {
                Ok(e) => {
                    let r = e.ruleset();
                    names.sides = r.sides.clone();
                    names.unit_types = r.unit_types.keys().cloned().collect();
                }
                Err(e) => self.status.error(format!(
                    "the ruleset did not load, so its unit types are not offered: {e}"
                )),
            }
        }
        self.ruleset_names = Some(names);
        self.validator.schedule();
    }

    /// Starts the play-test game if play-test or rules mode needs one and none is running. A
    /// failed start is tried again only after a file changes or the user asks.
    pub fn ensure_session(&mut self) {
        let editing = matches!(self.palette.mode, Mode::Edit | Mode::Scenario);
        if editing || self.session.is_some() || self.start_attempted {
            return;
        }
        self.start_attempted = true;
        self.start_session();
    }

    fn start_session(&mut self) {
        let profile = match &self.profile {
            ProfileChoice::Named(p) => Some(p.as_str()),
            _ => None,
        };
        match PlaySession::start(&self.doc, profile, self.seed) {
            Ok(mut s) => {
                if self.profile == ProfileChoice::Defaults {
                    if let Err(e) = s.engine.apply_profile(None) {
                        self.status.error(e.to_string());
                    }
                    s.refresh();
                }
                if let Some(old) = &self.session {
                    s.save_path = old.save_path.clone();
                }
                self.rules_panel.refresh(s.engine.ruleset_dir());
                self.session = Some(s);
                self.session_error = None;
                self.problems.rules = None;
            }
            Err(e) => {
                let e = tidy_paths_in(&e);
                self.session = None;
                self.session_error = Some(e.clone());
                self.problems.rules = Some(Problem {
                    title: "The play-test game could not start".into(),
                    location: location_of(&e),
                    message: e,
                });
            }
        }
    }

    /// Draws one frame into `ui` and applies the commands it produced. Independent of eframe so
    /// tests can drive it through `egui_kittest`.
    pub fn ui_root(&mut self, ui: &mut Ui) {
        self.poll_reload(ui.ctx());
        if self.needs_refresh && !ui.ctx().input(|i| i.pointer.any_down()) {
            // option changes while a value is dragged wait for the release: a refresh asks the
            // rules for every legal action, too slow to repeat on every frame of a drag
            self.needs_refresh = false;
            if let Some(s) = &mut self.session {
                s.refresh();
            }
        }
        let mode_before = self.palette.mode;
        let mut cmds = Vec::new();
        let mut play = Vec::new();
        self.shortcuts(ui, &mut cmds, &mut play);

        egui::Panel::top("menu").show(ui, |ui| self.menu_ui(ui, &mut cmds));
        if self.open_dialog.is_some() {
            self.open_dialog_ui(ui.ctx());
        }
        if !self.problems.is_empty() {
            egui::Panel::top("errors")
                .frame(
                    egui::Frame::default()
                        .fill(Color32::from_rgb(90, 28, 28))
                        .inner_margin(8.0),
                )
                .show(ui, |ui| self.errors_ui(ui));
        }
        self.status.hover_note = None;
        if self.palette.mode == Mode::Play {
            if let Some(s) = &mut self.session {
                self.status.hover_note =
                    s.hovered.and_then(|_| s.hovered_text().map(str::to_string));
            }
        }
        egui::Panel::bottom("status").show(ui, |ui| {
            self.status
                .ui(ui, &self.doc, self.hovered, self.map_view.zoom);
        });
        if self.palette.mode == Mode::Play {
            if let Some(s) = &self.session {
                let log = s.engine.log();
                let map = s.engine.state().map.clone();
                egui::Panel::bottom("log")
                    .resizable(true)
                    .default_size(170.0)
                    .show(ui, |ui| self.log_panel.ui(ui, &map, &log));
            }
        }
        egui::Panel::left("palette")
            .resizable(false)
            .exact_size(190.0)
            .show(ui, |ui| {
                self.palette
                    .ui(ui, &self.doc, &self.style, &mut self.map_view)
            });
        if self.palette.mode != mode_before {
            self.ensure_session();
            self.enter_scenario_mode();
        }
        if self.validator.poll(&self.doc, ui.ctx()) {
            ui.ctx().request_repaint();
        }
        if self.palette.mode == Mode::Scenario && self.doc.scenario.is_some() {
            egui::Panel::bottom("problems")
                .resizable(true)
                .default_size(90.0)
                .show(ui, |ui| self.problems_ui(ui));
        }
        let side_width = match self.palette.mode {
            Mode::Edit => 300.0,
            Mode::Scenario => 430.0,
            Mode::Play => 380.0,
            Mode::Rules => 520.0,
        };
        // one panel id per mode, so each keeps the width the user gave it
        egui::Panel::right(("side", self.palette.mode.label()))
            .resizable(true)
            .default_size(side_width)
            .max_size(side_width * 1.8)
            .show(ui, |ui| self.side_ui(ui, &mut cmds, &mut play));
        egui::CentralPanel::no_frame().show(ui, |ui| self.map_ui(ui, &mut cmds, &mut play));

        let changed = !cmds.is_empty() || !play.is_empty();
        self.apply(cmds);
        self.apply_play(play);
        // what the game did goes to the status bar once (an error there is not overwritten)
        if let Some((m, is_error)) = self.session.as_mut().and_then(|s| s.message.take()) {
            if is_error {
                self.status.error(m);
            } else {
                self.status.info(m);
            }
        }
        if changed {
            // the commands were applied after the panels were drawn: show their outcome now
            ui.ctx().request_repaint();
        }
    }

    fn side_ui(&mut self, ui: &mut Ui, cmds: &mut Vec<EditorCommand>, play: &mut Vec<PlayCommand>) {
        match self.palette.mode {
            Mode::Edit => {
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut self.show_map_data, false, "Inspector");
                    ui.selectable_value(&mut self.show_map_data, true, "Map data");
                });
                ui.separator();
                if self.show_map_data {
                    egui::ScrollArea::vertical()
                        .auto_shrink([false, false])
                        .show(ui, |ui| {
                            self.map_data.ui(ui, &self.doc, self.selected, cmds);
                        });
                } else {
                    self.inspector.ui(ui, &self.doc, &self.style, self.selected);
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
                let names = self.ruleset_names.clone().unwrap_or_default();
                self.scenario_panel.ui(ui, &self.doc, &names, cmds);
            }
            Mode::Play | Mode::Rules => {
                let Some(s) = &mut self.session else {
                    ui.heading(self.palette.mode.label());
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
                };
                if self.palette.mode == Mode::Play {
                    self.play_panel.ui(ui, s, &self.style, play);
                } else {
                    let options = s.engine.options();
                    let engine = &s.engine;
                    let read = |name: &str| engine.read_profile(name).map_err(|e| e.to_string());
                    self.rules_panel
                        .ui(ui, &options, s.engine.profile_arg(), &read, play);
                }
            }
        }
    }

    fn map_ui(&mut self, ui: &mut Ui, cmds: &mut Vec<EditorCommand>, play: &mut Vec<PlayCommand>) {
        let playing = matches!(self.palette.mode, Mode::Play | Mode::Rules);
        let scenario_mode = self.palette.mode == Mode::Scenario;
        let problems = if scenario_mode {
            self.validator.hexes()
        } else {
            Vec::new()
        };
        let marked = if self.palette.mode == Mode::Edit && self.show_map_data {
            self.map_data.marked(&self.doc.map)
        } else {
            Vec::new()
        };
        let session = if playing { self.session.as_mut() } else { None };
        let overlay: Option<Overlay> = match &session {
            Some(s) if self.palette.mode == Mode::Play => Some(s.overlay(self.hovered)),
            _ => None,
        };
        let (units, markers) = match &session {
            Some(s) => (&s.units, s.markers.as_slice()),
            None => (&self.doc.units, &[][..]),
        };
        let scene = Scene {
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
        if let Some(h) = r.clicked {
            self.selected = Some(h);
            if self.show_map_data && self.palette.tool == Tool::View {
                if let Some(c) = self.map_data.on_click(&self.doc.map, h) {
                    cmds.push(c);
                }
            }
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
    fn scenario_on_map(&mut self, r: &crate::map_view::MapResponse, cmds: &mut Vec<EditorCommand>) {
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

    /// The validation panel: every problem of the edited scenario, clickable.
    fn problems_ui(&mut self, ui: &mut Ui) {
        let v = &self.validator;
        ui.horizontal(|ui| {
            ui.heading("Problems");
            let state = if v.busy {
                "checking…".to_string()
            } else if v.runs == 0 {
                "not checked yet".to_string()
            } else if v.issues.is_empty() {
                "none — the scenario passes kessel check".to_string()
            } else {
                format!("{}", v.issues.len())
            };
            ui.label(state);
        });
        let mut pick = None;
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for (i, issue) in self.validator.issues.iter().enumerate() {
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
                self.scenario_panel.picked = Some(u);
                self.scenario_panel.tab = crate::panels::scenario::ScenarioTab::Units;
            }
        }
    }

    fn errors_ui(&mut self, ui: &mut Ui) {
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

    fn shortcuts(&mut self, ui: &Ui, cmds: &mut Vec<EditorCommand>, play: &mut Vec<PlayCommand>) {
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
    fn open_dialog_ui(&mut self, ctx: &egui::Context) {
        let mut open = false;
        let mut cancel = false;
        egui::Window::new("Open a scenario or map")
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                if let Some(path) = &mut self.open_dialog {
                    ui.label("Scenario or map file (TOML):");
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
        } else if open {
            let path = PathBuf::from(self.open_dialog.clone().unwrap_or_default());
            match Document::open(&path) {
                Ok(doc) => {
                    *self = EditorApp::new(doc);
                    self.status.info(format!("Opened {}", path.display()));
                }
                Err(e) => self.status.error(format!("Cannot open: {e:#}")),
            }
        }
    }

    fn menu_ui(&mut self, ui: &mut Ui, cmds: &mut Vec<EditorCommand>) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("Open…").clicked() {
                    let current = self
                        .doc
                        .scenario_path
                        .as_ref()
                        .unwrap_or(&self.doc.map_path);
                    self.open_dialog = Some(current.display().to_string());
                }
                if ui.button("Save  (Ctrl+S)").clicked() {
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
                EditorCommand::Undo => match self.doc.undo() {
                    Some(label) => {
                        self.validator.schedule();
                        self.status.info(format!("Undid: {label}"))
                    }
                    None => self.status.info("Nothing to undo"),
                },
                EditorCommand::Redo => match self.doc.redo() {
                    Some(label) => {
                        self.validator.schedule();
                        self.status.info(format!("Redid: {label}"))
                    }
                    None => self.status.info("Nothing to redo"),
                },
                EditorCommand::Save => match self.doc.save() {
                    Ok(SaveOutcome::Unchanged) => self.status.info("No changes to save"),
                    Ok(SaveOutcome::Written(paths)) => {
                        // our own write must not come back as a change to reload
                        if let Some(w) = &mut self.watcher {
                            for p in &paths {
                                w.note_written(p);
                            }
                        }
                        self.status.info(format!("Saved {}", paths_text(&paths)))
                    }
                    Err(e) => self.status.error(format!("Save failed: {e:#}")),
                },
                edit => match self.doc.edit(edit) {
                    Ok(true) => {
                        self.validator.schedule();
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

    /// Applies the play-test and rules commands collected during the frame.
    pub fn apply_play(&mut self, cmds: Vec<PlayCommand>) {
        for cmd in cmds {
            if cmd == PlayCommand::NewGame {
                if let Some(s) = &self.session {
                    self.seed = s.seed;
                }
                self.start_session();
                if self.session.is_some() {
                    self.status.info(format!("new game, seed {}", self.seed));
                }
                continue;
            }
            let Some(s) = &mut self.session else {
                continue;
            };
            match cmd {
                PlayCommand::Act(a) => s.act(&a),
                PlayCommand::Undo => s.undo(),
                PlayCommand::NewGame => {}
                PlayCommand::SaveGame(p) => {
                    if let Err(e) = s.save(&p) {
                        self.status.error(format!("cannot save the game: {e:#}"));
                    }
                }
                PlayCommand::LoadGame(p) => {
                    if let Err(e) = s.load(&p) {
                        self.status
                            .error(format!("cannot load {}: {e}", p.display()));
                    }
                }
                PlayCommand::ApplyProfile(p) => {
                    self.profile = match &p {
                        Some(name) => ProfileChoice::Named(name.clone()),
                        None => ProfileChoice::Defaults,
                    };
                    match s.engine.apply_profile(p.as_deref()) {
                        Ok(()) => {
                            self.status
                                .info(format!("profile {}", p.as_deref().unwrap_or("(defaults)")));
                            s.refresh();
                        }
                        Err(e) => self.status.error(e.to_string()),
                    }
                }
                PlayCommand::SetOption(id, v) => match s.engine.set_option(&id, v.clone()) {
                    Ok(()) => {
                        self.status.info(format!(
                            "option {id} = {}",
                            crate::panels::rules::value_text(Some(&v))
                        ));
                        self.needs_refresh = true;
                    }
                    Err(e) => self.status.error(e),
                },
                PlayCommand::SaveProfile { name, description } => {
                    match save_profile(s, &name, &description) {
                        Ok(path) => {
                            if let Some(w) = &mut self.watcher {
                                w.note_written(&path);
                            }
                            self.rules_panel.refresh(s.engine.ruleset_dir());
                            self.rules_panel.new_name.clear();
                            self.status
                                .info(format!("profile saved to {}", display_path(&path)));
                        }
                        Err(e) => self.status.error(format!("cannot save the profile: {e:#}")),
                    }
                }
            }
        }
    }

    /// Drains the watcher and applies what changed on disk.
    fn poll_reload(&mut self, ctx: &egui::Context) {
        let Some(w) = &mut self.watcher else {
            return;
        };
        w.set_waker(ctx);
        for e in w.take_errors() {
            self.status.error(format!("file watcher: {e}"));
        }
        let changes = w.poll();
        if !changes.is_empty() {
            self.apply_changes(changes);
        }
    }

    /// Applies file changes: the scenario first (a new set-up), then the rules, then profiles.
    pub fn apply_changes(&mut self, changes: Changes) {
        if !changes.scenario.is_empty() {
            self.reload_document(&changes.scenario);
        }
        if !changes.rules.is_empty() {
            self.reload_rules(&changes.rules);
        }
        if !changes.profiles.is_empty() {
            if let Some(dir) = self.doc.ruleset_dir.clone() {
                self.rules_panel.refresh(&dir);
            }
            self.status.reload_note = Some(format!(
                "profiles reloaded {} ({})",
                clock_now(),
                paths_text(&changes.profiles)
            ));
        }
    }

    fn reload_rules(&mut self, paths: &[PathBuf]) {
        let what = paths_text(paths);
        let Some(s) = &mut self.session else {
            // no game yet: the rules load fresh when one starts; a failed start is retried
            if self.session_error.is_some() {
                self.start_attempted = false;
                self.ensure_session();
                if self.session.is_some() {
                    self.status.reload_note =
                        Some(format!("rules reloaded {} ({what})", clock_now()));
                }
            }
            return;
        };
        match s.engine.reload_rules() {
            Ok(()) => {
                s.refresh();
                self.style = Arc::new(style_of(&self.doc, Some(&s.engine.ruleset())));
                self.rule_reloads += 1;
                self.problems.rules = None;
                self.status.reload_failed = false;
                self.status.reload_note = Some(format!("rules reloaded {} ({what})", clock_now()));
            }
            Err(e) => {
                let location = match (&e.file, e.line) {
                    (Some(f), Some(l)) => Some(format!("{}:{l}", tidy_path(f))),
                    (Some(f), None) => Some(tidy_path(f)),
                    _ => None,
                };
                let mut message = tidy_paths_in(&e.message);
                // the location has a line of its own: don't repeat it before the message
                if let Some(rest) = location
                    .as_deref()
                    .and_then(|l| message.strip_prefix(&format!("{l}: ")))
                {
                    message = rest.to_string();
                }
                self.problems.rules = Some(Problem {
                    title: "The rules failed to reload — the last good rules stay live".into(),
                    location,
                    message,
                });
                self.status.reload_failed = true;
                self.status.reload_note =
                    Some(format!("rules reload failed {} ({what})", clock_now()));
            }
        }
    }

    fn reload_document(&mut self, paths: &[PathBuf]) {
        let what = paths_text(paths);
        if self.doc.is_dirty() {
            self.status.error(format!(
                "{what} changed on disk, but the map has unsaved edits: not reloaded (save or undo them first)"
            ));
            return;
        }
        let path = self
            .doc
            .scenario_path
            .clone()
            .unwrap_or_else(|| self.doc.map_path.clone());
        match Document::open(&path) {
            Ok(doc) => {
                self.doc = doc;
                self.style = Arc::new(style_of(&self.doc, None));
                if self.selected.is_some_and(|h| !self.doc.map.contains(h)) {
                    self.selected = None;
                }
                self.problems.scenario = None;
                self.status.reload_failed = false;
                let mut note = format!("scenario reloaded {} ({what})", clock_now());
                let in_progress = self.session.as_ref().is_some_and(PlaySession::in_progress);
                if in_progress {
                    note.push_str(
                        "; the game in progress keeps its set-up (New game uses the new one)",
                    );
                } else if self.session.is_some() || self.session_error.is_some() {
                    self.start_session();
                }
                self.status.reload_note = Some(note);
            }
            Err(e) => {
                let message = format!("{e:#}");
                self.status.reload_failed = true;
                self.problems.scenario = Some(Problem {
                    title: "The scenario failed to reload — the editor keeps the last good one"
                        .into(),
                    location: location_of(&message),
                    message,
                });
                self.status.reload_note =
                    Some(format!("scenario reload failed {} ({what})", clock_now()));
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
        let waiting = job.delay.is_some_and(|t| std::time::Instant::now() < t);
        if waiting {
            job.frames = 0;
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

/// The drawing model's style for a document: from `ruleset` when the caller has it loaded,
/// otherwise from the document's ruleset folder; a ruleset that does not load draws with the
/// fallbacks. Sides the ruleset does not declare follow in the order the units show them.
fn style_of(doc: &Document, ruleset: Option<&Ruleset>) -> MapStyle {
    let loaded;
    let ruleset = match ruleset {
        Some(r) => Some(r),
        None => {
            loaded = doc.ruleset_dir.as_deref().and_then(|dir| {
                kessel_core::engine::Engine::bare(dir, kessel_core::script::Limits::default())
                    .ok()
                    .map(|e| e.ruleset())
            });
            loaded.as_ref()
        }
    };
    let style = ruleset.map(MapStyle::from_ruleset).unwrap_or_default();
    style.with_sides(doc.sides.iter().map(String::as_str))
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

/// Plays the ruleset's AI until the step `step_id` offers an attack.
fn ai_until(s: &mut PlaySession, step_id: &str) -> anyhow::Result<()> {
    for _ in 0..3000 {
        let legal = s
            .engine
            .legal_actions(None)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let here = {
            let w = s.engine.world().borrow();
            w.ruleset
                .step(w.state.phase)
                .is_some_and(|st| st.id == step_id)
        };
        if here && legal.iter().any(|a| a.kind == "attack") {
            s.refresh();
            return Ok(());
        }
        anyhow::ensure!(!legal.is_empty(), "the rules list no action");
        let action = match s.engine.ai_pick().map_err(|e| anyhow::anyhow!("{e}"))? {
            Some(action) => action,
            // no AI opinion: the first listed action, as deterministic as the list
            None => legal[0].clone(),
        };
        let outcome = s.engine.act(&action).map_err(|e| anyhow::anyhow!("{e}"))?;
        if let Err(r) = outcome {
            anyhow::bail!("the AI's choice was refused: {r}");
        }
    }
    anyhow::bail!("no attack offered in step `{step_id}` within 3000 actions")
}

/// Paths as the status bar shows them: relative to the working directory, comma-separated.
fn paths_text(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| display_path(p))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `scenarios/pgg/../../scripts/pgg/x.lua` → `scripts/pgg/x.lua`: a path as people write it.
/// Lexical only (no file system), which is right for display.
fn tidy_path(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "." if !out.is_empty() => {}
            ".." if out.last().is_some_and(|l| *l != ".." && !l.is_empty()) => {
                out.pop();
            }
            _ => out.push(part),
        }
    }
    out.join("/")
}

/// [`tidy_path`] applied to every word of a message that walks up with `/../`.
fn tidy_paths_in(message: &str) -> String {
    message
        .split(' ')
        .map(|w| {
            if w.contains("/../") {
                tidy_path(w)
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The first `file.ext:line` a message names, if any.
fn location_of(message: &str) -> Option<String> {
    message.split_whitespace().find_map(|w| {
        let w = w.trim_end_matches(':');
        let (file, line) = w.rsplit_once(':')?;
        let is_file = [".lua", ".toml"].iter().any(|x| file.ends_with(x));
        (is_file && !line.is_empty() && line.chars().all(|c| c.is_ascii_digit()))
            .then(|| w.to_string())
    })
}

/// Writes the options in force as `<ruleset>/profiles/<name>.toml`, after checking the text
/// reads back as the same values.
fn save_profile(s: &PlaySession, name: &str, description: &str) -> anyhow::Result<PathBuf> {
    let dir = s.engine.ruleset_dir().to_path_buf();
    let path = crate::panels::rules::check_profile_name(&dir, name).map_err(anyhow::Error::msg)?;
    let options = s.engine.options();
    let text = crate::panels::rules::profile_toml(name, description, &options);
    let parsed =
        Profile::parse(&path, &text, &options.decls).map_err(|e| anyhow::anyhow!("{e}"))?;
    let back = kessel_core::options::Options::with_profile(options.decls.clone(), &parsed);
    anyhow::ensure!(
        back.values == options.values,
        "the profile text does not read back as the options in force"
    );
    write_atomic(&path, text.as_bytes())?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_are_found_in_messages() {
        assert_eq!(
            location_of("rules/play.lua:12: unexpected symbol near 'x'").as_deref(),
            Some("rules/play.lua:12")
        );
        assert_eq!(
            location_of("scenario.toml:3: unknown key").as_deref(),
            Some("scenario.toml:3")
        );
        assert_eq!(location_of("no place here"), None);
    }

    #[test]
    fn paths_are_tidied_for_display() {
        assert_eq!(
            tidy_path("scenarios/pgg/../../scripts/pgg/rules/zoc.lua"),
            "scripts/pgg/rules/zoc.lua"
        );
        assert_eq!(tidy_path("../x/./y.lua"), "../x/y.lua");
        assert_eq!(
            tidy_paths_in("a/b/../c.lua:3: unexpected symbol"),
            "a/c.lua:3: unexpected symbol"
        );
    }

    #[test]
    fn paths_are_listed_relative() {
        let p = std::env::current_dir().expect("cwd").join("x/y.lua");
        assert_eq!(paths_text(&[p]), "x/y.lua");
    }
}
