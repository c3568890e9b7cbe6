//! Starting an engine: a scenario loaded with its ruleset, profile and options set, checked and
//! set up; or a bare ruleset for scripts and tests that build their own positions. Part of
//! [`super::Engine`].

use super::{hooks, load_rules, Engine, EngineError, LastGame};
use crate::error::{LoadError, LoadErrors};
use crate::options::Options;
use crate::scenario::Scenario;
use crate::script::{display_path, Limits, Stopper};
use crate::state::GameState;
use crate::world::World;
use std::path::{Path, PathBuf};
use std::sync::Arc;

impl Engine {
    /// Loads a scenario, its ruleset and a profile (name in the ruleset's `profiles/`, or a path;
    /// `None` = the scenario's default), with dice at `seed`.
    pub fn load(
        scenario_path: &Path,
        profile: Option<&str>,
        seed: u64,
        limits: Limits,
    ) -> Result<Engine, EngineError> {
        Engine::load_with_options(scenario_path, profile, &[], seed, limits)
    }

    /// [`Engine::load`] with `options` set on top of the profile before the scenario is checked
    /// and set up (`kessel … --option id=value`): the set-up checks and hooks see them, as the
    /// whole game does. An option the ruleset lacks, or a value it refuses, is an error.
    pub fn load_with_options(
        scenario_path: &Path,
        profile: Option<&str>,
        options: &[(String, crate::state::Value)],
        seed: u64,
        limits: Limits,
    ) -> Result<Engine, EngineError> {
        let scenario = Scenario::load(scenario_path)?;
        Engine::with_scenario_and_options(
            scenario,
            profile,
            options,
            seed,
            limits,
            Stopper::default(),
        )
    }

    /// [`Engine::load`] for a checker that wants every problem of a scenario in one run: a
    /// scenario with problems of its own data (a unit off the map, a misspelt objective place) is
    /// loaded as far as it can be and still goes on to the ruleset's checks (faces, sides, unit
    /// types, the `check` hook), and the error lists the data's problems and the rules' together.
    /// Only a file that cannot be read at all (TOML syntax, an unknown key) stops at once.
    pub fn load_reporting_all(
        scenario_path: &Path,
        profile: Option<&str>,
        options: &[(String, crate::state::Value)],
        seed: u64,
        limits: Limits,
    ) -> Result<Engine, EngineError> {
        let text = crate::error::read_text(scenario_path, "scenario")?;
        let (scenario, mut problems) = Scenario::parse_lenient(scenario_path, &text)?;
        match Engine::with_scenario_and_options(
            scenario,
            profile,
            options,
            seed,
            limits,
            Stopper::default(),
        ) {
            Ok(engine) if problems.is_empty() => Ok(engine),
            Ok(_) => Err(LoadErrors(problems).into()),
            Err(EngineError::Load(LoadErrors(later))) => {
                problems.extend(later);
                Err(LoadErrors(problems).into())
            }
            Err(EngineError::Script(e)) if !problems.is_empty() => {
                // (the script's error keeps its location once, in the fields)
                let at = crate::error::Located::from(&e);
                let file = PathBuf::from(at.file.unwrap_or_default());
                problems.push(LoadError::new(&file, at.line, at.message));
                Err(LoadErrors(problems).into())
            }
            Err(e) => Err(e),
        }
    }

    /// Builds an engine for a loaded scenario.
    pub fn with_scenario(
        scenario: Scenario,
        profile: Option<&str>,
        seed: u64,
        limits: Limits,
    ) -> Result<Engine, EngineError> {
        Engine::with_scenario_stoppable(scenario, profile, seed, limits, Stopper::default())
    }

    /// [`Engine::with_scenario`] whose rule calls, the loading and set-up included, `stopper`
    /// stops from another thread (see [`Engine::stopper`]).
    pub fn with_scenario_stoppable(
        scenario: Scenario,
        profile: Option<&str>,
        seed: u64,
        limits: Limits,
        stopper: Stopper,
    ) -> Result<Engine, EngineError> {
        Engine::with_scenario_and_options(scenario, profile, &[], seed, limits, stopper)
    }

    /// [`Engine::with_scenario_stoppable`] with `options` set on top of the profile before the
    /// scenario is checked and set up (see [`Engine::load_with_options`]).
    pub fn with_scenario_and_options(
        scenario: Scenario,
        profile: Option<&str>,
        options: &[(String, crate::state::Value)],
        seed: u64,
        limits: Limits,
        stopper: Stopper,
    ) -> Result<Engine, EngineError> {
        Engine::start(scenario, profile, options, seed, limits, None, stopper)
            .map(|(engine, _)| engine)
    }

    pub(super) fn start(
        mut scenario: Scenario,
        profile: Option<&str>,
        options: &[(String, crate::state::Value)],
        seed: u64,
        limits: Limits,
        last: Option<LastGame<'_>>,
        stopper: Stopper,
    ) -> Result<(Engine, Option<crate::campaign::CarryReport>), EngineError> {
        let dir = scenario.ruleset_dir.clone();
        if !dir.join("init.lua").is_file() {
            return Err(LoadErrors(vec![no_ruleset_at(&scenario)]).into());
        }
        let profile_arg = profile
            .map(str::to_string)
            .or_else(|| scenario.profile.clone());
        // the scenario's own `profile` naming none of the ruleset's profiles is the scenario's
        // line to answer for: it was said at `profiles/NAME.toml`, a file that is not there
        if let (None, Some(name)) = (profile, scenario.profile.as_deref()) {
            if let Some(known) = Engine::unknown_profile(&dir, name) {
                let listed = if known.is_empty() {
                    "the ruleset has no profiles/ folder".to_string()
                } else {
                    format!("the ruleset has: {}", known.join(", "))
                };
                return Err(LoadErrors(vec![scenario.error_at(
                    scenario.profile_line,
                    format!(
                        "`profile`: unknown profile `{}` ({listed}){}",
                        crate::error::printable_name(name),
                        crate::names::did_you_mean(name, &known)
                    ),
                )])
                .into());
            }
        }
        let mut engine = Engine::bare_stoppable(&dir, &scenario.scripts, limits, stopper)?;
        let problems = scenario.read_faces(&engine.ruleset().unit_types);
        if !problems.is_empty() {
            return Err(LoadErrors(problems).into());
        }
        let mut report = None;
        {
            let mut w = engine.world.borrow_mut();
            let mut state = scenario.initial_state(w.ruleset.sides.clone(), seed);
            if let Some(last) = last {
                let carried = crate::campaign::carry_over(
                    last.started,
                    last.ended,
                    &mut state,
                    last.carry,
                    &w.ruleset.unit_types,
                )
                .map_err(|e| {
                    LoadError::new(
                        &scenario.path,
                        None,
                        format!("cannot start this game with what the last one left: {e}"),
                    )
                })?;
                report = Some(carried);
            }
            w.state = state.clone();
            w.state_replaced();
            w.initial = state;
            w.dice = crate::dice::Dice::new(seed);
            w.scenario = Some(Arc::new(scenario));
        }
        engine.apply_profile(profile_arg.as_deref())?;
        // (the later value won unseen: `--option x=true --option x=false` played x = false)
        for (i, (id, value)) in options.iter().enumerate() {
            if let Some((_, first)) = options[..i].iter().find(|(other, _)| other == id) {
                return Err(EngineError::Option {
                    id: id.clone(),
                    value: value.clone(),
                    message: format!("set twice, to {first} and to {value}: set each option once"),
                });
            }
        }
        for (id, value) in options {
            engine
                .put_option(id, value.clone())
                .map_err(|message| EngineError::Option {
                    id: id.clone(),
                    value: value.clone(),
                    message,
                })?;
        }
        engine.check_notes = engine.check_scenario()?;
        engine.run_setup_hooks()?;
        // set up: an option changed from now on is a change the game's saves keep
        engine.world.borrow_mut().recording_options = true;
        Ok((engine, report))
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
        Engine::bare_stoppable(ruleset_dir, extra, limits, Stopper::default())
    }

    /// [`Engine::bare_with`] whose rule calls `stopper` stops (see [`Engine::stopper`]).
    pub fn bare_stoppable(
        ruleset_dir: &Path,
        extra: &[PathBuf],
        limits: Limits,
        stopper: Stopper,
    ) -> Result<Engine, EngineError> {
        let map = Arc::new(crate::map::Map::new(
            "empty",
            1,
            1,
            crate::numbering::Numbering::default(),
            "clear",
        ));
        let world = World::new(GameState::new(map, Vec::new(), 0)).shared();
        let host = load_rules(ruleset_dir, extra, limits, &world, &stopper)?;
        {
            let mut w = world.borrow_mut();
            w.options = Options::defaults(w.ruleset.options.clone());
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
            ai_variation: 0,
            save_changed: None,
            check_notes: Vec::new(),
        })
    }

    fn run_setup_hooks(&mut self) -> Result<(), EngineError> {
        self.host
            .guarded(|lua| hooks::call_setup_hooks(lua, &self.world))?;
        let mut w = self.world.borrow_mut();
        w.initial = w.state.clone();
        w.pending.clear();
        Ok(())
    }
}

/// The scenario's `ruleset` leads to no ruleset: said at its line, with what to write there (the
/// usual cause is a scenario folder copied to another depth, whose `../..` path now leads
/// elsewhere).
fn no_ruleset_at(scenario: &Scenario) -> LoadError {
    let (value, line) = &scenario.ruleset_field;
    let init = scenario.ruleset_dir.join("init.lua");
    if init.is_dir() {
        return scenario.error_at(
            Some(*line),
            format!(
                "`ruleset = \"{value}\"`: {} is a folder, not the ruleset's Lua file",
                display_path(&init)
            ),
        );
    }
    // `ruleset = "…/init.lua"`: the file the folder holds, not a copied scenario's stale path
    if scenario.ruleset_dir.is_file() {
        return scenario.error_at(
            Some(*line),
            format!(
                "`ruleset = \"{value}\"` names a file, {}; `ruleset` names the folder that holds \
                 the ruleset's init.lua: write `ruleset = \"{}\"`",
                display_path(&scenario.ruleset_dir),
                ruleset_folder_value(value),
            ),
        );
    }
    // (the folder of the file that gives the line: a base's, for a ruleset a base names)
    let folder = (scenario.locate(*line).0.parent())
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    scenario.error_at(
        Some(*line),
        format!(
            "`ruleset = \"{value}\"` leads to {}, which holds no ruleset (no init.lua there). \
             A scenario folder copied to another place keeps the relative path it had: write the \
             ruleset folder's path as seen from {} (or an absolute path) in `ruleset`, or open \
             the original scenario in `kessel editor` and use File → Save as…, which writes the \
             copy with its ruleset path rewritten",
            display_path(&scenario.ruleset_dir),
            display_path(folder),
        ),
    )
}

/// What to write in `ruleset` for a value that names a file in the folder: the value without
/// its last part (`../scripts/pgg/init.lua` → `../scripts/pgg`).
fn ruleset_folder_value(value: &str) -> String {
    match value.trim_end_matches('/').rsplit_once('/') {
        Some((folder, _)) if !folder.is_empty() => folder.to_string(),
        Some(_) => "/".to_string(),
        None => ".".to_string(),
    }
}
