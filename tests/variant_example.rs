//! The rule-variant example (`docs/examples/pgg-guards`): house rules layered on the bundled PGG
//! rules through a scenario's own `scripts`, in a scenario that extends the campaign. It must keep
//! loading, keep passing its rule tests and keep measuring, and with its options off it must play
//! the campaign's games.

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
    // check and info say what it extends
    let r = kessel(&["check", SCENARIO]);
    assert!(
        r.stdout
            .contains("  extends    scenarios/pgg/campaign.toml"),
        "{}",
        r.stdout
    );
    let r = kessel(&["info", SCENARIO]);
    assert!(
        r.stdout
            .contains("\nextends: scenarios/pgg/campaign.toml\n"),
        "{}",
        r.stdout
    );
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

/// With its house rules off the variant plays the campaign's game: the same seed gives the same
/// record, turn by turn (the scenario extends the campaign, so a fix to the campaign is in the
/// variant at once). Its data header names its own file, and its hash covers the campaign's.
#[test]
fn with_its_options_off_the_variant_plays_the_campaigns_game() {
    let dir = kessel_test_support::scratch("variant-equals-campaign");
    let record = |scenario: &str, out: &str| {
        let out = dir.join(out);
        let r = kessel(&[
            "simulate",
            scenario,
            "--games",
            "1",
            "--max-actions",
            "150",
            "--out",
            &out.to_string_lossy(),
        ]);
        assert_eq!(r.code, 0, "{scenario}: {}{}", r.stdout, r.stderr);
        let text = std::fs::read_to_string(&out).expect("data");
        let mut lines = text.lines().map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("json");
            if let Some(o) = v.as_object_mut() {
                o.retain(|k, _| !k.ends_with("cpu_s"));
            }
            v
        });
        let header = lines.next().expect("header");
        (header, lines.collect::<Vec<_>>())
    };
    let (vh, variant) = record(SCENARIO, "variant.jsonl");
    let (ch, campaign) = record("scenarios/pgg/campaign.toml", "campaign.jsonl");
    assert_eq!(variant.len(), 1);
    assert_eq!(variant, campaign, "the same game, action for action");
    assert!(
        variant[0]["actions"].as_u64().unwrap_or(0) > 100,
        "{variant:?}"
    );
    assert_eq!(vh["scenario"]["path"], SCENARIO);
    assert_ne!(vh["scenario"]["hash"], ch["scenario"]["hash"]);
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
