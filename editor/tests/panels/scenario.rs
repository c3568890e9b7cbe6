//! Scenario editing and map metadata on a copy of the toy scenario: place a unit, edit the
//! reinforcement table and see the validation, undo, save round trip, places, resize.

use super::toy::{click_hex, harness, toy_copy};
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use kessel_core::scenario::Scenario;
use kessel_editor::command::EditorCommand;
use kessel_editor::document::SaveOutcome;
use kessel_editor::panels::scenario::ScenarioTool;
use kessel_editor::scenario_file::Placement;
use kessel_editor::EditorApp;

fn scenario_mode(h: &mut Harness<'_, EditorApp>) {
    h.get_by_label("Edit scenario").click();
    h.run();
    h.state_mut().validator.run_now_for_tests();
    h.run();
}

#[test]
fn placing_a_unit_shows_it_in_the_inspector() {
    let dir = toy_copy("sc-place");
    let mut h = harness(&dir);
    scenario_mode(&mut h);
    // b2 is a reinforcement: pick it in the list, then place it with the place tool
    h.get_by_label_contains("b2 ").click();
    h.run();
    h.state_mut().scenario_panel.tool = ScenarioTool::Place;
    click_hex(&mut h, "0404");
    h.run();
    let app = h.state();
    let b2 = app
        .doc
        .scenario
        .as_ref()
        .and_then(|s| s.unit("b2"))
        .cloned();
    assert_eq!(b2.map(|u| u.placement), Some(Placement::At("0404".into())));
    h.get_by_label("id b2");
    h.get_by_label("Units: 1");
}

#[test]
fn a_reinforcement_turn_out_of_range_is_reported_and_undone() {
    let dir = toy_copy("sc-turn");
    let mut h = harness(&dir);
    scenario_mode(&mut h);
    h.get_by_label("Reinforcements").click();
    h.run();
    h.get_by_label("turn b2").focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("turn b2").type_text("13");
    h.run();
    let b2 = h
        .state()
        .doc
        .scenario
        .as_ref()
        .and_then(|s| s.unit("b2"))
        .cloned();
    assert_eq!(
        b2.map(|u| u.placement),
        Some(Placement::Enter {
            turn: 13,
            area: "W".into()
        })
    );
    h.state_mut().validator.run_now_for_tests();
    h.run();
    h.get_by_label_contains("enters on turn 13");
    let issue = h.state().validator.issues[0].clone();
    assert!(issue.location.ends_with("scenario.toml:35"), "{issue:?}");
    assert_eq!(issue.unit.as_deref(), Some("b2"));
    // undo brings turn 2 back and the problem goes
    h.state_mut().apply(vec![EditorCommand::Undo]);
    h.state_mut().validator.run_now_for_tests();
    h.run();
    assert!(h.state().validator.issues.is_empty());
    assert!(h.query_by_label_contains("enters on turn 13").is_none());
}

#[test]
fn scenario_edits_save_in_place_and_load_in_check() {
    let dir = toy_copy("sc-save");
    let path = dir.join("scenario.toml");
    let before = std::fs::read_to_string(&path).expect("read");
    let mut h = harness(&dir);
    // saving an unchanged scenario writes nothing
    assert_eq!(
        h.state_mut().doc.save().expect("save"),
        SaveOutcome::Unchanged
    );
    let mut r2 = h
        .state()
        .doc
        .scenario
        .as_ref()
        .and_then(|s| s.unit("r2"))
        .cloned()
        .expect("r2");
    r2.placement = Placement::At("0104".into());
    let mut b3 = r2.clone();
    b3.id = "b3".into();
    b3.side = "blue".into();
    b3.kind = "inf".into();
    b3.faces = vec!["1-1-4".into()];
    b3.placement = Placement::Enter {
        turn: 3,
        area: "W".into(),
    };
    h.state_mut().apply(vec![
        EditorCommand::SetUnit {
            id: "r2".into(),
            unit: r2,
            merge: None,
        },
        EditorCommand::AddUnit(b3),
        EditorCommand::RemoveUnit { id: "b1".into() },
    ]);
    assert!(matches!(
        h.state_mut().doc.save().expect("save"),
        SaveOutcome::Written(_)
    ));
    let after = std::fs::read_to_string(&path).expect("read");
    assert_ne!(after, before);
    assert!(
        after.contains("[[objectives]]\nplace = \"Toytown\""),
        "{after}"
    );
    let sc = Scenario::parse(&path, &after).expect("the saved scenario loads");
    let ids: Vec<&str> = sc.units.iter().map(|u| u.unit.id.as_str()).collect();
    assert_eq!(ids, ["r1", "r2", "b2", "b3"]);
    let r2 = &sc.units[1].unit;
    assert_eq!(r2.hex().map(|x| sc.map.label(x)).as_deref(), Some("0104"));
    assert_eq!(sc.units[3].unit.entry.as_ref().map(|e| e.turn), Some(3));
    // the editor's data reads back the same from the saved file
    let reread = kessel_editor::scenario_file::ScenarioFile::parse(&after).expect("toml");
    assert_eq!(Some(&reread.def), h.state().doc.scenario.as_ref());
    // and saving again writes no byte
    assert_eq!(
        h.state_mut().doc.save().expect("save"),
        SaveOutcome::Unchanged
    );
}

#[test]
fn a_place_is_added_on_the_selected_hex() {
    let dir = toy_copy("sc-place-name");
    let mut h = harness(&dir);
    click_hex(&mut h, "0101");
    h.get_by_label("Map data").click();
    h.run();
    let n = h.state().doc.map.places.len();
    h.get_by_label("Add place").click();
    h.run();
    let map = &h.state().doc.map;
    assert_eq!(map.places.len(), n + 1);
    let p = map.places.last().expect("added");
    assert_eq!(p.name, "Place 1");
    assert_eq!(p.hexes, vec![map.parse("0101").expect("hex")]);
    assert_eq!(
        h.get_by_label(&format!("place name {n}"))
            .value()
            .as_deref(),
        Some("Place 1")
    );
    h.state_mut().apply(vec![EditorCommand::Undo]);
    assert_eq!(h.state().doc.map.places.len(), n);
}

/// Two places given one name are said where the name is typed: the loader refuses such a map,
/// and the editor saved it without a word.
#[test]
fn two_places_of_one_name_are_said_in_the_places_list() {
    let dir = toy_copy("sc-place-twice");
    let mut h = harness(&dir);
    click_hex(&mut h, "0101");
    h.get_by_label("Map data").click();
    h.run();
    h.get_by_label("Add place").click();
    h.run();
    let warning =
        "two places are named `Toytown`: rename one (the map file will not load otherwise)";
    assert!(h.query_by_label(warning).is_none(), "no warning before");
    let mut places = h.state().doc.map.places.clone();
    let n = places.len();
    let first = places[0].name.clone();
    assert_eq!(first, "Toytown", "the toy map's place");
    places[n - 1].name = first;
    h.state_mut().apply(vec![EditorCommand::SetPlaces {
        places,
        merge: None,
    }]);
    h.run();
    assert!(h.query_by_label(warning).is_some(), "the duplicate is said");
}

#[test]
fn the_map_is_resized_after_confirmation() {
    let dir = toy_copy("sc-resize");
    let mut h = harness(&dir);
    h.get_by_label("Map data").click();
    h.run();
    let (c, r) = (h.state().doc.map.columns(), h.state().doc.map.rows());
    h.state_mut().map_data.size = Some((c + 2, r - 1));
    h.run();
    h.get_by_label("Resize map…").click();
    h.run();
    assert_eq!(h.state().doc.map.columns(), c, "waits for the confirmation");
    h.get_by_label("Resize").click();
    h.run();
    let map = &h.state().doc.map;
    assert_eq!((map.columns(), map.rows()), (c + 2, r - 1));
    let saved = h.state_mut().doc.save().expect("save");
    assert!(matches!(saved, SaveOutcome::Written(_)));
    let m = kessel_core::scenario::load_map(&dir.join("map.toml")).expect("resized map loads");
    assert_eq!((m.columns(), m.rows()), (c + 2, r - 1));
}

#[test]
fn a_scenario_variable_is_added_checked_against_the_ruleset_and_saved() {
    let dir = toy_copy("sc-vars");
    let path = dir.join("scenario.toml");
    let mut h = harness(&dir);
    scenario_mode(&mut h);
    h.get_by_label("Details").click();
    h.run();
    // the toy ruleset reads `bonus` as an int: a string is reported by the checks
    h.get_by_label("new var id").click();
    h.run();
    h.get_by_label("new var id").type_text("bonus");
    h.run();
    h.get_by_label("new var value").click();
    h.run();
    h.get_by_label("new var value").type_text("\"lots\"");
    h.run();
    h.get_by_label("Add variable").click();
    h.run();
    let vars = h.state().doc.scenario.as_ref().map(|s| s.vars.clone());
    assert_eq!(
        vars.map(|v| v
            .iter()
            .map(|x| (x.key.clone(), x.value.clone()))
            .collect::<Vec<_>>()),
        Some(vec![("bonus".to_string(), "\"lots\"".to_string())])
    );
    h.state_mut().validator.run_now_for_tests();
    h.run();
    let issues = &h.state().validator.issues;
    assert!(
        issues
            .iter()
            .any(|i| i.message.contains("scenario var `bonus`")),
        "{issues:?}"
    );
    // typed as a number, the problem goes; saved, the loader reads it
    h.get_by_label("var bonus").focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("var bonus").type_text("2");
    h.run();
    h.state_mut().validator.run_now_for_tests();
    h.run();
    assert!(
        h.state().validator.issues.is_empty(),
        "{:?}",
        h.state().validator.issues
    );
    h.state_mut().apply(vec![EditorCommand::Save]);
    h.run();
    let sc = Scenario::load(&path).expect("saved scenario loads");
    assert_eq!(sc.vars.get("bonus"), Some(&serde_json::json!(2)));
    // removed again, the table goes from the file
    h.get_by_label("remove var bonus").click();
    h.run();
    h.state_mut().apply(vec![EditorCommand::Save]);
    h.run();
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(!text.contains("[vars]"), "{text}");
}

#[test]
fn markers_and_pools_are_added_edited_and_saved() {
    let dir = toy_copy("sc-pieces");
    let path = dir.join("scenario.toml");
    let mut h = harness(&dir);
    scenario_mode(&mut h);
    h.get_by_label("Pools & markers").click();
    h.run();
    h.get_by_label("Add marker").click();
    h.run();
    // a choice of the ruleset's sides
    h.get_by_label("marker side 0").click();
    h.run();
    h.get_by_label("red").click();
    h.run();
    h.get_by_label("Add pool").click();
    h.run();
    h.get_by_label("pool faces 0").click();
    h.run();
    h.get_by_label("pool faces 0").type_text("3-3-4 x2, 2-2-4");
    h.run();
    h.state_mut().apply(vec![EditorCommand::Save]);
    h.run();
    let sc = Scenario::load(&path).expect("the saved scenario loads");
    assert_eq!(sc.markers.len(), 1);
    assert_eq!(sc.markers[0].side.as_deref(), Some("red"));
    let (_, faces) = sc.pools.get("pool1").expect("the pool");
    assert_eq!(faces.len(), 3);
    // a face that is not one: the checks name it
    h.get_by_label("pool faces 0").focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("pool faces 0").type_text("3-3 x2");
    h.run();
    h.state_mut().validator.run_now_for_tests();
    h.run();
    let issues = &h.state().validator.issues;
    assert!(
        issues.iter().any(|i| i.message.contains("is not a face")),
        "{issues:?}"
    );
}

/// The new-unit form offers the types of the side chosen where the ruleset's unit types say
/// which side they belong to (a `side` field), and every type where they say nothing.
#[test]
fn the_new_unit_form_offers_the_types_of_the_side_chosen() {
    let dir = toy_copy("sc-type-sides");
    let init = dir.join("init.lua");
    let text = std::fs::read_to_string(&init).expect("read");
    let text = text.replacen(
        "kessel.unit_type{ id = \"tank\", class = \"wheels\"",
        "kessel.unit_type{ id = \"tank\", side = \"red\", class = \"wheels\"",
        1,
    );
    std::fs::write(&init, text).expect("write");
    let mut h = harness(&dir);
    scenario_mode(&mut h);
    h.get_by_label("New unit").click();
    h.run();
    let offered = |h: &mut Harness<'_, EditorApp>| {
        h.get_by_label("new type").click();
        h.run();
        let names: Vec<String> = ["inf", "tank", "squad"]
            .into_iter()
            .filter(|t| h.query_by_label(t).is_some())
            .map(str::to_string)
            .collect();
        h.key_press(Key::Escape);
        h.run();
        names
    };
    h.state_mut().scenario_panel.draft.side = "red".into();
    h.run();
    assert_eq!(offered(&mut h), ["inf", "tank", "squad"]);
    h.state_mut().scenario_panel.draft.kind = "tank".into();
    h.state_mut().scenario_panel.draft.side = "blue".into();
    h.run();
    assert_eq!(offered(&mut h), ["inf", "squad"], "the tank is red's");
    assert_ne!(
        h.state().scenario_panel.draft.kind,
        "tank",
        "a blue unit is not left a red type"
    );
}

/// The reinforcement schedule says how to add a reinforcement, in the words of the control
/// that does it (a unit's "Enters later"; it used to name an "Enters on turn" nobody could find).
#[test]
fn the_reinforcement_schedule_says_how_to_add_one_with_the_controls_name() {
    let dir = toy_copy("sc-schedule-hint");
    let mut h = harness(&dir);
    scenario_mode(&mut h);
    h.get_by_label("Reinforcements").click();
    h.run();
    h.get_by_label_contains(
        "To add one, pick a unit under Units (or make one under New unit) and set where it starts to \"Enters later\".",
    );
    h.get_by_label("Units").click();
    h.run();
    h.get_by_label_contains("r1 ").click();
    h.run();
    // the control the hint names
    h.get_by_label("Enters later");
}

/// The victory levels say how a level is picked in a sentence a newcomer can parse (it read
/// "First level whose max the score is at most applies").
#[test]
fn the_victory_levels_say_how_the_level_is_picked() {
    let dir = toy_copy("sc-levels-hint");
    let mut h = harness(&dir);
    scenario_mode(&mut h);
    h.get_by_label("Victory").click();
    h.run();
    h.get_by_label(
        "Read from the top: the first level whose Max score is at least the game's score (as the ruleset's victory rules count it) applies; an empty Max takes any score.",
    );
    h.get_by_label("Max score");
}

/// The faces field says what a face's numbers are in the unit type's own terms: a type with
/// `face_fields` (the toy's squad, ASL's squads) names them, the others read A-D-M. (Every unit
/// used to say A-D-M, which an ASL squad's 4-6-7 is not.)
#[test]
fn the_faces_field_names_the_parts_of_the_unit_types_faces() {
    let dir = toy_copy("sc-face-fields");
    let path = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&path).expect("read");
    std::fs::write(
        &path,
        format!("{text}\n[[units]]\nid = \"s1\"\nside = \"red\"\ntype = \"squad\"\nfaces = [\"4-6-7\"]\nat = \"0204\"\n"),
    )
    .expect("write");
    let mut h = harness(&dir);
    super::reload::wait_for(&mut h, "the ruleset's read", |app| {
        !app.reading_declarations()
    });
    scenario_mode(&mut h);
    h.get_by_label_contains("s1 ").click();
    h.run();
    h.get_by_label("Faces (firepower-range-morale per step)");
    h.get_by_label_contains("r1 ").click();
    h.run();
    h.get_by_label("Faces (A-D-M per step)");
    assert!(h
        .query_by_label("Faces (firepower-range-morale per step)")
        .is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Details tab lists the variables the ruleset reads that the scenario leaves out, with
/// type, default and meaning (the toy's `bonus`: int, default 0, "Victory points added for
/// red"), and *Set* fills the new-variable fields to add it. (It only said to run `kessel info`.)
#[test]
fn the_rulesets_variables_are_listed_and_one_is_set_from_its_default() {
    let dir = toy_copy("sc-declared-vars");
    let mut h = harness(&dir);
    super::reload::wait_for(&mut h, "the ruleset's read", |app| {
        !app.reading_declarations()
    });
    scenario_mode(&mut h);
    h.get_by_label("Details").click();
    h.run();
    let kind = h.get_by_label("int, default 0").rect();
    let meaning = h.get_by_label("Victory points added for red").rect();
    // the meaning reads at the size of the line above it, not in the small style
    assert!(
        meaning.height() >= kind.height() - 0.5,
        "meaning {meaning:?} beside {kind:?}"
    );
    h.get_by_label("set var bonus").click();
    h.run();
    h.get_by_label("Add variable").click();
    h.run();
    let vars = h.state().doc.scenario.as_ref().map(|s| s.vars.clone());
    assert_eq!(
        vars.map(|v| (v.iter())
            .map(|x| (x.key.clone(), x.value.clone()))
            .collect::<Vec<_>>()),
        Some(vec![("bonus".to_string(), "0".to_string())])
    );
    // set, it leaves the list of those left out
    assert!(h.query_by_label("set var bonus").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The scenario's profile is picked from the ruleset's profiles (the toy's `open` and
/// `standard`), or typed as a path; it was a bare text field, a typo found only by the checks.
#[test]
fn the_scenarios_profile_is_picked_from_the_rulesets_profiles() {
    let dir = toy_copy("sc-profile-pick");
    let mut h = harness(&dir);
    scenario_mode(&mut h);
    h.get_by_label("Details").click();
    h.run();
    h.get_by_label("pick profile").click();
    h.run();
    h.get_by_label("open").click();
    h.run();
    let profile = (h.state().doc.scenario.as_ref()).and_then(|s| s.meta.profile.clone());
    assert_eq!(profile.as_deref(), Some("open"));
    h.get_by_label("pick profile").click();
    h.run();
    h.get_by_label("none (every option at its default)").click();
    h.run();
    let profile = (h.state().doc.scenario.as_ref()).and_then(|s| s.meta.profile.clone());
    assert_eq!(profile, None);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The new-unit form reads its faces as `check` does and refuses bad ones at once, saying why:
/// *Add unit* stays off until the faces are the type's (A-D-M for the toy's infantry; a type
/// with `face_fields` reads them by those names, as `check` does).
#[test]
fn the_new_unit_form_refuses_bad_faces_at_once() {
    let dir = toy_copy("sc-new-unit-faces");
    let mut h = harness(&dir);
    scenario_mode(&mut h);
    h.get_by_label("New unit").click();
    h.run();
    h.get_by_label("d id").click();
    h.run();
    h.get_by_label("d id").type_text("r9");
    h.run();
    let add_enabled = |h: &Harness<'_, EditorApp>| {
        use egui_kittest::kittest::NodeT;
        !h.get_by_label("Add unit").accesskit_node().is_disabled()
    };
    // no faces yet: said, and not added
    h.get_by_label_contains("give its faces");
    assert!(!add_enabled(&h), "a unit with no faces is refused");
    h.get_by_label("draft faces").click();
    h.run();
    h.get_by_label("draft faces").type_text("4-2-6, 2-1");
    h.run();
    h.get_by_label_contains("`2-1` is not a face (A-D-M)");
    super::picture(&mut h, "new-unit-bad-face");
    assert!(!add_enabled(&h), "a bad face is refused");
    let units = h.state().doc.scenario.as_ref().map(|s| s.units.len());
    h.get_by_label("Add unit").click();
    h.run();
    assert_eq!(
        h.state().doc.scenario.as_ref().map(|s| s.units.len()),
        units,
        "clicking the refused button adds nothing"
    );
    h.get_by_label("draft faces").focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("draft faces").type_text("4-2-6, 2-1-6");
    h.run();
    assert!(h.query_by_label_contains("is not a face").is_none());
    assert!(add_enabled(&h), "good faces are taken");
    h.get_by_label("Add unit").click();
    h.run();
    let added = h
        .state()
        .doc
        .scenario
        .as_ref()
        .and_then(|s| s.unit("r9"))
        .map(|u| u.faces.clone());
    assert_eq!(added, Some(vec!["4-2-6".to_string(), "2-1-6".to_string()]));
}

/// The scenario's set-up markers are drawn in scenario mode as play-test draws them (the mode
/// drew none), and not in map mode, where the map is edited apart from any scenario.
#[test]
fn scenario_mode_draws_the_set_up_markers() {
    let dir = toy_copy("sc-markers");
    let path = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&path).expect("the toy scenario");
    let marker = "\n[[markers]]\nkind = \"mine\"\nside = \"blue\"\nat = \"0404\"\nvalue = 2\n";
    std::fs::write(&path, text + marker).expect("writes the scenario");
    let mut h = harness(&dir);
    assert!(h.state().setup_markers_shown().is_empty(), "map mode");
    scenario_mode(&mut h);
    let shown: Vec<_> = (h.state().setup_markers_shown().iter())
        .map(|m| (m.kind.clone(), m.hex.map(|x| h.state().doc.map.label(x))))
        .collect();
    assert_eq!(shown, [("mine".to_string(), Some("0404".to_string()))]);
    h.get_by_label("Play-test").click();
    h.run();
    let played: Vec<_> = (h.state().session.as_ref().expect("a game").markers.iter())
        .map(|m| (m.kind.clone(), m.hex.map(|x| h.state().doc.map.label(x))))
        .collect();
    assert_eq!(
        played, shown,
        "the same markers as play-test's at the start"
    );
}
