//! Cutting a rectangular region out of a map, keeping its printed numbering: the hex printed
//! `1918` on the source is `1918` on the cut.
//!
//! Terrain, places, areas and tags are kept where their hexes fall inside; hexside features
//! (rivers) keep the sides that touch the region, including those on its edge; links (roads,
//! railways) keep the stretches that run inside it, split where they leave and come back.
//! Whatever was shortened or dropped is reported as a [`CutNote`], so a tool can tell its user.

use super::{Area, Map, MapError, Place};
use crate::hex::{Hex, Hexside};
use crate::numbering::Numbering;
use std::collections::BTreeMap;

/// A map cut out of a larger one, and what the cut changed beyond dropping hexes.
#[derive(Clone, Debug, PartialEq)]
pub struct CutMap {
    /// The new map.
    pub map: Map,
    /// Places, areas, tags and features that lost hexes, sides or their whole self.
    pub notes: Vec<CutNote>,
}

/// One thing a cut shortened or dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutNote {
    /// `"place"`, `"area"`, `"tag"`, `"hexside feature"` or `"link"`.
    pub what: &'static str,
    /// Its name or id (a feature without a name is named by its kind).
    pub name: String,
    /// Hexes (or sides, or path steps) it had, and how many are left.
    pub had: usize,
    /// How many are left; 0 means dropped.
    pub kept: usize,
}

impl std::fmt::Display for CutNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.kept == 0 {
            write!(
                f,
                "{} `{}` lies outside the region: dropped",
                self.what, self.name
            )
        } else {
            write!(
                f,
                "{} `{}` is partly outside the region: {} of {} kept",
                self.what, self.name, self.kept, self.had
            )
        }
    }
}

impl Map {
    /// Cuts out the rectangle with corners `a` and `b` (either order, both on the map), keeping
    /// the printed labels of every hex.
    ///
    /// # Example
    /// ```
    /// use kessel_core::{map::Map, numbering::Numbering};
    /// let mut map = Map::new("demo", 8, 6, Numbering::default(), "clear");
    /// map.set_terrain(map.parse("0403").expect("on map"), "forest").expect("on map");
    /// let (a, b) = (map.parse("0302").expect("a"), map.parse("0605").expect("b"));
    /// let cut = map.cut(a, b).expect("corners on the map").map;
    /// assert_eq!((cut.columns(), cut.rows()), (4, 4));
    /// let hex = cut.parse("0403").expect("same label on the cut");
    /// assert_eq!(cut.terrain_name(hex), Some("forest"));
    /// assert!(cut.parse("0201").is_none());
    /// ```
    pub fn cut(&self, a: Hex, b: Hex) -> Result<CutMap, MapError> {
        for h in [a, b] {
            if !self.contains(h) {
                return Err(MapError::OffMap(self.label(h)));
            }
        }
        let ((ca, ra), (cb, rb)) = (self.offset(a), self.offset(b));
        let (c0, r0) = (ca.min(cb), ra.min(rb));
        let (columns, rows) = ((ca - cb).unsigned_abs() + 1, (ra - rb).unsigned_abs() + 1);
        let old = self.numbering();
        let numbering = Numbering {
            first_column: old.first_column + c0,
            first_row: old.first_row + r0,
            ..old.clone()
        };
        // same parity rule on shifted labels: a column keeps being lower or not
        let (nw, se) = (
            self.hex_at(c0, r0),
            self.hex_at(c0 + columns as i32 - 1, r0 + rows as i32 - 1),
        );
        let name = format!("{}, {}–{}", self.name, self.label(nw), self.label(se));
        let new_numbering = numbering.clone();
        let mut map = Map::new(&name, columns, rows, numbering, self.terrains.name(0));
        // hexes beyond the cut's edge get coordinates too, so edge hexsides keep their place
        let to_new = |h: Hex| {
            let (c, r) = self.offset(h);
            new_numbering.offset_to_hex(c - c0, r - r0)
        };
        let (c1, r1) = (c0 + columns as i32, r0 + rows as i32);
        let inside = |h: Hex| {
            let (c, r) = self.offset(h);
            (c0..c1).contains(&c) && (r0..r1).contains(&r)
        };
        // row-major, as a parse interns terrain, so writing and re-reading gives an equal map
        for r in 0..rows as i32 {
            for c in 0..columns as i32 {
                let name = self
                    .terrain_name(self.hex_at(c + c0, r + r0))
                    .unwrap_or("?");
                map.set_terrain(map.hex_at(c, r), name)?;
            }
        }
        let mut notes = Vec::new();
        let mut note = |what, name: &str, had: usize, kept: usize| {
            if kept < had {
                notes.push(CutNote {
                    what,
                    name: name.to_string(),
                    had,
                    kept,
                });
            }
        };
        for f in &self.features {
            let label = f.name.clone().unwrap_or_else(|| f.kind.clone());
            if f.path.is_empty() {
                let sides: Vec<Hexside> = f
                    .sides
                    .iter()
                    .filter_map(|s| {
                        let (x, y) = s.hexes();
                        (inside(x) || inside(y))
                            .then(|| Hexside::between(to_new(x), to_new(y)))
                            .flatten()
                    })
                    .collect();
                note("hexside feature", &label, f.sides.len(), sides.len());
                if !sides.is_empty() {
                    map.add_side_feature(&f.kind, f.name.clone(), sides)?;
                }
            } else {
                let mut kept_steps = 0;
                for run in inside_runs(&f.path, &inside) {
                    kept_steps += run.len() - 1;
                    let path = run.iter().map(|h| to_new(*h)).collect();
                    map.add_link(&f.kind, f.name.clone(), path)?;
                }
                note("link", &label, f.path.len().saturating_sub(1), kept_steps);
            }
        }
        for p in &self.places {
            let hexes = keep(&p.hexes, &inside, &to_new);
            note("place", &p.name, p.hexes.len(), hexes.len());
            if !hexes.is_empty() {
                map.add_place(Place { hexes, ..p.clone() })?;
            }
        }
        let mut areas = BTreeMap::new();
        for (id, area) in &self.areas {
            let hexes = keep(&area.hexes, &inside, &to_new);
            note("area", id, area.hexes.len(), hexes.len());
            if !hexes.is_empty() {
                areas.insert(
                    id.clone(),
                    Area {
                        hexes,
                        ..area.clone()
                    },
                );
            }
        }
        let mut tags = BTreeMap::new();
        for (tag, hexes) in &self.tags {
            let kept = keep(hexes, &inside, &to_new);
            note("tag", tag, hexes.len(), kept.len());
            if !kept.is_empty() {
                tags.insert(tag.clone(), kept);
            }
        }
        map.areas = areas;
        map.tags = tags;
        Ok(CutMap { map, notes })
    }
}

/// The hexes of a list that fall inside, moved to the cut's coordinates, in the list's order.
fn keep(hexes: &[Hex], inside: &impl Fn(Hex) -> bool, to_new: &impl Fn(Hex) -> Hex) -> Vec<Hex> {
    hexes
        .iter()
        .filter(|h| inside(**h))
        .map(|h| to_new(*h))
        .collect()
}

/// Maximal stretches of a path (two hexes or more) whose hexes are all inside.
fn inside_runs<'a>(path: &'a [Hex], inside: &impl Fn(Hex) -> bool) -> Vec<&'a [Hex]> {
    path.split(|h| !inside(*h))
        .filter(|run| run.len() >= 2)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map_toml::map_to_toml;
    use crate::numbering::LowerColumns;
    use crate::scenario::parse_map;

    /// A 10×8 map with a bit of everything, some of it crossing the region 0302–0706.
    fn source(numbering: Numbering) -> Map {
        let mut m = Map::new("src", 10, 8, numbering, "clear");
        let at = |m: &Map, l: &str| m.parse(l).expect("label on map");
        m.set_terrain(at(&m, "0403"), "forest").expect("on map");
        m.set_terrain(at(&m, "0101"), "swamp").expect("on map");
        m.set_terrain(at(&m, "0706"), "lake").expect("on map");
        let side =
            |m: &Map, x: &str, y: &str| Hexside::between(at(m, x), at(m, y)).expect("adjacent");
        // one side inside, one on the region's west edge, one far outside
        let river = vec![
            side(&m, "0403", "0404"),
            side(&m, "0203", "0303"),
            side(&m, "0901", "0902"),
        ];
        m.add_side_feature("river", Some("Big river".into()), river)
            .expect("sides");
        // a road that leaves the region at 0802 and comes back at 0704
        let road: Vec<Hex> = [
            "0202", "0302", "0402", "0502", "0602", "0702", "0802", "0803", "0804", "0704", "0705",
        ]
        .iter()
        .map(|l| at(&m, l))
        .collect();
        m.add_link("road", None, road).expect("adjacent path");
        m.add_place(Place {
            name: "Twin".into(),
            kind: "city".into(),
            hexes: vec![at(&m, "0302"), at(&m, "0202")],
        })
        .expect("on map");
        m.add_place(Place {
            name: "Far".into(),
            kind: "town".into(),
            hexes: vec![at(&m, "1008")],
        })
        .expect("on map");
        m.areas.insert(
            "A".into(),
            Area {
                id: "A".into(),
                name: "Entry A".into(),
                hexes: vec![at(&m, "0705"), at(&m, "0805")],
            },
        );
        m.tags.insert("vp".into(), vec![at(&m, "0403")]);
        m
    }

    fn cut(m: &Map, a: &str, b: &str) -> CutMap {
        m.cut(m.parse(a).expect("a"), m.parse(b).expect("b"))
            .expect("corners on the map")
    }

    #[test]
    fn cut_keeps_labels_terrain_and_what_lies_inside() {
        for lower in [LowerColumns::Even, LowerColumns::Odd] {
            let numbering = Numbering {
                lower_columns: lower,
                ..Numbering::default()
            };
            let src = source(numbering);
            // corners in either order give the same map
            let CutMap { map, notes } = cut(&src, "0706", "0302");
            assert_eq!(cut(&src, "0302", "0706").map, map);
            assert_eq!((map.columns(), map.rows()), (5, 5));
            assert_eq!(map.numbering().first_column, 3);
            assert_eq!(map.numbering().first_row, 2);
            // every hex keeps its label, terrain and neighbours
            for h in map.hexes() {
                let label = map.label(h);
                let old = src.parse(&label).expect("label exists on the source");
                assert_eq!(map.terrain_name(h), src.terrain_name(old), "{label}");
                for (d, n) in map.neighbors(h) {
                    assert_eq!(map.label(n), src.label(old.neighbor(d)), "{label} {d:?}");
                }
            }
            assert!(map.parse("0201").is_none() && map.parse("0802").is_none());
            let at = |l: &str| map.parse(l).expect("on the cut");
            // the river: inside side and edge side kept, far side dropped
            let river = Hexside::between(at("0403"), at("0404")).expect("adjacent");
            assert!(map.side_has(river, "river"));
            let west = src
                .parse("0303")
                .and_then(|h| h.direction_to(src.parse("0203")?));
            let west = west.expect("0203 is next to 0303");
            let edge = Hexside::between(at("0303"), at("0303").neighbor(west)).expect("adjacent");
            assert!(map.side_has(edge, "river"));
            // the road: split where it leaves, both stretches kept
            let roads: Vec<_> = map.features.iter().filter(|f| f.kind == "road").collect();
            assert_eq!(roads.len(), 2);
            assert_eq!(roads[0].path.len(), 5, "0302..0702");
            assert_eq!(roads[1].path.len(), 2, "0704-0705");
            assert!(!map.hex_has_link(at("0703"), "road"));
            // places and areas cut to the region, and said so
            assert_eq!(
                map.place("Twin").map(|p| p.hexes.clone()),
                Some(vec![at("0302")])
            );
            assert!(map.place("Far").is_none());
            assert_eq!(map.areas["A"].hexes, vec![at("0705")]);
            assert_eq!(map.tags["vp"], vec![at("0403")]);
            let said: Vec<String> = notes.iter().map(ToString::to_string).collect();
            assert!(
                said.contains(&"place `Twin` is partly outside the region: 1 of 2 kept".into()),
                "{said:?}"
            );
            assert!(
                said.contains(&"place `Far` lies outside the region: dropped".into()),
                "{said:?}"
            );
            assert!(said.iter().any(|s| s.starts_with("area `A`")), "{said:?}");
            assert!(
                said.iter().any(|s| s.starts_with("link `road`")),
                "{said:?}"
            );
            assert!(
                said.iter()
                    .any(|s| s.starts_with("hexside feature `Big river`")),
                "{said:?}"
            );
            assert!(!said.iter().any(|s| s.contains("`vp`")), "{said:?}");
        }
    }

    #[test]
    fn cut_map_writes_and_reads_back_equal() {
        let src = source(Numbering::default());
        let map = cut(&src, "0302", "0706").map;
        let text = map_to_toml(&map);
        assert!(text.contains("first_column = 3\nfirst_row = 2\n"), "{text}");
        let again = match parse_map(std::path::Path::new("cut.toml"), &text) {
            Ok(m) => m,
            Err(e) => panic!("cut map does not parse: {e}\n{text}"),
        };
        assert_eq!(again, map);
    }

    #[test]
    fn corner_off_the_map_is_refused() {
        let src = source(Numbering::default());
        let off = src.hex_at(10, 3);
        assert_eq!(
            src.cut(src.hex_at(0, 0), off),
            Err(MapError::OffMap(src.label(off)))
        );
    }
}
