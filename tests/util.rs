//! Running the `kessel` binary and making scratch files.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The output of one run.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `kessel` with arguments from the repository root.
pub fn kessel(args: &[&str]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kessel"));
    cmd.args(args).current_dir(root());
    run(cmd)
}

fn run(mut cmd: Command) -> Run {
    let out = cmd.output().expect("run kessel");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub use kessel_test_support::{scratch, toy_copy};

/// Writes a file and returns its path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).expect("parent");
    }
    std::fs::write(&p, text).expect("write");
    p
}

/// Runs `kessel` in `dir` with the user's data and cache folders moved under `home`, so a test
/// neither reads nor fills the real ones.
pub fn kessel_at(dir: &Path, home: &Path, args: &[&str]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kessel"));
    cmd.args(args)
        .current_dir(dir)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CACHE_HOME", home.join("cache"));
    run(cmd)
}

/// A save edited by hand, signed again as Kessel signs saves (its `checksum` made to match), so
/// that a test reaches the checks after the checksum: the save as a crafted one would be.
pub fn resign_save(save: &mut serde_json::Value) {
    let file: kessel_core::engine::SaveFile =
        serde_json::from_value(save.clone()).expect("the edited save still reads as a save");
    save["checksum"] = serde_json::Value::String(file.compute_checksum());
}
