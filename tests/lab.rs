//! The balance lab: `kessel simulate --out/--shard/--until-ci/--ai` and `kessel report`.

use crate::util::{kessel, root, scratch, toy_copy, write};
use std::path::Path;

const TOY: &str = "core/tests/fixtures/toy/scenario.toml";
const LEARNING: &str = "scenarios/pgg/learning.toml";

fn s(p: &Path) -> &str {
    p.to_str().expect("utf8 path")
}

#[test]
fn shards_merge_to_exactly_one_run() {
    let dir = scratch("lab-shards");
    let (all, a, b) = (
        dir.join("all.jsonl"),
        dir.join("a.jsonl"),
        dir.join("b.jsonl"),
    );
    let base = [
        "simulate",
        LEARNING,
        "--games",
        "3",
        "--seed",
        "5",
        "--profile",
        "wbc2009",
        "--against-profile",
        "standard",
    ];
    let one = kessel(&[&base[..], &["--out", s(&all)]].concat());
    assert_eq!(one.code, 0, "{}", one.stderr);
    let r1 = kessel(&[&base[..], &["--out", s(&a), "--shard", "1/2"]].concat());
    assert_eq!(r1.code, 0, "{}", r1.stderr);
    let r2 = kessel(&[&base[..], &["--out", s(&b), "--shard", "2/2"]].concat());
    assert_eq!(r2.code, 0, "{}", r2.stderr);
    // the shards are interleaved slices: seeds 5 and 7, then 6
    assert!(
        r1.stdout.contains("4 games, 2 seeds (between 5 and 7)"),
        "{}",
        r1.stdout
    );
    assert!(
        r2.stdout.contains("2 games, 1 seed (6..6)"),
        "{}",
        r2.stdout
    );
    let merged = kessel(&["report", s(&a), s(&b)]);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    let single = kessel(&["report", s(&all)]);
    assert_eq!(single.code, 0, "{}", single.stderr);
    assert_eq!(
        merged.stdout, single.stdout,
        "merged shards = one run, byte for byte"
    );
    // and the report says what simulate said
    assert_eq!(single.stdout, one.stdout);
    for needle in [
        "6 games, 3 seeds (5..7) × 2 profiles",
        "profile wbc2009: 3 games, 3 finished",
        "paired wbc2009 − standard: 3 seeds finished under both",
        "verdict on german − soviet: ",
    ] {
        assert!(
            single.stdout.contains(needle),
            "{needle}: {}",
            single.stdout
        );
    }
    // the order of the files does not matter either
    assert_eq!(kessel(&["report", s(&b), s(&a)]).stdout, single.stdout);
    // every game record carries the per-turn data
    let text = std::fs::read_to_string(&all).expect("read");
    let games: Vec<serde_json::Value> = text
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(games.len(), 6);
    for g in &games {
        let turns = g["per_turn"].as_array().expect("per_turn");
        assert_eq!(turns.len(), 4, "{g}");
        assert!(turns[3]["scores"]["german"].is_number(), "{g}");
        assert!(turns[3]["control"].get("Smolensk").is_some(), "{g}");
        assert!(g["losses"]["soviet"]["eliminated"].is_number(), "{g}");
        let cpu = |k: &str| g[k].as_f64().expect("cpu");
        assert!(cpu("cpu_s") > 0.0, "{g}");
        // the AI's choices and the rules' work are parts of the game's CPU time
        assert!(cpu("choice_cpu_s") > 0.0 && cpu("rules_cpu_s") > 0.0, "{g}");
        assert!(
            cpu("choice_cpu_s") + cpu("rules_cpu_s") <= cpu("cpu_s") * 1.0001,
            "{g}"
        );
    }
}

/// Two shards played with a profile file edited in between: the report names the profile and
/// the option that differs. It said "another ruleset: toy (…), not toy (…)", since a ruleset's
/// hash covers its profiles, and a GM who had only flipped a line of his profile was left to guess.
#[test]
fn report_names_the_profile_edited_between_two_shards() {
    let dir = toy_copy("lab-profile-edited");
    let scenario = dir.join("scenario.toml");
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    let run = |out: &Path, shard: &str| {
        let r = kessel(&[
            "simulate",
            s(&scenario),
            "--games",
            "2",
            "--profile",
            "open",
            "--shard",
            shard,
            "--out",
            s(out),
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
    };
    run(&a, "1/2");
    let profile = dir.join("profiles/open.toml");
    let text = std::fs::read_to_string(&profile).expect("read");
    assert!(text.contains("stack_limit = 3"), "{text}");
    std::fs::write(&profile, text.replace("stack_limit = 3", "stack_limit = 4")).expect("write");
    run(&b, "2/2");
    let r = kessel(&["report", s(&a), s(&b)]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("profile `open` has other option values (stack_limit = 4 here, 3 there)"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("another ruleset"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn report_refuses_records_of_another_scenario_ruleset_or_engine() {
    let dir = scratch("lab-refuse");
    let a = dir.join("a.jsonl");
    let r = kessel(&["simulate", TOY, "--games", "4", "--out", s(&a)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(&a).expect("read");
    let header: serde_json::Value =
        serde_json::from_str(text.lines().next().expect("header")).expect("json");
    let edit = |name: &str, f: &dyn Fn(&mut serde_json::Value)| {
        let mut h = header.clone();
        // the seeds below are in the run's range (a run of 104 games, of which this file holds
        // the last four): a seed outside it is refused on its own
        h["seeds"]["games"] = (h["seeds"]["games"].as_u64().expect("games") + 100).into();
        f(&mut h);
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines[0] = h.to_string();
        // other seeds, so only the header can be the reason
        for l in lines.iter_mut().skip(1) {
            let mut g: serde_json::Value = serde_json::from_str(l).expect("json");
            g["seed"] = (g["seed"].as_u64().expect("seed") + 100).into();
            *l = g.to_string();
        }
        let p = dir.join(name);
        std::fs::write(&p, lines.join("\n")).expect("write");
        p
    };
    let ok = edit("ok.jsonl", &|_| {});
    let r = kessel(&["report", s(&a), s(&ok)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("8 games"), "{}", r.stdout);
    for (name, needle, f) in [
        (
            "ruleset.jsonl",
            "another ruleset",
            &(|h: &mut serde_json::Value| h["ruleset"]["hash"] = "0".into())
                as &dyn Fn(&mut serde_json::Value),
        ),
        (
            "scenario.jsonl",
            "another scenario",
            &|h: &mut serde_json::Value| h["scenario"]["hash"] = "0".into(),
        ),
        (
            "engine.jsonl",
            "made by kessel 0.0.1",
            &|h: &mut serde_json::Value| h["engine"] = "kessel 0.0.1".into(),
        ),
        (
            "options.jsonl",
            "profile `standard` has other option values",
            &|h: &mut serde_json::Value| h["profiles"][0]["options"]["x"] = 1.into(),
        ),
    ] {
        let bad = edit(name, f);
        let r = kessel(&["report", s(&a), s(&bad)]);
        assert_ne!(r.code, 0, "{name} accepted: {}", r.stdout);
        assert!(r.stderr.contains(needle), "{name}: {}", r.stderr);
        assert!(
            r.stderr.contains("cannot be merged"),
            "{name}: {}",
            r.stderr
        );
    }
    // the same shard twice would count its games twice
    let r = kessel(&["report", s(&a), s(&a)]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("is in both"), "{}", r.stderr);
    // a broken line is named by file and line
    let broken = dir.join("broken.jsonl");
    std::fs::write(&broken, format!("{text}{{not json\n")).expect("write");
    let r = kessel(&["report", s(&broken)]);
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains("broken.jsonl:6: not JSON"),
        "{}",
        r.stderr
    );
}

#[test]
fn the_html_report_is_self_contained_and_has_the_charts() {
    let dir = scratch("lab-html");
    let data = dir.join("d.jsonl");
    let html = dir.join("r.html");
    let r = kessel(&[
        "simulate",
        TOY,
        "--games",
        "8",
        "--against-profile",
        "open",
        "--out",
        s(&data),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = kessel(&["report", s(&data), "-o", s(&html)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let page = std::fs::read_to_string(&html).expect("html");
    assert!(page.starts_with("<!DOCTYPE html>"));
    for bad in [
        "http://", "https://", "<script", "<link", "src=", "@import", "url(",
    ] {
        assert!(!page.contains(bad), "the report refers to {bad}");
    }
    for chart in [
        "aria-label=\"victory levels\"",
        "aria-label=\"red − blue VP\"",
        "aria-label=\"standard\"",
        "aria-label=\"open\"",
        "aria-label=\"change in red − blue VP on the same seed\"",
    ] {
        assert!(page.contains(chart), "missing {chart}");
    }
    assert!(
        page.matches("<svg").count() >= 7,
        "levels, VP, 2 per-turn, paired, 2 maps"
    );
    // the objective map: Toytown's hex drawn and labelled
    assert!(page.contains("Toytown"), "objective map");
    assert!(page.contains("<h2>Objectives at the end</h2>"));
    // the options that differ say what they are: their case and description
    let profiles = page
        .split("<h2>Profiles</h2>")
        .nth(1)
        .expect("the profiles table");
    assert!(
        profiles.contains("<code>stack_limit</code><br><small>[T6] "),
        "{profiles}"
    );
    // the statistics text is in the page as printed
    let first = r.stdout.lines().next().expect("stats");
    assert!(page.contains(first), "{first}");
}

#[test]
fn until_ci_plays_until_the_interval_is_narrow_enough() {
    // the toy's two profiles play alike: the paired difference is 0 on every seed, so the first
    // round of 10 already resolves ±1 VP
    let r = kessel(&[
        "simulate",
        TOY,
        "--games",
        "50",
        "--against-profile",
        "open",
        "--until-ci",
        "1",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("--until-ci 1: reached ±0.0 VP after 10 seeds"),
        "{}",
        r.stdout
    );
    // the toy's own red − blue spread (red wins 2 of seeds 11..24) needs more games than the cap
    let r = kessel(&[
        "simulate",
        TOY,
        "--games",
        "14",
        "--seed",
        "11",
        "--until-ci",
        "0.5",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("stopped at the cap of 14 seeds"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("profile standard: 14 games"),
        "{}",
        r.stdout
    );
    let r = kessel(&["simulate", TOY, "--until-ci", "2", "--shard", "1/2"]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("--until-ci"), "{}", r.stderr);
}

#[test]
fn simulate_output_is_tidy() {
    let r = kessel(&[
        "simulate",
        TOY,
        "--games",
        "4",
        "-v",
        "--against-profile",
        "open",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // -v lines name their profile
    assert!(
        r.stdout.contains("  standard seed    1: turn"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("  open seed    1: turn"), "{}", r.stdout);
    // levels in the scenario's rank order (Blue win is declared first), not alphabetical
    let blue = r.stdout.find("Blue win").expect("blue");
    let red = r.stdout.find("Red win").expect("red");
    assert!(blue < red, "{}", r.stdout);
    // stderr is not a terminal here: no progress bar, only the timing line, on a line of its own
    assert!(!r.stderr.contains('['), "{}", r.stderr);
    assert!(r.stderr.starts_with('\n'), "{:?}", r.stderr);
    assert!(r.stderr.contains("CPU "), "{}", r.stderr);
    assert!(r.stdout.ends_with('\n'));
    // bad arguments are refused with their cause
    for (args, needle) in [
        (vec!["--shard", "3/2"], "K must be between 1 and N"),
        (vec!["--shard", "x"], "expected K/N"),
        (
            vec!["--ai", "green=random"],
            "no side `green` (sides: red, blue)",
        ),
        (vec!["--ai", "red=clever"], "unknown player `clever`"),
        (
            vec!["--ai", "red=ai:timd"],
            "no level `timd` (did you mean `timid`?) (levels: direct, timid",
        ),
        (
            vec!["--against-profile", "standard"],
            "the profile already played",
        ),
    ] {
        let r = kessel(&[&["simulate", TOY, "--games", "2"][..], &args[..]].concat());
        assert_ne!(r.code, 0, "{args:?}");
        assert!(r.stderr.contains(needle), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn a_random_player_is_recorded_and_changes_the_games() {
    let dir = scratch("lab-random");
    let out = dir.join("r.jsonl");
    let ai = kessel(&["simulate", TOY, "--games", "6", "-v"]);
    let random = kessel(&[
        "simulate",
        TOY,
        "--games",
        "6",
        "-v",
        "--ai",
        "red=random",
        "--out",
        s(&out),
    ]);
    assert_eq!(random.code, 0, "{}", random.stderr);
    assert!(
        random.stdout.contains("players: red=random"),
        "{}",
        random.stdout
    );
    assert_ne!(ai.stdout, random.stdout);
    let header: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&out)
            .expect("read")
            .lines()
            .next()
            .expect("header"),
    )
    .expect("json");
    assert_eq!(header["players"]["red"], "random");
    // the same seeds, the same random choices
    let again = kessel(&["simulate", TOY, "--games", "6", "-v", "--ai", "red=random"]);
    assert_eq!(again.stdout, random.stdout);
}

#[test]
fn a_side_played_at_another_ai_level_is_recorded_and_changes_the_games() {
    let dir = scratch("lab-level");
    let out = dir.join("l.jsonl");
    let default = kessel(&["simulate", TOY, "--games", "6", "-v"]);
    let named_default = kessel(&[
        "simulate",
        TOY,
        "--games",
        "6",
        "-v",
        "--ai",
        "red=ai:direct",
    ]);
    let timid = kessel(&[
        "simulate",
        TOY,
        "--games",
        "6",
        "-v",
        "--ai",
        "red=ai:timid",
        "--out",
        s(&out),
    ]);
    assert_eq!(timid.code, 0, "{}", timid.stderr);
    assert!(
        timid
            .stdout
            .contains("players: red=ai:timid (the other sides: the ruleset's AI at its default level `direct`)"),
        "{}",
        timid.stdout
    );
    // the toy's timid level never attacks: the games go otherwise
    assert_ne!(default.stdout, timid.stdout);
    let header: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&out)
            .expect("read")
            .lines()
            .next()
            .expect("header"),
    )
    .expect("json");
    assert_eq!(header["players"]["red"], "ai:timid");
    assert_eq!(header["ai_levels"], serde_json::json!(["direct", "timid"]));
    // naming the default level plays the same games as not naming it
    let games = |out: &str| {
        out.lines()
            .filter(|l| l.contains("seed"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(games(&named_default.stdout), games(&default.stdout));
}

#[test]
fn against_ai_plays_the_same_seeds_with_other_players_and_pairs_them() {
    let dir = scratch("lab-against-ai");
    let out = dir.join("a.jsonl");
    let r = kessel(&[
        "simulate",
        TOY,
        "--games",
        "8",
        "--ai",
        "red=ai:timid",
        "--against-ai",
        "red=ai:direct",
        "--out",
        s(&out),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("8 seeds (1..8) × 2 arms") && !r.stdout.contains("× 2 profiles"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("profile standard (red=ai:timid): 8 games"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("profile standard (red=ai:direct): 8 games"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("paired standard (red=ai:timid) − standard (red=ai:direct): 8 seeds"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("verdict on red − blue:"), "{}", r.stdout);
    assert!(
        r.stdout.contains("players: as named with each profile"),
        "{}",
        r.stdout
    );
    // the timid level never attacks, the direct one does: the arms really are played otherwise
    let attacks = |arm: &str| {
        let at = r.stdout.find(arm).expect("the arm's block");
        let block = &r.stdout[at..];
        let red = block.find("red actions per game:").expect("red's actions");
        let line = block[red..].lines().next().expect("a line").to_string();
        line.contains("attack")
    };
    assert!(!attacks("profile standard (red=ai:timid)"));
    assert!(attacks("profile standard (red=ai:direct)"));
    let text = std::fs::read_to_string(&out).expect("read");
    let header: serde_json::Value =
        serde_json::from_str(text.lines().next().expect("header")).expect("json");
    assert_eq!(header["profiles"][0]["players"]["red"], "ai:timid");
    assert_eq!(header["profiles"][1]["players"]["red"], "ai:direct");
    // the report of the data file pairs them the same way
    let report = kessel(&["report", s(&out)]);
    assert_eq!(report.code, 0, "{}", report.stderr);
    assert!(
        report.stdout.contains("paired standard (red=ai:timid)"),
        "{}",
        report.stdout
    );
    // refused: nothing to compare, or two comparisons at once
    for (args, needle) in [
        (
            vec!["--against-ai", "red=ai"],
            "these are the players already playing",
        ),
        (
            vec!["--against-ai", "red=random", "--against-profile", "p"],
            "give one",
        ),
        (vec!["--against-ai", "red=ai:nope"], "no level `nope`"),
    ] {
        let r = kessel(&[&["simulate", TOY, "--games", "2"][..], &args[..]].concat());
        assert_ne!(r.code, 0, "{args:?}");
        assert!(r.stderr.contains(needle), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn ai_variations_split_the_spread_between_the_dice_and_the_choices() {
    let dir = scratch("lab-variations");
    let out = dir.join("v.jsonl");
    let plain = kessel(&["simulate", TOY, "--games", "10", "-v"]);
    let r = kessel(&[
        "simulate",
        TOY,
        "--games",
        "10",
        "-v",
        "--ai-variations",
        "3",
        "--out",
        s(&out),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("each seed played 3 ways with the same dice"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("sd from the dice"), "{}", r.stdout);
    // the usual games are the same games as without --ai-variations
    let usual = |out: &str| {
        out.lines()
            .filter(|l| l.starts_with("  standard seed") && !l.contains(" way "))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(usual(&r.stdout), usual(&plain.stdout));
    assert!(r.stdout.contains("way 3:"), "{}", r.stdout);
    let text = std::fs::read_to_string(&out).expect("read");
    let header: serde_json::Value =
        serde_json::from_str(text.lines().next().expect("header")).expect("json");
    assert_eq!(header["variations"], 3);
    assert_eq!(text.lines().count(), 1 + 30);
    // the report says the same from the file
    let report = kessel(&["report", s(&out)]);
    assert_eq!(report.code, 0, "{}", report.stderr);
    let spread_line = |t: &str| {
        t.lines()
            .find(|l| l.contains("sd from the dice"))
            .map(str::to_string)
    };
    assert_eq!(spread_line(&report.stdout), spread_line(&r.stdout));
    for (args, needle) in [
        (vec!["--ai-variations", "1"], "give 2 or more"),
        (
            vec!["--ai-variations", "2", "--until-ci", "5"],
            "give one of them",
        ),
    ] {
        let r = kessel(&[&["simulate", TOY, "--games", "2"][..], &args[..]].concat());
        assert_ne!(r.code, 0, "{args:?}");
        assert!(r.stderr.contains(needle), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn the_report_opens_in_a_headless_browser() {
    // Chromium is optional on a developer's machine; where it is installed, the page must load
    // and show its charts without the network.
    let Some(chromium) = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| {
            std::process::Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
    else {
        eprintln!("no chromium: skipped");
        return;
    };
    let dir = scratch("lab-browser");
    let data = dir.join("d.jsonl");
    let html = dir.join("r.html");
    assert_eq!(
        kessel(&["simulate", TOY, "--games", "4", "--out", s(&data)]).code,
        0
    );
    assert_eq!(kessel(&["report", s(&data), "-o", s(&html)]).code, 0);
    let out = std::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--dump-dom",
            &format!("file://{}", root().join(&html).display()),
        ])
        .output()
        .expect("run chromium");
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(dom.contains("<svg"), "{dom}");
    assert!(dom.contains("Balance report: Toy battle"), "{dom}");
}

#[test]
fn the_computer_player_bids_for_the_german_side_under_wbc_bidding() {
    // WBC 2009 sides: both computer players bid up to the margin ai/book.lua says the German side
    // can take under the profile (about 60 VP in the campaign: the bid is the German's target);
    // before, they passed at once and the German side went for nothing
    let bids = bids_of("scenarios/pgg/campaign.toml", "wbc2009");
    assert!(
        bids.last().is_some_and(|l| l.contains(r#""pass":true"#)),
        "the bidding ends with a pass: {bids:?}"
    );
    let raises = raises_in(&bids);
    assert_eq!(raises.len() + 1, bids.len(), "a pass ends it: {bids:?}");
    assert!(raises.len() >= 2, "the players raise each other: {bids:?}");
    assert!(raises.windows(2).all(|w| w[0] < w[1]), "{bids:?}");
    let last = raises.last().copied().unwrap_or(0);
    assert!(
        (50..100).contains(&last),
        "the German side goes for about the margin it is worth: {bids:?}"
    );
}

/// The VP of each raise among `bids` (the JSON of `bid` actions), in order.
fn raises_in(bids: &[String]) -> Vec<u64> {
    bids.iter()
        .filter_map(|l| {
            let at = l.find(r#""vp":"#)? + 5;
            let digits: String = l[at..].chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect()
}

/// The bids of one traced game's pre-game, as the JSON of its `bid` actions.
fn bids_of(scenario: &str, profile: &str) -> Vec<String> {
    let r = kessel(&[
        "simulate",
        scenario,
        "--games",
        "1",
        "--profile",
        profile,
        "--max-actions",
        "60",
        "--trace",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.stdout
        .lines()
        .chain(r.stderr.lines())
        .filter(|l| l.contains(r#""kind":"bid""#))
        // the action alone, without the line's profile and seed
        .filter_map(|l| l.find('{').map(|i| l[i..].to_string()))
        .collect()
}

#[test]
fn the_computer_players_bid_follows_the_options_in_force_not_the_profiles_name() {
    // a tournament's new profile made from wbc2009 with one interpretation changed is priced
    // like wbc2009 (before, any unlisted name was priced like standard, which skewed a paired
    // comparison of the two by the difference of the bids)
    let dir = crate::util::scratch("bid-by-options");
    let wbc2009 = std::fs::read_to_string("scripts/pgg/profiles/wbc2009.toml").expect("wbc2009");
    let flipped = "wbc09_12_multiple_leaders = true";
    assert!(wbc2009.contains(flipped), "wbc2009 sets WBC09 #12");
    let wbc2010 = crate::util::write(
        &dir,
        "wbc2010.toml",
        &wbc2009.replacen(flipped, "wbc09_12_multiple_leaders = false", 1),
    );
    let campaign = "scenarios/pgg/campaign.toml";
    let old = bids_of(campaign, "wbc2009");
    let new = bids_of(campaign, wbc2010.to_str().expect("utf8"));
    assert!(old.len() > 3, "the players raise each other: {old:?}");
    assert_eq!(old, new, "the same bids under a profile one option away");
    // a scenario the book has not measured is bid at the margin where its first German level
    // starts, which leaves its levels as printed (the learning scenario: a German win from 1)
    let learning = bids_of("scenarios/pgg/learning.toml", "wbc2009");
    assert!(
        learning
            .last()
            .is_some_and(|l| l.contains(r#""pass":true"#)),
        "{learning:?}"
    );
    assert_eq!(raises_in(&learning).last(), Some(&1), "{learning:?}");
}

#[test]
fn simulate_refuses_no_games_and_seeds_past_the_last() {
    // `--games 0` printed a summary of nothing with "CPU -0.000 s per game"; a last seed past
    // 2^64 − 1 wrapped round to 0 in a release build (and overflowed in a debug one)
    for (args, needle) in [
        (
            vec!["--games", "0"],
            "--games 0: give how many games to play",
        ),
        (
            vec!["--games", "2", "--seed", "18446744073709551615"],
            "would run past 18446744073709551615",
        ),
    ] {
        let r = kessel(&[&["simulate", TOY][..], &args[..]].concat());
        assert_ne!(r.code, 0, "{args:?}");
        assert!(r.stderr.contains(needle), "{args:?}: {}", r.stderr);
    }
    // the last seed itself is a seed
    let r = kessel(&[
        "simulate",
        TOY,
        "--games",
        "1",
        "--seed",
        "18446744073709551615",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// `simulate` and `campaign` take the limits `script` takes (`--budget`, `--seconds`): a debug
/// build on a busy machine ran out of the fixed 10 s in one AI decision of the campaign, with no
/// way to give it more. The values reach the engine: a budget of one million instructions stops
/// the PGG rules as they load.
#[test]
fn simulate_and_campaign_take_the_call_limits() {
    let r = kessel(&[
        "simulate",
        "scenarios/pgg/learning.toml",
        "--games",
        "1",
        "--budget",
        "1",
    ]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    // (run out in the VM or by a native call's charge, whichever comes first as the rules load)
    assert!(
        r.stderr.contains("instruction budget exceeded")
            && r.stderr.contains("1 million instructions"),
        "{}",
        r.stderr
    );
    for verb in ["simulate", "campaign"] {
        let target = if verb == "simulate" {
            TOY
        } else {
            "scenarios/pegasus-bridge/campaign.toml"
        };
        let r = kessel(&[verb, target, "--seconds", "0"]);
        assert_ne!(r.code, 0, "{verb}: {}", r.stdout);
        assert!(
            r.stderr.contains("--seconds 0: give a number of seconds"),
            "{verb}: {}",
            r.stderr
        );
    }
    let r = kessel(&["simulate", TOY, "--games", "1", "--seconds", "60"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// A scenario that names the sides taking part (`sides = [...]`: Pegasus Bridge leaves the
/// ruleset's Russians out) has only those in the run's header, so the report's per-side tables
/// and the record checks do not list a side that never plays.
#[test]
fn the_header_lists_the_scenarios_sides_not_every_side_of_the_ruleset() {
    let dir = scratch("lab-sides");
    let out = dir.join("pb.jsonl");
    let r = kessel(&[
        "simulate",
        "scenarios/pegasus-bridge/dawn.toml",
        "--games",
        "1",
        "--out",
        s(&out),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(&out).expect("records written");
    let header: serde_json::Value =
        serde_json::from_str(text.lines().next().expect("a header line")).expect("json");
    assert_eq!(
        header["sides"],
        serde_json::json!(["german", "british"]),
        "{header}"
    );
    let report = kessel(&["report", s(&out)]);
    assert_eq!(report.code, 0, "{}", report.stderr);
    assert!(!report.stdout.contains("russian"), "{}", report.stdout);
}

/// A `result` hook naming a side, level or objective the game does not have, or answering
/// something that is no result, is refused at the hook's line when `simulate` asks it; the run
/// used to record it, and `kessel report` then refused the file simulate had written.
#[test]
fn a_result_naming_what_the_game_does_not_have_is_refused_at_the_hook() {
    for (answer, said) in [
        (
            "{ control = { Toytown = \"green\" } }",
            "`control.Toytown` = the string \"green\"",
        ),
        (
            "{ control = { Nowhere = \"red\" } }",
            "`Nowhere` is not an objective of the scenario (Toytown)",
        ),
        (
            "{ scores = { green = 3 } }",
            "`green` is not a side of this game (red, blue)",
        ),
        ("{ level = 5 }", "`level` = the number 5"),
        (
            "{ level = \"No such level\" }",
            "not a level of the scenario (Blue win, Red win)",
        ),
        ("\"won\"", "returned the string \"won\""),
        ("{ winner = \"red\" }", "a field `winner`"),
        // more measures than a data file keeps per turn, a name that breaks the listing
        (
            "(function() local m = {} for i = 1, 300 do m[\"m\" .. i] = i end return { metrics = m } end)()",
            "`metrics` holds 300 measures; a result reports at most 256",
        ),
        (
            "{ metrics = { [\"two\\nlines\"] = 1 } }",
            "a measure named \"two\\u{a}lines\"",
        ),
        // scores and measures bounded as a scenario's VP are (±1e9): -9.2e18 reached the
        // statistics
        (
            "{ scores = { red = math.mininteger } }",
            "`scores.red` = the number -9223372036854775808, out of range (at most ±1000000000)",
        ),
        (
            "{ scores = { red = 1e300 } }",
            "`scores.red` = the number 1e+300, out of range",
        ),
        (
            "{ metrics = { losses = -1000000001 } }",
            "`metrics.losses` = the number -1000000001, out of range",
        ),
    ] {
        let dir = toy_with_first_hook(
            "lab-result-hook",
            &format!("kessel.on(\"result\", function() return {answer} end)\n"),
        );
        let r = kessel(&["simulate", s(&dir.join("scenario.toml")), "--games", "1"]);
        assert_ne!(r.code, 0, "{answer}: {}", r.stdout);
        assert!(
            r.stderr
                .contains("hostile.lua:1: the result hook defined here returned")
                && r.stderr.contains(said),
            "{answer}: {}",
            r.stderr
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A computer player asking `legal` for a kind the ruleset does not have is told so at its line;
/// the empty list it got let it choose among the rest unawares.
#[test]
fn an_ai_asking_for_an_unknown_kind_is_told_so() {
    let dir = toy_with_first_hook(
        "lab-ai-kind",
        "kessel.on(\"ai\", function(legal) return legal(\"mvoe\")[1] end)\n",
    );
    let r = kessel(&["simulate", s(&dir.join("scenario.toml")), "--games", "1"]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains("hostile.lua:1")
            && r.stderr.contains(
                "legal(\"mvoe\"): the ruleset has no action kind of that name (its kinds: "
            ),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The functions handed to the ai hook answer for that decision only: kept in a global and
/// called from a rule, `tiebreak` drew the chooser's dice inside the game's rules (a game no
/// replay plays again), and `legal` and `view` ran at any later moment. Each now says so at the
/// line that called it, whether a rule or the next decision calls it.
#[test]
fn the_ai_hooks_functions_are_for_its_own_decision_only() {
    for (name, call) in [
        ("tiebreak", "KEPT(2)"),
        ("legal", "KEPT()"),
        ("view", "KEPT()"),
    ] {
        // called from a rule (line 6), or by the hook at its next decision (line 2)
        for (late, line) in [
            (
                format!("kessel.on(\"step_start\", function() if KEPT then {call} end end)"),
                6,
            ),
            (String::new(), 2),
        ] {
            let next = if late.is_empty() { call } else { "" };
            let dir = toy_with_first_hook(
                "lab-ai-kept",
                &format!(
                    "kessel.on(\"ai\", function(legal, kinds, view, level, tiebreak)\n  \
                     if KEPT then {next} end\n  \
                     KEPT = {name}\n  return nil\nend)\n{late}\n"
                ),
            );
            let r = kessel(&["simulate", s(&dir.join("scenario.toml")), "--games", "1"]);
            assert_ne!(r.code, 0, "{name} {late}: {}", r.stdout);
            assert!(
                r.stderr.contains(&format!("hostile.lua:{line}:"))
                    && r.stderr.contains(&format!(
                        "the ai hook's `{name}` was called after the hook returned"
                    ))
                    && !r.stderr.contains("panicked"),
                "{name} {late}: {}",
                r.stderr
            );
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

/// A copy of the toy whose `rules/hostile.lua` (`lua`) loads before its own rules, so the hooks it
/// registers come first (only the first `ai` and `result` hooks are used).
fn toy_with_first_hook(name: &str, lua: &str) -> std::path::PathBuf {
    let dir = crate::util::toy_copy(name);
    std::fs::write(dir.join("rules/hostile.lua"), lua).expect("write");
    let init = dir.join("init.lua");
    let text = std::fs::read_to_string(&init).expect("read").replacen(
        "require(\"rules.play\")",
        "require(\"rules.hostile\")\nrequire(\"rules.play\")",
        1,
    );
    std::fs::write(&init, text).expect("write");
    dir
}

/// The ruleset's hash in a data file's header is made of its own files: a link loop in its tests
/// folder (which `kessel test` walks once), a FIFO beside it, a link out of it and a hidden
/// folder are no part of it. The loop and the FIFO each made `simulate` refuse a ruleset it could
/// play; a link to `/` walked the file system. The hash of a plain folder is unchanged.
#[cfg(unix)]
#[test]
fn a_rulesets_hash_reads_its_own_files_only() {
    let elsewhere = scratch("lab-ruleset-hash-out");
    let hash = |dir: &std::path::Path| {
        let out = elsewhere.join("out.jsonl");
        let r = kessel(&[
            "simulate",
            s(&dir.join("scenario.toml")),
            "--games",
            "1",
            "--out",
            s(&out),
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let text = std::fs::read_to_string(&out).expect("read");
        std::fs::remove_file(&out).expect("remove");
        let header: serde_json::Value =
            serde_json::from_str(text.lines().next().expect("header")).expect("json");
        header["ruleset"]["hash"]
            .as_str()
            .expect("hash")
            .to_string()
    };
    let dir = crate::util::toy_copy("lab-ruleset-hash");
    let plain = hash(&dir);
    std::os::unix::fs::symlink("..", dir.join("tests/loop")).expect("symlink");
    std::os::unix::fs::symlink("/", dir.join("root")).expect("symlink");
    std::fs::create_dir(dir.join(".git")).expect("mkdir");
    std::fs::write(dir.join(".git/HEAD"), "ref: refs/heads/main\n").expect("write");
    let fifo = std::process::Command::new("mkfifo")
        .arg(dir.join("notes.fifo"))
        .status()
        .expect("mkfifo");
    assert!(fifo.success());
    assert_eq!(hash(&dir), plain);
}

#[test]
fn a_lua_profile_names_the_scripts_that_ran_and_leaves_the_games_as_they_were() {
    let dir = scratch("lab-lua-profile");
    let out = dir.join("prof.txt");
    let base = ["simulate", TOY, "--games", "3", "--seed", "2", "-j", "2"];
    let plain = kessel(&base);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    let profiled = kessel(&[&base[..], &["--lua-profile", s(&out)]].concat());
    assert_eq!(profiled.code, 0, "{}", profiled.stderr);
    // sampling watches the games, it does not change them
    assert_eq!(profiled.stdout, plain.stdout);
    assert!(
        profiled.stderr.contains("Lua profile written"),
        "{}",
        profiled.stderr
    );
    let report = std::fs::read_to_string(&out).expect("the report");
    assert!(report.starts_with("Lua profile: "), "{report}");
    // the toy's computer player and rules ran on both workers, and both are in the one report
    assert!(report.contains("toy/rules/play.lua:"), "{report}");
    assert!(report.contains("## Lines alone (self time)"), "{report}");
    // a second run replaces its own report, but nothing else of the user's
    let again = kessel(&[&base[..], &["--lua-profile", s(&out)]].concat());
    assert_eq!(again.code, 0, "{}", again.stderr);
    let notes = crate::util::write(&dir, "notes.txt", "my notes\n");
    let refused = kessel(&[&base[..], &["--lua-profile", s(&notes)]].concat());
    assert_ne!(refused.code, 0);
    assert!(refused.stderr.contains("Lua profile"), "{}", refused.stderr);
    assert_eq!(
        std::fs::read_to_string(&notes).expect("notes"),
        "my notes\n"
    );
}

#[test]
fn a_script_s_lua_profile_puts_its_hot_function_first() {
    let dir = scratch("script-lua-profile");
    let script = crate::util::write(
        &dir,
        "hot.lua",
        "local function hot(n)\n  local s = 0\n  for i = 1, n do s = s + i % 3 end\n  return s\nend\n\
         for _ = 1, 40 do hot(20000) end\nprint(\"done\")\n",
    );
    let out = dir.join("prof.txt");
    let r = kessel(&[
        "script",
        s(&script),
        "--ruleset",
        "core/tests/fixtures/toy",
        "--lua-profile",
        s(&out),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "done\n");
    let report = std::fs::read_to_string(&out).expect("the report");
    let self_lines = report
        .split("## Lines alone (self time)")
        .nth(1)
        .expect("a self-time table");
    let first = self_lines.lines().find(|l| l.contains('%')).expect("a row");
    assert!(first.ends_with("hot.lua:3"), "{report}");
}

#[test]
fn a_campaign_s_lua_profile_covers_its_games_and_is_written_when_it_fails_too() {
    let dir = scratch("campaign-lua-profile");
    let out = dir.join("prof.txt");
    let r = kessel(&[
        "campaign",
        "scenarios/pegasus-bridge/campaign.toml",
        "--lua-profile",
        s(&out),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let report = std::fs::read_to_string(&out).expect("the report");
    assert!(report.contains("scripts/asl-cg/rules/"), "{report}");
    // a run that fails still leaves what it sampled (here: nothing, said so)
    std::fs::remove_file(&out).expect("remove");
    let failed = kessel(&[
        "campaign",
        "no-such-campaign.toml",
        "--lua-profile",
        s(&out),
    ]);
    assert_ne!(failed.code, 0);
    let report = std::fs::read_to_string(&out).expect("a report of the failed run");
    assert!(report.starts_with("Lua profile: 0 samples"), "{report}");
}

/// PGG's `result` hook says who holds each objective by the rules [15]: every objective has a
/// holder from the first game-turn (the Soviet holds every city at the start), where the lab's
/// own reading (whose unit stood there last) left the empty ones to nobody.
#[test]
fn pgg_objectives_are_held_by_the_rules_in_the_lab_data() {
    let dir = scratch("lab-pgg-control");
    let out = dir.join("c.jsonl");
    let r = kessel(&[
        "simulate",
        "scenarios/pgg/campaign.toml",
        "--games",
        "1",
        "--max-actions",
        "150",
        "--out",
        s(&out),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(&out).expect("read");
    let game: serde_json::Value =
        serde_json::from_str(text.lines().nth(1).expect("a game")).expect("json");
    let first = &game["per_turn"][0]["control"];
    let control = first.as_object().expect("control");
    assert_eq!(control.len(), 12, "{first}");
    for (objective, side) in control {
        assert_eq!(side, "soviet", "{objective} on turn 1: {first}");
    }
}

/// A profile given by its file is named by the file's stem in the summary and the records (the
/// whole path was clipped at the left in the report's charts); two files of one stem keep their
/// paths, so the arms stay apart.
#[test]
fn a_profile_given_by_its_path_is_named_by_its_stem() {
    let dir = scratch("lab-profile-path");
    let out = dir.join("a.jsonl");
    let open = "core/tests/fixtures/toy/profiles/open.toml";
    let r = kessel(&[
        "simulate",
        TOY,
        "--games",
        "2",
        "--profile",
        open,
        "--against-profile",
        "standard",
        "--out",
        s(&out),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("profile open: 2 games"), "{}", r.stdout);
    assert!(!r.stdout.contains("fixtures/toy/profiles"), "{}", r.stdout);
    let data = std::fs::read_to_string(&out).expect("data");
    assert!(data.contains("\"name\":\"open\""), "{data}");
    // the same stem twice: the paths name them
    let copy = write(
        &dir,
        "other/open.toml",
        &std::fs::read_to_string(open).expect("open"),
    );
    // one game of `open` against another profile
    let against = |other: &str| {
        kessel(&[
            "simulate",
            TOY,
            "--games",
            "1",
            "--profile",
            open,
            "--against-profile",
            other,
        ])
    };
    let r = against(s(&copy));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(&format!("profile {open}: ")),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains(&format!("profile {}: ", s(&copy))),
        "{}",
        r.stdout
    );
    // one file written two ways is the profile already played
    let r = against("core/tests/fixtures/toy/profiles/../profiles/open.toml");
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains("is the profile already played"),
        "{}",
        r.stderr
    );
}
