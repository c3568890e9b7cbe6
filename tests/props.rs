//! Property tests (proptest, a short budget inside `cargo test`): random edits of real data files
//! and random values given to the Lua API must end in a result or an error, never a panic.
//! `PROPTEST_CASES=1000 cargo test --test integration props` runs a longer campaign.

use crate::util::root;
use kessel_core::engine::Engine;
use kessel_core::options::Profile;
use kessel_core::scenario::{parse_map, Scenario};
use kessel_core::script::Limits;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::path::{Path, PathBuf};

fn runner(default_cases: u32) -> TestRunner {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default_cases);
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

fn toy(file: &str) -> (PathBuf, String) {
    let p = root().join("core/tests/fixtures/toy").join(file);
    let text = std::fs::read_to_string(&p).expect("toy file");
    (p, text)
}

/// Tokens that stress a TOML loader: structure, quotes, extreme numbers, ranges, odd bytes.
const TOML_TOKENS: &[&str] = &[
    "[",
    "]",
    "{",
    "}",
    "\"",
    "'",
    "=",
    "\n",
    ",",
    "#",
    ".",
    "..",
    "4000000000",
    "-1",
    "0",
    "99999999999999999999",
    "-2147483648",
    "nan",
    "inf",
    "1e308",
    "true",
    "[[units]]\n",
    "[[pools]]\nid = \"p\"\nfaces = [[\"1-1-1\", 4000000000]]\n",
    "[[markers]]\nkind = \"m\"\ncount = 4000000000\n",
    "\u{0}",
    "é",
    "\u{feff}",
    "0101..0199",
    "0101/0102",
    "\"0101\"",
    "\"9999\"",
    "columns = 65536\n",
    "turns = 4000000000\n",
    "[[[[[[[[",
    "]]]]]]]]",
    "\\u0000",
    "\"\"\"",
    "vp = 9223372036854775807\n",
];

/// Up to `n` edits: at a position (a fraction of the text), insert a token or delete a few bytes.
fn edits(
    n: usize,
    tokens: &'static [&'static str],
) -> impl Strategy<Value = Vec<(f64, usize, bool)>> {
    proptest::collection::vec((0.0..1.0f64, 0..tokens.len(), any::<bool>()), 1..n)
}

fn apply(text: &str, edits: &[(f64, usize, bool)], tokens: &[&str]) -> String {
    let mut out = text.to_string();
    for &(at, tok, delete) in edits {
        let mut i = ((out.len() as f64) * at) as usize;
        while i > 0 && !out.is_char_boundary(i) {
            i -= 1;
        }
        if delete {
            let mut j = (i + 1 + tok % 7).min(out.len());
            while j < out.len() && !out.is_char_boundary(j) {
                j += 1;
            }
            out.replace_range(i..j, "");
        } else {
            out.insert_str(i, tokens[tok]);
        }
    }
    out
}

#[test]
fn scenario_and_map_loaders_never_panic() {
    let (spath, stext) = toy("scenario.toml");
    let (mpath, mtext) = toy("map.toml");
    let map = parse_map(&mpath, &mtext).expect("toy map");
    runner(64)
        .run(
            &(edits(8, TOML_TOKENS), edits(8, TOML_TOKENS)),
            |(se, me)| {
                let s = apply(&stext, &se, TOML_TOKENS);
                let _ = Scenario::parse_with_map(&spath, &s, map.clone());
                let m = apply(&mtext, &me, TOML_TOKENS);
                if let Ok(edited) = parse_map(&mpath, &m) {
                    let _ = Scenario::parse_with_map(&spath, &s, edited);
                }
                Ok(())
            },
        )
        .expect("no panic");
}

#[test]
fn profile_loader_never_panics() {
    let (ppath, ptext) = toy("profiles/open.toml");
    let engine = Engine::bare(&root().join("core/tests/fixtures/toy"), Limits::default())
        .expect("toy rules");
    let decls = engine.ruleset().options.clone();
    runner(64)
        .run(&edits(8, TOML_TOKENS), |e| {
            let text = apply(&ptext, &e, TOML_TOKENS);
            let _ = Profile::parse(&ppath, &text, &decls);
            Ok(())
        })
        .expect("no panic");
}

const JSON_TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    ",",
    ":",
    "null",
    "-1",
    "0",
    "18446744073709551616",
    "1e999",
    "\"move\"",
    "\"0101\"",
    "true",
    "{\"kind\":\"move\",\"unit\":\"r1\",\"path\":[\"0999\"]}",
    "\"\\u0000\"",
    "é",
    "4294967296",
    "[[[[[[[[[[",
    "]]]]]]]]]]",
];

#[test]
fn save_loader_never_panics() {
    let scenario = root().join("core/tests/fixtures/toy/scenario.toml");
    let rel = Path::new("core/tests/fixtures/toy/scenario.toml");
    let limits = Limits {
        instructions: 20_000_000,
        ..Limits::default()
    };
    let engine = Engine::load(rel, None, 7, limits).expect("toy loads");
    assert!(scenario.is_file());
    let save = engine.save().expect("save");
    let dir = crate::util::scratch("props-save");
    let path = dir.join("game.json");
    let shown = path.clone();
    runner(32)
        .run(&edits(6, JSON_TOKENS), |e| {
            let text = apply(&save, &e, JSON_TOKENS);
            std::fs::write(&shown, &text).expect("write case");
            let _ = Engine::load_save(&shown, limits);
            Ok(())
        })
        .expect("no panic");
}

/// Values a script might pass by mistake or malice.
const LUA_ARGS: &[&str] = &[
    "nil", "true", "false", "0", "1", "-1", "7", "2^31", "2^53", "math.maxinteger",
    "2147483647", "-2147483648", "4294967295", "{set = {'0102'}, mp = 1e300}",
    "math.mininteger", "-0.0", "0/0", "1/0", "-1/0", "1e308", "0.5", "'0101'", "'0303'",
    "'0605'", "'9999'", "''", "'N'", "'SE'", "'river'", "'road'", "'red'", "'r'", "'b'", "'crt'",
    "string.rep('x', 1000)", "{}", "{'0101', '0102'}", "{'0101', 'zz'}",
    "{from = '0101', budget = 1e9}",
    "{from = '0101', budget = 0/0, class = 'foot', side = 'red'}",
    "{from = {'0101', '0303'}, budget = 3, step = {hex = true, blocked_by = {'river'}, enter_cost = {hexes = {'0202'}, cost = -5}}}",
    "{from = '0101', budget = 5, step = function(a, b) return 1 end, target = function(h) return h == '0303' end, passage = function() return 'enter' end}",
    "{from = '0101', budget = 1e300, stop = {{set = {'0102'}}}, forbid = {{set = {'0202'}, mp = 1/0}}, surcharge = {{set = {'0103'}, mp = -1e308}}, hook = function() return 0/0 end}",
    "{from = '0101', budget = 1e300, class = 'foot', side = 'red', surcharge = {{set = {'0102', '0103'}, mp = 1/0}, {set = {'0102'}, mp = 1e300}}}",
    "{hexes = {'0101'}, blocked_by = {'river'}}", "{kind = 'move', unit = 'r', path = {'0102'}}",
    "{kind = 'move', unit = 'r', path = {'0999', 7}}", "{to = '0102', from = '0101', class = 'foot', side = 'red'}",
    "{map = {columns = 2, rows = 2}}", "{map = {columns = 0, rows = 5}}", "{map = {columns = 100, rows = 1}}",
    "{units = {{id = 'x', side = 'red', type = 'inf', faces = {'1-1-1'}, at = '0101', step = 7}}, last_turn = 0, turn = 2^31}",
    "{markers = {{kind = 'm', count = 3, at = '0101'}}, step = -3}", "{step = 2^40}",
    "kessel.hexset({'0101'})", "function() error('boom') end", "function() return 1 end",
    "setmetatable({}, {__index = function() return kessel.game.turn() end})",
    "setmetatable({}, {__index = function(t, k) kessel.setup{map = {columns = 3, rows = 3}} end})",
    "setmetatable({}, {__len = function() return 2^62 end})",
];

const LUA_FUNCTIONS: &[&str] = &[
    "kessel.hex.neighbors",
    "kessel.hex.neighbor",
    "kessel.hex.distance",
    "kessel.hex.adjacent",
    "kessel.hex.direction",
    "kessel.hex.range",
    "kessel.hex.ring",
    "kessel.hex.side",
    "kessel.hex.valid",
    "kessel.hexset",
    "kessel.paths.zoc",
    "kessel.paths.field",
    "kessel.paths.trace",
    "kessel.paths.reach",
    "kessel.paths.reach_set",
    "kessel.paths.trace_costs",
    "kessel.paths.cost",
    "kessel.units.get",
    "kessel.units.at",
    "kessel.units.all",
    "kessel.units.occupied",
    "kessel.units.changed_since",
    "kessel.markers.all",
    "kessel.markers.at",
    "kessel.map.terrain",
    "kessel.map.sides",
    "kessel.map.has_side",
    "kessel.map.has_link",
    "kessel.map.place",
    "kessel.map.area",
    "kessel.map.tagged",
    "kessel.map.tags",
    "kessel.map.on_edge",
    "kessel.map.column",
    "kessel.map.row",
    "kessel.tables.odds",
    "kessel.tables.result",
    "kessel.tables.distribution",
    "kessel.tables.columns",
    "kessel.game.var",
    "kessel.game.option",
    "kessel.game.pool",
    "kessel.game.unit_type",
    "kessel.scenario.var",
    "kessel.emit.place",
    "kessel.emit.move",
    "kessel.emit.step",
    "kessel.emit.reveal",
    "kessel.emit.conceal",
    "kessel.emit.flag",
    "kessel.emit.unit_var",
    "kessel.emit.var",
    "kessel.emit.marker",
    "kessel.emit.note",
    "kessel.emit.clock",
    "kessel.emit.advance",
    "kessel.emit.eliminate",
    "kessel.dice.roll",
    "kessel.inject_dice",
    "kessel.setup",
    "kessel.act",
    "kessel.validate",
    "kessel.legal",
    "kessel.undo",
    "kessel.state_hash",
    "kessel.replay_hash",
    "kessel.events",
    "string.find",
    "string.gsub",
    "string.rep",
    "string.format",
    "table.concat",
    "table.move",
    "table.unpack",
    "table.insert",
];

#[test]
fn lua_api_arguments_never_panic() {
    let limits = Limits {
        instructions: 20_000_000,
        memory: 64 << 20,
        ..Limits::default()
    };
    // the runner's closure is `Fn`: the engine (whose script runs take `&mut`) sits in a cell
    let engine = std::cell::RefCell::new(
        Engine::bare(&root().join("core/tests/fixtures/toy"), limits).expect("toy"),
    );
    let call = (
        0..LUA_FUNCTIONS.len(),
        proptest::collection::vec(0..LUA_ARGS.len(), 0..5),
    );
    runner(64)
        .run(&proptest::collection::vec(call, 1..12), |calls| {
            let mut src = String::from(
                "kessel.setup{ map = { columns = 6, rows = 5 }, step = 'red_move', units = {\n\
                 { id = 'r', side = 'red', type = 'inf', faces = { '3-3-4' }, at = '0101' },\n\
                 { id = 'b', side = 'blue', type = 'inf', faces = { '2-3-4' }, at = '0303' } } }\n",
            );
            for (f, args) in &calls {
                let args: Vec<&str> = args.iter().map(|a| LUA_ARGS[*a]).collect();
                src.push_str(&format!(
                    "pcall({}, {})\n",
                    LUA_FUNCTIONS[*f],
                    if args.is_empty() {
                        "nil".to_string()
                    } else {
                        args.join(", ")
                    }
                ));
            }
            let _ = engine.borrow_mut().run_script_text("props.lua", &src);
            Ok(())
        })
        .expect("no panic");
}
