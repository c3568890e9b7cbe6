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

/// Turns a `toml` parse error into a located error.
pub fn toml_error(file: &Path, text: &str, err: &toml::de::Error) -> LoadError {
    let line = err.span().map(|s| line_of(text, s.start));
    LoadError::new(file, line, err.message().to_string())
}

/// Any error of the core as people and tools locate it: the file, the line when known, and the
/// message without them. Load errors, script errors and engine errors all come down to a list of
/// these, so the CLI and the editor show and link them the same way without parsing text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// The file, as shown to people (relative to the working folder where possible).
    pub file: Option<String>,
    /// 1-based line.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.line) {
            (Some(file), Some(line)) => write!(f, "{file}:{line}: {}", self.message),
            (Some(file), None) => write!(f, "{file}: {}", self.message),
            _ => write!(f, "{}", self.message),
        }
    }
}

impl From<&LoadError> for Located {
    fn from(e: &LoadError) -> Located {
        Located {
            file: Some(crate::script::display_path(&e.file)),
            line: e.line,
            message: e.message.clone(),
        }
    }
}

impl From<&crate::script::ScriptError> for Located {
    fn from(e: &crate::script::ScriptError) -> Located {
        // the message leads with its own location; keep it once, in the fields
        let mut message = e.message.as_str();
        if let Some(file) = &e.file {
            let prefix = match e.line {
                Some(l) => format!("{file}:{l}: "),
                None => format!("{file}: "),
            };
            message = message.strip_prefix(prefix.as_str()).unwrap_or(message);
        }
        Located {
            file: e.file.clone(),
            line: e.line,
            message: message.to_string(),
        }
    }
}

impl LoadErrors {
    /// Every error, located.
    pub fn located(&self) -> Vec<Located> {
        self.0.iter().map(Located::from).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::ScriptError;

    #[test]
    fn a_script_error_is_located_once() {
        let e = ScriptError {
            message: "rules/play.lua:12: unexpected symbol".into(),
            file: Some("rules/play.lua".into()),
            line: Some(12),
        };
        let l = e.located();
        assert_eq!(l.file.as_deref(), Some("rules/play.lua"));
        assert_eq!(l.line, Some(12));
        assert_eq!(l.message, "unexpected symbol");
        assert_eq!(l.to_string(), e.message);
    }

    #[test]
    fn load_errors_are_located_each() {
        let errors = LoadErrors(vec![
            LoadError::new(Path::new("a.toml"), Some(3), "bad"),
            LoadError::new(Path::new("b.toml"), None, "worse"),
        ]);
        let l = errors.located();
        assert_eq!(l.len(), 2);
        assert_eq!(l[0].to_string(), "a.toml:3: bad");
        assert_eq!(l[1].line, None);
    }
}
