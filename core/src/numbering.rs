//! Printed hex numbers (`"0120"`) ↔ axial [`Hex`], for grids of vertical columns of flat-topped
//! hexes where every other column sits half a hex lower.
//!
//! PGG's `CCRR` scheme is one configuration: two-digit column then two-digit row, columns and rows
//! counted from 1, even columns lower. Other games change `first_column`, `first_row`, which columns
//! are lower, and the number of digits. A letters-and-numbers scheme (`A1`, `II13`: columns as
//! letters, one letter repeated after `Z`, rows as plain numbers) is another.

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
    /// Columns as letters and rows as plain numbers: `A1`, `Z10`, then `AA1`…`ZZ1`, `AAA1`… (one
    /// letter repeated). `first_column` 1 is `A`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub letters: bool,
}

/// The most times a column letter repeats (`AAAAAAAA`): 208 columns, beyond any map.
const MAX_REPEAT: usize = 8;

/// The highest column number a letters label can write (`ZZZZZZZZ`: 208).
pub const MAX_LETTER_COLUMN: i32 = 26 * MAX_REPEAT as i32;

/// `1` → `A`, `26` → `Z`, `27` → `AA`, `35` → `II`; `None` below 1 or past [`MAX_REPEAT`].
fn column_letters(n: i32) -> Option<String> {
    if n < 1 {
        return None;
    }
    let i = (n - 1) as usize;
    let repeat = i / 26 + 1;
    if repeat > MAX_REPEAT {
        return None;
    }
    let letter = char::from(b'A' + (i % 26) as u8);
    Some(std::iter::repeat_n(letter, repeat).collect())
}

/// `A` → 1, `II` → 35; `None` unless one capital letter repeated at most [`MAX_REPEAT`] times.
fn column_number(text: &str) -> Option<i32> {
    let first = text.bytes().next()?;
    if !first.is_ascii_uppercase() || text.len() > MAX_REPEAT || text.bytes().any(|b| b != first) {
        return None;
    }
    Some(((text.len() - 1) * 26) as i32 + (first - b'A') as i32 + 1)
}

impl Default for Numbering {
    fn default() -> Self {
        Numbering {
            first_column: 1,
            first_row: 1,
            lower_columns: LowerColumns::Even,
            digits: 2,
            letters: false,
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
        if self.letters {
            let col = c + self.first_column;
            // a hex far off any map (in a message) gets its column number in brackets
            let col = column_letters(col).unwrap_or_else(|| format!("[{col}]"));
            return format!("{col}{}", r + self.first_row);
        }
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
        if self.letters {
            let split = label
                .find(|ch: char| !ch.is_ascii_alphabetic())
                .unwrap_or(label.len());
            let (c, r) = label.split_at(split);
            if r.is_empty() || r.len() > 4 || !r.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let c = column_number(c)?;
            let r: i32 = r.parse().ok()?;
            return Some(self.offset_to_hex(c - self.first_column, r - self.first_row));
        }
        if label.len() != 2 * self.digits || !label.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        // ASCII digits only, so read directly (as `str::parse` would: none is no number, too many
        // overflow): the scripting API parses a label on most of its calls
        let number = |digits: &[u8]| {
            if digits.is_empty() {
                return None;
            }
            digits.iter().try_fold(0i32, |n, b| {
                n.checked_mul(10)?.checked_add(i32::from(b - b'0'))
            })
        };
        let (c, r) = label.as_bytes().split_at(self.digits);
        let (c, r) = (number(c)?, number(r)?);
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
        assert_eq!(n.parse("+112"), None);
        assert_eq!(n.parse(" 0112 "), n.parse("0112"));
        // a column past what an i32 holds is no hex
        let wide = Numbering {
            digits: 10,
            ..Numbering::default()
        };
        assert_eq!(wide.parse("21474836480000000001"), None);
        let none = Numbering {
            digits: 0,
            ..Numbering::default()
        };
        assert_eq!(none.parse(""), None);
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

    #[test]
    fn letters_and_numbers_round_trip() {
        let n = Numbering {
            letters: true,
            ..Numbering::default()
        };
        let h = n.parse("A1").expect("A1");
        assert_eq!(n.offset_to_hex(0, 0), h);
        assert_eq!(n.label(n.offset_to_hex(25, 9)), "Z10");
        assert_eq!(n.label(n.offset_to_hex(26, 0)), "AA1");
        assert_eq!(n.label(n.offset_to_hex(34, 12)), "II13");
        for c in 0..60 {
            for r in 0..12 {
                let hex = n.offset_to_hex(c, r);
                assert_eq!(n.parse(&n.label(hex)), Some(hex), "{}", n.label(hex));
            }
        }
        // neighbours follow the same column layout as CCRR
        assert_eq!(
            n.label(n.parse("B5").expect("B5").neighbor(HexDir::N)),
            "B4"
        );
        for bad in [
            "",
            "1",
            "A",
            "AB1",
            "a1",
            "A1x",
            "AAAAAAAAA1",
            "A12345",
            "0101",
        ] {
            assert_eq!(n.parse(bad), None, "{bad}");
        }
        assert!(
            n.label(n.offset_to_hex(-3, 0)).starts_with('['),
            "off any map"
        );
    }
}
