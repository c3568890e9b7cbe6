//! The acting side and per-side views on the toy ruleset (rules T12 secret orders, T14
//! concealment): the engine keeps and hashes every secret, replays them without rules, undoes
//! them, and shows each side only its own; an opening that is not what was committed is refused.

use kessel_core::engine::{Engine, ViewError};
use kessel_core::event::Event;
use kessel_core::script::Limits;
use kessel_core::secrets::{Commitment, View};
use kessel_core::state::ApplyError;
use kessel_core::Action;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/toy")
        .join(name)
}

fn engine(seed: u64) -> Engine {
    Engine::load(&fixture("scenario.toml"), None, seed, Limits::default())
        .expect("toy scenario loads")
}

fn accept(e: &mut Engine, a: &Action) -> Vec<Event> {
    match e.act(a).expect("rules run") {
        Ok(events) => events,
        Err(r) => panic!("{a:?} refused: {r}"),
    }
}

/// Red writes its orders ("hold") and conceals r1, which then moves; blue writes "attack".
fn secret_game(seed: u64) -> Engine {
    let mut e = engine(seed);
    accept(&mut e, &Action::new("orders").with("choice", "hold"));
    accept(&mut e, &Action::new("conceal").with("unit", "r1"));
    let path = serde_json::json!(["0303"]);
    accept(
        &mut e,
        &Action::new("move").with("unit", "r1").with("path", path),
    );
    accept(
        &mut e,
        &Action::new("orders").with("choice", "attack").by("blue"),
    );
    e
}

fn view_json(e: &Engine, side: &str) -> String {
    let v: View = e.view(side).expect("view");
    serde_json::to_string(&v.to_json()).expect("json")
}

#[test]
fn every_logged_action_records_the_side_that_sent_it() {
    let e = secret_game(1);
    let sides: Vec<Option<String>> = e.log().iter().map(|l| l.action.side.clone()).collect();
    // act without a side: the deciding side (red's movement phase); act_as/by: the side named
    let red = Some("red".to_string());
    assert_eq!(sides, [red.clone(), red.clone(), red, Some("blue".into())]);
    let mut e = engine(1);
    let a = Action::new("conceal").with("unit", "b1");
    let refused = e
        .act(&a)
        .expect("rules run")
        .expect_err("red may not conceal b1");
    assert!(refused.to_string().contains("b1 is not red's"), "{refused}");
    e.act_as("blue", &a)
        .expect("rules run")
        .expect("blue conceals its own unit");
    assert_eq!(e.log()[0].action.side.as_deref(), Some("blue"));
}

#[test]
fn an_action_without_a_side_still_loads_from_an_old_save() {
    let old: Action = serde_json::from_str(r#"{"kind":"end_phase"}"#).expect("old form");
    assert_eq!(old.side, None);
    let new = serde_json::to_string(&old.clone().by("red")).expect("json");
    assert_eq!(new, r#"{"kind":"end_phase","side":"red"}"#);
    assert_eq!(
        serde_json::to_string(&old).expect("json"),
        r#"{"kind":"end_phase"}"#,
        "no side, no field: old saves' actions serialise as before"
    );
}

#[test]
fn replay_without_rules_gives_the_state_hash_with_secrets() {
    let e = secret_game(2);
    let st = e.state();
    assert!(!st.secrets.is_empty());
    assert_eq!(st.secrets.commitments.len(), 2);
    assert!(st.secrets.is_hidden("r1", "blue"));
    drop(st);
    assert_eq!(e.replay_hash().expect("replay"), e.state().hash());
    // the secrets are hashed: the same state without them hashes otherwise
    let mut bare = e.state().clone();
    bare.secrets = Default::default();
    assert_ne!(bare.hash(), e.state().hash());
}

#[test]
fn undo_takes_back_a_commitment_and_a_concealment() {
    let mut e = engine(4);
    let start = e.state().hash();
    accept(&mut e, &Action::new("orders").with("choice", "hold"));
    accept(&mut e, &Action::new("conceal").with("unit", "r1"));
    assert!(e.undo().expect("undo"));
    assert!(!e.state().secrets.is_hidden("r1", "blue"));
    assert_eq!(e.state().secrets.commitments.len(), 1);
    assert!(e.undo().expect("undo"));
    assert!(e.state().secrets.is_empty());
    assert_eq!(e.state().hash(), start);
    // the same orders again give the same commitment: the salt is a function of the game
    let first = accept(&mut e, &Action::new("orders").with("choice", "hold"));
    e.undo().expect("undo");
    let again = accept(&mut e, &Action::new("orders").with("choice", "hold"));
    assert_eq!(first, again);
}

#[test]
fn the_other_side_sees_neither_the_choice_nor_the_hidden_unit() {
    let e = secret_game(5);
    let blue = view_json(&e, "blue");
    let red = view_json(&e, "red");
    // red's orders and roll: blue sees the digest, red sees the choice
    let red_digest = e.state().secrets.commitments["orders.red"].digest.clone();
    assert!(blue.contains(&red_digest), "blue sees red's digest");
    assert!(
        !blue.contains("\"hold\""),
        "blue must not see red's orders: {blue}"
    );
    assert!(red.contains("\"hold\""));
    assert!(
        !blue.contains("initiative.red\":"),
        "red's secret var: {blue}"
    );
    // the concealed unit: absent from blue's units and from blue's log
    let v = e.view("blue").expect("view");
    assert!(v.state.unit("r1").is_none());
    assert!(
        !blue.contains("\"r1\""),
        "blue must not see r1 at all: {blue}"
    );
    assert!(v.state.unit("r2").is_some());
    assert_eq!(v.state.seed, 0, "no view shows the seed");
    let moved = &v.log[2];
    assert!(moved.params_withheld);
    assert!(moved
        .events
        .iter()
        .all(|e| matches!(e, Event::Withheld { .. })));
    // blue's own orders are blue's to see, red's view shows blue's digest only
    let choice = |v: &View, id: &str| v.state.secrets.commitments[id].choice.clone();
    let r = e.view("red").expect("view");
    assert_eq!(choice(&v, "orders.blue")["order"], "attack");
    assert_eq!(choice(&r, "orders.blue"), serde_json::Value::Null);
    assert_eq!(choice(&r, "orders.red")["order"], "hold");
    assert!(red.contains("\"r1\""));
    assert!(matches!(
        e.view("green"),
        Err(ViewError::UnknownSide(s, _)) if s == "green"
    ));
}

#[test]
fn an_opening_that_is_not_what_was_committed_is_refused() {
    let mut e = secret_game(6);
    let events = accept(&mut e, &Action::new("open_orders"));
    let Some(Event::Opened { commitments }) = events
        .iter()
        .find(|ev| matches!(ev, Event::Opened { .. }))
        .cloned()
    else {
        panic!("no opened event in {events:?}")
    };
    assert!(e.state().secrets.commitments.is_empty());
    // apply the same opening with red's choice changed to blue's, before it was opened
    e.undo().expect("undo");
    let mut forged = commitments.clone();
    let red = forged
        .iter_mut()
        .find(|c| c.side == "red")
        .expect("red's commitment");
    red.choice = serde_json::json!({ "order": "attack", "turn": 1 });
    let mut st = e.state().clone();
    let err = st
        .apply(&Event::Opened {
            commitments: forged,
        })
        .expect_err("a changed choice does not open the commitment");
    assert_eq!(err, ApplyError::CommitmentMismatch("orders.red".into()));
    assert_eq!(st.secrets.commitments.len(), 2, "all or nothing");
    // the true opening applies; a second one finds nothing to open
    st.apply(&Event::Opened {
        commitments: commitments.clone(),
    })
    .expect("the committed choices open");
    let err = st
        .apply(&Event::Opened { commitments })
        .expect_err("opened once");
    assert_eq!(err, ApplyError::NoCommitment("orders.blue".into()));
    // a commitment whose digest is not its choice's is refused when made
    let mut c = Commitment::new("x", "red", serde_json::json!(1), "00");
    c.choice = serde_json::json!(2);
    let err = st
        .apply(&Event::Committed { commitment: c })
        .expect_err("digest mismatch");
    assert_eq!(err, ApplyError::CommitmentMismatch("x".into()));
    // a view's withheld event is not an event of the game
    let err = st
        .apply(&Event::Withheld {
            kind: "moved".into(),
        })
        .expect_err("withheld");
    assert_eq!(err, ApplyError::Withheld);
}

#[test]
fn secrets_are_deterministic_and_the_salt_follows_the_seed() {
    let (a, b, c) = (secret_game(8), secret_game(8), secret_game(9));
    assert_eq!(*a.log(), *b.log());
    assert_eq!(a.state().hash(), b.state().hash());
    assert_eq!(view_json(&a, "blue"), view_json(&b, "blue"));
    let digest = |e: &Engine| e.state().secrets.commitments["orders.red"].digest.clone();
    assert_eq!(digest(&a), digest(&b));
    assert_ne!(
        digest(&a),
        digest(&c),
        "another seed, another salt: the digest does not give the choice away"
    );
}

#[test]
fn a_saved_game_with_secrets_loads_with_its_sides_and_hash() {
    let e = secret_game(3);
    let dir = kessel_test_support::scratch("secrets");
    std::fs::create_dir_all(&dir).expect("dir");
    let mut text = e.save().expect("save");
    // the save names the scenario as given; make it absolute for the load from another folder
    let scenario = fixture("scenario.toml");
    let mut save: serde_json::Value = serde_json::from_str(&text).expect("json");
    save["scenario"] = serde_json::json!(scenario.to_str().expect("utf8"));
    let mut file: kessel_core::engine::SaveFile = serde_json::from_value(save).expect("save file");
    file.checksum = Some(file.compute_checksum());
    text = serde_json::to_string(&file).expect("json");
    let path = dir.join("game.json");
    std::fs::write(&path, text).expect("write");
    let loaded = Engine::load_save(&path, Limits::default()).expect("loads");
    assert_eq!(loaded.state().hash(), e.state().hash());
    assert_eq!(*loaded.log(), *e.log());
    assert_eq!(view_json(&loaded, "blue"), view_json(&e, "blue"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_hidden_marker_is_saved_replayed_and_shown_only_to_its_own_side() {
    let mut e = engine(6);
    let lay = Action::new("lay_mine")
        .with("hex", "0303")
        .with("strength", 2)
        .by("red");
    let events = accept(&mut e, &lay);
    assert!(matches!(&events[1], Event::MarkerHidden { side, on: true, .. } if side == "blue"));
    let id = e.state().markers.last().expect("the mine").id;
    assert!(e.state().secrets.is_marker_hidden(id, "blue"));
    assert!(!e.state().secrets.is_marker_hidden(id, "red"));
    assert_eq!(e.replay_hash().expect("replay"), e.state().hash());
    let blue = view_json(&e, "blue");
    assert!(
        !blue.contains("\"mine\""),
        "blue must not see the mine: {blue}"
    );
    assert!(!blue.contains("strength"), "nor its strength: {blue}");
    let v = e.view("blue").expect("view");
    assert!(v.state.markers.iter().all(|m| m.id != id));
    assert!(v.state.secrets.hidden_markers.is_empty());
    assert!(v.log[0].params_withheld);
    assert!(v.log[0]
        .events
        .iter()
        .all(|e| matches!(e, Event::Withheld { .. })));
    let red = e.view("red").expect("view");
    assert!(red.state.markers.iter().any(|m| m.id == id));
    assert!(view_json(&e, "red").contains("\"mine\""));
    // a save carries it: the loaded game hashes, logs and shows the same
    let dir = kessel_test_support::scratch("mines");
    std::fs::create_dir_all(&dir).expect("dir");
    let mut save: serde_json::Value = serde_json::from_str(&e.save().expect("save")).expect("json");
    save["scenario"] = serde_json::json!(fixture("scenario.toml").to_str().expect("utf8"));
    let mut file: kessel_core::engine::SaveFile = serde_json::from_value(save).expect("save file");
    file.checksum = Some(file.compute_checksum());
    let path = dir.join("game.json");
    std::fs::write(&path, serde_json::to_string(&file).expect("json")).expect("write");
    let loaded = Engine::load_save(&path, Limits::default()).expect("loads");
    assert_eq!(loaded.state().hash(), e.state().hash());
    assert_eq!(view_json(&loaded, "blue"), blue);
    let _ = std::fs::remove_dir_all(&dir);
    // a sweep shows it to blue; undo hides it again
    let sweep = Action::new("sweep").with("hex", "0303").by("blue");
    accept(&mut e, &sweep);
    assert!(e
        .view("blue")
        .expect("view")
        .state
        .markers
        .iter()
        .any(|m| m.id == id));
    assert!(e.undo().expect("undo"));
    assert!(e.state().secrets.is_marker_hidden(id, "blue"));
    // a marker_hidden event naming no marker does not apply
    let mut st = e.state().clone();
    let bad = Event::MarkerHidden {
        marker: 999,
        side: "blue".into(),
        on: true,
    };
    assert_eq!(st.apply(&bad), Err(ApplyError::UnknownMarker(999)));
}

#[test]
fn a_view_batches_another_sides_secret_actions_and_shows_no_dice_counter() {
    let mut e = engine(7);
    let buy = Action::new("buy_reserve").by("red");
    accept(&mut e, &buy);
    let one = view_json(&e, "blue");
    accept(&mut e, &buy);
    accept(&mut e, &buy);
    assert_eq!(e.log().len(), 3);
    assert!(e.state().dice_drawn >= 3);
    let blue = e.view("blue").expect("view");
    assert_eq!(view_json(&e, "blue"), one, "three purchases look like one");
    assert_eq!(blue.log.len(), 1);
    assert_eq!(blue.log[0].action.kind, "buy_reserve");
    assert!(blue.log[0].params_withheld);
    assert!(matches!(
        blue.log[0].events.as_slice(),
        [Event::Withheld { kind }] if kind == kessel_core::secrets::SECRET
    ));
    assert_eq!(blue.state.dice_drawn, 0, "no view shows the dice counter");
    assert!(blue.state.dice_streams.is_empty());
    // red reads its own three, with their rolls, but no counter
    let red = e.view("red").expect("view");
    assert_eq!(red.log.len(), 3);
    for entry in &red.log {
        let dice = entry.events.iter().find_map(|e| match e {
            Event::Dice {
                rolls,
                drawn_after,
                stream_after,
                ..
            } => Some((rolls.len(), *drawn_after, *stream_after)),
            _ => None,
        });
        assert_eq!(dice, Some((1, 0, 0)), "{entry:?}");
    }
    // the truth is unchanged: replay and undo as ever
    assert_eq!(e.replay_hash().expect("replay"), e.state().hash());
    assert!(e.undo().expect("undo"));
    assert_eq!(view_json(&e, "blue"), one);
}

/// `kessel query --as`: a side's query is answered from what it is shown. Red concealed r1 in
/// 0303 [T14]: blue's odds against 0303 find no defender there, its question about r1 is about
/// no unit, and the truth is back afterwards.
#[test]
fn a_query_asked_as_a_side_answers_from_its_view() {
    let e = secret_game(1);
    let hash = e.state().hash();
    let log_len = e.log().len();
    let odds = serde_json::json!({ "units": ["b1"], "targets": ["0303"] });
    let truth = e.query("odds", &odds).expect("odds from the truth");
    assert_eq!(truth["defence"], 3, "{truth}");
    let blue = e.query_as("blue", "odds", &odds).expect("odds as blue");
    assert_eq!(blue["defence"], 0, "{blue}");
    let red = e.query_as("red", "odds", &odds).expect("odds as red");
    assert_eq!(red["defence"], 3, "{red}");
    let err = e
        .query_as("blue", "moves", &serde_json::json!({ "units": ["r1"] }))
        .expect_err("r1 is hidden from blue");
    assert!(err.to_string().contains("r1"), "{err}");
    assert!(
        matches!(
            e.query_as("green", "odds", &odds),
            Err(kessel_core::engine::QueryAsError::View(
                ViewError::UnknownSide(..)
            ))
        ),
        "green is no side"
    );
    assert_eq!(e.state().hash(), hash);
    assert_eq!(e.log().len(), log_len);
    assert_eq!(e.query("odds", &odds).expect("truth again"), truth);
}

/// The hash is made a piece at a time, charged as it goes: it is still the hash of the state as
/// one JSON text with its keys in order, the form every save's state hash was written with (a
/// different text would make every save on disk read as changed).
#[test]
fn the_state_hash_is_that_of_the_whole_state_as_one_json_text() {
    let e = secret_game(3);
    let st = e.state();
    assert!(!st.secrets.is_empty() && !st.units.is_empty());
    let mut canon = serde_json::json!({
        "units": st.units, "markers": st.markers, "turn": st.turn, "phase": st.phase,
        "finished": st.finished, "vars": st.vars, "pools": st.pools, "seed": st.seed,
        "dice_drawn": st.dice_drawn, "dice_streams": st.dice_streams,
    });
    canon["secrets"] = serde_json::to_value(&st.secrets).expect("secrets as JSON");
    let text = canon.to_string();
    let fnv = text.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    });
    assert_eq!(st.hash_sized(), (fnv, text.len()));
    // a budget met part way stops the work there, before the rest is made into text
    let mut seen = 0;
    let stopped = st.hash_charged(|n| {
        seen += n;
        if seen > 40 {
            Err(seen)
        } else {
            Ok(())
        }
    });
    assert!(matches!(stopped, Err(n) if n < text.len()), "{stopped:?}");
}
