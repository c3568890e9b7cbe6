//! Text shown to people from what mods and files hand the engine: made safe for a terminal,
//! bounded, paths tidied, and a program's own folders named as it asks (a package's unpacked
//! copy as the package).

use std::path::Path;

/// The most of one message [`printable`] shows: far more than any message of the engine's own,
/// far less than a script's `error(string.rep("x", 1e7))` would pour into a terminal.
pub const MAX_SHOWN_MESSAGE: usize = 16 << 10;

/// `text` made safe to print on a terminal: characters that steer it instead of showing
/// (C0 controls but newline and tab, DEL, C1 controls, Unicode's bidirectional overrides,
/// isolates and marks) and characters that show as nothing (a zero-width space, a word joiner, a
/// byte-order mark, a soft hyphen) are written as `\u{..}` escapes, so a name or an error raised by a mod cannot clear
/// the screen, move the cursor, rewrite earlier lines or reorder what is shown; and a message over
/// [`MAX_SHOWN_MESSAGE`] bytes is cut, saying how much was left out.
///
/// A message is printed after a word of the program's own (`error: `), so every line after its
/// first is indented: a mod's `error("x\nerror: map.toml:12: …")` reads as the continuation it
/// is, never as a second error of the program's, and a list of errors stays readable.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    shown(text, Breaks::Indent, MAX_SHOWN_MESSAGE)
}

/// Line breaks in a continued message: each followed by this, so no continuation line of a
/// message starts where the program's own lines start.
pub const CONTINUATION: &str = "  ";

/// `text` with each line after its first indented by [`CONTINUATION`]: how a message that goes
/// into a list of messages (a load error among others) keeps its own lines apart from the next
/// message's.
pub fn continued(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains('\n') {
        std::borrow::Cow::Owned(text.replace('\n', &format!("\n{CONTINUATION}")))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// Plain data quoted in a message (an action, a value), as JSON on one line cut at `max`
/// characters, saying how much was left out: a mod's action of a million numbers is quoted by
/// its start, not in full.
/// Only the head of the JSON is kept while it is written (an edited save's action of 150 MB
/// was written out whole, then cut): its length is counted.
pub fn quoted_json(value: &impl serde::Serialize, max: usize) -> String {
    /// Keeps the first `cap` bytes written, counts them all.
    struct Head {
        kept: Vec<u8>,
        cap: usize,
        total: usize,
    }
    impl std::io::Write for Head {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let room = self.cap.saturating_sub(self.kept.len()).min(buf.len());
            self.kept.extend_from_slice(&buf[..room]);
            self.total += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    // (a character is at most four bytes: `max` of them and one more fit)
    let mut head = Head {
        kept: Vec::new(),
        cap: max.saturating_add(1).saturating_mul(4),
        total: 0,
    };
    if serde_json::to_writer(&mut head, value).is_err() {
        return String::new();
    }
    let text = String::from_utf8_lossy(&head.kept);
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}… ({} bytes in all)", &text[..cut], head.total),
        None => text.into_owned(),
    }
}

/// [`printable`] for a command's whole output (a view, a listing): control characters escaped,
/// nothing cut.
pub fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    shown(text, Breaks::Keep, usize::MAX)
}

/// [`terminal_safe`] for output that is one line by construction (a line of `kessel check`'s
/// summary, a cell of a table): a line break or tab in a name it quotes is escaped, nothing cut.
pub fn terminal_line(text: &str) -> std::borrow::Cow<'_, str> {
    shown(text, Breaks::Escape, usize::MAX)
}

/// [`printable`] for text that is one item on a line of its own (a test's name, a unit's id): a
/// newline or tab in it is escaped too, so it cannot start a line that looks like the program's
/// own (`1 passed, 0 failed`).
pub fn printable_name(text: &str) -> std::borrow::Cow<'_, str> {
    shown(text, Breaks::Escape, MAX_SHOWN_MESSAGE)
}

/// What [`shown`] does with line breaks (and tabs).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Breaks {
    /// Kept: a command's whole output, whose lines are the program's own.
    Keep,
    /// Kept, each followed by [`CONTINUATION`]: a message.
    Indent,
    /// Escaped like any control character: one line, or one name.
    Escape,
}

/// Folders that messages show under another name: (the folder's path, its name).
static FOLDER_NAMES: std::sync::RwLock<Vec<(String, String)>> = std::sync::RwLock::new(Vec::new());

/// Makes the messages printed through [`printable`], [`terminal_safe`] and [`printable_name`]
/// show the folder `real` as `name`: a program that unpacks a file into a folder of its own
/// (a `.kessel` package into the user's cache) names the file in errors about what it holds,
/// `y.kessel/scenario.toml:14: …`, not the folder nobody knows of.
pub fn show_folder_as(real: &Path, name: &str) {
    let Ok(mut names) = FOLDER_NAMES.write() else {
        return;
    };
    let mut add = |folder: String| {
        if !folder.is_empty() && !names.iter().any(|(f, _)| *f == folder) {
            names.push((folder, name.to_string()));
        }
    };
    add(real.to_string_lossy().into_owned());
    if let Ok(canonical) = real.canonicalize() {
        add(canonical.to_string_lossy().into_owned());
    }
}

/// `text` with the folders of [`show_folder_as`] named as asked.
fn folders_named(text: &str) -> std::borrow::Cow<'_, str> {
    let Ok(names) = FOLDER_NAMES.read() else {
        return std::borrow::Cow::Borrowed(text);
    };
    let mut out = std::borrow::Cow::Borrowed(text);
    for (folder, name) in names.iter() {
        if out.contains(folder.as_str()) {
            out = std::borrow::Cow::Owned(out.replace(folder.as_str(), name));
        }
    }
    out
}

fn shown(text: &str, breaks: Breaks, max: usize) -> std::borrow::Cow<'_, str> {
    match folders_named(text) {
        std::borrow::Cow::Borrowed(t) => escaped(t, breaks, max),
        std::borrow::Cow::Owned(t) => {
            std::borrow::Cow::Owned(escaped(&t, breaks, max).into_owned())
        }
    }
}

/// A character that reorders or shows as nothing rather than showing: a bidirectional override,
/// isolate or mark, a zero-width space, a word joiner, a byte-order mark inside a line, a soft
/// hyphen. (The joiners scripts and emoji need, U+200C and U+200D, are not among them.)
pub fn hidden_char(c: char) -> bool {
    matches!(
        c,
        '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
            | '\u{200b}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{2060}'..='\u{2064}'
            | '\u{feff}'
            | '\u{061c}'
            | '\u{00ad}'
            | '\u{180e}'
    )
}

fn escaped(text: &str, breaks: Breaks, max: usize) -> std::borrow::Cow<'_, str> {
    let one_line = breaks == Breaks::Escape;
    // control characters, bidirectional overrides and marks, and characters that show as
    // nothing (a zero-width space, a word joiner, a byte-order mark inside a line, a soft
    // hyphen): a name holding one printed as "terrain character `` is not in the legend", or
    // as the name it was not. (The joiners scripts and emoji need, U+200C and U+200D, stay.)
    let steers =
        |c: char| (c.is_control() && (one_line || (c != '\n' && c != '\t'))) || hidden_char(c);
    let indents = breaks == Breaks::Indent && text.contains('\n');
    if text.len() <= max && !indents && !text.chars().any(steers) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut cut = text.len().min(max);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut out = String::with_capacity(cut + 64);
    for c in text[..cut].chars() {
        if steers(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else if c == '\n' && indents {
            out.push(c);
            out.push_str(CONTINUATION);
        } else {
            out.push(c);
        }
    }
    if cut < text.len() {
        out.push_str(&format!(" … ({} more bytes not shown)", text.len() - cut));
    }
    std::borrow::Cow::Owned(out)
}

/// A path as messages show it: `.` and `a/..` steps taken out
/// (`scenarios/pgg/../../scripts/pgg/x.toml` reads `scripts/pgg/x.toml`). Lexical only: for
/// showing, never for opening (through a symlinked folder `..` may lead elsewhere).
pub fn shown_path(path: &Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            _ => out.push(c),
        }
    }
    if out.is_empty() {
        return std::path::PathBuf::from(".");
    }
    out.iter().collect()
}

/// What an operating-system error says, in plain words without its number: "no such file or
/// folder", not "No such file or directory (os error 2)".
pub fn io_words(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::NotFound => "no such file or folder".into(),
        K::PermissionDenied => "permission denied".into(),
        K::AlreadyExists => "something of that name exists already".into(),
        K::NotADirectory => "a part of the path is a file, not a folder".into(),
        K::IsADirectory => "it is a folder, not a file".into(),
        K::DirectoryNotEmpty => "the folder is not empty".into(),
        K::ReadOnlyFilesystem => "the disk is read-only".into(),
        K::StorageFull => "the disk is full".into(),
        K::InvalidFilename => "the name is not one the file system allows".into(),
        _ => {
            let text = e.to_string();
            // "… (os error 13)": the number means nothing to a reader
            match text.rfind(" (os error ") {
                Some(i) if text.ends_with(')') => text[..i].to_string(),
                _ => text,
            }
        }
    }
}

/// Text for XML and HTML content and attribute values (the SVG of `kessel render`, the lab's
/// report): markup characters escaped, and control characters, which XML may not hold even
/// escaped, written as the messages write them (`\u{1}`), so a name holding one still draws.
/// Line breaks and tabs stay: XML holds them, and the report's text summary is lines.
pub fn xml_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            c if c.is_control() || c == '\u{fffe}' || c == '\u{ffff}' => {
                out.push_str(&c.escape_unicode().to_string())
            }
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod shown_path_tests {
    use super::shown_path;
    use std::path::Path;

    #[test]
    fn dot_steps_are_taken_out_for_showing() {
        let shown = |p: &str| shown_path(Path::new(p)).display().to_string();
        assert_eq!(
            shown("scenarios/pgg/../../scripts/pgg/profiles/x.toml"),
            "scripts/pgg/profiles/x.toml"
        );
        assert_eq!(shown("./a/./b"), "a/b");
        assert_eq!(shown("../up/a/../b"), "../up/b");
        assert_eq!(shown("/../etc"), "/etc");
        assert_eq!(shown("a/.."), ".");
    }
}

#[cfg(test)]
mod quoted_tests {
    use super::quoted_json;

    #[test]
    fn a_quoted_value_is_cut_at_max_characters_and_says_its_whole_length() {
        assert_eq!(quoted_json(&vec![1, 2, 3], 50), "[1,2,3]");
        let big: Vec<u32> = (0..100_000).collect();
        let whole = serde_json::to_string(&big).expect("json");
        let q = quoted_json(&big, 10);
        assert_eq!(q, format!("[0,1,2,3,4… ({} bytes in all)", whole.len()));
        // characters, not bytes: a cut never splits one
        let wide = vec!["ääääääääää".repeat(10)];
        let q = quoted_json(&wide, 5);
        assert!(q.starts_with("[\"äää…"), "{q}");
    }
}
