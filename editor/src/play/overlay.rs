//! What the map draws for the play-test: the selected stack's reach and its other choices (rail
//! moves and the like, as destinations), reinforcements due, the attack being declared, the
//! previewed action and the explanation of the hovered hex.

use super::queries::{action_hexes, action_units};
use super::{Interaction, PlaySession};
use crate::map_view::Overlay;
use kessel_core::action::Action;
use kessel_core::hex::Hex;
use kessel_core::state::Location;
use std::collections::BTreeMap;

impl PlaySession {
    /// What the map draws for the play-test.
    pub fn overlay(&self, hovered: Option<Hex>) -> Overlay {
        let state_units = &self.units;
        let hex_of = |id: &String| state_units.get(id).and_then(|u| u.hex());
        let mut o = Overlay {
            origin: self.selected,
            attackers: self.attackers.iter().filter_map(hex_of).collect(),
            targets: self.targets.iter().copied().collect(),
            preview: self.preview.clone(),
            ..Overlay::default()
        };
        if self.interaction == Interaction::Move {
            if let Some(Ok(r)) = &self.reach {
                o.reachable = r.costs.clone();
            }
        } else {
            o.origin = None;
        }
        if self.interaction == Interaction::Move {
            for (h, a) in self.choices_on_map() {
                o.choices.entry(h).or_default().push(self.describe(&a));
            }
        }
        o.entries = self.entries_due();
        o.trails = self.shown_trails();
        if let Some(h) = hovered {
            if let Some(t) = self.why.get(&h) {
                o.tooltip = Some((h, t.clone()));
            } else if let Some(list) = o.choices.get(&h) {
                o.tooltip = Some((h, format!("{} — click to take it", list.join("; "))));
            } else if let Some(a) = self.hex_choice_at(h) {
                o.tooltip = Some((h, format!("{} — click to take it", self.describe(&a))));
            }
        }
        o
    }

    /// What the status bar says of the hex under the pointer: why the selection can't go there,
    /// or the choice a click there takes.
    pub fn hover_note(&self) -> Option<String> {
        let h = self.hovered?;
        match self.hovered_text() {
            Some(t) => Some(t.to_string()),
            None => {
                (self.hex_choice_at(h)).map(|a| format!("{} — click to take it", self.describe(&a)))
            }
        }
    }

    /// The choices that name hexes and no unit (an air marker placed in a hex, say), by the last
    /// hex they name: a click on that hex takes one when no stack is selected and none stands
    /// there (a stack's hex selects the stack; the panel then lists that hex's choices). No ring
    /// marks them on the map: such a choice may be open on most of the map at once.
    pub fn hex_choices(&self) -> Vec<(Hex, &Action)> {
        self.hex_choices_iter().collect()
    }

    /// [`Self::hex_choices`] as they are found (the panel's help only asks whether there is one,
    /// every frame: nothing is gathered or copied for it).
    pub(super) fn hex_choices_iter(&self) -> impl Iterator<Item = (Hex, &Action)> {
        (self.actions.iter().flatten())
            .filter(|a| action_units(a).is_empty())
            .filter_map(|a| Some((*action_hexes(&self.engine, a).last()?, a)))
    }

    /// The one choice naming `hex` and no unit that a click on `hex` takes: only with no stack
    /// selected and no unit standing there, and only when it is the hex's one such choice.
    pub fn hex_choice_at(&self, hex: Hex) -> Option<Action> {
        if !self.picked.is_empty() || self.units.stack(hex).next().is_some() {
            return None;
        }
        let mut here = self.hex_choices_iter().filter(|(h, _)| *h == hex);
        match (here.next(), here.next()) {
            (Some((_, a)), None) => Some(a.clone()),
            _ => None,
        }
    }

    /// The selected units' choices other than moving, by the hex they end in (the last hex the
    /// action names).
    pub fn choices_on_map(&self) -> Vec<(Hex, Action)> {
        let Ok(actions) = &self.actions else {
            return Vec::new();
        };
        actions
            .iter()
            .filter(|a| action_units(a).iter().any(|u| self.picked.contains(u)))
            .filter_map(|a| {
                let end = *action_hexes(&self.engine, a).last()?;
                (self.selected != Some(end)).then(|| (end, a.clone()))
            })
            .collect()
    }

    /// The one choice of the selected units ending in `hex`, if there is exactly one.
    pub fn choice_at(&self, hex: Hex) -> Option<Action> {
        let mut here = self.choices_on_map().into_iter().filter(|(h, _)| *h == hex);
        match (here.next(), here.next()) {
            (Some((_, a)), None) => Some(a),
            _ => None,
        }
    }

    /// Reinforcements due by the current turn and not yet entered, when the rules offer moves
    /// (a step that offers none, such as a set-up, shows none): every hex of their entry
    /// areas, with the number waiting on the area's middle hex (0 on the others).
    fn entries_due(&self) -> BTreeMap<Hex, usize> {
        let turn = self.engine.state().turn;
        let mut waiting: BTreeMap<&str, usize> = BTreeMap::new();
        for u in self.units.off_map() {
            if let (Location::Pending, Some(e)) = (&u.location, &u.entry) {
                if e.turn <= turn && self.moving {
                    *waiting.entry(e.area.as_str()).or_default() += 1;
                }
            }
        }
        let mut out = BTreeMap::new();
        for (area, n) in waiting {
            let Some(a) = self.map.areas.get(area) else {
                continue;
            };
            for h in &a.hexes {
                out.entry(*h).or_insert(0);
            }
            if let Some(mid) = a.hexes.get(a.hexes.len() / 2) {
                out.insert(*mid, n);
            }
        }
        out
    }
}
