//! Error types at the core's boundaries: loading files and running scripts.
//!
//! A rule *rejection* is not an error (see [`crate::action::Rejection`]); these are for broken
//! input: a TOML typo, an unknown hex, a Lua syntax error, a script over its budget.

use std::fmt;
use std::path::{Path, PathBuf};

/// A problem in a data or script file, located by file and line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct LoadError {
    /// The file.
    pub file: PathBuf,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = shown_path(&self.file);
        // errors are listed one a line (`LoadErrors`): a message's own further lines (a check
        // hook's text) are indented, so none can pass for the next error of the list
        let message = continued(&self.message);
        match self.line {
            Some(l) => write!(f, "{}:{}: {}", file.display(), l, message),
            None => write!(f, "{}: {}", file.display(), message),
        }
    }
}

mod shown;
pub use shown::{
    continued, hidden_char, io_words, printable, printable_name, quoted_json, show_folder_as,
    shown_path, terminal_line, terminal_safe, xml_text, CONTINUATION, MAX_SHOWN_MESSAGE,
};

impl LoadError {
    /// A located error.
    pub fn new(file: &Path, line: Option<usize>, message: impl Into<String>) -> LoadError {
        LoadError {
            file: file.to_path_buf(),
            line,
            message: message.into(),
        }
    }
}

/// Every problem found in one load (loading collects, it does not stop at the first).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct LoadErrors(pub Vec<LoadError>);

impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl From<LoadError> for LoadErrors {
    fn from(e: LoadError) -> Self {
        LoadErrors(vec![e])
    }
}

/// 1-based line of a byte offset in a text.
pub fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// Line starts of a text, so that locating many offsets stays linear in the text's size.
#[derive(Clone, Debug)]
pub struct LineIndex(Vec<usize>);

impl LineIndex {
    /// Indexes the newlines of `text`.
    pub fn new(text: &str) -> LineIndex {
        LineIndex(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i)
                .collect(),
        )
    }

    /// How many lines the text has (one more than its line breaks).
    pub fn count(&self) -> usize {
        self.0.len() + 1
    }

    /// 1-based line of a byte offset (the same answer as [`line_of`]).
    pub fn line(&self, offset: usize) -> usize {
        self.0.partition_point(|&nl| nl < offset) + 1
    }
}

/// The UTF-8 byte-order mark.
const UTF8_BOM: &[u8] = b"\xef\xbb\xbf";

/// Reads a text file; bytes that are not UTF-8 are an error naming their line. A leading
/// byte-order mark is dropped.
pub fn read_text(path: &Path, what: &str) -> Result<String, LoadError> {
    let mut bytes = crate::fsio::read_bounded(path, crate::fsio::MAX_TEXT_INPUT)
        .map_err(|e| LoadError::new(path, None, format!("cannot read {what}: {}", io_words(&e))))?;
    // a byte-order mark some editors write at the start of UTF-8 text is no part of it (Lua read
    // it as "unexpected symbol near '<\239>'" on line 1)
    if bytes.starts_with(UTF8_BOM) {
        bytes.drain(..UTF8_BOM.len());
    }
    String::from_utf8(bytes).map_err(|e| {
        let ok = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..ok].iter().filter(|b| **b == b'\n').count() + 1;
        LoadError::new(
            path,
            Some(line),
            format!("the {what} is not UTF-8 text (invalid byte at offset {ok}); save it as UTF-8"),
        )
    })
}

/// How deep arrays and inline tables may nest in a data file (none of Kessel's needs more than a
/// few levels; the parser recurses once per level).
pub const MAX_TOML_DEPTH: usize = 64;

/// How many values (keys, list items, tables) a scenario or map file may hold. A parser turns each
/// into a node of a few hundred bytes, so the file's byte limit alone let a 50 MB list of numbers
/// take 4.7 GB; this admits a scenario's 100,000 markers or 20,000 units and keeps a parse under
/// about 250 MB. The bundled files hold a few thousand.
pub const MAX_TOML_VALUES: usize = 500_000;

/// How many values the smaller TOML files (a campaign, a profile, a package's manifest) may hold:
/// their parse takes up to a kilobyte a value (a 16 MB campaign of 200,000 games took 390 MB
/// before its game count was checked).
pub const MAX_SMALL_TOML_VALUES: usize = 100_000;

/// How many values (actions, events and each of their fields) a JSON file the engine reads whole
/// (a save, a campaign save) may hold: a parsed value takes 70 to 100 bytes, so about 200 MB at
/// most. A long game's save holds a few hundred thousand.
pub const MAX_JSON_VALUES: usize = 2_000_000;

/// The syntax [`shape`] scans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// TOML: `#` comments, `"`, `'` and triple-quoted strings; `=` starts a value.
    Toml,
    /// JSON: `"` strings only.
    Json,
}

/// What [`shape`] found over a limit, and at which 1-based line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    /// Lists or tables nested deeper than the depth limit.
    Depth(usize),
    /// More values than the value limit.
    Values(usize),
}

/// Scans data text without building anything, counting its values (each `=`, `,`, `[` and `{`
/// outside strings and comments: at least one per key, list item and table) and the nesting of
/// its lists and tables, and stops at the line where either passes its limit.
pub fn shape(text: &str, syntax: Syntax, max_depth: usize, max_values: usize) -> Result<(), Over> {
    shape_count(text, syntax, max_depth, max_values).map(|_| ())
}

/// [`shape`], answering how many values the text holds when it is within the limits (a scenario
/// and the files it extends share one budget).
pub fn shape_count(
    text: &str,
    syntax: Syntax,
    max_depth: usize,
    max_values: usize,
) -> Result<usize, Over> {
    let toml = syntax == Syntax::Toml;
    let b = text.as_bytes();
    let (mut i, mut depth, mut line, mut values) = (0usize, 0usize, 1usize, 1usize);
    // the dots of a TOML key on this line (`a.b.c = 1`, `[a.b.c]`): each is a table nested in
    // the last, which the parser recurses into as into a list (a key of 100,000 parts was its
    // bare "recursion limit", no line); a value's dots (`1.5`) come after its `=`
    let (mut key_dots, mut in_value) = (0usize, false);
    while i < b.len() {
        match b[i] {
            b'\n' => {
                line += 1;
                key_dots = 0;
                in_value = false;
            }
            b'.' if toml && !in_value => {
                key_dots += 1;
                if key_dots > max_depth {
                    return Err(Over::Depth(line));
                }
            }
            b'#' if toml => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            q @ (b'"' | b'\'') if q == b'"' || toml => {
                let triple = toml && b[i..].starts_with(&[q, q, q]);
                i += if triple { 3 } else { 1 };
                while i < b.len() {
                    if b[i] == b'\\' && q == b'"' {
                        if b.get(i + 1) == Some(&b'\n') {
                            line += 1;
                        }
                        i += 2;
                        continue;
                    }
                    if b[i] == b'\n' {
                        line += 1;
                        if !triple {
                            break;
                        }
                    }
                    if b[i] == q && (!triple || b[i..].starts_with(&[q, q, q])) {
                        i += if triple { 3 } else { 1 };
                        break;
                    }
                    i += 1;
                }
                continue;
            }
            c @ (b'[' | b'{' | b',' | b'=') => {
                in_value |= c == b'=';
                if c == b'[' || c == b'{' {
                    depth += 1;
                    if depth > max_depth {
                        return Err(Over::Depth(line));
                    }
                }
                values += 1;
                if values > max_values {
                    return Err(Over::Values(line));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(values)
}

/// Refuses TOML whose arrays or inline tables nest deeper than [`MAX_TOML_DEPTH`], or that holds
/// more than [`MAX_TOML_VALUES`] values, naming the line, before the parser builds anything.
pub fn toml_bounds(path: &Path, text: &str) -> Result<(), LoadError> {
    toml_bounds_at(path, text, MAX_TOML_VALUES)
}

/// [`toml_bounds`] with `max` values ([`MAX_SMALL_TOML_VALUES`] for a campaign or a profile).
pub fn toml_bounds_at(path: &Path, text: &str, max: usize) -> Result<(), LoadError> {
    shape(text, Syntax::Toml, MAX_TOML_DEPTH, max).map_err(|over| match over {
        Over::Depth(line) => LoadError::new(
            path,
            Some(line),
            format!(
                "arrays or tables nested more than {MAX_TOML_DEPTH} deep (each part of a dotted key \
                 is a table)"
            ),
        ),
        Over::Values(line) => LoadError::new(
            path,
            Some(line),
            format!(
                "more than {max} values (keys, list items and tables) by this line: the limit \
                 for this kind of file, far above any real one; remove what was repeated"
            ),
        ),
    })
}

/// Refuses JSON holding more than `max` values (see [`shape`]; serde_json limits the nesting),
/// naming the `what` (a save, a campaign save) and the line where it passes the limit, before
/// it is parsed.
pub fn json_bounds(path: &Path, text: &str, what: &str, max: usize) -> Result<(), LoadError> {
    shape(text, Syntax::Json, usize::MAX, max).map_err(|over| {
        let line = match over {
            Over::Depth(l) | Over::Values(l) => l,
        };
        LoadError::new(
            path,
            Some(line),
            format!(
                "the {what} holds more than {max} values (actions, events and their fields) by \
                 this line: the limit for a {what}, far above a long game's; it was not written \
                 whole by Kessel, or was edited: take it from a copy"
            ),
        )
    })?;
    match json_duplicate_key(text) {
        Some((line, key)) => Err(LoadError::new(
            path,
            Some(line),
            format!(
                "the {what} gives the key `{}` twice in one object (the last would have been \
                 read and the first passed over without a word): it was not written by Kessel \
                 as it is, or was edited; take it from a copy",
                printable_name(&key)
            ),
        )),
        None => Ok(()),
    }
}

/// The first key given twice in one object of the JSON `text`, with its 1-based line: a JSON
/// reader keeps the last and drops the first without a word (a lab record's `"seed":1,"seed":2`
/// was read as seed 2, a save's action parameter as its second value). `None` when no object
/// repeats a key, or when the text is not JSON (its reader says why).
pub fn json_duplicate_key(text: &str) -> Option<(usize, String)> {
    use serde::de::{Deserialize, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
    const TWICE: &str = "kessel: a key given twice: ";
    struct Unique;
    struct UniqueVisitor;
    impl<'de> Visitor<'de> for UniqueVisitor {
        type Value = Unique;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_bool<E>(self, _: bool) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_str<E>(self, _: &str) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_unit<E>(self) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Unique, A::Error> {
            while seq.next_element::<Unique>()?.is_some() {}
            Ok(Unique)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Unique, A::Error> {
            let mut seen = std::collections::HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                if !seen.insert(key.clone()) {
                    return Err(A::Error::custom(format!("{TWICE}{key}")));
                }
                map.next_value::<Unique>()?;
            }
            Ok(Unique)
        }
    }
    impl<'de> Deserialize<'de> for Unique {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Unique, D::Error> {
            d.deserialize_any(UniqueVisitor)
        }
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let err = serde_json::from_str::<Unique>(text).err()?;
    let message = err.to_string();
    let key = message.strip_prefix(TWICE)?;
    // serde_json ends a data error with " at line L column C"
    let key = key.rsplit_once(" at line ").map_or(key, |(k, _)| k);
    Some((err.line(), key.to_string()))
}

/// Turns a `toml` parse error into a located error.
pub fn toml_error(file: &Path, text: &str, err: &toml::de::Error) -> LoadError {
    toml_error_at(file, text, err.message(), err.span())
}

/// [`toml_error`] from its parts: the parser's message and its span in `text` (a scenario that
/// extends another is read from several files, and the span is moved to the file it is in).
pub fn toml_error_at(
    file: &Path,
    text: &str,
    message: &str,
    span: Option<std::ops::Range<usize>>,
) -> LoadError {
    let line = span.clone().map(|s| line_of(text, s.start));
    let mut message = plain_types(message.trim_end());
    // the parser hands a date-time to the reader as a table of its own, so a date given where
    // a number or a name goes read "invalid type: a table": it is said as the date it is
    let written = span.clone().and_then(|s| text.get(s)).map(str::trim);
    if let Some(date) = written.filter(|w| w.parse::<toml::value::Datetime>().is_ok()) {
        message = message.replace(
            "invalid type: a table",
            &format!("invalid type: the date-time {date}"),
        );
    }
    // the parser says only "duplicate key"; its span is the key written the second time
    if message == "duplicate key" {
        let key = span
            .and_then(|s| text.get(s))
            .map(|k| k.trim().trim_matches(|c| c == '"' || c == '\''))
            .filter(|k| !k.is_empty() && !k.contains('\n'));
        if let Some(key) = key {
            message = format!(
                "`{key}` is given twice: a key, or a [table] header, may appear only once \
                 (change the first one instead of adding another)"
            );
        }
    }
    LoadError::new(file, line, message)
}

/// Says the Rust type names and serde words a parser puts in its messages ("expected i64",
/// "expected a sequence", "integer `…` as i128", "expected struct SaveFile") the way a scenario
/// writer reads them ("expected a whole number", "expected a list", …). Used for every TOML and
/// JSON file Kessel reads.
pub fn plain_types(message: &str) -> String {
    let mut out = message.to_string();
    // a number past every integer type: the parser read it as the widest it has
    if let Some(at) = out.find(" as i128") {
        out.replace_range(
            at..at + " as i128".len(),
            ", too large for any number the file takes",
        );
    }
    for (words, plain) in [
        ("expected a sequence", "expected a list"),
        ("invalid type: sequence", "invalid type: a list"),
        ("expected a map", "expected a table"),
        ("invalid type: map", "invalid type: a table"),
        ("unknown variant", "unknown word"),
        (
            "EOF while parsing a value",
            "the text ends where a value should be (an empty or cut file?)",
        ),
        (
            "EOF while parsing",
            "the text ends too soon (a cut file?) while reading",
        ),
    ] {
        if out.contains(words) {
            out = out.replace(words, plain);
        }
    }
    // "expected struct SaveFile": the file's kind, not the Rust type behind it
    while let Some(at) = out.find("expected struct ") {
        let rest = &out[at + "expected struct ".len()..];
        let name_len = rest
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(rest.len());
        out.replace_range(
            at..at + "expected struct ".len() + name_len,
            "expected a table (an object)",
        );
    }
    // a whole number refused for its size is said with the bounds, as the unsigned types are
    // (`first_row = 9223372036854775807` read "expected a whole number")
    let out_of_range = out.contains("invalid value: integer");
    let (i64_words, i32_words) = if out_of_range {
        (
            "expected a whole number from -9223372036854775808 to 9223372036854775807",
            "expected a whole number from -2147483648 to 2147483647",
        )
    } else {
        ("expected a whole number", "expected a whole number")
    };
    for (rust, plain) in [
        ("expected i64", i64_words),
        ("expected i32", i32_words),
        // (the bounds said: a value refused for being too large is 0 or more too)
        (
            "expected u64",
            "expected a whole number from 0 to 18446744073709551615",
        ),
        (
            "expected u32",
            "expected a whole number from 0 to 4294967295",
        ),
        ("expected u16", "expected a whole number from 0 to 65535"),
        ("expected u8", "expected a whole number from 0 to 255"),
        (
            "expected usize",
            "expected a whole number from 0 to 18446744073709551615",
        ),
        ("expected f64", "expected a number"),
        ("expected f32", "expected a number"),
    ] {
        if let Some(at) = out.find(rust) {
            // only the whole word: "expected u8" is not the start of "expected u8x"
            let end = at + rust.len();
            if !out[end..].starts_with(|c: char| c.is_ascii_alphanumeric()) {
                out.replace_range(at..end, plain);
            }
        }
    }
    out
}

#[cfg(test)]
mod plain_type_tests {
    #[test]
    fn rust_type_names_are_said_plainly() {
        assert_eq!(
            super::plain_types("invalid type: string \"ten\", expected i64"),
            "invalid type: string \"ten\", expected a whole number"
        );
        assert_eq!(
            super::plain_types("invalid value: integer `-1`, expected u32"),
            "invalid value: integer `-1`, expected a whole number from 0 to 4294967295"
        );
        assert_eq!(
            super::plain_types("invalid value: integer `9223372036854775807`, expected i32"),
            "invalid value: integer `9223372036854775807`, expected a whole number from \
             -2147483648 to 2147483647"
        );
        assert_eq!(super::plain_types("expected a string"), "expected a string");
        assert_eq!(
            super::plain_types("invalid type: integer `99999999999999999999` as i128, expected u64"),
            "invalid type: integer `99999999999999999999`, too large for any number the file takes, expected a whole number from 0 to 18446744073709551615"
        );
        assert_eq!(
            super::plain_types("invalid type: string \"x\", expected a sequence"),
            "invalid type: string \"x\", expected a list"
        );
        assert_eq!(
            super::plain_types("invalid type: integer `3`, expected struct SaveFile at line 1"),
            "invalid type: integer `3`, expected a table (an object) at line 1"
        );
    }
}

/// Any error of the core as people and tools locate it: the file, the line when known, and the
/// message without them. Load errors, script errors and engine errors all come down to a list of
/// these, so the CLI and the editor show and link them the same way without parsing text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// The file, as shown to people (relative to the working folder where possible).
    pub file: Option<String>,
    /// 1-based line.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl Located {
    /// A problem that belongs to no file.
    pub fn plain(message: impl Into<String>) -> Located {
        Located {
            file: None,
            line: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // (indented further lines, as a `LoadError`'s: located errors are listed one a line)
        let message = continued(&self.message);
        match (&self.file, self.line) {
            (Some(file), Some(line)) => write!(f, "{file}:{line}: {message}"),
            (Some(file), None) => write!(f, "{file}: {message}"),
            _ => write!(f, "{message}"),
        }
    }
}

impl From<&LoadError> for Located {
    fn from(e: &LoadError) -> Located {
        Located {
            file: Some(crate::script::display_path(&e.file)),
            line: e.line,
            message: e.message.clone(),
        }
    }
}

impl From<&crate::script::ScriptError> for Located {
    fn from(e: &crate::script::ScriptError) -> Located {
        // the message leads with its own location; keep it once, in the fields
        let mut message = e.message.as_str();
        if let Some(file) = &e.file {
            let prefix = match e.line {
                Some(l) => format!("{file}:{l}: "),
                None => format!("{file}: "),
            };
            message = message.strip_prefix(prefix.as_str()).unwrap_or(message);
        }
        Located {
            file: e.file.clone(),
            line: e.line,
            message: message.to_string(),
        }
    }
}

impl LoadErrors {
    /// Every error, located.
    pub fn located(&self) -> Vec<Located> {
        self.0.iter().map(Located::from).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::ScriptError;

    #[test]
    fn a_key_given_twice_in_one_object_is_found_with_its_line() {
        assert_eq!(json_duplicate_key("{\"a\": 1, \"b\": {\"a\": 2}}"), None);
        assert_eq!(
            json_duplicate_key("{\"a\": 1,\n \"l\": [{\"k\": 1,\n \"k\": 2}]}"),
            Some((3, "k".to_string()))
        );
        assert_eq!(
            json_duplicate_key("{\"a\": 1, ] \"a\": 2}"),
            None,
            "not JSON: its reader says"
        );
        let err = json_bounds(
            Path::new("s.json"),
            "{\"seed\": 1,\n\"seed\": 2}",
            "save",
            100,
        )
        .expect_err("twice");
        assert!(
            err.to_string()
                .contains("s.json:2: the save gives the key `seed` twice"),
            "{err}"
        );
    }

    #[test]
    fn shape_counts_values_outside_strings_and_comments_and_names_the_line() {
        // strings and comments hold no values, whatever punctuation they carry
        let quiet = "a = \"[{,=\"\nb = '[,'  # [[,,,]]\nc = \"\"\"\n[,\n\"\"\"\n";
        assert_eq!(shape(quiet, Syntax::Toml, 64, 4), Ok(()));
        assert_eq!(shape(quiet, Syntax::Toml, 64, 3), Err(Over::Values(3)));
        // a list of n items is about n values: a 16 MB campaign of 200,000 games is refused
        // before it is parsed, at the line where it passes the limit
        let games = "[[game]]\nscenario = \"a.toml\"\n".repeat(60_000);
        let err = toml_bounds_at(Path::new("camp.toml"), &games, MAX_SMALL_TOML_VALUES)
            .expect_err("too many values");
        // three values a game (`[[`, `=`): the 33,334th game's header, on line 66,667
        assert_eq!(err.line, Some(66_667));
        assert!(
            err.message.contains("more than 100000 values"),
            "{}",
            err.message
        );
        assert!(
            toml_bounds(Path::new("camp.toml"), &games).is_ok(),
            "a scenario may hold more"
        );
        let list = format!("x = [{}]\n", "1,".repeat(500_000));
        assert!(toml_bounds(Path::new("x.toml"), &list).is_err());
        // JSON: `'` and `#` are plain characters, an escaped quote stays inside its string
        let json = "{\"a#\": \"it's \\\" [,,]\", \"b\": [1, 2, 3]}";
        assert_eq!(shape(json, Syntax::Json, 64, 6), Ok(()));
        assert_eq!(shape(json, Syntax::Json, 64, 5), Err(Over::Values(1)));
        assert_eq!(shape("[[[1]]]", Syntax::Json, 2, 99), Err(Over::Depth(1)));
        // a dotted key nests a table a part; a float's dot is no key's
        let dotted = format!("x = 1.5\n[{}]\n", vec!["a"; 70].join("."));
        assert_eq!(shape(&dotted, Syntax::Toml, 64, 99), Err(Over::Depth(2)));
        let floats = format!("x = [{}]\n", "1.5, ".repeat(100));
        assert_eq!(shape(&floats, Syntax::Toml, 64, 999), Ok(()));
        let err = json_bounds(Path::new("s.json"), "[\n1,\n2,\n3]", "save", 3).expect_err("over");
        assert_eq!(err.line, Some(3));
        assert!(
            err.message.contains("the save holds more than 3 values"),
            "{}",
            err.message
        );
    }

    #[test]
    fn printable_text_shows_control_characters_instead_of_obeying_them() {
        assert_eq!(
            printable("plain, with\ttab\nand newline"),
            "plain, with\ttab\n  and newline"
        );
        // a mod's line break cannot start a line that reads as the program's own
        assert_eq!(
            printable("x\nerror: fake.toml:1: forged"),
            "x\n  error: fake.toml:1: forged"
        );
        assert_eq!(terminal_line("a\nb"), "a\\u{a}b");
        let listed = LoadErrors(vec![
            LoadError::new(Path::new("s.toml"), Some(3), "x\nfake.toml:1: forged"),
            LoadError::new(Path::new("s.toml"), Some(9), "real"),
        ]);
        assert_eq!(
            listed.to_string(),
            "s.toml:3: x\n  fake.toml:1: forged\ns.toml:9: real"
        );
        assert_eq!(
            printable("\u{1b}[2Jx\ry\u{7}\u{9b}\u{202e}é"),
            "\\u{1b}[2Jx\\u{d}y\\u{7}\\u{9b}\\u{202e}é"
        );
        assert_eq!(printable_name("a\nb\tc"), "a\\u{a}b\\u{9}c");
        // characters that show as nothing are written out (a terrain row holding a zero-width
        // space said "terrain character `` is not in the legend"); the joiners scripts need stay
        assert_eq!(
            printable_name("r1\u{200b} w\u{feff} x\u{200f}\u{2060}\u{ad}"),
            "r1\\u{200b} w\\u{feff} x\\u{200f}\\u{2060}\\u{ad}"
        );
        assert_eq!(
            printable("می\u{200c}خواهم 👨\u{200d}👩"),
            "می\u{200c}خواهم 👨\u{200d}👩"
        );
        let whole = format!("{}\u{1b}", "x".repeat(MAX_SHOWN_MESSAGE * 2));
        assert_eq!(terminal_safe(&whole).len(), MAX_SHOWN_MESSAGE * 2 + 6);
        let long = "é".repeat(MAX_SHOWN_MESSAGE);
        let shown = printable(&long);
        assert!(shown.len() < MAX_SHOWN_MESSAGE + 64, "{}", shown.len());
        assert!(
            shown.ends_with(&format!("({} more bytes not shown)", MAX_SHOWN_MESSAGE)),
            "{}",
            shown.len()
        );
    }

    #[test]
    fn a_script_error_is_located_once() {
        let e = ScriptError {
            message: "rules/play.lua:12: unexpected symbol".into(),
            file: Some("rules/play.lua".into()),
            line: Some(12),
        };
        let l = e.located();
        assert_eq!(l.file.as_deref(), Some("rules/play.lua"));
        assert_eq!(l.line, Some(12));
        assert_eq!(l.message, "unexpected symbol");
        assert_eq!(l.to_string(), e.message);
    }

    fn toml_load_error(text: &str) -> LoadError {
        let err = toml::from_str::<toml::Table>(text).expect_err("the text is invalid TOML");
        toml_error(Path::new("x.toml"), text, &err)
    }

    #[test]
    fn a_duplicate_key_or_table_is_named() {
        let e = toml_load_error("[options]\na = true\nb = 1\na = false\n");
        assert_eq!(e.line, Some(4), "{e}");
        assert!(e.message.starts_with("`a` is given twice"), "{e}");
        let e = toml_load_error("[scenario]\nname = \"x\"\n\n[scenario]\nturns = 3\n");
        assert_eq!(e.line, Some(4), "{e}");
        assert!(e.message.starts_with("`scenario` is given twice"), "{e}");
        let e = toml_load_error("[s]\n\"quoted key\" = 1\n\"quoted key\" = 2\n");
        assert!(e.message.starts_with("`quoted key` is given twice"), "{e}");
        // other parse errors keep the parser's words
        let e = toml_load_error("a = \n");
        assert!(!e.message.contains("given twice"), "{e}");
    }

    #[test]
    fn load_errors_are_located_each() {
        let errors = LoadErrors(vec![
            LoadError::new(Path::new("a.toml"), Some(3), "bad"),
            LoadError::new(Path::new("b.toml"), None, "worse"),
        ]);
        let l = errors.located();
        assert_eq!(l.len(), 2);
        assert_eq!(l[0].to_string(), "a.toml:3: bad");
        assert_eq!(l[1].line, None);
    }
}
