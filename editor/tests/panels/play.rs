//! Play-test mode on the toy ruleset: select a stack and see where it can go, hover for why
//! not, move, declare an attack and roll it, undo, save and load.

use super::toy::{click_hex, harness, hex, hover_hex, toy_copy, unit_hex};
use egui_kittest::kittest::Queryable;
use kessel_editor::panels::Mode;
use kessel_editor::play::Interaction;

#[test]
fn selecting_a_stack_shades_its_reachable_hexes_and_a_click_moves_it() {
    let dir = toy_copy("play-move");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    assert_eq!(h.state().palette.mode, Mode::Play);
    h.get_by_label("Turn 1 of 3 · Red movement (red) [T1]");

    // the tank: 6 MP, half an MP a hex along the road, +2 across the river (T3)
    click_hex(&mut h, "0103");
    let (costs, by_rules) = {
        let app = h.state();
        let s = app.session.as_ref().expect("the game started");
        assert_eq!(s.picked, vec!["r2".to_string()]);
        let reach = s
            .reach
            .as_ref()
            .expect("reach worked out")
            .as_ref()
            .expect("no error");
        (reach.costs.clone(), reach.by_rules)
    };
    // the toy has no movement module: moves come from its enumerator, costs from its chart
    assert!(!by_rules);
    assert_eq!(costs.get(&hex(&h, "0303")), Some(&Some(1.0)));
    assert_eq!(costs.get(&hex(&h, "0503")), Some(&Some(4.0)));
    assert!(!costs.contains_key(&hex(&h, "0603")), "enemy hex");
    h.get_by_label(&format!(
        "{} hexes reachable (from the rules' list of moves; costs from the terrain chart)",
        costs.len()
    ));
    // the map draws the same set
    let overlay = h.state().session.as_ref().expect("game").overlay(None);
    assert_eq!(overlay.reachable, costs);

    // the enemy's hex lies behind its zone of control: the rules say why not, with their case
    hover_hex(&mut h, "0603");
    let why = h.state().status.hover_note.clone().expect("an explanation");
    assert_eq!(
        why,
        "cannot reach 0603: entered an enemy zone of control at 0503 [T2]"
    );
    hover_hex(&mut h, "0303");
    assert_eq!(
        h.state().status.hover_note.as_deref(),
        Some("0303: 1 MP — click to move")
    );

    click_hex(&mut h, "0503");
    assert_eq!(unit_hex(&h, "r2").as_deref(), Some("0503"));
    h.get_by_label("Event log (1 action)");
    h.get_by_label("1. move · path 0503 · unit r2");
    // the selection followed the stack; having moved, it can't move again
    let app = h.state();
    let s = app.session.as_ref().expect("game");
    assert_eq!(s.selected, Some(hex(&h, "0503")));
}

/// The ruleset's `reach` query gives the movement field; a hex of it that the move's own rules
/// refuse (here a full hex under a stacking limit of one, [T6]) is not shaded: the shading is
/// what a click there would do.
#[test]
fn the_reach_query_shades_only_hexes_the_move_rules_accept() {
    let dir = toy_copy("play-reach-rules");
    let play = dir.join("rules/play.lua");
    let text = std::fs::read_to_string(&play).expect("read");
    // the toy's `moves` query has the shape of the editor's `reach`: declare it under that id
    let text = text.replacen("id = \"moves\"", "id = \"reach\"", 1);
    std::fs::write(&play, text).expect("write");
    std::fs::write(
        dir.join("profiles/standard.toml"),
        "[profile]\ndescription = \"one unit a hex\"\n\n[options]\nstack_limit = 1\n",
    )
    .expect("profile");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    click_hex(&mut h, "0103");
    let (costs, by_rules) = {
        let app = h.state();
        let s = app.session.as_ref().expect("the game started");
        let reach = s.reach.as_ref().expect("reach").as_ref().expect("no error");
        (reach.costs.clone(), reach.by_rules)
    };
    assert!(by_rules, "the rules' reach query answered");
    // the field reaches r1's hex next door, the stacking rule refuses it
    assert!(!costs.contains_key(&hex(&h, "0203")), "{costs:?}");
    assert_eq!(costs.get(&hex(&h, "0303")), Some(&Some(1.0)));
    let overlay = h.state().session.as_ref().expect("game").overlay(None);
    assert_eq!(overlay.reachable, costs);
    hover_hex(&mut h, "0203");
    assert_eq!(
        h.state().status.hover_note.as_deref(),
        Some("hex 0203 is full [T6]")
    );
}

/// A stack whose units pay differently for a hex (a tank and a rifle by their own movement
/// types): the `reach` answer's `costs` say what each pays, and the hover says it, not only the
/// most of them (which the map's shading shows).
#[test]
fn the_hover_says_what_each_units_group_pays_when_they_pay_differently() {
    let dir = toy_copy("play-reach-split");
    let play = dir.join("rules/play.lua");
    let text = std::fs::read_to_string(&play).expect("read");
    let split = text
        .replacen("id = \"moves\"", "id = \"reach\"", 1)
        .replacen(
            "reachable[#reachable + 1] = { hex = h, cost = field:cost(h) }",
            "reachable[#reachable + 1] = { hex = h, cost = field:cost(h) + 1.5, costs = {\n\
           { units = { movers[1] }, cost = field:cost(h) + 1.5 },\n\
           { units = { \"escort\", \"guns\" }, cost = field:cost(h) } } }",
            1,
        );
    assert_ne!(split, text, "the toy's query is where the test expects it");
    std::fs::write(&play, split).expect("write");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    click_hex(&mut h, "0103");
    let costs = {
        let app = h.state();
        let s = app.session.as_ref().expect("the game started");
        let reach = s.reach.as_ref().expect("reach").as_ref().expect("no error");
        reach.costs.clone()
    };
    assert_eq!(
        costs.get(&hex(&h, "0303")),
        Some(&Some(2.5)),
        "the most of them"
    );
    hover_hex(&mut h, "0303");
    assert_eq!(
        h.state().status.hover_note.as_deref(),
        Some("0303: r2 2.5 MP; escort, guns 1 MP — click to move")
    );
    super::picture(&mut h, "play-hover-split");
}

#[test]
fn an_attack_shows_its_odds_and_rolls_then_undo_and_save_round_trip() {
    let dir = toy_copy("play-attack");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    click_hex(&mut h, "0103");
    click_hex(&mut h, "0503");
    assert_eq!(unit_hex(&h, "r2").as_deref(), Some("0503"));

    // a refused move names its rule: r2 (still selected) has moved already
    click_hex(&mut h, "0403");
    let refusal = h.state().session.as_ref().expect("game").refusal.clone();
    let refusal = refusal.expect("refused");
    assert!(
        refusal
            .reasons
            .iter()
            .any(|r| r.rule.as_deref() == Some("T1")),
        "{refusal:?}"
    );
    h.get_by_label("Refused: move · path 0403 · units r2");

    h.get_by_label("End phase").click();
    h.run();
    h.get_by_label("Turn 1 of 3 · Red combat (red) [T1]");
    assert_eq!(
        h.state().session.as_ref().expect("game").interaction,
        Interaction::Attack
    );
    click_hex(&mut h, "0503");
    click_hex(&mut h, "0603");
    {
        let app = h.state();
        let s = app.session.as_ref().expect("game");
        let odds = s.odds.as_ref().expect("odds").as_ref().expect("no error");
        assert_eq!((odds.attack, odds.defence), (4, 3));
        assert_eq!(odds.label, "1-1");
        let total: f64 = odds.distribution.iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-9, "{:?}", odds.distribution);
    }
    h.get_by_label("Attack 4 vs defence 3: odds 1-1 on crt");
    let before = h.state().session.as_ref().expect("game").engine.log().len();
    h.get_by_label("Roll").click();
    h.run();
    {
        let app = h.state();
        let s = app.session.as_ref().expect("game");
        let log = s.engine.log();
        assert_eq!(log.len(), before + 1);
        assert_eq!(log[before].action.kind, "attack");
    }
    // the roll's note, with its rule, is in the event log
    h.get_by_label_contains("4 vs 3 at 1-1, roll");

    // save, undo twice, load: the game comes back
    let save = dir.join("game.save.json");
    h.state_mut().session.as_mut().expect("game").save_path = save.display().to_string();
    h.run();
    h.get_by_label("Save game").click();
    h.run();
    assert!(save.is_file());
    let hash = h
        .state()
        .session
        .as_ref()
        .expect("game")
        .engine
        .state()
        .hash();
    h.get_by_label("Undo action").click();
    h.run();
    h.get_by_label("Undo action").click();
    h.run();
    assert_eq!(unit_hex(&h, "r2").as_deref(), Some("0503"));
    h.get_by_label("Load game").click();
    h.run();
    let app = h.state();
    let s = app.session.as_ref().expect("game");
    assert_eq!(s.engine.state().hash(), hash);
    assert_eq!(s.engine.log().len(), before + 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The play panel's "what the rules say" asks every query about one unit. On PGG (here, not in
/// editor/src: the editor's sources name no game) that is command_radius, mp_left and supply.
#[test]
fn one_unit_queries_answer_about_the_picked_unit() {
    use kessel_core::engine::Engine;
    use kessel_core::script::Limits;
    use kessel_editor::play::queries::unit_answers;
    use serde_json::json;
    let root = kessel_test_support::workspace_root();
    let mut e = Engine::bare(&root.join("scripts/pgg"), Limits::default()).expect("pgg loads");
    e.run_script_text(
        "position.lua",
        r#"kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_movement", turn = 5,
  units = { { id = "g", side = "german", type = "panzer", faces = { "6-6-10" }, at = "0303" } } }"#,
    )
    .expect("set up");
    let answers = unit_answers(&e, "g").expect("asked");
    let ids: Vec<&str> = answers.iter().map(|a| a.id.as_str()).collect();
    // command_radius takes a leader, which is a unit too: it is asked, and says "not a leader"
    assert_eq!(ids, ["command_radius", "mp_left", "supply"]);
    let radius = answers[0].answer.as_ref().expect("command_radius answers");
    assert_eq!(
        radius["is_leader"],
        json!(false),
        "a panzer has no command radius"
    );
    let supply = answers[2].answer.as_ref().expect("supply answers");
    assert_eq!(supply["in_supply"], json!(true));
    assert_eq!(supply["rule"], json!("11.1"));
    // the toy declares no query about one unit: nothing to show
    let toy = Engine::load(
        &root.join("core/tests/fixtures/toy/scenario.toml"),
        None,
        1,
        Limits::default(),
    )
    .expect("toy loads");
    assert!(unit_answers(&toy, "r1").expect("asked").is_empty());
}

#[test]
fn reinforcements_due_are_drawn_on_their_entry_area_with_the_number_waiting() {
    let dir = toy_copy("play-entries");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    let entries = |h: &egui_kittest::Harness<'_, kessel_editor::EditorApp>| {
        let s = h.state().session.as_ref().expect("a game");
        s.overlay(None).entries
    };
    // b2 enters at W (0101..0105) on turn 2: nothing due on turn 1
    assert!(entries(&h).is_empty());
    for _ in 0..4 {
        h.get_by_label("End phase").click();
        h.run();
    }
    assert_eq!(
        h.state().session.as_ref().map(|s| s.engine.state().turn),
        Some(2)
    );
    let due = entries(&h);
    let west: Vec<_> = ["0101", "0102", "0103", "0104", "0105"]
        .iter()
        .map(|l| hex(&h, l))
        .collect();
    assert_eq!(due.keys().copied().collect::<Vec<_>>(), west);
    assert_eq!(due.values().sum::<usize>(), 1, "one unit waits: {due:?}");
    assert_eq!(
        due.get(&hex(&h, "0103")),
        Some(&1),
        "the badge on the middle hex"
    );
}

/// A special rule with a choice that is not a move: the tank may jump to 0505 in red's movement.
const JUMP: &str = r#"kessel.action{
  kind = "jump", rule = "S9", description = "the tank jumps to 0505",
  validate = function(a) end,
  apply = function(a) kessel.emit.note("S9", "the tank jumps") end,
  enumerate = function(side)
    if kessel.game.step().id ~= "red_move" then return {} end
    return { { kind = "jump", units = { "r2" }, hex = "0505" } }
  end,
}
"#;

#[test]
fn a_choice_of_the_selected_stack_is_drawn_where_it_ends_and_a_click_there_takes_it() {
    let dir = toy_copy("play-choice");
    std::fs::write(dir.join("jump.lua"), JUMP).expect("write");
    let path = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&path).expect("read");
    let text = text.replacen("turns = 3", "turns = 3\nscripts = [\"jump.lua\"]", 1);
    std::fs::write(&path, text).expect("write");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    assert!(h.state().session.is_some(), "{:?}", h.state().session_error);
    click_hex(&mut h, "0103");
    let choices = {
        let s = h.state().session.as_ref().expect("a game");
        s.overlay(None).choices
    };
    assert_eq!(
        choices.keys().copied().collect::<Vec<_>>(),
        vec![hex(&h, "0505")]
    );
    click_hex(&mut h, "0505");
    let s = h.state().session.as_ref().expect("a game");
    let last = s.engine.log().last().map(|e| e.action.kind.clone());
    assert_eq!(last.as_deref(), Some("jump"));
}

/// Blue, seated as the computer, takes `action` (accepted), and the session catches up.
fn blue_computer_acts(
    h: &mut egui_kittest::Harness<'_, kessel_editor::EditorApp>,
    action: kessel_core::Action,
) {
    let s = h.state_mut().session.as_mut().expect("a game");
    s.seats
        .set("blue", kessel_editor::play::computer::Player::Computer);
    let outcome = s.engine.act_as("blue", &action).expect("rules run");
    assert!(outcome.is_ok(), "{outcome:?}");
    s.refresh();
}

/// Where the rules keep secrets (the toy's T14 concealment), the side at the screen sees only its
/// own: a unit the other side concealed is not drawn while red plays blue's computer; with
/// nobody at the screen the whole game is drawn again.
#[test]
fn the_side_at_the_screen_does_not_see_what_is_hidden_from_it() {
    use kessel_editor::play::computer::Player;
    let dir = toy_copy("play-view");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    let drawn = |h: &egui_kittest::Harness<'_, kessel_editor::EditorApp>, id: &str| {
        let s = h.state().session.as_ref().expect("a game");
        s.units.all().iter().any(|u| u.id == id)
    };
    assert!(drawn(&h, "b1"), "b1 is drawn before it hides");
    blue_computer_acts(
        &mut h,
        kessel_core::Action::new("conceal").with("unit", "b1"),
    );
    // what red sees is worked out on the rules' thread
    h.run();
    assert!(
        h.state()
            .session
            .as_ref()
            .expect("a game")
            .engine
            .state()
            .unit("b1")
            .is_some(),
        "the engine keeps the truth"
    );
    assert!(!drawn(&h, "b1"), "red, at the screen, does not see b1");
    {
        let app = h.state_mut();
        let s = app.session.as_mut().expect("a game");
        s.seats.set("red", Player::Computer);
        s.refresh();
    }
    h.run();
    assert!(
        drawn(&h, "b1"),
        "with nobody at the screen the whole game is drawn"
    );
}

/// A marker hidden from a side (the toy's T16 mine) is not drawn for that side at the screen; its
/// owner at the screen sees it.
#[test]
fn the_side_at_the_screen_does_not_see_a_marker_hidden_from_it() {
    use kessel_editor::play::computer::Player;
    let dir = toy_copy("play-mine");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    let mines = |h: &egui_kittest::Harness<'_, kessel_editor::EditorApp>| {
        let s = h.state().session.as_ref().expect("a game");
        s.markers.iter().filter(|m| m.kind == "mine").count()
    };
    blue_computer_acts(
        &mut h,
        kessel_core::Action::new("lay_mine")
            .with("hex", "0303")
            .with("strength", 2),
    );
    h.run();
    assert_eq!(
        h.state()
            .session
            .as_ref()
            .expect("a game")
            .engine
            .state()
            .markers
            .iter()
            .filter(|m| m.kind == "mine")
            .count(),
        1,
        "the engine keeps the truth"
    );
    assert_eq!(mines(&h), 0, "red, at the screen, is not shown blue's mine");
    {
        let app = h.state_mut();
        let s = app.session.as_mut().expect("a game");
        s.seats.set("blue", Player::Human);
        s.seats.set("red", Player::Computer);
        s.refresh();
    }
    h.run();
    assert_eq!(mines(&h), 1, "blue, at the screen, sees its own mine");
}

/// A side the computer plays can be given one of the ruleset's AI levels (the toy declares
/// `direct`, the default, and `timid`); the level plays that side's moves and a save keeps it.
#[test]
fn the_computer_plays_a_side_at_the_level_picked_and_a_save_keeps_it() {
    use kessel_editor::play::computer::Player;
    use kessel_editor::play::PlayCommand;
    let dir = toy_copy("ai-level");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    {
        let s = h.state_mut().session.as_mut().expect("a game");
        s.seats.set("blue", Player::Computer);
        s.seats.set("red", Player::Computer);
        s.seats.pace = kessel_editor::play::computer::Pace::Paused;
    }
    h.run();
    // the level list shows only for the computer's sides; picking one sets it
    assert!(
        h.query_by_label("blue computer level timid").is_none(),
        "closed list"
    );
    assert!(
        h.query_by_label("blue played by Computer").is_some(),
        "the players section shows"
    );
    h.get_by_label("blue computer level").click();
    h.run();
    h.get_by_label("blue computer level timid").click();
    h.run();
    let level = |h: &egui_kittest::Harness<'_, kessel_editor::EditorApp>, side: &str| {
        let s = h.state().session.as_ref().expect("a game");
        s.seats.level(side).map(str::to_string)
    };
    assert_eq!(level(&h, "blue").as_deref(), Some("timid"));
    assert_eq!(level(&h, "red"), None, "red keeps the default");

    let file = dir.join("game.json");
    h.state_mut()
        .apply_play(vec![PlayCommand::SaveGame(file.clone())]);
    h.run();
    let text = std::fs::read_to_string(&file).expect("saved");
    assert!(text.contains("\"blue\": \"computer:timid\""), "{text}");
    assert!(text.contains("\"red\": \"computer\""), "{text}");
    {
        let s = h.state_mut().session.as_mut().expect("a game");
        s.seats.set_level("blue", None);
    }
    h.state_mut().apply_play(vec![PlayCommand::LoadGame(file)]);
    h.run();
    assert_eq!(
        level(&h, "blue").as_deref(),
        Some("timid"),
        "the save's level"
    );
}

/// A toy copy whose AI never returns.
fn looping_ai(name: &str) -> std::path::PathBuf {
    kessel_test_support::toy_with_ai_hook(
        name,
        "kessel.on(\"ai\", function() local n = 0 while true do n = n + 1 end end)",
    )
}

/// The toy with a looping AI, in play-test, red played by the computer at the fast pace.
fn red_computer_looping(name: &str) -> egui_kittest::Harness<'static, kessel_editor::EditorApp> {
    use kessel_editor::play::computer::{Pace, Player};
    let dir = looping_ai(name);
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    let s = h.state_mut().session.as_mut().expect("a game");
    s.seats.set("red", Player::Computer);
    s.seats.pace = Pace::Fast;
    h
}

/// The computer thinks on a thread of its own: while its AI loops, the window keeps drawing,
/// says the computer is thinking, and *Stop* cuts the decision short; the game is unchanged and
/// the computer waits, paused.
#[test]
fn a_runaway_computer_decision_leaves_the_window_drawing_and_stop_ends_it() {
    use kessel_editor::play::computer::Pace;
    use std::time::{Duration, Instant};
    let mut h = red_computer_looping("ai-runaway-stop");
    let thinking = |h: &egui_kittest::Harness<'_, kessel_editor::EditorApp>| {
        h.state()
            .session
            .as_ref()
            .expect("a game")
            .computer_thinking()
    };
    // frames go on while the computer thinks: the AI loops until Stop, so every frame that comes
    // back with the computer still thinking did not wait for it (the status bar says so once
    // the decision has taken a moment)
    let start = Instant::now();
    while !thinking(&h) {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the computer never started"
        );
        h.step();
    }
    while h
        .query_by_label_contains("The computer is thinking")
        .is_none()
    {
        assert!(start.elapsed() < Duration::from_secs(30), "never said");
        h.step();
        assert!(thinking(&h), "a frame waited for the looping AI");
    }
    h.get_by_label("Stop the computer").click();
    h.step();
    let start = Instant::now();
    while thinking(&h) {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "Stop did not end the decision"
        );
        h.step();
    }
    h.step();
    let s = h.state().session.as_ref().expect("a game");
    assert_eq!(s.engine.log().len(), 0, "nothing was played");
    assert_eq!(s.seats.pace, Pace::Paused, "the computer waits");
    assert_eq!(s.seats.stopped, None, "stopped by the person, not failed");
}

/// Left alone, a looping AI is stopped by the instruction budget on its thread, and the editor
/// says where it looped; the window kept drawing meanwhile.
#[test]
fn a_runaway_computer_decision_ends_at_the_budget_with_the_file_and_line() {
    use std::time::{Duration, Instant};
    let mut h = red_computer_looping("ai-runaway-budget");
    // frames that came back while the computer still thought (a frame that waited for the loop
    // would come back only with the budget's answer)
    let thinking = |h: &egui_kittest::Harness<'_, kessel_editor::EditorApp>| {
        h.state()
            .session
            .as_ref()
            .expect("a game")
            .computer_thinking()
    };
    let start = Instant::now();
    let mut busy_frames = 0;
    loop {
        let stopped = h
            .state()
            .session
            .as_ref()
            .expect("a game")
            .seats
            .stopped
            .clone();
        if let Some(why) = stopped {
            assert!(
                super::toy::ended_by_a_limit(&why) && why.contains("play.lua:"),
                "{why}"
            );
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "no answer");
        let before = thinking(&h);
        h.step();
        if before && thinking(&h) {
            busy_frames += 1;
        }
    }
    assert!(
        busy_frames > 3,
        "{busy_frames} frames while the computer thought"
    );
    h.step();
    assert!(
        h.query_all_by_label_contains("instruction budget")
            .chain(h.query_all_by_label_contains("time limit exceeded"))
            .next()
            .is_some(),
        "said on screen"
    );
    // the players box no longer says the computer is playing
    assert!(h.query_by_label("Computer (red) is playing…").is_none());
    h.get_by_label("Computer (red) stopped (Step lets it try again)");
}

/// The toy with its `moves` query declared as the editor's `reach`, so the rules list which
/// units may not move and why; `message` replaces the reason a unit of the other side gets.
fn toy_with_reach(name: &str, message: Option<&str>) -> std::path::PathBuf {
    let dir = toy_copy(name);
    let play = dir.join("rules/play.lua");
    let mut text = std::fs::read_to_string(&play).expect("read");
    text = text.replacen("id = \"moves\"", "id = \"reach\"", 1);
    if let Some(m) = message {
        let old = "refused[#refused + 1] = { unit = id, rule = \"T1\", message = \"only the phasing side moves, in its movement phase\" }";
        assert!(text.contains(old), "the toy's query as this test knows it");
        text = text.replacen(
            old,
            &format!("refused[#refused + 1] = {{ unit = id, rule = \"T1\", message = {m} }}"),
            1,
        );
    }
    std::fs::write(&play, text).expect("write");
    dir
}

/// An enemy stack selected: the panel says once why each unit can't move. The pointer's
/// explanation of any hex is that same reason, so the panel does not repeat it under the list
/// (the status bar still shows it, for the hex under the pointer).
#[test]
fn an_enemy_stacks_refusal_is_shown_once() {
    let dir = toy_with_reach("play-enemy-once", None);
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    click_hex(&mut h, "0603");
    hover_hex(&mut h, "0504");
    let reason = "only the phasing side moves, in its movement phase [T1]";
    {
        let app = h.state();
        let s = app.session.as_ref().expect("the game");
        assert_eq!(
            s.picked,
            vec!["b1".to_string()],
            "the enemy stack is picked"
        );
        assert_eq!(
            s.hovered_text(),
            Some(format!("0504: {reason}").as_str()),
            "the pointer's explanation is the refusal"
        );
    }
    let refusal = format!("b1 can't move: {reason}");
    assert_eq!(
        h.query_all_by_label(&refusal).count(),
        1,
        "the refusal, once"
    );
    // the hex's explanation shows where the pointer's always does (the status bar, the
    // tooltip), not again in the panel
    let enemy = h.query_all_by_label(&format!("0504: {reason}")).count();
    assert!(enemy >= 1, "the status bar explains the hex");
    // a stack the phasing side may move: the panel explains the hovered hex as well
    click_hex(&mut h, "0103");
    hover_hex(&mut h, "0603");
    let why = "cannot reach 0603: entered an enemy zone of control at 0503 [T2]";
    assert_eq!(
        h.query_all_by_label(why).count(),
        enemy + 1,
        "the same places, and the panel"
    );
}

/// Units of a stack refused for the same reason share one line naming them all, not one line
/// each saying the same.
#[test]
fn units_refused_for_one_reason_share_its_line() {
    let dir = toy_with_reach("play-enemy-shared", None);
    let scenario = dir.join("scenario.toml");
    let mut text = std::fs::read_to_string(&scenario).expect("read");
    text.push_str(
        "\n[[units]]\nid = \"b3\"\nside = \"blue\"\ntype = \"inf\"\nfaces = [\"2-3-4\"]\nat = \"0603\"\n",
    );
    std::fs::write(&scenario, text).expect("write");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    click_hex(&mut h, "0603");
    let reason = "only the phasing side moves, in its movement phase [T1]";
    assert_eq!(
        h.query_all_by_label(&format!("b1, b3 can't move: {reason}"))
            .count(),
        1,
        "one line for both"
    );
    for one in ["b1", "b3"] {
        assert!(
            h.query_by_label(&format!("{one} can't move: {reason}"))
                .is_none(),
            "no line of {one}'s own"
        );
    }
}

/// A reason that names the unit already is not led by the unit's name again.
#[test]
fn a_refusal_naming_its_unit_is_not_prefixed_with_the_name() {
    let dir = toy_with_reach(
        "play-enemy-named",
        Some("id .. \" belongs to the side not moving\""),
    );
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    click_hex(&mut h, "0603");
    h.get_by_label("Can't move: b1 belongs to the side not moving [T1]");
    assert!(h.query_by_label_contains("b1 can't move").is_none());
}

/// Once the game has ended, play-test says how it ended (the rules' result: level and scores)
/// and that it is over where it said what to click, on the left and in the panel (it went on
/// saying "Click a stack to see where it can go", and showed no result).
#[test]
fn a_finished_game_says_it_is_over_instead_of_what_to_click() {
    use kessel_core::action::Action;
    use kessel_editor::play::PlayCommand;
    let dir = super::toy::toy_copy("play-over");
    let mut h = super::toy::harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    let over = |h: &egui_kittest::Harness<'_, kessel_editor::EditorApp>| {
        h.state()
            .session
            .as_ref()
            .expect("game")
            .engine
            .state()
            .finished
    };
    for _ in 0..40 {
        if over(&h) {
            break;
        }
        h.state_mut()
            .apply_play(vec![PlayCommand::Act(Action::new("end_phase"))]);
        h.run();
    }
    assert!(over(&h));
    super::reload::wait_for(&mut h, "the result", |app| {
        app.session.as_ref().is_some_and(|s| s.outcome.is_some())
    });
    super::picture(&mut h, "play-over");
    // red never took Toytown: the toy's result hook says Blue win, red 0
    h.get_by_label("Result: Blue win · red 0");
    assert_eq!(
        h.query_all_by_label(kessel_editor::play::OVER_HELP).count(),
        2,
        "said on the left and in the panel"
    );
    assert!(h
        .query_by_label_contains("Click a stack to see where it can go")
        .is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A save loaded from elsewhere names itself in the file field, so *Save game* writes back to it
/// (as a loaded campaign save does); the field kept the scenario's default beside the scenario,
/// which wrote into the scenario's folder (the checkout's fixtures, a bundled copy).
#[test]
fn a_loaded_save_names_itself_in_the_file_field() {
    use kessel_editor::play::PlayCommand;
    let dir = toy_copy("play-load-path");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    let elsewhere = dir.with_extension("saves");
    std::fs::create_dir_all(&elsewhere).expect("mkdir");
    let save = elsewhere.join("mine.save.json");
    h.state_mut()
        .apply_play(vec![PlayCommand::SaveGame(save.clone())]);
    h.run();
    assert!(save.is_file());
    h.get_by_label("New game").click();
    h.run();
    let before = h.state().session.as_ref().expect("game").save_path.clone();
    assert_ne!(before, save.display().to_string());
    h.state_mut()
        .apply_play(vec![PlayCommand::LoadGame(save.clone())]);
    super::reload::wait_for(&mut h, "the load", |app| {
        app.session
            .as_ref()
            .is_some_and(|s| s.save_path == save.display().to_string())
    });
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&elsewhere);
}

/// In Kessel's own copy of a scenario (bundled, or an opened package) *Save game* is offered in
/// the user's folder, not beside the scenario, where a new version or the package cache would
/// take the save away.
#[test]
fn a_game_of_kessels_own_scenario_is_saved_in_the_users_folder() {
    let dir = toy_copy("play-save-theirs");
    let user = dir.with_extension("user");
    let mut h = harness(&dir);
    let root = dir.canonicalize().expect("exists");
    h.state_mut().set_not_yours(Some((root, user.clone())));
    h.get_by_label("Play-test").click();
    h.run();
    let path = h.state().session.as_ref().expect("game").save_path.clone();
    assert_eq!(path, user.join("scenario.save.json").display().to_string());
    // the folder is made when first saved into
    let _ = std::fs::remove_dir_all(&user);
    h.get_by_label("Save game").click();
    h.run();
    assert!(user.join("scenario.save.json").is_file());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&user);
}

/// A move the computer makes in secret (the toy's T12 orders, written with `secret = true`) is
/// said in the status bar as the side at the screen is shown it: its kind, "(withheld)", and not
/// what the orders were; the computer's next, open move is said in full.
#[test]
fn the_status_bar_withholds_what_the_computer_did_in_secret() {
    use kessel_editor::play::computer::{Pace, Player};
    let dir = kessel_test_support::toy_with_ai_hook(
        "play-withheld",
        r#"kessel.on("ai", function(legal)
  for _, a in ipairs(legal()) do if a.kind == "orders" then return a end end
  for _, a in ipairs(legal()) do if a.kind == "end_phase" then return a end end
end)"#,
    );
    // the toy's orders are enumerated for nobody; here red's computer is offered them once
    let secrets = dir.join("rules/secrets.lua");
    let text = std::fs::read_to_string(&secrets).expect("read secrets.lua");
    std::fs::write(
        &secrets,
        format!(
            "{text}\nlocal orders = kessel.action_handlers(\"orders\")\n\
             kessel.action{{ kind = \"orders\", rule = orders.rule, secret = true,\n\
             description = orders.description, validate = orders.validate, apply = orders.apply,\n\
             enumerate = function(side)\n\
             if side ~= nil and side ~= \"red\" then return {{}} end\n\
             if #kessel.game.commitments() > 0 then return {{}} end\n\
             return {{ {{ kind = \"orders\", side = \"red\", choice = \"hold\" }} }}\n\
             end }}\n"
        ),
    )
    .expect("write secrets.lua");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    {
        let s = h.state_mut().session.as_mut().expect("a game");
        s.seats.set("red", Player::Computer);
        s.seats.pace = Pace::Paused;
        s.refresh();
    }
    h.run();
    let status = |h: &egui_kittest::Harness<'_, kessel_editor::EditorApp>| {
        Some(h.state().status.message.clone()).filter(|m| !m.is_empty())
    };
    // one move of the computer's, played on its thread: done once the status bar changes
    let step = |h: &mut egui_kittest::Harness<'_, kessel_editor::EditorApp>| {
        use egui_kittest::kittest::NodeT;
        let before = status(h);
        // the rules' thread says first whose decision it is
        let start = std::time::Instant::now();
        while h.get_by_label("Step").accesskit_node().is_disabled() {
            assert!(start.elapsed().as_secs() < 30, "Step never came on");
            h.step();
        }
        h.get_by_label("Step").click();
        let start = std::time::Instant::now();
        while status(h) == before {
            assert!(start.elapsed().as_secs() < 30, "the computer never moved");
            h.step();
        }
        h.run();
    };
    step(&mut h);
    assert_eq!(
        status(&h).as_deref(),
        Some("computer: orders (withheld)"),
        "blue, at the screen, is not told red's orders"
    );
    h.get_by_label("computer: orders (withheld)");
    super::picture(&mut h, "status-withheld");
    assert!(
        h.query_by_label_contains("hold").is_none(),
        "the order itself stays secret"
    );
    step(&mut h);
    assert_eq!(
        status(&h).as_deref(),
        Some("computer: end phase"),
        "an open move is said as it is"
    );
}
