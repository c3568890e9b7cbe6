//! Drawing a map and its set-up units, for `kessel render`: hand-written SVG (same input, same
//! bytes) and PNG rasterised from it with resvg.
//!
//! Geometry and style come from `kessel_draw`, the model the editor paints too: the hex layout,
//! the ruleset's declared colours, names and kinds (with fallbacks), the top unit of a stack,
//! where names go. This module only writes them as SVG.
//!
//! What is drawn, bottom to top: terrain fills and marks with hex outlines; entry and set-up areas
//! (dashed outlines); hexside features on the shared edge; links between hex centres; place
//! symbols; VP stars and tag diamonds; hex numbers; names of places, rivers and lakes; unit
//! counters (over the names, so a name never covers a counter); markers; area ids; the title and
//! a legend.
//!
//! Hexside features and links are drawn from the map's per-hexside bits, the data the rules read,
//! not from the authored feature lists, so the picture shows what the engine will use.

mod legend;
mod raster;
mod svg;

pub use raster::svg_to_png;
/// The one XML/HTML text escape (the SVG writer's), shared with the lab's HTML report.
pub(crate) use svg::esc;

use kessel_core::hex::{Hex, HexDir, Hexside};
use kessel_core::map::{KindId, Map};
use kessel_core::scenario::Objective;
use kessel_core::state::{Marker, Unit};
use kessel_draw::counter::{self, Anchor, Print};
use kessel_draw::pieces::{self, Mark};
use kessel_draw::style::{MapKinds, PlaceSymbol};
use kessel_draw::{HexLayout, MapStyle, Point};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use svg::{hex, n, polygon, pt, HALO};

/// Hex radius, centre to corner, in SVG units.
const S: f32 = 24.0;
/// Space around the map, for edge labels.
const MARGIN: f32 = 38.0;
/// Height of the title band.
const TITLE_H: f32 = 46.0;
/// Text fonts, first available wins.
const FONT: &str = "DejaVu Sans, Ubuntu, Verdana, Arial, sans-serif";
/// Narrowest picture, so the legend fits under a small map.
const MIN_WIDTH: f32 = 640.0;

/// What to draw besides the map itself.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Outline and label the map's areas.
    pub areas: bool,
    /// Draw the units standing on the map.
    pub units: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            areas: true,
            units: true,
        }
    }
}

/// What one picture shows.
pub struct Picture<'a> {
    /// The map.
    pub map: &'a Map,
    /// The heading (the scenario's name).
    pub title: &'a str,
    /// Units; those on the map are drawn as counters.
    pub units: &'a [Unit],
    /// Victory objectives: their hexes get a VP star.
    pub objectives: &'a [Objective],
    /// Markers; those on the map are drawn as chips with their kind's initials and value.
    pub markers: &'a [Marker],
    /// How things look (from the ruleset).
    pub style: &'a MapStyle,
    /// The side whose view this is (`kessel render --as`), said under the title; none: the
    /// picture for everyone.
    pub seen_by: Option<&'a str>,
}

/// The SVG layout: the drawing model's, moved below the title band and inside the margin (on
/// the west, wide enough for the area ids written there: [`edge_room`]).
fn layout_of(map: &Map) -> HexLayout {
    let l = HexLayout::for_map(map, S);
    HexLayout {
        origin: Point::new(
            l.origin.x + edge_room(map, "west"),
            l.origin.y + TITLE_H + MARGIN,
        ),
        ..l
    }
}

/// Font size of the area ids.
const AREA_FONT: f32 = 9.0;

/// The area ids written at each area's first hex, by hex ([`area_labels`]).
fn area_ids_at(map: &Map) -> BTreeMap<Hex, Vec<&str>> {
    let mut at_hex: BTreeMap<Hex, Vec<&str>> = BTreeMap::new();
    for (id, a) in &map.areas {
        if let Some(h) = a.hexes.first() {
            at_hex.entry(*h).or_default().push(id);
        }
    }
    at_hex
}

/// The margin beside the map's `edge` (`west` or `east`): [`MARGIN`], or more where the area ids
/// written outside that edge need it (a long id ran off the picture's west side, cut).
fn edge_room(map: &Map, edge: &str) -> f32 {
    area_ids_at(map)
        .iter()
        .filter(|(h, _)| map.on_edge(**h, edge))
        .map(|(_, ids)| {
            let chars = ids.iter().map(|id| id.chars().count() + 1).sum::<usize>();
            // a bold sans character is about 0.65 em; 3 units from the hex, 4 from the side
            0.65 * AREA_FONT * chars as f32 + 7.0
        })
        .fold(MARGIN, f32::max)
}

/// What a picture drawn here carries so that Kessel recognises it as its own: a comment in an
/// SVG, the `Software` text of a PNG.
pub const MARK: &str = "kessel render";

/// Draws the map with the units standing on it.
pub fn render_svg(pic: &Picture<'_>, opts: &Options) -> String {
    let map = pic.map;
    let l = layout_of(map);
    let kinds = pic.style.for_map(map);
    let (map_w, map_h) = l.map_size(map);
    let mut body = String::with_capacity(512 * 1024);
    // wide enough for the legend's notes and the title on a small map
    let title_w = 2.0 * MARGIN + 11.5 * pic.title.chars().count() as f32;
    let (west, east) = (edge_room(map, "west"), edge_room(map, "east"));
    let w = (west + map_w + east).max(MIN_WIDTH).max(title_w);

    terrain(&mut body, map, &l, &kinds);
    if opts.areas {
        areas(&mut body, map, &l);
    }
    let present = hexsides(&mut body, map, &l, &kinds);
    places(&mut body, map, &l, pic.style);
    let stacks = pieces::stacks(pic.units);
    let stacks: BTreeMap<Hex, Vec<usize>> = stacks
        .into_iter()
        .filter(|(h, _)| map.contains(*h))
        .collect();
    let stacked = |h: Hex| opts.units && stacks.contains_key(&h);
    let (starred, stars_free) = tags_and_stars(&mut body, map, &l, pic.objectives, stacked);
    let any_star = !starred.is_empty() || !stars_free.is_empty();
    numbers(&mut body, map, &l);
    // what a count badge keeps off: place names, and the VP stars on stacks
    let mut keep_off = names(&mut body, map, &l, &kinds, pic.style, stacked);
    for (h, stack) in stacks.iter().filter(|(h, _)| starred.contains(*h)) {
        if let Some(&(min, w)) = pieces::stack_rects(l.center(*h), S, stack.len()).last() {
            let (at, r) = pieces::star_on_stack(min, w);
            keep_off.push((
                Point::new(at.x - r, at.y - r),
                Point::new(at.x + r, at.y + r),
            ));
        }
    }
    if opts.units {
        body.push_str("<g id=\"units\">\n");
        for (h, stack) in &stacks {
            counters(&mut body, l.center(*h), pic, stack, &keep_off);
            // an objective under counters: its star goes over them, or no one sees it
            if starred.contains(h) {
                let rects = pieces::stack_rects(l.center(*h), S, stack.len());
                if let Some(&(min, w)) = rects.last() {
                    let (at, r) = pieces::star_on_stack(min, w);
                    let _ = writeln!(body, "{}", star_svg("vp", at, r));
                }
            }
        }
        body.push_str("</g>\n");
    }
    // over the counters, as markers lie on a table (and as the editor draws them), clear of the
    // VP stars drawn on stacks
    // (and off the values line of the top counter)
    let top_counter = |h: Hex| {
        let n = stacks.get(&h).filter(|_| stacked(h))?.len();
        pieces::stack_rects(l.center(h), S, n).last().copied()
    };
    let on_stack = |h: Hex| {
        let (min, w) = top_counter(h)?;
        let star = starred.contains(&h).then(|| pieces::star_on_stack(min, w));
        Some((star, pieces::values_box(min, w)))
    };
    markers(&mut body, map, &l, pic.markers, on_stack);
    if opts.areas {
        area_labels(&mut body, map, &l);
    }

    // ---- title
    let _ = writeln!(
        body,
        "<text x=\"{}\" y=\"26\" font-size=\"19\" font-weight=\"bold\" fill=\"#222\">{}</text>",
        n(MARGIN),
        esc(pic.title)
    );
    let on_map: usize = stacks.values().map(Vec::len).sum();
    let subtitle = format!(
        "{} — {}×{} hexes{}",
        map.name,
        map.columns(),
        map.rows(),
        if opts.units {
            format!(", {on_map} units on the map at set-up")
        } else {
            String::new()
        }
    );
    let subtitle = match pic.seen_by {
        Some(side) => format!("{subtitle}, as {} is shown it", pic.style.side(side).name),
        None => subtitle,
    };
    let _ = writeln!(
        body,
        "<text x=\"{}\" y=\"42\" font-size=\"11\" fill=\"#444\">{}</text>",
        n(MARGIN),
        esc(&subtitle)
    );

    // ---- legend
    let top = TITLE_H + MARGIN + map_h + MARGIN;
    let mut sides: Vec<&str> = Vec::new();
    for i in stacks.values().flatten() {
        let side = pic.units[*i].side.as_str();
        if !sides.contains(&side) {
            sides.push(side);
        }
    }
    // in play order, as the ruleset lists them
    let order = |s: &&str| pic.style.sides().iter().position(|x| x == s);
    sides.sort_by_key(order);
    let legend_h = legend::legend(
        &mut body,
        &legend::LegendInput {
            map,
            kinds: &kinds,
            present: &present,
            style: pic.style,
            sides: &sides,
            stars: any_star,
            marker_kinds: &pic
                .markers
                .iter()
                .filter(|m| m.hex.is_some_and(|h| map.contains(h)))
                .map(|m| m.kind.as_str())
                .collect(),
            opts,
            top,
            width: w,
            margin: MARGIN,
        },
    );
    let total_h = top + legend_h + MARGIN / 2.0;

    let mut out = String::with_capacity(body.len() + 1024);
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"{FONT}\">",
        w = n(w),
        h = n(total_h)
    );
    // (how `kessel render` knows its own pictures when asked to draw over one: cmd/guard.rs)
    let _ = writeln!(out, "<!-- {MARK} -->");
    let _ = writeln!(out, "<title>{}</title>", esc(pic.title));
    let _ = writeln!(
        out,
        "<rect width=\"{}\" height=\"{}\" fill=\"#fff\"/>",
        n(w),
        n(total_h)
    );
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// The path of one hex outline.
fn hex_path(l: &HexLayout, h: Hex) -> String {
    polygon(&l.corners(h))
}

fn mark_svg(out: &mut String, m: &Mark) {
    match m {
        Mark::Dot { c, r } => {
            let _ = write!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
                n(c.x),
                n(c.y),
                n(*r)
            );
        }
        Mark::Line { a, b, width } => {
            let _ = write!(
                out,
                "<path d=\"M{}L{}\" stroke-width=\"{}\"/>",
                pt(*a),
                pt(*b),
                n(*width)
            );
        }
    }
}

fn terrain(body: &mut String, map: &Map, l: &HexLayout, kinds: &MapKinds) {
    let mut by_terrain: BTreeMap<KindId, Vec<Hex>> = BTreeMap::new();
    for h in map.hexes() {
        if let Some(t) = map.terrain(h) {
            by_terrain.entry(t).or_default().push(h);
        }
    }
    body.push_str(
        "<g id=\"terrain\" stroke=\"#8a8a80\" stroke-width=\"0.6\" stroke-linejoin=\"round\">\n",
    );
    for (t, hexes) in &by_terrain {
        let style = kinds.terrain(*t);
        let d: String = hexes.iter().map(|h| hex_path(l, *h)).collect();
        let _ = writeln!(
            body,
            "<path data-terrain=\"{}\" fill=\"{}\" d=\"{d}\"/>",
            esc(map.terrains.name(*t)),
            hex(style.fill)
        );
    }
    body.push_str("</g>\n");
    for (t, hexes) in &by_terrain {
        let style = kinds.terrain(*t);
        let mut marks = String::new();
        for h in hexes {
            for m in pieces::terrain_marks(style.marks, l.center(*h), l.size) {
                mark_svg(&mut marks, &m);
            }
        }
        if !marks.is_empty() {
            let ink = hex(pieces::mark_color(style.fill));
            let _ = writeln!(
                body,
                "<g data-marks=\"{}\" fill=\"{ink}\" stroke=\"{ink}\" stroke-linecap=\"round\">{marks}</g>",
                esc(map.terrains.name(*t))
            );
        }
    }
}

fn areas(body: &mut String, map: &Map, l: &HexLayout) {
    body.push_str("<g id=\"areas\" fill=\"none\" stroke-width=\"1.7\" stroke-dasharray=\"5 2.5\" stroke-linecap=\"butt\">\n");
    for (i, (id, area)) in map.areas.iter().enumerate() {
        let set: BTreeSet<Hex> = area.hexes.iter().copied().collect();
        // areas often share hexes: inset each one differently so their outlines stay apart
        let f = 0.9 - 0.09 * (i % 4) as f32;
        let mut d = String::new();
        for &h in &set {
            let c = l.center(h);
            for dir in HexDir::ALL {
                if set.contains(&h.neighbor(dir)) {
                    continue;
                }
                let k = dir.index();
                let (a, b) = (l.corner_at(c, k + 4, f), l.corner_at(c, k + 5, f));
                let _ = write!(d, "M{}L{}", pt(a), pt(b));
            }
        }
        let _ = writeln!(
            body,
            "<path data-area=\"{}\" stroke=\"{}\" d=\"{d}\"/>",
            esc(id),
            hex(pieces::area_color(id))
        );
    }
    body.push_str("</g>\n");
}

/// Hexside features, then links (cased bands, then ticked lines on top); returns the kinds
/// present, for the legend.
fn hexsides(body: &mut String, map: &Map, l: &HexLayout, kinds: &MapKinds) -> Vec<KindId> {
    let mut by_kind: BTreeMap<KindId, Vec<Hexside>> = BTreeMap::new();
    let mut seen: BTreeSet<Hexside> = BTreeSet::new();
    for h in map.hexes() {
        for d in HexDir::ALL {
            let s = h.side(d);
            let bits = map.side_bits(s);
            if bits == 0 || !seen.insert(s) {
                continue;
            }
            for (k, _) in kinds.hexsides_in(bits) {
                by_kind.entry(k).or_default().push(s);
            }
        }
    }
    let label = |s: &Hexside| {
        let (a, b) = s.hexes();
        format!("{}/{}", map.label(a), map.label(b))
    };
    let style = |k: &KindId| &kinds.hexsides[*k as usize];
    let features = by_kind.iter().filter(|(k, _)| !style(k).link);
    let cased = by_kind
        .iter()
        .filter(|(k, _)| style(k).link && !style(k).ticks);
    let ticked = by_kind
        .iter()
        .filter(|(k, _)| style(k).link && style(k).ticks);
    // wider features first, so a narrow river stays visible beside a wide lake shore
    let mut features: Vec<_> = features.collect();
    features.sort_by(|a, b| style(b.0).width.total_cmp(&style(a.0).width));
    for (k, sides) in features {
        let st = style(k);
        let _ = writeln!(
            body,
            "<g data-kind=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"round\">",
            esc(map.side_kinds.name(*k)),
            hex(st.color),
            n(st.width * S)
        );
        for s in sides {
            let (p, q) = l.side_edge(*s);
            let _ = writeln!(
                body,
                "<path data-side=\"{}\" d=\"M{}L{}\"/>",
                label(s),
                pt(p),
                pt(q)
            );
        }
        body.push_str("</g>\n");
    }
    let cased: Vec<_> = cased.collect();
    for core in [false, true] {
        for (k, sides) in &cased {
            let st = style(k);
            let (color, width) = if core {
                (pieces::link_core(st.color), st.width * S * 0.5)
            } else {
                (st.color, st.width * S)
            };
            let _ = writeln!(
                body,
                "<g data-kind=\"{}\"{} fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"round\">",
                esc(map.side_kinds.name(**k)),
                if core { " data-core=\"1\"" } else { "" },
                hex(color),
                n(width)
            );
            for s in sides.iter() {
                let (p, q) = pieces::link_segment(l, map, *s);
                let _ = writeln!(
                    body,
                    "<path data-link=\"{}\" d=\"M{}L{}\"/>",
                    label(s),
                    pt(p),
                    pt(q)
                );
            }
            body.push_str("</g>\n");
        }
    }
    for (k, sides) in ticked {
        let st = style(k);
        let _ = writeln!(
            body,
            "<g data-kind=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\">",
            esc(map.side_kinds.name(*k)),
            hex(st.color),
            n(st.width * S)
        );
        for s in sides {
            let (p, q) = pieces::link_segment(l, map, *s);
            let mut d = format!("M{}L{}", pt(p), pt(q));
            for (a, b) in pieces::link_ticks(p, q, S) {
                let _ = write!(d, "M{}L{}", pt(a), pt(b));
            }
            let _ = writeln!(body, "<path data-link=\"{}\" d=\"{d}\"/>", label(s));
        }
        body.push_str("</g>\n");
    }
    by_kind.keys().copied().collect()
}

/// A place kind's symbol at `c`, `size` the hex radius.
fn place_symbol(symbol: PlaceSymbol, color: &str, c: Point, size: f32) -> String {
    let border = format!("stroke=\"#000\" stroke-width=\"{}\"", n(0.05 * size));
    match symbol {
        PlaceSymbol::Square => {
            let a = pieces::PLACE_SQUARE * size;
            format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"1\" fill=\"{color}\" {border}/>",
                n(c.x - a / 2.0),
                n(c.y - a / 2.0),
                n(a),
                n(a)
            )
        }
        PlaceSymbol::Dot => format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{color}\" {border}/>",
            n(c.x),
            n(c.y),
            n(pieces::PLACE_DOT * size)
        ),
        PlaceSymbol::Diamond => {
            let r = pieces::PLACE_DOT * size;
            let pts = [
                Point::new(c.x, c.y - r),
                Point::new(c.x + r, c.y),
                Point::new(c.x, c.y + r),
                Point::new(c.x - r, c.y),
            ];
            format!("<path d=\"{}\" fill=\"{color}\" {border}/>", polygon(&pts))
        }
    }
}

fn places(body: &mut String, map: &Map, l: &HexLayout, style: &MapStyle) {
    body.push_str("<g id=\"places\">\n");
    for p in &map.places {
        let st = style.place(&p.kind);
        for &h in &p.hexes {
            let _ = writeln!(
                body,
                "{}",
                place_symbol(st.symbol, &hex(st.color), l.center(h), l.size)
            );
        }
    }
    body.push_str("</g>\n");
}

fn star_svg(tag: &str, at: Point, r: f32) -> String {
    format!(
        "<path data-tag=\"{}\" d=\"{}\" fill=\"{}\" stroke=\"{}\"/>",
        esc(tag),
        polygon(&pieces::star_points(at, r)),
        hex(pieces::STAR_FILL),
        hex(pieces::STAR_INK)
    )
}

fn tag_symbol(tag: &str, at: Point) -> String {
    if pieces::is_vp_tag(tag) {
        star_svg(tag, at, 6.5)
    } else {
        let r = 4.5;
        let pts = [
            Point::new(at.x, at.y - r),
            Point::new(at.x + r, at.y),
            Point::new(at.x, at.y + r),
            Point::new(at.x - r, at.y),
        ];
        format!(
            "<path data-tag=\"{}\" d=\"{}\" fill=\"{}\" stroke=\"#222\"/>",
            esc(tag),
            polygon(&pts),
            hex(kessel_draw::color::hashed(
                tag,
                kessel_draw::color::Tone::Light
            ))
        )
    }
}

/// VP stars where an objective scores or a VP tag sits (as the editor draws them); other tags as
/// diamonds beside them. A hex with counters (`stacked`) gets its star over them, drawn with the
/// counters: those hexes are returned first, then the starred hexes without counters.
fn tags_and_stars(
    body: &mut String,
    map: &Map,
    l: &HexLayout,
    objectives: &[Objective],
    stacked: impl Fn(Hex) -> bool,
) -> (BTreeSet<Hex>, BTreeSet<Hex>) {
    body.push_str("<g id=\"tags\" stroke-width=\"0.8\">\n");
    let mut starred: BTreeSet<Hex> = objectives
        .iter()
        .filter(|o| o.vp > 0)
        .flat_map(|o| o.hexes.iter().copied())
        .collect();
    for (tag, hexes) in &map.tags {
        if pieces::is_vp_tag(tag) {
            starred.extend(hexes.iter().copied());
        }
    }
    starred.retain(|h| map.contains(*h));
    let (on_stacks, free): (BTreeSet<Hex>, BTreeSet<Hex>) =
        starred.into_iter().partition(|h| stacked(*h));
    for h in &free {
        let at = pieces::star_anchor(l.center(*h), l.size);
        let _ = writeln!(body, "{}", star_svg("vp", at, 0.22 * l.size));
    }
    let mut slot: BTreeMap<Hex, usize> = BTreeMap::new();
    for (tag, hexes) in map.tags.iter().filter(|(t, _)| !pieces::is_vp_tag(t)) {
        for h in hexes.iter().collect::<BTreeSet<_>>() {
            let k = slot.entry(*h).or_default();
            let c = l.center(*h);
            let at = Point::new(c.x - 0.6 * S, c.y - 0.14 * S + *k as f32 * 0.5 * S);
            *k += 1;
            let _ = writeln!(body, "{}", tag_symbol(tag, at));
        }
    }
    body.push_str("</g>\n");
    (on_stacks, free)
}

fn numbers(body: &mut String, map: &Map, l: &HexLayout) {
    let _ = writeln!(
        body,
        "<g id=\"numbers\" font-size=\"6.5\" fill=\"#4a4a4a\" text-anchor=\"middle\">"
    );
    for h in map.hexes() {
        let c = l.center(h);
        let _ = writeln!(
            body,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            n(c.x),
            n(c.y - 0.866 * S + 7.5),
            esc(&map.label(h))
        );
    }
    body.push_str("</g>\n");
}

/// Markers on the map as chips (the editor's): a column down a hex's left side, inside the hex
/// ([`pieces::marker_column`]), or a row along the middle of a hexside; the kind's initials on a
/// colour of the kind, the value on a dark tag under it.
fn markers(
    body: &mut String,
    map: &Map,
    l: &HexLayout,
    markers: &[Marker],
    on_stack: impl Fn(Hex) -> Option<(Option<(Point, f32)>, (Point, Point))>,
) {
    let groups = pieces::marker_groups(markers, |h| map.contains(h));
    body.push_str("<g id=\"markers\" text-anchor=\"middle\">\n");
    for ((h, other), group) in &groups {
        let wanted = pieces::MARKER_CHIP * S;
        let (chip, spots) = match other {
            Some(o) => (
                wanted,
                (0..group.len())
                    .map(|k| pieces::hexside_marker_anchor(l.center(*h), l.center(*o), k, wanted))
                    .collect(),
            ),
            None => {
                let tags: Vec<bool> = group.iter().map(|(_, v)| v.is_some()).collect();
                let (star, values) = on_stack(*h).map_or((None, None), |(s, v)| (s, Some(v)));
                pieces::marker_column(l.center(*h), S, wanted, &tags, star, values)
            }
        };
        // a chip made smaller to fit its hex has its tag and lettering smaller in step
        let scale = chip / wanted;
        for ((m, value), at) in group.iter().zip(spots) {
            let _ = write!(body, "{}", marker_chip(&m.kind, at, chip));
            if let Some(value) = value {
                let w = (2.0 + 0.6 * 6.0 * value.chars().count() as f32) * scale;
                let hex = other.is_none().then(|| (l.center(*h), S));
                let tag = pieces::marker_tag_min(at, chip, w, hex);
                let _ = write!(
                    body,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"1\" fill=\"#1e1e1e\"/>\
                     <text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"#fff\">{}</text>",
                    n(tag.x),
                    n(tag.y),
                    n(w),
                    n(7.5 * scale),
                    n(tag.x + w / 2.0),
                    n(tag.y + 6.0 * scale),
                    n(6.0 * scale),
                    esc(value)
                );
            }
            body.push('\n');
        }
    }
    body.push_str("</g>\n");
}

/// One marker chip of side `chip` centred on `at`: the kind's initials on a colour of the kind.
fn marker_chip(kind: &str, at: Point, chip: f32) -> String {
    let fill = kessel_draw::color::hashed(kind, kessel_draw::color::Tone::Light);
    format!(
        "<rect data-marker=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"1.5\" fill=\"{}\" stroke=\"#000\" stroke-width=\"0.7\"/>\
         <text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\">{}</text>",
        esc(kind),
        n(at.x - chip / 2.0),
        n(at.y - chip / 2.0),
        n(chip),
        n(chip),
        hex(fill),
        n(at.x),
        n(at.y + chip * 0.2),
        n(chip * 0.55),
        hex(fill.ink_on()),
        esc(&pieces::marker_initials(kind))
    )
}

/// Names of rivers and lakes on their middle side, and of places under their lowest hex's symbol
/// (below its counters when it has some: [`pieces::place_label_anchor`]). Returns about where
/// each place name lies (top-left and bottom-right), for the count badges to keep off.
fn names(
    body: &mut String,
    map: &Map,
    l: &HexLayout,
    kinds: &MapKinds,
    style: &MapStyle,
    stacked: impl Fn(Hex) -> bool,
) -> Vec<(Point, Point)> {
    let mut boxes = Vec::new();
    let _ = writeln!(
        body,
        "<g id=\"feature-names\" font-size=\"7.5\" font-style=\"italic\" text-anchor=\"middle\" {HALO}>"
    );
    for f in &map.features {
        let (Some(name), false) = (&f.name, f.sides.is_empty()) else {
            continue;
        };
        let ink = map
            .side_kinds
            .get(&f.kind)
            .and_then(|k| kinds.hexsides.get(k as usize))
            .map_or_else(|| "#333".to_string(), |s| hex(s.color));
        let (a, b) = l.side_edge(f.sides[f.sides.len() / 2]);
        let m = a.lerp(b, 0.5);
        let _ = writeln!(
            body,
            "<text x=\"{}\" y=\"{}\" fill=\"{ink}\">{}</text>",
            n(m.x),
            n(m.y + 2.5),
            esc(name)
        );
    }
    body.push_str("</g>\n");

    let _ = writeln!(body, "<g id=\"place-names\" text-anchor=\"middle\" {HALO}>");
    for p in &map.places {
        let Some(at) = pieces::place_label_anchor(l, &p.hexes, &stacked) else {
            continue;
        };
        let st = style.place(&p.kind);
        let size = pieces::PLACE_FONT * S;
        let weight = if st.symbol == PlaceSymbol::Square {
            "bold"
        } else {
            "normal"
        };
        let _ = writeln!(
            body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"{weight}\" fill=\"{}\">{}</text>",
            n(at.x),
            // the anchor is the top of the text; SVG places the baseline
            n(at.y + size * 0.8),
            n(size),
            hex(st.color.scaled(0.7)),
            esc(&p.name)
        );
        // (an SVG's text is measured where it is shown: a sans character is about 0.6 em)
        let half = text_width(&p.name, size) / 2.0;
        boxes.push((
            Point::new(at.x - half, at.y),
            Point::new(at.x + half, at.y + size),
        ));
    }
    body.push_str("</g>\n");
    boxes
}

/// Area ids at each area's first hex, outside the map on an edge.
fn area_labels(body: &mut String, map: &Map, l: &HexLayout) {
    let at_hex = area_ids_at(map);
    let _ = writeln!(
        body,
        "<g id=\"area-labels\" font-size=\"{}\" font-weight=\"bold\" {HALO}>",
        n(AREA_FONT)
    );
    let half_h = 0.866 * S;
    for (h, ids) in &at_hex {
        let c = l.center(*h);
        let (x, y, anchor) = if map.on_edge(*h, "west") {
            (c.x - S - 3.0, c.y + 3.0, "end")
        } else if map.on_edge(*h, "east") {
            (c.x + S + 3.0, c.y + 3.0, "start")
        } else if map.on_edge(*h, "north") {
            (c.x, c.y - half_h - 4.0, "middle")
        } else if map.on_edge(*h, "south") {
            (c.x, c.y + half_h + 10.0, "middle")
        } else {
            (c.x, c.y + 3.0, "middle")
        };
        let spans: Vec<String> = ids
            .iter()
            .map(|id| {
                format!(
                    "<tspan fill=\"{}\">{}</tspan>",
                    hex(pieces::area_color(id)),
                    esc(id)
                )
            })
            .collect();
        let _ = writeln!(
            body,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\">{}</text>",
            n(x),
            n(y),
            spans.join(",")
        );
    }
    body.push_str("</g>\n");
}

/// Radius of a stack's count badge.
const BADGE_R: f32 = 5.2;

/// About how wide `text` is in the picture's sans font at `size` (an SVG's text is measured where
/// it is shown: a sans character is about 0.6 em, as [`names`] reckons).
fn text_width(text: &str, size: f32) -> f32 {
    0.6 * size * text.chars().count() as f32
}

/// A stack: the counters under the top one, the top counter as the editor draws it (the drawing
/// model's [`counter::counter_face`]: formation, symbol or type, values) and the stack size, on a
/// badge kept off place names and VP stars (`keep_off`, as boxes).
fn counters(
    body: &mut String,
    c: Point,
    pic: &Picture<'_>,
    stack: &[usize],
    keep_off: &[(Point, Point)],
) {
    let Some(&top) = pieces::top_of(stack) else {
        return;
    };
    let rects = pieces::stack_rects(c, S, stack.len());
    let below = stack.len() - 1;
    for (k, (min, w)) in rects.iter().enumerate() {
        // the shadows are the units just under the top one, the deepest first
        let shown = rects.len() - 1 - k;
        let u = &pic.units[stack[below - shown.min(below)]];
        let fill = counter_fill(pic.style, u);
        let id = if shown == 0 {
            format!(" data-unit=\"{}\"", esc(&u.id))
        } else {
            String::new()
        };
        let _ = write!(
            body,
            "<rect{id} x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"1.5\" fill=\"{}\" stroke=\"#222\" stroke-width=\"0.7\"/>",
            n(min.x),
            n(min.y),
            n(*w),
            n(*w),
            hex(fill)
        );
    }
    let Some(&(min, w)) = rects.last() else {
        return;
    };
    let unit = &pic.units[top];
    let face = counter::counter_face(pic.style, unit, min, w);
    let ink = hex(face.ink);
    let clear = |a: Point, b: Point| {
        !keep_off
            .iter()
            .any(|(p, q)| a.x < q.x && p.x < b.x && a.y < q.y && p.y < b.y)
    };
    let badge = match stack.len() > 1 {
        true => pieces::badge_at(&pieces::badge_spots(min, w, BADGE_R), BADGE_R, clear),
        false => None,
    };
    // the top line in the room the badge leaves ([`pieces::top_line_room`]), shortened to fit it
    if let Some(top) = &face.top {
        let (left, right) =
            pieces::top_line_room(min, w, top.band(), badge.map(|at| (at, BADGE_R)));
        let mut most = top.most;
        let shown = loop {
            let text = pieces::short_name(&top.text, most);
            if text_width(&text, top.size) <= right - left || most <= 1 {
                break text;
            }
            most -= 1;
        };
        let _ = write!(
            body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"{ink}\">{}</text>",
            n((left + right) / 2.0),
            n(top.top + 0.85 * top.size),
            n(top.size),
            esc(&shown)
        );
    }
    for p in &face.prints {
        print_svg(body, p, &ink);
    }
    if let Some(at) = badge {
        let (bx, by) = (at.x, at.y);
        let _ = write!(
            body,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#222\" stroke=\"#fff\" stroke-width=\"0.8\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"6.5\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#fff\">{}</text>",
            n(bx),
            n(by),
            n(BADGE_R),
            n(bx),
            n(by + 2.3),
            stack.len()
        );
    }
    body.push('\n');
}

/// One shape of a counter's print ([`counter::counter_face`]) as SVG, in the counter's `ink`.
fn print_svg(body: &mut String, p: &Print, ink: &str) {
    let _ = match p {
        Print::Frame { min, max, width } => write!(
            body,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{ink}\" stroke-width=\"{}\"/>",
            n(min.x),
            n(min.y),
            n(max.x - min.x),
            n(max.y - min.y),
            n(*width)
        ),
        Print::Oval { min, max, width } => write!(
            body,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"none\" stroke=\"{ink}\" stroke-width=\"{}\"/>",
            n(min.x),
            n(min.y),
            n(max.x - min.x),
            n(max.y - min.y),
            n((max.y - min.y) / 2.0),
            n(*width)
        ),
        Print::Line { a, b, width } => write!(
            body,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{ink}\" stroke-width=\"{}\"/>",
            n(a.x),
            n(a.y),
            n(b.x),
            n(b.y),
            n(*width)
        ),
        Print::Dot { c, r } => write!(
            body,
            "<circle data-print=\"dot\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{ink}\"/>",
            n(c.x),
            n(c.y),
            n(*r)
        ),
        Print::Star { c, r } => write!(
            body,
            "<path d=\"{}\" fill=\"{ink}\"/>",
            polygon(&pieces::star_points(*c, *r))
        ),
        Print::Text {
            at,
            anchor,
            size,
            bold,
            text,
        } => {
            // SVG sets text on its baseline: a centred text's middle, a bottom-set one's
            // descent above the point
            let y = match anchor {
                Anchor::Center => at.y + 0.35 * size,
                Anchor::Bottom => at.y - 0.22 * size,
            };
            let weight = if *bold { " font-weight=\"bold\"" } else { "" };
            write!(
                body,
                "<text x=\"{}\" y=\"{}\" font-size=\"{}\"{weight} text-anchor=\"middle\" fill=\"{ink}\">{}</text>",
                n(at.x),
                n(y),
                n(*size),
                esc(text)
            )
        }
    };
}

/// A counter's fill: its side's colour, darker while the unit is hidden (untried).
fn counter_fill(style: &MapStyle, u: &Unit) -> kessel_draw::Rgb {
    pieces::counter_fill(style.side(&u.side).color, u.hidden)
}

#[cfg(test)]
mod tests;
