-- expect: kessel.markers.all: unknown field `kindd` (did you mean `kind`?)
-- line: 5
-- A misspelt filter key filtered nothing and listed every marker, as if the filter were empty.
kessel.setup{ map = { columns = 4, rows = 4 } }
local mines = kessel.markers.all{ kindd = "mine" }
