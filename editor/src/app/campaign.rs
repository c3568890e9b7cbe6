//! Campaigns in the editor: opening a campaign file (its current game's scenario is the
//! document), starting each game through `Engine::campaign_game`, *Next game* once a game has
//! ended, and campaign saves (every game's log and final hash) written and loaded from the
//! play-test panel's Save and Load.

use super::{style_of, EditorApp};
use crate::document::{write_atomic, Document};
use crate::play::campaign::{is_campaign_file, CampaignRun};
use crate::play::PlaySession;
use kessel_core::campaign::Campaign;
use kessel_core::engine::Engine;
use kessel_core::error::Located;
use kessel_core::script::Limits;
use std::path::Path;
use std::sync::Arc;

impl EditorApp {
    /// An editor on a scenario, map or campaign file (a campaign opens on its first game),
    /// watching its files when `watch` is set.
    pub fn open_file(path: &Path, watch: bool) -> anyhow::Result<EditorApp> {
        let campaign = if is_campaign_file(path) {
            Some(Campaign::load(path).map_err(|e| anyhow::anyhow!("{e}"))?)
        } else {
            None
        };
        let scenario = campaign.as_ref().map_or(path, |c| &c.games[0].scenario);
        let doc = Document::open(scenario)?;
        let mut app = if watch {
            EditorApp::new(doc)
        } else {
            EditorApp::without_watcher(doc)
        };
        app.campaign = campaign.map(|c| CampaignRun::new(c, app.seed));
        Ok(app)
    }

    /// The title of the window: the campaign's name, or the document's.
    pub fn title(&self) -> String {
        match &self.campaign {
            Some(run) => format!("{} — {}", run.campaign.name, run.game_line()),
            None => self.doc.name.clone(),
        }
    }

    /// A new play-test game: the current game of the campaign, or the document's scenario.
    pub(super) fn new_session(
        &mut self,
        profile: Option<&str>,
    ) -> Result<PlaySession, Vec<Located>> {
        let Some(run) = &mut self.campaign else {
            return PlaySession::start(&self.doc, profile, self.seed);
        };
        if run.seed != self.seed {
            // another seed starts the campaign again from its first game
            run.restart(self.seed);
            self.open_campaign_scenario();
        }
        let Some(run) = &mut self.campaign else {
            return Err(vec![Located::plain("the campaign was closed")]);
        };
        let mut engine = run.start()?;
        if let Some(p) = profile {
            engine
                .apply_profile(Some(p))
                .map_err(|e| vec![Located::plain(e.to_string())])?;
        }
        let save_path = crate::play::default_save_path(&run.campaign.path);
        Ok(PlaySession::with_engine(engine, run.seed, save_path))
    }

    /// Starts the campaign's next game from the one that has just ended, carrying what the
    /// campaign carries; the next game's scenario becomes the document.
    pub fn next_game(&mut self) {
        let (Some(run), Some(mut s)) = (&mut self.campaign, self.session.take()) else {
            return;
        };
        let refused = if !s.engine.state().finished {
            Some("the game has not ended: the next game starts once it has".to_string())
        } else if run.next_name().is_none() {
            Some("this was the campaign's last game".to_string())
        } else {
            None
        };
        if let Some(why) = refused {
            self.session = Some(s);
            self.status.error(why);
            return;
        }
        match run.next(s.engine) {
            Ok(engine) => {
                let mut fresh = PlaySession::with_engine(engine, run.seed, s.save_path.clone());
                fresh.seats.players = s.seats.players.clone();
                fresh.seats.pace = s.seats.pace;
                let units = run.carried.units.len();
                fresh.message = Some((
                    format!("{} begins: {units} units carried over", run.game_line()),
                    false,
                ));
                self.session = Some(fresh);
                self.open_campaign_scenario();
            }
            Err(failed) => {
                let (ended, why) = *failed;
                s.engine = ended;
                s.refresh();
                self.session = Some(s);
                self.status
                    .error(format!("cannot start the next game: {why}"));
            }
        }
    }

    /// Makes the current game's scenario the document (the editing modes show it).
    fn open_campaign_scenario(&mut self) {
        let Some(run) = &self.campaign else {
            return;
        };
        match Document::open(run.scenario()) {
            Ok(doc) => {
                self.doc = doc;
                self.validator.opened(&self.doc);
                self.style = Arc::new(style_of(&self.doc, None));
                self.selected = None;
                self.map_view.fit_on_next_frame();
                if self.watcher.is_some() {
                    self.watcher = crate::reload::Watcher::start(self.watched()).ok();
                }
            }
            Err(e) => self
                .status
                .error(format!("cannot open {}: {e:#}", run.scenario().display())),
        }
    }

    /// Writes the campaign save (the games played and the current one as it stands).
    pub(super) fn save_campaign(&mut self, path: &Path) -> anyhow::Result<()> {
        let (Some(run), Some(s)) = (&self.campaign, &mut self.session) else {
            anyhow::bail!("no campaign is being played");
        };
        write_atomic(path, run.save_text(&s.engine, path)?.as_bytes())?;
        if let Some(w) = &mut self.watcher {
            w.note_written(path);
        }
        s.message = Some((
            format!("campaign saved to {} ({})", path.display(), run.game_line()),
            false,
        ));
        Ok(())
    }

    /// Loads a campaign save: its games are replayed and checked, its last game goes on.
    pub fn load_campaign(&mut self, path: &Path) -> anyhow::Result<()> {
        let loaded = Engine::load_campaign_save_in_full(path, Limits::default())
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let (run, engine) = CampaignRun::from_save(loaded);
        let save_path = path.display().to_string();
        let mut fresh = PlaySession::with_engine(engine, run.seed, save_path);
        if let Some(old) = &self.session {
            fresh.seats.players = old.seats.players.clone();
            fresh.seats.pace = old.seats.pace;
        }
        fresh.message = Some((
            format!(
                "campaign loaded from {} ({})",
                path.display(),
                run.game_line()
            ),
            false,
        ));
        self.seed = run.seed;
        self.campaign = Some(run);
        self.session = Some(fresh);
        self.session_error = None;
        self.open_campaign_scenario();
        Ok(())
    }
}
