//! Drawing a map and its set-up units, for `kessel render`: hand-written SVG (same input, same
//! bytes) and PNG rasterised from it with resvg.
//!
//! What is drawn, bottom to top: terrain fills with hex outlines; entry and set-up areas (dashed
//! outlines, id at the area's first hex); lake and river hexsides on the shared edge; roads and
//! railways between hex centres (railways with cross-ticks); places (major cities: red square and
//! red ring, minor: red dot); tags (`vp_hex` as a star, other tags as diamonds); every hex number;
//! unit counters (side colour, the first unit's name and values, the stack size); names of places,
//! rivers and lakes; then the title and a legend.
//!
//! Hexside features and links are drawn from the map's per-hexside bits, the data the rules read,
//! not from the authored feature lists, so the picture shows what the engine will use.

mod raster;

pub use raster::svg_to_png;

use kessel_core::hex::{Hex, HexDir, Hexside};
use kessel_core::map::{KindId, Map};
use kessel_core::state::{Location, Unit};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// Hex radius, centre to corner, in SVG units.
const S: f64 = 24.0;
/// Hex height, flat side to flat side.
const H: f64 = S * 1.732_050_807_568_877_2;
/// Space around the map, for edge labels.
const MARGIN: f64 = 38.0;
/// Height of the title band.
const TITLE_H: f64 = 46.0;
/// Text fonts, first available wins.
const FONT: &str = "DejaVu Sans, Ubuntu, Verdana, Arial, sans-serif";
/// Width of one legend cell.
const LEGEND_CELL: f64 = 190.0;
/// Narrowest picture, so the legend fits under a small map.
const MIN_WIDTH: f64 = 640.0;
/// Width of one column of the area list.
const AREA_CELL: f64 = 360.0;

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

/// How a hexside kind is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    River,
    Lake,
    OtherSide,
    Road,
    Rail,
    OtherLink,
}

impl Style {
    fn is_link(self) -> bool {
        matches!(self, Style::Road | Style::Rail | Style::OtherLink)
    }
}

/// How a place kind is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PlaceStyle {
    Major,
    Minor,
    Other,
}

fn place_style(kind: &str) -> PlaceStyle {
    let k = kind.to_ascii_lowercase();
    if k.contains("major") || k == "city" {
        PlaceStyle::Major
    } else if k.contains("minor") || k.contains("town") || k.contains("village") {
        PlaceStyle::Minor
    } else {
        PlaceStyle::Other
    }
}

/// Pixel geometry of the grid: flat-topped hexes, axial `q` east, `r` south-west.
struct Layout {
    ox: f64,
    oy: f64,
    map_w: f64,
    map_h: f64,
}

/// Corner offsets from the centre, clockwise from the east corner (y grows downwards).
const CORNERS: [(f64, f64); 6] = [
    (S, 0.0),
    (S / 2.0, H / 2.0),
    (-S / 2.0, H / 2.0),
    (-S, 0.0),
    (-S / 2.0, -H / 2.0),
    (S / 2.0, -H / 2.0),
];

type Pt = (f64, f64);

impl Layout {
    fn new(map: &Map) -> Layout {
        let raw = |h: Hex| (1.5 * S * h.q as f64, H * (h.r as f64 + h.q as f64 / 2.0));
        let mut bounds: Option<(f64, f64, f64, f64)> = None;
        for h in map.hexes() {
            let (x, y) = raw(h);
            bounds = Some(match bounds {
                None => (x, y, x, y),
                Some((a, b, c, d)) => (a.min(x), b.min(y), c.max(x), d.max(y)),
            });
        }
        let (minx, miny, maxx, maxy) = bounds.unwrap_or((0.0, 0.0, 0.0, 0.0));
        Layout {
            ox: MARGIN + S - minx,
            oy: TITLE_H + MARGIN + H / 2.0 - miny,
            map_w: maxx - minx + 2.0 * S,
            map_h: maxy - miny + H,
        }
    }

    fn center(&self, h: Hex) -> Pt {
        (
            self.ox + 1.5 * S * h.q as f64,
            self.oy + H * (h.r as f64 + h.q as f64 / 2.0),
        )
    }

    fn corner(&self, h: Hex, k: usize) -> Pt {
        let (x, y) = self.center(h);
        let (dx, dy) = CORNERS[k % 6];
        (x + dx, y + dy)
    }

    /// The edge of `h` facing `dir` (0 = N … 5 = NW), as its two corners.
    fn edge(&self, h: Hex, dir: usize) -> (Pt, Pt) {
        (self.corner(h, dir + 4), self.corner(h, dir + 5))
    }

    fn side_edge(&self, side: Hexside) -> (Pt, Pt) {
        self.edge(side.hex, side.dir as usize)
    }
}

/// A coordinate with at most one decimal, never `-0`.
fn n(v: f64) -> String {
    let t = (v * 10.0).round() as i64;
    let sign = if t < 0 { "-" } else { "" };
    let a = t.unsigned_abs();
    if a.is_multiple_of(10) {
        format!("{sign}{}", a / 10)
    } else {
        format!("{sign}{}.{}", a / 10, a % 10)
    }
}

fn pt((x, y): Pt) -> String {
    format!("{} {}", n(x), n(y))
}

/// Escapes text for XML content and attribute values.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn fnv1a(s: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in s.bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

fn hsl(h: f64, s: f64, l: f64) -> String {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let hp = h / 60.0;
    let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
    let (r, g, b) = match hp as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let byte = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    format!("#{:02x}{:02x}{:02x}", byte(r), byte(g), byte(b))
}

/// A light colour derived from a name, for fills of unknown kinds.
fn hashed_fill(name: &str) -> String {
    let h = fnv1a(name);
    hsl(
        (h % 360) as f64,
        0.45 + ((h >> 9) % 20) as f64 / 100.0,
        0.62 + ((h >> 17) % 12) as f64 / 100.0,
    )
}

/// A dark colour derived from a name, for lines and text of unknown kinds.
fn hashed_ink(name: &str) -> String {
    let h = fnv1a(name);
    hsl(
        (h % 360) as f64,
        0.65 + ((h >> 9) % 20) as f64 / 100.0,
        0.33 + ((h >> 17) % 10) as f64 / 100.0,
    )
}

fn terrain_fill(name: &str) -> String {
    match name.to_ascii_lowercase().as_str() {
        "clear" | "open" | "plain" | "plains" => "#f4f0dc".into(),
        "forest" | "woods" | "wood" => "#9fcb8c".into(),
        "swamp" | "marsh" | "bog" => "url(#swamp)".into(),
        "lake" | "water" | "sea" => "#86b9e8".into(),
        "rough" | "hills" | "hill" => "#d9c49b".into(),
        "mountain" | "mountains" => "#bfa07e".into(),
        "city" | "urban" | "town" => "#dcb0b0".into(),
        _ => hashed_fill(name),
    }
}

fn classify(name: &str, authored_as_link: bool) -> Style {
    let k = name.to_ascii_lowercase();
    if k.contains("rail") {
        Style::Rail
    } else if k.contains("road") || k.contains("highway") || k.contains("track") {
        Style::Road
    } else if authored_as_link {
        Style::OtherLink
    } else if k.contains("river") || k.contains("stream") || k.contains("creek") {
        Style::River
    } else if k.contains("lake") || k.contains("sea") || k.contains("shore") {
        Style::Lake
    } else {
        Style::OtherSide
    }
}

/// Stroke attributes of a hexside kind.
fn stroke_of(style: Style, name: &str) -> String {
    match style {
        Style::River => {
            r##"stroke="#2b7bd6" stroke-width="3.6" stroke-linecap="round""##.to_string()
        }
        Style::Lake => {
            r##"stroke="#0d2f7a" stroke-width="4.4" stroke-linecap="round""##.to_string()
        }
        Style::Road => {
            r##"stroke="#a8692c" stroke-width="3.4" stroke-linecap="round""##.to_string()
        }
        Style::Rail => r##"stroke="#111" stroke-width="1.4""##.to_string(),
        Style::OtherSide => format!(
            r#"stroke="{}" stroke-width="3" stroke-linecap="round""#,
            hashed_ink(name)
        ),
        Style::OtherLink => format!(
            r#"stroke="{}" stroke-width="2" stroke-dasharray="4 2""#,
            hashed_ink(name)
        ),
    }
}

/// Side colours, in the order the sides first appear among the units.
fn side_fill(index: usize, side: &str) -> String {
    const PALETTE: [&str; 6] = [
        "#a9bfd3", "#eb9478", "#b9e0a5", "#e7c7f0", "#f5d77a", "#9fd8e0",
    ];
    PALETTE
        .get(index)
        .map(|c| c.to_string())
        .unwrap_or_else(|| hashed_fill(side))
}

/// Points of a five-pointed star.
fn star(c: Pt, r: f64) -> String {
    // unit star, top point up, outer then inner radius 0.4
    const UNIT: [(f64, f64); 10] = [
        (0.0, -1.0),
        (0.235, -0.324),
        (0.951, -0.309),
        (0.380, 0.124),
        (0.588, 0.809),
        (0.0, 0.4),
        (-0.588, 0.809),
        (-0.380, 0.124),
        (-0.951, -0.309),
        (-0.235, -0.324),
    ];
    let pts: Vec<String> = UNIT
        .iter()
        .map(|(x, y)| pt((c.0 + x * r, c.1 + y * r)))
        .collect();
    format!("M{}Z", pts.join("L"))
}

fn diamond(c: Pt, r: f64) -> String {
    format!(
        "M{}L{}L{}L{}Z",
        pt((c.0, c.1 - r)),
        pt((c.0 + r, c.1)),
        pt((c.0, c.1 + r)),
        pt((c.0 - r, c.1))
    )
}

/// The path of one hex outline (absolute start, relative steps).
fn hex_path(l: &Layout, h: Hex) -> String {
    let (x, y) = l.center(h);
    format!(
        "M{}l{} {}h{}l{} {} {} {}h{}z",
        pt((x + S, y)),
        n(-S / 2.0),
        n(H / 2.0),
        n(-S),
        n(-S / 2.0),
        n(-H / 2.0),
        n(S / 2.0),
        n(-H / 2.0),
        n(S)
    )
}

fn shorten(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// Text with a white halo.
const HALO: &str =
    r##"paint-order="stroke" stroke="#fff" stroke-width="2.4" stroke-linejoin="round""##;

/// Draws the map with the units standing on it. `title` heads the picture (the scenario's name).
pub fn render_svg(map: &Map, title: &str, units: &[Unit], opts: &Options) -> String {
    let l = Layout::new(map);
    let mut out = String::with_capacity(512 * 1024);
    let mut body = String::with_capacity(512 * 1024);
    // wide enough for the legend's notes and the title on a small map
    let title_w = 2.0 * MARGIN + 11.5 * title.chars().count() as f64;
    let w = (l.map_w + 2.0 * MARGIN).max(MIN_WIDTH).max(title_w);

    // ---- terrain and hex outlines
    let mut by_terrain: BTreeMap<KindId, String> = BTreeMap::new();
    for h in map.hexes() {
        if let Some(t) = map.terrain(h) {
            by_terrain.entry(t).or_default().push_str(&hex_path(&l, h));
        }
    }
    body.push_str(
        "<g id=\"terrain\" stroke=\"#8a8a80\" stroke-width=\"0.6\" stroke-linejoin=\"round\">\n",
    );
    for (t, d) in &by_terrain {
        let name = map.terrains.name(*t);
        let _ = writeln!(
            body,
            "<path data-terrain=\"{}\" fill=\"{}\" d=\"{d}\"/>",
            esc(name),
            terrain_fill(name)
        );
    }
    body.push_str("</g>\n");

    // ---- areas
    let area_inks: BTreeMap<&str, String> = map
        .areas
        .keys()
        .map(|id| (id.as_str(), hashed_ink(id)))
        .collect();
    if opts.areas {
        body.push_str("<g id=\"areas\" fill=\"none\" stroke-width=\"1.7\" stroke-dasharray=\"5 2.5\" stroke-linecap=\"butt\">\n");
        for (i, (id, area)) in map.areas.iter().enumerate() {
            let set: BTreeSet<Hex> = area.hexes.iter().copied().collect();
            // areas often share hexes: inset each one differently so their outlines stay apart
            let f = 0.9 - 0.09 * (i % 4) as f64;
            let mut d = String::new();
            for &h in &set {
                let c = l.center(h);
                for (k, dir) in HexDir::ALL.into_iter().enumerate() {
                    if set.contains(&h.neighbor(dir)) {
                        continue;
                    }
                    let (a, b) = l.edge(h, k);
                    let ins = |p: Pt| (c.0 + (p.0 - c.0) * f, c.1 + (p.1 - c.1) * f);
                    let _ = write!(d, "M{}L{}", pt(ins(a)), pt(ins(b)));
                }
            }
            let _ = writeln!(
                body,
                "<path data-area=\"{}\" stroke=\"{}\" d=\"{d}\"/>",
                esc(id),
                area_inks[id.as_str()]
            );
        }
        body.push_str("</g>\n");
    }

    // ---- hexside features and links, from the per-side bits
    let mut sides: BTreeSet<Hexside> = BTreeSet::new();
    for h in map.hexes() {
        for d in HexDir::ALL {
            let s = h.side(d);
            if map.side_bits(s) != 0 {
                sides.insert(s);
            }
        }
    }
    let authored_links: BTreeSet<&str> = map
        .features
        .iter()
        .filter(|f| !f.path.is_empty())
        .map(|f| f.kind.as_str())
        .collect();
    let mut by_kind: BTreeMap<KindId, Vec<Hexside>> = BTreeMap::new();
    for s in &sides {
        let bits = map.side_bits(*s);
        for k in 0..32u16 {
            if bits & (1 << k) != 0 {
                by_kind.entry(k).or_default().push(*s);
            }
        }
    }
    let styled: Vec<(KindId, &str, Style)> = by_kind
        .keys()
        .map(|k| {
            let name = map.side_kinds.name(*k);
            (*k, name, classify(name, authored_links.contains(name)))
        })
        .collect();
    // links sharing a hexside (a road beside a railway) are drawn side by side
    let mut links_at: BTreeMap<Hexside, Vec<KindId>> = BTreeMap::new();
    for (k, _, style) in &styled {
        if style.is_link() {
            for s in &by_kind[k] {
                links_at.entry(*s).or_default().push(*k);
            }
        }
    }
    let order = [
        Style::Lake,
        Style::OtherSide,
        Style::River,
        Style::Road,
        Style::OtherLink,
        Style::Rail,
    ];
    for style in order {
        for (k, name, _) in styled.iter().filter(|(_, _, s)| *s == style) {
            let _ = writeln!(
                body,
                "<g data-kind=\"{}\" fill=\"none\" {}>",
                esc(name),
                stroke_of(style, name)
            );
            for s in &by_kind[k] {
                let (a, b) = s.hexes();
                let label = format!("{}/{}", map.label(a), map.label(b));
                if style.is_link() {
                    let shared = &links_at[s];
                    let i = shared.iter().position(|x| x == k).unwrap_or_default();
                    let shift = (i as f64 - (shared.len() - 1) as f64 / 2.0) * 5.0;
                    let d = link_path(map, &l, *s, style == Style::Rail, shift);
                    let _ = writeln!(body, "<path data-link=\"{label}\" d=\"{d}\"/>");
                } else {
                    let (p, q) = l.side_edge(*s);
                    let _ = writeln!(
                        body,
                        "<path data-side=\"{label}\" d=\"M{}L{}\"/>",
                        pt(p),
                        pt(q)
                    );
                }
            }
            body.push_str("</g>\n");
        }
    }

    // ---- places: markers
    body.push_str("<g id=\"places\">\n");
    for p in &map.places {
        let style = place_style(&p.kind);
        for &h in &p.hexes {
            let c = l.center(h);
            match style {
                PlaceStyle::Major => {
                    let ring: Vec<String> = (0..6)
                        .map(|k| {
                            let (dx, dy) = CORNERS[k];
                            pt((c.0 + dx * 0.8, c.1 + dy * 0.8))
                        })
                        .collect();
                    let _ = writeln!(
                        body,
                        "<path d=\"M{}Z\" fill=\"none\" stroke=\"#b3261e\" stroke-width=\"2\"/>\
                         <rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"#b3261e\" stroke=\"#fff\" stroke-width=\"1\"/>",
                        ring.join("L"),
                        n(c.0 - 5.0),
                        n(c.1 - 5.0)
                    );
                }
                PlaceStyle::Minor => {
                    let _ = writeln!(
                        body,
                        "<circle cx=\"{}\" cy=\"{}\" r=\"3.4\" fill=\"#b3261e\" stroke=\"#fff\" stroke-width=\"0.8\"/>",
                        n(c.0),
                        n(c.1)
                    );
                }
                PlaceStyle::Other => {
                    let _ = writeln!(
                        body,
                        "<circle cx=\"{}\" cy=\"{}\" r=\"3.4\" fill=\"{}\" stroke=\"#fff\" stroke-width=\"0.8\"/>",
                        n(c.0),
                        n(c.1),
                        hashed_ink(&p.kind)
                    );
                }
            }
        }
    }
    body.push_str("</g>\n");

    // ---- tags
    body.push_str("<g id=\"tags\" stroke-width=\"0.8\">\n");
    let mut tag_slot: BTreeMap<Hex, usize> = BTreeMap::new();
    for (tag, hexes) in &map.tags {
        for h in hexes.iter().collect::<BTreeSet<_>>() {
            let slot = tag_slot.entry(*h).or_default();
            let c = l.center(*h);
            let at = (c.0 + 0.6 * S, c.1 - 0.16 * H + *slot as f64 * 0.3 * H);
            *slot += 1;
            let _ = writeln!(body, "{}", tag_symbol(tag, at));
        }
    }
    body.push_str("</g>\n");

    // ---- hex numbers
    let _ = writeln!(
        body,
        "<g id=\"numbers\" font-size=\"6.5\" fill=\"#4a4a4a\" text-anchor=\"middle\">"
    );
    for h in map.hexes() {
        let (x, y) = l.center(h);
        let _ = writeln!(
            body,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            n(x),
            n(y - H / 2.0 + 7.5),
            esc(&map.label(h))
        );
    }
    body.push_str("</g>\n");

    // ---- units
    let mut sides_seen: Vec<&str> = Vec::new();
    for u in units {
        if !sides_seen.contains(&u.side.as_str()) {
            sides_seen.push(&u.side);
        }
    }
    let mut stacks: BTreeMap<Hex, Vec<&Unit>> = BTreeMap::new();
    for u in units {
        if let Location::Map(h) = u.location {
            if map.contains(h) {
                stacks.entry(h).or_default().push(u);
            }
        }
    }
    let on_map: usize = stacks.values().map(Vec::len).sum();
    if opts.units {
        body.push_str("<g id=\"units\">\n");
        for (h, stack) in &stacks {
            let c = l.center(*h);
            let top = stack[0];
            let side = sides_seen
                .iter()
                .position(|s| *s == top.side)
                .unwrap_or_default();
            let _ = writeln!(
                body,
                "{}",
                counter(c, top, stack.len(), &side_fill(side, &top.side))
            );
        }
        body.push_str("</g>\n");
    }

    // ---- names: rivers and lakes, places, area labels
    let _ = writeln!(
        body,
        "<g id=\"feature-names\" font-size=\"7.5\" font-style=\"italic\" text-anchor=\"middle\" {HALO}>"
    );
    for f in &map.features {
        let (Some(name), false) = (&f.name, f.sides.is_empty()) else {
            continue;
        };
        let style = classify(&f.kind, false);
        let ink = match style {
            Style::River => "#1a5fb4".to_string(),
            Style::Lake => "#0d2f7a".to_string(),
            _ => hashed_ink(&f.kind),
        };
        let (a, b) = l.side_edge(f.sides[f.sides.len() / 2]);
        let _ = writeln!(
            body,
            "<text x=\"{}\" y=\"{}\" fill=\"{ink}\">{}</text>",
            n((a.0 + b.0) / 2.0),
            n((a.1 + b.1) / 2.0 + 2.5),
            esc(name)
        );
    }
    body.push_str("</g>\n");

    let _ = writeln!(body, "<g id=\"place-names\" text-anchor=\"middle\" {HALO}>");
    for p in &map.places {
        let pts: Vec<Pt> = p.hexes.iter().map(|h| l.center(*h)).collect();
        if pts.is_empty() {
            continue;
        }
        let x = pts.iter().map(|p| p.0).sum::<f64>() / pts.len() as f64;
        let y = pts.iter().map(|p| p.1).fold(f64::MIN, f64::max) + 0.42 * H;
        let (size, weight, fill) = match place_style(&p.kind) {
            PlaceStyle::Major => ("10", "bold", "#7a120c".to_string()),
            PlaceStyle::Minor => ("8", "normal", "#5a1a14".to_string()),
            PlaceStyle::Other => ("8", "normal", hashed_ink(&p.kind)),
        };
        let _ = writeln!(
            body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{size}\" font-weight=\"{weight}\" fill=\"{fill}\">{}</text>",
            n(x),
            n(y),
            esc(&p.name)
        );
    }
    body.push_str("</g>\n");

    if opts.areas {
        let mut at_hex: BTreeMap<Hex, Vec<&str>> = BTreeMap::new();
        for (id, a) in &map.areas {
            if let Some(h) = a.hexes.first() {
                at_hex.entry(*h).or_default().push(id);
            }
        }
        let _ = writeln!(
            body,
            "<g id=\"area-labels\" font-size=\"9\" font-weight=\"bold\" {HALO}>"
        );
        for (h, ids) in &at_hex {
            let c = l.center(*h);
            let (x, y, anchor) = if map.on_edge(*h, "west") {
                (c.0 - S - 3.0, c.1 + 3.0, "end")
            } else if map.on_edge(*h, "east") {
                (c.0 + S + 3.0, c.1 + 3.0, "start")
            } else if map.on_edge(*h, "north") {
                (c.0, c.1 - H / 2.0 - 4.0, "middle")
            } else if map.on_edge(*h, "south") {
                (c.0, c.1 + H / 2.0 + 10.0, "middle")
            } else {
                (c.0, c.1 + 3.0, "middle")
            };
            let spans: Vec<String> = ids
                .iter()
                .map(|id| format!("<tspan fill=\"{}\">{}</tspan>", area_inks[id], esc(id)))
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

    // ---- title
    let _ = writeln!(
        body,
        "<text x=\"{}\" y=\"26\" font-size=\"19\" font-weight=\"bold\" fill=\"#222\">{}</text>",
        n(MARGIN),
        esc(title)
    );
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
    let _ = writeln!(
        body,
        "<text x=\"{}\" y=\"42\" font-size=\"11\" fill=\"#444\">{}</text>",
        n(MARGIN),
        esc(&subtitle)
    );

    // ---- legend
    let top = TITLE_H + MARGIN + l.map_h + MARGIN;
    let legend_h = legend(
        &mut body,
        map,
        &LegendInput {
            styled: &styled,
            sides: &sides_seen,
            area_inks: &area_inks,
            opts,
            top,
            width: w,
        },
    );
    let total_h = top + legend_h + MARGIN / 2.0;

    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"{FONT}\">",
        w = n(w),
        h = n(total_h)
    );
    let _ = writeln!(out, "<title>{}</title>", esc(title));
    out.push_str(
        "<defs><pattern id=\"swamp\" width=\"12\" height=\"8\" patternUnits=\"userSpaceOnUse\">\
         <rect width=\"12\" height=\"8\" fill=\"#c7ded0\"/>\
         <path d=\"M1.5 5h4.5M7.5 1.8h3.5\" stroke=\"#3f7f68\" stroke-width=\"0.9\"/></pattern></defs>\n",
    );
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

/// Line from centre to centre, or to the map edge when one hex is off the map, moved `shift` to
/// the right of the side's canonical direction; railways get ticks.
fn link_path(map: &Map, l: &Layout, s: Hexside, ticks: bool, shift: f64) -> String {
    let (a, b) = s.hexes();
    let (ca, cb) = (l.center(a), l.center(b));
    let (p, q) = match (map.contains(a), map.contains(b)) {
        (true, true) | (false, false) => (ca, cb),
        (true, false) | (false, true) => {
            let (e1, e2) = l.side_edge(s);
            let mid = ((e1.0 + e2.0) / 2.0, (e1.1 + e2.1) / 2.0);
            if map.contains(a) {
                (ca, mid)
            } else {
                (mid, cb)
            }
        }
    };
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let len = (dx * dx + dy * dy).sqrt();
    let (p, q) = if len > 0.0 && shift != 0.0 {
        let (ox, oy) = (-dy / len * shift, dx / len * shift);
        ((p.0 + ox, p.1 + oy), (q.0 + ox, q.1 + oy))
    } else {
        (p, q)
    };
    let mut d = format!("M{}L{}", pt(p), pt(q));
    if ticks && len > 0.0 {
        let (ux, uy) = (dx / len, dy / len);
        let (px, py) = (-uy * 3.6, ux * 3.6);
        let count = ((len / (0.42 * S)).round() as usize).max(1);
        for i in 0..count {
            let t = (i as f64 + 0.5) / count as f64;
            let m = (p.0 + dx * t, p.1 + dy * t);
            let _ = write!(
                d,
                "M{}L{}",
                pt((m.0 - px, m.1 - py)),
                pt((m.0 + px, m.1 + py))
            );
        }
    }
    d
}

fn tag_symbol(tag: &str, at: Pt) -> String {
    if tag.to_ascii_lowercase().contains("vp") {
        format!(
            "<path data-tag=\"{}\" d=\"{}\" fill=\"#f2c200\" stroke=\"#6b5200\"/>",
            esc(tag),
            star(at, 6.5)
        )
    } else {
        format!(
            "<path data-tag=\"{}\" d=\"{}\" fill=\"{}\" stroke=\"#222\"/>",
            esc(tag),
            diamond(at, 4.5),
            hashed_fill(tag)
        )
    }
}

/// A counter: side colour, first unit's name (or type) and values, stack size.
fn counter(c: Pt, top: &Unit, count: usize, fill: &str) -> String {
    let (w, h) = (27.0, 20.0);
    let (x, y) = (c.0 - w / 2.0, c.1 - h / 2.0 + 3.0);
    let mut s = String::new();
    if count > 1 {
        let _ = write!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"1.5\" fill=\"{fill}\" stroke=\"#222\" stroke-width=\"0.7\"/>",
            n(x + 2.5),
            n(y - 2.5),
            n(w),
            n(h)
        );
    }
    let _ = write!(
        s,
        "<rect data-unit=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"1.5\" fill=\"{fill}\" stroke=\"#222\" stroke-width=\"0.7\"/>",
        esc(&top.id),
        n(x),
        n(y),
        n(w),
        n(h)
    );
    let name = if top.hidden || top.name == top.id {
        &top.kind
    } else {
        &top.name
    };
    let values = if top.hidden {
        "?".to_string()
    } else {
        top.face()
            .map(|f| f.to_string())
            .unwrap_or_else(|| "–".into())
    };
    let _ = write!(
        s,
        "<text x=\"{}\" y=\"{}\" font-size=\"6\" text-anchor=\"middle\" fill=\"#111\">{}</text>\
         <text x=\"{}\" y=\"{}\" font-size=\"7.5\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#111\">{}</text>",
        n(c.0),
        n(y + 7.0),
        esc(&shorten(name, 9)),
        n(c.0),
        n(y + 16.5),
        esc(&values)
    );
    if count > 1 {
        let (bx, by) = (x + w + 0.5, y + h - 1.0);
        let _ = write!(
            s,
            "<circle cx=\"{}\" cy=\"{}\" r=\"5.2\" fill=\"#222\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"6.5\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#fff\">{count}</text>",
            n(bx),
            n(by),
            n(bx),
            n(by + 2.3)
        );
    }
    s
}

struct LegendInput<'a> {
    styled: &'a [(KindId, &'a str, Style)],
    sides: &'a [&'a str],
    area_inks: &'a BTreeMap<&'a str, String>,
    opts: &'a Options,
    top: f64,
    width: f64,
}

/// Writes the legend below the map; returns its height.
fn legend(body: &mut String, map: &Map, li: &LegendInput<'_>) -> f64 {
    // each item: a swatch drawn in a 30×18 box at (0,0), and its text
    let mut items: Vec<(String, String)> = Vec::new();
    let hexagon = |fill: &str| {
        format!(
            "<path d=\"M27 9l-4.5 7.8h-9L9 9l4.5-7.8h9z\" fill=\"{fill}\" stroke=\"#8a8a80\" stroke-width=\"0.6\" transform=\"translate(-3 0)\"/>"
        )
    };
    let mut terrains_used: BTreeSet<KindId> = BTreeSet::new();
    for h in map.hexes() {
        if let Some(t) = map.terrain(h) {
            terrains_used.insert(t);
        }
    }
    for t in terrains_used {
        let name = map.terrains.name(t);
        items.push((hexagon(&terrain_fill(name)), name.to_string()));
    }
    for (_, name, style) in li.styled {
        let line = if style.is_link() {
            let d = if *style == Style::Rail {
                "M2 9L28 9M7 5.4L7 12.6M15 5.4L15 12.6M23 5.4L23 12.6"
            } else {
                "M2 9L28 9"
            };
            format!(
                "<path d=\"{d}\" fill=\"none\" {}/>",
                stroke_of(*style, name)
            )
        } else {
            format!(
                "<path d=\"M4 3L12 15L26 15\" fill=\"none\" {}/>",
                stroke_of(*style, name)
            )
        };
        let what = if style.is_link() {
            "(hex to hex)"
        } else {
            "hexside"
        };
        items.push((line, format!("{name} {what}")));
    }
    let kinds: BTreeSet<(u8, &str)> = map
        .places
        .iter()
        .map(|p| {
            let order = match place_style(&p.kind) {
                PlaceStyle::Major => 0,
                PlaceStyle::Minor => 1,
                PlaceStyle::Other => 2,
            };
            (order, p.kind.as_str())
        })
        .collect();
    for (_, kind) in kinds {
        let sw = match place_style(kind) {
            PlaceStyle::Major => "<rect x=\"10\" y=\"4\" width=\"10\" height=\"10\" fill=\"#b3261e\" stroke=\"#fff\"/>".to_string(),
            PlaceStyle::Minor => "<circle cx=\"15\" cy=\"9\" r=\"3.4\" fill=\"#b3261e\"/>".to_string(),
            PlaceStyle::Other => format!("<circle cx=\"15\" cy=\"9\" r=\"3.4\" fill=\"{}\"/>", hashed_ink(kind)),
        };
        items.push((sw, kind.to_string()));
    }
    for tag in map.tags.keys() {
        items.push((tag_symbol(tag, (15.0, 9.0)), format!("tag {tag}")));
    }
    if li.opts.units {
        for (i, side) in li.sides.iter().enumerate() {
            items.push((
                format!(
                    "<rect x=\"4\" y=\"1\" width=\"22\" height=\"16\" rx=\"1.5\" fill=\"{}\" stroke=\"#222\" stroke-width=\"0.7\"/>",
                    side_fill(i, side)
                ),
                format!("{side} unit"),
            ));
        }
    }
    let per_row = ((li.width - 2.0 * MARGIN) / LEGEND_CELL).floor().max(1.0) as usize;
    let _ = writeln!(
        body,
        "<g id=\"legend\" font-size=\"10\" fill=\"#222\"><text x=\"{}\" y=\"{}\" font-size=\"12\" font-weight=\"bold\">Legend</text>",
        n(MARGIN),
        n(li.top)
    );
    let mut y = li.top + 10.0;
    for (i, (swatch, text)) in items.iter().enumerate() {
        let (col, row) = (i % per_row, i / per_row);
        let x = MARGIN + col as f64 * LEGEND_CELL;
        let yy = y + row as f64 * 24.0;
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
    y += items.len().div_ceil(per_row) as f64 * 24.0 + 6.0;
    let mut notes = vec![
        "Hex numbers at the top of each hex.".to_string(),
        "Major city: red square and ring, bold name; minor city: red dot.".to_string(),
    ];
    if li.opts.units {
        notes.push(
            "Counter: the first unit of the stack (type or name, values A-D-M; ? = untried), the black disc = units in the hex.".to_string(),
        );
    }
    if li.opts.areas && !map.areas.is_empty() {
        notes.push("Areas: dashed outlines, ids at each area's first hex.".to_string());
    }
    for note in &notes {
        y += 13.0;
        let _ = writeln!(
            body,
            "<text x=\"{}\" y=\"{}\" font-size=\"9.5\" fill=\"#444\">{}</text>",
            n(MARGIN),
            n(y),
            esc(note)
        );
    }
    if li.opts.areas && !map.areas.is_empty() {
        y += 8.0;
        let per_row = ((li.width - 2.0 * MARGIN) / AREA_CELL).floor().max(1.0) as usize;
        let rows = map.areas.len().div_ceil(per_row);
        for (i, (id, a)) in map.areas.iter().enumerate() {
            // fill column by column
            let (col, row) = (i / rows, i % rows);
            let x = MARGIN + col as f64 * AREA_CELL;
            let yy = y + 12.0 + row as f64 * 13.0;
            let _ = writeln!(
                body,
                "<text x=\"{}\" y=\"{}\" font-size=\"9\"><tspan font-weight=\"bold\" fill=\"{}\">{}</tspan> {}</text>",
                n(x),
                n(yy),
                li.area_inks[id.as_str()],
                esc(id),
                esc(&a.name)
            );
        }
        y += 12.0 + rows as f64 * 13.0;
    }
    body.push_str("</g>\n");
    y - li.top + 6.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use kessel_core::scenario::parse_map;
    use kessel_core::state::Face;
    use std::path::Path;

    const SMALL: &str = r#"
[map]
name = "Test"
columns = 6
rows = 5

[terrain]
default = "clear"
legend = { "." = "clear", "f" = "forest", "s" = "swamp", "q" = "quagmire" }
rows = ["..f...", ".ss...", "...q..", "......", "ff...."]

[[hexsides]]
kind = "river"
name = "Little"
sides = ["0202/0302", "0202/0303", "0203/0303", "0101/0201"]

[[hexsides]]
kind = "lake"
sides = ["0504/0505"]

[[links]]
kind = "road"
path = ["0101", "0201", "0301", "0401"]

[[links]]
kind = "railway"
path = ["0103", "0203", "0303"]

[[places]]
name = "Bigtown"
kind = "major_city"
hexes = ["0303", "0403"]

[[places]]
name = "Small <&> Town"
kind = "minor_city"
hexes = ["0501"]

[[areas]]
id = "A"
hexes = ["0101..0105"]

[[tags]]
tag = "vp_hex"
hexes = ["0604"]
"#;

    fn small() -> Map {
        parse_map(Path::new("small.toml"), SMALL).expect("the test map parses")
    }

    fn unit(id: &str, side: &str, at: Hex, hidden: bool) -> Unit {
        Unit {
            id: id.into(),
            name: id.to_uppercase(),
            side: side.into(),
            kind: "infantry".into(),
            formation: None,
            faces: if hidden {
                Vec::new()
            } else {
                vec![Face {
                    attack: 4,
                    defence: 3,
                    movement: 7,
                }]
            },
            step: 0,
            hidden,
            pool: None,
            location: Location::Map(at),
            entry: None,
            setup_area: None,
            attrs: Default::default(),
            flags: Default::default(),
            vars: Default::default(),
        }
    }

    fn units(map: &Map) -> Vec<Unit> {
        let a = map.parse("0203").expect("hex");
        let b = map.parse("0505").expect("hex");
        vec![
            unit("x1", "red", a, false),
            unit("x2", "red", a, true),
            unit("y1", "blue", b, true),
        ]
    }

    /// The `d` of the path carrying `attr="value"`.
    fn path_d<'a>(svg: &'a str, attr: &str, value: &str) -> Option<&'a str> {
        let key = format!("{attr}=\"{value}\" d=\"");
        let start = svg.find(&key)? + key.len();
        svg[start..].split('"').next()
    }

    fn points(d: &str) -> Vec<(f64, f64)> {
        let nums: Vec<f64> = d
            .split(['M', 'L', ' '])
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().expect("number"))
            .collect();
        nums.chunks(2).map(|c| (c[0], c[1])).collect()
    }

    #[test]
    fn every_river_hexside_is_a_path_on_the_edge_both_hexes_share() {
        let map = small();
        let svg = render_svg(&map, "t", &[], &Options::default());
        let l = Layout::new(&map);
        let river = map
            .features
            .iter()
            .find(|f| f.kind == "river")
            .expect("river");
        assert_eq!(river.sides.len(), 4);
        let group = svg
            .split("<g data-kind=\"river\"")
            .nth(1)
            .and_then(|s| s.split("</g>").next())
            .expect("river group");
        assert_eq!(group.matches("<path data-side=").count(), 4);
        for side in &river.sides {
            let (a, b) = side.hexes();
            let label = format!("{}/{}", map.label(a), map.label(b));
            let d = path_d(group, "data-side", &label).expect("a path for the side");
            let ends = points(d);
            assert_eq!(ends.len(), 2, "{label}: {d}");
            // both ends are corners of both hexes
            for h in [a, b] {
                for e in &ends {
                    let is_corner = (0..6).any(|k| {
                        let c = l.corner(h, k);
                        (c.0 - e.0).abs() < 0.11 && (c.1 - e.1).abs() < 0.11
                    });
                    assert!(
                        is_corner,
                        "{label}: {e:?} is not a corner of {}",
                        map.label(h)
                    );
                }
            }
        }
        assert!(
            path_d(&svg, "data-side", "0505/0504").is_some(),
            "lake side"
        );
    }

    #[test]
    fn roads_and_railways_join_hex_centres() {
        let map = small();
        let svg = render_svg(&map, "t", &[], &Options::default());
        let l = Layout::new(&map);
        let road = svg
            .split("<g data-kind=\"road\"")
            .nth(1)
            .and_then(|s| s.split("</g>").next())
            .expect("road group");
        assert_eq!(road.matches("<path data-link=").count(), 3);
        let a = map.parse("0201").expect("hex");
        let b = map.parse("0301").expect("hex");
        let (x, y) = Hexside::between(a, b).expect("adjacent").hexes();
        let label = format!("{}/{}", map.label(x), map.label(y));
        let ends = points(path_d(road, "data-link", &label).expect("segment"));
        let (ca, cb) = (l.center(a), l.center(b));
        let near = |p: (f64, f64), q: Pt| (p.0 - q.0).abs() < 0.11 && (p.1 - q.1).abs() < 0.11;
        assert!(
            (near(ends[0], ca) && near(ends[1], cb)) || (near(ends[0], cb) && near(ends[1], ca))
        );
        let rail = svg
            .split("<g data-kind=\"railway\"")
            .nth(1)
            .and_then(|s| s.split("</g>").next())
            .expect("railway group");
        assert_eq!(rail.matches("<path data-link=").count(), 2);
        // a railway segment carries cross-ticks: more than one sub-path
        let first = rail.split("d=\"").nth(1).expect("d");
        assert!(first.split('"').next().expect("d").matches('M').count() > 1);
    }

    #[test]
    fn output_is_deterministic_and_complete() {
        let map = small();
        let us = units(&map);
        let a = render_svg(&map, "Test <scenario>", &us, &Options::default());
        let b = render_svg(&map, "Test <scenario>", &us, &Options::default());
        assert_eq!(a, b);
        assert!(a.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(a.trim_end().ends_with("</svg>"));
        // every hex number
        for h in map.hexes() {
            assert!(a.contains(&format!(">{}</text>", map.label(h))));
        }
        // escaped text
        assert!(a.contains("Test &lt;scenario&gt;"));
        assert!(a.contains("Small &lt;&amp;&gt; Town"));
        assert!(!a.contains("<&>"));
        // terrains, including an unknown one with a hashed colour
        assert!(a.contains("data-terrain=\"forest\" fill=\"#9fcb8c\""));
        assert!(a.contains("data-terrain=\"swamp\" fill=\"url(#swamp)\""));
        assert!(a.contains(&format!(
            "data-terrain=\"quagmire\" fill=\"{}\"",
            hashed_fill("quagmire")
        )));
        // cities, tag, area, units and the stack count
        assert!(
            a.contains(">Bigtown</text>") && a.contains("font-weight=\"bold\" fill=\"#7a120c\"")
        );
        assert!(a.contains("data-tag=\"vp_hex\""));
        assert!(a.contains("data-area=\"A\""));
        assert!(a.contains("data-unit=\"x1\"") && a.contains("data-unit=\"y1\""));
        assert!(
            !a.contains("data-unit=\"x2\""),
            "only the first unit of a stack shows"
        );
        assert!(a.contains(">4-3-7</text>") && a.contains(">2</text>"));
        assert!(a.contains("red unit") && a.contains("blue unit"));
        assert!(!a.contains("NaN"));
    }

    #[test]
    fn areas_and_units_can_be_left_out() {
        let map = small();
        let us = units(&map);
        let svg = render_svg(
            &map,
            "t",
            &us,
            &Options {
                areas: false,
                units: false,
            },
        );
        assert!(!svg.contains("data-area="));
        assert!(!svg.contains("data-unit="));
        assert!(!svg.contains("id=\"area-labels\""));
    }

    #[test]
    fn the_svg_rasterises() {
        let map = small();
        let svg = render_svg(&map, "t", &units(&map), &Options::default());
        let png = svg_to_png(&svg, 0.5).expect("renders");
        assert_eq!(&png[1..4], b"PNG");
    }

    #[test]
    fn numbers_and_colours_are_stable() {
        assert_eq!(n(0.04), "0");
        assert_eq!(n(-0.04), "0");
        assert_eq!(n(12.25), "12.3");
        assert_eq!(n(-3.5), "-3.5");
        assert_eq!(n(20.78), "20.8");
        assert_eq!(hashed_fill("quagmire"), hashed_fill("quagmire"));
        assert_ne!(hashed_fill("quagmire"), hashed_fill("tundra"));
        assert_eq!(hsl(0.0, 1.0, 0.5), "#ff0000");
        assert_eq!(hsl(120.0, 1.0, 0.5), "#00ff00");
    }
}
