//! Helpers shared by the test crates of the workspace (core, editor, the CLI): scratch copies of
//! fixture folders that a test may write into.
//!
//! # Layout
//! - [`copy_dir`]: a folder copied recursively.
//! - [`scratch`]: an empty folder of its own for one test.
//! - [`toy_copy`]: a private copy of the core's toy ruleset and scenario.

#![allow(clippy::unwrap_used)] // test support: a failure here is a broken test machine

use std::path::{Path, PathBuf};

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("test-support sits in the workspace")
        .to_path_buf()
}

/// Copies `from` into `to` recursively (creating `to`).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read the folder to copy") {
        let p = e.expect("entry").path();
        let dest = to.join(p.file_name().expect("name"));
        if p.is_dir() {
            copy_dir(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).expect("copy");
        }
    }
}

/// An empty folder for the test `name` in the system's temporary folder (emptied first: a test
/// run starts from nothing even after an earlier run failed half-way).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kessel-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    dir
}

/// A fresh copy of `core/tests/fixtures/toy` for the test `name`.
pub fn toy_copy(name: &str) -> PathBuf {
    let dir = scratch(name);
    copy_dir(&workspace_root().join("core/tests/fixtures/toy"), &dir);
    dir
}

/// A fresh toy copy (see [`toy_copy`]) whose AI is `hook`, a Lua `ai` hook registered ahead of
/// the toy's own (only the first `ai` hook registered is used).
pub fn toy_with_ai_hook(name: &str, hook: &str) -> PathBuf {
    let dir = toy_copy(name);
    let play = dir.join("rules/play.lua");
    let text = std::fs::read_to_string(&play).expect("read the toy's play.lua");
    let marker = "kessel.on(\"ai\"";
    assert!(text.contains(marker), "the toy registers an ai hook");
    std::fs::write(
        &play,
        text.replacen(marker, &format!("\n{hook}\n{marker}"), 1),
    )
    .expect("write the toy's play.lua");
    dir
}

/// Appends an endless loop to a Lua file, so that loading it runs until a limit or a stop ends it.
pub fn append_endless_loop(path: &Path) {
    let good = std::fs::read_to_string(path).expect("read the Lua file");
    std::fs::write(
        path,
        format!("{good}\nlocal n = 0\nwhile true do n = n + 1 end\n"),
    )
    .expect("write the Lua file");
}
