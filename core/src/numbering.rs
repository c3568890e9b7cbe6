//! Printed hex numbers (`"0120"`) ↔ axial [`Hex`], for grids of vertical columns of flat-topped
//! hexes where every other column sits half a hex lower.
//!
//! PGG's `CCRR` scheme is one configuration: two-digit column then two-digit row, columns and rows
//! counted from 1, even columns lower. Other games change `first_column`, `first_row`, which columns
//! are lower, and the number of digits.

use crate::hex::Hex;
use serde::{Deserialize, Serialize};

/// Which printed columns sit half a hex lower than their neighbours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LowerColumns {
    /// Columns with an even label are lower (PGG).
    Even,
    /// Columns with an odd label are lower.
    Odd,
}

/// How a map numbers its hexes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Numbering {
    /// Label of the west-most column.
    pub first_column: i32,
    /// Label of the north-most row.
    pub first_row: i32,
    /// Which columns are lower.
    pub lower_columns: LowerColumns,
    /// Digits for the column and for the row part of a label (2 for `CCRR`).
    pub digits: usize,
}

impl Default for Numbering {
    fn default() -> Self {
        Numbering {
            first_column: 1,
            first_row: 1,
            lower_columns: LowerColumns::Even,
            digits: 2,
        }
    }
}

impl Numbering {
    /// 0-based column index (as laid out west to east) and whether that column is a lower one.
    fn column_is_lower(&self, col_index: i32) -> bool {
        let label = col_index + self.first_column;
        match self.lower_columns {
            LowerColumns::Even => label.rem_euclid(2) == 0,
            LowerColumns::Odd => label.rem_euclid(2) == 1,
        }
    }

    /// Offset between the axial row and the 0-based printed row of a column. Stepping east onto a
    /// column that sits higher, the south-east neighbour's printed row grows by one while its axial
    /// row stays; so the shift counts the higher columns between column 0 and `col`.
    fn shift(&self, col: i32) -> i32 {
        let upper_parity = if self.column_is_lower(0) { 1 } else { 0 };
        // integers i in (a, b] with i ≡ upper_parity (mod 2)
        let count =
            |a: i32, b: i32| (b - upper_parity).div_euclid(2) - (a - upper_parity).div_euclid(2);
        if col >= 0 {
            count(0, col)
        } else {
            -count(col, 0)
        }
    }

    /// Converts 0-based (column, row) offsets into an axial hex.
    pub fn offset_to_hex(&self, col: i32, row: i32) -> Hex {
        Hex::new(col, row - self.shift(col))
    }

    /// Converts an axial hex into 0-based (column, row) offsets.
    pub fn hex_to_offset(&self, hex: Hex) -> (i32, i32) {
        (hex.q, hex.r + self.shift(hex.q))
    }

    /// The printed label of a hex, e.g. `"0120"`.
    pub fn label(&self, hex: Hex) -> String {
        let (c, r) = self.hex_to_offset(hex);
        let w = self.digits;
        format!(
            "{:0w$}{:0w$}",
            c + self.first_column,
            r + self.first_row,
            w = w
        )
    }

    /// Parses a printed label. Returns `None` for text that is not a label of this numbering.
    pub fn parse(&self, label: &str) -> Option<Hex> {
        let label = label.trim();
        if label.len() != 2 * self.digits || !label.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let (c, r) = label.split_at(self.digits);
        let c: i32 = c.parse().ok()?;
        let r: i32 = r.parse().ok()?;
        Some(self.offset_to_hex(c - self.first_column, r - self.first_row))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::HexDir;

    fn pgg() -> Numbering {
        Numbering::default()
    }

    #[test]
    fn labels_round_trip() {
        let n = pgg();
        for c in 1..=59 {
            for r in 1..=31 {
                let label = format!("{c:02}{r:02}");
                let hex = n.parse(&label).expect("valid label");
                assert_eq!(n.label(hex), label);
            }
        }
        assert_eq!(n.parse("01201"), None);
        assert_eq!(n.parse("ab12"), None);
    }

    /// The PGG neighbour table from the game's map notes: odd columns have NE = (c+1, r−1),
    /// even columns NE = (c+1, r), and so on.
    #[test]
    fn pgg_neighbours_follow_the_printed_grid() {
        let n = pgg();
        let check = |from: &str, dir: HexDir, to: &str| {
            let h = n.parse(from).expect("label");
            assert_eq!(n.label(h.neighbor(dir)), to, "{from} {dir:?}");
        };
        // odd column 21
        check("2117", HexDir::N, "2116");
        check("2117", HexDir::S, "2118");
        check("2117", HexDir::NE, "2216");
        check("2117", HexDir::SE, "2217");
        check("2117", HexDir::NW, "2016");
        check("2117", HexDir::SW, "2017");
        // even column 22
        check("2216", HexDir::NE, "2316");
        check("2216", HexDir::SE, "2317");
        check("2216", HexDir::NW, "2116");
        check("2216", HexDir::SW, "2117");
        check("2216", HexDir::S, "2217");
    }

    #[test]
    fn odd_lower_columns_mirror_even() {
        let n = Numbering {
            lower_columns: LowerColumns::Odd,
            ..Numbering::default()
        };
        // column 01 is lower now: its NE neighbour is in the same row
        let h = n.parse("0105").expect("label");
        assert_eq!(n.label(h.neighbor(HexDir::NE)), "0205");
        assert_eq!(n.label(h.neighbor(HexDir::SE)), "0206");
        for c in 1..=10 {
            for r in 1..=10 {
                let l = format!("{c:02}{r:02}");
                assert_eq!(n.label(n.parse(&l).expect("label")), l);
            }
        }
    }
}
