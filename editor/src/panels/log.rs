//! The event log (bottom panel in play-test mode): each accepted action with the notes its rules
//! wrote, each citing its rule case, its records (`kessel.emit.record`: a combat's strengths,
//! modifiers, odds, roll and result) as labelled fields, and the other events behind a fold.

use crate::play::queries::describe_action_named;
use egui::{Color32, RichText, Ui};
use kessel_core::event::{Event, LogEntry};
use kessel_core::map::Map;
use kessel_core::state::Location;
use std::collections::{BTreeMap, BTreeSet};

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
        Event::StepSet { unit, step } => format!(
            "{unit} has lost {}",
            crate::words::count(*step as usize, "step")
        ),
        Event::Revealed { unit, face } => format!("{unit} revealed: {face}"),
        Event::Concealed { unit, pool, face } => {
            format!("{unit} turned face down: {face} back into pool {pool}")
        }
        Event::UnitFlag { unit, flag, on } => {
            format!("{unit}: {flag} {}", if *on { "set" } else { "cleared" })
        }
        Event::UnitVar {
            unit, key, value, ..
        } => match value {
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
        Event::Var { key, value, .. } => match value {
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
        Event::Mode { mode } => match mode {
            Some(m) => format!("sequence of play: `{m}`"),
            None => "sequence of play: the main one".to_string(),
        },
        Event::Dice { purpose, rolls, .. } => {
            let r: Vec<String> = rolls.iter().map(u32::to_string).collect();
            format!("dice for {purpose}: {}", r.join(", "))
        }
        Event::Note { rule, text, .. } => match rule {
            Some(r) => format!("[{r}] {}", note_text(r, text)),
            None => text.clone(),
        },
        Event::Record {
            kind, rule, fields, ..
        } => {
            let lines = record_lines(fields).join("; ");
            match rule {
                Some(r) => format!("[{r}] {kind}: {lines}"),
                None => format!("{kind}: {lines}"),
            }
        }
        Event::CampaignEnded { rule, text } => match rule {
            Some(r) => format!("[{r}] the campaign ends with this game: {text}"),
            None => format!("the campaign ends with this game: {text}"),
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
        Event::UnitHidden { unit, side, on } => {
            format!(
                "{unit} {} {side}",
                if *on { "hidden from" } else { "shown to" }
            )
        }
        Event::MarkerHidden { marker, side, on } => {
            format!(
                "marker {marker} {} {side}",
                if *on { "hidden from" } else { "shown to" }
            )
        }
        Event::Committed { commitment } => {
            format!("{} commits `{}`", commitment.side, commitment.id)
        }
        Event::Opened { commitments } => {
            let parts: Vec<String> = commitments
                .iter()
                .map(|c| format!("{} ({}): {}", c.id, c.side, c.choice))
                .collect();
            format!("opened: {}", parts.join("; "))
        }
        Event::Withheld { kind } => format!("({kind}: withheld)"),
    }
}

/// A record's fields as `name: value` lines, in the order of their names: lists joined with
/// commas, `{rule, message}` items (modifiers) as "message [rule]", other tables as JSON.
pub fn record_lines(fields: &kessel_core::state::Value) -> Vec<String> {
    use kessel_core::state::Value;
    fn item(v: &Value) -> String {
        match v {
            Value::String(s) => s.clone(),
            Value::Array(a) => a.iter().map(item).collect::<Vec<_>>().join(", "),
            Value::Object(o) if o.is_empty() => "none".to_string(),
            Value::Object(o) => match (o.get("message"), o.get("rule")) {
                (Some(Value::String(m)), Some(Value::String(r))) => format!("{m} [{r}]"),
                (Some(Value::String(m)), _) => m.clone(),
                _ => compact(o),
            },
            other => other.to_string(),
        }
    }
    // any other table in words, not JSON (the score's objectives read
    // `{"hexes":[{"hex":"0412","side":"blue"}],"name":"Mill","vp":10}`): led by its `name`,
    // then each field; a table of plain values is its values ("0412 blue")
    fn compact(o: &serde_json::Map<String, Value>) -> String {
        let plain = o.values().all(|v| !v.is_array() && !v.is_object());
        let rest = o.iter().filter(|(k, _)| k.as_str() != "name" || plain);
        let parts: Vec<String> = if plain {
            rest.map(|(_, v)| item(v)).collect()
        } else {
            rest.map(|(k, v)| format!("{} {}", k.replace('_', " "), item(v)))
                .collect()
        };
        match (o.get("name"), plain) {
            (Some(Value::String(n)), false) => format!("{n}: {}", parts.join("; ")),
            _ => parts.join(if plain { " " } else { "; " }),
        }
    }
    match fields {
        Value::Object(o) => o
            .iter()
            .map(|(k, v)| {
                let text = match v {
                    Value::Array(a) if a.is_empty() => "none".to_string(),
                    Value::Array(a) if a.iter().any(Value::is_object) => {
                        a.iter().map(item).collect::<Vec<_>>().join("; ")
                    }
                    other => item(other),
                };
                format!("{}: {text}", k.replace('_', " "))
            })
            .collect(),
        other => vec![item(other)],
    }
}

/// A note's text without the rule case it starts with, when it does: the log shows the case
/// beside it already.
pub fn note_text<'a>(rule: &str, text: &'a str) -> &'a str {
    text.strip_prefix(&format!("[{rule}]"))
        .map_or(text, str::trim_start)
}

/// What the log reads events with: the map (hex labels), the named sequences' titles and the
/// ruleset (the steps' names).
type Look<'a> = (
    &'a Map,
    &'a BTreeMap<String, String>,
    &'a kessel_core::ruleset::Ruleset,
    &'a BTreeMap<String, String>,
);

/// A unit's name for the log and the choices, when it has one of its own: "29 Pz Rgt (12 Pz)",
/// the formation added when the name does not hold it. A face-down counter with no printed name
/// is named by what its back shows, "rifle (face down, 24 Army)", never by its scenario id: the
/// id tells one division from another, which its owner's opponent may not know (and `kessel
/// view` names no face). `None` for a face-up unit with no name of its own.
pub fn unit_log_name(u: &kessel_core::state::Unit) -> Option<String> {
    let unnamed = u.name.is_empty() || u.name == u.id;
    if u.hidden && unnamed {
        let kind = u.kind.replace('_', " ");
        return Some(match u.formation.as_deref().filter(|f| !f.is_empty()) {
            Some(f) => format!("{kind} (face down, {f})"),
            None => format!("{kind} (face down)"),
        });
    }
    if unnamed {
        return None;
    }
    Some(match &u.formation {
        Some(f) if !f.is_empty() && !u.name.contains(f.as_str()) => format!("{} ({f})", u.name),
        _ => u.name.clone(),
    })
}

/// Where an entry's action left the game, when it moved the clock: "Turn 1 · Red Combat
/// Phase" (a game record read "95. end phase" and nothing of the phase it led to: that was
/// folded among the events as "clock: turn 1, step 5"). `mode` is the sequence being walked,
/// followed through the log.
pub fn clock_heading(
    ruleset: &kessel_core::ruleset::Ruleset,
    mode: &mut Option<String>,
    events: &[Event],
) -> Option<String> {
    let mut heading = None;
    for e in events {
        match e {
            Event::Mode { mode: m } => *mode = m.clone(),
            Event::Clock {
                turn,
                phase,
                finished,
            } => {
                let step = ruleset
                    .step_in(mode.as_deref(), *phase)
                    .map_or_else(|| format!("step {phase}"), |s| s.name.clone());
                heading = Some(if *finished {
                    format!("Turn {turn} · {step} · game over")
                } else {
                    format!("Turn {turn} · {step}")
                });
            }
            _ => {}
        }
    }
    heading
}

impl LogPanel {
    /// Draws the log, newest entry at the bottom (the view follows it).
    fn show(&mut self, ui: &mut Ui, look: Look<'_>, log: &[LogEntry], computer: &BTreeSet<usize>) {
        let (map, titles, ruleset, names) = look;
        let name = |id: &str| names.get(id).cloned();
        let mut mode: Option<String> = None;
        ui.horizontal(|ui| {
            ui.label(
                RichText::new(format!(
                    "Event log ({})",
                    crate::words::count(log.len(), "action")
                ))
                .strong(),
            );
        });
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .stick_to_bottom(true)
            .show(ui, |ui| {
                if log.is_empty() {
                    ui.label("No action taken yet.");
                }
                for (i, entry) in log.iter().enumerate() {
                    // the computer's moves say so, so a person can follow what it did and why
                    let who = if computer.contains(&i) {
                        "computer: "
                    } else {
                        ""
                    };
                    ui.label(
                        RichText::new(format!(
                            "{}. {who}{}",
                            i + 1,
                            describe_action_named(&entry.action, &name)
                        ))
                        .strong(),
                    );
                    for (j, e) in entry.events.iter().enumerate() {
                        match e {
                            Event::Note { rule, text, .. } => {
                                let rule = rule.as_deref().unwrap_or("—");
                                // the case shows once: a ruleset that starts its text with it
                                // (asl-cg's) read "[11.602] [11.602] Refit Phase begins"
                                let text = note_text(rule, text);
                                ui.horizontal_wrapped(|ui| {
                                    ui.label(
                                        RichText::new(format!("[{rule}]"))
                                            .monospace()
                                            .color(Color32::from_rgb(120, 180, 250)),
                                    );
                                    ui.label(text);
                                });
                            }
                            Event::Record {
                                kind, rule, fields, ..
                            } => {
                                let rule = rule.as_deref().unwrap_or("—");
                                egui::CollapsingHeader::new(format!("[{rule}] {kind} record"))
                                    .id_salt(("record", i, j))
                                    .show(ui, |ui| {
                                        for line in record_lines(fields) {
                                            ui.small(line);
                                        }
                                    });
                            }
                            _ => {}
                        }
                    }
                    let others: Vec<&Event> = entry
                        .events
                        .iter()
                        .filter(|e| !matches!(e, Event::Note { .. } | Event::Record { .. }))
                        .collect();
                    let heading = clock_heading(ruleset, &mut mode, &entry.events);
                    if !others.is_empty() {
                        egui::CollapsingHeader::new(crate::words::count(others.len(), "event"))
                            .id_salt(("log", i))
                            .show(ui, |ui| {
                                for e in others {
                                    ui.small(match e {
                                        // a named sequence by the title the rules give it
                                        Event::Mode { mode: Some(m) } => match titles.get(m) {
                                            Some(t) => format!("sequence of play: {t} (`{m}`)"),
                                            None => describe_event(map, e),
                                        },
                                        _ => describe_event(map, e),
                                    });
                                }
                            });
                    }
                    if let Some(h) = heading {
                        ui.label(
                            RichText::new(format!("— {h} —"))
                                .color(Color32::from_rgb(250, 200, 60)),
                        );
                    }
                }
            });
    }
}

impl super::Panel for LogPanel {
    /// The game's log (nothing without a game).
    fn ui(&mut self, ui: &mut Ui, cx: &mut super::PanelCx<'_>) {
        if let Some(s) = cx.session.as_deref() {
            let titles: BTreeMap<String, String> = (s.engine.ruleset().modes.iter())
                .map(|(name, n)| (name.clone(), n.title_of(name)))
                .collect();
            let ruleset = s.engine.ruleset();
            // the units as the side at the screen sees them, a face-down counter by its back
            let names: BTreeMap<String, String> = (s.units.all().iter())
                .filter_map(|u| Some((u.id.clone(), unit_log_name(u)?)))
                .collect();
            self.show(
                ui,
                (&s.map, &titles, &ruleset, &names),
                &s.log,
                &s.seats.computer_moves,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::record_lines;
    use serde_json::json;

    #[test]
    fn a_note_that_starts_with_its_case_is_shown_without_it() {
        let t = super::note_text;
        assert_eq!(
            t("11.602", "[11.602] Refit Phase begins"),
            "Refit Phase begins"
        );
        assert_eq!(t("9.6", "[9.601] melee"), "[9.601] melee");
        assert_eq!(t("T1", "moves"), "moves");
    }

    #[test]
    fn an_entry_that_moves_the_clock_is_headed_by_the_step_it_leads_to() {
        use kessel_core::event::Event;
        use kessel_core::ruleset::{NamedSequence, Ruleset, Step};
        let step = |id: &str, name: &str| Step {
            id: id.into(),
            name: name.into(),
            side: None,
            rule: None,
        };
        let mut rs = Ruleset {
            sequence: vec![step("a", "Red Movement"), step("b", "Red Combat")],
            ..Ruleset::default()
        };
        rs.modes.insert(
            "refit".into(),
            NamedSequence {
                steps: vec![step("r", "Rally")],
                ..NamedSequence::default()
            },
        );
        let clock = |turn, phase, finished| Event::Clock {
            turn,
            phase,
            finished,
        };
        let mut mode = None;
        let heading =
            |mode: &mut Option<String>, events: &[Event]| super::clock_heading(&rs, mode, events);
        assert_eq!(heading(&mut mode, &[]), None, "no clock, no heading");
        assert_eq!(
            heading(&mut mode, &[clock(1, 0, false), clock(2, 1, false)]).as_deref(),
            Some("Turn 2 · Red Combat"),
            "where the action left the game"
        );
        let into_refit = [
            Event::Mode {
                mode: Some("refit".into()),
            },
            clock(2, 0, false),
        ];
        assert_eq!(
            heading(&mut mode, &into_refit).as_deref(),
            Some("Turn 2 · Rally")
        );
        assert_eq!(
            heading(&mut mode, &[clock(3, 0, true)]).as_deref(),
            Some("Turn 3 · Rally · game over"),
            "the sequence followed through the log"
        );
    }

    #[test]
    fn the_log_names_a_unit_by_its_name_and_formation_but_never_by_a_hidden_id() {
        use kessel_core::state::Unit;
        let unit = |id: &str, name: &str, formation: Option<&str>| {
            let mut u = Unit::new(id, "red", "tank");
            u.name = name.into();
            u.formation = formation.map(str::to_string);
            u
        };
        let name = super::unit_log_name;
        assert_eq!(
            name(&unit("g-12pz-pz", "29 Pz Rgt", Some("12 Pz"))).as_deref(),
            Some("29 Pz Rgt (12 Pz)")
        );
        assert_eq!(
            name(&unit("g-gd", "GD (mot)", Some("GD"))).as_deref(),
            Some("GD (mot)"),
            "the formation is not said twice"
        );
        assert_eq!(name(&unit("s-13a-r4", "s-13a-r4", Some("13 Army"))), None);
        let mut down = unit("s-13a-r4", "s-13a-r4", Some("13 Army"));
        down.hidden = true;
        assert_eq!(
            name(&down).as_deref(),
            Some("tank (face down, 13 Army)"),
            "a face-down counter is named by its back, not its id"
        );
        let a = kessel_core::action::Action::new("move")
            .with("path", json!(["0311", "0312"]))
            .with("units", json!(["g-12pz-pz", "s-x"]));
        let named = crate::play::queries::describe_action_named(&a, &|id| {
            (id == "g-12pz-pz").then(|| "29 Pz Rgt (12 Pz)".to_string())
        });
        assert_eq!(
            named,
            "move · path 0311-0312 · units 29 Pz Rgt (12 Pz), s-x"
        );
        // the word picked reads alone, not as a form's field ("choose · choice loss")
        let choose = kessel_core::action::Action::new("choose")
            .with("choice", "loss")
            .with("units", json!(["g-12pz-pz"]));
        let named = crate::play::queries::describe_action_named(&choose, &|id| {
            (id == "g-12pz-pz").then(|| "29 Pz Rgt (12 Pz)".to_string())
        });
        assert_eq!(named, "choose · loss · units 29 Pz Rgt (12 Pz)");
    }

    #[test]
    fn a_record_reads_as_labelled_lines() {
        let lines = record_lines(&json!({
            "attack": 6, "odds": "3-1", "attackers": ["a", "b"],
            "attack_modifiers": [{"rule": "7.3", "message": "integrity doubles"}],
            "defence_modifiers": {},
        }));
        assert_eq!(
            lines,
            [
                "attack: 6",
                "attack modifiers: integrity doubles [7.3]",
                "attackers: a, b",
                "defence modifiers: none",
                "odds: 3-1",
            ]
        );
        // tables of tables in words, not JSON
        let lines = record_lines(&json!({
            "objectives": [{"name": "Mill", "vp": 10,
                "hexes": [{"hex": "0412", "side": "blue"}, {"hex": "0513"}]}],
        }));
        assert_eq!(lines, ["objectives: Mill: hexes 0412 blue, 0513; vp 10"]);
    }
}
