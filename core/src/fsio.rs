//! The core's one way of writing a file: [`write_atomic`]. Every file Kessel writes (renders,
//! saves, maps, scenarios, profiles, reports, screenshots) goes through it, so a reader (the
//! CLI, a hot-reload watcher, the next run) sees the old content or the new, never a truncated
//! file, and a failed write leaves the old file as it was.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A file could not be written; the old content (if any) is untouched.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}: {source}", path.display())]
pub struct WriteError {
    /// The file that was to be written.
    pub path: PathBuf,
    /// What failed.
    #[source]
    pub source: std::io::Error,
}

/// Distinguishes the temporary files of concurrent writes in one process.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path` atomically: a temporary file in the same folder (so the rename never
/// crosses file systems), written, flushed and synced, then renamed over `path`. On failure the
/// temporary file is removed and `path` keeps its old content.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let fail = |source| WriteError {
        path: path.to_path_buf(),
        source,
    };
    let file_name = path.file_name().ok_or_else(|| {
        fail(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a file path",
        ))
    })?;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(file_name);
    tmp_name.push(format!(
        ".tmp-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let tmp = match dir {
        Some(d) => d.join(&tmp_name),
        None => PathBuf::from(&tmp_name),
    };
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        // make the rename itself durable where the platform allows syncing a folder
        if let Some(d) = dir {
            if let Ok(d) = std::fs::File::open(d) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(fail(e));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_replace_and_failures_keep_the_old_file() {
        let dir = std::env::temp_dir().join(format!("kessel-fsio-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let p = dir.join("out.txt");
        write_atomic(&p, b"first").expect("write");
        write_atomic(&p, b"second").expect("overwrite");
        assert_eq!(std::fs::read(&p).expect("read"), b"second");
        // a folder where the file should be: the write fails, nothing is left behind
        let blocked = dir.join("blocked");
        std::fs::create_dir_all(blocked.join("x")).expect("dir");
        let e = write_atomic(&blocked, b"data").expect_err("a folder is in the way");
        assert!(e.to_string().contains("blocked"), "{e}");
        let left: Vec<_> = std::fs::read_dir(&dir)
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(left.len(), 2, "{left:?}");
        assert!(write_atomic(&dir.join("missing/out.txt"), b"x").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
