//! Errors point at the modder's own file and line, whichever ruleset is loaded and however the
//! error was raised.

use crate::util::{kessel, scratch, toy_copy, write};

fn script_on(ruleset: &str, name: &str, body: &str) -> crate::util::Run {
    let dir = scratch(name);
    let file = write(&dir, &format!("{name}.lua"), body);
    kessel(&["script", file.to_str().expect("utf8"), "--ruleset", ruleset])
}

#[test]
fn an_api_error_names_the_callers_line_under_every_ruleset() {
    for ruleset in ["scripts/pgg", "core/tests/fixtures/toy"] {
        let r = script_on(
            ruleset,
            "badhex",
            "-- a position\nlocal x = 1\nlocal us = kessel.units.at(\"9999\")\n",
        );
        assert_ne!(r.code, 0);
        assert!(
            r.stderr.contains("badhex.lua:3:") && r.stderr.contains("9999"),
            "{ruleset}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("common.lua"), "{}", r.stderr);
    }
}

#[test]
fn errors_that_are_not_messages_still_name_their_file_and_line() {
    for (name, body, needle) in [
        (
            "level0",
            "local x = 1\nerror('no position', 0)\n",
            "no position",
        ),
        (
            "tableerr",
            "local x = 1\nerror({ code = 3 })\n",
            "error object (a table",
        ),
        ("nilerr", "local x = 1\nerror()\n", "no message"),
        (
            "tostringerr",
            "local x = 1\nerror(setmetatable({}, { __tostring = function() return 'custom' end }))\n",
            "custom",
        ),
    ] {
        let r = script_on("core/tests/fixtures/toy", name, body);
        assert_ne!(r.code, 0);
        assert!(
            // each raises on line 2 with no position in the error value itself: a value that
            // is no message is blamed on that line, a message raised at level 0 names the file
            r.stderr.contains(&format!("{name}.lua"))
                && (r.stderr.contains(&format!("{name}.lua:2:"))
                    || ["level0", "tostringerr"].contains(&name))
                && r.stderr.contains(needle),
            "{name}: {}",
            r.stderr
        );
        assert!(
            !r.stderr.contains("0x"),
            "no address in {name}: {}",
            r.stderr
        );
    }
}

#[test]
fn a_bad_movement_cost_fails_at_its_declaration() {
    for (bad, needle) in [
        ("clear = \"slow\",", "terrain.clear"),
        ("clear = -1,", "MP from 0 to"),
    ] {
        let dir = toy_copy(&format!("badcost-{}", bad.len()));
        let init = dir.join("init.lua");
        let text = std::fs::read_to_string(&init).expect("read");
        let line = text
            .lines()
            .position(|l| l.contains("kessel.movement"))
            .expect("the toy declares movement")
            + 1;
        let at = text.find("kessel.movement{").expect("declaration");
        let (head, tail) = text.split_at(at);
        assert!(tail.contains("clear = 1,"), "the toy's clear cost");
        let broken = format!("{head}{}", tail.replacen("clear = 1,", bad, 1));
        std::fs::write(&init, broken).expect("write");
        let r = kessel(&["check", dir.join("scenario.toml").to_str().expect("utf8")]);
        assert_ne!(r.code, 0);
        assert!(
            r.stderr.contains(&format!("init.lua:{line}:")) && r.stderr.contains(needle),
            "{bad}: {}",
            r.stderr
        );
    }
}

#[test]
fn a_misspelt_api_name_fails_where_it_is_written_with_a_suggestion() {
    for (name, body, wanted) in [
        (
            "unitget",
            "local x = 1\nlocal u = kessel.unit.get(\"r1\")\n",
            "`kessel.units`",
        ),
        (
            "gett",
            "local x = 1\nlocal u = kessel.units.gett(\"r1\")\n",
            "`kessel.units.get`",
        ),
    ] {
        let r = script_on("core/tests/fixtures/toy", name, body);
        assert_ne!(r.code, 0);
        assert!(
            r.stderr.contains(&format!("{name}.lua:2:")) && r.stderr.contains(wanted),
            "{name}: {}",
            r.stderr
        );
    }
}

#[test]
fn a_misspelt_setup_field_fails_with_a_suggestion() {
    let r = script_on(
        "core/tests/fixtures/toy",
        "setupkey",
        "local x = 1\nkessel.setup{ map = { columns = 5, rows = 5 },\n  units = { { id = \"r\", sied = \"red\", type = \"inf\", faces = { \"3-3-4\" }, at = \"0101\" } } }\n",
    );
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains("setupkey.lua:2:")
            && r.stderr.contains("unknown field `sied`")
            && r.stderr.contains("did you mean `side`"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_misspelt_profile_lists_the_rulesets_profiles_with_a_suggestion() {
    let scenario = "core/tests/fixtures/toy/scenario.toml";
    for args in [
        vec!["rules", scenario, "--profile", "standrd"],
        vec!["check", scenario, "--profile", "standrd"],
    ] {
        let r = kessel(&args);
        assert_ne!(r.code, 0, "{args:?}");
        assert!(
            r.stderr.contains("unknown profile `standrd`")
                && r.stderr.contains("the ruleset has: open, standard")
                && r.stderr.contains("did you mean `standard`"),
            "{args:?}: {}",
            r.stderr
        );
    }
}

#[test]
fn a_value_of_the_wrong_type_is_named_in_words_not_rust_types() {
    let dir = toy_copy("wrong-type-vp");
    let scenario = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("toy scenario");
    assert!(text.contains("vp = 10"), "the toy's objective");
    std::fs::write(&scenario, text.replacen("vp = 10", "vp = \"ten\"", 1)).expect("write");
    let r = kessel(&["check", scenario.to_str().expect("utf8")]);
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains("expected a whole number") && !r.stderr.contains("i64"),
        "{}",
        r.stderr
    );
}

/// A `check` hook's problem may point at a scenario variable (`var =`) or a marker (`marker =`):
/// the error names that line of the scenario. PGG's South-Western Front with an entry area the
/// map lacks was said with no line.
#[test]
fn a_check_problem_points_at_the_variable_or_marker_it_names() {
    let dir = crate::util::toy_copy("check-var-line");
    let init = dir.join("init.lua");
    let rules = std::fs::read_to_string(&init).expect("toy init");
    std::fs::write(
        &init,
        rules
            + "\nkessel.on(\"check\", function()\n\
               if kessel.scenario.name() == nil then return nil end\n\
               return { { var = \"entry\", message = \"entry names no area\" },\n\
               { marker = 0, message = \"marker 0 is out of place\" } }\nend)\n",
    )
    .expect("write");
    let scenario = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("toy scenario");
    let text = format!(
        "{text}\n[[markers]]\nkind = \"mine\"\nside = \"red\"\nat = \"0404\"\n\n[vars]\nother = 1\nentry = \"Q\"\n"
    );
    std::fs::write(&scenario, &text).expect("write");
    let line_of = |needle: &str| {
        text.lines()
            .position(|l| l.starts_with(needle))
            .map(|i| i + 1)
            .expect(needle)
    };
    let r = crate::util::kessel(&["check", scenario.to_str().expect("utf8")]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    for (line, said) in [
        (line_of("entry = "), "entry names no area"),
        (line_of("[[markers]]"), "marker 0 is out of place"),
    ] {
        assert!(
            r.stderr.contains(&format!("scenario.toml:{line}: {said}")),
            "{said} at {line}: {}",
            r.stderr
        );
    }

    // PGG: the South-Western Front's entry area
    let file = crate::util::edited_campaign("check-var-line-pgg", |t| {
        t.replace("swf_area = \"Z\"", "swf_area = \"ZZ\"")
    });
    let line = std::fs::read_to_string(&file)
        .expect("campaign")
        .lines()
        .position(|l| l.starts_with("swf_area = "))
        .expect("swf_area")
        + 1;
    let r = crate::util::kessel(&["check", file.to_str().expect("utf8")]);
    assert!(
        r.stderr
            .contains(&format!("campaign.toml:{line}: south_western_front is on [14.2] but the map has no entry area ZZ")),
        "{}",
        r.stderr
    );
}

/// A results table's column that is not two whole numbers is said as such at its declaration
/// (it was the parser's "invalid digit found in string").
#[test]
fn a_results_table_column_that_is_no_ratio_is_named() {
    let dir = crate::util::toy_copy("results-table-column");
    let init = dir.join("init.lua");
    let rules = std::fs::read_to_string(&init).expect("toy init");
    let lines = rules.lines().count();
    std::fs::write(
        &init,
        rules
            + "\nkessel.results_table{ id = \"bad\", kind = \"ratio\", columns = { \"1-1\", \"x-1\" },\n\
               rows = { { \"A\", \"D\" } } }\n",
    )
    .expect("write");
    let r = crate::util::kessel(&["check", dir.join("scenario.toml").to_str().expect("utf8")]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains(&format!("init.lua:{}:", lines + 2))
            && r.stderr
                .contains("column `x-1` is not A-D, two whole numbers such as 3-1"),
        "{}",
        r.stderr
    );
}

/// A hidden unit's pool that no `[[pools]]` table declares is said with what the file declares
/// and how to declare one (a scenario cut from the campaign map starts with none, and "unknown
/// pool" alone left a newcomer looking for it in the ruleset).
#[test]
fn an_unknown_pool_says_what_the_file_declares_and_how_to_declare_one() {
    let dir = crate::util::toy_copy("unknown-pool");
    let scenario = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("toy scenario")
        + "\n[[units]]\nid = \"r9\"\nside = \"red\"\ntype = \"inf\"\nhidden = true\npool = \"rifle\"\nat = \"0303\"\n";
    std::fs::write(&scenario, &text).expect("write");
    let line = text
        .lines()
        .position(|l| l.starts_with("pool = "))
        .expect("the pool line")
        + 1;
    let r = crate::util::kessel(&["check", scenario.to_str().expect("utf8")]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains(&format!(
            "scenario.toml:{line}: unknown pool `rifle` (this file declares no pools): a `[[pools]]` table"
        )),
        "{}",
        r.stderr
    );
}

/// A file that is not there is said at the line of the file that names it: a scenario's `map`
/// and a campaign game's `scenario` were said at the missing path alone ("nomap.toml: cannot
/// read map"), with no word of which file, or which line, named it.
#[test]
fn a_missing_file_is_said_at_the_line_that_names_it() {
    let dir = toy_copy("missing-named");
    let scenario = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("toy scenario");
    let edited = text.replace("map = \"map.toml\"", "map = \"nomap.toml\"");
    assert_ne!(edited, text);
    std::fs::write(&scenario, edited).expect("write");
    let r = kessel(&["check", scenario.to_str().expect("utf8")]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains("scenario.toml:5: `map` names ")
            && r.stderr
                .contains("nomap.toml, which cannot be read: no such file"),
        "{}",
        r.stderr
    );
    std::fs::write(&scenario, text).expect("put the scenario back");
    let campaign = write(
        &dir,
        "campaign.toml",
        "name = \"c\"\n[[game]]\nscenario = \"scenario.toml\"\n[[game]]\nscenario = \"nosuch.toml\"\n",
    );
    let r = kessel(&["check", campaign.to_str().expect("utf8")]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("campaign.toml:5: game 2 `scenario`: `nosuch.toml` is not there"),
        "{}",
        r.stderr
    );
}
