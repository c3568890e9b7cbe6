//! What the play-test panel says of where the game stands: the step, the phasing side, the
//! turn or the named sequence being walked, and a decision the rules wait for.

use super::PlaySession;
use kessel_core::hex::Hex;
use kessel_core::state::Value;
use std::borrow::Cow;

/// What play-test says once the game has ended: nothing is left to click on the map.
pub const OVER_HELP: &str = "The game is over. New game plays it again (another seed for other rolls); in a campaign, Next game goes on.";

/// What play-test says once a game the rules said ends its campaign has ended.
pub const CAMPAIGN_OVER_HELP: &str =
    "The game is over, and the campaign with it (the campaign panel says why). New game plays it again (another seed for other rolls).";

/// What play-test says in a step with one choice and no unit to click (a phase where nothing may
/// be done but ending it).
pub const ONE_CHOICE_HELP: &str = "Nothing to click on the map in this step: its one choice is in the Choices list (the log says what the rules decided).";

/// What clicks do in play-test, before the rules have said what the step offers (and in a
/// step that moves units).
pub const MOVE_HELP: &str = "Click a stack, then a shaded hex to move it. Hover a hex to see why the stack can't go there. In a combat phase click your stacks, then the enemy stack to attack.";

impl PlaySession {
    /// What play-test says once the game has ended: whether a campaign's next game follows.
    pub fn over_help(&self) -> &'static str {
        if self.engine.state().campaign_ended.is_some() {
            CAMPAIGN_OVER_HELP
        } else {
            OVER_HELP
        }
    }

    /// What clicks do in the current step, as the mode's help says it: moving a stack where a
    /// legal action moves units; declaring an attack with the Attack clicks; else taking the
    /// step's choices (a set-up's placements, markers), from the list or, for units on the map,
    /// from the hexes their choices lead to.
    pub fn click_help(&self) -> Cow<'static, str> {
        if self.engine.state().finished {
            return self.over_help().into();
        }
        // a loss or a retreat to decide was told "no unit moves in this step: take its choices
        // (placing units or markers, say)", which named everything but the decision
        if let Some(help) = self
            .rules_said_whose_turn()
            .then(|| self.decision_help())
            .flatten()
        {
            return help.into();
        }
        if !self.rules_said_whose_turn() || self.moving {
            return MOVE_HELP.into();
        }
        if self.interaction == super::Interaction::Attack {
            return "Click your stacks to add attackers, then the enemy stack to attack; the odds show on the right.".into();
        }
        let on_map = self
            .acting
            .iter()
            .any(|id| self.units.get(id).is_some_and(|u| u.hex().is_some()));
        if self.hex_choices_iter().next().is_some() {
            // (an air marker's placement was a button among a thousand in the list)
            return "Click a hex to take the choice the rules offer there (hover shows it); on a stack, click it, then take it in the panel. Or take one from the Choices list.".into();
        }
        if on_map {
            // (not "no unit moves": a rule's own one-hex move, Pegasus Bridge's `pbx move`, is
            // such a choice, and the help said no unit moves beside 42 of them)
            "Click a stack to mark the hexes its choices lead to, then a marked hex to take one, or take one from the Choices list.".into()
        } else if self.actions.as_ref().is_ok_and(|a| a.len() == 1) {
            // a step whose one choice is to end it read "placing units or markers, say", and a
            // newcomer looked for units to place
            ONE_CHOICE_HELP.into()
        } else {
            "No unit moves in this step: take its choices (placing units or markers, say) from the Choices list.".into()
        }
    }

    /// What to do while the rules wait for a decision (a loss, a retreat's path, an advance):
    /// the decision in the rules' words, and where its choices are.
    pub fn decision_help(&self) -> Option<String> {
        let prompt = self.pending_prompt()?;
        let on_map = if self.hex_choices_iter().next().is_some() {
            " or click a hex marked on the map (hover shows the choice there)"
        } else {
            ""
        };
        Some(format!(
            "The rules wait for a decision — {prompt}. Take it from the Choices list{on_map}."
        ))
    }

    /// The current step, as players read it (`Red movement`).
    pub fn step_text(&self) -> String {
        let w = self.engine.world();
        match w.current_step() {
            Some(s) => s.name.clone(),
            None => format!("step {}", w.state.phase),
        }
    }

    /// The side whose step it is.
    pub fn phasing_side(&self) -> Option<String> {
        let w = self.engine.world();
        w.current_step().and_then(|s| s.side.clone())
    }

    /// "Turn 2 of 12 · Red movement (red) [T1]"; in a named sequence (a campaign's phase
    /// between two battles), "Refit Phase (Pegasus Bridge) · step 3 of 20 · Rally [9.603]".
    pub fn phase_text(&self) -> String {
        let w = self.engine.world();
        let s = &w.state;
        let mut t = match &s.mode {
            Some(mode) => format!(
                "{} · step {} of {}",
                w.ruleset
                    .modes
                    .get(mode)
                    .map_or_else(|| mode_title(mode), |n| n.title_of(mode)),
                s.phase + 1,
                w.current_steps().len()
            ),
            None => format!("Turn {} of {}", s.turn, s.last_turn),
        };
        if let Some(step) = w.current_step() {
            t.push_str(&format!(" · {}", step.name));
            if let Some(side) = &step.side {
                t.push_str(&format!(" ({side})"));
            }
            if let Some(rule) = &step.rule {
                t.push_str(&format!(" [{rule}]"));
            }
            let now = self.offered_apart(step.rule.as_deref());
            if let Some(now) = &now {
                t.push_str(&format!(" · now: {now}"));
            }
            // a decision inside another side's step (a defender's loss, a placement before the
            // phasing side moves) is said, so the header does not name the wrong side
            if self.rules_said_whose_turn() {
                if let Some(d) = self
                    .deciding
                    .as_ref()
                    .filter(|d| step.side.as_ref() != Some(*d))
                {
                    t.push_str(&format!(" · {d} to decide"));
                    // and what, when no prompt says it (a side placing markers in another
                    // side's step read "<side> to decide" and nothing of markers)
                    if let (None, None, Some(kinds)) =
                        (&now, self.pending_prompt(), self.few_kinds_offered())
                    {
                        t.push_str(&format!(": {kinds}"));
                    }
                }
            }
        }
        if s.finished {
            t.push_str(" · game over");
        }
        t
    }

    /// The kinds of choice offered, as words with their cases ("place marker [13], end air
    /// placement [13.2]"), when there are at most three and none moves a unit.
    fn few_kinds_offered(&self) -> Option<String> {
        if self.moving {
            return None;
        }
        let mut kinds: Vec<&str> = Vec::new();
        for a in self.actions.as_ref().ok()? {
            if !kinds.contains(&a.kind.as_str()) {
                kinds.push(&a.kind);
            }
        }
        if kinds.is_empty() || kinds.len() > 3 {
            return None;
        }
        let w = self.engine.world();
        let words: Vec<String> = kinds
            .iter()
            .map(|&k| {
                let rule = (w.ruleset.actions.iter())
                    .find(|d| d.kind == k)
                    .and_then(|d| d.rule.clone());
                match rule {
                    Some(r) => format!("{} [{r}]", k.replace('_', " ")),
                    None => k.replace('_', " "),
                }
            })
            .collect();
        Some(words.join(", "))
    }

    /// What the step offers, when it is a procedure of its own inside the step: two kinds of
    /// action or more, none of them a move, all under one rule case that is not the step's
    /// ("setup place, end setup [5.1]": a set-up held in the first movement step, which the
    /// header named alone while every choice was a placement). A lone kind is left out: it is
    /// mostly the step's own way on (an end of phase).
    fn offered_apart(&self, step_rule: Option<&str>) -> Option<String> {
        if self.moving || !self.rules_said_whose_turn() {
            return None;
        }
        let mut kinds: Vec<&str> = Vec::new();
        for a in self.actions.as_ref().ok()? {
            if !kinds.contains(&a.kind.as_str()) {
                kinds.push(&a.kind);
            }
        }
        let w = self.engine.world();
        let rule_of = |kind: &str| {
            (w.ruleset.actions.iter())
                .find(|d| d.kind == kind)
                .and_then(|d| d.rule.clone())
        };
        let rule = rule_of(kinds.first().copied()?)?;
        let one_case = kinds.iter().all(|&k| rule_of(k).as_ref() == Some(&rule));
        if kinds.len() < 2 || !one_case || step_rule == Some(rule.as_str()) {
            return None;
        }
        let words: Vec<String> = kinds.iter().map(|k| k.replace('_', " ")).collect();
        Some(format!("{} [{rule}]", words.join(", ")))
    }

    /// Why the rules would refuse the end of the current phase now, each reason with its case;
    /// empty when they would take it or cannot say (their error is the panel's to show).
    pub fn end_phase_blockers(&self) -> Vec<kessel_core::action::Reason> {
        match self
            .engine
            .validate(&kessel_core::action::Action::new("end_phase"))
        {
            Ok(Err(refused)) => refused.reasons,
            _ => Vec::new(),
        }
    }

    /// A decision the rules are waiting for, if they say so: the `prompt` of a rule variable
    /// named `pending` (the convention PGG follows), and where the units it names stand (its
    /// `units`): a player asked for a loss or a retreat after the computer's attack was not told
    /// which of their stacks it was about.
    pub fn pending_prompt(&self) -> Option<String> {
        let w = self.engine.world();
        let p = w.state.vars.get("pending")?;
        let prompt = p.get("prompt").and_then(Value::as_str)?.to_string();
        let side = p.get("side").and_then(Value::as_str);
        let ids = (p
            .get("units")
            .and_then(Value::as_array)
            .into_iter()
            .flatten())
        .filter_map(Value::as_str);
        let prompt = match self.units_where(ids).as_str() {
            "" => prompt,
            at => format!("{prompt} — {at}"),
        };
        Some(match side {
            Some(s) => format!("{s}: {prompt}"),
            None => prompt,
        })
    }

    /// "Guard (2 Corps), a unit of 3 Corps in 0319; …": units by the hex they stand in, as the
    /// side at the screen sees them (a unit whose name would give away its id goes by its
    /// formation or type).
    fn units_where<'a>(&self, ids: impl Iterator<Item = &'a str>) -> String {
        let mut by_hex: Vec<(Hex, Vec<String>)> = Vec::new();
        for id in ids {
            let Some(u) = self.units.get(id) else {
                continue;
            };
            let Some(hex) = u.hex() else { continue };
            let name = crate::panels::log::unit_log_name(u).unwrap_or_else(|| match &u.formation {
                Some(f) if !f.is_empty() => format!("a unit of {f}"),
                _ => format!("a {}", u.kind),
            });
            match by_hex.iter_mut().find(|(h, _)| *h == hex) {
                Some((_, names)) => names.push(name),
                None => by_hex.push((hex, vec![name])),
            }
        }
        let parts: Vec<String> = (by_hex.iter())
            .map(|(h, names)| format!("{} in {}", counted(names), self.map.label(*h)))
            .collect();
        parts.join("; ")
    }
}

/// Names listed once each, the same name said again counted: "a unit of 2 Corps, a unit of 2
/// Corps" reads "2 units of 2 Corps".
fn counted(names: &[String]) -> String {
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for n in names {
        match seen.iter_mut().find(|(m, _)| m == n) {
            Some((_, k)) => *k += 1,
            None => seen.push((n, 1)),
        }
    }
    let said: Vec<String> = (seen.into_iter())
        .map(|(n, k)| match (k, n.strip_prefix("a unit of ")) {
            (1, _) => n.to_string(),
            (_, Some(of)) => format!("{k} units of {of}"),
            (_, None) => format!("{n} ×{k}"),
        })
        .collect();
    said.join(", ")
}

/// A sequence's id as a title when the ruleset gives none: `refit` → `Refit`, `night_phase` →
/// `Night phase`.
pub fn mode_title(mode: &str) -> String {
    kessel_core::ruleset::id_as_title(mode)
}

/// How a game stands, as the `result` hook says (`{ level, scores = { side = n } }`), in one
/// line: "Blue win · red 0"; `None` when the rules give no result.
pub fn outcome_text(result: Option<&kessel_core::state::Value>) -> Option<String> {
    let r = result?;
    let level = r.get("level").and_then(|l| l.as_str());
    let scores: Vec<String> = (r.get("scores").and_then(|s| s.as_object()))
        .map(|o| o.iter().map(|(side, n)| format!("{side} {n}")).collect())
        .unwrap_or_default();
    let mut parts: Vec<String> = level.map(str::to_string).into_iter().collect();
    if !scores.is_empty() {
        parts.push(scores.join(", "));
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// Once the game has ended, how it stands (see [`outcome_text`]), or why the rules' `result`
/// hook failed; `None` while it goes on. Asked on the rules' thread with the game's look.
pub fn outcome_of(e: &kessel_core::engine::Engine) -> Option<Result<String, String>> {
    e.state().finished.then(|| {
        (e.result())
            .map(|r| outcome_text(r.as_ref()).unwrap_or_else(|| "the rules give no result".into()))
            .map_err(|err| err.message)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn sequence_ids_read_as_titles() {
        assert_eq!(super::mode_title("refit"), "Refit");
        assert_eq!(super::mode_title("night_phase"), "Night phase");
        assert_eq!(super::mode_title(""), "");
    }

    #[test]
    fn the_same_unnamed_unit_said_again_is_counted() {
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let said = |list: &[&str]| super::counted(&names(list));
        assert_eq!(
            said(&["Guard (2 Corps)", "a unit of 2 Corps", "a unit of 2 Corps"]),
            "Guard (2 Corps), 2 units of 2 Corps"
        );
        assert_eq!(said(&["a unit of 2 Corps"]), "a unit of 2 Corps");
        assert_eq!(said(&["a tank", "a tank"]), "a tank ×2");
    }
}
