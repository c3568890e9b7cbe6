//! The editor application: lays out the panels each frame, collects their commands and applies
//! them after the frame. It also owns the play-test game and the file watcher: files that changed
//! on disk are reloaded at the start of a frame, before anything is drawn.
//!
//! One file per job: `layout` (what each mode shows, map input), `menus` (menus, shortcuts,
//! dialogs, error and problem panels), `commands` (applying the frame's commands),
//! `hot_reload`, `startup` (scripted starts), `screenshot`, `messages` (paths and error
//! text for display).

/// The panels' view of the app this frame ([`crate::panels::PanelCx`]), borrowed field by field
/// so a panel (itself a field) can be drawn with it.
macro_rules! panel_cx {
    ($app:ident, $cmds:expr, $play:expr) => {
        crate::panels::PanelCx {
            doc: &$app.doc,
            style: &$app.style,
            selected: $app.selected,
            hovered: $app.hovered,
            names: $app.ruleset_names.as_ref().unwrap_or(&crate::app::NO_NAMES),
            view: &mut $app.map_view,
            session: $app.session.as_mut(),
            campaign: $app.campaign.as_ref(),
            cmds: $cmds,
            play: $play,
        }
    };
}

/// The names offered before the ruleset's are read.
static NO_NAMES: RulesetNames = RulesetNames {
    sides: Vec::new(),
    unit_types: Vec::new(),
    type_sides: std::collections::BTreeMap::new(),
    type_faces: std::collections::BTreeMap::new(),
    vars: std::collections::BTreeMap::new(),
};

mod campaign;
mod commands;
mod declared;
use declared::style_of;
mod hot_reload;
mod layout;
mod menus;
mod messages;
mod new_scenario;
mod problems;
mod save_as;
mod screenshot;
mod starting;
mod startup;
mod ui_scale;
mod underlay;

pub use layout::{side_max, MAP_MIN_WIDTH};
pub use problems::{Problem, Problems};
pub use screenshot::ScreenshotOutcome;
pub use startup::Startup;
pub use ui_scale::{default_settings_file, saved_ui_scale, set_settings_file, UI_SCALES};
pub use underlay::Tracing;

use crate::document::Document;
use crate::map_view::MapView;
use crate::panels::scenario::RulesetNames;
use crate::panels::{
    Inspector, LogPanel, MapDataPanel, Mode, Palette, Panel as _, PlayPanel, RegionTool,
    RulesPanel, ScenarioPanel, StatusBar,
};
use crate::play::campaign::CampaignRun;
use crate::play::PlaySession;
use crate::reload::{Watched, Watcher};
use crate::validate::Validator;
use egui::{Color32, Ui};
use kessel_core::hex::Hex;
use kessel_core::ruleset::Ruleset;
use kessel_draw::MapStyle;
use screenshot::ScreenshotJob;
use std::sync::Arc;

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
    /// Sides and unit types the ruleset declares (offered once scenario editing is entered).
    pub ruleset_names: Option<RulesetNames>,
    /// The ruleset being read on a thread of its own (see `declared.rs`).
    reading: Option<declared::Reading>,
    /// What the last read of the ruleset gave.
    declared: Option<declared::Declared>,
    /// The last ruleset read without error, and its folder: a reload that fails keeps drawing
    /// with it (see `declared.rs`).
    last_good_rules: Option<(std::path::PathBuf, Arc<Ruleset>)>,
    /// The hex the inspector shows.
    pub selected: Option<Hex>,
    /// The play-test game, started when play-test or rules mode first needs it.
    pub session: Option<PlaySession>,
    /// The campaign being played, when a campaign file was opened (the document is its
    /// current game's scenario).
    pub campaign: Option<CampaignRun>,
    /// Why the game could not start (shown until a reload or a retry succeeds).
    pub session_error: Option<String>,
    /// The profile picked in the rules panel.
    pub profile: ProfileChoice,
    /// Options set on top of the profile when a game starts (`--option`), before its set-up
    /// check and hooks, as `kessel check --option` does.
    pub start_options: Vec<(String, serde_json::Value)>,
    /// Seed of new games.
    pub seed: u64,
    /// Reload problems, shown in the error panel.
    pub problems: Problems,
    /// The file watcher (none if it could not start).
    pub watcher: Option<Watcher>,
    /// The picture traced under the map (map editing).
    pub tracing: Tracing,
    /// *New scenario from a region* (map editing).
    pub region: RegionTool,
    /// A folder that is Kessel's, not the user's (see [`crate::EditorOptions::not_yours`]),
    /// and the user's folder for new work.
    pub not_yours: Option<(std::path::PathBuf, std::path::PathBuf)>,
    /// The File → Open… dialog: the path being typed, while it is open.
    pub open_dialog: Option<String>,
    /// Why the last File → Open… failed, shown in the dialog until it is closed or opened again.
    pub open_error: Option<String>,
    /// The File → Save as… dialog: the folder being typed, while it is open.
    pub save_as_dialog: Option<String>,
    /// Successful rule reloads so far (tests and benchmarks wait on it).
    pub rule_reloads: u64,
    /// Files changed on disk but not reloaded over unsaved edits (see `hot_reload.rs`).
    pub disk_ahead: hot_reload::DiskAhead,
    /// How the ruleset says the map and counters look: built once per ruleset load, shared
    /// with the canvas and the panels (the same model `kessel render` draws from).
    pub style: Arc<MapStyle>,
    hovered: Option<Hex>,
    pinned_hover: Option<Hex>,
    start_attempted: bool,
    /// A game's start being tried on a thread of its own (see `starting.rs`).
    starting: Option<starting::Trial>,
    /// Why the last start tried failed (see `starting.rs`).
    failed_start: Option<String>,
    needs_refresh: bool,
    screenshot: Option<ScreenshotJob>,
    /// A `--select` waiting for the computer's moves (see `startup.rs`).
    pending_select: Option<String>,
    /// A `--save` waiting for the computer's moves (see `startup.rs`).
    pending_save: Option<std::path::PathBuf>,
    /// A scripted start's `--act` refusals and failures, for stderr (see `startup.rs`).
    pub startup_warnings: Vec<String>,
    ui_scale: ui_scale::UiScale,
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
        let mut validator = Validator::default();
        validator.opened(&doc);
        // a picture kept beside the map comes back with it (one that no longer loads is left)
        let tracing = Tracing {
            underlay: crate::underlay::Underlay::load_beside(&doc.map_path)
                .ok()
                .flatten(),
            ..Tracing::default()
        };
        let mut app = EditorApp {
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
            validator,
            ruleset_names: None,
            reading: None,
            declared: None,
            last_good_rules: None,
            selected: None,
            session: None,
            campaign: None,
            session_error: None,
            profile: ProfileChoice::Scenario,
            start_options: Vec::new(),
            seed: 1,
            problems: Problems::default(),
            watcher: None,
            rule_reloads: 0,
            disk_ahead: Default::default(),
            hovered: None,
            pinned_hover: None,
            start_attempted: false,
            starting: None,
            failed_start: None,
            needs_refresh: false,
            screenshot: None,
            pending_select: None,
            pending_save: None,
            startup_warnings: Vec::new(),
            ui_scale: Default::default(),
            open_dialog: None,
            open_error: None,
            save_as_dialog: None,
            tracing,
            region: RegionTool::default(),
            not_yours: None,
        };
        // the style and the names the ruleset declares come from a thread (`declared.rs`)
        app.read_declarations(declared::FIRST_WAIT);
        app
    }

    /// Says which folder is Kessel's rather than the user's (kept across File → Open).
    pub fn set_not_yours(&mut self, not_yours: Option<(std::path::PathBuf, std::path::PathBuf)>) {
        self.region.user_folder = None;
        if let Some((root, user)) = &not_yours {
            if self.in_folder(root) {
                self.region.user_folder = Some(user.clone());
            }
        }
        self.not_yours = not_yours;
    }

    /// True when the document's files lie under `root`.
    fn in_folder(&self, root: &std::path::Path) -> bool {
        let under = |p: &std::path::Path| p.canonicalize().is_ok_and(|p| p.starts_with(root));
        under(&self.doc.map_path) || self.doc.scenario_path.as_deref().is_some_and(under)
    }

    /// Why saving the document is refused: it lies in Kessel's own folder.
    pub fn save_refused(&self) -> Option<String> {
        let (root, user) = self.not_yours.as_ref()?;
        self.in_folder(root).then(|| {
            format!(
                "Not saved: Kessel's own copy ({}), replaced by a new version. \
                 Save as… into a folder of yours (offered: {})",
                root.display(),
                user.display()
            )
        })
    }

    /// The files the watcher should follow for this document.
    pub fn watched(&self) -> Watched {
        let mut scenario_files = vec![self.doc.map_path.clone()];
        if let Some(p) = &self.doc.scenario_path {
            scenario_files.insert(0, p.clone());
        }
        // a base changed changes the scenario that extends it
        scenario_files.extend(self.doc.scenario_bases.iter().cloned());
        Watched {
            ruleset_dir: self.doc.ruleset_dir.clone(),
            scenario_files,
            script_files: self.doc.scenario_scripts.clone(),
        }
    }

    /// Why play-test is not offered, if it is not: a map opened alone, or the scenario's known
    /// problems.
    pub fn play_blocked(&self) -> Option<String> {
        if self.doc.scenario_path.is_none() {
            return Some(crate::panels::palette::BARE_MAP.to_string());
        }
        let n = self.validator.issues.len();
        (n > 0).then(|| {
            format!(
                "Play-test needs a scenario without problems: fix the {n} listed in the Problems panel first"
            )
        })
    }

    /// The scenario's check passes again (its files were fixed): what was said of the problems
    /// is history. A failed start's banner and the status bar's "fix the problems first" go,
    /// and where a game is wanted (play-test, rules) it starts again.
    fn problems_fixed(&mut self) {
        if self.status.is_error
            && self
                .status
                .message
                .starts_with("Play-test needs a scenario")
        {
            self.status
                .info("The scenario passes its check again: play-test is offered");
        }
        if self.session.is_none() && self.session_error.is_some() {
            self.session_error = None;
            self.failed_start = None;
            self.problems.rules = None;
            self.start_attempted = false;
            self.ensure_session();
        }
    }

    /// Switches mode (starting the play-test game if the mode needs it).
    pub fn set_mode(&mut self, mode: Mode) {
        self.palette.mode = mode;
        self.ensure_session();
        self.enter_scenario_mode();
    }

    /// Starts the play-test game if play-test or rules mode needs one and none is running. A
    /// failed start is tried again only after a file changes or the user asks.
    pub fn ensure_session(&mut self) {
        let editing = matches!(self.palette.mode, Mode::Edit | Mode::Scenario);
        if editing || self.session.is_some() || self.start_attempted {
            return;
        }
        if self.doc.scenario_path.is_none() {
            // a map alone (a scripted start asked for play-test or the rules): said in the
            // panel, with no banner asking to fix a file that has nothing wrong
            self.session_error = Some(crate::panels::palette::BARE_MAP.to_string());
            return;
        }
        if self.palette.mode == Mode::Play {
            if let Some(why) = self.play_blocked() {
                // play-test is offered only when the scenario has no problems: the mode stays
                // (a scripted start asked for it, or a reload came while in it), its panel says
                // why no game starts, and the game starts once the check passes again
                let listed = self.validator.issues.iter().take(3);
                let listed: Vec<String> = listed
                    .map(|i| format!("{}: {}", i.location, i.message))
                    .collect();
                self.session_error = Some(format!("{why}.\n{}", listed.join("\n")));
                self.status.error(why);
                return;
            }
        }
        self.start_attempted = true;
        self.start_session();
    }

    /// Draws one frame into `ui` and applies the commands it produced. Independent of eframe so
    /// tests can drive it through `egui_kittest`.
    pub fn ui_root(&mut self, ui: &mut Ui) {
        if ui.style().spacing.scroll.floating {
            // scroll bars take room of their own: a floating bar was drawn over the right edge
            // of the text beside it, and hid the last characters of wrapped lines (the balance
            // lab's verdict)
            let solid = egui::style::ScrollStyle::solid();
            ui.ctx().all_styles_mut(|s| s.spacing.scroll = solid);
            ui.style_mut().spacing.scroll = solid;
        }
        self.track_ui_scale(ui.ctx());
        self.poll_reload(ui.ctx());
        // a lab run goes on in any mode: take its games as they come
        if let Some(run) = &mut self.rules_panel.lab.run {
            run.poll();
        }
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
        if self.save_as_dialog.is_some() {
            self.save_as_dialog_ui(ui.ctx());
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
                self.status.hover_note = s.hover_note();
            }
        }
        egui::Panel::bottom("status").show(ui, |ui| {
            self.status
                .ui(ui, &mut panel_cx!(self, &mut cmds, &mut play));
        });
        if self.palette.mode == Mode::Play && self.session.is_some() {
            egui::Panel::bottom("log")
                .resizable(true)
                .default_size(170.0)
                .show(ui, |ui| {
                    self.log_panel
                        .ui(ui, &mut panel_cx!(self, &mut cmds, &mut play))
                });
        }
        self.palette.play_blocked = self.play_blocked();
        self.palette.play_help = self
            .session
            .as_ref()
            .map_or(crate::play::MOVE_HELP.into(), |s| s.click_help());
        let tool_before = self.palette.tool;
        egui::Panel::left("palette")
            .resizable(false)
            .exact_size(190.0)
            .show(ui, |ui| {
                // scrolled: at a larger interface size in a short window its layers and Fit
                // map were cut off below the window's edge, out of reach
                egui::ScrollArea::vertical()
                    .id_salt("palette scroll")
                    .show(ui, |ui| {
                        self.palette
                            .ui(ui, &mut panel_cx!(self, &mut cmds, &mut play))
                    });
            });
        // the last one picked takes the clicks: a tool, or a place's (area's, tag's) edit hexes
        if self.palette.tool != tool_before {
            self.map_data.target = None;
        }
        if self.palette.mode != mode_before {
            self.ensure_session();
        }
        // however scenario editing was entered (a click, a problem picked, a scripted start),
        // it offers the ruleset's names once read (returns at once when it has them)
        self.enter_scenario_mode();
        if self.validator.poll(&self.doc, ui.ctx()) {
            ui.ctx().request_repaint();
            if self.validator.issues.is_empty() {
                self.problems_fixed();
            }
        }
        let has_issues = !self.validator.issues.is_empty();
        if has_issues && self.problems_all_above() {
            egui::Panel::bottom("problems above").show(ui, |ui| self.problems_ui(ui));
        } else if has_issues {
            egui::Panel::bottom("problems")
                .resizable(true)
                .default_size(90.0)
                .show(ui, |ui| self.problems_ui(ui));
        } else if self.palette.mode == Mode::Scenario && self.doc.scenario.is_some() {
            // one line saying all is well: at the list's 90 points it kept an empty band under
            // the map while the scenario was edited
            egui::Panel::bottom("problems none").show(ui, |ui| self.problems_ui(ui));
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
            .max_size(layout::side_max(side_width, ui.available_width()))
            .show(ui, |ui| self.side_ui(ui, &mut cmds, &mut play));
        egui::CentralPanel::no_frame().show(ui, |ui| self.map_ui(ui, &mut cmds, &mut play));

        let changed = !cmds.is_empty() || !play.is_empty();
        self.apply(cmds);
        self.apply_play(play);
        self.drive_computer(ui.ctx());
        self.apply_after_computer();
        self.pump_rules(ui.ctx());
        self.poll_start(ui.ctx());
        if self.reading.is_some() {
            self.poll_declarations(std::time::Duration::ZERO);
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(30));
        }
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
}

impl EditorApp {
    /// Takes the rules' answers for the play-test game (worked out on their thread) and gives
    /// them the next job; while they work, frames go on so the answers show as they come.
    fn pump_rules(&mut self, ctx: &egui::Context) {
        let Some(s) = &mut self.session else {
            return;
        };
        if s.pump(crate::play::ANSWER_WAIT) || s.rules_busy() {
            ctx.request_repaint();
        }
        if let Some((paths, outcome)) = s.reloaded.take() {
            self.finish_reload(&paths, outcome);
        }
    }

    /// Lets the computer play its moves due this frame (play-test mode only) and asks for the
    /// frame that plays the next ones.
    fn drive_computer(&mut self, ctx: &egui::Context) {
        let Some(s) = self
            .session
            .as_mut()
            .filter(|_| self.palette.mode == Mode::Play)
        else {
            return;
        };
        if s.drive_computer(std::time::Instant::now()) > 0 {
            ctx.request_repaint();
        }
        if s.computer_thinking() {
            // look for the thinking thread's answer soon; the window keeps drawing meanwhile
            ctx.request_repaint_after(std::time::Duration::from_millis(15));
        }
        if s.computer_to_move() && s.seats.stopped.is_none() {
            use crate::play::computer::{Pace, SLOW_DELAY};
            match s.seats.pace {
                Pace::Paused => {}
                Pace::Slow => ctx.request_repaint_after(SLOW_DELAY / 4),
                Pace::Fast => ctx.request_repaint(),
            }
        }
    }
}
