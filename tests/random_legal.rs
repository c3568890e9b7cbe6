//! Random-legal play: both sides pick uniformly among the actions the rules list
//! (`Engine::legal_actions`, a seeded choice), under both PGG profiles and several seeds. The
//! property: every listed action the players pick is accepted, a few more listed actions picked at
//! random each turn validate too, nothing raises, and every game reaches its end.
//!
//! `cargo test` runs a short budget: the learning scenario (`scenarios/pgg/learning.toml`, four
//! turns on the campaign map), two seeds per profile. A longer run is on demand:
//!
//! ```text
//! KESSEL_PROPTEST_GAMES=200 cargo test --release --test integration random_legal -- --nocapture
//! KESSEL_PROPTEST_GAMES=5 cargo test --release --test integration random_legal_campaign -- --ignored --nocapture
//! ```
//!
//! `KESSEL_PROPTEST_GAMES` is the number of seeds per profile (default 2 for the learning
//! scenario, 1 for the campaign); `KESSEL_PROPTEST_SEED` the first seed (default 1). The campaign
//! test (`random_legal_campaign_games_reach_the_end`) is `#[ignore]`d: twelve turns of random play
//! on the full order of battle take minutes in a debug build.

use crate::util::root;
use kessel_core::action::Action;
use kessel_core::dice::Dice;
use kessel_core::engine::Engine;
use kessel_core::script::Limits;

const PROFILES: [&str; 2] = ["standard", "wbc2009"];

/// Listed actions validated each step besides the one played.
const EXTRA_CHECKS: usize = 2;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

fn describe(action: &Action) -> String {
    serde_json::to_string(action).unwrap_or_else(|_| action.kind.clone())
}

/// Plays one game to its end, picking uniformly among the listed actions. Returns the number of
/// actions played, or what went wrong.
fn play(scenario: &str, profile: &str, seed: u64, max_actions: usize) -> Result<usize, String> {
    let path = root().join(scenario);
    let mut engine = Engine::load(&path, Some(profile), seed, Limits::default())
        .map_err(|e| format!("{scenario} ({profile}): {e}"))?;
    // the players' own dice, apart from the game's
    let mut choice = Dice::new(seed ^ 0x00dd_ba11);
    let mut played = 0;
    while !engine.state().finished {
        let at = {
            let st = engine.state();
            format!(
                "{profile}, seed {seed}, turn {}, step {}",
                st.turn, st.phase
            )
        };
        if played >= max_actions {
            return Err(format!("{at}: no end after {played} actions"));
        }
        let legal = engine
            .legal_actions(None)
            .map_err(|e| format!("{at}: enumerating: {}", e.message))?;
        if legal.is_empty() {
            return Err(format!("{at}: the rules list no action"));
        }
        let n = legal.len() as u32;
        for _ in 0..EXTRA_CHECKS.min(legal.len() - 1) {
            let other = &legal[(choice.roll(n) - 1) as usize];
            match engine.validate(other) {
                Ok(Ok(())) => {}
                Ok(Err(rejection)) => {
                    return Err(format!(
                        "{at}: listed but refused: {} — {rejection}",
                        describe(other)
                    ))
                }
                Err(e) => {
                    return Err(format!(
                        "{at}: validating {}: {}",
                        describe(other),
                        e.message
                    ))
                }
            }
        }
        let pick = &legal[(choice.roll(n) - 1) as usize];
        match engine.act(pick) {
            Ok(Ok(_)) => {}
            Ok(Err(rejection)) => {
                return Err(format!(
                    "{at}: listed but refused: {} — {rejection}",
                    describe(pick)
                ))
            }
            Err(e) => return Err(format!("{at}: playing {}: {}", describe(pick), e.message)),
        }
        played += 1;
    }
    Ok(played)
}

fn run(scenario: &str, default_games: u64, max_actions: usize) {
    let games = env_number("KESSEL_PROPTEST_GAMES", default_games).max(1);
    let first = env_number("KESSEL_PROPTEST_SEED", 1);
    let mut failures = Vec::new();
    for profile in PROFILES {
        for seed in first..first + games {
            match play(scenario, profile, seed, max_actions) {
                Ok(n) => eprintln!("{scenario} {profile} seed {seed}: finished in {n} actions"),
                Err(e) => failures.push(e),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} random-legal game(s) of {scenario} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn random_legal_games_reach_the_end_and_every_listed_action_validates() {
    run("scenarios/pgg/learning.toml", 2, 20_000);
}

#[test]
#[ignore = "minutes of random play on the full campaign; run with --ignored"]
fn random_legal_campaign_games_reach_the_end() {
    run("scenarios/pgg/campaign.toml", 1, 200_000);
}
