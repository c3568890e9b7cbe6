//! The play-test panel (right side in play-test mode): the phase, the selected stack and where
//! it can go, the attack being declared with its odds, the choices the rules offer (listed by
//! `choices.rs`), refusals with their rule cases, and the game's file.

use crate::map_view::MapView;
use crate::play::campaign::CampaignRun;
use crate::play::{reason_text, Interaction, PlayCommand, PlaySession};
use egui::{Color32, RichText, Sense, Ui, Vec2};
use kessel_core::action::{Action, Reason};
use kessel_core::state::Unit;
use kessel_draw::MapStyle;

/// Red used for refusals and errors.
pub const REFUSAL: Color32 = Color32::from_rgb(240, 95, 85);
/// Lists of one kind longer than this start collapsed.
pub(crate) const LONG_LIST: usize = 8;

/// The play-test panel.
#[derive(Clone, Debug, Default)]
pub struct PlayPanel {}

impl PlayPanel {
    /// What the ruleset's one-unit queries (supply, MP left, …) say about each picked unit,
    /// folded (asked with the selection's reach, on the rules' thread).
    fn unit_queries_ui(&mut self, ui: &mut Ui, s: &PlaySession) {
        if s.selected.is_none() || s.picked.is_empty() {
            return;
        }
        // worked out with the reach, on the rules' thread
        let Some(per_unit) = &s.unit_answers else {
            return;
        };
        for (id, answers) in per_unit {
            let answers = match answers {
                Ok(a) if a.is_empty() => continue,
                Ok(a) => a,
                Err(e) => {
                    ui.label(
                        RichText::new(format!("The rules' queries failed: {e}")).color(REFUSAL),
                    );
                    continue;
                }
            };
            let name = s.units.get(id).map_or(id.as_str(), |u| u.name.as_str());
            egui::CollapsingHeader::new(format!("What the rules say about {name}"))
                .id_salt(("unit-queries", id))
                .show(ui, |ui| {
                    super::game_queries::answers_ui(ui, answers, str::to_string)
                });
        }
    }

    /// Draws the panel; game changes go to `cmds`, selection changes straight to the session.
    fn show(
        &mut self,
        ui: &mut Ui,
        s: &mut PlaySession,
        cx: (&MapStyle, Option<&CampaignRun>, &mut MapView, &str),
        cmds: &mut Vec<PlayCommand>,
    ) {
        let (style, campaign, view, notes) = cx;
        s.preview.clear();
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.heading("Play-test");
                if let Some(run) = campaign {
                    super::campaign::campaign_ui(ui, run, s, cmds);
                }
                header_ui(ui, s, cmds);
                // the scenario's notes for players (the learning scenario's lesson, turn by
                // turn, and how it is won) were shown only as a text field in scenario editing
                if !notes.trim().is_empty() {
                    egui::CollapsingHeader::new("Scenario notes")
                        .id_salt("play scenario notes")
                        .show(ui, |ui| {
                            ui.label(notes.trim());
                        });
                }
                super::players::players_ui(ui, s, view);
                // while the computer decides, a person's tools wait
                ui.add_enabled_ui(!s.computer_to_move(), |ui| {
                    self.tools_ui(ui, s, (style, view), cmds)
                });
                super::game_queries::game_queries_ui(ui, s);
                ui.separator();
                super::game_file::game_file_ui(ui, s, cmds);
            });
    }

    fn tools_ui(
        &mut self,
        ui: &mut Ui,
        s: &mut PlaySession,
        (style, view): (&MapStyle, &mut MapView),
        cmds: &mut Vec<PlayCommand>,
    ) {
        if let Some(r) = &s.refusal {
            ui.separator();
            egui::Frame::group(ui.style())
                .stroke(egui::Stroke::new(1.5, REFUSAL))
                .show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    ui.label(
                        RichText::new(format!("Refused: {}", r.what))
                            .color(REFUSAL)
                            .strong(),
                    );
                    for reason in &r.reasons {
                        ui.label(format!("• {}", reason_text(reason)));
                    }
                });
        }
        if let Some(e) = &s.error {
            ui.separator();
            ui.label(RichText::new(format!("The rules failed: {e}")).color(REFUSAL));
        }
        ui.separator();
        if s.engine.state().finished {
            // how it ended, then what is left to do (no stack to click, no attack to declare)
            match &s.outcome {
                Some(Ok(text)) => {
                    ui.label(RichText::new(format!("Result: {text}")).strong());
                }
                Some(Err(e)) => {
                    ui.label(
                        RichText::new(format!("The rules' result failed: {e}")).color(REFUSAL),
                    );
                }
                None => {}
            }
            ui.label(s.over_help());
            return;
        }
        match s.interaction {
            Interaction::Move => {
                selection_ui(ui, s, style, view);
                self.unit_queries_ui(ui, s);
            }
            Interaction::Attack => attack_ui(ui, s, cmds),
        }
        ui.separator();
        super::choices::choices_ui(ui, s, cmds);
    }
}

fn header_ui(ui: &mut Ui, s: &mut PlaySession, cmds: &mut Vec<PlayCommand>) {
    // the buttons come before the lines saying where the game is: those lines wrap or not and a
    // decision's prompt comes and goes, and below them Undo action moved at every step (a row of
    // clicks taking back a game hit the text it had moved to)
    ui.horizontal(|ui| {
        let can_undo = s.in_progress();
        let hover = match s.undo_takes_anothers() {
            Some(side) => format!(
                "Take back the last action, the {side}'s (Ctrl+Z): in hot seat you are asked first"
            ),
            None => "Take back the last action (Ctrl+Z)".to_string(),
        };
        if ui
            .add_enabled(can_undo, egui::Button::new("Undo action"))
            .on_hover_text(hover)
            .clicked()
        {
            cmds.push(PlayCommand::Undo);
        }
        let has_end = s
            .engine
            .ruleset()
            .actions
            .iter()
            .any(|a| a.kind == "end_phase");
        if has_end {
            // Once the rules have listed the choices for the game as it stands, the button is
            // live only when they offer an end of phase; while they are still listing (or could
            // not list) a click is tried like any action and a refusal says why.
            let listed = match &s.actions {
                Ok(a) if s.rules_said_whose_turn() => Some(a.iter().any(|a| a.kind == "end_phase")),
                _ => None,
            };
            let offered = listed.unwrap_or(true);
            let button = ui.add_enabled(offered, egui::Button::new("End phase"));
            let button = if offered {
                button.on_hover_text("End the current phase and go on to the next")
            } else {
                // why not, in the rules' words: "take a choice first" left a player on the first
                // turn guessing which of forty units still had to move [5.2] [7.1] (asked only
                // while the pointer rests on the button)
                button.on_disabled_hover_ui(|ui| match s.pending_prompt() {
                    Some(p) => {
                        ui.label(format!(
                            "The phase can't end yet: the rules wait for a decision — {p}"
                        ));
                    }
                    None => end_phase_blockers_ui(ui, &s.end_phase_blockers()),
                })
            };
            if button.clicked() {
                cmds.push(PlayCommand::Act(Action::new("end_phase")));
            }
        }
    });
    undo_consent_ui(ui, s, cmds);
    ui.label(RichText::new(s.phase_text()).strong());
    if let Some(p) = s.pending_prompt() {
        ui.label(
            RichText::new(format!("Waiting for a decision — {p}"))
                .color(Color32::from_rgb(250, 200, 60)),
        );
    }
    // a step whose listed choices neither move a unit nor attack (a set-up, a Refit Phase step)
    // has no use for the Move/Attack switch: it offered two clicks that did nothing there. It is
    // greyed out, not taken away, so the panel below does not jump from step to step.
    let listed = s.rules_said_whose_turn() && s.actions.is_ok();
    let attacks = (s.actions.iter().flatten()).any(|a| a.kind == "attack");
    let idle = listed && !s.moving && !attacks && s.interaction == Interaction::Move;
    let row = ui.add_enabled_ui(!idle, |ui| clicks_ui(ui, s)).response;
    if idle {
        row.on_disabled_hover_text(NO_MOVE_NOR_ATTACK);
    }
}

/// In hot seat, before an action of the other side's is taken back: whose it is and what it
/// did, and the two ways on (a player could take back the other's roll unasked).
fn undo_consent_ui(ui: &mut Ui, s: &mut PlaySession, cmds: &mut Vec<PlayCommand>) {
    if !s.confirm_undo {
        return;
    }
    let Some(side) = s.undo_takes_anothers() else {
        // the game moved on since (or the players changed): nothing of the other's to ask about
        s.confirm_undo = false;
        return;
    };
    let what = (s.log.last()).map_or_else(String::new, |e| s.describe(&e.action));
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(1.5, Color32::from_rgb(250, 200, 60)))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(format!(
                "The last action ({what}) was the {side}'s, not yours: {UNDO_ANOTHERS}"
            ));
            ui.horizontal(|ui| {
                if ui.button(TAKE_IT_BACK).clicked() {
                    cmds.push(PlayCommand::Undo);
                }
                if ui.button("Keep it").clicked() {
                    s.confirm_undo = false;
                }
            });
        });
}

/// Ends the question asked before an action of the other side's is taken back in hot seat.
pub const UNDO_ANOTHERS: &str = "take it back only if both players agree.";
/// The button that takes back the other side's action in hot seat.
pub const TAKE_IT_BACK: &str = "Take it back";

/// Most reasons the End phase button's hover lists; the rest are counted.
const BLOCKERS_SHOWN: usize = 6;

fn end_phase_blockers_ui(ui: &mut Ui, why: &[Reason]) {
    if why.is_empty() {
        ui.label(END_PHASE_NOT_OFFERED);
        return;
    }
    ui.label(format!("{END_PHASE_REFUSED}:"));
    for r in why.iter().take(BLOCKERS_SHOWN) {
        ui.label(format!("• {}", reason_text(r)));
    }
    if why.len() > BLOCKERS_SHOWN {
        ui.label(format!("… and {} more", why.len() - BLOCKERS_SHOWN));
    }
}

/// On the greyed-out End phase button when the rules give no reason.
pub const END_PHASE_NOT_OFFERED: &str =
    "The rules don't offer the end of the phase now: take one of the choices below first";
/// Leads the rules' reasons on the greyed-out End phase button.
pub const END_PHASE_REFUSED: &str = "The phase can't end yet";

/// On the greyed-out Move/Attack switch.
pub const NO_MOVE_NOR_ATTACK: &str =
    "Move and Attack have nothing to do in this step: take its choices from the list below (or click a stack, then a marked hex)";

fn clicks_ui(ui: &mut Ui, s: &mut PlaySession) {
    ui.horizontal(|ui| {
        ui.label("Clicks:");
        if ui
            .selectable_value(&mut s.interaction, Interaction::Move, "Move")
            .changed()
        {
            s.refresh();
        }
        if ui
            .selectable_value(&mut s.interaction, Interaction::Attack, "Attack")
            .changed()
        {
            s.refresh();
        }
    });
}

fn selection_ui(ui: &mut Ui, s: &mut PlaySession, style: &MapStyle, view: &mut MapView) {
    let Some(hex) = s.selected else {
        let listed = s.rules_said_whose_turn() && s.actions.as_ref().is_ok_and(|a| !a.is_empty());
        if listed && (!s.moving || s.pending_prompt().is_some()) {
            // a step that moves no unit (a set-up's placements, markers, a roll): what its
            // choices are, not how to move a stack
            ui.label(s.click_help().as_ref());
            return;
        }
        ui.label("Click a stack to see where it can go; click a shaded hex to move it there. Hover any hex to see why the stack can't go there.");
        let due = s.waiting_count();
        if due > 0 && s.interaction == Interaction::Move {
            ui.label(format!(
                "{} waiting to enter: click their entry area on the map (its badge shows how many).",
                crate::words::count(due, "reinforcement")
            ));
            // the entry area may be off the part of the map in view
            let show = ui
                .button("Show them")
                .on_hover_text("Bring their entry area into view and pick them");
            if let (true, Some(h)) = (show.clicked(), s.first_waiting_hex()) {
                s.select(h);
                view.reveal_on_next_frame(h);
            }
        }
        return;
    };
    let label = s.engine.state().map.label(hex);
    let waiting = s.picked_waiting();
    let mut units: Vec<Unit> = if waiting {
        ui.label(RichText::new(format!("Reinforcements waiting to enter at {label}")).strong());
        (s.waiting_at(hex).iter())
            .filter_map(|id| s.units.get(id).cloned())
            .collect()
    } else {
        ui.label(RichText::new(format!("Stack in {label}")).strong());
        s.units.stack(hex).cloned().collect()
    };
    // top of the stack first, as a player lifts counters off it
    if !waiting {
        units.reverse();
    }
    let mut toggle = None;
    for u in &units {
        if super::unit_row::unit_row(ui, style, u, s.picked.contains(&u.id)) {
            toggle = Some(u.id.clone());
        }
    }
    if let Some(id) = toggle {
        s.toggle_picked(&id);
    }
    match &s.reach {
        None => {}
        Some(Err(e)) => {
            ui.label(
                RichText::new(format!("Could not work out where it can go: {e}")).color(REFUSAL),
            );
        }
        Some(Ok(r)) => {
            // in a step where no unit moves (a combat phase) or while the rules wait for a
            // decision (a retreat's path, an advance: no move is taken then) every stack
            // clicked was told in red that units move only in a Movement Phase: noise beside
            // the choices, whose hexes are marked on the map
            let nothing_moves = s.rules_said_whose_turn()
                && s.actions.is_ok()
                && (!s.moving || s.pending_prompt().is_some());
            for text in refusal_lines(s, &r.refused) {
                if !nothing_moves {
                    ui.label(RichText::new(text).color(REFUSAL));
                }
            }
            let n = r.costs.len();
            let source = if r.by_rules {
                "costs by the ruleset's movement rules"
            } else {
                "from the rules' list of moves; costs from the terrain chart"
            };
            if n > 0 {
                ui.label(format!(
                    "{} reachable ({source})",
                    crate::words::count_as(n, "hex", "hexes")
                ));
            } else if r.refused.is_empty() {
                // a step whose choices put units on hexes by choices of their own (a set-up, a
                // move of a hex by a choice) marks those hexes: "no hex" would deny the rings
                let marked: std::collections::BTreeSet<_> =
                    s.choices_on_map().into_iter().map(|(h, _)| h).collect();
                if let Some(why) = &r.none_because {
                    ui.label(
                        RichText::new(format!("No hex is reachable: {}", reason_text(why)))
                            .color(REFUSAL),
                    );
                } else if marked.is_empty() {
                    ui.label("No hex is reachable.");
                } else {
                    ui.label(format!(
                        "No move; the choices of the selection lead to {} marked on the map: click one to take it.",
                        crate::words::count_as(marked.len(), "hex", "hexes")
                    ));
                }
            }
        }
    }
    if let Some(h) = s.hovered_text().filter(|h| !repeats_a_refusal(s, h)) {
        ui.label(RichText::new(h).italics());
    }
}

/// One line per reason a unit of the selection can't move. Units refused for the same reason
/// share its line (a stack of six rifles waiting for the set-up to end gave six lines saying the
/// same): up to three by name, then the first two and how many others. A reason that names its
/// unit already is not led by the unit's name again, and stays a line of its own.
fn refusal_lines(s: &PlaySession, refused: &[(String, Reason)]) -> Vec<String> {
    // (reason, names of the units it stops; none for a reason naming its unit)
    let mut lines: Vec<(String, Vec<&str>)> = Vec::new();
    for (id, why) in refused {
        let name = s.units.get(id).map_or(id.as_str(), |u| u.name.as_str());
        let named = |n: &str| !n.is_empty() && why.message.contains(n);
        let reason = reason_text(why);
        if named(id) || named(name) {
            lines.push((format!("Can't move: {reason}"), Vec::new()));
            continue;
        }
        match lines
            .iter_mut()
            .find(|(r, names)| !names.is_empty() && *r == reason)
        {
            Some((_, names)) => names.push(name),
            None => lines.push((reason, vec![name])),
        }
    }
    lines
        .into_iter()
        .map(|(reason, names)| match names.as_slice() {
            [] => reason,
            [one] => format!("{one} can't move: {reason}"),
            few if few.len() <= 3 => format!("{} can't move: {reason}", few.join(", ")),
            [a, b, rest @ ..] => format!("{a}, {b} and {} others can't move: {reason}", rest.len()),
        })
        .collect()
}

/// The pointer's explanation only repeats a refusal the panel lists already: no unit of the
/// selection may move, and the rules give the reason why one of them may not for every hex.
fn repeats_a_refusal(s: &PlaySession, hovered: &str) -> bool {
    matches!(&s.reach, Some(Ok(r)) if r.movers.is_empty()
        && r.refused.iter().any(|(_, why)| hovered.ends_with(&reason_text(why))))
}

fn attack_ui(ui: &mut Ui, s: &mut PlaySession, cmds: &mut Vec<PlayCommand>) {
    ui.label(RichText::new("Attack").strong());
    if s.attackers.is_empty() {
        ui.label("Click your stacks to add attackers, then an enemy stack to pick the target (click again to drop it).");
    }
    let attackers: Vec<Unit> = s
        .attackers
        .iter()
        .filter_map(|id| s.units.get(id).cloned())
        .collect();
    let mut toggle = None;
    // one line per attacker, so the odds stay in view with a dozen of them
    for u in &attackers {
        let face = u.face().map(|f| format!(" {f}")).unwrap_or_default();
        let mut on = true;
        let text = format!("{} ({}){face}", u.name, u.kind.replace('_', " "));
        if ui.checkbox(&mut on, text).changed() {
            toggle = Some(u.id.clone());
        }
    }
    if let Some(id) = toggle {
        s.toggle_attacker(&id);
    }
    if !s.targets.is_empty() {
        let map = s.engine.state().map.clone();
        let labels: Vec<String> = s.targets.iter().map(|h| map.label(*h)).collect();
        ui.label(format!("Target: {}", labels.join(" + ")));
    }
    match &s.odds {
        None => {}
        Some(Err(e)) => {
            ui.label(RichText::new(format!("No odds: {e}")).color(REFUSAL));
        }
        Some(Ok(o)) => {
            ui.label(
                RichText::new(format!(
                    "Attack {} vs defence {}: odds {} on {}",
                    o.attack, o.defence, o.label, o.table
                ))
                .strong(),
            );
            if let Some(edge) = &o.edge {
                ui.label(edge);
            }
            if o.hidden > 0 {
                ui.label(
                    RichText::new(if o.hidden == 1 {
                        "1 face-down unit takes part: its strength is unknown until the attack reveals it, so the odds may change".to_string()
                    } else {
                        format!(
                            "{} take part: their strengths are unknown until the attack reveals them, so the odds may change",
                            crate::words::count(o.hidden, "face-down unit")
                        )
                    })
                    .color(Color32::from_rgb(250, 200, 60)),
                );
            }
            for m in &o.modifiers {
                ui.label(format!("• {}", reason_text(m)));
            }
            egui::Grid::new("odds_distribution")
                .striped(true)
                .show(ui, |ui| {
                    for (code, p) in &o.distribution {
                        ui.label(code);
                        ui.label(format!("{:>5.1}%", p * 100.0));
                        let (rect, _) =
                            ui.allocate_exact_size(Vec2::new(120.0, 10.0), Sense::hover());
                        let mut bar = rect;
                        bar.set_width(rect.width() * *p as f32);
                        ui.painter().rect_filled(rect, 2.0, Color32::from_gray(60));
                        ui.painter()
                            .rect_filled(bar, 2.0, Color32::from_rgb(90, 160, 230));
                        ui.end_row();
                    }
                });
        }
    }
    ui.horizontal(|ui| {
        let action = s.attack_action();
        if ui
            .add_enabled(action.is_some(), egui::Button::new("Roll"))
            .on_hover_text("Declare the attack: the rules check it, roll and apply the result")
            .clicked()
        {
            if let Some(a) = action {
                cmds.push(PlayCommand::Act(a));
            }
        }
        if ui.button("Clear").clicked() {
            s.clear_selection();
        }
    });
}

impl super::Panel for PlayPanel {
    /// The play-test panel (nothing without a game: the app says why there is none).
    fn ui(&mut self, ui: &mut Ui, cx: &mut super::PanelCx<'_>) {
        if let Some(s) = cx.session.as_deref_mut() {
            let notes = cx
                .doc
                .scenario
                .as_ref()
                .map_or("", |d| d.meta.notes.as_str());
            self.show(
                ui,
                s,
                (cx.style, cx.campaign, &mut *cx.view, notes),
                cx.play,
            );
        }
    }
}
