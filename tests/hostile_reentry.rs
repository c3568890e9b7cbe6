//! Rules callbacks that turn back on the engine, and tables that are not what they seem: an
//! enumerator calling `kessel.legal` ran into Lua's "C stack overflow" without a word of why; an
//! enumerator returning a proxy (metamethods over an empty table) read as no actions. Each is
//! refused at the rules' line, naming the callback and what it did.

use crate::hostile_api::{mod_run, shown};

/// Every script function that drives the engine (`kessel.legal`, `.validate`, `.act`), called
/// from inside any of the engine's calls into the rules (an enumerator, a validator, an apply
/// function, an event hook, a step hook), is refused at the call's line, naming the callback.
/// An event hook run by a script's own `kessel.emit` is rules code too: it could act unchecked.
#[test]
fn rules_callbacks_cannot_drive_the_engine_again() {
    let cases = [
        (
            "reenter-enumerate",
            "kessel.action{ kind = \"poke\", apply = function() end, validate = function() end,\n\
               enumerate = function() return kessel.legal() end }",
            "print(#kessel.legal())",
            "kessel.legal is for scripts and tests",
            "called from inside the enumerator of `poke`",
        ),
        (
            "reenter-validate",
            "kessel.action{ kind = \"poke\", apply = function() end,\n\
               validate = function(a) local ok = kessel.validate(a) end }",
            "kessel.act{ kind = \"poke\" }",
            "kessel.validate is for scripts and tests",
            "called from inside the validator of `poke`",
        ),
        (
            "reenter-apply",
            "kessel.action{ kind = \"poke\", validate = function() end,\n\
               apply = function() kessel.legal() end }",
            "kessel.act{ kind = \"poke\" }",
            "kessel.legal is for scripts and tests",
            "called from inside the apply function of `poke`",
        ),
        (
            "reenter-event-hook",
            "kessel.action{ kind = \"poke\", apply = function() end, validate = function() end }\n\
             kessel.on(\"event\", function() kessel.act{ kind = \"poke\" } end)",
            "kessel.emit.var(\"x\", 1)",
            "kessel.act is for scripts and tests",
            "called from inside an `event:",
        ),
        (
            "reenter-step-hook",
            "kessel.action{ kind = \"poke\", apply = function() end, validate = function() end }\n\
             kessel.on(\"step_start\", function() kessel.validate{ kind = \"poke\" } end)",
            "kessel.setup{ map = { columns = 4, rows = 4 }, run_step_start = true }",
            "kessel.validate is for scripts and tests",
            "called from inside a `step_start` hook",
        ),
        (
            "reenter-inject-dice",
            "kessel.action{ kind = \"poke\", apply = function() end,\n\
               validate = function() kessel.inject_dice{ 6, 6 } end }",
            "kessel.act{ kind = \"poke\" }",
            "kessel.inject_dice is for scripts and tests",
            "called from inside the validator of `poke`",
        ),
    ];
    for (name, handlers, play, refused, inside) in cases {
        let (dir, r) = mod_run(name, handlers, play);
        assert_ne!(r.code, 0, "{name}: {}", r.stdout);
        assert!(
            r.stderr.contains(&shown(&dir, "init.lua", 6))
                && r.stderr.contains(refused)
                && r.stderr.contains(inside)
                && r.stderr.contains("re-enter the engine")
                && !r.stderr.contains("stack overflow"),
            "{name}: {}",
            r.stderr
        );
    }
    // the same calls from the script itself drive the engine as before
    let (_, r) = mod_run(
        "reenter-none",
        "kessel.action{ kind = \"poke\", apply = function() end, validate = function() end,\n\
           enumerate = function() return { { kind = \"poke\" } } end }",
        "print(#kessel.legal(), (kessel.validate{ kind = \"poke\" }), (kessel.act{ kind = \"poke\" }))",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("1\ttrue\ttrue"), "{}", r.stdout);
}

/// A table the engine reads from a script (an enumerator's list or one of its actions, a
/// validator's reasons, an action a script takes) is read by its own fields; one with a
/// metatable (a proxy whose `__index` or `__len` make it look full) read as empty or partial,
/// without a word. It is refused, naming the callback; so is a number that is not finite (NaN
/// became `null` in the action, unseen), and an enumerator returning what is no list.
#[test]
fn tables_with_metatables_and_numbers_not_finite_are_refused() {
    let cases = [
        (
            "proxy-list",
            "kessel.action{ kind = \"poke\", apply = function() end, validate = function() end,\n\
               enumerate = function() return setmetatable({}, { __index = function(_, i)\n\
                 if i == 1 then return { kind = \"poke\" } end end }) end }",
            "print(#kessel.legal())",
            "init.lua:6",
            "the enumerator defined here returned its list: a table with a metatable",
        ),
        (
            "proxy-action",
            "kessel.action{ kind = \"poke\", apply = function() end, validate = function() end,\n\
               enumerate = function() return { setmetatable({}, { __index = { kind = \"poke\" } }) } end }",
            "print(#kessel.legal())",
            "init.lua:6",
            "returned action 1 of its list: a table with a metatable",
        ),
        (
            "proxy-reason",
            "kessel.action{ kind = \"poke\", apply = function() end,\n\
               validate = function() return { setmetatable({}, { __index = function() return \"X\" end }) } end }",
            "kessel.act{ kind = \"poke\" }",
            "init.lua:6",
            "returned reason 1: a table with a metatable",
        ),
        (
            "proxy-argument",
            "kessel.action{ kind = \"poke\", apply = function() end, validate = function() end }",
            "kessel.act{ kind = \"poke\", units = setmetatable({}, { __len = function() return 3 end }) }",
            "play.lua:2",
            "an action holding a table with a metatable",
        ),
        (
            "nan-argument",
            "kessel.action{ kind = \"poke\", apply = function() end, validate = function() end }",
            "kessel.act{ kind = \"poke\", hexes = { 1, 0/0 } }",
            "play.lua:2",
            "an action holding the number NaN, which is not finite",
        ),
        (
            "inf-enumerated",
            "kessel.action{ kind = \"poke\", apply = function() end, validate = function() end,\n\
               enumerate = function() return { { kind = \"poke\", odds = 1/0 } } end }",
            "print(#kessel.legal())",
            "init.lua:6",
            "the number inf, which is not finite",
        ),
        (
            "number-list",
            "kessel.action{ kind = \"poke\", apply = function() end, validate = function() end,\n\
               enumerate = function() return 5 end }",
            "print(#kessel.legal())",
            "init.lua:6",
            "the enumerator of `poke` defined here returned the number 5",
        ),
    ];
    for (name, handlers, play, at, said) in cases {
        let (dir, r) = mod_run(name, handlers, play);
        assert_ne!(r.code, 0, "{name}: {}", r.stdout);
        let at = match at.split_once(':') {
            Some(("init.lua", line)) => shown(&dir, "init.lua", line.parse().expect("a line")),
            _ => format!("{at}:"),
        };
        assert!(
            r.stderr.contains(&at) && r.stderr.contains(said),
            "{name}: {}",
            r.stderr
        );
    }
}

/// Numbers and names a rule gets wrong that the API read as something else without a word: a
/// step cost of NaN (0/0) was 0 MP, so the step was free; a budget of NaN reached nothing; a move
/// emitted with a NaN cost went into the log as `null`, and the save no longer loaded; a misspelt
/// map edge was `false` for every hex. Each is an error at the rules' line.
#[test]
fn numbers_and_names_the_api_misread_are_refused() {
    let cases = [
        (
            "nan-step-cost",
            "local function cost(a, b) return 0/0 end\n\
             local reach = kessel.paths.reach{ from = \"0101\", budget = 3, step = cost }",
            "the step cost the `step` function returned is NaN",
        ),
        (
            "nan-budget",
            "local nothing = 0/0\n\
             local reach = kessel.paths.reach{ from = \"0101\", budget = nothing }",
            "the search's `budget` is NaN",
        ),
        (
            "nan-move-cost",
            "kessel.setup{ map = { columns = 4, rows = 4 }, units = {\n\
               { id = \"r\", side = \"red\", type = \"inf\", faces = { \"1-1-1\" }, at = \"0101\" } } }\n\
             kessel.emit.move(\"r\", { \"0102\" }, 0/0)",
            "kessel.emit.move: the cost NaN is not a number of MP",
        ),
        (
            "nan-field-hook",
            "local function hook() return 0/0 end\n\
             local f = kessel.paths.field{ from = \"0101\", budget = 3, class = \"foot\", side = \"red\", hook = hook }",
            "the cost the field's `hook` returned is NaN",
        ),
        (
            "misspelt-edge",
            "local edge =\n\
               kessel.map.on_edge(\"0101\", \"nort\")",
            "kessel.map.on_edge: `nort` is no edge (north, south, east, west)",
        ),
    ];
    for (name, play, said) in cases {
        // a movement field needs declared costs
        let handlers = if name == "nan-field-hook" {
            "kessel.movement{ classes = { \"foot\" }, terrain = { clear = 1 } }"
        } else {
            ""
        };
        let (_, r) = mod_run(name, handlers, play);
        assert_ne!(r.code, 0, "{name}: {}", r.stdout);
        assert!(
            r.stderr.contains(if name == "nan-move-cost" {
                "play.lua:4:"
            } else {
                "play.lua:3:"
            }) && r.stderr.contains(said),
            "{name}: {}",
            r.stderr
        );
    }
    // the same calls with numbers and names that are right
    let (_, r) = mod_run(
        "numbers-fine",
        "",
        "local reach = kessel.paths.reach{ from = \"0101\", budget = 1, step = function() return 1 end }\n\
         local n = 0 for _ in pairs(reach) do n = n + 1 end\n\
         print(n, kessel.map.on_edge(\"0101\", \"north\"), kessel.map.on_edge(\"0303\", \"north\"))",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("\ttrue\tfalse"), "{}", r.stdout);
}

/// Two more ways a callback drove the engine: a function given to a `kessel.paths` search (a
/// field's `hook`, a `step`, a `target`) set the game up anew mid-search, and the field then
/// described the old map (80 hexes reachable on a 2x2 map); a nested `kessel.setup` made from the
/// `__index` of the table `kessel.setup` was reading won, and the outer call answered as if its
/// own position had been made. Each is refused at the callback's line, naming what it was inside;
/// a search's functions cannot change the game either (`kessel.emit`), as a validator cannot.
#[test]
fn searches_and_a_set_up_being_read_cannot_drive_the_engine() {
    let movement =
        "kessel.action{ kind = \"poke\", apply = function() end, validate = function() end }\n\
                    kessel.movement{ classes = { \"foot\" }, terrain = { clear = 1 } }";
    let small = "kessel.setup{ map = { columns = 2, rows = 2 } }";
    let cases = [
        (
            "search-field-hook",
            format!(
                "local f = kessel.paths.field{{ from = \"0202\", budget = 5, class = \"foot\",\n\
                   hook = function() {small} end }}\nprint(#f:hexes())"
            ),
            "kessel.setup is for scripts and tests",
            "inside a search of kessel.paths.field",
        ),
        (
            "search-reach-step",
            "print(kessel.paths.reach{ from = \"0202\", budget = 3,\n\
               step = function() kessel.act{ kind = \"poke\" } return 1 end })"
                .to_string(),
            "kessel.act is for scripts and tests",
            "inside a search of kessel.paths.reach",
        ),
        (
            "search-trace-target",
            "print(kessel.paths.trace{ from = \"0202\", budget = 3,\n\
               target = function() kessel.undo() return false end })"
                .to_string(),
            "kessel.undo is for scripts and tests",
            "inside a search of kessel.paths.trace",
        ),
        (
            "search-emit",
            "print(kessel.paths.trace_costs{ budget = 3, target = { \"0101\" },\n\
               step = function() kessel.emit.var(\"x\", 1) return 1 end })"
                .to_string(),
            "the game state can only change while an action is applied: this change was made \
             inside a search of kessel.paths.trace_costs (a function or table it was given), \
             which may only read the game",
            "play.lua:3",
        ),
        (
            "setup-index-setup",
            format!(
                "print(kessel.setup(setmetatable({{}}, {{ __index = function(_, k)\n\
                   if k == \"map\" then {small} end end }})))"
            ),
            "kessel.setup is for scripts and tests",
            "inside kessel.setup reading its table",
        ),
        (
            "setup-index-act",
            "print(kessel.setup(setmetatable({}, { __index = function(_, k)\n\
               if k == \"turn\" then kessel.act{ kind = \"poke\" } end end })))"
                .to_string(),
            "kessel.act is for scripts and tests",
            "inside kessel.setup reading its table",
        ),
    ];
    for (name, play, refused, inside) in cases {
        let (_, r) = mod_run(name, movement, &play);
        assert_ne!(r.code, 0, "{name}: {}", r.stdout);
        assert!(
            r.stderr.contains("play.lua:3:")
                && r.stderr.contains(refused)
                && r.stderr.contains(inside),
            "{name}: {}",
            r.stderr
        );
    }
    // the same searches with functions that only read answer as before
    let (_, r) = mod_run(
        "search-reading",
        movement,
        "local f = kessel.paths.field{ from = \"0202\", budget = 5, class = \"foot\",\n\
           hook = function(a, b) return kessel.map.terrain(b) == \"clear\" and 1 or false end }\n\
         print(#f:hexes(), kessel.paths.trace{ from = \"0101\", budget = 9, target = function(h) return h == \"0404\" end }.cost)",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("15\t5"), "{}", r.stdout);
}
