//! The hostile and broken-input corpus: every script in `tests/hostile/` and every case in
//! `tests/badfiles/` must end with a clear error naming its file (and line, where the case says
//! which), within its time limit, and never with a panic or an abort.
//!
//! A case states what it expects in its header comments (`-- expect: text`, `-- line: N`,
//! `-- timeout: seconds` in Lua; `# expect:`, `# where: file:line` in `expect.txt` for bad files).

use crate::util::root;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The expectations written in a case's header.
#[derive(Debug, Default)]
struct Expect {
    needle: Vec<String>,
    line: Option<usize>,
    place: Option<String>,
    timeout: Option<u64>,
}

fn header(text: &str, prefix: &str) -> Expect {
    let mut e = Expect::default();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix(prefix) else {
            continue;
        };
        let rest = rest.trim();
        if let Some(v) = rest.strip_prefix("expect:") {
            e.needle.push(v.trim().to_string());
        } else if let Some(v) = rest.strip_prefix("line:") {
            e.line = v.trim().parse().ok();
        } else if let Some(v) = rest.strip_prefix("where:") {
            e.place = Some(v.trim().to_string());
        } else if let Some(v) = rest.strip_prefix("timeout:") {
            e.timeout = v.trim().parse().ok();
        }
    }
    e
}

pub(crate) struct Outcome {
    pub(crate) code: Option<i32>,
    pub(crate) stderr: String,
    took: Duration,
    pub(crate) killed: bool,
}

/// Runs `kessel` with a time limit, killing it when the limit passes.
pub(crate) fn run_limited(args: &[&str], limit: Duration) -> Outcome {
    // a folder a run: runs go on at once, and a scratch folder is emptied when it is made
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = kessel_test_support::scratch(&format!("hostile-run-{run}"));
    let err_path = dir.join(format!(
        "{}.stderr",
        args.iter()
            .map(|a| a.replace(['/', '.'], "_"))
            .collect::<String>()
    ));
    let err_file = std::fs::File::create(&err_path).expect("stderr file");
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kessel"))
        .args(args)
        .current_dir(root())
        .stdout(Stdio::null())
        .stderr(err_file)
        .spawn()
        .expect("run kessel");
    let mut killed = false;
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break Some(s);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            killed = true;
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let _ = std::fs::remove_file(&err_path);
    Outcome {
        code: status.and_then(|s| s.code()),
        stderr,
        took: start.elapsed(),
        killed,
    }
}

/// Checks one outcome; returns a description of what is wrong.
fn judge(name: &str, file_shown: &str, e: &Expect, o: &Outcome) -> Option<String> {
    let limit = e.timeout.unwrap_or(60);
    if o.killed {
        return Some(format!("{name}: still running after {limit} s (killed)"));
    }
    if o.stderr.contains("panicked") || o.code == Some(101) {
        return Some(format!("{name}: panicked\n{}", o.stderr));
    }
    match o.code {
        None => {
            return Some(format!(
                "{name}: killed by a signal (an abort?)\n{}",
                o.stderr
            ))
        }
        Some(0) => return Some(format!("{name}: exited 0; expected an error")),
        _ => {}
    }
    // one error, however many lines its text takes: a line break in a mod's text (an error
    // value, a check hook's problem) must not start a line that reads as the program's own
    // (`error: other.toml:12: …`), so every line after the first is indented
    if let Some(forged) = o
        .stderr
        .lines()
        .skip(1)
        .find(|l| !l.is_empty() && !l.starts_with(char::is_whitespace))
    {
        return Some(format!(
            "{name}: a line of the error's text starts a line of its own (`{forged}`):\n{}",
            o.stderr
        ));
    }
    if !o.stderr.contains(file_shown) {
        return Some(format!(
            "{name}: the error does not name `{file_shown}`:\n{}",
            o.stderr
        ));
    }
    if let Some(l) = e.line {
        let at = format!("{file_shown}:{l}");
        if !o.stderr.contains(&at) {
            return Some(format!(
                "{name}: the error does not say `{at}`:\n{}",
                o.stderr
            ));
        }
    }
    if let Some(p) = &e.place {
        if !o.stderr.contains(p.as_str()) {
            return Some(format!(
                "{name}: the error does not say `{p}`:\n{}",
                o.stderr
            ));
        }
    }
    for n in &e.needle {
        if !n.split('|').any(|alt| o.stderr.contains(alt.trim())) {
            return Some(format!("{name}: expected `{n}` in:\n{}", o.stderr));
        }
    }
    None
}

fn corpus(dir: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .expect("corpus folder")
        .map(|e| e.expect("entry").path())
        .collect();
    out.sort();
    out
}

#[test]
fn hostile_scripts_are_stopped_with_located_errors() {
    let mut failures = Vec::new();
    let mut count = 0;
    for path in corpus("tests/hostile") {
        if path.extension().and_then(|e| e.to_str()) != Some("lua") {
            continue;
        }
        count += 1;
        let text = std::fs::read_to_string(&path).expect("read case");
        let e = header(&text, "--");
        let rel = path.strip_prefix(root()).expect("in repo").to_path_buf();
        let shown = rel.display().to_string();
        let limit = Duration::from_secs(e.timeout.unwrap_or(60));
        // the engine's wall-clock limit (10 s) is what a case about it expects; the others get
        // more, so that a loaded machine still shows the error the case is about
        let mut args = vec!["script", &shown, "--ruleset", "core/tests/fixtures/toy"];
        if !e.needle.iter().any(|n| n.contains("time limit")) {
            args.extend(["--seconds", "40"]);
        }
        let o = run_limited(&args, limit);
        eprintln!("{shown}: {:.1} s", o.took.as_secs_f64());
        if let Some(f) = judge(&shown, &shown, &e, &o) {
            failures.push(f);
        }
    }
    assert!(count >= 30, "the hostile corpus shrank to {count} scripts");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// How a bad-file case is run: `kessel check` on its scenario (with its profile, if any), or
/// the save loader on its save.
fn run_bad_case(case: &Path, limit: Duration) -> Outcome {
    let rel = |p: &Path| {
        p.strip_prefix(root())
            .expect("in repo")
            .display()
            .to_string()
    };
    let save = case.join("save.json");
    if save.is_file() {
        let start = Instant::now();
        let loaded = std::panic::catch_unwind(|| {
            kessel_core::engine::Engine::load_save(
                Path::new(&rel(&save)),
                kessel_core::script::Limits::default(),
            )
            .map(|_| ())
            .map_err(|e| e.to_string())
        });
        return match loaded {
            Ok(Ok(())) => Outcome {
                code: Some(0),
                stderr: String::new(),
                took: start.elapsed(),
                killed: false,
            },
            Ok(Err(msg)) => Outcome {
                code: Some(1),
                stderr: msg,
                took: start.elapsed(),
                killed: false,
            },
            Err(_) => Outcome {
                code: Some(101),
                stderr: "panicked".into(),
                took: start.elapsed(),
                killed: false,
            },
        };
    }
    // a hostile `.kessel` package is opened as a scenario argument
    let package = case.join("package.kessel");
    let scenario = if package.is_file() {
        rel(&package)
    } else {
        rel(&case.join("scenario.toml"))
    };
    let profile = case.join("profile.toml");
    let profile = profile.is_file().then(|| rel(&profile));
    let mut args = vec!["check", scenario.as_str()];
    if let Some(p) = &profile {
        args.push("--profile");
        args.push(p);
    }
    run_limited(&args, limit)
}

#[test]
fn bad_files_fail_with_located_errors() {
    let mut failures = Vec::new();
    let mut count = 0;
    for case in corpus("tests/badfiles") {
        if !case.is_dir() {
            continue;
        }
        count += 1;
        let name = case
            .file_name()
            .expect("name")
            .to_string_lossy()
            .to_string();
        let text = std::fs::read_to_string(case.join("expect.txt")).expect("expect.txt");
        let e = header(&text, "#");
        let limit = Duration::from_secs(e.timeout.unwrap_or(60));
        let o = run_bad_case(&case, limit);
        eprintln!("{name}: {:.1} s", o.took.as_secs_f64());
        // the file to name is the one `where:` points at (its file part)
        let shown = e
            .place
            .as_deref()
            .map(|p| p.rsplit_once(':').map(|(f, _)| f).unwrap_or(p).to_string())
            .unwrap_or_else(|| name.clone());
        if let Some(f) = judge(&name, &shown, &e, &o) {
            failures.push(f);
        }
    }
    assert!(count >= 10, "the bad-file corpus shrank to {count} cases");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[cfg(unix)]
#[test]
fn require_does_not_follow_a_symlink_out_of_the_ruleset() {
    let dir = crate::util::toy_copy("symlink-require");
    let outside = crate::util::scratch("symlink-outside");
    let secret = crate::util::write(&outside, "secret.lua", "return 'outside the ruleset'\n");
    std::os::unix::fs::symlink(&secret, dir.join("rules/evil.lua")).expect("symlink");
    std::os::unix::fs::symlink(&outside, dir.join("linked")).expect("symlink dir");
    for module in ["rules.evil", "linked.secret"] {
        let script = crate::util::write(
            &dir,
            "use.lua",
            &format!("\nprint(require(\"{module}\"))\n"),
        );
        let r = crate::util::kessel(&[
            "script",
            script.to_str().expect("utf8"),
            "--ruleset",
            dir.to_str().expect("utf8"),
        ]);
        assert_ne!(r.code, 0, "{module}: {}", r.stdout);
        assert!(!r.stdout.contains("outside the ruleset"), "{module}");
        assert!(
            r.stderr.contains("outside the ruleset folder") && r.stderr.contains("use.lua:2"),
            "{module}: {}",
            r.stderr
        );
    }
}

/// Inputs that never end (`/dev/zero`) or block for ever (a FIFO nobody writes), named as a
/// scenario, a map, a save or a report: each is refused at once, naming the path.
#[cfg(unix)]
#[test]
fn endless_and_blocking_inputs_are_refused_not_read() {
    let dir = crate::util::toy_copy("endless-inputs");
    let fifo = dir.join("pipe.toml");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo");
    let scenario = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("toy scenario");
    let devmap = text
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("map =") {
                "map = \"/dev/zero\"".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let devmap_scenario = crate::util::write(&dir, "devmap.toml", &devmap);
    let fifo_s = fifo.to_str().expect("utf8");
    let devmap_s = devmap_scenario.to_str().expect("utf8");
    for (args, named) in [
        (vec!["check", "/dev/zero"], "/dev/zero"),
        (vec!["check", fifo_s], fifo_s),
        (vec!["check", devmap_s], "/dev/zero"),
        (vec!["view", "/dev/zero", "--as", "red"], "/dev/zero"),
        (vec!["report", fifo_s], fifo_s),
        (vec!["script", fifo_s], fifo_s),
    ] {
        let o = run_limited(&args, Duration::from_secs(20));
        assert!(o.code.is_some_and(|c| c != 0), "{args:?}: {:?}", o.code);
        assert!(
            o.stderr.contains(named) && o.stderr.contains("not a"),
            "{args:?}: {}",
            o.stderr
        );
    }
}

/// Calls nested as deep as Lua allows between Lua and the engine (a query asking itself, from
/// the `ai` hook) end with Lua's "C stack overflow" error on a simulation worker thread too, not
/// with the thread's native stack overflowing (an abort).
#[test]
fn calls_nested_as_deep_as_lua_allows_fail_cleanly_on_worker_threads() {
    let dir = crate::util::toy_copy("nested-calls");
    let init = dir.join("init.lua");
    let mut text = std::fs::read_to_string(&init).expect("toy init");
    text.push_str(
        "\nkessel.queries.declare{ id = \"deep\", description = \"asks itself\",\n  \
         fn = function() return kessel.queries.ask(\"deep\", {}) end }\n",
    );
    std::fs::write(&init, text).expect("write init");
    let play = dir.join("rules/play.lua");
    let rules = std::fs::read_to_string(&play).expect("toy play rules");
    let hook = "kessel.on(\"ai\", function(legal, kinds, view, level, tiebreak)";
    assert!(rules.contains(hook), "the toy's ai hook");
    let rules = rules.replacen(
        hook,
        &format!("{hook}\n  kessel.queries.ask(\"deep\", {{}})"),
        1,
    );
    std::fs::write(&play, rules).expect("write play rules");
    let scenario = dir.join("scenario.toml");
    let o = run_limited(
        &[
            "simulate",
            scenario.to_str().expect("utf8"),
            "--games",
            "2",
            "--seed",
            "1",
            "-j",
            "2",
        ],
        Duration::from_secs(120),
    );
    assert!(o.code.is_some(), "killed by a signal: {}", o.stderr);
    assert!(
        o.stderr.contains("C stack overflow") && o.stderr.contains("init.lua:"),
        "{}",
        o.stderr
    );
}

/// Names and messages from a mod reach the terminal through `kessel check` and `kessel test`:
/// their control characters are shown as escapes (no screen cleared, no cursor moved back to
/// overwrite a line) and a test's name cannot start a line that looks like the runner's own.
#[test]
fn names_and_messages_cannot_steer_the_terminal() {
    let dir = crate::util::toy_copy("terminal-codes");
    let scenario = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("toy scenario");
    let text = text.replacen(
        "name = \"Toy battle\"",
        "name = \"\\u001b[2J\\u001b[1;32mToy battle\\r\\u202e\"",
        1,
    );
    assert!(text.contains("\\u001b[2J"), "the toy's scenario name");
    std::fs::write(&scenario, text).expect("write scenario");
    let init = dir.join("init.lua");
    let rules = std::fs::read_to_string(&init).expect("toy init");
    let rules = rules.replacen(
        "\"Defenders in woods are doubled\"",
        "\"Defenders in woods\\27[8m are doubled\"",
        1,
    );
    assert!(rules.contains("\\27[8m"), "the toy's option description");
    std::fs::write(&init, rules).expect("write init");
    let tests = crate::util::write(
        &dir,
        "tests/terminal_test.lua",
        "kessel.test(\"fine\\n7 passed, 0 failed\", function() end)\n\
         kessel.test(\"loud\", function() error(\"\\27[1;32mok\\27[0m\\r\", 0) end)\n",
    );
    let check = crate::util::kessel(&["check", scenario.to_str().expect("utf8")]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    let test = crate::util::kessel(&[
        "test",
        tests.to_str().expect("utf8"),
        "--scenario",
        scenario.to_str().expect("utf8"),
    ]);
    let listed = crate::util::kessel(&["rules", scenario.to_str().expect("utf8")]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    assert!(
        listed.stdout.contains("woods\\u{1b}[8m are"),
        "{}",
        listed.stdout
    );
    let view = crate::util::kessel(&["view", scenario.to_str().expect("utf8"), "--as", "red"]);
    assert_eq!(view.code, 0, "{}", view.stderr);
    for (what, out) in [
        ("check", &check.stdout),
        ("test", &test.stdout),
        ("rules", &listed.stdout),
        ("view", &view.stdout),
    ] {
        assert!(
            !out.contains(['\u{1b}', '\r', '\u{202e}']),
            "{what} printed raw control characters: {out:?}"
        );
    }
    assert!(
        check
            .stdout
            .contains("\\u{1b}[2J\\u{1b}[1;32mToy battle\\u{d}\\u{202e}"),
        "{}",
        check.stdout
    );
    assert!(
        !test
            .stdout
            .lines()
            .any(|l| l.trim() == "7 passed, 0 failed"),
        "a test name forged the summary line:\n{}",
        test.stdout
    );
    assert!(
        test.stdout.contains("fine\\u{a}7 passed, 0 failed")
            && test.stdout.contains("\\u{1b}[1;32mok\\u{1b}[0m\\u{d}")
            && test.stdout.contains("1 passed, 1 failed"),
        "{}",
        test.stdout
    );
}

/// Symbolic links back up the tree in a tests folder (two of them: the walk doubled at every
/// level) are followed once: `kessel test` runs each test file once and ends.
#[cfg(unix)]
#[test]
fn test_folders_with_link_loops_are_walked_once() {
    let dir = crate::util::toy_copy("test-link-loops");
    let plain = crate::util::kessel(&["test", dir.to_str().expect("utf8")]);
    std::os::unix::fs::symlink("..", dir.join("tests/up")).expect("symlink");
    std::os::unix::fs::symlink("..", dir.join("tests/up_again")).expect("symlink");
    std::os::unix::fs::symlink(".", dir.join("tests/here")).expect("symlink");
    let tests = dir.join("tests");
    let o = run_limited(
        &["test", tests.to_str().expect("utf8")],
        Duration::from_secs(120),
    );
    assert!(!o.killed, "kessel test still walking after {:?}", o.took);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let summary = |s: &str| s.lines().last().unwrap_or("").to_string();
    // run_limited keeps stderr only: compare with a plain run's summary through the count of files
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    let again = crate::util::kessel(&["test", tests.to_str().expect("utf8")]);
    assert_eq!(
        summary(&again.stdout),
        summary(&plain.stdout),
        "{}",
        again.stdout
    );
}

/// A link in a tests folder that leads out of the folder tested is not followed: `tests/x -> /`
/// walked the whole file system, running every `.lua` it found as a test.
#[cfg(unix)]
#[test]
fn test_folders_do_not_follow_links_out_of_the_folder() {
    let dir = crate::util::toy_copy("test-link-out");
    let elsewhere = crate::util::scratch("test-link-out-elsewhere");
    crate::util::write(
        &elsewhere,
        "evil_test.lua",
        "kessel.test(\"linked_from_elsewhere\", function() error(\"a test outside the folder ran\") end)\n",
    );
    std::os::unix::fs::symlink(&elsewhere, dir.join("tests/elsewhere")).expect("symlink");
    std::os::unix::fs::symlink(
        elsewhere.join("evil_test.lua"),
        dir.join("tests/evil_test.lua"),
    )
    .expect("symlink");
    let o = crate::util::kessel(&["test", dir.to_str().expect("utf8")]);
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    assert!(!o.stdout.contains("linked_from_elsewhere"), "{}", o.stdout);
    assert!(
        o.stderr
            .contains("is a link out of the folder tested; not followed"),
        "{}",
        o.stderr
    );
}

/// The one rule for the paths data files name (`kessel_core::fsio::named_path`): a relative one
/// from the naming file's folder, all of the field's kind. A scenario's profile file is read
/// beside the scenario (it was read from the working folder), and a campaign's game or profile
/// and a save's scenario that name another kind of file are refused naming the file and the
/// field, before anything is read.
#[test]
fn paths_named_by_data_files_follow_one_rule() {
    let dir = crate::util::toy_copy("named-paths");
    let scenario = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("toy scenario");
    assert!(
        text.contains("profile = \"standard\""),
        "the toy names a profile"
    );
    crate::util::write(
        &dir,
        "mine.toml",
        &std::fs::read_to_string(dir.join("profiles/open.toml")).expect("open profile"),
    );
    std::fs::write(
        &scenario,
        text.replace("profile = \"standard\"", "profile = \"mine.toml\""),
    )
    .expect("write scenario");
    // run from the repository's root, far from the scenario's folder
    let s = scenario.to_str().expect("utf8");
    let ok = crate::util::kessel(&["check", s]);
    assert_eq!(ok.code, 0, "a profile beside the scenario: {}", ok.stderr);

    let chain = crate::util::write(
        &dir,
        "chain.toml",
        "name = \"x\"\n[[game]]\nscenario = \"scenario.toml\"\n\
         [[game]]\nscenario = \"../../../../../../../etc/passwd\"\n",
    );
    let r = crate::util::kessel(&["campaign", chain.to_str().expect("utf8"), "--seed", "1"]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains("chain.toml:5")
            && r.stderr.contains("game 2 `scenario`")
            && r.stderr.contains("is not a .toml file"),
        "{}",
        r.stderr
    );
    let chain = crate::util::write(
        &dir,
        "chain2.toml",
        "name = \"x\"\n[[game]]\nscenario = \"scenario.toml\"\nprofile = \"/etc/passwd\"\n",
    );
    let r = crate::util::kessel(&["campaign", chain.to_str().expect("utf8"), "--seed", "1"]);
    assert!(
        r.code != 0
            && r.stderr.contains("chain2.toml:4")
            && r.stderr.contains("game 1 `profile`")
            && r.stderr.contains("`/etc/passwd` is not a .toml file"),
        "{}",
        r.stderr
    );

    let save = dir.join("game.json");
    let play = crate::util::write(&dir, "play.lua", "print('nothing played')\n");
    let r = crate::util::kessel(&[
        "script",
        play.to_str().expect("utf8"),
        "--scenario",
        s,
        "--save",
        save.to_str().expect("utf8"),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let saved = std::fs::read_to_string(&save).expect("save written");
    let mut json: serde_json::Value = serde_json::from_str(&saved).expect("save is JSON");
    json["scenario"] = serde_json::Value::String("/etc/passwd".into());
    crate::util::resign_save(&mut json);
    std::fs::write(&save, json.to_string()).expect("edit save");
    let r = crate::util::kessel(&["view", save.to_str().expect("utf8"), "--as", "red"]);
    assert!(
        r.code != 0
            && r.stderr.contains("game.json")
            && r.stderr
                .contains("`scenario`: `/etc/passwd` is not a .toml file"),
        "{}",
        r.stderr
    );
}

/// A lab data file of `games` toy games (seeds from 1) made by `kessel simulate --out` in a toy
/// copy named `name`: its path and text, for a test to edit.
pub(crate) fn toy_lab_data(name: &str, games: &str) -> (PathBuf, String) {
    let dir = crate::util::toy_copy(name);
    let data = dir.join("d.jsonl");
    let r = crate::util::kessel(&[
        "simulate",
        dir.join("scenario.toml").to_str().expect("utf8"),
        "--games",
        games,
        "--seed",
        "1",
        "--out",
        data.to_str().expect("utf8"),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(&data).expect("data written");
    (data, text)
}

/// A lab data file is anyone's text: a victory level or profile name holding escape codes is
/// shown escaped by `kessel report` (it cleared the screen and printed over the table).
#[test]
fn report_shows_control_characters_in_data_files_escaped() {
    let (data, text) = toy_lab_data("report-terminal", "1");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut game: serde_json::Value = serde_json::from_str(&lines[1]).expect("a game record");
    game["level"] = serde_json::Value::String("\u{1b}[2J\u{1b}[HAll good".into());
    lines[1] = game.to_string();
    std::fs::write(&data, lines.join("\n") + "\n").expect("edit data");
    let r = crate::util::kessel(&["report", data.to_str().expect("utf8")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        !r.stdout.contains('\u{1b}') && r.stdout.contains("\\u{1b}[2J"),
        "{}",
        r.stdout
    );
}

/// A lab data file edited to hold a score of 1e308 VP made the report print `sd inf` and
/// intervals of ±inf: numbers out of bounds are refused with the file and line.
#[test]
fn report_refuses_game_records_with_numbers_out_of_bounds() {
    let (data, text) = toy_lab_data("report-huge", "2");
    let lines: Vec<&str> = text.lines().collect();
    let mut game: serde_json::Value = serde_json::from_str(lines[2]).expect("a game record");
    let side = game["scores"]
        .as_object()
        .and_then(|m| m.keys().next().cloned())
        .expect("a side's score");
    game["scores"][&side] = serde_json::json!(1e308);
    let edited = [lines[0], lines[1], &game.to_string()].join("\n") + "\n";
    std::fs::write(&data, edited).expect("edit data");
    let r = crate::util::kessel(&["report", data.to_str().expect("utf8")]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains("d.jsonl:3")
            && r.stderr
                .contains(&format!("the score of `{side}` is 1e308"))
            && r.stderr.contains("within ±1e9"),
        "{}",
        r.stderr
    );
    assert!(!r.stdout.contains("inf"), "{}", r.stdout);
}

/// A game record pasted twice into a lab data file counted twice in every statistic (two shards
/// given twice were refused, one file holding a record twice was not).
#[test]
fn report_refuses_a_game_recorded_twice_in_one_file() {
    let (data, text) = toy_lab_data("report-twice", "2");
    let lines: Vec<&str> = text.lines().collect();
    let twice = [lines[0], lines[1], lines[2], lines[1]].join("\n") + "\n";
    std::fs::write(&data, twice).expect("edit data");
    let r = crate::util::kessel(&["report", data.to_str().expect("utf8")]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains("d.jsonl:4") && r.stderr.contains("recorded twice (first on line 2)"),
        "{}",
        r.stderr
    );
}

/// A data file whose last record is cut short (a run stopped while writing it) says so and what
/// to do, instead of a parser's "EOF while parsing an object at line 1 column 564".
#[test]
fn report_says_a_cut_last_record_is_cut_and_what_to_do() {
    let (data, text) = toy_lab_data("report-cut", "2");
    let cut = &text[..text.len() - 40];
    std::fs::write(&data, cut).expect("edit data");
    let r = crate::util::kessel(&["report", data.to_str().expect("utf8")]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains("d.jsonl:3: the last record is cut short")
            && r.stderr
                .contains("delete that line to report the 1 games before it"),
        "{}",
        r.stderr
    );
    // a record broken in the middle of the file is no cut: it is said as bad JSON
    let lines: Vec<&str> = text.lines().collect();
    let broken = [lines[0], &lines[1][..20], lines[2]].join("\n") + "\n";
    std::fs::write(&data, broken).expect("edit data");
    let r = crate::util::kessel(&["report", data.to_str().expect("utf8")]);
    assert!(r.stderr.contains("d.jsonl:2: not JSON"), "{}", r.stderr);
}

/// An `ai` hook of a mod that returns garbage under `kessel simulate` ends the run with an error
/// naming the hook's file and line, and an action it made up is quoted by its start: a made-up
/// action holding a million numbers filled the message's whole 16 KiB with them.
#[test]
fn an_ai_hook_returning_garbage_is_named_and_quoted_briefly() {
    let cases = [
        (
            "return { kind = \"fly\", to = \"moon\" }",
            "chose a `fly` action that no `legal` call listed",
        ),
        (
            "local a = legal()[1] local t = {} for i = 1, 1e6 do t[i] = i end a.junk = t return a",
            "an action is over the size limit (1048576 bytes",
        ),
        ("return 42", "returned the number 42"),
        ("while true do end", "instruction budget exceeded"),
        ("return coroutine.yield(1)", "attempt to yield"),
    ];
    for (i, (body, needle)) in cases.iter().enumerate() {
        let dir = crate::util::toy_copy(&format!("ai-garbage-{i}"));
        let init = dir.join("init.lua");
        let text = std::fs::read_to_string(&init).expect("toy init.lua");
        // the first `ai` hook registered is the one used: this one goes before the toy's
        let hook = format!(
            "kessel.on(\"ai\", function(legal, kinds, view, level, tiebreak) {body} end)\n"
        );
        let text = text.replacen(
            "require(\"rules.play\")",
            &format!("{hook}require(\"rules.play\")"),
            1,
        );
        std::fs::write(&init, text).expect("write");
        let line = std::fs::read_to_string(&init)
            .expect("read")
            .lines()
            .position(|l| l.starts_with("kessel.on(\"ai\""))
            .expect("the hook")
            + 1;
        let scenario = dir.join("scenario.toml");
        let o = run_limited(
            &["simulate", &scenario.to_string_lossy(), "--games", "1"],
            Duration::from_secs(60),
        );
        assert!(!o.killed, "{body}: hung");
        assert_ne!(o.code, Some(0), "{body}: accepted");
        assert!(o.stderr.contains(needle), "{body}: {}", o.stderr);
        assert!(
            o.stderr.contains(&format!("init.lua:{line}")),
            "{body}: {}",
            o.stderr
        );
        assert!(
            o.stderr.len() < 2000,
            "{body}: {} bytes of error",
            o.stderr.len()
        );
        assert!(!o.stderr.contains("panicked"), "{body}: {}", o.stderr);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A lab data file saved by an editor that puts a byte-order mark first reads like any other
/// file Kessel reads (it was "not JSON: expected value at line 1 column 1").
#[test]
fn report_reads_a_data_file_that_starts_with_a_byte_order_mark() {
    let (data, text) = toy_lab_data("report-bom", "2");
    let plain = crate::util::kessel(&["report", data.to_str().expect("utf8")]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    std::fs::write(&data, format!("\u{feff}{text}")).expect("write");
    let r = crate::util::kessel(&["report", data.to_str().expect("utf8")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, plain.stdout);
}

/// A game record's VP are by the header's sides: a side only a hand-edited record names (`green`)
/// became a VP row of its own in the report.
#[test]
fn report_refuses_vp_of_a_side_the_header_does_not_have() {
    let (data, text) = toy_lab_data("report-vp-side", "2");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut game: serde_json::Value = serde_json::from_str(&lines[1]).expect("a game record");
    game["scores"]["green"] = serde_json::json!(5);
    lines[1] = game.to_string();
    std::fs::write(&data, lines.join("\n") + "\n").expect("write");
    let r = crate::util::kessel(&["report", data.to_str().expect("utf8")]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stderr.contains("d.jsonl:2:")
            && r.stderr.contains("VP of `green`, no side of the header's"),
        "{}",
        r.stderr
    );
}
