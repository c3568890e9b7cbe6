//! `kessel simulate`: whole games headless, AI against AI, under a profile and a seed, with the
//! lab's statistics (levels in rank order with Wilson intervals, VP with t intervals, game
//! length, unfinished games apart); `--against-profile` plays the same seeds under a second
//! profile and adds the paired difference and a verdict.
//!
//! The AI only ever plays actions the rules enumerate (it asks for the kinds it weighs, and
//! `Engine::ai_pick` refuses anything those lists did not hold) and every choice goes through
//! `Engine::act`, so it is validated like a player's. `--ai SIDE=random` has a side choose
//! uniformly among the legal actions instead. Results go to stdout and are the same for the same
//! seeds whatever the number of workers; timings go to stderr. `--out` writes every game to a
//! JSON Lines file for `kessel report`; `--shard K/N` plays one interleaved slice of the seeds.

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kessel_core::script::profile::{self as lua_profile, LuaProfile};
use kessel_lab::play::{self, PlayConfig, Seat};
use kessel_lab::record::{Data, GameRecord, Header, Seeds};
use kessel_lab::{self as lab, stats, summary, ProfileArg};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Games in the first round under `--until-ci`.
const FIRST_ROUND: u64 = 10;

/// Arguments of `kessel simulate`.
#[derive(clap::Args)]
pub struct Args {
    /// Scenario file or package (.kessel).
    #[arg(default_value = crate::DEFAULT_SCENARIO)]
    scenario: PathBuf,
    /// Number of games per profile (with --until-ci: the most to play).
    #[arg(long, default_value_t = 10)]
    games: u64,
    /// Seed of the first game (game k uses seed + k).
    #[arg(long, default_value_t = crate::DEFAULT_SEED)]
    seed: u64,
    /// Profile name or path.
    #[arg(long)]
    profile: Option<String>,
    /// Set one option on top of --profile (not of --against-profile, so that comparing a profile
    /// with itself plus an option measures the option), ID=VALUE (true/false, a number, or a
    /// choice's word; `kessel rules` lists the options); repeatable, an option once.
    #[arg(long = "option", value_name = "ID=VALUE", value_parser = super::options::parse_option)]
    options: Vec<(String, String)>,
    /// Play the same seeds under a second profile and compare, seed by seed (the difference is
    /// --profile minus this one).
    #[arg(long)]
    against_profile: Option<String>,
    /// Stop a game after this many actions (a safety net against a stuck AI); such games are
    /// counted as unfinished and left out of the statistics.
    #[arg(long, default_value_t = 50_000)]
    max_actions: usize,
    #[command(flatten)]
    limits: super::limits::LimitArgs,
    /// Write every game to this JSON Lines file (a header record, then one record per game),
    /// for `kessel report`.
    #[arg(long, value_name = "FILE.jsonl")]
    out: Option<PathBuf>,
    /// Play only the K-th of N interleaved slices of the seeds (game k when k mod N = K − 1),
    /// for spreading a run over processes or machines; merge the --out files with `kessel report`.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Keep playing until the 95% interval of the VP difference (the paired one with
    /// --against-profile) is at most ±VP wide, or --games games are played.
    #[arg(long, value_name = "VP")]
    until_ci: Option<f64>,
    /// Play the same seeds again with these sides' players changed (`SIDE=PLAYER` as for --ai)
    /// and compare, seed by seed: the AI ladder (e.g. `--ai german=ai:strong --against-ai
    /// german=ai:fast`; the difference is the first players minus these). Repeatable, a side once.
    #[arg(long, value_name = "SIDE=PLAYER")]
    against_ai: Vec<String>,
    /// Play each seed R ways: the usual game and R − 1 more with the same dice but the players'
    /// open choices made otherwise (the AI's ties broken another way, a random player's other
    /// draws), and say how much of the spread of results is the players' choices and how much
    /// the dice. The other statistics use the usual games only.
    #[arg(long, value_name = "R")]
    ai_variations: Option<u64>,
    /// Who plays a side: `SIDE=random` (a seeded uniform choice among the legal actions),
    /// `SIDE=ai` (the ruleset's AI at its default level, the default) or `SIDE=ai:LEVEL` (a level
    /// the ruleset's AI declares; `kessel info` lists them). Repeatable, a side once.
    #[arg(long, value_name = "SIDE=PLAYER")]
    ai: Vec<String>,
    /// Print one line per game.
    #[arg(long, short)]
    verbose: bool,
    /// Print every action played (to stderr) with its turn and step id, and under it the dice it
    /// rolled and the records it made (a combat's totals, modifiers, odds, roll and result), for
    /// debugging rules and AI (plays one game at a time).
    #[arg(long)]
    trace: bool,
    #[command(flatten)]
    lua_profile: super::lua_profile::LuaProfileArgs,
    /// Games played at once, 1 to 1024 (default: one per core). Each game is independent and
    /// seeded, so the results are the same whatever the number.
    #[arg(long, short, value_parser = parse_jobs)]
    jobs: Option<u32>,
}

/// The most games one run (or one shard of it) lists: their indices are held up front.
const MAX_GAMES: u64 = 100_000_000;

/// Parses `K/N` (1 ≤ K ≤ N).
pub fn parse_shard(text: &str) -> anyhow::Result<(u64, u64)> {
    let (k, n) = text
        .split_once('/')
        .with_context(|| format!("--shard {text}: expected K/N, e.g. 1/4"))?;
    let k: u64 = k
        .trim()
        .parse()
        .with_context(|| format!("--shard {text}: `{k}` is not a number"))?;
    let n: u64 = n
        .trim()
        .parse()
        .with_context(|| format!("--shard {text}: `{n}` is not a number"))?;
    if n == 0 || k == 0 || k > n {
        anyhow::bail!("--shard {text}: K must be between 1 and N");
    }
    Ok((k, n))
}

/// Parses the `--ai` arguments against the ruleset's sides and its AI's levels: side → the
/// player's word (`random`, `ai:LEVEL`) for the sides not left to the AI at its default level.
fn parse_players(
    flag: &str,
    args: &[String],
    sides: &[String],
    levels: &[String],
) -> anyhow::Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for a in args {
        let (side, player) = a.split_once('=').with_context(|| {
            format!("{flag} {a}: expected SIDE=random, SIDE=ai or SIDE=ai:LEVEL")
        })?;
        // (the later one won unseen)
        let earlier = |b: &&String| b.split_once('=').is_some_and(|(s, _)| s == side);
        if let Some(first) = args
            .iter()
            .take_while(|b| !std::ptr::eq(*b, a))
            .find(earlier)
        {
            anyhow::bail!(
                "{flag} {a}: side `{side}` is given twice (first as {first}); give each side once"
            );
        }
        if !sides.iter().any(|s| s == side) {
            anyhow::bail!(
                "{flag} {a}: the ruleset has no side `{side}` (sides: {}){}",
                sides.join(", "),
                kessel_core::names::did_you_mean(side, sides)
            );
        }
        match Seat::parse(player) {
            Some(Seat::Ai(None)) => {
                out.remove(side);
            }
            Some(Seat::Ai(Some(level))) if !levels.contains(&level) => {
                if levels.is_empty() {
                    anyhow::bail!(
                        "{flag} {a}: the ruleset's AI declares no levels (no `kessel.ai_level`): use SIDE=ai"
                    );
                }
                anyhow::bail!(
                    "{flag} {a}: the ruleset's AI has no level `{level}`{} (levels: {}; the first is the default)",
                    kessel_core::names::did_you_mean(&level, levels),
                    levels.join(", ")
                );
            }
            Some(seat) => {
                out.insert(side.to_string(), seat.word());
            }
            None => anyhow::bail!(
                "{flag} {a}: unknown player `{player}` (random, ai or ai:LEVEL{})",
                if levels.is_empty() {
                    String::new()
                } else {
                    format!("; levels: {}", levels.join(", "))
                }
            ),
        }
    }
    Ok(out)
}

/// One game to play: profile index, seed and AI variation.
type Job = (usize, u64, u64);

/// The most games played at once: each is a thread with a rules engine of its own (tens of
/// megabytes for the PGG rules), and `--jobs 100000` started as many as there were games.
const MAX_JOBS: u32 = 1024;

/// `--jobs`: how many games at once, 1 or more (0 ran one at a time without a word), at most
/// [`MAX_JOBS`].
fn parse_jobs(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(n) if n > MAX_JOBS => Err(format!(
            "{n} games at once: at most {MAX_JOBS} (one a core is the default: {})",
            std::thread::available_parallelism().map_or(1, |n| n.get())
        )),
        Ok(n) if n >= 1 => Ok(n),
        Ok(_) => Err("give how many games to play at once, 1 or more".into()),
        Err(_) => Err(format!("`{text}` is not a number of games (1 or more)")),
    }
}

/// Plays the jobs on `workers` threads; returns the games in job order. Stops at the first
/// error.
fn play_jobs(
    args: &Args,
    profiles: &[ProfileArg],
    cfgs: &[PlayConfig],
    jobs: &[Job],
    workers: usize,
    bar: &ProgressBar,
    gathered: &Mutex<LuaProfile>,
) -> anyhow::Result<Vec<GameRecord>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<BTreeMap<usize, anyhow::Result<GameRecord>>> = Mutex::new(BTreeMap::new());
    std::thread::scope(|scope| {
        for _ in 0..workers.clamp(1, jobs.len().max(1)) {
            let worker = kessel_core::script::rules_thread("simulate");
            let spawned = worker.spawn_scoped(scope, || {
                args.lua_profile.start();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(p, seed, variation)) = jobs.get(i) else {
                        // this worker's share of the profile (one per thread: Lua runs on each)
                        if let (Some(mine), Ok(mut all)) = (lua_profile::finish(), gathered.lock())
                        {
                            all.merge(&mine);
                        }
                        break;
                    };
                    let profile = &profiles[p];
                    let cfg = PlayConfig {
                        ai_variation: variation,
                        ..cfgs[p].clone()
                    };
                    let game = play::play_game(&args.scenario, profile, seed, &cfg)
                        .with_context(|| format!("profile {}", profile.name));
                    let failed = game.is_err();
                    if let Ok(mut r) = results.lock() {
                        r.insert(i, game);
                    }
                    bar.inc(1);
                    if failed {
                        // no point starting more games
                        next.store(jobs.len(), Ordering::Relaxed);
                    }
                }
            });
            if let Err(e) = spawned {
                if let Ok(mut r) = results.lock() {
                    r.insert(
                        usize::MAX,
                        Err(anyhow::anyhow!("cannot start a simulation worker: {e}")),
                    );
                }
                next.store(jobs.len(), Ordering::Relaxed);
                break;
            }
        }
    });
    let results = results
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a simulation worker panicked"))?;
    results.into_values().collect()
}

/// The half-width of the interval `--until-ci` watches, and the sd behind it.
fn watched(data: &Data) -> Option<(f64, f64)> {
    let s = summary::summarize(data);
    let m = match s.paired.first() {
        Some(p) => p.key()?.1,
        None => s.profiles.first()?.vp.last()?.1,
    };
    m.ci.map(|ci| (ci.half_width(), m.sd))
}

/// A one-line description of a game for `-v` (no timing: stdout stays the same for the same
/// seeds).
fn game_line(g: &GameRecord) -> String {
    let shown = kessel_core::error::printable_name;
    let scores: Vec<String> = g
        .scores
        .iter()
        .map(|(s, v)| format!("{} {v}", shown(s)))
        .collect();
    let variation = if g.variation > 0 {
        format!(" way {}", g.variation + 1)
    } else {
        String::new()
    };
    format!(
        "  {} seed {:>4}{variation}: turn {:>2}{}, {} actions, {} ({})",
        shown(&g.profile),
        g.seed,
        g.turn,
        if g.finished { "" } else { " (unfinished)" },
        g.actions,
        g.level.as_deref().map_or("no result".into(), shown),
        scores.join(", ")
    )
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let args = Args {
        scenario: crate::open_scenario(&args.scenario)?,
        ..args
    };
    if let Some(out) = &args.out {
        super::overwrite_only(out, super::Output::LabData)?;
    }
    args.lua_profile.check()?;
    if args.games == 0 {
        anyhow::bail!("--games 0: give how many games to play, 1 or more");
    }
    // game k plays seed + k: the last seed must still be a seed
    if args.seed.checked_add(args.games - 1).is_none() {
        anyhow::bail!(
            "--seed {} with --games {}: the seeds of the games would run past {} (game k plays seed + k); give a smaller --seed",
            args.seed,
            args.games,
            u64::MAX
        );
    }
    let t0 = Instant::now();
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    if shard.is_some() && args.until_ci.is_some() {
        anyhow::bail!(
            "--until-ci needs every game's result to decide when to stop; a --shard sees only its slice"
        );
    }
    match args.ai_variations {
        Some(r) if r < 2 => anyhow::bail!(
            "--ai-variations {r}: give 2 or more (the usual game and at least one other way of playing it)"
        ),
        Some(r) if r > kessel_lab::record::MAX_VARIATIONS => anyhow::bail!(
            "--ai-variations {r}: at most {}",
            kessel_lab::record::MAX_VARIATIONS
        ),
        Some(_) if args.until_ci.is_some() => anyhow::bail!(
            "--until-ci watches one game per seed; --ai-variations plays several: give one of them"
        ),
        _ => {}
    }
    if let Some(v) = args.until_ci {
        if !(v > 0.0 && v.is_finite()) {
            anyhow::bail!("--until-ci {v}: give a positive number of VP");
        }
    }
    // without --profile the scenario's own default profile is in force: name it
    let default_name = || {
        kessel_core::scenario::Scenario::load(&args.scenario)
            .ok()
            .and_then(|s| s.profile)
            .unwrap_or_else(|| "defaults".into())
    };
    let flags = super::options::OptionArgs {
        options: args.options.clone(),
    };
    let first = args.profile.clone().unwrap_or_else(default_name);
    let mut profiles = vec![ProfileArg {
        arg: args.profile.clone(),
        name: flags.label(&profile_name(&first)),
        options: args.options.clone(),
    }];
    if args.against_profile.is_some() && !args.against_ai.is_empty() {
        anyhow::bail!(
            "--against-profile and --against-ai compare two different things: give one (compare profiles with the same players, or players under the same profile)"
        );
    }
    if let Some(p) = &args.against_profile {
        // (one file written two ways, `a/p.toml` and `a/b/../p.toml`, is one profile too)
        let same_file = || {
            let canon = |x: &str| std::fs::canonicalize(x).ok();
            args.options.is_empty()
                && kessel_core::engine::Engine::is_profile_path(p)
                && kessel_core::engine::Engine::is_profile_path(&first)
                && canon(p).is_some()
                && canon(p) == canon(&first)
        };
        if *p == flags.label(&first) || same_file() {
            anyhow::bail!("--against-profile {p} is the profile already played");
        }
        let mut name = profile_name(p);
        if name == profiles[0].name {
            // two files of one name (a/guards.toml, b/guards.toml): the paths tell them apart
            profiles[0].name = flags.label(&first);
            name = p.clone();
        }
        profiles.push(ProfileArg {
            arg: Some(p.clone()),
            name,
            options: Vec::new(),
        });
    }
    let seeds = Seeds {
        first: args.seed,
        games: args.games,
        shard: shard.map(|(k, n)| [k, n]),
    };
    let mut header: Header = lab::header(
        &args.scenario,
        &profiles,
        args.max_actions,
        BTreeMap::new(),
        seeds,
    )?;
    header.players = parse_players("--ai", &args.ai, &header.sides, &header.ai_levels)?;
    header.variations = args.ai_variations.unwrap_or(1);
    if !args.against_ai.is_empty() {
        // the second arm: the same profile, these sides played otherwise
        // (each flag names a side once; a side --against-ai names is played its way)
        parse_players(
            "--against-ai",
            &args.against_ai,
            &header.sides,
            &header.ai_levels,
        )?;
        let side_of = |a: &String| a.split_once('=').map(|(s, _)| s.to_string());
        let both: Vec<String> = (args.ai.iter())
            .filter(|a| !args.against_ai.iter().any(|b| side_of(b) == side_of(a)))
            .chain(&args.against_ai)
            .cloned()
            .collect();
        let other = parse_players("--against-ai", &both, &header.sides, &header.ai_levels)?;
        if other == header.players {
            anyhow::bail!(
                "--against-ai {}: these are the players already playing",
                args.against_ai.join(" ")
            );
        }
        let base = header.profiles[0].clone();
        let arm = |players: &BTreeMap<String, String>| lab::record::ProfileInfo {
            name: format!("{} ({})", base.name, lab::players_label(players)),
            options: base.options.clone(),
            players: players.clone(),
        };
        header.profiles = vec![arm(&header.players), arm(&other)];
        profiles = header
            .profiles
            .iter()
            .map(|p| ProfileArg {
                arg: profiles[0].arg.clone(),
                name: p.name.clone(),
                options: profiles[0].options.clone(),
            })
            .collect();
    }
    // how each arm is played: its own players where it names them, else the run's
    let limits = args.limits.limits()?;
    let cfgs: Vec<PlayConfig> = header
        .profiles
        .iter()
        .map(|p| PlayConfig {
            max_actions: args.max_actions,
            trace: args.trace,
            ai_variation: 0,
            limits,
            seats: Seat::seats(if p.players.is_empty() {
                &header.players
            } else {
                &p.players
            }),
        })
        .collect();
    // the game indices this run plays
    // (listed up front: a slice of an enormous run is stepped to, never filtered out of it)
    let (first, step) = shard.map_or((0, 1), |(i, n)| (i - 1, n));
    let count = args.games.saturating_sub(first).div_ceil(step);
    if count > MAX_GAMES {
        anyhow::bail!(
            "--games {}: {count} games in one run, over the limit of {MAX_GAMES}; split the run with --shard K/N",
            args.games
        );
    }
    let ks: Vec<u64> = (first..args.games)
        .step_by(usize::try_from(step).unwrap_or(usize::MAX))
        .collect();
    let workers = if args.trace {
        1
    } else {
        args.jobs
            .map(|j| j as usize)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1)
    };
    let mut out = match &args.out {
        Some(path) => {
            let mut f = std::io::BufWriter::new(
                std::fs::File::create(path)
                    .with_context(|| format!("creating {}", path.display()))?,
            );
            writeln!(f, "{}", serde_json::to_string(&header)?)
                .with_context(|| format!("writing {}", path.display()))?;
            Some(f)
        }
        None => None,
    };
    // drawn only once run_round has given it its length (a terminal's target is set there): at
    // 0/0 games it drew a full bar
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix:>10} [{bar:30}] {pos}/{len} games, {elapsed} ({eta} left)",
        )
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .progress_chars("=> "),
    );
    bar.set_prefix("simulate");
    let mut data = Data {
        header: header.clone(),
        games: Vec::new(),
    };
    let gathered = Mutex::new(LuaProfile::default());
    let mut played = 0usize; // seeds of `ks` played so far
    loop {
        let upto = match args.until_ci {
            None => ks.len(),
            Some(_) if played == 0 => (FIRST_ROUND as usize).min(ks.len()),
            Some(goal) => match watched(&data) {
                Some((half, _)) if half <= goal => break,
                Some((_, sd)) => {
                    let need = stats::games_for_half_width(sd, goal).unwrap_or(u64::MAX);
                    let need = usize::try_from(need).unwrap_or(usize::MAX);
                    // grow by at least one round, at most double, never past the cap
                    need.min(2 * played)
                        .max(played + FIRST_ROUND as usize)
                        .min(ks.len())
                }
                None => (played + FIRST_ROUND as usize).min(ks.len()),
            },
        };
        if upto <= played {
            break;
        }
        run_round(
            &args, &profiles, &cfgs, &ks, played, upto, workers, &bar, &mut data, &mut out,
            &gathered,
        )?;
        played = upto;
        if args.until_ci.is_none() {
            break;
        }
    }
    bar.finish_and_clear();
    if let (Some(f), Some(path)) = (out.as_mut(), &args.out) {
        f.flush()
            .with_context(|| format!("writing {}", path.display()))?;
    }
    data.sort();
    let s = summary::summarize(&data);
    let mut stdout = std::io::stdout().lock();
    // names and levels come from the rules: shown with control characters escaped
    write!(
        stdout,
        "{}",
        kessel_core::error::terminal_safe(&summary::text(&data, &s))
    )?;
    if let Some(goal) = args.until_ci {
        match watched(&data) {
            Some((half, _)) if half <= goal => writeln!(
                stdout,
                "--until-ci {goal}: reached ±{half:.1} VP after {played} seeds"
            )?,
            Some((half, _)) => writeln!(
                stdout,
                "--until-ci {goal}: stopped at the cap of {} seeds with ±{half:.1} VP",
                ks.len()
            )?,
            None => writeln!(
                stdout,
                "--until-ci {goal}: stopped at the cap of {} seeds without an interval",
                ks.len()
            )?,
        }
    }
    stdout.flush()?;
    drop(stdout);
    let elapsed = t0.elapsed().as_secs_f64();
    let games = data.games.len();
    // (the threads started: no more than there were games)
    let workers = workers.min(games.max(1));
    // a blank line first: the timing never runs into the summary's last line, however a
    // caller joins the two streams
    eprintln!(
        "\n{} in {elapsed:.1} s on {workers} worker{}: {:.1} games per minute; {}",
        crate::cmd::count(games, "game", "games"),
        if workers == 1 { "" } else { "s" },
        games as f64 * 60.0 / elapsed.max(1e-9),
        summary::cpu_line(&data.games),
    );
    let gathered = gathered
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a simulation worker panicked"))?;
    args.lua_profile.write(&gathered)?;
    Ok(ExitCode::SUCCESS)
}

fn stderr_is_terminal() -> bool {
    std::io::stderr().is_terminal()
}

/// Plays the seeds `ks[from..upto]` under every profile, adds them to `data`, prints `-v` lines
/// and appends them to the data file.
#[allow(clippy::too_many_arguments)]
fn run_round(
    args: &Args,
    profiles: &[ProfileArg],
    cfgs: &[PlayConfig],
    ks: &[u64],
    from: usize,
    upto: usize,
    workers: usize,
    bar: &ProgressBar,
    data: &mut Data,
    out: &mut Option<std::io::BufWriter<std::fs::File>>,
    gathered: &Mutex<LuaProfile>,
) -> anyhow::Result<()> {
    let variations = args.ai_variations.unwrap_or(1);
    let jobs: Vec<Job> = ks[from..upto]
        .iter()
        .flat_map(|k| {
            (0..profiles.len())
                .flat_map(move |p| (0..variations).map(move |v| (p, args.seed + k, v)))
        })
        .collect();
    bar.inc_length(jobs.len() as u64);
    if bar.is_hidden() && stderr_is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar.tick();
    }
    let games = play_jobs(args, profiles, cfgs, &jobs, workers, bar, gathered)?;
    for g in &games {
        if args.verbose {
            bar.suspend(|| println!("{}", kessel_core::error::terminal_line(&game_line(g))));
        }
        if let (Some(f), Some(path)) = (out.as_mut(), &args.out) {
            writeln!(f, "{}", serde_json::to_string(g)?)
                .with_context(|| format!("writing {}", path.display()))?;
        }
    }
    data.games.extend(games);
    Ok(())
}

/// How records and summaries name a profile argument: one given by its file is named by the
/// file's stem, as `kessel.game.profile()` names it (the whole path was clipped at the left in the
/// report's charts); a name stays as it is.
fn profile_name(arg: &str) -> String {
    if kessel_core::engine::Engine::is_profile_path(arg) {
        if let Some(stem) = std::path::Path::new(arg).file_stem() {
            return stem.to_string_lossy().into_owned();
        }
    }
    arg.to_string()
}
