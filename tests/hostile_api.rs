//! Mods that abuse the Lua API's contracts rather than the VM: a validator handing the engine a
//! table whose metamethods change the game, reasons that are no reasons, lists sharing one huge
//! string, memory run out inside rules a script called. Each ends with an error naming the rules'
//! file and line, and nothing changes.

use std::path::{Path, PathBuf};

/// A one-action ruleset (`poke`, whose handlers are `handlers`) in a folder for test `name`,
/// and a script that sets up a position and runs `play`: the `kessel script` run's outcome.
pub(crate) fn mod_run(name: &str, handlers: &str, play: &str) -> (PathBuf, crate::util::Run) {
    let dir = crate::util::scratch(name);
    crate::util::write(
        &dir,
        "init.lua",
        &format!(
            "kessel.ruleset{{ name = \"m\", sides = {{ \"red\", \"blue\" }} }}\n\
             kessel.terrain{{ id = \"clear\" }}\n\
             kessel.unit_type{{ id = \"inf\" }}\n\
             kessel.sequence{{ {{ id = \"red_move\", side = \"red\" }} }}\n\
             {handlers}\n"
        ),
    );
    let script = crate::util::write(
        &dir,
        "play.lua",
        &format!("kessel.setup{{ map = {{ columns = 4, rows = 4 }} }}\n{play}\n"),
    );
    let r = crate::util::kessel(&[
        "script",
        script.to_str().expect("utf8"),
        "--ruleset",
        dir.to_str().expect("utf8"),
    ]);
    (dir, r)
}

/// How an error names `file` of the ruleset in `dir`: under the ruleset folder's name.
pub(crate) fn shown(dir: &Path, file: &str, line: usize) -> String {
    let folder = dir.file_name().expect("a folder").to_string_lossy();
    format!("{folder}/{file}:{line}:")
}

/// A validator is a query: it may not change the game. The table it returns was read after the
/// engine had left the query stage, so a metamethod on it ran `kessel.emit` with the script's
/// rights: `kessel.validate` said yes and the game had changed. A table with a metatable is now
/// refused before anything of it is read (see `hostile_reentry`), so its `__index` never runs.
#[test]
fn a_validators_answer_cannot_change_the_game_while_it_is_read() {
    let (dir, r) = mod_run(
        "api-meta-emit",
        "kessel.action{ kind = \"poke\", apply = function() end, validate = function()\n\
           return setmetatable({}, { __index = function() kessel.emit.var(\"smuggled\", 1) end })\n\
         end }",
        "local ok = kessel.validate{ kind = \"poke\" }\nprint(ok, kessel.game.var(\"smuggled\"))",
    );
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(!r.stdout.contains("true\t1"), "{}", r.stdout);
    assert!(
        r.stderr.contains(&shown(&dir, "init.lua", 5))
            && r.stderr
                .contains("the validator defined here returned reasons: a table with a metatable"),
        "{}",
        r.stderr
    );
}

/// Reasons that are no reasons (a number in the list, a message that is a table) were mlua's
/// "error converting Lua integer to table" at the script's line; they are named at the
/// validator's definition, item by item.
#[test]
fn reasons_that_are_no_reasons_are_named_at_the_validator() {
    for (returned, said) in [
        (
            "{ { rule = \"X\", message = \"ok\" }, 42 }",
            "returned reason 2, an integer: a reason is",
        ),
        (
            "{ { rule = \"X\", message = {} } }",
            "reason 1: its `message` is a table, not a string",
        ),
        // (it read "returned a validator returns nil (legal) or reasons, not a integer")
        (
            "7",
            "returned an integer: a validator returns nil (legal) or reasons",
        ),
    ] {
        let (dir, r) = mod_run(
            "api-bad-reasons",
            &format!(
                "kessel.action{{ kind = \"poke\", apply = function() end,\n\
                 validate = function() return {returned} end }}"
            ),
            "kessel.act{ kind = \"poke\" }",
        );
        assert_ne!(r.code, 0, "{}", r.stdout);
        assert!(
            r.stderr.contains(&shown(&dir, "init.lua", 6))
                && r.stderr.contains("the validator defined here returned")
                && r.stderr.contains(said),
            "{returned}: {}",
            r.stderr
        );
    }
}

/// Lists whose items share one large string: Lua keeps it once, the engine copied it for each
/// item (twenty thousand reasons of a 900 KB string: 18 GB, the process aborted). Reasons and
/// problems are refused past 1 MiB of text, a listing of actions past 64 MiB.
#[test]
fn lists_sharing_one_huge_string_are_refused_not_copied() {
    let (dir, r) = mod_run(
        "api-shared-reasons",
        "local s = string.rep(\"x\", 900000)\n\
         kessel.action{ kind = \"poke\", apply = function() end, validate = function()\n\
           local r = {} for i = 1, 20000 do r[i] = { rule = \"X\", message = s } end return r\n\
         end }",
        "kessel.act{ kind = \"poke\" }",
    );
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains(&shown(&dir, "init.lua", 6))
            && r.stderr.contains("over 1048576 bytes of text together"),
        "{}",
        r.stderr
    );
    let (dir, r) = mod_run(
        "api-shared-actions",
        "local s = string.rep(\"x\", 900000)\n\
         kessel.action{ kind = \"poke\", apply = function() end, validate = function() end,\n\
           enumerate = function()\n\
             local r = {} for i = 1, 20000 do r[i] = { kind = \"poke\", note = s } end return r\n\
           end }",
        "print(#kessel.legal())",
    );
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains(&shown(&dir, "init.lua", 7))
            && r.stderr.contains("the enumerator of `poke` defined here")
            && r.stderr.contains("over 67108864 bytes together"),
        "{}",
        r.stderr
    );
}

/// Memory run out inside a validator that a script's `kessel.act` ran was blamed on the script's
/// line calling the engine; it is the validator's line that took the memory.
#[test]
fn memory_run_out_in_rules_a_script_called_is_named_in_the_rules() {
    let (dir, r) = mod_run(
        "api-memory",
        "kessel.action{ kind = \"poke\", apply = function() end, validate = function()\n\
           local t = {}\n\
           for i = 1, 1e9 do t[i] = { i } end\n\
         end }",
        "kessel.act{ kind = \"poke\" }",
    );
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains(&shown(&dir, "init.lua", 7))
            && r.stderr.contains("memory limit exceeded"),
        "{}",
        r.stderr
    );
}

/// A die of 0 sides, of 1.5 sides or of NaN sides is refused by name; a 0-sided die rolled 1, and
/// the others were "out of range" in the binding's words.
#[test]
fn a_die_without_a_whole_number_of_sides_is_refused() {
    for (sides, said) in [
        ("0", "a die has at least 1 side (got 0)"),
        ("-3", "a die has at least 1 side (got -3)"),
        ("1.5", "the sides of a die are a whole number, not 1.5"),
        ("0/0", "the sides of a die are a whole number, not"),
        ("{}", "the sides of a die are a whole number, not a table"),
        // whole but too large, as an integer or a float (2^53 was "not a whole number")
        (
            "math.maxinteger",
            "a die of 9223372036854775807 sides is too large (at most 4294967295)",
        ),
        ("2^53", "a die of 9007199254740992 sides is too large"),
        ("-0.0", "a die has at least 1 side (got -0)"),
    ] {
        let (_, r) = mod_run(
            "die-sides",
            "",
            &format!("print(kessel.dice.roll(\"p\", {sides}))"),
        );
        assert_ne!(r.code, 0, "{sides}: {}", r.stdout);
        assert!(
            r.stderr.contains(&format!("kessel.dice.roll: {said}"))
                && r.stderr.contains("play.lua:2"),
            "{sides}: {}",
            r.stderr
        );
    }
    let (_, r) = mod_run(
        "die-sides-ok",
        "",
        "print(kessel.dice.roll(\"p\", 6.0), kessel.dice.roll(\"q\"))",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// A list item in a table the engine reads by its named fields is refused as a misspelt field
/// is: `{ "blue" }` written for `{ secret_to = "blue" }` made the note public, and
/// `kessel.markers.all{ "mines" }` answered every marker, both without a word.
#[test]
fn a_list_item_where_named_fields_are_read_is_refused() {
    for (play, said) in [
        (
            "print(#kessel.markers.all{ \"mines\" })",
            "kessel.markers.all: unknown field `[1]`; the fields are kind, side, placed",
        ),
        (
            "kessel.emit.note(\"R1\", \"the plan\", { \"blue\" })",
            "unknown field `[1]`; the fields are secret_to",
        ),
        (
            "print(kessel.dice.roll{ \"combat\", 6 })",
            "unknown field `[1]`; the fields are purpose, sides, secret_to",
        ),
        (
            "kessel.paths.field{ \"0101\", budget = 3 }",
            "kessel.paths.field: unknown field `[1]`",
        ),
    ] {
        let (_, r) = mod_run("list-item", "", play);
        assert_ne!(r.code, 0, "{play}: {}", r.stdout);
        assert!(
            r.stderr.contains(said) && r.stderr.contains("play.lua:2"),
            "{play}: {}",
            r.stderr
        );
    }
}

/// A huge float in a message is written as Lua writes it (`1e300`), not as Rust's 301 digits
/// (a die's sides, a table key, a tie-break count).
#[test]
fn a_huge_number_in_a_message_is_shown_in_exponent_form() {
    for (play, said) in [
        (
            "print(kessel.dice.roll(\"p\", 1e300))",
            "a die of 1e300 sides",
        ),
        (
            "kessel.emit.var(\"x\", { [1] = 1, [1e300] = 2 })",
            "not 1e300",
        ),
    ] {
        let (_, r) = mod_run("huge-number", "", play);
        assert_ne!(r.code, 0, "{play}: {}", r.stdout);
        assert!(
            r.stderr.contains(said) && !r.stderr.contains("00000000000000000000"),
            "{play}: {}",
            r.stderr
        );
    }
}

/// An injected roll that is no face of a die is refused: a 0 (or -1) where it is queued, a 7
/// where a d6 takes it, naming the purpose and the die. Both were read by the tables as their
/// first or last row, without a word.
#[test]
fn an_injected_roll_that_is_no_face_of_the_die_is_refused() {
    for (play, said, line) in [
        (
            "kessel.inject_dice{ 0 }",
            "kessel.inject_dice: roll 1 is 0; a die shows 1 and up",
            2,
        ),
        (
            "kessel.inject_dice{ 3, -1 }",
            "kessel.inject_dice: roll 2 is -1; a die shows 1 and up",
            2,
        ),
        // (too large was said as too small)
        (
            "kessel.inject_dice{ math.maxinteger }",
            "roll 1 is 9223372036854775807; no die has that many sides (at most 4294967295)",
            2,
        ),
        (
            "kessel.inject_dice{ 7 }\nprint(kessel.dice.roll(\"combat\"))",
            "kessel.dice.roll(`combat`): the injected roll 7 is not a face of the 6-sided die",
            3,
        ),
        (
            "kessel.inject_dice{ 6 }\nprint(kessel.dice.roll(\"d\", 2))",
            "the injected roll 6 is not a face of the 2-sided die it stands for (1 to 2)",
            3,
        ),
    ] {
        let (_, r) = mod_run("inject-range", "", play);
        assert_ne!(r.code, 0, "{play}: {}", r.stdout);
        assert!(
            r.stderr.contains(said) && r.stderr.contains(&format!("play.lua:{line}")),
            "{play}: {}",
            r.stderr
        );
    }
    let (_, r) = mod_run(
        "inject-range-ok",
        "",
        "kessel.inject_dice{ 1, 6, 2 }\nprint(kessel.dice.roll(\"a\"), kessel.dice.roll(\"b\"), kessel.dice.roll(\"c\", 2))",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("1\t6\t2"), "{}", r.stdout);
}

/// `kessel.legal` of a side the ruleset does not have is refused naming its sides (it listed
/// every action).
#[test]
fn legal_of_a_side_the_ruleset_does_not_have_is_refused() {
    let (_, r) = mod_run("legal-side", "", "print(#kessel.legal(\"nope\"))");
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("kessel.legal(\"nope\"): not a side of this ruleset (its sides: red, blue)"),
        "{}",
        r.stderr
    );
    let (_, r) = mod_run(
        "legal-side-ok",
        "",
        "print(#kessel.legal(\"red\"), #kessel.legal())",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// A declaration's id or kind that is empty, or holds a line break or a control character, is
/// refused where it is declared: an action kind "" or an option "a\nb" was accepted, and every
/// message naming it came out broken.
#[test]
fn declared_ids_are_names_on_one_line() {
    for (decl, said) in [
        (
            "kessel.action{ kind = \"\", validate = function() end, apply = function() end }",
            "kessel.action: `kind` is empty",
        ),
        (
            "kessel.option{ id = \"a\\nb\", type = \"bool\", default = false }",
            "kessel.option: `id` a\\u{a}b holds a line break or a control character",
        ),
        (
            "kessel.unit_type{ id = \"  \" }",
            "kessel.unit_type: `id` is empty",
        ),
        (
            "kessel.terrain{ id = \"woods\\u{200b}\" }",
            "kessel.terrain: `id` woods\\u{200b} holds a character that shows as nothing",
        ),
        (
            "kessel.queries.declare{ id = \"\", description = \"d\", fn = function() end }",
            "kessel.queries.declare: `id` is empty",
        ),
        (
            "kessel.queries.declare{ id = \"q\", description = \"d\", params = { [\"a\\nb\"] = \"string\" }, fn = function() end }",
            "kessel.queries.declare `q`: a parameter's name a\\u{a}b holds a line break",
        ),
        ("kessel.constant(\" \", 1)", "kessel.constant: the name is empty"),
        (
            "kessel.option{ id = \"o\", type = { \"a\", \"b\\u{200f}\" }, default = \"a\" }",
            "option `o`: choice 2 b\\u{200f} holds a character that shows as nothing",
        ),
        (
            "kessel.ai_level{ id = string.rep(\"x\", 1025), description = \"d\" }",
            "kessel.ai_level: `id` of 1025 bytes (`xxxxxxxx",
        ),
    ] {
        let (dir, r) = mod_run(
            "api-empty-ids",
            &format!(
                "kessel.action{{ kind = \"poke\", validate = function() end, apply = function() end }}\n{decl}"
            ),
            "print('loaded')",
        );
        assert_ne!(r.code, 0, "{decl}: {}", r.stdout);
        assert!(
            r.stderr.contains(&shown(&dir, "init.lua", 6)) && r.stderr.contains(said),
            "{decl}: {}",
            r.stderr
        );
    }
}

/// A side holds 32 hexside kinds: the 33rd, refused, stayed named in the map, and reading it
/// (`has_side`, a search's `blocked_by`, `regions`' shut sides) shifted a bit by 32, a panic.
#[test]
fn a_hexside_kind_past_the_32_a_side_holds_is_refused_and_reads_as_absent() {
    let (_dir, r) = mod_run(
        "api-side-kinds",
        "",
        r#"for i = 1, 32 do kessel.emit.hexside("0101", "0102", "k" .. i) end
local ok, e = pcall(kessel.emit.hexside, "0101", "0102", "k33")
print(ok, e)
print(kessel.map.has_side("0101", "0102", "k33"), kessel.map.has_side("0101", "0102", "k1"))
print(#kessel.map.regions({ "0101", "0102" }, { sides = { "k33" } }))"#,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("false\t") && r.stdout.contains("too many hexside kinds (at most 32)"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("false\ttrue\n1\n"), "{}", r.stdout);
}

/// A ruleset's sides follow the rule of declared ids, and are each given once: `sides = { "red",
/// "red" }`, an empty side and one holding a line break or a bidirectional mark were taken, and
/// every message listing the sides was broken or named one side twice.
#[test]
fn a_rulesets_sides_are_names_given_once() {
    for (sides, said) in [
        (r#"{ "red", "red" }"#, "kessel.ruleset: side `red` is listed twice"),
        (r#"{ "", "blue" }"#, "kessel.ruleset: side 1 is empty"),
        (
            r#"{ "red", "blue\nerror: forged" }"#,
            "kessel.ruleset: side 2 blue\\u{a}error: forged holds a line break",
        ),
        (
            r#"{ "red\u{202e}", "blue" }"#,
            "kessel.ruleset: side 1 red\\u{202e} holds a character that shows as nothing or reorders",
        ),
    ] {
        let dir = crate::util::scratch("ruleset-sides");
        crate::util::write(
            &dir,
            "init.lua",
            &format!("kessel.ruleset{{ name = \"m\", sides = {sides} }}\n"),
        );
        let script = crate::util::write(&dir, "play.lua", "print('loaded')\n");
        let r = crate::util::kessel(&[
            "script",
            script.to_str().expect("utf8"),
            "--ruleset",
            dir.to_str().expect("utf8"),
        ]);
        assert_ne!(r.code, 0, "{sides}: {}", r.stdout);
        assert!(
            r.stderr.contains(&shown(&dir, "init.lua", 1)) && r.stderr.contains(said),
            "{sides}: {}",
            r.stderr
        );
    }
}

/// A unit's id follows one rule wherever a unit is made: `kessel.emit.create_unit` took `""` (which
/// a scenario and `kessel.setup` refuse) and ids holding NUL, a line break or an escape, which
/// then broke every message, view and save line naming them.
#[test]
fn unit_ids_follow_one_rule_wherever_units_are_made() {
    let dir = crate::util::scratch("unit-id-rule");
    let script = crate::util::write(
        &dir,
        "ids.lua",
        r#"
kessel.setup{ map = { columns = 4, rows = 4 } }
local accepted = {}
for _, id in ipairs{ "", "  ", "a\0b", "a\nerror: forged", "\27[2J", string.rep("x", 1025) } do
  local made = pcall(kessel.emit.create_unit, { id = id, side = "red", type = "inf", faces = { "1-1-4" } })
  local set = pcall(kessel.setup, { map = { columns = 4, rows = 4 }, units = {
    { id = id, side = "red", type = "inf", faces = { "1-1-4" }, at = "0101" } } })
  if made or set then accepted[#accepted + 1] = string.format("%q", id):sub(1, 20) end
end
assert(kessel.emit.create_unit{ id = "fine", side = "red", type = "inf", faces = { "1-1-4" } } == "fine")
print(#accepted == 0 and "all refused" or ("accepted: " .. table.concat(accepted, ", ")))
"#,
    );
    let r = crate::util::kessel(&[
        "script",
        script.to_str().expect("utf8"),
        "--ruleset",
        "core/tests/fixtures/toy",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("all refused"), "{}", r.stdout);
    let why = crate::util::write(
        &dir,
        "why.lua",
        "kessel.setup{ map = { columns = 4, rows = 4 } }\n\
         kessel.emit.create_unit{ id = \"\", side = \"red\", type = \"inf\", faces = { \"1-1-4\" } }\n",
    );
    let r = crate::util::kessel(&[
        "script",
        why.to_str().expect("utf8"),
        "--ruleset",
        "core/tests/fixtures/toy",
    ]);
    assert!(
        r.stderr
            .contains("why.lua:2: kessel.emit.create_unit: a unit with an empty id"),
        "{}",
        r.stderr
    );
}

/// What a hook returned that is wrong is said as what it is, then why: an enumerator's item
/// ("returned an action needs `kind`" before) and an ai hook's choice (whose reason came with
/// mlua's "runtime error: " in front) read as sentences.
#[test]
fn a_wrong_item_or_choice_a_hook_returned_is_named_in_a_sentence() {
    for (item, said) in [
        (
            "5",
            "returned action 2 of its list: an action is a table with a `kind`",
        ),
        (
            "{ kind = 5 }",
            "returned action 2 of its list: an action needs `kind = \"...\"`",
        ),
    ] {
        let (dir, r) = mod_run(
            "api-bad-enumerated",
            &format!(
                "kessel.action{{ kind = \"poke\", apply = function() end, validate = function() end,\n\
                 enumerate = function() return {{ {{}}, {item} }} end }}"
            ),
            "print(#kessel.legal())",
        );
        assert_ne!(r.code, 0, "{}", r.stdout);
        assert!(
            r.stderr.contains(&shown(&dir, "init.lua", 6))
                && r.stderr.contains("the enumerator defined here")
                && r.stderr.contains(said),
            "{item}: {}",
            r.stderr
        );
    }
    let dir = crate::util::toy_copy("api-ai-returns-number");
    let play = dir.join("rules/play.lua");
    let text = std::fs::read_to_string(&play).expect("toy rules");
    let hook = "kessel.on(\"ai\", function(legal, kinds, view, level, tiebreak)\n";
    assert!(text.contains(hook), "the toy's ai hook");
    std::fs::write(
        &play,
        text.replace(hook, &format!("{hook}  do return 5 end\n")),
    )
    .expect("edit");
    let scenario = dir.join("scenario.toml");
    let r = crate::util::kessel(&["simulate", scenario.to_str().expect("utf8"), "--games", "1"]);
    assert!(
        r.code != 0
            && r.stderr.contains(
                "the ai hook defined here returned the number 5 (an action is a table with a `kind`)"
            )
            && !r.stderr.contains("runtime error"),
        "{}",
        r.stderr
    );
}

/// The test checks (`kessel.expect`) and the script functions are the engine's, whatever the
/// rules did to the globals before them: a ruleset that replaced `error` turned every failed
/// check into a pass (the checks took the globals once the rules had loaded), one that replaced
/// `table` broke every test file with "kessel prelude:5: attempt to index a function value", and
/// one that gave `kessel` a metatable refusing new fields stopped every script with mlua's
/// "runtime error:" and a traceback.
#[test]
fn the_rules_cannot_disarm_the_checks_or_the_script_functions() {
    let (_, r) = mod_run(
        "api-disarmed-error",
        "local real = error\n\
         error = function(m, l) if type(m) == \"string\" and m:find(\"expected\") then return end return real(m, l) end\n\
         table = function() end\n\
         math = 5",
        "kessel.expect.eq(1, 2, \"one is two\")",
    );
    assert!(
        r.code != 0
            && r.stderr
                .contains("play.lua:2: one is two: expected 2, got 1")
            && !r.stderr.contains("prelude"),
        "{}{}",
        r.stdout,
        r.stderr
    );
    let (_, r) = mod_run(
        "api-kessel-metatable",
        "setmetatable(kessel, { __newindex = function() error(\"no new names\") end })",
        "print(type(kessel.act), type(kessel.expect.eq))",
    );
    assert!(
        r.code == 0 && r.stdout.contains("function\tfunction"),
        "{}{}",
        r.stdout,
        r.stderr
    );
}

/// Names an event keeps as keys of the game (a variable's key, a flag, a unit variable, a
/// marker's kind, a record's kind, a commitment's id) follow the rule of declared names: they
/// were only held to a length, so an empty key, one holding NUL or a line break, and one holding
/// a right-to-left mark or a zero-width joiner (printed like another) were kept and printed in
/// every listing and save.
#[test]
fn names_an_event_keeps_follow_the_rule_of_declared_names() {
    let dir = crate::util::scratch("event-names");
    let script = crate::util::write(
        &dir,
        "names.lua",
        r#"
kessel.setup{ map = { columns = 4, rows = 4 }, units = {
  { id = "r1", side = "red", type = "inf", faces = { "1-1-4" }, at = "0101" } } }
local calls = {
  var = function(k) kessel.emit.var(k, 1) end,
  flag = function(k) kessel.emit.flag("r1", k) end,
  unit_var = function(k) kessel.emit.unit_var("r1", k, 1) end,
  marker = function(k) kessel.emit.create_marker{ kind = k } end,
  record = function(k) kessel.emit.record{ kind = k } end,
  commit = function(k) kessel.emit.commit(k, "red", "x") end,
}
local accepted = {}
for what, call in pairs(calls) do
  for _, k in ipairs{ "", "a\0b", "a\nb", "left\u{200F}right", "r\u{200D}1", string.rep("k", 1025) } do
    if pcall(call, k) then accepted[#accepted + 1] = what .. " " .. string.format("%q", k):sub(1, 12) end
  end
  assert(pcall(call, "fine_" .. what), what .. " refused a plain name")
end
table.sort(accepted)
print(#accepted == 0 and "all refused" or ("accepted: " .. table.concat(accepted, ", ")))
kessel.emit.var("a\u{202E}b", 1)
"#,
    );
    let r = crate::util::kessel(&[
        "script",
        script.to_str().expect("utf8"),
        "--ruleset",
        "core/tests/fixtures/toy",
    ]);
    assert!(r.stdout.contains("all refused"), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("names.lua:21: kessel.emit.var: the key")
            && r.stderr.contains("reorders the text"),
        "{}",
        r.stderr
    );
}

/// A move's cost is a number of MP a search could have counted: 0 to 35791394 (fractions are
/// costs: half an MP on a road). 1e300 was logged as the MP a unit spent.
#[test]
fn a_moves_cost_is_a_number_of_mp_a_search_can_count() {
    let dir = crate::util::scratch("move-cost");
    let script = crate::util::write(
        &dir,
        "cost.lua",
        r#"
kessel.setup{ map = { columns = 4, rows = 4 }, units = {
  { id = "r1", side = "red", type = "inf", faces = { "1-1-4" }, at = "0101" } } }
kessel.emit.move("r1", { "0102" }, 0.5)
kessel.emit.move("r1", { "0103" }, 35791394)
print("moved", kessel.units.get("r1").hex)


kessel.emit.move("r1", { "0104" }, 1e300)
"#,
    );
    let r = crate::util::kessel(&[
        "script",
        script.to_str().expect("utf8"),
        "--ruleset",
        "core/tests/fixtures/toy",
    ]);
    assert!(r.stdout.contains("moved\t0103"), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains(
            "cost.lua:9: kessel.emit.move: the cost 1e300 is more MP than any move costs (at most 35791394"
        ),
        "{}",
        r.stderr
    );
}
