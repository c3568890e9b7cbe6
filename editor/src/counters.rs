//! Counters drawn as small NATO-style unit symbols with their printed values.
//!
//! The ruleset will eventually say how a unit type looks; until the editor loads rulesets the
//! symbol is guessed from the type name (`panzer`, `rifle_mot`, …) and unknown types show their
//! name in the symbol box, so nothing is ever hidden for lack of a style.

use crate::map_view::{hashed_color, star};
use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Stroke, StrokeKind, Vec2};
use kessel_core::state::Unit;

/// Counter side length in hex radii: a square that fits inside the hex.
pub const COUNTER_SIZE: f32 = 1.2;

/// Background colour of a side's counters.
pub fn side_color(side: &str) -> Color32 {
    match side.to_ascii_lowercase().as_str() {
        "german" | "germany" | "axis" => Color32::from_rgb(150, 158, 140),
        "soviet" | "ussr" | "russian" => Color32::from_rgb(176, 78, 56),
        other => hashed_color(other, 0.45, 0.75),
    }
}

/// Black or white, whichever reads better on `bg`.
pub fn text_on(bg: Color32) -> Color32 {
    let l = 0.299 * bg.r() as f32 + 0.587 * bg.g() as f32 + 0.114 * bg.b() as f32;
    if l > 140.0 {
        Color32::BLACK
    } else {
        Color32::from_rgb(250, 246, 235)
    }
}

/// The NATO symbol drawn in a counter's box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symbol {
    /// Crossed box.
    Infantry,
    /// Oval (tracks).
    Armour,
    /// Crossed box with an oval.
    Mechanized,
    /// Diagonal slash.
    Cavalry,
    /// Filled dot.
    Artillery,
    /// A star with the leader's rating.
    Leader,
    /// The type name, written out.
    Other,
}

/// Guesses the symbol from a unit type name.
pub fn symbol_for(kind: &str) -> Symbol {
    let k = kind.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| k.contains(w));
    if has(&["leader", "hq", "general", "commander"]) {
        Symbol::Leader
    } else if has(&["mot", "mech", "pzgren", "grenadier"]) {
        Symbol::Mechanized
    } else if has(&["panzer", "pz", "tank", "armo"]) {
        Symbol::Armour
    } else if has(&["cav"]) {
        Symbol::Cavalry
    } else if has(&["inf", "rifle", "guard"]) {
        Symbol::Infantry
    } else if has(&["art", "gun"]) {
        Symbol::Artillery
    } else {
        Symbol::Other
    }
}

/// Short formation text for the top of a counter: long names lose their wordy parts
/// ("Reinf T3 Z" → "T3 Z") so the distinguishing numbers stay readable.
pub fn formation_abbrev(formation: &str) -> String {
    let f = formation.trim();
    if f.chars().count() <= 8 {
        return f.to_string();
    }
    let kept: Vec<&str> = f
        .split_whitespace()
        .filter(|w| !(w.len() > 4 && w.chars().all(char::is_alphabetic)))
        .collect();
    let s = if kept.is_empty() {
        f.to_string()
    } else {
        kept.join(" ")
    };
    s.chars().take(8).collect()
}

/// Draws a stack: shadows for the counters below, the top counter, and a count badge.
pub fn draw_stack(painter: &Painter, center: Pos2, zoom: f32, units: &[&Unit], selected: bool) {
    let Some(top) = units.last() else {
        return;
    };
    let w = COUNTER_SIZE * zoom;
    let depth = (units.len() - 1).min(2);
    let step = (0.07 * w).max(1.5);
    // shift the pile up-left so the whole stack stays centred on the hex
    let top_center = center - Vec2::splat(step * depth as f32 / 2.0);
    for k in (1..=depth).rev() {
        let below = units[units.len() - 1 - k];
        let r = Rect::from_center_size(top_center + Vec2::splat(step * k as f32), Vec2::splat(w));
        painter.rect(
            r,
            w * 0.06,
            side_color(&below.side).gamma_multiply(0.8),
            Stroke::new(1.0, Color32::from_black_alpha(160)),
            StrokeKind::Inside,
        );
    }
    draw_counter(
        painter,
        Rect::from_center_size(top_center, Vec2::splat(w)),
        top,
        selected,
    );
    if units.len() > 1 && w >= 16.0 {
        let r = (0.17 * w).max(6.0);
        let at = top_center + Vec2::new(w / 2.0, -w / 2.0);
        painter.circle(
            at,
            r,
            Color32::from_rgb(30, 30, 30),
            Stroke::new(1.0, Color32::WHITE),
        );
        painter.text(
            at,
            Align2::CENTER_CENTER,
            units.len().to_string(),
            FontId::proportional(r * 1.3),
            Color32::WHITE,
        );
    }
}

/// Draws one counter in `rect`.
pub fn draw_counter(painter: &Painter, rect: Rect, unit: &Unit, selected: bool) {
    let w = rect.width();
    let base = side_color(&unit.side);
    let fill = if unit.hidden {
        base.gamma_multiply(0.72)
    } else {
        base
    };
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
    let symbol = symbol_for(&unit.kind);

    // top line: a leader by name, other units by formation
    let top_text = if symbol == Symbol::Leader {
        unit.name.chars().take(9).collect()
    } else {
        unit.formation
            .as_deref()
            .map(formation_abbrev)
            .unwrap_or_default()
    };
    if w >= 22.0 && !top_text.is_empty() {
        painter.text(
            Pos2::new(rect.center().x, rect.top() + 0.04 * w),
            Align2::CENTER_TOP,
            top_text,
            small.clone(),
            ink,
        );
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
    let face = unit
        .face()
        .map(|f| f.to_string())
        .unwrap_or_else(|| "—".to_string());
    painter.text(bottom, Align2::CENTER_BOTTOM, face, values, ink);
}

fn short_kind(kind: &str) -> String {
    kind.replace('_', " ").chars().take(9).collect()
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
        let mut shapes = Vec::new();
        let c = r.center() - Vec2::new(r.width() * 0.18, 0.0);
        star(
            &mut shapes,
            c,
            r.height() * 0.55,
            Color32::from_rgb(250, 210, 60),
        );
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
    fn symbols_from_type_names() {
        assert_eq!(symbol_for("panzer"), Symbol::Armour);
        assert_eq!(symbol_for("rifle_mot"), Symbol::Mechanized);
        assert_eq!(symbol_for("rifle"), Symbol::Infantry);
        assert_eq!(symbol_for("leader"), Symbol::Leader);
        assert_eq!(symbol_for("cavalry"), Symbol::Cavalry);
        assert_eq!(symbol_for("zeppelin"), Symbol::Other);
    }

    #[test]
    fn long_formations_keep_their_numbers() {
        assert_eq!(formation_abbrev("7 Pz"), "7 Pz");
        assert_eq!(formation_abbrev("Reinf T3 Z"), "T3 Z");
        assert_eq!(formation_abbrev("Grossdeutschland"), "Grossdeu");
    }
}
