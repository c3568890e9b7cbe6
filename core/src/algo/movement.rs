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
    /// The most MP a search counts (35,791,394 and a fraction): a cost past it reads as
    /// unreachable, so a rule's own cost (`kessel.emit.move`) or a declared one is held to it.
    pub const MOST_MP: f64 = (u32::MAX - 1) as f64 / Self::SCALE as f64;

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

/// The result of a movement query. It keeps only the hexes the search touched (a few hundred
/// of a map of thousands), sorted by map index: what was reached, and for the others the cheapest
/// refused attempt; every other hex was never approached.
#[derive(Clone, Debug)]
pub struct MovementField {
    start: Hex,
    budget: Cost,
    /// Reached hexes (the start included), by map index.
    reached: Vec<Reached>,
    /// Hexes not reached that a step was refused into: (map index, cost it would have had, why).
    attempts: Vec<(u32, u32, Attempt)>,
    reasons: Vec<Reason>,
    cannot_leave: Option<Reason>,
}

/// A reached hex: its map index, cost, the index it was entered from, and whether movement
/// stops there.
#[derive(Clone, Copy, Debug)]
struct Reached {
    index: u32,
    cost: u32,
    parent: u32,
    stops: bool,
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
    /// About the bytes the field keeps on the heap: its reached and refused hexes and the text of
    /// its reasons.
    pub fn heap_bytes(&self) -> usize {
        let reason = |r: &Reason| {
            std::mem::size_of::<Reason>()
                + r.message.capacity()
                + r.rule.as_ref().map_or(0, String::capacity)
        };
        self.reached.capacity() * std::mem::size_of::<Reached>()
            + self.attempts.capacity() * std::mem::size_of::<(u32, u32, Attempt)>()
            + self.reasons.iter().map(reason).sum::<usize>()
            + self.cannot_leave.as_ref().map_or(0, reason)
    }

    /// Start hex.
    pub fn start(&self) -> Hex {
        self.start
    }

    /// Budget of the query.
    pub fn budget(&self) -> Cost {
        self.budget
    }

    fn reached_at(&self, map: &Map, hex: Hex) -> Option<&Reached> {
        let i = map.index(hex)? as u32;
        self.reached_index(i)
    }

    fn reached_index(&self, i: u32) -> Option<&Reached> {
        self.reached
            .binary_search_by_key(&i, |r| r.index)
            .ok()
            .map(|k| &self.reached[k])
    }

    /// Cost to reach a hex, if reachable.
    pub fn cost(&self, map: &Map, hex: Hex) -> Option<Cost> {
        self.reached_at(map, hex).map(|r| Cost(r.cost))
    }

    /// True if movement ends on entering the hex (it is still reachable).
    pub fn stops_at(&self, map: &Map, hex: Hex) -> bool {
        self.reached_at(map, hex).is_some_and(|r| r.stops)
    }

    /// The cheapest path from the start to `hex` (start excluded), if reachable.
    pub fn path_to(&self, map: &Map, hex: Hex) -> Option<Vec<Hex>> {
        let mut at = *self.reached_at(map, hex)?;
        let mut path = Vec::new();
        while map.hex_of_index(at.index as usize) != self.start {
            path.push(map.hex_of_index(at.index as usize));
            at = *self.reached_index(at.parent)?;
        }
        path.reverse();
        Some(path)
    }

    /// Every reachable hex (start excluded) with its cost, in map order.
    pub fn reachable(&self, map: &Map) -> Vec<(Hex, Cost)> {
        self.reached
            .iter()
            .map(|r| (map.hex_of_index(r.index as usize), Cost(r.cost)))
            .filter(|(h, _)| *h != self.start)
            .collect()
    }

    /// Why a hex cannot be reached, or `None` if it can.
    pub fn why_not(&self, map: &Map, hex: Hex) -> Option<Unreachable> {
        let Some(i) = map.index(hex) else {
            return Some(Unreachable::NoPath);
        };
        if self.reached_index(i as u32).is_some() {
            return None;
        }
        if let Some(r) = &self.cannot_leave {
            return Some(Unreachable::CannotLeave(r.clone()));
        }
        let (needed, attempt) = self
            .attempts
            .binary_search_by_key(&(i as u32), |a| a.0)
            .map_or((NONE, Attempt::None), |k| {
                (self.attempts[k].1, self.attempts[k].2)
            });
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

/// One hex's state during a search.
#[derive(Clone, Copy)]
struct Slot {
    cost: u32,
    parent: u32,
    stops: bool,
    done: bool,
    attempt: (u32, Attempt),
}

const FRESH: Slot = Slot {
    cost: NONE,
    parent: NONE,
    stops: false,
    done: false,
    attempt: (NONE, Attempt::None),
};

/// Dense per-hex buffers a search works in, kept per thread and reused. A search touches a few
/// hundred hexes of a map of thousands: allocating and clearing whole-map arrays for each one (and
/// keeping them in every field a script holds) cost more than the search. A slot is fresh unless
/// its stamp is the current search's; the touched slots are listed for the copy-out.
#[derive(Default)]
struct Scratch {
    stamp: Vec<u32>,
    slots: Vec<Slot>,
    generation: u32,
    touched: Vec<u32>,
    /// The explaining search's own costs and first stops left (see [`explain_beyond_stops`]).
    explain_stamp: Vec<u32>,
    explain: Vec<(u32, Option<(u16, u32)>)>,
}

impl Scratch {
    fn begin(&mut self, n: usize) {
        if self.stamp.len() < n {
            self.stamp.resize(n, 0);
            self.slots.resize(n, FRESH);
            self.explain_stamp.resize(n, 0);
            self.explain.resize(n, (NONE, None));
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.explain_stamp.fill(0);
            self.generation = 1;
        }
        self.touched.clear();
    }

    #[inline]
    fn slot(&mut self, i: usize) -> &mut Slot {
        if self.stamp[i] != self.generation {
            self.stamp[i] = self.generation;
            self.slots[i] = FRESH;
            self.touched.push(i as u32);
        }
        &mut self.slots[i]
    }

    #[inline]
    fn peek(&self, i: usize) -> Slot {
        if self.stamp[i] == self.generation {
            self.slots[i]
        } else {
            FRESH
        }
    }

    #[inline]
    fn explain_at(&mut self, i: usize) -> &mut (u32, Option<(u16, u32)>) {
        if self.explain_stamp[i] != self.generation {
            self.explain_stamp[i] = self.generation;
            self.explain[i] = (NONE, None);
        }
        &mut self.explain[i]
    }

    /// The field the search left: touched hexes in map order.
    fn field(
        &mut self,
        start: Hex,
        budget: Cost,
        reasons: Vec<Reason>,
        cannot_leave: Option<Reason>,
    ) -> MovementField {
        self.touched.sort_unstable();
        let mut reached = Vec::new();
        let mut attempts = Vec::new();
        for &i in &self.touched {
            let s = self.slots[i as usize];
            if s.cost != NONE {
                reached.push(Reached {
                    index: i,
                    cost: s.cost,
                    parent: s.parent,
                    stops: s.stops,
                });
            } else if s.attempt.1 != Attempt::None {
                attempts.push((i, s.attempt.0, s.attempt.1));
            }
        }
        MovementField {
            start,
            budget,
            reached,
            attempts,
            reasons,
            cannot_leave,
        }
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
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
    hook: Option<&mut StepHook<'_>>,
) -> MovementField {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => search(
            &mut scratch,
            map,
            start,
            budget,
            model,
            rules,
            cannot_leave,
            hook,
        ),
        // a hook that asks for another field while this one is searched: buffers of its own
        Err(_) => search(
            &mut Scratch::default(),
            map,
            start,
            budget,
            model,
            rules,
            cannot_leave,
            hook,
        ),
    })
}

#[allow(clippy::too_many_arguments)]
fn search(
    scratch: &mut Scratch,
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
    scratch.begin(n);
    let Some(si) = map.index(start) else {
        return scratch.field(start, budget, reasons, cannot_leave);
    };
    scratch.slot(si).cost = 0;
    if cannot_leave.is_some() {
        return scratch.field(start, budget, reasons, cannot_leave);
    }
    let terrain = map.terrain_slice();
    let mut heap = BinaryHeap::new();
    heap.push(Reverse((0u32, si as u32)));
    let note = |attempt: &mut (u32, Attempt), cost: u32, why: Attempt| {
        // keep the cheapest attempt; forbidden beats budget at equal cost (it is the real cause)
        if cost < attempt.0 || attempt.1 == Attempt::None {
            *attempt = (cost, why);
        }
    };
    let mut any_stop = false;
    while let Some(Reverse((c, i))) = heap.pop() {
        let i = i as usize;
        let here_slot = scratch.slot(i);
        if here_slot.done || c != here_slot.cost {
            continue;
        }
        here_slot.done = true;
        let here = map.hex_of_index(i);
        let stop_here = i != si && here_slot.stops;
        any_stop |= here_slot.stops;
        for dir in HexDir::ALL {
            let to = here.neighbor(dir);
            let Some(j) = map.index(to) else { continue };
            if scratch.peek(j).done {
                continue;
            }
            if stop_here {
                let r = rules.stop[i].unwrap_or(0);
                note(
                    &mut scratch.slot(j).attempt,
                    c,
                    Attempt::BeyondStop(r, i as u32),
                );
                continue;
            }
            if let Some(r) = rules.forbid[j] {
                note(&mut scratch.slot(j).attempt, c, Attempt::Forbidden(r));
                continue;
            }
            let side = map.side_bits(here.side(dir));
            let step = match model.step(side, terrain[j]) {
                Ok(s) => s,
                Err(reason) => {
                    let r = intern(&mut reasons, reason);
                    note(&mut scratch.slot(j).attempt, c, Attempt::Terrain(r));
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
                        note(&mut scratch.slot(j).attempt, c, Attempt::Forbidden(r));
                        continue;
                    }
                }
            }
            let nc = c.saturating_add(step.0);
            let there = scratch.slot(j);
            if nc > budget.0 {
                note(&mut there.attempt, nc, Attempt::Budget);
                continue;
            }
            if nc < there.cost {
                there.cost = nc;
                there.parent = i as u32;
                there.stops = rules.stop[j].is_some();
                heap.push(Reverse((nc, j as u32)));
            }
        }
    }
    if any_stop {
        explain_beyond_stops(scratch, map, si, budget, model, rules);
    }
    scratch.field(start, budget, reasons, cannot_leave)
}

/// For hexes never approached, finds out whether they would be in reach but for a stop hex (an
/// enemy zone of control, say), so `why_not` names that rule rather than "out of reach": a second
/// search that goes on through stop hexes, remembering the first stop a path left. A hex it reaches
/// within the budget that the real search did not reach lies behind a stop.
fn explain_beyond_stops(
    scratch: &mut Scratch,
    map: &Map,
    si: usize,
    budget: Cost,
    model: &CostModel,
    rules: &FieldRules,
) {
    let terrain = map.terrain_slice();
    let mut heap = BinaryHeap::new();
    scratch.explain_at(si).0 = 0;
    heap.push(Reverse((0u32, si as u32)));
    while let Some(Reverse((c, i))) = heap.pop() {
        let i = i as usize;
        let (cost_i, origin_i) = *scratch.explain_at(i);
        if c != cost_i {
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
            let there = scratch.explain_at(j);
            if nc <= budget.0 && nc < there.0 {
                // the first stop hex this path left, if any
                let origin = origin_i.or(if i != si {
                    rules.stop[i].map(|r| (r, i as u32))
                } else {
                    None
                });
                *there = (nc, origin);
                heap.push(Reverse((nc, j as u32)));
                if scratch.peek(j).done {
                    continue;
                }
                if let Some((r, at)) = origin {
                    let slot = scratch.slot(j);
                    if matches!(slot.attempt.1, Attempt::None | Attempt::Budget) {
                        slot.attempt = (nc, Attempt::BeyondStop(r, at));
                    }
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

    #[test]
    fn a_search_leaves_nothing_behind_for_the_next() {
        let (map, model) = setup();
        let rules = FieldRules::new(map.len());
        let wide = movement_field(
            &map,
            h(&map, "0505"),
            Cost::from_mp(4.0),
            &model,
            &rules,
            None,
            None,
        );
        // a narrower search from elsewhere: what the first reached must not show through
        let narrow = movement_field(
            &map,
            h(&map, "0202"),
            Cost::from_mp(1.0),
            &model,
            &rules,
            None,
            None,
        );
        assert_eq!(narrow.cost(&map, h(&map, "0505")), None);
        assert!(matches!(
            narrow.why_not(&map, h(&map, "0505")),
            Some(Unreachable::OutOfReach { .. })
        ));
        assert_eq!(narrow.reachable(&map).len(), 6);
        // and the first field still answers as it did
        assert_eq!(wide.cost(&map, h(&map, "0508")), Some(Cost::from_mp(3.0)));
        assert_eq!(wide.path_to(&map, h(&map, "0505")), Some(vec![]));
    }

    #[test]
    fn a_hook_may_ask_for_another_field_while_one_is_searched() {
        let (map, model) = setup();
        let rules = FieldRules::new(map.len());
        let mut inner_sizes = Vec::new();
        let mut hook = |from: Hex, _to: Hex, _c: Cost, _s: Cost| {
            let inner = movement_field(
                &map,
                from,
                Cost::from_mp(1.0),
                &model,
                &FieldRules::new(map.len()),
                None,
                None,
            );
            inner_sizes.push(inner.reachable(&map).len());
            Ok(None)
        };
        let outer = movement_field(
            &map,
            h(&map, "0505"),
            Cost::from_mp(2.0),
            &model,
            &rules,
            None,
            Some(&mut hook),
        );
        assert_eq!(outer.reachable(&map).len(), 18);
        assert!(inner_sizes.iter().all(|n| (2..=6).contains(n)));
    }
}
