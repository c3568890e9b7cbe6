-- expect: '__tostring' must return a string
-- line: 6
-- An error object whose __tostring returns a table: Lua's own complaint, at the line of the
-- `error` call (it had no line).
local E = setmetatable({}, { __tostring = function() return {} end })
error(E)
