//! Starting new work: a region of a map cut out as map-file text, and a documented scenario
//! skeleton written into a folder and loaded back. `kessel map cut`, `kessel new scenario` and the
//! editor's *New scenario from a region* all call these, so the three write the same files.
//!
//! Besides the loaders, this is the one place the core reads files (the map it copies, the
//! ruleset's `profiles/` folder) and, through [`crate::fsio::write_atomic`], writes them.

mod skeleton;

use crate::engine::{Engine, EngineError};
use crate::error::LoadErrors;
use crate::fsio::{write_atomic, WriteError};
use crate::hex::Hex;
use crate::map::{CutMap, Map, MapError};
use crate::map_toml::map_to_toml;
use crate::scenario::{load_map, parse_map};
use crate::script::Limits;
use skeleton::Skeleton;
use std::path::{Component, Path, PathBuf};

/// Why a cut or a new scenario could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ScaffoldError {
    /// A file the skeleton would write is there already.
    #[error("{0} exists already: pick a new folder, or move it away first")]
    Exists(PathBuf),
    /// The folder holds a map.toml that is not the map asked for.
    #[error("{0} exists already and is not the map given")]
    MapInTheWay(PathBuf),
    /// A scenario of no turns.
    #[error("a scenario lasts at least one game-turn")]
    NoTurns,
    /// A name that would break the files it is written into.
    #[error("the scenario's name holds a line break or a control character ({0:?}): give it on one line")]
    BadName(String),
    /// The map does not load.
    #[error("{0}")]
    Map(#[from] LoadErrors),
    /// A corner is off the map.
    #[error(transparent)]
    Cut(#[from] MapError),
    /// The cut's text does not read back as the cut (a bug, never the user's doing).
    #[error("internal error: the cut map does not read back equal")]
    NotRoundTrip,
    /// The ruleset does not load.
    #[error("cannot load the ruleset {}: {source}", path.display())]
    Ruleset {
        /// Its folder.
        path: PathBuf,
        /// Every problem.
        source: EngineError,
    },
    /// The written scenario does not load (a bug of the skeleton or a broken ruleset).
    #[error("the new scenario {} does not load: {source}", path.display())]
    DoesNotLoad {
        /// Its scenario.toml.
        path: PathBuf,
        /// Every problem.
        source: EngineError,
    },
    /// The new scenario does not load, said of the folder it was to be written to (it was
    /// tried beside it, and nothing was written there).
    #[error("the new scenario {} would not load, so nothing was written: {message}", path.display())]
    DoesNotLoadText {
        /// The scenario.toml it would have been.
        path: PathBuf,
        /// Every problem, in words.
        message: String,
    },
    /// A file could not be written.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// A file or folder could not be read, created or resolved.
    #[error("cannot {what} {}: {source}", path.display())]
    Io {
        /// What was being done (`create`, `read`, `resolve`).
        what: &'static str,
        /// On what.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
}

impl ScaffoldError {
    /// Every problem located by file and line, where the error has them; one unlocated entry
    /// otherwise.
    pub fn located(&self) -> Vec<crate::error::Located> {
        match self {
            ScaffoldError::Map(e) => e.located(),
            ScaffoldError::Ruleset { source, .. } | ScaffoldError::DoesNotLoad { source, .. } => {
                source.located()
            }
            other => vec![crate::error::Located {
                file: None,
                line: None,
                message: other.to_string(),
            }],
        }
    }
}

fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> ScaffoldError {
    let path = path.to_path_buf();
    move |source| ScaffoldError::Io { what, path, source }
}

/// A region cut out of a map, and the map file's text for it.
#[derive(Clone, Debug)]
pub struct CutText {
    /// The cut and what it shortened or dropped.
    pub cut: CutMap,
    /// The new map file, with a first line saying where it was cut from.
    pub text: String,
}

/// Cuts the rectangle with corners `a` and `b` out of `map` (see [`Map::cut`]) and writes it as
/// map-file text headed by where it came from (`source`, as the user named it). The text is read
/// back before it is returned: what does not read back as the cut is never written.
pub fn cut_map(map: &Map, source: &str, a: Hex, b: Hex) -> Result<CutText, ScaffoldError> {
    let cut = map.cut(a, b)?;
    let text = format!(
        "# Cut from {source} (hexes {}–{}); hex numbers are as printed on the source.\n{}",
        map.label(a),
        map.label(b),
        map_to_toml(&cut.map)
    );
    let again = parse_map(Path::new(source), &text)?;
    if again != cut.map {
        return Err(ScaffoldError::NotRoundTrip);
    }
    Ok(CutText { cut, text })
}

/// Where a new scenario's map comes from.
#[derive(Clone, Copy, Debug)]
pub enum MapSource<'a> {
    /// A map file, copied into the folder as `map.toml` unless it already is that file.
    File(&'a Path),
    /// Map-file text (a [`cut_map`]), written into the folder as `map.toml`.
    Text(&'a str),
}

/// What `kessel new scenario` is asked for.
#[derive(Clone, Copy, Debug)]
pub struct NewScenario<'a> {
    /// The scenario folder (created if missing).
    pub dir: &'a Path,
    /// Its map.
    pub map: MapSource<'a>,
    /// The ruleset folder (the one holding `init.lua`).
    pub ruleset: &'a Path,
    /// The scenario's name (default: the folder's name).
    pub name: Option<&'a str>,
    /// Game-turns it lasts.
    pub turns: u32,
    /// The game-turn it starts on, when not 1 (a scenario later in a calendar).
    pub first_turn: Option<u32>,
}

/// The skeleton's files, relative to the scenario folder, in the order they are written.
pub const SKELETON_FILES: [&str; 4] = [
    "map.toml",
    "scenario.toml",
    "special.lua",
    "tests/special_test.lua",
];

/// Writes a documented scenario skeleton (map, `scenario.toml`, `special.lua`,
/// `tests/special_test.lua`) and loads it the way `kessel check` does. Nothing is written over:
/// a folder that holds a scenario already is refused before anything is written. The files are
/// written and loaded in a folder of their own beside the new one and moved in only once they
/// load, so a skeleton that does not load (a map the ruleset cannot read) leaves nothing behind
/// and the same command can be run again. Returns the path of the new `scenario.toml`.
pub fn new_scenario(spec: &NewScenario<'_>) -> Result<PathBuf, ScaffoldError> {
    let dir = spec.dir;
    // what is there is looked for where the system will write (`x/..` is the folder above once
    // `x` is made: a scenario there was written over)
    let real = crate::fsio::resolved(dir);
    for f in &SKELETON_FILES[1..] {
        if real.join(f).exists() {
            return Err(ScaffoldError::Exists(dir.join(f)));
        }
    }
    if spec.turns < 1 {
        return Err(ScaffoldError::NoTurns);
    }
    if let Some(name) = spec.name.filter(|n| n.chars().any(char::is_control)) {
        return Err(ScaffoldError::BadName(name.to_string()));
    }
    let map_dest = dir.join("map.toml");
    let map = match spec.map {
        MapSource::File(p) => load_map(p)?,
        MapSource::Text(t) => parse_map(&map_dest, t)?,
    };
    let engine =
        Engine::bare(spec.ruleset, Limits::default()).map_err(|source| ScaffoldError::Ruleset {
            path: spec.ruleset.to_path_buf(),
            source,
        })?;
    let copy_map = match spec.map {
        MapSource::File(p) => !same_file(p, &map_dest),
        MapSource::Text(_) => true,
    };
    if copy_map && real.join("map.toml").exists() {
        return Err(ScaffoldError::MapInTheWay(map_dest));
    }
    let map_bytes = match spec.map {
        MapSource::File(p) => {
            crate::fsio::read_bounded(p, crate::fsio::MAX_TEXT_INPUT).map_err(io("read", p))?
        }
        MapSource::Text(t) => t.as_bytes().to_vec(),
    };
    // written and loaded beside the folder first (at its depth, so the ruleset's relative path
    // is the same from both), then moved in
    let trial = trial_folder(dir);
    let _ = std::fs::remove_dir_all(&trial);
    let tests = trial.join("tests");
    std::fs::create_dir_all(&tests).map_err(io("create", &tests))?;
    let ruleset = match relative_to(&trial, spec.ruleset) {
        Ok(r) => r,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&trial);
            return Err(e);
        }
    };
    // (a folder's name may hold anything: written on one line)
    let name = spec.name.map(str::to_string).unwrap_or_else(|| {
        dir.file_name()
            .map(|n| n.to_string_lossy().replace(char::is_control, " "))
            .unwrap_or_else(|| "New scenario".into())
    });
    let skeleton = Skeleton {
        name: &name,
        ruleset: &ruleset,
        turns: spec.turns,
        first_turn: spec.first_turn,
        map_name: &map.name,
        first: map.label(map.hex_at(0, 0)),
        last: map.label(map.hex_at(map.columns() as i32 - 1, map.rows() as i32 - 1)),
        profiles: Engine::profile_names(spec.ruleset),
    };
    let texts = [
        skeleton.scenario_toml(&engine.ruleset()),
        skeleton.special_lua(&engine.ruleset()),
        skeleton.test_lua(),
    ];
    let tried = write_and_load(&trial, &map_bytes, &texts);
    if let Err(e) = tried {
        let _ = std::fs::remove_dir_all(&trial);
        return Err(match e {
            ScaffoldError::DoesNotLoad { source, .. } => ScaffoldError::DoesNotLoadText {
                path: dir.join("scenario.toml"),
                message: source
                    .to_string()
                    .replace(&trial.display().to_string(), &dir.display().to_string()),
            },
            other => other,
        });
    }
    let moved = (|| -> Result<(), ScaffoldError> {
        let tests = dir.join("tests");
        std::fs::create_dir_all(&tests).map_err(io("create", &tests))?;
        let files = SKELETON_FILES
            .iter()
            .filter(|f| copy_map || **f != "map.toml");
        for f in files {
            let (from, to) = (trial.join(f), dir.join(f));
            std::fs::rename(&from, &to).map_err(io("move", &to))?;
        }
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&trial);
    moved?;
    Ok(dir.join("scenario.toml"))
}

/// The folder a new scenario is tried in before it is moved into `dir`: beside it, hidden.
fn trial_folder(dir: &Path) -> PathBuf {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "scenario".into());
    let trial = format!(".{name}.new-{}", std::process::id());
    match dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(p) => p.join(trial),
        None => PathBuf::from(trial),
    }
}

/// Writes the skeleton's files (the map, then `texts` for the rest of [`SKELETON_FILES`]) into
/// `folder` and loads its scenario.
fn write_and_load(folder: &Path, map: &[u8], texts: &[String; 3]) -> Result<(), ScaffoldError> {
    let tests = folder.join("tests");
    std::fs::create_dir_all(&tests).map_err(io("create", &tests))?;
    write_atomic(&folder.join("map.toml"), map)?;
    for (f, text) in SKELETON_FILES[1..].iter().zip(texts) {
        write_atomic(&folder.join(f), text.as_bytes())?;
    }
    let scenario = folder.join("scenario.toml");
    Engine::load(&scenario, None, 1, Limits::default())
        .map(|_| ())
        .map_err(|source| ScaffoldError::DoesNotLoad {
            path: scenario.clone(),
            source,
        })
}

/// True if both paths name one existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    // (as the system reaches them, folders still to be made included)
    a.exists() && crate::fsio::resolved(a) == crate::fsio::resolved(b)
}

/// `target` as a path relative to the folder `from` (both made absolute first), with `/`
/// separators, as scenario files write it.
pub fn relative_to(from: &Path, target: &Path) -> Result<String, ScaffoldError> {
    let from = from.canonicalize().map_err(io("resolve", from))?;
    let target = target.canonicalize().map_err(io("resolve", target))?;
    let (f, t): (Vec<Component>, Vec<Component>) =
        (from.components().collect(), target.components().collect());
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".into(); f.len() - common];
    parts.extend(
        t[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    Ok(if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_and_descend() {
        let root = kessel_test_support::scratch("rel");
        let (a, b) = (root.join("x/cut"), root.join("scripts/pgg"));
        std::fs::create_dir_all(&a).expect("mkdir");
        std::fs::create_dir_all(&b).expect("mkdir");
        assert_eq!(
            relative_to(&a, &b).expect("both exist"),
            "../../scripts/pgg"
        );
        assert_eq!(relative_to(&a, &a).expect("exists"), ".");
        assert!(relative_to(&root.join("missing"), &b).is_err());
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_cut_is_headed_by_its_source_and_reads_back() {
        let mut map = Map::new("demo", 8, 6, Default::default(), "clear");
        let forest = map.parse("0403").expect("on map");
        map.set_terrain(forest, "forest").expect("on map");
        let (a, b) = (map.parse("0605").expect("a"), map.parse("0302").expect("b"));
        let out = cut_map(&map, "demo/map.toml", a, b).expect("cuts");
        assert!(
            out.text
                .starts_with("# Cut from demo/map.toml (hexes 0605–0302)"),
            "{}",
            out.text
        );
        let back = parse_map(Path::new("x.toml"), &out.text).expect("reads");
        assert_eq!((back.columns(), back.rows()), (4, 4));
        let hex = back.parse("0403").expect("label kept");
        assert_eq!(back.terrain_name(hex), Some("forest"));
        let off = map.parse("0101").expect("on the source");
        let off_cut = Hex {
            q: off.q - 40,
            r: off.r,
        };
        assert!(cut_map(&map, "demo", off_cut, b).is_err());
    }
}
