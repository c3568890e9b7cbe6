//! Zones of control: the hexes a set of units projects control into, as the rules define it.
//!
//! The rules choose which units exert a zone (not disrupted ones, say) and which hexside kinds block
//! it (a lake); the projection itself is native and dense.

use crate::hex::{Hex, HexDir};
use crate::map::Map;

/// A dense set of hexes of one map.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct HexSet {
    bits: Vec<bool>,
}

impl HexSet {
    /// The bytes the set keeps on the heap (one a hex of its map).
    pub fn heap_bytes(&self) -> usize {
        self.bits.capacity()
    }

    /// The empty set for a map.
    pub fn new(map: &Map) -> HexSet {
        HexSet {
            bits: vec![false; map.len()],
        }
    }

    /// Adds a hex (ignored off the map).
    pub fn insert(&mut self, map: &Map, hex: Hex) {
        if let Some(i) = map.index(hex) {
            self.bits[i] = true;
        }
    }

    /// Removes a hex.
    pub fn remove(&mut self, map: &Map, hex: Hex) {
        if let Some(i) = map.index(hex) {
            self.bits[i] = false;
        }
    }

    /// Membership.
    pub fn contains(&self, map: &Map, hex: Hex) -> bool {
        map.index(hex)
            .is_some_and(|i| self.bits.get(i).copied().unwrap_or(false))
    }

    /// Membership by dense index.
    pub fn contains_index(&self, i: usize) -> bool {
        self.bits.get(i).copied().unwrap_or(false)
    }

    /// Union in place.
    pub fn union_with(&mut self, other: &HexSet) {
        for (a, b) in self.bits.iter_mut().zip(&other.bits) {
            *a |= *b;
        }
    }

    /// Removes every member of `other`.
    pub fn subtract(&mut self, other: &HexSet) {
        for (a, b) in self.bits.iter_mut().zip(&other.bits) {
            *a &= !*b;
        }
    }

    /// Members in map order.
    pub fn hexes<'a>(&'a self, map: &'a Map) -> impl Iterator<Item = Hex> + 'a {
        self.indices().map(|i| map.hex_of_index(i))
    }

    /// Members' dense indices, ascending. Sets are sparse and read once per rule that takes them
    /// (a field's stop and forbid sets, every search): a run of eight holding no member is
    /// passed over as a whole, and only runs with members are walked hex by hex.
    pub fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        const RUN: usize = 8;
        self.bits
            .chunks(RUN)
            .enumerate()
            .filter(|(_, run)| run.iter().any(|b| *b))
            .flat_map(|(n, run)| {
                run.iter()
                    .enumerate()
                    .filter(|(_, b)| **b)
                    .map(move |(i, _)| n * RUN + i)
            })
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.bits.iter().filter(|b| **b).count()
    }

    /// True if empty.
    pub fn is_empty(&self) -> bool {
        !self.bits.iter().any(|b| *b)
    }
}

/// The zone projected by units standing in `sources`: each source's own hex and its six neighbours,
/// except across hexsides carrying any kind in `blocking_bits`.
pub fn zone_of_control(
    map: &Map,
    sources: impl IntoIterator<Item = Hex>,
    blocking_bits: u32,
) -> HexSet {
    let mut set = HexSet::new(map);
    for src in sources {
        if !map.contains(src) {
            continue;
        }
        set.insert(map, src);
        for dir in HexDir::ALL {
            let to = src.neighbor(dir);
            if map.side_bits(src.side(dir)) & blocking_bits == 0 {
                set.insert(map, to);
            }
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numbering::Numbering;

    #[test]
    fn indices_are_the_members_in_order() {
        let map = Map::new("t", 7, 9, Numbering::default(), "clear");
        for step in [1, 3, 7, 8, 9, 62, 100] {
            let mut set = HexSet::new(&map);
            let mut expected = Vec::new();
            for i in (0..map.len()).step_by(step) {
                set.insert(&map, map.hex_of_index(i));
                expected.push(i);
            }
            assert_eq!(
                set.indices().collect::<Vec<_>>(),
                expected,
                "every {step}th"
            );
            let hexes: Vec<Hex> = expected.iter().map(|i| map.hex_of_index(*i)).collect();
            assert_eq!(set.hexes(&map).collect::<Vec<_>>(), hexes);
        }
        assert_eq!(HexSet::new(&map).indices().count(), 0);
    }

    #[test]
    fn zoc_projects_to_neighbours_but_not_across_blocking_sides() {
        let mut map = Map::new("t", 5, 5, Numbering::default(), "clear");
        let c = map.parse("0303").expect("c");
        let n = c.neighbor(HexDir::N);
        map.set_side(c, n, "lake", true).expect("side");
        let lake = 1 << map.side_kinds.get("lake").expect("kind");
        let z = zone_of_control(&map, [c], lake);
        assert_eq!(z.len(), 6);
        assert!(!z.contains(&map, n));
        assert!(z.contains(&map, c.neighbor(HexDir::S)));
        let all = zone_of_control(&map, [c], 0);
        assert_eq!(all.len(), 7);
    }
}
