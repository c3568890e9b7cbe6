-- Declarations are kept in the engine's memory, outside Lua's limit: a ruleset declaring in an
-- endless loop grew the process by gigabytes before the wall clock stopped it.
kessel.ruleset{ name = "flood", sides = { "red", "blue" } }
local name = string.rep("n", 1000)
for i = 1, 1e9 do
  kessel.unit_type{ id = "u" .. i, class = "foot", name = name }
end
