//! The third game system written from the docs alone (`docs/examples/third-system`, *Sallow
//! Crossing*): it must keep loading, keep passing its own rule tests and keep playing to the end,
//! so a change to the engine or to the docs' advice that breaks a designer's game shows here.

use crate::util::{kessel, scratch, write};

const DIR: &str = "docs/examples/third-system";
const SCENARIO: &str = "docs/examples/third-system/scenario.toml";

#[test]
fn the_third_system_checks_and_its_rule_tests_pass() {
    let c = kessel(&["check", SCENARIO]);
    assert_eq!(c.code, 0, "{}{}", c.stdout, c.stderr);
    assert!(c.stdout.contains("Sallow Crossing"), "{}", c.stdout);
    let r = kessel(&["test", "--quiet", DIR]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let last = r.stdout.lines().last().unwrap_or("");
    let passed: usize = last
        .strip_suffix(" passed, 0 failed")
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    // every rule case S1..S12 has tests; a file dropped from tests/ shows as fewer
    assert!(passed >= 40, "{}", r.stdout);
    // the README's "Trying it" gives the count a designer should see (it said 42 when 43 ran)
    let readme = std::fs::read_to_string(crate::util::root().join(DIR).join("README.md"))
        .expect("the example's README");
    let promised = format!("# {passed} passed, 0 failed");
    assert!(
        readme.contains(&promised),
        "the README's `kessel test` line should say `{promised}`"
    );
    // its `tests/helpers.lua` is a module the test files require, and is listed as one
    let listed = kessel(&["test", DIR]);
    assert!(
        listed
            .stdout
            .contains("third-system/tests/helpers.lua (no tests)"),
        "{}",
        listed.stdout
    );
}

/// A private copy of the example whose scenario text is changed by `edit`; its scenario's path.
fn edited(name: &str, edit: impl Fn(&str) -> String) -> String {
    let dir = scratch(name);
    kessel_test_support::copy_dir(&crate::util::root().join(DIR), &dir);
    let text = std::fs::read_to_string(dir.join("scenario.toml")).expect("scenario");
    let changed = edit(&text);
    assert_ne!(changed, text, "{name}: the edit applies");
    let path = write(&dir, "scenario.toml", &changed);
    path.to_str().expect("utf8").to_string()
}

/// [S3] the set-up keeps the stacking limit: a third unit in a hex is refused at its line.
#[test]
fn the_third_system_refuses_an_overstacked_set_up() {
    let path = edited("third_system_overstacked", |t| {
        t.replace("at = \"0106\"", "at = \"0104\"")
            .replace("at = \"0105\"", "at = \"0104\"")
    });
    let c = kessel(&["check", &path]);
    assert_ne!(c.code, 0, "{}", c.stdout);
    assert!(
        c.stderr.contains("third unit in hex 0104 [S3]"),
        "{}",
        c.stderr
    );
}

/// [S9] the game's first movement phase judges supply too (its first step is never advanced
/// into, so the `setup` hook runs the start-of-phase rules): a Crown unit set up far in the east
/// starts out of supply.
#[test]
fn the_third_system_judges_supply_before_the_first_move() {
    let path = edited("third_system_cut_off", |t| {
        t.replace("at = \"0102\"", "at = \"1108\"")
    });
    let q = kessel(&["query", &path, "supply", "unit=c1", "--json"]);
    assert_eq!(q.code, 0, "{}", q.stderr);
    let v: serde_json::Value = serde_json::from_str(&q.stdout).expect("json");
    assert_eq!(v["marked_out_of_supply"], true, "{}", q.stdout);
    let home = kessel(&["query", SCENARIO, "supply", "unit=c1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&home.stdout).expect("json");
    assert_eq!(v["marked_out_of_supply"], false, "{}", home.stdout);
}

/// The game plays to its last turn headless, with its own `ai` hook on both sides and with a
/// random player on one, under both profiles.
#[test]
fn the_third_system_plays_headless_to_the_end() {
    for args in [
        &["--games", "2"][..],
        &["--games", "2", "--ai", "league=random"][..],
        &[
            "--games",
            "2",
            "--profile",
            "winter",
            "--against-profile",
            "standard",
        ][..],
    ] {
        let mut all = vec!["simulate", SCENARIO, "--seed", "1", "--jobs", "1"];
        all.extend_from_slice(args);
        let r = kessel(&all);
        assert_eq!(r.code, 0, "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains("2 games, 2 finished"),
            "{args:?}: {}",
            r.stdout
        );
        assert!(!r.stderr.contains("warning"), "{args:?}: {}", r.stderr);
    }
}

/// A designer in the game's folder names its tests by relative paths: `kessel test tests`, a file
/// under it, or a file from inside tests/. Each starts from the scenario beside tests/ as
/// `kessel test .` does (these named no folder, found no scenario and failed the victory tests
/// with "not a hex of the map").
#[test]
fn the_third_system_tests_run_by_relative_paths_from_its_folder() {
    let dir = scratch("third_system_relative");
    kessel_test_support::copy_dir(&crate::util::root().join(DIR), &dir);
    let home = dir.join("home");
    for (at, args) in [
        (dir.clone(), &["test", "--quiet", "tests"][..]),
        (dir.clone(), &["test", "tests/victory_test.lua"][..]),
        (dir.join("tests"), &["test", "victory_test.lua"][..]),
    ] {
        let r = crate::util::kessel_at(&at, &home, args);
        assert_eq!(r.code, 0, "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(!r.stdout.contains("FAIL"), "{args:?}: {}", r.stdout);
        assert!(
            r.stdout.ends_with(" passed, 0 failed\n"),
            "{args:?}: {}",
            r.stdout
        );
    }
}
