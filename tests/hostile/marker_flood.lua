-- expect: 100000 markers, the limit
-- Markers created in play live in Rust memory: their number is bounded.
kessel.setup{ map = { columns = 4, rows = 4 } }
while true do kessel.emit.create_marker{ kind = "x", value = 1 } end
