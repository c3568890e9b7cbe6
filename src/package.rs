//! `.kessel` packages: one file holding a scenario folder (scenario, map, special rules,
//! profiles, rule tests) and a manifest with the SHA-256 of every file; the ruleset either by
//! reference (its folder name and content hash: a ruleset bundled with Kessel) or included
//! under `ruleset/`. The format is described in docs/file-formats.md.
//!
//! Opening verifies everything before a byte is written: a zip that does not read, an entry
//! with an unsafe path (absolute, `..`, a drive or a backslash), a link, an entry too large or
//! too many, two entries that would be one file (a name twice, names equal but for case, a file
//! that is also a folder), headers that disagree, a file not in the manifest, a file of the manifest missing or with another hash —
//! each is refused with an error that says the package is damaged or was changed. A verified
//! package is written out once to the user's cache folder, named by the package's own hash,
//! and its scenario file is read from there by the ordinary loaders.

use crate::bundle::{bundled_ruleset, files_under, hex, ruleset_hash, tree_hash};
use anyhow::Context;
use kessel_core::engine::Engine;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The manifest's name inside a package.
pub const MANIFEST: &str = "manifest.toml";
/// The format number written and understood.
pub const FORMAT: u32 = 1;
/// Largest package file read.
pub const MAX_PACKAGE: u64 = 64 << 20;
/// Largest file inside a package, unpacked.
pub const MAX_ENTRY: u64 = 16 << 20;
/// Largest sum of unpacked sizes.
pub const MAX_TOTAL: u64 = 64 << 20;
/// Most entries in a package.
pub const MAX_ENTRIES: usize = 2000;
/// Folder of an included ruleset inside a package.
const RULESET_DIR: &str = "ruleset";

/// The manifest of a package.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    package: Header,
    ruleset: RulesetRef,
    files: Vec<FileEntry>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    format: u32,
    /// The scenario file, relative to the package root.
    scenario: String,
    /// The scenario's name, for people.
    name: String,
    /// The Kessel that made it.
    made_by: String,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesetRef {
    /// The ruleset's folder name (`pgg`).
    name: String,
    /// Its content hash (see `bundle::ruleset_hash`).
    sha256: String,
    /// True when its files are in the package under `ruleset/`.
    included: bool,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileEntry {
    path: String,
    sha256: String,
    size: u64,
}

/// True for a path that names a package (`.kessel`).
pub fn is_package(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("kessel"))
}

/// What `pack` wrote.
pub struct Packed {
    /// Files in the package, manifest left out.
    pub files: usize,
    /// The ruleset's name and whether it was included.
    pub ruleset: (String, bool),
    /// For a ruleset named by reference: how the folder packed differs from the copy this kessel
    /// bundles (`profiles/wbc2010.toml added`), empty when they are the same. A player's kessel
    /// compares the package's hash with its own bundled copy and warns when they differ.
    pub differs: Vec<String>,
    /// The profile the scenario names, when the ruleset is named by reference and the copy every
    /// kessel bundles has no profile of that name: a player's kessel refuses the package unless
    /// they have it too.
    pub profile_not_bundled: Option<String>,
}

/// Packs the scenario `scenario` (a scenario file, or a folder holding `scenario.toml`) with the
/// rest of its folder into `out`.
pub fn pack(scenario: &Path, out: &Path, include_ruleset: bool) -> anyhow::Result<Packed> {
    let scenario = if scenario.is_dir() {
        scenario.join("scenario.toml")
    } else {
        scenario.to_path_buf()
    };
    // a package of a scenario that does not load would only pass the problem on
    let engine = crate::cmd::load_engine(&scenario, None, crate::DEFAULT_SEED)
        .with_context(|| format!("{} does not load, so it is not packed", scenario.display()))?;
    let sc = engine
        .scenario()
        .ok_or_else(|| anyhow::anyhow!("no scenario loaded"))?;
    let dir = scenario
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let root = dir
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", dir.display()))?;
    // the files an extending scenario is laid over go with it: one in the folder stays where it
    // is, one elsewhere is carried with its folder under `extends/N/` (its map and special
    // rules beside it, as the base names them), and each `extends` is rewritten to the copy
    let mut placed = vec![file_name_of(&scenario)];
    let mut base_dirs: Vec<(PathBuf, PathBuf, String)> = Vec::new();
    for base in sc.bases() {
        let real = base
            .canonicalize()
            .with_context(|| format!("cannot resolve {}", base.display()))?;
        if let Ok(rel) = real.strip_prefix(&root) {
            placed.push(slashed(rel));
            continue;
        }
        let bdir = base
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let broot = bdir
            .canonicalize()
            .with_context(|| format!("cannot resolve {}", bdir.display()))?;
        anyhow::ensure!(
            !root.starts_with(&broot),
            "{} extends {}, whose folder holds the scenario's own: a package carries the base's \
             folder, which would carry the scenario twice; put the variant in a folder beside \
             the base's instead",
            scenario.display(),
            base.display()
        );
        let prefix = match base_dirs.iter().find(|(_, r, _)| *r == broot) {
            Some((_, _, p)) => p.clone(),
            None => {
                let p = format!("extends/{}", base_dirs.len() + 1);
                base_dirs.push((bdir.to_path_buf(), broot.clone(), p.clone()));
                p
            }
        };
        let rel = real.strip_prefix(&broot).unwrap_or(&real);
        placed.push(format!("{prefix}/{}", slashed(rel)));
    }
    let inside = |p: &Path| {
        p.canonicalize().is_ok_and(|p| {
            p.starts_with(&root) || base_dirs.iter().any(|(_, r, _)| p.starts_with(r))
        })
    };
    anyhow::ensure!(
        inside(&sc.map_path),
        "the map {} lies outside the scenario's folder {}: copy it in and name it in the scenario",
        sc.map_path.display(),
        dir.display()
    );
    for s in &sc.scripts {
        anyhow::ensure!(
            inside(s),
            "the special-rules file {} lies outside the scenario's folder {}: copy it in",
            s.display(),
            dir.display()
        );
    }
    if let Some(p) = &sc.profile {
        let by_path = Engine::profile_path(Path::new(""), p) == Path::new(p);
        // a profile path is read from the working folder, which is not the unpacked package
        anyhow::ensure!(
            !by_path,
            "the scenario's profile `{p}` is a path, which a package cannot carry: name a profile \
             of the ruleset instead (or leave `profile` out and pass --profile when playing)"
        );
    }
    let scenario_name = scenario
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ruleset_dir = sc.ruleset_dir.clone();
    let ruleset_name = ruleset_dir
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "ruleset".into());
    // a package names by reference only a ruleset every kessel carries
    anyhow::ensure!(
        include_ruleset || bundled_ruleset(&ruleset_name)?.is_some(),
        "the scenario's ruleset `{ruleset_name}` ({}) is not one bundled with Kessel, so a package \
         cannot name it: pack with --include-ruleset to carry its files",
        ruleset_dir.display()
    );
    let differs = if include_ruleset {
        Vec::new()
    } else {
        differs_from_bundled(&ruleset_dir, &ruleset_name)?
    };
    // a profile of the packer's own (a club's `wbc2010`) is not in the rules every kessel
    // carries: the package refused to open on the players' machines, naming a profile they lack
    let profile_not_bundled = match (&sc.profile, include_ruleset) {
        (Some(p), false) if p != "defaults" => bundled_ruleset(&ruleset_name)?
            .filter(|b| !b.join("profiles").join(format!("{p}.toml")).is_file())
            .map(|_| p.clone()),
        _ => None,
    };
    let out_abs = out.canonicalize().ok();
    // a scenario inside its own ruleset's folder (`ruleset = "."`, or a scenarios/ folder of the
    // ruleset) travels inside the included ruleset, as it lies on disk: packed once more at the
    // root, every file was carried twice
    let inside_ruleset = if include_ruleset {
        let ruleset_root = ruleset_dir
            .canonicalize()
            .with_context(|| format!("cannot resolve {}", ruleset_dir.display()))?;
        root.strip_prefix(&ruleset_root).ok().map(|sub| {
            let mut at = vec![RULESET_DIR.to_string()];
            at.extend(
                sub.components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned()),
            );
            at.join("/")
        })
    } else {
        None
    };
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    // (a scenario inside its ruleset comes with the ruleset's files below)
    let scenario_files = match inside_ruleset {
        None => files_under(dir)?,
        Some(_) => Vec::new(),
    };
    for (rel, abs) in scenario_files {
        if is_package(&abs) || out_abs.as_deref() == abs.canonicalize().ok().as_deref() {
            continue;
        }
        within(&abs, &rel, &root, dir)?;
        let bytes = kessel_core::fsio::read_bounded(&abs, MAX_ENTRY)
            .with_context(|| format!("cannot read {}", abs.display()))?;
        files.push((rel, bytes));
    }
    for (bdir, broot, prefix) in &base_dirs {
        anyhow::ensure!(
            inside_ruleset.is_none(),
            "a scenario inside its ruleset's folder that extends one outside it cannot be packed"
        );
        for (rel, abs) in files_under(bdir)? {
            if is_package(&abs) {
                continue;
            }
            within(&abs, &rel, broot, bdir)?;
            let bytes = kessel_core::fsio::read_bounded(&abs, MAX_ENTRY)
                .with_context(|| format!("cannot read {}", abs.display()))?;
            files.push((format!("{prefix}/{rel}"), bytes));
        }
    }
    if !base_dirs.is_empty() {
        for pair in placed.windows(2) {
            let (file, base) = (&pair[0], &pair[1]);
            let to = package_relative(file, base);
            let entry = (files.iter_mut().find(|(r, _)| r == file))
                .ok_or_else(|| anyhow::anyhow!("{file} is not in the package"))?;
            let s = String::from_utf8(entry.1.clone()).context("the scenario file is not UTF-8")?;
            entry.1 = set_scenario_key(&s, "extends", &to, false)
                .ok_or_else(|| anyhow::anyhow!("{file}: no `extends = …` line under [scenario]"))?
                .into_bytes();
        }
    }
    if include_ruleset && inside_ruleset.is_none() {
        let text = files
            .iter_mut()
            .find(|(r, _)| *r == scenario_name)
            .ok_or_else(|| anyhow::anyhow!("{} is not in its folder", scenario.display()))?;
        let s = String::from_utf8(text.1.clone()).context("the scenario file is not UTF-8")?;
        // (an extending file that leaves `ruleset` to its base gets one: its own key wins)
        text.1 = set_scenario_key(&s, "ruleset", RULESET_DIR, placed.len() > 1)
            .ok_or_else(|| anyhow::anyhow!("no `ruleset = …` line under [scenario]"))?
            .into_bytes();
    }
    if include_ruleset {
        let ruleset_root = ruleset_dir
            .canonicalize()
            .with_context(|| format!("cannot resolve {}", ruleset_dir.display()))?;
        for (rel, abs) in files_under(&ruleset_dir)? {
            within(&abs, &rel, &ruleset_root, &ruleset_dir)?;
            let bytes = kessel_core::fsio::read_bounded(&abs, MAX_ENTRY)
                .with_context(|| format!("cannot read {}", abs.display()))?;
            files.push((format!("{RULESET_DIR}/{rel}"), bytes));
        }
    }
    anyhow::ensure!(
        files.len() < MAX_ENTRIES,
        "{} files are more than a package may hold ({MAX_ENTRIES})",
        files.len()
    );
    for (rel, bytes) in &files {
        anyhow::ensure!(
            bytes.len() as u64 <= MAX_ENTRY,
            "{rel} is larger than a package may hold ({} MiB)",
            MAX_ENTRY >> 20
        );
    }
    // the scenario's place in the package: at the root, or where it lies in its ruleset
    let scenario_name = match &inside_ruleset {
        Some(at) => format!("{at}/{scenario_name}"),
        None => scenario_name,
    };
    anyhow::ensure!(
        files.iter().any(|(r, _)| *r == scenario_name),
        "{} is not in its folder",
        scenario.display()
    );
    let manifest = Manifest {
        package: Header {
            format: FORMAT,
            scenario: scenario_name,
            name: sc.name.clone(),
            made_by: format!("kessel {}", env!("CARGO_PKG_VERSION")),
        },
        ruleset: RulesetRef {
            name: ruleset_name.clone(),
            sha256: ruleset_hash(&ruleset_dir)?,
            included: include_ruleset,
        },
        files: files
            .iter()
            .map(|(path, bytes)| FileEntry {
                path: path.clone(),
                sha256: hex(&Sha256::digest(bytes)),
                size: bytes.len() as u64,
            })
            .collect(),
    };
    let manifest_text = toml::to_string(&manifest).context("cannot write the manifest")?;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    // fixed times: the same folder packs to the same bytes
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::DEFAULT)
        .unix_permissions(0o644);
    let mut add = |name: &str, bytes: &[u8]| -> anyhow::Result<()> {
        zip.start_file(name, options)?;
        zip.write_all(bytes)?;
        Ok(())
    };
    add(MANIFEST, manifest_text.as_bytes())?;
    for (rel, bytes) in &files {
        add(rel, bytes)?;
    }
    let bytes = zip.finish()?.into_inner();
    kessel_core::fsio::write_atomic(out, &bytes)?;
    Ok(Packed {
        files: files.len(),
        ruleset: (ruleset_name, include_ruleset),
        differs,
        profile_not_bundled,
    })
}

/// How the ruleset folder `dir` differs from the bundled ruleset `name`, file by file (at most
/// five named, then how many more); empty when its content hash is the bundled copy's.
fn differs_from_bundled(dir: &Path, name: &str) -> anyhow::Result<Vec<String>> {
    let Some(bundled) = bundled_ruleset(name)? else {
        return Ok(Vec::new());
    };
    if ruleset_hash(dir)? == ruleset_hash(&bundled)? {
        return Ok(Vec::new());
    }
    let digests = |d: &Path| -> anyhow::Result<BTreeMap<String, String>> {
        let mut out = BTreeMap::new();
        for (rel, abs) in files_under(d)? {
            let bytes = kessel_core::fsio::read_bounded(&abs, kessel_core::fsio::MAX_TEXT_INPUT)
                .with_context(|| format!("cannot read {}", abs.display()))?;
            out.insert(rel, hex(&Sha256::digest(&bytes)));
        }
        Ok(out)
    };
    let (ours, theirs) = (digests(dir)?, digests(&bundled)?);
    let mut all: Vec<String> = Vec::new();
    for (rel, h) in &ours {
        match theirs.get(rel) {
            None => all.push(format!("{rel} added")),
            Some(t) if t != h => all.push(format!("{rel} changed")),
            Some(_) => {}
        }
    }
    all.extend(
        theirs
            .keys()
            .filter(|rel| !ours.contains_key(*rel))
            .map(|rel| format!("{rel} missing")),
    );
    if all.len() > 5 {
        let more = all.len() - 5;
        all.truncate(5);
        all.push(format!("{more} more"));
    }
    Ok(all)
}

/// Refuses a file of the folder `shown` (real path `root`) whose real path lies outside it: a
/// link to a file elsewhere would pack that file's content (anything the packer can read) into
/// a package meant to hold the folder, as opening a package refuses links and `require` refuses
/// modules that resolve outside the ruleset.
fn within(abs: &Path, rel: &str, root: &Path, shown: &Path) -> anyhow::Result<()> {
    let real = abs
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", abs.display()))?;
    anyhow::ensure!(
        real.starts_with(root),
        "{rel} in {} is a link to {}, outside that folder: a package carries the folder's own \
         files only (copy the file in, or remove the link)",
        shown.display(),
        real.display()
    );
    Ok(())
}

/// The scenario text with its `key = …` line under `[scenario]` giving `value` (a one-line
/// key); with `insert`, a file without one gets it under the header; `None` when it has none.
fn set_scenario_key(text: &str, key: &str, value: &str, insert: bool) -> Option<String> {
    let mut table = String::new();
    let mut done = false;
    let mut out = String::with_capacity(text.len() + value.len());
    let line_of = || format!("{key} = {}\n", toml::Value::String(value.to_string()));
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with('[') {
            table = t.trim_end().to_string();
        }
        let rest = t.strip_prefix(key).map(str::trim_start);
        if !done && table == "[scenario]" && rest.is_some_and(|k| k.starts_with('=')) {
            out.push_str(&line_of());
            done = true;
        } else {
            out.push_str(line);
            if insert && !done && t.trim_end() == "[scenario]" {
                out.push_str(&line_of());
                done = true;
            }
        }
    }
    done.then_some(out)
}

/// A path's parts joined by `/`, as a package names its files.
fn slashed(p: &Path) -> String {
    p.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn file_name_of(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The path from the package file `from` to the package file `to`, as `from` names it.
fn package_relative(from: &str, to: &str) -> String {
    let from_dir: Vec<&str> = from.split('/').collect();
    let from_dir = &from_dir[..from_dir.len().saturating_sub(1)];
    let to: Vec<&str> = to.split('/').collect();
    let common = (from_dir.iter().zip(&to))
        .take_while(|(a, b)| a == b)
        .count()
        .min(to.len().saturating_sub(1));
    let mut out: Vec<&str> = vec![".."; from_dir.len() - common];
    out.extend(&to[common..]);
    out.join("/")
}

/// A problem with a package, said for people: what is wrong and that the package is refused.
fn refused(package: &Path, why: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!(
        "{}: refused, the package is damaged or was changed after packing: {why}",
        package.display()
    )
}

/// A name inside a package that is safe to write under a folder: relative, `/`-separated, no
/// empty, `.` or `..` parts, no backslash, drive, NUL or control characters.
fn safe_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('/')
        && !name.contains(['\\', ':', '\0'])
        && !name.chars().any(char::is_control)
        && name
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != "..")
}

/// The names of a zip's central directory, in order and with duplicates kept, walked from
/// `start` (the archive reader's start of the central directory) header by header.
fn central_names(bytes: &[u8], start: u64) -> Result<Vec<String>, String> {
    const SIGNATURE: &[u8] = b"PK\x01\x02";
    let mut at = usize::try_from(start).map_err(|_| "its start is out of range".to_string())?;
    let mut names = Vec::new();
    while bytes.get(at..at + 4) == Some(SIGNATURE) {
        let field = |off: usize| -> Result<usize, String> {
            bytes
                .get(at + off..at + off + 2)
                .map(|b| usize::from(u16::from_le_bytes([b[0], b[1]])))
                .ok_or_else(|| format!("header {} is cut short", names.len()))
        };
        let (name_len, extra, comment) = (field(28)?, field(30)?, field(32)?);
        let name = bytes
            .get(at + 46..at + 46 + name_len)
            .ok_or_else(|| format!("header {} is cut short", names.len()))?;
        names.push(String::from_utf8_lossy(name).into_owned());
        if names.len() > MAX_ENTRIES {
            break;
        }
        at += 46 + name_len + extra + comment;
    }
    Ok(names)
}

/// Why two of a package's entry names would be the same file once written out: the same name
/// twice, names equal but for case, or a file whose name is also a folder of another entry.
fn colliding_names(names: &[String]) -> Option<String> {
    let mut seen: BTreeMap<String, &str> = BTreeMap::new();
    for name in names {
        let key = name.trim_end_matches('/').to_lowercase();
        if let Some(first) = seen.insert(key, name) {
            return Some(if first == name {
                format!("entry `{}` appears twice", name.escape_debug())
            } else {
                format!(
                    "entries `{}` and `{}` differ only in case",
                    first.escape_debug(),
                    name.escape_debug()
                )
            });
        }
    }
    let files: Vec<&String> = names.iter().filter(|n| !n.ends_with('/')).collect();
    for file in &files {
        let folder = format!("{}/", file.to_lowercase());
        if let Some((_, inside)) = seen
            .range(folder.clone()..)
            .next()
            .filter(|(k, _)| k.starts_with(&folder))
        {
            return Some(format!(
                "entry `{}` is a file and also the folder of `{}`",
                file.escape_debug(),
                inside.escape_debug()
            ));
        }
    }
    None
}

/// The verified contents of a package.
struct Verified {
    manifest: Manifest,
    files: BTreeMap<String, Vec<u8>>,
}

/// Reads and checks a package held in memory (see the module docs for what is refused).
fn verify(package: &Path, bytes: &[u8]) -> anyhow::Result<Verified> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| {
        // (the zip reader's own words name its internal blocks: said as what they mean)
        let why = match e {
            zip::result::ZipError::Io(io) => format!("it could not be read: {io}"),
            zip::result::ZipError::UnsupportedArchive(what) => {
                format!("it uses what a package never does: {what}")
            }
            _ => "it is cut short or is no zip file at all".to_string(),
        };
        refused(package, format_args!("not a readable zip archive ({why})"))
    })?;
    if zip.len() > MAX_ENTRIES {
        return Err(refused(
            package,
            format_args!("{} entries, more than {MAX_ENTRIES}", zip.len()),
        ));
    }
    // The archive reader keeps one entry a name, so two entries of one name (one of them read
    // by this reader, the other by an unzip tool) are found in the central directory itself;
    // names equal but for case, or a file that is also a folder of another, would overwrite
    // each other once written out on some systems.
    let names = central_names(bytes, zip.central_directory_start()).map_err(|e| {
        refused(
            package,
            format_args!("its central directory does not read ({e})"),
        )
    })?;
    if names.len() > MAX_ENTRIES {
        return Err(refused(
            package,
            format_args!("{} entries, more than {MAX_ENTRIES}", names.len()),
        ));
    }
    if let Some(why) = colliding_names(&names) {
        return Err(refused(package, why));
    }
    // a local header that names another file than the central directory says, entries that
    // share bytes (a zip bomb made of overlapping entries), local headers the directory hides
    zip.validate_header_consistency()
        .map_err(|e| refused(package, format_args!("its headers disagree ({e})")))?;
    let mut files = BTreeMap::new();
    let mut total = 0u64;
    for i in 0..zip.len() {
        let mut entry = zip
            .by_index(i)
            .map_err(|e| refused(package, format_args!("entry {i} does not read ({e})")))?;
        let name = entry
            .name()
            .map_err(|e| refused(package, format_args!("entry {i} has a bad name ({e})")))?
            .into_owned();
        if !safe_name(name.trim_end_matches('/')) {
            return Err(refused(
                package,
                format_args!(
                    "entry `{}` has an unsafe path (absolute, `..` or a drive)",
                    name.escape_debug()
                ),
            ));
        }
        if entry.is_symlink() {
            return Err(refused(package, format_args!("entry `{name}` is a link")));
        }
        if entry.is_dir() {
            continue;
        }
        if entry.size() > MAX_ENTRY {
            return Err(refused(
                package,
                format_args!(
                    "entry `{name}` unpacks to {} bytes, more than {MAX_ENTRY}",
                    entry.size()
                ),
            ));
        }
        // the size in the header may lie: read at most one byte past the limit
        let mut data = Vec::new();
        (&mut entry)
            .take(MAX_ENTRY + 1)
            .read_to_end(&mut data)
            .map_err(|e| {
                refused(
                    package,
                    format_args!("entry `{name}` does not unpack ({e})"),
                )
            })?;
        if data.len() as u64 > MAX_ENTRY {
            return Err(refused(
                package,
                format_args!("entry `{name}` unpacks to more than {MAX_ENTRY} bytes"),
            ));
        }
        total += data.len() as u64;
        if total > MAX_TOTAL {
            return Err(refused(
                package,
                format_args!("its entries unpack to more than {MAX_TOTAL} bytes"),
            ));
        }
        if files.insert(name.clone(), data).is_some() {
            return Err(refused(
                package,
                format_args!("entry `{name}` appears twice"),
            ));
        }
    }
    let manifest_bytes = files
        .remove(MANIFEST)
        .ok_or_else(|| refused(package, format_args!("it has no {MANIFEST}")))?;
    let manifest: Manifest = std::str::from_utf8(&manifest_bytes)
        .map_err(|e| refused(package, format_args!("{MANIFEST} is not UTF-8 ({e})")))
        .and_then(|t| {
            kessel_core::error::toml_bounds_at(
                Path::new(MANIFEST),
                t,
                kessel_core::error::MAX_SMALL_TOML_VALUES,
            )
            .map_err(|e| refused(package, e))?;
            toml::from_str(t).map_err(|e| {
                let e = kessel_core::error::toml_error(Path::new(MANIFEST), t, &e);
                refused(package, format_args!("{MANIFEST} does not read ({e})"))
            })
        })?;
    if manifest.package.format != FORMAT {
        anyhow::bail!(
            "{}: package format {} is not one this kessel reads (it reads {FORMAT}); made by {}",
            package.display(),
            manifest.package.format,
            manifest.package.made_by
        );
    }
    let mut listed = BTreeMap::new();
    for f in &manifest.files {
        if !safe_name(&f.path) {
            return Err(refused(
                package,
                format_args!(
                    "the manifest names an unsafe path `{}`",
                    f.path.escape_debug()
                ),
            ));
        }
        listed.insert(f.path.as_str(), f);
    }
    for name in files.keys() {
        if !listed.contains_key(name.as_str()) {
            return Err(refused(
                package,
                format_args!("`{name}` is in the package but not in its manifest"),
            ));
        }
    }
    for f in &manifest.files {
        let data = files.get(&f.path).ok_or_else(|| {
            refused(
                package,
                format_args!(
                    "`{}` is in the manifest but missing from the package",
                    f.path
                ),
            )
        })?;
        if data.len() as u64 != f.size || hex(&Sha256::digest(data)) != f.sha256 {
            return Err(refused(
                package,
                format_args!("`{}` does not match its SHA-256 in the manifest", f.path),
            ));
        }
    }
    if !files.contains_key(&manifest.package.scenario) {
        return Err(refused(
            package,
            format_args!("its scenario `{}` is not in it", manifest.package.scenario),
        ));
    }
    if manifest.ruleset.included {
        let prefix = format!("{RULESET_DIR}/");
        let ruleset = files
            .iter()
            .filter_map(|(k, v)| k.strip_prefix(&prefix).map(|r| (r, v.as_slice())));
        if tree_hash(ruleset) != manifest.ruleset.sha256 {
            return Err(refused(
                package,
                "its included ruleset does not match the ruleset hash in the manifest",
            ));
        }
    }
    Ok(Verified { manifest, files })
}

/// Opens a package: verifies it, writes it out to the cache (once), and returns the path of
/// its scenario file there.
pub fn open(package: &Path) -> anyhow::Result<PathBuf> {
    let size = std::fs::metadata(package)
        .with_context(|| format!("cannot read {}", package.display()))?
        .len();
    if size > MAX_PACKAGE {
        return Err(refused(
            package,
            format_args!("{size} bytes, more than a package may be ({MAX_PACKAGE})"),
        ));
    }
    let bytes = kessel_core::fsio::read_bounded(package, MAX_PACKAGE)
        .with_context(|| format!("cannot read {}", package.display()))?;
    let Verified { manifest, files } = verify(package, &bytes)?;
    contained(package, &manifest, &files)?;
    let ruleset = if manifest.ruleset.included {
        None
    } else {
        let r = &manifest.ruleset;
        let dir = bundled_ruleset(&r.name)?.ok_or_else(|| {
            anyhow::anyhow!(
                "{}: the package names the ruleset `{}`, which this kessel does not bundle; ask \
                 for a package made with --include-ruleset",
                package.display(),
                r.name
            )
        })?;
        if ruleset_hash(&dir)? != r.sha256 {
            eprintln!(
                "warning: {} was packed with another version of the ruleset `{}` than this kessel \
                 bundles; it is played with the bundled one",
                package.display(),
                r.name
            );
        }
        Some(dir)
    };
    // the unpacked scenario names the ruleset's folder: another folder, another unpacking
    let mut key = Sha256::new();
    key.update(&bytes);
    if let Some(r) = &ruleset {
        key.update(r.to_string_lossy().as_bytes());
    }
    let key = hex(&key.finalize());
    let dir = crate::bundle::user_dir("XDG_CACHE_HOME", ".cache", "packages").join(&key[..32]);
    let scenario = dir.join(&manifest.package.scenario);
    // errors about the package's files name the package, not the cache; saves name it too
    kessel_core::error::show_folder_as(&dir, &package.display().to_string());
    kessel_core::fsio::note_opened_as(&scenario, package);
    // what is written out: the package's files, the scenario pointed at a referenced ruleset
    let mut unpacked = Vec::with_capacity(files.len());
    for (name, data) in &files {
        let mut data = std::borrow::Cow::Borrowed(data.as_slice());
        if let (Some(r), true) = (&ruleset, *name == manifest.package.scenario) {
            // a referenced ruleset lives elsewhere on this machine: point the scenario at it
            let text = std::str::from_utf8(&data)
                .map_err(|_| refused(package, "its scenario file is not UTF-8"))?;
            let abs = r.canonicalize().unwrap_or_else(|_| r.clone());
            // (a scenario that extends another may leave `ruleset` to its base: it is given one)
            let insert = text.contains("extends");
            let text = set_scenario_key(text, "ruleset", &abs.to_string_lossy(), insert)
                .ok_or_else(|| refused(package, "its scenario has no `ruleset = …` line"))?;
            data = std::borrow::Cow::Owned(text.into_bytes());
        }
        unpacked.push((name, data));
    }
    // an earlier unpacking is used only while it still holds exactly those files (the cache is
    // anyone's folder: an edited copy there must not pass for the verified package)
    if dir.join(".complete").is_file() {
        let intact = unpacked
            .iter()
            .all(|(name, data)| std::fs::read(dir.join(name)).is_ok_and(|d| d == **data));
        if intact {
            return Ok(scenario);
        }
        std::fs::remove_dir_all(&dir).with_context(|| {
            format!("cannot replace the changed unpacked copy {}", dir.display())
        })?;
    }
    let parent = dir.parent().unwrap_or(Path::new("."));
    let tmp = parent.join(format!(".tmp-{}-{}", &key[..32], std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let written = write_unpacked(&tmp, &unpacked, &key);
    if written.is_err() {
        // (no half-written folder is left behind in the cache)
        let _ = std::fs::remove_dir_all(&tmp);
    }
    written?;
    if std::fs::rename(&tmp, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
        anyhow::ensure!(
            dir.join(".complete").is_file(),
            "cannot unpack {} to {}",
            package.display(),
            dir.display()
        );
    }
    Ok(scenario)
}

/// Writes a package's files under `tmp`, then the `.complete` mark.
fn write_unpacked(
    tmp: &Path,
    unpacked: &[(&String, std::borrow::Cow<'_, [u8]>)],
    key: &str,
) -> anyhow::Result<()> {
    for (name, data) in unpacked {
        let p = tmp.join(name);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).with_context(|| format!("cannot create {}", d.display()))?;
        }
        kessel_core::fsio::write_atomic(&p, data)?;
    }
    kessel_core::fsio::write_atomic(&tmp.join(".complete"), key.as_bytes())?;
    Ok(())
}

/// Refuses a package whose scenario names a file outside the package: a map, a profile file,
/// special rules or (when included) a ruleset given as an absolute path or climbing out with
/// `..`. A package is the whole scenario; one that reached for the opener's own files would run
/// or read them (and name them in its errors). A ruleset by reference is pointed at the bundled
/// copy when unpacked, so its path is not checked.
fn contained(
    package: &Path,
    manifest: &Manifest,
    files: &BTreeMap<String, Vec<u8>>,
) -> anyhow::Result<()> {
    // the scenario and each file it extends, in turn: a base the package carries names only
    // files the package carries too (an `extends` reaching out of it would read the opener's)
    let mut scenario = manifest.package.scenario.clone();
    let mut seen = std::collections::BTreeSet::new();
    for depth in 0..=kessel_core::scenario::MAX_EXTENDS {
        if !seen.insert(scenario.clone()) {
            return Ok(()); // (a loop: the loader says so)
        }
        let Some(text) = files
            .get(&scenario)
            .and_then(|b| std::str::from_utf8(b).ok())
        else {
            return Ok(()); // (the loader says what is wrong with it)
        };
        let Ok(table) = text.trim_start_matches('\u{feff}').parse::<toml::Table>() else {
            return Ok(());
        };
        let Some(fields) = table.get("scenario").and_then(toml::Value::as_table) else {
            return Ok(());
        };
        let folder: Vec<&str> = scenario.split('/').collect();
        let folder = &folder[..folder.len() - 1];
        let mut named: Vec<(&str, &str, bool)> = Vec::new();
        for key in ["map", "profile"] {
            if let Some(v) = fields.get(key).and_then(toml::Value::as_str) {
                // (a profile named without `.toml` is the ruleset's own)
                if key == "map" || v.to_ascii_lowercase().ends_with(".toml") {
                    named.push((key, v, true));
                }
            }
        }
        // (a base's `ruleset` gives way to the scenario's, which an extending one must give
        // when the ruleset is included: pack writes it)
        if manifest.ruleset.included && depth == 0 {
            match fields.get("ruleset").and_then(toml::Value::as_str) {
                Some(v) => named.push(("ruleset", v, false)),
                None if fields.contains_key("extends") => {
                    return Err(refused(
                        package,
                        "its scenario extends another and names no `ruleset` of the package",
                    ))
                }
                None => {}
            }
        }
        if let Some(list) = fields.get("scripts").and_then(toml::Value::as_array) {
            named.extend(
                list.iter()
                    .filter_map(toml::Value::as_str)
                    .map(|v| ("scripts", v, true)),
            );
        }
        let extends = fields.get("extends").and_then(toml::Value::as_str);
        named.extend(extends.map(|v| ("extends", v, true)));
        for (field, value, is_file) in named {
            let inside = inside_package(folder, value);
            let held = match &inside {
                Some(path) if is_file => files.contains_key(path),
                Some(path) => files.keys().any(|f| f.starts_with(&format!("{path}/"))),
                None => false,
            };
            if !held {
                return Err(refused(
                    package,
                    format_args!(
                        "its scenario's `{field}` names `{value}`, which is not in the package (a \
                         package's scenario names only files it carries)"
                    ),
                ));
            }
        }
        match extends.and_then(|v| inside_package(folder, v)) {
            Some(base) => scenario = base,
            None => return Ok(()),
        }
    }
    Ok(())
}

/// The package path of `value`, a path the scenario in `folder` names, when it stays inside the
/// package: relative, `/`-separated, never climbing above the package's root.
fn inside_package(folder: &[&str], value: &str) -> Option<String> {
    if value.starts_with('/') || value.contains(['\\', ':', '\0']) {
        return None;
    }
    let mut parts: Vec<&str> = folder.to_vec();
    for part in value.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_names_are_told_from_safe_ones() {
        for ok in [
            "scenario.toml",
            "tests/a_test.lua",
            "ruleset/rules/x.lua",
            "a..b",
        ] {
            assert!(safe_name(ok), "{ok}");
        }
        for bad in [
            "",
            "/etc/passwd",
            "../x",
            "a/../../x",
            "a/./b",
            "a//b",
            "C:/x",
            "a\\b",
            "a\0b",
        ] {
            assert!(!safe_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn the_ruleset_line_is_rewritten_only_under_scenario() {
        let text = "[scenario]\nname = \"x\"\nruleset   = \"../../scripts/pgg\" # c\nmap = \"m\"\n[vars]\nruleset = 1\n";
        let out = set_scenario_key(text, "ruleset", "ruleset", false).expect("has the line");
        assert_eq!(
            out,
            "[scenario]\nname = \"x\"\nruleset = \"ruleset\"\nmap = \"m\"\n[vars]\nruleset = 1\n"
        );
        assert!(set_scenario_key("[vars]\nruleset = 1\n", "ruleset", "x", false).is_none());
    }

    /// A package cut short at every byte, or with any one byte set to 0x00 or 0xFF (a damaged
    /// download, a disk error), is refused as damaged, never a panic: the zip reader and the
    /// central directory walk meet sizes and offsets that point anywhere.
    #[test]
    fn a_package_cut_short_or_with_a_byte_damaged_is_refused() {
        use std::panic::{catch_unwind, AssertUnwindSafe};
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = kessel_test_support::scratch("package-cut");
        let out = dir.join("toy.kessel");
        pack(&root.join("core/tests/fixtures/toy"), &out, true).expect("the toy packs");
        let bytes = std::fs::read(&out).expect("packed");
        let shown = Path::new("toy.kessel");
        assert!(verify(shown, &bytes).is_ok(), "the whole package reads");
        // cut or damaged at every byte of the headers and the central directory, where sizes,
        // offsets and name lengths are read; inside compressed data (which the CRC and the
        // hashes guard) at one byte in 97, so that the test stays within seconds
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(&bytes[..])).expect("zip");
        let mut structure = vec![false; bytes.len()];
        let u16_at = |at: usize| usize::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]));
        for i in 0..zip.len() {
            // a local header: 30 bytes, then its name and extra field, whose lengths it gives
            let from = zip.by_index_raw(i).expect("entry").header_start() as usize;
            let to = from + 30 + u16_at(from + 26) + u16_at(from + 28);
            structure[from..to].iter_mut().for_each(|b| *b = true);
        }
        let central = zip.central_directory_start() as usize;
        structure[central..].iter_mut().for_each(|b| *b = true);
        let probed: Vec<usize> = (0..bytes.len())
            .filter(|&at| structure[at] || at % 97 == 0)
            .collect();
        let mut cases: Vec<(String, Vec<u8>)> = probed
            .iter()
            .map(|&n| (format!("cut at {n}"), bytes[..n].to_vec()))
            .collect();
        for &at in &probed {
            for b in [0x00u8, 0xff] {
                if bytes[at] != b {
                    let mut damaged = bytes.clone();
                    damaged[at] = b;
                    cases.push((format!("byte {at} set to {b:#04x}"), damaged));
                }
            }
        }
        let (mut panics, mut unnamed, mut refused) = (Vec::new(), Vec::new(), 0);
        for (what, case) in &cases {
            match catch_unwind(AssertUnwindSafe(|| verify(shown, case))) {
                Err(p) => panics.push(format!(
                    "{what}: {}",
                    p.downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default()
                )),
                Ok(Err(e)) => {
                    refused += 1;
                    if !format!("{e:#}").contains("toy.kessel") {
                        unnamed.push(format!("{what}: {e:#}"));
                    }
                }
                Ok(Ok(_)) => {}
            }
        }
        assert!(
            panics.is_empty(),
            "{} panicked:\n{}",
            panics.len(),
            panics.join("\n")
        );
        assert!(unnamed.is_empty(), "{}", unnamed.join("\n"));
        // every cut is refused (the directory is at the end); most damage is caught by the
        // CRCs and hashes, some (a byte of a comment or an unused field) is harmless
        assert!(
            refused >= probed.len(),
            "{refused} of {} refused",
            cases.len()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
