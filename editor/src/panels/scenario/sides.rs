//! A side cell of the scenario panel: a choice of the ruleset's sides, never free text, with a
//! side the ruleset does not have flagged in red (the file may say anything; the loader would
//! refuse it when the game starts).

use super::*;

/// Words shown for "no side" in an optional side cell.
pub const NO_SIDE: &str = "(none)";

/// The side cell `salt`: a combo box of `sides` (the ruleset's, in its order), with
/// [`NO_SIDE`] first when `optional`. A value that is not among them shows in red with what the
/// ruleset has. With no sides known yet (the ruleset not read), a text field. True when changed.
pub fn side_choice(
    ui: &mut Ui,
    salt: &str,
    value: &mut String,
    sides: &[String],
    optional: bool,
) -> bool {
    if sides.is_empty() {
        return cell_text(ui, value, 80.0).named(salt).changed();
    }
    let before = value.clone();
    let unknown = !value.is_empty() && !sides.contains(value);
    let shown = match (value.is_empty(), unknown) {
        (true, _) => RichText::new(NO_SIDE),
        (false, true) => RichText::new(format!("{value} ?")).color(crate::panels::play::REFUSAL),
        (false, false) => RichText::new(value.as_str()),
    };
    let r = egui::ComboBox::from_id_salt(salt)
        .selected_text(shown)
        .width(80.0)
        .show_ui(ui, |ui| {
            if optional {
                ui.selectable_value(value, String::new(), NO_SIDE);
            }
            for s in sides {
                ui.selectable_value(value, s.clone(), s);
            }
        })
        .response
        .named(salt);
    if unknown {
        r.on_hover_text(unknown_side(value, sides));
    }
    *value != before
}

/// What is said of a side the ruleset does not have.
pub fn unknown_side(side: &str, sides: &[String]) -> String {
    format!(
        "`{side}` is not a side of the ruleset (it has: {}): pick one",
        sides.join(", ")
    )
}
