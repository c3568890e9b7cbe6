//! The open document: a scenario (or a bare map), its units in their set-up positions, and the
//! edit history. Loading and saving live here; drawing does not.

use crate::command::{EditorCommand, History};
use crate::scenario_file::{ScenarioDef, ScenarioFile};
use anyhow::bail;
use kessel_core::error::LoadError;
use kessel_core::hex::Hex;
use kessel_core::map::Map;
use kessel_core::map_toml::map_to_toml_with;
use kessel_core::scenario::{parse_map_lenient, Objective, Scenario};
use kessel_core::state::{Marker, Unit};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What the editor has open.
#[derive(Clone, Debug)]
pub struct Document {
    /// Scenario name, or the map's name for a bare map.
    pub name: String,
    /// The scenario file, if a scenario was opened.
    pub scenario_path: Option<PathBuf>,
    /// The map file edits are saved to.
    pub map_path: PathBuf,
    /// The map being edited.
    pub map: Map,
    /// Units in their initial state, scenario order, indexed by hex.
    pub units: UnitLayer,
    /// Victory objectives (drawn as VP hexes).
    pub objectives: Vec<Objective>,
    /// The markers the scenario puts on the map at set-up, as a game starts with them: drawn in
    /// scenario mode as play-test draws them (the scenario mode showed none).
    pub markers: Vec<Marker>,
    /// Sides in order of first appearance among the units; the ruleset's order is not known
    /// until the editor loads rulesets.
    pub sides: Vec<String>,
    /// The scenario's ruleset folder (none for a bare map).
    pub ruleset_dir: Option<PathBuf>,
    /// Why `ruleset_dir` is not the folder the scenario names, and how to fix the file (a
    /// copied scenario folder: see `Scenario::stand_in_note`).
    pub ruleset_note: Option<String>,
    /// The scenario's own Lua files (special rules), reloaded like the ruleset's.
    pub scenario_scripts: Vec<PathBuf>,
    /// The files the scenario extends (`extends`), nearest first: such a scenario is shown as
    /// its files make it, and its scenario data is not edited here (a save would have to write
    /// either the whole result, flattening the base into the file, or work out what differs).
    pub scenario_bases: Vec<PathBuf>,
    /// An extending scenario whose own file names no `map`: its map is a base's, which other
    /// scenarios share, so the editor does not write map edits over it.
    pub map_from_base: bool,
    /// The scenario's editable data (none for a bare map).
    pub scenario: Option<ScenarioDef>,
    /// The scenario file as last read or written, which saving edits in place.
    pub scenario_file: Option<ScenarioFile>,
    /// What the loader found wrong in the files as read (the document shows what could be
    /// loaded of them): kept until the files are read again.
    pub load_problems: Vec<LoadError>,
    /// Edit history.
    pub history: History,
    /// Revision last written to (or read from) disk.
    saved_revision: u64,
    /// The map as last read or written.
    saved_map: Map,
    /// Terrain characters of the file as read, reused on save to keep diffs small.
    legend_hint: Vec<(char, String)>,
    /// The comment lines the map file opens with, kept on top when the map is written again.
    map_preamble: String,
}

/// Units indexed by the hex they stand in: the set-up of a document, or a play-test game's state.
#[derive(Clone, Debug, Default)]
pub struct UnitLayer {
    units: Vec<Unit>,
    /// Units on the map by hex, in scenario order (the last one is drawn on top).
    stacks: BTreeMap<Hex, Vec<usize>>,
}

impl UnitLayer {
    /// Indexes units by hex.
    pub fn new(units: Vec<Unit>) -> UnitLayer {
        let mut stacks: BTreeMap<Hex, Vec<usize>> = BTreeMap::new();
        for (i, u) in units.iter().enumerate() {
            if let Some(h) = u.hex() {
                stacks.entry(h).or_default().push(i);
            }
        }
        UnitLayer { units, stacks }
    }

    /// Every unit, scenario order.
    pub fn all(&self) -> &[Unit] {
        &self.units
    }

    /// Iterates over every unit.
    pub fn iter(&self) -> std::slice::Iter<'_, Unit> {
        self.units.iter()
    }

    /// A unit by id.
    pub fn get(&self, id: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.id == id)
    }

    /// Units standing in a hex, bottom first.
    pub fn stack(&self, hex: Hex) -> impl Iterator<Item = &Unit> {
        self.stacks
            .get(&hex)
            .into_iter()
            .flatten()
            .map(|&i| &self.units[i])
    }

    /// Number of units in a hex.
    pub fn stack_len(&self, hex: Hex) -> usize {
        self.stacks.get(&hex).map_or(0, Vec::len)
    }

    /// Every non-empty stack, as indices into [`UnitLayer::all`].
    pub fn stacks(&self) -> impl Iterator<Item = (Hex, &[usize])> {
        self.stacks.iter().map(|(h, v)| (*h, v.as_slice()))
    }

    /// Units not on the map, in scenario order.
    pub fn off_map(&self) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(|u| u.hex().is_none())
    }
}

impl Document {
    /// Opens a scenario file, or a map file when the TOML has no `[scenario]` table. A file with
    /// problems opens as far as it loads, with the problems in [`Document::load_problems`]; only
    /// one with nothing to show (unreadable, a TOML syntax error, an unusable map header) is
    /// refused.
    pub fn open(path: &Path) -> anyhow::Result<Document> {
        let text = kessel_core::error::read_text(path, "file")?;
        let is_scenario = text
            .lines()
            .any(|l| l.trim_start().starts_with("[scenario]"));
        // the located errors stay inside the anyhow error, for panels that list them
        let refused = |e: kessel_core::error::LoadErrors| {
            anyhow::Error::new(e).context(format!("{} has errors", path.display()))
        };
        if is_scenario {
            let (scenario, problems) = Scenario::parse_lenient(path, &text).map_err(refused)?;
            let mut doc = Document::from_scenario(&scenario);
            doc.load_problems = problems;
            Ok(doc)
        } else if text.lines().any(|l| l.trim_start().starts_with("[map]")) {
            let (map, problems) = parse_map_lenient(path, &text).map_err(refused)?;
            let mut doc = Document::from_map(map, path.to_path_buf());
            doc.load_problems = problems;
            Ok(doc)
        } else if let Some(kind) = kessel_core::fsio::kessel_file_kind(path, &text) {
            // another of Kessel's files (a lab data file, a profile, a Lua file): say which
            let shown = kessel_core::script::display_path(path);
            bail!(
                "{shown}: neither a scenario nor a map but {}",
                kessel_core::fsio::kessel_file_words(kind, &shown)
            )
        } else {
            bail!(
                "{} is neither a scenario (no [scenario] table) nor a map (no [map] table)",
                path.display()
            )
        }
    }

    /// A document for a loaded scenario (its file is read again for the editable text; if that
    /// fails the scenario can be viewed but its units not edited).
    pub fn from_scenario(scenario: &Scenario) -> Document {
        let bases: Vec<PathBuf> = scenario.bases().map(Path::to_path_buf).collect();
        // (an extending scenario's file holds only what differs: editing it as a whole scenario
        // would show, and save, a scenario without the base's units)
        let own_text = kessel_core::error::read_text(&scenario.path, "scenario").ok();
        let map_from_base = !bases.is_empty()
            && (own_text.as_deref())
                .and_then(|t| t.parse::<toml::Table>().ok())
                .and_then(|t| t.get("scenario")?.as_table()?.get("map").cloned())
                .is_none();
        let file = own_text
            .filter(|_| bases.is_empty())
            .and_then(|t| ScenarioFile::parse(&t).ok());
        let mut sides: Vec<String> = Vec::new();
        for u in &scenario.units {
            if !sides.contains(&u.unit.side) {
                sides.push(u.unit.side.clone());
            }
        }
        let state = scenario.initial_state(sides.clone(), 0);
        let map = (*scenario.map).clone();
        let mut doc = Document {
            name: scenario.name.clone(),
            scenario_path: Some(scenario.path.clone()),
            map_path: scenario.map_path.clone(),
            saved_map: map.clone(),
            map,
            units: UnitLayer::new(state.units),
            objectives: scenario.objectives.clone(),
            markers: state.markers,
            sides,
            ruleset_dir: Some(scenario.ruleset_dir.clone()),
            ruleset_note: scenario.stand_in_note(),
            scenario_scripts: scenario.scripts.clone(),
            scenario_bases: bases,
            map_from_base,
            scenario: file.as_ref().map(|f| f.def.clone()),
            scenario_file: file,
            load_problems: Vec::new(),
            history: History::default(),
            saved_revision: 0,
            legend_hint: read_legend(&scenario.map_path),
            map_preamble: read_preamble(&scenario.map_path),
        };
        doc.refresh();
        doc
    }

    /// Recomputes what is derived from the scenario data (units by hex, objectives, sides) after
    /// an edit, an undo or a redo.
    pub fn refresh(&mut self) {
        let Some(def) = &self.scenario else {
            return;
        };
        self.units = UnitLayer::new(def.to_units(&self.map));
        self.objectives = def.to_objectives(&self.map);
        self.sides = def.sides();
        self.name = def.meta.name.clone();
    }

    /// For a scenario that extends another: what the editor does with it, to show on screen.
    pub fn extends_note(&self) -> Option<String> {
        let base = self.scenario_bases.first()?;
        let file = (self.scenario_path.as_deref())
            .map_or_else(String::new, kessel_core::script::display_path);
        Some(format!(
            "{file} extends {}: it is shown as the two files make it, and its scenario data \
             (units, objectives, …) is read-only here, so a save never writes the base's \
             content into it nor drops its `extends`. Edit what it changes in its file with a \
             text editor (the editor reloads it); File → Save as… copies the file still \
             extending the same base. {}",
            kessel_core::script::display_path(base),
            if self.map_from_base {
                format!(
                    "Its map is the base's, {}, shared by every scenario built on it: to change \
                     it, copy it beside this file and name it in `map`.",
                    kessel_core::script::display_path(&self.map_path)
                )
            } else {
                format!(
                    "Map edits are saved to its map file, {}.",
                    kessel_core::script::display_path(&self.map_path)
                )
            },
        ))
    }

    /// The scenario text with the current edits, as a save would write it.
    pub fn scenario_text(&self) -> Option<String> {
        Some(self.scenario_file.as_ref()?.render(self.scenario.as_ref()?))
    }

    /// A document for a bare map (no units).
    pub fn from_map(map: Map, map_path: PathBuf) -> Document {
        Document {
            legend_hint: read_legend(&map_path),
            map_preamble: read_preamble(&map_path),
            name: map.name.clone(),
            scenario_path: None,
            map_path,
            saved_map: map.clone(),
            map,
            scenario: None,
            scenario_file: None,
            units: UnitLayer::default(),
            objectives: Vec::new(),
            markers: Vec::new(),
            sides: Vec::new(),
            ruleset_dir: None,
            ruleset_note: None,
            scenario_scripts: Vec::new(),
            scenario_bases: Vec::new(),
            map_from_base: false,
            load_problems: Vec::new(),
            history: History::default(),
            saved_revision: 0,
        }
    }

    /// Units standing in a hex at set-up, bottom first.
    pub fn stack(&self, hex: Hex) -> impl Iterator<Item = &Unit> {
        self.units.stack(hex)
    }

    /// Number of units in a hex at set-up.
    pub fn stack_len(&self, hex: Hex) -> usize {
        self.units.stack_len(hex)
    }

    /// Units not on the map at set-up (reinforcements), in scenario order.
    pub fn pending_units(&self) -> impl Iterator<Item = &Unit> {
        self.units.off_map()
    }

    /// Objectives that include a hex.
    pub fn objectives_at(&self, hex: Hex) -> impl Iterator<Item = &Objective> {
        self.objectives
            .iter()
            .filter(move |o| o.hexes.contains(&hex))
    }

    /// True when the map differs from the file.
    pub fn is_dirty(&self) -> bool {
        self.history.revision() != self.saved_revision
    }

    /// Applies an edit command through the history.
    pub fn edit(&mut self, cmd: &EditorCommand) -> Result<bool, String> {
        let changed = self.history.apply(&mut self.map, &mut self.scenario, cmd)?;
        if changed {
            self.refresh();
        }
        Ok(changed)
    }

    /// Undoes the last edit; returns its label.
    pub fn undo(&mut self) -> Option<String> {
        let label = self.history.undo(&mut self.map, &mut self.scenario)?;
        self.refresh();
        Some(label)
    }

    /// Redoes the last undone edit; returns its label.
    pub fn redo(&mut self) -> Option<String> {
        let label = self.history.redo(&mut self.map, &mut self.scenario)?;
        self.refresh();
        Some(label)
    }

    /// Writes the map file and the scenario file, each only if its content changed. An unchanged
    /// file is not touched (hand-written comments there survive), and the scenario is edited in
    /// place, so its comments and layout survive too.
    pub fn save(&mut self) -> anyhow::Result<SaveOutcome> {
        // a map file with problems is rewritten whole even without edits: what the editor shows
        // of it (a short row filled with the default terrain) is the fix
        let map_broken = self.load_problems.iter().any(|p| p.file == self.map_path);
        if !self.is_dirty() && !map_broken {
            return Ok(SaveOutcome::Unchanged);
        }
        let mut written = Vec::new();
        if self.map != self.saved_map && self.map_from_base {
            anyhow::bail!(
                "not saved: the map is the base scenario's, {}, which every scenario built on it \
                 shares; copy it beside this scenario and name it in its [scenario] (`map = \
                 \"map.toml\"`), then edit that copy (the edits stay on screen until then)",
                kessel_core::script::display_path(&self.map_path)
            );
        }
        if self.map != self.saved_map || map_broken {
            let text = self.map_text();
            write_atomic(&self.map_path, text.as_bytes())?;
            self.saved_map = self.map.clone();
            written.push(self.map_path.clone());
        }
        if let (Some(path), Some(file), Some(def)) =
            (&self.scenario_path, &mut self.scenario_file, &self.scenario)
        {
            let text = file.render(def);
            if text != file.text {
                write_atomic(path, text.as_bytes())?;
                file.saved(text, def.clone()).map_err(anyhow::Error::msg)?;
                written.push(path.clone());
            }
        }
        self.saved_revision = self.history.revision();
        // a written file holds what the editor shows, so what was wrong with it as read is gone
        self.load_problems.retain(|p| !written.contains(&p.file));
        Ok(match written.len() {
            0 => SaveOutcome::Unchanged,
            _ => SaveOutcome::Written(written),
        })
    }
}

impl Document {
    /// The map file's text as the editor shows the map (the author's legend characters and
    /// opening comments kept; the rest in the canonical layout, other comments dropped).
    pub fn map_text(&self) -> String {
        format!(
            "{}{}",
            self.map_preamble,
            map_to_toml_with(&self.map, &self.legend_hint)
        )
    }

    /// The scenario file's text with the edits made (none for a bare map).
    pub fn scenario_text_edited(&self) -> Option<String> {
        match (&self.scenario_file, &self.scenario) {
            (Some(file), Some(def)) => Some(file.render(def)),
            _ => None,
        }
    }
}

/// The comment lines (and blank lines between them) a map file opens with, such as its title and
/// where it was cut from, followed by one blank line; empty if it opens with none or can't be read.
fn read_preamble(map_path: &Path) -> String {
    let Ok(text) = kessel_core::error::read_text(map_path, "map") else {
        return String::new();
    };
    let lines: Vec<&str> = text
        .lines()
        .take_while(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
        .collect();
    let kept = lines.join("\n");
    let kept = kept.trim();
    if kept.is_empty() {
        String::new()
    } else {
        format!("{kept}\n\n")
    }
}

/// The `[terrain] legend` of a map file, if it can be read; anything odd is skipped, since the
/// hint only affects which characters a save uses.
fn read_legend(map_path: &Path) -> Vec<(char, String)> {
    let Ok(text) = kessel_core::error::read_text(map_path, "map") else {
        return Vec::new();
    };
    let Ok(table) = text.parse::<toml::Table>() else {
        return Vec::new();
    };
    let Some(legend) = table
        .get("terrain")
        .and_then(|t| t.get("legend"))
        .and_then(|l| l.as_table())
    else {
        return Vec::new();
    };
    legend
        .iter()
        .filter_map(|(k, v)| {
            let mut chars = k.chars();
            match (chars.next(), chars.next(), v.as_str()) {
                (Some(c), None, Some(name)) => Some((c, name.to_string())),
                _ => None,
            }
        })
        .collect()
}

/// What a save did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveOutcome {
    /// Nothing to write.
    Unchanged,
    /// The files written.
    Written(Vec<PathBuf>),
}

/// Writes a file so that readers (the CLI, a hot-reload watcher) see either the old or the new
/// content, never a half-written one: write a temporary file beside it, flush, then rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    Ok(kessel_core::fsio::write_atomic(path, bytes)?)
}
