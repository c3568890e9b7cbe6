-- expect: the search's `step` (hex by hex): unknown field `only_alon` (did you mean `only_along`?)
-- line: 8
-- A misspelt field of a search's tables (reach, trace, zoc, cost, their step and passage) was
-- ignored: the search ran without the restriction and every hex was reached, in silence.
kessel.setup{ map = { columns = 4, rows = 4 } }
local ok, e = pcall(kessel.paths.reach, { from = { "0101" }, budget = 2, side = "red" })
assert(not ok and e:find("unknown field `side`", 1, true), tostring(e))
local r = kessel.paths.reach{ from = { "0101" }, budget = 2, step = { hex = true, only_alon = { "road" } } }
