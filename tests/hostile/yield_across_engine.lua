-- expect: attempt to yield across a C-call boundary
-- line: 7
-- A coroutine that yields from a metamethod the engine calls while it reads a filter: the
-- engine's call cannot be suspended half-way, so the yield is an error at its line, and the
-- engine's state is not left mid-read.
local co = coroutine.wrap(function()
  kessel.markers.all(setmetatable({}, { __index = function() coroutine.yield(1) end }))
end)
co()
co()
