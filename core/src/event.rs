//! Events: the primitive, already-decided changes that make up a game's history, and the log of
//! accepted actions with the events each produced.
//!
//! **Invariant:** every event carries the new value, not a delta, so replaying events needs neither
//! the rules nor the dice: `setup + events = state`.

use crate::hex::Hex;
use crate::state::{Face, Location, Value};
use serde::{Deserialize, Serialize};

/// One primitive change of the ground state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A unit was placed, entered, eliminated or removed.
    Located {
        /// Unit id.
        unit: String,
        /// New location.
        to: Location,
    },
    /// A unit moved along a path of hexes (the last one is where it stands now).
    Moved {
        /// Unit id.
        unit: String,
        /// Hexes entered, in order.
        path: Vec<Hex>,
        /// Movement points spent, in the ruleset's units (for display).
        cost: f64,
    },
    /// A unit's step count changed.
    StepSet {
        /// Unit id.
        unit: String,
        /// Steps lost so far.
        step: u32,
    },
    /// A hidden unit was turned face-up with the face drawn for it.
    Revealed {
        /// Unit id.
        unit: String,
        /// Its values.
        face: Face,
    },
    /// A unit flag was set or cleared.
    UnitFlag {
        /// Unit id.
        unit: String,
        /// Flag name.
        flag: String,
        /// Set (true) or cleared.
        on: bool,
    },
    /// A unit variable was set or cleared.
    UnitVar {
        /// Unit id.
        unit: String,
        /// Variable name.
        key: String,
        /// New value, or None to clear.
        value: Option<i64>,
    },
    /// A flag was cleared from every unit (of a side).
    FlagsCleared {
        /// Flag name.
        flag: String,
        /// Only this side's units, if given.
        side: Option<String>,
    },
    /// A unit variable was cleared from every unit.
    UnitVarsCleared {
        /// Variable name.
        key: String,
    },
    /// A marker was placed, moved or taken off the map.
    MarkerMoved {
        /// Marker id.
        marker: u32,
        /// New hex, or None for off the map.
        hex: Option<Hex>,
    },
    /// A rule variable was set or cleared.
    Var {
        /// Name.
        key: String,
        /// New value, or None to clear.
        value: Option<Value>,
    },
    /// The clock moved to a new game-turn / step.
    Clock {
        /// Game-turn.
        turn: u32,
        /// Step index in the sequence.
        phase: usize,
        /// The game is over.
        finished: bool,
    },
    /// Dice were rolled.
    Dice {
        /// What for.
        purpose: String,
        /// The results.
        rolls: Vec<u32>,
        /// Rolls drawn in all after this one (all streams).
        drawn_after: u64,
        /// The stream rolled (see `crate::dice`): the purpose and the turn.
        #[serde(default)]
        stream: String,
        /// The stream's position after the roll.
        #[serde(default)]
        stream_after: u64,
    },
    /// A ruling or remark for the log, with the rule case that made it.
    Note {
        /// Rule reference, e.g. `"6.22"`.
        rule: Option<String>,
        /// What happened, in words a player can check.
        text: String,
    },
    /// A resolution as data (a combat's strengths, modifiers, odds, roll and result), for scripts,
    /// logs and tools that would otherwise parse a note's text. It changes nothing: replay passes
    /// over it and the state hash does not see it.
    Record {
        /// What was resolved (`"combat"`), as the ruleset names it.
        kind: String,
        /// The rule case that governs it.
        rule: Option<String>,
        /// Its fields: plain data (objects with sorted keys, arrays, strings, numbers, booleans).
        fields: Value,
    },
}

/// Which units an event changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitsTouched<'a> {
    /// None.
    None,
    /// This one.
    One(&'a str),
    /// Possibly every unit.
    All,
}

impl Event {
    /// The units this event changes (what `kessel.units.changed_since` reports).
    pub fn units_touched(&self) -> UnitsTouched<'_> {
        match self {
            Event::Located { unit, .. }
            | Event::Moved { unit, .. }
            | Event::StepSet { unit, .. }
            | Event::Revealed { unit, .. }
            | Event::UnitFlag { unit, .. }
            | Event::UnitVar { unit, .. } => UnitsTouched::One(unit),
            Event::FlagsCleared { .. } | Event::UnitVarsCleared { .. } => UnitsTouched::All,
            Event::MarkerMoved { .. }
            | Event::Var { .. }
            | Event::Clock { .. }
            | Event::Dice { .. }
            | Event::Note { .. }
            | Event::Record { .. } => UnitsTouched::None,
        }
    }
}

/// An accepted action and the events it produced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    /// The action as the player gave it.
    pub action: crate::action::Action,
    /// What it did.
    pub events: Vec<Event>,
}
