//! The map: bounds, terrain per hex, features on hexsides (rivers, lakes, roads, railways, …),
//! named places, areas and free tags.
//!
//! The map names its terrain and feature kinds with strings and interns them; what a kind *means*
//! (its movement cost, its combat effect) is for the ruleset to say. Storage is dense so the
//! movement field and path tracing read it with array lookups.

mod cut;

pub use cut::{CutMap, CutNote};

use crate::hex::{Hex, HexDir, Hexside};
use crate::numbering::Numbering;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// An interned name (terrain, hexside kind, place kind): index into [`Catalog::names`].
pub type KindId = u16;

/// Interned names of one category, in first-use order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Catalog {
    names: Vec<String>,
}

impl Catalog {
    /// The id of `name`, interning it if new.
    pub fn intern(&mut self, name: &str) -> KindId {
        if let Some(id) = self.get(name) {
            return id;
        }
        self.names.push(name.to_string());
        (self.names.len() - 1) as KindId
    }

    /// The id of `name`, if known.
    pub fn get(&self, name: &str) -> Option<KindId> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| i as KindId)
    }

    /// The name of `id`.
    pub fn name(&self, id: KindId) -> &str {
        self.names
            .get(id as usize)
            .map(String::as_str)
            .unwrap_or("?")
    }

    /// All names, in id order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The bit of `name` in a 32-bit set of this category's kinds (the hexside kinds on a side,
    /// the place kinds of a hex), if it is known and has one.
    pub fn bit(&self, name: &str) -> Option<u32> {
        self.get(name).and_then(|k| 1u32.checked_shl(u32::from(k)))
    }

    /// [`Catalog::bit`], interning `name` if new; `None`, with nothing interned, for a 33rd name.
    /// (Interned before the limit was checked, the refused kind stayed in the catalog, and every
    /// reader of a side's or hex's bits shifted by 32: a panic, or in a release build the first
    /// kind's bit, so `has_side(a, b, "k33")` answered for `k1`.)
    pub fn intern_bit(&mut self, name: &str) -> Option<u32> {
        if self.get(name).is_none() && self.names.len() >= 32 {
            return None;
        }
        1u32.checked_shl(u32::from(self.intern(name)))
    }
}

/// A named place (a city, a town): one or more hexes of one kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    /// Name shown to players.
    pub name: String,
    /// Place kind (e.g. a city class), a name the ruleset gives meaning to.
    pub kind: String,
    /// Its hexes.
    pub hexes: Vec<Hex>,
}

/// A named set of hexes: entry areas, set-up zones.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Area {
    /// Short id used by scenarios and rules (e.g. `"C"`).
    pub id: String,
    /// Name shown to players.
    pub name: String,
    /// Its hexes, in file order.
    pub hexes: Vec<Hex>,
}

/// A named chain of hexside features (a river) or hex-to-hex links (a road), kept for saving and
/// drawing; the per-hexside bits are the source of truth for rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Feature {
    /// Hexside kind name.
    pub kind: String,
    /// Optional name (`"Dnieper"`).
    pub name: Option<String>,
    /// For hexside features: the sides.
    pub sides: Vec<Hexside>,
    /// For links: the hexes in path order.
    pub path: Vec<Hex>,
}

/// The game map.
#[derive(Clone, Debug, PartialEq)]
pub struct Map {
    /// Map name.
    pub name: String,
    columns: i32,
    rows: i32,
    numbering: Numbering,
    /// Terrain names.
    pub terrains: Catalog,
    /// Hexside kind names (rivers and roads alike).
    pub side_kinds: Catalog,
    /// Place kind names.
    pub place_kinds: Catalog,
    terrain: Vec<KindId>,
    /// Place-kind bits per hex.
    place_bits: Vec<u32>,
    /// Hexside-kind bits, three per padded cell (N, NE, SE).
    side_bits: Vec<u32>,
    /// Named places.
    pub places: Vec<Place>,
    /// Named areas by id.
    pub areas: BTreeMap<String, Area>,
    /// Free tags → hexes.
    pub tags: BTreeMap<String, Vec<Hex>>,
    /// Named features, as authored.
    pub features: Vec<Feature>,
}

/// Why a map edit failed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MapError {
    /// A hex outside the map.
    #[error("hex {0} is off the map")]
    OffMap(String),
    /// Two hexes that should be adjacent are not.
    #[error("hexes {0} and {1} are not adjacent")]
    NotAdjacent(String, String),
    /// Too many kinds of one category for the bitsets.
    #[error("too many {0} kinds (at most 32)")]
    TooManyKinds(&'static str),
}

/// The most columns or rows a map may have (see [`Numbering::size_problem`] for what each
/// numbering allows below it).
pub use crate::numbering::MAX_SIDE;

impl Map {
    /// An empty map of `columns × rows` hexes, all of terrain `default_terrain`.
    ///
    /// Sizes are clamped to `0..=`[`MAX_SIDE`], so no size can wrap or allocate without bound;
    /// loaders refuse larger sizes with a located error before calling this.
    pub fn new(
        name: &str,
        columns: u32,
        rows: u32,
        numbering: Numbering,
        default_terrain: &str,
    ) -> Map {
        let mut terrains = Catalog::default();
        let t = terrains.intern(default_terrain);
        let (columns, rows) = (columns.min(MAX_SIDE), rows.min(MAX_SIDE));
        let cells = columns as usize * rows as usize;
        let padded = (columns as usize + 2) * (rows as usize + 2);
        Map {
            name: name.to_string(),
            columns: columns as i32,
            rows: rows as i32,
            numbering,
            terrains,
            side_kinds: Catalog::default(),
            place_kinds: Catalog::default(),
            terrain: vec![t; cells],
            place_bits: vec![0; cells],
            side_bits: vec![0; padded * 3],
            places: Vec::new(),
            areas: BTreeMap::new(),
            tags: BTreeMap::new(),
            features: Vec::new(),
        }
    }

    /// Number of columns.
    pub fn columns(&self) -> u32 {
        self.columns as u32
    }

    /// Number of rows.
    pub fn rows(&self) -> u32 {
        self.rows as u32
    }

    /// Number of hexes.
    pub fn len(&self) -> usize {
        self.terrain.len()
    }

    /// True for a map without hexes.
    pub fn is_empty(&self) -> bool {
        self.terrain.is_empty()
    }

    /// The numbering scheme.
    pub fn numbering(&self) -> &Numbering {
        &self.numbering
    }

    /// The printed label of a hex.
    pub fn label(&self, hex: Hex) -> String {
        self.numbering.label(hex)
    }

    /// Parses a label and checks it is on the map.
    pub fn parse(&self, label: &str) -> Option<Hex> {
        self.numbering.parse(label).filter(|h| self.contains(*h))
    }

    /// 0-based (column, row) of a hex.
    pub fn offset(&self, hex: Hex) -> (i32, i32) {
        self.numbering.hex_to_offset(hex)
    }

    /// The hex at 0-based (column, row).
    pub fn hex_at(&self, col: i32, row: i32) -> Hex {
        self.numbering.offset_to_hex(col, row)
    }

    /// True if the hex is on the map.
    pub fn contains(&self, hex: Hex) -> bool {
        let (c, r) = self.offset(hex);
        c >= 0 && c < self.columns && r >= 0 && r < self.rows
    }

    /// Dense index of an on-map hex (column-major), or `None` off the map.
    pub fn index(&self, hex: Hex) -> Option<usize> {
        let (c, r) = self.offset(hex);
        (c >= 0 && c < self.columns && r >= 0 && r < self.rows)
            .then(|| (c * self.rows + r) as usize)
    }

    /// The hex of a dense index.
    pub fn hex_of_index(&self, index: usize) -> Hex {
        let c = index as i32 / self.rows;
        let r = index as i32 % self.rows;
        self.hex_at(c, r)
    }

    /// Every hex, column by column.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        (0..self.len()).map(|i| self.hex_of_index(i))
    }

    /// True if the hex lies on the map's outer ring in the given compass sense (`"north"`,
    /// `"south"`, `"east"`, `"west"`).
    pub fn on_edge(&self, hex: Hex, edge: &str) -> bool {
        let (c, r) = self.offset(hex);
        if !self.contains(hex) {
            return false;
        }
        match edge {
            "north" => r == 0,
            "south" => r == self.rows - 1,
            "west" => c == 0,
            "east" => c == self.columns - 1,
            _ => false,
        }
    }

    fn padded_side_index(&self, side: Hexside) -> Option<usize> {
        let (c, r) = self.offset(side.hex);
        let (pc, pr) = (c + 1, r + 1);
        if pc < 0 || pc >= self.columns + 2 || pr < 0 || pr >= self.rows + 2 {
            return None;
        }
        Some(((pc * (self.rows + 2) + pr) * 3 + side.dir as i32) as usize)
    }

    /// Terrain id of an on-map hex.
    pub fn terrain(&self, hex: Hex) -> Option<KindId> {
        self.index(hex).map(|i| self.terrain[i])
    }

    /// Terrain name of an on-map hex.
    pub fn terrain_name(&self, hex: Hex) -> Option<&str> {
        self.terrain(hex).map(|t| self.terrains.name(t))
    }

    /// Terrain ids, dense by index.
    pub fn terrain_slice(&self) -> &[KindId] {
        &self.terrain
    }

    /// Sets the terrain of a hex.
    pub fn set_terrain(&mut self, hex: Hex, terrain: &str) -> Result<(), MapError> {
        let i = self
            .index(hex)
            .ok_or_else(|| MapError::OffMap(self.label(hex)))?;
        self.terrain[i] = self.terrains.intern(terrain);
        Ok(())
    }

    /// Bits of the hexside kinds on a side.
    pub fn side_bits(&self, side: Hexside) -> u32 {
        self.padded_side_index(side)
            .map(|i| self.side_bits[i])
            .unwrap_or(0)
    }

    /// True if the side carries the kind.
    pub fn side_has(&self, side: Hexside, kind: &str) -> bool {
        self.side_kinds
            .bit(kind)
            .is_some_and(|bit| self.side_bits(side) & bit != 0)
    }

    /// Names of the kinds on a side.
    pub fn side_kind_names(&self, side: Hexside) -> Vec<&str> {
        let bits = self.side_bits(side);
        (0..32u16)
            .filter(|k| bits & (1 << k) != 0)
            .map(|k| self.side_kinds.name(k))
            .collect()
    }

    fn kind_bit(&mut self, kind: &str) -> Result<u32, MapError> {
        self.side_kinds
            .intern_bit(kind)
            .ok_or(MapError::TooManyKinds("hexside"))
    }

    /// Adds or removes a kind on the side between two adjacent hexes.
    pub fn set_side(&mut self, a: Hex, b: Hex, kind: &str, on: bool) -> Result<(), MapError> {
        let side = Hexside::between(a, b)
            .ok_or_else(|| MapError::NotAdjacent(self.label(a), self.label(b)))?;
        if !self.contains(a) && !self.contains(b) {
            return Err(MapError::OffMap(self.label(a)));
        }
        let bit = self.kind_bit(kind)?;
        let i = self
            .padded_side_index(side)
            .ok_or_else(|| MapError::OffMap(self.label(a)))?;
        if on {
            self.side_bits[i] |= bit;
        } else {
            self.side_bits[i] &= !bit;
        }
        Ok(())
    }

    /// Place-kind bits of a hex.
    pub fn place_bits(&self, hex: Hex) -> u32 {
        self.index(hex).map(|i| self.place_bits[i]).unwrap_or(0)
    }

    /// True if the hex belongs to a place of the kind.
    pub fn hex_has_place_kind(&self, hex: Hex, kind: &str) -> bool {
        self.place_kinds
            .bit(kind)
            .is_some_and(|bit| self.place_bits(hex) & bit != 0)
    }

    /// Adds a named place.
    pub fn add_place(&mut self, place: Place) -> Result<(), MapError> {
        let bit = self
            .place_kinds
            .intern_bit(&place.kind)
            .ok_or(MapError::TooManyKinds("place"))?;
        for h in &place.hexes {
            let i = self
                .index(*h)
                .ok_or_else(|| MapError::OffMap(self.label(*h)))?;
            self.place_bits[i] |= bit;
        }
        self.places.push(place);
        Ok(())
    }

    /// Recomputes the place bits after places were edited directly.
    pub fn rebuild_place_bits(&mut self) {
        self.place_bits.iter_mut().for_each(|b| *b = 0);
        let places = std::mem::take(&mut self.places);
        for p in &places {
            // (a kind past the 32 that fit was refused when its place was added)
            let Some(bit) = self.place_kinds.intern_bit(&p.kind) else {
                continue;
            };
            for h in &p.hexes {
                if let Some(i) = self.index(*h) {
                    self.place_bits[i] |= bit;
                }
            }
        }
        self.places = places;
    }

    /// The place a hex belongs to, if any.
    pub fn place_at(&self, hex: Hex) -> Option<&Place> {
        self.places.iter().find(|p| p.hexes.contains(&hex))
    }

    /// A place by name.
    pub fn place(&self, name: &str) -> Option<&Place> {
        self.places.iter().find(|p| p.name == name)
    }

    /// Adds a hexside feature (a river) and sets its bits.
    pub fn add_side_feature(
        &mut self,
        kind: &str,
        name: Option<String>,
        sides: Vec<Hexside>,
    ) -> Result<(), MapError> {
        for s in &sides {
            let (a, b) = s.hexes();
            self.set_side(a, b, kind, true)?;
        }
        self.features.push(Feature {
            kind: kind.to_string(),
            name,
            sides,
            path: Vec::new(),
        });
        Ok(())
    }

    /// Adds a link (road, railway) along a path of adjacent hexes and sets its bits.
    pub fn add_link(
        &mut self,
        kind: &str,
        name: Option<String>,
        path: Vec<Hex>,
    ) -> Result<(), MapError> {
        for w in path.windows(2) {
            self.set_side(w[0], w[1], kind, true)?;
        }
        self.features.push(Feature {
            kind: kind.to_string(),
            name,
            sides: Vec::new(),
            path,
        });
        Ok(())
    }

    /// True if the hex has a link of `kind` to any neighbour.
    pub fn hex_has_link(&self, hex: Hex, kind: &str) -> bool {
        let Some(bit) = self.side_kinds.bit(kind) else {
            return false;
        };
        HexDir::ALL
            .into_iter()
            .any(|d| self.side_bits(hex.side(d)) & bit != 0)
    }

    /// Tags on a hex.
    pub fn tags_of(&self, hex: Hex) -> Vec<&str> {
        self.tags
            .iter()
            .filter(|(_, hexes)| hexes.contains(&hex))
            .map(|(t, _)| t.as_str())
            .collect()
    }

    /// Puts a tag on a hex or takes it off (hexes with a tag stay in map order).
    pub fn set_tag(&mut self, hex: Hex, tag: &str, on: bool) -> Result<(), MapError> {
        let i = self
            .index(hex)
            .ok_or_else(|| MapError::OffMap(self.label(hex)))?;
        if on {
            let mut hexes = self.tags.remove(tag).unwrap_or_default();
            if !hexes.contains(&hex) {
                let at = hexes
                    .iter()
                    .position(|h| self.index(*h).is_some_and(|j| j > i))
                    .unwrap_or(hexes.len());
                hexes.insert(at, hex);
            }
            self.tags.insert(tag.to_string(), hexes);
        } else if let Some(hexes) = self.tags.get_mut(tag) {
            hexes.retain(|h| *h != hex);
            if hexes.is_empty() {
                self.tags.remove(tag);
            }
        }
        Ok(())
    }

    /// What play can change of the map (terrain, hexsides, tags) in a canonical form, for the
    /// state hash of a game whose map changed.
    pub fn digest(&self) -> serde_json::Value {
        let terrain: Vec<&str> = self
            .terrain
            .iter()
            .map(|t| self.terrains.name(*t))
            .collect();
        let tags: BTreeMap<&str, Vec<String>> = self
            .tags
            .iter()
            .map(|(t, hexes)| (t.as_str(), hexes.iter().map(|h| self.label(*h)).collect()))
            .collect();
        serde_json::json!({
            "terrain": terrain,
            "side_kinds": self.side_kinds.names(),
            "sides": self.side_bits,
            "tags": tags,
        })
    }

    /// Hexes with a tag.
    pub fn tagged(&self, tag: &str) -> &[Hex] {
        self.tags.get(tag).map(Vec::as_slice).unwrap_or(&[])
    }

    /// On-map neighbours of a hex.
    pub fn neighbors(&self, hex: Hex) -> impl Iterator<Item = (HexDir, Hex)> + '_ {
        HexDir::ALL
            .into_iter()
            .map(move |d| (d, hex.neighbor(d)))
            .filter(|(_, h)| self.contains(*h))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_index_round_trips_and_edges() {
        let m = Map::new("t", 7, 5, Numbering::default(), "clear");
        assert_eq!(m.len(), 35);
        for i in 0..m.len() {
            let h = m.hex_of_index(i);
            assert_eq!(m.index(h), Some(i));
        }
        let nw = m.parse("0101").expect("on map");
        assert!(m.on_edge(nw, "west") && m.on_edge(nw, "north"));
        assert!(m.parse("0801").is_none());
    }

    #[test]
    fn sides_and_links_set_bits_both_ways() {
        let mut m = Map::new("t", 5, 5, Numbering::default(), "clear");
        let a = m.parse("0202").expect("a");
        let b = m.parse("0302").expect("b");
        m.add_side_feature("river", None, vec![Hexside::between(a, b).expect("adj")])
            .expect("ok");
        assert!(m.side_has(Hexside::between(b, a).expect("adj"), "river"));
        m.add_link("road", None, vec![a, b]).expect("ok");
        assert!(m.hex_has_link(a, "road") && m.hex_has_link(b, "road"));
        let far = m.parse("0505").expect("far");
        assert_eq!(
            m.set_side(a, far, "road", true),
            Err(MapError::NotAdjacent("0202".into(), "0505".into()))
        );
        // border sides whose canonical hex is off the map still store
        let west = m.parse("0103").expect("w");
        let off = west.neighbor(HexDir::SW);
        m.set_side(west, off, "lake", true).expect("border side");
        assert!(m.side_has(Hexside::between(west, off).expect("adj"), "lake"));
    }

    /// A side holds 32 kinds and a hex 32 place kinds: the 33rd is refused and leaves no name
    /// behind that a reader would shift by 32 (a panic in a debug build, the first kind's bit in
    /// a release one).
    #[test]
    fn a_33rd_kind_is_refused_and_leaves_nothing_to_read() {
        let mut m = Map::new("t", 5, 5, Numbering::default(), "clear");
        let a = m.parse("0202").expect("a");
        let b = m.parse("0302").expect("b");
        let side = Hexside::between(a, b).expect("adj");
        for k in 1..=32 {
            m.set_side(a, b, &format!("k{k}"), k == 1).expect("fits");
        }
        assert_eq!(
            m.set_side(a, b, "k33", true),
            Err(MapError::TooManyKinds("hexside"))
        );
        assert_eq!(m.side_kinds.names().len(), 32);
        assert!(m.side_has(side, "k1") && !m.side_has(side, "k33") && !m.hex_has_link(a, "k33"));
        for k in 1..=32 {
            let place = Place {
                name: format!("p{k}"),
                kind: format!("c{k}"),
                hexes: vec![a],
            };
            m.add_place(place).expect("fits");
        }
        let more = Place {
            name: "p33".into(),
            kind: "c33".into(),
            hexes: vec![b],
        };
        assert_eq!(m.add_place(more), Err(MapError::TooManyKinds("place")));
        assert!(!m.hex_has_place_kind(b, "c33") && m.hex_has_place_kind(a, "c32"));
        m.rebuild_place_bits();
        assert!(m.hex_has_place_kind(a, "c1") && !m.hex_has_place_kind(a, "c33"));
    }
}
