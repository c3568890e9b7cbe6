//! Script errors: what Lua raised, turned into a [`ScriptError`] located by file and line, in
//! words a modder can act on (error values that are not messages are described, and a path
//! named inside a message is not taken for where it was raised).

use super::strlib;

/// A script failed: syntax, runtime error, budget, memory, or a sandbox refusal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ScriptError {
    /// `file:line: message`, as precise as Lua could say.
    pub message: String,
    /// Script file, when known.
    pub file: Option<String>,
    /// Line, when known.
    pub line: Option<usize>,
}

impl ScriptError {
    /// Builds an error from a Lua error, locating it by the innermost `file:line:` it mentions, or
    /// by the last line the budget hook saw.
    pub fn from_lua(err: &mlua::Error, last_seen: Option<(String, usize)>) -> ScriptError {
        let mut text = match err {
            mlua::Error::CallbackError { traceback, cause } => {
                // (only this callback's own error: one raised deeper, inside Lua this callback
                // ran, is a CallbackError of its own, with its own traceback, function and line)
                let function = api_function(traceback);
                // a limit met while an argument was read (a list is charged before it is copied)
                // is said as the limit, not as a "bad argument #1: runtime error: …"
                let cause = match cause.as_ref() {
                    mlua::Error::BadArgument { cause: read, .. }
                        if matches!(innermost(read), mlua::Error::RuntimeError(_)) =>
                    {
                        innermost(read)
                    }
                    other => other,
                };
                let inner = match plain_bad_argument(cause, function)
                    .or_else(|| plain_bare_conversion(cause, function))
                    .or_else(|| plain_deserialize(cause, function))
                {
                    Some(message) => ScriptError::plain(message),
                    None => ScriptError::from_lua(cause, None),
                };
                if inner.file.is_some() {
                    return inner;
                }
                // an error raised by a Rust function: blame the Lua line that called it
                let caller = traceback.lines().find_map(|l| {
                    let (f, line) = locate(l.trim());
                    Some((f?, line?))
                });
                match caller {
                    Some((f, l)) => {
                        return ScriptError {
                            message: format!("{f}:{l}: {}", inner.message),
                            file: Some(f),
                            line: Some(l),
                        }
                    }
                    None => inner.message,
                }
            }
            mlua::Error::MemoryError(m) => format!("memory limit exceeded ({m})"),
            mlua::Error::SyntaxError { message, .. } => message.clone(),
            mlua::Error::RuntimeError(m) => m.clone(),
            mlua::Error::ExternalError(e) => e.to_string(),
            other => other.to_string(),
        };
        // the Lua traceback repeats what the first line says, in engine terms; but an error value
        // that is no message (`error()`, a table) is blamed on the innermost script frame it
        // names. A message raised at level 0 (`error(msg, 0)`) keeps no position: its author
        // meant it to read without one (PGG's "unknown odds flag" for a typo on the command line).
        let mut raised_at = None;
        let mut by_error = false;
        let mut object = false;
        if let Some(i) = text.find("\nstack traceback:") {
            raised_at = text[i..].lines().find_map(|l| {
                let (f, line) = locate(l.trim());
                Some((f?, line?))
            });
            // the innermost frame (after the message handler's own `[C]: in ?`): `error` itself
            // when the script raised the message
            let innermost = text[i..]
                .lines()
                .skip_while(|l| !l.starts_with("stack traceback:"))
                .skip(1)
                .find(|l| l.trim() != "[C]: in ?")
                .map(str::trim);
            // (the sandbox's `error` calls Lua's as an upvalue, see strlib)
            by_error = matches!(
                innermost,
                Some("[C]: in function 'error'" | "[C]: in upvalue 'error'")
            );
            // `error(value)` with a value that is no string: the sandbox raises it through
            // `object_error` (strlib), and whatever its __tostring gave has no position
            object = innermost.is_some_and(|l| l.ends_with("'object_error'"));
            text.truncate(i);
        }
        // strip the Rust-side "runtime error: " prefix mlua adds on some paths
        if let Some(rest) = text.strip_prefix("runtime error: ") {
            text = rest.to_string();
        }
        // raised inside the sandbox's own wrappers (`table.insert(nil, 1)`): the script's mistake,
        // at the line that called the wrapper, under the function's public name
        let in_wrapper = strlib::in_wrapper(&text);
        if let Some(plain) = &in_wrapper {
            text = plain.clone();
        }
        let described = describe_error_value(text.clone());
        // a message with no position that no `error` call raised comes from inside a library
        // function (`table.sort` comparing a string with a number): the script line calling it
        let from_library = !by_error && raised_at.is_some() && locate(&text).0.is_none();
        let last_seen = if described != text || in_wrapper.is_some() || from_library || object {
            raised_at.or(last_seen)
        } else {
            last_seen
        };
        let text = described;
        let first_line = text.lines().next().unwrap_or("").to_string();
        let (file, line) = locate(&first_line);
        if file.is_none() {
            if let Some((f, l)) = last_seen {
                return ScriptError {
                    message: format!("{f}:{l}: {first_line}"),
                    file: Some(f),
                    line: Some(l),
                };
            }
        }
        ScriptError {
            message: text,
            file,
            line,
        }
    }

    /// The error located: file, line and the message without them.
    pub fn located(&self) -> crate::error::Located {
        self.into()
    }

    /// An error with no Lua behind it.
    pub fn plain(message: impl Into<String>) -> ScriptError {
        ScriptError {
            message: message.into(),
            file: None,
            line: None,
        }
    }
}

/// What a script raised, in words, when it was not a message: `error()` (nil) and error objects
/// without `__tostring` (Lua prints them as an address, which differs from run to run).
fn describe_error_value(text: String) -> String {
    if text == "nil" {
        return "an error with no message (error() or error(nil))".into();
    }
    let is_address = |rest: &str| {
        rest.strip_prefix("0x")
            .is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()))
    };
    for kind in ["table", "userdata", "function", "thread"] {
        if let Some(rest) = text.strip_prefix(kind).and_then(|r| r.strip_prefix(": ")) {
            if is_address(rest.trim()) {
                return format!("an error object (a {kind} without __tostring)");
            }
        }
    }
    text
}

/// The function of the engine's API a traceback shows failing: the innermost frame, when the
/// traceback names it (`[C]: in function 'kessel.hex.neighbors'`, see the API's
/// `name_in_tracebacks`).
fn api_function(traceback: &str) -> Option<&str> {
    let frame = traceback
        .lines()
        .map(str::trim)
        .skip_while(|l| !l.starts_with("stack traceback:"))
        .skip(1)
        .find(|l| *l != "[C]: in ?")?;
    frame
        .strip_prefix("[C]: in function '")?
        .strip_suffix('\'')
        .filter(|name| name.starts_with("kessel."))
}

/// An argument of the wrong type given to one of the engine's functions, in a modder's words:
/// "bad argument #1 to `kessel.hex.neighbors`: expected a string, got a table" (the bindings'
/// own wording names Rust types: "error converting Lua table to String"). `None` for any other
/// error.
fn plain_bad_argument(e: &mlua::Error, function: Option<&str>) -> Option<String> {
    let mlua::Error::BadArgument {
        to,
        pos,
        name,
        cause,
    } = e
    else {
        return None;
    };
    let method = to.as_deref().and_then(|t| t.split_once('.'));
    let wrong = match innermost(cause) {
        // an engine object of another kind, or none, where the method's own kind belongs
        mlua::Error::UserDataTypeMismatch | mlua::Error::UserDataDestructed => {
            let kind = method.map_or("engine object".to_string(), |(k, _)| userdata_name(k));
            format!("expected a {kind}, got another kind of value")
        }
        other => plain_conversion(other)?,
    };
    // a method of the API's userdata (`LuaHexSet.union`) is named as scripts call it
    // (`hexset:union`), and its arguments counted after the value it is called on, as Lua does
    let (function, pos) = match method {
        Some((kind, m)) => (
            Some(format!("{}:{m}", userdata_name(kind))),
            pos.saturating_sub(1),
        ),
        None => (to.clone().or(function.map(str::to_string)), *pos),
    };
    if name.as_deref() == Some("self") {
        let f = function.unwrap_or_default();
        return Some(format!(
            "`{f}` was called on a value that is no {}: {wrong} (called with `.` instead of `:`?)",
            method.map_or("engine object".to_string(), |(k, _)| userdata_name(k))
        ));
    }
    let which = match name {
        Some(n) => format!("`{n}`"),
        None => format!("#{pos}"),
    };
    let target = function.map(|f| format!(" to `{f}`")).unwrap_or_default();
    Some(format!("bad argument {which}{target}: {wrong}"))
}

/// A value of the wrong type read by one of the engine's functions outside its arguments' own
/// conversion (a field of a table argument, `kessel.paths.cost{ class = "foot" }` without `to`):
/// said in plain words with the function, when the traceback names it. `None` for any other
/// error.
fn plain_bare_conversion(e: &mlua::Error, function: Option<&str>) -> Option<String> {
    let wrong = match e {
        mlua::Error::UserDataTypeMismatch => {
            "expected another kind of value, got an engine object (a hexset or a field)".to_string()
        }
        other => plain_conversion(other)?,
    };
    Some(match function {
        Some(f) => format!("`{f}`: a value it read (an argument or a field of one): {wrong}"),
        None => format!("a value of the wrong type: {wrong}"),
    })
}

/// A value the engine read as plain data that does not fit (`deserialize error: invalid type:
/// string "x", expected a boolean`), in words, with the function when the traceback names it.
fn plain_deserialize(e: &mlua::Error, function: Option<&str>) -> Option<String> {
    let mlua::Error::DeserializeError(m) = e else {
        return None;
    };
    let wrong = crate::error::plain_types(m);
    Some(match function {
        Some(f) => format!("`{f}`: a value it read does not fit: {wrong}"),
        None => format!("a value does not fit: {wrong}"),
    })
}

/// The name scripts know an API userdata by.
fn userdata_name(rust: &str) -> String {
    match rust {
        "LuaHexSet" => "hexset".to_string(),
        "LuaField" | "MovementField" => "field".to_string(),
        other => other.trim_start_matches("Lua").to_lowercase(),
    }
}

/// "expected a string, got a table": a conversion error in words, or `None` for another error.
fn plain_conversion(e: &mlua::Error) -> Option<String> {
    let mlua::Error::FromLuaConversionError {
        from,
        to: wanted,
        message,
    } = e
    else {
        return None;
    };
    let userdata;
    let expected = match wanted.as_str() {
        "String" | "string" | "str" | "Box<str>" | "BString" | "CString" | "OsString"
        | "PathBuf" | "char" => "a string",
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64" | "u128"
        | "usize" | "integer" => "a whole number",
        "f32" | "f64" | "number" => "a number",
        "table" | "Table" => "a table",
        "function" | "Function" => "a function",
        "bool" | "boolean" => "true or false",
        "Vec<String>" | "Vec<&str>" => "a list of strings",
        "Vec<u32>" | "Vec<i32>" | "Vec<i64>" | "Vec<u64>" | "Vec<usize>" => {
            "a list of whole numbers"
        }
        "Vec<f64>" => "a list of numbers",
        "&str" => "a string",
        "userdata" => {
            // "expected userdata of type 'LuaHexSet'"
            let kind = message
                .as_deref()
                .and_then(|m| m.split('\'').nth(1))
                .map(userdata_name);
            userdata = match kind.as_deref() {
                Some("hexset") => "a hexset (made by kessel.hexset{…})".to_string(),
                Some(k) => format!("a {k}"),
                None => "an engine object".to_string(),
            };
            userdata.as_str()
        }
        other => other,
    };
    let numeric = matches!(expected, "a whole number" | "a number");
    let got = match *from {
        "nil" => "nothing (nil)".to_string(),
        "string" if numeric => "a string that is no number".to_string(),
        "string" if expected == "a string" => "a string that is not valid UTF-8 text".to_string(),
        "integer" | "number" => "a number".to_string(),
        "boolean" => "a boolean".to_string(),
        other => format!("a {other}"),
    };
    // (mlua's own notes repeat what `expected` says; a range or encoding problem is kept, with
    // the range the argument takes: "out of range" alone left a script guessing at the bounds)
    let range = whole_range(wanted)
        .map(|r| format!(" ({r})"))
        .unwrap_or_default();
    let note = match message.as_deref() {
        Some("out of range") if numeric && *from == "integer" => {
            format!(" out of range{range}")
        }
        Some("out of range") if numeric => format!(" with a fraction, or out of range{range}"),
        Some(m) if !m.starts_with("expected") => format!(" ({m})"),
        _ => String::new(),
    };
    Some(format!("expected {expected}, got {got}{note}"))
}

/// The whole numbers a binding's integer type takes, in words ("from 0 to 4294967295"): what an
/// argument out of range is told it may be. (Not for a 64-bit signed one: every Lua integer
/// fits it, so a number refused there is a float with a fraction or past 2^63, and the function
/// that reads it says its own range.)
fn whole_range(rust: &str) -> Option<String> {
    let (lo, hi): (i128, i128) = match rust {
        "i8" => (i8::MIN.into(), i8::MAX.into()),
        "i16" => (i16::MIN.into(), i16::MAX.into()),
        "i32" => (i32::MIN.into(), i32::MAX.into()),
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" => (0, u32::MAX.into()),
        "u64" | "usize" => (0, u64::MAX.into()),
        _ => return None,
    };
    Some(format!("from {lo} to {hi}"))
}

/// The error a chain of Rust callbacks wraps.
pub(super) fn innermost(e: &mlua::Error) -> &mlua::Error {
    match e {
        mlua::Error::CallbackError { cause, .. } => innermost(cause),
        other => other,
    }
}

/// Finds `some/file.lua:12:` at the start of a message. A file named further on (`… is declared
/// twice`, a mod's `error("bad `x` near x.lua:9", 0)`) is part of what the message says, not
/// where it was raised: a path does not hold `: ` or a backquote.
fn locate(msg: &str) -> (Option<String>, Option<usize>) {
    let Some(idx) = msg.find(".lua:") else {
        return (None, None);
    };
    if msg[..idx].contains(": ") || msg[..idx].contains('`') {
        return (None, None);
    }
    let file = msg[..idx + 4].trim_start_matches("[string \"").to_string();
    let rest = &msg[idx + 5..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    (Some(file), digits.parse().ok())
}

/// An engine error in its own words, without mlua's "runtime error: " in front: for a message
/// that quotes one error inside another ("the check hook defined here returned …").
pub(crate) fn bare(e: &mlua::Error) -> String {
    match e {
        mlua::Error::RuntimeError(m) => m.clone(),
        mlua::Error::CallbackError { cause, .. } => bare(cause),
        other => other.to_string(),
    }
}
