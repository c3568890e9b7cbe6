//! The scenario as the editor edits it: plain data read from the scenario TOML
//! ([`ScenarioDef`]), and the writer that puts edited data back into the author's document with
//! `toml_edit`, touching only the values that changed so comments, key order and layout survive.
//!
//! The data mirrors the file, not the engine: a unit keeps the hex label it was written with, so
//! a unit placed off the map stays visible as a problem instead of vanishing on load. The engine's
//! checks run on the text [`ScenarioFile::render`] produces (see [`crate::validate`]).

use kessel_core::hex::Hex;
use kessel_core::map::Map;
use kessel_core::scenario::{expand_label, Objective};
use kessel_core::state::{Entry, Face, Location, Unit};
use std::collections::{BTreeMap, BTreeSet};
use toml_edit::{Array, ArrayOfTables, DocumentMut, InlineTable, Item, Table, Value};

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
}

impl ScenarioDef {
    /// A unit by id.
    pub fn unit(&self, id: &str) -> Option<&UnitDef> {
        self.units.iter().find(|u| u.id == id)
    }

    /// The last turn of the scenario.
    pub fn last_turn(&self) -> u32 {
        self.meta.first_turn + self.meta.turns.saturating_sub(1)
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
                Unit {
                    id: u.id.clone(),
                    name: u.name.clone().unwrap_or_else(|| u.id.clone()),
                    side: u.side.clone(),
                    kind: u.kind.clone(),
                    formation: u.formation.clone(),
                    faces: u.faces.iter().filter_map(|f| Face::parse(f)).collect(),
                    step: 0,
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
    }
}

// ------------------------------------------------------------------------------------------------
// writing
// ------------------------------------------------------------------------------------------------

/// Replaces a value, keeping the comment and spacing around the old one.
fn put(t: &mut Table, key: &str, v: impl Into<Value>) {
    let mut v: Value = v.into();
    match t.get_mut(key) {
        Some(Item::Value(old)) => {
            *v.decor_mut() = old.decor().clone();
            *old = v;
        }
        _ => {
            t.insert(key, Item::Value(v));
        }
    }
}

fn put_str(t: &mut Table, key: &str, v: Option<&str>) {
    match v {
        Some(v) if str_of(t, key).as_deref() != Some(v) => put(t, key, v),
        Some(_) => {}
        None => {
            t.remove(key);
        }
    }
}

fn put_int(t: &mut Table, key: &str, v: Option<i64>) {
    match v {
        Some(v) if int_of(t, key) != Some(v) => put(t, key, v),
        Some(_) => {}
        None => {
            t.remove(key);
        }
    }
}

fn put_strings(t: &mut Table, key: &str, v: &[String], keep_empty: bool) {
    if v.is_empty() && !keep_empty {
        t.remove(key);
    } else if strings_of(t, key) != v || t.get(key).is_none() {
        put(t, key, v.iter().map(String::as_str).collect::<Array>());
    }
}

fn write_unit(t: &mut Table, u: &UnitDef) {
    put_str(t, "id", Some(&u.id));
    put_str(t, "name", u.name.as_deref());
    put_str(t, "side", Some(&u.side));
    put_str(t, "type", Some(&u.kind));
    put_str(t, "formation", u.formation.as_deref());
    put_strings(t, "faces", &u.faces, false);
    if u.hidden {
        if t.get("hidden").and_then(Item::as_bool) != Some(true) {
            put(t, "hidden", true);
        }
    } else if t.get("hidden").and_then(Item::as_bool) == Some(true) {
        t.remove("hidden");
    }
    put_str(t, "pool", u.pool.as_deref());
    if placement_of(t) != u.placement {
        match &u.placement {
            Placement::Unplaced => {
                for k in ["at", "area", "enter"] {
                    t.remove(k);
                }
            }
            Placement::At(l) => {
                t.remove("area");
                t.remove("enter");
                put_str(t, "at", Some(l));
            }
            Placement::Area(a) => {
                t.remove("at");
                t.remove("enter");
                put_str(t, "area", Some(a));
            }
            Placement::Enter { turn, area } => {
                t.remove("at");
                t.remove("area");
                match t.get_mut("enter").and_then(Item::as_inline_table_mut) {
                    // an inline table stays one: change its values where they are
                    Some(e) => {
                        if e.get("turn").and_then(Value::as_integer) != Some(i64::from(*turn)) {
                            let decor = e.get("turn").map(|v| v.decor().clone());
                            let mut v = Value::from(i64::from(*turn));
                            if let Some(d) = decor {
                                *v.decor_mut() = d;
                            }
                            e.insert("turn", v);
                        }
                        if e.get("area").and_then(Value::as_str) != Some(area.as_str()) {
                            let decor = e.get("area").map(|v| v.decor().clone());
                            let mut v = Value::from(area.as_str());
                            if let Some(d) = decor {
                                *v.decor_mut() = d;
                            }
                            e.insert("area", v);
                        }
                    }
                    None => {
                        t.remove("enter");
                        let mut e = InlineTable::new();
                        e.insert("turn", i64::from(*turn).into());
                        e.insert("area", area.as_str().into());
                        t.insert("enter", Item::Value(Value::InlineTable(e)));
                    }
                }
            }
        }
    }
    if attrs_of(t) != u.attrs {
        if u.attrs.is_empty() {
            t.remove("attrs");
        } else {
            let mut a = InlineTable::new();
            for (k, v) in &u.attrs {
                a.insert(k, (*v).into());
            }
            put(t, "attrs", Value::InlineTable(a));
        }
    }
}

fn write_objective(t: &mut Table, o: &ObjectiveDef) {
    put_str(t, "place", o.place.as_deref());
    put_str(t, "name", o.name.as_deref());
    put_strings(t, "hexes", &o.hexes, false);
    put_int(t, "vp", Some(o.vp));
    put_str(t, "side", o.side.as_deref());
}

fn write_level(t: &mut Table, l: &LevelDef) {
    put_str(t, "name", Some(&l.name));
    put_int(t, "max", l.max);
}

/// A new `[[key]]` table, with a blank line before its header as the format's examples have.
fn new_table() -> Table {
    let mut t = Table::new();
    t.decor_mut().set_prefix("\n");
    t
}

/// The array of tables under `key`, created (after the existing tables) if missing.
fn aot_mut<'a>(doc: &'a mut DocumentMut, key: &str) -> Option<&'a mut ArrayOfTables> {
    if doc.get(key).is_none() {
        doc.insert(key, Item::ArrayOfTables(ArrayOfTables::new()));
    }
    doc.get_mut(key).and_then(Item::as_array_of_tables_mut)
}

/// Writes tables matched by position (objectives, levels: they have no id).
fn write_by_index<T>(
    doc: &mut DocumentMut,
    key: &str,
    old: &[T],
    new: &[T],
    write: fn(&mut Table, &T),
) where
    T: PartialEq,
{
    if old == new {
        return;
    }
    if new.is_empty() {
        doc.remove(key);
        return;
    }
    let Some(aot) = aot_mut(doc, key) else {
        return;
    };
    let mut tables: Vec<Table> = aot.iter().cloned().collect();
    tables.truncate(new.len());
    while tables.len() < new.len() {
        tables.push(new_table());
    }
    aot.clear();
    for (mut t, v) in tables.into_iter().zip(new) {
        write(&mut t, v);
        aot.push(t);
    }
}

fn write_def(doc: &mut DocumentMut, old: &ScenarioDef, new: &ScenarioDef) {
    if old.meta != new.meta {
        if let Some(h) = doc.get_mut("scenario").and_then(Item::as_table_mut) {
            let m = &new.meta;
            put_str(h, "name", Some(&m.name));
            put_int(h, "turns", Some(i64::from(m.turns)));
            put_str(h, "profile", m.profile.as_deref());
            if str_of(h, "notes").unwrap_or_default() != m.notes {
                if m.notes.is_empty() {
                    h.remove("notes");
                } else {
                    put(h, "notes", m.notes.as_str());
                }
            }
        }
    }
    if old.units != new.units {
        if new.units.is_empty() {
            doc.remove("units");
        } else if let Some(aot) = aot_mut(doc, "units") {
            // match tables by id so a moved or edited unit keeps its comments
            let mut old_tables: Vec<Table> = aot.iter().cloned().collect();
            aot.clear();
            for u in &new.units {
                let found = old_tables
                    .iter()
                    .position(|t| str_of(t, "id").as_deref() == Some(u.id.as_str()));
                let mut t = match found {
                    Some(i) => old_tables.remove(i),
                    None => new_table(),
                };
                write_unit(&mut t, u);
                aot.push(t);
            }
        }
    }
    write_by_index(
        doc,
        "objectives",
        &old.objectives,
        &new.objectives,
        write_objective,
    );
    write_by_index(doc, "levels", &old.levels, &new.levels, write_level);
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
    fn removing_a_unit_removes_its_table() {
        let f = ScenarioFile::parse(TEXT).expect("toml");
        let mut d = f.def.clone();
        d.units.remove(0);
        let out = f.render(&d);
        assert!(!out.contains("first unit"), "{out}");
        assert_eq!(ScenarioFile::parse(&out).expect("toml").def, d);
    }
}
