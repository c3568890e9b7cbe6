//! What is drawn in and over a hex, as geometry both drawers share: stacks and the rule for their
//! top unit, counter sizes, where a place's name goes, terrain marks, the star of a VP hex.

use crate::color::{hashed, Rgb, Tone};
use crate::layout::{HexLayout, Point};
use crate::style::Marks;
use kessel_core::hex::{Hex, Hexside};
use kessel_core::map::Map;
use kessel_core::state::{Marker, Unit};
use std::collections::BTreeMap;

/// Counter side in hex radii: a square that fits inside the hex.
pub const COUNTER_SIZE: f32 = 1.2;
/// Offset of each counter below the top one, as a share of the counter's side.
pub const STACK_STEP: f32 = 0.07;
/// Counters drawn under the top one (a taller stack shows its count instead).
pub const STACK_SHADOWS: usize = 2;

/// The units on the map by hex, as indices into `units`, bottom first.
///
/// **The one rule for the top of a stack:** units keep the order of the list they come from (the
/// scenario's order at set-up, the state's order in play), and the last one lies on top, as a
/// counter put down later lies on the earlier ones.
pub fn stacks(units: &[Unit]) -> BTreeMap<Hex, Vec<usize>> {
    let mut out: BTreeMap<Hex, Vec<usize>> = BTreeMap::new();
    for (i, u) in units.iter().enumerate() {
        if let Some(h) = u.hex() {
            out.entry(h).or_default().push(i);
        }
    }
    out
}

/// The unit on top of a stack listed bottom first (see [`stacks`]).
pub fn top_of<T>(stack: &[T]) -> Option<&T> {
    stack.last()
}

/// A counter's fill: its side's colour, darker while the unit is hidden (untried, face down).
pub fn counter_fill(side_color: Rgb, hidden: bool) -> Rgb {
    if hidden {
        side_color.scaled(0.72)
    } else {
        side_color
    }
}

/// A stack's counters: the rectangle of each drawn one, bottom first, as (top-left, side). The
/// pile is shifted up-left so the whole stack stays centred on the hex.
pub fn stack_rects(center: Point, size: f32, count: usize) -> Vec<(Point, f32)> {
    let w = COUNTER_SIZE * size;
    let depth = count.saturating_sub(1).min(STACK_SHADOWS);
    let step = STACK_STEP * w;
    let shift = step * depth as f32 / 2.0;
    (0..=depth)
        .rev()
        .map(|k| {
            let c = Point::new(
                center.x - shift + step * k as f32,
                center.y - shift + step * k as f32,
            );
            (Point::new(c.x - w / 2.0, c.y - w / 2.0), w)
        })
        .collect()
}

/// Where a place's name goes: the top centre of the text, under the lowest of its hexes. Over a
/// hex without counters the name sits just under the place's symbol, inside the hex, clear of
/// the hex numbers printed along the top of the hexes below; over a hex with counters
/// (`stacked`) it goes below them, where it covers the number of the hex below rather than
/// being covered. Names are drawn before counters, so where a name runs under a neighbour's
/// stack the counters stay whole: a name never covers a counter.
pub fn place_label_anchor(
    layout: &HexLayout,
    hexes: &[Hex],
    stacked: impl Fn(Hex) -> bool,
) -> Option<Point> {
    let lowest = hexes.iter().copied().max_by(|a, b| {
        let (pa, pb) = (layout.center(*a), layout.center(*b));
        pa.y.total_cmp(&pb.y)
    })?;
    let x = hexes.iter().map(|h| layout.center(*h).x).sum::<f32>() / hexes.len() as f32;
    let bottom = layout.center(lowest).y;
    let below = if stacked(lowest) {
        let w = COUNTER_SIZE * layout.size;
        w / 2.0 + STACK_STEP * w * STACK_SHADOWS as f32 / 2.0 + 0.03 * layout.size
    } else {
        (PLACE_SQUARE / 2.0 + 0.05) * layout.size
    };
    Some(Point::new(x, bottom + below))
}

/// Font size of a place name in hex radii: what fits between a counter and the next hex.
pub const PLACE_FONT: f32 = 0.34;

/// One mark of a terrain's [`Marks`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mark {
    /// A filled circle.
    Dot {
        /// Centre.
        c: Point,
        /// Radius.
        r: f32,
    },
    /// A line.
    Line {
        /// Start.
        a: Point,
        /// End.
        b: Point,
        /// Width.
        width: f32,
    },
}

/// The marks of a terrain in a hex centred on `c` of radius `size` (an iterator: the editor asks
/// for them for every hex on screen, every frame).
pub fn terrain_marks(marks: Marks, c: Point, size: f32) -> impl Iterator<Item = Mark> {
    const TREES: [(f32, f32); 3] = [(-0.35, 0.2), (0.3, 0.3), (-0.05, -0.35)];
    const MARSH: [(f32, f32); 3] = [(-0.4, -0.2), (0.1, 0.05), (-0.25, 0.4)];
    let at = move |dx: f32, dy: f32| Point::new(c.x + dx * size, c.y + dy * size);
    let offsets: &[(f32, f32)] = match marks {
        Marks::None => &[],
        Marks::Trees => &TREES,
        Marks::Marsh => &MARSH,
    };
    offsets.iter().map(move |&(x, y)| match marks {
        Marks::Trees => Mark::Dot {
            c: at(x, y),
            r: 0.13 * size,
        },
        _ => Mark::Line {
            a: at(x, y),
            b: at(x + 0.35, y),
            width: 0.05 * size,
        },
    })
}

/// The colour of a terrain's marks: its fill, darkened.
pub fn mark_color(fill: Rgb) -> Rgb {
    fill.scaled(0.62)
}

/// The ten points of a five-pointed star (tip up), outer then inner, clockwise.
pub fn star_points(c: Point, r: f32) -> [Point; 10] {
    let inner = r * 0.42;
    std::array::from_fn(|i| {
        let a = -std::f32::consts::FRAC_PI_2 + std::f32::consts::PI * i as f32 / 5.0;
        let rad = if i % 2 == 0 { r } else { inner };
        Point::new(c.x + a.cos() * rad, c.y + a.sin() * rad)
    })
}

/// Where a hex's VP star goes: the upper right of the hex.
pub fn star_anchor(c: Point, size: f32) -> Point {
    Point::new(c.x + 0.5 * size, c.y - 0.45 * size)
}

/// Where a VP star goes, and its radius, on a hex holding counters (their top counter's corner
/// `min` and side `w`): the upper right of [`star_anchor`] lies under the counters and is the
/// stack's count badge's, so the star is drawn over the counters, on the top one's left edge,
/// between its top line and its values, clear of its symbol.
pub fn star_on_stack(min: Point, w: f32) -> (Point, f32) {
    (Point::new(min.x, min.y + 0.52 * w), 0.15 * w)
}

/// Radius of a stack's count badge on a counter of side `w`.
pub fn badge_radius(w: f32) -> f32 {
    0.17 * w
}

/// Where a stack's count badge may go, best first, on its top counter (corner `min`, side `w`)
/// with the badge's radius `r`. The first spot straddles the counter's top right corner; the
/// others keep the badge from rising above the counter, where it would cover the name printed at
/// the bottom of the hex to the north (names run on below their own hex): on the right edge, then
/// on the left edge (above the VP star there, [`star_on_stack`]). A drawer takes the first spot
/// whose badge covers no name it drew and no VP star on a stack (a neighbour's, on the left edge
/// of its counter, sits by this counter's top right corner).
pub fn badge_spots(min: Point, w: f32, r: f32) -> [Point; 3] {
    [
        Point::new(min.x + w, min.y),
        Point::new(min.x + w, min.y + r),
        Point::new(min.x, min.y + r),
    ]
}

/// The first of `spots` where a badge of radius `r` is `clear` (given its bounding box as
/// top-left and bottom-right), else the second, which never rises above the counter: see
/// [`badge_spots`].
pub fn badge_at(spots: &[Point], r: f32, clear: impl Fn(Point, Point) -> bool) -> Option<Point> {
    spots
        .iter()
        .copied()
        .find(|p| clear(Point::new(p.x - r, p.y - r), Point::new(p.x + r, p.y + r)))
        .or_else(|| spots.get(1).or(spots.first()).copied())
}

/// The stretch of a counter's top line (corner `min`, side `w`), as its left and right x, that a
/// count badge `badge` (centre and radius) leaves free: the counter's width but a small margin,
/// or the part beside the badge where the badge reaches into the line's band (`band`: its top
/// and bottom y). A name is fitted into it (shortened with [`short_name`] until it fits), so the
/// badge covers no letter of it: at the counter's right edge it covered the last one.
pub fn top_line_room(
    min: Point,
    w: f32,
    band: (f32, f32),
    badge: Option<(Point, f32)>,
) -> (f32, f32) {
    let (mut left, mut right) = (min.x + 0.04 * w, min.x + 0.96 * w);
    if let Some((at, r)) = badge {
        let reaches = at.y - r < band.1 && at.y + r > band.0;
        let gap = 0.03 * w;
        if reaches && at.x >= min.x + w / 2.0 {
            right = right.min(at.x - r - gap);
        } else if reaches {
            left = left.max(at.x + r + gap);
        }
    }
    (left, right.max(left))
}

/// Side of a marker's chip in hex radii.
pub const MARKER_CHIP: f32 = 0.42;
/// Height a marker's value takes on its tag under the chip, in hex radii: the room left under a
/// chip with a value before the next one (the next chip covered the value).
pub const MARKER_TAG: f32 = 0.35;

/// The top-left corner of the tag (`tag_w` wide) that shows the value of the marker chip of side
/// `chip` centred on `at`: under the chip, centred on it, but never past its right edge, so a
/// value wider than the chip runs out to the left, away from the counters (and a VP star on a
/// stack's left edge) rather than onto them; yet never out of the chip's hex (`hex`: centre and
/// radius, for a chip of a hex's column): a wide value ran onto the neighbour to the left, and
/// runs right, over its own hex, as far as it must.
pub fn marker_tag_min(at: Point, chip: f32, tag_w: f32, hex: Option<(Point, f32)>) -> Point {
    let past = ((tag_w - chip) / 2.0).max(0.0);
    let top = at.y + chip / 2.0;
    let mut x = at.x - tag_w / 2.0 - past;
    if let Some((c, size)) = hex {
        let bottom = top + MARKER_TAG / MARKER_CHIP * chip;
        let reach = (top - c.y).abs().max((bottom - c.y).abs());
        x = x.max(c.x - size + reach / 3f32.sqrt() + 0.04 * size);
    }
    Point::new(x, top)
}

/// Where the centre of the `k`-th marker chip (side `chip`) of a hexside goes: in a row from the
/// middle of the shared edge, halfway between the two hexes' centres `c` and `other` (a wall
/// between two hexes was drawn as a chip in the first hex, like a marker in it).
pub fn hexside_marker_anchor(c: Point, other: Point, k: usize, chip: f32) -> Point {
    // apart, a gap between: overlapping, a chip hid the initials and value of the last
    let m = c.lerp(other, 0.5);
    Point::new(m.x + k as f32 * chip * 1.1, m.y)
}

/// Markers by the hex (or hexside: `other`) they lie in, each group in the order given, with each
/// one's value as drawn ([`marker_value_text`], at most six characters): a hex's chips are laid
/// out together ([`marker_column`]).
pub type MarkerGroups<'a> = BTreeMap<(Hex, Option<Hex>), Vec<(&'a Marker, Option<String>)>>;

/// [`MarkerGroups`] of the markers on the map that `keep` keeps (by their hex).
pub fn marker_groups<'a>(
    markers: impl IntoIterator<Item = &'a Marker>,
    keep: impl Fn(Hex) -> bool,
) -> MarkerGroups<'a> {
    let mut groups = MarkerGroups::new();
    for m in markers {
        let Some(h) = m.hex.filter(|h| keep(*h)) else {
            continue;
        };
        let value = (m.value.as_ref()).and_then(|v| marker_value_text(v, 6));
        groups.entry((h, m.other)).or_default().push((m, value));
    }
    groups
}

/// The box of a counter's values line (corner `min`, side `w`, as [`crate::counter`] prints
/// it: along its bottom edge), as top-left and bottom-right: what a hex's marker chips keep
/// off ([`marker_column`]).
pub fn values_box(min: Point, w: f32) -> (Point, Point) {
    (
        Point::new(min.x, min.y + 0.7 * w),
        Point::new(min.x + w, min.y + w),
    )
}

/// How far a hex's marker chips may shrink to keep off its counter's values
/// ([`marker_column`]): past it they keep their size and lie over the values, as before.
const VALUES_SHRINK: f32 = 0.55;

/// Where a hex's marker chips go, and their side: `tags[k]` says whether the `k`-th has a value's
/// tag under it. The chips (each with the room of its tag, [`MARKER_TAG`] for a chip of side
/// [`MARKER_CHIP`]) run down a column from under the hex number to the bottom of the hex, each as
/// far left as the hex's slanting left sides let it lie wholly inside the hex (centre `c`,
/// radius `size`); `chip` is the side wanted, made smaller until all of them fit: a column of
/// fixed chips ran out of the hex onto a neighbour's counter (ridge 0503's second chip on
/// 0403). `star`: a VP star on the stack ([`star_on_stack`]): a chip that would reach over it
/// goes on below it, its tag too. `values`: the top counter's values line ([`values_box`]): the
/// chips end above it (the column's lower chips lay on the counter's first value digit), made
/// smaller down to [`VALUES_SHRINK`] of `chip`, above the star when there is one (below it
/// they would start where the values do); beyond that they lie over it as they did. A
/// hexside's markers go by [`hexside_marker_anchor`].
pub fn marker_column(
    c: Point,
    size: f32,
    chip: f32,
    tags: &[bool],
    star: Option<(Point, f32)>,
    values: Option<(Point, Point)>,
) -> (f32, Vec<Point>) {
    if let Some(b) = values {
        // with a VP star on the counter's left edge, above it first: below it the column
        // starts where the values do, and its chip lay on their first digit
        if let Some((at, r)) = star {
            let (side, out) = column(c, size, chip, tags, None, Some(at.y - r));
            if side >= VALUES_SHRINK * chip {
                return (side, out);
            }
        }
        let (side, out) = column(c, size, chip, tags, star, Some(b.0.y));
        if side >= VALUES_SHRINK * chip {
            return (side, out);
        }
    }
    column(c, size, chip, tags, star, None)
}

/// [`marker_column`]'s column, ending above `floor` if given.
fn column(
    c: Point,
    size: f32,
    chip: f32,
    tags: &[bool],
    star: Option<(Point, f32)>,
    floor: Option<f32>,
) -> (f32, Vec<Point>) {
    let margin = 0.04 * size;
    let half = 0.866 * size;
    // the hex number is printed across the top centre, about 0.4 of a radius deep
    let top = c.y - half + 0.42 * size;
    let bottom = (c.y + half - margin).min(floor.map_or(f32::INFINITY, |f| f - margin));
    let place = |side: f32| -> (bool, Vec<Point>) {
        let tag = MARKER_TAG / MARKER_CHIP * side;
        let mut out = Vec::with_capacity(tags.len());
        let mut y = top;
        let mut fits = true;
        for &has_tag in tags {
            let h = side + if has_tag { tag } else { 0.0 };
            let x_at = |y: f32| {
                let reach = (y - c.y).abs().max((y + side - c.y).abs());
                c.x - size + reach / 3f32.sqrt() + margin + side / 2.0
            };
            if let Some((at, r)) = star {
                let over = |y: f32| {
                    x_at(y) + side / 2.0 > at.x - r - margin
                        && y < at.y + r + margin
                        && y + h > at.y - r - margin
                };
                if over(y) {
                    y = at.y + r + margin;
                }
            }
            // (a chip too wide for the hex at its height reaches out of its right side)
            let reach = (y - c.y).abs().max((y + side - c.y).abs());
            if y + h > bottom + 0.001 || x_at(y) + side / 2.0 > c.x + size - reach / 3f32.sqrt() {
                fits = false;
            }
            out.push(Point::new(x_at(y), y + side / 2.0));
            y += h + 0.1 * side;
        }
        (fits, out)
    };
    let mut side = chip;
    let mut tries = 0;
    loop {
        let (fits, out) = place(side);
        // (small enough to fit in any hex long before the tries run out)
        tries += 1;
        if fits || tries >= 80 {
            return (side, out);
        }
        side *= 0.9;
    }
}

/// The initials a marker's chip shows: the first letters of its kind's first two words
/// (`air_interdiction` reads `AI`).
pub fn marker_initials(kind: &str) -> String {
    kind.split(['_', ' '])
        .filter_map(|w| w.chars().next())
        .take(2)
        .collect::<String>()
        .to_uppercase()
}

/// A marker's value as the few characters drawn on the map beside it: a number or a short word
/// as it is, the values of a table or list in order joined by `/` (`{ ap = 6 }` reads `6`), at
/// most `max` characters (an ellipsis marks a cut); `None` for a value with nothing to show.
pub fn marker_value_text(v: &kessel_core::state::Value, max: usize) -> Option<String> {
    use kessel_core::state::Value;
    fn scalar(v: &Value) -> Option<String> {
        match v {
            Value::Number(n) => Some(n.to_string()),
            Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
            Value::Bool(true) => Some("yes".into()),
            Value::Bool(false) => Some("no".into()),
            _ => None,
        }
    }
    let text = match v {
        Value::Array(items) => items
            .iter()
            .filter_map(scalar)
            .collect::<Vec<_>>()
            .join("/"),
        Value::Object(fields) => fields
            .values()
            .filter_map(scalar)
            .collect::<Vec<_>>()
            .join("/"),
        other => scalar(other)?,
    };
    if text.is_empty() {
        return None;
    }
    if text.chars().count() > max {
        let cut: String = text.chars().take(max.saturating_sub(1)).collect();
        return Some(format!("{cut}…"));
    }
    Some(text)
}

/// True for a tag that marks victory-point hexes (`vp`, `vp_hex`, …), drawn as a star.
pub fn is_vp_tag(tag: &str) -> bool {
    tag.to_ascii_lowercase().contains("vp")
}

/// Side of a place kind's square, and radius of its dot or diamond, in hex radii.
pub const PLACE_SQUARE: f32 = 0.62;
/// Radius of a place kind's dot or diamond, in hex radii.
pub const PLACE_DOT: f32 = 0.2;

/// Fill and outline of a VP star.
pub const STAR_FILL: Rgb = Rgb::new(0xf2, 0xc2, 0x00);
/// Outline of a VP star.
pub const STAR_INK: Rgb = Rgb::new(0x6b, 0x52, 0x00);

/// The colour of an area (entry area, set-up zone): dark enough for white text on it.
pub fn area_color(id: &str) -> Rgb {
    hashed(id, Tone::Dark)
}

/// Where a link crossing `side` is drawn: centre to centre, or from the on-map centre to the
/// middle of the map's edge when the other hex is off the map.
pub fn link_segment(layout: &HexLayout, map: &Map, side: Hexside) -> (Point, Point) {
    let (a, b) = side.hexes();
    let (ca, cb) = (layout.center(a), layout.center(b));
    match (map.contains(a), map.contains(b)) {
        (true, false) | (false, true) => {
            let (e1, e2) = layout.side_edge(side);
            let mid = e1.lerp(e2, 0.5);
            if map.contains(a) {
                (ca, mid)
            } else {
                (mid, cb)
            }
        }
        _ => (ca, cb),
    }
}

/// The cross-ties of a ticked link (a railway) from `a` to `b`, each as its two ends.
pub fn link_ticks(a: Point, b: Point, size: f32) -> Vec<(Point, Point)> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let len = (dx * dx + dy * dy).sqrt();
    if len <= 0.0 {
        return Vec::new();
    }
    let (ux, uy) = (dx / len, dy / len);
    let half = 0.15 * size;
    let (px, py) = (-uy * half, ux * half);
    let count = ((len / (0.42 * size)).round() as usize).max(1);
    (0..count)
        .map(|i| {
            let m = a.lerp(b, (i as f32 + 0.5) / count as f32);
            (
                Point::new(m.x - px, m.y - py),
                Point::new(m.x + px, m.y + py),
            )
        })
        .collect()
}

/// The light core of a cased link (a road), drawn half as wide: the line's hue, light, so a brown
/// road keeps a warm tan core rather than a grey one.
pub fn link_core(color: Rgb) -> Rgb {
    let (h, s, _) = color.to_hsl();
    Rgb::hsl(h, s.min(0.6), 0.74)
}

/// A name shortened to at most `max` characters with intent, for the little room on a counter:
/// qualifiers in brackets go first ("IR 20 (mot)" → "IR 20"), then long words without digits,
/// where numbers remain to tell units apart ("Reinf T3 Z" → "T3 Z"), then whole words from the
/// end; a single word longer than the room keeps its start and an abbreviation point
/// ("Grossdeutschland" → "Grossde."). Never a word cut without saying so.
pub fn short_name(text: &str, max: usize) -> String {
    let len = |s: &str| s.chars().count();
    let t = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if len(&t) <= max {
        return t;
    }
    let mut s = without_brackets(&t);
    if len(&s) > max {
        let kept: Vec<&str> = s
            .split_whitespace()
            .filter(|w| !(len(w) > 4 && w.chars().all(char::is_alphabetic)))
            .collect();
        // only where numbers remain to tell units apart ("Horse Lancer" keeps its words)
        if kept.iter().any(|w| w.chars().any(|c| c.is_ascii_digit())) {
            s = kept.join(" ");
        }
    }
    if len(&s) <= max {
        return s;
    }
    let mut out = String::new();
    for w in s.split_whitespace() {
        let grown = if out.is_empty() {
            len(w)
        } else {
            len(&out) + 1 + len(w)
        };
        if grown > max {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    if out.is_empty() {
        out = s.chars().take(max.saturating_sub(1)).collect();
        out.push('.');
    }
    out
}

/// Text without its bracketed parts (`(mot)`, `[reserve]`), spaces tidied.
fn without_brackets(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    let tidy = out.split_whitespace().collect::<Vec<_>>().join(" ");
    if tidy.is_empty() {
        text.to_string()
    } else {
        tidy
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kessel_core::numbering::Numbering;
    use kessel_core::state::Location;

    fn unit(id: &str, at: Option<Hex>) -> Unit {
        Unit {
            location: at.map_or(Location::Pending, Location::Map),
            ..Unit::new(id, "a", "k")
        }
    }

    #[test]
    fn the_last_unit_listed_is_on_top() {
        let h = Hex::new(2, 3);
        let units = vec![unit("a", Some(h)), unit("b", None), unit("c", Some(h))];
        let s = stacks(&units);
        assert_eq!(s.len(), 1);
        let top = top_of(&s[&h]).map(|&i| units[i].id.as_str());
        assert_eq!(top, Some("c"));
        assert_eq!(top_of::<usize>(&[]), None);
    }

    #[test]
    fn a_place_name_sits_below_its_counters_or_else_inside_its_hex() {
        let map = Map::new("t", 4, 4, Numbering::default(), "clear");
        let l = HexLayout::for_map(&map, 20.0);
        let h = map.parse("0202").expect("label");
        let anchor = place_label_anchor(&l, &[h], |_| true).expect("anchor");
        for count in 1..5 {
            for (min, w) in stack_rects(l.center(h), l.size, count) {
                assert!(
                    min.y + w <= anchor.y,
                    "{count}: {} > {}",
                    min.y + w,
                    anchor.y
                );
            }
        }
        // with no counters the name starts under the symbol and ends inside the hex (its
        // bottom edge is 0.866 radii below the centre), where the next hex's number begins
        let free = place_label_anchor(&l, &[h], |_| false).expect("anchor");
        let c = l.center(h);
        assert!(free.y >= c.y + PLACE_SQUARE / 2.0 * l.size, "{free:?}");
        assert!(
            free.y + PLACE_FONT * 1.2 * l.size <= c.y + 0.866 * l.size,
            "{free:?}"
        );
        // the lowest hex of a place decides, and only its counters count
        let below = map.parse("0203").expect("label");
        let two = place_label_anchor(&l, &[below, h], |x| x == h).expect("anchor");
        assert_eq!(two.y, l.center(below).y + (free.y - c.y));
        assert_eq!(place_label_anchor(&l, &[], |_| false), None);
    }

    #[test]
    fn a_stacks_star_stays_in_its_hex_clear_of_the_badge_and_the_symbol() {
        let map = Map::new("t", 4, 4, Numbering::default(), "clear");
        let l = HexLayout::for_map(&map, 20.0);
        let h = map.parse("0202").expect("label");
        let c = l.center(h);
        for count in 1..6 {
            let rects = stack_rects(c, l.size, count);
            let &(min, w) = rects.last().expect("a top counter");
            let (at, r) = star_on_stack(min, w);
            // every point of it inside the hex, none on a neighbour's ground
            for p in star_points(at, r) {
                assert_eq!(l.hex_at(p), h, "{count}: {p:?}");
            }
            // clear of the count badge at the counter's top right (radius at most 0.17 w)
            let badge = ((at.x - (min.x + w)).powi(2) + (at.y - min.y).powi(2)).sqrt();
            assert!(badge > r + 0.17 * w, "{count}: {badge}");
            // and of the symbol box, which starts 0.21 w into the counter
            assert!(at.x + r < min.x + 0.21 * w, "{count}: {}", at.x + r);
        }
    }

    #[test]
    fn a_badge_leaves_the_name_above_its_stack_readable() {
        let map = Map::new("t", 4, 4, Numbering::default(), "clear");
        let l = HexLayout::for_map(&map, 24.0);
        let (north, h) = (
            map.parse("0202").expect("label"),
            map.parse("0203").expect("label"),
        );
        let rects = stack_rects(l.center(h), l.size, 3);
        let &(min, w) = rects.last().expect("a top counter");
        let r = badge_radius(w);
        let spots = badge_spots(min, w, r);
        assert_eq!(spots[0], Point::new(min.x + w, min.y));
        // every other spot keeps the badge on the counter's height, off the hex above
        for p in &spots[1..] {
            assert!(p.y - r >= min.y, "{p:?}");
        }
        // a long name of the hex to the north, running on into this hex's top
        let anchor = place_label_anchor(&l, &[north], |_| false).expect("anchor");
        let (top, bottom) = (anchor.y, l.center(north).y + 1.05 * l.size);
        let (left, right) = (anchor.x - 1.4 * l.size, anchor.x + 1.4 * l.size);
        let clear = |a: Point, b: Point| b.y < top || a.y > bottom || b.x < left || a.x > right;
        assert!(!clear(
            Point::new(spots[0].x - r, spots[0].y - r),
            Point::new(spots[0].x + r, spots[0].y + r)
        ));
        assert_eq!(badge_at(&spots, r, clear), Some(spots[1]));
        // with no name anywhere it keeps the corner; with names everywhere the counter's height
        assert_eq!(badge_at(&spots, r, |_, _| true), Some(spots[0]));
        assert_eq!(badge_at(&spots, r, |_, _| false), Some(spots[1]));
        // the left spot stays clear of a VP star on the counter's left edge
        let (star, sr) = star_on_stack(min, w);
        for p in &spots[2..] {
            assert!(p.distance_sq(star).sqrt() > r + sr, "{p:?}");
        }
    }

    #[test]
    fn a_counters_top_line_leaves_the_badge_its_room() {
        let (min, w) = (Point::new(100.0, 100.0), 60.0);
        let band = (min.y + 0.04 * w, min.y + 0.3 * w);
        let r = badge_radius(w);
        let whole = top_line_room(min, w, band, None);
        assert!(whole.1 - whole.0 > 0.9 * w, "{whole:?}");
        for (k, at) in badge_spots(min, w, r).into_iter().enumerate() {
            let (left, right) = top_line_room(min, w, band, Some((at, r)));
            // nothing of the line within the badge's reach, and room left for a name
            assert!(
                right <= at.x - r || left >= at.x + r,
                "{k}: {left}..{right} under {at:?}"
            );
            assert!(right - left > 0.55 * w, "{k}: {left}..{right}");
        }
        // a badge below the line's band leaves it whole
        let low = Point::new(min.x + w, min.y + 0.6 * w);
        assert_eq!(top_line_room(min, w, band, Some((low, r))), whole);
    }

    #[test]
    fn a_hexsides_marker_chips_go_along_the_shared_edge() {
        let (a, b) = (Point::new(100.0, 100.0), Point::new(100.0, 200.0));
        assert_eq!(
            hexside_marker_anchor(a, b, 0, 20.0),
            Point::new(100.0, 150.0)
        );
        assert_eq!(
            hexside_marker_anchor(a, b, 1, 20.0),
            Point::new(122.0, 150.0)
        );
        assert_eq!(marker_initials("air_interdiction"), "AI");
        assert_eq!(marker_initials("rail cut marker"), "RC");
        assert_eq!(marker_initials("mine"), "M");
    }

    /// Whether the box `min`..`max` lies inside the flat-topped hex of centre `c`, radius `s`.
    fn in_hex(c: Point, s: f32, min: Point, max: Point) -> bool {
        [
            (min.x, min.y),
            (max.x, min.y),
            (min.x, max.y),
            (max.x, max.y),
        ]
        .iter()
        .all(|&(x, y)| {
            let (dx, dy) = ((x - c.x).abs(), (y - c.y).abs());
            dy <= 0.866 * s + 0.01 && dx + dy / 3f32.sqrt() <= s + 0.01
        })
    }

    /// One to four chips, with or without values, on a stack of one to three counters with or
    /// without a VP star, at the render's hex size and at the editor's zooms (its chips are at
    /// least 6 points): every chip lies inside its own hex, below the hex number, off the chips
    /// and tags above it, and neither a chip nor its tag covers the star. A column of chips of
    /// one size ran out of the hex (ridge: 0503's second chip on 0403's counter).
    #[test]
    fn marker_chips_stay_inside_their_own_hex() {
        let overlaps = |a: (Point, Point), b: (Point, Point)| {
            a.0.x < b.1.x && b.0.x < a.1.x && a.0.y < b.1.y && b.0.y < a.1.y
        };
        let patterns: [&[bool]; 7] = [
            &[false],
            &[true],
            &[false, false],
            &[true, true],
            &[false, true, false],
            &[false; 4],
            &[true; 4],
        ];
        let sizes = [0.5, 1.0, 4.0, 8.0, 12.0, 16.5, 24.0, 40.0, 80.0, 160.0];
        for size in sizes {
            let c = Point::new(500.0, 500.0);
            let wanted = (MARKER_CHIP * size).max(6.0);
            for count in 1..=3 {
                let &(min, w) = stack_rects(c, size, count).last().expect("top");
                for star in [None, Some(star_on_stack(min, w))] {
                    for tags in patterns {
                        let (chip, at) = marker_column(c, size, wanted, tags, star, None);
                        assert_eq!(at.len(), tags.len());
                        assert!(chip <= wanted && chip > 0.0, "{size}: {chip}");
                        let mut last_bottom = c.y - 0.866 * size + 0.42 * size - 0.01;
                        for (k, (p, &tag)) in at.iter().zip(tags).enumerate() {
                            let what = format!("{size} {count} {star:?} {tags:?} {k}: {p:?}");
                            let lo = Point::new(p.x - chip / 2.0, p.y - chip / 2.0);
                            let hi = Point::new(p.x + chip / 2.0, p.y + chip / 2.0);
                            assert!(in_hex(c, size, lo, hi), "out of its hex: {what}");
                            assert!(lo.y >= last_bottom, "over the one above: {what}");
                            let tag_h = if tag {
                                MARKER_TAG / MARKER_CHIP * chip
                            } else {
                                0.0
                            };
                            last_bottom = hi.y + tag_h;
                            if let Some((s, r)) = star {
                                let star_box =
                                    (Point::new(s.x - r, s.y - r), Point::new(s.x + r, s.y + r));
                                // a tag runs out left, never past its chip's right edge
                                let item =
                                    (Point::new(f32::MIN, lo.y), Point::new(hi.x, hi.y + tag_h));
                                assert!(!overlaps(item, star_box), "on the star: {what}");
                            }
                        }
                    }
                }
            }
        }
        // a chip keeps the size wanted while the chips fit
        let (chip, _) = marker_column(Point::new(0.0, 0.0), 24.0, 10.0, &[true], None, None);
        assert_eq!(chip, 10.0);
        let (chip, _) = marker_column(Point::new(0.0, 0.0), 24.0, 10.0, &[true; 4], None, None);
        assert!(chip < 10.0, "{chip}");
    }

    /// One or two chips on a counter with no VP star end above its values line: the lower of
    /// two chips lay on the first value digit. Each stays in its hex, below the one above.
    #[test]
    fn marker_chips_keep_off_their_counters_values() {
        let c = Point::new(500.0, 500.0);
        let overlaps = |a: (Point, Point), b: (Point, Point)| {
            a.0.x < b.1.x && b.0.x < a.1.x && a.0.y < b.1.y && b.0.y < a.1.y
        };
        let patterns: [&[bool]; 3] = [&[false], &[true], &[false, false]];
        for size in [16.5, 24.0, 40.0, 80.0] {
            let wanted = MARKER_CHIP * size;
            for count in 1..=3 {
                let &(min, w) = stack_rects(c, size, count).last().expect("top");
                let values = values_box(min, w);
                for tags in patterns {
                    let what = format!("{size} {count} {tags:?}");
                    let (chip, at) = marker_column(c, size, wanted, tags, None, Some(values));
                    assert!(chip >= VALUES_SHRINK * wanted, "{what}: {chip}");
                    for (p, &tag) in at.iter().zip(tags) {
                        let tag_h = if tag {
                            MARKER_TAG / MARKER_CHIP * chip
                        } else {
                            0.0
                        };
                        let item = (
                            Point::new(p.x - chip / 2.0, p.y - chip / 2.0),
                            Point::new(p.x + chip / 2.0, p.y + chip / 2.0 + tag_h),
                        );
                        assert!(!overlaps(item, values), "{what}: on the values at {p:?}");
                        assert!(in_hex(
                            c,
                            size,
                            item.0,
                            Point::new(item.1.x, p.y + chip / 2.0)
                        ));
                    }
                }
                // as the column was laid out before, the second chip lay on the values
                let (chip, at) = marker_column(c, size, wanted, &[false, false], None, None);
                let p = at[1];
                let second = (
                    Point::new(p.x - chip / 2.0, p.y - chip / 2.0),
                    Point::new(p.x + chip / 2.0, p.y + chip / 2.0),
                );
                assert!(overlaps(second, values), "{size} {count}");
            }
        }
        // two chips, one with a value, do not fit above the values at a readable size: they
        // keep the column of the whole hex
        let &(min, w) = stack_rects(c, 40.0, 1).last().expect("top");
        let wanted = MARKER_CHIP * 40.0;
        assert_eq!(
            marker_column(
                c,
                40.0,
                wanted,
                &[true, false],
                None,
                Some(values_box(min, w))
            ),
            marker_column(c, 40.0, wanted, &[true, false], None, None)
        );
    }

    /// On a lone counter with a VP star, one chip goes above the star, clear of it and of the
    /// values: below the star it lay on the first value digit. (On a stack of two or more the top
    /// counter stands higher in its hex and no readable chip fits above its star: the chip still
    /// lies below the star, over the first digit.)
    #[test]
    fn a_chip_on_a_counter_with_a_star_keeps_off_the_star_and_the_values() {
        let c = Point::new(500.0, 500.0);
        let overlaps = |a: (Point, Point), b: (Point, Point)| {
            a.0.x < b.1.x && b.0.x < a.1.x && a.0.y < b.1.y && b.0.y < a.1.y
        };
        for size in [16.5, 24.0, 40.0, 80.0] {
            let wanted = MARKER_CHIP * size;
            {
                let count = 1;
                let &(min, w) = stack_rects(c, size, count).last().expect("top");
                let (values, star) = (values_box(min, w), star_on_stack(min, w));
                let star_box = (
                    Point::new(star.0.x - star.1, star.0.y - star.1),
                    Point::new(star.0.x + star.1, star.0.y + star.1),
                );
                let what = format!("{size} {count}");
                let (chip, at) = marker_column(c, size, wanted, &[false], Some(star), Some(values));
                assert!(chip >= VALUES_SHRINK * wanted, "{what}: {chip}");
                let p = at[0];
                let item = (
                    Point::new(p.x - chip / 2.0, p.y - chip / 2.0),
                    Point::new(p.x + chip / 2.0, p.y + chip / 2.0),
                );
                assert!(!overlaps(item, values), "{what}: on the values at {p:?}");
                assert!(!overlaps(item, star_box), "{what}: on the star at {p:?}");
                assert!(in_hex(c, size, item.0, item.1), "{what}: out of its hex");
                // laid out below the star, as before, it lay on the values
                let (chip, at) = marker_column(c, size, wanted, &[false], Some(star), None);
                let p = at[0];
                let below = (
                    Point::new(p.x - chip / 2.0, p.y - chip / 2.0),
                    Point::new(p.x + chip / 2.0, p.y + chip / 2.0),
                );
                assert!(overlaps(below, values), "{what}");
            }
        }
    }

    /// A six-character value's tag under each chip of a column lies inside the chip's hex (it
    /// ran out to the left onto the neighbour).
    #[test]
    fn a_wide_value_tag_stays_in_its_hex() {
        let c = Point::new(500.0, 500.0);
        for size in [16.5, 24.0, 40.0, 80.0] {
            let wanted = MARKER_CHIP * size;
            let (chip, at) = marker_column(c, size, wanted, &[true, true], None, None);
            // the editor's tag: six characters at 0.55 of the chip, a 4-point margin
            let tag_w = 6.0 * 0.55 * 0.55 * chip + 4.0;
            let tag_h = MARKER_TAG / MARKER_CHIP * chip;
            for p in at {
                let min = marker_tag_min(p, chip, tag_w, Some((c, size)));
                let max = Point::new(min.x + tag_w, min.y + tag_h);
                assert!(in_hex(c, size, min, max), "{size}: {min:?}..{max:?}");
                let before = marker_tag_min(p, chip, tag_w, None);
                assert!(!in_hex(
                    c,
                    size,
                    before,
                    Point::new(before.x + tag_w, max.y)
                ));
            }
        }
    }

    #[test]
    fn a_markers_value_reads_in_a_few_characters() {
        let v = |t: &str| serde_json::from_str::<kessel_core::state::Value>(t).expect("json");
        assert_eq!(marker_value_text(&v("2"), 6).as_deref(), Some("2"));
        assert_eq!(
            marker_value_text(&v(r#"{"ap":6}"#), 6).as_deref(),
            Some("6")
        );
        assert_eq!(marker_value_text(&v("[4,2]"), 6).as_deref(), Some("4/2"));
        assert_eq!(
            marker_value_text(&v(r#""fortified""#), 6).as_deref(),
            Some("forti…")
        );
        assert_eq!(marker_value_text(&v("null"), 6), None);
        assert_eq!(marker_value_text(&v("{}"), 6), None);
        assert_eq!(marker_value_text(&v(r#"{"a":{"b":1}}"#), 6), None);
    }

    #[test]
    fn names_are_shortened_with_intent_never_cut_mid_word() {
        assert_eq!(short_name("IR 20 (mot)", 9), "IR 20");
        assert_eq!(short_name("IR 20 (mot)", 11), "IR 20 (mot)");
        assert_eq!(short_name("Reinf T3 Z", 8), "T3 Z");
        assert_eq!(short_name("7 Pz", 8), "7 Pz");
        assert_eq!(short_name("Grossdeutschland", 8), "Grossde.");
        assert_eq!(short_name("Horse Lancer Division", 9), "Horse");
        assert_eq!(short_name("3 Pz Div Kempf", 9), "3 Pz Div");
        assert_eq!(short_name("(mot)", 3), "(m.");
        for (text, max) in [
            ("IR 20 (mot)", 9),
            ("Grossdeutschland", 8),
            ("a b c d e f", 5),
        ] {
            assert!(short_name(text, max).chars().count() <= max, "{text}");
        }
    }
}
