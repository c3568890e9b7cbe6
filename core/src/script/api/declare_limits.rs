//! The limits on what a ruleset declares: how many declarations, and how large, one ruleset may
//! make (see `declaring`). Declarations live in the engine's memory, outside the Lua state's own
//! limit, so these bound what a ruleset declaring in a loop can take.

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

/// How much this Lua state's ruleset has declared so far.
#[derive(Default)]
struct Declared {
    count: std::cell::Cell<u64>,
    bytes: std::cell::Cell<u64>,
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
            "kessel.{what}: the declaration holds over {MAX_DECLARATION_BYTES} bytes, the limit for one"
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

/// [`declared_size`] of a declaration's table.
pub(super) fn table_size(t: &Table) -> u64 {
    declared_size(&mlua::Value::Table(t.clone()), MAX_DECLARATION_BYTES + 1)
}

/// Roughly how many bytes the engine keeps for a declared value: its strings' lengths and a few
/// bytes per entry, tables counted once however often they appear, reading stopped past `cap`.
/// Raw reads only: no metamethod runs.
pub(super) fn declared_size(v: &mlua::Value, cap: u64) -> u64 {
    fn walk(
        v: &mlua::Value,
        seen: &mut std::collections::HashSet<usize>,
        total: &mut u64,
        cap: u64,
    ) {
        if *total > cap {
            return;
        }
        match v {
            mlua::Value::String(s) => *total += s.as_bytes().len() as u64 + 8,
            mlua::Value::Table(t) => {
                if !seen.insert(t.to_pointer() as usize) {
                    return;
                }
                *total += 16;
                for (k, x) in t.clone().pairs::<mlua::Value, mlua::Value>().flatten() {
                    if *total > cap {
                        return;
                    }
                    walk(&k, seen, total, cap);
                    walk(&x, seen, total, cap);
                }
            }
            _ => *total += 8,
        }
    }
    let mut total = 0;
    walk(v, &mut std::collections::HashSet::new(), &mut total, cap);
    total
}
