//! The modder's surface from the command line: declared queries (`kessel query`, `kessel info`),
//! structured records read by a script, and `kessel simulate --trace`.

use crate::util::{kessel, scratch, write};

const TOY: &str = "core/tests/fixtures/toy/scenario.toml";

/// The issue's "done when": a script reads a combat's odds, totals and result from the events and
/// a unit's supply state from a declared query, without parsing any text.
#[test]
fn a_script_reads_combat_records_and_supply_without_parsing_text() {
    let dir = scratch("surface-records");
    let script = write(
        &dir,
        "combat.lua",
        r#"
kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_combat", turn = 7, units = {
  { id = "g", side = "german", type = "panzer", formation = "F1", faces = { "6-6-10", "1-1-10" }, at = "0303" },
  { id = "s", side = "soviet", type = "rifle", faces = { "2-2-6" }, at = "0403" },
  { id = "lone", side = "soviet", type = "rifle", faces = { "2-2-6" }, at = "0101" },
  { id = "sup", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "0706" },
} }
kessel.inject_dice{ 3 }
local ok, events = kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } }
assert(ok, "the attack is legal")
local combat
for _, e in ipairs(events) do
  if e.event == "record" and e.kind == "combat" then combat = e.fields end
end
assert(combat, "the attack's events hold a combat record")
local logged = kessel.log.records{ kind = "combat" }[1].fields
assert(logged.odds == combat.odds, "the log holds the same record")
local s = kessel.queries.ask("supply", { unit = "s" })
local lone = kessel.queries.ask("supply", { unit = "lone" })
print(string.format("attack=%d defence=%d odds=%s roll=%d result=%s attackers=%s",
  combat.attack, combat.defence, combat.odds, combat.roll, combat.result, table.concat(combat.attackers, ",")))
print(string.format("supply s=%s [%s] lone=%s [%s]", tostring(s.in_supply), s.rule, tostring(lone.in_supply), lone.rule))
"#,
    );
    let r = kessel(&[
        "script",
        script.to_str().expect("utf8"),
        "--ruleset",
        "scripts/pgg",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("attack=6 defence=2 odds=3-1 roll=3 result=D1 attackers=g"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("supply s=true [11.2] lone=false [11.2]"),
        "{}",
        r.stdout
    );
}

#[test]
fn kessel_query_lists_asks_and_refuses_by_name() {
    let r = kessel(&["query", TOY]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("odds"), "{}", r.stdout);
    assert!(r.stdout.contains("units=<units>"), "{}", r.stdout);

    let r = kessel(&[
        "query",
        TOY,
        "odds",
        "units=r1,r2",
        "targets=0603",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON answer");
    assert_eq!(v["attack"], 7, "3 + 4 printed attack");
    assert_eq!(v["defence"], 3);
    assert_eq!(v["label"], "2-1");

    let r = kessel(&["query", TOY, "odds", "units=r1", "target=0603"]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("did you mean `targets`"), "{}", r.stderr);
    let r = kessel(&["query", TOY, "od", "units=r1"]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("no query `od`"), "{}", r.stderr);
}

#[test]
fn kessel_info_lists_the_declared_queries() {
    let r = kessel(&["info", TOY, "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
    let ids: Vec<&str> = v["queries"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|q| q["id"].as_str())
        .collect();
    assert_eq!(ids, ["moves", "odds"]);
    assert_eq!(v["queries"][1]["params"]["targets"]["type"], "hexes");
    let r = kessel(&["info", TOY]);
    assert!(r.stdout.contains("queries ("), "{}", r.stdout);
}

#[test]
fn simulate_trace_prints_steps_dice_and_combat_records() {
    let r = kessel(&["simulate", TOY, "--games", "1", "--trace"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("turn 1 red_move: "), "{}", r.stderr);
    assert!(r.stderr.contains("    dice combat: "), "{}", r.stderr);
    assert!(
        r.stderr.contains("    record combat [T4]: {\"attack\":"),
        "{}",
        r.stderr
    );
}
