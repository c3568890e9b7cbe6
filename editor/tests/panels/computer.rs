//! Playing the computer: the learning scenario of PGG with the German at the screen and the
//! Soviet played by the ruleset's AI at the fast pace. The German's decisions go through the
//! play-test panel (its choice buttons, End phase) and the same commands a click on the map
//! sends; the computer's moves come by themselves, a few per frame, marked in the log.

use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use kessel_editor::document::Document;
use kessel_editor::play::PlayCommand;
use kessel_editor::EditorApp;
use kessel_test_support::{scratch, workspace_root};
use std::time::{Duration, Instant};

fn learning() -> Harness<'static, EditorApp> {
    let path = workspace_root().join("scenarios/pgg/learning.toml");
    let doc = Document::open(&path).expect("the learning scenario opens");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1300.0, 850.0))
        .with_max_steps(8)
        .build_ui_state(
            |ui, app: &mut EditorApp| app.ui_root(ui),
            EditorApp::without_watcher(doc),
        );
    h.run_ok();
    h
}

/// Steps frames until the rules' thread has nothing out or waiting (a saved game replays there).
fn settle(h: &mut Harness<'_, EditorApp>) {
    let start = Instant::now();
    while (h.state().session.as_ref()).is_some_and(|s| s.rules_busy()) {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the rules never settled"
        );
        h.step();
    }
    h.run_ok();
}

/// Steps frames until the rules have said what the current step offers (the panel's buttons and
/// help depend on it), then settles.
fn told(h: &mut Harness<'_, EditorApp>) {
    let start = Instant::now();
    while !(h.state().session.as_ref()).is_some_and(|s| s.rules_said_whose_turn()) {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the rules never said"
        );
        h.step();
    }
    settle(h);
}

fn turn(h: &Harness<'_, EditorApp>) -> u32 {
    h.state()
        .session
        .as_ref()
        .map_or(0, |s| s.engine.state().turn)
}

/// The German's next decision, as a person would take it: in a German step, up to two moves
/// per movement phase, then End phase; otherwise (a decision the rules wait for within the
/// Soviet's step, such as the initial air placement) the first choice the rules list, clicked in
/// the panel when it shows there.
fn german_decides(h: &mut Harness<'_, EditorApp>, moves_left: &mut usize) {
    let (own_step, legal, step) = {
        let s = h.state().session.as_ref().expect("a game");
        let legal = s.engine.legal_actions(Some("german")).expect("rules list");
        let own = s.engine.deciding_side().as_deref() == Some("german");
        (own, legal, s.step_text())
    };
    let can_end = legal.iter().any(|a| a.kind == "end_phase");
    let a_move = legal.iter().find(|a| a.kind == "move").cloned();
    let choice = legal
        .iter()
        .find(|a| a.kind != "move" && a.kind != "end_phase")
        .cloned();
    if own_step && can_end {
        match a_move.filter(|_| *moves_left > 0) {
            Some(a) => {
                // what a click on a shaded hex sends
                *moves_left -= 1;
                h.state_mut().apply_play(vec![PlayCommand::Act(a)]);
            }
            None => {
                if step.contains("Movement") {
                    *moves_left = 2;
                }
                h.get_by_label("End phase").click();
            }
        }
    } else {
        let a = choice
            .or(a_move)
            .unwrap_or_else(|| panic!("the German has nothing to do in {step}"));
        let label = (h.state().session.as_ref().expect("a game")).describe(&a);
        match h.query_by_label(&label) {
            Some(button) => button.click(),
            None => h.state_mut().apply_play(vec![PlayCommand::Act(a)]),
        }
    }
    h.run_ok();
}

#[test]
fn the_german_plays_a_few_turns_of_the_learning_scenario_against_the_computer() {
    let mut h = learning();
    h.get_by_label("Play-test").click();
    h.run_ok();
    assert!(h.state().session.is_some(), "{:?}", h.state().session_error);
    h.get_by_label("soviet played by Computer").click();
    h.run_ok();
    h.get_by_label("Fast").click();
    h.run_ok();

    let start = Instant::now();
    let mut moves_left = 2;
    let mut german_decisions = 0;
    let mut undone = false;
    while turn(&h) < 3 {
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "too slow: turn {} after {:?}",
            turn(&h),
            start.elapsed()
        );
        let (computer, stopped, busy) = {
            let s = h.state().session.as_ref().expect("a game");
            let busy = s.rules_busy() || s.computer_thinking();
            (s.computer_to_move(), s.seats.stopped.clone(), busy)
        };
        assert_eq!(stopped, None, "the computer stopped");
        // a person acts on what the screen shows: not while the rules are still working out
        // the last move's outcome (the screen would show the game as it was)
        if computer || busy {
            // the computer plays within the frame's time slice; the window keeps drawing
            h.step();
            continue;
        }
        // once the computer has answered a German decision and the German is to decide again,
        // take it back: the German's last decision goes with the computer's moves after it (asked
        // at a German decision, with nothing under way, as a person at the screen would)
        let s = h.state().session.as_ref().expect("a game");
        let last_was_computer = (s.engine.log().len())
            .checked_sub(1)
            .is_some_and(|i| s.seats.computer_moves.contains(&i));
        if !undone && turn(&h) == 2 && last_was_computer {
            let before = s.engine.log().len();
            let last_computer = *s
                .seats
                .computer_moves
                .iter()
                .last()
                .expect("a computer move");
            h.get_by_label("Undo action").click();
            h.run_ok();
            let s = h.state().session.as_ref().expect("a game");
            let after = s.engine.log().len();
            assert!(after < before, "undo took something back");
            assert!(
                s.seats.computer_moves.iter().all(|&i| i < after),
                "no computer move past the log's end"
            );
            assert_eq!(
                last_computer + 1,
                before,
                "the last move was the computer's"
            );
            assert!(!s.computer_to_move(), "back at a German decision");
            undone = true;
            continue;
        }
        german_decides(&mut h, &mut moves_left);
        german_decisions += 1;
    }
    assert!(undone, "an undo was tried");
    // paused, so the computer does not play on once the saved game is loaded (at turn 3 it may be
    // its move: the loaded game must be the saved one, not a move or two further)
    h.get_by_label("Pause").click();
    settle(&mut h);
    let s = h.state().session.as_ref().expect("a game");
    assert!(german_decisions > 10, "{german_decisions}");
    let computer = s.seats.computer_moves.len();
    assert!(computer > 5, "the computer played {computer} moves");
    assert!(s.engine.log().len() > computer, "the German played too");
    // the log says which moves were the computer's
    assert!(h.query_all_by_label_contains("computer: ").next().is_some());
    // the game replays from its events alone, and a save loads to the same state
    assert_eq!(
        s.engine.replay_hash().expect("replay"),
        s.engine.state().hash()
    );
    let hash = s.engine.state().hash();
    let dir = scratch("computer-save");
    let file = dir.join("game.json");
    h.state_mut().apply_play(vec![
        PlayCommand::SaveGame(file.clone()),
        PlayCommand::NewGame,
    ]);
    h.run_ok();
    assert_eq!(turn(&h), 1, "a new game");
    h.state_mut().apply_play(vec![PlayCommand::LoadGame(file)]);
    settle(&mut h);
    let s = h.state().session.as_ref().expect("a game");
    assert_eq!(s.engine.state().hash(), hash);
    // the players stay as chosen across the new game and the load
    assert_eq!(
        s.seats.player("soviet"),
        kessel_editor::play::computer::Player::Computer
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Who plays each side is written into a saved game and comes back when it is loaded, even
/// after the seats were changed since.
#[test]
fn a_saved_game_remembers_who_plays_each_side() {
    use kessel_editor::play::computer::Player;
    let mut h = learning();
    h.get_by_label("Play-test").click();
    h.run_ok();
    h.get_by_label("soviet played by Computer").click();
    h.run_ok();
    h.get_by_label("Pause").click();
    h.run_ok();
    let dir = scratch("players-save");
    let file = dir.join("game.json");
    h.state_mut()
        .apply_play(vec![PlayCommand::SaveGame(file.clone())]);
    h.run_ok();
    let text = std::fs::read_to_string(&file).expect("saved");
    assert!(text.contains("\"soviet\": \"computer\""), "{text}");

    h.get_by_label("soviet played by Human").click();
    h.run_ok();
    let seat = |h: &Harness<'_, EditorApp>| {
        h.state()
            .session
            .as_ref()
            .expect("a game")
            .seats
            .player("soviet")
    };
    assert_eq!(seat(&h), Player::Human);
    h.state_mut().apply_play(vec![PlayCommand::LoadGame(file)]);
    settle(&mut h);
    assert_eq!(seat(&h), Player::Computer, "the save's players");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The End phase button is live only when the rules offer the end of the phase: under the
/// German's initial air placement the Soviet Movement Phase can't end, and the button says why.
#[test]
fn end_phase_is_offered_only_when_the_rules_offer_it() {
    let mut h = learning();
    h.get_by_label("Play-test").click();
    told(&mut h);
    let end_live =
        |h: &Harness<'_, EditorApp>| !h.get_by_label("End phase").accesskit_node().is_disabled();
    let offered = |h: &Harness<'_, EditorApp>| {
        let s = h.state().session.as_ref().expect("a game");
        let side = s.engine.deciding_side();
        let legal = s.engine.legal_actions(side.as_deref()).expect("rules list");
        legal.iter().any(|a| a.kind == "end_phase")
    };
    assert!(!offered(&h), "the set-up offers no end of phase");
    assert!(
        !end_live(&h),
        "End phase is greyed out while the rules don't offer it"
    );
    // take the first listed choice until the rules offer the end of the phase
    for _ in 0..60 {
        if offered(&h) {
            break;
        }
        let a = {
            let s = h.state().session.as_ref().expect("a game");
            let side = s.engine.deciding_side();
            let legal = s.engine.legal_actions(side.as_deref()).expect("rules list");
            legal
                .iter()
                .find(|a| a.kind.starts_with("end_"))
                .or(legal.first())
                .cloned()
                .expect("something to do")
        };
        h.state_mut().apply_play(vec![PlayCommand::Act(a)]);
        settle(&mut h);
    }
    assert!(offered(&h), "the rules came to offer the end of a phase");
    assert!(end_live(&h), "End phase is live once the rules offer it");
}

/// Reinforcements due are brought on from the map: the panel says how many wait, a click on
/// their entry area picks them, the rules' reach shades where they may go this phase (beyond
/// the area too), and a click there brings them on by the entry hex the rules' answer names.
#[test]
fn reinforcements_waiting_are_picked_on_their_entry_area_and_moved_by_a_click() {
    let mut h = learning();
    h.get_by_label("Play-test").click();
    h.run_ok();
    let opening = [
        "end_air_placement",
        "end_phase",
        "end_phase",
        "end_phase",
        "end_phase",
    ];
    for kind in opening {
        let act = PlayCommand::Act(kessel_core::action::Action::new(kind));
        h.state_mut().apply_play(vec![act]);
        settle(&mut h);
    }
    let step = h.state().session.as_ref().map(|s| s.step_text());
    assert!(
        step.as_deref()
            .is_some_and(|s| s.contains("German Initial Movement")),
        "the German's movement: {step:?} {:?}",
        h.state().session_error
    );
    h.get_by_label(
        "8 reinforcements waiting to enter: click their entry area on the map (its badge shows how many).",
    );
    let at = |h: &Harness<'_, EditorApp>, label: &str| {
        h.state().doc.map.parse(label).expect("a hex of the map")
    };
    let entry = at(&h, "0111");
    let cmd = h.state_mut().session.as_mut().expect("a game").click(entry);
    assert!(cmd.is_none(), "a click on the area selects: {cmd:?}");
    settle(&mut h);
    h.get_by_label("Reinforcements waiting to enter at 0111");
    let beyond = at(&h, "0413");
    let cost = {
        let s = h.state().session.as_ref().expect("a game");
        assert_eq!(s.picked.len(), 8, "{:?}", s.picked);
        s.cost_at(beyond)
    };
    assert!(
        matches!(cost, Some(Some(c)) if c > 0.0),
        "0413 shaded: {cost:?}"
    );
    let cmd = h
        .state_mut()
        .session
        .as_mut()
        .expect("a game")
        .click(beyond);
    let Some(PlayCommand::Act(a)) = cmd else {
        panic!("a click on a shaded hex moves: {cmd:?}");
    };
    let path = a.params.get("path").cloned();
    assert_eq!(
        path.as_ref().and_then(|p| p.as_array()).map(Vec::len),
        Some(2),
        "entry hex, then 0413: {path:?}"
    );
    h.state_mut().apply_play(vec![PlayCommand::Act(a)]);
    settle(&mut h);
    let s = h.state().session.as_ref().expect("a game");
    let state = s.engine.state();
    let here: Vec<_> = state.units_at(beyond).map(|u| u.id.clone()).collect();
    assert_eq!(here.len(), 8, "all eight came on to 0413: {here:?}");
}

/// Reinforcements picked on their area and left there: the next phase starts with nothing
/// selected (not "Reinforcements waiting" for a phase where they cannot come on).
#[test]
fn reinforcements_picked_and_not_moved_are_let_go_at_the_end_of_the_phase() {
    let mut h = learning();
    h.get_by_label("Play-test").click();
    h.run_ok();
    for kind in [
        "end_air_placement",
        "end_phase",
        "end_phase",
        "end_phase",
        "end_phase",
    ] {
        let act = PlayCommand::Act(kessel_core::action::Action::new(kind));
        h.state_mut().apply_play(vec![act]);
        settle(&mut h);
    }
    let entry = h.state().doc.map.parse("0111").expect("a hex");
    let cmd = h.state_mut().session.as_mut().expect("a game").click(entry);
    assert!(cmd.is_none());
    settle(&mut h);
    assert_eq!(h.state().session.as_ref().map(|s| s.picked.len()), Some(8));
    h.get_by_label("End phase").click();
    settle(&mut h);
    let s = h.state().session.as_ref().expect("a game");
    assert!(
        !s.step_text().contains("Initial Movement"),
        "{}",
        s.step_text()
    );
    assert!(
        s.picked.is_empty() && s.selected.is_none(),
        "{:?}",
        s.picked
    );
}

/// A choice that names a hex and no unit (the German's initial air markers [13.2], open on some
/// 1,200 hexes) is taken by a click on its hex: an empty hex at once (hovering says what the click
/// does); a stack's hex selects the stack, and the panel lists that hex's choice first.
#[test]
fn an_air_marker_is_placed_by_a_click_on_its_hex() {
    let mut h = learning();
    h.get_by_label("Play-test").click();
    told(&mut h);
    let (empty, occupied) = {
        let s = h.state().session.as_ref().expect("a game");
        assert!(
            s.click_help().starts_with("Click a hex to take the choice"),
            "{}",
            s.click_help()
        );
        let choices = s.hex_choices();
        assert!(choices.len() > 1000, "{} placements", choices.len());
        let standing = |hex| s.units.stack(hex).next().is_some();
        let empty = choices
            .iter()
            .find(|(hex, _)| !standing(*hex))
            .expect("an empty hex")
            .0;
        let occupied = choices
            .iter()
            .find(|(hex, _)| standing(*hex))
            .expect("a Soviet stack")
            .0;
        (empty, occupied)
    };
    let placed_at = |h: &Harness<'_, EditorApp>| -> Vec<_> {
        let s = h.state().session.as_ref().expect("a game");
        s.engine
            .state()
            .markers
            .iter()
            .filter_map(|m| m.hex)
            .collect()
    };
    assert!(placed_at(&h).is_empty());

    // an empty hex: hover says it, a click places the marker
    let tip = {
        let s = h.state().session.as_ref().expect("a game");
        s.overlay(Some(empty)).tooltip.expect("a tooltip").1
    };
    assert!(tip.ends_with("— click to take it"), "{tip}");
    let cmd = h.state_mut().session.as_mut().expect("a game").click(empty);
    assert!(
        matches!(&cmd, Some(PlayCommand::Act(a)) if a.kind == "place_marker"),
        "{cmd:?}"
    );
    h.state_mut().apply_play(cmd.into_iter().collect());
    told(&mut h);
    assert_eq!(placed_at(&h), vec![empty]);

    // a Soviet stack's hex: the click selects it and the panel offers the marker there
    let cmd = h
        .state_mut()
        .session
        .as_mut()
        .expect("a game")
        .click(occupied);
    assert!(cmd.is_none(), "{cmd:?}");
    assert_eq!(
        h.state().session.as_ref().expect("a game").selected,
        Some(occupied)
    );
    settle(&mut h);
    h.get_by_label("At the selected hex:");
}
