//! The play-test panel says what can be done in the current step: no "reinforcements waiting
//! to enter" (nor their badges on the map) in a set-up step that offers them no move, no "click
//! a stack to move it" in a step whose choices name no unit; the header names the side that
//! decides when it is not the step's own.

use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use kessel_editor::document::Document;
use kessel_editor::panels::Mode;
use kessel_editor::{EditorApp, Startup};
use kessel_test_support::workspace_root;
use std::time::{Duration, Instant};

fn play(scenario: &str, actions: &[&str]) -> Harness<'static, EditorApp> {
    let doc = Document::open(&workspace_root().join(scenario)).expect("the scenario opens");
    let mut app = EditorApp::without_watcher(doc);
    app.startup(Startup {
        mode: Some(Mode::Play),
        actions: actions.iter().map(|a| a.to_string()).collect(),
        ..Startup::default()
    })
    .expect("the scripted start");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1300.0, 850.0))
        .with_max_steps(8)
        .build_ui_state(|ui, app: &mut EditorApp| app.ui_root(ui), app);
    let start = Instant::now();
    loop {
        h.step();
        let s = h.state().session.as_ref().expect("the game started");
        if s.rules_said_whose_turn() && !s.rules_busy() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the rules never settled"
        );
    }
    h.run_ok();
    h
}

#[test]
fn the_campaigns_set_up_shows_no_reinforcements_to_bring_on() {
    // the campaign opens on the Soviet set-up: its choices place units, none moves one
    let h = play("scenarios/pgg/campaign.toml", &[]);
    let s = h.state().session.as_ref().expect("the game");
    let kinds: Vec<&str> = (s.actions.as_ref().expect("choices").iter())
        .map(|a| a.kind.as_str())
        .collect();
    assert!(kinds.contains(&"end_setup"), "the set-up step: {kinds:?}");
    assert_eq!(s.waiting_count(), 0, "no reinforcement can enter now");
    assert!(
        h.query_by_label_contains("waiting to enter").is_none(),
        "no hint to bring them on"
    );
}

#[test]
fn reinforcements_due_in_a_movement_phase_are_hinted() {
    // the learning scenario, on to the German movement of turn 1: his panzers enter at C
    let end = r#"{"kind":"end_phase"}"#;
    let h = play(
        "scenarios/pgg/learning.toml",
        &[
            r#"{"kind":"end_air_placement","side":"german"}"#,
            end,
            end,
            end,
            end,
        ],
    );
    let s = h.state().session.as_ref().expect("the game");
    assert!(s.waiting_count() > 0, "reinforcements can enter");
    assert!(h.query_by_label_contains("waiting to enter").is_some());
    // their entry area (C, on the west edge) is off the view the map opens at; Show them
    // brings it into view and picks them
    let entry = h.state().doc.map.parse("0111").expect("a hex of area C");
    let shown = |h: &Harness<'_, EditorApp>| {
        let app = h.state();
        let at = app.map_view.hex_to_screen(&app.doc.map, entry);
        app.map_view.canvas().contains(at)
    };
    assert!(!shown(&h), "the entry area is off the first view");
    let mut h = h;
    h.get_by_label("Show them").click();
    h.run_ok();
    assert!(shown(&h), "the entry area is in view");
    let s = h.state().session.as_ref().expect("the game");
    assert!(
        s.picked_waiting(),
        "the reinforcements are picked: {:?}",
        s.picked
    );
}

#[test]
fn a_step_whose_choices_name_no_unit_does_not_say_to_move_a_stack() {
    // the learning scenario opens on the German air placement: markers, no unit
    let h = play("scenarios/pgg/learning.toml", &[]);
    // the mode's help and the panel: a marker goes where a click puts it
    assert_eq!(
        h.query_all_by_label_contains("Click a hex to take the choice")
            .count(),
        2
    );
    assert!(h.query_by_label_contains("Click a stack to see").is_none());
    assert!(h.query_by_label_contains("shaded hex").is_none());
}

#[test]
fn the_header_names_the_side_deciding_inside_another_sides_step() {
    // the learning scenario opens in the Soviet Movement Phase with the German's initial air
    // markers to place first: the header said "(soviet)" alone
    let h = play("scenarios/pgg/learning.toml", &[]);
    let s = h.state().session.as_ref().expect("the game");
    assert_eq!(
        s.deciding_side().as_deref(),
        Some("german"),
        "the German places first"
    );
    let text = s.phase_text();
    assert!(
        text.contains("(soviet)") && text.contains("german to decide"),
        "{text}"
    );
    // and what he decides: the header said "german to decide" and nothing of markers
    assert!(
        text.contains("german to decide: ") && text.contains("place marker [13]"),
        "{text}"
    );
    assert!(
        h.query_by_label_contains("german to decide").is_some(),
        "the header shows it: {text}"
    );
}

#[test]
fn the_mode_help_says_what_clicks_do_in_the_step() {
    // the campaign's set-up places units, none moves: neither the mode's help on the left nor
    // the panel says to click a shaded hex
    let h = play("scenarios/pgg/campaign.toml", &[]);
    assert!(!h.state().session.as_ref().expect("the game").moving);
    assert!(
        h.query_by_label_contains("shaded hex").is_none(),
        "no move help in a set-up"
    );
    let setup_help = h.state().session.as_ref().expect("the game").click_help();
    assert!(
        setup_help.starts_with("Click a stack to mark the hexes its choices lead to"),
        "{setup_help}"
    );
    assert!(setup_help.contains("Choices list"), "{setup_help}");
    assert_eq!(
        h.query_all_by_label(&setup_help).count(),
        2,
        "the mode's help and the panel"
    );
    // the German movement of the learning scenario's first turn: units move, and the help says how
    let end = r#"{"kind":"end_phase"}"#;
    let h = play(
        "scenarios/pgg/learning.toml",
        &[
            r#"{"kind":"end_air_placement","side":"german"}"#,
            end,
            end,
            end,
            end,
        ],
    );
    assert!(h.state().session.as_ref().expect("the game").moving);
    assert!(
        !h.get_by_label("Attack").accesskit_node().is_disabled(),
        "units move here"
    );
    h.get_by_label(kessel_editor::play::MOVE_HELP);
    assert!(h
        .query_by_label_contains("No unit moves in this step")
        .is_none());
}

/// Pegasus Bridge's stand-in battle moves a man a hex by a choice of its own (`pbx move`, no
/// path): the help said "No unit moves in this step" beside 42 such choices. It says what a
/// click on a stack does instead.
#[test]
fn a_step_whose_choices_move_units_by_a_hex_does_not_say_no_unit_moves() {
    let mut h = play("scenarios/pegasus-bridge/dawn.toml", &[]);
    assert!(h.query_by_label_contains("pbx move").is_some());
    assert!(h
        .query_by_label_contains("No unit moves in this step")
        .is_none());
    assert_eq!(
        h.query_all_by_label_contains("Click a stack to mark the hexes its choices lead to")
            .count(),
        2,
        "the mode's help and the panel"
    );
    // neither a path move nor an attack: the Move/Attack switch is greyed out
    assert!(h.get_by_label("Attack").accesskit_node().is_disabled());
    super::picture(&mut h, "play-pb-choices");
}

#[test]
fn the_header_names_a_set_up_held_inside_a_phase() {
    // the campaign's Soviet set-up [5.1] is open in turn 1's Soviet Movement Phase: the header
    // named only that phase while every choice was a placement
    let h = play("scenarios/pgg/campaign.toml", &[]);
    let text = h.state().session.as_ref().expect("the game").phase_text();
    assert!(
        text.contains("Soviet Movement Phase") && text.contains("now: ") && text.contains("[5.1]"),
        "{text}"
    );
    assert!(
        text.contains("setup place") && text.contains("end setup"),
        "{text}"
    );
    h.get_by_label(&text);
    // once the set-up is over and units move, the header is the phase's alone
    let end = r#"{"kind":"end_phase"}"#;
    let h = play(
        "scenarios/pgg/learning.toml",
        &[
            r#"{"kind":"end_air_placement","side":"german"}"#,
            end,
            end,
            end,
            end,
        ],
    );
    let text = h.state().session.as_ref().expect("the game").phase_text();
    assert!(!text.contains("now: "), "{text}");
}

/// The learning scenario's first Soviet Movement Phase, both armies standing on their roll
/// [5.2]: its one choice is to end it, and the help said to place "units or markers" from the
/// list. It says there is one choice and where the reason is.
#[test]
fn a_step_with_one_choice_says_so_not_place_units() {
    let h = play(
        "scenarios/pgg/learning.toml",
        &[r#"{"kind":"end_air_placement","side":"german"}"#],
    );
    let s = h.state().session.as_ref().expect("the game");
    let kinds: Vec<&str> = (s.actions.as_ref().expect("choices").iter())
        .map(|a| a.kind.as_str())
        .collect();
    assert_eq!(kinds, ["end_phase"], "both armies stand at seed 1");
    assert_eq!(s.click_help(), kessel_editor::play::ONE_CHOICE_HELP);
    assert_eq!(
        h.query_all_by_label(kessel_editor::play::ONE_CHOICE_HELP)
            .count(),
        2,
        "the mode's help and the panel"
    );
    assert!(h
        .query_by_label_contains("placing units or markers")
        .is_none());
}

/// A player learning the game reads the learning scenario's notes (what each turn teaches, how it
/// is won) in play-test, where they were not: only scenario editing showed them, as a text field.
#[test]
fn the_scenario_notes_are_read_in_play_test() {
    let mut h = play("scenarios/pgg/learning.toml", &[]);
    assert!(
        h.query_by_label_contains("What it teaches").is_none(),
        "folded at first"
    );
    h.get_by_label("Scenario notes").click();
    h.run_ok();
    assert!(h.query_by_label_contains("What it teaches").is_some());
    assert!(h
        .query_by_label_contains("holding both Smolensk hexes")
        .is_some());
}

/// A stack whose choices put it on other hexes by choices of their own (Pegasus Bridge's `pbx
/// move`, a set-up's placements) and not by a path has no movement field: the panel said "No hex
/// is reachable." under the rings those choices draw. It says where the choices lead.
#[test]
fn a_stack_whose_choices_mark_hexes_is_not_told_no_hex_is_reachable() {
    let mut h = play("scenarios/pegasus-bridge/dawn.toml", &[]);
    let hex = {
        let s = h.state().session.as_ref().expect("the game");
        let state = s.engine.state();
        let actions = s.actions.as_ref().expect("the listed choices");
        let unit = actions
            .iter()
            .find(|a| a.kind == "pbx_move")
            .and_then(|a| a.params.get("unit"))
            .and_then(|u| u.as_str())
            .expect("a pbx move names its unit")
            .to_string();
        state.unit(&unit).and_then(|u| u.hex()).expect("on the map")
    };
    select_and_wait_for_reach(&mut h, hex);
    let s = h.state().session.as_ref().expect("the game");
    assert!(
        !s.choices_on_map().is_empty(),
        "the stack's choices lead to hexes"
    );
    assert!(h.query_by_label_contains("No hex is reachable").is_none());
    h.get_by_label_contains("marked on the map: click one to take it");
}

/// The 16th Army rolled to stand [5.2]: clicked, its stack of seven (three over the limit) said
/// only "No hex is reachable", and a player could not tell the roll, the stack or the map was to
/// blame. The panel gives the rules' reason, with its case.
#[test]
fn a_standing_army_s_whole_stack_says_why_it_may_not_move() {
    let h = play(
        "scenarios/pgg/campaign.toml",
        &[
            r#"{"kind":"end_setup"}"#,
            r#"{"kind":"place_marker","hex":"2216","side":"german"}"#,
            r#"{"kind":"place_marker","hex":"4015","side":"german"}"#,
            r#"{"kind":"place_marker","hex":"0123","side":"german"}"#,
        ],
    );
    let mut h = h;
    let stands = h
        .state()
        .session
        .as_ref()
        .expect("the game")
        .engine
        .state()
        .vars
        .get("first_turn_16")
        .and_then(|v| v.as_str())
        .map(str::to_string);
    assert_eq!(
        stands.as_deref(),
        Some("stand"),
        "seed 1: the 16th Army stands"
    );
    let hex = h
        .state()
        .doc
        .map
        .parse("2216")
        .expect("the 16th Army's hex");
    select_and_wait_for_reach(&mut h, hex);
    let line = h
        .query_by_label_contains("No hex is reachable: ")
        .expect("the panel says why no hex is reachable")
        .accesskit_node()
        .value()
        .unwrap_or_default();
    assert!(
        line.contains("at most 3 of these 7 may go") && line.contains("[5.2]"),
        "{line}"
    );
}

/// On the first turn the Soviet Movement Phase can't end while the 13th and 20th Armies have MP
/// left [5.2] or a hex is over the limit [7.1]: the greyed-out End phase said only "take one of
/// the choices below first". Its hover gives the rules' reasons, with their cases.
#[test]
fn the_greyed_end_phase_says_why_the_phase_cant_end() {
    let mut h = play(
        "scenarios/pgg/campaign.toml",
        &[
            r#"{"kind":"end_setup"}"#,
            r#"{"kind":"end_air_placement","side":"german"}"#,
        ],
    );
    let why = h
        .state()
        .session
        .as_ref()
        .expect("the game")
        .end_phase_blockers();
    assert!(
        why.iter().any(|r| r.rule.as_deref() == Some("5.2")),
        "{why:?}"
    );
    let end = h.get_by_label("End phase");
    assert!(end.accesskit_node().is_disabled(), "not offered");
    end.hover();
    for _ in 0..60 {
        h.step();
    }
    h.get_by_label_contains(kessel_editor::panels::play::END_PHASE_REFUSED);
    assert!(
        h.query_all_by_label_contains(
            "must spend its full movement allowance on the first turn (6 MP left) [5.2]"
        )
        .next()
        .is_some(),
        "a reason with its case"
    );
    h.get_by_label_contains("… and ");
    picture_if_asked(&mut h, "end-phase-why");
}

/// Selects the stack in `hex` and steps the editor until the rules have worked out its reach.
fn select_and_wait_for_reach(h: &mut Harness<'_, EditorApp>, hex: kessel_core::hex::Hex) {
    h.state_mut()
        .session
        .as_mut()
        .expect("the game")
        .select(hex);
    let start = Instant::now();
    loop {
        h.step();
        let s = h.state().session.as_ref().expect("the game");
        if s.reach.is_some() && !s.rules_busy() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no reach worked out"
        );
    }
    h.run_ok();
}

/// With `KESSEL_SHOTS=DIR`, the harness's picture to `DIR/NAME.png` (to look at, not compared).
fn picture_if_asked(h: &mut Harness<'_, EditorApp>, name: &str) {
    if let Some(dir) = std::env::var_os("KESSEL_SHOTS") {
        let img = h.render().expect("renders");
        img.save(std::path::Path::new(&dir).join(format!("{name}.png")))
            .expect("writes the picture");
    }
}

/// Plays by the computer's choices (each sent as a person's click would send it, and the rules
/// let settle) until `done` says so.
fn play_by_the_ai_until(
    h: &mut Harness<'_, EditorApp>,
    done: impl Fn(&kessel_editor::play::PlaySession) -> bool,
) {
    let mut dice = kessel_core::dice::Dice::new(7);
    for _ in 0..600 {
        {
            let s = h.state().session.as_ref().expect("the game");
            if s.rules_said_whose_turn() && !s.rules_busy() && done(s) {
                return;
            }
        }
        let a = {
            let s = h.state().session.as_ref().expect("the game");
            s.engine
                .computer_choice(&mut dice)
                .expect("the AI answers")
                .expect("an action before the game ends")
        };
        h.state_mut()
            .apply_play(vec![kessel_editor::play::PlayCommand::Act(a)]);
        let start = Instant::now();
        loop {
            h.step();
            let s = h.state().session.as_ref().expect("the game");
            if s.rules_said_whose_turn() && !s.rules_busy() {
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "the rules never settled"
            );
        }
    }
    panic!("not done within 600 actions");
}

/// In the German Combat Phase the Soviet takes a loss or retreats, the German picks the path
/// [9.72], the victor advances [9.8]: the panel went on asking for attackers and a target, the
/// stack clicked did not show and no retreat hex was marked. A decision the rules wait for is
/// taken with the Move clicks; Attack comes back once an attack is offered again.
#[test]
fn a_decision_in_a_combat_phase_is_taken_with_the_move_clicks() {
    use kessel_editor::play::Interaction;
    let mut h = play(
        "scenarios/pgg/campaign.toml",
        &[
            r#"{"kind":"end_setup"}"#,
            r#"{"kind":"end_air_placement","side":"german"}"#,
        ],
    );
    play_by_the_ai_until(&mut h, |s| {
        s.step_text().contains("Combat") && s.pending_prompt().is_some()
    });
    h.run_ok();
    let s = h.state().session.as_ref().expect("the game");
    assert_eq!(s.interaction, Interaction::Move, "{}", s.phase_text());
    let step = s.engine.state().phase;
    assert!(
        h.query_by_label_contains("Click your stacks to add attackers")
            .is_none(),
        "no call for attackers while the rules wait for a decision"
    );
    // the log, a game record, says where each end of phase led
    h.get_by_label("— Turn 1 · Soviet Combat Phase —");
    // a stack clicked now is shown without a red "can't move" (no unit moves in the step)
    let hex = {
        let s = h.state().session.as_ref().expect("the game");
        let st = s.engine.state();
        (st.units.iter())
            .filter_map(|u| u.hex())
            .next()
            .expect("a unit on the map")
    };
    select_and_wait_for_reach(&mut h, hex);
    assert!(
        matches!(&h.state().session.as_ref().expect("the game").reach, Some(Ok(r)) if !r.refused.is_empty()),
        "the rules refuse the stack a move"
    );
    assert!(
        h.query_by_label_contains("can't move").is_none()
            && h.query_by_label_contains("Can't move").is_none(),
        "no red refusal of a move in a step where nothing moves: {:?} {:?}",
        h.query_by_label_contains("an't move")
            .and_then(|n| n.accesskit_node().value()),
        h.state()
            .session
            .as_ref()
            .map(|s| (s.moving, s.phase_text()))
    );
    // the decision taken (and any that follow it), the Attack clicks come back if an attack
    // is offered again in the phase
    play_by_the_ai_until(&mut h, |s| s.pending_prompt().is_none());
    let s = h.state().session.as_ref().expect("the game");
    let attacks = (s.actions.iter().flatten()).any(|a| a.kind == "attack");
    if s.engine.state().phase == step && attacks {
        assert_eq!(s.interaction, Interaction::Attack);
    }
}

/// The score stood nowhere in play-test before the game's end: the rules' queries that need
/// no argument (PGG's `score`, `retreats`) are asked with each look and shown in a fold.
#[test]
fn the_score_now_is_shown_under_what_the_rules_say_about_the_game() {
    let mut h = play("scenarios/pgg/campaign.toml", &[r#"{"kind":"end_setup"}"#]);
    let title = h
        .get_by_label_contains(kessel_editor::panels::game_queries::GAME_QUERIES_TITLE)
        .accesskit_node()
        .label()
        .unwrap_or_default();
    assert!(
        title.contains("score") && !title.contains("deciding"),
        "{title}"
    );
    h.get_by_label_contains(kessel_editor::panels::game_queries::GAME_QUERIES_TITLE)
        .click();
    h.run_ok();
    h.get_by_label("german vp: 0");
    h.get_by_label_contains("level: ");
    picture_if_asked(&mut h, "game-queries");
}

/// A hot-seat play-through, at a loss-or-retreat result [9.6]: the help on the left said "no unit
/// moves in this step: take its choices (placing units or markers, say)", the choice buttons read
/// "choose · choice loss" and named units by their ids, and a unit's row listed the rules'
/// bookkeeping (`t1v_0122`, `entered_at`, `mp_spent`) beside its values.
#[test]
fn a_loss_or_retreat_reads_in_a_players_words() {
    let mut h = play(
        "scenarios/pgg/campaign.toml",
        &[
            r#"{"kind":"end_setup"}"#,
            r#"{"kind":"end_air_placement","side":"german"}"#,
        ],
    );
    let pending_kind = |s: &kessel_editor::play::PlaySession| {
        (s.engine.state().vars.get("pending"))
            .and_then(|p| p.get("kind"))
            .and_then(|k| k.as_str())
            .map(str::to_string)
    };
    play_by_the_ai_until(&mut h, |s| {
        pending_kind(s).as_deref() == Some("loss_or_retreat")
    });
    h.run_ok();
    let prompt = {
        let s = h.state().session.as_ref().expect("the game");
        s.pending_prompt().expect("a decision")
    };
    // the help (on the left, and in the panel with nothing selected) says what is to decide
    assert!(
        h.query_all_by_label_contains(&format!("The rules wait for a decision — {prompt}"))
            .count()
            >= 1,
        "the help names the decision"
    );
    assert!(
        h.query_by_label_contains("placing units or markers")
            .is_none(),
        "no set-up's help at a loss or retreat"
    );
    // the buttons say the word picked (the defenders a loss or retreat names have no names but
    // their ids: units by name are checked on the attackers below)
    h.get_by_label("choose · loss");
    h.get_by_label("choose · retreat");
    assert!(h.query_by_label_contains("choice loss").is_none());
    // the status bar says the attack just rolled as the log does: its units by their names
    let attackers: Vec<String> = {
        let s = h.state().session.as_ref().expect("the game");
        let log = s.engine.log();
        let last = log.last().expect("the attack");
        assert_eq!(last.action.kind, "attack");
        (kessel_editor::play::queries::action_units(&last.action).iter())
            .filter_map(|id| s.units.get(id))
            .filter_map(kessel_editor::panels::log::unit_log_name)
            .collect()
    };
    let first = attackers.first().expect("a named attacker");
    assert!(
        h.query_all_by_label_contains(&format!("units {first}"))
            .count()
            >= 2,
        "{first} is named in the log and in the status bar"
    );
    picture_if_asked(&mut h, "loss-or-retreat");
    // a stack whose units carry the rules' bookkeeping: it is folded away from the rows
    let (hex, data) = {
        let s = h.state().session.as_ref().expect("the game");
        let st = s.engine.state();
        (st.units.iter())
            .filter(|u| u.hex().is_some())
            .find_map(|u| {
                let data = (u.vars.keys().next().cloned()).or_else(|| {
                    u.flags
                        .iter()
                        .find(|f| f.contains(char::is_numeric))
                        .cloned()
                })?;
                Some((u.hex()?, data))
            })
            .expect("a unit on the map with a rules' variable or a flag holding data")
    };
    select_and_wait_for_reach(&mut h, hex);
    assert!(
        h.query_by_label_contains(&data).is_none(),
        "{data} is not in the unit's row"
    );
    let folds = h
        .query_all_by_label_contains(kessel_editor::panels::unit_row::UNIT_DETAILS)
        .count();
    assert!(folds >= 1, "a details fold");
    for i in 0..folds {
        h.query_all_by_label_contains(kessel_editor::panels::unit_row::UNIT_DETAILS)
            .nth(i)
            .expect("the fold")
            .click();
        h.run_ok();
    }
    assert!(
        h.query_all_by_label_contains(&data).count() >= 1,
        "{data} under the fold"
    );
    picture_if_asked(&mut h, "unit-details");
}
