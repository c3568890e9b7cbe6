//! The save format: which scenario and profile, the seed, the options set by hand, the log, and
//! the hash of the state the log leads to. Loading rebuilds the game from these.

use super::{Engine, EngineError};
use crate::dice::Dice;
use crate::error::LoadError;
use crate::event::LogEntry;
use crate::script::{display_path, Limits};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

const SAVE_FORMAT: &str = "kessel-save/1";

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

impl Engine {
    /// Serialises the game (scenario reference, profile, seed, log) as JSON.
    pub fn save(&self) -> Result<String, String> {
        // what the profile gives; if it can no longer be read, record every value
        let base = self.profile_options(self.profile_arg.as_deref()).ok();
        let w = self.world.borrow();
        let scenario = w
            .scenario
            .as_ref()
            .map(|s| display_path(&s.path))
            .unwrap_or_default();
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
        let text = std::fs::read_to_string(path)
            .map_err(|e| LoadError::new(path, None, format!("cannot read save: {e}")))?;
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
        let mut engine = Engine::load(
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
}
