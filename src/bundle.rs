//! The rulesets and scenarios bundled in the binary (`scripts/`, `scenarios/`, embedded by
//! `build.rs`), and where a command finds its scenario or ruleset when none is named.
//!
//! The embedded files are written out once to a per-user data folder named by the version and a
//! hash of their content, `$XDG_DATA_HOME/kessel/<version>-<hash>/` (else
//! `~/.local/share/kessel/…`, else the system's temporary folder), and read from there with the
//! ordinary file loaders. A new build with other content gets a folder of its own; an old
//! folder is never written over.
//!
//! Run inside a Kessel checkout (a `scenarios/pgg/campaign.toml` and `scripts/pgg/init.lua`
//! under the working folder), the working copy is used instead, so rule edits count at once.

use anyhow::Context;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/bundled.rs"));
}

/// The bundled campaign, relative to the bundle's root (or a checkout's).
pub const DEFAULT_SCENARIO: &str = "scenarios/pgg/campaign.toml";

/// The bundled ruleset used when a command needs one and none is given.
pub const DEFAULT_RULESET: &str = "scripts/pgg";

/// Hex digits of a SHA-256.
pub fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of a list of (relative path, content) pairs, in the given order: what the bundle's
/// folder name and a ruleset's content hash are made of. Lengths are hashed too, so no two
/// different lists give the same stream.
pub fn tree_hash<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> String {
    let mut h = Sha256::new();
    for (path, bytes) in files {
        h.update((path.len() as u64).to_le_bytes());
        h.update(path.as_bytes());
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    }
    hex(&h.finalize())
}

/// A per-user folder of Kessel's, by the XDG base-directory rules: `$<xdg_var>/kessel/<sub>`,
/// else `~/<home_default>/kessel/<sub>`, else `kessel-<sub>` in the temporary folder.
pub fn user_dir(xdg_var: &str, home_default: &str, sub: &str) -> PathBuf {
    let nonempty = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = nonempty(xdg_var) {
        return PathBuf::from(d).join("kessel").join(sub);
    }
    if let Some(h) = nonempty("HOME") {
        return PathBuf::from(h).join(home_default).join("kessel").join(sub);
    }
    std::env::temp_dir().join(format!("kessel-{sub}"))
}

/// The folder holding the bundled files, written out on first use.
pub fn bundle_dir() -> anyhow::Result<PathBuf> {
    let hash = tree_hash(embedded::FILES.iter().map(|(p, b)| (*p, *b)));
    let name = format!("{}-{}", env!("CARGO_PKG_VERSION"), &hash[..16]);
    let dir = user_dir("XDG_DATA_HOME", ".local/share", &name);
    if dir.join(".complete").is_file() {
        return Ok(dir);
    }
    let parent = dir.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)
        .with_context(|| format!("cannot create the data folder {}", parent.display()))?;
    // write into a private folder, then move it into place: a reader never sees half a bundle
    let tmp = parent.join(format!(".tmp-{}-{}", &hash[..16], std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    for (rel, bytes) in embedded::FILES {
        let p = tmp.join(rel);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).with_context(|| format!("cannot create {}", d.display()))?;
        }
        kessel_core::fsio::write_atomic(&p, bytes)?;
    }
    kessel_core::fsio::write_atomic(&tmp.join(".complete"), hash.as_bytes())?;
    if std::fs::rename(&tmp, &dir).is_err() {
        // another kessel finished first, or an unfinished folder is in the way
        let _ = std::fs::remove_dir_all(&tmp);
        if !dir.join(".complete").is_file() {
            anyhow::bail!(
                "cannot write the bundled rules and scenarios to {}: remove that folder and retry",
                dir.display()
            );
        }
    }
    Ok(dir)
}

/// The folder a scenario lies in when that folder is Kessel's rather than the user's: the
/// bundled files written out for this version (a new version writes its own and leaves these),
/// or an opened package's cache. The editor writes no changes there; it offers a folder of the
/// user's instead (see [`user_scenarios`]).
pub fn not_the_users(scenario: &Path) -> Option<(PathBuf, PathBuf)> {
    let path = scenario.canonicalize().ok()?;
    let roots = [
        user_dir("XDG_DATA_HOME", ".local/share", ""),
        user_dir("XDG_CACHE_HOME", ".cache", "packages"),
    ];
    roots
        .into_iter()
        .filter_map(|r| r.canonicalize().ok())
        .find(|r| path.starts_with(r))
        .map(|r| (r, user_scenarios()))
}

/// Where the user's own scenarios go by default: `~/kessel` (the temporary folder without a
/// home).
pub fn user_scenarios() -> PathBuf {
    match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        Some(h) => PathBuf::from(h).join("kessel"),
        None => std::env::temp_dir().join("kessel"),
    }
}

/// The user's folder for the profiles of a ruleset that is Kessel's own copy (bundled, or from
/// an opened package): `~/kessel/profiles/<ruleset folder name>`. Such a copy is replaced by the
/// next version, so a profile a GM saves goes here and is found by name as if it were the
/// ruleset's (see `kessel_core::fsio::set_user_profiles`). None for a ruleset of the user's
/// (a checkout, a folder of one's own): its `profiles/` is the place.
pub fn user_profiles(ruleset_dir: &Path) -> Option<PathBuf> {
    not_the_users(ruleset_dir)?;
    let name = ruleset_dir.canonicalize().ok()?.file_name()?.to_owned();
    Some(user_scenarios().join("profiles").join(name))
}

/// True when the working folder is a Kessel checkout with the default scenario and ruleset.
fn in_checkout() -> bool {
    is_checkout(Path::new(""))
}

/// Is `dir` a Kessel checkout (it holds the default scenario and ruleset)?
fn is_checkout(dir: &Path) -> bool {
    dir.join(DEFAULT_SCENARIO).is_file() && dir.join(DEFAULT_RULESET).join("init.lua").is_file()
}

/// The Kessel checkout `path` lies in, if it lies in one (canonical): its scenarios are the
/// repository's, and a game played on them is saved in the user's folder rather than beside them.
pub fn checkout_of(path: &Path) -> Option<PathBuf> {
    let path = path.canonicalize().ok()?;
    path.ancestors()
        .find(|d| is_checkout(d))
        .map(Path::to_path_buf)
}

/// The default scenario: the checkout's campaign, or the bundled one.
pub fn default_scenario() -> anyhow::Result<PathBuf> {
    if in_checkout() {
        return Ok(PathBuf::from(DEFAULT_SCENARIO));
    }
    Ok(bundle_dir()?.join(DEFAULT_SCENARIO))
}

/// A path as the user gave it, or, when it is a relative path under `scripts/` or `scenarios/`
/// that does not exist from the working folder but is bundled, the bundled copy: so the paths
/// the docs use (`scenarios/pgg/map.toml`, `scripts/pgg`) work from any folder.
pub fn resolve(p: &Path) -> anyhow::Result<PathBuf> {
    let top = p.components().next().map(|c| c.as_os_str().to_owned());
    let bundled_top = top.is_some_and(|t| t == "scripts" || t == "scenarios");
    if p.exists() || p.is_absolute() || !bundled_top {
        return Ok(p.to_path_buf());
    }
    let rel: Vec<String> = p
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let rel = rel.join("/");
    let known = embedded::FILES
        .iter()
        .any(|(f, _)| *f == rel || f.starts_with(&format!("{rel}/")));
    if !known {
        return Ok(p.to_path_buf());
    }
    Ok(bundle_dir()?.join(p))
}

/// A bundled ruleset by folder name (`pgg`), written out if needed; `None` if none has that name.
pub fn bundled_ruleset(name: &str) -> anyhow::Result<Option<PathBuf>> {
    let prefix = format!("scripts/{name}/init.lua");
    if !embedded::FILES.iter().any(|(p, _)| *p == prefix) {
        return Ok(None);
    }
    Ok(Some(bundle_dir()?.join("scripts").join(name)))
}

/// A ruleset by folder name, for a scenario whose `ruleset` path leads to none (a scenario folder
/// copied to another depth keeps its `../../scripts/pgg`): the working folder's `scripts/NAME`
/// when it holds one, else the bundled copy (see `kessel_core::fsio::set_ruleset_finder`).
pub fn ruleset_by_name(name: &str) -> Option<PathBuf> {
    if name.is_empty() || name == ".." || name.contains(['/', '\\']) {
        return None;
    }
    let local = Path::new("scripts").join(name);
    if local.join("init.lua").is_file() {
        return local.canonicalize().ok();
    }
    bundled_ruleset(name).ok().flatten()
}

/// The content hash of a ruleset folder: [`tree_hash`] of its files (hidden ones left out) by
/// relative path, in path order.
pub fn ruleset_hash(dir: &Path) -> anyhow::Result<String> {
    let files = files_under(dir)?;
    let mut read = Vec::new();
    for (rel, abs) in &files {
        let bytes = kessel_core::fsio::read_bounded(abs, kessel_core::fsio::MAX_TEXT_INPUT)
            .with_context(|| format!("cannot read {}", abs.display()))?;
        read.push((rel.clone(), bytes));
    }
    Ok(tree_hash(
        read.iter().map(|(r, b)| (r.as_str(), b.as_slice())),
    ))
}

/// Files under `dir` (hidden ones and those in hidden folders left out): relative path with
/// `/`, and the full path, in relative-path order.
pub fn files_under(dir: &Path) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let mut out: Vec<(String, PathBuf)> = kessel_lab::files::files_under(dir)?
        .into_iter()
        .filter_map(|p| {
            let parts: Vec<String> = p
                .strip_prefix(dir)
                .ok()?
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let hidden = parts.iter().any(|c| c.starts_with('.'));
            (!hidden).then(|| (parts.join("/"), p))
        })
        .collect();
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundle_holds_the_campaign_and_its_ruleset() {
        let paths: Vec<&str> = embedded::FILES.iter().map(|(p, _)| *p).collect();
        assert!(paths.contains(&DEFAULT_SCENARIO), "{paths:?}");
        assert!(paths.contains(&"scripts/pgg/init.lua"), "{paths:?}");
        assert!(
            paths.windows(2).all(|w| w[0] < w[1]),
            "sorted, no duplicates"
        );
    }

    #[test]
    fn only_missing_bundled_paths_are_redirected() {
        // these need no bundle folder: each is returned as given
        for p in [
            "Cargo.toml",                   // exists
            "docs/none.md",                 // not under scripts/ or scenarios/
            "scenarios/none/scenario.toml", // not bundled
            "scripts/pgg-but-not/init.lua", // a prefix of a bundled name is not a folder of it
        ] {
            assert_eq!(
                resolve(Path::new(p)).expect("resolves"),
                Path::new(p),
                "{p}"
            );
        }
    }

    #[test]
    fn tree_hash_tells_moved_bytes_apart() {
        let a = tree_hash([("ab", b"c".as_slice())]);
        let b = tree_hash([("a", b"bc".as_slice())]);
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
    }
}
