//! A campaign play-tested in the editor: which game of it is on, the game before as it ended
//! (what the next one carries from, and what *New game* starts again from), what carried into
//! this game, and the games played so far for a campaign save. The games themselves are started
//! only through `Engine::campaign_game`, as `kessel campaign` starts them, so the same seed gives
//! the same campaign in both.

use kessel_core::campaign::{Campaign, CarryReport};
use kessel_core::engine::{CampaignSave, Engine, LoadedCampaign};
use kessel_core::error::Located;
use kessel_core::script::Limits;
use std::path::Path;

/// A campaign being played, game after game.
pub struct CampaignRun {
    /// The campaign file as loaded.
    pub campaign: Campaign,
    /// The game on now (0-based).
    pub index: usize,
    /// The campaign's seed (each game's dice are derived from it).
    pub seed: u64,
    /// The current game's name.
    pub name: String,
    /// The game before, as it ended (`None` in the first game).
    pub last: Option<Engine>,
    /// What carried into the current game from the one before.
    pub carried: CarryReport,
    /// The games before the current one, each recorded as it ended.
    pub played: CampaignSave,
}

impl CampaignRun {
    /// The first game of `campaign`, not started yet.
    pub fn new(campaign: Campaign, seed: u64) -> CampaignRun {
        let played = CampaignSave::new(&campaign, seed);
        let name = planned_name(&campaign, 0);
        CampaignRun {
            campaign,
            index: 0,
            seed,
            name,
            last: None,
            carried: CarryReport::default(),
            played,
        }
    }

    /// A campaign save as loaded: its last game is the current one.
    pub fn from_save(loaded: LoadedCampaign) -> (CampaignRun, Engine) {
        let mut played = loaded.save;
        let current = played.games.pop();
        let index = played.games.len();
        let name = current.map_or_else(|| planned_name(&loaded.campaign, index), |g| g.name);
        let run = CampaignRun {
            seed: played.seed,
            campaign: loaded.campaign,
            index,
            name,
            last: loaded.previous,
            carried: loaded.carried,
            played,
        };
        (run, loaded.engine)
    }

    /// Starts the current game afresh from what the game before left.
    pub fn start(&mut self) -> Result<Engine, Vec<Located>> {
        let (engine, name, carried) = Engine::campaign_game(
            &self.campaign,
            self.index,
            self.seed,
            Limits::default(),
            self.last.as_ref(),
        )
        .map_err(|e| e.located())?;
        self.name = name;
        self.carried = carried;
        Ok(engine)
    }

    /// Starts the next game from `ended`, the current game played to its end; on success the
    /// next game is the current one and `ended` is kept as the game before it; on failure
    /// `ended` comes back with the reason.
    pub fn next(&mut self, ended: Engine) -> Result<Engine, Box<(Engine, String)>> {
        let index = self.index + 1;
        let started = Engine::campaign_game(
            &self.campaign,
            index,
            self.seed,
            Limits::default(),
            Some(&ended),
        );
        match started {
            Ok((engine, name, carried)) => {
                self.played.record(&self.name, &ended);
                self.index = index;
                self.name = name;
                self.carried = carried;
                self.last = Some(ended);
                Ok(engine)
            }
            Err(e) => Err(Box::new((ended, e.to_string()))),
        }
    }

    /// The campaign from its first game again, with another seed.
    pub fn restart(&mut self, seed: u64) {
        *self = CampaignRun::new(self.campaign.clone(), seed);
    }

    /// The scenario file of the current game.
    pub fn scenario(&self) -> &Path {
        &self.campaign.games[self.index].scenario
    }

    /// "game 1 of 2: Dawn".
    pub fn game_line(&self) -> String {
        format!(
            "game {} of {}: {}",
            self.index + 1,
            self.campaign.games.len(),
            self.name
        )
    }

    /// The name of the game after this one, if there is one.
    pub fn next_name(&self) -> Option<String> {
        (self.index + 1 < self.campaign.games.len())
            .then(|| planned_name(&self.campaign, self.index + 1))
    }

    /// The campaign save of the games played and `current` as it stands, as JSON to be written
    /// at `path` (the campaign file named relative to it, as `kessel campaign --save` does).
    pub fn save_text(&self, current: &Engine, path: &Path) -> anyhow::Result<String> {
        let mut save = self.played.clone();
        save.record(&self.name, current);
        save.to_json_at(path, &self.campaign)
            .map_err(|e| anyhow::anyhow!("cannot write the campaign save: {e}"))
    }
}

/// The name game `index` will have: its own in the campaign file, else its scenario file's stem
/// (the scenario's name once it is loaded).
fn planned_name(campaign: &Campaign, index: usize) -> String {
    let game = &campaign.games[index];
    game.name.clone().unwrap_or_else(|| {
        game.scenario.file_stem().map_or_else(
            || format!("game {}", index + 1),
            |s| s.to_string_lossy().into(),
        )
    })
}

/// True when `path` reads as a campaign file: `[[game]]` tables and no `[scenario]`.
pub fn is_campaign_file(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|t| {
        let lines = || t.lines().map(str::trim_start);
        lines().any(|l| l.starts_with("[[game]]")) && !lines().any(|l| l.starts_with("[scenario]"))
    })
}

/// True when `path` holds a campaign save rather than one game's save.
pub fn is_campaign_save(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|t| t.contains("\"kessel-campaign-save/"))
}
