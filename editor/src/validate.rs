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
/// The loader's problems do not stop the engine's checks (a special rule's syntax error is listed
/// beside a unit off the map), so one run lists what there is to fix.
pub fn check(path: &Path, text: &str, map: Map, ruleset: bool) -> Vec<LoadError> {
    let (scenario, mut errors) = match Scenario::parse_with_map_lenient(path, text, map) {
        Ok(s) => s,
        Err(e) => return e.0,
    };
    if !ruleset {
        return errors;
    }
    let (ruleset_dir, map_path, map) = (
        scenario.ruleset_dir.clone(),
        scenario.map_path.clone(),
        scenario.map.clone(),
    );
    let more = match Engine::with_scenario(scenario, None, 1, Limits::default()) {
        Ok(_) => Vec::new(),
        Err(kessel_core::engine::EngineError::Load(e)) => e.0,
        // a script error (a special rule's syntax error) keeps its own file and line; the map's
        // kinds are still checked against the ruleset alone, so they are not hidden behind it
        Err(e) => {
            let mut out: Vec<LoadError> = e
                .located()
                .into_iter()
                .map(|l| {
                    LoadError::new(
                        &l.file.map_or(path.to_path_buf(), PathBuf::from),
                        l.line,
                        l.message,
                    )
                })
                .collect();
            if let Ok(bare) = Engine::bare(&ruleset_dir, Limits::default()) {
                for m in bare.ruleset().check_map(&map) {
                    let line = kessel_core::scenario::kind_line(&map_path, &m);
                    out.push(LoadError::new(&map_path, line, m));
                }
            }
            out
        }
    };
    for e in more {
        if !errors.contains(&e) {
            errors.push(e);
        }
    }
    errors
}

/// The load problems of the document's other files (the map's): the checks re-read only the
/// scenario text, so these stay listed until the map is saved or read again.
fn other_files_problems(doc: &Document) -> Vec<LoadError> {
    doc.load_problems
        .iter()
        .filter(|e| doc.scenario_path.as_deref() != Some(e.file.as_path()))
        .cloned()
        .collect()
}

/// Ties errors to units and hexes of the document whose text they were found in.
pub fn issues(doc: &Document, text: &str, errors: Vec<LoadError>) -> Vec<Issue> {
    let blocks = unit_blocks(text);
    let map_lines = errors
        .iter()
        .any(|e| e.file == doc.map_path && e.line.is_some())
        .then(|| MapLines::read(&doc.map_path));
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
            let hex = unit
                .as_deref()
                .and_then(|id| doc.units.get(id)?.hex())
                .or_else(|| {
                    let l = e.line.filter(|_| e.file == doc.map_path)?;
                    map_lines.as_ref().and_then(|m| m.hex_of_line(&doc.map, l))
                });
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
                    let mut errors = other_files_problems(doc);
                    let checked = path.clone();
                    let checker =
                        kessel_core::script::rules_thread("scenario check").spawn(move || {
                            errors.extend(check(&path, &t, map, ruleset));
                            let _ = tx.send(errors);
                        });
                    match checker {
                        Ok(_) => {
                            self.job = Some(Job { text, rx });
                            ctx.request_repaint_after(Duration::from_millis(50));
                        }
                        Err(e) => {
                            let why = format!("cannot start the scenario check: {e}");
                            self.issues =
                                issues(doc, &text, vec![LoadError::new(&checked, None, why)]);
                        }
                    }
                } else {
                    self.issues = issues(doc, "", doc.load_problems.clone());
                    self.runs += 1;
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
        let errors = match inputs(doc) {
            Some((path, text)) => {
                let mut errors = other_files_problems(doc);
                errors.extend(check(
                    &path,
                    &text,
                    doc.map.clone(),
                    doc.ruleset_dir.is_some(),
                ));
                (text, errors)
            }
            None => (String::new(), doc.load_problems.clone()),
        };
        self.issues = issues(doc, &errors.0, errors.1);
        self.runs += 1;
    }

    /// Starts over on a document just opened or re-read: its load problems are the issues
    /// until the checks, scheduled now, have run.
    pub fn opened(&mut self, doc: &Document) {
        let text = doc.scenario_text().unwrap_or_default();
        self.issues = issues(doc, &text, doc.load_problems.clone());
        self.job = None;
        self.runs = 0;
        self.schedule();
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

/// Where the lines of a map file point: the terrain rows (line → row) and hex labels written on
/// a line, so a problem at a line of the map file can select its hex.
struct MapLines {
    lines: Vec<String>,
    /// 1-based line of each terrain row, top row first.
    rows: Vec<usize>,
}

impl MapLines {
    fn read(path: &Path) -> MapLines {
        let text = kessel_core::error::read_text(path, "map").unwrap_or_default();
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let mut rows = Vec::new();
        let mut in_terrain = false;
        let mut in_rows = false;
        for (i, line) in lines.iter().enumerate() {
            let t = line.trim_start();
            if t.starts_with('[') && !t.starts_with("[\"") {
                in_terrain = t.starts_with("[terrain]");
                in_rows = false;
            } else if in_terrain && t.starts_with("rows") {
                in_rows = true;
                // a row on the same line as `rows = [`
                if t.contains("\"") {
                    rows.push(i + 1);
                }
            } else if in_rows && t.starts_with('"') {
                rows.push(i + 1);
            } else if in_rows && t.starts_with(']') {
                in_rows = false;
            }
        }
        MapLines { lines, rows }
    }

    /// The hex a line of the map file is about: the first hex of its terrain row, or the first
    /// hex label written on it.
    fn hex_of_line(&self, map: &Map, line: usize) -> Option<Hex> {
        if let Some(row) = self.rows.iter().position(|&l| l == line) {
            return Some(map.hex_at(0, row as i32));
        }
        let text = self.lines.get(line.checked_sub(1)?)?;
        text.split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .find_map(|w| map.parse(w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_lines_point_at_terrain_rows_and_written_hexes() {
        let dir = kessel_test_support::scratch("maplines");
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("map.toml");
        let text =
            "[map]\nname = \"m\"\ncolumns = 3\nrows = 2\nnumbering = \"ccrr\"\n\n[terrain]\n\
                    default = \"clear\"\nrows = [\n  \"...\",\n  \"..\",\n]\n\n[[hexsides]]\n\
                    kind = \"river\"\nsides = [\"0102/0202\"]\n";
        std::fs::write(&path, text).expect("write");
        let map = kessel_core::scenario::parse_map_lenient(&path, text)
            .expect("map")
            .0;
        let lines = MapLines::read(&path);
        assert_eq!(lines.rows, vec![10, 11]);
        assert_eq!(lines.hex_of_line(&map, 11), map.parse("0102"));
        assert_eq!(lines.hex_of_line(&map, 16), map.parse("0102"));
        assert_eq!(lines.hex_of_line(&map, 2), None);
    }
}
