//! Writing a [`Map`] back to the `map.toml` format of `docs/file-formats.md`, the inverse of
//! [`crate::scenario::parse_map`].
//!
//! The output is canonical, not a copy of the authored text: comments and key order are not kept,
//! terrain characters come from a legend built from the terrain names, and hex lists use ranges
//! where a run of hexes allows. Parsing the output gives an equal map whenever the map's catalogs
//! are in the order a parse would intern them (default terrain first, then terrain in row-major
//! order; hexside features before links), which holds for every map read from a file.

use crate::hex::Hex;
use crate::map::{Feature, Map};
use crate::numbering::LowerColumns;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Long hex lists wrap at this width, so a path stays readable in a diff.
const LINE_WIDTH: usize = 100;

/// The map as `map.toml` text.
///
/// # Example
/// ```
/// use kessel_core::{map::Map, map_toml::map_to_toml, numbering::Numbering};
/// use kessel_core::scenario::parse_map;
/// let mut map = Map::new("demo", 3, 2, Numbering::default(), "clear");
/// let hex = map.parse("0201").expect("on map");
/// map.set_terrain(hex, "forest").expect("on map");
/// let text = map_to_toml(&map);
/// let again = parse_map(std::path::Path::new("demo.toml"), &text).expect("parses");
/// assert_eq!(again, map);
/// ```
pub fn map_to_toml(map: &Map) -> String {
    map_to_toml_with(map, &[])
}

/// Like [`map_to_toml`], but terrain characters follow `legend_hint` (character, terrain name)
/// where it names a terrain in use, so re-saving a hand-written map keeps its characters and
/// the diff shows only real changes. Hints that clash are ignored.
pub fn map_to_toml_with(map: &Map, legend_hint: &[(char, String)]) -> String {
    let mut out = String::new();
    write_header(map, &mut out);
    write_terrain(map, legend_hint, &mut out);
    let (links, sides): (Vec<&Feature>, Vec<&Feature>) =
        map.features.iter().partition(|f| !f.path.is_empty());
    for f in sides {
        out.push_str("\n[[hexsides]]\n");
        write_kind_and_name(f, &mut out);
        let labels: Vec<String> = f
            .sides
            .iter()
            .map(|s| {
                let (a, b) = s.hexes();
                // lower label first, as people write them ("0301/0302")
                let (a, b) = (map.label(a), map.label(b));
                let (a, b) = if a <= b { (a, b) } else { (b, a) };
                format!("{a}/{b}")
            })
            .collect();
        write_list(&mut out, "sides", &labels);
    }
    for f in links {
        out.push_str("\n[[links]]\n");
        write_kind_and_name(f, &mut out);
        let labels: Vec<String> = f.path.iter().map(|h| map.label(*h)).collect();
        write_list(&mut out, "path", &labels);
    }
    for p in &map.places {
        out.push_str("\n[[places]]\n");
        let _ = writeln!(out, "name = {}", quote(&p.name));
        let _ = writeln!(out, "kind = {}", quote(&p.kind));
        write_list(&mut out, "hexes", &hex_list(map, &p.hexes));
    }
    for a in map.areas.values() {
        out.push_str("\n[[areas]]\n");
        let _ = writeln!(out, "id = {}", quote(&a.id));
        if a.name != a.id {
            let _ = writeln!(out, "name = {}", quote(&a.name));
        }
        write_list(&mut out, "hexes", &hex_list(map, &a.hexes));
    }
    for (tag, hexes) in &map.tags {
        out.push_str("\n[[tags]]\n");
        let _ = writeln!(out, "tag = {}", quote(tag));
        write_list(&mut out, "hexes", &hex_list(map, hexes));
    }
    out
}

fn write_header(map: &Map, out: &mut String) {
    let n = map.numbering();
    out.push_str("[map]\n");
    let _ = writeln!(out, "name = {}", quote(&map.name));
    let _ = writeln!(out, "columns = {}", map.columns());
    let _ = writeln!(out, "rows = {}", map.rows());
    if n.letters {
        out.push_str("numbering = \"letters\"\n");
    } else {
        out.push_str("numbering = \"ccrr\"\n");
    }
    let _ = writeln!(out, "first_column = {}", n.first_column);
    let _ = writeln!(out, "first_row = {}", n.first_row);
    let lower = match n.lower_columns {
        LowerColumns::Even => "even",
        LowerColumns::Odd => "odd",
    };
    let _ = writeln!(out, "lower_columns = \"{lower}\"");
}

fn write_terrain(map: &Map, legend_hint: &[(char, String)], out: &mut String) {
    // id 0 is the default: Map::new interns it first and the parser does the same
    let default = map.terrains.name(0).to_string();
    let legend = legend_for(map, legend_hint);
    out.push_str("\n[terrain]\n");
    let _ = writeln!(out, "default = {}", quote(&default));
    let mut entries: Vec<(char, &str)> = legend
        .iter()
        .map(|(id, c)| (*c, map.terrains.name(*id)))
        .collect();
    entries.sort();
    let pairs: Vec<String> = entries
        .iter()
        .map(|(c, name)| format!("{} = {}", quote(&c.to_string()), quote(name)))
        .collect();
    let _ = writeln!(out, "legend = {{ {} }}", pairs.join(", "));
    out.push_str("rows = [\n");
    let digits = map.numbering().digits;
    for r in 0..map.rows() as i32 {
        let row: String = (0..map.columns() as i32)
            .map(|c| {
                let id = map.terrain(map.hex_at(c, r)).unwrap_or(0);
                legend.get(&id).copied().unwrap_or('.')
            })
            .collect();
        let _ = writeln!(
            out,
            "  {},  # row {:0digits$}",
            quote(&row),
            r + map.numbering().first_row
        );
    }
    out.push_str("]\n");
}

/// One character per terrain in use (and the default): the hinted one if free, else `.` for the
/// default and the name's first letter, its upper case, its other letters, then a fixed pool.
fn legend_for(map: &Map, hint: &[(char, String)]) -> BTreeMap<u16, char> {
    let mut used: Vec<u16> = vec![0];
    for &t in map.terrain_slice() {
        if !used.contains(&t) {
            used.push(t);
        }
    }
    let usable = |c: char| !c.is_whitespace() && !c.is_control() && c != '"' && c != '\\';
    let mut legend = BTreeMap::new();
    let mut taken: Vec<char> = Vec::new();
    for &id in &used {
        let name = map.terrains.name(id);
        let hinted = hint
            .iter()
            .find(|(c, n)| n == name && usable(*c) && !taken.contains(c))
            .map(|(c, _)| *c);
        if let Some(c) = hinted {
            taken.push(c);
            legend.insert(id, c);
        }
    }
    const POOL: &str =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789#%&*+-=@^~!$?";
    for id in used {
        if legend.contains_key(&id) {
            continue;
        }
        let name = map.terrains.name(id);
        let first = name.chars().next();
        let preferred = (id == 0).then_some('.');
        let choice = preferred
            .into_iter()
            .chain(first.map(|c| c.to_ascii_lowercase()))
            .chain(first.map(|c| c.to_ascii_uppercase()))
            .chain(name.chars().skip(1))
            .chain(POOL.chars())
            .find(|c| usable(*c) && !taken.contains(c) && (*c != '.' || id == 0));
        // more than ~90 terrains: nothing sensible is left, fall back to any free code point
        let c =
            choice.unwrap_or_else(|| ('\u{00C0}'..).find(|c| !taken.contains(c)).unwrap_or('?'));
        taken.push(c);
        legend.insert(id, c);
    }
    legend
}

fn write_kind_and_name(f: &Feature, out: &mut String) {
    let _ = writeln!(out, "kind = {}", quote(&f.kind));
    if let Some(name) = &f.name {
        let _ = writeln!(out, "name = {}", quote(name));
    }
}

/// Labels of a hex list, with ascending runs of three or more along a column or a row written as
/// ranges, which the parser expands in the same order.
fn hex_list(map: &Map, hexes: &[Hex]) -> Vec<String> {
    let offsets: Vec<(i32, i32)> = hexes.iter().map(|h| map.offset(*h)).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < hexes.len() {
        let run_len = |step: (i32, i32)| {
            let mut j = i + 1;
            while j < hexes.len()
                && offsets[j] == (offsets[j - 1].0 + step.0, offsets[j - 1].1 + step.1)
            {
                j += 1;
            }
            j - i
        };
        let len = run_len((0, 1)).max(run_len((1, 0)));
        if len >= 3 {
            out.push(format!(
                "{}..{}",
                map.label(hexes[i]),
                map.label(hexes[i + len - 1])
            ));
            i += len;
        } else {
            out.push(map.label(hexes[i]));
            i += 1;
        }
    }
    out
}

fn write_list(out: &mut String, key: &str, items: &[String]) {
    let quoted: Vec<String> = items.iter().map(|s| quote(s)).collect();
    let one_line = format!("{key} = [{}]", quoted.join(", "));
    if one_line.len() <= LINE_WIDTH {
        out.push_str(&one_line);
        out.push('\n');
        return;
    }
    let _ = writeln!(out, "{key} = [");
    let mut line = String::from(" ");
    for q in &quoted {
        if line.len() + q.len() + 2 > LINE_WIDTH && line.len() > 1 {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from(" ");
        }
        line.push(' ');
        line.push_str(q);
        line.push(',');
    }
    out.push_str(line.trim_end());
    out.push_str("\n]\n");
}

/// A TOML basic string.
fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for c in s.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            '\n' => q.push_str("\\n"),
            '\t' => q.push_str("\\t"),
            '\r' => q.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(q, "\\u{:04X}", c as u32);
            }
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::parse_map;
    use std::path::Path;

    const SMALL: &str = r#"
[map]
name = "Test \"map\""
columns = 6
rows = 5
lower_columns = "even"

[terrain]
default = "clear"
legend = { "." = "clear", "f" = "forest", "s" = "swamp", "l" = "lake" }
rows = [
  "..ff..",
  ".fs...",
  "..sll.",
  "......",
  "f....s",
]

[[hexsides]]
kind = "river"
name = "Big river"
sides = ["0101/0201", "0201/0202", "0302/0303"]

[[hexsides]]
kind = "lake"
sides = ["0403/0404"]

[[links]]
kind = "road"
name = "highway"
path = ["0101", "0201", "0301", "0401", "0501"]

[[links]]
kind = "railway"
path = ["0105", "0205", "0305"]

[[places]]
name = "Capital"
kind = "major_city"
hexes = ["0302", "0303"]

[[places]]
name = "Orsha"
kind = "minor_city"
hexes = ["0504"]

[[areas]]
id = "C"
name = "Entry area C"
hexes = ["0101..0104", "0201"]

[[areas]]
id = "X"
hexes = ["0601..0605"]

[[tags]]
tag = "vp_hex"
hexes = ["0302", "0504"]
"#;

    fn parse(text: &str) -> Map {
        match parse_map(Path::new("test.toml"), text) {
            Ok(m) => m,
            Err(e) => panic!("does not parse: {e}\n{text}"),
        }
    }

    #[test]
    fn written_map_parses_back_equal() {
        let map = parse(SMALL);
        let text = map_to_toml(&map);
        let again = parse(&text);
        assert_eq!(again, map, "{text}");
        // canonical: writing the re-read map gives the same bytes
        assert_eq!(map_to_toml(&again), text);
        assert!(text.contains(r#"hexes = ["0101..0104", "0201"]"#), "{text}");
    }

    /// A hex in two places was the first's for the rules (`kessel.map.place` gives one) and
    /// drawn with both names: refused at the second place's hex, naming the first.
    #[test]
    fn a_hex_in_two_places_is_refused() {
        let text = format!(
            "{SMALL}\n[[places]]\nname = \"Suburb\"\nkind = \"minor_city\"\nhexes = [\"0301\", \"0303\"]\n"
        );
        let err = match parse_map(Path::new("test.toml"), &text) {
            Ok(_) => panic!("a hex in two places was taken"),
            Err(e) => e.to_string(),
        };
        assert!(
            err.contains("place `Suburb` lists hex 0303, which is in place `Capital` (line 37)")
                && !err.contains("0301"),
            "{err}"
        );
    }

    /// An area listing a hex twice (a range and the hex again) gave `kessel.map.area` the hex
    /// twice: refused at the second, as a place's is.
    #[test]
    fn an_area_listing_a_hex_twice_is_refused() {
        let text = SMALL.replace(
            r#"hexes = ["0101..0104", "0201"]"#,
            r#"hexes = ["0101..0104", "0201", "0103"]"#,
        );
        assert_ne!(text, SMALL);
        let err = match parse_map(Path::new("test.toml"), &text) {
            Ok(_) => panic!("an area listing a hex twice was taken"),
            Err(e) => e.to_string(),
        };
        assert!(
            err.contains("test.toml:50: area `C` lists hex 0103 twice"),
            "{err}"
        );
    }

    #[test]
    fn legend_hint_keeps_the_authors_characters() {
        let map = parse(SMALL);
        let hint = vec![('~', "lake".to_string()), ('#', "forest".to_string())];
        let text = map_to_toml_with(&map, &hint);
        assert!(text.contains(r#""~" = "lake""#), "{text}");
        assert!(text.contains(r##""#" = "forest""##), "{text}");
        assert!(
            text.contains(r#"sides = ["0101/0201", "0201/0202", "0302/0303"]"#),
            "{text}"
        );
        assert_eq!(parse(&text), map);
    }

    #[test]
    fn built_map_round_trips_with_odd_lower_columns_and_crowded_legend() {
        let numbering = crate::numbering::Numbering {
            lower_columns: LowerColumns::Odd,
            ..Default::default()
        };
        let mut map = Map::new("built", 4, 3, numbering, "clear");
        // names sharing first letters force the legend's fallbacks
        for (i, name) in ["forest", "fen", "field", "farm", "f", "Forest"]
            .iter()
            .enumerate()
        {
            let hex = map.hex_at(i as i32 % 4, i as i32 / 4);
            map.set_terrain(hex, name).expect("on map");
        }
        let a = map.hex_at(1, 1);
        let b = a.neighbor(crate::hex::HexDir::SE);
        map.add_link("road", Some("a \\ b".into()), vec![a, b])
            .expect("adjacent");
        let text = map_to_toml(&map);
        assert_eq!(parse(&text), map, "{text}");
    }
}
