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
    if s.engine.state().finished {
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
                            ui.label(RichText::new(line.trim_start()).small());
                        }
                    });
            });
    }
    ui.separator();
}
