-- expect: over the size limit
-- line: 4
-- A committed choice is kept in Rust memory: its size is bounded (64 KiB as JSON).
kessel.emit.commit("orders", "red", string.rep("x", 100000))
