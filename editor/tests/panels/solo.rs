//! A solo evening: PGG with a person playing the Soviet and the computer the German. The
//! computer played both sides up to the German's combat of turn 1 (`--ai-until`), then the German
//! plays on at the fast pace. What the person sees when the computer has played: its moves and
//! attacks drawn on the map and numbered as in the log, a way to step through them one at a time,
//! and, asked to name a loss after its attack, which of their stacks the question is about.

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use kessel_editor::document::Document;
use kessel_editor::panels::Mode;
use kessel_editor::play::{PlayCommand, PlaySession};
use kessel_editor::{EditorApp, Startup};
use kessel_test_support::workspace_root;
use std::path::Path;
use std::time::{Duration, Instant};

fn at_the_german_combat() -> Harness<'static, EditorApp> {
    let path = workspace_root().join("scenarios/pgg/learning.toml");
    let doc = Document::open(&path).expect("the learning scenario opens");
    let mut app = EditorApp::without_watcher(doc);
    app.startup(Startup {
        mode: Some(Mode::Play),
        ai_until: Some("german_combat".into()),
        computer: vec!["german".into()],
        ..Startup::default()
    })
    .expect("the scripted start");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .with_max_steps(8)
        .build_ui_state(|ui, app: &mut EditorApp| app.ui_root(ui), app);
    // the rules' notes use arrows the bundled font lacks, as the window has them
    kessel_editor::install_fallback_font(&h.ctx);
    h.run_ok();
    h
}

/// With `KESSEL_SHOTS=DIR`, the window to `DIR/NAME.png` (to look at, not compared).
fn picture(h: &mut Harness<'_, EditorApp>, name: &str) {
    if let Some(dir) = std::env::var_os("KESSEL_SHOTS") {
        let img = h.render().expect("renders");
        img.save(Path::new(&dir).join(format!("{name}.png")))
            .expect("writes the picture");
    }
}

fn session<'h>(h: &'h Harness<'_, EditorApp>) -> &'h PlaySession {
    h.state().session.as_ref().expect("a game")
}

/// Steps frames until `done`, the computer playing where it is its move.
fn run_until(h: &mut Harness<'_, EditorApp>, what: &str, done: impl Fn(&PlaySession) -> bool) {
    let start = Instant::now();
    loop {
        let s = session(h);
        assert_eq!(s.seats.stopped, None, "the computer stopped");
        let idle = !s.computer_to_move() && !s.computer_thinking() && !s.rules_busy();
        if done(s) && idle {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "not {what} after {:?}: {} ({:?}; log {}, deciding {:?}, pace {:?}, refused {:?})",
            start.elapsed(),
            s.step_text(),
            s.message,
            s.engine.log().len(),
            s.deciding_side(),
            s.seats.pace,
            s.refusal
        );
        h.step();
    }
}

/// A person reads the screen for a moment before clicking: the panel takes its new shape (a
/// click on a button that moved under the pointer, as the game changed, is lost).
fn look(h: &mut Harness<'_, EditorApp>) {
    for _ in 0..10 {
        h.step();
    }
}

fn pending_side(s: &PlaySession) -> Option<String> {
    let w = s.engine.world();
    let p = w.state.vars.get("pending")?;
    p.get("side")?.as_str().map(str::to_string)
}

#[test]
fn the_soviet_against_the_computer_sees_what_it_did_and_what_it_asks_about() {
    let mut h = at_the_german_combat();
    run_until(&mut h, "at a Soviet decision", |s| {
        s.deciding_side().as_deref() == Some("soviet")
    });
    picture(&mut h, "solo_soviet_asked");

    let s = session(&h);
    let trails = s.overlay(None).trails;
    assert!(!trails.is_empty(), "the computer's last moves are drawn");
    for t in &trails {
        assert!(
            s.seats.computer_moves.contains(&(t.number - 1)),
            "trail {t:?} is numbered as a move of the computer's in the log"
        );
    }
    let attacks: Vec<_> = trails.iter().filter(|t| t.attack).collect();
    assert!(!attacks.is_empty(), "the German attacked: {trails:?}");
    for t in &attacks {
        assert_eq!(t.hexes.len(), 2, "from an attacker's hex to the target");
        assert_eq!(t.hexes[0].distance_to(t.hexes[1]), 1, "{t:?}");
        // the attack's target is where the log's action says
        let entry = &s.log[t.number - 1];
        let target = s.map.label(t.hexes[1]);
        let named = serde_json::to_string(&entry.action.params).expect("params");
        assert!(named.contains(&target), "{target} in {named}");
    }
    // a move runs from where the stack stood (not the hex it ended in) to where it stands
    for t in trails.iter().filter(|t| !t.attack && t.hexes.len() > 1) {
        assert_ne!(t.hexes.first(), t.hexes.last(), "{t:?}");
    }

    // saved here and loaded again (quit and resumed), the computer's moves are still its own
    let dir = kessel_test_support::scratch("solo-save");
    let file = dir.join("game.json");
    h.state_mut()
        .apply_play(vec![PlayCommand::SaveGame(file.clone())]);
    h.run_ok();
    let loaded_from = file.display().to_string();
    h.state_mut().apply_play(vec![PlayCommand::LoadGame(file)]);
    // the file field names the save once it is loaded
    run_until(&mut h, "loaded", |s| {
        s.save_path == loaded_from && s.rules_said_whose_turn()
    });
    look(&mut h);
    let s = session(&h);
    // (the German's moves before its combat, which the scripted start made, count as its own
    // once the save says the computer plays the German)
    let after = s.overlay(None).trails;
    assert!(
        trails.iter().all(|t| after.contains(t)),
        "the moves drawn before the save are drawn after the load: {after:?}"
    );
    assert!(
        h.query_by_label_contains("computer: attack").is_some(),
        "marked in the log"
    );

    // stepping through the computer's moves shows one at a time, in the log's order
    let trails = after;
    let numbers: Vec<usize> = trails.iter().map(|t| t.number).collect();
    picture(&mut h, "solo_loaded");
    h.get_by_label("Next computer move").click();
    h.run_ok();
    let shown = session(&h).overlay(None).trails;
    assert!(
        shown.iter().all(|t| t.number == numbers[0]),
        "{shown:?} {:?}",
        session(&h).seats.trail_focus
    );
    h.get_by_label("Next computer move").click();
    h.run_ok();
    let second = numbers.iter().find(|&&n| n > numbers[0]).copied();
    let shown = session(&h).overlay(None).trails;
    assert_eq!(shown.first().map(|t| t.number), second.or(Some(numbers[0])));
    picture(&mut h, "solo_stepped");
    h.get_by_label("Show all computer moves").click();
    h.run_ok();
    assert_eq!(session(&h).overlay(None).trails, trails);

    let s = session(&h);
    assert_eq!(
        pending_side(s).as_deref(),
        Some("soviet"),
        "asked after the attack"
    );
    {
        // the question names the stack it is about and where it stands
        let prompt = s.pending_prompt().expect("a prompt");
        let hexes: Vec<String> = attacks.iter().map(|t| s.map.label(t.hexes[1])).collect();
        assert!(
            hexes.iter().any(|h| prompt.contains(&format!(" in {h}"))),
            "{prompt} names one of {hexes:?}"
        );
        h.get_by_label(&format!("Waiting for a decision — {prompt}"));
        // and the panel brings that stack into view, selected
        let at = session(&h).pending_hex().expect("the hex it is about");
        h.get_by_label("Show the stack it is about").click();
        h.run_ok();
        assert_eq!(session(&h).selected, Some(at));
        assert!(hexes.contains(&session(&h).map.label(at)), "{hexes:?}");
        picture(&mut h, "solo_shown");
        // answered, the computer goes on with its turn
        let before = session(&h).engine.log().len();
        let choice = {
            let s = session(&h);
            let legal = s.engine.legal_actions(Some("soviet")).expect("rules list");
            let a = (legal.iter().find(|a| a.kind == "choose"))
                .or(legal.first())
                .cloned()
                .expect("a choice");
            s.describe(&a)
        };
        look(&mut h);
        h.get_by_label(&choice).click();
        h.run_ok();
        run_until(&mut h, "past the answer", |s| {
            s.engine.log().len() > before + 1
        });
        picture(&mut h, "solo_after_answer");
        let s = session(&h);
        assert!(
            s.seats.computer_moves.iter().any(|&i| i > before),
            "the computer played on after the answer"
        );
        let trails = s.overlay(None).trails;
        assert!(
            trails.iter().any(|t| t.number - 1 < before),
            "the moves before the answer stay drawn with those after it"
        );
    }
    // the loaded game's rules are found by way of the save's folder: it goes last
    let _ = std::fs::remove_dir_all(&dir);
}
