//! `kessel test`: run Lua rule tests. A test file is any `*.lua` under a ruleset's `tests/` folder;
//! each `kessel.test(name, fn)` in it runs in a fresh position. The last line is
//! `N passed, N failed`.

use super::script::ruleset_for;
use kessel_core::engine::Engine;
use kessel_core::script::Limits;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `kessel test`.
#[derive(clap::Args)]
pub struct Args {
    /// Test files or folders (default: the tests/ folder of every ruleset under scripts/).
    paths: Vec<PathBuf>,
    /// Run only tests whose name contains this text.
    #[arg(long)]
    filter: Option<String>,
    /// Load this scenario before each test file (tests then start from its set-up).
    #[arg(long)]
    scenario: Option<PathBuf>,
    /// Profile name or path applied to the scenario.
    #[arg(long)]
    profile: Option<String>,
    /// Print only failures and the summary.
    #[arg(long, short)]
    quiet: bool,
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_file() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    // a ruleset folder: look in its tests/
    let tests = path.join("tests");
    let dir = if path.join("init.lua").is_file() && tests.is_dir() {
        tests
    } else {
        path.to_path_buf()
    };
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "lua") {
            out.push(p);
        }
    }
    Ok(())
}

fn default_paths() -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir("scripts") {
        let mut dirs: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        dirs.sort();
        for d in dirs {
            if d.join("init.lua").is_file() && d.join("tests").is_dir() {
                out.push(d);
            }
        }
    }
    out
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let roots = if args.paths.is_empty() {
        default_paths()
    } else {
        args.paths.clone()
    };
    if roots.is_empty() {
        anyhow::bail!(
            "no test files found (give a test file, a tests/ folder or a ruleset folder)"
        );
    }
    let mut files = Vec::new();
    for r in &roots {
        collect(r, &mut files).map_err(|e| anyhow::anyhow!("{}: {e}", r.display()))?;
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    for file in &files {
        let engine = match (&args.scenario, ruleset_for(file)) {
            (Some(s), _) => Engine::load(
                s,
                args.profile.as_deref(),
                crate::DEFAULT_SEED,
                Limits::default(),
            ),
            (None, Some(dir)) => Engine::bare(&dir, Limits::default()).and_then(|mut e| {
                e.apply_profile(args.profile.as_deref())?;
                Ok(e)
            }),
            (None, None) => {
                println!(
                    "FAIL {}: no ruleset (init.lua) above this file",
                    file.display()
                );
                failed += 1;
                continue;
            }
        };
        let mut engine = match engine {
            Ok(e) => e,
            Err(e) => {
                println!("FAIL {}: {e}", file.display());
                failed += 1;
                continue;
            }
        };
        let names = match engine.load_tests(file) {
            Ok(n) => n,
            Err(e) => {
                println!("FAIL {}: {}", file.display(), e.message);
                failed += 1;
                continue;
            }
        };
        if !args.quiet {
            println!("{} ({} tests)", file.display(), names.len());
        }
        for name in names {
            if args
                .filter
                .as_ref()
                .is_some_and(|f| !name.contains(f.as_str()))
            {
                continue;
            }
            match engine.run_test(&name) {
                Ok(()) => {
                    passed += 1;
                    if !args.quiet {
                        println!("  ok   {name}");
                    }
                }
                Err(e) => {
                    failed += 1;
                    println!(
                        "  FAIL {name}\n       {}",
                        e.message.replace('\n', "\n       ")
                    );
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
