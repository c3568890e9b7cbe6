-- expect: bad argument #2 to `kessel.emit.step`: expected a whole number, got a number out of range (from 0 to 4294967295)
-- line: 7
-- A whole number out of the range an argument takes is told that range ("out of range" alone
-- left the script to guess the bounds).
kessel.setup{ map = { columns = 4, rows = 4 }, units = {
  { id = "u", side = "red", type = "inf", faces = { "1-1-1" }, at = "0101" } } }
kessel.emit.step("u", -1)
