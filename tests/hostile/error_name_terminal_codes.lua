-- expect: \u{1b}[2J\u{1b}[31mFAKE
-- line: 6
-- An error object without __tostring is described by its metatable's __name, which is the
-- script's own text: its control characters are shown as escapes, never obeyed.
local E = setmetatable({}, { __name = "\27[2J\27[31mFAKE all tests passed" })
error(E)
