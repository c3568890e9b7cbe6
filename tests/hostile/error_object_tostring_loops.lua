-- expect: instruction budget
-- line: 6
-- An error object whose __tostring never returns: the engine calls it to show the error, and it
-- is stopped by the budget like any other loop, at its line, instead of hanging the command
-- after the script has already failed.
local E = setmetatable({}, { __tostring = function() while true do end end })
error(E)
