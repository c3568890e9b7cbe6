//! A runaway rule call in play-test never freezes the window: the rules run on a thread of their
//! own (`play::worker`). While a validator, an enumerator or an action handler loops, frames go
//! on, the status bar says the rules are working with *Stop*; *Stop* or the instruction budget
//! ends the call, what happened is shown (with the file and line), and the game is unchanged.
//!
//! "Frames go on" is checked by state, never by a clock: the looping call runs until *Stop* or
//! its budget ends it, so a frame that comes back while the rules still work is one that did not
//! wait for them. How fast a frame is belongs to the benchmark (`benches/frame.rs`).

use super::toy::{harness, screen_of, toy_copy, unit_hex};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use kessel_editor::EditorApp;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A toy copy whose `play.lua` has `insert` put right after the first `after`.
fn toy_with(name: &str, after: &str, insert: &str) -> PathBuf {
    let dir = toy_copy(name);
    let play = dir.join("rules/play.lua");
    let text = std::fs::read_to_string(&play).expect("read the toy's play.lua");
    assert!(text.contains(after), "the toy's play.lua has {after:?}");
    let text = text.replacen(after, &format!("{after}{insert}"), 1);
    std::fs::write(&play, text).expect("write the toy's play.lua");
    dir
}

const MOVE_VALIDATE: &str =
    "description = \"move one unit along a path\",\n  validate = function(a)\n";
const MOVE_APPLY: &str = "  apply = function(a)\n    local u = kessel.units.get(a.unit)\n    local f = field_for(u)\n    local dest = a.path[#a.path]\n";

fn rules_out(h: &Harness<'_, EditorApp>) -> bool {
    let s = h.state().session.as_ref().expect("a game");
    s.rules.out().is_some()
}

/// Steps frames while the rules work, for at least `min` and until they are done (`max` guards
/// against a hang). Returns the number of frames that began and ended with the rules still
/// working: frames drawn without waiting for them.
fn frames_while_working(h: &mut Harness<'_, EditorApp>, min: Duration, max: Duration) -> usize {
    let start = Instant::now();
    let mut busy_frames = 0;
    while start.elapsed() < min || rules_out(h) {
        assert!(start.elapsed() < max, "the rules never answered");
        let before = rules_out(h);
        h.step();
        if before && rules_out(h) {
            busy_frames += 1;
        }
    }
    busy_frames
}

/// Starts play-test on the toy copy `dir`, stepping frames (the first look at the game may be
/// the one that runs away).
fn play(dir: &std::path::Path) -> Harness<'static, EditorApp> {
    let mut h = harness(dir);
    h.get_by_label("Play-test").click();
    h.step();
    h
}

/// A click on a hex that does not wait for the outcome (`click_hex` runs frames until the
/// rules settle).
fn press_hex(h: &mut Harness<'_, EditorApp>, label: &str) {
    let pos = screen_of(h, label);
    h.hover_at(pos);
    h.step();
    h.drag_at(pos);
    h.step();
    h.drop_at(pos);
    h.step();
}

fn log_len(h: &Harness<'_, EditorApp>) -> usize {
    let s = h.state().session.as_ref().expect("a game");
    s.engine.log().len()
}

/// The move validator loops for one hex: hovering it keeps the window drawing and says the
/// rules are working; *Stop* ends the call, the pointer's note says so, and the game goes on.
#[test]
fn a_looping_validator_under_the_pointer_is_stopped_and_the_game_goes_on() {
    let dir = toy_with(
        "runaway-validate",
        MOVE_VALIDATE,
        "    if a.path[#a.path] == \"0603\" then local n = 0 while true do n = n + 1 end end\n",
    );
    let mut h = play(&dir);
    h.run();
    super::toy::click_hex(&mut h, "0103");
    let pos = screen_of(&h, "0603");
    h.hover_at(pos);
    h.step();
    assert!(rules_out(&h), "the rules work on the hovered hex");
    // the validator loops until Stop: every frame comes back with the rules still working (the
    // status bar says so once the call has taken a moment)
    let start = Instant::now();
    while h
        .query_by_label_contains("The rules are working (checking a move)")
        .is_none()
    {
        assert!(start.elapsed() < Duration::from_secs(30), "never said");
        h.step();
        assert!(rules_out(&h), "a frame waited for the looping validator");
    }
    h.get_by_label("Stop the rules").click();
    frames_while_working(&mut h, Duration::ZERO, Duration::from_secs(30));
    // back over the hex (the pointer went to the button), its note says what happened
    h.hover_at(pos);
    h.step();
    h.step();
    let note = h.state().status.hover_note.clone().unwrap_or_default();
    assert!(note.contains("you stopped the rules"), "{note}");
    // the game is unchanged and plays on: a move elsewhere is taken
    assert_eq!(log_len(&h), 0);
    super::toy::click_hex(&mut h, "0303");
    assert_eq!(unit_hex(&h, "r2").as_deref(), Some("0303"));
}

/// The move handler loops: the click's action runs on the rules' thread, the window keeps
/// drawing, and the instruction budget ends it with the file and line shown; nothing moved.
#[test]
fn a_looping_action_handler_ends_at_the_budget_with_the_file_and_line_and_nothing_moves() {
    let dir = toy_with(
        "runaway-act",
        MOVE_APPLY,
        "    if dest == \"0303\" then local n = 0 while true do n = n + 1 end end\n",
    );
    let mut h = play(&dir);
    h.run();
    super::toy::click_hex(&mut h, "0103");
    press_hex(&mut h, "0303");
    let frames = frames_while_working(&mut h, Duration::from_millis(600), Duration::from_secs(120));
    assert!(frames > 3, "{frames} frames");
    h.run();
    let s = h.state().session.as_ref().expect("a game");
    let error = s.error.clone().unwrap_or_default();
    assert!(
        super::toy::ended_by_a_limit(&error) && error.contains("play.lua:"),
        "{error}"
    );
    assert_eq!(s.engine.log().len(), 0, "nothing was played");
    assert_eq!(unit_hex(&h, "r2").as_deref(), Some("0103"));
    assert!(
        h.query_all_by_label_contains("instruction budget")
            .chain(h.query_all_by_label_contains("time limit exceeded"))
            .next()
            .is_some(),
        "said on screen"
    );
}

/// The enumerator of a choice loops, so listing the legal choices never ends: the window keeps
/// drawing from the start of the game, *Stop* ends the listing, the panel says why there are no
/// choices, and the game is unchanged.
#[test]
fn a_looping_enumerator_leaves_the_window_drawing_and_stop_ends_it() {
    let dir = toy_with(
        "runaway-enumerate",
        "enumerate = function(side)\n",
        // (each turn reads the map, so the loop runs for seconds before its budget ends it:
        // Stop comes first however fast the machine)
        "local n = 0 while true do n = n + #kessel.hex.neighbors(\"0101\") end ",
    );
    let mut h = play(&dir);
    // the game starts (tried on a thread, then made here) ...
    let start = Instant::now();
    while h.state().session.is_none() {
        assert!(start.elapsed() < Duration::from_secs(60), "no game");
        h.step();
    }
    // ... then its choices are listed, endlessly: the status bar shows that the rules are
    // working, with Stop
    // (a frame that waited for the endless listing would come back only once its budget had
    // ended it, with nothing left to stop)
    let start = Instant::now();
    while h.query_by_label("Stop the rules").is_none() {
        assert!(start.elapsed() < Duration::from_secs(60), "no Stop shown");
        h.step();
    }
    for _ in 0..3 {
        h.step();
        assert!(rules_out(&h), "a frame waited for the looping listing");
    }
    assert!(h
        .query_by_label_contains("Choices (the rules are listing them")
        .is_some());
    h.get_by_label("Stop the rules").click();
    frames_while_working(&mut h, Duration::ZERO, Duration::from_secs(30));
    h.step();
    assert!(
        h.query_by_label_contains("The rules could not list the choices")
            .is_some(),
        "the panel says why there are no choices"
    );
    assert!(h
        .query_all_by_label_contains("you stopped the rules")
        .next()
        .is_some());
    assert_eq!(log_len(&h), 0);
}

/// A rules file changed on disk so that it loops while loading: the reload is tried on the
/// rules' thread first, so the window keeps drawing; the budget ends it, the error panel names
/// the file and line, and the last good rules stay live for the game in progress.
#[test]
fn a_rules_file_that_loops_while_loading_is_reloaded_without_freezing_the_window() {
    let dir = toy_copy("runaway-reload");
    let mut h = play(&dir);
    h.run();
    let play_lua = dir.join("rules/play.lua");
    kessel_test_support::append_endless_loop(&play_lua);
    // frames drawn while the status bar says the reload is working: a frame that waited for
    // the looping load would only ever show its outcome
    let start = Instant::now();
    let mut working_frames = 0;
    while h.state().problems.rules.is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no reload outcome"
        );
        h.step();
        if h.query_by_label_contains("The rules are working (loading the rules)")
            .is_some()
        {
            working_frames += 1;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(
        working_frames > 3,
        "the status bar said the rules were loading in {working_frames} frames"
    );
    let problem = h.state().problems.rules.clone().expect("problem");
    let location = problem.location.clone().expect("file:line");
    assert!(location.contains("play.lua:"), "{location}");
    h.run();
    h.get_by_label("Error: The rules failed to reload — the last good rules stay live");
    // the last good rules play on: a move is taken
    super::toy::click_hex(&mut h, "0103");
    super::toy::click_hex(&mut h, "0303");
    assert_eq!(unit_hex(&h, "r2").as_deref(), Some("0303"));
}

/// A saved game whose replay runs into a looping handler: it is loaded on the rules' thread, so
/// the window keeps drawing; the budget ends it, the status bar says why the game did not load
/// (file and line), and the game in progress is unchanged.
/// A play-test on rules whose move handler loops for 0303, and a save (made under the toy's
/// own rules) that moves there.
fn looping_save(name: &str) -> (Harness<'static, EditorApp>, PathBuf) {
    use kessel_editor::play::PlayCommand;
    // a save with a move to 0303, made under the toy's own rules
    let good = toy_copy(&format!("{name}-good"));
    let mut h = play(&good);
    h.run();
    super::toy::click_hex(&mut h, "0103");
    super::toy::click_hex(&mut h, "0303");
    assert_eq!(unit_hex(&h, "r2").as_deref(), Some("0303"));
    let save = good.join("game.save.json");
    h.state_mut()
        .apply_play(vec![PlayCommand::SaveGame(save.clone())]);
    h.run();
    // the same save beside rules whose move handler loops for 0303
    let bad = toy_with(
        &format!("{name}-bad"),
        MOVE_APPLY,
        "    if dest == \"0303\" then local n = 0 while true do n = n + 1 end end\n",
    );
    let copied = bad.join("game.save.json");
    std::fs::copy(&save, &copied).expect("copy the save");
    let mut h = play(&bad);
    h.run();
    (h, copied)
}

#[test]
fn a_saved_game_whose_replay_loops_is_refused_without_freezing_the_window() {
    use kessel_editor::play::PlayCommand;
    let (mut h, copied) = looping_save("runaway-load");
    h.state_mut()
        .apply_play(vec![PlayCommand::LoadGame(copied)]);
    let frames = frames_while_working(&mut h, Duration::from_millis(600), Duration::from_secs(120));
    assert!(frames > 3, "{frames} frames");
    h.run();
    let message = h.state().status.message.clone();
    assert!(
        message.starts_with("cannot load") && super::toy::ended_by_a_limit(&message),
        "{message}"
    );
    assert!(message.contains("play.lua:"), "{message}");
    assert_eq!(log_len(&h), 0, "the game in progress is unchanged");
    assert_eq!(unit_hex(&h, "r2").as_deref(), Some("0103"));
}

/// A rules file that loops while loading, met when play-test starts: the start is tried on a
/// thread of its own, so the window keeps drawing and says the game is starting; the budget ends
/// it and the panel says why the game could not start, with the file and line.
#[test]
fn a_game_whose_rules_loop_while_loading_fails_to_start_without_freezing_the_window() {
    let dir = toy_copy("runaway-start");
    let play_lua = dir.join("rules/play.lua");
    kessel_test_support::append_endless_loop(&play_lua);
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    let start = Instant::now();
    let mut starting_frames = 0;
    while h.state().starting() || start.elapsed() < Duration::from_millis(100) {
        assert!(start.elapsed() < Duration::from_secs(120), "no outcome");
        let before = h.state().starting();
        h.step();
        if before
            && h.state().starting()
            && h.query_by_label_contains("Starting the game").is_some()
        {
            starting_frames += 1;
        }
    }
    assert!(
        starting_frames > 3,
        "the panel said the game was starting in {starting_frames} frames"
    );
    h.run();
    assert!(h.state().session.is_none());
    let why = h.state().session_error.clone().unwrap_or_default();
    assert!(
        super::toy::ended_by_a_limit(&why) && why.contains("play.lua:"),
        "{why}"
    );
    h.get_by_label("The game could not start:");
}

/// *Stop* while a saved game's replay loops: the load ends at once, says it was stopped, and
/// the game in progress is unchanged.
#[test]
fn stop_ends_a_looping_load_at_once() {
    use kessel_editor::play::PlayCommand;
    let (mut h, copied) = looping_save("runaway-load-stop");
    h.state_mut()
        .apply_play(vec![PlayCommand::LoadGame(copied)]);
    let start = Instant::now();
    while h.query_by_label("Stop the rules").is_none() {
        assert!(start.elapsed() < Duration::from_secs(30), "no Stop shown");
        h.step();
    }
    h.get_by_label("Stop the rules").click();
    frames_while_working(&mut h, Duration::ZERO, Duration::from_secs(30));
    h.run();
    // Stop ended it, not the budget (which would have ended it later, with its own words)
    let message = h.state().status.message.clone();
    assert!(message.contains("stopped on request"), "{message}");
    assert!(!super::toy::ended_by_a_limit(&message), "{message}");
    assert!(message.contains("play.lua:"), "{message}");
    assert_eq!(log_len(&h), 0, "the game in progress is unchanged");
}

/// The enumerator of a choice loops the first time only: after *Stop* the panel says why there
/// are no choices and offers to ask again; asked again, the rules list the choices.
#[test]
fn after_stop_the_choices_can_be_asked_for_again() {
    let dir = toy_with(
        "runaway-ask-again",
        "enumerate = function(side)\n",
        "if not looped then looped = true local n = 0 while true do n = n + 1 end end ",
    );
    let play_lua = dir.join("rules/play.lua");
    let text = std::fs::read_to_string(&play_lua).expect("read");
    std::fs::write(&play_lua, format!("local looped = false\n{text}")).expect("write");
    let mut h = play(&dir);
    let start = Instant::now();
    while h.query_by_label("Stop the rules").is_none() {
        assert!(start.elapsed() < Duration::from_secs(60), "no Stop shown");
        h.step();
    }
    h.get_by_label("Stop the rules").click();
    frames_while_working(&mut h, Duration::ZERO, Duration::from_secs(30));
    h.step();
    assert!(h
        .query_by_label_contains("The rules could not list the choices")
        .is_some());
    h.get_by_label("Ask the rules again").click();
    h.step();
    frames_while_working(&mut h, Duration::ZERO, Duration::from_secs(30));
    h.run();
    assert!(
        h.query_by_label_contains("The rules could not list the choices")
            .is_none(),
        "the choices were listed"
    );
    assert!(h.query_by_label_contains("Choices (").is_some());
    let s = h.state().session.as_ref().expect("a game");
    assert!(
        matches!(&s.actions, Ok(a) if !a.is_empty()),
        "{:?}",
        s.actions
    );
}
