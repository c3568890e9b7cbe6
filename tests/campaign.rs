//! The bundled PGG campaign: `kessel check` agrees with the published counter and schedule facts,
//! and a scenario with a mistake is refused with its file, line and cause.

use crate::util::{kessel, root, scratch};

const CAMPAIGN: &str = "scenarios/pgg/campaign.toml";

#[test]
fn campaign_summary_matches_the_published_facts() {
    for profile in ["standard", "wbc2009"] {
        let r = kessel(&["check", CAMPAIGN, "--profile", profile]);
        assert_eq!(r.code, 0, "{profile}: {}", r.stderr);
        let out = &r.stdout;
        assert!(out.contains("59×31 hexes"), "{out}");
        assert!(out.contains("turns      12 (turn 1 to 12)"), "{out}");
        // 27 panzer-division regiments, 13 motorized, GD, Lehr, cavalry, 18 infantry divisions
        assert!(
            out.contains(
                "german     61 units (cavalry 1, infantry 18, motorized 15, panzer 9,\n             rifle_mot 18): 0 at set-up, 61 as reinforcements\n"
            ),
            "{out}"
        );
        assert!(out.lines().all(|l| l.chars().count() <= 100), "{out}");
        assert!(out.contains("infantry 18"), "{out}");
        // pgg-facts.md's Soviet set-up is 39 units (24th 7, 16th 7, 19th 5, 13th 9, 20th 11); the
        // turn-1 provisional division [14.1] comes after the German's initial air markers
        assert!(
            out.contains(
                "soviet     136 units (leader 15, rifle 110, tank 11): 39 at set-up, 75 as reinforcements"
            ),
            "{out}"
        );
        // 15 leaders; 78 rifle and 20 armoured untried counters in the pools
        assert!(out.contains("leader 15"), "{out}");
        assert!(out.contains("rifle: 78 counters"), "{out}");
        assert!(out.contains("armour: 20 counters"), "{out}");
        assert!(
            out.contains("12 objectives worth 150 VP, 6 levels"),
            "{out}"
        );
        assert!(out.contains(&format!("profile    {profile}")), "{out}");
        // the options that differ are listed whole, in lines a terminal shows (wbc2009's 18 made
        // one line of about 900 characters)
        let listed: Vec<&str> = out
            .lines()
            .skip_while(|l| !l.contains("profile    "))
            .collect();
        assert!(listed.iter().all(|l| l.chars().count() <= 100), "{out}");
        if profile == "wbc2009" {
            assert!(listed.len() > 2, "{out}");
            let text = listed.join(" ");
            for option in ["wbc09_01_retreat_priority=true", "vp_bidding=true"] {
                assert!(text.contains(option), "{option}: {out}");
            }
            assert!(text.trim_end().ends_with(')'), "{out}");
        }
    }
}

/// A copy of the campaign whose text is changed by `edit`, checked with `kessel check`.
fn check_broken(name: &str, edit: impl Fn(String) -> String) -> crate::util::Run {
    let path = crate::util::edited_campaign(name, edit);
    kessel(&["check", path.to_str().expect("utf8")])
}

/// [14.2] The German VP of each South-Western Front division come from the scenario's `swf_vp`
/// list, for the call and for the final score alike (the score used the printed 1 and 2 whatever
/// the list said); an entry that is no whole number of 0 or more is refused at `kessel check`.
#[test]
fn south_western_front_vp_follow_the_scenario_list() {
    let path = crate::util::edited_campaign("swf-vp", |t| {
        t.replacen(
            "swf_vp = [1, 1, 1, 1, 1, 2, 2, 2, 2, 2]",
            "swf_vp = [3, 3, 0]",
            1,
        )
    });
    let script = path.with_file_name("swf.lua");
    std::fs::write(
        &script,
        "local V = require(\"rules.victory\")\n\
         print(string.format(\"swf %d %d %d %d\", V.swf_vp(1), V.swf_vp(2), V.swf_vp(3), V.swf_vp(4)))\n",
    )
    .expect("script");
    let run = |scenario: &str| {
        let r = kessel(&[
            "script",
            script.to_str().expect("utf8"),
            "--scenario",
            scenario,
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
    };
    // 3, 3, 0, then 2 for any beyond the list
    assert!(run(path.to_str().expect("utf8")).contains("swf 3 6 6 8"));
    // the printed list: 1 each for the first five
    assert!(run(CAMPAIGN).contains("swf 1 2 3 4"));
    let r = check_broken("swf-vp-bad", |t| {
        t.replacen(
            "swf_vp = [1, 1, 1, 1, 1, 2, 2, 2, 2, 2]",
            "swf_vp = [1, 1.5]",
            1,
        )
    });
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains("swf_vp entry 2 is 1.5")
            && r.stderr.contains("a whole number from 0 to 1000 [14.2]"),
        "{}",
        r.stderr
    );
}

fn assert_refused(r: &crate::util::Run, needle: &str) {
    assert_ne!(r.code, 0, "expected a refusal mentioning {needle}");
    assert!(r.stderr.contains(needle), "{}", r.stderr);
    assert!(
        r.stderr.contains("campaign.toml:"),
        "names file and line: {}",
        r.stderr
    );
}

#[test]
fn unknown_hex_id_is_refused() {
    let r = check_broken("bad-hex", |t| {
        t.replacen("at = \"4015\"", "at = \"40x5\"", 1)
    });
    assert_refused(&r, "`40x5` is not a hex number");
}

#[test]
fn unit_placed_off_the_map_is_refused() {
    let r = check_broken("off-map", |t| {
        t.replacen("at = \"4015\"", "at = \"6015\"", 1)
    });
    assert_refused(&r, "placed off the map at 6015");
}

#[test]
fn overstacked_setup_is_refused() {
    let extra: String = (1..=4)
        .map(|i| {
            format!(
                "\n[[units]]\nid = \"extra-{i}\"\nside = \"soviet\"\ntype = \"rifle\"\nhidden = true\npool = \"rifle\"\nat = \"3020\"\n"
            )
        })
        .collect();
    let r = check_broken("overstack", |t| t + &extra);
    assert_refused(&r, "hex 3020 is overstacked at set-up");
}

/// [10.1] A leader rated outside 2 to 5 (the range the ruleset declares) is a mistake in the
/// scenario, refused at load with the unit and the range.
#[test]
fn leader_with_an_impossible_rating_is_refused() {
    let r = check_broken("bad-rating", |t| {
        t.replacen("attrs = { rating = 2 }", "attrs = { rating = 9 }", 1)
    });
    assert_refused(&r, "a leader's rating runs from 2 to 5 [10.1] (got 9)");
}

#[test]
fn unknown_unit_type_is_refused() {
    let r = check_broken("bad-type", |t| {
        t.replacen("type = \"panzer\"", "type = \"panzr\"", 1)
    });
    assert_refused(&r, "unknown unit type `panzr`");
    assert_refused(&r, "(did you mean `panzer`?)");
}

#[test]
fn reinforcement_after_the_last_turn_is_refused() {
    let r = check_broken("turn-13", |t| {
        t.replacen("enter = { turn = 9,", "enter = { turn = 13,", 1)
    });
    assert_refused(&r, "enters on turn 13, but the scenario has turns 1–12");
}

#[test]
fn learning_scenario_checks() {
    let r = kessel(&["check", "scenarios/pgg/learning.toml"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Race for Smolensk"));
}

#[test]
fn illegal_actions_from_a_script_are_refused_with_their_rule_case() {
    let r = kessel(&[
        "script",
        "scripts/pgg/examples/illegal_actions.lua",
        "--scenario",
        CAMPAIGN,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for needle in [
        "german move in the soviet phase: refused:",
        "[4]",
        "attack in the movement phase: refused:",
        "[9.1]",
        "retreat with nothing to retreat: refused:",
        "[9.72]",
        "move too far: refused:",
        "[6.1]",
    ] {
        assert!(r.stdout.contains(needle), "missing {needle}:\n{}", r.stdout);
    }
}

#[test]
fn simulated_games_finish_and_repeat_exactly() {
    let args = [
        "simulate",
        "scenarios/pgg/learning.toml",
        "--games",
        "3",
        "--seed",
        "1",
        "--verbose",
    ];
    let a = kessel(&args);
    assert_eq!(a.code, 0, "{}", a.stderr);
    for needle in [
        "profile standard: 3 games, 3 finished",
        "game length: 4.0 turns (4 to 4)",
        "  standard seed    1: turn  4,",
    ] {
        assert!(a.stdout.contains(needle), "{needle}: {}", a.stdout);
    }
    assert_eq!(kessel(&args).stdout, a.stdout, "same seeds, same games");
}

#[test]
fn a_simulated_campaign_game_reaches_the_end_of_turn_12() {
    let r = kessel(&[
        "simulate",
        CAMPAIGN,
        "--games",
        "1",
        "--seed",
        "1",
        "--verbose",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for needle in [
        "profile standard: 1 game, 1 finished",
        "game length: 12.0 turns (12 to 12)",
        "  german − soviet ",
    ] {
        assert!(r.stdout.contains(needle), "{needle}: {}", r.stdout);
    }
    // the campaign's six levels, in the scenario's rank order
    let levels: Vec<&str> = r
        .stdout
        .lines()
        .skip_while(|l| !l.contains("victory level"))
        .skip(1)
        .take_while(|l| !l.contains("VP "))
        .map(|l| l.trim().split("  ").next().unwrap_or(""))
        .collect();
    assert_eq!(
        levels,
        [
            "Soviet Decisive",
            "Soviet Strategic",
            "Soviet Marginal",
            "German Marginal",
            "German Strategic",
            "German Decisive"
        ],
        "{}",
        r.stdout
    );
}

#[test]
fn units_of_both_sides_in_one_hex_at_setup_are_refused() {
    // Yelnya starts with German units on the map; a Soviet rifle put in with one of them
    let dir = scratch("both-sides");
    kessel_test_support::copy_dir(&root().join("scenarios/yelnya"), &dir);
    let path = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&path).expect("yelnya");
    assert!(text.contains("at = \"3021\""), "a German unit at 3021");
    let ruleset = root().join("scripts/pgg");
    let text = text.replace(
        "ruleset = \"../../scripts/pgg\"",
        &format!("ruleset = {:?}", ruleset.to_str().expect("utf8")),
    );
    let intruder = "\n[[units]]\nid = \"intruder\"\nside = \"soviet\"\ntype = \"rifle\"\nfaces = [\"2-4-4\"]\nat = \"3021\"\n";
    std::fs::write(&path, text + intruder).expect("write");
    let r = crate::util::kessel(&["check", path.to_str().expect("utf8")]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("hex 3021 holds units of both sides at set-up")
            && r.stderr.contains("scenario.toml:"),
        "{}",
        r.stderr
    );
}

#[test]
fn check_names_the_data_problems_and_the_rules_problems_in_one_run() {
    // a unit off the map (the data), a hex with both sides in it (the rules' `check` hook) and a
    // broken special rule (a script): one `kessel check` lists all three
    let dir = scratch("every-problem");
    kessel_test_support::copy_dir(&root().join("scenarios/yelnya"), &dir);
    let path = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&path).expect("yelnya");
    let ruleset = root().join("scripts/pgg");
    let text = text.replace(
        "ruleset = \"../../scripts/pgg\"",
        &format!("ruleset = {:?}", ruleset.to_str().expect("utf8")),
    );
    let extra = "\n[[units]]\nid = \"intruder\"\nside = \"soviet\"\ntype = \"rifle\"\nfaces = [\"2-4-4\"]\nat = \"3021\"\n\n[[units]]\nid = \"lost\"\nside = \"soviet\"\ntype = \"rifle\"\nfaces = [\"2-4-4\"]\nat = \"9999\"\n";
    std::fs::write(&path, text + extra).expect("write");
    let r = crate::util::kessel(&["check", path.to_str().expect("utf8")]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    for needle in [
        "unit `lost` is placed off the map at 9999",
        "hex 3021 holds units of both sides at set-up",
    ] {
        assert!(r.stderr.contains(needle), "{needle}: {}", r.stderr);
    }
    let special = dir.join("special.lua");
    let lua = std::fs::read_to_string(&special).expect("special.lua");
    let broken_line = lua.lines().count() + 1;
    std::fs::write(&special, lua + "local x = nil + 1\n").expect("write");
    let r = crate::util::kessel(&["check", path.to_str().expect("utf8")]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("unit `lost` is placed off the map at 9999")
            && r.stderr.contains(&format!("special.lua:{broken_line}: "))
            && r.stderr.contains("arithmetic on a nil value"),
        "{}",
        r.stderr
    );
}

/// A campaign's game may be a scenario that extends another: the chain is checked, played and
/// verified as any game.
#[test]
fn a_campaign_game_may_extend_another_scenario() {
    let dir = scratch("campaign-extends");
    let pb = root().join("scenarios/pegasus-bridge");
    std::fs::create_dir_all(dir.join("v")).expect("mkdir");
    let base = pb.join("day1.toml").to_string_lossy().replace('\\', "/");
    std::fs::write(
        dir.join("v/day1.toml"),
        format!("[scenario]\nextends = {base:?}\nname = \"Day I, varied\"\n"),
    )
    .expect("write");
    let campaign = std::fs::read_to_string(pb.join("campaign.toml")).expect("campaign");
    let dawn = pb.join("dawn.toml").to_string_lossy().replace('\\', "/");
    let campaign = campaign
        .replace("scenario = \"dawn.toml\"", &format!("scenario = {dawn:?}"))
        .replace("scenario = \"day1.toml\"", "scenario = \"v/day1.toml\"");
    let file = dir.join("campaign.toml");
    std::fs::write(&file, campaign).expect("write");
    let file_s = file.to_string_lossy().into_owned();
    let r = kessel(&["check", &file_s]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("v/day1.toml: ok"), "{}", r.stdout);
    let save = dir.join("c.json").to_string_lossy().into_owned();
    let r = kessel(&["campaign", &file_s, "--save", &save]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("game 2/2: Day I"), "{}", r.stdout);
    let saved = std::fs::read_to_string(&save).expect("saved");
    assert!(saved.contains("v/day1.toml"), "the save names the variant");
    let r = kessel(&["campaign", "--verify", &save]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
}
