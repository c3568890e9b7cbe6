-- expect: more than 100000 events in one call
-- Events live in Rust memory, outside Lua's limit: their number per call is bounded.
kessel.setup{ map = { columns = 4, rows = 4 } }
while true do kessel.emit.note(nil, "again") end
