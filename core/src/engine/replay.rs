//! Replaying a save's log through the rules: the whole game, as a load needs it, or as far as it
//! still replays under the files now in place (`kessel replay`), with the words a player needs
//! when it does not: whether the files changed, the rules were reloaded during play, or the
//! history was edited. Options changed during play are made again where they were made.

use super::save::SaveFile;
use super::{Engine, EngineError};
use crate::error::LoadError;
use std::path::Path;

impl Engine {
    /// Plays a save's actions again on this engine (built from the save's scenario, or for a
    /// campaign's later game, from it and what the last game left), refusing the first action
    /// that is not legal or does not give the events recorded, and a final state whose hash is
    /// not the saved one. `path` names the save in errors.
    ///
    /// A log reordered with care (two actions that roll nothing swapped, giving the same events
    /// and state) replays and loads: what this proves is that the log is a game these rules
    /// play to the saved state, not that it is the one played. The checksum is no signature (it
    /// is computed again by anyone), so no check here could tell the two apart; the state and
    /// every later ruling are those of a legal game, which is what a load must guarantee.
    pub fn replay_save(&mut self, save: &SaveFile, path: &Path) -> Result<(), EngineError> {
        let replayed = self.replay_what_replays(save, path)?;
        let Some(stop) = replayed.stop else {
            return Ok(());
        };
        let fail = |message: String| EngineError::from(LoadError::new(path, None, message));
        let changed = save
            .content_hash
            .as_ref()
            .is_some_and(|h| *h != self.content_hash());
        // a reload during play after the action that fails: that action was played under other
        // files than the save's `content_hash` names
        let reloaded_after = match stop.action {
            Some(n) => save.rules_reloaded_at.iter().find(|&&p| p >= n).copied(),
            None => save.rules_reloaded_at.last().copied(),
        };
        // what went wrong, and what a player can do about it
        let salvage = format!(
            "; or keep what still replays: `kessel replay {} --save NEW` writes the game as far \
             as it replays, to play on from there",
            crate::error::shown_path(path).display()
        );
        let (cause, remedy) = if changed {
            (
                "the scenario or its rules changed since the save".to_string(),
                format!(
                    "to load it, put back the scenario and rule files it was played with (from \
                     a copy or version control){salvage}; games saved from now on replay under \
                     the new ones"
                ),
            )
        } else if let Some(k) = reloaded_after {
            (
                format!(
                    "the rules were reloaded during play, after action {k}: the actions before \
                     were played under the files as they were then, and those now in place \
                     do not replay them"
                ),
                format!(
                    "to load it, put back the rule files the first {k} actions were played with{salvage}"
                ),
            )
        } else {
            let cause = match stop.action {
                Some(_) => EDITED_HISTORY,
                None => EDITED_STATE,
            };
            (cause.to_string(), EDITED_REMEDY.to_string())
        };
        Err(fail(match stop.action {
            Some(n) => format!(
                "{cause}: action {n} of {}: {} ({remedy})",
                save.log.len(),
                stop.why
            ),
            None => format!("{}: {cause} ({remedy})", stop.why),
        }))
    }

    /// Plays a save's actions again on this engine as far as they replay (see
    /// [`Engine::replay_save`]): it stops before the first action that is refused, fails or gives
    /// other events than recorded, and says which. With every action replayed, a final state
    /// that is not the saved one is said too (the engine keeps it). A save whose options this
    /// ruleset refuses is an error: nothing is replayed.
    pub fn replay_what_replays(
        &mut self,
        save: &SaveFile,
        path: &Path,
    ) -> Result<Replayed, EngineError> {
        let fail = |message: String| EngineError::from(LoadError::new(path, None, message));
        let engine = self;
        for (id, value) in &save.options {
            engine
                .put_option(id, value.clone())
                .map_err(|e| fail(format!("the save sets option `{id}`: {e}")))?;
        }
        if let Some(conflict) = engine.option_conflict() {
            return Err(fail(format!("the save's options: {conflict}")));
        }
        let of = save.log.len();
        points_in_play(
            &save.option_changes.iter().map(|c| c.at).collect::<Vec<_>>(),
            of,
            false,
        )
        .map_err(|why| fail(format!("the save's `option_changes`: {why}")))?;
        points_in_play(&save.rules_reloaded_at, of, true)
            .map_err(|why| fail(format!("the save's `rules_reloaded_at`: {why}")))?;
        // the option changes are made where they were made: replayed, not recorded again
        engine.world.borrow_mut().recording_options = false;
        // (in the order made, checked above: each is made once, in one pass over them)
        let mut changes = save.option_changes.iter().peekable();
        let mut change_at = |engine: &mut Engine, at: usize| -> Result<(), EngineError> {
            let mut made = false;
            while let Some(c) = changes.next_if(|c| c.at == at) {
                engine.apply_option_change(c).map_err(|e| {
                    let when = match at {
                        0 => "before the first action".to_string(),
                        n => format!("after action {n}"),
                    };
                    fail(format!(
                        "the options changed {when}: {e} (the ruleset no longer has them as they were)"
                    ))
                })?;
                made = true;
            }
            // judged as the save's own options are: a game is never played under two table
            // variants of which one is dropped unseen (the rules panel refuses such a change)
            if let Some(conflict) = engine.option_conflict().filter(|_| made) {
                return Err(fail(format!(
                    "the options changed after action {at}: {conflict}"
                )));
            }
            Ok(())
        };
        for (i, entry) in save.log.iter().enumerate() {
            change_at(engine, i)?;
            let described = crate::error::quoted_json(&entry.action, super::calls::QUOTED_ACTION);
            let why = match engine.act(&entry.action) {
                Err(e) => format!("{described} fails: {}", e.message),
                Ok(Err(rejection)) => {
                    let reasons: Vec<String> =
                        rejection.reasons.iter().map(ToString::to_string).collect();
                    format!("{described} is refused: {}", reasons.join("; "))
                }
                Ok(Ok(events)) if events != entry.events => {
                    let why = format!(
                        "{described} gives other events than the save recorded ({})",
                        first_difference(&engine.state().map, &entry.events, &events)
                    );
                    // (taken back: what is kept replays as recorded)
                    engine
                        .undo()
                        .map_err(|e| fail(format!("action {} of {of}: {e}", i + 1)))?;
                    why
                }
                Ok(Ok(_)) => continue,
            };
            engine.world.borrow_mut().recording_options = true;
            return Ok(Replayed {
                replayed: i,
                of,
                stop: Some(ReplayStop {
                    action: Some(i + 1),
                    why,
                }),
                left_out: save.log[i..].iter().map(|e| e.action.clone()).collect(),
            });
        }
        change_at(engine, of)?;
        engine.world.borrow_mut().recording_options = true;
        let hash = format!("{:016x}", engine.state().hash());
        if hash != save.state_hash {
            return Ok(Replayed {
                replayed: of,
                of,
                stop: Some(ReplayStop {
                    action: None,
                    why: format!(
                        "state hash {hash} differs from the saved {}",
                        save.state_hash
                    ),
                }),
                left_out: Vec::new(),
            });
        }
        // (the files are read for their hash only here: a stopped replay's caller reads them
        // once for its own words)
        let changed = save
            .content_hash
            .as_ref()
            .is_some_and(|h| *h != engine.content_hash());
        if changed {
            engine.save_changed = Some(format!(
                "{} was saved with other scenario or rule files than the ones now in place: every \
                 action still replays, but the game goes on under the files as they are now (a \
                 changed turn count, objective or rule may end or score it differently)",
                crate::error::shown_path(path).display()
            ));
        }
        Ok(Replayed {
            replayed: of,
            of,
            stop: None,
            left_out: Vec::new(),
        })
    }
}

/// Whether points of a game's play (how many actions had been played at each) are ones a game
/// records: in the order they came, none after the last action, and for a reload of the rules
/// (`strict`) each after an action and once only. A hand-edited point past the log was never
/// reached and was dropped unseen; one out of order was made out of its place.
fn points_in_play(points: &[usize], of: usize, strict: bool) -> Result<(), String> {
    let mut before = None;
    for (i, &at) in points.iter().enumerate() {
        let n = i + 1;
        if at > of {
            return Err(format!(
                "entry {n} is after action {at}, but the log holds {}",
                if of == 1 {
                    "1 action".to_string()
                } else {
                    format!("{of} actions")
                }
            ));
        }
        if strict && at == 0 {
            return Err(format!(
                "entry {n} is before the first action: a reload then is the game's start"
            ));
        }
        if let Some(last) = before.filter(|&last| at < last || strict && at == last) {
            return Err(format!(
                "entry {n}, after action {at}, is out of order: listed after one after action \
                 {last}, and entries are listed in the order they were made"
            ));
        }
        before = Some(at);
    }
    Ok(())
}

/// How far a save's log replayed under the files now in place ([`Engine::replay_what_replays`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Replayed {
    /// Actions replayed as recorded, from the first.
    pub replayed: usize,
    /// Actions the save holds.
    pub of: usize,
    /// Where and why the replay stopped: `None` when the whole game replayed to the saved state.
    pub stop: Option<ReplayStop>,
    /// The actions left out, from the one that no longer replays on, for the players to play
    /// again (empty when every action replayed).
    pub left_out: Vec<crate::action::Action>,
}

/// Why a replay stopped (see [`Replayed`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayStop {
    /// The action (from 1) that no longer replays; `None` when every action replayed but the
    /// final state is not the saved one.
    pub action: Option<usize>,
    /// What happened, in words: the action and its refusal, error or other events.
    pub why: String,
}

/// What a load blames when a save's actions do not replay as recorded and its files are as they
/// were: the save was edited. (A caller that knows of no edit, `kessel script --save` checking the
/// save it just made, takes these words out: there the rules are not deterministic.)
pub const EDITED_HISTORY: &str = "the save's history was edited";
/// See [`EDITED_HISTORY`]: when the actions replay but the final state is not the saved one.
pub const EDITED_STATE: &str = "the save was edited";
/// See [`EDITED_HISTORY`]: what a player can do about it.
pub const EDITED_REMEDY: &str =
    "no game these rules can play reaches it: take the save from a copy made before it was edited";

/// Where two event lists part: "event N: recorded …, now …" (each quoted short, its hexes as
/// `map`'s labels, as players read them: the stored form named them by internal coordinates).
fn first_difference(
    map: &crate::map::Map,
    recorded: &[crate::event::Event],
    now: &[crate::event::Event],
) -> String {
    let quote = |e: Option<&crate::event::Event>| match e {
        Some(e) => crate::error::quoted_json(&e.labelled(map), 120),
        None => "nothing".to_string(),
    };
    let n = recorded
        .iter()
        .zip(now)
        .position(|(a, b)| a != b)
        .unwrap_or(recorded.len().min(now.len()));
    format!(
        "event {}: recorded {}, now {}",
        n + 1,
        quote(recorded.get(n)),
        quote(now.get(n))
    )
}

#[cfg(test)]
mod first_difference_tests {
    use super::first_difference;
    use crate::event::Event;
    use crate::map::Map;
    use crate::numbering::Numbering;

    #[test]
    fn a_replay_that_parts_names_the_event_and_its_hexes_as_labels() {
        let map = Map::new("m", 4, 4, Numbering::default(), "clear");
        let moved = |to: &str| Event::Moved {
            unit: "u".into(),
            path: vec![map.parse(to).expect("a hex")],
            cost: 1.0,
        };
        let said = first_difference(&map, &[moved("0102")], &[moved("0103")]);
        assert!(said.starts_with("event 1: recorded "), "{said}");
        assert!(
            said.contains("\"0102\"") && said.contains("\"0103\""),
            "{said}"
        );
        assert!(!said.contains("\"q\""), "internal coordinates: {said}");
        let shorter = first_difference(&map, &[moved("0102")], &[]);
        assert!(shorter.ends_with("now nothing"), "{shorter}");
    }
}
