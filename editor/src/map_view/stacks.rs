//! The stacks on the map: their counters, a VP star over a stack on an objective, and where each
//! stack's count badge goes (drawn later, over everything: see `layers.rs`).

use super::layers::{counter_zoom, vp_tagged};
use super::{MapView, Scene};
use crate::counters;
use crate::paint;
use egui::{Painter, Pos2, Rect, Vec2};
use kessel_draw::pieces;

impl MapView {
    /// Draws the stacks in view and returns their count badges (centre, radius, count) to draw
    /// over everything; `keep_off` (place names) gains the VP stars drawn over stacks, and
    /// `tops` each stack's hex, its star if it has one, and its top counter's values line (for
    /// the marker chips to keep clear of).
    pub(super) fn draw_stacks(
        &self,
        painter: &Painter,
        scene: &Scene<'_>,
        keep_off: &mut Vec<Rect>,
        tops: &mut Vec<super::StackTop>,
    ) -> Vec<(Pos2, f32, usize)> {
        let map = &scene.doc.map;
        let z = self.zoom;
        // the stacks in view, their top counters, and whether a VP star goes over them: the
        // stars are known before any badge is placed, and each badge before its stack is drawn,
        // so that the top counter's name leaves it room
        let mut in_view = Vec::new();
        if self.show_units {
            let counter_zoom = counter_zoom(z);
            let visible_rect = self.canvas.expand(counter_zoom * 1.5);
            let all = scene.units.all();
            for (hex, stack) in scene.units.stacks() {
                let c = self.hex_to_screen(map, hex);
                if !visible_rect.contains(c) {
                    continue;
                }
                let units: Vec<_> = stack.iter().map(|&i| &all[i]).collect();
                let rects = pieces::stack_rects(paint::point(c), counter_zoom, units.len());
                let Some(&(min, w)) = rects.last() else {
                    continue;
                };
                // an objective under counters: its star goes over them, or no one sees it
                let vp = scene.doc.objectives_at(hex).any(|o| o.vp > 0) || vp_tagged(map, hex);
                let mut star = None;
                if vp {
                    let (at, r) = pieces::star_on_stack(min, w);
                    star = Some((at, r));
                    keep_off.push(Rect::from_center_size(paint::pos(at), Vec2::splat(2.0 * r)));
                }
                tops.push((hex, star, pieces::values_box(min, w)));
                in_view.push((hex, c, units, min, w, vp));
            }
        }
        let mut badges: Vec<(Pos2, f32, usize)> = Vec::new();
        for (hex, c, units, min, w, vp) in in_view {
            let badge = match (units.len() > 1, counters::badge_radius(w)) {
                (true, Some(r)) => {
                    let clear = |a: kessel_draw::Point, b: kessel_draw::Point| {
                        let badge = Rect::from_min_max(paint::pos(a), paint::pos(b));
                        !keep_off.iter().any(|k| k.intersects(badge))
                    };
                    pieces::badge_at(&pieces::badge_spots(min, w, r), r, clear)
                        .map(|at| (paint::pos(at), r))
                }
                _ => None,
            };
            let selected = scene.selected == Some(hex);
            let zoom = counter_zoom(z);
            counters::draw_stack(painter, scene.style, c, zoom, &units, selected, badge);
            if let Some((at, r)) = badge {
                badges.push((at, r, units.len()));
            }
            if vp {
                let (at, r) = pieces::star_on_stack(min, w);
                let mut shapes = Vec::new();
                paint::star(
                    &mut shapes,
                    paint::pos(at),
                    r,
                    paint::color(pieces::STAR_FILL),
                    paint::color(pieces::STAR_INK),
                );
                painter.extend(shapes);
            }
        }
        badges
    }
}
