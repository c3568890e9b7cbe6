//! The map's metadata (side panel of map editing): named places, entry and set-up areas, tags
//! (VP hexes and the like), and the map's size. Hexes are added and removed by clicking the map
//! while a place, area or tag is "being edited" ([`MapDataPanel::target`]).

use super::Named as _;
use crate::command::EditorCommand;
use crate::document::Document;
use egui::{RichText, Ui};
use kessel_core::hex::Hex;
use kessel_core::map::{Area, Map, Place};

/// What clicks on the map add hexes to (or remove them from).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MarkTarget {
    /// A place, by index.
    Place(usize),
    /// An area, by id.
    Area(String),
    /// A tag.
    Tag(String),
}

/// The panel's state.
#[derive(Clone, Debug, Default)]
pub struct MapDataPanel {
    /// The place, area or tag clicks edit.
    pub target: Option<MarkTarget>,
    /// Id typed for a new area.
    pub new_area: String,
    /// Name typed for a new tag.
    pub new_tag: String,
    /// Size asked for.
    pub size: Option<(u32, u32)>,
    /// The resize waits for a confirmation.
    pub confirm_resize: bool,
}

/// A place's kind: picked from the kinds the ruleset declares (its own kind listed too, even
/// if the ruleset does not know it), typed where the ruleset declares none. True if changed.
fn place_kind(ui: &mut Ui, i: usize, kind: &mut String, kinds: &[String]) -> bool {
    if kinds.is_empty() {
        return super::cell_text(ui, kind, 90.0)
            .named(&format!("place kind {i}"))
            .changed();
    }
    let mut changed = false;
    let known = kinds.contains(kind);
    egui::ComboBox::from_id_salt(("place kind", i))
        .width(90.0)
        .selected_text(kind.as_str())
        .show_ui(ui, |ui| {
            let own = (!known).then(|| kind.clone());
            for k in kinds.iter().chain(own.as_ref()) {
                let on = k == kind;
                if ui.selectable_label(on, k.as_str()).clicked() && !on {
                    *kind = k.clone();
                    changed = true;
                }
            }
        })
        .response
        .named(&format!("place kind {i}"));
    changed
}

impl MapDataPanel {
    /// Hexes of the target, for the map to outline.
    pub fn marked(&self, map: &Map) -> Vec<Hex> {
        match &self.target {
            Some(MarkTarget::Place(i)) => map.places.get(*i).map(|p| p.hexes.clone()),
            Some(MarkTarget::Area(id)) => map.areas.get(id).map(|a| a.hexes.clone()),
            Some(MarkTarget::Tag(t)) => map.tags.get(t).cloned(),
            None => None,
        }
        .unwrap_or_default()
    }

    /// A click on `hex` while a target is being edited: toggles the hex in it.
    pub fn on_click(&self, map: &Map, hex: Hex) -> Option<EditorCommand> {
        let toggle = |v: &mut Vec<Hex>| match v.iter().position(|h| *h == hex) {
            Some(i) => {
                v.remove(i);
            }
            None => v.push(hex),
        };
        match self.target.as_ref()? {
            MarkTarget::Place(i) => {
                let mut places = map.places.clone();
                toggle(&mut places.get_mut(*i)?.hexes);
                // a hex is in one place at most (the map file refuses a hex in two): marked
                // for this place, it leaves the one it was in
                if places[*i].hexes.contains(&hex) {
                    for (j, p) in places.iter_mut().enumerate() {
                        if j != *i {
                            p.hexes.retain(|h| *h != hex);
                        }
                    }
                }
                Some(EditorCommand::SetPlaces {
                    places,
                    merge: None,
                })
            }
            MarkTarget::Area(id) => {
                let mut areas = map.areas.clone();
                toggle(&mut areas.get_mut(id)?.hexes);
                Some(EditorCommand::SetAreas { areas, merge: None })
            }
            MarkTarget::Tag(t) => {
                let mut tags = map.tags.clone();
                toggle(tags.entry(t.clone()).or_default());
                Some(EditorCommand::SetTags { tags, merge: None })
            }
        }
    }

    fn edit_button(&mut self, ui: &mut Ui, target: MarkTarget) {
        let on = self.target.as_ref() == Some(&target);
        if ui
            .selectable_label(on, "edit hexes")
            .on_hover_text("click hexes on the map to add or remove them")
            .clicked()
        {
            self.target = if on { None } else { Some(target) };
        }
    }

    /// Draws the panel.
    fn show(
        &mut self,
        ui: &mut Ui,
        (doc, kinds): (&Document, &[String]),
        selected: Option<Hex>,
        cmds: &mut Vec<EditorCommand>,
    ) {
        let map = &doc.map;
        ui.heading("Places");
        let mut places = map.places.clone();
        let mut changed = None;
        let mut remove = None;
        egui::Grid::new("places")
            .striped(true)
            .num_columns(4)
            .show(ui, |ui| {
                for (i, p) in places.iter_mut().enumerate() {
                    if super::cell_text(ui, &mut p.name, 110.0)
                        .named(&format!("place name {i}"))
                        .changed()
                    {
                        changed = Some(format!("place {i} name"));
                    }
                    if place_kind(ui, i, &mut p.kind, kinds) {
                        changed = Some(format!("place {i} kind"));
                    }
                    ui.label(format!("{} hex", p.hexes.len()));
                    ui.horizontal(|ui| {
                        self.edit_button(ui, MarkTarget::Place(i));
                        if ui
                            .small_button("×")
                            .on_hover_text("remove the place")
                            .clicked()
                        {
                            remove = Some(i);
                        }
                    });
                    ui.end_row();
                }
            });
        // said where it is typed: the loader refuses a map with two places of one name
        let mut seen = std::collections::BTreeSet::new();
        for p in &places {
            if !seen.insert(p.name.trim()) {
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    format!(
                        "two places are named `{}`: rename one (the map file will not load otherwise)",
                        p.name.trim()
                    ),
                );
            }
        }
        if let Some(i) = remove {
            places.remove(i);
            self.target = None;
            changed = Some(String::new());
        }
        if ui
            .button("Add place")
            .on_hover_text("a new place on the selected hex; rename it in the list")
            .clicked()
        {
            let n = (1..)
                .map(|k| format!("Place {k}"))
                .find(|n| map.place(n).is_none())
                .unwrap_or_default();
            let kind = (places.last().map(|p| p.kind.clone()))
                .or_else(|| kinds.first().cloned())
                .unwrap_or_else(|| "town".into());
            places.push(Place {
                name: n,
                kind,
                hexes: selected.into_iter().collect(),
            });
            self.target = Some(MarkTarget::Place(places.len() - 1));
            changed = Some(String::new());
        }
        if let Some(k) = changed {
            cmds.push(EditorCommand::SetPlaces {
                places,
                merge: (!k.is_empty()).then_some(k),
            });
        }

        ui.separator();
        ui.heading("Areas");
        let mut areas = map.areas.clone();
        let mut changed = None;
        let mut remove = None;
        egui::Grid::new("areas")
            .striped(true)
            .num_columns(4)
            .show(ui, |ui| {
                for (id, a) in areas.iter_mut() {
                    ui.label(RichText::new(id).monospace().strong());
                    if super::cell_text(ui, &mut a.name, 110.0)
                        .named("a name")
                        .changed()
                    {
                        changed = Some(format!("area {id} name"));
                    }
                    ui.label(format!("{} hex", a.hexes.len()));
                    ui.horizontal(|ui| {
                        self.edit_button(ui, MarkTarget::Area(id.clone()));
                        if ui.small_button("×").clicked() {
                            remove = Some(id.clone());
                        }
                    });
                    ui.end_row();
                }
            });
        if let Some(id) = remove {
            areas.remove(&id);
            self.target = None;
            changed = Some(String::new());
        }
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut self.new_area)
                    .hint_text("new area id")
                    .desired_width(90.0),
            )
            .named("new area");
            let id = self.new_area.trim().to_string();
            let ok = !id.is_empty() && !areas.contains_key(&id);
            if ui.add_enabled(ok, egui::Button::new("Add area")).clicked() {
                areas.insert(
                    id.clone(),
                    Area {
                        id: id.clone(),
                        name: id.clone(),
                        hexes: selected.into_iter().collect(),
                    },
                );
                self.target = Some(MarkTarget::Area(id));
                self.new_area.clear();
                changed = Some(String::new());
            }
        });
        if let Some(k) = changed {
            cmds.push(EditorCommand::SetAreas {
                areas,
                merge: (!k.is_empty()).then_some(k),
            });
        }

        ui.separator();
        ui.heading("Tags");
        ui.label("Free hex tags the rules read (VP hexes, objectives, …).");
        let mut tags = map.tags.clone();
        let mut changed = false;
        let mut remove = None;
        egui::Grid::new("tags")
            .striped(true)
            .num_columns(3)
            .show(ui, |ui| {
                for (t, hexes) in &tags {
                    ui.label(RichText::new(t).monospace());
                    ui.label(format!("{} hex", hexes.len()));
                    ui.horizontal(|ui| {
                        self.edit_button(ui, MarkTarget::Tag(t.clone()));
                        if ui.small_button("×").clicked() {
                            remove = Some(t.clone());
                        }
                    });
                    ui.end_row();
                }
            });
        if let Some(t) = remove {
            tags.remove(&t);
            self.target = None;
            changed = true;
        }
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut self.new_tag)
                    .hint_text("new tag")
                    .desired_width(90.0),
            )
            .named("new tag");
            let t = self.new_tag.trim().to_string();
            if ui
                .add_enabled(
                    !t.is_empty() && !tags.contains_key(&t),
                    egui::Button::new("Add tag"),
                )
                .clicked()
            {
                tags.insert(t.clone(), selected.into_iter().collect());
                self.target = Some(MarkTarget::Tag(t));
                self.new_tag.clear();
                changed = true;
            }
        });
        if changed {
            cmds.push(EditorCommand::SetTags { tags, merge: None });
        }

        ui.separator();
        ui.heading("Name and size");
        // (a cut's name gives the range it was cut to: renamed here once it is resized)
        let mut name = map.name.clone();
        ui.horizontal(|ui| {
            ui.label("name");
            let r = ui
                .add(egui::TextEdit::singleline(&mut name).desired_width(220.0))
                .named("map name");
            if r.changed() {
                cmds.push(EditorCommand::SetMapName {
                    name: name.clone(),
                    merge: Some("map name".into()),
                });
            }
        });
        let (mut c, mut r) = self.size.unwrap_or((map.columns(), map.rows()));
        ui.horizontal(|ui| {
            ui.label("columns");
            ui.add(egui::DragValue::new(&mut c).range(1..=kessel_core::map::MAX_SIDE))
                .named("c");
            ui.label("rows");
            ui.add(egui::DragValue::new(&mut r).range(1..=kessel_core::map::MAX_SIDE))
                .named("r");
        });
        self.size = Some((c, r));
        let differs = (c, r) != (map.columns(), map.rows());
        if !self.confirm_resize {
            if ui
                .add_enabled(differs, egui::Button::new("Resize map…"))
                .clicked()
            {
                self.confirm_resize = true;
            }
        } else {
            ui.label(format!(
                "Resize {}×{} to {c}×{r}? New hexes get the default terrain; anything beyond the new edge is dropped (undo brings it back).",
                map.columns(),
                map.rows()
            ));
            ui.horizontal(|ui| {
                if ui.button("Resize").clicked() {
                    cmds.push(EditorCommand::ResizeMap {
                        columns: c,
                        rows: r,
                    });
                    self.confirm_resize = false;
                    self.size = None;
                }
                if ui.button("Cancel").clicked() {
                    self.confirm_resize = false;
                    self.size = None;
                }
            });
        }
        if !differs && !self.confirm_resize {
            self.size = None;
        }
    }
}

impl super::Panel for MapDataPanel {
    fn ui(&mut self, ui: &mut Ui, cx: &mut super::PanelCx<'_>) {
        let kinds: Vec<String> = cx.style.place_ids().map(str::to_string).collect();
        self.show(ui, (cx.doc, &kinds), cx.selected, cx.cmds);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kessel_core::numbering::Numbering;

    /// A hex marked for one place leaves the place it was in: the map file refuses a hex in two
    /// places, and the rules saw only the first (`kessel.map.place`).
    #[test]
    fn a_hex_marked_for_a_place_leaves_the_other_place() {
        let mut map = Map::new("m", 4, 4, Numbering::default(), "clear");
        let (a, b) = (Hex::new(1, 1), Hex::new(2, 1));
        for (name, hexes) in [("One", vec![a, b]), ("Two", vec![Hex::new(3, 3)])] {
            map.places.push(Place {
                name: name.into(),
                kind: "town".into(),
                hexes,
            });
        }
        let panel = MapDataPanel {
            target: Some(MarkTarget::Place(1)),
            ..MapDataPanel::default()
        };
        match panel.on_click(&map, b) {
            Some(EditorCommand::SetPlaces { places, .. }) => {
                assert_eq!(places[0].hexes, vec![a], "left the first place");
                assert_eq!(places[1].hexes, vec![Hex::new(3, 3), b]);
            }
            other => panic!("{other:?}"),
        }
    }
}
