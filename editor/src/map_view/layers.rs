//! The map's layers, painted from the drawing model bottom to top: terrain and its marks,
//! hexside features, areas, links, places and VP stars, hex numbers, place names, counters (over
//! the names, so a name never covers a counter), area ids, and last markers and the stacks' count
//! badges (over the hex outlines of the tools and play-test). The same model, colours and rules
//! as `kessel render`; only the painting is egui's.

use super::{world_layout, MapResponse, MapView, Scene};
use crate::counters;
use crate::paint::{self, shared_edge};
use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Shape, Stroke, Vec2};
use kessel_core::hex::{Hex, HexDir, Hexside};
use kessel_core::map::Map;
use kessel_draw::pieces::{self, Mark};
use kessel_draw::style::{MapKinds, Marks, PlaceSymbol};
use kessel_draw::{HexLayout, MapStyle};
use std::collections::BTreeSet;

/// Hex radius (points) from which hex numbers are drawn.
const NUMBERS_FROM: f32 = 17.0;
/// Hex radius (points) from which place names are drawn.
const NAMES_FROM: f32 = 7.0;
/// Hex radius (points) from which terrain marks are drawn.
const MARKS_FROM: f32 = 12.0;

impl MapView {
    /// Draws the map, the counters, the overlays and the tool feedback.
    pub(super) fn draw(&self, painter: &Painter, scene: &Scene<'_>, out: &MapResponse) {
        let map = &scene.doc.map;
        let layout = world_layout(map);
        let kinds = scene.style.for_map(map);
        let z = self.zoom;
        let (cols, rows) = self.visible(map);
        let on_map_cols = (*cols.start()).max(0)..=(*cols.end()).min(map.columns() as i32 - 1);
        let on_map_rows = (*rows.start()).max(0)..=(*rows.end()).min(map.rows() as i32 - 1);
        let visible_hexes: Vec<(Hex, Pos2)> = on_map_cols
            .clone()
            .flat_map(|c| on_map_rows.clone().map(move |r| (c, r)))
            .map(|(c, r)| map.hex_at(c, r))
            .map(|h| (h, self.to_screen(paint::pos(layout.center(h)))))
            .collect();

        self.draw_terrain(painter, map, &kinds, &visible_hexes);
        if let Some(u) = &scene.underlay {
            let mut mesh = egui::Mesh::with_texture(u.texture);
            let tint = Color32::WHITE.gamma_multiply(u.opacity.clamp(0.0, 1.0));
            let uv = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
            for (corner, (x, y)) in u.corners.iter().zip(uv) {
                mesh.vertices.push(egui::epaint::Vertex {
                    pos: self.to_screen(*corner),
                    uv: Pos2::new(x, y),
                    color: tint,
                });
            }
            mesh.indices.extend([0, 1, 2, 0, 2, 3]);
            painter.add(Shape::mesh(mesh));
        }

        // hexside features; border sides belong to off-map hexes, so scan one hex beyond
        let feature_mask = !kinds.link_mask;
        let mut shapes = Vec::new();
        for c in cols.clone() {
            for r in rows.clone() {
                let hex = map.hex_at(c, r);
                for d in [HexDir::N, HexDir::NE, HexDir::SE] {
                    let bits = map.side_bits(hex.side(d)) & feature_mask;
                    if bits == 0 {
                        continue;
                    }
                    let a = self.to_screen(paint::pos(layout.center(hex)));
                    let b = self.hex_to_screen(map, hex.neighbor(d));
                    let (p, q) = shared_edge(a, b, z);
                    for (_, st) in kinds.hexsides_in(bits) {
                        let color = paint::color(st.color);
                        let width = (st.width * z).max(1.5);
                        shapes.push(Shape::line_segment([p, q], Stroke::new(width, color)));
                        // round caps so consecutive sides read as one river
                        shapes.push(Shape::circle_filled(p, width / 2.0, color));
                        shapes.push(Shape::circle_filled(q, width / 2.0, color));
                    }
                }
            }
        }
        painter.extend(shapes);

        if self.show_areas {
            self.draw_areas(painter, map);
        }
        self.draw_links(painter, map, &layout, &kinds, &visible_hexes);
        let stacked = |h: Hex| self.show_units && scene.units.stack_len(h) > 0;
        self.draw_places_and_stars(painter, scene, &visible_hexes, stacked);

        if self.show_numbers && z >= NUMBERS_FROM {
            let font = FontId::monospace((0.24 * z).clamp(8.0, 14.0));
            for &(hex, c) in &visible_hexes {
                painter.text(
                    c + Vec2::new(0.0, -0.84 * z),
                    Align2::CENTER_TOP,
                    map.label(hex),
                    font.clone(),
                    Color32::from_black_alpha(140),
                );
            }
        }

        if let Some(o) = scene.overlay {
            self.draw_overlay_under(painter, map, o);
        }
        // what a stack's count badge keeps off: place names, and VP stars on stacks (a badge
        // by a neighbour's counter covered its star)
        let mut keep_off = if z >= NAMES_FROM {
            let units = self.show_units.then_some(scene.units);
            self.draw_place_names(painter, map, scene.style, |h| {
                units.is_some_and(|u| u.stack_len(h) > 0)
            })
        } else {
            Vec::new()
        };
        let mut tops = Vec::new();
        let badges = self.draw_stacks(painter, scene, &mut keep_off, &mut tops);
        if let Some(o) = scene.overlay {
            self.draw_overlay_over(painter, map, o);
            if self.show_trails {
                self.draw_trails(painter, map, &o.trails);
            }
        }
        if self.show_areas {
            self.draw_area_labels(painter, map);
        }
        // markers over the counters, as they lie on a table (a hex's second chip fell under its
        // stack and was lost), and count badges; both over the hex outlines (selection, hover,
        // the moving stack's origin), which ran across them, but under a region's dimming, which
        // must cover them too
        let draw_on_top = || {
            if !scene.markers.is_empty() {
                self.draw_markers(painter, map, scene.markers, &tops);
            }
            for &(at, r, n) in &badges {
                counters::draw_badge(painter, at, r, n);
            }
        };
        if scene.region.is_some() {
            draw_on_top();
            self.draw_tool_feedback(painter, scene, out);
        } else {
            self.draw_tool_feedback(painter, scene, out);
            draw_on_top();
        }
    }

    fn draw_terrain(
        &self,
        painter: &Painter,
        map: &Map,
        kinds: &MapKinds,
        visible_hexes: &[(Hex, Pos2)],
    ) {
        let z = self.zoom;
        let grid = if z >= 6.0 {
            Stroke::new(1.0, Color32::from_black_alpha(45))
        } else {
            Stroke::NONE
        };
        // colours once per terrain, not once per hex
        let looks: Vec<(Color32, Color32, Marks)> = kinds
            .terrains
            .iter()
            .map(|st| {
                let ink = paint::color(pieces::mark_color(st.fill));
                (paint::color(st.fill), ink, st.marks)
            })
            .collect();
        let mut shapes = Vec::with_capacity(visible_hexes.len() * 2);
        for &(hex, c) in visible_hexes {
            let Some(&(fill, ink, marks)) = map.terrain(hex).and_then(|t| looks.get(t as usize))
            else {
                continue;
            };
            shapes.push(Shape::convex_polygon(
                paint::hex_corners(c, z).to_vec(),
                fill,
                grid,
            ));
            if z < MARKS_FROM || marks == Marks::None {
                continue;
            }
            for m in pieces::terrain_marks(marks, paint::point(c), z) {
                shapes.push(match m {
                    Mark::Dot { c, r } => Shape::circle_filled(paint::pos(c), r, ink),
                    Mark::Line { a, b, width } => Shape::line_segment(
                        [paint::pos(a), paint::pos(b)],
                        Stroke::new(width.max(1.0), ink),
                    ),
                });
            }
        }
        painter.extend(shapes);
    }

    /// Links centre to centre: cased bands (outline, then core, so joints look continuous), then
    /// ticked lines (railways) on top.
    fn draw_links(
        &self,
        painter: &Painter,
        map: &Map,
        layout: &HexLayout,
        kinds: &MapKinds,
        visible_hexes: &[(Hex, Pos2)],
    ) {
        let z = self.zoom;
        let (mut outlines, mut cores, mut ticked) = (Vec::new(), Vec::new(), Vec::new());
        let mut seen: BTreeSet<Hexside> = BTreeSet::new();
        for &(hex, _) in visible_hexes {
            for d in HexDir::ALL {
                let side = hex.side(d);
                let bits = map.side_bits(side) & kinds.link_mask;
                if bits == 0 || !seen.insert(side) {
                    continue;
                }
                let (a, b) = pieces::link_segment(layout, map, side);
                let (a, b) = (self.to_screen(paint::pos(a)), self.to_screen(paint::pos(b)));
                for (_, st) in kinds.hexsides_in(bits) {
                    let color = paint::color(st.color);
                    let width = (st.width * z).max(1.5);
                    if st.ticks {
                        ticked.push(Shape::line_segment([a, b], Stroke::new(width, color)));
                        if z >= 8.0 {
                            let tick = Stroke::new((0.6 * width).max(1.0), color);
                            let (pa, pb) = (paint::point(a), paint::point(b));
                            for (p, q) in pieces::link_ticks(pa, pb, z) {
                                ticked.push(Shape::line_segment(
                                    [paint::pos(p), paint::pos(q)],
                                    tick,
                                ));
                            }
                        }
                        continue;
                    }
                    let core = paint::color(pieces::link_core(st.color));
                    for (layer, stroke) in [
                        (&mut outlines, Stroke::new(width, color)),
                        (&mut cores, Stroke::new(width * 0.5, core)),
                    ] {
                        layer.push(Shape::line_segment([a, b], stroke));
                        layer.push(Shape::circle_filled(a, stroke.width / 2.0, stroke.color));
                        layer.push(Shape::circle_filled(b, stroke.width / 2.0, stroke.color));
                    }
                }
            }
        }
        painter.extend(outlines);
        painter.extend(cores);
        painter.extend(ticked);
    }

    fn draw_places_and_stars(
        &self,
        painter: &Painter,
        scene: &Scene<'_>,
        visible_hexes: &[(Hex, Pos2)],
        stacked: impl Fn(Hex) -> bool,
    ) {
        let map = &scene.doc.map;
        let z = self.zoom;
        let mut shapes = Vec::new();
        let mut vp_texts = Vec::new();
        let border = Stroke::new((0.05 * z).max(1.0), Color32::BLACK);
        for &(hex, c) in visible_hexes {
            if let Some(place) = map.place_at(hex) {
                let st = scene.style.place(&place.kind);
                place_symbol(&mut shapes, st.symbol, paint::color(st.color), c, z, border);
            }
            let objective_vp = objective_vp_text(scene.doc.objectives_at(hex));
            // a hex with counters gets its star over them (`draw_stars_on_stacks`)
            if stacked(hex) {
                continue;
            }
            if objective_vp.is_some() || vp_tagged(map, hex) {
                let at = paint::pos(pieces::star_anchor(paint::point(c), z));
                paint::star(
                    &mut shapes,
                    at,
                    (0.22 * z).max(3.0),
                    paint::color(pieces::STAR_FILL),
                    paint::color(pieces::STAR_INK),
                );
                if let Some(vp) = objective_vp.filter(|_| z >= 14.0) {
                    vp_texts.push((at + Vec2::new(0.0, 0.22 * z), vp));
                }
            }
        }
        painter.extend(shapes);
        for (at, vp) in vp_texts {
            painter.text(
                at,
                Align2::CENTER_TOP,
                vp,
                FontId::proportional((0.22 * z).clamp(8.0, 16.0)),
                paint::color(pieces::STAR_INK),
            );
        }
    }

    fn draw_areas(&self, painter: &Painter, map: &Map) {
        let z = self.zoom;
        let view = self.canvas.expand(z * 2.0);
        for area in map.areas.values() {
            let set: BTreeSet<Hex> = area.hexes.iter().copied().collect();
            let color = paint::color(pieces::area_color(&area.id));
            let stroke = Stroke::new((0.09 * z).clamp(1.5, 3.5), color);
            let tint = color.gamma_multiply(0.22);
            for &h in &set {
                let c = self.hex_to_screen(map, h);
                if !view.contains(c) {
                    continue;
                }
                let pts = paint::hex_corners(c, z);
                painter.add(Shape::convex_polygon(pts.to_vec(), tint, Stroke::NONE));
                for d in HexDir::ALL {
                    let n = h.neighbor(d);
                    if !set.contains(&n) {
                        let (p, q) = shared_edge(c, self.hex_to_screen(map, n), z);
                        painter.line_segment([p, q], stroke);
                    }
                }
            }
        }
    }

    /// Area ids, one label per distinct set of hexes ("C · S20" when two areas coincide).
    fn draw_area_labels(&self, painter: &Painter, map: &Map) {
        let z = self.zoom;
        if z < 4.0 {
            return;
        }
        let mut groups: Vec<(BTreeSet<Hex>, Vec<&str>)> = Vec::new();
        for area in map.areas.values() {
            let set: BTreeSet<Hex> = area.hexes.iter().copied().collect();
            if set.is_empty() {
                continue;
            }
            match groups.iter_mut().find(|(s, _)| *s == set) {
                Some((_, ids)) => ids.push(&area.id),
                None => groups.push((set, vec![&area.id])),
            }
        }
        let font = FontId::proportional((0.42 * z).clamp(10.0, 18.0));
        for (set, ids) in groups {
            let sum = set
                .iter()
                .map(|h| self.hex_to_screen(map, *h).to_vec2())
                .fold(Vec2::ZERO, |a, b| a + b);
            let mut at = (sum / set.len() as f32).to_pos2();
            let color = paint::color(pieces::area_color(ids[0]));
            let galley = painter.layout_no_wrap(ids.join(" · "), font.clone(), Color32::WHITE);
            // areas on the north or south edge get their label outside the map, where it
            // cannot hide the names of the edge's towns
            let rows: BTreeSet<i32> = set.iter().map(|h| map.offset(*h).1).collect();
            let cols: BTreeSet<i32> = set.iter().map(|h| map.offset(*h).0).collect();
            let ys: Vec<f32> = set.iter().map(|h| self.hex_to_screen(map, *h).y).collect();
            let xs: Vec<f32> = set.iter().map(|h| self.hex_to_screen(map, *h).x).collect();
            let half = galley.size().y / 2.0 + 4.0;
            let half_w = galley.size().x / 2.0 + 4.0;
            // (an entry area down the west or east edge: beside the map, as `kessel render`
            // draws it, not on the counters of its middle hex)
            // (kept on the canvas: where the map fills it, over the edge hexes' outer corners,
            // which counters leave free)
            if cols.len() == 1 && cols.contains(&0) {
                let left = xs.iter().copied().fold(f32::MAX, f32::min);
                at.x = left - z - half_w;
                if left >= self.canvas.left() {
                    at.x = at.x.max(self.canvas.left() + half_w);
                }
            } else if cols.len() == 1 && cols.contains(&(map.columns() as i32 - 1)) {
                let right = xs.iter().copied().fold(f32::MIN, f32::max);
                at.x = right + z + half_w;
                if right <= self.canvas.right() {
                    at.x = at.x.min(self.canvas.right() - half_w);
                }
            } else if rows.len() == 1 && rows.contains(&0) {
                let top = ys.iter().copied().fold(f32::MAX, f32::min);
                at.y = top - 0.87 * z - half;
            } else if rows.len() == 1 && rows.contains(&(map.rows() as i32 - 1)) {
                let bottom = ys.iter().copied().fold(f32::MIN, f32::max);
                at.y = bottom + 0.87 * z + half;
            }
            if !self.canvas.expand(20.0).contains(at) {
                continue;
            }
            let rect = Align2::CENTER_CENTER
                .anchor_size(at, galley.size())
                .expand(3.0);
            painter.rect_filled(rect, 3.0, color.gamma_multiply(0.9));
            painter.galley(rect.min + Vec2::splat(3.0), galley, Color32::WHITE);
        }
    }

    /// Place names where the drawing model puts them: under the lowest hex's symbol, below its
    /// counters when it has some (`stacked`); returns the boxes drawn, for the count badges to
    /// keep off.
    fn draw_place_names(
        &self,
        painter: &Painter,
        map: &Map,
        style: &MapStyle,
        stacked: impl Fn(Hex) -> bool,
    ) -> Vec<Rect> {
        let z = self.zoom;
        let layout = world_layout(map);
        let font = FontId::proportional((pieces::PLACE_FONT * z).clamp(9.0, 18.0));
        let view = self.canvas.expand(40.0);
        let mut drawn = Vec::new();
        for place in &map.places {
            let Some(anchor) = pieces::place_label_anchor(&layout, &place.hexes, &stacked) else {
                continue;
            };
            let at = self.to_screen(paint::pos(anchor));
            if !view.contains(at) {
                continue;
            }
            // the bundled font has no bold: the places the ruleset marks with a square get a
            // larger name instead
            let size = if style.place(&place.kind).symbol == PlaceSymbol::Square {
                font.size * 1.12
            } else {
                font.size
            };
            let galley = painter.layout_no_wrap(
                place.name.clone(),
                FontId::proportional(size),
                Color32::BLACK,
            );
            let rect = Align2::CENTER_TOP
                .anchor_size(at, galley.size())
                .expand2(Vec2::new(3.0, 1.0));
            painter.rect_filled(rect, 2.0, Color32::from_white_alpha(200));
            painter.galley(rect.min + Vec2::new(3.0, 1.0), galley, Color32::BLACK);
            drawn.push(rect);
        }
        drawn
    }
}

/// Does a tag of `hex` mark it as worth VP (drawn as a star)?
pub(super) fn vp_tagged(map: &Map, hex: Hex) -> bool {
    map.tags_of(hex).iter().any(|t| pieces::is_vp_tag(t))
}

/// A place kind's symbol, sized by the drawing model.
fn place_symbol(
    shapes: &mut Vec<Shape>,
    symbol: PlaceSymbol,
    fill: Color32,
    c: Pos2,
    z: f32,
    border: Stroke,
) {
    match symbol {
        PlaceSymbol::Square => {
            let r = Rect::from_center_size(c, Vec2::splat((pieces::PLACE_SQUARE * z).max(4.0)));
            shapes.push(Shape::rect_filled(r, 1.0, fill));
            shapes.push(Shape::rect_stroke(
                r,
                1.0,
                border,
                egui::StrokeKind::Outside,
            ));
        }
        PlaceSymbol::Dot => {
            let r = (pieces::PLACE_DOT * z).max(2.5);
            shapes.push(Shape::circle_filled(c, r, fill));
            shapes.push(Shape::circle_stroke(c, r, border));
        }
        PlaceSymbol::Diamond => {
            let r = (pieces::PLACE_DOT * z).max(2.5);
            let pts = vec![
                c + Vec2::new(0.0, -r),
                c + Vec2::new(r, 0.0),
                c + Vec2::new(0.0, r),
                c + Vec2::new(-r, 0.0),
            ];
            shapes.push(Shape::convex_polygon(pts, fill, border));
        }
    }
}

/// The hex radius counters are drawn for at zoom `z`: at low zoom a counter keeps the size at
/// which it shows its symbol and values ([`counters::LEGIBLE_ZOOM`]; it still fits its hex down
/// to about 11 points a hex) rather than shrinking to a blank square; on a map shown tinier still
/// it grows at twice the hexes' pace, so it never covers more than its neighbours.
pub(super) fn counter_zoom(z: f32) -> f32 {
    if z >= 8.0 {
        z.max(counters::LEGIBLE_ZOOM)
    } else {
        z * 2.0
    }
}

/// The VP a hex is worth, side by side: a hex two sides score 10 each reads `10/10` (it read 20, as
/// if one side scored 20 there); `None` when it is worth nothing.
fn objective_vp_text<'a>(
    objectives: impl Iterator<Item = &'a kessel_core::scenario::Objective>,
) -> Option<String> {
    let mut by_side: Vec<(Option<&str>, i64)> = Vec::new();
    for o in objectives {
        let side = o.side.as_deref();
        match by_side.iter_mut().find(|(s, _)| *s == side) {
            Some(e) => e.1 += o.vp,
            None => by_side.push((side, o.vp)),
        }
    }
    by_side.retain(|(_, vp)| *vp > 0);
    if by_side.is_empty() {
        return None;
    }
    let parts: Vec<String> = by_side.iter().map(|(_, vp)| vp.to_string()).collect();
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::{counter_zoom, objective_vp_text};
    use kessel_core::scenario::Objective;

    #[test]
    fn a_hex_both_sides_score_shows_each_sides_vp() {
        let o = |side: &str, vp| Objective {
            name: "Junction".into(),
            hexes: Vec::new(),
            vp,
            side: Some(side.into()),
        };
        let both = [o("north", 10), o("south", 10)];
        assert_eq!(objective_vp_text(both.iter()).as_deref(), Some("10/10"));
        let one = [o("north", 10), o("north", 5)];
        assert_eq!(objective_vp_text(one.iter()).as_deref(), Some("15"));
        assert_eq!(objective_vp_text([o("north", 0)].iter()), None);
    }

    #[test]
    fn counters_stay_legible_at_the_campaigns_fit_and_never_shrink_as_the_map_grows() {
        // the campaign fits at about 10 to 11 points a hex: counters then show their values
        assert!(counter_zoom(10.5) >= crate::counters::LEGIBLE_ZOOM);
        assert_eq!(counter_zoom(30.0), 30.0);
        let mut last = 0.0;
        for i in 1..=400 {
            let z = i as f32 * 0.1;
            let c = counter_zoom(z);
            assert!(c >= last && c >= z, "zoom {z}: {c} after {last}");
            last = c;
        }
    }
}
