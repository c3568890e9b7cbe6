//! Campaigns on the toy ruleset: a game's units (created and changed ones too), chosen variables,
//! markers and map changes carry into the next game's set-up; a campaign save replays game after
//! game and refuses a tampered one.

use kessel_core::campaign::Campaign;
use kessel_core::engine::{CampaignSave, Engine};
use kessel_core::script::Limits;
use kessel_core::state::Location;
use kessel_core::Action;
use std::path::PathBuf;

const CAMPAIGN: &str = r#"
name = "Toy campaign"
[carry]
units = true
vars = ["raised"]
map = true
markers = true
[[game]]
scenario = "scenario.toml"
name = "First battle"
[[game]]
scenario = "scenario.toml"
name = "Second battle"
"#;

fn campaign(name: &str) -> (PathBuf, Campaign) {
    let dir = kessel_test_support::toy_copy(name);
    let path = dir.join("campaign.toml");
    std::fs::write(&path, CAMPAIGN).expect("write campaign");
    let c = Campaign::load(&path).expect("campaign loads");
    (dir, c)
}

fn act(e: &mut Engine, action: Action) {
    let outcome = e.act(&action).expect("rules run");
    assert!(outcome.is_ok(), "{action:?} refused: {outcome:?}");
}

/// Game 1 with a few changes made by rules: a squad raised (T8), a unit hardened (T9), a hex
/// turned to woods (T7), mines laid (T10); then the game is ended by walking the sequence.
fn first_game(c: &Campaign) -> Engine {
    let (mut e, name, report) =
        Engine::campaign_game(c, 0, 5, Limits::default(), None).expect("game 1");
    assert_eq!(name, "First battle");
    assert!(
        report.units.is_empty(),
        "nothing carries into the first game"
    );
    act(&mut e, Action::new("recruit").with("unit", "r1"));
    act(&mut e, Action::new("harden").with("unit", "r2"));
    act(&mut e, Action::new("entrench").with("unit", "r1"));
    act(
        &mut e,
        Action::new("mine")
            .with("unit", "r1")
            .with("target", "0303"),
    );
    while !e.state().finished {
        act(&mut e, Action::new("end_phase"));
    }
    e
}

#[test]
fn the_next_game_starts_with_what_the_last_one_left() {
    let (_dir, c) = campaign("campaign-carry");
    let first = first_game(&c);
    let (raised_unit, r1_hex, raised_var) = {
        let st = first.state();
        let r1 = st.unit("r1").expect("r1");
        let created = st
            .units
            .iter()
            .find(|u| u.kind == "squad" && u.id != "r2")
            .expect("a raised squad")
            .id
            .clone();
        (
            created,
            r1.hex().expect("r1 on the map"),
            st.vars["raised"].clone(),
        )
    };
    let (second, name, report) =
        Engine::campaign_game(&c, 1, 5, Limits::default(), Some(&first)).expect("game 2");
    assert_eq!(name, "Second battle");
    let st = second.state();
    // the created squad and the hardened unit are there, as they were
    assert!(st.unit(&raised_unit).is_some(), "created unit carried");
    assert_eq!(st.unit("r2").expect("r2").kind, "squad", "hardened r2");
    assert_eq!(st.unit("r1").expect("r1").location, Location::Map(r1_hex));
    // the entrenched hex is woods in the next game too, and the hash covers the changed map
    assert_eq!(
        st.map.terrain_name(r1_hex),
        Some("woods"),
        "map change carried"
    );
    assert!(st.map_changes > 0);
    assert_eq!(st.vars.get("raised"), Some(&raised_var));
    assert!(
        st.markers.iter().any(|m| m.kind == "mines"),
        "markers carried"
    );
    // what the report says
    let created: Vec<&str> = report
        .units
        .iter()
        .filter(|u| u.created)
        .map(|u| u.id.as_str())
        .collect();
    assert_eq!(created, vec![raised_unit.as_str()]);
    let r2 = report.units.iter().find(|u| u.id == "r2").expect("r2");
    assert!(r2.changed.contains(&"type".to_string()), "{:?}", r2.changed);
    assert!(report.replaced.contains(&"r1".to_string()));
    assert_eq!(st.turn, 1, "the next game starts at its own first turn");
    assert!(!st.finished);
    // a game started from a carry replays like any other
    drop(st);
    assert_eq!(
        second.replay_hash().expect("replays"),
        second.state().hash()
    );
}

#[test]
fn a_campaign_save_replays_and_a_tampered_one_is_refused() {
    let (dir, c) = campaign("campaign-save");
    let first = first_game(&c);
    let mut save = CampaignSave::new(&c, 5);
    save.record("First battle", &first);
    let (mut second, _, _) =
        Engine::campaign_game(&c, 1, 5, Limits::default(), Some(&first)).expect("game 2");
    act(&mut second, Action::new("end_phase"));
    save.record("Second battle", &second);
    let path = dir.join("campaign-save.json");
    std::fs::write(&path, serde_json::to_string(&save).expect("json")).expect("write");
    let (_, loaded, engine) =
        Engine::load_campaign_save(&path, Limits::default()).expect("the save replays");
    assert_eq!(loaded.games.len(), 2);
    assert_eq!(engine.state().hash(), second.state().hash());

    // read as one game's save (`kessel view`, `kessel query`), it says what it is and what reads it
    let err = Engine::load_save(&path, Limits::default())
        .expect_err("a campaign save is not one game's save");
    let text = err.to_string();
    assert!(text.contains("a campaign save"), "{text}");
    assert!(text.contains("kessel campaign --verify"), "{text}");

    // a final hash that is not where game 1 ends
    let mut bad = save.clone();
    bad.games[0].final_hash = "0000000000000001".into();
    let bad_path = dir.join("bad.json");
    std::fs::write(&bad_path, serde_json::to_string(&bad).expect("json")).expect("write");
    let err = Engine::load_campaign_save(&bad_path, Limits::default())
        .expect_err("a wrong final hash is refused");
    assert!(err.to_string().contains("game 1"), "{err}");

    // a history edited in game 2 is replayed through the rules and refused
    let mut bad = save.clone();
    bad.games[1].save.log[0].action = Action::new("recruit").with("unit", "b1");
    std::fs::write(&bad_path, serde_json::to_string(&bad).expect("json")).expect("write");
    let err = Engine::load_campaign_save(&bad_path, Limits::default())
        .expect_err("an edited history is refused");
    assert!(err.to_string().contains("game 2"), "{err}");
}

#[test]
fn a_campaign_of_games_on_two_rulesets_is_refused() {
    let (_dir, c) = campaign("campaign-two-rulesets");
    let first = first_game(&c);
    // a copy of the ruleset elsewhere is another ruleset
    let other = kessel_test_support::toy_copy("campaign-two-rulesets-other");
    let mut c2 = c.clone();
    c2.games[1].scenario = other.join("scenario.toml");
    let err = Engine::campaign_game(&c2, 1, 5, Limits::default(), Some(&first))
        .expect_err("two rulesets");
    assert!(err.to_string().contains("share one ruleset"), "{err}");
}

/// A game the rules say ends the campaign (toy T18: red concedes) has no next game: starting one
/// is refused with the rules' reason, and a campaign save holding a game after it is refused.
#[test]
fn no_game_follows_one_that_ended_the_campaign() {
    let (dir, c) = campaign("campaign-ended");
    let (mut first, _, _) =
        Engine::campaign_game(&c, 0, 5, Limits::default(), None).expect("game 1");
    act(&mut first, Action::new("concede"));
    {
        let st = first.state();
        assert!(st.finished, "conceding ends the game");
        let end = st.campaign_ended.as_ref().expect("the campaign ended");
        assert_eq!(end.rule.as_deref(), Some("T18"));
        assert_eq!(end.message, "red conceded the war");
    }
    let Err(err) = Engine::campaign_game(&c, 1, 5, Limits::default(), Some(&first)) else {
        panic!("no game after the campaign's end")
    };
    let text = err.to_string();
    assert!(
        text.contains("game 2 is not played: the campaign ended with game 1")
            && text.contains("red conceded the war [T18]"),
        "{text}"
    );
    // the end is state: it is in the hash, and a replay of the log sets it again
    assert_eq!(first.replay_hash().expect("replays"), first.state().hash());

    // a save claiming a second game after the end (made before the rules said it) is refused
    let (mut other, _, _) =
        Engine::campaign_game(&c, 0, 5, Limits::default(), None).expect("game 1 again");
    while !other.state().finished {
        act(&mut other, Action::new("end_phase"));
    }
    let (second, _, _) =
        Engine::campaign_game(&c, 1, 5, Limits::default(), Some(&other)).expect("game 2");
    let mut save = CampaignSave::new(&c, 5);
    save.record("First battle", &first);
    save.record("Second battle", &second);
    let path = dir.join("ended-save.json");
    std::fs::write(&path, serde_json::to_string(&save).expect("json")).expect("write");
    let Err(err) = Engine::load_campaign_save(&path, Limits::default()) else {
        panic!("a game after the end is refused")
    };
    assert!(
        err.to_string().contains("the campaign ended with game 1"),
        "{err}"
    );
}
