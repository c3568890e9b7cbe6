//! What is printed on a counter, as shapes both drawers paint: the top line (a formation, a
//! leader's name), the unit symbol in its box (NATO style, or the type's name), the values along
//! the bottom, a face-down unit's `?`. The editor painted its counters from its own code and
//! `kessel render` from another (the type or name above the values, no symbol), so the same unit
//! looked different in the two; now each only turns these shapes into its own strokes and text.

use crate::color::Rgb;
use crate::layout::Point;
use crate::pieces;
use crate::style::{MapStyle, UnitSymbol};
use kessel_core::state::Unit;

/// Below this side (in the drawer's units) a counter is a plain square of its side's colour.
pub const DETAIL_FROM: f32 = 14.0;
/// From this side a counter also carries its top line (and a face-down unit its type's name).
pub const TOP_LINE_FROM: f32 = 22.0;
/// The most characters of a formation on the top of a counter (a leader's name: one more).
pub const FORMATION_CHARS: usize = 8;

/// How a text stands at its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// Centred on the point both ways.
    Center,
    /// Centred across, its bottom (below the baseline) on the point.
    Bottom,
}

/// One shape printed on a counter, in the drawer's units, in the counter's ink.
#[derive(Clone, Debug, PartialEq)]
pub enum Print {
    /// A rectangle's outline (the symbol's box).
    Frame {
        /// Top-left corner.
        min: Point,
        /// Bottom-right corner.
        max: Point,
        /// Line width.
        width: f32,
    },
    /// A rectangle with round ends, outlined (armour's tracks).
    Oval {
        /// Top-left corner.
        min: Point,
        /// Bottom-right corner.
        max: Point,
        /// Line width.
        width: f32,
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
    /// A filled circle.
    Dot {
        /// Centre.
        c: Point,
        /// Radius.
        r: f32,
    },
    /// A filled five-pointed star (a leader; the gold stars on the map are VP hexes).
    Star {
        /// Centre.
        c: Point,
        /// Outer radius.
        r: f32,
    },
    /// A text.
    Text {
        /// Where it stands (see `anchor`).
        at: Point,
        /// How it stands there.
        anchor: Anchor,
        /// Font size.
        size: f32,
        /// Bold (the values).
        bold: bool,
        /// The text.
        text: String,
    },
}

/// The counter's top line: a text to fit, shortened with [`pieces::short_name`], into the room
/// [`pieces::top_line_room`] leaves beside a count badge (each drawer measures its own text).
#[derive(Clone, Debug, PartialEq)]
pub struct TopLine {
    /// The whole text.
    pub text: String,
    /// The most characters shown.
    pub most: usize,
    /// The top of the line.
    pub top: f32,
    /// Font size.
    pub size: f32,
}

impl TopLine {
    /// The band the line takes, top and bottom (for [`pieces::top_line_room`]).
    pub fn band(&self) -> (f32, f32) {
        (self.top, self.top + 1.2 * self.size)
    }
}

/// Everything printed on one counter.
#[derive(Clone, Debug, PartialEq)]
pub struct CounterFace {
    /// The counter's colour: its side's, darker while it is face down.
    pub fill: Rgb,
    /// The colour of its print: black or white, whichever reads on `fill`.
    pub ink: Rgb,
    /// Its top line, if it has one and the counter is big enough.
    pub top: Option<TopLine>,
    /// The rest, in drawing order.
    pub prints: Vec<Print>,
}

/// What is printed on `unit`'s counter whose top-left corner is `min` and side `w`: the one
/// layout of a counter the editor and `kessel render` draw.
pub fn counter_face(style: &MapStyle, unit: &Unit, min: Point, w: f32) -> CounterFace {
    let fill = pieces::counter_fill(style.side(&unit.side).color, unit.hidden);
    let ink = fill.ink_on();
    let mut face = CounterFace {
        fill,
        ink,
        top: None,
        prints: Vec::new(),
    };
    if w < DETAIL_FROM {
        return face;
    }
    let small = (0.2 * w).max(6.0);
    let values = (0.26 * w).max(7.0);
    let symbol = style.unit_symbol(&unit.kind);
    // top line: a leader by name, other units by formation
    let (top_text, most) = if symbol == UnitSymbol::Leader {
        (unit.name.as_str(), FORMATION_CHARS + 1)
    } else {
        (
            unit.formation.as_deref().unwrap_or_default(),
            FORMATION_CHARS,
        )
    };
    if w >= TOP_LINE_FROM && !top_text.trim().is_empty() {
        face.top = Some(TopLine {
            text: top_text.to_string(),
            most,
            top: min.y + 0.04 * w,
            size: small,
        });
    }
    let centre_x = min.x + w / 2.0;
    let box_c = Point::new(centre_x, min.y + 0.47 * w);
    let (bw, bh) = (0.58 * w, 0.34 * w);
    let box_min = Point::new(box_c.x - bw / 2.0, box_c.y - bh / 2.0);
    let box_max = Point::new(box_c.x + bw / 2.0, box_c.y + bh / 2.0);
    let bottom = Point::new(centre_x, min.y + w - 0.03 * w);
    if unit.hidden {
        face.prints.push(Print::Text {
            at: box_c,
            anchor: Anchor::Center,
            size: 0.36 * w,
            bold: false,
            text: "?".into(),
        });
        if w >= TOP_LINE_FROM {
            face.prints.push(Print::Text {
                at: bottom,
                anchor: Anchor::Bottom,
                size: small,
                bold: false,
                text: short_kind(&unit.kind),
            });
        }
        return face;
    }
    symbol_prints(&mut face.prints, symbol, unit, box_min, box_max);
    face.prints.push(Print::Text {
        at: bottom,
        anchor: Anchor::Bottom,
        size: values,
        bold: true,
        text: style.face_text(unit),
    });
    face
}

/// A type's name as a counter shows it: words, at most 9 characters.
pub fn short_kind(kind: &str) -> String {
    pieces::short_name(&kind.replace('_', " "), 9)
}

/// The symbol in its box (`min`..`max`).
fn symbol_prints(out: &mut Vec<Print>, symbol: UnitSymbol, unit: &Unit, min: Point, max: Point) {
    let (bw, bh) = (max.x - min.x, max.y - min.y);
    let c = Point::new(min.x + bw / 2.0, min.y + bh / 2.0);
    let width = (bh * 0.08).max(1.0);
    if symbol == UnitSymbol::Leader {
        // a leader's star in the counter's ink: gold stars on the map are VP hexes, and an
        // objective's star sits on this counter's left edge when a leader stands on it
        out.push(Print::Star {
            c: Point::new(c.x - bw * 0.18, c.y),
            r: bh * 0.55,
        });
        if let Some(rating) = unit.attrs.get("rating") {
            out.push(Print::Text {
                at: Point::new(c.x + bw * 0.25, c.y),
                anchor: Anchor::Center,
                size: bh * 0.9,
                bold: false,
                text: rating.to_string(),
            });
        }
        return;
    }
    out.push(Print::Frame { min, max, width });
    let cross = |out: &mut Vec<Print>| {
        out.push(Print::Line {
            a: min,
            b: max,
            width,
        });
        out.push(Print::Line {
            a: Point::new(min.x, max.y),
            b: Point::new(max.x, min.y),
            width,
        });
    };
    let oval = |out: &mut Vec<Print>| {
        let (dx, dy) = (bw * 0.2, bh * 0.26);
        out.push(Print::Oval {
            min: Point::new(min.x + dx, min.y + dy),
            max: Point::new(max.x - dx, max.y - dy),
            width,
        });
    };
    match symbol {
        UnitSymbol::Infantry => cross(out),
        UnitSymbol::Armour => oval(out),
        UnitSymbol::Mechanized => {
            cross(out);
            oval(out);
        }
        UnitSymbol::Cavalry => out.push(Print::Line {
            a: Point::new(min.x, max.y),
            b: Point::new(max.x, min.y),
            width,
        }),
        UnitSymbol::Artillery => out.push(Print::Dot { c, r: bh * 0.18 }),
        UnitSymbol::Leader => {}
        UnitSymbol::Other => out.push(Print::Text {
            at: c,
            anchor: Anchor::Center,
            size: bh * 0.45,
            bold: false,
            text: short_kind(&unit.kind),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kessel_core::state::{Face, Location};

    fn unit(kind: &str, formation: Option<&str>, hidden: bool) -> Unit {
        let mut u = Unit::new("u1", "red", kind);
        u.formation = formation.map(str::to_string);
        u.hidden = hidden;
        u.faces = vec![Face {
            attack: 4,
            defence: 2,
            movement: 6,
        }];
        u.location = Location::Pending;
        u
    }

    fn texts(face: &CounterFace) -> Vec<&str> {
        face.prints
            .iter()
            .filter_map(|p| match p {
                Print::Text { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_counter_shows_its_formation_symbol_or_type_and_values() {
        let style = MapStyle::default();
        let min = Point::new(0.0, 0.0);
        let face = counter_face(&style, &unit("home_guard", Some("7 Pz"), false), min, 40.0);
        assert_eq!(face.top.as_ref().map(|t| t.text.as_str()), Some("7 Pz"));
        // no symbol declared: the type's name in the box, then the values, bold
        assert_eq!(texts(&face), vec!["home", "4-2-6"]);
        assert!(face.prints.iter().any(|p| matches!(p, Print::Frame { .. })));
        // face down: a `?` and its type, no values
        let hidden = counter_face(&style, &unit("home_guard", None, true), min, 40.0);
        assert_eq!(texts(&hidden), vec!["?", "home"]);
        assert!(hidden.fill != face.fill, "darker face down");
        // too small for print: the square alone
        let tiny = counter_face(&style, &unit("home_guard", Some("7 Pz"), false), min, 10.0);
        assert!(tiny.top.is_none() && tiny.prints.is_empty());
        // every print lies on the counter
        for p in &face.prints {
            let inside = |q: &Point| q.x >= 0.0 && q.x <= 40.0 && q.y >= 0.0 && q.y <= 40.0;
            let ok = match p {
                Print::Frame { min, max, .. } | Print::Oval { min, max, .. } => {
                    inside(min) && inside(max)
                }
                Print::Line { a, b, .. } => inside(a) && inside(b),
                Print::Dot { c, .. } | Print::Star { c, .. } => inside(c),
                Print::Text { at, .. } => inside(at),
            };
            assert!(ok, "{p:?}");
        }
    }
}
