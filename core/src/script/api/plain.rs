//! Plain data between Lua and the state: the values of game and unit variables.
//!
//! A plain value is nil, a boolean, a number, a string, or a table of plain values keyed by
//! strings or by positive integers. It is stored as a [`Value`] (JSON model, keys in sorted order,
//! so the state hash is the same whatever order Lua kept the keys in):
//! - a sequence `{ a, b }` is an array, a table with string keys an object (`{}` is an object
//!   unless it came out of the engine as an array);
//! - a table keyed by positive integers with holes (`{ [3] = "x", [7] = "y" }`) is an array with
//!   nulls in the holes, and comes back to Lua as the same table (a null is nil in Lua). The
//!   largest such key is [`MAX_INDEX`], so a few keys cannot make a huge array.
//!
//! Every conversion is bounded: nesting ([`MAX_DEPTH`], a table that contains itself is named as
//! such) and size (the caller's byte limit, counted as the value is built, before anything large
//! is kept in Rust memory).

use crate::state::Value;
use mlua::{Lua, LuaSerdeExt, Table};

/// How deep tables may nest.
pub(crate) const MAX_DEPTH: usize = 64;
/// The largest integer key of a table with holes.
pub(crate) const MAX_INDEX: i64 = 1 << 16;

/// What a conversion may build.
struct Budget {
    /// Bytes left (roughly the value's JSON length).
    left: usize,
    /// The limit, for the message.
    max: usize,
    /// The tables being converted, outermost first (to name a table that contains itself).
    open: Vec<*const std::ffi::c_void>,
    /// What is being converted, for the message.
    what: String,
}

impl Budget {
    fn spend(&mut self, n: usize) -> mlua::Result<()> {
        if n > self.left {
            return Err(mlua::Error::runtime(format!(
                "{} is over the size limit ({} bytes as JSON)",
                self.what, self.max
            )));
        }
        self.left -= n;
        Ok(())
    }
}

/// Converts a Lua value to plain data; `what` names it in errors, `max` bounds its size in bytes.
pub(crate) fn from_lua(lua: &Lua, v: &mlua::Value, what: &str, max: usize) -> mlua::Result<Value> {
    let mut b = Budget {
        left: max,
        max,
        open: Vec::new(),
        what: what.to_string(),
    };
    let out = convert(lua, v, &mut b)?;
    // native work a script drives is charged to its budget
    crate::script::charge(lua, (max - b.left) as u64)?;
    Ok(out)
}

fn convert(lua: &Lua, v: &mlua::Value, b: &mut Budget) -> mlua::Result<Value> {
    use mlua::Value as V;
    Ok(match v {
        V::Nil => {
            b.spend(4)?;
            Value::Null
        }
        V::LightUserData(p) if p.0.is_null() => {
            b.spend(4)?;
            Value::Null
        }
        V::Boolean(x) => {
            b.spend(5)?;
            Value::Bool(*x)
        }
        V::Integer(i) => {
            b.spend(20)?;
            Value::from(*i)
        }
        V::Number(x) => {
            b.spend(24)?;
            let n = serde_json::Number::from_f64(*x).ok_or_else(|| {
                mlua::Error::runtime(format!("{}: {x} is not a storable number", b.what))
            })?;
            Value::Number(n)
        }
        V::String(s) => {
            b.spend(s.as_bytes().len() + 2)?;
            Value::String(s.to_str()?.to_string())
        }
        V::Table(t) => table(lua, t, b)?,
        other => {
            return Err(mlua::Error::runtime(format!(
                "{}: a {} is not plain data (nil, boolean, number, string or table)",
                b.what,
                other.type_name()
            )))
        }
    })
}

fn table(lua: &Lua, t: &Table, b: &mut Budget) -> mlua::Result<Value> {
    let ptr = t.to_pointer();
    if b.open.contains(&ptr) {
        return Err(mlua::Error::runtime(format!(
            "{}: a recursive table (one that contains itself) is not plain data",
            b.what
        )));
    }
    if b.open.len() >= MAX_DEPTH {
        return Err(mlua::Error::runtime(format!(
            "{}: tables nested deeper than the recursion limit ({MAX_DEPTH})",
            b.what
        )));
    }
    b.open.push(ptr);
    let out = table_body(lua, t, b);
    b.open.pop();
    out
}

/// Whether `t` has no metatable, or only the engine's mark on arrays; else an error naming `what`
/// (the engine reads a table's own fields, so a proxy would read as empty: see
/// [`super::declare_limits::Unplain::Metatable`]). Returns whether `t` is marked as an array.
pub(crate) fn own_fields_only(lua: &Lua, t: &Table, what: &str) -> mlua::Result<bool> {
    match t.metatable() {
        None => Ok(false),
        Some(m) if m.to_pointer() == lua.array_metatable().to_pointer() => Ok(true),
        Some(_) => Err(mlua::Error::runtime(format!(
            "{what}: {}",
            super::declare_limits::Unplain::Metatable.describe()
        ))),
    }
}

fn table_body(lua: &Lua, t: &Table, b: &mut Budget) -> mlua::Result<Value> {
    b.spend(2)?;
    let array_mt = own_fields_only(lua, t, &b.what)?;
    let mut ints: Vec<(i64, mlua::Value)> = Vec::new();
    let mut strs: Vec<(String, mlua::Value)> = Vec::new();
    for pair in t.pairs::<mlua::Value, mlua::Value>() {
        let (k, v) = pair?;
        match k {
            mlua::Value::Integer(i) => ints.push((i, v)),
            mlua::Value::Number(x) if x.fract() == 0.0 && x.abs() < 1e15 => {
                ints.push((x as i64, v))
            }
            mlua::Value::String(s) => {
                b.spend(s.as_bytes().len() + 3)?;
                strs.push((s.to_str()?.to_string(), v));
            }
            mlua::Value::Number(x) => {
                return Err(mlua::Error::runtime(format!(
                    "{}: a table key must be a string or a whole number, not {}",
                    b.what,
                    super::shown_number(x)
                )))
            }
            other => {
                return Err(mlua::Error::runtime(format!(
                    "{}: a table key must be a string or an integer, not {}",
                    b.what,
                    super::a_type(&other)
                )))
            }
        }
        b.spend(1)?;
    }
    if !ints.is_empty() && !strs.is_empty() {
        return Err(mlua::Error::runtime(format!(
            "{}: a table mixes integer and string keys",
            b.what
        )));
    }
    if !strs.is_empty() || (ints.is_empty() && !array_mt) {
        let mut m = serde_json::Map::new();
        for (k, v) in strs {
            let v = convert(lua, &v, b)?;
            m.insert(k, v);
        }
        return Ok(Value::Object(m));
    }
    ints.sort_by_key(|(i, _)| *i);
    let (lo, hi) = match (ints.first(), ints.last()) {
        (Some(lo), Some(hi)) => (lo.0, hi.0),
        _ => return Ok(Value::Array(Vec::new())),
    };
    let dense = lo == 1 && hi == ints.len() as i64;
    if !dense && (lo < 1 || hi > MAX_INDEX) {
        return Err(mlua::Error::runtime(format!(
            "{}: integer keys must run from 1 to at most {MAX_INDEX} (got {lo} to {hi})",
            b.what
        )));
    }
    // the holes cost as much as nulls in JSON
    b.spend(5 * (hi as usize - ints.len()))?;
    let mut out = vec![Value::Null; hi as usize];
    for (i, v) in ints {
        out[(i - 1) as usize] = convert(lua, &v, b)?;
    }
    Ok(Value::Array(out))
}

/// Converts plain data to Lua: arrays become sequences (marked as arrays, so an empty one stays an
/// array when stored again), nulls become nil (holes), objects become string-keyed tables.
pub(crate) fn to_lua(lua: &Lua, v: &Value) -> mlua::Result<mlua::Value> {
    Ok(match v {
        Value::Null => mlua::Value::Nil,
        Value::Bool(x) => mlua::Value::Boolean(*x),
        Value::Number(n) => match n.as_i64() {
            Some(i) => mlua::Value::Integer(i),
            None => mlua::Value::Number(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => mlua::Value::String(super::strings::text(lua, s)?),
        Value::Array(items) if items.iter().any(Value::is_null) => {
            // holes stay holes: only the values are set, as in `{ [3] = "x" }`
            let t = lua.create_table_with_capacity(items.len(), 0)?;
            for (i, item) in items.iter().enumerate() {
                if !item.is_null() {
                    t.raw_set(i + 1, to_lua(lua, item)?)?;
                }
            }
            t.set_metatable(Some(lua.array_metatable()))?;
            mlua::Value::Table(t)
        }
        Value::Array(items) => {
            // one call into Lua instead of a protected call per item (see `strings.rs`)
            let values = items
                .iter()
                .map(|item| to_lua(lua, item))
                .collect::<mlua::Result<Vec<_>>>()?;
            let t = super::strings::list(lua, values)?;
            t.set_metatable(Some(lua.array_metatable()))?;
            mlua::Value::Table(t)
        }
        Value::Object(m) => {
            let t = lua.create_table_with_capacity(0, m.len())?;
            let mut pairs = Vec::with_capacity(2 * m.len());
            for (k, item) in m {
                pairs.push(mlua::Value::String(super::strings::intern(lua, k)?));
                pairs.push(to_lua(lua, item)?);
            }
            mlua::Value::Table(super::strings::fill(lua, t, pairs)?)
        }
    })
}

/// How deep `lua.to_value` lets tables nest (mlua's default), for [`json_to_lua`] to refuse the
/// same values with the same error.
const SERDE_NESTING: usize = 128;

/// Converts JSON to Lua as `lua.to_value` does (a null is the null light userdata, arrays are
/// marked as arrays and have no holes, the same nesting limit and error), with the engine's kept
/// strings and one call into Lua per table instead of a protected call per string and per field:
/// every action handed to the rules (validators, handlers, a computer player's lists) goes this
/// way.
pub(crate) fn json_to_lua(lua: &Lua, v: &Value) -> mlua::Result<mlua::Value> {
    json_within(lua, v, SERDE_NESTING)
}

fn json_within(lua: &Lua, v: &Value, left: usize) -> mlua::Result<mlua::Value> {
    let deeper = || {
        left.checked_sub(1)
            .ok_or_else(|| mlua::Error::SerializeError("recursion limit exceeded".into()))
    };
    Ok(match v {
        Value::Null => mlua::Value::NULL,
        Value::Array(items) => {
            let left = deeper()?;
            let values = items
                .iter()
                .map(|item| json_within(lua, item, left))
                .collect::<mlua::Result<Vec<_>>>()?;
            let t = super::strings::list(lua, values)?;
            t.set_metatable(Some(lua.array_metatable()))?;
            mlua::Value::Table(t)
        }
        Value::Object(m) => {
            let left = deeper()?;
            let t = lua.create_table_with_capacity(0, m.len())?;
            let mut pairs = Vec::with_capacity(2 * m.len());
            for (k, item) in m {
                pairs.push(mlua::Value::String(super::strings::text(lua, k)?));
                pairs.push(json_within(lua, item, left)?);
            }
            mlua::Value::Table(super::strings::fill(lua, t, pairs)?)
        }
        // booleans, numbers and strings convert as plain data does
        other => to_lua(lua, other)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(lua: &Lua, code: &str) -> (Value, String) {
        let v: mlua::Value = lua.load(code).eval().expect("eval");
        let stored = from_lua(lua, &v, "test", 1 << 20).expect("plain");
        let back = to_lua(lua, &stored).expect("to lua");
        let show: mlua::Function = lua
            .load(
                r#"return function(t)
                  local keys = {}
                  for k, v in pairs(t) do keys[#keys + 1] = tostring(k) .. "=" .. tostring(v) end
                  table.sort(keys)
                  return table.concat(keys, ",")
                end"#,
            )
            .eval()
            .expect("fn");
        (stored, show.call(back).expect("show"))
    }

    #[test]
    fn integer_keys_with_holes_come_back_as_the_same_table() {
        let lua = Lua::new();
        let (stored, shown) = round_trip(&lua, r#"return { [3] = "x", [7] = "y" }"#);
        assert_eq!(
            stored,
            serde_json::json!([null, null, "x", null, null, null, "y"])
        );
        assert_eq!(shown, "3=x,7=y");
    }

    #[test]
    fn nested_tables_keep_their_kinds_and_sorted_keys() {
        let lua = Lua::new();
        let (stored, _) = round_trip(
            &lua,
            r#"return { z = { 1, 2.5, true }, a = { name = "x", deep = { k = false } } }"#,
        );
        assert_eq!(
            stored.to_string(),
            r#"{"a":{"deep":{"k":false},"name":"x"},"z":[1,2.5,true]}"#
        );
    }

    #[test]
    fn unplain_values_are_refused_with_a_reason() {
        let lua = Lua::new();
        let refuse = |code: &str, max: usize| {
            let v: mlua::Value = lua.load(code).eval().expect("eval");
            from_lua(&lua, &v, "the value", max)
                .expect_err(code)
                .to_string()
        };
        assert!(refuse("local t = {} t.me = t return t", 1000).contains("recursive"));
        assert!(refuse("return { 1, x = 2 }", 1000).contains("mixes"));
        assert!(refuse("return { [1e6] = 1 }", 1 << 30).contains("integer keys"));
        assert!(refuse("return { [0] = 1 }", 1000).contains("integer keys"));
        assert!(refuse("return { f = print }", 1000).contains("not plain data"));
        assert!(refuse("return { [true] = 1 }", 1000).contains("key"));
        assert!(refuse("return string.rep('x', 100)", 50).contains("size limit"));
        assert!(refuse("return 0/0", 1000).contains("not a storable number"));
        assert!(refuse(
            "local t = {} for i = 1, 100 do t = { t } end return t",
            1 << 20
        )
        .contains("recursion limit"));
    }

    #[test]
    fn json_comes_to_lua_as_serde_brings_it() {
        let lua = Lua::new();
        let show: mlua::Function = lua
            .load(
                r#"return function(v)
                  local function s(x)
                    if type(x) ~= "table" then return tostring(x) end
                    local keys = {}
                    for k, y in pairs(x) do keys[#keys + 1] = tostring(k) .. "=" .. s(y) end
                    table.sort(keys)
                    return (getmetatable(x) and "[" or "{") .. table.concat(keys, ",") .. "}"
                  end
                  return s(v)
                end"#,
            )
            .eval()
            .expect("fn");
        let values = [
            serde_json::json!({"a": [1, null, 2.5, "x"], "b": {}, "c": [], "d": null, "e": true}),
            serde_json::json!([[], [[1]], {"k": [null]}]),
            serde_json::json!(u64::MAX),
            serde_json::json!(-3),
            serde_json::json!(
                "a string longer than the strings the engine keeps for reuse, by far"
            ),
        ];
        for v in values {
            let ours = json_to_lua(&lua, &v).expect("ours");
            let serde = lua.to_value(&v).expect("serde");
            let (a, b): (String, String) = (
                show.call(ours).expect("show ours"),
                show.call(serde).expect("show serde"),
            );
            assert_eq!(a, b, "{v}");
        }
        // the same nesting limit and error
        let mut deep = serde_json::json!(1);
        for _ in 0..SERDE_NESTING {
            deep = serde_json::json!([deep]);
        }
        assert!(json_to_lua(&lua, &deep).is_ok());
        assert!(lua.to_value(&deep).is_ok());
        let deeper = serde_json::json!({ "x": deep });
        assert_eq!(
            json_to_lua(&lua, &deeper)
                .expect_err("too deep")
                .to_string(),
            lua.to_value(&deeper).expect_err("too deep").to_string()
        );
    }

    #[test]
    fn an_empty_array_from_the_engine_stays_an_array() {
        let lua = Lua::new();
        let back = to_lua(&lua, &serde_json::json!([])).expect("to lua");
        let again = from_lua(&lua, &back, "v", 100).expect("plain");
        assert_eq!(again, serde_json::json!([]));
    }
}
