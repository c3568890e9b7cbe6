//! The computer's last moves, as the map draws them: a person playing against the computer
//! looks up from its phase to a changed map, and the log alone (a list of hexes and ids) did not
//! show which stacks went where or what attacked what. Each move, retreat, advance or rail move
//! of the computer's last stretch is a line from where the stack stood to where it ended, each
//! attack an arrow from every attacking hex to the target, each marker it placed a ring; all
//! numbered as in the log.

use super::queries::action_units;
use super::PlaySession;
use crate::map_view::Trail;
use kessel_core::event::{Event, LogEntry};
use kessel_core::hex::Hex;
use kessel_core::ruleset::Ruleset;
use kessel_core::state::{GameState, Location};
use std::collections::{BTreeMap, BTreeSet};

/// The log entries of the computer's last stretch: back from its last move, its moves and the
/// other side's answers within the same side's steps (a defender's choice after the computer's
/// attack), up to an action a person took in a step of their own or a step of another side.
/// `steps[i]` is the side whose step entry `i` was taken in.
pub fn last_stretch(
    log: &[LogEntry],
    steps: &[Option<String>],
    computer: &BTreeSet<usize>,
) -> Vec<usize> {
    let Some(&last) = computer.iter().rev().find(|&&i| i < log.len()) else {
        return Vec::new();
    };
    let side = steps.get(last).cloned().flatten();
    let mut out = Vec::new();
    for i in (0..=last).rev() {
        let step = steps.get(i).cloned().flatten();
        if step != side {
            break;
        }
        let answer = log[i].action.side.is_some() && log[i].action.side != step;
        if computer.contains(&i) {
            out.push(i);
        } else if !answer {
            break;
        }
    }
    out.reverse();
    out
}

/// Where every unit stood before each entry of `wanted`, and the side whose step each entry of
/// the log was taken in, from the game's start and the log's events.
struct Walk {
    steps: Vec<Option<String>>,
    before: BTreeMap<usize, BTreeMap<String, Hex>>,
}

fn walk(initial: &GameState, ruleset: &Ruleset, log: &[LogEntry], wanted: &[usize]) -> Walk {
    let mut at: BTreeMap<String, Hex> = (initial.units.iter())
        .filter_map(|u| Some((u.id.clone(), u.hex()?)))
        .collect();
    let (mut mode, mut phase) = (initial.mode.clone(), initial.phase);
    let mut steps = Vec::with_capacity(log.len());
    let mut before = BTreeMap::new();
    for (i, entry) in log.iter().enumerate() {
        let step = ruleset.step_in(mode.as_deref(), phase);
        steps.push(step.and_then(|s| s.side.clone()));
        if wanted.contains(&i) {
            before.insert(i, at.clone());
        }
        for e in &entry.events {
            match e {
                Event::Moved { unit, path, .. } => {
                    if let Some(h) = path.last() {
                        at.insert(unit.clone(), *h);
                    }
                }
                Event::Located { unit, to } => match to {
                    Location::Map(h) => {
                        at.insert(unit.clone(), *h);
                    }
                    _ => {
                        at.remove(unit);
                    }
                },
                Event::UnitCreated { unit } => {
                    if let Some(h) = unit.hex() {
                        at.insert(unit.id.clone(), h);
                    }
                }
                Event::Clock { phase: p, .. } => phase = *p,
                Event::Mode { mode: m } => mode = m.clone(),
                _ => {}
            }
        }
    }
    Walk { steps, before }
}

/// The trails of the computer's last stretch (see [`last_stretch`]), in the order played.
pub fn computer_trails(
    initial: &GameState,
    ruleset: &Ruleset,
    log: &[LogEntry],
    computer: &BTreeSet<usize>,
) -> Vec<Trail> {
    if computer.is_empty() {
        return Vec::new();
    }
    // the step of every entry first (the stretch depends on it), then the positions it needs
    let steps = walk(initial, ruleset, log, &[]).steps;
    let stretch = last_stretch(log, &steps, computer);
    let w = walk(initial, ruleset, log, &stretch);
    let map = &initial.map;
    let mut out = Vec::new();
    for i in stretch {
        let (entry, before) = (&log[i], &w.before[&i]);
        let number = i + 1;
        let mut paths: Vec<Vec<Hex>> = Vec::new();
        for e in &entry.events {
            if let Event::Moved { unit, path, .. } = e {
                let mut hexes: Vec<Hex> = before.get(unit).copied().into_iter().collect();
                hexes.extend(path.iter().copied());
                if hexes.len() > 1 && !paths.contains(&hexes) {
                    paths.push(hexes);
                }
            }
        }
        for hexes in paths {
            out.push(Trail {
                hexes,
                attack: false,
                number,
            });
        }
        let targets: Vec<Hex> = ["target", "targets"]
            .iter()
            .filter_map(|k| entry.action.params.get(*k))
            .flat_map(|v| match v {
                serde_json::Value::Array(list) => list.clone(),
                v => vec![v.clone()],
            })
            .filter_map(|v| v.as_str().and_then(|s| map.parse(s)))
            .collect();
        let from: BTreeSet<Hex> = (action_units(&entry.action).iter())
            .filter_map(|u| before.get(u).copied())
            .collect();
        for &t in &targets {
            for &f in &from {
                if f != t {
                    out.push(Trail {
                        hexes: vec![f, t],
                        attack: true,
                        number,
                    });
                }
            }
        }
        // a choice that names a hex and no unit (a marker placed): a ring on its hex
        let placed = entry
            .events
            .iter()
            .filter_map(|e| match e {
                Event::MarkerMoved { hex: Some(h), .. } => Some(*h),
                _ => None,
            })
            .collect::<BTreeSet<Hex>>();
        for h in placed {
            out.push(Trail {
                hexes: vec![h],
                attack: false,
                number,
            });
        }
    }
    out
}

impl PlaySession {
    /// The computer's last moves on the map (see [`computer_trails`]), worked out again only
    /// when the log or the computer's moves changed.
    pub fn computer_trails(&self) -> Vec<Trail> {
        let key = (
            self.engine.revision(),
            self.log.len(),
            self.seats.computer_moves.len(),
        );
        let mut cache = self.seats.trails.borrow_mut();
        if let Some((k, trails)) = cache.as_ref() {
            if *k == key {
                return trails.clone();
            }
        }
        let w = self.engine.world();
        let trails = computer_trails(
            &w.initial,
            &w.ruleset,
            &self.log,
            &self.seats.computer_moves,
        );
        *cache = Some((key, trails.clone()));
        trails
    }

    /// What the map draws of the computer's last moves: all of them, or the one stepped to.
    pub fn shown_trails(&self) -> Vec<Trail> {
        let all = self.computer_trails();
        match self.seats.trail_focus {
            Some(n) if all.iter().any(|t| t.number == n) => {
                all.into_iter().filter(|t| t.number == n).collect()
            }
            _ => all,
        }
    }

    /// The hex the decision the rules wait for is about, when it is a person's and names units
    /// on the map (`pending.units`, see [`Self::pending_prompt`]).
    pub fn pending_hex(&self) -> Option<Hex> {
        let side = self.deciding_side()?;
        if self.seats.player(&side) != super::computer::Player::Human {
            return None;
        }
        let w = self.engine.world();
        let p = w.state.vars.get("pending")?;
        (p.get("units")?.as_array()?.iter())
            .filter_map(|id| self.units.get(id.as_str()?)?.hex())
            .next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kessel_core::action::Action;

    fn entry(kind: &str, side: &str) -> LogEntry {
        let mut a = Action::new(kind);
        a.side = Some(side.into());
        LogEntry {
            action: a,
            events: Vec::new(),
        }
    }

    #[test]
    fn the_stretch_runs_back_through_the_computers_moves_and_the_answers_given_in_its_steps() {
        let red = Some("red".to_string());
        let blue = Some("blue".to_string());
        // 0-1: blue (a person) in blue's step; 2-3: red (computer) in red's step; 4: blue's
        // answer in red's step (a defender's choice); 5: red again; 6: blue's own step
        let log = vec![
            entry("move", "blue"),
            entry("end_phase", "blue"),
            entry("move", "red"),
            entry("attack", "red"),
            entry("choose", "blue"),
            entry("advance", "red"),
            entry("move", "blue"),
        ];
        let steps = vec![
            blue.clone(),
            blue.clone(),
            red.clone(),
            red.clone(),
            red.clone(),
            red.clone(),
            blue.clone(),
        ];
        let computer: BTreeSet<usize> = [2, 3, 5].into();
        assert_eq!(last_stretch(&log, &steps, &computer), vec![2, 3, 5]);
        // the person's own moves that follow leave the computer's last stretch on the map
        assert_eq!(last_stretch(&log[..7], &steps, &computer), vec![2, 3, 5]);
        // the computer's moves of an earlier stretch are not drawn with a later one
        let computer: BTreeSet<usize> = [0, 1, 2, 3, 5].into();
        assert_eq!(last_stretch(&log, &steps, &computer), vec![2, 3, 5]);
        assert!(last_stretch(&log, &steps, &BTreeSet::new()).is_empty());
    }
}
