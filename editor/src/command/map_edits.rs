//! The map edits an [`EditorCommand`] makes: terrain, hexside features that join their
//! neighbours, links that extend and split, resizing.

use super::EditorCommand;
use kessel_core::hex::{Hex, Hexside};
use kessel_core::map::{Area, Feature, Map, Place};

/// The map resized to `columns × rows`: terrain, features, places, areas and tags are kept where
/// they are still on the map (an area left with no hexes is dropped); new hexes take the default
/// terrain (the map's first terrain).
pub fn resized(map: &Map, columns: u32, rows: u32) -> Result<Map, String> {
    // (the labels of a resized map must still read back: a "ccrr" map starting at column 10
    // stops at 90 columns, a "letters" one at 208)
    if let Some(problem) = map
        .numbering()
        .size_problems(columns, rows)
        .into_iter()
        .next()
    {
        return Err(problem.to_string());
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
        let hexes: Vec<Hex> = a
            .hexes
            .iter()
            .copied()
            .filter(|h| out.contains(*h))
            .collect();
        // an area with no hexes is refused when the map is read again
        if !hexes.is_empty() {
            out.areas.insert(id.clone(), Area { hexes, ..a.clone() });
        }
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
        EditorCommand::SetHexside { side, kind, on, .. } => {
            if map.side_has(*side, kind) == *on {
                return Ok(false);
            }
            toggle_hexside(map, *side, kind)?;
            Ok(true)
        }
        EditorCommand::SetLink {
            from, to, kind, on, ..
        } => {
            let side = Hexside::between(*from, *to).ok_or_else(|| {
                format!(
                    "{} and {} are not adjacent",
                    map.label(*from),
                    map.label(*to)
                )
            })?;
            if map.side_has(side, kind) == *on {
                return Ok(false);
            }
            toggle_link(map, *from, *to, kind)?;
            Ok(true)
        }
        EditorCommand::FillTerrain { at, terrain } => {
            let hexes = flood(map, *at);
            if map.terrain_name(*at) == Some(terrain.as_str()) || hexes.is_empty() {
                return Ok(false);
            }
            for h in hexes {
                map.set_terrain(h, terrain).map_err(|e| e.to_string())?;
            }
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
        EditorCommand::SetMapName { name, .. } => {
            if map.name == *name {
                return Ok(false);
            }
            map.name = name.clone();
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

/// The hexes connected to `at` through neighbours of the same terrain, `at` first (none if `at`
/// is off the map).
pub fn flood(map: &Map, at: Hex) -> Vec<Hex> {
    let Some(kind) = map.terrain_name(at).filter(|_| map.contains(at)) else {
        return Vec::new();
    };
    let mut seen = std::collections::HashSet::from([at]);
    let mut out = vec![at];
    let mut i = 0;
    while let Some(&h) = out.get(i) {
        i += 1;
        for (_, n) in map.neighbors(h) {
            if map.terrain_name(n) == Some(kind) && seen.insert(n) {
                out.push(n);
            }
        }
    }
    out
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
    fn a_map_is_resized_only_as_far_as_its_labels_read_back() {
        // a "ccrr" map whose first column is 10 has labels up to column 99: 90 columns
        let late = Map::new(
            "t",
            6,
            6,
            Numbering {
                first_column: 10,
                ..Numbering::default()
            },
            "clear",
        );
        assert_eq!(resized(&late, 90, 6).map(|m| m.columns()), Ok(90));
        let refused = resized(&late, 91, 6).expect_err("column 100 has no label");
        assert!(refused.contains("first_column must be 0 to 9"), "{refused}");
        // a "letters" map grows past 99 columns
        let letters = Map::new(
            "t",
            6,
            6,
            Numbering {
                letters: true,
                ..Numbering::default()
            },
            "clear",
        );
        let wide = resized(&letters, 150, 6).expect("150 letter columns");
        assert!(wide.parse("TTTTTT6").is_some());
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
