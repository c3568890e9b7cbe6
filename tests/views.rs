//! Per-side views from the command line: a script plays secret orders and a concealment on the
//! toy ruleset and saves the game; `kessel view --as SIDE` shows each side its own.

use crate::util::{kessel, scratch, write};

const SCRIPT: &str = r#"
assert(kessel.act{ kind = "orders", choice = "hold" })
assert(kessel.act{ kind = "conceal", unit = "r1" })
assert(kessel.act{ kind = "move", unit = "r1", path = { "0303" } })
assert(kessel.act{ kind = "orders", side = "blue", choice = "attack" })
assert(kessel.act{ kind = "lay_mine", side = "red", hex = "0404", strength = 3 })
assert(kessel.act{ kind = "buy_reserve", side = "red" })
assert(kessel.act{ kind = "buy_reserve", side = "red" })
print("replay", kessel.replay_hash())
print("state", kessel.state_hash())
"#;

#[test]
fn each_side_is_shown_its_own_secrets_only() {
    let dir = scratch("views");
    let file = write(&dir, "orders.lua", SCRIPT);
    let save = dir.join("game.json");
    let r = kessel(&[
        "script",
        file.to_str().expect("utf8"),
        "--scenario",
        "core/tests/fixtures/toy/scenario.toml",
        "--seed",
        "4",
        "--save",
        save.to_str().expect("utf8"),
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let hashes: Vec<&str> = r.stdout.lines().map(|l| &l[l.len() - 16..]).collect();
    assert_eq!(
        hashes[0], hashes[1],
        "replay = state with secrets: {}",
        r.stdout
    );

    let view = |side: &str| {
        let v = kessel(&["view", save.to_str().expect("utf8"), "--as", side]);
        assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
        v.stdout
    };
    let (blue, red) = (view("blue"), view("red"));
    assert!(blue.starts_with("view of blue: turn 1"), "{blue}");
    assert!(
        !blue.contains("r1"),
        "blue must not see the concealed r1:\n{blue}"
    );
    assert!(
        !blue.contains("hold"),
        "blue must not see red's orders:\n{blue}"
    );
    assert!(blue.contains("1. red: orders (withheld)"), "{blue}");
    assert!(blue.contains("secret: (withheld)"), "{blue}");
    assert!(!blue.contains("moved"), "nor that it moved:\n{blue}");
    // red's hidden mine: not in blue's markers; red's two secret purchases: one entry
    assert!(
        !blue.contains("markers ("),
        "blue must not see red's mine:\n{blue}"
    );
    assert!(blue.contains("5. red: lay_mine (withheld)"), "{blue}");
    assert!(blue.contains("6. red: buy_reserve (withheld)"), "{blue}");
    assert!(!blue.contains("7. "), "two purchases, one entry:\n{blue}");
    assert!(!blue.contains("drawn_after=1"), "no dice counter:\n{blue}");
    assert!(red.contains("markers (3):"), "{red}");
    assert!(
        red.lines()
            .any(|l| l.contains("mine") && l.contains("0404") && l.contains("(hidden from blue)")),
        "{red}"
    );
    assert!(red.contains("7. red: buy_reserve"), "{red}");
    assert!(
        blue.contains("\"order\":\"attack\""),
        "blue sees its own orders:\n{blue}"
    );
    assert!(
        red.contains("r1") && red.contains("(hidden from blue)"),
        "{red}"
    );
    assert!(red.contains("\"order\":\"hold\""), "{red}");
    assert!(
        !red.contains("\"order\":\"attack\""),
        "red must not see blue's orders:\n{red}"
    );
    // the same digest in both views
    let digest = |text: &str, id: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(id))
            .and_then(|l| l.split("digest ").nth(1))
            .map(str::to_string)
            .unwrap_or_else(|| panic!("no digest of {id} in {text}"))
    };
    assert_eq!(digest(&blue, "orders.red"), digest(&red, "orders.red"));

    let json = kessel(&[
        "view",
        save.to_str().expect("utf8"),
        "--as",
        "blue",
        "--json",
    ]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(v["side"], "blue");
    assert_eq!(v["mode"], serde_json::Value::Null, "the main sequence");
    assert!(v["step"].is_string(), "{v}");
    assert_eq!(v["units"].as_array().map(Vec::len), Some(3));
    let bad = kessel(&["view", save.to_str().expect("utf8"), "--as", "green"]);
    assert_ne!(bad.code, 0);
    assert!(
        bad.stderr.contains("`green` is not a side"),
        "{}",
        bad.stderr
    );
}

/// `kessel query SAVE --as SIDE` answers from what the side is shown: blue's odds against 0303,
/// where red's concealed r1 stands, find no defender; without `--as` the query tells the truth.
#[test]
fn a_query_as_a_side_does_not_name_what_is_hidden_from_it() {
    let dir = scratch("views-query");
    let file = write(&dir, "orders.lua", SCRIPT);
    let save = dir.join("game.json");
    let r = kessel(&[
        "script",
        file.to_str().expect("utf8"),
        "--scenario",
        "core/tests/fixtures/toy/scenario.toml",
        "--save",
        save.to_str().expect("utf8"),
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let save = save.to_str().expect("utf8");
    let odds = |extra: &[&str]| {
        let mut args = vec!["query", save, "odds", "units=b1", "targets=0303", "--json"];
        args.extend_from_slice(extra);
        let q = kessel(&args);
        assert_eq!(q.code, 0, "{}{}", q.stdout, q.stderr);
        serde_json::from_str::<serde_json::Value>(&q.stdout).expect("json")
    };
    assert_eq!(odds(&[])["defence"], 3, "the truth: r1 defends 0303");
    assert_eq!(odds(&["--as", "blue"])["defence"], 0, "blue sees no r1");
    assert_eq!(odds(&["--as", "red"])["defence"], 3);
    let hidden = kessel(&["query", save, "moves", "units=r1", "--as", "blue"]);
    assert_ne!(hidden.code, 0, "{}", hidden.stdout);
    assert!(hidden.stderr.contains("r1"), "{}", hidden.stderr);
    let bad = kessel(&[
        "query",
        save,
        "odds",
        "units=b1",
        "targets=0303",
        "--as",
        "green",
    ]);
    assert_ne!(bad.code, 0);
    assert!(
        bad.stderr.contains("`green` is not a side"),
        "{}",
        bad.stderr
    );
}

/// A `kessel script` file is one call from the engine into Lua: one that runs out of budget is
/// told which flag gives it more, not only asked about an endless loop.
#[test]
fn a_script_out_of_budget_is_told_the_flag_that_gives_more() {
    let dir = scratch("script-budget");
    let file = write(
        &dir,
        "long.lua",
        "local n = 0\nfor i = 1, 1e9 do n = n + i end\n",
    );
    let r = kessel(&[
        "script",
        file.to_str().expect("utf8"),
        "--scenario",
        "core/tests/fixtures/toy/scenario.toml",
        "--budget",
        "1",
    ]);
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains("instruction budget exceeded")
            && r.stderr.contains("a `kessel script` file is one call")
            && r.stderr.contains("--budget N"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_view_names_the_step_of_the_sequence_the_game_is_in() {
    let dir = scratch("views-mode");
    let file = write(
        &dir,
        "muster.lua",
        "assert(kessel.act{ kind = \"muster\" })\nprint(kessel.game.step().id)\n",
    );
    let save = dir.join("game.json");
    let r = kessel(&[
        "script",
        file.to_str().expect("utf8"),
        "--scenario",
        "core/tests/fixtures/toy/scenario.toml",
        "--save",
        save.to_str().expect("utf8"),
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(r.stdout.trim(), "muster_count", "the muster began");
    let v = kessel(&["view", save.to_str().expect("utf8"), "--as", "blue"]);
    assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
    // step 0 of the `muster` sequence, not step 0 of the main one (`red_move`)
    assert!(
        v.stdout
            .starts_with("view of blue: turn 1, step muster_count of the sequence muster\n"),
        "{}",
        v.stdout
    );
    // and in JSON: the sequence and the step by their ids (a tool had only `phase`, 0, which
    // read as the main sequence's first step)
    let j = kessel(&[
        "view",
        save.to_str().expect("utf8"),
        "--as",
        "blue",
        "--json",
    ]);
    assert_eq!(j.code, 0, "{}{}", j.stdout, j.stderr);
    let v: serde_json::Value = serde_json::from_str(&j.stdout).expect("json");
    assert_eq!(v["mode"], "muster", "{v}");
    assert_eq!(v["step"], "muster_count", "{v}");
    assert_eq!(v["phase"], 0, "{v}");
}

/// A view shows hexes as the map's labels, in text and JSON alike: a move's path, a unit's place,
/// a marker's hex (they showed the engine's axial coordinates, `{"q":2,"r":1}`); and a unit's
/// step and flags are in the text as in the JSON.
#[test]
fn a_view_shows_hexes_as_labels_and_units_steps_and_flags() {
    let dir = scratch("views-labels");
    let file = write(
        &dir,
        "play.lua",
        "assert(kessel.act{ kind = \"move\", unit = \"r1\", path = { \"0303\" } })\n\
         assert(kessel.act{ kind = \"lay_mine\", side = \"red\", hex = \"0404\", strength = 3 })\n",
    );
    // the toy scenario with b1 on its second step and disrupted
    let toy = concat!(env!("CARGO_MANIFEST_DIR"), "/core/tests/fixtures/toy");
    let scenario = std::fs::read_to_string(format!("{toy}/scenario.toml"))
        .expect("toy scenario")
        .replace("ruleset = \".\"", &format!("ruleset = \"{toy}\""))
        .replace("map = \"map.toml\"", &format!("map = \"{toy}/map.toml\""))
        .replace(
            "faces = [\"2-3-4\"]",
            "faces = [\"2-3-4\", \"1-2-4\"]\nstep = 1\nflags = [\"disrupted\"]",
        );
    let scenario = write(&dir, "scenario.toml", &scenario);
    let save = dir.join("game.json");
    let r = kessel(&[
        "script",
        file.to_str().expect("utf8"),
        "--scenario",
        scenario.to_str().expect("utf8"),
        "--save",
        save.to_str().expect("utf8"),
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let text = kessel(&["view", save.to_str().expect("utf8"), "--as", "red"]);
    assert_eq!(text.code, 0, "{}{}", text.stdout, text.stderr);
    assert!(!text.stdout.contains("\"q\""), "{}", text.stdout);
    assert!(
        text.stdout.contains("path=[\"0303\"]") && text.stdout.contains("to=\"0303\""),
        "{}",
        text.stdout
    );
    let b1 = text
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("b1 "))
        .unwrap_or_default();
    assert!(
        b1.contains("step 1") && b1.contains("flags disrupted"),
        "{}",
        text.stdout
    );
    let json = kessel(&[
        "view",
        save.to_str().expect("utf8"),
        "--as",
        "red",
        "--json",
    ]);
    assert_eq!(json.code, 0, "{}{}", json.stdout, json.stderr);
    assert!(!json.stdout.contains("\"q\""), "{}", json.stdout);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    let r1 = v["units"]
        .as_array()
        .and_then(|us| us.iter().find(|u| u["id"] == "r1"))
        .expect("r1");
    assert_eq!(
        (&r1["location"], &r1["hex"]),
        (&"map".into(), &"0303".into())
    );
    let mine = &v["markers"][0];
    assert_eq!(mine["hex"], "0404", "{mine}");
    assert_eq!(
        v["log"][0]["events"][0]["path"],
        serde_json::json!(["0303"])
    );
}

/// A line break in a name from the data (the scenario's name) is escaped where `kessel view` and
/// `kessel check` print it: it breaks no table row and adds no line that reads as the program's
/// own; in a name the game is keyed by (a unit's flag) it is refused at its line.
#[test]
fn a_line_break_in_a_name_stays_on_its_line() {
    let dir = scratch("views-line-breaks");
    let toy = concat!(env!("CARGO_MANIFEST_DIR"), "/core/tests/fixtures/toy");
    let scenario = std::fs::read_to_string(format!("{toy}/scenario.toml"))
        .expect("toy scenario")
        .replace("ruleset = \".\"", &format!("ruleset = \"{toy}\""))
        .replace("map = \"map.toml\"", &format!("map = \"{toy}/map.toml\""))
        .replace("name = \"Toy battle\"", "name = \"Toy\\nerror: forged\"");
    // a flag is a name the rules key the game by: one holding a line break is refused at its
    // line, the break escaped there too (it was kept, and escaped in every table)
    let flagged = write(
        &dir,
        "flagged.toml",
        &scenario.replace(
            "faces = [\"2-3-4\"]",
            "faces = [\"2-3-4\"]\nflags = [\"dug in\\nb9           blue     inf      0101\"]",
        ),
    );
    let refused = kessel(&["check", flagged.to_str().expect("utf8")]);
    assert!(
        refused.code != 0
            && refused.stderr.contains("flag dug in\\u{a}b9")
            && refused.stderr.contains("holds a line break")
            && !refused
                .stderr
                .lines()
                .any(|l| l.trim_start().starts_with("b9")),
        "{}",
        refused.stderr
    );
    let scenario = write(&dir, "scenario.toml", &scenario);
    let path = scenario.to_str().expect("utf8");
    let view = kessel(&["view", path, "--as", "blue"]);
    assert_eq!(view.code, 0, "{}{}", view.stdout, view.stderr);
    assert!(
        !view.stdout.lines().any(|l| l.starts_with("error")),
        "{}",
        view.stdout
    );
    let check = kessel(&["check", path]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    assert!(
        check.stdout.contains("scenario   Toy\\u{a}error: forged")
            && !check.stdout.lines().any(|l| l.starts_with("error")),
        "{}",
        check.stdout
    );
    // the same name in every other summary that prints it: `info`, `simulate` and its `-v`
    // lines, `report`, and a campaign's (a game named with a line break too) in `campaign`,
    // `campaign --verify` and `check`
    let data = dir.join("d.jsonl");
    let data = data.to_str().expect("utf8");
    let campaign = write(
        &dir,
        "campaign.toml",
        "name = \"C\\nerror: forged\"\n[[game]]\nscenario = \"scenario.toml\"\n\
         name = \"G\\nerror: forged\"\n",
    );
    let campaign = campaign.to_str().expect("utf8");
    let save = dir.join("cs.json");
    let save = save.to_str().expect("utf8");
    for args in [
        vec!["info", path],
        vec!["simulate", path, "--games", "2", "-v", "--out", data],
        vec!["report", data],
        vec!["campaign", campaign, "--save", save],
        vec!["campaign", "--verify", save],
        vec!["check", campaign],
    ] {
        let r = kessel(&args);
        assert_eq!(r.code, 0, "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains("\\u{a}error: forged")
                && !r.stdout.lines().any(|l| l.starts_with("error")),
            "{args:?}: {}",
            r.stdout
        );
    }
}

/// `kessel render --as SIDE` draws what the side is shown at set-up: a unit hidden from blue is
/// on red's picture and not on blue's, and on no picture drawn for everyone (as a hidden marker).
#[test]
fn a_render_as_a_side_draws_what_is_hidden_from_others_only() {
    let dir = crate::util::toy_copy("render-as");
    let scenario = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("toy scenario");
    let hidden = "\n[[units]]\nid = \"r9\"\nside = \"red\"\ntype = \"inf\"\nfaces = [\"3-3-4\"]\nat = \"0303\"\nhidden_from = \"blue\"\n";
    std::fs::write(&scenario, text + hidden).expect("write");
    let draw = |side: Option<&str>| {
        let out = dir.join(format!("{}.svg", side.unwrap_or("all")));
        let mut args = vec![
            "render",
            scenario.to_str().expect("utf8"),
            "-o",
            out.to_str().expect("utf8"),
        ];
        if let Some(s) = side {
            args.extend(["--as", s]);
        }
        let r = kessel(&args);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        std::fs::read_to_string(&out).expect("the picture")
    };
    let (red, blue, all) = (draw(Some("red")), draw(Some("blue")), draw(None));
    let r9 = "data-unit=\"r9\"";
    assert!(red.contains(r9), "red sees its own hidden unit");
    assert!(!blue.contains(r9), "blue is not shown r9");
    assert!(!all.contains(r9), "a picture for everyone leaves it off");
    // the others are on every picture, and the side's view is said under the title
    for svg in [&red, &blue, &all] {
        assert!(svg.contains("data-unit=\"r1\""), "{svg}");
    }
    assert!(red.contains("as Red is shown it"), "{red}");
    assert!(!all.contains("is shown it"), "{all}");
    // a side the scenario lacks is refused, naming the sides it has
    let out = dir.join("x.svg");
    let r = kessel(&[
        "render",
        scenario.to_str().expect("utf8"),
        "-o",
        out.to_str().expect("utf8"),
        "--as",
        "gren",
    ]);
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains("--as gren: not a side") && r.stderr.contains("blue"),
        "{}",
        r.stderr
    );
    assert!(!out.exists(), "no picture for a side that is not there");
}
