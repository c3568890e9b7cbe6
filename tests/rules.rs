//! Every ruleset's Lua rule tests (`kessel test`) run as part of `cargo test`, so one command runs
//! everything.

use crate::util::kessel;

fn run_rule_tests(path: &str) {
    let r = kessel(&["test", "--quiet", path]);
    let last = r.stdout.lines().last().unwrap_or("").to_string();
    assert_eq!(
        r.code, 0,
        "kessel test {path} failed:\n{}{}",
        r.stdout, r.stderr
    );
    assert!(last.ends_with("passed, 0 failed"), "{last}");
    let passed: usize = last
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(passed > 0, "no rule tests ran in {path}");
}

#[test]
fn toy_rule_tests_pass() {
    run_rule_tests("core/tests/fixtures/toy");
}

#[test]
fn pgg_rule_tests_pass() {
    run_rule_tests("scripts/pgg");
}

#[test]
fn asl_refit_phase_rule_tests_pass() {
    run_rule_tests("scripts/asl-cg");
}

#[test]
fn the_asl_refit_example_plays_headless_to_the_end() {
    let r = kessel(&[
        "simulate",
        "scripts/asl-cg/examples/refit/scenario.toml",
        "--seed",
        "1",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("10 finished"), "{}", r.stdout);
}

#[test]
fn the_guide_scenario_checks_and_its_special_rule_tests_pass() {
    let scenario = "scenarios/yelnya/scenario.toml";
    let c = kessel(&["check", scenario]);
    assert_eq!(c.code, 0, "{}", c.stderr);
    let r = kessel(&["test", "scenarios/yelnya/tests", "--scenario", scenario]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("case_Y1_bridge_down_on_turn_1"),
        "{}",
        r.stdout
    );
}
