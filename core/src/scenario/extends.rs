//! `extends`: a scenario that varies another, written as only what differs.
//!
//! The files of a chain (the scenario itself, what it extends, what that extends, …) are read as
//! TOML trees with their spans, and each base's spans are moved past the files before it, so one
//! span names one place in one file: a problem found in the merged tree is said at the file and
//! line where the value is written. The merged tree is then read as one scenario.
//!
//! The merge rule (docs/file-formats.md, "Extending a scenario"):
//! - a table (`[scenario]`, `[vars]`, a value that is a table) merges key by key, recursively;
//! - any other value given (a number, a text, a list of values such as `sides` or `faces`)
//!   replaces the base's;
//! - the lists that add things to the game, `[[units]]`, `[[pools]]`, `[[markers]]`,
//!   `[[objectives]]`, `[[levels]]` and `scripts`, are added to: the base's first, then the
//!   extending file's. An entry naming a base entry (a unit or pool by `id`, a level by `name`,
//!   an objective by `name`, else `place`) replaces it where it stood, whole; with `remove =
//!   true` and nothing but its name it takes it out.

use super::S;
use crate::error::{read_text, toml_bounds, toml_error_at, LineIndex, LoadError, LoadErrors};
use crate::fsio::Named;
use std::path::{Path, PathBuf};
use toml::de::{DeTable, DeValue};

/// The most files a chain of `extends` may hold beyond the scenario itself: far more than a
/// designer layers, few enough that a chain made by mistake is said as such.
pub const MAX_EXTENDS: usize = 16;

/// One file of a scenario as read: where its text stands among the chain's (bytes and lines).
#[derive(Clone, Debug)]
pub(super) struct Source {
    pub(super) path: PathBuf,
    /// First byte of the file in the chain's spans.
    pub(super) start: usize,
    /// Lines of the files before it (a line of the chain is this plus the file's own line).
    pub(super) first_line: usize,
    pub(super) lines: LineIndex,
}

/// The files of one scenario: the scenario file first (its spans and lines are its own), then
/// each file it extends in turn.
#[derive(Clone, Debug)]
pub(super) struct Sources(pub(super) Vec<Source>);

impl Sources {
    /// One file alone (a map, a scenario that extends nothing).
    pub(super) fn single(path: &Path, text: &str) -> Sources {
        Sources(vec![Source {
            path: path.to_path_buf(),
            start: 0,
            first_line: 0,
            lines: LineIndex::new(text),
        }])
    }

    fn chain<'t>(files: impl IntoIterator<Item = (&'t Path, &'t str)>) -> Sources {
        let mut out = Vec::new();
        let (mut start, mut first_line) = (0, 0);
        for (path, text) in files {
            let lines = LineIndex::new(text);
            let count = lines.count();
            out.push(Source {
                path: path.to_path_buf(),
                start,
                first_line,
                lines,
            });
            // (one byte between files, so no span of one ends where the next begins)
            start += text.len() + 1;
            first_line += count;
        }
        Sources(out)
    }

    /// The file a byte of the chain is in.
    pub(super) fn at(&self, offset: usize) -> &Source {
        let i = self
            .0
            .partition_point(|s| s.start <= offset)
            .saturating_sub(1);
        &self.0[i]
    }

    /// The chain's line of a byte (the file's own line for the scenario file).
    pub(super) fn line(&self, offset: usize) -> usize {
        let s = self.at(offset);
        s.first_line + s.lines.line(offset - s.start)
    }

    /// The file and its own line of a byte.
    pub(super) fn locate(&self, offset: usize) -> (&Path, usize) {
        let s = self.at(offset);
        (&s.path, s.lines.line(offset - s.start))
    }

    /// What the scenario keeps of its files: path, first line, line count.
    pub(super) fn files(&self) -> Vec<super::SourceFile> {
        (self.0.iter())
            .map(|s| super::SourceFile {
                path: s.path.clone(),
                first_line: s.first_line,
                lines: s.lines.count(),
            })
            .collect()
    }
}

/// The `extends` value of a file's `[scenario]`, if it has one (a file that never says the word,
/// nor an escape that could spell it in a quoted key, is not parsed here: the bundled scenarios
/// are read once, as before).
fn extends_of(path: &Path, text: &str) -> Result<Option<S<String>>, LoadErrors> {
    if !text.contains("extends") && !text.contains('\\') {
        return Ok(None);
    }
    toml_bounds(path, text)?;
    // (a file that does not parse is said by the full read, with the parser's words)
    let Ok(table) = DeTable::parse(text) else {
        return Ok(None);
    };
    let Some(v) = (table.get_ref().get("scenario"))
        .and_then(|s| s.get_ref().as_table())
        .and_then(|t| t.get("extends"))
    else {
        return Ok(None);
    };
    match v.get_ref().as_str() {
        Some(s) => Ok(Some(S::new(v.span(), s.to_string()))),
        None => Err(LoadError::new(
            path,
            Some(crate::error::line_of(text, v.span().start)),
            "`extends` names the scenario this one varies, as a path in quotes: \
             `extends = \"../campaign.toml\"`",
        )
        .into()),
    }
}

/// Reads the files `path` extends, in turn: each with its path and text. Every problem with a
/// base as a whole (missing, unreadable, not a scenario, a cycle, too long a chain) is said at
/// the `extends` line that names it.
fn read_bases(path: &Path, text: &str) -> Result<Vec<(PathBuf, String)>, LoadErrors> {
    let mut bases: Vec<(PathBuf, String)> = Vec::new();
    let real = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let mut seen = vec![(real(path), path.to_path_buf())];
    let mut next = extends_of(path, text)?;
    // the chain shares one file's budget of bytes and values: the merged tree is built whole
    let count = |t: &str| {
        use crate::error::{shape_count, Syntax, MAX_TOML_DEPTH, MAX_TOML_VALUES};
        shape_count(t, Syntax::Toml, MAX_TOML_DEPTH, MAX_TOML_VALUES).unwrap_or(usize::MAX)
    };
    let (mut bytes, mut values) = (text.len(), count(text));
    while let Some(named) = next.take() {
        let (from, from_text) = match bases.last() {
            Some((p, t)) => (p.as_path(), t.as_str()),
            None => (path, text),
        };
        let line = Some(crate::error::line_of(from_text, named.span().start));
        let at =
            |msg: String| LoadErrors::from(LoadError::new(from, line, format!("`extends`: {msg}")));
        if bases.len() >= MAX_EXTENDS {
            return Err(at(format!(
                "more than {MAX_EXTENDS} scenarios extend one another from {}: a chain this long \
                 is a mistake (or a loop through copies); extend the base you vary directly",
                crate::script::display_path(path)
            )));
        }
        let dir = from.parent().unwrap_or(Path::new("."));
        let base = crate::fsio::named_path(dir, named.get_ref(), Named::Toml)
            .map_err(|e| at(e.to_string()))?;
        let shown = crate::script::display_path(&base);
        let base_real = real(&base);
        if let Some(i) = seen.iter().position(|(r, _)| *r == base_real) {
            let mut ring: Vec<String> = (seen[i..].iter())
                .map(|(_, p)| crate::script::display_path(p))
                .collect();
            ring.push(crate::script::display_path(&seen[i].1));
            return Err(at(format!(
                "`{}` leads back to a file of the chain, which would extend itself: {}",
                named.get_ref(),
                ring.join(" → ")
            )));
        }
        let base_text = read_text(&base, "scenario").map_err(|e| match e.line {
            // not UTF-8: said in the base, at its line
            Some(_) => LoadErrors::from(e),
            None => at(format!(
                "names {shown}, which {}",
                e.message
                    .replace("cannot read scenario: ", "cannot be read: ")
            )),
        })?;
        toml_bounds(&base, &base_text)?;
        bytes = bytes.saturating_add(base_text.len());
        values = values.saturating_add(count(&base_text));
        let (max_bytes, max_values) = (
            crate::fsio::MAX_TEXT_INPUT as usize,
            crate::error::MAX_TOML_VALUES,
        );
        if bytes > max_bytes || values > max_values {
            return Err(at(format!(
                "with {shown}, the scenario's files hold more than one file may ({} MiB, \
                 {max_values} values): a scenario and the files it extends share that limit",
                max_bytes >> 20
            )));
        }
        if let Some(e) = super::not_a_scenario(&base, &base_text) {
            return Err(at(format!("names {shown}, which is {}", e.message)));
        }
        next = extends_of(&base, &base_text)?;
        seen.push((base_real, base.clone()));
        bases.push((base, base_text));
    }
    Ok(bases)
}

/// A TOML tree's spans moved `by` bytes on.
fn shifted<'i>(v: S<DeValue<'i>>, by: usize) -> S<DeValue<'i>> {
    let span = v.span();
    let mut inner = v.into_inner();
    match &mut inner {
        DeValue::Array(a) => {
            for item in a.iter_mut() {
                let old = std::mem::replace(item, S::new(0..0, DeValue::Boolean(false)));
                *item = shifted(old, by);
            }
        }
        DeValue::Table(t) => *t = shifted_table(std::mem::take(t), by),
        _ => {}
    }
    S::new(span.start + by..span.end + by, inner)
}

fn shifted_table(t: DeTable<'_>, by: usize) -> DeTable<'_> {
    t.into_iter()
        .map(|(k, v)| {
            let ks = k.span();
            (
                S::new(ks.start + by..ks.end + by, k.into_inner()),
                shifted(v, by),
            )
        })
        .collect()
}

/// The lists of tables that are added to, and the key that names an entry of each.
fn entry_name<'a>(list: &str, entry: &'a DeTable<'_>) -> Option<(&'static str, &'a str)> {
    let keys: &[&'static str] = match list {
        "units" | "pools" => &["id"],
        "levels" => &["name"],
        "objectives" => &["name", "place"],
        "markers" => &[],
        _ => return None,
    };
    keys.iter()
        .find_map(|k| Some((*k, entry.get(*k)?.get_ref().as_str()?)))
}

const ADDED_LISTS: [&str; 5] = ["units", "pools", "markers", "objectives", "levels"];

/// Lays `over` (an extending file's tree) over `base`, by the rule of this module; problems
/// (a `remove` of what the base does not have) are said through `err` at their spans.
fn merge_table<'i>(
    base: &mut DeTable<'i>,
    over: DeTable<'i>,
    at: &[&str],
    err: &mut dyn FnMut(std::ops::Range<usize>, String),
) {
    for (k, v) in over {
        let key = k.get_ref().to_string();
        let added = match at {
            [] => ADDED_LISTS.contains(&key.as_str()),
            ["scenario"] => key == "scripts",
            _ => false,
        };
        let Some(mut old) = base.remove(key.as_str()) else {
            if at.is_empty() && added && matches!(v.get_ref(), DeValue::Array(_)) {
                // a replacement or removal with no base entry to meet is said here
                let mut none = S::new(v.span(), DeValue::Array(Default::default()));
                merge_entries(&key, &mut none, v, err);
                base.insert(k, none);
            } else {
                base.insert(k, v);
            }
            continue;
        };
        let both_tables = old.get_ref().is_table() && v.get_ref().is_table();
        let both_lists = old.get_ref().is_array() && v.get_ref().is_array();
        if both_tables {
            let span = v.span();
            let mut path = at.to_vec();
            path.push(&key);
            if let (DeValue::Table(b), DeValue::Table(t)) = (old.get_mut(), v.into_inner()) {
                merge_table(b, t, &path, err);
            }
            // the table's own span is the extending file's: a problem with it is said there
            base.insert(k, S::new(span, old.into_inner()));
        } else if both_lists && added && at.is_empty() {
            merge_entries(&key, &mut old, v, err);
            base.insert(k, old);
        } else if both_lists && added {
            if let (DeValue::Array(b), DeValue::Array(items)) = (old.get_mut(), v.into_inner()) {
                for item in items.iter() {
                    b.push(item.clone());
                }
            }
            base.insert(k, old);
        } else {
            base.insert(k, v);
        }
    }
}

/// Adds the entries of an extending file's list of tables to the base's: one naming a base entry
/// replaces it, or with `remove = true` takes it out.
fn merge_entries<'i>(
    list: &str,
    base: &mut S<DeValue<'i>>,
    over: S<DeValue<'i>>,
    err: &mut dyn FnMut(std::ops::Range<usize>, String),
) {
    let DeValue::Array(b) = base.get_mut() else {
        return;
    };
    let mut entries: Vec<Option<S<DeValue<'i>>>> = b.iter().cloned().map(Some).collect();
    let DeValue::Array(items) = over.into_inner() else {
        return;
    };
    for item in items.iter() {
        let Some(t) = item.get_ref().as_table() else {
            // (not a table: the reader says so at its line)
            entries.push(Some(item.clone()));
            continue;
        };
        let named = entry_name(list, t);
        let same = |e: &Option<S<DeValue<'i>>>| {
            let Some((key, name)) = named else {
                return false;
            };
            e.as_ref()
                .and_then(|e| e.get_ref().as_table())
                .and_then(|t| entry_name(list, t))
                .is_some_and(|(k, n)| k == key && n == name)
        };
        let found = entries.iter().position(same);
        match t.get("remove") {
            Some(r) => {
                let what = match named {
                    Some((key, name)) => format!("{key} = \"{name}\""),
                    None => "an entry".into(),
                };
                if r.get_ref().as_bool() != Some(true) {
                    err(
                        r.span(),
                        "`remove` takes only `true`: leave it out to add or replace the entry"
                            .into(),
                    );
                } else if named.is_none() {
                    err(
                        item.span(),
                        format!(
                            "`remove = true` needs the {} of the base's entry to take out{}",
                            singular(list),
                            if list == "markers" {
                                " (markers have no name: a base's markers cannot be removed)"
                            } else {
                                ""
                            }
                        ),
                    );
                } else if t.len() > 2 {
                    err(
                        item.span(),
                        format!(
                            "a {} with `remove = true` gives only its {what}: the entry is taken \
                             out, so nothing else it says is used",
                            singular(list)
                        ),
                    );
                } else if let Some(i) = found {
                    entries[i] = None;
                } else {
                    err(
                        item.span(),
                        format!(
                            "`remove = true`: the scenarios this one extends have no {} with {what}",
                            singular(list)
                        ),
                    );
                }
            }
            None => match found {
                Some(i) => entries[i] = Some(item.clone()),
                None => entries.push(Some(item.clone())),
            },
        }
    }
    let mut out = toml::de::DeArray::new();
    for e in entries.into_iter().flatten() {
        out.push(e);
    }
    *b = out;
}

fn singular(list: &str) -> &str {
    match list {
        "units" => "unit",
        "pools" => "pool",
        "markers" => "marker",
        "objectives" => "objective",
        "levels" => "level",
        other => other,
    }
}

/// A scenario's files read and merged: what [`super::file::ScenarioFile`] is read from.
pub(super) struct Read {
    pub(super) sources: Sources,
    pub(super) file: super::file::ScenarioFile,
    /// The `extends` value the scenario file gives and its span.
    pub(super) extends: Option<S<String>>,
}

/// Reads scenario text and whatever it extends, as one scenario file.
pub(super) fn read(path: &Path, text: &str) -> Result<Read, LoadErrors> {
    toml_bounds(path, text)?;
    let bases = read_bases(path, text)?;
    let files: Vec<(&Path, &str)> = std::iter::once((path, text))
        .chain(bases.iter().map(|(p, t)| (p.as_path(), t.as_str())))
        .collect();
    let sources = Sources::chain(files.iter().copied());
    let mut trees = Vec::new();
    for ((p, t), s) in files.iter().zip(&sources.0) {
        let tree = DeTable::parse(t).map_err(|e| {
            let message = plain_message(&e);
            let first = s.start == 0;
            (first.then(|| super::not_a_scenario(p, t)).flatten())
                .unwrap_or_else(|| toml_error_at(p, t, &message, e.span()))
        })?;
        let span = tree.span();
        let mut tree = tree.into_inner();
        if s.start > 0 {
            tree = shifted_table(tree, s.start);
        }
        trees.push((span, tree));
    }
    // the scenario file's own `extends`, kept for what it says; the bases' go
    let mut extends = None;
    for (i, (_, t)) in trees.iter_mut().enumerate() {
        if let Some(DeValue::Table(sc)) = t.get_mut("scenario").map(|s| s.get_mut()) {
            let e = sc.remove("extends");
            if i == 0 {
                extends = e.and_then(|v| Some(S::new(v.span(), v.get_ref().as_str()?.to_string())));
            }
        }
    }
    let mut errors = Vec::new();
    let mut merged = trees.pop().map(|(_, t)| t).unwrap_or_default();
    while let Some((_, over)) = trees.pop() {
        merge_table(&mut merged, over, &[], &mut |span, msg| {
            let (file, line) = sources.locate(span.start);
            errors.push(LoadError::new(file, Some(line), msg));
        });
    }
    if !errors.is_empty() {
        return Err(LoadErrors(errors));
    }
    let de = toml::de::Deserializer::from(S::new(0..text.len(), merged));
    let file: super::file::ScenarioFile = serde::Deserialize::deserialize(de).map_err(|e| {
        let message = plain_message(&e);
        match e.span() {
            Some(span) if span != (0..0) => {
                let s = sources.at(span.start);
                let i = sources
                    .0
                    .iter()
                    .position(|x| x.start == s.start)
                    .unwrap_or(0);
                let (p, t) = files[i];
                if i == 0 {
                    if let Some(not) = super::not_a_scenario(p, t) {
                        return not;
                    }
                }
                let local = span.start - s.start..span.end - s.start;
                toml_error_at(p, t, &message, Some(local))
            }
            _ => super::not_a_scenario(path, text)
                .unwrap_or_else(|| toml_error_at(path, text, &message, None)),
        }
    })?;
    Ok(Read {
        sources,
        file,
        extends,
    })
}

fn plain_message(e: &toml::de::Error) -> String {
    e.message().trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::super::Scenario;
    use crate::error::LoadErrors;
    use std::path::{Path, PathBuf};

    /// A toy copy with `[vars]` in its scenario, and a `variant/` folder beside it.
    fn toy(name: &str) -> PathBuf {
        let dir = kessel_test_support::toy_copy(name);
        let base = dir.join("scenario.toml");
        let text = std::fs::read_to_string(&base).expect("toy scenario");
        let text = format!("{text}\n[vars]\nweather = {{ rain = 1, snow = 2 }}\nroads = [1, 2]\n");
        std::fs::write(&base, text).expect("write");
        std::fs::create_dir_all(dir.join("variant")).expect("mkdir");
        dir
    }

    fn write(path: &Path, text: &str) -> PathBuf {
        std::fs::write(path, text).expect("write");
        path.to_path_buf()
    }

    fn errors(path: &Path) -> LoadErrors {
        Scenario::load(path).expect_err("refused")
    }

    /// The one error of a refused load, as `file:line: message` with the file's name alone.
    fn said(e: &LoadErrors) -> String {
        assert_eq!(e.0.len(), 1, "{e}");
        let e = &e.0[0];
        let file = e.file.file_name().unwrap_or_default().to_string_lossy();
        format!("{file}:{}: {}", e.line.unwrap_or(0), e.message)
    }

    /// Each kind of value: a table merges key by key, a value and a list of values replace, the
    /// lists of entries are added to, an entry naming a base's replaces it where it stood, and
    /// `remove` takes one out. Paths the base gives stay the base's (the map beside it).
    #[test]
    fn the_merge_rule_for_each_kind_of_value() {
        let dir = toy("extends_merge");
        let v = write(
            &dir.join("variant/v.toml"),
            r#"[scenario]
extends = "../scenario.toml"
turns = 5

[[units]]
id = "r1"
side = "red"
type = "tank"
faces = ["5-5-5"]
at = "0103"

[[units]]
id = "b2"
remove = true

[[units]]
id = "x9"
side = "blue"
type = "inf"
faces = ["1-1-4"]
at = "0603"

[[levels]]
name = "Blue win"
max = -3

[vars]
weather = { snow = 7 }
roads = [9]
"#,
        );
        let sc = Scenario::load(&v).expect("the variant loads");
        assert_eq!(sc.turns, 5, "a value replaces");
        assert_eq!(sc.name, "Toy battle", "a key not given stays the base's");
        assert_eq!(
            sc.map_path,
            dir.join("variant/../scenario.toml")
                .parent()
                .expect("dir")
                .join("map.toml")
        );
        let ids: Vec<&str> = sc.units.iter().map(|u| u.unit.id.as_str()).collect();
        assert_eq!(
            ids,
            ["r1", "r2", "b1", "x9"],
            "replaced in place, removed, added last"
        );
        assert_eq!(
            sc.units[0].unit.kind, "tank",
            "the replacing table is the unit, whole"
        );
        assert_eq!(sc.levels[0].max, Some(-3));
        assert_eq!(sc.levels.len(), 2);
        assert_eq!(
            sc.vars["weather"],
            serde_json::json!({ "rain": 1, "snow": 7 })
        );
        assert_eq!(
            sc.vars["roads"],
            serde_json::json!([9]),
            "a list of values replaces"
        );
        // each line is said in the file it is in
        let (file, line) = sc.locate(sc.units[0].line);
        assert_eq!((file, line), (v.as_path(), 5));
        let (file, _) = sc.locate(sc.units[1].line);
        assert_eq!(file, dir.join("variant/../scenario.toml"));
        assert_eq!(sc.bases().count(), 1);
        assert_eq!(sc.extends, Some(("../scenario.toml".to_string(), 2)));
    }

    /// `scripts` are added to, each read from the folder of the file that lists it; an objective
    /// naming the base's by its place replaces it; markers are added.
    #[test]
    fn scripts_objectives_and_markers_are_added_to() {
        let dir = toy("extends_scripts");
        let base = dir.join("scenario.toml");
        let text = std::fs::read_to_string(&base).expect("read");
        let with_script = text.replacen("turns = 3", "turns = 3\nscripts = [\"a.lua\"]", 1);
        assert_ne!(with_script, text);
        write(&base, &with_script);
        write(&dir.join("a.lua"), "");
        write(&dir.join("variant/a.lua"), "");
        let v = write(
            &dir.join("variant/v.toml"),
            "[scenario]\nextends = \"../scenario.toml\"\nscripts = [\"a.lua\"]\n\n\
             [[objectives]]\nplace = \"Toytown\"\nvp = 20\nside = \"red\"\n\n\
             [[markers]]\nkind = \"mine\"\nat = \"0203\"\n",
        );
        let sc = Scenario::load(&v).expect("loads");
        let real = |p: &Path| p.canonicalize().expect("exists");
        let scripts: Vec<PathBuf> = sc.scripts.iter().map(|p| real(p)).collect();
        assert_eq!(
            scripts,
            [real(&dir.join("a.lua")), real(&dir.join("variant/a.lua"))],
            "the base's first, each beside its file"
        );
        assert_eq!(sc.objectives.len(), 1);
        assert_eq!(sc.objectives[0].vp, 20);
        assert_eq!(sc.markers.len(), 1);
    }

    /// A chain of three: each file's keys over the one below; `remove` and a replacement that
    /// meet no base entry are refused at their line.
    #[test]
    fn a_chain_lays_each_file_over_the_next_and_a_remove_must_meet_an_entry() {
        let dir = toy("extends_chain");
        write(
            &dir.join("variant/b.toml"),
            "[scenario]\nextends = \"../scenario.toml\"\nturns = 4\nname = \"B\"\n",
        );
        let c = write(
            &dir.join("variant/c.toml"),
            "[scenario]\nextends = \"b.toml\"\nname = \"C\"\n",
        );
        let sc = Scenario::load(&c).expect("loads");
        assert_eq!((sc.name.as_str(), sc.turns), ("C", 4));
        assert_eq!(sc.files.len(), 3);
        let bad = write(
            &dir.join("variant/d.toml"),
            "[scenario]\nextends = \"c.toml\"\n\n[[units]]\nid = \"zz\"\nremove = true\n",
        );
        let e = said(&errors(&bad));
        assert!(
            e.starts_with("d.toml:4: `remove = true`: the scenarios this one extends have no unit"),
            "{e}"
        );
    }

    /// A problem is said at the file and line where the value is: an unknown key in the
    /// extending file, a hex off the map in the base, a unit id twice across the two.
    #[test]
    fn errors_name_the_file_and_line_of_the_value() {
        let dir = toy("extends_errors");
        let v = write(
            &dir.join("variant/v.toml"),
            "[scenario]\nextends = \"../scenario.toml\"\n\n[[units]]\nid = \"q\"\nside = \"red\"\ntype = \"inf\"\ncolour = 1\n",
        );
        let e = said(&errors(&v));
        assert!(e.starts_with("v.toml:8: unknown field `colour`"), "{e}");
        // a base's bad hex, said in the base
        let base = dir.join("scenario.toml");
        let text = std::fs::read_to_string(&base).expect("read");
        let line = text
            .lines()
            .position(|l| l == "at = \"0203\"")
            .expect("r1's hex")
            + 1;
        write(&base, &text.replacen("at = \"0203\"", "at = \"9999\"", 1));
        write(
            &v,
            "[scenario]\nextends = \"../scenario.toml\"\nturns = 0\n",
        );
        let all = errors(&v);
        let at = |file: &str| {
            all.0
                .iter()
                .filter(|e| e.file.file_name().is_some_and(|n| n == file))
                .map(|e| (e.line, e.message.clone()))
                .collect::<Vec<_>>()
        };
        assert!(
            at("scenario.toml")
                .iter()
                .any(|(l, m)| *l == Some(line) && m.contains("9999")),
            "{all}"
        );
        assert!(
            at("v.toml")
                .iter()
                .any(|(l, m)| *l == Some(3) && m.contains("at least one turn")),
            "{all}"
        );
    }

    /// A variant's `first_turn` is judged at its own line (its error was put at the base's
    /// `turns`), from 1 and so that its last turn is no later than the highest turn number
    /// (`first_turn = 9000` with `turns = 9000` played to turn 17999 unremarked).
    #[test]
    fn a_first_turn_out_of_range_is_said_at_its_line() {
        let dir = toy("extends_first_turn");
        let v = dir.join("variant/v.toml");
        for (first, turns, says) in [
            ("20000", "3", "over the limit"),
            ("0", "3", "numbered from 1"),
            ("9000", "9000", "turn 17999"),
        ] {
            write(
                &v,
                &format!(
                    "[scenario]\nextends = \"../scenario.toml\"\nturns = {turns}\nfirst_turn = {first}\n"
                ),
            );
            // (the base's reinforcements of turn 2 may be out of the turns too)
            let all = errors(&v);
            let e = &all.0[0];
            assert!(
                e.file == v && e.line == Some(4) && e.message.contains(says),
                "{all}"
            );
        }
        // the highest turn number itself is a turn a scenario may play
        write(
            &v,
            "[scenario]\nextends = \"../scenario.toml\"\nturns = 2\nfirst_turn = 9999\n\n\
             [[units]]\nid = \"b2\"\nremove = true\n",
        );
        let sc = Scenario::load(&v).unwrap_or_else(|e| panic!("turns 9999 to 10000: {e}"));
        assert_eq!((sc.first_turn, sc.turns), (9999, 2));
    }

    /// A file that extends itself, or a loop of two, is refused naming the files of the loop;
    /// a chain past the limit is refused at the line that passes it.
    #[test]
    fn cycles_and_too_long_chains_are_refused() {
        let dir = toy("extends_cycles");
        let me = write(
            &dir.join("variant/me.toml"),
            "[scenario]\nextends = \"me.toml\"\n",
        );
        let e = said(&errors(&me));
        assert!(
            e.starts_with("me.toml:2: `extends`: `me.toml` leads back"),
            "{e}"
        );
        write(
            &dir.join("variant/a.toml"),
            "[scenario]\nextends = \"b.toml\"\n",
        );
        let b = write(
            &dir.join("variant/b.toml"),
            "[scenario]\nextends = \"a.toml\"\n",
        );
        let e = said(&errors(&b));
        assert!(
            e.starts_with("a.toml:2: `extends`: `b.toml` leads back"),
            "{e}"
        );
        let ring: Vec<&str> = e.rsplit(": ").next().unwrap_or("").split(" → ").collect();
        assert!(
            ring.len() == 3
                && ring[0].ends_with("b.toml")
                && ring[1].ends_with("a.toml")
                && ring[0] == ring[2],
            "{e}"
        );
        // 100 files, each extending the next, the last the toy
        for i in 0..100 {
            let next = if i == 99 {
                "../scenario.toml".to_string()
            } else {
                format!("s{}.toml", i + 1)
            };
            write(
                &dir.join(format!("variant/s{i}.toml")),
                &format!("[scenario]\nextends = \"{next}\"\n"),
            );
        }
        let e = said(&errors(&dir.join("variant/s0.toml")));
        assert!(
            e.starts_with(&format!(
                "s{}.toml:2: `extends`: more than {} scenarios",
                super::MAX_EXTENDS,
                super::MAX_EXTENDS
            )),
            "{e}"
        );
        // a short chain loads
        let sc = Scenario::load(&dir.join("variant/s90.toml")).expect("ten deep loads");
        assert_eq!(sc.files.len(), 11);
    }

    /// Hostile bases: a map, a device, a link to a device, a file over the size limit, a folder,
    /// a missing file. Each is refused at the `extends` line of the file that names it.
    #[test]
    fn a_base_that_is_no_scenario_is_refused_at_the_extends_line() {
        let dir = toy("extends_hostile");
        let big = dir.join("variant/big.toml");
        let f = std::fs::File::create(&big).expect("create");
        f.set_len(crate::fsio::MAX_TEXT_INPUT + 1).expect("grow");
        #[cfg(unix)]
        std::os::unix::fs::symlink("/dev/zero", dir.join("variant/zero.toml")).expect("link");
        std::fs::create_dir_all(dir.join("variant/folder.toml")).expect("mkdir");
        for (named, says) in [
            ("../map.toml", "which is not a scenario but a map file"),
            ("/dev/zero", "is not a .toml file"),
            ("zero.toml", "cannot be read"),
            ("big.toml", "cannot be read"),
            ("folder.toml", "cannot be read"),
            ("missing.toml", "cannot be read"),
        ] {
            if named == "zero.toml" && !cfg!(unix) {
                continue;
            }
            let v = write(
                &dir.join("variant/v.toml"),
                &format!("# a variant\n[scenario]\nextends = \"{named}\"\n"),
            );
            let e = said(&errors(&v));
            assert!(
                e.starts_with("v.toml:3: `extends`: ") && e.contains(says),
                "{named}: {e}"
            );
        }
        // two files each within the limit of values, over it together (the merged tree is built
        // whole): refused at the line that adds the second
        let many = format!("[{}0]", "0,".repeat(300_000));
        write(
            &dir.join("variant/half.toml"),
            &format!("[scenario]\nextends = \"../scenario.toml\"\n[vars]\nmany = {many}\n"),
        );
        let v = write(
            &dir.join("variant/v.toml"),
            &format!("[vars]\nmore = {many}\n[scenario]\nextends = \"half.toml\"\n"),
        );
        let e = said(&errors(&v));
        assert!(
            e.starts_with("v.toml:4: `extends`: with ") && e.contains("share that limit"),
            "{e}"
        );
        // the key spelt with an escape is the key
        let v = write(
            &dir.join("variant/v.toml"),
            "[scenario]\n\"\\u0065xtends\" = \"../map.toml\"\n",
        );
        assert!(said(&errors(&v)).contains("not a scenario but a map file"));
        // a number is no path
        let v = write(&dir.join("variant/v.toml"), "[scenario]\nextends = 3\n");
        assert!(said(&errors(&v)).starts_with("v.toml:2: `extends` names"));
    }
}
