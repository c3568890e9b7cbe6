-- expect: 1024 tags, the limit
-- Tags added in play are kept in the map, in Rust memory: their number is bounded.
kessel.setup{ map = { columns = 4, rows = 4 } }
local i = 0
while true do i = i + 1; kessel.emit.tag("0101", "t" .. i) end
