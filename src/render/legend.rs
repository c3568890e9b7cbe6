//! The legend under the map: one swatch per terrain, hexside kind, place kind, tag and side
//! present, labelled with the ruleset's display names; then notes and the list of areas.

use super::svg::{esc, hex, n};
use super::Options;
use kessel_core::map::{KindId, Map};
use kessel_draw::pieces;
use kessel_draw::style::{MapKinds, PlaceSymbol};
use kessel_draw::{MapStyle, Point};
use std::collections::BTreeSet;
use std::fmt::Write;

/// Width of one legend cell.
const LEGEND_CELL: f32 = 190.0;
/// Width of one column of the area list.
const AREA_CELL: f32 = 360.0;

pub(super) struct LegendInput<'a> {
    pub map: &'a Map,
    pub kinds: &'a MapKinds,
    /// Hexside kinds present on the map.
    pub present: &'a [KindId],
    pub style: &'a MapStyle,
    /// Sides with units on the map, in play order.
    pub sides: &'a [&'a str],
    /// Some hex is drawn with a VP star (an objective worth VP, or a VP tag).
    pub stars: bool,
    /// The kinds of the markers drawn on the map.
    pub marker_kinds: &'a BTreeSet<&'a str>,
    pub opts: &'a Options,
    pub top: f32,
    pub width: f32,
    pub margin: f32,
}

/// Writes the legend below the map; returns its height.
pub(super) fn legend(body: &mut String, li: &LegendInput<'_>) -> f32 {
    let map = li.map;
    // each item: a swatch drawn in a 30×18 box at (0,0), and its text
    let mut items: Vec<(String, String)> = Vec::new();
    let hexagon = |fill: &str| {
        format!(
            "<path d=\"M27 9l-4.5 7.8h-9L9 9l4.5-7.8h9z\" fill=\"{fill}\" stroke=\"#8a8a80\" stroke-width=\"0.6\" transform=\"translate(-3 0)\"/>"
        )
    };
    let terrains_used: BTreeSet<KindId> = map.hexes().filter_map(|h| map.terrain(h)).collect();
    for t in terrains_used {
        let st = li.kinds.terrain(t);
        let mut swatch = hexagon(&hex(st.fill));
        let marks: Vec<_> = pieces::terrain_marks(st.marks, Point::new(15.0, 9.0), 7.0).collect();
        if !marks.is_empty() {
            let ink = hex(pieces::mark_color(st.fill));
            let _ = write!(swatch, "<g fill=\"{ink}\" stroke=\"{ink}\">");
            for m in &marks {
                super::mark_svg(&mut swatch, m);
            }
            swatch.push_str("</g>");
        }
        items.push((swatch, st.name.clone()));
    }
    for k in li.present {
        let st = &li.kinds.hexsides[*k as usize];
        let (c, w) = (hex(st.color), n(st.width * 24.0));
        let (line, what) = if st.link && st.ticks {
            (
                format!("<path d=\"M2 9L28 9M7 5.4L7 12.6M15 5.4L15 12.6M23 5.4L23 12.6\" fill=\"none\" stroke=\"{c}\" stroke-width=\"{w}\"/>"),
                "(hex to hex)",
            )
        } else if st.link {
            (
                format!(
                    "<path d=\"M2 9L28 9\" fill=\"none\" stroke=\"{c}\" stroke-width=\"{w}\" stroke-linecap=\"round\"/>\
                     <path d=\"M2 9L28 9\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"round\"/>",
                    hex(pieces::link_core(st.color)),
                    n(st.width * 12.0)
                ),
                "(hex to hex)",
            )
        } else {
            (
                format!("<path d=\"M4 3L12 15L26 15\" fill=\"none\" stroke=\"{c}\" stroke-width=\"{w}\" stroke-linecap=\"round\"/>"),
                "hexside",
            )
        };
        items.push((line, format!("{} {what}", st.name)));
    }
    let kinds: BTreeSet<(PlaceSymbol, &str)> = map
        .places
        .iter()
        .map(|p| (li.style.place(&p.kind).symbol, p.kind.as_str()))
        .collect();
    for (_, kind) in kinds {
        let st = li.style.place(kind);
        let swatch = super::place_symbol(st.symbol, &hex(st.color), Point::new(15.0, 9.0), 14.0);
        items.push((swatch, st.name));
    }
    if li.stars {
        items.push((
            super::star_svg("legend", Point::new(15.0, 9.0), 6.5),
            "VP hex (objective or VP tag)".to_string(),
        ));
    }
    // a VP tag is drawn as the star above, not as a tag of its own
    for tag in map
        .tags
        .keys()
        .filter(|t| !(li.stars && pieces::is_vp_tag(t)))
    {
        items.push((
            super::tag_symbol(tag, Point::new(15.0, 9.0)),
            format!("tag {tag}"),
        ));
    }
    for kind in li.marker_kinds {
        items.push((
            super::marker_chip(kind, Point::new(15.0, 9.0), pieces::MARKER_CHIP * 24.0),
            format!("{} marker", kind.replace('_', " ")),
        ));
    }
    if li.opts.units {
        for side in li.sides {
            let st = li.style.side(side);
            items.push((
                format!(
                    "<rect x=\"6\" y=\"0\" width=\"18\" height=\"18\" rx=\"1.5\" fill=\"{}\" stroke=\"#222\" stroke-width=\"0.7\"/>",
                    hex(st.color)
                ),
                format!("{} unit", st.name),
            ));
        }
    }
    let margin = li.margin;
    let per_row = ((li.width - 2.0 * margin) / LEGEND_CELL).floor().max(1.0) as usize;
    let _ = writeln!(
        body,
        "<g id=\"legend\" font-size=\"10\" fill=\"#222\"><text x=\"{}\" y=\"{}\" font-size=\"12\" font-weight=\"bold\">Legend</text>",
        n(margin),
        n(li.top)
    );
    let mut y = li.top + 10.0;
    for (i, (swatch, text)) in items.iter().enumerate() {
        let (col, row) = (i % per_row, i / per_row);
        let x = margin + col as f32 * LEGEND_CELL;
        let yy = y + row as f32 * 24.0;
        let _ = writeln!(
            body,
            "<g transform=\"translate({} {})\">{swatch}</g><text x=\"{}\" y=\"{}\">{}</text>",
            n(x),
            n(yy),
            n(x + 36.0),
            n(yy + 13.0),
            esc(text)
        );
    }
    y += items.len().div_ceil(per_row) as f32 * 24.0 + 6.0;
    let mut notes = vec!["Hex numbers at the top of each hex.".to_string()];
    if li.opts.units {
        notes.push(
            "Counter: the top unit of the stack, the one listed last (formation or leader's name, unit symbol or type, and its values as printed; ? = hidden); the black disc = units in the hex; a star on its left edge = a VP hex under the counters.".to_string(),
        );
    }
    if !li.marker_kinds.is_empty() {
        notes.push(
            "Markers: at a hex's top left, or on a hexside; a value on the dark tag under one."
                .to_string(),
        );
    }
    if li.opts.areas && !map.areas.is_empty() {
        notes.push("Areas: dashed outlines, ids at each area's first hex.".to_string());
    }
    // (wrapped to the picture's width: a small map's picture is narrower than one note)
    let per_line = ((li.width - 2.0 * margin) / NOTE_CHAR_WIDTH)
        .floor()
        .max(20.0) as usize;
    for line in notes.iter().flat_map(|note| wrapped(note, per_line)) {
        y += 13.0;
        let _ = writeln!(
            body,
            "<text x=\"{}\" y=\"{}\" font-size=\"9.5\" fill=\"#444\">{}</text>",
            n(margin),
            n(y),
            esc(&line)
        );
    }
    if li.opts.areas && !map.areas.is_empty() {
        y += 8.0;
        let per_row = ((li.width - 2.0 * margin) / AREA_CELL).floor().max(1.0) as usize;
        let rows = map.areas.len().div_ceil(per_row);
        for (i, (id, a)) in map.areas.iter().enumerate() {
            // fill column by column
            let (col, row) = (i / rows, i % rows);
            let x = margin + col as f32 * AREA_CELL;
            let yy = y + 12.0 + row as f32 * 13.0;
            let _ = writeln!(
                body,
                "<text x=\"{}\" y=\"{}\" font-size=\"9\"><tspan font-weight=\"bold\" fill=\"{}\">{}</tspan> {}</text>",
                n(x),
                n(yy),
                hex(pieces::area_color(id)),
                esc(id),
                esc(&a.name)
            );
        }
        y += 12.0 + rows as f32 * 13.0;
    }
    body.push_str("</g>\n");
    y - li.top + 6.0
}

/// About how wide one character of a legend note is (9.5-point sans), to wrap notes by.
const NOTE_CHAR_WIDTH: f32 = 5.4;

/// `text` in lines of at most `width` characters, broken between words (a word longer than a
/// line stands alone).
fn wrapped(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::wrapped;

    #[test]
    fn notes_wrap_between_words() {
        assert_eq!(
            wrapped("one two three four", 9),
            ["one two", "three", "four"]
        );
        assert_eq!(wrapped("short", 40), ["short"]);
        assert_eq!(
            wrapped("a muchlongerword b", 5),
            ["a", "muchlongerword", "b"]
        );
    }
}
