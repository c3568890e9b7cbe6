//! What the ruleset declares, for drawing (terrain, sides, unit types: the map's style) and for
//! scenario editing (the sides and unit types offered), read without freezing the window.
//! Reading it runs the ruleset's `init.lua` (Lua, which may loop), so it is read on a thread of
//! its own. A frame waits a moment for it (a ruleset normally loads in far less, so the first
//! frame already draws with its style); one that takes longer is drawn with the fallback style
//! until it arrives, and one that loops or fails ends in the error panel, with the file and line
//! (at the instruction budget for a loop). Only the declarations, plain data, cross back.
//!
//! Read again after a rules file changed (with no game running, see `hot_reload.rs`), the last
//! good declarations of the same ruleset stay while the new read runs, and stay if it fails:
//! the map keeps its colours and scenario editing its names, and the error panel says the
//! rules failed to reload, with the file and line, as it does when a game is running.

use super::{EditorApp, Problem};
use crate::document::Document;
use crate::panels::scenario::RulesetNames;
use kessel_core::engine::Engine;
use kessel_core::error::Located;
use kessel_core::ruleset::Ruleset;
use kessel_core::script::{Limits, Stopper};
use kessel_draw::MapStyle;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// How long opening a document waits for the ruleset before drawing without it (there is no
/// window yet; a document opened later waits a frame's share).
pub(super) const FIRST_WAIT: Duration = Duration::from_millis(250);

/// The ruleset being read on its thread.
pub(super) struct Reading {
    rx: Receiver<Result<Box<Ruleset>, Located>>,
    stopper: Stopper,
}

impl Drop for Reading {
    fn drop(&mut self) {
        // a read no longer wanted ends at once
        self.stopper.stop();
    }
}

/// What the last read of the ruleset gave.
pub(super) type Declared = Result<RulesetNames, String>;

/// The title of the error panel when a ruleset read again after a change fails.
pub(super) const RELOAD_FAILED: &str = "The rules failed to reload — the last good rules stay live";
/// The title of the error panel when the document's ruleset has not loaded at all (no good
/// read of it to keep).
pub(super) const LOAD_FAILED: &str =
    "The rules did not load — the map is drawn without their colours and names";

fn names_of(ruleset: &Ruleset) -> RulesetNames {
    RulesetNames {
        sides: ruleset.sides.clone(),
        unit_types: ruleset.unit_types.keys().cloned().collect(),
        type_sides: (ruleset.unit_types.iter())
            .map(|(id, decl)| (id.clone(), RulesetNames::sides_of_type(decl)))
            .collect(),
        type_faces: (ruleset.unit_types.iter())
            .map(|(id, decl)| (id.clone(), RulesetNames::face_fields_of_type(decl)))
            .collect(),
        vars: ruleset.scenario_vars.clone(),
    }
}

impl EditorApp {
    /// Reads the document's ruleset afresh (see the module docs), waiting up to `wait` for it;
    /// the style falls back until it is read.
    pub(super) fn read_declarations(&mut self, wait: Duration) {
        self.reading = None;
        match self.last_good() {
            // the same ruleset read again: what it declared stays until the new read has come
            Some(ruleset) => {
                self.style = Arc::new(style_of(&self.doc, Some(&ruleset)));
                self.declared = Some(Ok(names_of(&ruleset)));
            }
            None => {
                self.last_good_rules = None;
                self.declared = None;
                self.ruleset_names = None;
                self.style = Arc::new(style_of(&self.doc, None));
            }
        }
        let Some(dir) = self.doc.ruleset_dir.clone() else {
            self.declared = Some(Ok(RulesetNames::default()));
            return self.enter_scenario_mode();
        };
        let stopper = Stopper::default();
        let theirs = stopper.clone();
        let (tx, rx) = channel();
        let spawned = kessel_core::script::rules_thread("ruleset declarations").spawn(move || {
            let read = Engine::bare_stoppable(&dir, &[], Limits::default(), theirs)
                .map(|e| Box::new(e.ruleset().clone()))
                .map_err(|e| {
                    (e.located().into_iter().next())
                        .unwrap_or_else(|| Located::plain(e.to_string()))
                });
            let _ = tx.send(read);
        });
        match spawned {
            Ok(_) => {
                self.reading = Some(Reading { rx, stopper });
                self.poll_declarations(wait);
            }
            Err(e) => self.declared = Some(Err(format!("cannot start a thread: {e}"))),
        }
    }

    /// Takes the ruleset read on its thread if it has come within `wait`.
    pub(super) fn poll_declarations(&mut self, wait: Duration) {
        let Some(reading) = &self.reading else {
            return;
        };
        let read = match reading.rx.recv_timeout(wait) {
            Ok(read) => read,
            Err(RecvTimeoutError::Timeout) => return,
            Err(RecvTimeoutError::Disconnected) => {
                Err(Located::plain("the ruleset's thread failed"))
            }
        };
        self.reading = None;
        match read {
            Ok(ruleset) => {
                let ruleset: Arc<Ruleset> = Arc::from(ruleset);
                self.style = Arc::new(style_of(&self.doc, Some(&ruleset)));
                let names = names_of(&ruleset);
                // a fresh read replaces the names offered (a type added or renamed shows)
                if self.ruleset_names.is_some() {
                    self.ruleset_names = Some(names.clone());
                }
                self.declared = Some(Ok(names));
                self.last_good_rules = self.doc.ruleset_dir.clone().map(|dir| (dir, ruleset));
                if (self.problems.rules.as_ref())
                    .is_some_and(|p| p.title == RELOAD_FAILED || p.title == LOAD_FAILED)
                {
                    self.problems.rules = None;
                    self.status.reload_failed = false;
                }
            }
            Err(e) if self.last_good().is_some() => {
                // a reload that failed: the last good declarations stay (see the module docs)
                self.problems.rules = Some(Problem::located(RELOAD_FAILED, &e));
                self.status.reload_failed = true;
                self.status.reload_note = Some(format!(
                    "rules reload failed {}",
                    crate::reload::clock_now()
                ));
            }
            Err(e) => {
                // said at once, in every mode: a ruleset that looped or failed while the map
                // was shown left it drawn in fallback colours with nothing to say why
                self.problems.rules = Some(Problem::located(LOAD_FAILED, &e));
                self.declared = Some(Err(super::messages::tidy_paths_in(&e.to_string())));
            }
        }
        self.enter_scenario_mode();
    }

    /// The last ruleset read without error, if it is the document's ruleset.
    fn last_good(&self) -> Option<Arc<Ruleset>> {
        let (dir, ruleset) = self.last_good_rules.as_ref()?;
        (self.doc.ruleset_dir.as_ref() == Some(dir)).then(|| ruleset.clone())
    }

    /// True while the ruleset is being read.
    pub fn reading_declarations(&self) -> bool {
        self.reading.is_some()
    }

    /// On entering scenario editing: the ruleset's names, once read, and a check of the
    /// scenario.
    pub(super) fn enter_scenario_mode(&mut self) {
        use crate::panels::Mode;
        if self.palette.mode != Mode::Scenario || self.ruleset_names.is_some() {
            return;
        }
        let Some(declared) = &self.declared else {
            return; // still being read: entered once it has come
        };
        self.ruleset_names = Some(match declared {
            Ok(names) => names.clone(),
            Err(e) => {
                self.status.error(format!(
                    "the ruleset did not load, so its unit types are not offered: {e}"
                ));
                RulesetNames::default()
            }
        });
        self.validator.schedule();
    }
}

/// The drawing model's style for a document: from `ruleset` when it has been read, otherwise
/// the fallbacks. Sides the ruleset does not declare follow in the order the units show them.
pub(super) fn style_of(doc: &Document, ruleset: Option<&Ruleset>) -> MapStyle {
    let style = ruleset.map(MapStyle::from_ruleset).unwrap_or_default();
    style.with_sides(doc.sides.iter().map(String::as_str))
}
