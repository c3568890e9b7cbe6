//! The play-test panel's list of choices: every legal action the rules list but moves (made on
//! the map), those of the selected units and of the selected hex first, the rest by kind, long
//! kinds folded.

use super::play::{LONG_LIST, REFUSAL};
use crate::play::queries::{action_hexes, action_units};
use crate::play::{PlayCommand, PlaySession};
use egui::{RichText, Ui};
use kessel_core::action::Action;
use std::collections::BTreeMap;

/// The legal actions, those of the selected units first, the rest by kind.
pub(super) fn choices_ui(ui: &mut Ui, s: &mut PlaySession, cmds: &mut Vec<PlayCommand>) {
    if !s.rules_said_whose_turn() && matches!(&s.actions, Ok(a) if a.is_empty()) {
        // the rules' thread is listing them for the game as it is now
        ui.label(RichText::new("Choices (the rules are listing them…)").strong());
        return;
    }
    let actions = match &s.actions {
        Ok(a) => a.clone(),
        Err(e) => {
            ui.label(
                RichText::new(format!("The rules could not list the choices: {e}")).color(REFUSAL),
            );
            // after Stop (or a failure fixed on disk since), the listing can be asked for again
            let again = ui
                .button("Ask the rules again")
                .on_hover_text("List the legal choices again for the game as it is");
            if again.clicked() {
                s.ask_again();
            }
            return;
        }
    };
    ui.label(RichText::new(format!("Choices ({})", actions.len())).strong())
        .on_hover_text("Every legal action the rules list except moves, which are made on the map");
    let involved: Vec<String> = s.picked.iter().chain(&s.attackers).cloned().collect();
    let (mine, rest): (Vec<&Action>, Vec<&Action>) = actions
        .iter()
        .partition(|a| action_units(a).iter().any(|u| involved.contains(u)));
    // choices that name the selected hex and no unit (a marker placed on the stack there, say)
    let (here, rest): (Vec<&Action>, Vec<&Action>) = rest.into_iter().partition(|a| {
        s.selected.is_some_and(|h| {
            action_units(a).is_empty() && action_hexes(&s.engine, a).last() == Some(&h)
        })
    });
    if !mine.is_empty() {
        ui.label("For the selected units:");
        for a in &mine {
            action_button(ui, s, a, cmds);
        }
    }
    if !here.is_empty() {
        ui.label("At the selected hex:");
        for a in &here {
            action_button(ui, s, a, cmds);
        }
    }
    let first_shown = !mine.is_empty() || !here.is_empty();
    if first_shown && !rest.is_empty() {
        ui.label("Other choices:");
    }
    let mut by_kind: BTreeMap<&str, Vec<&Action>> = BTreeMap::new();
    for a in rest {
        by_kind.entry(a.kind.as_str()).or_default().push(a);
    }
    for (kind, list) in by_kind {
        if list.len() <= LONG_LIST {
            for a in list {
                action_button(ui, s, a, cmds);
            }
        } else {
            egui::CollapsingHeader::new(format!("{} ({})", kind.replace('_', " "), list.len()))
                .id_salt(("choices", kind))
                .show(ui, |ui| {
                    for a in list {
                        action_button(ui, s, a, cmds);
                    }
                });
        }
    }
}

fn action_button(ui: &mut Ui, s: &mut PlaySession, a: &Action, cmds: &mut Vec<PlayCommand>) {
    let text = s.describe(a);
    let r = ui.add(egui::Button::new(&text).wrap());
    if r.hovered() {
        // show on the map what the action would touch: its units' hex, then its hexes
        let mut hexes: Vec<_> = action_units(a)
            .iter()
            .filter_map(|id| s.units.get(id).and_then(|u| u.hex()))
            .take(1)
            .collect();
        hexes.extend(action_hexes(&s.engine, a));
        s.preview = hexes;
    }
    if r.clicked() {
        if a.kind == "attack" {
            // an attack is declared first, so its odds show before the roll
            s.declare(a);
        } else {
            cmds.push(PlayCommand::Act(a.clone()));
        }
    }
}
