//! What the canvas draws over the map for the user rather than from it: play-test feedback
//! (reach, MP costs, the attack, the previewed action), markers, and tool hints (hover, selection,
//! validation problems, the link being drawn, the nearest hexside).

use super::{fmt_mp, world_layout, MapResponse, MapView, Overlay, Scene};
use crate::paint::{self, outline_hex, shared_edge};
use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Shape, Stroke, Vec2};
use kessel_core::hex::{Hex, HexDir};
use kessel_core::map::Map;
use kessel_core::state::Marker;
use kessel_draw::pieces;

impl MapView {
    /// Tool feedback: the hovered hex, marked and problem hexes, the selection, the link being
    /// drawn, the hexside under the pointer.
    pub(super) fn draw_tool_feedback(
        &self,
        painter: &Painter,
        scene: &Scene<'_>,
        out: &MapResponse,
    ) {
        let map = &scene.doc.map;
        let z = self.zoom;
        if let Some(h) = out.hovered {
            // dark under light, so the outline shows on pale clear hexes and dark forests alike
            let c = self.hex_to_screen(map, h);
            outline_hex(
                painter,
                c,
                z,
                Stroke::new(3.5, Color32::from_black_alpha(150)),
            );
            outline_hex(painter, c, z, Stroke::new(1.5, Color32::WHITE));
        }
        for h in scene.marked {
            outline_hex(
                painter,
                self.hex_to_screen(map, *h),
                z * 0.9,
                Stroke::new(2.5, Color32::from_rgb(60, 220, 235)),
            );
        }
        for h in scene.problems {
            let c = self.hex_to_screen(map, *h);
            painter.circle_stroke(c, z * 0.8, Stroke::new(4.0, Color32::from_black_alpha(140)));
            painter.circle_stroke(c, z * 0.8, Stroke::new(2.5, Color32::from_rgb(235, 40, 40)));
        }
        if let Some(h) = scene.selected {
            // while hexsides are painted the outline sits inside the hex, off the edges: drawn
            // on them, it hid the river just painted along the selected hex
            let r = if scene.side_hint { z * 0.85 } else { z };
            outline_hex(
                painter,
                self.hex_to_screen(map, h),
                r,
                Stroke::new(3.0, Color32::from_rgb(255, 140, 0)),
            );
        }
        if let Some(from) = scene.link_from {
            let a = self.hex_to_screen(map, from);
            outline_hex(
                painter,
                a,
                z,
                Stroke::new(3.0, Color32::from_rgb(40, 200, 80)),
            );
            if let Some(h) = out.hovered.filter(|h| h.distance_to(from) == 1) {
                painter.line_segment(
                    [a, self.hex_to_screen(map, h)],
                    Stroke::new(3.0, Color32::from_rgb(40, 200, 80)),
                );
            }
        }
        if let Some(region) = scene.region {
            self.draw_region(painter, map, region);
        }
        if scene.side_hint {
            if let Some(side) = out.hovered_side {
                let (a, b) = side.hexes();
                let (p, q) = shared_edge(self.hex_to_screen(map, a), self.hex_to_screen(map, b), z);
                painter.line_segment([p, q], Stroke::new(4.0, Color32::from_rgb(255, 240, 0)));
            }
        }
    }

    /// A region being cut: every hex outside it dimmed, its border in yellow, and its two
    /// printed corner labels written large at its corners.
    fn draw_region(&self, painter: &Painter, map: &Map, (a, b): (Hex, Hex)) {
        let ((ca, ra), (cb, rb)) = (map.offset(a), map.offset(b));
        let (c0, c1, r0, r1) = (ca.min(cb), ca.max(cb), ra.min(rb), ra.max(rb));
        let inside = |h: Hex| {
            let (c, r) = map.offset(h);
            map.contains(h) && (c0..=c1).contains(&c) && (r0..=r1).contains(&r)
        };
        let (cols, rows) = self.visible(map);
        let z = self.zoom;
        let dim = Color32::from_black_alpha(150);
        let border = Stroke::new(3.0, Color32::from_rgb(255, 225, 40));
        for c in cols
            .clone()
            .filter(|c| (0..map.columns() as i32).contains(c))
        {
            for r in rows.clone().filter(|r| (0..map.rows() as i32).contains(r)) {
                let h = map.hex_at(c, r);
                let at = self.hex_to_screen(map, h);
                if !inside(h) {
                    let pts = paint::hex_corners(at, z).to_vec();
                    painter.add(Shape::convex_polygon(pts, dim, Stroke::NONE));
                    continue;
                }
                for d in HexDir::ALL {
                    let n = h.neighbor(d);
                    if !inside(n) {
                        let (p, q) = shared_edge(at, self.hex_to_screen(map, n), z);
                        painter.line_segment([p, q], border);
                    }
                }
            }
        }
        for (h, align) in [
            (map.hex_at(c0, r0), Align2::LEFT_BOTTOM),
            (map.hex_at(c1, r1), Align2::RIGHT_TOP),
        ] {
            let at = self.hex_to_screen(map, h);
            let corner = at
                + Vec2::new(
                    if align == Align2::LEFT_BOTTOM { -z } else { z },
                    if align == Align2::LEFT_BOTTOM { -z } else { z },
                );
            let galley =
                painter.layout_no_wrap(map.label(h), FontId::proportional(18.0), Color32::BLACK);
            let rect = align.anchor_size(corner, galley.size()).expand(3.0);
            painter.rect_filled(rect, 3.0, Color32::from_rgb(255, 225, 40));
            painter.galley(rect.min + Vec2::splat(3.0), galley, Color32::BLACK);
        }
    }

    /// Reachable hexes stand out by dimming every other hex (the terrain of the reachable ones
    /// stays readable) and by a yellow outline round the reachable area, a colour no map
    /// feature uses (rivers are blue, roads brown, railways black).
    pub(super) fn draw_overlay_under(&self, painter: &Painter, map: &Map, o: &Overlay) {
        let layout = world_layout(map);
        let z = self.zoom;
        if !o.reachable.is_empty() {
            let (cols, rows) = self.visible(map);
            let dim = Color32::from_black_alpha(105);
            let edge = Stroke::new((0.09 * z).clamp(1.5, 3.0), Color32::from_rgb(255, 215, 40));
            let mut shapes = Vec::new();
            let mut edges = Vec::new();
            let last_col = map.columns() as i32 - 1;
            let last_row = map.rows() as i32 - 1;
            for c in (*cols.start()).max(0)..=(*cols.end()).min(last_col) {
                for r in (*rows.start()).max(0)..=(*rows.end()).min(last_row) {
                    let h = map.hex_at(c, r);
                    let center = self.to_screen(paint::pos(layout.center(h)));
                    let inside = o.reachable.contains_key(&h) || o.origin == Some(h);
                    if !inside {
                        let pts = paint::hex_corners(center, z);
                        shapes.push(Shape::convex_polygon(pts.to_vec(), dim, Stroke::NONE));
                        continue;
                    }
                    for d in HexDir::ALL {
                        let n = h.neighbor(d);
                        if !(o.reachable.contains_key(&n) || o.origin == Some(n)) {
                            let (p, q) = shared_edge(center, self.hex_to_screen(map, n), z);
                            edges.push(Shape::line_segment([p, q], edge));
                        }
                    }
                }
            }
            painter.extend(shapes);
            painter.extend(edges);
        }
        // the path of an action being previewed, centre to centre
        if o.preview.len() > 1 {
            let pts: Vec<Pos2> = o
                .preview
                .iter()
                .map(|h| self.to_screen(paint::pos(layout.center(*h))))
                .collect();
            painter.add(Shape::line(
                pts,
                Stroke::new(
                    (0.14 * z).max(3.0),
                    Color32::from_rgba_unmultiplied(255, 60, 160, 200),
                ),
            ));
        }
    }

    /// MP costs, the selected stack, attackers and targets, drawn over the counters.
    pub(super) fn draw_overlay_over(&self, painter: &Painter, map: &Map, o: &Overlay) {
        let z = self.zoom;
        let view = self.canvas.expand(z * 2.0);
        if z >= 9.0 {
            let font = FontId::proportional((0.3 * z).clamp(9.0, 16.0));
            for (&h, cost) in &o.reachable {
                let Some(cost) = cost else { continue };
                let c = self.hex_to_screen(map, h);
                if !view.contains(c) {
                    continue;
                }
                let at = c + Vec2::new(0.0, 0.6 * z);
                let galley = painter.layout_no_wrap(fmt_mp(*cost), font.clone(), Color32::WHITE);
                let rect = Align2::CENTER_CENTER
                    .anchor_size(at, galley.size())
                    .expand2(Vec2::new(3.0, 0.0));
                painter.rect_filled(rect, 3.0, Color32::from_rgb(20, 90, 180));
                painter.galley(rect.min + Vec2::new(3.0, 0.0), galley, Color32::WHITE);
            }
        }
        if let Some(h) = o.origin {
            let c = self.hex_to_screen(map, h);
            outline_hex(
                painter,
                c,
                z,
                Stroke::new(3.5, Color32::from_rgb(255, 140, 0)),
            );
        }
        for &h in &o.attackers {
            let c = self.hex_to_screen(map, h);
            outline_hex(
                painter,
                c,
                z,
                Stroke::new(3.5, Color32::from_rgb(255, 140, 0)),
            );
        }
        for &h in &o.targets {
            let c = self.hex_to_screen(map, h);
            outline_hex(
                painter,
                c,
                z,
                Stroke::new(4.0, Color32::from_rgb(230, 30, 30)),
            );
            let r = 0.75 * z;
            let s = Stroke::new(2.0, Color32::from_rgb(230, 30, 30));
            painter.line_segment([c - Vec2::new(r, 0.0), c + Vec2::new(r, 0.0)], s);
            painter.line_segment([c - Vec2::new(0.0, r), c + Vec2::new(0.0, r)], s);
        }
        // the selected units' other choices: a cyan ring on the hex they end in
        for &h in o.choices.keys() {
            let c = self.hex_to_screen(map, h);
            painter.circle_stroke(
                c,
                0.62 * z,
                Stroke::new(3.0, Color32::from_rgb(0, 200, 230)),
            );
        }
        // reinforcements due: a green outline on their entry hexes, the number waiting below the
        // centre (the area's own tag sits on it)
        let badge = FontId::proportional((0.42 * z).clamp(9.0, 16.0));
        for (&h, &n) in &o.entries {
            let c = self.hex_to_screen(map, h);
            outline_hex(
                painter,
                c,
                z * 0.85,
                Stroke::new(2.0, Color32::from_rgb(60, 210, 90)),
            );
            if n > 0 {
                let text = format!("+{n}");
                let galley = painter.layout_no_wrap(text, badge.clone(), Color32::BLACK);
                let rect = Align2::CENTER_CENTER
                    .anchor_size(c + Vec2::new(0.0, 0.5 * z), galley.size())
                    .expand2(Vec2::new(3.0, 1.0));
                painter.rect_filled(rect, 3.0, Color32::from_rgb(60, 210, 90));
                painter.galley(rect.min + Vec2::new(3.0, 1.0), galley, Color32::BLACK);
            }
        }
        for &h in o.preview.iter().take(1).chain(o.preview.last()) {
            let c = self.hex_to_screen(map, h);
            outline_hex(
                painter,
                c,
                z,
                Stroke::new(3.0, Color32::from_rgb(255, 60, 160)),
            );
        }
    }

    /// Markers as small tags down the left side of their hex, inside it
    /// ([`pieces::marker_column`]), one per marker, labelled with the initials of their kind (an
    /// `air_interdiction` marker reads "AI"), a marker's value on a dark tag under it.
    /// `tops`: the stacks drawn (see [`super::StackTop`]), whose VP stars and values lines the
    /// chips of their hexes keep clear of.
    pub(super) fn draw_markers(
        &self,
        painter: &Painter,
        map: &Map,
        markers: &[Marker],
        tops: &[super::StackTop],
    ) {
        let z = self.zoom;
        let view = self.canvas.expand(z * 2.0);
        // a hexside's markers count apart from its hexes': a wall between two hexes was drawn as
        // a chip in the corner of the first hex, like a marker in it
        let groups = pieces::marker_groups(markers, |h| view.contains(self.hex_to_screen(map, h)));
        let wanted = (pieces::MARKER_CHIP * z).max(6.0);
        for ((h, other), group) in &groups {
            let c = paint::point(self.hex_to_screen(map, *h));
            let (size, spots) = match other {
                Some(o) => {
                    let o = paint::point(self.hex_to_screen(map, *o));
                    let spots = (0..group.len())
                        .map(|k| pieces::hexside_marker_anchor(c, o, k, wanted))
                        .collect();
                    (wanted, spots)
                }
                None => {
                    let top = tops.iter().find(|(at, _, _)| at == h);
                    let star = top.and_then(|t| t.1);
                    let tags: Vec<bool> = group.iter().map(|(_, v)| v.is_some()).collect();
                    pieces::marker_column(c, z, wanted, &tags, star, top.map(|t| t.2))
                }
            };
            // a hex's tags keep inside it; a hexside's chips lie on two hexes
            let hex = other.is_none().then_some((c, z));
            for ((m, value), at) in group.iter().zip(spots) {
                let chip = (paint::pos(at), size);
                self.draw_marker_chip(painter, m, value.as_deref(), chip, hex);
            }
        }
    }

    /// One marker's chip (centre `at`, side `size`), with its value on a tag under it, inside
    /// `hex` (centre, radius) for a chip of a hex's column ([`pieces::marker_tag_min`]).
    fn draw_marker_chip(
        &self,
        painter: &Painter,
        m: &Marker,
        value: Option<&str>,
        (at, size): (Pos2, f32),
        hex: Option<(kessel_draw::Point, f32)>,
    ) {
        let fill = paint::color(kessel_draw::color::hashed(
            &m.kind,
            kessel_draw::color::Tone::Light,
        ));
        let rect = Rect::from_center_size(at, Vec2::splat(size));
        painter.rect(
            rect,
            2.0,
            fill,
            Stroke::new(1.0, Color32::BLACK),
            egui::StrokeKind::Inside,
        );
        if size >= 10.0 {
            painter.text(
                at,
                Align2::CENTER_CENTER,
                pieces::marker_initials(&m.kind),
                FontId::proportional(size * 0.55),
                crate::counters::text_on(fill),
            );
            // its value (a minefield's strength, an interdiction's level) on a tag under it
            if let Some(text) = value {
                let galley = painter.layout_no_wrap(
                    text.to_string(),
                    FontId::proportional((size * 0.55).max(8.0)),
                    Color32::WHITE,
                );
                let w = galley.size().x + 4.0;
                let min = pieces::marker_tag_min(paint::point(at), size, w, hex);
                let tag = Rect::from_min_size(paint::pos(min), Vec2::new(w, galley.size().y));
                painter.rect_filled(tag, 2.0, Color32::from_rgb(30, 30, 30));
                painter.galley(tag.min + Vec2::new(2.0, 0.0), galley, Color32::WHITE);
            }
        }
    }
}
