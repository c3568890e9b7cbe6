-- expect: \u{1b}[2J\u{1b}[1;31mall tests passed\u{1b}[0m\u{d}
-- line: 5
-- An error message is printed on a terminal: its control characters are shown as escapes,
-- never obeyed (clearing the screen, colouring a forged line, returning the cursor).
error("\27[2J\27[1;31mall tests passed\27[0m\r")
