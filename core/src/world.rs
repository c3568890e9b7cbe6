//! The world: everything a game is made of at one moment (state, dice, declarations, options, log),
//! shared by the engine, which drives it, and the Lua API, which reads and changes it.
//!
//! **Boundary:** this module knows neither the engine nor the Lua host; both depend on it.

use crate::dice::Dice;
use crate::event::{Event, LogEntry, UnitsTouched};
use crate::options::Options;
use crate::ruleset::CostModelCache;
use crate::ruleset::Ruleset;
use crate::scenario::{Level, Objective, Scenario};
use crate::state::{ApplyError, GameState, Unit};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
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
    /// Current stage. A `Cell`, so that entering the read-only stage needs no mutable borrow: a
    /// caller may hold a view of the state while the rules answer a question.
    pub stage: Cell<Stage>,
    /// Events emitted by the action being applied.
    pub pending: Vec<Event>,
    /// Accepted actions.
    pub log: Vec<LogEntry>,
    /// How many of the log's actions had been played at each reload of the rules during play
    /// (ascending): the actions before such a point were played under the files as they were
    /// then. A save keeps it, so that a load the new files cannot replay blames the reload, not
    /// an edit of the history. An undo past a point moves it back with the log.
    pub reloaded_at: Vec<usize>,
    /// Options changed once the game was set up (a rules panel's flip, a profile picked mid-game),
    /// in order: a save keeps them with the options it started under, so a load sets the game up
    /// as it was set up and changes them where the players did ([`OptionChange`]).
    pub option_changes: Vec<OptionChange>,
    /// The profile (as given) and option values the game was set up under, kept at the first of
    /// [`World::option_changes`].
    pub options_at_start: Option<(Option<String>, BTreeMap<String, crate::state::Value>)>,
    /// Whether option changes are recorded: on once a game is set up (its set-up hooks ran
    /// under the options then in force), off while a scenario loads or a save replays.
    pub recording_options: bool,
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
    /// Movement cost models compiled from the declaration in force, per class and side; they
    /// follow the map and the options by themselves (see [`CostModelCache`]).
    pub cost_models: RefCell<CostModelCache>,
    /// What an action being applied has changed so far, to put back if its handler fails (see
    /// [`World::begin_action`]); `None` outside an action.
    journal: Option<Journal>,
    /// A script changed the game outside actions (an event emitted from the script itself,
    /// `kessel.setup`, injected dice): a save, which holds the scenario and the actions, cannot
    /// give this game back. Said when `kessel script --save` finds that it does not.
    pub changed_outside_actions: bool,
    /// Victory objectives and levels a `kessel.setup` gave (a test's or a script's own position),
    /// read by the rules in place of the scenario's; `None` reads the scenario's.
    pub setup_victory: SetupVictory,
}

/// What a `kessel.setup` says of victory, each part in place of the scenario's when given.
#[derive(Clone, Debug, Default)]
pub struct SetupVictory {
    /// The objectives, in the order given.
    pub objectives: Option<Arc<Vec<Objective>>>,
    /// The levels, in the order given.
    pub levels: Option<Arc<Vec<Level>>>,
}

/// Enough of the state before an action to restore it: everything but the units as it was, and
/// of the units only those the action's events touched (the first time each is touched). Copying
/// every unit before every action was a large part of an action's cost; an action touches a few.
#[derive(Debug)]
struct Journal {
    /// The state without its units.
    rest: GameState,
    /// How many units there were (units created since are dropped on roll-back).
    unit_count: usize,
    /// Touched units as they were, by index.
    saved: Vec<(usize, Unit)>,
    /// `saved` holds this index already.
    is_saved: Vec<bool>,
}

impl Journal {
    fn save(&mut self, units: &[Unit], i: usize) {
        if i < self.unit_count && !self.is_saved[i] {
            self.is_saved[i] = true;
            self.saved.push((i, units[i].clone()));
        }
    }
}

/// Shared handle to the world.
pub type Shared = Rc<RefCell<World>>;

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
    /// Indices of the units changed after `revision`, in scenario order; `None` when the state was
    /// replaced since (every unit may have changed).
    pub fn indices_since(&self, revision: u64) -> Option<impl Iterator<Item = usize> + '_> {
        if revision < self.reset_at {
            return None;
        }
        Some(
            self.at
                .iter()
                .enumerate()
                .filter(move |(_, &r)| r > revision)
                .map(|(i, _)| i),
        )
    }

    /// Ids of the units changed after `revision`, in scenario order; `None` when the state was
    /// replaced since (every unit may have changed).
    pub fn since(&self, revision: u64, state: &GameState) -> Option<Vec<String>> {
        Some(
            self.indices_since(revision)?
                .filter_map(|i| state.units.get(i).map(|u| u.id.clone()))
                .collect(),
        )
    }
}

impl World {
    /// The victory objectives the rules read: a set-up's own, else the scenario's, else none.
    pub fn objectives(&self) -> &[Objective] {
        match (&self.setup_victory.objectives, &self.scenario) {
            (Some(own), _) => own,
            (None, Some(sc)) => &sc.objectives,
            (None, None) => &[],
        }
    }

    /// The victory levels the rules read, as [`World::objectives`].
    pub fn levels(&self) -> &[Level] {
        match (&self.setup_victory.levels, &self.scenario) {
            (Some(own), _) => own,
            (None, Some(sc)) => &sc.levels,
            (None, None) => &[],
        }
    }

    /// A world at `state` (also its initial state) with no declarations yet, in the declaration
    /// stage, its dice at the state's seed.
    pub fn new(state: GameState) -> World {
        World {
            dice: Dice::new(state.seed),
            initial: state.clone(),
            state,
            ruleset: Ruleset::default(),
            options: Options::default(),
            scenario: None,
            stage: Cell::new(Stage::Declare),
            pending: Vec::new(),
            log: Vec::new(),
            reloaded_at: Vec::new(),
            option_changes: Vec::new(),
            options_at_start: None,
            recording_options: false,
            tests: Vec::new(),
            base: None,
            revision: 0,
            unit_changes: UnitChanges::default(),
            cost_models: RefCell::new(CostModelCache::default()),
            journal: None,
            changed_outside_actions: false,
            setup_victory: SetupVictory::default(),
        }
    }

    /// The world as a shared handle.
    pub fn shared(self) -> Shared {
        Rc::new(RefCell::new(self))
    }

    /// The steps of the sequence being walked (the state's mode, or the main sequence).
    pub fn current_steps(&self) -> &[crate::ruleset::Step] {
        self.ruleset.steps_of(self.state.mode.as_deref())
    }

    /// The current step of the sequence being walked, if one is declared.
    pub fn current_step(&self) -> Option<&crate::ruleset::Step> {
        self.current_steps().get(self.state.phase)
    }

    /// The current stage.
    pub fn stage(&self) -> Stage {
        self.stage.get()
    }

    /// Applies and records an event (only while applying an action or in a script's set-up).
    pub fn emit(&mut self, event: Event) -> Result<(), String> {
        match self.stage() {
            Stage::Apply => {}
            Stage::Script => self.changed_outside_actions = true,
            _ => return Err("the game state can only change while an action is applied".into()),
        }
        // a flag or variable cleared from every unit changes only the units that had it: worked
        // out before the event is applied, so that the others keep their snapshots and
        // `changed_since` stays exact
        let cleared = match event.units_touched() {
            UnitsTouched::All => Some(self.state.units_holding(&event)),
            _ => None,
        };
        if let Some(journal) = &mut self.journal {
            match (&cleared, event.units_touched()) {
                (Some(indices), _) => {
                    for &i in indices {
                        journal.save(&self.state.units, i);
                    }
                }
                (None, UnitsTouched::One(id)) => {
                    if let Some(i) = self.state.unit_index(id) {
                        journal.save(&self.state.units, i);
                    }
                }
                (None, _) => {}
            }
        }
        self.state.apply(&event).map_err(|e| e.to_string())?;
        self.revision += 1;
        let (revision, count) = (self.revision, self.state.units.len());
        let changes = &mut self.unit_changes;
        if changes.at.len() < count {
            changes.at.resize(count, changes.reset_at);
        }
        match (&cleared, event.units_touched()) {
            (Some(indices), _) => {
                for &i in indices {
                    changes.at[i] = revision;
                }
            }
            (None, UnitsTouched::One(id)) => {
                if let Some(i) = self.state.unit_index(id) {
                    changes.at[i] = revision;
                }
            }
            (None, _) => {}
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

    /// Starts journaling an action's changes, so that [`World::abandon_action`] can put the state
    /// back as it is now. Every change of the state while applying goes through
    /// [`World::emit`], which saves each unit the first time an event touches it.
    pub fn begin_action(&mut self) {
        let unit_count = self.state.units.len();
        self.journal = Some(Journal {
            rest: self.state.clone_without_units(),
            unit_count,
            saved: Vec::new(),
            is_saved: vec![false; unit_count],
        });
    }

    /// Ends the journal of an action whose handler succeeded: its changes stay.
    pub fn end_action(&mut self) {
        self.journal = None;
    }

    /// Puts back the state from before [`World::begin_action`] and `dice`, after a handler
    /// failed, and drops what it emitted (as [`World::roll_back`] does with a whole copy).
    pub fn abandon_action(&mut self, dice: Dice) {
        let Some(journal) = self.journal.take() else {
            return;
        };
        let mut units = std::mem::take(&mut self.state.units);
        units.truncate(journal.unit_count);
        for (i, u) in journal.saved {
            units[i] = u;
        }
        let mut state = journal.rest;
        state.set_units(units);
        self.roll_back(state, dice);
    }

    /// Puts back the state and dice from before an action whose handler failed and drops what
    /// it emitted. The revision still moves on (rules may have cached what they read while the
    /// handler ran), and the units the dropped events touched count as changed now, so
    /// `changed_since` stays exact across the roll-back.
    pub fn roll_back(&mut self, state: GameState, dice: Dice) {
        self.state = state;
        self.dice = dice;
        self.revision += 1;
        let revision = self.revision;
        let count = self.state.units.len();
        let changes = &mut self.unit_changes;
        if changes.at.len() < count {
            changes.at.resize(count, changes.reset_at);
        }
        for event in std::mem::take(&mut self.pending) {
            match event.units_touched() {
                UnitsTouched::One(id) => {
                    if let Some(i) = self.state.unit_index(id) {
                        changes.at[i] = revision;
                    }
                }
                UnitsTouched::All => changes.at.iter_mut().for_each(|r| *r = revision),
                UnitsTouched::None => {}
            }
        }
        // units the handler created are gone again: no index may point past the units
        changes.at.truncate(count);
    }

    /// Records a change of the options (or anything else the rules read besides the state).
    pub fn options_changed(&mut self) {
        self.revision += 1;
    }

    /// The state rebuilt from the initial state and the log's events alone (no rules, no dice).
    pub fn replayed(&self) -> Result<GameState, ApplyError> {
        let mut state = self.initial.clone();
        for entry in &self.log {
            for e in &entry.events {
                state.apply(e)?;
            }
        }
        Ok(state)
    }

    /// Takes back the last logged action: the state is rebuilt from the log without it and the
    /// dice go back to where they were. Returns false when there is nothing to undo; a log that
    /// does not replay is an error, and then nothing changes.
    pub fn undo_last(&mut self) -> Result<bool, ApplyError> {
        let Some(last) = self.log.pop() else {
            return Ok(false);
        };
        match self.replayed() {
            Ok(state) => {
                self.dice = Dice::resume(state.seed, state.dice_drawn, state.dice_streams.clone());
                self.state = state;
                self.state_replaced();
                // a reload or an option change after the actions left was, for them, one right
                // after the last
                let played = self.log.len();
                for c in &mut self.option_changes {
                    c.at = c.at.min(played);
                }
                if self.reloaded_at.last().is_some_and(|&p| p > played) {
                    self.reloaded_at.retain(|&p| p < played);
                    if played > 0 {
                        self.reloaded_at.push(played);
                    }
                }
                Ok(true)
            }
            Err(e) => {
                self.log.push(last);
                Err(e)
            }
        }
    }
}

/// Options changed during play ([`World::option_changes`]), as a save keeps them.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OptionChange {
    /// Actions played before the change.
    pub at: usize,
    /// The profile in force after it (a name, or a path as given); absent: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// Every option's value after it.
    pub options: BTreeMap<String, crate::state::Value>,
}

/// Sets the stage for as long as it lives and restores the previous one when dropped, whatever
/// way the scope is left (a Lua error, `?`).
#[must_use = "the stage is restored when the guard is dropped"]
pub struct StageGuard<'a> {
    world: &'a Shared,
    before: Stage,
}

impl<'a> StageGuard<'a> {
    /// Enters `stage`.
    pub fn enter(world: &'a Shared, stage: Stage) -> StageGuard<'a> {
        let before = world.borrow().stage.replace(stage);
        StageGuard { world, before }
    }
}

impl Drop for StageGuard<'_> {
    fn drop(&mut self) {
        if let Ok(w) = self.world.try_borrow() {
            w.stage.set(self.before);
        }
    }
}
