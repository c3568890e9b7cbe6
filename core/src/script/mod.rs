//! The sandboxed Lua host: one `mlua::Lua` per loaded ruleset, with no `io`, `os`, `debug`,
//! binary chunks or outside modules, a memory limit, and an instruction budget per call.
//!
//! **Boundary:** all bindings live in [`api`], one file per `kessel.*` module; nothing else in the
//! core touches mlua. A fresh host can be built from the files at any time (hot reload): rules hold
//! no game state.

pub mod api;
mod error;
pub mod profile;
// the core's only unsafe code: the Lua state's allocator (see the module)
#[allow(unsafe_code)]
mod memory;
mod strlib;

pub(crate) use error::bare as bare_error;
use error::innermost;
pub use error::ScriptError;
use mlua::{HookTriggers, Lua, LuaOptions, StdLib, VmState};
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
pub(crate) use strlib::Held;
use strlib::{Meter, Spent};

/// Resource limits for scripts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Heap limit for the Lua state, in bytes.
    pub memory: usize,
    /// VM instructions allowed per call from Rust into Lua.
    pub instructions: u64,
    /// Wall-clock time allowed per call from Rust into Lua: a safety net for work that the
    /// instruction count cannot see — one `..` of two big strings is one instruction however many
    /// megabytes it copies — checked with the budget (every thousand instructions). Far above
    /// what any rule call takes (the instruction budget runs out in a second or two), so the
    /// same commands give the same game on any machine.
    pub wall: std::time::Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory: 256 << 20,
            instructions: 200_000_000,
            wall: std::time::Duration::from_secs(10),
        }
    }
}

/// A switch that another thread flips to stop the rule call running on an engine, as if it had
/// run out of budget: the call raises at its next budget check (every thousand Lua instructions,
/// and in the API's native work) and stays stopped until [`Stopper::reset`]. The editor's *Stop*
/// for a computer player thinking on its own thread is one. Clones share the switch.
#[derive(Clone, Debug, Default)]
pub struct Stopper(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Stopper {
    /// Asks the running call, and every call after it until [`Stopper::reset`], to stop.
    pub fn stop(&self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Lets calls run again.
    pub fn reset(&self) {
        self.0.store(false, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether calls are being stopped.
    pub fn is_stopped(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// The Lua state with its sandbox and limits.
pub struct ScriptHost {
    /// Declared before `lua`: it is dropped first, putting mlua's allocator back while the
    /// state is still open.
    heap: memory::LimitedHeap,
    lua: Lua,
    root: PathBuf,
    limits: Limits,
    used: Rc<Cell<u64>>,
    spent: Rc<Cell<Spent>>,
    depth: Rc<Cell<u32>>,
    last_seen: Rc<std::cell::RefCell<Option<(String, usize)>>>,
    stopper: Stopper,
    started: Rc<Cell<std::time::Instant>>,
    held: Rc<Cell<usize>>,
}

impl std::fmt::Debug for ScriptHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptHost")
            .field("root", &self.root)
            .field("limits", &self.limits)
            .finish()
    }
}

const HOOK_EVERY: u32 = 1000;

/// What one `load` is charged besides its length (four units a byte): compiling even the
/// shortest chunk takes a few microseconds, the time of some hundreds of VM instructions.
const LOAD_CHARGE: u64 = 1000;

/// Lua's collector pause, in percent of the heap the last cycle kept (see [`ScriptHost::new`]).
const GC_PAUSE: i32 = 400;

/// The stack a thread needs to run rules on: Lua lets calls nest about 200 deep between Lua and
/// the engine (a query asking a query, a hook acting, …) before it raises "C stack overflow", and
/// each nesting costs native frames, far more in a debug build than the 2 MiB a spawned thread
/// gets by default (the main thread has 8 MiB). Only the pages used are committed.
pub const RULES_THREAD_STACK: usize = 64 << 20;

/// A thread builder for a thread that runs rules: named, with [`RULES_THREAD_STACK`].
pub fn rules_thread(name: impl Into<String>) -> std::thread::Builder {
    std::thread::Builder::new()
        .name(name.into())
        .stack_size(RULES_THREAD_STACK)
}

impl ScriptHost {
    /// A fresh sandboxed state whose `require` and `dofile`-like loading stay inside `root`.
    pub fn new(root: &Path, limits: Limits) -> Result<ScriptHost, ScriptError> {
        ScriptHost::with_stopper(root, limits, Stopper::default())
    }

    /// [`ScriptHost::new`] whose calls `stopper` can stop from another thread.
    pub fn with_stopper(
        root: &Path,
        limits: Limits,
        stopper: Stopper,
    ) -> Result<ScriptHost, ScriptError> {
        let lua = Lua::new_with(
            StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE,
            LuaOptions::default(),
        )
        .map_err(|e| ScriptError::plain(format!("cannot create Lua state: {e}")))?;
        let used = Rc::new(Cell::new(0));
        let heap = memory::LimitedHeap::install(&lua, limits.memory, used.clone())
            .map_err(|e| ScriptError::plain(format!("cannot limit Lua's memory: {e}")))?;
        let host = ScriptHost {
            heap,
            lua,
            // a ruleset in the working folder can come as the empty path (the parent of
            // `scenario.toml`), which the OS cannot resolve: `require` needs it as `.`
            root: if root.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                root.to_path_buf()
            },
            limits,
            used,
            spent: Rc::new(Cell::new(Spent::No)),
            depth: Rc::new(Cell::new(0)),
            last_seen: Rc::new(std::cell::RefCell::new(None)),
            stopper,
            started: Rc::new(Cell::new(std::time::Instant::now())),
            held: Rc::new(Cell::new(0)),
        };
        // rules and computer players make short-lived tables by the million: a collection cycle
        // starts when the heap has grown to four times what the last one kept (Lua's default is
        // twice), which saved 6-10% of a simulated campaign game's CPU for about 15% more memory
        // (measured); the memory limit still holds, as Lua collects in full before it fails an
        // allocation
        host.lua.gc_set_mode(mlua::prelude::LuaGcMode::Incremental(
            mlua::prelude::LuaGcIncParams::default().pause(GC_PAUSE),
        ));
        host.sandbox()
            .map_err(|e| ScriptError::plain(format!("cannot set up the sandbox: {e}")))?;
        host.install_budget()
            .map_err(|e| ScriptError::plain(e.to_string()))?;
        // the API charges its native work to the same budget (see `charge`)
        host.lua.set_app_data(host.meter());
        Ok(host)
    }

    /// The Lua state (for the API registration).
    pub fn lua(&self) -> &Lua {
        &self.lua
    }

    /// The folder modules load from.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    fn sandbox(&self) -> mlua::Result<()> {
        let g = self.lua.globals();
        for name in [
            "dofile",
            "loadfile",
            "require",
            "collectgarbage",
            "module",
            "newproxy",
            "getfenv",
            "setfenv",
            "loadstring",
        ] {
            g.set(name, mlua::Value::Nil)?;
        }
        let string: mlua::Table = g.get("string")?;
        string.set("dump", mlua::Value::Nil)?;
        // determinism: dice come from the engine, never from math.random
        let math: mlua::Table = g.get("math")?;
        math.set("random", mlua::Value::Nil)?;
        math.set("randomseed", mlua::Value::Nil)?;
        // the bounded library: counted patterns, sized and charged C functions, errors that stay
        // raised once out of budget or memory, no `__gc` finalizers (see strlib/)
        strlib::install(&self.lua, &self.meter())?;
        // what the test checks (`kessel.expect`) call, taken now, before any rules run: the
        // checks are registered after the ruleset has loaded, and took the globals then, so a
        // ruleset that replaced `error` turned every failed check into a pass
        let pristine = self.lua.create_table()?;
        for name in ["error", "type", "tostring", "pairs", "ipairs", "rawset"] {
            pristine.set(name, g.get::<mlua::Value>(name)?)?;
        }
        for (library, names) in [
            ("table", &["sort", "concat"][..]),
            ("string", &["find", "format"][..]),
            ("math", &["abs", "huge"][..]),
        ] {
            let lib: mlua::Table = g.get(library)?;
            for name in names {
                pristine.set(*name, lib.get::<mlua::Value>(*name)?)?;
            }
        }
        self.lua
            .set_named_registry_value("kessel_pristine", pristine)?;
        // `load` of text only, in the sandboxed globals or the table given as its environment
        let meter = self.meter();
        let load = self
            .lua
            .create_function(move |lua, args: mlua::MultiValue| {
                let mut args = args.into_iter();
                let chunk = args.next().unwrap_or(mlua::Value::Nil);
                let name = match args.next() {
                    None | Some(mlua::Value::Nil) => None,
                    Some(
                        v @ (mlua::Value::String(_)
                        | mlua::Value::Integer(_)
                        | mlua::Value::Number(_)),
                    ) => Some(<String as mlua::FromLua>::from_lua(v, lua)?),
                    Some(v) => {
                        return Err(mlua::Error::runtime(format!(
                            "load: the chunk name must be a string (got {})",
                            a_value_of(&v)
                        )))
                    }
                };
                // the mode: text, as standard Lua takes it ("t", "bt"); "b" alone would load only
                // binary chunks, which the sandbox refuses
                match args.next() {
                    None | Some(mlua::Value::Nil) => {}
                    Some(mlua::Value::String(m))
                        if matches!(&*m.as_bytes(), b"t" | b"bt" | b"tb") => {}
                    Some(mlua::Value::String(m)) if &*m.as_bytes() == b"b" => {
                        return Err(mlua::Error::runtime(
                            "load: mode \"b\" loads binary chunks only, which the sandbox \
                             refuses; give \"t\" (or no mode) to load source text",
                        ))
                    }
                    Some(v) => {
                        return Err(mlua::Error::runtime(format!(
                            "load: the mode is \"t\" or \"bt\" (got {})",
                            match v {
                                mlua::Value::String(m) => format!(
                                    "\"{}\"",
                                    crate::error::printable_name(&m.to_string_lossy())
                                ),
                                other => a_value_of(&other),
                            }
                        )))
                    }
                }
                // the environment: a table the chunk sees as its globals (and only it); a fourth
                // argument of anything else is refused (it was ignored: the chunk saw every
                // global, which code relying on `env` to confine it did not expect)
                let env = match args.next() {
                    None => None,
                    Some(mlua::Value::Table(t)) => Some(t),
                    Some(v) => {
                        return Err(mlua::Error::runtime(format!(
                            "load: the environment (fourth argument) must be a table (got {}); \
                             leave it out for the chunk to see the globals",
                            a_value_of(&v)
                        )))
                    }
                };
                let text = match chunk {
                    mlua::Value::String(s) => s.as_bytes().to_vec(),
                    _ => {
                        return Err(mlua::Error::runtime(
                            "load: only source text can be loaded in the sandbox",
                        ))
                    }
                };
                if text.first() == Some(&0x1b) {
                    return Err(mlua::Error::runtime(
                        "load: binary chunks are refused by the sandbox",
                    ));
                }
                // compiling is work the hook does not see: a few microseconds a chunk however
                // short (a prototype, a closure, the parser's state) and more by its length; a
                // loop loading `return 1` ran into the wall clock at 28 s of budget
                meter.charge(LOAD_CHARGE + text.len() as u64 * 4)?;
                let mut chunk = name.unwrap_or_else(|| "load".into());
                if chunk.len() > 256 {
                    meter.charge(chunk.len() as u64)?;
                    chunk = "load".into();
                }
                // shown as what it is, `[load "NAME"]:LINE:`, never as a position in a file: a
                // name such as "rules/init.lua:99: x" made its errors blame that file and line
                let shown = chunk.replace(':', ";");
                if let Some(line) = strlib::find_close_attribute(&text) {
                    // placed as the loaded code's other errors are (it read `NAME:LINE:`, so a
                    // name "rules/play.lua" passed for a line of that file)
                    return Err(mlua::Error::runtime(strlib::close_refused(
                        &format!("[load \"{shown}\"]"),
                        line,
                    )));
                }
                let loaded = lua
                    .load(text)
                    .set_name(format!("=[load \"{shown}\"]"))
                    .set_mode(mlua::chunk::ChunkMode::Text);
                match env {
                    Some(env) => loaded.set_environment(env),
                    None => loaded,
                }
                .into_function()
            })?;
        g.set("load", load)?;
        // `require` limited to the ruleset folder: `require("rules.movement")` → rules/movement.lua
        let root = self.root.clone();
        let meter = self.meter();
        let loaded = self.lua.create_table()?;
        self.lua.set_named_registry_value("kessel_loaded", loaded)?;
        // the modules being loaded now, outermost first: a module that requires one of them (itself
        // or a module on its way) is a loop, refused by name rather than by a C stack overflow
        let loading: Rc<std::cell::RefCell<Vec<String>>> = Rc::default();
        let require = self.lua.create_function(move |lua, name: String| {
            if name.len() > 256 {
                meter.charge(name.len() as u64)?;
                return Err(mlua::Error::runtime(format!(
                    "require: a {}-byte name is not a module name of this ruleset",
                    name.len()
                )));
            }
            let loaded: mlua::Table = lua.named_registry_value("kessel_loaded")?;
            if let Ok(v) = loaded.get::<mlua::Value>(name.as_str()) {
                if !v.is_nil() {
                    return Ok(v);
                }
            }
            let rel = module_path(&name).ok_or_else(|| {
                mlua::Error::runtime(format!(
                    "require: `{name}` is not a module name of this ruleset (use dotted names like \"rules.movement\")"
                ))
            })?;
            meter.check()?;
            let not_found = || {
                mlua::Error::runtime(format!(
                    "require: module `{name}` not found in the ruleset folder (looked for {})",
                    rel.display()
                ))
            };
            // resolve symlinks and refuse anything whose real path leaves the ruleset folder
            // (an empty root, the working folder, was made "." when the host was made)
            let real_root = root.canonicalize().map_err(|_| not_found())?;
            let path = root.join(&rel).canonicalize().map_err(|_| not_found())?;
            if !path.starts_with(&real_root) {
                return Err(mlua::Error::runtime(format!(
                    "require: module `{name}` ({}) resolves outside the ruleset folder; refused",
                    rel.display()
                )));
            }
            if path.is_dir() {
                return Err(mlua::Error::runtime(format!(
                    "require: module `{name}`: {} is a folder, not a Lua file",
                    rel.display()
                )));
            }
            if !path.is_file() {
                // it exists (it resolved): a FIFO, a device, a socket is no Lua file, and "not
                // found" sent the author looking for a file that is there
                return Err(mlua::Error::runtime(format!(
                    "require: module `{name}`: {} is not a regular file (a pipe, a device or a socket), not a Lua file",
                    rel.display()
                )));
            }
            let text = crate::error::read_text(&path, "module")
                .map_err(|e| mlua::Error::runtime(e.to_string()))?;
            let text = without_shebang(text);
            meter.charge(text.len() as u64 * 4)?;
            let path = root.join(&rel);
            if let Some(line) = strlib::find_close_attribute(text.as_bytes()) {
                return Err(mlua::Error::runtime(strlib::close_refused(
                    &display_path(&path),
                    line,
                )));
            }
            let chunk_name = format!("@{}", display_path(&path));
            if let Some(at) = loading.borrow().iter().position(|m| *m == name) {
                let chain = loading.borrow()[at..].join(" → ");
                return Err(mlua::Error::runtime(format!(
                    "require: a loop of modules: {chain} → {name} (`{name}` is still loading; move what both need into a third module)"
                )));
            }
            loading.borrow_mut().push(name.clone());
            let value = lua
                .load(text)
                .set_name(chunk_name)
                .set_mode(mlua::chunk::ChunkMode::Text)
                .call::<mlua::Value>(());
            loading.borrow_mut().pop();
            let value = value?;
            let stored = if value.is_nil() {
                mlua::Value::Boolean(true)
            } else {
                value
            };
            loaded.set(name.as_str(), stored.clone())?;
            Ok(stored)
        })?;
        g.set("require", require)?;
        Ok(())
    }

    /// The budget shared by the hook and the bounded library.
    fn meter(&self) -> Meter {
        Meter {
            used: self.used.clone(),
            budget: self.limits.instructions,
            spent: self.spent.clone(),
            memory: self.limits.memory,
            stop: self.stopper.0.clone(),
            started: self.started.clone(),
            wall: self.limits.wall,
            depth: self.depth.clone(),
            held: self.held.clone(),
        }
    }

    /// The switch that stops this host's calls from another thread.
    pub fn stopper(&self) -> &Stopper {
        &self.stopper
    }

    fn install_budget(&self) -> mlua::Result<()> {
        let meter = self.meter();
        let last_seen = self.last_seen.clone();
        let longest = self.heap.longest_string();
        self.lua.set_global_hook(
            HookTriggers::new().every_nth_instruction(HOOK_EVERY),
            move |lua, debug| {
                profile::sample(lua);
                // while a long string lives, any instruction may have compared it (`<`, `==`):
                // work in C the count cannot see, charged as if each one had
                let strings = match longest.get() {
                    l if l >= memory::COMPARED_FROM => {
                        (l / memory::BYTES_COMPARED_PER_UNIT) as u64 * HOOK_EVERY as u64
                    }
                    _ => 0,
                };
                let n = meter
                    .used
                    .get()
                    .saturating_add(HOOK_EVERY as u64)
                    .saturating_add(strings);
                meter.used.set(n);
                let src = debug.source();
                // only a script file's line locates an error for people (never the engine's own
                // chunks, such as the sandbox's wrappers)
                let from_file = src.source.as_deref().is_some_and(|s| s.starts_with('@'));
                if let (true, Some(s), Some(l)) =
                    (from_file, src.short_src.as_deref(), debug.current_line())
                {
                    if let Ok(mut seen) = last_seen.try_borrow_mut() {
                        // the hook runs often: reuse the file name's buffer
                        match seen.as_mut() {
                            Some((file, line)) => {
                                if file != s {
                                    file.clear();
                                    file.push_str(s);
                                }
                                *line = l;
                            }
                            None => *seen = Some((s.to_string(), l)),
                        }
                    }
                }
                if meter.spent.get() == Spent::No {
                    if n > meter.budget {
                        meter.spent.set(Spent::Budget);
                    } else if meter.stop.load(std::sync::atomic::Ordering::Relaxed) {
                        meter.spent.set(Spent::Stopped);
                    } else if meter.started.get().elapsed() > meter.wall {
                        meter.spent.set(Spent::Wall);
                    }
                }
                // once spent, every later check raises again until the call returns to Rust
                if meter.spent.get() != Spent::No {
                    let place = match (src.short_src.as_deref(), debug.current_line()) {
                        (Some(s), Some(l)) => format!("{s}:{l}: "),
                        _ => String::new(),
                    };
                    strlib::disarm_closes(lua);
                    return Err(meter.error(&place));
                }
                Ok(VmState::Continue)
            },
        )
    }

    /// Runs `f` as one call into Lua: the instruction budget restarts for the outermost call, and
    /// errors are located by file and line.
    pub fn guarded<R>(&self, f: impl FnOnce(&Lua) -> mlua::Result<R>) -> Result<R, ScriptError> {
        if self.depth.get() == 0 {
            profile::restart();
            self.used.set(0);
            self.spent.set(Spent::No);
            self.started.set(std::time::Instant::now());
            *self.last_seen.borrow_mut() = None;
            self.heap.clear();
            if self.heap.longest_string().get() > 0 {
                // a long string left as garbage by an earlier call would make this one dear
                let _ = self.lua.gc_collect();
            }
        }
        self.depth.set(self.depth.get() + 1);
        let previous = CURRENT.with(|c| c.replace(Some(self.meter())));
        let out = f(&self.lua);
        CURRENT.with(|c| c.replace(previous));
        self.depth.set(self.depth.get() - 1);
        let spent = self.spent.get();
        if self.depth.get() == 0 {
            // back in the engine: the next call starts with a fresh budget
            self.spent.set(Spent::No);
        }
        match out {
            Ok(v) => Ok(v),
            Err(e) => {
                let mut err = ScriptError::from_lua(&e, None);
                let out_of_memory = matches!(e, mlua::Error::MemoryError(_))
                    || spent == Spent::Memory
                    || err.message.contains("memory");
                // memory refused by the allocator inside rules a script's call ran (a validator
                // under `kessel.act`): the error went up through that call, which located it
                // at the script's line calling the engine; the refusal's own line, or the last
                // the budget hook saw, is where the memory went
                let refused =
                    spent == Spent::Memory || matches!(innermost(&e), mlua::Error::MemoryError(_));
                if refused && err.file.is_some() {
                    if let Some((file, line)) = self
                        .heap
                        .take_place()
                        .or_else(|| self.last_seen.borrow().clone())
                        .filter(|(f, l)| err.file.as_ref() != Some(f) || err.line != Some(*l))
                    {
                        let message = err.located().message;
                        err = ScriptError {
                            message: format!("{file}:{line}: {message}"),
                            file: Some(file),
                            line: Some(line),
                        };
                    }
                }
                if err.file.is_none() {
                    // a memory error has no position: the line whose allocation was refused,
                    // else the last line the budget hook saw
                    err = match self.heap.take_place().filter(|_| out_of_memory) {
                        Some((file, line)) => ScriptError {
                            message: format!("{file}:{line}: {}", err.message),
                            file: Some(file),
                            line: Some(line),
                        },
                        None => ScriptError::from_lua(&e, self.last_seen.borrow().clone()),
                    };
                }
                if out_of_memory && self.heap.refused_a_long_string() {
                    if let Some(i) = err.message.find("memory limit exceeded") {
                        err.message = format!(
                            "{}string too long (a string of more than {} MiB was refused: the \
                             longest a script may build)",
                            &err.message[..i],
                            memory::LONGEST_STRING >> 20
                        );
                    }
                }
                if out_of_memory {
                    // the aborted script's garbage would otherwise count against the next call
                    let _ = self.lua.gc_collect();
                    let _ = self.lua.gc_collect();
                }
                Err(err)
            }
        }
    }

    /// Loads and runs a file as a chunk named by its path.
    pub fn run_file(&self, path: &Path) -> Result<mlua::Value, ScriptError> {
        let text = crate::error::read_text(path, "script").map_err(|e| ScriptError {
            message: match e.line {
                Some(l) => format!("{}:{l}: {}", display_path(path), e.message),
                None => format!("{}: {}", display_path(path), e.message),
            },
            file: Some(display_path(path)),
            line: e.line,
        })?;
        self.run_text(&display_path(path), &without_shebang(text))
    }

    /// Runs source text under a chunk name (`name` should look like a file path).
    pub fn run_text(&self, name: &str, text: &str) -> Result<mlua::Value, ScriptError> {
        if let Some(line) = strlib::find_close_attribute(text.as_bytes()) {
            return Err(ScriptError {
                message: strlib::close_refused(name, line),
                file: Some(name.to_string()),
                line: Some(line),
            });
        }
        self.guarded(|lua| {
            lua.load(text)
                .set_name(format!("@{name}"))
                .set_mode(mlua::chunk::ChunkMode::Text)
                .call(())
        })
        .map_err(|mut e| {
            // a file not named `.lua` (a script `orders.txt`) is located by its own name: its
            // errors were shown as "orders.txt: orders.txt:1: …" with no line to go to
            let at_line = e
                .message
                .strip_prefix(name)
                .and_then(|rest| rest.strip_prefix(':'))
                .and_then(|rest| {
                    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                    let line = digits.parse::<usize>().ok()?;
                    rest[digits.len()..].starts_with(':').then_some(line)
                });
            // errors with no position (a memory error inside one expression) still name the file
            if e.file.is_none() {
                if at_line.is_none() {
                    e.message = format!("{name}: {}", e.message);
                }
                e.file = Some(name.to_string());
                e.line = e.line.or(at_line);
            }
            e
        })
    }
}

thread_local! {
    /// The budget of the call running on this thread, for native code without the Lua handle.
    static CURRENT: std::cell::RefCell<Option<Meter>> = const { std::cell::RefCell::new(None) };
}

/// Like [`charge`], for the call running on this thread (argument checks deep in the API).
pub(crate) fn charge_current(units: u64) -> mlua::Result<()> {
    CURRENT.with(|c| match c.borrow().as_ref() {
        Some(m) => m.charge(units),
        None => Ok(()),
    })
}

/// Counts `bytes` of the engine's memory a new Lua object (a hexset, a movement field) holds
/// while it lives, against the memory limit (see `Meter::hold`); the returned guard gives them
/// back when the object is dropped.
pub(crate) fn hold(lua: &Lua, bytes: usize) -> mlua::Result<strlib::Held> {
    // (the app data is let go before the meter collects garbage)
    let meter = lua.app_data_ref::<Meter>().map(|m| m.clone());
    match meter {
        Some(m) => m.hold(lua, bytes),
        None => Ok(strlib::Held::untracked(bytes)),
    }
}

/// Charges `units` of work the engine does natively for a script (an API call's share: its
/// searches, the tables it converts or builds) to the budget of the current call, so that a loop
/// of cheap-looking API calls stops like any endless loop. Raises once the budget is gone.
pub(crate) fn charge(lua: &Lua, units: u64) -> mlua::Result<()> {
    match lua.app_data_ref::<Meter>() {
        Some(m) => m.charge(units),
        None => Ok(()),
    }
}

/// `rules.movement` → `rules/movement.lua`; refuses anything that could leave the folder.
fn module_path(name: &str) -> Option<PathBuf> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-')
        || name.starts_with('.')
        || name.ends_with('.')
        || name.contains("..")
    {
        return None;
    }
    let mut p = PathBuf::new();
    for part in name.split('.') {
        p.push(part);
    }
    p.set_extension("lua");
    Some(p)
}

/// A path as shown in messages: relative to the working directory when possible.
pub fn display_path(path: &Path) -> String {
    let cwd = std::env::current_dir().ok();
    let rel = cwd
        .as_deref()
        .and_then(|c| path.strip_prefix(c).ok())
        .unwrap_or(path);
    let shown = crate::error::shown_path(rel).display().to_string();
    // the working folder itself (a ruleset = "." beside a scenario in it) is "."
    if shown.is_empty() {
        ".".into()
    } else {
        shown
    }
}

/// A Lua file's text with a first line starting with `#` (`#!/usr/bin/env lua`) blanked, as
/// Lua's own file loader skips it: the file runs alone with `lua` and as a rule file alike. The
/// line break stays, so every line keeps its number in errors.
fn without_shebang(text: String) -> String {
    if !text.starts_with('#') {
        return text;
    }
    match text.find('\n') {
        Some(end) => text[end..].to_string(),
        None => String::new(),
    }
}

/// A value's type as `load`'s refusals name it: `nil`, `a string`, `an integer`.
fn a_value_of(v: &mlua::Value) -> String {
    match v.type_name() {
        "nil" => "nil".into(),
        t if t.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("an {t}"),
        t => format!("a {t}"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_first_line_starting_with_a_hash_is_skipped_and_lines_keep_their_numbers() {
        let skipped = super::without_shebang("#!/usr/bin/env lua\nlocal x = 1\n".into());
        assert_eq!(skipped, "\nlocal x = 1\n");
        assert_eq!(super::without_shebang("#!lua".into()), "");
        assert_eq!(
            super::without_shebang("local x = 1 # 2".into()),
            "local x = 1 # 2"
        );
    }

    use super::*;

    fn host() -> ScriptHost {
        ScriptHost::new(
            Path::new("/nonexistent"),
            Limits {
                memory: 32 << 20,
                instructions: 5_000_000,
                ..Limits::default()
            },
        )
        .expect("host")
    }

    /// A host whose calls the wall clock stops (300 ms) long before the instruction budget.
    fn wall_limited_host() -> ScriptHost {
        ScriptHost::new(
            Path::new("/nonexistent"),
            Limits {
                memory: 64 << 20,
                instructions: 5_000_000_000,
                wall: std::time::Duration::from_millis(300),
            },
        )
        .expect("host")
    }

    #[test]
    fn joining_big_strings_in_a_loop_hits_the_wall_clock_limit() {
        let h = wall_limited_host();
        let started = std::time::Instant::now();
        let e = h
            .run_text(
                "cat.lua",
                "local s = string.rep('x', 1 << 20)\nwhile true do local t = s .. s end",
            )
            .expect_err("stopped");
        assert!(e.message.contains("time limit exceeded"), "{}", e.message);
        assert!(e.message.contains("cat.lua:2"), "{}", e.message);
        // a newcomer's debug build on a busy machine meets it too, with no fault in the script
        assert!(e.message.contains("debug build"), "{}", e.message);
        assert!(started.elapsed() < std::time::Duration::from_secs(30));
        // the next call starts with a fresh clock
        let v = h.run_text("ok.lua", "return 1 + 1").expect("runs again");
        assert_eq!(v.as_i64(), Some(2));
    }

    /// A loop of an API call doing long native work runs few instructions: the budget hook,
    /// which reads the clock every thousand of them, let such a loop run many times the limit.
    #[test]
    fn a_loop_of_slow_engine_calls_stops_at_the_wall_clock_limit() {
        let h = wall_limited_host();
        // an engine call taking 20 ms of native work and charged as one cheap call
        let slow = h
            .lua()
            .create_function(|lua, ()| {
                std::thread::sleep(std::time::Duration::from_millis(20));
                charge(lua, 1)
            })
            .expect("function");
        h.lua().globals().set("slow", slow).expect("global");
        let started = std::time::Instant::now();
        let e = h
            .run_text("slow.lua", "\nwhile true do slow() end")
            .expect_err("stopped");
        assert!(e.message.contains("time limit exceeded"), "{}", e.message);
        assert!(e.message.contains("slow.lua:2"), "{}", e.message);
        // a thousand instructions of this loop are over 5 s of calls
        let took = started.elapsed();
        assert!(took < std::time::Duration::from_secs(2), "{took:?}");
        // between calls the clock is not running: the engine's own calls into Lua are not
        // stopped by the last call's start
        std::thread::sleep(std::time::Duration::from_millis(400));
        charge(h.lua(), 1).expect("no call under way");
    }

    /// `load`'s fourth argument was ignored: a chunk given an environment to confine it saw every
    /// global. A table is its environment now; anything else there, and a mode other than text,
    /// is refused by name.
    #[test]
    fn load_honours_an_environment_table_and_refuses_other_fourth_arguments() {
        let h = host();
        let confined = "local env = { x = 5 }\n\
                        local f = load('y = x + 1; return kessel, string, x', 'c', 't', env)\n\
                        local k, s, x = f()\n\
                        return tostring(k) .. ' ' .. tostring(s) .. ' ' .. x .. ' ' .. env.y \
                        .. ' ' .. tostring(y)";
        let v = h.run_text("env.lua", confined).expect("runs");
        assert_eq!(
            v.as_string().map(|s| s.to_string_lossy()).as_deref(),
            Some("nil nil 5 6 nil"),
            "{v:?}"
        );
        // without an environment the chunk sees the globals, as before
        let v = h
            .run_text(
                "plain.lua",
                "return load('return type(string)', 'c', 't')()",
            )
            .expect("runs");
        assert_eq!(
            v.as_string().map(|s| s.to_string_lossy()).as_deref(),
            Some("table")
        );
        for (call, said) in [
            (
                "load('return 1', 'c', 't', nil)",
                "must be a table (got nil)",
            ),
            (
                "load('return 1', 'c', nil, 'env')",
                "must be a table (got a string)",
            ),
            (
                "load('return 1', 'c', 'b')",
                "mode \"b\" loads binary chunks only",
            ),
            (
                "load('return 1', 'c', 'x')",
                "the mode is \"t\" or \"bt\" (got \"x\")",
            ),
            ("load('return 1', 'c', 7)", "(got an integer)"),
            (
                "load('return 1', {})",
                "the chunk name must be a string (got a table)",
            ),
        ] {
            let e = h.run_text("bad.lua", &format!("\n{call}")).expect_err(call);
            assert!(e.message.contains(said), "{call}: {}", e.message);
            assert_eq!(e.line, Some(2), "{call}: {}", e.message);
        }
    }

    /// A script whose name does not end in `.lua` is located like one: its errors said
    /// "orders.txt: orders.txt:2: …" and carried no file or line.
    #[test]
    fn a_script_not_named_lua_is_located_by_its_name() {
        let h = host();
        for text in ["local x = 1\nx = = 2", "local x = 1\nerror('boom')"] {
            let e = h.run_text("orders.txt", text).expect_err(text);
            assert!(e.message.starts_with("orders.txt:2: "), "{}", e.message);
            assert!(
                !e.message.contains("orders.txt: orders.txt"),
                "{}",
                e.message
            );
            assert_eq!(e.file.as_deref(), Some("orders.txt"), "{}", e.message);
            assert_eq!(e.line, Some(2), "{}", e.message);
        }
    }

    /// An error the engine raised reaches a script the same through `coroutine.resume` as
    /// through `pcall`: it came as the bindings' "runtime error: …" with a traceback.
    #[test]
    fn coroutine_resume_hands_over_engine_errors_as_pcall_does() {
        let h = host();
        let v = h
            .run_text(
                "co.lua",
                "local _, a = pcall(load, 5)\n\
                 local _, b = coroutine.resume(coroutine.create(load), 5)\n\
                 local _, c = pcall(coroutine.wrap(function() return load(5) end))\n\
                 return tostring(a) .. '|' .. tostring(b) .. '|' .. tostring(c)",
            )
            .expect("runs");
        let text = v
            .as_string()
            .map(|s| s.to_string_lossy())
            .unwrap_or_default();
        let parts: Vec<&str> = text.split('|').collect();
        assert_eq!(parts.len(), 3, "{text}");
        for p in &parts {
            assert!(
                p.contains("load: only source text can be loaded in the sandbox")
                    && !p.contains("runtime error")
                    && !p.contains("stack traceback"),
                "{text}"
            );
        }
    }

    #[test]
    fn endless_loop_hits_the_budget_and_the_state_survives() {
        let h = host();
        let e = h
            .run_text("loop.lua", "local x = 0\nwhile true do x = x + 1 end")
            .expect_err("budget");
        assert!(e.message.contains("instruction budget"), "{}", e.message);
        assert_eq!(e.line, Some(2));
        assert_eq!(e.file.as_deref(), Some("loop.lua"));
        assert!(h.run_text("ok.lua", "return 1 + 1").is_ok());
    }

    #[test]
    fn comparing_long_strings_is_charged_and_no_string_is_longer_than_the_cap() {
        // `<` and `==` compare in C, unseen by the count: charged while a long string lives
        let compare = "local s = string.rep('x', 4 << 20)\n\
                       local t = string.rep('x', (4 << 20) - 1) .. 'y'\n\
                       local n = 0\nwhile true do n = n + (s < t and 1 or 0) + (s == t and 1 or 0) end";
        let big = ScriptHost::new(Path::new("/nonexistent"), Limits::default()).expect("host");
        let started = std::time::Instant::now();
        let e = big.run_text("compare.lua", compare).expect_err("budget");
        assert!(e.message.contains("instruction budget"), "{e}");
        assert_eq!(e.file.as_deref(), Some("compare.lua"), "{e}");
        assert!(started.elapsed() < std::time::Duration::from_secs(5), "{e}");
        // no longer than the cap, however much memory is left
        let e = big
            .run_text(
                "long.lua",
                "local s = string.rep('x', 16 << 20)\nlocal ok = pcall(function() return s .. 'y' end)",
            )
            .expect_err("too long");
        assert!(e.message.contains("string too long"), "{e}");
        assert_eq!(e.line, Some(2), "{e}");
        // a string that has gone charges nothing in the next call (garbage is collected first)
        big.run_text("made.lua", "local s = string.rep('x', 4 << 20) return #s")
            .expect("made and dropped");
        let ok = "local n = 0 for i = 1, 1000000 do n = n + i end return n";
        let n = big.run_text("gone.lua", ok).expect("the string is gone");
        assert_eq!(n.as_integer(), Some(500_000_500_000));
    }

    #[test]
    fn memory_bomb_hits_the_limit() {
        let h = host();
        let e = h
            .run_text(
                "bomb.lua",
                "local t = {}\nlocal s = 'x'\nfor i = 1, 40 do s = s .. s end\nreturn #s",
            )
            .expect_err("memory");
        assert!(e.message.contains("memory"), "{}", e.message);
        assert!(h.run_text("ok.lua", "return 2").is_ok());
    }

    #[test]
    fn a_memory_error_in_one_expression_names_its_line() {
        // strings under 1 MiB (longer ones make each instruction dear) and a limit under the
        // longest string, so that what runs out is memory
        let h = ScriptHost::new(
            Path::new("/nonexistent"),
            Limits {
                memory: 8 << 20,
                instructions: 5_000_000,
                ..Limits::default()
            },
        )
        .expect("host");
        // the loop on line 3 is the last line the budget hook sees before line 4 runs
        let bomb = "local s = string.rep('x', (1 << 20) - 1)\nlocal n = 0\n\
                    for i = 1, 20000 do n = n + i end\n\
                    local t = s..s..s..s..s..s..s..s..s..s..s..s..s..s..s..s..s..s\nreturn #t";
        let e = h.run_text("bomb.lua", bomb).expect_err("memory");
        assert_eq!(
            (e.file.as_deref(), e.line),
            (Some("bomb.lua"), Some(4)),
            "{e}"
        );
        assert!(e.message.contains("memory limit exceeded"), "{e}");
        // a C function asking for it all at once is blamed on the line that called it
        let joined = "local s = string.rep('x', (1 << 20) - 1)\nlocal t = {}\n\
                      for i = 1, 18 do t[i] = s end\nreturn #table.concat(t)";
        let e = h.run_text("join.lua", joined).expect_err("memory");
        assert_eq!(e.line, Some(4), "{e}");
        // the next call is not blamed on that line (a message raised at level 0 has none): it
        // starts clean and has memory again
        let e = h
            .run_text("after.lua", "local x = 1\nerror('plain', 0)")
            .expect_err("plain");
        assert_eq!(
            (e.file.as_deref(), e.line),
            (Some("after.lua"), None),
            "{e}"
        );
        assert_eq!(
            h.run_text("ok.lua", "return 2")
                .ok()
                .and_then(|v| v.as_integer()),
            Some(2)
        );
    }

    #[test]
    fn errors_inside_library_functions_name_the_calling_line_and_public_names() {
        let h = host();
        for (src, want) in [
            // raised inside the sandbox's wrappers: no `sandbox:N:` position, no private names
            (
                "table.insert(nil, 1)",
                "bad argument #1 to 'table.insert' (table expected, got nil)",
            ),
            (
                "string.sub(nil)",
                "bad argument #1 to 'string.sub' (string expected, got nil)",
            ),
            (
                "setmetatable(1, {})",
                "bad argument #1 to 'setmetatable' (table expected, got number)",
            ),
            (
                "table.sort(nil)",
                "bad argument #1 to 'table.sort' (table expected, got nil)",
            ),
            // raised by a C function with no position of its own
            ("table.sort({1, 'x', 3})", "attempt to compare"),
            ("assert(false, 'boom')", "boom"),
            // a length far past any table stops on the budget, at the caller's line
            (
                "table.sort(setmetatable({}, { __len = function() return 1e300 end }))",
                "instruction budget",
            ),
        ] {
            let e = h
                .run_text("lib.lua", &format!("local x = 1\n{src}"))
                .expect_err(src);
            assert_eq!(
                (e.file.as_deref(), e.line),
                (Some("lib.lua"), Some(2)),
                "{src}: {e}"
            );
            assert!(e.message.contains(want), "{src}: {e}");
            assert!(!e.message.contains("sandbox:"), "{src}: {e}");
        }
        // a message its author raised at level 0 still reads without a position
        let e = h
            .run_text("lib.lua", "local x = 1\nerror('plain', 0)")
            .expect_err("plain");
        assert_eq!(e.line, None, "{e}");
    }

    #[test]
    fn sandbox_refuses_io_os_require_and_binary_chunks() {
        let h = host();
        for (src, needle) in [
            ("io.open('/etc/passwd')", "io"),
            ("os.execute('ls')", "os"),
            ("require('../../etc/passwd')", "not a module name"),
            ("require('nothere')", "not found"),
            ("load('\\27Lua')", "binary"),
            ("math.random()", "random"),
            ("debug.getinfo(1)", "debug"),
        ] {
            let e = h.run_text("evil.lua", src).expect_err(src);
            assert!(e.message.contains(needle), "{src}: {}", e.message);
            assert_eq!(e.line, Some(1), "{src}: {}", e.message);
        }
    }
}
