//! Running scripts (`kessel script`) and Lua rule tests (`kessel test`): each starts from a base
//! position with the full script API.

use super::{calls, Engine};
use crate::dice::Dice;
use crate::script::{api, ScriptError};
use crate::world::Stage;
use std::path::Path;

impl Engine {
    /// Remembers the current position and options as the base scripts and tests start from.
    fn set_base(&self) {
        let mut w = self.world.borrow_mut();
        w.base = Some((w.initial.clone(), w.options.clone()));
        w.stage.set(Stage::Script);
    }

    fn register_script_api(&self) -> Result<(), ScriptError> {
        let lua = self.host.lua();
        api::register_script_api(lua, &self.world)
            .and_then(|()| calls::register_script_drivers(lua, &self.world))
            // (located and without mlua's "runtime error:" and traceback, as every other error)
            .map_err(|e| ScriptError::from_lua(&e, None))
    }

    /// Runs a script file with the full API (`kessel script`).
    pub fn run_script(&mut self, path: &Path) -> Result<(), ScriptError> {
        self.set_base();
        self.register_script_api()?;
        self.host.run_file(path).map(|_| ())
    }

    /// Runs Lua source text with the full script API (benchmarks, the editor's console).
    pub fn run_script_text(&mut self, name: &str, text: &str) -> Result<(), ScriptError> {
        self.world.borrow().stage.set(Stage::Script);
        self.register_script_api()?;
        if text.is_empty() {
            return Ok(());
        }
        self.host.run_text(name, text).map(|_| ())
    }

    /// Loads a test file and returns the names of the tests it registered.
    pub fn load_tests(&mut self, path: &Path) -> Result<Vec<String>, ScriptError> {
        self.set_base();
        self.world.borrow_mut().tests.clear();
        self.register_script_api()?;
        self.host.run_file(path)?;
        Ok(self.world.borrow().tests.clone())
    }

    /// Runs one registered test in a fresh position (the scenario's initial state, or empty).
    pub fn run_test(&mut self, name: &str) -> Result<(), ScriptError> {
        {
            let mut w = self.world.borrow_mut();
            let (state, options) = match &w.base {
                Some(b) => b.clone(),
                None => (w.initial.clone(), w.options.clone()),
            };
            w.dice = Dice::resume(state.seed, state.dice_drawn, state.dice_streams.clone());
            w.initial = state.clone();
            w.state = state;
            w.options = options;
            w.state_replaced();
            w.log.clear();
            w.reloaded_at.clear();
            w.option_changes.clear();
            w.options_at_start = None;
            w.pending.clear();
            w.stage.set(Stage::Script);
        }
        self.host.guarded(|lua| api::run_test(lua, name))
    }
}
