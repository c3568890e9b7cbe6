//! Events: the primitive, already-decided changes that make up a game's history, and the log of
//! accepted actions with the events each produced.
//!
//! **Invariant:** every event carries the new value, not a delta, so replaying events needs neither
//! the rules nor the dice: `setup + events = state`.

use crate::hex::Hex;
use crate::secrets::Commitment;
use crate::state::{Face, Location, Marker, Unit, Value};
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
    /// A face-up unit was turned face down: its values are forgotten, and the face it showed goes
    /// back into the pool the next reveal draws from (the counter rejoins the unknowns).
    Concealed {
        /// Unit id.
        unit: String,
        /// The pool its face went back to, which its next reveal draws from.
        pool: String,
        /// The face it showed (public: it was face up).
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
        /// New value (plain data), or None to clear.
        value: Option<Value>,
        /// The only side shown its value (a secret); `None`: every side.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        secret_to: Option<String>,
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
        /// The only side shown its value (a secret); `None`: every side.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        secret_to: Option<String>,
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
    /// The game switched to another named sequence of play (a mode), at its first step; the
    /// turn is kept. `None` is the main sequence.
    Mode {
        /// The mode's name.
        mode: Option<String>,
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
        /// The only side shown the rolls (a secret roll); `None`: every side.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        secret_to: Option<String>,
    },
    /// A ruling or remark for the log, with the rule case that made it.
    Note {
        /// Rule reference, e.g. `"6.22"`.
        rule: Option<String>,
        /// What happened, in words a player can check.
        text: String,
        /// The only side shown the text; `None`: every side.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        secret_to: Option<String>,
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
        /// The only side shown the fields; `None`: every side.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        secret_to: Option<String>,
    },
    /// The rules said this game is its campaign's last: a campaign file's later games are not
    /// played (the campaign is decided, or its calendar has run out).
    CampaignEnded {
        /// The rule case that ends it.
        rule: Option<String>,
        /// Why, in words a player can check.
        text: String,
    },
    /// A unit came into play (a new counter: a split, a replacement, a capture), with its whole
    /// record, so replay needs no rules.
    UnitCreated {
        /// The new unit.
        unit: Box<Unit>,
    },
    /// A unit's record was replaced (a new type, new faces, a new side), with its whole new record.
    UnitChanged {
        /// The unit as it is now (its id names the unit).
        unit: Box<Unit>,
    },
    /// A marker came into play, with its whole record.
    MarkerCreated {
        /// The new marker.
        marker: Marker,
    },
    /// A marker's record was replaced (a new value, placed on a hexside), with its whole record.
    MarkerChanged {
        /// The marker as it is now (its id names it).
        marker: Marker,
    },
    /// A hex's terrain changed.
    TerrainSet {
        /// The hex.
        hex: Hex,
        /// New terrain name.
        terrain: String,
    },
    /// A hexside kind was added to or taken off the side between two adjacent hexes.
    HexsideSet {
        /// One hex of the side.
        hex: Hex,
        /// The other.
        other: Hex,
        /// Hexside kind name.
        kind: String,
        /// Added (true) or taken off.
        on: bool,
    },
    /// A tag was put on or taken off a hex.
    HexTagged {
        /// The hex.
        hex: Hex,
        /// Tag name.
        tag: String,
        /// Put on (true) or taken off.
        on: bool,
    },
    /// A unit was hidden from a side (that side's view no longer shows it) or shown to it again.
    UnitHidden {
        /// Unit id.
        unit: String,
        /// The side it is hidden from or shown to.
        side: String,
        /// Hidden (true) or shown again.
        on: bool,
    },
    /// A marker was hidden from a side (that side's view no longer shows it) or shown to it again.
    MarkerHidden {
        /// Marker id.
        marker: u32,
        /// The side it is hidden from or shown to.
        side: String,
        /// Hidden (true) or shown again.
        on: bool,
    },
    /// A side committed a choice that the other sides see only as a digest until it is opened.
    Committed {
        /// The commitment, with its choice and salt (withheld from other sides' views).
        commitment: Commitment,
    },
    /// Commitments were opened together: each carries the choice, checked against its digest.
    Opened {
        /// The commitments opened, with their choices and salts.
        commitments: Vec<Commitment>,
    },
    /// An event a side's view does not show (see [`crate::secrets`]): only its kind. It is never
    /// in a game's log and cannot be applied.
    Withheld {
        /// The kind of the event withheld.
        kind: String,
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
    /// The event as JSON with its hexes as `map`'s labels, the form scripts and players read
    /// (`kessel.events()`, `kessel view`): a move's `path` and `to`, where a unit was put
    /// (`hex`, beside `to`), a marker's hexes, a created or changed unit's `hex`, a terrain,
    /// tag or hexside change's hexes. A hex the event does not name is left out, not `null`.
    pub fn labelled(&self, map: &crate::map::Map) -> serde_json::Value {
        use serde_json::Value as J;
        let mut v = serde_json::to_value(self).unwrap_or(J::Null);
        let Some(o) = v.as_object_mut() else {
            return v;
        };
        let label = |h: Hex| J::String(map.label(h));
        let set = |o: &mut serde_json::Map<String, J>, key: &str, hex: Option<Hex>| match hex {
            Some(h) => {
                o.insert(key.into(), label(h));
            }
            None => {
                o.remove(key);
            }
        };
        match self {
            Event::Moved { path, .. } => {
                o.insert(
                    "path".into(),
                    J::Array(path.iter().map(|h| label(*h)).collect()),
                );
                set(o, "to", path.last().copied());
            }
            Event::Located {
                to: Location::Map(h),
                ..
            } => set(o, "hex", Some(*h)),
            Event::MarkerMoved { hex, .. } => set(o, "hex", *hex),
            Event::Revealed { face, .. } | Event::Concealed { face, .. } => {
                o.insert("face".into(), J::String(face.to_string()));
            }
            Event::UnitCreated { unit } | Event::UnitChanged { unit } => {
                if let (Location::Map(h), Some(J::Object(u))) = (unit.location, o.get_mut("unit")) {
                    set(u, "hex", Some(h));
                }
            }
            Event::TerrainSet { hex, .. } | Event::HexTagged { hex, .. } => {
                set(o, "hex", Some(*hex))
            }
            Event::MarkerCreated { marker } | Event::MarkerChanged { marker } => {
                if let Some(J::Object(m)) = o.get_mut("marker") {
                    set(m, "hex", marker.hex);
                    set(m, "other", marker.other);
                }
            }
            Event::HexsideSet { hex, other, .. } => {
                set(o, "hex", Some(*hex));
                set(o, "other", Some(*other));
            }
            _ => {}
        }
        v
    }

    /// The units this event changes (what `kessel.units.changed_since` reports).
    pub fn units_touched(&self) -> UnitsTouched<'_> {
        match self {
            Event::Located { unit, .. }
            | Event::Moved { unit, .. }
            | Event::StepSet { unit, .. }
            | Event::Revealed { unit, .. }
            | Event::Concealed { unit, .. }
            | Event::UnitFlag { unit, .. }
            | Event::UnitVar { unit, .. }
            | Event::UnitHidden { unit, .. } => UnitsTouched::One(unit),
            Event::UnitCreated { unit } | Event::UnitChanged { unit } => {
                UnitsTouched::One(&unit.id)
            }
            Event::FlagsCleared { .. } | Event::UnitVarsCleared { .. } => UnitsTouched::All,
            Event::MarkerMoved { .. }
            | Event::Var { .. }
            | Event::Clock { .. }
            | Event::Mode { .. }
            | Event::Dice { .. }
            | Event::Note { .. }
            | Event::Record { .. }
            | Event::CampaignEnded { .. }
            | Event::MarkerCreated { .. }
            | Event::MarkerChanged { .. }
            | Event::TerrainSet { .. }
            | Event::HexsideSet { .. }
            | Event::HexTagged { .. }
            | Event::MarkerHidden { .. }
            | Event::Committed { .. }
            | Event::Opened { .. }
            | Event::Withheld { .. } => UnitsTouched::None,
        }
    }

    /// The marker this event is about, if any (its creation, record, place or secrecy).
    pub fn marker_touched(&self) -> Option<u32> {
        match self {
            Event::MarkerMoved { marker, .. } | Event::MarkerHidden { marker, .. } => Some(*marker),
            Event::MarkerCreated { marker } | Event::MarkerChanged { marker } => Some(marker.id),
            _ => None,
        }
    }

    /// What a `located` event means for the game, the names `kessel.on("event:<meaning>")`
    /// hooks: a unit `eliminated`, `removed` from the game, `placed` on the map (entering or set
    /// up) or `withdrawn` off it to wait. Other events have no meaning beyond their kind.
    pub fn meaning(&self) -> Option<&'static str> {
        match self {
            Event::Located { to, .. } => Some(match to {
                Location::Eliminated => "eliminated",
                Location::Removed => "removed",
                Location::Map(_) => "placed",
                Location::Pending => "withdrawn",
            }),
            _ => None,
        }
    }

    /// Every meaning [`Event::meaning`] gives.
    pub const MEANINGS: &'static [&'static str] = &["eliminated", "removed", "placed", "withdrawn"];

    /// Every event kind, as scripts see it in `event` (and as `kessel.on("event:<kind>")` names it).
    /// `withheld` is not among them: it appears only in a side's view, never in play.
    pub const KINDS: &'static [&'static str] = &[
        "located",
        "moved",
        "step_set",
        "revealed",
        "concealed",
        "unit_flag",
        "unit_var",
        "flags_cleared",
        "unit_vars_cleared",
        "marker_moved",
        "var",
        "clock",
        "mode",
        "dice",
        "note",
        "record",
        "campaign_ended",
        "unit_created",
        "unit_changed",
        "marker_created",
        "marker_changed",
        "terrain_set",
        "hexside_set",
        "hex_tagged",
        "unit_hidden",
        "marker_hidden",
        "committed",
        "opened",
    ];

    /// The event's kind (its `event` tag).
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Located { .. } => "located",
            Event::Moved { .. } => "moved",
            Event::StepSet { .. } => "step_set",
            Event::Revealed { .. } => "revealed",
            Event::Concealed { .. } => "concealed",
            Event::UnitFlag { .. } => "unit_flag",
            Event::UnitVar { .. } => "unit_var",
            Event::FlagsCleared { .. } => "flags_cleared",
            Event::UnitVarsCleared { .. } => "unit_vars_cleared",
            Event::MarkerMoved { .. } => "marker_moved",
            Event::Var { .. } => "var",
            Event::Clock { .. } => "clock",
            Event::Mode { .. } => "mode",
            Event::Dice { .. } => "dice",
            Event::Note { .. } => "note",
            Event::Record { .. } => "record",
            Event::CampaignEnded { .. } => "campaign_ended",
            Event::UnitCreated { .. } => "unit_created",
            Event::UnitChanged { .. } => "unit_changed",
            Event::MarkerCreated { .. } => "marker_created",
            Event::MarkerChanged { .. } => "marker_changed",
            Event::TerrainSet { .. } => "terrain_set",
            Event::HexsideSet { .. } => "hexside_set",
            Event::HexTagged { .. } => "hex_tagged",
            Event::UnitHidden { .. } => "unit_hidden",
            Event::MarkerHidden { .. } => "marker_hidden",
            Event::Committed { .. } => "committed",
            Event::Opened { .. } => "opened",
            Event::Withheld { .. } => "withheld",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_events_kind_is_its_serialized_tag() {
        let events = [
            Event::Note {
                rule: None,
                text: "x".into(),
                secret_to: None,
            },
            Event::Var {
                key: "k".into(),
                value: None,
                secret_to: Some("red".into()),
            },
            Event::UnitHidden {
                unit: "u".into(),
                side: "red".into(),
                on: true,
            },
            Event::TerrainSet {
                hex: Hex::new(0, 0),
                terrain: "woods".into(),
            },
            Event::UnitVarsCleared { key: "k".into() },
            Event::Concealed {
                unit: "u".into(),
                pool: "p".into(),
                face: Face {
                    attack: 1,
                    defence: 2,
                    movement: 3,
                },
            },
        ];
        for e in events {
            let v = serde_json::to_value(&e).expect("json");
            assert_eq!(v["event"], e.kind());
            assert!(Event::KINDS.contains(&e.kind()));
        }
    }

    /// Revealed then concealed, a unit is as it was face down and its face is back in the pool;
    /// the events survive a save's round trip.
    #[test]
    fn a_concealed_unit_forgets_its_face_and_the_pool_gets_it_back() {
        use crate::map::Map;
        use crate::numbering::Numbering;
        let map = std::sync::Arc::new(Map::new("m", 4, 4, Numbering::default(), "clear"));
        let mut state = crate::state::GameState::new(map, vec!["red".into()], 1);
        let face = Face {
            attack: 2,
            defence: 5,
            movement: 6,
        };
        let other = Face {
            attack: 1,
            defence: 1,
            movement: 6,
        };
        state.pools.insert("p".into(), vec![other, face]);
        state.add_unit(Unit {
            hidden: true,
            pool: Some("p".into()),
            ..Unit::new("u", "red", "inf")
        });
        let face_down = state.units[0].clone();
        let events = [
            Event::Revealed {
                unit: "u".into(),
                face,
            },
            Event::StepSet {
                unit: "u".into(),
                step: 1,
            },
            Event::Concealed {
                unit: "u".into(),
                pool: "p".into(),
                face,
            },
        ];
        for e in &events {
            let json = serde_json::to_string(e).expect("json");
            let back: Event = serde_json::from_str(&json).expect("parse");
            assert_eq!(&back, e);
            state.apply(&back).expect("apply");
        }
        assert_eq!(state.units[0], face_down);
        assert_eq!(state.pools["p"], vec![other, face]);
    }
}
