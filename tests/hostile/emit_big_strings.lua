-- expect: over the limit
-- line: 6
-- A 15 MB flag would be copied into the game state (and every snapshot of it).
kessel.setup{ map = { columns = 4, rows = 4 },
  units = { { id = "r", side = "red", type = "inf", faces = { "1-1-1" }, at = "0101" } } }
kessel.emit.flag("r", string.rep("x", 15e6))
