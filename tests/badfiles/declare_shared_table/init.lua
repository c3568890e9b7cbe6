-- A declaration listing one 100 KB table twenty thousand times: Lua holds it once, and it was
-- measured once (100 KB, under the limit), but the engine copied it each time: 2 GB.
kessel.ruleset{ name = "shared", sides = { "red", "blue" } }
local one = { string.rep("x", 100000) }
local many = {}
for i = 1, 20000 do many[i] = one end
kessel.unit_type{ id = "inf", class = "foot", notes = many }
