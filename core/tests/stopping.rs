//! A start, a loaded save and a campaign's game can be stopped from another thread while their
//! rules run (the editor's *Stop*): each ends soon after the switch is flipped, long before the
//! instruction budget would end it, and says it was stopped where the rules were.

use kessel_core::campaign::Campaign;
use kessel_core::engine::{CampaignSave, Engine};
use kessel_core::scenario::Scenario;
use kessel_core::script::{Limits, Stopper};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Rules that would run for a minute (budget and wall clock both well above what a test waits).
fn slow_limits() -> Limits {
    Limits {
        instructions: 50_000_000_000,
        wall: Duration::from_secs(60),
        ..Limits::default()
    }
}

/// Makes the toy copy's `play.lua` loop forever while it loads.
fn break_rules(dir: &Path) {
    let play = dir.join("rules/play.lua");
    kessel_test_support::append_endless_loop(&play);
}

/// Flips a stopper after a moment; returns it and when it was flipped.
fn stop_soon() -> (Stopper, std::thread::JoinHandle<Instant>) {
    let stopper = Stopper::default();
    let s = stopper.clone();
    let flip = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        s.stop();
        Instant::now()
    });
    (stopper, flip)
}

fn assert_stopped_soon(message: &str, flip: std::thread::JoinHandle<Instant>) {
    let ended = Instant::now();
    let flipped = flip.join().expect("the stopping thread");
    assert!(
        ended.duration_since(flipped) < Duration::from_secs(5),
        "ended {:?} after the stop",
        ended.duration_since(flipped)
    );
    assert!(message.contains("stopped on request"), "{message}");
    assert!(message.contains("play.lua:"), "{message}");
}

fn toy(name: &str) -> PathBuf {
    kessel_test_support::toy_copy(name)
}

#[test]
fn a_start_whose_rules_loop_while_loading_is_stopped() {
    let dir = toy("stop-start");
    break_rules(&dir);
    let scenario = Scenario::load(&dir.join("scenario.toml")).expect("scenario");
    let (stopper, flip) = stop_soon();
    let e = Engine::with_scenario_stoppable(scenario, None, 1, slow_limits(), stopper)
        .expect_err("stopped");
    assert_stopped_soon(&e.to_string(), flip);
}

#[test]
fn loading_a_save_whose_rules_loop_is_stopped() {
    let dir = toy("stop-load");
    let e = Engine::load(&dir.join("scenario.toml"), None, 1, Limits::default()).expect("game");
    let path = dir.join("game.save.json");
    let text = e.save_as(&path, &Default::default()).expect("save text");
    std::fs::write(&path, text).expect("write save");
    break_rules(&dir);
    let (stopper, flip) = stop_soon();
    let e = Engine::load_save_stoppable(&path, slow_limits(), stopper).expect_err("stopped");
    assert_stopped_soon(&e.to_string(), flip);
}

const CAMPAIGN: &str = "name = \"Toy campaign\"\n[[game]]\nscenario = \"scenario.toml\"\n[[game]]\nscenario = \"scenario.toml\"\n";

#[test]
fn a_campaign_game_and_a_campaign_save_whose_rules_loop_are_stopped() {
    let dir = toy("stop-campaign");
    let path = dir.join("campaign.toml");
    std::fs::write(&path, CAMPAIGN).expect("write campaign");
    let c = Campaign::load(&path).expect("campaign");
    let (first, _, _) =
        Engine::campaign_game(&c, 0, 3, Limits::default(), None).expect("game 1 starts");
    let mut save = CampaignSave::new(&c, 3);
    save.record("Toy battle", &first);
    let save_path = dir.join("campaign.save.json");
    let text = save.to_json_at(&save_path, &c).expect("save text");
    std::fs::write(&save_path, text).expect("write campaign save");
    // the next game, from a copy of the first (as another thread starts it)
    let copy = first.copy_game();
    let (next, _, _) = Engine::campaign_game_stoppable(
        &c,
        1,
        3,
        Limits::default(),
        Some(&copy),
        Stopper::default(),
    )
    .expect("game 2 starts from the copy");
    assert_eq!(next.state().turn, 1);
    break_rules(&dir);
    let (stopper, flip) = stop_soon();
    let e = Engine::campaign_game_stoppable(&c, 1, 3, slow_limits(), Some(&copy), stopper)
        .expect_err("stopped");
    assert_stopped_soon(&e.to_string(), flip);
    let (stopper, flip) = stop_soon();
    let e = Engine::load_campaign_save_stoppable(&save_path, slow_limits(), stopper)
        .err()
        .expect("stopped");
    assert_stopped_soon(&e.to_string(), flip);
}
