//! The core driven end to end on the toy ruleset (core/tests/fixtures/toy): the engine must run a
//! game it knows nothing about, replay it, undo it, and save and load it byte for byte.

use kessel_core::engine::Engine;
use kessel_core::script::Limits;
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

/// Plays `n` actions, always the first legal one that is not `end_phase` when there is one (so
/// units move and fight), else `end_phase`.
fn play(e: &mut Engine, n: usize) {
    for _ in 0..n {
        if e.state().finished {
            break;
        }
        let legal = e.legal_actions(None).expect("enumerate");
        let pick = legal
            .iter()
            .find(|a| a.kind == "attack")
            .or_else(|| legal.iter().find(|a| a.kind == "move"))
            .or_else(|| legal.iter().find(|a| a.kind == "end_phase"))
            .expect("some legal action")
            .clone();
        let outcome = e.act(&pick).expect("rules run");
        assert!(
            outcome.is_ok(),
            "enumerated action refused: {pick:?} {outcome:?}"
        );
    }
}

/// The toy's `move` of one unit to one hex.
fn toy_move(unit: &str, hex: &str) -> Action {
    Action::new("move")
        .with("unit", unit)
        .with("path", serde_json::json!([hex]))
}

#[test]
fn recorded_game_replays_to_the_same_state_hash() {
    let mut e = engine(7);
    play(&mut e, 40);
    assert!(e.log().len() >= 10);
    assert_eq!(e.replay_hash().expect("replay"), e.state().hash());
    // the same seed and the same choices give the same log, event for event
    let mut again = engine(7);
    play(&mut again, 40);
    assert_eq!(*again.log(), *e.log());
    assert_eq!(again.state().hash(), e.state().hash());
}

#[test]
fn save_load_save_is_byte_identical() {
    let mut e = engine(3);
    play(&mut e, 25);
    let saved = e.save().expect("save");
    let dir = kessel_test_support::scratch("save");
    let path = dir.join("game.json");
    std::fs::write(&path, &saved).expect("write");
    let mut loaded = Engine::load_save(&path, Limits::default()).expect("load");
    assert_eq!(loaded.save().expect("save again"), saved);
    assert_eq!(loaded.state().hash(), e.state().hash());
    // the loaded game goes on with the same dice as the original
    play(&mut e, 10);
    play(&mut loaded, 10);
    assert_eq!(loaded.state().hash(), e.state().hash());
}

#[test]
fn save_as_names_the_scenario_from_the_save_and_keeps_the_players() {
    let mut e = engine(3);
    play(&mut e, 5);
    let dir = kessel_test_support::scratch("save-as");
    let path = dir.join("game.json");
    let players: std::collections::BTreeMap<String, String> =
        [("red".to_string(), "computer".to_string())].into();
    let saved = e.save_as(&path, &players).expect("save");
    std::fs::write(&path, &saved).expect("write");
    let file: SaveFile = serde_json::from_str(&saved).expect("parse");
    // the scenario is found from the save's folder, whatever the working folder is
    assert!(
        Path::new(&file.scenario).is_relative() && file.scenario.starts_with(".."),
        "{}",
        file.scenario
    );
    assert!(dir.join(&file.scenario).is_file(), "{}", file.scenario);
    assert_eq!(file.players, players);
    let (loaded, back) = Engine::load_save_with_players(&path, Limits::default()).expect("load");
    assert_eq!(back, players);
    assert_eq!(loaded.state().hash(), e.state().hash());
    // and a save written without players has no such field
    assert!(!e.save().expect("save").contains("\"players\""));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn options_set_by_hand_survive_save_and_load() {
    let mut e = engine(3);
    assert!(
        !e.save().expect("save").contains("\"options\""),
        "nothing set by hand"
    );
    e.set_option("stack_limit", serde_json::json!(3))
        .expect("declared option");
    play(&mut e, 5);
    let saved = e.save().expect("save");
    assert!(saved.contains("\"stack_limit\": 3"), "{saved}");
    let dir = kessel_test_support::scratch("save-opt");
    let path = dir.join("game.json");
    std::fs::write(&path, &saved).expect("write");
    let loaded = Engine::load_save(&path, Limits::default()).expect("load");
    assert_eq!(
        loaded.options().values.get("stack_limit"),
        Some(&serde_json::json!(3))
    );
    assert_eq!(loaded.save().expect("save again"), saved);
    // set once the game was set up: a change made before the first action
    let mut file: SaveFile = serde_json::from_str(&saved).expect("parse");
    assert!(file.options.is_empty(), "{saved}");
    assert_eq!(file.option_changes.len(), 1);
    assert_eq!(file.option_changes[0].at, 0);
    // an option the ruleset does not have (any more) is a clear error naming it
    let changed = &mut file.option_changes[0].options;
    let v = changed.remove("stack_limit").expect("recorded");
    changed.insert("stack_limitz".into(), v);
    file.checksum = Some(file.compute_checksum());
    std::fs::write(&path, serde_json::to_string(&file).expect("json")).expect("write");
    let err = Engine::load_save(&path, Limits::default()).expect_err("unknown option");
    assert!(
        err.to_string().contains("stack_limitz")
            && err.to_string().contains("before the first action"),
        "{err}"
    );
    // given in the save's own `options`, the same
    let mut file: SaveFile = serde_json::from_str(&saved).expect("parse");
    file.option_changes.clear();
    file.options
        .insert("stack_limitz".into(), serde_json::json!(3));
    file.checksum = Some(file.compute_checksum());
    std::fs::write(&path, serde_json::to_string(&file).expect("json")).expect("write");
    let err = Engine::load_save(&path, Limits::default()).expect_err("unknown option");
    assert!(err.to_string().contains("stack_limitz"), "{err}");
}

/// A save of a few actions, written to a scratch folder holding a copy of the toy.
fn saved_game(name: &str) -> (PathBuf, PathBuf, SaveFile) {
    let dir = kessel_test_support::toy_copy(name);
    let mut e = Engine::load(&dir.join("scenario.toml"), None, 3, Limits::default()).expect("load");
    play(&mut e, 6);
    assert!(e.log().len() >= 3, "the game has a history");
    let text = e.save().expect("save");
    let path = dir.join("game.json");
    std::fs::write(&path, &text).expect("write");
    let file = serde_json::from_str(&text).expect("parse");
    (dir, path, file)
}

#[test]
fn an_edited_save_is_refused_and_says_so() {
    let (_dir, path, file) = saved_game("tamper-sum");
    assert!(Engine::load_save(&path, Limits::default()).is_ok());
    // edited by hand, checksum left as it was
    let mut edited = file.clone();
    edited.seed += 1;
    std::fs::write(&path, serde_json::to_string(&edited).expect("json")).expect("write");
    let err = Engine::load_save(&path, Limits::default()).expect_err("checksum");
    assert!(err.to_string().contains("edited or damaged"), "{err}");
}

#[test]
fn a_rewritten_history_is_replayed_through_the_rules_and_refused() {
    let (_dir, path, file) = saved_game("tamper-history");
    // move the first mover somewhere it cannot go, and recompute every hash the file has
    let mut edited = file.clone();
    let first = &mut edited.log[0];
    assert_eq!(first.action.kind, "move", "{:?}", first.action);
    first
        .action
        .params
        .insert("path".into(), serde_json::json!(["0909"]));
    edited.checksum = Some(edited.compute_checksum());
    std::fs::write(&path, serde_json::to_string(&edited).expect("json")).expect("write");
    let err = Engine::load_save(&path, Limits::default()).expect_err("refused");
    let text = err.to_string();
    assert!(
        text.contains("history was edited") && text.contains("action 1 of"),
        "{text}"
    );
    assert!(
        text.contains("from a copy made before it was edited"),
        "{text}"
    );
}

#[test]
fn a_changed_scenario_is_told_apart_from_a_tampered_save() {
    let (dir, path, _file) = saved_game("changed-rules");
    // the rules change after the save: units may no longer move at all
    let play = dir.join("rules/play.lua");
    let original = std::fs::read_to_string(&play).expect("read");
    let strict = original.replace(
        "if not u then return { rule = \"T1\", message = \"no such unit\" } end",
        "if true then return { rule = \"T9\", message = \"frozen by the new rule\" } end",
    );
    assert_ne!(strict, original);
    std::fs::write(&play, strict).expect("write");
    let err = Engine::load_save(&path, Limits::default()).expect_err("refused");
    let text = err.to_string();
    assert!(
        text.contains("rules changed since the save") && text.contains("T9"),
        "{text}"
    );
    // and says what to do about it
    assert!(
        text.contains("put back the scenario and rule files it was played with"),
        "{text}"
    );
}

#[test]
fn a_save_that_still_replays_after_its_scenario_changed_says_so() {
    let (dir, path, _file) = saved_game("changed-scenario");
    let same = Engine::load_save(&path, Limits::default()).expect("load");
    assert_eq!(same.save_changed_note(), None);
    // fewer turns: every action of the save is still legal, the state the same
    let scenario = dir.join("scenario.toml");
    let original = std::fs::read_to_string(&scenario).expect("read");
    let shorter = original.replacen("turns = 3", "turns = 2", 1);
    assert_ne!(shorter, original);
    std::fs::write(&scenario, shorter).expect("write");
    let changed = Engine::load_save(&path, Limits::default()).expect("still loads");
    let note = changed.save_changed_note().expect("a note");
    assert!(
        note.contains("game.json") && note.contains("other scenario or rule files"),
        "{note}"
    );
}

#[test]
fn a_profile_added_beside_the_games_own_leaves_its_saves_as_they_were() {
    let (dir, path, _file) = saved_game("added-profile");
    // a GM's new profile in the ruleset's folder: no rule of this game changed
    let profiles = dir.join("profiles");
    std::fs::copy(profiles.join("open.toml"), profiles.join("mine.toml")).expect("copy");
    let e = Engine::load_save(&path, Limits::default()).expect("load");
    assert_eq!(e.save_changed_note(), None);
    // the game's own profile (the scenario's `standard`) edited: that is a change
    let own = profiles.join("standard.toml");
    let text = std::fs::read_to_string(&own).expect("read");
    std::fs::write(&own, format!("{text}\n# edited\n")).expect("write");
    let e = Engine::load_save(&path, Limits::default()).expect("load");
    assert!(
        e.save_changed_note().is_some(),
        "the profile in use is part of the game"
    );
}

/// A profile given by its path lies outside the ruleset: an edit of it is a change of what the
/// game is played with, said on load as an edit of the ruleset's own profile is.
#[test]
fn a_profile_given_by_path_is_part_of_the_game_its_saves_name() {
    let dir = kessel_test_support::toy_copy("path-profile");
    // (the toy's scenario folder is its ruleset folder: the GM's profiles are kept elsewhere)
    let tournament = kessel_test_support::scratch("path-profile-tournament");
    let mine = tournament.join("mine.toml");
    std::fs::copy(dir.join("profiles/open.toml"), &mine).expect("copy");
    let mine_s = mine.to_string_lossy().into_owned();
    let mut e = Engine::load(
        &dir.join("scenario.toml"),
        Some(&mine_s),
        3,
        Limits::default(),
    )
    .expect("load");
    play(&mut e, 4);
    let path = dir.join("game.json");
    std::fs::write(&path, e.save_as(&path, &Default::default()).expect("save")).expect("write");
    let e = Engine::load_save(&path, Limits::default()).expect("load");
    assert_eq!(e.save_changed_note(), None, "nothing changed yet");
    let text = std::fs::read_to_string(&mine).expect("read");
    std::fs::write(&mine, format!("{text}\n# edited between rounds\n")).expect("write");
    let e = Engine::load_save(&path, Limits::default()).expect("load");
    assert!(
        e.save_changed_note().is_some(),
        "the profile file the game was played under is part of it: {:?}",
        e.save_changed_note()
    );
}

/// An option changed during play (a rules panel's flip after the set-up) applies from then on:
/// a save sets its game up under the options it started with and makes the change where it was
/// made, so actions played before it replay under the options they were played under. Before, a
/// save put the changed value in force from the set-up and the load called its history edited.
#[test]
fn an_option_changed_during_play_is_replayed_where_it_was_made() {
    let dir = kessel_test_support::toy_copy("option-mid-game");
    let mut e = Engine::load(&dir.join("scenario.toml"), None, 3, Limits::default()).expect("load");
    let mv = toy_move;
    // two to a hex, as the default stack limit allows
    assert!(e.act(&mv("r2", "0203")).expect("runs").is_ok());
    e.set_option("stack_limit", serde_json::json!(1))
        .expect("a stack limit of 1");
    let refused = e.act(&mv("r1", "0103")).expect("runs");
    assert!(refused.is_ok(), "0103 is empty: {refused:?}");
    let path = dir.join("game.json");
    std::fs::write(&path, e.save_as(&path, &Default::default()).expect("save")).expect("write");
    let saved: SaveFile =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
    assert!(
        saved.options.is_empty(),
        "set up under the profile's: {:?}",
        saved.options
    );
    assert_eq!(saved.option_changes.len(), 1);
    assert_eq!(saved.option_changes[0].at, 1);
    let loaded = Engine::load_save(&path, Limits::default()).expect("replays");
    assert_eq!(loaded.state().hash(), e.state().hash());
    assert_eq!(
        loaded.options().values.get("stack_limit"),
        Some(&serde_json::json!(1)),
        "the change is in force after the load"
    );
    // save → load → save gives the same file
    let again = dir.join("again.json");
    let text = loaded.save_as(&again, &Default::default()).expect("save");
    assert_eq!(text, std::fs::read_to_string(&path).expect("read"));
    // an undo past the change moves it back with the log
    let mut e = loaded;
    e.undo().expect("undo");
    e.undo().expect("undo");
    assert_eq!(e.world().option_changes[0].at, 0);
}

#[test]
fn undo_takes_back_exactly_one_action() {
    let mut e = engine(1);
    let start = e.state().hash();
    let mv = Action::new("move")
        .with("unit", "r1")
        .with("path", serde_json::json!(["0303"]));
    let outcome = e.act(&mv).expect("runs");
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_ne!(e.state().hash(), start);
    assert!(e.undo().expect("the log replays"));
    assert_eq!(e.state().hash(), start);
    assert!(!e.undo().expect("the log replays"));
}

#[test]
fn refusals_cite_the_rule() {
    let mut e = engine(1);
    // blue may not move in red's phase
    let mv = Action::new("move")
        .with("unit", "b1")
        .with("path", serde_json::json!(["0503"]));
    let refused = e.act(&mv).expect("runs").expect_err("refused");
    assert_eq!(refused.reasons[0].rule.as_deref(), Some("T1"));
    assert!(e.log().is_empty(), "a refusal records nothing");
}

/// A fresh copy of the toy whose scenario also runs `file` (written with `lua`) after the ruleset,
/// as a scenario's special rules; returns the scenario file.
fn toy_with_script(name: &str, file: &str, lua: &str) -> PathBuf {
    let dir = kessel_test_support::scratch(name);
    copy_dir(&fixture(""), &dir);
    std::fs::write(dir.join(file), lua).expect("write");
    let scenario = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("read");
    let with = text.replace(
        "ruleset = \".\"",
        &format!("ruleset = \".\"\nscripts = [\"{file}\"]"),
    );
    assert_ne!(with, text, "the toy scenario names its ruleset");
    std::fs::write(&scenario, with).expect("write");
    scenario
}

#[test]
fn a_failing_rule_script_leaves_the_state_untouched() {
    // a handler that changes the game (a move, a die roll) and then raises
    let scenario = toy_with_script(
        "rollback",
        "sabotage.lua",
        r#"kessel.action{
  kind = "sabotage", rule = "X1", description = "moves, rolls, then fails",
  validate = function(a) return nil end,
  apply = function(a)
    kessel.emit.move("r1", { "0303" })
    kessel.dice.roll("sabotage")
    error("the handler fails after changing the game")
  end,
}
"#,
    );
    let mut e = Engine::load(&scenario, None, 1, Limits::default()).expect("load");
    let mv = Action::new("move")
        .with("unit", "r2")
        .with("path", serde_json::json!(["0203"]));
    assert!(e.act(&mv).expect("runs").is_ok());
    let (hash, drawn, log_len, revision) = {
        let w = e.world();
        (w.state.hash(), w.dice.drawn(), w.log.len(), w.revision)
    };
    let r1_before = e.state().unit("r1").and_then(|u| u.hex());

    let err = e
        .act(&Action::new("sabotage"))
        .expect_err("the handler raises");
    assert!(err.message.contains("sabotage.lua:"), "{}", err.message);

    let w = e.world();
    assert_eq!(w.state.hash(), hash, "state restored");
    assert_eq!(w.dice.drawn(), drawn, "dice restored");
    assert_eq!(w.log.len(), log_len, "nothing logged");
    assert!(w.pending.is_empty());
    assert_eq!(w.state.unit("r1").and_then(|u| u.hex()), r1_before);
    assert!(w.revision > revision, "caches made meanwhile are stale");
    assert_eq!(
        w.unit_changes.since(revision, &w.state),
        Some(vec!["r1".to_string()]),
        "the unit the failed handler moved counts as changed, and only it"
    );
    drop(w);
    assert_eq!(e.replay_hash().expect("replays"), hash);
}

/// A failing handler's every kind of change is put back: units created, changed, moved, flagged
/// one by one and all at once, unit and game variables (the engine keeps only the units
/// an action touched, not a whole copy, to roll back).
#[test]
fn a_failing_handler_that_creates_and_changes_units_is_rolled_back_whole() {
    let scenario = toy_with_script(
        "rollback-journal",
        "wreck.lua",
        r#"kessel.action{
  kind = "wreck", rule = "X2", description = "changes much, then fails",
  validate = function(a) return nil end,
  apply = function(a)
    kessel.emit.flag("r1", "tired")
    kessel.emit.flag("b1", "tired")
    kessel.emit.unit_var("r2", "spent", 3)
    kessel.emit.move("r1", { "0303" })
    kessel.emit.move("r1", { "0403" })
    kessel.emit.clear_flag("tired")
    kessel.emit.var("wrecked", true)
    local id = kessel.emit.create_unit{ side = "red", type = "squad", faces = { "4-4-7" }, at = "0203" }
    kessel.emit.flag(id, "new")
    kessel.emit.eliminate("b1")
    error("the handler fails after changing much")
  end,
}
"#,
    );
    let mut e = Engine::load(&scenario, None, 1, Limits::default()).expect("load");
    let before = e.state().clone();
    let units = before.units.len();
    let err = e
        .act(&Action::new("wreck"))
        .expect_err("the handler raises");
    assert!(err.message.contains("changing much"), "{}", err.message);
    let after = e.state().clone();
    assert_eq!(after.units.len(), units, "the created unit is gone");
    assert_eq!(after, before, "every change put back");
    assert_eq!(after.hash(), before.hash());
    assert_eq!(after.unit_index("b1"), before.unit_index("b1"));
    // the engine goes on as before: an action after the failed one works and is rolled back too
    let mv = Action::new("move")
        .with("unit", "r2")
        .with("path", serde_json::json!(["0203"]));
    assert!(e.act(&mv).expect("runs").is_ok());
    let moved = e.state().clone();
    e.act(&Action::new("wreck")).expect_err("raises again");
    assert_eq!(*e.state(), moved);
}

#[test]
fn core_sources_name_no_particular_game() {
    // principle 1: the core knows nothing of PGG; nor do the drawers, whose names and colours
    // come from the ruleset's declarations (the drawing model, the editor, `kessel render`), nor
    // the balance lab, whose sides, levels and objectives come from the scenario
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = core.parent().expect("the workspace holds the core");
    let banned = [
        "soviet",
        "german",
        "smolensk",
        "panzer",
        "wehrmacht",
        "guderian",
        "wbc",
    ];
    let mut stack = vec![
        core.join("src"),
        root.join("draw/src"),
        root.join("editor/src"),
        root.join("src/render"),
        root.join("lab/src"),
    ];
    let mut files = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read src") {
            let p = entry.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let text = std::fs::read_to_string(&p).expect("read").to_lowercase();
                files += 1;
                for word in banned {
                    assert!(!text.contains(word), "{} mentions `{word}`", p.display());
                }
            }
        }
    }
    // a moved folder must not make the check pass by reading nothing
    assert!(files >= 40, "only {files} source files read");
}

use kessel_core::engine::SaveFile;
use kessel_test_support::copy_dir;

#[test]
fn reloading_rules_keeps_the_game_and_a_broken_file_keeps_the_old_rules() {
    let dir = kessel_test_support::scratch("reload");
    copy_dir(&fixture(""), &dir);
    let mut e = Engine::load(&dir.join("scenario.toml"), None, 5, Limits::default()).expect("load");
    let mv = |hex: &str| toy_move("r1", hex);
    assert!(e.act(&mv("0303")).expect("runs").is_ok());
    let hash = e.state().hash();
    let log_len = e.log().len();

    // a rule change: units may no longer move at all
    let play = dir.join("rules/play.lua");
    let original = std::fs::read_to_string(&play).expect("read");
    let strict = original.replace(
        "if not u then return { rule = \"T1\", message = \"no such unit\" } end",
        "if true then return { rule = \"T9\", message = \"frozen by the new rule\" } end",
    );
    assert_ne!(strict, original, "the replacement applies");
    std::fs::write(&play, &strict).expect("write");
    e.reload_rules().expect("reload");
    assert_eq!(e.state().hash(), hash, "the game survives the reload");
    assert_eq!(e.log().len(), log_len);
    let refused = e
        .act(&mv("0304"))
        .expect("runs")
        .expect_err("new rule refuses");
    assert_eq!(refused.reasons[0].rule.as_deref(), Some("T9"));

    // a syntax error: the reload fails with file and line, the last good rules stay live
    std::fs::write(&play, "kessel.action{ kind = \n").expect("write");
    let err = e.reload_rules().expect_err("broken file");
    assert!(err.message.contains("play.lua:"), "{}", err.message);
    let still = e
        .act(&mv("0304"))
        .expect("runs")
        .expect_err("old rule still refuses");
    assert_eq!(still.reasons[0].rule.as_deref(), Some("T9"));
    assert_eq!(e.state().hash(), hash);
}

/// A rule changed and reloaded during play (the editor's hot reload) may refuse an action played
/// before it. A save of that game names the files at saving, under which its history no longer
/// replays: the load blames the reload (not an edit of the history), and the game loads as far as
/// it replays, saying what was left out, so nothing but the refused actions is lost.
#[test]
fn a_save_made_after_a_reload_that_refuses_its_past_blames_the_reload_and_loads_what_replays() {
    let dir = kessel_test_support::scratch("reload-save");
    copy_dir(&fixture(""), &dir);
    let mut e = Engine::load(&dir.join("scenario.toml"), None, 5, Limits::default()).expect("load");
    let mv = toy_move;
    let hex_of = |e: &Engine, id: &str| e.state().unit(id).and_then(|u| u.hex());
    let r2_start = hex_of(&e, "r2");
    assert!(e.act(&mv("r1", "0303")).expect("runs").is_ok());
    let r1_moved = hex_of(&e, "r1");
    assert!(e.act(&mv("r2", "0104")).expect("runs").is_ok());
    assert_ne!(hex_of(&e, "r2"), r2_start);
    // the new rule closes 0104, where r2 went
    let play = dir.join("rules/play.lua");
    let original = std::fs::read_to_string(&play).expect("read");
    let closed = original.replace(
        "if not u then return { rule = \"T1\", message = \"no such unit\" } end",
        "if type(a.path) == \"table\" and a.path[#a.path] == \"0104\" then return { rule = \"T9\", message = \"0104 is closed by the new rule\" } end\n    if not u then return { rule = \"T1\", message = \"no such unit\" } end",
    );
    assert_ne!(closed, original, "the replacement applies");
    std::fs::write(&play, &closed).expect("write");
    e.reload_rules().expect("reload");
    assert_eq!(e.world().reloaded_at, vec![2]);
    let save = dir.join("game.json");
    std::fs::write(&save, e.save_as(&save, &Default::default()).expect("save")).expect("write");
    let written: SaveFile =
        serde_json::from_str(&std::fs::read_to_string(&save).expect("read")).expect("json");
    assert_eq!(written.rules_reloaded_at, vec![2]);

    let err = Engine::load_save(&save, Limits::default())
        .expect_err("the new rule refuses action 2")
        .to_string();
    assert!(
        err.contains("the rules were reloaded during play, after action 2")
            && err.contains("action 2 of 2")
            && err.contains("0104 is closed by the new rule")
            && err.contains("kessel replay")
            && !err.contains("edited"),
        "{err}"
    );

    let (kept, _, replayed) = Engine::load_save_as_far_as_it_replays(
        &save,
        Limits::default(),
        kessel_core::script::Stopper::default(),
    )
    .expect("loads what replays");
    assert_eq!((replayed.replayed, replayed.of), (1, 2));
    assert_eq!(replayed.stop.as_ref().and_then(|s| s.action), Some(2));
    assert_eq!(kept.log().len(), 1);
    assert_eq!(hex_of(&kept, "r1"), r1_moved);
    assert_eq!(
        hex_of(&kept, "r2"),
        r2_start,
        "r2's refused move is left out"
    );
    let note = kept.save_changed_note().expect("a note").to_string();
    assert!(
        note.contains("1 of 2 actions")
            && note.contains("action 2 no longer does")
            && note.contains("play them again"),
        "{note}"
    );
    // what was kept is a game the files now in place play: saved again, it loads whole
    let again = dir.join("kept.json");
    std::fs::write(
        &again,
        kept.save_as(&again, &Default::default()).expect("save"),
    )
    .expect("write");
    let reloaded = Engine::load_save(&again, Limits::default()).expect("loads whole");
    assert_eq!(reloaded.state().hash(), kept.state().hash());

    // an undo past the reload moves it back with the log: the one action left was played
    // before it
    e.undo().expect("undo");
    assert_eq!(e.world().reloaded_at, vec![1]);
    e.undo().expect("undo");
    assert!(
        e.world().reloaded_at.is_empty(),
        "no action was played under the old rules"
    );
}

/// A string scenario variable may list the words it may be (`values`): a misspelt one (the name
/// of a table the rules roll on) is refused at its line when the scenario loads, with the nearest
/// word, instead of failing when the game first reads it.
#[test]
fn a_scenario_var_of_listed_words_refuses_another_word_at_load() {
    let dir = kessel_test_support::scratch("var-words");
    copy_dir(&fixture(""), &dir);
    let init = dir.join("init.lua");
    let text = std::fs::read_to_string(&init).expect("read");
    let decl = "kessel.scenario_var{ id = \"mood\", type = \"string\", default = \"calm\", values = { \"calm\", \"storm\" } }\n";
    std::fs::write(&init, format!("{decl}{text}")).expect("write");
    let scenario = dir.join("scenario.toml");
    let base = std::fs::read_to_string(&scenario).expect("read");
    let with = |mood: &str| {
        std::fs::write(&scenario, format!("{base}\n[vars]\nmood = \"{mood}\"\n")).expect("write");
        Engine::load(&scenario, None, 1, Limits::default())
    };
    assert!(with("storm").is_ok(), "a listed word loads");
    let Err(err) = with("strom") else {
        panic!("a word not listed is refused")
    };
    let text = err.to_string();
    assert!(
        text.contains("scenario var `mood` is \"strom\"; the ruleset allows calm, storm")
            && text.contains("did you mean `storm`"),
        "{text}"
    );
    // `values` lists words: on a number it is an error where it is declared
    let ints = "kessel.scenario_var{ id = \"n\", type = \"int\", values = { \"a\" } }\n";
    std::fs::write(
        &init,
        format!(
            "{ints}{text}",
            text = std::fs::read_to_string(fixture("init.lua")).expect("read")
        ),
    )
    .expect("write");
    std::fs::write(&scenario, &base).expect("write");
    let Err(err) = Engine::load(&scenario, None, 1, Limits::default()) else {
        panic!("values on an int is refused")
    };
    assert!(
        err.to_string()
            .contains("`values` lists the words a string may be"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Rules that load without an error but cannot play the game in progress were taken: a sequence
/// without the step the game stood at left `kessel.game.step()` nil and every rule reading it
/// failing; a side, unit type or terrain dropped left the game with units and hexes the rules
/// could not name. Each reload is refused, saying what does not fit, and the last good rules stay
/// live on the same game.
#[test]
fn a_reload_that_cannot_play_the_game_in_progress_keeps_the_old_rules() {
    type Edit = fn(&str) -> String;
    let cases: [(&str, Edit, &str); 6] = [
        (
            "var-retyped",
            |i| i.replace("kessel.scenario_var{ id = \"bonus\", type = \"int\", default = 0, min = 0, max = 50,", "kessel.scenario_var{ id = \"bonus\", type = \"string\", default = \"none\","),
            "scenario var `bonus`",
        ),
        (
            "fewer-steps",
            |i| i.replace("  { id = \"blue_combat\", name = \"Blue combat\", side = \"blue\", rule = \"T1\" },\n", ""),
            "the game is at step `blue_combat`, number 4 of the sequence of play, which now has 3 steps",
        ),
        (
            "steps-reordered",
            |i| i.replace("{ id = \"blue_combat\", name = \"Blue combat\"", "{ id = \"blue_fight\", name = \"Blue combat\""),
            "which is now step `blue_fight`",
        ),
        (
            "no-tank",
            |i| i.replace("kessel.unit_type{ id = \"tank\", class = \"wheels\", name = \"Tanks\" }", ""),
            "units of type `tank` (`r2` among them), which the rules no longer declare",
        ),
        (
            "no-woods",
            |i| {
                i.replace("kessel.terrain{ id = \"woods\"", "-- kessel.terrain{ id = \"woods\"")
                    .replace("woods = { foot = 1, default = 2 },", "")
            },
            "the game's map: terrain `woods` is not declared by the ruleset",
        ),
        (
            "no-blue",
            |i| i.replace("\"blue\"", "\"green\"").replace("blue = ", "green = "),
            "units or markers of side `blue`, which the rules no longer declare (their sides: red, green)",
        ),
    ];
    for (name, edit, said) in cases {
        let dir = kessel_test_support::scratch(&format!("reload-{name}"));
        copy_dir(&fixture(""), &dir);
        // the scenario sets the variable the "var-retyped" rules read as another type
        let scenario = dir.join("scenario.toml");
        let text = std::fs::read_to_string(&scenario).expect("read");
        std::fs::write(&scenario, format!("{text}\n[vars]\nbonus = 5\n")).expect("write");
        let mut e =
            Engine::load(&dir.join("scenario.toml"), None, 5, Limits::default()).expect("load");
        // to the last step of the first turn
        for _ in 0..3 {
            assert!(e.act(&Action::new("end_phase")).expect("runs").is_ok());
        }
        let hash = e.state().hash();
        let init = dir.join("init.lua");
        let original = std::fs::read_to_string(&init).expect("read");
        let edited = edit(&original);
        assert_ne!(edited, original, "{name}: the edit applies");
        std::fs::write(&init, &edited).expect("write");
        let err = e.reload_rules().expect_err(name);
        assert!(
            err.message.contains("init.lua")
                && err
                    .message
                    .contains("the new rules cannot play the game in progress")
                && err.message.contains(said)
                && err.message.contains("the last good rules stay live"),
            "{name}: {}",
            err.message
        );
        // the old rules play on: the game moves to Red's first step of turn 2
        assert_eq!(e.state().hash(), hash, "{name}");
        assert!(
            e.act(&Action::new("end_phase")).expect("runs").is_ok(),
            "{name}"
        );
        let st = e.state();
        assert_eq!((st.turn, st.phase), (2, 0), "{name}");
        drop(st);
        // and the same rules load for a game started afresh
        let fresh = Engine::load(&dir.join("scenario.toml"), None, 5, Limits::default());
        if name == "steps-reordered" {
            assert!(
                fresh.is_ok(),
                "{name}: a renamed step is no problem to a new game"
            );
        }
    }
}

/// An option value a reload cannot carry (its declaration changed type or range) was carried
/// anyway: the rules read a value they never declared (`stack_limit = true`). A value the game
/// took from the old default follows the new declaration's default; one chosen for this game
/// (a profile, a flag, the editor) that the new declaration refuses stops the reload, naming it.
#[test]
fn a_reload_carries_only_the_option_values_the_new_declarations_admit() {
    let dir = kessel_test_support::scratch("reload-options");
    copy_dir(&fixture(""), &dir);
    let init = dir.join("init.lua");
    let original = std::fs::read_to_string(&init).expect("read");
    let retyped = original.replace(
        "kessel.option{ id = \"stack_limit\", type = \"int\", default = 2,",
        "kessel.option{ id = \"stack_limit\", type = \"int\", default = 3, min = 3, max = 5,",
    );
    assert_ne!(retyped, original, "the edit applies");
    // the default value (2) follows the new default (3)
    let mut e = Engine::load(&dir.join("scenario.toml"), None, 5, Limits::default()).expect("load");
    std::fs::write(&init, &retyped).expect("write");
    e.reload_rules()
        .expect("a default follows the new declaration");
    assert_eq!(
        e.options().values.get("stack_limit"),
        Some(&serde_json::json!(3))
    );
    // a value chosen for the game below the new range stops the reload
    std::fs::write(&init, &original).expect("write");
    let mut e = Engine::load(&dir.join("scenario.toml"), None, 5, Limits::default()).expect("load");
    e.set_option("stack_limit", serde_json::json!(1))
        .expect("1 is allowed before");
    std::fs::write(&init, &retyped).expect("write");
    let err = e.reload_rules().expect_err("1 is out of the new range");
    assert!(
        err.message
            .contains("the new rules cannot play the game in progress")
            && err
                .message
                .contains("option `stack_limit` is 1 in this game")
            && err.message.contains("from 3 to 5"),
        "{}",
        err.message
    );
    assert_eq!(
        e.options().values.get("stack_limit"),
        Some(&serde_json::json!(1))
    );
}

/// A save's content hash reads the ruleset's files: with two links back up in the ruleset
/// (`rules/a -> ..`, `rules/b -> ..`) the walk followed both at every level, 2^40 folders, and
/// `kessel script --save` hung. Links are followed only inside the folder, each folder once.
#[cfg(unix)]
#[test]
fn links_back_up_a_ruleset_do_not_hang_its_save() {
    let dir = kessel_test_support::scratch("links-up");
    copy_dir(&fixture(""), &dir);
    for name in ["a", "b", "c"] {
        std::os::unix::fs::symlink("..", dir.join("rules").join(name)).expect("link");
    }
    std::os::unix::fs::symlink("/", dir.join("rules/root")).expect("link");
    let scenario = dir.join("scenario.toml");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let saved = Engine::load(&scenario, None, 5, Limits::default())
            .map_err(|e| e.to_string())
            .and_then(|mut e| {
                assert!(e.act(&Action::new("end_phase")).expect("runs").is_ok());
                e.save()
            });
        let _ = tx.send(saved);
    });
    let saved = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the save is made in seconds")
        .expect("saved");
    assert!(saved.contains("end_phase"), "{saved}");
}

#[test]
fn a_scenario_script_can_add_a_special_rule_by_wrapping_an_action() {
    let scenario = toy_with_script(
        "special",
        "special.lua",
        r#"-- Special rule S1: the tank may not move on turn 1.
local move = kessel.action_handlers("move")
local base = move.validate
kessel.action{
  kind = "move", rule = move.rule, description = move.description,
  validate = function(a)
    if a.unit == "r2" and kessel.game.turn() == 1 then
      return { rule = "S1", message = "the tank is out of fuel on turn 1" }
    end
    return base(a)
  end,
  apply = move.apply, enumerate = move.enumerate,
}
"#,
    );
    let mut e = Engine::load(&scenario, None, 1, Limits::default()).expect("load");
    let tank = Action::new("move")
        .with("unit", "r2")
        .with("path", serde_json::json!(["0203"]));
    let refused = e.act(&tank).expect("runs").expect_err("special rule");
    assert_eq!(refused.reasons[0].rule.as_deref(), Some("S1"));
    let inf = Action::new("move")
        .with("unit", "r1")
        .with("path", serde_json::json!(["0303"]));
    assert!(
        e.act(&inf).expect("runs").is_ok(),
        "other units move as before"
    );
}

#[test]
fn query_lua_returns_what_the_rules_derive_and_changes_nothing() {
    let e = engine(1);
    let hash = e.state().hash();
    let chunk = r#"
local args = ...
local u = kessel.units.get(args.unit)
local ut = kessel.game.unit_type(u.type)
local f = kessel.paths.field{ from = u.hex, budget = u.movement, class = ut.class, side = u.side }
return { reachable = f:reachable(), phase = kessel.game.step().id }
"#;
    let out = e
        .query_lua("query.lua", chunk, &serde_json::json!({ "unit": "r1" }))
        .expect("query runs");
    assert_eq!(out["phase"], "red_move");
    let reachable = out["reachable"].as_object().expect("hex -> cost");
    assert_eq!(reachable.get("0303").and_then(|c| c.as_f64()), Some(1.0));
    assert!(reachable.len() > 3, "{reachable:?}");
    assert_eq!(e.state().hash(), hash);

    // the query stage refuses changes, and errors name the chunk and line
    let err = e
        .query_lua(
            "query.lua",
            "\nkessel.emit.eliminate('r1')",
            &serde_json::json!({}),
        )
        .expect_err("emit refused");
    assert!(err.message.contains("query.lua:2"), "{}", err.message);
    assert_eq!(e.state().hash(), hash);
    assert_eq!(
        e.query_lua("nil.lua", "return nil", &serde_json::json!({})),
        Ok(serde_json::Value::Null)
    );
}

#[test]
fn legal_actions_where_runs_only_the_kinds_asked_for() {
    let e = engine(1);
    let all = e.legal_actions(None).expect("enumerate");
    let no_moves = e
        .legal_actions_where(None, |k| k != "move")
        .expect("enumerate");
    assert!(all.iter().any(|a| a.kind == "move"));
    assert!(no_moves.iter().all(|a| a.kind != "move"));
    assert_eq!(
        no_moves,
        all.into_iter()
            .filter(|a| a.kind != "move")
            .collect::<Vec<_>>()
    );
}

#[test]
fn set_option_checks_the_declaration() {
    let mut e = engine(1);
    assert!(e
        .set_option("woods_double", serde_json::json!(false))
        .is_ok());
    assert!(!e.options().on("woods_double"));
    assert!(e.set_option("woods_double", serde_json::json!(3)).is_err());
    assert!(e
        .set_option("no_such_option", serde_json::json!(true))
        .is_err());
    assert_eq!(e.profile_arg(), Some("standard"));
}

#[test]
fn a_movement_field_spec_names_a_misspelt_or_missing_field() {
    let e = engine(1);
    let ask = |chunk: &str| {
        e.query_lua("field.lua", chunk, &serde_json::json!(null))
            .expect_err("the spec is wrong")
            .to_string()
    };
    let typo =
        ask("return kessel.paths.field{ from = '0101', mp = 3, class = 'foot', side = 'red' }");
    assert!(
        typo.contains("kessel.paths.field: unknown field `mp`"),
        "{typo}"
    );
    let missing = ask("return kessel.paths.field{ from = '0101', class = 'foot', side = 'red' }");
    assert!(missing.contains("`budget` is required"), "{missing}");
    let missing = ask("return kessel.paths.field{ budget = 3 }");
    assert!(missing.contains("`from` is required"), "{missing}");
    let ok = e
        .query_lua(
            "field.lua",
            "return kessel.paths.field{ from = '0101', budget = 3, class = 'foot', side = 'red' }:cost('0101')",
            &serde_json::json!(null),
        )
        .expect("a right spec searches");
    assert_eq!(ok.as_f64(), Some(0.0), "the start costs nothing");
}

#[test]
fn an_unknown_action_kind_suggests_the_nearest_one() {
    let mut e = engine(1);
    let out = e.act(&Action::new("attak")).expect("runs");
    let text = out.expect_err("refused").to_string();
    assert!(text.contains("unknown action `attak`"), "{text}");
    assert!(text.contains("did you mean `attack`?"), "{text}");
    assert!(text.contains("this ruleset has: move, attack"), "{text}");
}

#[test]
fn a_misspelt_reason_is_an_error_not_a_legal_action() {
    let dir = kessel_test_support::toy_copy("misspelt-reason");
    let init = dir.join("init.lua");
    let text = std::fs::read_to_string(&init).expect("the toy's init.lua");
    // end_phase refused by a reason whose two keys are both misspelt
    let patch = "\nlocal base = kessel.action_handlers(\"end_phase\")\n\
        kessel.action{ kind = \"end_phase\", apply = base.apply, enumerate = base.enumerate,\n\
        validate = function() return { rul = \"T9\", mesage = \"not now\" } end }\n";
    std::fs::write(&init, format!("{text}{patch}")).expect("write");
    let mut e = Engine::load(&dir.join("scenario.toml"), None, 1, Limits::default())
        .expect("the patched toy loads");
    let err = e
        .act(&Action::new("end_phase"))
        .expect_err("a table that is no reason fails the action");
    assert!(
        err.message.contains("neither `message` nor `rule`"),
        "{}",
        err.message
    );
    assert!(err.message.contains("mesage, rul"), "{}", err.message);
    // an empty table is still legal
    let text = std::fs::read_to_string(&init).expect("read");
    std::fs::write(
        &init,
        text.replace("{ rul = \"T9\", mesage = \"not now\" }", "{}"),
    )
    .expect("write");
    let mut e =
        Engine::load(&dir.join("scenario.toml"), None, 1, Limits::default()).expect("loads");
    assert!(e.act(&Action::new("end_phase")).expect("runs").is_ok());
}

/// What an `ai` hook's `legal` lists is kept until its choice is checked, in the engine's memory:
/// a listing asked for again is kept once (each call was kept whole: 190 MB in one toy decision
/// of a loop), and new listings are held to the memory limit with the hexsets and fields, at the
/// hook's line. The hook calls `legal("flood")` 100 times, each listing one action of 512 KB: 50
/// MB kept whole, over the 16 MB limit given.
#[test]
fn the_ai_hooks_listings_are_kept_once_and_within_the_memory_limit() {
    for (fresh, ok) in [("", true), (" .. N", false)] {
        let dir = kessel_test_support::toy_with_ai_hook(
            "ai-hook-listings",
            &format!(
                r#"
local FLOOD, N, PAD = false, 0, string.rep("x", 512 * 1024)
kessel.action{{ kind = "flood", rule = "X", description = "padding",
  validate = function() return {{ rule = "X", message = "never" }} end,
  apply = function() end,
  enumerate = function()
    if not FLOOD then return {{}} end
    N = N + 1
    return {{ {{ pad = PAD{fresh} }} }}
  end }}
kessel.on("ai", function(legal)
  FLOOD = true
  for _ = 1, 100 do legal("flood") end
  FLOOD = false
  return legal("end_phase")[1]
end)
"#
            ),
        );
        let limits = Limits {
            memory: 16 << 20,
            ..Limits::default()
        };
        let e = Engine::load(&dir.join("scenario.toml"), None, 1, limits).expect("load");
        let pick = e.ai_pick();
        if ok {
            let pick = pick.expect("equal listings kept once").expect("an opinion");
            assert_eq!(pick.kind, "end_phase");
        } else {
            let err = pick.expect_err("new listings over the memory limit");
            assert!(
                err.message.contains("play.lua:")
                    && err.message.contains("memory limit exceeded")
                    && err.message.contains("`legal` listings"),
                "{}",
                err.message
            );
        }
    }
}

/// The answers of filtered reads are kept for the revision, but not one per filter a loop makes
/// up: each was kept until the game changed, across calls, so read-only calls asking 60,000 new
/// filters each pinned tables Lua could not collect, past the 16 MB limit given by the fifth
/// call, and from then on every call of any rule ran out of memory.
#[test]
fn filtered_reads_keep_a_bounded_number_of_answers() {
    let limits = Limits {
        memory: 16 << 20,
        ..Limits::default()
    };
    let e = Engine::load(&fixture("scenario.toml"), None, 1, limits).expect("load");
    // (`units.occupied` takes only a side, and a side the game lacks is refused: it cannot make
    // up new filters)
    for (read, call) in [
        ("units.all", "kessel.units.all{ formation = \"f\" .. i }"),
        ("units.all flag", "kessel.units.all{ flag = \"g\" .. i }"),
        ("markers.all", "kessel.markers.all{ kind = \"k\" .. i }"),
    ] {
        for round in 0..3 {
            let chunk = format!(
                "local n = 0\nfor i = {} * 60000, {} * 60000 - 1 do n = n + #{call} end\nreturn n",
                round,
                round + 1
            );
            let got = e.query_lua("reads", &chunk, &serde_json::json!({}));
            assert_eq!(
                got.map_err(|e| e.message).expect(read),
                serde_json::json!(0),
                "{read}, round {round}"
            );
        }
    }
    // the answers kept are still the engine's
    let red = e
        .query_lua(
            "reads",
            "return #kessel.units.all{ side = \"red\" }",
            &serde_json::json!({}),
        )
        .expect("reads");
    assert!(red.as_i64().is_some_and(|n| n > 0), "{red}");
}

#[test]
fn the_ai_hook_asks_by_kind_and_may_only_choose_what_the_rules_listed() {
    let mut e = engine(1);
    let pick = e
        .ai_pick()
        .expect("hook runs")
        .expect("the toy AI has an opinion");
    let legal = e.legal_actions(None).expect("enumerate");
    assert!(legal.contains(&pick), "{pick:?} not among {legal:?}");
    assert!(e.act(&pick).expect("runs").is_ok());

    // a hook that makes up an action is refused, naming the kind; one that asks for a single
    // kind sees only that kind
    let dir = kessel_test_support::toy_with_ai_hook(
        "ai-hook-made-up",
        r#"
kessel.on("ai", function(legal, kinds)
  assert(kinds[1] ~= nil, "kinds listed")
  for _, a in ipairs(legal("move")) do assert(a.kind == "move", "only moves: " .. a.kind) end
  return { kind = "move", unit = "nobody", path = { "0101" } }
end)
"#,
    );
    let e = Engine::load(&dir.join("scenario.toml"), None, 1, Limits::default()).expect("load");
    let err = e.ai_pick().expect_err("made-up action refused");
    assert!(
        err.message
            .contains("the ai hook defined here chose a `move` action that no `legal` call listed"),
        "{}",
        err.message
    );
    assert!(err.message.contains("play.lua:"), "{}", err.message);

    // a hook that returns something other than an action says where it is and what it gave
    let dir = kessel_test_support::toy_with_ai_hook(
        "ai-hook-wrong-type",
        "kessel.on(\"ai\", function() return 7 end)",
    );
    let e = Engine::load(&dir.join("scenario.toml"), None, 1, Limits::default()).expect("load");
    let err = e.ai_pick().expect_err("a number is no action");
    assert!(
        err.message
            .contains("the ai hook defined here returned the number 7"),
        "{}",
        err.message
    );
    assert_eq!(
        err.file.as_deref().map(|f| f.ends_with("play.lua")),
        Some(true),
        "{err:?}"
    );
    assert!(err.line.is_some(), "{err:?}");
}

#[test]
fn the_ai_hook_is_told_its_level_and_an_undeclared_level_is_refused() {
    let e = engine(1);
    let levels: Vec<String> = e
        .world()
        .ruleset
        .ai_levels
        .iter()
        .map(|l| l.id.clone())
        .collect();
    assert_eq!(levels, ["direct", "timid"], "in declaration order");

    // a hook that shows its level through the action it picks: the first listed move for
    // `direct`, the last for `timid`
    let dir = kessel_test_support::toy_with_ai_hook(
        "ai-level",
        r#"
kessel.on("ai", function(legal, kinds, view, level)
  local moves = legal("move")
  if level == "direct" then return moves[1] end
  if level == "timid" then return moves[#moves] end
  error("no level given: " .. tostring(level))
end)
"#,
    );
    let e = Engine::load(&dir.join("scenario.toml"), None, 1, Limits::default()).expect("load");
    let moves = e
        .legal_actions_where(None, |k| k == "move")
        .expect("enumerate");
    assert!(moves.len() > 1, "the toy lists several moves");
    let default = e.ai_pick().expect("runs").expect("an opinion");
    assert_eq!(
        Some(&default),
        moves.first(),
        "the default is the first declared level"
    );
    let direct = e.ai_pick_at(Some("direct")).expect("runs");
    assert_eq!(direct.as_ref(), moves.first());
    let timid = e
        .computer_choice_at(Some("timid"), &mut kessel_core::dice::Dice::new(1))
        .expect("runs");
    assert_eq!(
        timid.as_ref(),
        moves.last(),
        "the named level reached the hook"
    );
    let err = e.ai_pick_at(Some("timdi")).expect_err("undeclared level");
    assert!(
        err.message.contains("no level `timdi`")
            && err.message.contains("did you mean `timid`")
            && err.message.contains("levels: direct, timid"),
        "{}",
        err.message
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The hook is told whose decision it plays: the phasing side in red's movement, nobody (nil)
/// in a step of no side (the T13 muster), where it had to ask the `deciding_side` query itself.
#[test]
fn the_ai_hook_is_told_whose_decision_it_plays() {
    let dir = kessel_test_support::toy_with_ai_hook(
        "ai-side",
        r#"
kessel.on("ai", function(legal, kinds, view, level, tiebreak, side)
  if side == nil then return legal("end_phase")[1] end
  if side == "red" then return legal("move")[1] end
  error("told the side " .. tostring(side))
end)
"#,
    );
    let mut e = Engine::load(&dir.join("scenario.toml"), None, 1, Limits::default()).expect("load");
    let red = e.ai_pick().expect("runs").expect("an opinion");
    assert_eq!(red.kind, "move", "red's movement: the hook was told red");
    e.act(&Action::new("muster"))
        .expect("rules run")
        .expect("a muster is called [T13]");
    assert_eq!(e.deciding_side(), None, "the muster's steps are no side's");
    let nobody = e.ai_pick().expect("runs").expect("an opinion");
    assert_eq!(
        nobody.kind, "end_phase",
        "a step of no side: the hook was told nil"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn changed_since_names_the_units_an_action_changed_and_nothing_after_an_undo() {
    let mut e = engine(1);
    let revision = |e: &Engine| {
        e.query_lua(
            "rev.lua",
            "return kessel.game.revision()",
            &serde_json::json!({}),
        )
        .expect("query")
        .as_u64()
        .expect("integer")
    };
    let changed = |e: &Engine, since: u64| {
        e.query_lua(
            "changed.lua",
            "local c = kessel.units.changed_since(...)\nif c == nil then return 'replaced' end\nreturn table.concat(c, ',')",
            &serde_json::json!(since),
        )
        .expect("query")
    };
    let before = revision(&e);
    assert_eq!(changed(&e, before), "");
    let step = Action::new("move")
        .with("unit", "r1")
        .with("path", serde_json::json!(["0303"]));
    assert!(e.act(&step).expect("runs").is_ok());
    assert_eq!(changed(&e, before), "r1");
    let after = revision(&e);
    assert!(after > before);
    assert_eq!(changed(&e, after), "");
    assert!(e.undo().expect("the log replays"));
    // the state was rebuilt: nothing can be told unit by unit
    assert_eq!(changed(&e, after), "replaced");
}

#[test]
fn clearing_a_flag_from_every_unit_changes_only_the_units_that_had_it() {
    let mut e = engine(1);
    let ask = |e: &Engine, code: &str, arg: serde_json::Value| {
        e.query_lua("ask.lua", code, &arg).expect("query")
    };
    let step = Action::new("move")
        .with("unit", "r1")
        .with("path", serde_json::json!(["0303"]));
    assert!(e.act(&step).expect("runs").is_ok());
    let before = ask(&e, "return kessel.game.revision()", serde_json::json!({}));
    let moved = ask(
        &e,
        "return kessel.units.get('r1').flags.moved == true",
        serde_json::json!({}),
    );
    assert_eq!(moved, serde_json::json!(true), "r1 moved");
    // ending the phase clears `moved` and `attacked` from every unit: only r1 had one
    assert!(e.act(&Action::new("end_phase")).expect("runs").is_ok());
    let changed = ask(
        &e,
        "return table.concat(kessel.units.changed_since(...), ',')",
        before,
    );
    assert_eq!(changed, serde_json::json!("r1"));
    let cleared = ask(
        &e,
        "return kessel.units.get('r1').flags.moved == nil",
        serde_json::json!({}),
    );
    assert_eq!(
        cleared,
        serde_json::json!(true),
        "the snapshot shows it cleared"
    );
}

#[test]
fn scripts_can_ask_which_profile_is_in_force() {
    let e = engine(1);
    let name = e
        .query_lua("p", "return kessel.game.profile()", &serde_json::json!({}))
        .expect("runs");
    assert_eq!(name, serde_json::json!("standard"));
    let bare = Engine::bare(&fixture(""), Limits::default()).expect("bare");
    let none = bare
        .query_lua("p", "return kessel.game.profile()", &serde_json::json!({}))
        .expect("runs");
    assert_eq!(none, serde_json::Value::Null, "defaults: no profile");
}

#[test]
fn the_computer_chooses_a_listed_action_and_leaves_the_game_dice_alone() {
    let e = engine(1);
    let drawn = e.world().dice.drawn();
    let mut mine = kessel_core::dice::Dice::new(99);
    let a = e
        .computer_choice(&mut mine)
        .expect("runs")
        .expect("the toy lists actions");
    assert!(e.validate(&a).expect("runs").is_ok(), "{a:?} validates");
    assert_eq!(
        e.world().dice.drawn(),
        drawn,
        "the game's dice did not move"
    );
    let again = e
        .computer_choice(&mut kessel_core::dice::Dice::new(99))
        .expect("runs");
    assert_eq!(again.as_ref(), Some(&a), "same dice, same choice");
}

#[test]
fn declared_queries_answer_rust_with_plain_data() {
    let e = engine(1);
    let ids: Vec<String> = e
        .queries()
        .expect("list")
        .into_iter()
        .map(|q| q.id)
        .collect();
    assert_eq!(ids, ["moves", "odds"]);
    let moves = e
        .query("moves", &serde_json::json!({ "units": ["r1"] }))
        .expect("moves answers");
    assert_eq!(moves["movers"], serde_json::json!(["r1"]));
    let reachable = moves["reachable"].as_array().expect("a list of hexes");
    assert!(!reachable.is_empty());
    assert!(reachable.iter().all(|r| r["cost"].as_f64().is_some()));
    // asking changes nothing, and a typo is refused with the near name
    let before = e.state().hash();
    let err = e
        .query("moves", &serde_json::json!({ "unit": "r1" }))
        .expect_err("unknown parameter");
    assert!(
        err.message.contains("did you mean `units`"),
        "{}",
        err.message
    );
    assert_eq!(e.state().hash(), before);
    assert_eq!(e.log().len(), 0);
}

#[test]
fn setup_runs_the_step_start_hooks_only_when_asked() {
    let scenario = toy_with_script(
        "stepstart",
        "started.lua",
        r#"kessel.on("step_start", function() kessel.emit.var("started", kessel.game.step().id) end)
"#,
    );
    let mut e = Engine::load(&scenario, None, 1, Limits::default()).expect("load");
    e.run_script_text(
        "setup-hooks.lua",
        r#"
kessel.setup{ step = "blue_move" }
assert(kessel.game.var("started") == nil, "no hooks by default")
kessel.setup{ step = "blue_move", run_step_start = true }
assert(kessel.game.var("started") == "blue_move", "the hooks of the step set")
assert(#kessel.events() == 0, "their events are part of the position, not of the log")
assert(kessel.replay_hash() == kessel.state_hash(), "replay starts from that position")
"#,
    )
    .expect("script passes");
}

/// An inline map without `default` is of the ruleset's own terrain: "clear" was assumed, so a
/// ruleset of plains and hills had every test's `kessel.setup` refused for an undeclared
/// terrain `clear` until it named a default. A ruleset that declares "clear" keeps it, wherever
/// it declares it.
#[test]
fn setup_maps_default_to_a_terrain_the_ruleset_declares() {
    let run = |name: &str, terrains: &str, expected: &str| {
        let dir = kessel_test_support::scratch(name);
        std::fs::write(
            dir.join("init.lua"),
            format!(
                "kessel.ruleset{{ name = \"plains\", sides = {{ \"a\", \"b\" }} }}\n{terrains}\n\
                 kessel.sequence{{ {{ id = \"s\" }} }}\n"
            ),
        )
        .expect("write init.lua");
        let mut e = Engine::bare(&dir, Limits::default()).expect("the ruleset loads");
        e.run_script_text(
            "default-terrain.lua",
            &format!(
                "kessel.setup{{ map = {{ columns = 2, rows = 2 }} }}\n\
                 assert(kessel.map.terrain(\"0101\") == \"{expected}\", kessel.map.terrain(\"0101\"))"
            ),
        )
        .unwrap_or_else(|err| panic!("{name}: {}", err.message));
    };
    run(
        "setup-default-plain",
        "kessel.terrain{ id = \"plain\" }\nkessel.terrain{ id = \"hill\" }",
        "plain",
    );
    run(
        "setup-default-clear",
        "kessel.terrain{ id = \"hill\" }\nkessel.terrain{ id = \"clear\" }",
        "clear",
    );
}

/// `defaults` names the option defaults as a profile: `kessel simulate` prints a game without a
/// profile as played under `defaults`, and `--against-profile defaults` was refused as an
/// unknown profile, so comparing a profile with the defaults needed a copy of them as a file.
#[test]
fn the_option_defaults_are_a_profile_named_defaults() {
    let scenario = fixture("scenario.toml");
    let open = Engine::load(&scenario, Some("open"), 1, Limits::default()).expect("open");
    assert_eq!(
        open.options().get("stack_limit"),
        Some(&serde_json::json!(3))
    );
    let e = Engine::load(&scenario, Some("defaults"), 1, Limits::default())
        .expect("the defaults load as a profile");
    let o = e.options();
    assert_eq!(o.profile, "defaults");
    assert_eq!(o.get("stack_limit"), Some(&serde_json::json!(2)));
    assert_eq!(o.get("woods_double"), Some(&serde_json::json!(true)));
    let Err(err) = Engine::load(&scenario, Some("defualts"), 1, Limits::default()) else {
        panic!("a misspelt name is still refused");
    };
    assert!(err.to_string().contains("unknown profile"), "{err}");
}

/// A set-up whose `step_start` hooks fail gives back the game it was replacing: units, step,
/// variables, options, log and dice as they were (a test's `pcall(kessel.setup, …)` went on in a
/// position half set, the new units under the old game's log), and an unknown option changes
/// nothing either.
#[test]
fn a_setup_whose_step_start_fails_leaves_the_game_as_it_was() {
    let scenario = toy_with_script(
        "stepstart-fails",
        "fails.lua",
        r#"kessel.on("step_start", function()
  kessel.emit.var("started", true)
  if kessel.game.var("fail") then error("the hook refuses") end
end)
"#,
    );
    let mut e = Engine::load(&scenario, None, 1, Limits::default()).expect("load");
    e.run_script_text(
        "setup-fails.lua",
        r#"
local ids = function()
  local t = {}
  for _, u in ipairs(kessel.units.all()) do t[#t + 1] = u.id end
  table.sort(t)
  return table.concat(t, ",")
end
local before = { units = ids(), step = kessel.game.step().id, hash = kessel.state_hash(),
  events = #kessel.events(), roll = nil }
local ok, err = pcall(kessel.setup, { step = "blue_move", run_step_start = true,
  vars = { fail = true }, units = { { id = "lone", side = "red", type = "inf", at = "0101" } } })
assert(not ok and tostring(err):find("the hook refuses"), tostring(err))
assert(ids() == before.units, "units as before: " .. ids())
assert(kessel.game.step().id == before.step, "step as before: " .. kessel.game.step().id)
assert(kessel.game.var("fail") == nil and kessel.game.var("started") == nil, "vars as before")
assert(kessel.state_hash() == before.hash, "the same position")
assert(#kessel.events() == before.events, "the same log")
local ok2, err2 = pcall(kessel.setup, { step = "blue_move", options = { no_such_option = true },
  units = { { id = "lone", side = "red", type = "inf", at = "0101" } } })
assert(not ok2 and tostring(err2):find("unknown option"), tostring(err2))
assert(kessel.state_hash() == before.hash, "an unknown option changes nothing")
kessel.setup{ step = "blue_move", run_step_start = true }
assert(kessel.game.var("started") == true, "a set-up whose hooks pass goes on as before")
"#,
    )
    .expect("script passes");
}

/// A copy of the toy scenario and map in a fresh folder, with `edit` applied to the map text and
/// `edit_sc` to the scenario text.
fn broken_copy(
    name: &str,
    edit: impl Fn(String) -> String,
    edit_sc: impl Fn(String) -> String,
) -> PathBuf {
    let dir = kessel_test_support::scratch(&format!("lenient-{name}"));
    let map = std::fs::read_to_string(fixture("map.toml")).expect("map");
    std::fs::write(dir.join("map.toml"), edit(map)).expect("write map");
    let sc = std::fs::read_to_string(fixture("scenario.toml")).expect("scenario");
    // the copy's ruleset is the fixture's folder
    let sc = sc.replace(
        "ruleset = \".\"",
        &format!("ruleset = {:?}", fixture("").display().to_string()),
    );
    std::fs::write(dir.join("scenario.toml"), edit_sc(sc)).expect("write scenario");
    dir.join("scenario.toml")
}

#[test]
fn a_broken_scenario_loads_leniently_with_every_problem_and_is_refused_strictly() {
    use kessel_core::scenario::Scenario;
    let path = broken_copy(
        "two-errors",
        // row 02 one hex short
        |m| m.replace("\".ww..w.\"", "\".ww..w\""),
        // r1 off the map
        |s| s.replacen("at = \"0203\"", "at = \"0909\"", 1),
    );
    let text = std::fs::read_to_string(&path).expect("read");
    let strict = Scenario::parse(&path, &text).expect_err("strict load refuses");
    let (sc, problems) = Scenario::parse_lenient(&path, &text).expect("lenient load");
    assert_eq!(strict.0, problems, "both paths find the same problems");
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].file.ends_with("map.toml"),
        "map first: {problems:?}"
    );
    assert!(
        problems[0].message.contains("row 2 has 6 hexes"),
        "{problems:?}"
    );
    assert_eq!(problems[0].line, Some(13));
    assert!(problems[1].message.contains("off the map"), "{problems:?}");
    assert_eq!(problems[1].line, Some(14));
    // the best-effort scenario: the full map (the short row's last hex at the default terrain),
    // every unit, the off-map one not placed
    assert_eq!((sc.map.columns(), sc.map.rows()), (7, 5));
    let last_of_row_2 = sc.map.parse("0702").expect("hex");
    assert_eq!(sc.map.terrain_name(last_of_row_2), Some("clear"));
    assert_eq!(sc.units.len(), 4);
    let r1 = sc
        .units
        .iter()
        .find(|u| u.unit.hex().is_none() && u.unit.entry.is_none());
    assert!(r1.is_some(), "the off-map unit is kept, unplaced");
    // a TOML syntax error leaves nothing to show: refused either way
    let broken = text.replacen("[scenario]", "[scenario", 1);
    assert!(Scenario::parse_lenient(&path, &broken).is_err());
}

#[test]
fn the_deciding_side_is_the_phasing_side_step_by_step() {
    let mut e = engine(1);
    let mut seen = Vec::new();
    for _ in 0..4 {
        seen.push(e.deciding_side());
        let outcome = e.act(&Action::new("end_phase")).expect("rules run");
        assert!(outcome.is_ok(), "{outcome:?}");
    }
    let want = ["red", "red", "blue", "blue"].map(|s| Some(s.to_string()));
    assert_eq!(seen, want);
}

#[test]
fn an_undeclared_terrain_counts_only_while_a_hex_has_it() {
    let e = engine(1);
    let mut map = (*e.state().map).clone();
    let h = map.parse("0404").expect("hex");
    map.set_terrain(h, "jungle").expect("painted");
    let found = e.ruleset().check_map(&map);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("`jungle`"), "{found:?}");
    // painted away, the name the map still knows is no problem
    map.set_terrain(h, "clear").expect("painted");
    assert!(e.ruleset().check_map(&map).is_empty());
}

/// A scenario writes a squad's faces as strings (`"4-4-7"`); the squad type's `face_fields`
/// reads them as named values when the ruleset is known. A string that is not A-D-M on a type
/// without face_fields is refused at the unit's line.
#[test]
fn scenario_string_faces_are_read_with_the_types_face_fields() {
    let dir = kessel_test_support::toy_copy("string-faces");
    let path = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&path).expect("read");
    let squad = text.replacen(
        "id = \"r1\"\nside = \"red\"\ntype = \"inf\"\nfaces = [\"3-3-4\"]",
        "id = \"r1\"\nside = \"red\"\ntype = \"squad\"\nfaces = [\"4-4-7\", \"2-4-7*\"]",
        1,
    );
    assert_ne!(squad, text, "the fixture has r1 as written here");
    std::fs::write(&path, &squad).expect("write");
    let e = Engine::load(&path, None, 1, Limits::default()).expect("loads");
    {
        let st = e.state();
        let r1 = st.unit("r1").expect("r1");
        assert!(r1.faces.is_empty(), "not A-D-M");
        assert_eq!(r1.named.len(), 2);
        assert_eq!(r1.named[0]["firepower"], serde_json::json!(4));
        assert_eq!(r1.named[0]["morale"], serde_json::json!(7));
        assert_eq!(
            r1.named[1]["morale"],
            serde_json::json!("7*"),
            "a part that is no number stays text"
        );
    }
    // a leader's two-part face on a type that declares no face_fields
    let leader = text.replacen("faces = [\"3-3-4\"]", "faces = [\"9-1\"]", 1);
    std::fs::write(&path, &leader).expect("write");
    let err = Engine::load(&path, None, 1, Limits::default()).expect_err("not A-D-M");
    // said at the face's own line, not the unit's table
    let line = leader
        .lines()
        .position(|l| l == "faces = [\"9-1\"]")
        .expect("the face")
        + 1;
    let located = err.located();
    assert!(
        located.iter().any(|l| l.line == Some(line)
            && l.message.contains("`9-1` is not a face (A-D-M)")
            && l.message.contains("face_fields")),
        "{located:?}"
    );
    // a squad face with the wrong number of parts
    let short = squad.replacen("\"2-4-7*\"", "\"2-4\"", 1);
    std::fs::write(&path, &short).expect("write");
    let err = Engine::load(&path, None, 1, Limits::default()).expect_err("wrong parts");
    assert!(
        err.to_string()
            .contains("`2-4` is not a face of unit type `squad` (firepower-range-morale)"),
        "{err}"
    );
    // a list of faces over several lines: the one that does not read is said at its own
    let spread = squad.replacen(
        "faces = [\"4-4-7\", \"2-4-7*\"]",
        "faces = [\n  \"4-4-7\",\n  \"2-4\",\n]",
        1,
    );
    assert_ne!(spread, squad);
    std::fs::write(&path, &spread).expect("write");
    let err = Engine::load(&path, None, 1, Limits::default()).expect_err("wrong parts");
    let line = spread
        .lines()
        .position(|l| l == "  \"2-4\",")
        .expect("the face")
        + 1;
    assert!(
        err.located()
            .iter()
            .any(|l| l.line == Some(line) && l.message.contains("`2-4` is not a face")),
        "{:?}",
        err.located()
    );
}

/// A scenario may start a unit reduced, with flags and variables, and place markers with values
/// on hexes and hexsides; bad values are refused at their line.
#[test]
fn scenario_units_and_markers_start_with_their_state() {
    let dir = kessel_test_support::toy_copy("scenario-state");
    let path = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&path).expect("read");
    let with = text.replacen(
        "faces = [\"4-2-6\", \"2-1-6\"]\nat = \"0103\"",
        "faces = [\"4-2-6\", \"2-1-6\"]\nat = \"0103\"\nstep = 1\nflags = [\"disrupted\"]\nvars = { wounded = true, history = [{ was = \"inf\" }] }",
        1,
    ) + "\n[[markers]]\nkind = \"mines\"\nside = \"red\"\nat = \"0203\"\nother = \"0303\"\nvalue = { ap = 6 }\n";
    assert_ne!(with, text);
    std::fs::write(&path, &with).expect("write");
    let e = Engine::load(&path, None, 1, Limits::default()).expect("loads");
    {
        let st = e.state();
        let r2 = st.unit("r2").expect("r2");
        assert_eq!(r2.step, 1);
        assert!(r2.flags.contains("disrupted"));
        assert_eq!(r2.vars["wounded"], serde_json::json!(true));
        assert_eq!(r2.vars["history"][0]["was"], serde_json::json!("inf"));
        let m = st
            .markers
            .iter()
            .find(|m| m.kind == "mines")
            .expect("mines");
        assert!(m.hex.is_some() && m.other.is_some());
        assert_eq!(m.value, Some(serde_json::json!({ "ap": 6 })));
    }
    // a step past the last face, a marker off the map or on no hexside of `at`
    for (bad, says) in [
        ("step = 1", "step = 2"),
        ("at = \"0203\"\nother", "at = \"9999\"\nother"),
        ("other = \"0303\"", "other = \"0603\""),
    ] {
        let broken = with.replacen(bad, says, 1);
        std::fs::write(&path, &broken).expect("write");
        let err = Engine::load(&path, None, 1, Limits::default()).expect_err(says);
        let line = broken
            .lines()
            .position(|l| says.lines().next() == Some(l))
            .expect("the line")
            + 1;
        assert!(
            err.located().iter().any(|l| l.line == Some(line)),
            "{says}: {:?}",
            err.located()
        );
    }
}

/// A `step_start` hook that switches the sequence again each time it runs is stopped with a
/// message (not a C stack overflow), and the action that began it is rolled back.
#[test]
fn a_step_hook_that_never_stops_switching_is_stopped_and_rolled_back() {
    let dir = kessel_test_support::toy_copy("step-hook-loop");
    let muster = dir.join("rules/muster.lua");
    let mut text = std::fs::read_to_string(&muster).expect("read");
    text.push_str(
        "\nkessel.on(\"step_start\", function()\n  if kessel.game.step().mode == \"muster\" then kessel.emit.mode(\"muster\") end\nend)\n",
    );
    std::fs::write(&muster, text).expect("write");
    let mut e =
        Engine::load(&dir.join("scenario.toml"), None, 1, Limits::default()).expect("loads");
    let before = e.state().hash();
    let err = e.act(&Action::new("muster")).expect_err("the hook loops");
    assert!(
        err.message.contains("step_start hooks nested deeper than"),
        "{}",
        err.message
    );
    assert_eq!(e.state().hash(), before, "rolled back");
    assert_eq!(e.state().mode, None);
}

/// A game copied out of an engine goes on, on another thread, from the same position: the
/// engine built there decides as the original does, and takes later copies in place.
#[test]
fn a_copied_game_plays_on_in_an_engine_on_another_thread() {
    let mut e = engine(3);
    play(&mut e, 6);
    let copy = e.copy_game();
    let here = e.ai_pick().expect("runs");
    let (worker, answers) = {
        let (jobs, inbox) = std::sync::mpsc::channel::<kessel_core::engine::GameCopy>();
        let (outbox, answers) = std::sync::mpsc::channel();
        let worker = std::thread::spawn(move || {
            let mut there: Option<Engine> = None;
            for copy in inbox {
                let engine = match there.as_mut() {
                    Some(engine) => {
                        engine.take_game(&copy);
                        engine
                    }
                    None => {
                        there.insert(Engine::from_copy(&copy, Default::default()).expect("builds"))
                    }
                };
                let pick = engine.ai_pick().expect("runs");
                outbox
                    .send((pick, engine.state().hash(), engine.log().len()))
                    .expect("send");
            }
        });
        jobs.send(copy).expect("send");
        let first = answers.recv().expect("an answer");
        assert_eq!(first, (here.clone(), e.state().hash(), e.log().len()));
        // later: the original moved on; the worker's engine takes the new position in place
        let action = here.expect("the toy AI has an opinion");
        assert!(e.act(&action).expect("runs").is_ok());
        play(&mut e, 3);
        jobs.send(e.copy_game()).expect("send");
        (worker, answers)
    };
    let second = answers.recv().expect("a second answer");
    assert_eq!(
        second,
        (e.ai_pick().expect("runs"), e.state().hash(), e.log().len())
    );
    worker.join().expect("the worker ends when the jobs do");
}

/// Another thread stops an endless rule call through the engine's stopper, long before the
/// instruction budget would; the stopper stays set until reset, and then calls run again.
#[test]
fn a_stopper_stops_a_runaway_call_from_another_thread() {
    let dir = kessel_test_support::toy_with_ai_hook(
        "ai-stopper",
        "kessel.on(\"ai\", function() local n = 0 while true do n = n + 1 end end)",
    );
    let (tx, rx) = std::sync::mpsc::channel();
    let scenario = dir.join("scenario.toml");
    let worker = std::thread::spawn(move || {
        // a budget no test would wait for: only the stopper can end the call
        let limits = Limits {
            instructions: u64::MAX / 2,
            ..Limits::default()
        };
        let e = Engine::load(&scenario, None, 1, limits).expect("load");
        let stopper = e.stopper();
        tx.send(stopper.clone()).expect("send");
        let started = std::time::Instant::now();
        let err = e.ai_pick().expect_err("stopped");
        let took = started.elapsed();
        let still = e
            .legal_actions(None)
            .expect_err("still stopped until reset");
        stopper.reset();
        let after = e.legal_actions(None).expect("runs again after a reset");
        (err.message, still.message, after.len(), took)
    });
    let stopper = rx.recv().expect("the worker's stopper");
    std::thread::sleep(std::time::Duration::from_millis(200));
    stopper.stop();
    let (message, still, listed, took) = worker.join().expect("the worker ends");
    assert!(
        message.contains("stopped on request") && message.contains("play.lua:"),
        "{message}"
    );
    assert!(still.contains("stopped on request"), "{still}");
    assert!(listed > 0);
    assert!(
        took < std::time::Duration::from_secs(60),
        "stopped, not run to the budget"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `tiebreak` an `ai` hook is given is seeded: the same variation breaks a tie the same way,
/// other variations may break it otherwise, and none of it moves the game's dice.
#[test]
fn the_ai_breaks_ties_with_its_own_seeded_draw() {
    let mut e = engine(5);
    let drawn = e.world().dice.drawn();
    let first = e.ai_pick().expect("runs").expect("an opinion");
    assert_eq!(
        e.ai_pick().expect("runs").as_ref(),
        Some(&first),
        "the same variation, the same pick"
    );
    let mut picks = std::collections::BTreeSet::new();
    for v in 0..12 {
        e.set_ai_variation(v);
        let a = e.ai_pick().expect("runs").expect("an opinion");
        picks.insert(serde_json::to_string(&a).expect("json"));
    }
    assert!(
        picks.len() > 1,
        "the toy's first decision has tied moves: other variations pick others"
    );
    assert_eq!(
        e.world().dice.drawn(),
        drawn,
        "the game's dice did not move"
    );
}

#[test]
fn an_ended_game_lists_nothing_and_refuses_every_action() {
    // the toy with one more action whose validator accepts it at any time
    let dir = kessel_test_support::toy_copy("ended-game");
    let init = dir.join("init.lua");
    let mut text = std::fs::read_to_string(&init).expect("toy init");
    text.push_str(
        "\nkessel.action{ kind = \"wave\", rule = \"T0\", description = \"wave a flag\",\n  \
         validate = function() end, apply = function() end,\n  \
         enumerate = function() return { { kind = \"wave\" } } end }\n",
    );
    std::fs::write(&init, text).expect("write init");
    let mut e = Engine::load(&dir.join("scenario.toml"), None, 5, Limits::default())
        .expect("toy scenario loads");
    play(&mut e, 500);
    assert!(e.state().finished, "the toy game ends within 500 actions");
    let hash = e.state().hash();
    let log = e.log().len();
    // no enumerator runs after the end: not even the one that always lists `wave`
    assert!(e.legal_actions(None).expect("enumerate").is_empty());
    for side in ["red", "blue"] {
        assert!(e.legal_actions(Some(side)).expect("enumerate").is_empty());
    }
    // the rules' own refusal keeps its case; what they would accept, the engine refuses
    let end = Action::new("end_phase");
    let refused = e.act(&end).expect("rules run").expect_err("refused");
    assert_eq!(refused.reasons[0].rule.as_deref(), Some("T1"), "{refused}");
    let wave = Action::new("wave");
    let refused = e.act(&wave).expect("rules run").expect_err("refused");
    assert!(
        refused.reasons[0].message.contains("the game is over"),
        "{refused}"
    );
    assert!(e.validate(&wave).expect("rules run").is_err());
    assert_eq!((e.state().hash(), e.log().len()), (hash, log));
}

/// The emits the toy's own rules never make, on the toy: a unit out of the game for good
/// (`remove`), one taken back off the map (`withdraw`), a unit variable cleared from every unit
/// (`clear_unit_var`) and a hexside kind added to the map in play (`hexside`). Each lands in the
/// state, replays without the rules and is undone whole.
#[test]
fn remove_withdraw_clear_unit_var_and_hexside_change_the_state_replay_and_undo() {
    use kessel_core::hex::Hexside;
    use kessel_core::state::Location;
    let scenario = toy_with_script(
        "emits-rest",
        "reshape.lua",
        r#"kessel.action{
  kind = "reshape", rule = "X3", description = "removes, withdraws, clears, bridges",
  validate = function(a) return nil end,
  apply = function(a)
    kessel.emit.unit_var("r1", "spent", 2)
    kessel.emit.unit_var("b2", "spent", 1)
    kessel.emit.clear_unit_var("spent")
    kessel.emit.remove("b1")
    kessel.emit.withdraw("r2")
    kessel.emit.hexside("0203", "0303", "river", true)
  end,
}
"#,
    );
    let mut e = Engine::load(&scenario, None, 1, Limits::default()).expect("load");
    let before = e.state().clone();
    let river = |e: &Engine| {
        let s = e.state();
        let (a, b) = (
            s.map.parse("0203").expect("hex"),
            s.map.parse("0303").expect("hex"),
        );
        s.map
            .side_has(Hexside::between(a, b).expect("adjacent"), "river")
    };
    assert!(!river(&e), "no river there at the start");
    let events = e
        .act(&Action::new("reshape"))
        .expect("runs")
        .expect("accepted");
    let kinds: Vec<&str> = events.iter().map(|ev| ev.kind()).collect();
    assert!(kinds.contains(&"unit_vars_cleared"), "{kinds:?}");
    assert!(kinds.contains(&"hexside_set"), "{kinds:?}");
    {
        let s = e.state();
        assert_eq!(s.unit("b1").expect("b1").location, Location::Removed);
        assert_eq!(s.unit("r2").expect("r2").location, Location::Pending);
        for id in ["r1", "b2"] {
            let u = s.unit(id).expect("unit");
            assert!(!u.vars.contains_key("spent"), "{id} keeps no `spent`");
        }
    }
    assert!(river(&e), "the river is on the map");
    assert_eq!(e.replay_hash().expect("replays"), e.state().hash());
    assert!(e.undo().expect("undo"), "one action to undo");
    assert_eq!(*e.state(), before, "undo puts everything back");
    assert!(!river(&e), "and takes the river off");
}

/// A `step_end` hook that ends the game (a sudden death judged at the end of a phase) ends it
/// there: the sequencer does not move the clock on past it.
#[test]
fn a_step_end_hook_that_ends_the_game_stops_the_sequencer() {
    let scenario = toy_with_script(
        "sudden-death",
        "sudden.lua",
        r#"kessel.on("step_end", function(index)
  if kessel.game.step().id == "red_combat" then
    kessel.emit.clock(kessel.game.turn(), index, true)
  end
end)
"#,
    );
    let mut e = Engine::load(&scenario, None, 1, Limits::default()).expect("load");
    for _ in 0..2 {
        let outcome = e.act(&Action::new("end_phase")).expect("runs");
        assert!(outcome.is_ok(), "{outcome:?}");
    }
    let s = e.state();
    assert!(s.finished, "the hook ended the game");
    assert_eq!((s.turn, s.phase), (1, 1), "the clock stays at red_combat");
}

/// `kessel.scenario.var_names` lists every key the scenario's `[vars]` sets, declared or not,
/// sorted, so a `check` hook can refuse a record keyed by a name the ruleset lacks; a `check` hook
/// using it refuses at the variable's line.
#[test]
fn scenario_var_names_lists_every_key_the_scenario_sets() {
    let dir = kessel_test_support::scratch("var-names");
    copy_dir(&fixture(""), &dir);
    let scenario = dir.join("scenario.toml");
    let base = std::fs::read_to_string(&scenario).expect("read");
    let with_vars = format!("{base}\n[vars]\nzeta_blue = 1\nbonus = 3\nsupply_green = true\n");
    std::fs::write(&scenario, &with_vars).expect("write");
    let mut e = Engine::load(&scenario, None, 1, Limits::default()).expect("load");
    e.run_script_text(
        "names.lua",
        "local n = kessel.scenario.var_names()\n\
         assert(table.concat(n, ',') == 'bonus,supply_green,zeta_blue', table.concat(n, ','))\n",
    )
    .expect("the keys, sorted");
    // a check hook keyed by side names refuses the one the game lacks, at its line
    let init = dir.join("init.lua");
    let text = std::fs::read_to_string(&init).expect("read");
    let hook = "kessel.on(\"check\", function()\n\
        local sides, out = {}, {}\n\
        for _, s in ipairs(kessel.game.sides()) do sides[s] = true end\n\
        for _, k in ipairs(kessel.scenario.var_names()) do\n\
          local side = k:match('^supply_(.+)$')\n\
          if side and not sides[side] then out[#out + 1] = { var = k, message = 'no side ' .. side } end\n\
        end\n\
        return out\n\
      end)\n";
    std::fs::write(&init, format!("{text}\n{hook}")).expect("write");
    let Err(err) = Engine::load(&scenario, None, 1, Limits::default()) else {
        panic!("a record of a side the game lacks is refused")
    };
    let said = err.to_string();
    let line = 1
        + (with_vars.lines())
            .position(|l| l.starts_with("supply_green"))
            .expect("the line");
    assert!(
        said.contains("no side green") && said.contains(&format!("scenario.toml:{line}")),
        "{said}"
    );
}

/// A `result` hook after the first (a scenario's script, a variant) adds `metrics` to the first's
/// answer; it may give nothing else, and no measure the first gives already.
#[test]
fn a_later_result_hook_adds_its_metrics_to_the_first() {
    let load = |name: &str, lua: &str| {
        let scenario = toy_with_script(name, "measure.lua", lua);
        Engine::load(&scenario, None, 1, Limits::default()).expect("loads")
    };
    let e = load(
        "result-metrics",
        r#"kessel.on("result", function() return { metrics = { house_rule_fired = 3 } } end)
kessel.on("result", function() return nil end)"#,
    );
    let r = e.result().expect("answers").expect("a result");
    assert_eq!(
        r["metrics"]["house_rule_fired"],
        serde_json::json!(3),
        "{r}"
    );
    assert!(r["level"].is_string(), "the first hook's level stays: {r}");
    let e = load(
        "result-level",
        r#"kessel.on("result", function() return { level = "Red win" } end)"#,
    );
    let err = e.result().expect_err("refused").message;
    assert!(
        err.contains("measure.lua:1") && err.contains("may only add `metrics`"),
        "{err}"
    );
    let e = load(
        "result-twice",
        r#"kessel.on("result", function() return { metrics = { a = 1 } } end)
kessel.on("result", function() return { metrics = { a = 2 } } end)"#,
    );
    let err = e.result().expect_err("refused").message;
    assert!(
        err.contains("measure.lua:2") && err.contains("\"a\""),
        "{err}"
    );
    // measures that are no table are refused, not passed over
    let e = load(
        "result-metrics-number",
        r#"kessel.on("result", function() return { metrics = 5 } end)"#,
    );
    let err = e.result().expect_err("refused").message;
    assert!(
        err.contains("measure.lua:1") && err.contains("`metrics` = 5; it is a table"),
        "{err}"
    );
}

/// A query's parameter is given as `name=value` and listed as `[name=<type>]` when optional: a
/// name with `=`, a bracket or a space is refused where it is declared.
#[test]
fn a_query_parameter_name_that_could_never_be_given_is_refused() {
    for name in ["b=c", "[a]", "two words"] {
        let lua = format!(
            "kessel.queries.declare{{ id = \"q\", rule = \"T1\", description = \"d\", params = {{ [\"{name}\"] = \"int\" }}, fn = function() return {{}} end }}\n"
        );
        let scenario = toy_with_script("query-param-name", "q.lua", &lua);
        let err = match Engine::load(&scenario, None, 1, Limits::default()) {
            Ok(_) => panic!("{name}: refused"),
            Err(e) => e.to_string(),
        };
        assert!(
            err.contains("q.lua:1") && err.contains(&format!("the parameter name `{name}`")),
            "{name}: {err}"
        );
    }
}

/// A variant of the toy's CRT whose every cell reads `cell`, for the options `when` names.
fn crt_variant(when: &str, cell: &str) -> String {
    let row = format!("{{ \"{cell}\", \"{cell}\", \"{cell}\", \"{cell}\" }}");
    format!(
        "kessel.results_table{{ id = \"crt\", kind = \"ratio\", columns = {{ \"1-2\", \"1-1\", \"2-1\", \"3-1\" }},\n  rows = {{ {row}, {row}, {row}, {row}, {row}, {row} }}, when = {when} }}\n"
    )
}

/// Options set together (`--option` flags, a save's overrides) are judged as a whole once all
/// are set: a list that passes through two variants in force on its way to the setting a
/// variant is declared for is accepted, and a setting with no variant for both is refused
/// naming them; `kessel.setup` judges its options the same way.
#[test]
fn options_set_together_are_judged_as_a_whole_for_table_variants() {
    let lua = format!(
        "{}{}{}",
        crt_variant("{ deep_rivers = true }", "AE"),
        crt_variant("{ stack_limit = 3 }", "AR"),
        crt_variant("{ deep_rivers = true, stack_limit = 3 }", "DE")
    );
    let scenario = toy_with_script("variants-together", "variants.lua", &lua);
    let both = [
        ("deep_rivers".to_string(), serde_json::json!(true)),
        ("stack_limit".to_string(), serde_json::json!(3)),
    ];
    let mut e = Engine::load_with_options(&scenario, None, &both, 1, Limits::default())
        .expect("the pair has its own variant");
    e.run_script_text(
        "probe",
        "assert(kessel.tables.result(\"crt\", 1, 1) == \"DE\", kessel.tables.result(\"crt\", 1, 1))",
    )
    .expect("the pair's variant is in force");
    // without the pair's variant, the same flags are refused naming both
    let lua = format!(
        "{}{}",
        crt_variant("{ deep_rivers = true }", "AE"),
        crt_variant("{ stack_limit = 3 }", "AR")
    );
    let scenario = toy_with_script("variants-clash", "variants.lua", &lua);
    let err = match Engine::load_with_options(&scenario, None, &both, 1, Limits::default()) {
        Ok(_) => panic!("two variants of crt in force are refused"),
        Err(e) => e.to_string(),
    };
    assert!(
        err.contains("results table `crt`")
            && err.contains("variants.lua:1")
            && err.contains("variants.lua:3"),
        "{err}"
    );
    let mut e = Engine::load(&scenario, None, 1, Limits::default()).expect("loads");
    let set = e.run_script_text(
        "setup",
        "kessel.setup{ map = { columns = 3, rows = 3 }, options = { deep_rivers = true, stack_limit = 3 } }",
    );
    let err = set.expect_err("kessel.setup judges its options").message;
    assert!(
        err.contains("kessel.setup: options: results table `crt`"),
        "{err}"
    );
    // a flip that makes the clash is refused and changes nothing
    e.set_option("deep_rivers", serde_json::json!(true))
        .expect("one variant alone");
    let flip = e.set_option("stack_limit", serde_json::json!(3));
    assert!(flip.is_err(), "{flip:?}");
    assert_eq!(e.options().values["stack_limit"], serde_json::json!(2));
}

/// A setting whose variant is declared for three options, and for no two of them, cannot be
/// reached by single flips (the second is always refused); set together it is accepted, and a
/// refused set leaves every option as it was.
#[test]
fn three_options_set_at_once_reach_the_variant_declared_for_all_three() {
    let lua = format!(
        "{}{}{}{}",
        crt_variant("{ deep_rivers = true }", "AE"),
        crt_variant("{ stack_limit = 3 }", "AR"),
        crt_variant("{ woods_double = false }", "EX"),
        crt_variant(
            "{ deep_rivers = true, stack_limit = 3, woods_double = false }",
            "DE"
        )
    );
    let scenario = toy_with_script("variants-three", "variants.lua", &lua);
    let mut e = Engine::load(&scenario, None, 1, Limits::default()).expect("loads");
    e.set_option("deep_rivers", serde_json::json!(true))
        .expect("one variant alone");
    let second = e.set_option("stack_limit", serde_json::json!(3));
    assert!(second.is_err(), "{second:?}");
    let third = e.set_option("woods_double", serde_json::json!(false));
    assert!(third.is_err(), "{third:?}");
    // two of the three together are still a clash: refused whole, the first kept as it was
    let two = [
        ("stack_limit".to_string(), serde_json::json!(3)),
        ("deep_rivers".to_string(), serde_json::json!(false)),
        ("woods_double".to_string(), serde_json::json!(false)),
    ];
    let err = e
        .set_options(&two)
        .expect_err("two variants without theirs");
    assert!(err.contains("results table `crt`"), "{err}");
    assert_eq!(e.options().values["deep_rivers"], serde_json::json!(true));
    assert_eq!(e.options().values["stack_limit"], serde_json::json!(2));
    // a value the declaration refuses: nothing set either
    let bad = [
        ("stack_limit".to_string(), serde_json::json!(3)),
        ("woods_double".to_string(), serde_json::json!(7)),
    ];
    let err = e.set_options(&bad).expect_err("not a bool");
    assert!(err.contains("woods_double"), "{err}");
    assert_eq!(e.options().values["stack_limit"], serde_json::json!(2));
    let rest = [
        ("stack_limit".to_string(), serde_json::json!(3)),
        ("woods_double".to_string(), serde_json::json!(false)),
    ];
    e.set_options(&rest).expect("all three: their variant");
    e.run_script_text(
        "probe",
        "assert(kessel.tables.result(\"crt\", 1, 1) == \"DE\", kessel.tables.result(\"crt\", 1, 1))",
    )
    .expect("the variant for all three is in force");
}

/// Two variants of one table for the same setting: the later would always win, so the second is
/// refused at its line.
#[test]
fn a_second_variant_of_a_table_for_the_same_options_is_refused_at_its_line() {
    let lua = format!(
        "{}{}",
        crt_variant("{ deep_rivers = true }", "AE"),
        crt_variant("{ deep_rivers = true }", "DE")
    );
    let scenario = toy_with_script("variants-twice", "variants.lua", &lua);
    let err = match Engine::load(&scenario, None, 1, Limits::default()) {
        Ok(_) => panic!("refused"),
        Err(e) => e.to_string(),
    };
    assert!(
        err.contains("variants.lua:3")
            && err.contains("a variant for `when = { deep_rivers = true }` is declared already (")
            && err.contains("variants.lua:1)"),
        "{err}"
    );
}

/// A save of a scenario that extends another (in a folder of its own) loads, replays to the
/// same bytes, and, when the base changes, is said to have been played with other files: the
/// base is part of the scenario's content hash.
#[test]
fn a_save_of_an_extending_scenario_round_trips_and_a_changed_base_is_seen() {
    let dir = kessel_test_support::toy_copy("extends-save");
    std::fs::create_dir_all(dir.join("variant")).expect("mkdir");
    let variant = dir.join("variant/v.toml");
    std::fs::write(
        &variant,
        "[scenario]\nextends = \"../scenario.toml\"\nname = \"Toy, varied\"\n",
    )
    .expect("write");
    let mut e = Engine::load(&variant, None, 3, Limits::default()).expect("the variant loads");
    let base_only = Engine::load(&dir.join("scenario.toml"), None, 3, Limits::default())
        .expect("the base loads");
    assert_ne!(
        e.content_hash(),
        base_only.content_hash(),
        "the variant's own file is hashed"
    );
    play(&mut e, 6);
    let saved = e.save().expect("save");
    let path = dir.join("variant/game.json");
    std::fs::write(&path, &saved).expect("write");
    let loaded = Engine::load_save(&path, Limits::default()).expect("the save loads");
    assert_eq!(loaded.save().expect("save again"), saved);
    assert_eq!(loaded.save_changed_note(), None);
    assert_eq!(
        loaded.scenario().map(|s| s.name.clone()),
        Some("Toy, varied".into())
    );
    // the base changed (a note edited: the game still replays): the hash differs
    let before = e.content_hash();
    let base = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&base).expect("read");
    std::fs::write(&base, text.replacen("notes = \"", "notes = \"Edited. ", 1)).expect("write");
    let again = Engine::load(&variant, None, 3, Limits::default()).expect("loads");
    assert_ne!(
        again.content_hash(),
        before,
        "a changed base is a changed scenario"
    );
    let changed = Engine::load_save(&path, Limits::default()).expect("still replays");
    assert!(changed.save_changed_note().is_some());
}

/// The checks made when a game starts (a unit type the ruleset lacks, a side) say a base's unit
/// at the base's line, and an extending file's unit at its own.
#[test]
fn start_checks_say_each_unit_in_the_file_it_is_written_in() {
    let dir = kessel_test_support::toy_copy("extends-checks");
    let base = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&base).expect("read");
    let bad = text.replacen("type = \"tank\"", "type = \"tanc\"", 1);
    assert_ne!(bad, text);
    std::fs::write(&base, &bad).expect("write");
    let tank_line = bad.lines().position(|l| l == "id = \"r2\"").expect("r2") as usize;
    std::fs::create_dir_all(dir.join("variant")).expect("mkdir");
    let variant = dir.join("variant/v.toml");
    std::fs::write(
        &variant,
        "[scenario]\nextends = \"../scenario.toml\"\n\n[[units]]\nid = \"x\"\nside = \"grey\"\ntype = \"inf\"\nfaces = [\"1-1-4\"]\nat = \"0203\"\n",
    )
    .expect("write");
    let Err(kessel_core::engine::EngineError::Load(errors)) =
        Engine::load(&variant, None, 1, Limits::default())
    else {
        panic!("the checks refuse it");
    };
    // (the base is named as the variant names it, `variant/../scenario.toml`)
    let same = |a: &Path, b: &Path| a.canonicalize().ok() == b.canonicalize().ok();
    let said = |file: &Path, line: usize, needle: &str| {
        errors
            .0
            .iter()
            .any(|e| same(&e.file, file) && e.line == Some(line) && e.message.contains(needle))
    };
    // (a unit is said at its `[[units]]` line, the one before its id)
    assert!(
        said(&base, tank_line, "unknown unit type `tanc`"),
        "{errors}"
    );
    assert!(said(&variant, 4, "unknown side `grey`"), "{errors}");
}

/// A `check` hook's problems are bounded in number as in text: ones with no text (a hundred
/// thousand `{note = true}`) came through whole, and `kessel check` printed each and passed.
#[test]
fn a_check_hook_returning_a_hundred_thousand_notes_is_refused() {
    let scenario = toy_with_script(
        "check-many-notes",
        "many.lua",
        "kessel.on(\"check\", function()\n  local out = {}\n  for i = 1, 100000 do out[i] = { note = true } end\n  return out\nend)\n",
    );
    let err = match Engine::load(&scenario, None, 1, Limits::default()) {
        Ok(e) => panic!("loaded with {} notes", e.check_notes().len()),
        Err(e) => e.to_string(),
    };
    assert!(
        err.contains("many.lua:") && err.contains("problems, the limit"),
        "{err}"
    );
}
