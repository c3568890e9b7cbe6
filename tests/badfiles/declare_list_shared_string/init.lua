-- A declaration's list whose items share one long string (Lua holds it once) would be ten
-- gigabytes to copy: the declaration is measured whole, each string as often as it appears,
-- before any field of it is read, so the copy is never started.
local s, names = string.rep("x", 1 << 19), {}
for i = 1, 20000 do names[i] = s end
kessel.ruleset{ name = "shared", sides = names }
