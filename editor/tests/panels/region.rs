//! *New scenario from a region*: drag a rectangle on the toy map, read the cut's printed corner
//! labels in the panel, write the scenario and open it; it loads and passes the checks of
//! `kessel check`, with the hex numbers of the source.

use super::toy::{harness, screen_of, toy_copy};
use egui_kittest::kittest::Queryable;
use kessel_core::engine::Engine;
use kessel_core::scenario::load_map;
use kessel_core::script::Limits;

#[test]
fn a_region_dragged_on_the_map_becomes_a_scenario_that_loads_and_checks_clean() {
    let dir = toy_copy("region");
    let mut h = harness(&dir);
    h.get_by_label("New scenario from region").click();
    h.run();
    h.get_by_label_contains("Drag a rectangle on the map, from one corner");

    let (a, b) = (screen_of(&h, "0503"), screen_of(&h, "0201"));
    h.hover_at(a);
    h.run();
    h.drag_at(a);
    h.step();
    h.hover_at(a + (b - a) * 0.5);
    h.step();
    h.hover_at(b);
    h.step();
    h.drop_at(b);
    h.run();
    // the preview names the corners as printed, north-west first
    h.get_by_label_contains("0201 to 0503: 4×3 hexes");
    // r1 at 0203 stands in the region: the cut does not take it along, and says so
    h.get_by_label(
        "1 unit of this scenario stands in the region; the new scenario starts with none: add yours under Edit scenario.",
    );

    let out = dir.join("cut");
    h.get_by_label("new folder").click();
    h.run();
    h.get_by_label("new folder")
        .type_text(&out.display().to_string());
    h.run();
    h.get_by_label("new name").click();
    h.run();
    h.get_by_label("new name").type_text("Toy crossing");
    h.run();
    h.get_by_label("Write the new scenario and open it").click();
    h.run();

    let scenario = out.join("scenario.toml");
    assert_eq!(
        h.state().doc.name,
        "Toy crossing",
        "the new scenario is open"
    );
    assert_eq!(
        h.state().doc.scenario_path.as_deref(),
        Some(scenario.as_path())
    );
    for f in ["map.toml", "special.lua", "tests/special_test.lua"] {
        assert!(out.join(f).is_file(), "{f} written");
    }
    let map = load_map(&out.join("map.toml")).expect("the cut map loads");
    assert_eq!((map.columns(), map.rows()), (4, 3));
    assert!(map.parse("0201").is_some() && map.parse("0503").is_some());
    assert!(
        map.parse("0101").is_none(),
        "labels as printed on the source"
    );
    Engine::load(&scenario, None, 1, Limits::default()).expect("the new scenario loads");

    // the checks of `kessel check`, as the problems panel runs them
    h.state_mut().validator.run_now_for_tests();
    h.run();
    let v = &h.state().validator;
    assert!(v.runs > 0, "checked");
    assert!(v.issues.is_empty(), "{:?}", v.issues);

    // a second write into the same folder is refused, and says why
    h.get_by_label("New scenario from region").click();
    h.run();
    let (a, b) = (screen_of(&h, "0201"), screen_of(&h, "0302"));
    h.hover_at(a);
    h.run();
    h.drag_at(a);
    h.step();
    h.hover_at(b);
    h.step();
    h.drop_at(b);
    h.run();
    h.get_by_label("new folder").click();
    h.run();
    h.get_by_label("new folder")
        .type_text(&out.display().to_string());
    h.run();
    h.get_by_label("Write the new scenario and open it").click();
    h.run();
    assert_eq!(h.state().doc.name, "Toy crossing");
    h.get_by_label_contains("exists already");
}

/// A scenario in Kessel's own folder (the bundled copy, a package's cache) is not saved over:
/// the status bar says why and where to keep the work, and the new-scenario tool offers the
/// user's folder.
#[test]
fn saving_into_kessels_own_folder_is_refused_with_the_way_out() {
    use kessel_editor::command::EditorCommand;
    let dir = toy_copy("not-yours");
    // the user's folder, outside Kessel's (here the toy copy)
    let user = kessel_test_support::scratch("not-yours-user");
    let mut h = harness(&dir);
    let root = dir.canonicalize().expect("exists");
    h.state_mut()
        .set_not_yours(Some((root.clone(), user.clone())));
    let before = std::fs::read(dir.join("map.toml")).expect("read");
    let at = super::toy::hex(&h, "0303");
    h.state_mut().apply(vec![
        EditorCommand::SetTerrain {
            hex: at,
            terrain: "woods".into(),
            stroke: 1,
        },
        EditorCommand::Save,
    ]);
    h.run();
    assert_eq!(
        std::fs::read(dir.join("map.toml")).expect("read"),
        before,
        "nothing written"
    );
    assert!(h.state().doc.is_dirty(), "the edit is still there");
    h.get_by_label_contains("Not saved: Kessel's own copy");
    let suggested = h.state().region.suggested_folder(&h.state().doc, "cut-x");
    assert_eq!(suggested, user.join("cut-x"));

    // Save as… is offered on the user's folder; it writes the scenario with the edit and its
    // folder there, and opens the copy, which finds its rules from there
    super::picture(&mut h, "editor-save-as");
    let offered = h.state().save_as_dialog.clone().expect("Save as offered");
    assert!(
        offered.starts_with(&user.display().to_string()),
        "{offered}"
    );
    h.get_by_label("Save here and open").click();
    h.run();
    let copy = h.state().doc.scenario_path.clone().expect("a scenario");
    assert!(copy.starts_with(&user), "{}", copy.display());
    let map = kessel_core::scenario::load_map(&copy.with_file_name("map.toml")).expect("map");
    assert_eq!(map.terrain_name(at), Some("woods"), "the edit went with it");
    Engine::load(&copy, None, 1, Limits::default()).expect("the copy loads");
    assert_eq!(
        std::fs::read(dir.join("map.toml")).expect("read"),
        before,
        "the original is left as it was"
    );
    assert!(h.state().save_refused().is_none(), "the copy is the user's");
    let _ = std::fs::remove_dir_all(&user);
}
