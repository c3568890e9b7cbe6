//! A unit's row in the play-test panel's stack: its counter, name, side and kind, its steps,
//! the states a player reads, and the rules' bookkeeping under a fold.

use crate::counters::draw_counter;
use egui::{Rect, RichText, Sense, Ui, Vec2};
use kessel_core::state::Unit;
use kessel_draw::MapStyle;

/// The fold holding a unit's flags and variables, the rules' bookkeeping.
pub const UNIT_DETAILS: &str = "details (the rules' flags and variables)";

/// A unit's counter in a square of `size` points, as the stack lists show it.
pub(crate) fn counter_icon(ui: &mut Ui, style: &MapStyle, u: &Unit, size: f32) {
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(size), Sense::hover());
    let square = Rect::from_center_size(rect.center(), Vec2::splat(size));
    draw_counter(ui.painter(), style, square, u, false, None);
}

/// The title a unit is listed by: its name, or, for a face-down unit with no printed name (only
/// its scenario id), its kind.
pub(crate) fn unit_title(u: &Unit) -> String {
    if u.hidden && u.name == u.id {
        format!("{} (face down)", u.kind.replace('_', " "))
    } else {
        u.name.clone()
    }
}

/// Draws the row; true when its check box was toggled.
pub(super) fn unit_row(ui: &mut Ui, style: &MapStyle, u: &Unit, checked: bool) -> bool {
    let mut toggled = false;
    ui.horizontal(|ui| {
        counter_icon(ui, style, u, 34.0);
        ui.vertical(|ui| {
            let mut on = checked;
            if ui
                .checkbox(&mut on, RichText::new(unit_title(u)).strong())
                .changed()
            {
                toggled = true;
            }
            let mut line = format!("{} {}", u.side, u.kind.replace('_', " "));
            if let Some(f) = u.formation.as_deref().filter(|f| !u.name.contains(*f)) {
                line.push_str(&format!(", {f}"));
            }
            ui.label(line);
            if !u.hidden {
                ui.label(super::inspector::steps_line(
                    &style.steps_text(u),
                    u.step as usize,
                ));
            }
            let (shown, details) = unit_marks(u);
            if !shown.is_empty() {
                ui.label(shown.join(", "));
            }
            if !details.is_empty() {
                egui::CollapsingHeader::new(RichText::new(UNIT_DETAILS).small())
                    .id_salt(("unit details", &u.id))
                    .show(ui, |ui| {
                        ui.small(details.join(", "));
                    });
            }
        });
    });
    toggled
}

/// A unit's flags and variables split into what a player reads on the counter's row and the
/// rules' bookkeeping, shown only under a fold. The ruleset declares no meaning for either, so
/// the split goes by their shape: a flag that is a word ("disrupted") is a state of the unit;
/// a flag carrying data in its name (a hex entered, `t1v_0122`) and the variables the rules keep
/// (`entered_at 0122`, `mp_spent 3`) are the rules' own record, which read as noise in the row.
fn unit_marks(u: &Unit) -> (Vec<String>, Vec<String>) {
    let (words, data): (Vec<&String>, Vec<&String>) = u
        .flags
        .iter()
        .partition(|f| f.chars().all(|c| c.is_alphabetic() || c == '_'));
    let shown = words.iter().map(|f| f.replace('_', " ")).collect();
    let mut details: Vec<String> = data.into_iter().cloned().collect();
    details.extend(u.vars.iter().map(|(k, v)| format!("{k} {v}")));
    (shown, details)
}

#[cfg(test)]
mod tests {
    use super::unit_marks;
    use kessel_core::state::Unit;

    #[test]
    fn the_rules_bookkeeping_goes_under_the_fold() {
        let mut u = Unit::new("a", "red", "inf");
        u.flags
            .extend(["t1v_0122", "disrupted", "out_of_supply"].map(String::from));
        u.vars.insert("mp_spent".into(), serde_json::json!(3));
        let (shown, details) = unit_marks(&u);
        assert_eq!(shown, ["disrupted", "out of supply"]);
        assert_eq!(details, ["t1v_0122", "mp_spent 3"]);
    }
}
