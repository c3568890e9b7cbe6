//! A sampling profiler of scripts, for developers (`KESSEL_LUAPROF=FILE kessel simulate …`).
//!
//! The budget hook runs every 1,000 VM instructions; with the variable set, every tenth run charges
//! the wall time since the previous sample to the Lua stack it sees: to the line running (self),
//! and to every function and every calling line on the stack (inclusive). Time spent in a native
//! call (`kessel.paths.*`, unit reads) lands on the Lua line after the call returns, and time
//! outside scripts is not counted (the clock restarts at each call from Rust into Lua). Each
//! thread writes its totals to `FILE.ThreadIdN` (percentages of the profiled time, then sample
//! counts: a sample is ~10,000 instructions), now and then while it runs and when it ends. Frames
//! of tail calls do not show. Without the variable the hook only looks at an empty thread-local.
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Instant;

/// Hook runs per sample.
const EVERY: u64 = 10;
/// Samples between two writes of the totals.
const WRITE_EVERY: u64 = 100;

/// Samples and time charged to one key.
type Tally = HashMap<String, (u64, u128)>;

struct Prof {
    path: String,
    last: Instant,
    runs: u64,
    samples: u64,
    total_ns: u128,
    self_line: Tally,
    incl_fn: Tally,
    incl_line: Tally,
}

impl Prof {
    fn write(&self) {
        let mut out = format!(
            "samples {} total_ms {}\n",
            self.samples,
            self.total_ns / 1_000_000
        );
        let total = self.total_ns.max(1) as f64;
        for (title, tally, limit) in [
            ("inclusive by function", &self.incl_fn, 200),
            ("inclusive by line", &self.incl_line, 300),
            ("self by line", &self.self_line, 200),
        ] {
            let _ = writeln!(out, "## {title}");
            let mut rows: Vec<_> = tally.iter().collect();
            rows.sort_by(|a, b| b.1 .1.cmp(&a.1 .1).then(a.0.cmp(b.0)));
            for (key, (n, ns)) in rows.into_iter().take(limit) {
                let _ = writeln!(out, "{:6.2}% {n:8} {key}", *ns as f64 * 100.0 / total);
            }
        }
        let name =
            format!("{}.{:?}", self.path, std::thread::current().id()).replace(['(', ')'], "");
        let tmp = format!("{name}.tmp");
        if std::fs::write(&tmp, out).is_ok() {
            let _ = std::fs::rename(&tmp, &name);
        }
    }
}

impl Drop for Prof {
    fn drop(&mut self) {
        self.write();
    }
}

thread_local! {
    static PROF: RefCell<Option<Prof>> = RefCell::new(
        std::env::var("KESSEL_LUAPROF").ok().filter(|p| !p.is_empty()).map(|path| Prof {
            path,
            last: Instant::now(),
            runs: 0,
            samples: 0,
            total_ns: 0,
            self_line: HashMap::new(),
            incl_fn: HashMap::new(),
            incl_line: HashMap::new(),
        })
    );
}

/// A call from Rust into Lua starts: the time before it was not the scripts'.
pub(crate) fn restart() {
    PROF.with(|p| {
        if let Ok(mut p) = p.try_borrow_mut() {
            if let Some(p) = p.as_mut() {
                p.last = Instant::now();
            }
        }
    });
}

/// A script path from `scripts/` on (the rest of it says nothing).
fn short(s: &str) -> &str {
    match s.rfind("scripts/") {
        Some(i) => &s[i + 8..],
        None => s,
    }
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

/// One run of the budget hook.
pub(crate) fn sample(lua: &mlua::Lua) {
    PROF.with(|p| {
        let Ok(mut b) = p.try_borrow_mut() else {
            return;
        };
        let Some(p) = b.as_mut() else { return };
        p.runs += 1;
        if p.runs % EVERY != 0 {
            return;
        }
        let now = Instant::now();
        let dt = now.duration_since(p.last).as_nanos();
        p.last = now;
        p.samples += 1;
        p.total_ns += dt;
        // each key once per sample, however deep the recursion
        let mut seen: Vec<String> = Vec::new();
        for level in 0..64 {
            let Some((src, defined, line, name)) = lua.inspect_stack(level, |d| {
                let s = d.source();
                (
                    s.short_src.map(|x| x.to_string()).unwrap_or_default(),
                    s.line_defined.unwrap_or(0),
                    d.current_line().unwrap_or(0),
                    d.names().name.map(|x| x.to_string()).unwrap_or_default(),
                )
            }) else {
                break;
            };
            let src = short(&src);
            let at = format!("{src}:{line}");
            if level == 0 {
                charge(&mut p.self_line, &at, dt);
            }
            if !seen.contains(&at) {
                charge(&mut p.incl_line, &at, dt);
                seen.push(at);
            }
            let func = format!("{src}:{defined} {name}");
            if !seen.contains(&func) {
                charge(&mut p.incl_fn, &func, dt);
                seen.push(func);
            }
        }
        if p.samples % WRITE_EVERY == 0 {
            p.write();
        }
    });
}
