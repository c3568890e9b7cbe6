//! The campaign part of the play-test panel: the campaign's name and which game is on, *Next
//! game* once the game has ended, and what carried over into this game (the text `kessel
//! campaign` prints, from the core's `CarryReport::text`).

use crate::play::campaign::CampaignRun;
use crate::play::{PlayCommand, PlaySession};
use egui::{Color32, RichText, Ui};

/// Gold for the campaign's headings.
const CAMPAIGN: Color32 = Color32::from_rgb(235, 195, 90);

/// Draws the campaign's lines above the game's own.
pub fn campaign_ui(ui: &mut Ui, run: &CampaignRun, s: &PlaySession, cmds: &mut Vec<PlayCommand>) {
    ui.label(RichText::new(&run.campaign.name).color(CAMPAIGN).strong());
    ui.label(RichText::new(run.game_line()).strong());
    let ended = s.engine.state().campaign_ended.clone();
    if let (true, Some(end)) = (s.engine.state().finished, ended) {
        // the rules said this game was the campaign's last, whatever the file lists after it
        ui.label(RichText::new("The campaign has ended with this game.").strong());
        ui.label(end.to_string());
    } else if s.engine.state().finished {
        match run.next_name() {
            Some(next) => {
                ui.label("This game has ended.");
                if ui
                    .button(RichText::new(format!("Next game: {next}")).strong())
                    .on_hover_text(
                        "Start the campaign's next game with what carries over from this one",
                    )
                    .clicked()
                {
                    cmds.push(PlayCommand::NextGame);
                }
            }
            None => {
                ui.label("The campaign's last game has ended.");
            }
        }
    }
    if run.index > 0 {
        let from = run
            .played
            .games
            .last()
            .map_or("the game before", |g| g.name.as_str());
        egui::CollapsingHeader::new(format!("Carried over from {from}"))
            .id_salt(("carried", run.index))
            .default_open(true)
            .show(ui, |ui| {
                // a long list scrolls by itself, so the game's tools stay in view
                egui::ScrollArea::vertical()
                    .id_salt("carried-lines")
                    .max_height(180.0)
                    .show(ui, |ui| {
                        let text = run.carried.text(usize::MAX);
                        if text.is_empty() {
                            ui.label(
                                "Nothing: the campaign carries nothing, or the game left nothing.",
                            );
                        }
                        for line in text.lines() {
                            carried_line(ui, line.trim_start());
                        }
                    });
            });
    }
    ui.separator();
}

/// The lists of what carried (`created: a (…), b (…)`, `changed: …`, the new arrivals) one item
/// a line under their heading, so a campaign's many units read as a list; other facts as they
/// are. (They were one run of small print each.)
fn carried_line(ui: &mut Ui, line: &str) {
    let listed = ["created", "changed", "new arrivals from the scenario"];
    match line.split_once(": ") {
        Some((head, rest)) if listed.contains(&head) => {
            ui.label(RichText::new(format!("{head}:")).strong());
            for item in top_level_items(rest) {
                ui.label(format!("• {item}"));
            }
        }
        _ => {
            ui.label(line);
        }
    }
}

/// `a (x, y), b (z)` → `["a (x, y)", "b (z)"]`: split at the commas outside parentheses.
fn top_level_items(text: &str) -> Vec<&str> {
    let (mut items, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(text[start..].trim());
    items.retain(|s| !s.is_empty());
    items
}

#[cfg(test)]
mod carried_tests {
    #[test]
    fn items_split_at_commas_outside_parentheses() {
        assert_eq!(
            super::top_level_items("b1 (J6: vars fanatic_next reph), b2 (I6: flags, vars reph), x"),
            vec![
                "b1 (J6: vars fanatic_next reph)",
                "b2 (I6: flags, vars reph)",
                "x"
            ]
        );
        assert_eq!(super::top_level_items(""), Vec::<&str>::new());
    }
}
