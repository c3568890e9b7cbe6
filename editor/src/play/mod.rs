//! Play-test mode: a game of the open scenario driven through the engine.
//!
//! [`PlaySession`] owns the [`Engine`] and what the play panels show of it: the selected stack and
//! where it can go, the attack being declared and its odds, the legal choices the rules list, and
//! the last refusal with its rule cases. It changes the game only through `Engine::act` and
//! `Engine::undo`, played on the rules worker's twin engine ([`worker`]: no rule call runs on the
//! UI thread) and taken from there; every change is followed by [`PlaySession::refresh`], which
//! has the derived views worked out again (derived data is never patched, only rebuilt).

pub mod campaign;
pub mod computer;
mod jobs;
mod look;
mod overlay;
mod phase;
pub mod queries;
mod selection;
pub mod thinker;
pub mod trails;
pub mod worker;

pub use jobs::ANSWER_WAIT;
pub use phase::{CAMPAIGN_OVER_HELP, MOVE_HELP, ONE_CHOICE_HELP, OVER_HELP};

use crate::document::{write_atomic, Document, UnitLayer};
use kessel_core::action::{Action, Reason};
use kessel_core::engine::Engine;
use kessel_core::error::Located;
use kessel_core::event::LogEntry;
use kessel_core::hex::Hex;
use kessel_core::map::Map;
use kessel_core::scenario::Scenario;
use kessel_core::script::Limits;
use kessel_core::state::{Marker, Value};
use queries::{OddsView, Reach};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a click on a friendly stack does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interaction {
    /// Select a stack, then click a reachable hex to move it.
    Move,
    /// Click friendly stacks to add attackers, enemy stacks to pick targets.
    Attack,
}

/// A change to the game or its options, applied by the app after the frame.
#[must_use = "commands do nothing until the app applies them"]
#[derive(Clone, Debug, PartialEq)]
pub enum PlayCommand {
    /// Take an action.
    Act(Action),
    /// Take back the last action.
    Undo,
    /// Start the scenario again (with the profile chosen in the rules panel).
    NewGame,
    /// Start the campaign's next game from the one that has ended.
    NextGame,
    /// Write the game to a file.
    SaveGame(PathBuf),
    /// Replace the game with a saved one.
    LoadGame(PathBuf),
    /// Apply a profile (a name in the ruleset's `profiles/`; `None` = option defaults).
    ApplyProfile(Option<String>),
    /// Set one option for the game in progress.
    SetOption(String, Value),
    /// Set several options for the game in progress, judged as a whole (staged in the rules
    /// panel, or `--option` flags).
    SetOptions(Vec<(String, Value)>),
    /// Write the options in force as a new profile.
    SaveProfile {
        /// File stem in the ruleset's `profiles/`.
        name: String,
        /// The profile's one-line description.
        description: String,
    },
}

/// A refused action: what was tried and the rules' reasons.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// The action, described.
    pub what: String,
    /// Every reason, with its rule case.
    pub reasons: Vec<Reason>,
}

/// A game being play-tested.
pub struct PlaySession {
    /// The engine: state, rules, log.
    pub engine: Engine,
    /// Dice seed the game started with.
    pub seed: u64,
    /// The game's units by hex (rebuilt after every change).
    pub units: UnitLayer,
    /// The game's markers.
    pub markers: Vec<Marker>,
    /// The game's map (shared with the engine's state, not copied per frame).
    pub map: Arc<Map>,
    /// The game's log as of the last change (the log panel reads it every frame).
    pub log: Vec<LogEntry>,
    /// How clicks on stacks are read.
    pub interaction: Interaction,
    /// Hex of the selected stack.
    pub selected: Option<Hex>,
    /// Units of the selected stack taking part (all that belong to the phasing side, at first).
    pub picked: Vec<String>,
    /// Where the picked units can go (or why that could not be worked out).
    pub reach: Option<Result<Reach, String>>,
    /// Units declared as attackers.
    pub attackers: Vec<String>,
    /// Hexes declared as targets.
    pub targets: Vec<Hex>,
    /// Odds of the declared attack.
    pub odds: Option<Result<OddsView, String>>,
    /// Legal actions other than moves (moves are shown on the map), or why they could not be
    /// listed.
    pub actions: Result<Vec<Action>, String>,
    /// The units some legal action names, moves included (see [`worker::GameLook::acting`]).
    pub acting: std::collections::BTreeSet<String>,
    /// A legal action moves units (see [`worker::GameLook::moving`]).
    pub moving: bool,
    /// How the ended game stands (see [`worker::GameLook::outcome`]).
    pub outcome: Option<Result<String, String>>,
    /// Hexes to highlight for the action under the pointer in the list.
    pub preview: Vec<Hex>,
    /// The last refusal, shown until the next accepted action.
    pub refusal: Option<Refusal>,
    /// The last script error (a rule hook that failed), with its file and line.
    pub error: Option<String>,
    /// The last thing that happened, for the status bar (taken by the app once shown), and
    /// whether it reports a refusal or failure.
    pub message: Option<(String, bool)>,
    /// Save / load path typed in the play panel.
    pub save_path: String,
    /// The hex under the pointer (set by the app each frame).
    pub hovered: Option<Hex>,
    /// Who plays each side, and the computer's pace.
    pub seats: computer::Seats,
    /// What the rules' one-unit queries say of each picked unit (worked out with the reach).
    pub unit_answers: Option<worker::UnitAnswers>,
    /// What the rules' queries that need no argument say of the game as it stands (the score
    /// now), asked with each look; `None` until the first.
    pub game_answers: Option<Result<Vec<queries::UnitAnswer>, String>>,
    /// The outcome of a reload of the rules tried on their thread ([`PlaySession::try_reload`]),
    /// for the app to take: the files that changed, and whether the rules loaded.
    pub reloaded: Option<(Vec<PathBuf>, Result<(), Located>)>,
    /// Where every rule call of the session runs: a thread of its own.
    pub rules: worker::RulesWorker,
    wanted: jobs::Wanted,
    /// The deciding side, as of the game's look at `look_at`.
    deciding: Option<String>,
    /// Whether the rules wait for a person's decision, as of the look at `look_at`.
    person_waiting: bool,
    /// The revision the last look at the game was for.
    look_at: Option<u64>,
    /// A take-back was played: the computer waits if it is its move after it.
    pause_after_undo: bool,
    why: BTreeMap<Hex, String>,
    /// Changes whenever the hover explanations are dropped (a hover answer asked before is
    /// dropped too).
    why_epoch: u64,
    hover_sent: Option<(u64, Hex)>,
    last_phase: Option<(u32, usize)>,
    /// The Attack clicks gave way to a decision the rules wait for (see `fit_clicks`): they
    /// come back with the next attack offered in the same phase.
    attack_after_decision: bool,
    /// In hot seat, Undo action was asked for an action of the other side's: the panel asks
    /// whether both players agree before it is taken back (see [`PlaySession::request_undo`]).
    pub confirm_undo: bool,
}

impl PlaySession {
    /// An action in the log's words: its units by their names ("29 Pz Rgt (12 Pz)"), not their
    /// ids (the choice buttons and the status bar read "units g-12pz-pz" beside a log that named
    /// the counters).
    pub fn describe(&self, a: &Action) -> String {
        queries::describe_action_named(a, &|id| {
            (self.units.get(id)).and_then(crate::panels::log::unit_log_name)
        })
    }
}

impl PlaySession {
    /// Starts the document's scenario with a profile (`None` = the scenario's own). The map and
    /// the scenario as edited are played, saved or not, so a change can be tried before it is
    /// written.
    ///
    /// Errors come located (file, line, message), one per problem, as the core reports them.
    pub fn start(
        doc: &Document,
        profile: Option<&str>,
        seed: u64,
    ) -> Result<PlaySession, Vec<Located>> {
        let scenario = PlaySession::scenario_of(doc)?;
        let save_path = default_save_path(&scenario.path);
        let engine = Engine::with_scenario(scenario, profile, seed, Limits::default())
            .map_err(|e| e.located())?;
        Ok(PlaySession::with_engine(engine, seed, save_path))
    }

    /// The document's scenario as a game starts it: as edited, saved or not, like the map (and
    /// as the problems panel checks it). Reads no rules.
    pub fn scenario_of(doc: &Document) -> Result<Scenario, Vec<Located>> {
        let bare = "a bare map has no units or rules to play: open a scenario";
        let path = (doc.scenario_path.as_deref()).ok_or_else(|| vec![Located::plain(bare)])?;
        let text = match doc.scenario_text() {
            Some(t) => t,
            None => {
                kessel_core::error::read_text(path, "scenario").map_err(|e| vec![(&e).into()])?
            }
        };
        Scenario::parse_with_map(path, &text, doc.map.clone()).map_err(|e| e.located())
    }

    /// A session around an engine (a loaded save, or one built by a test).
    pub fn with_engine(engine: Engine, seed: u64, save_path: String) -> PlaySession {
        let map = engine.state().map.clone();
        let mut s = PlaySession {
            engine,
            seed,
            units: UnitLayer::default(),
            markers: Vec::new(),
            map,
            log: Vec::new(),
            interaction: Interaction::Move,
            selected: None,
            picked: Vec::new(),
            reach: None,
            attackers: Vec::new(),
            targets: Vec::new(),
            odds: None,
            actions: Ok(Vec::new()),
            acting: Default::default(),
            moving: false,
            outcome: None,
            preview: Vec::new(),
            refusal: None,
            error: None,
            message: None,
            save_path,
            hovered: None,
            seats: computer::Seats::new(seed),
            unit_answers: None,
            game_answers: None,
            reloaded: None,
            rules: Default::default(),
            wanted: Default::default(),
            deciding: None,
            person_waiting: false,
            look_at: None,
            pause_after_undo: false,
            why: BTreeMap::new(),
            why_epoch: 0,
            hover_sent: None,
            last_phase: None,
            attack_after_decision: false,
            confirm_undo: false,
        };
        s.refresh();
        s
    }

    /// Recomputes everything derived from the game: counters, legal choices, the selected
    /// stack's reach, the odds, hover explanations. Called after every change to the game, its
    /// options or its rules. What needs the rules is worked out on their thread and shows when
    /// it is back ([`PlaySession::pump`]).
    pub fn refresh(&mut self) {
        self.look_at = None;
        self.wanted.game = true;
        self.refresh_game_view();
        self.update_reach();
        self.update_odds();
    }

    fn refresh_game_view(&mut self) {
        let state = self.engine.state();
        // where the rules keep secrets, the side at the screen sees only what it is shown (the
        // rules' thread works it out); with no secret, the whole game at once
        if state.secrets.is_empty() {
            self.units = UnitLayer::new(state.units.clone());
            self.markers = state.markers.clone();
            self.log = self.engine.log().to_vec();
        }
        self.map = state.map.clone();
        self.why.clear();
        self.why_epoch += 1;
        self.preview.clear();
        // the choices of the game before are no choices now: the new ones come with the look
        self.actions = Ok(Vec::new());
        self.acting.clear();
        self.moving = false;
        // a new phase picks the interaction that fits it and drops a half-declared attack
        let phase = (state.turn, state.phase);
        if self.last_phase != Some(phase) {
            self.last_phase = Some(phase);
            self.interaction = if self.step_text().to_lowercase().contains("combat") {
                Interaction::Attack
            } else {
                Interaction::Move
            };
            self.attack_after_decision = false;
            self.attackers.clear();
            self.targets.clear();
            if self.picked_waiting() {
                // reinforcements picked on their area came on in that phase or not at all
                self.picked.clear();
                self.selected = None;
            }
        }
        // the selection follows its units (a stack that moved stays selected where it went)
        self.picked.retain(|id| state.unit(id).is_some());
        let waiting = |id: &String| {
            state
                .unit(id)
                .is_some_and(|u| u.location == kessel_core::state::Location::Pending)
        };
        if !self.picked.is_empty() && self.picked.iter().all(waiting) {
            // reinforcements picked on their entry area stay picked until they come on
        } else if let Some(h) = self.picked.first().and_then(|id| state.unit(id)?.hex()) {
            self.selected = Some(h);
            self.picked
                .retain(|id| state.unit(id).and_then(|u| u.hex()) == Some(h));
        } else if !self.picked.is_empty() {
            self.picked.clear();
        }
        self.attackers
            .retain(|id| state.unit(id).and_then(|u| u.hex()).is_some());
        self.targets.retain(|h| state.units_at(*h).next().is_some());
    }

    fn forget_why(&mut self) {
        self.why.clear();
        self.why_epoch += 1;
    }

    /// True when the rules have said whose decision it is in the game as it is now.
    pub fn rules_said_whose_turn(&self) -> bool {
        self.look_at == Some(self.engine.revision())
    }

    /// The side whose decision it is (as the rules last said; `None` also while they work it
    /// out).
    pub fn deciding_side(&self) -> Option<String> {
        self.deciding.clone()
    }

    /// True once an action has been taken (a game is in progress).
    pub fn in_progress(&self) -> bool {
        !self.engine.world().log.is_empty()
    }

    fn update_odds(&mut self) {
        self.odds = None;
        self.wanted.odds = !self.attackers.is_empty() && !self.targets.is_empty();
    }

    /// Adds the stack in `hex` to the attackers, or takes it out if it is in already.
    pub fn toggle_attackers(&mut self, hex: Hex) {
        let ids: Vec<String> = self.units.stack(hex).map(|u| u.id.clone()).collect();
        if ids.iter().all(|id| self.attackers.contains(id)) {
            self.attackers.retain(|a| !ids.contains(a));
        } else {
            for id in ids {
                if !self.attackers.contains(&id) {
                    self.attackers.push(id);
                }
            }
        }
        self.update_odds();
    }

    /// Adds or drops one attacking unit.
    pub fn toggle_attacker(&mut self, id: &str) {
        if let Some(i) = self.attackers.iter().position(|p| p == id) {
            self.attackers.remove(i);
        } else {
            self.attackers.push(id.to_string());
        }
        self.update_odds();
    }

    /// Adds `hex` to the targets, or drops it.
    pub fn toggle_target(&mut self, hex: Hex) {
        if let Some(i) = self.targets.iter().position(|t| *t == hex) {
            self.targets.remove(i);
        } else {
            self.targets.push(hex);
        }
        self.update_odds();
    }

    /// Fits the clicks to the choices just listed. A decision the rules wait for inside a combat
    /// phase (a loss or a retreat, the retreat's path, an advance) is no attack: the Attack
    /// clicks asked for attackers and a target there, the selected stack did not show, and the
    /// hexes a retreat may take were not marked. Its choices are taken with the Move clicks;
    /// the Attack clicks come back once the rules offer an attack again in the phase.
    fn fit_clicks(&mut self) {
        let Ok(listed) = &self.actions else {
            return;
        };
        let attacks = listed.iter().any(|a| a.kind == "attack");
        match self.interaction {
            Interaction::Attack
                if !listed.is_empty() && !attacks && self.pending_prompt().is_some() =>
            {
                self.interaction = Interaction::Move;
                self.attack_after_decision = true;
                self.attackers.clear();
                self.targets.clear();
                self.odds = None;
            }
            Interaction::Move if attacks && self.attack_after_decision => {
                self.interaction = Interaction::Attack;
                self.attack_after_decision = false;
            }
            _ => {}
        }
    }

    /// Loads an enumerated attack into the declaration, so its odds show before the roll.
    pub fn declare(&mut self, a: &Action) {
        self.attackers = queries::action_units(a);
        self.targets = queries::action_hexes(&self.engine, a);
        self.interaction = Interaction::Attack;
        self.update_odds();
    }

    /// The attack as declared, ready to roll.
    pub fn attack_action(&self) -> Option<Action> {
        if self.attackers.is_empty() || self.targets.is_empty() {
            return None;
        }
        let samples = self.actions.as_deref().unwrap_or(&[]);
        Some(queries::attack_action(
            &self.engine,
            &self.attackers,
            &self.targets,
            samples,
        ))
    }

    /// The move of the picked units to `dest`: the rules' own enumerated action when there is
    /// one, else the conventional spelling.
    pub fn move_to(&self, dest: Hex) -> Action {
        if let Some(Ok(r)) = &self.reach {
            if let Some(a) = r.actions.get(&dest) {
                return a.clone();
            }
            if !r.movers.is_empty() {
                return queries::move_action(&self.engine, &r.movers, dest);
            }
        }
        queries::move_action(&self.engine, &self.picked, dest)
    }

    /// The MP cost of reaching `hex` with the selection, if it is reachable.
    pub fn cost_at(&self, hex: Hex) -> Option<Option<f64>> {
        match &self.reach {
            Some(Ok(r)) => r.costs.get(&hex).copied(),
            _ => None,
        }
    }

    /// What each group of the selected stack's units pays for `hex`, when they pay differently.
    pub fn split_at(&self, hex: Hex) -> Vec<(Vec<String>, f64)> {
        match &self.reach {
            Some(Ok(r)) => r.split.get(&hex).cloned().unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// Works out (once per hex) what the pointer over `hex` should say: the cost of going there,
    /// or why the selected stack can't, in the rules' words with their case. The rules judge
    /// every hex, shaded or not: the shading comes from the movement costs, and a rule the costs
    /// do not see (a scenario's special rule wrapping `move`) may still refuse a shaded hex.
    pub fn hover(&mut self, hex: Hex) -> Option<String> {
        if self.interaction != Interaction::Move || self.picked.is_empty() {
            return None;
        }
        if self.selected == Some(hex) {
            return None;
        }
        if let Some(t) = self.why.get(&hex) {
            return Some(t.clone());
        }
        // the rules answer on their thread
        self.wanted.hover = Some(hex);
        None
    }

    /// The explanation for the hex under the pointer, once worked out.
    pub fn hovered_text(&self) -> Option<&str> {
        self.why.get(&self.hovered?).map(String::as_str)
    }

    /// Turns a click on the map into a command or a selection change.
    pub fn click(&mut self, hex: Hex) -> Option<PlayCommand> {
        let phasing = self.phasing_side();
        let side_here = self.units.stack(hex).last().map(|u| u.side.clone());
        match self.interaction {
            Interaction::Move => {
                if self.cost_at(hex).is_some() {
                    return Some(PlayCommand::Act(self.move_to(hex)));
                }
                if let Some(a) = self.choice_at(hex) {
                    return Some(PlayCommand::Act(a)); // a rail move's destination, say
                }
                if let Some(a) = self.hex_choice_at(hex) {
                    return Some(PlayCommand::Act(a)); // an air marker placed here, say
                }
                if side_here.is_none() && !self.picked_waiting() && !self.waiting_at(hex).is_empty()
                {
                    // the entry area of reinforcements due: pick them
                    self.select(hex);
                    return None;
                }
                if side_here.is_some() {
                    if self.selected == Some(hex) {
                        self.clear_selection();
                    } else {
                        self.select(hex);
                    }
                    return None;
                }
                if !self.picked.is_empty() {
                    // not reachable: try anyway, so the refusal names its rule
                    return Some(PlayCommand::Act(self.move_to(hex)));
                }
                self.clear_selection();
                None
            }
            Interaction::Attack => {
                match side_here {
                    Some(s) if Some(&s) == phasing.as_ref() => self.toggle_attackers(hex),
                    Some(_) => self.toggle_target(hex),
                    None => {}
                }
                None
            }
        }
    }

    /// Writes the game (scenario, profile, seed, options set by hand, who plays each side, log)
    /// to `path`, atomically.
    pub fn save(&mut self, path: &Path) -> anyhow::Result<()> {
        let text = self
            .engine
            .save_as(path, &self.seats.to_save())
            .map_err(anyhow::Error::msg)?;
        write_atomic(path, text.as_bytes())?;
        self.message = Some((format!("game saved to {}", path.display()), false));
        Ok(())
    }

    /// Replaces the game with a saved one: loaded, its actions replayed, on the rules' thread;
    /// the game changes once that is done (or the status bar says why not).
    pub fn load(&mut self, path: &Path) {
        (self.wanted.changes).push_back(jobs::Change::Load(path.to_path_buf()));
    }
}

impl PlaySession {
    /// The game was put in anew (a loaded save, a new engine): the rules' work for the old one
    /// is dropped.
    pub fn game_replaced(&mut self) {
        self.rules.forget();
        self.wanted.changes.clear();
        self.look_at = None;
        self.deciding = None;
    }
}

/// `reason [rule]`, the way refusals read everywhere in the editor.
pub fn reason_text(r: &Reason) -> String {
    match &r.rule {
        Some(rule) => format!("{} [{rule}]", r.message),
        None => r.message.clone(),
    }
}

/// `campaign.toml` → `campaign.save.json` beside it.
pub(crate) fn default_save_path(scenario: &Path) -> String {
    let stem = scenario
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".into());
    scenario
        .with_file_name(format!("{stem}.save.json"))
        .display()
        .to_string()
}
