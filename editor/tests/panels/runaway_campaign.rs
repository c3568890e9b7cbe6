//! A campaign whose rules loop never freezes the window: its first game, its next game and a
//! campaign save are each started on a thread of their own (`app/starting.rs`), so frames go on
//! while the rules run; *Stop* or the instruction budget ends them, the editor says why with the
//! file and line, and the game in progress (if any) is kept as it was. The scripted
//! `--ai-until` start plays on a thread too and reports a looping AI the same way.
//!
//! "Frames go on" is checked by state, never by a clock: a frame that comes back while the start
//! is still being tried did not wait for it. Frame times belong to the benchmark (`benches/frame.rs`).

use super::toy::toy_copy;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use kessel_core::Action;
use kessel_editor::app::Startup;
use kessel_editor::panels::Mode;
use kessel_editor::play::PlayCommand;
use kessel_editor::EditorApp;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Two games on the toy ruleset: `first` then `second` (scenario files in the toy copy).
fn campaign_in(dir: &Path, first: &str, second: &str) -> PathBuf {
    let path = dir.join("campaign.toml");
    let text = format!(
        "name = \"Toy campaign\"\n[[game]]\nscenario = \"{first}\"\nname = \"One\"\n[[game]]\nscenario = \"{second}\"\nname = \"Two\"\n"
    );
    std::fs::write(&path, text).expect("write the campaign");
    path
}

/// `looping.toml`: the toy scenario with a special-rules script that never ends loading.
fn looping_scenario(dir: &Path) {
    let text = std::fs::read_to_string(dir.join("scenario.toml")).expect("read the scenario");
    let text = text.replacen("turns = 3\n", "turns = 3\nscripts = [\"loop.lua\"]\n", 1);
    std::fs::write(dir.join("looping.toml"), text).expect("write looping.toml");
    std::fs::write(
        dir.join("loop.lua"),
        // (each turn reads the map, so the loop runs for seconds before a limit ends it: Stop
        // comes first however fast the machine)
        "local n = 0\nwhile true do n = n + #kessel.hex.neighbors(\"0101\") end\n",
    )
    .expect("write loop.lua");
}

fn harness(campaign: &Path) -> Harness<'static, EditorApp> {
    let app = EditorApp::open_file(campaign, false).expect("the campaign opens");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1300.0, 820.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut EditorApp| app.ui_root(ui), app);
    h.run();
    h
}

/// Steps frames while a start is tried, for at least `min` (a two-minute guard against a hang).
/// `each` runs after every frame. Returns the number of frames that began and ended with the
/// start still being tried: frames drawn without waiting for it.
fn frames_while_starting(
    h: &mut Harness<'_, EditorApp>,
    min: Duration,
    mut each: impl FnMut(&mut Harness<'_, EditorApp>),
) -> usize {
    let start = Instant::now();
    let mut busy_frames = 0;
    while start.elapsed() < min || h.state().starting() {
        assert!(start.elapsed() < Duration::from_secs(120), "no outcome");
        let before = h.state().starting();
        h.step();
        if before && h.state().starting() {
            busy_frames += 1;
        }
        each(h);
    }
    busy_frames
}

/// The campaign's first game loads a script that loops: the panel says the game is starting,
/// with *Stop*; *Stop* ends it at once and the panel says why, naming the script's line.
#[test]
fn a_campaign_whose_first_game_loops_while_loading_is_stopped() {
    let dir = toy_copy("runaway-campaign-first");
    looping_scenario(&dir);
    let mut h = harness(&campaign_in(&dir, "looping.toml", "scenario.toml"));
    h.get_by_label("Play-test").click();
    let mut stopped = false;
    let clicked = Instant::now();
    let frames = frames_while_starting(&mut h, Duration::from_millis(600), |h| {
        // frames go on while the rules loop; then Stop
        let looping = clicked.elapsed() > Duration::from_millis(800);
        if looping && !stopped && h.query_by_label("Stop the start").is_some() {
            h.get_by_label("Stop the start").click();
            stopped = true;
        }
    });
    assert!(frames > 3, "{frames} frames");
    assert!(stopped, "Stop was shown");
    h.run();
    assert!(h.state().session.is_none());
    // Stop ended it, not the budget (which would have ended it later, with its own words)
    let why = h.state().session_error.clone().unwrap_or_default();
    assert!(
        why.contains("stopped on request") && why.contains("loop.lua:2"),
        "{why}"
    );
    assert!(!super::toy::ended_by_a_limit(&why), "{why}");
    h.get_by_label("The game could not start:");
}

/// The first game ends; the next one loads a script that loops: the window keeps drawing, the
/// budget ends it, the status bar says why with the file and line, and the ended game stays.
#[test]
fn a_next_game_that_loops_while_loading_leaves_the_ended_game_in_place() {
    let dir = toy_copy("runaway-campaign-next");
    looping_scenario(&dir);
    let mut h = harness(&campaign_in(&dir, "scenario.toml", "looping.toml"));
    h.get_by_label("Play-test").click();
    assert!(h.state_mut().wait_start(Duration::from_secs(60)), "game 1");
    h.run();
    {
        let s = h.state_mut().session.as_mut().expect("game 1 started");
        for _ in 0..200 {
            if s.engine.state().finished {
                break;
            }
            let done = s.engine.act(&Action::new("end_phase")).expect("rules run");
            assert!(done.is_ok(), "{done:?}");
        }
        assert!(s.engine.state().finished, "game 1 ended");
        s.game_replaced();
        s.refresh();
    }
    let log = h.state().session.as_ref().expect("game").engine.log().len();
    h.state_mut().apply_play(vec![PlayCommand::NextGame]);
    let mut saw = false;
    let frames = frames_while_starting(&mut h, Duration::from_millis(600), |h| {
        saw |= h.query_by_label_contains("Starting the game").is_some();
    });
    assert!(frames > 3 && saw, "{frames} frames, starting shown: {saw}");
    h.run();
    let message = h.state().status.message.clone();
    assert!(
        message.starts_with("cannot start the next game")
            && super::toy::ended_by_a_limit(&message)
            && message.contains("loop.lua:2"),
        "{message}"
    );
    let s = h.state().session.as_ref().expect("the ended game stays");
    assert!(s.engine.state().finished);
    assert_eq!(s.engine.log().len(), log, "nothing of it lost");
    assert_eq!(h.state().campaign.as_ref().expect("campaign").index, 0);
}

/// A campaign save whose replay loops (the rules changed since it was saved so that loading
/// them never ends): it is loaded on a thread, the budget ends it, the status bar says why, and
/// the game in progress goes on unchanged.
#[test]
fn a_campaign_save_whose_replay_loops_is_refused_and_the_game_goes_on() {
    let dir = toy_copy("runaway-campaign-load");
    let mut h = harness(&campaign_in(&dir, "scenario.toml", "scenario.toml"));
    h.get_by_label("Play-test").click();
    assert!(h.state_mut().wait_start(Duration::from_secs(60)), "game 1");
    h.run();
    let save = dir.join("campaign.save.json");
    (h.state_mut()).apply_play(vec![PlayCommand::SaveGame(save.clone())]);
    h.run();
    assert!(save.is_file(), "the campaign was saved");
    // the rules now loop while loading; the session's engine loaded them before
    let play = dir.join("rules/play.lua");
    kessel_test_support::append_endless_loop(&play);
    h.state_mut().apply_play(vec![PlayCommand::LoadGame(save)]);
    let frames = frames_while_starting(&mut h, Duration::from_millis(600), |_| {});
    assert!(frames > 3, "{frames} frames");
    h.run();
    let message = h.state().status.message.clone();
    assert!(
        message.starts_with("cannot load") && super::toy::ended_by_a_limit(&message),
        "{message}"
    );
    assert!(message.contains("play.lua:"), "{message}");
    let s = h
        .state()
        .session
        .as_ref()
        .expect("the game in progress stays");
    assert_eq!(s.engine.log().len(), 0);
}

/// `--ai-until` with an AI that loops: the play runs on a thread of its own and the scripted
/// start fails with the budget's error and the line of the hook.
#[test]
fn a_scripted_ai_until_with_a_looping_ai_fails_with_the_file_and_line() {
    let dir = kessel_test_support::toy_with_ai_hook(
        "runaway-ai-until",
        "kessel.on(\"ai\", function(side, actions)\n  local n = 0\n  while true do n = n + 1 end\nend)",
    );
    let doc = kessel_editor::document::Document::open(&dir.join("scenario.toml")).expect("doc");
    let mut app = EditorApp::without_watcher(doc);
    let start = Instant::now();
    let e = app
        .startup(Startup {
            mode: Some(Mode::Play),
            ai_until: Some("combat".into()),
            ..Startup::default()
        })
        .expect_err("the AI loops");
    let text = format!("{e:#}");
    assert!(super::toy::ended_by_a_limit(&text), "{text}");
    assert!(text.contains("play.lua:"), "{text}");
    assert!(start.elapsed() < Duration::from_secs(90));
    let s = app.session.as_ref().expect("the game started");
    assert_eq!(s.engine.log().len(), 0, "the game is as it was");
}

/// A ruleset whose `init.lua` loops: opening its scenario waits only a moment for it, frames go
/// on while it loops (drawn with the fallback style), and scenario editing, entered meanwhile,
/// says once the budget has ended it that the ruleset did not load, with the file and line.
#[test]
fn a_ruleset_that_loops_while_loading_leaves_opening_and_scenario_editing_drawing() {
    let dir = toy_copy("runaway-declarations");
    let init = dir.join("init.lua");
    kessel_test_support::append_endless_loop(&init);
    let opened = Instant::now();
    let doc = kessel_editor::document::Document::open(&dir.join("scenario.toml")).expect("doc");
    let app = EditorApp::without_watcher(doc);
    // opening came back while the endless init.lua still runs: it did not wait for it
    assert!(app.reading_declarations(), "still reading");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1300.0, 820.0))
        .build_ui_state(|ui, app: &mut EditorApp| app.ui_root(ui), app);
    h.step();
    h.get_by_label("Edit scenario").click();
    let mut frames = 0;
    while h.state().reading_declarations() {
        assert!(opened.elapsed() < Duration::from_secs(120), "no outcome");
        let before = h.state().reading_declarations();
        h.step();
        if before && h.state().reading_declarations() {
            frames += 1;
        }
    }
    assert!(frames > 3, "{frames} frames");
    h.run();
    let message = h.state().status.message.clone();
    assert!(
        message.contains("the ruleset did not load") && message.contains("init.lua:"),
        "{message}"
    );
    assert!(
        h.state().ruleset_names.is_some(),
        "scenario editing goes on"
    );
    // and the error panel says it too, in every mode, with the file and line
    h.get_by_label(
        "Error: The rules did not load — the map is drawn without their colours and names",
    );
    let problem = h.state().problems.rules.clone().expect("a rules problem");
    assert!(
        problem
            .location
            .as_deref()
            .is_some_and(|l| l.contains("init.lua:")),
        "{problem:?}"
    );
}
