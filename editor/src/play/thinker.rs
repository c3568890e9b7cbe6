//! The computer player thinks on a thread of its own, so the window keeps drawing while it does
//! — however long a stronger AI level takes, and when a faulty rules file makes it loop until
//! the instruction budget stops it — and *Stop* can cut a decision short.
//!
//! The game stays on the UI thread: the engine there is the truth, and every move the computer
//! picks is played through it like a click. The thinker holds an engine of its own, built on its
//! thread from a copy of the game ([`Engine::copy_game`], plain data) with the rules loaded from
//! the same files, and brought up to date with a fresh copy before each decision (the engine is
//! tied to the thread that built it; only copies of the game cross). An answer is used only if the
//! game has not changed since the question was asked (an undo or a click meanwhile makes it
//! stale, and it is dropped).

use kessel_core::engine::{Engine, GameCopy};
use kessel_core::script::Stopper;
use kessel_core::Action;
use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};

/// A question for the thinking thread.
struct Job {
    id: u64,
    copy: GameCopy,
    level: Option<String>,
    /// Build the thread's engine again (the rules were reloaded on the UI side).
    rebuild: bool,
}

/// The thinking thread's answer: the AI's pick (`None`: it has no opinion), or why there is none.
struct Answer {
    id: u64,
    result: Result<Option<Action>, String>,
}

/// A decision asked for and not answered yet.
#[derive(Clone, Copy, Debug)]
pub struct Pending {
    id: u64,
    /// The game's revision when it was asked: the answer counts only for that position.
    pub revision: u64,
    /// When it was asked.
    pub since: Instant,
    /// The person pressed *Stop*.
    pub stopping: bool,
}

/// A decision the thread answered, for the position of `revision`.
#[derive(Debug)]
pub struct Decided {
    /// The game's revision the question was asked at.
    pub revision: u64,
    /// The AI's pick (`None`: no opinion), or why it has none.
    pub result: Result<Option<Action>, String>,
    /// The person stopped it.
    pub stopped: bool,
}

/// The computer's thinking thread, started when first asked.
#[derive(Default)]
pub struct Thinker {
    link: Option<(Sender<Job>, Receiver<Answer>)>,
    stopper: Stopper,
    pending: Option<Pending>,
    next_id: u64,
    rebuild: bool,
    /// Why the last question could not be put to the thread (answered as an error).
    failure: Option<String>,
}

impl std::fmt::Debug for Thinker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Thinker")
            .field("running", &self.link.is_some())
            .field("pending", &self.pending)
            .finish()
    }
}

/// Thinking longer than this shows *Stop* and how long it has been.
pub const SHOW_THINKING_AFTER: Duration = Duration::from_millis(400);

impl Thinker {
    /// The decision being thought about, if any.
    pub fn pending(&self) -> Option<&Pending> {
        self.pending.as_ref()
    }

    /// Asks for the AI's pick (at `level`; `None` the ruleset's default) in the game `copy` at
    /// `revision`. Nothing is asked while an earlier question is unanswered.
    pub fn ask(&mut self, copy: GameCopy, level: Option<&str>, revision: u64) {
        if self.pending.is_some() {
            return;
        }
        self.next_id += 1;
        let pending = Pending {
            id: self.next_id,
            revision,
            since: Instant::now(),
            stopping: false,
        };
        if self.link.is_none() {
            match spawn(self.stopper.clone()) {
                Ok(link) => self.link = Some(link),
                Err(e) => {
                    self.failure = Some(format!("cannot start the computer's thread: {e}"));
                    self.pending = Some(pending);
                    return;
                }
            }
        }
        self.stopper.reset();
        let job = Job {
            id: self.next_id,
            copy,
            level: level.map(str::to_string),
            rebuild: std::mem::take(&mut self.rebuild),
        };
        let sent = self
            .link
            .as_ref()
            .is_some_and(|(jobs, _)| jobs.send(job).is_ok());
        if !sent {
            // the thread is gone (it panicked): say so; the next question starts a new one
            self.link = None;
            self.rebuild = true;
            self.failure = Some("the computer's thinking thread failed".into());
        }
        self.pending = Some(pending);
    }

    /// The answer to the pending question, once the thread has given it.
    pub fn answer(&mut self) -> Option<Decided> {
        let pending = self.pending?;
        if let Some(why) = self.failure.take() {
            self.pending = None;
            return Some(Decided {
                revision: pending.revision,
                result: Err(why),
                stopped: false,
            });
        }
        let (_, answers) = self.link.as_ref()?;
        loop {
            match answers.try_recv() {
                Ok(a) if a.id == pending.id => {
                    self.pending = None;
                    return Some(Decided {
                        revision: pending.revision,
                        result: a.result,
                        stopped: pending.stopping,
                    });
                }
                Ok(_) => continue, // an answer to a question given up on
                Err(TryRecvError::Empty) => return None,
                Err(TryRecvError::Disconnected) => {
                    self.pending = None;
                    self.link = None;
                    self.rebuild = true;
                    return Some(Decided {
                        revision: pending.revision,
                        result: Err("the computer's thinking thread failed".into()),
                        stopped: false,
                    });
                }
            }
        }
    }

    /// Stops the decision being thought about; its answer then says it was stopped.
    pub fn stop(&mut self) {
        if let Some(p) = &mut self.pending {
            p.stopping = true;
            self.stopper.stop();
        }
    }

    /// Gives up the pending question (the game was replaced): it is stopped and its answer
    /// dropped.
    pub fn forget(&mut self) {
        if self.pending.take().is_some() {
            self.stopper.stop();
        }
    }

    /// The rules were reloaded: the thread loads them again before its next decision.
    pub fn rules_changed(&mut self) {
        self.rebuild = true;
    }
}

impl Drop for Thinker {
    fn drop(&mut self) {
        // a decision still running ends at once; the thread ends when its jobs do
        self.stopper.stop();
    }
}

fn spawn(stopper: Stopper) -> std::io::Result<(Sender<Job>, Receiver<Answer>)> {
    let (jobs, inbox) = channel::<Job>();
    let (outbox, answers) = channel::<Answer>();
    kessel_core::script::rules_thread("computer player")
        .spawn(move || think(&inbox, &outbox, &stopper))?;
    Ok((jobs, answers))
}

/// The thread: an engine of its own, brought up to date with each question's copy.
fn think(inbox: &Receiver<Job>, outbox: &Sender<Answer>, stopper: &Stopper) {
    let mut engine: Option<Engine> = None;
    for job in inbox {
        let reuse = !job.rebuild && engine.as_ref().is_some_and(|e| job.copy.same_rules_as(e));
        let result = if reuse {
            let e = engine.as_mut().expect("checked above");
            e.take_game(&job.copy);
            e.ai_pick_at(job.level.as_deref()).map_err(|e| e.message)
        } else {
            engine = None;
            match Engine::from_copy(&job.copy, stopper.clone()) {
                Ok(e) => {
                    let pick = e.ai_pick_at(job.level.as_deref()).map_err(|e| e.message);
                    engine = Some(e);
                    pick
                }
                Err(e) => Err(format!("the rules did not load: {e}")),
            }
        };
        if outbox.send(Answer { id: job.id, result }).is_err() {
            return;
        }
    }
}
