//! Helpers shared by the test crates of the workspace (core, editor, the CLI): scratch copies of
//! fixture folders that a test may write into.
//!
//! # Layout
//! - [`copy_dir`]: a folder copied recursively.
//! - [`scratch`]: an empty folder of its own for one test, removed once its process has ended
//!   (by the next test process).
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

/// An empty folder for the test `name` (emptied first: a test run starts from nothing even after
/// an earlier run failed half-way).
///
/// Every scratch folder of one test process lies in that process's own folder
/// (`kessel-tests-<pid>` in the system's temporary folder), so test binaries running at once (two
/// worktrees, `cargo test` and CI) never share one; the first call of a process removes the
/// folders of test processes that have ended, so repeated runs do not fill the disk (they left
/// some 2 GB a day of toy copies and campaign saves behind).
pub fn scratch(name: &str) -> PathBuf {
    let dir = process_root().join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    dir
}

const ROOT_PREFIX: &str = "kessel-tests-";

/// This process's folder of scratch folders, made on first use after sweeping away those of ended
/// processes.
fn process_root() -> PathBuf {
    static ROOT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        let tmp = std::env::temp_dir();
        sweep_ended(&tmp);
        let root = tmp.join(format!("{ROOT_PREFIX}{}", std::process::id()));
        std::fs::create_dir_all(&root).expect("mkdir");
        root
    })
    .clone()
}

/// Removes the scratch roots in `tmp` whose process has ended. Where the system does not say which
/// processes run (no `/proc`), a root is taken for ended once it is a day old.
fn sweep_ended(tmp: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    let own = std::process::id();
    let proc_fs = Path::new("/proc/self").exists();
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(ROOT_PREFIX))
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == own {
            continue;
        }
        let ended = if proc_fs {
            !Path::new("/proc").join(pid.to_string()).exists()
        } else {
            e.metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > std::time::Duration::from_secs(24 * 3600))
        };
        if ended {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sweep_removes_only_the_roots_of_ended_processes() {
        let tmp = scratch("sweep");
        let own = tmp.join(format!("{ROOT_PREFIX}{}", std::process::id()));
        // no process has this number (Linux's largest is 2^22)
        let ended = tmp.join(format!("{ROOT_PREFIX}{}", u32::MAX - 1));
        let other = tmp.join("kessel-notes-12");
        for d in [&own, &ended, &other] {
            std::fs::create_dir_all(d.join("inner")).expect("mkdir");
        }
        if !Path::new("/proc/self").exists() {
            return; // the age rule cannot be tried on folders made a moment ago
        }
        sweep_ended(&tmp);
        assert!(own.exists(), "a running process keeps its folder");
        assert!(!ended.exists(), "an ended process's folder goes");
        assert!(other.exists(), "a folder of another name stays");
    }

    #[test]
    fn scratch_folders_are_empty_and_inside_the_process_root() {
        let a = scratch("one");
        std::fs::write(a.join("x"), "x").expect("write");
        let again = scratch("one");
        assert_eq!(a, again);
        assert!(!again.join("x").exists(), "a scratch folder starts empty");
        assert!(again.starts_with(process_root()));
    }
}
