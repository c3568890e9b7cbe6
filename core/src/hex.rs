//! Hex coordinates, directions and hexsides on a flat-topped grid of vertical columns.
//!
//! `Hex` is axial (`q` = column, `r` = the axial row), so neighbour and distance math is branch-free;
//! printed labels such as PGG's `CCRR` live in [`crate::numbering`]. Names follow hexx
//! (`neighbor`, `distance_to`, `range`) so Rust and Lua read alike.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A hex in axial coordinates on a flat-topped grid: `q` grows to the east, `r` to the south-west
/// diagonal, so `N = (0, -1)` and `S = (0, +1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Hex {
    /// Column.
    pub q: i32,
    /// Axial row.
    pub r: i32,
}

/// The six directions of a flat-topped hex, clockwise from north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum HexDir {
    /// North.
    N = 0,
    /// North-east.
    NE = 1,
    /// South-east.
    SE = 2,
    /// South.
    S = 3,
    /// South-west.
    SW = 4,
    /// North-west.
    NW = 5,
}

impl HexDir {
    /// All six directions, clockwise from north.
    pub const ALL: [HexDir; 6] = [
        HexDir::N,
        HexDir::NE,
        HexDir::SE,
        HexDir::S,
        HexDir::SW,
        HexDir::NW,
    ];

    /// The axial offset one step in this direction.
    pub const fn offset(self) -> Hex {
        match self {
            HexDir::N => Hex::new(0, -1),
            HexDir::NE => Hex::new(1, -1),
            HexDir::SE => Hex::new(1, 0),
            HexDir::S => Hex::new(0, 1),
            HexDir::SW => Hex::new(-1, 1),
            HexDir::NW => Hex::new(-1, 0),
        }
    }

    /// The direction pointing the other way.
    pub const fn opposite(self) -> HexDir {
        HexDir::ALL[(self as usize + 3) % 6]
    }

    /// Index 0..6, clockwise from north.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Short compass name (`"N"`, `"NE"`, …).
    pub const fn name(self) -> &'static str {
        match self {
            HexDir::N => "N",
            HexDir::NE => "NE",
            HexDir::SE => "SE",
            HexDir::S => "S",
            HexDir::SW => "SW",
            HexDir::NW => "NW",
        }
    }

    /// Parses a compass name, case-insensitively.
    pub fn from_name(name: &str) -> Option<HexDir> {
        HexDir::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(name))
    }
}

impl Hex {
    /// A hex from axial coordinates.
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The third cube coordinate.
    pub const fn s(self) -> i32 {
        -self.q - self.r
    }

    /// The adjacent hex in `dir`.
    pub const fn neighbor(self, dir: HexDir) -> Hex {
        let o = dir.offset();
        Hex::new(self.q + o.q, self.r + o.r)
    }

    /// The six adjacent hexes, clockwise from north.
    pub fn neighbors(self) -> [Hex; 6] {
        HexDir::ALL.map(|d| self.neighbor(d))
    }

    /// The direction from `self` to an adjacent hex, or `None` if they are not adjacent.
    pub fn direction_to(self, other: Hex) -> Option<HexDir> {
        HexDir::ALL.into_iter().find(|d| self.neighbor(*d) == other)
    }

    /// Number of hex steps between two hexes.
    pub const fn distance_to(self, other: Hex) -> u32 {
        let dq = (self.q - other.q).unsigned_abs();
        let dr = (self.r - other.r).unsigned_abs();
        let ds = (self.s() - other.s()).unsigned_abs();
        let m = if dq > dr { dq } else { dr };
        if m > ds {
            m
        } else {
            ds
        }
    }

    /// Every hex at exactly `radius` steps, clockwise starting north-west of the north-most hex.
    pub fn ring(self, radius: u32) -> Vec<Hex> {
        if radius == 0 {
            return vec![self];
        }
        let mut out = Vec::with_capacity(6 * radius as usize);
        let mut h = self;
        for _ in 0..radius {
            h = h.neighbor(HexDir::N);
        }
        // walk the six sides: from the north corner go SE, S, SW, NW, N, NE
        for dir in [
            HexDir::SE,
            HexDir::S,
            HexDir::SW,
            HexDir::NW,
            HexDir::N,
            HexDir::NE,
        ] {
            for _ in 0..radius {
                out.push(h);
                h = h.neighbor(dir);
            }
        }
        out
    }

    /// Every hex within `radius` steps (including `self`), in ring order.
    pub fn range(self, radius: u32) -> Vec<Hex> {
        (0..=radius).flat_map(|k| self.ring(k)).collect()
    }

    /// The canonical hexside between `self` and its neighbour in `dir`.
    pub fn side(self, dir: HexDir) -> Hexside {
        Hexside::new(self, dir)
    }

    /// The hexes a straight line from the centre of `self` to the centre of `other` passes
    /// through, in order, both ends included. Where the line runs exactly along a hexside, the
    /// step holds the hex on one side in `hex` and the hex on the other in `alt` (line-of-sight
    /// rules usually ask whether either, or both, block).
    pub fn line_to(self, other: Hex) -> Vec<LineStep> {
        let n = self.distance_to(other);
        if n == 0 {
            return vec![LineStep {
                hex: self,
                alt: None,
            }];
        }
        // cube coordinates, nudged both ways so that a point on a hexside rounds to each side
        let (a, b) = (self.cube(), other.cube());
        const NUDGE: [f64; 3] = [1e-6, 2e-6, -3e-6];
        (0..=n)
            .map(|i| {
                let t = f64::from(i) / f64::from(n);
                let at = |k: usize, sign: f64| a[k] + (b[k] - a[k]) * t + sign * NUDGE[k];
                let one = cube_round([at(0, 1.0), at(1, 1.0), at(2, 1.0)]);
                let two = cube_round([at(0, -1.0), at(1, -1.0), at(2, -1.0)]);
                LineStep {
                    hex: one,
                    alt: (two != one).then_some(two),
                }
            })
            .collect()
    }

    /// How `other` lies from `self` along the grain of the grid: [`Grain::Hexgrain`] when a
    /// straight line of hex centres in one of the six directions joins them, [`Grain::Alternate`]
    /// when the line runs along hexsides through the corners (the six directions between two
    /// adjacent ones), `None` otherwise or for the same hex.
    pub fn grain_to(self, other: Hex) -> Option<Grain> {
        let (dq, dr) = (other.q - self.q, other.r - self.r);
        let ds = -dq - dr;
        if (dq, dr) == (0, 0) {
            return None;
        }
        let k = self.distance_to(other) as i32;
        if let Some(d) = HexDir::ALL
            .into_iter()
            .find(|d| d.offset().q * k == dq && d.offset().r * k == dr)
        {
            return Some(Grain::Hexgrain(d));
        }
        // a corner direction is the sum of two adjacent directions: (2,-1,-1) and its turns
        for (i, d) in HexDir::ALL.into_iter().enumerate() {
            let e = HexDir::ALL[(i + 1) % 6];
            let (cq, cr) = (d.offset().q + e.offset().q, d.offset().r + e.offset().r);
            let cs = -cq - cr;
            // same direction: a positive multiple
            if dq * cr == dr * cq && dq * cs == ds * cq && dr * cs == ds * cr {
                let same_sign = dq * cq >= 0 && dr * cr >= 0 && ds * cs >= 0;
                if same_sign {
                    return Some(Grain::Alternate(d, e));
                }
            }
        }
        None
    }

    fn cube(self) -> [f64; 3] {
        [f64::from(self.q), f64::from(self.r), f64::from(self.s())]
    }
}

/// One hex of a straight line between two hex centres (see [`Hex::line_to`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineStep {
    /// The hex the line passes through.
    pub hex: Hex,
    /// Where the line runs along a hexside: the hex on the other side of it.
    pub alt: Option<Hex>,
}

/// How two hexes lie along the grid (see [`Hex::grain_to`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grain {
    /// Along a row of hex centres in this direction.
    Hexgrain(HexDir),
    /// Along hexsides and corners, between these two adjacent directions (clockwise order).
    Alternate(HexDir, HexDir),
}

impl Grain {
    /// `"N"` for a hexgrain, `"N-NE"` for the alternate grain between N and NE.
    pub fn name(self) -> String {
        match self {
            Grain::Hexgrain(d) => d.name().to_string(),
            Grain::Alternate(a, b) => format!("{}-{}", a.name(), b.name()),
        }
    }
}

/// The hex a fractional cube position lies in.
fn cube_round(c: [f64; 3]) -> Hex {
    let (mut q, mut r, s) = (c[0].round(), c[1].round(), c[2].round());
    let (dq, dr, ds) = ((q - c[0]).abs(), (r - c[1]).abs(), (s - c[2]).abs());
    if dq > dr && dq > ds {
        q = -r - s;
    } else if dr > ds {
        r = -q - s;
    }
    Hex::new(q as i32, r as i32)
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.q, self.r)
    }
}

/// One side shared by two adjacent hexes, with a single canonical key: it is stored as the hex
/// that has the side to its N, NE or SE. Rivers, lakes, roads and railways live on hexsides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Hexside {
    /// The hex whose N, NE or SE side this is.
    pub hex: Hex,
    /// 0 = N, 1 = NE, 2 = SE.
    pub dir: u8,
}

impl Hexside {
    /// The side of `hex` facing `dir`, canonicalised.
    pub fn new(hex: Hex, dir: HexDir) -> Hexside {
        if dir.index() < 3 {
            Hexside {
                hex,
                dir: dir.index() as u8,
            }
        } else {
            Hexside {
                hex: hex.neighbor(dir),
                dir: dir.opposite().index() as u8,
            }
        }
    }

    /// The side between two hexes, or `None` if they are not adjacent.
    pub fn between(a: Hex, b: Hex) -> Option<Hexside> {
        a.direction_to(b).map(|d| Hexside::new(a, d))
    }

    /// The two hexes this side separates.
    pub fn hexes(self) -> (Hex, Hex) {
        let dir = HexDir::ALL[self.dir as usize];
        (self.hex, self.hex.neighbor(dir))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_are_at_distance_one_and_opposites_return() {
        let h = Hex::new(3, -2);
        for d in HexDir::ALL {
            let n = h.neighbor(d);
            assert_eq!(h.distance_to(n), 1);
            assert_eq!(n.neighbor(d.opposite()), h);
            assert_eq!(h.direction_to(n), Some(d));
        }
    }

    #[test]
    fn ring_and_range_sizes() {
        let h = Hex::new(0, 0);
        assert_eq!(h.ring(0), vec![h]);
        for k in 1..5 {
            let ring = h.ring(k);
            assert_eq!(ring.len(), 6 * k as usize);
            assert!(ring.iter().all(|x| x.distance_to(h) == k));
        }
        assert_eq!(h.range(3).len(), 37);
    }

    #[test]
    fn hexside_is_canonical_from_both_sides() {
        let a = Hex::new(2, 2);
        for d in HexDir::ALL {
            let b = a.neighbor(d);
            assert_eq!(Hexside::between(a, b), Hexside::between(b, a));
            let (x, y) = a.side(d).hexes();
            assert!((x == a && y == b) || (x == b && y == a));
        }
        assert_eq!(Hexside::between(a, Hex::new(5, 5)), None);
    }

    #[test]
    fn a_line_is_contiguous_and_ends_where_it_should() {
        let a = Hex::new(0, 0);
        for b in [
            Hex::new(5, -2),
            Hex::new(-3, 7),
            Hex::new(4, 0),
            Hex::new(0, -6),
        ] {
            let line = a.line_to(b);
            assert_eq!(line.len() as u32, a.distance_to(b) + 1);
            assert_eq!(line[0].hex, a);
            assert_eq!(line.last().map(|s| s.hex), Some(b));
            for w in line.windows(2) {
                assert_eq!(w[0].hex.distance_to(w[1].hex), 1, "{line:?}");
            }
        }
        // along a hexgrain no step is ambiguous
        assert!(a.line_to(Hex::new(0, 5)).iter().all(|s| s.alt.is_none()));
    }

    #[test]
    fn a_line_along_hexsides_gives_both_hexes() {
        // due east on a flat-topped grid runs along hexsides: (2,-1) is two columns east
        let line = Hex::new(0, 0).line_to(Hex::new(2, -1));
        assert_eq!(line.len(), 3);
        let mid = line[1];
        let alt = mid.alt.expect("the middle step is on a hexside");
        let both = [mid.hex, alt];
        assert!(
            both.contains(&Hex::new(1, -1)) && both.contains(&Hex::new(1, 0)),
            "{mid:?}"
        );
    }

    #[test]
    fn grains_are_told_apart() {
        let a = Hex::new(2, 2);
        assert_eq!(
            a.grain_to(Hex::new(2, 6)).map(Grain::name).as_deref(),
            Some("S")
        );
        assert_eq!(
            a.grain_to(Hex::new(5, -1)).map(Grain::name).as_deref(),
            Some("NE")
        );
        assert_eq!(
            a.grain_to(Hex::new(6, 0)).map(Grain::name).as_deref(),
            Some("NE-SE"),
            "due east: between NE and SE"
        );
        assert_eq!(
            a.grain_to(Hex::new(0, 3)).map(Grain::name).as_deref(),
            Some("SW-NW")
        );
        assert_eq!(
            a.grain_to(Hex::new(3, 4)),
            None,
            "a knight's move is on no grain"
        );
        assert_eq!(a.grain_to(a), None);
    }
}
