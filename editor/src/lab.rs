//! The balance lab behind the rules panel: N games of the profile in force against another
//! profile (or alone), played headless on background threads with `kessel_lab` — the games,
//! records and statistics of `kessel simulate` — while the window keeps drawing.
//!
//! A run plays what is on disk: the scenario file and the profiles as saved. One driver thread
//! reads the header (loading the scenario once per profile), then starts the workers (one per
//! core but one, so the window keeps a core); each worker builds its own `Engine` (an engine is
//! not `Send`) for every game it takes. Games come back over a channel as they finish; the
//! panel polls it every frame ([`LabRun::poll`]) and the threads ask for a repaint when they send.
//! Cancel stops the games under way before their next action. A failed load or game, or a
//! panic in one, becomes the run's error: no more games start, and the panel shows it.

use kessel_core::engine::Engine;
use kessel_core::scenario::Scenario;
use kessel_core::script::Limits;
use kessel_lab::play::{self, PlayConfig, Seat};
use kessel_lab::record::{Data, GameRecord, Header, Seeds};
use kessel_lab::summary::{self, Summary};
use kessel_lab::{describe, ProfileArg};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The action limit of one game, as `kessel simulate`'s default.
pub const MAX_ACTIONS: usize = 50_000;

/// A profile to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LabProfile {
    /// Every option at its default.
    Defaults,
    /// A profile of the ruleset (a name of `profiles/`, or a path).
    Named(String),
}

impl LabProfile {
    /// The name records and summaries give it.
    pub fn name(&self) -> &str {
        match self {
            LabProfile::Defaults => "defaults",
            LabProfile::Named(n) => n,
        }
    }
}

/// What to play.
#[derive(Clone, Debug)]
pub struct LabRequest {
    /// The scenario file (as saved).
    pub scenario: PathBuf,
    /// The profile in force.
    pub profile: LabProfile,
    /// The profile to compare with, on the same seeds.
    pub against: Option<LabProfile>,
    /// Games per profile.
    pub games: u64,
    /// Seed of the first game (game k plays seed + k).
    pub seed: u64,
    /// Worker threads.
    pub workers: usize,
    /// Who plays each side where it is not the ruleset's AI at its default level (side → the
    /// word of `kessel simulate --ai`: `ai:LEVEL`, `random`); the same in both profiles' games.
    pub players: BTreeMap<String, String>,
    /// Compare with other players instead of another profile (`kessel simulate --against-ai`):
    /// the same profile and seeds played again with these players (`against` is then none).
    pub against_players: Option<BTreeMap<String, String>>,
}

/// One way the seeds are played: a profile and its players, under the name records give it.
#[derive(Clone, Debug)]
pub struct Arm {
    /// The profile.
    pub profile: LabProfile,
    /// The name in records and summaries.
    pub name: String,
    /// Who plays each side (see [`LabRequest::players`]).
    pub players: BTreeMap<String, String>,
}

impl LabRequest {
    /// The profiles played, the one in force first.
    pub fn profiles(&self) -> Vec<LabProfile> {
        let mut out = vec![self.profile.clone()];
        out.extend(self.against.clone());
        out
    }

    /// The ways the seeds are played: the profile in force with the players picked, then the
    /// other profile, or the same profile with the other players, named as `kessel simulate`
    /// names them.
    pub fn arms(&self) -> Vec<Arm> {
        match &self.against_players {
            Some(other) => [&self.players, other]
                .into_iter()
                .map(|players| Arm {
                    profile: self.profile.clone(),
                    name: format!(
                        "{} ({})",
                        self.profile.name(),
                        kessel_lab::players_label(players)
                    ),
                    players: players.clone(),
                })
                .collect(),
            None => self
                .profiles()
                .into_iter()
                .map(|profile| Arm {
                    name: profile.name().to_string(),
                    profile,
                    players: self.players.clone(),
                })
                .collect(),
        }
    }

    /// The `kessel simulate` command that plays the same games, where the command line can say
    /// it (it has no word for the option defaults of a scenario that names a profile).
    pub fn command_line(&self) -> Option<String> {
        let mut s = format!(
            "kessel simulate {} --games {} --seed {}",
            quoted(&self.scenario.display().to_string()),
            self.games,
            self.seed
        );
        match &self.profile {
            LabProfile::Named(p) => s.push_str(&format!(" --profile {}", quoted(p))),
            LabProfile::Defaults => return None,
        }
        match &self.against {
            Some(LabProfile::Named(p)) => s.push_str(&format!(" --against-profile {}", quoted(p))),
            Some(LabProfile::Defaults) => return None,
            None => {}
        }
        for (side, word) in &self.players {
            s.push_str(&format!(" --ai {}", quoted(&format!("{side}={word}"))));
        }
        if let Some(other) = &self.against_players {
            let sides: std::collections::BTreeSet<&String> =
                self.players.keys().chain(other.keys()).collect();
            for side in sides {
                let word = other.get(side).map_or("ai", String::as_str);
                if self.players.get(side).map_or("ai", String::as_str) != word {
                    s.push_str(&format!(
                        " --against-ai {}",
                        quoted(&format!("{side}={word}"))
                    ));
                }
            }
        }
        Some(s)
    }
}

fn quoted(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-:=".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The worker threads a run uses: one per core but one, at least one.
pub fn default_workers() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .saturating_sub(1)
        .max(1)
}

/// What the threads send back.
enum Msg {
    Header(Box<Header>),
    Game(Box<GameRecord>),
    Failed(String),
    Done,
}

/// Where a run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    /// Games are being played.
    Running,
    /// Every game was played (or a game failed: see [`LabRun::error`]).
    Done,
    /// Cancelled: the games finished before it are kept.
    Cancelled,
}

/// One run of the lab: its request, progress, games so far and their statistics.
#[derive(Debug)]
pub struct LabRun {
    /// What is played.
    pub request: LabRequest,
    /// Games to play in all (games × profiles).
    pub total: usize,
    /// Where it stands.
    pub state: RunState,
    /// The first error (a profile that does not load, a game that fails).
    pub error: Option<String>,
    /// The games so far under the header (none before the header arrives).
    data: Option<Data>,
    /// Their statistics, as of `summarized`.
    summary: Option<Summary>,
    /// Games arrived since the statistics were computed.
    stale: bool,
    summarized: Option<Instant>,
    stop: Arc<AtomicBool>,
    rx: Receiver<Msg>,
    started: Instant,
    ended: Option<Duration>,
}

impl LabRun {
    /// Starts a run on background threads; `ctx` is asked to repaint as results come in.
    pub fn start(request: LabRequest, ctx: Option<egui::Context>) -> LabRun {
        let (tx, rx) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let total = request.arms().len() * usize::try_from(request.games).unwrap_or(0);
        let mut run = LabRun {
            request: request.clone(),
            total,
            state: RunState::Running,
            error: None,
            data: None,
            summary: None,
            stale: false,
            summarized: None,
            stop: stop.clone(),
            rx,
            started: Instant::now(),
            ended: None,
        };
        let spawned = kessel_core::script::rules_thread("lab")
            .spawn(move || drive(&request, &stop, &Reply { tx, ctx }));
        if let Err(e) = spawned {
            run.error = Some(format!("cannot start the lab's thread: {e}"));
            run.finish(RunState::Done);
        }
        run
    }

    /// Takes what the threads sent since the last call; true if anything changed.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        loop {
            match self.rx.try_recv() {
                Ok(Msg::Header(h)) => {
                    self.data = Some(Data {
                        header: *h,
                        games: Vec::new(),
                    });
                }
                Ok(Msg::Game(g)) => {
                    // the driver sends the header before any game
                    if let Some(data) = &mut self.data {
                        data.games.push(*g);
                        self.stale = true;
                    }
                }
                Ok(Msg::Failed(e)) => {
                    self.error.get_or_insert(e);
                }
                Ok(Msg::Done) => {
                    let state = if self.state == RunState::Cancelled {
                        RunState::Cancelled
                    } else {
                        RunState::Done
                    };
                    self.finish(state);
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    if self.ended.is_none() {
                        self.error
                            .get_or_insert_with(|| "the lab's thread ended early".to_string());
                        self.finish(RunState::Done);
                    }
                    break;
                }
            }
            changed = true;
        }
        // the statistics go over every game: while games pour in, twice a second is enough
        let due = !self.busy()
            || self
                .summarized
                .is_none_or(|t| t.elapsed() >= Duration::from_millis(500));
        if self.stale && due {
            self.summarize();
            changed = true;
        }
        changed
    }

    /// Stops the run: games under way stop before their next action, no more start. The games
    /// finished so far are kept.
    pub fn cancel(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if self.state == RunState::Running {
            self.state = RunState::Cancelled;
        }
    }

    /// True while the threads are at work (a cancelled run too, until they have stopped).
    pub fn busy(&self) -> bool {
        self.ended.is_none()
    }

    /// Games finished so far.
    pub fn done(&self) -> usize {
        self.data.as_ref().map_or(0, |d| d.games.len())
    }

    /// Time since the start, or the run's length once it ended.
    pub fn elapsed(&self) -> Duration {
        self.ended.unwrap_or_else(|| self.started.elapsed())
    }

    /// About how long the rest takes, from the pace so far.
    pub fn eta(&self) -> Option<Duration> {
        let done = self.done();
        (self.busy() && done > 0).then(|| {
            self.elapsed()
                .mul_f64((self.total.saturating_sub(done)) as f64 / done as f64)
        })
    }

    /// The games so far (sorted by profile, then seed) with their statistics; none before the
    /// first game. While games pour in the statistics may lag the games by half a second.
    pub fn results(&self) -> Option<(&Data, &Summary)> {
        Some((self.data.as_ref()?, self.summary.as_ref()?))
    }

    /// The summary as `kessel simulate` prints it.
    pub fn text(&self) -> Option<String> {
        self.results().map(|(d, s)| summary::text(d, s))
    }

    fn finish(&mut self, state: RunState) {
        self.state = state;
        self.ended.get_or_insert_with(|| self.started.elapsed());
    }

    fn summarize(&mut self) {
        let Some(data) = &mut self.data else {
            return;
        };
        data.sort();
        self.summary = Some(summary::summarize(data));
        self.stale = false;
        self.summarized = Some(Instant::now());
    }
}

impl Drop for LabRun {
    /// A run left behind (a new run, the editor closing) stops its threads.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The threads' way back: the channel, and a repaint so the panel shows what arrived.
struct Reply {
    tx: Sender<Msg>,
    ctx: Option<egui::Context>,
}

impl Reply {
    fn send(&self, m: Msg) {
        // the run was dropped: nobody is listening, and the stop flag is set
        let _ = self.tx.send(m);
        if let Some(ctx) = &self.ctx {
            ctx.request_repaint();
        }
    }
}

/// The driver thread: the header, then the games on the workers, then `Done`.
fn drive(req: &LabRequest, stop: &AtomicBool, reply: &Reply) {
    match header(req) {
        Ok(h) => reply.send(Msg::Header(Box::new(h))),
        Err(e) => {
            reply.send(Msg::Failed(format!("{e:#}")));
            reply.send(Msg::Done);
            return;
        }
    }
    let arms = req.arms();
    // seed by seed, every arm, so paired games come in together
    let jobs: Vec<(usize, u64)> = (0..req.games)
        .flat_map(|k| (0..arms.len()).map(move |p| (p, req.seed.wrapping_add(k))))
        .collect();
    let next = AtomicUsize::new(0);
    let cfgs: Vec<PlayConfig> = arms
        .iter()
        .map(|arm| PlayConfig {
            max_actions: MAX_ACTIONS,
            trace: false,
            seats: Seat::seats(&arm.players),
            ..PlayConfig::default()
        })
        .collect();
    std::thread::scope(|scope| {
        for w in 0..req.workers.clamp(1, jobs.len().max(1)) {
            let work = || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(p, seed)) = jobs.get(i) else { break };
                let arm = &arms[p];
                let game = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    play_one(req, arm, seed, &cfgs[p], stop)
                }));
                match game {
                    Ok(Ok(g)) => reply.send(Msg::Game(Box::new(g))),
                    Ok(Err(_)) if stop.load(Ordering::Relaxed) => break,
                    Ok(Err(e)) => {
                        reply.send(Msg::Failed(format!(
                            "profile {} seed {seed}: {e:#}",
                            arm.name
                        )));
                        stop.store(true, Ordering::Relaxed);
                    }
                    Err(panic) => {
                        let what = panic
                            .downcast_ref::<String>()
                            .map(String::as_str)
                            .or_else(|| panic.downcast_ref::<&str>().copied())
                            .unwrap_or("no message");
                        reply.send(Msg::Failed(format!(
                            "profile {} seed {seed}: the game crashed ({what})",
                            arm.name
                        )));
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            };
            if let Err(e) =
                kessel_core::script::rules_thread(format!("lab-{w}")).spawn_scoped(scope, work)
            {
                reply.send(Msg::Failed(format!("cannot start a lab worker: {e}")));
                stop.store(true, Ordering::Relaxed);
                break;
            }
        }
    });
    reply.send(Msg::Done);
}

/// Loads the scenario under a profile with the game's seed. The option defaults are the
/// scenario loaded with no profile at all (not even its own), so its set-up sees them too.
fn load(req: &LabRequest, profile: &LabProfile, seed: u64) -> anyhow::Result<Engine> {
    let mut scenario = Scenario::load(&req.scenario).map_err(|e| describe(e.into()))?;
    let name = match profile {
        LabProfile::Defaults => {
            scenario.profile = None;
            None
        }
        LabProfile::Named(n) => Some(n.as_str()),
    };
    Engine::with_scenario(scenario, name, seed, Limits::default()).map_err(describe)
}

fn play_one(
    req: &LabRequest,
    arm: &Arm,
    seed: u64,
    cfg: &PlayConfig,
    stop: &AtomicBool,
) -> anyhow::Result<GameRecord> {
    let mut engine = load(req, &arm.profile, seed)
        .map_err(|e| anyhow::anyhow!("profile {} does not load: {e:#}", arm.profile.name()))?;
    play::play_loaded_until(&mut engine, &arm.name, seed, cfg, &|| {
        stop.load(Ordering::Relaxed)
    })
}

/// The data's header, as `kessel simulate` writes it; the defaults' option values are read
/// from an engine loaded with them.
fn header(req: &LabRequest) -> anyhow::Result<Header> {
    let profiles = req.profiles();
    for p in &profiles {
        // a profile that does not load is named before any game is played
        load(req, p, req.seed)
            .map_err(|e| anyhow::anyhow!("profile {} does not load: {e:#}", p.name()))?;
    }
    let arms = req.arms();
    let args: Vec<ProfileArg> = arms
        .iter()
        .map(|a| ProfileArg {
            arg: match &a.profile {
                LabProfile::Defaults => None,
                LabProfile::Named(n) => Some(n.clone()),
            },
            name: a.name.clone(),
            options: Vec::new(),
        })
        .collect();
    let seeds = Seeds {
        first: req.seed,
        games: req.games,
        shard: None,
    };
    let mut h = kessel_lab::header(
        &req.scenario,
        &args,
        MAX_ACTIONS,
        req.players.clone(),
        seeds,
    )?;
    let against = req.against_players.iter().flatten();
    for (side, word) in req.players.iter().chain(against) {
        match Seat::parse(word) {
            Some(Seat::Ai(Some(level))) if !h.ai_levels.contains(&level) => anyhow::bail!(
                "{side} played by the AI at level `{level}`, which the ruleset does not declare (levels: {})",
                h.ai_levels.join(", ")
            ),
            None => anyhow::bail!("{side} played by `{word}`: not a player (ai, ai:LEVEL, random)"),
            _ => {}
        }
    }
    for (info, arm) in h.profiles.iter_mut().zip(&arms) {
        if arm.profile == LabProfile::Defaults {
            info.options = load(req, &arm.profile, req.seed)?.options().values.clone();
        }
        // two ways of playing one profile: each arm says who played (as --against-ai records)
        if req.against_players.is_some() {
            info.players = arm.players.clone();
        }
    }
    Ok(h)
}
