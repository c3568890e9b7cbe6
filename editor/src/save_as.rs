//! *Save as…*: the open scenario, edits included, written into a folder of the user's, with the
//! rest of its folder (other scenarios, special rules, tests) copied beside it and its ruleset
//! path rewritten so it still finds its rules from there. For a scenario in Kessel's own folder
//! (the bundled copy, a package's cache) this is the way to keep one's work.

use crate::document::{write_atomic, Document};
use anyhow::{bail, Context};
use kessel_core::scaffold::relative_to;
use std::path::{Path, PathBuf};

/// More files than this in the scenario's folder: it is not a scenario folder (a home folder,
/// say), and copying it is not what the user meant.
const MAX_FILES: usize = 500;

/// Writes the document into `dir` and returns the file to open there: the scenario file, or the
/// map file of a bare map. Refuses a folder that already holds that file.
pub fn save_as(doc: &Document, dir: &Path) -> anyhow::Result<PathBuf> {
    let Some(scenario) = doc.scenario_path.as_deref() else {
        let name = doc.map_path.file_name().unwrap_or("map.toml".as_ref());
        let out = dir.join(name);
        refuse_existing(&out)?;
        create(dir)?;
        write_atomic(&out, doc.map_text().as_bytes())?;
        return Ok(out);
    };
    let name = scenario
        .file_name()
        .context("the scenario file has no name")?;
    let out = dir.join(name);
    refuse_existing(&out)?;
    let src = scenario.parent().unwrap_or(Path::new("."));
    let mut files = Vec::new();
    collect(src, src, &mut files)?;
    // the map is written whole: a different map of that name there (another scenario's) would
    // be lost
    let map_rel = doc.map_path.strip_prefix(src).ok().map(Path::to_path_buf);
    let map_out = match &map_rel {
        Some(rel) => dir.join(rel),
        None => dir.join(doc.map_path.file_name().unwrap_or("map.toml".as_ref())),
    };
    let there = kessel_core::fsio::resolved(&map_out);
    if there.exists() && std::fs::read(&there).ok().as_deref() != Some(doc.map_text().as_bytes()) {
        bail!(
            "{} exists already and is another map: pick another folder, or move it away first",
            map_out.display()
        );
    }
    create(dir)?;
    for rel in &files {
        let to = dir.join(rel);
        if let Some(parent) = to.parent() {
            create(parent)?;
        }
        if !to.exists() {
            let bytes =
                kessel_core::fsio::read_bounded(&src.join(rel), kessel_core::fsio::MAX_TEXT_INPUT)
                    .with_context(|| format!("cannot read {}", rel.display()))?;
            write_atomic(&to, &bytes)?;
        }
    }
    // the map as the editor shows it: inside the folder at the same place, else beside the
    // scenario under its own name (and the scenario then names it so)
    write_atomic(&map_out, doc.map_text().as_bytes())?;
    // an extending scenario is copied as its file is (its data is not edited here), and the
    // copy extends the same base, named from where the copy is
    let text = match doc.scenario_bases.first() {
        Some(_) => kessel_core::error::read_text(scenario, "scenario")?,
        None => doc
            .scenario_text_edited()
            .context("the scenario's text is not loaded")?,
    };
    let mut edit: toml_edit::DocumentMut = text
        .parse()
        .context("the scenario's text does not parse as TOML")?;
    if let Some(table) = edit.get_mut("scenario").and_then(|t| t.as_table_like_mut()) {
        if let Some(base) = doc.scenario_bases.first() {
            let rel = relative_to(dir, base).map_err(|e| anyhow::anyhow!("{e}"))?;
            table.insert("extends", toml_edit::value(rel));
        }
        // (a ruleset the base names stays the base's: it is read from the base's folder)
        let own_ruleset = doc.scenario_bases.is_empty() || table.contains_key("ruleset");
        if let Some(rules) = doc.ruleset_dir.as_ref().filter(|_| own_ruleset) {
            let rel = relative_to(dir, rules).map_err(|e| anyhow::anyhow!("{e}"))?;
            table.insert("ruleset", toml_edit::value(rel));
        }
        if map_rel.is_none() {
            let file = map_out.file_name().unwrap_or_default().to_string_lossy();
            table.insert("map", toml_edit::value(file.into_owned()));
        }
    }
    write_atomic(&out, edit.to_string().as_bytes())?;
    Ok(out)
}

fn refuse_existing(out: &Path) -> anyhow::Result<()> {
    // (where the system will write: `x/../scenario.toml` once `x` is made)
    if kessel_core::fsio::resolved(out).exists() {
        bail!(
            "{} exists already: pick another folder, or move it away first",
            out.display()
        );
    }
    Ok(())
}

fn create(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
}

/// Every file under `dir` (hidden ones and saves aside), relative to `root`. A link is followed
/// only inside the folder (one to a folder elsewhere copied that folder's files into the copy).
fn collect(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    let here = |p: &'static Path, d: &Path| d.as_os_str().is_empty().then_some(p);
    let (root, dir) = (
        here(Path::new("."), root).unwrap_or(root),
        here(Path::new("."), dir).unwrap_or(dir),
    );
    std::fs::read_dir(dir).with_context(|| format!("cannot read the folder {}", dir.display()))?;
    let hidden = |p: &Path| {
        p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
    };
    for p in kessel_core::fsio::files_within(dir, &|d| !hidden(d)) {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
        if hidden(&p) || name.is_some_and(|n| n.ends_with(".save.json")) {
            continue;
        }
        if let Ok(rel) = p.strip_prefix(root) {
            out.push(rel.to_path_buf());
        }
        if out.len() > MAX_FILES {
            bail!(
                "{} holds more than {MAX_FILES} files: it does not look like a scenario's folder; copy what you need by hand",
                root.display()
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// A scenario that extends another opens as the two files make it, with its scenario data
    /// read-only and a note saying so; Save writes nothing into it (neither the base's units
    /// nor a file without `extends`), and *Save as…* copies it still extending the same base.
    #[test]
    fn an_extending_scenario_opens_read_only_and_save_as_keeps_its_extends() {
        let toy = kessel_test_support::toy_copy("save-as-extends");
        std::fs::create_dir_all(toy.join("variant")).expect("mkdir");
        let variant = toy.join("variant/v.toml");
        let text = "# mine\n[scenario]\nextends = \"../scenario.toml\"\nname = \"Varied\"\n";
        std::fs::write(&variant, text).expect("write");
        let mut doc = crate::document::Document::open(&variant).expect("opens");
        assert_eq!(doc.name, "Varied");
        assert_eq!(doc.units.iter().count(), 4, "the base's units are shown");
        assert!(
            doc.scenario.is_none(),
            "its scenario data is not edited here"
        );
        let note = doc.extends_note().expect("a note on screen");
        assert!(
            note.contains("read-only") && note.contains("scenario.toml"),
            "{note}"
        );
        doc.save().expect("save");
        assert_eq!(std::fs::read_to_string(&variant).expect("read"), text);
        // the map is the base's (the variant names none): an edit of it is not written over the
        // map every scenario built on it shares
        assert!(doc.map_from_base);
        let map_before = std::fs::read_to_string(toy.join("map.toml")).expect("read");
        let hex = doc.map.parse("0101").expect("on the map");
        let painted = doc
            .edit(&crate::command::EditorCommand::SetTerrain {
                hex,
                terrain: "woods".into(),
                stroke: 1,
            })
            .expect("painted");
        assert!(painted);
        let refused = doc.save().expect_err("the base's map is not written");
        assert!(
            refused.to_string().contains("copy it beside this scenario"),
            "{refused}"
        );
        assert_eq!(
            std::fs::read_to_string(toy.join("map.toml")).expect("read"),
            map_before
        );
        assert!(doc
            .extends_note()
            .is_some_and(|n| n.contains("Its map is the base's")));
        doc.edit(&crate::command::EditorCommand::SetTerrain {
            hex,
            terrain: "clear".into(),
            stroke: 2,
        })
        .expect("painted back");
        let dest = kessel_test_support::scratch("save-as-extends-dest");
        let out = super::save_as(&doc, &dest.join("copy")).expect("saved as");
        let copy = std::fs::read_to_string(&out).expect("read");
        assert!(
            copy.starts_with("# mine\n") && !copy.contains("[[units]]"),
            "{copy}"
        );
        let sc = kessel_core::scenario::Scenario::load(&out).expect("the copy loads");
        assert_eq!((sc.name.as_str(), sc.units.len()), ("Varied", 4));
        assert_eq!(
            sc.bases().next().and_then(|b| b.canonicalize().ok()),
            toy.join("scenario.toml").canonicalize().ok(),
            "{copy}"
        );
    }

    /// *Save as…* writes over nothing: not another scenario's map of the same name in the folder
    /// (it was written whole over it), nor a scenario named by way of a folder still to be made
    /// (`x/..`).
    #[test]
    fn save_as_writes_over_no_other_map_or_scenario() {
        let src = kessel_test_support::toy_copy("save-as-over-src");
        let doc = crate::document::Document::open(&src.join("scenario.toml")).expect("opens");
        let dest = kessel_test_support::scratch("save-as-over-dest");
        std::fs::write(dest.join("map.toml"), "# another scenario's map\n").expect("write");
        let e = super::save_as(&doc, &dest).expect_err("another map is there");
        assert!(e.to_string().contains("is another map"), "{e}");
        assert_eq!(
            std::fs::read_to_string(dest.join("map.toml")).expect("read"),
            "# another scenario's map\n"
        );
        assert!(!dest.join("scenario.toml").exists(), "nothing written");
        let before = std::fs::read_to_string(src.join("scenario.toml")).expect("read");
        let e = super::save_as(&doc, &src.join("x/..")).expect_err("the scenario is there");
        assert!(e.to_string().contains("exists already"), "{e}");
        assert_eq!(
            std::fs::read_to_string(src.join("scenario.toml")).expect("read"),
            before
        );
    }

    /// The files *Save as…* copies are the folder's own: a link up or out of it was walked, and
    /// the files found there copied into the new folder (or the copy refused as too large).
    #[cfg(unix)]
    #[test]
    fn the_copy_takes_the_folders_own_files_and_follows_no_link_out() {
        let dir = kessel_test_support::scratch("save-as-links");
        let src = dir.join("scenario");
        std::fs::create_dir_all(src.join("sub")).expect("folders");
        for f in ["a.toml", "sub/b.lua", ".hidden", "game.save.json"] {
            std::fs::write(src.join(f), "x").expect("write");
        }
        std::fs::write(dir.join("outside.txt"), "secret").expect("write");
        std::os::unix::fs::symlink("..", src.join("up")).expect("link");
        std::os::unix::fs::symlink("..", src.join("sub/up")).expect("link");
        let mut files = Vec::new();
        super::collect(&src, &src, &mut files).expect("collected");
        files.sort();
        let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
        assert_eq!(names, ["a.toml", "sub/b.lua"]);
    }
}
