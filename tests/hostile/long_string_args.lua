-- expect: instruction budget
-- A 1 MB "hex label", copied into the engine at every call of a cheap query.
kessel.setup{ map = { columns = 4, rows = 4 } }
local s = string.rep("x", 1e6)
while true do pcall(kessel.hex.neighbors, s) end
