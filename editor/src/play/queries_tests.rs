//! Tests of the play-test queries (beside `queries.rs`, which is near the size limit).

use super::*;

/// Without an `odds` query the printed strengths are summed: two counters of 2,000,000,000
/// overflowed (a debug build panicked); the total stays at the most a strength can be.
#[test]
fn printed_strengths_past_an_i32_read_as_above_the_table() {
    let dir = kessel_test_support::toy_copy("editor-odds-huge-strengths");
    let edit = |file: &str, pairs: &[(&str, &str)]| {
        let path = dir.join(file);
        let mut text = std::fs::read_to_string(&path).expect("read");
        for (from, to) in pairs {
            assert!(text.contains(from), "{file}: {from}");
            text = text.replacen(from, to, 1);
        }
        std::fs::write(&path, text).expect("write");
    };
    edit("rules/play.lua", &[("id = \"odds\"", "id = \"odds_x\"")]);
    edit(
        "scenario.toml",
        &[
            ("\"3-3-4\"", "\"2000000000-3-4\""),
            ("\"4-2-6\", \"2-1-6\"", "\"2000000000-2-6\""),
        ],
    );
    let scenario = kessel_core::scenario::Scenario::load(&dir.join("scenario.toml"));
    let limits = kessel_core::script::Limits::default();
    let engine = Engine::with_scenario(scenario.expect("scenario"), None, 1, limits);
    let engine = engine.expect("engine");
    let target = engine.state().map.parse("0603").expect("hex");
    let o = odds(&engine, &["r1".into(), "r2".into()], &[target]).expect("odds");
    assert_eq!((o.attack, o.defence), (i64::from(i32::MAX), 3));
    assert!(
        o.edge.as_deref().is_some_and(|e| e.starts_with("above")),
        "{o:?}"
    );
}
