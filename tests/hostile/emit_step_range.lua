-- expect: it cannot have lost 1000000
-- line: 6
-- A step count far beyond a unit's faces would make an impossible unit: refused at the call.
kessel.setup{ map = { columns = 2, rows = 1 },
  units = { { id = "a", side = "red", type = "inf", faces = { "2-2-4" }, at = "0101" } } }
kessel.emit.step("a", 1000000)
