//! Counters drawn as small NATO-style unit symbols with their printed values.
//!
//! The side colour and the symbol come from the ruleset's declarations through the drawing model
//! ([`MapStyle::side`], [`MapStyle::unit_symbol`]); a type that declares no symbol shows its name
//! in the symbol box, so nothing is ever hidden for lack of a style.

use crate::paint;
use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Stroke, StrokeKind, Vec2};
use kessel_core::state::Unit;
use kessel_draw::pieces;
use kessel_draw::style::UnitSymbol as Symbol;
use kessel_draw::MapStyle;

/// The smallest hex radius (points) counters are drawn for: at it a counter is about 20 points
/// wide and shows its symbol and values; the canvas draws counters at least this big.
pub const LEGIBLE_ZOOM: f32 = 16.5;

/// Black or white, whichever reads better on `bg`.
pub fn text_on(bg: Color32) -> Color32 {
    paint::color(kessel_draw::Rgb::new(bg.r(), bg.g(), bg.b()).ink_on())
}

/// A unit's counter colour: its side's, darker while it is hidden.
pub fn fill_of(style: &MapStyle, unit: &Unit) -> Color32 {
    paint::color(pieces::counter_fill(
        style.side(&unit.side).color,
        unit.hidden,
    ))
}

/// The most characters of a formation on the top of a counter.
const FORMATION_CHARS: usize = 8;

/// Short formation text for the top of a counter (the drawing model's rule, 8 characters; fewer
/// where a count badge leaves less room).
pub fn formation_abbrev(formation: &str) -> String {
    pieces::short_name(formation, FORMATION_CHARS)
}

/// Draws a stack (bottom first): shadows for the counters below and the top counter (the model's
/// rule: the last listed). Its count badge (centre and radius, if it has one) is drawn apart,
/// over everything ([`draw_badge`]); the top counter's name leaves it room.
pub fn draw_stack(
    painter: &Painter,
    style: &MapStyle,
    center: Pos2,
    zoom: f32,
    units: &[&Unit],
    selected: bool,
    badge: Option<(Pos2, f32)>,
) {
    let Some(top) = pieces::top_of(units) else {
        return;
    };
    let rects = pieces::stack_rects(paint::point(center), zoom, units.len());
    let below = units.len() - 1;
    for (k, (min, w)) in rects.iter().enumerate() {
        let shown = rects.len() - 1 - k;
        if shown == 0 {
            continue;
        }
        let unit = units[below - shown.min(below)];
        let r = Rect::from_min_size(paint::pos(*min), Vec2::splat(*w));
        painter.rect(
            r,
            w * 0.06,
            fill_of(style, unit),
            Stroke::new(1.0, Color32::from_black_alpha(160)),
            StrokeKind::Inside,
        );
    }
    let Some(&(min, w)) = rects.last() else {
        return;
    };
    let rect = Rect::from_min_size(paint::pos(min), Vec2::splat(w));
    draw_counter(painter, style, rect, top, selected, badge);
}

/// The radius of the count badge on a counter `w` points wide, or `None` when the counter is too
/// small to carry one.
pub fn badge_radius(w: f32) -> Option<f32> {
    (w >= 16.0).then(|| pieces::badge_radius(w).max(6.0))
}

/// Draws a stack's count badge centred on `at`.
pub fn draw_badge(painter: &Painter, at: Pos2, r: f32, count: usize) {
    painter.circle(
        at,
        r,
        Color32::from_rgb(30, 30, 30),
        Stroke::new(1.0, Color32::WHITE),
    );
    painter.text(
        at,
        Align2::CENTER_CENTER,
        count.to_string(),
        FontId::proportional(r * 1.3),
        Color32::WHITE,
    );
}

/// Draws one counter in `rect`; its top line keeps clear of a count badge `badge` (centre and
/// radius) drawn over it later.
pub fn draw_counter(
    painter: &Painter,
    style: &MapStyle,
    rect: Rect,
    unit: &Unit,
    selected: bool,
    badge: Option<(Pos2, f32)>,
) {
    let w = rect.width();
    let fill = fill_of(style, unit);
    let border = if selected {
        Stroke::new(2.5, Color32::from_rgb(255, 140, 0))
    } else {
        Stroke::new(1.0, Color32::from_black_alpha(200))
    };
    painter.rect(rect, w * 0.06, fill, border, StrokeKind::Inside);
    if w < 14.0 {
        return;
    }
    let ink = text_on(fill);
    let small = FontId::proportional((0.2 * w).max(6.0));
    let values = FontId::proportional((0.26 * w).max(7.0));
    let symbol = style.unit_symbol(&unit.kind);

    // top line: a leader by name, other units by formation, in the room a badge leaves
    let (top_text, most) = if symbol == Symbol::Leader {
        (unit.name.as_str(), 9)
    } else {
        (
            unit.formation.as_deref().unwrap_or_default(),
            FORMATION_CHARS,
        )
    };
    if w >= 22.0 && !top_text.trim().is_empty() {
        let top = rect.top() + 0.04 * w;
        let band = (top, top + small.size * 1.2);
        let (left, right) = pieces::top_line_room(
            paint::point(rect.min),
            w,
            band,
            badge.map(|(at, r)| (paint::point(at), r)),
        );
        let galley = fitted(painter, top_text, most, &small, ink, right - left);
        let x = (left + right) / 2.0 - galley.size().x / 2.0;
        painter.galley(Pos2::new(x, top), galley, ink);
    }

    let box_rect = Rect::from_center_size(
        Pos2::new(rect.center().x, rect.top() + 0.47 * w),
        Vec2::new(0.58 * w, 0.34 * w),
    );
    let bottom = Pos2::new(rect.center().x, rect.bottom() - 0.03 * w);
    if unit.hidden {
        painter.text(
            box_rect.center(),
            Align2::CENTER_CENTER,
            "?",
            FontId::proportional(0.36 * w),
            ink,
        );
        if w >= 22.0 {
            painter.text(
                bottom,
                Align2::CENTER_BOTTOM,
                short_kind(&unit.kind),
                small,
                ink,
            );
        }
        return;
    }
    draw_symbol(painter, box_rect, symbol, unit, ink);
    painter.text(
        bottom,
        Align2::CENTER_BOTTOM,
        style.face_text(unit),
        values,
        ink,
    );
}

/// `text` shortened with intent ([`pieces::short_name`], at most `most` characters, fewer as
/// needed) until it is no wider than `width` (or one character long), laid out.
fn fitted(
    painter: &Painter,
    text: &str,
    most: usize,
    font: &FontId,
    ink: Color32,
    width: f32,
) -> std::sync::Arc<egui::Galley> {
    let mut n = most;
    loop {
        let galley = painter.layout_no_wrap(pieces::short_name(text, n), font.clone(), ink);
        if galley.size().x <= width || n <= 1 {
            return galley;
        }
        n -= 1;
    }
}

fn short_kind(kind: &str) -> String {
    pieces::short_name(&kind.replace('_', " "), 9)
}

fn draw_symbol(painter: &Painter, r: Rect, symbol: Symbol, unit: &Unit, ink: Color32) {
    let stroke = Stroke::new((r.height() * 0.08).max(1.0), ink);
    let oval = |painter: &Painter| {
        let inner = r.shrink2(Vec2::new(r.width() * 0.2, r.height() * 0.26));
        painter.rect_stroke(inner, inner.height() / 2.0, stroke, StrokeKind::Middle);
    };
    let cross = |painter: &Painter| {
        painter.line_segment([r.left_top(), r.right_bottom()], stroke);
        painter.line_segment([r.left_bottom(), r.right_top()], stroke);
    };
    if symbol == Symbol::Leader {
        // a leader's star in the counter's ink: gold stars on the map are VP hexes, and an
        // objective's star sits on this counter's left edge when a leader stands on it
        let mut shapes = Vec::new();
        let c = r.center() - Vec2::new(r.width() * 0.18, 0.0);
        paint::star(&mut shapes, c, r.height() * 0.55, ink, ink);
        painter.extend(shapes);
        if let Some(rating) = unit.attrs.get("rating") {
            painter.text(
                r.center() + Vec2::new(r.width() * 0.25, 0.0),
                Align2::CENTER_CENTER,
                rating.to_string(),
                FontId::proportional(r.height() * 0.9),
                ink,
            );
        }
        return;
    }
    painter.rect_stroke(r, 0.0, stroke, StrokeKind::Middle);
    match symbol {
        Symbol::Infantry => cross(painter),
        Symbol::Armour => oval(painter),
        Symbol::Mechanized => {
            cross(painter);
            oval(painter);
        }
        Symbol::Cavalry => {
            painter.line_segment([r.left_bottom(), r.right_top()], stroke);
        }
        Symbol::Artillery => {
            painter.circle_filled(r.center(), r.height() * 0.18, ink);
        }
        Symbol::Leader => {}
        Symbol::Other => {
            painter.text(
                r.center(),
                Align2::CENTER_CENTER,
                short_kind(&unit.kind),
                FontId::proportional(r.height() * 0.45),
                ink,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_formations_keep_their_numbers() {
        assert_eq!(formation_abbrev("7 Pz"), "7 Pz");
        assert_eq!(formation_abbrev("Reinf T3 Z"), "T3 Z");
        assert_eq!(formation_abbrev("Grossdeutschland"), "Grossde.");
    }
}
