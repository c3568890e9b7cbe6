//! Playing a campaign's games in order, and the campaign save: each game's own save (its log)
//! and its final state hash, so that loading replays game after game, carrying between them, and
//! refuses a history that does not lead where the save says.

use super::{Engine, EngineError, GameCopy, LastGame, SaveFile};
use crate::campaign::sources::var_sources;
use crate::campaign::{Campaign, CarryReport};
use crate::error::LoadError;
use crate::scenario::Scenario;
use crate::script::{display_path, Limits, Stopper};
use crate::state::GameState;
use serde::{Deserialize, Serialize};
use std::path::Path;

const CAMPAIGN_SAVE_FORMAT: &str = "kessel-campaign-save/1";

/// A campaign in progress or done: which campaign, its seed, and each game played so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CampaignSave {
    /// Format tag.
    pub format: String,
    /// The campaign file, as given.
    pub campaign: String,
    /// The campaign's seed (each game's own is derived from it).
    pub seed: u64,
    /// The games played, in order.
    pub games: Vec<CampaignGameSave>,
}

/// One game of a campaign save.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CampaignGameSave {
    /// The game's name.
    pub name: String,
    /// The hash of its state when it ended (or when the campaign was saved).
    pub final_hash: String,
    /// Whether it had ended.
    pub finished: bool,
    /// Its own save: scenario, seed, options, log.
    pub save: SaveFile,
}

impl CampaignSave {
    /// An empty save for a campaign played with `seed`.
    pub fn new(campaign: &Campaign, seed: u64) -> CampaignSave {
        CampaignSave {
            format: CAMPAIGN_SAVE_FORMAT.into(),
            campaign: display_path(&campaign.path),
            seed,
            games: Vec::new(),
        }
    }

    /// The save as JSON to be written at `path`: the campaign file named relative to the save's
    /// folder, so the save loads from any working folder.
    pub fn to_json_at(&self, path: &Path, campaign: &Campaign) -> Result<String, String> {
        let folder = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut copy = self.clone();
        if let Ok(rel) = crate::scaffold::relative_to(folder, &campaign.path) {
            copy.campaign = rel;
        }
        serde_json::to_string_pretty(&copy)
            .map(|t| t + "\n")
            .map_err(|e| e.to_string())
    }

    /// Records a game as it stands.
    pub fn record(&mut self, name: &str, engine: &Engine) {
        let state = engine.state();
        self.games.push(CampaignGameSave {
            name: name.to_string(),
            final_hash: format!("{:016x}", state.hash()),
            finished: state.finished,
            save: engine.save_file(),
        });
    }
}

/// A campaign save as loaded: the campaign, the save, the engine of its last game, the engine
/// of the game before that (`None` when the save holds one game) and what carried into the last.
pub struct LoadedCampaign {
    /// The campaign file the save names.
    pub campaign: Campaign,
    /// The save.
    pub save: CampaignSave,
    /// The last game in the save, replayed to where it was saved.
    pub engine: Engine,
    /// The game before it, as it ended.
    pub previous: Option<Engine>,
    /// What carried into the last game.
    pub carried: CarryReport,
}

/// The game before one of a campaign, as the next one starts from it.
struct Before<'a> {
    ruleset_dir: &'a Path,
    started: &'a GameState,
    ended: &'a GameState,
    /// Its log (where its variables were last set).
    log: &'a [crate::event::LogEntry],
}

/// The name of game `index` of a campaign: its own, or its scenario's.
pub fn game_name(campaign: &Campaign, index: usize, scenario: &Scenario) -> String {
    campaign.games[index]
        .name
        .clone()
        .unwrap_or_else(|| scenario.name.clone())
}

/// Two ruleset folders are the same ruleset when they are the same folder on disk.
fn same_ruleset(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// A ruleset folder as people read it (resolved, relative to the working folder where possible).
fn ruleset_text(p: &Path) -> String {
    display_path(&p.canonicalize().unwrap_or_else(|_| p.to_path_buf()))
}

/// Checks before anything is played that every game's scenario loads, that all use one
/// ruleset and, when the campaign carries the map, one map: a mistake in the last game is found
/// before the first is played.
pub fn check_games(campaign: &Campaign) -> Result<(), EngineError> {
    let mut first: Option<std::path::PathBuf> = None;
    // a campaign that carries the map plays every game on game 1's: said before game 1 is
    // played, not when game 2 finds another map
    let mut first_map: Option<(serde_json::Value, std::path::PathBuf)> = None;
    for (i, game) in campaign.games.iter().enumerate() {
        let scenario = Scenario::load(&game.scenario)?;
        if campaign.carry.map {
            let digest = scenario.map.digest();
            match &first_map {
                None => first_map = Some((digest, scenario.map_path.clone())),
                Some((d, path)) if *d != digest => {
                    return Err(LoadError::new(
                        &game.scenario,
                        None,
                        format!(
                            "game {} of the campaign is on the map {}, game 1 on {}: the campaign carries the map (`carry.map`), so its games share one",
                            i + 1,
                            crate::error::shown_path(&scenario.map_path).display(),
                            crate::error::shown_path(path).display()
                        ),
                    )
                    .into())
                }
                Some(_) => {}
            }
        }
        match &first {
            None => first = Some(scenario.ruleset_dir.clone()),
            Some(rules) if !same_ruleset(rules, &scenario.ruleset_dir) => {
                return Err(LoadError::new(
                    &game.scenario,
                    None,
                    format!(
                        "game {} of the campaign uses the ruleset at {}, game 1 the one at {}: a campaign's games share one ruleset",
                        i + 1,
                        ruleset_text(&scenario.ruleset_dir),
                        ruleset_text(rules)
                    ),
                )
                .into())
            }
            Some(_) => {}
        }
    }
    Ok(())
}

impl Engine {
    /// Starts game `index` (0-based) of a campaign played with `seed`. `last` is the engine of
    /// the game before, played to its end (`None` for the first game); what the campaign carries
    /// goes from it into this game's set-up. Every game must use the same ruleset.
    pub fn campaign_game(
        campaign: &Campaign,
        index: usize,
        seed: u64,
        limits: Limits,
        last: Option<&Engine>,
    ) -> Result<(Engine, String, CarryReport), EngineError> {
        let Some(last) = last else {
            return Engine::campaign_game_stoppable(
                campaign,
                index,
                seed,
                limits,
                None,
                Stopper::default(),
            );
        };
        let world = last.world();
        let last = Before {
            ruleset_dir: last.ruleset_dir(),
            started: &world.initial,
            ended: &world.state,
            log: &world.log,
        };
        Engine::campaign_game_from(
            campaign,
            index,
            seed,
            limits,
            Some(last),
            Stopper::default(),
        )
    }

    /// [`Engine::campaign_game`] from a copy of the game before (so another thread can start
    /// it: [`GameCopy`] is plain data), with rule calls `stopper` stops from another thread.
    pub fn campaign_game_stoppable(
        campaign: &Campaign,
        index: usize,
        seed: u64,
        limits: Limits,
        last: Option<&GameCopy>,
        stopper: Stopper,
    ) -> Result<(Engine, String, CarryReport), EngineError> {
        let last = last.map(|c| Before {
            ruleset_dir: &c.ruleset_dir,
            started: &c.initial,
            ended: &c.state,
            log: &c.log,
        });
        Engine::campaign_game_from(campaign, index, seed, limits, last, stopper)
    }

    fn campaign_game_from(
        campaign: &Campaign,
        index: usize,
        seed: u64,
        limits: Limits,
        last: Option<Before<'_>>,
        stopper: Stopper,
    ) -> Result<(Engine, String, CarryReport), EngineError> {
        let game = campaign.games.get(index).ok_or_else(|| {
            LoadError::new(
                &campaign.path,
                None,
                format!(
                    "the campaign has {} games; there is no game {}",
                    campaign.games.len(),
                    index + 1
                ),
            )
        })?;
        // the rules said the game before was the campaign's last: nothing comes after it
        if let Some(end) = last.as_ref().and_then(|l| l.ended.campaign_ended.as_ref()) {
            return Err(LoadError::new(
                &campaign.path,
                None,
                format!(
                    "game {} is not played: the campaign ended with game {index}: {end}",
                    index + 1
                ),
            )
            .into());
        }
        let scenario = Scenario::load(&game.scenario)?;
        let name = game_name(campaign, index, &scenario);
        let game_seed = Campaign::game_seed(seed, index);
        let profile = game.profile.as_deref();
        if let Some(e) = unknown_game_profile(campaign, index, &scenario.ruleset_dir) {
            return Err(e.into());
        }
        let Some(last) = last else {
            let engine =
                Engine::with_scenario_stoppable(scenario, profile, game_seed, limits, stopper)?;
            return Ok((engine, name, CarryReport::default()));
        };
        if !same_ruleset(&scenario.ruleset_dir, last.ruleset_dir) {
            return Err(LoadError::new(
                &game.scenario,
                None,
                format!(
                    "game {} of the campaign uses the ruleset at {}, the game before the one at {}: a campaign's games share one ruleset",
                    index + 1,
                    ruleset_text(&scenario.ruleset_dir),
                    ruleset_text(last.ruleset_dir)
                ),
            )
            .into());
        }
        let (engine, report) = Engine::start(
            scenario,
            profile,
            &[],
            game_seed,
            limits,
            Some(LastGame {
                started: last.started,
                ended: last.ended,
                carry: &campaign.carry,
            }),
            stopper,
        )?;
        let mut report = report.unwrap_or_default();
        // each carried value with the step of the last game that set it, and those the next
        // game's own set-up took away again
        let names: Vec<String> = report.vars.keys().cloned().collect();
        report.var_sources = var_sources(&engine.world().ruleset, last.started, last.log, &names);
        report.dropped_vars = (names.into_iter())
            .filter(|k| !engine.state().vars.contains_key(k))
            .collect();
        Ok((engine, name, report))
    }

    /// Loads a campaign save: replays each game's log on a game started from the campaign and
    /// what the game before left, and checks every game's final hash. Returns the campaign, the
    /// save and the engine of the last game in it.
    pub fn load_campaign_save(
        path: &Path,
        limits: Limits,
    ) -> Result<(Campaign, CampaignSave, Engine), EngineError> {
        let loaded = Engine::load_campaign_save_in_full(path, limits)?;
        Ok((loaded.campaign, loaded.save, loaded.engine))
    }

    /// [`Engine::load_campaign_save`], keeping also the game before the last (to start the last
    /// game again) and what carried into the last game (to show it).
    pub fn load_campaign_save_in_full(
        path: &Path,
        limits: Limits,
    ) -> Result<LoadedCampaign, EngineError> {
        Engine::load_campaign_save_stoppable(path, limits, Stopper::default())
    }

    /// [`Engine::load_campaign_save_in_full`] whose rule calls (every game's start and replay)
    /// `stopper` stops from another thread.
    pub fn load_campaign_save_stoppable(
        path: &Path,
        limits: Limits,
        stopper: Stopper,
    ) -> Result<LoadedCampaign, EngineError> {
        Engine::replay_campaign_save(path, limits, stopper, None)
    }

    /// One game of a campaign save (`game`, counted from 1; default its last), replayed with
    /// every game before it and each one's final hash checked: what `kessel view --game N` shows.
    pub fn load_campaign_game(
        path: &Path,
        limits: Limits,
        game: Option<usize>,
    ) -> Result<Engine, EngineError> {
        Engine::replay_campaign_save(path, limits, Stopper::default(), game).map(|l| l.engine)
    }

    /// Replays a campaign save's games in order, up to game `upto` (from 1) or all of them.
    fn replay_campaign_save(
        path: &Path,
        limits: Limits,
        stopper: Stopper,
        upto: Option<usize>,
    ) -> Result<LoadedCampaign, EngineError> {
        let fail = |message: String| EngineError::from(LoadError::new(path, None, message));
        let text = crate::error::read_text(path, "campaign save")?;
        crate::error::json_bounds(path, &text, "campaign save", crate::error::MAX_JSON_VALUES)?;
        let save: CampaignSave = serde_json::from_str(&text).map_err(|e| {
            // one game's save, given where a campaign's goes: say which it is
            if crate::fsio::kessel_json_kind(&text) == Some(crate::fsio::KesselJson::Save) {
                return LoadError::new(
                    path,
                    None,
                    "one game's save, not a campaign save (`kessel campaign --save` writes those): \
                     `kessel view` shows it, the editor plays it on"
                        .to_string(),
                );
            }
            // or another of Kessel's files
            use crate::fsio::{not_the_kind, KesselFile, KesselJson};
            let wanted = KesselFile::Json(KesselJson::CampaignSave);
            if let Some(why) = not_the_kind(path, &text, wanted, "a campaign save") {
                return LoadError::new(path, None, why);
            }
            LoadError::new(
                path,
                Some(e.line()),
                format!(
                    "not a Kessel campaign save: {}",
                    crate::error::plain_types(&e.to_string())
                ),
            )
        })?;
        if save.format != CAMPAIGN_SAVE_FORMAT {
            return Err(fail(format!(
                "unknown campaign save format `{}`",
                save.format
            )));
        }
        // a campaign save names a campaign file, nothing else
        crate::fsio::named_kind(&save.campaign, crate::fsio::Named::Toml)
            .map_err(|e| fail(format!("`campaign`: {e}")))?;
        // the campaign file beside the save (saves written by `to_json_at`), else as given
        let beside = path.parent().unwrap_or(Path::new("")).join(&save.campaign);
        let campaign_path = if Path::new(&save.campaign).is_relative() && beside.exists() {
            beside.clone()
        } else {
            Path::new(&save.campaign).to_path_buf()
        };
        // what the field names is the save's to answer for: a path through a file, a file not
        // there, or another of Kessel's files was said at that path as the campaign's own error
        // ("scenario.toml: not a campaign file"), not at the save
        if !campaign_path.exists() {
            let shown = |p: &Path| crate::error::shown_path(p).display().to_string();
            let through = crate::fsio::file_on_the_way(&beside)
                .or_else(|| crate::fsio::file_on_the_way(&campaign_path));
            return Err(fail(match through {
                Some(file) => format!(
                    "the save's `campaign`, `{}`, goes through {}, which is a file, not a \
                     folder: give the campaign's own path",
                    save.campaign,
                    shown(&file)
                ),
                None if Path::new(&save.campaign).is_relative() => format!(
                    "the campaign the games were played in, `{}`, is missing (looked for from \
                     the save's folder, at {}, and from the working folder): put it back there, \
                     or move the save back beside it",
                    save.campaign,
                    shown(&beside)
                ),
                None => format!(
                    "the campaign the games were played in, `{}`, is missing: put it back there",
                    save.campaign
                ),
            }));
        }
        if let Ok(text) = crate::error::read_text(&campaign_path, "campaign") {
            use crate::fsio::{not_the_kind, KesselFile, KesselToml};
            let wanted = KesselFile::Toml(KesselToml::Campaign);
            if let Some(why) = not_the_kind(&campaign_path, &text, wanted, "a campaign file") {
                return Err(fail(format!(
                    "the save's `campaign` names `{}`, {why}; it names the campaign the games \
                     were played in",
                    crate::error::shown_path(&campaign_path).display()
                )));
            }
        }
        let campaign = Campaign::load(&campaign_path)?;
        if save.games.is_empty() || save.games.len() > campaign.games.len() {
            return Err(fail(format!(
                "the save holds {} games; its campaign has {}",
                save.games.len(),
                campaign.games.len()
            )));
        }
        if let Some(n) = upto {
            if n == 0 || n > save.games.len() {
                return Err(fail(format!(
                    "no game {n} in this campaign save: it holds games 1 to {}",
                    save.games.len()
                )));
            }
        }
        let mut last: Option<Engine> = None;
        let mut previous: Option<Engine> = None;
        let mut carried = CarryReport::default();
        let games = upto.unwrap_or(save.games.len());
        for (i, game) in save.games.iter().enumerate().take(games) {
            // each game's save carries its checksum, as one game's save does: without this check
            // its options, players or seed could be edited unseen (the options set by hand are
            // set again on replay, and stay in force for the rest of the campaign)
            if game.save.checksum.as_deref() != Some(game.save.compute_checksum().as_str()) {
                return Err(fail(format!(
                    "game {} ({}): its save was edited or damaged: {} (take the campaign save \
                     from a copy)",
                    i + 1,
                    crate::error::printable_name(&game.name),
                    if game.save.checksum.is_some() {
                        "its checksum does not match its contents"
                    } else {
                        "it has no `checksum`"
                    }
                )));
            }
            let before = last.as_ref().map(|e| e.copy_game());
            let (mut engine, _, report) = Engine::campaign_game_stoppable(
                &campaign,
                i,
                save.seed,
                limits,
                before.as_ref(),
                stopper.clone(),
            )?;
            carried = report;
            engine.replay_save(&game.save, path).map_err(|e| {
                fail(format!(
                    "game {} ({}): {}",
                    i + 1,
                    crate::error::printable_name(&game.name),
                    e.located()
                        .iter()
                        .map(|l| l.message.clone())
                        .collect::<Vec<_>>()
                        .join("; ")
                ))
            })?;
            let hash = format!("{:016x}", engine.state().hash());
            if hash != game.final_hash {
                return Err(fail(format!(
                    "game {} ({}) ends at state {hash}, the save says {}",
                    i + 1,
                    crate::error::printable_name(&game.name),
                    game.final_hash
                )));
            }
            // (`finished` is the save's word about the game, which its replay decides: the
            // state hash does not cover it)
            let ended = engine.state().finished;
            if ended != game.finished {
                let what = if ended {
                    "did not end, but its replay ends it"
                } else {
                    "ended, but its replay does not end it"
                };
                return Err(fail(format!(
                    "game {} ({}): the save says it {what}: the campaign save was edited (take it from a copy)",
                    i + 1,
                    crate::error::printable_name(&game.name),
                )));
            }
            previous = last.replace(engine);
        }
        let engine = last.ok_or_else(|| fail("the save holds no game".into()))?;
        Ok(LoadedCampaign {
            campaign,
            save,
            engine,
            previous,
            carried,
        })
    }
}

/// When game `index` of `campaign` names a profile (by name, not path) that the ruleset at
/// `ruleset_dir` does not have: the error, said at the game's `profile` line in the campaign file
/// (it was said at the profile file that does not exist). `kessel check` of a campaign and the
/// start of a campaign's game both ask.
pub fn unknown_game_profile(
    campaign: &Campaign,
    index: usize,
    ruleset_dir: &Path,
) -> Option<LoadError> {
    let p = campaign.games.get(index)?.profile.as_deref()?;
    let known = Engine::unknown_profile(ruleset_dir, p)?;
    let line = crate::error::read_text(&campaign.path, "campaign")
        .ok()
        .and_then(|text| crate::campaign::line_of_value(&text, p));
    Some(LoadError::new(
        &campaign.path,
        line,
        format!(
            "game {} `profile`: the ruleset has no profile `{}` ({}){}",
            index + 1,
            crate::error::printable_name(p),
            if known.is_empty() {
                "it has no profiles/ folder".to_string()
            } else {
                format!("it has: {}", known.join(", "))
            },
            crate::names::did_you_mean(p, &known)
        ),
    ))
}
