//! A mutation fuzzer kept as a test: the files Kessel ships (a scenario, its map, a profile, a
//! campaign, a save, a campaign save, a `.kessel` package and a ruleset's Lua) are damaged the
//! ways a hostile or careless author damages them — bytes flipped, the file cut, TOML keys and
//! tables given twice or dropped, values of the wrong type, huge numbers, deep nesting, odd
//! Unicode, events reordered — and each damaged copy is loaded, checked and played a few
//! actions. The property: no panic, no hang, and a refusal names the file.
//!
//! Deterministic: a seeded generator and a fixed number of cases (a few seconds of a debug
//! build). A longer run on demand:
//!
//! ```text
//! KESSEL_MUTATE_CASES=2000 KESSEL_MUTATE_SEED=7 cargo test --offline --test integration mutate -- --nocapture
//! ```
//!
//! `KESSEL_MUTATE_CASES` is the number of damaged copies of each file (default 24);
//! `KESSEL_MUTATE_SEED` the generator's seed (default 1). A failure names the seed and case, so
//! it can be run again alone.

use crate::util::{kessel_at, resign_save, root, scratch, toy_copy, write};
use kessel_core::action::Action;
use kessel_core::campaign::Campaign;
use kessel_core::engine::Engine;
use kessel_core::script::Limits;
use serde_json::Value as Json;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

fn cases() -> u64 {
    env_number("KESSEL_MUTATE_CASES", 24)
}

fn first_seed() -> u64 {
    env_number("KESSEL_MUTATE_SEED", 1)
}

/// A small seeded generator (SplitMix64): the same seed, the same damage, on every machine.
struct Rng(u64);

impl Rng {
    fn new(seed: u64, stream: &str) -> Rng {
        let mut h = seed ^ 0x9e37_79b9_7f4a_7c15;
        for b in stream.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
        Rng(h)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 for an empty range).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// Values of every TOML type, and of the kinds that break readers: out of every integer range,
/// not finite, empty, of the wrong shape.
const TOML_VALUES: &[&str] = &[
    "\"\"",
    "\"x\"",
    "\"0101\"",
    "\"9999\"",
    "\"red\"",
    "0",
    "-1",
    "1",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "1.5",
    "-0.0",
    "1e308",
    "nan",
    "inf",
    "-inf",
    "true",
    "false",
    "[]",
    "[1, \"a\"]",
    "[\"0101\", \"0101\"]",
    "{}",
    "{ a = 1 }",
    "1979-05-27T07:32:00Z",
    "\"0101..9999\"",
    "[\"0101..0199\"]",
    "\"\\u0000\"",
];

/// Numbers a reader may take for a count, an index, a size or a coordinate.
const HUGE_NUMBERS: &[&str] = &[
    "9223372036854775807",
    "-9223372036854775808",
    "4294967295",
    "4294967296",
    "2147483647",
    "-2147483648",
    "65535",
    "65536",
    "1000000",
    "99999999",
    "1e308",
    "-1e308",
    "0",
    "-1",
];

/// Text that shows as nothing, reorders what follows, ends a line or is not a character at all.
const ODD_TEXT: &[&str] = &[
    "\u{202e}",
    "\u{200b}",
    "\u{200d}",
    "\u{feff}",
    "\u{0301}\u{0301}\u{0301}",
    "\\u0000",
    "\\n",
    "\\r",
    "\\u001b]0;x\\u0007",
    "\\u2028",
    "\u{1f600}",
    "\u{10ffff}",
    "é",
    "渡河",
    "\\\\",
    "\\\"",
];

/// What one mutation does; a case applies one to three.
fn mutate_text(text: &[u8], rng: &mut Rng) -> (Vec<u8>, Vec<String>) {
    let mut bytes = text.to_vec();
    let mut said = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let (next, what) = mutate_once(&bytes, rng);
        bytes = next;
        said.push(what);
    }
    (bytes, said)
}

fn lines_of(bytes: &[u8]) -> Vec<Vec<u8>> {
    bytes
        .split_inclusive(|b| *b == b'\n')
        .map(|l| l.to_vec())
        .collect()
}

/// The lines that open a TOML table (`[x]` or `[[x]]`), by index.
fn table_heads(lines: &[Vec<u8>]) -> Vec<usize> {
    (0..lines.len())
        .filter(|i| lines[*i].first() == Some(&b'['))
        .collect()
}

/// The lines `key = value` (not a table head or comment), by index.
fn key_lines(lines: &[Vec<u8>]) -> Vec<usize> {
    (0..lines.len())
        .filter(|i| {
            let l = &lines[*i];
            l.first().is_some_and(|b| b.is_ascii_alphabetic()) && l.windows(3).any(|w| w == b" = ")
        })
        .collect()
}

fn mutate_once(bytes: &[u8], rng: &mut Rng) -> (Vec<u8>, String) {
    let mut out = bytes.to_vec();
    let mut lines = lines_of(bytes);
    match rng.below(13) {
        0 => {
            if out.is_empty() {
                return (out, "nothing to flip".into());
            }
            let at = rng.below(out.len());
            let old = out[at];
            out[at] = if rng.chance(2) {
                old ^ (1 << rng.below(8))
            } else {
                rng.below(256) as u8
            };
            let new = out[at];
            (out, format!("byte {at} {old:#04x} -> {new:#04x}"))
        }
        1 => {
            let at = rng.below(out.len() + 1);
            out.truncate(at);
            (out, format!("cut at {at}"))
        }
        2 | 3 => {
            // a key given twice, or a line gone
            if lines.is_empty() {
                return (out, "no line".into());
            }
            let keys = key_lines(&lines);
            let i = if keys.is_empty() || rng.chance(4) {
                rng.below(lines.len())
            } else {
                *rng.pick(&keys)
            };
            let what = if rng.chance(2) {
                let line = lines[i].clone();
                lines.insert(i + 1, line);
                format!("line {} doubled", i + 1)
            } else {
                lines.remove(i);
                format!("line {} removed", i + 1)
            };
            (lines.concat(), what)
        }
        4 | 5 => {
            // a table given twice, or gone
            let heads = table_heads(&lines);
            if heads.is_empty() {
                return (out, "no table".into());
            }
            let h = rng.below(heads.len());
            let start = heads[h];
            let end = heads.get(h + 1).copied().unwrap_or(lines.len());
            let block: Vec<Vec<u8>> = lines[start..end].to_vec();
            if rng.chance(2) {
                let at = if rng.chance(2) { end } else { lines.len() };
                let mut block = block;
                if let Some(last) = block.last_mut() {
                    if last.last() != Some(&b'\n') {
                        last.push(b'\n');
                    }
                }
                lines.splice(at..at, block);
                (
                    lines.concat(),
                    format!("table at line {} doubled", start + 1),
                )
            } else {
                lines.drain(start..end);
                (
                    lines.concat(),
                    format!("table at line {} removed", start + 1),
                )
            }
        }
        6 | 7 => {
            // a value of another type (or another shape)
            let keys = key_lines(&lines);
            if keys.is_empty() {
                return (out, "no key".into());
            }
            let i = *rng.pick(&keys);
            let line = lines[i].clone();
            let Some(eq) = line.windows(3).position(|w| w == b" = ") else {
                return (out, "no key".into());
            };
            let value = rng.pick(TOML_VALUES);
            let mut new = line[..eq + 3].to_vec();
            new.extend_from_slice(value.as_bytes());
            new.push(b'\n');
            lines[i] = new;
            (lines.concat(), format!("line {} = {value}", i + 1))
        }
        8 => {
            // a huge number where a number was
            let runs = digit_runs(&out);
            let Some(at) = (!runs.is_empty()).then(|| *rng.pick(&runs)) else {
                return (out, "no number".into());
            };
            let n = rng.pick(HUGE_NUMBERS);
            out.splice(at.0..at.1, n.bytes());
            (out, format!("number at {} -> {n}", at.0))
        }
        9 => {
            // deep nesting in place of a value
            let keys = key_lines(&lines);
            if keys.is_empty() {
                return (out, "no key".into());
            }
            let i = *rng.pick(&keys);
            let line = lines[i].clone();
            let Some(eq) = line.windows(3).position(|w| w == b" = ") else {
                return (out, "no key".into());
            };
            let depth = 50 + rng.below(3000);
            let nested = if rng.chance(2) {
                format!("{}1{}", "[".repeat(depth), "]".repeat(depth))
            } else {
                format!("{}1{}", "{ a = ".repeat(depth), " }".repeat(depth))
            };
            let mut new = line[..eq + 3].to_vec();
            new.extend_from_slice(nested.as_bytes());
            new.push(b'\n');
            lines[i] = new;
            (
                lines.concat(),
                format!("line {} nested {depth} deep", i + 1),
            )
        }
        10 | 11 => {
            // odd text inside a quoted string
            let quotes: Vec<usize> = (0..out.len()).filter(|i| out[*i] == b'"').collect();
            if quotes.is_empty() {
                return (out, "no string".into());
            }
            let at = *rng.pick(&quotes) + 1;
            let odd = rng.pick(ODD_TEXT);
            let odd = if rng.chance(8) {
                odd.repeat(1 + rng.below(20_000))
            } else {
                odd.to_string()
            };
            out.splice(at..at, odd.bytes());
            (
                out,
                format!(
                    "{} bytes of {:?} at {at}",
                    odd.len(),
                    &odd[..odd.len().min(12)]
                ),
            )
        }
        _ => {
            // two lines swapped (the order of keys, tables or list items)
            if lines.len() < 2 {
                return (out, "one line".into());
            }
            let a = rng.below(lines.len());
            let b = rng.below(lines.len());
            lines.swap(a, b);
            (
                lines.concat(),
                format!("lines {} and {} swapped", a + 1, b + 1),
            )
        }
    }
}

/// Spans of ASCII digits.
fn digit_runs(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            runs.push((start, i));
        } else {
            i += 1;
        }
    }
    runs
}

/// Mutations of a Lua source: the text ones, and Lua's own ways to go wrong (a value of another
/// type, a bomb in place of an expression, a call into the engine where none is expected).
fn mutate_lua(text: &[u8], rng: &mut Rng) -> (Vec<u8>, Vec<String>) {
    const LUA_VALUES: &[&str] = &[
        "nil",
        "0",
        "-1",
        "math.maxinteger",
        "math.mininteger",
        "0/0",
        "1/0",
        "2^63",
        "''",
        "{}",
        "function() end",
        "string.rep('x', 1 << 20)",
        "setmetatable({}, { __index = function(t, k) return t[k] end })",
        "setmetatable({}, { __tostring = function(t) return tostring(t) end })",
        "coroutine.create(function() end)",
        "kessel.hexset({})",
    ];
    const LUA_LINES: &[&str] = &[
        "error(setmetatable({}, { __tostring = function() error('again') end }))",
        "error(setmetatable({}, { __tostring = function(t) return tostring(t) end }))",
        "error({})",
        "error(nil)",
        "local s = 'x' for _ = 1, 40 do s = s .. s end",
        "local t = {} for i = 1, 1e8 do t[i] = i end",
        "while true do end",
        "collectgarbage('stop')",
        "collectgarbage('generational')",
        "collectgarbage('incremental', 0, 0)",
        "collectgarbage('step', math.maxinteger)",
        "coroutine.wrap(function() while true do coroutine.yield() end end)()",
        "pcall(kessel.act, { kind = 'end_step' })",
        "pcall(kessel.setup, { map = { columns = 1, rows = 1 } })",
        "pcall(kessel.undo)",
        "table.concat(setmetatable({}, { __len = function() return math.maxinteger end }))",
        "string.rep('ab', math.maxinteger)",
        "string.format('%099999d', 1)",
        "('x'):rep(1e9)",
        "local function f() return f() end f()",
        "local function f() return 1 + f() end f()",
        "setmetatable(_ENV, { __index = function(t, k) return t[k] end })",
        "kessel = nil",
        "string = nil",
    ];
    let mut bytes = text.to_vec();
    let mut said = Vec::new();
    for _ in 0..1 + rng.below(2) {
        let mut lines = lines_of(&bytes);
        match rng.below(6) {
            0 | 1 => {
                // a statement that goes wrong, inserted between two lines
                let at = rng.below(lines.len() + 1);
                let line = rng.pick(LUA_LINES);
                lines.insert(at, format!("{line}\n").into_bytes());
                said.push(format!("line {} inserted: {line}", at + 1));
                bytes = lines.concat();
            }
            2 => {
                // a value of another kind at `= x` or `return x`
                let spots: Vec<usize> = (0..bytes.len().saturating_sub(3))
                    .filter(|i| {
                        &bytes[*i..*i + 3] == b" = " && bytes.get(i.wrapping_sub(1)) != Some(&b'=')
                    })
                    .collect();
                let Some(at) = (!spots.is_empty()).then(|| *rng.pick(&spots)) else {
                    continue;
                };
                let end = bytes[at + 3..]
                    .iter()
                    .position(|b| matches!(b, b',' | b'\n' | b'}'))
                    .map_or(bytes.len(), |p| at + 3 + p);
                let value = rng.pick(LUA_VALUES);
                bytes.splice(at + 3..end, value.bytes());
                said.push(format!("value at {} -> {value}", at + 3));
            }
            _ => {
                let (next, what) = mutate_once(&bytes, rng);
                bytes = next;
                said.push(what);
            }
        }
    }
    (bytes, said)
}

/// Mutations of a JSON document as a tree: a value of another type, a key or item removed, an
/// item doubled, two items swapped (events reordered), a huge number, deep nesting, odd text.
fn mutate_json(doc: &mut Json, rng: &mut Rng) -> String {
    // the paths to every value
    fn paths(v: &Json, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(at.clone());
        match v {
            Json::Object(m) => {
                for (k, child) in m {
                    at.push(k.clone());
                    paths(child, at, out);
                    at.pop();
                }
            }
            Json::Array(a) => {
                for (i, child) in a.iter().enumerate() {
                    at.push(i.to_string());
                    paths(child, at, out);
                    at.pop();
                }
            }
            _ => {}
        }
    }
    fn at<'a>(v: &'a mut Json, path: &[String]) -> &'a mut Json {
        let mut v = v;
        for p in path {
            v = match v {
                Json::Object(m) => m.get_mut(p).expect("a path made from the tree"),
                Json::Array(a) => &mut a[p.parse::<usize>().expect("an index")],
                _ => unreachable!("a path made from the tree"),
            };
        }
        v
    }
    let mut all = Vec::new();
    paths(doc, &mut Vec::new(), &mut all);
    let path = rng.pick(&all).clone();
    let shown = format!("/{}", path.join("/"));
    let node = at(doc, &path);
    match rng.below(8) {
        0 => {
            let values = [
                Json::Null,
                Json::Bool(true),
                serde_json::json!(0),
                serde_json::json!(-1),
                serde_json::json!(u64::MAX),
                serde_json::json!(i64::MIN),
                serde_json::json!(1e308),
                serde_json::json!(0.5),
                serde_json::json!(""),
                serde_json::json!("0101"),
                serde_json::json!([]),
                serde_json::json!({}),
                serde_json::json!([1, "a", null]),
            ];
            let v = rng.pick(&values).clone();
            *node = v.clone();
            format!("{shown} = {v}")
        }
        1 => match node {
            Json::Object(m) if !m.is_empty() => {
                let keys: Vec<String> = m.keys().cloned().collect();
                let k = rng.pick(&keys).clone();
                m.remove(&k);
                format!("{shown}/{k} removed")
            }
            Json::Array(a) if !a.is_empty() => {
                let i = rng.below(a.len());
                a.remove(i);
                format!("{shown}/{i} removed")
            }
            _ => "nothing removed".into(),
        },
        2 => match node {
            Json::Array(a) if !a.is_empty() => {
                let i = rng.below(a.len());
                let item = a[i].clone();
                a.insert(i, item);
                format!("{shown}/{i} doubled")
            }
            _ => "nothing doubled".into(),
        },
        3 => match node {
            Json::Array(a) if a.len() > 1 => {
                let i = rng.below(a.len());
                let j = rng.below(a.len());
                a.swap(i, j);
                format!("{shown}/{i} and {j} swapped")
            }
            _ => "nothing swapped".into(),
        },
        4 => {
            let n = rng.pick(HUGE_NUMBERS);
            let v: Json = serde_json::from_str(n).unwrap_or(Json::Null);
            *node = v;
            format!("{shown} = {n}")
        }
        5 => {
            let depth = 50 + rng.below(400);
            let mut v = Json::Null;
            for _ in 0..depth {
                v = if rng.chance(2) {
                    Json::Array(vec![v])
                } else {
                    serde_json::json!({ "kind": v })
                };
            }
            *node = v;
            format!("{shown} nested {depth} deep")
        }
        6 => {
            let odd = rng.pick(ODD_TEXT);
            let odd = odd.replace("\\u0000", "\0").replace("\\n", "\n");
            if let Json::String(s) = node {
                let mut at = rng.below(s.len() + 1);
                while !s.is_char_boundary(at) {
                    at -= 1;
                }
                s.insert_str(at, &odd);
                format!("{shown}: {odd:?} inserted")
            } else {
                *node = Json::String(odd.clone());
                format!("{shown} = {odd:?}")
            }
        }
        _ => match node {
            // a key of an object renamed
            Json::Object(m) if !m.is_empty() => {
                let keys: Vec<String> = m.keys().cloned().collect();
                let k = rng.pick(&keys).clone();
                let v = m.remove(&k).unwrap_or(Json::Null);
                let new = format!("{k}{}", rng.pick(ODD_TEXT));
                m.insert(new.clone(), v);
                format!("{shown}/{k} renamed {new:?}")
            }
            _ => "nothing renamed".into(),
        },
    }
}

/// A run of cases on a worker thread, watched from this one: a case that takes longer than
/// `hang` is a hang. The worker says which case it starts before each; a panic or a finding is
/// sent back as text.
fn watched(
    name: &str,
    hang: Duration,
    work: impl FnOnce(&dyn Fn(String)) -> Vec<String> + Send + 'static,
) {
    let (tx, rx) = mpsc::channel::<Result<String, Vec<String>>>();
    let worker_tx = tx.clone();
    let handle = std::thread::Builder::new()
        .name(format!("mutate-{name}"))
        .stack_size(8 << 20)
        .spawn(move || {
            let say = |case: String| {
                let _ = worker_tx.send(Ok(case));
            };
            let found = work(&say);
            let _ = worker_tx.send(Err(found));
        })
        .expect("spawn the fuzzing thread");
    drop(tx);
    let mut current = String::from("(before the first case)");
    loop {
        match rx.recv_timeout(hang) {
            Ok(Ok(case)) => current = case,
            Ok(Err(found)) => {
                let _ = handle.join();
                assert!(
                    found.is_empty(),
                    "{name}: {} findings:\n{}",
                    found.len(),
                    found.join("\n\n")
                );
                return;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                panic!("{name}: no end after {hang:?}: a hang at {current}")
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                panic!("{name}: the fuzzing thread died at {current}")
            }
        }
    }
}

fn panic_words(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic without words".into())
}

/// Adds to `found` what a damaged file's `run` did wrong: a panic, or an error naming none of
/// `names` (the files it could be about).
fn judge(
    found: &mut Vec<String>,
    label: &str,
    run: std::thread::Result<Option<String>>,
    names: &[&str],
) {
    match run {
        Err(p) => found.push(format!("{label}\n  PANIC: {}", panic_words(p))),
        Ok(Some(e)) if !names.iter().any(|n| e.contains(n)) => {
            found.push(format!("{label}\n  unnamed: {e}"))
        }
        Ok(_) => {}
    }
}

fn limits() -> Limits {
    Limits {
        memory: 64 << 20,
        instructions: 20_000_000,
        wall: Duration::from_secs(10),
    }
}

/// Loads `scenario`, then plays a few listed actions, saves the game and loads the save:
/// what failed, as text (a refusal by the rules is play, not a failure). `names` are the words
/// of which a load's error must hold one.
fn load_and_play(scenario: &Path, seed: u64, names: &[&str]) -> Result<(), String> {
    let check = |said: String| -> Result<(), String> {
        if names.iter().any(|n| said.contains(n)) {
            Ok(())
        } else {
            Err(format!("an error naming none of {names:?}: {said}"))
        }
    };
    let mut engine = match Engine::load(scenario, None, seed, limits()) {
        Ok(e) => e,
        Err(e) => return check(e.to_string()).map_err(|m| format!("load: {m}")),
    };
    let mut choice = Rng::new(seed, "choice");
    for _ in 0..4 {
        if engine.state().finished {
            break;
        }
        let legal = match engine.legal_actions(None) {
            Ok(l) => l,
            Err(e) => return check(e.message).map_err(|m| format!("legal: {m}")),
        };
        let Some(action) = (!legal.is_empty()).then(|| choice.pick(&legal).clone()) else {
            break;
        };
        match engine.act(&action) {
            Ok(_) => {}
            Err(e) => return check(e.message).map_err(|m| format!("act: {m}")),
        }
    }
    // what was played is not lost: the save loads back to the same game
    let save = engine.save().map_err(|e| format!("save: {e}"))?;
    let path = scenario.with_file_name("mutated-save.json");
    std::fs::write(&path, &save).map_err(|e| format!("write the save: {e}"))?;
    let back = Engine::load_save(&path, limits())
        .map_err(|e| format!("the save of a game that loaded does not load: {e}"))?;
    if back.state().hash() != engine.state().hash() {
        return Err("the save loads to another game".into());
    }
    Ok(())
}

/// Reloads the rules of a game in progress from the damaged files: refused, the error names a
/// file and the last good rules stay live (they list what they listed); taken, the game goes on
/// or fails naming a file.
fn reloaded(engine: &mut Engine, listed: &[Action], names: &[&str]) -> Result<(), String> {
    let named = |said: &str| names.iter().any(|n| said.contains(n));
    match engine.reload_rules() {
        Err(e) if !named(&e.message) => Err(format!("an error naming no file: {}", e.message)),
        Err(_) => match engine.legal_actions(None) {
            Ok(now) if now == listed => Ok(()),
            Ok(_) => Err("refused, and the last good rules list other actions".into()),
            Err(e) => Err(format!(
                "refused, and the last good rules fail: {}",
                e.message
            )),
        },
        Ok(()) => match engine.legal_actions(None) {
            Err(e) if !named(&e.message) => Err(format!("an error naming no file: {}", e.message)),
            _ => Ok(()),
        },
    }
}

/// One file of `dir` damaged `cases()` times (the first copy of the sample restored before each),
/// the game loaded from `scenario` after each.
fn fuzz_file(name: &str, dir: PathBuf, file: &str, names: &'static [&'static str], lua: bool) {
    let name = name.to_string();
    let file = file.to_string();
    let seed = first_seed();
    let n = cases();
    watched(&name.clone(), Duration::from_secs(120), move |say| {
        let path = dir.join(&file);
        let sample = std::fs::read(&path).expect("the sample");
        let scenario = dir.join("scenario.toml");
        // a game in progress whose rules file is replaced by each damaged copy, as the editor
        // reloads a file saved while playing
        let mut live =
            lua.then(|| Engine::load(&scenario, None, 1, limits()).expect("the toy loads"));
        let listed = live
            .as_ref()
            .map(|e| e.legal_actions(None).expect("the toy lists its actions"));
        let mut found = Vec::new();
        for case in 0..n {
            let mut rng = Rng::new(seed, &format!("{name}/{case}"));
            let (bytes, what) = if lua {
                mutate_lua(&sample, &mut rng)
            } else {
                mutate_text(&sample, &mut rng)
            };
            let label = format!("{name}: seed {seed} case {case}: {}", what.join("; "));
            say(label.clone());
            std::fs::write(&path, &bytes).expect("write the case");
            match catch_unwind(AssertUnwindSafe(|| load_and_play(&scenario, case, names))) {
                Err(payload) => found.push(format!("{label}\n  PANIC: {}", panic_words(payload))),
                Ok(Err(m)) => found.push(format!("{label}\n  {m}")),
                Ok(Ok(())) => {}
            }
            if let (Some(engine), Some(listed)) = (live.as_mut(), listed.as_ref()) {
                let reload = catch_unwind(AssertUnwindSafe(|| reloaded(engine, listed, names)));
                match reload {
                    Err(payload) => found.push(format!(
                        "{label}\n  PANIC in reload: {}",
                        panic_words(payload)
                    )),
                    Ok(Err(m)) => found.push(format!("{label}\n  reload: {m}")),
                    Ok(Ok(())) => {}
                }
                // the good rules back, for the next case
                std::fs::write(&path, &sample).expect("put the sample back");
                if let Err(e) = engine.reload_rules() {
                    found.push(format!(
                        "{label}\n  the good rules do not load again: {}",
                        e.message
                    ));
                    live = None;
                }
            }
        }
        std::fs::write(&path, &sample).expect("put the sample back");
        found
    });
}

#[test]
fn a_damaged_scenario_is_played_or_refused_naming_it() {
    fuzz_file(
        "scenario",
        toy_copy("mutate-scenario"),
        "scenario.toml",
        &["scenario.toml"],
        false,
    );
}

#[test]
fn a_damaged_map_is_played_or_refused_naming_it() {
    // (a place or area the scenario names and the damaged map lost is the scenario's line)
    fuzz_file(
        "map",
        toy_copy("mutate-map"),
        "map.toml",
        &["map.toml", "scenario.toml"],
        false,
    );
}

#[test]
fn a_damaged_profile_is_played_or_refused_naming_it() {
    fuzz_file(
        "profile",
        toy_copy("mutate-profile"),
        "profiles/standard.toml",
        &["standard.toml"],
        false,
    );
}

#[test]
fn damaged_rules_are_played_or_refused_naming_a_rules_file() {
    for file in [
        "init.lua",
        "rules/play.lua",
        "rules/works.lua",
        "rules/secrets.lua",
        "rules/muster.lua",
    ] {
        let stem = file.replace(['/', '.'], "-");
        fuzz_file(
            &format!("lua {file}"),
            toy_copy(&format!("mutate-{stem}")),
            file,
            &[".lua:", ".lua\"]:", "[load ", "scenario.toml", "map.toml"],
            true,
        );
    }
}

/// The PGG learning scenario and its map, read as the editor reads unsaved text: the bundled
/// files, bigger and more varied than the toy's.
#[test]
fn the_bundled_scenario_and_map_damaged_are_read_or_refused_naming_them() {
    let seed = first_seed();
    let n = cases() * 4;
    watched("bundled", Duration::from_secs(120), move |say| {
        let dir = root().join("scenarios/pgg");
        let map_path = dir.join("map.toml");
        let map_text = std::fs::read(&map_path).expect("PGG map");
        let map = kessel_core::scenario::load_map(&map_path).expect("PGG map loads");
        let path = dir.join("learning.toml");
        let text = std::fs::read(&path).expect("learning scenario");
        let mut found = Vec::new();
        for case in 0..n {
            let mut rng = Rng::new(seed, &format!("bundled/{case}"));
            let (bytes, what) = mutate_text(&text, &mut rng);
            let label = format!(
                "learning.toml: seed {seed} case {case}: {}",
                what.join("; ")
            );
            say(label.clone());
            let t = String::from_utf8_lossy(&bytes).into_owned();
            let read = catch_unwind(AssertUnwindSafe(|| {
                let a = kessel_core::scenario::Scenario::parse_with_map(&path, &t, map.clone())
                    .err()
                    .map(|e| e.to_string());
                let b =
                    kessel_core::scenario::Scenario::parse_with_map_lenient(&path, &t, map.clone())
                        .err()
                        .map(|e| e.to_string());
                a.into_iter().chain(b).collect::<Vec<_>>()
            }));
            match read {
                Err(p) => found.push(format!("{label}\n  PANIC: {}", panic_words(p))),
                Ok(errors) => found.extend(
                    errors
                        .into_iter()
                        .filter(|e| !e.contains("learning.toml"))
                        .map(|e| format!("{label}\n  unnamed: {e}")),
                ),
            }
            let (bytes, what) = mutate_text(&map_text, &mut rng);
            let label = format!("map.toml: seed {seed} case {case}: {}", what.join("; "));
            say(label.clone());
            let t = String::from_utf8_lossy(&bytes).into_owned();
            let read = catch_unwind(AssertUnwindSafe(|| {
                kessel_core::scenario::parse_map(&map_path, &t)
                    .err()
                    .map(|e| e.to_string())
            }));
            judge(&mut found, &label, read, &["map.toml"]);
        }
        found
    });
}

#[test]
fn a_damaged_campaign_is_started_or_refused_naming_it() {
    let seed = first_seed();
    let n = cases();
    watched("campaign", Duration::from_secs(120), move |say| {
        let dir = toy_copy("mutate-campaign");
        let sample = "name = \"Toy campaign\"\ndescription = \"Twice the river\"\n\
             [carry]\nunits = true\nvars = [\"score\", \"turns\"]\nmarkers = true\n\
             [[game]]\nscenario = \"scenario.toml\"\nname = \"First\"\nprofile = \"open\"\n\
             [[game]]\nscenario = \"scenario.toml\"\nname = \"Second\"\n";
        let path = write(&dir, "campaign.toml", sample);
        let mut found = Vec::new();
        for case in 0..n {
            let mut rng = Rng::new(seed, &format!("campaign/{case}"));
            let (bytes, what) = mutate_text(sample.as_bytes(), &mut rng);
            let label = format!("campaign: seed {seed} case {case}: {}", what.join("; "));
            say(label.clone());
            std::fs::write(&path, &bytes).expect("write");
            let run = catch_unwind(AssertUnwindSafe(|| -> Option<String> {
                let campaign = match Campaign::load(&path) {
                    Ok(c) => c,
                    Err(e) => return Some(e.to_string()),
                };
                if let Err(e) = kessel_core::engine::check_games(&campaign) {
                    return Some(e.to_string());
                }
                match Engine::campaign_game(&campaign, 0, case, limits(), None) {
                    Ok(_) => None,
                    Err(e) => Some(e.to_string()),
                }
            }));
            judge(&mut found, &label, run, &["campaign.toml", "scenario.toml"]);
        }
        found
    });
}

/// A toy game of a few moves, saved: the sample of the save tests.
fn toy_save() -> String {
    let scenario = root().join("core/tests/fixtures/toy/scenario.toml");
    let mut engine = Engine::load(&scenario, None, 7, limits()).expect("toy loads");
    let mut choice = Rng::new(7, "save");
    for _ in 0..6 {
        let legal = engine.legal_actions(None).expect("listed");
        if legal.is_empty() {
            break;
        }
        let a: Action = choice.pick(&legal).clone();
        let accepted = engine.act(&a).expect("a listed action runs");
        assert!(accepted.is_ok(), "a listed action is accepted");
    }
    engine.save().expect("save")
}

#[test]
fn a_damaged_save_is_loaded_or_refused_naming_it() {
    let seed = first_seed();
    let n = cases() * 2;
    watched("save", Duration::from_secs(120), move |say| {
        let dir = scratch("mutate-save");
        let sample = toy_save();
        let doc: Json = serde_json::from_str(&sample).expect("a save is JSON");
        let path = dir.join("game.json");
        let mut found = Vec::new();
        for case in 0..n {
            let mut rng = Rng::new(seed, &format!("save/{case}"));
            // most cases signed again (a crafted save), to reach the checks past the checksum
            let (text, what) = if rng.chance(4) {
                let (b, w) = mutate_text(sample.as_bytes(), &mut rng);
                (b, w.join("; "))
            } else {
                let mut d = doc.clone();
                let mut said = Vec::new();
                for _ in 0..1 + rng.below(3) {
                    said.push(mutate_json(&mut d, &mut rng));
                }
                let signed = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    let mut s = d.clone();
                    resign_save(&mut s);
                    s
                }));
                let d = signed.unwrap_or(d);
                (serde_json::to_vec(&d).expect("JSON"), said.join("; "))
            };
            let label = format!("save: seed {seed} case {case}: {what}");
            say(label.clone());
            std::fs::write(&path, &text).expect("write");
            let run = catch_unwind(AssertUnwindSafe(|| -> Option<String> {
                let mut engine = match Engine::load_save(&path, limits()) {
                    Ok(e) => e,
                    Err(e) => return Some(e.to_string()),
                };
                for _ in 0..3 {
                    let legal = match engine.legal_actions(None) {
                        Ok(l) => l,
                        Err(e) => return Some(e.message),
                    };
                    let Some(a) = legal.first().cloned() else {
                        break;
                    };
                    if let Err(e) = engine.act(&a) {
                        return Some(e.message);
                    }
                }
                let _ = engine.undo();
                None
            }));
            judge(&mut found, &label, run, &["game.json", ".lua:"]);
        }
        found
    });
}

/// A `.kessel` package of a damaged toy scenario, packed and checked by the `kessel` binary
/// (packages are read by the command line): a damaged scenario inside a package is refused
/// naming the package, and `kessel check` of it never panics.
#[test]
fn a_package_of_a_damaged_scenario_is_refused_naming_the_package() {
    let seed = first_seed();
    let n = (cases() / 4).max(2);
    watched("package", Duration::from_secs(300), move |say| {
        let dir = toy_copy("mutate-package");
        let home = scratch("mutate-package-home");
        let scenario = dir.join("scenario.toml");
        let sample = std::fs::read(&scenario).expect("sample");
        let out = dir.join("game.kessel");
        let s = |p: &Path| p.to_str().expect("utf8").to_string();
        let mut found = Vec::new();
        for case in 0..n {
            let mut rng = Rng::new(seed, &format!("package/{case}"));
            let (bytes, what) = mutate_text(&sample, &mut rng);
            let label = format!("package: seed {seed} case {case}: {}", what.join("; "));
            say(label.clone());
            std::fs::write(&scenario, &bytes).expect("write");
            let _ = std::fs::remove_file(&out);
            let pack = kessel_at(
                &dir,
                &home,
                &[
                    "pack",
                    &s(&scenario),
                    "--output",
                    &s(&out),
                    "--include-ruleset",
                ],
            );
            for r in [&pack].into_iter().chain(
                out.is_file()
                    .then(|| kessel_at(&dir, &home, &["check", &s(&out)]))
                    .as_ref(),
            ) {
                if r.code == 101 || r.stderr.contains("panicked") {
                    found.push(format!("{label}\n  PANIC: {}", r.stderr));
                } else if r.code != 0
                    && !r.stderr.contains("scenario.toml")
                    && !r.stderr.contains("game.kessel")
                {
                    found.push(format!("{label}\n  unnamed: {}", r.stderr));
                }
            }
        }
        std::fs::write(&scenario, &sample).expect("put the sample back");
        found
    });
}
