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

/// An action the rules list with its own `side` (one side's secret orders, enumerated while
/// another side is the deciding one) is sent as that side: the lab sent every choice as the
/// deciding side, so the orders were refused as that side's (or taken for its own).
#[test]
fn an_action_listed_with_its_side_is_sent_as_that_side() {
    let dir = kessel_test_support::toy_with_ai_hook(
        "lab-listed-side",
        r#"kessel.action{ kind = "pledge", rule = "X1", description = "blue pledges in red's move",
  validate = function(a)
    if a.side ~= "blue" then return { rule = "X1", message = "only blue pledges, not " .. tostring(a.side) } end
    if kessel.game.var("pledged") then return { rule = "X1", message = "pledged already" } end
  end,
  apply = function(a) kessel.emit.var("pledged", a.side) end,
  enumerate = function(side)
    if kessel.game.var("pledged") or (side ~= nil and side ~= "blue") then return {} end
    return { { kind = "pledge", side = "blue" } }
  end,
}
kessel.on("ai", function(legal)
  local p = legal("pledge")
  if #p > 0 then return p[1] end
  for _, a in ipairs(legal("end_phase")) do return a end
end)"#,
    );
    let mut e = Engine::load(&dir.join("scenario.toml"), None, 1, Limits::default())
        .expect("the toy loads");
    assert_eq!(
        e.deciding_side().as_deref(),
        Some("red"),
        "red decides first"
    );
    let g = play::play_loaded(&mut e, "p", 1, &cfg()).expect("plays: the pledge is not refused");
    assert!(g.finished, "{g:?}");
    assert_eq!(
        e.state().vars.get("pledged"),
        Some(&serde_json::json!("blue"))
    );
    assert_eq!(e.log()[0].action.side.as_deref(), Some("blue"));
}

/// A data file's scenario hash covers the files an extending scenario is laid over: a changed
/// base is a different scenario, as a changed scenario file is.
#[test]
fn the_scenario_hash_covers_the_base_an_extending_scenario_is_laid_over() {
    let dir = kessel_test_support::toy_copy("lab-extends-hash");
    std::fs::create_dir_all(dir.join("variant")).expect("mkdir");
    let variant = dir.join("variant/v.toml");
    std::fs::write(&variant, "[scenario]\nextends = \"../scenario.toml\"\n").expect("write");
    let hash = || {
        let profiles = [kessel_lab::ProfileArg {
            arg: None,
            name: "default".into(),
            options: Vec::new(),
        }];
        let seeds = kessel_lab::record::Seeds {
            first: 1,
            games: 1,
            shard: None,
        };
        let h =
            kessel_lab::header(&variant, &profiles, 10, Default::default(), seeds).expect("header");
        h.scenario.hash
    };
    let before = hash();
    let base = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&base).expect("read");
    std::fs::write(&base, text.replacen("notes = \"", "notes = \"Edited. ", 1)).expect("write");
    assert_ne!(hash(), before, "the base's content is in the hash");
}
