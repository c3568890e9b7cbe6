//! Secrets and per-side views.
//!
//! The engine keeps and hashes everything; what differs between sides is only what each is
//! *shown*. The ground state carries [`Secrets`]: units and markers hidden from a side, game and unit
//! variables only one side sees, and choices committed but not yet opened. Events that carry a
//! secret say to whom (`secret_to`: a roll, a note, a record, a variable). [`view`] builds what
//! one side sees — the state without what is hidden from it, and the log with the events about
//! hidden units withheld and other sides' secret values taken out — from the log alone, so it
//! needs no rules.
//!
//! A **commitment** is a choice a side makes now and the others see only as a digest (SHA-256 of
//! the commitment's id, side, choice and a salt drawn from the game's seed) until an `opened`
//! event opens it, with the choice and salt, so that any side can check the choice is the one
//! committed. The engine refuses an opening whose choice does not match the digest.
//!
//! **Invariant:** a game with no secrets has empty [`Secrets`], which the state hash leaves out, so
//! hashes (and saves) of games that use none are what they were before secrets existed.

use crate::action::Action;
use crate::event::{Event, LogEntry, UnitsTouched};
use crate::state::{ApplyError, GameState, Value};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A choice committed by a side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Commitment {
    /// Its id, as the rules name it (`"orders.red"`).
    pub id: String,
    /// The side that committed it.
    pub side: String,
    /// SHA-256 (hex) of id, side, choice and salt: what the other sides see before it is opened.
    pub digest: String,
    /// The choice (plain data). Null in the view of another side until it is opened.
    pub choice: Value,
    /// Hex digits mixed into the digest, so that a small choice cannot be guessed from it. Empty
    /// in the view of another side until it is opened.
    pub salt: String,
}

impl Commitment {
    /// A commitment with its digest computed.
    pub fn new(id: &str, side: &str, choice: Value, salt: &str) -> Commitment {
        Commitment {
            digest: digest(id, side, &choice, salt),
            id: id.to_string(),
            side: side.to_string(),
            choice,
            salt: salt.to_string(),
        }
    }

    /// Whether the digest is that of the choice and salt it carries.
    pub fn holds(&self) -> bool {
        digest(&self.id, &self.side, &self.choice, &self.salt) == self.digest
    }
}

/// The digest of a commitment: SHA-256 over the id, the side, the choice as canonical JSON (sorted
/// keys) and the salt, each followed by a zero byte, in hex.
pub fn digest(id: &str, side: &str, choice: &Value, salt: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for part in [id, side, &choice.to_string(), salt] {
        h.update(part.as_bytes());
        h.update([0u8]);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// What is secret in a game, part of the ground state (and of its hash once not empty).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Secrets {
    /// Units hidden from sides: unit id → the sides it is hidden from.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub hidden: BTreeMap<String, BTreeSet<String>>,
    /// Game variables only one side sees: key → that side.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub vars: BTreeMap<String, String>,
    /// Unit variables only one side sees: unit id → key → that side.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unit_vars: BTreeMap<String, BTreeMap<String, String>>,
    /// Choices committed and not opened yet, by id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub commitments: BTreeMap<String, Commitment>,
    /// Markers hidden from sides: marker id → the sides it is hidden from.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub hidden_markers: BTreeMap<u32, BTreeSet<String>>,
}

impl Secrets {
    /// Nothing is secret.
    pub fn is_empty(&self) -> bool {
        self.hidden.is_empty()
            && self.vars.is_empty()
            && self.unit_vars.is_empty()
            && self.commitments.is_empty()
            && self.hidden_markers.is_empty()
    }

    /// Whether marker `id` is hidden from `side`.
    pub fn is_marker_hidden(&self, id: u32, side: &str) -> bool {
        self.hidden_markers
            .get(&id)
            .is_some_and(|s| s.contains(side))
    }

    /// The sides marker `id` is hidden from.
    pub fn marker_hidden_from(&self, id: u32) -> impl Iterator<Item = &str> {
        self.hidden_markers
            .get(&id)
            .into_iter()
            .flatten()
            .map(String::as_str)
    }

    /// Hides a marker from a side, or shows it again.
    pub(crate) fn set_marker_hidden(&mut self, id: u32, side: &str, on: bool) {
        if on {
            self.hidden_markers
                .entry(id)
                .or_default()
                .insert(side.to_string());
        } else if let Some(sides) = self.hidden_markers.get_mut(&id) {
            sides.remove(side);
            if sides.is_empty() {
                self.hidden_markers.remove(&id);
            }
        }
    }

    /// Whether `unit` is hidden from `side`.
    pub fn is_hidden(&self, unit: &str, side: &str) -> bool {
        self.hidden.get(unit).is_some_and(|s| s.contains(side))
    }

    /// The sides `unit` is hidden from.
    pub fn hidden_from(&self, unit: &str) -> impl Iterator<Item = &str> {
        self.hidden
            .get(unit)
            .into_iter()
            .flatten()
            .map(String::as_str)
    }

    /// Hides a unit from a side, or shows it again.
    pub(crate) fn set_hidden(&mut self, unit: &str, side: &str, on: bool) {
        if on {
            self.hidden
                .entry(unit.to_string())
                .or_default()
                .insert(side.to_string());
        } else if let Some(sides) = self.hidden.get_mut(unit) {
            sides.remove(side);
            if sides.is_empty() {
                self.hidden.remove(unit);
            }
        }
    }

    /// Records who sees a game variable just set (`None`: every side).
    pub(crate) fn set_var(&mut self, key: &str, set: bool, secret_to: Option<&String>) {
        match secret_to {
            Some(side) if set => {
                self.vars.insert(key.to_string(), side.clone());
            }
            _ if !self.vars.is_empty() => {
                self.vars.remove(key);
            }
            _ => {}
        }
    }

    /// Records who sees a unit variable just set (`None`: every side).
    pub(crate) fn set_unit_var(
        &mut self,
        unit: &str,
        key: &str,
        set: bool,
        secret_to: Option<&String>,
    ) {
        match secret_to {
            Some(side) if set => {
                self.unit_vars
                    .entry(unit.to_string())
                    .or_default()
                    .insert(key.to_string(), side.clone());
            }
            _ => {
                if let Some(keys) = self.unit_vars.get_mut(unit) {
                    keys.remove(key);
                    if keys.is_empty() {
                        self.unit_vars.remove(unit);
                    }
                }
            }
        }
    }

    /// Forgets the secrecy of a unit variable cleared from every unit.
    pub(crate) fn clear_unit_var(&mut self, key: &str) {
        if self.unit_vars.is_empty() {
            return;
        }
        for keys in self.unit_vars.values_mut() {
            keys.remove(key);
        }
        self.unit_vars.retain(|_, keys| !keys.is_empty());
    }

    /// Records a commitment: its id must be free and its digest must be its choice's.
    pub(crate) fn commit(&mut self, c: &Commitment) -> Result<(), ApplyError> {
        if self.commitments.contains_key(&c.id) {
            return Err(ApplyError::CommitmentTaken(c.id.clone()));
        }
        if !c.holds() {
            return Err(ApplyError::CommitmentMismatch(c.id.clone()));
        }
        self.commitments.insert(c.id.clone(), c.clone());
        Ok(())
    }

    /// Opens commitments together: each must be pending, by the same side, with the digest it was
    /// committed with, and carry the choice and salt that give that digest. All or nothing.
    pub(crate) fn open(&mut self, opened: &[Commitment]) -> Result<(), ApplyError> {
        for c in opened {
            let Some(made) = self.commitments.get(&c.id) else {
                return Err(ApplyError::NoCommitment(c.id.clone()));
            };
            if made.side != c.side || made.digest != c.digest || !c.holds() {
                return Err(ApplyError::CommitmentMismatch(c.id.clone()));
            }
        }
        for c in opened {
            self.commitments.remove(&c.id);
        }
        Ok(())
    }
}

/// The kind of a [`Event::Withheld`] that stands for a run of events a side is not shown at all, and
/// of a batch of another side's secret actions of different kinds.
pub const SECRET: &str = "secret";

/// One accepted action as a side sees it, or a batch of another side's consecutive secret actions
/// shown as one (see [`view`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViewEntry {
    /// The action; its parameters are empty when withheld.
    pub action: Action,
    /// The parameters are not shown: another side sent it, and its kind is declared secret, or
    /// it committed a choice, or some of its events are withheld.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub params_withheld: bool,
    /// Its events, each as the side sees it.
    pub events: Vec<Event>,
}

/// What one side is shown of a game.
#[derive(Clone, Debug)]
pub struct View {
    /// The side.
    pub side: String,
    /// The state without what is hidden from the side (see [`state_for`]).
    pub state: GameState,
    /// The log as the side sees it.
    pub log: Vec<ViewEntry>,
}

/// The state as `side` sees it: units and markers hidden from it are absent, other sides' secret game and unit
/// variables are absent, other sides' commitments show their digest only, and the dice seed is 0
/// (with it every roll, secret ones too, could be worked out).
pub fn state_for(state: &GameState, side: &str) -> GameState {
    let mut v = state.clone();
    v.seed = 0;
    // the dice counters would tell how many secret dice were drawn
    v.dice_drawn = 0;
    v.dice_streams.clear();
    if state.secrets.is_empty() {
        return v;
    }
    let secrets = &state.secrets;
    v.retain_units(|u| !secrets.is_hidden(&u.id, side));
    v.markers.retain(|m| !secrets.is_marker_hidden(m.id, side));
    for (key, owner) in &secrets.vars {
        if owner != side {
            v.vars.remove(key);
        }
    }
    for (unit, keys) in &secrets.unit_vars {
        if let Some(i) = v.unit_index(unit) {
            for (key, owner) in keys {
                if owner != side {
                    v.units[i].vars.remove(key);
                }
            }
        }
    }
    let s = &mut v.secrets;
    s.hidden.retain(|unit, _| !secrets.is_hidden(unit, side));
    s.hidden_markers
        .retain(|id, _| !secrets.is_marker_hidden(*id, side));
    s.vars.retain(|_, owner| owner == side);
    s.unit_vars.retain(|unit, keys| {
        keys.retain(|_, owner| owner == side);
        !keys.is_empty() && !secrets.is_hidden(unit, side)
    });
    for c in s.commitments.values_mut() {
        if c.side != side {
            c.choice = Value::Null;
            c.salt.clear();
        }
    }
    v
}

/// An event as `side` sees it, given the state right after it: other sides' secret values taken
/// out (the `secret_to` field stays, so a reader knows something was there).
fn redact(e: &Event, after: &GameState, side: &str) -> Event {
    let other = |to: &Option<String>| to.as_deref().is_some_and(|s| s != side);
    let mut e = e.clone();
    match &mut e {
        Event::Var {
            value, secret_to, ..
        }
        | Event::UnitVar {
            value, secret_to, ..
        } if other(secret_to) => *value = None,
        Event::Dice {
            rolls, secret_to, ..
        } if other(secret_to) => rolls.clear(),
        Event::Note {
            text, secret_to, ..
        } if other(secret_to) => text.clear(),
        Event::Record {
            fields, secret_to, ..
        } if other(secret_to) => *fields = Value::Null,
        Event::Committed { commitment } if commitment.side != side => {
            commitment.choice = Value::Null;
            commitment.salt.clear();
        }
        Event::UnitCreated { unit } | Event::UnitChanged { unit } => {
            if let Some(keys) = after.secrets.unit_vars.get(&unit.id) {
                for (key, owner) in keys {
                    if owner != side {
                        unit.vars.remove(key);
                    }
                }
            }
        }
        _ => {}
    }
    e
}

/// Whether `side` is shown nothing of an event of its view but that it happened: an event withheld,
/// or another side's secret roll, note, record or variable.
fn opaque(e: &Event, side: &str) -> bool {
    let other = |to: &Option<String>| to.as_deref().is_some_and(|s| s != side);
    match e {
        Event::Withheld { .. } => true,
        Event::Dice { secret_to, .. }
        | Event::Note { secret_to, .. }
        | Event::Record { secret_to, .. }
        | Event::Var { secret_to, .. }
        | Event::UnitVar { secret_to, .. } => other(secret_to),
        _ => false,
    }
}

/// The events as `side` is shown them: each run of opaque events (see [`opaque`]) as one
/// `withheld` event of kind [`SECRET`], so that neither their number nor their kinds show; the dice
/// counters taken out of every roll (they count the secret dice drawn before it).
fn conceal_runs(events: Vec<Event>, side: &str) -> Vec<Event> {
    let mut out: Vec<Event> = Vec::with_capacity(events.len());
    for mut e in events {
        if opaque(&e, side) {
            if !matches!(out.last(), Some(Event::Withheld { kind }) if kind == SECRET) {
                out.push(Event::Withheld {
                    kind: SECRET.to_string(),
                });
            }
            continue;
        }
        if let Event::Dice {
            drawn_after,
            stream_after,
            ..
        } = &mut e
        {
            *drawn_after = 0;
            *stream_after = 0;
        }
        out.push(e);
    }
    out
}

/// What `side` is shown of a game: its state now (see [`state_for`]) and its log, rebuilt from
/// `initial` and the log's events alone. An event about a unit or marker hidden from the side right
/// after it or at the end of its action is withheld (kind only); other sides' secret values are taken out;
/// an action sent by another side has its parameters withheld when `secret_kind` says its kind is
/// secret, when it committed a choice, or when any of its events is withheld.
///
/// So that another side's secret decisions cannot be counted: consecutive actions of one other
/// side whose kinds are secret are shown as one entry (their kind when they share it, else
/// [`SECRET`]; no parameters), in every entry a run of events the side is shown nothing of (events
/// withheld; other sides' secret rolls, notes, records and variables) is one `withheld` event of
/// kind [`SECRET`], and no roll shows the dice counters (`drawn_after`, `stream_after`: 0). The
/// state's dice counters are 0 too (see [`state_for`]).
pub fn view(
    initial: &GameState,
    log: &[LogEntry],
    now: &GameState,
    side: &str,
    secret_kind: &dyn Fn(&str) -> bool,
) -> Result<View, ApplyError> {
    let hidden_unit = |e: &Event, st: &GameState| match e.units_touched() {
        UnitsTouched::One(u) => st.secrets.is_hidden(u, side),
        _ => e
            .marker_touched()
            .is_some_and(|m| st.secrets.is_marker_hidden(m, side)),
    };
    let mut st = initial.clone();
    let mut out: Vec<ViewEntry> = Vec::with_capacity(log.len());
    // the last entry shown is a batch of another side's secret actions, open to the next
    let mut batch_open = false;
    for entry in log {
        let mut events = Vec::with_capacity(entry.events.len());
        let mut withheld = Vec::with_capacity(entry.events.len());
        for e in &entry.events {
            st.apply(e)?;
            withheld.push(hidden_unit(e, &st));
            events.push(redact(e, &st, side));
        }
        let mut any_withheld = false;
        let mut committed = false;
        for (i, e) in entry.events.iter().enumerate() {
            if withheld[i] || hidden_unit(e, &st) {
                events[i] = Event::Withheld {
                    kind: e.kind().to_string(),
                };
                any_withheld = true;
            } else if matches!(e, Event::UnitCreated { .. } | Event::UnitChanged { .. }) {
                // a variable made secret later in the same action is not shown in the record
                events[i] = redact(&events[i], &st, side);
            }
            committed |= matches!(e, Event::Committed { commitment } if commitment.side != side);
        }
        let by_other = entry.action.side.as_deref() != Some(side);
        let secret = by_other && secret_kind(&entry.action.kind);
        let params_withheld = by_other && (any_withheld || committed || secret);
        let mut action = entry.action.clone();
        if params_withheld {
            action.params.clear();
        }
        // another side's secret action right after one of the same side's: one batch
        if secret && batch_open {
            if let Some(last) = out.last_mut() {
                if last.action.side == action.side {
                    if last.action.kind != action.kind {
                        last.action.kind = SECRET.to_string();
                    }
                    last.events.extend(events);
                    continue;
                }
            }
        }
        batch_open = secret;
        out.push(ViewEntry {
            action,
            params_withheld,
            events,
        });
    }
    for entry in &mut out {
        entry.events = conceal_runs(std::mem::take(&mut entry.events), side);
    }
    Ok(View {
        side: side.to_string(),
        state: state_for(now, side),
        log: out,
    })
}

impl View {
    /// The view as JSON for tools (`kessel view --json`): the clock, units with their hex labels,
    /// markers, game variables, pending commitments (digests, and the side's own choices), the
    /// units of this side hidden from others, and the log.
    pub fn to_json(&self) -> Value {
        let st = &self.state;
        let label = |h: crate::hex::Hex| st.map.label(h);
        // hexes as labels throughout, as scripts see them: a unit on the map is `location =
        // "map"` with its `hex`, a marker's `hex` and `other` are labels
        let units: Vec<Value> = st
            .units
            .iter()
            .map(|u| {
                let mut v = serde_json::to_value(u).unwrap_or(Value::Null);
                if let (Some(h), Some(o)) = (u.hex(), v.as_object_mut()) {
                    o.insert("location".into(), Value::String("map".into()));
                    o.insert("hex".into(), Value::String(label(h)));
                }
                v
            })
            .collect();
        let markers: Vec<Value> = st
            .markers
            .iter()
            .map(|m| {
                let mut v = serde_json::to_value(m).unwrap_or(Value::Null);
                if let Some(o) = v.as_object_mut() {
                    for (key, hex) in [("hex", m.hex), ("other", m.other)] {
                        match hex {
                            Some(h) => o.insert(key.into(), Value::String(label(h))),
                            None => o.remove(key),
                        };
                    }
                }
                v
            })
            .collect();
        let log: Vec<Value> = self
            .log
            .iter()
            .map(|entry| {
                let mut v = serde_json::to_value(entry).unwrap_or(Value::Null);
                if let Some(o) = v.as_object_mut() {
                    let events = entry.events.iter().map(|e| e.labelled(&st.map)).collect();
                    o.insert("events".into(), Value::Array(events));
                }
                v
            })
            .collect();
        serde_json::json!({
            "side": self.side,
            "turn": st.turn,
            "phase": st.phase,
            // the named sequence being walked (`kessel.emit.mode`): `phase` counts its steps
            "mode": st.mode,
            "finished": st.finished,
            // why this game is its campaign's last, once the rules said so (else null)
            "campaign_ended": st.campaign_ended.as_ref().map(|r| serde_json::json!({ "rule": r.rule, "text": r.message })),
            "units": units,
            "markers": markers,
            "vars": st.vars,
            "commitments": st.secrets.commitments.values().collect::<Vec<_>>(),
            "hidden": st.secrets.hidden,
            "hidden_markers": st.secrets.hidden_markers,
            "log": log,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Unit;
    use std::sync::Arc;

    fn unit(id: &str, side: &str) -> Unit {
        Unit::new(id, side, "inf")
    }

    #[test]
    fn a_unit_created_and_hidden_in_one_action_never_shows() {
        let map = crate::map::Map::new("m", 2, 2, Default::default(), "clear");
        let initial = GameState::new(Arc::new(map), vec!["red".into(), "blue".into()], 1);
        let mut secret = unit("spy", "red");
        secret.vars.insert("cover".into(), Value::from("baker"));
        let events = vec![
            Event::UnitCreated {
                unit: Box::new(secret),
            },
            Event::UnitHidden {
                unit: "spy".into(),
                side: "blue".into(),
                on: true,
            },
            Event::UnitVar {
                unit: "spy".into(),
                key: "cover".into(),
                value: Some(Value::from("baker")),
                secret_to: Some("red".into()),
            },
        ];
        let log = vec![LogEntry {
            action: Action::new("recruit").by("red"),
            events,
        }];
        let mut now = initial.clone();
        for e in &log[0].events {
            now.apply(e).expect("applies");
        }
        let blue = view(&initial, &log, &now, "blue", &|_| false).expect("view");
        assert!(blue.state.unit("spy").is_none());
        assert!(blue.log[0].params_withheld);
        assert!(blue.log[0]
            .events
            .iter()
            .all(|e| matches!(e, Event::Withheld { .. })));
        let red = view(&initial, &log, &now, "red", &|_| false).expect("view");
        assert_eq!(red.state.unit("spy").map(|u| u.vars.len()), Some(1));
        assert!(matches!(&red.log[0].events[0], Event::UnitCreated { .. }));
        // a visible unit created with a variable made secret in the same action: the record
        // blue is shown leaves the variable out
        let mut open = log.clone();
        open[0].events.remove(1);
        let mut st = initial.clone();
        for e in &open[0].events {
            st.apply(e).expect("applies");
        }
        let blue = view(&initial, &open, &st, "blue", &|_| false).expect("view");
        match &blue.log[0].events[0] {
            Event::UnitCreated { unit } => assert!(unit.vars.is_empty(), "{unit:?}"),
            other => panic!("{other:?}"),
        }
        assert!(blue.state.unit("spy").is_some_and(|u| u.vars.is_empty()));
        // shown again, blue sees the unit but not red's secret variable, in the state or the log
        let shown = Event::UnitHidden {
            unit: "spy".into(),
            side: "blue".into(),
            on: false,
        };
        now.apply(&shown).expect("applies");
        let blue = state_for(&now, "blue");
        assert!(blue.unit("spy").is_some_and(|u| u.vars.is_empty()));
    }
}
