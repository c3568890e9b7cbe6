//! Scripted starts (`kessel editor … --select`): what is selected can be seen — the map brought
//! to it, the unit's form open — and in play-test it is where the units stand once the computer
//! has made its moves.

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use kessel_editor::document::Document;
use kessel_editor::panels::Mode;
use kessel_editor::{EditorApp, Startup};
use kessel_test_support::workspace_root;
use std::time::{Duration, Instant};

fn opened(scenario: &str, start: Startup) -> Harness<'static, EditorApp> {
    let path = workspace_root().join(scenario);
    let doc = Document::open(&path).expect("the scenario opens");
    let mut app = EditorApp::without_watcher(doc);
    app.startup(start).expect("the scripted start");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1300.0, 850.0))
        .with_max_steps(8)
        .build_ui_state(|ui, app: &mut EditorApp| app.ui_root(ui), app);
    for _ in 0..6 {
        h.step();
    }
    h
}

fn on_canvas(h: &Harness<'_, EditorApp>, label: &str) -> bool {
    let app = h.state();
    let hex = app.doc.map.parse(label).expect("a hex of the map");
    let at = app.map_view.hex_to_screen(&app.doc.map, hex);
    app.map_view.canvas().shrink(10.0).contains(at)
}

/// The campaign opens at a readable zoom on its set-up units; a unit far from them, selected by
/// id, is brought into view and its form opens, scrolled to.
/// Steps the editor until the game has a selection, failing after `limit`.
fn step_until_selected(h: &mut Harness<'_, EditorApp>, limit: Duration) {
    let start = Instant::now();
    while h
        .state()
        .session
        .as_ref()
        .expect("the game")
        .selected
        .is_none()
    {
        assert!(start.elapsed() < limit, "nothing was selected");
        h.step();
    }
}

#[test]
fn a_unit_selected_at_start_is_in_view_with_its_form_open() {
    // the campaign's map does not fit at a readable zoom: 4015 is off the first view
    let mut h = opened(
        "scenarios/pgg/campaign.toml",
        Startup {
            mode: Some(Mode::Scenario),
            select: Some("s-rakutin".into()),
            ..Startup::default()
        },
    );
    h.run_ok();
    assert_eq!(
        h.state().scenario_panel.picked.as_deref(),
        Some("s-rakutin"),
        "the unit's form is the one shown"
    );
    assert!(
        h.query_by_label("Unit s-rakutin").is_some(),
        "its form shows"
    );
    assert!(on_canvas(&h, "4015"), "the map shows where it stands");
    // a unit that enters later is not on the map at set-up: its form opens all the same
    let h = opened(
        "scenarios/pgg/learning.toml",
        Startup {
            mode: Some(Mode::Scenario),
            select: Some("g-7pz-pz".into()),
            ..Startup::default()
        },
    );
    assert!(
        h.query_by_label("Unit g-7pz-pz").is_some(),
        "its form shows"
    );
}

/// With the computer playing, the selection waits for its moves: the unit is selected where it
/// stands when the side at the screen is to decide, not where it stood at set-up.
#[test]
fn a_selection_with_the_computer_playing_follows_its_moves() {
    // the Soviet ends his first turn by hand; the German computer places its air markers and
    // plays its turn; 25 Pz Rgt enters at C during it (it is not on the map at set-up)
    let end = r#"{"kind":"end_phase"}"#.to_string();
    let mut h = opened(
        "scenarios/pgg/learning.toml",
        Startup {
            mode: Some(Mode::Play),
            actions: vec![
                r#"{"kind":"end_air_placement","side":"german"}"#.into(),
                end.clone(),
                end.clone(),
                end.clone(),
                end,
            ],
            computer: vec!["german".into()],
            select: Some("g-7pz-pz".into()),
            ..Startup::default()
        },
    );
    step_until_selected(&mut h, Duration::from_secs(120));
    let s = h.state().session.as_ref().expect("the game");
    assert_eq!(
        s.deciding_side().as_deref(),
        Some("soviet"),
        "the Soviet decides"
    );
    assert!(!s.computer_thinking(), "the computer is done");
    assert!(s.engine.state().turn >= 2, "the German turn was played");
    let pz = s.units.get("g-7pz-pz").and_then(|u| u.hex());
    assert!(pz.is_some(), "25 Pz Rgt has entered");
    assert_eq!(s.selected, pz, "selected where it stands now");
    assert!(
        s.picked.iter().any(|id| id == "g-7pz-pz"),
        "the unit is in the selection: {:?}",
        s.picked
    );
}

/// `--save` with the computer playing writes the game as the computer's moves leave it, as a
/// `--select` is made: a save written at once held the scripted start only.
#[test]
fn a_save_with_the_computer_playing_holds_its_moves() {
    let save = kessel_test_support::scratch("editor-save-after-computer").join("game.save.json");
    let end = r#"{"kind":"end_phase"}"#.to_string();
    let scripted = vec![
        r#"{"kind":"end_air_placement","side":"german"}"#.to_string(),
        end.clone(),
        end.clone(),
        end.clone(),
        end,
    ];
    let mut h = opened(
        "scenarios/pgg/learning.toml",
        Startup {
            mode: Some(Mode::Play),
            actions: scripted.clone(),
            computer: vec!["german".into()],
            save: Some(save.clone()),
            ..Startup::default()
        },
    );
    let start = Instant::now();
    while !save.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the game was never saved"
        );
        h.step();
    }
    let s = h.state().session.as_ref().expect("the game");
    assert_eq!(s.deciding_side().as_deref(), Some("soviet"));
    let played = s.engine.log().len();
    let text = std::fs::read_to_string(&save).expect("the save reads");
    let json: serde_json::Value = serde_json::from_str(&text).expect("the save is JSON");
    let log = json["log"].as_array().expect("a log").len();
    assert!(
        log > scripted.len(),
        "the German computer's turn is in the save: {log} actions"
    );
    assert_eq!(log, played, "the save holds the game as it stands");
}

/// With the computer on every side no person's decision comes before the game's end: the
/// selection is made at once, where the units stand at the start, and the computer is paused so
/// that it stays (its next step would clear it).
#[test]
fn a_selection_with_the_computer_on_every_side_is_made_at_once() {
    let mut h = opened(
        "scenarios/pgg/learning.toml",
        Startup {
            mode: Some(Mode::Play),
            computer: vec!["german".into(), "soviet".into()],
            select: Some("s-19a-r1".into()),
            ..Startup::default()
        },
    );
    step_until_selected(&mut h, Duration::from_secs(60));
    let s = h.state().session.as_ref().expect("the game");
    assert!(!s.engine.state().finished, "selected before the game's end");
    assert_eq!(s.engine.state().turn, 1, "selected in the first turn");
    let at = s.units.get("s-19a-r1").and_then(|u| u.hex());
    assert!(at.is_some(), "19 Army's rifle regiment is on the map");
    assert_eq!(s.selected, at, "selected where it stands");
    // the computer waits, so the selection stays to be seen (a screenshot, a look)
    assert_eq!(s.seats.pace, kessel_editor::play::computer::Pace::Paused);
    let log = s.engine.log().len();
    for _ in 0..20 {
        h.step();
    }
    let s = h.state().session.as_ref().expect("the game");
    assert_eq!(s.selected, at, "still selected");
    assert_eq!(s.engine.log().len(), log, "no move was made meanwhile");
}

/// A scenario whose special rule is broken, opened in play-test with actions to take (`kessel
/// editor … --mode play --act …`) once its check has found the problem: play-test stays the mode,
/// with the problem shown (file and line) where the game would be, not scenario editing.
#[test]
fn play_test_asked_for_on_a_broken_special_rule_stays_and_shows_the_error() {
    let dir = kessel_test_support::toy_copy("startup-broken-special");
    let scenario = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("the scenario");
    let text = text.replacen(
        "[scenario]\n",
        "[scenario]\nscripts = [\"special.lua\"]\n",
        1,
    );
    std::fs::write(&scenario, text).expect("writes the scenario");
    std::fs::write(dir.join("special.lua"), "local x = \nthis is not Lua (\n").expect("writes");
    let doc = Document::open(&scenario).expect("the scenario opens");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1300.0, 850.0))
        .with_max_steps(8)
        .build_ui_state(
            |ui, app: &mut EditorApp| app.ui_root(ui),
            EditorApp::without_watcher(doc),
        );
    let start = Instant::now();
    while h.state().validator.issues.is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no problem found"
        );
        h.step();
    }
    h.state_mut()
        .startup(Startup {
            mode: Some(Mode::Play),
            actions: vec![r#"{"kind":"end_phase"}"#.into()],
            ..Startup::default()
        })
        .expect("the start goes on, to show the error");
    h.run_ok();
    assert_eq!(h.state().palette.mode, Mode::Play, "the mode asked for");
    assert!(
        h.query_by_label("The game could not start:").is_some(),
        "the play-test panel says so"
    );
    let said = h.state().session_error.clone().unwrap_or_default();
    assert!(said.contains("special.lua:2"), "the file and line: {said}");
}

/// Play-test opened on a broken special rule, the file then fixed on disk: the editor reloads
/// it and the game starts in play-test, the mode asked for (it was sent to scenario editing by
/// the reload, which came before the check had spoken again, and no game started).
#[test]
fn a_broken_special_rule_fixed_while_in_play_test_starts_the_game_there() {
    let dir = kessel_test_support::toy_copy("startup-fixed-special");
    let scenario = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("the scenario");
    let text = text.replacen(
        "[scenario]\n",
        "[scenario]\nscripts = [\"special.lua\"]\n",
        1,
    );
    std::fs::write(&scenario, text).expect("writes the scenario");
    std::fs::write(dir.join("special.lua"), "local x = = 1\n").expect("writes");
    let doc = Document::open(&scenario).expect("the scenario opens");
    // watching the files, as the editor does
    let mut app = EditorApp::new(doc);
    app.startup(Startup {
        mode: Some(Mode::Play),
        ..Startup::default()
    })
    .expect("the start goes on, to show the error");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1300.0, 850.0))
        .with_max_steps(8)
        .build_ui_state(|ui, app: &mut EditorApp| app.ui_root(ui), app);
    let start = Instant::now();
    while h.state().validator.issues.is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no problem found"
        );
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    assert_eq!(h.state().palette.mode, Mode::Play, "the mode asked for");
    assert!(h.state().session.is_none());
    std::fs::write(dir.join("special.lua"), "-- fixed\n").expect("writes");
    let start = Instant::now();
    while h.state().session.is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no game started; mode {:?}, {:?}",
            h.state().palette.mode,
            h.state().session_error
        );
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    assert_eq!(h.state().palette.mode, Mode::Play, "still play-test");
}

/// A scripted start whose `--act` the rules refuse goes on (the panel shows the refusal, as a
/// screenshot of it may want), and keeps the refusal for the terminal: it ended quietly before.
#[test]
fn a_scripted_action_the_rules_refuse_is_kept_for_the_terminal() {
    let h = opened(
        "scenarios/pgg/campaign.toml",
        Startup {
            mode: Some(Mode::Play),
            actions: vec![
                r#"{"kind":"end_air_placement"}"#.into(),
                r#"{"kind":"end_setup"}"#.into(),
            ],
            ..Startup::default()
        },
    );
    let app = h.state();
    assert_eq!(app.startup_warnings.len(), 1, "{:?}", app.startup_warnings);
    let w = &app.startup_warnings[0];
    assert!(
        w.contains("end_air_placement")
            && w.contains("the rules refused it")
            && w.contains("[13.2]"),
        "{w}"
    );
    // the action after it was taken
    let s = app.session.as_ref().expect("a game");
    assert_eq!(s.engine.log().len(), 1);
}
