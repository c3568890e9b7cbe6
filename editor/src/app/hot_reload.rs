//! Hot reload: the watcher's changes applied at the start of a frame — the scenario first (a new
//! set-up), then the rules (the game goes on; on error the last good rules stay and the error
//! panel says where), then profiles.

use super::messages::paths_text;
use super::{style_of, EditorApp, Problem};
use crate::document::Document;
use crate::play::PlaySession;
use crate::reload::{clock_now, Changes};
use kessel_core::error::Located;
use std::path::PathBuf;
use std::sync::Arc;

/// Files changed on disk while the document had unsaved edits, so not reloaded (a text editor's
/// edit made meanwhile): *Save* wrote the editor's version over them without a word, and undoing
/// the edits, which the status line advised, never took them in.
#[derive(Clone, Debug, Default)]
pub struct DiskAhead {
    /// The files, as the watcher named them.
    pub paths: Vec<PathBuf>,
    /// The user was told a save overwrites them and may save again to do it.
    pub overwrite: bool,
}

impl EditorApp {
    /// Whether a save may go ahead: not while files changed on disk would be overwritten
    /// unasked; the first save says so, the next one writes.
    pub(super) fn save_may_overwrite(&mut self) -> bool {
        if self.disk_ahead.paths.is_empty() || self.disk_ahead.overwrite {
            return true;
        }
        self.disk_ahead.overwrite = true;
        self.status.error(format!(
            "{} changed on disk since the editor read it: saving writes the editor's version over that change. Save again to do so, or undo your edits here to take in the file from disk",
            paths_text(&self.disk_ahead.paths)
        ));
        false
    }

    /// After an edit, undo or redo: once no edit is left unsaved, the files that changed on
    /// disk meanwhile are read.
    pub(super) fn catch_up_with_disk(&mut self) {
        if !self.disk_ahead.paths.is_empty() && !self.doc.is_dirty() {
            let paths = std::mem::take(&mut self.disk_ahead.paths);
            self.reload_document(&paths);
        }
    }

    /// Drains the watcher and applies what changed on disk.
    pub(super) fn poll_reload(&mut self, ctx: &egui::Context) {
        let Some(w) = &mut self.watcher else {
            return;
        };
        w.set_waker(ctx);
        for e in w.take_errors() {
            self.status.error(format!("file watcher: {e}"));
        }
        let changes = w.poll();
        if w.waiting_for_a_folder() {
            ctx.request_repaint_after(std::time::Duration::from_millis(500));
        }
        if !changes.is_empty() {
            self.apply_changes(changes);
        }
    }

    /// Applies file changes: the scenario first (a new set-up), then the rules, then profiles.
    pub fn apply_changes(&mut self, changes: Changes) {
        if !changes.scenario.is_empty() {
            self.reload_document(&changes.scenario);
        }
        if !changes.rules.is_empty() {
            self.reload_rules(&changes.rules);
            // the checks run the rules (and the scenario's special rules) too
            self.validator.schedule();
        }
        if !changes.profiles.is_empty() {
            if let Some(dir) = self.doc.ruleset_dir.clone() {
                self.rules_panel.refresh(&dir);
            }
            self.status.reload_note = Some(format!(
                "profiles reloaded {} ({})",
                clock_now(),
                paths_text(&changes.profiles)
            ));
        }
    }

    fn reload_rules(&mut self, paths: &[PathBuf]) {
        let what = paths_text(paths);
        let Some(s) = &mut self.session else {
            // no game yet: what the rules declare is read again (the map's colours, the names
            // scenario editing offers: a ruleset that failed to load drew in stand-in colours)
            self.read_declarations(crate::play::ANSWER_WAIT);
            // the rules load fresh when a game starts; a failed start is retried
            if self.session_error.is_some() {
                self.start_attempted = false;
                self.ensure_session();
                if self.session.is_some() {
                    self.status.reload_note =
                        Some(format!("rules reloaded {} ({what})", clock_now()));
                }
            }
            return;
        };
        // tried on the rules' thread first: a file that loops while loading leaves the window
        // drawing, and the last good rules stay live
        s.try_reload(paths.to_vec());
        self.status.reload_failed = false;
        self.status.reload_note = Some(format!("loading the rules… ({what})"));
    }

    /// A reload of the rules tried on the rules' thread came back: when they loaded there, the
    /// session's engine loads them too (the same files, so they load here as they did there).
    pub(super) fn finish_reload(&mut self, paths: &[PathBuf], outcome: Result<(), Located>) {
        let what = paths_text(paths);
        let Some(s) = &mut self.session else {
            return;
        };
        let outcome = outcome.and_then(|()| s.engine.reload_rules().map_err(|e| (&e).into()));
        match outcome {
            Ok(()) => {
                // the computer's thread loads the new rules before its next decision
                s.seats.thinker.rules_changed();
                // what the checks said of these files is stale now; they run again shortly
                self.validator.issues.retain(|i| {
                    !paths.iter().any(|p| {
                        let file = kessel_core::script::display_path(p);
                        i.location == file || i.location.starts_with(&format!("{file}:"))
                    })
                });
                s.refresh();
                self.style = Arc::new(style_of(&self.doc, Some(&s.engine.ruleset())));
                self.rule_reloads += 1;
                self.problems.rules = None;
                self.status.reload_failed = false;
                self.status.reload_note = Some(format!("rules reloaded {} ({what})", clock_now()));
            }
            Err(e) => {
                self.problems.rules = Some(Problem::located(
                    "The rules failed to reload — the last good rules stay live",
                    &e,
                ));
                self.status.reload_failed = true;
                self.status.reload_note =
                    Some(format!("rules reload failed {} ({what})", clock_now()));
            }
        }
    }

    fn reload_document(&mut self, paths: &[PathBuf]) {
        let what = paths_text(paths);
        if self.doc.is_dirty() {
            // kept: a save would write over them, an undo back to the saved state takes them in
            for p in paths {
                if !self.disk_ahead.paths.contains(p) {
                    self.disk_ahead.paths.push(p.clone());
                }
            }
            self.disk_ahead.overwrite = false;
            self.status.error(format!(
                "{what} changed on disk, but there are unsaved edits here: not reloaded. Undo them to take in the file as it is on disk, or save to write the editor's version over it (asked first)"
            ));
            return;
        }
        self.disk_ahead = DiskAhead::default();
        let path = self
            .doc
            .scenario_path
            .clone()
            .unwrap_or_else(|| self.doc.map_path.clone());
        match Document::open(&path) {
            Ok(doc) => {
                self.doc = doc;
                self.validator.opened(&self.doc);
                self.read_declarations(crate::play::ANSWER_WAIT);
                if self.selected.is_some_and(|h| !self.doc.map.contains(h)) {
                    self.selected = None;
                }
                self.problems.scenario = None;
                self.status.reload_failed = false;
                let mut note = format!("scenario reloaded {} ({what})", clock_now());
                let in_progress = self.session.as_ref().is_some_and(PlaySession::in_progress);
                if in_progress {
                    note.push_str(
                        "; the game in progress keeps its set-up (New game uses the new one)",
                    );
                } else if self.session.is_some() || self.session_error.is_some() {
                    self.start_session();
                }
                self.status.reload_note = Some(note);
            }
            Err(e) => {
                let title = "The scenario failed to reload — the editor keeps the last good one";
                self.status.reload_failed = true;
                let first = e
                    .downcast_ref::<kessel_core::error::LoadErrors>()
                    .and_then(|errors| errors.located().into_iter().next());
                self.problems.scenario = Some(match first {
                    Some(located) => Problem::located(title, &located),
                    None => Problem {
                        title: title.into(),
                        location: None,
                        message: format!("{e:#}"),
                    },
                });
                self.status.reload_note =
                    Some(format!("scenario reload failed {} ({what})", clock_now()));
            }
        }
    }
}
