//! Loading maps and scenarios from TOML: file-format types (serde) → [`Map`] and [`Scenario`],
//! collecting every problem with its file and line instead of stopping at the first.
//!
//! This module and [`crate::script`]'s file loader are the only places the core reads files.

use crate::error::{read_text, LoadError, LoadErrors};
use crate::fsio::Named;
use crate::hex::Hex;
use crate::map::Map;
use crate::state::{Entry, Face, GameState, Location, Marker, Unit, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use toml::Spanned;

type S<T> = Spanned<T>;

mod build;
mod extends;
pub use extends::MAX_EXTENDS;
mod faces;
pub use faces::face_text_problem;
mod file;
mod map_file;

pub use map_file::{
    expand_label, feature_kind_lines, kind_line, load_map, parse_map, parse_map_lenient,
};

/// The most game-turns a scenario may have, and the highest turn number.
pub const MAX_TURNS: u32 = 10_000;
/// The most markers a scenario (or an inline set-up) may create.
pub const MAX_MARKERS: u32 = 100_000;
/// The most faces one pool may hold.
pub const MAX_POOL_FACES: u64 = 100_000;
/// The largest victory-point value of one objective (or level bound), so that no total wraps.
pub const MAX_VP: i64 = 1_000_000_000;

/// A whole number a data file gives whose real range is `LO..=HI`, read as a `u32`. The loader
/// checks the range with its own words; a number past what a `u32` holds is refused while it is
/// read, and the message says the real range, not the type's (`columns = 4294967297` was
/// "expected a whole number from 0 to 4294967295" where 1 to 99 are allowed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Whole<const LO: u32, const HI: u32>(pub(crate) u32);

impl<'de, const LO: u32, const HI: u32> serde::Deserialize<'de> for Whole<LO, HI> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // (TOML's whole numbers are i64: anything else is refused as no whole number)
        let n = i64::deserialize(d)?;
        u32::try_from(n).map(Whole).map_err(|_| {
            serde::de::Error::invalid_value(
                serde::de::Unexpected::Signed(n),
                &format!("a whole number from {LO} to {HI}").as_str(),
            )
        })
    }
}

/// Collects located errors for one file, or for a scenario and the files it extends: a span
/// names its file ([`extends::Sources`]).
struct Diag<'a> {
    sources: std::borrow::Cow<'a, extends::Sources>,
    errors: Vec<LoadError>,
}

impl Diag<'_> {
    fn new<'a>(file: &'a Path, text: &str) -> Diag<'a> {
        Diag {
            sources: std::borrow::Cow::Owned(extends::Sources::single(file, text)),
            errors: Vec::new(),
        }
    }

    fn over(sources: &extends::Sources) -> Diag<'_> {
        Diag {
            sources: std::borrow::Cow::Borrowed(sources),
            errors: Vec::new(),
        }
    }

    /// The line of a byte: the file's own for one file; for a scenario that extends others, the
    /// chain's ([`Scenario::locate`] says which file and line it is).
    fn line(&self, offset: usize) -> usize {
        self.sources.line(offset)
    }

    fn at(&mut self, span: std::ops::Range<usize>, msg: impl Into<String>) {
        let (file, line) = if span.end > 0 {
            let (f, l) = self.sources.locate(span.start);
            (f.to_path_buf(), Some(l))
        } else {
            (self.sources.0[0].path.clone(), None)
        };
        self.errors.push(LoadError::new(&file, line, msg));
    }

    /// Records, at `span`, what is wrong with a name the file gives a key of the game (a pool, a
    /// flag, a variable, a marker's kind), under the rule of declared names: such names were
    /// taken holding a line break, NUL or a bidirectional mark, and printed as another or none.
    fn name(&mut self, span: std::ops::Range<usize>, what: std::fmt::Arguments, name: &str) {
        if let Some(problem) = crate::names::name_problem(name) {
            self.at(span, format!("{what} {problem}"));
        }
    }

    /// Where `key` was first seen, when it was (a pool, place, level or hexside given twice): "line
    /// 12", or "line 12 of base.toml" when that is another file than `span`'s; else `key` is
    /// recorded as seen at `span` and `None` is returned.
    fn seen_before<K: Ord>(
        &self,
        seen: &mut std::collections::BTreeMap<K, usize>,
        key: K,
        span: &std::ops::Range<usize>,
    ) -> Option<String> {
        if let Some(first) = seen.get(&key) {
            return Some(self.line_words(*first, span.start));
        }
        seen.insert(key, span.start);
        None
    }

    /// "line N" for the byte `offset`, naming its file when it is not the file of `from`.
    fn line_words(&self, offset: usize, from: usize) -> String {
        let (file, line) = self.sources.locate(offset);
        if self.sources.at(offset).start == self.sources.at(from).start {
            format!("line {line}")
        } else {
            format!("line {line} of {}", crate::script::display_path(file))
        }
    }
}

/// A best-effort result and the problems found on the way: what [`parse_map_lenient`] and
/// [`Scenario::parse_lenient`] return, so an editor can open a broken file to fix it.
pub type Lenient<T> = (T, Vec<LoadError>);

/// The ruleset folder a scenario names, as found beside it (`fsio::named_path`), tidied:
/// `ruleset = "."` is the scenario's own folder, written without `./` in messages, and `.` itself
/// when the scenario was given by a bare file name (`kessel simulate scenario.toml`), never the
/// empty path, which no folder can be read as.
fn tidy_ruleset_dir(named: &Path) -> PathBuf {
    let joined: PathBuf = named
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect();
    if joined.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        joined
    }
}

/// Turns a best-effort result into the strict one: any problem refuses the whole file.
fn strict<T>((value, errors): Lenient<T>) -> Result<T, LoadErrors> {
    if errors.is_empty() {
        Ok(value)
    } else {
        Err(LoadErrors(errors))
    }
}

// ------------------------------------------------------------------------------------------------
// Scenario
// ------------------------------------------------------------------------------------------------

/// A unit as the scenario declares it, with the line it was declared on.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitSpec {
    /// The unit in its initial state.
    pub unit: Unit,
    /// Line of its table in the scenario file.
    pub line: usize,
    /// The faces as written, when every one is a string (`"6-4-8"`, `"9-1"`): a unit type that
    /// declares `face_fields` reads them as named values once the ruleset is known (see
    /// [`Scenario::read_faces`]); a string that is not A-D-M waits for that too.
    pub face_texts: Vec<String>,
    /// The line of each of `face_texts`, where a face the type cannot read is said (a list of
    /// faces may run over several lines, away from the unit's table).
    pub face_lines: Vec<usize>,
}

/// A victory objective.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Objective {
    /// Name (the place's, or given).
    pub name: String,
    /// Hexes.
    pub hexes: Vec<Hex>,
    /// Victory points.
    pub vp: i64,
    /// Side scoring it.
    pub side: Option<String>,
}

/// A victory level: applies when the score is at most `max` (first match wins).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Level {
    /// Name.
    pub name: String,
    /// Upper bound, inclusive; None = any.
    pub max: Option<i64>,
}

/// What a scenario hides at the start and from whom (`hidden_from` on a unit or marker).
#[derive(Clone, Debug, PartialEq)]
pub struct HiddenAtStart {
    /// The unit, or the markers of one `[[markers]]` table (by id).
    pub what: Hideable,
    /// From whom.
    pub from: HiddenFrom,
    /// Line of its table.
    pub line: usize,
}

/// A unit or markers hidden at the start.
#[derive(Clone, Debug, PartialEq)]
pub enum Hideable {
    /// A unit, by id.
    Unit(String),
    /// Markers, by id.
    Markers(std::ops::Range<u32>),
}

/// The sides something is hidden from.
#[derive(Clone, Debug, PartialEq)]
pub enum HiddenFrom {
    /// Every side but its owner's (every side, for a marker of no side).
    AllButOwner,
    /// These sides.
    Sides(Vec<String>),
}

/// A loaded scenario: its map, order of battle, pools and victory data.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The scenario file.
    pub path: PathBuf,
    /// Name.
    pub name: String,
    /// Folder of the ruleset.
    pub ruleset_dir: PathBuf,
    /// The `ruleset` field as written, and its line: for messages about it.
    pub ruleset_field: (String, usize),
    /// The folder the `ruleset` field leads to when it holds no ruleset and `ruleset_dir` is a
    /// stand-in of the same folder name that the program knows
    /// ([`crate::fsio::set_ruleset_finder`]): a scenario folder copied to another depth. `None`
    /// when the field leads to `ruleset_dir` itself.
    pub ruleset_named: Option<PathBuf>,
    /// Default profile.
    pub profile: Option<String>,
    /// The line of the `profile` field, for messages about it.
    pub profile_line: Option<usize>,
    /// The map file.
    pub map_path: PathBuf,
    /// The map.
    pub map: Arc<Map>,
    /// Number of game-turns.
    pub turns: u32,
    /// First game-turn.
    pub first_turn: u32,
    /// Notes for players.
    pub notes: String,
    /// Units.
    pub units: Vec<UnitSpec>,
    /// Pools: id → (side, faces with repeats).
    pub pools: BTreeMap<String, (Option<String>, Vec<Face>)>,
    /// Line of each pool's table, for messages.
    pub pool_lines: BTreeMap<String, usize>,
    /// Markers.
    pub markers: Vec<Marker>,
    /// The markers each `[[markers]]` table made (by id) and the table's line, for messages.
    pub marker_lines: Vec<(std::ops::Range<u32>, usize)>,
    /// Units and markers hidden from sides at the start (`hidden_from`), applied by
    /// [`Scenario::initial_state`]; the sides named are checked when a game starts.
    pub hidden: Vec<HiddenAtStart>,
    /// Objectives.
    pub objectives: Vec<Objective>,
    /// Line of each objective's table (in the order of `objectives`), for messages.
    pub objective_lines: Vec<usize>,
    /// Victory levels.
    pub levels: Vec<Level>,
    /// Free variables for the rules.
    pub vars: BTreeMap<String, Value>,
    /// Line of each variable in the file, for messages.
    pub var_lines: BTreeMap<String, usize>,
    /// The scenario's own Lua files (special rules), run after the ruleset loads.
    pub scripts: Vec<PathBuf>,
    /// The ruleset's sides that take part (`sides = [...]`) and the line that names them; absent:
    /// every side of the ruleset. A side left out has no view, acts in nothing and is hidden from
    /// nothing ([`Scenario::initial_state`] keeps the ruleset's order).
    pub sides: Option<(Vec<String>, usize)>,
    /// Line of each unit's table by id, so that locating many problems stays linear.
    unit_lines: BTreeMap<String, usize>,
    /// The scenario file and the files it extends, in turn (`extends`). The lines above are the
    /// file's own when it extends nothing; else they run on through the bases, and
    /// [`Scenario::locate`] turns one into its file and line.
    pub files: Vec<SourceFile>,
    /// The `extends` value the scenario file gives, and its line.
    pub extends: Option<(String, usize)>,
}

/// One file a scenario was read from (see [`Scenario::files`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SourceFile {
    /// The file.
    pub path: PathBuf,
    /// The lines of the files before it: its line `n` is the scenario's line `first_line + n`.
    pub first_line: usize,
    /// Its number of lines.
    pub lines: usize,
}

fn locate_in<'a>(files: &'a [SourceFile], path: &'a Path, line: usize) -> (&'a Path, usize) {
    let i = files
        .partition_point(|f| f.first_line < line)
        .saturating_sub(1);
    match files.get(i) {
        Some(f) => (&f.path, line - f.first_line),
        None => (path, line),
    }
}

fn error_in(files: &[SourceFile], path: &Path, line: Option<usize>, message: String) -> LoadError {
    match line {
        Some(l) => {
            let (file, line) = locate_in(files, path, l);
            LoadError::new(file, Some(line), message)
        }
        None => LoadError::new(path, None, message),
    }
}

/// When a file given as a scenario is another kind of Kessel file (a map, a profile), says so
/// instead of listing the scenario keys its tables are not.
fn not_a_scenario(path: &Path, text: &str) -> Option<LoadError> {
    let shown = crate::error::shown_path(path);
    let file = shown.display();
    use crate::fsio::KesselJson;
    let lua = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("lua"));
    let other = match crate::fsio::kessel_json_kind(text) {
        Some(KesselJson::CampaignSave) => Some(format!(
            "a campaign save: `kessel view {file}` shows its last game, `kessel campaign --verify {file}` replays it"
        )),
        Some(KesselJson::Save) => Some(format!(
            "a saved game: `kessel view {file}` shows it, `kessel editor {file}` plays it on"
        )),
        Some(KesselJson::LabData) => Some(format!(
            "a data file of `kessel simulate --out`: `kessel report {file}` reads it"
        )),
        None if lua => Some(
            "a Lua file: a scenario is a .toml file, which names its special rules in \
             `scripts = [...]`; `kessel test` runs a ruleset's tests, `kessel script` runs a script"
                .to_string(),
        ),
        None => None,
    };
    if let Some(what) = other {
        return Some(LoadError::new(
            path,
            None,
            format!("not a scenario but {what}"),
        ));
    }
    use crate::fsio::KesselToml;
    let what = match crate::fsio::kessel_toml_kind(text)? {
        KesselToml::Scenario => return None,
        KesselToml::Map => {
            "a map file ([map], [terrain]): give the scenario that names it in `map = …`"
        }
        KesselToml::Campaign => {
            "a campaign file ([[game]]): play it with `kessel campaign`; `kessel check` checks it with its games"
        }
        KesselToml::Profile => {
            "a profile (option values): pass it with `--profile` beside a scenario"
        }
    };
    Some(LoadError::new(
        path,
        None,
        format!("not a scenario but {what}"),
    ))
}

impl Scenario {
    /// The files this scenario extends, nearest first (none for a scenario written whole).
    pub fn bases(&self) -> impl Iterator<Item = &Path> {
        self.files.iter().skip(1).map(|f| f.path.as_path())
    }

    /// The file and its own line of one of the scenario's lines (a unit's, a pool's, …): the
    /// scenario file's, or a base's when the scenario extends others.
    pub fn locate(&self, line: usize) -> (&Path, usize) {
        locate_in(&self.files, &self.path, line)
    }

    /// An error at one of the scenario's lines, said at the file and line it is in.
    pub fn error_at(&self, line: Option<usize>, message: impl Into<String>) -> LoadError {
        error_in(&self.files, &self.path, line, message.into())
    }

    /// When the ruleset is a stand-in ([`Scenario::ruleset_named`]), what happened and how to
    /// make the file name the ruleset itself, for the program to show.
    pub fn stand_in_note(&self) -> Option<String> {
        let named = self.ruleset_named.as_ref()?;
        let (value, line) = &self.ruleset_field;
        let (file, line) = self.locate(*line);
        let show = crate::script::display_path;
        let folder = (file.parent())
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        // the value to write, as seen from the scenario's folder (absolute if that fails)
        let write = crate::scaffold::relative_to(folder, &self.ruleset_dir)
            .unwrap_or_else(|_| self.ruleset_dir.display().to_string());
        Some(format!(
            "{}:{line}: `ruleset = \"{value}\"` leads to {}, which holds no ruleset (a copied \
             scenario folder keeps its old relative path); the ruleset of the same folder name at \
             {} is used instead. To name it in the file, write `ruleset = \"{write}\"` there (the \
             editor's File → Save as… writes a copy with it)",
            show(file),
            show(named),
            show(&self.ruleset_dir),
        ))
    }

    /// Loads a scenario and its map, reporting every problem found.
    pub fn load(path: &Path) -> Result<Scenario, LoadErrors> {
        let text = read_text(path, "scenario")?;
        Scenario::parse(path, &text)
    }

    /// Parses scenario text; the map is read relative to `path`.
    pub fn parse(path: &Path, text: &str) -> Result<Scenario, LoadErrors> {
        strict(Scenario::parse_inner(path, text, None)?)
    }

    /// Parses scenario text as far as it can, for an editor that opens a broken scenario to fix
    /// it: a unit placed off the map stays off it, a bad face or objective hex is left out, the
    /// map's own problems ([`parse_map_lenient`]) come first in the list. Refused only when
    /// nothing can be shown: a TOML syntax error in the scenario or an unusable map header.
    pub fn parse_lenient(path: &Path, text: &str) -> Result<Lenient<Scenario>, LoadErrors> {
        Scenario::parse_inner(path, text, None)
    }

    /// Parses scenario text against a map already in memory instead of the map file it names
    /// (an editor checks unsaved scenario edits against its unsaved map this way). The file's
    /// `map` key still gives [`Scenario::map_path`]; the checks are those of [`Scenario::parse`].
    pub fn parse_with_map(path: &Path, text: &str, map: Map) -> Result<Scenario, LoadErrors> {
        strict(Scenario::parse_inner(path, text, Some(map))?)
    }

    /// [`Scenario::parse_with_map`] as far as it goes, like [`Scenario::parse_lenient`].
    pub fn parse_with_map_lenient(
        path: &Path,
        text: &str,
        map: Map,
    ) -> Result<Lenient<Scenario>, LoadErrors> {
        Scenario::parse_inner(path, text, Some(map))
    }

    /// The sides of `all` (the ruleset's) that take part in this scenario, in `all`'s order.
    pub fn playing_sides(&self, all: Vec<String>) -> Vec<String> {
        match &self.sides {
            Some((named, _)) => all.into_iter().filter(|s| named.contains(s)).collect(),
            None => all,
        }
    }

    /// Line of a unit's table, for messages.
    pub fn unit_line(&self, id: &str) -> Option<usize> {
        match self.unit_lines.get(id) {
            Some(l) => Some(*l),
            // units edited in after loading
            None => self.units.iter().find(|u| u.unit.id == id).map(|u| u.line),
        }
    }

    /// The state before any action: set-up placed, pools full, dice at `seed`. Its sides are
    /// `sides` (the ruleset's, in play order), narrowed to those the scenario's `sides` names.
    pub fn initial_state(&self, sides: Vec<String>, seed: u64) -> GameState {
        let sides = self.playing_sides(sides);
        let mut s = GameState::new(self.map.clone(), sides, seed);
        for spec in &self.units {
            s.add_unit(spec.unit.clone());
        }
        s.markers = self.markers.clone();
        for h in &self.hidden {
            let owner = |what: &Hideable| match what {
                Hideable::Unit(id) => s.unit(id).map(|u| u.side.clone()),
                Hideable::Markers(ids) => s
                    .markers
                    .get(ids.start as usize)
                    .and_then(|m| m.side.clone()),
            };
            let from: Vec<String> = match &h.from {
                HiddenFrom::AllButOwner => {
                    let own = owner(&h.what);
                    s.sides
                        .iter()
                        .filter(|x| Some(*x) != own.as_ref())
                        .cloned()
                        .collect()
                }
                // a side the ruleset does not have is refused by the set-up checks
                HiddenFrom::Sides(v) => v.iter().filter(|x| s.sides.contains(x)).cloned().collect(),
            };
            for side in &from {
                match &h.what {
                    Hideable::Unit(id) => s.secrets.set_hidden(id, side, true),
                    Hideable::Markers(ids) => {
                        for id in ids.clone() {
                            s.secrets.set_marker_hidden(id, side, true);
                        }
                    }
                }
            }
        }
        s.turn = self.first_turn;
        s.last_turn = self.first_turn + self.turns - 1;
        s.pools = self
            .pools
            .iter()
            .map(|(k, (_, f))| (k.clone(), f.clone()))
            .collect();
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy() -> (PathBuf, String) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/toy/scenario.toml");
        let text = std::fs::read_to_string(&path).expect("toy scenario");
        (path, text)
    }

    /// 20,000 units (half spread over an area) load, each with its own line for error messages.
    /// Loading is linear in the number of units: they parse in a fraction of a second (the old
    /// quadratic loader took several seconds here).
    #[test]
    fn twenty_thousand_units_load_with_their_lines() {
        let (path, text) = toy();
        let on_disk = Scenario::parse(&path, &text).expect("toy loads");
        let head = text
            .split("[[units]]")
            .next()
            .unwrap_or_default()
            .to_string();
        let mut big = head;
        for i in 0..20_000 {
            let place = if i % 2 == 0 {
                "at = \"0203\"".to_string()
            } else {
                "area = \"W\"".to_string()
            };
            big.push_str(&format!(
                "\n[[units]]\nid = \"u{i}\"\nside = \"red\"\ntype = \"inf\"\nfaces = [\"3-3-4\"]\n{place}\n"
            ));
        }
        let start = std::time::Instant::now();
        let sc = Scenario::parse_with_map(&path, &big, (*on_disk.map).clone()).expect("loads");
        let took = start.elapsed();
        assert_eq!(sc.units.len(), 20_000);
        assert_eq!(sc.units[19_999].line, big.lines().count() - 5);
        // (no time is asserted: a timed test fails on a busy machine; a parse that went quadratic
        // again would make this test take minutes, and the time is printed for whoever looks)
        eprintln!("20,000 units parsed in {took:?}");
    }

    #[test]
    fn a_misspelt_objective_place_is_one_error_with_a_suggestion() {
        let (path, text) = toy();
        let on_disk = Scenario::parse(&path, &text).expect("toy loads");
        assert!(text.contains("place = \"Toytown\""), "the toy's objective");
        let bad = text.replacen("place = \"Toytown\"", "place = \"Toytwn\"", 1);
        let errors = Scenario::parse_with_map(&path, &bad, (*on_disk.map).clone())
            .expect_err("an unknown place")
            .0;
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0]
                .message
                .contains("unknown place `Toytwn` (did you mean `Toytown`?)"),
            "{errors:?}"
        );
    }

    #[test]
    fn a_map_or_profile_given_as_a_scenario_is_named_as_such() {
        let map = "[map]\ncolumns = 2\nrows = 2\n\n[terrain]\ndefault = \"clear\"\n";
        let err = Scenario::parse(Path::new("m.toml"), map).expect_err("a map is no scenario");
        assert!(
            err.to_string().contains("not a scenario but a map file"),
            "{err}"
        );
        let profile = "[profile]\ndescription = \"x\"\n\n[options]\na = true\n";
        let err = Scenario::parse(Path::new("p.toml"), profile).expect_err("nor is a profile");
        assert!(
            err.to_string().contains("not a scenario but a profile"),
            "{err}"
        );
        let campaign = "name = \"c\"\n[carry]\nunits = true\n[[game]]\nscenario = \"a.toml\"\n";
        let err = Scenario::parse(Path::new("c.toml"), campaign).expect_err("nor a campaign");
        assert!(
            err.to_string()
                .contains("not a scenario but a campaign file"),
            "{err}"
        );
        // a save, the lab's data and a Lua file say what they are and what reads them
        for (file, text, said) in [
            (
                "g.json",
                "{\"format\":\"kessel-save/1\"}",
                "a saved game: `kessel view g.json`",
            ),
            (
                "c.json",
                "{\"format\":\"kessel-campaign-save/1\"}",
                "a campaign save",
            ),
            (
                "r.jsonl",
                "{\"type\":\"header\",\"format\":\"kessel-lab/1\"}\n",
                "`kessel report r.jsonl`",
            ),
            ("init.lua", "kessel.ruleset{ name = \"x\" }\n", "a Lua file"),
        ] {
            let err = Scenario::parse(Path::new(file), text).expect_err("no scenario");
            assert!(err.to_string().contains(said), "{file}: {err}");
        }
        // a scenario with a misspelt table still gets the parser's words
        let bad = "[scenario]\nname = \"x\"\nruleset = \".\"\nmap = \"m.toml\"\nturns = 1\n[[unit]]\nid = \"a\"\n";
        let err = Scenario::parse(Path::new("s.toml"), bad).expect_err("unknown table");
        assert!(err.to_string().contains("unknown field `unit`"), "{err}");
    }

    #[test]
    fn a_ruleset_in_the_scenario_folder_given_by_a_bare_file_name_is_the_working_folder() {
        let (path, text) = toy();
        let map = (*Scenario::parse(&path, &text).expect("toy loads").map).clone();
        // `kessel simulate scenario.toml` inside the toy's folder: `ruleset = "."`
        let (sc, _) = Scenario::parse_with_map_lenient(Path::new("scenario.toml"), &text, map)
            .expect("parses");
        assert_eq!(sc.ruleset_dir, Path::new("."));
        assert_eq!(
            tidy_ruleset_dir(&Path::new("a/b").join(".")),
            Path::new("a/b")
        );
        assert_eq!(
            tidy_ruleset_dir(&Path::new("a").join("./rules")),
            Path::new("a/rules")
        );
    }

    #[test]
    fn parse_with_map_checks_against_the_given_map() {
        let (path, text) = toy();
        let on_disk = Scenario::parse(&path, &text).expect("toy loads");
        let same = Scenario::parse_with_map(&path, &text, (*on_disk.map).clone()).expect("loads");
        assert_eq!(same, on_disk);
        // a map too small for the set-up: r1 at 0203 and b1 at 0603 are off it
        let small = Map::new("small", 2, 2, on_disk.map.numbering().clone(), "clear");
        let errors = Scenario::parse_with_map(&path, &text, small).expect_err("off the map");
        assert!(
            errors.0.iter().any(|e| e.message.contains("off the map")),
            "{errors}"
        );
    }

    #[test]
    fn faces_may_be_named_values() {
        let (path, text) = toy();
        let text = text.replacen(
            "faces = [\"3-3-4\"]",
            "faces = [{ morale = 9, leadership = -1 }, \"1-1-4\"]",
            1,
        );
        let sc = Scenario::parse(&path, &text).expect("named faces load");
        let u = &sc.units[0].unit;
        assert!(u.faces.is_empty());
        assert_eq!(u.named.len(), 2);
        assert_eq!(u.named[0]["leadership"], serde_json::json!(-1));
        assert_eq!(
            u.named[1]["movement"],
            serde_json::json!(4),
            "A-D-M beside named"
        );
        let bad = text.replacen("faces = [{ morale = 9", "faces = [{}, { morale = 9", 1);
        let errors = Scenario::parse(&path, &bad).expect_err("empty face");
        assert!(
            errors.to_string().contains("needs named values"),
            "{errors}"
        );
    }

    /// TOML's nan and inf, and its dates, wherever a scenario holds plain data for the rules: a
    /// unit's vars, a marker's value, a named face and `[vars]`. A number that is not finite was
    /// read as null (the variable or field was lost unseen) everywhere but `[vars]`, and a date
    /// became a table `{ "$__toml_private_datetime" = … }` everywhere.
    #[test]
    fn plain_data_refuses_numbers_that_are_not_finite_and_reads_dates_as_text() {
        let (path, text) = toy();
        let with = |vars: &str, face: &str, marker: &str, scenario_vars: &str| {
            let t = text.replacen(
                "faces = [\"3-3-4\"]",
                &format!("faces = [{face}]\nvars = {vars}"),
                1,
            );
            format!(
                "{t}\n[[markers]]\nkind = \"mine\"\nat = \"0203\"\nvalue = {marker}\n\n[vars]\nwhen = {scenario_vars}\n"
            )
        };
        let good = with(
            "{ d = 1979-05-27T07:32:00Z, list = [1.5, { t = 07:32:00 }] }",
            "{ morale = 9, since = 1941-06-22 }",
            "{ laid = 1941-07-10 }",
            "1941-07-10",
        );
        let sc = Scenario::parse(&path, &good).expect("dates load");
        let u = &sc.units[0].unit;
        assert_eq!(u.vars["d"], serde_json::json!("1979-05-27T07:32:00Z"));
        assert_eq!(
            u.vars["list"],
            serde_json::json!([1.5, { "t": "07:32:00" }])
        );
        assert_eq!(u.named[0]["since"], serde_json::json!("1941-06-22"));
        assert_eq!(
            sc.markers[0].value,
            Some(serde_json::json!({ "laid": "1941-07-10" }))
        );
        assert_eq!(sc.vars["when"], serde_json::json!("1941-07-10"));

        let bad = with(
            "{ a = 1,\n  b = [1, { c = nan }] }",
            "{ morale = inf }",
            "{ ap = -inf }",
            "[1, nan]",
        );
        let errors = Scenario::parse(&path, &bad).expect_err("nan and inf are refused");
        let lines: Vec<&str> = bad.lines().collect();
        let line_of = |needle: &str| lines.iter().position(|l| l.contains(needle)).map(|i| i + 1);
        let expected = [
            ("unit `r1`: var `b` holds nan", line_of("vars = {")),
            (
                "unit `r1`: face value `morale` holds inf",
                line_of("morale = inf"),
            ),
            ("marker `mine`: value holds -inf", line_of("ap = -inf")),
            ("scenario var `when` holds nan", line_of("when =")),
        ];
        for (message, line) in expected {
            assert!(
                errors
                    .0
                    .iter()
                    .any(|e| e.message.starts_with(message) && e.line == line),
                "{message} at line {line:?}: {errors}"
            );
        }
        assert_eq!(errors.0.len(), 4, "{errors}");
    }

    /// An objective listing a hex twice (a range counts each of its hexes) is refused at its line,
    /// once per hex, as a place doing so is: the hex was counted twice wherever the rules counted
    /// an objective's hexes.
    #[test]
    fn an_objective_listing_a_hex_twice_is_refused() {
        let (path, text) = toy();
        let bad = text.replacen(
            "place = \"Toytown\"",
            "name = \"Hills\"\nhexes = [\"0101\", \"0101..0103\", \"0101\", \"0102\"]",
            1,
        );
        assert_ne!(bad, text);
        let errors = Scenario::parse(&path, &bad).expect_err("a hex twice");
        let said: Vec<&str> = errors.0.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            said,
            [
                "objective lists hex 0101 twice: remove one",
                "objective lists hex 0102 twice: remove one"
            ],
            "{errors}"
        );
    }
}
