-- expect: raised while showing the error
-- line: 5
-- An error object whose __tostring raises in turn: the second error is shown, at its line,
-- not lost and not a crash.
local E = setmetatable({}, { __tostring = function() error("raised while showing the error") end })
error(E)
