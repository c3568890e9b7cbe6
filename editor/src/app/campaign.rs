//! Campaigns in the editor: opening a campaign file (its current game's scenario is the
//! document), *Next game* once a game has ended, and campaign saves (every game's log and final
//! hash) written from the play-test panel's Save. Its games start, and its saves load, on a
//! thread of their own (`starting.rs`).

use super::EditorApp;
use crate::document::{write_atomic, Document};
use crate::play::campaign::{is_campaign_file, CampaignRun};
use kessel_core::campaign::Campaign;
use std::path::Path;

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

    /// Starts the campaign's next game from the one that has just ended, carrying what the
    /// campaign carries, on a thread of its own (see `starting.rs`); once it started, the next
    /// game's scenario becomes the document.
    pub fn next_game(&mut self) {
        let (Some(run), Some(s)) = (&self.campaign, self.session.take()) else {
            return;
        };
        let refused = if !s.engine.state().finished {
            Some("the game has not ended: the next game starts once it has".to_string())
        } else if let Some(end) = &s.engine.state().campaign_ended {
            Some(format!("the campaign has ended with this game: {end}"))
        } else if run.next_name().is_none() {
            Some("this was the campaign's last game".to_string())
        } else if self.starting() {
            Some("a game is being started: wait, or stop it".to_string())
        } else {
            None
        };
        if let Some(why) = refused {
            self.session = Some(s);
            self.status.error(why);
            return;
        }
        self.start_next_game(s);
    }

    /// Makes the current game's scenario the document (the editing modes show it).
    pub(super) fn open_campaign_scenario(&mut self) {
        let Some(run) = &self.campaign else {
            return;
        };
        match Document::open(run.scenario()) {
            Ok(doc) => {
                self.doc = doc;
                self.validator.opened(&self.doc);
                self.read_declarations(crate::play::ANSWER_WAIT);
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
}
