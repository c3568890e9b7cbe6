//! The rule-variant example (`docs/examples/pgg-guards`): house rules layered on the bundled PGG
//! rules through a scenario's own `scripts`. It must keep loading, keep passing its rule tests and
//! keep measuring, and its scenario must stay the campaign's own, so that a correction to the
//! campaign is not silently left out of the copy a designer starts from.

use crate::util::{kessel, root};

const DIR: &str = "docs/examples/pgg-guards";
const SCENARIO: &str = "docs/examples/pgg-guards/scenario.toml";
const GUARDS: &str = "docs/examples/pgg-guards/guards.toml";

#[test]
fn the_variant_checks_its_tests_pass_and_its_readme_says_how_many() {
    for args in [
        &["check", SCENARIO][..],
        &["check", SCENARIO, "--profile", GUARDS],
        &[
            "check",
            SCENARIO,
            "--profile",
            "docs/examples/pgg-guards/bloody.toml",
        ],
    ] {
        let r = kessel(args);
        assert_eq!(r.code, 0, "{args:?}: {}{}", r.stdout, r.stderr);
    }
    let r = kessel(&["test", "--quiet", DIR]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let last = r.stdout.lines().last().unwrap_or("");
    let readme = std::fs::read_to_string(root().join(DIR).join("README.md")).expect("README");
    let promised = format!("# {}", last.trim());
    assert!(
        last.ends_with(" passed, 0 failed") && readme.contains(&promised),
        "the README's `kessel test` line should say `{promised}`"
    );
}

/// [B1] both variants of the results table cannot be in force at once: the engine refuses the
/// pair, naming both options.
#[test]
fn the_bloody_crt_is_refused_beside_the_transcribed_row() {
    let r = kessel(&[
        "check",
        SCENARIO,
        "--option",
        "bloody_3_1=true",
        "--option",
        "crt_row2=transcribed",
    ]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains("bloody_3_1") && r.stderr.contains("crt_row2"),
        "{}",
        r.stderr
    );
}

/// [G1] the house rule's odds flag and the profile over `standard`.
#[test]
fn the_variant_shows_its_flag_and_its_profile_differs_by_its_option_only() {
    let r = kessel(&["rules", SCENARIO, "--profile", GUARDS, "--diff", "standard"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("guards"), "{}", r.stdout);
    let odds = |flags: &[&str]| {
        let mut args = vec![
            "odds",
            "6",
            "3",
            "--scenario",
            SCENARIO,
            "--option",
            "guards=true",
        ];
        for f in flags {
            args.extend(["--flag", f]);
        }
        let r = kessel(&args);
        assert_eq!(r.code, 0, "{flags:?}: {}", r.stderr);
        r.stdout
    };
    // in a major city the Guards add 1 to the doubled 3; the flag alone changes nothing, since
    // G1 holds in a major city only
    assert!(odds(&["major_city"]).contains("attack 6 vs defence 6"));
    let both = odds(&["major_city", "guards"]);
    assert!(both.contains("attack 6 vs defence 7"), "{both}");
    let alone = odds(&["guards"]);
    assert!(
        alone.contains("(unchanged)") && alone.contains("major city only"),
        "{alone}"
    );
}

/// Below its `[scenario]` table the variant's scenario is the campaign's, line for line.
#[test]
fn the_variant_scenario_is_the_campaign_below_its_header() {
    let body = |path: &str| {
        let text = std::fs::read_to_string(root().join(path)).expect(path);
        // from the section rule after [scenario] (its notes may hold lines that open with a
        // bracketed case number) to the end
        let after = text
            .find("\n[scenario]\n")
            .and_then(|at| text[at..].find("\n# ====").map(|n| at + n))
            .expect("a section after [scenario]");
        text[after..].to_string()
    };
    let campaign = body("scenarios/pgg/campaign.toml");
    let variant = body(SCENARIO);
    assert!(
        campaign == variant,
        "{SCENARIO} has drifted from scenarios/pgg/campaign.toml below [scenario]: copy the campaign's file again and keep the variant's [scenario] table"
    );
}

/// A short measurement plays to the end under the house rule and names the profile by its file.
#[test]
fn the_variant_plays_under_its_profile() {
    let r = kessel(&[
        "simulate",
        SCENARIO,
        "--games",
        "1",
        "--profile",
        GUARDS,
        "--max-actions",
        "120",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("profile guards: 1 game"), "{}", r.stdout);
}
