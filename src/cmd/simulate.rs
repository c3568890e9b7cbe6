//! `kessel simulate`: whole games headless, AI against AI, under a profile and a seed, with a
//! summary of victory levels and scores; `--against-profile` plays the same seeds under a second
//! profile and shows both side by side.
//!
//! The AI only ever plays actions the rules enumerate (it asks for the kinds it weighs, and
//! `Engine::ai_pick` refuses anything those lists did not hold) and every choice goes through
//! `Engine::act`, so it is validated like a player's. Results go to stdout and are
//! the same for the same seeds; timings go to stderr.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kessel_core::dice::Dice;
use kessel_core::engine::Engine;
use kessel_core::script::Limits;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Arguments of `kessel simulate`.
#[derive(clap::Args)]
pub struct Args {
    /// Scenario file.
    scenario: PathBuf,
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    games: u64,
    /// Seed of the first game (game k uses seed + k).
    #[arg(long, default_value_t = crate::DEFAULT_SEED)]
    seed: u64,
    /// Profile name or path.
    #[arg(long)]
    profile: Option<String>,
    /// Run the same seeds under a second profile and compare.
    #[arg(long)]
    against_profile: Option<String>,
    /// Stop a game after this many actions (a safety net against a stuck AI).
    #[arg(long, default_value_t = 50_000)]
    max_actions: usize,
    /// Print one line per game.
    #[arg(long, short)]
    verbose: bool,
    /// Print every action played (to stderr), for debugging rules and AI (plays one game at a
    /// time).
    #[arg(long)]
    trace: bool,
    /// Games played at once (default: one per core). Each game is independent and seeded, so the
    /// results are the same whatever the number.
    #[arg(long, short)]
    jobs: Option<usize>,
}

/// How one game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    /// Seed.
    pub seed: u64,
    /// True if the game reached its end.
    pub finished: bool,
    /// Last game-turn reached.
    pub turn: u32,
    /// Victory level named by the rules' result hook.
    pub level: String,
    /// Scores by side.
    pub scores: BTreeMap<String, f64>,
    /// Actions played.
    pub actions: usize,
}

/// Plays one game to its end with the ruleset's AI (or, without one, a seeded random legal choice).
pub fn play_game(
    scenario: &Path,
    profile: Option<&str>,
    seed: u64,
    max_actions: usize,
    trace: bool,
) -> anyhow::Result<GameSummary> {
    let mut engine =
        Engine::load(scenario, profile, seed, Limits::default()).map_err(super::describe)?;
    // the fallback policy's own dice, so choosing never disturbs the game's dice
    let mut choice_dice = Dice::new(seed ^ 0x5eed_5eed);
    let mut actions = 0;
    while !engine.state().finished && actions < max_actions {
        let action = match engine
            .ai_pick()
            .map_err(|e| anyhow::anyhow!("seed {seed}: ai: {}", e.message))?
        {
            Some(action) => action,
            None => {
                let legal = engine.legal_actions(None).map_err(|e| {
                    anyhow::anyhow!("seed {seed}: enumerating actions: {}", e.message)
                })?;
                if legal.is_empty() {
                    anyhow::bail!(
                        "seed {seed}: no legal action at turn {}, step {} — the rules enumerate nothing",
                        engine.state().turn,
                        engine.state().phase
                    );
                }
                let pick = (choice_dice.roll(legal.len() as u32) - 1) as usize;
                legal[pick].clone()
            }
        };
        if trace {
            let st = engine.state();
            eprintln!(
                "turn {} step {}: {}",
                st.turn,
                st.phase,
                serde_json::to_string(&action).unwrap_or_default()
            );
        }
        let outcome = engine
            .act(&action)
            .map_err(|e| anyhow::anyhow!("seed {seed}: {}", e.message))?;
        if let Err(rejection) = outcome {
            anyhow::bail!(
                "seed {seed}: the rules refused an action they had enumerated ({}): {rejection}",
                action.kind
            );
        }
        actions += 1;
    }
    let state = engine.state();
    let mut summary = GameSummary {
        seed,
        finished: state.finished,
        turn: state.turn,
        level: "unfinished".into(),
        scores: BTreeMap::new(),
        actions,
    };
    if let Some(result) = engine
        .result()
        .map_err(|e| anyhow::anyhow!("seed {seed}: result: {}", e.message))?
    {
        if let Some(level) = result.get("level").and_then(|l| l.as_str()) {
            summary.level = level.to_string();
        }
        if let Some(scores) = result.get("scores").and_then(|s| s.as_object()) {
            for (side, v) in scores {
                summary
                    .scores
                    .insert(side.clone(), v.as_f64().unwrap_or(0.0));
            }
        }
    } else if state.finished {
        summary.level = "finished".into();
    }
    Ok(summary)
}

/// Plays the series of seeds under `profile`; returns the games in seed order and the number of
/// workers used.
fn run_series(args: &Args, profile: Option<&str>) -> anyhow::Result<(Vec<GameSummary>, usize)> {
    let bar = ProgressBar::new(args.games);
    bar.set_draw_target(ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix:>10} [{bar:30}] {pos}/{len} games, {elapsed} ({eta} left)",
        )
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .progress_chars("=> "),
    );
    bar.set_prefix(profile.unwrap_or("scenario").to_string());
    let jobs = if args.trace {
        1
    } else {
        args.jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .clamp(1, args.games.max(1) as usize)
    };
    // each worker takes the next seed; results go back in seed order, so stdout does not depend
    // on which worker finished first
    let next = AtomicU64::new(0);
    let results: Mutex<BTreeMap<u64, anyhow::Result<GameSummary>>> = Mutex::new(BTreeMap::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= args.games {
                    break;
                }
                let game = play_game(
                    &args.scenario,
                    profile,
                    args.seed + k,
                    args.max_actions,
                    args.trace,
                );
                let failed = game.is_err();
                if let Ok(mut r) = results.lock() {
                    r.insert(k, game);
                }
                bar.inc(1);
                if failed {
                    // no point starting more games
                    next.store(args.games, Ordering::Relaxed);
                }
            });
        }
    });
    bar.finish_and_clear();
    let results = results
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a simulation worker panicked"))?;
    let mut out = Vec::new();
    for (_, game) in results {
        let g = game?;
        if args.verbose {
            let scores: Vec<String> = g.scores.iter().map(|(s, v)| format!("{s} {v}")).collect();
            println!(
                "  seed {:>4}: turn {:>2}{}, {} actions, {} ({})",
                g.seed,
                g.turn,
                if g.finished { "" } else { " (unfinished)" },
                g.actions,
                g.level,
                scores.join(", ")
            );
        }
        out.push(g);
    }
    Ok((out, jobs))
}

struct Stats {
    levels: BTreeMap<String, usize>,
    means: BTreeMap<String, f64>,
    finished: usize,
    min_turn: u32,
}

fn stats(games: &[GameSummary]) -> Stats {
    let mut levels = BTreeMap::new();
    let mut sums: BTreeMap<String, f64> = BTreeMap::new();
    for g in games {
        *levels.entry(g.level.clone()).or_insert(0) += 1;
        for (s, v) in &g.scores {
            *sums.entry(s.clone()).or_insert(0.0) += v;
        }
    }
    let n = games.len().max(1) as f64;
    Stats {
        levels,
        means: sums.into_iter().map(|(k, v)| (k, v / n)).collect(),
        finished: games.iter().filter(|g| g.finished).count(),
        min_turn: games.iter().map(|g| g.turn).min().unwrap_or(0),
    }
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let t0 = Instant::now();
    let (first, jobs) = run_series(&args, args.profile.as_deref())?;
    let second = match &args.against_profile {
        Some(p) => Some(run_series(&args, Some(p))?.0),
        None => None,
    };
    let elapsed = t0.elapsed().as_secs_f64();
    // without --profile the scenario's own default profile is in force: name it
    let name_a = args.profile.clone().unwrap_or_else(|| {
        kessel_core::scenario::Scenario::load(&args.scenario)
            .ok()
            .and_then(|s| s.profile)
            .unwrap_or_else(|| "defaults".into())
    });
    let a = stats(&first);
    println!(
        "{} games of {}, seeds {}..{}",
        args.games,
        args.scenario.display(),
        args.seed,
        args.seed + args.games.saturating_sub(1)
    );
    match (&second, &args.against_profile) {
        (Some(second), Some(name_b)) => {
            let b = stats(second);
            println!("{:<24} {:>12} {:>12}", "", name_a, name_b);
            println!("{:<24} {:>12} {:>12}", "finished", a.finished, b.finished);
            let mut keys: Vec<&String> = a.levels.keys().chain(b.levels.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                println!(
                    "{:<24} {:>12} {:>12}",
                    k,
                    a.levels.get(k).copied().unwrap_or(0),
                    b.levels.get(k).copied().unwrap_or(0)
                );
            }
            let mut sides: Vec<&String> = a.means.keys().chain(b.means.keys()).collect();
            sides.sort();
            sides.dedup();
            for s in sides {
                println!(
                    "{:<24} {:>12.1} {:>12.1}",
                    format!("mean VP {s}"),
                    a.means.get(s).copied().unwrap_or(0.0),
                    b.means.get(s).copied().unwrap_or(0.0)
                );
            }
            let changed = first
                .iter()
                .zip(second.iter())
                .filter(|(x, y)| x.level != y.level)
                .count();
            println!("{changed} of {} seeds end at a different level", args.games);
        }
        _ => {
            println!(
                "profile {name_a}: {} of {} games finished (earliest last turn {})",
                a.finished,
                first.len(),
                a.min_turn
            );
            for (level, n) in &a.levels {
                println!("  {level:<24} {n:>4}");
            }
            for (side, m) in &a.means {
                println!("  mean VP {side:<16} {m:>6.1}");
            }
        }
    }
    let games = first.len() + second.as_ref().map_or(0, Vec::len);
    let per_game = elapsed / games.max(1) as f64;
    eprintln!(
        "{games} games in {elapsed:.1} s on {jobs} worker{}: {:.1} games per minute, {per_game:.3} s per game{}",
        if jobs == 1 { "" } else { "s" },
        games as f64 * 60.0 / elapsed.max(1e-9),
        if jobs > 1 {
            format!(" ({:.3} s of one core each)", per_game * jobs as f64)
        } else {
            String::new()
        }
    );
    Ok(ExitCode::SUCCESS)
}
