//! `kessel test`: run Lua rule tests. A test file is any `*.lua` under a ruleset's or a scenario
//! folder's `tests/` folder; each `kessel.test(name, fn)` in it runs in a fresh position (a
//! scenario's tests start from that scenario's set-up). The last line is `N passed, N failed`.

use super::script::ruleset_for;
use kessel_core::engine::Engine;
use kessel_core::error::{printable, printable_name};
use kessel_core::script::Limits;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `kessel test`.
#[derive(clap::Args)]
pub struct Args {
    /// Test files, folders or `.kessel` packages (default: the tests/ folder of every ruleset
    /// under scripts/ and of each example in a ruleset's examples/ folder, of every scenario
    /// folder under scenarios/ and of every example under docs/examples/; outside a checkout,
    /// the bundled ones). A tests/ folder with nothing to start its tests from is reported as a
    /// failure, not skipped.
    paths: Vec<PathBuf>,
    /// Run only tests whose name contains this text (none matching is a failure, so a misspelt
    /// filter does not pass).
    #[arg(long)]
    filter: Option<String>,
    /// Load this scenario before each test file (tests then start from its set-up).
    #[arg(long)]
    scenario: Option<PathBuf>,
    /// Profile name or path applied to the scenario.
    #[arg(long)]
    profile: Option<String>,
    #[command(flatten)]
    options: super::options::OptionArgs,
    /// Print only failures and the summary.
    #[arg(long, short)]
    quiet: bool,
}

/// The test files under `path`. A folder is read once however many links lead to it: a symbolic
/// link back up the tree (`tests/loop -> ..`, twice) made the walk endless. A link inside the
/// walk that leads out of the folder `kessel test` was given is not followed (`tests/x -> /`
/// walked the whole file system, running every `.lua` found as a test, until a folder it could
/// not read stopped it with an error naming the folder given); it is said on stderr.
fn collect(
    path: &Path,
    out: &mut Vec<PathBuf>,
    seen: &mut std::collections::HashSet<PathBuf>,
) -> std::io::Result<()> {
    let shown = printable_name(&path.display().to_string()).into_owned();
    match std::fs::metadata(path) {
        Err(e) => {
            return Err(std::io::Error::new(
                e.kind(),
                format!("{shown}: {}", kessel_core::error::io_words(&e)),
            ))
        }
        Ok(m) if m.is_file() => {
            out.push(path.to_path_buf());
            return Ok(());
        }
        Ok(m) if !m.is_dir() => {
            return Err(std::io::Error::other(format!(
                "{shown}: not a test file or folder (a device, a FIFO or a socket)"
            )))
        }
        Ok(_) => {}
    }
    let root = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let before = out.len();
    walk(path, &root, out, seen)?;
    if out.len() == before {
        // a folder of no tests passed in silence ("0 passed, 0 failed"): a path mistyped, or
        // a ruleset's rules/ folder given for its tests
        let tests = path
            .ancestors()
            .find(|d| d.join("init.lua").is_file() && d.join("tests").is_dir())
            .map(|r| {
                let tests = printable_name(&r.join("tests").display().to_string()).into_owned();
                format!("; the ruleset's tests are in {tests}")
            })
            .unwrap_or_default();
        return Err(std::io::Error::other(format!(
            "{shown}: no test files (Lua files in a tests/ folder, or in the folder given outside \
             a ruleset){tests}"
        )));
    }
    Ok(())
}

/// Whether `file`, met while walking a folder, is one of a ruleset's rules rather than a test: it
/// lies inside a ruleset folder (one with an `init.lua`) but not in a `tests/` folder of it.
/// (`kessel test scripts/pgg/rules` ran every rule module as a test file.)
fn is_rule_file(file: &Path) -> bool {
    let (Some(ruleset), Ok(real)) = (ruleset_for(file), file.canonicalize()) else {
        return false;
    };
    real.strip_prefix(&ruleset)
        .is_ok_and(|inside| !inside.components().any(|c| c.as_os_str() == "tests"))
}

fn walk(
    path: &Path,
    root: &Path,
    out: &mut Vec<PathBuf>,
    seen: &mut std::collections::HashSet<PathBuf>,
) -> std::io::Result<()> {
    // a ruleset or scenario folder: look in its tests/ (its other Lua files are rules)
    let tests = path.join("tests");
    let dir = if tests.is_dir() {
        tests
    } else {
        path.to_path_buf()
    };
    if !seen.insert(dir.canonicalize().unwrap_or_else(|_| dir.clone())) {
        return Ok(());
    }
    let shown = |p: &Path| printable_name(&p.display().to_string()).into_owned();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| {
            let words = kessel_core::error::io_words(&e);
            std::io::Error::new(e.kind(), format!("{}: {words}", shown(&dir)))
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        let is_link = p
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink());
        if is_link && p.canonicalize().is_ok_and(|real| !real.starts_with(root)) {
            eprintln!(
                "warning: {} is a link out of the folder tested; not followed",
                shown(&p)
            );
            continue;
        }
        if p.is_dir() {
            walk(&p, root, out, seen)?;
        } else if p.extension().is_some_and(|x| x == "lua") && !is_rule_file(&p) {
            out.push(p);
        }
    }
    Ok(())
}

/// The test suites of every ruleset, scenario folder and docs example: the working folder's
/// `scripts/`, `scenarios/` and `docs/examples/` in a checkout, else the bundled ones.
fn default_paths() -> anyhow::Result<Vec<PathBuf>> {
    let base = if Path::new("scripts").is_dir() || Path::new("scenarios").is_dir() {
        PathBuf::new()
    } else {
        crate::bundle::bundle_dir()?
    };
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    // (scripts/: rulesets, and the example scenarios a ruleset keeps in its examples/ folder;
    // scenarios/: scenario folders; docs/examples/: the example systems the docs teach from,
    // which a checkout has and the bundle does not)
    let sorted_dirs = |folder: &Path| -> Vec<PathBuf> {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(folder)
            .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        dirs.sort();
        dirs
    };
    for root in ["scripts", "scenarios", "docs/examples"] {
        let mut dirs = Vec::new();
        for d in sorted_dirs(&base.join(root)) {
            let examples = d.join("examples");
            dirs.push(d);
            if root == "scripts" {
                dirs.extend(sorted_dirs(&examples));
            }
        }
        for d in dirs {
            if !d.join("tests").is_dir() {
                continue;
            }
            // a link to a folder already listed would run its suite twice
            let real = d.canonicalize().unwrap_or_else(|_| d.clone());
            if !seen.insert(real) {
                continue;
            }
            // a folder of tests with nothing to start them from (no init.lua, no scenario
            // beside) is run too, so that this is said, as when it is named, not passed over
            out.push(d);
        }
    }
    Ok(out)
}

/// The scenario whose tests live in `tests` (a `tests/` folder beside scenario files): its tests
/// start from that scenario, or from the first by file name where there are several (a campaign's
/// folder holds one per date: name the first date's so it sorts first, or pass --scenario).
fn scenario_beside(tests: &Path) -> Option<PathBuf> {
    // A path relative to the working folder may name no folder at all: `tests` (the folder of
    // `tests/x_test.lua`) has the parent "", and `x_test.lua` run from inside tests/ the folder
    // "". Those are read where they point, else `kessel test tests` in a game's folder started
    // its tests from nothing and failed them on the first hex of its map.
    let folder = match tests.file_name() {
        Some(name) if name != "tests" => return None,
        Some(_) => match tests.parent()? {
            p if p.as_os_str().is_empty() => PathBuf::from("."),
            p => p.to_path_buf(),
        },
        None => {
            let here = if tests.as_os_str().is_empty() {
                Path::new(".")
            } else {
                tests
            };
            let abs = std::fs::canonicalize(here).ok()?;
            if abs.file_name()? != "tests" {
                return None;
            }
            abs.parent()?.to_path_buf()
        }
    };
    let mut found = Vec::new();
    for e in std::fs::read_dir(&folder).ok()?.flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "toml")
            && kessel_core::error::read_text(&p, "scenario")
                .is_ok_and(|t| t.lines().any(|l| l.trim_start().starts_with("[scenario]")))
        {
            found.push(p);
        }
    }
    found.sort();
    found.into_iter().next()
}

/// What a test file's tests start from: a scenario (the one given, or the one beside the file's
/// folder), else the ruleset above the file.
type Start = (Option<PathBuf>, Option<PathBuf>);

/// A fresh engine at `start`, with `--profile` and `--option` applied.
fn set_up(start: &Start, args: &Args) -> Result<Engine, String> {
    let engine = match start {
        (Some(s), _) => Engine::load(
            s,
            args.profile.as_deref(),
            crate::DEFAULT_SEED,
            Limits::default(),
        ),
        (None, Some(dir)) => Engine::bare(dir, Limits::default()).and_then(|mut e| {
            e.apply_profile(args.profile.as_deref())?;
            Ok(e)
        }),
        (None, None) => {
            return Err(
                "no ruleset (init.lua) above this file and no scenario beside its \
                        folder: pass --scenario SCENARIO.toml"
                    .into(),
            )
        }
    };
    engine.map_err(|e| e.to_string()).and_then(|mut e| {
        args.options
            .apply(&mut e)
            .map(|()| e)
            .map_err(|e| format!("{e:#}"))
    })
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // a package stands for its scenario folder, written out where it can be read
    let mut roots = Vec::new();
    for p in &args.paths {
        if crate::package::is_package(p) {
            let scenario = crate::package::open(p)?;
            roots.push(scenario.parent().map(Path::to_path_buf).unwrap_or_default());
        } else {
            // a bundled ruleset's or scenario's path (`scripts/pgg`) outside a checkout
            roots.push(crate::bundle::resolve(p)?);
        }
    }
    let args = Args {
        scenario: args
            .scenario
            .as_deref()
            .map(crate::open_scenario)
            .transpose()?,
        ..args
    };
    if args.paths.is_empty() {
        roots = default_paths()?;
    }
    if roots.is_empty() {
        anyhow::bail!(
            "no test files found (give a test file, a tests/ folder or a ruleset folder)"
        );
    }
    let mut files = Vec::new();
    for r in &roots {
        // (the error names the folder that could not be read)
        collect(r, &mut files, &mut Default::default()).map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    let starts: Vec<Start> = files
        .iter()
        .map(|file| {
            let scenario = args
                .scenario
                .clone()
                .or_else(|| file.parent().and_then(scenario_beside));
            let ruleset = if scenario.is_some() {
                None
            } else {
                ruleset_for(file)
            };
            (scenario, ruleset)
        })
        .collect();
    // The set-up (the scenario or ruleset loaded, `--profile` and `--option` applied) is the same
    // for every file with the same start, and so is an error in it; one error is often the same
    // for several starts (an option no ruleset has). Each is said once, before the tests, with
    // the count of the files it stopped: a bad `--option` was said once per test file, 71 times.
    let mut stopped: std::collections::HashMap<&Start, usize> = Default::default();
    let mut errors: Vec<(String, Vec<&PathBuf>)> = Vec::new();
    let mut checked = std::collections::HashSet::new();
    for (file, start) in files.iter().zip(&starts) {
        if checked.insert(start) {
            if let Err(e) = set_up(start, &args) {
                let i = match errors.iter().position(|(m, _)| *m == e) {
                    Some(i) => i,
                    None => {
                        errors.push((e, Vec::new()));
                        errors.len() - 1
                    }
                };
                stopped.insert(start, i);
            }
        }
        if let Some(&i) = stopped.get(start) {
            errors[i].1.push(file);
        }
    }
    for (e, stopped_files) in &errors {
        let also = match stopped_files.len() - 1 {
            0 => String::new(),
            n => format!(
                "\n     ({} not run: the same error)",
                super::count(n, "other test file", "other test files")
            ),
        };
        println!(
            "FAIL {}",
            printable(&format!("{}: {e}{also}", stopped_files[0].display()))
        );
        failed += stopped_files.len();
    }
    for (file, start) in files.iter().zip(&starts) {
        if stopped.contains_key(start) {
            continue;
        }
        let mut engine = match set_up(start, &args) {
            Ok(e) => e,
            Err(e) => {
                println!("FAIL {}", printable(&format!("{}: {e}", file.display())));
                failed += 1;
                continue;
            }
        };
        let names = match engine.load_tests(file) {
            Ok(n) => n,
            Err(e) => {
                println!(
                    "FAIL {}",
                    printable(&format!("{}: {}", file.display(), e.message))
                );
                failed += 1;
                continue;
            }
        };
        let all = names.len();
        let names: Vec<String> = match &args.filter {
            Some(f) => names
                .into_iter()
                .filter(|n| n.contains(f.as_str()))
                .collect(),
            None => names,
        };
        // with a filter, a file none of whose tests match is not listed
        if !args.quiet && (args.filter.is_none() || !names.is_empty()) {
            // a module the test files `require` (a `helpers.lua`) declares none: "(0 tests)"
            // read as if its tests had gone missing
            let count = if all == 0 {
                "no tests".to_string()
            } else if names.len() == all {
                super::count(all, "test", "tests")
            } else {
                format!("{} of {}", names.len(), super::count(all, "test", "tests"))
            };
            println!("{}", printable(&format!("{} ({count})", file.display())));
        }
        for name in names {
            match engine.run_test(&name) {
                Ok(()) => {
                    passed += 1;
                    if !args.quiet {
                        println!("  ok   {}", printable_name(&name));
                    }
                }
                Err(e) => {
                    failed += 1;
                    println!(
                        "  FAIL {}\n       {}",
                        printable_name(&name),
                        printable(&e.message).replace('\n', "\n       ")
                    );
                }
            }
        }
    }
    // a misspelt filter runs nothing: it fails, or a typo in a CI job would pass in silence
    let unmatched = matches!((passed, failed, &args.filter), (0, 0, Some(_)));
    if let (true, Some(f)) = (unmatched, &args.filter) {
        eprintln!(
            "error: no test name contains `{f}` in the {} file(s) read; without --filter every test runs and is listed",
            files.len()
        );
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 && !unmatched {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
