//! `kessel editor --screenshot`: a picture of every mode from the main binary, under a virtual
//! X server (`xvfb-run`, which CI installs; without it the test says so and checks only what
//! needs no window).

use crate::util::{kessel, root, scratch};
use std::path::Path;
use std::process::Command;

/// Width and height of a PNG, from its header.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).expect("read the screenshot");
    assert_eq!(&bytes[1..4], b"PNG", "{} is not a PNG", path.display());
    let be =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    (be(16), be(20))
}

fn xvfb() -> bool {
    Command::new("xvfb-run").arg("--help").output().is_ok()
}

/// Runs `kessel editor ARGS` under `xvfb-run`, from the repository root.
fn editor_under_xvfb(args: &[&str]) -> std::process::Output {
    Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1400x1000x24"])
        .arg(env!("CARGO_BIN_EXE_kessel"))
        .arg("editor")
        .args(args)
        .current_dir(root())
        .output()
        .expect("run xvfb-run")
}

#[test]
fn a_bad_mode_or_size_is_refused_before_any_window_opens() {
    let r = kessel(&["editor", "scenarios/pgg/learning.toml", "--mode", "battle"]);
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains("map, scenario, play, rules"),
        "{}",
        r.stderr
    );
    let r = kessel(&["editor", "scenarios/pgg/learning.toml", "--size", "big"]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("WIDTHxHEIGHT"), "{}", r.stderr);
}

/// Another of Kessel's files given to the editor is named as what it is, before any window
/// opens (a profile or a lab data file was "neither a scenario (no [scenario] table) nor a map").
#[test]
fn another_kind_of_file_given_to_the_editor_says_what_it_is() {
    for (file, what) in [
        (
            "core/tests/fixtures/toy/profiles/standard.toml",
            "neither a scenario nor a map but a profile (option values)",
        ),
        (
            "core/tests/fixtures/toy/init.lua",
            "neither a scenario nor a map but a Lua file",
        ),
    ] {
        let r = kessel(&["editor", file, "--screenshot", "never.png"]);
        assert!(
            r.code != 0 && r.stderr.contains(what),
            "{file}: {}",
            r.stderr
        );
    }
}

#[test]
fn screenshots_of_every_mode_come_from_the_main_binary() {
    if !xvfb() {
        eprintln!("xvfb-run is not installed: no window can open, the screenshots are not taken");
        return;
    }
    let dir = scratch("editor-shots");
    let mut pictures = Vec::new();
    for mode in ["map", "scenario", "play", "rules"] {
        let out = dir.join(format!("{mode}.png"));
        let out_text = out.display().to_string();
        let mut args = vec![
            "scenarios/pgg/learning.toml",
            "--screenshot",
            &out_text,
            "--mode",
            mode,
            "--size",
            "900x600",
        ];
        if mode == "play" {
            // a unit by id, a hex by label
            args.extend(["--select", "s-lukin", "--hover", "2116"]);
        }
        let run = editor_under_xvfb(&args);
        assert!(
            run.status.success(),
            "{mode}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert_eq!(png_size(&out), (900, 600), "{mode}");
        pictures.push(std::fs::read(&out).expect("read"));
    }
    for i in 0..pictures.len() {
        for j in i + 1..pictures.len() {
            assert_ne!(pictures[i], pictures[j], "two modes gave the same picture");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_broken_scenario_opens_for_a_screenshot_while_check_refuses_it() {
    let dir = crate::util::toy_copy("editor-broken");
    let edit = |name: &str, from: &str, to: &str| {
        let p = dir.join(name);
        let text = std::fs::read_to_string(&p).expect("read");
        assert!(text.contains(from), "{from}");
        std::fs::write(&p, text.replacen(from, to, 1)).expect("write");
    };
    edit("map.toml", "\".ww..w.\"", "\".ww..w\"");
    edit("scenario.toml", "at = \"0203\"", "at = \"0909\"");
    let scenario = dir.join("scenario.toml").display().to_string();
    let r = kessel(&["check", &scenario]);
    assert_ne!(r.code, 0, "kessel check stays strict");
    assert!(r.stderr.contains("map.toml:13"), "{}", r.stderr);
    if !xvfb() {
        eprintln!("xvfb-run is not installed: the broken scenario's screenshot is not taken");
        return;
    }
    let out = dir.join("broken.png").display().to_string();
    let run = editor_under_xvfb(&[&scenario, "--screenshot", &out, "--size", "800x600"]);
    assert!(
        run.status.success(),
        "the editor opens a broken scenario: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(png_size(Path::new(&out)), (800, 600));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_saved_game_given_as_the_file_opens_in_play_test_where_it_was_saved() {
    let dir = scratch("editor-save-as-file");
    let script = dir.join("orders.lua");
    std::fs::write(&script, "assert(kessel.act{ kind = \"end_phase\" })\n").expect("script");
    let save = dir.join("game.json").display().to_string();
    let r = kessel(&[
        "script",
        &script.display().to_string(),
        "--scenario",
        "core/tests/fixtures/toy/scenario.toml",
        "--save",
        &save,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    if !xvfb() {
        eprintln!("xvfb-run is not installed: the saved game is not opened");
        return;
    }
    let out = dir.join("save.png").display().to_string();
    // `kessel editor game.json` is `kessel editor --load game.json`
    let run = editor_under_xvfb(&[
        &save,
        "--print-legal",
        "--screenshot",
        &out,
        "--size",
        "800x600",
    ]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "the editor opens a save given as its file: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    // the save ended red's movement: red's combat step offers no move
    assert!(stdout.contains("end_phase"), "{stdout}");
    assert!(!stdout.contains("\"move\""), "{stdout}");
    assert_eq!(png_size(Path::new(&out)), (800, 600));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_misspelt_computer_side_is_refused_with_the_side_meant() {
    if !xvfb() {
        eprintln!("xvfb-run is not installed: the editor's start is not tried");
        return;
    }
    let dir = scratch("editor-computer-typo");
    let out = dir.join("never.png").display().to_string();
    let run = editor_under_xvfb(&[
        "scenarios/pgg/learning.toml",
        "--mode",
        "play",
        "--computer",
        "sovet",
        "--screenshot",
        &out,
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success(), "a side the ruleset lacks: {stderr}");
    assert!(
        stderr.contains("--computer sovet: `sovet` is not a side")
            && stderr.contains("(did you mean `soviet`?)"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_lab_run_is_started_from_the_command_line_and_photographed_when_done() {
    let r = kessel(&[
        "editor",
        "core/tests/fixtures/toy/scenario.toml",
        "--lab-against",
        "open",
    ]);
    assert_ne!(r.code, 0, "--lab-against needs --lab-run");
    if !xvfb() {
        eprintln!("xvfb-run is not installed: no window can open, the lab run is not shown");
        return;
    }
    let dir = scratch("editor-lab");
    let out = dir.join("lab.png");
    let out_text = out.display().to_string();
    let toy = "core/tests/fixtures/toy/scenario.toml";
    let run = editor_under_xvfb(&[
        toy,
        "--lab-run",
        "5",
        "--lab-against",
        "open",
        "--screenshot",
        &out_text,
        "--size",
        "900x600",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(png_size(&out), (900, 600));
    let run = editor_under_xvfb(&[
        toy,
        "--lab-run",
        "5",
        "--lab-against",
        "nosuch",
        "--screenshot",
        &out_text,
    ]);
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("`nosuch` is not a profile of the ruleset (it has: open, standard"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `kessel editor SCENARIO --option …` starts the play-test game with the option in force from
/// its set-up: a scenario that stacks three units in a hex, legal only under a raised limit,
/// would not start ("the game could not start: … overstacks").
#[test]
fn the_editor_starts_a_game_with_its_option_flags_in_force_from_the_set_up() {
    let scenario = crate::util::toy_stacked_three("editor-option-setup");
    let dir = scenario.parent().expect("its folder").to_path_buf();
    if !xvfb() {
        eprintln!("xvfb-run is not installed: the editor's start is not tried");
        return;
    }
    let out = dir.join("option.png").display().to_string();
    let s = scenario.display().to_string();
    let run = editor_under_xvfb(&[
        &s,
        "--option",
        "stack_limit=5",
        "--print-legal",
        "--screenshot",
        &out,
        "--size",
        "800x600",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stdout).contains("\"move\""));
    assert_eq!(png_size(Path::new(&out)), (800, 600));
}

/// `--select` in play-test finds a unit of a game with secrets (the units the side at the screen
/// is shown come a frame later: it said no such unit was in play), and with the computer on one
/// side it waits for a step of no side no longer: such a step is the person's (it waited for the
/// computer, which never plays it with a person at the screen, and the screenshot never came).
#[test]
fn select_finds_a_unit_of_a_game_with_secrets_and_waits_for_no_stepless_computer() {
    let dir = crate::util::toy_copy("editor-select-secrets");
    let p = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&p).expect("read");
    // red's r1 hidden from blue: red, at the screen, sees it
    let from = "faces = [\"3-3-4\"]\nat = \"0203\"";
    assert!(text.contains(from), "r1 in the toy");
    let text = text.replacen(from, &format!("{from}\nhidden_from = true"), 1);
    std::fs::write(&p, text).expect("write");
    if !xvfb() {
        eprintln!("xvfb-run is not installed: the selection is not tried");
        return;
    }
    let scenario = p.display().to_string();
    for (i, extra) in [
        &[][..],
        &["--computer", "blue", "--act", "{\"kind\":\"muster\"}"][..],
    ]
    .into_iter()
    .enumerate()
    {
        let out = dir.join(format!("select-{i}.png")).display().to_string();
        let run = Command::new("timeout")
            .arg("120")
            .args(["xvfb-run", "-a", "-s", "-screen 0 1400x1000x24"])
            .arg(env!("CARGO_BIN_EXE_kessel"))
            .args(["editor", &scenario, "--mode", "play", "--select", "r1"])
            .args(extra)
            .args(["--screenshot", &out, "--size", "800x600"])
            .current_dir(root())
            .output()
            .expect("run xvfb-run");
        assert!(
            run.status.success(),
            "{extra:?}: {:?} {}",
            run.status.code(),
            String::from_utf8_lossy(&run.stderr)
        );
        assert_eq!(png_size(Path::new(&out)), (800, 600), "{extra:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
