//! What the rules' queries that need no argument say of the game as it stands (the play-test
//! panel's fold under the tools: PGG's score now, a pending retreat).

use super::play::REFUSAL;
use crate::play::queries::UnitAnswer;
use crate::play::PlaySession;
use egui::{RichText, Ui};

/// What the rules' queries that need no argument say of the game now (PGG: the score, a
/// pending retreat), folded; its title names them, so a player looking for the VP finds them.
pub(crate) fn game_queries_ui(ui: &mut Ui, s: &PlaySession) {
    let answers = match &s.game_answers {
        None => return,
        Some(Ok(a)) if a.is_empty() => return,
        Some(Ok(a)) => a,
        Some(Err(e)) => {
            ui.label(RichText::new(format!("The rules' queries failed: {e}")).color(REFUSAL));
            return;
        }
    };
    ui.separator();
    let ids: Vec<&str> = answers.iter().map(|a| a.id.as_str()).collect();
    egui::CollapsingHeader::new(format!(
        "{GAME_QUERIES_TITLE}: {}",
        ids.join(", ").replace('_', " ")
    ))
    .id_salt("game-queries")
    .show(ui, |ui| answers_ui(ui, answers, |id| id.replace('_', " ")));
}

/// Each query's answer under its name (`title` of its id), as the log words a record; a refused
/// query's reason in the refusal colour. Shared by the game's fold and each selected unit's.
pub(crate) fn answers_ui(ui: &mut Ui, answers: &[UnitAnswer], title: impl Fn(&str) -> String) {
    for a in answers {
        ui.label(RichText::new(title(&a.id)).strong())
            .on_hover_text(&a.description);
        match &a.answer {
            Ok(v) => {
                for line in super::log::record_lines(v) {
                    ui.small(line);
                }
            }
            Err(e) => {
                ui.small(RichText::new(e).color(REFUSAL));
            }
        }
    }
}

/// Leads the title of the fold of [`game_queries_ui`] (short: a fold's title does not wrap, and a
/// long one widened the play-test panel under the map in a narrow window).
pub const GAME_QUERIES_TITLE: &str = "The game now";
