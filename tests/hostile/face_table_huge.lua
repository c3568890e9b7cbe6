-- expect: over the size limit
-- line: 5
-- A named face is kept in Rust memory: its size is bounded.
kessel.setup{ map = { columns = 4, rows = 4 } }
kessel.emit.create_unit{ side = "red", type = "squad", faces = { { text = string.rep("x", 10000) } } }
