//! The scenario file as read: one type per TOML table (serde, unknown keys refused), with the
//! spans that locate each problem. [`super::build`] checks them and builds the scenario.

use super::{Whole, MAX_MARKERS, MAX_POOL_FACES, MAX_TURNS, S};
use crate::state::Value;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ScenarioFile {
    pub(super) scenario: ScenarioHeader,
    #[serde(default)]
    pub(super) pools: Vec<S<PoolEntry>>,
    #[serde(default)]
    pub(super) units: Vec<S<UnitEntry>>,
    #[serde(default)]
    pub(super) markers: Vec<S<MarkerEntry>>,
    #[serde(default)]
    pub(super) objectives: Vec<S<ObjectiveEntry>>,
    #[serde(default)]
    pub(super) levels: Vec<S<LevelEntry>>,
    #[serde(default)]
    pub(super) vars: BTreeMap<S<String>, toml::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ScenarioHeader {
    pub(super) name: String,
    pub(super) ruleset: S<String>,
    #[serde(default)]
    pub(super) profile: Option<S<String>>,
    pub(super) map: S<String>,
    pub(super) turns: S<Whole<1, MAX_TURNS>>,
    #[serde(default)]
    pub(super) first_turn: Option<S<Whole<1, MAX_TURNS>>>,
    #[serde(default)]
    pub(super) notes: String,
    #[serde(default)]
    pub(super) scripts: Vec<S<String>>,
    /// The ruleset's sides that take part (all of them when absent).
    #[serde(default)]
    pub(super) sides: Option<S<Vec<String>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PoolEntry {
    pub(super) id: String,
    #[serde(default)]
    pub(super) side: Option<String>,
    pub(super) faces: Vec<S<(String, Whole<0, { MAX_POOL_FACES as u32 }>)>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct UnitEntry {
    pub(super) id: String,
    #[serde(default)]
    pub(super) name: Option<String>,
    pub(super) side: S<String>,
    #[serde(rename = "type")]
    pub(super) kind: S<String>,
    #[serde(default)]
    pub(super) formation: Option<String>,
    #[serde(default)]
    pub(super) faces: Vec<S<FaceEntry>>,
    #[serde(default)]
    pub(super) hidden: bool,
    #[serde(default)]
    pub(super) pool: Option<S<String>>,
    #[serde(default)]
    pub(super) at: Option<S<String>>,
    #[serde(default)]
    pub(super) area: Option<S<String>>,
    #[serde(default)]
    pub(super) enter: Option<S<EnterEntry>>,
    #[serde(default)]
    pub(super) attrs: BTreeMap<String, i64>,
    /// Steps already lost at set-up (a reduced unit). Read whole, and checked against the unit's
    /// faces: a negative or huge one was said with a u32's range.
    #[serde(default)]
    pub(super) step: Option<S<i64>>,
    /// Flags set at set-up.
    #[serde(default)]
    pub(super) flags: Vec<String>,
    /// Variables at set-up (plain data, as the rules' unit variables).
    #[serde(default)]
    pub(super) vars: Option<S<BTreeMap<String, toml::Value>>>,
    /// Hidden from these sides at the start (what `kessel.emit.hide` does in play).
    #[serde(default)]
    pub(super) hidden_from: Option<S<HiddenFromEntry>>,
}

/// A face in a scenario file: `"4-2-6"` (attack-defence-movement) or named values
/// (`{ firepower = 4, range = 4, morale = 7 }`).
#[derive(Deserialize)]
#[serde(
    untagged,
    expecting = "a face is text such as \"4-2-6\", or a table of named values"
)]
pub(super) enum FaceEntry {
    Text(String),
    Named(BTreeMap<String, toml::Value>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EnterEntry {
    pub(super) turn: Whole<0, MAX_TURNS>,
    pub(super) area: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MarkerEntry {
    pub(super) kind: String,
    #[serde(default)]
    pub(super) side: Option<String>,
    #[serde(default)]
    pub(super) count: Option<S<Whole<0, MAX_MARKERS>>>,
    /// Placed in this hex at set-up (one marker; `count` must then be 1 or absent).
    #[serde(default)]
    pub(super) at: Option<S<String>>,
    /// With `at`: on the hexside between `at` and this adjacent hex.
    #[serde(default)]
    pub(super) other: Option<S<String>>,
    /// The marker's value (plain data).
    #[serde(default)]
    pub(super) value: Option<S<toml::Value>>,
    /// Hidden from these sides at the start.
    #[serde(default)]
    pub(super) hidden_from: Option<S<HiddenFromEntry>>,
}

/// `hidden_from` in a file: `true` (every side but the owner's), one side, or a list of sides.
#[derive(Deserialize)]
#[serde(
    untagged,
    expecting = "`hidden_from` takes true, false, a side, or a list of sides"
)]
pub(super) enum HiddenFromEntry {
    All(bool),
    One(String),
    Many(Vec<String>),
}

impl HiddenFromEntry {
    /// What it says, as the scenario keeps it (`None` for `false` or an empty list).
    pub(super) fn resolve(&self) -> Option<super::HiddenFrom> {
        match self {
            HiddenFromEntry::All(true) => Some(super::HiddenFrom::AllButOwner),
            HiddenFromEntry::All(false) => None,
            HiddenFromEntry::One(s) => Some(super::HiddenFrom::Sides(vec![s.clone()])),
            HiddenFromEntry::Many(v) if v.is_empty() => None,
            HiddenFromEntry::Many(v) => Some(super::HiddenFrom::Sides(v.clone())),
        }
    }
}

impl MarkerEntry {
    pub(super) fn count(&self) -> u32 {
        self.count.as_ref().map_or(1, |c| c.get_ref().0)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ObjectiveEntry {
    #[serde(default)]
    pub(super) place: Option<String>,
    #[serde(default)]
    pub(super) name: Option<String>,
    #[serde(default)]
    pub(super) hexes: Vec<String>,
    // (spanned: a vp out of range is said at its own line, as a level's max is)
    pub(super) vp: S<i64>,
    #[serde(default)]
    pub(super) side: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LevelEntry {
    pub(super) name: String,
    #[serde(default)]
    pub(super) max: Option<S<i64>>,
}

/// The largest value (as JSON) a unit variable or a marker value may have in a scenario file.
pub(super) const MAX_PLAIN: usize = 1 << 20;

/// A TOML value as the plain data the rules read: dates and times become the text they are
/// written as, and a NaN or infinite number (TOML's `nan`, `inf`) is refused, saying which (JSON
/// has no such numbers: it became null, and the value or field holding it was lost unseen).
/// The error reads after the name of what holds the value: "holds nan, which …".
pub(super) fn plain_data(v: &toml::Value) -> Result<Value, String> {
    Ok(match v {
        toml::Value::String(s) => Value::String(s.clone()),
        toml::Value::Integer(i) => Value::from(*i),
        toml::Value::Boolean(b) => Value::Bool(*b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Float(f) => match serde_json::Number::from_f64(*f) {
            Some(n) => Value::Number(n),
            None => {
                let written = if f.is_nan() {
                    "nan"
                } else if *f > 0.0 {
                    "inf"
                } else {
                    "-inf"
                };
                return Err(format!(
                    "holds {written}, which is not a number the rules can use: write a finite \
                     number"
                ));
            }
        },
        toml::Value::Array(items) => {
            Value::Array(items.iter().map(plain_data).collect::<Result<_, _>>()?)
        }
        toml::Value::Table(t) => Value::Object(
            t.iter()
                .map(|(k, v)| Ok((k.clone(), plain_data(v)?)))
                .collect::<Result<_, String>>()?,
        ),
    })
}

/// [`plain_data`] bounded in size: a unit variable or a marker value.
pub(super) fn plain_value(v: &toml::Value) -> Result<Value, String> {
    let json = plain_data(v)?;
    let size = serde_json::to_vec(&json).map_or(usize::MAX, |b| b.len());
    if size > MAX_PLAIN {
        return Err(format!(
            "is {size} bytes as JSON, over the limit ({MAX_PLAIN})"
        ));
    }
    Ok(json)
}
