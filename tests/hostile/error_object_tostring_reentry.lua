-- expect: shown after driving the engine
-- line: 10
-- An error object whose __tostring drives the engine (a new position, an action) while the
-- engine is showing the error: it runs to its end and the error is the one raised, at its line.
local E = setmetatable({}, { __tostring = function()
  kessel.setup{ map = { columns = 3, rows = 3 } }
  kessel.act{ kind = "end_phase" }
  return "shown after driving the engine"
end })
error(E)
