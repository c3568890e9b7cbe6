//! The sequencer, part of `kessel.emit`: `clock` sets the clock, `advance` ends a step and walks
//! to the next of the sequence in force (the main one or a named one, a *mode*), `mode` switches
//! sequences; `step_end`/`step_start` hooks run around each move, nested at most so deep.

use super::call_hooks;
use super::emit::emit;
use crate::event::Event;
use crate::world::Shared;
use mlua::{Lua, LuaSerdeExt, Table};

/// How deep the sequencer's hooks run inside each other now (a `step_start` that advances again).
struct StepDepth(usize);

/// The deepest `step_start`/`step_end` hooks may nest: deep enough for any sequence a rule walks
/// through on purpose, shallow enough to stop a hook that switches or advances without end with
/// a message instead of a C stack overflow.
const MAX_STEP_DEPTH: usize = 64;

/// Runs the sequencer's `step_start` or `step_end` hooks for step `index`, refusing to nest
/// without end.
fn step_hooks(lua: &Lua, name: &str, index: usize) -> mlua::Result<()> {
    let depth = lua.app_data_ref::<StepDepth>().map_or(0, |d| d.0);
    if depth >= MAX_STEP_DEPTH {
        return Err(mlua::Error::runtime(format!(
            "{name} hooks nested deeper than {MAX_STEP_DEPTH}: a step_start or step_end that advances or switches the sequence again each time?"
        )));
    }
    lua.set_app_data(StepDepth(depth + 1));
    let result = call_hooks(lua, name, lua.to_value(&index)?);
    lua.set_app_data(StepDepth(depth));
    result
}

/// Adds the sequencer's functions to the `kessel.emit` table `e`.
pub(super) fn register(lua: &Lua, e: &Table, world: &Shared) -> mlua::Result<()> {
    let w = world.clone();
    e.set(
        "clock",
        super::function(lua,
            move |lua, (turn, phase, finished): (u32, usize, Option<super::Bool>)| {
                let finished = finished.map(|b| b.0);
                {
                    let wb = w.borrow();
                    let (last, steps) = (wb.state.last_turn, wb.current_steps().len());
                    // turns count from 1: a clock at turn 0 was kept, and turn() answered 0
                    if turn == 0 {
                        return Err(mlua::Error::runtime(
                            "kessel.emit.clock: turn 0: game-turns count from 1",
                        ));
                    }
                    if turn > last {
                        return Err(mlua::Error::runtime(format!(
                            "kessel.emit.clock: turn {turn} is after the last turn ({last})"
                        )));
                    }
                    if phase >= steps.max(1) {
                        return Err(mlua::Error::runtime(format!(
                            "kessel.emit.clock: the sequence of play has {steps} steps (0 to {}); there is no step {phase}",
                            steps.saturating_sub(1)
                        )));
                    }
                }
                emit(
                    lua,
                    &w,
                    Event::Clock {
                        turn,
                        phase,
                        finished: finished.unwrap_or(false),
                    },
                )
            },
        )?,
    )?;
    // The sequencer: end the current step, move to the next (next game-turn after the last step;
    // the game ends after the last turn), with `step_end` / `step_start` hooks.
    let w = world.clone();
    e.set(
        "advance",
        super::function(lua, move |lua, ()| {
            let (turn, phase, last, steps, finished, in_mode) = {
                let wb = w.borrow();
                (
                    wb.state.turn,
                    wb.state.phase,
                    wb.state.last_turn,
                    wb.current_steps().len(),
                    wb.state.finished,
                    wb.state.mode.is_some(),
                )
            };
            if finished {
                return Err(mlua::Error::runtime("the game is over"));
            }
            if steps == 0 {
                return Err(mlua::Error::runtime(
                    "the ruleset declared no sequence of play",
                ));
            }
            step_hooks(lua, "step_end", phase)?;
            // a `step_end` hook may end the game where it stands (a sudden-death victory judged at
            // the end of a phase, with `emit.clock(turn, phase, true)`): moving the clock on
            // would undo that end
            if w.borrow().state.finished {
                return Ok(());
            }
            let (t, p, done) = if phase + 1 < steps {
                (turn, phase + 1, false)
            } else if turn >= last {
                (turn, phase, true)
            } else {
                (turn + 1, 0, false)
            };
            // a named sequence is walked once: past its last step the main one resumes with the
            // next turn (unless that was the last turn: the game ends in the mode)
            if phase + 1 >= steps && !done && in_mode {
                emit(lua, &w, Event::Mode { mode: None })?;
            }
            emit(
                lua,
                &w,
                Event::Clock {
                    turn: t,
                    phase: p,
                    finished: done,
                },
            )?;
            if !done {
                step_hooks(lua, "step_start", p)?;
            }
            Ok(())
        })?,
    )?;
    // Switching sequences: `emit.mode(name)` walks a named sequence from its first step,
    // `emit.mode(nil)` goes back to the main one; the turn is kept, `step_start(0)` runs.
    let w = world.clone();
    e.set(
        "mode",
        super::function(lua, move |lua, mode: Option<String>| {
            {
                let wb = w.borrow();
                if wb.state.finished {
                    return Err(mlua::Error::runtime("kessel.emit.mode: the game is over"));
                }
                if let Some(m) = &mode {
                    if !wb.ruleset.modes.contains_key(m) {
                        let known: Vec<String> = wb.ruleset.modes.keys().cloned().collect();
                        return Err(mlua::Error::runtime(format!(
                            "kessel.emit.mode: no sequence `{m}` was declared{}{}",
                            crate::names::did_you_mean(m, &known),
                            if known.is_empty() {
                                " (declare one with kessel.sequence(name, steps))".to_string()
                            } else {
                                format!("; declared: {}", known.join(", "))
                            }
                        )));
                    }
                } else if wb.ruleset.sequence.is_empty() {
                    return Err(mlua::Error::runtime(
                        "kessel.emit.mode: the ruleset declared no main sequence of play",
                    ));
                }
            }
            emit(lua, &w, Event::Mode { mode })?;
            step_hooks(lua, "step_start", 0)
        })?,
    )?;
    Ok(())
}
