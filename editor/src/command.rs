//! Edit commands and their undo history.
//!
//! Panels never change the document while drawing: they push [`EditorCommand`]s, and the app
//! applies them after the frame. Every map edit goes through [`History::apply`], which keeps the
//! map as it was before, so undo and redo restore the exact previous map (catalog order and
//! authored features included), which the file writer relies on for byte-stable saves.

use kessel_core::hex::{Hex, Hexside};
use kessel_core::map::{Feature, Map};

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
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Write the map file.
    Save,
}

impl EditorCommand {
    /// True for commands that change the map (and so go through the history).
    pub fn is_edit(&self) -> bool {
        matches!(
            self,
            EditorCommand::SetTerrain { .. }
                | EditorCommand::ToggleHexside { .. }
                | EditorCommand::ToggleLink { .. }
        )
    }
}

/// One undoable step: the map on the other side of it.
#[derive(Clone, Debug)]
struct Step {
    label: String,
    stroke: Option<u64>,
    other: Map,
    other_revision: u64,
}

/// Undo and redo stacks of whole-map snapshots.
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
    /// Applies one edit command to `map`, recording it. Returns a message on failure (the map is
    /// then unchanged) and `Ok(false)` when the command changed nothing.
    pub fn apply(&mut self, map: &mut Map, cmd: &EditorCommand) -> Result<bool, String> {
        let stroke = match cmd {
            EditorCommand::SetTerrain { stroke, .. } => Some(*stroke),
            _ => None,
        };
        let before = map.clone();
        let changed = apply_edit(map, cmd)?;
        if !changed {
            return Ok(false);
        }
        let same_stroke = stroke.is_some()
            && self.redo.is_empty()
            && self.undo.last().is_some_and(|s| s.stroke == stroke);
        if !same_stroke {
            self.next_revision += 1;
            self.undo.push(Step {
                label: describe(cmd, &before),
                stroke,
                other: before,
                other_revision: self.revision,
            });
            if self.undo.len() > MAX_STEPS {
                self.undo.remove(0);
            }
            self.revision = self.next_revision;
        }
        self.redo.clear();
        Ok(true)
    }

    /// Undoes the last step; returns its label.
    pub fn undo(&mut self, map: &mut Map) -> Option<String> {
        let mut step = self.undo.pop()?;
        std::mem::swap(map, &mut step.other);
        std::mem::swap(&mut self.revision, &mut step.other_revision);
        let label = step.label.clone();
        self.redo.push(step);
        Some(label)
    }

    /// Redoes the last undone step; returns its label.
    pub fn redo(&mut self, map: &mut Map) -> Option<String> {
        let mut step = self.redo.pop()?;
        std::mem::swap(map, &mut step.other);
        std::mem::swap(&mut self.revision, &mut step.other_revision);
        let label = step.label.clone();
        self.undo.push(step);
        Some(label)
    }

    /// Label of the step undo would revert.
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|s| s.label.as_str())
    }

    /// Label of the step redo would repeat.
    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|s| s.label.as_str())
    }

    /// Identifies the current map version: equal revisions mean equal maps, so the document
    /// compares it with the revision it last saved.
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
        other => format!("{other:?}"),
    }
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
        assert_eq!(h.apply(&mut m, &cmd), Ok(true));
        let painted = m.clone();
        assert_ne!(h.revision(), 0);
        assert!(h.undo(&mut m).is_some());
        assert_eq!(m, original);
        assert_eq!(h.revision(), 0);
        assert!(h.redo(&mut m).is_some());
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
            h.apply(&mut m, &cmd).expect("on map");
        }
        h.undo(&mut m);
        assert_eq!(m, original);
        assert!(h.undo(&mut m).is_none());
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
        assert_eq!(h.apply(&mut m, &cmd), Ok(false));
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
