//! Hot reload on a copy of the toy ruleset: a broken script shows its file and line in the error
//! panel while the last good rules stay live, a fixed one clears it, and the game in progress
//! survives both; a map change reloads the document.

use super::toy::{harness, toy_copy, unit_hex};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use kessel_core::action::Action;
use kessel_editor::play::PlayCommand;
use kessel_editor::EditorApp;
use std::time::{Duration, Instant};

/// Runs frames until `done` holds (the watcher thread wakes the UI), or fails after 10 s.
pub fn wait_for(h: &mut Harness<'_, EditorApp>, what: &str, done: impl Fn(&EditorApp) -> bool) {
    let start = Instant::now();
    while !done(h.state()) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    h.run();
}

#[test]
fn a_broken_script_shows_file_and_line_until_fixed_and_the_game_survives() {
    let dir = toy_copy("reload");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    let mv = Action::new("move")
        .with("unit", "r1")
        .with("path", serde_json::json!(["0303"]));
    h.state_mut().apply_play(vec![PlayCommand::Act(mv)]);
    h.run();
    assert_eq!(unit_hex(&h, "r1").as_deref(), Some("0303"));
    let hash = h
        .state()
        .session
        .as_ref()
        .expect("game")
        .engine
        .state()
        .hash();

    let play = dir.join("rules/play.lua");
    let good = std::fs::read_to_string(&play).expect("read");
    std::fs::write(&play, format!("{good}\nkessel.action{{ kind = \n")).expect("write");
    wait_for(&mut h, "the reload error", |app| {
        app.problems.rules.is_some()
    });
    let problem = h.state().problems.rules.clone().expect("problem");
    let location = problem.location.clone().expect("file:line");
    assert!(location.contains("play.lua:"), "{location}");
    let line: usize = location
        .rsplit(':')
        .next()
        .and_then(|l| l.parse().ok())
        .expect("a line number");
    assert!(line > good.lines().count(), "{location}");
    h.get_by_label(&location);
    h.get_by_label("Error: The rules failed to reload — the last good rules stay live");
    assert!(h
        .state()
        .status
        .reload_note
        .as_deref()
        .is_some_and(|n| n.starts_with("rules reload failed")));
    // the game goes on under the last good rules
    assert_eq!(unit_hex(&h, "r1").as_deref(), Some("0303"));
    let s = h.state().session.as_ref().expect("game");
    assert_eq!(s.engine.state().hash(), hash);
    assert!(s.engine.legal_actions(None).expect("old rules live").len() > 1);

    // fixed, with a change that shows: the panel clears, the new rules are live
    let changed = good.replace("already moved this phase", "has moved already (reloaded)");
    assert_ne!(changed, good);
    std::fs::write(&play, &changed).expect("write");
    wait_for(&mut h, "the fixed reload", |app| {
        app.problems.rules.is_none()
    });
    assert!(h.query_by_label(&location).is_none());
    let note = h.state().status.reload_note.clone().expect("note");
    assert!(note.starts_with("rules reloaded "), "{note}");
    assert!(note.ends_with("rules/play.lua)"), "{note}");
    h.get_by_label(&note);
    assert_eq!(unit_hex(&h, "r1").as_deref(), Some("0303"));
    let s = h.state().session.as_ref().expect("game");
    assert_eq!(s.engine.state().hash(), hash);
    assert_eq!(s.engine.log().len(), 1);
    let again = Action::new("move")
        .with("unit", "r1")
        .with("path", serde_json::json!(["0403"]));
    let refused = s.engine.validate(&again).expect("runs").expect_err("moved");
    assert!(
        refused.reasons[0].message.contains("(reloaded)"),
        "{refused:?}"
    );

    // a map change reloads the document; the game in progress keeps its set-up
    let map = dir.join("map.toml");
    let text = std::fs::read_to_string(&map).expect("read");
    std::fs::write(
        &map,
        text.replace("\".......\",  # row 05", "\"w......\",  # row 05"),
    )
    .expect("write");
    let hex = h.state().doc.map.parse("0105").expect("label");
    wait_for(&mut h, "the map reload", |app| {
        app.doc.map.terrain_name(hex) == Some("woods")
    });
    let note = h.state().status.reload_note.clone().expect("note");
    assert!(
        note.contains("the game in progress keeps its set-up"),
        "{note}"
    );
    assert_eq!(unit_hex(&h, "r1").as_deref(), Some("0303"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_scenario_special_rule_reloads_like_the_ruleset() {
    let dir = toy_copy("reload-special");
    // a scenario in a folder of its own, outside the ruleset, with a special rule beside it
    let own = dir.with_extension("scenario");
    let _ = std::fs::remove_dir_all(&own);
    std::fs::create_dir_all(&own).expect("mkdir");
    std::fs::write(own.join("special.lua"), "-- no special rule yet\n").expect("write");
    let text = std::fs::read_to_string(dir.join("scenario.toml")).expect("read");
    std::fs::write(
        own.join("scenario.toml"),
        text.replace(
            "ruleset = \".\"",
            &format!(
                "ruleset = {:?}\nscripts = [\"special.lua\"]",
                dir.display().to_string()
            ),
        )
        .replace(
            "map = \"map.toml\"",
            &format!("map = {:?}", dir.join("map.toml").display().to_string()),
        ),
    )
    .expect("write");
    let dir = own;
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    let tank = Action::new("move")
        .with("unit", "r2")
        .with("path", serde_json::json!(["0203"]));
    let engine_allows = |app: &EditorApp| {
        app.session
            .as_ref()
            .and_then(|s| s.engine.validate(&tank).ok())
            .is_some_and(|r| r.is_ok())
    };
    assert!(
        engine_allows(h.state()),
        "the tank may move before the special rule"
    );
    std::fs::write(
        dir.join("special.lua"),
        r#"local move = kessel.action_handlers("move")
local base = move.validate
kessel.action{ kind = "move", rule = move.rule, description = move.description,
  validate = function(a)
    if a.unit == "r2" then return { rule = "S1", message = "out of fuel" } end
    return base(a)
  end,
  apply = move.apply, enumerate = move.enumerate }
"#,
    )
    .expect("write");
    wait_for(&mut h, "the special rule to go live", |app| {
        !engine_allows(app)
    });
}

/// A scenario whose special rule is broken when the editor opens: play-test is refused with
/// the problems; once the file is fixed the refusal and a failed start's banner go (they spoke
/// of files that changed since), and play-test starts.
#[test]
fn fixing_a_broken_special_rule_clears_the_stale_refusal_and_play_test_starts() {
    let dir = toy_copy("reload-fixed");
    std::fs::write(dir.join("special.lua"), "local x = = 1\n").expect("write");
    let path = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&path).expect("read");
    let text = text.replacen("turns = 3", "turns = 3\nscripts = [\"special.lua\"]", 1);
    std::fs::write(&path, text).expect("write");
    let mut h = harness(&dir);
    h.state_mut().validator.run_now_for_tests();
    wait_for(&mut h, "the check to find the broken rule", |app| {
        !app.validator.issues.is_empty()
    });
    // (the Play-test button is off; a scripted start asks for the mode)
    h.state_mut().set_mode(kessel_editor::panels::Mode::Play);
    h.run();
    assert!(h.state().session.is_none());
    assert!(
        h.state()
            .status
            .message
            .starts_with("Play-test needs a scenario without problems"),
        "{}",
        h.state().status.message
    );
    // as when a start was tried before the check had spoken (a scripted start): its banner
    h.state_mut().session_error = Some("special.lua:1: unexpected symbol near '='".into());
    h.state_mut().problems.rules = Some(kessel_editor::app::Problem {
        title: "The play-test game could not start".into(),
        location: Some("special.lua:1".into()),
        message: "unexpected symbol near '='".into(),
    });
    std::fs::write(dir.join("special.lua"), "-- fixed\n").expect("write");
    wait_for(&mut h, "the check to pass again", |app| {
        app.validator.issues.is_empty() && !app.validator.busy
    });
    let app = h.state();
    assert!(app.problems.rules.is_none(), "{:?}", app.problems.rules);
    assert!(app.session_error.is_none());
    assert!(!app.status.is_error, "{}", app.status.message);
    // play-test stayed the mode: the game starts there by itself
    assert_eq!(h.state().palette.mode, kessel_editor::panels::Mode::Play);
    wait_for(&mut h, "play-test to start", |app| app.session.is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A ruleset broken when the editor opens draws the map in stand-in colours; fixing it brings
/// the ruleset's colours back (they were kept until the document was opened again).
#[test]
fn fixing_rules_broken_at_opening_brings_their_colours_back() {
    let dir = toy_copy("reload-colours");
    let play = dir.join("rules/play.lua");
    let good = std::fs::read_to_string(&play).expect("read");
    std::fs::write(&play, format!("{good}\nkessel.action{{ kind = \n")).expect("write");
    let mut h = harness(&dir);
    wait_for(&mut h, "the ruleset's read to fail", |app| {
        !app.reading_declarations()
    });
    let stand_in = h.state().style.terrain("woods").fill;
    std::fs::write(&play, good).expect("write");
    wait_for(&mut h, "the ruleset's colours", |app| {
        app.style.terrain("woods").fill != stand_in
    });
    // the toy declares its woods #4a7a3a
    assert_eq!(h.state().style.terrain("woods").fill.to_hex(), "#4a7a3a");
    let _ = std::fs::remove_dir_all(&dir);
}

/// With no game running (map editing), a rules file saved broken keeps the map in the
/// ruleset's colours and says that the rules failed to reload, with the file and line, as it
/// does when a game runs; the fix clears it. (The map used to turn to stand-in colours.)
#[test]
fn a_broken_script_saved_while_editing_the_map_keeps_the_last_good_colours() {
    let dir = toy_copy("reload-keep-colours");
    let mut h = harness(&dir);
    wait_for(&mut h, "the ruleset's read", |app| {
        !app.reading_declarations()
    });
    assert!(h.state().session.is_none(), "no game in map editing");
    assert_eq!(h.state().style.terrain("woods").fill.to_hex(), "#4a7a3a");
    let red = h.state().style.side("red").color;

    let init = dir.join("init.lua");
    let good = std::fs::read_to_string(&init).expect("read");
    let broken = good.replacen("kessel.unit_type{", "kessel.unit_type({", 1);
    assert_ne!(broken, good);
    std::fs::write(&init, &broken).expect("write");
    wait_for(&mut h, "the reload error", |app| {
        app.problems.rules.is_some()
    });
    let problem = h.state().problems.rules.clone().expect("problem");
    let location = problem.location.clone().expect("file:line");
    assert!(location.contains("init.lua:"), "{location}");
    h.get_by_label("Error: The rules failed to reload — the last good rules stay live");
    h.get_by_label(&location);
    // the last good colours stay: terrain and sides
    assert_eq!(h.state().style.terrain("woods").fill.to_hex(), "#4a7a3a");
    assert_eq!(h.state().style.side("red").color, red);
    assert!(h.state().status.reload_failed);

    std::fs::write(&init, &good).expect("write");
    wait_for(&mut h, "the fixed reload", |app| {
        app.problems.rules.is_none() && !app.reading_declarations()
    });
    assert!(!h.state().status.reload_failed);
    assert_eq!(h.state().style.terrain("woods").fill.to_hex(), "#4a7a3a");
    let _ = std::fs::remove_dir_all(&dir);
}
