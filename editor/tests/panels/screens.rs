//! The editor on real screens: a narrow window, a larger interface size (egui's zoom factor), and
//! watched folders renamed or replaced while a game is played.

use super::reload::wait_for;
use super::toy::{harness, toy_copy, unit_hex};
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use kessel_core::action::Action;
use kessel_editor::app::MAP_MIN_WIDTH;
use kessel_editor::play::PlayCommand;
use kessel_editor::EditorApp;

fn game_hash(app: &EditorApp) -> u64 {
    app.session.as_ref().expect("a game").engine.state().hash()
}

/// Plays one move of the toy so the game has something to lose.
fn move_r1(h: &mut egui_kittest::Harness<'_, EditorApp>) {
    h.get_by_label("Play-test").click();
    h.run();
    let mv = Action::new("move")
        .with("unit", "r1")
        .with("path", serde_json::json!(["0303"]));
    h.state_mut().apply_play(vec![PlayCommand::Act(mv)]);
    h.run();
    assert_eq!(unit_hex(h, "r1").as_deref(), Some("0303"));
}

/// In an 800-point window the widest side panel (the rules', 520 points) left the map a strip
/// of 90 points beside the palette; each mode now leaves the map its minimum width.
#[test]
fn a_narrow_window_leaves_the_map_room_in_every_mode() {
    let dir = toy_copy("screens-narrow");
    let mut h = harness(&dir);
    h.set_size(egui::vec2(800.0, 1000.0));
    h.run();
    for mode in ["Edit scenario", "Play-test", "Rules", "Edit map"] {
        h.get_by_label(mode).click();
        h.run();
        let canvas = h.state().map_view.canvas();
        assert!(
            canvas.width() >= MAP_MIN_WIDTH - 1.0,
            "{mode}: the map is {} points wide",
            canvas.width()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl + is egui's key for a larger interface: it zoomed the map as well (the map's + key did
/// not look at the modifiers). The plain key still zooms the map alone.
#[test]
fn ctrl_plus_sizes_the_interface_and_plain_plus_the_map() {
    let dir = toy_copy("screens-zoom-keys");
    let mut h = harness(&dir);
    // zoomed by hand first: a map left as fitted is fitted again to the canvas the larger
    // interface leaves it, which is not the key's doing
    h.key_press(Key::Minus);
    h.run();
    let map_zoom = h.state().map_view.zoom;
    h.key_press_modifiers(Modifiers::COMMAND, Key::Plus);
    h.run();
    assert!(
        (h.ctx.zoom_factor() - 1.1).abs() < 1e-4,
        "interface size {}",
        h.ctx.zoom_factor()
    );
    assert_eq!(h.state().map_view.zoom, map_zoom, "the map kept its zoom");
    h.key_press(Key::Plus);
    h.run();
    assert!(h.state().map_view.zoom > map_zoom, "plain + zooms the map");
    assert!((h.ctx.zoom_factor() - 1.1).abs() < 1e-4);
    let _ = std::fs::remove_dir_all(&dir);
}

/// View → Interface size: the + button makes the interface larger, Reset takes it back; a size
/// set at start (the CLI's `--ui-scale`, the kept one) is applied on the first frame.
#[test]
fn the_view_menu_sets_the_interface_size() {
    let dir = toy_copy("screens-zoom-menu");
    let mut h = harness(&dir);
    // (the menu's, at the top; the palette has a View tool too)
    let menu = h
        .get_all_by_label("View")
        .min_by(|a, b| a.rect().top().total_cmp(&b.rect().top()))
        .expect("the View menu");
    menu.click();
    h.run();
    h.get_by_label("100%");
    h.get_by_label("+").click();
    h.run();
    assert!(
        (h.ctx.zoom_factor() - 1.1).abs() < 1e-4,
        "{}",
        h.ctx.zoom_factor()
    );
    h.get_by_label("110%");
    h.get_by_label("Reset").click();
    h.run();
    assert_eq!(h.ctx.zoom_factor(), 1.0);
    h.state_mut().set_ui_scale(2.0);
    h.run();
    assert_eq!(h.ctx.zoom_factor(), 2.0);
    // at twice the size a 1300-pixel window is 650 points, 460 beside the palette: the map
    // keeps half of them (the rules panel's 520 points took them all)
    h.get_by_label("Rules").click();
    h.run();
    let canvas = h.state().map_view.canvas();
    assert!(
        canvas.width() >= 460.0 / 2.0,
        "the map is {} points wide",
        canvas.width()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The scenario's folder (outside the ruleset, watched on its own) is renamed away and a copy
/// put in its place: the watch followed the old folder, so a broken save in the new one was
/// never seen. Now it is, with its file and line, and the game is kept.
#[test]
fn a_scenario_folder_replaced_by_a_copy_is_watched_again() {
    let dir = toy_copy("screens-swap");
    let own = dir.with_extension("scenario");
    let _ = std::fs::remove_dir_all(&own);
    std::fs::create_dir_all(&own).expect("mkdir");
    let text = std::fs::read_to_string(dir.join("scenario.toml")).expect("read");
    let scenario = text
        .replace(
            "ruleset = \".\"",
            &format!("ruleset = {:?}", dir.display().to_string()),
        )
        .replace(
            "map = \"map.toml\"",
            &format!("map = {:?}", dir.join("map.toml").display().to_string()),
        );
    std::fs::write(own.join("scenario.toml"), &scenario).expect("write");
    let mut h = harness(&own);
    move_r1(&mut h);
    let hash = game_hash(h.state());

    let old = own.with_extension("old");
    let _ = std::fs::remove_dir_all(&old);
    std::fs::rename(&own, &old).expect("rename the folder away");
    // a few frames with the folder gone, as a copy takes a moment
    for _ in 0..5 {
        std::thread::sleep(std::time::Duration::from_millis(30));
        h.step();
    }
    std::fs::create_dir_all(&own).expect("mkdir");
    std::fs::write(own.join("scenario.toml"), &scenario).expect("write the copy");
    // half a file, as a slow copy leaves it for a moment: the TOML error names its line
    let cut = scenario.find("[[units]]").expect("units") + 12;
    std::fs::write(own.join("scenario.toml"), &scenario[..cut]).expect("write half");
    wait_for(&mut h, "the half-written scenario's error", |app| {
        app.problems.scenario.as_ref().is_some_and(|p| {
            p.location
                .as_deref()
                .is_some_and(|l| l.contains("scenario.toml:"))
        })
    });
    assert_eq!(game_hash(h.state()), hash, "the game is kept");
    std::fs::write(own.join("scenario.toml"), &scenario).expect("write whole");
    wait_for(&mut h, "the whole scenario", |app| {
        app.problems.scenario.is_none()
    });
    assert_eq!(game_hash(h.state()), hash, "the game is kept");
    let _ = std::fs::remove_dir_all(&own);
    let _ = std::fs::remove_dir_all(&old);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The ruleset's `rules` folder renamed away while a game is played: the reload fails naming a
/// file of it (it said nothing, and the rules it no longer had stayed as if all was well); put
/// back, the rules load again. The game is kept throughout.
#[test]
fn a_rules_folder_renamed_away_is_said_and_put_back_is_taken() {
    let dir = toy_copy("screens-rules-folder");
    let mut h = harness(&dir);
    move_r1(&mut h);
    let hash = game_hash(h.state());
    let reloads = h.state().rule_reloads;
    std::fs::rename(dir.join("rules"), dir.join("rules_away")).expect("rename");
    wait_for(&mut h, "the failed reload", |app| {
        app.problems.rules.is_some()
    });
    let said = format!("{:?}", h.state().problems.rules);
    assert!(said.contains("rules/"), "{said}");
    assert_eq!(game_hash(h.state()), hash);
    std::fs::rename(dir.join("rules_away"), dir.join("rules")).expect("rename back");
    wait_for(&mut h, "the rules back", |app| {
        app.problems.rules.is_none() && app.rule_reloads > reloads
    });
    assert_eq!(game_hash(h.state()), hash);
    h.get_by_label_contains("rules reloaded");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Undo action sits above the lines saying where the game is: below them it moved whenever the
/// phase's line wrapped or a decision's prompt came or went, so a row of clicks taking a game
/// back (seen under Xvfb, the learning scenario played by the computer) hit the text instead.
#[test]
fn undo_action_keeps_its_place_above_the_changing_lines() {
    let dir = toy_copy("screens-undo-place");
    let mut h = harness(&dir);
    move_r1(&mut h);
    let phase = h.state().session.as_ref().expect("game").phase_text();
    let undo = h.get_by_label("Undo action").rect();
    let line = h.get_by_label(&phase).rect();
    assert!(
        undo.bottom() <= line.top(),
        "Undo action {undo:?} is below the phase line {line:?}"
    );
    // its place is the same whatever the game says below it
    h.state_mut().apply_play(vec![PlayCommand::Undo]);
    h.run();
    assert_eq!(h.get_by_label("Undo action").rect().top(), undo.top());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The campaign in an 800-point window, in every mode: the rules panel's choice boxes stood past
/// the panel's edge after their long ids (and the scenario panel's unit lines past it), and egui
/// then moved the panel's edge over the map (which ended 190 points short of the window's edge,
/// the panel's first points hidden under it). Now nothing stands past the window and the panel
/// keeps its width beside the map.
#[test]
fn the_campaign_panels_fit_a_narrow_window() {
    use egui_kittest::kittest::NodeT;
    let path = kessel_test_support::workspace_root().join("scenarios/pgg/campaign.toml");
    let app = EditorApp::open_file(&path, false).expect("the campaign opens");
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::vec2(800.0, 1000.0))
        .with_max_steps(8)
        .build_ui_state(|ui, app: &mut EditorApp| app.ui_root(ui), app);
    h.run_ok();
    fn past_the_edge(n: egui_kittest::Node<'_>, out: &mut Vec<String>) {
        let node = n.accesskit_node();
        // (a long path in a one-line text field runs on inside it, clipped: not a layout's)
        let in_field = node
            .parent()
            .is_some_and(|p| p.role() == egui::accesskit::Role::TextInput);
        if let Some(r) = node.bounding_box().filter(|r| r.x1 > 801.0 && !in_field) {
            out.push(format!(
                "{:?} {:?} ends at {}",
                node.role(),
                node.label(),
                r.x1
            ));
        }
        for c in n.children() {
            past_the_edge(c, out);
        }
    }
    for mode in ["Rules", "Edit scenario", "Play-test", "Edit map"] {
        h.get_by_label(mode).click();
        let start = std::time::Instant::now();
        while (h.state().session.as_ref()).is_none_or(|s| s.rules_busy()) {
            assert!(start.elapsed().as_secs() < 120, "the game never started");
            std::thread::sleep(std::time::Duration::from_millis(20));
            h.step();
        }
        h.run_ok();
        let canvas = h.state().map_view.canvas();
        assert!(
            canvas.width() >= MAP_MIN_WIDTH - 1.0,
            "{mode}: map {canvas:?}"
        );
        assert!(
            canvas.right() <= 800.0 - 250.0,
            "{mode}: the panel is squeezed: map {canvas:?}"
        );
        let mut out = Vec::new();
        past_the_edge(h.root(), &mut out);
        assert!(out.is_empty(), "{mode}: {out:#?}");
    }
}

/// At twice the interface size a 1100 x 720 window is 550 x 360 points: the palette's layers
/// and Fit map lay below the window's edge with no way to reach them. Now the palette scrolls.
#[test]
fn the_palette_scrolls_to_fit_map_in_a_short_window() {
    let dir = toy_copy("screens-palette");
    let mut h = harness(&dir);
    h.set_size(egui::vec2(1100.0, 720.0));
    h.state_mut().set_ui_scale(2.0);
    h.run();
    h.get_by_label("Fit map").scroll_to_me();
    h.run();
    let fit = h.get_by_label("Fit map").rect();
    assert!(fit.bottom() <= 360.0, "Fit map out of reach at {fit:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A rules file saved broken while playing: the error shows in red at the top, and the problems
/// panel below, whose only problem it was, kept a band of 90 points under the map to say so.
/// Now it takes one line.
#[test]
fn a_problem_shown_at_the_top_takes_one_line_below_the_map() {
    let dir = toy_copy("screens-problems-above");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    let band = |h: &egui_kittest::Harness<'_, EditorApp>| {
        let log = h.get_by_label_contains("Event log (").rect();
        log.top() - h.state().map_view.canvas().bottom()
    };
    let before = band(&h);
    let play = dir.join("rules/play.lua");
    let good = std::fs::read_to_string(&play).expect("read");
    std::fs::write(&play, format!("{good}\nlocal x = = 1\n")).expect("write");
    wait_for(&mut h, "the failed reload, checked", |app| {
        app.problems.rules.is_some() && !app.validator.busy && !app.validator.issues.is_empty()
    });
    h.get_by_label_contains("the error in red at the top");
    let after = band(&h);
    assert!(
        after - before < 50.0,
        "the problems panel takes {} points under the map",
        after - before
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// In hot seat (both sides a person's) Undo action took back the other side's last action
/// unasked: blue, at the screen after red's end of phase, could take red's move or roll back. It
/// is taken back once the question naming whose action it is has been answered; blue's own
/// action goes back at once.
#[test]
fn in_hot_seat_undo_asks_before_taking_back_the_other_sides_action() {
    let dir = toy_copy("screens-hot-seat-undo");
    let mut h = harness(&dir);
    move_r1(&mut h);
    for _ in 0..2 {
        h.state_mut()
            .apply_play(vec![PlayCommand::Act(Action::new("end_phase"))]);
        h.run();
    }
    let log_len = |h: &egui_kittest::Harness<'_, EditorApp>| {
        h.state()
            .session
            .as_ref()
            .expect("a game")
            .engine
            .log()
            .len()
    };
    let (before, hash) = (log_len(&h), game_hash(h.state()));
    assert_eq!(
        h.state()
            .session
            .as_ref()
            .expect("a game")
            .viewer()
            .as_deref(),
        Some("blue"),
        "blue is at the screen"
    );
    h.get_by_label("Undo action").click();
    h.run();
    assert_eq!(game_hash(h.state()), hash, "nothing taken back unasked");
    h.get_by_label_contains("was the red's, not yours");
    super::picture(&mut h, "hot-seat-undo");
    h.get_by_label("Keep it").click();
    h.run();
    assert!(h.query_by_label_contains("not yours").is_none());
    assert_eq!(log_len(&h), before);
    // Ctrl+Z asks the same
    h.state_mut().apply_play(vec![PlayCommand::Undo]);
    h.run();
    h.get_by_label(kessel_editor::panels::play::TAKE_IT_BACK)
        .click();
    h.run();
    assert_eq!(log_len(&h), before - 1, "taken back once agreed");
    assert!(h.query_by_label_contains("not yours").is_none());
    // red at the screen again takes back its own action at once
    h.get_by_label("Undo action").click();
    h.run();
    assert_eq!(log_len(&h), before - 2);
    assert_eq!(unit_hex(&h, "r1").as_deref(), Some("0303"));
    let _ = std::fs::remove_dir_all(&dir);
}
