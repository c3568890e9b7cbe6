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

/// `n` held within `i32`.
fn saturated(n: i64) -> i32 {
    i32::try_from(n).unwrap_or(if n < 0 { i32::MIN } else { i32::MAX })
}

/// `A` → 1, `II` → 35; `None` unless one capital letter repeated at most [`MAX_REPEAT`] times.
fn column_number(text: &str) -> Option<i32> {
    let first = text.bytes().next()?;
    if !first.is_ascii_uppercase() || text.len() > MAX_REPEAT || text.bytes().any(|b| b != first) {
        return None;
    }
    Some(((text.len() - 1) * 26) as i32 + (first - b'A') as i32 + 1)
}

/// Why a map's size and numbering do not go together ([`Numbering::size_problem`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeProblem {
    /// `columns` or `rows` (the `field`) is out of `1..=`[`MAX_SIDE`].
    Side {
        /// `columns` or `rows`.
        field: &'static str,
        /// The size asked for.
        n: u32,
    },
    /// The labels of the last column or row would not read back.
    Labels {
        /// `first_column` or `first_row`.
        field: &'static str,
        /// `columns` or `rows`.
        unit: &'static str,
        /// The first label's number, as written (a file may write one past any label).
        first: i64,
        /// How many columns or rows.
        count: u32,
        /// The lowest `field` that fits.
        lo: i64,
        /// The highest `field` that fits.
        hi: i64,
        /// The labels of the numbering, in words.
        how: &'static str,
    },
}

impl SizeProblem {
    /// The map file's field the problem is with: the size when no first label would do.
    pub fn field(&self) -> &'static str {
        match self {
            SizeProblem::Labels { unit, lo, hi, .. } if lo > hi => unit,
            SizeProblem::Side { field, .. } | SizeProblem::Labels { field, .. } => field,
        }
    }
}

impl std::fmt::Display for SizeProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SizeProblem::Side { field, n } => {
                write!(f, "{field} = {n}: a map has 1 to {MAX_SIDE} {field}")
            }
            SizeProblem::Labels {
                field,
                unit,
                first,
                count,
                lo,
                hi,
                how,
            } => {
                if lo > hi {
                    // no first label fits: the size itself is too large
                    let most = hi + i64::from(*count) - lo;
                    write!(
                        f,
                        "{count} {unit} do not fit: {how}, so a map has at most {most} {unit}"
                    )
                } else {
                    write!(f, "{field} = {first} is out of range: {how}, so with {count} {unit} {field} must be {lo} to {hi}")
                }
            }
        }
    }
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

/// The most columns or rows any map may have: the column letters run out at 208 (`ZZZZZZZZ`),
/// and a map of 208 × 208 hexes is still small for the dense per-hex arrays of the core.
pub const MAX_SIDE: u32 = MAX_LETTER_COLUMN as u32;

impl Numbering {
    /// The column labels and the row labels this numbering writes so that they read back: two
    /// digits each with [`Numbering::digits`] 2 (`0` to `99`); columns `A` to `ZZZZZZZZ` (1 to
    /// 208) and rows of at most four digits with letters.
    pub fn label_ranges(&self) -> (std::ops::RangeInclusive<i64>, std::ops::RangeInclusive<i64>) {
        if self.letters {
            return (1..=i64::from(MAX_LETTER_COLUMN), 0..=9999);
        }
        let most = 10i64.saturating_pow(self.digits.min(9) as u32) - 1;
        (0..=most, 0..=most)
    }

    /// Why a map of `columns × rows` hexes cannot be numbered this way (a size out of
    /// `1..=`[`MAX_SIDE`], or a last column or row past the labels, counted from
    /// [`Numbering::first_column`] and [`Numbering::first_row`]): empty when it can. One rule
    /// for the map file, an inline map and the editor's resizing.
    pub fn size_problems(&self, columns: u32, rows: u32) -> Vec<SizeProblem> {
        let sides: Vec<SizeProblem> = [("columns", columns), ("rows", rows)]
            .into_iter()
            .filter(|(_, n)| !(1..=MAX_SIDE).contains(n))
            .map(|(field, n)| SizeProblem::Side { field, n })
            .collect();
        if !sides.is_empty() {
            return sides;
        }
        let (col_labels, row_labels) = self.label_ranges();
        [
            (
                "first_column",
                "columns",
                self.first_column,
                columns,
                col_labels,
            ),
            ("first_row", "rows", self.first_row, rows, row_labels),
        ]
        .into_iter()
        .filter_map(|(field, unit, first, count, labels)| {
            let (lo, hi) = (*labels.start(), labels.end() - i64::from(count) + 1);
            (!(lo..=hi).contains(&i64::from(first))).then_some(SizeProblem::Labels {
                field,
                unit,
                first: i64::from(first),
                count,
                lo,
                hi,
                how: self.labels_text(),
            })
        })
        .collect()
    }

    /// What labels this numbering writes, in words, for messages.
    pub fn labels_text(&self) -> &'static str {
        if self.letters {
            "with \"letters\" numbering, columns run A (1) to ZZZZZZZZ (208) and rows 0 to 9999"
        } else {
            "with \"ccrr\" numbering, a label has two digits for the column and two for the row (00 to 99)"
        }
    }

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
    ///
    /// Worked in `i64`: a hex anywhere in `i32` (one a damaged save's event names) has a shift.
    fn shift(&self, col: i64) -> i64 {
        let upper_parity = if self.column_is_lower(0) { 1 } else { 0 };
        // integers i in (a, b] with i ≡ upper_parity (mod 2)
        let count =
            |a: i64, b: i64| (b - upper_parity).div_euclid(2) - (a - upper_parity).div_euclid(2);
        if col >= 0 {
            count(0, col)
        } else {
            -count(col, 0)
        }
    }

    /// Converts 0-based (column, row) offsets into an axial hex.
    pub fn offset_to_hex(&self, col: i32, row: i32) -> Hex {
        Hex::new(col, saturated(i64::from(row) - self.shift(col.into())))
    }

    /// Converts an axial hex into 0-based (column, row) offsets. (A row past `i32`, of a hex
    /// far off any map, is held at its bound: it stays off every map.)
    pub fn hex_to_offset(&self, hex: Hex) -> (i32, i32) {
        (hex.q, saturated(self.wide_offset(hex).1))
    }

    /// [`Numbering::hex_to_offset`] without a bound.
    fn wide_offset(&self, hex: Hex) -> (i64, i64) {
        let q = i64::from(hex.q);
        (q, i64::from(hex.r) + self.shift(q))
    }

    /// The printed label of a hex, e.g. `"0120"`. Any hex has one, on the map or not: a message
    /// may quote a hex from a damaged save or event, anywhere in `i32` (its label overflowed).
    pub fn label(&self, hex: Hex) -> String {
        let (c, r) = self.wide_offset(hex);
        let (col, row) = (
            c + i64::from(self.first_column),
            r + i64::from(self.first_row),
        );
        if self.letters {
            // a hex far off any map (in a message) gets its column number in brackets
            let col = i32::try_from(col)
                .ok()
                .and_then(column_letters)
                .unwrap_or_else(|| format!("[{col}]"));
            return format!("{col}{row}");
        }
        let w = self.digits;
        format!("{col:0w$}{row:0w$}")
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

    /// A hex at the ends of `i32` (from a damaged save's event, quoted when the replay parts
    /// from it) has a label, in either numbering: the sums overflowed (a panic in a debug build).
    #[test]
    fn a_hex_anywhere_has_a_label() {
        let letters = Numbering {
            letters: true,
            ..pgg()
        };
        for n in [pgg(), letters] {
            for (q, r) in [
                (i32::MAX, i32::MAX),
                (i32::MIN, i32::MIN),
                (0, i32::MAX),
                (i32::MAX, 0),
                (i32::MIN, i32::MAX),
            ] {
                let label = n.label(Hex::new(q, r));
                assert!(
                    n.parse(&label).is_none_or(|h| h != Hex::new(0, 0)),
                    "{label}"
                );
                let (c, row) = n.hex_to_offset(Hex::new(q, r));
                assert_eq!(c, q);
                assert!(row.unsigned_abs() > 1 << 29, "{q},{r}: row {row}");
            }
            // a hex on the map keeps its label
            assert_eq!(n.parse(&n.label(Hex::new(3, 4))), Some(Hex::new(3, 4)));
        }
    }

    #[test]
    fn a_map_size_fits_where_every_label_reads_back() {
        let first = |n: &Numbering, c, r| n.size_problems(c, r).into_iter().next();
        let ccrr = pgg();
        assert_eq!(first(&ccrr, 59, 31), None);
        // columns 1 to 99: 100 columns need the label 00
        assert_eq!(first(&ccrr, 99, 99), None);
        let hundred = first(&ccrr, 100, 5).expect("too wide for ccrr from 1");
        assert_eq!(hundred.field(), "first_column");
        assert!(hundred.to_string().contains("must be 0 to 0"), "{hundred}");
        let from_zero = Numbering {
            first_column: 0,
            ..pgg()
        };
        assert_eq!(first(&from_zero, 100, 5), None);
        let wide = first(&ccrr, 150, 5).expect("no first column fits");
        assert_eq!(wide.field(), "columns");
        assert!(
            wide.to_string()
                .contains("150 columns do not fit: with \"ccrr\" numbering"),
            "{wide}"
        );
        assert!(wide.to_string().contains("at most 100 columns"), "{wide}");
        // a map starting at column 10 stops at 90 columns
        let late = Numbering {
            first_column: 10,
            ..pgg()
        };
        assert_eq!(first(&late, 90, 5), None);
        let over = first(&late, 91, 5).expect("column 100 has no label");
        assert!(
            over.to_string().contains("first_column must be 0 to 9"),
            "{over}"
        );
        let letters = Numbering {
            letters: true,
            ..pgg()
        };
        assert_eq!(first(&letters, MAX_SIDE, MAX_SIDE), None);
        // both sides are named when both are wrong
        assert_eq!(
            letters.size_problems(MAX_SIDE + 1, 0),
            vec![
                SizeProblem::Side {
                    field: "columns",
                    n: MAX_SIDE + 1
                },
                SizeProblem::Side {
                    field: "rows",
                    n: 0
                }
            ]
        );
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
