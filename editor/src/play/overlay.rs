//! What the map draws for the play-test: the selected stack's reach, the attack being declared,
//! the previewed action and the explanation of the hovered hex.

use super::{Interaction, PlaySession};
use crate::map_view::Overlay;
use kessel_core::hex::Hex;

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
        if let Some(h) = hovered {
            if let Some(t) = self.why.get(&h) {
                o.tooltip = Some((h, t.clone()));
            }
        }
        o
    }
}
