//! Who plays each side of a play-test game: a person at the screen or the computer (the
//! ruleset's `ai` hook at the level picked, as `kessel simulate` plays). The computer thinks on a
//! thread of its own ([`super::thinker`]), so the window keeps drawing and *Stop* can cut a
//! decision short; its moves are played at the pace the player picks, each through `Engine::act`
//! on the rules' thread like a click ([`super::worker`]), and the log marks them as the
//! computer's.

use super::PlaySession;
use kessel_core::dice::Dice;
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

/// Who decides for a side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Player {
    /// A person, with the play-test tools.
    #[default]
    Human,
    /// The ruleset's AI.
    Computer,
}

impl Player {
    /// The word a save records.
    pub fn word(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Computer => "computer",
        }
    }

    /// The player a save's word names.
    pub fn from_word(word: &str) -> Option<Player> {
        match word {
            "human" => Some(Player::Human),
            "computer" => Some(Player::Computer),
            _ => None,
        }
    }
}

/// How fast the computer plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pace {
    /// Waits; "Step" plays one move.
    Paused,
    /// One move at a time, with a pause to follow it on the map.
    #[default]
    Slow,
    /// As many moves as fit in a frame's time slice.
    Fast,
}

impl Pace {
    /// Name on the pace buttons.
    pub fn label(self) -> &'static str {
        match self {
            Pace::Paused => "Pause",
            Pace::Slow => "Slow",
            Pace::Fast => "Fast",
        }
    }
}

/// Time between two moves at the slow pace.
pub const SLOW_DELAY: Duration = Duration::from_millis(700);

/// The players of a game and the computer's pace.
#[derive(Debug)]
pub struct Seats {
    /// Who plays each side (a side not listed is a person's).
    pub players: BTreeMap<String, Player>,
    /// The level of the ruleset's AI that plays a computer's side (`kessel.ai_level`); a side
    /// not listed plays at the ruleset's default level.
    pub levels: BTreeMap<String, String>,
    /// How fast the computer plays.
    pub pace: Pace,
    /// Log positions (0-based) of the actions the computer took.
    pub computer_moves: BTreeSet<usize>,
    /// Why the computer stopped (an AI error or a refused choice); it waits until cleared.
    pub stopped: Option<String>,
    step_once: bool,
    last_move: Option<Instant>,
    /// Set by every change of the players or the game: who is waited for and who sees what are
    /// worked out again.
    changed: Cell<bool>,
    /// The computer's own dice for choices its AI leaves open, so choosing never moves the game's
    /// dice (as in `kessel simulate`).
    pub(super) dice: Dice,
    /// Where the AI thinks: a thread of its own, so the window keeps drawing.
    pub thinker: super::thinker::Thinker,
    /// The computer's last moves as the map draws them, for the game as it was at the key
    /// (revision, log length, computer's moves).
    pub(super) trails: std::cell::RefCell<Option<TrailsAt>>,
    /// The computer's move picked to be looked at alone on the map (its number in the log),
    /// stepping through its last moves; `None`: all of them.
    pub trail_focus: Option<usize>,
}

/// [`Seats::trails`]: the key it was worked out for, and the trails.
pub(super) type TrailsAt = ((u64, usize, usize), Vec<crate::map_view::Trail>);

impl Seats {
    /// Every side a person's; the computer's dice seeded from the game's seed.
    pub fn new(seed: u64) -> Seats {
        Seats {
            players: BTreeMap::new(),
            levels: BTreeMap::new(),
            pace: Pace::default(),
            computer_moves: BTreeSet::new(),
            stopped: None,
            step_once: false,
            last_move: None,
            changed: Cell::new(true),
            dice: Dice::new(seed ^ 0x5eed_5eed),
            thinker: Default::default(),
            trails: Default::default(),
            trail_focus: None,
        }
    }

    /// Who plays `side`.
    pub fn player(&self, side: &str) -> Player {
        self.players.get(side).copied().unwrap_or_default()
    }

    /// The AI level that plays `side` when the computer does (`None`: the ruleset's default).
    pub fn level(&self, side: &str) -> Option<&str> {
        self.levels.get(side).map(String::as_str)
    }

    /// Sets the AI level for `side` (`None`: the ruleset's default).
    pub fn set_level(&mut self, side: &str, level: Option<&str>) {
        match level {
            Some(l) => self.levels.insert(side.to_string(), l.to_string()),
            None => self.levels.remove(side),
        };
        self.stopped = None;
    }

    /// Who plays each side, as a save records it (`human`, `computer`, `computer:LEVEL`).
    pub fn to_save(&self) -> BTreeMap<String, String> {
        self.players
            .iter()
            .map(|(side, p)| {
                let word = match (p, self.level(side)) {
                    (Player::Computer, Some(level)) => format!("computer:{level}"),
                    _ => p.word().to_string(),
                };
                (side.clone(), word)
            })
            .collect()
    }

    /// Takes who plays each side from a save; words it does not know are left as people.
    pub fn restore(&mut self, saved: &BTreeMap<String, String>) {
        self.players.clear();
        self.levels.clear();
        for (side, w) in saved {
            let (word, level) = match w.split_once(':') {
                Some((word, level)) => (word, Some(level)),
                None => (w.as_str(), None),
            };
            if let Some(p) = Player::from_word(word) {
                self.players.insert(side.clone(), p);
                if let (Player::Computer, Some(level)) = (p, level) {
                    self.levels.insert(side.clone(), level.to_string());
                }
            }
        }
        self.stopped = None;
        self.state_changed();
    }

    /// Sets who plays `side`.
    pub fn set(&mut self, side: &str, player: Player) {
        self.players.insert(side.to_string(), player);
        self.stopped = None;
        self.state_changed();
    }

    /// Plays one computer move even when paused.
    pub fn step(&mut self) {
        self.step_once = true;
        self.stopped = None;
    }

    /// Has who is waited for and who sees what worked out again (after a change of the players
    /// or of the game).
    pub fn state_changed(&self) {
        self.changed.set(true);
    }

    /// Whether the players or the game changed since last asked.
    pub(super) fn take_changed(&self) -> bool {
        self.changed.take()
    }

    /// The computer played a move at `now` (the slow pace waits from there).
    pub(super) fn played_at(&mut self, now: Instant) {
        self.last_move = Some(now);
    }

    /// True when somebody plays a side in person.
    pub(super) fn anyone_human(&self, sides: &[String]) -> bool {
        sides.iter().any(|side| self.player(side) == Player::Human)
    }

    /// Forgets the moves of a game that was replaced (new game, loaded save; a loaded game's
    /// moves are the computer's by the sides its save says it plays).
    pub fn new_game(&mut self) {
        self.thinker.forget();
        self.state_changed();
        self.computer_moves.clear();
        self.stopped = None;
        self.last_move = None;
    }
}

impl PlaySession {
    /// The sides playing this game: those with a unit in it or a step of the sequences, in the
    /// ruleset's order (a ruleset for several games may declare sides a scenario never uses);
    /// all of them when that names none.
    pub fn sides_in_play(&self) -> Vec<String> {
        let w = self.engine.world();
        let stepped = |side: &String| {
            let named = |steps: &[kessel_core::ruleset::Step]| {
                steps.iter().any(|st| st.side.as_ref() == Some(side))
            };
            named(&w.ruleset.sequence) || w.ruleset.modes.values().any(|m| named(&m.steps))
        };
        let playing: Vec<String> = (w.ruleset.sides.iter())
            .filter(|side| w.state.units.iter().any(|u| &u.side == *side) || stepped(side))
            .cloned()
            .collect();
        if playing.is_empty() {
            w.ruleset.sides.clone()
        } else {
            playing
        }
    }

    /// The side at the screen: the only side a person plays; with two people (hot seat), the
    /// side whose decision it is; with none, nobody's (the whole game is shown).
    pub fn viewer(&self) -> Option<String> {
        let sides = self.sides_in_play();
        let humans: Vec<&String> = sides
            .iter()
            .filter(|side| self.seats.player(side) == Player::Human)
            .collect();
        match humans.as_slice() {
            [] => None,
            [one] => Some((*one).clone()),
            _ => self.deciding_side(),
        }
    }

    /// True when it is the computer's decision now: the deciding side is the computer's and
    /// no decision of a person's side is waiting (a ruleset may let the other side decide
    /// something within a step, such as a set-up placement before the other side's first move).
    /// A step no side decides (ASL's Refit Phase between two battles) is the computer's when it
    /// plays every side, as `kessel simulate` and `kessel campaign` play it; with a person at
    /// the screen it is theirs to take from the choices. Both as the rules said for the game as
    /// it is: false while they work it out.
    pub fn computer_to_move(&self) -> bool {
        !self.engine.state().finished
            && self.look_at == Some(self.engine.revision())
            && match self.deciding.as_ref() {
                Some(side) => self.seats.player(side) == Player::Computer,
                None => (self.sides_in_play().iter())
                    .all(|side| self.seats.player(side) == Player::Computer),
            }
            && !self.person_waiting
            && !self.seats.changed.get()
    }

    /// Plays the computer's moves due at `now`; returns how many it gave to be played (0 or 1).
    /// The AI thinks on its own thread ([`super::thinker`]): this takes its answer when there
    /// is one and has the rules' thread play it like a click ([`super::worker`]; the views are
    /// refreshed once it is played), and asks for the next decision when one is due at the pace
    /// picked.
    pub fn drive_computer(&mut self, now: Instant) -> usize {
        let mut played = 0;
        if let Some(decided) = self.seats.thinker.answer() {
            played = self.take_decision(decided);
        }
        if self.seats.thinker.pending().is_some() || self.change_waiting() {
            return played;
        }
        if self.seats.stopped.is_some() || !self.computer_to_move() {
            self.seats.step_once = false;
            return played;
        }
        let wait = match (self.seats.pace, self.seats.step_once) {
            (_, true) => Duration::ZERO,
            (Pace::Paused, false) => return played,
            (Pace::Slow, false) => SLOW_DELAY,
            (Pace::Fast, false) => Duration::ZERO,
        };
        if (self.seats.last_move).is_some_and(|t| now.saturating_duration_since(t) < wait) {
            return played;
        }
        self.seats.step_once = false;
        let side = self.deciding_side();
        let level = side
            .as_deref()
            .and_then(|s| self.seats.level(s))
            .map(str::to_string);
        let copy = self.engine.copy_game();
        let revision = self.engine.revision();
        self.seats.thinker.ask(copy, level.as_deref(), revision);
        played
    }

    /// True while the computer is working out a move.
    pub fn computer_thinking(&self) -> bool {
        self.seats.thinker.pending().is_some()
    }

    /// Stops the computer's decision under way (the *Stop* button); it waits, paused, after.
    pub fn stop_computer(&mut self) {
        self.seats.thinker.stop();
    }

    /// Gives what the thinking thread decided to the rules' thread to play, when the game is
    /// still where it was asked (1: a move was given).
    fn take_decision(&mut self, decided: super::thinker::Decided) -> usize {
        if decided.revision != self.engine.revision() {
            return 0; // the game changed meanwhile (an undo, a click): the answer is stale
        }
        let action = match decided.result {
            Ok(action) => action,
            Err(_) if decided.stopped => {
                self.computer_stopped_by_person();
                return 0;
            }
            Err(e) => {
                let why = format!("the computer stopped: its AI failed: {e}");
                self.message = Some((why.clone(), true));
                self.seats.stopped = Some(why);
                return 0;
            }
        };
        // played on the rules' thread like a click; the log marks it as the computer's
        (self.wanted.changes).push_back(super::jobs::Change::Computer(action));
        1
    }
}
