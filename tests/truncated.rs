//! Every file reader against a file cut short at every byte (a crash while saving, a copy that
//! stopped, an editor's reload that caught a save half-written): each prefix must be read or
//! refused with an error naming the file, never a panic. One sample of each kind of file Kessel
//! reads: scenario, map, campaign, profile, save, campaign save, lab data file. (The `.kessel`
//! package's reader is tested the same way beside it, in src/package.rs.)

use crate::util::{kessel, root, scratch, toy_copy, write};
use kessel_core::campaign::Campaign;
use kessel_core::engine::Engine;
use kessel_core::scenario::{load_map, parse_map, parse_map_lenient, Scenario};
use kessel_core::script::Limits;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// The lengths a sample is cut to: every one for a short file; for a longer one every one of
/// its first and last kilobyte and an even spread of some 2,000 between (each cut costs a parse
/// of all that is left).
fn cuts(len: usize) -> Vec<usize> {
    if len <= 4096 {
        return (0..len).collect();
    }
    let step = (len - 2048) / 2048 + 1;
    (0..1024)
        .chain((1024..len - 1024).step_by(step))
        .chain(len - 1024..len)
        .collect()
}

/// What one reader did with every cut of `sample` written to `path`: the cuts it panicked on
/// (with the panic's words) and the refusals that do not name the file.
#[derive(Default)]
struct Outcome {
    panics: Vec<String>,
    unnamed: Vec<String>,
    refused: usize,
}

impl Outcome {
    /// What reading the cut at `n` gave: a panic, a refusal (which must name `name`) or a read.
    fn record<T, E: std::fmt::Display>(
        &mut self,
        n: usize,
        name: &str,
        read: std::thread::Result<Result<T, E>>,
    ) {
        match read {
            Err(payload) => self
                .panics
                .push(format!("cut at {n}: {}", panic_words(payload))),
            Ok(Err(e)) => {
                self.refused += 1;
                let said = format!("{e:#}");
                if !said.contains(name) {
                    self.unnamed.push(format!("cut at {n}: {said}"));
                }
            }
            Ok(Ok(_)) => {}
        }
    }

    fn assert_clean(&self, what: &str) {
        assert!(
            self.panics.is_empty(),
            "{what}: {} cuts panicked:\n{}",
            self.panics.len(),
            self.panics.join("\n")
        );
        assert!(
            self.unnamed.is_empty(),
            "{what}: refusals that do not name the file:\n{}",
            self.unnamed.join("\n")
        );
        // (a sample no cut of which is refused tests nothing)
        assert!(self.refused > 0, "{what}: no cut was refused");
    }
}

fn panic_words(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic without words".into())
}

/// Cuts `sample` at each of [`cuts`], writes the prefix to `path` and reads it with `read`,
/// whose error must hold `name`.
fn every_cut<T, E: std::fmt::Display>(
    path: &Path,
    sample: &[u8],
    name: &str,
    read: impl Fn(&Path) -> Result<T, E>,
) -> Outcome {
    let mut out = Outcome::default();
    for n in cuts(sample.len()) {
        std::fs::write(path, &sample[..n]).expect("write the cut");
        out.record(n, name, catch_unwind(AssertUnwindSafe(|| read(path))));
    }
    std::fs::write(path, sample).expect("put the sample back");
    out
}

/// As [`every_cut`] for a reader of text in memory (the editor's, which parses what it was
/// given): each cut that ends on a character boundary.
fn every_text_cut<T, E: std::fmt::Display>(
    sample: &str,
    name: &str,
    read: impl Fn(&str) -> Result<T, E>,
) -> Outcome {
    let mut out = Outcome::default();
    for n in cuts(sample.len()) {
        let Some(text) = sample.get(..n) else {
            continue;
        };
        out.record(n, name, catch_unwind(AssertUnwindSafe(|| read(text))));
    }
    out
}

/// The toy's scenario with text of more than one byte a character in its notes and a unit id,
/// so that cuts fall inside characters too.
fn toy_with_wide_characters(name: &str) -> std::path::PathBuf {
    let dir = toy_copy(name);
    let path = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&path).expect("toy scenario");
    let wide = text
        .replace(
            "Red crosses the river to take Toytown.",
            "Red crosses the river — «Flußübergang» 渡河 — to take Toytown.",
        )
        .replace("id = \"b1\"", "id = \"b1–é\"");
    assert_ne!(wide, text);
    std::fs::write(&path, wide).expect("write");
    dir
}

#[test]
fn a_scenario_cut_short_anywhere_is_refused_naming_it() {
    let dir = toy_with_wide_characters("cut-scenario");
    let path = dir.join("scenario.toml");
    let sample = std::fs::read(&path).expect("sample");
    assert!(Scenario::load(&path).is_ok(), "the whole sample loads");
    every_cut(&path, &sample, "scenario.toml", Scenario::load).assert_clean("Scenario::load");
    // the editor opens what it can of a broken scenario: the same cuts, its way
    every_cut(&path, &sample, "scenario.toml", |p| {
        kessel_editor::document::Document::open(p)
    })
    .assert_clean("the editor's Document::open");
    let text = String::from_utf8(sample.clone()).expect("utf8");
    every_text_cut(&text, "scenario.toml", |t| {
        Scenario::parse_lenient(&path, t)
    })
    .assert_clean("Scenario::parse_lenient");
}

#[test]
fn a_scenario_cut_short_is_refused_by_the_engine_naming_it() {
    let dir = toy_with_wide_characters("cut-engine");
    let path = dir.join("scenario.toml");
    let sample = std::fs::read(&path).expect("sample");
    let limits = Limits {
        instructions: 20_000_000,
        ..Limits::default()
    };
    let out = every_cut(&path, &sample, "scenario.toml", |p| {
        Engine::load(p, None, 1, limits)
    });
    out.assert_clean("Engine::load");
}

#[test]
fn a_bundled_scenario_cut_short_anywhere_is_refused_naming_it() {
    // the PGG learning scenario (names, notes and a dash in several bytes) on its map, read
    // once: the editor checks its unsaved text against the map it holds this way
    let dir = root().join("scenarios/pgg");
    let map_path = dir.join("map.toml");
    let map = load_map(&map_path).expect("PGG map");
    let path = dir.join("learning.toml");
    let text = std::fs::read_to_string(&path).expect("learning scenario");
    assert!(Scenario::parse_with_map(&path, &text, map.clone()).is_ok());
    every_text_cut(&text, "learning.toml", |t| {
        Scenario::parse_with_map(&path, t, map.clone())
    })
    .assert_clean("Scenario::parse_with_map");
    every_text_cut(&text, "learning.toml", |t| {
        Scenario::parse_with_map_lenient(&path, t, map.clone())
    })
    .assert_clean("Scenario::parse_with_map_lenient");
}

#[test]
fn a_map_cut_short_anywhere_is_refused_naming_it() {
    let dir = toy_copy("cut-map");
    let path = dir.join("map.toml");
    let text = std::fs::read_to_string(&path).expect("toy map");
    let wide = text.replacen("name = \"", "name = \"Flußtal — ", 1);
    assert_ne!(wide, text);
    std::fs::write(&path, &wide).expect("write");
    assert!(load_map(&path).is_ok(), "the whole sample loads");
    let sample = wide.as_bytes();
    every_cut(&path, sample, "map.toml", load_map).assert_clean("load_map");
    every_cut(&path, sample, "map.toml", |p| {
        kessel_editor::document::Document::open(p)
    })
    .assert_clean("the editor's Document::open of a map");
    every_text_cut(&wide, "map.toml", |t| parse_map_lenient(&path, t))
        .assert_clean("parse_map_lenient");
    // the bundled map, its hexside and link lists, in memory
    let pgg = root().join("scenarios/pgg/map.toml");
    let text = std::fs::read_to_string(&pgg).expect("PGG map");
    every_text_cut(&text, "map.toml", |t| parse_map(&pgg, t)).assert_clean("parse_map of PGG");
}

#[test]
fn a_campaign_file_cut_short_anywhere_is_refused_naming_it() {
    let dir = toy_copy("cut-campaign");
    let path = write(
        &dir,
        "campaign.toml",
        "name = \"Toy campaign — «zwei Spiele»\"\ndescription = \"Twice the river\"\n\
         [carry]\nunits = true\nvars = [\"score\", \"turns\"]\nmarkers = true\n\
         [[game]]\nscenario = \"scenario.toml\"\nname = \"First\"\nprofile = \"open\"\n\
         [[game]]\nscenario = \"scenario.toml\"\nname = \"Zweites\"\n",
    );
    assert!(Campaign::load(&path).is_ok(), "the whole sample loads");
    let sample = std::fs::read(&path).expect("sample");
    every_cut(&path, &sample, "campaign.toml", Campaign::load).assert_clean("Campaign::load");
}

#[test]
fn a_profile_cut_short_anywhere_is_refused_naming_it() {
    let dir = toy_copy("cut-profile");
    let path = dir.join("profiles/open.toml");
    let engine = Engine::bare(&dir, Limits::default()).expect("toy rules");
    assert!(
        engine.read_profile("open").is_ok(),
        "the whole sample reads"
    );
    let sample = std::fs::read(&path).expect("sample");
    every_cut(&path, &sample, "open.toml", |_| engine.read_profile("open"))
        .assert_clean("Engine::read_profile");
}

#[test]
fn a_save_cut_short_anywhere_is_refused_naming_it() {
    let limits = Limits {
        instructions: 20_000_000,
        ..Limits::default()
    };
    let dir = scratch("cut-save");
    let scenario = root().join("core/tests/fixtures/toy/scenario.toml");
    let mut engine = Engine::load(&scenario, None, 7, limits).expect("toy loads");
    let mv = kessel_core::Action::new("move")
        .with("unit", "r1")
        .with("path", serde_json::json!(["0303"]));
    engine.act(&mv).expect("runs").expect("the move is legal");
    let path = dir.join("game.json");
    std::fs::write(&path, engine.save().expect("save")).expect("write");
    assert!(
        Engine::load_save(&path, limits).is_ok(),
        "the whole save loads"
    );
    let sample = std::fs::read(&path).expect("sample");
    every_cut(&path, &sample, "game.json", |p| {
        Engine::load_save(p, limits)
    })
    .assert_clean("Engine::load_save");
}

#[test]
fn a_campaign_save_cut_short_anywhere_is_refused_naming_it() {
    let dir = toy_copy("cut-campaign-save");
    let campaign = write(
        &dir,
        "campaign.toml",
        "name = \"Toy campaign\"\n[carry]\nunits = true\nvars = \"all\"\n\
         [[game]]\nscenario = \"scenario.toml\"\nname = \"First\"\n\
         [[game]]\nscenario = \"scenario.toml\"\nname = \"Second\"\n",
    );
    let path = dir.join("cs.json");
    let s = |p: &Path| p.to_str().expect("utf8").to_string();
    let r = kessel(&[
        "campaign",
        &s(&campaign),
        "--seed",
        "4",
        "--save",
        &s(&path),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let limits = Limits::default();
    assert!(Engine::load_campaign_save(&path, limits).is_ok());
    let sample = std::fs::read(&path).expect("sample");
    every_cut(&path, &sample, "cs.json", |p| {
        Engine::load_campaign_save(p, limits)
    })
    .assert_clean("Engine::load_campaign_save");
}

#[test]
fn a_lab_data_file_cut_short_anywhere_is_read_to_its_last_whole_record_or_refused() {
    let dir = scratch("cut-lab");
    let path = dir.join("run.jsonl");
    let s = path.to_str().expect("utf8");
    let r = kessel(&[
        "simulate",
        "core/tests/fixtures/toy/scenario.toml",
        "--games",
        "2",
        "--out",
        s,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(kessel_lab::record::read_file(&path).is_ok());
    let sample = std::fs::read(&path).expect("sample");
    every_cut(&path, &sample, "run.jsonl", kessel_lab::record::read_file)
        .assert_clean("kessel_lab::record::read_file");
    // cut after its header and first record, the file is a run of one game
    let lines: Vec<usize> = (sample.iter().enumerate())
        .filter(|(_, b)| **b == b'\n')
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(lines.len(), 3, "a header and two records");
    std::fs::write(&path, &sample[..lines[1]]).expect("write");
    let data = kessel_lab::record::read_file(&path).expect("a whole record reads");
    assert_eq!(data.games.len(), 1);
}
