//! The file problems the error panel shows (a scenario or rules file that failed to load or
//! reload), kept until a later reload fixes them.

use super::messages::{self, tidy_paths_in};

/// A file problem shown in the error panel until a later reload fixes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What failed, and what the editor did about it.
    pub title: String,
    /// `file:line`, when known.
    pub location: Option<String>,
    /// The message.
    pub message: String,
}

impl Problem {
    /// A problem from the core's located error: its file and line become the location (tidied
    /// for display), never parsed back out of the text.
    pub fn located(title: &str, e: &kessel_core::error::Located) -> Problem {
        let location = e.file.as_deref().map(|f| match e.line {
            Some(l) => format!("{}:{l}", messages::tidy_path(f)),
            None => messages::tidy_path(f),
        });
        Problem {
            title: title.to_string(),
            location,
            message: tidy_paths_in(&e.message),
        }
    }
}

/// The problems of the last reloads, by what they concern.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problems {
    /// The ruleset's scripts.
    pub rules: Option<Problem>,
    /// The scenario or map files.
    pub scenario: Option<Problem>,
}

impl Problems {
    /// True when every file loaded.
    pub fn is_empty(&self) -> bool {
        self.rules.is_none() && self.scenario.is_none()
    }
}
