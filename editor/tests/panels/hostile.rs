//! The editor against broken or hostile files met while it runs: the scenario deleted while it
//! is open, a rules file saved with a syntax error while a game is played, a save made for
//! another scenario. Each says what happened (with the file, and the line where there is one),
//! and the game or the document in progress is kept.

use super::reload::wait_for;
use super::toy::{harness, toy_copy, unit_hex};
use egui_kittest::kittest::Queryable;
use kessel_editor::play::PlayCommand;
use std::time::Duration;

/// The scenario file is deleted while open: the reload fails, the panel says so naming the
/// file, and the document stays as it was (saving it writes it back).
#[test]
fn a_scenario_deleted_while_open_is_kept_and_said() {
    let dir = toy_copy("hostile-deleted");
    let mut h = harness(&dir);
    let units = h.state().doc.units.all().len();
    let path = dir.join("scenario.toml");
    std::fs::remove_file(&path).expect("delete the scenario");
    wait_for(&mut h, "the failed reload", |app| {
        app.problems.scenario.is_some()
    });
    let problem = h.state().problems.scenario.clone().expect("a problem");
    let said = format!("{problem:?}");
    assert!(said.contains("scenario.toml"), "{said}");
    assert_eq!(
        h.state().doc.units.all().len(),
        units,
        "the document is kept"
    );
    h.get_by_label_contains("The scenario failed to reload");
}

/// A rules file saved with a syntax error in the middle of a game: the error panel names the
/// file and line, the last good rules stay live and the game goes on.
#[test]
fn a_syntax_error_saved_while_playing_names_the_line_and_the_game_goes_on() {
    let dir = toy_copy("hostile-syntax");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    let play = dir.join("rules/play.lua");
    let good = std::fs::read_to_string(&play).expect("read");
    std::fs::write(&play, format!("{good}\nlocal x = = 1\n")).expect("write");
    wait_for(&mut h, "the failed reload", |app| {
        app.problems.rules.is_some()
    });
    let problem = h.state().problems.rules.clone().expect("a problem");
    let location = problem.location.clone().unwrap_or_default();
    let lines = good.lines().count();
    assert!(
        location.contains(&format!("play.lua:{}", lines + 2)),
        "{location} (the file has {lines} lines before the bad one)"
    );
    // the last good rules play on (the action sent as a click on the map sends it)
    let mv = kessel_core::Action::new("move")
        .with("unit", "r2")
        .with("path", serde_json::json!(["0303"]));
    h.state_mut().apply_play(vec![PlayCommand::Act(mv)]);
    let s = h.state_mut().session.as_mut().expect("a game");
    assert!(s.settle(Duration::from_secs(60)), "the move was answered");
    h.run();
    assert_eq!(
        unit_hex(&h, "r2").as_deref(),
        Some("0303"),
        "the game goes on"
    );
}

/// A save made for another scenario (one unit fewer): loading it replays its actions against
/// this scenario's set-up... it belongs to the other file, so it loads that scenario, or says
/// why it cannot; either way the status bar says which, and the game in progress is not lost.
#[test]
fn a_save_of_another_scenario_is_refused_or_loaded_as_its_own_and_says_so() {
    let other = toy_copy("hostile-save-other");
    let mut h = harness(&other);
    h.get_by_label("Play-test").click();
    h.run();
    super::toy::click_hex(&mut h, "0103");
    super::toy::click_hex(&mut h, "0303");
    let save = other.join("game.save.json");
    (h.state_mut()).apply_play(vec![PlayCommand::SaveGame(save.clone())]);
    h.run();
    // the other scenario's file changes afterwards: the save no longer fits it
    let scenario = other.join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("read");
    let text = text.replacen("at = \"0103\"", "at = \"0104\"", 1);
    std::fs::write(&scenario, text).expect("write");
    let here = toy_copy("hostile-save-here");
    let mut h = harness(&here);
    h.get_by_label("Play-test").click();
    h.run();
    super::toy::click_hex(&mut h, "0203");
    super::toy::click_hex(&mut h, "0303");
    assert_eq!(unit_hex(&h, "r1").as_deref(), Some("0303"));
    h.state_mut()
        .apply_play(vec![PlayCommand::LoadGame(save.clone())]);
    let s = h.state_mut().session.as_mut().expect("a game");
    assert!(s.settle(Duration::from_secs(60)), "the load ended");
    h.run();
    let message = h.state().status.message.clone();
    assert!(message.starts_with("cannot load"), "{message}");
    assert!(message.contains("game.save.json"), "{message}");
    assert_eq!(
        unit_hex(&h, "r1").as_deref(),
        Some("0303"),
        "the game in progress is kept"
    );
}
