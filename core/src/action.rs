//! Actions: player decisions as the rules receive them, and rejections with their reasons.
//!
//! An action is a kind (`"move"`, `"attack"`, …, named by the ruleset) plus parameters. The core does
//! not interpret it: the ruleset's validator accepts it or rejects it with reasons citing rule cases.

use crate::state::Value;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A player decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Action {
    /// Action kind, declared by the ruleset.
    pub kind: String,
    /// The side that sent it (the rules see it as `action.side`). `None` in an action not yet
    /// sent and in saves made before actions carried their side; [`crate::engine::Engine::act`]
    /// fills in the deciding side. Whether a side may act now is the rules' call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Parameters (unit ids, hex labels, choices), as the ruleset defines them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, Value>,
}

impl Action {
    /// An action with no parameters.
    pub fn new(kind: &str) -> Action {
        Action {
            kind: kind.to_string(),
            side: None,
            params: BTreeMap::new(),
        }
    }

    /// The same action sent by `side`.
    pub fn by(mut self, side: &str) -> Action {
        self.side = Some(side.to_string());
        self
    }

    /// Adds a parameter.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Action {
        self.params.insert(key.to_string(), value.into());
        self
    }
}

/// One reason an action was refused (or a modifier applied), with the rule that says so.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reason {
    /// Rule case, e.g. `"6.22"` or `"House #3"`.
    pub rule: Option<String>,
    /// Explanation a player can check against the rulebook.
    pub message: String,
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.rule {
            Some(r) => write!(f, "{} [{}]", self.message, r),
            None => write!(f, "{}", self.message),
        }
    }
}

/// A refused action: not an error, a ruling.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejection {
    /// Every reason found.
    pub reasons: Vec<Reason>,
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.reasons.iter().map(|r| r.to_string()).collect();
        write!(f, "refused: {}", parts.join("; "))
    }
}
