//! Names in the files a user is given (a scenario's, its map's, a campaign's, a lab data file's)
//! cannot pass for the program's own output: a name holding a line break is shown on one line,
//! escaped, in every multi-line text a command prints.

use crate::util::{kessel, toy_copy, write};

/// Every line the run printed that starts with `forged`: a line a name made.
fn forged(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("forged")).collect()
}

/// `kessel info`, `simulate` (with `-v`), `report` and `campaign` printed a level's, an area's,
/// a place's, a scenario's, a variable's, a campaign's and a game's name as written: a line
/// break in one began a line of its own (`forged: …`), as if the program had printed it.
#[test]
fn names_with_line_breaks_cannot_forge_lines_of_the_summaries() {
    let dir = toy_copy("forged-names");
    let scenario = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("toy scenario");
    let edited = text.replacen(
        "name = \"Toy battle\"",
        "name = \"Toy\\nforged: scenario\"",
        1,
    );
    assert_ne!(edited, text);
    // a level's name is one too (the `result` hook names the level reached): refused as well
    let level = edited.replacen("name = \"Blue win\"", "name = \"Blue\\nforged: level\"", 1);
    std::fs::write(&scenario, &level).expect("write scenario");
    let r = kessel(&["info", scenario.to_str().expect("utf8")]);
    assert!(
        r.code != 0
            && forged(&r.stderr).is_empty()
            && r.stderr
                .contains("victory level `name` Blue\\u{a}forged: level holds a line break"),
        "{}",
        r.stderr
    );
    // a variable's name is a name the rules key the game by: one holding a line break is
    // refused at its line (it was printed escaped, and kept)
    std::fs::write(
        &scenario,
        edited.clone() + "\n[vars]\n\"v\\nforged: var\" = 1\n",
    )
    .expect("write scenario");
    let r = kessel(&["info", scenario.to_str().expect("utf8")]);
    assert!(
        r.code != 0
            && forged(&r.stderr).is_empty()
            && r.stderr
                .contains("scenario var v\\u{a}forged: var holds a line break"),
        "{}",
        r.stderr
    );
    std::fs::write(&scenario, edited).expect("write scenario");
    let map = dir.join("map.toml");
    let text = std::fs::read_to_string(&map).expect("toy map");
    let edited = text.replacen("name = \"West edge\"", "name = \"West\\nforged: area\"", 1);
    assert_ne!(edited, text);
    std::fs::write(&map, edited).expect("write map");
    let campaign = write(
        &dir,
        "campaign.toml",
        "name = \"C\\nforged: campaign\"\n[carry]\nunits = true\n\
         [[game]]\nscenario = \"scenario.toml\"\nname = \"G\\nforged: game\"\n\
         [[game]]\nscenario = \"scenario.toml\"\n",
    );
    let data = dir.join("games.jsonl");
    let (s, c, d) = (
        scenario.to_str().expect("utf8"),
        campaign.to_str().expect("utf8"),
        data.to_str().expect("utf8"),
    );
    for args in [
        vec!["info", s],
        vec![
            "simulate", s, "--games", "2", "-v", "--jobs", "1", "--out", d,
        ],
        vec!["report", d],
        vec!["campaign", c, "--seed", "1"],
    ] {
        let r = kessel(&args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert!(
            forged(&r.stdout).is_empty() && forged(&r.stderr).is_empty(),
            "{args:?} printed a line a name made:\n{}{}",
            r.stdout,
            r.stderr
        );
        assert!(r.stdout.contains("\\u{a}forged"), "{args:?}: {}", r.stdout);
    }
}

/// A game record edited by hand: its victory level, side and action kind are printed escaped by
/// `kessel report` (a line break in any began a line of its own).
#[test]
fn report_shows_a_records_names_on_one_line() {
    let dir = toy_copy("forged-record");
    let data = dir.join("games.jsonl");
    let (s, d) = (
        dir.join("scenario.toml")
            .to_str()
            .expect("utf8")
            .to_string(),
        data.to_str().expect("utf8").to_string(),
    );
    let r = kessel(&["simulate", &s, "--games", "2", "--jobs", "1", "--out", &d]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(&data).expect("data");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut game: serde_json::Value = serde_json::from_str(&lines[1]).expect("a game record");
    game["level"] = serde_json::json!("Won\nforged: level");
    game["actions_by_side"]["red"]["kind\nforged: kind"] = serde_json::json!(3);
    // (three actions more in all, as the counts by side must add up to them)
    game["actions"] = serde_json::json!(game["actions"].as_u64().expect("actions") + 3);
    lines[1] = game.to_string();
    std::fs::write(&data, lines.join("\n") + "\n").expect("write");
    let r = kessel(&["report", &d]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(forged(&r.stdout).is_empty(), "{}", r.stdout);
    assert!(r.stdout.contains("Won\\u{a}forged: level"), "{}", r.stdout);
    assert!(r.stdout.contains("kind\\u{a}forged: kind"), "{}", r.stdout);
}

/// What a mod's rules `print` reaches the terminal of whoever runs them (`kessel check`,
/// `simulate`, `test`): an escape sequence in it was written as it was, so a downloaded mod could
/// retitle the terminal or write its clipboard (OSC 52). Line breaks and tabs stay.
#[test]
fn what_rules_print_cannot_steer_the_terminal() {
    let dir = toy_copy("printed-codes");
    let init = dir.join("init.lua");
    let rules = std::fs::read_to_string(&init).expect("toy init")
        + "print(\"rules\\27]52;c;QUJD\\7 say\\r\\u{202e}hi\", \"tab\\tkept\\nline\")\n";
    std::fs::write(&init, rules).expect("write init");
    let scenario = dir.join("scenario.toml");
    let r = kessel(&["check", scenario.to_str().expect("utf8")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("rules\\u{1b}]52;c;QUJD\\u{7} say\\u{d}\\u{202e}hi\ttab\tkept\nline"),
        "{}",
        r.stdout
    );
    assert!(
        !r.stdout.contains('\u{1b}') && !r.stdout.contains('\r'),
        "{:?}",
        r.stdout
    );
}
