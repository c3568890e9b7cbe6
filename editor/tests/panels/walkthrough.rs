//! A newcomer's first scenario, made in the editor alone: where the walk through it got stuck.
//! *File* had no way to start a new scenario; a place's *edit hexes* did nothing with a brush
//! or a link picked; a unit set to enter later on a map without areas had an empty box and no
//! word on where areas are made; a text editor's change to the scenario, made while the editor
//! held unsaved edits, was written over by the *Save* the status line advised.

use super::reload::wait_for;
use super::toy::{click_hex, harness as toy_harness, toy_copy};
use egui_kittest::kittest::Queryable;
use kessel_editor::command::EditorCommand;
use kessel_editor::panels::{Mode, Tool};

#[test]
fn file_new_scenario_opens_the_region_tool_and_says_what_next() {
    let mut h = super::harness();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("New scenario…").click();
    h.run();
    let app = h.state();
    assert_eq!(app.palette.mode, Mode::Edit);
    assert_eq!(app.palette.tool, Tool::Region);
    assert!(
        h.query_by_label_contains("drag a rectangle on the map from one corner hex")
            .is_some(),
        "the status line says what to do"
    );
    h.get_by_label("New scenario from a region");
}

#[test]
fn edit_hexes_takes_the_click_whatever_tool_is_picked() {
    let dir = toy_copy("walk-mark");
    let mut h = toy_harness(&dir);
    h.get_by_label("Link").click();
    h.run();
    h.get_by_label("Map data").click();
    h.run();
    let features = h.state().doc.map.features.clone();
    let target = h.state().doc.map.parse("0505").expect("hex");
    assert!(!h.state().doc.map.places[0].hexes.contains(&target));
    h.get_all_by_label("edit hexes")
        .next()
        .expect("the first place's")
        .click();
    h.run();
    click_hex(&mut h, "0505");
    let map = &h.state().doc.map;
    assert!(
        map.places[0].hexes.contains(&target),
        "the place gains the hex: {:?}",
        map.places[0].hexes
    );
    assert_eq!(map.features, features, "no link drawn");
    assert!(h.state().palette.link_from.is_none(), "no link started");
    // a tool picked afterwards takes the clicks again: the last one picked wins
    h.get_by_label("Paint terrain").click();
    h.run();
    assert!(h.state().map_data.target.is_none(), "edit hexes is off");
    h.get_by_label("clear").click();
    h.run();
    let places = h.state().doc.map.places.clone();
    click_hex(&mut h, "0301");
    assert_eq!(h.state().doc.map.places, places, "painted, not marked");
    assert!(h
        .state()
        .doc
        .history
        .undo_label()
        .is_some_and(|l| l.starts_with("paint")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn entering_later_on_a_map_without_areas_says_where_areas_are_made() {
    let dir = toy_copy("walk-areas");
    let mut h = toy_harness(&dir);
    h.state_mut().doc.map.areas.clear();
    h.get_by_label("Edit scenario").click();
    h.run();
    let id = h.state().doc.units.all()[0].id.clone();
    h.get_by_label_contains(&format!("{id} — ")).click();
    h.run();
    assert!(h
        .query_by_label(kessel_editor::panels::scenario::NO_AREAS)
        .is_none());
    h.get_by_label("Enters later").click();
    h.run();
    assert!(
        h.query_by_label(kessel_editor::panels::scenario::NO_AREAS)
            .is_some(),
        "the empty area box is explained"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_text_edit_made_over_unsaved_edits_is_not_saved_over_and_undo_takes_it_in() {
    let dir = toy_copy("walk-disk");
    let mut h = toy_harness(&dir);
    let (c, r) = (h.state().doc.map.columns(), h.state().doc.map.rows());
    h.state_mut().apply(vec![EditorCommand::ResizeMap {
        columns: c + 1,
        rows: r,
    }]);
    h.run();
    assert!(h.state().doc.is_dirty());
    // a text editor changes the scenario meanwhile: a new name
    let file = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&file).expect("read");
    let name = h.state().doc.name.clone();
    let typed = text.replacen(&format!("name = {name:?}"), "name = \"Typed by hand\"", 1);
    assert_ne!(typed, text, "the scenario's name line: {name}");
    std::fs::write(&file, &typed).expect("write");
    wait_for(&mut h, "the change on disk", |app| {
        !app.disk_ahead.paths.is_empty()
    });
    // the first save writes nothing and says why
    h.state_mut().apply(vec![EditorCommand::Save]);
    h.run();
    assert_eq!(std::fs::read_to_string(&file).expect("read"), typed);
    assert!(
        h.query_by_label_contains("Save again to do so").is_some(),
        "the save says it would overwrite"
    );
    // undoing the edit takes in the file as typed
    h.state_mut().apply(vec![EditorCommand::Undo]);
    h.run();
    assert_eq!(h.state().doc.name, "Typed by hand");
    assert!(!h.state().doc.is_dirty());
    assert!(h.state().disk_ahead.paths.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_save_writes_over_the_change_on_disk() {
    let dir = toy_copy("walk-disk-over");
    let mut h = toy_harness(&dir);
    let (c, r) = (h.state().doc.map.columns(), h.state().doc.map.rows());
    h.state_mut().apply(vec![EditorCommand::ResizeMap {
        columns: c + 1,
        rows: r,
    }]);
    let map = dir.join("map.toml");
    let text = std::fs::read_to_string(&map).expect("read");
    std::fs::write(&map, format!("# typed by hand\n{text}")).expect("write");
    wait_for(&mut h, "the change on disk", |app| {
        !app.disk_ahead.paths.is_empty()
    });
    h.state_mut().apply(vec![EditorCommand::Save]);
    assert!(h.state().doc.is_dirty(), "not saved at the first press");
    h.state_mut().apply(vec![EditorCommand::Save]);
    assert!(!h.state().doc.is_dirty(), "saved at the second");
    let written = std::fs::read_to_string(&map).expect("read");
    assert_ne!(written, format!("# typed by hand\n{text}"));
    assert!(h.state().disk_ahead.paths.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A cut map's name says the range it was cut to; resized, that range was stale and nothing in
/// the editor renamed the map.
#[test]
fn the_map_is_renamed_under_map_data() {
    let dir = toy_copy("walk-map-name");
    let mut h = toy_harness(&dir);
    h.get_by_label("Map data").click();
    h.run();
    h.get_by_label("map name").click();
    h.run();
    h.get_by_label("map name").type_text(" (cut)");
    h.run();
    let name = h.state().doc.map.name.clone();
    assert!(
        name.contains(" (cut)") && name.len() > "Toy valley".len(),
        "{name}"
    );
    h.state_mut().apply(vec![EditorCommand::Undo]);
    assert_eq!(h.state().doc.map.name, "Toy valley", "one undo step");
    let _ = std::fs::remove_dir_all(&dir);
}
