//! Movement fields: every hex a stack can reach with its budget, the cheapest cost and path to it,
//! and for every hex it cannot reach, why.
//!
//! Costs are declared by the ruleset as data ([`CostModel`], compiled per movement class and side)
//! and evaluated here natively with Dijkstra; rule exceptions come in as dense per-hex sets (stop,
//! forbid, surcharge) that the rules build once per query, plus an optional hook for the rare case
//! no data can express.

use crate::action::Reason;
use crate::hex::{Hex, HexDir};
use crate::map::Map;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Movement points in fixed point: one MP is [`Cost::SCALE`] units, so half- and third-MP costs
/// stay exact and deterministic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Cost(pub u32);

impl Cost {
    /// Units per movement point.
    pub const SCALE: u32 = 120;
    /// Unreachable.
    pub const INFINITE: Cost = Cost(u32::MAX);

    /// From (possibly fractional) MP, rounded to the nearest unit.
    pub fn from_mp(mp: f64) -> Cost {
        Cost((mp * Self::SCALE as f64).round().max(0.0) as u32)
    }

    /// As MP.
    pub fn mp(self) -> f64 {
        self.0 as f64 / Self::SCALE as f64
    }
}

/// What entering something costs a class: a cost, or a prohibition with its reason.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    /// Costs this much.
    Cost(Cost),
    /// May not be entered / crossed.
    Prohibited(Reason),
}

/// A road-like link's effect for one class.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkRate {
    /// Hexside-kind bit of the link.
    pub bit: u32,
    /// Cost of moving along it (replaces the terrain cost of the hex entered).
    pub cost: Cost,
    /// Hexside-kind bits whose crossing cost the link cancels (a bridge); 0 if none.
    pub bridges: u32,
}

/// Costs for one movement class and side on one map, compiled from the ruleset's declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct CostModel {
    /// Entry per terrain id of the map's catalog.
    pub terrain: Vec<Entry>,
    /// Extra cost (or prohibition) per hexside kind id crossed.
    pub sides: Vec<Option<Entry>>,
    /// Links usable by this class, best first.
    pub links: Vec<LinkRate>,
}

impl CostModel {
    /// Cost to step `from → to` across `side_bits`, ignoring per-query sets.
    #[inline]
    pub fn step(&self, side_bits: u32, to_terrain: u16) -> Result<Cost, &Reason> {
        let mut bridged = 0u32;
        let mut base: Option<Cost> = None;
        for link in &self.links {
            if side_bits & link.bit != 0 {
                base = Some(link.cost);
                bridged = link.bridges;
                break;
            }
        }
        let base = match base {
            Some(c) => c,
            None => match self.terrain.get(to_terrain as usize) {
                Some(Entry::Cost(c)) => *c,
                Some(Entry::Prohibited(r)) => return Err(r),
                None => Cost(Cost::SCALE),
            },
        };
        let mut total = base.0;
        let mut bits = side_bits & !bridged;
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            match self.sides.get(k) {
                Some(Some(Entry::Cost(c))) => total = total.saturating_add(c.0),
                Some(Some(Entry::Prohibited(r))) => return Err(r),
                _ => {}
            }
        }
        Ok(Cost(total))
    }
}

/// Per-query rule inputs, dense by map index.
#[derive(Clone, Debug, Default)]
pub struct FieldRules {
    /// Entering these hexes ends movement (enemy ZOC): index into `reasons`.
    pub stop: Vec<Option<u16>>,
    /// These hexes may not be entered: index into `reasons`.
    pub forbid: Vec<Option<u16>>,
    /// Extra cost to enter (interdiction markers).
    pub surcharge: Vec<u32>,
    /// The reasons the sets refer to.
    pub reasons: Vec<Reason>,
}

impl FieldRules {
    /// Empty rules for a map of `n` hexes.
    pub fn new(n: usize) -> FieldRules {
        FieldRules {
            stop: vec![None; n],
            forbid: vec![None; n],
            surcharge: vec![0; n],
            reasons: Vec::new(),
        }
    }

    /// Registers a reason and returns its index.
    pub fn reason(&mut self, reason: Reason) -> u16 {
        if let Some(i) = self.reasons.iter().position(|r| *r == reason) {
            return i as u16;
        }
        self.reasons.push(reason);
        (self.reasons.len() - 1) as u16
    }
}

/// Why a hex is not in the field.
#[derive(Clone, Debug, PartialEq)]
pub enum Unreachable {
    /// A rule forbids entering it.
    Forbidden(Reason),
    /// The cheapest way in costs more than the budget left.
    TooFar {
        /// Cost to get there.
        needed: Cost,
        /// The budget.
        budget: Cost,
    },
    /// Every way in passes through a hex where movement must stop: the rule, and that hex.
    BeyondStop(Reason, Hex),
    /// The stack may not leave its hex at all.
    CannotLeave(Reason),
    /// No way in at all (enclosed by prohibited terrain or the map edge).
    NoPath,
    /// Never approached: every way there is longer than the budget.
    OutOfReach {
        /// The budget.
        budget: Cost,
    },
}

/// An optional rule hook: given `(from, to, cost so far, step cost)`, return `Ok(Some(cost))` to
/// replace the step cost, `Ok(None)` to keep it, or `Err(reason)` to forbid the step.
pub type StepHook<'a> = dyn FnMut(Hex, Hex, Cost, Cost) -> Result<Option<Cost>, Reason> + 'a;

/// The result of a movement query.
#[derive(Clone, Debug)]
pub struct MovementField {
    start: Hex,
    budget: Cost,
    cost: Vec<u32>,
    parent: Vec<u32>,
    stops: Vec<bool>,
    /// Cheapest refused attempt per hex: (cost it would have had, reason index or NO_REASON).
    attempt: Vec<(u32, Attempt)>,
    reasons: Vec<Reason>,
    cannot_leave: Option<Reason>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Attempt {
    None,
    Budget,
    Forbidden(u16),
    Terrain(u16),
    BeyondStop(u16, u32),
}

const NONE: u32 = u32::MAX;

impl MovementField {
    /// Start hex.
    pub fn start(&self) -> Hex {
        self.start
    }

    /// Budget of the query.
    pub fn budget(&self) -> Cost {
        self.budget
    }

    /// Cost to reach a hex, if reachable.
    pub fn cost(&self, map: &Map, hex: Hex) -> Option<Cost> {
        let i = map.index(hex)?;
        (self.cost[i] != NONE).then_some(Cost(self.cost[i]))
    }

    /// True if movement ends on entering the hex (it is still reachable).
    pub fn stops_at(&self, map: &Map, hex: Hex) -> bool {
        map.index(hex).is_some_and(|i| self.stops[i])
    }

    /// The cheapest path from the start to `hex` (start excluded), if reachable.
    pub fn path_to(&self, map: &Map, hex: Hex) -> Option<Vec<Hex>> {
        let mut i = map.index(hex)?;
        if self.cost[i] == NONE {
            return None;
        }
        let mut path = Vec::new();
        while map.hex_of_index(i) != self.start {
            path.push(map.hex_of_index(i));
            i = self.parent[i] as usize;
        }
        path.reverse();
        Some(path)
    }

    /// Every reachable hex (start excluded) with its cost, in map order.
    pub fn reachable(&self, map: &Map) -> Vec<(Hex, Cost)> {
        (0..self.cost.len())
            .filter(|&i| self.cost[i] != NONE)
            .map(|i| (map.hex_of_index(i), Cost(self.cost[i])))
            .filter(|(h, _)| *h != self.start)
            .collect()
    }

    /// Why a hex cannot be reached, or `None` if it can.
    pub fn why_not(&self, map: &Map, hex: Hex) -> Option<Unreachable> {
        let Some(i) = map.index(hex) else {
            return Some(Unreachable::NoPath);
        };
        if self.cost[i] != NONE {
            return None;
        }
        if let Some(r) = &self.cannot_leave {
            return Some(Unreachable::CannotLeave(r.clone()));
        }
        let (needed, attempt) = self.attempt[i];
        Some(match attempt {
            Attempt::None => Unreachable::OutOfReach {
                budget: self.budget,
            },
            Attempt::Budget => Unreachable::TooFar {
                needed: Cost(needed),
                budget: self.budget,
            },
            Attempt::Forbidden(r) | Attempt::Terrain(r) => {
                Unreachable::Forbidden(self.reasons[r as usize].clone())
            }
            Attempt::BeyondStop(r, at) => Unreachable::BeyondStop(
                self.reasons[r as usize].clone(),
                map.hex_of_index(at as usize),
            ),
        })
    }
}

fn intern(reasons: &mut Vec<Reason>, reason: &Reason) -> u16 {
    match reasons.iter().position(|r| r == reason) {
        Some(i) => i as u16,
        None => {
            reasons.push(reason.clone());
            (reasons.len() - 1) as u16
        }
    }
}

/// Computes the movement field of a stack at `start` with `budget`.
///
/// `cannot_leave` (e.g. "starts in an enemy ZOC") empties the field with that reason.
pub fn movement_field(
    map: &Map,
    start: Hex,
    budget: Cost,
    model: &CostModel,
    rules: &FieldRules,
    cannot_leave: Option<Reason>,
    mut hook: Option<&mut StepHook<'_>>,
) -> MovementField {
    let n = map.len();
    let mut reasons = rules.reasons.clone();
    let mut field = MovementField {
        start,
        budget,
        cost: vec![NONE; n],
        parent: vec![NONE; n],
        stops: vec![false; n],
        attempt: vec![(NONE, Attempt::None); n],
        reasons: Vec::new(),
        cannot_leave: cannot_leave.clone(),
    };
    let Some(si) = map.index(start) else {
        field.reasons = reasons;
        return field;
    };
    field.cost[si] = 0;
    if cannot_leave.is_some() {
        field.reasons = reasons;
        return field;
    }
    let terrain = map.terrain_slice();
    let mut heap = BinaryHeap::new();
    heap.push(Reverse((0u32, si as u32)));
    let mut done = vec![false; n];
    let note = |attempt: &mut (u32, Attempt), cost: u32, why: Attempt| {
        // keep the cheapest attempt; forbidden beats budget at equal cost (it is the real cause)
        if cost < attempt.0 || attempt.1 == Attempt::None {
            *attempt = (cost, why);
        }
    };
    while let Some(Reverse((c, i))) = heap.pop() {
        let i = i as usize;
        if done[i] || c != field.cost[i] {
            continue;
        }
        done[i] = true;
        let here = map.hex_of_index(i);
        let stop_here = i != si && field.stops[i];
        for dir in HexDir::ALL {
            let to = here.neighbor(dir);
            let Some(j) = map.index(to) else { continue };
            if done[j] {
                continue;
            }
            if stop_here {
                let r = rules.stop[i].unwrap_or(0);
                note(&mut field.attempt[j], c, Attempt::BeyondStop(r, i as u32));
                continue;
            }
            if let Some(r) = rules.forbid[j] {
                note(&mut field.attempt[j], c, Attempt::Forbidden(r));
                continue;
            }
            let side = map.side_bits(here.side(dir));
            let step = match model.step(side, terrain[j]) {
                Ok(s) => s,
                Err(reason) => {
                    let r = intern(&mut reasons, reason);
                    note(&mut field.attempt[j], c, Attempt::Terrain(r));
                    continue;
                }
            };
            let mut step = Cost(step.0.saturating_add(rules.surcharge[j]));
            if let Some(h) = hook.as_deref_mut() {
                match h(here, to, Cost(c), step) {
                    Ok(Some(s)) => step = s,
                    Ok(None) => {}
                    Err(reason) => {
                        let r = intern(&mut reasons, &reason);
                        note(&mut field.attempt[j], c, Attempt::Forbidden(r));
                        continue;
                    }
                }
            }
            let nc = c.saturating_add(step.0);
            if nc > budget.0 {
                note(&mut field.attempt[j], nc, Attempt::Budget);
                continue;
            }
            if nc < field.cost[j] {
                field.cost[j] = nc;
                field.parent[j] = i as u32;
                field.stops[j] = rules.stop[j].is_some();
                heap.push(Reverse((nc, j as u32)));
            }
        }
    }
    explain_beyond_stops(map, budget, model, rules, &mut field, &done);
    field.reasons = reasons;
    field
}

/// For hexes never approached, finds out whether they would be in reach but for a stop hex (an
/// enemy zone of control, say), so `why_not` names that rule rather than "out of reach": a second
/// search that goes on through stop hexes, remembering the first stop a path left. A hex it reaches
/// within the budget that the real search did not reach lies behind a stop.
fn explain_beyond_stops(
    map: &Map,
    budget: Cost,
    model: &CostModel,
    rules: &FieldRules,
    field: &mut MovementField,
    reached: &[bool],
) {
    if !field.stops.iter().any(|s| *s) {
        return;
    }
    let terrain = map.terrain_slice();
    let n = map.len();
    let mut cost = vec![NONE; n];
    let mut origin: Vec<Option<(u16, u32)>> = vec![None; n];
    let mut heap = BinaryHeap::new();
    let Some(si) = map.index(field.start) else {
        return;
    };
    cost[si] = 0;
    heap.push(Reverse((0u32, si as u32)));
    while let Some(Reverse((c, i))) = heap.pop() {
        let i = i as usize;
        if c != cost[i] {
            continue;
        }
        let here = map.hex_of_index(i);
        for dir in HexDir::ALL {
            let to = here.neighbor(dir);
            let Some(j) = map.index(to) else { continue };
            if rules.forbid[j].is_some() {
                continue;
            }
            let Ok(step) = model.step(map.side_bits(here.side(dir)), terrain[j]) else {
                continue;
            };
            let nc = c.saturating_add(step.0.saturating_add(rules.surcharge[j]));
            if nc <= budget.0 && nc < cost[j] {
                cost[j] = nc;
                // the first stop hex this path left, if any
                origin[j] = origin[i].or(if i != si {
                    rules.stop[i].map(|r| (r, i as u32))
                } else {
                    None
                });
                heap.push(Reverse((nc, j as u32)));
                if reached[j] {
                    continue;
                }
                if let (Some((r, at)), Attempt::None | Attempt::Budget) =
                    (origin[j], field.attempt[j].1)
                {
                    field.attempt[j] = (nc, Attempt::BeyondStop(r, at));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numbering::Numbering;

    fn reason(m: &str) -> Reason {
        Reason {
            rule: Some("1.1".into()),
            message: m.into(),
        }
    }

    fn setup() -> (Map, CostModel) {
        let mut map = Map::new("t", 9, 9, Numbering::default(), "clear");
        map.terrains.intern("forest");
        map.terrains.intern("lake");
        map.side_kinds.intern("river");
        map.side_kinds.intern("road");
        let model = CostModel {
            terrain: vec![
                Entry::Cost(Cost::from_mp(1.0)),
                Entry::Cost(Cost::from_mp(2.0)),
                Entry::Prohibited(reason("lake")),
            ],
            sides: vec![Some(Entry::Cost(Cost::from_mp(2.0))), None],
            links: vec![LinkRate {
                bit: 1 << 1,
                cost: Cost::from_mp(0.5),
                bridges: 0,
            }],
        };
        (map, model)
    }

    fn h(map: &Map, l: &str) -> Hex {
        map.parse(l).expect("label")
    }

    #[test]
    fn open_ground_costs_one_per_hex() {
        let (map, model) = setup();
        let rules = FieldRules::new(map.len());
        let s = h(&map, "0505");
        let f = movement_field(&map, s, Cost::from_mp(3.0), &model, &rules, None, None);
        assert_eq!(f.cost(&map, h(&map, "0508")), Some(Cost::from_mp(3.0)));
        assert_eq!(f.reachable(&map).len(), 36);
        assert!(matches!(
            f.why_not(&map, h(&map, "0509")),
            Some(Unreachable::TooFar { .. })
        ));
    }

    #[test]
    fn roads_rivers_lakes_and_stops() {
        let (mut map, model) = setup();
        let s = h(&map, "0505");
        let path: Vec<Hex> = ["0505", "0506", "0507", "0508"]
            .iter()
            .map(|l| h(&map, l))
            .collect();
        map.add_link("road", None, path).expect("road");
        map.set_terrain(h(&map, "0405"), "lake").expect("lake");
        map.set_side(s, h(&map, "0605"), "river", true)
            .expect("river");
        let mut rules = FieldRules::new(map.len());
        let r = rules.reason(reason("enemy ZOC"));
        rules.stop[map.index(h(&map, "0504")).expect("i")] = Some(r);
        let f = movement_field(&map, s, Cost::from_mp(3.0), &model, &rules, None, None);
        // three road hexes for 1.5 MP
        assert_eq!(f.cost(&map, h(&map, "0508")), Some(Cost::from_mp(1.5)));
        // straight across the river: 1 + 2 = 3; round it by the road: 0.5 + 1
        assert_eq!(f.cost(&map, h(&map, "0605")), Some(Cost::from_mp(1.5)));
        assert_eq!(
            f.path_to(&map, h(&map, "0605")),
            Some(vec![h(&map, "0506"), h(&map, "0605")])
        );
        assert_eq!(
            f.why_not(&map, h(&map, "0405")),
            Some(Unreachable::Forbidden(reason("lake")))
        );
        // 0504 reachable but stops; beyond it is not
        assert!(f.stops_at(&map, h(&map, "0504")));
        // two hexes behind the stop: still explained by the stop, not "out of reach"
        assert!(matches!(
            f.why_not(&map, h(&map, "0502")),
            Some(Unreachable::BeyondStop(..))
        ));
        let p = f.path_to(&map, h(&map, "0507")).expect("path");
        assert_eq!(p.len(), 2);
    }

    #[test]
    fn hook_can_forbid_a_step() {
        let (map, model) = setup();
        let rules = FieldRules::new(map.len());
        let s = h(&map, "0505");
        let blocked = h(&map, "0506");
        let mut hook = |_f: Hex, to: Hex, _c: Cost, _s: Cost| {
            if to == blocked {
                Err(reason("hook says no"))
            } else {
                Ok(None)
            }
        };
        let f = movement_field(
            &map,
            s,
            Cost::from_mp(1.0),
            &model,
            &rules,
            None,
            Some(&mut hook),
        );
        assert_eq!(
            f.why_not(&map, blocked),
            Some(Unreachable::Forbidden(reason("hook says no")))
        );
        let cl = movement_field(
            &map,
            s,
            Cost::from_mp(5.0),
            &model,
            &rules,
            Some(reason("in ZOC")),
            None,
        );
        assert!(cl.reachable(&map).is_empty());
    }
}
