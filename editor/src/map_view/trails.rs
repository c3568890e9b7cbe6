//! The computer's last moves on the map ([`Overlay::trails`]): moves as light blue lines with an
//! arrowhead where the stack ended, attacks as red arrows into the target, markers placed as a
//! ring, each numbered as in the log. Over the counters: an attack between two neighbours ran
//! from one stack to the next and, under them, showed nothing but its number.

use super::{MapView, Trail};
use egui::{Align2, Color32, FontId, Painter, Pos2, Shape, Stroke, Vec2};
use kessel_core::hex::Hex;
use kessel_core::map::Map;
use std::collections::BTreeMap;

/// A computer's move: the colour the players box says "Computer … is playing" in.
const MOVE: Color32 = Color32::from_rgb(150, 200, 255);
const ATTACK: Color32 = Color32::from_rgb(235, 50, 40);

impl MapView {
    /// The lines and arrowheads, then the numbers.
    pub(super) fn draw_trails(&self, painter: &Painter, map: &Map, trails: &[Trail]) {
        self.draw_trail_lines(painter, map, trails);
        self.draw_trail_numbers(painter, map, trails);
    }

    fn draw_trail_lines(&self, painter: &Painter, map: &Map, trails: &[Trail]) {
        let z = self.zoom;
        let width = (0.12 * z).clamp(2.0, 5.0);
        for t in trails {
            let colour = if t.attack { ATTACK } else { MOVE };
            let mut pts: Vec<Pos2> = t
                .hexes
                .iter()
                .map(|h| self.hex_to_screen(map, *h))
                .collect();
            if let [only] = pts.as_slice() {
                painter.circle_stroke(*only, 0.7 * z, Stroke::new(width + 2.0, Color32::BLACK));
                painter.circle_stroke(*only, 0.7 * z, Stroke::new(width, colour));
                continue;
            }
            // an attack runs from the attacker's counter to the target's, its head on the target
            if t.attack {
                if let [a, b] = pts.as_mut_slice() {
                    let d = (*b - *a).normalized();
                    (*a, *b) = (*a + d * (0.35 * z), *b - d * (0.3 * z));
                }
            }
            let outline = Stroke::new(width + 2.0, Color32::from_black_alpha(170));
            painter.add(Shape::line(pts.clone(), outline));
            painter.add(Shape::line(pts.clone(), Stroke::new(width, colour)));
            if let [.., a, b] = pts.as_slice() {
                let dir = (*b - *a).normalized();
                let side = Vec2::new(-dir.y, dir.x);
                let len = (0.42 * z).max(8.0);
                let head = vec![
                    *b + dir * (len * 0.3),
                    *b - dir * len + side * (len * 0.55),
                    *b - dir * len - side * (len * 0.55),
                ];
                painter.add(Shape::convex_polygon(
                    head,
                    colour,
                    Stroke::new(1.0, Color32::BLACK),
                ));
            }
        }
    }

    /// The log's numbers, at the foot of the hex each trail ends in (several in one hex share a
    /// tag).
    fn draw_trail_numbers(&self, painter: &Painter, map: &Map, trails: &[Trail]) {
        let z = self.zoom;
        if z < 8.0 {
            return;
        }
        let mut at: BTreeMap<Hex, (Vec<usize>, bool)> = BTreeMap::new();
        for t in trails {
            let Some(&end) = t.hexes.last() else { continue };
            let (numbers, attack) = at.entry(end).or_default();
            if !numbers.contains(&t.number) {
                numbers.push(t.number);
            }
            *attack |= t.attack;
        }
        let font = FontId::proportional((0.36 * z).clamp(9.0, 15.0));
        for (h, (numbers, attack)) in at {
            let c = self.hex_to_screen(map, h);
            let text: Vec<String> = numbers.iter().map(usize::to_string).collect();
            let galley = painter.layout_no_wrap(text.join(","), font.clone(), Color32::BLACK);
            let rect = Align2::CENTER_CENTER
                .anchor_size(c + Vec2::new(0.0, 0.72 * z), galley.size())
                .expand2(Vec2::new(3.0, 0.5));
            let fill = if attack { ATTACK } else { MOVE };
            painter.rect_filled(rect, 3.0, fill);
            painter.galley(rect.min + Vec2::new(3.0, 0.5), galley, Color32::BLACK);
        }
    }
}
