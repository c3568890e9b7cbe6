-- expect: 100000 units, the limit | more than 100000 events in one call
-- Units created in play live in Rust memory: their number (and the events of one call) is bounded.
kessel.setup{ map = { columns = 4, rows = 4 } }
while true do kessel.emit.create_unit{ side = "red", type = "inf", faces = { "1-1-1" } } end
