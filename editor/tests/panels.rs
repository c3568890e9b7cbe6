//! Headless UI tests: the whole editor driven through `egui_kittest` on the small fixture
//! scenario, asserting on the document and on what the panels show. The play-test, rules and
//! hot-reload tests run on a copy of the core's toy ruleset (`panels/*.rs`, one binary: each test
//! binary links the whole GUI stack).

#[path = "panels/brushes.rs"]
mod brushes;
#[path = "panels/campaign.rs"]
mod campaign;
#[path = "panels/computer.rs"]
mod computer;
#[path = "panels/gm.rs"]
mod gm;
#[path = "panels/hostile.rs"]
mod hostile;
#[path = "panels/lab.rs"]
mod lab;
#[path = "panels/long_play.rs"]
mod long_play;
#[path = "panels/newcomer.rs"]
mod newcomer;
#[path = "panels/play.rs"]
mod play;
#[path = "panels/problems.rs"]
mod problems;
#[path = "panels/region.rs"]
mod region;
#[path = "panels/reload.rs"]
mod reload;
#[path = "panels/rules.rs"]
mod rules;
#[path = "panels/runaway.rs"]
mod runaway;
#[path = "panels/runaway_campaign.rs"]
mod runaway_campaign;
#[path = "panels/scenario.rs"]
mod scenario;
#[path = "panels/screens.rs"]
mod screens;
#[path = "panels/side_cells.rs"]
mod side_cells;
#[path = "panels/solo.rs"]
mod solo;
#[path = "panels/startup.rs"]
mod startup;
#[path = "panels/step_hints.rs"]
mod step_hints;
#[path = "panels/toy.rs"]
mod toy;
#[path = "panels/underlay.rs"]
mod underlay;
#[path = "panels/walkthrough.rs"]
mod walkthrough;

use egui::{Key, Modifiers, Pos2};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use kessel_core::hex::{Hex, Hexside};
use kessel_editor::document::{Document, SaveOutcome};
use kessel_editor::EditorApp;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/small")
        .join(name)
}

fn harness() -> Harness<'static, EditorApp> {
    let doc = Document::open(&fixture("scenario.toml")).expect("fixture scenario loads");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1100.0, 720.0))
        .with_max_steps(64)
        .build_ui_state(
            |ui, app: &mut EditorApp| app.ui_root(ui),
            EditorApp::new(doc),
        );
    // the first frame sizes the canvas and fits the map; positions are known after it
    h.run();
    h
}

/// With `KESSEL_SHOTS=DIR` set, the window as it is now goes to `DIR/NAME.png` (for the guide).
fn picture(h: &mut Harness<'_, EditorApp>, name: &str) {
    if let Some(dir) = std::env::var_os("KESSEL_SHOTS") {
        let img = h.render().expect("renders");
        img.save(Path::new(&dir).join(format!("{name}.png")))
            .expect("writes the picture");
    }
}

fn hex(h: &Harness<'_, EditorApp>, label: &str) -> Hex {
    h.state()
        .doc
        .map
        .parse(label)
        .expect("label on the fixture map")
}

fn screen_of(h: &Harness<'_, EditorApp>, label: &str) -> Pos2 {
    let app = h.state();
    app.map_view.hex_to_screen(&app.doc.map, hex(h, label))
}

fn click_at(h: &mut Harness<'_, EditorApp>, pos: Pos2) {
    h.hover_at(pos);
    h.run();
    h.drag_at(pos);
    // one step only: a press held longer than egui's click time would count as a drag
    h.step();
    h.drop_at(pos);
    h.run();
}

fn click_hex(h: &mut Harness<'_, EditorApp>, label: &str) {
    let pos = screen_of(h, label);
    click_at(h, pos);
}

fn terrain(h: &Harness<'_, EditorApp>, label: &str) -> String {
    let hex = hex(h, label);
    h.state()
        .doc
        .map
        .terrain_name(hex)
        .unwrap_or("?")
        .to_string()
}

#[test]
fn paint_terrain_tool_paints_the_clicked_hex() {
    let mut h = harness();
    assert_eq!(terrain(&h, "0505"), "clear");
    h.get_by_label("Paint terrain").click();
    h.run();
    h.get_by_label("swamp").click();
    h.run();
    click_hex(&mut h, "0505");
    assert_eq!(terrain(&h, "0505"), "swamp");
    // the inspector follows the clicked hex
    h.get_by_label("Hex 0505");
    h.get_by_label("Terrain: swamp");
    assert!(h.state().doc.is_dirty());
}

#[test]
fn undo_and_redo_restore_painted_terrain() {
    let mut h = harness();
    let original = h.state().doc.map.clone();
    h.get_by_label("Paint terrain").click();
    h.run();
    h.get_by_label("lake").click();
    h.run();
    click_hex(&mut h, "0305");
    assert_eq!(terrain(&h, "0305"), "lake");

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().doc.map, original);
    assert!(!h.state().doc.is_dirty());

    h.get_by_label("Redo").click();
    h.run();
    assert_eq!(terrain(&h, "0305"), "lake");
}

#[test]
fn clicking_a_stack_lists_every_unit_in_the_inspector() {
    let mut h = harness();
    click_hex(&mut h, "0504");
    h.get_by_label("Hex 0504");
    h.get_by_label("Units: 2");
    h.get_by_label("Lukin");
    h.get_by_label("rating: 3");
    h.get_by_label("face: 0-3-10");
    // the face-down rifle division shows no values, only where they will come from
    h.get_by_label("rifle (face down)");
    h.get_by_label("id s-rifle-1");
    h.get_by_label("hidden (values from pool rifle)");

    click_hex(&mut h, "0202");
    h.get_by_label("25 Pz");
    h.get_by_label("35 Inf");
    h.get_by_label("steps: 4-4-10, 2-2-10 (full strength)");
}

#[test]
fn hexside_tool_toggles_a_river_on_the_edge_nearest_the_click() {
    let mut h = harness();
    h.get_by_label("Hexside feature").click();
    h.run();
    let (a, b) = (screen_of(&h, "0606"), screen_of(&h, "0605"));
    // a point just inside 0606, next to its north edge
    let near_edge = a + (b - a) * 0.4;
    let side = Hexside::between(hex(&h, "0606"), hex(&h, "0605")).expect("adjacent");
    assert!(!h.state().doc.map.side_has(side, "river"));
    click_at(&mut h, near_edge);
    assert!(h.state().doc.map.side_has(side, "river"));
    click_at(&mut h, near_edge);
    assert!(!h.state().doc.map.side_has(side, "river"));
}

#[test]
fn link_tool_adds_a_railway_between_adjacent_hexes() {
    let mut h = harness();
    h.get_by_label("Link").click();
    h.run();
    h.get_by_label("railway").click();
    h.run();
    click_hex(&mut h, "0705");
    click_hex(&mut h, "0706");
    let side = Hexside::between(hex(&h, "0705"), hex(&h, "0706")).expect("adjacent");
    assert!(h.state().doc.map.side_has(side, "railway"));
    // a hex two steps away starts a new link instead of failing
    click_hex(&mut h, "0704");
    assert_eq!(h.state().palette.link_from, Some(hex(&h, "0704")));
}

#[test]
fn save_writes_nothing_until_the_map_changes_and_then_round_trips() {
    let dir = kessel_test_support::scratch("editor-save");
    std::fs::create_dir_all(&dir).expect("temp dir");
    for f in ["scenario.toml", "map.toml"] {
        std::fs::copy(fixture(f), dir.join(f)).expect("copy fixture");
    }
    let original = std::fs::read(dir.join("map.toml")).expect("read");
    let mut doc = Document::open(&dir.join("scenario.toml")).expect("opens");
    assert_eq!(doc.save().expect("save"), SaveOutcome::Unchanged);
    assert_eq!(std::fs::read(dir.join("map.toml")).expect("read"), original);

    let hex = doc.map.parse("0101").expect("label");
    let paint = kessel_editor::command::EditorCommand::SetTerrain {
        hex,
        terrain: "swamp".into(),
        stroke: 1,
    };
    assert_eq!(doc.edit(&paint), Ok(true));
    assert!(matches!(doc.save().expect("save"), SaveOutcome::Written(_)));
    assert!(!doc.is_dirty());
    let saved = std::fs::read_to_string(dir.join("map.toml")).expect("read");
    // the author's legend characters survive the rewrite, and so do the comments it opens with
    assert!(saved.contains(r#""~" = "lake""#), "{saved}");
    assert!(
        saved.starts_with("# A small map for the editor's tests"),
        "{saved}"
    );
    let reread = Document::open(&dir.join("scenario.toml")).expect("saved map loads");
    assert_eq!(reread.map.terrain_name(hex), Some("swamp"));
    assert_eq!(reread.map.features, doc.map.features);
    assert_eq!(reread.map.places, doc.map.places);
    assert_eq!(reread.map.areas, doc.map.areas);
    assert_eq!(reread.map.tags, doc.map.tags);
    // no temporary file left behind
    let names: Vec<_> = std::fs::read_dir(&dir)
        .expect("list")
        .filter_map(|e| e.ok().map(|e| e.file_name()))
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn editor_window_snapshot() {
    let mut h = harness();
    click_hex(&mut h, "0202");
    h.snapshot("editor_small_scenario");
}

#[test]
fn file_open_replaces_the_document_and_reports_a_bad_path() {
    let mut h = harness();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Open…").click();
    h.run();
    assert!(h.state().open_dialog.is_some(), "the dialog opened");
    // a path that does not exist: the document stays, the status bar says why
    h.state_mut().open_dialog = Some("/nonexistent/scenario.toml".into());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    let before = h.state().doc.name.clone();
    assert!(
        h.state().open_dialog.is_some(),
        "the dialog stays open after a failure"
    );
    // the toy scenario of the core's tests
    let toy =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/fixtures/toy/scenario.toml");
    h.state_mut().open_dialog = Some(toy.display().to_string());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    assert_eq!(h.state().doc.name, "Toy battle");
    assert_ne!(before, "Toy battle");
    assert!(h.state().open_dialog.is_none());
}

/// File → Open… says why a file does not open inside the dialog, in words that fit it: a saved
/// game is not a scenario (it said the file had no [scenario] table); a scenario folder opens
/// its scenario.toml, as `kessel editor FOLDER` does (it said the path was a folder).
#[test]
fn file_open_says_why_in_the_dialog_and_takes_a_scenario_folder() {
    let mut h = harness();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Open…").click();
    h.run();
    let save = std::env::temp_dir().join("kessel-open-dialog.save.json");
    h.state_mut().open_dialog = Some(save.display().to_string());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    assert!(h.state().open_dialog.is_some(), "the dialog stays open");
    // in the dialog and in the status bar
    let said = "is a saved game, not a scenario: open the scenario it was played on";
    assert_eq!(h.query_all_by_label_contains(said).count(), 2);
    assert!(h
        .state()
        .open_error
        .as_deref()
        .is_some_and(|e| e.contains(said)));
    picture(&mut h, "editor-open-error");
    // a folder holding scenario.toml: the toy's
    let toy = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/fixtures/toy");
    h.state_mut().open_dialog = Some(toy.display().to_string());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    assert_eq!(h.state().doc.name, "Toy battle");
    assert!(h.state().open_dialog.is_none());
    assert!(h.state().open_error.is_none());
}

/// The editor shows the campaign's set-up with the same unit on top of every stack as
/// `kessel render` (which draws the scenario's initial state): both take the top from the
/// drawing model's one rule, over the same order of units.
#[test]
fn the_editor_and_the_renderer_put_the_same_unit_on_top() {
    use kessel_core::scenario::Scenario;
    use kessel_draw::pieces::{stacks, top_of};
    use std::collections::BTreeMap;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios/pgg/campaign.toml");
    let tops = |units: &[kessel_core::state::Unit]| -> BTreeMap<Hex, String> {
        stacks(units)
            .into_iter()
            .filter_map(|(h, s)| top_of(&s).map(|&i| (h, units[i].id.clone())))
            .collect()
    };
    let doc = Document::open(&path).expect("the campaign opens");
    let scenario = Scenario::load(&path).expect("the campaign loads");
    let sides: Vec<String> = doc.sides.clone();
    let state = scenario.initial_state(sides, 1);
    let (editor, render) = (tops(doc.units.all()), tops(&state.units));
    assert!(editor.len() > 10, "{} stacks", editor.len());
    assert_eq!(editor, render);
}

/// A place's kind is picked from the kinds the ruleset declares (the fixture's major_city and
/// minor_city), not typed: a typo made a kind the rules do not know.
#[test]
fn a_place_kind_is_picked_from_the_rulesets_kinds() {
    let mut h = harness();
    h.get_by_label("Map data").click();
    h.run();
    assert_eq!(h.state().doc.map.places[0].kind, "major_city");
    h.get_by_label("place kind 0").click();
    h.run();
    h.get_by_label("minor_city").click();
    h.run();
    assert_eq!(h.state().doc.map.places[0].kind, "minor_city");
    assert!(h.state().doc.is_dirty());
}
