-- expect: an action: a table mixes integer and string keys
-- line: 8
-- An action's parameters are read as game variables are: a table mixing a list and fields
-- lost its fields ({ 1, x = 2 } arrived as { 1 }), a list with holes lost its tail, and a list
-- not starting at 1 failed with a parser's "invalid type: integer `2`, expected a string key".
kessel.setup{ map = { columns = 4, rows = 4 }, units = {
  { id = "r", side = "red", type = "inf", faces = { "3-3-4" }, at = "0101" } } }
kessel.act{ kind = "move", unit = "r", path = { "0102", x = 2 } }
