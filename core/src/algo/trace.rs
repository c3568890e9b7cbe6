//! Budgeted path tracing with predicates: supply lines, lines of communication, retreat paths.
//!
//! The rules say, per hex, whether a trace may enter it and whether it may go on *through* it
//! ("may enter but not pass through", e.g. swamp for supply), what a step costs, and which hexes
//! are targets. The search is a deterministic Dijkstra (ties broken by map order).

use crate::hex::{Hex, HexDir};
use crate::map::Map;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What the rules allow for one hex of a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passage {
    /// May not enter.
    Blocked,
    /// May enter, and the trace ends there unless it is a target.
    EnterOnly,
    /// May enter and continue.
    Open,
}

/// One step a search considers: from `from` across its `dir` side into `to`, whose map index is
/// `to_index` (given so that a step cost need not work out the side or the index again).
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The hex the step leaves.
    pub from: Hex,
    /// The side it crosses, as a direction from `from`.
    pub dir: HexDir,
    /// The hex it enters.
    pub to: Hex,
    /// `to`'s dense map index.
    pub to_index: usize,
}

/// Each hex's passage, asked once per search (a search looks at a hex from each of its
/// neighbours; the answer does not change while it runs).
struct Passages<F> {
    ask: F,
    known: Vec<Option<Passage>>,
}

impl<F: FnMut(Hex) -> Passage> Passages<F> {
    fn new(ask: F, n: usize) -> Self {
        Passages {
            ask,
            known: vec![None; n],
        }
    }

    fn of(&mut self, hex: Hex, index: usize) -> Passage {
        match self.known[index] {
            Some(p) => p,
            None => {
                let p = (self.ask)(hex);
                self.known[index] = Some(p);
                p
            }
        }
    }
}

/// A traced path: hexes from the start (excluded) to the target (included), and its cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Hexes after the start.
    pub path: Vec<Hex>,
    /// Total cost in the caller's units.
    pub cost: u32,
}

/// Finds the cheapest trace from `start` to any hex for which `is_target` holds, spending at most
/// `budget`. `step` gives the cost of a step or `None` if the step is not allowed (a lake
/// hexside); `passage(hex)` says whether the trace may enter / pass through a hex (asked at most
/// once per hex). The start hex counts as a target if `is_target(start)`.
pub fn trace(
    map: &Map,
    start: Hex,
    budget: u32,
    step: impl FnMut(Step) -> Option<u32>,
    passage: impl FnMut(Hex) -> Passage,
    mut is_target: impl FnMut(Hex) -> bool,
) -> Option<Trace> {
    let si = map.index(start)?;
    if is_target(start) {
        return Some(Trace {
            path: Vec::new(),
            cost: 0,
        });
    }
    let found = forward(map, &[start], budget, step, passage, is_target);
    let i = found.stopped_at?;
    let mut path = vec![map.hex_of_index(i)];
    let mut k = i;
    while found.parent[k] as usize != si {
        k = found.parent[k] as usize;
        path.push(map.hex_of_index(k));
    }
    path.reverse();
    Some(Trace {
        path,
        cost: found.cost[i],
    })
}

/// Every hex a trace from any of `starts` can reach within `budget` (starts included), with its
/// cost, dense by map index (`u32::MAX` = not reached).
pub fn reach(
    map: &Map,
    starts: &[Hex],
    budget: u32,
    step: impl FnMut(Step) -> Option<u32>,
    passage: impl FnMut(Hex) -> Passage,
) -> Vec<u32> {
    forward(map, starts, budget, step, passage, |_| false).cost
}

/// What a search forward from its starts found: costs and parents dense by map index
/// (`u32::MAX`: not reached), and the hex it stopped at, if any.
struct Forward {
    cost: Vec<u32>,
    parent: Vec<u32>,
    stopped_at: Option<usize>,
}

/// The Dijkstra search of [`trace`] and [`reach`]: from every start at cost 0 (a start is left
/// whatever its passage), entering no blocked hex and going on from no hex but an open one,
/// until the first hex other than a start for which `stop` holds is taken from the queue.
fn forward(
    map: &Map,
    starts: &[Hex],
    budget: u32,
    mut step: impl FnMut(Step) -> Option<u32>,
    passage: impl FnMut(Hex) -> Passage,
    mut stop: impl FnMut(Hex) -> bool,
) -> Forward {
    let n = map.len();
    let mut passage = Passages::new(passage, n);
    let mut cost = vec![u32::MAX; n];
    let mut parent = vec![u32::MAX; n];
    let mut is_start = vec![false; n];
    let mut heap = BinaryHeap::new();
    for s in starts {
        if let Some(si) = map.index(*s) {
            cost[si] = 0;
            is_start[si] = true;
            heap.push(Reverse((0u32, si as u32)));
        }
    }
    while let Some(Reverse((c, i))) = heap.pop() {
        let i = i as usize;
        if c != cost[i] {
            continue;
        }
        let here = map.hex_of_index(i);
        if !is_start[i] {
            if stop(here) {
                return Forward {
                    cost,
                    parent,
                    stopped_at: Some(i),
                };
            }
            if passage.of(here, i) != Passage::Open {
                continue;
            }
        }
        for dir in HexDir::ALL {
            let to = here.neighbor(dir);
            let Some(j) = map.index(to) else { continue };
            if passage.of(to, j) == Passage::Blocked {
                continue;
            }
            let Some(s) = step(Step {
                from: here,
                dir,
                to,
                to_index: j,
            }) else {
                continue;
            };
            let nc = c.saturating_add(s);
            if nc <= budget && nc < cost[j] {
                cost[j] = nc;
                parent[j] = i as u32;
                heap.push(Reverse((nc, j as u32)));
            }
        }
    }
    Forward {
        cost,
        parent,
        stopped_at: None,
    }
}

/// What [`trace`] would find from every hex at once: for each hex, the cost of the cheapest trace
/// from it to a target within `budget`, dense by map index (`u32::MAX`: no trace). One search
/// backwards from the targets instead of one search per start: the same rules (a trace enters no
/// blocked hex, goes on from no enter-only hex but a target, may leave its start whatever that
/// is; a target is its own trace at cost 0) and `step` asked in the direction the trace walks, so
/// each cost equals `trace(..).cost` from that hex.
pub fn trace_costs(
    map: &Map,
    budget: u32,
    mut step: impl FnMut(Step) -> Option<u32>,
    passage: impl FnMut(Hex) -> Passage,
    mut is_target: impl FnMut(Hex) -> bool,
) -> Vec<u32> {
    let n = map.len();
    let mut passage = Passages::new(passage, n);
    let mut cost = vec![u32::MAX; n];
    let mut target = vec![false; n];
    let mut heap = BinaryHeap::new();
    for (i, t) in target.iter_mut().enumerate() {
        if is_target(map.hex_of_index(i)) {
            *t = true;
            cost[i] = 0;
            heap.push(Reverse((0u32, i as u32)));
        }
    }
    while let Some(Reverse((c, i))) = heap.pop() {
        let i = i as usize;
        if c != cost[i] {
            continue;
        }
        let here = map.hex_of_index(i);
        // a trace goes on through `here` only if it may enter it, and past it only if it is a
        // target (where it ends) or open
        let p = passage.of(here, i);
        if p == Passage::Blocked || (!target[i] && p != Passage::Open) {
            continue;
        }
        for dir in HexDir::ALL {
            let from = here.neighbor(dir);
            let Some(j) = map.index(from) else { continue };
            if target[j] {
                continue;
            }
            let Some(s) = step(Step {
                from,
                dir: dir.opposite(),
                to: here,
                to_index: i,
            }) else {
                continue;
            };
            let nc = c.saturating_add(s);
            if nc <= budget && nc < cost[j] {
                cost[j] = nc;
                heap.push(Reverse((nc, j as u32)));
            }
        }
    }
    cost
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numbering::Numbering;

    #[test]
    fn trace_respects_budget_and_enter_only_hexes() {
        let map = Map::new("t", 9, 9, Numbering::default(), "clear");
        let h = |l: &str| map.parse(l).expect("label");
        let start = h("0505");
        let west = |x: Hex| map.on_edge(x, "west");
        let t = trace(&map, start, 10, |_| Some(1), |_| Passage::Open, west).expect("trace");
        assert_eq!(t.cost, 4);
        assert!(trace(&map, start, 3, |_| Some(1), |_| Passage::Open, west).is_none());
        // a wall of enter-only hexes in column 03 stops the trace unless a target is on it
        let swamp = |x: Hex| {
            if map.offset(x).0 == 2 {
                Passage::EnterOnly
            } else {
                Passage::Open
            }
        };
        assert!(trace(&map, start, 10, |_| Some(1), swamp, west).is_none());
        let col3 = |x: Hex| map.offset(x).0 == 2;
        assert!(trace(&map, start, 10, |_| Some(1), swamp, col3).is_some());
        let r = reach(&map, &[start], 1, |_| Some(1), |_| Passage::Open);
        assert_eq!(r.iter().filter(|c| **c != u32::MAX).count(), 7);
    }

    /// A small deterministic generator for the property test (no crate needed for a few numbers).
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 33) % n
        }
    }

    #[test]
    fn trace_costs_equal_a_trace_from_every_hex() {
        let map = Map::new("t", 11, 9, Numbering::default(), "clear");
        for seed in 0..40u64 {
            let mut rng = Lcg(seed);
            let n = map.len();
            let passages: Vec<Passage> = (0..n)
                .map(|_| match rng.next(10) {
                    0 => Passage::Blocked,
                    1 | 2 => Passage::EnterOnly,
                    _ => Passage::Open,
                })
                .collect();
            let targets: Vec<bool> = (0..n).map(|_| rng.next(12) == 0).collect();
            // costs depend on the direction walked and on the hex entered; some steps forbidden
            let costs: Vec<[Option<u32>; 6]> = (0..n)
                .map(|_| {
                    std::array::from_fn(|_| match rng.next(9) {
                        0 => None,
                        k => Some(k as u32),
                    })
                })
                .collect();
            let budget = 5 + rng.next(25) as u32;
            let idx = |h: Hex| map.index(h).expect("on the map");
            let step = |s: Step| costs[idx(s.from)][s.dir as usize];
            let passage = |h: Hex| passages[idx(h)];
            let is_target = |h: Hex| targets[idx(h)];
            let all = trace_costs(&map, budget, step, passage, is_target);
            for (i, got) in all.iter().enumerate() {
                let start = map.hex_of_index(i);
                let want = trace(&map, start, budget, step, passage, is_target).map(|t| t.cost);
                assert_eq!(
                    (*got != u32::MAX).then_some(*got),
                    want,
                    "seed {seed}, start {}",
                    map.label(start)
                );
            }
        }
    }
}
