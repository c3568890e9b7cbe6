//! The players section of the play-test panel: who plays each side (a person or the computer),
//! the computer's pace (pause, step, slow, fast), and whose decision it is.

use super::Named as _;
use crate::play::computer::{Pace, Player};
use crate::play::PlaySession;
use egui::{Color32, RichText, Ui};

/// Draws the players section; changes go straight to the session's seats (they are not moves).
pub fn players_ui(ui: &mut Ui, s: &mut PlaySession) {
    let sides = s.sides_in_play();
    egui::CollapsingHeader::new("Players")
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("players").num_columns(3).show(ui, |ui| {
                for side in &sides {
                    ui.label(RichText::new(side).strong());
                    let mut p = s.seats.player(side);
                    for (choice, text) in [(Player::Human, "Human"), (Player::Computer, "Computer")]
                    {
                        let r = ui
                            .selectable_value(&mut p, choice, text)
                            .named(&format!("{side} played by {text}"));
                        if r.changed() {
                            s.seats.set(side, p);
                        }
                    }
                    ui.end_row();
                }
            });
            let computers = sides
                .iter()
                .any(|side| s.seats.player(side) == Player::Computer);
            if computers {
                ui.horizontal(|ui| {
                    ui.label("Computer:");
                    for pace in [Pace::Paused, Pace::Slow, Pace::Fast] {
                        ui.selectable_value(&mut s.seats.pace, pace, pace.label());
                    }
                    let can_step = s.computer_to_move();
                    if ui
                        .add_enabled(can_step, egui::Button::new("Step"))
                        .on_hover_text("Play the computer's next move")
                        .clicked()
                    {
                        s.seats.step();
                    }
                });
            }
            ui.label(whose_turn(s));
            if let Some(why) = &s.seats.stopped {
                ui.label(RichText::new(why).color(super::play::REFUSAL));
            }
        });
}

/// "Computer (blue) is playing…", "Your decision (red)", "Hot seat: blue to play — …".
fn whose_turn(s: &PlaySession) -> RichText {
    if s.engine.state().finished {
        return RichText::new("Game over");
    }
    let Some(side) = s.engine.deciding_side() else {
        return RichText::new("No side to move in this step");
    };
    if s.computer_to_move() {
        let what = match s.seats.pace {
            Pace::Paused => "paused (Step plays one move)",
            _ => "is playing…",
        };
        return RichText::new(format!("Computer ({side}) {what}"))
            .color(Color32::from_rgb(150, 200, 255));
    }
    let humans = s
        .engine
        .ruleset()
        .sides
        .iter()
        .filter(|x| s.seats.player(x) == Player::Human)
        .count();
    let text = if humans > 1 {
        format!("Hot seat: {side} to play — pass the mouse")
    } else {
        format!("Your decision ({side})")
    };
    RichText::new(text)
        .strong()
        .color(Color32::from_rgb(250, 200, 60))
}
