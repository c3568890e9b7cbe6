//! Play-test selection: the stack (or the reinforcements waiting on an entry area) a click picks,
//! the units of it that take part, and asking the rules where they can go.

use super::PlaySession;
use kessel_core::hex::Hex;

impl PlaySession {
    /// Selects the stack in `hex`: its units of the phasing side take part (all of them when
    /// none belongs to it, so the panel still shows why they can't move).
    pub fn select(&mut self, hex: Hex) {
        let phasing = self.phasing_side();
        let stack: Vec<_> = self.units.stack(hex).collect();
        let mine: Vec<String> = stack
            .iter()
            .filter(|u| Some(&u.side) == phasing.as_ref())
            .map(|u| u.id.clone())
            .collect();
        // a hex of an entry area where the phasing side's reinforcements wait: pick them, so
        // the rules say where they may come on (none of that side's units stand there)
        let waiting = if mine.is_empty() {
            self.waiting_at(hex)
        } else {
            Vec::new()
        };
        self.picked = if !waiting.is_empty() {
            waiting.clone()
        } else if mine.is_empty() {
            stack.iter().map(|u| u.id.clone()).collect()
        } else {
            mine
        };
        self.selected = (!stack.is_empty() || !waiting.is_empty()).then_some(hex);
        self.forget_why();
        self.update_reach();
    }

    /// The phasing side's reinforcements due by this turn, not yet entered, whose entry area
    /// holds `hex` (the units a click there picks).
    pub fn waiting_at(&self, hex: Hex) -> Vec<String> {
        self.waiting_where(|area| {
            self.map
                .areas
                .get(area)
                .is_some_and(|a| a.hexes.contains(&hex))
        })
    }

    /// The phasing side's reinforcements due by this turn and not yet entered, anywhere, when
    /// the rules offer moves now (none in a step that offers none, such as a set-up).
    pub fn waiting_count(&self) -> usize {
        self.waiting_where(|_| true).len()
    }

    /// The middle hex of the entry area of the first reinforcement [`Self::waiting_count`]
    /// counts: where a click picks them.
    pub fn first_waiting_hex(&self) -> Option<Hex> {
        let id = self.waiting_where(|_| true).into_iter().next()?;
        let area = self.units.get(&id)?.entry.as_ref()?.area.clone();
        let hexes = &self.map.areas.get(&area)?.hexes;
        hexes.get(hexes.len() / 2).copied()
    }

    fn waiting_where(&self, area: impl Fn(&str) -> bool) -> Vec<String> {
        let Some(side) = self.phasing_side() else {
            return Vec::new();
        };
        let turn = self.engine.state().turn;
        self.units
            .off_map()
            .filter(|u| u.side == side && u.location == kessel_core::state::Location::Pending)
            .filter(|_| self.moving)
            .filter(|u| {
                u.entry
                    .as_ref()
                    .is_some_and(|e| e.turn <= turn && area(&e.area))
            })
            .map(|u| u.id.clone())
            .collect()
    }

    /// True when the picked units are reinforcements waiting to enter (selected on their
    /// entry area).
    pub fn picked_waiting(&self) -> bool {
        let state = self.engine.state();
        !self.picked.is_empty()
            && self.picked.iter().all(|id| {
                state
                    .unit(id)
                    .is_some_and(|u| u.location == kessel_core::state::Location::Pending)
            })
    }

    /// Clears the selection and the attack being declared.
    pub fn clear_selection(&mut self) {
        self.selected = None;
        self.picked.clear();
        self.reach = None;
        self.attackers.clear();
        self.targets.clear();
        self.odds = None;
        self.unit_answers = None;
        self.forget_why();
    }

    /// Picks or drops one unit of the selected stack.
    pub fn toggle_picked(&mut self, id: &str) {
        if let Some(i) = self.picked.iter().position(|p| p == id) {
            self.picked.remove(i);
        } else {
            self.picked.push(id.to_string());
        }
        self.forget_why();
        self.update_reach();
    }

    pub(super) fn update_reach(&mut self) {
        // worked out on the rules' thread; nothing is shown for the selection until it is back
        self.reach = None;
        self.unit_answers = None;
        self.wanted.reach = !self.picked.is_empty();
    }
}
