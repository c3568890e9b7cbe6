//! Files as the lab names them: a content hash that is the same on every machine (headers
//! carry the scenario's and the ruleset's, so that `kessel report` merges only games of the same
//! rules), and the walks of a folder that feed it and `kessel pack`.

use anyhow::Context;
use std::path::{Path, PathBuf};

/// FNV-1a, 64 bits: a content hash that is the same on every machine and Rust version.
#[derive(Clone, Copy, Debug)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    /// Adds bytes.
    pub fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// Adds a length-prefixed chunk, so that ("ab", "c") and ("a", "bc") differ.
    pub fn chunk(&mut self, bytes: &[u8]) {
        self.write(&(bytes.len() as u64).to_le_bytes());
        self.write(bytes);
    }

    /// The hash as 16 hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

/// Hashes files (path relative to `base` and content, in the order given). A file is read a
/// block at a time (the hash is the one of its whole content): a ruleset folder may hold a
/// picture or a recording far larger than any text the engine reads.
pub fn hash_files(base: &Path, files: &[PathBuf]) -> anyhow::Result<String> {
    use std::io::Read;
    let mut h = Fnv::default();
    for f in files {
        let rel = f.strip_prefix(base).unwrap_or(f);
        h.chunk(rel.to_string_lossy().replace('\\', "/").as_bytes());
        let reading = || format!("reading {}", f.display());
        let meta = std::fs::metadata(f).with_context(reading)?;
        anyhow::ensure!(
            meta.is_file(),
            "reading {}: it is not a regular file (a folder, a device, a FIFO or a socket)",
            f.display()
        );
        let len = meta.len();
        let mut file = std::fs::File::open(f).with_context(reading)?;
        h.write(&len.to_le_bytes());
        let mut block = vec![0u8; 1 << 16];
        let mut read = 0u64;
        loop {
            let n = file.read(&mut block).with_context(reading)?;
            if n == 0 {
                break;
            }
            h.write(&block[..n]);
            read += n as u64;
        }
        anyhow::ensure!(read == len, "{}: it changed while it was read", f.display());
    }
    Ok(h.hex())
}

/// The files a ruleset's hash is made of: every file under `dir` but hidden ones (`.git`) and
/// those reached through a link out of `dir`, each folder once, devices and FIFOs left out,
/// sorted by path. ([`files_under`] walked a `tests/loop -> ..` into an error, a link to `/`
/// through the whole file system, and read a FIFO or a `.git` pack of 70 MB into one: `kessel
/// simulate` refused a ruleset it could play.)
pub fn rule_files_under(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let root = dir
        .canonicalize()
        .with_context(|| format!("reading {}", dir.display()))?;
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    let mut seen = std::collections::HashSet::new();
    while let Some(d) = stack.pop() {
        let Ok(real) = d.canonicalize() else { continue };
        if !real.starts_with(&root) || !seen.insert(real) {
            continue;
        }
        for e in std::fs::read_dir(&d).with_context(|| format!("reading {}", d.display()))? {
            let p = e
                .with_context(|| format!("reading {}", d.display()))?
                .path();
            if p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            {
                continue;
            }
            let Ok(real) = p.canonicalize() else { continue };
            if !real.starts_with(&root) {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else if p.is_file() {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Every file under `dir`, sorted by path.
pub fn files_under(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let root = dir
        .canonicalize()
        .with_context(|| format!("reading {}", dir.display()))?;
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    // folders already walked, by their real path: a link back to a folder above would be
    // walked without end (it failed after forty levels with a path nobody could read)
    let mut seen = std::collections::HashSet::new();
    while let Some(d) = stack.pop() {
        let real = d
            .canonicalize()
            .with_context(|| format!("reading {}", d.display()))?;
        if !seen.insert(real.clone()) {
            anyhow::bail!(
                "{} leads back to {}, a folder already read (a link loop)",
                d.display(),
                real.display()
            );
        }
        for e in std::fs::read_dir(&d).with_context(|| format!("reading {}", d.display()))? {
            let p = e
                .with_context(|| format!("reading {}", d.display()))?
                .path();
            if p.is_dir() {
                // a link to a folder elsewhere is not walked: one to `..` or `/` read the folders
                // above, and failed on a link loop or a folder of someone else's far from here
                let real = p
                    .canonicalize()
                    .with_context(|| format!("reading {}", p.display()))?;
                if !real.starts_with(&root) {
                    anyhow::bail!(
                        "{} is a link to {}, outside {}: only the folder's own files are read \
                         (copy them in, or remove the link)",
                        p.display(),
                        real.display(),
                        dir.display()
                    );
                }
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_the_reference_vectors() {
        let mut h = Fnv::default();
        assert_eq!(h.hex(), "cbf29ce484222325");
        h.write(b"a");
        assert_eq!(h.hex(), "af63dc4c8601ec8c");
        let mut h = Fnv::default();
        h.write(b"foobar");
        assert_eq!(h.hex(), "85944171f73967e8");
    }
}
