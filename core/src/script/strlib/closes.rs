//! Finding a to-be-closed variable (`local x <close> = ...`) in Lua source text before it is
//! compiled. When a budget error stops a call, Lua runs the `__close` handlers on its way out
//! with the VM's hooks off, where a looping one could never be stopped; so the sandbox refuses
//! the declaration itself.
//!
//! The text is read token by token as Lua's own lexer reads it (`llex.c`): comments, short and
//! long strings with their escapes (`\z`, an escaped line break), and every kind of white space
//! and line break between tokens. An attribute is the tokens `<`, the name `close` and `>`, with
//! anything Lua skips between them: a comment or a line break there hid it from a scanner that
//! only looked for `<close>` with spaces, and so did a string continued over lines (`\z`) or a
//! comment ended by a lone carriage return, which it read as the rest of a string or comment.

/// Whether `c` is one of the characters Lua's lexer skips between tokens.
fn space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Whether `c` may continue a Lua name.
fn name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

struct Lexer<'a> {
    text: &'a [u8],
    at: usize,
    line: usize,
}

impl Lexer<'_> {
    fn peek(&self, k: usize) -> Option<u8> {
        self.text.get(self.at + k).copied()
    }

    /// Steps over a line break at the cursor (`\n`, `\r`, `\n\r` or `\r\n`, one line as Lua
    /// counts them), if there is one.
    fn line_break(&mut self) -> bool {
        let Some(c @ (b'\n' | b'\r')) = self.peek(0) else {
            return false;
        };
        self.at += 1;
        if matches!(self.peek(0), Some(d @ (b'\n' | b'\r')) if d != c) {
            self.at += 1;
        }
        self.line += 1;
        true
    }

    /// The level of a long bracket (`[[`, `[==[`) opening at the cursor.
    fn long_open(&self) -> Option<usize> {
        if self.peek(0) != Some(b'[') {
            return None;
        }
        let mut k = 1;
        while self.peek(k) == Some(b'=') {
            k += 1;
        }
        (self.peek(k) == Some(b'[')).then_some(k - 1)
    }

    /// Steps past a long string or comment of `level` whose opening bracket is at the cursor.
    fn skip_long(&mut self, level: usize) {
        self.at += level + 2;
        while self.at < self.text.len() {
            if self.line_break() {
                continue;
            }
            if self.peek(0) == Some(b']') {
                let mut k = 1;
                while self.peek(k) == Some(b'=') {
                    k += 1;
                }
                if k - 1 == level && self.peek(k) == Some(b']') {
                    self.at += k + 1;
                    return;
                }
            }
            self.at += 1;
        }
    }

    /// Steps past a short string whose quote is at the cursor. A line break that is not escaped
    /// ends it (Lua refuses such a string, so nothing after it matters).
    fn skip_short(&mut self) {
        let quote = self.text[self.at];
        self.at += 1;
        while let Some(c) = self.peek(0) {
            match c {
                c if c == quote => {
                    self.at += 1;
                    return;
                }
                b'\n' | b'\r' => return,
                b'\\' => {
                    self.at += 1;
                    match self.peek(0) {
                        Some(b'\n' | b'\r') => {
                            self.line_break();
                        }
                        // `\z` skips the white space after it, line breaks included
                        Some(b'z') => {
                            self.at += 1;
                            while let Some(d) = self.peek(0) {
                                if self.line_break() {
                                    continue;
                                }
                                if !space(d) {
                                    break;
                                }
                                self.at += 1;
                            }
                        }
                        Some(_) => self.at += 1,
                        None => return,
                    }
                }
                _ => self.at += 1,
            }
        }
    }

    /// Steps past white space and comments: what Lua skips between two tokens.
    fn skip_trivia(&mut self) {
        while let Some(c) = self.peek(0) {
            if self.line_break() {
                continue;
            }
            if space(c) {
                self.at += 1;
            } else if c == b'-' && self.peek(1) == Some(b'-') {
                self.at += 2;
                if let Some(level) = self.long_open() {
                    self.skip_long(level);
                } else {
                    while self.peek(0).is_some_and(|c| c != b'\n' && c != b'\r') {
                        self.at += 1;
                    }
                }
            } else {
                return;
            }
        }
    }
}

/// The line of the first to-be-closed variable declared in `text`, if it declares one.
pub(crate) fn find_close_attribute(text: &[u8]) -> Option<usize> {
    let mut lx = Lexer {
        text,
        at: 0,
        line: 1,
    };
    loop {
        lx.skip_trivia();
        let c = lx.peek(0)?;
        match c {
            b'"' | b'\'' => lx.skip_short(),
            b'[' => match lx.long_open() {
                Some(level) => lx.skip_long(level),
                None => lx.at += 1,
            },
            // `<<` and `<=` are tokens of their own
            b'<' if matches!(lx.peek(1), Some(b'<' | b'=')) => lx.at += 2,
            b'<' => {
                let line = lx.line;
                lx.at += 1;
                lx.skip_trivia();
                if text[lx.at.min(text.len())..].starts_with(b"close")
                    && !lx.peek(5).is_some_and(name_char)
                {
                    lx.at += 5;
                    lx.skip_trivia();
                    if lx.peek(0) == Some(b'>') {
                        return Some(line);
                    }
                }
            }
            // a name or a number as one token, so `x--y` or `a.close` hides nothing
            c if name_char(c) => {
                while lx.peek(0).is_some_and(name_char) {
                    lx.at += 1;
                }
            }
            _ => lx.at += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::find_close_attribute as find;

    #[test]
    fn finds_the_attribute_however_it_is_spaced() {
        assert_eq!(find(b"local x <close> = nil"), Some(1));
        assert_eq!(find(b"local x < close > = nil"), Some(1));
        assert_eq!(find(b"local a, b <const>, c <close> = 1"), Some(1));
        assert_eq!(find(b"\n\nlocal x <close> = nil"), Some(3));
    }

    #[test]
    fn finds_the_attribute_split_by_what_lua_skips() {
        // comments, line breaks of every kind, vertical tab and form feed between the tokens
        assert_eq!(find(b"local g <--[[x]]close> = nil"), Some(1));
        assert_eq!(find(b"local g <--[==[\n]==]close> = nil"), Some(1));
        assert_eq!(find(b"local g <\nclose> = nil"), Some(1));
        assert_eq!(find(b"local g <close\n> = nil"), Some(1));
        assert_eq!(find(b"local g <close--x\n> = nil"), Some(1));
        assert_eq!(find(b"local g <\rclose\r> = nil"), Some(1));
        assert_eq!(find(b"local g <\x0bclose\x0c> = nil"), Some(1));
    }

    #[test]
    fn a_string_or_comment_cannot_swallow_the_code_after_it() {
        // a comment ended by a lone carriage return
        assert_eq!(find(b"-- x\rlocal g <close> = nil"), Some(2));
        // a string continued over a line with \z, or with an escaped line break
        assert_eq!(
            find(b"local s = \"a\\z\n  b\" local g <close> = nil"),
            Some(2)
        );
        assert_eq!(find(b"local s = 'a\\\n b' local g <close> = nil"), Some(2));
        assert_eq!(find(b"local s = \"a\\\"\" local g <close> = nil"), Some(1));
    }

    #[test]
    fn text_that_only_says_close_is_no_attribute() {
        assert_eq!(find(b"local s = \"local x <close> = nil\""), None);
        assert_eq!(find(b"local s = 'a\\z\n <close>'"), None);
        assert_eq!(find(b"-- local x <close> = nil"), None);
        assert_eq!(
            find(b"--[[ local x <close> ]] local t = [==[ <close> ]==]"),
            None
        );
        assert_eq!(find(b"local x <const> = 1"), None);
        assert_eq!(find(b"if a <closed then end"), None);
        assert_eq!(find(b"if a <= close then end"), None);
        assert_eq!(find(b"local y = a << close"), None);
        assert_eq!(find(b"if a < close then end"), None);
        assert_eq!(find(b"local s = \"unfinished\nlocal x = 1"), None);
    }

    #[test]
    fn lines_are_counted_as_lua_counts_them() {
        assert_eq!(find(b"a = 1\r\nb = 2\r\nlocal x <close> = nil"), Some(3));
        assert_eq!(find(b"a = 1\n\rb = 2\rlocal x <close> = nil"), Some(3));
        assert_eq!(find(b"--[[\n\n]] local x <close> = nil"), Some(3));
    }
}
