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
}
