//! Hostile data files the engine reads whole (campaigns, saves, lab data): each is bounded before
//! or while it is parsed, and one over its limit is refused with the limit, the file and the
//! line, before a parser turns a few megabytes of text into gigabytes of nodes.

/// A scenario, map, profile or campaign of more than 100,000 values is refused before it is
/// parsed: a campaign of 200,000 games (16 MB) took 390 MB to parse before its game count was
/// refused, and a scenario holding a 50 MB list of numbers took 4.7 GB and passed `kessel check`.
#[test]
fn a_campaign_of_too_many_games_is_refused_before_it_is_parsed() {
    let dir = crate::util::toy_copy("bounds-campaign");
    let games = "[[game]]\nscenario = \"scenario.toml\"\n".repeat(60_000);
    let chain = crate::util::write(&dir, "chain.toml", &format!("name = \"x\"\n{games}"));
    let r = crate::util::kessel(&["campaign", chain.to_str().expect("utf8"), "--seed", "1"]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    // three values a game and two for the name: the limit is passed at game 33,333's
    // `scenario =`, on line 66,667
    assert!(
        r.stderr.contains("chain.toml:66667")
            && r.stderr.contains("more than 100000 values")
            && r.stderr.contains("remove what was repeated"),
        "{}",
        r.stderr
    );
}

/// A scenario is allowed more values than a campaign (100,000 markers, 20,000 units), but not
/// without bound: a 50 MB list in its `[vars]` took 4.7 GB and passed `kessel check`.
#[test]
fn a_scenario_of_too_many_values_is_refused_before_it_is_parsed() {
    let dir = crate::util::toy_copy("bounds-scenario");
    let scenario = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("toy scenario");
    let padded = format!("junk = [{}1]\n{text}", "1,".repeat(500_000));
    std::fs::write(&scenario, padded).expect("write");
    let r = crate::util::kessel(&["check", scenario.to_str().expect("utf8")]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("scenario.toml:1: more than 500000 values"),
        "{}",
        r.stderr
    );
}

/// A save made by `kessel script --save` in a toy copy named `name`: its path and JSON.
fn toy_save(name: &str) -> (std::path::PathBuf, serde_json::Value) {
    let dir = crate::util::toy_copy(name);
    let play = crate::util::write(
        &dir,
        "play.lua",
        "for i = 1, 5 do local a = kessel.legal() if #a == 0 then break end kessel.act(a[1]) end\n",
    );
    let save = dir.join("game.json");
    let r = crate::util::kessel(&[
        "script",
        play.to_str().expect("utf8"),
        "--scenario",
        dir.join("scenario.toml").to_str().expect("utf8"),
        "--save",
        save.to_str().expect("utf8"),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let json = serde_json::from_str(&std::fs::read_to_string(&save).expect("save written"))
        .expect("save is JSON");
    (save, json)
}

/// A save whose log was padded by hand with millions of values (1.7 GB to parse a 50 MB save)
/// is refused before it is parsed, by every command that loads a save.
#[test]
fn a_save_of_too_many_values_is_refused_before_it_is_parsed() {
    let (save, mut json) = toy_save("bounds-save");
    let log = json["log"].as_array_mut().expect("a log");
    assert!(!log.is_empty(), "the toy script played");
    log[0]["action"]["params"]["junk"] = serde_json::Value::from(vec![1; 2_000_001]);
    json.as_object_mut().expect("object").remove("checksum");
    // one value a line, so the line named is the value that passes the limit
    let text = serde_json::to_string_pretty(&json).expect("json");
    std::fs::write(&save, &text).expect("edit save");
    let s = save.to_str().expect("utf8");
    for args in [
        vec!["view", s, "--as", "red"],
        vec!["campaign", "--verify", s],
    ] {
        let r = crate::util::kessel(&args);
        assert_ne!(r.code, 0, "{args:?}: {}", r.stdout);
        assert!(
            r.stderr.contains("game.json:")
                && r.stderr.contains("save holds more than 2000000 values")
                && r.stderr.contains("take it from a copy"),
            "{args:?}: {}",
            r.stderr
        );
    }
}

/// One game's save given to `campaign --verify` says what it is, not that a field `campaign` is
/// missing.
#[test]
fn a_game_save_given_as_a_campaign_save_says_what_it_is() {
    let (save, _json) = toy_save("verify-game-save");
    let r = crate::util::kessel(&["campaign", "--verify", save.to_str().expect("utf8")]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains("one game's save, not a campaign save")
            && !r.stderr.contains("missing field"),
        "{}",
        r.stderr
    );
}

/// `--game N` picks a game of a campaign save; a scenario, a map or a JSON file that is no save
/// given with it is said as what it is (each was called "one game's save").
#[test]
fn a_game_number_with_a_file_that_is_no_save_says_what_the_file_is() {
    let dir = crate::util::toy_copy("game-number-kind");
    let plain = crate::util::write(&dir, "plain.json", "{\"a\": 1}\n");
    for (file, said) in [
        (dir.join("scenario.toml"), "but a scenario"),
        (dir.join("map.toml"), "but a map"),
        (plain, "not a campaign save"),
    ] {
        let f = file.to_str().expect("utf8");
        let r = crate::util::kessel(&["view", f, "--game", "2", "--as", "red"]);
        assert_ne!(r.code, 0, "{f}: {}", r.stdout);
        assert!(
            r.stderr.contains(said) && !r.stderr.contains("one game's save"),
            "{f}: {}",
            r.stderr
        );
    }
    let (save, _json) = toy_save("game-number-save");
    let s = save.to_str().expect("utf8");
    let r = crate::util::kessel(&["view", s, "--game", "1", "--as", "red"]);
    assert!(
        r.stderr.contains("one game's save: a game number"),
        "{}",
        r.stderr
    );
}

/// An empty data file (or one of blank lines) given to `report` is said to be empty; it was
/// "no header record", as though records were there without one.
#[test]
fn report_says_an_empty_data_file_is_empty() {
    let dir = crate::util::scratch("report-empty");
    for text in ["", "\n\n  \n"] {
        let f = crate::util::write(&dir, "a.jsonl", text);
        let r = crate::util::kessel(&["report", f.to_str().expect("utf8")]);
        assert_ne!(r.code, 0, "{}", r.stdout);
        assert!(
            r.stderr.contains("a.jsonl: the file is empty") && !r.stderr.contains("no header"),
            "{text:?}: {}",
            r.stderr
        );
    }
}

/// A lab data file's record padded with a list of 100,001 numbers is refused at its line before
/// it is parsed, and the file's size is bounded (it was read up to 4 GiB).
#[test]
fn report_refuses_a_record_of_too_many_values() {
    let (data, text) = crate::hostile::toy_lab_data("report-values", "2");
    let lines: Vec<&str> = text.lines().collect();
    let mut game: serde_json::Value = serde_json::from_str(lines[2]).expect("a game record");
    game["junk"] = serde_json::Value::from(vec![0; 100_001]);
    let edited = [lines[0], lines[1], &game.to_string()].join("\n") + "\n";
    std::fs::write(&data, edited).expect("edit data");
    let r = crate::util::kessel(&["report", data.to_str().expect("utf8")]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("d.jsonl:3: the record holds more than 100000 values"),
        "{}",
        r.stderr
    );
}

/// A game record that no game of the header's run could have written (a seed outside its range,
/// an objective or a side it does not list: pasted from another run, or edited) was counted in
/// every statistic; it is refused at its line. So is a header naming a side twice.
#[test]
fn report_refuses_records_that_do_not_belong_to_the_headers_run() {
    let (data, text) = crate::hostile::toy_lab_data("report-foreign", "2");
    let lines: Vec<&str> = text.lines().collect();
    let game: serde_json::Value = serde_json::from_str(lines[2]).expect("a game record");
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 4] = [
        (
            "seed 999 is outside the run's seeds (2 games from seed 1)",
            |g| g["seed"] = 999.into(),
        ),
        ("objective `Nowhere` is not one of the header's", |g| {
            g["per_turn"][0]["control"] = serde_json::json!({ "Nowhere": "red" })
        }),
        (
            "losses of `green`, no side of the header's (red, blue)",
            |g| g["losses"]["green"] = serde_json::json!({ "eliminated": 1, "steps": 1 }),
        ),
        ("held by `green`, no side of the header's", |g| {
            g["per_turn"][0]["control"] = serde_json::json!({ "Toytown": "green" })
        }),
    ];
    for (said, edit) in edits {
        let mut g = game.clone();
        edit(&mut g);
        let edited = [lines[0], lines[1], &g.to_string()].join("\n") + "\n";
        std::fs::write(&data, edited).expect("edit data");
        let r = crate::util::kessel(&["report", data.to_str().expect("utf8")]);
        assert_ne!(r.code, 0, "{said}: {}", r.stdout);
        assert!(
            r.stderr.contains("d.jsonl:3: ")
                && r.stderr.contains(said)
                && r.stderr.contains("delete that line"),
            "{said}: {}",
            r.stderr
        );
    }
    let mut header: serde_json::Value = serde_json::from_str(lines[0]).expect("a header");
    header["sides"] = serde_json::json!(["red", "blue", "red"]);
    let edited = [&header.to_string(), lines[1], lines[2]].join("\n") + "\n";
    std::fs::write(&data, edited).expect("edit data");
    let r = crate::util::kessel(&["report", data.to_str().expect("utf8")]);
    assert!(
        r.code != 0
            && r.stderr
                .contains("d.jsonl:1: the header lists side `red` twice"),
        "{}",
        r.stderr
    );
}

/// A game record's turns and actions are the run's: a game ending on turn 4,000,000,000 of a
/// 3-turn scenario (or of 10^18 actions) reached the game-length statistics, and per-turn entries out of order or repeated reached the
/// per-turn charts. Each is refused at its line; a header written before the scenario's turns
/// were kept still bounds the turn by the most a scenario may have.
#[test]
fn report_refuses_game_turns_the_run_could_not_have_played() {
    let (data, text) = crate::hostile::toy_lab_data("report-turns", "1");
    let lines: Vec<&str> = text.lines().collect();
    let header: serde_json::Value = serde_json::from_str(lines[0]).expect("a header");
    assert_eq!(header["turns"], serde_json::json!([1, 3]), "{}", lines[0]);
    let game: serde_json::Value = serde_json::from_str(lines[1]).expect("a game record");
    let turns = |g: &serde_json::Value| -> Vec<u64> {
        let t = g["per_turn"].as_array().expect("per_turn");
        t.iter()
            .map(|t| t["turn"].as_u64().expect("a turn"))
            .collect()
    };
    assert_eq!(turns(&game), vec![1, 2, 3], "{}", lines[1]);
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 7] = [
        (
            "variation 3 of seed 1, but the run played each seed 1 way",
            |g| g["variation"] = 3.into(),
        ),
        (
            "the game played 1000000000000000000 actions, more than the run's limit of 50000",
            |g| g["actions"] = 1_000_000_000_000_000_000u64.into(),
        ),
        ("but its actions by side add up to", |g| {
            g["actions"] = (g["actions"].as_u64().expect("actions") + 1).into()
        }),
        (
            "the game ends on turn 4000000000, outside the scenario's turns (1 to 3)",
            |g| g["turn"] = 4_000_000_000u64.into(),
        ),
        ("the per-turn entry of turn 1 follows that of turn 2", |g| {
            g["per_turn"].as_array_mut().expect("list").swap(0, 1)
        }),
        ("the per-turn entry of turn 2 follows that of turn 2", |g| {
            let t = g["per_turn"].as_array_mut().expect("list");
            t[0] = t[1].clone();
        }),
        ("the per-turn entries run from turn 1 to 2", |g| {
            g["per_turn"].as_array_mut().expect("list").pop();
        }),
    ];
    let report = |head: &str, g: &serde_json::Value| {
        std::fs::write(&data, format!("{head}\n{g}\n")).expect("edit data");
        crate::util::kessel(&["report", data.to_str().expect("utf8")])
    };
    for (said, edit) in edits {
        let mut g = game.clone();
        edit(&mut g);
        let r = report(lines[0], &g);
        assert_ne!(r.code, 0, "{said}: {}", r.stdout);
        assert!(
            r.stderr.contains("d.jsonl:2: ") && r.stderr.contains(said),
            "{said}: {}",
            r.stderr
        );
    }
    // a header of before: the most turns a scenario may have bounds the game's
    let mut old = header.clone();
    old.as_object_mut().expect("object").remove("turns");
    let r = report(&old.to_string(), &game);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut g = game.clone();
    g["turn"] = 4_000_000_000u64.into();
    let r = report(&old.to_string(), &g);
    assert!(
        r.code != 0
            && r.stderr
                .contains("outside the scenario's turns (0 to 10000)"),
        "{}",
        r.stderr
    );
    // a record of another shard's slice, and a shard no run has
    let mut sharded = header.clone();
    sharded["seeds"]["shard"] = serde_json::json!([2, 2]);
    let r = report(&sharded.to_string(), &game);
    assert!(
        r.code != 0
            && r.stderr.contains(
                "d.jsonl:2: seed 1 is not one of shard 2 of 2 (game 0 of the run is in shard 1)"
            ),
        "{}",
        r.stderr
    );
    sharded["seeds"]["shard"] = serde_json::json!([3, 2]);
    let r = report(&sharded.to_string(), &game);
    assert!(
        r.code != 0 && r.stderr.contains("d.jsonl:1: the header's shard is 3 of 2"),
        "{}",
        r.stderr
    );
    // and a header no run wrote: a seed played a billion ways
    let mut many = header.clone();
    many["variations"] = 1_000_000_000u64.into();
    let r = report(&many.to_string(), &game);
    assert!(
        r.code != 0
            && r.stderr.contains(
                "d.jsonl:1: the header's `variations` is 1000000000; a run plays each seed 1 to \
                 1000 ways"
            ),
        "{}",
        r.stderr
    );
}

/// A save's `players` (who plays each side) was kept whatever it held and handed to the program
/// that loaded it: a side the ruleset lacks, a player no program writes, an AI level the ruleset
/// does not declare. Each is refused at the line naming the side; a good entry still loads.
#[test]
fn a_saves_players_are_sides_and_players_the_ruleset_allows() {
    let (save, json) = toy_save("save-players");
    let cases = [
        (
            serde_json::json!({ "blue": "human", "green": "computer" }),
            "green",
            "`players`: `green` is not a side of this ruleset (its sides: red, blue)",
        ),
        (
            serde_json::json!({ "red": "robot" }),
            "red",
            "`players`: side `red` is played by `robot`, which no program writes",
        ),
        (
            serde_json::json!({ "blue": "human", "red": "computer:genius" }),
            "red",
            "a level of the ruleset's AI (direct, timid)",
        ),
    ];
    for (players, side, said) in cases {
        let mut edited = json.clone();
        edited["players"] = players;
        crate::util::resign_save(&mut edited);
        let text = serde_json::to_string_pretty(&edited).expect("json");
        std::fs::write(&save, &text).expect("edit save");
        let from = text
            .lines()
            .position(|l| l.trim_start().starts_with("\"players\""))
            .expect("the players' line");
        let line = text
            .lines()
            .skip(from)
            .position(|l| l.trim_start().starts_with(&format!("\"{side}\"")))
            .expect("the side's line")
            + from
            + 1;
        let r = crate::util::kessel(&["view", save.to_str().expect("utf8"), "--as", "red"]);
        assert_ne!(r.code, 0, "{said}: {}", r.stdout);
        assert!(
            r.stderr.contains(&format!("game.json:{line}")) && r.stderr.contains(said),
            "{said}: {}",
            r.stderr
        );
    }
    let mut edited = json.clone();
    edited["players"] = serde_json::json!({ "blue": "human", "red": "computer:timid" });
    crate::util::resign_save(&mut edited);
    std::fs::write(&save, serde_json::to_string_pretty(&edited).expect("json")).expect("save");
    let r = crate::util::kessel(&["view", save.to_str().expect("utf8"), "--as", "red"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// A game record's victory level is a name from the header's levels or one of the few a ruleset
/// adds (a draw an option makes): a level 300 bytes long, or the seventeenth level beyond the
/// header's in one file, is refused at its line (each was a bar in every chart of the report).
#[test]
fn report_refuses_levels_the_run_could_not_have_reached() {
    let (data, text) = crate::hostile::toy_lab_data("report-levels", "17");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 18, "a header and 17 games");
    let mut games: Vec<serde_json::Value> = lines[1..]
        .iter()
        .map(|l| serde_json::from_str(l).expect("a game record"))
        .collect();
    let write = |games: &[serde_json::Value]| {
        let body: Vec<String> = games.iter().map(|g| g.to_string()).collect();
        std::fs::write(&data, format!("{}\n{}\n", lines[0], body.join("\n"))).expect("edit");
        crate::util::kessel(&["report", data.to_str().expect("utf8")])
    };
    // sixteen levels the scenario does not list: read, each a level of its own
    for (i, g) in games.iter_mut().enumerate().take(16) {
        g["level"] = format!("Level {i}").into();
    }
    let r = write(&games);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Level 15"), "{}", r.stdout);
    games[16]["level"] = "Level 16".into();
    let r = write(&games);
    assert!(
        r.code != 0
            && r.stderr
                .contains("d.jsonl:18: victory level `Level 16` is the 17th")
            && r.stderr.contains("beyond the header's"),
        "{}",
        r.stderr
    );
    games[16]["level"] = "x".repeat(300).into();
    let r = write(&games);
    assert!(
        r.code != 0
            && r.stderr.contains("d.jsonl:18: victory level `xxx")
            && r.stderr.contains("over 200 bytes"),
        "{}",
        r.stderr
    );
}

/// A save without its checksum is refused: leaving the checksum out let any hand edit pass (a
/// profile or an option changed, a game replayed under other rules).
#[test]
fn a_save_without_its_checksum_is_refused() {
    let (save, mut json) = toy_save("save-no-checksum");
    json["profile"] = serde_json::Value::String("open".into());
    json.as_object_mut().expect("object").remove("checksum");
    std::fs::write(&save, serde_json::to_string_pretty(&json).expect("json")).expect("edit");
    let r = crate::util::kessel(&["view", save.to_str().expect("utf8"), "--as", "red"]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains("game.json") && r.stderr.contains("the save has no `checksum`"),
        "{}",
        r.stderr
    );
}

/// A lab data file's header that no `kessel simulate` could have written is refused at line 1:
/// a map over the size a map file may have, a column layout that does not fit the map, an
/// objective hex off the map or an objective worth more than a scenario's may be, a level listed
/// twice, a VP difference of a side the header lacks or of one side against itself. A header
/// whose map was 2,000,000,000 hexes square with two objectives 100,000 hexes apart had the
/// report draw every hex between them (3.5 GB within 20 s, without end); the others were
/// reported as if true (a `green` VP row, "red − red").
#[test]
fn report_refuses_a_header_no_run_could_have_written() {
    let dir = crate::util::toy_copy("report-header");
    let data = dir.join("games.jsonl");
    let scenario = dir.join("scenario.toml");
    let r = crate::util::kessel(&[
        "simulate",
        scenario.to_str().expect("utf8"),
        "--games",
        "2",
        "--jobs",
        "1",
        "--out",
        data.to_str().expect("utf8"),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(&data).expect("data");
    let (first, rest) = text.split_once('\n').expect("a header line");
    let header: serde_json::Value = serde_json::from_str(first).expect("the header");
    type Edit = fn(&mut serde_json::Value);
    let cases: [(&str, Edit, &str); 9] = [
        (
            "seeds",
            |h| h["seeds"]["first"] = u64::MAX.into(),
            "the seeds run past 18446744073709551615 (2 games from seed 18446744073709551615;",
        ),
        (
            "huge",
            |h| {
                h["map"]["columns"] = 2_000_000_000.into();
                h["map"]["rows"] = 2_000_000_000.into();
                let far = serde_json::json!({ "label": "far", "col": 100_000, "row": 100_000 });
                h["objectives"][0]["hexes"]
                    .as_array_mut()
                    .expect("hexes")
                    .push(far);
            },
            "the header's map is 2000000000×2000000000 hexes",
        ),
        (
            "empty",
            |h| h["map"]["columns"] = 0.into(),
            "the header's map is 0×5 hexes",
        ),
        (
            "layout",
            |h| h["map"]["lower"] = serde_json::json!([true]),
            "the header's map has 7 columns but a layout (`lower`) for 1",
        ),
        (
            "off",
            |h| h["objectives"][0]["hexes"][0]["col"] = i32::MAX.into(),
            "hex `0603` at column 2147483647, row 2 (from 0) is off the header's 7×5 map",
        ),
        (
            "vp",
            |h| h["objectives"][0]["vp"] = i64::MAX.into(),
            "is worth 9223372036854775807 VP",
        ),
        (
            "levels",
            |h| h["levels"] = serde_json::json!(["Blue win", "Red win", "Blue win"]),
            "the header lists victory level `Blue win` twice",
        ),
        (
            "green",
            |h| h["difference"] = serde_json::json!(["green", "red"]),
            "the header's VP difference names `green`, no side of the header's (red, blue)",
        ),
        (
            "self",
            |h| h["difference"] = serde_json::json!(["red", "red"]),
            "the header's VP difference is between red and red",
        ),
    ];
    for (name, edit, expected) in cases {
        let mut h = header.clone();
        edit(&mut h);
        let file = crate::util::write(&dir, &format!("{name}.jsonl"), &format!("{h}\n{rest}"));
        // (with the HTML report, which draws the objectives' map)
        let html = dir.join(format!("{name}.html"));
        let o = crate::hostile::run_limited(
            &[
                "report",
                file.to_str().expect("utf8"),
                "-o",
                html.to_str().expect("utf8"),
            ],
            std::time::Duration::from_secs(30),
        );
        assert!(!o.killed, "{name}: still running after 30 s");
        assert_eq!(o.code, Some(1), "{name}: {}", o.stderr);
        assert!(
            o.stderr.contains(&format!("{name}.jsonl:1: ")) && o.stderr.contains(expected),
            "{name}: {}",
            o.stderr
        );
    }
}

/// A save's `options` hold values set by hand over its profile: an option the ruleset lacks or a
/// value of the wrong type is refused with the save named (the message named only the option, and
/// a GM with a folder of saves could not tell which one it came from).
#[test]
fn a_saves_options_are_refused_with_the_save_named() {
    let (save, json) = toy_save("save-options");
    for (options, said) in [
        (
            serde_json::json!({ "nosuch": true }),
            "the save sets option `nosuch` = true: the ruleset has no option `nosuch`",
        ),
        (
            serde_json::json!({ "woods_double": 7 }),
            "the save sets option `woods_double` = 7",
        ),
    ] {
        let mut edited = json.clone();
        edited["options"] = options;
        crate::util::resign_save(&mut edited);
        let text = serde_json::to_string_pretty(&edited).expect("json");
        std::fs::write(&save, &text).expect("save");
        let line = text
            .lines()
            .position(|l| l.trim_start().starts_with("\"options\""))
            .expect("the options' line")
            + 2;
        let r = crate::util::kessel(&["view", save.to_str().expect("utf8"), "--as", "red"]);
        assert_ne!(r.code, 0, "{said}: {}", r.stdout);
        assert!(
            r.stderr.contains(&format!("game.json:{line}: {said}")),
            "{said} at line {line}: {}",
            r.stderr
        );
    }
}

/// Another of Kessel's files given to `kessel campaign`, `campaign --verify` or `report` is named
/// as what it is, with what reads it: they said "not JSON: expected value at line 1 column 2",
/// "not a campaign file: unknown field `areas`" or "invalid key-value pair".
#[test]
fn campaign_and_report_name_the_kind_of_file_they_were_given() {
    let (data, _) = crate::hostile::toy_lab_data("kinds-given", "1");
    let dir = data.parent().expect("the toy copy").to_path_buf();
    let s = |name: &str| dir.join(name).to_str().expect("utf8").to_string();
    let files = [
        ("scenario.toml", "a scenario file ([scenario])"),
        ("map.toml", "a map file ([map], [terrain])"),
        ("profiles/standard.toml", "a profile (option values)"),
        ("init.lua", "a Lua file"),
        ("d.jsonl", "a data file of `kessel simulate --out`"),
    ];
    let commands: [(&[&str], &str); 3] = [
        (&["campaign"], "not a campaign file but "),
        (&["campaign", "--verify"], "not a campaign save but "),
        (
            &["report"],
            "not a data file of `kessel simulate --out` but ",
        ),
    ];
    for (args, not) in commands {
        for (file, what) in files {
            if (args == ["report"] && file == "d.jsonl")
                || (args == ["campaign"] && file == "scenario.toml")
            {
                continue; // what it reads; a scenario has its own words for `campaign`
            }
            let path = s(file);
            let mut all = args.to_vec();
            all.push(&path);
            let r = crate::util::kessel(&all);
            assert!(
                r.code != 0
                    && r.stderr.contains(&format!("{not}{what}"))
                    && !r.stderr.contains("not JSON")
                    && !r.stderr.contains("unknown field"),
                "{args:?} {file}: {}",
                r.stderr
            );
        }
    }
}

/// So is one given as a profile (`--profile scenario.toml` said "unknown field `levels`,
/// expected `profile` or `options`") or as a script (`kessel script scenario.toml` said
/// "scenario.toml: scenario.toml:1: unexpected symbol near '['").
#[test]
fn profile_and_script_name_the_kind_of_file_they_were_given() {
    let dir = crate::util::toy_copy("kinds-profile-script");
    let s = |name: &str| dir.join(name).to_str().expect("utf8").to_string();
    let scenario = s("scenario.toml");
    for (file, what) in [
        ("scenario.toml", "a scenario file ([scenario])"),
        ("map.toml", "a map file ([map], [terrain])"),
        ("init.lua", "a Lua file"),
    ] {
        let r = crate::util::kessel(&["check", &scenario, "--profile", &s(file)]);
        assert!(
            r.code != 0
                && r.stderr.contains(&format!("not a profile but {what}"))
                && !r.stderr.contains("unknown field"),
            "{file}: {}",
            r.stderr
        );
    }
    for (file, what) in [
        ("scenario.toml", "a scenario file ([scenario])"),
        ("map.toml", "a map file ([map], [terrain])"),
    ] {
        let r = crate::util::kessel(&["script", &s(file), "--ruleset", &s(".")]);
        assert!(
            r.code != 0
                && r.stderr.contains(&format!("not a Lua script but {what}"))
                && !r.stderr.contains("unexpected symbol"),
            "{file}: {}",
            r.stderr
        );
    }
    // a script of another name is still a script, its errors located by that name
    let orders = crate::util::write(
        &dir,
        "orders.txt",
        "kessel.setup{ map = { columns = 4, rows = 4 } }\nerror('stop here')\n",
    );
    let r = crate::util::kessel(&[
        "script",
        orders.to_str().expect("utf8"),
        "--ruleset",
        &s("."),
    ]);
    assert!(
        r.code != 0
            && r.stderr.contains("orders.txt:2: stop here")
            && !r.stderr.contains("orders.txt: "),
        "{}",
        r.stderr
    );
}

/// A save edited to name another of Kessel's files as its scenario or profile (the map, a
/// profile, the scenario) is refused at the save's field; a path through a file
/// (`scenario.toml/`) is said as that, and a profile name the ruleset lacks is the save's
/// `profile`. They gave the map's own error ("give the scenario that names it"), "is missing"
/// with the path of a file that was there, and "profiles/opne.toml: unknown profile".
#[test]
fn a_save_naming_the_wrong_file_says_so_at_its_field() {
    let (save, json) = toy_save("save-field-kind");
    let dir = save.parent().expect("a folder").to_path_buf();
    for (field, v, said) in [
        ("scenario", "map.toml", "the save's `scenario` names"),
        (
            "scenario",
            "profiles/open.toml",
            "not a scenario but a profile",
        ),
        ("scenario", "scenario.toml/", "goes through"),
        (
            "scenario",
            "scenario.toml/.",
            "which is a file, not a folder",
        ),
        ("profile", "scenario.toml", "not a profile but a scenario"),
        ("profile", "profiles/open.toml/", "goes through"),
        (
            "profile",
            "opne",
            "the save's `profile`, `opne`, is not a profile of the ruleset",
        ),
        (
            "profile",
            "",
            "the save's `profile`, ``, is not a profile of the ruleset",
        ),
    ] {
        let mut j = json.clone();
        j[field] = serde_json::json!(v);
        crate::util::resign_save(&mut j);
        let f = crate::util::write(&dir, "edited.json", &j.to_string());
        let r = crate::util::kessel(&["view", f.to_str().expect("utf8"), "--as", "red"]);
        assert_ne!(r.code, 0, "{v}: {}", r.stdout);
        assert!(
            r.stderr.contains("edited.json: ")
                && r.stderr.contains(said)
                && !r.stderr.contains("is missing"),
            "{field} = {v}: {}",
            r.stderr
        );
    }
}

/// A campaign file whose games are still to be written (a [carry] and no [[game]]) is checked as
/// a campaign, which says it needs a game; it was read as a scenario with an unknown field
/// `carry`.
#[test]
fn a_campaign_without_games_is_checked_as_a_campaign() {
    let dir = crate::util::toy_copy("campaign-no-games");
    let c = crate::util::write(&dir, "chain.toml", "name = \"x\"\n[carry]\nunits = true\n");
    let r = crate::util::kessel(&["check", c.to_str().expect("utf8")]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("chain.toml: a campaign needs at least one [[game]] with a `scenario`")
            && !r.stderr.contains("unknown field"),
        "{}",
        r.stderr
    );
}

/// A key given twice in one object of a save or a lab record was read as its last value without
/// a word: a save's action naming two units passed its checksum (made over what was read), a
/// record's second `seed` was reported as a seed recorded twice on the next line. Both are
/// refused at the line of the second key.
#[test]
fn a_key_given_twice_in_a_save_or_a_record_is_refused_at_its_line() {
    let (save, _json) = toy_save("duplicate-key");
    let text = std::fs::read_to_string(&save).expect("save");
    let twice = text.replacen("\"unit\": \"r1\"", "\"unit\": \"b1\",\n\"unit\": \"r1\"", 1);
    assert_ne!(twice, text, "the save names r1");
    let line = twice
        .lines()
        .position(|l| l == "\"unit\": \"r1\"")
        .expect("inserted")
        + 1;
    let edited = crate::util::write(save.parent().expect("a folder"), "twice.json", &twice);
    let r = crate::util::kessel(&["view", edited.to_str().expect("utf8"), "--as", "red"]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains(&format!(
            "twice.json:{line}: the save gives the key `unit` twice"
        )),
        "{}",
        r.stderr
    );
    let dir = crate::util::scratch("duplicate-key-record");
    let out = dir.join("a.jsonl");
    let scenario = crate::util::root().join("core/tests/fixtures/toy/scenario.toml");
    let r = crate::util::kessel(&[
        "simulate",
        scenario.to_str().expect("utf8"),
        "--games",
        "2",
        "--out",
        out.to_str().expect("utf8"),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let data = std::fs::read_to_string(&out).expect("data");
    let twice = data.replacen("\"seed\":1,", "\"seed\":1,\"seed\":2,", 1);
    assert_ne!(twice, data, "a record of seed 1");
    let f = crate::util::write(&dir, "b.jsonl", &twice);
    let r = crate::util::kessel(&["report", f.to_str().expect("utf8")]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("b.jsonl:2: the record gives the key `seed` twice")
            && !r.stderr.contains("recorded twice"),
        "{}",
        r.stderr
    );
}

/// A campaign whose game names a map, another campaign (itself) or a path through a file as its
/// scenario, or a campaign as its profile, is refused at that game's line: these were the named
/// file's own errors after "game 1 of the campaign" ("give the scenario that names it"), or
/// "cannot read scenario: a part of the path is a file".
#[test]
fn a_campaign_game_naming_the_wrong_file_says_so_at_its_line() {
    let dir = crate::util::toy_copy("campaign-game-kind");
    for (game, said) in [
        (
            "scenario = \"map.toml\"",
            "game 1 `scenario`: `map.toml` is not a scenario but a map",
        ),
        (
            "scenario = \"chain.toml\"",
            "`chain.toml` is not a scenario but a campaign",
        ),
        (
            "scenario = \"scenario.toml/\"",
            "`scenario.toml/` goes through",
        ),
        (
            "scenario = \"scenario.toml\"\nprofile = \"chain.toml\"",
            "game 1 `profile`: `chain.toml` is not a profile but a campaign",
        ),
        // a profile name the ruleset lacks (check named profiles/standrad.toml, a file that is
        // not there, with no line)
        (
            "scenario = \"scenario.toml\"\nprofile = \"standrad\"",
            "game 1 `profile`: the ruleset has no profile `standrad` (it has: open, standard) (did you mean `standard`?)",
        ),
    ] {
        let c = crate::util::write(
            &dir,
            "chain.toml",
            &format!("name = \"x\"\n[[game]]\n{game}\n"),
        );
        let r = crate::util::kessel(&["check", c.to_str().expect("utf8")]);
        assert_ne!(r.code, 0, "{game}: {}", r.stdout);
        let line = if game.contains("profile") { 4 } else { 3 };
        assert!(
            r.stderr.contains(&format!("chain.toml:{line}: ")) && r.stderr.contains(said),
            "{game}: {}",
            r.stderr
        );
    }
}

/// A save's log reordered with care into another legal game (two moves that roll nothing
/// swapped: the same events, the same state) loads, as decided in `Engine::replay_save`: a load
/// proves the log is a game the rules play to the saved state, and no check could tell it from
/// a player who moved in that order. A reorder that changes what an action does (a move put
/// after the end of its phase) is refused as an edited history.
#[test]
fn a_save_reordered_into_another_legal_game_loads_and_one_into_no_game_is_refused() {
    let dir = crate::util::toy_copy("save-reordered");
    let play = crate::util::write(
        &dir,
        "play.lua",
        "assert(kessel.act{ kind = 'move', unit = 'r1', path = { '0303' } })\n\
         assert(kessel.act{ kind = 'move', unit = 'r2', path = { '0102' } })\n\
         assert(kessel.act{ kind = 'end_phase' })\n",
    );
    let save = dir.join("game.json");
    let s = |p: &std::path::Path| p.to_str().expect("utf8").to_string();
    let r = crate::util::kessel(&[
        "script",
        &s(&play),
        "--scenario",
        &s(&dir.join("scenario.toml")),
        "--save",
        &s(&save),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).expect("save")).expect("JSON");
    let reordered = |a: usize, b: usize| {
        let mut j = json.clone();
        j["log"].as_array_mut().expect("a log").swap(a, b);
        crate::util::resign_save(&mut j);
        std::fs::write(&save, serde_json::to_string_pretty(&j).expect("json")).expect("edit");
        crate::util::kessel(&["view", &s(&save), "--as", "red"])
    };
    let r = reordered(0, 1);
    assert_eq!(r.code, 0, "the two moves swapped: {}", r.stderr);
    let r = reordered(1, 2);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains("game.json")
            && r.stderr.contains(kessel_core::engine::EDITED_HISTORY)
            && r.stderr.contains("action 3 of 3"),
        "{}",
        r.stderr
    );
}

/// A map whose default terrain no hex has (every hex painted) needs no cost for it, as the
/// map check does not ask it be declared: a default of an undeclared terrain (a typo, a
/// zero-width joiner) loaded, then every search failed at the rules' line ("terrain `‍clear`
/// used by the map has no movement cost"). A painted hex of an undeclared terrain is still
/// refused when the scenario loads, naming the map.
#[test]
fn a_default_terrain_no_hex_has_needs_no_movement_cost() {
    use kessel_core::engine::Engine;
    use kessel_core::script::Limits;
    let dir = crate::util::toy_copy("default-terrain-unused");
    let map = dir.join("map.toml");
    let text = std::fs::read_to_string(&map).expect("toy map");
    let edited = text.replace("default = \"clear\"", "default = \"\u{200d}clear\"");
    assert_ne!(edited, text);
    std::fs::write(&map, &edited).expect("write");
    let engine = Engine::load(&dir.join("scenario.toml"), None, 1, Limits::default())
        .expect("the toy loads");
    let legal = engine.legal_actions(None).expect("the moves are listed");
    assert!(legal.iter().any(|a| a.kind == "move"), "{legal:?}");
    // the same terrain painted on a hex is the map's to answer for
    let painted = edited
        .replace("\"..w....\",  # row 01", "\"x.w....\",  # row 01")
        .replace(
            "legend = { \".\" = \"clear\"",
            "legend = { \"x\" = \"swamp\", \".\" = \"clear\"",
        );
    assert_ne!(painted, edited);
    std::fs::write(&map, painted).expect("write");
    let Err(e) = Engine::load(&dir.join("scenario.toml"), None, 1, Limits::default()) else {
        panic!("a hex of an undeclared terrain loaded");
    };
    assert!(
        e.to_string()
            .contains("terrain `swamp` is not declared by the ruleset"),
        "{e}"
    );
}
