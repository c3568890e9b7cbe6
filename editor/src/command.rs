//! Edit commands and their undo history.
//!
//! Panels never change the document while drawing: they push [`EditorCommand`]s, and the app
//! applies them after the frame. Every map edit goes through [`History::apply`], which keeps the
//! map as it was before, so undo and redo restore the exact previous map (catalog order and
//! authored features included), which the file writer relies on for byte-stable saves.

use crate::scenario_file::{LevelDef, ObjectiveDef, ScenarioDef, ScenarioMeta, UnitDef};
use kessel_core::hex::{Hex, Hexside};
use kessel_core::map::{Area, Feature, Map, Place};
use std::collections::BTreeMap;

/// Something a panel asks the app to do once the frame is drawn.
#[must_use = "commands do nothing until the app applies them"]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditorCommand {
    /// Paint a hex. Commands with the same `stroke` (one mouse drag) undo together.
    SetTerrain {
        /// The hex.
        hex: Hex,
        /// Terrain name.
        terrain: String,
        /// Drag id.
        stroke: u64,
    },
    /// Add the hexside feature `kind` on a side, or remove it if present.
    ToggleHexside {
        /// The side.
        side: Hexside,
        /// Feature kind (`river`, `lake`, …).
        kind: String,
    },
    /// Add a link of `kind` between two adjacent hexes, or remove it if present.
    ToggleLink {
        /// One end.
        from: Hex,
        /// The other end.
        to: Hex,
        /// Link kind (`road`, `railway`, …).
        kind: String,
    },
    /// Add a unit at the end of the order of battle.
    AddUnit(UnitDef),
    /// Replace the unit `id` (its placement, entry, values…). Edits with the same `merge` key in
    /// a row (typing in one field) undo together.
    SetUnit {
        /// The unit's id before the edit.
        id: String,
        /// The unit after it.
        unit: UnitDef,
        /// Coalescing key.
        merge: Option<String>,
    },
    /// Remove a unit.
    RemoveUnit {
        /// Its id.
        id: String,
    },
    /// Replace the scenario's name, turns, profile and notes.
    SetMeta {
        /// New values.
        meta: ScenarioMeta,
        /// Coalescing key.
        merge: Option<String>,
    },
    /// Replace the objectives.
    SetObjectives {
        /// New list.
        objectives: Vec<ObjectiveDef>,
        /// Coalescing key.
        merge: Option<String>,
    },
    /// Replace the victory levels.
    SetLevels {
        /// New list.
        levels: Vec<LevelDef>,
        /// Coalescing key.
        merge: Option<String>,
    },
    /// Replace the map's named places.
    SetPlaces {
        /// New list.
        places: Vec<Place>,
        /// Coalescing key.
        merge: Option<String>,
    },
    /// Replace the map's areas.
    SetAreas {
        /// New areas by id.
        areas: BTreeMap<String, Area>,
        /// Coalescing key.
        merge: Option<String>,
    },
    /// Replace the map's tags.
    SetTags {
        /// New tags.
        tags: BTreeMap<String, Vec<Hex>>,
        /// Coalescing key.
        merge: Option<String>,
    },
    /// Change the map's size; new hexes get the default terrain, things off the new map go.
    ResizeMap {
        /// Columns.
        columns: u32,
        /// Rows.
        rows: u32,
    },
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Write the map file.
    Save,
}

impl EditorCommand {
    /// True for commands that change the map or the scenario (and so go through the history).
    pub fn is_edit(&self) -> bool {
        !matches!(
            self,
            EditorCommand::Undo | EditorCommand::Redo | EditorCommand::Save
        )
    }

    /// Commands with the same key in a row make one undo step (a paint stroke, typing in a field).
    fn merge_key(&self) -> Option<String> {
        match self {
            EditorCommand::SetTerrain { stroke, .. } => Some(format!("stroke {stroke}")),
            EditorCommand::SetUnit { merge, .. }
            | EditorCommand::SetMeta { merge, .. }
            | EditorCommand::SetObjectives { merge, .. }
            | EditorCommand::SetLevels { merge, .. }
            | EditorCommand::SetPlaces { merge, .. }
            | EditorCommand::SetAreas { merge, .. }
            | EditorCommand::SetTags { merge, .. } => merge.clone(),
            _ => None,
        }
    }
}

/// What the history snapshots: the map and, for a scenario, its editable data.
#[derive(Clone, Debug, PartialEq)]
struct Snapshot {
    map: Map,
    scenario: Option<ScenarioDef>,
}

/// One undoable step: the document on the other side of it.
#[derive(Clone, Debug)]
struct Step {
    label: String,
    stroke: Option<String>,
    other: Snapshot,
    other_revision: u64,
}

/// Undo and redo stacks of whole-document snapshots (map and scenario data).
///
/// Snapshots rather than inverse commands: a PGG map is about 50 KB, so a few hundred steps cost
/// little, and restoring a snapshot cannot drift from the original the way replayed inverses can
/// (toggling a river off and on again would otherwise move it to another feature).
#[derive(Clone, Debug, Default)]
pub struct History {
    undo: Vec<Step>,
    redo: Vec<Step>,
    revision: u64,
    next_revision: u64,
}

/// Steps kept; older ones are dropped.
const MAX_STEPS: usize = 500;

impl History {
    /// Applies one edit command to the map or the scenario, recording it. Returns a message on
    /// failure (nothing is then changed) and `Ok(false)` when the command changed nothing.
    pub fn apply(
        &mut self,
        map: &mut Map,
        scenario: &mut Option<ScenarioDef>,
        cmd: &EditorCommand,
    ) -> Result<bool, String> {
        let stroke = cmd.merge_key();
        let before = Snapshot {
            map: map.clone(),
            scenario: scenario.clone(),
        };
        let label = describe(cmd, map);
        let changed = match scenario_edit(cmd) {
            true => {
                let sc = scenario
                    .as_mut()
                    .ok_or("open a scenario to edit its units and victory conditions")?;
                apply_scenario_edit(sc, map, cmd)?
            }
            false => apply_edit(map, cmd)?,
        };
        if !changed {
            return Ok(false);
        }
        let same_stroke = stroke.is_some()
            && self.redo.is_empty()
            && self.undo.last().is_some_and(|s| s.stroke == stroke);
        if !same_stroke {
            self.next_revision += 1;
            self.undo.push(Step {
                label,
                stroke,
                other: before,
                other_revision: self.revision,
            });
            if self.undo.len() > MAX_STEPS {
                self.undo.remove(0);
            }
            self.revision = self.next_revision;
        } else {
            // a merged step is a new version too, as far as saving is concerned
            self.next_revision += 1;
            self.revision = self.next_revision;
        }
        self.redo.clear();
        Ok(true)
    }

    /// Undoes the last step; returns its label.
    pub fn undo(&mut self, map: &mut Map, scenario: &mut Option<ScenarioDef>) -> Option<String> {
        let step = self.undo.pop()?;
        let step = Self::swap(step, map, scenario, &mut self.revision);
        let label = step.label.clone();
        self.redo.push(step);
        Some(label)
    }

    /// Redoes the last undone step; returns its label.
    pub fn redo(&mut self, map: &mut Map, scenario: &mut Option<ScenarioDef>) -> Option<String> {
        let step = self.redo.pop()?;
        let step = Self::swap(step, map, scenario, &mut self.revision);
        let label = step.label.clone();
        self.undo.push(step);
        Some(label)
    }

    fn swap(
        mut step: Step,
        map: &mut Map,
        scenario: &mut Option<ScenarioDef>,
        revision: &mut u64,
    ) -> Step {
        std::mem::swap(map, &mut step.other.map);
        std::mem::swap(scenario, &mut step.other.scenario);
        std::mem::swap(revision, &mut step.other_revision);
        step
    }

    /// Label of the step undo would revert.
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|s| s.label.as_str())
    }

    /// Label of the step redo would repeat.
    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|s| s.label.as_str())
    }

    /// Identifies the current version: equal revisions mean equal documents.
    pub fn revision(&self) -> u64 {
        self.revision
    }
}

fn describe(cmd: &EditorCommand, map: &Map) -> String {
    match cmd {
        EditorCommand::SetTerrain { hex, terrain, .. } => {
            format!("paint {terrain} at {}", map.label(*hex))
        }
        EditorCommand::ToggleHexside { side, kind } => {
            let (a, b) = side.hexes();
            format!("toggle {kind} on {}/{}", map.label(a), map.label(b))
        }
        EditorCommand::ToggleLink { from, to, kind } => {
            format!("toggle {kind} {}–{}", map.label(*from), map.label(*to))
        }
        EditorCommand::AddUnit(u) => format!("add unit {}", u.id),
        EditorCommand::SetUnit { id, .. } => format!("edit unit {id}"),
        EditorCommand::RemoveUnit { id } => format!("remove unit {id}"),
        EditorCommand::SetMeta { .. } => "edit scenario details".into(),
        EditorCommand::SetObjectives { .. } => "edit objectives".into(),
        EditorCommand::SetLevels { .. } => "edit victory levels".into(),
        EditorCommand::SetPlaces { .. } => "edit places".into(),
        EditorCommand::SetAreas { .. } => "edit areas".into(),
        EditorCommand::SetTags { .. } => "edit tags".into(),
        EditorCommand::ResizeMap { columns, rows } => format!("resize map to {columns}×{rows}"),
        other => format!("{other:?}"),
    }
}

/// True for commands that edit the scenario data rather than the map.
fn scenario_edit(cmd: &EditorCommand) -> bool {
    matches!(
        cmd,
        EditorCommand::AddUnit(_)
            | EditorCommand::SetUnit { .. }
            | EditorCommand::RemoveUnit { .. }
            | EditorCommand::SetMeta { .. }
            | EditorCommand::SetObjectives { .. }
            | EditorCommand::SetLevels { .. }
    )
}

/// Applies a scenario edit without recording it. Ids must be unique and non-empty; anything else
/// (a bad face, a turn out of range) is left for the validation panel to report.
pub fn apply_scenario_edit(
    sc: &mut ScenarioDef,
    _map: &Map,
    cmd: &EditorCommand,
) -> Result<bool, String> {
    fn check_id(sc: &ScenarioDef, id: &str, except: Option<&str>) -> Result<(), String> {
        let id_ok = !id.trim().is_empty() && !id.contains(['"', '\\', '\n']);
        if !id_ok {
            return Err("a unit needs an id (letters, digits, - and _)".into());
        }
        if Some(id) != except && sc.unit(id).is_some() {
            return Err(format!("unit id `{id}` is already used"));
        }
        Ok(())
    }
    match cmd {
        EditorCommand::AddUnit(u) => {
            check_id(sc, &u.id, None)?;
            sc.units.push(u.clone());
            Ok(true)
        }
        EditorCommand::SetUnit { id, unit, .. } => {
            check_id(sc, &unit.id, Some(id))?;
            let slot = sc
                .units
                .iter_mut()
                .find(|u| u.id == *id)
                .ok_or_else(|| format!("no unit `{id}`"))?;
            if slot == unit {
                return Ok(false);
            }
            *slot = unit.clone();
            Ok(true)
        }
        EditorCommand::RemoveUnit { id } => {
            let n = sc.units.len();
            sc.units.retain(|u| u.id != *id);
            Ok(sc.units.len() != n)
        }
        EditorCommand::SetMeta { meta, .. } => Ok(replace(&mut sc.meta, meta)),
        EditorCommand::SetObjectives { objectives, .. } => {
            Ok(replace(&mut sc.objectives, objectives))
        }
        EditorCommand::SetLevels { levels, .. } => Ok(replace(&mut sc.levels, levels)),
        _ => Ok(false),
    }
}

fn replace<T: Clone + PartialEq>(slot: &mut T, value: &T) -> bool {
    if slot == value {
        return false;
    }
    *slot = value.clone();
    true
}

/// The map resized to `columns × rows`: terrain, features, places, areas and tags are kept where
/// they are still on the map; new hexes take the default terrain (the map's first terrain).
pub fn resized(map: &Map, columns: u32, rows: u32) -> Result<Map, String> {
    if !(1..=99).contains(&columns) || !(1..=99).contains(&rows) {
        return Err("a map has 1 to 99 columns and rows".into());
    }
    let default = map
        .terrains
        .names()
        .first()
        .cloned()
        .unwrap_or_else(|| "clear".to_string());
    let mut out = Map::new(&map.name, columns, rows, map.numbering().clone(), &default);
    for name in map.terrains.names() {
        out.terrains.intern(name);
    }
    for name in map.side_kinds.names() {
        out.side_kinds.intern(name);
    }
    let kept: Vec<Hex> = map.hexes().filter(|h| out.contains(*h)).collect();
    for h in kept {
        if let Some(t) = map.terrain_name(h) {
            out.set_terrain(h, t).map_err(|e| e.to_string())?;
        }
    }
    for f in &map.features {
        if f.path.is_empty() {
            let sides: Vec<Hexside> = f
                .sides
                .iter()
                .copied()
                .filter(|s| {
                    let (a, b) = s.hexes();
                    out.contains(a) || out.contains(b)
                })
                .collect();
            if !sides.is_empty() {
                out.add_side_feature(&f.kind, f.name.clone(), sides)
                    .map_err(|e| e.to_string())?;
            }
        } else {
            // a link keeps its pieces that stay on the map
            let mut piece: Vec<Hex> = Vec::new();
            let mut pieces = Vec::new();
            for h in &f.path {
                if out.contains(*h) {
                    piece.push(*h);
                } else {
                    pieces.push(std::mem::take(&mut piece));
                }
            }
            pieces.push(piece);
            for p in pieces.into_iter().filter(|p| p.len() >= 2) {
                out.add_link(&f.kind, f.name.clone(), p)
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    for p in &map.places {
        let hexes: Vec<Hex> = p
            .hexes
            .iter()
            .copied()
            .filter(|h| out.contains(*h))
            .collect();
        if !hexes.is_empty() {
            out.add_place(Place { hexes, ..p.clone() })
                .map_err(|e| e.to_string())?;
        }
    }
    for (id, a) in &map.areas {
        let hexes = a
            .hexes
            .iter()
            .copied()
            .filter(|h| out.contains(*h))
            .collect();
        out.areas.insert(id.clone(), Area { hexes, ..a.clone() });
    }
    for (tag, hexes) in &map.tags {
        let hexes: Vec<Hex> = hexes.iter().copied().filter(|h| out.contains(*h)).collect();
        if !hexes.is_empty() {
            out.tags.insert(tag.clone(), hexes);
        }
    }
    Ok(out)
}

/// Applies a map edit without recording it.
pub fn apply_edit(map: &mut Map, cmd: &EditorCommand) -> Result<bool, String> {
    match cmd {
        EditorCommand::SetTerrain { hex, terrain, .. } => {
            if map.terrain_name(*hex) == Some(terrain.as_str()) {
                return Ok(false);
            }
            map.set_terrain(*hex, terrain).map_err(|e| e.to_string())?;
            Ok(true)
        }
        EditorCommand::ToggleHexside { side, kind } => {
            toggle_hexside(map, *side, kind)?;
            Ok(true)
        }
        EditorCommand::ToggleLink { from, to, kind } => {
            toggle_link(map, *from, *to, kind)?;
            Ok(true)
        }
        EditorCommand::SetPlaces { places, .. } => {
            if map.places == *places {
                return Ok(false);
            }
            if places.iter().any(|p| p.name.trim().is_empty()) {
                return Err("a place needs a name".into());
            }
            if let Some(h) = places
                .iter()
                .flat_map(|p| &p.hexes)
                .find(|h| !map.contains(**h))
            {
                return Err(format!("hex {} is off the map", map.label(*h)));
            }
            let kinds: std::collections::BTreeSet<&str> =
                places.iter().map(|p| p.kind.as_str()).collect();
            if kinds.len() > 32 {
                return Err("too many place kinds (at most 32)".into());
            }
            map.places = places.clone();
            map.rebuild_place_bits();
            Ok(true)
        }
        EditorCommand::SetAreas { areas, .. } => {
            if map.areas == *areas {
                return Ok(false);
            }
            if areas.keys().any(|id| id.trim().is_empty()) {
                return Err("an area needs an id".into());
            }
            map.areas = areas.clone();
            Ok(true)
        }
        EditorCommand::SetTags { tags, .. } => {
            if map.tags == *tags {
                return Ok(false);
            }
            map.tags = tags.clone();
            Ok(true)
        }
        EditorCommand::ResizeMap { columns, rows } => {
            if map.columns() == *columns && map.rows() == *rows {
                return Ok(false);
            }
            *map = resized(map, *columns, *rows)?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// True if two sides meet at a corner: they share one hex and their other hexes touch.
fn sides_touch(a: Hexside, b: Hexside) -> bool {
    let (a1, a2) = a.hexes();
    let (b1, b2) = b.hexes();
    let shared = [a1, a2].iter().filter(|h| **h == b1 || **h == b2).count();
    if shared != 1 {
        return false;
    }
    let other_a = if a1 == b1 || a1 == b2 { a2 } else { a1 };
    let other_b = if b1 == a1 || b1 == a2 { b2 } else { b1 };
    other_a.distance_to(other_b) == 1
}

/// Toggles a hexside feature, keeping [`Map::features`] in step with the bits: a new side joins
/// a feature of the same kind it touches (so drawing along a named river extends it), else starts
/// an unnamed one placed before the links, where the file format puts hexside features.
pub fn toggle_hexside(map: &mut Map, side: Hexside, kind: &str) -> Result<(), String> {
    let (a, b) = side.hexes();
    let on = !map.side_has(side, kind);
    map.set_side(a, b, kind, on).map_err(|e| e.to_string())?;
    let is_side_feature = |f: &Feature| f.kind == kind && f.path.is_empty();
    if on {
        let joined = map
            .features
            .iter_mut()
            .filter(|f| is_side_feature(f))
            .find(|f| f.sides.iter().any(|s| sides_touch(*s, side)));
        match joined {
            Some(f) => f.sides.push(side),
            None => {
                let at = map
                    .features
                    .iter()
                    .position(|f| !f.path.is_empty())
                    .unwrap_or(map.features.len());
                map.features.insert(
                    at,
                    Feature {
                        kind: kind.to_string(),
                        name: None,
                        sides: vec![side],
                        path: Vec::new(),
                    },
                );
            }
        }
    } else {
        for f in map.features.iter_mut().filter(|f| is_side_feature(f)) {
            f.sides.retain(|s| *s != side);
        }
        map.features
            .retain(|f| !(f.kind == kind && f.path.is_empty() && f.sides.is_empty()));
    }
    Ok(())
}

/// Toggles a link between adjacent hexes. Adding extends a path of the same kind that ends at
/// either hex, so clicking along a road builds one path; removing splits the path there.
pub fn toggle_link(map: &mut Map, from: Hex, to: Hex, kind: &str) -> Result<(), String> {
    let side = Hexside::between(from, to)
        .ok_or_else(|| format!("{} and {} are not adjacent", map.label(from), map.label(to)))?;
    if !map.contains(from) || !map.contains(to) {
        return Err("a link must join two hexes on the map".to_string());
    }
    let on = !map.side_has(side, kind);
    map.set_side(from, to, kind, on)
        .map_err(|e| e.to_string())?;
    if on {
        let is_link = |f: &Feature| f.kind == kind && !f.path.is_empty();
        for f in map.features.iter_mut().filter(|f| is_link(f)) {
            let (first, last) = (f.path[0], f.path[f.path.len() - 1]);
            if last == from && !f.path.contains(&to) {
                f.path.push(to);
                return Ok(());
            }
            if last == to && !f.path.contains(&from) {
                f.path.push(from);
                return Ok(());
            }
            if first == from && !f.path.contains(&to) {
                f.path.insert(0, to);
                return Ok(());
            }
            if first == to && !f.path.contains(&from) {
                f.path.insert(0, from);
                return Ok(());
            }
        }
        map.features.push(Feature {
            kind: kind.to_string(),
            name: None,
            sides: Vec::new(),
            path: vec![from, to],
        });
    } else {
        let mut out = Vec::with_capacity(map.features.len() + 1);
        for f in std::mem::take(&mut map.features) {
            if f.kind != kind || f.path.is_empty() {
                out.push(f);
                continue;
            }
            // cut the path at every step that crosses the side; keep pieces that still link
            let mut piece: Vec<Hex> = Vec::new();
            let mut pieces = Vec::new();
            for h in &f.path {
                if let Some(prev) = piece.last() {
                    if Hexside::between(*prev, *h) == Some(side) {
                        pieces.push(std::mem::take(&mut piece));
                    }
                }
                piece.push(*h);
            }
            pieces.push(piece);
            for p in pieces.into_iter().filter(|p| p.len() >= 2) {
                out.push(Feature {
                    kind: f.kind.clone(),
                    name: f.name.clone(),
                    sides: Vec::new(),
                    path: p,
                });
            }
        }
        map.features = out;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kessel_core::numbering::Numbering;

    fn map() -> Map {
        Map::new("t", 6, 6, Numbering::default(), "clear")
    }

    fn hex(m: &Map, label: &str) -> Hex {
        m.parse(label).expect("label on the test map")
    }

    #[test]
    fn undo_restores_terrain_and_redo_repeats() {
        let mut m = map();
        let original = m.clone();
        let mut h = History::default();
        let cmd = EditorCommand::SetTerrain {
            hex: hex(&m, "0203"),
            terrain: "forest".into(),
            stroke: 1,
        };
        assert_eq!(h.apply(&mut m, &mut None, &cmd), Ok(true));
        let painted = m.clone();
        assert_ne!(h.revision(), 0);
        assert!(h.undo(&mut m, &mut None).is_some());
        assert_eq!(m, original);
        assert_eq!(h.revision(), 0);
        assert!(h.redo(&mut m, &mut None).is_some());
        assert_eq!(m, painted);
    }

    #[test]
    fn one_stroke_is_one_undo_step() {
        let mut m = map();
        let original = m.clone();
        let mut h = History::default();
        for label in ["0101", "0102", "0103"] {
            let cmd = EditorCommand::SetTerrain {
                hex: hex(&m, label),
                terrain: "swamp".into(),
                stroke: 7,
            };
            h.apply(&mut m, &mut None, &cmd).expect("on map");
        }
        h.undo(&mut m, &mut None);
        assert_eq!(m, original);
        assert!(h.undo(&mut m, &mut None).is_none());
    }

    #[test]
    fn painting_the_same_terrain_records_nothing() {
        let mut m = map();
        let mut h = History::default();
        let cmd = EditorCommand::SetTerrain {
            hex: hex(&m, "0101"),
            terrain: "clear".into(),
            stroke: 1,
        };
        assert_eq!(h.apply(&mut m, &mut None, &cmd), Ok(false));
        assert!(h.undo_label().is_none());
    }

    #[test]
    fn river_sides_join_a_touching_feature() {
        let mut m = map();
        let (a, b, c) = (hex(&m, "0202"), hex(&m, "0302"), hex(&m, "0303"));
        let s1 = Hexside::between(a, b).expect("adjacent");
        let s2 = Hexside::between(b, c).expect("adjacent");
        toggle_hexside(&mut m, s1, "river").expect("ok");
        toggle_hexside(&mut m, s2, "river").expect("ok");
        assert_eq!(m.features.len(), 1, "{:?}", m.features);
        assert!(m.side_has(s2, "river"));
        toggle_hexside(&mut m, s1, "river").expect("ok");
        assert!(!m.side_has(s1, "river"));
        assert_eq!(m.features[0].sides, vec![s2]);
    }

    #[test]
    fn links_extend_and_split() {
        let mut m = map();
        let p: Vec<Hex> = ["0101", "0201", "0301", "0401"]
            .iter()
            .map(|l| hex(&m, l))
            .collect();
        for w in p.windows(2) {
            toggle_link(&mut m, w[0], w[1], "road").expect("adjacent");
        }
        assert_eq!(m.features.len(), 1);
        assert_eq!(m.features[0].path, p);
        toggle_link(&mut m, p[1], p[2], "road").expect("adjacent");
        let paths: Vec<&Vec<Hex>> = m.features.iter().map(|f| &f.path).collect();
        assert_eq!(paths, vec![&p[..2].to_vec(), &p[2..].to_vec()]);
        assert!(
            !m.hex_has_link(p[1], "road")
                || m.side_has(Hexside::between(p[0], p[1]).expect("adj"), "road")
        );
        assert!(toggle_link(&mut m, p[0], p[3], "road").is_err());
    }
}
