//! Every ruleset's Lua rule tests (`kessel test`) run as part of `cargo test`, so one command runs
//! everything.

use crate::util::kessel;

fn run_rule_tests(path: &str) {
    let r = kessel(&["test", "--quiet", path]);
    let last = r.stdout.lines().last().unwrap_or("").to_string();
    assert_eq!(
        r.code, 0,
        "kessel test {path} failed:\n{}{}",
        r.stdout, r.stderr
    );
    assert!(last.ends_with("passed, 0 failed"), "{last}");
    let passed: usize = last
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(passed > 0, "no rule tests ran in {path}");
}

/// Runs a folder's Lua tests against a loaded scenario (`kessel test DIR --scenario FILE`), after
/// `kessel check FILE` when `check` is set; both must succeed. Returns what the tests printed.
fn scenario_tests(dir: &str, scenario: &str, check: bool) -> String {
    if check {
        let c = kessel(&["check", scenario]);
        assert_eq!(c.code, 0, "{}", c.stderr);
    }
    let r = kessel(&["test", dir, "--scenario", scenario]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    r.stdout
}

#[test]
fn toy_rule_tests_pass() {
    run_rule_tests("core/tests/fixtures/toy");
}

#[test]
fn pgg_rule_tests_pass() {
    run_rule_tests("scripts/pgg");
}

/// The campaign's data against the reference notes (order of battle, schedules, counter mixes,
/// objectives, map facts): Lua tests that read the loaded scenario.
#[test]
fn pgg_campaign_data_tests_pass() {
    let out = scenario_tests("scenarios/pgg/tests", "scenarios/pgg/campaign.toml", false);
    // (at least the eight data tests of this writing: a file dropped from the folder fails here)
    let passed = out
        .lines()
        .rev()
        .find_map(|l| l.strip_suffix(" passed, 0 failed"))
        .and_then(|n| n.trim().parse::<usize>().ok())
        .unwrap_or(0);
    assert!(passed >= 8, "{out}");
}

/// The learning scenario against its notes (victory levels at either Smolensk value) and the
/// campaign's counters.
#[test]
fn pgg_learning_data_tests_pass() {
    let out = scenario_tests(
        "scenarios/pgg/tests-learning",
        "scenarios/pgg/learning.toml",
        false,
    );
    assert!(out.contains("4 passed, 0 failed"), "{out}");
}

#[test]
fn asl_refit_phase_rule_tests_pass() {
    run_rule_tests("scripts/asl-cg");
}

#[test]
fn the_asl_refit_example_plays_headless_to_the_end() {
    let r = kessel(&[
        "simulate",
        "scripts/asl-cg/examples/refit/scenario.toml",
        "--seed",
        "1",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("10 finished"), "{}", r.stdout);
}

#[test]
fn the_guide_scenario_checks_and_its_special_rule_tests_pass() {
    let out = scenario_tests(
        "scenarios/yelnya/tests",
        "scenarios/yelnya/scenario.toml",
        true,
    );
    assert!(out.contains("case_Y1_bridge_down_on_turn_1"), "{out}");
}

#[test]
fn the_pegasus_bridge_battle_stand_in_tests_pass() {
    let out = scenario_tests(
        "scenarios/pegasus-bridge/tests",
        "scenarios/pegasus-bridge/dawn.toml",
        false,
    );
    assert!(out.contains("6 passed, 0 failed"), "{out}");
}

/// The Pegasus Bridge example: values its scenario file sets (who holds building II13 [9.61222])
/// reach the Refit Phase, checked by its own tests under `--scenario`.
#[test]
fn the_pegasus_bridge_refit_example_checks_and_its_tests_pass() {
    let out = scenario_tests(
        "scripts/asl-cg/examples/refit/tests",
        "scripts/asl-cg/examples/refit/scenario.toml",
        true,
    );
    assert!(out.contains("1 passed, 0 failed"), "{out}");
}

/// The Red Barricades example: values a scenario file sets (the Booby Trap Level [11.6123]) reach
/// the Refit Phase, checked by its own tests under `--scenario`.
#[test]
fn the_red_barricades_refit_example_checks_and_its_tests_pass() {
    let out = scenario_tests(
        "scripts/asl-cg/examples/refit-rb/tests",
        "scripts/asl-cg/examples/refit-rb/scenario.toml",
        true,
    );
    assert!(out.contains("3 passed, 0 failed"), "{out}");
}

/// The campaign of issue 11: Dawn is played, its Refit Phase runs, Day I starts with what carried
/// over (the Reinforcement Groups bought in the Refit Phase among it) and is played in turn; the
/// same seed prints the same, and the campaign save replays.
#[test]
fn the_pegasus_bridge_campaign_carries_from_dawn_to_day_i() {
    let campaign = "scenarios/pegasus-bridge/campaign.toml";
    let save = crate::util::scratch("pb-campaign").join("pb.json");
    let save = save.to_string_lossy().to_string();
    let a = kessel(&["campaign", campaign, "--seed", "1", "--save", &save]);
    assert_eq!(a.code, 0, "{}{}", a.stdout, a.stderr);
    let out = &a.stdout;
    assert!(out.contains("game 1/2: Dawn (seed 1)"), "{out}");
    assert!(out.contains("ended at turn 3 in `refit`"), "{out}");
    assert!(out.contains("game 2/2: Day I (seed 2)"), "{out}");
    let carried = out
        .split("carried over:")
        .nth(1)
        .and_then(|s| s.split("game 2/2").next())
        .expect("a carry report between the games");
    assert!(
        carried.contains("created: "),
        "RG bought in the RePh: {carried}"
    );
    assert!(carried.contains("changed: "), "{carried}");
    assert!(carried.contains("cpp = {\"german\":"), "{carried}");
    assert!(carried.contains("date = \"day_i\""), "{carried}");
    // each carried value says the step of play that last set it (a CG player read a bare SAN
    // or CPP total with nothing to tell the SAN adjustment or the purchase that made it)
    let rp = "turn 3, Refit Phase (Pegasus Bridge), ";
    for line in [
        "9.612 New CG Date and SAN Adjustment: date, previous_date, san",
        "9.617 Purchasing Reinforcement Groups: cpp",
        "9.618 RG Strength, Weapons and Leaders: rg_record",
    ] {
        assert!(
            carried.contains(&format!("    {rp}{line}\n")),
            "{line}: {carried}"
        );
    }
    // --json gives the same per game, for the variables the game set (the campaign names
    // `starshell_drm`, which Dawn's RePh never sets: nothing carries for it)
    let j = kessel(&["campaign", campaign, "--seed", "1", "--json"]);
    assert_eq!(j.code, 0, "{}", j.stderr);
    let v: serde_json::Value = serde_json::from_str(&j.stdout).expect("JSON");
    let set = &v["games"][0]["vars_last_set"];
    assert_eq!(
        set["cpp"].as_str(),
        Some("turn 3, Refit Phase (Pegasus Bridge), 9.617 Purchasing Reinforcement Groups"),
        "{set}"
    );
    assert!(set.get("starshell_drm").is_none(), "{set}");
    let end = out.split("at the end:").nth(1).expect("an end report");
    assert!(
        end.contains(
            "    as the game began (the scenario, or what the campaign carried in): san\n"
        ),
        "Day I's RePh left the SAN as it came in: {end}"
    );
    // the RG counters wait hidden from the British [9.617]; the ruleset's Russians take no part
    // in Pegasus Bridge (the scenarios' `sides`), so the report does not name them (it read
    // "hidden from british and russian")
    assert!(carried.contains("hidden from british"), "{carried}");
    assert!(!carried.contains("russian"), "{carried}");
    let b = kessel(&["campaign", campaign, "--seed", "1"]);
    let cut = |s: &str| {
        s.split("\ncampaign save")
            .next()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(cut(&a.stdout), cut(&b.stdout), "same seed, same campaign");
    let v = kessel(&["campaign", "--verify", &save]);
    assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
    assert!(v.stdout.contains("2 of 2 games replayed"), "{}", v.stdout);
}

/// A Pegasus Bridge campaign that carries every variable (`vars = "all"`) starts Day I without
/// Dawn's per-scenario records [9.605] [9.6162]: its casualty count is Day I's own. The Dawn
/// fight (seed 1) cost the British 1 CVP and the Germans 5, which the Day I fight added to (the
/// campaign ended with `{"british":1,"german":6}`), so 9.6162 would have compared two scenarios'
/// losses; the Day I fight alone costs the Germans 1.
#[test]
fn a_campaign_carrying_every_variable_starts_each_scenario_with_its_own_casualties() {
    let root = crate::util::root();
    let dir = crate::util::scratch("pb-campaign-all");
    let text = std::fs::read_to_string(root.join("scenarios/pegasus-bridge/campaign.toml"))
        .expect("campaign.toml");
    let scenarios = root.join("scenarios/pegasus-bridge");
    let text = text
        .lines()
        .map(|l| {
            if l.starts_with("vars = ") {
                "vars = \"all\"".to_string()
            } else if let Some(file) = l.strip_prefix("scenario = ") {
                let file = file.trim_matches('"');
                format!("scenario = {:?}", scenarios.join(file))
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let file = crate::util::write(&dir, "all.toml", &text);
    let a = kessel(&["campaign", &file.to_string_lossy(), "--seed", "1"]);
    assert_eq!(a.code, 0, "{}{}", a.stdout, a.stderr);
    let (carried, end) = a.stdout.split_once("at the end:").expect("an end report");
    assert!(
        carried.contains("cvp_lost = {\"british\":1,\"german\":5}"),
        "Dawn's casualties carry as a variable: {carried}"
    );
    // and the report says that Day I's rules dropped them as it began (it read as if they held)
    let dropped = carried
        .lines()
        .find(|l| l.starts_with("  dropped as the game began (its rules' setup cleared them): "))
        .unwrap_or_else(|| panic!("a dropped line: {carried}"));
    assert!(
        dropped.contains("cvp_lost") && dropped.contains("setup_areas"),
        "{dropped}"
    );
    assert!(!dropped.contains("date"), "the CG Date holds: {dropped}");
    assert!(
        end.contains("cvp_lost = {\"german\":1}"),
        "Day I's own casualties: {end}"
    );
}

/// The RB Refit Phase example's scenario, its ruleset and map named by absolute path, so a copy
/// of it loads from a scratch folder.
fn rb_example_anywhere(root: &std::path::Path) -> String {
    let text = std::fs::read_to_string(root.join("scripts/asl-cg/examples/refit-rb/scenario.toml"))
        .expect("the RB example");
    text.replace(
        "ruleset = \"../..\"",
        &format!("ruleset = {:?}", root.join("scripts/asl-cg")),
    )
    .replace(
        "map = \"../refit/map.toml\"",
        &format!(
            "map = {:?}",
            root.join("scripts/asl-cg/examples/refit/map.toml")
        ),
    )
}

/// An RB campaign of three CG Days played end to end [11.6031] [11.6142]: each scenario's winner
/// joins the CG record (`win_loss`) as its RePh determines it, the campaign carries the record with
/// the CPP, ELR, SAN, Booby Trap Level and weather, so the third RePh reads three scenarios (the
/// German 2:1, the Russian 1:2: the ratio at which the AFV Withdrawal drm applies); the save
/// replays game after game.
#[test]
fn a_red_barricades_campaign_carries_the_cg_record_day_after_day() {
    let root = crate::util::root();
    let dir = crate::util::scratch("rb-campaign-record");
    let text = rb_example_anywhere(&root);
    for (file, date, winner) in [
        ("d18.toml", "18oct", "german"),
        ("d19.toml", "19oct", "german"),
        ("d20.toml", "20oct", "russian"),
    ] {
        let day = text.replace(
            "date = \"18oct\"",
            &format!("date = \"{date}\"\nscenario_winner = \"{winner}\""),
        );
        assert_ne!(day, text, "the example names its CG Day");
        crate::util::write(&dir, file, &day);
    }
    let campaign = "name = \"rb\"\n[carry]\nunits = true\n\
                    vars = [\"date\", \"previous_date\", \"cpp_german\", \"cpp_russian\", \"elr\", \"elr_scenarios\", \
                    \"san\", \"booby_trap\", \"weather\", \"ec\", \"win_loss\"]\nmarkers = true\n\
                    [[game]]\nscenario = \"d18.toml\"\n[[game]]\nscenario = \"d19.toml\"\n\
                    [[game]]\nscenario = \"d20.toml\"\n";
    let file = crate::util::write(&dir, "campaign.toml", campaign);
    let save = dir.join("rb.json").to_string_lossy().to_string();
    let a = kessel(&[
        "campaign",
        &file.to_string_lossy(),
        "--seed",
        "1",
        "--save",
        &save,
    ]);
    assert_eq!(a.code, 0, "{}{}", a.stdout, a.stderr);
    let out = &a.stdout;
    for (n, record) in [
        (
            "game 2/3",
            "win_loss = {\"german\":{\"completed\":1,\"wins\":1},\"russian\":{\"completed\":1,\"losses\":1}}",
        ),
        (
            "game 3/3",
            "win_loss = {\"german\":{\"completed\":2,\"wins\":2},\"russian\":{\"completed\":2,\"losses\":2}}",
        ),
    ] {
        let before = out.split(n).next().expect("the report before the game");
        let carried = before.rsplit("carried over:").next().expect("a carry report");
        assert!(carried.contains(record), "{n}: {carried}");
    }
    let end = out.split("at the end:").nth(1).expect("an end report");
    assert!(
        end.contains("win_loss = {\"german\":{\"completed\":3,\"losses\":1,\"wins\":2},\"russian\":{\"completed\":3,\"losses\":2,\"wins\":1}}"),
        "{end}"
    );
    assert!(end.contains("date = \"21oct\""), "{end}");
    let v = kessel(&["campaign", "--verify", &save]);
    assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
    assert!(v.stdout.contains("3 of 3 games replayed"), "{}", v.stdout);
}

/// An RB campaign carrying every variable hands game 2 the Isolated Areas game 1's RePh recorded
/// (an empty list here); they are dropped as game 2 starts [11.606], so the record `kessel check`
/// looks at is game 2's own: one naming a hex the map lacks is refused at its line. Before, the
/// carried list was checked instead and the bad one went into play unchecked.
#[test]
fn a_campaign_checks_each_scenarios_own_isolated_areas_not_the_carried_ones() {
    let root = crate::util::root();
    let dir = crate::util::scratch("rb-campaign-all");
    let text = rb_example_anywhere(&root);
    crate::util::write(&dir, "good.toml", &text);
    let bad = text.replace(
        "booby_trap = \"A\"",
        "booby_trap = \"A\"\nisolated_areas = [{ hexes = [\"ZZ99\"] }]",
    );
    assert_ne!(bad, text, "the example names its Booby Trap Level");
    crate::util::write(&dir, "bad.toml", &bad);
    let campaign = "name = \"rb\"\n[carry]\nunits = true\nvars = \"all\"\n\
                    [[game]]\nscenario = \"good.toml\"\n[[game]]\nscenario = \"bad.toml\"\n";
    let file = crate::util::write(&dir, "campaign.toml", campaign);
    let a = kessel(&["campaign", &file.to_string_lossy(), "--seed", "1"]);
    assert_ne!(a.code, 0, "{}", a.stdout);
    let line = bad
        .lines()
        .position(|l| l.starts_with("isolated_areas"))
        .expect("the line")
        + 1;
    assert!(
        a.stderr.contains(&format!(
            "bad.toml:{line}: [11.606] isolated_areas[1]: `ZZ99` is not a hex of this map"
        )),
        "{}",
        a.stderr
    );
}

/// [11.6121] An Idle Day plays 11.612 again for a new CG Day: after an RB scenario of 18 Oct that
/// names its `next_date` (19 Oct), the Idle Day's pass moves the CG on to 20 Oct. Before, 11.612
/// cleared the spent `next_date`, the scenario's own showed through again, and the Idle Day
/// "moved" from 19 Oct to 19 Oct (its previous date 19 Oct too), for ever.
#[test]
fn an_idle_day_moves_past_the_next_date_a_scenario_names() {
    let root = crate::util::root();
    let dir = crate::util::scratch("rb-idle-next-date");
    let text = rb_example_anywhere(&root);
    let named = text.replace(
        "date = \"18oct\"",
        "date = \"18oct\"\nnext_date = \"19oct\"",
    );
    assert_ne!(named, text, "the example names its CG Day");
    let scenario = crate::util::write(&dir, "scenario.toml", &named);
    let script = crate::util::write(
        &dir,
        "idle.lua",
        "local function act(a) local ok, r = kessel.act(a); assert(ok, r and r.message) end\n\
         act{ kind = \"start_refit\" }\n\
         while kessel.game.step().id ~= \"scenario_generation\" do act{ kind = \"end_step\" } end\n\
         print(\"day \" .. kessel.game.var(\"date\"))\n\
         act{ kind = \"idle_day\", side = \"german\" }\n\
         act{ kind = \"end_step\" }\n\
         print(\"idle \" .. kessel.game.var(\"date\") .. \" after \" .. kessel.game.var(\"previous_date\"))\n",
    );
    let r = kessel(&[
        "script",
        &script.to_string_lossy(),
        "--scenario",
        &scenario.to_string_lossy(),
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("day 19oct"), "{}", r.stdout);
    assert!(r.stdout.contains("idle 20oct after 19oct"), "{}", r.stdout);
}

/// A scenario names the ruleset's sides that take part (`sides`): `kessel check` of a Pegasus
/// Bridge scenario lists the German and the British, not the ruleset's Russians ("russian 0
/// units"); a unit of a side left out is refused at its line, a `sides` naming no side of the
/// ruleset at its own, and a side left out has no view and takes no action.
#[test]
fn a_scenario_names_the_sides_that_take_part() {
    let root = crate::util::root();
    let c = kessel(&["check", "scenarios/pegasus-bridge/dawn.toml"]);
    assert_eq!(c.code, 0, "{}", c.stderr);
    assert!(c.stdout.contains("  german "), "{}", c.stdout);
    assert!(c.stdout.contains("  british "), "{}", c.stdout);
    assert!(!c.stdout.contains("russian"), "{}", c.stdout);
    let c = kessel(&["check", "scripts/asl-cg/examples/refit-rb/scenario.toml"]);
    assert_eq!(c.code, 0, "{}", c.stderr);
    assert!(c.stdout.contains("  russian "), "{}", c.stdout);
    assert!(!c.stdout.contains("british"), "{}", c.stdout);

    let dir = crate::util::scratch("scenario-sides");
    let text = std::fs::read_to_string(root.join("scenarios/pegasus-bridge/dawn.toml"))
        .expect("dawn.toml");
    let text = text
        .replace(
            "ruleset = \"../../scripts/asl-cg\"",
            &format!("ruleset = {:?}", root.join("scripts/asl-cg")),
        )
        .replace(
            "map = \"map.toml\"",
            &format!("map = {:?}", root.join("scenarios/pegasus-bridge/map.toml")),
        )
        .replace(
            "scripts = [\"battle.lua\"]",
            &format!(
                "scripts = [{:?}]",
                root.join("scenarios/pegasus-bridge/battle.lua")
            ),
        );
    let russian = format!("{text}\n[[units]]\nid = \"r1\"\nside = \"russian\"\ntype = \"squad\"\nfaces = [\"4-4-7\", \"2-3-7\"]\nat = \"J6\"\n");
    let file = crate::util::write(&dir, "russian.toml", &russian);
    let c = kessel(&["check", &file.to_string_lossy()]);
    assert_ne!(c.code, 0, "{}", c.stdout);
    let line = russian
        .lines()
        .position(|l| l == "id = \"r1\"")
        .expect("r1");
    assert!(
        c.stderr.contains(&format!(
            "russian.toml:{line}: unit `r1`: `russian`, a side that takes no part in this scenario (its `sides`: german, british)"
        )),
        "{}",
        c.stderr
    );
    let wrong = text.replace(
        "sides = [\"german\", \"british\"]",
        "sides = [\"german\", \"brtish\"]",
    );
    let file = crate::util::write(&dir, "wrong.toml", &wrong);
    let c = kessel(&["check", &file.to_string_lossy()]);
    assert_ne!(c.code, 0, "{}", c.stdout);
    assert!(
        c.stderr.contains("`sides` names `brtish`, not a side") && c.stderr.contains("british"),
        "{}",
        c.stderr
    );
    let twice = text.replace(
        "sides = [\"german\", \"british\"]",
        "sides = [\"german\", \"german\"]",
    );
    let file = crate::util::write(&dir, "twice.toml", &twice);
    let c = kessel(&["check", &file.to_string_lossy()]);
    assert_ne!(c.code, 0, "{}", c.stdout);
    assert!(
        c.stderr.contains("`sides` names `german` twice"),
        "{}",
        c.stderr
    );

    // a side left out has no view of the game
    let v = kessel(&[
        "view",
        "scenarios/pegasus-bridge/dawn.toml",
        "--as",
        "british",
    ]);
    assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
    let v = kessel(&[
        "view",
        "scenarios/pegasus-bridge/dawn.toml",
        "--as",
        "russian",
    ]);
    assert_ne!(v.code, 0, "{}", v.stdout);
    assert!(v.stderr.contains("russian"), "{}", v.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}
