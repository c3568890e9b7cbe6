//! The sandbox's bounded standard library: everything in `string`, `table`, `utf8`, `load` and
//! the error-catching functions whose work a script controls but the VM's instruction hook cannot
//! see, because it happens inside one C call.
//!
//! - Pattern matching (`string.find`, `match`, `gmatch`, `gsub`) is reimplemented (`patterns.rs`, a port
//!   of Lua 5.4's `lstrlib.c` matcher) with every matching step counted against the call's
//!   instruction budget, so a backtracking or exponential pattern stops like an endless loop.
//! - Functions whose work or output grows with an argument (`string.rep`, `table.move`,
//!   `table.concat`, `string.format`, `table.insert`/`remove` in the middle, `table.sort`,
//!   `table.unpack`, `string.byte`, …) are wrapped: the size is checked against the memory limit
//!   before the call, and the work (elements, bytes) is charged to the budget.
//! - Once a call has run out of budget or memory it stays out until control returns to the
//!   engine: `pcall`, `xpcall` and `coroutine.resume` re-raise the error instead of catching it, an
//!   `xpcall` message handler is skipped, and a coroutine that died of it is never closed (its
//!   `__close` handlers would run with the VM's hooks off).
//! - `setmetatable` refuses a metatable with a `__gc` field: Lua runs finalizers with the hooks
//!   off, at any allocation, so a looping finalizer could never be stopped, and one calling the
//!   engine could run while Rust holds the game state. Tables of a mod have no finalizers.
//! - `<close>` is refused where text is compiled (`closes.rs`) and `setmetatable` refuses a
//!   `__close` field; one put in a metatable later (a generic `for`'s closing value finds it) is
//!   made to do nothing just before the budget hook stops a call, since Lua closes the stopped
//!   function's values inside the hook, with the hooks off.

mod closes;
mod patterns;

pub(crate) use closes::find_close_attribute;

use mlua::{Lua, Value};
use std::cell::Cell;
use std::rc::Rc;

/// Why a call was stopped for good (until control returns to the engine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Spent {
    /// Not stopped.
    No = 0,
    /// The instruction budget ran out.
    Budget = 1,
    /// The memory limit was hit.
    Memory = 2,
    /// Another thread asked the call to stop (see `script::Stopper`).
    Stopped = 3,
    /// The call ran past its wall-clock limit (`Limits::wall`).
    Wall = 4,
}

/// The budget of the current call from Rust, shared by the hook and the bounded functions.
#[derive(Clone, Debug)]
pub(crate) struct Meter {
    /// Instructions (and charged work) used so far in this call.
    pub used: Rc<Cell<u64>>,
    /// Instructions allowed per call.
    pub budget: u64,
    /// Whether this call is out of budget or memory.
    pub spent: Rc<Cell<Spent>>,
    /// The memory limit, in bytes.
    pub memory: usize,
    /// Set by another thread to stop the call (see `script::Stopper`).
    pub stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// When the outermost call began.
    pub started: Rc<Cell<std::time::Instant>>,
    /// Wall-clock time allowed per call.
    pub wall: std::time::Duration,
    /// How many calls from the engine are under way (0 between calls, when `started` is stale).
    pub depth: Rc<Cell<u32>>,
    /// Bytes of the engine's own memory that Lua objects hold now (hexsets, movement fields):
    /// see [`Meter::hold`].
    pub held: Rc<Cell<usize>>,
}

/// Native memory a Lua object (a hexset, a movement field, an `ai` hook's listing) holds,
/// counted in [`Meter::held`] while the object lives.
#[derive(Debug)]
pub(crate) struct Held {
    bytes: usize,
    total: Rc<Cell<usize>>,
}

impl Held {
    /// A guard counted nowhere (a Lua state without the host's meter).
    pub(crate) fn untracked(bytes: usize) -> Held {
        Held {
            bytes,
            total: Rc::new(Cell::new(bytes)),
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.total.set(self.total.get().saturating_sub(self.bytes));
    }
}

impl Meter {
    /// Counts `bytes` of the engine's memory that a new Lua object will hold while it lives, and
    /// charges building them (one unit per 16 bytes). Lua's memory limit sees only the small
    /// userdata, so without this a loop of `s:copy()` on the largest map filled the engine's
    /// memory at 80 MB a second, past any limit, until the wall clock stopped it (and kept what
    /// it had made, for the next call to add to). Objects already dropped are collected before a
    /// request over the limit is refused; a refusal is a memory error, final for the call.
    pub fn hold(&self, lua: &Lua, bytes: usize) -> mlua::Result<Held> {
        self.charge((bytes / 16) as u64)?;
        if self.held.get().saturating_add(bytes) > self.memory {
            // garbage sets and fields count until Lua collects them
            lua.gc_collect()?;
            if self.held.get().saturating_add(bytes) > self.memory {
                self.spent.set(Spent::Memory);
                return Err(mlua::Error::runtime(format!(
                    "memory limit exceeded: the hexsets, movement fields and `legal` listings \
                     alive hold {} MiB of the engine's memory, the most they may ({} MiB, as \
                     much as the Lua state); the script stays stopped until it returns to the \
                     engine",
                    self.held.get() >> 20,
                    self.memory >> 20
                )));
            }
        }
        self.held.set(self.held.get() + bytes);
        Ok(Held {
            bytes,
            total: self.held.clone(),
        })
    }

    /// The error for a call that ran out, located by the hook's `place` (`file:line: `) if known.
    pub fn error(&self, place: &str) -> mlua::Error {
        match self.spent.get() {
            Spent::Memory => mlua::Error::runtime(format!(
                "{place}memory limit exceeded ({} MiB; the script stays stopped until it returns to the engine)",
                self.memory >> 20
            )),
            Spent::Stopped => mlua::Error::runtime(format!(
                "{place}stopped on request (the call was cut short; the game is as it was before it)"
            )),
            // (the limit as given: `--seconds 0.5` read "0 s" rounded)
            Spent::Wall => mlua::Error::runtime(format!(
                "{place}time limit exceeded ({} s of wall time in one call: work the instruction count does not see, such as joining big strings in a loop? Or a machine too slow or busy for the call: a debug build runs many times slower than `--release`, and `kessel script`, `simulate` and `campaign` take `--seconds N` for more time a call)",
                self.wall.as_secs_f64()
            )),
            _ => mlua::Error::runtime(format!(
                "{place}instruction budget exceeded ({} million instructions in one call; an endless loop?)",
                self.budget / 1_000_000
            )),
        }
    }

    /// Raises if this call already ran out, was asked to stop or is past its wall time. The
    /// budget hook sees the clock only every thousand instructions, and a loop of an API call
    /// doing long native work (`kessel.state_hash()` of 20,000 units, 0.2 s in a debug build)
    /// ran a thousand instructions in a minute: the 10 s limit stopped it after 75 s. Every
    /// charge passes here, so the clock is read at each API call too.
    pub fn check(&self) -> mlua::Result<()> {
        if self.spent.get() == Spent::No {
            if self.stop.load(std::sync::atomic::Ordering::Relaxed) {
                self.spent.set(Spent::Stopped);
            } else if self.depth.get() > 0 && self.started.get().elapsed() > self.wall {
                self.spent.set(Spent::Wall);
            }
        }
        if self.spent.get() != Spent::No {
            return Err(self.error(""));
        }
        Ok(())
    }

    /// Charges `n` units of work; raises (for good) once the budget is gone.
    pub fn charge(&self, n: u64) -> mlua::Result<()> {
        self.check()?;
        let fuel = self.fuel();
        let used = self.used.get().saturating_add(n);
        self.used.set(used);
        if used > self.budget {
            self.spent.set(Spent::Budget);
            // one request bigger than a tenth of the whole budget is no endless loop: a library
            // call over a huge range (`table.unpack(t, 1, 1e8)`) is said as such
            if n > fuel && n > self.budget / 10 {
                // (said as more than the whole budget only when it is: a loop of such calls
                // meets the limit with less left, and 40 million read as more than 200)
                let left = if n > self.budget {
                    String::new()
                } else {
                    format!("the {fuel} left of ")
                };
                return Err(mlua::Error::runtime(format!(
                    "instruction budget exceeded: one call here asks for about {n} units of work \
                     at once, more than {left}the {} million instructions one call from the \
                     engine may use",
                    self.budget / 1_000_000
                )));
            }
            return Err(self.error(""));
        }
        Ok(())
    }

    /// Work still allowed in this call.
    pub fn fuel(&self) -> u64 {
        self.budget.saturating_sub(self.used.get())
    }

    /// Refuses a result of `bytes` bytes that could not fit in the memory limit.
    pub fn size(&self, what: &str, bytes: u128) -> mlua::Result<()> {
        if bytes > self.memory as u128 {
            return Err(mlua::Error::runtime(format!(
                "{what}: a {bytes}-byte result is over the memory limit ({} MiB)",
                self.memory >> 20
            )));
        }
        Ok(())
    }
}

/// True if a Lua error value is a memory error (Lua's own, or one raised by a Rust function).
fn is_memory_error(v: &Value) -> bool {
    fn inner(e: &mlua::Error) -> bool {
        match e {
            mlua::Error::MemoryError(_) => true,
            mlua::Error::CallbackError { cause, .. } => inner(cause),
            mlua::Error::WithContext { cause, .. } => inner(cause),
            _ => false,
        }
    }
    match v {
        Value::String(s) => s.as_bytes().as_ref() == b"not enough memory",
        Value::Error(e) => inner(e),
        _ => false,
    }
}

const PRELUDE: &str = r##"
local meter, charge, sized, caught, shown = ...
-- everything the wrappers call is captured here, before any mod code runs: a mod can replace
-- globals and library fields (`math.tointeger = tostring`), never these locals
local type, select, error, rawget, tostring, ipairs, getmetatable = type, select, error, rawget, tostring, ipairs, getmetatable
local tointeger = math.tointeger
local opcall, oxpcall, osetmetatable = pcall, xpcall, setmetatable
local create, oresume, oclose, ostatus = coroutine.create, coroutine.resume, coroutine.close, coroutine.status
local poisoned = osetmetatable({}, { __mode = "k" })

-- pcall / xpcall catch ordinary errors only: once out of budget or memory, they re-raise. An
-- error the engine raised, or one raised inside a wrapper below, is handed over as the message a
-- script would have seen uncaught (`caught`): plain words and public names, not the bindings'
-- error object or the wrappers' private names
local function after(ok, ...)
  if not ok then
    meter(true, (...))
    return ok, caught((...))
  end
  return ok, ...
end
pcall = function(...)
  meter()
  return after(opcall(...))
end
xpcall = function(f, handler, ...)
  meter()
  return after(oxpcall(f, function(e)
    -- a handler runs with the hooks off after a budget error: skip it then
    if meter(false, e) then return e end
    return handler(caught(e))
  end, ...))
end

-- a coroutine that died of the budget keeps the hooks off: never resume or close it again
-- (an error is handed over as pcall hands it: a coroutine that called the engine with a wrong
-- argument gave the bindings' "runtime error: … error converting Lua table to String" and a
-- traceback where pcall gave "x.lua:4: bad argument #1 to `kessel.hex.neighbors`: …")
local function resumed(co, ok, ...)
  if not ok then
    if meter(false, (...)) then
      poisoned[co] = true
      meter(true, (...))
    end
    return ok, caught((...))
  end
  return ok, ...
end
local function resume(co, ...)
  meter()
  return resumed(co, oresume(co, ...))
end
coroutine.resume = resume
coroutine.close = function(co)
  meter()
  if poisoned[co] then return false, "coroutine stopped by the sandbox" end
  return oclose(co)
end
local function unwrap(co, ok, ...)
  if ok then return ... end
  if not poisoned[co] and ostatus(co) == "dead" then oclose(co) end
  error((...), 0)
end
coroutine.wrap = function(f)
  local co = create(f)
  return function(...) return unwrap(co, resume(co, ...)) end
end

-- every metatable in use (and the strings' own): a `__close` put in one after it was set is made
-- to do nothing before a call is stopped (`disarm`, below)
local metas = osetmetatable({}, { __mode = "k" })
metas[getmetatable("")] = true
setmetatable = function(t, mt)
  if type(mt) == "table" then
    if rawget(mt, "__gc") ~= nil then
      error("setmetatable: __gc finalizers are not allowed in the sandbox (they would run outside the instruction budget)", 2)
    end
    if rawget(mt, "__close") ~= nil then
      error("setmetatable: __close handlers are not allowed in the sandbox (a stopped call would run them outside the instruction budget)", 2)
    end
    metas[mt] = true
  end
  return osetmetatable(t, mt)
end

-- sizes checked before allocating, work charged to the budget (one unit per 8 bytes or element)
local srep, sformat, ssub, supper, slower, sreverse, sbyte, spack =
  string.rep, string.format, string.sub, string.upper, string.lower, string.reverse, string.byte, string.pack
local tconcat, tmove, tinsert, tremove, tsort, tunpack = table.concat, table.move, table.insert, table.remove, table.sort, table.unpack
-- the length a wrapper charges by: 0 for what is no table (or whose __len says no number), so the
-- C function itself refuses it with its usual argument error
local function len(t)
  if type(t) == "table" then
    local n = #t
    if type(n) == "number" then return n end
  end
  return 0
end
local ulen, ucodepoint = utf8.len, utf8.codepoint
local function out(r)
  local n = #r
  if n > 4096 then charge(n >> 3) end
  return r
end
-- a C function that builds its result in a buffer runs out of memory with no position, and its
-- argument errors would name the wrapper: call it protected, then raise a memory error again from
-- here (it names the caller's line) and an argument error at the caller's line with the function's
-- public name. Every wrapper calls `built` as a tail call, so level 2 is the script's own call.
local sfind = string.find
local function built(name, ok, r, ...)
  if ok then return out(r), ... end
  meter(true, r)
  if type(r) == "string" and not sfind(r, "^[^\n]-:%d+: ") then
    local i, j = sfind(r, "'?'", 1, true)
    if i then r = ssub(r, 1, i) .. name .. ssub(r, j) end
    error(r, 2)
  end
  error(r, 0)
end
string.rep = function(s, n, sep)
  -- (numbers are strings to Lua here, as to the C function; nil or a table is refused by it)
  if type(s) == "number" then s = tostring(s) end
  n = tointeger(n) or n
  if sep == nil then sep = "" elseif type(sep) == "number" then sep = tostring(sep) end
  if type(n) == "number" and n > 0 and type(s) == "string" and type(sep) == "string" then
    sized("string.rep", #s, #sep, n)
    charge(n)
    if #s == 0 and #sep == 0 then return "" end
  end
  return built("string.rep", opcall(srep, s, n, sep))
end
string.format = function(...) return built("string.format", opcall(sformat, ...)) end
string.sub = function(...) return out(ssub(...)) end
string.upper = function(s) return built("string.upper", opcall(supper, s)) end
string.lower = function(s) return built("string.lower", opcall(slower, s)) end
string.reverse = function(s) return built("string.reverse", opcall(sreverse, s)) end
string.pack = function(...) return built("string.pack", opcall(spack, ...)) end
string.byte = function(s, i, j)
  local n = #tostring(s)
  if j ~= nil and n > 64 then charge(n >> 3) end
  return sbyte(s, i, j)
end
table.concat = function(t, sep, i, j)
  i = i or 1
  j = j or len(t)
  if type(i) == "number" and type(j) == "number" and j - i > 64 then charge((j - i) * 4) end
  return built("table.concat", opcall(tconcat, t, sep, i, j))
end
table.move = function(a1, f, e, t, a2)
  if type(f) == "number" and type(e) == "number" and e >= f then charge((e - f + 1) * 2) end
  return tmove(a1, f, e, t, a2)
end
table.insert = function(t, ...)
  local n = select("#", ...)
  if n == 2 then
    local pos = ...
    if type(pos) == "number" then
      local n = len(t)
      if n - pos > 64 then charge((n - pos) * 2) end
    end
  end
  return tinsert(t, ...)
end
table.remove = function(t, pos)
  if pos ~= nil and type(pos) == "number" then
    local n = len(t)
    if n - pos > 64 then charge((n - pos) * 2) end
  end
  return tremove(t, pos)
end
table.sort = function(t, cmp)
  local n = len(t)
  if n > 1 then
    local log = 1
    while log < 62 and (1 << log) < n do log = log + 1 end
    if n > 64 then charge(n * log * 4) end
    -- without a comparator, C compares strings byte by byte, all inside this one call where the
    -- hook never runs: charge every comparison as if it read the longest string
    if cmp == nil then
      local longest = 0
      for i = 1, n do
        local v = t[i]
        if type(v) == "string" and #v > longest then longest = #v end
      end
      if longest > 64 then charge(n * log * (longest >> 3)) end
    end
  end
  return tsort(t, cmp)
end
table.unpack = function(t, i, j)
  -- (the length of nothing is no 0: without `j`, Lua refuses what has no length)
  if j == nil and (t == nil or type(t) == "boolean" or type(t) == "number") then
    error(sformat("bad argument #1 to 'table.unpack' (table expected, got %s)", t == nil and "nil" or type(t)), 2)
  end
  i = i or 1
  j = j or len(t)
  if type(i) == "number" and type(j) == "number" and j - i > 64 then charge((j - i) * 8) end
  return tunpack(t, i, j)
end
-- print: one unit of budget per byte written, so a loop printing a megabyte a time stops at the
-- budget (about 200 MB of output) instead of filling a disk at gigabytes a second; shown as the
-- engine's messages are, since a mod's rules print where its user runs `kessel simulate` or
-- `test`: an escape sequence went to the terminal as it was (a title, a clipboard write)
local oprint = print
print = function(...)
  local n = select("#", ...)
  local parts, bytes = { ... }, 0
  for i = 1, n do
    local s = tostring(parts[i])
    bytes = bytes + #s
    parts[i] = s
  end
  charge(bytes)
  for i = 1, n do parts[i] = shown(parts[i]) end
  return oprint(tunpack(parts, 1, n))
end
utf8.len = function(s, ...)
  local n = #tostring(s)
  if n > 4096 then charge(n >> 3) end
  return ulen(s, ...)
end
utf8.codepoint = function(s, i, j, ...)
  local n = #tostring(s)
  if j ~= nil and n > 64 then charge(n >> 3) end
  return ucodepoint(s, i, j, ...)
end
-- functions that read a whole string argument without building anything from it: converting a
-- string to a number (every digit, then strtod over all of them), walking UTF-8 sequences,
-- comparing two strings, reading a format. Each is charged by the length of what it reads
-- (`per` bytes a unit) when that is long, and called protected like those above, so that its
-- errors name the caller's line and the function's public name.
local function reads(s, per)
  if type(s) == "string" then
    local n = #s
    if n > 256 then charge(n // per) end
  end
end
local function passed(name, ok, ...)
  if ok then return ... end
  return built(name, ok, ...)
end
local otonumber, otointeger, orawequal = tonumber, math.tointeger, rawequal
local uoffset, upacksize, sunpack = utf8.offset, string.packsize, string.unpack
tonumber = function(...)
  reads((...), 1)
  return passed("tonumber", opcall(otonumber, ...))
end
math.tointeger = function(...)
  reads((...), 1)
  return passed("math.tointeger", opcall(otointeger, ...))
end
rawequal = function(...)
  local a, b = ...
  if type(a) == "string" and type(b) == "string" and #a == #b then reads(a, 8) end
  return passed("rawequal", opcall(orawequal, ...))
end
utf8.offset = function(...)
  reads((...), 8)
  return passed("utf8.offset", opcall(uoffset, ...))
end
string.packsize = function(...)
  reads((...), 1)
  return passed("string.packsize", opcall(upacksize, ...))
end
string.unpack = function(...)
  local f, s = ...
  reads(f, 1)
  reads(s, 8)
  return passed("string.unpack", opcall(sunpack, ...))
end
-- error with a value that is no string (a table, a number): Lua gives it no position, and
-- whatever its __tostring says (a number, a table, an error) reaches the engine with none either.
-- Raised through `object_error`, the traceback says so, and the engine names the line that
-- raised it. A string goes to Lua's own `error` (the local `error` captured above, so the
-- traceback still names `error`) one level further out, past this wrapper's frame.
local object_error = error
_ENV.error = function(v, level, ...)
  if type(v) == "string" or v == nil then
    if level == nil then level = 1 end
    if type(level) == "number" and level > 0 then level = level + 1 end
    return error(v, level, ...)
  end
  object_error(v)
end
-- arithmetic on strings ("10" + 1) goes through the string metatable's metamethods, which
-- convert each string operand as tonumber does
do
  local smt = getmetatable("")
  for _, event in ipairs({ "__add", "__sub", "__mul", "__div", "__mod", "__pow", "__unm", "__idiv" }) do
    local f = smt[event]
    if f then
      smt[event] = function(a, b)
        reads(a, 1)
        reads(b, 1)
        return passed(event, opcall(f, a, b))
      end
    end
  end
end
-- called by the budget hook as it stops a call: Lua closes the to-be-closed values of the function
-- the hook stopped inside the hook itself, where no hook runs, so a `__close` that loops (a generic
-- for's fourth value, whose metatable got its `__close` after `setmetatable`) would never stop
local rawset, next = rawset, next
local function closed() end
local function disarm()
  for mt in next, metas do
    if rawget(mt, "__close") ~= nil then rawset(mt, "__close", closed) end
  end
end
-- the engine's own metatables (set from Rust, past the wrapper) are counted in too
local function track(mt) metas[mt] = true end
return disarm, track
"##;

/// The registry name of the prelude's `disarm`: run by the budget hook before it stops a call, it
/// makes every `__close` in a metatable do nothing (see [`disarm_closes`]).
const DISARM: &str = "kessel_disarm";

/// The registry name of the prelude's `track`, which counts a metatable the engine sets from Rust
/// among those [`disarm_closes`] looks through.
const TRACK: &str = "kessel_track_metatable";

/// Counts `mt`, a metatable the engine set from Rust (past the sandbox's `setmetatable`), among
/// those whose `__close` is made to do nothing before a call is stopped: a script can reach it
/// with `getmetatable` and give it one.
pub(crate) fn track_metatable(lua: &Lua, mt: &mlua::Table) -> mlua::Result<()> {
    lua.named_registry_value::<mlua::Function>(TRACK)?
        .call::<()>(mt)
}

/// Makes every `__close` handler a do-nothing, just before the budget hook raises the error that
/// stops a call. Lua closes the to-be-closed values of the function running when a hook raises
/// inside the hook, with the hooks off: a looping `__close` (a generic `for`'s closing value,
/// whose metatable was given its `__close` after `setmetatable` checked it) ran for ever there.
pub(crate) fn disarm_closes(lua: &Lua) {
    if let Ok(f) = lua.named_registry_value::<mlua::Function>(DISARM) {
        let _ = f.call::<()>(());
    }
}

/// The chunk name of [`PRELUDE`], as Lua shows it in positions.
const PRELUDE_CHUNK: &str = "sandbox";

/// The prelude's private names for the library functions it wraps, and their public names.
const WRAPPED: &[(&str, &str)] = &[
    ("opcall", "pcall"),
    ("oxpcall", "xpcall"),
    ("osetmetatable", "setmetatable"),
    ("create", "coroutine.create"),
    ("oresume", "coroutine.resume"),
    ("oclose", "coroutine.close"),
    ("ostatus", "coroutine.status"),
    ("srep", "string.rep"),
    ("sformat", "string.format"),
    ("ssub", "string.sub"),
    ("supper", "string.upper"),
    ("slower", "string.lower"),
    ("sreverse", "string.reverse"),
    ("sbyte", "string.byte"),
    ("spack", "string.pack"),
    ("sfind", "string.find"),
    ("tconcat", "table.concat"),
    ("tmove", "table.move"),
    ("tinsert", "table.insert"),
    ("tremove", "table.remove"),
    ("tsort", "table.sort"),
    ("tunpack", "table.unpack"),
    ("ulen", "utf8.len"),
    ("ucodepoint", "utf8.codepoint"),
    ("otonumber", "tonumber"),
    ("otointeger", "math.tointeger"),
    ("orawequal", "rawequal"),
    ("uoffset", "utf8.offset"),
    ("upacksize", "string.packsize"),
    ("sunpack", "string.unpack"),
];

/// An error message raised inside the prelude's wrappers (`sandbox:130: bad argument #1 to
/// 'tinsert' …`), without the wrapper's position and with the public names of the functions
/// (`bad argument #1 to 'table.insert' …`); `None` for any other message.
pub(crate) fn in_wrapper(message: &str) -> Option<String> {
    let rest = message.strip_prefix(PRELUDE_CHUNK)?.strip_prefix(':')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let rest = rest[digits..].strip_prefix(": ").filter(|_| digits > 0)?;
    let mut out = rest.to_string();
    for (private, public) in WRAPPED {
        out = out.replace(&format!("'{private}'"), &format!("'{public}'"));
    }
    Some(out)
}

/// Installs the bounded library on a fresh state (before any mod code runs).
pub(crate) fn install(lua: &Lua, meter: &Meter) -> mlua::Result<()> {
    // meter() raises if spent; meter(true, e) also marks a memory error as spent and raises;
    // meter(false, e) only says whether the call is spent (or `e` is a memory error)
    let m = meter.clone();
    let meter_fn = lua.create_function(move |_, (raise, e): (Option<bool>, Value)| {
        if m.spent.get() == Spent::No && is_memory_error(&e) {
            m.spent.set(Spent::Memory);
        }
        let spent = m.spent.get() != Spent::No;
        if raise.unwrap_or(true) && spent {
            return Err(m.error(""));
        }
        Ok(spent)
    })?;
    let m = meter.clone();
    let charge = lua.create_function(move |_, n: f64| {
        let n = if n.is_finite() && n > 0.0 {
            n.min(u64::MAX as f64) as u64
        } else {
            0
        };
        m.charge(n)
    })?;
    let m = meter.clone();
    let sized = lua.create_function(move |_, (what, l, lsep, n): (String, u64, u64, f64)| {
        let n = if n.is_finite() {
            n.max(0.0) as u128
        } else {
            u128::MAX
        };
        let total = (l as u128 + lsep as u128).saturating_mul(n);
        m.size(&what, total)?;
        m.charge((total >> 3) as u64)
    })?;
    // an error a pcall caught, as a script reads it (see the prelude's `after`)
    let caught = lua.create_function(|lua, e: Value| match &e {
        Value::Error(err) => {
            let text = crate::script::ScriptError::from_lua(err, None).message;
            lua.create_string(text).map(Value::String)
        }
        Value::String(s) => match in_wrapper(&s.to_string_lossy()) {
            Some(plain) => lua.create_string(plain).map(Value::String),
            None => Ok(e),
        },
        _ => Ok(e),
    })?;
    // what `print` writes, with control characters (but line breaks and tabs), bidirectional
    // marks and characters that show as nothing escaped, as in every message
    let shown = lua.create_function(|lua, s: mlua::LuaString| {
        let bytes = s.as_bytes();
        let text = String::from_utf8_lossy(&bytes);
        match crate::error::terminal_safe(&text) {
            std::borrow::Cow::Borrowed(_) if matches!(text, std::borrow::Cow::Borrowed(_)) => {
                Ok(s.clone())
            }
            safe => lua.create_string(safe.as_bytes()),
        }
    })?;
    let (disarm, track) = lua
        .load(PRELUDE)
        .set_name(format!("={PRELUDE_CHUNK}"))
        .call::<(mlua::Function, mlua::Function)>((meter_fn, charge, sized, caught, shown))?;
    lua.set_named_registry_value(DISARM, disarm)?;
    lua.set_named_registry_value(TRACK, track)?;
    patterns::install(lua, meter)
}

/// The sandbox's refusal of a to-be-closed variable at `line`.
pub(crate) fn close_refused(chunk: &str, line: usize) -> String {
    format!(
        "{chunk}:{line}: to-be-closed variables (<close>) are not allowed in the sandbox (their __close handler can run outside the instruction budget)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meter(budget: u64) -> Meter {
        Meter {
            used: Rc::new(Cell::new(0)),
            budget,
            spent: Rc::new(Cell::new(Spent::No)),
            memory: 64 << 20,
            stop: Default::default(),
            started: Rc::new(Cell::new(std::time::Instant::now())),
            wall: std::time::Duration::from_secs(10),
            depth: Rc::new(Cell::new(0)),
            held: Rc::new(Cell::new(0)),
        }
    }

    /// A large request meeting the budget is said as more than the whole budget only when it is.
    #[test]
    fn a_large_request_is_said_against_what_is_left() {
        let m = meter(200_000_000);
        m.charge(180_000_000).expect("within the budget");
        let e = m.charge(40_000_000).expect_err("over").to_string();
        assert!(
            e.contains("about 40000000 units of work at once, more than the 20000000 left of the 200 million"),
            "{e}"
        );
        let m = meter(200_000_000);
        let e = m.charge(300_000_000).expect_err("over").to_string();
        assert!(
            e.contains("at once, more than the 200 million") && !e.contains("left"),
            "{e}"
        );
    }

    /// The wall clock is read at each charge while a call runs, never between calls.
    #[test]
    fn a_charge_reads_the_wall_clock_only_during_a_call() {
        let mut m = meter(200_000_000);
        m.wall = std::time::Duration::ZERO;
        std::thread::sleep(std::time::Duration::from_millis(2));
        m.charge(1).expect("no call under way");
        m.depth.set(1);
        let e = m.charge(1).expect_err("past the wall time").to_string();
        assert!(e.contains("time limit exceeded"), "{e}");
    }
}
