//! The save format: which scenario and profile, the seed, the options set by hand, the log, and
//! the hash of the state the log leads to. Loading rebuilds the game from these.

use super::replay::Replayed;
use super::{Engine, EngineError};
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
    /// Hash of the scenario, its map and the ruleset's files when the game was saved: a load
    /// that finds them changed says so, rather than calling the save tampered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_hash: Option<String>,
    /// Who plays each side, in the words of the program that saved the game: `human`,
    /// `computer`, or `computer:LEVEL` for a level the ruleset's AI declares. A load refuses a
    /// side the ruleset lacks and any other word (see [`players_allowed`]); the engine keeps the
    /// rest for that program.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub players: BTreeMap<String, String>,
    /// How many of the log's actions had been played at each reload of the rules during play
    /// (the editor's hot reload): the actions before such a point were played under the files
    /// as they were then, so the files at saving (`content_hash`) may no longer replay them, and
    /// a load that fails there says so instead of calling the history edited.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules_reloaded_at: Vec<usize>,
    /// Options changed once the game was set up, in order, each with how many actions had been
    /// played before it and every option's value after it (`profile` and `options` above are
    /// then those the game was set up under): a load sets the game up as it was and makes each
    /// change where it was made, so the set-up and every action replay under the options they
    /// were played under.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub option_changes: Vec<crate::world::OptionChange>,
    /// Checksum of everything above and the log: an edit that did not recompute it is caught
    /// before anything is replayed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checksum: Option<String>,
    /// Accepted actions and their events.
    pub log: Vec<LogEntry>,
}

impl SaveFile {
    /// The checksum of this save's contents (all fields but the checksum itself).
    pub fn compute_checksum(&self) -> String {
        let mut copy = self.clone();
        copy.checksum = None;
        let text = serde_json::to_string(&copy).unwrap_or_default();
        format!("{:016x}", fnv64(text.as_bytes()))
    }
}

/// FNV-1a, 64 bits: stable across runs and platforms (std's hashers are not).
fn fnv64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

fn files_under(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    // (a ruleset's own tests change no ruling; a link out of the folder or back up it is not
    // followed: see `files_within`)
    let enter = |d: &Path| d.file_name().is_some_and(|n| n != "tests");
    for p in crate::fsio::files_within(dir, &enter) {
        // rules and data; not saves, pictures or notes kept beside them
        if p.extension().is_some_and(|x| x == "lua" || x == "toml") {
            out.push(p);
        }
    }
}

impl Engine {
    /// Serialises the game (scenario reference, profile, seed, log) as JSON, with paths as the
    /// game was started with (relative to the working folder). [`Engine::save_as`] writes them
    /// relative to the save instead.
    pub fn save(&self) -> Result<String, String> {
        self.save_text(None, &BTreeMap::new())
    }

    /// The save to be written at `path`: the scenario (and a profile given as a file) named
    /// relative to the save's folder, so the save loads from any working folder, and who plays
    /// each side (see [`SaveFile::players`]).
    pub fn save_as(
        &self,
        path: &Path,
        players: &BTreeMap<String, String>,
    ) -> Result<String, String> {
        self.save_text(path.parent(), players)
    }

    fn save_text(
        &self,
        beside: Option<&Path>,
        players: &BTreeMap<String, String>,
    ) -> Result<String, String> {
        serde_json::to_string_pretty(&self.save_file_at(beside, players))
            .map(|mut s| {
                s.push('\n');
                s
            })
            .map_err(|e| e.to_string())
    }

    /// The game as a save (scenario reference, profile, seed, options set by hand, log, hashes),
    /// paths as the game was started with.
    pub fn save_file(&self) -> SaveFile {
        self.save_file_at(None, &BTreeMap::new())
    }

    fn save_file_at(&self, beside: Option<&Path>, players: &BTreeMap<String, String>) -> SaveFile {
        // a path relative to the save's folder, when both resolve; else absolute, so that a
        // save written to a file loads from any working folder; as given for `save`
        let rel = |p: &Path| -> String {
            let Some(d) = beside else {
                return display_path(p);
            };
            let folder = if d.as_os_str().is_empty() {
                Path::new(".")
            } else {
                d
            };
            crate::scaffold::relative_to(folder, p)
                .ok()
                .or_else(|| {
                    p.canonicalize()
                        .ok()
                        .map(|a| a.to_string_lossy().into_owned())
                })
                .unwrap_or_else(|| display_path(p))
        };
        // the profile and options the game was set up under: changed since, the save names
        // those and the changes
        let w = self.world.borrow();
        let (start_profile, start_values) = match &w.options_at_start {
            Some((p, v)) if !w.option_changes.is_empty() => (p.clone(), v.clone()),
            _ => (self.profile_arg.clone(), w.options.values.clone()),
        };
        drop(w);
        // what the profile gives; if it can no longer be read, record every value
        let base = self.profile_options(start_profile.as_deref()).ok();
        let w = self.world.borrow();
        let scenario = w
            .scenario
            .as_ref()
            // (a scenario opened from a package is named by the package)
            .map(|s| rel(&crate::fsio::opened_as(&s.path).unwrap_or_else(|| s.path.clone())))
            .unwrap_or_default();
        let named = |p: &str| {
            if Engine::is_profile_path(p) {
                rel(Path::new(p))
            } else {
                p.to_string()
            }
        };
        let profile = start_profile.as_deref().map(named);
        let option_changes = (w.option_changes.iter())
            .map(|c| crate::world::OptionChange {
                profile: c.profile.as_deref().map(named),
                ..c.clone()
            })
            .collect();
        let options = start_values
            .iter()
            .filter(|(k, v)| base.as_ref().is_none_or(|b| b.values.get(*k) != Some(*v)))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let save = SaveFile {
            format: SAVE_FORMAT.into(),
            scenario,
            profile,
            seed: w.state.seed,
            state_hash: format!("{:016x}", w.state.hash()),
            options,
            content_hash: Some(self.content_hash()),
            players: players.clone(),
            rules_reloaded_at: w.reloaded_at.clone(),
            option_changes,
            checksum: None,
            log: w.log.clone(),
        };
        SaveFile {
            checksum: Some(save.compute_checksum()),
            ..save
        }
    }

    /// A hash of what the game is played with: the scenario file (and those it extends), its map, its special rules and
    /// the ruleset's Lua and TOML files (its tests aside). Files are named in it by where they
    /// stand to the ruleset's folder or the scenario's, never by the path they were opened with:
    /// a save reopens its scenario by another path (relative to the save, or absolute) than the
    /// command that played it, and every save of a scenario whose ruleset lies in another folder
    /// was said to have been played with other files.
    pub fn content_hash(&self) -> String {
        let mut files = Vec::new();
        let mut scenario_dir = None;
        if let Some(sc) = self.scenario() {
            files.push(sc.path.clone());
            // a scenario that extends another is its bases too: a changed base plays otherwise
            files.extend(sc.bases().map(Path::to_path_buf));
            files.push(sc.map_path.clone());
            scenario_dir = sc.path.parent().map(|d| {
                if d.as_os_str().is_empty() {
                    Path::new(".").to_path_buf()
                } else {
                    d.to_path_buf()
                }
            });
        }
        files.extend(self.extra_scripts.iter().cloned());
        let mut rules = Vec::new();
        files_under(&self.ruleset_dir, &mut rules);
        // the ruleset's profiles other than the game's own are no part of it: a profile a GM
        // added beside the others (copied from one and edited) left every save saying that
        // its files had changed
        let profiles = self.ruleset_dir.join("profiles");
        let in_use =
            (self.profile_arg.as_deref()).map(|p| Engine::profile_path(&self.ruleset_dir, p));
        rules.retain(|f| !f.starts_with(&profiles) || in_use.as_deref() == Some(f.as_path()));
        rules.sort();
        // a profile given by its path, or found among the user's profiles, lies outside the
        // ruleset: its options are part of what the game is played with all the same (a GM's
        // edited profile of this year's rulings replayed old saves without a word)
        if let Some(p) = in_use.filter(|p| p.is_file() && !rules.contains(p)) {
            files.push(p);
        }
        files.extend(rules);
        let name = |f: &Path| -> String {
            if let Ok(rel) = f.strip_prefix(&self.ruleset_dir) {
                return rel.to_string_lossy().into_owned();
            }
            scenario_dir
                .as_deref()
                .and_then(|d| crate::scaffold::relative_to(d, f).ok())
                .or_else(|| f.file_name().map(|n| n.to_string_lossy().into_owned()))
                .unwrap_or_default()
        };
        let mut all = Vec::new();
        for f in files {
            all.extend_from_slice(name(&f).as_bytes());
            all.push(0);
            all.extend(
                crate::fsio::read_bounded(&f, crate::fsio::MAX_TEXT_INPUT).unwrap_or_default(),
            );
            all.push(0);
        }
        format!("{:016x}", fnv64(&all))
    }

    /// Loads a saved game: rebuilds the scenario and rules, then plays the log's actions again
    /// through the rules, refusing the first that is not legal or does not give the events the
    /// save recorded. So a save whose history was edited does not load, even with its hashes
    /// recomputed; and a save made before the scenario or rules changed says that instead.
    pub fn load_save(path: &Path, limits: Limits) -> Result<Engine, EngineError> {
        Self::load_save_with_players(path, limits).map(|(e, _)| e)
    }

    /// Loads a saved game of either kind: one game's save, or a campaign save (`kessel campaign
    /// --save`), of which it replays the games up to `game` (from 1; default the last one). A
    /// `game` with one game's save is refused: it holds one game.
    pub fn load_any_save(
        path: &Path,
        limits: Limits,
        game: Option<usize>,
    ) -> Result<Engine, EngineError> {
        let text = crate::error::read_text(path, "save")?;
        crate::error::json_bounds(path, &text, "save", crate::error::MAX_JSON_VALUES)?;
        if is_campaign_save(&text) {
            return Engine::load_campaign_game(path, limits, game);
        }
        if game.is_some() {
            use crate::fsio::{kessel_json_kind, not_the_kind, KesselFile, KesselJson};
            // only a save is one game's save: a scenario, a map or any other file was called one
            let why = if kessel_json_kind(&text) == Some(KesselJson::Save) {
                "one game's save: a game number picks a game of a campaign save \
                 (`kessel campaign --save`)"
                    .to_string()
            } else {
                let named = "a campaign save (`kessel campaign --save`)";
                let kind = not_the_kind(
                    path,
                    &text,
                    KesselFile::Json(KesselJson::CampaignSave),
                    named,
                )
                .unwrap_or_else(|| format!("not {named}"));
                format!("{kind}; a game number picks a game of a campaign save")
            };
            return Err(LoadError::new(path, None, why).into());
        }
        Engine::load_save(path, limits)
    }

    /// [`Engine::load_save`], and who played each side (see [`SaveFile::players`]).
    pub fn load_save_with_players(
        path: &Path,
        limits: Limits,
    ) -> Result<(Engine, BTreeMap<String, String>), EngineError> {
        Self::load_save_stoppable(path, limits, crate::script::Stopper::default())
    }

    /// [`Engine::load_save_with_players`] whose rule calls (the rules' loading, the set-up and
    /// the replay) `stopper` stops from another thread.
    pub fn load_save_stoppable(
        path: &Path,
        limits: Limits,
        stopper: crate::script::Stopper,
    ) -> Result<(Engine, BTreeMap<String, String>), EngineError> {
        Self::load_save_replaying(path, limits, stopper, true).map(|(e, p, _)| (e, p))
    }

    /// [`Engine::load_save_stoppable`] for a save the files now in place no longer replay whole
    /// (rules fixed since, or reloaded during play): the game as far as its actions replay, and
    /// how far that is. Where it stopped short, [`Engine::save_changed_note`] says so, naming
    /// the first action that no longer replays and how many were left out, for the players to
    /// play again. A save that is no save, or whose files or options cannot be loaded, is an
    /// error as for a whole load.
    pub fn load_save_as_far_as_it_replays(
        path: &Path,
        limits: Limits,
        stopper: crate::script::Stopper,
    ) -> Result<(Engine, BTreeMap<String, String>, Replayed), EngineError> {
        Self::load_save_replaying(path, limits, stopper, false)
    }

    fn load_save_replaying(
        path: &Path,
        limits: Limits,
        stopper: crate::script::Stopper,
        whole: bool,
    ) -> Result<(Engine, BTreeMap<String, String>, Replayed), EngineError> {
        let fail = |message: String| EngineError::from(LoadError::new(path, None, message));
        let text = crate::error::read_text(path, "save")?;
        crate::error::json_bounds(path, &text, "save", crate::error::MAX_JSON_VALUES)?;
        let mut save: SaveFile = serde_json::from_str(&text).map_err(|e| {
            if is_campaign_save(&text) {
                LoadError::new(path, None, CAMPAIGN_SAVE_HERE.to_string())
            } else {
                LoadError::new(
                    path,
                    Some(e.line()),
                    format!(
                        "not a Kessel save: {}",
                        crate::error::plain_types(&e.to_string())
                    ),
                )
            }
        })?;
        if save.format != SAVE_FORMAT {
            return Err(fail(format!("unknown save format `{}`", save.format)));
        }
        // (every save Kessel writes has one: without it, a hand edit would pass unseen)
        match &save.checksum {
            Some(sum) if *sum == save.compute_checksum() => {}
            Some(_) => {
                return Err(fail(
                    "the save was edited or damaged: its checksum does not match its contents"
                        .into(),
                ))
            }
            None => {
                return Err(fail(
                    "the save has no `checksum`: it was edited or damaged (every save Kessel \
                     writes carries one)"
                        .into(),
                ))
            }
        }
        // paths relative to the save's folder (saves written by `save_as`), else to the working
        // folder (older saves, and `save`)
        let folder = path.parent().unwrap_or(Path::new(""));
        // a save opened through a link in another folder names its files from the folder it
        // is in: they were looked for beside the link only
        let real_folder = std::fs::canonicalize(path)
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf));
        let resolve = |p: &str| -> String {
            if Path::new(p).is_relative() {
                let beside = std::iter::once(folder.join(p))
                    .chain(real_folder.as_deref().map(|d| d.join(p)))
                    .find(|b| b.exists());
                if let Some(b) = beside {
                    return b.to_string_lossy().into_owned();
                }
            }
            p.to_string()
        };
        // a save names a scenario and a profile file (the engine wrote them, so they may be
        // absolute): nothing but Kessel's own files is read for them
        let kind = |field: &str, p: &str| {
            crate::fsio::named_kind(p, crate::fsio::Named::Toml)
                .map_err(|e| fail(format!("`{field}`: {e}")))
        };
        if let Some(p) = save.profile.as_deref() {
            if Engine::is_profile_path(p) {
                kind("profile", p)?;
            }
        }
        // a file the save names that is no longer there is said as such, with where it was
        // looked for, rather than as the scenario loader's bare "cannot read"
        let found = |field: &str, p: &str| -> Result<String, EngineError> {
            let at = resolve(p);
            if Path::new(&at).exists() {
                return Ok(at);
            }
            // `scenario.toml/` names a folder inside a file: said as that, not as a file missing
            // at the path of one that is there
            let through = crate::fsio::file_on_the_way(&folder.join(p))
                .or_else(|| crate::fsio::file_on_the_way(Path::new(p)));
            if let Some(file) = through {
                return Err(fail(format!(
                    "the save's `{field}`, `{p}`, goes through {}, which is a file, not a folder: \
                     give the {field}'s own path",
                    crate::error::shown_path(&file).display()
                )));
            }
            let hint = if Path::new(p).is_relative() {
                format!(
                    "looked for from the save's folder, at {}, and from the working folder: put \
                     the {field} back there, or move the save back beside it",
                    crate::error::shown_path(&folder.join(p)).display()
                )
            } else {
                format!("put the {field} back there")
            };
            Err(fail(format!(
                "the {field} the game was played with, `{p}`, is missing ({hint})"
            )))
        };
        // (the path is only looked at, not read, before its kind is checked; a file the
        // program opens itself, a package, stands for its scenario)
        // another of Kessel's files where the save names a scenario or a profile (a save edited
        // to name the map) is said as the save's field, not as that file's own error
        let other_kind = |field: &str, at: &str, wanted: crate::fsio::KesselToml| {
            let Ok(text) = crate::error::read_text(Path::new(at), field) else {
                return Ok(());
            };
            let named = format!("a {field}");
            match crate::fsio::not_the_kind(
                Path::new(at),
                &text,
                crate::fsio::KesselFile::Toml(wanted),
                &named,
            ) {
                Some(why) => Err(fail(format!(
                    "the save's `{field}` names `{}`, {why}; it names the {field} the game was \
                     played with",
                    crate::error::shown_path(Path::new(at)).display()
                ))),
                None => Ok(()),
            }
        };
        let at = found("scenario", &save.scenario)?;
        let scenario = match crate::fsio::open_scenario_file(Path::new(&at)) {
            Some(opened) => opened.map_err(fail)?.to_string_lossy().into_owned(),
            None => {
                kind("scenario", &save.scenario)?;
                other_kind("scenario", &at, crate::fsio::KesselToml::Scenario)?;
                at
            }
        };
        let profile = match save.profile.as_deref() {
            Some(p) if Engine::is_profile_path(p) => {
                let at = found("profile", p)?;
                other_kind("profile", &at, crate::fsio::KesselToml::Profile)?;
                Some(at)
            }
            other => other.map(str::to_string),
        };
        // a profile an option change put in force is named as the save's own is (relative to
        // the save's folder): it was read from the working folder, so the save loaded only from
        // the folder it was written from, and a hand edit to `/dev/zero` was read as a profile
        for c in &mut save.option_changes {
            if let Some(p) = c.profile.as_deref().filter(|p| Engine::is_profile_path(p)) {
                kind("option_changes", p)?;
                let at = found("profile", p)?;
                other_kind("profile", &at, crate::fsio::KesselToml::Profile)?;
                c.profile = Some(at);
            }
        }
        let scenario = crate::scenario::Scenario::load(Path::new(&scenario))?;
        // a profile name the ruleset has no profile of is the save's to answer for: it was
        // said at `profiles/NAME.toml`, a file that is not there, as if given on a command line
        if let Some(p) = profile.as_deref() {
            if let Some(known) = Engine::unknown_profile(&scenario.ruleset_dir, p) {
                let has = if known.is_empty() {
                    "it has none".to_string()
                } else {
                    format!("it has: {}", known.join(", "))
                };
                return Err(fail(format!(
                    "the save's `profile`, `{}`, is not a profile of the ruleset ({has}){}: put \
                     the profile the game was played with back in the ruleset's profiles/ folder",
                    crate::error::printable_name(p),
                    crate::names::did_you_mean(p, &known)
                )));
            }
        }
        // (the options set by hand were in force from the set-up on)
        let options: Vec<(String, crate::state::Value)> = save
            .options
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let mut engine = Engine::with_scenario_and_options(
            scenario,
            profile.as_deref(),
            &options,
            save.seed,
            limits,
            stopper,
        )
        .map_err(|e| match e {
            // the save's own `options` (a hand edit, another version of the rules): said at the
            // save's line, as its other fields are
            EngineError::Option { id, value, message } => EngineError::from(LoadError::new(
                path,
                key_line(&text, "options", &id),
                format!("the save sets option `{id}` = {value}: {message}"),
            )),
            other => other,
        })?;
        if let Err((side, why)) = players_allowed(&save.players, &engine.world.borrow().ruleset) {
            return Err(LoadError::new(path, players_line(&text, &side), why).into());
        }
        if whole {
            engine.replay_save(&save, path)?;
            let of = save.log.len();
            let all = Replayed {
                replayed: of,
                of,
                stop: None,
                left_out: Vec::new(),
            };
            return Ok((engine, save.players, all));
        }
        let replayed = engine.replay_what_replays(&save, path)?;
        if let Some(stop) = &replayed.stop {
            let left = replayed.of - replayed.replayed;
            engine.save_changed = Some(match stop.action {
                Some(n) => format!(
                    "{} loaded as far as it replays under the files now in place: {} of {} \
                     actions; action {n} no longer does ({}), so it and the {} after it were \
                     left out: play them again",
                    crate::error::shown_path(path).display(),
                    replayed.replayed,
                    replayed.of,
                    stop.why,
                    left.saturating_sub(1)
                ),
                None => format!(
                    "{} loaded with all {} actions, but the files now in place make another \
                     state of them than the saved one ({})",
                    crate::error::shown_path(path).display(),
                    replayed.of,
                    stop.why
                ),
            });
        }
        Ok((engine, save.players, replayed))
    }
}

/// The refusal of a campaign save where one game's save is wanted.
const CAMPAIGN_SAVE_HERE: &str =
    "a campaign save (from `kessel campaign --save`), not one game's save: \
`kessel campaign --verify FILE` replays it and `kessel editor FILE` opens it";

/// Whether a file that is not one game's save is a campaign save (`kessel campaign --save`),
/// which holds its games' saves inside and is read by `kessel campaign` and the editor.
fn is_campaign_save(text: &str) -> bool {
    #[derive(Deserialize)]
    struct Format {
        format: Option<String>,
    }
    serde_json::from_str::<Format>(text)
        .ok()
        .and_then(|f| f.format)
        .is_some_and(|f| f.starts_with("kessel-campaign-save"))
}

/// Whether a save's `players` could have been written for this ruleset: each key one of its
/// sides, each word `human`, `computer` or `computer:LEVEL` with a level its AI declares. A
/// hand-edited `"green": "computer"` or `"red": "robot"` was kept without a word and handed to
/// the program that loaded it. The error names the entry's side and says what is wrong.
pub fn players_allowed(
    players: &BTreeMap<String, String>,
    ruleset: &crate::ruleset::Ruleset,
) -> Result<(), (String, String)> {
    let name = crate::error::printable_name;
    for (side, word) in players {
        if !ruleset.sides.iter().any(|s| s == side) {
            return Err((
                side.clone(),
                format!(
                    "`players`: `{}` is not a side of this ruleset (its sides: {}){}",
                    name(side),
                    ruleset.sides.join(", "),
                    crate::names::did_you_mean(side, &ruleset.sides)
                ),
            ));
        }
        let levels: Vec<String> = ruleset.ai_levels.iter().map(|l| l.id.clone()).collect();
        let fine = match word.split_once(':') {
            None => word == "human" || word == "computer",
            Some(("computer", level)) => levels.iter().any(|l| l == level),
            Some(_) => false,
        };
        if !fine {
            let choices = if levels.is_empty() {
                "`human` or `computer` (the ruleset's AI declares no levels)".to_string()
            } else {
                format!(
                    "`human`, `computer` or `computer:LEVEL` with a level of the ruleset's AI ({})",
                    levels.join(", ")
                )
            };
            return Err((
                side.clone(),
                format!(
                    "`players`: side `{}` is played by `{}`, which no program writes: give \
                     {choices}",
                    name(side),
                    name(word)
                ),
            ));
        }
    }
    Ok(())
}

/// The line of the save's text where `players` names `side` (the line of `"players"` when the
/// side cannot be found, none when neither can).
fn players_line(text: &str, side: &str) -> Option<usize> {
    key_line(text, "players", side)
}

/// The line of `key` within the save's `field` object (the field's own line when the key is not
/// found as such).
fn key_line(text: &str, field: &str, key: &str) -> Option<usize> {
    let start = text.find(&format!("\"{field}\""))?;
    let key = serde_json::to_string(key).ok()?;
    let at = text[start..].find(&key).map_or(start, |i| start + i);
    Some(text[..at].matches('\n').count() + 1)
}

#[cfg(test)]
mod tests {
    /// A save's numbers read back as the very numbers written: its checksum is of their text as
    /// read, so one number read a unit in the last place off (serde_json's fast float reading,
    /// without `float_roundtrip`) made a save Kessel had just written refuse to load as
    /// "edited or damaged" (a ruleset's road costing 0.65536 MP, its sums in the log).
    #[test]
    fn every_number_in_a_save_reads_back_as_written() {
        let mut misread = Vec::new();
        for i in 0..200u32 {
            for j in 0..50u32 {
                let x = f64::from(i) * 0.65536 + f64::from(j) * 0.1 + 1e-3 * f64::from(i % 7);
                let text = serde_json::to_string(&x).expect("a finite number");
                let back: f64 = serde_json::from_str(&text).expect("reads");
                if back.to_bits() != x.to_bits() {
                    misread.push(format!("{text} read as {back:?}"));
                }
            }
        }
        assert!(
            misread.is_empty(),
            "{} misread: {:?}",
            misread.len(),
            &misread[..misread.len().min(5)]
        );
    }
}
