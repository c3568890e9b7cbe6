//! A campaign in the editor: the Pegasus Bridge example opens on its first game (Dawn), the
//! computer plays both sides through the fight and the Refit Phase (a person's click on the
//! AI's choice where no side decides), *Next game* starts Day I with what carried over, and a
//! campaign save written from the panel loads back into the same game.

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use kessel_core::dice::Dice;
use kessel_editor::play::{PlayCommand, PlaySession};
use kessel_editor::EditorApp;
use kessel_test_support::{scratch, workspace_root};
use std::path::Path;

fn campaign() -> Harness<'static, EditorApp> {
    let path = workspace_root().join("scenarios/pegasus-bridge/campaign.toml");
    let app = EditorApp::open_file(&path, false).expect("the campaign opens");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1300.0, 850.0))
        .with_max_steps(8)
        .build_ui_state(|ui, app: &mut EditorApp| app.ui_root(ui), app);
    h.run_ok();
    h
}

/// Plays the current game until `done` says so: the computer where a side it plays decides
/// (at the pace the panel set), the AI's choice sent as a person's click would send it where no
/// such side decides (a person's seat, or a step no side owns).
fn play_until(h: &mut Harness<'_, EditorApp>, done: impl Fn(&PlaySession) -> bool) {
    let mut dice = Dice::new(7);
    for _ in 0..2000 {
        let waiting = {
            let s = h.state().session.as_ref().expect("a game");
            if done(s) {
                return;
            }
            assert!(!s.engine.state().finished, "the game ended first");
            assert_eq!(s.seats.stopped, None, "the computer stopped");
            !s.computer_to_move()
        };
        if waiting {
            let choice = {
                let s = h.state().session.as_ref().expect("a game");
                s.engine.computer_choice(&mut dice).expect("the AI answers")
            };
            let a = choice.expect("the rules list an action before the game ends");
            h.state_mut().apply_play(vec![PlayCommand::Act(a)]);
        }
        h.run_ok();
    }
    panic!("not done within 2000 frames");
}

/// Both sides of the Pegasus Bridge campaign to the computer, at the fast pace.
fn computer_on_both_sides_fast(h: &mut Harness<'_, EditorApp>) {
    for side in ["british", "german"] {
        h.get_by_label(&format!("{side} played by Computer"))
            .click();
        h.run_ok();
    }
    h.get_by_label("Fast").click();
    h.run_ok();
}

fn in_refit(s: &PlaySession) -> bool {
    s.engine.state().mode.as_deref() == Some("refit")
}

#[test]
fn the_pegasus_bridge_campaign_plays_dawn_then_day_one_with_what_carried() {
    let mut h = campaign();
    assert_eq!(h.state().doc.name, "Pegasus Bridge: Dawn");
    h.get_by_label("Play-test").click();
    h.run_ok();
    assert!(h.state().session.is_some(), "{:?}", h.state().session_error);
    h.get_by_label("Pegasus Bridge: Dawn to Day I (example)");
    h.get_by_label("game 1 of 2: Dawn");
    computer_on_both_sides_fast(&mut h);
    play_until(&mut h, in_refit);
    // the Refit Phase is played by hand: its choices are listed as any ruleset's
    for side in ["british", "german"] {
        h.get_by_label(&format!("{side} played by Human")).click();
        h.run_ok();
    }
    play_until(&mut h, |s| s.phase_text().contains("[9.617]"));
    let phase = h.state().session.as_ref().expect("a game").phase_text();
    assert!(
        phase.starts_with("Refit Phase (Pegasus Bridge) · step ")
            && phase.contains("Purchasing Reinforcement Groups"),
        "{phase}"
    );
    h.get_by_label(&phase);
    h.get_by_label("end step");
    assert!(
        h.query_all_by_label_contains("buy rg").count() > 0,
        "the RG purchases are offered"
    );
    picture_if_asked(&mut h, "campaign-refit");
    if let Some(keep) = std::env::var_os("KESSEL_CAMPAIGN_REFIT_SAVE") {
        h.state_mut()
            .apply_play(vec![PlayCommand::SaveGame(keep.into())]);
    }
    play_until(&mut h, |s| s.engine.state().finished);
    let (mode, created) = {
        let s = h.state().session.as_ref().expect("a game");
        let st = s.engine.state();
        let created: Vec<String> = st
            .units
            .iter()
            .filter(|u| !h.state().doc.units.all().iter().any(|d| d.id == u.id))
            .map(|u| u.id.clone())
            .collect();
        (st.mode.clone(), created)
    };
    assert_eq!(
        mode.as_deref(),
        Some("refit"),
        "Dawn ends in its Refit Phase"
    );
    assert!(
        !created.is_empty(),
        "the Refit Phase created units (RG bought)"
    );
    let steps = h.state().session.as_ref().expect("a game").phase_text();
    assert!(
        steps.starts_with("Refit Phase (Pegasus Bridge) · step "),
        "{steps}"
    );
    assert!(
        steps.contains('[') && steps.ends_with("game over"),
        "{steps}"
    );

    h.get_by_label("Next game: Day I").click();
    h.run_ok();
    let s = h.state().session.as_ref().expect("the next game");
    assert_eq!(s.engine.log().len(), 0, "Day I has just begun");
    assert!(!s.engine.state().finished);
    assert_eq!(s.engine.state().mode, None, "Day I starts on the board");
    for id in &created {
        assert!(
            s.engine.state().unit(id).is_some(),
            "{id}, created in Dawn's Refit Phase, is in Day I"
        );
    }
    let run = h.state().campaign.as_ref().expect("a campaign");
    assert_eq!(run.index, 1);
    assert_eq!(run.played.games.len(), 1, "Dawn is recorded");
    assert!(run.carried.units.iter().any(|u| u.created));
    assert!(run.carried.vars.contains_key("date"), "the CG date carried");
    assert!(
        h.state()
            .doc
            .scenario_path
            .as_deref()
            .is_some_and(|p| p.ends_with("day1.toml")),
        "the document is Day I's scenario"
    );
    h.get_by_label("game 2 of 2: Day I");
    h.get_by_label("Carried over from Dawn");
    // the created units listed one a line under their heading
    h.get_by_label("created:");
    let first = &created[0];
    assert!(
        h.query_by_label_contains(&format!("• {first} (")).is_some(),
        "the panel lists the created unit {first} on a line of its own"
    );
    // and each carried value with the step of Dawn that set it, as `kessel campaign` prints it
    let set = h.get_by_label("where each value was last set:").rect();
    // above the unit lists and in the window, not under the lists at a scrolled box's bottom
    let units = h.get_by_label("created:").rect();
    assert!(set.max.y <= units.min.y, "{set:?} is under {units:?}");
    assert!(
        h.ctx.content_rect().contains_rect(set),
        "{set:?} is out of sight"
    );
    assert!(
        h.query_by_label_contains("Purchasing Reinforcement Groups: ")
            .is_some(),
        "the CPP left by the RG purchases is said to come from that step"
    );
    // what changed is in view, and so are the game's own tools under the carried lines: the
    // values in full (Dawn's record of purchases ran to many lines) are folded away
    let window = h.ctx.content_rect();
    let changed = h.get_by_label("changed:").rect();
    assert!(window.contains_rect(changed), "{changed:?} is out of sight");
    // high up, not under screens of values (it sat at 586 of 850 under them)
    assert!(
        changed.min.y < 0.6 * window.height(),
        "{changed:?} is far down the panel"
    );
    let undo = h.get_by_label("Undo action").rect();
    assert!(
        window.contains_rect(undo),
        "the game's tools at {undo:?} are out of sight"
    );
    assert!(
        h.query_by_label_contains("rg_record = ").is_none(),
        "the values are folded"
    );
    h.get_by_label_contains("Values and the rest of what carried (")
        .click();
    h.run_ok();
    assert!(
        h.query_by_label_contains("rg_record = ").is_some(),
        "and unfold"
    );
    h.get_by_label_contains("Values and the rest of what carried (")
        .click();
    h.run_ok();
    picture_if_asked(&mut h, "campaign-day1");

    // the campaign save holds Dawn and Day I so far, and loads back into Day I
    let dir = scratch("editor-campaign");
    let save = dir.join("campaign.save.json");
    let hash = {
        let s = h.state().session.as_ref().expect("a game");
        s.engine.state().hash()
    };
    h.state_mut()
        .apply_play(vec![PlayCommand::SaveGame(save.clone())]);
    let text = std::fs::read_to_string(&save).expect("the campaign save was written");
    assert!(text.contains("kessel-campaign-save/"), "{text}");
    h.state_mut()
        .apply_play(vec![PlayCommand::LoadGame(save.clone())]);
    // the save is replayed on a thread of its own: step frames until it is in (or failed)
    let start = std::time::Instant::now();
    while h.state().session.is_none() && h.state().session_error.is_none() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "the campaign save never loaded"
        );
        h.step();
    }
    h.run_ok();
    let app = h.state();
    let s = app
        .session
        .as_ref()
        .unwrap_or_else(|| panic!("the loaded game: {:?}", app.session_error));
    assert_eq!(s.engine.state().hash(), hash, "the same Day I");
    let run = app.campaign.as_ref().expect("still a campaign");
    assert_eq!((run.index, run.name.as_str()), (1, "Day I"));
    assert!(run.last.is_some(), "Dawn is kept to start Day I again");
    assert!(
        run.carried.units.iter().any(|u| u.created),
        "what carried, again"
    );
    // New game starts Day I again from Dawn as it ended
    h.get_by_label("New game").click();
    h.run_ok();
    let app = h.state();
    let s = app.session.as_ref().expect("Day I again");
    assert_eq!(s.engine.log().len(), 0);
    assert!(created.iter().all(|id| s.engine.state().unit(id).is_some()));
    assert_eq!(app.campaign.as_ref().map(|r| r.index), Some(1));
    if let Some(keep) = std::env::var_os("KESSEL_CAMPAIGN_SAVE") {
        std::fs::copy(&save, Path::new(&keep)).expect("copies the save");
    }
}

/// With `KESSEL_SHOTS=DIR` set, the window goes to `DIR/NAME.png`.
fn picture_if_asked(h: &mut Harness<'_, EditorApp>, name: &str) {
    if let Some(dir) = std::env::var_os("KESSEL_SHOTS") {
        let img = h.render().expect("renders");
        img.save(Path::new(&dir).join(format!("{name}.png")))
            .expect("writes the picture");
    }
}

/// With the computer on both sides it plays Dawn to its end, the Refit Phase included, as
/// `kessel campaign` does: a step no side decides is the computer's when it plays every side.
/// (It stopped at the Refit Phase's first step, "No side to move in this step", for good.)
#[test]
fn the_computer_on_both_sides_plays_the_refit_phase_too() {
    use std::time::{Duration, Instant};
    let mut h = campaign();
    h.get_by_label("Play-test").click();
    h.run_ok();
    computer_on_both_sides_fast(&mut h);
    let start = Instant::now();
    let mut seen_refit = false;
    loop {
        let s = h.state().session.as_ref().expect("a game");
        assert_eq!(s.seats.stopped, None, "the computer stopped");
        if s.engine.state().finished {
            break;
        }
        if in_refit(s) && s.deciding_side().is_none() && s.rules_said_whose_turn() {
            seen_refit = true;
        }
        assert!(
            start.elapsed() < Duration::from_secs(180),
            "stuck at {} after {} actions",
            s.phase_text(),
            s.engine.log().len()
        );
        std::thread::sleep(Duration::from_millis(5));
        h.run_ok();
    }
    assert!(seen_refit, "a step no side decides was met");
    let s = h.state().session.as_ref().expect("a game");
    assert_eq!(s.engine.state().mode.as_deref(), Some("refit"));
    // the game is over in the engine before the campaign panel has drawn what comes next: a
    // frame or a few later (a loaded machine took more than the one frame this test gave)
    let shown = Instant::now();
    while h.query_by_label("Next game: Day I").is_none() {
        assert!(
            shown.elapsed() < Duration::from_secs(30),
            "no Next game button after the game ended"
        );
        std::thread::sleep(Duration::from_millis(5));
        h.run_ok();
    }
}

/// A Red Barricades game walks its own Refit Phase, the sequence `refit_rb`: the step line
/// gives the title the ruleset declares for it (it read "Refit rb · step 1 of 18", the id).
#[test]
fn the_red_barricades_refit_phase_reads_under_its_title() {
    let path = workspace_root().join("scripts/asl-cg/examples/refit-rb/scenario.toml");
    let app = EditorApp::open_file(&path, false).expect("the example opens");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1300.0, 850.0))
        .with_max_steps(8)
        .build_ui_state(|ui, app: &mut EditorApp| app.ui_root(ui), app);
    h.run_ok();
    h.get_by_label("Play-test").click();
    h.run_ok();
    assert!(h.state().session.is_some(), "{:?}", h.state().session_error);
    h.get_by_label("start refit").click();
    h.run_ok();
    let phase = h.state().session.as_ref().expect("a game").phase_text();
    assert_eq!(
        h.state()
            .session
            .as_ref()
            .expect("a game")
            .engine
            .state()
            .mode
            .as_deref(),
        Some("refit_rb")
    );
    assert!(
        phase.starts_with("Refit Phase (Red Barricades) · step 1 of "),
        "{phase}"
    );
    h.get_by_label(&phase);
    // counts read as counts, and the rule case beside a note is not said again in its text
    // ("Event log (1 actions)", "[11.602] [11.602] Refit Phase begins (RB)", "1 events")
    h.get_by_label("Event log (1 action)");
    h.get_by_label("Refit Phase begins (RB)");
    h.get_by_label("1 event").click();
    h.run_ok();
    // the switch to the sequence, by its title
    h.get_by_label("sequence of play: Refit Phase (Red Barricades) (`refit_rb`)");
    assert!(h.query_by_label_contains("[11.602] [11.602]").is_none());
    h.get_by_label("start refit (1 note in the log)");
    // the save's path, which the File field cuts (the scenario was opened by its whole path),
    // is said whole under it
    let save = h
        .state()
        .session
        .as_ref()
        .expect("a game")
        .save_path
        .clone();
    assert!(save.ends_with("refit-rb/scenario.save.json"), "{save}");
    h.get_by_label(&save);
    picture_if_asked(&mut h, "campaign-refit-rb");
}

/// A game the rules say ends the campaign (toy T18: red concedes) shows why where *Next game*
/// would be, and *Next game* is refused with the same reason.
#[test]
fn a_game_that_ends_the_campaign_offers_no_next_game() {
    let dir = kessel_test_support::toy_copy("editor-campaign-ends");
    let path = dir.join("campaign.toml");
    std::fs::write(
        &path,
        "name = \"Short war\"\n[[game]]\nscenario = \"scenario.toml\"\nname = \"Border\"\n\
         [[game]]\nscenario = \"scenario.toml\"\nname = \"Aftermath\"\n",
    )
    .expect("write the campaign");
    let app = EditorApp::open_file(&path, false).expect("the campaign opens");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1300.0, 850.0))
        .with_max_steps(8)
        .build_ui_state(|ui, app: &mut EditorApp| app.ui_root(ui), app);
    h.run_ok();
    h.get_by_label("Play-test").click();
    h.run_ok();
    h.get_by_label("game 1 of 2: Border");
    h.state_mut()
        .apply_play(vec![PlayCommand::Act(kessel_core::Action::new("concede"))]);
    for _ in 0..200 {
        h.run_ok();
        if h.state()
            .session
            .as_ref()
            .expect("a game")
            .engine
            .state()
            .finished
        {
            break;
        }
    }
    h.run_ok();
    assert!(
        h.state()
            .session
            .as_ref()
            .expect("a game")
            .engine
            .state()
            .finished,
        "conceding ends the game"
    );
    h.get_by_label("The campaign has ended with this game.");
    h.get_by_label("red conceded the war [T18]");
    // and the help says no next game follows (it said "in a campaign, Next game goes on")
    assert!(
        h.query_all_by_label(kessel_editor::play::CAMPAIGN_OVER_HELP)
            .count()
            > 0,
        "the help says the campaign is over"
    );
    assert_eq!(
        h.query_all_by_label(kessel_editor::play::OVER_HELP).count(),
        0
    );
    assert_eq!(
        h.query_all_by_label_contains("Next game:").count(),
        0,
        "no next game is offered"
    );
    h.state_mut().apply_play(vec![PlayCommand::NextGame]);
    h.run_ok();
    let s = h.state().session.as_ref().expect("the game stays");
    assert_eq!(s.engine.log().len(), 1, "still the conceded game");
}
