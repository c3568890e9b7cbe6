-- expect: stack overflow
-- line: 9
-- timeout: 30
-- A step function that searches again fails at Lua's depth limit; the searches on the way down
-- went on calling it for every other edge, each call searching again, and a pcall of the first
-- ran until the wall clock. A failed function now ends its search's calls into Lua.
kessel.setup{ map = { columns = 9, rows = 9 } }
local function again()
  return kessel.paths.reach{ from = "0505", budget = 4, step = function() again() return 1 end }
end
local ok = pcall(again)
assert(not ok)
again()
