-- A declaration holding a chain of a million nested tables: the copy into the engine recursed
-- once a level and overflowed the stack (the process aborted).
kessel.ruleset{ name = "deep", sides = { "red", "blue" } }
local t = {}
for i = 1, 1e6 do t = { t } end
kessel.unit_type{ id = "inf", class = "foot", notes = t }
