//! Open anything: a toy copy broken five ways (a short terrain row, an undeclared terrain kind, a
//! unit off the map, a special rule with a syntax error, then an overstacked hex once the rule
//! loads) opens, lists
//! every problem with file and line, refuses play-test until they are fixed, and clears each
//! problem as it is fixed in the editor or on disk.

use super::reload::wait_for;
use super::toy::{click_hex, harness, toy_copy};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use kessel_editor::command::EditorCommand;
use kessel_editor::panels::scenario::ScenarioTool;
use kessel_editor::panels::Mode;
use kessel_editor::EditorApp;
use std::path::Path;

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).expect("read");
    assert!(text.contains(from), "{from} not in {}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).expect("write");
}

fn messages(h: &Harness<'_, EditorApp>) -> Vec<String> {
    h.state()
        .validator
        .issues
        .iter()
        .map(|i| format!("{} {}", i.location, i.message))
        .collect()
}

fn check_now(h: &mut Harness<'_, EditorApp>) {
    h.state_mut().validator.run_now_for_tests();
    h.run();
}

/// Clicks the listed problem whose message contains `text`.
fn click_problem(h: &mut Harness<'_, EditorApp>, text: &str) {
    h.get_by_label_contains(text).click();
    h.run();
}

#[test]
fn a_broken_scenario_opens_lists_its_problems_and_clears_them_as_they_are_fixed() {
    let dir = toy_copy("open-broken");
    edit(&dir.join("map.toml"), "\".ww..w.\"", "\".ww..w\"");
    // a terrain kind the ruleset does not declare, in hex 0404
    edit(
        &dir.join("map.toml"),
        "\"w\" = \"woods\" }",
        "\"w\" = \"woods\", \"x\" = \"jungle\" }",
    );
    edit(&dir.join("map.toml"), "\"...w.ww\"", "\"...x.ww\"");
    edit(&dir.join("scenario.toml"), "at = \"0203\"", "at = \"0909\"");
    edit(
        &dir.join("scenario.toml"),
        "turns = 3",
        "turns = 3\nscripts = [\"special.lua\"]",
    );
    std::fs::write(dir.join("special.lua"), "local x = = 1\n").expect("write");

    let mut h = harness(&dir);
    check_now(&mut h);
    let found = messages(&h);
    assert_eq!(found.len(), 4, "{found:#?}");
    assert!(found[0].contains("map.toml:13") && found[0].contains("row 2 has 6 hexes"));
    assert!(found[1].contains("scenario.toml:") && found[1].contains("off the map"));
    assert!(found[2].contains("special.lua:1"), "{found:#?}");
    // the map's kinds are checked although the special rule does not load
    assert!(
        found[3].contains("map.toml:") && found[3].contains("`jungle`"),
        "{found:#?}"
    );
    // the map shows as far as it loaded; play-test is not offered
    assert_eq!(h.state().doc.map.columns(), 7);
    assert!(h.state().play_blocked().is_some());
    h.get_by_label("Play-test").click();
    h.run();
    assert_eq!(h.state().palette.mode, Mode::Edit, "play-test stays off");
    assert!(h.state().session.is_none());

    // the short row: clicking the problem selects the row's hex; saving writes the row whole
    click_problem(&mut h, "row 2 has 6 hexes");
    let row2 = h.state().doc.map.parse("0102");
    assert_eq!(h.state().selected, row2);
    h.state_mut().apply(vec![EditorCommand::Save]);
    check_now(&mut h);
    assert_eq!(messages(&h).len(), 3, "{:#?}", messages(&h));
    let map = std::fs::read_to_string(dir.join("map.toml")).expect("read");
    assert!(kessel_core::scenario::parse_map(&dir.join("map.toml"), &map).is_ok());

    // the unknown terrain: painted over in the editor, it goes
    let jungle = h.state().doc.map.parse("0404").expect("hex");
    h.state_mut().apply(vec![EditorCommand::SetTerrain {
        hex: jungle,
        terrain: "clear".into(),
        stroke: 99,
    }]);
    check_now(&mut h);
    assert_eq!(messages(&h).len(), 2, "{:#?}", messages(&h));

    // the unit off the map: clicking picks it in scenario editing; placing it fixes it
    click_problem(&mut h, "off the map");
    assert_eq!(h.state().palette.mode, Mode::Scenario);
    assert_eq!(h.state().scenario_panel.picked.as_deref(), Some("r1"));
    h.state_mut().scenario_panel.tool = ScenarioTool::Place;
    click_hex(&mut h, "0203");
    check_now(&mut h);
    let left = messages(&h);
    assert_eq!(left.len(), 1, "{left:#?}");
    // saved, so that the file changes below reload (a document with unsaved edits does not)
    h.state_mut().apply(vec![EditorCommand::Save]);
    h.run();

    // the special rule, fixed on disk: hot reload re-checks, and the set-up check runs now,
    // finding an overstacked hex
    edit(&dir.join("scenario.toml"), "at = \"0603\"", "at = \"0103\"");
    edit(
        &dir.join("scenario.toml"),
        "enter = { turn = 2, area = \"W\" }",
        "at = \"0103\"",
    );
    std::fs::write(dir.join("special.lua"), "-- no special rule\n").expect("write");
    wait_for(
        &mut h,
        "the fixed rule and the overstack to be checked",
        |app| {
            app.validator
                .issues
                .iter()
                .any(|i| i.message.contains("overstacks"))
                && !app
                    .validator
                    .issues
                    .iter()
                    .any(|i| i.location.contains("special.lua"))
        },
    );
    assert!(h.state().play_blocked().is_some());
    // the overstack: move one of the three units in 0103 away
    click_problem(&mut h, "overstacks");
    let picked = h
        .state()
        .scenario_panel
        .picked
        .clone()
        .expect("a unit picked");
    assert!(["r2", "b1", "b2"].contains(&picked.as_str()), "{picked}");
    h.state_mut().scenario_panel.tool = ScenarioTool::Place;
    click_hex(&mut h, "0204");
    check_now(&mut h);
    assert!(messages(&h).is_empty(), "{:#?}", messages(&h));

    // no problems: play-test is offered and starts
    assert!(h.state().play_blocked().is_none());
    h.get_by_label("Play-test").click();
    h.run();
    assert_eq!(h.state().palette.mode, Mode::Play);
    assert!(h.state().session.is_some(), "{:?}", h.state().session_error);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A map opened alone offers neither play-test nor the rules: both buttons are off and say why
/// on hover; a scripted start in play-test says it in the panel, without the red banner asking
/// to fix a file (nothing is wrong with the map). (Play-test used to try, and fail, to start.)
#[test]
fn a_map_alone_does_not_offer_play_test_or_the_rules() {
    use egui_kittest::kittest::Queryable;
    use kessel_editor::panels::palette::BARE_MAP;
    let map = kessel_test_support::workspace_root().join("core/tests/fixtures/toy/map.toml");
    let doc = kessel_editor::Document::open(&map).expect("the map opens");
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::vec2(1100.0, 720.0))
        .build_ui_state(
            |ui, app: &mut kessel_editor::EditorApp| app.ui_root(ui),
            kessel_editor::EditorApp::without_watcher(doc),
        );
    h.run();
    assert_eq!(h.state().play_blocked().as_deref(), Some(BARE_MAP));
    h.get_by_label("Play-test").click();
    h.run();
    h.get_by_label("Rules").click();
    h.run();
    assert_eq!(h.state().palette.mode, kessel_editor::panels::Mode::Edit);
    h.state_mut().set_mode(kessel_editor::panels::Mode::Play);
    h.run();
    assert!(h.state().session.is_none());
    assert_eq!(h.state().session_error.as_deref(), Some(BARE_MAP));
    assert!(h.state().problems.is_empty(), "{:?}", h.state().problems);
    assert!(h.query_by_label_contains("Fix the file").is_none());
}
