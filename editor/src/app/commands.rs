//! Applying the commands the panels pushed during the frame: map and scenario edits, undo and
//! redo, saving; game actions, profiles and options.

use super::{messages::paths_text, EditorApp, ProfileChoice};
use crate::command::EditorCommand;
use crate::document::{write_atomic, SaveOutcome};
use crate::play::{PlayCommand, PlaySession};
use anyhow::Context;
use kessel_core::options::Profile;
use kessel_core::script::display_path;
use std::path::PathBuf;

impl EditorApp {
    /// Applies commands collected during the frame.
    pub fn apply(&mut self, cmds: Vec<EditorCommand>) {
        for cmd in cmds {
            match &cmd {
                EditorCommand::Undo => match self.doc.undo() {
                    Some(label) => {
                        self.validator.schedule();
                        self.status.info(format!("Undid: {label}"))
                    }
                    None => self.status.info("Nothing to undo"),
                },
                EditorCommand::Redo => match self.doc.redo() {
                    Some(label) => {
                        self.validator.schedule();
                        self.status.info(format!("Redid: {label}"))
                    }
                    None => self.status.info("Nothing to redo"),
                },
                EditorCommand::Save if self.save_refused().is_some() => {
                    if let Some(why) = self.save_refused() {
                        self.status.error(why);
                        self.offer_save_as();
                    }
                }
                EditorCommand::Save if !self.save_may_overwrite() => {}
                EditorCommand::Save => match self.doc.save() {
                    Ok(SaveOutcome::Unchanged) => self.status.info("No changes to save"),
                    Ok(SaveOutcome::Written(paths)) => {
                        self.disk_ahead = Default::default();
                        // our own write must not come back as a change to reload
                        if let Some(w) = &mut self.watcher {
                            for p in &paths {
                                w.note_written(p);
                            }
                        }
                        // the files as written replace the files as read, problems and all
                        self.validator.schedule();
                        self.status.info(format!("Saved {}", paths_text(&paths)))
                    }
                    Err(e) => self.status.error(format!("Save failed: {e:#}")),
                },
                edit => match self.doc.edit(edit) {
                    Ok(true) => {
                        self.validator.schedule();
                        if let Some(label) = self.doc.history.undo_label() {
                            let label = label.to_string();
                            self.status.info(label);
                        }
                    }
                    Ok(false) => {}
                    Err(e) => self.status.error(e),
                },
            }
            self.catch_up_with_disk();
        }
    }

    /// Applies the play-test and rules commands collected during the frame.
    pub fn apply_play(&mut self, cmds: Vec<PlayCommand>) {
        for cmd in cmds {
            if cmd == PlayCommand::NewGame {
                if let Some(s) = &self.session {
                    self.seed = s.seed;
                    // the game again under the same options: its profile, and the options
                    // changed by hand (or by flag), set up under them as its save is loaded
                    // (they were dropped, and the rules panel had said they were kept)
                    if self.campaign.is_none() {
                        self.profile = match s.engine.profile_arg() {
                            Some(kessel_core::options::DEFAULTS) => ProfileChoice::Defaults,
                            Some(p) => ProfileChoice::Named(p.to_string()),
                            None => ProfileChoice::Scenario,
                        };
                        self.start_options = set_by_hand(&s.engine);
                    }
                }
                self.start_game(true);
                continue;
            }
            if let PlayCommand::ApplyProfile(p) = &cmd {
                if self.fresh_game() {
                    // a game that has taken no action starts again under the profile: its
                    // set-up is the profile's too (a ruleset's set-up hook may read an option),
                    // as it is when the save is loaded; applied after the set-up, the save
                    // named a profile whose set-up was not the one played, and did not load
                    let named = p.as_deref().unwrap_or(kessel_core::options::DEFAULTS);
                    if let Err(why) = self.profile_starts(named) {
                        // refused before the game is dropped for a start that would fail
                        self.status.error(format!("profile {named}: {why}"));
                        continue;
                    }
                    self.profile = match p {
                        Some(name) => ProfileChoice::Named(name.clone()),
                        None => ProfileChoice::Defaults,
                    };
                    // the profile gives every option: none set by hand or by flag is kept
                    self.start_options.clear();
                    self.rules_panel.staged.clear();
                    self.rules_panel.refusal = None;
                    if let Some(s) = &self.session {
                        self.seed = s.seed;
                    }
                    self.start_game(false);
                    self.status.info(format!(
                        "profile {named}: the game is set up again under it (no action was taken)"
                    ));
                    continue;
                }
            }
            if let PlayCommand::SaveGame(p) = &cmd {
                // the user's folder offered for Kessel's own scenarios, or for saves of a
                // scenario in Kessel's checkout, is made when first used
                let user = self.not_yours.as_ref().map(|(_, u)| u.as_path());
                let checkout = crate::checkout_saves().map(|s| s.folder.as_path());
                let offered = [user, checkout];
                if let Some(dir) = p.parent().filter(|d| offered.contains(&Some(*d))) {
                    if !dir.exists() {
                        let _ = std::fs::create_dir_all(dir);
                    }
                }
            }
            match &cmd {
                PlayCommand::NextGame => {
                    self.next_game();
                    continue;
                }
                PlayCommand::SaveGame(p) if self.campaign.is_some() => {
                    if let Err(e) = self.save_campaign(p) {
                        self.status
                            .error(format!("cannot save the campaign: {e:#}"));
                    }
                    continue;
                }
                PlayCommand::LoadGame(p) if crate::play::campaign::is_campaign_save(p) => {
                    self.load_campaign(p);
                    continue;
                }
                _ => {}
            }
            let Some(s) = &mut self.session else {
                continue;
            };
            match cmd {
                PlayCommand::Act(_) if s.computer_to_move() => self
                    .status
                    .error("it is the computer's decision: wait, or pause it and take back a move"),
                PlayCommand::Act(a) => s.act(&a),
                PlayCommand::Undo => s.request_undo(),
                PlayCommand::NewGame | PlayCommand::NextGame => {}
                PlayCommand::SaveGame(p) => {
                    if let Err(e) = s.save(&p) {
                        self.status.error(format!("cannot save the game: {e:#}"));
                    }
                }
                PlayCommand::LoadGame(p) => s.load(&p),
                PlayCommand::ApplyProfile(p) => {
                    self.profile = match &p {
                        Some(name) => ProfileChoice::Named(name.clone()),
                        None => ProfileChoice::Defaults,
                    };
                    // the defaults by their name: a save names them so (with no profile named,
                    // a load took the scenario's, and the options it recorded against defaults)
                    let named = p.as_deref().unwrap_or(kessel_core::options::DEFAULTS);
                    match s.engine.apply_profile(Some(named)) {
                        Ok(()) => {
                            // staged against the options of the profile left
                            self.rules_panel.staged.clear();
                            self.rules_panel.refusal = None;
                            self.status
                                .info(format!("profile {}", p.as_deref().unwrap_or("(defaults)")));
                            s.refresh();
                        }
                        Err(e) => self.status.error(e.to_string()),
                    }
                }
                PlayCommand::SetOption(id, v) => {
                    let what = format!(
                        "option {id} = {}",
                        crate::panels::rules::value_text(Some(&v))
                    );
                    let done = s.engine.set_option(&id, v);
                    self.options_set(done, what);
                }
                PlayCommand::SetOptions(changes) => {
                    let what = (changes.iter())
                        .map(|(id, v)| {
                            format!("{id} = {}", crate::panels::rules::value_text(Some(v)))
                        })
                        .collect::<Vec<_>>()
                        .join(", ");
                    let done = s.engine.set_options(&changes);
                    if done.is_ok() {
                        self.rules_panel.staged.clear();
                    }
                    self.options_set(done, format!("options {what}"));
                }
                PlayCommand::SaveProfile { name, description } => {
                    match save_profile(s, &name, &description) {
                        Ok(path) => {
                            if let Some(w) = &mut self.watcher {
                                w.note_written(&path);
                            }
                            self.rules_panel.refresh(s.engine.ruleset_dir());
                            self.rules_panel.new_name.clear();
                            self.status
                                .info(format!("profile saved to {}", display_path(&path)));
                        }
                        Err(e) => self.status.error(format!("cannot save the profile: {e:#}")),
                    }
                }
            }
        }
    }

    /// A game of a scenario (not a campaign's, whose games start from the one before) that has
    /// taken no action yet.
    fn fresh_game(&self) -> bool {
        self.campaign.is_none()
            && (self.session.as_ref()).is_some_and(|s| s.engine.log().is_empty())
    }

    /// Whether a game can start under profile `named`: the profile reads, and puts no two
    /// variants of a table in force that none is declared for together.
    fn profile_starts(&self, named: &str) -> Result<(), String> {
        let Some(s) = &self.session else {
            return Ok(());
        };
        let options = (s.engine.profile_options(Some(named))).map_err(|e| e.to_string())?;
        let conflicts = s.engine.ruleset().variant_conflicts(&options);
        conflicts.into_iter().next().map_or(Ok(()), Err)
    }

    /// After options were set (`what` says which): the game is listed again, or the refusal
    /// goes to the rules panel, where its reason (a long one, naming the table variants in
    /// conflict) is read whole, and to the status line.
    fn options_set(&mut self, done: Result<(), String>, what: String) {
        match done {
            Ok(()) => {
                self.status.info(what);
                self.rules_panel.refusal = None;
                self.needs_refresh = true;
            }
            Err(e) => {
                self.status.error(format!("{what} refused: {e}"));
                self.rules_panel.refusal = Some(format!("{what}: {e}"));
            }
        }
    }
}

/// The options in force whose value is not the one the game's profile gives.
fn set_by_hand(engine: &kessel_core::engine::Engine) -> Vec<(String, serde_json::Value)> {
    let base = engine.profile_options(engine.profile_arg()).ok();
    let options = engine.options();
    (options.values.iter())
        .filter(|(id, v)| base.as_ref().is_none_or(|b| b.values.get(*id) != Some(*v)))
        .map(|(id, v)| (id.clone(), v.clone()))
        .collect()
}

/// Writes the options in force as `<name>.toml` in the ruleset's profile folder
/// ([`crate::panels::profile_files::profile_folder`]), after checking the text reads back as the same
/// values.
fn save_profile(s: &PlaySession, name: &str, description: &str) -> anyhow::Result<PathBuf> {
    let dir = s.engine.ruleset_dir().to_path_buf();
    let path =
        crate::panels::profile_files::check_profile_name(&dir, name).map_err(anyhow::Error::msg)?;
    let options = s.engine.options();
    let text = crate::panels::profile_files::profile_toml(name, description, &options);
    let parsed =
        Profile::parse(&path, &text, &options.decls).map_err(|e| anyhow::anyhow!("{e}"))?;
    let back = kessel_core::options::Options::with_profile(options.decls.clone(), &parsed);
    anyhow::ensure!(
        back.values == options.values,
        "the profile text does not read back as the options in force"
    );
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the folder {}", dir.display()))?;
    }
    write_atomic(&path, text.as_bytes())?;
    Ok(path)
}
