//! Playing games on the core's toy ruleset: a game asked to stop stops, one never asked plays
//! exactly as `play_loaded` does.

use kessel_core::engine::Engine;
use kessel_core::script::Limits;
use kessel_lab::play::{self, PlayConfig};
use std::cell::Cell;
use std::path::PathBuf;

fn toy() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../core/tests/fixtures/toy/scenario.toml")
}

fn cfg() -> PlayConfig {
    PlayConfig {
        max_actions: 10_000,
        trace: false,
        ..PlayConfig::default()
    }
}

fn engine(seed: u64) -> Engine {
    Engine::load(&toy(), None, seed, Limits::default()).expect("the toy loads")
}

#[test]
fn a_game_asked_to_stop_stops_and_one_never_asked_plays_as_before() {
    let mut e = engine(3);
    let mut plain = play::play_loaded(&mut e, "p", 3, &cfg()).expect("plays");
    assert!(plain.finished && plain.actions > 5, "{plain:?}");
    let mut e = engine(3);
    let mut until = play::play_loaded_until(&mut e, "p", 3, &cfg(), &|| false).expect("plays");
    for g in [&mut plain, &mut until] {
        (g.cpu_s, g.choice_cpu_s, g.rules_cpu_s) = (0.0, 0.0, 0.0);
    }
    assert_eq!(
        serde_json::to_string(&plain).expect("json"),
        serde_json::to_string(&until).expect("json"),
        "never asked to stop: the same game"
    );
    // asked before the fourth action: no record, the error says why, the game is where it stopped
    let asked = Cell::new(0);
    let mut e = engine(3);
    let err = play::play_loaded_until(&mut e, "p", 3, &cfg(), &|| {
        asked.set(asked.get() + 1);
        asked.get() > 3
    })
    .expect_err("stopped");
    assert_eq!(err.to_string(), play::STOPPED);
    assert_eq!(asked.get(), 4);
    assert_eq!(e.log().len(), 3, "three actions played, then it stopped");
}
