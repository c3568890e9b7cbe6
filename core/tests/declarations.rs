//! A ruleset's declarations are strict: a misspelt field, kind, class or option fails when the
//! ruleset loads, at the line that declared it, with the nearest right name — on the toy ruleset.

use kessel_core::engine::Engine;
use kessel_core::script::Limits;

/// Loads a copy of the toy with one edit to its `init.lua`; returns the load error as located.
fn load_with(
    test: &str,
    find: &str,
    replace: &str,
) -> Result<(), (Option<String>, Option<usize>, String)> {
    let dir = kessel_test_support::toy_copy(test);
    let init = dir.join("init.lua");
    let text = std::fs::read_to_string(&init).expect("toy init.lua");
    assert!(
        text.contains(find),
        "the toy's init.lua no longer has `{find}`"
    );
    std::fs::write(&init, text.replacen(find, replace, 1)).expect("write init.lua");
    match Engine::load(&dir.join("scenario.toml"), None, 1, Limits::default()) {
        Ok(_) => Ok(()),
        Err(e) => {
            let mut all = e.located();
            assert_eq!(all.len(), 1, "one error: {all:?}");
            let l = all.remove(0);
            Err((l.file, l.line, l.message))
        }
    }
}

/// The line of `find` in the toy's `init.lua` (1-based).
fn line_of(find: &str) -> usize {
    let text = std::fs::read_to_string(
        kessel_test_support::workspace_root().join("core/tests/fixtures/toy/init.lua"),
    )
    .expect("toy init.lua");
    let at = text.find(find).expect("present");
    text[..at].matches('\n').count() + 1
}

#[test]
fn misspelt_declarations_fail_at_their_line_with_the_right_name() {
    let movement = line_of("kessel.movement{\n");
    let cases: &[(&str, &str, &str, usize, &[&str])] = &[
        (
            "woods = { foot = 1, default = 2 }",
            "woods = { foot = 1, defualt = 2 }",
            "a misspelt `default` inside a cost entry",
            movement,
            &["terrain.woods", "`defualt`", "did you mean `default`"],
        ),
        (
            "woods = { foot = 1, default = 2 }",
            "woods = { feet = 1, default = 2 }",
            "a class the declaration's `classes` does not list",
            movement,
            &["`feet`", "did you mean `foot`"],
        ),
        (
            "woods = { foot = 1, default = 2 }",
            "woods = { foot = 1, default = { cost = \"prohibited\", rule = \"T9\" } }",
            "a class's cost written as an entry of its own (compiled only at the first search)",
            movement,
            &[
                "terrain.woods.default",
                "not a table",
                "go on the entry itself",
            ],
        ),
        (
            "woods = { foot = 1, default = 2 }",
            "woods = { cost = 2, foot = 1 }",
            "a `cost` beside classes (the classes were passed over)",
            movement,
            &["terrain.woods", "under `cost` or by class", "not both"],
        ),
        (
            "    clear = 1,",
            "    claer = 1,",
            "a cost for a terrain never declared",
            movement,
            &["no terrain `claer`", "did you mean `clear`"],
        ),
        (
            "  links = {",
            "  link = {",
            "an unknown section",
            movement,
            &["unknown section `link`", "did you mean `links`"],
        ),
        (
            r##"kessel.terrain{ id = "clear", name = "Clear", color = "#d8d0a0" }"##,
            r##"kessel.terrain{ id = "clear", name = "Clear", colour = "#d8d0a0" }"##,
            "a misspelt display field",
            line_of(r#"kessel.terrain{ id = "clear""#),
            &["unknown field `colour`", "did you mean `color`"],
        ),
        (
            r##"color = "#d8d0a0""##,
            r#"color = "sand""#,
            "a colour that is not one",
            line_of(r#"kessel.terrain{ id = "clear""#),
            &["`color` is a colour", "\"sand\""],
        ),
        (
            r#"side = "red", rule = "T1" },"#,
            r#"side = "rde", rule = "T1" },"#,
            "a step of an undeclared side",
            line_of("kessel.sequence{"),
            &["side `rde`", "did you mean `red`"],
        ),
        (
            r#"  id = "crt", kind = "ratio","#,
            r#"  id = "crt", knid = "ratio","#,
            "a misspelt table field",
            line_of("kessel.results_table{"),
            &["unknown field `knid`", "did you mean `kind`"],
        ),
        (
            r#"  id = "crt", kind = "ratio","#,
            r#"  id = "crt", kind = "ratio", die = 0,"#,
            "a results table's die of no faces",
            line_of("kessel.results_table{"),
            &["table `crt`", "die is the number of faces", "not 0"],
        ),
        (
            r#"kessel.option{ id = "stack_limit", type = "int""#,
            r#"kessel.option{ id = "stack_limit", typ = "int""#,
            "a misspelt option field",
            line_of(r#"kessel.option{ id = "stack_limit""#),
            &["unknown field `typ`", "did you mean `type`"],
        ),
        (
            "when = { deep_rivers = true }",
            "when = { deep_river = true }",
            "a variant of an option that does not exist",
            line_of("when = { deep_rivers = true }"),
            &["no option `deep_river`", "did you mean `deep_rivers`"],
        ),
        (
            "when = { deep_rivers = true }",
            "when = { deep_rivers = 1 }",
            "a variant with a value the option cannot take",
            line_of("when = { deep_rivers = true }"),
            &["`deep_rivers` takes true or false"],
        ),
        (
            r#"bands = { { 1, "clear" }, { 4, "mud" }, { 6, "snow" } }"#,
            r#"bands = { { 1, "clear" }, { 6, "snow" }, { 4, "mud" } }"#,
            "dice-table bands out of order",
            line_of("kessel.dice_table{"),
            &["kessel.dice_table `weather`", "band 3 starts at 4, after 6"],
        ),
        (
            r#"bands = { { 1, "clear" }, { 4, "mud" }, { 6, "snow" } }"#,
            r#"bands = { 1, 4, 6 }"#,
            "a dice-table band that is not a pair",
            line_of("kessel.dice_table{"),
            &["band 1 is { lowest roll, result }"],
        ),
        (
            r#"bands = { { 1, "clear" }, { 4, "mud" }, { 6, "snow" } }"#,
            r#"bands = "clear, mud, snow""#,
            "a field of the wrong Lua type",
            line_of("kessel.dice_table{"),
            &["kessel.dice_table: `bands` can't be a string", "a list"],
        ),
        (
            r#"kessel.unit_type{ id = "inf""#,
            r#"kessel.unit_type{ id = { "inf" }"#,
            "an id that is a table",
            line_of(r#"kessel.unit_type{ id = "inf""#),
            &["kessel.unit_type: `id` can't be a table: it should be a string"],
        ),
    ];
    for (i, (find, replace, what, line, needles)) in cases.iter().enumerate() {
        let err = load_with(&format!("strict_decl_{i}"), find, replace)
            .expect_err(&format!("{what}: the toy loaded anyway"));
        let (file, at, message) = err;
        assert!(
            file.as_deref().is_some_and(|f| f.ends_with("init.lua")),
            "{what}: no file in {file:?}: {message}"
        );
        assert_eq!(at, Some(*line), "{what}: wrong line: {message}");
        for n in needles.iter() {
            assert!(message.contains(n), "{what}: `{n}` missing from: {message}");
        }
    }
}

#[test]
fn the_toy_as_written_loads() {
    load_with("strict_decl_none", "kessel.ruleset{", "kessel.ruleset{").expect("the toy loads");
}

#[test]
fn an_event_hook_on_an_unknown_meaning_names_the_nearest() {
    let find = "require(\"rules.muster\")";
    let (file, line, message) = load_with(
        "meaning-hook",
        find,
        "kessel.on(\"event:eliminatd\", function() end)\nrequire(\"rules.muster\")",
    )
    .expect_err("an unknown meaning");
    assert!(file.is_some_and(|f| f.ends_with("init.lua")));
    assert_eq!(line, Some(line_of(find)));
    assert!(
        message.contains("did you mean `event:eliminated`"),
        "{message}"
    );
}

/// A named sequence may carry the title players read (`{ title = ... }`, third argument); a
/// misspelt key is refused at its line, and the main sequence takes no title.
#[test]
fn a_named_sequences_title_is_kept_and_a_misspelt_one_refused() {
    let find = "require(\"rules.muster\")";
    let (_, line, message) = load_with(
        "sequence-title-typo",
        find,
        "kessel.sequence(\"night\", { { id = \"n1\" } }, { titel = \"Night\" })\nrequire(\"rules.muster\")",
    )
    .expect_err("a misspelt key");
    assert_eq!(line, Some(line_of(find)));
    assert!(message.contains("`titel`"), "{message}");
    let (_, _, message) = load_with(
        "sequence-title-main",
        find,
        "kessel.sequence({ { id = \"m1\" } }, { title = \"Main\" })\nrequire(\"rules.muster\")",
    )
    .expect_err("the main sequence takes no title");
    assert!(message.contains("only a named sequence"), "{message}");

    let dir = kessel_test_support::toy_copy("sequence-title");
    let init = dir.join("init.lua");
    let text = std::fs::read_to_string(&init).expect("toy init.lua");
    let title = "kessel.sequence(\"night\", { { id = \"n1\" } }, { title = \"Night Turn\" })\n";
    std::fs::write(&init, text.replacen(find, &format!("{title}{find}"), 1)).expect("write");
    let e = Engine::load(&dir.join("scenario.toml"), None, 1, Limits::default()).expect("loads");
    let rules = e.ruleset();
    assert_eq!(rules.modes["night"].title_of("night"), "Night Turn");
    assert_eq!(rules.modes["muster"].title_of("muster"), "Muster");
}

/// The sides' display style (`side_style`, read by the editor and `kessel render`) is checked
/// where it is declared: a misspelt side, field or colour was passed over and the side drawn in
/// a palette colour, without a word.
#[test]
fn a_side_style_names_sides_fields_and_colours_the_drawers_can_use() {
    let declared =
        "kessel.constant(\"side_style\", { red = { name = \"Red\", color = \"#d07060\" }";
    let line = line_of(declared);
    for (replace, says) in [
        (
            "kessel.constant(\"side_style\", { rde = { name = \"Red\", color = \"#d07060\" }",
            "`rde` is not a side (did you mean `red`?) (sides: red, blue)",
        ),
        (
            "kessel.constant(\"side_style\", { red = { name = \"Red\", colour = \"#d07060\" }",
            "side `red`: unknown field `colour` (did you mean `color`?)",
        ),
        (
            "kessel.constant(\"side_style\", { red = { name = \"Red\", color = \"brick\" }",
            "side `red`: `color` is a colour \"#rrggbb\" or \"#rgb\", not \"brick\"",
        ),
    ] {
        let (file, at, message) = load_with("side-style", declared, replace).expect_err(replace);
        assert!(
            file.is_some_and(|f| f.ends_with("init.lua")),
            "{replace}: {message}"
        );
        assert_eq!(at, Some(line), "{replace}: {message}");
        assert!(
            message.contains("kessel.constant `side_style`") && message.contains(says),
            "{replace}: {message}"
        );
    }
}

/// An option read while the rules load has no value yet, declared or not: the error says so, and
/// does not call a declared option unknown.
#[test]
fn an_option_read_while_the_rules_load_says_options_are_not_set_yet() {
    let find = "kessel.option{";
    let (_, line, message) = load_with(
        "option-read-at-load",
        find,
        "local early = kessel.game.option(\"stack_limit\")\nkessel.option{",
    )
    .expect_err("refused");
    assert_eq!(line, Some(line_of(find)), "{message}");
    assert!(
        message.contains("option `stack_limit` read while the rules load"),
        "{message}"
    );
    assert!(!message.contains("unknown option"), "{message}");
}
