//! The limits on what a ruleset declares: how many declarations, and how large, one ruleset may
//! make (see `declaring`). Declarations live in the engine's memory, outside the Lua state's own
//! limit, so these bound what a ruleset declaring in a loop can take.

use crate::ruleset::Site;
use crate::world::{Shared, Stage};
use mlua::{Lua, Table};

/// The most declarations one ruleset may make: far above any real one (the bundled rulesets make
/// a few hundred); each is kept in the engine's memory, outside the Lua state's limit, and some
/// kinds are checked against all before them.
pub(super) const MAX_DECLARATIONS: u64 = 20_000;

/// The most one declaration may hold (its strings and entries, roughly in bytes), and all of a
/// ruleset's together: the bundled rulesets' whole source is under a megabyte.
pub(super) const MAX_DECLARATION_BYTES: u64 = 1 << 20;
const MAX_DECLARED_BYTES: u64 = 64 << 20;

/// How much this Lua state's ruleset has declared so far, and where each id was first declared.
#[derive(Default)]
struct Declared {
    count: std::cell::Cell<u64>,
    bytes: std::cell::Cell<u64>,
    /// (kind, id) → the line that declared it (at most one entry a declaration).
    sites: std::cell::RefCell<std::collections::BTreeMap<(String, String), Option<Site>>>,
}

/// Refuses a declaration outside the declaring stage, and one past the limits: each is copied
/// into the engine's memory, which Lua's memory limit does not see, so a ruleset declaring in a
/// loop (or declaring a 100 MB name again and again) would otherwise grow the process without
/// bound. The work of reading it is charged to the budget.
pub(super) fn declaring(lua: &Lua, world: &Shared, what: &str, size: u64) -> mlua::Result<()> {
    if world.borrow().stage() != Stage::Declare {
        return Err(mlua::Error::runtime(format!(
            "kessel.{what} is a declaration: call it while the ruleset loads, not during play"
        )));
    }
    crate::script::charge(lua, 100 + size / 8)?;
    if size > MAX_DECLARATION_BYTES {
        return Err(mlua::Error::runtime(format!(
            "kessel.{what}: the declaration holds over {MAX_DECLARATION_BYTES} bytes (a table \
             appearing N times counts N times), or nests tables more than {} deep: the limits for \
             one",
            super::plain::MAX_DEPTH
        )));
    }
    if lua.app_data_ref::<Declared>().is_none() {
        lua.set_app_data(Declared::default());
    }
    let declared = lua
        .app_data_ref::<Declared>()
        .ok_or_else(|| mlua::Error::runtime("declaration count missing"))?;
    let count = declared.count.get() + 1;
    let bytes = declared.bytes.get().saturating_add(size);
    if count > MAX_DECLARATIONS {
        return Err(mlua::Error::runtime(format!(
            "kessel.{what}: over {MAX_DECLARATIONS} declarations, the limit for a ruleset (declaring in an endless loop?)"
        )));
    }
    if bytes > MAX_DECLARED_BYTES {
        return Err(mlua::Error::runtime(format!(
            "kessel.{what}: the ruleset's declarations hold over {MAX_DECLARED_BYTES} bytes together, the limit"
        )));
    }
    declared.count.set(count);
    declared.bytes.set(bytes);
    Ok(())
}

/// The file and line of the Lua code that made the declaration being run, for problems found
/// only once everything has loaded. Helpers defined in text chunks are skipped up to a file.
pub(super) fn caller_site(lua: &Lua) -> Option<Site> {
    (1..16).find_map(|level| {
        lua.inspect_stack(level, |d| {
            let file = d.source().source?.strip_prefix('@')?.to_string();
            Some(Site {
                file,
                line: d.current_line()?,
            })
        })
        .flatten()
    })
}

/// Refuses a second declaration of the same `what` (`unit_type`, `terrain`, a plain table: kinds a
/// ruleset declares data of, not variants, and not `action`, which is replaced on purpose to wrap
/// a handler) and `id` (empty for one of a kind, as the ruleset or the main sequence), naming
/// where the first was made: the second replaced it without a word, so a mod's clash with the
/// ruleset it builds on (or a pasted duplicate) went unseen. Call after [`declaring`].
pub(super) fn declared_once(lua: &Lua, what: &str, id: &str) -> mlua::Result<()> {
    let declared = lua
        .app_data_ref::<Declared>()
        .ok_or_else(|| mlua::Error::runtime("declaration count missing"))?;
    let mut sites = declared.sites.borrow_mut();
    let key = (what.to_string(), id.to_string());
    let Some(first) = sites.get(&key) else {
        sites.insert(key, caller_site(lua));
        return Ok(());
    };
    let named = if id.is_empty() {
        format!("kessel.{what}")
    } else {
        format!("kessel.{what} `{id}`")
    };
    let at = first.as_ref().map_or_else(
        || "first in a chunk without a file".to_string(),
        |s| format!("first at line {} of {}", s.line, s.file),
    );
    let remedy = if id.is_empty() {
        "keep one of the two"
    } else {
        "change the first, or give this one its own id"
    };
    Err(mlua::Error::runtime(format!(
        "{named} is declared twice ({at}): a second declaration would replace the first \
         unseen; {remedy}"
    )))
}

/// [`declared_size`] of a declaration's table.
pub(super) fn table_size(t: &Table) -> u64 {
    declared_size(&mlua::Value::Table(t.clone()), MAX_DECLARATION_BYTES + 1)
}

/// Roughly how many bytes the engine keeps for a declared value: its strings' lengths and a few
/// bytes per entry, reading stopped past `cap`. A table is counted each time it appears, as the
/// copy into the engine makes one each time (counted once, a list of five thousand references to
/// one 100 KB table passed as 100 KB and took 600 MB); a table nested more than
/// [`super::plain::MAX_DEPTH`] deep (or inside itself) counts as over any cap, before the copy's
/// recursion could overflow the stack (a chain of a million nested tables aborted the engine).
/// Raw reads only: no metamethod runs.
pub(super) fn declared_size(v: &mlua::Value, cap: u64) -> u64 {
    measure(v, cap, None).0
}

/// What makes a value handed to the engine unreadable as plain data, found while it is measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Unplain {
    /// A table with a metatable other than the engine's mark on arrays: the engine reads a
    /// table's own fields, so a proxy (`__index`, `__len`, `__pairs` over an empty table) would
    /// read as empty, and an object's methods would be skipped unseen.
    Metatable,
    /// A number that is not finite (NaN, an infinity): JSON has no such number, and the copy
    /// would make it `null` without a word.
    NotFinite(f64),
}

impl Unplain {
    /// The fault in words, for a message saying what held it.
    pub(super) fn describe(self) -> String {
        match self {
            Unplain::Metatable => "a table with a metatable (a proxy or an object): the engine \
                reads a table's own fields only, never what `__index`, `__len` or `__pairs` \
                give, so hand it plain tables"
                .to_string(),
            Unplain::NotFinite(x) => {
                format!("the number {x}, which is not finite: give a number the game can store")
            }
        }
    }
}

/// [`declared_size`], and with `lua` given, the first thing in `v` that is not plain data (see
/// [`Unplain`]); both found in the one raw walk.
pub(super) fn measure(v: &mlua::Value, cap: u64, lua: Option<&Lua>) -> (u64, Option<Unplain>) {
    struct Walk {
        total: u64,
        cap: u64,
        array_mt: Option<*const std::ffi::c_void>,
        fault: Option<Unplain>,
    }
    fn walk(v: &mlua::Value, depth: usize, w: &mut Walk) {
        if w.total > w.cap || w.fault.is_some() {
            return;
        }
        match v {
            mlua::Value::String(s) => w.total += s.as_bytes().len() as u64 + 8,
            mlua::Value::Number(x) if w.array_mt.is_some() && !x.is_finite() => {
                w.fault = Some(Unplain::NotFinite(*x));
            }
            mlua::Value::Table(t) => {
                if depth >= super::plain::MAX_DEPTH {
                    w.total = w.total.saturating_add(w.cap).saturating_add(1);
                    return;
                }
                if let (Some(array), Some(mt)) = (w.array_mt, t.metatable()) {
                    if mt.to_pointer() != array {
                        w.fault = Some(Unplain::Metatable);
                        return;
                    }
                }
                w.total += 16;
                // one protected call per table instead of one per pair; an error (the walk
                // stopping, or memory) ends this table's walk, as an error item ended `pairs`
                let _ = t.for_each::<mlua::Value, mlua::Value>(|k, x| {
                    if w.total > w.cap || w.fault.is_some() {
                        return Err(mlua::Error::runtime("measured enough"));
                    }
                    walk(&k, depth + 1, w);
                    walk(&x, depth + 1, w);
                    Ok(())
                });
            }
            _ => w.total += 8,
        }
    }
    let mut w = Walk {
        total: 0,
        cap,
        array_mt: lua.map(|l| mlua::LuaSerdeExt::array_metatable(l).to_pointer()),
        fault: None,
    };
    walk(v, 0, &mut w);
    (w.total, w.fault)
}
