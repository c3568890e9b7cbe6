//! Keeps docs/rules-coverage.md honest: every test it cites exists, every Lua file and symbol it
//! cites exists, and every option of the ruleset has a row.

use crate::util::root;
use std::collections::BTreeSet;

const HEADER: &str = "| Case | What | Lua | Tests | Notes |";

struct Row {
    case: String,
    lua: String,
    tests: String,
}

fn rows() -> Vec<Row> {
    let text =
        std::fs::read_to_string(root().join("docs/rules-coverage.md")).expect("coverage doc");
    let mut out = Vec::new();
    let mut in_table = false;
    for line in text.lines() {
        if line.trim() == HEADER {
            in_table = true;
            continue;
        }
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        if !in_table || line.starts_with("|---") {
            continue;
        }
        let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
        let cells: Vec<&str> = inner.split(" | ").map(str::trim).collect();
        assert_eq!(cells.len(), 5, "a coverage row has 5 cells: {line}");
        out.push(Row {
            case: cells[0].to_string(),
            lua: cells[2].to_string(),
            tests: cells[3].to_string(),
        });
    }
    out
}

fn backticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

fn test_names() -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    // the rule tests, and the campaign's data tests (run with the scenario loaded, tests/rules.rs)
    for dir in ["scripts/pgg/tests", "scenarios/pgg/tests"] {
        for e in std::fs::read_dir(root().join(dir)).expect("tests dir") {
            let text = std::fs::read_to_string(e.expect("entry").path()).expect("read");
            for part in text.split("kessel.test(\"").skip(1) {
                if let Some(name) = part.split('"').next() {
                    names.insert(name.to_string());
                }
            }
        }
    }
    names
}

#[test]
fn every_cited_test_exists_and_only_data_cases_lack_tests() {
    let rows = rows();
    assert!(
        rows.len() > 100,
        "the table lists every case ({} rows)",
        rows.len()
    );
    let names = test_names();
    for r in &rows {
        let cited = backticked(&r.tests);
        if cited.is_empty() {
            assert!(
                ["5.1", "16.1", "16.2"].contains(&r.case.as_str()),
                "case {} has no test",
                r.case
            );
        }
        for t in cited {
            assert!(
                names.contains(&t),
                "case {} cites missing test `{t}`",
                r.case
            );
        }
    }
}

#[test]
fn every_cited_lua_location_exists() {
    for r in rows() {
        for entry in backticked(&r.lua) {
            let (path, symbol) = entry.split_once(' ').unwrap_or((entry.as_str(), ""));
            let file = root().join("scripts/pgg").join(path);
            let text = std::fs::read_to_string(&file)
                .unwrap_or_else(|_| panic!("case {}: {} does not exist", r.case, file.display()));
            let needle = if let Some(h) = symbol.strip_prefix("hook:") {
                format!("kessel.on(\"{h}\"")
            } else if let Some(k) = symbol.strip_prefix("action:") {
                format!("kind = \"{k}\"")
            } else if let Some(o) = symbol.strip_prefix("option:") {
                format!("opt(\"{o}\"")
            } else {
                symbol.to_string()
            };
            assert!(
                text.contains(&needle),
                "case {}: `{needle}` not in {path}",
                r.case
            );
        }
    }
}

#[test]
fn every_option_has_a_row() {
    let options = std::fs::read_to_string(root().join("scripts/pgg/options.lua")).expect("options");
    let cases: BTreeSet<String> = rows().into_iter().map(|r| r.case).collect();
    for part in options.split("opt(\"").skip(1) {
        let id = part.split('"').next().unwrap_or("");
        assert!(
            cases.contains(&format!("option {id}")),
            "option {id} has no coverage row: add a row `| option {id} | what it changes | \
             `options.lua option:{id}` and where the rules read it | its test names | \
             readings |` to docs/rules-coverage.md, beside the other options' rows"
        );
    }
}
