//! Map files (`map.toml`): their serde types and the loader, strict and lenient, collecting every
//! problem with its line (see [`super`]).

use super::{strict, Diag, Lenient, Whole, S};
use crate::error::{read_text, toml_bounds, toml_error, LoadErrors};
use crate::hex::{Hex, Hexside};
use crate::map::{Area, Map, Place};
use crate::numbering::{LowerColumns, Numbering};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    map: MapHeader,
    terrain: TerrainSection,
    #[serde(default)]
    hexsides: Vec<S<HexsideFeature>>,
    #[serde(default)]
    links: Vec<S<LinkFeature>>,
    #[serde(default)]
    places: Vec<S<PlaceEntry>>,
    #[serde(default)]
    areas: Vec<S<AreaEntry>>,
    #[serde(default)]
    tags: Vec<S<TagEntry>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapHeader {
    name: String,
    columns: S<Whole<1, { crate::map::MAX_SIDE }>>,
    rows: S<Whole<1, { crate::map::MAX_SIDE }>>,
    #[serde(default = "ccrr")]
    numbering: S<String>,
    // (read whole: a number past an i32 is said with the labels the numbering writes, not the
    // type's range, by the size check below)
    #[serde(default = "one")]
    first_column: S<i64>,
    #[serde(default = "one")]
    first_row: S<i64>,
    #[serde(default = "even")]
    lower_columns: LowerColumns,
}

fn ccrr() -> S<String> {
    Spanned::new(0..0, "ccrr".to_string())
}
fn one() -> S<i64> {
    Spanned::new(0..0, 1)
}
fn even() -> LowerColumns {
    LowerColumns::Even
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainSection {
    default: String,
    #[serde(default)]
    legend: BTreeMap<S<String>, String>,
    #[serde(default)]
    rows: Vec<S<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HexsideFeature {
    kind: String,
    #[serde(default)]
    name: Option<String>,
    sides: Vec<S<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinkFeature {
    kind: String,
    #[serde(default)]
    name: Option<String>,
    path: Vec<S<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlaceEntry {
    name: String,
    kind: String,
    hexes: Vec<S<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AreaEntry {
    id: String,
    #[serde(default)]
    name: Option<String>,
    hexes: Vec<S<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TagEntry {
    tag: String,
    hexes: Vec<S<String>>,
}

/// A `[[hexsides]]` or `[[links]]` entry's kind, read alone (the rest of the table is ignored).
#[derive(Deserialize)]
struct KindOnly {
    kind: String,
}

#[derive(Deserialize)]
struct FeatureKinds {
    #[serde(default)]
    hexsides: Vec<S<KindOnly>>,
    #[serde(default)]
    links: Vec<S<KindOnly>>,
}

/// The kinds of a map file's `[[hexsides]]` (`false`) and `[[links]]` (`true`) entries, each
/// with the line of its table, in file order; empty when the file does not read.
pub fn feature_kind_lines(map_path: &Path) -> Vec<(bool, String, usize)> {
    let Ok(text) = read_text(map_path, "map") else {
        return Vec::new();
    };
    let Ok(file) = toml::from_str::<FeatureKinds>(&text) else {
        return Vec::new();
    };
    let lines = crate::error::LineIndex::new(&text);
    let mut out = Vec::new();
    for (is_link, list) in [(false, &file.hexsides), (true, &file.links)] {
        for e in list {
            out.push((
                is_link,
                e.get_ref().kind.clone(),
                lines.line(e.span().start),
            ));
        }
    }
    out
}

/// The line of a map file where a kind named in `message` (between backquotes, as
/// [`crate::ruleset::Ruleset::check_map`] writes it) is first written as a quoted value.
pub fn kind_line(map_path: &Path, message: &str) -> Option<usize> {
    let name = message.split('`').nth(1)?;
    let text = crate::error::read_text(map_path, "map").ok()?;
    let quoted = format!("\"{name}\"");
    text.lines()
        .position(|l| {
            let code = l.split('#').next().unwrap_or("");
            // a map's or place's own name is not a kind
            !code.trim_start().starts_with("name") && code.contains(&quoted)
        })
        .map(|i| i + 1)
}

/// Parses hex lists with ranges (`"0108..0115"`) against a numbering and bounds; each hex with
/// the span of the item that gave it.
fn parse_hexes(
    map: &Map,
    items: &[S<String>],
    d: &mut Diag<'_>,
) -> Vec<(Hex, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    for item in items {
        match expand_label(map, item.get_ref()) {
            Ok(hexes) => out.extend(hexes.into_iter().map(|h| (h, item.span()))),
            Err(m) => d.at(item.span(), m),
        }
    }
    out
}

/// Expands one label or range into on-map hexes.
pub fn expand_label(map: &Map, text: &str) -> Result<Vec<Hex>, String> {
    let one = |l: &str| -> Result<Hex, String> {
        let h = map
            .numbering()
            .parse(l)
            .ok_or_else(|| format!("`{l}` is not a hex number"))?;
        if !map.contains(h) {
            return Err(format!("hex {l} is off the map"));
        }
        Ok(h)
    };
    if let Some((a, b)) = text.split_once("..") {
        let (ha, hb) = (one(a.trim())?, one(b.trim())?);
        let (ca, ra) = map.offset(ha);
        let (cb, rb) = map.offset(hb);
        if ca == cb {
            Ok((ra.min(rb)..=ra.max(rb))
                .map(|r| map.hex_at(ca, r))
                .collect())
        } else if ra == rb {
            Ok((ca.min(cb)..=ca.max(cb))
                .map(|c| map.hex_at(c, ra))
                .collect())
        } else {
            Err(format!(
                "range `{text}` must run along one column or one row"
            ))
        }
    } else {
        Ok(vec![one(text)?])
    }
}

/// Loads a map file.
pub fn load_map(path: &Path) -> Result<Map, LoadErrors> {
    let text = read_text(path, "map")?;
    parse_map(path, &text)
}

/// Parses map TOML text (the path is for messages).
pub fn parse_map(path: &Path, text: &str) -> Result<Map, LoadErrors> {
    strict(parse_map_lenient(path, text)?)
}

/// Parses map TOML text as far as it can: a short terrain row or an unknown character leaves the
/// default terrain there, a bad hexside or link is left out, and each problem is listed. Only
/// what leaves no map to show is refused: a TOML syntax error or an unusable `[map]` header.
pub fn parse_map_lenient(path: &Path, text: &str) -> Result<Lenient<Map>, LoadErrors> {
    toml_bounds(path, text)?;
    let file: MapFile = toml::from_str(text).map_err(|e| {
        // a scenario (or campaign) given where a map goes: say what it is, not which of its
        // fields a map lacks ("unknown field `levels`")
        use crate::fsio::KesselToml;
        let what = match crate::fsio::kessel_toml_kind(text) {
            Some(KesselToml::Scenario) => "a scenario file ([scenario]): give the map it names",
            Some(KesselToml::Campaign) => {
                "a campaign file ([[game]]): give the map one of its scenarios names"
            }
            _ => return toml_error(path, text, &e),
        };
        crate::error::LoadError::new(path, None, format!("not a map but {what} in `map = …`"))
    })?;
    let mut d = Diag::new(path, text);
    let h = &file.map;
    let letters = h.numbering.get_ref() == "letters";
    if h.numbering.get_ref() != "ccrr" && !letters {
        d.at(
            h.numbering.span(),
            format!(
                "unknown numbering `{}` (supported: \"ccrr\", \"letters\")",
                h.numbering.get_ref()
            ),
        );
    }
    let (cols, rows) = (h.columns.get_ref().0, h.rows.get_ref().0);
    // one past every label stands for any number past them: the size check refuses it, and the
    // message is given the number as written
    let label = |n: i64| i32::try_from(n).unwrap_or(if n < 0 { i32::MIN } else { i32::MAX });
    let numbering = Numbering {
        first_column: label(*h.first_column.get_ref()),
        first_row: label(*h.first_row.get_ref()),
        lower_columns: h.lower_columns,
        digits: 2,
        letters,
    };
    // the labels the map prints must read back (one rule with inline maps and the editor)
    for mut problem in numbering.size_problems(cols, rows) {
        if let crate::numbering::SizeProblem::Labels { field, first, .. } = &mut problem {
            *first = if *field == "first_column" {
                *h.first_column.get_ref()
            } else {
                *h.first_row.get_ref()
            };
        }
        let span = match problem.field() {
            "columns" => h.columns.span(),
            "rows" => h.rows.span(),
            // (not written in the file: the size it does not fit is where to look)
            "first_column" if h.first_column.span().is_empty() => h.columns.span(),
            "first_column" => h.first_column.span(),
            _ if h.first_row.span().is_empty() => h.rows.span(),
            _ => h.first_row.span(),
        };
        d.at(span, problem.to_string());
    }
    if !d.errors.is_empty() {
        return Err(LoadErrors(d.errors));
    }
    let mut map = Map::new(&h.name, cols, rows, numbering, &file.terrain.default);
    // the legend: one character per terrain
    let mut legend: BTreeMap<char, &String> = BTreeMap::new();
    for (key, terrain) in &file.terrain.legend {
        let mut chars = key.get_ref().chars();
        match (chars.next(), chars.next()) {
            (Some(ch), None) => {
                legend.insert(ch, terrain);
            }
            _ => d.at(
                key.span(),
                format!(
                    "legend key `{}` for `{terrain}` must be one character (a terrain row has one \
                     character per hex)",
                    crate::error::printable_name(key.get_ref())
                ),
            ),
        }
    }
    // terrain rows
    if !file.terrain.rows.is_empty() && file.terrain.rows.len() != rows as usize {
        d.at(
            file.terrain.rows[0].span(),
            format!(
                "terrain has {} rows, the map has {rows}",
                file.terrain.rows.len()
            ),
        );
    }
    for (r, row) in file.terrain.rows.iter().enumerate() {
        let chars: Vec<char> = row.get_ref().chars().collect();
        if chars.len() != cols as usize {
            d.at(
                row.span(),
                format!(
                    "terrain row {} has {} hexes, the map has {cols} columns",
                    r + 1,
                    chars.len()
                ),
            );
        }
        for (c, ch) in chars.iter().enumerate().take(cols as usize) {
            let Some(name) = legend.get(ch) else {
                d.at(
                    row.span(),
                    format!(
                        "terrain character {} (column {}, hex {}) is not in the legend",
                        shown_char(*ch),
                        c + 1,
                        map.label(map.hex_at(c as i32, r as i32))
                    ),
                );
                continue;
            };
            let hex = map.hex_at(c as i32, r as i32);
            if let Err(e) = map.set_terrain(hex, name) {
                d.at(row.span(), e.to_string());
            }
        }
    }
    // hexside features
    let mut seen_sides: BTreeMap<(&str, Hexside), usize> = BTreeMap::new();
    for entry in &file.hexsides {
        let f = entry.get_ref();
        d.name(entry.span(), format_args!("hexside kind"), &f.kind);
        if f.sides.is_empty() {
            d.at(
                entry.span(),
                format!(
                    "hexside feature `{}`{} has no hexsides: list them in `sides`, or remove it",
                    f.kind,
                    f.name
                        .as_deref()
                        .map(|n| format!(" ({n})"))
                        .unwrap_or_default()
                ),
            );
        }
        let mut sides = Vec::new();
        for s in &f.sides {
            let Some((a, b)) = s.get_ref().split_once('/') else {
                d.at(
                    s.span(),
                    format!("hexside `{}` must be written AAAA/BBBB", s.get_ref()),
                );
                continue;
            };
            let (ha, hb) = (
                map.numbering().parse(a.trim()),
                map.numbering().parse(b.trim()),
            );
            let (Some(ha), Some(hb)) = (ha, hb) else {
                d.at(
                    s.span(),
                    format!("`{}` is not a pair of hex numbers", s.get_ref()),
                );
                continue;
            };
            if !map.contains(ha) && !map.contains(hb) {
                d.at(s.span(), format!("hexside {} is off the map", s.get_ref()));
                continue;
            }
            match Hexside::between(ha, hb) {
                Some(side) => {
                    match d.seen_before(&mut seen_sides, (f.kind.as_str(), side), &s.span()) {
                        Some(first) => d.at(
                            s.span(),
                            format!(
                                "hexside {} is given twice as `{}` (first at {first}): remove \
                                 one",
                                s.get_ref(),
                                f.kind
                            ),
                        ),
                        None => sides.push(side),
                    }
                }
                None => d.at(s.span(), format!("hexes {} are not adjacent", s.get_ref())),
            }
        }
        // (at the entry's line: the 33rd kind was refused with no line to look at)
        if let Err(e) = map.add_side_feature(&f.kind, f.name.clone(), sides) {
            d.at(entry.span(), format!("hexside feature `{}`: {e}", f.kind));
        }
    }
    for entry in &file.links {
        let l = entry.get_ref();
        d.name(entry.span(), format_args!("link kind"), &l.kind);
        let errors_before = d.errors.len();
        if l.path.len() < 2 {
            d.at(
                entry.span(),
                format!(
                    "{} `{}`: a link's `path` needs at least two hexes (it joins each hex to the \
                     next), it has {}",
                    l.kind,
                    l.name.as_deref().unwrap_or(""),
                    l.path.len()
                ),
            );
        }
        let mut path = Vec::new();
        for (i, s) in l.path.iter().enumerate() {
            match expand_label(&map, s.get_ref()) {
                Ok(h) if h.len() == 1 => {
                    if let Some(prev) = path.last() {
                        if Hexside::between(*prev, h[0]).is_none() {
                            d.at(
                                s.span(),
                                format!(
                                    "{} `{}`: {} does not touch the previous hex {} (step {})",
                                    l.kind,
                                    l.name.as_deref().unwrap_or(""),
                                    s.get_ref(),
                                    map.label(*prev),
                                    i
                                ),
                            );
                        }
                    }
                    path.push(h[0]);
                }
                Ok(_) => d.at(s.span(), "a link path takes single hexes, not ranges"),
                Err(m) => d.at(s.span(), m),
            }
        }
        if d.errors.len() == errors_before {
            if let Err(e) = map.add_link(&l.kind, l.name.clone(), path) {
                d.at(entry.span(), format!("link `{}`: {e}", l.kind));
            }
        }
    }
    let mut place_lines: BTreeMap<&str, usize> = BTreeMap::new();
    // the place each hex is in, and its line: `kessel.map.place` gives a hex's one place, so
    // a hex listed by a second place was that place's in the drawing and no one's in the rules
    let mut place_of: BTreeMap<Hex, (&str, usize)> = BTreeMap::new();
    for entry in &file.places {
        let p = entry.get_ref();
        d.name(entry.span(), format_args!("place name"), &p.name);
        d.name(entry.span(), format_args!("place kind"), &p.kind);
        if let Some(first) = d.seen_before(&mut place_lines, p.name.as_str(), &entry.span()) {
            d.at(
                entry.span(),
                format!(
                    "place `{}` is defined twice (first at {first}): give each place its \
                     own name, or list all its hexes in one entry",
                    p.name
                ),
            );
        }
        if p.hexes.is_empty() {
            d.at(entry.span(), format!("place `{}` has no hexes", p.name));
        }
        let hexes = parse_hexes(&map, &p.hexes, &mut d);
        let mut once = BTreeSet::new();
        for (h, item) in &hexes {
            if !once.insert(*h) {
                d.at(
                    item.clone(),
                    format!(
                        "place `{}` lists hex {} twice: remove one",
                        p.name,
                        map.label(*h)
                    ),
                );
                continue;
            }
            let line = d.line(entry.span().start);
            match place_of.get(h) {
                Some((other, first)) if *other != p.name.as_str() => d.at(
                    item.clone(),
                    format!(
                        "place `{}` lists hex {}, which is in place `{other}` (line {first}): a \
                         hex is in one place at most; remove it from one of them",
                        p.name,
                        map.label(*h)
                    ),
                ),
                _ => {
                    place_of.insert(*h, (p.name.as_str(), line));
                }
            }
        }
        let hexes = hexes.into_iter().map(|(h, _)| h).collect();
        let place = Place {
            name: p.name.clone(),
            kind: p.kind.clone(),
            hexes,
        };
        if let Err(e) = map.add_place(place) {
            d.at(entry.span(), format!("place `{}`: {e}", p.name));
        }
    }
    for entry in &file.areas {
        let a = entry.get_ref();
        d.name(entry.span(), format_args!("area id"), &a.id);
        if a.hexes.is_empty() {
            d.at(
                entry.span(),
                format!(
                    "area `{}` has no hexes: list them in `hexes`, or remove it",
                    a.id
                ),
            );
        }
        // a hex listed twice was in the area's list twice (`kessel.map.area` gave 6 hexes of 5),
        // as a place's or an objective's hex listed twice is refused
        let mut once = BTreeSet::new();
        let mut hexes = Vec::new();
        for (h, item) in parse_hexes(&map, &a.hexes, &mut d) {
            if once.insert(h) {
                hexes.push(h);
            } else {
                d.at(
                    item,
                    format!(
                        "area `{}` lists hex {} twice: remove one",
                        a.id,
                        map.label(h)
                    ),
                );
            }
        }
        if map.areas.contains_key(&a.id) {
            let span = a.hexes.first().map(|h| h.span()).unwrap_or(0..0);
            d.at(span, format!("area `{}` is defined twice", a.id));
        }
        map.areas.insert(
            a.id.clone(),
            Area {
                id: a.id.clone(),
                name: a.name.clone().unwrap_or_else(|| a.id.clone()),
                hexes,
            },
        );
    }
    for entry in &file.tags {
        let t = entry.get_ref();
        // a tag is a name the rules ask for (kessel.map.tagged), as kessel.emit's tags are
        d.name(entry.span(), format_args!("tag"), &t.tag);
        let hexes = parse_hexes(&map, &t.hexes, &mut d)
            .into_iter()
            .map(|(h, _)| h);
        map.tags.entry(t.tag.clone()).or_default().extend(hexes);
    }
    Ok((map, d.errors))
}

/// A terrain character as a message quotes it: in backticks, or as `U+XXXX` when it would not
/// show there (a space, a tab, a control, a character that shows as nothing, a combining mark
/// that joined the backtick before it: "terrain character `́` is not in the legend").
fn shown_char(ch: char) -> String {
    let combining = matches!(
        ch,
        '\u{0300}'..='\u{036f}'
            | '\u{1ab0}'..='\u{1aff}'
            | '\u{1dc0}'..='\u{1dff}'
            | '\u{20d0}'..='\u{20ff}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{fe20}'..='\u{fe2f}'
    );
    if ch.is_whitespace() || ch.is_control() || combining || crate::error::hidden_char(ch) {
        let name = if ch == ' ' { " (a space)" } else { "" };
        format!("U+{:04X}{name}", ch as u32)
    } else {
        format!("`{ch}`")
    }
}
