//! The lab's rows for who plays each side: the ruleset's AI at its default level, at another
//! declared level, or a random-legal player (the words of `kessel simulate --ai`).

use egui::Ui;
use std::collections::BTreeMap;

/// Who plays `side` in the lab's games: the ruleset's AI at its default level, at another of
/// its levels, or a random-legal player (`kessel simulate --ai` words).
pub(super) fn players_row(
    ui: &mut Ui,
    players: &mut BTreeMap<String, String>,
    side: &str,
    role: &str,
    levels: &[String],
    busy: bool,
) {
    let default = match levels.first() {
        Some(l) => format!("AI ({l})"),
        None => "AI".to_string(),
    };
    let mut choices: Vec<(Option<String>, String)> = vec![(None, default)];
    for l in levels.iter().skip(1) {
        choices.push((Some(format!("ai:{l}")), format!("AI ({l})")));
    }
    choices.push((Some("random".into()), "random-legal".into()));
    let current = players.get(side).cloned();
    let shown = choices
        .iter()
        .find(|(w, _)| *w == current)
        .map_or_else(|| current.clone().unwrap_or_default(), |(_, t)| t.clone());
    let label = ui.label(format!("{side} {role}"));
    let mut picked = current.clone();
    ui.add_enabled_ui(!busy, |ui| {
        egui::ComboBox::from_id_salt(("lab_player", side, role))
            .selected_text(shown)
            .show_ui(ui, |ui| {
                for (word, text) in &choices {
                    ui.selectable_value(&mut picked, word.clone(), text);
                }
            })
            .response
            .labelled_by(label.id);
    });
    if picked != current {
        match picked {
            Some(w) => players.insert(side.to_string(), w),
            None => players.remove(side),
        };
    }
    ui.end_row();
}
