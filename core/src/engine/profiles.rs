//! Profiles: which file a profile argument names, reading it against the ruleset's options, and
//! applying it to a game.

use super::{Engine, EngineError};
use crate::error::LoadErrors;
use crate::options::{Options, Profile};
use std::path::{Path, PathBuf};

impl Engine {
    /// Resolves a profile argument: a name in `<ruleset>/profiles/`, or a path.
    pub fn profile_path(ruleset_dir: &Path, profile: &str) -> PathBuf {
        if Engine::is_profile_path(profile) {
            PathBuf::from(profile)
        } else {
            ruleset_dir.join("profiles").join(format!("{profile}.toml"))
        }
    }

    /// True when a profile is named by a file (`x.toml`, `dir/x`) rather than by its name in
    /// the ruleset's `profiles/` folder.
    pub fn is_profile_path(profile: &str) -> bool {
        profile.ends_with(".toml") || Path::new(profile).components().count() > 1
    }

    /// Profile names in a ruleset's `profiles/` folder, sorted.
    pub fn profile_names(ruleset_dir: &Path) -> Vec<String> {
        let mut out: Vec<String> = std::fs::read_dir(ruleset_dir.join("profiles"))
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                    .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
                    .collect()
            })
            .unwrap_or_default();
        out.sort();
        out
    }

    /// When `profile` is a name (not a path) that none of the ruleset's profiles has: the names
    /// it has, for the message that says so.
    pub(super) fn unknown_profile(ruleset_dir: &Path, profile: &str) -> Option<Vec<String>> {
        if Engine::is_profile_path(profile) || Engine::profile_path(ruleset_dir, profile).exists() {
            return None;
        }
        Some(Engine::profile_names(ruleset_dir))
    }

    /// Reads a profile against this ruleset's options.
    pub fn read_profile(&self, profile: &str) -> Result<Profile, LoadErrors> {
        let path = Engine::profile_path(&self.ruleset_dir, profile);
        if let Some(known) = Engine::unknown_profile(&self.ruleset_dir, profile) {
            // a name that is not one of the ruleset's profiles: say which there are
            let listed = if known.is_empty() {
                "the ruleset has no profiles/ folder".to_string()
            } else {
                format!("the ruleset has: {}", known.join(", "))
            };
            return Err(crate::error::LoadError::new(
                &path,
                None,
                format!(
                    "unknown profile `{profile}` ({listed}){}",
                    crate::names::did_you_mean(profile, &known)
                ),
            )
            .into());
        }
        let text = crate::error::read_text(&path, &format!("profile `{profile}`"))?;
        Profile::parse(&path, &text, &self.ruleset().options)
    }

    /// The options a profile gives (None = the option defaults).
    pub fn profile_options(&self, profile: Option<&str>) -> Result<Options, LoadErrors> {
        let decls = self.ruleset().options.clone();
        Ok(match profile {
            Some(p) => Options::with_profile(decls, &self.read_profile(p)?),
            None => Options::defaults(decls),
        })
    }

    /// Applies a profile (None = option defaults).
    pub fn apply_profile(&mut self, profile: Option<&str>) -> Result<(), EngineError> {
        let options = self.profile_options(profile)?;
        let mut w = self.world.borrow_mut();
        w.options = options;
        w.options_changed();
        drop(w);
        self.profile_arg = profile.map(str::to_string);
        Ok(())
    }
}
