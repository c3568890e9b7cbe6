//! The scenario as the editor edits it: plain data read from the scenario TOML
//! ([`ScenarioDef`]), and the writer that puts edited data back into the author's document with
//! `toml_edit`, touching only the values that changed so comments, key order and layout survive.
//!
//! The data mirrors the file, not the engine: a unit keeps the hex label it was written with, so
//! a unit placed off the map stays visible as a problem instead of vanishing on load. The engine's
//! checks run on the text [`ScenarioFile::render`] produces (see [`crate::validate`]). Reading is
//! here; writing an edited [`ScenarioDef`] back into the document is in `write.rs`.

mod faces;
mod pieces;
mod write;

use faces::{faces_of, named_faces_of};
use pieces::pool_of;
pub use pieces::{MarkerDef, PoolDef};

use write::write_def;

use kessel_core::hex::Hex;
use kessel_core::map::Map;
use kessel_core::scenario::{expand_label, Objective};
use kessel_core::state::{Entry, Location, Unit};
use std::collections::{BTreeMap, BTreeSet};
use toml_edit::{DocumentMut, Item, Table};

/// Where a unit starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Placement {
    /// Nowhere yet (the file gives neither `at`, `area` nor `enter`).
    #[default]
    Unplaced,
    /// On a hex at set-up (`at`, the label as written).
    At(String),
    /// In a set-up area (`area`).
    Area(String),
    /// Enters later (`enter = { turn, area }`).
    Enter {
        /// Game-turn of arrival.
        turn: u32,
        /// Entry area id.
        area: String,
    },
}

/// One `[[units]]` table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitDef {
    /// Unique id.
    pub id: String,
    /// Printed name, if other than the id.
    pub name: Option<String>,
    /// Side id.
    pub side: String,
    /// Unit type id (`type`).
    pub kind: String,
    /// Formation.
    pub formation: Option<String>,
    /// Faces per step, as written (`"4-4-10"`).
    pub faces: Vec<String>,
    /// Face down until revealed.
    pub hidden: bool,
    /// Pool its values come from when hidden.
    pub pool: Option<String>,
    /// Where it starts.
    pub placement: Placement,
    /// Free integer attributes.
    pub attrs: BTreeMap<String, i64>,
    /// Faces written as tables of named values (`{ morale = 9, label = "9-1" }`), shown on the
    /// counter but not edited here (the file keeps them as written).
    pub named_faces: Vec<kessel_core::state::NamedFace>,
    /// Steps lost at set-up (`step`), shown but not edited here.
    pub step: u32,
}

/// One `[[objectives]]` table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ObjectiveDef {
    /// A place of the map.
    pub place: Option<String>,
    /// Display name.
    pub name: Option<String>,
    /// Hex labels or ranges.
    pub hexes: Vec<String>,
    /// Victory points.
    pub vp: i64,
    /// Side scoring it.
    pub side: Option<String>,
}

/// One `[[levels]]` table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LevelDef {
    /// Name.
    pub name: String,
    /// Upper bound of the score, inclusive.
    pub max: Option<i64>,
}

/// One scenario variable of the `[vars]` table: its key and its value as TOML text (`3`,
/// `true`, `"west"`), so any type the ruleset declares can be written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VarDef {
    /// The variable's id.
    pub key: String,
    /// Its value, a TOML value as written.
    pub value: String,
}

impl VarDef {
    /// The value parsed as TOML, or why it is not a TOML value.
    pub fn parsed(&self) -> Result<toml_edit::Value, String> {
        self.value.trim().parse::<toml_edit::Value>().map_err(|e| {
            format!(
                "`{}` is not a TOML value: {}",
                self.value,
                e.to_string().trim()
            )
        })
    }
}

/// The `[scenario]` table's editable keys.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScenarioMeta {
    /// Name.
    pub name: String,
    /// Number of game-turns.
    pub turns: u32,
    /// First game-turn (read only here; 1 when absent).
    pub first_turn: u32,
    /// Default profile.
    pub profile: Option<String>,
    /// Notes for players.
    pub notes: String,
}

/// Everything the scenario editor changes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScenarioDef {
    /// Header.
    pub meta: ScenarioMeta,
    /// Units, file order.
    pub units: Vec<UnitDef>,
    /// Objectives, file order.
    pub objectives: Vec<ObjectiveDef>,
    /// Victory levels, file order.
    pub levels: Vec<LevelDef>,
    /// Scenario variables, file order.
    pub vars: Vec<VarDef>,
    /// Markers, file order.
    pub markers: Vec<MarkerDef>,
    /// Pools of hidden faces, file order.
    pub pools: Vec<PoolDef>,
}

impl ScenarioDef {
    /// A unit by id.
    pub fn unit(&self, id: &str) -> Option<&UnitDef> {
        self.units.iter().find(|u| u.id == id)
    }

    /// The last turn of the scenario. The file is read as it is, before the engine's bounds
    /// (`first_turn = 4294967295` opens, with the problem listed): the sum stops at `u32::MAX`,
    /// where it overflowed when the schedule tab showed it.
    pub fn last_turn(&self) -> u32 {
        self.meta
            .first_turn
            .saturating_add(self.meta.turns.saturating_sub(1))
    }

    /// Sides in order of first appearance.
    pub fn sides(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for u in &self.units {
            if !out.contains(&u.side) {
                out.push(u.side.clone());
            }
        }
        out
    }

    /// The units as the engine would set them up on `map` (best effort: a unit the engine would
    /// refuse, such as one off the map, is left pending so it still shows in lists).
    pub fn to_units(&self, map: &Map) -> Vec<Unit> {
        let mut per_area: BTreeMap<&str, usize> = BTreeMap::new();
        self.units
            .iter()
            .map(|u| {
                let mut location = Location::Pending;
                let mut entry = None;
                let mut setup_area = None;
                match &u.placement {
                    Placement::Unplaced => {}
                    Placement::At(label) => {
                        if let Some(h) = map.parse(label).filter(|h| map.contains(*h)) {
                            location = Location::Map(h);
                        }
                    }
                    Placement::Area(a) => {
                        setup_area = Some(a.clone());
                        if let Some(area) = map.areas.get(a).filter(|x| !x.hexes.is_empty()) {
                            let k = per_area.entry(a.as_str()).or_default();
                            location = Location::Map(area.hexes[*k % area.hexes.len()]);
                            *k += 1;
                        }
                    }
                    Placement::Enter { turn, area } => {
                        entry = Some(Entry {
                            turn: *turn,
                            area: area.clone(),
                        })
                    }
                }
                let (faces, named) = faces_of(u);
                Unit {
                    id: u.id.clone(),
                    name: u.name.clone().unwrap_or_else(|| u.id.clone()),
                    side: u.side.clone(),
                    kind: u.kind.clone(),
                    formation: u.formation.clone(),
                    faces,
                    named,
                    step: u.step,
                    hidden: u.hidden,
                    pool: u.pool.clone(),
                    location,
                    entry,
                    setup_area,
                    attrs: u.attrs.clone(),
                    flags: BTreeSet::new(),
                    vars: BTreeMap::new(),
                }
            })
            .collect()
    }

    /// The objectives resolved on `map` (unknown places and bad labels give no hexes).
    pub fn to_objectives(&self, map: &Map) -> Vec<Objective> {
        self.objectives
            .iter()
            .map(|o| {
                let mut hexes: Vec<Hex> = Vec::new();
                if let Some(p) = o.place.as_deref().and_then(|p| map.place(p)) {
                    hexes.extend(p.hexes.iter().copied());
                }
                for l in &o.hexes {
                    hexes.extend(expand_label(map, l).unwrap_or_default());
                }
                let name = o
                    .name
                    .clone()
                    .or_else(|| o.place.clone())
                    .or_else(|| hexes.first().map(|h| map.label(*h)))
                    .unwrap_or_default();
                Objective {
                    name,
                    hexes,
                    vp: o.vp,
                    side: o.side.clone(),
                }
            })
            .collect()
    }
}

/// The scenario file as read: its text, its document, and the data read from it.
#[derive(Clone, Debug)]
pub struct ScenarioFile {
    /// The text last read or written.
    pub text: String,
    doc: DocumentMut,
    /// The data `text` holds.
    pub def: ScenarioDef,
}

impl ScenarioFile {
    /// Reads scenario text. Fails only on TOML syntax errors; missing or odd keys read as
    /// defaults (the engine's checks report them).
    pub fn parse(text: &str) -> Result<ScenarioFile, String> {
        // the engine's bounds on a data file, before the document is built
        kessel_core::error::toml_bounds(std::path::Path::new("scenario"), text)
            .map_err(|e| e.to_string())?;
        let doc: DocumentMut = text.parse().map_err(|e| format!("{e}"))?;
        let def = read_def(&doc);
        Ok(ScenarioFile {
            text: text.to_string(),
            doc,
            def,
        })
    }

    /// The file's text with `def` written into it. Values that did not change keep their exact
    /// text, comments and position; an unchanged `def` gives back the text byte for byte.
    pub fn render(&self, def: &ScenarioDef) -> String {
        if *def == self.def {
            return self.text.clone();
        }
        let mut doc = self.doc.clone();
        write_def(&mut doc, &self.def, def);
        doc.to_string()
    }

    /// Records that `text` (rendered from `def`) is now what the file holds.
    pub fn saved(&mut self, text: String, def: ScenarioDef) -> Result<(), String> {
        self.doc = text.parse().map_err(|e| format!("{e}"))?;
        self.text = text;
        self.def = def;
        Ok(())
    }
}

// ------------------------------------------------------------------------------------------------
// reading
// ------------------------------------------------------------------------------------------------

fn str_of(t: &dyn toml_edit::TableLike, key: &str) -> Option<String> {
    t.get(key).and_then(Item::as_str).map(str::to_string)
}

fn int_of(t: &dyn toml_edit::TableLike, key: &str) -> Option<i64> {
    t.get(key).and_then(Item::as_integer)
}

fn strings_of(t: &dyn toml_edit::TableLike, key: &str) -> Vec<String> {
    t.get(key)
        .and_then(Item::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn tables<'a>(doc: &'a DocumentMut, key: &str) -> Vec<&'a Table> {
    doc.get(key)
        .and_then(Item::as_array_of_tables)
        .map(|a| a.iter().collect())
        .unwrap_or_default()
}

fn placement_of(t: &dyn toml_edit::TableLike) -> Placement {
    if let Some(at) = str_of(t, "at") {
        Placement::At(at)
    } else if let Some(area) = str_of(t, "area") {
        Placement::Area(area)
    } else if let Some(e) = t.get("enter").and_then(Item::as_table_like) {
        Placement::Enter {
            turn: int_of(e, "turn")
                .and_then(|n| u32::try_from(n).ok())
                .unwrap_or(0),
            area: str_of(e, "area").unwrap_or_default(),
        }
    } else {
        Placement::Unplaced
    }
}

fn attrs_of(t: &dyn toml_edit::TableLike) -> BTreeMap<String, i64> {
    t.get("attrs")
        .and_then(Item::as_table_like)
        .map(|a| {
            a.iter()
                .filter_map(|(k, v)| v.as_integer().map(|n| (k.to_string(), n)))
                .collect()
        })
        .unwrap_or_default()
}

fn unit_of(t: &Table) -> UnitDef {
    UnitDef {
        id: str_of(t, "id").unwrap_or_default(),
        name: str_of(t, "name"),
        side: str_of(t, "side").unwrap_or_default(),
        kind: str_of(t, "type").unwrap_or_default(),
        formation: str_of(t, "formation"),
        faces: strings_of(t, "faces"),
        hidden: t.get("hidden").and_then(Item::as_bool).unwrap_or(false),
        pool: str_of(t, "pool"),
        placement: placement_of(t),
        attrs: attrs_of(t),
        named_faces: named_faces_of(t),
        step: int_of(t, "step")
            .and_then(|n| u32::try_from(n).ok())
            .unwrap_or(0),
    }
}

fn objective_of(t: &Table) -> ObjectiveDef {
    ObjectiveDef {
        place: str_of(t, "place"),
        name: str_of(t, "name"),
        hexes: strings_of(t, "hexes"),
        vp: int_of(t, "vp").unwrap_or(0),
        side: str_of(t, "side"),
    }
}

fn level_of(t: &Table) -> LevelDef {
    LevelDef {
        name: str_of(t, "name").unwrap_or_default(),
        max: int_of(t, "max"),
    }
}

fn read_def(doc: &DocumentMut) -> ScenarioDef {
    let header = doc.get("scenario").and_then(Item::as_table_like);
    let meta = match header {
        Some(h) => ScenarioMeta {
            name: str_of(h, "name").unwrap_or_default(),
            turns: int_of(h, "turns")
                .and_then(|n| u32::try_from(n).ok())
                .unwrap_or(0),
            first_turn: int_of(h, "first_turn")
                .and_then(|n| u32::try_from(n).ok())
                .unwrap_or(1),
            profile: str_of(h, "profile"),
            notes: str_of(h, "notes").unwrap_or_default(),
        },
        None => ScenarioMeta {
            first_turn: 1,
            ..ScenarioMeta::default()
        },
    };
    ScenarioDef {
        meta,
        units: tables(doc, "units").into_iter().map(unit_of).collect(),
        objectives: tables(doc, "objectives")
            .into_iter()
            .map(objective_of)
            .collect(),
        levels: tables(doc, "levels").into_iter().map(level_of).collect(),
        markers: tables(doc, "markers")
            .into_iter()
            .map(|t| MarkerDef {
                kind: str_of(t, "kind").unwrap_or_default(),
                side: str_of(t, "side"),
                count: int_of(t, "count").unwrap_or(0),
            })
            .collect(),
        pools: tables(doc, "pools").into_iter().map(pool_of).collect(),
        vars: doc
            .get("vars")
            .and_then(Item::as_table_like)
            .map(|t| {
                t.iter()
                    .filter_map(|(k, v)| {
                        let mut v = v.as_value()?.clone();
                        v.decor_mut().clear();
                        Some(VarDef {
                            key: k.to_string(),
                            value: v.to_string(),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"# a scenario
[scenario]
name = "T"   # the name
ruleset = "."
map = "map.toml"
turns = 3

# first unit
[[units]]
id = "a"
side = "red"
type = "inf"
faces = ["3-3-4"]
at = "0203"   # by the river

[[units]]
id = "b"
side = "blue"
type = "inf"
faces = ["2-2-4"]
enter = { turn = 2, area = "W" }

[[objectives]]
place = "Town"
vp = 10
"#;

    #[test]
    fn the_last_turn_of_a_file_past_the_turn_limit_stops_at_the_largest() {
        let f =
            ScenarioFile::parse("[scenario]\nfirst_turn = 4294967295\nturns = 3\n").expect("toml");
        assert_eq!(f.def.last_turn(), u32::MAX);
        let f = ScenarioFile::parse("[scenario]\nfirst_turn = 2\nturns = 3\n").expect("toml");
        assert_eq!(f.def.last_turn(), 4);
        // such a file opens, its problem listed, and the schedule tab reads its last turn
        let dir = kessel_test_support::toy_copy("editor-first-turn-huge");
        let path = dir.join("scenario.toml");
        let text = std::fs::read_to_string(&path).expect("read");
        let text = text.replacen("turns = 3", "turns = 3\nfirst_turn = 4294967295", 1);
        std::fs::write(&path, text).expect("write");
        let doc = crate::document::Document::open(&path).expect("opens");
        assert!(!doc.load_problems.is_empty());
        assert_eq!(doc.scenario.expect("scenario").last_turn(), u32::MAX);
    }

    #[test]
    fn unchanged_data_gives_the_same_bytes() {
        let f = ScenarioFile::parse(TEXT).expect("toml");
        assert_eq!(f.render(&f.def.clone()), TEXT);
        assert_eq!(f.def.units.len(), 2);
        assert_eq!(
            f.def.units[1].placement,
            Placement::Enter {
                turn: 2,
                area: "W".into()
            }
        );
    }

    #[test]
    fn edits_keep_comments_and_touch_only_what_changed() {
        let f = ScenarioFile::parse(TEXT).expect("toml");
        let mut d = f.def.clone();
        d.units[0].placement = Placement::At("0304".into());
        d.units[1].placement = Placement::Enter {
            turn: 3,
            area: "W".into(),
        };
        d.units.push(UnitDef {
            id: "c".into(),
            side: "red".into(),
            kind: "tank".into(),
            faces: vec!["4-2-6".into()],
            placement: Placement::At("0101".into()),
            ..UnitDef::default()
        });
        d.meta.name = "U".into();
        let out = f.render(&d);
        assert!(out.contains("name = \"U\"   # the name"), "{out}");
        assert!(out.contains("at = \"0304\"   # by the river"), "{out}");
        assert!(out.contains("# first unit\n[[units]]\nid = \"a\""), "{out}");
        assert!(out.contains("enter = { turn = 3, area = \"W\" }"), "{out}");
        // the new unit goes after the last unit, before the objectives
        let c = out.find("id = \"c\"").expect("new unit");
        let obj = out.find("[[objectives]]").expect("objectives");
        assert!(c < obj, "{out}");
        let back = ScenarioFile::parse(&out).expect("toml");
        assert_eq!(back.def, d);
    }

    #[test]
    fn a_unit_added_after_an_empty_last_table_goes_below_its_commented_keys() {
        // a `kessel new scenario` skeleton ends with `[vars]` and its keys commented out
        let text = "[scenario]\nname = \"S\"\n\n[vars]\n# bonus = …   # int: VP for red\n";
        let f = ScenarioFile::parse(text).expect("toml");
        let mut d = f.def.clone();
        d.units.push(UnitDef {
            id: "c".into(),
            side: "red".into(),
            kind: "tank".into(),
            faces: vec!["4-2-6".into()],
            placement: Placement::At("0101".into()),
            ..UnitDef::default()
        });
        let out = f.render(&d);
        let vars = out.find("[vars]").expect("vars");
        let key = out.find("# bonus").expect("the commented key");
        let unit = out.find("[[units]]").expect("the new unit");
        assert!(vars < key && key < unit, "{out}");
        assert!(out.ends_with("at = \"0101\"\n"), "{out}");
        assert_eq!(ScenarioFile::parse(&out).expect("toml").def, d);
        // a file whose text after the last table is blank is written as before
        let plain = f.render(&f.def.clone());
        assert_eq!(plain, text);
    }

    #[test]
    fn removing_a_unit_removes_its_table() {
        let f = ScenarioFile::parse(TEXT).expect("toml");
        let mut d = f.def.clone();
        d.units.remove(0);
        let out = f.render(&d);
        assert!(!out.contains("first unit"), "{out}");
        assert_eq!(ScenarioFile::parse(&out).expect("toml").def, d);
    }
}
