//! Carrying a game into the next: what [`carry_over`] moves from the game that ended into the
//! next game's set-up (units, chosen variables, markers, pools, map changes), and the report of
//! it that `kessel campaign` and the editor show ([`CarryReport::text`]).

use super::{sources, Carry, VarsCarried};
use crate::state::{GameState, Location, Unit, Value};
use serde::Serialize;
use std::collections::BTreeMap;

/// What a carry moved, for players to read and tests to check.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CarryReport {
    /// Units carried, in the order of the last game.
    pub units: Vec<CarriedUnit>,
    /// Units of the next scenario that a carried unit replaced.
    pub replaced: Vec<String>,
    /// Units of the next scenario that joined as new arrivals.
    pub arrivals: Vec<String>,
    /// Variables carried, with their values.
    pub vars: BTreeMap<String, Value>,
    /// Of those, the ones secret to a side: key → side.
    pub secret_vars: BTreeMap<String, String>,
    /// Variables `[carry] vars` names that the last game left unset, so nothing carried for them
    /// (a misspelt name carried nothing without a word): name → the nearest name the game set,
    /// if any.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unset_vars: BTreeMap<String, Option<String>>,
    /// Markers carried.
    pub markers: usize,
    /// Of those, the ones that took the place of a marker the next scenario declares at the same
    /// place (same kind and side).
    #[serde(skip_serializing_if = "is_zero")]
    pub markers_in_place: usize,
    /// Pools carried.
    pub pools: Vec<String>,
    /// Map changes carried (0: none, or the map is not carried).
    pub map_changes: u64,
    /// Where each carried variable was last set in the last game (see [`sources::var_sources`]).
    #[serde(skip)]
    pub var_sources: Vec<(String, sources::SetIn)>,
    /// Carried variables the next game's own `setup` hooks cleared again (records the rules hold
    /// to be the last game's alone): said, or the report reads as if they held.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dropped_vars: Vec<String>,
}

/// A unit as it came out of the last game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CarriedUnit {
    /// Its id.
    pub id: String,
    /// Its side.
    pub side: String,
    /// Its type.
    pub kind: String,
    /// Where it ended (a hex label, `pending`, `eliminated`, `removed`).
    pub location: String,
    /// Made during the last game (not in its set-up).
    pub created: bool,
    /// What changed during the last game: `type`, `side`, `faces`, `step`, `flags`, `location`,
    /// `vars k1 k2` (the variables that changed) — empty for a created unit.
    pub changed: Vec<String>,
    /// The sides it is hidden from as it carries (a secret purchase, a hidden set-up): the
    /// report marks it, as it marks a side's secret variable.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hidden_from: Vec<String>,
}

/// A carry that cannot be made.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CarryError {
    /// The map is carried but the next game is on another map.
    #[error("the campaign carries the map, but the next scenario is on another map ({0}) than the last ({1})")]
    OtherMap(String, String),
    /// A carried unit stands in a hex the next map does not have.
    #[error("unit `{0}` ended in hex {1}, which the next scenario's map does not have")]
    OffMap(String, String),
    /// A carried unit's type is not declared by the next game's ruleset.
    #[error("unit `{0}` is of type `{1}`, which the next game's ruleset does not declare")]
    UnknownType(String, String),
}

/// Moves what `carry` names from the final state of a game (`from`, which began as `started`)
/// into the initial state of the next (`into`). `unit_types` are the next ruleset's.
pub fn carry_over(
    started: &GameState,
    from: &GameState,
    into: &mut GameState,
    carry: &Carry,
    unit_types: &BTreeMap<String, Value>,
) -> Result<CarryReport, CarryError> {
    let mut report = CarryReport::default();
    if carry.map {
        let (last, next) = (started.map.digest(), into.map.digest());
        if last != next {
            return Err(CarryError::OtherMap(
                into.map.name.clone(),
                from.map.name.clone(),
            ));
        }
        into.map = from.map.clone();
        into.map_changes = from.map_changes;
        report.map_changes = from.map_changes;
    }
    if carry.units {
        let scenario_ids: Vec<String> = into.units.iter().map(|u| u.id.clone()).collect();
        for unit in &from.units {
            if !unit_types.is_empty() && !unit_types.contains_key(&unit.kind) {
                return Err(CarryError::UnknownType(unit.id.clone(), unit.kind.clone()));
            }
            if let Location::Map(h) = unit.location {
                if !into.map.contains(h) {
                    return Err(CarryError::OffMap(unit.id.clone(), from.map.label(h)));
                }
            }
            let before = started.unit(&unit.id);
            report.units.push(CarriedUnit {
                id: unit.id.clone(),
                side: unit.side.clone(),
                kind: unit.kind.clone(),
                location: location_text(from, unit.location),
                created: before.is_none(),
                changed: before.map(|b| changes(b, unit)).unwrap_or_default(),
                hidden_from: from
                    .secrets
                    .hidden_from(&unit.id)
                    .map(String::from)
                    .collect(),
            });
            if into.put_unit(unit.clone()) {
                report.replaced.push(unit.id.clone());
            }
            // what stays hidden of it goes with it: who may not see it, its secret variables
            match from.secrets.hidden.get(&unit.id) {
                Some(sides) => {
                    into.secrets.hidden.insert(unit.id.clone(), sides.clone());
                }
                None => {
                    into.secrets.hidden.remove(&unit.id);
                }
            }
            match from.secrets.unit_vars.get(&unit.id) {
                Some(vars) => {
                    into.secrets.unit_vars.insert(unit.id.clone(), vars.clone());
                }
                None => {
                    into.secrets.unit_vars.remove(&unit.id);
                }
            }
        }
        report.arrivals = scenario_ids
            .into_iter()
            .filter(|id| from.unit(id).is_none())
            .collect();
    }
    let carried_vars: Vec<&String> = match &carry.vars {
        VarsCarried::All(_) => from.vars.keys().collect(),
        VarsCarried::Named(names) => names.iter().collect(),
        VarsCarried::Nothing => Vec::new(),
    };
    if let VarsCarried::Named(names) = &carry.vars {
        let set: Vec<&String> = from.vars.keys().collect();
        report.unset_vars = (names.iter())
            .filter(|k| !from.vars.contains_key(*k))
            .map(|k| (k.clone(), crate::names::nearest(k, &set)))
            .collect();
    }
    for key in carried_vars {
        if let Some(v) = from.vars.get(key) {
            into.vars.insert(key.clone(), v.clone());
            report.vars.insert(key.clone(), v.clone());
            // a secret stays the secret of the side that had it
            match from.secrets.vars.get(key) {
                Some(side) => {
                    into.secrets.vars.insert(key.clone(), side.clone());
                    report.secret_vars.insert(key.clone(), side.clone());
                }
                None => {
                    into.secrets.vars.remove(key);
                }
            }
        }
    }
    if carry.markers {
        let first_free = into.markers.iter().map(|m| m.id + 1).max().unwrap_or(0);
        let mut next = first_free;
        // the scenario's own markers a carried one already stands for
        let mut taken: Vec<u32> = Vec::new();
        for m in &from.markers {
            // a marker on the map the next scenario declares too (same kind, side and place) is
            // that one, as the last game left it: carried beside it, the game had two
            let own = m.hex.and_then(|_| {
                into.markers.iter().position(|o| {
                    o.id < first_free
                        && !taken.contains(&o.id)
                        && o.kind == m.kind
                        && o.side == m.side
                        && same_place(o, m)
                })
            });
            let id = match own {
                Some(i) => {
                    let id = into.markers[i].id;
                    into.markers[i] = crate::state::Marker { id, ..m.clone() };
                    let hidden: Vec<String> = (into.secrets.marker_hidden_from(id))
                        .map(String::from)
                        .collect();
                    for side in hidden {
                        into.secrets.set_marker_hidden(id, &side, false);
                    }
                    taken.push(id);
                    report.markers_in_place += 1;
                    id
                }
                None => {
                    into.markers.push(crate::state::Marker {
                        id: next,
                        ..m.clone()
                    });
                    next += 1;
                    next - 1
                }
            };
            // a hidden marker stays hidden from the same sides, under its new id
            for side in from.secrets.marker_hidden_from(m.id) {
                into.secrets.set_marker_hidden(id, side, true);
            }
            report.markers += 1;
        }
    }
    if carry.pools {
        for (id, faces) in &from.pools {
            into.pools.insert(id.clone(), faces.clone());
            report.pools.push(id.clone());
        }
    }
    Ok(report)
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Whether two markers stand on the same hex, or on the same hexside written either way round.
fn same_place(a: &crate::state::Marker, b: &crate::state::Marker) -> bool {
    (a.hex, a.other) == (b.hex, b.other)
        || (a.other.is_some() && (a.hex, a.other) == (b.other, b.hex))
}

impl CarryReport {
    /// What carried, for people: one line per fact, each indented two spaces (units by side,
    /// the created ones, the changed ones with what changed, how many came through unchanged,
    /// the new arrivals, each carried variable, markers, map changes). Lists wrap at `width`
    /// columns, continued lines indented four; `usize::MAX` keeps each fact on one line (for a
    /// display that wraps by itself). `kessel campaign` and the editor both show this text.
    pub fn text(&self, width: usize) -> String {
        let mut out = String::new();
        let mut line = |l: String| {
            out.push_str("  ");
            out.push_str(&l);
            out.push('\n');
        };
        if !self.units.is_empty() {
            let mut by_side = BTreeMap::<&str, usize>::new();
            for u in &self.units {
                *by_side.entry(u.side.as_str()).or_default() += 1;
            }
            let sides: Vec<String> = by_side
                .iter()
                .map(|(s, n)| format!("{} {n}", shown(s)))
                .collect();
            line(format!("{} units ({})", self.units.len(), sides.join(", ")));
            let created: Vec<String> = (self.units.iter())
                .filter(|u| u.created)
                .map(|u| {
                    let (id, side, kind) = (shown(&u.id), shown(&u.side), shown(&u.kind));
                    let at = &u.location;
                    format!("{id} ({side} {kind}, {at}{})", hidden_note(&u.hidden_from))
                })
                .collect();
            if !created.is_empty() {
                line(format!("created: {}", wrap(&created, 12, width)));
            }
            let changed: Vec<String> = (self.units.iter())
                .filter(|u| !u.created && !u.changed.is_empty())
                .map(|u| {
                    let hidden = hidden_note(&u.hidden_from);
                    format!(
                        "{} ({}: {}{hidden})",
                        shown(&u.id),
                        u.location,
                        u.changed.join(", ")
                    )
                })
                .collect();
            if !changed.is_empty() {
                line(format!("changed: {}", wrap(&changed, 12, width)));
            }
            let same: Vec<&CarriedUnit> = (self.units.iter())
                .filter(|u| !u.created && u.changed.is_empty())
                .collect();
            let hidden: Vec<String> = (same.iter())
                .filter(|u| !u.hidden_from.is_empty())
                .map(|u| format!("{}{}", shown(&u.id), hidden_note(&u.hidden_from)))
                .collect();
            if hidden.is_empty() {
                line(format!("unchanged: {}", same.len()));
            } else {
                line(format!("unchanged: {} ({})", same.len(), hidden.join("; ")));
            }
            if !self.arrivals.is_empty() {
                let arrivals: Vec<String> = (self.arrivals.iter())
                    .map(|id| shown(id).into_owned())
                    .collect();
                let w = wrap(&arrivals, 12, width);
                line(format!("new arrivals from the scenario: {w}"));
            }
        }
        for (k, v) in &self.vars {
            let secret = (self.secret_vars.get(k)).map_or(String::new(), |side| secret_note(side));
            line(format!("{} = {}{secret}", shown(k), value_line(v, 100)));
        }
        if !self.unset_vars.is_empty() {
            let unset: Vec<String> = (self.unset_vars.iter())
                .map(|(k, near)| match near {
                    Some(n) => format!("{} (did you mean `{}`?)", shown(k), shown(n)),
                    None => shown(k).into_owned(),
                })
                .collect();
            line(format!(
                "not set by the game, so not carried: {}",
                unset.join(", ")
            ));
        }
        if self.markers > 0 {
            let noun = if self.markers == 1 {
                "marker"
            } else {
                "markers"
            };
            let in_place = match self.markers_in_place {
                0 => String::new(),
                n => format!(" ({n} in place of the scenario's own)"),
            };
            line(format!("{} {noun}{in_place}", self.markers));
        }
        if !self.pools.is_empty() {
            let pools: Vec<String> = self.pools.iter().map(|p| shown(p).into_owned()).collect();
            line(format!("pools: {}", pools.join(", ")));
        }
        if self.map_changes > 0 {
            line(format!("the map with {} changes", self.map_changes));
        }
        out.push_str(&sources::sources_text(&self.var_sources));
        if !self.dropped_vars.is_empty() {
            let dropped: Vec<String> = (self.dropped_vars.iter())
                .map(|k| shown(k).into_owned())
                .collect();
            out.push_str(&format!(
                "  dropped as the game began (its rules' setup cleared them): {}\n",
                dropped.join(", ")
            ));
        }
        out
    }
}

/// A name from the game (a unit's id, a variable's) on one line, control characters escaped: the
/// text is a line per fact, and a name's line break began a line of its own.
fn shown(name: &str) -> std::borrow::Cow<'_, str> {
    crate::error::printable_name(name)
}

/// How a carried unit hidden from sides is marked: `, hidden from blue` (nothing if none).
fn hidden_note(sides: &[String]) -> String {
    if sides.is_empty() {
        String::new()
    } else {
        let sides: Vec<String> = sides.iter().map(|s| shown(s).into_owned()).collect();
        format!(", hidden from {}", sides.join(" and "))
    }
}

/// How a carried value that is one side's secret is marked: `  (blue's secret)`.
pub fn secret_note(side: &str) -> String {
    format!("  ({side}'s secret)")
}

/// A value as JSON on one line, cut at `max` characters (an ellipsis marks the cut).
pub fn value_line(v: &Value, max: usize) -> String {
    let t = v.to_string();
    if t.chars().count() > max {
        format!("{}…", t.chars().take(max).collect::<String>())
    } else {
        t
    }
}

/// `items` joined by commas, a new line (indented four) started before an item that would pass
/// `width` columns; `col` is the column the first item starts at.
fn wrap(items: &[String], mut col: usize, width: usize) -> String {
    let mut out = String::new();
    for (i, it) in items.iter().enumerate() {
        if i > 0 {
            if col.saturating_add(2 + it.len()) > width {
                out.push_str(",\n    ");
                col = 4;
            } else {
                out.push_str(", ");
                col += 2;
            }
        }
        out.push_str(it);
        col += it.len();
    }
    out
}

fn location_text(state: &GameState, at: Location) -> String {
    match at {
        Location::Map(h) => state.map.label(h),
        Location::Pending => "pending".into(),
        Location::Eliminated => "eliminated".into(),
        Location::Removed => "removed".into(),
    }
}

/// The parts of a unit that differ between two moments of a game.
fn changes(before: &Unit, after: &Unit) -> Vec<String> {
    let mut out = Vec::new();
    let mut differs = |what: &str, yes: bool| {
        if yes {
            out.push(what.to_string());
        }
    };
    differs("type", before.kind != after.kind);
    differs("side", before.side != after.side);
    differs(
        "faces",
        before.faces != after.faces || before.named != after.named,
    );
    differs("step", before.step != after.step);
    differs("flags", before.flags != after.flags);
    differs("location", before.location != after.location);
    if before.vars != after.vars {
        // which variables: `vars reph wounded`
        let keys: std::collections::BTreeSet<&String> =
            before.vars.keys().chain(after.vars.keys()).collect();
        let changed: Vec<&str> = keys
            .into_iter()
            .filter(|k| before.vars.get(*k) != after.vars.get(*k))
            .map(String::as_str)
            .collect();
        out.push(format!("vars {}", changed.join(" ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::Hex;
    use crate::map::Map;
    use crate::numbering::Numbering;
    use crate::state::Face;
    use std::sync::Arc;

    fn unit(id: &str, side: &str, at: Location) -> Unit {
        Unit {
            faces: vec![Face {
                attack: 2,
                defence: 2,
                movement: 4,
            }],
            location: at,
            ..Unit::new(id, side, "inf")
        }
    }

    fn state(units: Vec<Unit>) -> GameState {
        let map = Arc::new(Map::new("m", 4, 4, Numbering::default(), "clear"));
        let mut s = GameState::new(map, vec!["red".into(), "blue".into()], 1);
        for u in units {
            s.add_unit(u);
        }
        s
    }

    /// A variable `[carry] vars` names that the game left unset carried nothing without a word
    /// (a misspelt `cpp_typo`): the report says which, with the nearest name the game set.
    #[test]
    fn a_named_variable_the_game_left_unset_is_reported() {
        let started = state(vec![]);
        let mut from = started.clone();
        from.vars.insert("cpp".into(), Value::from(7));
        let mut into = state(vec![]);
        let carry = Carry {
            vars: VarsCarried::Named(vec!["cpp".into(), "cpq".into(), "zzzzzz".into()]),
            ..Carry::default()
        };
        let report =
            carry_over(&started, &from, &mut into, &carry, &BTreeMap::new()).expect("carries");
        let text = report.text(100);
        assert!(
            text.contains("not set by the game, so not carried: cpq (did you mean `cpp`?), zzzzzz"),
            "{text}"
        );
        assert!(!text.contains("cpp (did"), "{text}");
    }

    #[test]
    fn units_carry_with_their_state_and_replace_the_next_scenarios_copy() {
        let here = Location::Map(Hex::new(1, 1));
        let started = state(vec![unit("a", "red", here), unit("b", "blue", here)]);
        let mut from = started.clone();
        from.put_unit(Unit {
            step: 1,
            ..unit("a", "red", Location::Eliminated)
        });
        from.put_unit(unit("new", "red", here));
        from.vars.insert("cpp".into(), Value::from(7));
        from.vars.insert("secret".into(), Value::from(1));
        from.secrets
            .hidden
            .insert("b".into(), ["red".to_string()].into_iter().collect());
        from.secrets.vars.insert("cpp".into(), "blue".into());
        let mut into = state(vec![unit("a", "red", here), unit("fresh", "blue", here)]);
        let carry = Carry {
            units: true,
            vars: VarsCarried::Named(vec!["cpp".into(), "absent".into()]),
            ..Carry::default()
        };
        let report =
            carry_over(&started, &from, &mut into, &carry, &BTreeMap::new()).expect("carries");
        let a = into.unit("a").expect("a carried");
        assert_eq!(a.location, Location::Eliminated, "stays eliminated");
        assert_eq!(a.step, 1);
        assert!(into.unit("b").is_some(), "b carried too");
        assert!(into.unit("fresh").is_some(), "a new arrival stays");
        assert_eq!(report.replaced, vec!["a".to_string()]);
        assert_eq!(report.arrivals, vec!["fresh".to_string()]);
        let new = report.units.iter().find(|u| u.id == "new").expect("new");
        assert!(new.created);
        let a = report.units.iter().find(|u| u.id == "a").expect("a");
        assert_eq!(a.changed, vec!["step".to_string(), "location".to_string()]);
        assert_eq!(into.vars.get("cpp"), Some(&Value::from(7)));
        assert_eq!(
            into.secrets.hidden.get("b").map(|s| s.len()),
            Some(1),
            "b stays hidden from red"
        );
        assert_eq!(
            into.secrets.vars.get("cpp").map(String::as_str),
            Some("blue")
        );
        assert!(!into.vars.contains_key("secret"), "only named vars carry");
        assert_eq!(report.vars.len(), 1);
    }

    #[test]
    fn a_unit_off_the_next_map_or_of_an_unknown_type_is_refused() {
        let far = Location::Map(Hex::new(3, 3));
        let started = state(vec![unit("a", "red", far)]);
        let small = Arc::new(Map::new("small", 2, 2, Numbering::default(), "clear"));
        let mut into = GameState::new(small, vec!["red".into()], 1);
        let carry = Carry {
            units: true,
            ..Carry::default()
        };
        let err = carry_over(&started, &started, &mut into, &carry, &BTreeMap::new())
            .expect_err("off the map");
        assert!(matches!(err, CarryError::OffMap(..)), "{err}");
        let mut into = state(vec![]);
        let mut types = BTreeMap::new();
        types.insert("tank".to_string(), Value::from(1));
        let err = carry_over(&started, &started, &mut into, &carry, &types).expect_err("type");
        assert!(matches!(err, CarryError::UnknownType(..)), "{err}");
    }

    #[test]
    fn a_hidden_marker_carries_hidden_from_the_same_sides() {
        let mut from = state(vec![]);
        let mine = |id: u32| crate::state::Marker {
            id,
            kind: "mine".into(),
            side: Some("red".into()),
            hex: Some(Hex::new(1, 1)),
            other: None,
            value: None,
        };
        from.markers.push(mine(0));
        from.markers.push(mine(1));
        from.secrets.set_marker_hidden(1, "blue", true);
        let mut into = state(vec![]);
        // the scenario's own mine elsewhere: the carried ones join it
        into.markers.push(crate::state::Marker {
            hex: Some(Hex::new(2, 2)),
            ..mine(0)
        });
        let carry = Carry {
            markers: true,
            ..Carry::default()
        };
        carry_over(&from, &from, &mut into, &carry, &BTreeMap::new()).expect("carries");
        assert_eq!(into.markers.len(), 3);
        // the carried markers are 1 and 2: the hidden one is 2 now
        assert!(!into.secrets.is_marker_hidden(1, "blue"));
        assert!(into.secrets.is_marker_hidden(2, "blue"));
        assert!(!into.secrets.is_marker_hidden(2, "red"));
    }

    /// A marker the next scenario declares at the same place, of the same kind and side, is the
    /// one the last game left there: one marker, with the last game's value and secrecy, not two.
    #[test]
    fn a_marker_the_next_scenario_declares_too_is_carried_in_its_place() {
        let wire = |id: u32, hex: Hex, other: Option<Hex>, value: i64| crate::state::Marker {
            id,
            kind: "wire".into(),
            side: Some("red".into()),
            hex: Some(hex),
            other,
            value: Some(Value::from(value)),
        };
        let (a, b) = (Hex::new(1, 1), Hex::new(2, 1));
        let mut from = state(vec![]);
        from.markers.push(wire(0, a, None, 5));
        // on a hexside, written the other way round from the scenario's
        from.markers.push(wire(1, b, Some(a), 6));
        from.markers.push(wire(2, Hex::new(3, 3), None, 7));
        from.secrets.set_marker_hidden(0, "blue", true);
        let mut into = state(vec![]);
        into.markers.push(wire(0, a, None, 1));
        into.markers.push(wire(1, a, Some(b), 1));
        into.secrets.set_marker_hidden(1, "blue", true);
        let carry = Carry {
            markers: true,
            ..Carry::default()
        };
        let report =
            carry_over(&from, &from, &mut into, &carry, &BTreeMap::new()).expect("carries");
        let values: Vec<(u32, Option<Value>)> = (into.markers.iter())
            .map(|m| (m.id, m.value.clone()))
            .collect();
        assert_eq!(
            values,
            [
                (0, Some(Value::from(5))),
                (1, Some(Value::from(6))),
                (2, Some(Value::from(7)))
            ]
        );
        assert!(
            into.secrets.is_marker_hidden(0, "blue"),
            "hidden as carried"
        );
        assert!(
            !into.secrets.is_marker_hidden(1, "blue"),
            "shown as carried"
        );
        assert_eq!((report.markers, report.markers_in_place), (3, 2));
        assert!(
            report
                .text(usize::MAX)
                .contains("3 markers (2 in place of the scenario's own)"),
            "{}",
            report.text(usize::MAX)
        );
        let one = CarryReport {
            markers: 1,
            ..CarryReport::default()
        };
        assert_eq!(one.text(usize::MAX), "  1 marker\n");
    }

    #[test]
    fn the_map_carries_only_onto_the_same_map() {
        let started = state(vec![]);
        let other = Arc::new(Map::new("other", 5, 5, Numbering::default(), "clear"));
        let mut into = GameState::new(other, vec![], 1);
        let carry = Carry {
            map: true,
            ..Carry::default()
        };
        let err = carry_over(&started, &started, &mut into, &carry, &BTreeMap::new())
            .expect_err("other map");
        assert!(matches!(err, CarryError::OtherMap(..)), "{err}");
    }

    #[test]
    fn a_carry_report_reads_as_lines_and_wraps_its_lists() {
        let unit = |id: &str, created: bool, changed: &[&str]| CarriedUnit {
            id: id.into(),
            side: "red".into(),
            kind: "inf".into(),
            location: "0101".into(),
            created,
            changed: changed.iter().map(|c| c.to_string()).collect(),
            hidden_from: Vec::new(),
        };
        let mut r = CarryReport {
            units: vec![unit("n1", true, &[]), unit("a", false, &["vars"])],
            ..CarryReport::default()
        };
        r.units.push(unit("b", false, &[]));
        r.units.push(unit("h", false, &[]));
        r.units[0].hidden_from = vec!["blue".into()];
        r.units[3].hidden_from = vec!["blue".into()];
        r.vars.insert("cpp".into(), Value::from(3));
        r.vars.insert("long".into(), Value::String("x".repeat(200)));
        let text = r.text(usize::MAX);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  4 units (red 4)");
        assert_eq!(lines[1], "  created: n1 (red inf, 0101, hidden from blue)");
        assert_eq!(lines[2], "  changed: a (0101: vars)");
        assert_eq!(lines[3], "  unchanged: 2 (h, hidden from blue)");
        assert_eq!(lines[4], "  cpp = 3");
        assert!(
            lines[5].ends_with('…') && lines[5].chars().count() < 120,
            "{}",
            lines[5]
        );
        r.units = (0..20).map(|i| unit(&format!("u{i}"), true, &[])).collect();
        r.vars.clear();
        let narrow = r.text(60);
        assert!(narrow.lines().all(|l| l.chars().count() <= 60), "{narrow}");
        assert!(narrow.lines().any(|l| l.starts_with("    u")), "{narrow}");
        assert_eq!(
            CarryReport::default().text(80),
            "",
            "nothing carried, nothing said"
        );
    }
}
