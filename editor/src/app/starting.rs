//! Starting a play-test game without freezing the window: a new game, a campaign's game, its
//! next game and a loaded campaign save are each made first on a thread of their own (the rules
//! loaded, the scenario set up, a save replayed), so rules that loop leave the window drawing
//! until *Stop* or the instruction budget ends them, and the editor then says where. What comes
//! back is the game as plain data ([`GameCopy`]); the UI thread's engine, which stays on the
//! thread that built it, is made from that copy (the rules loaded from the same files, which
//! just loaded on the other thread), as the rules worker's twin is ([`crate::play::worker`]).

use super::messages::tidy_paths_in;
use super::{EditorApp, Problem, ProfileChoice};
use crate::play::campaign::{load_apart, CampaignRun, GameStarted, LoadedApart};
use crate::play::{default_save_path, PlaySession};
use kessel_core::engine::{Engine, GameCopy};
use kessel_core::error::Located;
use kessel_core::script::{Limits, Stopper};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// What a start tried on its own thread hands back.
// (one value a start, sent once over a channel: the variants' sizes cost nothing worth a box)
#[allow(clippy::large_enum_variant)]
enum Started {
    /// A new game of the document's scenario.
    Game(GameCopy),
    /// A campaign's game.
    CampaignGame(GameStarted),
    /// A campaign save.
    CampaignSave(Box<LoadedApart>),
}

/// What the start is for, and what to go back to if it fails.
enum Purpose {
    /// A new game (`true`: the person asked for it).
    Start(bool),
    /// The campaign's next game, after this session's game ended.
    Next(Box<PlaySession>),
    /// A campaign save, loaded in place of this session (if there was one).
    Load(PathBuf, Option<Box<PlaySession>>),
}

/// A start tried on its own thread: its outcome comes over `outcome`.
pub(super) struct Trial {
    outcome: Receiver<Result<Started, Vec<Located>>>,
    since: Instant,
    stopper: Stopper,
    stopping: bool,
    purpose: Purpose,
}

impl EditorApp {
    /// The profile a new game starts with: `None` as chosen in the scenario, `Some(None)` the
    /// ruleset's defaults.
    fn profile_wanted(&self) -> Option<Option<String>> {
        match &self.profile {
            ProfileChoice::Named(p) => Some(Some(p.clone())),
            ProfileChoice::Defaults => Some(None),
            _ => None,
        }
    }

    /// Starts the play-test game (see the module docs).
    pub(super) fn start_session(&mut self) {
        self.start_game(false);
    }

    /// [`EditorApp::start_session`]; `new_game` when the person asked for it.
    pub(super) fn start_game(&mut self, new_game: bool) {
        if self.starting.is_some() {
            return;
        }
        let profile = self.profile_wanted();
        if let Some(run) = &mut self.campaign {
            if run.seed != self.seed {
                // another seed starts the campaign again from its first game
                run.restart(self.seed);
                self.open_campaign_scenario();
            }
        }
        if let Some(run) = &self.campaign {
            let ask = run.game_ask(run.index, run.last.clone());
            return self.try_apart(Purpose::Start(new_game), move |stopper| {
                let p = profile.as_ref().map(Option::as_deref);
                ask.start(p, stopper).map(Started::CampaignGame)
            });
        }
        let scenario = match PlaySession::scenario_of(&self.doc) {
            Ok(s) => s,
            Err(problems) => return self.trial_failed(Purpose::Start(new_game), &problems),
        };
        let seed = self.seed;
        let options = self.start_options.clone();
        self.try_apart(Purpose::Start(new_game), move |stopper| {
            // the ruleset's defaults by their profile name, set up under them as a save of the
            // game is loaded (applied after the set-up, the save named them and did not load
            // where a set-up hook reads an option)
            let named = match &profile {
                Some(Some(p)) => Some(p.as_str()),
                Some(None) => Some(kessel_core::options::DEFAULTS),
                None => None,
            };
            let e = Engine::with_scenario_and_options(
                scenario,
                named,
                &options,
                seed,
                Limits::default(),
                stopper,
            )
            .map_err(|e| e.located())?;
            Ok(Started::Game(e.copy_game()))
        });
    }

    /// Starts the campaign's next game from `ended`, the session whose game has ended; it comes
    /// back as the session if the next game fails to start.
    pub(super) fn start_next_game(&mut self, ended: PlaySession) {
        let Some(run) = &self.campaign else {
            return;
        };
        let ask = run.game_ask(run.index + 1, Some(ended.engine.copy_game()));
        self.try_apart(Purpose::Next(Box::new(ended)), move |stopper| {
            ask.start(None, stopper).map(Started::CampaignGame)
        });
    }

    /// Loads a campaign save in place of the game in progress (kept if the save fails to load).
    pub fn load_campaign(&mut self, path: &Path) {
        if self.starting.is_some() {
            return self
                .status
                .error("a game is being started: wait, or stop it");
        }
        let old = self.session.take().map(Box::new);
        let owned = path.to_path_buf();
        self.try_apart(Purpose::Load(owned.clone(), old), move |stopper| {
            load_apart(&owned, stopper).map(|l| Started::CampaignSave(Box::new(l)))
        });
    }

    /// Runs `work` on a thread of its own for `purpose`, with a stop switch.
    fn try_apart(
        &mut self,
        purpose: Purpose,
        work: impl FnOnce(Stopper) -> Result<Started, Vec<Located>> + Send + 'static,
    ) {
        let stopper = Stopper::default();
        let (tx, outcome) = channel();
        let theirs = stopper.clone();
        let spawned = kessel_core::script::rules_thread("play-test start").spawn(move || {
            let _ = tx.send(work(theirs));
        });
        if let Err(e) = spawned {
            let why = Located::plain(format!("cannot start a thread for the rules: {e}"));
            return self.trial_failed(purpose, &[why]);
        }
        if matches!(purpose, Purpose::Next(_)) {
            self.session = None;
        }
        self.starting = Some(Trial {
            outcome,
            since: Instant::now(),
            stopper,
            stopping: false,
            purpose,
        });
    }

    /// True while a game's start is being tried.
    pub fn starting(&self) -> bool {
        self.starting.is_some()
    }

    /// How long the start being tried has taken, if one is, and whether *Stop* was pressed.
    pub(super) fn starting_for(&self) -> Option<(Duration, bool)> {
        (self.starting.as_ref()).map(|t| (t.since.elapsed(), t.stopping))
    }

    /// Stops the start being tried (the *Stop* button): it fails, saying it was stopped.
    pub fn stop_start(&mut self) {
        if let Some(t) = &mut self.starting {
            t.stopping = true;
            t.stopper.stop();
        }
    }

    /// Takes the outcome of the start being tried, waiting for it up to a frame's share.
    pub(super) fn poll_start(&mut self, ctx: &egui::Context) {
        let Some(trial) = &self.starting else {
            return;
        };
        let outcome = match trial.outcome.recv_timeout(crate::play::ANSWER_WAIT) {
            Ok(o) => o,
            Err(RecvTimeoutError::Timeout) => return ctx.request_repaint(),
            Err(RecvTimeoutError::Disconnected) => Err(vec![Located::plain(
                "the game's start failed on its thread",
            )]),
        };
        if let Some(trial) = self.starting.take() {
            self.finish(trial.purpose, outcome);
        }
        ctx.request_repaint();
    }

    /// Waits for the start being tried and makes it (a scripted start, before any window).
    /// Returns false if it took longer than `limit` (the start is then stopped).
    pub fn wait_start(&mut self, limit: Duration) -> bool {
        let ctx = egui::Context::default();
        let start = Instant::now();
        while self.starting.is_some() {
            if start.elapsed() > limit {
                self.stop_start();
                return false;
            }
            self.poll_start(&ctx);
        }
        true
    }

    /// Makes the game the thread started (or says why it did not start).
    fn finish(&mut self, purpose: Purpose, outcome: Result<Started, Vec<Located>>) {
        self.failed_start = None;
        let started = match outcome {
            Ok(s) => s,
            Err(problems) => return self.trial_failed(purpose, &problems),
        };
        let copy = match &started {
            Started::Game(copy) | Started::CampaignGame((copy, _, _)) => copy,
            Started::CampaignSave(l) => &l.game,
        };
        let engine = match Engine::from_copy(copy, Stopper::default()) {
            Ok(e) => e,
            Err(e) => return self.trial_failed(purpose, &e.located()),
        };
        match (purpose, started, &mut self.campaign) {
            (Purpose::Start(new_game), Started::Game(_), None) => {
                let scenario = self.doc.scenario_path.clone().unwrap_or_default();
                let fresh = PlaySession::with_engine(
                    engine,
                    self.seed,
                    save_beside(&self.not_yours, &scenario),
                );
                self.adopt_start(fresh, new_game);
            }
            (Purpose::Start(new_game), Started::CampaignGame((_, name, carried)), Some(run)) => {
                run.started(name, carried);
                let save_path = save_beside(&self.not_yours, &run.campaign.path);
                let fresh = PlaySession::with_engine(engine, run.seed, save_path);
                self.adopt_start(fresh, new_game);
            }
            (Purpose::Next(ended), Started::CampaignGame((_, name, carried)), Some(run)) => {
                run.moved_on(&ended.engine, name, carried);
                let mut fresh = PlaySession::with_engine(engine, run.seed, ended.save_path.clone());
                let units = run.carried.units.len();
                fresh.message = Some((
                    format!(
                        "{} begins: {} carried over",
                        run.game_line(),
                        crate::words::count(units, "unit")
                    ),
                    false,
                ));
                self.adopt(fresh, Some(*ended));
                self.open_campaign_scenario();
            }
            (Purpose::Load(path, old), Started::CampaignSave(loaded), _) => {
                let run = CampaignRun::from_save(*loaded);
                self.seed = run.seed;
                let mut fresh =
                    PlaySession::with_engine(engine, run.seed, path.display().to_string());
                fresh.message = Some((
                    format!(
                        "campaign loaded from {} ({})",
                        path.display(),
                        run.game_line()
                    ),
                    false,
                ));
                self.campaign = Some(run);
                self.adopt(fresh, old.map(|s| *s));
                self.open_campaign_scenario();
            }
            (purpose, _, _) => {
                let why = Located::plain("the campaign changed while its game was starting");
                self.trial_failed(purpose, &[why]);
            }
        }
    }

    /// A new game in place of the session's (which gives it its save file's name).
    fn adopt_start(&mut self, mut fresh: PlaySession, new_game: bool) {
        let old = self.session.take();
        if let Some(old) = &old {
            fresh.save_path = old.save_path.clone();
        }
        self.adopt(fresh, old);
        if new_game {
            self.status.info(format!("new game, seed {}", self.seed));
        }
    }

    /// Makes `fresh` the session; a new game keeps the old one's players and computer's pace.
    fn adopt(&mut self, mut fresh: PlaySession, old: Option<PlaySession>) {
        if let Some(old) = &old {
            fresh.seats.players = old.seats.players.clone();
            fresh.seats.pace = old.seats.pace;
        }
        self.rules_panel.refresh(fresh.engine.ruleset_dir());
        self.session = Some(fresh);
        self.session_error = None;
        self.problems.rules = None;
    }

    /// The start failed: the panel says why (a new game), or the game in progress goes on and
    /// the status bar says why (a next game, a campaign save).
    fn trial_failed(&mut self, purpose: Purpose, problems: &[Located]) {
        let text: Vec<String> = problems
            .iter()
            .map(|p| tidy_paths_in(&p.to_string()))
            .collect();
        let text = text.join("\n");
        self.failed_start = Some(text.clone());
        match purpose {
            Purpose::Start(_) => self.start_failed(problems, text),
            Purpose::Next(ended) => {
                self.session = Some(*ended);
                self.status
                    .error(format!("cannot start the next game: {text}"));
            }
            Purpose::Load(path, old) => {
                self.session = old.map(|s| *s);
                self.status
                    .error(format!("cannot load {}: {text}", path.display()));
            }
        }
    }

    fn start_failed(&mut self, problems: &[Located], text: String) {
        self.session = None;
        self.session_error = Some(text);
        self.problems.rules = problems
            .first()
            .map(|first| Problem::located("The play-test game could not start", first));
    }

    /// Why the last start tried failed, if it did (a scripted start reports it).
    pub fn failed_start(&self) -> Option<&str> {
        self.failed_start.as_deref()
    }
}

/// Where *Save game* writes a game of `file` at first: beside it (`campaign.save.json`), or in
/// the user's folder when `file` is in Kessel's own files: a bundled scenario or an opened
/// package (a new version replaces them, and the package cache is no place for a save), or
/// Kessel's source checkout (a game is no file of the repository's; see
/// [`crate::set_checkout_saves`]).
fn save_beside(
    not_yours: &Option<(std::path::PathBuf, std::path::PathBuf)>,
    file: &std::path::Path,
) -> String {
    let checkout = crate::checkout_saves().map(|s| (s.checkout.as_path(), s.folder.as_path()));
    let bundled = not_yours.as_ref().map(|(r, u)| (r.as_path(), u.as_path()));
    save_path_for([bundled, checkout].into_iter().flatten(), file)
}

/// `file`'s save beside it, or in the user's folder of the first of `kessels_own` (a root of
/// Kessel's files, the user's folder) that holds it.
fn save_path_for<'a>(
    kessels_own: impl IntoIterator<Item = (&'a std::path::Path, &'a std::path::Path)>,
    file: &std::path::Path,
) -> String {
    let beside = default_save_path(file);
    let (Some(name), Ok(real)) = (
        std::path::Path::new(&beside).file_name(),
        file.canonicalize(),
    ) else {
        return beside;
    };
    kessels_own
        .into_iter()
        .find(|(root, _)| real.starts_with(root))
        .map_or(beside.clone(), |(_, user)| {
            user.join(name).display().to_string()
        })
}

#[cfg(test)]
mod tests {
    use super::save_path_for;
    use std::path::Path;

    #[test]
    fn a_game_of_a_scenario_in_kessels_checkout_is_saved_in_the_users_folder() {
        let root = kessel_test_support::workspace_root()
            .canonicalize()
            .expect("the checkout");
        let learning = root.join("scenarios/pgg/learning.toml");
        let user = Path::new("/home/someone/kessel");
        let offered = save_path_for([(root.as_path(), user)], &learning);
        assert_eq!(
            offered,
            user.join("learning.save.json").display().to_string()
        );
        // told of no checkout, it stays beside the scenario
        let beside = save_path_for([], &learning);
        assert!(beside.ends_with("learning.save.json") && beside.contains("scenarios"));
        // a scenario of the user's, outside the checkout (in a repository of his own or not),
        // keeps its save beside it
        let dir = kessel_test_support::scratch("save-beside");
        std::fs::create_dir_all(dir.join(".git")).expect("a repository of the user's");
        let own = dir.join("mine.toml");
        std::fs::write(&own, "").expect("write");
        let offered = save_path_for([(root.as_path(), user)], &own);
        assert_eq!(offered, dir.join("mine.save.json").display().to_string());
    }
}
