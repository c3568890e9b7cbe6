-- Declarations each under the limit for one, but together far over what a ruleset holds: the same
-- 1000 KB name copied into the engine again and again.
kessel.ruleset{ name = "total", sides = { "red", "blue" } }
local name = string.rep("n", 1000000)
for i = 1, 1000 do
  kessel.unit_type{ id = "u" .. i, class = "foot", name = name }
end
