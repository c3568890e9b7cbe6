//! The map style: how each terrain, hexside kind, place kind, side and unit type is drawn, read
//! from what the ruleset declared (`kessel.terrain{ id, name, color, marks }`, …, see
//! `docs/lua-api.md`), with a stable fallback for anything undeclared so nothing is ever left
//! undrawn for want of a style.
//!
//! Built once per ruleset load; the per-frame lookups go through [`MapKinds`], indexed by the
//! map's own kind ids.

use crate::color::{hashed, Rgb, Tone};
use kessel_core::map::Map;
use kessel_core::ruleset::{KindDecl, Ruleset};
use kessel_core::state::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The constant a ruleset declares its sides' display names and colours in:
/// `kessel.constant("side_style", { red = { name = "Red", color = "#c05040" } })`.
pub const SIDE_STYLE_CONSTANT: &str = kessel_core::ruleset::SIDE_STYLE;

/// Small marks drawn in a hex so terrains differ by more than colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marks {
    /// A plain fill.
    None,
    /// Three tree tops.
    Trees,
    /// Three short reed lines.
    Marsh,
}

/// How a terrain is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct TerrainStyle {
    /// Display name.
    pub name: String,
    /// Fill.
    pub fill: Rgb,
    /// Marks over the fill.
    pub marks: Marks,
}

/// How a hexside kind is drawn: on the shared edge (a feature such as a river) or from centre to
/// centre (a link such as a road).
#[derive(Clone, Debug, PartialEq)]
pub struct HexsideStyle {
    /// Display name.
    pub name: String,
    /// Line colour.
    pub color: Rgb,
    /// Drawn centre to centre.
    pub link: bool,
    /// Drawn as a thin line with cross-ties (a railway) rather than a cased band.
    pub ticks: bool,
    /// Line width in hex radii.
    pub width: f32,
}

/// The symbol of a place kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PlaceSymbol {
    /// A filled square; its places' names are set in bold.
    Square,
    /// A filled dot.
    Dot,
    /// A filled diamond.
    Diamond,
}

/// How a place kind is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaceStyle {
    /// Display name.
    pub name: String,
    /// Symbol fill.
    pub color: Rgb,
    /// Symbol.
    pub symbol: PlaceSymbol,
}

/// How a side's counters look.
#[derive(Clone, Debug, PartialEq)]
pub struct SideStyle {
    /// Display name.
    pub name: String,
    /// Counter colour.
    pub color: Rgb,
}

/// The symbol in a counter's box (NATO style).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitSymbol {
    /// Crossed box.
    Infantry,
    /// Oval (tracks).
    Armour,
    /// Crossed box with an oval.
    Mechanized,
    /// Diagonal slash.
    Cavalry,
    /// Filled dot.
    Artillery,
    /// A star with the leader's rating.
    Leader,
    /// The type name, written out.
    Other,
}

impl UnitSymbol {
    /// The symbol a `symbol` field names.
    pub fn from_name(name: &str) -> Option<UnitSymbol> {
        Some(match name {
            "infantry" => UnitSymbol::Infantry,
            "armour" | "armor" => UnitSymbol::Armour,
            "mechanized" => UnitSymbol::Mechanized,
            "cavalry" => UnitSymbol::Cavalry,
            "artillery" => UnitSymbol::Artillery,
            "leader" => UnitSymbol::Leader,
            "none" => UnitSymbol::Other,
            _ => return None,
        })
    }
}

/// Counter colours for sides the ruleset gives none, by the side's place in play order; muted so
/// black print reads on all of them.
const SIDE_PALETTE: [Rgb; 6] = [
    Rgb::new(0xa9, 0xbf, 0xd3),
    Rgb::new(0xeb, 0x94, 0x78),
    Rgb::new(0xb9, 0xe0, 0xa5),
    Rgb::new(0xe7, 0xc7, 0xf0),
    Rgb::new(0xf5, 0xd7, 0x7a),
    Rgb::new(0x9f, 0xd8, 0xe0),
];

/// Default line widths, in hex radii.
const FEATURE_WIDTH: f32 = 0.15;
const LINK_WIDTH: f32 = 0.14;
const TICKS_WIDTH: f32 = 0.07;

/// `major_city` → `Major city`: an id as a name when none is declared.
pub fn id_as_name(id: &str) -> String {
    let words = id.replace(['_', '-'], " ");
    let mut c = words.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn text<'a>(props: &'a Value, key: &str) -> Option<&'a str> {
    props.get(key).and_then(Value::as_str)
}

fn color(props: &Value) -> Option<Rgb> {
    text(props, "color").and_then(Rgb::parse)
}

/// Everything needed to draw a map, as the ruleset declared it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapStyle {
    terrains: BTreeMap<String, TerrainStyle>,
    hexsides: BTreeMap<String, HexsideStyle>,
    /// Hexside kinds declared with no `kind`: links if the movement declaration lists them.
    undecided: BTreeSet<String>,
    places: BTreeMap<String, PlaceStyle>,
    sides: Vec<String>,
    side_styles: BTreeMap<String, SideStyle>,
    unit_symbols: BTreeMap<String, UnitSymbol>,
    /// The parts of a string face, by unit type (`face_fields`), for printing named faces.
    face_fields: BTreeMap<String, Vec<String>>,
}

impl MapStyle {
    /// The style of a ruleset's declarations.
    pub fn from_ruleset(r: &Ruleset) -> MapStyle {
        let mut s = MapStyle {
            sides: r.sides.clone(),
            ..MapStyle::default()
        };
        for d in &r.terrains {
            s.terrains.insert(d.id.clone(), terrain_of(d));
        }
        let movement_links: BTreeSet<&str> = r
            .movement
            .as_ref()
            .and_then(|m| m.get("links"))
            .and_then(Value::as_object)
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        for d in &r.hexside_kinds {
            let link = match text(&d.props, "kind") {
                Some("link") => true,
                Some(_) => false,
                None => {
                    s.undecided.insert(d.id.clone());
                    movement_links.contains(d.id.as_str())
                }
            };
            s.hexsides.insert(d.id.clone(), hexside_of(d, link));
        }
        for d in &r.place_kinds {
            s.places.insert(d.id.clone(), place_of(&d.id, &d.props));
        }
        if let Some(Value::Object(sides)) = r.constants.get(SIDE_STYLE_CONSTANT) {
            for (id, props) in sides {
                let name = text(props, "name").map_or_else(|| id_as_name(id), str::to_string);
                let color = color(props).unwrap_or_else(|| s.fallback_side_color(id));
                s.side_styles.insert(id.clone(), SideStyle { name, color });
            }
        }
        for (id, props) in &r.unit_types {
            if let Some(sym) = text(props, "symbol").and_then(UnitSymbol::from_name) {
                s.unit_symbols.insert(id.clone(), sym);
            }
            if let Some(fields) = props.get("face_fields").and_then(Value::as_array) {
                let names = fields.iter().filter_map(Value::as_str).map(str::to_string);
                s.face_fields.insert(id.clone(), names.collect());
            }
        }
        s
    }

    /// Adds sides (in order) that the ruleset did not declare, so a picture drawn without a
    /// ruleset still gives each side its own palette colour.
    pub fn with_sides<'a>(mut self, sides: impl IntoIterator<Item = &'a str>) -> MapStyle {
        for side in sides {
            if !self.sides.iter().any(|s| s == side) {
                self.sides.push(side.to_string());
            }
        }
        self
    }

    /// The terrain ids the ruleset declares, by id (none without a ruleset).
    pub fn terrain_ids(&self) -> impl Iterator<Item = &str> {
        self.terrains.keys().map(String::as_str)
    }

    /// The hexside kinds the ruleset declares, by id: the links (roads, railways: drawn centre
    /// to centre) or the features along edges (rivers); none without a ruleset.
    pub fn hexside_ids(&self, links: bool) -> impl Iterator<Item = &str> {
        (self.hexsides.iter())
            .filter(move |(_, h)| h.link == links)
            .map(|(id, _)| id.as_str())
    }

    /// The place kinds the ruleset declares, by id (none without a ruleset).
    pub fn place_ids(&self) -> impl Iterator<Item = &str> {
        self.places.keys().map(String::as_str)
    }

    /// A terrain's style.
    pub fn terrain(&self, id: &str) -> TerrainStyle {
        self.terrains
            .get(id)
            .cloned()
            .unwrap_or_else(|| TerrainStyle {
                name: id_as_name(id),
                fill: hashed(id, Tone::Light),
                marks: Marks::None,
            })
    }

    /// A hexside kind's style; `authored_as_link` (the map draws it as paths) decides for a kind
    /// the ruleset does not declare.
    pub fn hexside(&self, id: &str, authored_as_link: bool) -> HexsideStyle {
        match self.hexsides.get(id) {
            Some(s) if self.undecided.contains(id) && authored_as_link && !s.link => HexsideStyle {
                link: true,
                width: LINK_WIDTH,
                ..s.clone()
            },
            Some(s) => s.clone(),
            None => HexsideStyle {
                name: id_as_name(id),
                color: hashed(id, Tone::Dark),
                link: authored_as_link,
                ticks: false,
                width: if authored_as_link {
                    LINK_WIDTH
                } else {
                    FEATURE_WIDTH
                },
            },
        }
    }

    /// A place kind's style.
    pub fn place(&self, id: &str) -> PlaceStyle {
        self.places
            .get(id)
            .cloned()
            .unwrap_or_else(|| place_of(id, &Value::Null))
    }

    /// A side's style: declared, or a palette colour by the side's place in play order.
    pub fn side(&self, id: &str) -> SideStyle {
        self.side_styles
            .get(id)
            .cloned()
            .unwrap_or_else(|| SideStyle {
                name: id_as_name(id),
                color: self.fallback_side_color(id),
            })
    }

    /// The sides in play order (declared, then any added by [`MapStyle::with_sides`]).
    pub fn sides(&self) -> &[String] {
        &self.sides
    }

    fn fallback_side_color(&self, id: &str) -> Rgb {
        self.sides
            .iter()
            .position(|s| s == id)
            .and_then(|i| SIDE_PALETTE.get(i).copied())
            .unwrap_or_else(|| hashed(id, Tone::Light))
    }

    /// The values printed on a counter: its A-D-M face (`4-2-6`); a named face in its type's
    /// `face_fields` order (`6-4-8`), or its `label` (`9-1`), or its first text value (a
    /// weapon's name, `LMG`), or its values in name order; `?` for a hidden unit and `–` for one
    /// with no face left.
    pub fn face_text(&self, unit: &kessel_core::state::Unit) -> String {
        if unit.hidden {
            return "?".to_string();
        }
        self.step_text(unit, unit.step as usize)
    }

    /// The values printed on each of a unit's steps, front first (as [`MapStyle::face_text`]).
    pub fn steps_text(&self, unit: &kessel_core::state::Unit) -> Vec<String> {
        (0..unit.step_count())
            .map(|i| self.step_text(unit, i))
            .collect()
    }

    fn step_text(&self, unit: &kessel_core::state::Unit, step: usize) -> String {
        if let Some(f) = unit.faces.get(step) {
            return f.to_string();
        }
        let Some(named) = unit.named.get(step) else {
            return "–".to_string();
        };
        let part = |v: &Value| match v {
            Value::String(t) => t.clone(),
            other => other.to_string(),
        };
        if let Some(fields) = self.face_fields.get(&unit.kind) {
            if fields.iter().all(|f| named.contains_key(f)) {
                return fields
                    .iter()
                    .map(|f| part(&named[f]))
                    .collect::<Vec<_>>()
                    .join("-");
            }
        }
        if let Some(label) = named.get("label").and_then(Value::as_str) {
            return label.to_string();
        }
        // a weapon's or a vehicle's face: its name says more than its numbers
        if let Some(text) = named.values().find_map(Value::as_str) {
            return text.to_string();
        }
        named.values().map(part).collect::<Vec<_>>().join("-")
    }

    /// The symbol of a unit type (`Other` when the type declares none).
    pub fn unit_symbol(&self, unit_type: &str) -> UnitSymbol {
        self.unit_symbols
            .get(unit_type)
            .copied()
            .unwrap_or(UnitSymbol::Other)
    }

    /// The styles of a map's kinds, indexed by the map's kind ids, for drawing many hexes.
    pub fn for_map(&self, map: &Map) -> MapKinds {
        let authored_links: BTreeSet<&str> = map
            .features
            .iter()
            .filter(|f| !f.path.is_empty())
            .map(|f| f.kind.as_str())
            .collect();
        let hexsides: Vec<HexsideStyle> = map
            .side_kinds
            .names()
            .iter()
            .map(|n| self.hexside(n, authored_links.contains(n.as_str())))
            .collect();
        let link_mask = hexsides
            .iter()
            .enumerate()
            .take(32)
            .filter(|(_, s)| s.link)
            .fold(0u32, |m, (k, _)| m | (1 << k));
        MapKinds {
            terrains: map
                .terrains
                .names()
                .iter()
                .map(|n| self.terrain(n))
                .collect(),
            hexsides,
            link_mask,
        }
    }
}

fn terrain_of(d: &KindDecl) -> TerrainStyle {
    TerrainStyle {
        name: text(&d.props, "name").map_or_else(|| id_as_name(&d.id), str::to_string),
        fill: color(&d.props).unwrap_or_else(|| hashed(&d.id, Tone::Light)),
        marks: match text(&d.props, "marks") {
            Some("trees") => Marks::Trees,
            Some("marsh") => Marks::Marsh,
            _ => Marks::None,
        },
    }
}

fn hexside_of(d: &KindDecl, link: bool) -> HexsideStyle {
    let ticks = d.props.get("ticks").and_then(Value::as_bool) == Some(true);
    let default_width = match (link, ticks) {
        (true, true) => TICKS_WIDTH,
        (true, false) => LINK_WIDTH,
        _ => FEATURE_WIDTH,
    };
    HexsideStyle {
        name: text(&d.props, "name").map_or_else(|| id_as_name(&d.id), str::to_string),
        color: color(&d.props).unwrap_or_else(|| hashed(&d.id, Tone::Dark)),
        link,
        ticks,
        width: d
            .props
            .get("width")
            .and_then(Value::as_f64)
            .map_or(default_width, |w| (w as f32).clamp(0.01, 1.0)),
    }
}

fn place_of(id: &str, props: &Value) -> PlaceStyle {
    PlaceStyle {
        name: text(props, "name").map_or_else(|| id_as_name(id), str::to_string),
        color: color(props).unwrap_or_else(|| hashed(id, Tone::Dark)),
        symbol: match text(props, "symbol") {
            Some("square") => PlaceSymbol::Square,
            Some("diamond") => PlaceSymbol::Diamond,
            _ => PlaceSymbol::Dot,
        },
    }
}

/// A map's kinds styled, by the map's kind ids.
#[derive(Clone, Debug, PartialEq)]
pub struct MapKinds {
    /// By terrain id.
    pub terrains: Vec<TerrainStyle>,
    /// By hexside kind id.
    pub hexsides: Vec<HexsideStyle>,
    /// Bits of the hexside kinds drawn as links.
    pub link_mask: u32,
}

impl MapKinds {
    /// A terrain's style by the map's id (a plain grey for an id the map does not have).
    pub fn terrain(&self, id: u16) -> &TerrainStyle {
        static UNKNOWN: std::sync::OnceLock<TerrainStyle> = std::sync::OnceLock::new();
        self.terrains.get(id as usize).unwrap_or_else(|| {
            UNKNOWN.get_or_init(|| TerrainStyle {
                name: "?".into(),
                fill: Rgb::new(128, 128, 128),
                marks: Marks::None,
            })
        })
    }

    /// The hexside kind ids set in `bits`, with their styles.
    pub fn hexsides_in(&self, bits: u32) -> impl Iterator<Item = (u16, &HexsideStyle)> {
        self.hexsides
            .iter()
            .enumerate()
            .take(32)
            .filter(move |(k, _)| bits & (1 << k) != 0)
            .map(|(k, s)| (k as u16, s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn decl(id: &str, props: Value) -> KindDecl {
        KindDecl {
            id: id.into(),
            props,
        }
    }

    fn ruleset() -> Ruleset {
        let mut r = Ruleset {
            sides: vec!["red".into(), "blue".into(), "green".into()],
            ..Ruleset::default()
        };
        r.terrains.push(decl(
            "woods",
            json!({"name": "Woods", "color": "#4a7a3a", "marks": "trees"}),
        ));
        r.hexside_kinds.push(decl(
            "river",
            json!({"kind": "feature", "color": "#3060c0"}),
        ));
        r.hexside_kinds
            .push(decl("rail", json!({"kind": "link", "ticks": true})));
        r.hexside_kinds.push(decl("track", json!({})));
        r.place_kinds
            .push(decl("town", json!({"name": "Town", "symbol": "square"})));
        r.movement = Some(json!({"links": {"track": {"default": 1}}}));
        r.constants.insert(
            SIDE_STYLE_CONSTANT.into(),
            json!({"red": {"name": "Reds", "color": "#c05040"}}),
        );
        r.unit_types
            .insert("inf".into(), json!({"symbol": "infantry"}));
        r
    }

    #[test]
    fn counters_print_named_faces_in_the_types_field_order() {
        let mut r = ruleset();
        r.unit_types.insert(
            "squad".into(),
            json!({"face_fields": ["firepower", "range", "morale"]}),
        );
        let s = MapStyle::from_ruleset(&r);
        let face = |pairs: Value| -> kessel_core::state::NamedFace {
            serde_json::from_value(pairs).expect("a face")
        };
        let mut squad = kessel_core::state::Unit::new("s", "red", "squad");
        squad.named = vec![face(json!({"firepower": 6, "range": 4, "morale": 8}))];
        assert_eq!(
            s.face_text(&squad),
            "6-4-8",
            "printed order, not name order"
        );
        squad
            .named
            .push(face(json!({"firepower": 3, "range": 4, "morale": 8})));
        squad.step = 1;
        assert_eq!(s.face_text(&squad), "3-4-8", "the step it is on");
        assert_eq!(s.steps_text(&squad), vec!["6-4-8", "3-4-8"]);
        let mut leader = kessel_core::state::Unit::new("l", "red", "leader");
        leader.named = vec![face(json!({"morale": 9, "drm": -1, "label": "9-1"}))];
        assert_eq!(
            s.face_text(&leader),
            "9-1",
            "a label when the type names no fields"
        );
        let mut gun = kessel_core::state::Unit::new("g", "red", "gun");
        gun.named = vec![face(json!({"weapon": "57L AT", "pp": 1, "repair": 2}))];
        assert_eq!(s.face_text(&gun), "57L AT", "a name rather than numbers");
        let mut counted = kessel_core::state::Unit::new("c", "red", "cache");
        counted.named = vec![face(json!({"a": 1, "b": 2}))];
        assert_eq!(s.face_text(&counted), "1-2");
        squad.hidden = true;
        assert_eq!(s.face_text(&squad), "?");
        let spent = kessel_core::state::Unit::new("x", "red", "inf");
        assert_eq!(s.face_text(&spent), "–");
    }

    #[test]
    fn declarations_give_names_colours_and_kinds() {
        let s = MapStyle::from_ruleset(&ruleset());
        let woods = s.terrain("woods");
        assert_eq!(woods.name, "Woods");
        assert_eq!(woods.fill, Rgb::new(0x4a, 0x7a, 0x3a));
        assert_eq!(woods.marks, Marks::Trees);
        let river = s.hexside("river", true);
        assert!(!river.link, "declared a feature, whatever the map authored");
        assert_eq!(river.color.to_hex(), "#3060c0");
        assert!(s.hexside("rail", false).link && s.hexside("rail", false).ticks);
        assert!(
            s.hexside("track", false).link,
            "listed under movement links"
        );
        assert_eq!(s.place("town").symbol, PlaceSymbol::Square);
        assert_eq!(s.place("town").name, "Town");
        assert_eq!(s.side("red").name, "Reds");
        assert_eq!(s.side("red").color.to_hex(), "#c05040");
        assert_eq!(s.unit_symbol("inf"), UnitSymbol::Infantry);
        assert_eq!(s.unit_symbol("zeppelin"), UnitSymbol::Other);
    }

    #[test]
    fn undeclared_kinds_fall_back_to_stable_styles() {
        let s = MapStyle::from_ruleset(&ruleset());
        assert_eq!(s.terrain("quagmire"), s.terrain("quagmire"));
        assert_eq!(s.terrain("quagmire").name, "Quagmire");
        assert_ne!(s.terrain("quagmire").fill, s.terrain("tundra").fill);
        assert!(s.hexside("canal", true).link);
        assert!(!s.hexside("wall", false).link);
        assert_eq!(s.place("major_city").name, "Major city");
        assert_eq!(s.place("hamlet").symbol, PlaceSymbol::Dot);
        // palette by play order; a side nobody declared gets a hashed colour
        assert_eq!(s.side("blue").color, SIDE_PALETTE[1]);
        assert_eq!(s.side("blue").name, "Blue");
        assert_eq!(s.side("mauve"), s.side("mauve"));
        let bare = MapStyle::default().with_sides(["x", "y"]);
        assert_eq!(bare.side("y").color, SIDE_PALETTE[1]);
    }
}
