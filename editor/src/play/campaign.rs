//! A campaign play-tested in the editor: which game of it is on, the game before as it ended
//! (what the next one carries from, and what *New game* starts again from), what carried into
//! this game, and the games played so far for a campaign save. The games themselves are started
//! only through `Engine::campaign_game_stoppable`, as `kessel campaign` starts them, so the same
//! seed gives the same campaign in both. They start on a thread of their own (see
//! `app/starting.rs`): [`GameAsk`] and [`load_apart`] are what runs there, and what comes back
//! is plain data.

use kessel_core::campaign::{Campaign, CarryReport};
use kessel_core::engine::{CampaignSave, Engine, GameCopy};
use kessel_core::error::Located;
use kessel_core::script::{Limits, Stopper};
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
    pub last: Option<GameCopy>,
    /// What carried into the current game from the one before.
    pub carried: CarryReport,
    /// The games before the current one, each recorded as it ended.
    pub played: CampaignSave,
}

impl CampaignRun {
    /// The first game of `campaign`, not started yet.
    pub fn new(campaign: Campaign, seed: u64) -> CampaignRun {
        let played = CampaignSave::new(&campaign, seed);
        let name = campaign.planned_name(0);
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

    /// A campaign save as loaded (on another thread, see [`load_apart`]): its last game is the
    /// current one.
    pub fn from_save(loaded: LoadedApart) -> CampaignRun {
        let mut played = loaded.save;
        let current = played.games.pop();
        let index = played.games.len();
        let name = current.map_or_else(|| loaded.campaign.planned_name(index), |g| g.name);
        CampaignRun {
            seed: played.seed,
            campaign: loaded.campaign,
            index,
            name,
            last: loaded.previous,
            carried: loaded.carried,
            played,
        }
    }

    /// What starting game `index` of this campaign needs, as plain data another thread can take:
    /// the game before it (the current one played to its end for the next game).
    pub fn game_ask(&self, index: usize, before: Option<GameCopy>) -> GameAsk {
        GameAsk {
            campaign: self.campaign.clone(),
            index,
            seed: self.seed,
            before,
        }
    }

    /// The current game started afresh: its name and what carried into it.
    pub fn started(&mut self, name: String, carried: CarryReport) {
        self.name = name;
        self.carried = carried;
    }

    /// The next game started (from `ended`, the current game played to its end): it is the
    /// current game now, `ended` the game before it.
    pub fn moved_on(&mut self, ended: &Engine, name: String, carried: CarryReport) {
        self.played.record(&self.name, ended);
        self.index += 1;
        self.name = name;
        self.carried = carried;
        self.last = Some(ended.copy_game());
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
            .then(|| self.campaign.planned_name(self.index + 1))
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

/// True when `path` reads as a campaign file: `[[game]]` tables and no `[scenario]`.
pub fn is_campaign_file(path: &Path) -> bool {
    kessel_core::error::read_text(path, "campaign").is_ok_and(|t| {
        let lines = || t.lines().map(str::trim_start);
        lines().any(|l| l.starts_with("[[game]]")) && !lines().any(|l| l.starts_with("[scenario]"))
    })
}

/// True when `path` holds a campaign save rather than one game's save.
pub fn is_campaign_save(path: &Path) -> bool {
    kessel_core::error::read_text(path, "save").is_ok_and(|t| t.contains("\"kessel-campaign-save/"))
}

/// Starting a game of a campaign on another thread: all it needs, as plain data.
#[derive(Clone, Debug)]
pub struct GameAsk {
    campaign: Campaign,
    /// The game to start (0-based).
    pub index: usize,
    seed: u64,
    before: Option<GameCopy>,
}

/// A campaign game started on another thread: the game, its name and what carried into it.
pub type GameStarted = (GameCopy, String, CarryReport);

impl GameAsk {
    /// Starts the game (on the thread that calls it), its rule calls stopped by `stopper`, then
    /// `profile` (`Some(None)`: the scenario's defaults) applied.
    pub fn start(
        &self,
        profile: Option<Option<&str>>,
        stopper: Stopper,
    ) -> Result<GameStarted, Vec<Located>> {
        let (mut engine, name, carried) = Engine::campaign_game_stoppable(
            &self.campaign,
            self.index,
            self.seed,
            Limits::default(),
            self.before.as_ref(),
            stopper,
        )
        .map_err(|e| e.located())?;
        if let Some(p) = profile {
            engine
                .apply_profile(p)
                .map_err(|e| vec![Located::plain(e.to_string())])?;
        }
        Ok((engine.copy_game(), name, carried))
    }
}

/// A campaign save loaded on another thread, as plain data.
#[derive(Clone, Debug)]
pub struct LoadedApart {
    campaign: Campaign,
    save: CampaignSave,
    /// Its last game, replayed to where it was saved.
    pub game: GameCopy,
    previous: Option<GameCopy>,
    carried: CarryReport,
}

/// Loads a campaign save (on the thread that calls it), its rule calls stopped by `stopper`.
pub fn load_apart(path: &Path, stopper: Stopper) -> Result<LoadedApart, Vec<Located>> {
    let loaded = Engine::load_campaign_save_stoppable(path, Limits::default(), stopper)
        .map_err(|e| e.located())?;
    Ok(LoadedApart {
        game: loaded.engine.copy_game(),
        previous: loaded.previous.as_ref().map(Engine::copy_game),
        campaign: loaded.campaign,
        save: loaded.save,
        carried: loaded.carried,
    })
}
