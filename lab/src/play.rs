//! Playing one game headless and recording it: the ruleset's AI (or a random-legal player for
//! chosen sides), every action validated by `Engine::act`, and what the lab keeps per game-turn.
//!
//! Per game-turn the record holds the VP the ruleset's `result` hook reports and who controls each
//! objective. Control is the `control` table the `result` hook may return (objective name → side);
//! without one it is derived here from the state: a hex belongs to the side whose unit stood in it
//! last (read after every action), an objective to the side that owns all its hexes.

use super::record::{GameRecord, Losses, TurnRecord};
use kessel_core::dice::Dice;
use kessel_core::engine::Engine;
use kessel_core::hex::Hex;
use kessel_core::state::{GameState, Location};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Instant;

/// How games are played.
#[derive(Clone, Debug, Default)]
pub struct PlayConfig {
    /// Stop a game after this many actions.
    pub max_actions: usize,
    /// Print every action to stderr.
    pub trace: bool,
    /// Who plays each side, by side id; a side not named is the ruleset's AI at its default level.
    pub seats: BTreeMap<String, Seat>,
    /// Which way the players' own choices go where they are left open (the AI's ties, a random
    /// player's draws); the game's dice are the same whatever it is (`Engine::set_ai_variation`).
    pub ai_variation: u64,
    /// What each call into the rules may use (a debug build or a busy machine may need more wall
    /// time than the default; the games are the same whatever it is, unless a call runs out).
    pub limits: kessel_core::script::Limits,
}

/// Who plays a side in a simulated game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// The ruleset's AI (its `ai` hook) at a declared level (`None`: the ruleset's default).
    Ai(Option<String>),
    /// A seeded uniform choice among the legal actions.
    Random,
}

impl Seat {
    /// Reads `random`, `ai` or `ai:LEVEL` (the words of `--ai SIDE=...` and of the JSONL header).
    pub fn parse(word: &str) -> Option<Seat> {
        match word {
            "random" => Some(Seat::Random),
            "ai" => Some(Seat::Ai(None)),
            _ => word
                .strip_prefix("ai:")
                .filter(|l| !l.is_empty())
                .map(|l| Seat::Ai(Some(l.to_string()))),
        }
    }

    /// The seats of a players map (side → word, as `--ai` and the JSONL header write them);
    /// words that are not players are left out (the callers checked them).
    pub fn seats(players: &BTreeMap<String, String>) -> BTreeMap<String, Seat> {
        players
            .iter()
            .filter_map(|(side, word)| Some((side.clone(), Seat::parse(word)?)))
            .collect()
    }

    /// The word [`Seat::parse`] reads.
    pub fn word(&self) -> String {
        match self {
            Seat::Random => "random".to_string(),
            Seat::Ai(None) => "ai".to_string(),
            Seat::Ai(Some(level)) => format!("ai:{level}"),
        }
    }
}

/// CPU seconds this thread has run, where the system says; `None` elsewhere.
pub use kessel_core::cpu_time::thread_cpu_seconds;

/// Who owns the objective hexes: the side that stood in each last.
struct Control {
    /// Objective names and their hexes' indices into `owner`.
    objectives: Vec<(String, Vec<usize>)>,
    /// Hex → index.
    index: HashMap<Hex, usize>,
    /// Owner per objective hex.
    owner: Vec<Option<String>>,
}

impl Control {
    fn new(engine: &Engine) -> Control {
        let mut index = HashMap::new();
        let mut objectives = Vec::new();
        if let Some(sc) = engine.scenario() {
            for o in &sc.objectives {
                let mut ids = Vec::new();
                for h in &o.hexes {
                    let next = index.len();
                    ids.push(*index.entry(*h).or_insert(next));
                }
                objectives.push((o.name.clone(), ids));
            }
        }
        let owner = vec![None; index.len()];
        Control {
            objectives,
            index,
            owner,
        }
    }

    fn observe(&mut self, state: &GameState) {
        if self.index.is_empty() {
            return;
        }
        for u in &state.units {
            if let Location::Map(h) = u.location {
                if let Some(&i) = self.index.get(&h) {
                    if self.owner[i].as_deref() != Some(u.side.as_str()) {
                        self.owner[i] = Some(u.side.clone());
                    }
                }
            }
        }
    }

    fn snapshot(&self) -> BTreeMap<String, Option<String>> {
        self.objectives
            .iter()
            .map(|(name, ids)| {
                let first = ids.first().and_then(|&i| self.owner[i].clone());
                let all =
                    first.filter(|s| ids.iter().all(|&i| self.owner[i].as_deref() == Some(s)));
                (name.clone(), all)
            })
            .collect()
    }
}

/// What the `result` hook said: level, scores, and control if it gives one.
struct HookResult {
    level: Option<String>,
    scores: BTreeMap<String, f64>,
    control: Option<BTreeMap<String, Option<String>>>,
    metrics: BTreeMap<String, f64>,
}

fn ask_result(engine: &Engine, seed: u64) -> anyhow::Result<HookResult> {
    let r = engine
        .result()
        .map_err(|e| anyhow::anyhow!("seed {seed}: result: {}", e.message))?;
    let mut out = HookResult {
        level: None,
        scores: BTreeMap::new(),
        control: None,
        metrics: BTreeMap::new(),
    };
    if let Some(r) = r {
        out.level = r.get("level").and_then(Value::as_str).map(str::to_string);
        if let Some(scores) = r.get("scores").and_then(Value::as_object) {
            for (side, v) in scores {
                out.scores.insert(side.clone(), v.as_f64().unwrap_or(0.0));
            }
        }
        if let Some(metrics) = r.get("metrics").and_then(Value::as_object) {
            for (k, v) in metrics {
                if let Some(x) = v.as_f64() {
                    out.metrics.insert(k.clone(), x);
                }
            }
        }
        if let Some(control) = r.get("control").and_then(Value::as_object) {
            out.control = Some(
                control
                    .iter()
                    .map(|(k, v)| (k.clone(), v.as_str().map(str::to_string)))
                    .collect(),
            );
        }
    }
    Ok(out)
}

fn losses(state: &GameState) -> BTreeMap<String, Losses> {
    let mut out: BTreeMap<String, Losses> = state
        .sides
        .iter()
        .map(|s| (s.clone(), Losses::default()))
        .collect();
    for u in &state.units {
        let l = out.entry(u.side.clone()).or_default();
        match u.location {
            Location::Eliminated => {
                l.eliminated += 1;
                l.steps += (u.faces.len() as u32).max(1);
            }
            Location::Map(_) => l.steps += u.step,
            Location::Pending | Location::Removed => {}
        }
    }
    out
}

/// What `--trace` prints under an accepted action: its dice and its records (a combat's
/// strengths, modifiers, odds, roll and result), one line each.
pub fn trace_lines(events: &[kessel_core::Event]) -> Vec<String> {
    use kessel_core::Event;
    events
        .iter()
        .filter_map(|e| match e {
            Event::Dice { purpose, rolls, .. } => {
                let r: Vec<String> = rolls.iter().map(u32::to_string).collect();
                Some(format!("dice {purpose}: {}", r.join(" ")))
            }
            Event::Record {
                kind, rule, fields, ..
            } => Some(format!(
                "record {kind} [{}]: {}",
                rule.as_deref().unwrap_or("-"),
                serde_json::to_string(fields).unwrap_or_default()
            )),
            _ => None,
        })
        .collect()
}

/// Plays one game to its end (or to the action limit) and records it: `profile.arg` is passed
/// to the engine (`None`: the scenario's default), `profile.options` set on top, and
/// `profile.name` is what the record says.
pub fn play_game(
    scenario: &Path,
    profile: &crate::ProfileArg,
    seed: u64,
    cfg: &PlayConfig,
) -> anyhow::Result<GameRecord> {
    let wall = Instant::now();
    let cpu0 = thread_cpu_seconds();
    let mut engine = crate::load_with_limits(
        scenario,
        profile.arg.as_deref(),
        &profile.options,
        seed,
        cfg.limits,
    )?;
    let mut record = play_loaded(&mut engine, &profile.name, seed, cfg)?;
    record.cpu_s = match (cpu0, thread_cpu_seconds()) {
        (Some(a), Some(b)) if b >= a => b - a,
        _ => wall.elapsed().as_secs_f64(),
    };
    Ok(record)
}

/// Plays a game already loaded (a campaign's next game, say) to its end or to the action
/// limit, and records it; `cpu_s` counts the play only.
pub fn play_loaded(
    engine: &mut Engine,
    profile_name: &str,
    seed: u64,
    cfg: &PlayConfig,
) -> anyhow::Result<GameRecord> {
    play_loaded_until(engine, profile_name, seed, cfg, &|| false)
}

/// What [`play_loaded_until`] says when `stop` asked it to stop (the editor's Cancel).
pub const STOPPED: &str = "stopped on request";

/// [`play_loaded`], asking `stop` before every action: when it says yes the game ends at once
/// with the error [`STOPPED`] (a front end's Cancel; a game cut short has no record).
pub fn play_loaded_until(
    engine: &mut Engine,
    profile_name: &str,
    seed: u64,
    cfg: &PlayConfig,
    stop: &dyn Fn() -> bool,
) -> anyhow::Result<GameRecord> {
    let wall = Instant::now();
    let cpu0 = thread_cpu_seconds();
    // the choosers' own dice, so choosing never disturbs the game's dice
    let mut choice_dice =
        Dice::new(seed ^ 0x5eed_5eed ^ cfg.ai_variation.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    engine.set_ai_variation(cfg.ai_variation);
    let mut control = Control::new(engine);
    let mut per_turn: Vec<TurnRecord> = Vec::new();
    let mut actions = 0;
    let mut actions_by_side: BTreeMap<String, BTreeMap<String, u32>> = BTreeMap::new();
    let mut turn_now = {
        let st = engine.state();
        control.observe(&st);
        st.turn
    };
    let record_turn =
        |engine: &Engine, turn: u32, control: &Control| -> anyhow::Result<TurnRecord> {
            let r = ask_result(engine, seed)?;
            Ok(TurnRecord {
                turn,
                scores: r.scores,
                control: r.control.unwrap_or_else(|| control.snapshot()),
                metrics: r.metrics,
            })
        };
    // wall time spent choosing actions (the players' own work) and in the rules' validation and
    // application of them, to split the game's CPU time between the two
    let mut choosing = std::time::Duration::ZERO;
    let mut ruling = std::time::Duration::ZERO;
    let mut stuck = false;
    // refusals of enumerated actions a random player met: message → times (reported once)
    let mut refusals: BTreeMap<String, usize> = BTreeMap::new();
    while !stuck {
        if stop() {
            anyhow::bail!("{STOPPED}");
        }
        let (finished, turn, decider) = {
            let st = engine.state();
            let decider = if cfg.seats.is_empty() {
                None
            } else {
                engine.deciding_side()
            };
            (st.finished, st.turn, decider)
        };
        if turn != turn_now {
            per_turn.push(record_turn(engine, turn_now, &control)?);
            turn_now = turn;
        }
        if finished || actions >= cfg.max_actions {
            break;
        }
        let seat = decider.as_ref().and_then(|s| cfg.seats.get(s));
        let random = seat == Some(&Seat::Random);
        let level = match seat {
            Some(Seat::Ai(level)) => level.as_deref(),
            _ => None,
        };
        // the computer player's choice (the AI's, or drawn when it has none), or for a random
        // player the candidates a choice is drawn from
        let chosen_at = Instant::now();
        let picked = if random {
            None
        } else {
            let choice = engine
                .computer_choice_at(level, &mut choice_dice)
                .map_err(|e| anyhow::anyhow!("seed {seed}: ai: {}", e.message))?;
            if choice.is_none() {
                let st = engine.state();
                anyhow::bail!(
                    "seed {seed}: no legal action at turn {}, step {} — the rules enumerate nothing",
                    st.turn,
                    st.phase
                );
            }
            choice
        };
        let mut drew_again = false;
        let mut asked_ai = !random;
        let (mut action, mut rest) = match picked {
            Some(action) => (action, Vec::new()),
            None => {
                let mut legal = engine.legal_actions(None).map_err(|e| {
                    anyhow::anyhow!("seed {seed}: enumerating actions: {}", e.message)
                })?;
                if legal.is_empty() {
                    let st = engine.state();
                    anyhow::bail!(
                        "seed {seed}: no legal action at turn {}, step {} — the rules enumerate nothing",
                        st.turn,
                        st.phase
                    );
                }
                let pick = (choice_dice.roll_from(&engine.choice_stream(), legal.len() as u32) - 1)
                    as usize;
                (legal.swap_remove(pick), legal)
            }
        };
        choosing += chosen_at.elapsed();
        let deciding = engine.deciding_side();
        loop {
            if cfg.trace {
                let w = engine.world();
                let st = &w.state;
                let step = w
                    .current_step()
                    .map_or_else(|| st.phase.to_string(), |s| s.id.clone());
                eprintln!(
                    "{profile_name} seed {seed} turn {} {step}: {}",
                    st.turn,
                    serde_json::to_string(&action).unwrap_or_default()
                );
            }
            // sent by the side the rules listed it for (an enumerator of simultaneous orders
            // lists each side's with its `side`: sent as the deciding side, one side's orders
            // were taken as another's), else by the side deciding, already known
            let acted_at = Instant::now();
            let outcome = match (&action.side, &deciding) {
                (None, Some(side)) => engine.act_as(side, &action),
                _ => engine.act(&action),
            }
            .map_err(|e| anyhow::anyhow!("seed {seed}: {}", e.message))?;
            ruling += acted_at.elapsed();
            if std::env::var("KESSEL_DT").is_ok() {
                let w = engine.world();
                eprintln!(
                    "DT {} {} {} {}",
                    w.state.turn,
                    w.state.phase,
                    action.kind,
                    chosen_at.elapsed().as_micros() - acted_at.elapsed().as_micros()
                );
            }
            let rejection = match outcome {
                Ok(events) => {
                    if cfg.trace {
                        for line in trace_lines(&events) {
                            // (a record's kind is the rules' text: one line, never obeyed)
                            eprintln!("    {}", kessel_core::error::printable_name(&line));
                        }
                    }
                    break;
                }
                Err(rejection) => rejection,
            };
            let refused = format!(
                "seed {seed}: the rules refused an action they had enumerated ({}): {rejection}",
                action.kind
            );
            // Without a random player every choice must hold. A random player leads the game
            // into corners the AI alone never reaches: there a refusal is reported (a rules bug
            // to fix) and the choice is drawn again from the other legal actions, so the run
            // still measures AI against random.
            if !cfg.seats.values().any(|s| *s == Seat::Random) {
                anyhow::bail!(refused);
            }
            if !random && !drew_again {
                rest = engine
                    .legal_actions(None)
                    .map_err(|e| {
                        anyhow::anyhow!("seed {seed}: enumerating actions: {}", e.message)
                    })?
                    .into_iter()
                    .filter(|a| *a != action)
                    .collect();
                drew_again = true;
            }
            if rest.is_empty() {
                // every other legal action refused too: let the AI choose, once
                let ai = if asked_ai {
                    None
                } else {
                    engine
                        .ai_pick_at(level)
                        .map_err(|e| anyhow::anyhow!("seed {seed}: ai: {}", e.message))?
                };
                asked_ai = true;
                let Some(ai) = ai.filter(|a| *a != action) else {
                    // a dead end of the rules: the game stops here, unfinished, and the run goes on
                    // (the refusal is the rules' text: shown, never obeyed, on lines of its own)
                    eprintln!(
                        "warning: {}",
                        kessel_core::error::printable(&format!(
                            "{profile_name} {refused}; nothing else is accepted: the game stops here (unfinished)"
                        ))
                    );
                    stuck = true;
                    break;
                };
                *refusals.entry(rejection.to_string()).or_insert(0) += 1;
                action = ai;
                continue;
            }
            *refusals
                .entry(format!("({}) {rejection}", action.kind))
                .or_insert(0) += 1;
            let pick =
                (choice_dice.roll_from(&engine.choice_stream(), rest.len() as u32) - 1) as usize;
            action = rest.swap_remove(pick);
        }
        if stuck {
            break;
        }
        let acting_side = (action.side.clone())
            .or(deciding)
            .unwrap_or_else(|| "-".to_string());
        *actions_by_side
            .entry(acting_side)
            .or_default()
            .entry(action.kind.clone())
            .or_insert(0) += 1;
        actions += 1;
        control.observe(&engine.state());
    }
    if !refusals.is_empty() {
        let total: usize = refusals.values().sum();
        let (first, n) = refusals
            .iter()
            .max_by_key(|(_, n)| **n)
            .map(|(m, n)| (m.clone(), *n))
            .unwrap_or_default();
        eprintln!(
            "warning: {}",
            kessel_core::error::printable(&format!(
                "{profile_name} seed {seed}: the rules refused {total} action{} they had enumerated ({} different refusals; another legal action was drawn each time), most often {n}×: {first}",
                if total == 1 { "" } else { "s" },
                refusals.len()
            ))
        );
    }
    let last = record_turn(engine, turn_now, &control)?;
    let end = ask_result(engine, seed)?;
    let (finished, turn, losses) = {
        let st = engine.state();
        (st.finished, st.turn, losses(&st))
    };
    per_turn.push(last);
    let level = end
        .level
        .or_else(|| finished.then(|| "finished".to_string()));
    let cpu_s = match (cpu0, thread_cpu_seconds()) {
        (Some(a), Some(b)) if b >= a => b - a,
        _ => wall.elapsed().as_secs_f64(),
    };
    let share = |part: std::time::Duration| {
        cpu_s * part.as_secs_f64() / wall.elapsed().as_secs_f64().max(f64::MIN_POSITIVE)
    };
    Ok(GameRecord {
        kind: "game".into(),
        profile: profile_name.to_string(),
        seed,
        finished,
        turn,
        level,
        scores: end.scores,
        per_turn,
        losses,
        actions,
        actions_by_side,
        cpu_s,
        choice_cpu_s: share(choosing),
        rules_cpu_s: share(ruling),
        variation: cfg.ai_variation,
    })
}
