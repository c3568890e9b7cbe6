//! The players section of the play-test panel: who plays each side (a person or the computer),
//! the computer's pace (pause, step, slow, fast), and whose decision it is.

use super::Named as _;
use crate::map_view::MapView;
use crate::play::computer::{Pace, Player};
use crate::play::PlaySession;
use egui::{Color32, RichText, Ui};

/// Draws the players section; changes go straight to the session's seats (they are not moves).
pub fn players_ui(ui: &mut Ui, s: &mut PlaySession, view: &mut MapView) {
    let sides = s.sides_in_play();
    let levels = s.engine.ruleset().ai_levels.clone();
    egui::CollapsingHeader::new("Players")
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("players").num_columns(4).show(ui, |ui| {
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
                    if p == Player::Computer && levels.len() > 1 {
                        level_ui(ui, s, side, &levels);
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
            thinking_ui(ui, s);
            ui.label(whose_turn(s));
            // a decision after the computer's attack may be about a stack off the part in view
            if let Some(h) = s.pending_hex() {
                let show = ui
                    .button("Show the stack it is about")
                    .on_hover_text("Bring the stack the decision is about into view");
                if show.clicked() {
                    s.select(h);
                    view.reveal_on_next_frame(h);
                }
            }
            if let Some(why) = &s.seats.stopped {
                ui.label(RichText::new(why).color(super::play::REFUSAL));
            }
            last_moves_ui(ui, s, view);
        });
}

/// The computer's last moves, drawn on the map and numbered as in the log: how many, and a way
/// to step through them one at a time, each brought into view and said in the log's words.
fn last_moves_ui(ui: &mut Ui, s: &mut PlaySession, view: &mut MapView) {
    let trails = s.computer_trails();
    let mut numbers: Vec<usize> = trails.iter().map(|t| t.number).collect();
    numbers.dedup();
    let (Some(&first), Some(&last)) = (numbers.first(), numbers.last()) else {
        return;
    };
    let at = (s.seats.trail_focus).and_then(|n| numbers.iter().position(|&m| m == n));
    let mut go = None;
    // ids of their own: the buttons before them come and go as the game moves on (Step, Show
    // the stack), and a click on a button whose id moved under it was lost
    ui.push_id("computer's last moves", |ui| {
        ui.horizontal_wrapped(|ui| {
            let span = if first == last {
                format!("log {first}")
            } else {
                format!("log {first}–{last}")
            };
            ui.label(format!(
                "Computer's last moves on the map: {} ({span})",
                numbers.len()
            ));
            let back = at.map_or(numbers.len() - 1, |i| i.saturating_sub(1));
            let on = at.map_or(0, |i| (i + 1).min(numbers.len() - 1));
            if (ui
                .button("Back")
                .on_hover_text("Show the computer's move before this one alone"))
            .named("Previous computer move")
            .clicked()
            {
                go = Some(Some(numbers[back]));
            }
            if (ui
                .button("Next")
                .on_hover_text("Show the computer's next move alone"))
            .named("Next computer move")
            .clicked()
            {
                go = Some(Some(numbers[on]));
            }
            if at.is_some() && ui.button("All").named("Show all computer moves").clicked() {
                go = Some(None);
            }
        })
    });
    if let Some(focus) = go {
        s.seats.trail_focus = focus;
        let hex = focus
            .and_then(|n| trails.iter().find(|t| t.number == n))
            .and_then(|t| t.hexes.last().copied());
        if let Some(h) = hex {
            view.reveal_on_next_frame(h);
        }
    }
    if let Some(n) = at.map(|i| numbers[i]) {
        if let Some(entry) = s.log.get(n - 1) {
            ui.label(RichText::new(format!("{n}. {}", s.describe(&entry.action))).strong());
            // what came of it, in the rules' words (an attack's odds, roll and result)
            for e in &entry.events {
                if let kessel_core::event::Event::Note { rule, text, .. } = e {
                    let rule = rule.as_deref().unwrap_or("—");
                    ui.small(format!("[{rule}] {}", super::log::note_text(rule, text)));
                }
            }
        }
    }
}

/// While the computer has thought for a while: for how long, and *Stop* (the window keeps
/// drawing meanwhile: the computer thinks on a thread of its own).
fn thinking_ui(ui: &mut Ui, s: &mut PlaySession) {
    use crate::play::thinker::SHOW_THINKING_AFTER;
    let Some(p) = s.seats.thinker.pending() else {
        return;
    };
    let took = p.since.elapsed();
    if took < SHOW_THINKING_AFTER {
        return;
    }
    let stopping = p.stopping;
    ui.horizontal(|ui| {
        ui.spinner();
        ui.label(format!(
            "The computer is thinking… {:.1} s",
            took.as_secs_f32()
        ));
        let stop = ui
            .add_enabled(!stopping, egui::Button::new("Stop"))
            .on_hover_text("Cut this decision short; the computer then waits (paused)")
            .named("Stop the computer");
        if stop.clicked() {
            s.stop_computer();
        }
    });
}

/// The level of the ruleset's AI that plays `side` (its `kessel.ai_level`s; the first is the
/// default), with each level's description on hover.
fn level_ui(
    ui: &mut Ui,
    s: &mut PlaySession,
    side: &str,
    levels: &[kessel_core::ruleset::AiLevel],
) {
    let current = s.seats.level(side).map(str::to_string);
    let shown = current
        .clone()
        .or_else(|| levels.first().map(|l| l.id.clone()))
        .unwrap_or_default();
    let mut picked: Option<String> = None;
    egui::ComboBox::from_id_salt(("ai level", side))
        .selected_text(format!("level: {shown}"))
        .show_ui(ui, |ui| {
            for (i, l) in levels.iter().enumerate() {
                let default = if i == 0 { " (default)" } else { "" };
                let r = ui
                    .selectable_label(shown == l.id, format!("{}{default}", l.id))
                    .on_hover_text(&l.description)
                    .named(&format!("{side} computer level {}", l.id));
                if r.clicked() {
                    picked = Some(l.id.clone());
                }
            }
        })
        .response
        .on_hover_text("How the computer plays this side (the ruleset's AI levels)")
        .named(&format!("{side} computer level"));
    if let Some(id) = picked {
        // the default level is stored as no level, so a save names only a chosen one
        let level = (levels.first().map(|l| &l.id) != Some(&id)).then_some(id.as_str());
        if level != current.as_deref() {
            s.seats.set_level(side, level);
        }
    }
}

/// "Computer (blue) is playing…", "Your decision (red)", "Hot seat: blue to play — …".
fn whose_turn(s: &PlaySession) -> RichText {
    if s.engine.state().finished {
        return RichText::new("Game over");
    }
    if !s.rules_said_whose_turn() {
        return RichText::new("The rules are working out whose decision it is…");
    }
    let Some(side) = s.deciding_side() else {
        if s.computer_to_move() {
            return RichText::new("Computer is playing… (no side decides this step)")
                .color(Color32::from_rgb(150, 200, 255));
        }
        return RichText::new("No side decides this step: take its choice from the Choices list");
    };
    if s.computer_to_move() {
        let what = match s.seats.pace {
            // it waits after an error until a person lets it try again
            _ if s.seats.stopped.is_some() => "stopped (Step lets it try again)",
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
