//! The drawing model (`kessel_draw`) in egui's terms: its points and colours as egui's, and the
//! few shapes the canvas and the counters share. Geometry and colours are decided there, not here.

use egui::{Color32, Painter, Pos2, Shape, Stroke, Vec2};
use kessel_draw::{Point, Rgb};

/// A model colour as egui's.
pub fn color(c: Rgb) -> Color32 {
    Color32::from_rgb(c.r, c.g, c.b)
}

/// A model point (world units) as egui's.
pub fn pos(p: Point) -> Pos2 {
    Pos2::new(p.x, p.y)
}

/// An egui position as a model point.
pub fn point(p: Pos2) -> Point {
    Point::new(p.x, p.y)
}

/// A five-pointed star, built from convex pieces because egui fills only convex polygons.
pub fn star(shapes: &mut Vec<Shape>, c: Pos2, r: f32, fill: Color32, ink: Color32) {
    let pts = kessel_draw::pieces::star_points(point(c), r).map(pos);
    let pentagon: Vec<Pos2> = (0..5).map(|i| pts[2 * i + 1]).collect();
    shapes.push(Shape::convex_polygon(pentagon, fill, Stroke::NONE));
    for i in 0..5 {
        let tip = pts[2 * i];
        let left = pts[(2 * i + 9) % 10];
        let right = pts[2 * i + 1];
        shapes.push(Shape::convex_polygon(
            vec![left, tip, right],
            fill,
            Stroke::NONE,
        ));
    }
    shapes.push(Shape::closed_line(pts.to_vec(), Stroke::new(1.0, ink)));
}

/// The six corners of a hex of radius `zoom` around a screen centre, clockwise from east.
pub fn hex_corners(center: Pos2, zoom: f32) -> [Pos2; 6] {
    std::array::from_fn(|i| {
        let a = std::f32::consts::FRAC_PI_3 * i as f32;
        center + Vec2::new(a.cos(), a.sin()) * zoom
    })
}

/// A hex outline.
pub fn outline_hex(painter: &Painter, center: Pos2, zoom: f32, stroke: Stroke) {
    painter.add(Shape::closed_line(
        hex_corners(center, zoom).to_vec(),
        stroke,
    ));
}

/// The edge shared by two adjacent hexes with screen centres `a` and `b`.
pub fn shared_edge(a: Pos2, b: Pos2, zoom: f32) -> (Pos2, Pos2) {
    let mid = a + (b - a) / 2.0;
    let dir = (b - a).normalized();
    let perp = Vec2::new(-dir.y, dir.x) * (zoom / 2.0);
    (mid - perp, mid + perp)
}
