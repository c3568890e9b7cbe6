//! What a job of the rules worker reads without changing the game ([`super::worker`]): what the
//! panels show (the legal choices, what the side at the screen sees, a reach, odds) and what the
//! pointer over a hex says.

use super::queries;
use super::worker::{GameLook, LookAsk, Looked, Shown};
use crate::map_view::fmt_mp;
use kessel_core::action::Action;
use kessel_core::engine::Engine;
use kessel_core::event::LogEntry;
use kessel_core::hex::Hex;

pub(super) fn look(e: &Engine, ask: &LookAsk) -> Looked {
    Looked {
        game: ask.game.as_ref().map(|humans| game_look(e, humans)),
        reach: ask.reach.as_ref().map(|units| {
            let answers = units
                .iter()
                .take(crate::panels::play::LONG_LIST)
                .map(|id| (id.clone(), queries::unit_answers(e, id)))
                .collect();
            (queries::reach(e, units), answers)
        }),
        odds: (ask.odds.as_ref()).map(|(units, targets)| queries::odds(e, units, targets)),
    }
}

fn game_look(e: &Engine, humans: &[String]) -> GameLook {
    let deciding = e.deciding_side();
    // the side at the screen: the only side a person plays; in hot seat, the deciding one
    let viewer = match humans {
        [] => None,
        [one] => Some(one.clone()),
        _ => deciding.clone(),
    };
    // where the rules keep secrets, the side at the screen sees only what it is shown
    let shown = if e.state().secrets.is_empty() {
        None
    } else {
        viewer
            .and_then(|side| e.view(&side).ok())
            .map(|view| Shown {
                units: view.state.units,
                markers: view.state.markers,
                log: (view.log.into_iter())
                    .map(|entry| LogEntry {
                        action: entry.action,
                        events: entry.events,
                    })
                    .collect(),
            })
    };
    // asked only where it matters: in a step the computer decides (a person deciding is
    // waited for anyway; with nobody deciding, nobody is)
    let computer_decides = deciding.as_ref().is_some_and(|d| !humans.contains(d));
    let person_waited_for = computer_decides
        && humans.iter().any(|side| {
            e.legal_actions_where(Some(side), |k| k != "move" && k != "end_phase")
                .is_ok_and(|a| !a.is_empty())
        });
    // listed once, moves too: the moves are not shown as choices, but which units they name
    // says what can be done in this step (a set-up step offers no move to reinforcements due)
    let legal = e.legal_actions(None).map_err(|err| err.message);
    let acting = (legal.iter().flatten())
        .flat_map(queries::action_units)
        .collect();
    let moving =
        (legal.iter().flatten()).any(|a| a.kind == "move" || a.params.contains_key("path"));
    GameLook {
        deciding,
        actions: legal.map(|all| all.into_iter().filter(|a| a.kind != "move").collect()),
        acting,
        moving,
        person_waited_for,
        shown,
        outcome: super::phase::outcome_of(e),
        answers: queries::game_answers(e),
    }
}

pub(super) fn hover_text(
    e: &Engine,
    hex: Hex,
    action: &Action,
    cost: Option<Option<f64>>,
    split: &[(Vec<String>, f64)],
) -> String {
    let label = e.state().map.label(hex);
    match e.validate(action) {
        // a stack whose units pay differently: what each pays, each within its own allowance
        Ok(Ok(())) if split.len() > 1 && cost.is_some() => {
            let each: Vec<String> = split
                .iter()
                .map(|(units, mp)| format!("{} {} MP", units.join(", "), fmt_mp(*mp)))
                .collect();
            format!("{label}: {} — click to move", each.join("; "))
        }
        Ok(Ok(())) => match cost {
            Some(Some(c)) => format!("{label}: {} MP — click to move", fmt_mp(c)),
            Some(None) => format!("{label}: reachable — click to move"),
            None => format!("{label}: the rules accept this move"),
        },
        Ok(Err(rej)) => {
            let lines: Vec<String> = rej.reasons.iter().map(super::reason_text).collect();
            let text = lines.join("; ");
            // `cannot reach 0603: …` names its hex already
            if text.contains(&label) {
                text
            } else {
                format!("{label}: {text}")
            }
        }
        Err(err) => format!("{label}: the rules failed: {}", err.message),
    }
}
