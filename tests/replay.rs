//! `kessel replay`: a GM's check of saved games after the rules changed under them (a fix between
//! rounds, or rules reloaded in the editor during play), and the repair that keeps what replays.

use crate::util::{kessel, scratch, write};

/// Two moves of the toy, saved; then a rule change that refuses the second.
#[test]
fn replay_says_which_action_no_longer_plays_and_saves_what_does() {
    let dir = scratch("replay-after-a-fix");
    kessel_test_support::copy_dir(&crate::util::root().join("core/tests/fixtures/toy"), &dir);
    let play = write(
        &dir,
        "play.lua",
        "assert(kessel.act{ kind = \"move\", unit = \"r1\", path = { \"0303\" } })\n\
         assert(kessel.act{ kind = \"move\", unit = \"r2\", path = { \"0104\" } })\n",
    );
    let scenario = dir.join("scenario.toml");
    let save = dir.join("game.json");
    let (play, scenario, save) = (
        play.to_string_lossy().into_owned(),
        scenario.to_string_lossy().into_owned(),
        save.to_string_lossy().into_owned(),
    );
    let r = kessel(&["script", &play, "--scenario", &scenario, "--save", &save]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let whole = kessel(&["replay", &save]);
    assert_eq!(whole.code, 0, "{}{}", whole.stdout, whole.stderr);
    assert!(
        whole.stdout.contains("all 2 actions replay"),
        "{}",
        whole.stdout
    );

    // the fix: 0104 is closed
    let rules = dir.join("rules/play.lua");
    let text = std::fs::read_to_string(&rules).expect("read");
    let fixed = text.replace(
        "if not u then return { rule = \"T1\", message = \"no such unit\" } end",
        "if type(a.path) == \"table\" and a.path[#a.path] == \"0104\" then return { rule = \"T9\", message = \"0104 is closed\" } end\n    if not u then return { rule = \"T1\", message = \"no such unit\" } end",
    );
    assert_ne!(fixed, text, "the fix applies");
    std::fs::write(&rules, fixed).expect("write");

    // the loaders name the way out
    let view = kessel(&["view", &save, "--as", "red"]);
    assert_ne!(view.code, 0);
    assert!(
        view.stderr.contains("changed since the save") && view.stderr.contains("kessel replay"),
        "{}",
        view.stderr
    );
    let r = kessel(&["replay", &save]);
    assert_eq!(r.code, 1, "not every action replays: {}", r.stdout);
    assert!(
        r.stdout.contains("1 of 2 actions replay")
            && r.stdout.contains("action 2 no longer does")
            && r.stdout.contains("0104 is closed [T9]")
            && r.stdout
                .contains("1 action from action 2 on would be left out"),
        "{}",
        r.stdout
    );
    // the original holds what was left out: never written over with less
    let before = std::fs::read(&save).expect("read");
    let r = kessel(&["replay", &save, "--save", &save]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("not written over"), "{}", r.stderr);
    assert_eq!(std::fs::read(&save).expect("read"), before);
    let kept = dir.join("kept.json").to_string_lossy().into_owned();
    let r = kessel(&["replay", &save, "--save", &kept]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("kept.json: saved, 1 action"),
        "{}",
        r.stdout
    );
    let again = kessel(&["replay", &kept]);
    assert_eq!(again.code, 0, "{}{}", again.stdout, again.stderr);
    assert!(
        again.stdout.contains("its 1 action replays"),
        "{}",
        again.stdout
    );
    // the repaired save is the game up to the refused move: r1 moved, r2 where it started
    let seen = kessel(&["view", &kept, "--as", "red"]);
    assert_eq!(seen.code, 0, "{}", seen.stderr);
    let r2 = seen
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("r2 "))
        .unwrap_or_else(|| panic!("no r2 line: {}", seen.stdout));
    assert!(r2.contains("0103"), "{r2}");

    // a campaign save or another file is said as what it is
    let r = kessel(&["replay", &scenario]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("scenario"), "{}", r.stderr);
}
