//! Error types at the core's boundaries: loading files and running scripts.
//!
//! A rule *rejection* is not an error (see [`crate::action::Rejection`]); these are for broken
//! input: a TOML typo, an unknown hex, a Lua syntax error, a script over its budget.

use std::fmt;
use std::path::{Path, PathBuf};

/// A problem in a data or script file, located by file and line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct LoadError {
    /// The file.
    pub file: PathBuf,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}: {}", self.file.display(), l, self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

impl LoadError {
    /// A located error.
    pub fn new(file: &Path, line: Option<usize>, message: impl Into<String>) -> LoadError {
        LoadError {
            file: file.to_path_buf(),
            line,
            message: message.into(),
        }
    }
}

/// Every problem found in one load (loading collects, it does not stop at the first).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct LoadErrors(pub Vec<LoadError>);

impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl From<LoadError> for LoadErrors {
    fn from(e: LoadError) -> Self {
        LoadErrors(vec![e])
    }
}

/// 1-based line of a byte offset in a text.
pub fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// Line starts of a text, so that locating many offsets stays linear in the text's size.
#[derive(Clone, Debug)]
pub struct LineIndex(Vec<usize>);

impl LineIndex {
    /// Indexes the newlines of `text`.
    pub fn new(text: &str) -> LineIndex {
        LineIndex(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i)
                .collect(),
        )
    }

    /// 1-based line of a byte offset (the same answer as [`line_of`]).
    pub fn line(&self, offset: usize) -> usize {
        self.0.partition_point(|&nl| nl < offset) + 1
    }
}

/// Turns a `toml` parse error into a located error.
pub fn toml_error(file: &Path, text: &str, err: &toml::de::Error) -> LoadError {
    let line = err.span().map(|s| line_of(text, s.start));
    LoadError::new(file, line, err.message().to_string())
}
