//! Issue 13: an installed `kessel` runs from any folder with the bundled campaign, and a
//! scenario travels as one `.kessel` file that is refused when damaged or changed.

use crate::util::{kessel_at, root, scratch};
use std::io::{Read, Write};
use std::path::Path;

#[test]
fn check_and_info_with_no_scenario_use_the_bundled_campaign_from_an_empty_folder() {
    let home = scratch("anywhere-home");
    let empty = scratch("anywhere-cwd");
    assert!(!empty.join("scripts").exists() && !empty.join("scenarios").exists());
    let r = kessel_at(&empty, &home, &["check"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("Panzergruppe Guderian — Campaign"),
        "{}",
        r.stdout
    );
    // the rules were read from the bundle written to the data folder, not from the checkout
    let r = kessel_at(&empty, &home, &["info"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let first = r.stdout.lines().next().unwrap_or_default();
    let data = home.join("data/kessel");
    assert!(first.contains(&data.display().to_string()), "{first}");
    let bundles: Vec<_> = std::fs::read_dir(&data).expect("bundle written").collect();
    assert_eq!(bundles.len(), 1, "one versioned, hashed folder");
    // the ruleset's default path and the odds table work from there too
    let r = kessel_at(&empty, &home, &["odds", "6", "2"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("odds column 3-1"), "{}", r.stdout);
    // and the bundled rule tests, rulesets' and scenarios' alike
    let r = kessel_at(&empty, &home, &["test", "-q"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let passed: usize = r
        .stdout
        .trim_end()
        .rsplit('\n')
        .next()
        .and_then(|l| l.strip_suffix(" passed, 0 failed"))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(passed > 100, "{}", r.stdout);
    // a bundled ruleset named by its path, and the second system's campaign
    let r = kessel_at(&empty, &home, &["test", "-q", "scripts/asl-cg"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.trim_end().ends_with(" passed, 0 failed"),
        "{}",
        r.stdout
    );
    let r = kessel_at(
        &empty,
        &home,
        &[
            "campaign",
            "scenarios/pegasus-bridge/campaign.toml",
            "--seed",
            "1",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("game 2/2: Day I"), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&home);
    let _ = std::fs::remove_dir_all(&empty);
}

/// The entries of a zip, in order.
fn entries(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip");
    (0..zip.len())
        .map(|i| {
            let mut f = zip.by_index(i).expect("entry");
            let mut data = Vec::new();
            f.read_to_end(&mut data).expect("read");
            (f.name().expect("name").to_string(), data)
        })
        .collect()
}

/// A zip of the given entries.
fn zip_of(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for (name, data) in entries {
        zip.start_file(name.as_str(), options).expect("start");
        zip.write_all(data).expect("write");
    }
    zip.finish().expect("finish").into_inner()
}

fn refused_saying(dir: &Path, home: &Path, package: &Path, needle: &str) {
    let name = package.to_string_lossy();
    let r = kessel_at(dir, home, &["check", &name]);
    assert_ne!(r.code, 0, "{name} was accepted");
    assert!(
        r.stderr
            .contains("refused, the package is damaged or was changed after packing"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains(needle), "{needle}: {}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
}

#[test]
fn pack_yelnya_then_check_and_test_the_package_and_refuse_damaged_copies() {
    let home = scratch("pack-home");
    let dir = scratch("pack-out");
    let y = dir.join("y.kessel");
    let y_s = y.to_string_lossy().into_owned();
    let r = kessel_at(&root(), &home, &["pack", "scenarios/yelnya", "-o", &y_s]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("ruleset `pgg` by reference"),
        "{}",
        r.stdout
    );
    // packing is deterministic: the same folder gives the same bytes
    let again = dir.join("again.kessel");
    let r = kessel_at(
        &root(),
        &home,
        &["pack", "scenarios/yelnya", "-o", &again.to_string_lossy()],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let bytes = std::fs::read(&y).expect("written");
    assert_eq!(std::fs::read(&again).expect("written"), bytes);

    // opened from elsewhere, with the ruleset found in the bundle
    let r = kessel_at(&dir, &home, &["check", "y.kessel"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("y.kessel: ok"), "{}", r.stdout);
    assert!(r.stdout.contains("Yelnya, July 1941"), "{}", r.stdout);
    let r = kessel_at(&dir, &home, &["test", "y.kessel"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.ends_with("2 passed, 0 failed\n"), "{}", r.stdout);

    // a flipped byte in the compressed data
    let mut flipped = bytes.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0xff;
    let p = dir.join("flipped.kessel");
    std::fs::write(&p, &flipped).expect("write");
    refused_saying(&dir, &home, &p, "flipped.kessel");
    // cut short
    let p = dir.join("short.kessel");
    std::fs::write(&p, &bytes[..bytes.len() / 2]).expect("write");
    refused_saying(&dir, &home, &p, "not a readable zip archive");

    // a well-formed zip whose scenario was edited after packing
    let mut files = entries(&bytes);
    let scen = files
        .iter_mut()
        .find(|(n, _)| n == "scenario.toml")
        .expect("packed");
    scen.1 = String::from_utf8(scen.1.clone())
        .expect("utf-8")
        .replace("turns = 3", "turns = 30")
        .into_bytes();
    let p = dir.join("edited.kessel");
    std::fs::write(&p, zip_of(&files)).expect("write");
    refused_saying(
        &dir,
        &home,
        &p,
        "`scenario.toml` does not match its SHA-256 in the manifest",
    );
    // a file slipped in, and one taken out
    let mut more = entries(&bytes);
    more.push(("extra.lua".into(), b"os.exit()".to_vec()));
    let p = dir.join("extra.kessel");
    std::fs::write(&p, zip_of(&more)).expect("write");
    refused_saying(
        &dir,
        &home,
        &p,
        "`extra.lua` is in the package but not in its manifest",
    );
    let fewer: Vec<_> = entries(&bytes)
        .into_iter()
        .filter(|(n, _)| n != "special.lua")
        .collect();
    let p = dir.join("fewer.kessel");
    std::fs::write(&p, zip_of(&fewer)).expect("write");
    refused_saying(
        &dir,
        &home,
        &p,
        "`special.lua` is in the manifest but missing",
    );
    // nothing of a refused package was written out
    let cache = home.join("cache/kessel/packages");
    let unpacked = std::fs::read_dir(&cache).map(|d| d.count()).unwrap_or(0);
    assert_eq!(unpacked, 1, "only the good package is unpacked");
    let _ = std::fs::remove_dir_all(&home);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_package_with_its_ruleset_included_opens_without_the_bundle() {
    let home = scratch("pack-incl-home");
    let dir = scratch("pack-incl");
    let p = dir.join("toy.kessel");
    let r = kessel_at(
        &root(),
        &home,
        &[
            "pack",
            "core/tests/fixtures/toy",
            "-o",
            &p.to_string_lossy(),
            "--include-ruleset",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("ruleset `toy` included"), "{}", r.stdout);
    let r = kessel_at(&dir, &home, &["rules", "toy.kessel"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // an included ruleset edited after packing is caught even if its file hash were redone
    let mut files = entries(&std::fs::read(&p).expect("written"));
    let init = files
        .iter_mut()
        .find(|(n, _)| n == "ruleset/init.lua")
        .expect("included");
    init.1.extend_from_slice(b"\n-- changed\n");
    let digest = {
        use sha2::Digest;
        let d = sha2::Sha256::digest(&init.1);
        d.iter().map(|b| format!("{b:02x}")).collect::<String>()
    };
    let size = init.1.len();
    let manifest = files
        .iter_mut()
        .find(|(n, _)| n == "manifest.toml")
        .expect("manifest");
    let text = String::from_utf8(manifest.1.clone()).expect("utf-8");
    let mut out = String::new();
    let mut in_init = false;
    for line in text.lines() {
        if line.starts_with("path = ") {
            in_init = line == "path = \"ruleset/init.lua\"";
        }
        let line = match () {
            _ if in_init && line.starts_with("sha256 = ") => format!("sha256 = \"{digest}\""),
            _ if in_init && line.starts_with("size = ") => format!("size = {size}"),
            _ => line.to_string(),
        };
        out.push_str(&line);
        out.push('\n');
    }
    manifest.1 = out.into_bytes();
    let q = dir.join("rehashed.kessel");
    std::fs::write(&q, zip_of(&files)).expect("write");
    refused_saying(
        &dir,
        &home,
        &q,
        "does not match the ruleset hash in the manifest",
    );
    let _ = std::fs::remove_dir_all(&home);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_documented_workflow_runs_from_an_empty_folder_with_bundled_paths() {
    let home = scratch("workflow-home");
    let empty = scratch("workflow-cwd");
    let run = |args: &[&str]| {
        let r = kessel_at(&empty, &home, args);
        assert_eq!(r.code, 0, "{args:?}\n{}{}", r.stdout, r.stderr);
        r
    };
    run(&[
        "map",
        "cut",
        "scenarios/pgg/map.toml",
        "--from",
        "1918",
        "--to",
        "3431",
        "-o",
        "cut/map.toml",
    ]);
    run(&[
        "new",
        "scenario",
        "cut",
        "--map",
        "cut/map.toml",
        "--ruleset",
        "scripts/pgg",
    ]);
    let text = std::fs::read_to_string(empty.join("cut/scenario.toml")).expect("written");
    // the ruleset is the bundled one, named by a path from the scenario's folder
    let bundle = format!("kessel/{}-", env!("CARGO_PKG_VERSION"));
    assert!(text.contains(&bundle), "{text}");
    assert!(run(&["check", "cut"]).stdout.starts_with("cut: ok"));
    assert!(run(&["test", "cut"])
        .stdout
        .ends_with("2 passed, 0 failed\n"));
    run(&["pack", "scenarios/yelnya", "-o", "y.kessel"]);
    assert!(run(&["check", "y.kessel"])
        .stdout
        .contains("Yelnya, July 1941"));
    let _ = std::fs::remove_dir_all(&home);
    let _ = std::fs::remove_dir_all(&empty);
}

/// `bytes` with every occurrence of `from` replaced by `to` (of the same length): a zip's
/// names are not covered by its checksums, so this renames an entry in its local header and
/// its central directory alike.
fn renamed(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
    assert_eq!(from.len(), to.len(), "same length");
    let mut out = bytes.to_vec();
    let mut i = 0;
    while let Some(at) = out[i..]
        .windows(from.len())
        .position(|w| w == from.as_bytes())
    {
        out[i + at..i + at + from.len()].copy_from_slice(to.as_bytes());
        i += at + from.len();
    }
    out
}

#[test]
fn entries_that_would_be_one_file_and_headers_that_disagree_are_refused() {
    let home = scratch("pack-names-home");
    let dir = scratch("pack-names");
    let y = dir.join("y.kessel");
    let r = kessel_at(
        &root(),
        &home,
        &["pack", "scenarios/yelnya", "-o", &y.to_string_lossy()],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let bytes = std::fs::read(&y).expect("written");
    let good = entries(&bytes);
    let special = good
        .iter()
        .find(|(n, _)| n == "special.lua")
        .expect("packed")
        .1
        .clone();

    // the same name twice, the altered copy first or last: the archive reader keeps one
    for altered_first in [true, false] {
        let mut files = Vec::new();
        for (n, d) in &good {
            if n == "special.lua" && altered_first {
                files.push(("special.lux".to_string(), b"-- altered\n".to_vec()));
            }
            files.push((n.clone(), d.clone()));
            if n == "special.lua" && !altered_first {
                files.push(("special.lux".to_string(), b"-- altered\n".to_vec()));
            }
        }
        let p = dir.join(format!("twice-{altered_first}.kessel"));
        let zipped = renamed(&zip_of(&files), "special.lux", "special.lua");
        std::fs::write(&p, zipped).expect("write");
        refused_saying(&dir, &home, &p, "entry `special.lua` appears twice");
    }
    // names equal but for case
    let mut files = good.clone();
    files.push(("Special.lua".to_string(), special.clone()));
    let p = dir.join("case.kessel");
    std::fs::write(&p, zip_of(&files)).expect("write");
    refused_saying(
        &dir,
        &home,
        &p,
        "entries `special.lua` and `Special.lua` differ only in case",
    );
    // a file that is also a folder
    let mut files = good.clone();
    files.push(("tests".to_string(), b"x".to_vec()));
    let p = dir.join("file-folder.kessel");
    std::fs::write(&p, zip_of(&files)).expect("write");
    refused_saying(
        &dir,
        &home,
        &p,
        // (of the first entry inside it, whichever that is)
        "entry `tests` is a file and also the folder of `tests/",
    );
    // a local header naming another file than the central directory (the first occurrence of
    // a name is its local header)
    let zipped = zip_of(&good);
    let at = zipped
        .windows(11)
        .position(|w| w == b"special.lua")
        .expect("named");
    let mut cloaked = zipped.clone();
    cloaked[at..at + 11].copy_from_slice(b"special.lux");
    let p = dir.join("cloaked.kessel");
    std::fs::write(&p, cloaked).expect("write");
    refused_saying(&dir, &home, &p, "its headers disagree");
    // the untouched entries, zipped again, still open
    let p = dir.join("rezipped.kessel");
    std::fs::write(&p, zip_of(&good)).expect("write");
    let r = kessel_at(&dir, &home, &["check", "rezipped.kessel"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&home);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A link in the scenario's folder to a file or folder outside it is refused by `pack`, naming
/// it (it packed the outside content into the package to share); a link loop is named as one.
#[cfg(unix)]
#[test]
fn pack_refuses_links_out_of_the_folder_and_link_loops() {
    let home = scratch("pack-links-home");
    let dir = scratch("pack-links");
    let outside = dir.join("outside_secret.txt");
    std::fs::write(&outside, "SECRET").expect("write");
    let copy = |name: &str| {
        let to = dir.join(name);
        std::fs::create_dir_all(&to).expect("folder");
        for from in ["scenario.toml", "map.toml", "special.lua"] {
            std::fs::copy(root().join("scenarios/yelnya").join(from), to.join(from)).expect("copy");
        }
        // the copy's ruleset path, from two levels further down
        let s = to.join("scenario.toml");
        let text = std::fs::read_to_string(&s).expect("read").replace(
            "ruleset = \"../../scripts/pgg\"",
            &format!("ruleset = \"{}\"", root().join("scripts/pgg").display()),
        );
        std::fs::write(&s, text).expect("write");
        to
    };
    let linked = copy("linked");
    std::os::unix::fs::symlink(&outside, linked.join("readme.txt")).expect("link");
    let out = dir.join("l.kessel");
    let r = kessel_at(
        &root(),
        &home,
        &[
            "pack",
            &linked.to_string_lossy(),
            "-o",
            &out.to_string_lossy(),
        ],
    );
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains("readme.txt in ") && r.stderr.contains("outside that folder"),
        "{}",
        r.stderr
    );
    assert!(!out.exists(), "nothing written");
    let looped = copy("looped");
    std::os::unix::fs::symlink(&looped, looped.join("again")).expect("link");
    let r = kessel_at(
        &root(),
        &home,
        &[
            "pack",
            &looped.to_string_lossy(),
            "-o",
            &out.to_string_lossy(),
        ],
    );
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(r.stderr.contains("a link loop"), "{}", r.stderr);
    // a link to a folder above is refused as itself, not walked (the walk read every folder
    // beside it and failed on whatever it met there, a loop of someone else's far from here)
    let above = copy("above");
    std::os::unix::fs::symlink("..", above.join("up")).expect("link");
    let r = kessel_at(
        &root(),
        &home,
        &[
            "pack",
            &above.to_string_lossy(),
            "-o",
            &out.to_string_lossy(),
        ],
    );
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains("up is a link to ") && r.stderr.contains("only the folder's own files"),
        "{}",
        r.stderr
    );
    assert!(!out.exists(), "nothing written");
}

/// `entries` with the file `name` holding `data`, its manifest entry (hash and size) made to
/// match: a package as someone could make it by hand, well formed and consistent.
fn with_file(entries: &[(String, Vec<u8>)], name: &str, data: &[u8]) -> Vec<(String, Vec<u8>)> {
    use sha2::Digest as _;
    let hash: String = sha2::Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    entries
        .iter()
        .map(|(n, d)| {
            if n == name {
                return (n.clone(), data.to_vec());
            }
            if n != "manifest.toml" {
                return (n.clone(), d.clone());
            }
            let mut m: toml::Table = std::str::from_utf8(d)
                .expect("utf-8")
                .parse()
                .expect("manifest");
            for f in m["files"].as_array_mut().expect("files") {
                let f = f.as_table_mut().expect("entry");
                if f["path"].as_str() == Some(name) {
                    f.insert("sha256".into(), hash.clone().into());
                    f.insert("size".into(), (data.len() as i64).into());
                }
            }
            (n.clone(), toml::to_string(&m).expect("toml").into_bytes())
        })
        .collect()
}

/// A package's scenario names only files the package carries: a map, special rules or a profile
/// named by an absolute path or climbing out with `..` made opening it read (and run, and quote
/// in errors) the opener's own files. And an unpacked copy edited in the cache is not used.
#[test]
fn a_package_reaches_no_file_outside_itself_and_its_cached_copy_is_checked() {
    let home = scratch("pack-outside-home");
    let dir = scratch("pack-outside");
    let outside = crate::util::write(&dir, "outside.lua", "print(\"OUTSIDE RAN\")\n");
    let y = dir.join("y.kessel");
    let r = kessel_at(
        &root(),
        &home,
        &["pack", "scenarios/yelnya", "-o", &y.to_string_lossy()],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let files = entries(&std::fs::read(&y).expect("packed"));
    let scenario = String::from_utf8(
        files
            .iter()
            .find(|(n, _)| n == "scenario.toml")
            .expect("scenario")
            .1
            .clone(),
    )
    .expect("utf-8");
    let outside = outside.to_string_lossy().into_owned();
    for (name, from, to, said) in [
        (
            "abs_script",
            "scripts = [\"special.lua\"]",
            format!("scripts = [\"special.lua\", {:?}]", outside),
            format!("`scripts` names `{outside}`"),
        ),
        (
            "up_map",
            "map = \"map.toml\"",
            "map = \"../map.toml\"".to_string(),
            "`map` names `../map.toml`".to_string(),
        ),
        (
            "abs_profile",
            "profile = \"standard\"",
            "profile = \"/etc/kessel.toml\"".to_string(),
            "`profile` names `/etc/kessel.toml`".to_string(),
        ),
    ] {
        assert!(scenario.contains(from), "{from}");
        let edited = scenario.replacen(from, &to, 1);
        let p = dir.join(format!("{name}.kessel"));
        std::fs::write(
            &p,
            zip_of(&with_file(&files, "scenario.toml", edited.as_bytes())),
        )
        .expect("write");
        let r = kessel_at(&dir, &home, &["check", &p.to_string_lossy()]);
        assert_ne!(r.code, 0, "{name} was accepted: {}", r.stdout);
        assert!(r.stderr.contains(&said), "{name}: {}", r.stderr);
        assert!(!r.stdout.contains("OUTSIDE RAN"), "{name}: {}", r.stdout);
    }
    // an error in a package's own file names the package, not where it was unpacked
    let broken = scenario.replacen("turns = 3", "turns = 3\nturns = 4", 1);
    let p = dir.join("broken.kessel");
    std::fs::write(
        &p,
        zip_of(&with_file(&files, "scenario.toml", broken.as_bytes())),
    )
    .expect("write");
    let r = kessel_at(&dir, &home, &["check", "broken.kessel"]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains("broken.kessel/scenario.toml:11:") && !r.stderr.contains("cache"),
        "{}",
        r.stderr
    );
    // a scenario edited in the cache after a first opening: the package's own is used again
    let r = kessel_at(&dir, &home, &["check", "y.kessel"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let cached: Vec<_> = std::fs::read_dir(home.join("cache/kessel/packages"))
        .expect("cache")
        .flatten()
        .map(|e| e.path().join("scenario.toml"))
        .filter(|p| p.is_file())
        .collect();
    assert_eq!(cached.len(), 2, "y and broken: {cached:?}");
    let y_cached = cached
        .iter()
        .find(|p| !std::fs::read_to_string(p).is_ok_and(|t| t.contains("turns = 4")))
        .expect("y's unpacked scenario");
    let text = std::fs::read_to_string(y_cached).expect("cached scenario");
    std::fs::write(y_cached, text.replace("turns = 3", "turns = 7")).expect("tamper");
    let r = kessel_at(&dir, &home, &["info", "y.kessel", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(y_cached).expect("cached"), text);
    let _ = std::fs::remove_dir_all(&home);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game played from a package is saved naming the package (it named the folder the package
/// was unpacked to, which another machine, or this one after its cache is cleared, lacks), and
/// the save loads back through the package.
#[test]
fn a_save_of_a_packaged_scenario_names_the_package_and_loads_back() {
    let home = scratch("pack-save-home");
    let dir = scratch("pack-save");
    let y = dir.join("y.kessel");
    let r = kessel_at(
        &root(),
        &home,
        &["pack", "scenarios/yelnya", "-o", &y.to_string_lossy()],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    crate::util::write(&dir, "play.lua", "assert(kessel.act(kessel.legal()[1]))\n");
    std::fs::create_dir_all(dir.join("saves")).expect("folder");
    let r = kessel_at(
        &dir,
        &home,
        &[
            "script",
            "play.lua",
            "--scenario",
            "y.kessel",
            "--save",
            "saves/game.json",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let save = std::fs::read_to_string(dir.join("saves/game.json")).expect("saved");
    assert!(save.contains("\"scenario\": \"../y.kessel\""), "{save}");
    // loads back, from another working folder, with a cleared cache
    let _ = std::fs::remove_dir_all(home.join("cache"));
    let r = kessel_at(
        &dir.join("saves"),
        &home,
        &["view", "game.json", "--as", "german"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("log (1 actions)"), "{}", r.stdout);
    // without the package, the save says what is missing
    std::fs::remove_file(&y).expect("remove");
    let r = kessel_at(&dir, &home, &["view", "saves/game.json", "--as", "german"]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("the scenario the game was played with, `../y.kessel`, is missing"),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&home);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A ruleset that Kessel does not bundle cannot travel by reference: `pack` without
/// `--include-ruleset` said ok and wrote a package that every `check` then refused.
#[test]
fn pack_of_a_ruleset_kessel_does_not_bundle_asks_for_include_ruleset() {
    let home = scratch("pack-unbundled-home");
    let dir = crate::util::toy_copy("pack-unbundled");
    let out = dir.join("toy.kessel");
    let o = out.to_string_lossy().into_owned();
    let r = kessel_at(&dir, &home, &["pack", ".", "-o", &o]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains("is not one bundled with Kessel")
            && r.stderr.contains("--include-ruleset"),
        "{}",
        r.stderr
    );
    assert!(!out.exists(), "nothing written");
    let r = kessel_at(&dir, &home, &["pack", ".", "-o", &o, "--include-ruleset"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = kessel_at(&dir, &home, &["check", &o]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // the scenario sits in its ruleset's folder (`ruleset = "."`): its files travel once, in
    // the included ruleset where they lie (each was packed at the root and under ruleset/)
    let names: Vec<String> = entries(&std::fs::read(&out).expect("package"))
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert!(
        names.contains(&"ruleset/scenario.toml".to_string()),
        "{names:?}"
    );
    assert!(!names.contains(&"scenario.toml".to_string()), "{names:?}");
    assert!(
        names
            .iter()
            .all(|n| n == "manifest.toml" || n.starts_with("ruleset/")),
        "{names:?}"
    );
    let r = kessel_at(&dir, &home, &["test", &o]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.trim_end().ends_with("passed, 0 failed"),
        "{}",
        r.stdout
    );
}

#[test]
fn pack_says_when_the_ruleset_it_names_differs_from_the_bundled_copy() {
    // a GM follows the README: copies wbc2009.toml to wbc2010.toml beside it, then packs a
    // scenario; the players' kessel would warn "another version of the ruleset" with no why
    let home = scratch("pack-differs-home");
    let dir = scratch("pack-differs");
    kessel_test_support::copy_dir(&root().join("scripts/pgg"), &dir.join("scripts/pgg"));
    kessel_test_support::copy_dir(
        &root().join("scenarios/yelnya"),
        &dir.join("scenarios/yelnya"),
    );
    let r = kessel_at(
        &dir,
        &home,
        &["pack", "scenarios/yelnya", "-o", "same.kessel"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("note:"), "the same files: {}", r.stderr);
    let profiles = dir.join("scripts/pgg/profiles");
    std::fs::copy(profiles.join("wbc2009.toml"), profiles.join("wbc2010.toml")).expect("copy");
    let r = kessel_at(&dir, &home, &["pack", "scenarios/yelnya", "-o", "y.kessel"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("profiles/wbc2010.toml added") && r.stderr.contains("--include-ruleset"),
        "{}",
        r.stderr
    );
    // what the player then sees, and the package carrying the files instead
    let r = kessel_at(&dir, &home, &["check", "y.kessel"]);
    assert!(
        r.stderr.contains("another version of the ruleset"),
        "{}",
        r.stderr
    );
    let r = kessel_at(
        &dir,
        &home,
        &[
            "pack",
            "scenarios/yelnya",
            "-o",
            "z.kessel",
            "--include-ruleset",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("note:"), "{}", r.stderr);
    assert!(
        !r.stderr.contains("warning:"),
        "no profile named yet: {}",
        r.stderr
    );
    // a club organiser names the new profile in the scenario: packed by reference, the package
    // would not open for a player, whose kessel has no wbc2010; pack says so, and the package
    // with the ruleset opens
    let scenario = dir.join("scenarios/yelnya/scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("read");
    let named = if text.contains("profile = \"standard\"") {
        text.replacen("profile = \"standard\"", "profile = \"wbc2010\"", 1)
    } else {
        text.replacen("[scenario]\n", "[scenario]\nprofile = \"wbc2010\"\n", 1)
    };
    std::fs::write(&scenario, named).expect("write");
    let r = kessel_at(&dir, &home, &["pack", "scenarios/yelnya", "-o", "t.kessel"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("the profile `wbc2010`") && r.stderr.contains("refuse to open"),
        "{}",
        r.stderr
    );
    let r = kessel_at(
        &dir,
        &home,
        &[
            "pack",
            "scenarios/yelnya",
            "-o",
            "t2.kessel",
            "--include-ruleset",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("warning:"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&home);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A scenario that extends one outside its folder (the guards variant of the campaign) is packed
/// with the base's folder under `extends/1/` and its `extends` pointed there, so the package opens
/// and checks on a machine without the checkout; with the ruleset included it does too.
#[test]
fn pack_carries_the_scenario_an_extending_scenario_is_laid_over() {
    let home = scratch("pack-extends-home");
    let dir = scratch("pack-extends-out");
    for (name, extra) in [("g.kessel", None), ("gi.kessel", Some("--include-ruleset"))] {
        let out = dir.join(name).to_string_lossy().into_owned();
        let mut args = vec!["pack", "docs/examples/pgg-guards", "-o", &out];
        args.extend(extra);
        let r = kessel_at(&root(), &home, &args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let files = entries(&std::fs::read(dir.join(name)).expect("written"));
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert!(
            names.contains(&"extends/1/campaign.toml") && names.contains(&"extends/1/map.toml"),
            "{names:?}"
        );
        let scenario = files
            .iter()
            .find(|(n, _)| n == "scenario.toml")
            .expect("packed");
        let text = String::from_utf8_lossy(&scenario.1);
        assert!(
            text.contains("extends = \"extends/1/campaign.toml\""),
            "{text}"
        );
        let r = kessel_at(&dir, &home, &["check", name]);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        assert!(
            r.stdout.contains("house rules G1 and B1") && r.stdout.contains("136 units"),
            "{}",
            r.stdout
        );
        assert!(r.stdout.contains("  extends    "), "{}", r.stdout);
    }
    // a package whose scenario, or a base it carries, extends a file outside it is refused
    let files = entries(&std::fs::read(dir.join("g.kessel")).expect("packed"));
    let text = |name: &str| {
        let f = files.iter().find(|(n, _)| n == name).expect("packed");
        String::from_utf8(f.1.clone()).expect("utf-8")
    };
    let top = text("scenario.toml").replace("extends/1/campaign.toml", "../outside.toml");
    let base = text("extends/1/campaign.toml").replacen(
        "[scenario]\n",
        "[scenario]\nextends = \"/etc/outside.toml\"\n",
        1,
    );
    for (name, file, data, said) in [
        (
            "up.kessel",
            "scenario.toml",
            top,
            "`extends` names `../outside.toml`",
        ),
        (
            "abs.kessel",
            "extends/1/campaign.toml",
            base,
            "`extends` names `/etc/outside.toml`",
        ),
    ] {
        std::fs::write(
            dir.join(name),
            zip_of(&with_file(&files, file, data.as_bytes())),
        )
        .expect("write");
        refused_saying(&dir, &home, &dir.join(name), said);
    }
    let _ = std::fs::remove_dir_all(&home);
    let _ = std::fs::remove_dir_all(&dir);
}
