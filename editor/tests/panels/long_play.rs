//! A whole game in the editor: the computer plays both sides of the toy to its end at the fast
//! pace, then the game is taken back action by action to its start with *Undo action*, played
//! again from the log, saved and loaded. The state's hash agrees at each end.

use super::toy::{harness, toy_copy};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use kessel_core::action::Action;
use kessel_editor::play::PlayCommand;
use kessel_editor::EditorApp;
use std::time::{Duration, Instant};

fn hash(h: &Harness<'_, EditorApp>) -> u64 {
    let s = h.state().session.as_ref().expect("a game");
    s.engine.state().hash()
}

fn log_len(h: &Harness<'_, EditorApp>) -> usize {
    h.state()
        .session
        .as_ref()
        .map_or(0, |s| s.engine.log().len())
}

/// Steps frames until the rules' thread has nothing out or waiting.
fn settle(h: &mut Harness<'_, EditorApp>) {
    let start = Instant::now();
    while (h.state().session.as_ref()).is_some_and(|s| s.rules_busy()) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the rules never settled"
        );
        h.step();
    }
    h.run_ok();
}

#[test]
fn a_game_the_computer_played_to_its_end_is_undone_replayed_saved_and_loaded_alike() {
    let dir = toy_copy("long-play");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    settle(&mut h);
    let start = hash(&h);
    for side in ["red", "blue"] {
        h.get_by_label(&format!("{side} played by Computer"))
            .click();
        h.run_ok();
    }
    h.get_by_label("Fast").click();
    h.run_ok();
    let began = Instant::now();
    while !(h.state().session.as_ref()).is_some_and(|s| s.engine.state().finished) {
        assert!(
            began.elapsed() < Duration::from_secs(120),
            "the game did not end ({} actions)",
            log_len(&h)
        );
        let s = h.state().session.as_ref().expect("a game");
        assert_eq!(s.seats.stopped, None, "the computer stopped");
        h.step();
    }
    settle(&mut h);
    let end = hash(&h);
    let played: Vec<Action> = {
        let s = h.state().session.as_ref().expect("a game");
        let log = s.engine.log();
        log.iter().map(|e| e.action.clone()).collect()
    };
    assert!(played.len() > 10, "only {} actions", played.len());
    let save = dir.join("whole.save.json");
    h.state_mut()
        .apply_play(vec![PlayCommand::SaveGame(save.clone())]);
    h.run_ok();
    assert!(save.is_file(), "the game was saved");

    // the computer waits while the game is taken back, or it would play again at once
    h.get_by_label("Pause").click();
    h.run_ok();
    for left in (0..played.len()).rev() {
        h.state_mut().apply_play(vec![PlayCommand::Undo]);
        settle(&mut h);
        assert_eq!(log_len(&h), left, "one undo takes back one action");
    }
    assert_eq!(hash(&h), start, "back at the start");

    // played again from the log by people at the screen (the computer's seats refuse a
    // person's action), action for action: the same dice, the same end
    for side in ["red", "blue"] {
        h.get_by_label(&format!("{side} played by Human")).click();
        h.run_ok();
    }
    for a in &played {
        h.state_mut().apply_play(vec![PlayCommand::Act(a.clone())]);
        settle(&mut h);
    }
    assert_eq!(log_len(&h), played.len());
    assert_eq!(hash(&h), end, "replayed to the same end");

    h.state_mut().apply_play(vec![PlayCommand::Undo]);
    settle(&mut h);
    assert_ne!(hash(&h), end);
    h.state_mut().apply_play(vec![PlayCommand::LoadGame(save)]);
    settle(&mut h);
    assert_eq!(hash(&h), end, "the saved game loads to the same end");
    let _ = std::fs::remove_dir_all(&dir);
}
