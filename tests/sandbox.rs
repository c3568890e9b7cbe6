//! A mod's script can't touch files, processes or the network, exhaust memory or hang the engine;
//! each violation exits non-zero naming the file and line.

use crate::util::{kessel, scratch, write};
use std::time::{Duration, Instant};

fn run_script(name: &str, body: &str) -> (crate::util::Run, Duration) {
    let dir = scratch(name);
    let file = write(&dir, &format!("{name}.lua"), body);
    let t = Instant::now();
    let r = kessel(&[
        "script",
        file.to_str().expect("utf8"),
        "--ruleset",
        "core/tests/fixtures/toy",
    ]);
    (r, t.elapsed())
}

/// One library call over a huge range is over the budget at once, and said as such, not as an
/// endless loop.
#[test]
fn one_call_over_a_huge_range_is_not_called_an_endless_loop() {
    for (name, line) in [
        ("unpack_huge", "local t = { table.unpack({}, 1, 1e8) }"),
        ("move_huge", "table.move({}, 1, 1e9, 2)"),
    ] {
        let (r, _) = run_script(name, &format!("local x = 1\n{line}\n"));
        assert_ne!(r.code, 0, "{name}");
        assert!(r.stderr.contains(&format!("{name}.lua:2")), "{}", r.stderr);
        assert!(
            r.stderr.contains("one call here asks for about") && !r.stderr.contains("endless loop"),
            "{name}: {}",
            r.stderr
        );
    }
}

#[test]
fn an_endless_loop_stops_with_a_budget_error() {
    let (r, took) = run_script("forever", "local n = 0\nwhile true do n = n + 1 end\n");
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("forever.lua:2"), "{}", r.stderr);
    assert!(r.stderr.contains("instruction budget"), "{}", r.stderr);
    // not a timing target, just proof it was stopped rather than killed
    assert!(took < Duration::from_secs(60));
}

/// A loop of cheap engine reads stops at the instruction budget, not at the wall clock: each call
/// is one VM instruction that took the time of a few dozen, so 20 million instructions of
/// `kessel.hex.valid` ran some 20 seconds in a debug build.
#[test]
fn a_loop_of_cheap_engine_reads_stops_at_the_budget() {
    let dir = scratch("cheap-reads");
    for (name, setup, call) in [
        ("valid", "", "kessel.hex.valid(\"0101\")"),
        ("kept_all", "", "kessel.units.all()"),
        ("has", "local s = kessel.hexset{}", "s:has(\"0101\")"),
        (
            "cost",
            "local f = kessel.paths.field{ from = \"0101\", budget = 1 }",
            "f:cost(\"0101\")",
        ),
    ] {
        let file = write(
            &dir,
            &format!("{name}.lua"),
            &format!("{setup}\nwhile true do {call} end\n"),
        );
        let r = kessel(&[
            "script",
            file.to_str().expect("utf8"),
            "--ruleset",
            "core/tests/fixtures/toy",
            "--budget",
            "20",
            "--seconds",
            "10",
        ]);
        assert_ne!(r.code, 0, "{name}");
        assert!(
            r.stderr
                .contains(&format!("{name}.lua:2: instruction budget exceeded")),
            "{name}: {}",
            r.stderr
        );
    }
}

#[test]
fn a_memory_bomb_stops_with_a_memory_error() {
    // doubling a string stops at the longest a string may be (16 MiB), before memory runs out
    let (r, _) = run_script("bomb", "local s = 'x'\nfor i = 1, 40 do s = s .. s end\n");
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("string too long"), "{}", r.stderr);
    assert!(r.stderr.contains("bomb.lua:2"), "{}", r.stderr);
    let (r, _) = run_script("rep", "\nlocal s = string.rep('x', 1e12)\n");
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains("rep.lua:2") && r.stderr.contains("memory limit"),
        "{}",
        r.stderr
    );
    let (r, _) = run_script(
        "grow",
        "local t = {}\nlocal i = 0\nwhile true do i = i + 1; t[i] = {i, i, i} end\n",
    );
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains("memory") || r.stderr.contains("budget"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("grow.lua:3"), "{}", r.stderr);
}

#[test]
fn files_processes_modules_and_binary_chunks_are_refused() {
    for (name, body, needle) in [
        ("io", "\nio.open('/etc/passwd')\n", "io"),
        ("os", "\nos.execute('true')\n", "os"),
        (
            "req",
            "\nrequire('../../../etc/passwd')\n",
            "not a module name",
        ),
        (
            "req2",
            "\nrequire('socket')\n",
            "not found in the ruleset folder",
        ),
        ("bin", "\nload('\\27Lua\\84\\0')\n", "binary"),
    ] {
        let (r, _) = run_script(name, body);
        assert_ne!(r.code, 0, "{name}");
        assert!(
            r.stderr.contains(&format!("{name}.lua:2")),
            "{name}: {}",
            r.stderr
        );
        assert!(r.stderr.contains(needle), "{name}: {}", r.stderr);
    }
}

#[test]
fn a_script_can_set_up_act_and_read_reasons() {
    let (r, _) = run_script(
        "play",
        r#"
kessel.setup{ map = { columns = 4, rows = 4 }, step = "red_move",
  units = { { id = "r", side = "red", type = "inf", faces = { "3-3-1" }, at = "0101" } } }
local ok, reasons = kessel.act{ kind = "move", unit = "r", path = { "0104" } }
assert(not ok)
print(reasons[1].message)
"#,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("out of reach with 1 MP"), "{}", r.stdout);
}

/// Lua seeds its string hashes from the clock and memory addresses unless the build fixes the seed
/// (`.cargo/config.toml`); with a random seed, `pairs` walks string keys in a different order in
/// every run, and a script emitting events in that order would not replay bit for bit.
#[test]
fn pairs_walks_string_keys_in_the_same_order_every_run() {
    let body = "local t = {}\nfor i = 1, 64 do t['key' .. i] = i end\n\
                local out = {}\nfor k in pairs(t) do out[#out + 1] = k end\n\
                print(table.concat(out, ','))\n";
    let (first, _) = run_script("order", body);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(
        first.stdout.trim().split(',').count(),
        64,
        "{}",
        first.stdout
    );
    for _ in 0..3 {
        let (again, _) = run_script("order", body);
        assert_eq!(
            again.stdout, first.stdout,
            "the order of `pairs` changed between two runs: is the Lua hash seed of \
             .cargo/config.toml lost (a stale build of mlua-sys: `cargo clean -p mlua-sys`)?"
        );
    }
}

/// A wall-time limit under a second is said as given (`--seconds 0.25` read "0 s of wall time").
#[test]
fn a_short_wall_time_limit_is_said_as_given() {
    let dir = scratch("sandbox-short-wall");
    let file = write(&dir, "spin.lua", "while true do end\n");
    let r = kessel(&[
        "script",
        file.to_str().expect("utf8"),
        "--ruleset",
        "core/tests/fixtures/toy",
        "--budget",
        "100000",
        "--seconds",
        "0.25",
    ]);
    assert_ne!(r.code, 0);
    assert!(
        r.stderr
            .contains("spin.lua:1: time limit exceeded (0.25 s of wall time"),
        "{}",
        r.stderr
    );
}
