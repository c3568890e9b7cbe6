//! How a play session puts its rule calls to the rules worker ([`super::worker`]) and takes
//! their answers: what is wanted is noted (the views to work out again, the pointer's hex, the
//! actions and take-backs asked for, in order), [`PlaySession::pump`] gives the worker one job
//! at a time and applies each answer that still fits the game. The UI thread itself runs no Lua.

use super::worker::{Acted, Answer, Done, Job, LookAsk, Looked};
use super::{reason_text, PlaySession, Refusal};
use kessel_core::action::Action;
use kessel_core::error::Located;
use kessel_core::event::Event;
use kessel_core::hex::Hex;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a frame waits for the rules' answer before it draws without it: most answers come
/// well within it, so a click shows its outcome on the next frame, while a runaway call leaves
/// the window drawing.
pub const ANSWER_WAIT: Duration = Duration::from_millis(40);

/// A change to the game asked for and not yet given to the worker.
#[derive(Clone, Debug)]
pub(super) enum Change {
    /// A person's action.
    Act(Action),
    /// The computer's move (`None`: a choice drawn with its dice).
    Computer(Option<Action>),
    /// Take back a person's last decision (with the computer's moves after it).
    Undo,
    /// Load the rules again: these files changed.
    Reload(Vec<PathBuf>),
    /// Replace the game with a saved one.
    Load(PathBuf),
}

/// What the session wants the rules to work out.
#[derive(Debug, Default)]
pub(super) struct Wanted {
    pub game: bool,
    pub reach: bool,
    pub odds: bool,
    pub hover: Option<Hex>,
    pub changes: VecDeque<Change>,
}

impl PlaySession {
    /// Takes an action (on the rules' thread; its outcome shows once it is back): an accepted
    /// one refreshes everything, a refused one is kept to show.
    pub fn act(&mut self, action: &Action) {
        let mut action = action.clone();
        // sent as the side the screen showed deciding when the person clicked: should the game
        // have moved on meanwhile (the computer played), the rules refuse it for that side
        // instead of taking it for whoever decides by then
        if action.side.is_none() {
            action.side = self.deciding.clone();
        }
        self.confirm_undo = false;
        self.wanted.changes.push_back(Change::Act(action));
    }

    /// Takes back a person's last decision with the computer's moves made after it, so the
    /// computer does not simply play them again (with nobody human, one move).
    pub fn undo_decision(&mut self) {
        self.confirm_undo = false;
        self.wanted.changes.push_back(Change::Undo);
    }

    /// The side whose action Undo action would take back, when in hot seat it is not the side at
    /// the screen's: the player there could take back the other's roll, or the move the other
    /// just made, unasked. `None` with one person at the screen (a take-back against the
    /// computer is theirs to make), with no side at the screen, and when the last action is the
    /// viewer's own.
    pub fn undo_takes_anothers(&self) -> Option<String> {
        let humans = (self.sides_in_play().iter())
            .filter(|side| self.seats.player(side) == super::computer::Player::Human)
            .count();
        if humans < 2 {
            return None;
        }
        // no side at the screen (the game over, a step no side decides): both players are
        let viewer = self.viewer()?;
        let last = self.engine.log().last()?.action.side.clone()?;
        (viewer != last).then_some(last)
    }

    /// Undo action as a player asks it (the button, Ctrl+Z): in hot seat, an action of the other
    /// side's is taken back only once asked again, after the panel has said whose it is.
    pub fn request_undo(&mut self) {
        if self.undo_takes_anothers().is_some() && !self.confirm_undo {
            self.confirm_undo = true;
            return;
        }
        self.undo_decision();
    }

    /// Tries the rules as they are now on disk on the rules' thread first (a rules file that
    /// loops while loading does not freeze the window); the outcome comes in
    /// [`PlaySession::reloaded`], and only when they loaded there should the session's engine
    /// reload them.
    pub fn try_reload(&mut self, paths: Vec<PathBuf>) {
        self.wanted.changes.push_back(Change::Reload(paths));
    }

    /// True while the rules have work out or waiting (the app keeps drawing frames to take the
    /// answers).
    pub fn rules_busy(&self) -> bool {
        let w = &self.wanted;
        self.rules.out().is_some()
            || !w.changes.is_empty()
            || w.game
            || w.reach
            || w.odds
            || w.hover.is_some()
    }

    /// True while a change of the game is out or waiting.
    pub fn change_waiting(&self) -> bool {
        !self.wanted.changes.is_empty() || self.rules.out().is_some_and(|o| o.job.changes_game())
    }

    /// Stops the rule call under way (the *Stop* button): the game is unchanged.
    pub fn stop_rules(&mut self) {
        self.rules.stop();
    }

    /// Asks the rules again for what they could not work out (the choices, the reach, the
    /// odds), after *Stop* or a failure: the panels say they are listing them meanwhile.
    pub fn ask_again(&mut self) {
        self.actions = Ok(Vec::new());
        self.refresh();
    }

    /// Gives the worker its next job and applies the answers that come within `wait`; a job
    /// that takes longer keeps working and is looked for on the next call. Returns true when an
    /// answer was applied.
    pub fn pump(&mut self, wait: Duration) -> bool {
        if self.seats.take_changed() {
            // who plays which side changed: who is waited for, and who sees what
            self.wanted.game = true;
            self.look_at = None;
        }
        let deadline = Instant::now() + wait;
        let mut applied = false;
        loop {
            if self.rules.out().is_none() {
                match self.next_job() {
                    Some(job) => self.rules.send(&self.engine, job),
                    None => break,
                }
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rules.poll(left) {
                Some(done) => {
                    self.apply(done);
                    applied = true;
                }
                None => break,
            }
        }
        applied
    }

    /// Pumps until the rules have nothing out or waiting, for up to `limit` (a scripted start,
    /// which has no window to keep drawing yet). Returns false if they were still busy.
    pub fn settle(&mut self, limit: Duration) -> bool {
        let start = Instant::now();
        while self.rules_busy() {
            if start.elapsed() > limit {
                return false;
            }
            self.pump(ANSWER_WAIT);
        }
        true
    }

    fn next_job(&mut self) -> Option<Job> {
        while let Some(change) = self.wanted.changes.pop_front() {
            if let Some(job) = self.change_job(change) {
                return Some(job);
            }
        }
        if self.wanted.game || self.wanted.reach || self.wanted.odds {
            let game = std::mem::take(&mut self.wanted.game).then(|| self.human_sides());
            let reach = std::mem::take(&mut self.wanted.reach)
                .then(|| self.picked.clone())
                .filter(|p| !p.is_empty());
            let odds = std::mem::take(&mut self.wanted.odds)
                .then(|| (self.attackers.clone(), self.targets.clone()))
                .filter(|(a, t)| !a.is_empty() && !t.is_empty());
            if game.is_some() || reach.is_some() || odds.is_some() {
                return Some(Job::Look(LookAsk { game, reach, odds }));
            }
        }
        let hex = self.wanted.hover.take()?;
        if self.picked.is_empty() || self.why.contains_key(&hex) {
            return None;
        }
        self.hover_sent = Some((self.why_epoch, hex));
        Some(Job::Hover {
            hex,
            action: self.move_to(hex),
            cost: self.cost_at(hex),
            split: self.split_at(hex),
        })
    }

    fn change_job(&mut self, change: Change) -> Option<Job> {
        match change {
            Change::Act(a) => Some(Job::Act(a)),
            Change::Computer(action) => Some(Job::Computer {
                action,
                dice: Box::new(self.seats.dice.clone()),
            }),
            Change::Reload(paths) => Some(Job::Reload(paths)),
            Change::Load(path) => Some(Job::Load(path)),
            Change::Undo => {
                let len = self.engine.log().len();
                if len == 0 {
                    self.message = Some(("nothing to take back".into(), false));
                    return None;
                }
                // the person's last decision and the computer's moves after it (with nobody
                // human, one move)
                let sides = self.sides_in_play();
                let mut n = 1;
                if self.seats.anyone_human(&sides) {
                    while n < len && self.seats.computer_moves.contains(&(len - n)) {
                        n += 1;
                    }
                }
                Some(Job::Undo(n))
            }
        }
    }

    /// The sides people play, in the ruleset's order.
    fn human_sides(&self) -> Vec<String> {
        let sides = self.sides_in_play();
        sides
            .into_iter()
            .filter(|side| self.seats.player(side) == super::computer::Player::Human)
            .collect()
    }

    fn apply(&mut self, done: Done) {
        let Done { out, result } = done;
        let current = out.revision == self.engine.revision();
        let answer = match result {
            Ok(a) => a,
            Err(why) => return self.job_failed(&out.job, out.stopping, why),
        };
        match answer {
            Answer::Look(looked) if current => {
                self.take_look(&out.job, *looked);
                if out.stopping {
                    let text = format!("you stopped the rules ({})", out.job.what());
                    self.message = Some((text, true));
                }
            }
            Answer::Look(_) => {}
            Answer::Hover(hex, text) => {
                if current && self.hover_sent == Some((self.why_epoch, hex)) {
                    let text = if out.stopping {
                        let label = self.engine.state().map.label(hex);
                        format!("{label}: you stopped the rules ({})", out.job.what())
                    } else {
                        text
                    };
                    self.why.insert(hex, text);
                }
            }
            Answer::Act(_) | Answer::Computer(..) | Answer::Undo(_) if !current => {
                self.rules.out_of_step();
                let why = "the game changed while the rules worked: that change was dropped";
                self.message = Some((why.into(), true));
            }
            Answer::Act(acted) => self.took_action(*acted, out.stopping),
            Answer::Computer(acted, dice) => {
                self.seats.dice = *dice;
                self.took_computer_move(*acted, out.stopping);
            }
            Answer::Undo(Ok((copy, n))) => {
                self.engine.take_game(&copy);
                self.rules.adopted(self.engine.revision());
                let len = self.engine.log().len();
                self.seats.computer_moves.retain(|at| *at < len);
                self.refusal = None;
                let text = match n {
                    0 => "nothing to take back".to_string(),
                    1 => "took back the last action".to_string(),
                    n => format!("took back {n} actions"),
                };
                self.message = Some((text, false));
                // the computer waits after a take-back, so the player can look before it moves
                self.pause_after_undo = n > 0;
                self.refresh();
            }
            Answer::Loaded(outcome) => {
                if let Job::Load(path) = &out.job {
                    let done = outcome.and_then(|(copy, players, note)| {
                        self.loaded(path, &copy, &players)?;
                        if let Some(note) = note {
                            // shown as a warning: the game goes on under files it was not saved with
                            self.message = Some((note, true));
                        }
                        Ok(())
                    });
                    if let Err(e) = done {
                        self.message = Some((format!("cannot load {}: {e}", path.display()), true));
                    }
                }
            }
            Answer::Reloaded(outcome) => {
                if let Job::Reload(paths) = out.job {
                    self.reloaded = Some((paths, outcome.map_err(|e| *e)));
                }
            }
            Answer::Undo(Err(why)) => {
                self.rules.out_of_step();
                self.message = Some((format!("cannot take back: {why}"), true));
            }
        }
    }

    /// A job the worker could not answer (stopped, the rules did not load, the thread failed).
    fn job_failed(&mut self, job: &Job, stopped: bool, why: String) {
        let text = if stopped {
            format!("you stopped the rules ({}): {why}", job.what())
        } else {
            format!("the rules failed ({}): {why}", job.what())
        };
        match job {
            Job::Look(ask) => {
                if ask.game.is_some() {
                    self.actions = Err(why.clone());
                }
                if ask.reach.is_some() {
                    self.reach = Some(Err(why.clone()));
                }
                if ask.odds.is_some() {
                    self.odds = Some(Err(why));
                }
            }
            Job::Hover { hex, .. } => {
                let label = self.engine.state().map.label(*hex);
                self.why.insert(*hex, format!("{label}: {text}"));
            }
            Job::Computer { .. } if stopped => self.computer_stopped_by_person(),
            Job::Computer { .. } => {
                self.seats.stopped = Some(format!("the computer stopped: {why}"))
            }
            Job::Act(_) | Job::Undo(_) | Job::Load(_) => self.error = Some(why),
            Job::Reload(paths) => {
                let what = format!("the rules' thread could not load them: {why}");
                self.reloaded = Some((paths.clone(), Err(Located::plain(what))));
            }
        }
        self.rules.out_of_step();
        self.message = Some((text, true));
    }

    fn take_look(&mut self, job: &Job, looked: Looked) {
        let Job::Look(ask) = job else {
            return;
        };
        if let Some(g) = looked.game {
            self.deciding = g.deciding;
            self.person_waiting = g.person_waited_for;
            self.actions = g.actions;
            self.acting = g.acting;
            self.moving = g.moving;
            self.fit_clicks();
            self.outcome = g.outcome;
            self.game_answers = Some(g.answers);
            // what the side at the screen sees; with nobody at the screen, the whole game
            match g.shown {
                Some(shown) => {
                    self.units = crate::document::UnitLayer::new(shown.units);
                    self.markers = shown.markers;
                    self.log = shown.log;
                }
                None => {
                    let state = self.engine.state();
                    self.units = crate::document::UnitLayer::new(state.units.clone());
                    self.markers = state.markers.clone();
                    self.log = self.engine.log().to_vec();
                }
            }
            self.look_at = Some(self.engine.revision());
            if std::mem::take(&mut self.pause_after_undo) && self.computer_to_move() {
                self.seats.pace = super::computer::Pace::Paused;
            }
        }
        // a part asked for another selection than the one now is dropped (it is wanted again)
        if let (Some((reach, answers)), Some(units)) = (looked.reach, &ask.reach) {
            if *units == self.picked {
                self.reach = Some(reach);
                self.unit_answers = Some(answers);
            }
        }
        if let (Some(odds), Some((units, targets))) = (looked.odds, &ask.odds) {
            if *units == self.attackers && *targets == self.targets {
                self.odds = Some(odds);
            }
        }
    }

    fn took_action(&mut self, acted: Acted, stopped: bool) {
        match acted {
            Acted::Done {
                action,
                copy,
                events,
            } => {
                self.engine.take_game(&copy);
                self.rules.adopted(self.engine.revision());
                self.refusal = None;
                self.error = None;
                let what = self.describe(&action);
                let notes = events
                    .iter()
                    .filter(|e| matches!(e, Event::Note { .. }))
                    .count();
                let text = if notes > 0 {
                    format!("{what} ({} in the log)", crate::words::count(notes, "note"))
                } else {
                    what
                };
                self.message = Some((text, false));
                if action.kind == "attack" {
                    self.attackers.clear();
                    self.targets.clear();
                }
                self.refresh();
            }
            Acted::Refused { action, reasons } => {
                self.rules.out_of_step();
                let what = self.describe(&action);
                self.message = Some((format!("refused: {what}"), true));
                self.refusal = Some(Refusal { what, reasons });
            }
            Acted::Failed { action, message } => {
                // a failing rule hook aborts the action (the engine restored the state)
                self.rules.out_of_step();
                let what = action
                    .as_ref()
                    .map_or_else(String::new, |a| self.describe(a));
                let text = if stopped {
                    format!("you stopped the rules on: {what} (the game is unchanged)")
                } else {
                    format!("the rules failed on: {what}")
                };
                self.message = Some((text, true));
                self.error = Some(message);
            }
        }
    }

    fn took_computer_move(&mut self, acted: Acted, stopped: bool) {
        let why = match acted {
            Acted::Done {
                action,
                copy,
                events: _,
            } => {
                let at = self.engine.log().len();
                self.engine.take_game(&copy);
                self.rules.adopted(self.engine.revision());
                self.seats.computer_moves.insert(at);
                self.seats.played_at(Instant::now());
                // a person's refusal was of the game before this move: left up, it read as if
                // the game still stood there (an `--act` refused until the computer had placed
                // its markers kept saying so once they were down)
                self.refusal = None;
                // said as the side at the screen is shown it: the status bar named the path and
                // unit of a move the log withheld (a block moved out of sight). Only where the
                // rules keep secrets, as the look shows a view (a view replays the whole log: not
                // on this thread at every computer move of a game that has none)
                let secrets = !self.engine.state().secrets.is_empty();
                let withheld = secrets
                    && self.viewer().is_some_and(|side| {
                        (self.engine.view(&side).ok())
                            .and_then(|v| v.log.last().map(|e| e.params_withheld))
                            .unwrap_or(true)
                    });
                let what = if withheld {
                    format!("{} (withheld)", action.kind)
                } else {
                    self.describe(&action)
                };
                self.message = Some((format!("computer: {what}"), false));
                self.refresh();
                return;
            }
            Acted::Refused { reasons, .. } => {
                let parts: Vec<String> = reasons.iter().map(reason_text).collect();
                format!(
                    "the computer stopped: the rules refused its choice: refused: {}",
                    parts.join("; ")
                )
            }
            Acted::Failed { .. } if stopped => {
                self.rules.out_of_step();
                return self.computer_stopped_by_person();
            }
            Acted::Failed { message, .. } => format!("the computer stopped: {message}"),
        };
        self.rules.out_of_step();
        self.message = Some((why.clone(), true));
        self.seats.stopped = Some(why);
    }

    /// Puts in the game loaded from `path` on the rules' thread: taken by this engine when it
    /// plays the same rules; else an engine for it is built here (another ruleset's save).
    pub(super) fn loaded(
        &mut self,
        path: &Path,
        copy: &kessel_core::engine::GameCopy,
        players: &super::worker::Players,
    ) -> Result<(), String> {
        if copy.same_rules_as(&self.engine) {
            self.engine.take_game(copy);
        } else {
            let stopper = kessel_core::script::Stopper::default();
            self.engine =
                kessel_core::engine::Engine::from_copy(copy, stopper).map_err(|e| e.to_string())?;
        }
        self.seed = self.engine.state().seed;
        self.game_replaced();
        self.seats.new_game();
        // a save that names no players leaves the seats as they are; one that does says all a
        // save knows of whose moves were the computer's: those of the sides it plays (a player
        // who saved in the middle of its turn found its moves neither marked nor on the map)
        if !players.is_empty() {
            self.seats.restore(players);
            let seats = &mut self.seats;
            for (i, entry) in self.engine.log().iter().enumerate() {
                let side = entry.action.side.as_deref();
                if side.is_some_and(|side| seats.player(side) == super::computer::Player::Computer)
                {
                    seats.computer_moves.insert(i);
                }
            }
        }
        self.clear_selection();
        self.refusal = None;
        self.last_phase = None;
        // the file field names the save loaded, as a loaded campaign save does: Save game
        // writes back to it, not to the scenario's default beside the scenario
        self.save_path = path.display().to_string();
        self.message = Some((format!("game loaded from {}", path.display()), false));
        self.refresh();
        Ok(())
    }

    /// The person stopped the computer's move: it waits, paused.
    pub(super) fn computer_stopped_by_person(&mut self) {
        self.seats.pace = super::computer::Pace::Paused;
        self.message = Some(("you stopped the computer: it waits (paused)".into(), false));
    }
}
