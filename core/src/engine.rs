//! The engine: a scenario's state, a ruleset's Lua host and the log of accepted actions.
//!
//! Player decisions go through [`Engine::act`]: the ruleset's validator accepts the action or
//! rejects it with reasons; an accepted action's handler emits [`Event`]s, each applied to the state
//! at once and recorded. `state = setup + events`, which gives undo, save/load and replay.

use crate::action::{Action, Reason, Rejection};
use crate::dice::Dice;
use crate::error::{LoadError, LoadErrors};
use crate::event::{Event, LogEntry, UnitsTouched};
use crate::options::{Options, Profile};
use crate::ruleset::Ruleset;
use crate::scenario::Scenario;
use crate::script::{api, display_path, Limits, ScriptError, ScriptHost};
use crate::state::GameState;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

/// What the Lua side may do right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Loading the ruleset: declarations only.
    Declare,
    /// Validating or enumerating: read-only.
    Query,
    /// Applying an accepted action: events may be emitted.
    Apply,
    /// A script or test driving the engine: full API, state changes only through `kessel.act` or
    /// the test set-up helpers.
    Script,
}

/// Everything the Lua API reads and writes, shared between the engine and its host.
#[derive(Debug)]
pub struct World {
    /// The ground state.
    pub state: GameState,
    /// The state before the first action.
    pub initial: GameState,
    /// The dice.
    pub dice: Dice,
    /// The ruleset's declarations.
    pub ruleset: Ruleset,
    /// Options in force.
    pub options: Options,
    /// The scenario, if one is loaded.
    pub scenario: Option<Arc<Scenario>>,
    /// Current stage.
    pub stage: Stage,
    /// Events emitted by the action being applied.
    pub pending: Vec<Event>,
    /// Accepted actions.
    pub log: Vec<LogEntry>,
    /// Names of test functions registered by `kessel.test` (test files only).
    pub tests: Vec<String>,
    /// Where scripts and tests start from: the position and options before they ran. Each test
    /// starts here, and `kessel.setup` resets the options to these before applying its own.
    pub base: Option<(GameState, Options)>,
    /// Bumped by every change of the state or the options (events, undo, set-up, reloads), so
    /// rules can cache what they derive from the state (`kessel.game.revision()`).
    pub revision: u64,
    /// When each unit last changed, so rules can refresh only the unit snapshots that did
    /// (`kessel.units.changed_since`).
    pub unit_changes: UnitChanges,
}

/// When each unit last changed, by revision.
#[derive(Debug, Default, Clone)]
pub struct UnitChanges {
    /// Revision at which the whole state was last replaced (set-up, undo, a loaded save, a refused
    /// action rolled back): what changed before it cannot be told unit by unit.
    reset_at: u64,
    /// By unit index: revision of the unit's last change (missing: not since `reset_at`).
    at: Vec<u64>,
}

impl UnitChanges {
    /// Ids of the units changed after `revision`, in scenario order; `None` when the state was
    /// replaced since (every unit may have changed).
    pub fn since(&self, revision: u64, state: &GameState) -> Option<Vec<String>> {
        if revision < self.reset_at {
            return None;
        }
        Some(
            self.at
                .iter()
                .enumerate()
                .filter(|(_, &r)| r > revision)
                .filter_map(|(i, _)| state.units.get(i).map(|u| u.id.clone()))
                .collect(),
        )
    }
}

/// Shared handle to the world.
pub type Shared = Rc<RefCell<World>>;

impl World {
    /// Applies and records an event (only while applying an action or in a script's set-up).
    pub fn emit(&mut self, event: Event) -> Result<(), String> {
        if !matches!(self.stage, Stage::Apply | Stage::Script) {
            return Err("the game state can only change while an action is applied".into());
        }
        self.state.apply(&event).map_err(|e| e.to_string())?;
        self.revision += 1;
        let (revision, count) = (self.revision, self.state.units.len());
        let changes = &mut self.unit_changes;
        if changes.at.len() < count {
            changes.at.resize(count, changes.reset_at);
        }
        match event.units_touched() {
            UnitsTouched::One(id) => {
                if let Some(i) = self.state.unit_index(id) {
                    changes.at[i] = revision;
                }
            }
            UnitsTouched::All => changes.at.iter_mut().for_each(|r| *r = revision),
            UnitsTouched::None => {}
        }
        self.pending.push(event);
        Ok(())
    }

    /// Records that the whole state was just replaced (set-up, undo, load, roll-back).
    pub fn state_replaced(&mut self) {
        self.revision += 1;
        self.unit_changes = UnitChanges {
            reset_at: self.revision,
            at: Vec::new(),
        };
    }

    /// The state rebuilt from the initial state and the log's events alone (no rules, no dice).
    pub fn replayed(&self) -> Result<GameState, crate::state::ApplyError> {
        let mut state = self.initial.clone();
        for entry in &self.log {
            for e in &entry.events {
                state.apply(e)?;
            }
        }
        Ok(state)
    }

    /// Takes back the last logged action: the state is rebuilt from the log without it and the
    /// dice go back to where they were. Returns false when there is nothing to undo.
    pub fn undo_last(&mut self) -> Result<bool, crate::state::ApplyError> {
        let Some(last) = self.log.pop() else {
            return Ok(false);
        };
        match self.replayed() {
            Ok(state) => {
                self.dice = Dice::at(state.seed, state.dice_drawn);
                self.state = state;
                self.state_replaced();
                Ok(true)
            }
            Err(e) => {
                // a log that does not replay is corrupt: leave everything as it was
                self.log.push(last);
                Err(e)
            }
        }
    }
}

/// Failure to build an engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// Bad data files.
    #[error("{0}")]
    Load(#[from] LoadErrors),
    /// Bad scripts.
    #[error("{0}")]
    Script(#[from] ScriptError),
}

impl From<LoadError> for EngineError {
    fn from(e: LoadError) -> Self {
        EngineError::Load(LoadErrors(vec![e]))
    }
}

/// The outcome of an action: refused with reasons, or the events it produced.
pub type Outcome = Result<Vec<Event>, Rejection>;

/// A saved game: what to load, and the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaveFile {
    /// Format tag.
    pub format: String,
    /// Scenario file, as given when the game started.
    pub scenario: String,
    /// Profile name or path.
    pub profile: Option<String>,
    /// Dice seed.
    pub seed: u64,
    /// Hash of the state after the log, to detect a changed scenario or corrupt file.
    pub state_hash: String,
    /// Option values set by hand (in the editor, say) that differ from what the profile gives:
    /// the rulings after a load are made under the same options as before the save.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, crate::state::Value>,
    /// Accepted actions and their events.
    pub log: Vec<LogEntry>,
}

/// A game in progress: state, rules, log.
#[derive(Debug)]
pub struct Engine {
    host: ScriptHost,
    world: Shared,
    ruleset_dir: PathBuf,
    extra_scripts: Vec<PathBuf>,
    limits: Limits,
    profile_arg: Option<String>,
}

const SAVE_FORMAT: &str = "kessel-save/1";

impl Engine {
    /// Loads a scenario, its ruleset and a profile (name in the ruleset's `profiles/`, or a path;
    /// `None` = the scenario's default), with dice at `seed`.
    pub fn load(
        scenario_path: &Path,
        profile: Option<&str>,
        seed: u64,
        limits: Limits,
    ) -> Result<Engine, EngineError> {
        let scenario = Scenario::load(scenario_path)?;
        Engine::with_scenario(scenario, profile, seed, limits)
    }

    /// Builds an engine for a loaded scenario.
    pub fn with_scenario(
        scenario: Scenario,
        profile: Option<&str>,
        seed: u64,
        limits: Limits,
    ) -> Result<Engine, EngineError> {
        let dir = scenario.ruleset_dir.clone();
        let profile_arg = profile
            .map(str::to_string)
            .or_else(|| scenario.profile.clone());
        let mut engine = Engine::bare_with(&dir, &scenario.scripts, limits)?;
        engine.profile_arg = profile_arg.clone();
        let sides = engine.world.borrow().ruleset.sides.clone();
        let state = scenario.initial_state(sides, seed);
        {
            let mut w = engine.world.borrow_mut();
            w.state = state.clone();
            w.state_replaced();
            w.initial = state;
            w.dice = Dice::new(seed);
            w.scenario = Some(Arc::new(scenario));
        }
        engine.apply_profile(profile_arg.as_deref())?;
        engine.check_scenario()?;
        engine.run_setup_hooks()?;
        Ok(engine)
    }

    /// An engine with a ruleset and an empty 1×1 map, for tests and scripts that build their own
    /// positions.
    pub fn bare(ruleset_dir: &Path, limits: Limits) -> Result<Engine, EngineError> {
        Engine::bare_with(ruleset_dir, &[], limits)
    }

    /// Like [`Engine::bare`], also running extra Lua files (a scenario's special rules) after the
    /// ruleset's `init.lua`, in the declaration stage.
    pub fn bare_with(
        ruleset_dir: &Path,
        extra: &[PathBuf],
        limits: Limits,
    ) -> Result<Engine, EngineError> {
        let map = Arc::new(crate::map::Map::new(
            "empty",
            1,
            1,
            crate::numbering::Numbering::default(),
            "clear",
        ));
        let state = GameState::new(map, Vec::new(), 0);
        let world = Rc::new(RefCell::new(World {
            state: state.clone(),
            initial: state,
            dice: Dice::new(0),
            ruleset: Ruleset::default(),
            options: Options::default(),
            scenario: None,
            stage: Stage::Declare,
            pending: Vec::new(),
            log: Vec::new(),
            tests: Vec::new(),
            base: None,
            revision: 0,
            unit_changes: UnitChanges::default(),
        }));
        let host = load_rules(ruleset_dir, extra, limits, &world)?;
        {
            let mut w = world.borrow_mut();
            let decls = w.ruleset.options.clone();
            w.options = Options::defaults(decls);
            let sides = w.ruleset.sides.clone();
            w.state.sides = sides.clone();
            w.initial.sides = sides;
        }
        Ok(Engine {
            host,
            world,
            ruleset_dir: ruleset_dir.to_path_buf(),
            extra_scripts: extra.to_vec(),
            limits,
            profile_arg: None,
        })
    }

    /// Resolves a profile argument: a name in `<ruleset>/profiles/`, or a path.
    pub fn profile_path(ruleset_dir: &Path, profile: &str) -> PathBuf {
        let as_path = PathBuf::from(profile);
        if profile.ends_with(".toml") || as_path.components().count() > 1 {
            as_path
        } else {
            ruleset_dir.join("profiles").join(format!("{profile}.toml"))
        }
    }

    /// Reads a profile against this ruleset's options.
    pub fn read_profile(&self, profile: &str) -> Result<Profile, LoadErrors> {
        let path = Engine::profile_path(&self.ruleset_dir, profile);
        let text = crate::error::read_text(&path, &format!("profile `{profile}`"))?;
        let decls = self.world.borrow().ruleset.options.clone();
        Profile::parse(&path, &text, &decls)
    }

    /// Applies a profile (None = option defaults).
    pub fn apply_profile(&mut self, profile: Option<&str>) -> Result<(), EngineError> {
        let decls = self.world.borrow().ruleset.options.clone();
        let options = match profile {
            Some(p) => Options::with_profile(decls, &self.read_profile(p)?),
            None => Options::defaults(decls),
        };
        let mut w = self.world.borrow_mut();
        w.options = options;
        w.revision += 1;
        drop(w);
        self.profile_arg = profile.map(str::to_string);
        Ok(())
    }

    fn check_scenario(&self) -> Result<(), EngineError> {
        let w = self.world.borrow();
        let Some(sc) = w.scenario.clone() else {
            return Ok(());
        };
        let mut errors = Vec::new();
        for m in w.ruleset.check_map(&sc.map) {
            errors.push(LoadError::new(
                &sc.map_path,
                crate::scenario::kind_line(&sc.map_path, &m),
                m,
            ));
        }
        for spec in &sc.units {
            let u = &spec.unit;
            if !w.ruleset.sides.contains(&u.side) {
                errors.push(LoadError::new(
                    &sc.path,
                    Some(spec.line),
                    format!(
                        "unit `{}`: unknown side `{}` (the ruleset has: {})",
                        u.id,
                        u.side,
                        w.ruleset.sides.join(", ")
                    ),
                ));
            }
            if !w.ruleset.unit_types.is_empty() && !w.ruleset.unit_types.contains_key(&u.kind) {
                errors.push(LoadError::new(
                    &sc.path,
                    Some(spec.line),
                    format!(
                        "unit `{}`: unknown unit type `{}` (the ruleset has: {})",
                        u.id,
                        u.kind,
                        w.ruleset
                            .unit_types
                            .keys()
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
        }
        drop(w);
        // the ruleset's own set-up checks (stacking and the like)
        let problems = self
            .host
            .guarded(|lua| api::call_check_hooks(lua, &self.world))?;
        for (unit, message) in problems {
            let line = unit.as_deref().and_then(|u| sc.unit_line(u));
            errors.push(LoadError::new(&sc.path, line, message));
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(EngineError::Load(LoadErrors(errors)))
        }
    }

    fn run_setup_hooks(&mut self) -> Result<(), EngineError> {
        self.host
            .guarded(|lua| api::call_setup_hooks(lua, &self.world))?;
        let mut w = self.world.borrow_mut();
        w.initial = w.state.clone();
        w.pending.clear();
        Ok(())
    }

    /// The shared world (for the editor and the API).
    pub fn world(&self) -> &Shared {
        &self.world
    }

    /// A copy of the current state.
    pub fn state(&self) -> GameState {
        self.world.borrow().state.clone()
    }

    /// The ruleset's declarations.
    pub fn ruleset(&self) -> Ruleset {
        self.world.borrow().ruleset.clone()
    }

    /// The options in force.
    pub fn options(&self) -> Options {
        self.world.borrow().options.clone()
    }

    /// The scenario, if any.
    pub fn scenario(&self) -> Option<Arc<Scenario>> {
        self.world.borrow().scenario.clone()
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

    /// The log of accepted actions.
    pub fn log(&self) -> Vec<LogEntry> {
        self.world.borrow().log.clone()
    }

    /// Queues die rolls for the next actions.
    pub fn inject_dice(&self, rolls: impl IntoIterator<Item = u32>) {
        self.world.borrow_mut().dice.inject(rolls);
    }

    /// Validates an action without applying it.
    pub fn validate(&self, action: &Action) -> Result<Result<(), Rejection>, ScriptError> {
        self.host
            .guarded(|lua| api::validate(lua, &self.world, action))
    }

    /// Validates and, if legal, applies an action.
    pub fn act(&self, action: &Action) -> Result<Outcome, ScriptError> {
        self.host.guarded(|lua| api::act(lua, &self.world, action))
    }

    /// Every legal action for a side (or the phasing side), as the rules enumerate them.
    pub fn legal_actions(&self, side: Option<&str>) -> Result<Vec<Action>, ScriptError> {
        self.host
            .guarded(|lua| api::legal_actions(lua, &self.world, side))
    }

    /// The legal actions of the kinds `keep` accepts only (see [`Engine::legal_actions`]); the
    /// other kinds' enumerators are not run.
    pub fn legal_actions_where(
        &self,
        side: Option<&str>,
        keep: impl Fn(&str) -> bool,
    ) -> Result<Vec<Action>, ScriptError> {
        self.host
            .guarded(|lua| api::legal_actions_where(lua, &self.world, side, &keep))
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
            .guarded(|lua| api::query(lua, &self.world, name, chunk, args))
    }

    /// Sets one option for the game in progress (a rules panel flipping a house rule). The value
    /// must fit the option's declaration. The profile name stays: a save still records the
    /// profile, not options changed by hand.
    pub fn set_option(&self, id: &str, value: crate::state::Value) -> Result<(), String> {
        let mut w = self.world.borrow_mut();
        let decl = w
            .options
            .decls
            .iter()
            .find(|d| d.id == id)
            .ok_or_else(|| format!("the ruleset has no option `{id}`"))?;
        decl.check(&value)?;
        w.options.values.insert(id.to_string(), value);
        w.revision += 1;
        Ok(())
    }

    /// The ruleset's AI's next action (`None` if the ruleset has no `ai` hook or the hook has no
    /// opinion). The hook asks for the kinds of action it weighs and must choose one the rules
    /// listed; the choice still goes through [`Engine::act`] like a player's.
    pub fn ai_pick(&self) -> Result<Option<Action>, ScriptError> {
        self.host.guarded(|lua| api::call_ai_hook(lua, &self.world))
    }

    /// How the game stands, per the ruleset's `result` hook: `{ level, scores = { side = n } }`.
    pub fn result(&self) -> Result<Option<crate::state::Value>, ScriptError> {
        self.host
            .guarded(|lua| api::call_result_hook(lua, &self.world))
    }

    /// Takes back the last action. Returns false if there is none.
    pub fn undo(&self) -> bool {
        self.world.borrow_mut().undo_last().unwrap_or(false)
    }

    /// Rebuilds the state from the initial state and the log's events alone (no rules, no dice)
    /// and returns its hash; equal to `state().hash()` unless something bypassed the log.
    pub fn replay_hash(&self) -> Result<u64, String> {
        let w = self.world.borrow();
        w.replayed().map(|s| s.hash()).map_err(|e| e.to_string())
    }

    /// Serialises the game (scenario reference, profile, seed, log) as JSON.
    pub fn save(&self) -> Result<String, String> {
        let w = self.world.borrow();
        let scenario = w
            .scenario
            .as_ref()
            .map(|s| display_path(&s.path))
            .unwrap_or_default();
        // what the profile gives; if it can no longer be read, record every value
        let decls = w.ruleset.options.clone();
        let base = match &self.profile_arg {
            Some(p) => self
                .read_profile(p)
                .ok()
                .map(|profile| Options::with_profile(decls, &profile)),
            None => Some(Options::defaults(decls)),
        };
        let options = w
            .options
            .values
            .iter()
            .filter(|(k, v)| base.as_ref().is_none_or(|b| b.values.get(*k) != Some(*v)))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let save = SaveFile {
            format: SAVE_FORMAT.into(),
            scenario,
            profile: self.profile_arg.clone(),
            seed: w.state.seed,
            state_hash: format!("{:016x}", w.state.hash()),
            options,
            log: w.log.clone(),
        };
        serde_json::to_string_pretty(&save)
            .map(|mut s| {
                s.push('\n');
                s
            })
            .map_err(|e| e.to_string())
    }

    /// Loads a saved game: rebuilds the scenario and rules, then replays the log's events.
    pub fn load_save(path: &Path, limits: Limits) -> Result<Engine, EngineError> {
        let text = crate::error::read_text(path, "save")?;
        let save: SaveFile = serde_json::from_str(&text)
            .map_err(|e| LoadError::new(path, Some(e.line()), format!("not a Kessel save: {e}")))?;
        if save.format != SAVE_FORMAT {
            return Err(LoadError::new(
                path,
                None,
                format!("unknown save format `{}`", save.format),
            )
            .into());
        }
        let engine = Engine::load(
            Path::new(&save.scenario),
            save.profile.as_deref(),
            save.seed,
            limits,
        )?;
        for (id, value) in &save.options {
            engine.set_option(id, value.clone()).map_err(|e| {
                LoadError::new(path, None, format!("the save sets option `{id}`: {e}"))
            })?;
        }
        {
            let mut w = engine.world.borrow_mut();
            w.log = save.log.clone();
            w.state = w.replayed().map_err(|err| {
                LoadError::new(
                    path,
                    None,
                    format!("the log does not fit the scenario: {err}"),
                )
            })?;
            w.dice = Dice::at(w.state.seed, w.state.dice_drawn);
            w.state_replaced();
            let hash = format!("{:016x}", w.state.hash());
            if hash != save.state_hash {
                return Err(LoadError::new(
                    path,
                    None,
                    format!(
                        "state hash {hash} differs from the saved {}: the scenario changed since the save",
                        save.state_hash
                    ),
                )
                .into());
            }
        }
        Ok(engine)
    }

    /// Rebuilds the Lua side from the ruleset's files, keeping the game state; on error the old
    /// rules stay live and the error is returned.
    pub fn reload_rules(&mut self) -> Result<(), ScriptError> {
        let probe = Rc::new(RefCell::new(World {
            state: self.world.borrow().state.clone(),
            initial: self.world.borrow().initial.clone(),
            dice: self.world.borrow().dice.clone(),
            ruleset: Ruleset::default(),
            options: Options::default(),
            scenario: self.world.borrow().scenario.clone(),
            stage: Stage::Declare,
            pending: Vec::new(),
            log: Vec::new(),
            tests: Vec::new(),
            base: None,
            revision: 0,
            unit_changes: UnitChanges::default(),
        }));
        // load into a throw-away world first so a broken file changes nothing
        load_rules(&self.ruleset_dir, &self.extra_scripts, self.limits, &probe)?;
        let ruleset = probe.borrow().ruleset.clone();
        let host = ScriptHost::new(&self.ruleset_dir, self.limits)?;
        self.world.borrow_mut().ruleset = Ruleset::default();
        self.world.borrow_mut().stage = Stage::Declare;
        api::register(host.lua(), &self.world).map_err(|e| ScriptError::plain(e.to_string()))?;
        let init = self.ruleset_dir.join("init.lua");
        let mut result = host.run_file(&init);
        for extra in &self.extra_scripts {
            if result.is_ok() {
                result = host.run_file(extra);
            }
        }
        let mut w = self.world.borrow_mut();
        w.stage = Stage::Script;
        if let Err(e) = result {
            w.ruleset = ruleset;
            return Err(e);
        }
        // keep option values the user chose where the option still exists
        let old = w.options.clone();
        let mut options = Options::defaults(w.ruleset.options.clone());
        for (k, v) in old.values {
            if options.values.contains_key(&k) {
                options.values.insert(k, v);
            }
        }
        options.profile = old.profile;
        w.options = options;
        w.revision += 1;
        drop(w);
        self.host = host;
        Ok(())
    }

    /// Remembers the current position and options as the base scripts and tests start from.
    fn set_base(&self) {
        let mut w = self.world.borrow_mut();
        w.base = Some((w.initial.clone(), w.options.clone()));
        w.stage = Stage::Script;
    }

    /// Changes the dice seed of a game that has not started (scripts without a scenario).
    pub fn reseed(&self, seed: u64) {
        let mut w = self.world.borrow_mut();
        w.state.seed = seed;
        w.initial.seed = seed;
        w.dice = Dice::new(seed);
    }

    /// Runs a script file with the full API (`kessel script`).
    pub fn run_script(&self, path: &Path) -> Result<(), ScriptError> {
        self.set_base();
        api::register_script_api(self.host.lua(), &self.world)
            .map_err(|e| ScriptError::plain(e.to_string()))?;
        self.host.run_file(path).map(|_| ())
    }

    /// Runs Lua source text with the full script API (benchmarks, the editor's console).
    pub fn run_script_text(&self, name: &str, text: &str) -> Result<(), ScriptError> {
        self.world.borrow_mut().stage = Stage::Script;
        api::register_script_api(self.host.lua(), &self.world)
            .map_err(|e| ScriptError::plain(e.to_string()))?;
        if text.is_empty() {
            return Ok(());
        }
        self.host.run_text(name, text).map(|_| ())
    }

    /// Loads a test file and returns the names of the tests it registered.
    pub fn load_tests(&self, path: &Path) -> Result<Vec<String>, ScriptError> {
        self.set_base();
        self.world.borrow_mut().tests.clear();
        api::register_script_api(self.host.lua(), &self.world)
            .map_err(|e| ScriptError::plain(e.to_string()))?;
        self.host.run_file(path)?;
        Ok(self.world.borrow().tests.clone())
    }

    /// Runs one registered test in a fresh position (the scenario's initial state, or empty).
    pub fn run_test(&self, name: &str) -> Result<(), ScriptError> {
        {
            let mut w = self.world.borrow_mut();
            let (state, options) = match &w.base {
                Some(b) => b.clone(),
                None => (w.initial.clone(), w.options.clone()),
            };
            w.dice = Dice::new(state.seed);
            w.initial = state.clone();
            w.state = state;
            w.options = options;
            w.state_replaced();
            w.log.clear();
            w.pending.clear();
            w.stage = Stage::Script;
        }
        self.host.guarded(|lua| api::run_test(lua, name))
    }

    /// The odds of an attack under the ruleset's `odds` hook, and the chance of each result, as
    /// text for people.
    pub fn odds_report(
        &self,
        table: &str,
        attack: i32,
        defence: i32,
        shift: i32,
        flags: &[String],
    ) -> Result<String, ScriptError> {
        use std::fmt::Write;
        let m = self
            .host
            .guarded(|lua| api::call_odds_hook(lua, &self.world, attack, defence, flags))?;
        let w = self.world.borrow();
        let t = w.ruleset.tables.get(table).ok_or_else(|| {
            ScriptError::plain(format!(
                "the ruleset has no results table `{table}` (it has: {})",
                w.ruleset
                    .tables
                    .keys()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        let o = t.odds(m.attack, m.defence, m.shift + shift);
        let mut s = String::new();
        let _ = writeln!(s, "attack {attack} vs defence {defence}");
        for n in &m.notes {
            let _ = writeln!(s, "  {n}");
        }
        if (m.attack, m.defence) != (attack, defence) {
            let _ = writeln!(s, "modified: attack {} vs defence {}", m.attack, m.defence);
        }
        if m.shift + shift != 0 {
            let _ = writeln!(s, "column shift {:+}", m.shift + shift);
        }
        let label = t.columns[o.column].label(&t.kind);
        let edge = if o.below {
            " (below the table: resolved on its first column)"
        } else if o.above {
            " (above the table: resolved on its last column)"
        } else {
            ""
        };
        let _ = writeln!(s, "odds column {label}{edge}");
        for (code, p) in t.distribution(o.column) {
            let rolls: Vec<String> = t
                .rows
                .iter()
                .enumerate()
                .filter(|(_, r)| r.get(o.column) == Some(&code))
                .map(|(i, _)| (i as i32 + t.first_roll).to_string())
                .collect();
            let _ = writeln!(
                s,
                "  {code:<6} {:>5.1}%  (roll {})",
                p * 100.0,
                rolls.join(", ")
            );
        }
        Ok(s)
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
) -> Result<ScriptHost, ScriptError> {
    let init = dir.join("init.lua");
    if !init.is_file() {
        return Err(ScriptError::plain(format!(
            "{}: no ruleset here (init.lua is missing)",
            display_path(dir)
        )));
    }
    let host = ScriptHost::new(dir, limits)?;
    world.borrow_mut().stage = Stage::Declare;
    api::register(host.lua(), world).map_err(|e| ScriptError::plain(e.to_string()))?;
    let mut result = host.run_file(&init);
    for file in extra {
        if result.is_ok() {
            result = host.run_file(file);
        }
    }
    world.borrow_mut().stage = Stage::Script;
    result?;
    let w = world.borrow();
    if w.ruleset.sides.is_empty() {
        return Err(ScriptError::plain(format!(
            "{}: the ruleset declared no sides (call kessel.ruleset{{ sides = {{...}} }})",
            display_path(&init)
        )));
    }
    Ok(host)
}
