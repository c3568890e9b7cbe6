//! Hot reload: watch the ruleset and the scenario's folders, and tell the app what changed.
//!
//! notify-debouncer-full (50 ms) runs on its own thread and sends each batch of paths over a
//! channel, waking the UI with `request_repaint`; the app drains the channel at the start of a
//! frame ([`Watcher::poll`]), so reloads happen between frames on the UI thread, where the
//! engine lives (a Lua state is not `Send`).
//!
//! Pitfalls this module is built around (see `/work/shared/stack.md`, P12/P13): directories are
//! watched, never files (editors save by rename, which replaces the inode); access events are
//! dropped (the reload's own reads would otherwise trigger endless reloads); and a file counts as
//! changed only when its content hash differs from the last one seen, so a save without changes
//! or the editor's own writes ([`Watcher::note_written`]) reload nothing.

use notify_debouncer_full::notify::RecursiveMode;
use notify_debouncer_full::{new_debouncer, DebounceEventResult, Debouncer, RecommendedCache};
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The debounce delay: long enough that a save is one event, short enough to feel instant.
pub const DEBOUNCE: Duration = Duration::from_millis(50);

/// What changed, by what it means to the editor.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Lua files of the ruleset (the rules must be reloaded).
    pub rules: Vec<PathBuf>,
    /// Profile files (the profile list and the options may have changed).
    pub profiles: Vec<PathBuf>,
    /// The scenario or its map (the document must be reloaded).
    pub scenario: Vec<PathBuf>,
}

impl Changes {
    /// True if nothing relevant changed.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty() && self.profiles.is_empty() && self.scenario.is_empty()
    }
}

/// Where the watched files are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Watched {
    /// The ruleset folder (watched recursively).
    pub ruleset_dir: Option<PathBuf>,
    /// Scenario and map files (their folders are watched).
    pub scenario_files: Vec<PathBuf>,
    /// The scenario's own Lua files: a change reloads the rules, like a ruleset file.
    pub script_files: Vec<PathBuf>,
}

type Waker = Arc<Mutex<Option<egui::Context>>>;

/// A watched folder and which folder it was when the watch was set (see [`folder_id`]).
struct WatchedDir {
    path: PathBuf,
    mode: RecursiveMode,
    id: Option<(u64, u64)>,
}

/// Which folder is at `path` now (device and inode), none when there is none. inotify follows
/// a folder, not its name: once the scenario's folder was renamed away and another put in its
/// place (a copy, a checkout, an unpacked package), the watch stayed on the old one and no
/// later save in the new folder was seen.
fn folder_id(path: &Path) -> Option<(u64, u64)> {
    let meta = std::fs::metadata(path).ok().filter(|m| m.is_dir())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        Some((0, 0))
    }
}

/// A running watcher.
pub struct Watcher {
    debouncer: Debouncer<notify_debouncer_full::notify::RecommendedWatcher, RecommendedCache>,
    dirs: Vec<WatchedDir>,
    rx: Receiver<Vec<PathBuf>>,
    waker: Waker,
    watched: Watched,
    hashes: BTreeMap<PathBuf, u64>,
    errors: Receiver<String>,
}

/// What a path holds, as a hash: its bytes, or why it cannot be read. A file that cannot be read
/// is told apart by the reason (missing, a folder, over the size limit and its size): they were
/// all one "nothing", so a scenario over the limit that then became a folder, or was deleted,
/// reloaded nothing and the panel went on naming the first reason.
fn content_hash(path: &Path) -> u64 {
    let mut h = DefaultHasher::new();
    match kessel_core::fsio::read_bounded(path, kessel_core::fsio::MAX_TEXT_INPUT) {
        Ok(bytes) => (0u8, bytes).hash(&mut h),
        Err(e) => (1u8, e.kind().to_string(), e.to_string()).hash(&mut h),
    }
    h.finish()
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Files under `dir` (recursively) with one of the extensions the editor reacts to. A folder is
/// read once however many links lead to it (a symbolic link back up the tree made this endless).
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    // (a link out of the folder is not followed: one to `/` hashed every file of the system)
    for p in kessel_core::fsio::files_within(dir, &|_| true) {
        if matches!(
            p.extension().and_then(|x| x.to_str()),
            Some("lua") | Some("toml")
        ) {
            out.push(p);
        }
    }
}

impl Watcher {
    /// Starts watching. The ruleset folder is watched recursively; the folders of the scenario
    /// files non-recursively, unless the ruleset watch covers them already.
    pub fn start(watched: Watched) -> anyhow::Result<Watcher> {
        let watched = Watched {
            ruleset_dir: watched.ruleset_dir.as_deref().map(canonical),
            scenario_files: watched
                .scenario_files
                .iter()
                .map(|p| canonical(p))
                .collect(),
            script_files: watched.script_files.iter().map(|p| canonical(p)).collect(),
        };
        let (tx, rx) = channel();
        let (etx, errors) = channel();
        let waker: Waker = Arc::new(Mutex::new(None));
        let wake = waker.clone();
        let mut debouncer = new_debouncer(DEBOUNCE, None, move |res: DebounceEventResult| {
            match res {
                Ok(events) => {
                    let paths: Vec<PathBuf> = events
                        .iter()
                        // the reload's own reads come back as access events (P12)
                        .filter(|e| !e.kind.is_access())
                        .flat_map(|e| e.paths.iter().cloned())
                        .collect();
                    if paths.is_empty() || tx.send(paths).is_err() {
                        return;
                    }
                }
                Err(errs) => {
                    for e in errs {
                        let _ = etx.send(e.to_string());
                    }
                }
            }
            if let Ok(ctx) = wake.lock() {
                if let Some(ctx) = ctx.as_ref() {
                    ctx.request_repaint();
                }
            }
        })?;
        let mut dirs: Vec<(PathBuf, RecursiveMode)> = Vec::new();
        // a scenario naming a missing ruleset still gets its own files watched
        if let Some(r) = watched.ruleset_dir.as_ref().filter(|r| r.is_dir()) {
            dirs.push((r.clone(), RecursiveMode::Recursive));
        }
        for f in watched.scenario_files.iter().chain(&watched.script_files) {
            let Some(parent) = f.parent() else { continue };
            let covered = dirs.iter().any(|(d, mode)| {
                parent == d || (*mode == RecursiveMode::Recursive && parent.starts_with(d))
            });
            if !covered {
                dirs.push((parent.to_path_buf(), RecursiveMode::NonRecursive));
            }
        }
        for (d, mode) in &dirs {
            debouncer.watch(d, *mode)?;
        }
        let dirs = dirs
            .into_iter()
            .map(|(path, mode)| WatchedDir {
                id: folder_id(&path),
                path,
                mode,
            })
            .collect();
        // the content as it is now, so the first save of an unchanged file reloads nothing
        let mut files = Vec::new();
        if let Some(r) = &watched.ruleset_dir {
            files_under(r, &mut files);
        }
        files.extend(watched.scenario_files.iter().cloned());
        files.extend(watched.script_files.iter().cloned());
        let hashes = files
            .into_iter()
            .map(|f| {
                let h = content_hash(&f);
                (f, h)
            })
            .collect();
        Ok(Watcher {
            debouncer,
            dirs,
            rx,
            waker,
            watched,
            hashes,
            errors,
        })
    }

    /// What is watched (paths made absolute).
    pub fn watched(&self) -> &Watched {
        &self.watched
    }

    /// Lets the watcher thread wake the UI when something changes.
    pub fn set_waker(&self, ctx: &egui::Context) {
        if let Ok(mut w) = self.waker.lock() {
            if w.is_none() {
                *w = Some(ctx.clone());
            }
        }
    }

    /// Records a file the editor wrote itself, so its event reloads nothing.
    pub fn note_written(&mut self, path: &Path) {
        let p = canonical(path);
        let h = content_hash(&p);
        self.hashes.insert(p, h);
    }

    /// Errors the watcher reported since the last call.
    pub fn take_errors(&self) -> Vec<String> {
        self.errors.try_iter().collect()
    }

    /// Drains the events that arrived and sorts the files whose content really changed.
    pub fn poll(&mut self) -> Changes {
        let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
        for batch in self.rx.try_iter() {
            seen.extend(batch);
        }
        self.rewatch_moved_folders(&mut seen);
        // a folder renamed, removed or put back inside a watched one comes as one event for the
        // folder: the files known under it, and those it holds now, are looked at (a rules
        // folder renamed away left the editor saying nothing)
        let folders: Vec<PathBuf> = seen.iter().map(|p| canonical(p)).collect();
        for f in folders {
            seen.extend(
                self.hashes
                    .keys()
                    .filter(|k| k.starts_with(&f) && **k != f)
                    .cloned(),
            );
            if f.is_dir() {
                let mut under = Vec::new();
                files_under(&f, &mut under);
                seen.extend(under);
            }
        }
        let mut out = Changes::default();
        for p in seen {
            let p = canonical(&p);
            let hidden = p
                .file_name()
                .and_then(|n| n.to_str())
                .is_none_or(|n| n.starts_with('.') || n.ends_with('~'));
            if hidden {
                // editors' and our own temporary files: the rename that follows is the event
                continue;
            }
            let ext = p.extension().and_then(|x| x.to_str()).unwrap_or("");
            let is_scenario = self.watched.scenario_files.contains(&p);
            let in_ruleset = self
                .watched
                .ruleset_dir
                .as_deref()
                .is_some_and(|r| p.starts_with(r));
            let is_script = self.watched.script_files.contains(&p);
            let kind = if is_scenario {
                Kind::Scenario
            } else if (in_ruleset || is_script) && ext == "lua" {
                Kind::Rules
            } else if in_ruleset
                && ext == "toml"
                && p.parent().is_some_and(|d| d.ends_with("profiles"))
            {
                Kind::Profiles
            } else {
                continue;
            };
            let h = content_hash(&p);
            if self.hashes.get(&p) == Some(&h) {
                continue;
            }
            self.hashes.insert(p.clone(), h);
            match kind {
                Kind::Scenario => out.scenario.push(p),
                Kind::Rules => out.rules.push(p),
                Kind::Profiles => out.profiles.push(p),
            }
        }
        out
    }
}

impl Watcher {
    /// Watches again each folder that is no longer the one watched (renamed away and another
    /// put in its place), and adds the files known under it to `seen`, so what changed with the
    /// swap reloads.
    fn rewatch_moved_folders(&mut self, seen: &mut BTreeSet<PathBuf>) {
        for d in &mut self.dirs {
            let now = folder_id(&d.path);
            if now == d.id {
                continue;
            }
            // (the old watch may be gone with its folder: nothing to undo then)
            let _ = self.debouncer.unwatch(&d.path);
            let id = match now {
                Some(id) => match self.debouncer.watch(&d.path, d.mode) {
                    Ok(()) => Some(id),
                    // tried again on the next poll
                    Err(_) => None,
                },
                None => None,
            };
            d.id = id;
            seen.extend(
                self.hashes
                    .keys()
                    .filter(|k| k.starts_with(&d.path))
                    .cloned(),
            );
            if d.id.is_some() && d.mode == RecursiveMode::Recursive {
                let mut under = Vec::new();
                files_under(&d.path, &mut under);
                seen.extend(under);
            }
        }
    }

    /// True while a watched folder is missing: nothing tells the watcher when it comes back,
    /// so the app polls again a little later.
    pub fn waiting_for_a_folder(&self) -> bool {
        self.dirs.iter().any(|d| d.id.is_none())
    }
}

enum Kind {
    Scenario,
    Rules,
    Profiles,
}

/// `HH:MM:SS` of the wall clock, in UTC: the standard library knows no time zones, and the
/// time only has to tell one reload from the next.
pub fn clock_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let s = secs % 86_400;
    format!("{:02}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
}
