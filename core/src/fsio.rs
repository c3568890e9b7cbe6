//! The core's one way of writing a file, [`write_atomic`], and of reading one, [`read_bounded`].
//!
//! Every file Kessel writes (renders, saves, maps, scenarios, profiles, reports, screenshots) goes
//! through `write_atomic`, so a reader (the CLI, a hot-reload watcher, the next run) sees the old
//! content or the new, never a truncated file, and a failed write leaves the old file as it was.
//!
//! A path a data file names is checked by [`named_path`] (of the field's kind; a relative one is
//! read from the naming file's folder) before it is read.
//!
//! Every file Kessel reads because a user or a data file named it goes through `read_bounded`:
//! only regular files (a FIFO would block for ever, `/dev/zero` never ends), and no more than a
//! limit, checked before reading and while reading (a file can grow, and some report a size of
//! zero), so no input makes the engine allocate without bound.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The most a text input (scenario, map, ruleset file, profile, save) may hold: far above any real
/// one (the bundled campaign's largest file is well under a megabyte).
pub const MAX_TEXT_INPUT: u64 = 64 << 20;

/// The JSON files Kessel writes, told apart by how they begin: a save and a campaign save open
/// with their `format`, a lab data file's first line is its header. (A marker found anywhere would
/// not do: a campaign save holds game saves, and a note may quote `kessel-save/1`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KesselJson {
    /// One game's save (`kessel-save/…`).
    Save,
    /// A campaign save (`kessel-campaign-save/…`).
    CampaignSave,
    /// The balance lab's data (`kessel-lab/…`).
    LabData,
}

/// Which of Kessel's JSON files `text` (the whole file or its first bytes) is, if any.
pub fn kessel_json_kind(text: &str) -> Option<KesselJson> {
    let text = text.trim_start_matches('\u{feff}').trim_start();
    // the value of the object's first member when it is `"format"`
    let format = (|| {
        let s = text.strip_prefix('{')?.trim_start();
        let s = s.strip_prefix("\"format\"")?.trim_start();
        let s = s.strip_prefix(':')?.trim_start();
        s.strip_prefix('"')
    })();
    match format {
        Some(f) if f.starts_with("kessel-save/") => return Some(KesselJson::Save),
        Some(f) if f.starts_with("kessel-campaign-save/") => return Some(KesselJson::CampaignSave),
        _ => {}
    }
    let first = text.lines().next()?;
    let header: serde_json::Value = serde_json::from_str(first).ok()?;
    (header["type"] == "header"
        && header["format"]
            .as_str()
            .is_some_and(|f| f.starts_with("kessel-lab/")))
    .then_some(KesselJson::LabData)
}

/// Kessel's TOML files, told apart by their top-level tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KesselToml {
    /// A scenario (`[scenario]`).
    Scenario,
    /// A map (`[map]` and `[terrain]`).
    Map,
    /// A campaign (`[[game]]`).
    Campaign,
    /// A profile (`[options]` or `[profile]`).
    Profile,
}

/// Which of Kessel's TOML files `text` is, if it reads as TOML and is one: so a loader given
/// another kind can say what it was given instead of listing the fields it does not know.
pub fn kessel_toml_kind(text: &str) -> Option<KesselToml> {
    let table: toml::Table = toml::from_str(text).ok()?;
    let has = |k: &str| table.contains_key(k);
    if has("scenario") {
        Some(KesselToml::Scenario)
    } else if has("map") && has("terrain") {
        Some(KesselToml::Map)
    } else if has("game") || has("carry") {
        // a campaign whose games are still to be written has its [carry] (it was read as a
        // scenario with an unknown field `carry`)
        Some(KesselToml::Campaign)
    } else if has("options") || has("profile") {
        Some(KesselToml::Profile)
    } else {
        None
    }
}

/// Any of Kessel's own files, told apart by content ([`kessel_json_kind`], [`kessel_toml_kind`])
/// or, for a script, by its `.lua` name: so a command given a file of another kind than it reads
/// says what the file is and what reads it, instead of a parser's complaint about its first line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KesselFile {
    /// A scenario, map, campaign or profile.
    Toml(KesselToml),
    /// A save, campaign save or lab data file.
    Json(KesselJson),
    /// A Lua file (rules, a test, a script).
    Lua,
}

/// Which of Kessel's files `text`, read from `path`, is, if any.
pub fn kessel_file_kind(path: &Path, text: &str) -> Option<KesselFile> {
    if let Some(kind) = kessel_json_kind(text) {
        return Some(KesselFile::Json(kind));
    }
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("lua"))
    {
        return Some(KesselFile::Lua);
    }
    kessel_toml_kind(text).map(KesselFile::Toml)
}

/// A file of `kind`, shown as `file`, in words with what reads it: "a map file ([map],
/// [terrain]): a scenario names it in `map = …`".
pub fn kessel_file_words(kind: KesselFile, file: &str) -> String {
    match kind {
        KesselFile::Toml(KesselToml::Scenario) => format!(
            "a scenario file ([scenario]): `kessel check {file}` checks it, `kessel simulate` \
             plays it"
        ),
        KesselFile::Toml(KesselToml::Map) => {
            "a map file ([map], [terrain]): a scenario names it in `map = …`".into()
        }
        KesselFile::Toml(KesselToml::Campaign) => {
            format!("a campaign file ([[game]]): `kessel campaign {file}` plays it")
        }
        KesselFile::Toml(KesselToml::Profile) => {
            "a profile (option values): pass it with `--profile` beside a scenario".into()
        }
        KesselFile::Json(KesselJson::Save) => format!(
            "a saved game: `kessel view {file}` shows it, `kessel editor {file}` plays it on"
        ),
        KesselFile::Json(KesselJson::CampaignSave) => format!(
            "a campaign save: `kessel view {file}` shows its last game, `kessel campaign \
             --verify {file}` replays it"
        ),
        KesselFile::Json(KesselJson::LabData) => {
            format!("a data file of `kessel simulate --out`: `kessel report {file}` reads it")
        }
        KesselFile::Lua => "a Lua file: `kessel script` runs a script of yours, `kessel test` a \
                            ruleset's tests"
            .into(),
    }
}

/// When `text`, read from `path` where a file of kind `wanted` goes, is another of Kessel's
/// files: "not WANTED but …", what it is and what reads it.
pub fn not_the_kind(path: &Path, text: &str, wanted: KesselFile, named: &str) -> Option<String> {
    let kind = kessel_file_kind(path, text).filter(|k| *k != wanted)?;
    let file = crate::script::display_path(path);
    Some(format!(
        "not {named} but {}",
        kessel_file_words(kind, &file)
    ))
}

/// When `path` does not exist because a part of it before the end is a file (`scenario.toml/`,
/// `scenario.toml/.`, `map.toml/x`): that file. A path through a file was reported missing
/// while the message showed the path of the file, which exists.
pub fn file_on_the_way(path: &Path) -> Option<PathBuf> {
    if path.exists() {
        return None;
    }
    // `a.toml/` and `a.toml/.` have `a.toml` as their last component, a file that exists
    let whole: PathBuf = path.components().collect();
    if whole.is_file() {
        return Some(whole);
    }
    path.ancestors()
        .skip(1)
        .find(|a| !a.as_os_str().is_empty() && a.is_file())
        .map(Path::to_path_buf)
}

/// The regular files under `dir`, entering the folders for which `enter` says yes, in no set
/// order. A link is followed only where its real path lies inside `dir`'s, and each real folder
/// is read once: a ruleset holding two links back up (`rules/a -> ..`, `rules/b -> ..`) made a
/// walk that followed them read 2^40 folders (a save's content hash hung), and one holding a link
/// to `/` read the whole file system. An unreadable folder is left out.
pub fn files_within(dir: &Path, enter: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
    let Ok(root) = dir.canonicalize() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(real) = d.canonicalize() else { continue };
        if !real.starts_with(&root) || !seen.insert(real) {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let Ok(real) = p.canonicalize() else { continue };
            if !real.starts_with(&root) {
                continue;
            }
            if real.is_dir() {
                if enter(&p) {
                    stack.push(p);
                }
            } else if real.is_file() {
                out.push(p);
            }
        }
    }
    out
}

/// The path the system reaches by `path` once its missing folders are made (as writing a file
/// there makes them): each existing part resolved through its links, a `..` after a folder still
/// to be made taken back lexically. Two paths naming one file compare equal this way before it is
/// written: `out/../map.toml` named the map being cut (its `out` did not exist yet, so it did not
/// resolve), and the cut was written over it.
pub fn resolved(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = match std::env::current_dir() {
        Ok(d) if path.is_relative() => d,
        _ => PathBuf::new(),
    };
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                // an existing folder's parent is its real parent (through its links)
                if let Ok(real) = out.canonicalize() {
                    out = real;
                }
                out.pop();
            }
            other => {
                out.push(other);
                if let Ok(real) = out.canonicalize() {
                    out = real;
                }
            }
        }
    }
    out
}

/// Reads the whole of a regular file of at most `max` bytes. Anything else is an error that says
/// what the path is (a folder, a device, a FIFO) or how large it is.
pub fn read_bounded(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    let invalid = |msg: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, msg);
    let meta = std::fs::metadata(path)?;
    if meta.is_dir() {
        return Err(invalid("it is a folder, not a file".into()));
    }
    if !meta.is_file() {
        return Err(invalid(
            "it is not a regular file (a device, a FIFO or a socket)".into(),
        ));
    }
    let too_big = |n: u64| invalid(format!("it holds {n} bytes or more; the limit is {max}"));
    if meta.len() > max {
        return Err(too_big(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)?
        .take(max.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// What a path field of a data file must name (see [`named_path`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Named {
    /// A file of Kessel's TOML formats (a map, a profile, a scenario of a campaign): `.toml`.
    Toml,
    /// A Lua file (a scenario's special rules): `.lua`.
    Lua,
    /// A folder (a ruleset).
    Folder,
}

/// Why a path a data file names was refused (the caller adds the file, line and field).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NamedPathError {
    /// The field is empty.
    #[error("the path is empty")]
    Empty,
    /// The path does not name the kind of file the field asks for.
    #[error("`{0}` is not a {1} file: this field names one (a data file can only name files of Kessel's own kinds)")]
    Kind(String, &'static str),
}

/// The one rule for a path that a data file names (a scenario's `map`, `ruleset`, `profile` and
/// `scripts`, a campaign's games and their profiles, a save's scenario): a relative path is read
/// from the folder of the file that names it (`from`), and the path names the kind of file the
/// field is for (`.toml`, `.lua`, or a folder). `..` may climb out of that folder and a path may
/// be absolute (scenarios share a ruleset kept elsewhere; the engine writes absolute paths for a
/// package's bundled ruleset), but a file of another kind (`/etc/passwd`, a key file) is refused
/// before anything is read; [`read_bounded`] then reads only a regular file, bounded.
pub fn named_path(from: &Path, value: &str, kind: Named) -> Result<PathBuf, NamedPathError> {
    if value.trim().is_empty() {
        return Err(NamedPathError::Empty);
    }
    named_kind(value, kind)?;
    // `join` keeps an absolute path as it is
    Ok(from.join(value))
}

/// The kind half of [`named_path`], alone: for the paths a save records, which are resolved
/// beside the save or from the working folder.
pub fn named_kind(value: &str, kind: Named) -> Result<(), NamedPathError> {
    let ext = |e: &str| {
        Path::new(value)
            .extension()
            .is_some_and(|x| x.to_string_lossy().eq_ignore_ascii_case(e))
    };
    match kind {
        Named::Toml if !ext("toml") => Err(NamedPathError::Kind(value.into(), ".toml")),
        Named::Lua if !ext("lua") => Err(NamedPathError::Kind(value.into(), ".lua")),
        _ => Ok(()),
    }
}

/// Opens a file that stands for a scenario folder (a program's packages): the scenario file to
/// read for it, `None` when the path is no such file. See [`set_scenario_opener`].
pub type ScenarioOpener = fn(&Path) -> Option<Result<PathBuf, String>>;

static SCENARIO_OPENER: std::sync::RwLock<Option<ScenarioOpener>> = std::sync::RwLock::new(None);
/// Scenario files a [`ScenarioOpener`] opened, with the path they were opened by.
static OPENED_AS: std::sync::RwLock<Vec<(PathBuf, PathBuf)>> = std::sync::RwLock::new(Vec::new());

/// Lets a program open files of its own that stand for a scenario (`kessel`'s `.kessel`
/// packages, unpacked to a folder of its own): a save naming such a file loads through it, and
/// the program says where each opened scenario came from ([`note_opened_as`]) so that a save
/// names the file, not where it was unpacked.
pub fn set_scenario_opener(opener: ScenarioOpener) {
    if let Ok(mut o) = SCENARIO_OPENER.write() {
        *o = Some(opener);
    }
}

/// The scenario file to read for `path` when the program's opener knows it ([`set_scenario_opener`]).
pub fn open_scenario_file(path: &Path) -> Option<Result<PathBuf, String>> {
    let opener = SCENARIO_OPENER.read().ok().and_then(|o| *o)?;
    opener(path)
}

/// Records that the scenario file `real` was opened by `given` (a package): saves name `given`.
pub fn note_opened_as(real: &Path, given: &Path) {
    if let Ok(mut list) = OPENED_AS.write() {
        if !list.iter().any(|(r, _)| r == real) {
            list.push((real.to_path_buf(), given.to_path_buf()));
        }
    }
}

/// The file the scenario `real` was opened by, when an opener opened it ([`note_opened_as`]).
pub fn opened_as(real: &Path) -> Option<PathBuf> {
    let list = OPENED_AS.read().ok()?;
    list.iter().find(|(r, _)| r == real).map(|(_, g)| g.clone())
}

/// Where a program keeps the user's own profiles of a ruleset: see [`set_user_profiles`].
pub type UserProfiles = fn(&Path) -> Option<PathBuf>;

static USER_PROFILES: std::sync::RwLock<Option<UserProfiles>> = std::sync::RwLock::new(None);

/// Lets a program name a folder of the user's for the profiles of a ruleset whose folder is the
/// program's own (a copy of rules it carries, rewritten by the next version): a profile saved
/// there is not lost on an upgrade. Profiles are then looked up by name in the ruleset's
/// `profiles/` first, then in that folder ([`crate::engine::Engine::profile_path`]). Without it,
/// or for a ruleset of the user's, the ruleset's `profiles/` is the only place.
pub fn set_user_profiles(finder: UserProfiles) {
    if let Ok(mut f) = USER_PROFILES.write() {
        *f = Some(finder);
    }
}

/// The user's folder for the profiles of the ruleset in `ruleset_dir`, when the program keeps
/// one ([`set_user_profiles`]); it need not exist yet.
pub fn user_profiles(ruleset_dir: &Path) -> Option<PathBuf> {
    let finder = USER_PROFILES.read().ok().and_then(|f| *f)?;
    finder(ruleset_dir)
}

/// Where the program finds a ruleset by its folder name (`rules` for `…/rules`) when the folder a
/// scenario names holds none: see [`set_ruleset_finder`].
pub type RulesetFinder = fn(&str) -> Option<PathBuf>;

static RULESET_FINDER: std::sync::RwLock<Option<RulesetFinder>> = std::sync::RwLock::new(None);

/// Lets a program say where rulesets it knows by name live (its working copy, the copies it
/// carries). A scenario whose `ruleset` path leads to no ruleset (a scenario folder copied to
/// another depth keeps its `../../…` path) then loads with the ruleset of the same folder name
/// found there, and says so ([`crate::scenario::Scenario::ruleset_named`]). Without a finder, or
/// when it finds nothing, the path stands and loading says what to fix.
pub fn set_ruleset_finder(finder: RulesetFinder) {
    if let Ok(mut f) = RULESET_FINDER.write() {
        *f = Some(finder);
    }
}

/// The ruleset folder to read for the folder `named` a scenario names: `named` itself when it
/// holds a ruleset (`init.lua`), else the finder's folder of the same name when it holds one
/// (with `true`: a stand-in), else `named` (loading then says there is no ruleset there).
pub fn ruleset_or_stand_in(named: &Path) -> (PathBuf, bool) {
    if named.join("init.lua").is_file() {
        return (named.to_path_buf(), false);
    }
    let finder = RULESET_FINDER.read().ok().and_then(|f| *f);
    let name = named
        .components()
        .rev()
        .find(|c| matches!(c, std::path::Component::Normal(_)))
        .map(|c| c.as_os_str().to_string_lossy().into_owned());
    match (finder, name) {
        (Some(find), Some(name)) => match find(&name) {
            Some(found) if found.join("init.lua").is_file() => (found, true),
            _ => (named.to_path_buf(), false),
        },
        _ => (named.to_path_buf(), false),
    }
}

/// A file could not be written; the old content (if any) is untouched. (The system's error is
/// part of the message and not a separate cause, so that a chain of contexts does not say it
/// twice.)
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}: {error}", path.display())]
pub struct WriteError {
    /// The file that was to be written.
    pub path: PathBuf,
    /// What failed.
    pub error: std::io::Error,
}

/// Distinguishes the temporary files of concurrent writes in one process.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path` atomically: a temporary file in the same folder (so the rename never
/// crosses file systems), written, flushed and synced, then renamed over `path`. On failure the
/// temporary file is removed and `path` keeps its old content.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let fail = |error| WriteError {
        path: path.to_path_buf(),
        error,
    };
    let file_name = path.file_name().ok_or_else(|| {
        fail(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a file path",
        ))
    })?;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    // (said as such: the system's "No such file or directory" names no folder)
    if let Some(d) = dir.filter(|d| !d.is_dir()) {
        let what = if d.exists() {
            format!("{} is not a folder", d.display())
        } else {
            format!(
                "the folder {} does not exist (create it first)",
                d.display()
            )
        };
        return Err(fail(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            what,
        )));
    }
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
    fn a_path_resolves_as_the_system_will_once_its_folders_are_made() {
        let dir = kessel_test_support::scratch("resolved");
        std::fs::create_dir_all(dir.join("real")).expect("folder");
        std::fs::write(dir.join("map.toml"), "x").expect("write");
        let map = resolved(&dir.join("map.toml"));
        // through a folder still to be made, and a `.`
        assert_eq!(resolved(&dir.join("new/../map.toml")), map);
        assert_eq!(resolved(&dir.join("new/deeper/../../././map.toml")), map);
        assert_ne!(resolved(&dir.join("new/map.toml")), map);
        // through a link: its `..` is the real folder's parent
        #[cfg(unix)]
        {
            let nested = dir.join("real/inner");
            std::fs::create_dir_all(&nested).expect("folder");
            std::os::unix::fs::symlink(&nested, dir.join("deep")).expect("link");
            // deep -> real/inner, so deep/../map.toml is real/map.toml, not the top map
            assert_eq!(
                resolved(&dir.join("deep/../map.toml")),
                resolved(&dir.join("real/map.toml"))
            );
            assert_ne!(resolved(&dir.join("deep/../map.toml")), map);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn writes_replace_and_failures_keep_the_old_file() {
        let dir = kessel_test_support::scratch("fsio");
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

    #[test]
    fn reads_only_regular_files_within_the_limit() {
        let dir = kessel_test_support::scratch("fsio-read");
        let p = dir.join("in.txt");
        std::fs::write(&p, b"12345").expect("write");
        assert_eq!(read_bounded(&p, 5).expect("at the limit"), b"12345");
        let e = read_bounded(&p, 4).expect_err("over the limit");
        assert!(e.to_string().contains("limit is 4"), "{e}");
        let e = read_bounded(&dir, 100).expect_err("a folder");
        assert!(e.to_string().contains("folder"), "{e}");
        // an endless device is refused before a byte is read
        let e = read_bounded(Path::new("/dev/zero"), 100).expect_err("a device");
        assert!(e.to_string().contains("not a regular file"), "{e}");
        assert!(read_bounded(&dir.join("missing"), 100).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
    /// Where the test's finder looks (a `fn` captures nothing).
    static STAND_INS: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

    fn test_finder(name: &str) -> Option<PathBuf> {
        Some(STAND_INS.get()?.join(name))
    }

    #[test]
    fn a_ruleset_folder_that_holds_none_takes_the_finders_of_the_same_name() {
        let dir = kessel_test_support::scratch("fsio-rules");
        let known = dir.join("known");
        std::fs::create_dir_all(known.join("standin-rules")).expect("dir");
        std::fs::write(known.join("standin-rules/init.lua"), "").expect("init");
        std::fs::create_dir_all(known.join("empty-rules")).expect("dir");
        std::fs::create_dir_all(dir.join("here/own-rules")).expect("dir");
        std::fs::write(dir.join("here/own-rules/init.lua"), "").expect("init");
        let _ = STAND_INS.set(known.clone());
        set_ruleset_finder(test_finder);
        // a folder holding a ruleset is read as named, even when the finder knows the name
        let own = dir.join("here/own-rules");
        assert_eq!(ruleset_or_stand_in(&own), (own.clone(), false));
        // a path leading nowhere: the finder's folder of the same name, said to be a stand-in
        let gone = dir.join("here/../../nowhere/standin-rules");
        assert_eq!(
            ruleset_or_stand_in(&gone),
            (known.join("standin-rules"), true)
        );
        // the finder's folder holds no ruleset either: the path stands, for loading to refuse
        let neither = dir.join("nowhere/empty-rules");
        assert_eq!(ruleset_or_stand_in(&neither), (neither.clone(), false));
        let unknown = dir.join("nowhere/no-such-rules");
        assert_eq!(ruleset_or_stand_in(&unknown), (unknown.clone(), false));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
