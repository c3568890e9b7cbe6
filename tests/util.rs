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
    let out = Command::new(env!("CARGO_BIN_EXE_kessel"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run kessel");
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

/// A fresh scratch folder for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kessel-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Writes a file and returns its path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).expect("parent");
    }
    std::fs::write(&p, text).expect("write");
    p
}

/// Copies the toy ruleset and scenario into a scratch folder, so a test can break a file.
pub fn toy_copy(name: &str) -> PathBuf {
    let dir = scratch(name);
    let src = root().join("core/tests/fixtures/toy");
    copy_dir(&src, &dir);
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read") {
        let p = e.expect("entry").path();
        let dest = to.join(p.file_name().expect("name"));
        if p.is_dir() {
            copy_dir(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).expect("copy");
        }
    }
}
