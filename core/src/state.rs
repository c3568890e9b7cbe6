//! The ground state of a game: units, markers, the clock, free variables and the dice position.
//!
//! **Invariant:** during play the only mutation is [`GameState::apply`] of an [`Event`]; everything
//! else (movement fields, ZOC, supply) is derived from this state and recomputable.

use crate::event::Event;
use crate::hex::Hex;
use crate::map::Map;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Free-form value for rule variables (JSON model, ordered keys).
pub type Value = serde_json::Value;

/// One step's printed values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Face {
    /// Attack strength.
    pub attack: i32,
    /// Defence strength.
    pub defence: i32,
    /// Movement allowance.
    pub movement: i32,
}

impl Face {
    /// Parses `"A-D-M"`.
    pub fn parse(text: &str) -> Option<Face> {
        let parts: Vec<&str> = text.trim().split('-').collect();
        let [a, d, m] = parts.as_slice() else {
            return None;
        };
        Some(Face {
            attack: a.trim().parse().ok()?,
            defence: d.trim().parse().ok()?,
            movement: m.trim().parse().ok()?,
        })
    }
}

impl std::fmt::Display for Face {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}-{}", self.attack, self.defence, self.movement)
    }
}

/// Where a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Location {
    /// On the map.
    Map(Hex),
    /// Not yet in play (a reinforcement).
    Pending,
    /// Eliminated (in the dead pile).
    Eliminated,
    /// Removed from the game for good.
    Removed,
}

/// When and where a reinforcement enters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Game-turn of arrival.
    pub turn: u32,
    /// Area id on the map.
    pub area: String,
}

/// One step's values by name (`{ firepower = 4, range = 4, morale = 7 }`), for units whose faces
/// are not attack-defence-movement.
pub type NamedFace = BTreeMap<String, Value>;

/// Reads a string face by a unit type's field names: `"9-1"` with fields `morale, leadership`
/// is `{ morale = 9, leadership = 1 }`. Each part is a number where it reads as one, else kept
/// as text (`"4-4-7*"`). `None` when the number of parts is not the number of fields.
pub fn named_face_from_text(text: &str, fields: &[String]) -> Option<NamedFace> {
    let parts: Vec<&str> = text.split('-').map(str::trim).collect();
    if parts.len() != fields.len() || parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    Some(
        fields
            .iter()
            .zip(parts)
            .map(|(k, p)| {
                let v = p
                    .parse::<i64>()
                    .map(Value::from)
                    .unwrap_or_else(|_| Value::from(p));
                (k.clone(), v)
            })
            .collect(),
    )
}

/// A counter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// Stable id from the scenario.
    pub id: String,
    /// Printed name.
    pub name: String,
    /// Side id.
    pub side: String,
    /// Unit type id (declared by the ruleset).
    pub kind: String,
    /// Formation (division, army), if any.
    pub formation: Option<String>,
    /// Values per step, front first. Empty for a hidden unit not yet revealed, and for a unit
    /// whose faces are named values (`named`).
    pub faces: Vec<Face>,
    /// Named values per step, front first, for faces that are not attack-defence-movement
    /// (empty otherwise; a unit has `faces` or `named`, not both).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub named: Vec<NamedFace>,
    /// Steps lost so far (0 = full strength).
    pub step: u32,
    /// Face-down: values unknown until revealed.
    pub hidden: bool,
    /// Pool the hidden values are drawn from.
    pub pool: Option<String>,
    /// Where it is.
    pub location: Location,
    /// Arrival, for reinforcements.
    pub entry: Option<Entry>,
    /// Set-up area, for units placed by their owner inside an area.
    pub setup_area: Option<String>,
    /// Fixed integer attributes from the scenario (a leader's rating, …).
    pub attrs: BTreeMap<String, i64>,
    /// Dynamic flags set by the rules (disrupted, attacked, …).
    pub flags: BTreeSet<String>,
    /// Dynamic values set by the rules (MP spent, a history table, …): plain data.
    pub vars: BTreeMap<String, Value>,
}

impl Unit {
    /// A unit of `kind` for `side`, waiting off the map, with no faces, attributes, flags or
    /// variables yet: the start the loaders, the rules' `create_unit` and tests fill in.
    pub fn new(id: &str, side: &str, kind: &str) -> Unit {
        Unit {
            id: id.to_string(),
            name: id.to_string(),
            side: side.to_string(),
            kind: kind.to_string(),
            formation: None,
            faces: Vec::new(),
            named: Vec::new(),
            step: 0,
            hidden: false,
            pool: None,
            location: Location::Pending,
            entry: None,
            setup_area: None,
            attrs: BTreeMap::new(),
            flags: BTreeSet::new(),
            vars: BTreeMap::new(),
        }
    }

    /// The current face, or `None` when hidden or out of steps.
    pub fn face(&self) -> Option<Face> {
        if self.hidden {
            return None;
        }
        self.faces.get(self.step as usize).copied()
    }

    /// Steps left.
    pub fn steps_left(&self) -> u32 {
        if self.hidden && self.faces.is_empty() {
            return 1;
        }
        (self.step_count() as u32).saturating_sub(self.step)
    }

    /// Printed steps: A-D-M faces or named faces.
    pub fn step_count(&self) -> usize {
        self.faces.len().max(self.named.len())
    }

    /// The current named face, if the unit's faces are named values.
    pub fn named_face(&self) -> Option<&NamedFace> {
        if self.hidden {
            return None;
        }
        self.named.get(self.step as usize)
    }

    /// The hex it stands in, if on the map.
    pub fn hex(&self) -> Option<Hex> {
        match self.location {
            Location::Map(h) => Some(h),
            _ => None,
        }
    }
}

/// A marker (interdiction, disruption, rail cut, …).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    /// Index-based id, stable for a scenario.
    pub id: u32,
    /// Marker kind.
    pub kind: String,
    /// Owning side, if any.
    pub side: Option<String>,
    /// Where it is (None = available, off the map).
    pub hex: Option<Hex>,
    /// For a marker on a hexside: the other hex of the side (`hex` is the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other: Option<Hex>,
    /// Its value, plain data (a minefield's strength, a count), if it carries one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
}

/// The ground state.
#[derive(Clone, Debug, PartialEq)]
pub struct GameState {
    /// The map (shared; edits during play are markers and vars, not map changes).
    pub map: Arc<Map>,
    /// Side ids in play order.
    pub sides: Vec<String>,
    /// All units, in scenario order.
    pub units: Vec<Unit>,
    index: BTreeMap<String, usize>,
    /// All markers.
    pub markers: Vec<Marker>,
    /// Game-turn (1-based).
    pub turn: u32,
    /// Last game-turn.
    pub last_turn: u32,
    /// Index of the current step in the sequence being walked.
    pub phase: usize,
    /// The named sequence (mode) being walked; `None`: the ruleset's main sequence.
    pub mode: Option<String>,
    /// True once the game is over.
    pub finished: bool,
    /// Set when the rules said this game is its campaign's last (`kessel.emit.end_campaign`):
    /// why, with the rule case. A campaign plays no later game after it.
    pub campaign_ended: Option<crate::action::Reason>,
    /// Rule variables.
    pub vars: BTreeMap<String, Value>,
    /// Hidden-value pools: remaining faces (with repeats), in scenario order.
    pub pools: BTreeMap<String, Vec<Face>>,
    /// Dice seed.
    pub seed: u64,
    /// Number of dice drawn so far, all streams together.
    pub dice_drawn: u64,
    /// Position of each dice stream drawn from (see `crate::dice`).
    pub dice_streams: BTreeMap<String, u64>,
    /// Map-change events applied so far (0: the map is the scenario's).
    pub map_changes: u64,
    /// What is hidden from which side (see [`crate::secrets`]); empty in a game without secrets.
    pub secrets: crate::secrets::Secrets,
}

/// An event could not be applied (a corrupt log, a rule bug).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ApplyError {
    /// Unknown unit id.
    #[error("unknown unit `{0}`")]
    UnknownUnit(String),
    /// Unknown marker id.
    #[error("unknown marker {0}")]
    UnknownMarker(u32),
    /// A hex off the map.
    #[error("hex {0} is off the map")]
    OffMap(String),
    /// Face missing from a pool.
    #[error("pool `{0}` has no face {1}")]
    NotInPool(String, String),
    /// A created marker's id is taken.
    #[error("marker id {0} is taken or out of order")]
    DuplicateMarker(u32),
    /// A created unit's id is taken.
    #[error("unit id `{0}` is taken")]
    DuplicateUnit(String),
    /// A commitment's id is taken by one not yet opened.
    #[error("commitment `{0}` is already made and not opened")]
    CommitmentTaken(String),
    /// An opening names no pending commitment.
    #[error("no commitment `{0}` to open")]
    NoCommitment(String),
    /// A commitment's choice does not give its digest, or an opening is not what was committed.
    #[error(
        "the choice opened for commitment `{0}` is not the one committed (its digest differs)"
    )]
    CommitmentMismatch(String),
    /// An event of a side's view (withheld) given as an event of the game.
    #[error("a withheld event (from a side's view) cannot be applied to a game")]
    Withheld,
    /// A map edit failed.
    #[error(transparent)]
    Map(#[from] crate::map::MapError),
}

impl GameState {
    /// A state with no units.
    pub fn new(map: Arc<Map>, sides: Vec<String>, seed: u64) -> GameState {
        GameState {
            map,
            sides,
            units: Vec::new(),
            index: BTreeMap::new(),
            markers: Vec::new(),
            turn: 1,
            last_turn: 1,
            phase: 0,
            mode: None,
            finished: false,
            campaign_ended: None,
            vars: BTreeMap::new(),
            pools: BTreeMap::new(),
            seed,
            dice_drawn: 0,
            dice_streams: BTreeMap::new(),
            map_changes: 0,
            secrets: Default::default(),
        }
    }

    /// Adds a unit (set-up only). Returns false if the id is taken.
    pub fn add_unit(&mut self, unit: Unit) -> bool {
        if self.index.contains_key(&unit.id) {
            return false;
        }
        self.index.insert(unit.id.clone(), self.units.len());
        self.units.push(unit);
        true
    }

    /// Puts a unit in the set-up: replaces the unit with its id (returns true) or adds it.
    pub fn put_unit(&mut self, unit: Unit) -> bool {
        match self.index.get(&unit.id) {
            Some(&i) => {
                self.units[i] = unit;
                true
            }
            None => {
                self.add_unit(unit);
                false
            }
        }
    }

    /// A unit by id.
    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.index.get(id).map(|&i| &self.units[i])
    }

    /// A copy of everything but the units (none; see [`GameState::set_units`]).
    pub(crate) fn clone_without_units(&self) -> GameState {
        GameState {
            map: self.map.clone(),
            sides: self.sides.clone(),
            units: Vec::new(),
            index: BTreeMap::new(),
            markers: self.markers.clone(),
            turn: self.turn,
            last_turn: self.last_turn,
            phase: self.phase,
            mode: self.mode.clone(),
            finished: self.finished,
            campaign_ended: self.campaign_ended.clone(),
            vars: self.vars.clone(),
            pools: self.pools.clone(),
            seed: self.seed,
            dice_drawn: self.dice_drawn,
            dice_streams: self.dice_streams.clone(),
            map_changes: self.map_changes,
            secrets: self.secrets.clone(),
        }
    }

    /// Replaces the units (all of them, ids unique) and their index.
    pub(crate) fn set_units(&mut self, units: Vec<Unit>) {
        self.units = units;
        self.retain_units(|_| true);
    }

    /// Keeps only the units `keep` accepts (a side's view).
    pub(crate) fn retain_units(&mut self, keep: impl Fn(&Unit) -> bool) {
        self.units.retain(|u| keep(u));
        self.index = self
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| (u.id.clone(), i))
            .collect();
    }

    /// Position of a unit in `units`.
    pub fn unit_index(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    fn unit_mut(&mut self, id: &str) -> Result<&mut Unit, ApplyError> {
        match self.index.get(id) {
            Some(&i) => Ok(&mut self.units[i]),
            None => Err(ApplyError::UnknownUnit(id.to_string())),
        }
    }

    /// Units standing in a hex, in scenario order.
    pub fn units_at(&self, hex: Hex) -> impl Iterator<Item = &Unit> {
        self.units
            .iter()
            .filter(move |u| u.location == Location::Map(hex))
    }

    /// Markers in a hex, and those on its hexsides.
    pub fn markers_at(&self, hex: Hex) -> impl Iterator<Item = &Marker> {
        self.markers
            .iter()
            .filter(move |m| m.hex == Some(hex) || m.other == Some(hex))
    }

    /// The indices of the units an event that clears a flag or a unit variable from every unit
    /// changes: those that hold it now (and, for a variable, those whose secret it is). Empty for
    /// other events.
    pub fn units_holding(&self, event: &Event) -> Vec<usize> {
        match event {
            Event::FlagsCleared { flag, side } => (0..self.units.len())
                .filter(|&i| {
                    let u = &self.units[i];
                    side.as_ref().is_none_or(|s| &u.side == s) && u.flags.contains(flag)
                })
                .collect(),
            Event::UnitVarsCleared { key } => (0..self.units.len())
                .filter(|&i| {
                    let u = &self.units[i];
                    u.vars.contains_key(key)
                        || self
                            .secrets
                            .unit_vars
                            .get(&u.id)
                            .is_some_and(|keys| keys.contains_key(key))
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Applies one event. The only way play changes the state.
    pub fn apply(&mut self, event: &Event) -> Result<(), ApplyError> {
        match event {
            Event::Located { unit, to } => {
                if let Location::Map(h) = to {
                    if !self.map.contains(*h) {
                        return Err(ApplyError::OffMap(self.map.label(*h)));
                    }
                }
                self.unit_mut(unit)?.location = *to;
            }
            Event::Moved { unit, path, .. } => {
                let to = *path
                    .last()
                    .ok_or_else(|| ApplyError::UnknownUnit(unit.clone()))?;
                if !self.map.contains(to) {
                    return Err(ApplyError::OffMap(self.map.label(to)));
                }
                self.unit_mut(unit)?.location = Location::Map(to);
            }
            Event::StepSet { unit, step } => {
                self.unit_mut(unit)?.step = *step;
            }
            Event::Revealed { unit, face } => {
                let u = self.unit_mut(unit)?;
                u.hidden = false;
                if u.faces.is_empty() {
                    u.faces.push(*face);
                }
                if let Some(pool) = u.pool.clone() {
                    let faces = self.pools.entry(pool.clone()).or_default();
                    if let Some(i) = faces.iter().position(|f| f == face) {
                        faces.remove(i);
                    }
                }
            }
            Event::Concealed { unit, pool, face } => {
                let u = self.unit_mut(unit)?;
                u.hidden = true;
                u.faces.clear();
                u.step = 0;
                u.pool = Some(pool.clone());
                self.pools.entry(pool.clone()).or_default().push(*face);
            }
            Event::UnitFlag { unit, flag, on } => {
                let u = self.unit_mut(unit)?;
                if *on {
                    u.flags.insert(flag.clone());
                } else {
                    u.flags.remove(flag);
                }
            }
            Event::UnitVar {
                unit,
                key,
                value,
                secret_to,
            } => {
                let u = self.unit_mut(unit)?;
                match value {
                    Some(v) => u.vars.insert(key.clone(), v.clone()),
                    None => u.vars.remove(key),
                };
                if secret_to.is_some() || !self.secrets.unit_vars.is_empty() {
                    self.secrets
                        .set_unit_var(unit, key, value.is_some(), secret_to.as_ref());
                }
            }
            Event::FlagsCleared { flag, side } => {
                for u in &mut self.units {
                    if side.as_ref().is_none_or(|s| &u.side == s) {
                        u.flags.remove(flag);
                    }
                }
            }
            Event::UnitVarsCleared { key } => {
                for u in &mut self.units {
                    u.vars.remove(key);
                }
                self.secrets.clear_unit_var(key);
            }
            Event::MarkerMoved { marker, hex } => {
                let m = self
                    .markers
                    .iter_mut()
                    .find(|m| m.id == *marker)
                    .ok_or(ApplyError::UnknownMarker(*marker))?;
                m.hex = *hex;
                m.other = None;
            }
            Event::MarkerCreated { marker } => {
                self.check_marker_place(marker)?;
                // markers stay in id order (scenario ids are indices, new ones come after)
                if self.markers.last().is_some_and(|m| m.id >= marker.id) {
                    return Err(ApplyError::DuplicateMarker(marker.id));
                }
                self.markers.push(marker.clone());
            }
            Event::MarkerChanged { marker } => {
                self.check_marker_place(marker)?;
                let m = self
                    .markers
                    .iter_mut()
                    .find(|m| m.id == marker.id)
                    .ok_or(ApplyError::UnknownMarker(marker.id))?;
                *m = marker.clone();
            }
            Event::Var {
                key,
                value,
                secret_to,
            } => {
                match value {
                    Some(v) => self.vars.insert(key.clone(), v.clone()),
                    None => self.vars.remove(key),
                };
                self.secrets
                    .set_var(key, value.is_some(), secret_to.as_ref());
            }
            Event::Clock {
                turn,
                phase,
                finished,
            } => {
                self.turn = *turn;
                self.phase = *phase;
                self.finished = *finished;
            }
            Event::Dice {
                drawn_after,
                stream,
                stream_after,
                ..
            } => {
                self.dice_drawn = *drawn_after;
                self.dice_streams.insert(stream.clone(), *stream_after);
            }
            Event::Mode { mode } => {
                self.mode = mode.clone();
                self.phase = 0;
            }
            Event::Note { .. } | Event::Record { .. } => {}
            Event::CampaignEnded { rule, text } => {
                self.campaign_ended = Some(crate::action::Reason {
                    rule: rule.clone(),
                    message: text.clone(),
                });
            }
            Event::UnitCreated { unit } => {
                self.check_location(unit.location)?;
                if !self.add_unit((**unit).clone()) {
                    return Err(ApplyError::DuplicateUnit(unit.id.clone()));
                }
            }
            Event::UnitChanged { unit } => {
                self.check_location(unit.location)?;
                *self.unit_mut(&unit.id)? = (**unit).clone();
            }
            Event::TerrainSet { hex, terrain } => {
                Arc::make_mut(&mut self.map).set_terrain(*hex, terrain)?;
                self.map_changes += 1;
            }
            Event::HexsideSet {
                hex,
                other,
                kind,
                on,
            } => {
                Arc::make_mut(&mut self.map).set_side(*hex, *other, kind, *on)?;
                self.map_changes += 1;
            }
            Event::HexTagged { hex, tag, on } => {
                Arc::make_mut(&mut self.map).set_tag(*hex, tag, *on)?;
                self.map_changes += 1;
            }
            Event::UnitHidden { unit, side, on } => {
                self.unit_mut(unit)?;
                self.secrets.set_hidden(unit, side, *on);
            }
            Event::MarkerHidden { marker, side, on } => {
                if !self.markers.iter().any(|m| m.id == *marker) {
                    return Err(ApplyError::UnknownMarker(*marker));
                }
                self.secrets.set_marker_hidden(*marker, side, *on);
            }
            Event::Committed { commitment } => self.secrets.commit(commitment)?,
            Event::Opened { commitments } => self.secrets.open(commitments)?,
            Event::Withheld { .. } => return Err(ApplyError::Withheld),
        }
        Ok(())
    }

    fn check_marker_place(&self, m: &Marker) -> Result<(), ApplyError> {
        for h in [m.hex, m.other].into_iter().flatten() {
            self.check_location(Location::Map(h))?;
        }
        Ok(())
    }

    fn check_location(&self, at: Location) -> Result<(), ApplyError> {
        match at {
            Location::Map(h) if !self.map.contains(h) => Err(ApplyError::OffMap(self.map.label(h))),
            _ => Ok(()),
        }
    }

    /// A stable hash of everything in the state (FNV-1a over a canonical text form), for replay
    /// checks. Two states with equal hashes are equal for every rule.
    pub fn hash(&self) -> u64 {
        self.hash_sized().0
    }

    /// [`GameState::hash`] and the length of the text it hashed, the measure of its work.
    pub fn hash_sized(&self) -> (u64, usize) {
        let free = |_: usize| Ok::<(), std::convert::Infallible>(());
        match self.hash_charged(free) {
            Ok(done) => done,
            Err(never) => match never {},
        }
    }

    /// [`GameState::hash_sized`], telling `charge` the length of each piece of the text as it is
    /// made (a unit, a variable, a section), so that a caller with a budget stops the work at
    /// it. The text was made whole first, a JSON tree of the state and its text both held
    /// outside every limit, and charged only when done.
    ///
    /// The text is that of the state as one JSON object, keys in order at every level (JSON
    /// objects here are sorted maps, and every map of the state is a `BTreeMap`), so equal
    /// states give equal text whatever order their parts were made in.
    pub fn hash_charged<E>(
        &self,
        mut charge: impl FnMut(usize) -> Result<(), E>,
    ) -> Result<(u64, usize), E> {
        use serde_json::{json, to_value, Value as J};
        let mut h: u64 = 0xcbf29ce484222325;
        let mut len = 0usize;
        let mut put = |text: &str| -> Result<(), E> {
            charge(text.len())?;
            for b in text.as_bytes() {
                h ^= *b as u64;
                h = h.wrapping_mul(0x100000001b3);
            }
            len += text.len();
            Ok(())
        };
        // (a part that cannot be JSON, which none of the state's types can fail to be, hashes
        // as null rather than stopping a replay check)
        let text = |v: J| v.to_string();
        let value = |v: Result<J, serde_json::Error>| v.unwrap_or_default().to_string();
        // a section's text, or the units or variables, made a piece at a time below: they are
        // most of a large state
        enum Part {
            Text(String),
            Units,
            Vars,
        }
        let some = |t: String| Some(Part::Text(t));
        // the sections by name, in the order a JSON object of them prints (an absent one is left
        // out)
        let sections: [(&str, Option<Part>); 14] = [
            // the main sequence hashes as it did before modes existed, so older saves keep
            // their hash; so is a campaign's end until the rules say it
            (
                "campaign_ended",
                (self.campaign_ended.as_ref())
                    .and_then(|end| some(text(json!({ "rule": end.rule, "text": end.message })))),
            ),
            ("dice_drawn", some(self.dice_drawn.to_string())),
            ("dice_streams", some(value(to_value(&self.dice_streams)))),
            ("finished", some(self.finished.to_string())),
            // a changed map is part of the state (an unchanged one is the scenario's)
            (
                "map",
                (self.map_changes > 0).then(|| Part::Text(text(self.map.digest()))),
            ),
            ("markers", some(value(to_value(&self.markers)))),
            (
                "mode",
                self.mode.as_ref().and_then(|m| some(text(json!(m)))),
            ),
            ("phase", some(self.phase.to_string())),
            ("pools", some(value(to_value(&self.pools)))),
            // secrets once there are any (a game without them hashes as it always did)
            (
                "secrets",
                (!self.secrets.is_empty()).then(|| Part::Text(value(to_value(&self.secrets)))),
            ),
            ("seed", some(self.seed.to_string())),
            ("turn", some(self.turn.to_string())),
            ("units", Some(Part::Units)),
            ("vars", Some(Part::Vars)),
        ];
        let present = sections
            .into_iter()
            .filter_map(|(name, part)| Some((name, part?)));
        for (i, (name, part)) in present.enumerate() {
            put(if i == 0 { "{\"" } else { ",\"" })?;
            put(name)?;
            put("\":")?;
            match part {
                Part::Text(t) => put(&t)?,
                Part::Units => {
                    put("[")?;
                    for (j, u) in self.units.iter().enumerate() {
                        if j > 0 {
                            put(",")?;
                        }
                        put(&value(to_value(u)))?;
                    }
                    put("]")?;
                }
                Part::Vars => {
                    put("{")?;
                    for (j, (k, v)) in self.vars.iter().enumerate() {
                        if j > 0 {
                            put(",")?;
                        }
                        put(&text(J::String(k.clone())))?;
                        put(":")?;
                        put(&value(to_value(v)))?;
                    }
                    put("}")?;
                }
            }
        }
        put("}")?;
        Ok((h, len))
    }
}
