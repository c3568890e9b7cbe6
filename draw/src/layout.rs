//! The one bridge between hex space and pixels, in the manner of hexx's `HexLayout`: the centre
//! and corners of a hex, the edge of a hexside, and the hex under a point. Every drawer and every
//! hit-test goes through it, so the editor and `kessel render` put a hex in the same place.
//!
//! Hexes are flat-topped in vertical columns (`q` east, `r` south-west, as in `kessel_core::hex`);
//! `y` grows downwards, as on screens and in SVG.

use kessel_core::hex::{Hex, HexDir, Hexside};
use kessel_core::map::Map;

/// √3, the height of a hex of radius 1.
pub const SQRT3: f32 = 1.732_050_8;

/// A point in pixels (or any unit the caller scales to).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Point {
    /// Rightwards.
    pub x: f32,
    /// Downwards.
    pub y: f32,
}

impl Point {
    /// A point.
    pub const fn new(x: f32, y: f32) -> Point {
        Point { x, y }
    }

    /// Squared distance to another point.
    pub fn distance_sq(self, o: Point) -> f32 {
        (self.x - o.x).powi(2) + (self.y - o.y).powi(2)
    }

    /// The point `t` of the way to `o`.
    pub fn lerp(self, o: Point, t: f32) -> Point {
        Point::new(self.x + (o.x - self.x) * t, self.y + (o.y - self.y) * t)
    }
}

/// Where hexes sit: the centre of the axial origin and the hex radius (centre to corner).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HexLayout {
    /// Centre of the hex `q = 0, r = 0`.
    pub origin: Point,
    /// Radius of a hex, centre to corner.
    pub size: f32,
}

impl HexLayout {
    /// The layout of a map whose bounding box (every hex, corner to corner) starts at `(0, 0)`.
    pub fn for_map(map: &Map, size: f32) -> HexLayout {
        let raw = HexLayout {
            origin: Point::default(),
            size,
        };
        // the top of the map is the first row of the first two columns (one of them sits higher)
        let top = (0..map.columns().min(2) as i32)
            .map(|c| raw.center(map.hex_at(c, 0)).y)
            .fold(f32::INFINITY, f32::min);
        let top = if top.is_finite() { top } else { 0.0 };
        HexLayout {
            origin: Point::new(size, size * SQRT3 / 2.0 - top),
            size,
        }
    }

    /// Width and height of a map's bounding box under this layout's size.
    pub fn map_size(&self, map: &Map) -> (f32, f32) {
        let (cols, rows) = (map.columns() as f32, map.rows() as f32);
        if cols == 0.0 || rows == 0.0 {
            return (0.0, 0.0);
        }
        // with two columns or more, one of each pair sits half a hex lower
        let extra = if map.columns() >= 2 { 0.5 } else { 0.0 };
        (
            self.size * (1.5 * cols + 0.5),
            self.size * SQRT3 * (rows + extra),
        )
    }

    /// Centre of a hex (on the map or not).
    pub fn center(&self, hex: Hex) -> Point {
        let (q, r) = (hex.q as f32, hex.r as f32);
        Point::new(
            self.origin.x + self.size * 1.5 * q,
            self.origin.y + self.size * SQRT3 * (r + q / 2.0),
        )
    }

    /// Corner `k` (0 = east, clockwise) of a hex whose centre is `c`, scaled by `f` (1 = the hex
    /// itself; less draws an inset outline).
    pub fn corner_at(&self, c: Point, k: usize, f: f32) -> Point {
        let a = std::f32::consts::FRAC_PI_3 * (k % 6) as f32;
        Point::new(c.x + self.size * f * a.cos(), c.y + self.size * f * a.sin())
    }

    /// The six corners of a hex, clockwise from east.
    pub fn corners(&self, hex: Hex) -> [Point; 6] {
        let c = self.center(hex);
        std::array::from_fn(|k| self.corner_at(c, k, 1.0))
    }

    /// The edge of `hex` facing `dir`, as its two corners.
    pub fn edge(&self, hex: Hex, dir: HexDir) -> (Point, Point) {
        let c = self.center(hex);
        let d = dir.index();
        (self.corner_at(c, d + 4, 1.0), self.corner_at(c, d + 5, 1.0))
    }

    /// The edge two hexes share along a hexside.
    pub fn side_edge(&self, side: Hexside) -> (Point, Point) {
        let dir = HexDir::ALL[side.dir as usize % 6];
        self.edge(side.hex, dir)
    }

    /// The hex containing a point (hexx's `world_pos_to_hex`: axial, then cube rounding).
    pub fn hex_at(&self, p: Point) -> Hex {
        let x = (p.x - self.origin.x) / self.size;
        let y = (p.y - self.origin.y) / self.size;
        let q = x / 1.5;
        let r = y / SQRT3 - q / 2.0;
        let s = -q - r;
        let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
        let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
        if dq > dr && dq > ds {
            rq = -rr - rs;
        } else if dr > ds {
            rr = -rq - rs;
        }
        Hex::new(rq as i32, rr as i32)
    }

    /// The side of `hex` nearest a point, if the point is nearer the edge than the centre
    /// (`dead_zone` hex radii round the centre answer `None`: a click there means the hex).
    pub fn side_near(&self, hex: Hex, p: Point, dead_zone: f32) -> Option<Hexside> {
        let c = self.center(hex);
        if c.distance_sq(p) < (dead_zone * self.size).powi(2) {
            return None;
        }
        HexDir::ALL
            .into_iter()
            .min_by(|a, b| {
                let da = self.center(hex.neighbor(*a)).distance_sq(p);
                let db = self.center(hex.neighbor(*b)).distance_sq(p);
                da.total_cmp(&db)
            })
            .map(|d| hex.side(d))
    }

    /// 0-based column and row ranges of a map's hexes that may touch the rectangle `min..max`,
    /// with one hex of margin and the ring of off-map neighbours (whose canonical sides are the
    /// map's border sides), so drawing costs what is on screen, not the map's size.
    pub fn visible_offsets(
        &self,
        map: &Map,
        min: Point,
        max: Point,
    ) -> (std::ops::RangeInclusive<i32>, std::ops::RangeInclusive<i32>) {
        let top = self.center(map.hex_at(0, 0));
        let col = |x: f32| (x - self.origin.x) / (1.5 * self.size);
        let row = |y: f32| (y - top.y) / (SQRT3 * self.size);
        let c0 = col(min.x).floor() as i32 - 1;
        let c1 = col(max.x).ceil() as i32 + 1;
        let r0 = row(min.y).floor() as i32 - 1;
        let r1 = row(max.y).ceil() as i32 + 1;
        (
            c0.max(-1)..=c1.min(map.columns() as i32),
            r0.max(-1)..=r1.min(map.rows() as i32),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kessel_core::numbering::{LowerColumns, Numbering};

    fn near(a: Point, b: Point) -> bool {
        a.distance_sq(b) < 1e-6
    }

    #[test]
    fn every_centre_and_points_near_it_hit_their_hex() {
        for lower in [LowerColumns::Even, LowerColumns::Odd] {
            let numbering = Numbering {
                lower_columns: lower,
                ..Numbering::default()
            };
            let map = Map::new("t", 9, 7, numbering, "clear");
            let l = HexLayout::for_map(&map, 10.0);
            for hex in map.hexes() {
                let c = l.center(hex);
                for (dx, dy) in [(0.0, 0.0), (8.0, 0.0), (-4.0, 7.0), (0.0, -8.5)] {
                    let p = Point::new(c.x + dx, c.y + dy);
                    assert_eq!(l.hex_at(p), hex, "{} + ({dx}, {dy})", map.label(hex));
                }
            }
        }
    }

    #[test]
    fn neighbours_are_one_hex_apart_and_share_an_edge() {
        let map = Map::new("t", 6, 6, Numbering::default(), "clear");
        let l = HexLayout::for_map(&map, 1.0);
        let h = map.parse("0303").expect("label");
        for d in HexDir::ALL {
            let n = h.neighbor(d);
            let dist = l.center(h).distance_sq(l.center(n)).sqrt();
            assert!((dist - SQRT3).abs() < 1e-4, "{d:?}: {dist}");
            // the edge facing `d` is the neighbour's edge facing back
            let (a, b) = l.edge(h, d);
            let (c, e) = l.edge(n, d.opposite());
            assert!(
                (near(a, c) && near(b, e)) || (near(a, e) && near(b, c)),
                "{d:?}"
            );
            let (p, q) = l.side_edge(h.side(d));
            assert!(
                (near(a, p) && near(b, q)) || (near(a, q) && near(b, p)),
                "{d:?}"
            );
        }
        // even columns sit lower in the default numbering
        let odd = l.center(map.parse("0101").expect("label"));
        let even = l.center(map.parse("0201").expect("label"));
        assert!(even.y > odd.y);
    }

    #[test]
    fn the_map_fills_its_box_from_the_origin() {
        for lower in [LowerColumns::Even, LowerColumns::Odd] {
            let numbering = Numbering {
                lower_columns: lower,
                ..Numbering::default()
            };
            let map = Map::new("t", 5, 4, numbering, "clear");
            let l = HexLayout::for_map(&map, 2.0);
            let (w, h) = l.map_size(&map);
            let (mut minx, mut miny, mut maxx, mut maxy) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
            for hex in map.hexes() {
                for p in l.corners(hex) {
                    minx = minx.min(p.x);
                    miny = miny.min(p.y);
                    maxx = maxx.max(p.x);
                    maxy = maxy.max(p.y);
                }
            }
            assert!(minx.abs() < 1e-4 && miny.abs() < 1e-4, "{minx} {miny}");
            assert!(
                (maxx - w).abs() < 1e-3 && (maxy - h).abs() < 1e-3,
                "{maxx} {maxy}"
            );
        }
    }

    #[test]
    fn a_point_near_an_edge_names_that_side() {
        let map = Map::new("t", 6, 6, Numbering::default(), "clear");
        let l = HexLayout::for_map(&map, 1.0);
        let h = map.parse("0303").expect("label");
        assert_eq!(l.side_near(h, l.center(h), 0.35), None);
        for d in HexDir::ALL {
            let (a, b) = l.edge(h, d);
            let mid = a.lerp(b, 0.5).lerp(l.center(h), 0.1);
            assert_eq!(l.side_near(h, mid, 0.35), Some(h.side(d)), "{d:?}");
        }
    }
}
