//! *New scenario from a region* (map editing): drag a rectangle on the map, see the cut it makes
//! (its printed corner labels, its size, what it shortens or leaves out) and write it as a new
//! scenario folder. The writing is the core's [`kessel_core::scaffold`], the code of
//! `kessel map cut` and `kessel new scenario`, so the editor writes the same files they do.

use super::Named as _;
use crate::document::Document;
use crate::map_view::MapResponse;
use crate::words::{count, count_as};
use egui::{Color32, RichText, Ui};
use kessel_core::hex::Hex;
use kessel_core::map::Map;
use std::path::{Path, PathBuf};

/// What the user asked to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionRequest {
    /// Two opposite corners.
    pub corners: (Hex, Hex),
    /// The new scenario's folder.
    pub dir: PathBuf,
    /// Its name.
    pub name: String,
    /// Game-turns it lasts.
    pub turns: u32,
}

/// What the cut would be, worked out once per rectangle.
#[derive(Clone, Debug)]
struct Preview {
    corners: (Hex, Hex),
    /// The printed labels of the first and last hex, columns and rows, counts.
    summary: Result<String, String>,
    /// What the cut shortens or leaves out, one line each.
    notes: Vec<String>,
}

/// The region tool's state.
#[derive(Clone, Debug)]
pub struct RegionTool {
    /// The rectangle, as dragged (start, end).
    pub corners: Option<(Hex, Hex)>,
    /// Folder to write (empty: the suggested one).
    pub folder: String,
    /// Scenario name (empty: the suggested one).
    pub name: String,
    /// Game-turns.
    pub turns: u32,
    /// Where a new scenario goes when the open one's folder is not the user's to write in.
    pub user_folder: Option<PathBuf>,
    preview: Option<Preview>,
}

impl Default for RegionTool {
    fn default() -> Self {
        RegionTool {
            corners: None,
            folder: String::new(),
            name: String::new(),
            turns: 5,
            user_folder: None,
            preview: None,
        }
    }
}

impl RegionTool {
    /// Follows a drag on the map: the press is one corner, the pointer the other.
    pub fn on_map(&mut self, r: &MapResponse) {
        let Some(h) = r.primary_down else {
            return;
        };
        match self.corners {
            Some((a, _)) if !r.press_started => self.corners = Some((a, h)),
            _ => self.corners = Some((h, h)),
        }
    }

    /// The labels of the region's north-west and south-east hexes, as printed.
    fn labels(map: &Map, (a, b): (Hex, Hex)) -> (String, String) {
        let ((ca, ra), (cb, rb)) = (map.offset(a), map.offset(b));
        (
            map.label(map.hex_at(ca.min(cb), ra.min(rb))),
            map.label(map.hex_at(ca.max(cb), ra.max(rb))),
        )
    }

    fn preview(&mut self, map: &Map) -> Option<&Preview> {
        let corners = self.corners?;
        if self.preview.as_ref().is_none_or(|p| p.corners != corners) {
            let (summary, notes) = match map.cut(corners.0, corners.1) {
                Ok(c) => {
                    let m = &c.map;
                    let (first, last) = Self::labels(map, corners);
                    let summary = format!(
                        "{first} to {last}: {}×{} hexes, {}, {}, {} (rivers, roads and railways)",
                        m.columns(),
                        m.rows(),
                        count(m.places.len(), "place"),
                        count(m.areas.len(), "area"),
                        count(m.features.len(), "feature")
                    );
                    (Ok(summary), c.notes.iter().map(|n| n.to_string()).collect())
                }
                Err(e) => (Err(e.to_string()), Vec::new()),
            };
            self.preview = Some(Preview {
                corners,
                summary,
                notes,
            });
        }
        self.preview.as_ref()
    }

    /// The folder offered: beside the open scenario's folder, or in the user's folder when the
    /// open one is not theirs to write in.
    pub fn suggested_folder(&self, doc: &Document, slug: &str) -> PathBuf {
        if let Some(dir) = &self.user_folder {
            return dir.join(slug);
        }
        let base = doc.scenario_path.as_deref().unwrap_or(&doc.map_path);
        let folder = base.parent().unwrap_or(Path::new("."));
        folder
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .join(slug)
    }

    /// Draws the panel; returns a request when the user asks to write the scenario.
    pub fn ui(&mut self, ui: &mut Ui, doc: &Document) -> Option<RegionRequest> {
        ui.heading("New scenario from a region");
        let map = &doc.map;
        let Some(corners) = self.corners else {
            ui.label("Drag a rectangle on the map, from one corner hex to the opposite one.");
            return None;
        };
        let (first, last) = Self::labels(map, corners);
        let preview = self.preview(map)?.clone();
        match &preview.summary {
            Ok(s) => ui.label(RichText::new(s).strong()),
            Err(e) => {
                ui.colored_label(Color32::from_rgb(255, 150, 130), e);
                return None;
            }
        };
        ui.label("Hex numbers stay as printed on this map.");
        // the cut is a map and an empty scenario: say so where units stand in the region
        let (ca, cb) = (map.offset(corners.0), map.offset(corners.1));
        let inside = |h: Hex| {
            let (c, r) = map.offset(h);
            (ca.0.min(cb.0)..=ca.0.max(cb.0)).contains(&c)
                && (ca.1.min(cb.1)..=ca.1.max(cb.1)).contains(&r)
        };
        let units: usize = (doc.units.stacks())
            .filter(|(h, _)| inside(*h))
            .map(|(_, v)| v.len())
            .sum();
        if units > 0 {
            ui.label(format!(
                "{units} unit{} of this scenario stand{} in the region; the new scenario starts with none: add yours under Edit scenario.",
                if units == 1 { "" } else { "s" },
                if units == 1 { "s" } else { "" }
            ));
        }
        if !preview.notes.is_empty() {
            egui::CollapsingHeader::new(format!(
                "{} cut short or left out",
                count_as(preview.notes.len(), "thing", "things")
            ))
            .id_salt("region notes")
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .max_height(160.0)
                    .show(ui, |ui| {
                        for n in &preview.notes {
                            ui.label(RichText::new(n).small());
                        }
                    });
            });
        }
        ui.separator();
        let slug = format!("cut-{first}-{last}");
        let folder_hint = self.suggested_folder(doc, &slug).display().to_string();
        let name_hint = format!("{}, {first}–{last}", map.name);
        ui.label("Folder");
        let f = ui.add(
            egui::TextEdit::singleline(&mut self.folder)
                .hint_text(&folder_hint)
                .desired_width(f32::INFINITY),
        );
        f.widget_info(|| egui::WidgetInfo::labeled(egui::Role::TextInput, true, "new folder"));
        let shown = if self.folder.is_empty() {
            &folder_hint
        } else {
            &self.folder
        };
        super::whole_path_if_cut(ui, &f, shown);
        ui.label("Name");
        let n = ui.add(
            egui::TextEdit::singleline(&mut self.name)
                .hint_text(&name_hint)
                .desired_width(f32::INFINITY),
        );
        n.widget_info(|| egui::WidgetInfo::labeled(egui::Role::TextInput, true, "new name"));
        ui.horizontal(|ui| {
            ui.label("Game-turns");
            ui.add(egui::DragValue::new(&mut self.turns).range(1..=99))
                .named("game-turns");
        });
        if doc.ruleset_dir.is_none() {
            ui.label("Open a scenario, not a bare map: the new one takes its ruleset.");
            return None;
        }
        if doc.is_dirty() {
            ui.label(
                RichText::new("The map as shown is cut, unsaved changes included.")
                    .small()
                    .italics(),
            );
        }
        let go = ui
            .button("Write the new scenario and open it")
            .on_hover_text("scenario.toml, map.toml, special.lua and a rule test, checked as kessel check does")
            .clicked();
        go.then(|| RegionRequest {
            corners,
            dir: if self.folder.trim().is_empty() {
                PathBuf::from(folder_hint)
            } else {
                PathBuf::from(self.folder.trim())
            },
            name: if self.name.trim().is_empty() {
                name_hint
            } else {
                self.name.trim().to_string()
            },
            turns: self.turns,
        })
    }
}
