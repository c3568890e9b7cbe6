//! Counters drawn as small NATO-style unit symbols with their printed values.
//!
//! What a counter shows is the drawing model's ([`counter::counter_face`], which `kessel render`
//! draws too): the side colour and the symbol come from the ruleset's declarations; a type that
//! declares no symbol shows its name in the symbol box, so nothing is ever hidden for lack of a
//! style. This module paints it with egui.

use crate::paint;
use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Stroke, StrokeKind, Vec2};
use kessel_core::state::Unit;
use kessel_draw::counter::{self, Anchor, Print};
use kessel_draw::pieces;
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

/// Draws one counter in `rect`, as the drawing model prints it ([`counter::counter_face`]);
/// its top line keeps clear of a count badge `badge` (centre and radius) drawn over it later.
pub fn draw_counter(
    painter: &Painter,
    style: &MapStyle,
    rect: Rect,
    unit: &Unit,
    selected: bool,
    badge: Option<(Pos2, f32)>,
) {
    let w = rect.width();
    let face = counter::counter_face(style, unit, paint::point(rect.min), w);
    let fill = paint::color(face.fill);
    let border = if selected {
        Stroke::new(2.5, Color32::from_rgb(255, 140, 0))
    } else {
        Stroke::new(1.0, Color32::from_black_alpha(200))
    };
    painter.rect(rect, w * 0.06, fill, border, StrokeKind::Inside);
    let ink = paint::color(face.ink);
    if let Some(top) = &face.top {
        let (left, right) = pieces::top_line_room(
            paint::point(rect.min),
            w,
            top.band(),
            badge.map(|(at, r)| (paint::point(at), r)),
        );
        let font = FontId::proportional(top.size);
        let galley = fitted(painter, &top.text, top.most, &font, ink, right - left);
        let x = (left + right) / 2.0 - galley.size().x / 2.0;
        painter.galley(Pos2::new(x, top.top), galley, ink);
    }
    for p in &face.prints {
        print(painter, p, ink);
    }
}

/// One shape of a counter's print in egui's strokes.
fn print(painter: &Painter, p: &Print, ink: Color32) {
    match p {
        Print::Frame { min, max, width } => {
            let r = Rect::from_min_max(paint::pos(*min), paint::pos(*max));
            painter.rect_stroke(r, 0.0, Stroke::new(*width, ink), StrokeKind::Middle);
        }
        Print::Oval { min, max, width } => {
            let r = Rect::from_min_max(paint::pos(*min), paint::pos(*max));
            painter.rect_stroke(
                r,
                r.height() / 2.0,
                Stroke::new(*width, ink),
                StrokeKind::Middle,
            );
        }
        Print::Line { a, b, width } => {
            painter.line_segment([paint::pos(*a), paint::pos(*b)], Stroke::new(*width, ink));
        }
        Print::Dot { c, r } => {
            painter.circle_filled(paint::pos(*c), *r, ink);
        }
        Print::Star { c, r } => {
            let mut shapes = Vec::new();
            paint::star(&mut shapes, paint::pos(*c), *r, ink, ink);
            painter.extend(shapes);
        }
        Print::Text {
            at,
            anchor,
            size,
            bold: _,
            text,
        } => {
            let align = match anchor {
                Anchor::Center => Align2::CENTER_CENTER,
                Anchor::Bottom => Align2::CENTER_BOTTOM,
            };
            painter.text(
                paint::pos(*at),
                align,
                text,
                FontId::proportional(*size),
                ink,
            );
        }
    }
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
