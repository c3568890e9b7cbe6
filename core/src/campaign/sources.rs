//! Where a game's variables got the values it ended with: the step of play of the last action
//! that set each, followed through the game's log. A campaign player reads a carried number with
//! the step that made it (a SAN with the SAN adjustment, the CPP left with the purchase that spent
//! them) rather than as a bare value; `kessel campaign` and the editor's campaign panel both show
//! it (in [`super::CarryReport::text`]).

use crate::error::printable_name as shown;
use crate::event::{Event, LogEntry};
use crate::ruleset::Ruleset;
use crate::state::GameState;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Where a variable got the value a game ended with: the step of play of the last action that
/// set it, or the game's start (the scenario's `[vars]`, a `setup` hook, or what the campaign
/// carried in), which no action of the game changed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SetIn {
    /// Set by an action in this step (its rule and name as the ruleset declares them), turn and
    /// named sequence (its title; `None`: the main sequence).
    Step {
        /// Game-turn.
        turn: u32,
        /// The named sequence's title, if the step was in one.
        mode: Option<String>,
        /// The step's rule case and name.
        step: String,
    },
    /// Not set by any action of the game.
    Start,
}

impl SetIn {
    /// For people: `turn 3, Refit Phase (Pegasus Bridge), 9.617 Purchasing Reinforcement Groups`.
    pub fn text(&self) -> String {
        match self {
            SetIn::Step { turn, mode, step } => match mode {
                Some(m) => format!("turn {turn}, {}, {step}", shown(m)),
                None => format!("turn {turn}, {step}"),
            },
            SetIn::Start => {
                "as the game began (the scenario, or what the campaign carried in)".into()
            }
        }
    }
}

/// Where each of `names` was last set in the game that started as `initial` and played `log`,
/// following its steps of play (a `clock` event moves to a step, a `mode` event to the first step
/// of a named sequence), in the order of `names`.
pub fn var_sources(
    ruleset: &Ruleset,
    initial: &GameState,
    log: &[LogEntry],
    names: &[String],
) -> Vec<(String, SetIn)> {
    let (mut turn, mut phase, mut mode) = (initial.turn, initial.phase, initial.mode.clone());
    let step_text = |mode: &Option<String>, phase: usize| -> String {
        let steps = match mode {
            None => Some(&ruleset.sequence),
            Some(m) => ruleset.modes.get(m).map(|s| &s.steps),
        };
        match steps.and_then(|s| s.get(phase)) {
            Some(st) => match &st.rule {
                Some(r) => format!("{} {}", shown(r), shown(&st.name)),
                None => shown(&st.name).into_owned(),
            },
            None => format!("step {}", phase + 1),
        }
    };
    let mut last = BTreeMap::<&str, SetIn>::new();
    for entry in log {
        for e in &entry.events {
            match e {
                Event::Var { key, .. } if names.iter().any(|n| n == key) => {
                    // a named sequence by its title as players read it ("Refit Phase (RB)")
                    let title = (mode.as_ref())
                        .map(|m| (ruleset.modes.get(m)).map_or(m.clone(), |s| s.title_of(m)));
                    last.insert(
                        key.as_str(),
                        SetIn::Step {
                            turn,
                            mode: title,
                            step: step_text(&mode, phase),
                        },
                    );
                }
                Event::Clock {
                    turn: t, phase: p, ..
                } => {
                    turn = *t;
                    phase = *p;
                }
                Event::Mode { mode: m } => {
                    mode = m.clone();
                    phase = 0;
                }
                _ => {}
            }
        }
    }
    (names.iter())
        .map(|k| {
            let from = last.get(k.as_str()).cloned().unwrap_or(SetIn::Start);
            (k.clone(), from)
        })
        .collect()
}

/// The variables grouped by where they were last set, one line a place under a heading, each
/// indented as [`super::CarryReport::text`] indents its facts (none: nothing).
pub fn sources_text(sources: &[(String, SetIn)]) -> String {
    let mut by = BTreeMap::<&SetIn, Vec<String>>::new();
    for (k, from) in sources {
        by.entry(from).or_default().push(shown(k).into_owned());
    }
    let mut out = String::new();
    if by.is_empty() {
        return out;
    }
    out.push_str("  where each value was last set:\n");
    for (from, keys) in by {
        let _ = writeln!(out, "    {}: {}", from.text(), keys.join(", "));
    }
    out
}
