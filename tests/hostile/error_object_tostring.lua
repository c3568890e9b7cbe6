-- expect: 42
-- line: 7
-- An error object is no message: Lua gives it no position, and what its __tostring returns
-- (here a number) reached the terminal as `file: 42`, with no line. The sandbox raises such
-- values so that the engine names the line of the `error` call.
local E = setmetatable({}, { __tostring = function() return 42 end })
error(E)
