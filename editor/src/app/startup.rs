//! Scripted start-up: open in a mode, take actions, select, declare an attack, point at a hex,
//! load or save a game, apply a profile — what the example binary's flags ask for, so each mode
//! can be shown without a person at the mouse.

use super::{EditorApp, ProfileChoice};
use crate::panels::{Mode, Tool};
use crate::play::campaign::is_campaign_save;
use crate::play::{PlayCommand, PlaySession};
use kessel_core::hex::Hex;
use std::path::PathBuf;

/// A scripted start: a mode, actions to take, a stack to select, an attack to declare, a hex to
/// point at, a view to show. For screenshots of each mode without a person at the mouse.
#[derive(Clone, Debug, Default)]
pub struct Startup {
    /// Mode to open in.
    pub mode: Option<Mode>,
    /// Actions (JSON objects with a `kind`) to take first, in order.
    pub actions: Vec<String>,
    /// Hex label, or unit id, whose stack to select (every mode: the inspector or the
    /// play-test panel shows it).
    pub select: Option<String>,
    /// Hex labels of attacking stacks (play-test).
    pub attackers: Vec<String>,
    /// Hex label of the attack's target (play-test).
    pub target: Option<String>,
    /// Hex label to explain as if the pointer were on it.
    pub hover: Option<String>,
    /// Zoom (points per hex radius) centred on the selected or hovered hex.
    pub zoom: Option<f32>,
    /// Profiles to compare in the rules panel.
    pub compare: Option<(String, String)>,
    /// Seconds to wait before the screenshot (to catch a reload made meanwhile).
    pub delay: Option<f32>,
    /// A saved game to load first.
    pub load: Option<PathBuf>,
    /// Write the game here once the start is set up; with `computer`, once the computer has made
    /// its moves (when `select` would be made).
    pub save: Option<PathBuf>,
    /// Print the legal actions (JSON, one a line) once the start is set up.
    pub print_legal: bool,
    /// Profile to apply (as the rules panel would).
    pub profile: Option<String>,
    /// Options to set, `id` and value (JSON, or a plain word for a choice).
    pub options: Vec<(String, String)>,
    /// Sides the computer plays in play-test (at the fast pace): `SIDE` or `SIDE:LEVEL`.
    pub computer: Vec<String>,
    /// Map editing: the *New scenario from a region* tool with this rectangle (two opposite
    /// corner hexes) dragged.
    pub region: Option<(String, String)>,
    /// Map editing: the tool to pick (`paint`, `fill`, `hexside`, `link`, `region`).
    pub tool: Option<String>,
    /// Let the ruleset's AI play (at most 3000 actions) until this step (by id) offers an
    /// attack, to reach a combat without playing one by hand.
    pub ai_until: Option<String>,
    /// Rules mode: start a balance-lab run of this many games per profile, against this
    /// profile (a name, `defaults`, or `none` for no comparison; by default the panel's pick).
    /// A screenshot waits for the run to end unless a delay is given.
    pub lab: Option<(u64, Option<String>)>,
}

impl EditorApp {
    /// Applies a scripted start (see [`Startup`]).
    pub fn startup(&mut self, st: Startup) -> anyhow::Result<()> {
        let parse = |label: &str| {
            self.doc
                .map
                .parse(label)
                .ok_or_else(|| anyhow::anyhow!("`{label}` is not a hex of this map"))
        };
        let (select, select_unit) = match st.select.as_deref() {
            Some(text) => self.hex_of_label_or_unit(text)?,
            None => (None, None),
        };
        let hover = st.hover.as_deref().map(parse).transpose()?;
        let target = st.target.as_deref().map(parse).transpose()?;
        let attackers = st
            .attackers
            .iter()
            .map(|l| parse(l))
            .collect::<anyhow::Result<Vec<Hex>>>()?;
        let region = match &st.region {
            Some((a, b)) => Some((parse(a)?, parse(b)?)),
            None => None,
        };
        let rules_flags = st.profile.is_some() || !st.options.is_empty();
        if rules_flags && st.load.is_none() {
            // in force from the set-up on, as a save replays the game (a set-up hook may read
            // an option), and a scenario only the profile or option makes legal (three units a
            // hex under a raised limit) starts
            if let Some(p) = &st.profile {
                self.profile = ProfileChoice::Named(p.clone());
            }
            self.start_options = option_values(&st.options);
        }
        if let Some(mode) = st.mode.or(st.lab.as_ref().map(|_| Mode::Rules)) {
            self.set_mode(mode);
            // the game starts on a thread first; the rest of the start follows it
            if !self.wait_start(std::time::Duration::from_secs(120)) {
                anyhow::bail!("the game did not start within two minutes");
            }
        }
        if let Some(word) = &st.tool {
            self.palette.tool = tool_of(word)?;
        }
        if let Some((a, b)) = region {
            self.region.corners = Some((a, b));
            // centred on the region, at the zoom a map too big to fit opens at
            let ((ca, ra), (cb, rb)) = (self.doc.map.offset(a), self.doc.map.offset(b));
            let middle = self.doc.map.hex_at((ca + cb) / 2, (ra + rb) / 2);
            let zoom = st.zoom.unwrap_or(crate::map_view::READABLE_ZOOM);
            self.map_view.focus_on_next_frame(middle, zoom);
            self.palette.tool = Tool::Region;
            self.set_mode(Mode::Edit);
        }
        if let Some((a, b)) = st.compare {
            self.rules_panel.comparing = true;
            self.rules_panel.compare_a = a;
            self.rules_panel.compare_b = b;
        }
        if let Some(delay) = st.delay {
            if let Some(job) = &mut self.screenshot {
                job.delay =
                    Some(std::time::Instant::now() + std::time::Duration::from_secs_f32(delay));
            }
        }
        let focus = select.or(hover).or(target);
        if let (Some(z), Some(h)) = (st.zoom, focus) {
            self.map_view.focus_on_next_frame(h, z);
        }
        if let Some(h) = select {
            // map and scenario editing show the selected hex in the inspector, in view
            self.selected = Some(h);
            if st.zoom.is_none() {
                self.map_view.reveal_on_next_frame(h);
            }
        }
        if let Some(id) = &select_unit {
            // and a unit in its form (the scenario editor's Units tab), placed or not
            self.scenario_panel.picked = Some(id.clone());
            self.scenario_panel.tab = crate::panels::scenario::ScenarioTab::Units;
            self.scenario_panel.reveal_picked = true;
            if select.is_none() && self.palette.mode == Mode::Edit {
                anyhow::bail!("unit `{id}` is not on the map at set-up");
            }
        }
        if let Some(p) = st.load.as_deref().filter(|p| is_campaign_save(p)) {
            // loaded on a thread of its own: the rest of the start follows it
            self.load_campaign(p);
            if !self.wait_start(std::time::Duration::from_secs(120)) {
                anyhow::bail!("the campaign save did not load within two minutes");
            }
            if let Some(why) = self.failed_start() {
                anyhow::bail!("cannot load {}: {why}", p.display());
            }
        }
        if rules_flags && self.session.is_none() && st.load.is_none() {
            // --profile and --option set up the play-test game: start it whatever the mode, so
            // they are in force when the person turns to play-test or the rules, and a name
            // that is not the ruleset's is refused now rather than lost
            anyhow::ensure!(
                self.doc.scenario.is_some(),
                "--profile and --option apply to a scenario's game; {} is a map",
                self.doc.map_path.display()
            );
            if let Some(why) = self.play_blocked() {
                anyhow::bail!("--profile and --option need a game to apply to: {why}");
            }
            self.start_attempted = true;
            self.start_session();
            if !self.wait_start(std::time::Duration::from_secs(120)) {
                anyhow::bail!("the game did not start within two minutes");
            }
        }
        if rules_flags && st.load.is_none() {
            // (started by the mode above, or here)
            if let Some(why) = self.failed_start() {
                anyhow::bail!("the game could not start: {why}");
            }
        }
        let Some(s) = &mut self.session else {
            let asked = !st.actions.is_empty() || !st.computer.is_empty() || st.save.is_some();
            if let (true, Some(why)) = (asked, &self.session_error) {
                // the window shows why; a scripted start says it where it was typed
                eprintln!("the play-test game did not start, so the play-test flags were not applied: {why}");
            }
            return Ok(());
        };
        if let Some(p) = st.load.as_deref().filter(|p| !is_campaign_save(p)) {
            // loaded on the rules' thread: the rest of the start follows it
            s.load(p);
            if !s.settle(std::time::Duration::from_secs(120)) {
                anyhow::bail!("the saved game did not load within two minutes");
            }
            if let Some((why, true)) = &s.message {
                anyhow::bail!("{why}");
            }
        }
        if st.load.is_some() && rules_flags {
            // on top of the loaded game, as the rules panel would (a name the ruleset lacks, or
            // options the rules refuse, fail the command)
            let mut cmds = Vec::new();
            if let Some(p) = &st.profile {
                s.engine
                    .apply_profile(Some(p))
                    .map_err(|e| anyhow::anyhow!("--profile {p}: {e}"))?;
                cmds.push(PlayCommand::ApplyProfile(Some(p.clone())));
            }
            // judged as a whole, as every command judges its --option flags: a list may pass
            // through a conflict on its way to a setting a table variant is declared for
            let options = option_values(&st.options);
            if !options.is_empty() {
                s.engine
                    .set_options(&options)
                    .map_err(|e| anyhow::anyhow!("--option: {e}"))?;
                cmds.push(PlayCommand::SetOptions(options));
            }
            self.apply_play(cmds);
        }
        if let Some((games, against)) = &st.lab {
            self.start_lab(*games, against.as_deref())?;
        }
        let Some(s) = &mut self.session else {
            return Ok(());
        };
        if let Some(step) = &st.ai_until {
            ai_until(s, step)?;
        }
        for text in &st.actions {
            let v: serde_json::Value =
                serde_json::from_str(text).map_err(|e| anyhow::anyhow!("action {text}: {e}"))?;
            let mut obj = match v {
                serde_json::Value::Object(o) => o,
                _ => anyhow::bail!("action {text}: not a JSON object"),
            };
            let kind = match obj.remove("kind") {
                Some(serde_json::Value::String(k)) => k,
                _ => anyhow::bail!("action {text}: no \"kind\""),
            };
            let side = match obj.remove("side") {
                Some(serde_json::Value::String(s)) => Some(s),
                _ => None,
            };
            let action = kessel_core::action::Action {
                kind,
                side,
                params: obj.into_iter().collect(),
            };
            (s.refusal, s.error) = (None, None);
            s.act(&action);
            // each plays on the rules' thread: the rest of the start follows its outcome
            if !s.settle(std::time::Duration::from_secs(120)) {
                anyhow::bail!(
                    "the rules did not finish the scripted action {text} within two minutes"
                );
            }
            // said on the terminal too: a scripted start (a screenshot, a saved start) that went
            // on past a refusal showed it only in the panel and ended well
            if let Some(r) = &s.refusal {
                let reasons: Vec<String> = r.reasons.iter().map(ToString::to_string).collect();
                self.startup_warnings.push(format!(
                    "--act {text}: the rules refused it: {}",
                    reasons.join("; ")
                ));
            } else if let Some(e) = &s.error {
                self.startup_warnings
                    .push(format!("--act {text}: the rules failed on it: {e}"));
            }
        }
        for seat in &st.computer {
            let (side, level) = match seat.split_once(':') {
                Some((side, level)) => (side, Some(level)),
                None => (seat.as_str(), None),
            };
            if !s.engine.ruleset().sides.iter().any(|x| x == side) {
                let known = &s.engine.ruleset().sides;
                let hint = kessel_core::names::did_you_mean(side, known);
                let sides = known.join(", ");
                anyhow::bail!(
                    "--computer {seat}: `{side}` is not a side of the ruleset (it has: {sides}){hint}"
                );
            }
            if let Some(level) = level {
                s.engine
                    .ruleset()
                    .ai_level(Some(level))
                    .map_err(|e| anyhow::anyhow!("--computer {seat}: {e}"))?;
            }
            s.seats.set(side, crate::play::computer::Player::Computer);
            s.seats.set_level(side, level);
            s.seats.pace = crate::play::computer::Pace::Fast;
        }
        match &st.save {
            // the game as the computer's moves leave it, as a --select is made: a save written
            // here held the scripted start only, and the computer's turn that followed was lost
            Some(p) if !st.computer.is_empty() => self.pending_save = Some(p.clone()),
            Some(p) if self.campaign.is_some() => self.save_campaign(p)?,
            Some(p) => s.save(p)?,
            None => {}
        }
        let Some(s) = &mut self.session else {
            return Ok(());
        };
        if st.print_legal {
            for a in s
                .engine
                .legal_actions(None)
                .map_err(|e| anyhow::anyhow!("{e}"))?
            {
                println!("{}", serde_json::to_string(&a)?);
            }
        }
        if let Some(text) = &st.select {
            // with secrets, what the side at the screen is shown (the units a selection is
            // looked for among) comes from the rules' thread a frame later: no unit was found
            if st.computer.is_empty() && s.engine.state().secrets.is_empty() {
                let h = selected_in_play(s, &self.doc.map, text).map_err(anyhow::Error::msg)?;
                s.select(h);
                if st.zoom.is_none() {
                    self.map_view.reveal_on_next_frame(h);
                }
            } else {
                // where the units stand once the computer has made its moves
                self.pending_select = Some(text.clone());
            }
        }
        for h in attackers {
            s.interaction = crate::play::Interaction::Attack;
            s.toggle_attackers(h);
        }
        if let Some(h) = target {
            s.toggle_target(h);
        }
        if let Some(h) = hover {
            s.hovered = Some(h);
            s.hover(h);
            self.pinned_hover = Some(h);
        }
        Ok(())
    }
}

impl EditorApp {
    /// Opens the balance lab in the rules panel and starts a run of `games` games per profile
    /// of the profile in force against `against` (see [`Startup::lab`]).
    pub fn start_lab(&mut self, games: u64, against: Option<&str>) -> anyhow::Result<()> {
        use crate::panels::lab::{LabCx, ALONE, DEFAULTS};
        let s = self.session.as_ref().ok_or_else(|| {
            anyhow::anyhow!(
                "the lab needs the game to start: {}",
                self.session_error.as_deref().unwrap_or("no scenario")
            )
        })?;
        let profile = match s.engine.profile_arg() {
            Some(p) if p != kessel_core::options::DEFAULTS => {
                crate::lab::LabProfile::Named(p.to_string())
            }
            _ => crate::lab::LabProfile::Defaults,
        };
        let panel = &mut self.rules_panel;
        panel.lab_open = true;
        panel.comparing = false;
        panel.lab.games = games;
        if let Some(a) = against {
            panel.lab.against = match a {
                "none" => ALONE.to_string(),
                "defaults" => DEFAULTS.to_string(),
                p if panel.profiles.iter().any(|x| x == p) => p.to_string(),
                p => anyhow::bail!(
                    "`{p}` is not a profile of the ruleset (it has: {}; or defaults, none)",
                    panel.profiles.join(", ")
                ),
            };
        }
        let cx = LabCx {
            scenario: self.doc.scenario_path.as_deref(),
            profile,
            profiles: &panel.profiles,
            unsaved: Vec::new(),
            sides: &[],
            ai_levels: &[],
        };
        panel.lab.start(&cx, None).map_err(anyhow::Error::msg)
    }

    /// The hex a hex label names, or the unit with that id and where it stands at set-up
    /// (none for a unit that enters later).
    fn hex_of_label_or_unit(&self, text: &str) -> anyhow::Result<(Option<Hex>, Option<String>)> {
        if let Some(h) = self.doc.map.parse(text) {
            return Ok((Some(h), None));
        }
        match self.doc.units.get(text) {
            Some(u) => Ok((u.hex(), Some(u.id.clone()))),
            None => anyhow::bail!("`{text}` is neither a hex of this map nor a unit id"),
        }
    }

    /// Applies a `--select` and writes a `--save` given with `--computer` once the computer has
    /// made its moves: when it is a person's decision (or the computer is paused or stopped, or
    /// the game over), so the selection is where the units stand then and the save holds the
    /// game as it is then. With the computer on every side no person's decision comes before the
    /// game's end: the computer is paused and both are done once its move under way is played.
    /// Called every frame; the screenshot waits for them.
    pub(super) fn apply_after_computer(&mut self) {
        if self.pending_select.is_none() && self.pending_save.is_none() {
            return;
        }
        let Some(s) = &mut self.session else {
            return;
        };
        use crate::play::computer::{Pace, Player};
        // the rules and the computer at rest: what the game is now will stay
        let idle = s.rules_said_whose_turn() && !s.rules_busy() && !s.computer_thinking();
        // no person plays (the computer on every side): no person's decision comes before the
        // game's end, and the computer's next step would clear the selection before anyone saw
        // it; it is paused, and the selection made once its move under way is played
        let nobody =
            (s.sides_in_play().iter()).all(|side| s.seats.player(side) == Player::Computer);
        // a person's decision, as the rules said for the game as it is; a step of no side is
        // the person's when one plays (the computer waits for them there: waiting for the
        // computer, the selection and the screenshot waited for ever)
        let person = idle
            && match s.deciding_side() {
                Some(side) => s.seats.player(&side) != Player::Computer,
                None => !nobody,
            };
        if nobody && s.seats.pace != Pace::Paused && !s.engine.state().finished {
            s.seats.pace = Pace::Paused;
            let flag = if self.pending_select.is_some() {
                "--select"
            } else {
                "--save"
            };
            self.status.info(format!(
                "The computer plays every side: paused for {flag} (Step, Slow or Fast plays on)"
            ));
        }
        // or the computer will not play on: outside play-test, paused, stopped, the game over
        let halted = (nobody && idle)
            || (!nobody && s.seats.pace == Pace::Paused)
            || self.palette.mode != Mode::Play
            || s.seats.stopped.is_some()
            || s.engine.state().finished;
        if !(person || halted) {
            return;
        }
        if let Some(path) = self.pending_save.take() {
            let saved = if self.campaign.is_some() {
                self.save_campaign(&path)
            } else {
                s.save(&path)
            };
            if let Err(e) = saved {
                // said where a scripted start is looked at: the terminal and the status bar
                let why = format!("--save {}: {e:#}", path.display());
                eprintln!("{why}");
                self.status.error(why);
            }
        }
        let (Some(text), Some(s)) = (&self.pending_select, &mut self.session) else {
            return;
        };
        match selected_in_play(s, &self.doc.map, text) {
            Ok(h) => {
                s.select(h);
                self.map_view.reveal_on_next_frame(h);
            }
            Err(why) => {
                // said where a scripted start is looked at: the terminal and the status bar
                let why = format!("--select {text}: {why}");
                eprintln!("{why}");
                self.status.error(why);
            }
        }
        self.pending_select = None;
    }
}

/// The hex a `--select` names in the game as it is now: a hex label, or where the unit with that
/// id stands (as the side at the screen is shown it).
fn selected_in_play(
    s: &PlaySession,
    map: &kessel_core::map::Map,
    text: &str,
) -> Result<Hex, String> {
    if let Some(h) = map.parse(text) {
        return Ok(h);
    }
    match s.units.get(text) {
        Some(u) => u
            .hex()
            .ok_or_else(|| format!("unit `{text}` is not on the map now")),
        None => Err(format!(
            "`{text}` is neither a hex of this map nor a unit in play"
        )),
    }
}

/// The map-editing tool a command-line word names.
fn tool_of(word: &str) -> anyhow::Result<Tool> {
    Ok(match word {
        "view" => Tool::View,
        "paint" => Tool::PaintTerrain,
        "fill" => Tool::Fill,
        "hexside" => Tool::Hexside,
        "link" => Tool::Link,
        "region" => Tool::Region,
        _ => anyhow::bail!("`{word}` is not one of view, paint, fill, hexside, link, region"),
    })
}

/// Plays the ruleset's AI until the step `step_id` offers an attack, on a thread of its own
/// (an engine there made from a copy of the game), stopped if it takes two minutes; the session
/// then takes the game it led to, so no rule call of it runs on the UI thread.
fn ai_until(s: &mut PlaySession, step_id: &str) -> anyhow::Result<()> {
    use kessel_core::engine::Engine;
    use kessel_core::script::Stopper;
    let copy = s.engine.copy_game();
    let step = step_id.to_string();
    let stopper = Stopper::default();
    let theirs = stopper.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    kessel_core::script::rules_thread("play-test ai-until").spawn(move || {
        let played = Engine::from_copy(&copy, theirs)
            .map_err(|e| anyhow::anyhow!("{e}"))
            .and_then(|mut e| play_ai_until(&mut e, &step).map(|()| e.copy_game()));
        let _ = tx.send(played);
    })?;
    let copy = match rx.recv_timeout(std::time::Duration::from_secs(120)) {
        Ok(played) => played?,
        Err(_) => {
            stopper.stop();
            anyhow::bail!("the computer did not reach step `{step_id}` within two minutes");
        }
    };
    s.engine.take_game(&copy);
    s.game_replaced();
    s.refresh();
    Ok(())
}

/// The play of [`ai_until`], on the engine of its thread.
fn play_ai_until(e: &mut kessel_core::engine::Engine, step_id: &str) -> anyhow::Result<()> {
    // the computer's own dice for choices the AI leaves open, seeded like the game
    let mut choices = kessel_core::dice::Dice::new(e.state().seed ^ 0x5eed_5eed);
    for _ in 0..3000 {
        let here = {
            let w = e.world();
            w.current_step().is_some_and(|st| st.id == step_id)
        };
        if here {
            let attacks = e
                .legal_actions_where(None, |k| k == "attack")
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            if !attacks.is_empty() {
                return Ok(());
            }
        }
        let action = e
            .computer_choice(&mut choices)
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .ok_or_else(|| anyhow::anyhow!("the rules list no action"))?;
        let outcome = e.act(&action).map_err(|e| anyhow::anyhow!("{e}"))?;
        if let Err(r) = outcome {
            anyhow::bail!("the computer's choice was refused: {r}");
        }
    }
    anyhow::bail!("no attack offered in step `{step_id}` within 3000 actions")
}

/// `--option` values: JSON (`true`, `3`), or a plain word for a choice.
fn option_values(options: &[(String, String)]) -> Vec<(String, serde_json::Value)> {
    (options.iter())
        .map(|(id, text)| {
            let v = serde_json::from_str(text)
                .unwrap_or_else(|_| serde_json::Value::String(text.clone()));
            (id.clone(), v)
        })
        .collect()
}
