-- A name the API lacks is answered with the nearest one it has. The nearness was an edit-distance
-- matrix of one row per character of the name: a 10 MB name took 1.5 GB and 20 s of Rust work,
-- outside the memory, instruction and time limits, and a pcall loop of it ran for ever.
-- expect: is not part of the Kessel API
-- line: 9
-- timeout: 20
local name = string.rep("u", 1e7)
for _ = 1, 20 do pcall(function() return kessel[name] end) end
local _ = kessel.units[name]
