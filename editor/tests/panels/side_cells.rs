//! The scenario editor's side cells (reinforcements, objectives, markers, pools, the unit form)
//! offer the ruleset's sides to pick, and flag a side the ruleset does not have.

use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use kessel_editor::document::Document;
use kessel_editor::panels::Mode;
use kessel_editor::EditorApp;
use std::time::{Duration, Instant};

/// The toy scenario with its reinforcement `b2` given a side the toy ruleset lacks.
fn with_a_stray_side(name: &str) -> Harness<'static, EditorApp> {
    let dir = kessel_test_support::toy_copy(name);
    let path = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&path).expect("the toy scenario");
    let text = text.replacen(
        "id = \"b2\"\nside = \"blue\"",
        "id = \"b2\"\nside = \"bleu\"",
        1,
    );
    std::fs::write(&path, text).expect("writes the scenario");
    let doc = Document::open(&path).expect("the scenario opens");
    let mut app = EditorApp::without_watcher(doc);
    app.set_mode(Mode::Scenario);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1300.0, 850.0))
        .with_max_steps(8)
        .build_ui_state(|ui, app: &mut EditorApp| app.ui_root(ui), app);
    let start = Instant::now();
    while h.state().ruleset_names.is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the ruleset's names"
        );
        h.step();
    }
    h.run_ok();
    h
}

#[test]
fn a_reinforcements_side_is_picked_from_the_rulesets_sides_and_a_stray_one_is_flagged() {
    let mut h = with_a_stray_side("side-cells-reinforcements");
    h.get_by_label("Reinforcements").click();
    h.run_ok();
    // a choice, not a text field: the stray side is shown flagged
    let cell = h.get_by_label("side b2");
    assert_eq!(
        cell.accesskit_node().role(),
        egui::accesskit::Role::ComboBox
    );
    let shown = cell.accesskit_node().value().unwrap_or_default();
    assert!(shown.contains("bleu ?"), "flagged: {shown}");
    cell.click();
    h.run_ok();
    // the list holds the ruleset's sides, not the stray one
    assert!(h.query_by_label("red").is_some(), "red offered");
    super::picture(&mut h, "side-cells");
    h.get_by_label("blue").click();
    h.run_ok();
    let doc = &h.state().doc;
    let def = doc.scenario.as_ref().expect("a scenario");
    assert_eq!(
        def.unit("b2").expect("b2").side,
        "blue",
        "picked from the list"
    );
    let shown = (h.get_by_label("side b2").accesskit_node().value()).unwrap_or_default();
    assert_eq!(shown, "blue", "no longer flagged");
}

#[test]
fn an_objectives_side_is_a_choice_with_none() {
    let mut h = with_a_stray_side("side-cells-objectives");
    h.get_by_label("Victory").click();
    h.run_ok();
    let cell = h.get_by_label("objective side 0");
    assert_eq!(
        cell.accesskit_node().role(),
        egui::accesskit::Role::ComboBox
    );
    cell.click();
    h.run_ok();
    h.get_by_label("(none)").click();
    h.run_ok();
    let def = h.state().doc.scenario.clone().expect("a scenario");
    assert_eq!(def.objectives[0].side, None, "no side");
}
