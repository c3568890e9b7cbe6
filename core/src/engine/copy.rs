//! A game copied out of an engine, to be played on by an engine on another thread.
//!
//! An [`Engine`] is tied to the thread that made it (its Lua state is). A program that wants the
//! rules to work on one thread while another stays responsive — the editor, whose computer
//! player thinks on a thread of its own while the window keeps drawing — copies the game out
//! ([`Engine::copy_game`]: plain data, `Send`), builds an engine from it on the other thread
//! ([`Engine::from_copy`]: the rules loaded from the same files), and afterwards brings that
//! engine up to date with later copies ([`Engine::take_game`]). Only the game moves across; each
//! engine has its own Lua state, so nothing is shared but the data.

use super::{Engine, EngineError};
use crate::event::LogEntry;
use crate::options::Options;
use crate::scenario::Scenario;
use crate::script::{Limits, Stopper};
use crate::state::GameState;
use std::path::PathBuf;
use std::sync::Arc;

/// Everything a game is, apart from the rules' Lua state: enough for an engine on another thread
/// to go on from the same position with the same rules files.
#[derive(Clone, Debug)]
pub struct GameCopy {
    pub(super) ruleset_dir: PathBuf,
    extra_scripts: Vec<PathBuf>,
    limits: Limits,
    profile_arg: Option<String>,
    scenario: Option<Arc<Scenario>>,
    setup_victory: crate::world::SetupVictory,
    pub(super) state: GameState,
    pub(super) initial: GameState,
    dice: crate::dice::Dice,
    options: Options,
    pub(super) log: Vec<LogEntry>,
    reloaded_at: Vec<usize>,
    option_changes: Vec<crate::world::OptionChange>,
    options_at_start: Option<(
        Option<String>,
        std::collections::BTreeMap<String, crate::state::Value>,
    )>,
    recording_options: bool,
}

impl GameCopy {
    /// The state of the copied game.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// Whether `engine` runs the rules this copy was made with (the same ruleset folder and
    /// scenario scripts), so that it can [`Engine::take_game`] the copy instead of being built
    /// again with [`Engine::from_copy`].
    pub fn same_rules_as(&self, engine: &Engine) -> bool {
        self.ruleset_dir == engine.ruleset_dir && self.extra_scripts == engine.extra_scripts
    }
}

impl Engine {
    /// The game as plain data another thread can take (see the module docs).
    pub fn copy_game(&self) -> GameCopy {
        let w = self.world.borrow();
        GameCopy {
            ruleset_dir: self.ruleset_dir.clone(),
            extra_scripts: self.extra_scripts.clone(),
            limits: self.limits,
            profile_arg: self.profile_arg.clone(),
            scenario: w.scenario.clone(),
            setup_victory: w.setup_victory.clone(),
            state: w.state.clone(),
            initial: w.initial.clone(),
            dice: w.dice.clone(),
            options: w.options.clone(),
            log: w.log.clone(),
            reloaded_at: w.reloaded_at.clone(),
            option_changes: w.option_changes.clone(),
            options_at_start: w.options_at_start.clone(),
            recording_options: w.recording_options,
        }
    }

    /// An engine on this thread for a copied game: the rules loaded afresh from the copy's
    /// ruleset folder and scenario scripts, then the game put in. `stopper` stops its rule calls
    /// from any thread (the one that made the copy, say).
    pub fn from_copy(copy: &GameCopy, stopper: Stopper) -> Result<Engine, EngineError> {
        let mut engine =
            Engine::bare_stoppable(&copy.ruleset_dir, &copy.extra_scripts, copy.limits, stopper)?;
        engine.profile_arg = copy.profile_arg.clone();
        engine.take_game(copy);
        Ok(engine)
    }

    /// Puts a copied game in place of this engine's (built with [`Engine::from_copy`] from an
    /// earlier copy of the same game: the rules stay as loaded). Option values are taken where
    /// this ruleset declares the option; the profile named is the copy's. Everything the rules
    /// cached from the old state is dropped (the revision moves on).
    pub fn take_game(&mut self, copy: &GameCopy) {
        self.profile_arg = copy.profile_arg.clone();
        let mut w = self.world.borrow_mut();
        w.state = copy.state.clone();
        w.initial = copy.initial.clone();
        w.dice = copy.dice.clone();
        w.log = copy.log.clone();
        w.reloaded_at = copy.reloaded_at.clone();
        w.option_changes = copy.option_changes.clone();
        w.options_at_start = copy.options_at_start.clone();
        w.recording_options = copy.recording_options;
        w.scenario = copy.scenario.clone();
        w.setup_victory = copy.setup_victory.clone();
        w.options = Options::carried_over(w.ruleset.options.clone(), &copy.options);
        w.pending.clear();
        w.state_replaced();
    }

    /// The switch that stops this engine's rule calls from another thread (see
    /// [`crate::script::Stopper`]); it survives [`Engine::reload_rules`].
    pub fn stopper(&self) -> Stopper {
        self.host.stopper().clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send<T: Send + 'static>() {}

    #[test]
    fn a_game_copy_can_cross_threads() {
        assert_send::<GameCopy>();
        assert_send::<crate::script::Stopper>();
    }
}
