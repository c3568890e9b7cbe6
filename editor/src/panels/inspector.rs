//! The inspector (right panel): everything about the selected hex, including every unit of the
//! stack in it; with nothing selected, a summary of the document.

use crate::document::Document;
use egui::{RichText, Ui};
use kessel_core::hex::{Hex, HexDir};
use kessel_core::state::Unit;
use kessel_draw::MapStyle;

/// The inspector panel. Stateless for now; it is a struct so it can grow (pinned hexes, edit
/// fields) without changing the app.
#[derive(Clone, Debug, Default)]
pub struct Inspector {}

impl super::Panel for Inspector {
    /// Draws the inspector for the selected hex.
    fn ui(&mut self, ui: &mut Ui, cx: &mut super::PanelCx<'_>) {
        let (doc, style, selected) = (cx.doc, cx.style, cx.selected);
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| match selected {
                Some(hex) if doc.map.contains(hex) => hex_ui(ui, doc, style, hex),
                _ => summary_ui(ui, doc),
            });
    }
}

fn summary_ui(ui: &mut Ui, doc: &Document) {
    ui.heading(&doc.name);
    let map = &doc.map;
    ui.label(format!(
        "Map: {} ({} × {} hexes)",
        map.name,
        map.columns(),
        map.rows()
    ));
    ui.label(format!("Map file: {}", doc.map_path.display()));
    if let Some(p) = &doc.scenario_path {
        ui.label(format!("Scenario: {}", p.display()));
    }
    if let Some(note) = &doc.ruleset_note {
        ui.label(RichText::new(note).color(egui::Color32::from_rgb(230, 170, 60)));
    }
    if let Some(note) = doc.extends_note() {
        ui.label(RichText::new(note).color(egui::Color32::from_rgb(230, 170, 60)));
    }
    if doc.ruleset_dir.is_none() {
        ui.label(
            RichText::new(
                "A map alone: no ruleset says how its terrain and roads look, so they are drawn \
                 in stand-in colours. Open a scenario on this map to see the ruleset's.",
            )
            .weak(),
        );
    }
    let on_map = doc.units.iter().filter(|u| u.hex().is_some()).count();
    ui.label(format!("Units on the map at set-up: {on_map}"));
    // a reinforcement has its turn and area; the rest are placed in a set-up area, or have no
    // place because the file names none the map has (the Problems panel says which)
    let entering = doc.pending_units().filter(|u| u.entry.is_some()).count();
    let unplaced = doc.pending_units().count() - entering;
    ui.label(format!("Units entering later: {entering}"));
    if unplaced > 0 {
        ui.label(format!(
            "Units without a hex yet: {unplaced} (set up in an area, or see Problems)"
        ));
    }
    ui.label(format!(
        "Places: {}, areas: {}, objectives: {}",
        map.places.len(),
        map.areas.len(),
        doc.objectives.len()
    ));
    ui.separator();
    ui.label("Click a hex to inspect it.");
}

pub fn hex_ui(ui: &mut Ui, doc: &Document, style: &MapStyle, hex: Hex) {
    let map = &doc.map;
    ui.heading(format!("Hex {}", map.label(hex)));
    ui.label(format!("Terrain: {}", map.terrain_name(hex).unwrap_or("?")));
    if let Some(place) = map.place_at(hex) {
        ui.label(format!("Place: {} ({})", place.name, place.kind));
    }
    for d in HexDir::ALL {
        let kinds = map.side_kind_names(hex.side(d));
        if !kinds.is_empty() {
            ui.label(format!("{} side: {}", d.name(), kinds.join(", ")));
        }
    }
    for area in map.areas.values().filter(|a| a.hexes.contains(&hex)) {
        ui.label(format!("Area {}: {}", area.id, area.name));
    }
    let tags = map.tags_of(hex);
    if !tags.is_empty() {
        ui.label(format!("Tags: {}", tags.join(", ")));
    }
    for o in doc.objectives_at(hex) {
        let side = o
            .side
            .as_deref()
            .map(|s| format!(" for {s}"))
            .unwrap_or_default();
        ui.label(format!("Objective: {}, {} VP{side}", o.name, o.vp));
    }
    ui.separator();
    let units: Vec<&Unit> = doc.stack(hex).collect();
    if units.is_empty() {
        ui.label("No units");
        return;
    }
    ui.label(RichText::new(format!("Units: {}", units.len())).strong());
    // top of the stack first, as a player lifts counters off it
    for u in units.iter().rev() {
        unit_ui(ui, style, u);
    }
}

fn unit_ui(ui: &mut Ui, style: &MapStyle, u: &Unit) {
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.horizontal(|ui| {
            super::unit_row::counter_icon(ui, style, u, 46.0);
            ui.vertical(|ui| {
                ui.label(RichText::new(super::unit_row::unit_title(u)).strong());
                let mut line = format!("{} {}", u.side, u.kind);
                if let Some(f) = &u.formation {
                    line.push_str(&format!(", {f}"));
                }
                ui.label(line);
                let values = if u.hidden {
                    match &u.pool {
                        Some(p) => format!("hidden (values from pool {p})"),
                        None => "hidden".to_string(),
                    }
                } else {
                    steps_line(&style.steps_text(u), u.step as usize)
                };
                ui.label(values);
                for (k, v) in &u.attrs {
                    ui.label(format!("{k}: {v}"));
                }
                if let Some(area) = &u.setup_area {
                    ui.label(format!("set up in area {area}"));
                }
                ui.small(format!("id {}", u.id));
            });
        });
    });
}

/// A unit's faces and where it stands among them, in a player's words: `face: 0-3-10` for a
/// one-step counter, `steps: 4-4-10, 2-2-10 (full strength)` or `(now 2-2-10, step 2 of 2)`
/// (it read `(now 1)`, which said nothing to a newcomer of a full-strength unit).
pub(crate) fn steps_line(faces: &[String], step: usize) -> String {
    let all = faces.join(", ");
    match (faces.len(), faces.get(step)) {
        (0 | 1, _) => format!("face: {all}"),
        _ if step == 0 => format!("steps: {all} (full strength)"),
        (n, Some(now)) => format!("steps: {all} (now {now}, step {} of {n})", step + 1),
        (_, None) => format!("steps: {all} (step {})", step + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::steps_line;

    #[test]
    fn a_reduced_unit_says_which_face_it_shows() {
        let faces = ["4-4-10".to_string(), "2-2-10".to_string()];
        assert_eq!(
            steps_line(&faces, 1),
            "steps: 4-4-10, 2-2-10 (now 2-2-10, step 2 of 2)"
        );
        assert_eq!(
            steps_line(&faces, 0),
            "steps: 4-4-10, 2-2-10 (full strength)"
        );
        assert_eq!(steps_line(&faces[..1], 0), "face: 4-4-10");
    }
}
