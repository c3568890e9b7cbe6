-- expect: more bytes not shown
-- line: 5
-- A 10 MB error message is cut when shown, saying how much was left out, not poured into the
-- terminal.
error(string.rep("x", 1e7))
