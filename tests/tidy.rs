//! Tidy checks in rust-analyzer's manner: docs and boundaries that must stay true as the code
//! changes. Each fails with the name of what drifted.

use crate::util::root;
use kessel_core::engine::Engine;
use kessel_core::script::Limits;
use std::collections::BTreeSet;
use std::path::Path;

/// Every function the Lua API registers, as `kessel.module.name` (script-only ones included).
fn registered_functions() -> BTreeSet<String> {
    let mut engine = Engine::bare(&root().join("core/tests/fixtures/toy"), Limits::default())
        .expect("toy ruleset loads");
    engine.run_script_text("tidy", "").expect("script API");
    let names = engine
        .query_lua(
            "tidy",
            r#"local out = {}
for k, v in pairs(kessel) do
  if type(v) == "function" then out[#out + 1] = "kessel." .. k
  elseif type(v) == "table" then
    for k2, v2 in pairs(v) do
      if type(v2) == "function" then out[#out + 1] = "kessel." .. k .. "." .. k2 end
    end
  end
end
table.sort(out)
return out"#,
            &serde_json::json!({}),
        )
        .expect("list the API");
    names
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect()
}

/// `kessel.x` and `kessel.x.y` names written in a text.
fn names_in(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices("kessel.") {
        if text[..i]
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '/')
        {
            continue;
        }
        let name: String = text[i..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.')
            .collect();
        out.insert(name.trim_end_matches('.').to_string());
    }
    out
}

#[test]
fn every_registered_lua_function_is_documented_and_has_a_stub() {
    let api = registered_functions();
    assert!(api.len() > 50, "the API lists its functions: {api:?}");
    let doc = std::fs::read_to_string(root().join("docs/lua-api.md")).expect("lua-api.md");
    let stubs = std::fs::read_to_string(root().join("scripts/types/kessel.lua")).expect("stubs");
    let (doc_names, stub_names) = (names_in(&doc), names_in(&stubs));
    let undocumented: Vec<&String> = api.iter().filter(|n| !doc_names.contains(*n)).collect();
    assert!(
        undocumented.is_empty(),
        "not in docs/lua-api.md: {undocumented:?}"
    );
    let unstubbed: Vec<&String> = api.iter().filter(|n| !stub_names.contains(*n)).collect();
    assert!(
        unstubbed.is_empty(),
        "not in scripts/types/kessel.lua: {unstubbed:?}"
    );
}

#[test]
fn nothing_documented_is_missing_from_the_api() {
    let api = registered_functions();
    // modules and the few values that are not functions
    let mut known: BTreeSet<String> = api
        .iter()
        .flat_map(|n| {
            let parts: Vec<&str> = n.split('.').collect();
            (1..=parts.len()).map(move |k| parts[..k].join("."))
        })
        .collect();
    known.insert("kessel.version".into());
    let doc = std::fs::read_to_string(root().join("docs/lua-api.md")).expect("lua-api.md");
    let missing: Vec<String> = names_in(&doc)
        .into_iter()
        .filter(|n| !known.contains(n))
        .collect();
    assert!(
        missing.is_empty(),
        "documented but not registered: {missing:?}"
    );
}

fn lua_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            lua_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "lua") {
            out.push(p);
        }
    }
}

#[test]
fn no_ruleset_patches_the_engine_api() {
    // the engine owns `kessel.*` (its fast reads included): rules use it, never replace it
    let mut files = Vec::new();
    lua_files(&root().join("scripts"), &mut files);
    lua_files(&root().join("scenarios"), &mut files);
    // the example systems the docs teach from are rules too
    lua_files(&root().join("docs/examples"), &mut files);
    assert!(files.len() > 20, "the rulesets' Lua files are found");
    let mut offenders = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read");
        // the LuaLS stubs declare the API's shape, they run nowhere
        if text.starts_with("---@meta") {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            if assigns_to_the_api(line) {
                offenders.push(format!("{}:{}: {}", f.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "rules assigning to kessel.*: {offenders:#?}"
    );
}

/// `kessel.x.y = …` or `kessel["x"] = …` (not a call such as `kessel.terrain{ name = … }`, not a
/// comparison).
fn assigns_to_the_api(line: &str) -> bool {
    let code = line.split("--").next().unwrap_or("").trim_start();
    if !(code.starts_with("kessel.") || code.starts_with("kessel[")) {
        return false;
    }
    let Some(eq) = code.find('=') else {
        return false;
    };
    let target = &code[..eq];
    let is_place = target
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_.[]\"' ".contains(c));
    is_place && !code[eq..].starts_with("==")
}

#[test]
fn the_api_patch_check_tells_assignments_from_calls() {
    assert!(assigns_to_the_api("kessel.units.at = function(h) end"));
    assert!(assigns_to_the_api("  kessel[\"emit\"] = nil"));
    assert!(!assigns_to_the_api(
        "kessel.terrain{ id = \"clear\", name = \"Clear\" }"
    ));
    assert!(!assigns_to_the_api("local at = kessel.units.at"));
    assert!(!assigns_to_the_api("if kessel.game.turn() == 1 then"));
}

#[test]
fn the_lua_bindings_do_not_know_the_engine() {
    // engine → script::api → world: the bindings read and change the world, never the engine
    let mut files = Vec::new();
    fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).expect("read") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                rust_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    rust_files(&root().join("core/src/script"), &mut files);
    assert!(files.len() > 5, "the bindings are found");
    files.push(root().join("core/src/world.rs"));
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read");
        assert!(
            !text.contains("crate::engine"),
            "{} reaches back into the engine",
            f.display()
        );
    }
}

/// A heading's anchor as GitHub makes it: lower case, spaces to `-`, punctuation dropped.
fn anchor_of(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (outside fenced code).
fn anchors_in(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.insert(anchor_of(line.trim_start_matches('#')));
        }
    }
    out
}

/// The `](target)` links of a Markdown file outside fenced code, with their line numbers.
fn links_in(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            if let Some(end) = rest.find(')') {
                out.push((n + 1, rest[..end].to_string()));
                rest = &rest[end..];
            }
        }
    }
    out
}

/// Every link of the README and the docs to another file of the repository, or to a heading,
/// finds it: a newcomer follows them, and a heading renamed or a file moved left links that go
/// nowhere.
#[test]
fn the_docs_links_to_files_and_headings_resolve() {
    let mut files = vec![root().join("README.md")];
    // the docs and every worked example's own pages (an example added later is read too)
    let mut dirs = vec![root().join("docs")];
    for e in std::fs::read_dir(root().join("docs/examples"))
        .expect("examples")
        .flatten()
    {
        if e.path().is_dir() {
            dirs.push(e.path());
        }
    }
    for dir in dirs {
        for e in std::fs::read_dir(dir).expect("docs").flatten() {
            if e.path().extension().is_some_and(|x| x == "md") {
                files.push(e.path());
            }
        }
    }
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("doc");
        for (line, target) in links_in(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let linked = if path.is_empty() {
                file.clone()
            } else {
                file.parent().expect("folder").join(path)
            };
            let shown = format!("{}:{line}: {target}", file.display());
            if !linked.exists() {
                broken.push(format!("{shown} (no such file)"));
                continue;
            }
            if let Some(a) = anchor {
                let to = std::fs::read_to_string(&linked).unwrap_or_default();
                if !anchors_in(&to).contains(a) {
                    broken.push(format!("{shown} (no such heading)"));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links that go nowhere:\n{}",
        broken.join("\n")
    );
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    assert_eq!(anchor_of(" Map (`map.toml`)"), "map-maptoml");
    assert_eq!(
        anchor_of(" 7. Fix it and play it in the editor"),
        "7-fix-it-and-play-it-in-the-editor"
    );
    assert_eq!(
        anchor_of(" kessel.emit.hide_marker, kessel.emit.show_marker"),
        "kesselemithide_marker-kesselemitshow_marker"
    );
}
