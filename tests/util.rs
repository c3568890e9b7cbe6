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

/// A copy of the PGG campaign (with its map, its ruleset named by an absolute path) whose text
/// is changed by `edit`; its path.
pub fn edited_campaign(name: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let dir = scratch(name);
    let src = root().join("scenarios/pgg");
    std::fs::copy(src.join("map.toml"), dir.join("map.toml")).expect("map");
    let text = std::fs::read_to_string(src.join("campaign.toml")).expect("campaign");
    let ruleset = root().join("scripts/pgg");
    let text = text.replace(
        "ruleset = \"../../scripts/pgg\"",
        &format!("ruleset = {:?}", ruleset.to_str().expect("utf8")),
    );
    let edited = edit(text.clone());
    assert_ne!(edited, text, "{name}: the edit applies");
    let path = dir.join("campaign.toml");
    std::fs::write(&path, edited).expect("write");
    path
}

/// A copy of the toy scenario that stacks three red units in hex 0203, over the default
/// stacking limit (2) and within a raised one: its `scenario.toml`.
pub fn toy_stacked_three(name: &str) -> PathBuf {
    let dir = toy_copy(name);
    let scenario = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("toy scenario");
    let stacked = text.replace("at = \"0103\"", "at = \"0203\"")
        + "\n[[units]]\nid = \"r3\"\nside = \"red\"\ntype = \"inf\"\nfaces = [\"3-3-4\"]\nat = \"0203\"\n";
    std::fs::write(&scenario, stacked).expect("write");
    scenario
}
