//! Where scripts spend their time: a sampling profiler of the Lua code a thread runs, for modders
//! whose rules or computer player are slow (`kessel simulate --lua-profile FILE`, `kessel script
//! --lua-profile FILE`).
//!
//! It rides on the budget hook, which runs every [`super::HOOK_EVERY`] VM instructions: while a
//! profile is under way on the thread ([`start`]), every [`EVERY`]th run charges the time since
//! the previous sample (CPU time where the system gives it) to the Lua stack it sees — to the line running (self time), and to every
//! function and every calling line on the stack (inclusive time). Only time inside scripts is
//! counted: the clock restarts at each call from Rust into Lua ([`restart`]). So the time of a
//! native call (`kessel.paths.reach`, a unit read) lands on the Lua line that made it, and the
//! engine's own work between calls lands nowhere. Frames of tail calls do not show, as Lua keeps
//! none. Without a profile under way the hook only looks at an empty thread-local.
//!
//! A profile belongs to a thread; [`LuaProfile::merge`] adds up the profiles of several (the
//! workers of a simulation) and [`LuaProfile::report`] writes the text people read.
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Instant;

/// The profile's clock: the thread's CPU time where the system gives it (time the thread sat
/// waiting for a core is nobody's), wall time elsewhere. Nanoseconds, from an arbitrary start.
fn now_ns() -> u128 {
    thread_local! {
        static WALL_START: Instant = Instant::now();
    }
    crate::cpu_time::thread_cpu_ns()
        .unwrap_or_else(|| WALL_START.with(|start| start.elapsed().as_nanos()))
}

/// Budget-hook runs per sample: a sample every ~10,000 instructions keeps the profiler's own
/// cost (a walk of the stack) to a small share of the run.
pub const EVERY: u64 = 10;

/// The deepest stack level a sample looks at (deeper frames are not charged).
const DEEPEST: usize = 64;

/// Samples and nanoseconds charged to one key.
type Tally = HashMap<String, (u64, u128)>;

/// What a profile gathered: samples and time, by function (inclusive), by line (inclusive) and
/// by line (self).
#[derive(Clone, Debug, Default)]
pub struct LuaProfile {
    samples: u64,
    total_ns: u128,
    functions: Tally,
    lines: Tally,
    self_lines: Tally,
}

/// One row of a profile: a function or a line, with its share of the profiled time.
#[derive(Clone, Debug, PartialEq)]
pub struct ProfileRow {
    /// `file:line name` for a function (the line where it is defined, the name it was called
    /// by), `file:line` for a line; `[C] name` for a native function.
    pub key: String,
    /// Samples that saw it.
    pub samples: u64,
    /// Seconds charged to it.
    pub seconds: f64,
    /// Its share of all the profiled time, from 0 to 1.
    pub share: f64,
}

impl LuaProfile {
    /// Samples taken.
    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// Seconds of script time the samples cover.
    pub fn seconds(&self) -> f64 {
        self.total_ns as f64 / 1e9
    }

    /// Adds another thread's profile to this one.
    pub fn merge(&mut self, other: &LuaProfile) {
        self.samples += other.samples;
        self.total_ns += other.total_ns;
        for (mine, theirs) in [
            (&mut self.functions, &other.functions),
            (&mut self.lines, &other.lines),
            (&mut self.self_lines, &other.self_lines),
        ] {
            for (key, (n, ns)) in theirs {
                let e = mine.entry(key.clone()).or_insert((0, 0));
                e.0 += n;
                e.1 += ns;
            }
        }
    }

    /// Functions by the time spent in them and in what they call, most first.
    pub fn functions(&self) -> Vec<ProfileRow> {
        self.rows(&self.functions)
    }

    /// Lines by the time spent on them and in what they call, most first.
    pub fn lines(&self) -> Vec<ProfileRow> {
        self.rows(&self.lines)
    }

    /// Lines by the time spent on them alone, most first.
    pub fn self_lines(&self) -> Vec<ProfileRow> {
        self.rows(&self.self_lines)
    }

    /// Files by the time spent on their lines alone, most first: what each file costs by itself
    /// (the shares add up to the whole).
    pub fn files(&self) -> Vec<ProfileRow> {
        let mut by_file = Tally::new();
        for (line, (n, ns)) in &self.self_lines {
            let file = line.rsplit_once(':').map_or(line.as_str(), |(f, _)| f);
            let e = by_file.entry(file.to_string()).or_insert((0, 0));
            e.0 += n;
            e.1 += ns;
        }
        self.rows(&by_file)
    }

    fn rows(&self, tally: &Tally) -> Vec<ProfileRow> {
        let total = self.total_ns.max(1) as f64;
        let mut rows: Vec<ProfileRow> = tally
            .iter()
            .map(|(key, (n, ns))| ProfileRow {
                key: key.clone(),
                samples: *n,
                seconds: *ns as f64 / 1e9,
                share: *ns as f64 / total,
            })
            .collect();
        // (ties by key: the same profile always reads the same)
        rows.sort_by(|a, b| b.seconds.total_cmp(&a.seconds).then(a.key.cmp(&b.key)));
        rows
    }

    /// The report people read: what was measured and how, then the `rows` most costly functions,
    /// lines with what they call, and lines alone.
    pub fn report(&self, rows: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Lua profile: {} samples over {:.3} s of script time (a sample every ~{},000 VM instructions).",
            self.samples,
            self.seconds(),
            EVERY * u64::from(super::HOOK_EVERY) / 1000
        );
        out.push_str(
            "Time counts only while scripts run (CPU time where the system gives it); a native \
             call's time (kessel.paths.reach, a unit read) is charged to the Lua line that made \
             it. A call from the engine into the scripts is seen from its start to its last \
             sample, so calls shorter than a sample (a hook of a few hundred instructions) count \
             for less than they cost. Inclusive time is a function's or a line's own plus that of \
             everything it calls: the shares of one table do not add up to 100%.\n",
        );
        if self.samples == 0 {
            out.push_str(
                "\nNo samples: the scripts ran fewer instructions than one sample takes.\n",
            );
            return out;
        }
        for (title, list) in [
            ("Files alone (self time of their lines)", self.files()),
            ("Functions, with what they call", self.functions()),
            ("Lines, with what they call", self.lines()),
            ("Lines alone (self time)", self.self_lines()),
        ] {
            let _ = writeln!(out, "\n## {title}\n");
            let _ = writeln!(out, " share   seconds  samples  where");
            for r in list.iter().take(rows) {
                let _ = writeln!(
                    out,
                    "{:5.1}%  {:8.3}  {:7}  {}",
                    r.share * 100.0,
                    r.seconds,
                    r.samples,
                    r.key
                );
            }
            if list.len() > rows {
                let _ = writeln!(out, "  … {} more", list.len() - rows);
            }
        }
        out
    }
}

/// A profile under way on this thread.
struct Recorder {
    last: u128,
    runs: u64,
    profile: LuaProfile,
}

thread_local! {
    static RECORDER: RefCell<Option<Recorder>> = const { RefCell::new(None) };
}

/// Starts profiling the scripts this thread runs (every host on it), from nothing: a profile
/// already under way is dropped.
pub fn start() {
    RECORDER.with(|r| {
        *r.borrow_mut() = Some(Recorder {
            last: now_ns(),
            runs: 0,
            profile: LuaProfile::default(),
        });
    });
}

/// Stops profiling this thread and returns what was gathered since [`start`] (`None` when no
/// profile was under way).
pub fn finish() -> Option<LuaProfile> {
    RECORDER.with(|r| r.borrow_mut().take().map(|rec| rec.profile))
}

/// A call from Rust into Lua starts: the time before it was not the scripts'.
pub(crate) fn restart() {
    RECORDER.with(|r| {
        if let Ok(mut r) = r.try_borrow_mut() {
            if let Some(r) = r.as_mut() {
                r.last = now_ns();
            }
        }
    });
}

fn charge(tally: &mut Tally, key: &str, dt: u128) {
    match tally.get_mut(key) {
        Some(e) => {
            e.0 += 1;
            e.1 += dt;
        }
        None => {
            tally.insert(key.to_string(), (1, dt));
        }
    }
}

/// Where a stack frame's code is: the chunk's name as loaded (a script's path), `[C]` for native
/// code.
fn place(source: &mlua::debug::DebugSource) -> String {
    match source.source.as_deref() {
        Some(s) if s.starts_with('@') || s.starts_with('=') => s[1..].to_string(),
        None => "[C]".to_string(),
        // (a chunk loaded from a string names itself by its text: the short form is enough)
        Some(_) => source
            .short_src
            .as_deref()
            .unwrap_or("[string]")
            .to_string(),
    }
}

/// One run of the budget hook.
pub(crate) fn sample(lua: &mlua::Lua) {
    RECORDER.with(|r| {
        let Ok(mut b) = r.try_borrow_mut() else {
            return;
        };
        let Some(rec) = b.as_mut() else { return };
        rec.runs += 1;
        if rec.runs % EVERY != 0 {
            return;
        }
        let now = now_ns();
        let dt = now.saturating_sub(rec.last);
        rec.last = now;
        let p = &mut rec.profile;
        p.samples += 1;
        p.total_ns += dt;
        // each key once per sample, however deep the recursion
        let mut seen: Vec<String> = Vec::new();
        for level in 0..DEEPEST {
            let Some((src, defined, line, name)) = lua.inspect_stack(level, |d| {
                let s = d.source();
                (
                    place(&s),
                    s.line_defined.unwrap_or(0),
                    d.current_line(),
                    d.names().name.map(|x| x.to_string()),
                )
            }) else {
                break;
            };
            let name = name.unwrap_or_else(|| "(anonymous)".into());
            let func = if src == "[C]" {
                format!("[C] {name}")
            } else if defined == 0 {
                format!("{src} (main chunk)")
            } else {
                format!("{src}:{defined} {name}")
            };
            if let Some(line) = line.filter(|_| src != "[C]") {
                let at = format!("{src}:{line}");
                if level == 0 {
                    charge(&mut p.self_lines, &at, dt);
                }
                if !seen.contains(&at) {
                    charge(&mut p.lines, &at, dt);
                    seen.push(at);
                }
            }
            if !seen.contains(&func) {
                charge(&mut p.functions, &func, dt);
                seen.push(func);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(samples: u64, ns: u128, key: &str) -> LuaProfile {
        let mut p = LuaProfile {
            samples,
            total_ns: ns,
            ..LuaProfile::default()
        };
        p.functions.insert(key.into(), (samples, ns));
        p.lines.insert(format!("{key}:1"), (samples, ns));
        p.self_lines.insert(format!("{key}:1"), (samples, ns));
        p
    }

    #[test]
    fn merged_profiles_add_up_samples_and_time_per_key() {
        let mut a = profile(3, 3_000, "a.lua:1 f");
        a.merge(&profile(1, 1_000, "a.lua:1 f"));
        a.merge(&profile(4, 4_000, "b.lua:9 g"));
        assert_eq!(a.samples(), 8);
        let rows = a.functions();
        assert_eq!(rows[0].key, "a.lua:1 f");
        assert_eq!(rows[0].samples, 4);
        assert_eq!(rows[1].key, "b.lua:9 g");
        assert!((rows[0].share - 0.5).abs() < 1e-9);
    }

    #[test]
    fn the_function_and_line_that_run_the_most_come_first() {
        let host = crate::script::ScriptHost::new(
            std::path::Path::new("/nonexistent"),
            crate::script::Limits {
                memory: 32 << 20,
                instructions: 500_000_000,
                ..crate::script::Limits::default()
            },
        )
        .expect("host");
        let text = "local function hot(n)\n\
                    local s = 0\n\
                    for i = 1, n do s = s + i % 7 end\n\
                    return s\n\
                    end\n\
                    local function cold() return 1 end\n\
                    for _ = 1, 30 do hot(20000); cold() end\n";
        // not profiled: nothing gathered
        host.run_text("warm.lua", text).expect("runs");
        assert!(finish().is_none());
        start();
        host.run_text("hot.lua", text).expect("runs");
        let p = finish().expect("a profile under way");
        assert!(p.samples() > 20, "{} samples", p.samples());
        let functions = p.functions();
        let hot = functions
            .iter()
            .find(|r| r.key == "hot.lua:1 hot")
            .unwrap_or_else(|| panic!("no row for hot: {functions:?}"));
        assert!(hot.share > 0.9, "{hot:?}");
        assert!(!functions.iter().any(|r| r.key.contains("cold")));
        assert_eq!(p.self_lines()[0].key, "hot.lua:3");
        assert_eq!(p.files()[0].key, "hot.lua");
        assert!(p.files()[0].share > 0.9);
        let report = p.report(5);
        assert!(report.contains("hot.lua:1 hot"), "{report}");
        // stopped: the next run adds nothing
        host.run_text("hot.lua", text).expect("runs");
        assert!(finish().is_none());
    }

    #[test]
    fn an_empty_profile_says_there_were_no_samples() {
        let text = LuaProfile::default().report(10);
        assert!(text.contains("No samples"), "{text}");
    }
}
