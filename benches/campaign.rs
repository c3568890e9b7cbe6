//! Campaign-game benchmark: the CPU seconds of one core that a whole game of the bundled campaign
//! costs, computer against computer at the AI's default (fast) level, every action validated by
//! the rules, under the `standard` and `wbc2009` profiles — what the balance lab pays per game.
//! Target (issues #12 and #16): at most 0.25 s per game. Run with
//! `cargo bench -p kessel --bench campaign`; `KESSEL_BENCH_GAMES=N` plays N seeds per profile
//! (default 3, seeds 1..N). It prints; it never fails a build (speed is not a test's business).
//!
//! The games run one after another on this thread with the allocator `kessel` itself uses, and the
//! CPU time is the thread's own (`kessel simulate` prints the same measure for its games).

use kessel_lab::play::{play_game, PlayConfig};
use kessel_lab::ProfileArg;
use std::path::Path;

#[path = "../src/allocator.rs"]
#[allow(unsafe_code)]
mod allocator;

const TARGET_S: f64 = 0.25;

fn main() {
    allocator::keep_freed_memory();
    let games: u64 = std::env::var("KESSEL_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(3);
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/pgg/campaign.toml");
    let cfg = PlayConfig {
        max_actions: 50_000,
        ..PlayConfig::default()
    };
    println!("campaign game, computer against computer (fast level), {games} seed(s) per profile");
    for profile in ["standard", "wbc2009"] {
        let arg = ProfileArg {
            arg: Some(profile.to_string()),
            name: profile.to_string(),
            options: Vec::new(),
        };
        let (mut cpu, mut choice, mut rules, mut actions) = (0.0, 0.0, 0.0, 0usize);
        for seed in 1..=games {
            let record = match play_game(&scenario, &arg, seed, &cfg) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("{profile} seed {seed}: {e:#}");
                    return;
                }
            };
            cpu += record.cpu_s;
            choice += record.choice_cpu_s;
            rules += record.rules_cpu_s;
            actions += record.actions;
        }
        let n = games as f64;
        let per_game = cpu / n;
        let verdict = if per_game <= TARGET_S {
            "met".to_string()
        } else {
            format!("not met: {:.1}× the target", per_game / TARGET_S)
        };
        println!(
            "  {profile:<9} CPU {per_game:.3} s per game (choosing actions {:.3} s, the rules {:.3} s), {:.0} actions a game; target {TARGET_S} s: {verdict}",
            choice / n,
            rules / n,
            actions as f64 / n
        );
    }
}
