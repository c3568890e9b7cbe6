//! An attack's odds under the ruleset: the `odds` hook's modifiers, the column, and the chance of
//! each result, as data. How it is shown (text, a panel) is the caller's business.

use super::{hooks, Engine};
use crate::action::Reason;
use crate::script::ScriptError;

/// The chance of one result code in the odds column.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultChance {
    /// Result code (`DE`, `A1`, …).
    pub code: String,
    /// Probability with a fair roll of the table's die (its `die`, else one face a row).
    pub probability: f64,
    /// The faces of the die that give it, before the die roll modifier.
    pub rolls: Vec<i32>,
}

/// What the rules make of an attack of `attack` against `defence`.
#[derive(Clone, Debug, PartialEq)]
pub struct OddsReport {
    /// Strengths as given.
    pub attack: i32,
    /// Strengths as given.
    pub defence: i32,
    /// Attack after the ruleset's modifiers.
    pub modified_attack: i32,
    /// Defence after the ruleset's modifiers.
    pub modified_defence: i32,
    /// Column shift in all (the hook's and the caller's).
    pub shift: i32,
    /// Die roll modifier in all (the hook's and the caller's), added to each roll.
    pub drm: i32,
    /// Every modifier the hook applied, with its rule.
    pub modifiers: Vec<Reason>,
    /// The column's label (`3-1`, `+2`).
    pub column: String,
    /// The odds were below the table (resolved on its first column).
    pub below: bool,
    /// The odds were above the table (resolved on its last column).
    pub above: bool,
    /// Each result possible in the column.
    pub chances: Vec<ResultChance>,
}

impl Engine {
    /// The odds of an attack under the ruleset's `odds` hook (with modifier `flags`) on results
    /// table `table`, with `shift` columns and `drm` added to the roll besides the hook's, and the
    /// chance of each result.
    pub fn odds(
        &self,
        table: &str,
        attack: i32,
        defence: i32,
        (shift, drm): (i32, i32),
        flags: &[String],
    ) -> Result<OddsReport, ScriptError> {
        crate::tables::check_strengths(attack, defence).map_err(ScriptError::plain)?;
        let m = self
            .host
            .guarded(|lua| hooks::call_odds_hook(lua, &self.world, attack, defence, flags))?;
        let ruleset = self.ruleset();
        let options = self.options();
        let t = ruleset.table(table, &options).ok_or_else(|| {
            let known: Vec<&str> = ruleset.tables.keys().map(String::as_str).collect();
            ScriptError::plain(format!(
                "the ruleset has no results table `{table}` (it has: {})",
                known.join(", ")
            ))
        })?;
        let shift = m.shift.saturating_add(shift);
        let drm = m.drm.saturating_add(drm);
        let o = t.odds(m.attack, m.defence, shift);
        let chances = t
            .chances(o.column, drm)
            .into_iter()
            .map(|(code, probability, rolls)| ResultChance {
                code,
                probability,
                rolls,
            })
            .collect();
        Ok(OddsReport {
            attack,
            defence,
            modified_attack: m.attack,
            modified_defence: m.defence,
            shift,
            drm,
            modifiers: m.notes,
            column: t.columns[o.column].label(&t.kind),
            below: o.below,
            above: o.above,
            chances,
        })
    }
}
