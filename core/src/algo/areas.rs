//! Areas of the map: connected regions of a set of hexes, and the hexes a wall encloses (cut off
//! from every map edge). Flood fills over dense per-hex arrays, in map order, so the results are
//! the same on every run.

use crate::hex::{HexDir, Hexside};
use crate::map::Map;
use std::collections::VecDeque;

/// The connected regions of `member` (a dense per-hex flag): hexes are connected when they are
/// neighbours and `blocked` does not say the hexside between them is shut. Each region lists map
/// indices in map order; regions are ordered by their first hex.
pub fn regions(map: &Map, member: &[bool], blocked: impl Fn(Hexside) -> bool) -> Vec<Vec<usize>> {
    let mut region_of = vec![usize::MAX; map.len()];
    let mut out: Vec<Vec<usize>> = Vec::new();
    for start in 0..map.len() {
        if !member[start] || region_of[start] != usize::MAX {
            continue;
        }
        let id = out.len();
        let mut hexes = Vec::new();
        let mut queue = VecDeque::from([start]);
        region_of[start] = id;
        while let Some(i) = queue.pop_front() {
            hexes.push(i);
            let hex = map.hex_of_index(i);
            for d in HexDir::ALL {
                let n = hex.neighbor(d);
                let Some(j) = map.index(n) else { continue };
                if member[j] && region_of[j] == usize::MAX && !blocked(hex.side(d)) {
                    region_of[j] = id;
                    queue.push_back(j);
                }
            }
        }
        hexes.sort_unstable();
        out.push(hexes);
    }
    out
}

/// The hexes that are not `wall` and cannot reach the map's edge without entering a wall hex or
/// crossing a `blocked` hexside, as map indices in map order.
pub fn enclosed(map: &Map, wall: &[bool], blocked: impl Fn(Hexside) -> bool) -> Vec<usize> {
    let mut open = vec![false; map.len()];
    let mut queue = VecDeque::new();
    for i in 0..map.len() {
        let hex = map.hex_of_index(i);
        let edge = ["north", "south", "west", "east"]
            .iter()
            .any(|e| map.on_edge(hex, e));
        if edge && !wall[i] {
            open[i] = true;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        let hex = map.hex_of_index(i);
        for d in HexDir::ALL {
            let Some(j) = map.index(hex.neighbor(d)) else {
                continue;
            };
            if !wall[j] && !open[j] && !blocked(hex.side(d)) {
                open[j] = true;
                queue.push_back(j);
            }
        }
    }
    (0..map.len()).filter(|&i| !wall[i] && !open[i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numbering::Numbering;

    fn map() -> Map {
        Map::new("t", 7, 7, Numbering::default(), "clear")
    }

    fn flags(map: &Map, labels: &[&str]) -> Vec<bool> {
        let mut f = vec![false; map.len()];
        for l in labels {
            f[map.index(map.parse(l).expect("label")).expect("on map")] = true;
        }
        f
    }

    fn labels(map: &Map, indices: &[usize]) -> Vec<String> {
        indices
            .iter()
            .map(|&i| map.label(map.hex_of_index(i)))
            .collect()
    }

    #[test]
    fn regions_split_where_hexes_do_not_touch_or_a_side_is_shut() {
        let m = map();
        let member = flags(&m, &["0101", "0102", "0105", "0106", "0404"]);
        let r = regions(&m, &member, |_| false);
        let shown: Vec<Vec<String>> = r.iter().map(|x| labels(&m, x)).collect();
        assert_eq!(
            shown,
            vec![vec!["0101", "0102"], vec!["0105", "0106"], vec!["0404"]]
        );
        // a shut side between 0105 and 0106 splits that region
        let (a, b) = (m.parse("0105").expect("a"), m.parse("0106").expect("b"));
        let shut = Hexside::between(a, b).expect("adjacent");
        assert_eq!(regions(&m, &member, |s| s == shut).len(), 4);
    }

    #[test]
    fn a_ring_encloses_its_centre_and_a_gap_opens_it() {
        let m = map();
        let centre = m.parse("0404").expect("centre");
        let ring: Vec<String> = HexDir::ALL
            .iter()
            .map(|d| m.label(centre.neighbor(*d)))
            .collect();
        let refs: Vec<&str> = ring.iter().map(String::as_str).collect();
        let wall = flags(&m, &refs);
        assert_eq!(labels(&m, &enclosed(&m, &wall, |_| false)), vec!["0404"]);
        let gap = flags(&m, &refs[1..]);
        assert!(enclosed(&m, &gap, |_| false).is_empty());
        // the gap shut by a hexside (a river nobody crosses) encloses it again
        let shut = centre.side(HexDir::ALL[0]);
        assert_eq!(labels(&m, &enclosed(&m, &gap, |s| s == shut)), vec!["0404"]);
    }
}
