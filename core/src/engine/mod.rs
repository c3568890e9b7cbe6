//! The engine: a scenario's state, a ruleset's Lua host and the log of accepted actions.
//!
//! Player decisions go through [`Engine::act`]: the ruleset's validator accepts the action or
//! rejects it with reasons; an accepted action's handler emits [`Event`]s, each applied to the state
//! at once and recorded. `state = setup + events`, which gives undo, save/load and replay.
//!
//! # Layout
//! - this file: [`Engine`] — building one, reading it, acting, undo, reloading the rules.
//! - `calls.rs`: the calls from Rust into the rules' validators, handlers, enumerators, queries.
//! - `hooks.rs`: the calls into the ruleset's hooks (`check`, `setup`, `odds`, `ai`, `result`).
//! - `profiles.rs`: reading and applying profiles.
//! - `checks.rs`: the scenario checks made when a game starts.
//! - `save.rs`: the save format, saving and loading.
//! - `runner.rs`: running scripts and Lua rule tests.
//! - `odds.rs`: an attack's odds and result chances as data.

mod calls;
mod campaign;
mod checks;
mod copy;
mod hooks;
mod odds;
mod profiles;
mod replay;
mod result;
mod runner;
mod save;
mod start;

pub use campaign::{
    check_games, game_name, unknown_game_profile, CampaignGameSave, CampaignSave, LoadedCampaign,
};
pub use copy::GameCopy;
pub use hooks::OddsModifiers;
pub use odds::{OddsReport, ResultChance};
pub use replay::{ReplayStop, Replayed, EDITED_HISTORY, EDITED_REMEDY, EDITED_STATE};
pub use save::SaveFile;

use crate::action::{Action, Reason, Rejection};
use crate::error::{LoadError, LoadErrors};
use crate::event::{Event, LogEntry};
use crate::options::Options;
use crate::ruleset::Ruleset;
use crate::scenario::Scenario;
use crate::script::{api, display_path, Limits, ScriptError, ScriptHost, Stopper};
use crate::state::{ApplyError, GameState};
use crate::world::{Shared, Stage, World};
use std::cell::Ref;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Failure to build an engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// Bad data files.
    #[error("{0}")]
    Load(#[from] LoadErrors),
    /// Bad scripts.
    #[error("{0}")]
    Script(#[from] ScriptError),
    /// An option set on top of the profile ([`Engine::load_with_options`]) that the ruleset
    /// lacks, or a value it refuses.
    #[error("option `{id}` = {value}: {message}")]
    Option {
        /// The option's id, as given.
        id: String,
        /// The value, as given.
        value: crate::state::Value,
        /// Why it was refused.
        message: String,
    },
}

impl EngineError {
    /// Every problem, located by file and line (a load can report many at once).
    pub fn located(&self) -> Vec<crate::error::Located> {
        match self {
            EngineError::Load(errors) => errors.located(),
            EngineError::Script(e) => vec![e.into()],
            EngineError::Option { .. } => vec![crate::error::Located::plain(self.to_string())],
        }
    }
}

impl From<LoadError> for EngineError {
    fn from(e: LoadError) -> Self {
        EngineError::Load(LoadErrors(vec![e]))
    }
}

/// A side's view could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    /// Not a side of the game.
    #[error("`{0}` is not a side of this game (sides: {1})")]
    UnknownSide(String, String),
    /// The log does not replay.
    #[error("the log does not replay: {0}")]
    Replay(#[from] ApplyError),
}

/// A query asked as a side ([`Engine::query_as`]) could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum QueryAsError {
    /// The side's view could not be made (not a side of the game).
    #[error(transparent)]
    View(#[from] ViewError),
    /// The query failed as [`Engine::query`] does.
    #[error(transparent)]
    Query(#[from] ScriptError),
}

/// The game before this one in a campaign: how it began, how it ended, and what carries over.
#[derive(Clone, Copy, Debug)]
pub struct LastGame<'a> {
    /// Its state when play began (after its set-up hooks).
    pub started: &'a GameState,
    /// Its state when it ended.
    pub ended: &'a GameState,
    /// What the campaign carries.
    pub carry: &'a crate::campaign::Carry,
}

/// The outcome of an action: refused with reasons, or the events it produced.
pub type Outcome = Result<Vec<Event>, Rejection>;

/// A game in progress: state, rules, log.
///
/// Reading the engine hands out borrowed views ([`Engine::state`], [`Engine::log`], …); the
/// methods that change the game take `&mut self`, so no view can be held across a change.
#[derive(Debug)]
pub struct Engine {
    host: ScriptHost,
    world: Shared,
    ruleset_dir: PathBuf,
    extra_scripts: Vec<PathBuf>,
    limits: Limits,
    profile_arg: Option<String>,
    /// Which way the computer player's ties are broken (see [`Engine::set_ai_variation`]).
    ai_variation: u64,
    /// Set when a save loaded whose scenario or rule files have changed since it was saved (see
    /// [`Engine::save_changed_note`]).
    save_changed: Option<String>,
    /// What the ruleset's `check` hooks noted when the scenario loaded (see
    /// [`Engine::check_notes`]).
    check_notes: Vec<crate::error::Located>,
}

impl Engine {
    /// The whole world, read-only (state, declarations, options, log, revision).
    pub fn world(&self) -> Ref<'_, World> {
        self.world.borrow()
    }

    /// When this game was loaded from a save made with other scenario or rule files than the
    /// ones it replayed under (edited since): a sentence saying so, for a front end to show. The
    /// replay succeeded, so every action is still legal, but the game may now end, score or be
    /// drawn differently (a changed turn count or objective leaves the state as it was).
    pub fn save_changed_note(&self) -> Option<&str> {
        self.save_changed.as_deref()
    }

    /// What the ruleset's `check` hooks noted about the scenario as it loaded: problems they
    /// marked `note = true`, which do not stop it loading, located like errors.
    pub fn check_notes(&self) -> &[crate::error::Located] {
        &self.check_notes
    }

    /// The current state.
    pub fn state(&self) -> Ref<'_, GameState> {
        Ref::map(self.world.borrow(), |w| &w.state)
    }

    /// The ruleset's declarations.
    pub fn ruleset(&self) -> Ref<'_, Ruleset> {
        Ref::map(self.world.borrow(), |w| &w.ruleset)
    }

    /// The options in force.
    pub fn options(&self) -> Ref<'_, Options> {
        Ref::map(self.world.borrow(), |w| &w.options)
    }

    /// The log of accepted actions.
    pub fn log(&self) -> Ref<'_, [LogEntry]> {
        Ref::map(self.world.borrow(), |w| w.log.as_slice())
    }

    /// A number that changes with every change of the state or the options (see
    /// `kessel.game.revision`): a view derived from the engine is current while it is the same.
    pub fn revision(&self) -> u64 {
        self.world.borrow().revision
    }

    /// The scenario, if any.
    pub fn scenario(&self) -> Option<Arc<Scenario>> {
        self.world.borrow().scenario.clone()
    }

    /// True once a script changed this game outside actions (emitted from the script itself,
    /// `kessel.setup`, injected dice): a save of it would not load back.
    pub fn changed_outside_actions(&self) -> bool {
        self.world.borrow().changed_outside_actions
    }

    /// The profile the game was started with (a name in the ruleset's `profiles/`, or a path), as
    /// a save records it; `None` = option defaults.
    pub fn profile_arg(&self) -> Option<&str> {
        self.profile_arg.as_deref()
    }

    /// The ruleset folder.
    pub fn ruleset_dir(&self) -> &Path {
        &self.ruleset_dir
    }

    /// The scenario's own Lua files, run after the ruleset.
    pub fn extra_scripts(&self) -> &[PathBuf] {
        &self.extra_scripts
    }

    /// The Lua host.
    pub fn host(&self) -> &ScriptHost {
        &self.host
    }

    /// Queues die rolls for the next actions.
    pub fn inject_dice(&mut self, rolls: impl IntoIterator<Item = u32>) {
        self.world.borrow_mut().dice.inject(rolls);
    }

    /// Validates an action without applying it (as sent by its `side`, else by the deciding
    /// side).
    pub fn validate(&self, action: &Action) -> Result<Result<(), Rejection>, ScriptError> {
        self.host
            .guarded(|lua| calls::validate(lua, &self.world, action))
    }

    /// Validates and, if legal, applies an action. An action that names no `side` is sent by the
    /// deciding side ([`Engine::deciding_side`]); the log records the side either way.
    pub fn act(&mut self, action: &Action) -> Result<Outcome, ScriptError> {
        self.host
            .guarded(|lua| calls::act(lua, &self.world, action))
    }

    /// Sends an action as `side` (whatever side the action named): the rules see `action.side`
    /// and decide whether that side may act now.
    pub fn act_as(&mut self, side: &str, action: &Action) -> Result<Outcome, ScriptError> {
        let mut sent = action.clone();
        sent.side = Some(side.to_string());
        self.act(&sent)
    }

    /// What `side` is shown of the game: the state without what is hidden from it and the log
    /// with other sides' secrets withheld (see [`crate::secrets::view`]). The engine keeps the
    /// whole truth; this is a copy. It replays the log, so a caller showing it every frame keeps
    /// it until [`Engine::revision`] changes.
    pub fn view(&self, side: &str) -> Result<crate::secrets::View, ViewError> {
        let w = self.world.borrow();
        if !w.state.sides.iter().any(|s| s == side) {
            return Err(ViewError::UnknownSide(
                side.to_string(),
                w.state.sides.join(", "),
            ));
        }
        let secret = |kind: &str| w.ruleset.secret_action(kind);
        Ok(crate::secrets::view(
            &w.initial, &w.log, &w.state, side, &secret,
        )?)
    }

    /// Every legal action for a side (or the phasing side), as the rules enumerate them.
    pub fn legal_actions(&self, side: Option<&str>) -> Result<Vec<Action>, ScriptError> {
        self.legal_actions_where(side, |_| true)
    }

    /// The legal actions of the kinds `keep` accepts only (see [`Engine::legal_actions`]); the
    /// other kinds' enumerators are not run.
    pub fn legal_actions_where(
        &self,
        side: Option<&str>,
        keep: impl Fn(&str) -> bool,
    ) -> Result<Vec<Action>, ScriptError> {
        self.host
            .guarded(|lua| calls::legal_actions_where(lua, &self.world, side, &keep))
    }

    /// Evaluates a Lua chunk read-only, with the whole `kessel.*` API and `args` as `...`, and
    /// returns its result as JSON. For tools that show what the rules derive without acting: the
    /// editor's play-test mode asks for a stack's movement field with its costs this way.
    ///
    /// `name` names the chunk in error messages (`name:line: message`). The chunk runs in the
    /// query stage, so it cannot change the game; userdata in the result is an error.
    ///
    /// # Example
    /// ```no_run
    /// # use kessel_core::engine::Engine;
    /// # fn demo(engine: &Engine) {
    /// let n = engine.query_lua("count", "return #kessel.units.all{}", &serde_json::json!({}));
    /// # }
    /// ```
    pub fn query_lua(
        &self,
        name: &str,
        chunk: &str,
        args: &crate::state::Value,
    ) -> Result<crate::state::Value, ScriptError> {
        self.host
            .guarded(|lua| calls::query(lua, &self.world, name, chunk, args))
    }

    /// Asks the ruleset's declared query `id` (see `kessel.queries.declare`) with `args`, a JSON
    /// object of named values checked against the declared parameters. The query runs read-only
    /// within the instruction budget; its answer is plain data.
    ///
    /// # Example
    /// ```no_run
    /// # use kessel_core::engine::Engine;
    /// # fn demo(engine: &Engine) {
    /// let supply = engine.query("supply", &serde_json::json!({ "unit": "3pz" }));
    /// # }
    /// ```
    pub fn query(
        &self,
        id: &str,
        args: &crate::state::Value,
    ) -> Result<crate::state::Value, ScriptError> {
        self.host
            .guarded(|lua| crate::script::api::ask_query(lua, &self.world, id, args))
    }

    /// Asks the declared query `id` as `side` would: the rules answer from what that side is
    /// shown ([`Engine::view`]: no unit or marker hidden from it, none of the other sides' secret
    /// variables, the log with their secrets withheld), not from the truth. For a player's tools
    /// (`kessel query SAVE --as SIDE`): a query answered from the truth names what is hidden, and
    /// a unit hidden from the side is no unit to it here (`unknown unit`). The game is put back
    /// as it was afterwards, whatever the query did.
    pub fn query_as(
        &self,
        side: &str,
        id: &str,
        args: &crate::state::Value,
    ) -> Result<crate::state::Value, QueryAsError> {
        let view = self.view(side)?;
        let log = view
            .log
            .into_iter()
            .map(|e| crate::event::LogEntry {
                action: e.action,
                events: e.events,
            })
            .collect();
        // the truth goes back on every way out of the query, an error or a stopped call too
        struct Restore<'a> {
            world: &'a crate::world::Shared,
            truth: Option<(crate::state::GameState, Vec<crate::event::LogEntry>)>,
        }
        impl Drop for Restore<'_> {
            fn drop(&mut self) {
                if let Some((state, log)) = self.truth.take() {
                    let mut w = self.world.borrow_mut();
                    w.state = state;
                    w.log = log;
                    w.state_replaced();
                }
            }
        }
        let truth = {
            let mut w = self.world.borrow_mut();
            let state = std::mem::replace(&mut w.state, view.state);
            let log = std::mem::replace(&mut w.log, log);
            w.state_replaced();
            (state, log)
        };
        let _restore = Restore {
            world: &self.world,
            truth: Some(truth),
        };
        Ok(self.query(id, args)?)
    }

    /// The queries the ruleset declared, by id.
    pub fn queries(&self) -> Result<Vec<crate::queries::QueryDecl>, ScriptError> {
        self.host.guarded(crate::script::api::declared_queries)
    }

    /// Sets one option for the game in progress (a rules panel flipping a house rule). The value
    /// must fit the option's declaration, and must not put two variants of one table in force
    /// that no variant is declared for together ([`Engine::option_conflict`]): then nothing
    /// changes. The profile name stays; a save records the options that differ from the
    /// profile's.
    pub fn set_option(&mut self, id: &str, value: crate::state::Value) -> Result<(), String> {
        self.set_options(&[(id.to_string(), value)])
    }

    /// [`Engine::set_option`] for several options at once, judged as a whole once all are set:
    /// a setting that a variant is declared for may be reachable only through a conflict when
    /// flipped one at a time (three options whose variant is declared for all three, none for
    /// two). Refused, whether by a value or by the conflict, nothing changes.
    pub fn set_options(&mut self, changes: &[(String, crate::state::Value)]) -> Result<(), String> {
        let before = self.world.borrow().options.values.clone();
        let result = (changes.iter())
            .try_for_each(|(id, value)| self.put_option(id, value.clone()))
            .and_then(|()| self.option_conflict().map_or(Ok(()), Err));
        if result.is_err() {
            let mut w = self.world.borrow_mut();
            w.options.values = before;
            w.options_changed();
        } else {
            self.record_option_change(self.profile_arg.clone(), before);
        }
        result
    }

    /// Keeps an option change made once the game is set up ([`crate::world::World::option_changes`]),
    /// with what was in force before the first: a save sets its game up under those and changes
    /// them where this one did, so it replays (PGG's set-up reads `vp_bidding`).
    pub(crate) fn record_option_change(
        &mut self,
        profile_before: Option<String>,
        before: std::collections::BTreeMap<String, crate::state::Value>,
    ) {
        if self.world.borrow().recording_options {
            self.keep_option_change(profile_before, before);
        }
    }

    /// Adds the change from `before` to the options now in force to the game's
    /// ([`Engine::record_option_change`] when the game is set up; a save's replay always).
    fn keep_option_change(
        &mut self,
        profile_before: Option<String>,
        before: std::collections::BTreeMap<String, crate::state::Value>,
    ) {
        let mut w = self.world.borrow_mut();
        if w.options.values == before && profile_before == self.profile_arg {
            return;
        }
        if w.options_at_start.is_none() {
            w.options_at_start = Some((profile_before, before));
        }
        let change = crate::world::OptionChange {
            at: w.log.len(),
            profile: self.profile_arg.clone(),
            options: w.options.values.clone(),
        };
        w.option_changes.push(change);
    }

    /// Puts an option change of a save in force as it was made ([`Engine::record_option_change`]).
    fn apply_option_change(&mut self, change: &crate::world::OptionChange) -> Result<(), String> {
        let before = self.world.borrow().options.values.clone();
        let profile_before = self.profile_arg.clone();
        self.apply_profile(change.profile.as_deref())
            .map_err(|e| e.to_string())?;
        for (id, value) in &change.options {
            self.put_option(id, value.clone())?;
        }
        // (kept as made in play, though the replay records nothing else: the save holds it)
        self.keep_option_change(profile_before, before);
        Ok(())
    }

    /// [`Engine::set_option`] for one of a list of options set together (`--option` flags, a
    /// save's overrides): the value must fit its declaration, and the options are judged as a
    /// whole once all are set ([`Engine::option_conflict`]), since a list may pass through a
    /// conflict on its way to a setting a variant is declared for.
    pub fn put_option(&mut self, id: &str, value: crate::state::Value) -> Result<(), String> {
        let mut w = self.world.borrow_mut();
        let decl = w.options.decls.iter().find(|d| d.id == id).ok_or_else(|| {
            let known: Vec<&str> = w.options.decls.iter().map(|d| d.id.as_str()).collect();
            let hint = crate::names::did_you_mean(id, &known);
            format!("the ruleset has no option `{id}`{hint}")
        })?;
        decl.check(&value)?;
        w.options.values.insert(id.to_string(), value);
        w.options_changed();
        Ok(())
    }

    /// Two variants of one table in force under the options now, neither declared for both: the
    /// one declared last would be used whole and the other dropped unseen
    /// ([`crate::ruleset::Ruleset::variant_conflicts`]).
    pub fn option_conflict(&self) -> Option<String> {
        let w = self.world.borrow();
        w.ruleset.variant_conflicts(&w.options).into_iter().next()
    }

    /// The ruleset's AI's next action at its default level (`None` if the ruleset has no `ai`
    /// hook or the hook has no opinion). The hook asks for the kinds of action it weighs and must
    /// choose one the rules listed; the choice still goes through [`Engine::act`] like a player's.
    pub fn ai_pick(&self) -> Result<Option<Action>, ScriptError> {
        self.ai_pick_at(None)
    }

    /// [`Engine::ai_pick`] with the computer player's level named (`None`: the ruleset's default,
    /// its first `kessel.ai_level`). An undeclared level is an error naming the declared ones.
    pub fn ai_pick_at(&self, level: Option<&str>) -> Result<Option<Action>, ScriptError> {
        let level = self
            .world
            .borrow()
            .ruleset
            .ai_level(level)
            .map(|l| l.map(|l| l.id.clone()))
            .map_err(|message| ScriptError {
                message,
                file: None,
                line: None,
            })?;
        let tiebreak = hooks::Tiebreak {
            seed: self.state().seed,
            variation: self.ai_variation,
        };
        self.host
            .guarded(|lua| hooks::call_ai_hook(lua, &self.world, level.as_deref(), tiebreak))
    }

    /// Picks another way of breaking the computer player's ties (the `tiebreak` its `ai` hook
    /// is given; 0, the default, everywhere else). The game's dice are untouched: the same seed
    /// played with two variations rolls the same dice for the same purposes, so what differs is
    /// the AI's own choices (`kessel simulate --ai-variations`).
    pub fn set_ai_variation(&mut self, variation: u64) {
        self.ai_variation = variation;
    }

    /// What a computer player does next at the ruleset's default level: see
    /// [`Engine::computer_choice_at`].
    pub fn computer_choice(
        &self,
        fallback: &mut crate::dice::Dice,
    ) -> Result<Option<Action>, ScriptError> {
        self.computer_choice_at(None, fallback)
    }

    /// What a computer player of the named level (`None`: the ruleset's default) does next: the
    /// ruleset's AI's choice, or, when the ruleset has no AI or the AI has no opinion, a choice
    /// drawn with `fallback` (dice of the caller's own, so choosing never moves the game's dice)
    /// among the listed actions. `None` when the rules list nothing. The choice is not taken: the
    /// caller plays it through [`Engine::act`].
    pub fn computer_choice_at(
        &self,
        level: Option<&str>,
        fallback: &mut crate::dice::Dice,
    ) -> Result<Option<Action>, ScriptError> {
        if let Some(action) = self.ai_pick_at(level)? {
            return Ok(Some(action));
        }
        self.random_choice(fallback)
    }

    /// A choice drawn with `dice` (the chooser's own) among every listed action, from the
    /// current step's choice stream; `None` when the rules list nothing. What a computer player
    /// does when its AI has no opinion.
    pub fn random_choice(
        &self,
        dice: &mut crate::dice::Dice,
    ) -> Result<Option<Action>, ScriptError> {
        let mut legal = self.legal_actions(None)?;
        if legal.is_empty() {
            return Ok(None);
        }
        let pick = (dice.roll_from(&self.choice_stream(), legal.len() as u32) - 1) as usize;
        Ok(Some(legal.swap_remove(pick)))
    }

    /// The dice stream a chooser draws from at the current step (see [`crate::dice`]): one per
    /// turn and step, so that a choice made differently in one phase leaves later phases' draws
    /// alone.
    pub fn choice_stream(&self) -> String {
        let st = self.state();
        format!("choice @{}.{}", st.turn, st.phase)
    }

    /// The side whose decision it is. A ruleset that declares the query `deciding_side` answers
    /// it (a side id, or nil for nobody); else the `side` of a game var `pending` when there is
    /// one (the convention for a decision by the non-phasing player, such as a defender's
    /// choice), else the phasing side of the current step. `None` for a step of no side. Players
    /// that take turns (the editor's computer and hot-seat players, the lab) ask this.
    pub fn deciding_side(&self) -> Option<String> {
        self.host
            .guarded(|lua| Ok(calls::deciding_side(lua, &self.world)))
            .unwrap_or(None)
    }

    /// How the game stands, per the ruleset's `result` hook: `{ level, scores = { side = n } }`.
    pub fn result(&self) -> Result<Option<crate::state::Value>, ScriptError> {
        self.host
            .guarded(|lua| hooks::call_result_hook(lua, &self.world))
    }

    /// Takes back the last action: `Ok(false)` if there is none. A log that no longer replays is
    /// an error, and then nothing changes.
    pub fn undo(&mut self) -> Result<bool, ApplyError> {
        self.world.borrow_mut().undo_last()
    }

    /// Rebuilds the state from the initial state and the log's events alone (no rules, no dice)
    /// and returns its hash; equal to `state().hash()` unless something bypassed the log.
    pub fn replay_hash(&self) -> Result<u64, ApplyError> {
        self.world.borrow().replayed().map(|s| s.hash())
    }

    /// Rebuilds the Lua side from the ruleset's files, keeping the game state. The rules are
    /// loaded once, into a new host and world; only when that succeeds is the game moved into
    /// them and the old host dropped, so on error the old rules stay live, whole.
    pub fn reload_rules(&mut self) -> Result<(), ScriptError> {
        let fresh = {
            let w = self.world.borrow();
            let mut fresh = World::new(w.state.clone());
            fresh.initial = w.initial.clone();
            fresh.scenario = w.scenario.clone();
            fresh.setup_victory = w.setup_victory.clone();
            fresh.shared()
        };
        // the new host answers to the same Stop switch as the old one
        let stopper = self.host.stopper().clone();
        let host = load_rules(
            &self.ruleset_dir,
            &self.extra_scripts,
            self.limits,
            &fresh,
            &stopper,
        )?;
        // rules that load but cannot play the game in progress are refused like a broken file
        let misfits = {
            let (w, f) = (self.world.borrow(), fresh.borrow());
            let scenario = w.scenario.as_deref();
            checks::game_misfits(&w.ruleset, &f.ruleset, &w.state, &w.options, scenario)
        };
        if let Some((site, first)) = misfits.first() {
            let more = match misfits.len() {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            let (file, line) = match site {
                Some(s) => (s.file.clone(), Some(s.line)),
                None => (display_path(&self.ruleset_dir.join("init.lua")), None),
            };
            let place = line.map_or(file.clone(), |l| format!("{file}:{l}"));
            return Err(ScriptError {
                message: format!(
                    "{place}: the new rules cannot play the game in progress: {first}{more}; \
                     the last good rules stay live (start the game again to play the new ones)"
                ),
                file: Some(file),
                line,
            });
        }
        {
            let mut old = self.world.borrow_mut();
            let mut new = fresh.borrow_mut();
            // the game moves across (the fresh world was built on copies of the state); the
            // declarations are the new ones
            new.dice = old.dice.clone();
            new.log = std::mem::take(&mut old.log);
            new.reloaded_at = std::mem::take(&mut old.reloaded_at);
            new.option_changes = std::mem::take(&mut old.option_changes);
            new.options_at_start = old.options_at_start.take();
            new.recording_options = old.recording_options;
            // (the actions so far were played under the rules as they were)
            let played = new.log.len();
            if played > 0 && new.reloaded_at.last() != Some(&played) {
                new.reloaded_at.push(played);
            }
            new.tests = std::mem::take(&mut old.tests);
            new.base = old.base.take();
            new.stage.set(Stage::Script);
            // keep the option values chosen where the option still exists
            new.options = Options::carried_over(new.ruleset.options.clone(), &old.options);
            // revisions keep counting up, so no cache keyed on an old revision can be mistaken
            // for current
            new.revision = old.revision;
            new.state_replaced();
        }
        self.world = fresh;
        self.host = host;
        Ok(())
    }

    /// Changes the dice seed of a game that has not started (scripts without a scenario).
    pub fn reseed(&mut self, seed: u64) {
        let mut w = self.world.borrow_mut();
        w.state.seed = seed;
        w.initial.seed = seed;
        w.dice = crate::dice::Dice::new(seed);
    }

    /// A reason helper for callers that build rejections.
    pub fn reason(rule: &str, message: &str) -> Reason {
        Reason {
            rule: Some(rule.to_string()),
            message: message.to_string(),
        }
    }
}

/// Builds a host, registers the API and runs `init.lua` (then any extra files) into
/// `world.ruleset`.
fn load_rules(
    dir: &Path,
    extra: &[PathBuf],
    limits: Limits,
    world: &Shared,
    stopper: &Stopper,
) -> Result<ScriptHost, ScriptError> {
    let init = dir.join("init.lua");
    if !init.is_file() {
        // a ruleset given as its init.lua (or another file in its folder) is answered with the
        // folder to give; it was "this folder has no init.lua", of a file
        if dir.is_file() {
            let folder = dir
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            return Err(ScriptError::plain(format!(
                "{}: a file, not a ruleset folder; a ruleset is the folder that holds its init.lua: give {}",
                display_path(dir),
                display_path(folder)
            )));
        }
        return Err(ScriptError::plain(format!(
            "{}: no ruleset here (this folder has no init.lua; a scenario names its ruleset folder with `ruleset = …` under [scenario])",
            display_path(dir)
        )));
    }
    let host = ScriptHost::with_stopper(dir, limits, stopper.clone())?;
    let result = {
        let _declaring = crate::world::StageGuard::enter(world, Stage::Declare);
        api::register(host.lua(), world).map_err(|e| ScriptError::plain(e.to_string()))?;
        let mut result = host.run_file(&init);
        for file in extra {
            if result.is_ok() {
                result = host.run_file(file);
            }
        }
        result
    };
    world.borrow().stage.set(Stage::Script);
    result?;
    let w = world.borrow();
    if w.ruleset.sides.is_empty() {
        return Err(ScriptError::plain(format!(
            "{}: the ruleset declared no sides (call kessel.ruleset{{ sides = {{...}} }})",
            display_path(&init)
        )));
    }
    let problems = w.ruleset.cross_check();
    if let Some(first) = problems.first() {
        let more = match problems.len() {
            1 => String::new(),
            n => format!(
                " (and {} more problem{})",
                n - 1,
                if n > 2 { "s" } else { "" }
            ),
        };
        return Err(match &first.site {
            Some(site) => ScriptError {
                message: format!("{}:{}: {}{more}", site.file, site.line, first.message),
                file: Some(site.file.clone()),
                line: Some(site.line),
            },
            None => ScriptError::plain(format!("{}: {}{more}", display_path(&init), first.message)),
        });
    }
    Ok(host)
}
