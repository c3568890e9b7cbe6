//! Units and the map changed in play, driven through `kessel script` on the toy ruleset: the
//! state after the changes is what a replay of the events alone gives, and the same seed gives
//! the same game.

use crate::util::{kessel, scratch, write};

/// Creates a unit, changes a unit's type (keeping a table in a unit variable) and a hex's
/// terrain, all through the toy's actions, and prints what it sees.
const SCRIPT: &str = r#"
local ok, events = kessel.act{ kind = "recruit", unit = "r1" }
assert(ok, "recruit accepted")
local id = events[1].unit.id
assert(kessel.act{ kind = "harden", unit = "r2" })
assert(kessel.act{ kind = "entrench", unit = "r1" })
local s, r2 = kessel.units.get(id), kessel.units.get("r2")
print("created", id, s.type, s.face.firepower .. "-" .. s.face.range .. "-" .. s.face.morale, s.hex)
print("changed", r2.type, r2.face.morale, r2.vars.history[1].was)
print("terrain", kessel.map.terrain(kessel.units.get("r1").hex))
print("replay", kessel.replay_hash())
print("state", kessel.state_hash())
"#;

fn line<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find(|l| l.starts_with(key))
        .unwrap_or_else(|| panic!("no `{key}` line in {out}"))
}

#[test]
fn a_script_creates_and_changes_units_and_terrain_and_the_replay_agrees() {
    let dir = scratch("changes-script");
    let file = write(&dir, "changes.lua", SCRIPT);
    let run = || {
        kessel(&[
            "script",
            file.to_str().expect("utf8"),
            "--scenario",
            "core/tests/fixtures/toy/scenario.toml",
            "--seed",
            "5",
        ])
    };
    let r = run();
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        line(&r.stdout, "created"),
        "created\tsquad.5\tsquad\t4-4-7\t0203"
    );
    assert_eq!(line(&r.stdout, "changed"), "changed\tsquad\t8\ttank");
    assert_eq!(line(&r.stdout, "terrain"), "terrain\twoods");
    let replay = line(&r.stdout, "replay").trim_start_matches("replay\t");
    let state = line(&r.stdout, "state").trim_start_matches("state\t");
    assert_eq!(replay, state, "state = set-up + events");
    // the same seed and script give the same game, hash for hash
    let again = run();
    assert_eq!(again.stdout, r.stdout);
}

#[test]
fn event_hooks_that_feed_themselves_stop_at_the_nesting_limit() {
    let dir = crate::util::toy_copy("hook-loop");
    let init = dir.join("init.lua");
    let text = std::fs::read_to_string(&init).expect("init.lua");
    std::fs::write(
        &init,
        format!(
            "{text}\nkessel.on(\"event:note\", function(e) kessel.emit.note(nil, \"again\") end)\n"
        ),
    )
    .expect("write");
    let file = write(&dir, "loop.lua", "kessel.emit.note(nil, \"first\")\n");
    let r = kessel(&[
        "script",
        file.to_str().expect("utf8"),
        "--ruleset",
        dir.to_str().expect("utf8"),
    ]);
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains("event hooks nested deeper than 8") && r.stderr.contains("init.lua:"),
        "{}",
        r.stderr
    );
}
