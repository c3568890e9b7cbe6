//! Odds columns and results tables: ratio columns rounded in the defender's favour and capped,
//! differential columns, column shifts, 2-D results tables (a CRT), 1-D dice tables, and tables
//! keyed by words (a date × side chart).
//!
//! Tables are declared by the ruleset (as Lua data) and evaluated here natively.

use serde::{Deserialize, Serialize};

/// How strengths become a column.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OddsKind {
    /// Attack : defence ratio, rounded down in the defender's favour.
    Ratio,
    /// Attack − defence.
    Differential,
}

/// A column header: for ratios `(a, d)` means `a-d` (1-3 → (1, 3), 4-1 → (4, 1)); for
/// differentials `(n, 0)` means `+n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Column {
    /// Attacker part (or the differential).
    pub att: i32,
    /// Defender part (1 for x-1 columns; unused for differentials).
    pub def: i32,
}

impl Column {
    /// Column label, e.g. `"3-1"` or `"+2"`.
    pub fn label(&self, kind: &OddsKind) -> String {
        match kind {
            OddsKind::Ratio => format!("{}-{}", self.att, self.def),
            OddsKind::Differential => format!("{:+}", self.att),
        }
    }
}

/// A 2-D results table: rows are die results, columns are odds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultsTable {
    /// Table id.
    pub id: String,
    /// Ratio or differential.
    pub kind: OddsKind,
    /// Columns from worst to best for the attacker.
    pub columns: Vec<Column>,
    /// The lowest die result (row 0).
    pub first_roll: i32,
    /// `rows[roll − first_roll][column]` = result code.
    pub rows: Vec<Vec<String>>,
    /// The die rolled on the table, when its rows also cover modified rolls (a d6 on rows 0 to 7
    /// for modifiers of −1 to +1): its faces 1 to `die` are what a roll shows. Without it every
    /// row is one face of the die.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub die: Option<i32>,
}

/// Where a combat landed on the table, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OddsOutcome {
    /// Index of the column before shifts.
    pub raw_column: i32,
    /// Index after shifts and caps (into `columns`).
    pub column: usize,
    /// True if the raw odds were off the low end (treated as the first column).
    pub below: bool,
    /// True if off the high end.
    pub above: bool,
}

/// Errors in a declared table.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TableError {
    /// Rows of the wrong width, or no columns.
    #[error("table `{0}`: {1}")]
    Shape(String, String),
}

/// The rolls a results table's first row may stand for: a die has 1 to 1000 faces, and sums of
/// dice and modifiers stay far inside this. A first row past an i32 was said with the type's
/// range, and one near it overflowed while a later row's roll was named.
pub const FIRST_ROLLS: std::ops::RangeInclusive<i64> = -1_000_000..=1_000_000;

/// `first_roll` as written, if it is one (else what it is, in words).
pub fn first_roll_of(n: i64) -> Result<i32, String> {
    i32::try_from(n)
        .ok()
        .filter(|_| FIRST_ROLLS.contains(&n))
        .ok_or_else(|| {
            format!(
                "first_roll is the roll the first row stands for, {} to {}, not {n}",
                FIRST_ROLLS.start(),
                FIRST_ROLLS.end()
            )
        })
}

/// `die` as written, if it is one (else what it is, in words).
pub fn die_of(n: i64) -> Result<i32, String> {
    i32::try_from(n)
        .ok()
        .filter(|d| (1..=1000).contains(d))
        .ok_or_else(|| format!("die is the number of faces of the die rolled, 1 to 1000, not {n}"))
}

impl ResultsTable {
    /// Checks the table's shape.
    pub fn validate(&self) -> Result<(), TableError> {
        first_roll_of(i64::from(self.first_roll))
            .map_err(|e| TableError::Shape(self.id.clone(), e))?;
        if self.columns.is_empty() {
            return Err(TableError::Shape(self.id.clone(), "no columns".into()));
        }
        for (i, row) in self.rows.iter().enumerate() {
            if row.len() != self.columns.len() {
                return Err(TableError::Shape(
                    self.id.clone(),
                    format!(
                        "row {} has {} entries, expected {}",
                        i as i32 + self.first_roll,
                        row.len(),
                        self.columns.len()
                    ),
                ));
            }
        }
        if let Some(die) = self.die {
            die_of(i64::from(die)).map_err(|e| TableError::Shape(self.id.clone(), e))?;
        }
        if self.kind == OddsKind::Ratio && self.columns.iter().any(|c| c.att <= 0 || c.def <= 0) {
            return Err(TableError::Shape(
                self.id.clone(),
                "ratio columns need positive numbers".into(),
            ));
        }
        Ok(())
    }

    /// The column index for strengths, before shifts: the best column the attacker fully reaches
    /// (ratios are rounded in the defender's favour). Can be −1 (below the table) or past the end.
    pub fn raw_column(&self, attack: i32, defence: i32) -> i32 {
        let reaches = |c: &Column| match self.kind {
            // attack/defence ≥ c.att/c.def  ⇔  attack·c.def ≥ defence·c.att (integers, no rounding)
            OddsKind::Ratio => {
                let d = defence.max(0) as i64;
                (attack.max(0) as i64) * (c.def as i64) >= d * (c.att as i64) && attack > 0
            }
            OddsKind::Differential => attack as i64 - defence as i64 >= c.att as i64,
        };
        let mut best = -1;
        for (i, c) in self.columns.iter().enumerate() {
            if reaches(c) {
                best = i as i32;
            }
        }
        if best == (self.columns.len() as i32 - 1) && self.kind == OddsKind::Ratio {
            // above-table odds stay on the last column
            let last = self.columns[self.columns.len() - 1];
            let strictly_above =
                (attack as i64) * (last.def as i64) >= (defence as i64) * (last.att as i64 + 1);
            if strictly_above {
                return self.columns.len() as i32;
            }
        }
        best
    }

    /// Raw column, plus `shift` columns (positive favours the attacker), capped to the table.
    pub fn odds(&self, attack: i32, defence: i32, shift: i32) -> OddsOutcome {
        let raw = self.raw_column(attack, defence);
        let n = self.columns.len() as i32;
        let shifted = raw.clamp(-1, n).saturating_add(shift);
        OddsOutcome {
            raw_column: raw,
            column: shifted.clamp(0, n - 1) as usize,
            below: shifted < 0,
            above: shifted >= n,
        }
    }

    /// The result for a column and a die roll (rolls beyond the table are clamped).
    pub fn result(&self, column: usize, roll: i32) -> Option<&str> {
        if self.rows.is_empty() {
            return None;
        }
        let r = roll
            .saturating_sub(self.first_roll)
            .clamp(0, self.rows.len() as i32 - 1) as usize;
        self.rows[r].get(column).map(String::as_str)
    }

    /// The faces of the die rolled on the table: 1 to `die`, or one face per row.
    pub fn faces(&self) -> std::ops::RangeInclusive<i32> {
        match self.die {
            Some(n) => 1..=n,
            None => {
                let last = self.first_roll.saturating_add(self.rows.len() as i32 - 1);
                self.first_roll..=last
            }
        }
    }

    /// Probability of each result code in a column for a fair roll of the table's die with `drm`
    /// added (the result of a modified roll beyond the rows is the nearest row's, as `result`
    /// reads it), in order of first appearance; with each, the faces of the die that give it.
    pub fn chances(&self, column: usize, drm: i32) -> Vec<(String, f64, Vec<i32>)> {
        let faces = self.faces();
        let p = 1.0 / (faces.end() - faces.start() + 1).max(1) as f64;
        let mut out: Vec<(String, f64, Vec<i32>)> = Vec::new();
        for face in faces {
            let Some(code) = self.result(column, face.saturating_add(drm)) else {
                continue;
            };
            match out.iter_mut().find(|(c, _, _)| c == code) {
                Some(e) => {
                    e.1 += p;
                    e.2.push(face);
                }
                None => out.push((code.to_string(), p, vec![face])),
            }
        }
        out
    }

    /// Probability of each result code in a column, for a fair roll of the table's die with
    /// `drm` added (see [`ResultsTable::chances`]).
    pub fn distribution(&self, column: usize, drm: i32) -> Vec<(String, f64)> {
        self.chances(column, drm)
            .into_iter()
            .map(|(code, p, _)| (code, p))
            .collect()
    }
}

/// Refuses a negative attack or defence strength: a strength is a whole number, 0 or more (an
/// odds column of a negative strength means nothing, and used to fall silently off the table).
pub fn check_strengths(attack: i32, defence: i32) -> Result<(), String> {
    for (what, v) in [("attack", attack), ("defence", defence)] {
        if v < 0 {
            return Err(format!(
                "{what} strength {v}: strengths are whole numbers, 0 or more"
            ));
        }
    }
    Ok(())
}

/// Strengths added together, as the odds read them: a total past an `i32` stays at `i32::MAX`
/// (above any table's last column) where a plain sum panicked a debug build and wrapped round to
/// a negative strength in a release build (two counters of 2000000000 in one attack).
pub fn total_strength(strengths: impl IntoIterator<Item = i32>) -> i32 {
    strengths.into_iter().fold(0, i32::saturating_add)
}

/// A 1-D dice table: a (modified) roll → a result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceTable {
    /// Table id.
    pub id: String,
    /// `(lowest roll, result)` bands in ascending order; a roll takes the last band it reaches.
    pub bands: Vec<(i32, String)>,
}

impl DiceTable {
    /// The result for a roll plus modifiers; rolls below the first band take the first.
    pub fn lookup(&self, roll: i32) -> Option<&str> {
        let mut found = self.bands.first().map(|(_, r)| r.as_str());
        for (min, result) in &self.bands {
            if roll >= *min {
                found = Some(result);
            }
        }
        found
    }
}

/// A 2-D table keyed by words: a row name and a column name give a cell (plain data), e.g. a
/// campaign chart of dates × sides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WordTable {
    /// Table id.
    pub id: String,
    /// Row names, in order.
    pub rows: Vec<String>,
    /// Column names, in order.
    pub columns: Vec<String>,
    /// `cells[row][column]`; a null cell is an empty one.
    pub cells: Vec<Vec<crate::state::Value>>,
}

impl WordTable {
    /// Checks the shape: names unique and not empty, one cell per row and column.
    pub fn validate(&self) -> Result<(), TableError> {
        let shape = |m: String| Err(TableError::Shape(self.id.clone(), m));
        for (what, names) in [("row", &self.rows), ("column", &self.columns)] {
            if names.is_empty() {
                return shape(format!("no {what}s"));
            }
            let mut seen = std::collections::BTreeSet::new();
            for n in names {
                if !seen.insert(n) {
                    return shape(format!("{what} `{n}` is named twice"));
                }
            }
        }
        if self.cells.len() != self.rows.len() {
            return shape(format!(
                "{} rows of cells for {} row names",
                self.cells.len(),
                self.rows.len()
            ));
        }
        for (name, row) in self.rows.iter().zip(&self.cells) {
            if row.len() != self.columns.len() {
                return shape(format!(
                    "row `{name}` has {} cells, expected {}",
                    row.len(),
                    self.columns.len()
                ));
            }
        }
        Ok(())
    }

    /// The cell at a row and a column, by name; `None` for an unknown name or an empty cell.
    pub fn cell(&self, row: &str, column: &str) -> Option<&crate::state::Value> {
        let r = self.rows.iter().position(|n| n == row)?;
        let c = self.columns.iter().position(|n| n == column)?;
        self.cells.get(r)?.get(c).filter(|v| !v.is_null())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strengths_past_an_i32_add_up_to_above_the_table() {
        assert_eq!(total_strength([4, 3]), 7);
        assert_eq!(total_strength([]), 0);
        let total = total_strength([2_000_000_000, 2_000_000_000, 5]);
        assert_eq!(total, i32::MAX);
        let o = ratio_table().odds(total, 3, 0);
        assert!(o.above && o.column == 5, "{o:?}");
    }

    fn ratio_table() -> ResultsTable {
        let cols = [(1, 3), (1, 2), (1, 1), (2, 1), (3, 1), (4, 1)];
        ResultsTable {
            id: "t".into(),
            kind: OddsKind::Ratio,
            columns: cols.iter().map(|&(att, def)| Column { att, def }).collect(),
            first_roll: 1,
            rows: (1..=6)
                .map(|r| (0..6).map(|c| format!("r{r}c{c}")).collect())
                .collect(),
            die: None,
        }
    }

    #[test]
    fn strengths_below_zero_are_refused_by_name() {
        assert!(check_strengths(0, 0).is_ok());
        let e = check_strengths(-5, 0).expect_err("negative attack");
        assert!(e.contains("attack strength -5"), "{e}");
        let e = check_strengths(3, -1).expect_err("negative defence");
        assert!(e.contains("defence strength -1"), "{e}");
    }

    #[test]
    fn ratios_round_in_the_defenders_favour() {
        let t = ratio_table();
        assert_eq!(t.raw_column(5, 2), 3); // 2.5-1 → 2-1
        assert_eq!(t.raw_column(8, 3), 3); // 2.67-1 → 2-1
        assert_eq!(t.raw_column(3, 4), 1); // 0.75 → 1-2
        assert_eq!(t.raw_column(3, 3), 2); // 1-1
        assert_eq!(t.raw_column(1, 4), -1); // below 1-3
        assert_eq!(t.raw_column(12, 3), 5); // exactly 4-1
        assert_eq!(t.raw_column(20, 3), 6); // above the table
    }

    #[test]
    fn shifts_are_capped_and_flag_the_ends() {
        let t = ratio_table();
        let o = t.odds(1, 4, 0);
        assert_eq!((o.column, o.below), (0, true));
        let o = t.odds(20, 3, 0);
        assert_eq!((o.column, o.above), (5, true));
        let o = t.odds(6, 3, -1);
        assert_eq!(o.column, 2);
        assert_eq!(t.result(2, 3), Some("r3c2"));
        let dist = t.distribution(0, 0);
        assert_eq!(dist.len(), 6);
        assert!((dist.iter().map(|d| d.1).sum::<f64>() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn differential_and_dice_tables() {
        let t = ResultsTable {
            id: "d".into(),
            kind: OddsKind::Differential,
            columns: (-2..=2).map(|n| Column { att: n, def: 0 }).collect(),
            first_roll: 1,
            rows: vec![vec!["a".into(); 5]],
            die: None,
        };
        assert_eq!(t.raw_column(5, 4), 3);
        assert_eq!(t.raw_column(1, 9), -1);
        let d = DiceTable {
            id: "x".into(),
            bands: vec![(1, "lo".into()), (4, "hi".into())],
        };
        assert_eq!(d.lookup(0), Some("lo"));
        assert_eq!(d.lookup(4), Some("hi"));
        assert_eq!(d.lookup(9), Some("hi"));
    }

    /// A d6 on rows for modified rolls 0 to 7: the chances are the die's six faces with the
    /// modifier added, never the eight rows read as a d8 (which gave roll 0 and roll 7 a chance).
    #[test]
    fn a_table_with_rows_for_modified_rolls_is_read_with_its_die() {
        let mut t = ResultsTable {
            id: "m".into(),
            kind: OddsKind::Ratio,
            columns: vec![Column { att: 1, def: 1 }],
            first_roll: 0,
            rows: (0..=7).map(|r| vec![format!("r{r}")]).collect(),
            die: Some(6),
        };
        assert_eq!(t.validate(), Ok(()));
        assert_eq!(t.faces(), 1..=6);
        let plain = t.chances(0, 0);
        assert_eq!(plain.len(), 6, "{plain:?}");
        assert_eq!(
            (plain[0].0.as_str(), plain[0].2.as_slice()),
            ("r1", &[1][..])
        );
        assert!((plain[0].1 - 1.0 / 6.0).abs() < 1e-9);
        // −1: a 1 reads row 0; +2: a 5 and a 6 both read the last row, 7
        let minus = t.chances(0, -1);
        assert_eq!(minus[0].0, "r0");
        let plus = t.chances(0, 2);
        let last = plus.last().expect("rows");
        assert_eq!((last.0.as_str(), last.2.as_slice()), ("r7", &[5, 6][..]));
        assert!((last.1 - 2.0 / 6.0).abs() < 1e-9);
        // without a die every row is a face, as before
        t.die = None;
        assert_eq!(t.faces(), 0..=7);
        assert_eq!(t.distribution(0, 0).len(), 8);
        t.die = Some(0);
        let e = t.validate().expect_err("a die of no faces");
        assert!(e.to_string().contains("1 to 1000, not 0"), "{e}");
    }

    fn dates() -> WordTable {
        WordTable {
            id: "dates".into(),
            rows: vec!["dawn".into(), "dusk".into()],
            columns: vec!["red".into(), "blue".into()],
            cells: vec![
                vec![serde_json::json!(12), serde_json::json!("rain")],
                vec![serde_json::json!(null), serde_json::json!({"cpp": 3})],
            ],
        }
    }

    #[test]
    fn word_tables_look_up_by_row_and_column_name() {
        let t = dates();
        assert_eq!(t.validate(), Ok(()));
        assert_eq!(t.cell("dawn", "red"), Some(&serde_json::json!(12)));
        assert_eq!(t.cell("dusk", "blue"), Some(&serde_json::json!({"cpp": 3})));
        assert_eq!(t.cell("dusk", "red"), None, "an empty cell");
        assert_eq!(t.cell("noon", "red"), None, "an unknown row");
        assert_eq!(t.cell("dawn", "green"), None, "an unknown column");
    }

    #[test]
    fn a_badly_shaped_word_table_says_where() {
        let mut t = dates();
        t.cells[1].pop();
        assert!(t
            .validate()
            .expect_err("refused")
            .to_string()
            .contains("row `dusk` has 1 cells"));
        let mut t = dates();
        t.columns[1] = "red".into();
        assert!(t
            .validate()
            .expect_err("refused")
            .to_string()
            .contains("named twice"));
    }
}
