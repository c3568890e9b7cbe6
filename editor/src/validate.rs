//! Validation as you edit: the checks of `kessel check` (the scenario loader's, then the engine's
//! and the ruleset's set-up checks) run on the unsaved scenario text against the unsaved map, on a
//! worker thread after edits settle; the problems come back with `file:line`, the unit they
//! concern and its hex.

use crate::document::Document;
use kessel_core::engine::Engine;
use kessel_core::error::LoadError;
use kessel_core::hex::Hex;
use kessel_core::map::Map;
use kessel_core::scenario::Scenario;
use kessel_core::script::Limits;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// Quiet time after the last edit before the checks run.
pub const DEBOUNCE: Duration = Duration::from_millis(300);

/// One problem found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// `file:line` (or just the file).
    pub location: String,
    /// The message.
    pub message: String,
    /// The unit whose table the line falls in.
    pub unit: Option<String>,
    /// The hex to show: the unit's, when it is on the map.
    pub hex: Option<Hex>,
}

/// Runs the checks now (blocking). `ruleset` false skips the engine's checks (no scripts run).
pub fn check(path: &Path, text: &str, map: Map, ruleset: bool) -> Vec<LoadError> {
    let scenario = match Scenario::parse_with_map(path, text, map) {
        Ok(s) => s,
        Err(e) => return e.0,
    };
    if !ruleset {
        return Vec::new();
    }
    match Engine::with_scenario(scenario, None, 1, Limits::default()) {
        Ok(_) => Vec::new(),
        Err(kessel_core::engine::EngineError::Load(e)) => e.0,
        Err(e) => vec![LoadError::new(path, None, e.to_string())],
    }
}

/// Ties errors to units and hexes of the document whose text they were found in.
pub fn issues(doc: &Document, text: &str, errors: Vec<LoadError>) -> Vec<Issue> {
    let blocks = unit_blocks(text);
    errors
        .into_iter()
        .map(|e| {
            let file = kessel_core::script::display_path(&e.file);
            let location = match e.line {
                Some(l) => format!("{file}:{l}"),
                None => file,
            };
            let is_scenario = doc.scenario_path.as_deref() == Some(e.file.as_path());
            let unit = e
                .line
                .filter(|_| is_scenario)
                .and_then(|l| {
                    blocks
                        .iter()
                        .rev()
                        .find(|(start, end, _)| *start <= l && l < *end)
                })
                .map(|(_, _, id)| id.clone());
            let hex = unit.as_deref().and_then(|id| doc.units.get(id)?.hex());
            Issue {
                location,
                message: e.message,
                unit,
                hex,
            }
        })
        .collect()
}

/// `[[units]]` tables of a scenario text: (first line, line after the last, id), 1-based.
fn unit_blocks(text: &str) -> Vec<(usize, usize, String)> {
    let mut out: Vec<(usize, usize, String)> = Vec::new();
    let mut open: Option<(usize, String)> = None;
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let n = i + 1;
        let t = line.trim_start();
        if t.starts_with('[') {
            if let Some((start, id)) = open.take() {
                out.push((start, n, id));
            }
            if t.starts_with("[[units]]") {
                open = Some((n, String::new()));
            }
        } else if let Some((_, id)) = &mut open {
            if id.is_empty() && t.starts_with("id") {
                if let Ok(v) = t.parse::<toml::Table>() {
                    if let Some(s) = v.get("id").and_then(|v| v.as_str()) {
                        *id = s.to_string();
                    }
                }
            }
        }
    }
    if let Some((start, id)) = open {
        out.push((start, lines.len() + 1, id));
    }
    out
}

struct Job {
    text: String,
    rx: Receiver<Vec<LoadError>>,
}

/// Debounced background validation of a document.
#[derive(Default)]
pub struct Validator {
    due: Option<Instant>,
    job: Option<Job>,
    /// The problems of the last finished run.
    pub issues: Vec<Issue>,
    /// A run is pending or under way.
    pub busy: bool,
    /// Runs finished so far.
    pub runs: u64,
    force: bool,
}

impl Validator {
    /// Asks for a run once edits have been quiet for [`DEBOUNCE`].
    pub fn schedule(&mut self) {
        self.due = Some(Instant::now() + DEBOUNCE);
        self.busy = true;
    }

    /// Starts a due run and collects a finished one; call once a frame. Returns true when new
    /// results arrived.
    pub fn poll(&mut self, doc: &Document, ctx: &egui::Context) -> bool {
        if std::mem::take(&mut self.force) {
            self.run_now(doc);
            return true;
        }
        let mut arrived = false;
        if let Some(job) = &self.job {
            if let Ok(errors) = job.rx.try_recv() {
                let text = job.text.clone();
                self.job = None;
                self.issues = issues(doc, &text, errors);
                self.runs += 1;
                self.busy = self.due.is_some();
                arrived = true;
            } else {
                ctx.request_repaint_after(Duration::from_millis(50));
            }
        }
        if let Some(due) = self.due {
            let now = Instant::now();
            if now < due {
                ctx.request_repaint_after(due - now);
            } else if self.job.is_none() {
                self.due = None;
                if let Some((path, text)) = inputs(doc) {
                    let (tx, rx) = channel();
                    let map = doc.map.clone();
                    let t = text.clone();
                    let ruleset = doc.ruleset_dir.is_some();
                    std::thread::spawn(move || {
                        let _ = tx.send(check(&path, &t, map, ruleset));
                    });
                    self.job = Some(Job { text, rx });
                    ctx.request_repaint_after(Duration::from_millis(50));
                } else {
                    self.busy = false;
                }
            }
        }
        arrived
    }

    /// Runs the checks now, on this thread (tests, and the first look at a scenario).
    pub fn run_now(&mut self, doc: &Document) {
        self.due = None;
        self.job = None;
        self.busy = false;
        if let Some((path, text)) = inputs(doc) {
            let errors = check(&path, &text, doc.map.clone(), doc.ruleset_dir.is_some());
            self.issues = issues(doc, &text, errors);
            self.runs += 1;
        }
    }

    /// [`Validator::run_now`] on the document the next frame shows: tests call it between frames
    /// through the app (the document is the app's, so the app passes it).
    pub fn run_now_for_tests(&mut self) {
        self.due = Some(Instant::now());
        self.force = true;
    }

    /// Hexes with problems, for the map.
    pub fn hexes(&self) -> Vec<Hex> {
        self.issues.iter().filter_map(|i| i.hex).collect()
    }
}

fn inputs(doc: &Document) -> Option<(PathBuf, String)> {
    Some((doc.scenario_path.clone()?, doc.scenario_text()?))
}
