//! Profiles: which file a profile argument names, reading it against the ruleset's options, and
//! applying it to a game.

use super::{Engine, EngineError};
use crate::error::LoadErrors;
use crate::options::{Options, Profile};
use std::path::{Path, PathBuf};

impl Engine {
    /// The folders a ruleset's profiles are looked up in by name, in order: its own `profiles/`,
    /// then the user's folder for it when the program keeps one ([`crate::fsio::user_profiles`]).
    pub fn profile_folders(ruleset_dir: &Path) -> Vec<PathBuf> {
        let own = ruleset_dir.join("profiles");
        let mut out = vec![own.clone()];
        if let Some(user) = crate::fsio::user_profiles(ruleset_dir).filter(|u| *u != own) {
            out.push(user);
        }
        out
    }

    /// Resolves a profile argument: a path, or a name, the first `<name>.toml` of the
    /// [`Engine::profile_folders`] (the ruleset's own folder when none has it, so that the
    /// error names where it was looked for first).
    pub fn profile_path(ruleset_dir: &Path, profile: &str) -> PathBuf {
        if Engine::is_profile_path(profile) {
            return PathBuf::from(profile);
        }
        let file = format!("{profile}.toml");
        let folders = Engine::profile_folders(ruleset_dir);
        folders
            .iter()
            .map(|d| d.join(&file))
            .find(|p| p.is_file())
            .unwrap_or_else(|| folders[0].join(&file))
    }

    /// True when a profile is named by a file (`x.toml`, `dir/x`) rather than by its name in
    /// the ruleset's `profiles/` folder.
    pub fn is_profile_path(profile: &str) -> bool {
        profile.ends_with(".toml") || Path::new(profile).components().count() > 1
    }

    /// Profile names of a ruleset, in all its [`Engine::profile_folders`] (a name in two of them
    /// once: the first folder's file is the one read), sorted. Hidden files (`.x.toml`, an
    /// editor's temporary file) are no profiles.
    pub fn profile_names(ruleset_dir: &Path) -> Vec<String> {
        let mut out: Vec<String> = Engine::profile_folders(ruleset_dir)
            .iter()
            .filter_map(|d| std::fs::read_dir(d).ok())
            .flat_map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .filter(|s| !s.starts_with('.'))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// When `profile` is a name (not a path) that none of the ruleset's profiles has: the names
    /// it has, for the message that says so.
    pub(super) fn unknown_profile(ruleset_dir: &Path, profile: &str) -> Option<Vec<String>> {
        if Engine::is_profile_path(profile)
            || Engine::profile_path(ruleset_dir, profile).exists()
            || profile == crate::options::DEFAULTS
        {
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
            // Kessel's own copy of the rules is replaced by the next version: a profile of one's
            // own belongs in the user's folder, which the message names (it named only the
            // copy's profiles/ file, a place to lose it)
            let own = Engine::profile_folders(&self.ruleset_dir)
                .get(1)
                .map(|user| {
                    format!(
                        "; a profile of your own is found by name in {}, or give its path",
                        crate::script::display_path(user)
                    )
                })
                .unwrap_or_else(|| {
                    format!("; a profile file kept elsewhere is given by its path (`{profile}.toml` in this folder, `tournament/{profile}.toml`)")
                });
            return Err(crate::error::LoadError::new(
                &path,
                None,
                format!(
                    "unknown profile `{profile}` ({listed}){}{own}",
                    crate::names::did_you_mean(profile, &known)
                ),
            )
            .into());
        }
        if profile == crate::options::DEFAULTS && !path.exists() {
            return Ok(Profile {
                name: profile.to_string(),
                description: "every option at its default".to_string(),
                ..Profile::default()
            });
        }
        // a path written without its `.toml` (`profiles/tournament`): say the file that is there
        let with_toml = PathBuf::from(format!("{}.toml", path.display()));
        if Engine::is_profile_path(profile) && !path.exists() && with_toml.is_file() {
            return Err(crate::error::LoadError::new(
                &path,
                None,
                format!(
                    "no such profile file; did you mean {}? (a profile given by its path is \
                     written with its .toml; by its name, without a folder)",
                    crate::script::display_path(&with_toml)
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
        let before = std::mem::replace(&mut w.options, options).values;
        w.options_changed();
        drop(w);
        let profile_before = std::mem::replace(&mut self.profile_arg, profile.map(str::to_string));
        // (a profile picked once the game is set up is an option change of the game's)
        self.record_option_change(profile_before, before);
        Ok(())
    }
}
