//! The event log (bottom panel in play-test mode): each accepted action with the notes its rules
//! wrote, each citing its rule case, and the other events behind a fold.

use crate::play::queries::describe_action;
use egui::{Color32, RichText, Ui};
use kessel_core::event::{Event, LogEntry};
use kessel_core::map::Map;
use kessel_core::state::Location;

/// The log panel.
#[derive(Clone, Debug, Default)]
pub struct LogPanel {}

/// One event in words (notes are shown on their own, with their rule).
pub fn describe_event(map: &Map, e: &Event) -> String {
    match e {
        Event::Located { unit, to } => match to {
            Location::Map(h) => format!("{unit} placed in {}", map.label(*h)),
            Location::Pending => format!("{unit} waits off the map"),
            Location::Eliminated => format!("{unit} eliminated"),
            Location::Removed => format!("{unit} removed from the game"),
        },
        Event::Moved { unit, path, cost } => {
            let p: Vec<String> = path.iter().map(|h| map.label(*h)).collect();
            format!("{unit} moves {} ({cost} MP)", p.join("-"))
        }
        Event::StepSet { unit, step } => format!("{unit} has lost {step} step(s)"),
        Event::Revealed { unit, face } => format!("{unit} revealed: {face}"),
        Event::UnitFlag { unit, flag, on } => {
            format!("{unit}: {flag} {}", if *on { "set" } else { "cleared" })
        }
        Event::UnitVar { unit, key, value } => match value {
            Some(v) => format!("{unit}: {key} = {v}"),
            None => format!("{unit}: {key} cleared"),
        },
        Event::FlagsCleared { flag, side } => match side {
            Some(s) => format!("{flag} cleared from {s}'s units"),
            None => format!("{flag} cleared from every unit"),
        },
        Event::UnitVarsCleared { key } => format!("{key} cleared from every unit"),
        Event::MarkerMoved { marker, hex } => match hex {
            Some(h) => format!("marker {marker} to {}", map.label(*h)),
            None => format!("marker {marker} off the map"),
        },
        Event::Var { key, value } => match value {
            Some(v) => {
                let mut t = v.to_string();
                if t.len() > 80 {
                    t = format!("{}…", t.chars().take(80).collect::<String>());
                }
                format!("{key} = {t}")
            }
            None => format!("{key} cleared"),
        },
        Event::Clock {
            turn,
            phase,
            finished,
        } => format!(
            "clock: turn {turn}, step {phase}{}",
            if *finished { ", game over" } else { "" }
        ),
        Event::Dice { purpose, rolls, .. } => {
            let r: Vec<String> = rolls.iter().map(u32::to_string).collect();
            format!("dice for {purpose}: {}", r.join(", "))
        }
        Event::Note { rule, text } => match rule {
            Some(r) => format!("[{r}] {text}"),
            None => text.clone(),
        },
        Event::UnitCreated { unit } => {
            format!("{} ({}, {}) comes into play", unit.id, unit.kind, unit.side)
        }
        Event::UnitChanged { unit } => {
            format!("{} is now a {} of {}", unit.id, unit.kind, unit.side)
        }
        Event::MarkerCreated { marker } => {
            format!("marker {} ({}) comes into play", marker.id, marker.kind)
        }
        Event::MarkerChanged { marker } => match (&marker.value, marker.other) {
            (Some(v), _) => format!("marker {} now {v}", marker.id),
            (None, Some(o)) => format!("marker {} on the side to {}", marker.id, map.label(o)),
            (None, None) => format!("marker {} changed", marker.id),
        },
        Event::TerrainSet { hex, terrain } => format!("{} is now {terrain}", map.label(*hex)),
        Event::HexsideSet {
            hex,
            other,
            kind,
            on,
        } => format!(
            "{kind} {} between {} and {}",
            if *on { "added" } else { "taken off" },
            map.label(*hex),
            map.label(*other)
        ),
        Event::HexTagged { hex, tag, on } => format!(
            "{} {} tag {tag}",
            map.label(*hex),
            if *on { "gets" } else { "loses" }
        ),
    }
}

impl LogPanel {
    /// Draws the log, newest entry at the bottom (the view follows it).
    fn show(&mut self, ui: &mut Ui, map: &Map, log: &[LogEntry]) {
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!("Event log ({} actions)", log.len())).strong());
        });
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .stick_to_bottom(true)
            .show(ui, |ui| {
                if log.is_empty() {
                    ui.label("No action taken yet.");
                }
                for (i, entry) in log.iter().enumerate() {
                    ui.label(
                        RichText::new(format!("{}. {}", i + 1, describe_action(&entry.action)))
                            .strong(),
                    );
                    for e in &entry.events {
                        if let Event::Note { rule, text } = e {
                            let rule = rule.as_deref().unwrap_or("—");
                            ui.horizontal_wrapped(|ui| {
                                ui.label(
                                    RichText::new(format!("[{rule}]"))
                                        .monospace()
                                        .color(Color32::from_rgb(120, 180, 250)),
                                );
                                ui.label(text);
                            });
                        }
                    }
                    let others: Vec<&Event> = entry
                        .events
                        .iter()
                        .filter(|e| !matches!(e, Event::Note { .. }))
                        .collect();
                    if !others.is_empty() {
                        egui::CollapsingHeader::new(format!("{} events", others.len()))
                            .id_salt(("log", i))
                            .show(ui, |ui| {
                                for e in others {
                                    ui.small(describe_event(map, e));
                                }
                            });
                    }
                }
            });
    }
}

impl super::Panel for LogPanel {
    /// The game's log (nothing without a game).
    fn ui(&mut self, ui: &mut Ui, cx: &mut super::PanelCx<'_>) {
        if let Some(s) = cx.session.as_deref() {
            self.show(ui, &s.map, &s.log);
        }
    }
}
