//! `kessel map cut` and `kessel new scenario`: the hobbyist's way from the campaign map to a
//! scenario of their own (issue 13's Done-when, run for real).

use crate::util::{kessel, root, scratch, write};

#[test]
fn cut_then_new_scenario_checks_and_tests_clean_with_printed_labels() {
    let dir = scratch("cut-new");
    let map = dir.join("cut/map.toml");
    let map_s = map.to_string_lossy().into_owned();
    let r = kessel(&[
        "map",
        "cut",
        "scenarios/pgg/map.toml",
        "--from",
        "1918",
        "--to",
        "3431",
        "-o",
        &map_s,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("16×14 hexes, 1918 to 3431"),
        "{}",
        r.stdout
    );
    // a road that runs out of the region is cut, and the user is told
    assert!(
        r.stderr
            .contains("link `Smolensk–Yelnya road` is partly outside the region"),
        "{}",
        r.stderr
    );
    let text = std::fs::read_to_string(&map).expect("the cut map is written");
    assert!(
        text.contains("first_column = 19\nfirst_row = 18\n"),
        "{text}"
    );
    let cut_map = kessel_core::scenario::load_map(&map).expect("the cut map loads");
    assert!(cut_map.parse("1918").is_some() && cut_map.parse("3431").is_some());
    assert!(cut_map.parse("1817").is_none() && cut_map.parse("3532").is_none());
    assert!(cut_map.place("Roslavl").is_some(), "Roslavl lies inside");

    let scen_dir = dir.join("cut");
    let scen_s = scen_dir.to_string_lossy().into_owned();
    let ruleset = root().join("scripts/pgg");
    let r = kessel(&[
        "new",
        "scenario",
        &scen_s,
        "--map",
        &map_s,
        "--ruleset",
        &ruleset.to_string_lossy(),
        "--name",
        "Roslavl",
        "--turns",
        "4",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let scenario = std::fs::read_to_string(scen_dir.join("scenario.toml")).expect("written");
    // documented: every declared scenario variable is listed, none switched on
    assert!(
        scenario.contains("# provisional_reinforcements = …   # bool: [14.1]"),
        "{scenario}"
    );
    assert!(
        !scenario.contains("\nprovisional_reinforcements"),
        "{scenario}"
    );
    assert!(!scenario.contains("\nsouth_western_front"), "{scenario}");
    let check = kessel(&["check", &scen_dir.join("scenario.toml").to_string_lossy()]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(check.stdout.contains("turns      4"), "{}", check.stdout);
    // the example unit, its faces filled in as its comment says, checks as it is (its type
    // was PGG's leader, which also needs a rating: copied, it failed)
    assert!(
        scenario.contains(
            "# faces = [\"…\"]   # one a step, full strength first: attack-defence-movement"
        ),
        "{scenario}"
    );
    let example: String = scenario
        .lines()
        .skip_while(|l| *l != "# [[units]]")
        .take_while(|l| !l.is_empty())
        .map(|l| l.trim_start_matches("# ").replace("\"…\"", "\"2-2-6\""))
        .map(|l| l.split("   #").next().unwrap_or_default().to_string() + "\n")
        .collect();
    assert!(example.starts_with("[[units]]\n"), "{example}");
    let with_unit = scen_dir.join("with-unit.toml");
    std::fs::write(&with_unit, scenario.clone() + "\n" + &example).expect("write");
    let check = kessel(&["check", &with_unit.to_string_lossy()]);
    assert_eq!(check.code, 0, "{example}{}", check.stderr);
    assert!(check.stdout.contains("1 at set-up"), "{}", check.stdout);
    let info = kessel(&["info", &scen_dir.join("scenario.toml").to_string_lossy()]);
    assert_eq!(info.code, 0, "{}", info.stderr);
    let test = kessel(&["test", &scen_s]);
    assert_eq!(test.code, 0, "{}{}", test.stdout, test.stderr);
    assert!(
        test.stdout.ends_with("2 passed, 0 failed\n"),
        "{}",
        test.stdout
    );
    // the skeleton is never written over
    let again = kessel(&[
        "new",
        "scenario",
        &scen_s,
        "--map",
        &map_s,
        "--ruleset",
        &ruleset.to_string_lossy(),
    ]);
    assert_ne!(again.code, 0);
    assert!(again.stderr.contains("exists already"), "{}", again.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn map_cut_names_a_corner_that_is_not_on_the_map() {
    let dir = scratch("cut-bad");
    let out = dir.join("m.toml");
    let r = kessel(&[
        "map",
        "cut",
        "scenarios/pgg/map.toml",
        "--from",
        "1918",
        "--to",
        "6040",
        "-o",
        &out.to_string_lossy(),
    ]);
    assert_ne!(r.code, 0);
    assert!(
        r.stderr
            .contains("no hex 6040 on this map (its hexes run from 0101 to 5931)"),
        "{}",
        r.stderr
    );
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The campaign map gives two rivers one name (the Dnieper above and below Orsha): a cut that
/// keeps part of one and none of the other says which is which instead of reporting the Dnieper
/// both kept in part and left out.
#[test]
fn map_cut_tells_apart_two_features_of_one_name() {
    let dir = scratch("cut-twins");
    let out = dir.join("map.toml");
    let r = kessel(&[
        "map",
        "cut",
        "scenarios/pgg/map.toml",
        "--from",
        "0105",
        "--to",
        "1520",
        "-o",
        &out.to_string_lossy(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("hexside feature `Dnieper` is partly outside the region"),
        "{}",
        r.stderr
    );
    let dropped = r
        .stderr
        .lines()
        .find(|l| l.contains("hexside feature(s) wholly outside"))
        .expect("a line of features left out");
    assert!(
        dropped
            .contains("Dnieper (another hexside feature of that name, not the one kept in part)"),
        "{dropped}"
    );
}

/// `kessel new scenario` whose skeleton would not load (a map the ruleset cannot read, a turn
/// count over the limit) writes nothing: it used to leave the broken folder behind, and running
/// the command again, fixed, was refused as "exists already". A name that would break the files
/// it is written into (a line break) is refused before anything is written.
#[test]
fn a_new_scenario_that_would_not_load_leaves_nothing_behind() {
    let dir = scratch("new-nothing-behind");
    let target = dir.join("mine");
    let t = target.to_string_lossy().into_owned();
    let toy = root().join("core/tests/fixtures/toy");
    let toy_s = toy.to_string_lossy().into_owned();
    let pgg_map = root().join("scenarios/pgg/map.toml");
    for args in [
        vec![
            "new",
            "scenario",
            &t,
            "--map",
            pgg_map.to_str().expect("utf8"),
            "--ruleset",
            &toy_s,
        ],
        vec![
            "new",
            "scenario",
            &t,
            "--map",
            "core/tests/fixtures/toy/map.toml",
            "--ruleset",
            &toy_s,
            "--name",
            "x\"]\nevil = 1\n#",
        ],
    ] {
        let r = kessel(&args);
        assert_ne!(r.code, 0, "{args:?}: {}", r.stdout);
        assert!(
            r.stderr.contains("nothing was written") || r.stderr.contains("give it on one line"),
            "{args:?}: {}",
            r.stderr
        );
        let left: Vec<_> = std::fs::read_dir(&dir)
            .map(|d| d.flatten().map(|e| e.file_name()).collect())
            .unwrap_or_default();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
    let r = kessel(&[
        "new",
        "scenario",
        &t,
        "--map",
        "core/tests/fixtures/toy/map.toml",
        "--ruleset",
        &toy_s,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = kessel(&["check", &t]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// A folder named by way of one still to be made (`x/..`) is the folder the system writes in:
/// `new scenario x/..` beside a scenario wrote its skeleton over it (the check for a scenario
/// there looked at `x/../scenario.toml`, which did not resolve while `x` was missing).
#[test]
fn new_scenario_by_way_of_a_missing_folder_writes_over_nothing() {
    let dir = crate::util::toy_copy("new-over-dotdot");
    let home = crate::util::scratch("new-over-dotdot-home");
    let before = std::fs::read_to_string(dir.join("scenario.toml")).expect("read");
    let r = crate::util::kessel_at(
        &dir,
        &home,
        &[
            "new",
            "scenario",
            "x/..",
            "--map",
            "map.toml",
            "--ruleset",
            ".",
        ],
    );
    assert!(
        r.code != 0 && r.stderr.contains("x/../scenario.toml exists already"),
        "{}{}",
        r.stdout,
        r.stderr
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("scenario.toml")).expect("read"),
        before,
        "the scenario was written over"
    );
    assert!(
        !dir.join("special.lua").exists(),
        "a skeleton file was written"
    );
}

/// `--ruleset pgg`, as `--profile` takes a name: the error gives the folder to write instead of
/// "pgg: no ruleset here".
#[test]
fn a_ruleset_given_by_name_is_answered_with_its_folder() {
    let dir = scratch("new-by-name");
    let out = dir.join("mine");
    let r = kessel(&[
        "new",
        "scenario",
        &out.to_string_lossy(),
        "--map",
        "scenarios/yelnya/map.toml",
        "--ruleset",
        "pgg",
    ]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("a ruleset is given by its folder: scripts/pgg"),
        "{}",
        r.stderr
    );
    assert!(!out.exists(), "nothing written");
    let r = kessel(&["odds", "3", "1", "--ruleset", "pgg"]);
    assert!(r.stderr.contains("scripts/pgg"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A new scenario's special-rules file names the kinds of *its* ruleset that move units besides
/// `move` (it named PGG's `rail_move`, `overrun`, … whatever the ruleset), and its `[vars]`
/// comment says nothing of PGG's campaign mechanics.
#[test]
fn a_new_scenario_speaks_of_its_own_rulesets_kinds() {
    let dir = scratch("new-own-kinds");
    let target = dir.join("mine");
    let t = target.to_string_lossy().into_owned();
    let toy = root().join("core/tests/fixtures/toy");
    let r = kessel(&[
        "new",
        "scenario",
        &t,
        "--map",
        "core/tests/fixtures/toy/map.toml",
        "--ruleset",
        toy.to_str().expect("utf8"),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let special = std::fs::read_to_string(target.join("special.lua")).expect("special.lua");
    assert!(
        special.contains("this ruleset's other kinds: `attack`, `end_phase`, `entrench`"),
        "{special}"
    );
    assert!(!special.contains("rail_move"), "{special}");
    let scenario = std::fs::read_to_string(target.join("scenario.toml")).expect("scenario");
    assert!(!scenario.contains("calls on other fronts"), "{scenario}");
}

/// A scenario later in the campaign's calendar starts from the skeleton: `--first-turn` writes
/// `first_turn`, the game opens on that turn and ends on the last of its turns, and the skeleton
/// says where pools and markers go (a scenario that leaves markers out has none).
#[test]
fn a_new_scenario_may_start_later_in_the_calendar() {
    let dir = scratch("new-first-turn");
    let scen = dir.join("pocket");
    let scen_s = scen.to_string_lossy().into_owned();
    let r = kessel(&[
        "new",
        "scenario",
        &scen_s,
        "--map",
        "scenarios/pgg/map.toml",
        "--ruleset",
        "scripts/pgg",
        "--first-turn",
        "7",
        "--turns",
        "6",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(scen.join("scenario.toml")).expect("written");
    assert!(
        text.contains("\nfirst_turn = 7 ") && text.contains("it plays turns 7 to 12"),
        "{text}"
    );
    assert!(
        text.contains("# [[pools]]") && text.contains("# [[markers]]"),
        "{text}"
    );
    let probe = write(
        &dir,
        "turns.lua",
        "print(kessel.game.turn(), kessel.game.first_turn(), kessel.game.last_turn())\n",
    );
    let r = kessel(&["script", &probe.to_string_lossy(), "--scenario", &scen_s]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.trim(), "7\t7\t12");
    let r = kessel(&["test", &scen_s]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
}

/// `kessel new scenario DIR --extends BASE` writes a variant that extends the base (its path from
/// the new folder), loads as the base with another name, and is never written over; a base that
/// is no scenario writes nothing.
#[test]
fn new_scenario_extends_writes_a_variant_that_loads_as_its_base() {
    let dir = scratch("new-variant");
    let v = dir.join("v");
    let v_s = v.to_string_lossy().into_owned();
    let base = root().join("scenarios/pegasus-bridge/dawn.toml");
    let base_s = base.to_string_lossy().into_owned();
    let r = kessel(&["new", "scenario", &v_s, "--extends", &base_s]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(v.join("scenario.toml")).expect("written");
    assert!(
        text.contains("\nextends = \"") && text.contains("Extending a scenario"),
        "{text}"
    );
    let r = kessel(&["check", &v.join("scenario.toml").to_string_lossy()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(", varied") && r.stdout.contains("  extends    "),
        "{}",
        r.stdout
    );
    let r = kessel(&["new", "scenario", &v_s, "--extends", &base_s]);
    assert_ne!(r.code, 0);
    assert_eq!(
        std::fs::read_to_string(v.join("scenario.toml")).expect("kept"),
        text
    );
    let map = root().join("scenarios/pegasus-bridge/map.toml");
    let w = dir.join("w");
    let r = kessel(&[
        "new",
        "scenario",
        &w.to_string_lossy(),
        "--extends",
        &map.to_string_lossy(),
    ]);
    assert!(
        r.code != 0 && r.stderr.contains("not a scenario but a map"),
        "{}",
        r.stderr
    );
    assert!(!w.join("scenario.toml").exists());
}
