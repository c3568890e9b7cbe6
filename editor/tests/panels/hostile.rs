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

/// A way to break a file: what it is, how, and what the panel then says.
type Breakage<'a, S> = (&'a str, Box<dyn Fn() + 'a>, S);

/// The scenario file replaced while a game is played by what a crash, a bad copy or a stray
/// command leaves: an empty file, a TOML error, a file over the size limit, a folder, nothing at
/// all. Each reload fails saying so, naming the file (and the line where there is one); the
/// document, the game in progress and its state stay; the good file back reloads.
#[test]
fn a_scenario_replaced_by_broken_files_while_playing_keeps_the_game_and_names_the_file() {
    let dir = toy_copy("hostile-scenario-files");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    let mv = kessel_core::Action::new("move")
        .with("unit", "r1")
        .with("path", serde_json::json!(["0303"]));
    h.state_mut().apply_play(vec![PlayCommand::Act(mv)]);
    h.run();
    assert_eq!(unit_hex(&h, "r1").as_deref(), Some("0303"));
    let hash = |h: &egui_kittest::Harness<'_, kessel_editor::EditorApp>| {
        let s = h.state().session.as_ref().expect("the game goes on");
        (s.engine.state().hash(), s.engine.log().len())
    };
    let before = hash(&h);
    let units = h.state().doc.units.all().len();
    let path = dir.join("scenario.toml");
    let good = std::fs::read_to_string(&path).expect("read");
    let lines = good.lines().count();
    // (each case is told from the one before by what the panel says)
    let said = |app: &kessel_editor::EditorApp| {
        app.problems
            .scenario
            .as_ref()
            .map(|p| format!("{} {}", p.location.as_deref().unwrap_or(""), p.message))
    };
    let cases: [Breakage<'_, String>; 5] = [
        (
            "emptied",
            Box::new(|| std::fs::write(&path, "").expect("write")),
            "neither a scenario".into(),
        ),
        (
            "a TOML error at its end",
            Box::new(|| std::fs::write(&path, format!("{good}[[units]\n")).expect("write")),
            format!("scenario.toml:{}", lines + 1),
        ),
        (
            "over the size limit",
            Box::new(|| {
                let f = std::fs::File::create(&path).expect("create");
                f.set_len(kessel_core::fsio::MAX_TEXT_INPUT + 1)
                    .expect("a sparse file");
            }),
            "the limit is".into(),
        ),
        (
            "a folder",
            Box::new(|| {
                std::fs::remove_file(&path).expect("remove");
                std::fs::create_dir(&path).expect("mkdir");
            }),
            "folder".into(),
        ),
        (
            "gone",
            Box::new(|| std::fs::remove_dir(&path).expect("rmdir")),
            "scenario.toml".into(),
        ),
    ];
    let mut last = String::new();
    for (what, make, words) in &cases {
        make();
        wait_for(&mut h, what, |app| {
            said(app).is_some_and(|s| s != last && s.contains(words.as_str()))
        });
        last = said(h.state()).expect("a problem");
        assert!(last.contains("scenario.toml"), "{what}: {last}");
        assert!(h.state().status.reload_failed, "{what}");
        assert_eq!(
            h.state().doc.units.all().len(),
            units,
            "{what}: the document stays"
        );
        assert_eq!(hash(&h), before, "{what}: the game stays");
        h.get_by_label_contains("The scenario failed to reload");
    }
    std::fs::write(&path, &good).expect("write");
    wait_for(&mut h, "the good scenario back", |app| {
        app.problems.scenario.is_none()
    });
    assert!(!h.state().status.reload_failed);
    assert_eq!(hash(&h), before, "the game stays");
    assert_eq!(unit_hex(&h, "r1").as_deref(), Some("0303"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A rules file replaced while a game is played by a folder, an empty file of its module's name
/// gone, or one over the size limit: each reload fails naming the file, the last good rules stay
/// live and the game goes on; the good file back reloads them.
#[test]
fn a_rules_file_replaced_by_a_folder_or_removed_while_playing_keeps_the_last_good_rules() {
    let dir = toy_copy("hostile-rules-files");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    let before = {
        let s = h.state().session.as_ref().expect("a game");
        s.engine.state().hash()
    };
    let play = dir.join("rules/play.lua");
    let good = std::fs::read_to_string(&play).expect("read");
    let live = |app: &kessel_editor::EditorApp| {
        let s = app.session.as_ref().expect("the game goes on");
        assert_eq!(s.engine.state().hash(), before, "the game stays");
        s.engine.legal_actions(None).expect("rules run").len() > 1
    };
    let cases: [Breakage<'_, &str>; 3] = [
        (
            "a folder",
            Box::new(|| {
                std::fs::remove_file(&play).expect("remove");
                std::fs::create_dir(&play).expect("mkdir");
            }),
            "play.lua",
        ),
        (
            "over the size limit",
            Box::new(|| {
                let f = std::fs::File::create(&play).expect("create");
                f.set_len(kessel_core::fsio::MAX_TEXT_INPUT + 1)
                    .expect("a sparse file");
            }),
            "play.lua",
        ),
        (
            "gone",
            Box::new(|| std::fs::remove_file(&play).expect("remove")),
            "rules.play",
        ),
    ];
    for (what, make, words) in &cases {
        let _ = std::fs::remove_dir(&play);
        make();
        wait_for(&mut h, what, |app| app.problems.rules.is_some());
        let p = h.state().problems.rules.clone().expect("a problem");
        let said = format!("{} {}", p.location.as_deref().unwrap_or(""), p.message);
        assert!(said.contains(words), "{what}: {said}");
        assert!(live(h.state()), "{what}: the last good rules stay live");
        h.get_by_label("Error: The rules failed to reload — the last good rules stay live");
        // the good file back: the rules reload and the panel clears
        let _ = std::fs::remove_dir(&play);
        std::fs::write(&play, &good).expect("write");
        wait_for(&mut h, "the good rules back", |app| {
            app.problems.rules.is_none() && !app.status.reload_failed
        });
        assert!(live(h.state()), "{what}: the rules are live again");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
