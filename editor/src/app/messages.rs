//! Paths and error messages as the status bar and the error panel show them.
//!
//! `location_of` reads `file:line` back out of an error's text; once the core's errors carry
//! their location as data it goes.

use kessel_core::script::display_path;
use std::path::PathBuf;

/// Paths as the status bar shows them: relative to the working directory, comma-separated.
pub(super) fn paths_text(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| display_path(p))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `scenarios/pgg/../../scripts/pgg/x.lua` → `scripts/pgg/x.lua`: a path as people write it.
/// Lexical only (no file system), which is right for display.
pub(super) fn tidy_path(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "." if !out.is_empty() => {}
            ".." if out.last().is_some_and(|l| *l != ".." && !l.is_empty()) => {
                out.pop();
            }
            _ => out.push(part),
        }
    }
    out.join("/")
}

/// [`tidy_path`] applied to every word of a message that walks up with `/../`.
pub(super) fn tidy_paths_in(message: &str) -> String {
    message
        .split(' ')
        .map(|w| {
            if w.contains("/../") {
                tidy_path(w)
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_tidied_for_display() {
        assert_eq!(
            tidy_path("scenarios/pgg/../../scripts/pgg/rules/zoc.lua"),
            "scripts/pgg/rules/zoc.lua"
        );
        assert_eq!(tidy_path("../x/./y.lua"), "../x/y.lua");
        assert_eq!(
            tidy_paths_in("a/b/../c.lua:3: unexpected symbol"),
            "a/c.lua:3: unexpected symbol"
        );
    }

    #[test]
    fn paths_are_listed_relative() {
        let p = std::env::current_dir().expect("cwd").join("x/y.lua");
        assert_eq!(paths_text(&[p]), "x/y.lua");
    }
}
