//! Edit commands and their undo history.
//!
//! Panels never change the document while drawing: they push [`EditorCommand`]s, and the app
//! applies them after the frame. Every map edit goes through [`History::apply`], which keeps the
//! map as it was before, so undo and redo restore the exact previous map (catalog order and
//! authored features included), which the file writer relies on for byte-stable saves. The map
//! edits themselves (terrain, hexside features, links, resizing) are in `map_edits.rs`.

mod map_edits;

pub use map_edits::{apply_edit, flood, resized, toggle_hexside, toggle_link};

use crate::scenario_file::{
    LevelDef, MarkerDef, ObjectiveDef, PoolDef, ScenarioDef, ScenarioMeta, UnitDef, VarDef,
};
use kessel_core::hex::{Hex, Hexside};
use kessel_core::map::{Area, Map, Place};
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
    /// Put the hexside feature `kind` on a side (`on`) or take it off; commands of one drag
    /// (`stroke`) undo together, so a river traced along its sides is one step.
    SetHexside {
        /// The side.
        side: Hexside,
        /// Feature kind.
        kind: String,
        /// Present after the edit.
        on: bool,
        /// Drag id.
        stroke: u64,
    },
    /// Put a link of `kind` between two adjacent hexes (`on`) or take it off; one drag from hex
    /// to hex is one undo step.
    SetLink {
        /// One end.
        from: Hex,
        /// The other end.
        to: Hex,
        /// Link kind.
        kind: String,
        /// Present after the edit.
        on: bool,
        /// Drag id.
        stroke: u64,
    },
    /// Paint `terrain` over the connected hexes that have the terrain of `at` (a flood fill).
    FillTerrain {
        /// Where the fill starts.
        at: Hex,
        /// Terrain name.
        terrain: String,
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
    /// Replace the scenario variables (`[vars]`).
    SetVars {
        /// New list, file order.
        vars: Vec<VarDef>,
        /// Coalescing key.
        merge: Option<String>,
    },
    /// Replace the markers (`[[markers]]`).
    SetMarkers {
        /// New list.
        markers: Vec<MarkerDef>,
        /// Coalescing key.
        merge: Option<String>,
    },
    /// Replace the pools of hidden faces (`[[pools]]`).
    SetPools {
        /// New list.
        pools: Vec<PoolDef>,
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
    /// Rename the map (a cut's name says the range it was cut to, stale once it is resized).
    SetMapName {
        /// The new name.
        name: String,
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
            EditorCommand::SetTerrain { stroke, .. }
            | EditorCommand::SetHexside { stroke, .. }
            | EditorCommand::SetLink { stroke, .. } => Some(format!("stroke {stroke}")),
            EditorCommand::SetUnit { merge, .. }
            | EditorCommand::SetMeta { merge, .. }
            | EditorCommand::SetVars { merge, .. }
            | EditorCommand::SetMarkers { merge, .. }
            | EditorCommand::SetPools { merge, .. }
            | EditorCommand::SetObjectives { merge, .. }
            | EditorCommand::SetLevels { merge, .. }
            | EditorCommand::SetPlaces { merge, .. }
            | EditorCommand::SetAreas { merge, .. }
            | EditorCommand::SetTags { merge, .. }
            | EditorCommand::SetMapName { merge, .. } => merge.clone(),
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
    /// The first command's label, and how many changes a drag merged into the step.
    first: String,
    merged: usize,
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
                first: label.clone(),
                label,
                merged: 1,
                stroke,
                other: before,
                other_revision: self.revision,
            });
            if self.undo.len() > MAX_STEPS {
                self.undo.remove(0);
            }
            self.revision = self.next_revision;
        } else {
            if let Some(step) = self.undo.last_mut() {
                step.merged += 1;
                // a drag over several hexes or sides says so; typing in a field is one edit
                if step
                    .stroke
                    .as_deref()
                    .is_some_and(|k| k.starts_with("stroke "))
                {
                    step.label = format!("{} and {} more", step.first, step.merged - 1);
                }
            }
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
        EditorCommand::SetHexside { side, kind, on, .. } => {
            let (a, b) = side.hexes();
            let verb = if *on { "trace" } else { "erase" };
            format!("{verb} {kind} along {}/{}", map.label(a), map.label(b))
        }
        EditorCommand::SetLink {
            from, to, kind, on, ..
        } => {
            let verb = if *on { "trace" } else { "erase" };
            format!("{verb} {kind} {}–{}", map.label(*from), map.label(*to))
        }
        EditorCommand::FillTerrain { at, terrain } => {
            format!("fill {terrain} from {}", map.label(*at))
        }
        EditorCommand::AddUnit(u) => format!("add unit {}", u.id),
        EditorCommand::SetUnit { id, .. } => format!("edit unit {id}"),
        EditorCommand::RemoveUnit { id } => format!("remove unit {id}"),
        EditorCommand::SetMeta { .. } => "edit scenario details".into(),
        EditorCommand::SetVars { .. } => "edit scenario variables".into(),
        EditorCommand::SetMarkers { .. } => "edit markers".into(),
        EditorCommand::SetPools { .. } => "edit pools".into(),
        EditorCommand::SetObjectives { .. } => "edit objectives".into(),
        EditorCommand::SetLevels { .. } => "edit victory levels".into(),
        EditorCommand::SetPlaces { .. } => "edit places".into(),
        EditorCommand::SetAreas { .. } => "edit areas".into(),
        EditorCommand::SetTags { .. } => "edit tags".into(),
        EditorCommand::SetMapName { name, .. } => format!("rename the map to {name}"),
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
            | EditorCommand::SetVars { .. }
            | EditorCommand::SetMarkers { .. }
            | EditorCommand::SetPools { .. }
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
        EditorCommand::SetVars { vars, .. } => Ok(replace(&mut sc.vars, vars)),
        EditorCommand::SetMarkers { markers, .. } => Ok(replace(&mut sc.markers, markers)),
        EditorCommand::SetPools { pools, .. } => Ok(replace(&mut sc.pools, pools)),
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
        assert_eq!(h.undo_label(), Some("paint swamp at 0101 and 2 more"));
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
}
