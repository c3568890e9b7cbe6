//! `kessel campaign`: plays a campaign headless, game after game (the computer plays every side,
//! as in `simulate`), and prints what carried over from each game to the next: units created,
//! changed or carried as they were, and the variables the campaign carries. `--save` writes a
//! campaign save; `--verify SAVE` replays one and checks every game's final hash.

use anyhow::Context;
use kessel_core::campaign::sources::{sources_text, var_sources, SetIn};
use kessel_core::campaign::{secret_note, value_line, Campaign};
use kessel_core::engine::{CampaignSave, Engine};
use kessel_core::error::printable_name as shown;
use kessel_core::script::Limits;
use kessel_lab::play::{self, PlayConfig};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kessel campaign`.
#[derive(clap::Args)]
pub struct Args {
    /// Campaign file (TOML: its games in order and what carries from one to the next), or its
    /// folder, e.g. scenarios/pegasus-bridge/campaign.toml; needed unless --verify is given.
    campaign: Option<PathBuf>,
    /// Campaign seed (each game's dice are derived from it).
    #[arg(long, default_value_t = crate::DEFAULT_SEED)]
    seed: u64,
    /// Stop a game after this many actions (a safety net against a stuck AI).
    #[arg(long, default_value_t = 50_000)]
    max_actions: usize,
    /// Write a campaign save (each game's log and final hash) to this file.
    #[arg(long, value_name = "FILE.json")]
    save: Option<PathBuf>,
    /// Replay a campaign save, checking every game's final hash, and print where it stands.
    #[arg(long, value_name = "SAVE.json", conflicts_with = "campaign")]
    verify: Option<PathBuf>,
    /// Print every action to stderr.
    #[arg(long)]
    trace: bool,
    /// Print what carried over as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    limits: super::limits::LimitArgs,
    #[command(flatten)]
    lua_profile: super::lua_profile::LuaProfileArgs,
}

/// Runs the command (profiled as a whole with `--lua-profile`).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let profiled = args.lua_profile.clone();
    profiled.around(|| run_campaign(args))
}

fn run_campaign(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(out) = &args.save {
        super::overwrite_only(out, super::Output::CampaignSave)?;
    }
    if let Some(save) = &args.verify {
        let (campaign, saved, engine) =
            Engine::load_campaign_save(save, Limits::default()).map_err(super::describe)?;
        println!(
            "{}: {} of {} games replayed, every final hash as saved (seed {})",
            shown(&campaign.name),
            saved.games.len(),
            campaign.games.len(),
            saved.seed
        );
        for (i, g) in saved.games.iter().enumerate() {
            println!(
                "  game {}: {} — {} actions, {}, state {}",
                i + 1,
                shown(&g.name),
                g.save.log.len(),
                if g.finished { "ended" } else { "not ended" },
                g.final_hash
            );
        }
        let st = engine.state();
        println!("  now: turn {} of {}", st.turn, st.last_turn);
        if let Some(end) = &st.campaign_ended {
            println!(
                "  the campaign ended with game {}: {}",
                saved.games.len(),
                shown(&end.to_string())
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let Some(path) = &args.campaign else {
        anyhow::bail!(
            "give a campaign file, e.g. `kessel campaign scenarios/pegasus-bridge/campaign.toml` \
             (or --verify SAVE to replay a campaign save)"
        );
    };
    let path = &crate::bundle::resolve(path)?;
    let path = &if path.is_dir() {
        path.join("campaign.toml")
    } else {
        path.clone()
    };
    let campaign = Campaign::load(path).map_err(|e| {
        // a scenario given where a campaign file is expected: say what each is
        let scenario = kessel_core::fsio::read_bounded(path, kessel_core::fsio::MAX_TEXT_INPUT)
            .is_ok_and(|b| String::from_utf8_lossy(&b).lines().any(|l| l.trim() == "[scenario]"));
        if scenario {
            anyhow::anyhow!(
                "{}: this is a scenario file (it has [scenario]); a campaign file names its games as [[game]] tables with a `scenario` each (see docs/file-formats.md). To play one scenario headless, use `kessel simulate`",
                path.display()
            )
        } else {
            anyhow::anyhow!("{e}")
        }
    })?;
    // the scenario's error names the scenario; say which campaign named it
    kessel_core::engine::check_games(&campaign)
        .map_err(super::describe)
        .with_context(|| format!("{}: a game of this campaign does not load", path.display()))?;
    let limits = args.limits.limits()?;
    let cfg = PlayConfig {
        max_actions: args.max_actions,
        trace: args.trace,
        seats: Default::default(),
        ai_variation: 0,
        limits,
    };
    // game k plays seed + k (`Campaign::game_seed`): the last game's seed must still be a seed,
    // as `kessel simulate` asks (past the largest, the later games' seeds wrapped round to 0)
    let last = campaign.games.len().saturating_sub(1) as u64;
    if args.seed.checked_add(last).is_none() {
        anyhow::bail!(
            "--seed {} with {} games: the seeds of the later games would run past {} (game k plays seed + k); give a smaller --seed",
            args.seed,
            campaign.games.len(),
            u64::MAX
        );
    }
    let mut save = CampaignSave::new(&campaign, args.seed);
    let mut out = String::new();
    let mut json_games = Vec::new();
    let _ = writeln!(
        out,
        "{} — {} games, seed {}",
        shown(&campaign.name),
        campaign.games.len(),
        args.seed
    );
    let mut last: Option<Engine> = None;
    let mut ended_early = serde_json::Value::Null;
    for index in 0..campaign.games.len() {
        // the rules said the game before was the campaign's last: the rest is not played
        let end = last.as_ref().and_then(|e| e.state().campaign_ended.clone());
        if let Some(end) = end {
            let rest: Vec<String> = (index..campaign.games.len())
                .map(|i| format!("game {} ({})", i + 1, shown(&campaign.planned_name(i))))
                .collect();
            let _ = writeln!(
                out,
                "\nthe campaign ended with game {index}: {}\n  not played: {}",
                shown(&end.to_string()),
                rest.join(", ")
            );
            ended_early = serde_json::json!({
                "after_game": index, "rule": end.rule, "text": end.message, "not_played": rest,
            });
            break;
        }
        let (mut engine, name, carried) =
            Engine::campaign_game(&campaign, index, args.seed, limits, last.as_ref())
                .map_err(super::describe)?;
        if index > 0 {
            out.push_str("\ncarried over:\n");
            out.push_str(&carried.text(100));
        }
        let seed = engine.state().seed;
        let record = play::play_loaded(&mut engine, &name, seed, &cfg)
            .with_context(|| format!("game {} ({name})", index + 1))?;
        let (hash, turn, mode) = {
            let st = engine.state();
            (st.hash(), st.turn, st.mode.clone())
        };
        let _ = writeln!(
            out,
            "\ngame {}/{}: {} (seed {seed})\n  {} actions, {} at turn {turn}{}{}, state {hash:016x}",
            index + 1,
            campaign.games.len(),
            shown(&name),
            record.actions,
            if record.finished { "ended" } else { "stopped at the action limit" },
            mode.map_or(String::new(), |m| format!(" in `{}`", shown(&m))),
            record
                .level
                .as_ref()
                .map_or(String::new(), |l| format!(", result: {}", shown(l))),
        );
        if !record.finished {
            let _ = writeln!(
                out,
                "  warning: the game did not end within {} actions; the next game starts from where it stopped",
                args.max_actions
            );
        }
        save.record(&name, &engine);
        let set_in: std::collections::BTreeMap<String, String> = {
            // the variables this game leaves for the next (a name it never set carries nothing)
            let names: Vec<String> = {
                let st = engine.state();
                (carried_var_names(&campaign, &st.vars).into_iter())
                    .filter(|k| st.vars.contains_key(k))
                    .collect()
            };
            game_var_sources(&engine, &names)
                .into_iter()
                .map(|(k, from)| (k, from.text()))
                .collect()
        };
        json_games.push(serde_json::json!({
            "name": name, "seed": seed, "actions": record.actions, "finished": record.finished,
            "state_hash": format!("{hash:016x}"), "carried_in": carried, "vars_last_set": set_in,
        }));
        last = Some(engine);
    }
    if let Some(engine) = &last {
        // what the campaign would carry on from its last game
        let st = engine.state();
        let names = carried_var_names(&campaign, &st.vars);
        if !names.is_empty() {
            let _ = writeln!(out, "\nat the end:");
            for k in &names {
                if let Some(v) = st.vars.get(k) {
                    let secret =
                        (st.secrets.vars.get(k)).map_or(String::new(), |side| secret_note(side));
                    let _ = writeln!(out, "  {} = {}{secret}", shown(k), value_line(v, 100));
                }
            }
            drop(st);
            let set: Vec<String> = (names.into_iter())
                .filter(|k| engine.state().vars.contains_key(k))
                .collect();
            out.push_str(&sources_text(&game_var_sources(engine, &set)));
        }
    }
    if let Some(p) = &args.save {
        let text = save
            .to_json_at(p, &campaign)
            .map_err(|e| anyhow::anyhow!("cannot write the campaign save: {e}"))?;
        kessel_core::fsio::write_atomic(p, text.as_bytes())
            .with_context(|| format!("cannot write {}", p.display()))?;
        let _ = writeln!(out, "\ncampaign save written to {}", p.display());
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "campaign": campaign.name, "seed": args.seed, "games": json_games,
                "ended_early": ended_early,
            }))?
        );
    } else {
        print!("{}", kessel_core::error::terminal_safe(&out));
    }
    Ok(ExitCode::SUCCESS)
}

fn carried_var_names(
    campaign: &Campaign,
    vars: &std::collections::BTreeMap<String, serde_json::Value>,
) -> Vec<String> {
    use kessel_core::campaign::VarsCarried;
    match &campaign.carry.vars {
        VarsCarried::All(_) => vars.keys().cloned().collect(),
        VarsCarried::Named(n) => n.clone(),
        VarsCarried::Nothing => Vec::new(),
    }
}

/// Where each of `names` was last set in `engine`'s game (see [`var_sources`]).
fn game_var_sources(engine: &Engine, names: &[String]) -> Vec<(String, SetIn)> {
    let world = engine.world();
    var_sources(&world.ruleset, &world.initial, &world.log, names)
}
