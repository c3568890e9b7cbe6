-- expect: bad
-- line: 8
-- A line break in an error's text started a line that read as another error of the program's
-- own, naming another file ("error: scenarios/pgg/map.toml:12: forged"); the harness refuses
-- any line of the error that is not indented.
kessel.setup{ map = { columns = 4, rows = 4 }, units = {
  { id = "r", side = "red", type = "inf", faces = { "3-3-4" }, at = "0101" } } }
error("bad\nerror: scenarios/pgg/map.toml:12: forged")
