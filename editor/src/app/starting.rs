//! Starting a play-test game without freezing the window: the start (the rules loaded, the
//! scenario set up by them) is tried first on a thread of its own, so a rules file or a set-up
//! hook that loops leaves the window drawing until the instruction budget ends it, and the
//! editor then says where. Only a start that worked there is made again on the UI thread, where
//! the game's engine lives (an engine stays on the thread that built it); the same files load the
//! same way, so that start finishes. A campaign's game starts at once, as before.

use super::messages::tidy_paths_in;
use super::{EditorApp, Problem, ProfileChoice};
use crate::play::PlaySession;
use kessel_core::engine::Engine;
use kessel_core::error::Located;
use kessel_core::script::Limits;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A start tried on its own thread: its outcome comes over `outcome`.
pub(super) struct Trial {
    outcome: Receiver<Result<(), Vec<Located>>>,
    since: Instant,
    /// A new game asked for by the person (said in the status bar once it started).
    new_game: bool,
}

impl EditorApp {
    /// The profile a new game starts with (`None`: the scenario's own).
    fn profile_name(&self) -> Option<String> {
        match &self.profile {
            ProfileChoice::Named(p) => Some(p.clone()),
            _ => None,
        }
    }

    /// Starts the play-test game (see the module docs): tried on a thread first.
    pub(super) fn start_session(&mut self) {
        self.start_game(false);
    }

    /// [`EditorApp::start_session`]; `new_game` when the person asked for it.
    pub(super) fn start_game(&mut self, new_game: bool) {
        if self.campaign.is_some() {
            return self.finish_start(new_game);
        }
        let scenario = match PlaySession::scenario_of(&self.doc) {
            Ok(s) => s,
            Err(problems) => return self.start_failed(&problems),
        };
        let (profile, seed) = (self.profile_name(), self.seed);
        let (tx, outcome) = channel();
        let spawned = std::thread::Builder::new()
            .name("play-test start".into())
            .stack_size(kessel_core::script::RULES_THREAD_STACK)
            .spawn(move || {
                let r =
                    Engine::with_scenario(scenario, profile.as_deref(), seed, Limits::default());
                let _ = tx.send(r.map(|_| ()).map_err(|e| e.located()));
            });
        match spawned {
            Ok(_) => {
                self.starting = Some(Trial {
                    outcome,
                    since: Instant::now(),
                    new_game,
                });
            }
            // no thread: start here
            Err(_) => self.finish_start(new_game),
        }
    }

    /// True while a game's start is being tried.
    pub fn starting(&self) -> bool {
        self.starting.is_some()
    }

    /// How long the start being tried has taken, if one is.
    pub(super) fn starting_for(&self) -> Option<Duration> {
        self.starting.as_ref().map(|t| t.since.elapsed())
    }

    /// Takes the outcome of the start being tried, waiting for it up to a frame's share.
    pub(super) fn poll_start(&mut self, ctx: &egui::Context) {
        let Some(trial) = &self.starting else {
            return;
        };
        let new_game = trial.new_game;
        let outcome = match trial.outcome.recv_timeout(crate::play::ANSWER_WAIT) {
            Ok(o) => o,
            Err(RecvTimeoutError::Timeout) => return ctx.request_repaint(),
            Err(RecvTimeoutError::Disconnected) => Err(vec![Located::plain(
                "the game's start failed on its thread",
            )]),
        };
        self.starting = None;
        match outcome {
            Ok(()) => self.finish_start(new_game),
            Err(problems) => self.start_failed(&problems),
        }
        ctx.request_repaint();
    }

    /// Waits for the start being tried and makes it (a scripted start, before any window).
    /// Returns false if it took longer than `limit`.
    pub fn wait_start(&mut self, limit: Duration) -> bool {
        let ctx = egui::Context::default();
        let start = Instant::now();
        while self.starting.is_some() {
            if start.elapsed() > limit {
                return false;
            }
            self.poll_start(&ctx);
        }
        true
    }

    /// Makes the game on this thread (the start worked on its own thread, or is a campaign's).
    fn finish_start(&mut self, new_game: bool) {
        let profile = self.profile_name();
        match self.new_session(profile.as_deref()) {
            Ok(mut s) => {
                if self.profile == ProfileChoice::Defaults {
                    if let Err(e) = s.engine.apply_profile(None) {
                        self.status.error(e.to_string());
                    }
                    s.refresh();
                }
                if let Some(old) = &self.session {
                    s.save_path = old.save_path.clone();
                    // a new game keeps its players and the computer's pace
                    s.seats.players = old.seats.players.clone();
                    s.seats.pace = old.seats.pace;
                }
                self.rules_panel.refresh(s.engine.ruleset_dir());
                self.session = Some(s);
                self.session_error = None;
                self.problems.rules = None;
                if new_game {
                    self.status.info(format!("new game, seed {}", self.seed));
                }
            }
            Err(problems) => self.start_failed(&problems),
        }
    }

    fn start_failed(&mut self, problems: &[Located]) {
        let text: Vec<String> = problems
            .iter()
            .map(|p| tidy_paths_in(&p.to_string()))
            .collect();
        self.session = None;
        self.session_error = Some(text.join("\n"));
        self.problems.rules = problems
            .first()
            .map(|first| Problem::located("The play-test game could not start", first));
    }
}
