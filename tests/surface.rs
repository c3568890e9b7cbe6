//! The modder's surface from the command line: declared queries (`kessel query`, `kessel info`).

use crate::util::kessel;

const TOY: &str = "core/tests/fixtures/toy/scenario.toml";

#[test]
fn kessel_query_lists_asks_and_refuses_by_name() {
    let r = kessel(&["query", TOY]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("odds"), "{}", r.stdout);
    assert!(r.stdout.contains("units=<units>"), "{}", r.stdout);

    let r = kessel(&[
        "query",
        TOY,
        "odds",
        "units=r1,r2",
        "targets=0603",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON answer");
    assert_eq!(v["attack"], 7, "3 + 4 printed attack");
    assert_eq!(v["defence"], 3);
    assert_eq!(v["label"], "2-1");

    let r = kessel(&["query", TOY, "odds", "units=r1", "target=0603"]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("did you mean `targets`"), "{}", r.stderr);
    let r = kessel(&["query", TOY, "od", "units=r1"]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("no query `od`"), "{}", r.stderr);
}

#[test]
fn kessel_info_lists_the_declared_queries() {
    let r = kessel(&["info", TOY, "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
    let ids: Vec<&str> = v["queries"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|q| q["id"].as_str())
        .collect();
    assert_eq!(ids, ["moves", "odds"]);
    assert_eq!(v["queries"][1]["params"]["targets"]["type"], "hexes");
    let r = kessel(&["info", TOY]);
    assert!(r.stdout.contains("queries ("), "{}", r.stdout);
}
