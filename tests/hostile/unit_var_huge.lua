-- expect: over the size limit
-- line: 6
-- A unit variable is kept in Rust memory, outside Lua's limit: its size is bounded.
kessel.setup{ map = { columns = 4, rows = 4 }, units = { { id = "u", side = "red", type = "inf", faces = { "1-1-1" } } } }
local big = string.rep("x", 600000)
kessel.emit.unit_var("u", "v", { big, big })
