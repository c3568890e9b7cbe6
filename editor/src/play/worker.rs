//! The rules worker: every rule call a play-test session makes runs on a thread of its own, so a
//! runaway validator, enumerator, query or action handler never freezes the window, and *Stop*
//! can cut it short.
//!
//! The worker holds a twin of the session's engine, built on its thread from a copy of the game
//! ([`Engine::copy_game`], plain data) with the rules loaded from the same files, as the
//! computer's thinker does ([`super::thinker`]). The twin is kept in step by revision: a job
//! carries a fresh copy of the game only when the twin's game is not the session's any more (an
//! action adopted from elsewhere, a loaded game, a reload of the rules). Each job answers with
//! plain data: the legal choices and what the side at the screen sees, a reach, odds, why a hex
//! can't be entered; an action or a take-back answers with the game it led to, which the
//! session's engine then takes in place of its own ([`Engine::take_game`]), so the UI thread
//! runs no Lua for it. One job is out at a time; an answer for a game that has moved on since is
//! dropped by the session.

use super::look::{hover_text, look};
use super::queries::{OddsView, Reach, UnitAnswer};
use kessel_core::action::{Action, Reason};
use kessel_core::dice::Dice;
use kessel_core::engine::{Engine, GameCopy};
use kessel_core::error::Located;
use kessel_core::event::{Event, LogEntry};
use kessel_core::hex::Hex;
use kessel_core::script::Stopper;
use kessel_core::state::{Marker, Unit};
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// What a play session asks the rules.
#[derive(Clone, Debug)]
pub enum Job {
    /// What the panels show of the game (see [`LookAsk`]).
    Look(LookAsk),
    /// What the pointer over `hex` says: the rules' verdict on `action` (moving there), with
    /// the MP it costs when the map shades the hex as reachable.
    Hover {
        /// The hex under the pointer.
        hex: Hex,
        /// The move there.
        action: Action,
        /// The cost the map shows for the hex, if it shades it reachable (`Some(None)`: with
        /// no cost known).
        cost: Option<Option<f64>>,
        /// What each group of the stack's units pays there, when they pay differently
        /// ([`super::queries::Reach::split`]).
        split: Vec<(Vec<String>, f64)>,
    },
    /// A person's action.
    Act(Action),
    /// The computer's move: its AI's pick, or (`None`) a choice drawn with the computer's own
    /// dice among the listed actions.
    Computer {
        /// The AI's pick.
        action: Option<Action>,
        /// The computer's dice for a choice its AI leaves open.
        dice: Box<Dice>,
    },
    /// Take back this many actions.
    Undo(usize),
    /// Load the rules again from their files (these changed), keeping the last good rules if
    /// they fail; the session's engine reloads only once they loaded here.
    Reload(Vec<PathBuf>),
    /// Load a saved game (its actions replayed through the rules).
    Load(PathBuf),
}

impl Job {
    /// True for the jobs that change the game.
    pub fn changes_game(&self) -> bool {
        matches!(
            self,
            Job::Act(_) | Job::Computer { .. } | Job::Undo(_) | Job::Load(_)
        )
    }

    /// What the rules are doing, for the status line.
    pub fn what(&self) -> &'static str {
        match self {
            Job::Look(_) => "working out the legal choices",
            Job::Hover { .. } => "checking a move",
            Job::Act(_) => "playing an action",
            Job::Computer { .. } => "playing the computer's move",
            Job::Undo(_) => "taking back",
            Job::Reload(_) => "loading the rules",
            Job::Load(_) => "loading the saved game",
        }
    }
}

/// The parts of the session's views to work out again (`None`: not wanted).
#[derive(Clone, Debug, Default)]
pub struct LookAsk {
    /// The legal choices, the deciding side and what the side at the screen sees; given the
    /// sides people play (in the ruleset's order).
    pub game: Option<Vec<String>>,
    /// Where these units can go, and what the rules' one-unit queries say of each.
    pub reach: Option<Vec<String>>,
    /// The odds of these attackers against these hexes.
    pub odds: Option<(Vec<String>, Vec<Hex>)>,
}

/// What the side at the screen sees where the rules keep secrets.
#[derive(Clone, Debug)]
pub struct Shown {
    /// Units drawn.
    pub units: Vec<Unit>,
    /// Markers drawn.
    pub markers: Vec<Marker>,
    /// The log as that side reads it.
    pub log: Vec<LogEntry>,
}

/// The game's part of a look.
#[derive(Clone, Debug)]
pub struct GameLook {
    /// The side whose decision it is.
    pub deciding: Option<String>,
    /// Legal actions other than moves, or why they could not be listed.
    pub actions: Result<Vec<Action>, String>,
    /// The units some legal action (a move too) names: those that can do something now.
    pub acting: std::collections::BTreeSet<String>,
    /// True when a legal action moves units (a `move`, or any with a `path`): reinforcements
    /// due can be brought on only then (a set-up step offers none).
    pub moving: bool,
    /// True when the rules list a decision (other than moving or ending the phase) for a side
    /// a person plays.
    pub person_waited_for: bool,
    /// What the side at the screen sees (`None`: the whole game).
    pub shown: Option<Shown>,
    /// The ended game's result (see [`super::phase::outcome_of`]).
    pub outcome: Option<Result<String, String>>,
    /// What the rules' queries that need no argument say of the game (see
    /// [`super::queries::game_answers`]).
    pub answers: Result<Vec<super::queries::UnitAnswer>, String>,
}

/// Per picked unit: what the rules' one-unit queries answer, or why they could not be asked.
pub type UnitAnswers = Vec<(String, Result<Vec<UnitAnswer>, String>)>;

/// The answer to a [`LookAsk`], part for part.
#[derive(Clone, Debug, Default)]
pub struct Looked {
    /// See [`LookAsk::game`].
    pub game: Option<GameLook>,
    /// See [`LookAsk::reach`].
    pub reach: Option<(Result<Reach, String>, UnitAnswers)>,
    /// See [`LookAsk::odds`].
    pub odds: Option<Result<OddsView, String>>,
}

/// What came of an action tried on the twin.
#[derive(Clone, Debug)]
pub enum Acted {
    /// Accepted: the game it led to, and its events.
    Done {
        /// The action played.
        action: Action,
        /// The game after it.
        copy: Box<GameCopy>,
        /// What it did.
        events: Vec<Event>,
    },
    /// Refused by the rules, with their reasons.
    Refused {
        /// The action tried.
        action: Action,
        /// Every reason, with its rule case.
        reasons: Vec<Reason>,
    },
    /// A rule call failed (or was stopped): the game is unchanged.
    Failed {
        /// The action tried, when one was settled on.
        action: Option<Action>,
        /// What went wrong, with the file and line.
        message: String,
    },
}

/// The worker's answer to a [`Job`].
#[derive(Clone, Debug)]
pub enum Answer {
    /// To [`Job::Look`].
    Look(Box<Looked>),
    /// To [`Job::Hover`]: the text for the hex.
    Hover(Hex, String),
    /// To [`Job::Act`].
    Act(Box<Acted>),
    /// To [`Job::Computer`], with the computer's dice after it.
    Computer(Box<Acted>, Box<Dice>),
    /// To [`Job::Undo`]: the game after it and how many actions were taken back, or why not.
    Undo(Result<(Box<GameCopy>, usize), String>),
    /// To [`Job::Reload`]: the rules loaded, or where they failed.
    Reloaded(Result<(), Box<Located>>),
    /// To [`Job::Load`]: the saved game and who played each side, or why it did not load.
    /// A save loaded: the game, who played each side, and the engine's note when the save was
    /// made with other files than the ones it replayed under.
    Loaded(Result<(Box<GameCopy>, Players, Option<String>), String>),
}

/// Who played each side, as a save records it.
pub type Players = std::collections::BTreeMap<String, String>;

struct Message {
    id: u64,
    copy: Option<Box<GameCopy>>,
    rebuild: bool,
    job: Job,
}

struct Reply {
    id: u64,
    result: Result<Answer, String>,
}

/// A job given to the worker and not answered yet.
#[derive(Clone, Debug)]
pub struct Out {
    id: u64,
    /// The session's revision when it was asked: the answer counts only for that game.
    pub revision: u64,
    /// When it was asked.
    pub since: Instant,
    /// The person pressed *Stop*.
    pub stopping: bool,
    /// What was asked.
    pub job: Job,
}

/// A job the worker answered (or failed to).
#[derive(Debug)]
pub struct Done {
    /// The job as it went out.
    pub out: Out,
    /// Its answer, or why there is none (the worker could not load the rules, or failed).
    pub result: Result<Answer, String>,
}

/// The session's side of the rules worker; the thread starts with the first job.
#[derive(Default)]
pub struct RulesWorker {
    link: Option<(Sender<Message>, Receiver<Reply>)>,
    stopper: Stopper,
    out: Option<Out>,
    next_id: u64,
    rebuild: bool,
    /// The session's revision the twin's game is, when known.
    twin_at: Option<u64>,
    /// Why the last job could not be given to the thread (answered as an error).
    failure: Option<String>,
}

impl std::fmt::Debug for RulesWorker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RulesWorker")
            .field("running", &self.link.is_some())
            .field("out", &self.out)
            .finish()
    }
}

/// A job out longer than this shows that the rules are working, with *Stop*.
pub const SHOW_WORKING_AFTER: Duration = Duration::from_millis(400);

impl RulesWorker {
    /// The job out, if any.
    pub fn out(&self) -> Option<&Out> {
        self.out.as_ref()
    }

    /// Gives `job` to the worker for the game of `engine` (a copy goes along when the twin is
    /// not at that game). Nothing is sent while another job is out.
    pub fn send(&mut self, engine: &Engine, job: Job) {
        if self.out.is_some() {
            return;
        }
        self.next_id += 1;
        let revision = engine.revision();
        let out = Out {
            id: self.next_id,
            revision,
            since: Instant::now(),
            stopping: false,
            job: job.clone(),
        };
        self.out = Some(out);
        if self.link.is_none() {
            match spawn(self.stopper.clone()) {
                Ok(link) => self.link = Some(link),
                Err(e) => {
                    self.failure = Some(format!("cannot start the rules' thread: {e}"));
                    return;
                }
            }
        }
        let copy =
            (self.rebuild || self.twin_at != Some(revision)).then(|| Box::new(engine.copy_game()));
        // after a change of the game the twin is where the session adopts it, if it does
        self.twin_at = (!job.changes_game()).then_some(revision);
        self.stopper.reset();
        let message = Message {
            id: self.next_id,
            copy,
            rebuild: std::mem::take(&mut self.rebuild),
            job,
        };
        let sent = (self.link.as_ref()).is_some_and(|(jobs, _)| jobs.send(message).is_ok());
        if !sent {
            self.thread_lost();
            self.failure = Some("the rules' thread failed".into());
        }
    }

    /// The answer to the job out, waiting for it up to `wait`.
    pub fn poll(&mut self, wait: Duration) -> Option<Done> {
        self.out.as_ref()?;
        if let Some(why) = self.failure.take() {
            let out = self.out.take()?;
            return Some(Done {
                out,
                result: Err(why),
            });
        }
        let deadline = Instant::now() + wait;
        loop {
            let (_, replies) = self.link.as_ref()?;
            let left = deadline.saturating_duration_since(Instant::now());
            match replies.recv_timeout(left) {
                Ok(r) if self.out.as_ref().is_some_and(|o| o.id == r.id) => {
                    let out = self.out.take()?;
                    return Some(Done {
                        out,
                        result: r.result,
                    });
                }
                Ok(_) => continue, // the answer to a job given up on
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => {
                    self.thread_lost();
                    let out = self.out.take()?;
                    return Some(Done {
                        out,
                        result: Err("the rules' thread failed".into()),
                    });
                }
            }
        }
    }

    fn thread_lost(&mut self) {
        self.link = None;
        self.rebuild = true;
        self.twin_at = None;
    }

    /// The session took the game the twin played to: the twin is at `revision`.
    pub fn adopted(&mut self, revision: u64) {
        self.twin_at = Some(revision);
    }

    /// The twin's game is not known to be the session's (a change was dropped).
    pub fn out_of_step(&mut self) {
        self.twin_at = None;
    }

    /// Stops the job out; its answer then says it was stopped.
    pub fn stop(&mut self) {
        if let Some(o) = &mut self.out {
            o.stopping = true;
            self.stopper.stop();
        }
    }

    /// Gives up the job out (the game was replaced): it is stopped and its answer dropped.
    pub fn forget(&mut self) {
        if self.out.take().is_some() {
            self.stopper.stop();
        }
        self.twin_at = None;
    }

    /// The rules were reloaded: the twin loads them again before its next job.
    pub fn rules_changed(&mut self) {
        self.rebuild = true;
        self.twin_at = None;
    }
}

impl Drop for RulesWorker {
    fn drop(&mut self) {
        // a job still running ends at once; the thread ends when its jobs do
        self.stopper.stop();
    }
}

fn spawn(stopper: Stopper) -> std::io::Result<(Sender<Message>, Receiver<Reply>)> {
    let (jobs, inbox) = channel::<Message>();
    let (outbox, replies) = channel::<Reply>();
    kessel_core::script::rules_thread("play-test rules")
        .spawn(move || work(&inbox, &outbox, &stopper))?;
    Ok((jobs, replies))
}

/// The thread: the twin engine, brought up to date with the copies the jobs carry.
fn work(inbox: &Receiver<Message>, outbox: &Sender<Reply>, stopper: &Stopper) {
    let mut twin: Option<Engine> = None;
    for m in inbox {
        if let Job::Load(path) = &m.job {
            // a game of its own: the twin takes it with the next job's copy
            let limits = kessel_core::script::Limits::default();
            let loaded = Engine::load_save_stoppable(path, limits, stopper.clone())
                .map(|(e, players)| {
                    let note = e.save_changed_note().map(str::to_string);
                    (Box::new(e.copy_game()), players, note)
                })
                .map_err(|e| e.to_string());
            let result = Ok(Answer::Loaded(loaded));
            if outbox.send(Reply { id: m.id, result }).is_err() {
                return;
            }
            continue;
        }
        if let Some(copy) = &m.copy {
            match &mut twin {
                Some(e) if !m.rebuild && copy.same_rules_as(e) => e.take_game(copy),
                _ => {
                    twin = None;
                    match Engine::from_copy(copy, stopper.clone()) {
                        Ok(e) => twin = Some(e),
                        Err(e) => {
                            let result = Err(format!("the rules did not load: {e}"));
                            if outbox.send(Reply { id: m.id, result }).is_err() {
                                return;
                            }
                            continue;
                        }
                    }
                }
            }
        }
        let result = match &mut twin {
            Some(e) => Ok(run(e, m.job)),
            None => Err("the rules are not loaded".to_string()),
        };
        if outbox.send(Reply { id: m.id, result }).is_err() {
            return;
        }
    }
}

/// One job on the twin.
fn run(e: &mut Engine, job: Job) -> Answer {
    match job {
        Job::Look(ask) => Answer::Look(Box::new(look(e, &ask))),
        Job::Hover {
            hex,
            action,
            cost,
            split,
        } => Answer::Hover(hex, hover_text(e, hex, &action, cost, &split)),
        Job::Act(action) => Answer::Act(Box::new(act(e, action))),
        Job::Computer { action, mut dice } => {
            let acted = match action.map(Ok).or_else(|| {
                e.random_choice(&mut dice)
                    .map_err(|err| err.message)
                    .transpose()
            }) {
                Some(Ok(a)) => act(e, a),
                Some(Err(message)) => Acted::Failed {
                    action: None,
                    message,
                },
                None => Acted::Failed {
                    action: None,
                    message: "the rules list no action".into(),
                },
            };
            Answer::Computer(Box::new(acted), dice)
        }
        Job::Load(_) => Answer::Loaded(Err("loaded apart from the twin".into())),
        Job::Reload(_) => Answer::Reloaded(
            e.reload_rules()
                .map_err(|err| Box::new(Located::from(&err))),
        ),
        Job::Undo(n) => {
            let mut undone = 0;
            let mut failure = None;
            while undone < n {
                match e.undo() {
                    Ok(true) => undone += 1,
                    Ok(false) => break,
                    Err(err) => {
                        failure = Some(format!("the log is corrupt ({err})"));
                        break;
                    }
                }
            }
            match failure {
                Some(why) if undone == 0 => Answer::Undo(Err(why)),
                _ => Answer::Undo(Ok((Box::new(e.copy_game()), undone))),
            }
        }
    }
}

fn act(e: &mut Engine, action: Action) -> Acted {
    match e.act(&action) {
        Ok(Ok(events)) => Acted::Done {
            copy: Box::new(e.copy_game()),
            events,
            action,
        },
        Ok(Err(rejection)) => Acted::Refused {
            action,
            reasons: rejection.reasons,
        },
        Err(err) => Acted::Failed {
            action: Some(action),
            message: err.message,
        },
    }
}
